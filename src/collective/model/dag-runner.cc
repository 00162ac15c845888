/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "dag-runner.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

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
    // Dependencies once each (readiness is an AND over them).
    auto unique = [](std::vector<uint32_t>& v) {
        std::sort(v.begin(), v.end());
        v.erase(std::unique(v.begin(), v.end()), v.end());
    };
    for (auto& node : m_nodes)
    {
        unique(node.deps);
        for (auto& rd : node.rankDeps)
        {
            unique(rd);
        }
    }
    m_acc.assign(accelerators, Accelerator());
    for (uint32_t j = 0; j < m_nodes.size(); ++j)
    {
        for (uint32_t r = 0; r < m_nodes[j].participants.size(); ++r)
        {
            Slot slot;
            slot.node = j;
            slot.rank = r;
            m_acc[m_nodes[j].participants[r]].slots.push_back(slot);
        }
    }
    m_dependents.assign(m_nodes.size(), {});
    for (uint32_t j = 0; j < m_nodes.size(); ++j)
    {
        const Node& node = m_nodes[j];
        for (uint32_t r = 0; r < node.participants.size(); ++r)
        {
            const uint32_t a = node.participants[r];
            const int32_t k = Position(a, j);
            for (uint32_t d : DepsOf(j, r))
            {
                const int32_t kd = Position(a, d);
                if (kd >= 0)
                {
                    m_acc[a].slots[kd].localDependents.push_back(k);
                }
                if (m_dependents[d].empty() || m_dependents[d].back() != j)
                {
                    m_dependents[d].push_back(j);
                }
            }
        }
    }
    m_remaining.assign(iterations, std::vector<uint32_t>(m_nodes.size()));
    for (auto& row : m_remaining)
    {
        for (uint32_t j = 0; j < m_nodes.size(); ++j)
        {
            row[j] = m_nodes[j].participants.size();
        }
    }
    m_executors.assign(iterations, std::vector<Ptr<CollectiveExecutor>>(m_nodes.size()));
    m_executorOf.clear();
    for (uint32_t a = 0; a < accelerators; ++a)
    {
        Enter(a);
    }
}

int32_t
DagRunner::Position(uint32_t a, uint32_t j) const
{
    const auto& slots = m_acc[a].slots;
    auto it = std::lower_bound(slots.begin(), slots.end(), j, [](const Slot& s, uint32_t node) {
        return s.node < node;
    });
    return it != slots.end() && it->node == j ? static_cast<int32_t>(it - slots.begin()) : -1;
}

const std::vector<uint32_t>&
DagRunner::DepsOf(uint32_t j, uint32_t r) const
{
    const Node& node = m_nodes[j];
    return node.rankDeps.empty() ? node.deps : node.rankDeps[r];
}

void
DagRunner::Enter(uint32_t a)
{
    Accelerator& acc = m_acc[a];
    acc.done = 0;
    acc.ready = {};
    if (acc.iteration >= m_iterations)
    {
        return;
    }
    const uint32_t i = acc.iteration;
    for (uint32_t k = 0; k < acc.slots.size(); ++k)
    {
        Slot& slot = acc.slots[k];
        slot.state = WAITING;
        slot.waiting = 0;
        for (uint32_t d : DepsOf(slot.node, slot.rank))
        {
            // A dependency it takes part in is met when done here, else when done everywhere.
            if (Position(a, d) >= 0 || m_remaining[i][d] != 0)
            {
                ++slot.waiting;
            }
        }
        if (slot.waiting == 0)
        {
            acc.ready.push(k);
        }
    }
}

void
DagRunner::CountDown(uint32_t a, uint32_t k)
{
    Slot& slot = m_acc[a].slots[k];
    NS_ASSERT(slot.waiting > 0);
    if (--slot.waiting == 0 && slot.state == WAITING)
    {
        m_acc[a].ready.push(k);
    }
}

void
DagRunner::Start()
{
    NS_LOG_FUNCTION(this);
    for (uint32_t a = 0; a < m_acc.size(); ++a)
    {
        Try(a);
    }
}

void
DagRunner::Try(uint32_t a)
{
    Accelerator& acc = m_acc[a];
    while (acc.iteration < m_iterations)
    {
        const uint32_t i = acc.iteration;
        while (!acc.ready.empty())
        {
            const uint32_t k = acc.ready.top();
            acc.ready.pop();
            if (acc.slots[k].state != WAITING)
            {
                continue;
            }
            StartNode(a, k, i);
            if (acc.iteration != i)
            {
                return; // StartNode finished the iteration re-entrantly
            }
        }
        if (acc.done != acc.slots.size())
        {
            return;
        }
        // Next iteration on this accelerator.
        ++acc.iteration;
        if (acc.iteration == m_iterations)
        {
            ++m_finishedAccelerators;
        }
        Enter(a);
    }
}

void
DagRunner::StartNode(uint32_t a, uint32_t k, uint32_t i)
{
    Slot& slot = m_acc[a].slots[k];
    slot.state = RUNNING;
    slot.start = Simulator::Now();
    const uint32_t j = slot.node;
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
        m_executorOf[PeekPointer(e)] = {i, j};
        e->SetRankDoneCallback(MakeCallback(&DagRunner::RankDone, this));
    }
    e->StartRank(slot.rank);
}

void
DagRunner::RankDone(Ptr<CollectiveExecutor> e, uint32_t rank)
{
    auto it = m_executorOf.find(PeekPointer(e));
    NS_ABORT_MSG_IF(it == m_executorOf.end(), "rank done for an unknown executor");
    const auto [i, j] = it->second;
    // Rank k of a collective node is its k-th participant.
    Finish(m_nodes[j].participants[rank], j, i);
}

std::vector<DagRunner::Record>
DagRunner::GetUnfinished() const
{
    std::vector<Record> out;
    const Time never = PicoSeconds(-1);
    for (uint32_t a = 0; a < m_acc.size(); ++a)
    {
        const Accelerator& acc = m_acc[a];
        for (uint32_t i = acc.iteration; i < m_iterations; ++i)
        {
            for (const Slot& slot : acc.slots)
            {
                const bool current = i == acc.iteration;
                if (current && slot.state == DONE)
                {
                    continue;
                }
                const bool started = current && slot.state == RUNNING;
                out.push_back(Record{slot.node, i, a, started ? slot.start : never, never});
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
    Accelerator& acc = m_acc[a];
    const int32_t k = Position(a, j);
    Slot& slot = acc.slots[k];
    slot.state = DONE;
    ++acc.done;
    m_records.push_back(Record{j, i, a, slot.start, Simulator::Now()});
    for (uint32_t kd : slot.localDependents)
    {
        CountDown(a, kd);
    }
    if (--m_remaining[i][j] == 0)
    {
        // Accelerators that wait for this node without taking part in it: first their
        // counts, then a try each.
        for (uint32_t dep : m_dependents[j])
        {
            const Node& node = m_nodes[dep];
            for (uint32_t r = 0; r < node.participants.size(); ++r)
            {
                const uint32_t b = node.participants[r];
                if (m_acc[b].iteration != i || Position(b, j) >= 0)
                {
                    continue;
                }
                const auto& deps = DepsOf(dep, r);
                if (std::binary_search(deps.begin(), deps.end(), j))
                {
                    CountDown(b, Position(b, dep));
                }
            }
        }
        for (uint32_t dep : m_dependents[j])
        {
            for (uint32_t b : m_nodes[dep].participants)
            {
                if (b != a && Position(b, j) < 0)
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
    return m_finishedAccelerators == m_acc.size();
}

} // namespace ns3
