/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "workload-generator.h"

#include "pod-topology.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/random-variable-stream.h"
#include "ns3/simulator.h"
#include "ns3/sue-endpoint.h"

#include <numeric>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WorkloadGenerator");

std::vector<std::pair<uint64_t, uint64_t>>
WorkloadGenerator::Plan(const Scenario& s, RunResults& r)
{
    const uint32_t n = s.pod.accelerators;
    RunResults::Messages& t = r.messages;
    std::vector<std::pair<uint64_t, uint64_t>> ranges;
    auto add = [&](uint32_t src, uint32_t dst, const Scenario::Workload& w, uint32_t wi) {
        t.src.push_back(src);
        t.dst.push_back(dst);
        t.bytes.push_back(w.bytes);
        t.tclass.push_back(w.tclass);
        t.workload.push_back(wi);
        t.postPs.push_back(w.start.GetPicoSeconds());
        t.deliverPs.push_back(-1);
        t.completePs.push_back(-1);
    };
    for (uint32_t wi = 0; wi < s.workloads.size(); ++wi)
    {
        const Scenario::Workload& w = s.workloads[wi];
        r.workloadNames.push_back(w.name);
        const uint64_t begin = t.src.size();
        if (w.kind == "incast")
        {
            std::vector<uint32_t> senders = w.senderList;
            for (uint32_t k = 1; senders.size() < w.senders; ++k)
            {
                senders.push_back((w.receiver + k) % n);
            }
            for (uint32_t src : senders)
            {
                add(src, w.receiver, w, wi);
            }
        }
        else if (w.kind == "permutation")
        {
            // Sattolo's algorithm: a uniformly random cyclic permutation, so no fixed point.
            std::vector<uint32_t> perm(n);
            std::iota(perm.begin(), perm.end(), 0);
            Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
            u->SetStream(10 + wi);
            for (uint32_t i = n - 1; i > 0; --i)
            {
                const uint32_t j = u->GetInteger(0, i - 1);
                std::swap(perm[i], perm[j]);
            }
            for (uint32_t src = 0; src < n; ++src)
            {
                add(src, perm[src], w, wi);
            }
        }
        else if (w.kind == "all-to-all")
        {
            // Each communicator (a block of b consecutive accelerators) is an all-to-all of its
            // own: every member sends to each other member, the next ones first.
            const uint32_t b = n / w.communicators;
            t.src.reserve(t.src.size() + static_cast<uint64_t>(n) * (b - 1));
            for (uint32_t src = 0; src < n; ++src)
            {
                const uint32_t base = src - src % b;
                for (uint32_t j = 1; j < b; ++j)
                {
                    add(src, base + (src - base + j) % b, w, wi);
                }
            }
        }
        else if (w.kind == "collective" || w.kind == "dag" || w.kind == "pyxis")
        {
            // Their messages are added as they are posted (Experiment), not planned; a pyxis
            // workload's RDMA jobs are in its /pyxis tables (PyxisRunner).
        }
        else
        {
            NS_ABORT_MSG("unknown workload kind " << w.kind);
        }
        ranges.emplace_back(begin, t.src.size());
    }
    return ranges;
}

void
WorkloadGenerator::Schedule(const Scenario& s,
                            const RunResults& r,
                            const std::vector<std::pair<uint64_t, uint64_t>>& rows,
                            const PodTopology& topo)
{
    for (uint32_t wi = 0; wi < s.workloads.size(); ++wi)
    {
        const auto [begin, end] = rows[wi];
        const RunResults::Messages* t = &r.messages;
        const PodTopology* tp = &topo;
        if (s.workloads[wi].read)
        {
            // The destination pulls the message: a SUE read of the source (3.2.2).
            Simulator::Schedule(s.workloads[wi].start, [t, tp, begin = begin, end = end]() {
                for (uint64_t row = begin; row < end; ++row)
                {
                    Ptr<SueEndpoint> reader =
                        DynamicCast<SueEndpoint>(tp->GetEndpoint(t->dst[row]));
                    NS_ABORT_MSG_IF(!reader, "a read workload needs SUE endpoints");
                    reader->Read(t->src[row], t->bytes[row], row);
                }
            });
            continue;
        }
        Simulator::Schedule(s.workloads[wi].start, [t, tp, begin = begin, end = end]() {
            for (uint64_t row = begin; row < end; ++row)
            {
                tp->GetEndpoint(t->src[row])->Send(t->dst[row], t->bytes[row], t->tclass[row], row);
            }
        });
    }
}

} // namespace ns3
