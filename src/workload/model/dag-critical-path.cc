/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "dag-critical-path.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <algorithm>
#include <queue>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DagCriticalPath");

DagCriticalPath::Result
DagCriticalPath::ComputeOnly(const DagProgram& program)
{
    const auto& nodes = program.nodes;
    const std::size_t n = nodes.size();
    // A topological order (Kahn's algorithm over deps and rankDeps).
    std::vector<std::vector<uint32_t>> users(n);
    std::vector<uint32_t> waiting(n, 0);
    uint32_t accelerators = 0;
    for (uint32_t v = 0; v < n; ++v)
    {
        std::vector<uint32_t> all = nodes[v].deps;
        for (const auto& rd : nodes[v].rankDeps)
        {
            all.insert(all.end(), rd.begin(), rd.end());
        }
        std::sort(all.begin(), all.end());
        all.erase(std::unique(all.begin(), all.end()), all.end());
        for (uint32_t u : all)
        {
            users[u].push_back(v);
        }
        waiting[v] = static_cast<uint32_t>(all.size());
        for (uint32_t a : nodes[v].participants)
        {
            accelerators = std::max(accelerators, a + 1);
        }
    }
    std::vector<uint32_t> order;
    order.reserve(n);
    std::queue<uint32_t> ready;
    for (uint32_t v = 0; v < n; ++v)
    {
        if (waiting[v] == 0)
        {
            ready.push(v);
        }
    }
    while (!ready.empty())
    {
        const uint32_t v = ready.front();
        ready.pop();
        order.push_back(v);
        for (uint32_t w : users[v])
        {
            if (--waiting[w] == 0)
            {
                ready.push(w);
            }
        }
    }
    NS_ABORT_MSG_IF(order.size() != n, "DagCriticalPath: the DAG has a cycle");

    // Each node's participants sorted (accelerator, position), to find a participant's end.
    std::vector<std::vector<std::pair<uint32_t, uint32_t>>> index(n);
    for (uint32_t v = 0; v < n; ++v)
    {
        const auto& parts = nodes[v].participants;
        for (uint32_t k = 0; k < parts.size(); ++k)
        {
            index[v].emplace_back(parts[k], k);
        }
        std::sort(index[v].begin(), index[v].end());
    }
    std::vector<std::vector<int64_t>> end(n);       // per participant, ps
    std::vector<int64_t> endAll(n, 0);              // on all participants
    std::vector<int64_t> ready0(accelerators, 0);   // an accelerator's start of the iteration
    std::vector<int64_t> finished(accelerators, 0); // its end of the iteration
    const uint32_t iterations = std::max<uint32_t>(1, program.iterations);
    for (uint32_t it = 0; it < iterations; ++it)
    {
        for (uint32_t v : order)
        {
            const auto& node = nodes[v];
            const std::size_t k = node.participants.size();
            std::vector<int64_t> start(k, 0);
            for (std::size_t x = 0; x < k; ++x)
            {
                const uint32_t a = node.participants[x];
                int64_t st = ready0[a];
                const auto& deps = node.rankDeps.empty() ? node.deps : node.rankDeps[x];
                for (uint32_t u : deps)
                {
                    const auto& idx = index[u];
                    auto pos =
                        std::lower_bound(idx.begin(), idx.end(), std::make_pair(a, uint32_t{0}));
                    if (pos != idx.end() && pos->first == a)
                    {
                        st = std::max(st, end[u][pos->second]);
                    }
                    else
                    {
                        st = std::max(st, endAll[u]);
                    }
                }
                start[x] = st;
            }
            end[v].assign(k, 0);
            if (node.kind == DagProgram::COMPUTE)
            {
                const int64_t dur = node.duration.GetPicoSeconds();
                for (std::size_t x = 0; x < k; ++x)
                {
                    end[v][x] = start[x] + dur;
                }
            }
            else
            {
                const int64_t all = k == 0 ? 0 : *std::max_element(start.begin(), start.end());
                std::fill(end[v].begin(), end[v].end(), all);
            }
            endAll[v] = k == 0 ? 0 : *std::max_element(end[v].begin(), end[v].end());
            for (std::size_t x = 0; x < k; ++x)
            {
                finished[node.participants[x]] =
                    std::max(finished[node.participants[x]], end[v][x]);
            }
        }
        ready0 = finished;
    }
    Result r;
    int64_t makespan = 0;
    for (uint32_t a = 0; a < accelerators; ++a)
    {
        r.acceleratorEnd.push_back(PicoSeconds(finished[a]));
        makespan = std::max(makespan, finished[a]);
    }
    for (uint32_t v = 0; v < n; ++v)
    {
        r.nodeEnd.push_back(PicoSeconds(endAll[v]));
    }
    r.makespan = PicoSeconds(makespan);
    NS_LOG_INFO("compute-only makespan " << r.makespan.As(Time::US));
    return r;
}

} // namespace ns3
