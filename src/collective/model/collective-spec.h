/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef COLLECTIVE_SPEC_H
#define COLLECTIVE_SPEC_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup collective
 * \brief What a collective operation does, independent of how (the algorithm) and where (the
 * accelerators of its communicator).
 *
 * Sizes follow nccl-tests: `bytes` is the per-rank buffer of an all-reduce, broadcast or reduce;
 * the total (n blocks of bytes/n) of a reduce-scatter or all-gather; for an all-to-all it is the
 * bytes each rank sends to each other rank (per pair), and a barrier ignores it.
 */
struct CollectiveSpec
{
    /// The collective operations.
    enum Type
    {
        ALL_REDUCE,     //!< every rank ends with the reduction of every rank's buffer
        REDUCE_SCATTER, //!< rank r ends with block r of the reduction
        ALL_GATHER,     //!< every rank ends with every rank's block
        BROADCAST,      //!< every rank ends with the root's buffer
        REDUCE,         //!< the root ends with the reduction
        ALL_TO_ALL,     //!< rank s sends block (s, d) to every d
        ALL_TO_ALL_V,   //!< all-to-all with a size per (s, d) pair
        BARRIER,        //!< nobody leaves before everybody has arrived
    };

    Type type{ALL_REDUCE};       //!< the operation
    uint32_t ranks{0};           //!< communicator size n
    uint32_t root{0};            //!< root rank (broadcast, reduce)
    uint64_t bytes{0};           //!< size (see the class description)
    std::vector<uint64_t> sizes; //!< ALL_TO_ALL_V: n*n bytes, row-major [src * n + dst]

    /**
     * \param t a type
     * \return its name in scenarios and results ("all-reduce", ...)
     */
    static std::string TypeName(Type t);

    /**
     * \param name a name as written in a scenario
     * \param [out] t the type
     * \return false if the name is unknown
     */
    static bool ParseType(const std::string& name, Type& t);

    /// \return every type name, in enum order
    static std::vector<std::string> TypeNames();

    /**
     * The nccl-tests bus-bandwidth factor: busbw = algbw * factor, 2(n-1)/n for all-reduce,
     * (n-1)/n for reduce-scatter, all-gather and all-to-all, 1 for broadcast and reduce, 0 for a
     * barrier (it moves no data).
     * \return the factor for this spec
     */
    double BusBandwidthFactor() const;

    /**
     * The bytes algbw divides by (nccl-tests): `bytes`, or n * bytes for an all-to-all (each
     * rank's whole send buffer, its own block included), or the mean row sum of an
     * all-to-all-v, 0 for a barrier.
     * \return the algorithm-bandwidth size
     */
    double AlgorithmBandwidthBytes() const;
};

} // namespace ns3

#endif /* COLLECTIVE_SPEC_H */
