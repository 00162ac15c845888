/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// A small UALink 200 pod: N accelerators with P ports each and P single-tier switches (rails).
// Accelerators 1..N-1 write --bytes to accelerator 0 (an incast), or, with --pattern=all-to-all,
// every accelerator writes --bytes to every other one. Prints the delivery time of the last
// message, the goodput at accelerator 0's port 0 and the TL efficiency of its switch egress.
//
//   build/bin/ualink-example --accelerators=8 --ports=2 --lanes=4 --bytes=65536

#include "ns3/boolean.h"
#include "ns3/command-line.h"
#include "ns3/data-rate.h"
#include "ns3/fabric-channel.h"
#include "ns3/nstime.h"
#include "ns3/picosecond-resolution.h"
#include "ns3/simulator.h"
#include "ns3/ualink-endpoint.h"
#include "ns3/ualink-helper.h"
#include "ns3/ualink-switch.h"
#include "ns3/uinteger.h"

#include <iostream>

using namespace ns3;

namespace
{

Time g_last; //!< last delivery

/// Record a delivery.
void
Delivered(const FabricMessage& m)
{
    g_last = Simulator::Now();
}

} // namespace

int
main(int argc, char* argv[])
{
    // podsim runs at picosecond resolution (DESIGN.md rule 4): set before any Time is made.
    EnsurePicosecondResolution();

    uint32_t accelerators = 4;
    uint32_t ports = 1;
    uint32_t lanes = 4;
    uint64_t bytes = 65536;
    std::string laneRate = "212.5Gbps";
    std::string pattern = "incast";
    bool cache = true;
    CommandLine cmd(__FILE__);
    cmd.AddValue("accelerators", "accelerators (2 to 1024)", accelerators);
    cmd.AddValue("ports", "ports per accelerator (= switches, one per rail)", ports);
    cmd.AddValue("lanes", "lanes per port: 4 (x4), 2 or 1", lanes);
    cmd.AddValue("laneRate", "lane signalling rate: 212.5Gbps, or 106.25Gbps (100G)", laneRate);
    cmd.AddValue("bytes", "bytes per message", bytes);
    cmd.AddValue("pattern", "incast or all-to-all", pattern);
    cmd.AddValue("addressCache", "compressed requests through the TL address cache", cache);
    cmd.Parse(argc, argv);
    if (accelerators < 2 || accelerators > 1024)
    {
        std::cerr << "need 2 to 1024 accelerators" << std::endl;
        return 1;
    }

    UalinkHelper h;
    h.SetPhyAttribute("Lanes", UintegerValue(lanes));
    h.SetPhyAttribute("LaneRate", DataRateValue(DataRate(laneRate)));
    h.SetPackerAttribute("UseAddressCache", BooleanValue(cache));
    UalinkHelper::Pod pod = h.Install(accelerators, ports);
    for (const auto& e : pod.acc)
    {
        e->SetDeliveredCallback(MakeCallback(&Delivered));
    }
    uint64_t total = 0;
    for (uint32_t s = 0; s < accelerators; ++s)
    {
        for (uint32_t d = 0; d < accelerators; ++d)
        {
            if (s == d || (pattern != "all-to-all" && d != 0))
            {
                continue;
            }
            pod.acc[s]->Send(d, bytes, 0);
            total += bytes;
        }
    }
    Simulator::Run();
    uint64_t delivered = 0;
    for (const auto& e : pod.acc)
    {
        delivered += e->GetBytesDelivered();
    }
    Ptr<UalinkTxQueue> egress = pod.sw[0]->GetTxQueue(0);
    const auto& st = egress->GetStats();
    std::cout << "last delivery at " << g_last.As(Time::US) << "; " << delivered << " of " << total
              << " B delivered; accelerator 0 received "
              << (g_last.IsStrictlyPositive()
                      ? pod.acc[0]->GetBytesDelivered() * 8.0 / g_last.GetSeconds() / 1e9
                      : 0.0)
              << " Gb/s; switch 0 egress to accelerator 0: " << st.bursts << " bursts, TL "
              << "efficiency " << (st.halfFlits ? st.dataBytes / (st.halfFlits * 32.0) : 0.0)
              << std::endl;
    Simulator::Destroy();
    return 0;
}
