/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup pyxis
 * Print the UIE timing breakdown of one layer shape (PyxisUieModel, pyxis digest 2.5).
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

} // namespace

int
main(int argc, char** argv)
{
    // podsim runs at picosecond resolution (DESIGN.md rule 4): set before any Time is made.
    EnsurePicosecondResolution();

    std::string op = "gemm";
    uint64_t m = 128;
    uint64_t n = 128;
    uint64_t k = 4096;
    uint64_t h = 56;
    uint64_t w = 56;
    uint64_t cin = 64;
    uint64_t cout = 64;
    uint32_t stride = 1;
    uint64_t elements = 128 * 128;
    uint32_t instructions = 1;
    std::string dtype = "fp8";
    std::string aType;
    std::string bType;
    std::string outType;
    uint32_t uies = 1;
    bool aTransposed = false;
    bool aInHbm = false;
    bool bInHbm = false;
    bool outToHbm = false;
    uint32_t block = 0;
    std::string splitK = "auto";
    double clockGhz = 1.33;

    CommandLine cmd(__FILE__);
    cmd.Usage("Print the Pyxis UIE timing breakdown of one kernel (doc/pyxis.rst).");
    cmd.AddValue("op", "gemm, linear, conv3x3, vpu or transpose", op);
    cmd.AddValue("m", "GEMM rows (linear: output channels; transpose: rows)", m);
    cmd.AddValue("n", "GEMM columns (linear: tokens; transpose: columns)", n);
    cmd.AddValue("k", "GEMM common dimension (linear: input channels)", k);
    cmd.AddValue("h", "3x3 input rows", h);
    cmd.AddValue("w", "3x3 input columns", w);
    cmd.AddValue("cin", "3x3 input channels", cin);
    cmd.AddValue("cout", "3x3 output channels", cout);
    cmd.AddValue("stride", "3x3 stride (1 or 2)", stride);
    cmd.AddValue("elements", "VPU elements", elements);
    cmd.AddValue("instructions", "VPU instructions per element", instructions);
    cmd.AddValue("dtype", "fp8 or fp16 for every operand", dtype);
    cmd.AddValue("aType", "fp8 or fp16 for A / weights (default: dtype)", aType);
    cmd.AddValue("bType", "fp8 or fp16 for B / input data (default: dtype)", bType);
    cmd.AddValue("outType", "fp8 or fp16 for the output (default: dtype)", outType);
    cmd.AddValue("uies", "UIEs used (1 to 48)", uies);
    cmd.AddValue("aTransposed", "GEMM: A read transposed (any K at full speed)", aTransposed);
    cmd.AddValue("aInHbm", "A / weights / VPU input streamed from HBM", aInHbm);
    cmd.AddValue("bInHbm", "B / 3x3 input streamed from HBM", bInHbm);
    cmd.AddValue("outToHbm", "output written to HBM", outToHbm);
    cmd.AddValue("block", "4-bit weight compression block (4, 8, 16, 32; 0: none)", block);
    cmd.AddValue("splitK", "never, auto or always", splitK);
    cmd.AddValue("clockGhz", "UIE clock, GHz", clockGhz);
    cmd.Parse(argc, argv);

    try
    {
        const uint32_t all = Bytes(dtype, "dtype");
        const uint32_t aBytes = aType.empty() ? all : Bytes(aType, "aType");
        const uint32_t bBytes = bType.empty() ? all : Bytes(bType, "bType");
        const uint32_t outBytes = outType.empty() ? all : Bytes(outType, "outType");
        PyxisUieParams params;
        params.clockHz = clockGhz * 1e9;
        PyxisUieModel model(params);

        PyxisKernelBreakdown b;
        if (op == "gemm" || op == "linear")
        {
            PyxisGemmShape g =
                op == "linear" ? PyxisGemmShape::Linear(m, k, n, all, aInHbm) : PyxisGemmShape();
            g.m = m;
            g.n = n;
            g.k = k;
            g.aBytes = aBytes;
            g.bBytes = bBytes;
            g.outBytes = outBytes;
            g.aTransposed = g.aTransposed || aTransposed;
            g.aInHbm = aInHbm;
            g.bInHbm = bInHbm;
            g.outToHbm = outToHbm;
            g.compressionBlock = block;
            if (splitK == "never")
            {
                g.splitK = PyxisSplitK::NEVER;
            }
            else if (splitK == "always")
            {
                g.splitK = PyxisSplitK::ALWAYS;
            }
            else if (splitK != "auto")
            {
                throw std::invalid_argument("--splitK=" + splitK +
                                            ": must be never, auto or always");
            }
            b = model.Gemm(g, uies);
        }
        else if (op == "conv3x3")
        {
            PyxisConvShape c;
            c.h = h;
            c.w = w;
            c.cin = cin;
            c.cout = cout;
            c.stride = stride;
            c.inBytes = bBytes;
            c.weightBytes = aType.empty() ? 1 : aBytes;
            c.outBytes = outBytes;
            c.weightsInHbm = aInHbm;
            c.inInHbm = bInHbm;
            c.outToHbm = outToHbm;
            b = model.Conv3x3(c, uies);
        }
        else if (op == "vpu")
        {
            b = model.Vpu(elements, instructions, bBytes, outBytes, uies, aInHbm, outToHbm);
        }
        else if (op == "transpose")
        {
            b = model.Transpose(m, n, all, uies);
        }
        else
        {
            throw std::invalid_argument("--op=" + op +
                                        ": must be gemm, linear, conv3x3, vpu or transpose");
        }

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
    catch (const std::invalid_argument& e)
    {
        std::cerr << "pyxis-kernel-example: " << e.what() << "\n";
        return EXIT_FAILURE;
    }
    return EXIT_SUCCESS;
}
