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
#include "ns3/nstime.h"

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

void
FabricLinkHelper::SetRemoteChannelType(std::string type)
{
    m_remoteChannelType = type;
}

NetDeviceContainer
FabricLinkHelper::Install(Ptr<Node> a, Ptr<Node> b) const
{
    Ptr<FabricChannel> channel;
    if (!m_remoteChannelType.empty() && a->GetSystemId() != b->GetSystemId())
    {
        ObjectFactory remote = m_channelFactory;
        remote.SetTypeId(m_remoteChannelType);
        channel = remote.Create<FabricChannel>();
        // The lookahead of ns-3's distributed simulator is the smallest Delay attribute of the
        // remote channels (DistributedSimulatorImpl::CalculateLookAhead).
        channel->SetAttribute("Delay", TimeValue(channel->GetPropagationDelay()));
    }
    else
    {
        channel = m_channelFactory.Create<FabricChannel>();
    }
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
