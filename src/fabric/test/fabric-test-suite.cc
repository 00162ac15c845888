/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Unit and small-system tests of the fabric module. Every expected value is derived in the
// comment next to it: from the SUE spec's latency budget (RM102, Appendix A.1), from exact
// serialization arithmetic, or from conservation (bytes sent = received + dropped).

#include "ns3/basic-endpoint-helper.h"
#include "ns3/basic-endpoint.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/fabric-channel.h"
#include "ns3/fabric-drop-reason.h"
#include "ns3/fabric-link-helper.h"
#include "ns3/fabric-message-queue.h"
#include "ns3/fabric-message-supply.h"
#include "ns3/fabric-output-queue.h"
#include "ns3/fabric-routing-table.h"
#include "ns3/fabric-switch-helper.h"
#include "ns3/fabric-switch.h"
#include "ns3/node-container.h"
#include "ns3/picosecond-test-suite.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <vector>

using namespace ns3;

namespace
{

/// A star: n accelerators on one switch (one plane), for small-system tests.
struct Star
{
    NodeContainer acc;                     //!< accelerator nodes
    Ptr<Node> swNode;                      //!< switch node
    Ptr<FabricSwitch> sw;                  //!< the switch
    std::vector<Ptr<BasicEndpoint>> ep;    //!< endpoints
    std::vector<Ptr<FabricChannel>> links; //!< link i joins accelerator i and the switch
    std::vector<FabricMessage> delivered;  //!< delivered messages, in order
    std::vector<FabricMessage> completed;  //!< completed messages, in order

    /// Record a delivery.
    void OnDelivered(const FabricMessage& m)
    {
        delivered.push_back(m);
    }

    /// Record a completion.
    void OnCompleted(const FabricMessage& m)
    {
        completed.push_back(m);
    }

    /// \return payload bytes received intact at all endpoints
    uint64_t Received() const
    {
        uint64_t b = 0;
        for (const auto& e : ep)
        {
            b += e->GetReceivedPayloadBytes();
        }
        return b;
    }

    /// \return payload bytes posted at all endpoints
    uint64_t Sent() const
    {
        uint64_t b = 0;
        for (const auto& e : ep)
        {
            b += e->GetBytesSent();
        }
        return b;
    }

    /// \return payload bytes dropped anywhere, for one reason (empty: all reasons)
    uint64_t Dropped(const std::string& reason = "") const
    {
        uint64_t b = 0;
        auto add = [&](Ptr<FabricNetDevice> d) {
            for (const auto& [r, bytes] : d->GetStats().dropBytes)
            {
                if (reason.empty() || r == reason)
                {
                    b += bytes;
                }
            }
        };
        for (uint32_t i = 0; i < sw->GetNPorts(); ++i)
        {
            add(sw->GetPort(i));
        }
        for (const auto& e : ep)
        {
            add(e->GetDevice(0));
        }
        return b;
    }
};

/// Parameters of a star.
struct StarConfig
{
    uint32_t n{2};                  //!< accelerators
    DataRate rate{"800Gbps"};       //!< link rate
    Time delay{NanoSeconds(10)};    //!< propagation delay
    Time latency{NanoSeconds(250)}; //!< switch pipeline latency
    bool cutThrough{true};          //!< forwarding mode
    uint64_t buffer{64ull << 20};   //!< switch buffer
    double codewordErrorRate{0};    //!< channel error model
};

Star
BuildStar(const StarConfig& c)
{
    Star s;
    s.acc.Create(c.n);
    s.swNode = CreateObject<Node>();
    FabricSwitchHelper swh;
    swh.SetSwitchAttribute(
        "ForwardingMode",
        EnumValue(c.cutThrough ? FabricSwitch::CUT_THROUGH : FabricSwitch::STORE_AND_FORWARD));
    swh.SetSwitchAttribute("PipelineLatency", TimeValue(c.latency));
    swh.SetBufferAttribute("Size", UintegerValue(c.buffer));
    s.sw = swh.Install(s.swNode);
    FabricLinkHelper lh;
    lh.SetChannelAttribute("DataRate", DataRateValue(c.rate));
    lh.SetChannelAttribute("Delay", TimeValue(c.delay));
    lh.SetChannelAttribute("CodewordErrorRate", DoubleValue(c.codewordErrorRate));
    BasicEndpointHelper eh;
    for (uint32_t i = 0; i < c.n; ++i)
    {
        Ptr<BasicEndpoint> e = eh.Install(s.acc.Get(i), i);
        NetDeviceContainer d = lh.Install(s.acc.Get(i), s.swNode);
        e->AddDevice(DynamicCast<FabricNetDevice>(d.Get(0)));
        const uint32_t port = s.sw->AddPort(DynamicCast<FabricNetDevice>(d.Get(1)));
        s.sw->GetRoutingTable()->SetRoute(i, {port});
        s.ep.push_back(e);
        Ptr<FabricChannel> ch = DynamicCast<FabricNetDevice>(d.Get(0))->GetFabricChannel();
        ch->AssignStreams(100 + 2 * i);
        s.links.push_back(ch);
    }
    return s;
}

/// Hook a star's callbacks (after the star has its final address).
void
Hook(Star& s)
{
    for (auto& e : s.ep)
    {
        e->SetDeliveredCallback(MakeCallback(&Star::OnDelivered, &s));
        e->SetCompletedCallback(MakeCallback(&Star::OnCompleted, &s));
    }
}

} // namespace

/**
 * Channel arithmetic: serialization and cable delays.
 */
class FabricChannelTimingTestCase : public TestCase
{
  public:
    FabricChannelTimingTestCase()
        : TestCase("Channel serialization and cable delay are exact")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<FabricChannel> ch = CreateObject<FabricChannel>();
        ch->SetAttribute("DataRate", DataRateValue(DataRate("800Gbps")));
        // 4096 B * 8 bit / 800e9 bit/s = 40.96 ns exactly (picoseconds, never rounded to ns).
        NS_TEST_ASSERT_MSG_EQ(ch->GetSerializationTime(4096),
                              PicoSeconds(40960),
                              "4096 B at 800 Gb/s");
        // 1 B at 800 Gb/s = 10 ps; at 3 Gb/s 8/3 ns = 2666.67 ps, rounded up to 2667 ps.
        NS_TEST_ASSERT_MSG_EQ(ch->GetSerializationTime(1), PicoSeconds(10), "1 B at 800 Gb/s");
        ch->SetAttribute("DataRate", DataRateValue(DataRate("3Gbps")));
        NS_TEST_ASSERT_MSG_EQ(ch->GetSerializationTime(1), PicoSeconds(2667), "rounded up");

        // SUE spec Appendix A.1: 3 m twinax 13.8 ns, 5 m twinax 23 ns, 5 m single-mode 24.8 ns,
        // 10 m single-mode 49.6 ns, 5 m hollow-core 17.5 ns, 10 m hollow-core 35.0 ns.
        struct
        {
            FabricChannel::CableType type;
            double metres;
            int64_t ps;
        } cables[] = {{FabricChannel::TWINAX, 3, 13800},
                      {FabricChannel::TWINAX, 5, 23000},
                      {FabricChannel::SINGLE_MODE, 5, 24800},
                      {FabricChannel::SINGLE_MODE, 10, 49600},
                      {FabricChannel::HOLLOW_CORE, 5, 17500},
                      {FabricChannel::HOLLOW_CORE, 10, 35000}};

        for (const auto& c : cables)
        {
            ch->SetAttribute("CableType", EnumValue(c.type));
            ch->SetAttribute("CableLength", DoubleValue(c.metres));
            NS_TEST_ASSERT_MSG_EQ(ch->GetPropagationDelay(), PicoSeconds(c.ps), "cable delay");
        }
        // FEC latency adds to the one-way delay.
        ch->SetAttribute("FecLatency", TimeValue(NanoSeconds(100)));
        NS_TEST_ASSERT_MSG_EQ(ch->GetOneWayDelay(), PicoSeconds(135000), "cable + FEC");
        // Direct: the Delay attribute.
        ch->SetAttribute("CableType", EnumValue(FabricChannel::DIRECT));
        ch->SetAttribute("Delay", TimeValue(NanoSeconds(7)));
        NS_TEST_ASSERT_MSG_EQ(ch->GetPropagationDelay(), NanoSeconds(7), "direct delay");
        ch->Dispose();
    }
};

/**
 * One packet through one switch: delivery time in cut-through and store-and-forward.
 */
class FabricSwitchLatencyTestCase : public TestCase
{
  public:
    /// \param cutThrough forwarding mode
    FabricSwitchLatencyTestCase(bool cutThrough)
        : TestCase(cutThrough ? "Cut-through latency is exactly 2d + L + T"
                              : "Store-and-forward latency is exactly 2d + L + 2T"),
          m_cutThrough(cutThrough)
    {
    }

  private:
    void DoRun() override
    {
        StarConfig c;
        c.cutThrough = m_cutThrough;
        Star s = BuildStar(c);
        Hook(s);
        s.ep[0]->Send(1, 1000, 0, 42);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(s.delivered.size(), 1, "one message delivered");
        // Frame 1000 + 18 (Ethernet header + FCS) = 1018 B, plus 20 B preamble/IPG on the wire:
        // T = 1038 * 8 / 800e9 s = 10.38 ns. d = 10 ns per link, L = 250 ns.
        // Cut-through: the switch acts L after the head arrives (t = d + L) and the receiver gets
        // the tail T later, one more d on: 2d + L + T = 280.38 ns.
        // Store-and-forward: the switch acts L after the tail arrives (T + d + L): 2d + L + 2T
        // = 290.76 ns.
        const Time t = PicoSeconds(10380);
        const Time d = NanoSeconds(10);
        const Time l = NanoSeconds(250);
        const Time expected = m_cutThrough ? 2 * d + l + t : 2 * d + l + 2 * t;
        NS_TEST_ASSERT_MSG_EQ(s.delivered[0].delivered, expected, "delivery time");
        NS_TEST_ASSERT_MSG_EQ(s.delivered[0].cookie, 42, "cookie returned");
        // Completion of a plain NIC is local: the last bit left the NIC at T.
        NS_TEST_ASSERT_MSG_EQ(s.completed.size(), 1, "one completion");
        NS_TEST_ASSERT_MSG_EQ(s.completed[0].completed, t, "local completion at T");
        Simulator::Destroy();
    }

    bool m_cutThrough; //!< forwarding mode
};

/**
 * Messages of any size are delivered once, whole and in order.
 */
class FabricMessageSizeTestCase : public TestCase
{
  public:
    /// \param bytes message size
    FabricMessageSizeTestCase(uint64_t bytes)
        : TestCase("A message of " + std::to_string(bytes) +
                   " B is delivered once, whole, in order"),
          m_bytes(bytes)
    {
    }

  private:
    void DoRun() override
    {
        StarConfig c;
        Star s = BuildStar(c);
        Hook(s);
        // Three messages back to back, so order between messages is checked too.
        for (uint64_t k = 0; k < 3; ++k)
        {
            s.ep[0]->Send(1, m_bytes, 0, k);
        }
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(s.delivered.size(), 3, "each message delivered exactly once");
        for (uint64_t k = 0; k < 3; ++k)
        {
            NS_TEST_EXPECT_MSG_EQ(s.delivered[k].cookie, k, "messages delivered in post order");
            NS_TEST_EXPECT_MSG_EQ(s.delivered[k].bytes, m_bytes, "whole message");
        }
        NS_TEST_ASSERT_MSG_EQ(s.ep[1]->GetOutOfOrderUnits(), 0, "units in order");
        // Conservation: every byte sent arrived, nothing dropped.
        NS_TEST_ASSERT_MSG_EQ(s.Received(), 3 * m_bytes, "bytes received = bytes sent");
        NS_TEST_ASSERT_MSG_EQ(s.Dropped(), 0, "no drops");
        // Units: ceil(bytes / MTU) per message, MTU = 4096.
        const uint64_t units = (m_bytes + 4095) / 4096;
        NS_TEST_ASSERT_MSG_EQ(s.ep[0]->GetDevice(0)->GetStats().txUnits, 3 * units, "units");
        if (m_bytes == (1u << 20))
        {
            // Pipelined on an idle cut-through path: the NIC serializes the 256 full units of the
            // first message back to back (T = (4096 + 18 + 20) * 8 / 800e9 s = 41.34 ns) and the
            // last one reaches the receiver 2d + L + T after it starts: 256 T + 2d + L.
            const Time expected = 256 * PicoSeconds(41340) + NanoSeconds(20 + 250);
            NS_TEST_ASSERT_MSG_EQ(s.delivered[0].delivered, expected, "pipelined delivery");
        }
        Simulator::Destroy();
    }

    uint64_t m_bytes; //!< message size
};

/**
 * Incast through one output: round-robin shares and a busy bottleneck; the closed-form finish.
 */
class FabricIncastFairnessTestCase : public TestCase
{
  public:
    FabricIncastFairnessTestCase()
        : TestCase("Incast: the bottleneck is never idle and inputs share it round robin")
    {
    }

  private:
    void DoRun() override
    {
        StarConfig c;
        c.n = 5;
        Star s = BuildStar(c);
        Hook(s);
        const uint32_t k = 4;
        for (uint32_t i = 1; i <= k; ++i)
        {
            s.ep[i]->Send(0, 1 << 20, 0, i);
        }
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(s.delivered.size(), k, "all delivered");
        // The egress to accelerator 0 starts at d + L and stays busy for the 4 * 256 units of
        // T = 41.34 ns each; the last reaches the receiver d + T after it starts:
        // 2d + L + 1024 T.
        const Time t = PicoSeconds(41340);
        const Time last = 2 * NanoSeconds(10) + NanoSeconds(250) + 1024 * t;
        Time first = Time::Max();
        Time end = Time(0);
        for (const auto& m : s.delivered)
        {
            first = std::min(first, m.delivered);
            end = std::max(end, m.delivered);
        }
        NS_TEST_ASSERT_MSG_EQ(end, last, "bottleneck busy from first unit to last");
        // Round robin over inputs: the four messages end within one round (k units).
        NS_TEST_ASSERT_MSG_LT_OR_EQ(end - first, k * t, "fair shares: finishes within one round");
        // The bottleneck port's busy time equals its 1024 units exactly.
        Ptr<FabricNetDevice> egress = s.sw->GetPort(0);
        NS_TEST_ASSERT_MSG_EQ(egress->GetStats().busyTime, 1024 * t, "busy 100% of the incast");
        NS_TEST_ASSERT_MSG_EQ(s.Dropped(), 0, "no drops with a 64 MiB buffer");
        // 3/4 of the data waits at the switch at the peak: at least 3 MiB, less than 4 MiB.
        const uint64_t peak = s.sw->GetBuffer()->GetPeakOccupancy();
        NS_TEST_ASSERT_MSG_GT(peak, 3ull << 20, "peak buffer");
        NS_TEST_ASSERT_MSG_LT(peak, 4ull << 20, "peak buffer");
        NS_TEST_ASSERT_MSG_EQ(s.sw->GetBuffer()->GetOccupancy(), 0, "buffer drained");
        Simulator::Destroy();
    }
};

/**
 * A small buffer drops (BufferFull), and bytes are conserved: sent = received + dropped.
 */
class FabricBufferDropTestCase : public TestCase
{
  public:
    FabricBufferDropTestCase()
        : TestCase("Buffer overflow drops are named and counted; bytes are conserved")
    {
    }

  private:
    void DoRun() override
    {
        StarConfig c;
        c.n = 9;
        c.buffer = 64 << 10; // 64 KiB shared buffer for an 8 x 256 KiB incast
        Star s = BuildStar(c);
        Hook(s);
        for (uint32_t i = 1; i < c.n; ++i)
        {
            s.ep[i]->Send(0, 256 << 10, 0, i);
        }
        Simulator::Run();
        const uint64_t dropped = s.Dropped(FabricDropReason::BUFFER_FULL);
        NS_TEST_ASSERT_MSG_GT(dropped, 0, "the incast overflows 64 KiB");
        NS_TEST_ASSERT_MSG_EQ(s.Dropped(), dropped, "every drop is a BufferFull drop");
        NS_TEST_ASSERT_MSG_EQ(s.Sent(), 8ull * (256 << 10), "sent");
        NS_TEST_ASSERT_MSG_EQ(s.Received() + dropped, s.Sent(), "conservation");
        const bool counted = s.sw->GetDrops().at(FabricDropReason::BUFFER_FULL) > 0;
        NS_TEST_ASSERT_MSG_EQ(counted, true, "switch counts the reason");
        // Messages with a lost unit are never delivered; the others are.
        NS_TEST_ASSERT_MSG_LT(s.delivered.size(), 8, "some messages lost a unit");
        Simulator::Destroy();
    }
};

/**
 * A denied route (fault injection, FabricSwitch::SetDenied): the switch drops exactly what
 * arrives from the denied ingress for the denied destination, with the named reason RouteDenied,
 * before the route lookup. Three accelerators; 1 -> 2 is denied; 1 -> 0 and 0 -> 2 (the same
 * destination from another ingress, the same ingress to another destination) are not.
 */
class FabricRouteDeniedTestCase : public TestCase
{
  public:
    FabricRouteDeniedTestCase()
        : TestCase("A denied route drops only that ingress and destination, as RouteDenied")
    {
    }

  private:
    void DoRun() override
    {
        StarConfig c;
        c.n = 3;
        Star s = BuildStar(c);
        Hook(s);
        // Port i of the switch is accelerator i's (BuildStar adds them in order).
        s.sw->SetDenied(1, 2, true);
        const uint64_t bytes = 3 * 4096; // whole units of the default 4 KiB MTU
        s.ep[1]->Send(2, bytes, 0, 0);
        s.ep[1]->Send(0, bytes, 0, 1);
        s.ep[0]->Send(2, bytes, 0, 2);
        Simulator::Run();
        // Conservation: 3 messages posted; the denied one is dropped whole, the others arrive.
        NS_TEST_ASSERT_MSG_EQ(s.Sent(), 3 * bytes, "sent");
        NS_TEST_ASSERT_MSG_EQ(s.Dropped(FabricDropReason::ROUTE_DENIED), bytes, "denied bytes");
        NS_TEST_ASSERT_MSG_EQ(s.Dropped(), bytes, "no other drop");
        NS_TEST_ASSERT_MSG_EQ(s.Received() + bytes, s.Sent(), "conservation");
        NS_TEST_ASSERT_MSG_EQ(s.delivered.size(), 2, "the two allowed messages arrive");
        for (const auto& m : s.delivered)
        {
            NS_TEST_ASSERT_MSG_EQ((m.src == 1 && m.dst == 2), false, "not the denied pair");
        }
        // Allowed again, the pair gets through.
        s.sw->SetDenied(1, 2, false);
        s.ep[1]->Send(2, bytes, 0, 3);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(s.delivered.size(), 3, "allowed again");
        Simulator::Destroy();
    }
};

/**
 * Codeword errors: an injected error drops exactly that unit; random errors match the formula.
 */
class FabricCodewordErrorTestCase : public TestCase
{
  public:
    FabricCodewordErrorTestCase()
        : TestCase("Codeword error model: injected and random corruption, counted as Corrupted")
    {
    }

  private:
    void DoRun() override
    {
        {
            StarConfig c;
            Star s = BuildStar(c);
            Hook(s);
            // Unit 3 of accelerator 0's link is corrupted: message 1 (units 2 and 3) is lost.
            s.links[0]->InjectError(s.ep[0]->GetDevice(0), 3);
            for (uint64_t k = 0; k < 4; ++k)
            {
                s.ep[0]->Send(1, 8192, 0, k);
            }
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(s.delivered.size(), 3, "one message lost");
            NS_TEST_ASSERT_MSG_EQ(s.delivered[1].cookie, 2, "message 1 missing");
            NS_TEST_ASSERT_MSG_EQ(s.Dropped(FabricDropReason::CORRUPTED), 4096, "one unit");
            NS_TEST_ASSERT_MSG_EQ(s.Received() + s.Dropped(), s.Sent(), "conservation");
            Simulator::Destroy();
        }
        {
            StarConfig c;
            c.codewordErrorRate = 1e-2;
            Star s = BuildStar(c);
            Hook(s);
            const uint32_t messages = 2000;
            for (uint32_t k = 0; k < messages; ++k)
            {
                s.ep[0]->Send(1, 4096, 0, k);
            }
            Simulator::Run();
            // A unit is 4096 + 18 + 20 = 4134 B = 33072 bits on the wire: ceil(33072 / 5140)
            // = 7 codewords. It survives a link with probability 0.99^7 and two links with
            // 0.99^14, so the expected loss is 1 - 0.99^14 = 13.13% of 2000 units = 262.5
            // (standard deviation 15). The run is deterministic (fixed streams); the bound is
            // four standard deviations.
            const double expected = messages * (1 - std::pow(0.99, 14));
            const double lost = s.Dropped(FabricDropReason::CORRUPTED) / 4096.0;
            NS_TEST_ASSERT_MSG_EQ_TOL(lost, expected, 60.0, "loss matches the codeword model");
            NS_TEST_ASSERT_MSG_EQ(s.Received() + s.Dropped(), s.Sent(), "conservation");
            NS_TEST_ASSERT_MSG_EQ(s.delivered.size() + static_cast<uint32_t>(lost),
                                  messages,
                                  "one-unit messages: delivered + lost = sent");
            Simulator::Destroy();
        }
        {
            // Per direction: errors only from accelerator 0 to the switch. Unit probability
            // 1 - 0.99^7 = 6.79% on that link alone: 135.9 of 2000 units (sd 11); nothing is lost
            // in the other directions, so accelerator 1's traffic to 0 arrives whole.
            StarConfig c;
            Star s = BuildStar(c);
            Hook(s);
            Ptr<FabricNetDevice> up = s.ep[0]->GetDevice(0);
            s.links[0]->SetErrorRates(up, 1e-2, 0);
            NS_TEST_ASSERT_MSG_EQ_TOL(s.links[0]->GetUnitErrorProbability(up, 4134),
                                      1 - std::pow(0.99, 7),
                                      1e-12,
                                      "7 codewords per unit");
            NS_TEST_ASSERT_MSG_EQ(s.links[0]->GetUnitErrorProbability(s.sw->GetPort(0), 4134),
                                  0.0,
                                  "the reverse direction is clean");
            for (uint32_t k = 0; k < 2000; ++k)
            {
                s.ep[0]->Send(1, 4096, 0, k);
                s.ep[1]->Send(0, 4096, 0, k);
            }
            Simulator::Run();
            const double lost = s.Dropped(FabricDropReason::CORRUPTED) / 4096.0;
            NS_TEST_ASSERT_MSG_EQ_TOL(lost, 2000 * (1 - std::pow(0.99, 7)), 45.0, "one direction");
            NS_TEST_ASSERT_MSG_EQ(s.ep[0]->GetReceivedPayloadBytes(), 2000 * 4096, "reverse whole");
            Simulator::Destroy();
        }
    }
};

/**
 * Output queue: round robin over inputs within a class; classes round robin or strict priority.
 */
class FabricOutputQueueOrderTestCase : public TestCase
{
  public:
    FabricOutputQueueOrderTestCase()
        : TestCase("Output queue serves inputs and classes in the documented order")
    {
    }

  private:
    static Ptr<FabricPacket> Unit(uint32_t in, uint8_t tclass, uint32_t seq)
    {
        Ptr<FabricPacket> p = Create<FabricPacket>();
        p->inPort = in;
        p->tclass = tclass;
        p->offset = seq;
        p->payloadBytes = 100;
        return p;
    }

    void DoRun() override
    {
        Ptr<FabricOutputQueue> q = CreateObject<FabricOutputQueue>();
        // Input 0 queues 3 units, input 1 one, input 2 two, all class 0: round robin gives
        // 0,1,2,0,2,0 and each input's units in FIFO order.
        uint32_t seq = 0;
        for (uint32_t in : {0, 0, 0, 1, 2, 2})
        {
            q->Enqueue(Unit(in, 0, seq++));
        }
        std::vector<uint32_t> order;
        while (!q->IsEmpty())
        {
            order.push_back(q->Dequeue()->inPort);
        }
        NS_TEST_ASSERT_MSG_EQ((order == std::vector<uint32_t>{0, 1, 2, 0, 2, 0}), true, "RR");

        // Classes round robin: class 1 and 3 alternate.
        for (uint32_t i = 0; i < 2; ++i)
        {
            q->Enqueue(Unit(0, 1, i));
            q->Enqueue(Unit(0, 3, i));
        }
        std::vector<uint32_t> classes;
        while (!q->IsEmpty())
        {
            classes.push_back(q->Dequeue()->tclass);
        }
        NS_TEST_ASSERT_MSG_EQ((classes == std::vector<uint32_t>{1, 3, 1, 3}), true, "class RR");

        // Strict priority: class 3 first.
        Ptr<FabricOutputQueue> sp = CreateObject<FabricOutputQueue>();
        sp->SetAttribute("ClassScheduling", EnumValue(FabricOutputQueue::STRICT_PRIORITY));
        for (uint32_t i = 0; i < 2; ++i)
        {
            sp->Enqueue(Unit(0, 1, i));
            sp->Enqueue(Unit(0, 3, i));
        }
        classes.clear();
        while (!sp->IsEmpty())
        {
            classes.push_back(sp->Dequeue()->tclass);
        }
        NS_TEST_ASSERT_MSG_EQ((classes == std::vector<uint32_t>{3, 3, 1, 1}), true, "strict");
        NS_TEST_ASSERT_MSG_EQ(q->GetBytes(), 0, "empty");
    }
};

/**
 * Routing table: equal-cost groups stored once, ECMP spreads by hash.
 */
class FabricRoutingTableTestCase : public TestCase
{
  public:
    FabricRoutingTableTestCase()
        : TestCase("Routing table dedups port groups and spreads ECMP by hash")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<FabricRoutingTable> t = CreateObject<FabricRoutingTable>();
        // A leaf with 4 local accelerators (ports 0-3) and 4 uplinks (ports 4-7) in a pod of 64:
        // 4 single-port groups and one uplink group for the 60 remote destinations.
        for (uint32_t d = 0; d < 64; ++d)
        {
            if (d < 4)
            {
                t->SetRoute(d, {d});
            }
            else
            {
                t->SetRoute(d, {4, 5, 6, 7});
            }
        }
        NS_TEST_ASSERT_MSG_EQ(t->GetNGroups(), 5, "5 distinct groups");
        NS_TEST_ASSERT_MSG_EQ(t->Lookup(2, 12345), 2, "local port");
        std::vector<uint32_t> hits(8, 0);
        for (uint32_t h = 0; h < 4000; ++h)
        {
            hits[t->Lookup(40, h)]++;
        }
        for (uint32_t p = 4; p < 8; ++p)
        {
            NS_TEST_ASSERT_MSG_EQ(hits[p], 1000, "hash mod 4 spreads evenly");
        }
        NS_TEST_ASSERT_MSG_EQ(t->Lookup(64, 0), FabricRoutingTable::NO_PORT, "no route");
    }
};

/**
 * The fabric module's test suite.
 */
/**
 * Lazy posting (BasicEndpoint::PostLazily): a supply of messages is posted one at a time, each
 * when the queue's FIFO is empty, and delivered at the times of posting them all at once.
 */
class FabricLazyPostingTestCase : public TestCase
{
  public:
    /// \param lazy post through a supply (else: Send() every message at the start)
    FabricLazyPostingTestCase(bool lazy)
        : TestCase(std::string(lazy ? "Lazy" : "Eager") +
                   " posting of 20 one-unit messages: deliveries at (k + 1) T + 2d + L"),
          m_lazy(lazy)
    {
    }

  private:
    /// 20 messages of 4096 B from accelerator 0, alternately to 1 and 2, posted at 0.
    class Supply : public FabricMessageSupply
    {
      public:
        uint64_t GetRemaining() const override
        {
            return N - m_next;
        }

        uint64_t GetRemainingBytes() const override
        {
            return (N - m_next) * 4096;
        }

        uint8_t GetTclass() const override
        {
            return 0;
        }

        bool Next(FabricMessage& m) override
        {
            if (m_next == N)
            {
                return false;
            }
            m.dst = 1 + m_next % 2;
            m.bytes = 4096;
            m.tclass = 0;
            m.cookie = m_next++;
            m.posted = Time(0);
            return true;
        }

        static constexpr uint64_t N = 20; //!< messages
        uint64_t m_next{0};               //!< next message
    };

    /// At each post: the messages the queue holds (its FIFO), the supply's excepted.
    void OnPost(const FabricMessage& m)
    {
        m_postTimes.push_back(Simulator::Now());
        // Lazy: the queue counts the supply's messages too; eager: it does not know the supply.
        m_held.push_back(m_queue->GetNMessages() - (m_lazy ? m_supply->GetRemaining() : 0));
        NS_TEST_EXPECT_MSG_EQ(m.posted, Time(0), "the supply's post time is kept");
    }

    void DoRun() override
    {
        StarConfig c;
        c.n = 3;
        Star s = BuildStar(c);
        Hook(s);
        m_queue = DynamicCast<FabricMessageQueue>(s.ep[0]->GetDevice(0)->GetTxQueue());
        NS_TEST_ASSERT_MSG_NE(m_queue, nullptr, "a NIC without transport sends from its queue");
        m_supply = Create<Supply>();
        s.ep[0]->TraceConnectWithoutContext("Post",
                                            MakeCallback(&FabricLazyPostingTestCase::OnPost, this));
        if (m_lazy)
        {
            NS_TEST_ASSERT_MSG_EQ(s.ep[0]->PostLazily(m_supply), true, "one queue: taken");
            // The first message is posted at once and the idle port takes its unit; the port's
            // transmit start then finds the FIFO empty and pulls the second: 18 stay in the
            // supply.
            NS_TEST_ASSERT_MSG_EQ(m_supply->GetRemaining(), Supply::N - 2, "two posted now");
        }
        else
        {
            FabricMessage m;
            while (m_supply->Next(m))
            {
                s.ep[0]->Send(m.dst, m.bytes, m.tclass, m.cookie);
            }
        }
        // Either way the queue reports the 19 messages whose units are not taken yet (lazy: the
        // supply's included).
        NS_TEST_ASSERT_MSG_EQ(m_queue->GetNMessages(), Supply::N - 1, "messages waiting");
        NS_TEST_ASSERT_MSG_EQ(m_queue->GetBacklogBytes(), (Supply::N - 1) * 4096, "backlog");
        Simulator::Run();
        const uint64_t n = Supply::N;
        NS_TEST_ASSERT_MSG_EQ(s.delivered.size(), n, "every message delivered");
        // One unit per message (4096 B = the MTU), serialized back to back by the NIC:
        // T = (4096 + 18 + 20) * 8 / 800e9 s = 41.34 ns. Consecutive units go to different
        // receivers, so each path is idle: unit k starts at k T and its tail reaches the
        // receiver 2d + L + T later (cut-through), d = 10 ns, L = 250 ns.
        const Time t = PicoSeconds(41340);
        for (uint64_t k = 0; k < n; ++k)
        {
            NS_TEST_EXPECT_MSG_EQ(s.delivered[k].cookie, k, "post order");
            NS_TEST_EXPECT_MSG_EQ(s.delivered[k].delivered,
                                  (k + 1) * t + NanoSeconds(20 + 250),
                                  "delivery of message " << k);
            NS_TEST_EXPECT_MSG_EQ(s.delivered[k].posted, Time(0), "posted at 0");
        }
        NS_TEST_ASSERT_MSG_EQ(s.ep[0]->GetBytesSent(), n * 4096, "every message posted");
        NS_TEST_ASSERT_MSG_EQ(s.Received(), n * 4096, "bytes received = bytes sent");
        NS_TEST_ASSERT_MSG_EQ(s.Dropped(), 0, "no drops");
        NS_TEST_ASSERT_MSG_EQ(m_postTimes.size(), n, "every message posted once");
        for (uint64_t k = 0; k < n; ++k)
        {
            if (m_lazy)
            {
                // Message k (k >= 1) is posted when message k - 1 left the FIFO, as the port
                // started its unit at (k - 1) T; the FIFO was then empty.
                const Time at = k == 0 ? Time(0) : (k - 1) * t;
                NS_TEST_EXPECT_MSG_EQ(m_postTimes[k], at, "lazy post time of message " << k);
                NS_TEST_EXPECT_MSG_EQ(m_held[k], 0, "posted when the FIFO was empty");
            }
            else
            {
                // Eager: all at 0, the FIFO holding the k earlier ones (the first one's unit
                // already taken by the port: k - 1 for k >= 1).
                NS_TEST_EXPECT_MSG_EQ(m_postTimes[k], Time(0), "eager post time");
                const uint64_t depth = k == 0 ? 0 : k - 1;
                NS_TEST_EXPECT_MSG_EQ(m_held[k], depth, "eager FIFO depth");
            }
        }
        m_queue = nullptr;
        m_supply = nullptr;
        Simulator::Destroy();
    }

    bool m_lazy;                     //!< lazy or eager
    Ptr<FabricMessageQueue> m_queue; //!< the sender's queue
    Ptr<Supply> m_supply;            //!< the messages
    std::vector<Time> m_postTimes;   //!< time of each post
    std::vector<uint64_t> m_held;    //!< FIFO depth at each post
};

class FabricTestSuite : public PicosecondTestSuite
{
  public:
    FabricTestSuite()
        : PicosecondTestSuite("fabric", UNIT)
    {
        AddTestCase(new FabricChannelTimingTestCase, TestCase::QUICK);
        AddTestCase(new FabricSwitchLatencyTestCase(true), TestCase::QUICK);
        AddTestCase(new FabricSwitchLatencyTestCase(false), TestCase::QUICK);
        for (uint64_t bytes : {1ull, 4096ull, 4097ull, 1ull << 20})
        {
            AddTestCase(new FabricMessageSizeTestCase(bytes), TestCase::QUICK);
        }
        AddTestCase(new FabricIncastFairnessTestCase, TestCase::QUICK);
        AddTestCase(new FabricBufferDropTestCase, TestCase::QUICK);
        AddTestCase(new FabricRouteDeniedTestCase, TestCase::QUICK);
        AddTestCase(new FabricCodewordErrorTestCase, TestCase::QUICK);
        AddTestCase(new FabricOutputQueueOrderTestCase, TestCase::QUICK);
        AddTestCase(new FabricRoutingTableTestCase, TestCase::QUICK);
        AddTestCase(new FabricLazyPostingTestCase(false), TestCase::QUICK);
        AddTestCase(new FabricLazyPostingTestCase(true), TestCase::QUICK);
    }
};

static FabricTestSuite g_fabricTestSuite; //!< registers the suite
