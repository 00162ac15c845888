/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The Pyxis cell fabric (Pyxis spec section 10): chips on single-stage cell-switch planes, every
// chip sending an RDMA write of a given size to every other chip (all-to-all), printing the
// completion time, the fabric throughput and the adapter counters.
//
//   build/bin/cell-fabric-example --chips=16 --links=36 --kib=256
//   build/bin/cell-fabric-example --chips=8 --pageSizeWords=59 --granularity=Fine

#include "ns3/cell-fabric-helper.h"
#include "ns3/command-line.h"
#include "ns3/enum.h"
#include "ns3/fabric-switch.h"
#include "ns3/node-container.h"
#include "ns3/picosecond-resolution.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    // podsim runs at picosecond resolution (DESIGN.md rule 4): set before any Time is made.
    EnsurePicosecondResolution();

    uint32_t chips = 16;
    uint32_t links = 36;
    uint32_t kib = 256;
    uint32_t pageSizeWords = 125;
    std::string granularity = "Coarse";

    CommandLine cmd(__FILE__);
    cmd.Usage("Pyxis cell fabric (Pyxis spec section 10): all-to-all RDMA writes.");
    cmd.AddValue("chips", "chips (at most 144 on single-stage planes)", chips);
    cmd.AddValue("links", "links per chip = planes", links);
    cmd.AddValue("kib", "KiB each chip writes to each other chip", kib);
    cmd.AddValue("pageSizeWords", "RDMA PageSizeWords: 37, 48, ..., 125", pageSizeWords);
    cmd.AddValue("granularity",
                 "Coarse (a unit per page per link) or Fine (per cell)",
                 granularity);
    cmd.Parse(argc, argv);

    CellFabricHelper helper;
    helper.SetAdapterAttribute("PageSizeWords", UintegerValue(pageSizeWords));
    helper.SetAdapterAttribute(
        "Granularity",
        EnumValue(granularity == "Fine" ? CellFabricAdapter::FINE : CellFabricAdapter::COARSE));
    NodeContainer nodes;
    nodes.Create(chips);
    std::vector<Ptr<CellFabricAdapter>> adapters = helper.Install(nodes, links);
    Time last;
    for (const Ptr<CellFabricAdapter>& a : adapters)
    {
        a->SetDeliveredCallback(FabricEndpoint::MessageCallback(
            [&last](const FabricMessage& m) { last = std::max(last, m.delivered); }));
    }
    for (uint32_t s = 0; s < chips; ++s)
    {
        for (uint32_t k = 1; k < chips; ++k)
        {
            adapters[s]->Send((s + k) % chips, static_cast<uint64_t>(kib) << 10, 0);
        }
    }
    Simulator::Run();

    uint64_t sent = 0;
    uint64_t received = 0;
    uint64_t pages = 0;
    uint64_t cells = 0;
    uint64_t deferred = 0;
    for (const Ptr<CellFabricAdapter>& a : adapters)
    {
        sent += a->GetBytesSent();
        received += a->GetReceivedPayloadBytes();
        pages += a->GetStats().pagesSent;
        cells += a->GetStats().cellsSent;
        deferred += a->GetStats().grantsDeferred;
    }
    uint64_t switchDrops = 0;
    for (const Ptr<FabricSwitch>& sw : helper.GetPlanes())
    {
        for (const auto& kv : sw->GetDrops())
        {
            switchDrops += kv.second;
        }
    }
    std::cout << "chips " << chips << ", links " << links << ", " << kib
              << " KiB per pair: done at " << last.GetSeconds() * 1e6 << " us; " << received
              << " of " << sent << " B received; " << pages << " pages, " << cells
              << " cells; grants deferred " << deferred << "; switch drops " << switchDrops
              << "; per-chip receive rate " << received / chips / last.GetSeconds() / 1e9
              << " GB/s; events " << Simulator::GetEventCount() << std::endl;
    Simulator::Destroy();
    return received == sent && switchDrops == 0 ? 0 : 1;
}
