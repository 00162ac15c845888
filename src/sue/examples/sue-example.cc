/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// A small SUE pod: N XPUs, each with one SUE instance of P ports, one switch per port plane.
// XPU 1..N-1 write --bytes to XPU 0 (an incast); prints each message's latency and the wire
// efficiency of XPU 1's first port.
//
//   build/bin/sue-example --xpus=8 --ports=2 --ordering=Unordered --bytes=65536

#include "ns3/command-line.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/fabric-channel.h"
#include "ns3/fabric-link-helper.h"
#include "ns3/fabric-switch-helper.h"
#include "ns3/fabric-switch.h"
#include "ns3/node-container.h"
#include "ns3/picosecond-resolution.h"
#include "ns3/simulator.h"
#include "ns3/sue-endpoint.h"
#include "ns3/sue-helper.h"
#include "ns3/uinteger.h"

#include <iostream>

using namespace ns3;

namespace
{

/// Print a delivery.
void
Delivered(const FabricMessage& m)
{
    std::cout << "message " << m.id << " from XPU " << m.src << ": " << m.bytes << " B in "
              << (m.delivered - m.posted).As(Time::NS) << std::endl;
}

} // namespace

int
main(int argc, char* argv[])
{
    // podsim runs at picosecond resolution (DESIGN.md rule 4): set before any Time is made.
    EnsurePicosecondResolution();

    uint32_t xpus = 4;
    uint32_t ports = 1;
    uint64_t bytes = 16384;
    std::string ordering = "Strict";
    std::string rate = "800Gbps";
    CommandLine cmd(__FILE__);
    cmd.AddValue("xpus", "number of XPUs (at least 2)", xpus);
    cmd.AddValue("ports", "ports per SUE instance (1, 2 or 4)", ports);
    cmd.AddValue("bytes", "bytes each sender writes to XPU 0", bytes);
    cmd.AddValue("ordering", "Strict or Unordered", ordering);
    cmd.AddValue("rate", "instance rate, split over its ports (Table 4)", rate);
    cmd.Parse(argc, argv);
    if (xpus < 2 || (ports != 1 && ports != 2 && ports != 4))
    {
        std::cerr << "need at least 2 XPUs and 1, 2 or 4 ports" << std::endl;
        return 1;
    }

    NodeContainer xpu;
    xpu.Create(xpus);
    SueHelper sh;
    sh.SetPortsPerInstance(ports);
    sh.SetInstanceAttribute(
        "Ordering",
        EnumValue(ordering == "Unordered" ? SueInstance::UNORDERED : SueInstance::STRICT));
    std::vector<Ptr<SueEndpoint>> ep;
    for (uint32_t i = 0; i < xpus; ++i)
    {
        ep.push_back(sh.Install(xpu.Get(i), i));
    }
    FabricLinkHelper lh;
    lh.SetChannelAttribute("DataRate",
                           DataRateValue(DataRate(DataRate(rate).GetBitRate() / ports)));
    lh.SetChannelAttribute("CableType", EnumValue(FabricChannel::TWINAX));
    lh.SetChannelAttribute("CableLength", DoubleValue(3));
    lh.SetFlowControl("ns3::FabricPfc", "Classes", UintegerValue(4));
    FabricSwitchHelper swh;
    swh.SetSwitchAttribute("Classes", UintegerValue(4));
    std::vector<Ptr<FabricNetDevice>> firstPort;
    for (uint32_t p = 0; p < ports; ++p)
    {
        Ptr<Node> n = CreateObject<Node>();
        Ptr<FabricSwitch> sw = swh.Install(n);
        for (uint32_t i = 0; i < xpus; ++i)
        {
            NetDeviceContainer d = lh.Install(xpu.Get(i), n);
            ep[i]->AddDevice(DynamicCast<FabricNetDevice>(d.Get(0)));
            sw->GetRoutingTable()->SetRoute(i,
                                            {sw->AddPort(DynamicCast<FabricNetDevice>(d.Get(1)))});
            if (p == 0)
            {
                firstPort.push_back(DynamicCast<FabricNetDevice>(d.Get(0)));
            }
        }
        sw->ShareBufferForPfc(3);
    }
    ep[0]->SetDeliveredCallback(MakeCallback(&Delivered));
    for (uint32_t i = 1; i < xpus; ++i)
    {
        ep[i]->Send(0, bytes, 0);
    }
    Simulator::Run();
    const auto& st = firstPort[1]->GetStats();
    std::cout << "XPU 1 port 0: " << st.txUnits << " PDUs, wire efficiency "
              << (st.txWireBytes ? double(st.txPayloadBytes) / st.txWireBytes : 0.0)
              << ", XPU 0 received " << ep[0]->GetReceivedPayloadBytes() << " B" << std::endl;
    Simulator::Destroy();
    return 0;
}
