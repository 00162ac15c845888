/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup pyxis
 * Print the UIE timing breakdown of one layer shape (PyxisUieModel, Pyxis spec 6.1-6.4).
 *
 *     build/bin/pyxis-kernel-example --op=gemm --m=4096 --n=4096 --k=4096 --uies=48
 *     build/bin/pyxis-kernel-example --op=linear --m=8192 --k=8192 --n=1 --uies=48 --aInHbm=1
 *     build/bin/pyxis-kernel-example --op=conv3x3 --h=56 --w=56 --cin=64 --cout=64
 *     build/bin/pyxis-kernel-example --op=vpu --elements=1048576 --instructions=2 --uies=48
 *     build/bin/pyxis-kernel-example --op=transpose --m=1024 --n=512 --uies=4
 */

#include "ns3/command-line.h"
#include "ns3/picosecond-resolution.h"
#include "ns3/pyxis-uie-model.h"

#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <stdexcept>
#include <string>

using namespace ns3;

namespace
{

/**
 * Bytes per element of a data type name.
 * \param name "fp8" or "fp16"
 * \param what the option, for the message
 * \return 1 or 2
 */
uint32_t
Bytes(const std::string& name, const std::string& what)
{
    if (name == "fp8")
    {
        return 1;
    }
    if (name == "fp16")
    {
        return 2;
    }
    throw std::invalid_argument("--" + what + "=" + name + ": must be fp8 or fp16");
}

/// The command line's values.
struct Options
{
    std::string op = "gemm";       //!< gemm, linear, conv3x3, vpu or transpose
    uint64_t m = 128;              //!< GEMM rows
    uint64_t n = 128;              //!< GEMM columns
    uint64_t k = 4096;             //!< GEMM common dimension
    uint64_t h = 56;               //!< 3x3 input rows
    uint64_t w = 56;               //!< 3x3 input columns
    uint64_t cin = 64;             //!< 3x3 input channels
    uint64_t cout = 64;            //!< 3x3 output channels
    uint32_t stride = 1;           //!< 3x3 stride
    uint64_t elements = 128 * 128; //!< VPU elements
    uint32_t instructions = 1;     //!< VPU instructions per element
    std::string dtype = "fp8";     //!< every operand's type
    std::string aType;             //!< A / weights type
    std::string bType;             //!< B / input data type
    std::string outType;           //!< output type
    uint32_t uies = 1;             //!< UIEs used
    bool aTransposed = false;      //!< GEMM: A read transposed
    bool aInHbm = false;           //!< A / weights / VPU input from HBM
    bool bInHbm = false;           //!< B / 3x3 input from HBM
    bool outToHbm = false;         //!< output to HBM
    uint32_t block = 0;            //!< weight compression block
    std::string splitK = "auto";   //!< split-K policy
    double clockGhz = 1.33;        //!< UIE clock
};

/**
 * Read the command line.
 * \param argc argument count
 * \param argv arguments
 * \return the options
 */
Options
Parse(int argc, char** argv)
{
    Options o;
    CommandLine cmd(__FILE__);
    cmd.Usage("Print the Pyxis UIE timing breakdown of one kernel (doc/pyxis.rst).");
    cmd.AddValue("op", "gemm, linear, conv3x3, vpu or transpose", o.op);
    cmd.AddValue("m", "GEMM rows (linear: output channels; transpose: rows)", o.m);
    cmd.AddValue("n", "GEMM columns (linear: tokens; transpose: columns)", o.n);
    cmd.AddValue("k", "GEMM common dimension (linear: input channels)", o.k);
    cmd.AddValue("h", "3x3 input rows", o.h);
    cmd.AddValue("w", "3x3 input columns", o.w);
    cmd.AddValue("cin", "3x3 input channels", o.cin);
    cmd.AddValue("cout", "3x3 output channels", o.cout);
    cmd.AddValue("stride", "3x3 stride (1 or 2)", o.stride);
    cmd.AddValue("elements", "VPU elements", o.elements);
    cmd.AddValue("instructions", "VPU instructions per element", o.instructions);
    cmd.AddValue("dtype", "fp8 or fp16 for every operand", o.dtype);
    cmd.AddValue("aType", "fp8 or fp16 for A / weights (default: dtype)", o.aType);
    cmd.AddValue("bType", "fp8 or fp16 for B / input data (default: dtype)", o.bType);
    cmd.AddValue("outType", "fp8 or fp16 for the output (default: dtype)", o.outType);
    cmd.AddValue("uies", "UIEs used (1 to 48)", o.uies);
    cmd.AddValue("aTransposed", "GEMM: A read transposed (any K at full speed)", o.aTransposed);
    cmd.AddValue("aInHbm", "A / weights / VPU input streamed from HBM", o.aInHbm);
    cmd.AddValue("bInHbm", "B / 3x3 input streamed from HBM", o.bInHbm);
    cmd.AddValue("outToHbm", "output written to HBM", o.outToHbm);
    cmd.AddValue("block", "4-bit weight compression block (4, 8, 16, 32; 0: none)", o.block);
    cmd.AddValue("splitK", "never, auto or always", o.splitK);
    cmd.AddValue("clockGhz", "UIE clock, GHz", o.clockGhz);
    cmd.Parse(argc, argv);
    return o;
}

/// Bytes per element of the operands.
struct Types
{
    uint32_t all{1}; //!< dtype
    uint32_t a{1};   //!< A / weights
    uint32_t b{1};   //!< B / input data
    uint32_t out{1}; //!< output
};

/**
 * The operands' types, checked in the order dtype, aType, bType, outType.
 * \param o the options
 * \return their bytes per element
 */
Types
TypesOf(const Options& o)
{
    Types t;
    t.all = Bytes(o.dtype, "dtype");
    t.a = o.aType.empty() ? t.all : Bytes(o.aType, "aType");
    t.b = o.bType.empty() ? t.all : Bytes(o.bType, "bType");
    t.out = o.outType.empty() ? t.all : Bytes(o.outType, "outType");
    return t;
}

/**
 * The GEMM or linear shape of the options.
 * \param o the options
 * \param t the operands' types
 * \return the shape
 */
PyxisGemmShape
GemmShape(const Options& o, const Types& t)
{
    const uint32_t all = t.all;
    PyxisGemmShape g =
        o.op == "linear" ? PyxisGemmShape::Linear(o.m, o.k, o.n, all, o.aInHbm) : PyxisGemmShape();
    g.m = o.m;
    g.n = o.n;
    g.k = o.k;
    g.aBytes = t.a;
    g.bBytes = t.b;
    g.outBytes = t.out;
    g.aTransposed = g.aTransposed || o.aTransposed;
    g.aInHbm = o.aInHbm;
    g.bInHbm = o.bInHbm;
    g.outToHbm = o.outToHbm;
    g.compressionBlock = o.block;
    if (o.splitK == "never")
    {
        g.splitK = PyxisSplitK::NEVER;
    }
    else if (o.splitK == "always")
    {
        g.splitK = PyxisSplitK::ALWAYS;
    }
    else if (o.splitK != "auto")
    {
        throw std::invalid_argument("--splitK=" + o.splitK + ": must be never, auto or always");
    }
    return g;
}

/**
 * The 3x3 convolution shape of the options.
 * \param o the options
 * \param t the operands' types
 * \return the shape
 */
PyxisConvShape
ConvShape(const Options& o, const Types& t)
{
    PyxisConvShape c;
    c.h = o.h;
    c.w = o.w;
    c.cin = o.cin;
    c.cout = o.cout;
    c.stride = o.stride;
    c.inBytes = t.b;
    c.weightBytes = o.aType.empty() ? 1 : t.a;
    c.outBytes = t.out;
    c.weightsInHbm = o.aInHbm;
    c.inInHbm = o.bInHbm;
    c.outToHbm = o.outToHbm;
    return c;
}

/**
 * The breakdown of the options' kernel.
 * \param o the options
 * \return the breakdown
 */
PyxisKernelBreakdown
Kernel(const Options& o)
{
    const Types t = TypesOf(o);
    PyxisUieParams params;
    params.clockHz = o.clockGhz * 1e9;
    PyxisUieModel model(params);
    if (o.op == "gemm" || o.op == "linear")
    {
        return model.Gemm(GemmShape(o, t), o.uies);
    }
    if (o.op == "conv3x3")
    {
        return model.Conv3x3(ConvShape(o, t), o.uies);
    }
    if (o.op == "vpu")
    {
        return model.Vpu(o.elements, o.instructions, t.b, t.out, o.uies, o.aInHbm, o.outToHbm);
    }
    if (o.op == "transpose")
    {
        return model.Transpose(o.m, o.n, t.all, o.uies);
    }
    throw std::invalid_argument("--op=" + o.op +
                                ": must be gemm, linear, conv3x3, vpu or transpose");
}

/**
 * Print a breakdown.
 * \param b the breakdown
 */
void
Print(const PyxisKernelBreakdown& b)
{
    std::cout << std::fixed;
    std::cout << "op                 " << PyxisUieModel::OpName(b.op) << "\n"
              << "uies               " << b.uies << " (" << b.clustersUsed << " clusters)\n"
              << "tiles              " << b.tiles << "\n"
              << "tiles per UIE      " << std::setprecision(2) << b.tilesPerUie << "\n"
              << "compute/tile       " << b.computeCyclesPerTile << " cycles\n"
              << "writeback/tile     " << b.writebackCyclesPerTile << " cycles\n"
              << "split-K            " << (b.splitK ? "yes" : "no") << "\n"
              << "loop               " << b.loopCycles << " cycles\n"
              << "AMEM port          " << b.amemCycles << " cycles\n"
              << "HBM                " << b.hbmCycles << " cycles (" << b.hbmBytes << " B)\n"
              << "bound              " << b.boundCycles << " cycles = " << std::setprecision(3)
              << b.boundSeconds * 1e6 << " us (" << PyxisUieModel::BoundName(b.bound) << ")\n"
              << "fill + drain       " << b.fillCycles << " + " << b.drainCycles << " cycles\n"
              << "total              " << b.totalCycles << " cycles = " << b.totalSeconds * 1e6
              << " us\n"
              << "FLOPs              " << std::setprecision(0) << b.flops << " ("
              << std::setprecision(1)
              << (b.boundSeconds > 0 ? b.flops / b.boundSeconds / 1e12 : 0.0)
              << " TFLOPS at the bound)\n"
              << "AMEM per cluster   " << b.amemBytesPerCluster << " B"
              << (b.fitsInAmem ? "" : " (does not fit)") << "\n";
}

} // namespace

int
main(int argc, char** argv)
{
    // podsim runs at picosecond resolution (DESIGN.md rule 4): set before any Time is made.
    EnsurePicosecondResolution();
    const Options o = Parse(argc, argv);
    try
    {
        Print(Kernel(o));
    }
    catch (const std::invalid_argument& e)
    {
        std::cerr << "pyxis-kernel-example: " << e.what() << "\n";
        return EXIT_FAILURE;
    }
    return EXIT_SUCCESS;
}
