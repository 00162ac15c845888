/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef POD_WATCHDOG_PROBES_H
#define POD_WATCHDOG_PROBES_H

#include "pod-topology.h"
#include "progress-watchdog.h"

#include "ns3/ptr.h"

#include <string>

namespace ns3
{

/**
 * \ingroup pod
 * \brief Gives the no-progress watchdog (ProgressWatchdog) the places where work can wait in a
 * pod, for every fabric.
 *
 * - Every transmitting device of the pod (PodTopology::GetTransmitters(): accelerator ports
 *   and switch egress ports of every fabric) is a probe named "<node>:port<k> (<link>) tx
 *   queue", the node and port named as FabricDeadlockMonitor names a switch port, the link as
 *   in the results' link table ("acc3->p1.sw0"). Its progress is the units its queue dequeued;
 *   what it holds and its description depend on the queue: a switch egress
 *   (FabricOutputQueue, also the cell fabric's) its units and bytes, and which classes PFC
 *   pauses; a UALink TL queue (UalinkTxQueue) its operations and the partner's credits per
 *   class; a transport (FabricGoBackN) its unacknowledged units; an endpoint's message queue
 *   (FabricMessageQueue) its messages and backlog; a SUE packer its backlog. A port whose link
 *   is down says so.
 * - UALink: each accelerator port's requests that wait at the UPLI for a tag
 *   (UalinkEndpoint::GetWaitingRequests) are a probe "<acc>:port<k> UPLI requests".
 * - Cell fabric: each adapter's Tx jobs (its VOQs: the pages waiting on a grant, or the CTS a
 *   job waits for) are a probe "<acc> VOQs", and its grant scheduler (the requests waiting for
 *   free Rx buffer cells or a grant slot) a probe "<acc> grant scheduler".
 */
class PodWatchdogProbes
{
  public:
    /**
     * \brief Add the probes of a built pod to a watchdog.
     * \param watchdog the watchdog
     * \param topo the pod
     */
    static void Install(const Ptr<ProgressWatchdog>& watchdog, const PodTopology& topo);

    /**
     * \param t a transmitting device of the pod
     * \return its name in reports: "<node>:port<k> (<link>)", e.g. "acc3:port1 (acc3->p1.sw0)"
     */
    static std::string GetName(const PodTopology::Transmitter& t);
};

} // namespace ns3

#endif /* POD_WATCHDOG_PROBES_H */
