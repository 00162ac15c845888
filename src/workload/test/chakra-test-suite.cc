/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The chakra-trace suite: podsim's Chakra schema against its .proto file, the length-delimited
// framing on bytes built by hand from the protobuf wire format, write-then-read of a program,
// and the refusals (src/workload/doc/workload.rst, Validation).

#include "ns3/chakra-error.h"
#include "ns3/chakra-reader.h"
#include "ns3/chakra-schema.h"
#include "ns3/chakra-writer.h"
#include "ns3/picosecond-test-suite.h"
#include "ns3/test.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <google/protobuf/descriptor.pb.h>
#include <google/protobuf/util/message_differencer.h>
#include <sstream>
#include <unistd.h>

using namespace ns3;

namespace
{

/// \return a fresh temporary directory for one case
std::string
TempDir(const std::string& name)
{
    const auto dir = std::filesystem::temp_directory_path() /
                     ("podsim-chakra-" + name + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir.string();
}

// ---- the protobuf wire format, by hand -------------------------------------------------------
// A field is a key, (field_number << 3) | wire_type, as a varint, then its value: wire type 0
// (VARINT) a varint, wire type 2 (LEN) a varint length then that many bytes. A varint holds 7
// bits per byte, low bits first, the top bit set on every byte but the last.

/// \param v a value \return its varint bytes
std::string
Varint(uint64_t v)
{
    std::string s;
    while (v >= 0x80)
    {
        s += static_cast<char>((v & 0x7f) | 0x80);
        v >>= 7;
    }
    s += static_cast<char>(v);
    return s;
}

/// \param field number \param v value \return a VARINT field
std::string
VarintField(uint32_t field, uint64_t v)
{
    return Varint((field << 3) | 0) + Varint(v);
}

/// \param field number \param bytes value \return a LEN field
std::string
LenField(uint32_t field, const std::string& bytes)
{
    return Varint((field << 3) | 2) + Varint(bytes.size()) + bytes;
}

/// \param name attribute name \param v its int64_val (field 9) \return an AttributeProto
std::string
IntAttr(const std::string& name, int64_t v)
{
    return LenField(1, name) + VarintField(9, static_cast<uint64_t>(v));
}

/// \param name attribute name \param v its string_val (field 29) \return an AttributeProto
std::string
StrAttr(const std::string& name, const std::string& v)
{
    return LenField(1, name) + LenField(29, v);
}

/**
 * A Node: id (1), name (2), type (3), data_deps (5, packed: one LEN field of varints),
 * duration_micros (7), attr (10, one LEN field each).
 */
std::string
NodeBytes(uint64_t id,
          const std::string& name,
          int type,
          const std::vector<uint64_t>& deps = {},
          uint64_t micros = 0,
          const std::vector<std::string>& attrs = {})
{
    std::string s = VarintField(1, id) + LenField(2, name) + VarintField(3, type);
    if (!deps.empty())
    {
        std::string packed;
        for (uint64_t d : deps)
        {
            packed += Varint(d);
        }
        s += LenField(5, packed);
    }
    if (micros > 0)
    {
        s += VarintField(7, micros);
    }
    for (const auto& a : attrs)
    {
        s += LenField(10, a);
    }
    return s;
}

/// \param messages messages \return them length-delimited, a GlobalMetadata (version "x") first
std::string
Stream(const std::vector<std::string>& messages)
{
    const std::string meta = LenField(1, "x");
    std::string s = Varint(meta.size()) + meta;
    for (const auto& m : messages)
    {
        s += Varint(m.size()) + m;
    }
    return s;
}

/// \param path file \param bytes its content
void
WriteBytes(const std::string& path, const std::string& bytes)
{
    std::ofstream(path, std::ios::binary) << bytes;
}

/// \param v numbers \return them as text, "1 2 3", to compare in a test
template <typename T>
std::string
Text(const std::vector<T>& v)
{
    std::ostringstream os;
    for (const auto& x : v)
    {
        os << x << " ";
    }
    return os.str();
}

} // namespace

/**
 * \ingroup workload-tests
 * The descriptors built in code equal protoc's compilation of chakra-et.proto.
 */
class ChakraSchemaTestCase : public TestCase
{
  public:
    ChakraSchemaTestCase()
        : TestCase("schema: ChakraSchema's descriptors equal protoc's of chakra-et.proto")
    {
    }

  private:
    void DoRun() override
    {
        std::string proto = std::string(NS_TEST_SOURCEDIR) + "/../model/chakra-et.proto";
        if (!std::filesystem::exists(proto))
        {
            proto = CreateDataDirFilename("../model/chakra-et.proto");
        }
        const std::string dir = TempDir("schema");
        const std::string set = dir + "/set.pb";
        const std::string model = std::filesystem::path(proto).parent_path().string();
        const std::string cmd = "protoc --proto_path='" + model + "' --descriptor_set_out='" + set +
                                "' '" + proto + "'";
        NS_TEST_ASSERT_MSG_EQ(std::system(cmd.c_str()),
                              0,
                              "protoc (Debian's protobuf-compiler) compiles " << proto);
        google::protobuf::FileDescriptorSet files;
        std::ifstream in(set, std::ios::binary);
        NS_TEST_ASSERT_MSG_EQ(files.ParseFromIstream(&in), true, "protoc wrote a descriptor set");
        NS_TEST_ASSERT_MSG_EQ(files.file_size(), 1, "one file");
        const auto built = ChakraSchema::BuildFileProto();
        std::string diff;
        google::protobuf::util::MessageDifferencer d;
        d.ReportDifferencesToString(&diff);
        NS_TEST_EXPECT_MSG_EQ(d.Compare(files.file(0), built), true, "differences: " << diff);
        std::filesystem::remove_all(dir);
    }
};

/**
 * \ingroup workload-tests
 * Length-delimited framing: a trace built byte by byte is read, and the writer's bytes start
 * as the wire format says.
 */
class ChakraFramingTestCase : public TestCase
{
  public:
    ChakraFramingTestCase()
        : TestCase("framing: hand-built length-delimited bytes read; the writer's bytes")
    {
    }

  private:
    void DoRun() override
    {
        const std::string dir = TempDir("framing");
        // Node 1: id 1 (08 01), name "a" (12 01 61), type COMP_NODE 4 (18 04), duration 5 us
        // (38 05): 9 bytes, so the frame is 09 then them. Node 2 on rank 0: a collective after
        // it; the same on rank 1, with a node 300 (id varint ac 02) before it.
        const std::string n1 = NodeBytes(1, "a", ChakraSchema::COMP_NODE, {}, 5);
        NS_TEST_ASSERT_MSG_EQ(n1,
                              std::string("\x08\x01\x12\x01"
                                          "a\x18\x04\x38\x05",
                                          9),
                              "the node's bytes by hand");
        const std::string coll = NodeBytes(
            2,
            "ar",
            ChakraSchema::COMM_COLL_NODE,
            {1},
            0,
            {IntAttr("comm_type", ChakraSchema::ALL_REDUCE), IntAttr("comm_size", 1 << 20)});
        WriteBytes(dir + "/t.0.et", Stream({n1, coll}));
        const std::string coll1 = NodeBytes(
            2,
            "ar",
            ChakraSchema::COMM_COLL_NODE,
            {300},
            0,
            {IntAttr("comm_type", ChakraSchema::ALL_REDUCE), IntAttr("comm_size", 1 << 20)});
        const std::string n300 = NodeBytes(300, "b", ChakraSchema::COMP_NODE, {}, 7);
        NS_TEST_ASSERT_MSG_EQ(n300.substr(0, 3), std::string("\x08\xac\x02"), "id 300");
        WriteBytes(dir + "/t.1.et", Stream({n300, coll1}));
        ChakraReader::Options o;
        o.prefix = dir + "/t";
        NS_TEST_ASSERT_MSG_EQ(ChakraReader::CountRanks(o.prefix), 2, "two files");
        const DagProgram p = ChakraReader::Read(o);
        // Rank 0's nodes first, in file order: its compute, the collective (first met there),
        // then rank 1's compute.
        NS_TEST_ASSERT_MSG_EQ(p.nodes.size(), 3, "two computes and one collective");
        NS_TEST_EXPECT_MSG_EQ(p.nodes[0].name, "r0:1:a", "rank 0's compute");
        NS_TEST_EXPECT_MSG_EQ(p.nodes[0].duration, MicroSeconds(5), "5 us");
        NS_TEST_EXPECT_MSG_EQ(p.nodes[0].category, "compute", "category by type");
        NS_TEST_EXPECT_MSG_EQ(p.nodes[1].kind, DagProgram::COLLECTIVE, "the collective");
        NS_TEST_EXPECT_MSG_EQ(p.nodes[1].collective, "all-reduce", "ALL_REDUCE");
        NS_TEST_EXPECT_MSG_EQ(p.nodes[1].bytes, 1 << 20, "comm_size");
        NS_TEST_EXPECT_MSG_EQ(p.nodes[1].participants.size(), 2, "on both ranks");
        NS_TEST_ASSERT_MSG_EQ(p.nodes[1].rankDeps.size(), 2, "each rank its own predecessor");
        NS_TEST_EXPECT_MSG_EQ(p.nodes[1].rankDeps[0].at(0), 0, "rank 0 waits for its compute");
        NS_TEST_EXPECT_MSG_EQ(p.nodes[1].rankDeps[1].at(0), 2, "rank 1 for its own");
        NS_TEST_EXPECT_MSG_EQ(p.nodes[2].duration, MicroSeconds(7), "7 us");

        // The writer: the first byte is the GlobalMetadata's length, whose first field is its
        // attr (field 2, LEN: key 0x12); the second frame is node 0.
        DagProgram one;
        DagProgram::Node c;
        c.name = "c";
        c.duration = MicroSeconds(1);
        c.participants = {0};
        one.nodes.push_back(c);
        ChakraWriter::Write(one, dir, "w");
        std::ifstream in(dir + "/w.0.et", std::ios::binary);
        const std::string bytes((std::istreambuf_iterator<char>(in)),
                                std::istreambuf_iterator<char>());
        const auto metaLen = static_cast<uint8_t>(bytes.at(0));
        NS_TEST_ASSERT_MSG_LT(metaLen, 0x80, "a one-byte length");
        NS_TEST_EXPECT_MSG_EQ(static_cast<uint8_t>(bytes.at(1)), 0x12, "GlobalMetadata.attr");
        const std::size_t node = 1 + metaLen;
        const auto nodeLen = static_cast<uint8_t>(bytes.at(node));
        NS_TEST_EXPECT_MSG_EQ(bytes.size(), node + 1 + nodeLen, "two frames, nothing after");
        // proto3 writes no field that holds its default: id 0 is absent, so the node's first
        // field is its name, "c" (12 01 63).
        NS_TEST_EXPECT_MSG_EQ(bytes.substr(node + 1, 3),
                              std::string("\x12\x01"
                                          "c"),
                              "name, no id");
        std::filesystem::remove_all(dir);
    }
};

/**
 * \ingroup workload-tests
 * Write then read gives the same program.
 */
class ChakraRoundTripTestCase : public TestCase
{
  public:
    ChakraRoundTripTestCase()
        : TestCase("round trip: ChakraWriter then ChakraReader give the same program")
    {
    }

  private:
    void DoRun() override
    {
        // Four accelerators: a compute on 3, 1, 2 (that order; 1.5 us, not whole
        // microseconds), an all-reduce on {1, 2, 3} by ring after it, a compute on 0, a send
        // 0 -> 3 (tag 7) whose receiver waits for the all-reduce, which rank 0 does not run
        // (kept as podsim_remote_deps), and an all-to-all-v on {0, 3} with its sizes.
        DagProgram p;
        p.iterations = 3;
        DagProgram::Node fw;
        fw.name = "fw";
        fw.duration = PicoSeconds(1500000);
        fw.participants = {3, 1, 2};
        fw.category = "forward";
        p.nodes.push_back(fw);
        DagProgram::Node ar;
        ar.name = "ar";
        ar.kind = DagProgram::COLLECTIVE;
        ar.collective = "all-reduce";
        ar.algorithm = "ring";
        ar.bytes = 65536;
        ar.participants = {1, 2, 3};
        ar.deps = {0};
        ar.chunks = 4;
        ar.chunksInFlight = 2;
        ar.stripes = 2;
        ar.reduceCost = PicoSeconds(3);
        p.nodes.push_back(ar);
        DagProgram::Node c0;
        c0.name = "c0";
        c0.duration = NanoSeconds(10);
        c0.participants = {0};
        p.nodes.push_back(c0);
        DagProgram::Node s;
        s.name = "s";
        s.kind = DagProgram::SEND;
        s.bytes = 4096;
        s.tag = 7;
        s.participants = {0, 3};
        s.rankDeps = {{2}, {1}};
        p.nodes.push_back(s);
        DagProgram::Node a2a;
        a2a.name = "a2a";
        a2a.kind = DagProgram::COLLECTIVE;
        a2a.collective = "all-to-all-v";
        a2a.bytes = 100;
        a2a.sizes = {0, 100, 200, 0};
        a2a.root = 1;
        a2a.participants = {0, 3};
        a2a.deps = {1, 3};
        p.nodes.push_back(a2a);

        const std::string dir = TempDir("roundtrip");
        const auto files = ChakraWriter::Write(p, dir, "prog");
        NS_TEST_ASSERT_MSG_EQ(files.size(), 5, "four ranks and the comm groups");
        ChakraReader::Options o;
        o.prefix = dir + "/prog";
        o.commGroups = dir + "/prog.comm_groups.json";
        const DagProgram q = ChakraReader::Read(o);
        NS_TEST_EXPECT_MSG_EQ(q.iterations, 3, "iterations from the metadata");
        NS_TEST_ASSERT_MSG_EQ(q.nodes.size(), p.nodes.size(), "as many nodes");
        for (std::size_t j = 0; j < p.nodes.size(); ++j)
        {
            const auto& x = p.nodes[j];
            const auto& y = q.nodes[j];
            NS_TEST_EXPECT_MSG_EQ(y.name, x.name, "name of " << j);
            NS_TEST_EXPECT_MSG_EQ(y.kind, x.kind, "kind of " << x.name);
            NS_TEST_EXPECT_MSG_EQ(Text(y.participants),
                                  Text(x.participants),
                                  "participants of " << x.name);
            NS_TEST_EXPECT_MSG_EQ(y.duration, x.duration, "duration of " << x.name);
            NS_TEST_EXPECT_MSG_EQ(y.collective, x.collective, "collective of " << x.name);
            NS_TEST_EXPECT_MSG_EQ(y.algorithm, x.algorithm, "algorithm of " << x.name);
            NS_TEST_EXPECT_MSG_EQ(y.root, x.root, "root of " << x.name);
            NS_TEST_EXPECT_MSG_EQ(y.bytes, x.bytes, "bytes of " << x.name);
            NS_TEST_EXPECT_MSG_EQ(Text(y.sizes), Text(x.sizes), "sizes of " << x.name);
            NS_TEST_EXPECT_MSG_EQ(y.tag, x.tag, "tag of " << x.name);
            NS_TEST_EXPECT_MSG_EQ(y.chunks, x.chunks, "chunks of " << x.name);
            NS_TEST_EXPECT_MSG_EQ(y.chunksInFlight, x.chunksInFlight, "in flight, " << x.name);
            NS_TEST_EXPECT_MSG_EQ(y.stripes, x.stripes, "stripes of " << x.name);
            NS_TEST_EXPECT_MSG_EQ(y.reduceCost, x.reduceCost, "reduce cost of " << x.name);
            NS_TEST_EXPECT_MSG_EQ(y.groupSize, x.groupSize, "group size of " << x.name);
            // The category comes back as written, empty too (podsim_category).
            NS_TEST_EXPECT_MSG_EQ(y.category, x.category, "category of " << x.name);
            // Dependencies per participant (a dependency list's order has no meaning).
            for (std::size_t r = 0; r < x.participants.size(); ++r)
            {
                auto dx = x.rankDeps.empty() ? x.deps : x.rankDeps[r];
                auto dy = y.rankDeps.empty() ? y.deps : y.rankDeps[r];
                std::sort(dx.begin(), dx.end());
                NS_TEST_EXPECT_MSG_EQ(Text(dy),
                                      Text(dx),
                                      "deps of " << x.name << " on its rank " << r);
            }
        }
        // Whole microseconds in duration_micros: 1.5 us rounds to 2, 10 ns to 0, while the
        // exact value came back from podsim_duration_ps (checked above).
        std::filesystem::remove_all(dir);
    }
};

/**
 * \ingroup workload-tests
 * Compute nodes without a duration take the roofline of their FLOPs (`num_ops`) and HBM bytes
 * (`tensor_size`): max(num_ops / achieved FLOP/s, tensor_size / achieved bytes/s). At 1e12
 * FLOP/s and 1e9 B/s: 2e9 ops over 1e6 bytes take 2 ms (compute-bound), 1e6 ops over 5e6 bytes
 * 5 ms (memory-bound); a node with a duration (7 us) keeps it.
 */
class ChakraRooflineTestCase : public TestCase
{
  public:
    ChakraRooflineTestCase()
        : TestCase("compute nodes without a duration: the roofline of num_ops and tensor_size")
    {
    }

  private:
    void DoRun() override
    {
        const std::string dir = "chakra-roofline";
        std::filesystem::remove_all(dir);
        std::filesystem::create_directories(dir);
        const int comp = 4; // COMP_NODE
        WriteBytes(
            dir + "/t.0.et",
            Stream({NodeBytes(1,
                              "gemm",
                              comp,
                              {},
                              0,
                              {IntAttr("num_ops", 2000000000), IntAttr("tensor_size", 1000000)}),
                    NodeBytes(2,
                              "norm",
                              comp,
                              {1},
                              0,
                              {IntAttr("num_ops", 1000000), IntAttr("tensor_size", 5000000)}),
                    NodeBytes(3, "timed", comp, {2}, 7, {IntAttr("num_ops", 1000000000)})}));
        ChakraReader::Options o;
        o.prefix = dir + "/t";
        o.flopsPerSecond = 1e12;
        o.bytesPerSecond = 1e9;
        const DagProgram p = ChakraReader::Read(o);
        NS_TEST_ASSERT_MSG_EQ(p.nodes.size(), 3, "three compute nodes");
        NS_TEST_EXPECT_MSG_EQ(p.nodes[0].duration, MilliSeconds(2), "2e9 / 1e12 s: compute-bound");
        NS_TEST_EXPECT_MSG_EQ(p.nodes[1].duration, MilliSeconds(5), "5e6 / 1e9 s: memory-bound");
        NS_TEST_EXPECT_MSG_EQ(p.nodes[2].duration, MicroSeconds(7), "its own duration");
        std::filesystem::remove_all(dir);
    }
};

/**
 * \ingroup workload-tests
 * What podsim cannot run is refused, naming the file, rank and node id.
 */
class ChakraRefusalTestCase : public TestCase
{
  public:
    ChakraRefusalTestCase()
        : TestCase("refusals: unknown type, MEM node, unmatched send, missing dependency, "
                   "cycle, collectives that disagree")
    {
    }

  private:
    /**
     * \param dir directory \param ranks each rank's node messages
     * \param file the file expected in the error \param rank its rank \param node its node id
     * \param what a part of the message
     */
    void Refused(const std::string& dir,
                 const std::vector<std::vector<std::string>>& ranks,
                 uint32_t rank,
                 int64_t node,
                 const std::string& what)
    {
        std::filesystem::remove_all(dir);
        std::filesystem::create_directories(dir);
        for (std::size_t r = 0; r < ranks.size(); ++r)
        {
            WriteBytes(dir + "/t." + std::to_string(r) + ".et", Stream(ranks[r]));
        }
        ChakraReader::Options o;
        o.prefix = dir + "/t";
        bool thrown = false;
        try
        {
            ChakraReader::Read(o);
        }
        catch (const ChakraError& e)
        {
            thrown = true;
            NS_TEST_EXPECT_MSG_EQ(e.GetFile(),
                                  dir + "/t." + std::to_string(rank) + ".et",
                                  "the file, in: " << e.what());
            NS_TEST_EXPECT_MSG_EQ(e.GetRank(), rank, "the rank, in: " << e.what());
            NS_TEST_EXPECT_MSG_EQ(e.GetNode(), node, "the node, in: " << e.what());
            NS_TEST_EXPECT_MSG_NE(std::string(e.what()).find(what),
                                  std::string::npos,
                                  "'" << what << "' in: " << e.what());
        }
        NS_TEST_EXPECT_MSG_EQ(thrown, true, "refused: " << what);
    }

    void DoRun() override
    {
        using S = ChakraSchema;
        const std::string dir = TempDir("refusals");
        const std::string ok = NodeBytes(1, "c", S::COMP_NODE, {}, 1);
        Refused(dir, {{ok, NodeBytes(9, "x", 42)}}, 0, 9, "type 42");
        Refused(dir, {{ok, NodeBytes(3, "ld", S::MEM_LOAD_NODE)}}, 0, 3, "MEM_LOAD_NODE");
        Refused(dir,
                {{ok,
                  NodeBytes(4,
                            "s",
                            S::COMM_SEND_NODE,
                            {1},
                            0,
                            {IntAttr("comm_dst", 1), IntAttr("comm_size", 8)})},
                 {ok}},
                0,
                4,
                "no matching COMM_RECV_NODE");
        Refused(dir, {{ok, NodeBytes(5, "d", S::COMP_NODE, {77}, 1)}}, 0, 5, "node 77");
        Refused(
            dir,
            {{NodeBytes(1, "a", S::COMP_NODE, {2}, 1), NodeBytes(2, "b", S::COMP_NODE, {1}, 1)}},
            0,
            1,
            "cycle");
        // Rank 1's first all-reduce is 2 MiB where rank 0's is 1 MiB: named on rank 1, with
        // rank 0's file and node in the message.
        auto ar = [](uint64_t id, int64_t size) {
            return NodeBytes(id,
                             "ar",
                             S::COMM_COLL_NODE,
                             {},
                             0,
                             {IntAttr("comm_type", S::ALL_REDUCE),
                              IntAttr("comm_size", size),
                              StrAttr("pg_name", "0")});
        };
        Refused(dir, {{ar(10, 1 << 20)}, {ar(11, 2 << 20)}}, 1, 11, "node 10) comm_type 0");
        // A collective missing on a member rank.
        Refused(dir, {{ar(10, 1 << 20)}, {ok}}, 0, 10, "no counterpart on member rank 1");
        std::filesystem::remove_all(dir);
    }
};

/**
 * \ingroup workload-tests
 * The chakra-trace suite.
 */
class ChakraTestSuite : public PicosecondTestSuite
{
  public:
    ChakraTestSuite();
};

ChakraTestSuite::ChakraTestSuite()
    : PicosecondTestSuite("chakra-trace", UNIT)
{
    AddTestCase(new ChakraSchemaTestCase, TestCase::QUICK);
    AddTestCase(new ChakraFramingTestCase, TestCase::QUICK);
    AddTestCase(new ChakraRoundTripTestCase, TestCase::QUICK);
    AddTestCase(new ChakraRefusalTestCase, TestCase::QUICK);
    AddTestCase(new ChakraRooflineTestCase, TestCase::QUICK);
}

/// The suite's one instance.
static ChakraTestSuite g_chakraTestSuite;
