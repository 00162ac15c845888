/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// pyxis-run: run a Pyxis model file on a pod of Pyxis chips over the cell fabric.
//
//   build/bin/pyxis-run --model=examples/pyxis/tiny-transformer.yaml --output=results/tiny.h5 \
//       [--rx-posting=pre-posted|late] [--plot=results/tiny.png]
//
// The model's tensor x data chips each get a PyxisChip bound to a CellFabricAdapter
// (RdmaJobPosting Explicit) on the cell fabric's 36 planes; PyxisTripProgram turns each chip's
// operations into trips, PyxisFabricBinding posts their RDMA jobs. The run writes /pyxis/trips
// and /pyxis/layers (groups of column datasets, the schema of analysis/pyxis_timeline.py) to
// the output HDF5 file and, with --plot, draws the timeline with that script. Errors (a bad
// model file, an unbuildable program) are printed on stderr and exit 1.

#include "ns3/cell-fabric-adapter.h"
#include "ns3/cell-fabric-helper.h"
#include "ns3/command-line.h"
#include "ns3/fabric-net-device.h"
#include "ns3/fabric-switch.h"
#include "ns3/node-container.h"
#include "ns3/picosecond-resolution.h"
#include "ns3/pyxis-model-error.h"
#include "ns3/pyxis-model-loader.h"
#include "ns3/pyxis-runner.h"
#include "ns3/simulator.h"

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

using namespace ns3;

int
main(int argc, char* argv[])
{
    // podsim runs at picosecond resolution (DESIGN.md rule 4): set before any Time is made.
    EnsurePicosecondResolution();

    std::string model;
    std::string output = "results/pyxis.h5";
    std::string posting = "pre-posted";
    std::string plot;
    CommandLine cmd(__FILE__);
    cmd.AddValue("model", "model file (YAML, src/pyxis/doc/pyxis.rst)", model);
    cmd.AddValue("output", "results HDF5 file (/pyxis/trips, /pyxis/layers)", output);
    cmd.AddValue("rx-posting", "Rx jobs: pre-posted | late", posting);
    cmd.AddValue("plot", "timeline PNG to draw (analysis/pyxis_timeline.py); empty: none", plot);
    cmd.Parse(argc, argv);
    if (model.empty())
    {
        std::cerr << "pyxis-run: --model=FILE is required" << std::endl;
        return 1;
    }
    PyxisTripProgram::RxPosting rxPosting;
    if (!PyxisRunner::ParseRxPosting(posting, rxPosting))
    {
        std::cerr << "pyxis-run: --rx-posting must be pre-posted or late (got " << posting << ")"
                  << std::endl;
        return 1;
    }
    PyxisModelSpec spec;
    try
    {
        spec = PyxisModelLoader::LoadFile(model);
    }
    catch (const PyxisModelError& e)
    {
        std::cerr << "pyxis-run: " << e.what() << std::endl;
        return 1;
    }
    CellFabricHelper fabric;
    NodeContainer nodes;
    nodes.Create(spec.GetChips());
    PyxisRunner runner;
    std::string error;
    if (!runner.Setup(spec, fabric.Install(nodes, 36), rxPosting, error))
    {
        std::cerr << "pyxis-run: " << model << ": " << error << std::endl;
        return 1;
    }
    Simulator::Run();
    const double endNs = Simulator::Now().GetSeconds() * 1e9;
    const PyxisRunner::Summary sum = runner.Collect();
    Simulator::Destroy();
    const std::filesystem::path out(output);
    if (out.has_parent_path())
    {
        std::error_code ec;
        std::filesystem::create_directories(out.parent_path(), ec);
    }
    if (!runner.WriteTables(output, true))
    {
        std::cerr << "pyxis-run: cannot write " << output << std::endl;
        return 1;
    }
    std::cout << "pyxis-run: " << spec.name << ": " << sum.chips << " chips, " << sum.layers
              << " layers, " << sum.trips << " trips, " << sum.jobs << " RDMA jobs, end " << endNs
              << " ns, " << sum.open << " jobs open; wrote " << output << std::endl;
    if (!plot.empty())
    {
        const std::string command =
            "/usr/bin/python3 analysis/pyxis_timeline.py '" + output + "' -o '" + plot + "'";
        if (std::system(command.c_str()) != 0)
        {
            std::cerr << "pyxis-run: the plot failed: " << command << std::endl;
            return 1;
        }
    }
    return sum.open == 0 ? 0 : 1;
}
