/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * A Pyxis model as a workload DAG (PyxisDagExport), checked on the one-layer model of
 * examples/pyxis/tp8-layer.yaml against numbers from the model file and the trip timing of
 * pyxis.rst (an operation's UIE trips take T_launch + the slowest share + the commit).
 */

#include "ns3/picosecond-test-suite.h"
#include "ns3/pyxis-dag-export.h"
#include "ns3/pyxis-layer-program.h"
#include "ns3/pyxis-model-loader.h"
#include "ns3/pyxis-trip-program.h"
#include "ns3/test.h"

#include <cmath>

using namespace ns3;

namespace
{

/// One decoder layer (d-model 4096, 32 heads of 128, MLP 16384, 128 FP8 tokens) over TP 8 x DP 2.
const char* MODEL = R"(
name: tp8-dp2-layer
parallelism: {tensor: 8, data: 2, tp-collective: all-reduce, reduction: vpu,
              data-sync: weights}
layers:
  - {kind: transformer, name: decoder, dtype: fp8, d-model: 4096, heads: 32, head-dim: 128,
     ffn: 16384, tokens: 128, batch: 1}
)";

} // namespace

/**
 * \ingroup pyxis-tests
 * Structure and sizes: each of the 16 chips runs its compute operations in order; each TP
 * group (8 chips, 2 groups) has 2 all-reduces (attention and MLP outputs) of tokens x d-model
 * x 1 B = 128 x 4096 = 524,288 B by ring; each chip's operations chain, and a collective waits
 * on each chip for that chip's previous operation only; a compute node lasts 50 launch + the
 * slowest share + 100 commit cycles at 1.33 GHz.
 */
class PyxisDagExportTestCase : public TestCase
{
  public:
    PyxisDagExportTestCase()
        : TestCase("A TP 8 x DP 2 layer as a DAG: nodes, groups, bytes, per-chip order, times")
    {
    }

  private:
    void DoRun() override
    {
        const PyxisModelSpec spec = PyxisModelLoader::LoadString(MODEL, "tp8-dp2.yaml");
        const auto dag = PyxisDagExport::Build(spec);
        const auto chip0 = PyxisLayerProgram::LowerChip(spec, 0);
        uint32_t computeOps = 0;
        uint32_t dpOps = 0;
        double chip0Ps = 0;
        const PyxisUieModel model;
        for (const auto& op : chip0.layers[0].ops)
        {
            if (op.kind == PyxisLayerProgram::Op::COMPUTE)
            {
                ++computeOps;
                uint64_t most = 0;
                for (const auto& s : op.compute.shares)
                {
                    most = std::max(most, PyxisTripProgram::ShareCycles(model, op.compute, s));
                }
                chip0Ps += std::llround((50 + most + 100) / 1.33e9 * 1e12);
            }
            dpOps += op.kind == PyxisLayerProgram::Op::DP_COMM;
        }
        uint32_t compute = 0;
        uint32_t tp = 0;
        uint32_t dp = 0;
        double dag0Ps = 0;
        for (const auto& n : dag->nodes)
        {
            if (n.kind == DagProgram::COMPUTE)
            {
                ++compute;
                NS_TEST_ASSERT_MSG_EQ(n.participants.size(), 1, "a compute node is one chip's");
                NS_TEST_ASSERT_MSG_LT_OR_EQ(n.deps.size(), 1, "chained on its chip");
                if (n.participants[0] == 0)
                {
                    dag0Ps += n.duration.GetPicoSeconds();
                }
                continue;
            }
            NS_TEST_ASSERT_MSG_EQ(n.rankDeps.size(), n.participants.size(), "deps per chip");
            if (n.category == "tp-all-reduce")
            {
                ++tp;
                NS_TEST_EXPECT_MSG_EQ(n.participants.size(), 8, "a TP group is 8 chips");
                NS_TEST_EXPECT_MSG_EQ(n.bytes, 128 * 4096, "tokens x d-model x 1 B");
                NS_TEST_EXPECT_MSG_EQ(n.algorithm, "ring", "the TP collectives are rings");
                for (uint32_t r = 0; r < n.participants.size(); ++r)
                {
                    NS_TEST_ASSERT_MSG_EQ(n.rankDeps[r].size(), 1, "after its chip's compute");
                    const auto& prev = dag->nodes[n.rankDeps[r][0]];
                    NS_TEST_EXPECT_MSG_EQ(prev.participants[0],
                                          n.participants[r],
                                          "each chip waits for its own operation");
                }
            }
            else
            {
                ++dp;
                NS_TEST_EXPECT_MSG_EQ(n.participants.size(), 2, "a DP group is the 2 replicas");
            }
        }
        NS_TEST_EXPECT_MSG_EQ(compute, 16 * computeOps, "every chip's compute operations");
        NS_TEST_EXPECT_MSG_EQ(tp, 2 * 2, "2 all-reduces in each of 2 TP groups");
        NS_TEST_EXPECT_MSG_EQ(dp, 8 * dpOps, "each DP collective once per tensor rank");
        NS_TEST_EXPECT_MSG_EQ(dag0Ps, chip0Ps, "chip 0's compute time: launch + share + commit");
    }
};

/**
 * \ingroup pyxis-tests
 * PyxisDagExport.
 */
class PyxisDagExportTestSuite : public PicosecondTestSuite
{
  public:
    PyxisDagExportTestSuite()
        : PicosecondTestSuite("pyxis-dag-export", UNIT)
    {
        AddTestCase(new PyxisDagExportTestCase(), TestCase::QUICK);
    }
};

/// The suite's one instance.
static PyxisDagExportTestSuite g_pyxisDagExportTestSuite;
