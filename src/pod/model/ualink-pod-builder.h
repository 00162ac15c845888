/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UALINK_POD_BUILDER_H
#define UALINK_POD_BUILDER_H

#include "pod-topology.h"
#include "scenario.h"

#include "ns3/fabric-endpoint.h"
#include "ns3/fabric-net-device.h"
#include "ns3/node-container.h"

#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup pod
 * \brief Builds the pod of a `fabric: ualink` scenario with UalinkHelper (src/ualink): one
 * single-tier switch per accelerator port (pod.planes rails), every station bifurcated as
 * pod.ualink.bifurcation, links at the lanes' rate with the scenario's cable, error rates and the
 * DL's replay, TL credits, address caches, authentication and ordering from pod.ualink.
 */
class UalinkPodBuilder
{
  public:
    /**
     * \brief Build the pod.
     * \param pod the scenario's pod (checked by the loader)
     * \param accNodes receives the accelerator nodes
     * \param endpoints receives the endpoints, by accelerator id
     * \param accDevices receives each accelerator's ports, by plane
     * \param transmitters receives every device, named "accA->pR.sw0" and "pR.sw0->accA"
     * \param switches receives the switch of each plane (rail)
     */
    static void Build(const Scenario::Pod& pod,
                      NodeContainer& accNodes,
                      std::vector<Ptr<FabricEndpoint>>& endpoints,
                      std::vector<std::vector<Ptr<FabricNetDevice>>>& accDevices,
                      std::vector<PodTopology::Transmitter>& transmitters,
                      std::vector<Ptr<UalinkSwitch>>& switches);

    /**
     * \brief Add the UALink counters of a run: the switches' drops by reason (RouteDenied,
     * NoRoute) and the endpoints' isolations, CMPTO answers and failed messages.
     * \param endpoints the endpoints (UalinkEndpoint)
     * \param switches the switches
     * \param [in,out] drops drops by reason
     * \param [in,out] isolations stations isolated (watchdog expiry or link down)
     * \param [in,out] cmpto requests answered CMPTO
     * \param [in,out] failedMessages messages completed with a CMPTO among their requests
     */
    static void CollectCounters(const std::vector<Ptr<FabricEndpoint>>& endpoints,
                                const std::vector<Ptr<UalinkSwitch>>& switches,
                                std::map<std::string, uint64_t>& drops,
                                uint64_t& isolations,
                                uint64_t& cmpto,
                                uint64_t& failedMessages);
};

} // namespace ns3

#endif /* UALINK_POD_BUILDER_H */
