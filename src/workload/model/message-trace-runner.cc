/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "message-trace-runner.h"

#include "ns3/callback.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MessageTraceRunner");

namespace
{

/// Bits 0-39 of a trace cookie: the row.
constexpr uint64_t ROW_MASK = (uint64_t(1) << 40) - 1;

/// Bits 40-60: the runner's number (runners of one process count up).
constexpr uint64_t RUNNER_MASK = (uint64_t(1) << 21) - 1;

} // namespace

MessageTraceRunner::MessageTraceRunner(std::shared_ptr<const MessageTrace> trace,
                                       std::vector<uint32_t> placement,
                                       uint8_t tclass,
                                       Time start)
    : m_trace(std::move(trace)),
      m_placement(std::move(placement)),
      m_tclass(tclass),
      m_start(start)
{
    static uint64_t runners = 0;
    m_tagBits = COOKIE_FLAG | ((runners++ & RUNNER_MASK) << 40);
}

bool
MessageTraceRunner::Owns(uint64_t cookie) const
{
    return (cookie & ~ROW_MASK) == m_tagBits;
}

void
MessageTraceRunner::GetEnds(uint64_t cookie, uint32_t& src, uint32_t& dst) const
{
    const MessageTrace::Row& r = m_trace->GetRows()[cookie & ROW_MASK];
    src = m_placement[r.src];
    dst = m_placement[r.dst];
}

bool
MessageTraceRunner::Start(const std::vector<Ptr<FabricEndpoint>>& endpoints, std::string& error)
{
    NS_LOG_FUNCTION(this << endpoints.size());
    const auto& rows = m_trace->GetRows();
    for (uint32_t a : m_placement)
    {
        if (a >= endpoints.size())
        {
            error = "the placement names accelerator " + std::to_string(a) + ", the pod has " +
                    std::to_string(endpoints.size());
            return false;
        }
    }
    m_endpoints = endpoints;
    const uint32_t n = static_cast<uint32_t>(rows.size());
    m_issuePs.assign(n, -1);
    m_completePs.assign(n, -1);
    m_waiting.assign(n, 0);
    m_depBegin.assign(n + 1, 0);
    const auto& after = m_trace->GetAfter();
    for (uint32_t i = 0; i < n; ++i)
    {
        m_waiting[i] = rows[i].afterEnd - m_trace->AfterBegin(i);
        for (uint32_t k = m_trace->AfterBegin(i); k < rows[i].afterEnd; ++k)
        {
            ++m_depBegin[after[k] + 1];
        }
        if (rows[i].timePs >= 0)
        {
            m_timed.push_back(i);
        }
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        m_depBegin[i + 1] += m_depBegin[i];
    }
    m_dependents.resize(after.size());
    std::vector<uint32_t> fill(m_depBegin.begin(), m_depBegin.end() - 1);
    for (uint32_t i = 0; i < n; ++i)
    {
        for (uint32_t k = m_trace->AfterBegin(i); k < rows[i].afterEnd; ++k)
        {
            m_dependents[fill[after[k]]++] = i;
        }
    }
    // Rows of one time are issued in file order.
    std::stable_sort(m_timed.begin(), m_timed.end(), [&rows](uint32_t a, uint32_t b) {
        return rows[a].timePs < rows[b].timePs;
    });
    // Every endpoint that may complete a row: the writers' and atomics' sources, the readers.
    std::vector<bool> connected(endpoints.size(), false);
    for (uint32_t a : m_placement)
    {
        if (!connected[a])
        {
            connected[a] = true;
            endpoints[a]->TraceConnectWithoutContext(
                "Completed",
                MakeCallback(&MessageTraceRunner::Completed, this));
        }
    }
    if (!m_timed.empty())
    {
        Simulator::Schedule(m_start + PicoSeconds(rows[m_timed.front()].timePs) - Simulator::Now(),
                            &MessageTraceRunner::PostDue,
                            this);
    }
    NS_LOG_INFO(n << " rows, " << m_timed.size() << " timed, " << after.size()
                  << " after references");
    return true;
}

void
MessageTraceRunner::PostDue()
{
    const auto& rows = m_trace->GetRows();
    const int64_t now = rows[m_timed[m_nextTimed]].timePs;
    while (m_nextTimed < m_timed.size() && rows[m_timed[m_nextTimed]].timePs == now)
    {
        Post(m_timed[m_nextTimed++]);
    }
    if (m_nextTimed < m_timed.size())
    {
        Simulator::Schedule(PicoSeconds(rows[m_timed[m_nextTimed]].timePs - now),
                            &MessageTraceRunner::PostDue,
                            this);
    }
}

void
MessageTraceRunner::Post(uint32_t row)
{
    const MessageTrace::Row& r = m_trace->GetRows()[row];
    const uint32_t src = m_placement[r.src];
    const uint32_t dst = m_placement[r.dst];
    const uint64_t cookie = m_tagBits | row;
    NS_LOG_FUNCTION(this << row << src << dst << r.bytes << unsigned(r.op));
    m_issuePs[row] = Simulator::Now().GetPicoSeconds();
    ++m_issued;
    switch (r.op)
    {
    case 2: // read: the destination pulls the data from the source
        m_endpoints[dst]->Read(src, r.bytes, m_tclass, cookie);
        break;
    case 4: // atomic: one AtomicR of r.bytes operand bytes on the destination
        m_endpoints[src]->Atomic(dst, static_cast<uint32_t>(r.bytes), true, m_tclass, cookie);
        break;
    default:
        m_endpoints[src]->Send(dst, r.bytes, m_tclass, cookie);
        break;
    }
}

void
MessageTraceRunner::Completed(const FabricMessage& m)
{
    if (!Owns(m.cookie))
    {
        return;
    }
    const uint32_t row = static_cast<uint32_t>(m.cookie & ROW_MASK);
    NS_LOG_FUNCTION(this << row);
    if (m_completePs[row] >= 0)
    {
        return; // completed once already
    }
    m_completePs[row] = Simulator::Now().GetPicoSeconds();
    ++m_completed;
    const auto& rows = m_trace->GetRows();
    for (uint32_t k = m_depBegin[row]; k < m_depBegin[row + 1]; ++k)
    {
        const uint32_t j = m_dependents[k];
        if (--m_waiting[j] == 0)
        {
            // Its last reference completed now: issue it after its delay (an event even for no
            // delay, so that it is not posted inside another endpoint's callback).
            Simulator::Schedule(PicoSeconds(rows[j].delayPs), &MessageTraceRunner::Post, this, j);
        }
    }
}

} // namespace ns3
