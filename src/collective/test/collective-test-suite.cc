/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Tests of the collective module on a single-switch star of plain NICs built from the fabric
// module. Expected values are closed forms, each named where it is used (doc/collective.rst,
// Validation): bytes sent per rank per algorithm, and the exact reduction of known block values
// in data-carrying mode.

#include "ns3/basic-endpoint-helper.h"
#include "ns3/basic-endpoint.h"
#include "ns3/boolean.h"
#include "ns3/collective-dispatcher.h"
#include "ns3/collective-executor.h"
#include "ns3/collective-helper.h"
#include "ns3/data-rate.h"
#include "ns3/enum.h"
#include "ns3/fabric-link-helper.h"
#include "ns3/fabric-switch-helper.h"
#include "ns3/fabric-switch.h"
#include "ns3/logical-tree.h"
#include "ns3/node-container.h"
#include "ns3/picosecond-test-suite.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <functional>
#include <stdexcept>

using namespace ns3;

namespace
{

/// A star of n accelerators around one switch, with a dispatcher on the endpoints.
struct Star
{
    NodeContainer acc;                          //!< accelerators
    std::vector<Ptr<FabricEndpoint>> endpoints; //!< per accelerator
    Ptr<CollectiveDispatcher> dispatcher;       //!< routes collective messages
};

/**
 * \param n accelerators
 * \return the star (800 Gb/s links, 10 ns cables, 250 ns cut-through switch, 64 MiB buffer)
 */
Star
BuildStar(uint32_t n)
{
    Star s;
    s.acc.Create(n);
    Ptr<Node> swNode = CreateObject<Node>();
    FabricSwitchHelper swh;
    swh.SetSwitchAttribute("PipelineLatency", TimeValue(NanoSeconds(250)));
    swh.SetBufferAttribute("Size", UintegerValue(64ull << 20));
    Ptr<FabricSwitch> sw = swh.Install(swNode);
    FabricLinkHelper lh;
    lh.SetChannelAttribute("DataRate", DataRateValue(DataRate("800Gbps")));
    lh.SetChannelAttribute("Delay", TimeValue(NanoSeconds(10)));
    BasicEndpointHelper eh;
    for (uint32_t i = 0; i < n; ++i)
    {
        Ptr<BasicEndpoint> e = eh.Install(s.acc.Get(i), i);
        NetDeviceContainer d = lh.Install(s.acc.Get(i), swNode);
        e->AddDevice(DynamicCast<FabricNetDevice>(d.Get(0)));
        const uint32_t port = sw->AddPort(DynamicCast<FabricNetDevice>(d.Get(1)));
        sw->GetRoutingTable()->SetRoute(i, {port});
        s.endpoints.push_back(e);
    }
    s.dispatcher = CreateObject<CollectiveDispatcher>();
    s.dispatcher->Install(s.endpoints);
    return s;
}

/// What a test run returns.
struct Outcome
{
    bool done{false};              //!< every rank finished
    std::vector<uint64_t> sent;    //!< bytes sent per rank
    std::vector<uint64_t> fromAlg; //!< bytes per rank the schedule says (GetBytesSentBy)
    std::string dataError;         //!< CheckData's complaint ("" if fine or not checked)
    Time duration;                 //!< end - start
};

/**
 * Run one collective on a star.
 * \param spec the collective (ranks = group size)
 * \param algorithm algorithm name
 * \param configure sets helper attributes
 * \return the outcome
 */
Outcome
RunCollective(CollectiveSpec spec,
              const std::string& algorithm,
              const std::function<void(CollectiveHelper&)>& configure = nullptr)
{
    Star s = BuildStar(spec.ranks);
    CollectiveHelper h;
    if (configure)
    {
        configure(h);
    }
    Ptr<CollectiveExecutor> e = h.Install(s.dispatcher, spec, algorithm, s.endpoints);
    bool carry = false;
    {
        BooleanValue b;
        e->GetAttribute("CarryData", b);
        carry = b.Get();
    }
    Simulator::ScheduleNow(&CollectiveExecutor::Start, e);
    Simulator::Run();
    Outcome o;
    o.done = e->IsDone();
    for (uint32_t r = 0; r < spec.ranks; ++r)
    {
        o.sent.push_back(e->GetBytesSent(r));
        o.fromAlg.push_back(e->GetAlgorithm()->GetBytesSentBy(r));
    }
    if (carry && o.done && !e->CheckData(o.dataError))
    {
        o.dataError = o.dataError.empty() ? "bad data" : o.dataError;
    }
    o.duration = e->GetEndTime() - e->GetStartTime();
    Simulator::Destroy();
    return o;
}

/// \param name a test name \return it without the characters ns-3 refuses ('/' -> " over ")
std::string
Name(std::string name)
{
    std::string out;
    for (char c : name)
    {
        out += c == '/' ? std::string(" over ") : std::string(1, c);
    }
    return out;
}

/// \param t type \param n ranks \param bytes size \param root root \return a spec
CollectiveSpec
Spec(CollectiveSpec::Type t, uint32_t n, uint64_t bytes, uint32_t root = 0)
{
    CollectiveSpec s;
    s.type = t;
    s.ranks = n;
    s.bytes = bytes;
    s.root = root;
    return s;
}

} // namespace

/**
 * Bytes sent per rank equal the algorithm's closed form.
 */
class CollectiveBytesTestCase : public TestCase
{
  public:
    /// Closed form of the bytes rank r sends.
    typedef std::function<uint64_t(uint32_t r)> Formula;

    /**
     * \param spec the collective
     * \param algorithm its algorithm
     * \param formula bytes per rank (closed form)
     * \param what the closed form, in words
     */
    CollectiveBytesTestCase(CollectiveSpec spec,
                            std::string algorithm,
                            Formula formula,
                            std::string what)
        : TestCase(Name(algorithm + " " + CollectiveSpec::TypeName(spec.type) + " on " +
                        std::to_string(spec.ranks) + " ranks sends " + what + " per rank")),
          m_spec(spec),
          m_algorithm(algorithm),
          m_formula(formula)
    {
    }

  private:
    void DoRun() override
    {
        Outcome o = RunCollective(m_spec, m_algorithm, [](CollectiveHelper& h) {
            h.SetExecutorAttribute("Chunks", UintegerValue(2));
        });
        NS_TEST_ASSERT_MSG_EQ(o.done, true, "every rank finished");
        for (uint32_t r = 0; r < m_spec.ranks; ++r)
        {
            NS_TEST_ASSERT_MSG_EQ(o.sent[r], m_formula(r), "rank " << r << " (measured)");
            if (m_spec.type != CollectiveSpec::BARRIER) // 1-byte messages carry no blocks
            {
                NS_TEST_ASSERT_MSG_EQ(o.fromAlg[r], m_formula(r), "rank " << r << " (schedule)");
            }
        }
    }

    CollectiveSpec m_spec;   //!< collective
    std::string m_algorithm; //!< algorithm
    Formula m_formula;       //!< expected bytes per rank
};

/**
 * Data-carrying mode: known values per rank and block end up reduced or copied exactly where
 * the collective says.
 */
class CollectiveDataTestCase : public TestCase
{
  public:
    /**
     * \param spec the collective
     * \param algorithm its algorithm
     * \param chunks chunks (each checked on its own)
     * \param groupSize hierarchical group size (0: not set)
     */
    CollectiveDataTestCase(CollectiveSpec spec,
                           std::string algorithm,
                           uint32_t chunks,
                           uint32_t groupSize = 0)
        : TestCase("data: " + algorithm + " " + CollectiveSpec::TypeName(spec.type) + " on " +
                   std::to_string(spec.ranks) + " ranks, " + std::to_string(chunks) +
                   " chunk(s), root " + std::to_string(spec.root)),
          m_spec(spec),
          m_algorithm(algorithm),
          m_chunks(chunks),
          m_groupSize(groupSize)
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t chunks = m_chunks;
        const uint32_t g = m_groupSize;
        Outcome o = RunCollective(m_spec, m_algorithm, [chunks, g](CollectiveHelper& h) {
            h.SetExecutorAttribute("CarryData", BooleanValue(true));
            h.SetExecutorAttribute("Chunks", UintegerValue(chunks));
            h.SetExecutorAttribute("ChunksInFlight", UintegerValue(1));
            if (g)
            {
                h.SetAlgorithmAttribute("GroupSize", UintegerValue(g));
            }
        });
        NS_TEST_ASSERT_MSG_EQ(o.done, true, "every rank finished");
        NS_TEST_ASSERT_MSG_EQ(o.dataError, "", "final blocks");
    }

    CollectiveSpec m_spec;   //!< collective
    std::string m_algorithm; //!< algorithm
    uint32_t m_chunks;       //!< chunks
    uint32_t m_groupSize;    //!< hierarchical group size
};

/**
 * Reduction cost: a direct reduce-scatter with ReduceTimePerByte = gamma takes (n-1) * S/n *
 * gamma longer (each rank reduces n-1 blocks of S/n bytes in its one step).
 */
class CollectiveReduceCostTestCase : public TestCase
{
  public:
    CollectiveReduceCostTestCase()
        : TestCase("ReduceTimePerByte adds (n-1) * S over n * gamma to a direct reduce-scatter")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 4;
        const uint64_t bytes = 4 * 65536;
        CollectiveSpec spec = Spec(CollectiveSpec::REDUCE_SCATTER, n, bytes);
        Outcome free = RunCollective(spec, "direct");
        Outcome costly = RunCollective(spec, "direct", [](CollectiveHelper& h) {
            h.SetExecutorAttribute("ReduceTimePerByte", TimeValue(PicoSeconds(3)));
        });
        const Time extra = PicoSeconds(3) * int64_t((n - 1) * bytes / n);
        NS_TEST_ASSERT_MSG_EQ(costly.duration - free.duration, extra, "reduction time");
    }
};

/**
 * Two all-reduces on overlapping groups at once, and one on a disjoint group: each ends with
 * the exact reduction of its own ranks.
 */
class CollectiveConcurrentGroupsTestCase : public TestCase
{
  public:
    CollectiveConcurrentGroupsTestCase()
        : TestCase("Concurrent collectives on overlapping and disjoint groups")
    {
    }

  private:
    void DoRun() override
    {
        Star s = BuildStar(8);
        CollectiveHelper h;
        h.SetExecutorAttribute("CarryData", BooleanValue(true));
        auto group = [&s](std::vector<uint32_t> ids) {
            std::vector<Ptr<FabricEndpoint>> g;
            for (uint32_t i : ids)
            {
                g.push_back(s.endpoints[i]);
            }
            return g;
        };
        std::vector<Ptr<CollectiveExecutor>> ex;
        ex.push_back(h.Install(s.dispatcher,
                               Spec(CollectiveSpec::ALL_REDUCE, 0, 4096),
                               "ring",
                               group({0, 1, 2, 3})));
        ex.push_back(h.Install(s.dispatcher,
                               Spec(CollectiveSpec::ALL_REDUCE, 0, 4096),
                               "halving-doubling",
                               group({2, 3, 4, 5})));
        ex.push_back(h.Install(s.dispatcher,
                               Spec(CollectiveSpec::ALL_GATHER, 0, 3000),
                               "ring",
                               group({7, 6})));
        for (auto& e : ex)
        {
            Simulator::ScheduleNow(&CollectiveExecutor::Start, e);
        }
        Simulator::Run();
        for (auto& e : ex)
        {
            std::string why;
            NS_TEST_ASSERT_MSG_EQ(e->IsDone(), true, "finished");
            NS_TEST_ASSERT_MSG_EQ(e->CheckData(why), true, why);
        }
        Simulator::Destroy();
    }
};

/**
 * Bad requests are refused with a clear reason before anything runs.
 */
class CollectiveBadInputTestCase : public TestCase
{
  public:
    CollectiveBadInputTestCase()
        : TestCase("Unsupported algorithm-collective pairs and group sizes are refused")
    {
    }

  private:
    void DoRun() override
    {
        CollectiveHelper h;
        auto message = [&h](const std::string& alg, CollectiveSpec spec) -> std::string {
            try
            {
                h.CreateAlgorithm(alg, spec);
            }
            catch (const std::invalid_argument& e)
            {
                return e.what();
            }
            return "";
        };
        const std::string pow2 =
            message("halving-doubling", Spec(CollectiveSpec::ALL_REDUCE, 6, 6000));
        NS_TEST_ASSERT_MSG_NE(pow2.find("power-of-two"), std::string::npos, pow2);
        NS_TEST_ASSERT_MSG_NE(pow2.find("rabenseifner"), std::string::npos, pow2);
        NS_TEST_ASSERT_MSG_EQ(message("rabenseifner", Spec(CollectiveSpec::ALL_REDUCE, 6, 6000)),
                              "",
                              "the variant accepts 6 ranks");
        const std::string a2a = message("ring", Spec(CollectiveSpec::ALL_TO_ALL, 4, 64));
        NS_TEST_ASSERT_MSG_NE(a2a.find("does not implement all-to-all"), std::string::npos, a2a);
        h.SetAlgorithmAttribute("GroupSize", UintegerValue(4));
        const std::string hier = message("hierarchical", Spec(CollectiveSpec::ALL_REDUCE, 6, 60));
        NS_TEST_ASSERT_MSG_NE(hier.find("does not divide"), std::string::npos, hier);
        const std::string root = message("direct", Spec(CollectiveSpec::BROADCAST, 4, 64, 9));
        NS_TEST_ASSERT_MSG_NE(root.find("root 9"), std::string::npos, root);
        NS_TEST_ASSERT_MSG_NE(
            message("nccl", Spec(CollectiveSpec::ALL_REDUCE, 4, 64)).find("unknown algorithm"),
            std::string::npos,
            "unknown name");
    }
};

/**
 * The collective test suite.
 */
class CollectiveTestSuite : public PicosecondTestSuite
{
  public:
    CollectiveTestSuite()
        : PicosecondTestSuite("collective", UNIT)
    {
        AddAllReduceFamilyBytesCases();
        AddRootedAndAllToAllBytesCases();
        AddSmallGroupDataCases();
        AddLargerGroupDataCases();
        AddTestCase(new CollectiveReduceCostTestCase(), TestCase::QUICK);
        AddTestCase(new CollectiveConcurrentGroupsTestCase(), TestCase::QUICK);
        AddTestCase(new CollectiveBadInputTestCase(), TestCase::QUICK);
    }

  private:
    /// Message size of the bytes cases: divisible by every n and block count used below.
    static constexpr uint64_t SZ = 8 * 3 * 4096;

    /**
     * Bytes cases of all-reduce, reduce-scatter and all-gather: the closed forms of the bytes
     * each rank sends (S = SZ, n ranks), for every algorithm of the three.
     */
    void AddAllReduceFamilyBytesCases()
    {
        using S = CollectiveSpec;
        const uint64_t sz = SZ;
        // Closed forms of the bytes each rank sends (S = sz, n ranks).
        auto twice = [](uint32_t n, uint64_t s) {
            return [n, s](uint32_t) { return 2 * (n - 1) * s / n; };
        };
        auto once = [](uint32_t n, uint64_t s) {
            return [n, s](uint32_t) { return (n - 1) * s / n; };
        };
        for (const char* alg : {"ring", "bidirectional-ring", "direct"})
        {
            AddTestCase(new CollectiveBytesTestCase(Spec(S::ALL_REDUCE, 6, sz),
                                                    alg,
                                                    twice(6, sz),
                                                    "2(n-1)/n*S"),
                        TestCase::QUICK);
            AddTestCase(new CollectiveBytesTestCase(Spec(S::REDUCE_SCATTER, 6, sz),
                                                    alg,
                                                    once(6, sz),
                                                    "(n-1)/n*S"),
                        TestCase::QUICK);
            AddTestCase(new CollectiveBytesTestCase(Spec(S::ALL_GATHER, 6, sz),
                                                    alg,
                                                    once(6, sz),
                                                    "(n-1)/n*S"),
                        TestCase::QUICK);
        }
        AddTestCase(new CollectiveBytesTestCase(Spec(S::ALL_REDUCE, 8, sz),
                                                "halving-doubling",
                                                twice(8, sz),
                                                "2(n-1)/n*S"),
                    TestCase::QUICK);
        // Rabenseifner on 6 = 4 + 2: even ranks below 4 send S (fold in), odd ranks below 4
        // send 2(p-1)/p*S + S (core and fold out), ranks 4 and 5 send 2(p-1)/p*S, p = 4.
        AddTestCase(new CollectiveBytesTestCase(
                        Spec(S::ALL_REDUCE, 6, sz),
                        "rabenseifner",
                        [sz](uint32_t r) {
                            const uint64_t core = 2 * 3 * sz / 4;
                            return r < 4 ? (r % 2 == 0 ? sz : core + sz) : core;
                        },
                        "S / 2(p-1)/p*S+S / 2(p-1)/p*S"),
                    TestCase::QUICK);
        // Double binary tree: in each tree a rank sends S/2 to its parent (unless root) and S/2
        // to each child.
        AddTestCase(new CollectiveBytesTestCase(
                        Spec(S::ALL_REDUCE, 7, 7 * sz),
                        "double-binary-tree",
                        [sz](uint32_t r) {
                            uint64_t total = 0;
                            for (uint32_t shift : {0u, 6u})
                            {
                                LogicalTree t(7, shift);
                                const uint64_t links =
                                    t.GetChildren(r).size() + (t.GetParent(r) != LogicalTree::NONE);
                                total += links * (7 * sz / 2);
                            }
                            return total;
                        },
                        "(children + has parent) * S/2 per tree"),
                    TestCase::QUICK);
        // Hierarchical, g = 3 ranks per group, h = 2 groups: 2(g-1)/g*S + 2(h-1)/h*S/g.
        AddTestCase(new CollectiveBytesTestCase(
                        Spec(S::ALL_REDUCE, 6, sz),
                        "hierarchical",
                        [sz](uint32_t) { return 2 * 2 * sz / 3 + 2 * 1 * (sz / 3) / 2; },
                        "2(g-1)/g*S + 2(h-1)/h*S/g"),
                    TestCase::QUICK);
    }

    /**
     * Bytes cases of broadcast, reduce, all-to-all(v) and barrier: the closed forms of the bytes
     * each rank sends.
     */
    void AddRootedAndAllToAllBytesCases()
    {
        using S = CollectiveSpec;
        const uint64_t sz = SZ;
        // Broadcast chain: everybody but the last of the chain forwards S once.
        AddTestCase(new CollectiveBytesTestCase(
                        Spec(S::BROADCAST, 5, sz, 2),
                        "ring",
                        [sz](uint32_t r) { return (r + 5 - 2) % 5 == 4 ? 0 : sz; },
                        "S (0 at the chain's end)"),
                    TestCase::QUICK);
        AddTestCase(new CollectiveBytesTestCase(
                        Spec(S::BROADCAST, 5, sz, 2),
                        "direct",
                        [sz](uint32_t r) { return r == 2 ? 4 * sz : 0; },
                        "(n-1)*S at the root"),
                    TestCase::QUICK);
        AddTestCase(new CollectiveBytesTestCase(
                        Spec(S::REDUCE, 5, sz, 1),
                        "ring",
                        [sz](uint32_t r) { return r == 1 ? 0 : sz; },
                        "S (0 at the root)"),
                    TestCase::QUICK);
        for (const char* alg : {"direct", "pairwise"})
        {
            AddTestCase(new CollectiveBytesTestCase(
                            Spec(S::ALL_TO_ALL, 5, 4096),
                            alg,
                            [](uint32_t) { return 4 * 4096; },
                            "(n-1)*m"),
                        TestCase::QUICK);
        }
        {
            CollectiveSpec v = Spec(S::ALL_TO_ALL_V, 3, 0);
            v.sizes = {0, 100, 2000, 30, 0, 4000, 500, 6, 0};
            AddTestCase(new CollectiveBytesTestCase(
                            v,
                            "pairwise",
                            [v](uint32_t r) {
                                return v.sizes[r * 3] + v.sizes[r * 3 + 1] + v.sizes[r * 3 + 2];
                            },
                            "its row of the size matrix"),
                        TestCase::QUICK);
        }
        // Barrier: ceil(log2 n) one-byte messages (with 2 chunks, each chunk sends its own).
        AddTestCase(new CollectiveBytesTestCase(
                        Spec(S::BARRIER, 6, 0),
                        "dissemination",
                        [](uint32_t) { return 2 * 3; },
                        "ceil(log2 n) bytes per chunk"),
                    TestCase::QUICK);
    }

    /**
     * Data-carrying cases on groups of 4 and 5 ranks: every algorithm of every collective that
     * runs on any group size.
     */
    void AddSmallGroupDataCases()
    {
        using S = CollectiveSpec;
        for (uint32_t n : {4u, 5u})
        {
            for (const char* alg : {"ring", "bidirectional-ring", "direct"})
            {
                for (auto t : {S::ALL_REDUCE, S::REDUCE_SCATTER, S::ALL_GATHER})
                {
                    AddTestCase(new CollectiveDataTestCase(Spec(t, n, 64 * n), alg, 2),
                                TestCase::QUICK);
                }
            }
            for (const char* alg : {"ring", "direct"})
            {
                AddTestCase(new CollectiveDataTestCase(Spec(S::BROADCAST, n, 512, 1), alg, 3),
                            TestCase::QUICK);
                AddTestCase(new CollectiveDataTestCase(Spec(S::REDUCE, n, 512, 2), alg, 3),
                            TestCase::QUICK);
            }
            for (const char* alg : {"direct", "pairwise"})
            {
                AddTestCase(new CollectiveDataTestCase(Spec(S::ALL_TO_ALL, n, 100), alg, 1),
                            TestCase::QUICK);
            }
            AddTestCase(
                new CollectiveDataTestCase(Spec(S::ALL_REDUCE, n, 512), "double-binary-tree", 2),
                TestCase::QUICK);
        }
    }

    /**
     * Data-carrying cases of the algorithms with constraints on the group: Rabenseifner on 5 to
     * 8 ranks, halving-doubling on 8, hierarchical on groups of 3 and 2.
     */
    void AddLargerGroupDataCases()
    {
        using S = CollectiveSpec;
        for (uint32_t n : {5u, 6u, 7u, 8u})
        {
            AddTestCase(
                new CollectiveDataTestCase(Spec(S::ALL_REDUCE, n, 64 * n), "rabenseifner", 1),
                TestCase::QUICK);
        }
        for (auto t : {S::ALL_REDUCE, S::REDUCE_SCATTER, S::ALL_GATHER})
        {
            AddTestCase(new CollectiveDataTestCase(Spec(t, 8, 512), "halving-doubling", 2),
                        TestCase::QUICK);
        }
        AddTestCase(new CollectiveDataTestCase(Spec(S::ALL_REDUCE, 6, 600), "hierarchical", 2, 3),
                    TestCase::QUICK);
        AddTestCase(new CollectiveDataTestCase(Spec(S::ALL_REDUCE, 8, 800), "hierarchical", 1, 2),
                    TestCase::QUICK);
    }
};

/// The suite's instance.
static CollectiveTestSuite g_collectiveTestSuite;
