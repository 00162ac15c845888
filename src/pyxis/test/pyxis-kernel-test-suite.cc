/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Tests of the closed-form UIE kernel model (PyxisUieModel). Expected values come from the Pyxis
// spec's sections 1, 6 (6.1.1-6.1.4, 6.3, 6.4), 8 and 14, each derived in the comment next to it
// and, from the spec's own sections, in pyxis.rst (Validation, "Expected values from the spec").
// Two figures are checked for each worked example:
// - boundCycles: the tile loop (or the roofline maximum), without fill and drain;
// - totalCycles = boundCycles + T_fill + T_drain, with T_fill = 40 and T_drain = 128 b_out + 100
//   (the model's assumptions, pyxis.rst "Scope and Limitations"): 268 cycles for an FP8
//   output, 396 for FP16.

#include "ns3/picosecond-test-suite.h"
#include "ns3/pyxis-uie-model.h"
#include "ns3/test.h"

#include <cmath>
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

constexpr double CLOCK = 1.33e9;       //!< the spec's clock (section 1), Hz
constexpr uint64_t FILL_DRAIN8 = 268;  //!< 40 + (128 * 1 + 100)
constexpr uint64_t FILL_DRAIN16 = 396; //!< 40 + (128 * 2 + 100)

} // namespace

/**
 * \ingroup pyxis
 * One 128 x 128 x 4096 GEMM tile on one UIE, FP8, FP16, mixed; K = 64 (pyxis.rst,
 * Validation, "GEMM tile").
 */
class PyxisGemmTileTest : public TestCase
{
  public:
    PyxisGemmTileTest()
        : TestCase("GEMM tile 128x128x4096 - FP8 4096, FP16 and mixed 8192, K 64 write-back bound")
    {
    }

  private:
    void DoRun() override
    {
        PyxisUieModel model;
        PyxisGemmShape g;
        g.m = 128;
        g.n = 128;
        g.k = 4096;
        // FP8: s = 1, T_tile = max(1 * 4096, 128 * 1) = 4096 cycles = 4096 / 1.33 GHz = 3.080 us.
        PyxisKernelBreakdown b = model.Gemm(g, 1);
        NS_TEST_ASSERT_MSG_EQ(b.tiles, 1, "one 128x128 output tile");
        NS_TEST_ASSERT_MSG_EQ(b.loopCycles, 4096, "FP8 tile: s K = 4096");
        NS_TEST_ASSERT_MSG_EQ(b.boundCycles, 4096, "nothing streams from HBM");
        NS_TEST_ASSERT_MSG_EQ(b.totalCycles, 4096 + FILL_DRAIN8, "4096 + 40 + 228");
        NS_TEST_ASSERT_MSG_EQ_TOL(b.boundSeconds, 3.08e-6, 0.005e-6, "3.08 us");
        NS_TEST_ASSERT_MSG_EQ(PyxisUieModel::BoundName(b.bound), "compute", "compute-bound");
        NS_TEST_ASSERT_MSG_EQ_TOL(b.flops, 2.0 * 128 * 128 * 4096, 0.5, "2 M N K");
        // FP16 (all operands and output): s = 2, max(2 * 4096, 128 * 2) = 8192.
        g.aBytes = g.bBytes = g.outBytes = 2;
        b = model.Gemm(g, 1);
        NS_TEST_ASSERT_MSG_EQ(b.boundCycles, 8192, "FP16: 2 K");
        NS_TEST_ASSERT_MSG_EQ(b.totalCycles, 8192 + FILL_DRAIN16, "8192 + 40 + 356");
        // Mixed 8b x 16b (FP8 weights, FP16 data, FP8 out): any 16-bit operand -> s = 2 (6.3.1).
        g.aBytes = 1;
        g.bBytes = 2;
        g.outBytes = 1;
        b = model.Gemm(g, 1);
        NS_TEST_ASSERT_MSG_EQ(b.boundCycles, 8192, "mixed: 2 K");
        NS_TEST_ASSERT_MSG_EQ(b.totalCycles, 8192 + FILL_DRAIN8, "8192 + 268");
        // K = 64, A transposed (K_eff = K): max(64, 128) = 128, write-back bound.
        g = PyxisGemmShape();
        g.k = 64;
        g.aTransposed = true;
        b = model.Gemm(g, 1);
        NS_TEST_ASSERT_MSG_EQ(b.boundCycles, 128, "K 64: max(64, 128)");
        NS_TEST_ASSERT_MSG_EQ(PyxisUieModel::BoundName(b.bound), "writeback", "write-back bound");
        NS_TEST_ASSERT_MSG_EQ(b.totalCycles, 128 + FILL_DRAIN8, "128 + 268");
        // Row-shifted A rounds K up to 128 (6.1.3 step 4): max(128, 128) = 128, a tie (compute).
        g.aTransposed = false;
        b = model.Gemm(g, 1);
        NS_TEST_ASSERT_MSG_EQ(b.computeCyclesPerTile, 128, "K_eff = 128 ceil(64 / 128)");
        NS_TEST_ASSERT_MSG_EQ(b.boundCycles, 128, "row-shifted K 64: 128");
        // Row-shifted K = 200 -> K_eff = 256; transposed K = 200 -> 200.
        g.k = 200;
        NS_TEST_ASSERT_MSG_EQ(model.Gemm(g, 1).boundCycles, 256, "row-shifted 200 -> 256");
        g.aTransposed = true;
        NS_TEST_ASSERT_MSG_EQ(model.Gemm(g, 1).boundCycles, 200, "transposed 200 -> 200");
    }
};

/**
 * \ingroup pyxis
 * GEMM 4096^3 FP8 on the 48 UIEs of a chip (pyxis.rst, Validation, "GEMM 4096^3").
 */
class PyxisGemmChipTest : public TestCase
{
  public:
    PyxisGemmChipTest()
        : TestCase("GEMM 4096^3 FP8 on 48 UIEs - 90112 cycles, HBM 32 MiB, split-K policies")
    {
    }

  private:
    void DoRun() override
    {
        PyxisUieModel model;
        PyxisGemmShape g;
        g.m = g.n = g.k = 4096;
        // Tiles (4096/128)^2 = 1024; ceil(1024 / 48) = 22 per UIE; 22 x 4096 = 90,112 cycles
        // = 67.75 us. Split-K would give ceil(1024 x 4096 / 48) = 87,382 (the ideal 65.7 us),
        // a 3.0 % gain < splitKMinGain 10 %: AUTO keeps whole tiles.
        PyxisKernelBreakdown b = model.Gemm(g, 48);
        NS_TEST_ASSERT_MSG_EQ(b.tiles, 1024, "32 x 32 tiles");
        NS_TEST_ASSERT_MSG_EQ_TOL(b.tilesPerUie, 22.0, 1e-12, "ceil(1024 / 48)");
        NS_TEST_ASSERT_MSG_EQ(b.splitK, false, "AUTO: no split-K for a 3 % gain");
        NS_TEST_ASSERT_MSG_EQ(b.boundCycles, 90112, "22 x 4096");
        NS_TEST_ASSERT_MSG_EQ(b.totalCycles, 90112 + FILL_DRAIN8, "90112 + 268");
        NS_TEST_ASSERT_MSG_EQ_TOL(b.boundSeconds, 67.8e-6, 0.05e-6, "about 67.8 us");
        NS_TEST_ASSERT_MSG_EQ(b.clustersUsed, 4, "48 UIEs = 4 clusters");
        // Per cluster: A slice 4 MiB + B 16 MiB + C slice 4 MiB = 24 MiB <= 64 MiB (section 7).
        NS_TEST_ASSERT_MSG_EQ(b.amemBytesPerCluster, 24ULL << 20, "24 MiB per cluster");
        NS_TEST_ASSERT_MSG_EQ(b.fitsInAmem, true, "fits in 64 MiB");
        // A and B from HBM: 32 MiB / (4 x 1228.8 GB/s) = 6.827 us = 9079.5 -> 9080 cycles, well
        // under the grid: still compute-bound.
        g.aInHbm = g.bInHbm = true;
        b = model.Gemm(g, 48);
        NS_TEST_ASSERT_MSG_EQ(b.hbmBytes, 32ULL << 20, "A + B = 32 MiB");
        NS_TEST_ASSERT_MSG_EQ(b.hbmCycles, 9080, "ceil(33554432 / 4.9152e12 x 1.33e9)");
        NS_TEST_ASSERT_MSG_EQ_TOL(b.hbmCycles / CLOCK, 6.83e-6, 0.01e-6, "6.8 us");
        NS_TEST_ASSERT_MSG_EQ(b.boundCycles, 90112, "compute-bound");
        NS_TEST_ASSERT_MSG_EQ(PyxisUieModel::BoundName(b.bound), "compute", "compute-bound");
        // ALWAYS: the balanced stream-K loop, ceil(1024 x 4096 / 48) = ceil(87381.33) = 87382.
        g.aInHbm = g.bInHbm = false;
        g.splitK = PyxisSplitK::ALWAYS;
        b = model.Gemm(g, 48);
        NS_TEST_ASSERT_MSG_EQ(b.splitK, true, "ALWAYS splits");
        NS_TEST_ASSERT_MSG_EQ(b.boundCycles, 87382, "ceil(1024 x 4096 / 48)");
        NS_TEST_ASSERT_MSG_EQ_TOL(b.boundSeconds, 65.7e-6, 0.05e-6, "the ideal 65.7 us");
        // Peak (6.3: 16,384 MAC/cycle per UIE): 48 tiles of K = 4096 on 48 UIEs, one each: 2 x 6144
        // x 128 x 4096 FLOPs in 4096 cycles = 48 x 16384 MAC x 2 x 1.33 GHz = 2.0919 PFLOPS.
        g = PyxisGemmShape();
        g.m = 128 * 48;
        g.k = 4096;
        b = model.Gemm(g, 48);
        NS_TEST_ASSERT_MSG_EQ(b.boundCycles, 4096, "one tile per UIE");
        NS_TEST_ASSERT_MSG_EQ_TOL(b.flops / b.boundSeconds, 2.0919e15, 0.0001e15, "2092 TFLOPS");
    }
};

/**
 * \ingroup pyxis
 * The 3x3 convolution (pyxis.rst, Validation, "3x3 convolution") and its rate rules (F per grid
 * row, W > 128 tiling, FP16, stride 2).
 */
class PyxisConvTest : public TestCase
{
  public:
    PyxisConvTest()
        : TestCase("3x3 conv 56x56 64-64 FP8 one UIE 8960 cycles - F for W 128 64 32 16, W 200")
    {
    }

  private:
    void DoRun() override
    {
        PyxisUieModel model;
        PyxisConvShape c; // 56 x 56 x 64 -> 64, FP8, stride 1
        // W = 56 <= 64: F = 2 -> 16 x 2 = 32 channels per pass, ceil(64 / 32) = 2 passes;
        // ceil(56 / 8) = 7 row groups; T_rg = max(10 x 64, 128) = 640; 2 x 7 x 640 = 8960 cycles
        // = 6.737 us; FLOPs 2 x 9 x 64 x 64 x 56 x 56 = 231,211,008 -> 34.3 TFLOPS.
        PyxisKernelBreakdown b = model.Conv3x3(c, 1);
        NS_TEST_ASSERT_MSG_EQ(b.tiles, 14, "2 passes x 7 row groups");
        NS_TEST_ASSERT_MSG_EQ(b.tileCycles, 640, "10 x Cin");
        NS_TEST_ASSERT_MSG_EQ(b.boundCycles, 8960, "2 x 7 x 640");
        NS_TEST_ASSERT_MSG_EQ(b.totalCycles, 8960 + FILL_DRAIN8, "8960 + 268");
        NS_TEST_ASSERT_MSG_EQ_TOL(b.boundSeconds, 6.74e-6, 0.005e-6, "6.74 us");
        NS_TEST_ASSERT_MSG_EQ_TOL(b.flops, 231211008.0, 0.5, "2 x 9 Cin Cout H W");
        NS_TEST_ASSERT_MSG_EQ_TOL(b.flops / b.boundSeconds, 34.3e12, 0.05e12, "34.3 TFLOPS");
        // F per grid row (6.3.2): W in (64,128] -> 1, (32,64] -> 2, (16,32] -> 4, <= 16 -> 8.
        NS_TEST_ASSERT_MSG_EQ(PyxisUieModel::FiltersPerGridRow(128), 1, "W 128");
        NS_TEST_ASSERT_MSG_EQ(PyxisUieModel::FiltersPerGridRow(65), 1, "W 65");
        NS_TEST_ASSERT_MSG_EQ(PyxisUieModel::FiltersPerGridRow(64), 2, "W 64");
        NS_TEST_ASSERT_MSG_EQ(PyxisUieModel::FiltersPerGridRow(33), 2, "W 33");
        NS_TEST_ASSERT_MSG_EQ(PyxisUieModel::FiltersPerGridRow(32), 4, "W 32");
        NS_TEST_ASSERT_MSG_EQ(PyxisUieModel::FiltersPerGridRow(17), 4, "W 17");
        NS_TEST_ASSERT_MSG_EQ(PyxisUieModel::FiltersPerGridRow(16), 8, "W 16");
        NS_TEST_ASSERT_MSG_EQ(PyxisUieModel::FiltersPerGridRow(1), 8, "W 1");
        // H = 8, Cin = Cout = 128, one UIE: passes = ceil(128 / 16F), one row group,
        // T_rg = 1280: W 128 -> 8 x 1280 = 10240; W 64 -> 4 x; W 32 -> 2 x; W 16 -> 1 x.
        const uint64_t widths[] = {128, 64, 32, 16};
        const uint64_t passes[] = {8, 4, 2, 1};
        for (int i = 0; i < 4; ++i)
        {
            PyxisConvShape n;
            n.h = 8;
            n.w = widths[i];
            n.cin = n.cout = 128;
            b = model.Conv3x3(n, 1);
            NS_TEST_ASSERT_MSG_EQ(b.tiles, passes[i], "passes for W " << widths[i]);
            NS_TEST_ASSERT_MSG_EQ(b.boundCycles, passes[i] * 1280, "cycles for W " << widths[i]);
        }
        // W > 128: tiles of 112 new columns (17.2.1): 1 + ceil((W - 128) / 112):
        // W 200 -> 2, 240 -> 2, 241 -> 3, 1024 -> 1 + ceil(896 / 112) = 9.
        NS_TEST_ASSERT_MSG_EQ(model.ConvWidthTiles(128), 1, "W 128");
        NS_TEST_ASSERT_MSG_EQ(model.ConvWidthTiles(200), 2, "W 200");
        NS_TEST_ASSERT_MSG_EQ(model.ConvWidthTiles(240), 2, "W 240");
        NS_TEST_ASSERT_MSG_EQ(model.ConvWidthTiles(241), 3, "W 241");
        NS_TEST_ASSERT_MSG_EQ(model.ConvWidthTiles(1024), 9, "W 1024");
        // Pyxis spec table 17-1: W 512 (32 partitions) is 5 tiles (partitions 0-7, 7-14, 14-21,
        // 21-28, 28-31): 1 + ceil(384 / 112) = 5.
        NS_TEST_ASSERT_MSG_EQ(model.ConvWidthTiles(512), 5, "W 512, table 17-1");
        // W 200, H 56, 64 -> 64 on one UIE: F = 1 (128-column tiles), 2 W tiles x 4 passes x
        // 7 row groups x 640 = 35,840 cycles.
        PyxisConvShape wide;
        wide.w = 200;
        b = model.Conv3x3(wide, 1);
        NS_TEST_ASSERT_MSG_EQ(b.tiles, 56, "2 x 4 x 7");
        NS_TEST_ASSERT_MSG_EQ(b.boundCycles, 35840, "56 x 640");
        // The same on 12 UIEs: ceil(56 / 12) = 5 x 640 = 3200.
        NS_TEST_ASSERT_MSG_EQ(model.Conv3x3(wide, 12).boundCycles, 3200, "5 x 640");
        // FP16 data halves the 3x3 rate: T_rg = 10 x 2 x 64 = 1280 -> 2 x 7 x 1280 = 17,920.
        PyxisConvShape h16;
        h16.inBytes = 2;
        NS_TEST_ASSERT_MSG_EQ(model.Conv3x3(h16, 1).boundCycles, 17920, "FP16 3x3");
        // Stride 2 is charged the stride-1 time; FLOPs count the 28 x 28 output (a quarter).
        PyxisConvShape s2;
        s2.stride = 2;
        b = model.Conv3x3(s2, 1);
        NS_TEST_ASSERT_MSG_EQ(b.boundCycles, 8960, "stride 2 = stride 1 time");
        NS_TEST_ASSERT_MSG_EQ_TOL(b.flops, 231211008.0 / 4, 0.5, "28 x 28 outputs");
        // Few input channels: Cin = 8 -> 10 x 8 = 80 < 128: write-back bound, 128 per group.
        PyxisConvShape thin;
        thin.cin = 8;
        b = model.Conv3x3(thin, 1);
        NS_TEST_ASSERT_MSG_EQ(b.boundCycles, 14 * 128, "max(80, 128)");
        NS_TEST_ASSERT_MSG_EQ(PyxisUieModel::BoundName(b.bound), "writeback", "write-back bound");
        // Effective 3x3 peak (6.1.1: 8 of 10 cycles compute): 9 x 2048 MAC x 8/10 x 2 x 1.33 GHz
        // = 39.2 TFLOPS per UIE: W = 128 (F = 1), Cout = 16 (one pass), H = 8 (one row group), Cin
        // = 1024: 2 x 9 x 1024 x 16 x 8 x 128 FLOPs in 10 x 1024 cycles = 39.22 TFLOPS.
        PyxisConvShape peak;
        peak.h = 8;
        peak.w = 128;
        peak.cin = 1024;
        peak.cout = 16;
        b = model.Conv3x3(peak, 1);
        NS_TEST_ASSERT_MSG_EQ(b.boundCycles, 10240, "one pass, one group, 10 x 1024");
        NS_TEST_ASSERT_MSG_EQ_TOL(b.flops / b.boundSeconds, 39.2e12, 0.05e12, "39.2 TFLOPS");
    }
};

/**
 * \ingroup pyxis
 * Decode linear 8192 x 8192, one token, on the whole chip (pyxis.rst, Validation, "Decode
 * linear").
 */
class PyxisDecodeTest : public TestCase
{
  public:
    PyxisDecodeTest()
        : TestCase("Decode linear 8192x8192 T 1 on 48 UIEs - 8.2 us in AMEM, 13.7 us from HBM")
    {
    }

  private:
    void DoRun() override
    {
        PyxisUieModel model;
        PyxisGemmShape g = PyxisGemmShape::Linear(8192, 8192, 1);
        // Tiles ceil(8192 / 128) x ceil(1 / 128) = 64. Whole tiles: ceil(64 / 48) = 2 x 8192 =
        // 16,384. Split-K: ceil(64 x 8192 / 48) = ceil(10922.67) = 10,923 cycles = 8.213 us;
        // gain 33 % > 10 %: AUTO splits. This is the weight stream: 64 MiB / (48 x 128 B/cycle).
        PyxisKernelBreakdown b = model.Gemm(g, 48);
        NS_TEST_ASSERT_MSG_EQ(b.tiles, 64, "64 tiles of 128 output channels");
        NS_TEST_ASSERT_MSG_EQ(b.splitK, true, "AUTO splits K");
        NS_TEST_ASSERT_MSG_EQ(b.boundCycles, 10923, "64 x 8192 / 48");
        NS_TEST_ASSERT_MSG_EQ(b.totalCycles, 10923 + FILL_DRAIN8, "10923 + 268");
        NS_TEST_ASSERT_MSG_EQ_TOL(b.boundSeconds, 8.2e-6, 0.05e-6, "about 8.2 us");
        NS_TEST_ASSERT_MSG_EQ(PyxisUieModel::BoundName(b.bound), "compute", "grid (weight stream)");
        // Weights from HBM: 67,108,864 B / (4 x 1228.8 GB/s) = 13.653 us = 18158.9 -> 18,159.
        g.aInHbm = true;
        b = model.Gemm(g, 48);
        NS_TEST_ASSERT_MSG_EQ(b.hbmBytes, 64ULL << 20, "64 MiB of FP8 weights");
        NS_TEST_ASSERT_MSG_EQ(b.hbmCycles, 18159, "ceil(67108864 / 4.9152e12 x 1.33e9)");
        NS_TEST_ASSERT_MSG_EQ(b.boundCycles, 18159, "HBM-bound");
        NS_TEST_ASSERT_MSG_EQ(PyxisUieModel::BoundName(b.bound), "hbm", "HBM-bound");
        NS_TEST_ASSERT_MSG_EQ_TOL(b.boundSeconds, 13.7e-6, 0.05e-6, "about 13.7 us");
        NS_TEST_ASSERT_MSG_EQ(b.totalCycles, 18159 + FILL_DRAIN8, "18159 + 268");
        // Block-32 compression: 4.25 bits per weight -> 35,651,584 B / 4.9152e12 = 7.253 us
        // = 9646.9 -> 9647 cycles (about 7.3 us); the grid's 10,923 then bounds it.
        g.compressionBlock = 32;
        b = model.Gemm(g, 48);
        NS_TEST_ASSERT_MSG_EQ(b.hbmBytes, 35651584, "8192^2 x 4.25 / 8");
        NS_TEST_ASSERT_MSG_EQ(b.hbmCycles, 9647, "7.25 us");
        NS_TEST_ASSERT_MSG_EQ(b.boundCycles, 10923, "grid-bound again");
        NS_TEST_ASSERT_MSG_EQ_TOL(PyxisUieModel::CompressedBitsPerWeight(4), 6.0, 1e-12, "4");
        NS_TEST_ASSERT_MSG_EQ_TOL(PyxisUieModel::CompressedBitsPerWeight(8), 5.0, 1e-12, "8");
        NS_TEST_ASSERT_MSG_EQ_TOL(PyxisUieModel::CompressedBitsPerWeight(16), 4.5, 1e-12, "16");
        // Without split-K: 16,384 cycles (2 whole tiles on some UIEs).
        g = PyxisGemmShape::Linear(8192, 8192, 1);
        g.splitK = PyxisSplitK::NEVER;
        NS_TEST_ASSERT_MSG_EQ(model.Gemm(g, 48).boundCycles, 16384, "2 x 8192");
        // Split-K limits: one 128x128x4096 tile on 48 UIEs: L = ceil(4096 / 48) = 86 cycles,
        // but ceil(86 / 4096) + 1 = 2 write-backs per UIE (256) and ceil(4096 / 86) = 48 UIEs
        // add into one tile, serialized: 256 + 47 x 128 = 6272 > 4096: not split, even ALWAYS.
        g = PyxisGemmShape();
        g.k = 4096;
        g.splitK = PyxisSplitK::ALWAYS;
        b = model.Gemm(g, 48);
        NS_TEST_ASSERT_MSG_EQ(b.splitK, false, "48-way split of one tile does not pay");
        NS_TEST_ASSERT_MSG_EQ(b.boundCycles, 4096, "whole tile");
        // 4 tiles (M = 512) on 48 UIEs: L = ceil(4 x 4096 / 48) = 342; 2 write-backs (256);
        // ceil(4096 / 342) = 12 UIEs per tile: 342 + 11 x 128 = 1750 < 4096: split.
        g.m = 512;
        g.splitK = PyxisSplitK::AUTO;
        b = model.Gemm(g, 48);
        NS_TEST_ASSERT_MSG_EQ(b.splitK, true, "12-way split pays");
        NS_TEST_ASSERT_MSG_EQ(b.boundCycles, 1750, "342 + 11 x 128");
        // T <= 128 is free (6.1.2: 128 columns of tokens per tile): 128 tokens take as long as 1.
        g = PyxisGemmShape::Linear(8192, 8192, 128);
        NS_TEST_ASSERT_MSG_EQ(model.Gemm(g, 48).boundCycles, 10923, "T = 128 same time");
        // Ridge (section 1: 1228.8 GB/s of HBM per cluster): FP8 weights streamed once, 12 UIEs of
        // one cluster, T = 128: the grid wants 128 B/cycle x 12 x 1.33 GHz = 2043 GB/s, HBM gives
        // 1228.8: HBM-bound.
        g = PyxisGemmShape::Linear(8192, 8192, 128, 1, true);
        b = model.Gemm(g, 12);
        NS_TEST_ASSERT_MSG_EQ(PyxisUieModel::BoundName(b.bound),
                              "hbm",
                              "T 128 HBM-bound on a cluster");
        // 64 tiles / 12 UIEs: ceil(64 x 8192 / 12) = 43,691 grid cycles; HBM 67108864 /
        // 1.2288e12 x 1.33e9 = 72635.7 -> 72,636: the grid runs at 43691 / 72636 = 60 %.
        NS_TEST_ASSERT_MSG_EQ(b.loopCycles, 43691, "grid");
        NS_TEST_ASSERT_MSG_EQ(b.hbmCycles, 72636, "HBM");
    }
};

/**
 * \ingroup pyxis
 * VPU element-wise rows (6.4; pyxis.rst, Validation, "VPU") and transpose through A^T I (17.1).
 */
class PyxisVpuTransposeTest : public TestCase
{
  public:
    PyxisVpuTransposeTest()
        : TestCase("VPU rows of 128 at max(n, b_in, b_out) cycles - transpose 128 per FP8 tile")
    {
    }

  private:
    void DoRun() override
    {
        PyxisUieModel model;
        // 1 Mi FP8 elements, 1 instruction, 48 UIEs: 8192 rows, ceil(8192 / 48) = 171 cycles.
        PyxisKernelBreakdown b = model.Vpu(1 << 20, 1, 1, 1, 48);
        NS_TEST_ASSERT_MSG_EQ(b.tiles, 8192, "rows of 128");
        NS_TEST_ASSERT_MSG_EQ(b.boundCycles, 171, "ceil(8192 / 48) x max(1, 1, 1)");
        NS_TEST_ASSERT_MSG_EQ(b.totalCycles, 171 + 40 + 100, "fill + commit");
        // FP16 input: 2 cycles per row on the read port -> 342, AMEM-bound.
        b = model.Vpu(1 << 20, 1, 2, 1, 48);
        NS_TEST_ASSERT_MSG_EQ(b.boundCycles, 342, "171 x max(1, 2, 1)");
        NS_TEST_ASSERT_MSG_EQ(PyxisUieModel::BoundName(b.bound), "amem", "port-bound");
        // 4 instructions, FP16 in and out: 171 x 4 = 684, compute-bound.
        b = model.Vpu(1 << 20, 4, 2, 2, 48);
        NS_TEST_ASSERT_MSG_EQ(b.boundCycles, 684, "171 x 4");
        NS_TEST_ASSERT_MSG_EQ(PyxisUieModel::BoundName(b.bound), "compute", "instruction-bound");
        // Chip rate (Pyxis spec 1: 8170 GFLOPS FP8): 48 x 128 x 1000 elements, 1000 cycles:
        // 48 x 128 x 1.33 GHz = 8.172e12 element-ops/s; FP16 half of it (4085).
        b = model.Vpu(48 * 128 * 1000, 1, 1, 1, 48);
        NS_TEST_ASSERT_MSG_EQ(b.boundCycles, 1000, "1000 rows per UIE");
        NS_TEST_ASSERT_MSG_EQ_TOL(b.flops / b.boundSeconds, 8.1715e12, 0.0001e12, "8170 G");
        b = model.Vpu(48 * 128 * 1000, 1, 2, 2, 48);
        NS_TEST_ASSERT_MSG_EQ_TOL(b.flops / b.boundSeconds, 4.0858e12, 0.0001e12, "4085 G");
        // A partial row still costs a row: 129 elements = 2 rows.
        NS_TEST_ASSERT_MSG_EQ(model.Vpu(129, 1, 1, 1, 1).boundCycles, 2, "2 rows");
        // Transpose: A^T I per 128 x 128 tile, K = 128: FP8 128 cycles, FP16 256.
        b = model.Transpose(128, 128, 1, 1);
        NS_TEST_ASSERT_MSG_EQ(b.boundCycles, 128, "FP8 tile");
        NS_TEST_ASSERT_MSG_EQ(b.totalCycles, 128 + FILL_DRAIN8, "+ 268");
        NS_TEST_ASSERT_MSG_EQ(model.Transpose(128, 128, 2, 1).boundCycles, 256, "FP16 tile");
        // 1024 x 512 FP8 on 4 UIEs: 8 x 4 = 32 tiles, 8 per UIE x 128 = 1024.
        NS_TEST_ASSERT_MSG_EQ(model.Transpose(1024, 512, 1, 4).boundCycles, 1024, "8 x 128");
    }
};

/**
 * \ingroup pyxis
 * The Eigen batch paths equal the scalar paths on a grid of shapes and options.
 */
class PyxisBatchTest : public TestCase
{
  public:
    PyxisBatchTest()
        : TestCase("Batch GEMM and 3x3 (Eigen) equal the scalar model on a grid of shapes")
    {
    }

  private:
    /**
     * Compare element i of a batch with a scalar breakdown.
     * \param r the batch
     * \param i the element
     * \param b the scalar breakdown
     * \param what the case, for messages
     */
    void Compare(const PyxisBatchResult& r,
                 Eigen::Index i,
                 const PyxisKernelBreakdown& b,
                 const std::string& what)
    {
        NS_TEST_EXPECT_MSG_EQ(r.tiles[i], static_cast<double>(b.tiles), what << " tiles");
        NS_TEST_EXPECT_MSG_EQ(r.tilesPerUie[i], b.tilesPerUie, what << " tilesPerUie");
        NS_TEST_EXPECT_MSG_EQ(r.loopCycles[i], static_cast<double>(b.loopCycles), what << " loop");
        NS_TEST_EXPECT_MSG_EQ(r.amemCycles[i], static_cast<double>(b.amemCycles), what << " amem");
        NS_TEST_EXPECT_MSG_EQ(r.hbmCycles[i], static_cast<double>(b.hbmCycles), what << " hbm");
        NS_TEST_EXPECT_MSG_EQ(r.boundCycles[i],
                              static_cast<double>(b.boundCycles),
                              what << " bound cycles");
        NS_TEST_EXPECT_MSG_EQ(r.totalCycles[i],
                              static_cast<double>(b.totalCycles),
                              what << " total");
        NS_TEST_EXPECT_MSG_EQ(r.totalSeconds[i], b.totalSeconds, what << " seconds");
        NS_TEST_EXPECT_MSG_EQ(r.flops[i], b.flops, what << " flops");
        NS_TEST_EXPECT_MSG_EQ(r.bound[i], static_cast<int>(b.bound), what << " bound");
        NS_TEST_EXPECT_MSG_EQ(r.splitK[i], b.splitK ? 1 : 0, what << " splitK");
    }

    void DoRun() override
    {
        PyxisUieModel model;
        const std::vector<double> ms = {1, 100, 128, 129, 1000, 4096, 8192};
        const std::vector<double> ns = {1, 64, 128, 300};
        const std::vector<double> ks = {1, 64, 100, 128, 1000, 8192};
        const Eigen::Index count = static_cast<Eigen::Index>(ms.size() * ns.size() * ks.size());
        Eigen::ArrayXd m(count);
        Eigen::ArrayXd n(count);
        Eigen::ArrayXd k(count);
        Eigen::Index i = 0;
        for (double a : ms)
        {
            for (double b : ns)
            {
                for (double c : ks)
                {
                    m[i] = a;
                    n[i] = b;
                    k[i] = c;
                    ++i;
                }
            }
        }
        // Option sets: byte widths, layout, HBM flags, compression, split policy.
        std::vector<PyxisGemmShape> options(6);
        options[1].aBytes = options[1].bBytes = options[1].outBytes = 2;
        options[2].aTransposed = true;
        options[2].aInHbm = true;
        options[2].splitK = PyxisSplitK::ALWAYS;
        options[3].bBytes = 2;
        options[3].bInHbm = options[3].outToHbm = true;
        options[4].compressionBlock = 16;
        options[4].aInHbm = true;
        options[4].aTransposed = true;
        options[5].splitK = PyxisSplitK::NEVER;
        options[5].outBytes = 2;
        const uint32_t uieCounts[] = {1, 7, 12, 48};
        for (std::size_t o = 0; o < options.size(); ++o)
        {
            for (uint32_t u : uieCounts)
            {
                const PyxisBatchResult r = model.GemmBatch(m, n, k, options[o], u);
                for (Eigen::Index j = 0; j < count; ++j)
                {
                    PyxisGemmShape g = options[o];
                    g.m = static_cast<uint64_t>(m[j]);
                    g.n = static_cast<uint64_t>(n[j]);
                    g.k = static_cast<uint64_t>(k[j]);
                    std::ostringstream what;
                    what << "gemm option " << o << " uies " << u << " (" << g.m << "," << g.n << ","
                         << g.k << ")";
                    Compare(r, j, model.Gemm(g, u), what.str());
                }
            }
        }
        // 3x3 grid: widths across every F band and the W > 128 tiling.
        const std::vector<double> hs = {1, 8, 9, 56};
        const std::vector<double> ws = {1, 16, 17, 32, 33, 64, 65, 128, 129, 200, 241, 1024};
        const std::vector<double> cins = {1, 8, 13, 64, 512};
        const std::vector<double> couts = {1, 16, 17, 64, 300};
        const Eigen::Index cc =
            static_cast<Eigen::Index>(hs.size() * ws.size() * cins.size() * couts.size());
        Eigen::ArrayXd h(cc);
        Eigen::ArrayXd w(cc);
        Eigen::ArrayXd ci(cc);
        Eigen::ArrayXd co(cc);
        i = 0;
        for (double a : hs)
        {
            for (double b : ws)
            {
                for (double c : cins)
                {
                    for (double d : couts)
                    {
                        h[i] = a;
                        w[i] = b;
                        ci[i] = c;
                        co[i] = d;
                        ++i;
                    }
                }
            }
        }
        std::vector<PyxisConvShape> copts(3);
        copts[1].inBytes = 2;
        copts[1].outBytes = 2;
        copts[1].stride = 2;
        copts[2].weightsInHbm = copts[2].inInHbm = copts[2].outToHbm = true;
        for (std::size_t o = 0; o < copts.size(); ++o)
        {
            for (uint32_t u : uieCounts)
            {
                const PyxisBatchResult r = model.Conv3x3Batch(h, w, ci, co, copts[o], u);
                for (Eigen::Index j = 0; j < cc; ++j)
                {
                    PyxisConvShape c = copts[o];
                    c.h = static_cast<uint64_t>(h[j]);
                    c.w = static_cast<uint64_t>(w[j]);
                    c.cin = static_cast<uint64_t>(ci[j]);
                    c.cout = static_cast<uint64_t>(co[j]);
                    std::ostringstream what;
                    what << "conv option " << o << " uies " << u << " (" << c.h << "," << c.w << ","
                         << c.cin << "," << c.cout << ")";
                    Compare(r, j, model.Conv3x3(c, u), what.str());
                }
            }
        }
    }
};

/**
 * \ingroup pyxis
 * Bad shapes and parameters raise std::invalid_argument naming the field.
 */
class PyxisErrorsTest : public TestCase
{
  public:
    PyxisErrorsTest()
        : TestCase("Bad shapes, byte widths, UIE counts and 16-bit 3x3 kernels are refused")
    {
    }

  private:
    /**
     * \param f the call
     * \param field text the message must contain
     * \return true if f threw std::invalid_argument with that text
     */
    template <typename F>
    static bool Throws(F f, const std::string& field)
    {
        try
        {
            f();
        }
        catch (const std::invalid_argument& e)
        {
            return std::string(e.what()).find(field) != std::string::npos;
        }
        return false;
    }

    void DoRun() override
    {
        PyxisUieModel model;
        PyxisGemmShape g;
        NS_TEST_ASSERT_MSG_EQ(Throws([&] { model.Gemm(g, 0); }, "uies"), true, "0 UIEs");
        NS_TEST_ASSERT_MSG_EQ(Throws([&] { model.Gemm(g, 49); }, "uies"), true, "49 UIEs");
        g.k = 0;
        NS_TEST_ASSERT_MSG_EQ(Throws([&] { model.Gemm(g, 1); }, "k = 0"), true, "k 0");
        g.k = 128;
        g.outBytes = 4;
        NS_TEST_ASSERT_MSG_EQ(Throws([&] { model.Gemm(g, 1); }, "outBytes"), true, "4 bytes");
        g.outBytes = 1;
        g.compressionBlock = 12;
        NS_TEST_ASSERT_MSG_EQ(Throws([&] { model.Gemm(g, 1); }, "compressionBlock"),
                              true,
                              "block 12");
        PyxisConvShape c;
        c.weightBytes = 2;
        NS_TEST_ASSERT_MSG_EQ(Throws([&] { model.Conv3x3(c, 1); }, "weightBytes"),
                              true,
                              "3x3 kernels are 8-bit (15.5)");
        c.weightBytes = 1;
        c.stride = 3;
        NS_TEST_ASSERT_MSG_EQ(Throws([&] { model.Conv3x3(c, 1); }, "stride"), true, "stride 3");
        PyxisUieParams p;
        p.clockHz = 0;
        NS_TEST_ASSERT_MSG_EQ(Throws([&] { PyxisUieModel bad(p); }, "clockHz"), true, "clock 0");
        Eigen::ArrayXd m(2);
        m << 128, 1.5;
        Eigen::ArrayXd ok = Eigen::ArrayXd::Constant(2, 128);
        NS_TEST_ASSERT_MSG_EQ(Throws([&] { model.GemmBatch(m, ok, ok, g, 1); }, "m[1]"),
                              true,
                              "non-integer batch element");
        // A smaller chip: 2 clusters x 12 UIEs -> 24 at most.
        p = PyxisUieParams();
        p.clusters = 2;
        PyxisUieModel small(p);
        NS_TEST_ASSERT_MSG_EQ(small.GetChipUies(), 24, "2 x 12");
        NS_TEST_ASSERT_MSG_EQ(Throws([&] { small.Gemm(PyxisGemmShape(), 25); }, "uies"),
                              true,
                              "25 UIEs on a 24-UIE chip");
    }
};

/**
 * \ingroup pyxis
 * The pyxis-kernel test suite.
 */
class PyxisKernelTestSuite : public PicosecondTestSuite
{
  public:
    PyxisKernelTestSuite()
        : PicosecondTestSuite("pyxis-kernel", UNIT)
    {
        AddTestCase(new PyxisGemmTileTest, TestCase::QUICK);
        AddTestCase(new PyxisGemmChipTest, TestCase::QUICK);
        AddTestCase(new PyxisConvTest, TestCase::QUICK);
        AddTestCase(new PyxisDecodeTest, TestCase::QUICK);
        AddTestCase(new PyxisVpuTransposeTest, TestCase::QUICK);
        AddTestCase(new PyxisBatchTest, TestCase::QUICK);
        AddTestCase(new PyxisErrorsTest, TestCase::QUICK);
    }
};

/// The suite's instance.
static PyxisKernelTestSuite g_pyxisKernelTestSuite;
