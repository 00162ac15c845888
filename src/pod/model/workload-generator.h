/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef POD_WORKLOAD_GENERATOR_H
#define POD_WORKLOAD_GENERATOR_H

#include "run-results.h"
#include "scenario.h"

#include "ns3/fabric-endpoint.h"
#include "ns3/fabric-message-supply.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace ns3
{

class PodTopology;

/**
 * \ingroup pod
 * \brief Turns a scenario's workloads into messages on the endpoint API.
 *
 * Plan() writes one row per message into the results' message table (source, destination,
 * bytes, class, workload); Schedule() posts each workload's messages at its start time through
 * FabricEndpoint::Send, with the row index as the cookie, so deliveries and completions land in
 * the right row.
 *
 * - incast: k senders (the sender-list, or the k accelerators after the receiver) each send one
 *   message to the receiver;
 * - permutation: every accelerator sends one message to its image under a random cyclic
 *   permutation (Sattolo's algorithm: no accelerator sends to itself), drawn from the run's seed;
 * - all-to-all: every accelerator sends one message to every other, in the staggered order
 *   src + 1, src + 2, ... (mod N) so that not everyone starts on the same destination.
 *
 * Lazy posting: an all-to-all's messages of one source are offered to its endpoint as a
 * FabricMessageSupply (FabricEndpoint::PostLazily), which posts each when its queue needs it,
 * with the same result as posting them all at the start; an endpoint that cannot promise that
 * refuses and gets them all at once. Offered only where nothing else posts at that endpoint
 * after them: no collective, DAG or pyxis workload, no fault, and no planned workload that
 * starts later (or at the same time, later in the list). Posted times stay the workload's start.
 */
class WorkloadGenerator
{
  public:
    /// The supplies that endpoints took (lazy posting), to finish at the end of a run.
    class LazyPosts
    {
      public:
        /// \return planned messages not posted yet
        uint64_t GetUnposted() const;

        /// Post what is left (after the run: the counters then equal eager posting's).
        void PostRemaining();

        /// \return the endpoints that took a supply
        std::size_t GetNEndpoints() const
        {
            return m_endpoints.size();
        }

        /**
         * \param ep an endpoint that took \p supply
         * \param supply its messages
         */
        void Add(Ptr<FabricEndpoint> ep, Ptr<FabricMessageSupply> supply);

      private:
        std::vector<Ptr<FabricEndpoint>> m_endpoints;     //!< endpoints that took one
        std::vector<Ptr<FabricMessageSupply>> m_supplies; //!< their supplies
    };

    /**
     * \param s the scenario
     * \param r results whose message table and workload names are filled
     * \return for each workload, the first row and one past its last row
     */
    static std::vector<std::pair<uint64_t, uint64_t>> Plan(const Scenario& s, RunResults& r);

    /**
     * Schedule the posting of every workload's messages.
     * \param s the scenario
     * \param r the planned results (rows)
     * \param rows the row ranges returned by Plan()
     * \param topo the built pod
     * \param poster if set, only the accelerators for which it is true post (a distributed
     * run's rank: writes by their sources, reads by their readers)
     * \return the supplies taken by endpoints (filled when the workloads start)
     */
    static std::shared_ptr<LazyPosts> Schedule(
        const Scenario& s,
        const RunResults& r,
        const std::vector<std::pair<uint64_t, uint64_t>>& rows,
        const PodTopology& topo,
        std::function<bool(uint32_t)> poster = nullptr);

    /**
     * \param s the scenario
     * \param wi a workload
     * \return true if workload \p wi's messages are offered lazily (see the class comment)
     */
    static bool IsLazyCandidate(const Scenario& s, uint32_t wi);
};

} // namespace ns3

#endif /* POD_WORKLOAD_GENERATOR_H */
