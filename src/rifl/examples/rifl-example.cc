/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The RIFL switch of the RIFL paper, section V.A, in cell time: a 32-port 100 Gb/s switch, every
// input sending BytesPerPair to every output, printing the latency percentiles of Table I and the
// bandwidth utilization of Figure 5.
//
//   build/bin/rifl-example --scheduler=Islip --arrival=Bernoulli --load=0.9
//   build/bin/rifl-example --scheduler=Safc --arrival=Bursty --load=0.6 --mbPerPair=0.25

#include "ns3/command-line.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/picosecond-resolution.h"
#include "ns3/rifl-cell-switch-helper.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <chrono>
#include <iomanip>
#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    // podsim runs at picosecond resolution (DESIGN.md rule 4): set before any Time is made.
    EnsurePicosecondResolution();

    std::string scheduler = "Islip";
    std::string arrival = "Bernoulli";
    std::string sizes = "Fixed";
    double load = 0.9;
    double mbPerPair = 2.5;
    uint32_t ports = 32;
    uint32_t iterations = 3;
    uint32_t fixedBytes = 256;
    uint32_t seed = 1;
    std::string nic = "PerDestination";
    std::string latencyFrom = "SwitchInput";
    std::string destinations = "Uniform";
    bool bench = false;
    std::string sources = "PerInput";

    CommandLine cmd(__FILE__);
    cmd.Usage("RIFL switch (RIFL paper): Table I latency percentiles and Figure 5 utilization.");
    cmd.AddValue("scheduler", "Islip, Safc or Fifo", scheduler);
    cmd.AddValue("arrival", "Bernoulli or Bursty", arrival);
    cmd.AddValue("sizes", "Fixed or Variable (64 to 2048 B)", sizes);
    cmd.AddValue("fixedBytes", "fixed packet size in bytes", fixedBytes);
    cmd.AddValue("load", "offered load, 0 to 1", load);
    cmd.AddValue("mbPerPair", "MB (2^20 B) from each input to each output", mbPerPair);
    cmd.AddValue("ports", "switch ports", ports);
    cmd.AddValue("iterations", "iSLIP iterations", iterations);
    cmd.AddValue("seed", "random stream", seed);
    cmd.AddValue("nic", "source NIC queueing: Fifo or PerDestination", nic);
    cmd.AddValue("latencyFrom", "SwitchInput or Generation", latencyFrom);
    cmd.AddValue("destinations", "Uniform or Exact", destinations);
    cmd.AddValue("sources", "PerInput or PerFlow arrival processes", sources);
    cmd.AddValue("bench", "print the benchmark figures and a BENCH-JSON line", bench);
    cmd.Parse(argc, argv);

    RiflCellSwitchHelper h;
    h.SetSwitchAttribute("Ports", UintegerValue(ports));
    h.SetSwitchAttribute("Scheduler",
                         EnumValue(scheduler == "Safc"   ? RiflCellSwitch::SAFC
                                   : scheduler == "Fifo" ? RiflCellSwitch::FIFO
                                                         : RiflCellSwitch::ISLIP));
    h.SetSwitchAttribute(
        "NicQueue",
        EnumValue(nic == "Fifo" ? RiflCellSwitch::NIC_FIFO : RiflCellSwitch::PER_DESTINATION));
    h.SetSwitchAttribute("LatencyFrom",
                         EnumValue(latencyFrom == "Generation" ? RiflCellSwitch::GENERATION
                                                               : RiflCellSwitch::SWITCH_INPUT));
    h.SetTrafficAttribute("Destinations",
                          EnumValue(destinations == "Exact" ? RiflTrafficGenerator::EXACT
                                                            : RiflTrafficGenerator::UNIFORM));
    h.SetTrafficAttribute("Sources",
                          EnumValue(sources == "PerFlow" ? RiflTrafficGenerator::PER_FLOW
                                                         : RiflTrafficGenerator::PER_INPUT));
    h.SetArbiterAttribute("Iterations", UintegerValue(iterations));
    h.SetTrafficAttribute("Arrival",
                          EnumValue(arrival == "Bursty" ? RiflTrafficGenerator::BURSTY
                                                        : RiflTrafficGenerator::BERNOULLI));
    h.SetTrafficAttribute("SizeMode",
                          EnumValue(sizes == "Variable" ? RiflTrafficGenerator::VARIABLE
                                                        : RiflTrafficGenerator::FIXED));
    h.SetTrafficAttribute("FixedBytes", UintegerValue(fixedBytes));
    h.SetTrafficAttribute("Load", DoubleValue(load));
    h.SetTrafficAttribute("BytesPerPair",
                          UintegerValue(static_cast<uint64_t>(mbPerPair * 1024 * 1024)));

    const auto w0 = std::chrono::steady_clock::now();
    Ptr<RiflCellSwitch> sw = h.Run(seed);
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
    const auto& s = sw->GetStats();
    std::cout << scheduler << " " << arrival << " " << sizes << " load " << load << ": latency";
    for (double p : {0.01, 0.5, 0.75, 0.9, 0.95, 0.99, 1.0})
    {
        std::cout << " " << sw->GetLatencyPercentile(p);
    }
    std::cout << std::fixed << std::setprecision(4) << " mean " << sw->GetMeanLatency()
              << " utilization " << sw->GetUtilization() << " cells " << s.cells << " slots "
              << s.slots << " fcFrames " << s.fcFrames << " peakVoq " << s.peakVoq << " drops "
              << s.drops.size() << std::endl;
    const double cellsPerS = static_cast<double>(s.cells) / wall;
    const double eventsPerCell = static_cast<double>(sw->GetEvents()) / s.cells;
    std::cout << std::setprecision(6) << std::defaultfloat << "cells switched per wall second "
              << cellsPerS << ", events per cell " << eventsPerCell << ", wall " << wall << " s"
              << std::endl;
    if (bench)
    {
        std::cout << "BENCH-JSON {\"name\": \"rifl-table1-" << scheduler << "-" << arrival << "-"
                  << static_cast<int>(load * 100 + 0.5) << "\", \"ports\": " << ports
                  << ", \"cells\": " << s.cells << ", \"cells_per_s\": " << cellsPerS
                  << ", \"events_per_cell\": " << eventsPerCell << ", \"wall_s\": " << wall << "}"
                  << std::endl;
    }
    Simulator::Destroy();
    return 0;
}
