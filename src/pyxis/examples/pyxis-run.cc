/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// pyxis-run: run a Pyxis model file on a pod of Pyxis chips over the cell fabric (issue 9).
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
#include "ns3/pyxis-chip-helper.h"
#include "ns3/pyxis-chip.h"
#include "ns3/pyxis-fabric-binding.h"
#include "ns3/pyxis-layer-program.h"
#include "ns3/pyxis-model-error.h"
#include "ns3/pyxis-model-loader.h"
#include "ns3/pyxis-timeline-recorder.h"
#include "ns3/pyxis-trip-program.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <cstdlib>
#include <deque>
#include <filesystem>
#include <hdf5.h>
#include <iostream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/**
 * Write one column dataset.
 * \param group the group
 * \param name column name
 * \param type HDF5 memory type
 * \param data the values
 * \param n rows
 * \return false on an HDF5 error
 */
bool
WriteColumn(hid_t group, const char* name, hid_t type, const void* data, hsize_t n)
{
    hid_t space = H5Screate_simple(1, &n, nullptr);
    hid_t ds = H5Dcreate2(group, name, type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    bool ok = ds >= 0 && H5Dwrite(ds, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) >= 0;
    if (ds >= 0)
    {
        H5Dclose(ds);
    }
    H5Sclose(space);
    return ok;
}

/**
 * Write /pyxis/trips and /pyxis/layers.
 * \param path the file (created or truncated)
 * \param rec the recorder
 * \return false on an HDF5 error
 */
bool
WriteResults(const std::string& path, const PyxisTimelineRecorder& rec)
{
    hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (file < 0)
    {
        return false;
    }
    hid_t top = H5Gcreate2(file, "pyxis", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    hid_t trips = H5Gcreate2(top, "trips", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    const auto& t = rec.GetTrips();
    std::vector<uint32_t> chip, cluster, engine, id, layer, kind;
    std::vector<double> start, end;
    for (const auto& r : t)
    {
        chip.push_back(r.chip);
        cluster.push_back(r.cluster);
        engine.push_back(r.engine);
        id.push_back(r.tripId);
        layer.push_back(r.layer);
        kind.push_back(r.kind);
        start.push_back(r.startNs);
        end.push_back(r.endNs);
    }
    const hsize_t n = t.size();
    bool ok = WriteColumn(trips, "chip", H5T_NATIVE_UINT32, chip.data(), n) &&
              WriteColumn(trips, "cluster", H5T_NATIVE_UINT32, cluster.data(), n) &&
              WriteColumn(trips, "engine", H5T_NATIVE_UINT32, engine.data(), n) &&
              WriteColumn(trips, "trip_id", H5T_NATIVE_UINT32, id.data(), n) &&
              WriteColumn(trips, "layer", H5T_NATIVE_UINT32, layer.data(), n) &&
              WriteColumn(trips, "kind", H5T_NATIVE_UINT32, kind.data(), n) &&
              WriteColumn(trips, "start_ns", H5T_NATIVE_DOUBLE, start.data(), n) &&
              WriteColumn(trips, "end_ns", H5T_NATIVE_DOUBLE, end.data(), n);
    H5Gclose(trips);
    hid_t layers = H5Gcreate2(top, "layers", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    const auto rows = rec.GetLayers();
    std::vector<uint32_t> lchip, lindex;
    std::vector<double> ls, le, lc, lx;
    for (const auto& r : rows)
    {
        lchip.push_back(r.chip);
        lindex.push_back(r.layer);
        ls.push_back(r.startNs);
        le.push_back(r.endNs);
        lc.push_back(r.computeNs);
        lx.push_back(r.exposedCommNs);
    }
    const hsize_t m = rows.size();
    ok = ok && WriteColumn(layers, "chip", H5T_NATIVE_UINT32, lchip.data(), m) &&
         WriteColumn(layers, "layer", H5T_NATIVE_UINT32, lindex.data(), m) &&
         WriteColumn(layers, "start_ns", H5T_NATIVE_DOUBLE, ls.data(), m) &&
         WriteColumn(layers, "end_ns", H5T_NATIVE_DOUBLE, le.data(), m) &&
         WriteColumn(layers, "compute_ns", H5T_NATIVE_DOUBLE, lc.data(), m) &&
         WriteColumn(layers, "exposed_comm_ns", H5T_NATIVE_DOUBLE, lx.data(), m);
    H5Gclose(layers);
    H5Gclose(top);
    H5Fclose(file);
    return ok;
}

} // namespace

int
main(int argc, char* argv[])
{
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
    if (posting != "pre-posted" && posting != "late")
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
    const std::vector<PyxisLayerProgram::ChipProgram> programs = PyxisLayerProgram::Lower(spec);
    CellFabricHelper fabric;
    fabric.SetAdapterAttribute("RdmaJobPosting", StringValue("Explicit"));
    NodeContainer nodes;
    nodes.Create(programs.size());
    std::vector<Ptr<CellFabricAdapter>> adapters = fabric.Install(nodes, 36);
    PyxisChipHelper chipHelper;
    std::deque<PyxisTripProgram> builders;
    std::vector<Ptr<PyxisFabricBinding>> bindings;
    PyxisTimelineRecorder recorder;
    PyxisTripProgram::Options options;
    options.rxPosting =
        posting == "late" ? PyxisTripProgram::RX_LATE : PyxisTripProgram::RX_PRE_POSTED;
    for (uint32_t i = 0; i < programs.size(); ++i)
    {
        Ptr<PyxisChip> chip = chipHelper.Create(i);
        chip->Build();
        Ptr<PyxisFabricBinding> b = CreateObject<PyxisFabricBinding>();
        b->Bind(chip, adapters[i]);
        builders.emplace_back();
        std::string error;
        if (!builders.back().Build(
                programs[i],
                chip,
                [b](uint32_t c, uint32_t k, uint32_t oq) { return b->GetVoq(c, k, oq); },
                options,
                error))
        {
            std::cerr << "pyxis-run: " << model << ": " << error << std::endl;
            return 1;
        }
        recorder.Watch(chip, &builders.back());
        bindings.push_back(b);
    }
    Simulator::Run();
    const double endNs = Simulator::Now().GetSeconds() * 1e9;
    uint64_t jobs = 0;
    uint64_t open = 0;
    for (const auto& b : bindings)
    {
        jobs += b->GetStats().txCompleted;
        open += b->GetOpenJobs();
    }
    Simulator::Destroy();
    const std::filesystem::path out(output);
    if (out.has_parent_path())
    {
        std::error_code ec;
        std::filesystem::create_directories(out.parent_path(), ec);
    }
    if (!WriteResults(output, recorder))
    {
        std::cerr << "pyxis-run: cannot write " << output << std::endl;
        return 1;
    }
    std::cout << "pyxis-run: " << spec.name << ": " << programs.size() << " chips, "
              << spec.layers.size() << " layers, " << recorder.GetTrips().size() << " trips, "
              << jobs << " RDMA jobs, end " << endNs << " ns, " << open << " jobs open; wrote "
              << output << std::endl;
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
    return open == 0 ? 0 : 1;
}
