/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rifl-cell-switch-helper.h"

#include "ns3/pointer.h"
#include "ns3/simulator.h"

namespace ns3
{

RiflCellSwitchHelper::RiflCellSwitchHelper()
{
    m_switch.SetTypeId("ns3::RiflCellSwitch");
    m_traffic.SetTypeId("ns3::RiflTrafficGenerator");
    m_arbiter.SetTypeId("ns3::FabricIslipScheduler");
}

void
RiflCellSwitchHelper::SetSwitchAttribute(const std::string& name, const AttributeValue& value)
{
    m_switch.Set(name, value);
}

void
RiflCellSwitchHelper::SetTrafficAttribute(const std::string& name, const AttributeValue& value)
{
    m_traffic.Set(name, value);
}

void
RiflCellSwitchHelper::SetArbiterAttribute(const std::string& name, const AttributeValue& value)
{
    m_arbiter.Set(name, value);
}

Ptr<RiflCellSwitch>
RiflCellSwitchHelper::Install(int64_t stream) const
{
    Ptr<RiflCellSwitch> sw = m_switch.Create<RiflCellSwitch>();
    sw->SetAttribute("Arbiter", PointerValue(m_arbiter.Create<FabricIslipScheduler>()));
    Ptr<RiflTrafficGenerator> gen = m_traffic.Create<RiflTrafficGenerator>();
    gen->AssignStreams(stream);
    sw->SetTrafficGenerator(gen);
    sw->Start();
    return sw;
}

Ptr<RiflCellSwitch>
RiflCellSwitchHelper::Run(int64_t stream) const
{
    Ptr<RiflCellSwitch> sw = Install(stream);
    Simulator::Run();
    return sw;
}

} // namespace ns3
