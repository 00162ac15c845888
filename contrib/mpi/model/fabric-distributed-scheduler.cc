/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-distributed-scheduler.h"

#include "fabric-remote-arrival.h"

#include "ns3/assert.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <climits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricDistributedScheduler");
NS_OBJECT_ENSURE_REGISTERED(FabricDistributedScheduler);

TypeId
FabricDistributedScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FabricDistributedScheduler")
                            .SetParent<Scheduler>()
                            .SetGroupName("Fabric")
                            .AddConstructor<FabricDistributedScheduler>();
    return tid;
}

FabricDistributedScheduler::FabricDistributedScheduler()
{
    NS_LOG_FUNCTION(this);
}

FabricDistributedScheduler::~FabricDistributedScheduler()
{
    NS_LOG_FUNCTION(this);
}

void
FabricDistributedScheduler::Insert(const Event& ev)
{
    int64_t inserted = Simulator::Now().GetTimeStep();
    uint32_t origin = 0;
    if (const auto* arrival = dynamic_cast<const FabricRemoteArrival*>(ev.impl))
    {
        inserted = arrival->GetSent().GetTimeStep();
        origin = 1 + arrival->GetSender();
    }
    m_events.emplace(Key{ev.key.m_ts, inserted, origin, ev.key.m_uid}, ev);
}

bool
FabricDistributedScheduler::IsEmpty() const
{
    return m_events.empty();
}

Scheduler::Event
FabricDistributedScheduler::PeekNext() const
{
    NS_ASSERT(!m_events.empty());
    return m_events.begin()->second;
}

Scheduler::Event
FabricDistributedScheduler::RemoveNext()
{
    NS_ASSERT(!m_events.empty());
    auto it = m_events.begin();
    Event ev = it->second;
    m_events.erase(it);
    return ev;
}

void
FabricDistributedScheduler::Remove(const Event& ev)
{
    // The time of insertion is not in the key ns-3 hands back: look among the events of that
    // time stamp (removals are rare: Simulator::Remove).
    auto it = m_events.lower_bound(Key{ev.key.m_ts, INT64_MIN, 0, 0});
    for (; it != m_events.end() && std::get<0>(it->first) == ev.key.m_ts; ++it)
    {
        if (std::get<3>(it->first) == ev.key.m_uid)
        {
            m_events.erase(it);
            return;
        }
    }
    NS_ASSERT_MSG(false, "FabricDistributedScheduler: event " << ev.key.m_uid << " not found");
}

} // namespace ns3
