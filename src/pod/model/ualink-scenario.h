/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UALINK_SCENARIO_H
#define UALINK_SCENARIO_H

#include "scenario.h"

#include <string>

namespace ns3
{

/**
 * \ingroup pod
 * \brief `pod.fabric: ualink` with `pod.ualink.virtual-pods`: refuses workloads that would cross
 * a virtual pod boundary.
 *
 * A virtual pod's accelerators reach each other and no other accelerator (UALink_200 sections
 * 1.1, 8.4): the switches' route tables deny the rest (10.7.1), so a request across is dropped
 * silently and its source isolates when its watchdog expires (3.1.3), or waits forever without
 * one. A workload that sends across virtual pods is a mistake in the scenario, not an
 * experiment, so it is refused before the run, naming the workload's key: an incast's receiver,
 * a sender (sender-list entry, or senders when the default senders after the receiver leave the
 * receiver's virtual pod), a collective's group (or its kind when the group is the whole pod),
 * an all-to-all's or permutation's kind (they span the whole pod), a DAG node's group or its
 * send's dst. Accelerators in no virtual pod are excluded from routing (Figure 8-4): a workload
 * that uses one is refused too. Denied traffic on purpose is a `deny-route` fault.
 */
class UalinkScenario
{
  public:
    /**
     * \brief Check every workload against the virtual pods (nothing to check without them).
     * \param sc the scenario, workloads read
     * \param[out] field the offending key, on failure
     * \param[out] message why, on failure
     * \return true if no workload crosses a virtual pod boundary
     */
    static bool CheckVirtualPods(const Scenario& sc, std::string& field, std::string& message);
};

} // namespace ns3

#endif /* UALINK_SCENARIO_H */
