/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ETHERNET_FABRIC_KIND_H
#define ETHERNET_FABRIC_KIND_H

#include "basic-endpoint-helper.h"

#include "ns3/fabric-kind.h"

namespace ns3
{

class BasicEndpoint;

/**
 * \ingroup fabric
 * \brief `pod.fabric: ethernet`: the plain Ethernet-like NIC (BasicEndpoint) on switched planes
 * (FabricPlaneHelper), with the pod's NIC keys (pod.nic: MTU, header bytes, plane selection) and
 * optionally the go-back-N transport (pod.transport).
 *
 * The RIFL fabric builds its NICs with the same endpoint; MakeEndpointHelper() and
 * BuildPlanes() serve it too.
 */
class EthernetFabricKind : public FabricKind
{
  public:
    std::string GetName() const override;
    std::string GetSummary() const override;
    std::string GetDoc() const override;
    void Build(const FabricPodConfig& pod,
               const FabricPlanePlan* plan,
               FabricPod& out) const override;
    void SetLinkUp(const FabricPod& pod,
                   const FabricPodConfig& config,
                   uint32_t acc,
                   uint32_t plane,
                   bool up) const override;
    std::vector<Ptr<FabricGoBackN>> GetTransports(Ptr<FabricEndpoint> ep) const override;

    /**
     * \param pod the pod
     * \return an endpoint helper with the pod's NIC keys (pod.nic) and transport (pod.transport)
     */
    static BasicEndpointHelper MakeEndpointHelper(const FabricPodConfig& pod);

    /**
     * Build switched planes of BasicEndpoints.
     * \param pod the pod
     * \param plan the plane layout and routes
     * \param eh the endpoint helper
     * \param out the built pod
     * \return the endpoints, by accelerator
     */
    static std::vector<Ptr<BasicEndpoint>> BuildPlanes(const FabricPodConfig& pod,
                                                       const FabricPlanePlan& plan,
                                                       const BasicEndpointHelper& eh,
                                                       FabricPod& out);
};

} // namespace ns3

#endif /* ETHERNET_FABRIC_KIND_H */
