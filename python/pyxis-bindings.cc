/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup pyxis
 * The `podsim.pyxis` submodule of the `_podsim` extension: the closed-form UIE kernel model
 * (ns3::PyxisUieModel, src/pyxis/doc/pyxis.rst) from Python, one shape at a time (dicts) or
 * batches of shapes (numpy arrays in, numpy arrays out).
 */

#include "pyxis-bindings.h"

#include "ns3/pyxis-uie-model.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <string>

namespace py = pybind11;

namespace
{

/**
 * Bytes per element of a data type name.
 * \param name "fp8" or "fp16" (case-insensitive); None gives \p fallback
 * \param field the argument, for the error message
 * \param fallback bytes when name is None
 * \return 1 or 2
 */
uint32_t
DtypeBytes(const py::object& name, const char* field, uint32_t fallback)
{
    if (name.is_none())
    {
        return fallback;
    }
    std::string s = py::str(name);
    for (auto& c : s)
    {
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    if (s == "fp8")
    {
        return 1;
    }
    if (s == "fp16")
    {
        return 2;
    }
    throw py::value_error(std::string(field) + " = '" + s + "': must be 'fp8' or 'fp16'");
}

/**
 * \param name "never", "auto" or "always"
 * \return the policy
 */
ns3::PyxisSplitK
SplitK(const std::string& name)
{
    if (name == "never")
    {
        return ns3::PyxisSplitK::NEVER;
    }
    if (name == "auto")
    {
        return ns3::PyxisSplitK::AUTO;
    }
    if (name == "always")
    {
        return ns3::PyxisSplitK::ALWAYS;
    }
    throw py::value_error("split_k = '" + name + "': must be 'never', 'auto' or 'always'");
}

/**
 * The parameters as a dict (snake_case keys).
 * \param p the parameters
 * \return the dict
 */
py::dict
ParamsToDict(const ns3::PyxisUieParams& p)
{
    py::dict d;
    d["clock_hz"] = p.clockHz;
    d["clusters"] = p.clusters;
    d["uies_per_cluster"] = p.uiesPerCluster;
    d["grid_rows"] = p.gridRows;
    d["grid_cols"] = p.gridCols;
    d["fill_cycles"] = p.fillCycles;
    d["drain_commit_cycles"] = p.drainCommitCycles;
    d["launch_cycles"] = p.launchCycles;
    d["hbm_bytes_per_second"] = p.hbmBytesPerSecond;
    d["amem_bytes_per_cluster"] = p.amemBytesPerCluster;
    d["amem_port_bytes_per_cycle"] = p.amemPortBytesPerCycle;
    d["amem_read_ports"] = p.amemReadPorts;
    d["amem_write_ports"] = p.amemWritePorts;
    d["conv_rows_per_group"] = p.convRowsPerGroup;
    d["conv_cycles_per_group"] = p.convCyclesPerGroup;
    d["conv_tile_step"] = p.convTileStep;
    d["vpu_lanes"] = p.vpuLanes;
    d["split_k_min_gain"] = p.splitKMinGain;
    return d;
}

/**
 * A model from a dict of parameter overrides (keys as ParamsToDict writes them).
 * \param params None or a dict
 * \return the model (std::invalid_argument -> ValueError for bad values)
 */
ns3::PyxisUieModel
MakeModel(const py::object& params)
{
    ns3::PyxisUieParams p;
    if (params.is_none())
    {
        return ns3::PyxisUieModel(p);
    }
    const py::dict known = ParamsToDict(p);
    for (const auto& item : py::dict(params))
    {
        const std::string key = py::str(item.first);
        const py::handle v = item.second;
        if (!known.contains(key))
        {
            throw py::value_error("params: unknown key '" + key +
                                  "' (podsim.pyxis.params() lists them)");
        }
        if (key == "clock_hz")
        {
            p.clockHz = v.cast<double>();
        }
        else if (key == "hbm_bytes_per_second")
        {
            p.hbmBytesPerSecond = v.cast<double>();
        }
        else if (key == "split_k_min_gain")
        {
            p.splitKMinGain = v.cast<double>();
        }
        else if (key == "amem_bytes_per_cluster")
        {
            p.amemBytesPerCluster = v.cast<uint64_t>();
        }
        else
        {
            const uint32_t u = v.cast<uint32_t>();
            if (key == "clusters")
            {
                p.clusters = u;
            }
            else if (key == "uies_per_cluster")
            {
                p.uiesPerCluster = u;
            }
            else if (key == "grid_rows")
            {
                p.gridRows = u;
            }
            else if (key == "grid_cols")
            {
                p.gridCols = u;
            }
            else if (key == "fill_cycles")
            {
                p.fillCycles = u;
            }
            else if (key == "drain_commit_cycles")
            {
                p.drainCommitCycles = u;
            }
            else if (key == "launch_cycles")
            {
                p.launchCycles = u;
            }
            else if (key == "amem_port_bytes_per_cycle")
            {
                p.amemPortBytesPerCycle = u;
            }
            else if (key == "amem_read_ports")
            {
                p.amemReadPorts = u;
            }
            else if (key == "amem_write_ports")
            {
                p.amemWritePorts = u;
            }
            else if (key == "conv_rows_per_group")
            {
                p.convRowsPerGroup = u;
            }
            else if (key == "conv_cycles_per_group")
            {
                p.convCyclesPerGroup = u;
            }
            else if (key == "conv_tile_step")
            {
                p.convTileStep = u;
            }
            else if (key == "vpu_lanes")
            {
                p.vpuLanes = u;
            }
        }
    }
    return ns3::PyxisUieModel(p);
}

/**
 * A breakdown as a dict.
 * \param b the breakdown
 * \return the dict
 */
py::dict
ToDict(const ns3::PyxisKernelBreakdown& b)
{
    py::dict d;
    d["op"] = ns3::PyxisUieModel::OpName(b.op);
    d["uies"] = b.uies;
    d["clusters_used"] = b.clustersUsed;
    d["tiles"] = b.tiles;
    d["tiles_per_uie"] = b.tilesPerUie;
    d["compute_cycles_per_tile"] = b.computeCyclesPerTile;
    d["writeback_cycles_per_tile"] = b.writebackCyclesPerTile;
    d["tile_cycles"] = b.tileCycles;
    d["split_k"] = b.splitK;
    d["loop_cycles"] = b.loopCycles;
    d["amem_cycles"] = b.amemCycles;
    d["hbm_cycles"] = b.hbmCycles;
    d["bound_cycles"] = b.boundCycles;
    d["fill_cycles"] = b.fillCycles;
    d["drain_cycles"] = b.drainCycles;
    d["total_cycles"] = b.totalCycles;
    d["bound_seconds"] = b.boundSeconds;
    d["total_seconds"] = b.totalSeconds;
    d["bound"] = ns3::PyxisUieModel::BoundName(b.bound);
    d["flops"] = b.flops;
    d["hbm_bytes"] = b.hbmBytes;
    d["amem_bytes_per_cluster"] = b.amemBytesPerCluster;
    d["fits_in_amem"] = b.fitsInAmem;
    return d;
}

/**
 * A numpy array copied from an Eigen array.
 * \param a the array
 * \return the numpy array
 */
template <typename T>
py::array_t<T>
ToNumpy(const Eigen::Array<T, Eigen::Dynamic, 1>& a)
{
    py::array_t<T> out(static_cast<py::ssize_t>(a.size()));
    std::copy(a.data(), a.data() + a.size(), out.mutable_data());
    return out;
}

/// A 1-D float64 numpy array argument (any numeric input is converted).
using InArray = py::array_t<double, py::array::c_style | py::array::forcecast>;

/**
 * An Eigen copy of a 1-D array argument.
 * \param a the argument
 * \param field its name
 * \return the Eigen array
 */
Eigen::ArrayXd
FromNumpy(const InArray& a, const char* field)
{
    if (a.ndim() != 1)
    {
        throw py::value_error(std::string(field) + ": must be a 1-D array");
    }
    return Eigen::Map<const Eigen::ArrayXd>(a.data(), a.shape(0));
}

/**
 * A batch result as a dict of numpy arrays; "bound" as str names.
 * \param r the result
 * \return the dict
 */
py::dict
ToDict(const ns3::PyxisBatchResult& r)
{
    py::dict d;
    d["tiles"] = ToNumpy(r.tiles);
    d["tiles_per_uie"] = ToNumpy(r.tilesPerUie);
    d["loop_cycles"] = ToNumpy(r.loopCycles);
    d["amem_cycles"] = ToNumpy(r.amemCycles);
    d["hbm_cycles"] = ToNumpy(r.hbmCycles);
    d["bound_cycles"] = ToNumpy(r.boundCycles);
    d["total_cycles"] = ToNumpy(r.totalCycles);
    d["total_seconds"] = ToNumpy(r.totalSeconds);
    d["flops"] = ToNumpy(r.flops);
    Eigen::Array<bool, Eigen::Dynamic, 1> split = r.splitK != 0;
    py::array_t<bool> s(static_cast<py::ssize_t>(split.size()));
    std::copy(split.data(), split.data() + split.size(), s.mutable_data());
    d["split_k"] = s;
    py::list names;
    for (Eigen::Index i = 0; i < r.bound.size(); ++i)
    {
        names.append(ns3::PyxisUieModel::BoundName(static_cast<ns3::PyxisBound>(r.bound[i])));
    }
    d["bound"] = py::module_::import("numpy").attr("array")(names);
    return d;
}

/**
 * The GEMM options shared by gemm() and gemm_batch().
 * \return the shape with m, n, k left at their defaults
 */
ns3::PyxisGemmShape
GemmOptions(const std::string& dtype,
            const py::object& aDtype,
            const py::object& bDtype,
            const py::object& outDtype,
            bool aTransposed,
            bool aInHbm,
            bool bInHbm,
            bool outToHbm,
            uint32_t compressionBlock,
            const std::string& splitK)
{
    const uint32_t all = DtypeBytes(py::str(dtype), "dtype", 1);
    ns3::PyxisGemmShape g;
    g.aBytes = DtypeBytes(aDtype, "a_dtype", all);
    g.bBytes = DtypeBytes(bDtype, "b_dtype", all);
    g.outBytes = DtypeBytes(outDtype, "out_dtype", all);
    g.aTransposed = aTransposed;
    g.aInHbm = aInHbm;
    g.bInHbm = bInHbm;
    g.outToHbm = outToHbm;
    g.compressionBlock = compressionBlock;
    g.splitK = SplitK(splitK);
    return g;
}

/**
 * The 3x3 options shared by conv3x3() and conv3x3_batch().
 * \return the shape with h, w, cin, cout left at their defaults
 */
ns3::PyxisConvShape
ConvOptions(uint32_t stride,
            const std::string& dtype,
            const py::object& outDtype,
            bool weightsInHbm,
            bool inInHbm,
            bool outToHbm)
{
    ns3::PyxisConvShape c;
    c.stride = stride;
    c.inBytes = DtypeBytes(py::str(dtype), "dtype", 1);
    c.outBytes = DtypeBytes(outDtype, "out_dtype", c.inBytes);
    c.weightsInHbm = weightsInHbm;
    c.inInHbm = inInHbm;
    c.outToHbm = outToHbm;
    return c;
}

/**
 * Bind gemm() and linear(): one GEMM shape, or a linear layer as its GEMM.
 * \param m the podsim.pyxis submodule
 */
void
RegisterGemmKernels(py::module_& m)
{
    m.def(
        "gemm",
        [](uint64_t mm,
           uint64_t n,
           uint64_t k,
           const std::string& dtype,
           const py::object& aDtype,
           const py::object& bDtype,
           const py::object& outDtype,
           uint32_t uies,
           bool aTransposed,
           bool aInHbm,
           bool bInHbm,
           bool outToHbm,
           uint32_t compressionBlock,
           const std::string& splitK,
           const py::object& params) {
            ns3::PyxisGemmShape g = GemmOptions(dtype,
                                                aDtype,
                                                bDtype,
                                                outDtype,
                                                aTransposed,
                                                aInHbm,
                                                bInHbm,
                                                outToHbm,
                                                compressionBlock,
                                                splitK);
            g.m = mm;
            g.n = n;
            g.k = k;
            return ToDict(MakeModel(params).Gemm(g, uies));
        },
        py::arg("m"),
        py::arg("n"),
        py::arg("k"),
        py::arg("dtype") = "fp8",
        py::arg("a_dtype") = py::none(),
        py::arg("b_dtype") = py::none(),
        py::arg("out_dtype") = py::none(),
        py::arg("uies") = 1,
        py::arg("a_transposed") = false,
        py::arg("a_in_hbm") = false,
        py::arg("b_in_hbm") = false,
        py::arg("out_to_hbm") = false,
        py::arg("compression_block") = 0,
        py::arg("split_k") = "auto",
        py::arg("params") = py::none(),
        "C[m x n] = A[m x k] B[k x n] on `uies` UIEs; returns the breakdown dict.");

    m.def(
        "linear",
        [](uint64_t cout,
           uint64_t cin,
           uint64_t tokens,
           const std::string& dtype,
           uint32_t uies,
           bool weightsInHbm,
           uint32_t compressionBlock,
           const std::string& splitK,
           const py::object& params) {
            ns3::PyxisGemmShape g =
                ns3::PyxisGemmShape::Linear(cout,
                                            cin,
                                            tokens,
                                            DtypeBytes(py::str(dtype), "dtype", 1),
                                            weightsInHbm);
            g.compressionBlock = compressionBlock;
            g.splitK = SplitK(splitK);
            return ToDict(MakeModel(params).Gemm(g, uies));
        },
        py::arg("cout"),
        py::arg("cin"),
        py::arg("tokens") = 1,
        py::arg("dtype") = "fp8",
        py::arg("uies") = 1,
        py::arg("weights_in_hbm") = false,
        py::arg("compression_block") = 0,
        py::arg("split_k") = "auto",
        py::arg("params") = py::none(),
        "Linear layer (or 1x1 convolution, tokens = H x W): the GEMM M = cout, K = cin, "
        "N = tokens with the weights read at any cin.");
}

/**
 * Bind conv3x3(): one 3x3 convolution shape.
 * \param m the podsim.pyxis submodule
 */
void
RegisterConvKernel(py::module_& m)
{
    m.def(
        "conv3x3",
        [](uint64_t h,
           uint64_t w,
           uint64_t cin,
           uint64_t cout,
           uint32_t stride,
           const std::string& dtype,
           const py::object& outDtype,
           uint32_t uies,
           bool weightsInHbm,
           bool inInHbm,
           bool outToHbm,
           const py::object& params) {
            ns3::PyxisConvShape c =
                ConvOptions(stride, dtype, outDtype, weightsInHbm, inInHbm, outToHbm);
            c.h = h;
            c.w = w;
            c.cin = cin;
            c.cout = cout;
            return ToDict(MakeModel(params).Conv3x3(c, uies));
        },
        py::arg("h"),
        py::arg("w"),
        py::arg("cin"),
        py::arg("cout"),
        py::arg("stride") = 1,
        py::arg("dtype") = "fp8",
        py::arg("out_dtype") = py::none(),
        py::arg("uies") = 1,
        py::arg("weights_in_hbm") = false,
        py::arg("in_in_hbm") = false,
        py::arg("out_to_hbm") = false,
        py::arg("params") = py::none(),
        "3x3 convolution of an h x w x cin input to cout channels (8-bit kernels).");
}

/**
 * Bind vpu() and transpose(): the VPU element-wise and transpose kernels.
 * \param m the podsim.pyxis submodule
 */
void
RegisterVectorKernels(py::module_& m)
{
    m.def(
        "vpu",
        [](uint64_t elements,
           uint32_t instructions,
           const std::string& inDtype,
           const py::object& outDtype,
           uint32_t uies,
           bool inInHbm,
           bool outToHbm,
           const py::object& params) {
            const uint32_t in = DtypeBytes(py::str(inDtype), "in_dtype", 1);
            const uint32_t out = DtypeBytes(outDtype, "out_dtype", in);
            return ToDict(
                MakeModel(params).Vpu(elements, instructions, in, out, uies, inInHbm, outToHbm));
        },
        py::arg("elements"),
        py::arg("instructions") = 1,
        py::arg("in_dtype") = "fp8",
        py::arg("out_dtype") = py::none(),
        py::arg("uies") = 1,
        py::arg("in_in_hbm") = false,
        py::arg("out_to_hbm") = false,
        py::arg("params") = py::none(),
        "VPU element-wise operation: `instructions` per element, rows of 128 elements.");

    m.def(
        "transpose",
        [](uint64_t rows,
           uint64_t cols,
           const std::string& dtype,
           uint32_t uies,
           const py::object& params) {
            return ToDict(MakeModel(params).Transpose(rows,
                                                      cols,
                                                      DtypeBytes(py::str(dtype), "dtype", 1),
                                                      uies));
        },
        py::arg("rows"),
        py::arg("cols"),
        py::arg("dtype") = "fp8",
        py::arg("uies") = 1,
        py::arg("params") = py::none(),
        "Transpose of a rows x cols matrix through A^T I, 128 x 128 tiles.");
}

/**
 * Bind gemm_batch() and conv3x3_batch(): the GEMM and 3x3 convolution over numpy arrays
 * of shapes.
 * \param m the podsim.pyxis submodule
 */
void
RegisterBatchKernels(py::module_& m)
{
    m.def(
        "gemm_batch",
        [](const InArray& mm,
           const InArray& n,
           const InArray& k,
           const std::string& dtype,
           const py::object& aDtype,
           const py::object& bDtype,
           const py::object& outDtype,
           uint32_t uies,
           bool aTransposed,
           bool aInHbm,
           bool bInHbm,
           bool outToHbm,
           uint32_t compressionBlock,
           const std::string& splitK,
           const py::object& params) {
            const ns3::PyxisGemmShape g = GemmOptions(dtype,
                                                      aDtype,
                                                      bDtype,
                                                      outDtype,
                                                      aTransposed,
                                                      aInHbm,
                                                      bInHbm,
                                                      outToHbm,
                                                      compressionBlock,
                                                      splitK);
            return ToDict(MakeModel(params).GemmBatch(FromNumpy(mm, "m"),
                                                      FromNumpy(n, "n"),
                                                      FromNumpy(k, "k"),
                                                      g,
                                                      uies));
        },
        py::arg("m"),
        py::arg("n"),
        py::arg("k"),
        py::arg("dtype") = "fp8",
        py::arg("a_dtype") = py::none(),
        py::arg("b_dtype") = py::none(),
        py::arg("out_dtype") = py::none(),
        py::arg("uies") = 1,
        py::arg("a_transposed") = false,
        py::arg("a_in_hbm") = false,
        py::arg("b_in_hbm") = false,
        py::arg("out_to_hbm") = false,
        py::arg("compression_block") = 0,
        py::arg("split_k") = "auto",
        py::arg("params") = py::none(),
        "gemm() over 1-D arrays m, n, k (one GEMM per element, vectorised with Eigen); returns "
        "a dict of numpy arrays.");

    m.def(
        "conv3x3_batch",
        [](const InArray& h,
           const InArray& w,
           const InArray& cin,
           const InArray& cout,
           uint32_t stride,
           const std::string& dtype,
           const py::object& outDtype,
           uint32_t uies,
           bool weightsInHbm,
           bool inInHbm,
           bool outToHbm,
           const py::object& params) {
            const ns3::PyxisConvShape c =
                ConvOptions(stride, dtype, outDtype, weightsInHbm, inInHbm, outToHbm);
            return ToDict(MakeModel(params).Conv3x3Batch(FromNumpy(h, "h"),
                                                         FromNumpy(w, "w"),
                                                         FromNumpy(cin, "cin"),
                                                         FromNumpy(cout, "cout"),
                                                         c,
                                                         uies));
        },
        py::arg("h"),
        py::arg("w"),
        py::arg("cin"),
        py::arg("cout"),
        py::arg("stride") = 1,
        py::arg("dtype") = "fp8",
        py::arg("out_dtype") = py::none(),
        py::arg("uies") = 1,
        py::arg("weights_in_hbm") = false,
        py::arg("in_in_hbm") = false,
        py::arg("out_to_hbm") = false,
        py::arg("params") = py::none(),
        "conv3x3() over 1-D arrays h, w, cin, cout; returns a dict of numpy arrays.");
}

} // namespace

void
RegisterPyxis(py::module_& parent)
{
    py::module_ m = parent.def_submodule(
        "pyxis",
        "Pyxis UIE kernel model (src/pyxis/doc/pyxis.rst): closed-form cycle counts of GEMM, "
        "linear, 3x3 convolution, VPU and transpose kernels. Cycles are UIE cycles; "
        "bound_cycles is the tile loop or roofline maximum, "
        "total_cycles adds T_fill and T_drain. dtype is 'fp8' or 'fp16'; params is a dict of "
        "overrides of params().");

    m.def(
        "params",
        []() { return ParamsToDict(ns3::PyxisUieParams()); },
        "The model's default parameters as a dict (the keys params= accepts).");

    RegisterGemmKernels(m);
    RegisterConvKernel(m);
    RegisterVectorKernels(m);
    RegisterBatchKernels(m);
}
