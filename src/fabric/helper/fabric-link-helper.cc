/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-link-helper.h"

#include "ns3/fabric-channel.h"
#include "ns3/fabric-flow-control.h"
#include "ns3/fabric-net-device.h"
#include "ns3/fabric-retry-engine.h"
#include "ns3/mac48-address.h"

namespace ns3
{

FabricLinkHelper::FabricLinkHelper()
{
    m_deviceFactory.SetTypeId("ns3::FabricNetDevice");
    m_channelFactory.SetTypeId("ns3::FabricChannel");
}

void
FabricLinkHelper::SetDeviceAttribute(std::string name, const AttributeValue& value)
{
    m_deviceFactory.Set(name, value);
}

void
FabricLinkHelper::SetChannelAttribute(std::string name, const AttributeValue& value)
{
    m_channelFactory.Set(name, value);
}

NetDeviceContainer
FabricLinkHelper::Install(Ptr<Node> a, Ptr<Node> b) const
{
    Ptr<FabricChannel> channel = m_channelFactory.Create<FabricChannel>();
    NetDeviceContainer devices;
    for (Ptr<Node> n : {a, b})
    {
        Ptr<FabricNetDevice> d = m_deviceFactory.Create<FabricNetDevice>();
        d->SetAddress(Mac48Address::Allocate());
        n->AddDevice(d);
        d->Attach(channel);
        if (m_fc)
        {
            d->SetFlowControl(m_fcFactory.Create<FabricFlowControl>());
        }
        if (m_llr)
        {
            d->SetRetryEngine(m_llrFactory.Create<FabricRetryEngine>());
        }
        devices.Add(d);
    }
    return devices;
}

} // namespace ns3
