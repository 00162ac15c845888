/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pyxis-dag-export.h"

#include "pyxis-layer-program.h"
#include "pyxis-trip-program.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace ns3
{

std::shared_ptr<DagProgram>
PyxisDagExport::Build(const PyxisModelSpec& spec, const PyxisUieParams& uie)
{
    auto program = std::make_shared<DagProgram>();
    const PyxisUieModel model(uie);
    const std::vector<PyxisLayerProgram::ChipProgram> chips = PyxisLayerProgram::Lower(spec);
    // A collective is one node over its group: the chips of a group reach their k-th
    // operation of a layer together, so (layer, op, first chip of the group) names it.
    std::map<std::tuple<uint32_t, uint32_t, uint32_t>, uint32_t> shared;
    std::vector<int64_t> last(chips.size(), -1); // each chip's previous node
    for (const auto& chip : chips)
    {
        for (const auto& layer : chip.layers)
        {
            for (uint32_t o = 0; o < layer.ops.size(); ++o)
            {
                const PyxisLayerProgram::Op& op = layer.ops[o];
                const std::vector<uint32_t> prev =
                    last[chip.chip] < 0 ? std::vector<uint32_t>()
                                        : std::vector<uint32_t>{uint32_t(last[chip.chip])};
                if (op.kind == PyxisLayerProgram::Op::COMPUTE)
                {
                    const auto& c = op.compute;
                    uint64_t cycles = 0;
                    for (const auto& share : c.shares)
                    {
                        cycles = std::max(cycles, PyxisTripProgram::ShareCycles(model, c, share));
                    }
                    // The trips start T_launch after their barrier and notify after the
                    // commit, as the trip program runs them.
                    cycles += uie.launchCycles + uie.drainCommitCycles;
                    DagProgram::Node node;
                    node.name = "chip" + std::to_string(chip.chip) + "/" + layer.name + "/" +
                                std::to_string(o) + "-" + c.name;
                    node.kind = DagProgram::COMPUTE;
                    node.participants = {chip.chip};
                    node.duration = PicoSeconds(
                        static_cast<int64_t>(std::llround(cycles / uie.clockHz * 1e12)));
                    node.deps = prev;
                    node.category = "compute";
                    last[chip.chip] = program->nodes.size();
                    program->nodes.push_back(node);
                    continue;
                }
                const bool tp = op.kind == PyxisLayerProgram::Op::TP_COMM;
                const std::vector<uint32_t>& group = tp ? op.comm.group : op.dp.group;
                const uint32_t rank = tp ? op.comm.rank : op.dp.rank;
                const auto key = std::make_tuple(layer.layer, o, group.front());
                auto it = shared.find(key);
                if (it == shared.end())
                {
                    DagProgram::Node node;
                    node.kind = DagProgram::COLLECTIVE;
                    node.participants = group;
                    node.rankDeps.assign(group.size(), {});
                    if (tp)
                    {
                        node.name = layer.name + "/" + std::to_string(o) + "-" + op.comm.name +
                                    "/group" + std::to_string(group.front());
                        node.collective = CollectiveSpec::TypeName(op.comm.collective);
                        node.algorithm = "ring";
                        node.bytes = op.comm.bytes;
                        node.category = "tp-" + node.collective;
                    }
                    else
                    {
                        node.name = layer.name + "/" + std::to_string(o) + "-" + op.dp.name +
                                    "/group" + std::to_string(group.front());
                        node.collective = CollectiveSpec::TypeName(op.dp.spec.type);
                        node.algorithm = op.dp.algorithm;
                        node.root = op.dp.spec.root;
                        node.bytes = op.dp.spec.bytes;
                        node.category = "dp-" + node.collective;
                    }
                    it = shared.emplace(key, program->nodes.size()).first;
                    program->nodes.push_back(node);
                }
                program->nodes[it->second].rankDeps[rank] = prev;
                last[chip.chip] = it->second;
            }
        }
    }
    return program;
}

} // namespace ns3
