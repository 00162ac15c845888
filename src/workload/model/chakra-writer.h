/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CHAKRA_WRITER_H
#define CHAKRA_WRITER_H

#include "ns3/dag-program.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup workload
 * \brief Writes a DagProgram as Chakra execution traces: DIR/NAME.RANK.et, one graph per rank
 * (rank r is accelerator r), and DIR/NAME.comm_groups.json, the process groups of its
 * collectives (src/workload/doc/workload.rst, Chakra execution traces).
 *
 * Node j of the program has id j on every rank it runs on. Each rank's node carries the
 * program's meaning exactly in podsim_* attributes (the node's index, the exact compute time in
 * picoseconds, the dependencies that do not run on the rank, the collective's podsim name,
 * algorithm, root and sizes, the category), so that ChakraReader gives the same program back.
 */
class ChakraWriter
{
  public:
    /// The names of podsim's attributes.
    static const char* const NODE;           //!< podsim_node: the node's index in the program
    static const char* const POSITION;       //!< podsim_position: the rank's place among its
                                             //!< participants (compute)
    static const char* const DURATION_PS;    //!< podsim_duration_ps: compute time, exact
    static const char* const REMOTE_DEPS;    //!< podsim_remote_deps: deps not on this rank
    static const char* const CATEGORY;       //!< podsim_category
    static const char* const COLLECTIVE;     //!< podsim_collective: podsim's collective name
    static const char* const ALGORITHM;      //!< podsim_algorithm
    static const char* const ROOT;           //!< podsim_root: root rank
    static const char* const SIZES;          //!< podsim_sizes: all-to-all-v's n*n sizes
    static const char* const CHUNKS;         //!< podsim_chunks
    static const char* const IN_FLIGHT;      //!< podsim_chunks_in_flight
    static const char* const STRIPES;        //!< podsim_stripes
    static const char* const REDUCE_COST_PS; //!< podsim_reduce_cost_ps: reduction ps per byte
    static const char* const GROUP_SIZE;     //!< podsim_group_size: hierarchical group size
    static const char* const ITERATIONS;     //!< podsim_iterations (metadata)
    static const char* const NODES;          //!< podsim_nodes: the program's size (metadata)
    static const char* const SCHEMA_VERSION; //!< the metadata's `schema` value

    /**
     * Write the traces.
     * \param program the program (its participants are ranks)
     * \param dir the directory (created if missing)
     * \param name the file prefix (a workload's name)
     * \return the files written (the traces by rank, then the comm-groups file)
     * \throw ChakraError when the program cannot be written (a send to itself, a collective
     *        with no Chakra comm_type) or a file cannot be written
     */
    static std::vector<std::string> Write(const DagProgram& program,
                                          const std::string& dir,
                                          const std::string& name);

    /**
     * \param collective a podsim collective name ("all-reduce")
     * \return its CollectiveCommType, or -1 if Chakra has none
     */
    static int CommTypeOf(const std::string& collective);
};

} // namespace ns3

#endif /* CHAKRA_WRITER_H */
