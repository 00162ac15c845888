/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pod-memory-estimate.h"

#include "pod-switch-count.h"
#include "scenario-dag.h"

#include "ns3/collective-executor.h"
#include "ns3/collective-helper.h"
#include "ns3/fabric-kind.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>
#include <sys/resource.h>
#include <unistd.h>

namespace ns3
{

namespace
{

/**
 * \param s a scenario
 * \return the messages its workloads plan (PodMemoryEstimate's class comment)
 */
uint64_t
PlannedMessages(const Scenario& s)
{
    const uint32_t n = s.pod.accelerators;
    uint64_t total = 0;
    for (const Scenario::Workload& w : s.workloads)
    {
        if (w.kind == "incast")
        {
            total += std::max<uint64_t>(w.senders, w.senderList.size());
        }
        else if (w.kind == "permutation")
        {
            total += n;
        }
        else if (w.kind == "all-to-all")
        {
            const uint64_t b = n / std::max<uint32_t>(1, w.communicators);
            total += uint64_t(n) * (b > 0 ? b - 1 : 0);
        }
        else if (w.kind == "collective")
        {
            const uint32_t members = w.coll.group.empty() ? n : w.coll.group.size();
            Scenario::Collective one = w.coll;
            if (w.communicators > 1)
            {
                one.group.assign(members / w.communicators, 0); // one communicator's size
            }
            total += PodMemoryEstimate::EstimateCollectiveMessages(one, n) * w.communicators *
                     w.iterations;
        }
        else if (w.program)
        {
            uint64_t perIteration = 0;
            for (const DagProgram::Node& d : w.program->nodes)
            {
                if (d.kind == DagProgram::SEND)
                {
                    ++perIteration;
                }
                else if (d.kind == DagProgram::COLLECTIVE)
                {
                    perIteration +=
                        PodMemoryEstimate::EstimateCollectiveMessages(ScenarioDag::CollectiveOf(d),
                                                                      n);
                }
            }
            total += perIteration * w.program->iterations;
        }
    }
    return total;
}

/**
 * \param path a file holding one number (or "max")
 * \return the number, or 0 when the file is absent or says max
 */
uint64_t
ReadLimitFile(const std::string& path)
{
    std::ifstream in(path);
    std::string word;
    if (!(in >> word) || word == "max")
    {
        return 0;
    }
    try
    {
        return std::stoull(word);
    }
    catch (const std::exception&)
    {
        return 0;
    }
}

} // namespace

PodMemoryEstimate::PodMemoryEstimate(const Scenario& s, const FabricKind& kind)
{
    const Scenario::Pod& pod = s.pod;
    const uint64_t n = pod.accelerators;
    m_objects = n * kind.EstimateBytesPerAccelerator(pod);
    if (kind.UsesPlanePlan())
    {
        // The plan holds an entry per switch and destination while the planes are built, and
        // each plane's routing tables keep one too.
        const PodPlaneShape p = GetPodPlaneShape(pod);
        m_routes = uint64_t(p.perPlane) * n * BYTES_PER_ROUTE * (1 + pod.planes);
    }
    m_messages = PlannedMessages(s) * BYTES_PER_MESSAGE;
}

uint64_t
PodMemoryEstimate::GetTotal() const
{
    return PROCESS_BYTES + m_objects + m_routes + m_messages;
}

std::string
PodMemoryEstimate::Describe() const
{
    std::ostringstream os;
    os << Format(GetTotal()) << " (pod objects " << Format(m_objects) << ", routes "
       << Format(m_routes) << ", planned messages " << Format(m_messages) << ", process "
       << Format(PROCESS_BYTES) << ")";
    return os.str();
}

uint64_t
PodMemoryEstimate::GetAvailable(std::string& source)
{
    uint64_t best = std::numeric_limits<uint64_t>::max();
    source = "unknown";
    auto consider = [&best, &source](uint64_t bytes, const char* what) {
        if (bytes > 0 && bytes < best)
        {
            best = bytes;
            source = what;
        }
    };
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long pageSize = sysconf(_SC_PAGESIZE);
    if (pages > 0 && pageSize > 0)
    {
        consider(uint64_t(pages) * uint64_t(pageSize), "the machine's memory");
    }
    consider(ReadLimitFile("/sys/fs/cgroup/memory.max"), "the cgroup's memory.max");
    const uint64_t v1 = ReadLimitFile("/sys/fs/cgroup/memory/memory.limit_in_bytes");
    if (v1 < (uint64_t(1) << 60)) // cgroup v1 says "no limit" with a huge number
    {
        consider(v1, "the cgroup's memory.limit_in_bytes");
    }
    struct rlimit rl;
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
    {
        consider(rl.rlim_cur, "the address-space limit (ulimit -v)");
    }
    if (getrlimit(RLIMIT_DATA, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
    {
        consider(rl.rlim_cur, "the data limit (ulimit -d)");
    }
    return best == std::numeric_limits<uint64_t>::max() ? 0 : best;
}

std::string
PodMemoryEstimate::Format(uint64_t bytes)
{
    static const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double v = static_cast<double>(bytes);
    uint32_t u = 0;
    while (v >= 1024 && u + 1 < sizeof(units) / sizeof(units[0]))
    {
        v /= 1024;
        ++u;
    }
    char text[32];
    std::snprintf(text, sizeof(text), u == 0 ? "%.0f %s" : "%.1f %s", v, units[u]);
    return text;
}

Ptr<CollectiveAlgorithm>
PodMemoryEstimate::ScheduleOf(const Scenario::Collective& c, uint32_t accelerators)
{
    CollectiveHelper h;
    if (c.groupSize)
    {
        h.SetAlgorithmAttribute("GroupSize", UintegerValue(c.groupSize));
    }
    CollectiveSpec spec;
    CollectiveSpec::ParseType(c.collective, spec.type);
    spec.ranks = c.group.empty() ? accelerators : c.group.size();
    spec.root = c.root;
    spec.bytes = c.bytes;
    spec.sizes = c.sizes;
    return h.CreateAlgorithm(c.algorithm, spec);
}

uint64_t
PodMemoryEstimate::EstimateCollectiveMessages(const Scenario::Collective& c, uint32_t accelerators)
{
    Ptr<CollectiveAlgorithm> a = ScheduleOf(c, accelerators);
    // Rank 0's sends, cut into chunks and stripes as CollectiveExecutor posts them.
    std::vector<CollectiveOp> ops;
    uint64_t rank0 = 0;
    for (uint32_t k = 0; k < a->GetNSteps(); ++k)
    {
        a->GetStep(0, k, ops);
        for (const auto& op : ops)
        {
            if (op.kind == CollectiveOp::SEND)
            {
                rank0 += uint64_t(c.chunks) * std::max<uint32_t>(1, c.stripes);
            }
        }
    }
    return rank0 * a->GetSpec().ranks;
}

} // namespace ns3
