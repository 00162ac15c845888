/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PYXIS_MPE_ENGINE_H
#define PYXIS_MPE_ENGINE_H

#include "pyxis-engine.h"

namespace ns3
{

/**
 * \ingroup pyxis
 * \brief A Microcode Patch Engine behind its descriptor queue (Pyxis spec 12.6, 11.4.10): runs a
 * trip for the trip's cycles.
 *
 * The patch blob's time (NoC reads and register writes) is given by the trip in chip cycles;
 * the model has no NoC. Launch and commit delays are attributes, 0 by default [assumption: the
 * patches are register writes over the NoC, acknowledged when done, not AMEM posted writes].
 */
class PyxisMpeEngine : public PyxisEngine
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();

    PyxisMpeEngine();
    ~PyxisMpeEngine() override;

    bool CheckTrip(const PyxisTrip& trip, std::string& error) const override;

  protected:
    void DoStart(const PyxisTrip& trip, Time goTime) override;
    Time GetCommitDelay() const override;

  private:
    /**
     * Begin a trip.
     * \param trip the trip
     */
    void Begin(PyxisTrip trip);

    /**
     * End a trip.
     * \param trip the trip
     * \param start when it began
     */
    void End(PyxisTrip trip, Time start);

    uint32_t m_launchCycles{0}; //!< go to start, in cycles
    uint32_t m_commitCycles{0}; //!< end to done, in cycles
};

} // namespace ns3

#endif /* PYXIS_MPE_ENGINE_H */
