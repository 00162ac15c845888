/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cell-fabric-helper.h"

#include "ns3/abort.h"
#include "ns3/data-rate.h"
#include "ns3/fabric-net-device.h"
#include "ns3/fabric-routing-table.h"
#include "ns3/fabric-switch.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/uinteger.h"

namespace ns3
{

CellFabricHelper::CellFabricHelper()
{
    m_adapterFactory.SetTypeId("ns3::CellFabricAdapter");
    // 112 Gb/s SerDes (seed 004 1) at an efficiency that leaves 36 links about 438 GB/s of
    // 176 B cell payload with a 16 B cell header (digest 5.9, an assumption).
    m_links.SetChannelAttribute("DataRate", DataRateValue(DataRate("106.25Gbps")));
    m_links.SetChannelAttribute("Delay", TimeValue(NanoSeconds(50)));
    m_links.SetDeviceAttribute("InterframeBytes", UintegerValue(0));
    m_switches.SetSwitchAttribute("PipelineLatency", TimeValue(NanoSeconds(400)));
}

void
CellFabricHelper::SetAdapterAttribute(std::string name, const AttributeValue& value)
{
    m_adapterFactory.Set(name, value);
}

void
CellFabricHelper::SetChannelAttribute(std::string name, const AttributeValue& value)
{
    m_links.SetChannelAttribute(name, value);
}

void
CellFabricHelper::SetSwitchAttribute(std::string name, const AttributeValue& value)
{
    m_switches.SetSwitchAttribute(name, value);
}

void
CellFabricHelper::SetBufferAttribute(std::string name, const AttributeValue& value)
{
    m_switches.SetBufferAttribute(name, value);
}

void
CellFabricHelper::SetSwitchPorts(uint32_t ports)
{
    m_switchPorts = ports;
}

std::vector<Ptr<CellFabricAdapter>>
CellFabricHelper::Install(NodeContainer chips, uint32_t linksPerChip)
{
    NS_ABORT_MSG_IF(chips.GetN() < 2, "CellFabricHelper: a fabric needs at least 2 chips");
    NS_ABORT_MSG_IF(linksPerChip == 0, "CellFabricHelper: a chip needs at least one link");
    NS_ABORT_MSG_IF(chips.GetN() > m_switchPorts,
                    "CellFabricHelper: " << chips.GetN() << " chips need more ports than a "
                                         << m_switchPorts
                                         << "-port cell switch has (a single-stage plane "
                                            "serves at most one chip per port)");
    auto peers = std::make_shared<std::vector<CellFabricAdapter*>>(chips.GetN(), nullptr);
    std::vector<Ptr<CellFabricAdapter>> adapters;
    for (uint32_t i = 0; i < chips.GetN(); ++i)
    {
        Ptr<CellFabricAdapter> a = m_adapterFactory.Create<CellFabricAdapter>();
        a->SetAcceleratorId(i);
        a->SetPeers(peers);
        chips.Get(i)->AggregateObject(a);
        (*peers)[i] = PeekPointer(a);
        adapters.push_back(a);
    }
    m_planes.clear();
    for (uint32_t p = 0; p < linksPerChip; ++p)
    {
        Ptr<Node> node = CreateObject<Node>();
        Ptr<FabricSwitch> sw = m_switches.Install(node);
        for (uint32_t i = 0; i < chips.GetN(); ++i)
        {
            NetDeviceContainer d = m_links.Install(chips.Get(i), node);
            adapters[i]->AddPort(DynamicCast<FabricNetDevice>(d.Get(0)));
            const uint32_t port = sw->AddPort(DynamicCast<FabricNetDevice>(d.Get(1)));
            sw->GetRoutingTable()->SetRoute(i, {port});
        }
        m_planes.push_back(sw);
    }
    return adapters;
}

} // namespace ns3
