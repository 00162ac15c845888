/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef POD_MEMORY_ESTIMATE_H
#define POD_MEMORY_ESTIMATE_H

#include "scenario.h"

#include "ns3/collective-algorithm.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <string>

namespace ns3
{

class FabricKind;

/**
 * \ingroup pod
 * \brief The memory a scenario's run needs, estimated before anything is built, and the memory
 * this process may use.
 *
 * The scenario loader refuses a scenario whose estimate exceeds limits.memory (by default the
 * memory this process may use: the smallest of the machine's memory, its cgroup's memory.max and
 * the address-space and data limits), naming the estimate, its parts and the keys to change, so
 * that a pod too large for the machine stops before a build that would take minutes and end in
 * an out-of-memory error. The parts (pod.rst, Memory estimate, gives the measurements they come
 * from):
 *
 * - the process itself (32 MiB: ns-3, the libraries, the scenario);
 * - the pod's objects: FabricKind::EstimateBytesPerAccelerator times the accelerators;
 * - the routes of switched planes: 4 B per switch and destination in the plan the planes are
 *   built from (FabricPlanePlan::SwitchRoutes), and as much in each plane's routing tables;
 * - the message table: 150 B per message the workloads plan (a table row and the message
 *   itself), counted from their sizes: incast senders, a permutation's n, an all-to-all's
 *   n (b - 1), a collective's schedule (rank 0's sends times the ranks, per iteration and
 *   communicator), a DAG's collectives and sends per iteration.
 *
 * The figures are within about 25% of the peak resident memory measured on the benchmark pods;
 * workloads of plug-in kinds (Pyxis models) are not counted.
 */
class PodMemoryEstimate
{
  public:
    /// Bytes taken by the process before the pod is built.
    static constexpr uint64_t PROCESS_BYTES = uint64_t(32) << 20;
    /// Bytes per planned message: its table row and the message object.
    static constexpr uint64_t BYTES_PER_MESSAGE = 150;
    /// Bytes per route entry, switch and destination (a group index or a port).
    static constexpr uint64_t BYTES_PER_ROUTE = 4;

    /**
     * \param s a scenario (pod and workloads read)
     * \param kind its fabric kind
     */
    PodMemoryEstimate(const Scenario& s, const FabricKind& kind);

    /// \return the whole estimate, in bytes
    uint64_t GetTotal() const;

    /// \return the estimate and its parts, e.g. "21.3 GiB (pod objects 1.0 GiB, routes 20.2 GiB,
    /// 2 messages 300 B, process 32 MiB)"
    std::string Describe() const;

    /**
     * \param [out] source what sets it: "the machine's memory (MemTotal)", "the cgroup's
     *        memory.max", "the address-space limit (ulimit -v)", "the data limit (ulimit -d)"
     * \return the memory this process may use, in bytes (the smallest of those known)
     */
    static uint64_t GetAvailable(std::string& source);

    /**
     * \param bytes a size
     * \return it with a binary unit, e.g. "1.5 GiB", "300 B"
     */
    static std::string Format(uint64_t bytes);

    /**
     * The messages a collective's whole schedule posts, estimated from rank 0's sends times the
     * ranks (cheap for any group size; exact for the symmetric algorithms).
     * \param c a scenario's collective
     * \param accelerators the pod's size (a collective without a group is over all of them)
     * \return the estimate
     */
    static uint64_t EstimateCollectiveMessages(const Scenario::Collective& c,
                                               uint32_t accelerators);

    /**
     * \param c a scenario's collective
     * \param accelerators the pod's size (a collective without a group is over all of them)
     * \return its schedule (the algorithm CollectiveHelper makes for it)
     */
    static Ptr<CollectiveAlgorithm> ScheduleOf(const Scenario::Collective& c,
                                               uint32_t accelerators);

  private:
    uint64_t m_objects{0};  //!< the pod's objects
    uint64_t m_routes{0};   //!< the routes of switched planes
    uint64_t m_messages{0}; //!< planned messages
};                          // class PodMemoryEstimate

} // namespace ns3

#endif /* POD_MEMORY_ESTIMATE_H */
