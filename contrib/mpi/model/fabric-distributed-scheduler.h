/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_DISTRIBUTED_SCHEDULER_H
#define FABRIC_DISTRIBUTED_SCHEDULER_H

#include "ns3/scheduler.h"

#include <cstdint>
#include <map>
#include <tuple>

namespace ns3
{

/**
 * \ingroup fabric
 * \brief The event scheduler of a distributed run: simultaneous events in an order that does not
 * depend on when units from other ranks were received.
 *
 * ns-3's schedulers order events by (time, insertion id). In a distributed run a unit from
 * another rank is inserted when its rank receives it, at one of the synchronizations before its
 * receive time, and which one depends on when MPI delivers it: with (time, insertion id), two
 * runs of the same scenario could order simultaneous events differently. This scheduler orders
 * by (time, time of insertion, origin, insertion id), where a FabricRemoteArrival counts as
 * inserted when its unit was sent, with origin 1 + the sending node's id (0 for every other
 * event). Events inserted on one rank keep their (time, id) order, since ids grow with the time
 * of insertion, so a one-rank run is the sequential run event for event; units from other ranks
 * come after the local events inserted at the time they were sent, in the order of their
 * sending nodes, and of their sending order for one node.
 */
class FabricDistributedScheduler : public Scheduler
{
  public:
    static TypeId GetTypeId();
    FabricDistributedScheduler();
    ~FabricDistributedScheduler() override;

    void Insert(const Event& ev) override;
    bool IsEmpty() const override;
    Event PeekNext() const override;
    Event RemoveNext() override;
    void Remove(const Event& ev) override;

  private:
    /// (time stamp, time of insertion, origin, insertion id)
    typedef std::tuple<uint64_t, int64_t, uint32_t, uint32_t> Key;
    std::map<Key, Event> m_events; //!< the pending events
};

} // namespace ns3

#endif /* FABRIC_DISTRIBUTED_SCHEDULER_H */
