/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_CLOCK_H
#define FABRIC_CLOCK_H

#include "ns3/nstime.h"
#include "ns3/simulator.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup fabric
 * \brief The simulation time of the event being run, read without a call into the simulator.
 *
 * Simulator::Now() goes through three out-of-line calls (Simulator::Now, the implementation
 * lookup and the virtual SimulatorImpl::Now); the per-unit path of every fabric asks for the time
 * about seven times per unit and hop, which was 6% of the instructions of the SUE benchmark
 * (src/pod/doc/performance.rst, What the code does for speed). Every ns-3 simulator implementation
 * (DefaultSimulatorImpl, DistributedSimulatorImpl, NullMessageSimulatorImpl) makes the time
 * stamp of the event it takes from its scheduler the current time before it runs the event, so
 * the scheduler that hands the event out knows the time: FabricPeekScheduler, the one the pod
 * builder installs, records it here in RemoveNext().
 *
 * Now() returns that time while a recording scheduler is alive and has handed out an event, and
 * Simulator::Now() otherwise (before the first event, after Simulator::Destroy, and in runs
 * without FabricPeekScheduler). The two agree at every call: FabricClockTestCase checks it, and
 * every result of the test suites depends on it.
 */
class FabricClock
{
  public:
    /// \return the current simulation time (Simulator::Now(), without the calls)
    static Time Now()
    {
        if (m_owner != nullptr)
        {
            return TimeStep(m_ts);
        }
        return Simulator::Now();
    }

    /**
     * \brief Record the time stamp of the event a scheduler hands out to be run.
     * \param owner the scheduler
     * \param ts the event's time stamp (time steps)
     */
    static void Set(const void* owner, uint64_t ts)
    {
        m_owner = owner;
        m_ts = ts;
    }

    /**
     * \brief Stop reading a scheduler's record (it is going away); Now() then asks the simulator.
     * \param owner the scheduler; nothing changes when another one holds the record
     */
    static void Reset(const void* owner)
    {
        if (m_owner == owner)
        {
            m_owner = nullptr;
        }
    }

  private:
    static const void* m_owner; //!< the scheduler whose record is read, or null
    static uint64_t m_ts;       //!< the time stamp of the event being run (time steps)
};

} // namespace ns3

#endif /* FABRIC_CLOCK_H */
