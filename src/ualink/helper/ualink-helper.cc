/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ualink-helper.h"

#include "ns3/abort.h"
#include "ns3/data-rate.h"
#include "ns3/enum.h"
#include "ns3/fabric-channel.h"
#include "ns3/fabric-net-device.h"
#include "ns3/fabric-retry-engine.h"
#include "ns3/ualink-dl.h"
#include "ns3/uinteger.h"

#include <cmath>

namespace ns3
{

UalinkHelper::UalinkHelper()
{
    m_phy.SetTypeId("ns3::UalinkPhy");
    m_endpoint.SetTypeId("ns3::UalinkEndpoint");
    m_upli.SetTypeId("ns3::UalinkUpli");
    m_switch.SetTypeId("ns3::UalinkSwitch");
    m_dl.SetTypeId("ns3::UalinkDl");
    m_link.SetDeviceAttribute("InterframeBytes", UintegerValue(0)); // back to back (7.3.6)
}

void
UalinkHelper::SetPhyAttribute(std::string name, const AttributeValue& value)
{
    m_phy.Set(name, value);
}

void
UalinkHelper::SetChannelAttribute(std::string name, const AttributeValue& value)
{
    m_link.SetChannelAttribute(name, value);
}

void
UalinkHelper::SetEndpointAttribute(std::string name, const AttributeValue& value)
{
    m_endpoint.Set(name, value);
}

void
UalinkHelper::SetUpliAttribute(std::string name, const AttributeValue& value)
{
    m_upli.Set(name, value);
}

void
UalinkHelper::SetSwitchAttribute(std::string name, const AttributeValue& value)
{
    m_switch.Set(name, value);
}

void
UalinkHelper::SetTxQueueAttribute(std::string name, const AttributeValue& value)
{
    m_queueAttrs.emplace_back(name, value.Copy());
}

void
UalinkHelper::SetPackerAttribute(std::string name, const AttributeValue& value)
{
    m_packerAttrs.emplace_back(name, value.Copy());
}

void
UalinkHelper::SetDlAttribute(std::string name, const AttributeValue& value)
{
    m_dl.Set(name, value);
}

Ptr<UalinkPhy>
UalinkHelper::CreatePhy() const
{
    Ptr<UalinkPhy> phy = m_phy.Create<UalinkPhy>();
    phy->Initialize();
    return phy;
}

void
UalinkHelper::Configure(Ptr<UalinkTxQueue> q) const
{
    for (const auto& [name, value] : m_queueAttrs)
    {
        q->SetAttribute(name, *value);
    }
    for (const auto& [name, value] : m_packerAttrs)
    {
        q->GetPacker()->SetAttribute(name, *value);
    }
}

bool
UalinkHelper::IsFineMode() const
{
    bool fine = false;
    for (const auto& [name, value] : m_queueAttrs)
    {
        if (name == "Granularity")
        {
            const EnumValue* e = dynamic_cast<const EnumValue*>(PeekPointer(value));
            fine = e && e->Get() == UalinkTxQueue::DL_FLIT;
        }
    }
    return fine;
}

NetDeviceContainer
UalinkHelper::Link(Ptr<Node> a, Ptr<Node> b) const
{
    Ptr<UalinkPhy> phy = CreatePhy();
    FabricLinkHelper lh = m_link;
    if (m_llr)
    {
        lh.SetRetryEngine(true);
    }
    NetDeviceContainer d = lh.Install(a, b);
    Ptr<FabricNetDevice> da = DynamicCast<FabricNetDevice>(d.Get(0));
    Ptr<FabricChannel> ch = da->GetFabricChannel();
    ch->SetDataRate(
        DataRate(static_cast<uint64_t>(phy->GetLanes()) * phy->GetLaneRate().GetBitRate()));
    ch->SetAttribute("FecLatency", TimeValue(phy->GetFecReceiveLatency()));
    ch->SetAttribute("CodewordBits", UintegerValue(UalinkPhy::CODEWORD_BITS));
    for (uint32_t i = 0; i < 2; ++i)
    {
        // One DL per port: its replay settings and its link state machine (6.6, 6.7.1).
        Ptr<FabricNetDevice> dev = DynamicCast<FabricNetDevice>(d.Get(i));
        Ptr<UalinkDl> dl = m_dl.Create<UalinkDl>();
        if (m_llr)
        {
            // A burst is up to about 2 DL flits (one control half-flit and its data); in the
            // fine mode a unit is one DL flit, replayed as such (6.6).
            dl->Configure(dev->GetRetryEngine(), phy, IsFineMode() ? 1 : 2);
        }
        dev->AggregateObject(dl);
        dl->Attach(dev, phy);
    }
    return d;
}

Ptr<UalinkEndpoint>
UalinkHelper::CreateEndpoint(Ptr<Node> node, uint32_t id) const
{
    Ptr<UalinkEndpoint> e = m_endpoint.Create<UalinkEndpoint>();
    e->SetUpli(m_upli.Create<UalinkUpli>());
    e->SetAcceleratorId(id);
    node->AggregateObject(e);
    return e;
}

UalinkHelper::Pod
UalinkHelper::Install(uint32_t accelerators, uint32_t ports) const
{
    NS_ABORT_MSG_IF(accelerators == 0 || accelerators > 1024,
                    "UalinkHelper: a pod has 1 to 1024 accelerators (section 1.1), not "
                        << accelerators);
    NS_ABORT_MSG_IF(ports == 0, "UalinkHelper: an accelerator has at least one port");
    Pod pod;
    pod.acceleratorNodes.Create(accelerators);
    pod.switchNodes.Create(ports);
    Ptr<UalinkPhy> phy = CreatePhy();
    for (uint32_t a = 0; a < accelerators; ++a)
    {
        pod.acc.push_back(CreateEndpoint(pod.acceleratorNodes.Get(a), a));
    }
    for (uint32_t r = 0; r < ports; ++r)
    {
        Ptr<UalinkSwitch> sw = m_switch.Create<UalinkSwitch>();
        pod.switchNodes.Get(r)->AggregateObject(sw);
        pod.sw.push_back(sw);
        for (uint32_t a = 0; a < accelerators; ++a)
        {
            // Accelerator port r to switch r; switch port a to accelerator a (rails, 2.4).
            NetDeviceContainer d = Link(pod.acceleratorNodes.Get(a), pod.switchNodes.Get(r));
            Ptr<FabricNetDevice> up = DynamicCast<FabricNetDevice>(d.Get(0));
            Ptr<FabricNetDevice> down = DynamicCast<FabricNetDevice>(d.Get(1));
            pod.acc[a]->AddPort(up, phy);
            Configure(pod.acc[a]->GetTxQueue(r));
            const uint32_t port = sw->AddPort(down, phy);
            Configure(sw->GetTxQueue(port));
            sw->SetRoute(a, port);
            pod.links.push_back(up->GetFabricChannel());
        }
    }
    return pod;
}

void
UalinkHelper::SetVirtualPods(const Pod& pod, const std::vector<std::vector<uint32_t>>& vpods)
{
    const uint32_t n = static_cast<uint32_t>(pod.acc.size());
    // The virtual pod of each accelerator (-1: none, excluded from routing).
    std::vector<int32_t> member(n, -1);
    for (std::size_t v = 0; v < vpods.size(); ++v)
    {
        for (uint32_t a : vpods[v])
        {
            NS_ABORT_MSG_IF(a >= n,
                            "UalinkHelper: accelerator " << a << " of virtual pod " << v
                                                         << " is not in a pod of " << n);
            NS_ABORT_MSG_IF(member[a] >= 0,
                            "UalinkHelper: accelerator "
                                << a << " is in virtual pods " << member[a] << " and " << v
                                << ": an accelerator belongs to at most one (section 8.4)");
            member[a] = static_cast<int32_t>(v);
        }
    }
    for (const Ptr<UalinkSwitch>& sw : pod.sw)
    {
        // Switch port a faces accelerator a (Install): station a / k, port a % k.
        const uint32_t k = sw->GetPortsPerStation();
        for (uint32_t st = 0; st < sw->GetNStations(); ++st)
        {
            UalinkRouteTable& t = sw->GetRouteTable(st);
            for (uint32_t d = 0; d < n && d < t.GetEntries(); ++d)
            {
                for (uint32_t j = 0; j < k; ++j)
                {
                    const uint32_t i = st * k + j;
                    const bool same = i < n && member[i] >= 0 && member[i] == member[d];
                    t.SetDenied(d, j, !same);
                }
            }
        }
    }
}

void
UalinkHelper::DenyRoute(const Pod& pod, uint32_t src, uint32_t dst, bool deny)
{
    NS_ABORT_MSG_IF(src >= pod.acc.size(), "UalinkHelper: no accelerator " << src);
    for (const Ptr<UalinkSwitch>& sw : pod.sw)
    {
        sw->SetDenied(src, dst, deny); // switch port src faces accelerator src
    }
}

void
UalinkHelper::ConnectDirect(Ptr<UalinkEndpoint> a, Ptr<UalinkEndpoint> b) const
{
    Ptr<UalinkPhy> phy = CreatePhy();
    Ptr<Node> na = a->GetObject<Node>();
    Ptr<Node> nb = b->GetObject<Node>();
    NS_ABORT_MSG_IF(!na || !nb, "UalinkHelper: endpoints must be aggregated to nodes");
    NetDeviceContainer d = Link(na, nb);
    const uint32_t pa = a->AddPort(DynamicCast<FabricNetDevice>(d.Get(0)), phy);
    const uint32_t pb = b->AddPort(DynamicCast<FabricNetDevice>(d.Get(1)), phy);
    Configure(a->GetTxQueue(pa));
    Configure(b->GetTxQueue(pb));
}

} // namespace ns3
