/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pyxis-layer-program.h"

#include "ns3/assert.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PyxisLayerProgram");

namespace
{

using S = PyxisModelSpec;
using P = PyxisLayerProgram;

/**
 * \param a numerator
 * \param b denominator (> 0)
 * \return ceil(a / b)
 */
uint64_t
CeilDiv(uint64_t a, uint64_t b)
{
    return (a + b - 1) / b;
}

/**
 * Filters per grid-row of a 3x3 convolution (6.1.1, 6.3.2): narrow rows are replicated 128/W
 * times.
 * \param width input columns
 * \return 8, 4, 2 or 1
 */
uint64_t
ConvFilters(uint64_t width)
{
    if (width <= 16)
    {
        return 8;
    }
    if (width <= 32)
    {
        return 4;
    }
    if (width <= 64)
    {
        return 2;
    }
    return 1;
}

/// Builds the operations of one layer on one chip.
class LayerBuilder
{
  public:
    /**
     * \param spec the model
     * \param layer the layer index
     * \param chip the chip
     * \param shape the chip's resources
     */
    LayerBuilder(const S& spec, uint32_t layer, uint32_t chip, const P::ChipShape& shape)
        : m_spec(spec),
          m_l(spec.layers.at(layer)),
          m_chip(chip),
          m_shape(shape),
          m_p(spec.parallelism.tensor)
    {
        m_out.layer = layer;
        m_out.name = m_l.name;
    }

    /// \return the layer's operations
    P::LayerOps Build()
    {
        switch (m_l.kind)
        {
        case S::TRANSFORMER:
            Transformer();
            break;
        case S::LINEAR:
            Linear();
            break;
        case S::CONV3X3:
            Conv();
            break;
        }
        DataParallel();
        return m_out;
    }

  private:
    /**
     * Add a GEMM.
     * \param name its name
     * \param m rows of C
     * \param k reduction
     * \param n columns of C
     * \param count independent GEMMs
     * \param weights whether A is a weight matrix (counted in weightBytes)
     */
    void Gemm(const std::string& name,
              uint64_t m,
              uint64_t k,
              uint64_t n,
              uint64_t count,
              bool weights)
    {
        P::Op op;
        op.kind = P::Op::COMPUTE;
        auto& c = op.compute;
        c.kind = P::ComputeOp::GEMM;
        c.name = name;
        c.dtype = m_l.dtype;
        c.m = m;
        c.k = k;
        c.n = n;
        c.count = count;
        const uint64_t tiles = count * CeilDiv(m, m_shape.tile) * CeilDiv(n, m_shape.tile);
        const uint64_t uies = static_cast<uint64_t>(m_shape.clusters) * m_shape.uiesPerCluster;
        const uint64_t kBlocks = CeilDiv(k, m_shape.tile);
        c.kSplit = 1;
        c.kSlice = k;
        if (m_spec.parallelism.splitK && tiles < uies && kBlocks > 1)
        {
            // As many K slices as idle UIEs allow, of whole 128-element blocks.
            const uint64_t want = std::min(uies / tiles, kBlocks);
            const uint64_t sliceBlocks = CeilDiv(kBlocks, want);
            c.kSplit = CeilDiv(kBlocks, sliceBlocks);
            c.kSlice = c.kSplit > 1 ? sliceBlocks * m_shape.tile : k;
        }
        c.units = tiles * c.kSplit;
        c.flops = 2 * count * m * k * n;
        c.weightBytes = weights ? m * k * S::DtypeBytes(m_l.dtype) : 0;
        c.shares = P::SplitUnits(c.units, m_shape);
        const uint64_t kSplit = c.kSplit;
        m_out.ops.push_back(std::move(op));
        if (kSplit > 1)
        {
            // Add the partials: kSplit - 1 adds per output element, one VPU instruction each.
            Vpu(name + ".split-k-add", count * m * n * (kSplit - 1), 1);
        }
    }

    /**
     * Add a VPU pass.
     * \param name its name
     * \param elements elements
     * \param ops instructions per element (0: nothing added)
     */
    void Vpu(const std::string& name, uint64_t elements, uint32_t ops)
    {
        if (ops == 0 || elements == 0)
        {
            return;
        }
        P::Op op;
        op.kind = P::Op::COMPUTE;
        auto& c = op.compute;
        c.kind = P::ComputeOp::VPU;
        c.name = name;
        c.dtype = m_l.dtype;
        c.elements = elements;
        c.opsPerElement = ops;
        c.units = CeilDiv(elements, m_shape.vpuLanes);
        c.flops = elements * ops;
        c.shares = P::SplitUnits(c.units, m_shape);
        m_out.ops.push_back(std::move(op));
    }

    /**
     * Add a tensor-parallel collective (nothing if the group is one chip).
     * \param name its name
     * \param type ALL_REDUCE or ALL_GATHER
     * \param bytes S
     */
    void Comm(const std::string& name, CollectiveSpec::Type type, uint64_t bytes)
    {
        if (m_p == 1)
        {
            return;
        }
        P::Op op;
        op.kind = P::Op::TP_COMM;
        auto& c = op.comm;
        c.name = name;
        c.collective = type;
        c.reduction = m_spec.parallelism.reduction;
        c.dtype = m_l.dtype;
        c.bytes = bytes;
        const uint32_t first = (m_chip / m_p) * m_p;
        for (uint32_t r = 0; r < m_p; ++r)
        {
            c.group.push_back(first + r);
        }
        c.rank = m_chip % m_p;
        P::BuildRings(c, m_shape);
        m_out.ops.push_back(std::move(op));
    }

    /// Megatron attention + MLP (all-reduce) or the column-only variant (all-gather).
    void Transformer()
    {
        const uint64_t b = S::DtypeBytes(m_l.dtype);
        const uint64_t t = m_l.tokens * m_l.batch;
        const uint64_t d = m_l.dModel;
        const uint64_t hd = m_l.headDim;
        const uint64_t hL = m_l.heads / m_p;
        const uint64_t kvL = m_l.kvHeads / m_p;
        const uint64_t fL = m_l.ffn / m_p;
        const bool gather = m_spec.parallelism.tpCollective == S::TP_ALL_GATHER;
        // Attention: QKV column-split by heads; scores and context per local head.
        Gemm("qkv", (hL + 2 * kvL) * hd, d, t, 1, true);
        Gemm("scores", m_l.tokens, hd, m_l.context, m_l.batch * hL, false);
        Vpu("softmax", m_l.batch * hL * m_l.tokens * m_l.context, m_l.softmaxOps);
        Gemm("context", m_l.tokens, m_l.context, hd, m_l.batch * hL, false);
        if (!gather)
        {
            // O row-split: partial sums of the whole T x d output.
            Gemm("o-proj", d, hL * hd, t, 1, true);
            Comm("attn-all-reduce", CollectiveSpec::ALL_REDUCE, t * d * b);
        }
        else
        {
            Comm("attn-all-gather", CollectiveSpec::ALL_GATHER, t * m_l.heads * hd * b);
            Gemm("o-proj", d / m_p, m_l.heads * hd, t, 1, true);
            Comm("o-all-gather", CollectiveSpec::ALL_GATHER, t * d * b);
        }
        // MLP: up (and gate) column-split.
        Gemm("mlp-up", fL, d, t, 1, true);
        if (m_l.gatedMlp)
        {
            Gemm("mlp-gate", fL, d, t, 1, true);
        }
        Vpu("activation", fL * t, m_l.activationOps);
        if (!gather)
        {
            Gemm("mlp-down", d, fL, t, 1, true);
            Comm("mlp-all-reduce", CollectiveSpec::ALL_REDUCE, t * d * b);
        }
        else
        {
            Comm("up-all-gather", CollectiveSpec::ALL_GATHER, t * m_l.ffn * b);
            Gemm("mlp-down", d / m_p, m_l.ffn, t, 1, true);
            Comm("mlp-all-gather", CollectiveSpec::ALL_GATHER, t * d * b);
        }
    }

    /// A linear layer: row split + all-reduce, column split + all-gather, or replicated.
    void Linear()
    {
        const uint64_t b = S::DtypeBytes(m_l.dtype);
        const uint64_t t = m_l.tokens * m_l.batch;
        const uint64_t out = m_l.outFeatures;
        switch (m_l.split)
        {
        case S::SPLIT_ROW:
            Gemm("linear", out, m_l.inFeatures / m_p, t, 1, true);
            Comm("linear-all-reduce", CollectiveSpec::ALL_REDUCE, t * out * b);
            Vpu("activation", t * out, m_l.activationOps); // on the sums, on every chip
            break;
        case S::SPLIT_COLUMN:
            Gemm("linear", out / m_p, m_l.inFeatures, t, 1, true);
            Vpu("activation", t * out / m_p, m_l.activationOps);
            Comm("linear-all-gather", CollectiveSpec::ALL_GATHER, t * out * b);
            break;
        case S::SPLIT_NONE:
            Gemm("linear", out, m_l.inFeatures, t, 1, true);
            Vpu("activation", t * out, m_l.activationOps);
            break;
        }
    }

    /**
     * Add a 3x3 convolution.
     * \param cin this chip's input channels
     * \param cout this chip's output channels
     */
    void ConvOp(uint64_t cin, uint64_t cout)
    {
        P::Op op;
        op.kind = P::Op::COMPUTE;
        auto& c = op.compute;
        c.kind = P::ComputeOp::CONV3X3;
        c.name = "conv3x3";
        c.dtype = m_l.dtype;
        c.batch = m_l.batch;
        c.height = m_l.height;
        c.width = m_l.width;
        c.cin = cin;
        c.cout = cout;
        c.stride = m_l.stride;
        const uint64_t f = ConvFilters(m_l.width);
        const uint64_t wTiles = m_l.width <= 128 ? 1 : 1 + CeilDiv(m_l.width - 128, 112);
        // Stride 2 is charged the stride-1 passes [assumption; 6.2.2.3 drops columns on write].
        c.units = m_l.batch * wTiles * CeilDiv(cout, 16 * f) * CeilDiv(m_l.height, 8);
        c.flops = 18 * m_l.batch * OutPixels() * cin * cout;
        c.weightBytes = 9 * cin * cout * S::DtypeBytes(m_l.dtype);
        c.shares = P::SplitUnits(c.units, m_shape);
        m_out.ops.push_back(std::move(op));
    }

    /// \return output rows x columns (same padding)
    uint64_t OutPixels() const
    {
        return CeilDiv(m_l.height, m_l.stride) * CeilDiv(m_l.width, m_l.stride);
    }

    /// A 3x3 convolution layer: Cin split + all-reduce, Cout split + all-gather, or replicated.
    void Conv()
    {
        const uint64_t b = S::DtypeBytes(m_l.dtype);
        const uint64_t outElems = m_l.batch * OutPixels() * m_l.cout;
        switch (m_l.split)
        {
        case S::SPLIT_ROW:
            ConvOp(m_l.cin / m_p, m_l.cout);
            Comm("conv-all-reduce", CollectiveSpec::ALL_REDUCE, outElems * b);
            Vpu("activation", outElems, m_l.activationOps);
            break;
        case S::SPLIT_COLUMN:
            ConvOp(m_l.cin, m_l.cout / m_p);
            Vpu("activation", outElems / m_p, m_l.activationOps);
            Comm("conv-all-gather", CollectiveSpec::ALL_GATHER, outElems * b);
            break;
        case S::SPLIT_NONE:
            ConvOp(m_l.cin, m_l.cout);
            Vpu("activation", outElems, m_l.activationOps);
            break;
        }
    }

    /// The data-parallel weight sync, if configured.
    void DataParallel()
    {
        const auto& par = m_spec.parallelism;
        if (par.data == 1 || par.dataSync == S::SYNC_NONE)
        {
            return;
        }
        uint64_t weights = 0;
        for (const auto& op : m_out.ops)
        {
            if (op.kind == P::Op::COMPUTE)
            {
                weights += op.compute.weightBytes;
            }
        }
        P::Op op;
        op.kind = P::Op::DP_COMM;
        auto& dp = op.dp;
        dp.name = m_l.name + ".dp-sync";
        dp.spec.type = CollectiveSpec::ALL_REDUCE;
        dp.spec.ranks = par.data;
        dp.spec.bytes = weights;
        dp.algorithm = par.dataAlgorithm;
        for (uint32_t r = 0; r < par.data; ++r)
        {
            dp.group.push_back(r * par.tensor + m_chip % par.tensor);
        }
        dp.rank = m_chip / par.tensor;
        dp.reduction = par.reduction;
        dp.dtype = m_l.dtype;
        m_out.ops.push_back(std::move(op));
    }

    const S& m_spec;             //!< the model
    const S::Layer& m_l;         //!< the layer
    uint32_t m_chip;             //!< the chip
    const P::ChipShape& m_shape; //!< the chip's resources
    uint32_t m_p;                //!< tensor-parallel degree
    P::LayerOps m_out;           //!< what is built
};

} // namespace

std::vector<PyxisLayerProgram::UieShare>
PyxisLayerProgram::SplitUnits(uint64_t units, const ChipShape& shape)
{
    NS_ASSERT_MSG(shape.clusters > 0 && shape.uiesPerCluster > 0, "a chip without UIEs");
    const uint64_t u = static_cast<uint64_t>(shape.clusters) * shape.uiesPerCluster;
    const uint64_t base = units / u;
    const uint64_t extra = units % u;
    std::vector<UieShare> shares;
    uint64_t next = 0;
    for (uint64_t i = 0; i < u; ++i)
    {
        const uint64_t n = base + (i < extra ? 1 : 0);
        if (n == 0)
        {
            break; // the rest have none either
        }
        UieShare s;
        s.cluster = static_cast<uint32_t>(i % shape.clusters);
        s.uie = static_cast<uint32_t>(i / shape.clusters);
        s.firstUnit = next;
        s.units = n;
        next += n;
        shares.push_back(s);
    }
    return shares;
}

uint64_t
PyxisLayerProgram::ReduceCycles(PyxisModelSpec::Reduction reduction,
                                uint64_t bytes,
                                PyxisModelSpec::Dtype dtype,
                                const ChipShape& shape)
{
    if (reduction == PyxisModelSpec::INMEM_ADD)
    {
        return CeilDiv(bytes, 128);
    }
    const uint64_t b = PyxisModelSpec::DtypeBytes(dtype);
    const uint64_t elements = CeilDiv(bytes, b);
    return CeilDiv(elements, shape.vpuLanes) * std::max<uint64_t>(1, b);
}

void
PyxisLayerProgram::BuildRings(CommOp& op, const ChipShape& shape)
{
    const auto p = static_cast<uint32_t>(op.group.size());
    NS_ASSERT_MSG(p >= 2, "a ring needs two chips");
    NS_ASSERT_MSG(op.rank < p, "rank " << op.rank << " outside a group of " << p);
    op.sendPeer = op.group[(op.rank + 1) % p];
    op.recvPeer = op.group[(op.rank + p - 1) % p];
    const bool allReduce = op.collective == CollectiveSpec::ALL_REDUCE;
    NS_ASSERT_MSG(allReduce || op.collective == CollectiveSpec::ALL_GATHER,
                  "a tensor-parallel collective is an all-reduce or an all-gather");
    op.steps = allReduce ? 2 * (p - 1) : p - 1;
    op.chunkBytes = CeilDiv(op.bytes, static_cast<uint64_t>(shape.clusters) * p);
    op.rings.clear();
    const uint64_t b = PyxisModelSpec::DtypeBytes(op.dtype);
    for (uint32_t r = 0; r < shape.clusters; ++r)
    {
        Ring ring;
        ring.cluster = r;
        ring.bytes = op.bytes / shape.clusters + (r < op.bytes % shape.clusters ? 1 : 0);
        auto block = [&ring, p](uint32_t j) {
            return ring.bytes / p + (j < ring.bytes % p ? 1 : 0);
        };
        for (uint32_t s = 0; s < op.steps; ++s)
        {
            RingStep st;
            st.step = s;
            st.reduce = allReduce && s < p - 1;
            st.sendBlock = static_cast<uint32_t>((op.rank + 2 * p - s % p) % p);
            st.recvBlock = static_cast<uint32_t>((op.rank + 2 * p - s % p - 1) % p);
            st.sendBytes = block(st.sendBlock);
            st.recvBytes = block(st.recvBlock);
            if (st.reduce)
            {
                st.reduceElements = CeilDiv(st.recvBytes, b);
                st.reduceCycles = ReduceCycles(op.reduction, st.recvBytes, op.dtype, shape);
            }
            ring.steps.push_back(st);
        }
        op.rings.push_back(std::move(ring));
    }
}

PyxisLayerProgram::LayerOps
PyxisLayerProgram::LowerLayer(const PyxisModelSpec& spec,
                              uint32_t layer,
                              uint32_t chip,
                              const ChipShape& shape)
{
    NS_LOG_FUNCTION(layer << chip);
    NS_ASSERT_MSG(chip < spec.GetChips(), "chip " << chip << " of " << spec.GetChips());
    NS_ASSERT_MSG(layer < spec.layers.size(), "layer " << layer << " of " << spec.layers.size());
    return LayerBuilder(spec, layer, chip, shape).Build();
}

PyxisLayerProgram::ChipProgram
PyxisLayerProgram::LowerChip(const PyxisModelSpec& spec, uint32_t chip, const ChipShape& shape)
{
    NS_LOG_FUNCTION(chip);
    ChipProgram prog;
    prog.chip = chip;
    prog.tensorRank = chip % spec.parallelism.tensor;
    prog.dataRank = chip / spec.parallelism.tensor;
    for (uint32_t l = 0; l < spec.layers.size(); ++l)
    {
        prog.layers.push_back(LowerLayer(spec, l, chip, shape));
    }
    return prog;
}

std::vector<PyxisLayerProgram::ChipProgram>
PyxisLayerProgram::Lower(const PyxisModelSpec& spec, const ChipShape& shape)
{
    std::vector<ChipProgram> all;
    all.reserve(spec.GetChips());
    for (uint32_t c = 0; c < spec.GetChips(); ++c)
    {
        all.push_back(LowerChip(spec, c, shape));
    }
    return all;
}

uint64_t
PyxisLayerProgram::MatrixFlops(const LayerOps& program)
{
    uint64_t f = 0;
    for (const auto& op : program.ops)
    {
        if (op.kind == Op::COMPUTE && op.compute.kind != ComputeOp::VPU)
        {
            f += op.compute.flops;
        }
    }
    return f;
}

uint64_t
PyxisLayerProgram::LayerMatrixFlops(const PyxisModelSpec& spec, uint32_t layer)
{
    const auto& l = spec.layers.at(layer);
    switch (l.kind)
    {
    case S::TRANSFORMER: {
        const uint64_t t = l.tokens * l.batch;
        const uint64_t qkv = 2 * t * l.dModel * (l.heads + 2 * l.kvHeads) * l.headDim;
        const uint64_t attention = 2 * 2 * l.batch * l.heads * l.tokens * l.context * l.headDim;
        const uint64_t o = 2 * t * l.heads * l.headDim * l.dModel;
        const uint64_t mlp = 2 * t * l.dModel * l.ffn * (l.gatedMlp ? 3 : 2);
        return qkv + attention + o + mlp;
    }
    case S::LINEAR:
        return 2 * l.tokens * l.batch * l.inFeatures * l.outFeatures;
    case S::CONV3X3:
        return 18 * l.batch * CeilDiv(l.height, l.stride) * CeilDiv(l.width, l.stride) * l.cin *
               l.cout;
    }
    return 0;
}

} // namespace ns3
