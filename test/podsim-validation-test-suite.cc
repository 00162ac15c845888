/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Cross-module validation: whole scenarios through the loader, the pod builder and the fabric.
// Expected values come from conservation (bytes sent = received + dropped, by named reason),
// from the construction of the routes (every pair reachable), and from closed forms of exact
// serialization on an uncongested path (2d + L + n T), with the SUE spec's cable constants.

#include "ns3/experiment.h"
#include "ns3/picosecond-test-suite.h"
#include "ns3/scenario-loader.h"
#include "ns3/test.h"

#include <string>
#include <vector>

using namespace ns3;

namespace
{
/// Run a scenario given as YAML text, without writing or printing anything.
RunResults
RunText(const std::string& yaml, const std::vector<std::string>& overrides = {})
{
    Scenario s = ScenarioLoader::LoadString(yaml, "validation.yaml", overrides);
    Experiment::Options o;
    o.writeResults = false;
    o.printSummary = false;
    o.progress = false;
    return Experiment::Run(s, o);
}

/// \return number of messages never delivered
uint64_t
Undelivered(const RunResults& r)
{
    uint64_t n = 0;
    for (int64_t t : r.messages.deliverPs)
    {
        n += t < 0 ? 1 : 0;
    }
    return n;
}

/// A mixed pod: single switch per plane, three workloads at once.
const char* MIXED = R"(
name: mixed
pod:
  accelerators: 32
  planes: 4
  switch: {radix: 64}
workloads:
  - {kind: incast, senders: 16, receiver: 5, size: 256KiB}
  - {kind: permutation, size: 100KiB, start: 1us}
  - {kind: all-to-all, size: 5000}
)";

/// A two-tier pod: 32 accelerators at radix 8 (8 leaves of 4, 4 spines), two planes.
const char* TWO_TIER = R"(
name: two-tier
pod:
  accelerators: 32
  planes: 2
  switch: {radix: 8}
workloads:
  - {kind: all-to-all, size: 8KiB}
  - {kind: permutation, size: 64KiB}
)";
} // namespace

/**
 * Lossless runs: every message delivered, every byte conserved, no drop of any kind.
 */
class ValidationLosslessTestCase : public TestCase
{
  public:
    /**
     * \param name case name
     * \param yaml scenario
     */
    ValidationLosslessTestCase(const std::string& name, const char* yaml)
        : TestCase("Lossless run delivers every byte: " + name),
          m_yaml(yaml)
    {
    }

  private:
    void DoRun() override
    {
        RunResults r = RunText(m_yaml);
        NS_TEST_ASSERT_MSG_GT(r.messages.src.size(), 0, "messages planned");
        NS_TEST_ASSERT_MSG_EQ(Undelivered(r), 0, "every message delivered");
        NS_TEST_ASSERT_MSG_EQ(r.bytesDropped, 0, "no drops with 64 MiB buffers and no errors");
        NS_TEST_ASSERT_MSG_EQ(r.dropsByReason.size(), 0, "no drop reason counted");
        NS_TEST_ASSERT_MSG_EQ(r.bytesReceived, r.bytesSent, "received = sent");
        NS_TEST_ASSERT_MSG_EQ(r.bytesDelivered, r.bytesSent, "delivered = sent");
        for (std::size_t i = 0; i < r.messages.src.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_GT_OR_EQ(r.messages.deliverPs[i],
                                        r.messages.postPs[i],
                                        "delivered after posted");
            NS_TEST_ASSERT_MSG_GT_OR_EQ(r.messages.completePs[i],
                                        r.messages.postPs[i],
                                        "completed after posted");
        }
        // Events per packet-hop stay within DESIGN.md's budget of 3.
        NS_TEST_ASSERT_MSG_LT_OR_EQ(r.events, 3 * r.packetHops, "event budget");
    }

    std::string m_yaml; //!< scenario
};

/**
 * Lossy runs: drops are counted by named reason and bytes are conserved.
 */
class ValidationLossyTestCase : public TestCase
{
  public:
    ValidationLossyTestCase()
        : TestCase("Lossy runs: sent = received + dropped, each drop under its named reason")
    {
    }

  private:
    void DoRun() override
    {
        // A 31-to-1 incast of 64 KiB each into a 32 KiB shared buffer overflows it.
        RunResults a = RunText(R"(
pod:
  accelerators: 32
  switch: {buffer: 32KiB}
workloads:
  - {kind: incast, senders: 31, size: 64KiB}
)");
        NS_TEST_ASSERT_MSG_GT(a.dropsByReason["BufferFull"], 0, "buffer overflow drops");
        NS_TEST_ASSERT_MSG_EQ(a.dropsByReason.size(), 1, "only BufferFull");
        NS_TEST_ASSERT_MSG_EQ(a.bytesReceived + a.bytesDropped, a.bytesSent, "conservation");
        NS_TEST_ASSERT_MSG_GT(Undelivered(a), 0, "messages with a lost packet are not delivered");
        uint64_t linkDrops = 0;
        for (uint64_t b : a.links.dropBytes["BufferFull"])
        {
            linkDrops += b;
        }
        NS_TEST_ASSERT_MSG_EQ(linkDrops, a.bytesDropped, "per-link drops add up to the total");

        // Residual bit errors of 1e-7 on every link: a 4134-byte frame spans 7 codewords of 5140
        // bits and is lost with probability 1 - (1 - 1e-7)^35980 = 0.36% per link.
        RunResults b = RunText(MIXED, {"pod.link.ber=1e-7"});
        NS_TEST_ASSERT_MSG_GT(b.dropsByReason["Corrupted"], 0, "corruption drops");
        NS_TEST_ASSERT_MSG_EQ(b.dropsByReason.size(), 1, "only Corrupted");
        NS_TEST_ASSERT_MSG_EQ(b.bytesReceived + b.bytesDropped, b.bytesSent, "conservation");
    }
};

/**
 * Every ordered pair of a two-tier pod is routed end to end.
 */
class ValidationAllPairsTestCase : public TestCase
{
  public:
    ValidationAllPairsTestCase()
        : TestCase("Every pair of a two-tier pod is reachable on every plane")
    {
    }

  private:
    void DoRun() override
    {
        // 1-byte all-to-all: one packet per ordered pair; with round-robin plane selection the
        // 15 messages of each source alternate over both planes.
        RunResults r = RunText(TWO_TIER,
                               {"workloads[0].size=1",
                                "workloads[1].size=1",
                                "pod.accelerators=16",
                                "pod.nic.plane-selection=round-robin"});
        NS_TEST_ASSERT_MSG_EQ(r.messages.src.size(), 16 * 15 + 16, "all pairs + permutation");
        NS_TEST_ASSERT_MSG_EQ(Undelivered(r), 0, "every pair delivered");
        NS_TEST_ASSERT_MSG_EQ(r.dropsByReason.size(), 0, "no NoRoute or Misdelivered drop");
        // 16 accelerators at radix 8: 4 leaves + 4 spines per plane, two planes.
        NS_TEST_ASSERT_MSG_EQ(r.switches, 16, "switches");
    }
};

/**
 * On an uncongested path every message takes exactly 2d + L + n T.
 */
class ValidationClosedFormTestCase : public TestCase
{
  public:
    ValidationClosedFormTestCase()
        : TestCase("Permutation on an idle pod: each message takes exactly 2d + L + n T")
    {
    }

  private:
    void DoRun() override
    {
        // One plane, cut-through, 3 m twinax (13.8 ns, SUE spec Appendix A.1), L = 250 ns,
        // 800 Gb/s. A permutation loads each output from exactly one input, so nothing queues.
        // A 64 KiB message is 16 packets of 4096 B + 18 B header + 20 B preamble/IPG = 4134 B,
        // T = 41.34 ns each; the NIC sends them back to back and the last arrives
        // 2d + L + 16 T = 27.6 + 250 + 661.44 = 939.04 ns after the post.
        RunResults r = RunText(R"(
pod:
  accelerators: 64
  switch: {latency: 250ns, forwarding: cut-through}
  link: {rate: 800Gbps, cable: twinax, length: 3m}
workloads:
  - {kind: permutation, size: 64KiB}
)");
        NS_TEST_ASSERT_MSG_EQ(r.messages.src.size(), 64, "one message per accelerator");
        for (std::size_t i = 0; i < r.messages.src.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_NE(r.messages.src[i], r.messages.dst[i], "no self-send");
            NS_TEST_ASSERT_MSG_EQ(r.messages.deliverPs[i] - r.messages.postPs[i],
                                  939040,
                                  "2d + L + 16 T");
            // Local completion of a plain NIC: the 16 packets have left, 16 T = 661.44 ns.
            NS_TEST_ASSERT_MSG_EQ(r.messages.completePs[i] - r.messages.postPs[i], 661440, "16 T");
        }
        // The same with store-and-forward adds one T at the switch: 980.38 ns.
        RunResults s = RunText(R"(
pod:
  accelerators: 8
  switch: {latency: 250ns, forwarding: store-and-forward}
  link: {rate: 800Gbps, cable: twinax, length: 3m}
workloads:
  - {kind: permutation, size: 64KiB}
)");
        NS_TEST_ASSERT_MSG_EQ(s.messages.deliverPs[0] - s.messages.postPs[0],
                              980380,
                              "2d + L + 17 T");

        // Sprayed over two planes, a 4097 B message is a 4096 B packet on one plane and a 1 B
        // packet on the other, both starting at the post. The message completes when the longer
        // one has been serialized, T = 41.34 ns (not when the 1 B packet, which carries the last
        // byte, is done after 0.39 ns), and is delivered 2d + L + T = 318.94 ns after the post.
        RunResults sp = RunText(R"(
pod:
  accelerators: 8
  planes: 2
  nic: {plane-selection: spray}
  switch: {latency: 250ns, forwarding: cut-through}
  link: {rate: 800Gbps, cable: twinax, length: 3m}
workloads:
  - {kind: permutation, size: 4097}
)");
        for (std::size_t i = 0; i < sp.messages.src.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(sp.messages.completePs[i] - sp.messages.postPs[i],
                                  41340,
                                  "complete when every packet has left");
            NS_TEST_ASSERT_MSG_EQ(sp.messages.deliverPs[i] - sp.messages.postPs[i],
                                  318940,
                                  "delivered with the longer packet");
        }
    }
};

/**
 * The same scenario and seed give the same run; another seed changes only random choices.
 */
class ValidationDeterminismTestCase : public TestCase
{
  public:
    ValidationDeterminismTestCase()
        : TestCase("Same scenario and seed: identical message tables")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<std::string> lossy = {"pod.link.ber=1e-7"};
        RunResults a = RunText(MIXED, lossy);
        RunResults b = RunText(MIXED, lossy);
        NS_TEST_ASSERT_MSG_EQ((a.messages.deliverPs == b.messages.deliverPs), true, "same run");
        NS_TEST_ASSERT_MSG_EQ(a.bytesDropped, b.bytesDropped, "same drops");
        RunResults c = RunText(MIXED, {"pod.link.ber=1e-7", "seed=2"});
        NS_TEST_ASSERT_MSG_EQ((a.messages.dst == c.messages.dst), false, "new permutation");
    }
};

/**
 * The progress sampler never keeps a run alive, whether or not every message gets through.
 */
class ValidationProgressTerminatesTestCase : public TestCase
{
  public:
    ValidationProgressTerminatesTestCase()
        : TestCase("Progress sampling ends with the work, lossless or lossy")
    {
    }

  private:
    void DoRun() override
    {
        // Lossless with a stop time of 1 s: the work ends after some microseconds; neither the
        // sampler nor the pending stop event may stretch the run's end or its event count (a
        // sampler that ran on would add up to a thousand samples, one per millisecond at most).
        Experiment::Options o;
        o.writeResults = false;
        o.printSummary = false;
        o.progress = true;
        auto run = [&o](std::vector<std::string> overrides) {
            overrides.push_back("output.progress=true");
            return Experiment::Run(ScenarioLoader::LoadString(MIXED, "v.yaml", overrides), o);
        };
        RunResults base = run({});
        RunResults stopped = run({"stop=1s"});
        NS_TEST_ASSERT_MSG_EQ(stopped.simTimePs, base.simTimePs, "ends with the last message");
        NS_TEST_ASSERT_MSG_LT(stopped.simTimePs, 1000000000, "some microseconds, not 1 s");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(stopped.events, base.events + 2, "no samples after the work");

        // Lossy, no stop: some messages are never delivered (the fraction never reaches 1); the
        // sampler must stop when the network goes idle, or the run would never end.
        RunResults lossy = run({"pod.link.ber=1e-6"});
        NS_TEST_ASSERT_MSG_GT(lossy.bytesDropped, 0, "lossy");
        NS_TEST_ASSERT_MSG_LT(lossy.simTimePs, 1000000000, "ended");

        // A stop time that cuts the work short is the end of the run.
        RunResults cut = run({"stop=2us"});
        NS_TEST_ASSERT_MSG_EQ(cut.simTimePs, 2000000, "stopped at 2 us with messages outstanding");
    }
};

/**
 * Cross-module validation suite.
 */
class PodsimValidationTestSuite : public PicosecondTestSuite
{
  public:
    PodsimValidationTestSuite()
        : PicosecondTestSuite("podsim-validation", SYSTEM)
    {
        AddTestCase(new ValidationLosslessTestCase("single switch, 3 workloads", MIXED),
                    TestCase::QUICK);
        AddTestCase(new ValidationLosslessTestCase("two-tier leaf-spine", TWO_TIER),
                    TestCase::QUICK);
        AddTestCase(new ValidationLossyTestCase, TestCase::QUICK);
        AddTestCase(new ValidationAllPairsTestCase, TestCase::QUICK);
        AddTestCase(new ValidationClosedFormTestCase, TestCase::QUICK);
        AddTestCase(new ValidationDeterminismTestCase, TestCase::QUICK);
        AddTestCase(new ValidationProgressTerminatesTestCase, TestCase::QUICK);
    }
};

static PodsimValidationTestSuite g_podsimValidationTestSuite; //!< registers the suite
