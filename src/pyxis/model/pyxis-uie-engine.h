/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PYXIS_UIE_ENGINE_H
#define PYXIS_UIE_ENGINE_H

#include "pyxis-engine.h"

#include <deque>

namespace ns3
{

/**
 * \ingroup pyxis
 * \brief A UIE behind its descriptor queue (Pyxis spec 11.4.2, 11.7.1): runs a trip for the trip's
 * cycles.
 *
 * The trip carries its duration in chip cycles (the UIE kernel model computes it). The trip
 * starts LaunchCycles after its barrier's go [assumption: the spec gives no dispatch latency, 11.3;
 * T_launch = 50 cycles], or when the previous trip ends if that is later, runs for its cycles, and
 * is done (its barriers notified) CommitCycles after its end (the AMEM write commit, about 100
 * cycles, 11.7.2). The commit of one trip overlaps the next trip, within the UIE's TrackingIds (3)
 * completion tracking ids (11.7.1): a trip takes an id when it starts and frees it when done, so a
 * trip does not start while TrackingIds - 1 earlier trips are still committing (short trips back to
 * back wait for the oldest commit). A trip of 0 cycles is the no-op trip of 11.4.2 (it extends
 * a notify list).
 */
class PyxisUieEngine : public PyxisEngine
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();

    PyxisUieEngine();
    ~PyxisUieEngine() override;

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

    uint32_t m_launchCycles{50};  //!< go to start, in cycles
    uint32_t m_commitCycles{100}; //!< end to done, in cycles
    uint32_t m_trackingIds{3};    //!< completion tracking ids
    std::deque<Time> m_doneTimes; //!< done times of trips that ended, in order
};

} // namespace ns3

#endif /* PYXIS_UIE_ENGINE_H */
