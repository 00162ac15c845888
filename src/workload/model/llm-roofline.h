/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef LLM_ROOFLINE_H
#define LLM_ROOFLINE_H

#include "llm-step-spec.h"

#include "ns3/nstime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup workload
 * \brief The compute model of an LLM training step: a roofline over the operations of a
 * transformer layer on one tensor-parallel shard.
 *
 * An operation moves `bytes` to and from HBM and does `flops`; its time is
 * max(flops / (peak x matmul efficiency), bytes / (HBM bandwidth x memory efficiency)). A layer's
 * forward time is the sum over its operations (src/workload/doc/workload.rst lists them and
 * their counts); its backward time is twice its forward time (the input and the weight
 * gradient each cost a forward's matmuls). The parameter counts give the data-parallel
 * gradient sizes and the optimizer's time.
 */
class LlmRoofline
{
  public:
    /// One operation on one tensor-parallel shard, for one micro-batch.
    struct Op
    {
        std::string name; //!< what it is ("qkv", "attention-scores", ...)
        double flops{0};  //!< floating-point operations
        double bytes{0};  //!< bytes read from and written to HBM
    };

    /// \param spec the step's keys (checked)
    explicit LlmRoofline(const LlmStepSpec& spec);

    /// \return a layer's forward operations on one shard for one micro-batch
    std::vector<Op> GetLayerOps() const;
    /// \return the embedding lookup's operations (first stage; none when vocabulary is 0)
    std::vector<Op> GetEmbeddingOps() const;
    /// \return the final norm, output head and loss (last stage; none when vocabulary is 0)
    std::vector<Op> GetHeadOps() const;

    /**
     * \param op an operation
     * \return its roofline time, seconds
     */
    double GetSeconds(const Op& op) const;

    /**
     * \param ops operations
     * \return the sum of their roofline times, rounded to the picosecond
     */
    Time GetTime(const std::vector<Op>& ops) const;

    /// \return a layer's forward time per micro-batch
    Time GetLayerForward() const;
    /// \return the embedding's forward time per micro-batch
    Time GetEmbeddingForward() const;
    /// \return the head's forward time per micro-batch
    Time GetHeadForward() const;

    /// \return the parameters of a layer on one shard that all data-parallel replicas share
    ///         (attention, norms, a dense MLP or the MoE router)
    uint64_t GetLayerDenseParams() const;
    /// \return the expert parameters of a layer on one accelerator (experts / ep experts)
    uint64_t GetLayerExpertParams() const;
    /// \return the embedding's parameters on one shard (vocabulary / tp rows)
    uint64_t GetEmbeddingParams() const;
    /// \return the output head's and final norm's parameters on one shard
    uint64_t GetHeadParams() const;

    /**
     * The optimizer (Adam with FP32 master weights and moments) on one accelerator of a
     * stage: memory-bound, 24 + 2 x dtype bytes per parameter it updates (reads the master
     * weight, both moments and the gradient, writes them back and the dtype copy); with ZeRO
     * it updates 1/dp of the dense and 1/(dp/ep) of the expert parameters.
     * \param stage the pipeline stage
     * \return its time
     */
    Time GetOptimizer(uint32_t stage) const;

    /// \return Adam's HBM bytes per updated parameter (24 + 2 x dtype bytes)
    uint64_t GetOptimizerBytesPerParam() const;

  private:
    LlmStepSpec m_spec; //!< the keys
};

} // namespace ns3

#endif /* LLM_ROOFLINE_H */
