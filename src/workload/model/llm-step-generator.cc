/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "llm-step-generator.h"

#include "llm-roofline.h"

#include "ns3/log.h"

#include <algorithm>
#include <queue>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LlmStepGenerator");

LlmStepGenerator::LlmStepGenerator(const LlmStepSpec& spec)
    : m_spec(spec)
{
}

std::vector<std::pair<bool, uint32_t>>
LlmStepGenerator::GetSchedule(uint32_t stages, uint32_t stage, uint32_t microBatches)
{
    const uint32_t warm = std::min(stages - 1 - stage, microBatches);
    std::vector<std::pair<bool, uint32_t>> ops;
    for (uint32_t j = 0; j < warm; ++j)
    {
        ops.emplace_back(true, j);
    }
    for (uint32_t k = 0; k + warm < microBatches; ++k)
    {
        ops.emplace_back(true, warm + k);
        ops.emplace_back(false, k);
    }
    for (uint32_t j = microBatches - warm; j < microBatches; ++j)
    {
        ops.emplace_back(false, j);
    }
    return ops;
}

bool
LlmStepGenerator::SortTopologically(DagProgram& program)
{
    const std::size_t n = program.nodes.size();
    std::vector<std::vector<uint32_t>> users(n);
    std::vector<uint32_t> waiting(n, 0);
    for (uint32_t v = 0; v < n; ++v)
    {
        std::vector<uint32_t> all = program.nodes[v].deps;
        for (const auto& rd : program.nodes[v].rankDeps)
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
    }
    std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<>> ready;
    for (uint32_t v = 0; v < n; ++v)
    {
        if (waiting[v] == 0)
        {
            ready.push(v);
        }
    }
    std::vector<uint32_t> order;
    order.reserve(n);
    while (!ready.empty())
    {
        const uint32_t v = ready.top();
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
    if (order.size() != n)
    {
        return false;
    }
    std::vector<uint32_t> position(n);
    for (uint32_t k = 0; k < n; ++k)
    {
        position[order[k]] = k;
    }
    std::vector<DagProgram::Node> sorted;
    sorted.reserve(n);
    for (uint32_t k = 0; k < n; ++k)
    {
        DagProgram::Node node = std::move(program.nodes[order[k]]);
        for (uint32_t& d : node.deps)
        {
            d = position[d];
        }
        for (auto& rd : node.rankDeps)
        {
            for (uint32_t& d : rd)
            {
                d = position[d];
            }
        }
        sorted.push_back(std::move(node));
    }
    program.nodes = std::move(sorted);
    return true;
}

std::shared_ptr<DagProgram>
LlmStepGenerator::Build() const
{
    const LlmStepSpec& c = m_spec;
    const LlmRoofline roof(c);
    const uint32_t t = c.tp;
    const uint32_t p = c.pp;
    const uint32_t d = c.dp;
    const uint32_t m = c.GetMicroBatches();
    const uint32_t lp = c.GetLayersPerStage();
    const uint64_t e = c.GetDtypeBytes();
    const uint64_t tokens = static_cast<uint64_t>(c.microBatch) * c.sequence;
    const uint64_t actBytes = tokens * c.hidden * e; // a micro-batch's activations
    const uint64_t sendBytes = c.sequenceParallel ? actBytes / t : actBytes;
    const bool moe = c.experts > 0;
    const uint32_t ep = c.ep;
    const uint64_t shardTokens = c.sequenceParallel ? tokens / t : tokens;
    // An all-to-all's bytes are per pair (nccl-tests): a rank's token copies over the group.
    const uint64_t a2aPerPair = shardTokens * c.topK * c.hidden * e / ep;
    const Time layerFwd = roof.GetLayerForward();
    const Time embFwd = roof.GetEmbeddingForward();
    const Time headFwd = roof.GetHeadForward();

    auto prog = std::make_shared<DagProgram>();
    auto& nodes = prog->nodes;
    auto add = [&nodes](DagProgram::Node&& n) {
        nodes.push_back(std::move(n));
        return static_cast<uint32_t>(nodes.size() - 1);
    };
    auto acc = [&c](uint32_t i, uint32_t r, uint32_t s) { return c.GetAccelerator(i, r, s); };
    auto tpGroup = [&](uint32_t r, uint32_t s) {
        std::vector<uint32_t> g(t);
        for (uint32_t i = 0; i < t; ++i)
        {
            g[i] = acc(i, r, s);
        }
        return g;
    };
    auto coord = [](const std::string& cat, uint32_t s, uint32_t layer, uint32_t j) {
        return cat + ".s" + std::to_string(s) + ".l" + std::to_string(layer) + ".mb" +
               std::to_string(j);
    };

    // A data-parallel group of a stage: the accelerators holding the same parameters, with the
    // replica of each. Dense groups: one per tp rank, over the dp replicas; expert groups (MoE):
    // one per expert-parallel position k, over the tp x dp / ep accelerators whose replica is
    // k modulo ep.
    struct Group
    {
        std::vector<uint32_t> members;  //!< accelerators, in rank order
        std::vector<uint32_t> replicas; //!< the replica of each
        bool expert{false};             //!< expert parameters
        uint32_t id{0};                 //!< tp rank (dense) or expert-parallel position
    };

    auto groupsOf = [&](uint32_t s) {
        std::vector<Group> gs;
        for (uint32_t i = 0; i < t; ++i)
        {
            Group g;
            g.id = i;
            for (uint32_t r = 0; r < d; ++r)
            {
                g.members.push_back(acc(i, r, s));
                g.replicas.push_back(r);
            }
            gs.push_back(std::move(g));
        }
        if (moe)
        {
            for (uint32_t k = 0; k < ep; ++k)
            {
                Group g;
                g.expert = true;
                g.id = k;
                for (uint32_t r = k; r < d; r += ep)
                {
                    for (uint32_t i = 0; i < t; ++i)
                    {
                        g.members.push_back(acc(i, r, s));
                        g.replicas.push_back(r);
                    }
                }
                gs.push_back(std::move(g));
            }
        }
        return gs;
    };
    // The gradient (and parameter) bytes of a layer in a group.
    auto layerBytes = [&](const Group& g, uint32_t s, uint32_t l) {
        if (g.expert)
        {
            return roof.GetLayerExpertParams() * e;
        }
        uint64_t params = roof.GetLayerDenseParams();
        if (s == 0 && l == 0)
        {
            params += roof.GetEmbeddingParams();
        }
        if (s + 1 == p && l + 1 == lp)
        {
            params += roof.GetHeadParams();
        }
        return params * e;
    };

    // The chain of each tensor-parallel group (replica r, stage s): what its next node waits for.
    std::vector<std::vector<uint32_t>> chain(static_cast<std::size_t>(d) * p);
    auto chainOf = [&](uint32_t r, uint32_t s) -> std::vector<uint32_t>& {
        return chain[static_cast<std::size_t>(r) * p + s];
    };
    // Sends between stages, [(stage x m + micro-batch) x d + replica] -> t send nodes (forward:
    // from stage to stage + 1; backward: from stage to stage - 1).
    const std::size_t slots = static_cast<std::size_t>(p) * m * d;
    std::vector<std::vector<uint32_t>> fwdSend(slots);
    std::vector<std::vector<uint32_t>> bwdSend(slots);
    auto slot = [&](uint32_t s, uint32_t j, uint32_t r) {
        return (static_cast<std::size_t>(s) * m + j) * d + r;
    };

    // Compute nodes that wait for another stage's sends, patched once every send exists.
    struct Pending
    {
        uint32_t node;
        bool forward;
        std::size_t slot;
    };

    std::vector<Pending> pending;
    // The last backward of each layer and replica: [(s x lp + l) x d + r].
    std::vector<uint32_t> lastBwd(static_cast<std::size_t>(p) * lp * d, 0);
    // Every backward: [((s x lp + l) x m + j) x d + r].
    std::vector<uint32_t> bwdOf(static_cast<std::size_t>(p) * lp * m * d, 0);

    auto collective = [&](const std::string& name,
                          const std::string& cat,
                          const std::string& coll,
                          const std::vector<uint32_t>& members,
                          uint64_t bytes) {
        DagProgram::Node n;
        n.name = name;
        n.kind = DagProgram::COLLECTIVE;
        n.participants = members;
        n.collective = coll;
        n.bytes = bytes;
        n.category = cat;
        // The scenario's algorithm for TP and DP collectives; EP all-to-alls take their default.
        if (cat.rfind("tp-", 0) == 0)
        {
            n.algorithm = c.tpAlgorithm;
        }
        else if (cat.rfind("dp-", 0) == 0)
        {
            n.algorithm = c.dpAlgorithm;
        }
        return n;
    };

    for (uint32_t s = 0; s < p; ++s)
    {
        const auto schedule = GetSchedule(p, s, m);
        for (const auto& [forward, j] : schedule)
        {
            const std::string dir = forward ? "fwd" : "bwd";
            for (uint32_t k = 0; k < lp; ++k)
            {
                const uint32_t l = forward ? k : lp - 1 - k; // layer within the stage
                const uint32_t layer = s * lp + l;           // layer of the model
                // ZeRO-3: the layer's parameters are gathered before each use (forward and
                // backward of every micro-batch), prefetched while the op before runs.
                std::vector<std::vector<uint32_t>> gathered(d);
                if (c.zero == 3)
                {
                    for (const Group& g : groupsOf(s))
                    {
                        if (g.members.size() < 2)
                        {
                            continue;
                        }
                        auto n = collective(coord("dp-all-gather", s, layer, j) + "." + dir +
                                                (g.expert ? ".ep" : ".tp") + std::to_string(g.id),
                                            "dp-all-gather",
                                            "all-gather",
                                            g.members,
                                            layerBytes(g, s, l));
                        for (uint32_t r : g.replicas)
                        {
                            n.rankDeps.push_back(chainOf(r, s));
                        }
                        const uint32_t id = add(std::move(n));
                        for (uint32_t r : g.replicas)
                        {
                            if (gathered[r].empty() || gathered[r].back() != id)
                            {
                                gathered[r].push_back(id);
                            }
                        }
                    }
                }
                for (uint32_t r = 0; r < d; ++r)
                {
                    auto& ch = chainOf(r, s);
                    DagProgram::Node n;
                    n.name = coord(forward ? "forward" : "backward", s, layer, j) + ".dp" +
                             std::to_string(r);
                    n.kind = DagProgram::COMPUTE;
                    n.category = forward ? "forward" : "backward";
                    n.participants = tpGroup(r, s);
                    Time fwd = layerFwd;
                    if (s == 0 && l == 0)
                    {
                        fwd += embFwd;
                    }
                    if (s + 1 == p && l + 1 == lp)
                    {
                        fwd += headFwd;
                    }
                    n.duration = forward ? fwd : fwd * 2;
                    n.deps = ch;
                    n.deps.insert(n.deps.end(), gathered[r].begin(), gathered[r].end());
                    const uint32_t id = add(std::move(n));
                    if (forward && l == 0 && s > 0)
                    {
                        pending.push_back({id, true, slot(s - 1, j, r)});
                    }
                    if (!forward && l + 1 == lp && s + 1 < p)
                    {
                        pending.push_back({id, false, slot(s + 1, j, r)});
                    }
                    if (!forward)
                    {
                        lastBwd[(static_cast<std::size_t>(s) * lp + l) * d + r] = id;
                        bwdOf[((static_cast<std::size_t>(s) * lp + l) * m + j) * d + r] = id;
                    }
                    ch = {id};
                    // The tensor-parallel collectives of the layer (Megatron-LM: after the
                    // attention and after the MLP; the backward has as many).
                    if (t > 1)
                    {
                        for (uint32_t q = 0; q < 2; ++q)
                        {
                            const std::string base = coord("", s, layer, j).substr(1) + ".dp" +
                                                     std::to_string(r) + "." + dir +
                                                     std::to_string(q);
                            std::vector<std::pair<std::string, std::string>> parts;
                            if (c.sequenceParallel)
                            {
                                parts = {{"tp-reduce-scatter", "reduce-scatter"},
                                         {"tp-all-gather", "all-gather"}};
                            }
                            else
                            {
                                parts = {{"tp-all-reduce", "all-reduce"}};
                            }
                            for (const auto& [cat, coll] : parts)
                            {
                                auto cn = collective(cat + "." + base,
                                                     cat,
                                                     coll,
                                                     tpGroup(r, s),
                                                     actBytes);
                                cn.deps = ch;
                                ch = {add(std::move(cn))};
                            }
                        }
                    }
                }
                // MoE: the expert-parallel all-to-alls of each expert-parallel group (the ep
                // consecutive replicas of a block, one group per tp rank): dispatch then combine
                // (the backward runs their transposes, in the opposite order).
                if (moe && ep > 1)
                {
                    for (uint32_t q = 0; q < d / ep; ++q)
                    {
                        std::vector<uint32_t> last(t);
                        for (uint32_t i = 0; i < t; ++i)
                        {
                            std::vector<uint32_t> members;
                            for (uint32_t x = 0; x < ep; ++x)
                            {
                                members.push_back(acc(i, q * ep + x, s));
                            }
                            uint32_t prev = 0;
                            for (uint32_t z = 0; z < 2; ++z)
                            {
                                const bool dispatch = forward ? z == 0 : z == 1;
                                auto an =
                                    collective(coord("ep-all-to-all", s, layer, j) + "." + dir +
                                                   (dispatch ? ".dispatch" : ".combine") + ".ep" +
                                                   std::to_string(q) + ".tp" + std::to_string(i),
                                               "ep-all-to-all",
                                               "all-to-all",
                                               members,
                                               a2aPerPair);
                                if (z == 0)
                                {
                                    for (uint32_t x = 0; x < ep; ++x)
                                    {
                                        an.rankDeps.push_back(chainOf(q * ep + x, s));
                                    }
                                }
                                else
                                {
                                    an.deps = {prev};
                                }
                                prev = add(std::move(an));
                            }
                            last[i] = prev;
                        }
                        for (uint32_t x = 0; x < ep; ++x)
                        {
                            chainOf(q * ep + x, s) = last;
                        }
                    }
                }
            }
            // The pipeline sends of the micro-batch: each tp rank to the same tp rank of the
            // next stage (forward activations) or the previous one (backward gradients).
            const bool sends = forward ? s + 1 < p : s > 0;
            if (sends)
            {
                const uint32_t to = forward ? s + 1 : s - 1;
                for (uint32_t r = 0; r < d; ++r)
                {
                    auto& out = (forward ? fwdSend : bwdSend)[slot(s, j, r)];
                    for (uint32_t i = 0; i < t; ++i)
                    {
                        DagProgram::Node n;
                        n.name = "pp-send." + dir + ".s" + std::to_string(s) + "-s" +
                                 std::to_string(to) + ".mb" + std::to_string(j) + ".dp" +
                                 std::to_string(r) + ".tp" + std::to_string(i);
                        n.kind = DagProgram::SEND;
                        n.category = "pp-send";
                        n.participants = {acc(i, r, s), acc(i, r, to)};
                        n.bytes = sendBytes;
                        n.deps = chainOf(r, s);
                        out.push_back(add(std::move(n)));
                    }
                }
            }
        }
    }
    for (const Pending& pd : pending)
    {
        const auto& from = (pd.forward ? fwdSend : bwdSend)[pd.slot];
        auto& deps = nodes[pd.node].deps;
        deps.insert(deps.end(), from.begin(), from.end());
    }

    // Data parallelism: per stage and layer, the gradient collective of each group once the
    // layer's last backward is done on each member (overlapped with the rest of the backward).
    // ZeRO-2 and -3 keep only their partition of the gradients, so with gradient accumulation
    // each micro-batch's gradients are reduce-scattered after its backward of the layer (m
    // times per iteration); ZeRO-0 and -1 accumulate full gradients and reduce them once.
    const bool perMicroBatch = c.zero >= 2;
    const std::string gradColl = c.zero == 0 ? "all-reduce" : "reduce-scatter";
    const std::string gradCat = c.zero == 0 ? "dp-all-reduce" : "dp-reduce-scatter";
    std::vector<std::vector<uint32_t>> gradOf(static_cast<std::size_t>(p) * t * d);
    for (uint32_t s = 0; s < p; ++s)
    {
        const auto groups = groupsOf(s);
        for (uint32_t l = 0; l < lp; ++l)
        {
            for (uint32_t j = perMicroBatch ? 0 : m - 1; j < m; ++j)
            {
                for (const Group& g : groups)
                {
                    if (g.members.size() < 2)
                    {
                        continue; // a group of one accelerator has nothing to reduce
                    }
                    auto n = collective(gradCat + ".s" + std::to_string(s) + ".l" +
                                            std::to_string(s * lp + l) +
                                            (perMicroBatch ? ".mb" + std::to_string(j) : "") +
                                            (g.expert ? ".ep" : ".tp") + std::to_string(g.id),
                                        gradCat,
                                        gradColl,
                                        g.members,
                                        layerBytes(g, s, l));
                    for (uint32_t r : g.replicas)
                    {
                        n.rankDeps.push_back(
                            {perMicroBatch
                                 ? bwdOf[((static_cast<std::size_t>(s) * lp + l) * m + j) * d + r]
                                 : lastBwd[(static_cast<std::size_t>(s) * lp + l) * d + r]});
                    }
                    const uint32_t id = add(std::move(n));
                    for (std::size_t x = 0; x < g.members.size(); ++x)
                    {
                        const uint32_t r = g.replicas[x];
                        const uint32_t i = g.expert ? static_cast<uint32_t>(x % t) : g.id;
                        gradOf[(static_cast<std::size_t>(s) * d + r) * t + i].push_back(id);
                    }
                }
            }
        }
    }
    // The optimizer of each stage and replica, once its gradients are reduced.
    std::vector<uint32_t> optimizer(static_cast<std::size_t>(p) * d);
    for (uint32_t s = 0; s < p; ++s)
    {
        const Time opt = roof.GetOptimizer(s);
        for (uint32_t r = 0; r < d; ++r)
        {
            DagProgram::Node n;
            n.name = "optimizer.s" + std::to_string(s) + ".dp" + std::to_string(r);
            n.kind = DagProgram::COMPUTE;
            n.category = "optimizer";
            n.participants = tpGroup(r, s);
            n.duration = opt;
            for (uint32_t i = 0; i < t; ++i)
            {
                std::vector<uint32_t> deps = chainOf(r, s);
                const auto& grads = gradOf[(static_cast<std::size_t>(s) * d + r) * t + i];
                deps.insert(deps.end(), grads.begin(), grads.end());
                n.rankDeps.push_back(std::move(deps));
            }
            optimizer[static_cast<std::size_t>(s) * d + r] = add(std::move(n));
        }
    }
    // ZeRO-1 and -2: each accelerator updated its shard; the updated parameters are gathered
    // after the step, per layer.
    if ((c.zero == 1 || c.zero == 2) && d > 1)
    {
        for (uint32_t s = 0; s < p; ++s)
        {
            const auto groups = groupsOf(s);
            for (uint32_t l = 0; l < lp; ++l)
            {
                for (const Group& g : groups)
                {
                    if (g.members.size() < 2)
                    {
                        continue;
                    }
                    auto n = collective("dp-all-gather.s" + std::to_string(s) + ".l" +
                                            std::to_string(s * lp + l) +
                                            (g.expert ? ".ep" : ".tp") + std::to_string(g.id),
                                        "dp-all-gather",
                                        "all-gather",
                                        g.members,
                                        layerBytes(g, s, l));
                    for (uint32_t r : g.replicas)
                    {
                        n.rankDeps.push_back({optimizer[static_cast<std::size_t>(s) * d + r]});
                    }
                    add(std::move(n));
                }
            }
        }
    }
    const bool sorted = SortTopologically(*prog);
    NS_ASSERT_MSG(sorted, "the generated LLM step has a cycle");
    (void)sorted;
    NS_LOG_INFO("llm-step: " << nodes.size() << " nodes");
    return prog;
}

} // namespace ns3
