/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CHAKRA_READER_H
#define CHAKRA_READER_H

#include "ns3/dag-program.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup workload
 * \brief Reads Chakra execution traces (PREFIX.RANK.et, one graph per rank) into one
 * DagProgram over the pod's accelerators (src/workload/doc/workload.rst, Chakra execution
 * traces, has the mapping).
 *
 * Compute nodes run on their rank's accelerator (merged back into one node across ranks when
 * podsim wrote them); the k-th collective of a process group on each member rank becomes one
 * collective node, with each rank's own predecessors (rankDeps); a send and its matching
 * receive (same source, destination and tag, in order) become one send node. Anything podsim
 * cannot run is refused with a ChakraError naming the file, the rank and the node id.
 */
class ChakraReader
{
  public:
    /// What to read and how to place it.
    struct Options
    {
        std::string prefix;              //!< PREFIX of PREFIX.RANK.et
        uint32_t ranks{0};               //!< ranks to read (0: every file found from rank 0)
        std::vector<uint32_t> placement; //!< accelerator of each rank (empty: rank r on r)
        std::string commGroups;          //!< comm-groups JSON file ("" if none)
        std::string algorithm;           //!< collectives' algorithm ("": the trace's, else
                                         //!< the default)
        uint32_t iterations{0};          //!< iterations (0: the trace's podsim_iterations, or 1)
        /// achieved FLOP/s of a compute node that has no duration but `num_ops` (the roofline;
        /// 0: such a node takes no time)
        double flopsPerSecond{0};
        /// achieved HBM bytes/s of a compute node that has no duration but `tensor_size`
        double bytesPerSecond{0};
    };

    /**
     * \param prefix PREFIX of PREFIX.RANK.et
     * \return how many files PREFIX.0.et, PREFIX.1.et, ... exist (counting up from 0)
     */
    static uint32_t CountRanks(const std::string& prefix);

    /**
     * \param file a comm-groups file (JSON: {"NAME": [rank, ...], ...})
     * \return the groups by name
     * \throw ChakraError if it cannot be read
     */
    static std::map<std::string, std::vector<uint32_t>> ReadCommGroups(const std::string& file);

    /**
     * Read the traces.
     * \param options what to read
     * \return the program (participants are accelerators, by the placement)
     * \throw ChakraError naming the file, rank and node id of what cannot be run
     */
    static DagProgram Read(const Options& options);
};

} // namespace ns3

#endif /* CHAKRA_READER_H */
