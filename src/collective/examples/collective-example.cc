/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// One collective on a single-switch pod (one switch per plane) of plain NICs, built from the
// fabric and collective modules alone.
//
//   ./build/bin/collective-example --ranks=16 --collective=all-reduce --algorithm=ring
//   ./build/bin/collective-example --algorithm=halving-doubling --bytes=67108864 --chunks=4
//   ./build/bin/collective-example --planes=4 --collective=all-to-all --algorithm=pairwise
//   ./build/bin/collective-example --ns3::CollectiveExecutor::ReduceTimePerByte=1ps
//
// It prints the collective's time, algorithm and bus bandwidth (nccl-tests definitions) and the
// time of its first and last steps.

#include "ns3/basic-endpoint-helper.h"
#include "ns3/basic-endpoint.h"
#include "ns3/collective-helper.h"
#include "ns3/command-line.h"
#include "ns3/data-rate.h"
#include "ns3/fabric-link-helper.h"
#include "ns3/fabric-switch-helper.h"
#include "ns3/fabric-switch.h"
#include "ns3/node-container.h"
#include "ns3/picosecond-resolution.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <iostream>
#include <stdexcept>

using namespace ns3;

int
main(int argc, char** argv)
{
    // podsim runs at picosecond resolution (DESIGN.md rule 4): set before any Time is made.
    EnsurePicosecondResolution();

    uint32_t ranks = 8;
    uint32_t planes = 1;
    uint32_t root = 0;
    uint32_t chunks = 1;
    uint64_t bytes = 8 << 20;
    std::string collective = "all-reduce";
    std::string algorithm = "ring";
    std::string rate = "800Gbps";
    CommandLine cmd(__FILE__);
    cmd.Usage("One collective on a pod of plain NICs, one switch per plane.");
    cmd.AddValue("ranks", "accelerators in the communicator", ranks);
    cmd.AddValue("planes", "switch planes (one port per plane per accelerator)", planes);
    cmd.AddValue("collective",
                 "all-reduce, reduce-scatter, all-gather, broadcast, ...",
                 collective);
    cmd.AddValue("algorithm", "ring, bidirectional-ring, halving-doubling, ...", algorithm);
    cmd.AddValue("bytes", "size (bytes; per pair for all-to-all)", bytes);
    cmd.AddValue("root", "root rank of broadcast and reduce", root);
    cmd.AddValue("chunks", "chunks (pipelining)", chunks);
    cmd.AddValue("rate", "link rate", rate);
    cmd.Parse(argc, argv);

    CollectiveSpec spec;
    if (!CollectiveSpec::ParseType(collective, spec.type))
    {
        std::cerr << "unknown collective " << collective << std::endl;
        return 1;
    }
    spec.bytes = bytes;
    spec.root = root;

    NodeContainer acc;
    acc.Create(ranks);
    FabricLinkHelper lh;
    lh.SetChannelAttribute("DataRate", DataRateValue(DataRate(rate)));
    FabricSwitchHelper swh;
    BasicEndpointHelper eh;
    std::vector<Ptr<FabricEndpoint>> endpoints;
    std::vector<Ptr<BasicEndpoint>> basic;
    for (uint32_t i = 0; i < ranks; ++i)
    {
        basic.push_back(eh.Install(acc.Get(i), i));
        endpoints.push_back(basic.back());
    }
    for (uint32_t p = 0; p < planes; ++p)
    {
        Ptr<Node> swNode = CreateObject<Node>();
        Ptr<FabricSwitch> sw = swh.Install(swNode);
        for (uint32_t i = 0; i < ranks; ++i)
        {
            NetDeviceContainer d = lh.Install(acc.Get(i), swNode);
            basic[i]->AddDevice(DynamicCast<FabricNetDevice>(d.Get(0)));
            sw->GetRoutingTable()->SetRoute(i,
                                            {sw->AddPort(DynamicCast<FabricNetDevice>(d.Get(1)))});
        }
    }
    Ptr<CollectiveDispatcher> dispatcher = CreateObject<CollectiveDispatcher>();
    dispatcher->Install(endpoints);
    CollectiveHelper helper;
    helper.SetExecutorAttribute("Chunks", UintegerValue(chunks));
    Ptr<CollectiveExecutor> e;
    try
    {
        e = helper.Install(dispatcher, spec, algorithm, endpoints);
    }
    catch (const std::invalid_argument& err)
    {
        std::cerr << "error: " << err.what() << std::endl;
        return 1;
    }
    Simulator::ScheduleNow(&CollectiveExecutor::Start, e);
    Simulator::Run();

    const auto& steps = e->GetStepTimings();
    std::cout << algorithm << " " << collective << " of " << bytes << " B on " << ranks
              << " ranks x " << planes << " plane(s): " << (e->IsDone() ? "done" : "NOT DONE")
              << " in " << (e->GetEndTime() - e->GetStartTime()).GetNanoSeconds() * 1e-3
              << " us, algbw " << e->GetAlgorithmBandwidth() * 8e-9 << " Gb/s, busbw "
              << e->GetBusBandwidth() * 8e-9 << " Gb/s, " << steps.size() << " steps, "
              << e->GetMessagesSent() << " messages" << std::endl;
    if (!steps.empty())
    {
        std::cout << "  first step " << (steps.front().endPs - steps.front().startPs) * 1e-6
                  << " us, last step " << (steps.back().endPs - steps.back().startPs) * 1e-6
                  << " us" << std::endl;
    }
    Simulator::Destroy();
    return e->IsDone() ? 0 : 1;
}
