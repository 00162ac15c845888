/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PYXIS_HBM_DMA_ENGINE_H
#define PYXIS_HBM_DMA_ENGINE_H

#include "pyxis-engine.h"

#include "ns3/ptr.h"

namespace ns3
{

class PyxisHbmBus;

/**
 * \ingroup pyxis
 * \brief An HBM DMA engine of a cluster: H2A (HBM to AMEM) or A2H (AMEM to HBM) (Pyxis spec 12.1,
 * 11.4.3-4).
 *
 * A trip moves its bytes in 1 KB units (a multiple of 1024 B, at most 64 MiB: 16-bit N-1 length
 * in KB). Its time is T = SetupCycles + bytes / (1228.8 GB/s x eta) [assumption, 12.1] on the
 * cluster's PyxisHbmBus, which H2A and A2H share when both run (half duplex, read/write bias).
 * eta is EfficiencyLarge for a trip of at least EfficientBytes (the spec's "at least 100K bytes")
 * and falls linearly to EfficiencySmall towards 0 B below it [assumption: the spec only says
 * "much lower efficiency"; the ramp keeps the time monotone in the size]. The engine itself
 * moves at most EngineBytesPerCycle (1024 B per cycle = 1.36 TB/s, 8.1, 12.1). An H2A trip is
 * done CommitCycles after its last byte (AMEM write commit, 11.7.2); an A2H trip at once (the
 * HBM controller orders read after write, 11.7).
 */
class PyxisHbmDmaEngine : public PyxisEngine
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();

    PyxisHbmDmaEngine();
    ~PyxisHbmDmaEngine() override;

    /**
     * \param bus the cluster's HBM device
     */
    void SetHbmBus(Ptr<PyxisHbmBus> bus);

    /**
     * \param bytes a trip's bytes
     * \return its eta
     */
    double GetEfficiency(double bytes) const;

    bool CheckTrip(const PyxisTrip& trip, std::string& error) const override;

  protected:
    void DoDispose() override;
    void DoStart(const PyxisTrip& trip, Time goTime) override;
    Time GetCommitDelay() const override;

  private:
    /**
     * Setup done: start the transfer.
     * \param trip the trip
     * \param start when it began
     */
    void Transfer(PyxisTrip trip, Time start);

    /**
     * The transfer ended.
     * \param trip the trip
     * \param start when it began
     */
    void End(PyxisTrip trip, Time start);

    Ptr<PyxisHbmBus> m_bus;               //!< the cluster's HBM device
    bool m_h2a{true};                     //!< direction
    uint32_t m_setupCycles{100};          //!< per-trip setup
    double m_efficiencyLarge{0.9};        //!< eta of large trips
    double m_efficiencySmall{0.3};        //!< eta towards 0 B
    uint64_t m_efficientBytes{102400};    //!< size from which eta is EfficiencyLarge
    uint32_t m_engineBytesPerCycle{1024}; //!< engine limit
    uint32_t m_commitCycles{100};         //!< H2A: end to done
};

} // namespace ns3

#endif /* PYXIS_HBM_DMA_ENGINE_H */
