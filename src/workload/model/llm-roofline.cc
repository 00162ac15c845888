/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "llm-roofline.h"

#include "ns3/log.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LlmRoofline");

LlmRoofline::LlmRoofline(const LlmStepSpec& spec)
    : m_spec(spec)
{
}

std::vector<LlmRoofline::Op>
LlmRoofline::GetLayerOps() const
{
    const LlmStepSpec& c = m_spec;
    const double e = c.GetDtypeBytes();
    const double b = c.microBatch;
    const double s = c.sequence;
    const double h = c.hidden;
    const double t = c.tp;
    const double tokens = b * s;                                         // T
    const double shardTokens = c.sequenceParallel ? tokens / t : tokens; // elementwise ops
    const double dh = h / c.heads;                                       // head dimension
    const double qh = c.heads / t;                                       // query heads per shard
    const double kvh = std::max(1.0, static_cast<double>(c.GetKvHeads()) / t);
    const double qkvN = (qh + 2 * kvh) * dh;           // QKV output columns per shard
    const double g = c.activation == "swiglu" ? 2 : 1; // up (and gate) matrices
    std::vector<Op> ops;
    // Two norms and two residual adds per layer, on the shard's tokens (all of them, or 1/tp
    // with sequence parallelism): a norm reads and writes T x h, an add reads two and writes one.
    ops.push_back({"norms", 0, 2 * (2 * shardTokens * h * e)});
    ops.push_back({"residuals", 0, 2 * (3 * shardTokens * h * e)});
    ops.push_back({"qkv", 2 * tokens * h * qkvN, (tokens * h + h * qkvN + tokens * qkvN) * e});
    ops.push_back({"attention-scores",
                   2 * b * qh * s * s * dh,
                   (tokens * qh * dh + tokens * kvh * dh + b * qh * s * s) * e});
    ops.push_back({"softmax", 0, 2 * b * qh * s * s * e});
    ops.push_back({"attention-context",
                   2 * b * qh * s * s * dh,
                   (b * qh * s * s + tokens * kvh * dh + tokens * qh * dh) * e});
    ops.push_back({"output-projection",
                   2 * tokens * qh * dh * h,
                   (tokens * qh * dh + qh * dh * h + tokens * h) * e});
    if (c.experts == 0)
    {
        const double f = c.ffn / t;
        ops.push_back(
            {"mlp-up", 2 * tokens * h * f * g, (tokens * h + g * h * f + g * tokens * f) * e});
        ops.push_back({"mlp-activation", 0, (g + 1) * tokens * f * e});
        ops.push_back({"mlp-down", 2 * tokens * f * h, (tokens * f + f * h + tokens * h) * e});
    }
    else
    {
        // MoE: the router on the shard's tokens, then the accelerator's experts (experts / ep,
        // not split over tp) on the token copies it receives: shardTokens x top-k with
        // balanced routing.
        const double E = c.experts;
        const double f = c.GetMoeFfn();
        const double local = c.experts / c.ep;
        const double copies = shardTokens * c.topK;
        ops.push_back(
            {"router", 2 * shardTokens * h * E, (shardTokens * h + h * E + shardTokens * E) * e});
        ops.push_back({"expert-up",
                       2 * copies * h * f * g,
                       (copies * h + local * g * h * f + g * copies * f) * e});
        ops.push_back({"expert-activation", 0, (g + 1) * copies * f * e});
        ops.push_back(
            {"expert-down", 2 * copies * f * h, (copies * f + local * f * h + copies * h) * e});
    }
    return ops;
}

std::vector<LlmRoofline::Op>
LlmRoofline::GetEmbeddingOps() const
{
    const LlmStepSpec& c = m_spec;
    if (c.vocabulary == 0)
    {
        return {};
    }
    const double tokens = static_cast<double>(c.microBatch) * c.sequence;
    // The lookup reads a row per token and writes it.
    return {{"embedding", 0, 2 * tokens * c.hidden * c.GetDtypeBytes()}};
}

std::vector<LlmRoofline::Op>
LlmRoofline::GetHeadOps() const
{
    const LlmStepSpec& c = m_spec;
    if (c.vocabulary == 0)
    {
        return {};
    }
    const double e = c.GetDtypeBytes();
    const double tokens = static_cast<double>(c.microBatch) * c.sequence;
    const double shardTokens = c.sequenceParallel ? tokens / c.tp : tokens;
    const double h = c.hidden;
    const double v = static_cast<double>(c.vocabulary) / c.tp;
    return {{"final-norm", 0, 2 * shardTokens * h * e},
            {"output-head", 2 * tokens * h * v, (tokens * h + h * v + tokens * v) * e},
            {"loss", 0, 2 * tokens * v * e}};
}

double
LlmRoofline::GetSeconds(const Op& op) const
{
    const double compute = op.flops / (m_spec.GetPeakFlops() * m_spec.matmulEfficiency);
    const double memory = op.bytes / (m_spec.GetHbmBandwidth() * m_spec.memoryEfficiency);
    return std::max(compute, memory);
}

Time
LlmRoofline::GetTime(const std::vector<Op>& ops) const
{
    double seconds = 0;
    for (const Op& op : ops)
    {
        seconds += GetSeconds(op);
    }
    return PicoSeconds(static_cast<int64_t>(std::llround(seconds * 1e12)));
}

Time
LlmRoofline::GetLayerForward() const
{
    return GetTime(GetLayerOps());
}

Time
LlmRoofline::GetEmbeddingForward() const
{
    return GetTime(GetEmbeddingOps());
}

Time
LlmRoofline::GetHeadForward() const
{
    return GetTime(GetHeadOps());
}

uint64_t
LlmRoofline::GetLayerDenseParams() const
{
    const LlmStepSpec& c = m_spec;
    const uint64_t h = c.hidden;
    const uint64_t dh = h / c.heads;
    const uint64_t qh = c.heads / c.tp;
    const uint64_t kvh = std::max<uint64_t>(1, c.GetKvHeads() / c.tp);
    const uint64_t g = c.activation == "swiglu" ? 3 : 2;
    uint64_t p = h * (qh + 2 * kvh) * dh + qh * dh * h + 2 * h; // QKV, output, two norms
    if (c.experts == 0)
    {
        p += g * h * (c.ffn / c.tp);
    }
    else
    {
        p += h * c.experts; // the router
    }
    return p;
}

uint64_t
LlmRoofline::GetLayerExpertParams() const
{
    const LlmStepSpec& c = m_spec;
    if (c.experts == 0)
    {
        return 0;
    }
    const uint64_t g = c.activation == "swiglu" ? 3 : 2;
    return static_cast<uint64_t>(c.experts / c.ep) * g * c.hidden * c.GetMoeFfn();
}

uint64_t
LlmRoofline::GetEmbeddingParams() const
{
    return static_cast<uint64_t>(m_spec.vocabulary / m_spec.tp) * m_spec.hidden;
}

uint64_t
LlmRoofline::GetHeadParams() const
{
    if (m_spec.vocabulary == 0)
    {
        return 0;
    }
    return static_cast<uint64_t>(m_spec.vocabulary / m_spec.tp) * m_spec.hidden + m_spec.hidden;
}

uint64_t
LlmRoofline::GetOptimizerBytesPerParam() const
{
    return 24 + 2 * static_cast<uint64_t>(m_spec.GetDtypeBytes());
}

Time
LlmRoofline::GetOptimizer(uint32_t stage) const
{
    const LlmStepSpec& c = m_spec;
    double dense = static_cast<double>(GetLayerDenseParams()) * c.GetLayersPerStage();
    if (stage == 0)
    {
        dense += GetEmbeddingParams();
    }
    if (stage + 1 == c.pp)
    {
        dense += GetHeadParams();
    }
    double expert = static_cast<double>(GetLayerExpertParams()) * c.GetLayersPerStage();
    if (c.zero >= 1)
    {
        dense /= c.dp;
        // The expert parameters' data-parallel group: the tp x dp / ep accelerators of the
        // stage that hold the same experts.
        expert /= static_cast<double>(c.tp) * (c.dp / c.ep);
    }
    const double bytes = (dense + expert) * GetOptimizerBytesPerParam();
    const double seconds = bytes / (c.GetHbmBandwidth() * c.memoryEfficiency);
    NS_LOG_FUNCTION(this << stage << seconds);
    return PicoSeconds(static_cast<int64_t>(std::llround(seconds * 1e12)));
}

} // namespace ns3
