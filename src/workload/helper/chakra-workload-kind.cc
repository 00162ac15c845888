/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "chakra-workload-kind.h"

#include "ns3/chakra-error.h"
#include "ns3/chakra-reader.h"
#include "ns3/fabric-config-reader.h"
#include "ns3/llm-step-spec.h"
#include "ns3/log.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ChakraWorkloadKind");

std::map<std::string, std::string>
ChakraWorkloadKind::Config::GetTexts() const
{
    return {{"trace", trace}, {"comm_groups", commGroups}};
}

std::map<std::string, uint64_t>
ChakraWorkloadKind::Config::GetCounts() const
{
    return {{"ranks", ranks}, {"nodes", program ? program->nodes.size() : 0}};
}

std::string
ChakraWorkloadKind::Config::GetSourceFile() const
{
    return trace + ".0.et";
}

std::shared_ptr<const DagProgram>
ChakraWorkloadKind::Config::GetDag() const
{
    return program;
}

std::string
ChakraWorkloadKind::GetName() const
{
    return "chakra";
}

std::string
ChakraWorkloadKind::GetSummary() const
{
    return "Chakra execution traces (src/workload/doc/workload.rst)";
}

std::string
ChakraWorkloadKind::GetChecks() const
{
    return "chakra: the trace files PREFIX.0.et ... exist and hold nodes podsim can run (their "
           "errors name the file, the rank and the node id); the placement gives each rank a "
           "distinct accelerator below pod.accelerators.";
}

void
ChakraWorkloadKind::DeclareKeys(std::vector<FabricConfigKey>& k) const
{
    using K = FabricConfigKey;
    // iterations and algorithm mean for a trace what they mean for `kind: dag` and
    // `kind: collective`: the pod's keys take this kind too.
    for (auto& key : k)
    {
        if (key.path == "workloads[].iterations" || key.path == "workloads[].algorithm")
        {
            key.kinds.push_back("chakra");
        }
        // The roofline of compute nodes that carry FLOPs and bytes instead of a duration: the
        // llm-step kind's accelerator keys (registered before this kind) serve traces too.
        static const std::set<std::string> roofline = {"workloads[].accelerator",
                                                       "workloads[].dtype",
                                                       "workloads[].peak-flops",
                                                       "workloads[].hbm-bandwidth",
                                                       "workloads[].matmul-efficiency",
                                                       "workloads[].memory-efficiency"};
        if (roofline.count(key.path))
        {
            key.kinds.push_back("chakra");
            if (key.path == "workloads[].accelerator")
            {
                key.help += " chakra: the roofline of a compute node without a duration: "
                            "max(num_ops / (peak-flops x matmul-efficiency), tensor_size / "
                            "(hbm-bandwidth x memory-efficiency)), peak at dtype.";
            }
        }
    }
    k.push_back(K("workloads[].trace", K::STRING)
                    .Required()
                    .Kinds({"chakra"})
                    .Help("chakra: the traces' PREFIX, relative to the scenario's directory: "
                          "the files PREFIX.0.et, PREFIX.1.et, ... (one per rank)."));
    k.push_back(K("workloads[].ranks", K::UINT)
                    .Min(1)
                    .Note("the files found")
                    .Kinds({"chakra"})
                    .Help("chakra: read ranks 0 to ranks-1 (default: every PREFIX.RANK.et "
                          "found counting from 0)."));
    // Another kind (message-trace) may have declared placement already, with the same form:
    // the key then takes this kind too.
    const std::string placementHelp =
        "chakra: the accelerator of each rank, by rank (default: rank r on accelerator r).";
    auto placement = std::find_if(k.begin(), k.end(), [](const FabricConfigKey& key) {
        return key.path == "workloads[].placement";
    });
    if (placement != k.end())
    {
        placement->kinds.push_back("chakra");
        placement->help += " " + placementHelp;
    }
    else
    {
        k.push_back(K("workloads[].placement", K::LIST)
                        .Element(K::UINT)
                        .Note("linear")
                        .Kinds({"chakra"})
                        .Help(placementHelp));
    }
    k.push_back(K("workloads[].placement-file", K::STRING)
                    .Kinds({"chakra"})
                    .Help("chakra: a file with the accelerator of each rank, one per line "
                          "(instead of placement), relative to the scenario's directory."));
    k.push_back(K("workloads[].comm-groups", K::STRING)
                    .Note("PREFIX.comm_groups.json if it exists")
                    .Kinds({"chakra"})
                    .Help("chakra: JSON file mapping each process group (pg_name) to its "
                          "ranks, ASTRA-sim's form; without one a collective spans all ranks."));
}

std::shared_ptr<const WorkloadConfig>
ChakraWorkloadKind::Read(const FabricConfigReader& in,
                         const std::string& p,
                         const Context& context) const
{
    auto c = std::make_shared<Config>();
    c->trace = in.ResolvePath(p + ".trace");
    ChakraReader::Options o;
    o.prefix = c->trace;
    bool given = false;
    const FabricConfigValue ranks = in.Get(p + ".ranks", false, &given);
    o.ranks = given ? static_cast<uint32_t>(ranks.u) : 0;
    if (in.Has(p + ".placement") && in.Has(p + ".placement-file"))
    {
        in.Fail(p + ".placement-file", "give placement or placement-file, not both");
    }
    if (in.Has(p + ".placement"))
    {
        const std::size_t n = in.GetListSize(p + ".placement");
        for (std::size_t i = 0; i < n; ++i)
        {
            o.placement.push_back(
                static_cast<uint32_t>(in.Get(p + ".placement[" + std::to_string(i) + "]").u));
        }
    }
    else if (in.Has(p + ".placement-file"))
    {
        const std::string file = in.ResolvePath(p + ".placement-file");
        std::ifstream f(file);
        if (!f)
        {
            in.Fail(p + ".placement-file", "cannot read " + file);
        }
        std::string line;
        uint32_t lineNo = 0;
        while (std::getline(f, line))
        {
            ++lineNo;
            const auto first = line.find_first_not_of(" \t\r");
            if (first == std::string::npos || line[first] == '#')
            {
                continue;
            }
            std::size_t used = 0;
            unsigned long a = 0;
            try
            {
                a = std::stoul(line.substr(first), &used);
            }
            catch (const std::exception&)
            {
                used = 0;
            }
            if (used == 0 || line.find_first_not_of(" \t\r", first + used) != std::string::npos)
            {
                in.FailIn(file, lineNo, "accelerator", "not an accelerator id: '" + line + "'");
            }
            o.placement.push_back(static_cast<uint32_t>(a));
        }
    }
    const std::string placementKey =
        in.Has(p + ".placement-file") ? p + ".placement-file" : p + ".placement";
    std::set<uint32_t> used;
    for (std::size_t r = 0; r < o.placement.size(); ++r)
    {
        const uint32_t a = o.placement[r];
        if (a >= context.accelerators)
        {
            in.Fail(placementKey,
                    "rank " + std::to_string(r) + " is placed on accelerator " + std::to_string(a) +
                        ", beyond pod.accelerators = " + std::to_string(context.accelerators));
        }
        if (!used.insert(a).second)
        {
            in.Fail(placementKey,
                    "rank " + std::to_string(r) + " is placed on accelerator " + std::to_string(a) +
                        ", which an earlier rank has");
        }
    }
    if (in.Has(p + ".comm-groups"))
    {
        c->commGroups = in.ResolvePath(p + ".comm-groups");
    }
    else
    {
        std::error_code ec;
        const std::string beside = c->trace + ".comm_groups.json";
        if (std::filesystem::is_regular_file(beside, ec))
        {
            c->commGroups = beside;
        }
    }
    o.commGroups = c->commGroups;
    if (in.Has(p + ".algorithm"))
    {
        o.algorithm = in.Get(p + ".algorithm").str;
    }
    if (in.Has(p + ".iterations"))
    {
        o.iterations = static_cast<uint32_t>(in.Get(p + ".iterations").u);
    }
    {
        const std::string accelerator = in.Get(p + ".accelerator").str;
        const double peak = in.Get(p + ".peak-flops").d;
        const double bandwidth = in.Get(p + ".hbm-bandwidth").d;
        o.flopsPerSecond =
            (peak > 0 ? peak
                      : LlmStepSpec::PresetPeakFlops(accelerator, in.Get(p + ".dtype").str)) *
            in.Get(p + ".matmul-efficiency").d;
        o.bytesPerSecond =
            (bandwidth > 0 ? bandwidth : LlmStepSpec::PresetHbmBandwidth(accelerator)) *
            in.Get(p + ".memory-efficiency").d;
    }
    // Placement checked against the traces' ranks once they are counted.
    const uint32_t found = ChakraReader::CountRanks(c->trace);
    const uint32_t n = o.ranks > 0 ? o.ranks : found;
    if (o.placement.empty() && n > context.accelerators)
    {
        in.Fail(p + ".trace",
                "the trace has " + std::to_string(n) + " ranks, more than pod.accelerators = " +
                    std::to_string(context.accelerators) + " (rank r runs on accelerator r)");
    }
    if (!o.placement.empty() && o.placement.size() < n)
    {
        in.Fail(placementKey,
                "places " + std::to_string(o.placement.size()) + " ranks, but the trace has " +
                    std::to_string(n));
    }
    try
    {
        c->program = std::make_shared<const DagProgram>(ChakraReader::Read(o));
    }
    catch (const ChakraError& e)
    {
        std::string where;
        if (e.GetRank() != ChakraError::NONE)
        {
            where = "rank " + std::to_string(e.GetRank());
        }
        if (e.GetNode() != ChakraError::NONE)
        {
            where +=
                (where.empty() ? "" : ", ") + std::string("node ") + std::to_string(e.GetNode());
        }
        in.FailIn(e.GetFile(), 0, where.empty() ? "trace" : where, e.GetMessage());
    }
    c->ranks = n;
    return c;
}

std::unique_ptr<WorkloadRun>
ChakraWorkloadKind::Start(const WorkloadConfig& config,
                          const std::vector<Ptr<FabricEndpoint>>& endpoints,
                          std::string& error) const
{
    (void)config;
    (void)endpoints;
    error = "a chakra workload is a DAG, which the pod runs with its DagRunner (GetDag)";
    return nullptr;
}

} // namespace ns3
