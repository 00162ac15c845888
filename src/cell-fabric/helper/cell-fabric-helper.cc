/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cell-fabric-helper.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/cell-fabric-cellifier.h"
#include "ns3/data-rate.h"
#include "ns3/enum.h"
#include "ns3/fabric-channel.h"
#include "ns3/fabric-credit-flow-control.h"
#include "ns3/fabric-net-device.h"
#include "ns3/fabric-output-queue.h"
#include "ns3/fabric-routing-table.h"
#include "ns3/fabric-shared-buffer.h"
#include "ns3/fabric-switch.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CellFabricHelper");

namespace
{
/**
 * The credits of a unit on a cell link: its cells. A data unit carries its cell count in the
 * low 32 bits of ctrlValue2 (CellFabricTxPipeline::PageOut); a control cell (request, grant,
 * message) is one cell.
 * \param p the unit
 * \return its cells
 */
uint64_t
CellCredits(const FabricPacket& p)
{
    return p.ctrlClass == CellFabricAdapter::DATA_CELLS ? (p.ctrlValue2 & 0xFFFFFFFFULL) : 1;
}
} // namespace

CellFabricHelper::CellFabricHelper()
{
    m_adapterFactory.SetTypeId("ns3::CellFabricAdapter");
    // 112 Gb/s SerDes (Pyxis spec section 1) at an efficiency that leaves 36 links about 438 GB/s
    // of 176 B cell payload with a 16 B cell header (an assumption; cell-fabric.rst, Validation,
    // V7).
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

void
CellFabricHelper::SetSwitchBufferCells(uint64_t cells)
{
    m_bufferCells = cells;
}

void
CellFabricHelper::SetCredits(bool on)
{
    m_credits = on;
}

void
CellFabricHelper::SetCreditsPerPort(uint32_t credits)
{
    m_creditsPerPort = credits;
}

void
CellFabricHelper::SetCreditBytes(uint32_t bytes)
{
    m_creditBytes = bytes;
}

void
CellFabricHelper::SetCreditLatency(Time latency)
{
    m_creditLatency = latency;
}

uint32_t
CellFabricHelper::GetRoundTripCredits(DataRate rate,
                                      Time linkDelay,
                                      Time switchLatency,
                                      Time creditLatency,
                                      uint32_t smallestCellWireBytes,
                                      uint32_t largestUnitCells)
{
    const double cellTime = smallestCellWireBytes * 8.0 / rate.GetBitRate();
    // Cells of a time at the smallest cell; a tiny tolerance keeps an exact ratio from rounding
    // up on floating-point noise; capped at 2^29 (a buffer check refuses such a fabric first).
    auto cells = [cellTime](Time t) {
        return static_cast<uint64_t>(
            std::min(std::ceil(t.GetSeconds() / cellTime - 1e-9), double(1U << 29)));
    };
    const uint64_t unit = std::min(largestUnitCells, 1U << 29);
    // Into a switch (cut-through: the unit is freed from its head's arrival plus the pipeline)
    // and into an adapter (freed at its tail: the unit's own time adds to the round trip).
    const uint64_t toSwitch = cells(2 * linkDelay + switchLatency + creditLatency) + unit;
    const uint64_t toAdapter = cells(2 * linkDelay + creditLatency) + 2 * unit;
    return static_cast<uint32_t>(std::max(toSwitch, toAdapter));
}

uint32_t
CellFabricHelper::GetLargestUnitCells(uint32_t pageSizeWords, uint32_t links, bool fine)
{
    if (fine)
    {
        return 1;
    }
    const uint32_t cells = CellFabricCellifier::GetCells(
        pageSizeWords * CellFabricCellifier::WORD_BYTES + CellFabricCellifier::PAGE_HEADER_BYTES);
    return (cells + links - 1) / links;
}

uint32_t
CellFabricHelper::GetMostSwitchPorts(uint32_t chips,
                                     uint32_t switchPorts,
                                     uint32_t stages,
                                     uint32_t spines)
{
    if (stages == 1)
    {
        return chips;
    }
    const uint32_t down = switchPorts / 2;
    const uint32_t up = switchPorts - down;
    const uint32_t s = spines ? spines : up;
    const uint32_t leaves = (chips + down - 1) / down;
    return std::max(std::min(chips, down) + up, leaves * (up / std::max(s, 1U)));
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
    // A cell slot (and a credit) holds the largest cell with its header.
    const uint32_t header = adapters[0]->GetCellHeaderBytes();
    const uint32_t largestCell =
        CellFabricCellifier::MAX_CELL_CHUNKS * CellFabricCellifier::CHUNK_BYTES + header;
    const uint32_t slot = m_creditBytes ? m_creditBytes : largestCell;
    NS_ABORT_MSG_IF(slot < largestCell,
                    "CellFabricHelper: a credit of " << slot << " B cannot hold a " << largestCell
                                                     << " B cell with its header");
    if (m_bufferCells)
    {
        m_switches.SetBufferAttribute("Size", UintegerValue(m_bufferCells * slot));
    }
    m_builtSlotBytes = slot;
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
    // Requests, grants and messages are high-priority control cells (an assumption: messages
    // may be given preferential service, Pyxis spec 10.3.1.1-2): class 1 before data (class 0)
    // at every switch port.
    for (const Ptr<FabricSwitch>& sw : m_planes)
    {
        for (uint32_t i = 0; i < sw->GetNPorts(); ++i)
        {
            sw->GetOutputQueue(i)->SetAttribute("ClassScheduling",
                                                EnumValue(FabricOutputQueue::STRICT_PRIORITY));
        }
    }
    m_builtCredits = 0;
    if (m_credits)
    {
        InstallCredits(adapters[0], linksPerChip, slot);
    }
    return adapters;
}

void
CellFabricHelper::InstallCredits(const Ptr<CellFabricAdapter>& adapter,
                                 uint32_t links,
                                 uint32_t slot)
{
    UintegerValue pageWords;
    adapter->GetAttribute("PageSizeWords", pageWords);
    UintegerValue controlBytes;
    adapter->GetAttribute("ControlCellBytes", controlBytes);
    EnumValue granularity;
    adapter->GetAttribute("Granularity", granularity);
    const uint32_t unit =
        GetLargestUnitCells(pageWords.Get(), links, granularity.Get() == CellFabricAdapter::FINE);
    uint32_t credits = m_creditsPerPort;
    if (credits == 0)
    {
        Ptr<FabricNetDevice> port = m_planes.front()->GetPort(0);
        Ptr<FabricChannel> ch = port->GetFabricChannel();
        // The smallest cell on a link: a 96 B data cell or a control cell, with its header.
        const uint32_t smallest = std::min<uint32_t>(CellFabricCellifier::MIN_CELL_CHUNKS *
                                                         CellFabricCellifier::CHUNK_BYTES,
                                                     controlBytes.Get()) +
                                  adapter->GetCellHeaderBytes();
        credits = GetRoundTripCredits(ch->GetDataRate(),
                                      ch->GetOneWayDelay(),
                                      m_planes.front()->GetPipelineLatency(),
                                      m_creditLatency,
                                      smallest,
                                      unit);
    }
    NS_ABORT_MSG_IF(credits < unit,
                    "CellFabricHelper: " << credits << " credits per port are fewer than the "
                                         << unit
                                         << " cells of the largest unit on a link, which "
                                            "could never be sent");
    for (const Ptr<FabricSwitch>& sw : m_planes)
    {
        const uint64_t cells = sw->GetBuffer()->GetSize() / slot;
        const uint64_t need = uint64_t(sw->GetNPorts()) * 2 * credits;
        NS_ABORT_MSG_IF(cells < need,
                        "CellFabricHelper: a cell switch's buffer of "
                            << cells
                            << " cells cannot hold the credits it advertises: " << sw->GetNPorts()
                            << " ports x 2 VCs x " << credits << " = " << need << " cells");
    }
    auto configure = [this, credits, slot](const Ptr<FabricNetDevice>& d) {
        if (d->GetFlowControl())
        {
            return;
        }
        Ptr<FabricCreditFlowControl> fc = CreateObject<FabricCreditFlowControl>();
        fc->SetAttribute("Vcs", UintegerValue(2)); // data (0) and control cells (1)
        fc->SetAttribute("BytesPerCredit", UintegerValue(slot));
        fc->SetAttribute("BufferBytes", UintegerValue(uint64_t(credits) * slot));
        fc->SetAttribute("PoolBytes", UintegerValue(0));
        fc->SetAttribute("CreditBatch", UintegerValue(1)); // a credit per cell header
        fc->SetAttribute("CreditLatency", TimeValue(m_creditLatency));
        fc->SetAttribute("InBandCredits", BooleanValue(true));
        fc->SetUnitCredits(MakeCallback(&CellCredits));
        d->SetFlowControl(fc);
    };
    for (const Ptr<FabricSwitch>& sw : m_planes)
    {
        for (uint32_t i = 0; i < sw->GetNPorts(); ++i)
        {
            Ptr<FabricNetDevice> d = sw->GetPort(i);
            configure(d);
            configure(d->GetFabricChannel()->GetPeer(d));
        }
    }
    m_builtCredits = credits;
    NS_LOG_INFO("credits per port and VC " << credits << " (largest unit " << unit << " cells, "
                                           << slot << " B per credit)");
}

} // namespace ns3
