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
     */
    static void Build(const Scenario::Pod& pod,
                      NodeContainer& accNodes,
                      std::vector<Ptr<FabricEndpoint>>& endpoints,
                      std::vector<std::vector<Ptr<FabricNetDevice>>>& accDevices,
                      std::vector<PodTopology::Transmitter>& transmitters);
};

} // namespace ns3

#endif /* UALINK_POD_BUILDER_H */
