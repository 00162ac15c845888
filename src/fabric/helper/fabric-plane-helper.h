/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_PLANE_HELPER_H
#define FABRIC_PLANE_HELPER_H

#include "fabric-link-helper.h"
#include "fabric-switch-helper.h"

#include "ns3/fabric-plane-plan.h"
#include "ns3/fabric-pod-config.h"
#include "ns3/fabric-pod.h"

#include <functional>

namespace ns3
{

/**
 * \ingroup fabric
 * \brief Builds a pod of identical switched planes (or a mesh) from a FabricPlanePlan: the
 * accelerators' nodes and endpoints, one FabricSwitch per switch vertex and plane, one link per
 * edge and plane with the pod's link, flow-control and link-level retry settings, and every
 * switch's routes. The fabrics of switched planes (ethernet, sue, rifl) build with it and differ
 * only in their endpoints and in what they set on the switch and link helpers.
 *
 * The objects are made in a fixed order, so that the same scenario and seed give the same run:
 * the accelerator nodes, their endpoints, then plane by plane its switches and its links in edge
 * order (each channel with random streams numbered from 1000 on), then a mesh's links.
 */
class FabricPlaneHelper
{
  public:
    /// Installs the endpoint of an accelerator on its node: (node, accelerator id).
    typedef std::function<Ptr<FabricEndpoint>(Ptr<Node>, uint32_t)> EndpointInstaller;
    /// Gives an accelerator's endpoint its port on the next plane: (accelerator id, device).
    typedef std::function<void(uint32_t, Ptr<FabricNetDevice>)> PortAttacher;

    /**
     * Configure the switch and link helpers from the pod's generic keys (pod.switch, pod.link,
     * pod.nic's frame size, pod.flow-control, pod.llr); change them after this call.
     * \param pod the pod
     */
    explicit FabricPlaneHelper(const FabricPodConfig& pod);

    /**
     * \param install makes an accelerator's endpoint
     * \param attach gives it a port (once per plane, in plane order)
     */
    void SetEndpoints(EndpointInstaller install, PortAttacher attach);

    /// \return the switch helper, configured
    FabricSwitchHelper& GetSwitchHelper();

    /// \return the link helper, configured
    FabricLinkHelper& GetLinkHelper();

    /**
     * Build the pod.
     * \param plan the plane layout and routes
     * \param out the pod (nodes, endpoints, ports, switches, transmitters, views)
     */
    void Install(const FabricPlanePlan& plan, FabricPod& out);

  private:
    /**
     * Turn link-level retry on or off for the next links (pod.llr.mode, on the links pod.llr.links
     * names).
     * \param on retry is wanted on these links
     */
    void SetRetry(bool on);

    /**
     * Build one plane's switches and links.
     * \param plan the plane layout
     * \param plane the plane
     * \param out the pod
     */
    void InstallPlane(const FabricPlanePlan& plan, uint32_t plane, FabricPod& out);

    /**
     * Link the accelerators straight to each other (a mesh).
     * \param out the pod
     */
    void InstallMesh(FabricPod& out);

    const FabricPodConfig& m_pod;  //!< the pod
    FabricSwitchHelper m_switches; //!< switches
    FabricLinkHelper m_links;      //!< links
    EndpointInstaller m_install;   //!< endpoints
    PortAttacher m_attach;         //!< ports
    int64_t m_stream{1000};        //!< next random stream number
};

} // namespace ns3

#endif /* FABRIC_PLANE_HELPER_H */
