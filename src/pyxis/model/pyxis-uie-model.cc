/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pyxis-uie-model.h"

#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PyxisUieModel");

namespace
{

/**
 * ceil(a / b) of unsigned integers.
 * \param a numerator
 * \param b denominator (> 0)
 * \return the quotient rounded up
 */
uint64_t
CeilDiv(uint64_t a, uint64_t b)
{
    return (a + b - 1) / b;
}

/**
 * Throw std::invalid_argument "WHERE: FIELD = VALUE: RULE".
 * \param where the function
 * \param field the field
 * \param value its value
 * \param rule what it must be
 */
[[noreturn]] void
Fail(const char* where, const char* field, double value, const char* rule)
{
    std::ostringstream os;
    os << where << ": " << field << " = " << value << ": " << rule;
    throw std::invalid_argument(os.str());
}

/**
 * Check that a count is at least 1.
 * \param where the function
 * \param field the field
 * \param value its value
 */
void
CheckPositive(const char* where, const char* field, uint64_t value)
{
    if (value == 0)
    {
        Fail(where, field, 0, "must be >= 1");
    }
}

/**
 * Check bytes per element: 1 (FP8) or 2 (FP16).
 * \param where the function
 * \param field the field
 * \param value its value
 */
void
CheckBytes(const char* where, const char* field, uint32_t value)
{
    if (value != 1 && value != 2)
    {
        Fail(where, field, value, "bytes per element must be 1 (FP8) or 2 (FP16)");
    }
}

/**
 * Check the elements of a batch array: finite positive integers.
 * \param where the function
 * \param field the array's name
 * \param a the array
 */
void
CheckBatch(const char* where, const char* field, const Eigen::ArrayXd& a)
{
    for (Eigen::Index i = 0; i < a.size(); ++i)
    {
        if (!std::isfinite(a[i]) || a[i] < 1 || a[i] != std::floor(a[i]) || a[i] > 9.0e15)
        {
            std::ostringstream f;
            f << field << "[" << i << "]";
            Fail(where, f.str().c_str(), a[i], "must be an integer in [1, 9e15]");
        }
    }
}

/**
 * Elementwise ceil(a / b) of arrays of integers held as doubles (exact below 2^53).
 * \param a numerators
 * \param b denominator
 * \return the quotients rounded up
 */
Eigen::ArrayXd
CeilDivA(const Eigen::ArrayXd& a, double b)
{
    return (a / b).ceil();
}

} // namespace

PyxisGemmShape
PyxisGemmShape::Linear(uint64_t cout,
                       uint64_t cin,
                       uint64_t tokens,
                       uint32_t bytes,
                       bool weightsInHbm)
{
    PyxisGemmShape g;
    g.m = cout;
    g.k = cin;
    g.n = tokens;
    g.aBytes = bytes;
    g.bBytes = bytes;
    g.outBytes = bytes;
    g.aTransposed = true;
    g.aInHbm = weightsInHbm;
    return g;
}

PyxisUieModel::PyxisUieModel()
    : PyxisUieModel(PyxisUieParams())
{
}

PyxisUieModel::PyxisUieModel(const PyxisUieParams& params)
    : m_params(params)
{
    NS_LOG_FUNCTION(this);
    const char* w = "PyxisUieParams";
    if (!(params.clockHz > 0) || !std::isfinite(params.clockHz))
    {
        Fail(w, "clockHz", params.clockHz, "must be > 0");
    }
    if (!(params.hbmBytesPerSecond > 0) || !std::isfinite(params.hbmBytesPerSecond))
    {
        Fail(w, "hbmBytesPerSecond", params.hbmBytesPerSecond, "must be > 0");
    }
    if (!(params.splitKMinGain >= 0 && params.splitKMinGain < 1))
    {
        Fail(w, "splitKMinGain", params.splitKMinGain, "must be in [0, 1)");
    }
    CheckPositive(w, "clusters", params.clusters);
    CheckPositive(w, "uiesPerCluster", params.uiesPerCluster);
    CheckPositive(w, "gridRows", params.gridRows);
    CheckPositive(w, "gridCols", params.gridCols);
    CheckPositive(w, "amemBytesPerCluster", params.amemBytesPerCluster);
    CheckPositive(w, "amemPortBytesPerCycle", params.amemPortBytesPerCycle);
    CheckPositive(w, "amemReadPorts", params.amemReadPorts);
    CheckPositive(w, "amemWritePorts", params.amemWritePorts);
    CheckPositive(w, "convRowsPerGroup", params.convRowsPerGroup);
    CheckPositive(w, "convCyclesPerGroup", params.convCyclesPerGroup);
    CheckPositive(w, "convTileStep", params.convTileStep);
    CheckPositive(w, "vpuLanes", params.vpuLanes);
    if (params.amemReadPorts < 2)
    {
        Fail(w, "amemReadPorts", params.amemReadPorts, "GEMM needs 2 (A and B, 6.1.3)");
    }
    if (params.convTileStep > params.gridCols)
    {
        Fail(w, "convTileStep", params.convTileStep, "must be <= gridCols");
    }
}

const PyxisUieParams&
PyxisUieModel::GetParams() const
{
    return m_params;
}

uint32_t
PyxisUieModel::GetChipUies() const
{
    return m_params.clusters * m_params.uiesPerCluster;
}

void
PyxisUieModel::CheckUies(uint32_t uies, const char* where) const
{
    if (uies < 1 || uies > GetChipUies())
    {
        std::ostringstream rule;
        rule << "must be in [1, " << GetChipUies() << "] (clusters x uiesPerCluster)";
        Fail(where, "uies", uies, rule.str().c_str());
    }
}

uint64_t
PyxisUieModel::HbmCycles(double bytes, uint32_t clusters) const
{
    // The same expression as GemmBatch / Conv3x3Batch, so that both round alike.
    return static_cast<uint64_t>(
        std::ceil(bytes / (m_params.hbmBytesPerSecond * clusters) * m_params.clockHz));
}

void
PyxisUieModel::Finish(PyxisKernelBreakdown& b, uint32_t outBytes) const
{
    b.boundCycles = std::max({b.loopCycles, b.amemCycles, b.hbmCycles});
    if (b.loopCycles >= b.amemCycles && b.loopCycles >= b.hbmCycles)
    {
        b.bound = b.computeCyclesPerTile >= b.writebackCyclesPerTile ? PyxisBound::COMPUTE
                                                                     : PyxisBound::WRITEBACK;
    }
    else
    {
        b.bound = b.hbmCycles >= b.amemCycles ? PyxisBound::HBM : PyxisBound::AMEM;
    }
    b.fillCycles = m_params.fillCycles;
    if (b.op == PyxisKernelOp::VPU)
    {
        // The VPU writes row by row inside its loop: only the commit remains [assumption].
        b.drainCycles = m_params.drainCommitCycles;
    }
    else
    {
        // T_drain = write-back of the last tile (128 rows at 128 B/cycle, 6.3.4) + commit (11.7.2).
        b.drainCycles = CeilDiv(uint64_t{m_params.gridRows} * m_params.gridCols * outBytes,
                                m_params.amemPortBytesPerCycle) +
                        m_params.drainCommitCycles;
    }
    b.totalCycles = b.boundCycles + b.fillCycles + b.drainCycles;
    b.boundSeconds = static_cast<double>(b.boundCycles) / m_params.clockHz;
    b.totalSeconds = static_cast<double>(b.totalCycles) / m_params.clockHz;
    b.fitsInAmem = b.amemBytesPerCluster <= m_params.amemBytesPerCluster;
}

double
PyxisUieModel::CompressedBitsPerWeight(uint32_t block)
{
    if (block != 4 && block != 8 && block != 16 && block != 32)
    {
        Fail("PyxisUieModel::CompressedBitsPerWeight",
             "compressionBlock",
             block,
             "must be 4, 8, 16 or 32 (14.2)");
    }
    // 4-bit code per weight plus one 8-bit scale per block (14.1-14.2).
    return 4.0 + 8.0 / block;
}

PyxisKernelBreakdown
PyxisUieModel::Gemm(const PyxisGemmShape& g, uint32_t uies) const
{
    NS_LOG_FUNCTION(this << g.m << g.n << g.k << uies);
    const char* where = "PyxisUieModel::Gemm";
    CheckUies(uies, where);
    CheckPositive(where, "m", g.m);
    CheckPositive(where, "n", g.n);
    CheckPositive(where, "k", g.k);
    CheckBytes(where, "aBytes", g.aBytes);
    CheckBytes(where, "bBytes", g.bBytes);
    CheckBytes(where, "outBytes", g.outBytes);
    double aBytesEff = g.aBytes;
    if (g.compressionBlock != 0)
    {
        aBytesEff = CompressedBitsPerWeight(g.compressionBlock) / 8.0;
        if (g.aBytes != 1)
        {
            Fail(where, "aBytes", g.aBytes, "compressed weights decompress to 8-bit LnsI4F3 (14)");
        }
    }
    const PyxisUieParams& p = m_params;
    PyxisKernelBreakdown b;
    b.op = PyxisKernelOp::GEMM;
    b.uies = uies;
    b.clustersUsed = static_cast<uint32_t>(CeilDiv(uies, p.uiesPerCluster));

    // Rate rule (6.3, 6.1.3.2): any 16-bit operand halves the rate.
    const uint64_t s = (g.aBytes == 1 && g.bBytes == 1) ? 1 : 2;
    // Row-shifted A is read in 128 x 128 B blocks: K rounds up to 128 (6.1.3 step 4).
    const uint64_t kEff = g.aTransposed ? g.k : p.gridRows * CeilDiv(g.k, p.gridRows);
    b.computeCyclesPerTile = s * kEff;
    b.writebackCyclesPerTile =
        CeilDiv(uint64_t{p.gridRows} * p.gridCols * g.outBytes, p.amemPortBytesPerCycle);
    b.tileCycles = std::max(b.computeCyclesPerTile, b.writebackCyclesPerTile);
    b.tiles = CeilDiv(g.m, p.gridRows) * CeilDiv(g.n, p.gridCols);
    const uint64_t perUie = CeilDiv(b.tiles, uies);
    const uint64_t noSplit = perUie * b.tileCycles;
    // Split-K (stream-K): the tiles' K ranges are laid end to end and cut into U equal parts of
    // L = ceil(tiles C / U) cycles; only useful when the tiles are compute-bound. Each piece
    // writes back a whole partial tile: a UIE with ceil(L / C) + 1 pieces needs that many
    // write-backs; and the ceil(C / L) UIEs sharing one tile finish their pieces together, so
    // their InMemAdd writes (atomic only within one UIE, 7.4) serialize: (ceil(C / L) - 1)
    // write-backs more [assumption]. With L >= C this adds nothing (the decode layer, pyxis.rst).
    uint64_t split = noSplit;
    if (b.computeCyclesPerTile > b.writebackCyclesPerTile)
    {
        const double c = static_cast<double>(b.computeCyclesPerTile);
        const double wb = static_cast<double>(b.writebackCyclesPerTile);
        const double l = std::ceil(static_cast<double>(b.tiles) * c / static_cast<double>(uies));
        const double pieces = std::ceil(l / c) + 1.0;
        const double share = std::ceil(c / l);
        split = static_cast<uint64_t>(std::max(l, pieces * wb) + (share - 1.0) * wb);
    }
    switch (g.splitK)
    {
    case PyxisSplitK::NEVER:
        b.splitK = false;
        break;
    case PyxisSplitK::ALWAYS:
        b.splitK = split < noSplit;
        break;
    case PyxisSplitK::AUTO:
        b.splitK = static_cast<double>(noSplit) - static_cast<double>(split) >
                   p.splitKMinGain * static_cast<double>(noSplit);
        break;
    }
    // AMEM ports per tile (6.1): A on the weights port, B on the vertical port, C on the write
    // port. By design each is at most the compute time (6.1.2: the weights fill one port).
    const uint64_t aPort = static_cast<uint64_t>(
        std::ceil(static_cast<double>(p.gridRows) * static_cast<double>(kEff) * aBytesEff /
                  p.amemPortBytesPerCycle));
    const uint64_t bPort = CeilDiv(uint64_t{p.gridCols} * g.k * g.bBytes, p.amemPortBytesPerCycle);
    const uint64_t readPort = std::max(aPort, bPort);
    if (b.splitK)
    {
        b.loopCycles = split;
        b.tilesPerUie = static_cast<double>(b.tiles) / uies;
        b.amemCycles = static_cast<uint64_t>(
            std::ceil(static_cast<double>(b.tiles) * static_cast<double>(readPort) /
                      static_cast<double>(uies)));
    }
    else
    {
        b.loopCycles = noSplit;
        b.tilesPerUie = static_cast<double>(perUie);
        b.amemCycles = perUie * std::max(readPort, b.writebackCyclesPerTile);
    }

    const double aTotal =
        std::ceil(static_cast<double>(g.m) * static_cast<double>(g.k) * aBytesEff);
    const double bTotal = static_cast<double>(g.k) * static_cast<double>(g.n) * g.bBytes;
    const double cTotal = static_cast<double>(g.m) * static_cast<double>(g.n) * g.outBytes;
    const double hbm =
        (g.aInHbm ? aTotal : 0.0) + (g.bInHbm ? bTotal : 0.0) + (g.outToHbm ? cTotal : 0.0);
    b.hbmBytes = static_cast<uint64_t>(hbm);
    b.hbmCycles = HbmCycles(hbm, b.clustersUsed);
    // Per cluster: its share of A and C, all of B (pyxis.rst, Validation, GEMM 4096^3).
    const double cl = b.clustersUsed;
    b.amemBytesPerCluster = static_cast<uint64_t>((g.aInHbm ? 0.0 : std::ceil(aTotal / cl)) +
                                                  (g.bInHbm ? 0.0 : bTotal) +
                                                  (g.outToHbm ? 0.0 : std::ceil(cTotal / cl)));
    b.flops = 2.0 * static_cast<double>(g.m) * static_cast<double>(g.n) * static_cast<double>(g.k);
    Finish(b, g.outBytes);
    NS_LOG_LOGIC("gemm tiles " << b.tiles << " loop " << b.loopCycles << " hbm " << b.hbmCycles
                               << " split " << b.splitK);
    return b;
}

uint32_t
PyxisUieModel::FiltersPerGridRow(uint64_t w)
{
    // 6.3.2: a grid row splits into 1, 2, 4 or 8 filters of 8, 4, 2 or 1 partitions of 16 cols.
    if (w <= 16)
    {
        return 8;
    }
    if (w <= 32)
    {
        return 4;
    }
    if (w <= 64)
    {
        return 2;
    }
    return 1;
}

uint64_t
PyxisUieModel::ConvWidthTiles(uint64_t w) const
{
    if (w <= m_params.gridCols)
    {
        return 1;
    }
    return 1 + CeilDiv(w - m_params.gridCols, m_params.convTileStep);
}

PyxisKernelBreakdown
PyxisUieModel::Conv3x3(const PyxisConvShape& c, uint32_t uies) const
{
    NS_LOG_FUNCTION(this << c.h << c.w << c.cin << c.cout << uies);
    const char* where = "PyxisUieModel::Conv3x3";
    CheckUies(uies, where);
    CheckPositive(where, "h", c.h);
    CheckPositive(where, "w", c.w);
    CheckPositive(where, "cin", c.cin);
    CheckPositive(where, "cout", c.cout);
    if (c.stride != 1 && c.stride != 2)
    {
        Fail(where, "stride", c.stride, "must be 1 or 2");
    }
    CheckBytes(where, "inBytes", c.inBytes);
    CheckBytes(where, "outBytes", c.outBytes);
    if (c.weightBytes != 1)
    {
        Fail(where, "weightBytes", c.weightBytes, "3x3 kernels must be 8-bit LnsI4F3 (15.5)");
    }
    const PyxisUieParams& p = m_params;
    PyxisKernelBreakdown b;
    b.op = PyxisKernelOp::CONV3X3;
    b.uies = uies;
    b.clustersUsed = static_cast<uint32_t>(CeilDiv(uies, p.uiesPerCluster));

    const uint64_t s = c.inBytes == 1 ? 1 : 2; // FP16 data halves the 3x3 rate (6.3.1)
    const uint64_t physRows = p.gridRows / 8;  // 16 physical grid rows (6.3)
    const uint64_t f = FiltersPerGridRow(std::min<uint64_t>(c.w, p.gridCols));
    const uint64_t wTiles = ConvWidthTiles(c.w);
    const uint64_t passes = CeilDiv(c.cout, physRows * f);
    const uint64_t rowGroups = CeilDiv(c.h, p.convRowsPerGroup);
    b.computeCyclesPerTile = uint64_t{p.convCyclesPerGroup} * s * c.cin;
    b.writebackCyclesPerTile =
        CeilDiv(uint64_t{p.gridRows} * p.gridCols * c.outBytes, p.amemPortBytesPerCycle);
    b.tileCycles = std::max(b.computeCyclesPerTile, b.writebackCyclesPerTile);
    b.tiles = wTiles * passes * rowGroups;
    const uint64_t perUie = CeilDiv(b.tiles, uies);
    b.tilesPerUie = static_cast<double>(perUie);
    b.loopCycles = perUie * b.tileCycles;
    // Ports: the vertical port reads 8 + 2 rows of <= 128 B per input channel, FP16 in two
    // cycles each; the weights port 9 B per filter per channel.
    const uint64_t vPort = uint64_t{p.convCyclesPerGroup} * c.cin * c.inBytes;
    const uint64_t wPort = CeilDiv(physRows * f * 9 * c.cin, p.amemPortBytesPerCycle);
    b.amemCycles = perUie * std::max({vPort, wPort, b.writebackCyclesPerTile});

    const uint64_t hOut = CeilDiv(c.h, c.stride);
    const uint64_t wOut = CeilDiv(c.w, c.stride);
    const double wTotal = 9.0 * static_cast<double>(c.cin) * static_cast<double>(c.cout);
    const double inTotal = static_cast<double>(c.h) * static_cast<double>(c.w) *
                           static_cast<double>(c.cin) * c.inBytes;
    const double outTotal = static_cast<double>(hOut) * static_cast<double>(wOut) *
                            static_cast<double>(c.cout) * c.outBytes;
    const double hbm = (c.weightsInHbm ? wTotal : 0.0) + (c.inInHbm ? inTotal : 0.0) +
                       (c.outToHbm ? outTotal : 0.0);
    b.hbmBytes = static_cast<uint64_t>(hbm);
    b.hbmCycles = HbmCycles(hbm, b.clustersUsed);
    const double cl = b.clustersUsed;
    b.amemBytesPerCluster = static_cast<uint64_t>((c.weightsInHbm ? 0.0 : std::ceil(wTotal / cl)) +
                                                  (c.inInHbm ? 0.0 : inTotal) +
                                                  (c.outToHbm ? 0.0 : std::ceil(outTotal / cl)));
    b.flops = 2.0 * wTotal * static_cast<double>(hOut) * static_cast<double>(wOut);
    Finish(b, c.outBytes);
    return b;
}

PyxisKernelBreakdown
PyxisUieModel::Vpu(uint64_t elements,
                   uint32_t instructions,
                   uint32_t inBytes,
                   uint32_t outBytes,
                   uint32_t uies,
                   bool inInHbm,
                   bool outToHbm) const
{
    NS_LOG_FUNCTION(this << elements << instructions << uies);
    const char* where = "PyxisUieModel::Vpu";
    CheckUies(uies, where);
    CheckPositive(where, "elements", elements);
    CheckPositive(where, "instructions", instructions);
    CheckBytes(where, "inBytes", inBytes);
    CheckBytes(where, "outBytes", outBytes);
    const PyxisUieParams& p = m_params;
    PyxisKernelBreakdown b;
    b.op = PyxisKernelOp::VPU;
    b.uies = uies;
    b.clustersUsed = static_cast<uint32_t>(CeilDiv(uies, p.uiesPerCluster));
    b.tiles = CeilDiv(elements, p.vpuLanes); // rows of 128 elements
    const uint64_t perUie = CeilDiv(b.tiles, uies);
    b.tilesPerUie = static_cast<double>(perUie);
    b.computeCyclesPerTile = instructions; // one instruction per cycle on every lane (6.4)
    b.writebackCyclesPerTile = 0;
    b.tileCycles = instructions;
    b.loopCycles = perUie * instructions;
    // A row of b bytes per element crosses a 128 B/cycle port in b cycles (FP16: 2).
    const uint64_t rowIn = CeilDiv(uint64_t{p.vpuLanes} * inBytes, p.amemPortBytesPerCycle);
    const uint64_t rowOut = CeilDiv(uint64_t{p.vpuLanes} * outBytes, p.amemPortBytesPerCycle);
    b.amemCycles = perUie * std::max(rowIn, rowOut);
    const double inTotal = static_cast<double>(elements) * inBytes;
    const double outTotal = static_cast<double>(elements) * outBytes;
    const double hbm = (inInHbm ? inTotal : 0.0) + (outToHbm ? outTotal : 0.0);
    b.hbmBytes = static_cast<uint64_t>(hbm);
    b.hbmCycles = HbmCycles(hbm, b.clustersUsed);
    const double cl = b.clustersUsed;
    b.amemBytesPerCluster = static_cast<uint64_t>((inInHbm ? 0.0 : std::ceil(inTotal / cl)) +
                                                  (outToHbm ? 0.0 : std::ceil(outTotal / cl)));
    b.flops = static_cast<double>(instructions) * static_cast<double>(elements);
    Finish(b, outBytes);
    return b;
}

PyxisKernelBreakdown
PyxisUieModel::Transpose(uint64_t rows, uint64_t cols, uint32_t bytes, uint32_t uies) const
{
    NS_LOG_FUNCTION(this << rows << cols << bytes << uies);
    const char* where = "PyxisUieModel::Transpose";
    CheckUies(uies, where);
    CheckPositive(where, "rows", rows);
    CheckPositive(where, "cols", cols);
    CheckBytes(where, "bytes", bytes);
    const PyxisUieParams& p = m_params;
    PyxisKernelBreakdown b;
    b.op = PyxisKernelOp::TRANSPOSE;
    b.uies = uies;
    b.clustersUsed = static_cast<uint32_t>(CeilDiv(uies, p.uiesPerCluster));
    // Each 128 x 128 block is A^T * I with K = 128 and A read transposed (6.1.3.1).
    b.tiles = CeilDiv(rows, p.gridRows) * CeilDiv(cols, p.gridCols);
    const uint64_t perUie = CeilDiv(b.tiles, uies);
    b.tilesPerUie = static_cast<double>(perUie);
    b.computeCyclesPerTile = uint64_t{bytes} * p.gridRows; // s * K, s = bytes
    b.writebackCyclesPerTile =
        CeilDiv(uint64_t{p.gridRows} * p.gridCols * bytes, p.amemPortBytesPerCycle);
    b.tileCycles = std::max(b.computeCyclesPerTile, b.writebackCyclesPerTile);
    b.loopCycles = perUie * b.tileCycles;
    b.amemCycles =
        perUie * CeilDiv(uint64_t{p.gridRows} * p.gridCols * bytes, p.amemPortBytesPerCycle);
    const double total = static_cast<double>(rows) * static_cast<double>(cols) * bytes;
    b.hbmBytes = 0;
    b.hbmCycles = 0;
    b.amemBytesPerCluster = static_cast<uint64_t>(2.0 * std::ceil(total / b.clustersUsed));
    b.flops = 0;
    Finish(b, bytes);
    return b;
}

void
PyxisUieModel::FinishBatch(PyxisBatchResult& r,
                           const Eigen::ArrayXd& hbm,
                           const Eigen::ArrayXd& compute,
                           double wb,
                           double cl) const
{
    const PyxisUieParams& p = m_params;
    const Eigen::Index size = compute.size();
    r.hbmCycles = (hbm / (p.hbmBytesPerSecond * cl) * p.clockHz).ceil();
    r.boundCycles = r.loopCycles.max(r.amemCycles).max(r.hbmCycles);
    const Eigen::ArrayXi loopKind =
        (compute >= wb)
            .select(Eigen::ArrayXi::Constant(size, static_cast<int>(PyxisBound::COMPUTE)),
                    static_cast<int>(PyxisBound::WRITEBACK));
    const Eigen::ArrayXi memKind =
        (r.hbmCycles >= r.amemCycles)
            .select(Eigen::ArrayXi::Constant(size, static_cast<int>(PyxisBound::HBM)),
                    static_cast<int>(PyxisBound::AMEM));
    r.bound =
        (r.loopCycles >= r.amemCycles && r.loopCycles >= r.hbmCycles).select(loopKind, memKind);
    const double drain = wb + p.drainCommitCycles;
    r.totalCycles = r.boundCycles + (p.fillCycles + drain);
    r.totalSeconds = r.totalCycles / p.clockHz;
}

PyxisBatchResult
PyxisUieModel::GemmBatch(const Eigen::ArrayXd& m,
                         const Eigen::ArrayXd& n,
                         const Eigen::ArrayXd& k,
                         const PyxisGemmShape& options,
                         uint32_t uies) const
{
    NS_LOG_FUNCTION(this << m.size() << uies);
    const char* where = "PyxisUieModel::GemmBatch";
    if (n.size() != m.size() || k.size() != m.size())
    {
        Fail(where, "n, k", static_cast<double>(n.size()), "arrays m, n, k must have one size");
    }
    CheckBatch(where, "m", m);
    CheckBatch(where, "n", n);
    CheckBatch(where, "k", k);
    // Validate the options once through the scalar path (same messages).
    PyxisGemmShape probe = options;
    probe.m = probe.n = probe.k = 1;
    Gemm(probe, uies);

    const PyxisUieParams& p = m_params;
    const Eigen::Index size = m.size();
    const double u = uies;
    const double rows = p.gridRows;
    const double cols = p.gridCols;
    const double port = p.amemPortBytesPerCycle;
    const double cl = std::ceil(u / p.uiesPerCluster);
    const double aBytesEff = options.compressionBlock != 0
                                 ? CompressedBitsPerWeight(options.compressionBlock) / 8.0
                                 : static_cast<double>(options.aBytes);
    const double s = (options.aBytes == 1 && options.bBytes == 1) ? 1.0 : 2.0;

    PyxisBatchResult r;
    const Eigen::ArrayXd kEff = options.aTransposed ? k : Eigen::ArrayXd(rows * CeilDivA(k, rows));
    const Eigen::ArrayXd compute = s * kEff;
    const double wb = std::ceil(rows * cols * options.outBytes / port);
    const Eigen::ArrayXd tileC = compute.max(wb);
    r.tiles = CeilDivA(m, rows) * CeilDivA(n, cols);
    const Eigen::ArrayXd perUie = CeilDivA(r.tiles, u);
    const Eigen::ArrayXd noSplit = perUie * tileC;
    const Eigen::ArrayXd l = (r.tiles * compute / u).ceil();
    const Eigen::ArrayXd pieces = (l / compute).ceil() + 1.0;
    const Eigen::ArrayXd share = (compute / l).ceil();
    const Eigen::ArrayXd split =
        (compute > wb).select(l.max(pieces * wb) + (share - 1.0) * wb, noSplit);
    Eigen::Array<bool, Eigen::Dynamic, 1> apply;
    switch (options.splitK)
    {
    case PyxisSplitK::NEVER:
        apply = Eigen::Array<bool, Eigen::Dynamic, 1>::Constant(size, false);
        break;
    case PyxisSplitK::ALWAYS:
        apply = split < noSplit;
        break;
    case PyxisSplitK::AUTO:
        apply = (noSplit - split) > p.splitKMinGain * noSplit;
        break;
    }
    r.splitK = apply.cast<int>();
    r.loopCycles = apply.select(split, noSplit);
    r.tilesPerUie = apply.select(r.tiles / u, perUie);
    const Eigen::ArrayXd aPort = (rows * kEff * aBytesEff / port).ceil();
    const Eigen::ArrayXd bPort = CeilDivA(cols * k * options.bBytes, port);
    const Eigen::ArrayXd readPort = aPort.max(bPort);
    r.amemCycles = apply.select((r.tiles * readPort / u).ceil(), perUie * readPort.max(wb));

    const Eigen::ArrayXd aTotal = (m * k * aBytesEff).ceil();
    const Eigen::ArrayXd bTotal = k * n * options.bBytes;
    const Eigen::ArrayXd cTotal = m * n * options.outBytes;
    const Eigen::ArrayXd zero = Eigen::ArrayXd::Zero(size);
    const Eigen::ArrayXd hbm = (options.aInHbm ? aTotal : zero) + (options.bInHbm ? bTotal : zero) +
                               (options.outToHbm ? cTotal : zero);
    FinishBatch(r, hbm, compute, wb, cl);
    r.flops = 2.0 * m * n * k;
    return r;
}

PyxisBatchResult
PyxisUieModel::Conv3x3Batch(const Eigen::ArrayXd& h,
                            const Eigen::ArrayXd& w,
                            const Eigen::ArrayXd& cin,
                            const Eigen::ArrayXd& cout,
                            const PyxisConvShape& options,
                            uint32_t uies) const
{
    NS_LOG_FUNCTION(this << h.size() << uies);
    const char* where = "PyxisUieModel::Conv3x3Batch";
    if (w.size() != h.size() || cin.size() != h.size() || cout.size() != h.size())
    {
        Fail(where, "w, cin, cout", static_cast<double>(w.size()), "arrays must have one size");
    }
    CheckBatch(where, "h", h);
    CheckBatch(where, "w", w);
    CheckBatch(where, "cin", cin);
    CheckBatch(where, "cout", cout);
    PyxisConvShape probe = options;
    probe.h = probe.w = probe.cin = probe.cout = 1;
    Conv3x3(probe, uies);

    const PyxisUieParams& p = m_params;
    const Eigen::Index size = h.size();
    const double u = uies;
    const double port = p.amemPortBytesPerCycle;
    const double cl = std::ceil(u / p.uiesPerCluster);
    const double physRows = p.gridRows / 8;
    const double s = options.inBytes == 1 ? 1.0 : 2.0;
    const double cols = p.gridCols;

    PyxisBatchResult r;
    const Eigen::ArrayXd f =
        (w <= 16).select(8.0,
                         (w <= 32).select(4.0, (w <= 64).select(2.0, Eigen::ArrayXd::Ones(size))));
    const Eigen::ArrayXd wTiles =
        (w <= cols).select(1.0, 1.0 + ((w - cols) / p.convTileStep).ceil());
    const Eigen::ArrayXd passes = (cout / (physRows * f)).ceil();
    const Eigen::ArrayXd rowGroups = CeilDivA(h, p.convRowsPerGroup);
    const Eigen::ArrayXd compute = p.convCyclesPerGroup * s * cin;
    const double wb = std::ceil(p.gridRows * cols * options.outBytes / port);
    r.tiles = wTiles * passes * rowGroups;
    const Eigen::ArrayXd perUie = CeilDivA(r.tiles, u);
    r.tilesPerUie = perUie;
    r.loopCycles = perUie * compute.max(wb);
    r.splitK = Eigen::ArrayXi::Zero(size);
    const Eigen::ArrayXd vPort = double(p.convCyclesPerGroup) * cin * options.inBytes;
    const Eigen::ArrayXd wPort = (physRows * f * 9.0 * cin / port).ceil();
    r.amemCycles = perUie * vPort.max(wPort).max(wb);

    const double stride = options.stride;
    const Eigen::ArrayXd hOut = (h / stride).ceil();
    const Eigen::ArrayXd wOut = (w / stride).ceil();
    const Eigen::ArrayXd wTotal = 9.0 * cin * cout;
    const Eigen::ArrayXd inTotal = h * w * cin * options.inBytes;
    const Eigen::ArrayXd outTotal = hOut * wOut * cout * options.outBytes;
    const Eigen::ArrayXd zero = Eigen::ArrayXd::Zero(size);
    const Eigen::ArrayXd hbm = (options.weightsInHbm ? wTotal : zero) +
                               (options.inInHbm ? inTotal : zero) +
                               (options.outToHbm ? outTotal : zero);
    FinishBatch(r, hbm, compute, wb, cl);
    r.flops = 2.0 * wTotal * hOut * wOut;
    return r;
}

std::string
PyxisUieModel::BoundName(PyxisBound bound)
{
    switch (bound)
    {
    case PyxisBound::COMPUTE:
        return "compute";
    case PyxisBound::WRITEBACK:
        return "writeback";
    case PyxisBound::HBM:
        return "hbm";
    case PyxisBound::AMEM:
        return "amem";
    }
    return "unknown";
}

std::string
PyxisUieModel::OpName(PyxisKernelOp op)
{
    switch (op)
    {
    case PyxisKernelOp::GEMM:
        return "gemm";
    case PyxisKernelOp::CONV3X3:
        return "conv3x3";
    case PyxisKernelOp::VPU:
        return "vpu";
    case PyxisKernelOp::TRANSPOSE:
        return "transpose";
    }
    return "unknown";
}

} // namespace ns3
