/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DAG_CRITICAL_PATH_H
#define DAG_CRITICAL_PATH_H

#include "ns3/dag-program.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup workload
 * \brief The makespan of a DagProgram with communication taking no time: its compute-only
 * critical path, under the DagRunner's rules.
 *
 * A node starts on a participant once each of its dependencies (its rankDeps entry for that
 * participant, when it has rankDeps) has finished on that participant, if it takes part in it,
 * or on all of its participants otherwise. A compute node finishes on each participant its
 * duration after it started there; a collective or a send (no time) finishes on all of its
 * participants when the last of them has started it. An accelerator starts iteration i + 1 once
 * it has finished every node of iteration i that it takes part in.
 */
class DagCriticalPath
{
  public:
    /// The result.
    struct Result
    {
        Time makespan;                    //!< the end of the last node of the last iteration
        std::vector<Time> acceleratorEnd; //!< per accelerator (0 if in no node)
        std::vector<Time> nodeEnd;        //!< per node: its latest end, in the last iteration
    };

    /**
     * \param program the DAG (nodes in any order; it must be acyclic)
     * \return the compute-only schedule's ends
     */
    static Result ComputeOnly(const DagProgram& program);
};

} // namespace ns3

#endif /* DAG_CRITICAL_PATH_H */
