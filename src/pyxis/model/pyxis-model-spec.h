/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PYXIS_MODEL_SPEC_H
#define PYXIS_MODEL_SPEC_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup pyxis
 * \brief A model that Pyxis chips run, as read from a model file (PyxisModelLoader): its layers
 * with their shapes and data types, and how it is spread over chips (tensor and data
 * parallelism).
 *
 * Plain data; PyxisLayerProgram lowers it to per-chip operation lists. Repeated layers
 * (`repeat: n` in the file) are expanded here, one entry per layer instance, so `layers[i]` is
 * layer i of the run.
 */
struct PyxisModelSpec
{
    /// Element types (Pyxis spec 4, 6.3: only the bytes per element and the 8/16-bit rate matter).
    enum Dtype
    {
        FP8,  //!< Recogni FP8 1-4-3, 1 byte, full rate
        FP16, //!< Recogni FP16 1-5-10, 2 bytes, half rate
    };

    /// The collective that joins the tensor-parallel pieces of a layer.
    enum TpCollective
    {
        TP_ALL_REDUCE, //!< Megatron: column-split then row-split GEMMs, all-reduce partial sums
        TP_ALL_GATHER, //!< column-split GEMMs only, all-gather of the output slices
    };

    /// How an all-reduce adds a received chunk to the local one (VPU 6.4, InMemAdd 7.4).
    enum Reduction
    {
        VPU,       //!< a VPU trip: max(1, bytes per element) cycles per 128 elements
        INMEM_ADD, //!< AMEM add-on-write (spec 7.4): chunk/128 cycles (128 B per cycle)
    };

    /// How a linear or 3x3 convolution layer is split over the tensor-parallel group.
    enum Split
    {
        SPLIT_ROW,    //!< input features (Cin) split: partial sums, then an all-reduce
        SPLIT_COLUMN, //!< output features (Cout) split: slices, then an all-gather
        SPLIT_NONE,   //!< replicated on every chip of the group, no communication
    };

    /// What the data-parallel replicas exchange.
    enum DataSync
    {
        SYNC_NONE,    //!< nothing (independent inference replicas)
        SYNC_WEIGHTS, //!< per layer, an all-reduce of the chip's weight shard (a gradient sync)
    };

    /// Layer kinds.
    enum LayerKind
    {
        TRANSFORMER, //!< attention (QKV, scores, softmax, context, O) and MLP (up[, gate], down)
        LINEAR,      //!< Y[tokens x out] = X[tokens x in] W
        CONV3X3,     //!< 3x3 convolution H x W x Cin -> Cout, stride 1 or 2, same padding
    };

    /// One layer (one instance of a repeated layer).
    struct Layer
    {
        LayerKind kind{TRANSFORMER}; //!< kind
        std::string name;            //!< name (from the file, else "<kind><index>")
        uint32_t line{0};            //!< line of the layer in the file (0: not from a file)
        uint32_t repeatIndex{0};     //!< instance of a repeated entry (0-based)
        Dtype dtype{FP8};            //!< activations and weights
        uint64_t batch{1};           //!< sequences (transformer, linear) or images (conv)
        // Transformer and linear
        uint64_t tokens{1}; //!< tokens per sequence processed now (rows of the activations)
        // Transformer
        uint64_t dModel{0};        //!< model width
        uint64_t heads{0};         //!< query heads
        uint64_t kvHeads{0};       //!< key/value heads (= heads without grouped-query attention)
        uint64_t headDim{0};       //!< head dimension
        uint64_t ffn{0};           //!< MLP hidden width
        uint64_t context{0};       //!< keys attended to per query (= tokens for a prefill)
        bool gatedMlp{false};      //!< MLP with a gate projection (SwiGLU)
        uint32_t softmaxOps{5};    //!< VPU instructions per score element (softmax)
        uint32_t activationOps{1}; //!< VPU instructions per element of the MLP activation
        // Linear
        uint64_t inFeatures{0};  //!< input features
        uint64_t outFeatures{0}; //!< output features
        // Conv3x3
        uint64_t height{0}; //!< input rows H
        uint64_t width{0};  //!< input columns W
        uint64_t cin{0};    //!< input channels
        uint64_t cout{0};   //!< output channels
        uint32_t stride{1}; //!< 1 or 2
        // Linear and conv3x3
        Split split{SPLIT_ROW}; //!< tensor-parallel split (resolved: never a default)
    };

    /// How the model is spread over chips: chips = tensor * data.
    struct Parallelism
    {
        uint32_t tensor{1};                       //!< chips per tensor-parallel group (P)
        uint32_t data{1};                         //!< data-parallel replicas
        TpCollective tpCollective{TP_ALL_REDUCE}; //!< the tensor-parallel collective
        Reduction reduction{VPU};                 //!< how the all-reduce adds
        DataSync dataSync{SYNC_NONE};             //!< what the replicas exchange
        std::string dataAlgorithm{"ring"};        //!< collective module algorithm for that
        bool splitK{false}; //!< split the K of GEMMs with fewer tiles than UIEs (see lowering)
    };

    std::string name;          //!< model name
    std::string file;          //!< the file it was read from ("" if built in code)
    Parallelism parallelism;   //!< parallelism
    std::vector<Layer> layers; //!< layers in execution order, repeats expanded

    /// \return tensor * data, the chips the model runs on
    uint32_t GetChips() const;

    /**
     * \param d a type
     * \return bytes per element: 1 (FP8) or 2 (FP16)
     */
    static uint32_t DtypeBytes(Dtype d);

    /**
     * \param d a type
     * \return its name in model files ("fp8", "fp16")
     */
    static std::string DtypeName(Dtype d);

    /**
     * \param c a collective
     * \return its name in model files ("all-reduce", "all-gather")
     */
    static std::string TpCollectiveName(TpCollective c);

    /**
     * \param r a reduction
     * \return its name in model files ("vpu", "inmem-add")
     */
    static std::string ReductionName(Reduction r);

    /**
     * \param s a split
     * \return its name in model files ("row", "column", "none")
     */
    static std::string SplitName(Split s);

    /**
     * \param s a data-parallel sync
     * \return its name in model files ("none", "weights")
     */
    static std::string DataSyncName(DataSync s);

    /**
     * \param k a layer kind
     * \return its name in model files ("transformer", "linear", "conv3x3")
     */
    static std::string LayerKindName(LayerKind k);
};

} // namespace ns3

#endif /* PYXIS_MODEL_SPEC_H */
