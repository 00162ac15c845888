/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_POD_H
#define FABRIC_POD_H

#include "fabric-endpoint.h"
#include "fabric-net-device.h"
#include "fabric-switch-base.h"
#include "fabric-switch.h"

#include "ns3/node-container.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup fabric
 * \brief A built pod, whatever its fabric: the accelerators' nodes, endpoints and ports, the
 * switches and every link direction, named as the results name them.
 *
 * A FabricKind fills it in FabricKind::Build (with FabricPlaneHelper for switched planes, or with
 * its own builder); the pod module's runner reads it to post workloads, inject faults, watch and
 * check the run and collect the per-link and per-switch results, without knowing the fabric.
 */
struct FabricPod
{
    /// One transmitting device (one direction of one link), for the per-link table.
    struct Transmitter
    {
        Ptr<FabricNetDevice> device; //!< the device
        std::string name;            //!< "<from>-><to>"
        std::string kind; //!< acc-up, down, leaf-up, spine-down, spine-up, core-down, mesh
        uint32_t plane;   //!< plane index
    };

    /// A switch as the runner sees it (a FabricSwitch, or a fabric's own switch on the same
    /// base: its ports, buffer, route table and drops).
    struct SwitchView
    {
        Ptr<FabricSwitchBase> sw; //!< the switch
        std::string name;         //!< "p<plane>.<name>"
        uint32_t plane{0};        //!< its plane
    };

    NodeContainer accNodes;                                    //!< accelerator nodes, by id
    std::vector<Ptr<FabricEndpoint>> endpoints;                //!< per accelerator
    std::vector<std::vector<Ptr<FabricNetDevice>>> accDevices; //!< per accelerator, per plane
    std::vector<Transmitter> transmitters;                     //!< every link direction
    /// the FabricSwitches, plane-major (plane * switchesPerPlane + index)
    std::vector<Ptr<FabricSwitch>> switches;
    std::vector<std::string> switchNames; //!< the name of each of switches
    std::vector<SwitchView> views;        //!< every switch of the pod, FabricSwitch or not
    uint32_t switchesPerPlane{0};         //!< switches per plane
    uint32_t tiers{0}; //!< switch tiers per plane (0: none, a mesh, or a fabric's own planes)
    /// a mesh: meshPeers[i][p] is the accelerator at the other end of i's port p
    std::vector<std::vector<uint32_t>> meshPeers;
};

} // namespace ns3

#endif /* FABRIC_POD_H */
