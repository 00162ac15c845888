/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ualink-link-helper.h"

#include "ns3/data-rate.h"
#include "ns3/fabric-channel.h"
#include "ns3/fabric-net-device.h"
#include "ns3/fabric-retry-engine.h"
#include "ns3/nstime.h"
#include "ns3/uinteger.h"

namespace ns3
{

UalinkLinkHelper::UalinkLinkHelper()
{
    m_phyFactory.SetTypeId("ns3::UalinkPhy");
    m_dlFactory.SetTypeId("ns3::UalinkDl");
    m_link.SetDeviceAttribute("InterframeBytes", UintegerValue(0)); // back to back (7.3.6)
    m_link.SetRetryEngine(true);
}

void
UalinkLinkHelper::SetPhyAttribute(std::string name, const AttributeValue& value)
{
    m_phyFactory.Set(name, value);
}

void
UalinkLinkHelper::SetDlAttribute(std::string name, const AttributeValue& value)
{
    m_dlFactory.Set(name, value);
}

void
UalinkLinkHelper::SetChannelAttribute(std::string name, const AttributeValue& value)
{
    m_link.SetChannelAttribute(name, value);
}

Ptr<UalinkPhy>
UalinkLinkHelper::CreatePhy() const
{
    Ptr<UalinkPhy> phy = m_phyFactory.Create<UalinkPhy>();
    phy->Initialize();
    return phy;
}

NetDeviceContainer
UalinkLinkHelper::Install(Ptr<Node> a, Ptr<Node> b) const
{
    Ptr<UalinkPhy> phy = CreatePhy();
    NetDeviceContainer d = m_link.Install(a, b);
    Ptr<FabricNetDevice> da = DynamicCast<FabricNetDevice>(d.Get(0));
    Ptr<FabricNetDevice> db = DynamicCast<FabricNetDevice>(d.Get(1));
    Ptr<FabricChannel> ch = da->GetFabricChannel();
    // The wire: one 680 B codeword per slot at lanes x lane rate.
    ch->SetDataRate(
        DataRate(static_cast<uint64_t>(phy->GetLanes()) * phy->GetLaneRate().GetBitRate()));
    ch->SetAttribute("FecLatency", TimeValue(phy->GetFecReceiveLatency()));
    ch->SetAttribute("CodewordBits", UintegerValue(UalinkPhy::CODEWORD_BITS));
    for (Ptr<FabricNetDevice> dev : {da, db})
    {
        // One DL per port: its replay settings and its link state machine (6.6, 6.7.1).
        Ptr<UalinkDl> dl = m_dlFactory.Create<UalinkDl>();
        dl->Configure(dev->GetRetryEngine(), phy);
        dev->AggregateObject(dl);
        dl->Attach(dev, phy);
    }
    return d;
}

} // namespace ns3
