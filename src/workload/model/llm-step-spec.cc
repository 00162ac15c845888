/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "llm-step-spec.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

namespace
{

/// \param v a number \return it as text
std::string
Str(uint64_t v)
{
    return std::to_string(v);
}

} // namespace

uint32_t
LlmStepSpec::GetDtypeBytes() const
{
    if (dtype == "fp8")
    {
        return 1;
    }
    if (dtype == "fp32")
    {
        return 4;
    }
    return 2; // bf16, fp16
}

uint32_t
LlmStepSpec::GetKvHeads() const
{
    return kvHeads == 0 ? heads : kvHeads;
}

uint32_t
LlmStepSpec::GetMoeFfn() const
{
    return moeFfn == 0 ? ffn : moeFfn;
}

uint32_t
LlmStepSpec::GetGlobalBatch() const
{
    return globalBatch == 0 ? dp * microBatch : globalBatch;
}

uint32_t
LlmStepSpec::GetMicroBatches() const
{
    const uint64_t perStep = static_cast<uint64_t>(dp) * microBatch;
    return perStep == 0 ? 0 : static_cast<uint32_t>(GetGlobalBatch() / perStep);
}

uint32_t
LlmStepSpec::GetLayersPerStage() const
{
    return pp == 0 ? 0 : layers / pp;
}

uint64_t
LlmStepSpec::GetAccelerators() const
{
    return static_cast<uint64_t>(tp) * pp * dp;
}

double
LlmStepSpec::PresetPeakFlops(const std::string& acc, const std::string& dt)
{
    if (acc == "pyxis")
    {
        // The Pyxis chip (src/pyxis/doc/pyxis.rst, the UIE model): 48 UIEs (4 clusters x 12) x
        // 16,384 FP8 MAC per cycle x 2 FLOP x 1.33 GHz = 2.092 PFLOP/s at FP8, half at FP16.
        // The chip has no BF16: bf16 runs at the FP16 rate; it has no FP32 matrix rate.
        const double fp8 = 48.0 * 16384.0 * 2.0 * 1.33e9;
        if (dt == "fp8")
        {
            return fp8;
        }
        if (dt == "fp16" || dt == "bf16")
        {
            return fp8 / 2;
        }
        return 0;
    }
    // gpu: the dense (no sparsity) tensor-core rates of a GPU-class part, from NVIDIA's public
    // H100 SXM5 datasheet: BF16/FP16 989.4 TFLOP/s, FP8 1,978.9 TFLOP/s, FP32 67 TFLOP/s.
    if (dt == "fp8")
    {
        return 1978.9e12;
    }
    if (dt == "fp32")
    {
        return 67e12;
    }
    return 989.4e12;
}

double
LlmStepSpec::PresetHbmBandwidth(const std::string& acc)
{
    if (acc == "pyxis")
    {
        // 4 HBM3E stacks of 1024 pins x 9.6 Gb/s / 8 = 1228.8 GB/s each (pyxis.rst).
        return 4 * 1228.8e9;
    }
    return 3.35e12; // H100 SXM5 datasheet: HBM3, 3.35 TB/s
}

double
LlmStepSpec::GetPeakFlops() const
{
    return peakFlops > 0 ? peakFlops : PresetPeakFlops(accelerator, dtype);
}

double
LlmStepSpec::GetHbmBandwidth() const
{
    return hbmBandwidth > 0 ? hbmBandwidth : PresetHbmBandwidth(accelerator);
}

std::vector<std::string>
LlmStepSpec::GetOrders()
{
    return {"tp-dp-pp", "tp-pp-dp", "dp-tp-pp", "dp-pp-tp", "pp-tp-dp", "pp-dp-tp"};
}

uint32_t
LlmStepSpec::GetAccelerator(uint32_t tpRank, uint32_t dpRank, uint32_t stage) const
{
    // order names the dimensions from innermost (stride 1) to outermost.
    uint64_t id = 0;
    uint64_t stride = 1;
    std::istringstream is(order);
    std::string dim;
    while (std::getline(is, dim, '-'))
    {
        const uint32_t coord = dim == "tp" ? tpRank : dim == "dp" ? dpRank : stage;
        const uint32_t size = dim == "tp" ? tp : dim == "dp" ? dp : pp;
        id += coord * stride;
        stride *= size;
    }
    return static_cast<uint32_t>(id);
}

LlmStepSpec::Problem
LlmStepSpec::Check(uint32_t accelerators) const
{
    const auto orders = GetOrders();
    if (std::find(orders.begin(), orders.end(), order) == orders.end())
    {
        return {"order", "'" + order + "' is not an order of tp, dp and pp (e.g. tp-dp-pp)"};
    }
    if (accelerators != 0 && GetAccelerators() != accelerators)
    {
        return {"dp",
                "tp x pp x dp = " + Str(tp) + " x " + Str(pp) + " x " + Str(dp) + " = " +
                    Str(GetAccelerators()) + " accelerators, but pod.accelerators is " +
                    Str(accelerators) + " (they must be equal)"};
    }
    if (heads % tp != 0)
    {
        return {"heads",
                "heads = " + Str(heads) + " is not divisible by tp = " + Str(tp) +
                    " (each tensor-parallel rank holds heads / tp attention heads)"};
    }
    if (hidden % heads != 0)
    {
        return {"hidden",
                "hidden = " + Str(hidden) + " is not divisible by heads = " + Str(heads) +
                    " (the head dimension is hidden / heads)"};
    }
    const uint32_t kv = GetKvHeads();
    if (kv > heads || heads % kv != 0)
    {
        return {"kv-heads",
                "kv-heads = " + Str(kv) + " must divide heads = " + Str(heads) +
                    " (grouped-query attention)"};
    }
    if (kv % tp != 0 && tp % kv != 0)
    {
        return {"kv-heads",
                "kv-heads = " + Str(kv) + " and tp = " + Str(tp) +
                    ": one must divide the other (key/value heads split or replicated over "
                    "the tensor-parallel ranks)"};
    }
    if (ffn % tp != 0)
    {
        return {"ffn", "ffn = " + Str(ffn) + " is not divisible by tp = " + Str(tp)};
    }
    if (experts > 0 && GetMoeFfn() % tp != 0)
    {
        return {"moe-ffn",
                "moe-ffn = " + Str(GetMoeFfn()) + " is not divisible by tp = " + Str(tp)};
    }
    if (vocabulary % tp != 0)
    {
        return {"vocabulary",
                "vocabulary = " + Str(vocabulary) + " is not divisible by tp = " + Str(tp) +
                    " (the embedding and the output head are split over the tensor-parallel "
                    "ranks by vocabulary rows)"};
    }
    if (layers % pp != 0)
    {
        return {"layers",
                "layers = " + Str(layers) + " is not divisible by pp = " + Str(pp) +
                    " (each pipeline stage holds layers / pp layers)"};
    }
    if (sequenceParallel && sequence % tp != 0)
    {
        return {"sequence",
                "sequence = " + Str(sequence) + " is not divisible by tp = " + Str(tp) +
                    " (sequence parallelism splits the sequence over the tensor-parallel ranks)"};
    }
    const uint64_t perStep = static_cast<uint64_t>(dp) * microBatch;
    if (GetGlobalBatch() % perStep != 0)
    {
        return {"global-batch",
                "global-batch = " + Str(GetGlobalBatch()) +
                    " is not divisible by dp x micro-batch = " + Str(dp) + " x " + Str(microBatch) +
                    " = " + Str(perStep) +
                    " (the micro-batches per iteration are global-batch / (dp x micro-batch))"};
    }
    if (experts == 0 && ep != 1)
    {
        return {"ep", "ep = " + Str(ep) + " needs experts (a dense model has ep 1)"};
    }
    if (experts > 0)
    {
        if (dp % ep != 0)
        {
            return {"ep",
                    "ep = " + Str(ep) + " does not divide dp = " + Str(dp) +
                        " (expert parallelism is taken inside the data-parallel dimension)"};
        }
        if (experts % ep != 0)
        {
            return {"experts",
                    "experts = " + Str(experts) + " is not divisible by ep = " + Str(ep) +
                        " (each expert-parallel rank holds experts / ep experts)"};
        }
        if (topK == 0 || topK > experts)
        {
            return {"top-k", "top-k = " + Str(topK) + " must be 1 to experts = " + Str(experts)};
        }
        if (tp > 1 && !sequenceParallel)
        {
            return {"sequence-parallel",
                    "an MoE model with tp > 1 needs sequence-parallel: true (as Megatron-LM "
                    "requires: each tensor-parallel rank dispatches its own sequence shard)"};
        }
    }
    if (zero != 0 && zero != 1 && zero != 2 && zero != 3)
    {
        return {"zero", "zero = " + Str(zero) + " is not a ZeRO stage (0, 1, 2 or 3)"};
    }
    if (GetPeakFlops() <= 0)
    {
        return {"peak-flops",
                "the " + accelerator + " preset has no " + dtype +
                    " rate: give peak-flops (FLOP/s)"};
    }
    return {};
}

} // namespace ns3
