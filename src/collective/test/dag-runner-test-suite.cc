/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The DagRunner's start rule, on compute-only DAGs whose times follow from the rule by hand
 * (src/collective/doc/collective.rst, Workload DAG): a node starts on an accelerator once each
 * of its dependencies there has finished there (if the accelerator takes part in it) or
 * everywhere (if not), in the same iteration; with per-participant dependencies, each
 * participant waits only for its own.
 */

#include "ns3/dag-runner.h"
#include "ns3/picosecond-test-suite.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <map>
#include <tuple>

using namespace ns3;

namespace
{

/// A compute node.
DagRunner::Node
Compute(const std::string& name,
        Time duration,
        std::vector<uint32_t> participants,
        std::vector<uint32_t> deps = {})
{
    DagRunner::Node n;
    n.name = name;
    n.compute = true;
    n.duration = duration;
    n.participants = participants;
    n.deps = deps;
    return n;
}

/// Run nodes and return start times by (node, iteration, accelerator), in microseconds.
std::map<std::tuple<uint32_t, uint32_t, uint32_t>, double>
Starts(const std::vector<DagRunner::Node>& nodes, uint32_t iterations, uint32_t accelerators)
{
    Ptr<DagRunner> dag = CreateObject<DagRunner>();
    dag->Setup(nodes, iterations, accelerators, nullptr);
    Simulator::ScheduleNow(&DagRunner::Start, dag);
    Simulator::Run();
    std::map<std::tuple<uint32_t, uint32_t, uint32_t>, double> out;
    for (const auto& r : dag->GetRecords())
    {
        out[{r.node, r.iteration, r.accelerator}] = r.start.GetMicroSeconds();
    }
    NS_ABORT_MSG_UNLESS(dag->IsDone(), "the DAG did not finish");
    Simulator::Destroy();
    return out;
}

} // namespace

/**
 * \ingroup collective-tests
 * Shared dependencies against per-participant dependencies. A (10 us on accelerator 0) and B
 * (30 us on accelerator 1) start at 0; C (5 us on 0, 1, 2) depends on A and B.
 * Shared: accelerator 0 takes part in A and waits for it there (10 us) but not in B, so it
 * waits for B everywhere (30 us); likewise 1; accelerator 2 takes part in neither: 30 us.
 * Per participant (0: A, 1: B, 2: nothing): 10, 30 and 0 us; and accelerator 2, done with
 * its only node at 5 us, enters iteration 1 then: C of iteration 1 starts there at 5 us.
 */
class DagRunnerRankDepsTestCase : public TestCase
{
  public:
    DagRunnerRankDepsTestCase()
        : TestCase("Per-participant dependencies: each rank waits for its own predecessors only")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<DagRunner::Node> nodes = {Compute("A", MicroSeconds(10), {0}),
                                              Compute("B", MicroSeconds(30), {1}),
                                              Compute("C", MicroSeconds(5), {0, 1, 2}, {0, 1})};
        auto shared = Starts(nodes, 1, 3);
        NS_TEST_EXPECT_MSG_EQ(shared.at(std::make_tuple(2u, 0u, 0u)),
                              30,
                              "accelerator 0 waits for B everywhere");
        NS_TEST_EXPECT_MSG_EQ(shared.at(std::make_tuple(2u, 0u, 1u)),
                              30,
                              "accelerator 1 waits for its own B");
        NS_TEST_EXPECT_MSG_EQ(shared.at(std::make_tuple(2u, 0u, 2u)),
                              30,
                              "accelerator 2 waits for both");
        nodes[2].rankDeps = {{0}, {1}, {}};
        auto own = Starts(nodes, 2, 3);
        NS_TEST_EXPECT_MSG_EQ(own.at(std::make_tuple(2u, 0u, 0u)),
                              10,
                              "accelerator 0 waits for A only");
        NS_TEST_EXPECT_MSG_EQ(own.at(std::make_tuple(2u, 0u, 1u)),
                              30,
                              "accelerator 1 waits for B only");
        NS_TEST_EXPECT_MSG_EQ(own.at(std::make_tuple(2u, 0u, 2u)),
                              0,
                              "accelerator 2 waits for nothing");
        NS_TEST_EXPECT_MSG_EQ(own.at(std::make_tuple(2u, 1u, 2u)),
                              5,
                              "accelerator 2's second iteration at 5 us");
        // Iteration 1 on accelerator 0: it finished C at 15 us; A again at 15, C at 25.
        NS_TEST_EXPECT_MSG_EQ(own.at(std::make_tuple(0u, 1u, 0u)),
                              15,
                              "A of iteration 1 after C of iteration 0");
        NS_TEST_EXPECT_MSG_EQ(own.at(std::make_tuple(2u, 1u, 0u)),
                              25,
                              "C of iteration 1 after A of iteration 1");
    }
};

/**
 * \ingroup collective-tests
 * A long chain on many accelerators: node k (1 us on accelerator k mod 1024) depends on node
 * k-1, so node k starts at k us and the last of 20,000 nodes at 19,999 us; every node of a
 * chain that wide runs on another accelerator than its predecessor, so each waits for it
 * "everywhere". This is the shape (many nodes, many accelerators) that a node x accelerator
 * table made cost 20,000 x 1024 entries.
 */
class DagRunnerChainTestCase : public TestCase
{
  public:
    DagRunnerChainTestCase()
        : TestCase("A 20,000-node chain over 1024 accelerators: node k starts at k us")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 20000;
        std::vector<DagRunner::Node> nodes;
        for (uint32_t k = 0; k < n; ++k)
        {
            std::vector<uint32_t> deps;
            if (k > 0)
            {
                deps.push_back(k - 1);
            }
            nodes.push_back(Compute("n" + std::to_string(k), MicroSeconds(1), {k % 1024}, deps));
        }
        auto starts = Starts(nodes, 1, 1024);
        NS_TEST_ASSERT_MSG_EQ(starts.size(), n, "every node ran once");
        bool exact = true;
        for (uint32_t k = 0; k < n; ++k)
        {
            exact = exact && starts.at(std::make_tuple(k, 0u, k % 1024)) == k;
        }
        NS_TEST_EXPECT_MSG_EQ(exact, true, "node k starts at k us");
    }
};

/**
 * \ingroup collective-tests
 * The DagRunner's start rule.
 */
class DagRunnerTestSuite : public PicosecondTestSuite
{
  public:
    DagRunnerTestSuite()
        : PicosecondTestSuite("dag-runner", UNIT)
    {
        AddTestCase(new DagRunnerRankDepsTestCase(), TestCase::QUICK);
        AddTestCase(new DagRunnerChainTestCase(), TestCase::QUICK);
    }
};

/// The suite's one instance.
static DagRunnerTestSuite g_dagRunnerTestSuite;
