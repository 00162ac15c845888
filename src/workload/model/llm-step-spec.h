/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef LLM_STEP_SPEC_H
#define LLM_STEP_SPEC_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup workload
 * \brief The keys of one LLM training step (`workloads[].kind: llm-step`): the model, its
 * parallelism (Megatron-LM's tensor, pipeline, data and expert parallelism, sequence
 * parallelism, ZeRO) and the accelerator's roofline figures.
 *
 * Plain values with the defaults of the scenario keys; Check() tells whether they fit together
 * and, if not, which key is at fault. The derived counts (micro-batches, layers per stage,
 * accelerator of a (tp, dp, pp) coordinate) are computed here so that the generator, the kind
 * and the tests share them.
 */
struct LlmStepSpec
{
    // The model.
    uint32_t layers{32};            //!< transformer layers
    uint32_t hidden{4096};          //!< hidden size h
    uint32_t ffn{16384};            //!< MLP intermediate size f (dense layers)
    uint32_t heads{32};             //!< attention heads a
    uint32_t kvHeads{0};            //!< key/value heads (grouped-query attention); 0: = heads
    uint32_t sequence{4096};        //!< sequence length s
    uint32_t microBatch{1};         //!< micro-batch size b (sequences)
    uint32_t globalBatch{0};        //!< global batch size (sequences); 0: dp x micro-batch
    uint32_t vocabulary{0};         //!< vocabulary size V; 0: no embedding and no output head
    std::string dtype{"bf16"};      //!< bf16 | fp16 | fp8 | fp32
    std::string activation{"gelu"}; //!< gelu (2 MLP matrices) | swiglu (3)
    uint32_t experts{0};            //!< MoE experts per layer; 0: dense
    uint32_t topK{2};               //!< experts each token is routed to
    uint32_t moeFfn{0};             //!< an expert's intermediate size; 0: = ffn

    // The parallelism.
    uint32_t tp{1};                  //!< tensor-parallel size
    uint32_t pp{1};                  //!< pipeline-parallel size (stages)
    uint32_t dp{1};                  //!< data-parallel size
    uint32_t ep{1};                  //!< expert-parallel size (inside the data-parallel size)
    bool sequenceParallel{false};    //!< Megatron's sequence parallelism
    uint32_t zero{0};                //!< ZeRO stage: 0, 1, 2 or 3
    std::string order{"tp-dp-pp"};   //!< dimensions from innermost to outermost
    std::string tpAlgorithm{"ring"}; //!< algorithm of the tensor-parallel collectives
    std::string dpAlgorithm{"ring"}; //!< algorithm of the data-parallel collectives

    // The accelerator (roofline).
    std::string accelerator{"gpu"}; //!< preset: gpu | pyxis
    double peakFlops{0};            //!< FLOP/s at dtype; 0: the preset's
    double hbmBandwidth{0};         //!< bytes/s; 0: the preset's
    double matmulEfficiency{0.7};   //!< achieved fraction of peak FLOP/s
    double memoryEfficiency{0.8};   //!< achieved fraction of HBM bandwidth

    /// A key that does not fit, and why.
    struct Problem
    {
        std::string key;     //!< the key at fault (its name under workloads[])
        std::string message; //!< why
    };

    /**
     * Check that the keys fit together.
     * \param accelerators the pod's accelerators (tp x pp x dp must equal it; 0: not checked)
     * \return the first problem found, or one with an empty key
     */
    Problem Check(uint32_t accelerators) const;

    /// \return bytes per element of dtype (bf16, fp16: 2; fp8: 1; fp32: 4)
    uint32_t GetDtypeBytes() const;
    /// \return the key/value heads (kvHeads, or heads when 0)
    uint32_t GetKvHeads() const;
    /// \return the expert intermediate size (moeFfn, or ffn when 0)
    uint32_t GetMoeFfn() const;
    /// \return global batch (globalBatch, or dp x microBatch when 0)
    uint32_t GetGlobalBatch() const;
    /// \return micro-batches per iteration m = global batch / (dp x micro-batch)
    uint32_t GetMicroBatches() const;
    /// \return layers per pipeline stage (layers / pp)
    uint32_t GetLayersPerStage() const;
    /// \return accelerators used: tp x pp x dp
    uint64_t GetAccelerators() const;
    /// \return the peak FLOP/s used (peakFlops, or the preset's at dtype; 0: none)
    double GetPeakFlops() const;
    /// \return the HBM bytes/s used (hbmBandwidth, or the preset's)
    double GetHbmBandwidth() const;

    /**
     * A preset's peak FLOP/s for a dtype.
     * \param accelerator gpu | pyxis
     * \param dtype bf16 | fp16 | fp8 | fp32
     * \return FLOP/s (0 where the part has no such rate)
     */
    static double PresetPeakFlops(const std::string& accelerator, const std::string& dtype);

    /**
     * \param accelerator gpu | pyxis
     * \return the preset's HBM bandwidth, bytes/s
     */
    static double PresetHbmBandwidth(const std::string& accelerator);

    /**
     * The pod accelerator of a coordinate, following `order`.
     * \param tpRank tensor-parallel rank
     * \param dpRank data-parallel rank (replica)
     * \param stage pipeline stage
     * \return the accelerator id
     */
    uint32_t GetAccelerator(uint32_t tpRank, uint32_t dpRank, uint32_t stage) const;

    /// \return the allowed values of `order` (the six orders of tp, dp and pp)
    static std::vector<std::string> GetOrders();
};

} // namespace ns3

#endif /* LLM_STEP_SPEC_H */
