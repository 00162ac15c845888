/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The flow engine (engine: flow, src/flow/doc/flow.rst) on pods whose times have a closed form,
// derived in each case's comment from the link rate, the framing and the latencies of the
// scenario (flow.rst, Validation): a lone message through a cut-through and a store-and-forward
// switch, an incast that shares the receiver's link, and a ring all-reduce whose 2(N-1) steps
// each wait for the previous chunk. Every case also checks conservation: every message is
// delivered, nothing is dropped, and the link table's bytes are the messages' wire bytes on
// every link they cross. The same scenarios run on the packet engine must agree with the
// closed form too (the packet engine is the reference the flow engine is validated against).

#include "ns3/experiment.h"
#include "ns3/picosecond-test-suite.h"
#include "ns3/run-results.h"
#include "ns3/scenario-loader.h"
#include "ns3/test.h"

#include <algorithm>
#include <cstdint>
#include <string>

using namespace ns3;

namespace
{

/**
 * Run a scenario text without writing or printing anything.
 * \param text the scenario
 * \param engine packet or flow
 * \return the results
 */
RunResults
RunText(const std::string& text, const std::string& engine)
{
    const Scenario s = ScenarioLoader::LoadString(text, "flow-engine.yaml", {"engine=" + engine});
    Experiment::Options o;
    o.writeResults = false;
    o.printSummary = false;
    o.progress = false;
    return Experiment::Run(s, o);
}

/// An 8-accelerator Ethernet pod: one switch, 100 Gb/s links of 100 ns, 250 ns switch pipeline.
std::string
Pod(const std::string& forwarding, const std::string& workload)
{
    return "name: flow-engine\n"
           "pod: {accelerators: 8, fabric: ethernet, link: {rate: 100Gbps, cable: direct, "
           "delay: 100ns}, switch: {latency: 250ns, forwarding: " +
           forwarding +
           "}}\n"
           "workloads:\n"
           "  - " +
           workload +
           "\n"
           "output: {progress: false}\n";
}

// The Ethernet NIC's framing (pod.nic defaults, pod.link.interframe-bytes): 4096 B of payload per
// packet, 18 B of header and FCS, 20 B of preamble and gap: 4134 B on the wire per full packet.
constexpr uint64_t kMtu = 4096;
constexpr uint64_t kUnitWire = 4096 + 18 + 20;
constexpr double kPsPerByte = 80; // 100 Gb/s: 8 bits / 100 Gb/s = 80 ps per byte
constexpr int64_t kDelayPs = 100000;
constexpr int64_t kPipelinePs = 250000;

/// \return the wire bytes of a message of \p bytes (full packets, then the rest with its own
/// header and gap)
uint64_t
WireBytes(uint64_t bytes)
{
    const uint64_t rest = bytes % kMtu;
    return bytes / kMtu * kUnitWire + (rest ? rest + 18 + 20 : 0);
}

} // namespace

/// A case that checks what every run must show: all delivered, nothing dropped, the links'
/// bytes equal to the messages' wire bytes.
class FlowTestCase : public TestCase
{
  public:
    /// \param name the case's name
    FlowTestCase(const std::string& name)
        : TestCase(name)
    {
    }

  protected:
    /// \param r a run's results
    void CheckConservation(const RunResults& r)
    {
        uint64_t wire = 0;
        for (std::size_t i = 0; i < r.messages.bytes.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_GT(r.messages.deliverPs[i], -1, "message " << i << " delivered");
            wire += WireBytes(r.messages.bytes[i]);
        }
        NS_TEST_EXPECT_MSG_EQ(r.bytesDropped, 0, "nothing dropped");
        uint64_t up = 0;
        uint64_t down = 0;
        for (std::size_t l = 0; l < r.links.name.size(); ++l)
        {
            (r.links.kind[l] == "acc-up" ? up : down) += r.links.txWireBytes[l];
        }
        // Conservation: each message crosses one up link and one down link of the one switch.
        NS_TEST_EXPECT_MSG_EQ(up, wire, "up links carry every message's wire bytes once");
        NS_TEST_EXPECT_MSG_EQ(down, wire, "down links carry every message's wire bytes once");
    }
};

/**
 * A lone 1 MiB message from accelerator 1 to 0. Its 256 packets take 256 x 4134 B = 1,058,304
 * B = 84,664,320 ps on the first link (80 ps per byte). After the last packet's tail has left:
 * 100 ns over the link, the switch pipeline of 250 ns (cut-through: its egress ends 250 ns after
 * the tail arrived; store-and-forward: 250 ns after the tail, plus the packet's 330,720 ps on the
 * egress link), 100 ns to the receiver. Delivered at 84,664,320 + 450,000 = 85,114,320 ps
 * (cut-through), 85,445,040 ps (store-and-forward); completed (the NIC completes a message when
 * its last packet has left, without a transport) at 84,664,320 ps.
 */
class FlowLoneMessageTestCase : public FlowTestCase
{
  public:
    FlowLoneMessageTestCase(const std::string& forwarding, const std::string& engine)
        : FlowTestCase("a lone 1 MiB message, " + forwarding + ", engine " + engine),
          m_forwarding(forwarding),
          m_engine(engine)
    {
    }

  private:
    void DoRun() override
    {
        const RunResults r =
            RunText(Pod(m_forwarding, "{kind: incast, senders: 1, receiver: 0, size: 1MiB}"),
                    m_engine);
        NS_TEST_ASSERT_MSG_EQ(r.messages.bytes.size(), 1, "one message");
        NS_TEST_EXPECT_MSG_EQ(r.engine, m_engine, "the results name the engine");
        const int64_t sent = static_cast<int64_t>(WireBytes(1 << 20) * kPsPerByte);
        NS_TEST_EXPECT_MSG_EQ(sent, 84664320, "the closed form's first term");
        const int64_t ser = static_cast<int64_t>(kUnitWire * kPsPerByte);
        const int64_t expect =
            sent + 2 * kDelayPs + kPipelinePs + (m_forwarding == "store-and-forward" ? ser : 0);
        NS_TEST_EXPECT_MSG_EQ(r.messages.deliverPs[0], expect, "delivery time");
        NS_TEST_EXPECT_MSG_EQ(r.messages.completePs[0], sent, "completion at the last packet");
        CheckConservation(r);
    }

    std::string m_forwarding; //!< the switch's forwarding mode
    std::string m_engine;     //!< packet or flow
};

/**
 * Seven senders write 256 KiB each to accelerator 0 at once: the receiver's link is the only
 * shared one, so max-min gives each 100/7 Gb/s and all seven finish sending together, when the
 * receiver's link has carried 7 x 64 x 4134 B = 1,852,032 B: at 148,162,560 ps; each is
 * delivered 450 ns later (the cut-through path after the tail). The packet engine interleaves
 * packets and delivers them one after another: its last delivery is at the same time to within
 * one packet's 330,720 ps, its first within 7 packets of it.
 */
class FlowIncastTestCase : public FlowTestCase
{
  public:
    FlowIncastTestCase()
        : FlowTestCase("an incast of 7 x 256 KiB shares the receiver's link")
    {
    }

  private:
    void DoRun() override
    {
        const std::string text =
            Pod("cut-through", "{kind: incast, senders: 7, receiver: 0, size: 256KiB}");
        const RunResults f = RunText(text, "flow");
        const RunResults p = RunText(text, "packet");
        NS_TEST_ASSERT_MSG_EQ(f.messages.bytes.size(), 7, "seven messages");
        const int64_t sent = static_cast<int64_t>(7 * WireBytes(256 << 10) * kPsPerByte);
        NS_TEST_EXPECT_MSG_EQ(sent, 148162560, "the closed form's first term");
        for (int64_t d : f.messages.deliverPs)
        {
            NS_TEST_EXPECT_MSG_EQ(d, sent + 2 * kDelayPs + kPipelinePs, "flow: delivery");
        }
        const int64_t last =
            *std::max_element(p.messages.deliverPs.begin(), p.messages.deliverPs.end());
        const int64_t ser = static_cast<int64_t>(kUnitWire * kPsPerByte);
        NS_TEST_EXPECT_MSG_LT_OR_EQ(std::abs(last - (sent + 2 * kDelayPs + kPipelinePs)),
                                    ser,
                                    "packet: the last delivery within one packet");
        CheckConservation(f);
        CheckConservation(p);
    }
};

/**
 * A ring all-reduce of 8 MiB over the 8 accelerators: 2 x 7 steps, in each every rank sends a
 * chunk of 1 MiB to its right-hand neighbour once it has received the previous step's chunk from
 * its left (src/collective/doc/collective.rst). The rings' links are disjoint (each up and down
 * link carries one flow): a step takes the lone message's 85,114,320 ps, the all-reduce 14 of
 * them, 1,191,600,480 ps, on both engines.
 */
class FlowRingTestCase : public FlowTestCase
{
  public:
    FlowRingTestCase(const std::string& engine)
        : FlowTestCase("a ring all-reduce of 8 MiB over 8, engine " + engine),
          m_engine(engine)
    {
    }

  private:
    void DoRun() override
    {
        const RunResults r =
            RunText(Pod("cut-through",
                        "{kind: collective, collective: all-reduce, algorithm: ring, size: 8MiB}"),
                    m_engine);
        NS_TEST_ASSERT_MSG_EQ(r.messages.bytes.size(), 8 * 14, "8 ranks x 14 steps");
        const int64_t step =
            static_cast<int64_t>(WireBytes(1 << 20) * kPsPerByte) + 2 * kDelayPs + kPipelinePs;
        const int64_t last =
            *std::max_element(r.messages.deliverPs.begin(), r.messages.deliverPs.end());
        NS_TEST_EXPECT_MSG_EQ(last, 14 * step, "14 steps of a lone message each");
        CheckConservation(r);
    }

    std::string m_engine; //!< packet or flow
};

/// The flow engine's closed-form cases.
class FlowEngineTestSuite : public PicosecondTestSuite
{
  public:
    FlowEngineTestSuite()
        : PicosecondTestSuite("flow-engine", UNIT)
    {
        for (const char* engine : {"flow", "packet"})
        {
            AddTestCase(new FlowLoneMessageTestCase("cut-through", engine), TestCase::QUICK);
            AddTestCase(new FlowLoneMessageTestCase("store-and-forward", engine), TestCase::QUICK);
            AddTestCase(new FlowRingTestCase(engine), TestCase::QUICK);
        }
        AddTestCase(new FlowIncastTestCase(), TestCase::QUICK);
    }
};

/// The suite's instance.
static FlowEngineTestSuite g_flowEngineTestSuite;
