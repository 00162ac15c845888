/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "sue-helper.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/integer.h"
#include "ns3/sue-endpoint.h"
#include "ns3/sue-framing.h"
#include "ns3/uinteger.h"

namespace ns3
{

SueHelper::SueHelper()
{
    m_endpoint.SetTypeId("ns3::SueEndpoint");
    m_instance.SetTypeId("ns3::SueInstance");
    m_packer.SetTypeId("ns3::SuePacker");
    m_transport.SetTypeId("ns3::FabricGoBackN");
    // A connection per {port, destination, VC}: see sue.rst, "PSN spaces".
    m_transport.Set("PerClassConnections", BooleanValue(true));
}

void
SueHelper::SetEndpointAttribute(std::string name, const AttributeValue& value)
{
    m_endpoint.Set(name, value);
}

void
SueHelper::SetInstanceAttribute(std::string name, const AttributeValue& value)
{
    m_instance.Set(name, value);
}

void
SueHelper::SetPackerAttribute(std::string name, const AttributeValue& value)
{
    m_limitSet = m_limitSet || name == "PackingLimit";
    m_formatSet = m_formatSet || name == "HeaderFormat";
    m_packer.Set(name, value);
}

void
SueHelper::SetTransportAttribute(std::string name, const AttributeValue& value)
{
    m_transport.Set(name, value);
}

void
SueHelper::SetPortsPerInstance(uint32_t ports)
{
    NS_ABORT_MSG_IF(ports != 1 && ports != 2 && ports != 4,
                    "a SUE instance has 1, 2 or 4 ports (RM102 section 1.1)");
    m_ports = ports;
}

void
SueHelper::SetLite(bool lite)
{
    m_lite = lite;
}

void
SueHelper::SetAckClass(uint32_t vc)
{
    m_ackClass = vc;
}

Ptr<SueEndpoint>
SueHelper::Install(Ptr<Node> node, uint32_t xpuId) const
{
    NS_ABORT_MSG_IF(xpuId >= 1024, "SUE XPU ids are 10 bits (RM102 Table 3): " << xpuId);
    ObjectFactory packer = m_packer;
    packer.Set("Lite", BooleanValue(m_lite));
    if (m_lite && !m_limitSet)
    {
        packer.Set("PackingLimit", UintegerValue(1024)); // SUE Lite spec section 3.4
    }
    if (m_lite && !m_formatSet)
    {
        packer.Set("HeaderFormat", EnumValue(SueFraming::AFH_GEN2_6)); // SUE Lite spec section 3.4
    }
    // A standalone ACK is a PDU without transactions.
    Ptr<SuePacker> probe = packer.Create<SuePacker>();
    ObjectFactory transport = m_transport;
    transport.Set("AckFrameBytes",
                  UintegerValue(SueFraming::FrameBytes(0, probe->GetOverheadBytes())));
    transport.Set("AckClass", IntegerValue(m_ackClass));
    Ptr<SueEndpoint> ep = m_endpoint.Create<SueEndpoint>();
    ep->SetAcceleratorId(xpuId);
    ep->Configure(m_instance, packer, transport, m_lite, m_ports);
    node->AggregateObject(ep);
    return ep;
}

} // namespace ns3
