/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-arrival-order.h"

#include "fabric-clock.h"
#include "fabric-net-device.h"
#include "fabric-peek-scheduler.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulation-singleton.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricArrivalOrder");

FabricArrivalOrder::FabricArrivalOrder()
{
    NS_LOG_FUNCTION(this);
}

FabricArrivalOrder::~FabricArrivalOrder()
{
    NS_LOG_FUNCTION(this);
}

FabricArrivalOrder*
FabricArrivalOrder::Get()
{
    return SimulationSingleton<FabricArrivalOrder>::Get();
}

const FabricArrivalOrder::Stats&
FabricArrivalOrder::GetStats() const
{
    return m_stats;
}

void
FabricArrivalOrder::Stage(const Ptr<FabricNetDevice>& dst,
                          const Ptr<FabricPacket>& p,
                          bool corrupted,
                          Time at,
                          uint64_t seq)
{
    NS_LOG_FUNCTION(this << dst << p << corrupted << at << seq);
    const Time now = FabricClock::Now();
    NS_ABORT_MSG_IF(at < now,
                    "FabricArrivalOrder: a unit staged " << (now - at).As(Time::PS)
                                                         << " in the past");
    ++m_stats.units;
    auto [it, added] = m_pending.try_emplace(at.GetTimeStep());
    if (added && !m_spare.empty())
    {
        it->second = std::move(m_spare.back());
        m_spare.pop_back();
    }
    const uint32_t node = dst->GetNodeId();
    it->second.push_back(Unit{node, dst->GetIfIndex(), seq, dst, p, corrupted});
    if (added)
    {
        // One drain event per picosecond; the context is the first receiver's (logging only).
        Simulator::ScheduleWithContext(node, at - now, &FabricArrivalOrder::Drain, this);
    }
}

bool
FabricArrivalOrder::OtherEventNow()
{
    if (const FabricPeekScheduler* s = FabricPeekScheduler::GetInstalled())
    {
        return s->HasEventAt(FabricClock::Now().GetTimeStep());
    }
    // Without a peek: an event deferred with a zero delay runs after every event pending at the
    // present time stamp (ns-3 orders one time stamp by insertion), so if no event ran between
    // the deferral and now, none was pending.
    const uint64_t count = Simulator::GetEventCount();
    if (m_deferredAt + 1 == count)
    {
        m_deferredAt = UINT64_MAX;
        return false;
    }
    m_deferredAt = count;
    return true;
}

void
FabricArrivalOrder::Drain()
{
    NS_LOG_FUNCTION(this);
    auto it = m_pending.find(FabricClock::Now().GetTimeStep());
    NS_ABORT_MSG_IF(it == m_pending.end(),
                    "FabricArrivalOrder: a drain event without units of its picosecond");
    if (OtherEventNow())
    {
        ++m_stats.deferrals;
        Simulator::ScheduleNow(&FabricArrivalOrder::Drain, this);
        return;
    }
    std::vector<Unit> units = std::move(it->second);
    m_pending.erase(it);
    ++m_stats.drains;
    // Receive() may stage more units (later picoseconds, or this one after a zero delay: a new
    // drain event); the units being handed over are no longer in the map.
    if (units.size() == 1)
    {
        units[0].dst->Receive(units[0].p, units[0].corrupted);
    }
    else
    {
        m_stats.shared += units.size();
        // Sort compact keys, not the units (whose smart pointers are dear to move, and whose
        // fields a comparison would fetch from scattered cache lines). The comparisons and
        // moves are those of sorting the units by {node, ifIndex, seq}: the same order.
        std::vector<OrderKey> order = std::move(m_order);
        order.resize(units.size());
        for (uint32_t i = 0; i < order.size(); ++i)
        {
            const Unit& u = units[i];
            order[i] = OrderKey{(static_cast<uint64_t>(u.node) << 32) | u.ifIndex, u.seq, i};
        }
        std::sort(order.begin(), order.end(), [](const OrderKey& x, const OrderKey& y) {
            return x.port < y.port || (x.port == y.port && x.seq < y.seq);
        });
        for (const OrderKey& k : order)
        {
            units[k.index].dst->Receive(units[k.index].p, units[k.index].corrupted);
        }
        order.clear();
        m_order = std::move(order);
    }
    units.clear();
    m_spare.push_back(std::move(units));
}

} // namespace ns3
