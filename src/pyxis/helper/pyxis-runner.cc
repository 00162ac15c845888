/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pyxis-runner.h"

#include "pyxis-chip-helper.h"

#include "ns3/cell-fabric-adapter.h"
#include "ns3/enum.h"
#include "ns3/fabric-endpoint.h"
#include "ns3/log.h"
#include "ns3/pyxis-chip.h"

#include <algorithm>
#include <hdf5.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PyxisRunner");

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

} // namespace

bool
PyxisRunner::ParseRxPosting(const std::string& s, PyxisTripProgram::RxPosting& posting)
{
    if (s == "pre-posted")
    {
        posting = PyxisTripProgram::RX_PRE_POSTED;
        return true;
    }
    if (s == "late")
    {
        posting = PyxisTripProgram::RX_LATE;
        return true;
    }
    return false;
}

bool
PyxisRunner::Setup(const PyxisModelSpec& spec,
                   const std::vector<Ptr<CellFabricAdapter>>& adapters,
                   PyxisTripProgram::RxPosting rxPosting,
                   std::string& error)
{
    NS_LOG_FUNCTION(spec.name << adapters.size());
    for (const Ptr<CellFabricAdapter>& a : adapters)
    {
        a->SetAttribute("RdmaJobPosting", EnumValue(CellFabricAdapter::RX_POSTING_EXPLICIT));
    }
    return Setup(spec,
                 std::vector<Ptr<FabricEndpoint>>(adapters.begin(), adapters.end()),
                 rxPosting,
                 error);
}

bool
PyxisRunner::Setup(const PyxisModelSpec& spec,
                   const std::vector<Ptr<FabricEndpoint>>& endpoints,
                   PyxisTripProgram::RxPosting rxPosting,
                   std::string& error)
{
    NS_LOG_FUNCTION(spec.name << endpoints.size());
    const std::vector<PyxisLayerProgram::ChipProgram> programs = PyxisLayerProgram::Lower(spec);
    if (programs.size() > endpoints.size())
    {
        error = "the model needs " + std::to_string(programs.size()) + " chips, the fabric has " +
                std::to_string(endpoints.size()) + " endpoints";
        return false;
    }
    m_layers = spec.layers.size();
    // the cell fabric's explicit RDMA job API where every chip has it, else the endpoint API
    uint32_t explicitApi = 0;
    std::vector<uint32_t> accelerators;
    for (uint32_t i = 0; i < programs.size(); ++i)
    {
        Ptr<CellFabricAdapter> a = DynamicCast<CellFabricAdapter>(endpoints[i]);
        EnumValue posting;
        if (a)
        {
            a->GetAttribute("RdmaJobPosting", posting);
        }
        explicitApi += a && posting.Get() == CellFabricAdapter::RX_POSTING_EXPLICIT ? 1 : 0;
        accelerators.push_back(endpoints[i]->GetAcceleratorId());
    }
    if (explicitApi != 0 && explicitApi != programs.size())
    {
        error = std::to_string(explicitApi) + " of the " + std::to_string(programs.size()) +
                " chips' endpoints are cell fabric adapters with RdmaJobPosting Explicit: all "
                "or none must be (the explicit RDMA job API needs it at both ends)";
        return false;
    }
    PyxisTripProgram::Options options;
    options.rxPosting = rxPosting;
    for (uint32_t i = 0; i < programs.size(); ++i)
    {
        if (!SetupChip(programs[i], endpoints, explicitApi != 0, accelerators, options, error))
        {
            return false;
        }
    }
    return true;
}

bool
PyxisRunner::SetupChip(const PyxisLayerProgram::ChipProgram& program,
                       const std::vector<Ptr<FabricEndpoint>>& endpoints,
                       bool explicitApi,
                       const std::vector<uint32_t>& accelerators,
                       const PyxisTripProgram::Options& options,
                       std::string& error)
{
    const uint32_t i = program.chip;
    Ptr<PyxisChip> chip = PyxisChipHelper().Create(i);
    chip->Build();
    PyxisTripProgram::VoqMap voq;
    if (explicitApi)
    {
        Ptr<PyxisFabricBinding> b = CreateObject<PyxisFabricBinding>();
        b->Bind(chip, DynamicCast<CellFabricAdapter>(endpoints[i]));
        voq = [b](uint32_t c, uint32_t k, uint32_t oq) { return b->GetVoq(c, k, oq); };
        m_bindings.push_back(b);
    }
    else
    {
        Ptr<PyxisEndpointBinding> b = CreateObject<PyxisEndpointBinding>();
        b->Bind(chip, endpoints[i], accelerators);
        voq = [b](uint32_t c, uint32_t k, uint32_t oq) { return b->GetVoq(c, k, oq); };
        m_endpointBindings.push_back(b);
    }
    m_programs.emplace_back();
    if (!m_programs.back().Build(program, chip, voq, options, error))
    {
        return false;
    }
    const auto& trips = m_programs.back().GetTrips();
    for (std::size_t id = 1; id < trips.size(); ++id) // entry 0 is unused
    {
        m_timedTrips += trips[id].kind != PyxisTripProgram::NOOP ? 1 : 0;
    }
    m_recorder.Watch(chip, &m_programs.back());
    return true;
}

PyxisRunner::Summary
PyxisRunner::Collect() const
{
    Summary s;
    s.chips = m_bindings.size() + m_endpointBindings.size();
    s.layers = m_layers;
    s.trips = m_recorder.GetTrips().size();
    for (const auto& b : m_bindings)
    {
        s.jobs += b->GetStats().txCompleted;
        s.open += b->GetOpenJobs();
        s.txBytes += b->GetStats().txBytes;
        s.rxBytes += b->GetStats().rxBytes;
    }
    for (const auto& b : m_endpointBindings)
    {
        s.early += b->GetStats().early;
        s.jobs += b->GetStats().txCompleted;
        s.open += b->GetOpenJobs();
        s.txBytes += b->GetStats().txBytes;
        s.rxBytes += b->GetStats().rxBytes;
    }
    for (const auto& t : m_recorder.GetTrips())
    {
        s.endNs = std::max(s.endNs, t.endNs);
    }
    s.complete = s.open == 0 && s.trips == m_timedTrips;
    return s;
}

const PyxisTimelineRecorder&
PyxisRunner::GetRecorder() const
{
    return m_recorder;
}

double
PyxisRunner::GetProgress() const
{
    if (m_timedTrips == 0)
    {
        return 1.0;
    }
    return std::min(1.0,
                    static_cast<double>(m_recorder.GetTrips().size()) /
                        static_cast<double>(m_timedTrips));
}

bool
PyxisRunner::WriteTables(const std::string& path, bool truncate) const
{
    hid_t file = truncate ? H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT)
                          : H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    if (file < 0)
    {
        return false;
    }
    hid_t top = H5Gcreate2(file, "pyxis", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (top < 0)
    {
        H5Fclose(file);
        return false;
    }
    hid_t trips = H5Gcreate2(top, "trips", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    const auto& t = m_recorder.GetTrips();
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
    const auto rows = m_recorder.GetLayers();
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

} // namespace ns3
