/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "chakra-reader.h"

#include "chakra-error.h"
#include "chakra-schema.h"
#include "chakra-writer.h"

#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <filesystem>
#include <fstream>
#include <google/protobuf/io/zero_copy_stream_impl.h>
#include <google/protobuf/util/delimited_message_util.h>
#include <set>
#include <tuple>
#include <yaml-cpp/yaml.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ChakraReader");

namespace
{

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;

/// One attribute's value, whatever its type in the trace.
struct Attr
{
    bool isText{false};           //!< a string or bytes value
    int64_t number{0};            //!< an integer (or bool, or truncated real) value
    std::string text;             //!< a string value
    std::vector<uint64_t> values; //!< an integer list
};

/// One node of one rank's file.
struct TraceNode
{
    uint64_t id{0};                    //!< id
    std::string name;                  //!< name
    int type{0};                       //!< NodeType
    std::vector<uint64_t> deps;        //!< data and control dependencies (ids in the file)
    uint64_t durationMicros{0};        //!< duration_micros
    std::map<std::string, Attr> attrs; //!< attributes by name
};

/// One rank's file.
struct TraceRank
{
    std::string file;                     //!< its path
    std::vector<TraceNode> nodes;         //!< in file order
    std::map<uint64_t, std::size_t> byId; //!< id -> position
    uint32_t iterations{0};               //!< podsim_iterations (0: absent)
};

/**
 * \param m an AttributeProto
 * \return its value
 */
Attr
ReadAttr(const Message& m)
{
    Attr a;
    const auto* refl = m.GetReflection();
    const auto* oneof = m.GetDescriptor()->FindOneofByName("value");
    const FieldDescriptor* f = refl->GetOneofFieldDescriptor(m, oneof);
    if (f == nullptr)
    {
        return a;
    }
    switch (f->cpp_type())
    {
    case FieldDescriptor::CPPTYPE_INT32:
        a.number = refl->GetInt32(m, f);
        break;
    case FieldDescriptor::CPPTYPE_INT64:
        a.number = refl->GetInt64(m, f);
        break;
    case FieldDescriptor::CPPTYPE_UINT32:
        a.number = refl->GetUInt32(m, f);
        break;
    case FieldDescriptor::CPPTYPE_UINT64:
        a.number = static_cast<int64_t>(refl->GetUInt64(m, f));
        break;
    case FieldDescriptor::CPPTYPE_BOOL:
        a.number = refl->GetBool(m, f);
        break;
    case FieldDescriptor::CPPTYPE_DOUBLE:
        a.number = static_cast<int64_t>(refl->GetDouble(m, f));
        break;
    case FieldDescriptor::CPPTYPE_FLOAT:
        a.number = static_cast<int64_t>(refl->GetFloat(m, f));
        break;
    case FieldDescriptor::CPPTYPE_STRING:
        a.isText = true;
        a.text = refl->GetString(m, f);
        break;
    case FieldDescriptor::CPPTYPE_MESSAGE: {
        const Message& list = refl->GetMessage(m, f);
        const FieldDescriptor* v = list.GetDescriptor()->FindFieldByName("values");
        const auto* lr = list.GetReflection();
        for (int i = 0; i < lr->FieldSize(list, v); ++i)
        {
            switch (v->cpp_type())
            {
            case FieldDescriptor::CPPTYPE_INT32:
                a.values.push_back(static_cast<uint64_t>(lr->GetRepeatedInt32(list, v, i)));
                break;
            case FieldDescriptor::CPPTYPE_INT64:
                a.values.push_back(static_cast<uint64_t>(lr->GetRepeatedInt64(list, v, i)));
                break;
            case FieldDescriptor::CPPTYPE_UINT32:
                a.values.push_back(lr->GetRepeatedUInt32(list, v, i));
                break;
            case FieldDescriptor::CPPTYPE_UINT64:
                a.values.push_back(lr->GetRepeatedUInt64(list, v, i));
                break;
            default:
                break;
            }
        }
        break;
    }
    default:
        break;
    }
    return a;
}

/**
 * \param m a message with a repeated `attr` field
 * \return its attributes by name (the last of a name wins)
 */
std::map<std::string, Attr>
ReadAttrs(const Message& m)
{
    std::map<std::string, Attr> attrs;
    const auto* refl = m.GetReflection();
    const FieldDescriptor* f = m.GetDescriptor()->FindFieldByName("attr");
    for (int i = 0; i < refl->FieldSize(m, f); ++i)
    {
        const Message& a = refl->GetRepeatedMessage(m, f, i);
        const FieldDescriptor* name = a.GetDescriptor()->FindFieldByName("name");
        attrs[a.GetReflection()->GetString(a, name)] = ReadAttr(a);
    }
    return attrs;
}

/**
 * Read one rank's file.
 * \param file path \param rank its rank
 * \return its nodes
 */
TraceRank
ReadFile(const std::string& file, uint32_t rank)
{
    const ChakraSchema& schema = ChakraSchema::Get();
    TraceRank t;
    t.file = file;
    std::ifstream in(file, std::ios::binary);
    if (!in)
    {
        throw ChakraError(file, rank, ChakraError::NONE, "cannot read the file");
    }
    google::protobuf::io::IstreamInputStream zis(&in);
    bool eof = false;
    auto meta = schema.New(schema.GetMetadata());
    if (!google::protobuf::util::ParseDelimitedFromZeroCopyStream(meta.get(), &zis, &eof))
    {
        throw ChakraError(file,
                          rank,
                          ChakraError::NONE,
                          eof ? "the file is empty (a trace starts with its GlobalMetadata)"
                              : "not a Chakra trace: its first message is not a "
                                "length-delimited GlobalMetadata");
    }
    const auto metaAttrs = ReadAttrs(*meta);
    auto it = metaAttrs.find(ChakraWriter::ITERATIONS);
    if (it != metaAttrs.end())
    {
        t.iterations = static_cast<uint32_t>(it->second.number);
    }
    for (;;)
    {
        auto msg = schema.New(schema.GetNode());
        if (!google::protobuf::util::ParseDelimitedFromZeroCopyStream(msg.get(), &zis, &eof))
        {
            if (eof)
            {
                break;
            }
            throw ChakraError(
                file,
                rank,
                ChakraError::NONE,
                "message " + std::to_string(t.nodes.size() + 2) +
                    " is not a length-delimited Node (after node " +
                    (t.nodes.empty() ? std::string("none") : std::to_string(t.nodes.back().id)) +
                    ")");
        }
        const Message& m = *msg;
        const auto* d = m.GetDescriptor();
        const auto* r = m.GetReflection();
        TraceNode n;
        n.id = r->GetUInt64(m, d->FindFieldByName("id"));
        n.name = r->GetString(m, d->FindFieldByName("name"));
        n.type = r->GetEnumValue(m, d->FindFieldByName("type"));
        n.durationMicros = r->GetUInt64(m, d->FindFieldByName("duration_micros"));
        for (const char* deps : {"data_deps", "ctrl_deps"})
        {
            const FieldDescriptor* f = d->FindFieldByName(deps);
            for (int i = 0; i < r->FieldSize(m, f); ++i)
            {
                const uint64_t dep = r->GetRepeatedUInt64(m, f, i);
                if (std::find(n.deps.begin(), n.deps.end(), dep) == n.deps.end())
                {
                    n.deps.push_back(dep);
                }
            }
        }
        n.attrs = ReadAttrs(m);
        if (!t.byId.emplace(n.id, t.nodes.size()).second)
        {
            throw ChakraError(file, rank, n.id, "a second node with this id");
        }
        t.nodes.push_back(std::move(n));
    }

    // Every node runnable, every dependency present, no cycle (Kahn's algorithm).
    std::vector<uint32_t> waiting(t.nodes.size(), 0);
    std::vector<std::vector<std::size_t>> users(t.nodes.size());
    for (std::size_t i = 0; i < t.nodes.size(); ++i)
    {
        const TraceNode& n = t.nodes[i];
        if (n.type != ChakraSchema::COMP_NODE && n.type != ChakraSchema::COMM_COLL_NODE &&
            n.type != ChakraSchema::COMM_SEND_NODE && n.type != ChakraSchema::COMM_RECV_NODE)
        {
            throw ChakraError(file,
                              rank,
                              n.id,
                              "node '" + n.name + "' is a " + ChakraSchema::NodeTypeName(n.type) +
                                  ", which podsim cannot run (it runs COMP_NODE, COMM_COLL_NODE, "
                                  "COMM_SEND_NODE and COMM_RECV_NODE)");
        }
        for (uint64_t dep : n.deps)
        {
            auto d = t.byId.find(dep);
            if (d == t.byId.end())
            {
                throw ChakraError(file,
                                  rank,
                                  n.id,
                                  "depends on node " + std::to_string(dep) +
                                      ", which is not in the file");
            }
            users[d->second].push_back(i);
            ++waiting[i];
        }
    }
    std::vector<std::size_t> ready;
    for (std::size_t i = 0; i < t.nodes.size(); ++i)
    {
        if (waiting[i] == 0)
        {
            ready.push_back(i);
        }
    }
    std::size_t done = 0;
    while (!ready.empty())
    {
        const std::size_t i = ready.back();
        ready.pop_back();
        ++done;
        for (std::size_t u : users[i])
        {
            if (--waiting[u] == 0)
            {
                ready.push_back(u);
            }
        }
    }
    if (done != t.nodes.size())
    {
        for (std::size_t i = 0; i < t.nodes.size(); ++i)
        {
            if (waiting[i] > 0)
            {
                throw ChakraError(file,
                                  rank,
                                  t.nodes[i].id,
                                  "is in a dependency cycle (its data_deps and ctrl_deps lead "
                                  "back to it)");
            }
        }
    }
    return t;
}

/// \return the attribute \p name of \p n, or null
const Attr*
Find(const TraceNode& n, const char* name)
{
    auto it = n.attrs.find(name);
    return it == n.attrs.end() ? nullptr : &it->second;
}

/// \param type a CollectiveCommType \return podsim's collective, or "" if it has none
std::string
CollectiveOf(int64_t type)
{
    using S = ChakraSchema;
    switch (type)
    {
    case S::ALL_REDUCE:
        return "all-reduce";
    case S::REDUCE:
        return "reduce";
    case S::ALL_GATHER:
        return "all-gather";
    case S::BROADCAST:
        return "broadcast";
    case S::ALL_TO_ALL:
        return "all-to-all";
    case S::REDUCE_SCATTER:
    case S::REDUCE_SCATTER_BLOCK:
        return "reduce-scatter";
    case S::BARRIER:
        return "barrier";
    default:
        return "";
    }
}

/// A program node being built, with the trace nodes it comes from.
struct Building
{
    DagProgram::Node node;   //!< the node
    int64_t podsimIndex{-1}; //!< its podsim_node (-1: none)
    uint32_t order{0};       //!< creation order
    /// (rank, position in the rank's file, place among the participants)
    std::vector<std::tuple<uint32_t, std::size_t, uint32_t>> members;
};

} // namespace

uint32_t
ChakraReader::CountRanks(const std::string& prefix)
{
    uint32_t n = 0;
    std::error_code ec;
    while (std::filesystem::is_regular_file(prefix + "." + std::to_string(n) + ".et", ec))
    {
        ++n;
    }
    return n;
}

std::map<std::string, std::vector<uint32_t>>
ChakraReader::ReadCommGroups(const std::string& file)
{
    std::map<std::string, std::vector<uint32_t>> groups;
    YAML::Node root;
    try
    {
        root = YAML::LoadFile(file); // JSON is read as the YAML it also is
    }
    catch (const YAML::Exception& e)
    {
        throw ChakraError(file,
                          ChakraError::NONE,
                          ChakraError::NONE,
                          "not a comm-groups file (line " + std::to_string(e.mark.line + 1) +
                              "): " + e.msg);
    }
    if (!root.IsMap())
    {
        throw ChakraError(file,
                          ChakraError::NONE,
                          ChakraError::NONE,
                          "a comm-groups file is a JSON object mapping a process-group name to "
                          "its list of ranks");
    }
    for (const auto& kv : root)
    {
        const std::string name = kv.first.as<std::string>();
        std::vector<uint32_t> ranks;
        try
        {
            ranks = kv.second.as<std::vector<uint32_t>>();
        }
        catch (const YAML::Exception&)
        {
            throw ChakraError(file,
                              ChakraError::NONE,
                              ChakraError::NONE,
                              "line " + std::to_string(kv.second.Mark().line + 1) +
                                  ": process group '" + name +
                                  "' is not a list of ranks (non-negative integers)");
        }
        std::set<uint32_t> seen(ranks.begin(), ranks.end());
        if (ranks.empty() || seen.size() != ranks.size())
        {
            throw ChakraError(file,
                              ChakraError::NONE,
                              ChakraError::NONE,
                              "line " + std::to_string(kv.second.Mark().line + 1) +
                                  ": process group '" + name +
                                  "' must list at least one rank, each once");
        }
        groups[name] = ranks;
    }
    return groups;
}

DagProgram
ChakraReader::Read(const Options& o)
{
    NS_LOG_FUNCTION(o.prefix);
    const uint32_t found = CountRanks(o.prefix);
    const uint32_t n = o.ranks > 0 ? o.ranks : found;
    if (n == 0)
    {
        throw ChakraError(o.prefix + ".0.et",
                          ChakraError::NONE,
                          ChakraError::NONE,
                          "no trace files (PREFIX.RANK.et, from rank 0)");
    }
    if (n > found)
    {
        throw ChakraError(o.prefix + "." + std::to_string(found) + ".et",
                          found,
                          ChakraError::NONE,
                          "no such file (" + std::to_string(n) + " ranks asked for)");
    }
    auto acc = [&o](uint32_t r) { return o.placement.empty() ? r : o.placement.at(r); };
    if (!o.placement.empty() && o.placement.size() < n)
    {
        throw ChakraError(o.prefix + ".0.et",
                          ChakraError::NONE,
                          ChakraError::NONE,
                          "the placement has " + std::to_string(o.placement.size()) +
                              " accelerators for " + std::to_string(n) + " ranks");
    }
    std::map<std::string, std::vector<uint32_t>> groups;
    if (!o.commGroups.empty())
    {
        groups = ReadCommGroups(o.commGroups);
        for (const auto& [name, ranks] : groups)
        {
            for (uint32_t r : ranks)
            {
                if (r >= n)
                {
                    throw ChakraError(o.commGroups,
                                      ChakraError::NONE,
                                      ChakraError::NONE,
                                      "process group '" + name + "' lists rank " +
                                          std::to_string(r) + ", but the trace has " +
                                          std::to_string(n) + " ranks");
                }
            }
        }
    }
    std::vector<uint32_t> allRanks(n);
    for (uint32_t r = 0; r < n; ++r)
    {
        allRanks[r] = r;
    }

    std::vector<TraceRank> ranks;
    for (uint32_t r = 0; r < n; ++r)
    {
        ranks.push_back(ReadFile(o.prefix + "." + std::to_string(r) + ".et", r));
    }

    std::vector<Building> b;
    // (rank, position in its file) -> program node
    std::vector<std::vector<int64_t>> prog(n);
    for (uint32_t r = 0; r < n; ++r)
    {
        prog[r].assign(ranks[r].nodes.size(), -1);
    }
    std::map<uint64_t, uint32_t> computeByIndex;                      // podsim_node -> node
    std::map<std::pair<std::string, uint32_t>, uint32_t> collectives; // (pg, k) -> node
    std::vector<std::map<std::string, uint32_t>> collectiveCount(n);  // per rank: pg -> k
    // (src, dst, tag) -> the sends, the receives: (rank, position)
    std::map<std::tuple<uint32_t, uint32_t, uint32_t>,
             std::pair<std::deque<std::pair<uint32_t, std::size_t>>,
                       std::deque<std::pair<uint32_t, std::size_t>>>>
        p2p;

    auto newNode = [&b](const TraceNode& t) {
        Building x;
        x.order = static_cast<uint32_t>(b.size());
        if (const Attr* a = Find(t, ChakraWriter::NODE))
        {
            x.podsimIndex = a->number;
        }
        b.push_back(std::move(x));
        return static_cast<uint32_t>(b.size() - 1);
    };
    auto requireInt = [](const TraceRank& f, uint32_t r, const TraceNode& t, const char* name) {
        const Attr* a = Find(t, name);
        if (a == nullptr || a->isText)
        {
            throw ChakraError(f.file,
                              r,
                              t.id,
                              std::string("node '") + t.name + "' (" +
                                  ChakraSchema::NodeTypeName(t.type) + ") has no integer " + name +
                                  " attribute");
        }
        return a->number;
    };

    for (uint32_t r = 0; r < n; ++r)
    {
        const TraceRank& f = ranks[r];
        for (std::size_t i = 0; i < f.nodes.size(); ++i)
        {
            const TraceNode& t = f.nodes[i];
            const Attr* category = Find(t, ChakraWriter::CATEGORY);
            if (t.type == ChakraSchema::COMP_NODE)
            {
                const Attr* index = Find(t, ChakraWriter::NODE);
                uint32_t j;
                auto merged = index ? computeByIndex.find(index->number) : computeByIndex.end();
                if (merged != computeByIndex.end())
                {
                    j = merged->second;
                }
                else
                {
                    j = newNode(t);
                    if (index)
                    {
                        computeByIndex[index->number] = j;
                    }
                    auto& node = b[j].node;
                    node.kind = DagProgram::COMPUTE;
                    node.name =
                        index ? t.name
                              : "r" + std::to_string(r) + ":" + std::to_string(t.id) + ":" + t.name;
                    const Attr* ps = Find(t, ChakraWriter::DURATION_PS);
                    node.duration = ps ? PicoSeconds(ps->number)
                                       : MicroSeconds(static_cast<int64_t>(t.durationMicros));
                    const Attr* ops = Find(t, "num_ops");
                    const Attr* bytes = Find(t, "tensor_size");
                    if (!ps && t.durationMicros == 0 && (ops || bytes))
                    {
                        // No measured time: the roofline of its FLOPs and HBM bytes, as
                        // ASTRA-sim times such nodes: max(num_ops / achieved FLOP/s,
                        // tensor_size / achieved bytes/s).
                        double seconds = 0;
                        if (ops && !ops->isText && o.flopsPerSecond > 0)
                        {
                            seconds = std::max(seconds, ops->number / o.flopsPerSecond);
                        }
                        if (bytes && !bytes->isText && o.bytesPerSecond > 0)
                        {
                            seconds = std::max(seconds, bytes->number / o.bytesPerSecond);
                        }
                        node.duration =
                            PicoSeconds(static_cast<int64_t>(std::llround(seconds * 1e12)));
                    }
                    node.category = category ? category->text : "compute";
                }
                const Attr* pos = Find(t, ChakraWriter::POSITION);
                b[j].members.emplace_back(r,
                                          i,
                                          pos ? static_cast<uint32_t>(pos->number)
                                              : static_cast<uint32_t>(b[j].members.size()));
                prog[r][i] = j;
            }
            else if (t.type == ChakraSchema::COMM_COLL_NODE)
            {
                const int64_t type = requireInt(f, r, t, "comm_type");
                const int64_t size = requireInt(f, r, t, "comm_size");
                const Attr* pgAttr = Find(t, "pg_name");
                const std::string pg =
                    pgAttr ? (pgAttr->isText ? pgAttr->text : std::to_string(pgAttr->number)) : "";
                const std::vector<uint32_t>* group = &allRanks;
                if (!groups.empty())
                {
                    auto g = groups.find(pg);
                    if (g == groups.end())
                    {
                        throw ChakraError(f.file,
                                          r,
                                          t.id,
                                          "process group '" + pg + "' is not in " + o.commGroups);
                    }
                    group = &g->second;
                }
                auto place = std::find(group->begin(), group->end(), r);
                if (place == group->end())
                {
                    throw ChakraError(f.file,
                                      r,
                                      t.id,
                                      "rank " + std::to_string(r) +
                                          " is not a member of process "
                                          "group '" +
                                          pg + "'");
                }
                const uint32_t k = collectiveCount[r][pg]++;
                auto it = collectives.find({pg, k});
                uint32_t j;
                if (it == collectives.end())
                {
                    j = newNode(t);
                    collectives[{pg, k}] = j;
                    auto& node = b[j].node;
                    node.kind = DagProgram::COLLECTIVE;
                    const Attr* name = Find(t, ChakraWriter::COLLECTIVE);
                    node.collective = name ? name->text : CollectiveOf(type);
                    if (node.collective.empty())
                    {
                        throw ChakraError(f.file,
                                          r,
                                          t.id,
                                          "collective comm_type " + std::to_string(type) +
                                              " has no podsim collective (podsim runs "
                                              "ALL_REDUCE, REDUCE, ALL_GATHER, BROADCAST, "
                                              "ALL_TO_ALL, REDUCE_SCATTER(_BLOCK), BARRIER)");
                    }
                    node.bytes = static_cast<uint64_t>(size);
                    node.name = b[j].podsimIndex >= 0
                                    ? t.name
                                    : "pg" + pg + "#" + std::to_string(k) + ":" + t.name;
                    for (uint32_t m : *group)
                    {
                        node.participants.push_back(acc(m));
                    }
                    const Attr* alg = Find(t, ChakraWriter::ALGORITHM);
                    node.algorithm = !o.algorithm.empty() ? o.algorithm : alg ? alg->text : "";
                    if (const Attr* root = Find(t, ChakraWriter::ROOT))
                    {
                        node.root = static_cast<uint32_t>(root->number);
                    }
                    if (const Attr* sizes = Find(t, ChakraWriter::SIZES))
                    {
                        node.sizes = sizes->values;
                    }
                    if (const Attr* a = Find(t, ChakraWriter::CHUNKS))
                    {
                        node.chunks = static_cast<uint32_t>(a->number);
                    }
                    if (const Attr* a = Find(t, ChakraWriter::IN_FLIGHT))
                    {
                        node.chunksInFlight = static_cast<uint32_t>(a->number);
                    }
                    if (const Attr* a = Find(t, ChakraWriter::STRIPES))
                    {
                        node.stripes = static_cast<uint32_t>(a->number);
                    }
                    if (const Attr* a = Find(t, ChakraWriter::REDUCE_COST_PS))
                    {
                        node.reduceCost = PicoSeconds(a->number);
                    }
                    if (const Attr* a = Find(t, ChakraWriter::GROUP_SIZE))
                    {
                        node.groupSize = static_cast<uint32_t>(a->number);
                    }
                    node.category = category ? category->text : node.collective;
                }
                else
                {
                    j = it->second;
                    const auto& [r0, i0, p0] = b[j].members.front();
                    const TraceNode& first = ranks[r0].nodes[i0];
                    const int64_t type0 = requireInt(ranks[r0], r0, first, "comm_type");
                    const int64_t size0 = requireInt(ranks[r0], r0, first, "comm_size");
                    (void)p0;
                    if (type0 != type || size0 != size)
                    {
                        throw ChakraError(
                            f.file,
                            r,
                            t.id,
                            "collective #" + std::to_string(k) + " of process group '" + pg +
                                "' has comm_type " + std::to_string(type) + ", comm_size " +
                                std::to_string(size) + ", but on rank " + std::to_string(r0) +
                                " (" + ranks[r0].file + ", node " + std::to_string(first.id) +
                                ") comm_type " + std::to_string(type0) + ", comm_size " +
                                std::to_string(size0));
                    }
                }
                b[j].members.emplace_back(r, i, static_cast<uint32_t>(place - group->begin()));
                prog[r][i] = j;
            }
            else
            {
                const bool send = t.type == ChakraSchema::COMM_SEND_NODE;
                const auto peer = requireInt(f, r, t, send ? "comm_dst" : "comm_src");
                if (peer < 0 || peer >= n || peer == r)
                {
                    throw ChakraError(f.file,
                                      r,
                                      t.id,
                                      std::string(send ? "comm_dst " : "comm_src ") +
                                          std::to_string(peer) + " is not another rank of the " +
                                          std::to_string(n) + " ranks");
                }
                const Attr* tag = Find(t, "comm_tag");
                const uint32_t tg = tag ? static_cast<uint32_t>(tag->number) : 0;
                const uint32_t p = static_cast<uint32_t>(peer);
                auto& queues = p2p[send ? std::make_tuple(r, p, tg) : std::make_tuple(p, r, tg)];
                (send ? queues.first : queues.second).emplace_back(r, i);
                if (send)
                {
                    requireInt(f, r, t, "comm_size");
                    const uint32_t j = newNode(t);
                    auto& node = b[j].node;
                    node.kind = DagProgram::SEND;
                    node.name = b[j].podsimIndex >= 0 ? t.name
                                                      : "r" + std::to_string(r) + ":" +
                                                            std::to_string(t.id) + ":" + t.name;
                    node.participants = {acc(r), acc(p)};
                    node.bytes = static_cast<uint64_t>(Find(t, "comm_size")->number);
                    node.tag = tg;
                    node.category = category ? category->text : "send";
                    b[j].members.emplace_back(r, i, 0);
                    prog[r][i] = j;
                }
            }
        }
    }
    // Each send with the receive of the same (source, destination, tag) in the same place.
    for (auto& [key, queues] : p2p)
    {
        auto& [sends, recvs] = queues;
        const auto [src, dst, tag] = key;
        while (!sends.empty() && !recvs.empty())
        {
            const auto [rs, is] = sends.front();
            const auto [rr, ir] = recvs.front();
            sends.pop_front();
            recvs.pop_front();
            const uint32_t j = static_cast<uint32_t>(prog[rs][is]);
            const TraceNode& recv = ranks[rr].nodes[ir];
            const Attr* size = Find(recv, "comm_size");
            if (size && !size->isText && static_cast<uint64_t>(size->number) != b[j].node.bytes)
            {
                throw ChakraError(ranks[rr].file,
                                  rr,
                                  recv.id,
                                  "the receive's comm_size " + std::to_string(size->number) +
                                      " differs from its send's " +
                                      std::to_string(b[j].node.bytes) + " (" + ranks[rs].file +
                                      ", node " + std::to_string(ranks[rs].nodes[is].id) + ")");
            }
            b[j].members.emplace_back(rr, ir, 1);
            prog[rr][ir] = j;
        }
        for (const auto& [r, i] : sends)
        {
            throw ChakraError(ranks[r].file,
                              r,
                              ranks[r].nodes[i].id,
                              "a COMM_SEND_NODE to rank " + std::to_string(dst) + " (tag " +
                                  std::to_string(tag) +
                                  ") with no matching COMM_RECV_NODE on that rank");
        }
        for (const auto& [r, i] : recvs)
        {
            throw ChakraError(ranks[r].file,
                              r,
                              ranks[r].nodes[i].id,
                              "a COMM_RECV_NODE from rank " + std::to_string(src) + " (tag " +
                                  std::to_string(tag) +
                                  ") with no matching COMM_SEND_NODE on that rank");
        }
    }
    // Every collective complete: each member rank has its k-th collective of the group.
    for (const auto& [key, j] : collectives)
    {
        const auto& node = b[j].node;
        if (b[j].members.size() != node.participants.size())
        {
            const auto& [r0, i0, p0] = b[j].members.front();
            (void)p0;
            std::set<uint32_t> have;
            for (const auto& m : b[j].members)
            {
                have.insert(std::get<0>(m));
            }
            const auto& group = groups.empty() ? allRanks : groups.at(key.first);
            uint32_t missing = 0;
            for (uint32_t m : group)
            {
                if (!have.count(m))
                {
                    missing = m;
                    break;
                }
            }
            throw ChakraError(ranks[r0].file,
                              r0,
                              ranks[r0].nodes[i0].id,
                              "collective #" + std::to_string(key.second) + " of process group '" +
                                  key.first + "' has no counterpart on member rank " +
                                  std::to_string(missing) + " (" + ranks[missing].file + " has " +
                                  std::to_string(collectiveCount[missing][key.first]) +
                                  " collectives of that group)");
        }
    }

    // The program's order: podsim's own node indices when every node has one, else the order
    // in which the ranks' files (rank 0 first) introduced them.
    std::vector<uint32_t> order(b.size());
    for (uint32_t j = 0; j < b.size(); ++j)
    {
        order[j] = j;
    }
    bool indexed = !b.empty();
    std::set<int64_t> indices;
    for (const auto& x : b)
    {
        indexed = indexed && x.podsimIndex >= 0 && indices.insert(x.podsimIndex).second;
    }
    if (indexed)
    {
        std::sort(order.begin(), order.end(), [&b](uint32_t x, uint32_t y) {
            return b[x].podsimIndex < b[y].podsimIndex;
        });
    }
    std::vector<uint32_t> newIndex(b.size());
    for (uint32_t k = 0; k < order.size(); ++k)
    {
        newIndex[order[k]] = k;
    }
    std::map<int64_t, uint32_t> byPodsimIndex;
    for (uint32_t j = 0; j < b.size(); ++j)
    {
        if (b[j].podsimIndex >= 0)
        {
            byPodsimIndex.emplace(b[j].podsimIndex, newIndex[j]);
        }
    }

    DagProgram program;
    program.iterations = o.iterations > 0          ? o.iterations
                         : ranks[0].iterations > 0 ? ranks[0].iterations
                                                   : 1;
    std::set<std::string> names;
    for (uint32_t k = 0; k < order.size(); ++k)
    {
        Building& x = b[order[k]];
        DagProgram::Node node = x.node;
        std::sort(x.members.begin(), x.members.end(), [](const auto& m1, const auto& m2) {
            return std::get<2>(m1) < std::get<2>(m2);
        });
        if (node.kind == DagProgram::COMPUTE)
        {
            for (const auto& m : x.members)
            {
                node.participants.push_back(acc(std::get<0>(m)));
            }
        }
        node.rankDeps.assign(node.participants.size(), {});
        for (const auto& [r, i, p] : x.members)
        {
            const TraceNode& t = ranks[r].nodes[i];
            std::vector<uint32_t>& deps = node.rankDeps.at(p);
            for (uint64_t d : t.deps)
            {
                deps.push_back(newIndex[prog[r][ranks[r].byId.at(d)]]);
            }
            if (const Attr* remote = Find(t, ChakraWriter::REMOTE_DEPS))
            {
                for (uint64_t d : remote->values)
                {
                    auto it = byPodsimIndex.find(static_cast<int64_t>(d));
                    if (it == byPodsimIndex.end())
                    {
                        throw ChakraError(ranks[r].file,
                                          r,
                                          t.id,
                                          std::string(ChakraWriter::REMOTE_DEPS) + " names node " +
                                              std::to_string(d) + ", which no rank has");
                    }
                    deps.push_back(it->second);
                }
            }
            std::sort(deps.begin(), deps.end());
            deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
        }
        if (std::all_of(node.rankDeps.begin(), node.rankDeps.end(), [&node](const auto& d) {
                return d == node.rankDeps.front();
            }))
        {
            node.deps = node.rankDeps.empty() ? std::vector<uint32_t>{} : node.rankDeps.front();
            node.rankDeps.clear();
        }
        if (!names.insert(node.name).second)
        {
            const auto& [r, i, p] = x.members.front();
            (void)p;
            throw ChakraError(ranks[r].file,
                              r,
                              ranks[r].nodes[i].id,
                              "a second node named '" + node.name + "'");
        }
        program.nodes.push_back(std::move(node));
    }

    // No cycle across ranks (through collectives and sends), which each file alone cannot show.
    const auto& nodes = program.nodes;
    std::vector<uint32_t> waiting(nodes.size(), 0);
    std::vector<std::vector<uint32_t>> users(nodes.size());
    for (uint32_t j = 0; j < nodes.size(); ++j)
    {
        std::set<uint32_t> all(nodes[j].deps.begin(), nodes[j].deps.end());
        for (const auto& d : nodes[j].rankDeps)
        {
            all.insert(d.begin(), d.end());
        }
        for (uint32_t d : all)
        {
            users[d].push_back(j);
            ++waiting[j];
        }
    }
    std::vector<uint32_t> ready;
    for (uint32_t j = 0; j < nodes.size(); ++j)
    {
        if (waiting[j] == 0)
        {
            ready.push_back(j);
        }
    }
    while (!ready.empty())
    {
        const uint32_t j = ready.back();
        ready.pop_back();
        for (uint32_t u : users[j])
        {
            if (--waiting[u] == 0)
            {
                ready.push_back(u);
            }
        }
    }
    for (uint32_t j = 0; j < nodes.size(); ++j)
    {
        if (waiting[j] > 0)
        {
            const auto& [r, i, p] = b[order[j]].members.front();
            (void)p;
            throw ChakraError(ranks[r].file,
                              r,
                              ranks[r].nodes[i].id,
                              "node '" + nodes[j].name +
                                  "' is in a dependency cycle across ranks (through the "
                                  "collectives and sends that join them)");
        }
    }
    if (program.nodes.empty())
    {
        throw ChakraError(ranks[0].file, 0, ChakraError::NONE, "the trace has no nodes");
    }
    return program;
}

} // namespace ns3
