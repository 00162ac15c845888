/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Collectives against textbook alpha-beta times, on whole scenarios (pod module). The numbers:
//
// On an idle path a message of m bytes (a multiple of the MTU M = 4096 B) takes
// 2d + L + (m/M) T (podsim-validation, closed form): d = 13.8 ns per 3 m twinax link, L = 250 ns
// switch pipeline, T = (4096 + 18 + 20) B * 8 / 800 Gb/s = 41.34 ns per packet. So
//   alpha = 2d + L = 277.6 ns per message (one switch hop),
//   beta = T / M = 41.34 / 4096 ns per byte (framing included),
// and the textbook times (Thakur, Rabenseifner and Gropp 2005; Chan et al. 2007) are
//   ring all-reduce         2(n-1) alpha + 2(n-1)/n S beta
//   halving-doubling        2 log2(n) alpha + 2(n-1)/n S beta
//   direct all-reduce       2 alpha + 2(n-1)/n S beta
//   direct all-to-all       alpha + (n-1) m beta.

#include "ns3/experiment.h"
#include "ns3/picosecond-test-suite.h"
#include "ns3/scenario-loader.h"
#include "ns3/test.h"

#include <cmath>
#include <string>

using namespace ns3;

namespace
{

/// alpha of the single-switch pods below (ps).
constexpr double ALPHA_PS = 2 * 13800 + 250000;
/// beta (ps per byte).
constexpr double BETA_PS = 41340.0 / 4096;

/**
 * Run a scenario text without writing anything.
 * \param text the YAML
 * \return the results
 */
RunResults
RunQuiet(const std::string& text)
{
    Scenario s = ScenarioLoader::LoadString(text, "collective-validation.yaml", {});
    Experiment::Options o;
    o.writeResults = false;
    o.printSummary = false;
    o.progress = false;
    return Experiment::Run(s, o);
}

} // namespace

/**
 * Large-message collectives on an uncongested single-switch pod finish within 5% of their
 * textbook alpha-beta time.
 */
class CollectiveAlphaBetaTestCase : public TestCase
{
  public:
    /**
     * \param collective collective
     * \param algorithm algorithm
     * \param size size (bytes)
     * \param expectPs the alpha-beta time (ps)
     * \param formula the formula, for the name
     */
    CollectiveAlphaBetaTestCase(std::string collective,
                                std::string algorithm,
                                uint64_t size,
                                double expectPs,
                                std::string formula)
        : TestCase(algorithm + " " + collective + " of " + std::to_string(size) +
                   " B on 8 ranks within 5% of " + formula),
          m_collective(collective),
          m_algorithm(algorithm),
          m_size(size),
          m_expect(expectPs)
    {
    }

  private:
    void DoRun() override
    {
        RunResults r = RunQuiet(R"(
pod:
  accelerators: 8
  switch: {latency: 250ns, forwarding: cut-through}
  link: {rate: 800Gbps, cable: twinax, length: 3m}
workloads:
  - {kind: collective, collective: )" +
                                m_collective + ", algorithm: " + m_algorithm +
                                ", size: " + std::to_string(m_size) + "}\n");
        NS_TEST_ASSERT_MSG_EQ(r.collectives.name.size(), 1, "one collective");
        NS_TEST_ASSERT_MSG_GT(r.collectives.endPs[0], 0, "finished");
        const double t = r.collectives.endPs[0] - r.collectives.startPs[0];
        NS_TEST_EXPECT_MSG_EQ_TOL(t / m_expect, 1.0, 0.05, "measured " << t << " ps");
    }

    std::string m_collective; //!< collective
    std::string m_algorithm;  //!< algorithm
    uint64_t m_size;          //!< size
    double m_expect;          //!< expected time (ps)
};

/**
 * An all-to-all on a two-tier pod oversubscribed 4:1 is slower than the uncongested alpha-beta
 * bound by the oversubscription ratio, within 10%.
 */
class CollectiveCongestionTestCase : public TestCase
{
  public:
    CollectiveCongestionTestCase()
        : TestCase("all-to-all on a 4:1 oversubscribed two-tier pod: alpha-beta time x 4 +- 10%")
    {
    }

  private:
    void DoRun() override
    {
        // Radix 20 at 4:1: 4 spines, 16 accelerators per leaf, 20 leaves for 320 accelerators.
        // Each leaf sends 16 * 304 of its 16 * 319 messages over its 4 uplinks, so its uplinks
        // need 4 * (n - 16)/(n - 1) = 3.81 times the alpha-beta time of one accelerator port;
        // ECMP imbalance between the 4 uplinks adds a few percent: close to the ratio 4.
        const uint32_t n = 320;
        const uint64_t m = 4096;
        RunResults r = RunQuiet(R"(
pod:
  accelerators: 320
  switch: {radix: 20, oversubscription: 4, latency: 250ns, buffer: 256MiB}
  link: {rate: 800Gbps, cable: twinax, length: 3m}
workloads:
  - {kind: collective, collective: all-to-all, algorithm: direct, size: 4096}
)");
        NS_TEST_ASSERT_MSG_EQ(r.bytesDropped, 0, "no drop");
        NS_TEST_ASSERT_MSG_GT(r.collectives.endPs[0], 0, "finished");
        const double t = r.collectives.endPs[0] - r.collectives.startPs[0];
        const double ab = ALPHA_PS + (n - 1) * m * BETA_PS;
        NS_TEST_EXPECT_MSG_EQ_TOL(t / ab / 4.0, 1.0, 0.10, "slowdown " << t / ab);
    }
};

/**
 * The collective validation suite.
 */
class CollectiveValidationTestSuite : public PicosecondTestSuite
{
  public:
    CollectiveValidationTestSuite()
        : PicosecondTestSuite("collective-validation", SYSTEM)
    {
        const double n = 8;
        const double s = 8 << 20;
        const double tail = 2 * (n - 1) / n * s * BETA_PS;
        AddTestCase(new CollectiveAlphaBetaTestCase("all-reduce",
                                                    "ring",
                                                    s,
                                                    2 * (n - 1) * ALPHA_PS + tail,
                                                    "2(n-1) a + 2(n-1)S b over n"),
                    TestCase::QUICK);
        AddTestCase(new CollectiveAlphaBetaTestCase("all-reduce",
                                                    "halving-doubling",
                                                    s,
                                                    2 * 3 * ALPHA_PS + tail,
                                                    "2 log2(n) a + 2(n-1)S b over n"),
                    TestCase::QUICK);
        AddTestCase(new CollectiveAlphaBetaTestCase("all-reduce",
                                                    "direct",
                                                    s,
                                                    2 * ALPHA_PS + tail,
                                                    "2 a + 2(n-1)S b over n"),
                    TestCase::QUICK);
        AddTestCase(new CollectiveAlphaBetaTestCase("all-to-all",
                                                    "direct",
                                                    1 << 20,
                                                    ALPHA_PS + (n - 1) * (1 << 20) * BETA_PS,
                                                    "a + (n-1) m b"),
                    TestCase::QUICK);
        AddTestCase(new CollectiveCongestionTestCase(), TestCase::QUICK);
    }
};

/// The suite's instance.
static CollectiveValidationTestSuite g_collectiveValidationTestSuite;
