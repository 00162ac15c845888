/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "llm-step-workload-kind.h"

#include "ns3/collective-helper.h"
#include "ns3/fabric-config-reader.h"
#include "ns3/llm-roofline.h"
#include "ns3/llm-step-generator.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LlmStepWorkloadKind");

std::map<std::string, std::string>
LlmStepWorkloadKind::Config::GetTexts() const
{
    return {{"accelerator", spec.accelerator},
            {"dtype", spec.dtype},
            {"order", spec.order},
            {"tp-algorithm", spec.tpAlgorithm},
            {"dp-algorithm", spec.dpAlgorithm},
            {"activation", spec.activation}};
}

std::map<std::string, uint64_t>
LlmStepWorkloadKind::Config::GetCounts() const
{
    return {{"tp", spec.tp},
            {"pp", spec.pp},
            {"dp", spec.dp},
            {"ep", spec.ep},
            {"micro_batches", spec.GetMicroBatches()},
            {"layer_forward_ps",
             static_cast<uint64_t>(LlmRoofline(spec).GetLayerForward().GetPicoSeconds())}};
}

std::shared_ptr<const DagProgram>
LlmStepWorkloadKind::Config::GetDag() const
{
    std::call_once(m_once, [this]() { m_dag = LlmStepGenerator(spec).Build(); });
    return m_dag;
}

std::string
LlmStepWorkloadKind::GetName() const
{
    return "llm-step";
}

std::string
LlmStepWorkloadKind::GetSummary() const
{
    return "an LLM training step (src/workload/doc/workload.rst)";
}

std::string
LlmStepWorkloadKind::GetChecks() const
{
    return "llm-step: tp x pp x dp = accelerators; global-batch divisible by dp x micro-batch; "
           "heads, ffn, vocabulary (and sequence with sequence-parallel) divisible by tp; "
           "layers by pp; hidden by heads; kv-heads divides heads; MoE: ep divides dp and "
           "experts, top-k at most experts, sequence-parallel when tp > 1.";
}

void
LlmStepWorkloadKind::DeclareKeys(std::vector<FabricConfigKey>& k) const
{
    using K = FabricConfigKey;
    const std::vector<std::string> kind{"llm-step"};
    auto u = [&](const std::string& name,
                 const std::string& def,
                 double lo,
                 const std::string& help) {
        k.push_back(K("workloads[]." + name, K::UINT).Default(def).Min(lo).Kinds(kind).Help(help));
    };
    u("layers", "32", 1, "llm-step: transformer layers.");
    u("hidden", "4096", 1, "llm-step: hidden size (elements).");
    u("ffn", "16384", 1, "llm-step: MLP intermediate size (elements; 4 x hidden for GELU).");
    u("heads", "32", 1, "llm-step: attention heads.");
    u("kv-heads", "0", 0, "llm-step: key/value heads (grouped-query attention); 0: heads.");
    u("sequence", "4096", 1, "llm-step: sequence length (tokens).");
    u("micro-batch", "1", 1, "llm-step: micro-batch size (sequences).");
    u("global-batch",
      "0",
      0,
      "llm-step: global batch (sequences); micro-batches per iteration = global-batch / (dp x "
      "micro-batch), which must divide; 0: dp x micro-batch (one micro-batch).");
    u("vocabulary",
      "0",
      0,
      "llm-step: vocabulary size: the embedding on the first stage, the output head and loss "
      "on the last; 0: neither.");
    k.push_back(K("workloads[].dtype", K::ENUM)
                    .Default("bf16")
                    .Allowed({"bf16", "fp16", "fp8", "fp32"})
                    .Kinds(kind)
                    .Help("llm-step: element type of weights, activations and gradients (2, 2, "
                          "1, 4 bytes), and the accelerator's peak rate used."));
    k.push_back(K("workloads[].activation", K::ENUM)
                    .Default("gelu")
                    .Allowed({"gelu", "swiglu"})
                    .Kinds(kind)
                    .Help("llm-step: MLP form: gelu (up and down matrices) or swiglu (gate, up "
                          "and down)."));
    u("experts", "0", 0, "llm-step: MoE experts per layer (every layer); 0: a dense model.");
    k.push_back(K("workloads[].top-k", K::UINT)
                    .Default("2")
                    .Min(1)
                    .Kinds(kind)
                    .Help("llm-step: experts each token is routed to (MoE)."));
    u("moe-ffn", "0", 0, "llm-step: an expert's intermediate size; 0: ffn.");
    u("tp", "1", 1, "llm-step: tensor-parallel size (innermost by default).");
    u("pp", "1", 1, "llm-step: pipeline-parallel size (stages, 1F1B schedule).");
    k.push_back(K("workloads[].dp", K::UINT)
                    .Default("0")
                    .Kinds(kind)
                    .Note("accelerators / (tp x pp)")
                    .Help("llm-step: data-parallel size; tp x pp x dp must equal "
                          "pod.accelerators."));
    u("ep",
      "1",
      1,
      "llm-step: expert-parallel size, taken inside dp (groups of ep consecutive replicas); "
      "must divide dp and experts.");
    k.push_back(K("workloads[].sequence-parallel", K::BOOL)
                    .Default("false")
                    .Kinds(kind)
                    .Help("llm-step: Megatron-LM sequence parallelism: each tensor-parallel "
                          "all-reduce becomes a reduce-scatter and an all-gather, and norms and "
                          "pipeline sends work on 1/tp of the sequence."));
    k.push_back(K("workloads[].zero", K::UINT)
                    .Default("0")
                    .Range(0, 3)
                    .Kinds(kind)
                    .Help("llm-step: ZeRO stage: 0 all-reduces gradients once; 1 "
                          "reduce-scatters them once and all-gathers the updated parameters "
                          "after the optimizer; 2 reduce-scatters each micro-batch's gradients; "
                          "3 too, and all-gathers each layer's parameters before each forward "
                          "and backward use instead of after the step."));
    k.push_back(K("workloads[].tp-algorithm", K::ENUM)
                    .Default("ring")
                    .Allowed(CollectiveHelper::AlgorithmNames())
                    .Kinds(kind)
                    .Help("llm-step: algorithm of the tensor-parallel all-reduces (or "
                          "reduce-scatters and all-gathers); the pod checks that it implements "
                          "them on a group of tp."));
    k.push_back(K("workloads[].dp-algorithm", K::ENUM)
                    .Default("ring")
                    .Allowed(CollectiveHelper::AlgorithmNames())
                    .Kinds(kind)
                    .Help("llm-step: algorithm of the data-parallel gradient and parameter "
                          "collectives (groups of dp, or dp / ep for expert weights)."));
    k.push_back(K("workloads[].order", K::ENUM)
                    .Default("tp-dp-pp")
                    .Allowed(LlmStepSpec::GetOrders())
                    .Kinds(kind)
                    .Help("llm-step: parallel dimensions from innermost (consecutive "
                          "accelerator ids) to outermost."));
    k.push_back(K("workloads[].accelerator", K::ENUM)
                    .Default("gpu")
                    .Allowed({"gpu", "pyxis"})
                    .Kinds(kind)
                    .Help("llm-step: roofline preset: gpu (H100 SXM5 datasheet: 989.4 TFLOP/s "
                          "BF16/FP16, 1978.9 FP8, 67 FP32; 3.35 TB/s) or pyxis (the Pyxis chip: "
                          "2.092 PFLOP/s FP8, half at FP16/BF16; 4.915 TB/s)."));
    k.push_back(K("workloads[].peak-flops", K::DOUBLE)
                    .Default("0")
                    .Min(0)
                    .Unit("FLOP/s")
                    .Kinds(kind)
                    .Help("llm-step: peak matrix rate at dtype; 0: the preset's."));
    k.push_back(K("workloads[].hbm-bandwidth", K::DOUBLE)
                    .Default("0")
                    .Min(0)
                    .Unit("bytes/s")
                    .Kinds(kind)
                    .Help("llm-step: HBM bandwidth; 0: the preset's."));
    k.push_back(K("workloads[].matmul-efficiency", K::DOUBLE)
                    .Default("0.7")
                    .Above(0)
                    .Max(1)
                    .Kinds(kind)
                    .Help("llm-step: achieved fraction of the peak FLOP/s."));
    k.push_back(K("workloads[].memory-efficiency", K::DOUBLE)
                    .Default("0.8")
                    .Above(0)
                    .Max(1)
                    .Kinds(kind)
                    .Help("llm-step: achieved fraction of the HBM bandwidth."));
}

std::shared_ptr<const WorkloadConfig>
LlmStepWorkloadKind::Read(const FabricConfigReader& in,
                          const std::string& p,
                          const Context& context) const
{
    auto c = std::make_shared<Config>();
    LlmStepSpec& s = c->spec;
    auto u = [&](const std::string& key) { return static_cast<uint32_t>(in.Get(p + "." + key).u); };
    s.layers = u("layers");
    s.hidden = u("hidden");
    s.ffn = u("ffn");
    s.heads = u("heads");
    s.kvHeads = u("kv-heads");
    s.sequence = u("sequence");
    s.microBatch = u("micro-batch");
    s.globalBatch = u("global-batch");
    s.vocabulary = u("vocabulary");
    s.dtype = in.Get(p + ".dtype").str;
    s.activation = in.Get(p + ".activation").str;
    s.experts = u("experts");
    s.topK = u("top-k");
    s.moeFfn = u("moe-ffn");
    s.tp = u("tp");
    s.pp = u("pp");
    s.dp = u("dp");
    s.ep = u("ep");
    s.sequenceParallel = in.Get(p + ".sequence-parallel").b;
    s.zero = u("zero");
    s.order = in.Get(p + ".order").str;
    s.tpAlgorithm = in.Get(p + ".tp-algorithm").str;
    s.dpAlgorithm = in.Get(p + ".dp-algorithm").str;
    s.accelerator = in.Get(p + ".accelerator").str;
    s.peakFlops = in.Get(p + ".peak-flops").d;
    s.hbmBandwidth = in.Get(p + ".hbm-bandwidth").d;
    s.matmulEfficiency = in.Get(p + ".matmul-efficiency").d;
    s.memoryEfficiency = in.Get(p + ".memory-efficiency").d;
    if (s.dp == 0)
    {
        const uint64_t tpp = static_cast<uint64_t>(s.tp) * s.pp;
        if (context.accelerators % tpp != 0)
        {
            in.Fail(p + ".tp",
                    "tp x pp = " + std::to_string(tpp) + " does not divide pod.accelerators = " +
                        std::to_string(context.accelerators) + " (dp is accelerators / (tp x pp))");
        }
        s.dp = static_cast<uint32_t>(context.accelerators / tpp);
    }
    const LlmStepSpec::Problem problem = s.Check(context.accelerators);
    if (!problem.key.empty())
    {
        in.Fail(p + "." + problem.key, problem.message);
    }
    NS_LOG_INFO(p << ": llm-step tp " << s.tp << " pp " << s.pp << " dp " << s.dp << ", "
                  << s.GetMicroBatches() << " micro-batches");
    return c;
}

std::unique_ptr<WorkloadRun>
LlmStepWorkloadKind::Start(const WorkloadConfig& /* config */,
                           const std::vector<Ptr<FabricEndpoint>>& /* endpoints */,
                           std::string& error) const
{
    // An llm-step workload is a DAG (Config::GetDag): the pod runs it with its DagRunner.
    error = "an llm-step workload runs as a DAG program on the pod's DAG runner";
    return nullptr;
}

} // namespace ns3
