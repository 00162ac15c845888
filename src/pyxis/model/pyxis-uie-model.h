/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PYXIS_UIE_MODEL_H
#define PYXIS_UIE_MODEL_H

#include <Eigen/Core>
#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \defgroup pyxis Pyxis chip (the Pyxis Chip Functional Specification): UIE kernel model, memory,
 * trips, RDMA, workloads
 */

/**
 * \ingroup pyxis
 * \brief Parameters of the closed-form UIE timing model (Pyxis spec sections 1, 5, 6, 8). Defaults
 * are the spec's values; those marked [assumption] are modelling choices the spec leaves open
 * (doc/pyxis.rst, Scope and Limitations).
 */
struct PyxisUieParams
{
    double clockHz = 1.33e9;          //!< UIE and AMEM clock, Hz (1: "Performance @1.33 GHz")
    uint32_t clusters = 4;            //!< clusters per chip (1, 5.1)
    uint32_t uiesPerCluster = 12;     //!< UIEs per cluster (1, 5.1)
    uint32_t gridRows = 128;          //!< virtual grid rows: 16 physical x 8 (6.1.2-6.1.3)
    uint32_t gridCols = 128;          //!< grid columns (6.3)
    uint32_t fillCycles = 40;         //!< T_fill, cycles [assumption; 6.3.1 gives 4 + 8 of it]
    uint32_t drainCommitCycles = 100; //!< T_drain = 128 * b_out + this, cycles (11.7.2 commit)
    uint32_t launchCycles = 50; //!< T_launch after barrier release [assumption]; not in totals
    double hbmBytesPerSecond = 1228.8e9; //!< HBM3E per cluster, B/s (8: 1024 pins x 9.6 Gb/s)
    uint64_t amemBytesPerCluster = 64ULL << 20; //!< AMEM capacity per cluster, bytes (7)
    uint32_t amemPortBytesPerCycle = 128;       //!< each AMEM port of a UIE, B/cycle (6.1)
    uint32_t amemReadPorts = 2;    //!< AMEM read ports per UIE: vertical + weights (6.1)
    uint32_t amemWritePorts = 1;   //!< AMEM write ports per UIE (6.1)
    uint32_t convRowsPerGroup = 8; //!< 3x3 output rows per row group: 8 accumulator slots (6.1.1)
    uint32_t convCyclesPerGroup = 10; //!< 3x3 cycles per input channel and row group: 8 + 2 (6.1.1)
    uint32_t convTileStep = 112;      //!< 3x3 column step of W > 128 tiles (17.2.1)
    uint32_t vpuLanes = 128;          //!< VPU ALUs per UIE (6.4)
    double splitKMinGain =
        0.10; //!< AUTO split-K only if it cuts the tile loop by more [assumption]
};

/**
 * \ingroup pyxis
 * What bounds a kernel (the largest term of the roofline).
 */
enum class PyxisBound
{
    COMPUTE,   //!< grid or VPU compute (s * K cycles per tile)
    WRITEBACK, //!< accumulator write-back at 128 B/cycle (128 * b_out cycles per tile)
    HBM,       //!< operands streamed from HBM at 1228.8 GB/s per cluster
    AMEM,      //!< a UIE's AMEM port at 128 B/cycle
};

/**
 * \ingroup pyxis
 * Split-K policy for GEMM and linear layers (partial tiles added by InMemAdd, 7.4).
 */
enum class PyxisSplitK
{
    NEVER,  //!< whole output tiles per UIE only
    AUTO,   //!< split when it cuts the tile loop by more than PyxisUieParams::splitKMinGain
    ALWAYS, //!< split whenever it cuts the tile loop at all
};

/**
 * \ingroup pyxis
 * Kind of a kernel.
 */
enum class PyxisKernelOp
{
    GEMM,      //!< C = A * B (linear and 1x1 convolution included)
    CONV3X3,   //!< 3x3 convolution
    VPU,       //!< VPU element-wise
    TRANSPOSE, //!< transpose through A^T * I
};

/**
 * \ingroup pyxis
 * A GEMM C[M x N] = A[M x K] * B[K x N] (6.1.3). A linear layer Y[Cout x T] = W[Cout x Cin] *
 * X[Cin x T] and a 1x1 convolution are the same GEMM with M = Cout, K = Cin, N = T (6.1.2):
 * see Linear().
 */
struct PyxisGemmShape
{
    uint64_t m = 128;              //!< rows of A and C (output channels of a linear layer)
    uint64_t n = 128;              //!< columns of B and C (tokens, or pixels of a 1x1 convolution)
    uint64_t k = 128;              //!< common dimension (input channels)
    uint32_t aBytes = 1;           //!< bytes per element of A (horizontal: weights or matrix A)
    uint32_t bBytes = 1;           //!< bytes per element of B (vertical data)
    uint32_t outBytes = 1;         //!< bytes per element of C
    bool aTransposed = false;      //!< A read transposed: any K at full speed (6.1.3.1)
    bool aInHbm = false;           //!< A streamed from HBM (else resident in AMEM)
    bool bInHbm = false;           //!< B streamed from HBM
    bool outToHbm = false;         //!< C written to HBM
    uint32_t compressionBlock = 0; //!< A as 4-bit codes with this block size (4/8/16/32), 0: none
    PyxisSplitK splitK = PyxisSplitK::AUTO; //!< split-K policy

    /**
     * A linear layer (or 1x1 convolution with tokens = H * W): the weights are A, read through
     * the weights datapath at any Cin (aTransposed = true; 6.1.2, 6.2.4).
     * \param cout output channels
     * \param cin input channels
     * \param tokens tokens (columns)
     * \param bytes bytes per element of weights, data and output (1: FP8, 2: FP16)
     * \param weightsInHbm weights streamed from HBM
     * \return the GEMM
     */
    static PyxisGemmShape Linear(uint64_t cout,
                                 uint64_t cin,
                                 uint64_t tokens,
                                 uint32_t bytes = 1,
                                 bool weightsInHbm = false);
};

/**
 * \ingroup pyxis
 * A 3x3 convolution of an H x W x Cin input to Cout channels, "same" padding (6.1.1).
 */
struct PyxisConvShape
{
    uint64_t h = 56;           //!< input rows
    uint64_t w = 56;           //!< input columns
    uint64_t cin = 64;         //!< input channels
    uint64_t cout = 64;        //!< output channels
    uint32_t stride = 1;       //!< 1 or 2; stride 2 is charged the stride-1 time [assumption]
    uint32_t inBytes = 1;      //!< bytes per input element (FP8 1, FP16 2)
    uint32_t weightBytes = 1;  //!< bytes per weight: must be 1, LnsI4F3 (15.5)
    uint32_t outBytes = 1;     //!< bytes per output element
    bool weightsInHbm = false; //!< weights streamed from HBM
    bool inInHbm = false;      //!< input streamed from HBM
    bool outToHbm = false;     //!< output written to HBM
};

/**
 * \ingroup pyxis
 * Timing breakdown of one kernel. Cycles are UIE cycles; "tiles" are the kernel's work units:
 * 128 x 128 output tiles (GEMM, transpose), (W tile, filter pass, row group) triples (3x3) or
 * rows of 128 elements (VPU).
 */
struct PyxisKernelBreakdown
{
    PyxisKernelOp op = PyxisKernelOp::GEMM; //!< kernel kind
    uint32_t uies = 1;                      //!< UIEs used
    uint32_t clustersUsed = 1;              //!< clusters holding those UIEs: ceil(uies / 12)
    uint64_t tiles = 0;                     //!< work units
    double tilesPerUie =
        0; //!< work units on the busiest UIE: ceil(tiles / uies), tiles / uies with split-K
    uint64_t computeCyclesPerTile = 0;   //!< s * K_eff (GEMM), 10 * s * Cin (3x3), ... per unit
    uint64_t writebackCyclesPerTile = 0; //!< 128 * b_out per tile (0 for VPU)
    uint64_t tileCycles = 0;             //!< max(compute, writeback) per unit
    bool splitK = false;                 //!< the K range of tiles was split over UIEs
    uint64_t loopCycles = 0;             //!< tile loop of the busiest UIE, fill and drain excluded
    uint64_t amemCycles = 0;             //!< busiest AMEM port of the busiest UIE
    uint64_t hbmCycles = 0;              //!< HBM streaming time (0 when nothing streams)
    uint64_t boundCycles = 0;            //!< max(loop, amem, hbm): the roofline
    uint64_t fillCycles = 0;             //!< T_fill
    uint64_t drainCycles = 0;            //!< T_drain
    uint64_t totalCycles = 0;            //!< boundCycles + fill + drain
    double boundSeconds = 0;             //!< boundCycles / clock
    double totalSeconds = 0;             //!< totalCycles / clock
    PyxisBound bound = PyxisBound::COMPUTE; //!< the largest roofline term
    double flops = 0;                       //!< useful FLOPs (2 per MAC; VPU: instructions)
    uint64_t hbmBytes = 0;                  //!< bytes moved to or from HBM
    uint64_t amemBytesPerCluster = 0;       //!< AMEM footprint of one cluster
    bool fitsInAmem = true;                 //!< footprint <= AMEM capacity of a cluster
};

/**
 * \ingroup pyxis
 * Batch results (GemmBatch(), Conv3x3Batch()): one element per shape, cycles as doubles
 * (integers, exact below 2^53).
 */
struct PyxisBatchResult
{
    Eigen::ArrayXd tiles;        //!< work units
    Eigen::ArrayXd tilesPerUie;  //!< work units on the busiest UIE
    Eigen::ArrayXd loopCycles;   //!< tile loop
    Eigen::ArrayXd amemCycles;   //!< busiest AMEM port
    Eigen::ArrayXd hbmCycles;    //!< HBM streaming
    Eigen::ArrayXd boundCycles;  //!< max(loop, amem, hbm)
    Eigen::ArrayXd totalCycles;  //!< bound + fill + drain
    Eigen::ArrayXd totalSeconds; //!< totalCycles / clock
    Eigen::ArrayXd flops;        //!< useful FLOPs
    Eigen::ArrayXi bound;        //!< PyxisBound as int
    Eigen::ArrayXi splitK;       //!< 1 where split-K was applied
};

/**
 * \ingroup pyxis
 * \brief The closed-form timing model of the Pyxis Universal Inference Engine (Pyxis spec
 * section 6; derived in pyxis.rst, "UIE kernel model"). Plain C++ and Eigen, no ns-3 objects:
 * usable from tests, from the chip model and from Python alike.
 *
 * With s = 1 if every operand is 8-bit and 2 otherwise (6.3, 6.1.3.2) and b_out the output
 * bytes per element:
 * - GEMM: K_eff = K (A transposed) or 128 ceil(K / 128) (A row-shifted);
 *   T_tile = max(s K_eff, 128 b_out); loop = ceil(ceil(M/128) ceil(N/128) / U) T_tile, or with
 *   split-K L = ceil(tiles s K_eff / U) (plus write-back terms when L < s K_eff, see Gemm()).
 * - 3x3: F = 1, 2, 4, 8 for W in (64,128], (32,64], (16,32], <= 16; Wtiles = 1 + ceil((W -
 *   128) / 112) above 128; T_rg = max(10 s Cin, 128 b_out); loop = ceil(Wtiles ceil(Cout /
 *   16F) ceil(H / 8) / U) T_rg.
 * - VPU: loop = ceil(ceil(E / 128) / U) max(n, b_in, b_out).
 * - Transpose: A^T I per 128 x 128 tile, T_tile = max(128 b, 128 b).
 * - Roofline: bound = max(loop, AMEM port, HBM bytes / (1228.8 GB/s x clusters)); total =
 *   bound + T_fill + T_drain, T_drain = 128 b_out + 100.
 */
class PyxisUieModel
{
  public:
    /// Model with the spec's defaults.
    PyxisUieModel();
    /**
     * \param params parameters (validated: std::invalid_argument naming the field)
     */
    explicit PyxisUieModel(const PyxisUieParams& params);

    /// \return the parameters
    const PyxisUieParams& GetParams() const;

    /// \return UIEs of the chip: clusters x UIEs per cluster (48)
    uint32_t GetChipUies() const;

    /**
     * \param g the GEMM
     * \param uies UIEs used (1 to GetChipUies())
     * \return its breakdown
     */
    PyxisKernelBreakdown Gemm(const PyxisGemmShape& g, uint32_t uies) const;

    /**
     * \param c the convolution
     * \param uies UIEs used
     * \return its breakdown
     */
    PyxisKernelBreakdown Conv3x3(const PyxisConvShape& c, uint32_t uies) const;

    /**
     * VPU element-wise operation (6.1.4, 6.4): n instructions per element, one instruction per
     * cycle on 128 lanes; a row of FP16 takes 2 cycles to read or write (128 B/cycle ports).
     * \param elements elements
     * \param instructions VPU instructions per element (n >= 1)
     * \param inBytes bytes per input element
     * \param outBytes bytes per output element
     * \param uies UIEs used
     * \param inInHbm input streamed from HBM
     * \param outToHbm output written to HBM
     * \return its breakdown
     */
    PyxisKernelBreakdown Vpu(uint64_t elements,
                             uint32_t instructions,
                             uint32_t inBytes,
                             uint32_t outBytes,
                             uint32_t uies,
                             bool inInHbm = false,
                             bool outToHbm = false) const;

    /**
     * Transpose of a rows x cols matrix through A^T * I, one 128 x 128 tile at a time (6.1.3.1,
     * 17.1).
     * \param rows rows
     * \param cols columns
     * \param bytes bytes per element
     * \param uies UIEs used
     * \return its breakdown (flops 0)
     */
    PyxisKernelBreakdown Transpose(uint64_t rows,
                                   uint64_t cols,
                                   uint32_t bytes,
                                   uint32_t uies) const;

    /**
     * Many GEMMs at once (Eigen arrays, vectorised): element i is the GEMM of shape
     * (m[i], n[i], k[i]) with the other fields of \p options. Equals Gemm() element by element.
     * \param m rows (positive integers)
     * \param n columns
     * \param k common dimension
     * \param options byte widths, layout, HBM flags, split-K policy (its m, n, k are ignored)
     * \param uies UIEs used
     * \return the results
     */
    PyxisBatchResult GemmBatch(const Eigen::ArrayXd& m,
                               const Eigen::ArrayXd& n,
                               const Eigen::ArrayXd& k,
                               const PyxisGemmShape& options,
                               uint32_t uies) const;

    /**
     * Many 3x3 convolutions at once; equals Conv3x3() element by element.
     * \param h input rows
     * \param w input columns
     * \param cin input channels
     * \param cout output channels
     * \param options byte widths, stride, HBM flags (its h, w, cin, cout are ignored)
     * \param uies UIEs used
     * \return the results
     */
    PyxisBatchResult Conv3x3Batch(const Eigen::ArrayXd& h,
                                  const Eigen::ArrayXd& w,
                                  const Eigen::ArrayXd& cin,
                                  const Eigen::ArrayXd& cout,
                                  const PyxisConvShape& options,
                                  uint32_t uies) const;

    /**
     * Filters per grid row of a 3x3 convolution (6.3.2): 1 for W > 64, 2 for W <= 64, 4 for
     * W <= 32, 8 for W <= 16.
     * \param w tensor width (columns)
     * \return F
     */
    static uint32_t FiltersPerGridRow(uint64_t w);

    /**
     * Column tiles of a 3x3 convolution (17.2.1): 1 if W <= 128, else 1 + ceil((W - 128) / 112).
     * \param w tensor width
     * \return tiles
     */
    uint64_t ConvWidthTiles(uint64_t w) const;

    /**
     * \param bound a bound
     * \return its name: "compute", "writeback", "hbm", "amem"
     */
    static std::string BoundName(PyxisBound bound);

    /**
     * \param op a kernel kind
     * \return its name: "gemm", "conv3x3", "vpu", "transpose"
     */
    static std::string OpName(PyxisKernelOp op);

    /**
     * Bits per weight in memory of 4-bit compressed weights (14.2): 4 + 8 / block.
     * \param block block size (4, 8, 16 or 32)
     * \return bits per weight (6, 5, 4.5, 4.25)
     */
    static double CompressedBitsPerWeight(uint32_t block);

  private:
    /**
     * Check a UIE count.
     * \param uies UIEs
     * \param where the caller, for the message
     */
    void CheckUies(uint32_t uies, const char* where) const;

    /**
     * Fill the roofline part of a breakdown: bound, fill, drain, totals, seconds.
     * \param b the breakdown with loop, amem and hbm cycles set
     * \param outBytes output bytes per element (drain)
     */
    void Finish(PyxisKernelBreakdown& b, uint32_t outBytes) const;

    /**
     * The roofline part of a batch (as Finish for one shape): HBM cycles, bound, totals.
     * \param r the result with loop and amem cycles set
     * \param hbm bytes to or from HBM per shape
     * \param compute compute cycles per tile per shape (against the write-back: the bound)
     * \param wb write-back cycles per tile
     * \param cl clusters whose HBM stacks stream
     */
    void FinishBatch(PyxisBatchResult& r,
                     const Eigen::ArrayXd& hbm,
                     const Eigen::ArrayXd& compute,
                     double wb,
                     double cl) const;

    /**
     * \param bytes bytes streamed from or to HBM
     * \param clusters clusters whose HBM stacks stream them
     * \return cycles, ceil(bytes / (rate x clusters) x clock)
     */
    uint64_t HbmCycles(double bytes, uint32_t clusters) const;

    PyxisUieParams m_params; //!< parameters
};

} // namespace ns3

#endif /* PYXIS_UIE_MODEL_H */
