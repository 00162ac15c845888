/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SCENARIO_DAG_H
#define SCENARIO_DAG_H

#include "scenario.h"

#include "ns3/dag-program.h"

#include <memory>
#include <string>

namespace ns3
{

/**
 * \ingroup pod
 * \brief The pod's DAG workloads as DagPrograms: a `kind: dag` workload's nodes become one, a
 * plug-in kind may hand one over (WorkloadConfig::GetDag), and the pod runs every one of them
 * the same way (the DagRunner, the /dag_nodes table).
 */
class ScenarioDag
{
  public:
    /**
     * \param w a `kind: dag` workload, its nodes read and checked
     * \param accelerators the pod's size (a node without a group runs on every accelerator)
     * \return its program (node j is w.nodes[j]; iterations from the workload)
     */
    static std::shared_ptr<const DagProgram> FromNodes(const Scenario::Workload& w,
                                                       uint32_t accelerators);

    /**
     * \param node a collective or send node of a program
     * \return the collective it runs (a send is a two-rank broadcast from its source, by the
     *         direct algorithm)
     */
    static Scenario::Collective CollectiveOf(const DagProgram::Node& node);

    /**
     * Check a program a plug-in kind produced: node names unique, dependencies and
     * participants in range, per-participant dependencies matching the participants, no
     * cycle, at least one node.
     * \param program the program
     * \param accelerators the pod's size
     * \return "" if it is sound, else what is wrong (naming the node)
     */
    static std::string Check(const DagProgram& program, uint32_t accelerators);
};

} // namespace ns3

#endif /* SCENARIO_DAG_H */
