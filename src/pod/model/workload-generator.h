/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef POD_WORKLOAD_GENERATOR_H
#define POD_WORKLOAD_GENERATOR_H

#include "run-results.h"
#include "scenario.h"

#include <cstdint>
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
 */
class WorkloadGenerator
{
  public:
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
     */
    static void Schedule(const Scenario& s,
                         const RunResults& r,
                         const std::vector<std::pair<uint64_t, uint64_t>>& rows,
                         const PodTopology& topo);
};

} // namespace ns3

#endif /* POD_WORKLOAD_GENERATOR_H */
