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
        else if (w.kind == "collective" || w.kind == "dag" || w.config)
        {
            // Their messages are added as they are posted (Experiment), not planned; a plug-in
            // workload's (a Pyxis model's RDMA jobs) are in its own tables (WorkloadRun).
        }
        else
        {
            NS_ABORT_MSG("unknown workload kind " << w.kind);
        }
        ranges.emplace_back(begin, t.src.size());
    }
    return ranges;
}

namespace
{

/// The rows of one source in a workload's block of the message table, handed out in order.
class PlannedSupply : public FabricMessageSupply
{
  public:
    /**
     * \param t the message table
     * \param begin first row
     * \param end one past the last row
     * \param posted the workload's start (the post time of every row)
     * \param tclass the workload's class
     * \param bytes the workload's message size
     */
    PlannedSupply(const RunResults::Messages* t,
                  uint64_t begin,
                  uint64_t end,
                  Time posted,
                  uint8_t tclass,
                  uint64_t bytes)
        : m_t(t),
          m_next(begin),
          m_end(end),
          m_posted(posted),
          m_tclass(tclass),
          m_bytes(bytes)
    {
    }

    uint64_t GetRemaining() const override
    {
        return m_end - m_next;
    }

    uint64_t GetRemainingBytes() const override
    {
        return (m_end - m_next) * m_bytes;
    }

    uint8_t GetTclass() const override
    {
        return m_tclass;
    }

    bool Next(FabricMessage& m) override
    {
        if (m_next == m_end)
        {
            return false;
        }
        const uint64_t row = m_next++;
        m.dst = m_t->dst[row];
        m.bytes = m_t->bytes[row];
        m.tclass = m_t->tclass[row];
        m.cookie = row;
        m.posted = m_posted;
        return true;
    }

  private:
    const RunResults::Messages* m_t; //!< the message table
    uint64_t m_next;                 //!< next row
    uint64_t m_end;                  //!< one past the last row
    Time m_posted;                   //!< post time
    uint8_t m_tclass;                //!< class
    uint64_t m_bytes;                //!< bytes per message
};

} // namespace

uint64_t
WorkloadGenerator::LazyPosts::GetUnposted() const
{
    uint64_t n = 0;
    for (const auto& s : m_supplies)
    {
        n += s->GetRemaining();
    }
    return n;
}

void
WorkloadGenerator::LazyPosts::PostRemaining()
{
    for (const auto& ep : m_endpoints)
    {
        ep->PostRemaining();
    }
}

void
WorkloadGenerator::LazyPosts::Add(Ptr<FabricEndpoint> ep, Ptr<FabricMessageSupply> supply)
{
    m_endpoints.push_back(ep);
    m_supplies.push_back(supply);
}

bool
WorkloadGenerator::IsLazyCandidate(const Scenario& s, uint32_t wi)
{
    const Scenario::Workload& w = s.workloads[wi];
    if (w.kind != "all-to-all" || w.read || w.atomic || !s.faults.empty())
    {
        return false;
    }
    for (uint32_t j = 0; j < s.workloads.size(); ++j)
    {
        const Scenario::Workload& v = s.workloads[j];
        if (v.kind != "incast" && v.kind != "permutation" && v.kind != "all-to-all")
        {
            return false; // collectives, DAGs and pyxis post at any time
        }
        // Posted after this one (workloads of one start time are posted in list order).
        if (j != wi && (v.start > w.start || (v.start == w.start && j > wi)))
        {
            return false;
        }
    }
    return true;
}

std::shared_ptr<WorkloadGenerator::LazyPosts>
WorkloadGenerator::Schedule(const Scenario& s,
                            const RunResults& r,
                            const std::vector<std::pair<uint64_t, uint64_t>>& rows,
                            const PodTopology& topo,
                            std::function<bool(uint32_t)> poster)
{
    auto lazy = std::make_shared<LazyPosts>();
    for (uint32_t wi = 0; wi < s.workloads.size(); ++wi)
    {
        const auto [begin, end] = rows[wi];
        const RunResults::Messages* t = &r.messages;
        const PodTopology* tp = &topo;
        if (s.workloads[wi].read)
        {
            // The destination pulls the message: a read of the source (the endpoint API's Read;
            // a SUE read, SUE RM102 3.2.2, or UALink reads).
            Simulator::Schedule(
                s.workloads[wi].start,
                [t, tp, poster, begin = begin, end = end, tclass = s.workloads[wi].tclass]() {
                    for (uint64_t row = begin; row < end; ++row)
                    {
                        if (poster && !poster(t->dst[row]))
                        {
                            continue;
                        }
                        tp->GetEndpoint(t->dst[row])->Read(t->src[row], t->bytes[row], tclass, row);
                    }
                });
            continue;
        }
        const Scenario::Workload& w = s.workloads[wi];
        if (w.atomic)
        {
            // Each message is one atomic at its source (the endpoint API's Atomic: an AtomicR,
            // answered with the old value).
            Simulator::Schedule(w.start,
                                [t, tp, poster, begin = begin, end = end, tclass = w.tclass]() {
                                    for (uint64_t row = begin; row < end; ++row)
                                    {
                                        if (poster && !poster(t->src[row]))
                                        {
                                            continue;
                                        }
                                        tp->GetEndpoint(t->src[row])
                                            ->Atomic(t->dst[row],
                                                     static_cast<uint32_t>(t->bytes[row]),
                                                     true,
                                                     tclass,
                                                     row);
                                    }
                                });
            continue;
        }
        const bool candidate = IsLazyCandidate(s, wi);
        Simulator::Schedule(
            w.start,
            [t,
             tp,
             poster,
             lazy,
             candidate,
             begin = begin,
             end = end,
             start = w.start,
             tclass = w.tclass,
             bytes = w.bytes]() {
                uint32_t sources = 0;
                uint32_t lazySources = 0;
                for (uint64_t row = begin; row < end;)
                {
                    // The rows of one source are consecutive (Plan).
                    const uint32_t src = t->src[row];
                    uint64_t last = row + 1;
                    while (last < end && t->src[last] == src)
                    {
                        ++last;
                    }
                    if (poster && !poster(src))
                    {
                        row = last;
                        continue;
                    }
                    Ptr<FabricEndpoint> ep = tp->GetEndpoint(src);
                    ++sources;
                    // A flow engine takes every message at once (no queue to pull from).
                    if (candidate && last - row > 1 && !ep->HasFlowEngine())
                    {
                        Ptr<FabricMessageSupply> supply =
                            Create<PlannedSupply>(t, row, last, start, tclass, bytes);
                        if (ep->PostLazily(supply))
                        {
                            ++lazySources;
                            lazy->Add(ep, supply);
                            row = last;
                            continue;
                        }
                    }
                    for (; row < last; ++row)
                    {
                        ep->Send(t->dst[row], t->bytes[row], t->tclass[row], row);
                    }
                }
                NS_LOG_INFO("rows " << begin << ".." << end << ": " << lazySources << " of "
                                    << sources << " sources post lazily");
            });
    }
    return lazy;
}

} // namespace ns3
