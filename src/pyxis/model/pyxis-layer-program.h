/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PYXIS_LAYER_PROGRAM_H
#define PYXIS_LAYER_PROGRAM_H

#include "pyxis-model-spec.h"

#include "ns3/collective-spec.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup pyxis
 * \brief The compute resources of a chip that the lowering splits work over (Pyxis spec 1, 5.1,
 * 6.3, 6.4).
 */
struct PyxisChipShape
{
    uint32_t clusters{4};        //!< clusters per chip; also the rings of a collective
    uint32_t uiesPerCluster{12}; //!< UIEs per cluster
    uint32_t tile{128};          //!< GEMM output tile edge (128 x 128 grid)
    uint32_t vpuLanes{128};      //!< VPU elements per row
};

/**
 * \ingroup pyxis
 * \brief The lowering of a PyxisModelSpec: for every chip and layer, the operations it runs, in
 * order, with their shapes after tensor-parallel partitioning, each compute operation split
 * over the chip's clusters and UIEs, and each tensor-parallel collective as per-cluster rings of
 * steps (pyxis.rst, "Workload").
 *
 * Everything here is plain data (no ns-3 objects, no times): a trip-program builder turns it
 * into trips and barriers, and the UIE kernel model gives the cycles of each compute share.
 *
 * Chips: chip c has tensor-parallel rank c % tensor and data-parallel rank c / tensor; its
 * tensor-parallel group is the `tensor` consecutive chips from (c / tensor) * tensor, in rank
 * order (the ring order), and its data-parallel group is the chips with the same tensor rank.
 *
 * Dependencies: the operations of a chip form one chain in the order given (operation i reads
 * what operation i - 1 wrote), across layers as well; the only exception is DP_COMM, which no
 * later operation reads (the builder may overlap it with what follows).
 */
class PyxisLayerProgram
{
  public:
    /// The chip's compute resources.
    using ChipShape = PyxisChipShape;

    /**
     * The part of a compute operation one UIE runs: `units` consecutive work units from
     * `firstUnit` (units: see ComputeOp::units).
     */
    struct UieShare
    {
        uint32_t cluster{0};   //!< cluster (0 .. clusters-1)
        uint32_t uie{0};       //!< UIE within the cluster (0 .. uiesPerCluster-1)
        uint64_t firstUnit{0}; //!< first work unit
        uint64_t units{0};     //!< work units (at least 1)
    };

    /// A compute operation on the UIEs of one chip.
    struct ComputeOp
    {
        /// What runs.
        enum Kind
        {
            GEMM,    //!< `count` independent GEMMs C[m x n] = A[m x k] B[k x n]
            CONV3X3, //!< 3x3 convolution (height x width x cin -> cout, stride)
            VPU,     //!< element-wise VPU pass: `elements` x `opsPerElement` instructions
        };

        Kind kind{GEMM};  //!< kind
        std::string name; //!< "qkv", "scores", "softmax", ... "linear"
        PyxisModelSpec::Dtype dtype{PyxisModelSpec::FP8}; //!< operands and result
        // GEMM (6.1.2: m = output rows, e.g. out features; k = reduction; n = tokens)
        uint64_t m{0};     //!< rows of C
        uint64_t k{0};     //!< reduction length
        uint64_t n{0};     //!< columns of C
        uint64_t count{1}; //!< independent GEMMs of that shape (batch x heads for attention)
        // CONV3X3 (this chip's part)
        uint64_t batch{1};  //!< images
        uint64_t height{0}; //!< input rows
        uint64_t width{0};  //!< input columns
        uint64_t cin{0};    //!< input channels
        uint64_t cout{0};   //!< output channels
        uint32_t stride{1}; //!< 1 or 2
        // VPU
        uint64_t elements{0};      //!< elements
        uint32_t opsPerElement{0}; //!< VPU instructions per element
        /**
         * Split-K (GEMM, parallelism.split-k: auto): the K slices each output tile is cut into
         * (1: none). Unit u is then tile u / kSplit over K range [s kSlice, min(k, (s+1) kSlice))
         * with s = u mod kSplit, written as a partial result; a VPU op "<name>.split-k-add"
         * follows that adds the kSplit partials of every output element.
         */
        uint64_t kSplit{1};
        uint64_t kSlice{0}; //!< K elements per slice (a multiple of tile but the last; = k if 1)
        /**
         * Work units, the grain of the split over UIEs: GEMM output tiles
         * (times kSplit), count * ceil(m/tile) * ceil(n/tile); 3x3 row-group passes (8 output rows
         * x 16F output channels x one column tile, 6.1.1), batch * wTiles * ceil(cout/(16F)) *
         * ceil(height/8); VPU rows of vpuLanes elements, ceil(elements/vpuLanes).
         */
        uint64_t units{0};
        uint64_t flops{0};            //!< 2 * MACs (GEMM, CONV3X3); elements * opsPerElement (VPU)
        uint64_t weightBytes{0};      //!< this chip's weights (0 for attention scores/context, VPU)
        std::vector<UieShare> shares; //!< UIEs with at least one unit (see Lower)
    };

    /// One step of a ring: what a rank sends to the next rank and receives from the previous.
    struct RingStep
    {
        uint32_t step{0};           //!< 0 .. steps-1
        bool reduce{false};         //!< the received chunk is added (reduce-scatter phase)
        uint32_t sendBlock{0};      //!< block sent: (rank - step) mod P
        uint32_t recvBlock{0};      //!< block received: (rank - step - 1) mod P
        uint64_t sendBytes{0};      //!< bytes of the sent block
        uint64_t recvBytes{0};      //!< bytes of the received block
        uint64_t reduceElements{0}; //!< elements added (0 if !reduce)
        uint64_t reduceCycles{0};   //!< VPU or InMemAdd cycles of the add (0 if !reduce)
    };

    /// One cluster's ring of a collective: S/clusters bytes in P blocks.
    struct Ring
    {
        uint32_t cluster{0};         //!< the cluster (same index on every chip of the ring)
        uint64_t bytes{0};           //!< this ring's share of S
        std::vector<RingStep> steps; //!< in order
    };

    /// A tensor-parallel collective of one chip (its part of a ring algorithm over its group).
    struct CommOp
    {
        std::string name;                                            //!< "attn-all-reduce", ...
        CollectiveSpec::Type collective{CollectiveSpec::ALL_REDUCE}; //!< ALL_REDUCE or ALL_GATHER
        PyxisModelSpec::Reduction reduction{PyxisModelSpec::VPU};    //!< how an all-reduce adds
        PyxisModelSpec::Dtype dtype{PyxisModelSpec::FP8};            //!< element type of the buffer
        /**
         * S: the per-chip buffer (all-reduce: tokens x d_model x bytes of partial sums; all-gather:
         * the gathered whole, of which this chip holds 1/P).
         */
        uint64_t bytes{0};
        std::vector<uint32_t> group; //!< chips of the ring, in ring order
        uint32_t rank{0};            //!< this chip's index in group
        uint32_t sendPeer{0};        //!< chip sent to: group[(rank + 1) mod P]
        uint32_t recvPeer{0};        //!< chip received from: group[(rank - 1) mod P]
        uint32_t steps{0};           //!< 2(P-1) for an all-reduce, P-1 for an all-gather
        uint64_t chunkBytes{0};      //!< nominal step chunk ceil(S / (clusters * P))
        std::vector<Ring> rings;     //!< one per cluster
    };

    /// A data-parallel collective, run by the collective module's algorithms.
    struct DataParallelOp
    {
        std::string name;            //!< "<layer>.dp-sync"
        CollectiveSpec spec;         //!< ALL_REDUCE of the chip's weight bytes over the replicas
        std::string algorithm;       //!< collective module algorithm name
        std::vector<uint32_t> group; //!< chips with this chip's tensor rank, by data rank
        uint32_t rank{0};            //!< this chip's index in group
        PyxisModelSpec::Reduction reduction{PyxisModelSpec::VPU}; //!< how a received block adds
        PyxisModelSpec::Dtype dtype{PyxisModelSpec::FP8};         //!< the weights' element type
    };

    /// One operation: exactly the member its kind names is filled.
    struct Op
    {
        /// Which member holds the operation.
        enum Kind
        {
            COMPUTE, //!< compute
            TP_COMM, //!< comm
            DP_COMM, //!< dp
        };

        Kind kind{COMPUTE}; //!< kind
        ComputeOp compute;  //!< COMPUTE
        CommOp comm;        //!< TP_COMM
        DataParallelOp dp;  //!< DP_COMM
    };

    /// A layer's operations on one chip.
    struct LayerOps
    {
        uint32_t layer{0};   //!< index in PyxisModelSpec::layers
        std::string name;    //!< the layer's name
        std::vector<Op> ops; //!< in order
    };

    /// Everything one chip runs.
    struct ChipProgram
    {
        uint32_t chip{0};             //!< chip id (0 .. tensor*data-1)
        uint32_t tensorRank{0};       //!< chip % tensor
        uint32_t dataRank{0};         //!< chip / tensor
        std::vector<LayerOps> layers; //!< one per model layer, in order
    };

    /**
     * Lower one chip's program.
     * \param spec the model
     * \param chip the chip (below spec.GetChips())
     * \param shape the chip's resources
     * \return its program
     */
    static ChipProgram LowerChip(const PyxisModelSpec& spec,
                                 uint32_t chip,
                                 const ChipShape& shape = ChipShape());

    /**
     * Lower the program of every chip.
     * \param spec the model
     * \param shape the chips' resources
     * \return spec.GetChips() programs, by chip id
     */
    static std::vector<ChipProgram> Lower(const PyxisModelSpec& spec,
                                          const ChipShape& shape = ChipShape());

    /**
     * Lower one layer for one chip.
     * \param spec the model
     * \param layer index in spec.layers
     * \param chip the chip
     * \param shape the chip's resources
     * \return the layer's operations
     */
    static LayerOps LowerLayer(const PyxisModelSpec& spec,
                               uint32_t layer,
                               uint32_t chip,
                               const ChipShape& shape = ChipShape());

    /**
     * Split work units over a chip's UIEs: UIE index i in [0, U) is cluster i mod clusters,
     * UIE i / clusters (so extra units spread over clusters first) and gets floor(units/U) units
     * plus one if i < units mod U; consecutive ranges in i order.
     * \param units work units
     * \param shape the chip
     * \return the shares with at least one unit
     */
    static std::vector<UieShare> SplitUnits(uint64_t units, const ChipShape& shape);

    /**
     * Build a ring collective's rings and steps (pyxis.rst, "Workload"): `clusters` rings of
     * S/clusters (the first S mod clusters rings one byte more), each in P blocks (the first ones
     * one byte more); an all-reduce has 2(P-1) steps, the first P-1 reducing; an all-gather P-1
     * steps. \param op the collective with collective, reduction, dtype, bytes, group and rank set;
     * the rest is filled
     * \param shape the chip
     */
    static void BuildRings(CommOp& op, const ChipShape& shape);

    /**
     * Cycles to add a received chunk (6.4, 6.2.1.4.1, 7.4): VPU: ceil(elements/vpuLanes) *
     * max(1, bytes per element) (FP16: 2 cycles per 128 elements); InMemAdd: ceil(bytes/128)
     * (one 128 B AMEM write per cycle).
     * \param reduction the method
     * \param bytes the chunk
     * \param dtype its element type
     * \param shape the chip (VPU lanes)
     * \return cycles
     */
    static uint64_t ReduceCycles(PyxisModelSpec::Reduction reduction,
                                 uint64_t bytes,
                                 PyxisModelSpec::Dtype dtype,
                                 const ChipShape& shape = ChipShape());

    /**
     * \param program a chip's layer
     * \return the sum of its GEMM and CONV3X3 FLOPs
     */
    static uint64_t MatrixFlops(const LayerOps& program);

    /**
     * \param spec the model
     * \param layer index in spec.layers
     * \return the FLOPs of the layer's GEMMs or convolution before partitioning (the closed form
     * of the layer, independent of the lowering)
     */
    static uint64_t LayerMatrixFlops(const PyxisModelSpec& spec, uint32_t layer);
};

} // namespace ns3

#endif /* PYXIS_LAYER_PROGRAM_H */
