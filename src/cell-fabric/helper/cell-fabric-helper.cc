/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cell-fabric-helper.h"

#include "ns3/abort.h"
#include "ns3/data-rate.h"
#include "ns3/enum.h"
#include "ns3/fabric-net-device.h"
#include "ns3/fabric-output-queue.h"
#include "ns3/fabric-routing-table.h"
#include "ns3/fabric-switch.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/uinteger.h"

#include <algorithm>

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

void
CellFabricHelper::SetStages(uint32_t stages)
{
    NS_ABORT_MSG_IF(stages > 2, "CellFabricHelper: 1 or 2 stages, not " << stages);
    m_stages = stages;
}

void
CellFabricHelper::SetSpinesPerPlane(uint32_t spines)
{
    m_spines = spines;
}

Ptr<FabricNetDevice>
CellFabricHelper::GetSwitchPortOf(uint32_t chip, uint32_t plane) const
{
    return m_chipPorts.at(static_cast<std::size_t>(plane) * m_nChips + chip);
}

std::vector<Ptr<CellFabricAdapter>>
CellFabricHelper::Install(NodeContainer chips, uint32_t linksPerChip)
{
    NS_ABORT_MSG_IF(chips.GetN() < 2, "CellFabricHelper: a fabric needs at least 2 chips");
    NS_ABORT_MSG_IF(linksPerChip == 0, "CellFabricHelper: a chip needs at least one link");
    const uint32_t n = chips.GetN();
    const uint32_t stages = m_stages ? m_stages : (n <= m_switchPorts ? 1 : 2);
    const uint32_t down = m_switchPorts / 2;
    const uint32_t up = m_switchPorts - down;
    const uint32_t leaves = stages == 2 ? (n + down - 1) / down : 1;
    const uint32_t spines = m_spines ? m_spines : up;
    NS_ABORT_MSG_IF(stages == 1 && n > m_switchPorts,
                    "CellFabricHelper: " << n << " chips need more ports than a " << m_switchPorts
                                         << "-port cell switch has (a single-stage plane "
                                            "serves at most one chip per port)");
    NS_ABORT_MSG_IF(stages == 2 && (spines == 0 || up % spines != 0),
                    "CellFabricHelper: the " << up << " up ports of a first-stage switch must "
                                             << "spread evenly over " << spines << " spines");
    NS_ABORT_MSG_IF(stages == 2 && leaves * (up / spines) > m_switchPorts,
                    "CellFabricHelper: " << n << " chips need " << leaves
                                         << " first-stage switches per plane, more than a "
                                         << m_switchPorts << "-port second-stage switch reaches");
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
    m_chipPorts.assign(static_cast<std::size_t>(linksPerChip) * n, nullptr);
    m_nChips = n;
    m_builtStages = stages;
    for (uint32_t p = 0; p < linksPerChip; ++p)
    {
        std::vector<Ptr<FabricSwitch>> leafSwitches;
        std::vector<Ptr<Node>> leafNodes;
        for (uint32_t l = 0; l < leaves; ++l)
        {
            Ptr<Node> node = CreateObject<Node>();
            leafNodes.push_back(node);
            leafSwitches.push_back(m_switches.Install(node));
            m_planes.push_back(leafSwitches.back());
        }
        for (uint32_t i = 0; i < n; ++i)
        {
            const uint32_t l = stages == 2 ? i / down : 0;
            NetDeviceContainer d = m_links.Install(chips.Get(i), leafNodes[l]);
            adapters[i]->AddPort(DynamicCast<FabricNetDevice>(d.Get(0)));
            Ptr<FabricNetDevice> swPort = DynamicCast<FabricNetDevice>(d.Get(1));
            const uint32_t port = leafSwitches[l]->AddPort(swPort);
            leafSwitches[l]->GetRoutingTable()->SetRoute(i, {port});
            m_chipPorts[static_cast<std::size_t>(p) * n + i] = swPort;
        }
        if (stages == 1)
        {
            continue;
        }
        // Second stage: every first-stage switch has up / spines links to every spine.
        std::vector<std::vector<uint32_t>> upPorts(leaves);
        for (uint32_t s = 0; s < spines; ++s)
        {
            Ptr<Node> node = CreateObject<Node>();
            Ptr<FabricSwitch> spine = m_switches.Install(node);
            m_planes.push_back(spine);
            for (uint32_t l = 0; l < leaves; ++l)
            {
                std::vector<uint32_t> toLeaf;
                for (uint32_t k = 0; k < up / spines; ++k)
                {
                    NetDeviceContainer d = m_links.Install(leafNodes[l], node);
                    upPorts[l].push_back(
                        leafSwitches[l]->AddPort(DynamicCast<FabricNetDevice>(d.Get(0))));
                    toLeaf.push_back(spine->AddPort(DynamicCast<FabricNetDevice>(d.Get(1))));
                }
                for (uint32_t i = l * down; i < std::min(n, (l + 1) * down); ++i)
                {
                    spine->GetRoutingTable()->SetRoute(i, toLeaf);
                }
            }
        }
        for (uint32_t l = 0; l < leaves; ++l)
        {
            for (uint32_t i = 0; i < n; ++i)
            {
                if (i / down != l)
                {
                    leafSwitches[l]->GetRoutingTable()->SetRoute(i, upPorts[l]);
                }
            }
        }
    }
    // Requests, grants and messages are high-priority control cells (digest 5.9): class 1
    // before data (class 0) at every switch port.
    for (const Ptr<FabricSwitch>& sw : m_planes)
    {
        for (uint32_t i = 0; i < sw->GetNPorts(); ++i)
        {
            sw->GetOutputQueue(i)->SetAttribute("ClassScheduling",
                                                EnumValue(FabricOutputQueue::STRICT_PRIORITY));
        }
    }
    return adapters;
}

} // namespace ns3
