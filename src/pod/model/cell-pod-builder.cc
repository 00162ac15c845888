/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "cell-pod-builder.h"

#include "cell-scenario.h"

#include "ns3/cell-fabric-adapter.h"
#include "ns3/cell-fabric-cellifier.h"
#include "ns3/cell-fabric-helper.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/fabric-channel.h"
#include "ns3/fabric-switch.h"
#include "ns3/log.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CellPodBuilder");

void
CellPodBuilder::Build(const Scenario::Pod& pod,
                      NodeContainer& accNodes,
                      std::vector<Ptr<FabricEndpoint>>& endpoints,
                      std::vector<std::vector<Ptr<FabricNetDevice>>>& accDevices,
                      std::vector<PodTopology::Transmitter>& transmitters,
                      std::vector<Ptr<FabricSwitch>>& switches)
{
    NS_LOG_FUNCTION(pod.accelerators << pod.cell.links);
    const Scenario::Cell& c = pod.cell;
    CellFabricHelper h;
    h.SetAdapterAttribute("Clusters", UintegerValue(c.clusters));
    h.SetAdapterAttribute("DestinationClusters", UintegerValue(c.destinationClusters));
    h.SetAdapterAttribute("ClockGhz", DoubleValue(c.clockGhz));
    h.SetAdapterAttribute("PageSizeWords", UintegerValue(c.pageSizeWords));
    h.SetAdapterAttribute("FoPipes", UintegerValue(c.foPipes));
    h.SetAdapterAttribute("FoBytesPerCycle", UintegerValue(c.foBytesPerCycle));
    h.SetAdapterAttribute("RxDmaBytesPerCycle", UintegerValue(c.rxDmaBytesPerCycle));
    h.SetAdapterAttribute("RxCbufCells", UintegerValue(c.rxCbufCells));
    h.SetAdapterAttribute("CellHeaderBytes", UintegerValue(c.cellHeaderBytes));
    h.SetAdapterAttribute("ControlCellBytes", UintegerValue(c.controlCellBytes));
    h.SetAdapterAttribute("MaxOutstandingPages", UintegerValue(c.maxOutstandingPages));
    h.SetAdapterAttribute("MaxOutstandingGrants", UintegerValue(c.maxOutstandingGrants));
    h.SetAdapterAttribute("TxLatency", TimeValue(c.txLatency));
    h.SetAdapterAttribute("RxLatency", TimeValue(c.rxLatency));
    h.SetAdapterAttribute("GrantPolicy",
                          EnumValue(c.grantPolicy == "fifo" ? CellFabricAdapter::FIFO
                                    : c.grantPolicy == "fifo-round-robin"
                                        ? CellFabricAdapter::FIFO_ROUND_ROBIN
                                        : CellFabricAdapter::PACED_ROUND_ROBIN));
    h.SetAdapterAttribute("TxCtsTimeout", TimeValue(c.txCtsTimeout));
    h.SetAdapterAttribute("TxActiveTimeout", TimeValue(c.txActiveTimeout));
    h.SetAdapterAttribute("TxAckTimeout", TimeValue(c.txAckTimeout));
    std::string profiles;
    for (const auto& [xoff, xon] : c.occupancyProfiles)
    {
        profiles +=
            (profiles.empty() ? "" : ",") + std::to_string(xoff) + ":" + std::to_string(xon);
    }
    h.SetAdapterAttribute("OccupancyProfiles", StringValue(profiles));
    h.SetAdapterAttribute("DefaultOccupancyProfile", UintegerValue(c.occupancyProfile));
    h.SetAdapterAttribute("QPages", UintegerValue(c.qpages));
    h.SetAdapterAttribute("TxBufBytes", UintegerValue(c.txBufBytes));
    h.SetAdapterAttribute("RxDataTimeout", TimeValue(c.rxDataTimeout));
    h.SetAdapterAttribute("RxCompletionTimeout", TimeValue(c.rxCompletionTimeout));
    h.SetAdapterAttribute(
        "Granularity",
        EnumValue(c.granularity == "fine" ? CellFabricAdapter::FINE : CellFabricAdapter::COARSE));
    h.SetAdapterAttribute("EndpointTransport",
                          EnumValue(c.transport == "datagram"
                                        ? CellFabricAdapter::TRANSPORT_DATAGRAM
                                        : CellFabricAdapter::TRANSPORT_RDMA));
    h.SetAdapterAttribute("DatagramRxRingSize", UintegerValue(c.datagramRxRingSize));
    h.SetAdapterAttribute("DatagramRxBufferBytes", UintegerValue(c.datagramRxBufferBytes));
    h.SetAdapterAttribute("DatagramRxRepostTime", TimeValue(c.datagramRxRepostTime));
    h.SetAdapterAttribute("DatagramTxRingSize", UintegerValue(c.datagramTxRingSize));
    h.SetAdapterAttribute("RxDmaTrackingIds", UintegerValue(c.rxDmaTrackingIds));
    h.SetAdapterAttribute("RxDmaCommitCycles", UintegerValue(c.rxDmaCommitCycles));
    h.SetChannelAttribute("DataRate", DataRateValue(c.linkRate));
    h.SetChannelAttribute("Delay", TimeValue(c.linkDelay));
    h.SetSwitchAttribute("PipelineLatency", TimeValue(c.switchLatency));
    h.SetSwitchPorts(c.switchPorts);
    h.SetStages(CellScenario::GetStages(pod));
    h.SetSpinesPerPlane(c.spines);
    h.SetSwitchBufferCells(c.switchBufferCells);
    h.SetCredits(c.switchCredits);
    h.SetCreditsPerPort(c.creditsPerPort);
    h.SetCreditBytes(c.creditBytes);
    h.SetCreditLatency(c.creditLatency);

    accNodes = NodeContainer();
    accNodes.Create(pod.accelerators);
    std::vector<Ptr<CellFabricAdapter>> adapters = h.Install(accNodes, c.links);
    endpoints.assign(adapters.begin(), adapters.end());

    // Names: chips by node, switches in the order the helper built them (per plane: the
    // first-stage switches, then the second-stage ones).
    std::map<uint32_t, std::string> nodeName;
    for (uint32_t a = 0; a < pod.accelerators; ++a)
    {
        nodeName[accNodes.Get(a)->GetId()] = "acc" + std::to_string(a);
    }
    const auto& planes = h.GetPlanes();
    switches = planes;
    const uint32_t perPlane = planes.size() / c.links;
    accDevices.assign(pod.accelerators, {});
    std::map<uint32_t, bool> isLeaf; // switch node id -> has chip ports
    for (uint32_t p = 0; p < c.links; ++p)
    {
        for (uint32_t a = 0; a < pod.accelerators; ++a)
        {
            Ptr<FabricNetDevice> sw = h.GetSwitchPortOf(a, p);
            accDevices[a].push_back(sw->GetFabricChannel()->GetPeer(sw));
            isLeaf[sw->GetNode()->GetId()] = true;
        }
    }
    std::map<uint32_t, uint32_t> switchPlane;
    uint32_t leafIndex = 0;
    uint32_t spineIndex = 0;
    for (uint32_t k = 0; k < planes.size(); ++k)
    {
        const uint32_t p = k / perPlane;
        if (k % perPlane == 0)
        {
            leafIndex = 0;
            spineIndex = 0;
        }
        const uint32_t id = planes[k]->GetPort(0)->GetNode()->GetId();
        const bool leaf = isLeaf.count(id) != 0;
        isLeaf[id] = leaf;
        nodeName[id] =
            "p" + std::to_string(p) +
            (leaf ? ".sw" + std::to_string(leafIndex++) : ".spine" + std::to_string(spineIndex++));
        switchPlane[id] = p;
    }
    for (uint32_t p = 0; p < c.links; ++p)
    {
        for (uint32_t a = 0; a < pod.accelerators; ++a)
        {
            Ptr<FabricNetDevice> acc = accDevices[a][p];
            Ptr<FabricNetDevice> sw = h.GetSwitchPortOf(a, p);
            const std::string& swName = nodeName[sw->GetNode()->GetId()];
            transmitters.push_back(
                PodTopology::Transmitter{acc,
                                         "acc" + std::to_string(a) + "->" + swName,
                                         "acc-up",
                                         p});
        }
    }
    for (const Ptr<FabricSwitch>& s : planes)
    {
        for (uint32_t i = 0; i < s->GetNPorts(); ++i)
        {
            Ptr<FabricNetDevice> d = s->GetPort(i);
            Ptr<FabricNetDevice> peer = d->GetFabricChannel()->GetPeer(d);
            const uint32_t from = d->GetNode()->GetId();
            const uint32_t to = peer->GetNode()->GetId();
            const bool toChip = switchPlane.find(to) == switchPlane.end();
            const std::string kind = toChip ? "down" : (isLeaf[from] ? "leaf-up" : "spine-down");
            transmitters.push_back(PodTopology::Transmitter{d,
                                                            nodeName[from] + "->" + nodeName[to],
                                                            kind,
                                                            switchPlane[from]});
        }
    }
}

void
CellPodBuilder::CollectDrops(const std::vector<Ptr<FabricEndpoint>>& endpoints,
                             std::map<std::string, uint64_t>& drops)
{
    for (const Ptr<FabricEndpoint>& e : endpoints)
    {
        if (Ptr<CellFabricAdapter> a = DynamicCast<CellFabricAdapter>(e))
        {
            for (const auto& [reason, n] : a->GetStats().drops)
            {
                drops[reason] += n;
            }
        }
    }
}

} // namespace ns3
