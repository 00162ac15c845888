/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pyxis-barrier-table.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PyxisBarrierTable");
NS_OBJECT_ENSURE_REGISTERED(PyxisBarrierTable);

TypeId
PyxisBarrierTable::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PyxisBarrierTable")
            .SetParent<Object>()
            .SetGroupName("Pyxis")
            .AddConstructor<PyxisBarrierTable>()
            .AddAttribute("Barriers",
                          "Barrier objects in the table, id 0 reserved as no barrier (Pyxis spec "
                          "11.6.3: 1024 per cluster; ids are 10 bits).",
                          UintegerValue(1024),
                          MakeUintegerAccessor(&PyxisBarrierTable::SetBarriers,
                                               &PyxisBarrierTable::GetBarriers),
                          MakeUintegerChecker<uint32_t>(2, 1024))
            .AddAttribute("Chip",
                          "Chip id, for messages.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&PyxisBarrierTable::m_chip),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Cluster",
                          "Cluster of the table (2-bit cluster index of global ids, 11.6.4).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&PyxisBarrierTable::m_cluster),
                          MakeUintegerChecker<uint32_t>(0, 3))
            .AddTraceSource("Released",
                            "A barrier's notify_count reached 0 with valid counts: its consumers "
                            "are released (cluster, id).",
                            MakeTraceSourceAccessor(&PyxisBarrierTable::m_releasedTrace),
                            "ns3::PyxisBarrierTable::BarrierTracedCallback")
            .AddTraceSource("Freed",
                            "A barrier was freed: both counts 0 (cluster, id).",
                            MakeTraceSourceAccessor(&PyxisBarrierTable::m_freedTrace),
                            "ns3::PyxisBarrierTable::BarrierTracedCallback");
    return tid;
}

PyxisBarrierTable::PyxisBarrierTable()
{
    NS_LOG_FUNCTION(this);
    m_barriers.resize(1024);
}

PyxisBarrierTable::~PyxisBarrierTable()
{
    NS_LOG_FUNCTION(this);
}

void
PyxisBarrierTable::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_barriers.clear();
    Object::DoDispose();
}

void
PyxisBarrierTable::SetBarriers(uint32_t n)
{
    NS_LOG_FUNCTION(this << n);
    NS_ABORT_MSG_IF(m_inUse != 0,
                    "PyxisBarrierTable: " << Where() << ": Barriers set while " << m_inUse
                                          << " barriers are in use");
    m_barriers.assign(n, Barrier{});
    m_nextAlloc = 1;
}

uint32_t
PyxisBarrierTable::GetBarriers() const
{
    return m_barriers.size();
}

std::string
PyxisBarrierTable::Where() const
{
    std::ostringstream os;
    os << "chip " << m_chip << " cluster " << m_cluster;
    return os.str();
}

bool
PyxisBarrierTable::InUse(const Barrier& b)
{
    return b.allocated || b.refCountsValid || b.notifyCount != 0 || b.waitCount != 0 ||
           !b.consumers.empty();
}

bool
PyxisBarrierTable::CheckId(uint32_t id, const char* op, std::string& error)
{
    if (id == 0 || id >= m_barriers.size())
    {
        std::ostringstream os;
        os << Where() << ": " << op << " on barrier " << id << ": ids are 1 to "
           << m_barriers.size() - 1 << " (0 is no barrier, Pyxis spec 11.6.3)";
        error = os.str();
        ++m_stats.refusals;
        return false;
    }
    return true;
}

void
PyxisBarrierTable::UpdatePeak()
{
    m_stats.peakInUse = std::max(m_stats.peakInUse, m_inUse);
}

bool
PyxisBarrierTable::SetRefCounts(uint32_t id,
                                uint32_t notifyCount,
                                uint32_t waitCount,
                                std::string& error)
{
    NS_LOG_FUNCTION(this << id << notifyCount << waitCount);
    if (!CheckId(id, "set_ref_counts", error))
    {
        return false;
    }
    Barrier& b = m_barriers[id];
    std::ostringstream os;
    if (notifyCount > static_cast<uint32_t>(MAX_COUNT) ||
        waitCount > static_cast<uint32_t>(MAX_COUNT))
    {
        os << Where() << ": set_ref_counts(" << id << ", " << notifyCount << ", " << waitCount
           << ") refused: at most " << MAX_COUNT
           << " producers and 31 consumers per barrier (Pyxis spec 11.4.11, 11.6.1)";
    }
    else if (b.refCountsValid)
    {
        os << Where() << ": set_ref_counts on barrier " << id
           << " refused: its counts are valid already (notify_count " << b.notifyCount
           << ", wait_count " << b.waitCount
           << "); a barrier must be freed before it is reused (Pyxis spec 11.6.2)";
    }
    if (!os.str().empty())
    {
        error = os.str();
        ++m_stats.refusals;
        return false;
    }
    const bool was = InUse(b);
    ++m_stats.setRefCounts;
    // 11.6.2 set_ref_counts, line by line
    b.refCountsValid = true;
    b.notifyCount += notifyCount;
    b.waitCount += waitCount;
    if (!was)
    {
        ++m_inUse;
        UpdatePeak();
    }
    NS_LOG_LOGIC("barrier " << id << " set: notify_count " << b.notifyCount << " wait_count "
                            << b.waitCount);
    if (b.notifyCount == 0)
    {
        ReleaseWaitingConsumers(id);
    }
    if (b.notifyCount == 0 && b.waitCount == 0)
    {
        Free(id);
    }
    return true;
}

bool
PyxisBarrierTable::Notify(uint32_t id, std::string& error)
{
    NS_LOG_FUNCTION(this << id);
    if (!CheckId(id, "notify", error))
    {
        return false;
    }
    Barrier& b = m_barriers[id];
    if (b.notifyCount - 1 < MIN_COUNT)
    {
        std::ostringstream os;
        os << Where() << ": notify on barrier " << id << " refused: notify_count " << b.notifyCount
           << " would leave its 6-bit signed range (more than 32 notifies "
           << "before set_ref_counts, Pyxis spec 11.6.1)";
        error = os.str();
        ++m_stats.refusals;
        return false;
    }
    const bool was = InUse(b);
    ++m_stats.notifies;
    // 11.6.2 notify
    b.notifyCount -= 1;
    if (!was)
    {
        ++m_inUse;
        UpdatePeak();
    }
    NS_LOG_LOGIC("barrier " << id << " notified: notify_count " << b.notifyCount);
    if (b.notifyCount == 0 && b.refCountsValid)
    {
        ReleaseWaitingConsumers(id);
        if (b.waitCount == 0)
        {
            Free(id);
        }
    }
    return true;
}

PyxisBarrierTable::WaitResult
PyxisBarrierTable::Wait(uint32_t id, Callback<void> go, std::string& error)
{
    NS_LOG_FUNCTION(this << id);
    if (!CheckId(id, "wait", error))
    {
        return WAIT_ERROR;
    }
    Barrier& b = m_barriers[id];
    if (b.waitCount - 1 < MIN_COUNT)
    {
        std::ostringstream os;
        os << Where() << ": wait on barrier " << id << " refused: wait_count " << b.waitCount
           << " would leave its 6-bit signed range (Pyxis spec 11.6.1)";
        error = os.str();
        ++m_stats.refusals;
        return WAIT_ERROR;
    }
    const bool was = InUse(b);
    ++m_stats.waits;
    // 11.6.2 wait
    b.waitCount -= 1;
    if (!was)
    {
        ++m_inUse;
        UpdatePeak();
    }
    if (b.notifyCount == 0 && b.refCountsValid)
    {
        NS_LOG_LOGIC("barrier " << id << " wait: go at once, wait_count " << b.waitCount);
        if (b.waitCount == 0)
        {
            Free(id);
        }
        return WAIT_GO;
    }
    NS_LOG_LOGIC("barrier " << id << " wait: blocked, notify_count " << b.notifyCount << " valid "
                            << b.refCountsValid);
    b.consumers.push_back(go);
    return WAIT_BLOCKED;
}

void
PyxisBarrierTable::ReleaseWaitingConsumers(uint32_t id)
{
    NS_LOG_FUNCTION(this << id);
    m_releasedTrace(m_cluster, id);
    // taken out first: a go may lead (through zero-time events only) to further operations
    std::vector<Callback<void>> consumers;
    consumers.swap(m_barriers[id].consumers);
    for (Callback<void>& go : consumers)
    {
        ++m_stats.releases;
        go();
    }
}

void
PyxisBarrierTable::Free(uint32_t id)
{
    NS_LOG_FUNCTION(this << id);
    Barrier& b = m_barriers[id];
    const bool was = InUse(b);
    // 11.6.2 free: the counts are 0 here
    b.refCountsValid = false;
    b.allocated = false;
    ++m_stats.frees;
    if (was && !InUse(b))
    {
        --m_inUse;
    }
    m_freedTrace(m_cluster, id);
}

bool
PyxisBarrierTable::TryAllocate(uint32_t& id, std::string& error)
{
    NS_LOG_FUNCTION(this);
    const uint32_t n = m_barriers.size();
    for (uint32_t k = 0; k < n - 1; ++k)
    {
        const uint32_t i = 1 + (m_nextAlloc - 1 + k) % (n - 1);
        Barrier& b = m_barriers[i];
        if (!InUse(b))
        {
            b.allocated = true;
            ++m_inUse;
            UpdatePeak();
            m_nextAlloc = i + 1 < n ? i + 1 : 1;
            id = i;
            return true;
        }
    }
    std::ostringstream os;
    os << Where() << ": barrier table exhausted: all " << n - 1 << " barriers (ids 1 to " << n - 1
       << ") are in use (Pyxis spec 11.6.3)";
    error = os.str();
    ++m_stats.refusals;
    return false;
}

uint32_t
PyxisBarrierTable::Allocate()
{
    uint32_t id = 0;
    std::string error;
    if (!TryAllocate(id, error))
    {
        NS_FATAL_ERROR("PyxisBarrierTable: " << error);
    }
    return id;
}

void
PyxisBarrierTable::Clear()
{
    NS_LOG_FUNCTION(this);
    m_barriers.assign(m_barriers.size(), Barrier{});
    m_inUse = 0;
    m_nextAlloc = 1;
}

int32_t
PyxisBarrierTable::GetNotifyCount(uint32_t id) const
{
    NS_ABORT_MSG_IF(id >= m_barriers.size(), "PyxisBarrierTable: no barrier " << id);
    return m_barriers[id].notifyCount;
}

int32_t
PyxisBarrierTable::GetWaitCount(uint32_t id) const
{
    NS_ABORT_MSG_IF(id >= m_barriers.size(), "PyxisBarrierTable: no barrier " << id);
    return m_barriers[id].waitCount;
}

bool
PyxisBarrierTable::IsValid(uint32_t id) const
{
    NS_ABORT_MSG_IF(id >= m_barriers.size(), "PyxisBarrierTable: no barrier " << id);
    return m_barriers[id].refCountsValid;
}

bool
PyxisBarrierTable::IsFree(uint32_t id) const
{
    NS_ABORT_MSG_IF(id >= m_barriers.size(), "PyxisBarrierTable: no barrier " << id);
    return !InUse(m_barriers[id]);
}

uint32_t
PyxisBarrierTable::GetInUse() const
{
    return m_inUse;
}

} // namespace ns3
