/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pyxis-model-loader.h"

#include "pyxis-model-error.h"

#include "ns3/collective-helper.h"
#include "ns3/log.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <vector>
#include <yaml-cpp/yaml.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PyxisModelLoader");

namespace
{

/// Largest model file read (a model file is a few hundred lines).
constexpr std::size_t MAX_FILE_BYTES = 16 << 20;

/// The FLOPs of one layer are counted in uint64_t: refuse layers whose count could overflow.
constexpr long double MAX_LAYER_FLOPS = 4.0e18L;

/// One key of a map: its line and value.
struct Item
{
    uint32_t line{0}; //!< 1-based line of the key
    YAML::Node value; //!< the value
};

/// A checked map: every key known, none repeated.
struct MapView
{
    std::string path;                  //!< dotted path of the map ("" at the top)
    uint32_t line{0};                  //!< line of the map (its key's line)
    std::map<std::string, Item> items; //!< the keys present
};

/**
 * \param text a value from the file
 * \return it quoted, cut at 40 characters (a binary file can be one long scalar)
 */
std::string
Quote(const std::string& text)
{
    return "'" + (text.size() > 40 ? text.substr(0, 40) + "..." : text) + "'";
}

/**
 * \param node a node
 * \return its kind in words, for "expected X, got Y"
 */
std::string
Describe(const YAML::Node& node)
{
    switch (node.Type())
    {
    case YAML::NodeType::Map:
        return "a map";
    case YAML::NodeType::Sequence:
        return "a list";
    case YAML::NodeType::Scalar:
        return Quote(node.Scalar());
    default:
        return "nothing";
    }
}

/**
 * \param items names
 * \return "a, b, c"
 */
std::string
Join(const std::vector<std::string>& items)
{
    std::string s;
    for (const auto& i : items)
    {
        s += (s.empty() ? "" : ", ") + i;
    }
    return s;
}

/// Reads one model text, with the file name for errors.
class Reader
{
  public:
    /// \param file the file name errors give
    explicit Reader(const std::string& file)
        : m_file(file)
    {
    }

    /**
     * Throw an error.
     * \param line 1-based line, 0 if unknown
     * \param field dotted path
     * \param message what is wrong
     */
    [[noreturn]] void Fail(uint32_t line,
                           const std::string& field,
                           const std::string& message) const
    {
        throw PyxisModelError(m_file, line, field, message);
    }

    /**
     * \param node a node
     * \param fallback the line to use if the node has no mark
     * \return its 1-based line
     */
    static uint32_t Line(const YAML::Node& node, uint32_t fallback)
    {
        const YAML::Mark m = node.Mark();
        return m.line >= 0 ? static_cast<uint32_t>(m.line) + 1 : fallback;
    }

    /**
     * \param path a map's path
     * \param key a key
     * \return the key's dotted path
     */
    static std::string Child(const std::string& path, const std::string& key)
    {
        return path.empty() ? key : path + "." + key;
    }

    /**
     * Check a map: only known keys, each once.
     * \param node the node
     * \param path its path ("" at the top)
     * \param line its line
     * \param known the keys allowed
     * \return the view
     */
    MapView CheckMap(const YAML::Node& node,
                     const std::string& path,
                     uint32_t line,
                     const std::vector<std::string>& known) const
    {
        if (!node.IsMap())
        {
            Fail(Line(node, line), path, "expected a map of keys, got " + Describe(node));
        }
        MapView view;
        view.path = path;
        view.line = Line(node, line);
        for (auto it = node.begin(); it != node.end(); ++it)
        {
            const uint32_t keyLine = Line(it->first, view.line);
            if (!it->first.IsScalar())
            {
                Fail(keyLine, path, "keys must be plain names, not " + Describe(it->first));
            }
            const std::string key = it->first.Scalar();
            const std::string field = Child(path, key);
            if (std::find(known.begin(), known.end(), key) == known.end())
            {
                Fail(keyLine, field, "unknown key (known keys here: " + Join(known) + ")");
            }
            const auto found = view.items.find(key);
            if (found != view.items.end())
            {
                Fail(keyLine,
                     field,
                     "duplicate key (first given on line " + std::to_string(found->second.line) +
                         ")");
            }
            view.items[key] = Item{keyLine, it->second};
        }
        return view;
    }

    /**
     * \param m a map
     * \param key a key
     * \return the line of the key, or of the map if the key is absent
     */
    static uint32_t LineOf(const MapView& m, const std::string& key)
    {
        const auto it = m.items.find(key);
        return it == m.items.end() ? m.line : it->second.line;
    }

    /**
     * The scalar text of a key, or fail.
     * \param m a map
     * \param key the key (present)
     * \param what "an integer", ...
     * \return the text
     */
    std::string Scalar(const MapView& m, const std::string& key, const std::string& what) const
    {
        const Item& item = m.items.at(key);
        if (!item.value.IsScalar())
        {
            Fail(item.line,
                 Child(m.path, key),
                 "expected " + what + ", got " + Describe(item.value));
        }
        return item.value.Scalar();
    }

    /**
     * An integer in [lo, hi].
     * \param m a map
     * \param key the key
     * \param required fail if absent
     * \param dflt the value if absent
     * \param lo smallest allowed
     * \param hi largest allowed
     * \param unit the unit for messages ("" if none)
     * \return the value
     */
    uint64_t Uint(const MapView& m,
                  const std::string& key,
                  bool required,
                  uint64_t dflt,
                  uint64_t lo,
                  uint64_t hi) const
    {
        const std::string field = Child(m.path, key);
        if (m.items.count(key) == 0)
        {
            if (required)
            {
                Fail(m.line,
                     field,
                     "missing (an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                         "] is required)");
            }
            return dflt;
        }
        const std::string text = Scalar(m, key, "an integer");
        const uint32_t line = LineOf(m, key);
        if (text.empty() ||
            !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
        {
            Fail(line, field, "expected a non-negative integer, got " + Quote(text));
        }
        uint64_t v = 0;
        for (const char c : text)
        {
            const auto d = static_cast<uint64_t>(c - '0');
            if (v > (UINT64_MAX - d) / 10)
            {
                Fail(line,
                     field,
                     "must be at most " + std::to_string(hi) + " (got " + Quote(text) + ")");
            }
            v = v * 10 + d;
        }
        if (v < lo)
        {
            Fail(line, field, "must be at least " + std::to_string(lo) + " (got " + text + ")");
        }
        if (v > hi)
        {
            Fail(line, field, "must be at most " + std::to_string(hi) + " (got " + text + ")");
        }
        return v;
    }

    /**
     * One of a set of names.
     * \param m a map
     * \param key the key
     * \param required fail if absent
     * \param dflt the value if absent
     * \param allowed the names
     * \return the index of the name in allowed
     */
    std::size_t Choice(const MapView& m,
                       const std::string& key,
                       bool required,
                       std::size_t dflt,
                       const std::vector<std::string>& allowed) const
    {
        const std::string field = Child(m.path, key);
        if (m.items.count(key) == 0)
        {
            if (required)
            {
                Fail(m.line, field, "missing (one of " + Join(allowed) + " is required)");
            }
            return dflt;
        }
        const std::string text = Scalar(m, key, "one of " + Join(allowed));
        const auto it = std::find(allowed.begin(), allowed.end(), text);
        if (it == allowed.end())
        {
            Fail(LineOf(m, key),
                 field,
                 "expected one of " + Join(allowed) + ", got " + Quote(text));
        }
        return static_cast<std::size_t>(it - allowed.begin());
    }

    /**
     * A boolean (true or false).
     * \param m a map
     * \param key the key
     * \param dflt the value if absent
     * \return the value
     */
    bool Bool(const MapView& m, const std::string& key, bool dflt) const
    {
        return m.items.count(key) == 0 ? dflt : Choice(m, key, false, 0, {"false", "true"}) == 1;
    }

    /**
     * A non-empty name.
     * \param m a map
     * \param key the key
     * \param dflt the value if absent
     * \return the value
     */
    std::string Name(const MapView& m, const std::string& key, const std::string& dflt) const
    {
        if (m.items.count(key) == 0)
        {
            return dflt;
        }
        const std::string text = Scalar(m, key, "a name");
        if (text.empty() || text.size() > 200)
        {
            Fail(LineOf(m, key), Child(m.path, key), "must be a name of 1 to 200 characters");
        }
        return text;
    }

    /**
     * Read the whole model.
     * \param root the document
     * \return the model
     */
    PyxisModelSpec Read(const YAML::Node& root) const
    {
        if (!root.IsDefined() || root.IsNull())
        {
            Fail(0, "", "empty model file (expected a map with name, parallelism and layers)");
        }
        const MapView top = CheckMap(root, "", 1, {"name", "parallelism", "layers"});
        PyxisModelSpec spec;
        spec.file = m_file;
        spec.name = Name(top, "name", std::filesystem::path(m_file).stem().string());
        ReadParallelism(top, spec.parallelism);
        if (top.items.count("layers") == 0)
        {
            Fail(top.line, "layers", "missing (a list of at least one layer is required)");
        }
        const Item& layers = top.items.at("layers");
        if (!layers.value.IsSequence() || layers.value.size() == 0)
        {
            Fail(layers.line,
                 "layers",
                 "expected a list of at least one layer, got " + Describe(layers.value));
        }
        std::size_t i = 0;
        for (const auto& node : layers.value)
        {
            ReadLayer(node, "layers[" + std::to_string(i) + "]", layers.line, spec);
            ++i;
        }
        return spec;
    }

  private:
    /**
     * Read the parallelism section (defaults if absent).
     * \param top the top map
     * \param [out] p the parallelism
     */
    void ReadParallelism(const MapView& top, PyxisModelSpec::Parallelism& p) const
    {
        if (top.items.count("parallelism") == 0)
        {
            return;
        }
        const Item& item = top.items.at("parallelism");
        const MapView m = CheckMap(item.value,
                                   "parallelism",
                                   item.line,
                                   {"tensor",
                                    "data",
                                    "tp-collective",
                                    "reduction",
                                    "data-sync",
                                    "data-algorithm",
                                    "split-k"});
        p.tensor =
            static_cast<uint32_t>(Uint(m, "tensor", false, 1, 1, PyxisModelLoader::MAX_TENSOR));
        p.data = static_cast<uint32_t>(Uint(m, "data", false, 1, 1, PyxisModelLoader::MAX_DATA));
        p.tpCollective = static_cast<PyxisModelSpec::TpCollective>(
            Choice(m, "tp-collective", false, 0, {"all-reduce", "all-gather"}));
        p.reduction = static_cast<PyxisModelSpec::Reduction>(
            Choice(m, "reduction", false, 0, {"vpu", "inmem-add"}));
        p.dataSync = static_cast<PyxisModelSpec::DataSync>(
            Choice(m, "data-sync", false, 0, {"none", "weights"}));
        p.splitK = Choice(m, "split-k", false, 0, {"none", "auto"}) == 1;
        const auto names = CollectiveHelper::AlgorithmNames();
        const std::size_t ring =
            static_cast<std::size_t>(std::find(names.begin(), names.end(), "ring") - names.begin());
        p.dataAlgorithm = names.at(Choice(m, "data-algorithm", false, ring, names));
    }

    /**
     * Check that the tensor-parallel degree divides a dimension.
     * \param m the layer map
     * \param key the dimension's key
     * \param value its value
     * \param p the degree
     */
    void Divisible(const MapView& m, const std::string& key, uint64_t value, uint32_t p) const
    {
        if (value % p != 0)
        {
            Fail(LineOf(m, key),
                 Child(m.path, key),
                 "must be a multiple of parallelism.tensor (" + std::to_string(value) +
                     " is not a multiple of " + std::to_string(p) + ")");
        }
    }

    /**
     * Read one layer entry (and its repeats) into the model.
     * \param node the entry
     * \param path its path ("layers[i]")
     * \param line the line of the list
     * \param [in,out] spec the model
     */
    void ReadLayer(const YAML::Node& node,
                   const std::string& path,
                   uint32_t line,
                   PyxisModelSpec& spec) const
    {
        using S = PyxisModelSpec;
        const std::vector<std::string> kinds{"transformer", "linear", "conv3x3"};
        const MapView m = CheckLayerKeys(node, path, line, kinds);
        S::Layer l;
        l.kind = static_cast<S::LayerKind>(Choice(m, "kind", true, 0, kinds));
        l.line = m.line;
        const uint64_t repeat = Uint(m, "repeat", false, 1, 1, PyxisModelLoader::MAX_LAYERS);
        l.dtype = static_cast<S::Dtype>(Choice(m, "dtype", false, 0, {"fp8", "fp16"}));
        l.batch = Uint(m, "batch", false, 1, 1, 65536);
        long double flops = 0;
        switch (l.kind)
        {
        case S::TRANSFORMER:
            flops = ReadTransformer(m, path, spec.parallelism, l);
            break;
        case S::LINEAR:
            flops = ReadLinear(m, l);
            break;
        case S::CONV3X3:
            flops = ReadConv3x3(m, l);
            break;
        }
        if (l.kind != S::TRANSFORMER)
        {
            ReadSplit(m, spec.parallelism, l);
        }
        CheckLayerSize(m, path, l, flops);
        AddInstances(m, path, l, repeat, spec);
    }

    /**
     * Check a layer entry's keys against those of its kind (every layer key if the kind is
     * missing or wrong: that is the error then reported).
     * \param node the entry
     * \param path its path
     * \param line the line of the list
     * \param kinds the kind names, in PyxisModelSpec::LayerKind order
     * \return the entry's keys
     */
    MapView CheckLayerKeys(const YAML::Node& node,
                           const std::string& path,
                           uint32_t line,
                           const std::vector<std::string>& kinds) const
    {
        using S = PyxisModelSpec;
        const std::vector<std::string> common{"kind", "name", "repeat", "dtype", "batch"};
        // The kind first, to know the keys of the rest.
        if (!node.IsMap())
        {
            Fail(Line(node, line), path, "expected a map of keys, got " + Describe(node));
        }
        std::vector<std::string> all = common;
        for (const char* k : {"d-model",
                              "heads",
                              "kv-heads",
                              "head-dim",
                              "ffn",
                              "tokens",
                              "context",
                              "gated-mlp",
                              "softmax-ops",
                              "activation-ops",
                              "in-features",
                              "out-features",
                              "height",
                              "width",
                              "cin",
                              "cout",
                              "stride",
                              "split"})
        {
            all.emplace_back(k);
        }
        std::vector<std::string> known = common;
        const YAML::Node kindNode = node["kind"];
        const auto kindIt = kindNode && kindNode.IsScalar()
                                ? std::find(kinds.begin(), kinds.end(), kindNode.Scalar())
                                : kinds.end();
        switch (kindIt == kinds.end() ? -1 : static_cast<int>(kindIt - kinds.begin()))
        {
        case S::TRANSFORMER:
            known.insert(known.end(),
                         {"d-model",
                          "heads",
                          "kv-heads",
                          "head-dim",
                          "ffn",
                          "tokens",
                          "context",
                          "gated-mlp",
                          "softmax-ops",
                          "activation-ops"});
            break;
        case S::LINEAR:
            known.insert(known.end(),
                         {"in-features", "out-features", "tokens", "split", "activation-ops"});
            break;
        case S::CONV3X3:
            known.insert(known.end(),
                         {"height", "width", "cin", "cout", "stride", "split", "activation-ops"});
            break;
        default:
            known = all;
            break;
        }
        return CheckMap(node, path, line, known);
    }

    /**
     * Read a transformer layer's shape.
     * \param m its keys
     * \param path its path
     * \param par the model's parallelism (the TP degree must divide heads, kv-heads, ffn)
     * \param [in,out] l the layer
     * \return its FLOPs
     */
    long double ReadTransformer(const MapView& m,
                                const std::string& path,
                                const PyxisModelSpec::Parallelism& par,
                                PyxisModelSpec::Layer& l) const
    {
        const uint32_t p = par.tensor;
        l.dModel = Uint(m, "d-model", true, 0, 1, 65536);
        l.heads = Uint(m, "heads", true, 0, 1, 1024);
        l.kvHeads = Uint(m, "kv-heads", false, l.heads, 1, l.heads);
        l.headDim = Uint(m, "head-dim", true, 0, 1, 1024);
        l.ffn = Uint(m, "ffn", true, 0, 1, 262144);
        l.tokens = Uint(m, "tokens", true, 0, 1, PyxisModelLoader::MAX_ROWS);
        l.context = Uint(m, "context", false, l.tokens, 1, 1 << 20);
        l.gatedMlp = Bool(m, "gated-mlp", false);
        l.softmaxOps = static_cast<uint32_t>(Uint(m, "softmax-ops", false, 5, 1, 64));
        l.activationOps =
            static_cast<uint32_t>(Uint(m, "activation-ops", false, l.gatedMlp ? 2 : 1, 1, 64));
        if (l.heads % l.kvHeads != 0)
        {
            Fail(LineOf(m, "kv-heads"),
                 Child(path, "kv-heads"),
                 "must divide heads (" + std::to_string(l.heads) + " is not a multiple of " +
                     std::to_string(l.kvHeads) + ")");
        }
        Divisible(m, "heads", l.heads, p);
        Divisible(m, "kv-heads", l.kvHeads, p);
        Divisible(m, "ffn", l.ffn, p);
        if (par.tpCollective == PyxisModelSpec::TP_ALL_GATHER)
        {
            // O and MLP-down are split by their output features (d-model) in that mode.
            Divisible(m, "d-model", l.dModel, p);
        }
        const long double t = static_cast<long double>(l.tokens) * l.batch;
        const long double hd = l.headDim;
        return 2 * t * l.dModel * (l.heads + 2 * l.kvHeads) * hd +
               4 * t * l.heads * hd * l.context + 2 * t * l.heads * hd * l.dModel +
               2 * t * l.dModel * l.ffn * (l.gatedMlp ? 3 : 2);
    }

    /**
     * Read a linear layer's shape.
     * \param m its keys
     * \param [in,out] l the layer
     * \return its FLOPs
     */
    long double ReadLinear(const MapView& m, PyxisModelSpec::Layer& l) const
    {
        l.inFeatures = Uint(m, "in-features", true, 0, 1, 262144);
        l.outFeatures = Uint(m, "out-features", true, 0, 1, 262144);
        l.tokens = Uint(m, "tokens", true, 0, 1, PyxisModelLoader::MAX_ROWS);
        l.activationOps = static_cast<uint32_t>(Uint(m, "activation-ops", false, 0, 0, 64));
        return 2.0L * l.tokens * l.batch * l.inFeatures * l.outFeatures;
    }

    /**
     * Read a 3x3 convolution's shape.
     * \param m its keys
     * \param [in,out] l the layer
     * \return its FLOPs
     */
    long double ReadConv3x3(const MapView& m, PyxisModelSpec::Layer& l) const
    {
        l.height = Uint(m, "height", true, 0, 1, 65536);
        l.width = Uint(m, "width", true, 0, 1, 65536);
        l.cin = Uint(m, "cin", true, 0, 1, 65536);
        l.cout = Uint(m, "cout", true, 0, 1, 65536);
        l.stride = static_cast<uint32_t>(Uint(m, "stride", false, 1, 1, 2));
        l.activationOps = static_cast<uint32_t>(Uint(m, "activation-ops", false, 0, 0, 64));
        const long double outPixels =
            static_cast<long double>((l.height + l.stride - 1) / l.stride) *
            ((l.width + l.stride - 1) / l.stride);
        return 18.0L * l.batch * outPixels * l.cin * l.cout;
    }

    /**
     * Read a linear or 3x3 layer's split (default: row under all-reduce, column under
     * all-gather) and check that the TP degree divides the split dimension.
     * \param m its keys
     * \param par the model's parallelism
     * \param [in,out] l the layer
     */
    void ReadSplit(const MapView& m,
                   const PyxisModelSpec::Parallelism& par,
                   PyxisModelSpec::Layer& l) const
    {
        using S = PyxisModelSpec;
        const uint32_t p = par.tensor;
        const std::size_t dflt =
            par.tpCollective == S::TP_ALL_GATHER ? S::SPLIT_COLUMN : S::SPLIT_ROW;
        l.split = static_cast<S::Split>(Choice(m, "split", false, dflt, {"row", "column", "none"}));
        const bool isLinear = l.kind == S::LINEAR;
        if (l.split == S::SPLIT_ROW)
        {
            Divisible(m, isLinear ? "in-features" : "cin", isLinear ? l.inFeatures : l.cin, p);
        }
        else if (l.split == S::SPLIT_COLUMN)
        {
            Divisible(m, isLinear ? "out-features" : "cout", isLinear ? l.outFeatures : l.cout, p);
        }
    }

    /**
     * Refuse a layer of more rows or FLOPs than the model counts.
     * \param m its keys
     * \param path its path
     * \param l the layer
     * \param flops its FLOPs
     */
    void CheckLayerSize(const MapView& m,
                        const std::string& path,
                        const PyxisModelSpec::Layer& l,
                        long double flops) const
    {
        if (l.kind != PyxisModelSpec::CONV3X3 && l.tokens * l.batch > PyxisModelLoader::MAX_ROWS)
        {
            Fail(LineOf(m, "tokens"),
                 Child(path, "tokens"),
                 "tokens * batch must be at most " + std::to_string(PyxisModelLoader::MAX_ROWS) +
                     " (got " + std::to_string(l.tokens * l.batch) + ")");
        }
        if (flops > MAX_LAYER_FLOPS)
        {
            Fail(m.line, path, "layer too large (more than 4e18 FLOPs)");
        }
    }

    /**
     * Name the layer and append its instances (repeat) to the model.
     * \param m its keys
     * \param path its path
     * \param l the layer
     * \param repeat its instances
     * \param [in,out] spec the model
     */
    void AddInstances(const MapView& m,
                      const std::string& path,
                      PyxisModelSpec::Layer l,
                      uint64_t repeat,
                      PyxisModelSpec& spec) const
    {
        const std::string base =
            Name(m,
                 "name",
                 PyxisModelSpec::LayerKindName(l.kind) + std::to_string(spec.layers.size()));
        if (spec.layers.size() + repeat > PyxisModelLoader::MAX_LAYERS)
        {
            Fail(LineOf(m, "repeat"),
                 Child(path, "repeat"),
                 "the model has more than " + std::to_string(PyxisModelLoader::MAX_LAYERS) +
                     " layers");
        }
        for (uint64_t r = 0; r < repeat; ++r)
        {
            l.repeatIndex = static_cast<uint32_t>(r);
            l.name = repeat == 1 ? base : base + "." + std::to_string(r);
            spec.layers.push_back(l);
        }
    }

    std::string m_file; //!< file name for errors
};

} // namespace

PyxisModelSpec
PyxisModelLoader::LoadString(const std::string& text, const std::string& file)
{
    NS_LOG_FUNCTION(file);
    YAML::Node root;
    try
    {
        root = YAML::Load(text);
    }
    catch (const YAML::Exception& e)
    {
        const uint32_t line = e.mark.line >= 0 ? static_cast<uint32_t>(e.mark.line) + 1 : 0;
        throw PyxisModelError(file, line, "", "YAML syntax error: " + e.msg);
    }
    try
    {
        return Reader(file).Read(root);
    }
    catch (const YAML::Exception& e)
    {
        // yaml-cpp may throw while walking (e.g. an alias it cannot resolve).
        const uint32_t line = e.mark.line >= 0 ? static_cast<uint32_t>(e.mark.line) + 1 : 0;
        throw PyxisModelError(file, line, "", "YAML error: " + e.msg);
    }
}

PyxisModelSpec
PyxisModelLoader::LoadFile(const std::string& path)
{
    NS_LOG_FUNCTION(path);
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (!ec && fs::exists(st) && !fs::is_regular_file(st))
    {
        throw PyxisModelError(path, 0, "", "cannot read model file: not a regular file");
    }
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        throw PyxisModelError(path,
                              0,
                              "",
                              std::string("cannot open model file: ") + std::strerror(errno));
    }
    std::string text;
    char buffer[65536];
    while (in.read(buffer, sizeof(buffer)) || in.gcount() > 0)
    {
        text.append(buffer, static_cast<std::size_t>(in.gcount()));
        if (text.size() > MAX_FILE_BYTES)
        {
            throw PyxisModelError(path, 0, "", "cannot read model file: larger than 16 MiB");
        }
    }
    return LoadString(text, path);
}

} // namespace ns3
