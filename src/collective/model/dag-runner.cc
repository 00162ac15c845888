/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "dag-runner.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DagRunner");
NS_OBJECT_ENSURE_REGISTERED(DagRunner);

TypeId
DagRunner::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DagRunner")
                            .SetParent<Object>()
                            .SetGroupName("Collective")
                            .AddConstructor<DagRunner>();
    return tid;
}

DagRunner::DagRunner()
{
    NS_LOG_FUNCTION(this);
}

DagRunner::~DagRunner()
{
    NS_LOG_FUNCTION(this);
}

void
DagRunner::DoDispose()
{
    m_executors.clear();
    m_factory = nullptr;
    Object::DoDispose();
}

void
DagRunner::Setup(const std::vector<Node>& nodes,
                 uint32_t iterations,
                 uint32_t accelerators,
                 Factory factory)
{
    NS_LOG_FUNCTION(this << nodes.size() << iterations << accelerators);
    m_nodes = nodes;
    m_iterations = iterations;
    m_factory = factory;
    m_nodesOf.assign(accelerators, {});
    m_index.assign(nodes.size(), std::vector<int32_t>(accelerators, -1));
    m_rank.assign(nodes.size(), std::vector<int32_t>(accelerators, -1));
    m_dependents.assign(nodes.size(), {});
    for (uint32_t j = 0; j < nodes.size(); ++j)
    {
        for (uint32_t r = 0; r < nodes[j].participants.size(); ++r)
        {
            const uint32_t a = nodes[j].participants[r];
            m_rank[j][a] = r;
            m_index[j][a] = m_nodesOf[a].size();
            m_nodesOf[a].push_back(j);
        }
        for (uint32_t d : nodes[j].deps)
        {
            m_dependents[d].push_back(j);
        }
    }
    m_iter.assign(accelerators, 0);
    m_state.assign(accelerators, {});
    m_start.assign(accelerators, {});
    for (uint32_t a = 0; a < accelerators; ++a)
    {
        m_state[a].assign(m_nodesOf[a].size(), WAITING);
        m_start[a].assign(m_nodesOf[a].size(), Time());
    }
    m_remaining.assign(iterations, std::vector<uint32_t>(nodes.size()));
    for (auto& row : m_remaining)
    {
        for (uint32_t j = 0; j < nodes.size(); ++j)
        {
            row[j] = nodes[j].participants.size();
        }
    }
    m_executors.assign(iterations, std::vector<Ptr<CollectiveExecutor>>(nodes.size()));
}

void
DagRunner::Start()
{
    NS_LOG_FUNCTION(this);
    for (uint32_t a = 0; a < m_iter.size(); ++a)
    {
        Try(a);
    }
}

void
DagRunner::Try(uint32_t a)
{
    while (m_iter[a] < m_iterations)
    {
        const uint32_t i = m_iter[a];
        bool allDone = true;
        for (uint32_t k = 0; k < m_nodesOf[a].size(); ++k)
        {
            if (m_state[a][k] != WAITING)
            {
                allDone = allDone && m_state[a][k] == DONE;
                continue;
            }
            allDone = false;
            const uint32_t j = m_nodesOf[a][k];
            bool ready = true;
            for (uint32_t d : m_nodes[j].deps)
            {
                const int32_t kd = m_index[d][a];
                ready = ready && (kd >= 0 ? m_state[a][kd] == DONE : m_remaining[i][d] == 0);
            }
            if (ready)
            {
                StartNode(a, j, i);
                if (m_iter[a] != i)
                {
                    return; // StartNode finished the iteration re-entrantly
                }
            }
        }
        if (!allDone)
        {
            return;
        }
        // Next iteration on this accelerator.
        ++m_iter[a];
        std::fill(m_state[a].begin(), m_state[a].end(), WAITING);
        if (m_iter[a] == m_iterations)
        {
            ++m_finishedAccelerators;
        }
    }
}

void
DagRunner::StartNode(uint32_t a, uint32_t j, uint32_t i)
{
    const int32_t k = m_index[j][a];
    m_state[a][k] = RUNNING;
    m_start[a][k] = Simulator::Now();
    const Node& node = m_nodes[j];
    if (node.compute)
    {
        Simulator::Schedule(node.duration, &DagRunner::Finish, this, a, j, i);
        return;
    }
    Ptr<CollectiveExecutor>& e = m_executors[i][j];
    if (!e)
    {
        e = m_factory(j, i);
        e->SetRankDoneCallback(MakeCallback(&DagRunner::RankDone, this));
    }
    e->StartRank(m_rank[j][a]);
}

void
DagRunner::RankDone(Ptr<CollectiveExecutor> e, uint32_t rank)
{
    for (uint32_t i = 0; i < m_iterations; ++i)
    {
        for (uint32_t j = 0; j < m_nodes.size(); ++j)
        {
            if (m_executors[i][j] == e)
            {
                // Rank k of a collective node is its k-th participant.
                Finish(m_nodes[j].participants[rank], j, i);
                return;
            }
        }
    }
    NS_ABORT_MSG("rank done for an unknown executor");
}

std::vector<DagRunner::Record>
DagRunner::GetUnfinished() const
{
    std::vector<Record> out;
    const Time never = PicoSeconds(-1);
    for (uint32_t a = 0; a < m_nodesOf.size(); ++a)
    {
        for (uint32_t i = m_iter[a]; i < m_iterations; ++i)
        {
            for (uint32_t k = 0; k < m_nodesOf[a].size(); ++k)
            {
                const bool current = i == m_iter[a];
                if (current && m_state[a][k] == DONE)
                {
                    continue;
                }
                const bool started = current && m_state[a][k] == RUNNING;
                out.push_back(
                    Record{m_nodesOf[a][k], i, a, started ? m_start[a][k] : never, never});
            }
        }
    }
    return out;
}

std::vector<std::pair<uint32_t, uint32_t>>
DagRunner::GetUnstartedCollectives() const
{
    std::vector<std::pair<uint32_t, uint32_t>> out;
    for (uint32_t i = 0; i < m_iterations; ++i)
    {
        for (uint32_t j = 0; j < m_nodes.size(); ++j)
        {
            const bool made =
                i < m_executors.size() && j < m_executors[i].size() && m_executors[i][j] != nullptr;
            if (!m_nodes[j].compute && !made)
            {
                out.emplace_back(j, i);
            }
        }
    }
    return out;
}

void
DagRunner::Finish(uint32_t a, uint32_t j, uint32_t i)
{
    const int32_t k = m_index[j][a];
    m_state[a][k] = DONE;
    m_records.push_back(Record{j, i, a, m_start[a][k], Simulator::Now()});
    if (--m_remaining[i][j] == 0)
    {
        // Accelerators that wait for this node without taking part in it.
        for (uint32_t dep : m_dependents[j])
        {
            for (uint32_t b : m_nodes[dep].participants)
            {
                if (b != a && m_index[j][b] < 0)
                {
                    Try(b);
                }
            }
        }
    }
    Try(a);
}

const std::vector<DagRunner::Record>&
DagRunner::GetRecords() const
{
    return m_records;
}

bool
DagRunner::IsDone() const
{
    return m_finishedAccelerators == m_iter.size();
}

} // namespace ns3
