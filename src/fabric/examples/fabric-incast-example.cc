/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// A k-to-1 incast through one switch, built from the fabric module alone.
//
//   ./build/bin/fabric-incast-example --senders=8 --bytes=1048576 --buffer=1048576
//   ./build/bin/fabric-incast-example --ns3::FabricSwitch::ForwardingMode=StoreAndForward
//   NS_LOG="FabricSwitch=logic|prefix_time" ./build/bin/fabric-incast-example --senders=2
//
// It prints each message's delivery time, the bottleneck's utilization and the drops: with a
// small buffer and no flow control the incast loses packets, and the bytes still add up
// (sent = received + dropped).

#include "ns3/basic-endpoint-helper.h"
#include "ns3/basic-endpoint.h"
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
#include "ns3/uinteger.h"

#include <iostream>

using namespace ns3;

namespace
{
/// Print a delivery.
void
Delivered(const FabricMessage& m)
{
    std::cout << "  message from " << m.src << ": " << m.bytes << " B delivered at "
              << m.delivered.GetNanoSeconds() << " ns" << std::endl;
}
} // namespace

int
main(int argc, char** argv)
{
    // podsim runs at picosecond resolution (DESIGN.md rule 4): set before any Time is made.
    EnsurePicosecondResolution();

    uint32_t senders = 4;
    uint64_t bytes = 1 << 20;
    uint64_t buffer = 64ull << 20;
    std::string rate = "800Gbps";
    CommandLine cmd(__FILE__);
    cmd.Usage("A k-to-1 incast through one FabricSwitch with plain NICs.");
    cmd.AddValue("senders", "number of senders (k)", senders);
    cmd.AddValue("bytes", "message size per sender (bytes)", bytes);
    cmd.AddValue("buffer", "switch shared buffer (bytes)", buffer);
    cmd.AddValue("rate", "link data rate", rate);
    cmd.Parse(argc, argv);

    NodeContainer acc;
    acc.Create(senders + 1);
    Ptr<Node> swNode = CreateObject<Node>();
    FabricSwitchHelper swh;
    swh.SetBufferAttribute("Size", UintegerValue(buffer));
    Ptr<FabricSwitch> sw = swh.Install(swNode);
    FabricLinkHelper lh;
    lh.SetChannelAttribute("DataRate", DataRateValue(DataRate(rate)));
    lh.SetChannelAttribute("CableType", EnumValue(FabricChannel::TWINAX));
    lh.SetChannelAttribute("CableLength", DoubleValue(3.0));
    BasicEndpointHelper eh;
    std::vector<Ptr<BasicEndpoint>> ep;
    for (uint32_t i = 0; i <= senders; ++i)
    {
        Ptr<BasicEndpoint> e = eh.Install(acc.Get(i), i);
        NetDeviceContainer d = lh.Install(acc.Get(i), swNode);
        e->AddDevice(DynamicCast<FabricNetDevice>(d.Get(0)));
        sw->GetRoutingTable()->SetRoute(i, {sw->AddPort(DynamicCast<FabricNetDevice>(d.Get(1)))});
        ep.push_back(e);
    }
    ep[0]->SetDeliveredCallback(MakeCallback(&Delivered));
    for (uint32_t i = 1; i <= senders; ++i)
    {
        ep[i]->Send(0, bytes, 0);
    }
    std::cout << senders << "-to-1 incast of " << bytes << " B per sender at " << rate << std::endl;
    Simulator::Run();

    const FabricNetDevice::Stats& st = sw->GetPort(0)->GetStats();
    uint64_t sent = 0;
    uint64_t dropped = 0;
    for (uint32_t i = 1; i <= senders; ++i)
    {
        sent += ep[i]->GetBytesSent();
        for (const auto& [reason, b] : sw->GetPort(i)->GetStats().dropBytes)
        {
            dropped += b;
        }
    }
    std::cout << "bottleneck busy " << st.busyTime.GetNanoSeconds() << " ns of "
              << Simulator::Now().GetNanoSeconds() << " ns; peak buffer "
              << sw->GetBuffer()->GetPeakOccupancy() << " B" << std::endl;
    std::cout << "bytes sent " << sent << " = received " << ep[0]->GetReceivedPayloadBytes()
              << " + dropped " << dropped << std::endl;
    Simulator::Destroy();
    return 0;
}
