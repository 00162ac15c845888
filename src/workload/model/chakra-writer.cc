/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "chakra-writer.h"

#include "chakra-error.h"
#include "chakra-schema.h"

#include "ns3/log.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <google/protobuf/util/delimited_message_util.h>
#include <map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ChakraWriter");

const char* const ChakraWriter::NODE = "podsim_node";
const char* const ChakraWriter::POSITION = "podsim_position";
const char* const ChakraWriter::DURATION_PS = "podsim_duration_ps";
const char* const ChakraWriter::REMOTE_DEPS = "podsim_remote_deps";
const char* const ChakraWriter::CATEGORY = "podsim_category";
const char* const ChakraWriter::COLLECTIVE = "podsim_collective";
const char* const ChakraWriter::ALGORITHM = "podsim_algorithm";
const char* const ChakraWriter::ROOT = "podsim_root";
const char* const ChakraWriter::SIZES = "podsim_sizes";
const char* const ChakraWriter::CHUNKS = "podsim_chunks";
const char* const ChakraWriter::IN_FLIGHT = "podsim_chunks_in_flight";
const char* const ChakraWriter::STRIPES = "podsim_stripes";
const char* const ChakraWriter::REDUCE_COST_PS = "podsim_reduce_cost_ps";
const char* const ChakraWriter::GROUP_SIZE = "podsim_group_size";
const char* const ChakraWriter::ITERATIONS = "podsim_iterations";
const char* const ChakraWriter::NODES = "podsim_nodes";
const char* const ChakraWriter::SCHEMA_VERSION = "podsim-chakra-1";

namespace
{

using google::protobuf::Message;
using google::protobuf::Reflection;

/// Builds one message's fields through its Reflection.
class Builder
{
  public:
    /// \param m the message
    explicit Builder(Message* m)
        : m_msg(m),
          m_refl(m->GetReflection())
    {
    }

    /// \param name field \param v value
    void U64(const std::string& name, uint64_t v)
    {
        m_refl->SetUInt64(m_msg, Field(name), v);
    }

    /// \param name field \param v value
    void Str(const std::string& name, const std::string& v)
    {
        m_refl->SetString(m_msg, Field(name), v);
    }

    /// \param name field \param v value appended
    void AddU64(const std::string& name, uint64_t v)
    {
        m_refl->AddUInt64(m_msg, Field(name), v);
    }

    /// \param name field \param v the enum's number
    void Enum(const std::string& name, int v)
    {
        m_refl->SetEnumValue(m_msg, Field(name), v);
    }

    /// \param name attribute name \return a new attribute (field `attr`) so named
    Builder Attr(const std::string& name)
    {
        Builder a(m_refl->AddMessage(m_msg, Field("attr")));
        a.Str("name", name);
        return a;
    }

    /// \param name a message field \return a builder of it
    Builder Sub(const std::string& name)
    {
        return Builder(m_refl->MutableMessage(m_msg, Field(name)));
    }

    /// \param name field \param v an int64 value
    void I64(const std::string& name, int64_t v)
    {
        m_refl->SetInt64(m_msg, Field(name), v);
    }

    /// \param name field \param v an int32 value
    void I32(const std::string& name, int32_t v)
    {
        m_refl->SetInt32(m_msg, Field(name), v);
    }

    /// \param name field \param v a uint32 value
    void U32(const std::string& name, uint32_t v)
    {
        m_refl->SetUInt32(m_msg, Field(name), v);
    }

  private:
    /// \param name a field name \return the field
    const google::protobuf::FieldDescriptor* Field(const std::string& name) const
    {
        return m_msg->GetDescriptor()->FindFieldByName(name);
    }

    Message* m_msg;           //!< the message
    const Reflection* m_refl; //!< its reflection
};

/// \param b a node \param name attribute \param values a uint64 list attribute
void
U64List(Builder& b, const std::string& name, const std::vector<uint64_t>& values)
{
    Builder list = b.Attr(name).Sub("uint64_list");
    for (uint64_t v : values)
    {
        list.AddU64("values", v);
    }
}

} // namespace

int
ChakraWriter::CommTypeOf(const std::string& c)
{
    using S = ChakraSchema;
    static const std::map<std::string, int> types = {{"all-reduce", S::ALL_REDUCE},
                                                     {"reduce", S::REDUCE},
                                                     {"all-gather", S::ALL_GATHER},
                                                     {"broadcast", S::BROADCAST},
                                                     {"all-to-all", S::ALL_TO_ALL},
                                                     {"all-to-all-v", S::ALL_TO_ALL},
                                                     {"reduce-scatter", S::REDUCE_SCATTER},
                                                     {"barrier", S::BARRIER}};
    auto it = types.find(c);
    return it == types.end() ? -1 : it->second;
}

std::vector<std::string>
ChakraWriter::Write(const DagProgram& program, const std::string& dir, const std::string& name)
{
    NS_LOG_FUNCTION(&program << dir << name);
    const ChakraSchema& schema = ChakraSchema::Get();
    const auto& nodes = program.nodes;
    uint32_t ranks = 0;
    for (const auto& n : nodes)
    {
        for (uint32_t a : n.participants)
        {
            ranks = std::max(ranks, a + 1);
        }
    }
    // The process groups: one per distinct participant list of a collective, numbered from 0
    // in the order they first appear, as ASTRA-sim's comm-group files number theirs.
    std::map<std::vector<uint32_t>, std::string> groups;
    std::vector<const std::vector<uint32_t>*> groupOrder;
    for (uint32_t j = 0; j < nodes.size(); ++j)
    {
        const auto& n = nodes[j];
        if (n.kind == DagProgram::COLLECTIVE &&
            groups.emplace(n.participants, std::to_string(groups.size())).second)
        {
            groupOrder.push_back(&groups.find(n.participants)->first);
        }
        if (n.kind == DagProgram::COLLECTIVE && CommTypeOf(n.collective) < 0)
        {
            throw ChakraError(name,
                              ChakraError::NONE,
                              j,
                              "collective '" + n.collective + "' of node '" + n.name +
                                  "' has no Chakra comm_type");
        }
        if (n.kind == DagProgram::SEND &&
            (n.participants.size() != 2 || n.participants[0] == n.participants[1]))
        {
            throw ChakraError(name,
                              ChakraError::NONE,
                              j,
                              "send node '" + n.name +
                                  "' does not go from one accelerator to another");
        }
    }

    // On each rank, the nodes it takes part in, in program order, with its place in each.
    std::vector<std::vector<std::pair<uint32_t, uint32_t>>> onRank(ranks);
    std::vector<std::vector<bool>> runsOn(nodes.size());
    for (uint32_t j = 0; j < nodes.size(); ++j)
    {
        runsOn[j].assign(ranks, false);
        for (uint32_t p = 0; p < nodes[j].participants.size(); ++p)
        {
            onRank[nodes[j].participants[p]].emplace_back(j, p);
            runsOn[j][nodes[j].participants[p]] = true;
        }
    }

    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    std::vector<std::string> files;
    for (uint32_t r = 0; r < ranks; ++r)
    {
        const std::string file = dir + "/" + name + "." + std::to_string(r) + ".et";
        std::ofstream out(file, std::ios::binary | std::ios::trunc);
        if (!out)
        {
            throw ChakraError(file, r, ChakraError::NONE, "cannot write the file");
        }
        auto meta = schema.New(schema.GetMetadata());
        Builder m(meta.get());
        m.Attr("schema").Str("string_val", SCHEMA_VERSION);
        m.Attr(ITERATIONS).U32("uint32_val", program.iterations);
        m.Attr(NODES).U64("uint64_val", nodes.size());
        google::protobuf::util::SerializeDelimitedToOstream(*meta, &out);
        for (const auto& [j, p] : onRank[r])
        {
            const auto& n = nodes[j];
            auto msg = schema.New(schema.GetNode());
            Builder b(msg.get());
            b.U64("id", j);
            b.Str("name", n.name);
            b.Attr(NODE).U64("uint64_val", j);
            const auto& deps = n.rankDeps.empty() ? n.deps : n.rankDeps[p];
            std::vector<uint64_t> remote;
            for (uint32_t d : deps)
            {
                if (runsOn[d][r])
                {
                    b.AddU64("data_deps", d);
                }
                else
                {
                    // Not on this rank: the DagRunner waits for it to finish everywhere; the
                    // reader restores it from this attribute.
                    remote.push_back(d);
                }
            }
            if (!remote.empty())
            {
                U64List(b, REMOTE_DEPS, remote);
            }
            // Always written, empty too: a trace without it gets its category from the type.
            b.Attr(CATEGORY).Str("string_val", n.category);
            switch (n.kind)
            {
            case DagProgram::COMPUTE: {
                b.Enum("type", ChakraSchema::COMP_NODE);
                const int64_t ps = n.duration.GetPicoSeconds();
                // duration_micros is whole microseconds: rounded to the nearest; the exact
                // value goes in podsim_duration_ps, which the reader prefers.
                b.U64("duration_micros", static_cast<uint64_t>((ps + 500000) / 1000000));
                b.Attr(DURATION_PS).U64("uint64_val", static_cast<uint64_t>(ps));
                b.Attr(POSITION).U32("uint32_val", p);
                break;
            }
            case DagProgram::COLLECTIVE:
                b.Enum("type", ChakraSchema::COMM_COLL_NODE);
                b.Attr("comm_type").I64("int64_val", CommTypeOf(n.collective));
                b.Attr("comm_size").I64("int64_val", static_cast<int64_t>(n.bytes));
                b.Attr("pg_name").Str("string_val", groups.at(n.participants));
                b.Attr(COLLECTIVE).Str("string_val", n.collective);
                if (!n.algorithm.empty())
                {
                    b.Attr(ALGORITHM).Str("string_val", n.algorithm);
                }
                b.Attr(ROOT).U32("uint32_val", n.root);
                if (!n.sizes.empty())
                {
                    U64List(b, SIZES, n.sizes);
                }
                // The executor's parameters, where they differ from DagProgram's defaults.
                if (n.chunks != 1)
                {
                    b.Attr(CHUNKS).U32("uint32_val", n.chunks);
                }
                if (n.chunksInFlight != 0)
                {
                    b.Attr(IN_FLIGHT).U32("uint32_val", n.chunksInFlight);
                }
                if (n.stripes != 1)
                {
                    b.Attr(STRIPES).U32("uint32_val", n.stripes);
                }
                if (!n.reduceCost.IsZero())
                {
                    b.Attr(REDUCE_COST_PS)
                        .U64("uint64_val", static_cast<uint64_t>(n.reduceCost.GetPicoSeconds()));
                }
                if (n.groupSize != 0)
                {
                    b.Attr(GROUP_SIZE).U32("uint32_val", n.groupSize);
                }
                break;
            case DagProgram::SEND:
                b.Enum("type",
                       p == 0 ? ChakraSchema::COMM_SEND_NODE : ChakraSchema::COMM_RECV_NODE);
                b.Attr("comm_src").I32("int32_val", static_cast<int32_t>(n.participants[0]));
                b.Attr("comm_dst").I32("int32_val", static_cast<int32_t>(n.participants[1]));
                b.Attr("comm_tag").I32("int32_val", static_cast<int32_t>(n.tag));
                b.Attr("comm_size").I64("int64_val", static_cast<int64_t>(n.bytes));
                break;
            }
            google::protobuf::util::SerializeDelimitedToOstream(*msg, &out);
        }
        out.close();
        if (!out)
        {
            throw ChakraError(file, r, ChakraError::NONE, "cannot write the file");
        }
        files.push_back(file);
    }

    // The comm-groups file: {"NAME": [ranks...], ...}, the form of ASTRA-sim's.
    const std::string groupFile = dir + "/" + name + ".comm_groups.json";
    std::ofstream g(groupFile, std::ios::trunc);
    g << "{";
    for (std::size_t i = 0; i < groupOrder.size(); ++i)
    {
        g << (i ? ",\n " : "\n ") << "\"" << groups.at(*groupOrder[i]) << "\": [";
        for (std::size_t k = 0; k < groupOrder[i]->size(); ++k)
        {
            g << (k ? ", " : "") << (*groupOrder[i])[k];
        }
        g << "]";
    }
    g << "\n}\n";
    g.close();
    if (!g)
    {
        throw ChakraError(groupFile, ChakraError::NONE, ChakraError::NONE, "cannot write the file");
    }
    files.push_back(groupFile);
    return files;
}

} // namespace ns3
