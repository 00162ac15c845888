/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The flow-rate-solver suite: max-min fair rates of FlowRateSolver on instances solved by hand,
// removal and re-addition, the incremental result against a solve from scratch, the component
// a change touches, and the refusals (src/flow/doc/flow.rst, Validation, derives every number).

#include "ns3/flow-rate-solver.h"
#include "ns3/test.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

using namespace ns3;

namespace
{

/**
 * \ingroup flow-tests
 * Three flows over two links, then a capacity change, a removal and a re-addition.
 */
class ThreeFlowsTestCase : public TestCase
{
  public:
    ThreeFlowsTestCase()
        : TestCase("three flows over two links")
    {
    }

  private:
    void DoRun() override
    {
        FlowRateSolver s;
        const auto a = s.AddLink(10);
        const auto b = s.AddLink(10);
        const auto f1 = s.AddFlow({a});
        const auto f2 = s.AddFlow({a, b});
        const auto f3 = s.AddFlow({b});
        // Both links: share 10 / 2 = 5, a tie; the first frozen (A) freezes f1 and f2 at 5,
        // leaving B 10 - 5 = 5 for f3 alone: 5, 5, 5.
        NS_TEST_ASSERT_MSG_EQ(s.GetRate(f1), 5, "f1 at A's share");
        NS_TEST_ASSERT_MSG_EQ(s.GetRate(f2), 5, "f2 at the tied share");
        NS_TEST_ASSERT_MSG_EQ(s.GetRate(f3), 5, "f3 at B's share");
        // B down to 4: shares A 10/2 = 5, B 4/2 = 2; B is the bottleneck: f2 = f3 = 2; A keeps
        // 10 - 2 = 8 for f1 alone.
        s.SetCapacity(b, 4);
        NS_TEST_ASSERT_MSG_EQ(s.GetRate(f1), 8, "f1 takes what f2 leaves on A");
        NS_TEST_ASSERT_MSG_EQ(s.GetRate(f2), 2, "f2 bottlenecked on B");
        NS_TEST_ASSERT_MSG_EQ(s.GetRate(f3), 2, "f3 bottlenecked on B");
        NS_TEST_ASSERT_MSG_EQ(s.GetLoad(a), 10, "A saturated: 8 + 2");
        NS_TEST_ASSERT_MSG_EQ(s.GetLoad(b), 4, "B saturated: 2 + 2");
        // Without f2 each flow has its link alone: f1 = 10, f3 = 4.
        s.RemoveFlow(f2);
        NS_TEST_ASSERT_MSG_EQ(s.IsActive(f2), false, "f2 gone");
        NS_TEST_ASSERT_MSG_EQ(s.GetRate(f1), 10, "f1 alone on A");
        NS_TEST_ASSERT_MSG_EQ(s.GetRate(f3), 4, "f3 alone on B");
        // Re-added, it gets f2's identifier back and the rates of before: 8, 2, 2.
        const auto g2 = s.AddFlow({a, b});
        NS_TEST_ASSERT_MSG_EQ(g2, f2, "the freed identifier is reused");
        NS_TEST_ASSERT_MSG_EQ(s.GetRate(f1), 8, "f1 as before the removal");
        NS_TEST_ASSERT_MSG_EQ(s.GetRate(g2), 2, "f2 as before the removal");
        NS_TEST_ASSERT_MSG_EQ(s.GetRate(f3), 2, "f3 as before the removal");
        // A link of capacity 0 gives its flows 0, and frees the rest: f1 = 10 on A.
        s.SetCapacity(b, 0);
        NS_TEST_ASSERT_MSG_EQ(s.GetRate(f1), 10, "f1 alone in effect");
        NS_TEST_ASSERT_MSG_EQ(s.GetRate(g2), 0, "f2 on a dead link");
        NS_TEST_ASSERT_MSG_EQ(s.GetRate(f3), 0, "f3 on a dead link");
    }
};

/**
 * \ingroup flow-tests
 * The parking lot: a chain of n links of capacity C, one long flow over all of them and one
 * short flow per link.
 */
class ParkingLotTestCase : public TestCase
{
  public:
    ParkingLotTestCase()
        : TestCase("parking-lot chain")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 8;
        const double c = 100e9;
        FlowRateSolver s;
        std::vector<FlowRateSolver::LinkId> chain;
        for (uint32_t i = 0; i < n; ++i)
        {
            chain.push_back(s.AddLink(c));
        }
        const auto longFlow = s.AddFlow(chain);
        std::vector<FlowRateSolver::FlowId> shorts;
        for (uint32_t i = 0; i < n; ++i)
        {
            shorts.push_back(s.AddFlow({chain[i]}));
        }
        // Every link carries 2 flows: share C/2 everywhere. The first link frozen fixes the long
        // flow at C/2, leaving C - C/2 = C/2 on every other link for its short flow: all C/2.
        NS_TEST_ASSERT_MSG_EQ(s.GetRate(longFlow), c / 2, "long flow at C/2");
        for (uint32_t i = 0; i < n; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(s.GetRate(shorts[i]), c / 2, "short flow at C/2");
        }
        NS_TEST_ASSERT_MSG_EQ(s.GetLastComponentLinks(), n, "the last add touched the chain");
        NS_TEST_ASSERT_MSG_EQ(s.GetLastComponentFlows(), n + 1, "and all its flows");
        // Without the long flow the chain falls apart into n one-link components: C each, and
        // the removal re-solved n links holding n flows.
        s.RemoveFlow(longFlow);
        NS_TEST_ASSERT_MSG_EQ(s.GetLastComponentLinks(), n, "n components re-solved");
        NS_TEST_ASSERT_MSG_EQ(s.GetLastComponentFlows(), n, "of one flow each");
        for (uint32_t i = 0; i < n; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(s.GetRate(shorts[i]), c, "short flow alone at C");
        }
        // Re-added: C/2 for everyone again.
        const auto again = s.AddFlow(chain);
        NS_TEST_ASSERT_MSG_EQ(s.GetRate(again), c / 2, "long flow at C/2 again");
        for (uint32_t i = 0; i < n; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(s.GetRate(shorts[i]), c / 2, "short flow at C/2 again");
        }
        // Halving the capacity of link 3: its share C/4 is the smallest, so the long flow and
        // short 3 get C/4; every other short flow gets C - C/4 = 3C/4.
        s.SetCapacity(chain[3], c / 2);
        NS_TEST_ASSERT_MSG_EQ(s.GetRate(again), c / 4, "long flow at C/4");
        for (uint32_t i = 0; i < n; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(s.GetRate(shorts[i]), (i == 3 ? c / 4 : 3 * c / 4), "short flow");
        }
    }
};

/**
 * \ingroup flow-tests
 * A change touches only its component: many flows over disjoint paths, then one flow joining two
 * of them.
 */
class ComponentTestCase : public TestCase
{
  public:
    ComponentTestCase()
        : TestCase("a change re-solves only its component")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t pairs = 10000;
        FlowRateSolver s;
        // Path i: links 2i and 2i+1, capacities 10 and 20; one flow each: rate 10.
        for (uint32_t i = 0; i < pairs; ++i)
        {
            const auto l0 = s.AddLink(10);
            const auto l1 = s.AddLink(20);
            s.AddFlow({l0, l1});
            NS_TEST_ASSERT_MSG_EQ(s.GetLastComponentLinks(), 2, "one path's links");
            NS_TEST_ASSERT_MSG_EQ(s.GetLastComponentFlows(), 1, "one path's flow");
        }
        // A flow over links 1 (of path 0, capacity 20) and 3 (of path 1, capacity 20): the
        // component is now paths 0 and 1, 4 links and 3 flows. Link 1: flow 0 (capped at 10 by
        // link 0) and the new flow; shares: link 0 10/1, link 1 20/2, link 2 10/1, link 3 20/2,
        // all 10: every flow gets 10, and links 1 and 3 are full.
        const auto join = s.AddFlow({1, 3});
        NS_TEST_ASSERT_MSG_EQ(s.GetLastComponentLinks(), 4, "two paths' links");
        NS_TEST_ASSERT_MSG_EQ(s.GetLastComponentFlows(), 3, "two paths' flows and the new one");
        NS_TEST_ASSERT_MSG_EQ(s.GetRate(join), 10, "the joining flow");
        NS_TEST_ASSERT_MSG_EQ(s.GetRate(0), 10, "path 0's flow");
        NS_TEST_ASSERT_MSG_EQ(s.GetRate(1), 10, "path 1's flow");
        // A capacity change on a far path touches that path only.
        s.SetCapacity(2 * (pairs - 1), 4);
        NS_TEST_ASSERT_MSG_EQ(s.GetLastComponentLinks(), 2, "the far path's links");
        NS_TEST_ASSERT_MSG_EQ(s.GetLastComponentFlows(), 1, "the far path's flow");
        NS_TEST_ASSERT_MSG_EQ(s.GetRate(pairs - 1), 4, "its flow at the new capacity");
        NS_TEST_ASSERT_MSG_EQ(s.GetFlowCount(), pairs + 1, "flows");
    }
};

/**
 * \ingroup flow-tests
 * Random changes: after each, the incremental rates equal Solve() from scratch bit for bit, no
 * link is over capacity, and every flow has a bottleneck (a full link on which no flow has a
 * higher rate), which is the definition of max-min fairness.
 */
class IncrementalTestCase : public TestCase
{
  public:
    IncrementalTestCase()
        : TestCase("incremental equals from scratch")
    {
    }

  private:
    void DoRun() override
    {
        std::mt19937 rng(20261129); // fixed seed: the same changes on every machine
        const uint32_t nLinks = 40;
        FlowRateSolver s;
        for (uint32_t l = 0; l < nLinks; ++l)
        {
            s.AddLink(1 + rng() % 100);
        }
        std::vector<FlowRateSolver::FlowId> active;
        for (int step = 0; step < 300; ++step)
        {
            const uint32_t what = rng() % 10;
            if (what < 6 || active.empty())
            {
                std::vector<FlowRateSolver::LinkId> path;
                const uint32_t len = 1 + rng() % 4;
                while (path.size() < len)
                {
                    const FlowRateSolver::LinkId l = rng() % nLinks;
                    if (std::find(path.begin(), path.end(), l) == path.end())
                    {
                        path.push_back(l);
                    }
                }
                active.push_back(s.AddFlow(path));
            }
            else if (what < 9)
            {
                const std::size_t i = rng() % active.size();
                s.RemoveFlow(active[i]);
                active.erase(active.begin() + i);
            }
            else
            {
                s.SetCapacity(rng() % nLinks, rng() % 100); // 0 included
            }
            std::vector<double> incremental;
            for (auto f : active)
            {
                incremental.push_back(s.GetRate(f));
            }
            s.Solve();
            for (std::size_t i = 0; i < active.size(); ++i)
            {
                NS_TEST_ASSERT_MSG_EQ(s.GetRate(active[i]),
                                      incremental[i],
                                      "step " << step << ": flow " << active[i]);
            }
            for (FlowRateSolver::LinkId l = 0; l < nLinks; ++l)
            {
                NS_TEST_ASSERT_MSG_EQ((s.GetLoad(l) <= s.GetCapacity(l) * (1 + 1e-12)),
                                      true,
                                      "step " << step << ": link " << l << " over capacity");
            }
            for (auto f : active)
            {
                bool bottleneck = false;
                for (auto l : s.GetLinks(f))
                {
                    bool full = s.GetLoad(l) >= s.GetCapacity(l) * (1 - 1e-12);
                    bool highest = true;
                    for (auto g : active)
                    {
                        const auto& gl = s.GetLinks(g);
                        if (std::find(gl.begin(), gl.end(), l) != gl.end() &&
                            s.GetRate(g) > s.GetRate(f) * (1 + 1e-12))
                        {
                            highest = false;
                        }
                    }
                    bottleneck = bottleneck || (full && highest);
                }
                NS_TEST_ASSERT_MSG_EQ(bottleneck, true, "step " << step << ": flow " << f);
            }
        }
    }
};

/**
 * \ingroup flow-tests
 * Bad input is refused with std::invalid_argument.
 */
class RefusalTestCase : public TestCase
{
  public:
    RefusalTestCase()
        : TestCase("bad input is refused")
    {
    }

  private:
    /// \param f an action \return whether it threw std::invalid_argument
    template <typename F>
    static bool Throws(F f)
    {
        try
        {
            f();
        }
        catch (const std::invalid_argument&)
        {
            return true;
        }
        return false;
    }

    void DoRun() override
    {
        FlowRateSolver s;
        s.AddLink(10);
        NS_TEST_ASSERT_MSG_EQ(Throws([&] { s.AddFlow({}); }), true, "no links");
        NS_TEST_ASSERT_MSG_EQ(Throws([&] { s.AddFlow({1}); }), true, "unknown link");
        NS_TEST_ASSERT_MSG_EQ(Throws([&] { s.AddFlow({0, 0}); }), true, "a link twice");
        NS_TEST_ASSERT_MSG_EQ(Throws([&] { s.AddLink(-1); }), true, "negative capacity");
        NS_TEST_ASSERT_MSG_EQ(Throws([&] { s.AddLink(std::nan("")); }), true, "NaN capacity");
        NS_TEST_ASSERT_MSG_EQ(Throws([&] { s.SetCapacity(3, 1); }), true, "unknown link");
        NS_TEST_ASSERT_MSG_EQ(Throws([&] { s.RemoveFlow(0); }), true, "unknown flow");
        NS_TEST_ASSERT_MSG_EQ(Throws([&] { s.GetRate(0); }), true, "unknown flow");
        NS_TEST_ASSERT_MSG_EQ(s.GetFlowCount(), 0, "nothing was added");
    }
};

/**
 * \ingroup flow-tests
 * The flow-rate-solver suite.
 */
class FlowRateSolverTestSuite : public TestSuite
{
  public:
    FlowRateSolverTestSuite()
        : TestSuite("flow-rate-solver", UNIT)
    {
        AddTestCase(new ThreeFlowsTestCase, TestCase::QUICK);
        AddTestCase(new ParkingLotTestCase, TestCase::QUICK);
        AddTestCase(new ComponentTestCase, TestCase::QUICK);
        AddTestCase(new IncrementalTestCase, TestCase::QUICK);
        AddTestCase(new RefusalTestCase, TestCase::QUICK);
    }
};

/// The suite's registration.
FlowRateSolverTestSuite g_flowRateSolverTestSuite;

} // namespace
