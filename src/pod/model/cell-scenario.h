/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CELL_SCENARIO_H
#define CELL_SCENARIO_H

#include "scenario.h"

#include <string>

namespace ns3
{

/**
 * \ingroup pod
 * \brief `pod.fabric: cell` (seed 004 section 10, issue 6): checks a scenario's pod against what
 * the cell fabric can build and sets what it fixes. CellPodBuilder builds it.
 *
 * Refused (each with the key at fault): an illegal RDMA page size (pod.cell.page-size-words not
 * in {37, 48, ..., 125}, 10.7.2 and 11.4.6), more chip links into a single-stage plane than its
 * cell switch has ports (one per chip), more chips than a two-stage plane reaches (as many
 * first-stage switches as a second-stage switch's ports reach), up ports that do not spread
 * evenly over the second-stage switches, an Rx CBUF smaller than
 * one full page, pod.planes other than pod.cell.links, job timers against the spec's order (a
 * Tx CTS wait not longer than the Rx data wait, an Rx job completion not longer than the Tx ACK
 * wait; 10.7.1.1, 10.8.1.1), the keys of other fabrics' link layers (pod.flow-control,
 * pod.transport, pod.llr), and with switch credits (pod.cell.switch-credits) a credit smaller
 * than a cell, fewer credits per port than the largest unit's cells, and a switch buffer that
 * cannot hold the credits it advertises.
 */
class CellScenario
{
  public:
    /**
     * \brief Check a pod declared `fabric: cell`.
     * \param pod the pod
     * \param[out] field the offending key, on failure
     * \param[out] message why, on failure
     * \return true if the pod can be built
     */
    static bool Check(const Scenario::Pod& pod, std::string& field, std::string& message);

    /**
     * \brief Set what the cell fabric fixes: pod.planes = pod.cell.links (chip link p goes to
     * plane p).
     * \param pod the pod
     */
    static void Apply(Scenario::Pod& pod);

    /**
     * \param pod the pod
     * \return stages per plane to build (1 or 2; pod.cell.stages auto: 1 when the chips fit on
     * one switch)
     */
    static uint32_t GetStages(const Scenario::Pod& pod);

    /**
     * \param pod the pod
     * \return credits per port and pool: pod.cell.credits-per-port, or when 0 the round trip of
     * a link as CellFabricHelper derives it (CellFabricHelper::GetRoundTripCredits)
     */
    static uint32_t GetCreditsPerPort(const Scenario::Pod& pod);

  private:
    /**
     * \brief The credit keys (pod.cell.switch-credits, credits-per-port, credit-bytes,
     * switch-buffer-cells).
     * \param pod the pod
     * \param[out] field the offending key, on failure
     * \param[out] message why, on failure
     * \return true if they are consistent
     */
    static bool CheckCredits(const Scenario::Pod& pod, std::string& field, std::string& message);
};

} // namespace ns3

#endif /* CELL_SCENARIO_H */
