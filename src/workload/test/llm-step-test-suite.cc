/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Tests of the LLM training-step generator (kind: llm-step): the DAG's collectives and sends
// against hand counts, the compute-only iteration time against the 1F1B closed form, the MoE
// all-to-alls against the sizes top-k implies, the ZeRO collectives, and the keys' checks. Every
// expected value is derived in the comment beside it (src/workload/doc/workload.rst, Validation).

#include "ns3/dag-critical-path.h"
#include "ns3/dag-iteration-summary.h"
#include "ns3/llm-roofline.h"
#include "ns3/llm-step-generator.h"
#include "ns3/llm-step-spec.h"
#include "ns3/test.h"

#include <map>
#include <set>
#include <string>

using namespace ns3;

/**
 * \defgroup workload-tests Tests for workload
 * \ingroup workload
 * \ingroup tests
 */

namespace
{

/// The dense case: 32 layers, hidden 4096, ffn 16384, 32 heads, sequence 4096, micro-batch 1,
/// TP 8 x PP 4 x DP 32 = 1024 accelerators, global batch 256: m = 256 / (32 x 1) = 8.
LlmStepSpec
Dense()
{
    LlmStepSpec s;
    s.layers = 32;
    s.hidden = 4096;
    s.ffn = 16384;
    s.heads = 32;
    s.sequence = 4096;
    s.microBatch = 1;
    s.globalBatch = 256;
    s.tp = 8;
    s.pp = 4;
    s.dp = 32;
    return s;
}

/// Per category: node count, and the set of (bytes, participants) seen.
struct Tally
{
    uint64_t count{0};                                 //!< nodes
    std::set<std::pair<uint64_t, std::size_t>> shapes; //!< (bytes, participants)
    std::set<std::string> collectives;                 //!< collective names
};

/// \param p a DAG \return its tally per category
std::map<std::string, Tally>
Count(const DagProgram& p)
{
    std::map<std::string, Tally> t;
    for (const auto& n : p.nodes)
    {
        auto& x = t[n.category];
        ++x.count;
        x.shapes.insert({n.bytes, n.participants.size()});
        if (n.kind == DagProgram::COLLECTIVE)
        {
            x.collectives.insert(n.collective);
        }
    }
    return t;
}

} // namespace

/**
 * \ingroup workload-tests
 * The dense case's nodes against the hand count.
 */
class LlmDenseCountTestCase : public TestCase
{
  public:
    LlmDenseCountTestCase()
        : TestCase("dense 1024 accelerators: collectives and sends equal the hand count")
    {
    }

  private:
    void DoRun() override
    {
        const LlmStepSpec s = Dense();
        NS_TEST_ASSERT_MSG_EQ(s.Check(1024).key, "", "the dense case is valid");
        NS_TEST_ASSERT_MSG_EQ(s.GetMicroBatches(), 8u, "m = 256 / (32 x 1)");
        const auto dag = LlmStepGenerator(s).Build();
        auto t = Count(*dag);
        // p = 4 stages x 8 layers x m = 8 micro-batches x 32 replicas = 8192 forward and as many
        // backward compute nodes, each over a TP group of 8.
        NS_TEST_EXPECT_MSG_EQ(t["forward"].count, 8192u, "4 x 8 x 8 x 32");
        NS_TEST_EXPECT_MSG_EQ(t["backward"].count, 8192u, "4 x 8 x 8 x 32");
        NS_TEST_EXPECT_MSG_EQ(t["forward"].shapes.size(), 1u, "one shape");
        NS_TEST_EXPECT_MSG_EQ(t["forward"].shapes.begin()->second, 8u, "the TP group");
        // TP: per layer, micro-batch and replica 2 forward + 2 backward all-reduces of
        // micro-batch x sequence x hidden x 2 bytes = 1 x 4096 x 4096 x 2 = 33,554,432 bytes:
        // 4 x 32 layers x 8 x 32 = 32,768.
        NS_TEST_EXPECT_MSG_EQ(t["tp-all-reduce"].count, 32768u, "4 x 32 x 8 x 32");
        NS_TEST_EXPECT_MSG_EQ(t["tp-all-reduce"].shapes.size(), 1u, "one shape");
        NS_TEST_EXPECT_MSG_EQ(t["tp-all-reduce"].shapes.begin()->first, 33554432u, "1x4096x4096x2");
        NS_TEST_EXPECT_MSG_EQ(t["tp-all-reduce"].shapes.begin()->second, 8u, "over the TP group");
        NS_TEST_EXPECT_MSG_EQ(t.count("tp-reduce-scatter"), 0u, "no sequence parallelism");
        // PP: (p - 1) = 3 boundaries x m = 8 x 32 replicas x 8 TP ranks, forward and backward:
        // 2 x 6144 = 12,288 sends of the micro-batch's activations (33,554,432 bytes).
        NS_TEST_EXPECT_MSG_EQ(t["pp-send"].count, 12288u, "2 x 3 x 8 x 32 x 8");
        NS_TEST_EXPECT_MSG_EQ(t["pp-send"].shapes.size(), 1u, "one shape");
        NS_TEST_EXPECT_MSG_EQ(t["pp-send"].shapes.begin()->first, 33554432u, "activations");
        // DP (ZeRO 0): per layer and TP rank one all-reduce over the 32 replicas: 32 x 8 = 256, of
        // the layer's parameters on one shard x 2 bytes: QKV 4096 x (4 + 2 x 4) x 128 =
        // 6,291,456, output 4 x 128 x 4096 = 2,097,152, norms 2 x 4096 = 8,192, MLP 2 x 4096 x
        // 16384 / 8 = 16,777,216; 25,174,016 parameters, 50,348,032 bytes.
        NS_TEST_EXPECT_MSG_EQ(t["dp-all-reduce"].count, 256u, "32 layers x 8 TP ranks");
        NS_TEST_EXPECT_MSG_EQ(t["dp-all-reduce"].shapes.size(), 1u, "one shape");
        NS_TEST_EXPECT_MSG_EQ(t["dp-all-reduce"].shapes.begin()->first, 50348032u, "2 x 25174016");
        NS_TEST_EXPECT_MSG_EQ(t["dp-all-reduce"].shapes.begin()->second, 32u, "the DP group");
        NS_TEST_EXPECT_MSG_EQ(t.count("dp-all-gather"), 0u, "no ZeRO");
        // One optimizer node per stage and replica: 4 x 32 = 128.
        NS_TEST_EXPECT_MSG_EQ(t["optimizer"].count, 128u, "4 x 32");
        NS_TEST_EXPECT_MSG_EQ(dag->nodes.size(),
                              8192u * 2 + 32768 + 12288 + 256 + 128,
                              "61,824 nodes in all");
        // The layout (order tp-dp-pp): replica 1's stage 2 TP group is 2 x 256 + 1 x 8 + 0..7.
        NS_TEST_EXPECT_MSG_EQ(s.GetAccelerator(0, 1, 2), 520u, "2 x 256 + 8");
        NS_TEST_EXPECT_MSG_EQ(s.GetAccelerator(7, 31, 3), 1023u, "the last accelerator");
        // order dp-tp-pp: replicas innermost, (i, r, q) -> r + 32 (i + 8 q).
        LlmStepSpec o = s;
        o.order = "dp-tp-pp";
        NS_TEST_EXPECT_MSG_EQ(o.GetAccelerator(1, 2, 3), 2u + 32 * (1 + 8 * 3), "802");
        // Sequence parallelism: each all-reduce becomes a reduce-scatter and an all-gather of the
        // same total (nccl-tests sizes), and the sends carry 1/8 of the activations.
        LlmStepSpec sp = s;
        sp.sequenceParallel = true;
        auto u = Count(*LlmStepGenerator(sp).Build());
        NS_TEST_EXPECT_MSG_EQ(u["tp-reduce-scatter"].count, 32768u, "one per all-reduce");
        NS_TEST_EXPECT_MSG_EQ(u["tp-all-gather"].count, 32768u, "one per all-reduce");
        NS_TEST_EXPECT_MSG_EQ(u["tp-all-gather"].shapes.begin()->first, 33554432u, "the total");
        NS_TEST_EXPECT_MSG_EQ(u.count("tp-all-reduce"), 0u, "none left");
        NS_TEST_EXPECT_MSG_EQ(u["pp-send"].shapes.begin()->first, 33554432u / 8, "1/tp");
    }
};

/**
 * \ingroup workload-tests
 * The compute-only iteration time against the roofline and the 1F1B bubble.
 */
class LlmBubbleTestCase : public TestCase
{
  public:
    LlmBubbleTestCase()
        : TestCase("dense: compute-only iteration = stage time x (m + p - 1) + optimizer")
    {
    }

  private:
    void DoRun() override
    {
        const LlmStepSpec s = Dense();
        const LlmRoofline roof(s);
        // The layer's matrix FLOPs on one shard (Narayanan et al. 2021, its FLOP count: a GELU
        // layer with ffn = 4h does 24 b s h^2 + 4 b s^2 h forward FLOPs), divided over tp = 8:
        // (24 x 4096 x 4096^2 + 4 x 4096^2 x 4096) / 8 = 28 x 4096^3 / 8.
        double flops = 0;
        for (const auto& op : roof.GetLayerOps())
        {
            flops += op.flops;
        }
        const double b = 4096.0;
        NS_TEST_EXPECT_MSG_EQ_TOL(flops,
                                  28 * b * b * b / 8,
                                  1.0,
                                  "Megatron's per-layer FLOPs / tp");
        // Every matmul of this shape is compute-bound: QKV does 2 x 4096 x 4096 x 1536 FLOPs
        // (51.5 GFLOP, 74.4 us at 989.4 T x 0.7) and moves (4096 x 4096 + 4096 x 1536 + 4096 x
        // 1536) x 2 = 58.7 MB (21.9 us at 3.35 TB/s x 0.8).
        const auto ops = roof.GetLayerOps();
        const auto& qkv = ops[2];
        NS_TEST_EXPECT_MSG_EQ(qkv.name, "qkv", "the third operation");
        NS_TEST_EXPECT_MSG_EQ_TOL(roof.GetSeconds(qkv),
                                  2 * b * b * 1536 / (989.4e12 * 0.7),
                                  1e-12,
                                  "compute-bound");
        // Compute only: each stage runs m = 8 forwards and backwards of lp = 8 layers; with
        // backward = 2 forward, a micro-batch's stage time is 8 x 3F. 1F1B takes (m + p - 1)
        // such slots (the bubble: (p - 1) / (m + p - 1) = 3/11 of them), then the optimizer.
        const Time f = roof.GetLayerForward();
        const Time stage = f * 3 * 8;
        const Time expected = stage * (8 + 4 - 1) + roof.GetOptimizer(0);
        const auto dag = LlmStepGenerator(s).Build();
        const auto cp = DagCriticalPath::ComputeOnly(*dag);
        NS_TEST_EXPECT_MSG_EQ(cp.makespan, expected, "(m + p - 1) slots + optimizer");
        const double busy = (stage * 8).GetSeconds();
        const double bubble = 1 - busy / (stage * 11).GetSeconds();
        NS_TEST_EXPECT_MSG_EQ_TOL(bubble, 3.0 / 11, 1e-9, "bubble fraction (p-1)/(m+p-1)");
        // A single stage has no bubble: m slots.
        LlmStepSpec one = s;
        one.pp = 1;
        one.dp = 128;
        one.globalBatch = 512; // m = 512 / 128 = 4
        const auto cp1 = DagCriticalPath::ComputeOnly(*LlmStepGenerator(one).Build());
        NS_TEST_EXPECT_MSG_EQ(cp1.makespan,
                              f * 3 * 32 * 4 + LlmRoofline(one).GetOptimizer(0),
                              "m x 32 layers x 3F + optimizer");
    }
};

/**
 * \ingroup workload-tests
 * The 1F1B schedule's order.
 */
class LlmScheduleTestCase : public TestCase
{
  public:
    LlmScheduleTestCase()
        : TestCase("1F1B: p - 1 - s warm-up forwards, alternation, cool-down")
    {
    }

  private:
    void DoRun() override
    {
        // p = 4, m = 8, stage 0: F0 F1 F2 (warm-up 3), F3 B0 F4 B1 ... F7 B4, B5 B6 B7.
        auto s0 = LlmStepGenerator::GetSchedule(4, 0, 8);
        NS_TEST_ASSERT_MSG_EQ(s0.size(), 16u, "m forwards and m backwards");
        std::string text;
        for (const auto& [f, j] : s0)
        {
            text += (f ? "F" : "B") + std::to_string(j) + " ";
        }
        NS_TEST_EXPECT_MSG_EQ(text, "F0 F1 F2 F3 B0 F4 B1 F5 B2 F6 B3 F7 B4 B5 B6 B7 ", "stage 0");
        // The last stage alternates from the start.
        auto s3 = LlmStepGenerator::GetSchedule(4, 3, 2);
        text.clear();
        for (const auto& [f, j] : s3)
        {
            text += (f ? "F" : "B") + std::to_string(j) + " ";
        }
        NS_TEST_EXPECT_MSG_EQ(text, "F0 B0 F1 B1 ", "last stage");
        // Fewer micro-batches than stages: stage 0 warms up with all of them.
        auto few = LlmStepGenerator::GetSchedule(4, 0, 2);
        NS_TEST_EXPECT_MSG_EQ(few.size(), 4u, "2 + 2");
        NS_TEST_EXPECT_MSG_EQ(few[1].first, true, "F1 before any backward");
    }
};

/**
 * \ingroup workload-tests
 * MoE: the expert-parallel all-to-alls and the expert data-parallel groups.
 */
class LlmMoeTestCase : public TestCase
{
  public:
    LlmMoeTestCase()
        : TestCase("MoE: dispatch and combine all-to-alls of the sizes top-k implies")
    {
    }

  private:
    void DoRun() override
    {
        // 8 layers, hidden 1024, 8 heads, sequence 1024, 8 experts of moe-ffn 2048, top-2,
        // TP 4 (sequence parallel) x PP 2 x DP 8, EP 4: 64 accelerators; global batch 16: m = 2.
        LlmStepSpec s;
        s.layers = 8;
        s.hidden = 1024;
        s.ffn = 4096;
        s.heads = 8;
        s.sequence = 1024;
        s.globalBatch = 16;
        s.experts = 8;
        s.topK = 2;
        s.moeFfn = 2048;
        s.tp = 4;
        s.pp = 2;
        s.dp = 8;
        s.ep = 4;
        s.sequenceParallel = true;
        s.zero = 1;
        NS_TEST_ASSERT_MSG_EQ(s.Check(64).key, "", "valid");
        NS_TEST_ASSERT_MSG_EQ(s.GetMicroBatches(), 2u, "16 / 8");
        auto t = Count(*LlmStepGenerator(s).Build());
        // Per layer (8), micro-batch (2), direction (2), EP group (dp / ep = 2 blocks x 4 TP
        // ranks = 8): a dispatch and a combine: 8 x 2 x 2 x 8 x 2 = 512 all-to-alls over 4 ranks.
        // Each rank sends its sequence shard's token copies, 1024 / 4 tokens x top-2 x 1024 x 2
        // bytes = 1 MiB, spread over the 4 ranks: 262,144 bytes per pair.
        NS_TEST_EXPECT_MSG_EQ(t["ep-all-to-all"].count, 512u, "8 x 2 x 2 x 8 x 2");
        NS_TEST_EXPECT_MSG_EQ(t["ep-all-to-all"].shapes.size(), 1u, "one shape");
        NS_TEST_EXPECT_MSG_EQ(t["ep-all-to-all"].shapes.begin()->first, 262144u, "per pair");
        NS_TEST_EXPECT_MSG_EQ(t["ep-all-to-all"].shapes.begin()->second, 4u, "ep ranks");
        NS_TEST_EXPECT_MSG_EQ(*t["ep-all-to-all"].collectives.begin(), "all-to-all", "kind");
        // ZeRO-1: per layer one reduce-scatter per TP rank over the 8 replicas (dense part: QKV
        // 1024 x (2 + 4) x 128 = 786,432, output 2 x 128 x 1024 = 262,144, norms 2,048, router
        // 1024 x 8 = 8,192: 1,058,816 parameters, 2,117,632 bytes) and one per EP position over
        // the 4 TP ranks x 8 / 4 replicas = 8 accelerators holding the same 2 experts (2 x 2 x
        // 1024 x 2048 = 8,388,608 parameters, 16,777,216 bytes); 8 layers x (4 + 4) = 64, and as
        // many parameter all-gathers after the optimizer.
        NS_TEST_EXPECT_MSG_EQ(t["dp-reduce-scatter"].count, 64u, "8 x (4 + 4)");
        NS_TEST_EXPECT_MSG_EQ(t["dp-all-gather"].count, 64u, "8 x (4 + 4)");
        std::set<std::pair<uint64_t, std::size_t>> want{{2117632u, 8u}, {16777216u, 8u}};
        NS_TEST_EXPECT_MSG_EQ((t["dp-reduce-scatter"].shapes == want), true, "dense, expert");
        NS_TEST_EXPECT_MSG_EQ((t["dp-all-gather"].shapes == want), true, "dense, expert");
        NS_TEST_EXPECT_MSG_EQ(t.count("dp-all-reduce"), 0u, "ZeRO reduce-scatters");
        // ZeRO-2: gradients partitioned, so each micro-batch's are reduce-scattered: 2 x 64 =
        // 128, and the 64 parameter all-gathers after the step.
        s.zero = 2;
        auto z2 = Count(*LlmStepGenerator(s).Build());
        NS_TEST_EXPECT_MSG_EQ(z2["dp-reduce-scatter"].count, 128u, "m x 64");
        NS_TEST_EXPECT_MSG_EQ(z2["dp-all-gather"].count, 64u, "as ZeRO-1");
        // ZeRO-3: no gather after the step, one before each use: per layer, micro-batch and
        // direction, 4 dense + 4 expert groups: 8 x 2 x 2 x 8 = 256; reduce-scatters as ZeRO-2.
        s.zero = 3;
        auto z = Count(*LlmStepGenerator(s).Build());
        NS_TEST_EXPECT_MSG_EQ(z["dp-all-gather"].count, 256u, "8 x 2 x 2 x 8");
        NS_TEST_EXPECT_MSG_EQ(z["dp-reduce-scatter"].count, 128u, "as ZeRO-2");
        // The compute-only makespan is the same DAG's with every collective free: ZeRO-3's
        // gathers add nodes but no compute.
        s.zero = 1;
        const Time a = DagCriticalPath::ComputeOnly(*LlmStepGenerator(s).Build()).makespan;
        s.zero = 3;
        const Time c = DagCriticalPath::ComputeOnly(*LlmStepGenerator(s).Build()).makespan;
        NS_TEST_EXPECT_MSG_EQ(a, c, "communication is free");
    }
};

/**
 * \ingroup workload-tests
 * The keys' checks.
 */
class LlmCheckTestCase : public TestCase
{
  public:
    LlmCheckTestCase()
        : TestCase("bad keys are refused, naming the key")
    {
    }

  private:
    void DoRun() override
    {
        LlmStepSpec s = Dense();
        s.globalBatch = 100; // 100 / (32 x 1) is not whole
        NS_TEST_EXPECT_MSG_EQ(s.Check(1024).key, "global-batch", "m not whole");
        s = Dense();
        NS_TEST_EXPECT_MSG_EQ(s.Check(512).key, "dp", "8 x 4 x 32 = 1024 != 512");
        s.heads = 36; // 36 / 8 is not whole (hidden 4096 / 36 neither: heads is checked first)
        NS_TEST_EXPECT_MSG_EQ(s.Check(1024).key, "heads", "heads / tp");
        s = Dense();
        s.layers = 30;
        NS_TEST_EXPECT_MSG_EQ(s.Check(1024).key, "layers", "30 / 4");
        s = Dense();
        s.experts = 8;
        s.ep = 3;
        NS_TEST_EXPECT_MSG_EQ(s.Check(1024).key, "ep", "3 does not divide dp 32");
        s.ep = 16;
        NS_TEST_EXPECT_MSG_EQ(s.Check(1024).key, "experts", "8 experts over 16 ranks");
        s.ep = 8;
        NS_TEST_EXPECT_MSG_EQ(s.Check(1024).key, "sequence-parallel", "MoE with tp 8");
        s = Dense();
        s.accelerator = "pyxis";
        s.dtype = "fp32";
        NS_TEST_EXPECT_MSG_EQ(s.Check(1024).key, "peak-flops", "Pyxis has no FP32 rate");
        s.peakFlops = 1e14;
        NS_TEST_EXPECT_MSG_EQ(s.Check(1024).key, "", "given");
        // The presets: Pyxis 48 UIEs x 16,384 MAC x 2 x 1.33 GHz at FP8, half at FP16 (and
        // BF16), 4 x 1228.8 GB/s; the GPU part's datasheet rates.
        NS_TEST_EXPECT_MSG_EQ_TOL(LlmStepSpec::PresetPeakFlops("pyxis", "fp8"),
                                  48.0 * 16384 * 2 * 1.33e9,
                                  1.0,
                                  "2.092 PFLOP/s");
        NS_TEST_EXPECT_MSG_EQ_TOL(LlmStepSpec::PresetPeakFlops("pyxis", "bf16"),
                                  48.0 * 16384 * 1.33e9,
                                  1.0,
                                  "FP16 rate");
        NS_TEST_EXPECT_MSG_EQ_TOL(LlmStepSpec::PresetHbmBandwidth("pyxis"),
                                  4915.2e9,
                                  1.0,
                                  "4 x 1228.8 GB/s");
        NS_TEST_EXPECT_MSG_EQ_TOL(LlmStepSpec::PresetPeakFlops("gpu", "bf16"),
                                  989.4e12,
                                  1.0,
                                  "H100");
        NS_TEST_EXPECT_MSG_EQ_TOL(LlmStepSpec::PresetHbmBandwidth("gpu"), 3.35e12, 1.0, "H100");
    }
};

/**
 * \ingroup workload-tests
 * The compute-only critical path on a hand-made DAG.
 */
class DagCriticalPathTestCase : public TestCase
{
  public:
    DagCriticalPathTestCase()
        : TestCase("compute-only critical path: per-participant deps, free collectives")
    {
    }

  private:
    void DoRun() override
    {
        // a (on 0, 1: 5 us) -> all-reduce (0, 1) -> b (on 0: 3 us); c (on 2: 10 us) -> send 2->0
        // -> d (on 0: 1 us, after b too). Participant 0: a ends 5, the all-reduce ends 5
        // (free), b 8; c ends 10, the send 10, d starts max(8, 10) = 10, ends 11.
        DagProgram p;
        auto node = [&](const std::string& name,
                        DagProgram::Kind k,
                        std::vector<uint32_t> parts,
                        int64_t us,
                        std::vector<uint32_t> deps) {
            DagProgram::Node n;
            n.name = name;
            n.kind = k;
            n.participants = std::move(parts);
            n.duration = MicroSeconds(us);
            n.deps = std::move(deps);
            n.collective = "all-reduce";
            n.bytes = 1;
            p.nodes.push_back(n);
        };
        node("a", DagProgram::COMPUTE, {0, 1}, 5, {});
        node("ar", DagProgram::COLLECTIVE, {0, 1}, 0, {0});
        node("b", DagProgram::COMPUTE, {0}, 3, {1});
        node("c", DagProgram::COMPUTE, {2}, 10, {});
        node("send", DagProgram::SEND, {2, 0}, 0, {3});
        node("d", DagProgram::COMPUTE, {0}, 1, {2, 4});
        auto r = DagCriticalPath::ComputeOnly(p);
        NS_TEST_EXPECT_MSG_EQ(r.makespan, MicroSeconds(11), "10 + 1");
        NS_TEST_EXPECT_MSG_EQ(r.acceleratorEnd[1], MicroSeconds(5), "accelerator 1: a, ar");
        // Two iterations: accelerator 0 starts the second at 11; a then waits for 0 (11) and 1
        // (its own end, 5): a ends 16 on 0, the all-reduce 16, b 19; c runs 10..20 on 2, the
        // send 20, d 20..21.
        p.iterations = 2;
        NS_TEST_EXPECT_MSG_EQ(DagCriticalPath::ComputeOnly(p).makespan, MicroSeconds(21), "21");
        // rankDeps: b waits on participant 0 only for a, not for the collective's stragglers.
        DagProgram q;
        q.nodes.push_back({});
        q.nodes[0].name = "slow";
        q.nodes[0].participants = {1};
        q.nodes[0].duration = MicroSeconds(7);
        DagProgram::Node e;
        e.name = "e";
        e.participants = {0, 1};
        e.duration = MicroSeconds(1);
        e.rankDeps = {{}, {0}};
        q.nodes.push_back(e);
        auto rq = DagCriticalPath::ComputeOnly(q);
        NS_TEST_EXPECT_MSG_EQ(rq.acceleratorEnd[0],
                              MicroSeconds(1),
                              "participant 0 waits for none");
        NS_TEST_EXPECT_MSG_EQ(rq.acceleratorEnd[1], MicroSeconds(8), "participant 1: 7 + 1");
    }
};

/**
 * \ingroup workload-tests
 * The iteration summary on a hand-made table.
 */
class DagIterationSummaryTestCase : public TestCase
{
  public:
    DagIterationSummaryTestCase()
        : TestCase("iteration summary: compute union, exposed communication, categories")
    {
    }

  private:
    void DoRun() override
    {
        // Accelerator 0: forward 0-10 us, tp-all-reduce 10-14, backward 14-34, optimizer
        // 40-45; accelerator 1: the same forward, all-reduce and backward, dp-all-reduce 30-42
        // (overlapping the backward), optimizer 42-50. Iteration 50 us; compute 35 and 38 us
        // (mean 36.5), exposed 15 and 12 (mean 13.5, max 15); categories: the mean of each
        // union over the 2 accelerators (optimizer (5 + 8) / 2 = 6.5, dp-all-reduce 12 / 2 = 6).
        const int64_t us = 1000000;
        using R = DagIterationSummary::Row;
        std::vector<R> rows{{0, true, "forward", 0, 10 * us},
                            {0, false, "tp-all-reduce", 10 * us, 14 * us},
                            {0, true, "backward", 14 * us, 34 * us},
                            {0, true, "optimizer", 40 * us, 45 * us},
                            {1, true, "forward", 0, 10 * us},
                            {1, false, "tp-all-reduce", 10 * us, 14 * us},
                            {1, true, "backward", 14 * us, 34 * us},
                            {1, false, "dp-all-reduce", 30 * us, 42 * us},
                            {1, true, "optimizer", 42 * us, 50 * us}};
        const auto s = DagIterationSummary::Compute(rows);
        NS_TEST_EXPECT_MSG_EQ(s.iterationPs, 50 * us, "50 us");
        NS_TEST_EXPECT_MSG_EQ_TOL(s.computePs, 36.5 * us, 1e-6, "(35 + 38) / 2");
        NS_TEST_EXPECT_MSG_EQ_TOL(s.exposedPs, 13.5 * us, 1e-6, "(15 + 12) / 2");
        NS_TEST_EXPECT_MSG_EQ(s.exposedMaxPs, 15 * us, "accelerator 0");
        NS_TEST_EXPECT_MSG_EQ(s.accelerators, 2u, "two");
        NS_TEST_EXPECT_MSG_EQ_TOL(s.categoryPs.at("optimizer"), 6.5 * us, 1e-6, "(5 + 8) / 2");
        NS_TEST_EXPECT_MSG_EQ_TOL(s.categoryPs.at("dp-all-reduce"), 6.0 * us, 1e-6, "12 / 2");
        NS_TEST_EXPECT_MSG_EQ_TOL(s.categoryPs.at("backward"), 20.0 * us, 1e-6, "20");
        NS_TEST_EXPECT_MSG_EQ(s.unfinished, 0u, "all finished");
        // A stopped run's rows without an end (-1) are left out and counted.
        rows.push_back({1, true, "backward", 45 * us, -1});
        const auto t = DagIterationSummary::Compute(rows);
        NS_TEST_EXPECT_MSG_EQ(t.iterationPs, 50 * us, "unchanged");
        NS_TEST_EXPECT_MSG_EQ(t.unfinished, 1u, "one");
    }
};

/**
 * \ingroup workload-tests
 * The workload-llm-step suite.
 */
class LlmStepTestSuite : public TestSuite
{
  public:
    LlmStepTestSuite()
        : TestSuite("workload-llm-step", UNIT)
    {
        AddTestCase(new LlmScheduleTestCase, TestCase::QUICK);
        AddTestCase(new DagCriticalPathTestCase, TestCase::QUICK);
        AddTestCase(new DagIterationSummaryTestCase, TestCase::QUICK);
        AddTestCase(new LlmCheckTestCase, TestCase::QUICK);
        AddTestCase(new LlmDenseCountTestCase, TestCase::QUICK);
        AddTestCase(new LlmBubbleTestCase, TestCase::QUICK);
        AddTestCase(new LlmMoeTestCase, TestCase::QUICK);
    }
};

static LlmStepTestSuite g_llmStepTestSuite; //!< registers the suite
