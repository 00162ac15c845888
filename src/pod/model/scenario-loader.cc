/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scenario-loader.h"

#include "pod-memory-estimate.h"
#include "pod-plugins.h"
#include "pod-switch-count.h"
#include "scenario-dag.h"
#include "scenario-error.h"
#include "scenario-schema.h"

#include "ns3/assert.h"
#include "ns3/collective-helper.h"
#include "ns3/collective-spec.h"
#include "ns3/fabric-channel.h"
#include "ns3/fabric-config-reader.h"
#include "ns3/fabric-pfc.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"
#include "ns3/workload-kind.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScenarioLoader");

namespace
{

struct Entry;

/**
 * A YAML node with where it came from: a line of the file, or a --set override.
 *
 * The loader copies yaml-cpp's tree into this one so that overrides can be applied without
 * yaml-cpp's reference semantics and every value keeps its origin for error messages.
 */
struct Node
{
    /// Kind of node.
    enum Kind
    {
        NUL,    //!< no value (`key:` with nothing after it)
        SCALAR, //!< a value
        MAP,    //!< a map
        SEQ     //!< a list
    };

    Kind kind{NUL};             //!< kind
    std::string scalar;         //!< SCALAR: the text
    std::vector<Entry> entries; //!< MAP: the entries, in file order
    std::vector<Node> items;    //!< SEQ: the items
    uint32_t line{0};           //!< 1-based line of the value (0: unknown)
    bool fromSet{false};        //!< the value came from a --set override

    /**
     * \param key a map key
     * \return the entry with that key, or nullptr
     */
    Entry* Find(const std::string& key);
    /**
     * \param key a map key
     * \return the entry with that key, or nullptr
     */
    const Entry* Find(const std::string& key) const;
};

/// One entry of a map.
struct Entry
{
    std::string key;     //!< the key
    uint32_t line{0};    //!< 1-based line of the key
    bool fromSet{false}; //!< the key came from a --set override
    Node value;          //!< the value
};

Entry*
Node::Find(const std::string& key)
{
    for (auto& e : entries)
    {
        if (e.key == key)
        {
            return &e;
        }
    }
    return nullptr;
}

const Entry*
Node::Find(const std::string& key) const
{
    for (const auto& e : entries)
    {
        if (e.key == key)
        {
            return &e;
        }
    }
    return nullptr;
}

/// Where an error is: a file line or --set.
struct Where
{
    const Node* node{nullptr}; //!< the node at the path, nullptr if absent (then: its ancestor)
    uint32_t line{0};          //!< 1-based line
    bool fromSet{false};       //!< from an override
};

/// One component of a dotted path: a name or a list index.
struct Segment
{
    std::string name;     //!< the name (empty for an index)
    bool isIndex{false};  //!< this is a list index
    std::size_t index{0}; //!< the index
};

/**
 * Split a concrete path such as `workloads[1].sender-list[0]`.
 * \param path the path
 * \param [out] segments its components
 * \return false on bad syntax
 */
bool
SplitPath(const std::string& path, std::vector<Segment>& segments)
{
    segments.clear();
    std::size_t i = 0;
    const std::size_t n = path.size();
    bool expectName = true;
    while (i < n)
    {
        if (expectName)
        {
            std::size_t j = i;
            while (j < n && (std::isalnum(static_cast<unsigned char>(path[j])) || path[j] == '-' ||
                             path[j] == '_'))
            {
                ++j;
            }
            if (j == i)
            {
                return false;
            }
            segments.push_back({path.substr(i, j - i), false, 0});
            i = j;
            expectName = false;
            continue;
        }
        if (path[i] == '.')
        {
            expectName = true;
            ++i;
            if (i == n)
            {
                return false;
            }
            continue;
        }
        if (path[i] == '[')
        {
            std::size_t j = i + 1;
            std::size_t index = 0;
            while (j < n && std::isdigit(static_cast<unsigned char>(path[j])))
            {
                index = index * 10 + static_cast<std::size_t>(path[j] - '0');
                // Far above any list the value budget lets through (a size-matrix of 1024 x 1024
                // has indices above 1000000, the bound this was: found by the fuzzer).
                if (index > 1000000000000)
                {
                    return false;
                }
                ++j;
            }
            if (j == i + 1 || j >= n || path[j] != ']')
            {
                return false;
            }
            segments.push_back({"", true, index});
            i = j + 1;
            continue;
        }
        return false;
    }
    return !segments.empty() && !expectName;
}

/**
 * Join a path and a key.
 * \param parent a path, "" at the top
 * \param key a key
 * \return parent.key
 */
std::string
Child(const std::string& parent, const std::string& key)
{
    return parent.empty() ? key : parent + "." + key;
}

/**
 * \param i an index
 * \return "[i]"
 */
std::string
Index(std::size_t i)
{
    return "[" + std::to_string(i) + "]";
}

/**
 * \param kind a node kind
 * \return how a message names it
 */
std::string
Describe(Node::Kind kind)
{
    switch (kind)
    {
    case Node::NUL:
        return "an empty value";
    case Node::SCALAR:
        return "a single value";
    case Node::MAP:
        return "a map";
    case Node::SEQ:
        return "a list";
    }
    return "?";
}

/**
 * \param key a key
 * \return what its values are, for "expected ..." messages
 */
std::string
Expected(const ScenarioSchema::Key& key)
{
    switch (key.type)
    {
    case ScenarioSchema::STRING:
        return "a string";
    case ScenarioSchema::ENUM: {
        std::string s = "one of";
        for (std::size_t i = 0; i < key.allowed.size(); ++i)
        {
            s += (i ? ", '" : " '") + key.allowed[i] + "'";
        }
        return s;
    }
    case ScenarioSchema::UINT:
        return "a non-negative integer";
    case ScenarioSchema::DOUBLE:
        return "a number";
    case ScenarioSchema::BOOL:
        return "true or false";
    case ScenarioSchema::SIZE:
        return "a size (e.g. 4096, 16KiB)";
    case ScenarioSchema::TIME:
        return "a time (e.g. 250ns)";
    case ScenarioSchema::RATE:
        return "a data rate (e.g. 800Gbps)";
    case ScenarioSchema::LENGTH:
        return "a length (e.g. 3m)";
    case ScenarioSchema::MAP:
        return "a map of keys";
    case ScenarioSchema::LIST:
        return "a list";
    }
    return "?";
}

/// Most values (scalars, maps and lists) one document may expand to: YAML aliases repeat a
/// node without repeating its text, so ten levels of ten aliases are 10^10 values (found by
/// utils/fuzz_scenarios.py); a size-matrix of 2048 x 2048 still fits.
constexpr std::size_t MAX_VALUES = std::size_t(1) << 22;

/// Largest scenario or DAG file read, in bytes.
constexpr std::size_t MAX_FILE_BYTES = std::size_t(64) << 20;

/// Most rank x chunk states of one collective's executor (about 1.6 GB).
constexpr uint64_t MAX_CHUNK_STATES = uint64_t(1) << 25;

/// Most messages one collective may post at once: ranks x chunks in flight x stripes x the
/// operations of a rank's first step.
constexpr uint64_t MAX_MESSAGES_AT_ONCE = uint64_t(1) << 24;

/// What Convert may still copy, and the outermost key being copied (errors name it).
struct ValueBudget
{
    std::size_t left{MAX_VALUES}; //!< values that may still be copied
    uint32_t depth{0};            //!< depth of the Convert call being run (1: the document)
    std::string field;            //!< the outermost key being copied
    uint32_t line{0};             //!< its line
};

/**
 * Copy a yaml-cpp tree.
 * \param y the yaml-cpp node
 * \param fallbackLine line to use where yaml-cpp has no mark
 * \param fromSet the tree comes from an override
 * \param file file name for errors
 * \param path path of y, for errors
 * \param [in,out] budget what may still be copied (a fresh ValueBudget for a document)
 * \return the copy
 */
Node
Convert(const YAML::Node& y,
        uint32_t fallbackLine,
        bool fromSet,
        const std::string& file,
        const std::string& path,
        ValueBudget& budget)
{
    Node n;
    n.fromSet = fromSet;
    const YAML::Mark mark = y.Mark();
    n.line = mark.line >= 0 ? static_cast<uint32_t>(mark.line) + 1 : fallbackLine;
    const std::string errFile = fromSet ? ScenarioError::OVERRIDE_FILE : file;
    if (budget.left == 0)
    {
        // The line of an aliased node is its anchor's: name the outermost key instead.
        throw ScenarioError(errFile,
                            fromSet ? 0 : (budget.line ? budget.line : n.line),
                            budget.field.empty() ? path : budget.field,
                            "expands to more than " + std::to_string(MAX_VALUES) +
                                " values (YAML aliases that repeat large nodes?)");
    }
    --budget.left;
    ++budget.depth;
    switch (y.Type())
    {
    case YAML::NodeType::Undefined:
    case YAML::NodeType::Null:
        n.kind = Node::NUL;
        n.line = fallbackLine;
        break;
    case YAML::NodeType::Scalar:
        n.kind = Node::SCALAR;
        n.scalar = y.Scalar();
        break;
    case YAML::NodeType::Sequence: {
        n.kind = Node::SEQ;
        std::size_t i = 0;
        for (const auto& item : y)
        {
            n.items.push_back(Convert(item, n.line, fromSet, file, path + Index(i), budget));
            ++i;
        }
        break;
    }
    case YAML::NodeType::Map:
        n.kind = Node::MAP;
        for (auto it = y.begin(); it != y.end(); ++it)
        {
            const YAML::Mark keyMark = it->first.Mark();
            const uint32_t keyLine =
                keyMark.line >= 0 ? static_cast<uint32_t>(keyMark.line) + 1 : n.line;
            if (!it->first.IsScalar())
            {
                throw ScenarioError(errFile,
                                    fromSet ? 0 : keyLine,
                                    path,
                                    "keys must be plain names, not " +
                                        Describe(it->first.IsMap() ? Node::MAP : Node::SEQ));
            }
            const std::string key = it->first.Scalar();
            const std::string childPath = Child(path, key);
            if (const Entry* dup = n.Find(key))
            {
                throw ScenarioError(errFile,
                                    fromSet ? 0 : keyLine,
                                    childPath,
                                    "duplicate key (first given on line " +
                                        std::to_string(dup->line) + ")");
            }
            Entry e;
            e.key = key;
            e.line = keyLine;
            e.fromSet = fromSet;
            if (budget.depth == 1)
            {
                budget.field = childPath;
                budget.line = keyLine;
            }
            e.value = Convert(it->second, keyLine, fromSet, file, childPath, budget);
            n.entries.push_back(std::move(e));
        }
        break;
    }
    --budget.depth;
    return n;
}

/**
 * Read a whole scenario or DAG file, refusing what is not a regular file of at most
 * MAX_FILE_BYTES (a device such as /dev/zero or a FIFO would never end).
 * \param path the file
 * \param what what it is, for messages ("scenario", "DAG file x.yaml")
 * \param [out] text its contents
 * \return "" if read, else what went wrong ("cannot open scenario: No such file or directory")
 */
std::string
ReadFileText(const std::string& path, const std::string& what, std::string& text)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (!ec && fs::is_directory(st))
    {
        return "cannot read " + what + ": is a directory";
    }
    if (!ec && fs::exists(st) && !fs::is_regular_file(st))
    {
        return "cannot read " + what + ": not a regular file";
    }
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        return "cannot open " + what + ": " + std::strerror(errno);
    }
    text.clear();
    char buffer[65536];
    while (in.read(buffer, sizeof(buffer)) || in.gcount() > 0)
    {
        text.append(buffer, static_cast<std::size_t>(in.gcount()));
        if (text.size() > MAX_FILE_BYTES)
        {
            return "cannot read " + what + ": larger than " + std::to_string(MAX_FILE_BYTES >> 20) +
                   " MiB";
        }
    }
    if (in.bad())
    {
        return "cannot read " + what + ": " + std::strerror(errno);
    }
    return "";
}

/**
 * What a yaml-cpp exception says, in words: yaml-cpp 0.7 gives its depth limit the text "bad
 * file" (found by utils/fuzz_scenarios.py with 1000 nested lists).
 * \param e the exception
 * \return the message
 */
std::string
YamlMessage(const YAML::Exception& e)
{
    if (dynamic_cast<const YAML::DeepRecursion*>(&e) != nullptr)
    {
        return "nested too deeply (yaml-cpp parses at most 2000 levels of lists, maps and "
               "their entries)";
    }
    return e.msg;
}

/**
 * Where the YAML documents of a text start, from yaml-cpp's parser events (nothing is built).
 * Each mark is the document's first node, or its start if it has none.
 */
class DocumentMarks : public YAML::EventHandler
{
  public:
    std::vector<YAML::Mark> starts; //!< the start of each document
    std::vector<YAML::Mark> firsts; //!< the first node of each document (its start if none)

    /// \param mark where the document starts
    void OnDocumentStart(const YAML::Mark& mark) override
    {
        starts.push_back(mark);
        m_first = true;
    }

    void OnDocumentEnd() override
    {
        if (m_first)
        {
            firsts.push_back(starts.back());
        }
    }

    /// \param mark where the node is
    void OnNull(const YAML::Mark& mark, YAML::anchor_t) override
    {
        Node(mark);
    }

    /// \param mark where the node is
    void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override
    {
        Node(mark);
    }

    /// \param mark where the node is
    void OnScalar(const YAML::Mark& mark,
                  const std::string&,
                  YAML::anchor_t,
                  const std::string&) override
    {
        Node(mark);
    }

    /// \param mark where the node is
    void OnSequenceStart(const YAML::Mark& mark,
                         const std::string&,
                         YAML::anchor_t,
                         YAML::EmitterStyle::value) override
    {
        Node(mark);
    }

    void OnSequenceEnd() override
    {
    }

    /// \param mark where the node is
    void OnMapStart(const YAML::Mark& mark,
                    const std::string&,
                    YAML::anchor_t,
                    YAML::EmitterStyle::value) override
    {
        Node(mark);
    }

    void OnMapEnd() override
    {
    }

  private:
    /// \param mark a node's mark: the document's first if none came before
    void Node(const YAML::Mark& mark)
    {
        if (m_first)
        {
            firsts.push_back(mark);
            m_first = false;
        }
    }

    bool m_first{false}; //!< no node of the current document yet
};

/**
 * Parse a text that must hold one YAML document. yaml-cpp 0.7's LoadAll never returns on a
 * ',' outside [] or {} at the top level (its parser does not consume the token and yields one
 * empty document after another, found by utils/fuzz_scenarios.py with a random binary file), so
 * the documents are counted here first, stopping where the parser stops moving.
 * \param text the YAML text
 * \param file the file name for errors
 * \return the document (null if there is none)
 * \throws ScenarioError for a syntax error or more than one document
 */
YAML::Node
LoadOneDocument(const std::string& text, const std::string& file)
{
    DocumentMarks marks;
    try
    {
        std::istringstream in(text);
        YAML::Parser parser(in);
        while (parser.HandleNextDocument(marks))
        {
            const auto& s = marks.starts;
            if (s.size() >= 2 && s[s.size() - 1].pos == s[s.size() - 2].pos)
            {
                const YAML::Mark& m = s.back();
                const auto pos = static_cast<std::size_t>(m.pos);
                const std::string token = pos < text.size() ? text.substr(pos, 1) : "";
                throw ScenarioError(file,
                                    static_cast<uint32_t>(m.line) + 1,
                                    "",
                                    "YAML syntax error: unexpected '" + token + "' at column " +
                                        std::to_string(m.column + 1) +
                                        " (a ',' belongs inside [] or {})");
            }
        }
        if (marks.starts.size() > 1)
        {
            const int line = marks.firsts.size() > 1 ? marks.firsts[1].line : marks.starts[1].line;
            throw ScenarioError(file,
                                line >= 0 ? static_cast<uint32_t>(line) + 1 : 0,
                                "",
                                "expected one YAML document, found " +
                                    std::to_string(marks.starts.size()));
        }
        return YAML::Load(text);
    }
    catch (const YAML::Exception& e)
    {
        const uint32_t line = e.mark.line >= 0 ? static_cast<uint32_t>(e.mark.line) + 1 : 0;
        throw ScenarioError(file, line, "", "YAML syntax error: " + YamlMessage(e));
    }
}

/**
 * Mark a tree as coming from an override.
 * \param n the tree
 */
void
MarkFromSet(Node& n)
{
    n.fromSet = true;
    n.line = 0;
    for (auto& e : n.entries)
    {
        e.fromSet = true;
        e.line = 0;
        MarkFromSet(e.value);
    }
    for (auto& item : n.items)
    {
        MarkFromSet(item);
    }
}

/**
 * Trim white space.
 * \param s text
 * \return s without surrounding white space
 */
std::string
Trim(const std::string& s)
{
    const char* ws = " \t\r\n";
    const auto b = s.find_first_not_of(ws);
    if (b == std::string::npos)
    {
        return "";
    }
    return s.substr(b, s.find_last_not_of(ws) - b + 1);
}

/**
 * Message for an unknown key, with a suggestion or the keys allowed there.
 * \param schemaPath the unknown key in schema form
 * \param parentSchema the schema path of its section ("" at the top)
 * \return the message
 */
std::string
UnknownKeyMessage(const std::string& schemaPath, const std::string& parentSchema)
{
    std::string message = "unknown key";
    const std::string suggestion = ScenarioSchema::Suggest(schemaPath);
    if (!suggestion.empty())
    {
        // The same section: name the key alone; elsewhere: its full path.
        const auto dot = suggestion.rfind('.');
        const std::string parent = dot == std::string::npos ? "" : suggestion.substr(0, dot);
        const std::string shown =
            parent == parentSchema ? suggestion.substr(parent.empty() ? 0 : dot + 1) : suggestion;
        return message + "; did you mean '" + shown + "'?";
    }
    std::string known;
    for (const auto* k : ScenarioSchema::GetChildren(parentSchema))
    {
        const auto dot = k->path.rfind('.');
        known += (known.empty() ? "" : ", ") +
                 (dot == std::string::npos ? k->path : k->path.substr(dot + 1));
    }
    return message + " (known keys here: " + known + ")";
}

/// The validation of one scenario: the tree, the file name and the scenario being filled. It is
/// the FabricConfigReader through which the pod's fabric kind reads its section.
class Loader : public FabricConfigReader
{
  public:
    /**
     * \param file the file name errors give
     * \param root the tree, overrides applied
     */
    Loader(const std::string& file, const Node& root)
        : m_file(file),
          m_root(root)
    {
    }

    /**
     * Throw an error at a place.
     * \param w the place
     * \param field the field path
     * \param message the message
     */
    [[noreturn]] void Fail(const Where& w,
                           const std::string& field,
                           const std::string& message) const
    {
        if (w.fromSet)
        {
            throw ScenarioError(ScenarioError::OVERRIDE_FILE, 0, field, message);
        }
        throw ScenarioError(m_file, w.line, field, message);
    }

    [[noreturn]] void Fail(const std::string& path, const std::string& message) const override
    {
        Fail(Locate(path), path, message);
    }

    [[noreturn]] void FailAt(const std::string& where,
                             const std::string& field,
                             const std::string& message) const override
    {
        Fail(Locate(where), field, message);
    }

    [[noreturn]] void FailIn(const std::string& file,
                             uint32_t line,
                             const std::string& field,
                             const std::string& message) const override
    {
        throw ScenarioError(file, line, field, message);
    }

    std::string ResolvePath(const std::string& path) const override
    {
        const Where where = Locate(path);
        std::filesystem::path file(Get(path, true).str);
        if (file.is_relative() && !where.fromSet)
        {
            file = std::filesystem::path(m_file).parent_path() / file;
        }
        return file.string();
    }

    bool Has(const std::string& path) const override
    {
        return Locate(path).node != nullptr;
    }

    std::size_t GetListSize(const std::string& path) const override
    {
        const Node* n = Locate(path).node;
        return n != nullptr && n->kind == Node::SEQ ? n->items.size() : 0;
    }

    /**
     * Find a path in the tree.
     * \param path a concrete path
     * \return the node and its place; if absent, node is nullptr and the place is that of the
     * nearest ancestor present
     */
    Where Locate(const std::string& path) const
    {
        std::vector<Segment> segments;
        const bool ok = SplitPath(path, segments);
        NS_ASSERT_MSG(ok, "bad path " << path);
        Where w{&m_root, m_root.line, m_root.fromSet};
        for (const auto& s : segments)
        {
            const Node* cur = w.node;
            if (s.isIndex)
            {
                if (cur->kind != Node::SEQ || s.index >= cur->items.size())
                {
                    return {nullptr, w.line, w.fromSet};
                }
                const Node& item = cur->items[s.index];
                w = {&item, item.line, item.fromSet};
                continue;
            }
            const Entry* e = cur->kind == Node::MAP ? cur->Find(s.name) : nullptr;
            if (e == nullptr)
            {
                return {nullptr, w.line, w.fromSet};
            }
            // A scalar is reported where its value is; a section or an empty value at its key.
            const bool atValue = e->value.kind == Node::SCALAR || e->value.kind == Node::SEQ;
            w = {&e->value, atValue ? e->value.line : e->line, e->value.fromSet};
            if (w.line == 0 && !w.fromSet)
            {
                w.line = e->line;
            }
        }
        return w;
    }

    /**
     * Check the shape of the tree: every key known, sections are maps, lists are lists, scalars
     * are scalars.
     * \param node a MAP node
     * \param schemaParent its schema path ("" at the top)
     * \param path its concrete path
     */
    void CheckShape(const Node& node,
                    const std::string& schemaParent,
                    const std::string& path) const
    {
        for (const auto& e : node.entries)
        {
            const std::string schemaPath = Child(schemaParent, e.key);
            const std::string field = Child(path, e.key);
            const ScenarioSchema::Key* key = ScenarioSchema::Find(schemaPath);
            if (e.key.find_first_of(".[]") != std::string::npos)
            {
                Fail({nullptr, e.line, e.fromSet},
                     field,
                     "unknown key (write dotted keys as nested maps, e.g. pod: {link: {rate: "
                     "400Gbps}})");
            }
            if (key == nullptr)
            {
                Fail({nullptr, e.line, e.fromSet},
                     field,
                     UnknownKeyMessage(schemaPath, schemaParent));
            }
            const Node& v = e.value;
            const Where w{&v,
                          v.kind == Node::NUL || v.kind == Node::MAP ? e.line : v.line,
                          v.fromSet};
            switch (key->type)
            {
            case ScenarioSchema::MAP:
                if (v.kind == Node::MAP)
                {
                    CheckShape(v, schemaPath, field);
                }
                else if (v.kind != Node::NUL) // an empty section is allowed
                {
                    Fail(w, field, "expected a map of keys, got " + Describe(v.kind));
                }
                break;
            case ScenarioSchema::LIST:
                if (v.kind != Node::SEQ)
                {
                    Fail(w, field, "expected a list, got " + Describe(v.kind));
                }
                for (std::size_t i = 0; i < v.items.size(); ++i)
                {
                    const Node& item = v.items[i];
                    const std::string itemField = field + Index(i);
                    const Where iw{&item, item.line, item.fromSet};
                    if (key->element == ScenarioSchema::MAP)
                    {
                        if (item.kind != Node::MAP)
                        {
                            Fail(iw,
                                 itemField,
                                 "expected a map of keys, got " + Describe(item.kind));
                        }
                        CheckShape(item, schemaPath + "[]", itemField);
                    }
                    else if (item.kind != Node::SCALAR)
                    {
                        ScenarioSchema::Key element;
                        element.type = key->element;
                        Fail(iw,
                             itemField,
                             "expected " + Expected(element) + ", got " + Describe(item.kind));
                    }
                }
                break;
            default:
                if (v.kind != Node::SCALAR)
                {
                    Fail(w,
                         field,
                         "expected " + Expected(*key) + ", got " +
                             (v.kind == Node::NUL ? "no value" : Describe(v.kind)));
                }
                break;
            }
        }
    }

    /**
     * Read a scalar, or its default.
     * \param path concrete path
     * \param required the key must be present
     * \param [out] present whether the key was given
     * \param requiredMessage message if a required key is absent
     * \return the value (the default's if absent and not required)
     */
    ScenarioSchema::Value Get(
        const std::string& path,
        bool required = false,
        bool* present = nullptr,
        const std::string& requiredMessage = "required key is missing") const override
    {
        const std::string schemaPath = ScenarioSchema::SchemaPath(path);
        const ScenarioSchema::Key* key = ScenarioSchema::Find(schemaPath);
        ScenarioSchema::Key element;
        if (key == nullptr && schemaPath.size() > 2 &&
            schemaPath.compare(schemaPath.size() - 2, 2, "[]") == 0)
        {
            // An element of a list of scalars: its value has the list's element type.
            const ScenarioSchema::Key* list =
                ScenarioSchema::Find(schemaPath.substr(0, schemaPath.size() - 2));
            if (list != nullptr && list->type == ScenarioSchema::LIST &&
                list->element != ScenarioSchema::MAP)
            {
                element.type = list->element;
                key = &element;
            }
        }
        NS_ASSERT_MSG(key != nullptr, "no schema key for " << path);
        const Where w = Locate(path);
        if (present != nullptr)
        {
            *present = (w.node != nullptr);
        }
        if (w.node == nullptr)
        {
            if (required)
            {
                Fail(w, path, requiredMessage);
            }
            ScenarioSchema::Value v;
            if (!key->defaultValue.empty())
            {
                v = ScenarioSchema::Parse(*key, key->defaultValue); // a bad default is a bug
            }
            return v;
        }
        try
        {
            return ScenarioSchema::Parse(*key, w.node->scalar);
        }
        catch (const std::invalid_argument& e)
        {
            Fail(w, path, e.what());
        }
    }

    /**
     * Validate everything and fill a scenario.
     * \param sc the scenario (sourceFile, text, overrides already set)
     * \param defaultName the name if none is given
     */
    void Fill(Scenario& sc, const std::string& defaultName) const
    {
        if (m_root.kind != Node::MAP)
        {
            Fail({&m_root, m_root.line == 0 ? 1 : m_root.line, m_root.fromSet},
                 "",
                 "expected a map of scenario keys at the top level, got " + Describe(m_root.kind));
        }
        CheckShape(m_root, "", "");

        bool present = false;
        const auto name = Get("name", false, &present);
        sc.name = present ? name.str : defaultName;
        if (present && (sc.name.find_first_of("/\\") != std::string::npos || sc.name == "." ||
                        sc.name == ".."))
        {
            // The default results file is results/<name>.h5: a name must not lead elsewhere.
            Fail(Locate("name"),
                 "name",
                 "names the default results file results/<name>.h5, so it takes no / or \\ "
                 "and is not . or .. (got '" +
                     sc.name + "'); give output.file to write elsewhere");
        }
        sc.seed = static_cast<uint32_t>(Get("seed", false).u);
        sc.stopTime = PicoSeconds(static_cast<uint64_t>(Get("stop", false).ps));
        sc.scheduler = Get("scheduler", false).str;
        sc.engine = Get("engine", false).str;
        ReadLimits(sc);
        sc.check = Get("check", false).b;

        auto& pod = sc.pod;
        pod.fabric = Get("pod.fabric", false).str;
        const FabricKind& kind = PodPlugins::GetFabric(pod.fabric);
        pod.accelerators = static_cast<uint32_t>(Get("pod.accelerators", true).u);
        pod.planes = static_cast<uint32_t>(Get("pod.planes", false).u);
        pod.topology = Get("pod.topology", false).str;
        bool arrivalOrderGiven = false;
        pod.canonicalArrivals =
            Get("pod.arrival-order", false, &arrivalOrderGiven).str == "canonical";
        // The generic sections (src/fabric's switches, links, NICs, flow control, link-level
        // retry and transport).
        pod.Read(*this);
        bool radixGiven = false;
        Get("pod.switch.radix", false, &radixGiven);
        if (kind.UsesPlanePlan())
        {
            CheckRadix(pod.accelerators, pod.sw.radix, radixGiven, pod.sw.oversubscription);
        }

        if (pod.topology == "mesh" && !kind.SupportsMesh())
        {
            Fail(Locate("pod.topology"),
                 "pod.topology",
                 "a mesh of direct XPU links is a SUE deployment (SUE RM102 Figure 2): use "
                 "pod.fabric: " +
                     KindsWith([](const FabricKind& k) { return k.SupportsMesh(); }, " or "));
        }
        // The kind reads and checks its own section and sets what its fabric fixes; another
        // fabric's section would be ignored, so it is refused.
        for (const FabricKind* other : PodPlugins::GetFabrics())
        {
            if (other != &kind && !other->GetSection().empty() && Has(other->GetSection()))
            {
                // Named by its first key, when it has one (the key a --set gave).
                std::string field = other->GetSection();
                const Node* section = Locate(field).node;
                if (section->kind == Node::MAP && !section->entries.empty())
                {
                    field += "." + section->entries.front().key;
                }
                Fail(Locate(field),
                     field,
                     "is in the section of the " + other->GetName() + " fabric, which this pod " +
                         "does not use (pod.fabric is " + pod.fabric + "): its keys would be " +
                         "ignored; remove it, or set pod.fabric: " + other->GetName());
            }
        }
        pod.kind = kind.Read(*this, pod);
        if (!kind.UsesPlanePlan())
        {
            // The fabrics that build their own pods have their own links (FabricArrivalOrder
            // orders the units of the FabricChannels of switched planes and meshes): the key
            // does not apply to them; given explicitly, it is refused.
            pod.canonicalArrivals = false;
            if (arrivalOrderGiven && Get("pod.arrival-order", false).str == "canonical")
            {
                Fail(Locate("pod.arrival-order"),
                     "pod.arrival-order",
                     "canonical applies to the fabrics " +
                         KindsWith([](const FabricKind& k) { return k.UsesPlanePlan(); }, " and ") +
                         ", not " + pod.fabric);
            }
        }

        ReadWorkloads(sc);
        ReadFaults(sc);
        CheckFlowEngine(sc);
        kind.CheckTraffic(*this, pod, TrafficGroups(sc));
        CheckLossless(sc);
        CheckDeadlockTimeout(sc.pod);
        CheckMemory(sc, kind);

        bool fileGiven = false;
        const auto file = Get("output.file", false, &fileGiven);
        sc.output.file = fileGiven ? file.str : "results/" + sc.name + ".h5";
        sc.output.plots = Get("output.plots", false).b;
        sc.output.progress = Get("output.progress", false).b;
        sc.output.sampleInterval =
            PicoSeconds(static_cast<int64_t>(Get("output.sample-interval", false).ps));
        sc.output.budgetBytes = Get("output.budget", false).u;
    }

  private:
    /**
     * \param has which kinds to name
     * \param last the separator before the last name (" or ", " and ")
     * \return the names of the registered fabric kinds for which \p has is true: "sue",
     *         "ethernet, sue and rifl"
     */
    static std::string KindsWith(const std::function<bool(const FabricKind&)>& has,
                                 const std::string& last)
    {
        std::vector<std::string> names;
        for (const FabricKind* k : PodPlugins::GetFabrics())
        {
            if (has(*k))
            {
                names.push_back(k->GetName());
            }
        }
        std::string out;
        for (std::size_t i = 0; i < names.size(); ++i)
        {
            out += (i == 0 ? "" : (i + 1 == names.size() ? last : ", ")) + names[i];
        }
        return out;
    }

    /**
     * \param sc the scenario, workloads read
     * \return the groups of accelerators that the workloads make talk to each other, in
     *         workload order, each with the key that puts them together (for
     *         FabricKind::CheckTraffic)
     */
    static std::vector<FabricKind::TrafficGroup> TrafficGroups(const Scenario& sc)
    {
        std::vector<FabricKind::TrafficGroup> groups;
        const uint32_t n = sc.pod.accelerators;
        auto add = [&groups](std::vector<uint32_t> accs, std::string field, std::string what) {
            groups.push_back({std::move(field), std::move(what), std::move(accs)});
        };
        for (std::size_t wi = 0; wi < sc.workloads.size(); ++wi)
        {
            const Scenario::Workload& w = sc.workloads[wi];
            const std::string p = "workloads[" + std::to_string(wi) + "]";
            const std::string name = "workload '" + w.name + "' (" + w.kind + ")";
            if (w.kind == "incast")
            {
                add({w.receiver}, p + ".receiver", name);
                for (std::size_t j = 0; j < w.senderList.size(); ++j)
                {
                    add({w.receiver, w.senderList[j]},
                        p + ".sender-list[" + std::to_string(j) + "]",
                        name);
                }
                // The default senders: the `senders` accelerators after the receiver (wrapping).
                for (uint32_t k = 1; w.senderList.empty() && k <= w.senders; ++k)
                {
                    add({w.receiver, (w.receiver + k) % n},
                        p + ".senders",
                        name + " with its default senders (the " + std::to_string(w.senders) +
                            " accelerators after the receiver; give a sender-list)");
                }
            }
            else if (w.kind == "all-to-all" || w.kind == "permutation")
            {
                add({}, p + ".kind", name + " over the whole pod");
            }
            else if (w.kind == "collective")
            {
                add(w.coll.group,
                    w.coll.group.empty() ? p + ".kind" : p + ".group",
                    w.coll.group.empty() ? name + " over the whole pod (no group)"
                                         : name + " on its group");
            }
            else if (w.kind == "dag")
            {
                const std::string in = w.dagFile.empty() ? "" : " (nodes from " + w.dagFile + ")";
                for (std::size_t j = 0; j < w.nodes.size(); ++j)
                {
                    const Scenario::DagNode& d = w.nodes[j];
                    const std::string np = p + ".nodes[" + std::to_string(j) + "]";
                    const std::string nn = name + " node '" + d.name + "'" + in;
                    if (d.kind == "send")
                    {
                        add({d.src, d.dst}, np + ".dst", nn);
                    }
                    else if (d.kind == "collective")
                    {
                        add(d.coll.group, d.coll.group.empty() ? np + ".kind" : np + ".group", nn);
                    }
                }
            }
        }
        return groups;
    }

    /**
     * Read the run limits (the watchdogs): limits.no-progress, limits.check-interval (0: a
     * tenth of no-progress; must not exceed it) and limits.wall.
     * \param sc the scenario
     */
    /**
     * Refuse a scenario whose memory estimate (PodMemoryEstimate) exceeds limits.memory, or
     * the memory this process may use, before anything is built.
     * \param sc the scenario, pod and workloads read
     * \param kind its fabric kind
     */
    void CheckMemory(const Scenario& sc, const FabricKind& kind) const
    {
        const PodMemoryEstimate estimate(sc, kind);
        std::string source = "limits.memory";
        uint64_t limit = sc.limits.memoryBytes;
        if (limit == 0)
        {
            limit = PodMemoryEstimate::GetAvailable(source);
        }
        if (limit == 0 || estimate.GetTotal() <= limit)
        {
            return;
        }
        bool given = false;
        Get("limits.memory", false, &given);
        const std::string key = given ? "limits.memory" : "pod.accelerators";
        Fail(Locate(key),
             key,
             "this run needs an estimated " + estimate.Describe() + ", more than the " +
                 PodMemoryEstimate::Format(limit) + " it may use (" + source +
                 "): use fewer pod.accelerators or smaller workloads (all-to-all: communicators), "
                 "or set limits.memory if the estimate is wrong for this machine");
    }

    void ReadLimits(Scenario& sc) const
    {
        auto& l = sc.limits;
        l.noProgress = PicoSeconds(static_cast<int64_t>(Get("limits.no-progress", false).ps));
        l.checkInterval = PicoSeconds(static_cast<int64_t>(Get("limits.check-interval", false).ps));
        l.wallSeconds = static_cast<double>(Get("limits.wall", false).ps) * 1e-12;
        l.memoryBytes = Get("limits.memory", false).u;
        if (!l.noProgress.IsStrictlyPositive())
        {
            return;
        }
        if (!l.checkInterval.IsStrictlyPositive())
        {
            l.checkInterval = std::max(PicoSeconds(1), l.noProgress / 10);
        }
        else if (l.checkInterval > l.noProgress)
        {
            Fail(Locate("limits.check-interval"),
                 "limits.check-interval",
                 "must not exceed limits.no-progress");
        }
    }

    /**
     * Check that an index given under a fault is below its bound.
     * \param field the field
     * \param v its value
     * \param bound the bound
     * \param what what the bound is, e.g. "pod.accelerators"
     */
    void CheckBelow(const std::string& field,
                    const ScenarioSchema::Value& v,
                    uint64_t bound,
                    const std::string& what) const
    {
        if (v.u >= bound)
        {
            Fail(Locate(field),
                 field,
                 "must be below " + what + " = " + std::to_string(bound) + " (got " + v.text + ")");
        }
    }

    /**
     * Refuse what the flow engine does not model (engine: flow): reads and atomics, faults
     * (links down, bit errors), the invariant checks of the devices.
     * \param sc the scenario
     */
    void CheckFlowEngine(const Scenario& sc) const
    {
        if (sc.engine != "flow")
        {
            return;
        }
        for (std::size_t i = 0; i < sc.workloads.size(); ++i)
        {
            const Scenario::Workload& w = sc.workloads[i];
            if (w.read || w.atomic)
            {
                const std::string p = "workloads[" + std::to_string(i) + "].operation";
                Fail(Locate(p),
                     p,
                     std::string("the flow engine moves writes only (engine: flow); ") +
                         (w.read ? "reads" : "atomics") + " need engine: packet");
            }
        }
        for (const char* key : {"ber", "codeword-error-rate"})
        {
            const double rate =
                std::string(key) == "ber" ? sc.pod.link.ber : sc.pod.link.codewordErrorRate;
            if (rate > 0)
            {
                const std::string p = std::string("pod.link.") + key;
                Fail(Locate(p),
                     p,
                     "the flow engine models no bit error (no loss, no replay, no "
                     "retransmission); run error rates with engine: packet");
            }
        }
        if (!sc.faults.empty())
        {
            Fail(Locate("engine"),
                 "engine",
                 "the flow engine models no fault (links down, bit errors; this scenario has " +
                     std::to_string(sc.faults.size()) + ", the first of kind " +
                     sc.faults.front().kind + "); run faults with engine: packet");
        }
        if (sc.check)
        {
            Fail(Locate("check"),
                 "check",
                 "the invariant checks watch the devices, which the flow engine does not use; "
                 "run them with engine: packet");
        }
    }

    /**
     * Read the faults list (optional; fault campaigns, doc/robustness.rst): each fault names
     * existing accelerators, ports or switches, and its kind must be one the fabric models.
     * The UALink keys pod.ualink.fail-link and fail-* become a link-down fault here.
     * \param sc the scenario (pod read)
     */
    void ReadFaults(Scenario& sc) const
    {
        const Scenario::Pod& pod = sc.pod;
        const FabricKind& kind = PodPlugins::GetFabric(pod.fabric);
        for (const auto& implied : kind.GetImpliedFaults(pod))
        {
            // Faults that the kind's own keys ask for (the older UALink fail-* keys).
            Scenario::Fault f;
            f.kind = implied.kind;
            f.accelerator = implied.accelerator;
            f.plane = implied.plane;
            f.at = implied.at;
            sc.faults.push_back(f);
        }
        const Where list = Locate("faults");
        if (list.node == nullptr)
        {
            return;
        }
        if (!list.node->items.empty())
        {
            kind.CheckFault(*this, pod, "", "faults"); // the list as a whole
        }
        const uint32_t perPlane = PodSwitchesPerPlane(pod, kind);
        for (std::size_t i = 0; i < list.node->items.size(); ++i)
        {
            const std::string p = "faults" + Index(i);
            // Every value given is checked, also those of keys that this kind does not use.
            for (const Entry& e : list.node->items[i].entries)
            {
                if (ScenarioSchema::Find(ScenarioSchema::SchemaPath(p + "." + e.key)) != nullptr)
                {
                    Get(p + "." + e.key, false);
                }
            }
            Scenario::Fault f;
            f.kind = Get(p + ".kind", true).str;
            f.at = PicoSeconds(static_cast<int64_t>(Get(p + ".at", true).ps));
            const bool needsAcc =
                f.kind != "switch-down" &&
                !(f.kind == "bit-errors" && Get(p + ".links", false).str == "all");
            if (needsAcc)
            {
                const auto acc = Get(p + ".accelerator",
                                     true,
                                     nullptr,
                                     "a " + f.kind + " fault names its accelerator");
                CheckBelow(p + ".accelerator", acc, pod.accelerators, "pod.accelerators");
                f.accelerator = static_cast<uint32_t>(acc.u);
            }
            const auto plane = Get(p + ".plane", false);
            CheckBelow(p + ".plane", plane, pod.planes, "pod.planes");
            f.plane = static_cast<uint32_t>(plane.u);
            if (f.kind == "switch-down" || f.kind == "deny-route")
            {
                if (pod.topology == "mesh")
                {
                    Fail(Locate(p + ".kind"),
                         p + ".kind",
                         "a mesh (pod.topology: mesh) has no switches: use link-down or "
                         "accelerator-down");
                }
            }
            if (f.kind == "switch-down")
            {
                const auto swi = Get(p + ".switch", false);
                CheckBelow(p + ".switch", swi, perPlane, "the switches in a plane");
                f.sw = static_cast<uint32_t>(swi.u);
            }
            if (f.kind == "deny-route")
            {
                const auto to = Get(p + ".to", true, nullptr, "a deny-route fault names `to`");
                CheckBelow(p + ".to", to, pod.accelerators, "pod.accelerators");
                if (to.u == f.accelerator)
                {
                    Fail(Locate(p + ".to"),
                         p + ".to",
                         "a route from an accelerator to itself never reaches a switch");
                }
                f.to = static_cast<uint32_t>(to.u);
            }
            if (f.kind == "bit-errors")
            {
                f.allLinks = Get(p + ".links", false).str == "all";
                f.ber = Get(p + ".ber", false).d;
                f.codewordErrorRate = Get(p + ".codeword-error-rate", false).d;
                f.until = PicoSeconds(static_cast<int64_t>(Get(p + ".until", false).ps));
                if (f.ber <= 0 && f.codewordErrorRate <= 0)
                {
                    Fail(Locate(p + ".kind"),
                         p + ".kind",
                         "a bit-errors fault needs ber or codeword-error-rate above 0");
                }
                if (f.until.IsStrictlyPositive() && f.until <= f.at)
                {
                    Fail(Locate(p + ".until"), p + ".until", "must be after at");
                }
            }
            kind.CheckFault(*this, pod, f.kind, p);
            sc.faults.push_back(f);
        }
    }

    void CheckLossless(Scenario& sc) const
    {
        auto& pod = sc.pod;
        std::set<uint32_t> classes;
        bool reads = false;
        for (const auto& w : sc.workloads)
        {
            classes.insert(w.tclass);
            reads = reads || w.read;
        }
        // The classes the fabric uses on its own (SUE: its ACKs, its reads' requests and
        // responses), each with why.
        std::vector<std::string> why;
        const std::vector<uint32_t> own =
            PodPlugins::GetFabric(pod.fabric).GetOwnClasses(pod, reads, why);
        std::map<uint32_t, std::string> reason;
        for (std::size_t i = 0; i < own.size(); ++i)
        {
            classes.insert(own[i]);
            reason[own[i]] = why[i];
        }
        pod.fc.losslessClasses = std::max<uint32_t>(1, classes.size());
        // The workloads' own classes are checked against pod.switch.classes with them; the
        // fabric's own are not written anywhere (a pod of 1 class aborted in FabricPfc,
        // FabricCreditFlowControl or the output queue: found by utils/fuzz_scenarios.py).
        if (*classes.rbegin() >= pod.sw.classes)
        {
            const uint32_t top = *classes.rbegin();
            Fail(Locate("pod.switch.classes"),
                 "pod.switch.classes",
                 "must be at least " + std::to_string(top + 1) + " (got " +
                     std::to_string(pod.sw.classes) + "): " + reason[top]);
        }
        if (pod.fc.kind == "cbfc" &&
            pod.fc.creditBuffer < uint64_t(pod.nic.mtu) + pod.nic.headerBytes)
        {
            // A receive buffer that cannot hold one frame never returns a credit for it: every
            // message would wait for credits that do not come.
            const uint64_t frame = uint64_t(pod.nic.mtu) + pod.nic.headerBytes;
            Fail(Locate("pod.flow-control.credit-buffer"),
                 "pod.flow-control.credit-buffer",
                 "must hold at least one frame, " + std::to_string(frame) +
                     " B (pod.nic.mtu + pod.nic.header-bytes; got " +
                     std::to_string(pod.fc.creditBuffer) +
                     " B): a port would never get the credits to send one");
        }
        if (pod.fc.kind == "none" || pod.topology == "mesh") // a mesh has no switch buffer
        {
            return;
        }
        // Ports of the busiest switch: every accelerator on a single-switch plane, else radix.
        const uint64_t ports = pod.sw.radix >= pod.accelerators ? pod.accelerators : pod.sw.radix;
        const uint64_t prios = pod.fc.losslessClasses;
        const uint64_t buffer = pod.sw.bufferBytes;
        std::ostringstream os;
        if (pod.fc.kind == "cbfc")
        {
            const uint64_t need = ports * prios * pod.fc.creditBuffer + ports * pod.fc.creditPool;
            if (need > buffer)
            {
                os << "the switch buffer (pod.switch.buffer = " << buffer
                   << " B) cannot back the credits its ports advertise: " << ports << " ports x "
                   << prios << " classes in use x " << pod.fc.creditBuffer
                   << " B (plus the pools) = " << need << " B";
                Fail(Locate("pod.flow-control.credit-buffer"),
                     "pod.flow-control.credit-buffer",
                     os.str());
            }
            return;
        }
        // PFC: the automatic headroom of a switch port (the same formula FabricPfc uses).
        const auto& l = pod.link;
        Time oneWay = l.delay;
        if (l.cable != "direct")
        {
            const auto type = FabricChannel::CableTypeFromName(l.cable);
            oneWay = PicoSeconds(static_cast<int64_t>(
                std::llround(l.lengthM * FabricChannel::PicoSecondsPerMetre(type))));
        }
        oneWay += l.fecLatency;
        const uint64_t frame = uint64_t(pod.nic.mtu) + pod.nic.headerBytes;
        const Time frameTime = l.rate.CalculateBytesTxTime(frame + l.interframeBytes);
        const Time pipe = pod.sw.cutThrough ? pod.sw.latency : frameTime + pod.sw.latency;
        const uint64_t headroom = pod.fc.headroomBytes > 0
                                      ? pod.fc.headroomBytes
                                      : FabricPfc::ComputeHeadroom(l.rate,
                                                                   oneWay,
                                                                   pipe,
                                                                   pod.fc.pauseResponse,
                                                                   frame,
                                                                   l.interframeBytes,
                                                                   64);
        const uint64_t share = buffer / (ports * prios);
        const uint64_t xoff = pod.fc.xoffBytes;
        if (xoff == 0 && share <= headroom + frame)
        {
            os << "the switch buffer is too small for lossless PFC: each of " << ports
               << " ports x " << prios << " priorities in use gets " << share
               << " B, which must exceed the PFC headroom (" << headroom
               << " B: the link's round trip, the switch pipeline and two frames) by one "
               << "frame; raise pod.switch.buffer, lower pod.switch.latency or set "
                  "pod.flow-control.xoff and headroom";
            Fail(Locate("pod.switch.buffer"), "pod.switch.buffer", os.str());
        }
        if (xoff > 0 && ports * prios * (xoff + headroom) > buffer)
        {
            os << ports << " ports x " << prios << " priorities x (XOFF " << xoff
               << " B + headroom " << headroom << " B) exceed the switch buffer (" << buffer
               << " B): PFC could not keep the fabric lossless";
            Fail(Locate("pod.flow-control.xoff"), "pod.flow-control.xoff", os.str());
        }
        if (pod.fc.xonBytes > 0 && xoff > 0 && pod.fc.xonBytes >= xoff)
        {
            Fail(Locate("pod.flow-control.xon"),
                 "pod.flow-control.xon",
                 "must be below pod.flow-control.xoff (" + std::to_string(xoff) + " B)");
        }
    }

    /**
     * Check the deadlock monitor's times: with PFC the timeout must exceed the longest pause
     * (a port legitimately paused that long is not deadlocked), and a check must come at
     * least once per timeout.
     * \param pod the pod section
     */
    void CheckDeadlockTimeout(const Scenario::Pod& pod) const
    {
        const auto& fc = pod.fc;
        if (fc.kind == "none" || !fc.deadlockTimeout.IsStrictlyPositive())
        {
            return;
        }
        const Time pause = pod.link.rate.CalculateBytesTxTime(uint64_t(fc.pauseQuanta) * 64);
        if (fc.kind == "pfc" && fc.deadlockTimeout <= pause)
        {
            std::ostringstream os;
            os << "must exceed the longest PFC pause, " << pause.As(Time::US)
               << " (pod.flow-control.pause-quanta x 512 bit times at pod.link.rate): a port "
                  "paused that long is not necessarily deadlocked";
            Fail(Locate("pod.flow-control.deadlock-timeout"),
                 "pod.flow-control.deadlock-timeout",
                 os.str());
        }
        if (fc.deadlockCheckInterval > fc.deadlockTimeout)
        {
            Fail(Locate("pod.flow-control.deadlock-check-interval"),
                 "pod.flow-control.deadlock-check-interval",
                 "must not exceed pod.flow-control.deadlock-timeout");
        }
    }

    /**
     * Check that a plane of switches of this radix can connect the accelerators.
     * \param n accelerators
     * \param r radix
     * \param given the radix was written (not the default)
     */
    void CheckRadix(uint32_t n, uint32_t r, bool given, uint32_t k) const
    {
        if (r >= n)
        {
            return; // one switch per plane
        }
        const uint64_t spines = r / (k + 1);
        const uint64_t down = k * spines; // accelerators per leaf
        if (spines == 0)
        {
            Fail(Locate("pod.switch.oversubscription"),
                 "pod.switch.oversubscription",
                 "radix " + std::to_string(r) + " leaves no spine uplink at oversubscription " +
                     std::to_string(k) + ":1 (needs radix >= k+1)");
        }
        const uint64_t leaves = (n + down - 1) / down;
        if (leaves <= r)
        {
            return; // two tiers
        }
        const uint64_t h = r / 2;
        const uint64_t blocks = h > 0 ? (leaves + h - 1) / h : r + 1;
        if (blocks <= r)
        {
            return; // three tiers: blocks of r/2 leaves under cores of r ports
        }
        std::ostringstream os;
        os << "radix " << r << (given ? "" : " (the default)") << " is too small for " << n
           << " accelerators: one switch needs radix >= " << n << ", two tiers (" << down
           << " accelerators per leaf, " << spines << " spines) need " << leaves
           << " leaves, more than the " << r << " ports of a spine, and three tiers need " << blocks
           << " blocks of " << h << " leaves, more than the " << r << " ports of a core";
        Fail(Locate("pod.switch.radix"), "pod.switch.radix", os.str());
    }

    /**
     * Read a list of accelerator ids.
     * \param lp the list's path
     * \param n accelerators
     * \param what what the entries are, for messages ("accelerator")
     * \return the ids (empty if the list is absent)
     */
    std::vector<uint32_t> ReadIdList(const std::string& lp, uint32_t n) const
    {
        std::vector<uint32_t> ids;
        const Where list = Locate(lp);
        if (list.node == nullptr)
        {
            return ids;
        }
        if (list.node->items.empty())
        {
            Fail(list, lp, "must list at least one accelerator");
        }
        ScenarioSchema::Key element;
        element.type = ScenarioSchema::UINT;
        std::map<uint32_t, std::size_t> seen;
        for (std::size_t j = 0; j < list.node->items.size(); ++j)
        {
            const std::string ep = lp + Index(j);
            const Where ew = Locate(ep);
            uint32_t a = 0;
            try
            {
                a = static_cast<uint32_t>(ScenarioSchema::Parse(element, ew.node->scalar).u);
            }
            catch (const std::invalid_argument& e)
            {
                Fail(ew, ep, e.what());
            }
            if (a >= n)
            {
                Fail(ew,
                     ep,
                     "accelerator " + std::to_string(a) +
                         " does not exist (pod.accelerators = " + std::to_string(n) + ")");
            }
            const auto dup = seen.find(a);
            if (dup != seen.end())
            {
                Fail(ew,
                     ep,
                     "accelerator " + std::to_string(a) + " is listed twice (also " + lp +
                         Index(dup->second) + ")");
            }
            seen[a] = j;
            ids.push_back(a);
        }
        return ids;
    }

    /**
     * Read and check a collective (of a workload or a DAG node) and its algorithm.
     * \param p its path
     * \param n accelerators
     * \param c the collective
     */
    void ReadCollective(const std::string& p,
                        uint32_t n,
                        Scenario::Collective& c,
                        uint32_t communicators = 1) const
    {
        c.collective = Get(p + ".collective", true, nullptr, "required for collectives").str;
        CollectiveSpec spec;
        CollectiveSpec::ParseType(c.collective, spec.type);
        bool algGiven = false;
        const auto alg = Get(p + ".algorithm", false, &algGiven);
        c.algorithm = algGiven ? alg.str : CollectiveHelper::DefaultAlgorithm(spec.type);
        c.group = ReadIdList(p + ".group", n);
        const uint32_t members = c.group.empty() ? n : c.group.size();
        if (members % communicators != 0)
        {
            Fail(Locate(p + ".communicators"),
                 p + ".communicators",
                 "must divide the group's " + std::to_string(members) +
                     " members into equal communicators (got " + std::to_string(communicators) +
                     ")");
        }
        // Each communicator is a group of its own: the algorithm is checked on that size.
        const uint32_t ranks = members / communicators;
        spec.ranks = ranks;
        const auto root = Get(p + ".root", false);
        if (root.u >= ranks)
        {
            Fail(Locate(p + ".root"),
                 p + ".root",
                 "must be a rank of the group, below " + std::to_string(ranks) + " (got " +
                     root.text + ")");
        }
        c.root = static_cast<uint32_t>(root.u);
        spec.root = c.root;
        const bool noSize =
            spec.type == CollectiveSpec::BARRIER || spec.type == CollectiveSpec::ALL_TO_ALL_V;
        bool sizeGiven = false;
        const auto size = Get(p + ".size", false, &sizeGiven);
        if (!noSize && !sizeGiven)
        {
            Fail(Locate(p + ".size"), p + ".size", "required for a " + c.collective);
        }
        if (spec.type == CollectiveSpec::ALL_TO_ALL_V && sizeGiven)
        {
            Fail(Locate(p + ".size"), p + ".size", "an all-to-all-v takes size-matrix, not size");
        }
        c.bytes = size.u;
        spec.bytes = c.bytes;
        const std::string mp = p + ".size-matrix";
        const Where matrix = Locate(mp);
        if (matrix.node != nullptr && spec.type != CollectiveSpec::ALL_TO_ALL_V)
        {
            Fail(matrix, mp, "only for all-to-all-v (this is " + c.collective + ")");
        }
        if (spec.type == CollectiveSpec::ALL_TO_ALL_V)
        {
            if (matrix.node == nullptr)
            {
                Fail(matrix, mp, "required for an all-to-all-v");
            }
            if (matrix.node->items.size() != uint64_t(ranks) * ranks)
            {
                Fail(matrix,
                     mp,
                     "has " + std::to_string(matrix.node->items.size()) + " entries; a group of " +
                         std::to_string(ranks) + " needs " +
                         std::to_string(uint64_t(ranks) * ranks) + " (n*n, row-major)");
            }
            ScenarioSchema::Key element;
            element.type = ScenarioSchema::SIZE;
            for (std::size_t j = 0; j < matrix.node->items.size(); ++j)
            {
                const Where ew = Locate(mp + Index(j));
                try
                {
                    c.sizes.push_back(ScenarioSchema::Parse(element, ew.node->scalar).u);
                }
                catch (const std::invalid_argument& e)
                {
                    Fail(ew, mp + Index(j), e.what());
                }
            }
            spec.sizes = c.sizes;
        }
        c.chunks = static_cast<uint32_t>(Get(p + ".chunks", false).u);
        c.chunksInFlight = static_cast<uint32_t>(Get(p + ".chunks-in-flight", false).u);
        c.stripes = static_cast<uint32_t>(Get(p + ".stripes", false).u);
        c.reduceCost = PicoSeconds(static_cast<uint64_t>(Get(p + ".reduce-cost", false).ps));
        bool gsGiven = false;
        const auto gs = Get(p + ".group-size", false, &gsGiven);
        c.groupSize = gsGiven ? static_cast<uint32_t>(gs.u) : 0;
        if (gsGiven && c.algorithm != "hierarchical")
        {
            Fail(Locate(p + ".group-size"),
                 p + ".group-size",
                 "only for the hierarchical algorithm (this one is " + c.algorithm + ")");
        }
        // The algorithm must implement the collective on this group: ask it.
        CollectiveHelper h;
        if (c.groupSize)
        {
            h.SetAlgorithmAttribute("GroupSize", UintegerValue(c.groupSize));
        }
        Ptr<CollectiveAlgorithm> algorithm;
        try
        {
            algorithm = h.CreateAlgorithm(c.algorithm, spec);
        }
        catch (const std::invalid_argument& e)
        {
            const std::string field = algGiven ? p + ".algorithm" : p + ".collective";
            Fail(Locate(field), p + ".algorithm", e.what());
        }
        // The executor keeps a state per rank and chunk, and posts the first step of every
        // chunk in flight at once: 1048576 chunks of a 512 B all-to-all of 24 ranks in 4
        // stripes were 2e9 messages and std::bad_alloc (found by utils/fuzz_scenarios.py).
        const uint64_t chunkStates = uint64_t(ranks) * c.chunks;
        if (chunkStates > MAX_CHUNK_STATES)
        {
            Fail(Locate(p + ".chunks"),
                 p + ".chunks",
                 std::to_string(c.chunks) + " chunks over " + std::to_string(ranks) +
                     " ranks are " + std::to_string(chunkStates) + " chunk states, more than " +
                     std::to_string(MAX_CHUNK_STATES) + ": use fewer chunks");
        }
        std::vector<CollectiveOp> ops;
        if (algorithm->GetNSteps() > 0)
        {
            algorithm->GetStep(0, 0, ops);
        }
        const uint64_t window =
            c.chunksInFlight == 0 ? c.chunks : std::min(c.chunksInFlight, c.chunks);
        const uint64_t atOnce =
            uint64_t(ranks) * window * c.stripes * std::max<uint64_t>(1, ops.size());
        if (atOnce > MAX_MESSAGES_AT_ONCE)
        {
            Fail(Locate(p + ".chunks"),
                 p + ".chunks",
                 std::to_string(window) + " chunks in flight of " + std::to_string(ranks) +
                     " ranks, each posting " + std::to_string(ops.size()) + " operations of " +
                     std::to_string(c.stripes) + " stripes in its first step, are " +
                     std::to_string(atOnce) + " messages at once, more than " +
                     std::to_string(MAX_MESSAGES_AT_ONCE) +
                     ": use fewer chunks or set chunks-in-flight");
        }
    }

    /**
     * Read and check the nodes of a DAG.
     * \param p the workload's path
     * \param n accelerators
     * \param w the workload
     */
    void ReadDagNodes(const std::string& p, uint32_t n, Scenario::Workload& w) const
    {
        const std::string lp = p + ".nodes";
        const Where list = Locate(lp);
        if (list.node->items.empty())
        {
            Fail(list, lp, "must have at least one node");
        }
        static const std::map<std::string, std::vector<std::string>> keysOf = {
            {"compute", {"duration", "group"}},
            {"collective",
             {"collective",
              "algorithm",
              "group",
              "root",
              "size",
              "size-matrix",
              "chunks",
              "chunks-in-flight",
              "stripes",
              "reduce-cost",
              "group-size"}},
            {"send", {"src", "dst", "size"}},
        };
        std::map<std::string, std::size_t> names;
        for (std::size_t j = 0; j < list.node->items.size(); ++j)
        {
            const Node& item = list.node->items[j];
            const std::string np = lp + Index(j);
            Scenario::DagNode d;
            d.name = Get(np + ".name", true).str;
            d.kind = Get(np + ".kind", true).str;
            const auto other = names.find(d.name);
            if (other != names.end())
            {
                Fail(Locate(np + ".name"),
                     np + ".name",
                     "duplicate node name '" + d.name + "' (also nodes" + Index(other->second) +
                         ")");
            }
            names[d.name] = j;
            const auto& allowed = keysOf.at(d.kind);
            for (const auto& e : item.entries)
            {
                if (e.key != "name" && e.key != "kind" && e.key != "deps" &&
                    std::find(allowed.begin(), allowed.end(), e.key) == allowed.end())
                {
                    Fail({nullptr, e.line, e.fromSet},
                         np + "." + e.key,
                         "not a key of " + d.kind + " nodes");
                }
            }
            if (d.kind == "compute")
            {
                d.duration = PicoSeconds(static_cast<uint64_t>(Get(np + ".duration", false).ps));
                d.group = ReadIdList(np + ".group", n);
            }
            else if (d.kind == "collective")
            {
                ReadCollective(np, n, d.coll);
            }
            else
            {
                d.src = static_cast<uint32_t>(Get(np + ".src", true).u);
                d.dst = static_cast<uint32_t>(Get(np + ".dst", true).u);
                d.bytes = Get(np + ".size", true, nullptr, "required for send nodes").u;
                for (const char* key : {"src", "dst"})
                {
                    const uint32_t v = std::string(key) == "src" ? d.src : d.dst;
                    if (v >= n)
                    {
                        Fail(Locate(np + "." + key),
                             np + "." + key,
                             "accelerator " + std::to_string(v) +
                                 " does not exist (pod.accelerators = " + std::to_string(n) + ")");
                    }
                }
                if (d.src == d.dst)
                {
                    Fail(Locate(np + ".dst"), np + ".dst", "a send needs two accelerators");
                }
            }
            const Where deps = Locate(np + ".deps");
            if (deps.node != nullptr)
            {
                for (const auto& dep : deps.node->items)
                {
                    d.deps.push_back(dep.scalar);
                }
            }
            w.nodes.push_back(d);
        }
        // Every dependency names a node; no cycle (depth-first search, colours 0/1/2).
        for (std::size_t j = 0; j < w.nodes.size(); ++j)
        {
            for (std::size_t k = 0; k < w.nodes[j].deps.size(); ++k)
            {
                if (names.find(w.nodes[j].deps[k]) == names.end())
                {
                    const std::string dp = lp + Index(j) + ".deps" + Index(k);
                    Fail(Locate(dp), dp, "no node is named '" + w.nodes[j].deps[k] + "'");
                }
            }
        }
        std::vector<int> colour(w.nodes.size(), 0);
        std::vector<std::size_t> stack;
        std::function<void(std::size_t)> visit = [&](std::size_t j) {
            colour[j] = 1;
            stack.push_back(j);
            for (std::size_t k = 0; k < w.nodes[j].deps.size(); ++k)
            {
                const std::size_t d = names.at(w.nodes[j].deps[k]);
                if (colour[d] == 1)
                {
                    std::string cycle;
                    auto from = std::find(stack.begin(), stack.end(), d);
                    for (auto it = from; it != stack.end(); ++it)
                    {
                        cycle += w.nodes[*it].name + " <- ";
                    }
                    cycle += w.nodes[d].name;
                    const std::string dp = lp + Index(j) + ".deps" + Index(k);
                    Fail(Locate(dp), dp, "dependency cycle: " + cycle);
                }
                if (colour[d] == 0)
                {
                    visit(d);
                }
            }
            stack.pop_back();
            colour[j] = 2;
        };
        for (std::size_t j = 0; j < w.nodes.size(); ++j)
        {
            if (colour[j] == 0)
            {
                visit(j);
            }
        }
    }

    /**
     * Read a DAG workload: inline nodes, or a file of nodes beside the scenario.
     * \param p the workload's path
     * \param index the workload's index
     * \param n accelerators
     * \param w the workload
     */
    void ReadDag(const std::string& p, std::size_t index, uint32_t n, Scenario::Workload& w) const
    {
        const Where file = Locate(p + ".file");
        const Where nodes = Locate(p + ".nodes");
        if (file.node != nullptr && nodes.node != nullptr)
        {
            Fail(file, p + ".file", "give either file or nodes, not both");
        }
        if (file.node == nullptr && nodes.node == nullptr)
        {
            Fail(Locate(p), p + ".nodes", "required key is missing (give nodes or file)");
        }
        if (nodes.node != nullptr)
        {
            ReadDagNodes(p, n, w);
            return;
        }
        namespace fs = std::filesystem;
        const std::string name = Get(p + ".file", false).str;
        fs::path path(name);
        if (path.is_relative() && !file.fromSet)
        {
            path = fs::path(m_file).parent_path() / path;
        }
        w.dagFile = path.string();
        std::string text;
        const std::string readError = ReadFileText(w.dagFile, "DAG file " + w.dagFile, text);
        if (!readError.empty())
        {
            Fail(file, p + ".file", readError);
        }
        const YAML::Node doc = LoadOneDocument(text, w.dagFile);
        // The file's tree is placed where inline nodes would be, in a tree of its own, so that
        // errors name the DAG file, its lines and the workload's field paths.
        Node root;
        root.kind = Node::MAP;
        root.line = 1;
        Entry workloads;
        workloads.key = "workloads";
        workloads.value.kind = Node::SEQ;
        workloads.value.items.resize(index + 1);
        // The workloads before this one are empty maps, valid in any shape check (as empty
        // values, a DAG file of any workload but the first was refused with "workloads[0]:
        // expected a map of keys": found by utils/fuzz_scenarios.py).
        for (auto& placeholder : workloads.value.items)
        {
            placeholder.kind = Node::MAP;
            placeholder.line = 1;
        }
        ValueBudget budget;
        Node dag = Convert(doc, 1, false, w.dagFile, p, budget);
        for (const auto& e : dag.entries)
        {
            if (e.key != "nodes") // at its line rather than the file's first
            {
                throw ScenarioError(w.dagFile,
                                    e.line,
                                    p + "." + e.key,
                                    "unknown key (a DAG file is a map with one key, nodes: the "
                                    "list of nodes)");
            }
        }
        if (dag.kind != Node::MAP || dag.Find("nodes") == nullptr)
        {
            throw ScenarioError(w.dagFile,
                                dag.line,
                                p,
                                "a DAG file is a map with one key, nodes: (the list of nodes)");
        }
        workloads.value.items[index] = dag;
        root.entries.push_back(workloads);
        Loader sub(w.dagFile, root);
        sub.CheckShape(root, "", "");
        const Where list = sub.Locate(p + ".nodes");
        if (list.node->kind != Node::SEQ)
        {
            sub.Fail(list, p + ".nodes", "expected a list of nodes");
        }
        sub.ReadDagNodes(p, n, w);
    }

    /**
     * Read a workload of a plug-in kind (WorkloadKind, e.g. a Pyxis model): the kind reads and
     * checks its keys.
     * \param p the workload's path
     * \param sc the scenario, pod already filled
     * \param kind the workload's kind
     * \param w the workload
     */
    void ReadPlugin(const std::string& p,
                    const Scenario& sc,
                    const WorkloadKind& kind,
                    Scenario::Workload& w) const
    {
        WorkloadKind::Context context;
        context.scenarioFile = m_file;
        context.accelerators = sc.pod.accelerators;
        context.workloads = Locate("workloads").node->items.size();
        context.start = w.start;
        context.fabric = sc.pod.fabric;
        w.config = kind.Read(*this, p, context);
    }

    /**
     * Check the DAG a plug-in kind's workload produced (ScenarioDag::Check) and resolve its
     * collectives' algorithms: the collective's default where the program names none, and each
     * algorithm asked whether it implements its collective on its group (as for a `kind: dag`
     * collective node). Errors name the workload and the node.
     * \param p the workload's path
     * \param n accelerators
     * \param config the workload's configuration (its source file names the errors)
     * \param program its DAG
     * \return the DAG the pod runs
     */
    std::shared_ptr<const DagProgram> ResolveProgram(const std::string& p,
                                                     uint32_t n,
                                                     const WorkloadConfig& config,
                                                     const DagProgram& program) const
    {
        const std::string source = config.GetSourceFile();
        const std::string from = source.empty() ? "" : " (from " + source + ")";
        const std::string problem = ScenarioDag::Check(program, n);
        if (!problem.empty())
        {
            Fail(Locate(p + ".kind"), p, problem + from);
        }
        auto out = std::make_shared<DagProgram>(program);
        // One check per distinct collective shape: a training step repeats a few thousand times.
        std::set<std::string> checked;
        for (DagProgram::Node& d : out->nodes)
        {
            if (d.kind != DagProgram::COLLECTIVE)
            {
                continue;
            }
            CollectiveSpec spec;
            if (!CollectiveSpec::ParseType(d.collective, spec.type))
            {
                Fail(Locate(p + ".kind"),
                     p,
                     "node '" + d.name + "'" + from + ": unknown collective '" + d.collective +
                         "'");
            }
            if (d.algorithm.empty())
            {
                d.algorithm = CollectiveHelper::DefaultAlgorithm(spec.type);
            }
            spec.ranks = d.participants.size();
            spec.root = d.root;
            spec.bytes = d.bytes;
            spec.sizes = d.sizes;
            const std::string shape = d.collective + "/" + d.algorithm + "/" +
                                      std::to_string(spec.ranks) + "/" + std::to_string(d.root) +
                                      "/" + std::to_string(d.groupSize) + "/" +
                                      std::to_string(d.sizes.size());
            if (!checked.insert(shape).second)
            {
                continue;
            }
            CollectiveHelper h;
            if (d.groupSize)
            {
                h.SetAlgorithmAttribute("GroupSize", UintegerValue(d.groupSize));
            }
            try
            {
                h.CreateAlgorithm(d.algorithm, spec);
            }
            catch (const std::invalid_argument& e)
            {
                Fail(Locate(p + ".kind"), p, "node '" + d.name + "'" + from + ": " + e.what());
            }
        }
        return out;
    }

    /**
     * Read and check the workloads.
     * \param sc the scenario, pod already filled
     */
    void ReadWorkloads(Scenario& sc) const
    {
        const uint32_t n = sc.pod.accelerators;
        const Where list = Locate("workloads");
        if (list.node == nullptr)
        {
            Fail(list, "workloads", "required key is missing (give at least one workload)");
        }
        if (list.node->items.empty())
        {
            Fail(list, "workloads", "must have at least one workload");
        }
        std::map<std::string, std::size_t> names;
        for (std::size_t i = 0; i < list.node->items.size(); ++i)
        {
            const Node& item = list.node->items[i];
            const std::string p = "workloads" + Index(i);
            Scenario::Workload w;
            w.kind = Get(p + ".kind", true).str;
            // Keys that belong to other kinds.
            for (const auto& e : item.entries)
            {
                const auto* key = ScenarioSchema::Find("workloads[]." + e.key);
                if (!key->kinds.empty() &&
                    std::find(key->kinds.begin(), key->kinds.end(), w.kind) == key->kinds.end())
                {
                    std::string kinds;
                    for (const auto& k : key->kinds)
                    {
                        kinds += (kinds.empty() ? "" : ", ") + k;
                    }
                    Fail({nullptr, e.line, e.fromSet},
                         p + "." + e.key,
                         "only for " + kinds + " workloads (this one is " + w.kind + ")");
                }
            }
            bool named = false;
            const auto name = Get(p + ".name", false, &named);
            w.name = named ? name.str : w.kind + "-" + std::to_string(i);
            const auto other = names.find(w.name);
            if (other != names.end())
            {
                Fail(Locate(named ? p + ".name" : p),
                     p + ".name",
                     "duplicate workload name '" + w.name + "' (also workloads" +
                         Index(other->second) + ")");
            }
            names[w.name] = i;
            const WorkloadKind* plugin = PodPlugins::FindWorkload(w.kind);
            if (w.kind != "collective" && w.kind != "dag" && plugin == nullptr)
            {
                w.bytes = Get(p + ".size", true).u;
            }
            w.start = PicoSeconds(static_cast<uint64_t>(Get(p + ".start", false).ps));
            if (w.kind == "all-to-all")
            {
                w.communicators = static_cast<uint32_t>(Get(p + ".communicators", false).u);
                if (n % w.communicators != 0 || n / w.communicators < 2)
                {
                    Fail(Locate(p + ".communicators"),
                         p + ".communicators",
                         "must divide pod.accelerators = " + std::to_string(n) +
                             " into equal communicators of at least 2 (got " +
                             std::to_string(w.communicators) + ")");
                }
            }
            if (w.kind == "incast" || w.kind == "permutation" || w.kind == "all-to-all")
            {
                const std::string op = Get(p + ".operation", false).str;
                w.read = op == "read";
                w.atomic = op == "atomic";
                CheckOperation(p, sc.pod.fabric, w);
            }
            const auto tclass = Get(p + ".class", false);
            if (tclass.u >= sc.pod.sw.classes)
            {
                Fail(Locate(p + ".class"),
                     p + ".class",
                     "must be less than pod.switch.classes = " + std::to_string(sc.pod.sw.classes) +
                         " (got " + tclass.text + ")");
            }
            w.tclass = static_cast<uint8_t>(tclass.u);
            if (w.kind == "incast")
            {
                ReadIncast(p, n, w);
            }
            else if (w.kind == "collective")
            {
                w.iterations = static_cast<uint32_t>(Get(p + ".iterations", false).u);
                w.communicators = static_cast<uint32_t>(Get(p + ".communicators", false).u);
                ReadCollective(p, n, w.coll, w.communicators);
                w.bytes = w.coll.bytes;
            }
            else if (w.kind == "dag")
            {
                w.iterations = static_cast<uint32_t>(Get(p + ".iterations", false).u);
                ReadDag(p, i, n, w);
                w.program = ScenarioDag::FromNodes(w, n);
            }
            else if (plugin != nullptr)
            {
                ReadPlugin(p, sc, *plugin, w);
                if (auto program = w.config->GetDag())
                {
                    w.program = ResolveProgram(p, n, *w.config, *program);
                    w.iterations = w.program->iterations;
                }
            }
            else if (n < 2)
            {
                Fail(Locate(p + ".kind"),
                     p + ".kind",
                     "a " + w.kind + " needs at least 2 accelerators (pod.accelerators = " +
                         std::to_string(n) + ")");
            }
            sc.workloads.push_back(w);
        }
    }

    /**
     * Check a workload's operation (workloads[].operation) against the fabric's: reads and
     * atomics need a fabric that offers them (FabricKind::GetOperations), within its limits
     * (FabricKind::CheckOperation).
     * \param p the workload's path
     * \param fabric pod.fabric
     * \param w the workload (size, read and atomic read)
     */
    void CheckOperation(const std::string& p,
                        const std::string& fabric,
                        const Scenario::Workload& w) const
    {
        if (!w.read && !w.atomic)
        {
            return;
        }
        const uint32_t op = w.read ? FabricKind::READ : FabricKind::ATOMIC;
        const FabricKind& kind = PodPlugins::GetFabric(fabric);
        const std::string offering =
            KindsWith([op](const FabricKind& k) { return (k.GetOperations() & op) != 0; }, " or ");
        if (!(kind.GetOperations() & op))
        {
            Fail(Locate(p + ".operation"),
                 p + ".operation",
                 w.read ? "reads need a fabric with a read operation (pod.fabric: " + offering +
                              "); the " + fabric + " fabric only writes"
                        : "atomics need a fabric with atomic operations (pod.fabric: " + offering +
                              "); the " + fabric + " fabric has none");
        }
        const std::string why = kind.CheckOperation(op, w.bytes);
        if (!why.empty())
        {
            Fail(Locate(p + ".size"), p + ".size", why);
        }
    }

    /**
     * Read and check the keys of an incast.
     * \param p the workload's path
     * \param n accelerators
     * \param w the workload
     */
    void ReadIncast(const std::string& p, uint32_t n, Scenario::Workload& w) const
    {
        const auto senders = Get(p + ".senders", true, nullptr, "required for incast workloads");
        if (senders.u > n - 1)
        {
            Fail(Locate(p + ".senders"),
                 p + ".senders",
                 "must be at most pod.accelerators - 1 = " + std::to_string(n - 1) + " (got " +
                     senders.text + ")");
        }
        w.senders = static_cast<uint32_t>(senders.u);
        const auto receiver = Get(p + ".receiver", false);
        if (receiver.u >= n)
        {
            Fail(Locate(p + ".receiver"),
                 p + ".receiver",
                 "must be less than pod.accelerators = " + std::to_string(n) + " (got " +
                     receiver.text + ")");
        }
        w.receiver = static_cast<uint32_t>(receiver.u);
        const std::string lp = p + ".sender-list";
        const Where list = Locate(lp);
        if (list.node == nullptr)
        {
            return;
        }
        if (list.node->items.size() != w.senders)
        {
            Fail(list,
                 lp,
                 "has " + std::to_string(list.node->items.size()) + " entries but senders is " +
                     std::to_string(w.senders));
        }
        ScenarioSchema::Key element;
        element.type = ScenarioSchema::UINT;
        std::map<uint32_t, std::size_t> seen;
        for (std::size_t j = 0; j < list.node->items.size(); ++j)
        {
            const std::string ep = lp + Index(j);
            const Where ew = Locate(ep);
            uint32_t s = 0;
            try
            {
                s = static_cast<uint32_t>(ScenarioSchema::Parse(element, ew.node->scalar).u);
            }
            catch (const std::invalid_argument& e)
            {
                Fail(ew, ep, e.what());
            }
            if (s >= n)
            {
                Fail(ew,
                     ep,
                     "must be less than pod.accelerators = " + std::to_string(n) + " (got " +
                         ew.node->scalar + ")");
            }
            if (s == w.receiver)
            {
                Fail(ew, ep, "is the receiver (" + std::to_string(s) + "); it cannot also send");
            }
            const auto dup = seen.find(s);
            if (dup != seen.end())
            {
                Fail(ew,
                     ep,
                     "duplicate sender " + std::to_string(s) + " (also sender-list" +
                         Index(dup->second) + ")");
            }
            seen[s] = j;
            w.senderList.push_back(s);
        }
    }

    const std::string& m_file; //!< file name for errors
    const Node& m_root;        //!< the tree
};

/**
 * Mark a tree as written at a line of the file (an override from the file's study.quick).
 * \param n the tree
 * \param line the line
 */
void
MarkLine(Node& n, uint32_t line)
{
    n.fromSet = false;
    n.line = line;
    for (auto& e : n.entries)
    {
        e.fromSet = false;
        e.line = line;
        MarkLine(e.value, line);
    }
    for (auto& item : n.items)
    {
        MarkLine(item, line);
    }
}

/**
 * Check an override's path against the schema (list indices where the schema has lists,
 * known keys, nothing below a scalar).
 * \param segments the path's components
 * \param path the path, for errors
 * \param set where errors are (see ApplyOverride)
 * \param line the override's line (0 for --set)
 * \return the value is one scalar (else a section or a list, written as YAML)
 */
bool
CheckOverridePath(const std::vector<Segment>& segments,
                  const std::string& path,
                  const std::string& set,
                  uint32_t line)
{
    std::string schemaPath;
    const ScenarioSchema::Key* key = nullptr;
    bool scalar = false; // the value is one scalar
    for (std::size_t i = 0; i < segments.size(); ++i)
    {
        const Segment& s = segments[i];
        if (s.isIndex)
        {
            if (key->type != ScenarioSchema::LIST)
            {
                throw ScenarioError(set, line, path, key->path + " is not a list");
            }
            schemaPath += "[]";
            scalar = key->element != ScenarioSchema::MAP;
            if (scalar && i + 1 < segments.size())
            {
                throw ScenarioError(set, line, path, "unknown key");
            }
            continue;
        }
        if (key != nullptr && key->type == ScenarioSchema::LIST && !segments[i - 1].isIndex)
        {
            throw ScenarioError(set,
                                line,
                                path,
                                key->path + " is a list: give an index, e.g. " + key->path +
                                    "[0]." + s.name);
        }
        schemaPath = Child(schemaPath, s.name);
        if (key != nullptr && key->type != ScenarioSchema::MAP && key->type != ScenarioSchema::LIST)
        {
            key = nullptr; // a name below a scalar
        }
        else
        {
            key = ScenarioSchema::Find(schemaPath);
        }
        if (key == nullptr)
        {
            std::string message = "unknown key";
            const std::string suggestion =
                ScenarioSchema::Suggest(ScenarioSchema::SchemaPath(path));
            if (!suggestion.empty())
            {
                message += "; did you mean '" + suggestion + "'?";
            }
            throw ScenarioError(set, line, path, message);
        }
        scalar = key->type != ScenarioSchema::MAP && key->type != ScenarioSchema::LIST;
    }
    return scalar;
}

/**
 * The value of an override as a tree, marked as written by --set or at the override's line.
 * \param scalar the value is one scalar (CheckOverridePath())
 * \param value the value as written
 * \param file the file name, for errors about the file's structure
 * \param path the path, for errors
 * \param set where errors are (see ApplyOverride)
 * \param line the override's line (0 for --set)
 * \return the tree
 */
Node
OverrideValue(bool scalar,
              const std::string& value,
              const std::string& file,
              const std::string& path,
              const std::string& set,
              uint32_t line)
{
    // The value: one scalar as written, or YAML (flow style) for a section or a list.
    Node v;
    if (scalar)
    {
        v.kind = Node::SCALAR;
        v.scalar = Trim(value);
    }
    else
    {
        try
        {
            ValueBudget budget;
            v = Convert(YAML::Load(value), 0, true, file, path, budget);
        }
        catch (const YAML::Exception& e)
        {
            throw ScenarioError(set, line, path, "bad YAML value: " + YamlMessage(e));
        }
    }
    if (line == 0)
    {
        MarkFromSet(v);
    }
    else
    {
        MarkLine(v, line);
    }
    return v;
}

/**
 * Walk down the tree along an override's path, creating the maps, entries and the list
 * element one past the end that are missing.
 * \param root the tree
 * \param segments the path's components
 * \param path the path, for errors
 * \param file the file name, for errors about the file's structure
 * \param set where errors are (see ApplyOverride)
 * \param line the override's line (0 for --set)
 * \return the node the value replaces
 */
Node*
OverrideTarget(Node& root,
               const std::vector<Segment>& segments,
               const std::string& path,
               const std::string& file,
               const std::string& set,
               uint32_t line)
{
    Node* cur = &root;
    std::string walked;
    for (const auto& s : segments)
    {
        if (s.isIndex)
        {
            if (cur->kind == Node::NUL)
            {
                cur->kind = Node::SEQ;
            }
            if (cur->kind != Node::SEQ)
            {
                throw ScenarioError(set,
                                    line,
                                    path,
                                    "cannot set: " + walked + " in " + file + " is not a list");
            }
            if (s.index > cur->items.size())
            {
                throw ScenarioError(set,
                                    line,
                                    path,
                                    "index " + std::to_string(s.index) + " is out of range (" +
                                        walked + " has " + std::to_string(cur->items.size()) +
                                        " entries; index " + std::to_string(cur->items.size()) +
                                        " adds one)");
            }
            if (s.index == cur->items.size())
            {
                Node item;
                item.fromSet = true;
                cur->items.push_back(item);
            }
            cur = &cur->items[s.index];
            walked += Index(s.index);
            continue;
        }
        if (cur->kind == Node::NUL)
        {
            cur->kind = Node::MAP;
        }
        if (cur->kind != Node::MAP)
        {
            throw ScenarioError(set,
                                line,
                                path,
                                "cannot set: " + (walked.empty() ? "the top level" : walked) +
                                    " in " + file + " is not a map");
        }
        Entry* e = cur->Find(s.name);
        if (e == nullptr)
        {
            Entry created;
            created.key = s.name;
            created.fromSet = line == 0;
            created.line = line;
            created.value.fromSet = line == 0;
            created.value.line = line;
            cur->entries.push_back(created);
            e = &cur->entries.back();
        }
        cur = &e->value;
        walked = Child(walked, s.name);
    }
    return cur;
}

/**
 * Apply one override to the tree.
 * \param root the tree
 * \param arg `KEY=VALUE`
 * \param file the file name, for errors about the file's structure
 * \param set where errors about the override itself are: ScenarioError::OVERRIDE_FILE, or the
 * file for an override written in it (study.quick)
 * \param line the override's line in that file (0 for --set); its values carry it
 */
void
ApplyOverride(Node& root,
              const std::string& arg,
              const std::string& file,
              const std::string& set,
              uint32_t line)
{
    const auto eq = arg.find('=');
    if (eq == std::string::npos)
    {
        throw ScenarioError(set, line, "", "expected KEY=VALUE, got '" + arg + "'");
    }
    const std::string path = Trim(arg.substr(0, eq));
    const std::string value = arg.substr(eq + 1);
    std::vector<Segment> segments;
    if (!SplitPath(path, segments) || segments.front().isIndex)
    {
        throw ScenarioError(set,
                            line,
                            path,
                            "bad key (expected dotted names with list indices, e.g. "
                            "workloads[0].size)");
    }
    const bool scalar = CheckOverridePath(segments, path, set, line);
    const Node v = OverrideValue(scalar, value, file, path, set, line);
    *OverrideTarget(root, segments, path, file, set, line) = v;
    NS_LOG_INFO("override " << path << " = " << value);
}

/**
 * Apply one --set override to the tree.
 * \param root the tree
 * \param arg `KEY=VALUE`
 * \param file the file name, for errors about the file's structure
 */
void
ApplyOverride(Node& root, const std::string& arg, const std::string& file)
{
    ApplyOverride(root, arg, file, ScenarioError::OVERRIDE_FILE, 0);
}

/**
 * Merge a tree over another: maps key by key (recursively), anything else replaces.
 * \param base the tree merged into
 * \param over the tree whose values win
 */
void
MergeInto(Node& base, const Node& over)
{
    if (base.kind != Node::MAP || over.kind != Node::MAP)
    {
        base = over;
        return;
    }
    for (const auto& e : over.entries)
    {
        Entry* b = base.Find(e.key);
        if (b == nullptr)
        {
            base.entries.push_back(e);
        }
        else
        {
            MergeInto(b->value, e.value);
        }
    }
}

/// The study section of a file (src/pod/doc/pod.rst, Studies), checked.
struct StudyShape
{
    const Node* fabrics{nullptr};           //!< study.fabrics (a SEQ of MAPs with name and pod)
    const Node* workloads{nullptr};         //!< study.workloads (a SEQ of MAPs with a name)
    std::vector<std::string> fabricNames;   //!< the fabrics' names, in file order
    std::vector<std::string> workloadNames; //!< the workloads' names, in file order
    uint32_t workloadsLine{0};              //!< line of the study.workloads key
    bool workloadsFromSet{false};           //!< study.workloads came from --set
};

/**
 * Throw an error at a node of the tree.
 * \param file the file
 * \param line the line (0: unknown)
 * \param fromSet the node came from --set
 * \param field the field
 * \param message the message
 */
[[noreturn]] void
FailAt(const std::string& file,
       uint32_t line,
       bool fromSet,
       const std::string& field,
       const std::string& message)
{
    throw ScenarioError(fromSet ? ScenarioError::OVERRIDE_FILE : file,
                        fromSet ? 0 : line,
                        field,
                        message);
}

/**
 * \param name a fabric or workload name of a study
 * \return it is not empty and has only letters, digits, '-', '_' and '.'
 */
bool
IsCaseName(const std::string& name)
{
    if (name.empty())
    {
        return false;
    }
    for (char c : name)
    {
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.')
        {
            return false;
        }
    }
    return true;
}

/**
 * Check study.quick: a list of KEY=VALUE overrides.
 * \param e the study.quick entry
 * \param field its field name
 * \param file the file
 */
void
CheckStudyQuick(const Entry& e, const std::string& field, const std::string& file)
{
    if (e.value.kind != Node::SEQ && e.value.kind != Node::NUL)
    {
        FailAt(file,
               e.line,
               e.fromSet,
               field,
               "expected a list of KEY=VALUE overrides, got " + Describe(e.value.kind));
    }
    for (std::size_t i = 0; i < e.value.items.size(); ++i)
    {
        const Node& item = e.value.items[i];
        if (item.kind != Node::SCALAR || item.scalar.find('=') == std::string::npos)
        {
            FailAt(file,
                   item.line,
                   item.fromSet,
                   field + Index(i),
                   "expected an override KEY=VALUE (e.g. pod.accelerators=64)");
        }
    }
}

/**
 * Check the keys of a study section (fabrics, workloads and quick; quick checked here) and find
 * its two lists.
 * \param sv the study section (a map)
 * \param file the file
 * \param [out] fabrics the study.fabrics entry, or null if there is none
 * \param [out] workloads the study.workloads entry, or null if there is none
 */
void
CheckStudyKeys(const Node& sv,
               const std::string& file,
               const Entry*& fabrics,
               const Entry*& workloads)
{
    for (const auto& e : sv.entries)
    {
        const std::string field = "study." + e.key;
        if (e.key == "fabrics")
        {
            fabrics = &e;
        }
        else if (e.key == "workloads")
        {
            workloads = &e;
        }
        else if (e.key == "quick")
        {
            CheckStudyQuick(e, field, file);
        }
        else
        {
            FailAt(file, e.line, e.fromSet, field, UnknownKeyMessage(field, "study"));
        }
    }
}

/**
 * Check the pod of a fabric of a study: present and a map.
 * \param file the file
 * \param item the fabric (a map)
 * \param itemField its field name (study.fabrics[i])
 */
void
CheckStudyFabricPod(const std::string& file, const Node& item, const std::string& itemField)
{
    const Entry* pod = item.Find("pod");
    if (pod == nullptr)
    {
        FailAt(file, item.line, item.fromSet, itemField + ".pod", "required key is missing");
    }
    if (pod->value.kind != Node::MAP)
    {
        FailAt(file,
               pod->line,
               pod->fromSet,
               itemField + ".pod",
               "expected a map of pod keys, got " + Describe(pod->value.kind));
    }
}

/**
 * Check one element of a study's list of fabrics or workloads: a map of allowed keys, with a
 * name of its own (distinct from the names before it), and for a fabric its pod.
 * \param file the file
 * \param item the element
 * \param field the list's field name (study.fabrics or study.workloads)
 * \param itemField the element's field name (field[i])
 * \param allowed the keys allowed in the element (empty: any, checked when each case is loaded)
 * \param [in,out] names the names of the elements before it; its name is added
 */
void
CheckStudyItem(const std::string& file,
               const Node& item,
               const std::string& field,
               const std::string& itemField,
               const std::set<std::string>& allowed,
               std::vector<std::string>& names)
{
    if (item.kind != Node::MAP)
    {
        FailAt(file,
               item.line,
               item.fromSet,
               itemField,
               "expected a map of keys, got " + Describe(item.kind));
    }
    for (const auto& e : item.entries)
    {
        if (!allowed.empty() && allowed.count(e.key) == 0)
        {
            FailAt(file,
                   e.line,
                   e.fromSet,
                   itemField + "." + e.key,
                   UnknownKeyMessage(field + "[]." + e.key, field + "[]"));
        }
    }
    const Entry* name = item.Find("name");
    if (name == nullptr)
    {
        FailAt(file,
               item.line,
               item.fromSet,
               itemField + ".name",
               "required key is missing (every fabric and workload of a study is "
               "named: it names the case and its row of the table)");
    }
    if (name->value.kind != Node::SCALAR || !IsCaseName(name->value.scalar))
    {
        FailAt(file,
               name->line,
               name->fromSet,
               itemField + ".name",
               "expected a name of letters, digits, '-', '_' and '.'");
    }
    for (const auto& prior : names)
    {
        if (prior == name->value.scalar)
        {
            FailAt(file,
                   name->line,
                   name->fromSet,
                   itemField + ".name",
                   "'" + prior + "' is used twice (names are distinct)");
        }
    }
    names.push_back(name->value.scalar);
    if (field == "study.fabrics")
    {
        CheckStudyFabricPod(file, item, itemField);
    }
}

/**
 * Check one of a study's two lists: present, a list of at least one element, each checked by
 * CheckStudyItem().
 * \param file the file
 * \param st the study entry (where a missing list is reported)
 * \param list the list's entry, or null if it is missing
 * \param field the list's field name (study.fabrics or study.workloads)
 * \param allowed the keys allowed in an element (empty: any)
 * \param [out] names the elements' names, in file order
 */
void
CheckStudyList(const std::string& file,
               const Entry& st,
               const Entry* list,
               const std::string& field,
               const std::set<std::string>& allowed,
               std::vector<std::string>& names)
{
    if (list == nullptr)
    {
        FailAt(file,
               st.line,
               st.fromSet,
               field,
               "required key is missing (a study needs at least one of each: fabrics "
               "and workloads)");
    }
    const Node& v = list->value;
    if (v.kind != Node::SEQ || v.items.empty())
    {
        FailAt(file,
               list->line,
               list->fromSet,
               field,
               "expected a list of at least one map, got " +
                   (v.kind == Node::SEQ ? std::string("an empty list") : Describe(v.kind)));
    }
    for (std::size_t i = 0; i < v.items.size(); ++i)
    {
        CheckStudyItem(file, v.items[i], field, field + Index(i), allowed, names);
    }
}

/**
 * Check a study section's own structure (the keys of its fabrics' pods and of its workloads
 * are checked when each case is loaded).
 * \param root the tree
 * \param file the file
 * \return the study's fabrics and workloads
 */
StudyShape
CheckStudy(const Node& root, const std::string& file)
{
    const Entry* st = root.Find("study");
    NS_ASSERT(st != nullptr);
    if (const Entry* w = root.Find("workloads"))
    {
        FailAt(file,
               w->line,
               w->fromSet,
               "workloads",
               "a study gives its workloads in study.workloads (each runs on every fabric of "
               "study.fabrics); remove the top-level workloads");
    }
    const Node& sv = st->value;
    if (sv.kind != Node::MAP)
    {
        FailAt(file,
               st->line,
               st->fromSet,
               "study",
               "expected a map of keys, got " + Describe(sv.kind));
    }
    StudyShape shape;
    const Entry* fabrics = nullptr;
    const Entry* workloads = nullptr;
    CheckStudyKeys(sv, file, fabrics, workloads);
    // The two lists: each element a map with a distinct name.
    CheckStudyList(file, *st, fabrics, "study.fabrics", {"name", "pod"}, shape.fabricNames);
    CheckStudyList(file, *st, workloads, "study.workloads", {}, shape.workloadNames);
    shape.fabrics = &fabrics->value;
    shape.workloads = &workloads->value;
    shape.workloadsLine = workloads->line;
    shape.workloadsFromSet = workloads->fromSet;
    return shape;
}

/**
 * The tree of one case of a study: the file without study, with the fabric's pod merged over
 * the top-level pod and the workload as the only element of workloads (its engine key, if it
 * has one, becomes the case's engine). Every value keeps its line, so errors in the case name
 * the lines of the file.
 * \param root the study's tree
 * \param shape its study section
 * \param f the fabric's index
 * \param w the workload's index
 * \return the case's tree
 */
Node
ExpandCase(const Node& root, const StudyShape& shape, std::size_t f, std::size_t w)
{
    Node c;
    c.kind = Node::MAP;
    c.line = root.line;
    for (const auto& e : root.entries)
    {
        if (e.key != "study")
        {
            c.entries.push_back(e);
        }
    }
    const Entry* fabricPod = shape.fabrics->items[f].Find("pod");
    Entry* pod = c.Find("pod");
    if (pod == nullptr)
    {
        c.entries.push_back(*fabricPod);
    }
    else
    {
        MergeInto(pod->value, fabricPod->value);
    }
    Entry wl;
    wl.key = "workloads";
    wl.line = shape.workloadsLine;
    wl.fromSet = shape.workloadsFromSet;
    wl.value.kind = Node::SEQ;
    wl.value.line = shape.workloadsLine;
    wl.value.fromSet = shape.workloadsFromSet;
    Node item = shape.workloads->items[w];
    // A study workload's own engine (engine: flow for the realistic sizes): the case's engine.
    for (auto it = item.entries.begin(); it != item.entries.end(); ++it)
    {
        if (it->key == "engine")
        {
            Entry engine = *it;
            item.entries.erase(it);
            Entry* top = c.Find("engine");
            if (top == nullptr)
            {
                c.entries.push_back(engine);
            }
            else
            {
                *top = engine;
            }
            break;
        }
    }
    wl.value.items.push_back(std::move(item));
    c.entries.push_back(wl);
    return c;
}

/**
 * Parse a scenario's text into its tree and apply the overrides: with quick, the file's
 * study.quick overrides first (as written at their lines), then the command line's.
 * \param text the YAML text
 * \param file the name errors give
 * \param overrides `KEY=VALUE` strings (--set)
 * \param quick apply study.quick
 * \return the tree
 */
Node
ParseTree(const std::string& text,
          const std::string& file,
          const std::vector<std::string>& overrides,
          bool quick)
{
    const YAML::Node doc = LoadOneDocument(text, file);
    if (!doc.IsDefined() || doc.IsNull())
    {
        throw ScenarioError(file, 0, "", "the scenario is empty");
    }
    ValueBudget budget;
    Node root = Convert(doc, 1, false, file, "", budget);
    for (const auto& o : overrides)
    {
        ApplyOverride(root, o, file);
    }
    if (!quick)
    {
        return root;
    }
    const Entry* st = root.kind == Node::MAP ? root.Find("study") : nullptr;
    if (st == nullptr)
    {
        throw ScenarioError(file,
                            0,
                            "--quick",
                            "only a study (a file with a study section) has a quick version");
    }
    // The quick list as the command line left it, applied to a fresh tree before --set.
    std::vector<std::pair<std::string, const Node*>> quicks;
    if (st->value.kind == Node::MAP)
    {
        if (const Entry* q = st->value.Find("quick"))
        {
            for (const auto& item : q->value.items)
            {
                if (item.kind == Node::SCALAR)
                {
                    quicks.emplace_back(item.scalar, &item);
                }
            }
        }
    }
    ValueBudget freshBudget;
    Node fresh = Convert(doc, 1, false, file, "", freshBudget);
    for (const auto& [arg, item] : quicks)
    {
        if (item->fromSet)
        {
            ApplyOverride(fresh, arg, file);
        }
        else
        {
            ApplyOverride(fresh, arg, file, file, item->line);
        }
    }
    for (const auto& o : overrides)
    {
        ApplyOverride(fresh, o, file);
    }
    return fresh;
}

/**
 * Validate a tree and fill its scenario.
 * \param root the tree
 * \param text the file's text
 * \param file the name errors give
 * \param overrides the --set overrides (recorded in the scenario)
 * \return the scenario
 */
Scenario
FillTree(const Node& root,
         const std::string& text,
         const std::string& file,
         const std::vector<std::string>& overrides)
{
    Scenario sc;
    sc.sourceFile = file;
    sc.text = text;
    sc.overrides = overrides;
    const std::string stem = std::filesystem::path(file).stem().string();
    Loader(file, root).Fill(sc, stem.empty() ? "scenario" : stem);
    NS_LOG_INFO("loaded " << file << ": " << sc.pod.accelerators << " accelerators, "
                          << sc.workloads.size() << " workloads");
    return sc;
}

/**
 * Read a study file and check its study section.
 * \param path the file
 * \param overrides --set overrides
 * \param quick apply study.quick
 * \param [out] text the file's text
 * \param [out] root the tree (overrides applied)
 * \return the study's shape; fabrics is nullptr when the file is not a study
 */
StudyShape
ReadStudy(const std::string& path,
          const std::vector<std::string>& overrides,
          bool quick,
          std::string& text,
          Node& root)
{
    const std::string readError = ReadFileText(path, "scenario", text);
    if (!readError.empty())
    {
        throw ScenarioError(path, 0, "", readError);
    }
    root = ParseTree(text, path, overrides, quick);
    if (root.kind != Node::MAP || root.Find("study") == nullptr)
    {
        return StudyShape{};
    }
    return CheckStudy(root, path);
}

/**
 * Load one case of a checked study.
 * \param path the file
 * \param text its text
 * \param root its tree
 * \param shape its study section
 * \param overrides --set overrides
 * \param f fabric index
 * \param w workload index
 * \return the case's scenario; errors name the case
 */
Scenario
LoadCaseTree(const std::string& path,
             const std::string& text,
             const Node& root,
             const StudyShape& shape,
             const std::vector<std::string>& overrides,
             std::size_t f,
             std::size_t w)
{
    const std::string caseName = shape.fabricNames[f] + "/" + shape.workloadNames[w];
    try
    {
        Scenario sc = FillTree(ExpandCase(root, shape, f, w), text, path, overrides);
        sc.studyCase = caseName;
        return sc;
    }
    catch (const ScenarioError& e)
    {
        throw ScenarioError(e.GetFile(),
                            e.GetLine(),
                            e.GetField(),
                            e.GetMessage() + " (in study case " + caseName + ")");
    }
}

} // namespace

Scenario
ScenarioLoader::Load(const std::string& path, const std::vector<std::string>& overrides)
{
    NS_LOG_FUNCTION(path);
    std::string text;
    const std::string readError = ReadFileText(path, "scenario", text);
    if (!readError.empty())
    {
        throw ScenarioError(path, 0, "", readError);
    }
    return LoadString(text, path, overrides);
}

Scenario
ScenarioLoader::LoadString(const std::string& text,
                           const std::string& displayName,
                           const std::vector<std::string>& overrides)
{
    NS_LOG_FUNCTION(displayName << overrides.size());
    NS_ASSERT_MSG(Time::GetResolution() == Time::PS,
                  "call Time::SetResolution(Time::PS) before loading a scenario");
    const Node root = ParseTree(text, displayName, overrides, false);
    if (root.kind == Node::MAP)
    {
        if (const Entry* st = root.Find("study"))
        {
            FailAt(displayName,
                   st->line,
                   st->fromSet,
                   "study",
                   "this file is a study (each fabric of study.fabrics runs each workload of "
                   "study.workloads): run it with `./podsim run FILE` (utils/study.py), or one "
                   "case with podsim-run --case=FABRIC/WORKLOAD");
        }
    }
    return FillTree(root, text, displayName, overrides);
}

std::vector<ScenarioLoader::StudyCase>
ScenarioLoader::ListCases(const std::string& path,
                          const std::vector<std::string>& overrides,
                          bool quick)
{
    NS_LOG_FUNCTION(path << overrides.size() << quick);
    NS_ASSERT_MSG(Time::GetResolution() == Time::PS,
                  "call Time::SetResolution(Time::PS) before loading a scenario");
    std::string text;
    Node root;
    const StudyShape shape = ReadStudy(path, overrides, quick, text, root);
    std::vector<StudyCase> cases;
    if (shape.fabrics == nullptr)
    {
        return cases;
    }
    for (std::size_t f = 0; f < shape.fabricNames.size(); ++f)
    {
        for (std::size_t w = 0; w < shape.workloadNames.size(); ++w)
        {
            // Every case is validated: a study with one bad case stops before anything runs.
            LoadCaseTree(path, text, root, shape, overrides, f, w);
            cases.push_back({shape.fabricNames[f], shape.workloadNames[w]});
        }
    }
    return cases;
}

Scenario
ScenarioLoader::LoadCase(const std::string& path,
                         const std::vector<std::string>& overrides,
                         bool quick,
                         const std::string& caseName)
{
    NS_LOG_FUNCTION(path << overrides.size() << quick << caseName);
    NS_ASSERT_MSG(Time::GetResolution() == Time::PS,
                  "call Time::SetResolution(Time::PS) before loading a scenario");
    std::string text;
    Node root;
    const StudyShape shape = ReadStudy(path, overrides, quick, text, root);
    if (shape.fabrics == nullptr)
    {
        throw ScenarioError(path, 0, "--case", "not a study (the file has no study section)");
    }
    const auto slash = caseName.find('/');
    const std::string fabric = caseName.substr(0, slash);
    const std::string workload = slash == std::string::npos ? "" : caseName.substr(slash + 1);
    auto indexOf = [&](const std::vector<std::string>& names,
                       const std::string& name,
                       const std::string& what) {
        for (std::size_t i = 0; i < names.size(); ++i)
        {
            if (names[i] == name)
            {
                return i;
            }
        }
        std::string known;
        for (const auto& n : names)
        {
            known += (known.empty() ? "" : ", ") + n;
        }
        throw ScenarioError(path,
                            0,
                            "--case",
                            "no " + what + " named '" + name + "' in the study (expected " +
                                "FABRIC/WORKLOAD; its " + what + "s: " + known + ")");
    };
    const std::size_t f = indexOf(shape.fabricNames, fabric, "fabric");
    const std::size_t w = indexOf(shape.workloadNames, workload, "workload");
    return LoadCaseTree(path, text, root, shape, overrides, f, w);
}

} // namespace ns3
