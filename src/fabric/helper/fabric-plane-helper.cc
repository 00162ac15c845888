/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-plane-helper.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/fabric-channel.h"
#include "ns3/fabric-credit-flow-control.h"
#include "ns3/fabric-pfc.h"
#include "ns3/fabric-retry-engine.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricPlaneHelper");

FabricPlaneHelper::FabricPlaneHelper(const FabricPodConfig& pod)
    : m_pod(pod)
{
    m_switches.SetSwitchAttribute(
        "ForwardingMode",
        EnumValue(pod.sw.cutThrough ? FabricSwitch::CUT_THROUGH : FabricSwitch::STORE_AND_FORWARD));
    m_switches.SetSwitchAttribute("PipelineLatency", TimeValue(pod.sw.latency));
    m_switches.SetSwitchAttribute("Classes", UintegerValue(pod.sw.classes));
    m_switches.SetBufferAttribute("Size", UintegerValue(pod.sw.bufferBytes));

    m_links.SetChannelAttribute("DataRate", DataRateValue(pod.link.rate));
    m_links.SetChannelAttribute("CableType",
                                EnumValue(FabricChannel::CableTypeFromName(pod.link.cable)));
    m_links.SetChannelAttribute("CableLength", DoubleValue(pod.link.lengthM));
    m_links.SetChannelAttribute("Delay", TimeValue(pod.link.delay));
    m_links.SetChannelAttribute("FecLatency", TimeValue(pod.link.fecLatency));
    m_links.SetChannelAttribute("CodewordBits", UintegerValue(pod.link.codewordBits));
    m_links.SetChannelAttribute("CodewordErrorRate", DoubleValue(pod.link.codewordErrorRate));
    m_links.SetChannelAttribute("BitErrorRate", DoubleValue(pod.link.ber));
    m_links.SetChannelAttribute(
        "ArrivalOrder",
        EnumValue(pod.canonicalArrivals ? FabricChannel::CANONICAL : FabricChannel::INSERTION));
    m_links.SetDeviceAttribute("InterframeBytes", UintegerValue(pod.link.interframeBytes));
    // The device MTU is the largest frame: PFC's headroom and LLR's timers are derived from it.
    m_links.SetDeviceAttribute(
        "Mtu",
        UintegerValue(std::min<uint64_t>(65535, uint64_t(pod.nic.mtu) + pod.nic.headerBytes)));
    const auto& fc = pod.fc;
    if (fc.kind == "pfc")
    {
        m_links.SetFlowControl("ns3::FabricPfc",
                               "Classes",
                               UintegerValue(pod.sw.classes),
                               "XoffBytes",
                               UintegerValue(fc.xoffBytes),
                               "XonBytes",
                               UintegerValue(fc.xonBytes),
                               "HeadroomBytes",
                               UintegerValue(fc.headroomBytes),
                               "PauseQuanta",
                               UintegerValue(fc.pauseQuanta),
                               "PauseResponseTime",
                               TimeValue(fc.pauseResponse));
    }
    else if (fc.kind == "cbfc")
    {
        m_links.SetFlowControl("ns3::FabricCreditFlowControl",
                               "Vcs",
                               UintegerValue(pod.sw.classes),
                               "BytesPerCredit",
                               UintegerValue(fc.bytesPerCredit),
                               "BufferBytes",
                               UintegerValue(fc.creditBuffer),
                               "PoolBytes",
                               UintegerValue(fc.creditPool),
                               "CreditBatch",
                               UintegerValue(fc.creditBatch),
                               "CreditDelay",
                               TimeValue(fc.creditDelay));
    }
}

void
FabricPlaneHelper::SetEndpoints(EndpointInstaller install, PortAttacher attach)
{
    m_install = install;
    m_attach = attach;
}

FabricSwitchHelper&
FabricPlaneHelper::GetSwitchHelper()
{
    return m_switches;
}

FabricLinkHelper&
FabricPlaneHelper::GetLinkHelper()
{
    return m_links;
}

void
FabricPlaneHelper::SetRetry(bool on)
{
    const auto& llr = m_pod.llr;
    m_links.SetRetryEngine(on && llr.mode != "off",
                           "Mode",
                           EnumValue(llr.mode == "nak-only" ? FabricRetryEngine::NAK_ONLY
                                                            : FabricRetryEngine::ACK_NAK),
                           "Window",
                           UintegerValue(llr.window),
                           "AckInterval",
                           UintegerValue(llr.ackInterval),
                           "NakPause",
                           DoubleValue(llr.nakPause));
}

void
FabricPlaneHelper::Install(const FabricPlanePlan& plan, FabricPod& out)
{
    NS_LOG_FUNCTION(this << plan.accelerators << m_pod.planes);
    NS_ABORT_MSG_IF(!m_install || !m_attach, "FabricPlaneHelper: SetEndpoints first");
    const uint32_t n = plan.accelerators;
    m_links.SetRemoteChannelType(plan.remoteChannelType);
    out.switchesPerPlane = plan.switchesPerPlane;
    out.tiers = plan.tiers;
    for (uint32_t i = 0; i < n; ++i)
    {
        out.accNodes.Add(CreateObject<Node>(plan.accRank.empty() ? 0 : plan.accRank[i]));
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        out.endpoints.push_back(m_install(out.accNodes.Get(i), i));
    }
    out.accDevices.assign(n, {});
    m_stream = 1000;
    for (uint32_t plane = 0; plane < m_pod.planes; ++plane)
    {
        InstallPlane(plan, plane, out);
    }
    if (plan.mesh)
    {
        InstallMesh(out);
    }
}

void
FabricPlaneHelper::InstallPlane(const FabricPlanePlan& plan, uint32_t plane, FabricPod& out)
{
    const std::string prefix = "p" + std::to_string(plane) + ".";
    const uint32_t perPlane = plan.switchesPerPlane;
    const uint32_t first = out.switches.size();
    std::vector<Ptr<Node>> swNodes;
    for (uint32_t k = 0; k < perPlane; ++k)
    {
        Ptr<Node> node = CreateObject<Node>(plan.switchRank ? plan.switchRank(plane, k) : 0);
        swNodes.push_back(node);
        out.switches.push_back(m_switches.Install(node));
        out.switchNames.push_back(prefix + plan.vertices[plan.accelerators + k].name);
    }
    auto isSwitch = [&plan](uint32_t v) { return plan.vertices[v].isSwitch; };
    auto nodeOf = [&](uint32_t v) {
        return isSwitch(v) ? swNodes[plan.vertices[v].index]
                           : out.accNodes.Get(plan.vertices[v].index);
    };
    auto nameOf = [&](uint32_t v) {
        return isSwitch(v) ? prefix + plan.vertices[v].name : plan.vertices[v].name;
    };
    auto kindOf = [&](uint32_t from, uint32_t to) -> std::string {
        if (!isSwitch(from))
        {
            return "acc-up";
        }
        if (!isSwitch(to))
        {
            return "down";
        }
        const std::string& f = plan.vertices[from].name;
        if (f.rfind("leaf", 0) == 0)
        {
            return "leaf-up";
        }
        if (f.rfind("core", 0) == 0)
        {
            return "core-down";
        }
        return plan.vertices[to].name.rfind("core", 0) == 0 ? "spine-up" : "spine-down";
    };
    const auto& llr = m_pod.llr;
    for (const FabricPlanePlan::Edge& e : plan.edges)
    {
        const bool switchLink = isSwitch(e.a) && isSwitch(e.b);
        SetRetry(llr.links == "all" || (llr.links == "switch") == switchLink);
        NetDeviceContainer devs = m_links.Install(nodeOf(e.a), nodeOf(e.b));
        const uint32_t ends[2] = {e.a, e.b};
        const uint32_t ports[2] = {e.portA, e.portB};
        for (uint32_t side = 0; side < 2; ++side)
        {
            Ptr<FabricNetDevice> dev = DynamicCast<FabricNetDevice>(devs.Get(side));
            const uint32_t self = ends[side];
            const uint32_t peer = ends[1 - side];
            if (isSwitch(self))
            {
                Ptr<FabricSwitch> sw = out.switches[first + plan.vertices[self].index];
                const uint32_t port = sw->AddPort(dev);
                NS_ASSERT_MSG(port == ports[side], "port numbering differs from the graph");
            }
            else
            {
                const uint32_t acc = plan.vertices[self].index;
                m_attach(acc, dev);
                out.accDevices[acc].push_back(dev);
            }
            out.transmitters.push_back(FabricPod::Transmitter{dev,
                                                              nameOf(self) + "->" + nameOf(peer),
                                                              kindOf(self, peer),
                                                              plane});
        }
        // Fixed random streams per channel: the same scenario and seed give the same run.
        Ptr<FabricNetDevice> d0 = DynamicCast<FabricNetDevice>(devs.Get(0));
        m_stream += d0->GetFabricChannel()->AssignStreams(m_stream);
    }
    if (m_pod.fc.kind == "pfc")
    {
        for (uint32_t k = 0; k < perPlane; ++k)
        {
            out.switches[first + k]->ShareBufferForPfc(m_pod.fc.losslessClasses);
        }
    }
    using SwitchRoutes = FabricPlanePlan::SwitchRoutes;
    for (uint32_t k = 0; k < perPlane; ++k)
    {
        Ptr<FabricRoutingTable> table = out.switches[first + k]->GetRoutingTable();
        const SwitchRoutes& routes = plan.routes[k];
        // Each group is set once, at its first destination; the others copy that entry.
        std::vector<uint32_t> firstDst(routes.groups.size(), FabricRoutingTable::NO_PORT);
        for (uint32_t d = 0; d < plan.accelerators; ++d)
        {
            const uint32_t e = routes.entry[d];
            if (e & SwitchRoutes::SINGLE)
            {
                table->SetSingleRoute(d, e & ~SwitchRoutes::SINGLE);
            }
            else if (firstDst[e] == FabricRoutingTable::NO_PORT)
            {
                table->SetRoute(d, routes.groups[e]);
                firstDst[e] = d;
            }
            else
            {
                table->CopyRoute(d, firstDst[e]);
            }
        }
        out.views.push_back({out.switches[first + k], out.switchNames[first + k], plane});
    }
}

void
FabricPlaneHelper::InstallMesh(FabricPod& out)
{
    // Mesh deployment (SUE RM102 Figure 2): port p of accelerator i links to accelerator
    // j = (i + o) mod n with o = p mod (n - 1) + 1, at j's port q = (p div (n - 1)) (n - 1) +
    // (n - o - 1), whose own offset n - o leads back to i. Every pair gets planes / (n - 1)
    // links, and each link is made once, from its lower (accelerator, port) end.
    const uint32_t n = m_pod.accelerators;
    const uint32_t planes = m_pod.planes;
    const uint32_t peers = n - 1;
    std::vector<std::vector<Ptr<FabricNetDevice>>> devs(n,
                                                        std::vector<Ptr<FabricNetDevice>>(planes));
    out.meshPeers.assign(n, std::vector<uint32_t>(planes));
    SetRetry(m_pod.llr.links != "switch");
    for (uint32_t i = 0; i < n; ++i)
    {
        for (uint32_t p = 0; p < planes; ++p)
        {
            const uint32_t o = p % peers + 1;
            const uint32_t j = (i + o) % n;
            const uint32_t q = (p / peers) * peers + (n - o - 1);
            out.meshPeers[i][p] = j;
            if (std::make_pair(j, q) < std::make_pair(i, p))
            {
                continue; // made from the other end
            }
            NetDeviceContainer c = m_links.Install(out.accNodes.Get(i), out.accNodes.Get(j));
            devs[i][p] = DynamicCast<FabricNetDevice>(c.Get(0));
            devs[j][q] = DynamicCast<FabricNetDevice>(c.Get(1));
            m_stream += devs[i][p]->GetFabricChannel()->AssignStreams(m_stream);
        }
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        for (uint32_t p = 0; p < planes; ++p)
        {
            Ptr<FabricNetDevice> dev = devs[i][p];
            NS_ASSERT_MSG(dev, "mesh port " << i << "." << p << " has no link");
            m_attach(i, dev);
            out.accDevices[i].push_back(dev);
            out.transmitters.push_back(FabricPod::Transmitter{
                dev,
                "acc" + std::to_string(i) + "->acc" + std::to_string(out.meshPeers[i][p]),
                "mesh",
                p});
        }
    }
}

} // namespace ns3
