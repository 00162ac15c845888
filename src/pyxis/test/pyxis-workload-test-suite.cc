/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Tests of the Pyxis workload: the model file loader, the lowering to per-chip operations and
// the step-time formula. Expected values come from the model-file reference
// (src/pyxis/doc/pyxis.rst), Megatron partitioning arithmetic, FLOP and byte conservation, and
// the closed forms derived from the Pyxis spec in pyxis.rst (Validation), as each case says.

#include "ns3/picosecond-test-suite.h"
#include "ns3/pyxis-layer-program.h"
#include "ns3/pyxis-model-error.h"
#include "ns3/pyxis-model-loader.h"
#include "ns3/pyxis-step-time.h"
#include "ns3/test.h"

#include <filesystem>
#include <string>

using namespace ns3;

/**
 * \defgroup pyxis-tests Tests for pyxis
 * \ingroup pyxis
 * \ingroup tests
 */

namespace
{

/// A valid model; the error cases replace one line of it.
const std::string VALID = "name: t\n"                     // 1
                          "parallelism:\n"                // 2
                          "  tensor: 8\n"                 // 3
                          "  data: 2\n"                   // 4
                          "  tp-collective: all-reduce\n" // 5
                          "  reduction: vpu\n"            // 6
                          "layers:\n"                     // 7
                          "  - kind: linear\n"            // 8
                          "    in-features: 1024\n"       // 9
                          "    out-features: 1024\n"      // 10
                          "    tokens: 16\n"              // 11
                          "  - kind: transformer\n"       // 12
                          "    d-model: 4096\n"           // 13
                          "    heads: 32\n"               // 14
                          "    head-dim: 128\n"           // 15
                          "    ffn: 16384\n"              // 16
                          "    tokens: 128\n"             // 17
                          "    dtype: fp8\n";             // 18

/**
 * \param text a model
 * \param line 1-based line
 * \param replacement the new text of that line (may hold several lines)
 * \return the model with the line replaced
 */
std::string
ReplaceLine(const std::string& text, uint32_t line, const std::string& replacement)
{
    std::size_t begin = 0;
    for (uint32_t i = 1; i < line; ++i)
    {
        begin = text.find('\n', begin) + 1;
    }
    const std::size_t end = text.find('\n', begin);
    return text.substr(0, begin) + replacement + text.substr(end);
}

/**
 * \param tensor tensor-parallel degree
 * \param collective "all-reduce" or "all-gather"
 * \param layer the layer's YAML lines (each starting with 4 spaces, after "  - ")
 * \param extra more parallelism keys (lines)
 * \return a model text
 */
std::string
Model(uint32_t tensor,
      const std::string& collective,
      const std::string& layer,
      const std::string& extra = "")
{
    return "parallelism:\n  tensor: " + std::to_string(tensor) +
           "\n  tp-collective: " + collective + "\n" + extra + "layers:\n  - " + layer;
}

/// The TP=8 transformer layer of tp8-layer.yaml: d 4096, 32 x 128 heads, ffn 16384.
const std::string TRANSFORMER = "kind: transformer\n"
                                "    d-model: 4096\n"
                                "    heads: 32\n"
                                "    head-dim: 128\n"
                                "    ffn: 16384\n"
                                "    tokens: 128\n"
                                "    dtype: fp8\n";

} // namespace

/**
 * \ingroup pyxis-tests
 * A bad model file stops with the file, line and field (model-file reference).
 */
class PyxisModelErrorTestCase : public TestCase
{
  public:
    /**
     * \param name the case
     * \param text the model
     * \param line expected line (0: unknown)
     * \param field expected field
     * \param message a part of the expected message
     */
    PyxisModelErrorTestCase(const std::string& name,
                            const std::string& text,
                            uint32_t line,
                            const std::string& field,
                            const std::string& message)
        : TestCase("model error: " + name),
          m_text(text),
          m_line(line),
          m_field(field),
          m_message(message)
    {
    }

  private:
    void DoRun() override
    {
        bool thrown = false;
        try
        {
            PyxisModelLoader::LoadString(m_text, "bad.yaml");
        }
        catch (const PyxisModelError& e)
        {
            thrown = true;
            NS_TEST_EXPECT_MSG_EQ(e.GetFile(), "bad.yaml", e.what());
            NS_TEST_EXPECT_MSG_EQ(e.GetLine(), m_line, e.what());
            NS_TEST_EXPECT_MSG_EQ(e.GetField(), m_field, e.what());
            NS_TEST_EXPECT_MSG_NE(e.GetMessage().find(m_message), std::string::npos, e.what());
            const std::string prefix = "bad.yaml" +
                                       (m_line ? ":" + std::to_string(m_line) : std::string()) +
                                       ": " + (m_field.empty() ? std::string() : m_field + ": ");
            NS_TEST_EXPECT_MSG_EQ(std::string(e.what()).rfind(prefix, 0), 0, e.what());
        }
        NS_TEST_EXPECT_MSG_EQ(thrown, true, "no error for " << m_text);
    }

    std::string m_text;    //!< the model
    uint32_t m_line;       //!< expected line
    std::string m_field;   //!< expected field
    std::string m_message; //!< expected message part
};

/**
 * \ingroup pyxis-tests
 * The valid model, the examples and a missing file.
 */
class PyxisModelLoadTestCase : public TestCase
{
  public:
    PyxisModelLoadTestCase()
        : TestCase("model load: values, defaults, repeats, examples, missing file")
    {
    }

  private:
    /**
     * \param file a file of examples/pyxis
     * \return its path from the repository root or from the test directory
     */
    static std::string Example(const std::string& file)
    {
        const std::string root = "examples/pyxis/" + file;
        if (std::filesystem::exists(root))
        {
            return root;
        }
        return std::string(NS_TEST_SOURCEDIR) + "/../../../examples/pyxis/" + file;
    }

    void DoRun() override
    {
        const auto spec = PyxisModelLoader::LoadString(VALID, "ok.yaml");
        NS_TEST_EXPECT_MSG_EQ(spec.name, "t", "name");
        NS_TEST_EXPECT_MSG_EQ(spec.GetChips(), 16, "8 x 2 chips");
        NS_TEST_ASSERT_MSG_EQ(spec.layers.size(), 2, "two layers");
        const auto& lin = spec.layers[0];
        NS_TEST_EXPECT_MSG_EQ(lin.kind, PyxisModelSpec::LINEAR, "kind");
        NS_TEST_EXPECT_MSG_EQ(lin.name, "linear0", "default name");
        NS_TEST_EXPECT_MSG_EQ(lin.line, 8, "line of the layer");
        NS_TEST_EXPECT_MSG_EQ(lin.split, PyxisModelSpec::SPLIT_ROW, "all-reduce: row split");
        NS_TEST_EXPECT_MSG_EQ(lin.batch, 1, "default batch");
        NS_TEST_EXPECT_MSG_EQ(lin.activationOps, 0, "linear: no activation by default");
        const auto& tr = spec.layers[1];
        NS_TEST_EXPECT_MSG_EQ(tr.kvHeads, 32, "kv-heads defaults to heads");
        NS_TEST_EXPECT_MSG_EQ(tr.context, 128, "context defaults to tokens");
        NS_TEST_EXPECT_MSG_EQ(tr.softmaxOps, 5, "softmax-ops default");
        NS_TEST_EXPECT_MSG_EQ(tr.activationOps, 1, "activation-ops default (not gated)");
        NS_TEST_EXPECT_MSG_EQ(spec.parallelism.dataAlgorithm, "ring", "data-algorithm default");

        // Repeats expand to named instances.
        const auto rep = PyxisModelLoader::LoadString(
            "layers:\n  - {kind: linear, name: fc, repeat: 3, in-features: 8, out-features: 8, "
            "tokens: 1}\n",
            "dir/rep.yaml");
        NS_TEST_ASSERT_MSG_EQ(rep.layers.size(), 3, "repeat 3");
        NS_TEST_EXPECT_MSG_EQ(rep.layers[2].name, "fc.2", "instance name");
        NS_TEST_EXPECT_MSG_EQ(rep.layers[2].repeatIndex, 2, "instance index");
        NS_TEST_EXPECT_MSG_EQ(rep.name, "rep", "default model name: the file stem");

        const auto tiny = PyxisModelLoader::LoadFile(Example("tiny-transformer.yaml"));
        NS_TEST_EXPECT_MSG_EQ(tiny.GetChips(), 64, "tiny-transformer: 8 x 8 chips");
        NS_TEST_EXPECT_MSG_EQ(tiny.layers.size(), 4, "tiny-transformer: 4 layers");
        const auto conv = PyxisModelLoader::LoadFile(Example("conv-layer.yaml"));
        NS_TEST_EXPECT_MSG_EQ(conv.layers.size(), 1, "conv-layer: one layer");
        NS_TEST_EXPECT_MSG_EQ(conv.layers[0].split, PyxisModelSpec::SPLIT_COLUMN, "column");

        bool thrown = false;
        try
        {
            PyxisModelLoader::LoadFile("no-such-model.yaml");
        }
        catch (const PyxisModelError& e)
        {
            thrown = true;
            NS_TEST_EXPECT_MSG_EQ(e.GetLine(), 0, "no line for a missing file");
            NS_TEST_EXPECT_MSG_EQ(std::string(e.what()).rfind("no-such-model.yaml: cannot open", 0),
                                  0,
                                  e.what());
        }
        NS_TEST_EXPECT_MSG_EQ(thrown, true, "a missing file is an error");
    }
};

/**
 * \ingroup pyxis-tests
 * A transformer layer with TP = 8 (d 4096, 32 heads of 128, ffn 16384, 128 tokens, FP8):
 * Megatron shapes per chip, all-reduce bytes and the split over 4 x 12 UIEs.
 */
class PyxisTransformerLoweringTestCase : public TestCase
{
  public:
    PyxisTransformerLoweringTestCase()
        : TestCase("lowering: transformer layer, TP 8, all-reduce")
    {
    }

  private:
    void DoRun() override
    {
        const auto spec = PyxisModelLoader::LoadString(
            Model(8, "all-reduce", TRANSFORMER, "  data: 2\n  data-sync: weights\n"),
            "tp8.yaml");
        // Chip 11: data rank 1, tensor rank 3 of group 8..15.
        const auto prog = PyxisLayerProgram::LowerChip(spec, 11);
        NS_TEST_EXPECT_MSG_EQ(prog.tensorRank, 3, "11 mod 8");
        NS_TEST_EXPECT_MSG_EQ(prog.dataRank, 1, "11 / 8");
        NS_TEST_ASSERT_MSG_EQ(prog.layers.size(), 1, "one layer");
        const auto& ops = prog.layers[0].ops;
        // qkv scores softmax context o-proj AR mlp-up activation mlp-down AR dp-sync
        NS_TEST_ASSERT_MSG_EQ(ops.size(), 11, "operations of a Megatron layer");
        CheckGemms(ops);
        CheckVpuAndWeights(ops);
        CheckAllReduces(ops);
        CheckDataParallel(ops);
        CheckAllGather();
        CheckSplitK();
    }

    /**
     * The six GEMMs: Megatron shapes per chip and their split over 48 UIEs.
     * \param ops chip 11's operations
     */
    void CheckGemms(const std::vector<PyxisLayerProgram::Op>& ops)
    {
        struct Shape
        {
            const char* name;
            uint64_t m, k, n, count, units;
        };

        // Per chip: 32/8 = 4 heads, ffn 16384/8 = 2048, T = 128 tokens.
        const Shape gemms[] = {
            {"qkv", (4 + 2 * 4) * 128, 4096, 128, 1, 12}, // column split: 1536 rows, 12 tiles
            {"scores", 128, 128, 128, 4, 4},              // Q K^T per local head
            {"context", 128, 128, 128, 4, 4},             // P V per local head
            {"o-proj", 4096, 512, 128, 1, 32},            // row split: K = 4 x 128
            {"mlp-up", 2048, 4096, 128, 1, 16},           // column split
            {"mlp-down", 4096, 2048, 128, 1, 32},         // row split
        };
        const std::size_t gemmIndex[] = {0, 1, 3, 4, 6, 8};
        for (std::size_t i = 0; i < 6; ++i)
        {
            const auto& op = ops[gemmIndex[i]];
            NS_TEST_ASSERT_MSG_EQ(op.kind, PyxisLayerProgram::Op::COMPUTE, gemms[i].name);
            const auto& c = op.compute;
            NS_TEST_EXPECT_MSG_EQ(c.name, gemms[i].name, "order");
            NS_TEST_EXPECT_MSG_EQ(c.kind, PyxisLayerProgram::ComputeOp::GEMM, c.name);
            NS_TEST_EXPECT_MSG_EQ(c.m, gemms[i].m, c.name << " m");
            NS_TEST_EXPECT_MSG_EQ(c.k, gemms[i].k, c.name << " k");
            NS_TEST_EXPECT_MSG_EQ(c.n, gemms[i].n, c.name << " n");
            NS_TEST_EXPECT_MSG_EQ(c.count, gemms[i].count, c.name << " count");
            NS_TEST_EXPECT_MSG_EQ(c.units, gemms[i].units, c.name << " 128x128 tiles");
            NS_TEST_EXPECT_MSG_EQ(c.flops, 2 * c.count * c.m * c.k * c.n, c.name << " flops");
            // Split over 48 UIEs: every unit once, at most ceil(units/48) per UIE.
            uint64_t sum = 0;
            for (const auto& s : c.shares)
            {
                NS_TEST_EXPECT_MSG_EQ(s.firstUnit, sum, "consecutive ranges");
                NS_TEST_EXPECT_MSG_LT(s.cluster, 4, "cluster");
                NS_TEST_EXPECT_MSG_LT(s.uie, 12, "UIE");
                NS_TEST_EXPECT_MSG_LT_OR_EQ(s.units, (c.units + 47) / 48, "balanced");
                sum += s.units;
            }
            NS_TEST_EXPECT_MSG_EQ(sum, c.units, c.name << " units conserved");
        }
    }

    /**
     * o-proj's split, the weights, the softmax and activation VPU passes.
     * \param ops chip 11's operations
     */
    void CheckVpuAndWeights(const std::vector<PyxisLayerProgram::Op>& ops)
    {
        // o-proj: 32 tiles on 32 UIEs, 8 per cluster; share 5 is cluster 1, UIE 1.
        const auto& oShares = ops[4].compute.shares;
        NS_TEST_ASSERT_MSG_EQ(oShares.size(), 32, "32 UIEs busy");
        NS_TEST_EXPECT_MSG_EQ(oShares[5].cluster, 1, "5 mod 4");
        NS_TEST_EXPECT_MSG_EQ(oShares[5].uie, 1, "5 / 4");
        // Weights per chip: (1536 + 2048) x 4096 + 4096 x (512 + 2048) = 25,165,824 B = 1/8 of
        // (3 + 1 + 2 x 4) x 4096^2.
        NS_TEST_EXPECT_MSG_EQ(ops[0].compute.weightBytes, 1536ULL * 4096, "qkv weights");
        // softmax: 4 heads x 128 x 128 = 65,536 elements, 512 rows of 128: 32 UIEs get 11.
        const auto& sm = ops[2].compute;
        NS_TEST_EXPECT_MSG_EQ(sm.kind, PyxisLayerProgram::ComputeOp::VPU, "softmax on the VPU");
        NS_TEST_EXPECT_MSG_EQ(sm.elements, 65536, "softmax elements");
        NS_TEST_EXPECT_MSG_EQ(sm.units, 512, "rows of 128");
        NS_TEST_EXPECT_MSG_EQ(sm.shares.size(), 48, "all UIEs");
        NS_TEST_EXPECT_MSG_EQ(sm.shares[31].units, 11, "512 = 32 x 11 + 16 x 10");
        NS_TEST_EXPECT_MSG_EQ(sm.shares[32].units, 10, "512 = 32 x 11 + 16 x 10");
        NS_TEST_EXPECT_MSG_EQ(ops[7].compute.elements, 2048ULL * 128, "activation elements");
    }

    /**
     * The two all-reduces: bytes, group, ring peers, steps, chunks, adds.
     * \param ops chip 11's operations
     */
    void CheckAllReduces(const std::vector<PyxisLayerProgram::Op>& ops)
    {
        // The two all-reduces: S = tokens x d_model x 1 B = 128 x 4096 = 524,288 B.
        for (const std::size_t i : {std::size_t(5), std::size_t(9)})
        {
            NS_TEST_ASSERT_MSG_EQ(ops[i].kind, PyxisLayerProgram::Op::TP_COMM, "collective");
            const auto& c = ops[i].comm;
            NS_TEST_EXPECT_MSG_EQ(c.collective, CollectiveSpec::ALL_REDUCE, c.name);
            NS_TEST_EXPECT_MSG_EQ(c.bytes, 524288, c.name << " S");
            NS_TEST_EXPECT_MSG_EQ(c.rank, 3, "rank in the group");
            NS_TEST_EXPECT_MSG_EQ(c.group.front(), 8, "group 8..15");
            NS_TEST_EXPECT_MSG_EQ(c.group.back(), 15, "group 8..15");
            NS_TEST_EXPECT_MSG_EQ(c.sendPeer, 12, "next in the ring");
            NS_TEST_EXPECT_MSG_EQ(c.recvPeer, 10, "previous in the ring");
            NS_TEST_EXPECT_MSG_EQ(c.steps, 14, "2(P-1)");
            NS_TEST_EXPECT_MSG_EQ(c.chunkBytes, 16384, "S/(4P) = 524,288 / 32");
            NS_TEST_ASSERT_MSG_EQ(c.rings.size(), 4, "one ring per cluster");
            NS_TEST_EXPECT_MSG_EQ(c.rings[2].bytes, 131072, "S/4");
            NS_TEST_EXPECT_MSG_EQ(c.rings[2].steps[0].sendBytes, 16384, "chunk");
            // VPU add of 16,384 FP8 elements: 128 rows x max(1, 1 B) = 128 cycles.
            NS_TEST_EXPECT_MSG_EQ(c.rings[2].steps[0].reduceCycles, 128, "VPU FP8 add");
        }
        NS_TEST_EXPECT_MSG_EQ(ops[1].compute.name, "scores", "order");
        NS_TEST_EXPECT_MSG_EQ(ops[5].comm.name, "attn-all-reduce", "order");
        NS_TEST_EXPECT_MSG_EQ(ops[9].comm.name, "mlp-all-reduce", "order");
    }

    /**
     * The data-parallel weight sync over the chips of tensor rank 3.
     * \param ops chip 11's operations
     */
    void CheckDataParallel(const std::vector<PyxisLayerProgram::Op>& ops)
    {
        // Data parallel: the weight shard over the chips of tensor rank 3, {3, 11}.
        NS_TEST_ASSERT_MSG_EQ(ops[10].kind, PyxisLayerProgram::Op::DP_COMM, "dp sync last");
        const auto& dp = ops[10].dp;
        NS_TEST_EXPECT_MSG_EQ(dp.spec.type, CollectiveSpec::ALL_REDUCE, "all-reduce");
        NS_TEST_EXPECT_MSG_EQ(dp.spec.bytes, 25165824, "(3+1+2x4) x 4096^2 / 8 B");
        NS_TEST_EXPECT_MSG_EQ(dp.spec.ranks, 2, "data 2");
        NS_TEST_ASSERT_MSG_EQ(dp.group.size(), 2, "two replicas");
        NS_TEST_EXPECT_MSG_EQ(dp.group[0], 3, "replica 0");
        NS_TEST_EXPECT_MSG_EQ(dp.group[1], 11, "replica 1");
        NS_TEST_EXPECT_MSG_EQ(dp.rank, 1, "this chip");
        NS_TEST_EXPECT_MSG_EQ(dp.algorithm, "ring", "default algorithm");
    }

    /**
     * The all-gather variant.
     */
    void CheckAllGather()
    {
        // All-gather mode: 4 all-gathers of T h hd, T d, T ffn and T d bytes; O and down split
        // by d_model (512 rows each) with the full K.
        const auto ag = PyxisModelLoader::LoadString(Model(8, "all-gather", TRANSFORMER), "ag");
        const auto agOps = PyxisLayerProgram::LowerLayer(ag, 0, 0).ops;
        NS_TEST_ASSERT_MSG_EQ(agOps.size(), 12, "operations of the all-gather variant");
        NS_TEST_EXPECT_MSG_EQ(agOps[4].comm.bytes, 128ULL * 32 * 128, "attention output");
        NS_TEST_EXPECT_MSG_EQ(agOps[4].comm.steps, 7, "P-1");
        NS_TEST_EXPECT_MSG_EQ(agOps[5].compute.m, 512, "o-proj: d/8 rows");
        NS_TEST_EXPECT_MSG_EQ(agOps[5].compute.k, 4096, "o-proj: all heads");
        NS_TEST_EXPECT_MSG_EQ(agOps[6].comm.bytes, 128ULL * 4096, "o output");
        NS_TEST_EXPECT_MSG_EQ(agOps[9].comm.bytes, 128ULL * 16384, "up output");
        NS_TEST_EXPECT_MSG_EQ(agOps[10].compute.k, 16384, "mlp-down: full ffn");
        NS_TEST_EXPECT_MSG_EQ(agOps[11].comm.bytes, 128ULL * 4096, "down output");
        NS_TEST_EXPECT_MSG_EQ(agOps[11].comm.rings[0].steps[0].reduce, false, "no add");
    }

    /**
     * Split-K of the GEMMs with fewer tiles than UIEs.
     */
    void CheckSplitK()
    {
        // Split-K: qkv has 12 tiles for 48 UIEs, so K = 4096 (32 blocks of 128) is cut into
        // min(48/12, 32) = 4 slices of 1024: 48 units, one per UIE, then a VPU pass adding
        // 3 partials per output element, 1536 x 128 x 3 = 589,824 elements. o-proj (32 tiles,
        // 48/32 = 1) and the attention GEMMs (4 tiles, K = 128: one block) are not split;
        // mlp-up (16 tiles) gets 3 slices of 1408 (11 blocks; 32 = 11 + 11 + 10).
        const auto sk =
            PyxisModelLoader::LoadString(Model(8, "all-reduce", TRANSFORMER, "  split-k: auto\n"),
                                         "sk");
        const auto skOps = PyxisLayerProgram::LowerLayer(sk, 0, 0).ops;
        NS_TEST_ASSERT_MSG_EQ(skOps.size(), 12, "two split-k adds more");
        const auto& qkv = skOps[0].compute;
        NS_TEST_EXPECT_MSG_EQ(qkv.kSplit, 4, "qkv slices");
        NS_TEST_EXPECT_MSG_EQ(qkv.kSlice, 1024, "qkv slice");
        NS_TEST_EXPECT_MSG_EQ(qkv.units, 48, "12 tiles x 4 slices");
        NS_TEST_EXPECT_MSG_EQ(qkv.shares.size(), 48, "every UIE");
        NS_TEST_EXPECT_MSG_EQ(qkv.flops, 2ULL * 1536 * 4096 * 128, "FLOPs unchanged");
        NS_TEST_EXPECT_MSG_EQ(skOps[1].compute.name, "qkv.split-k-add", "the partials' add");
        NS_TEST_EXPECT_MSG_EQ(skOps[1].compute.kind, PyxisLayerProgram::ComputeOp::VPU, "VPU");
        NS_TEST_EXPECT_MSG_EQ(skOps[1].compute.elements, 589824, "1536 x 128 x 3");
        NS_TEST_EXPECT_MSG_EQ(skOps[2].compute.kSplit, 1, "scores: K is one block");
        NS_TEST_EXPECT_MSG_EQ(skOps[5].compute.name, "o-proj", "order");
        NS_TEST_EXPECT_MSG_EQ(skOps[5].compute.kSplit, 1, "o-proj: 32 tiles");
        NS_TEST_EXPECT_MSG_EQ(skOps[7].compute.name, "mlp-up", "order");
        NS_TEST_EXPECT_MSG_EQ(skOps[7].compute.kSplit, 3, "mlp-up: 48/16 slices");
        NS_TEST_EXPECT_MSG_EQ(skOps[7].compute.kSlice, 1408, "11 blocks of 128");
        NS_TEST_EXPECT_MSG_EQ(skOps[7].compute.units, 48, "16 x 3");
        NS_TEST_EXPECT_MSG_EQ(skOps[8].compute.elements, 2048ULL * 128 * 2, "mlp-up add");
    }
};

/**
 * \ingroup pyxis-tests
 * FLOP conservation: the GEMM and convolution FLOPs of the chips of one tensor-parallel group
 * add up to the unpartitioned layer's (closed forms in the comments).
 */
class PyxisFlopsTestCase : public TestCase
{
  public:
    PyxisFlopsTestCase()
        : TestCase("lowering: FLOPs of a group equal the unpartitioned layer's")
    {
    }

  private:
    /**
     * \param text a model with one layer
     * \param expected the layer's FLOPs from its closed form
     * \param what the case
     */
    void Check(const std::string& text, uint64_t expected, const std::string& what)
    {
        const auto spec = PyxisModelLoader::LoadString(text, what);
        NS_TEST_EXPECT_MSG_EQ(PyxisLayerProgram::LayerMatrixFlops(spec, 0), expected, what);
        uint64_t sum = 0;
        for (uint32_t c = 0; c < spec.parallelism.tensor; ++c)
        {
            sum += PyxisLayerProgram::MatrixFlops(PyxisLayerProgram::LowerLayer(spec, 0, c));
        }
        NS_TEST_EXPECT_MSG_EQ(sum, expected, what << ": sum over the group");
    }

    void DoRun() override
    {
        // 2 T (d (h + 2 kv) hd + h hd d + 2 d f) + 4 T h hd ctx, T = 128, d = h hd = 4096:
        // 2 x 128 x (3 x 4096^2 + 4096^2 + 2 x 4096 x 16384) + 4 x 128 x 4096 x 128
        // = 51,539,607,552 + 268,435,456 = 51,808,043,008.
        const uint64_t tr = 51808043008ULL;
        Check(Model(8, "all-reduce", TRANSFORMER), tr, "transformer TP 8 all-reduce");
        Check(Model(8, "all-gather", TRANSFORMER), tr, "transformer TP 8 all-gather");
        Check(Model(1, "all-reduce", TRANSFORMER), tr, "transformer TP 1");
        Check(Model(8, "all-reduce", TRANSFORMER, "  split-k: auto\n"), tr, "TP 8 split-K");
        // Gated MLP with grouped-query attention (8 kv heads), TP 4, 2 x 64 tokens, ctx 256:
        // 2 x 128 x (4096 x (32 + 16) x 128 + 4096^2 + 3 x 4096 x 16384)
        //   + 4 x 2 x 32 x 64 x 256 x 128 = 59,190,000,000-ish: computed exactly below.
        const uint64_t t = 128;
        const uint64_t gqa = 2 * t * (4096ULL * 48 * 128 + 4096ULL * 4096 + 3ULL * 4096 * 16384) +
                             4ULL * 2 * 32 * 64 * 256 * 128;
        Check(Model(4,
                    "all-reduce",
                    "kind: transformer\n    d-model: 4096\n    heads: 32\n    kv-heads: 8\n"
                    "    head-dim: 128\n    ffn: 16384\n    tokens: 64\n    batch: 2\n"
                    "    context: 256\n    gated-mlp: true\n"),
              gqa,
              "gated GQA TP 4");
        // Linear 2 T in out = 2 x 32 x 8192 x 8192 = 4,294,967,296, row and column split.
        const std::string lin = "kind: linear\n    in-features: 8192\n    out-features: 8192\n"
                                "    tokens: 32\n";
        Check(Model(8, "all-reduce", lin), 4294967296ULL, "linear row");
        Check(Model(8, "all-gather", lin), 4294967296ULL, "linear column");
        // 3x3: 2 x 9 x H W Cin Cout = 18 x 56 x 56 x 64 x 64 = 231,211,008; stride 2 on 57 x 57:
        // 18 x 29 x 29 x 64 x 64 = 62,005,248.
        const std::string conv = "kind: conv3x3\n    height: 56\n    width: 56\n    cin: 64\n"
                                 "    cout: 64\n";
        Check(Model(4, "all-reduce", conv), 231211008ULL, "conv row");
        Check(Model(4, "all-gather", conv), 231211008ULL, "conv column");
        Check(Model(2,
                    "all-reduce",
                    "kind: conv3x3\n    height: 57\n    width: 57\n    cin: 64\n    cout: 64\n"
                    "    stride: 2\n"),
              62005248ULL,
              "conv stride 2");
        // The 3x3 example of pyxis.rst (Validation): 56 x 56, 64 -> 64 is 2 passes x 7 row groups.
        const auto one = PyxisModelLoader::LoadString(Model(1, "all-reduce", conv), "conv");
        const auto ops = PyxisLayerProgram::LowerLayer(one, 0, 0).ops;
        NS_TEST_ASSERT_MSG_EQ(ops.size(), 1, "conv, no activation, no collective at TP 1");
        NS_TEST_EXPECT_MSG_EQ(ops[0].compute.units, 14, "F = 2: ceil(64/32) x ceil(56/8)");
    }
};

/**
 * \ingroup pyxis-tests
 * Ring structure (pyxis.rst, "Workload"): 2(P-1) steps (P-1 for an all-gather), chunk S/(4P),
 * blocks consistent between neighbours, every byte of S in one ring, and the reduce-scatter leaves
 * rank q with block q+1.
 */
class PyxisRingTestCase : public TestCase
{
  public:
    PyxisRingTestCase()
        : TestCase("lowering: ring steps 2(P-1), chunk S over 4P, block bookkeeping")
    {
    }

  private:
    /**
     * \param type ALL_REDUCE or ALL_GATHER
     * \param p chips
     * \param bytes S
     */
    void Check(CollectiveSpec::Type type, uint32_t p, uint64_t bytes)
    {
        const PyxisLayerProgram::ChipShape shape;
        std::vector<PyxisLayerProgram::CommOp> ops(p);
        for (uint32_t q = 0; q < p; ++q)
        {
            auto& op = ops[q];
            op.collective = type;
            op.reduction = PyxisModelSpec::INMEM_ADD;
            op.bytes = bytes;
            for (uint32_t r = 0; r < p; ++r)
            {
                op.group.push_back(100 + r);
            }
            op.rank = q;
            PyxisLayerProgram::BuildRings(op, shape);
        }
        const bool ar = type == CollectiveSpec::ALL_REDUCE;
        const std::string what = (ar ? "all-reduce P " : "all-gather P ") + std::to_string(p) +
                                 " S " + std::to_string(bytes);
        const uint32_t steps = ar ? 2 * (p - 1) : p - 1;
        NS_TEST_EXPECT_MSG_EQ(ops[0].steps, steps, what);
        NS_TEST_EXPECT_MSG_EQ(ops[0].chunkBytes, (bytes + 4 * p - 1) / (4 * p), what);
        uint64_t ringSum = 0;
        for (const auto& ring : ops[0].rings)
        {
            ringSum += ring.bytes;
        }
        NS_TEST_EXPECT_MSG_EQ(ringSum, bytes, what << ": rings hold S");
        for (uint32_t q = 0; q < p; ++q)
        {
            const auto& op = ops[q];
            const auto& prev = ops[(q + p - 1) % p];
            NS_TEST_EXPECT_MSG_EQ(op.sendPeer, 100 + (q + 1) % p, what);
            uint64_t sent = 0;
            for (uint32_t r = 0; r < 4; ++r)
            {
                NS_TEST_ASSERT_MSG_EQ(op.rings[r].steps.size(), steps, what);
                for (uint32_t s = 0; s < steps; ++s)
                {
                    const auto& st = op.rings[r].steps[s];
                    NS_TEST_EXPECT_MSG_EQ(st.reduce, ar && s < p - 1, what << " step " << s);
                    // What q receives is what q-1 sends in the same step.
                    NS_TEST_EXPECT_MSG_EQ(st.recvBlock, prev.rings[r].steps[s].sendBlock, what);
                    NS_TEST_EXPECT_MSG_EQ(st.recvBytes, prev.rings[r].steps[s].sendBytes, what);
                    // InMemAdd: one 128 B write per cycle.
                    NS_TEST_EXPECT_MSG_EQ(st.reduceCycles,
                                          st.reduce ? (st.recvBytes + 127) / 128 : 0,
                                          what);
                    sent += st.sendBytes;
                }
                if (ar)
                {
                    // After the reduce-scatter rank q holds the sum of block q+1.
                    NS_TEST_EXPECT_MSG_EQ(op.rings[r].steps[p - 2].recvBlock, (q + 1) % p, what);
                }
            }
            if (bytes % (4 * p) == 0)
            {
                // Each rank sends (P-1)/P of S per phase: 2(P-1) S/P (all-reduce), (P-1) S/P.
                NS_TEST_EXPECT_MSG_EQ(sent, (ar ? 2 : 1) * (p - 1) * (bytes / p), what);
            }
        }
    }

    void DoRun() override
    {
        Check(CollectiveSpec::ALL_REDUCE, 8, 524288); // the TP 8 layer: chunk 16,384 B
        Check(CollectiveSpec::ALL_REDUCE, 2, 4096);
        Check(CollectiveSpec::ALL_REDUCE, 3, 1000003); // S not a multiple of 4P
        Check(CollectiveSpec::ALL_REDUCE, 64, 1 << 20);
        Check(CollectiveSpec::ALL_GATHER, 8, 524288);
        Check(CollectiveSpec::ALL_GATHER, 5, 999);
        // Reduce cost (6.4, 6.2.1.4.1, 7.4): VPU FP16 2 cycles per 128 elements, InMemAdd
        // chunk/128.
        NS_TEST_EXPECT_MSG_EQ(
            PyxisLayerProgram::ReduceCycles(PyxisModelSpec::VPU, 16384, PyxisModelSpec::FP16),
            128,
            "8192 FP16 elements: 64 rows x 2 cycles");
        NS_TEST_EXPECT_MSG_EQ(
            PyxisLayerProgram::ReduceCycles(PyxisModelSpec::VPU, 16384, PyxisModelSpec::FP8),
            128,
            "16384 FP8 elements: 128 rows x 1 cycle");
        NS_TEST_EXPECT_MSG_EQ(
            PyxisLayerProgram::ReduceCycles(PyxisModelSpec::INMEM_ADD, 16384, PyxisModelSpec::FP16),
            128,
            "16384 B / 128 B per cycle");
        NS_TEST_EXPECT_MSG_EQ(
            PyxisLayerProgram::ReduceCycles(PyxisModelSpec::VPU, 1000, PyxisModelSpec::FP16),
            8,
            "500 elements: 4 rows x 2");
    }
};

/**
 * \ingroup pyxis-tests
 * The step-time formula (pyxis.rst, "Step-time formula"), term by term, for the TP 8 layer's
 * chunk of 16,384 B.
 */
class PyxisStepTimeTestCase : public TestCase
{
  public:
    PyxisStepTimeTestCase()
        : TestCase("step time: the formula's terms, T_AR, pre-posted Rx")
    {
    }

  private:
    void DoRun() override
    {
        PyxisStepTime::Params p; // RTT 2 us, 100 GB/s lane, 170.24 GB/s Rx, 1.33 GHz, VPU FP16
        p.barrierNs = 40;
        const auto t = PyxisStepTime::Step(p, 16384, true);
        NS_TEST_EXPECT_MSG_EQ_TOL(t.barrierNs, 40, 1e-9, "T_barrier");
        NS_TEST_EXPECT_MSG_EQ_TOL(t.grantNs, 2000, 1e-9, "VOQ idle: one RTT");
        NS_TEST_EXPECT_MSG_EQ_TOL(t.ctsNs, 0, 1e-9, "pre-posted Rx: CTS hidden");
        NS_TEST_EXPECT_MSG_EQ_TOL(t.latencyNs, 1000, 1e-9, "RTT/2");
        // 16,384 B / min(100, 170.24) GB/s = 163.84 ns.
        NS_TEST_EXPECT_MSG_EQ_TOL(t.transferNs, 163.84, 1e-6, "chunk / lane");
        // 100 cycles / 1.33 GHz = 75.1880 ns.
        NS_TEST_EXPECT_MSG_EQ_TOL(t.commitNs, 100 / 1.33, 1e-6, "commit");
        // 8192 FP16 elements: 64 rows x 2 cycles = 128 cycles = 96.2406 ns.
        NS_TEST_EXPECT_MSG_EQ(t.reduceCycles, 128, "VPU FP16");
        NS_TEST_EXPECT_MSG_EQ_TOL(t.reduceNs, 128 / 1.33, 1e-6, "reduce");
        const double step = 40 + 2000 + 1000 + 163.84 + 100 / 1.33 + 128 / 1.33;
        NS_TEST_EXPECT_MSG_EQ_TOL(t.totalNs, step, 1e-6, "T_step");
        // T_AR = 7 reducing + 7 plain steps; the uniform 2(P-1) T_step counts the reduce in all
        // 14.
        const double plain = step - 128 / 1.33;
        NS_TEST_EXPECT_MSG_EQ_TOL(PyxisStepTime::AllReduceNs(p, 524288, 8),
                                  7 * step + 7 * plain,
                                  1e-6,
                                  "T_AR");
        NS_TEST_EXPECT_MSG_EQ_TOL(PyxisStepTime::UniformAllReduceNs(p, 524288, 8),
                                  14 * step,
                                  1e-6,
                                  "uniform T_AR");
        NS_TEST_EXPECT_MSG_EQ_TOL(PyxisStepTime::AllGatherNs(p, 524288, 8),
                                  7 * plain,
                                  1e-6,
                                  "T_AG");
        NS_TEST_EXPECT_MSG_EQ_TOL(PyxisStepTime::AllReduceNs(p, 524288, 1), 0, 1e-9, "one chip");
        // Grants kept between steps: only step 0 waits the request/grant RTT (13 x 2 us less).
        p.grantWait = PyxisStepTime::GRANT_FIRST_STEP;
        NS_TEST_EXPECT_MSG_EQ_TOL(PyxisStepTime::AllReduceNs(p, 524288, 8),
                                  7 * step + 7 * plain - 13 * 2000,
                                  1e-6,
                                  "T_AR, grant wait on the first step only");
        NS_TEST_EXPECT_MSG_EQ_TOL(PyxisStepTime::Step(p, 16384, true, 1).grantNs,
                                  0,
                                  1e-9,
                                  "step 1: no grant wait");
        p.grantWait = PyxisStepTime::GRANT_EVERY_STEP;
        // Rx jobs posted late: each of the 14 steps waits a CTS round trip (2 us).
        p.rxPrePosted = false;
        NS_TEST_EXPECT_MSG_EQ_TOL(PyxisStepTime::AllReduceNs(p, 524288, 8),
                                  7 * step + 7 * plain + 14 * 2000,
                                  1e-6,
                                  "T_AR without pre-posting");
        // InMemAdd: 16,384 / 128 = 128 cycles as well; at 1 MiB per step, 8192 cycles.
        p.reduction = PyxisModelSpec::INMEM_ADD;
        NS_TEST_EXPECT_MSG_EQ(PyxisStepTime::ReduceCycles(p, 1 << 20), 8192, "InMemAdd");
        // A lane faster than the Rx DMA: the Rx rate bounds the transfer.
        p.laneBytesPerSecond = 400e9;
        NS_TEST_EXPECT_MSG_EQ_TOL(PyxisStepTime::Step(p, 17024, false).transferNs,
                                  100,
                                  1e-6,
                                  "17,024 B at 170.24 GB/s");
    }
};

/**
 * \ingroup pyxis-tests
 * The pyxis-workload suite.
 */
class PyxisWorkloadTestSuite : public PicosecondTestSuite
{
  public:
    PyxisWorkloadTestSuite();
};

PyxisWorkloadTestSuite::PyxisWorkloadTestSuite()
    : PicosecondTestSuite("pyxis-workload", UNIT)
{
    struct Bad
    {
        const char* name;
        std::string text;
        uint32_t line;
        const char* field;
        const char* message;
    };

    const Bad bad[] = {
        {"unknown top key", ReplaceLine(VALID, 1, "nmae: t"), 1, "nmae", "unknown key"},
        {"unknown parallelism key",
         ReplaceLine(VALID, 4, "  dat: 2"),
         4,
         "parallelism.dat",
         "unknown key (known keys here: tensor, data,"},
        {"key of another kind",
         ReplaceLine(VALID, 11, "    heads: 4"),
         11,
         "layers[0].heads",
         "unknown key"},
        {"zero heads", ReplaceLine(VALID, 14, "    heads: 0"), 14, "layers[1].heads", "at least 1"},
        {"bad integer",
         ReplaceLine(VALID, 13, "    d-model: 4k"),
         13,
         "layers[1].d-model",
         "expected a non-negative integer, got '4k'"},
        {"negative", ReplaceLine(VALID, 3, "  tensor: -8"), 3, "parallelism.tensor", "'-8'"},
        {"too many chips",
         ReplaceLine(VALID, 3, "  tensor: 145"),
         3,
         "parallelism.tensor",
         "at most 144"},
        {"a map for a number",
         ReplaceLine(VALID, 17, "    tokens: {a: 1}"),
         17,
         "layers[1].tokens",
         "expected an integer, got a map"},
        {"bad collective",
         ReplaceLine(VALID, 5, "  tp-collective: broadcast"),
         5,
         "parallelism.tp-collective",
         "expected one of all-reduce, all-gather, got 'broadcast'"},
        {"bad split-k",
         ReplaceLine(VALID, 6, "  split-k: yes"),
         6,
         "parallelism.split-k",
         "expected one of none, auto"},
        {"bad reduction",
         ReplaceLine(VALID, 6, "  reduction: cpu"),
         6,
         "parallelism.reduction",
         "vpu, inmem-add"},
        {"bad dtype",
         ReplaceLine(VALID, 18, "    dtype: bf16"),
         18,
         "layers[1].dtype",
         "fp8, fp16"},
        {"bad kind",
         ReplaceLine(VALID, 8, "  - kind: lstm"),
         8,
         "layers[0].kind",
         "transformer, linear, conv3x3"},
        {"heads not divisible",
         ReplaceLine(VALID, 14, "    heads: 36"),
         14,
         "layers[1].heads",
         "36 is not a multiple of 8"},
        {"row split not divisible",
         ReplaceLine(VALID, 9, "    in-features: 1020"),
         9,
         "layers[0].in-features",
         "multiple of parallelism.tensor"},
        {"missing required",
         ReplaceLine(VALID, 16, "    context: 64"),
         12,
         "layers[1].ffn",
         "missing"},
        {"duplicate key",
         ReplaceLine(VALID, 16, "    heads: 32"),
         16,
         "layers[1].heads",
         "duplicate key (first given on line 14)"},
        {"layers not a list",
         "parallelism: {tensor: 2}\nlayers: 3\n",
         2,
         "layers",
         "expected a list"},
        {"YAML syntax", ReplaceLine(VALID, 15, "    head-dim: [128"), 16, "", "YAML syntax error"},
        {"bad bool",
         ReplaceLine(VALID, 18, "    gated-mlp: yes"),
         18,
         "layers[1].gated-mlp",
         "expected one of false, true"},
        {"stride 3",
         "layers:\n  - {kind: conv3x3, height: 8, width: 8, cin: 4, cout: 4, stride: 3}\n",
         2,
         "layers[0].stride",
         "at most 2"},
        {"unknown data algorithm",
         ReplaceLine(VALID, 6, "  data-algorithm: magic"),
         6,
         "parallelism.data-algorithm",
         "halving-doubling"},
        {"empty file", "", 0, "", "empty model file"},
        {"a list at the top", "- kind: linear\n", 1, "", "expected a map of keys, got a list"},
        {"a layer not a map",
         "layers:\n  - 3\n",
         2,
         "layers[0]",
         "expected a map of keys, got '3'"},
        {"comma at the top", "layers: []\n,\n", 2, "", "YAML syntax error"},
        {"binary", std::string("\x01\x00\xff: [", 5), 1, "", "expected a map of keys"},
    };
    for (const auto& b : bad)
    {
        AddTestCase(new PyxisModelErrorTestCase(b.name, b.text, b.line, b.field, b.message),
                    TestCase::QUICK);
    }
    AddTestCase(new PyxisModelLoadTestCase, TestCase::QUICK);
    AddTestCase(new PyxisTransformerLoweringTestCase, TestCase::QUICK);
    AddTestCase(new PyxisFlopsTestCase, TestCase::QUICK);
    AddTestCase(new PyxisRingTestCase, TestCase::QUICK);
    AddTestCase(new PyxisStepTimeTestCase, TestCase::QUICK);
}

static PyxisWorkloadTestSuite g_pyxisWorkloadTestSuite; //!< registers the suite
