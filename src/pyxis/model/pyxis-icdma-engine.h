/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PYXIS_ICDMA_ENGINE_H
#define PYXIS_ICDMA_ENGINE_H

#include "pyxis-engine.h"

#include "ns3/ptr.h"

namespace ns3
{

class PyxisCoreSwitch;

/**
 * \ingroup pyxis
 * \brief An inter-cluster DMA engine (Pyxis spec 12.2, 11.4.5): AMEM of its cluster to
 * the AMEM of one fixed other cluster (Table 12-1), through the Core Switch.
 *
 * A trip moves its bytes in 128 B words (a multiple of 128 B, at most 2^16 words = 8 MiB) at up
 * to BytesPerCycle (128 B per cycle), over the planes of its plane mask, sharing the switch
 * ports max-min fairly with the other flows (PyxisCoreSwitch). It is done CommitCycles after
 * its last byte (AMEM write commit, 11.7.2).
 */
class PyxisIcdmaEngine : public PyxisEngine
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();

    PyxisIcdmaEngine();
    ~PyxisIcdmaEngine() override;

    /**
     * \param coreSwitch the chip's Core Switch
     * \param destination the destination cluster of this engine
     */
    void SetCoreSwitch(Ptr<PyxisCoreSwitch> coreSwitch, uint32_t destination);

    /// \return the Core Switch flow of the running trip (0: none)
    uint64_t GetFlow() const
    {
        return m_flow;
    }

    bool CheckTrip(const PyxisTrip& trip, std::string& error) const override;

  protected:
    void DoDispose() override;
    void DoStart(const PyxisTrip& trip, Time goTime) override;
    Time GetCommitDelay() const override;

  private:
    /**
     * The flow ended.
     * \param trip the trip
     * \param start when it began
     */
    void End(PyxisTrip trip, Time start);

    Ptr<PyxisCoreSwitch> m_switch; //!< the chip's Core Switch
    uint32_t m_destination{0};     //!< destination cluster
    uint64_t m_flow{0};            //!< running flow
    uint32_t m_bytesPerCycle{128}; //!< engine limit
    uint32_t m_commitCycles{100};  //!< end to done
};

} // namespace ns3

#endif /* PYXIS_ICDMA_ENGINE_H */
