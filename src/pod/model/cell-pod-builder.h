/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CELL_POD_BUILDER_H
#define CELL_POD_BUILDER_H

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
 * \brief Builds the pod of a `fabric: cell` scenario (seed 004 section 10, issue 6; checked by
 * CellScenario) with CellFabricHelper (src/cell-fabric).
 *
 * Every accelerator is a chip with a CellFabricAdapter (the endpoint API: a message becomes RDMA
 * jobs); chip link p goes to cell-switch plane p, so pod.cell.links is also the number of planes
 * (pod.planes is set to it). A plane is one cell switch (single-stage, up to
 * pod.cell.switch-ports chips) or a two-stage folded Clos (see CellFabricHelper).
 */
class CellPodBuilder
{
  public:
    /**
     * \brief Build the pod.
     * \param pod the scenario's pod (checked)
     * \param accNodes receives the chip nodes
     * \param endpoints receives the adapters, by accelerator id
     * \param accDevices receives each chip's link ports, by plane
     * \param transmitters receives every device: "accA->pP.swK" (acc-up), "pP.swK->accA"
     * (down), and on two stages "pP.swK->pP.spineS" (leaf-up) and "pP.spineS->pP.swK"
     * (spine-down)
     * \param switches receives every cell switch, plane-major (per plane: the first-stage
     * switches, then the second-stage ones)
     */
    static void Build(const Scenario::Pod& pod,
                      NodeContainer& accNodes,
                      std::vector<Ptr<FabricEndpoint>>& endpoints,
                      std::vector<std::vector<Ptr<FabricNetDevice>>>& accDevices,
                      std::vector<PodTopology::Transmitter>& transmitters,
                      std::vector<Ptr<FabricSwitch>>& switches);

    /**
     * \brief Add the adapters' own drops (by reason) to a tally.
     * \param endpoints the pod's endpoints (those that are not CellFabricAdapters are skipped)
     * \param[in,out] drops packets dropped by reason
     */
    static void CollectDrops(const std::vector<Ptr<FabricEndpoint>>& endpoints,
                             std::map<std::string, uint64_t>& drops);
};

} // namespace ns3

#endif /* CELL_POD_BUILDER_H */
