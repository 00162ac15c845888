/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ethernet-fabric-kind.h"

#include "fabric-plane-helper.h"

#include "ns3/abort.h"
#include "ns3/basic-endpoint.h"
#include "ns3/enum.h"
#include "ns3/fabric-channel.h"
#include "ns3/fabric-go-back-n.h"
#include "ns3/fabric-plane-plan.h"
#include "ns3/fabric-pod.h"
#include "ns3/uinteger.h"

namespace ns3
{

std::string
EthernetFabricKind::GetName() const
{
    return "ethernet";
}

std::string
EthernetFabricKind::GetSummary() const
{
    return "ethernet (the plain Ethernet-like NIC)";
}

std::string
EthernetFabricKind::GetDoc() const
{
    return "src/fabric/doc/fabric.rst";
}

BasicEndpointHelper
EthernetFabricKind::MakeEndpointHelper(const FabricPodConfig& pod)
{
    BasicEndpointHelper eh;
    eh.SetEndpointAttribute("Mtu", UintegerValue(pod.nic.mtu));
    eh.SetEndpointAttribute("HeaderBytes", UintegerValue(pod.nic.headerBytes));
    const std::string& sel = pod.nic.planeSelection;
    eh.SetEndpointAttribute("PlaneSelection",
                            EnumValue(sel == "hash"    ? BasicEndpoint::HASH
                                      : sel == "spray" ? BasicEndpoint::SPRAY
                                                       : BasicEndpoint::ROUND_ROBIN));
    const auto& tr = pod.transport;
    if (tr.kind == "go-back-n")
    {
        eh.SetTransport("ns3::FabricGoBackN",
                        "Window",
                        UintegerValue(tr.window),
                        "AckInterval",
                        UintegerValue(tr.ackInterval),
                        "AckDelay",
                        TimeValue(tr.ackDelay),
                        "RetransmitTimeout",
                        TimeValue(tr.timeout));
    }
    return eh;
}

std::vector<Ptr<BasicEndpoint>>
EthernetFabricKind::BuildPlanes(const FabricPodConfig& pod,
                                const FabricPlanePlan& plan,
                                const BasicEndpointHelper& eh,
                                FabricPod& out)
{
    std::vector<Ptr<BasicEndpoint>> basic;
    FabricPlaneHelper h(pod);
    h.SetEndpoints(
        [&eh, &basic](Ptr<Node> node, uint32_t id) {
            Ptr<BasicEndpoint> e = eh.Install(node, id);
            basic.push_back(e);
            return Ptr<FabricEndpoint>(e);
        },
        [&basic](uint32_t acc, Ptr<FabricNetDevice> dev) { basic[acc]->AddDevice(dev); });
    h.Install(plan, out);
    return basic;
}

void
EthernetFabricKind::Build(const FabricPodConfig& pod,
                          const FabricPlanePlan* plan,
                          FabricPod& out) const
{
    NS_ABORT_MSG_IF(plan == nullptr, "EthernetFabricKind::Build: no plane plan");
    BuildPlanes(pod, *plan, MakeEndpointHelper(pod), out);
}

void
EthernetFabricKind::SetLinkUp(const FabricPod& pod,
                              const FabricPodConfig& /* config */,
                              uint32_t acc,
                              uint32_t plane,
                              bool up) const
{
    Ptr<BasicEndpoint> e = DynamicCast<BasicEndpoint>(pod.endpoints.at(acc));
    if (e && !up)
    {
        e->SetPortUp(plane, false); // the NIC stops feeding the port first
    }
    pod.accDevices.at(acc).at(plane)->GetFabricChannel()->SetLinkUp(up);
    if (e && up)
    {
        e->SetPortUp(plane, true);
    }
}

std::vector<Ptr<FabricGoBackN>>
EthernetFabricKind::GetTransports(Ptr<FabricEndpoint> ep) const
{
    std::vector<Ptr<FabricGoBackN>> transports;
    if (Ptr<BasicEndpoint> be = DynamicCast<BasicEndpoint>(ep))
    {
        for (uint32_t d = 0; d < be->GetNDevices() && be->GetTransport(d); ++d)
        {
            transports.push_back(be->GetTransport(d));
        }
    }
    return transports;
}

} // namespace ns3
