/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// A starting point for your own experiment. Every .cc in scratch/ is built by `./podsim build`
// as build/bin/scratch-<name>, linked to every podsim module:
//
//   cp scratch/pod-incast.cc scratch/my-study.cc     # then edit my-study.cc
//   ./podsim build && build/bin/scratch-my-study --senders=8 --set=pod.link.rate=400Gbps
//
// It builds a pod with the pod module's API from a scenario (the keys of a scenario file, listed
// with `build/bin/podsim-run --schema`), runs it, prints podsim's summary table and a few numbers
// of its own from the per-message and per-link results. What to change:
//  - the pod in ScenarioText(): fabric (ethernet, sue, ualink, cell, rifl), accelerators,
//    planes, switch, link, NIC, flow control;
//  - the workloads in ScenarioText(): incast, permutation, all-to-all, a collective, a DAG, ...;
//  - what main() prints from RunResults (the messages, links and collectives tables, the same
//    columns as the results file); --out=FILE also writes the HDF5 results file;
//  - or nothing at all: --set=KEY=VALUE overrides any key of the scenario at run time.
//
// As written: a k-to-1 incast of --size bytes per sender on an Ethernet pod with one
// single-switch plane (800 Gb/s, 3 m twinax, a 250 ns cut-through switch). The receiver's link
// is the bottleneck, busy from the first unit to the last, so the last delivery is at
// 2d + L + k * ceil(size / MTU) * T (src/fabric/doc/fabric.rst, Validation: the incast case;
// test/python/test_scratch.py checks the printed numbers against it).

#include "ns3/command-line.h"
#include "ns3/experiment.h"
#include "ns3/picosecond-resolution.h"
#include "ns3/scenario-error.h"
#include "ns3/scenario-loader.h"

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{
std::vector<std::string> g_overrides; //!< --set KEY=VALUE, in order

/**
 * Collect one --set KEY=VALUE.
 * \param kv the override
 * \return true
 */
bool
AddOverride(std::string kv)
{
    g_overrides.push_back(kv);
    return true;
}

/**
 * The experiment: edit this.
 * \param senders incast senders
 * \param bytes bytes each sender sends to accelerator 0
 * \return the scenario as YAML
 */
std::string
ScenarioText(uint32_t senders, uint64_t bytes)
{
    std::ostringstream y;
    y << "name: pod-incast\n"
         "pod:\n"
         "  fabric: ethernet\n"
         "  accelerators: 16\n"
         "  planes: 1\n"
         "  switch: {radix: 16, latency: 250ns, forwarding: cut-through, buffer: 64MiB}\n"
         "  link: {rate: 800Gbps, cable: twinax, length: 3m}\n"
         "  nic: {mtu: 4096}\n"
         "workloads:\n"
         "  - {kind: incast, senders: "
      << senders << ", receiver: 0, size: " << bytes
      << "}\n"
         "output: {progress: false, plots: false}\n";
    return y.str();
}
} // namespace

int
main(int argc, char* argv[])
{
    // podsim runs at picosecond resolution (DESIGN.md rule 4): set before any Time is made.
    EnsurePicosecondResolution();

    uint32_t senders = 4;
    uint64_t size = 1 << 20;
    std::string out;
    CommandLine cmd(__FILE__);
    cmd.Usage("A starting point: a k-to-1 incast on an Ethernet pod, with its summary.");
    cmd.AddValue("senders", "incast senders (k)", senders);
    cmd.AddValue("size", "bytes each sender sends to accelerator 0", size);
    cmd.AddValue("set",
                 "override a scenario key, KEY=VALUE (repeatable)",
                 MakeCallback(&AddOverride));
    cmd.AddValue("out", "also write the HDF5 results to this file", out);
    cmd.Parse(argc, argv);

    Scenario s;
    try
    {
        s = ScenarioLoader::LoadString(ScenarioText(senders, size), "pod-incast", g_overrides);
    }
    catch (const ScenarioError& e)
    {
        std::cerr << "error: " << e.what() << std::endl;
        return 2;
    }

    Experiment::Options opt;
    opt.writeResults = !out.empty();
    opt.resultsFile = out;
    opt.progress = false;
    const RunResults r = Experiment::Run(s, opt); // prints the summary table

    // Numbers of our own, from the message and link tables.
    const RunResults::Messages& m = r.messages;
    int64_t first = -1;
    int64_t last = -1;
    uint64_t bytes = 0;
    size_t lost = 0;
    for (size_t i = 0; i < m.deliverPs.size(); ++i)
    {
        bytes += m.bytes[i];
        if (m.deliverPs[i] < 0)
        {
            ++lost; // never delivered (a drop without flow control)
            continue;
        }
        first = first < 0 ? m.deliverPs[i] : std::min(first, m.deliverPs[i]);
        last = std::max(last, m.deliverPs[i]);
    }
    std::cout << "incast: " << m.deliverPs.size() << " messages, " << bytes << " B, " << lost
              << " not delivered; first delivered at " << first << " ps, last at " << last << " ps"
              << std::endl;
    // The receiver's link (switch to accelerator 0), in every plane.
    const RunResults::Links& l = r.links;
    for (size_t i = 0; i < l.name.size(); ++i)
    {
        const std::string& n = l.name[i];
        if (n.size() > 6 && n.compare(n.size() - 6, 6, "->acc0") == 0)
        {
            std::cout << "receiver link " << n << ": " << l.txPackets[i] << " packets, "
                      << l.txWireBytes[i] << " wire B, busy " << l.busyPs[i] << " ps" << std::endl;
        }
    }
    return 0;
}
