/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scenario-dag.h"

#include <map>
#include <unordered_set>

namespace ns3
{

std::shared_ptr<const DagProgram>
ScenarioDag::FromNodes(const Scenario::Workload& w, uint32_t accelerators)
{
    auto program = std::make_shared<DagProgram>();
    program->iterations = w.iterations;
    std::map<std::string, uint32_t> index;
    for (uint32_t j = 0; j < w.nodes.size(); ++j)
    {
        index[w.nodes[j].name] = j;
    }
    std::vector<uint32_t> everyone(accelerators);
    for (uint32_t a = 0; a < accelerators; ++a)
    {
        everyone[a] = a;
    }
    for (const Scenario::DagNode& d : w.nodes)
    {
        DagProgram::Node node;
        node.name = d.name;
        for (const auto& dep : d.deps)
        {
            node.deps.push_back(index.at(dep));
        }
        if (d.kind == "compute")
        {
            node.kind = DagProgram::COMPUTE;
            node.duration = d.duration;
            node.participants = d.group.empty() ? everyone : d.group;
        }
        else if (d.kind == "send")
        {
            node.kind = DagProgram::SEND;
            node.participants = {d.src, d.dst};
            node.bytes = d.bytes;
        }
        else
        {
            const Scenario::Collective& c = d.coll;
            node.kind = DagProgram::COLLECTIVE;
            node.participants = c.group.empty() ? everyone : c.group;
            node.collective = c.collective;
            node.algorithm = c.algorithm;
            node.root = c.root;
            node.bytes = c.bytes;
            node.sizes = c.sizes;
            node.chunks = c.chunks;
            node.chunksInFlight = c.chunksInFlight;
            node.stripes = c.stripes;
            node.reduceCost = c.reduceCost;
            node.groupSize = c.groupSize;
        }
        program->nodes.push_back(std::move(node));
    }
    return program;
}

Scenario::Collective
ScenarioDag::CollectiveOf(const DagProgram::Node& node)
{
    Scenario::Collective c;
    c.group = node.participants;
    if (node.kind == DagProgram::SEND)
    {
        c.collective = "broadcast";
        c.algorithm = "direct";
        c.bytes = node.bytes;
        return c;
    }
    c.collective = node.collective;
    c.algorithm = node.algorithm;
    c.root = node.root;
    c.bytes = node.bytes;
    c.sizes = node.sizes;
    c.chunks = node.chunks;
    c.chunksInFlight = node.chunksInFlight;
    c.stripes = node.stripes;
    c.reduceCost = node.reduceCost;
    c.groupSize = node.groupSize;
    return c;
}

std::string
ScenarioDag::Check(const DagProgram& program, uint32_t accelerators)
{
    const auto& nodes = program.nodes;
    if (nodes.empty())
    {
        return "the workload has no node";
    }
    std::unordered_set<std::string> names;
    const auto n = static_cast<uint32_t>(nodes.size());
    for (uint32_t j = 0; j < n; ++j)
    {
        const DagProgram::Node& d = nodes[j];
        const std::string what = "node " + std::to_string(j) + " ('" + d.name + "')";
        if (!names.insert(d.name).second)
        {
            return what + ": its name is not unique";
        }
        if (d.participants.empty())
        {
            return what + ": no accelerator takes part in it";
        }
        std::unordered_set<uint32_t> seen;
        for (uint32_t a : d.participants)
        {
            if (a >= accelerators)
            {
                return what + ": accelerator " + std::to_string(a) +
                       " does not exist (pod.accelerators = " + std::to_string(accelerators) + ")";
            }
            if (!seen.insert(a).second)
            {
                return what + ": accelerator " + std::to_string(a) + " takes part twice";
            }
        }
        if (d.kind == DagProgram::SEND && d.participants.size() != 2)
        {
            return what + ": a send has a source and a destination";
        }
        if (!d.rankDeps.empty() && d.rankDeps.size() != d.participants.size())
        {
            return what + ": " + std::to_string(d.rankDeps.size()) +
                   " per-participant dependency lists for " +
                   std::to_string(d.participants.size()) + " participants";
        }
        auto inRange = [&](const std::vector<uint32_t>& deps) {
            for (uint32_t k : deps)
            {
                if (k >= n || k == j)
                {
                    return false;
                }
            }
            return true;
        };
        bool ok = inRange(d.deps);
        for (const auto& rd : d.rankDeps)
        {
            ok = ok && inRange(rd);
        }
        if (!ok)
        {
            return what + ": a dependency is not another node of the workload";
        }
    }
    // No cycle: Kahn's algorithm over the union of every participant's dependencies.
    std::vector<std::vector<uint32_t>> dependents(n);
    std::vector<uint32_t> waiting(n, 0);
    for (uint32_t j = 0; j < n; ++j)
    {
        std::unordered_set<uint32_t> deps(nodes[j].deps.begin(), nodes[j].deps.end());
        for (const auto& rd : nodes[j].rankDeps)
        {
            deps.insert(rd.begin(), rd.end());
        }
        waiting[j] = deps.size();
        for (uint32_t d : deps)
        {
            dependents[d].push_back(j);
        }
    }
    std::vector<uint32_t> ready;
    for (uint32_t j = 0; j < n; ++j)
    {
        if (waiting[j] == 0)
        {
            ready.push_back(j);
        }
    }
    uint32_t done = 0;
    while (!ready.empty())
    {
        const uint32_t j = ready.back();
        ready.pop_back();
        ++done;
        for (uint32_t k : dependents[j])
        {
            if (--waiting[k] == 0)
            {
                ready.push_back(k);
            }
        }
    }
    if (done != n)
    {
        for (uint32_t j = 0; j < n; ++j)
        {
            if (waiting[j] > 0)
            {
                return "node " + std::to_string(j) + " ('" + nodes[j].name +
                       "') is on a dependency cycle or waits for one";
            }
        }
    }
    return "";
}

} // namespace ns3
