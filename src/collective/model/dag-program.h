/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DAG_PROGRAM_H
#define DAG_PROGRAM_H

#include "ns3/nstime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup collective
 * \brief A workload as a DAG of compute, collective and send nodes over the pod's
 * accelerators: what a DAG-producing workload kind (an execution trace, a training-step
 * generator) hands to the pod, which runs it with the DagRunner exactly as a `kind: dag`
 * workload (the same /dag_nodes table), and what the Chakra writer exports.
 *
 * Node indices are positions in `nodes`; names are unique. A node's `deps` hold for every
 * participant; `rankDeps`, when not empty, replaces them participant by participant (entry r for
 * participants[r]): an execution trace has one graph per rank, so a collective merged from the
 * ranks' nodes waits, on each rank, only for that rank's own predecessors.
 */
struct DagProgram
{
    /// What a node does.
    enum Kind : uint8_t
    {
        COMPUTE,    //!< spends `duration` on each participant
        COLLECTIVE, //!< a collective over `participants` (rank order)
        SEND,       //!< participants[0] sends `bytes` to participants[1]
    };

    /// One node.
    struct Node
    {
        std::string name;                            //!< unique name
        Kind kind{COMPUTE};                          //!< kind
        std::vector<uint32_t> deps;                  //!< nodes it waits for, on every participant
        std::vector<std::vector<uint32_t>> rankDeps; //!< per participant, if not empty
        std::vector<uint32_t> participants;          //!< accelerators (collective: rank order)
        Time duration;                               //!< compute: time on each participant
        std::string collective;                      //!< collective: "all-reduce", ...
        std::string algorithm;                       //!< collective: "" for the default
        uint32_t root{0};                            //!< collective: root rank
        uint64_t bytes{0};                           //!< collective size, or send bytes
        std::vector<uint64_t> sizes;                 //!< all-to-all-v: n*n row-major
        uint32_t chunks{1};                          //!< collective: chunks
        uint32_t chunksInFlight{0};                  //!< collective: chunks in flight (0: all)
        uint32_t stripes{1};                         //!< collective: sub-messages per send
        Time reduceCost;                             //!< collective: reduction time per byte
        uint32_t groupSize{0};                       //!< collective: hierarchical group size
        uint32_t tag{0};                             //!< send: tag (traces match by it)
        std::string category;                        //!< what it stands for ("" if nothing)
    };

    std::vector<Node> nodes; //!< the nodes
    uint32_t iterations{1};  //!< repetitions, back to back on each accelerator

    /// \param k a kind \return its name in results ("compute", "collective", "send")
    static std::string KindName(Kind k)
    {
        return k == COMPUTE ? "compute" : k == COLLECTIVE ? "collective" : "send";
    }
};

} // namespace ns3

#endif /* DAG_PROGRAM_H */
