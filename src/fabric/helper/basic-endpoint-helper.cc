/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "basic-endpoint-helper.h"

#include "ns3/basic-endpoint.h"

namespace ns3
{

BasicEndpointHelper::BasicEndpointHelper()
{
    m_factory.SetTypeId("ns3::BasicEndpoint");
}

void
BasicEndpointHelper::SetEndpointAttribute(std::string name, const AttributeValue& value)
{
    m_factory.Set(name, value);
}

Ptr<BasicEndpoint>
BasicEndpointHelper::Install(Ptr<Node> node, uint32_t acceleratorId) const
{
    Ptr<BasicEndpoint> ep = m_factory.Create<BasicEndpoint>();
    ep->SetAcceleratorId(acceleratorId);
    if (m_transport)
    {
        ep->SetTransport(m_transportFactory);
    }
    node->AggregateObject(ep);
    return ep;
}

} // namespace ns3
