/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pyxis-trip-manager.h"

#include "pyxis-barrier-table.h"
#include "pyxis-descriptor-queue.h"
#include "pyxis-engine.h"
#include "pyxis-queue-map.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PyxisTripManager");
NS_OBJECT_ENSURE_REGISTERED(PyxisTripManager);

TypeId
PyxisTripManager::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PyxisTripManager")
            .SetParent<Object>()
            .SetGroupName("Pyxis")
            .AddConstructor<PyxisTripManager>()
            .AddAttribute("Chip",
                          "Chip id, for traces and messages.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&PyxisTripManager::m_chip),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Cluster",
                          "Cluster of this Trip Manager (one per cluster, Pyxis spec 11.3).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&PyxisTripManager::m_cluster),
                          MakeUintegerChecker<uint32_t>(0, 3))
            .AddTraceSource("TripDiscarded",
                            "A trip was discarded by a trip flush without notify (chip, "
                            "cluster, queue, trip id).",
                            MakeTraceSourceAccessor(&PyxisTripManager::m_discardedTrace),
                            "ns3::PyxisTripManager::TripDiscardedTracedCallback");
    return tid;
}

PyxisTripManager::PyxisTripManager()
{
    NS_LOG_FUNCTION(this);
}

PyxisTripManager::~PyxisTripManager()
{
    NS_LOG_FUNCTION(this);
}

void
PyxisTripManager::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_tables.clear();
    m_queues.clear();
    m_drained = Callback<void>();
    Object::DoDispose();
}

void
PyxisTripManager::SetBarrierTables(const std::vector<Ptr<PyxisBarrierTable>>& tables)
{
    NS_ABORT_MSG_IF(m_cluster >= tables.size(),
                    "PyxisTripManager: cluster " << m_cluster << " has no barrier table");
    m_tables = tables;
}

void
PyxisTripManager::AddEngine(uint32_t queue, Ptr<PyxisEngine> engine)
{
    NS_LOG_FUNCTION(this << queue << engine);
    const PyxisQueueMap::Kind kind = PyxisQueueMap::GetKind(queue);
    NS_ABORT_MSG_IF(kind == PyxisQueueMap::INVALID || kind == PyxisQueueMap::DATAGRAM_TX ||
                        kind == PyxisQueueMap::DATAGRAM_RX,
                    "PyxisTripManager: queue 0x" << std::hex << queue
                                                 << " is not a trip descriptor queue");
    NS_ABORT_MSG_IF(m_queues.count(queue), "PyxisTripManager: queue " << queue << " added twice");
    Queue& qs = m_queues[queue];
    qs.ring = CreateObject<PyxisDescriptorQueue>();
    qs.ring->SetAttribute("QueueId", UintegerValue(queue));
    qs.engine = engine;
    engine->SetTripManager(MakeCallback(&PyxisTripManager::Released, this, queue),
                           MakeCallback(&PyxisTripManager::Done, this, queue));
}

Ptr<PyxisEngine>
PyxisTripManager::GetEngine(uint32_t queue) const
{
    const auto it = m_queues.find(queue);
    return it == m_queues.end() ? nullptr : it->second.engine;
}

Ptr<PyxisDescriptorQueue>
PyxisTripManager::GetQueue(uint32_t queue) const
{
    const auto it = m_queues.find(queue);
    return it == m_queues.end() ? nullptr : it->second.ring;
}

std::string
PyxisTripManager::Where(uint32_t q) const
{
    std::ostringstream os;
    os << "chip " << m_chip << " cluster " << m_cluster << " queue 0x" << std::hex << q << std::dec
       << " (" << PyxisQueueMap::GetName(q) << ")";
    return os.str();
}

bool
PyxisTripManager::CheckTrip(uint32_t queue, const PyxisTrip& trip, std::string& error) const
{
    std::ostringstream why;
    const auto it = m_queues.find(queue);
    const uint32_t barriers = m_tables.empty() ? 1024 : m_tables[m_cluster]->GetBarriers();
    if (it == m_queues.end())
    {
        const PyxisQueueMap::Kind kind = PyxisQueueMap::GetKind(queue);
        if (kind == PyxisQueueMap::DATAGRAM_TX || kind == PyxisQueueMap::DATAGRAM_RX)
        {
            why << "datagram queues are descriptor rings of the Fabric Adapter and hold no "
                   "trips (Pyxis spec 11.5.2)";
        }
        else
        {
            why << "no such trip descriptor queue in this cluster (Pyxis spec Table 11-1)";
        }
    }
    else if (trip.tripId > PyxisTrip::MAX_TRIP_ID)
    {
        why << "Trip_id " << trip.tripId << " does not fit its 20 bits (Pyxis spec 11.4.1)";
    }
    else if (trip.waitBarrier >= barriers)
    {
        why << "Wait_barrier_id " << trip.waitBarrier << " is not a local barrier id (0 to "
            << barriers - 1 << ", 0 = no wait; Pyxis spec 11.4.1)";
    }
    else if (trip.notify.size() > PyxisTrip::MAX_NOTIFY)
    {
        why << "a notify list of " << trip.notify.size() << " barriers refused: at most "
            << PyxisTrip::MAX_NOTIFY << " (Pyxis spec 11.4.1; extend it with no-op trips, 11.4.2)";
    }
    else
    {
        for (const PyxisBarrierRef& ref : trip.notify)
        {
            if (ref.cluster >= m_tables.size() || ref.id >= barriers)
            {
                why << "notify entry {cluster " << ref.cluster << ", id " << ref.id
                    << "} is not a barrier of this chip (" << m_tables.size()
                    << " clusters, ids below " << barriers << "; Pyxis spec 11.6.4)";
                break;
            }
        }
        std::string payload;
        if (why.str().empty() && !it->second.engine->CheckTrip(trip, payload))
        {
            why << payload;
        }
    }
    if (why.str().empty())
    {
        return true;
    }
    error = Where(queue) + ", trip " + std::to_string(trip.tripId) + ": " + why.str();
    return false;
}

bool
PyxisTripManager::TryEnqueue(uint32_t queue, const std::vector<PyxisTrip>& list, std::string& error)
{
    NS_LOG_FUNCTION(this << queue << list.size());
    for (const PyxisTrip& t : list)
    {
        if (!CheckTrip(queue, t, error))
        {
            return false;
        }
    }
    if (m_flush)
    {
        m_stats.submitted += list.size();
        for (const PyxisTrip& t : list)
        {
            Discard(queue, t);
        }
        return true;
    }
    std::string why;
    if (!m_queues[queue].ring->TryEnqueue(list, why))
    {
        error = Where(queue) + ": " + why;
        return false;
    }
    m_stats.submitted += list.size();
    Advance(queue);
    return true;
}

void
PyxisTripManager::Submit(uint32_t queue, const std::vector<PyxisTrip>& list)
{
    NS_LOG_FUNCTION(this << queue << list.size());
    std::string error;
    for (const PyxisTrip& t : list)
    {
        NS_ABORT_MSG_UNLESS(CheckTrip(queue, t, error), "PyxisTripManager: " << error);
    }
    NS_ABORT_MSG_IF(list.empty(), "PyxisTripManager: " << Where(queue) << ": an empty list");
    m_stats.submitted += list.size();
    if (m_flush)
    {
        for (const PyxisTrip& t : list)
        {
            Discard(queue, t);
        }
        return;
    }
    m_queues[queue].backlog.push_back(list);
    FeedRing(queue);
    Advance(queue);
}

void
PyxisTripManager::Submit(uint32_t queue, const PyxisTrip& trip)
{
    Submit(queue, std::vector<PyxisTrip>{trip});
}

void
PyxisTripManager::FeedRing(uint32_t q)
{
    NS_LOG_FUNCTION(this << q);
    Queue& qs = m_queues[q];
    std::string why;
    while (!qs.backlog.empty() && !qs.ring->IsFull())
    {
        const bool ok = qs.ring->TryEnqueue(qs.backlog.front(), why);
        NS_ASSERT_MSG(ok, why);
        qs.backlog.pop_front();
    }
}

void
PyxisTripManager::Advance(uint32_t q)
{
    NS_LOG_FUNCTION(this << q);
    Queue& qs = m_queues[q];
    if (qs.hasHead || m_flush || !qs.ring->HasTrip())
    {
        return;
    }
    qs.head = qs.ring->Pop();
    qs.hasHead = true;
    qs.headReady = false;
    FeedRing(q); // the fetch may have freed a ring entry
    if (qs.head.waitBarrier == 0)
    {
        qs.headReady = true;
        qs.goTime = Simulator::Now();
        TryDispatch(q);
        return;
    }
    std::string error;
    const uint64_t token = ++qs.token;
    switch (m_tables[m_cluster]->Wait(qs.head.waitBarrier,
                                      MakeCallback(&PyxisTripManager::Go, this, q, token),
                                      error))
    {
    case PyxisBarrierTable::WAIT_GO:
        qs.headReady = true;
        qs.goTime = Simulator::Now();
        TryDispatch(q);
        break;
    case PyxisBarrierTable::WAIT_BLOCKED:
        NS_LOG_LOGIC(Where(q) << " trip " << qs.head.tripId << " waits on barrier "
                              << qs.head.waitBarrier);
        break;
    default:
        NS_FATAL_ERROR("PyxisTripManager: " << Where(q) << ", trip " << qs.head.tripId << ": "
                                            << error);
    }
}

void
PyxisTripManager::Go(uint32_t q, uint64_t token)
{
    NS_LOG_FUNCTION(this << q << token);
    Queue& qs = m_queues[q];
    if (token != qs.token || !qs.hasHead || qs.headReady)
    {
        return; // a wait cancelled by a flush
    }
    qs.headReady = true;
    qs.goTime = Simulator::Now();
    TryDispatch(q);
}

void
PyxisTripManager::TryDispatch(uint32_t q)
{
    NS_LOG_FUNCTION(this << q);
    Queue& qs = m_queues[q];
    if (!qs.hasHead || !qs.headReady || qs.engine->IsBusy())
    {
        return;
    }
    const PyxisTrip trip = qs.head;
    const Time go = qs.goTime;
    qs.hasHead = false;
    qs.headReady = false;
    ++m_outstanding;
    ++m_stats.dispatched;
    NS_LOG_LOGIC(Where(q) << " dispatches trip " << trip.tripId);
    qs.engine->Start(trip, go);
    Advance(q);
}

void
PyxisTripManager::Released(uint32_t q)
{
    NS_LOG_FUNCTION(this << q);
    TryDispatch(q);
    CheckDrained();
}

void
PyxisTripManager::Done(uint32_t q, PyxisTrip trip, bool notify)
{
    NS_LOG_FUNCTION(this << q << trip.tripId << notify);
    NS_ASSERT(m_outstanding > 0);
    --m_outstanding;
    if (notify)
    {
        ++m_stats.done;
        for (const PyxisBarrierRef& ref : trip.notify)
        {
            if (ref.id == 0)
            {
                continue; // a no-op entry
            }
            std::string error;
            ++m_stats.notifies;
            NS_ABORT_MSG_UNLESS(m_tables[ref.cluster]->Notify(ref.id, error),
                                "PyxisTripManager: " << Where(q) << ", trip " << trip.tripId << ": "
                                                     << error);
        }
    }
    else
    {
        ++m_stats.failed;
    }
    CheckDrained();
}

void
PyxisTripManager::Discard(uint32_t q, const PyxisTrip& trip)
{
    NS_LOG_FUNCTION(this << q << trip.tripId);
    NS_LOG_LOGIC(Where(q) << " discards trip " << trip.tripId);
    ++m_stats.discarded;
    m_discardedTrace(m_chip, m_cluster, q, trip.tripId);
}

void
PyxisTripManager::SetFlushMode(bool on)
{
    NS_LOG_FUNCTION(this << on);
    m_flush = on;
    m_drainedSignalled = false;
    if (!on)
    {
        return;
    }
    for (auto& [q, qs] : m_queues)
    {
        if (qs.hasHead && !qs.headReady)
        {
            ++qs.token; // the barrier wait is cancelled
            qs.hasHead = false;
            Discard(q, qs.head);
        }
        for (const PyxisTrip& t : qs.ring->Flush())
        {
            Discard(q, t);
        }
        for (const auto& list : qs.backlog)
        {
            for (const PyxisTrip& t : list)
            {
                Discard(q, t);
            }
        }
        qs.backlog.clear();
    }
    CheckDrained();
}

void
PyxisTripManager::SetDrainedCallback(Callback<void> drained)
{
    m_drained = drained;
}

bool
PyxisTripManager::IsIdle() const
{
    if (m_outstanding != 0)
    {
        return false;
    }
    for (const auto& [q, qs] : m_queues)
    {
        if (qs.hasHead || qs.ring->HasTrip() || !qs.backlog.empty() || qs.engine->IsBusy())
        {
            return false;
        }
    }
    return true;
}

void
PyxisTripManager::CheckDrained()
{
    NS_LOG_FUNCTION(this);
    if (!m_flush || m_drainedSignalled || !IsIdle())
    {
        return;
    }
    NS_LOG_LOGIC("chip " << m_chip << " cluster " << m_cluster << " drained");
    m_drainedSignalled = true;
    if (!m_drained.IsNull())
    {
        m_drained();
    }
}

} // namespace ns3
