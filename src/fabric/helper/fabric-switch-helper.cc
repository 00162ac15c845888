/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-switch-helper.h"

#include "ns3/fabric-shared-buffer.h"
#include "ns3/fabric-switch.h"
#include "ns3/pointer.h"

namespace ns3
{

FabricSwitchHelper::FabricSwitchHelper()
{
    m_switchFactory.SetTypeId("ns3::FabricSwitch");
    m_bufferFactory.SetTypeId("ns3::FabricSharedBuffer");
}

void
FabricSwitchHelper::SetSwitchAttribute(std::string name, const AttributeValue& value)
{
    m_switchFactory.Set(name, value);
}

void
FabricSwitchHelper::SetBufferAttribute(std::string name, const AttributeValue& value)
{
    m_bufferFactory.Set(name, value);
}

Ptr<FabricSwitch>
FabricSwitchHelper::Install(Ptr<Node> node) const
{
    Ptr<FabricSwitch> sw = m_switchFactory.Create<FabricSwitch>();
    sw->SetAttribute("Buffer", PointerValue(m_bufferFactory.Create<FabricSharedBuffer>()));
    node->AggregateObject(sw);
    return sw;
}

} // namespace ns3
