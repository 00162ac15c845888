/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Tests of the lossless mechanisms of the fabric module: PFC, credit-based flow control and the
// link-level retry engine. Every expected value is derived next to it from exact serialization
// arithmetic, from a closed form (the credit loop, the go-back-N efficiency, the RIFL pause) or
// from conservation (bytes sent = bytes delivered, zero drops).

#include "ns3/basic-endpoint-helper.h"
#include "ns3/basic-endpoint.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/fabric-channel.h"
#include "ns3/fabric-credit-flow-control.h"
#include "ns3/fabric-drop-reason.h"
#include "ns3/fabric-link-helper.h"
#include "ns3/fabric-pfc.h"
#include "ns3/fabric-retry-engine.h"
#include "ns3/fabric-switch-helper.h"
#include "ns3/fabric-switch.h"
#include "ns3/node-container.h"
#include "ns3/picosecond-test-suite.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>
#include <vector>

using namespace ns3;

namespace
{

/// Seconds to serialize \p bytes at \p bps.
double
TxSeconds(uint64_t bytes, double bps)
{
    return bytes * 8.0 / bps;
}

/// \return a BER as text, e.g. "1e-07"
std::string
BerName(double ber)
{
    std::ostringstream os;
    os << ber;
    return os.str();
}

/**
 * Efficiency of NakOnly link retry (RIFL paper section II.A and Figure 1) on a saturated
 * link whose data units are lost with probability \p p each and whose NAKs (on the idle
 * reverse direction) with probability \p q each.
 *
 * A unit u that is lost on its first transmission starts an episode: the sender keeps sending
 * new units until the receiver's NAK arrives, L = tU + 2d + tC after u started (the receiver
 * acts on u's tail), so K = ceil(L / tU) units (u and the K - 1 after it, which the in-order
 * receiver discards) have been sent. The NAK starts a retransmission cycle of P = 2.5 RTT: new
 * data stops, the K units are replayed at once. A replayed unit that is lost again is NAKed
 * within the cycle and the sender starts another cycle, replaying from it, when this one ends;
 * the units after it in the same cycle are discarded. So the cycles of an episode are one plus
 * the failures before K successes in a row of Bernoulli trials, a negative binomial count of
 * mean K p / (1 - p). When the episode's first NAK is lost, the sender (which sees a corrupted
 * frame) stops new data at once, but its cycle starts only when the receiver's repeat
 * arrives, NakRepeat R later; R q / (1 - q) on average. (A later NAK that is lost only delays
 * the mark for the next cycle, within the cycle.) The episode lasts
 * L + R q / (1 - q) + P (1 + K p / (1 - p)) for K units; a unit delivered on its first
 * transmission takes tU. Renewal reward over "a new unit is sent":
 *
 *   eta = tU ((1 - p) + p K) / ((1 - p) tU + p (L + R q / (1 - q) + P (1 + K p / (1 - p))))
 *
 * For small p and q = 0 this is 1 / (1 + p W / tU) with W = L + P - K tU, the NAK loop plus
 * the pause less the K units it replays: the waste of one error.
 *
 * \param p unit loss probability
 * \param tU wire time of a unit (s)
 * \param loop L, from the start of a unit to the arrival of its NAK (s)
 * \param pause P, the retransmission cycle (s)
 * \param q NAK loss probability
 * \param repeat R, the NAK repeat interval (s)
 * \return the efficiency: delivered units x tU over the elapsed time
 */
double
NakOnlyEfficiency(double p, double tU, double loop, double pause, double q = 0, double repeat = 0)
{
    const double k = std::ceil(loop / tU);
    const double ok = 1 - p;
    const double episode = loop + repeat * q / (1 - q) + pause * (1 + k * p / ok);
    return tU * (ok + p * k) / (ok * tU + p * episode);
}

/// Two accelerators joined by one link, no switch.
struct Pair
{
    Ptr<Node> a;                             //!< sender node
    Ptr<Node> b;                             //!< receiver node
    Ptr<BasicEndpoint> ea;                   //!< sender endpoint
    Ptr<BasicEndpoint> eb;                   //!< receiver endpoint
    Ptr<FabricNetDevice> da;                 //!< sender port
    Ptr<FabricNetDevice> db;                 //!< receiver port
    Ptr<FabricChannel> ch;                   //!< the link
    std::map<uint64_t, uint32_t> deliveries; //!< deliveries per message id
    std::map<uint64_t, Time> deliveredAt;    //!< delivery time per message id
    std::map<uint64_t, Time> completedAt;    //!< completion time per message id (sender a)

    /// Record a delivery.
    void OnDelivered(const FabricMessage& m)
    {
        deliveries[m.id]++;
        deliveredAt[m.id] = Simulator::Now();
    }

    /// Record a completion at a.
    void OnCompleted(const FabricMessage& m)
    {
        completedAt[m.id] = Simulator::Now();
    }
};

/// How to build a pair.
struct PairConfig
{
    DataRate rate{"800Gbps"};     //!< link rate
    Time delay{NanoSeconds(100)}; //!< propagation delay (direct cable)
    std::string fc;               //!< flow control TypeId, or ""
    uint64_t creditBytes{65536};  //!< CBFC: receive buffer per VC
    bool llr{false};              //!< link-level retry
    bool nakOnly{false};          //!< NakOnly signalling
    uint32_t mtu{4096};           //!< payload per unit
    uint32_t header{18};          //!< header per unit
    uint32_t ifg{20};             //!< per-frame wire overhead
    uint32_t deviceMtu{9000};     //!< device MTU (automatic LLR timers)
    double cableM{0};             //!< single-mode fibre length (m); 0: use delay
    bool gbn{false};              //!< go-back-N transport on both endpoints
    uint32_t gbnWindow{64};       //!< its window (units)
    Time rto{MicroSeconds(20)};   //!< its retransmission timeout
};

/// Build a pair; the caller owns the simulator run.
Pair
BuildPair(const PairConfig& c)
{
    Pair p;
    p.a = CreateObject<Node>();
    p.b = CreateObject<Node>();
    FabricLinkHelper lh;
    lh.SetChannelAttribute("DataRate", DataRateValue(c.rate));
    if (c.cableM > 0)
    {
        lh.SetChannelAttribute("CableType", EnumValue(FabricChannel::SINGLE_MODE));
        lh.SetChannelAttribute("CableLength", DoubleValue(c.cableM));
    }
    else
    {
        lh.SetChannelAttribute("Delay", TimeValue(c.delay));
    }
    lh.SetDeviceAttribute("InterframeBytes", UintegerValue(c.ifg));
    lh.SetDeviceAttribute("Mtu", UintegerValue(c.deviceMtu));
    if (c.fc == "ns3::FabricCreditFlowControl")
    {
        lh.SetFlowControl(c.fc,
                          "BufferBytes",
                          UintegerValue(c.creditBytes),
                          "Vcs",
                          UintegerValue(2));
    }
    else if (!c.fc.empty())
    {
        lh.SetFlowControl(c.fc, "XoffBytes", UintegerValue(1 << 20));
    }
    if (c.llr)
    {
        lh.SetRetryEngine(
            true,
            "Mode",
            EnumValue(c.nakOnly ? FabricRetryEngine::NAK_ONLY : FabricRetryEngine::ACK_NAK));
    }
    NetDeviceContainer d = lh.Install(p.a, p.b);
    p.da = DynamicCast<FabricNetDevice>(d.Get(0));
    p.db = DynamicCast<FabricNetDevice>(d.Get(1));
    p.ch = p.da->GetFabricChannel();
    p.ch->AssignStreams(7);
    BasicEndpointHelper eh;
    eh.SetEndpointAttribute("Mtu", UintegerValue(c.mtu));
    eh.SetEndpointAttribute("HeaderBytes", UintegerValue(c.header));
    if (c.gbn)
    {
        eh.SetTransport("ns3::FabricGoBackN",
                        "Window",
                        UintegerValue(c.gbnWindow),
                        "RetransmitTimeout",
                        TimeValue(c.rto));
    }
    p.ea = eh.Install(p.a, 0);
    p.eb = eh.Install(p.b, 1);
    p.ea->AddDevice(p.da);
    p.eb->AddDevice(p.db);
    return p;
}

/// Hook the pair's delivery callback once it has its final address.
void
Hook(Pair& p)
{
    p.eb->SetDeliveredCallback(MakeCallback(&Pair::OnDelivered, &p));
    p.ea->SetDeliveredCallback(MakeCallback(&Pair::OnDelivered, &p));
    p.ea->SetCompletedCallback(MakeCallback(&Pair::OnCompleted, &p));
}

/// Payload bytes dropped at the ports of a pair.
uint64_t
Dropped(const Pair& p)
{
    uint64_t b = 0;
    for (auto d : {p.da, p.db})
    {
        for (const auto& [r, bytes] : d->GetStats().dropBytes)
        {
            b += bytes;
        }
    }
    return b;
}

/// Run one message of \p units full units from a to b; return its delivery time.
Time
RunOneMessage(Pair& p, uint64_t units, uint32_t mtu)
{
    Hook(p);
    p.ea->Send(1, units * mtu, 0);
    Simulator::Run();
    return p.deliveredAt.count(0) ? p.deliveredAt[0] : Time(-1);
}

} // namespace

/**
 * Credit-based flow control: one flow over one link gets min(line rate, C / R).
 *
 * Frame f = 4096 + 18 = 4114 B takes ceil(4114 / 64) = 65 credits; its wire time is
 * tU = (4114 + 20) * 8 / 800 Gb/s = 41.34 ns. The credit round trip is R = tU (serialization,
 * the endpoint receives at the tail) + d (to the receiver, which frees the credits at once: 65 >=
 * CreditBatch 16, so a credit frame leaves immediately) + tC (the 64 + 20 B credit frame) + d.
 * With C = k frames of credit the sender sends k frames per R: goodput = min(4096 / tU,
 * k * 4096 / R). The test uses k = 2 and 4 (credit-bound, below the 5.9-frame bandwidth-delay
 * product) and 16 (line-bound).
 */
class FabricCreditLoopTestCase : public TestCase
{
  public:
    /// \param frames credit in frames
    FabricCreditLoopTestCase(uint32_t frames)
        : TestCase("CBFC: a flow with " + std::to_string(frames) +
                   " frames of credit gets min(line rate, C over R)"),
          m_frames(frames)
    {
    }

  private:
    void DoRun() override
    {
        PairConfig c;
        c.fc = "ns3::FabricCreditFlowControl";
        c.creditBytes = uint64_t(m_frames) * 65 * 64;
        Pair p = BuildPair(c);
        const uint64_t units = 512;
        const Time t = RunOneMessage(p, units, 4096);
        NS_TEST_ASSERT_MSG_EQ(p.deliveries[0], 1, "the message is delivered once");
        const double bps = 800e9;
        const double tU = TxSeconds(4114 + 20, bps);
        const double tC = TxSeconds(64 + 20, bps);
        const double r = tU + 2 * 100e-9 + tC;
        const double expected = std::min(4096 / tU, m_frames * 4096 / r);
        const double measured = units * 4096 / t.GetSeconds();
        NS_TEST_EXPECT_MSG_EQ_TOL(measured / expected,
                                  1.0,
                                  0.02,
                                  "goodput " << measured * 8 / 1e9 << " Gb/s, expected "
                                             << expected * 8 / 1e9);
        Ptr<FabricCreditFlowControl> rx =
            DynamicCast<FabricCreditFlowControl>(p.db->GetFlowControl());
        NS_TEST_EXPECT_MSG_LT_OR_EQ(rx->GetPeakOccupancy(),
                                    c.creditBytes / 64,
                                    "the receiver never holds more than it advertised");
        NS_TEST_EXPECT_MSG_EQ(Dropped(p), 0, "nothing dropped");
        NS_TEST_EXPECT_MSG_EQ(p.eb->GetReceivedPayloadBytes(), units * 4096, "bytes conserved");
        Simulator::Destroy();
    }

    uint32_t m_frames; //!< credit in frames
};

/**
 * PFC pause semantics on one link: a PAUSE for priority 0 with q quanta stops priority 0 for
 * exactly q * 512 bit times from its arrival, priority 1 keeps flowing, and the paused message
 * leaves when the pause ends.
 *
 * The pause frame (64 + 20 B) is sent at 0 and arrives after tC + d = 0.84 + 100 ns. q = 1000
 * quanta at 800 Gb/s is 1000 * 64 B / 100 B/ns = 640 ns. A class-1 message posted 1 ns after the
 * arrival is delivered after tU + d (41.34 + 100 ns); a class-0 message posted then waits for
 * the end of the pause and is delivered tU + d after it.
 */
class FabricPfcPauseTestCase : public TestCase
{
  public:
    FabricPfcPauseTestCase()
        : TestCase("PFC: a pause stops its priority only, for its quanta, after its wire time")
    {
    }

  private:
    void DoRun() override
    {
        PairConfig c;
        c.fc = "ns3::FabricPfc";
        Pair p = BuildPair(c);
        Hook(p);
        Ptr<FabricPfc> pfcA = DynamicCast<FabricPfc>(p.da->GetFlowControl());
        Ptr<FabricPacket> pause = Create<FabricPacket>();
        pause->kind = FabricPacket::PFC_PAUSE;
        pause->headerBytes = 64;
        pause->ctrlClass = 0;
        pause->ctrlValue = 1000;
        p.db->SendControl(pause);

        const Time arrival = PicoSeconds(840) + NanoSeconds(100);
        const Time pauseLen = NanoSeconds(640);
        bool pausedBefore = true;
        bool pausedAfter = true;
        bool pausedEarly = true;
        Simulator::Schedule(arrival - PicoSeconds(1), [&]() { pausedEarly = pfcA->IsPaused(0); });
        Simulator::Schedule(arrival + pauseLen - PicoSeconds(1),
                            [&]() { pausedBefore = pfcA->IsPaused(0); });
        Simulator::Schedule(arrival + pauseLen + PicoSeconds(1),
                            [&]() { pausedAfter = pfcA->IsPaused(0); });
        const Time post = arrival + NanoSeconds(1);
        Simulator::Schedule(post, [&]() {
            p.ea->Send(1, 4096, 0); // message 0, class 0: paused
            p.ea->Send(1, 4096, 1); // message 1, class 1: flows
        });
        Simulator::Run();

        const Time tU = PicoSeconds(41340);
        NS_TEST_EXPECT_MSG_EQ(pausedEarly, false, "not paused before the frame arrives");
        NS_TEST_EXPECT_MSG_EQ(pausedBefore, true, "paused until q * 512 bit times");
        NS_TEST_EXPECT_MSG_EQ(pausedAfter, false, "released when the quanta run out");
        NS_TEST_EXPECT_MSG_EQ(p.deliveredAt[1],
                              post + tU + NanoSeconds(100),
                              "priority 1 is not held by the pause of priority 0");
        NS_TEST_EXPECT_MSG_EQ(p.deliveredAt[0],
                              arrival + pauseLen + tU + NanoSeconds(100),
                              "priority 0 leaves when its pause ends");
        NS_TEST_EXPECT_MSG_EQ(pfcA->GetPausedTime(0), pauseLen, "paused time is accounted");
        NS_TEST_EXPECT_MSG_EQ(pfcA->GetPausedTime(1), Time(0), "priority 1 never paused");
        NS_TEST_EXPECT_MSG_EQ(pfcA->GetPauseFramesReceived(), 1, "one pause frame received");
        NS_TEST_EXPECT_MSG_EQ(p.db->GetStats().txControlUnits, 1, "the pause used the wire");
        Simulator::Destroy();
    }
};

/**
 * Incast through one switch under flow control (k = 64 senders of equal messages to one
 * receiver), or without flow control and a small buffer.
 *
 * Lossless (PFC or CBFC): zero drops and sent = delivered (conservation); the receiver's link is
 * busy at least 99% of the time from its first to its last unit (the switch always has a unit
 * for it); round-robin arbitration over inputs gives each sender 1/k of the bytes delivered by
 * the time half of all bytes have arrived (within 5%). PFC: no ingress ever holds more than XOFF
 * plus the headroom. Lossy: the small buffer overflows and the drops are counted as BufferFull,
 * with sent = delivered + dropped.
 */
class FabricIncastLosslessTestCase : public TestCase
{
  public:
    /// \param fc flow control TypeId, or "" for none
    FabricIncastLosslessTestCase(const std::string& fc)
        : TestCase("Incast 64:1 " + (fc.empty() ? std::string("without flow control drops")
                                                : fc + " is lossless and fair")),
          m_fc(fc)
    {
    }

  private:
    /// Count payload per source at the receiver; snapshot when half has arrived.
    void OnRx(Ptr<const FabricPacket> p)
    {
        m_perSrc[p->src] += p->payloadBytes;
        m_total += p->payloadBytes;
        if (!m_snap && m_total * 2 >= m_expectedTotal)
        {
            m_snap = true;
            m_half = m_perSrc;
        }
    }

    /// First and last unit on the receiver's link.
    void OnTxBegin(Ptr<const FabricPacket> p)
    {
        if (p->IsLinkControl())
        {
            return;
        }
        if (m_first.IsNegative())
        {
            m_first = Simulator::Now();
        }
    }

    /// Last unit end.
    void OnTxEnd(Ptr<const FabricPacket> p)
    {
        if (!p->IsLinkControl())
        {
            m_last = Simulator::Now();
        }
    }

    void DoRun() override
    {
        const uint32_t k = 64;
        const uint64_t bytes = 64 * 1024;
        const uint64_t buffer = m_fc.empty() ? 256 * 1024 : 4 * 1024 * 1024;
        NodeContainer acc;
        acc.Create(k + 1);
        Ptr<Node> swNode = CreateObject<Node>();
        FabricSwitchHelper swh;
        swh.SetBufferAttribute("Size", UintegerValue(buffer));
        swh.SetSwitchAttribute("Classes", UintegerValue(1));
        Ptr<FabricSwitch> sw = swh.Install(swNode);
        FabricLinkHelper lh;
        lh.SetChannelAttribute("DataRate", DataRateValue(DataRate("800Gbps")));
        lh.SetChannelAttribute("Delay", TimeValue(NanoSeconds(10)));
        lh.SetDeviceAttribute("Mtu", UintegerValue(4114));
        if (m_fc == "ns3::FabricPfc")
        {
            lh.SetFlowControl(m_fc, "Classes", UintegerValue(1));
        }
        else if (!m_fc.empty())
        {
            lh.SetFlowControl(m_fc,
                              "Vcs",
                              UintegerValue(1),
                              "BufferBytes",
                              UintegerValue(32 * 1024));
        }
        BasicEndpointHelper eh;
        std::vector<Ptr<BasicEndpoint>> ep;
        for (uint32_t i = 0; i <= k; ++i)
        {
            Ptr<BasicEndpoint> e = eh.Install(acc.Get(i), i);
            NetDeviceContainer d = lh.Install(acc.Get(i), swNode);
            e->AddDevice(DynamicCast<FabricNetDevice>(d.Get(0)));
            const uint32_t port = sw->AddPort(DynamicCast<FabricNetDevice>(d.Get(1)));
            sw->GetRoutingTable()->SetRoute(i, {port});
            ep.push_back(e);
        }
        if (m_fc == "ns3::FabricPfc")
        {
            sw->ShareBufferForPfc(1);
        }
        m_expectedTotal = k * bytes;
        ep[0]->GetDevice(0)->TraceConnectWithoutContext(
            "PhyRxEnd",
            MakeCallback(&FabricIncastLosslessTestCase::OnRx, this));
        sw->GetPort(0)->TraceConnectWithoutContext(
            "PhyTxBegin",
            MakeCallback(&FabricIncastLosslessTestCase::OnTxBegin, this));
        sw->GetPort(0)->TraceConnectWithoutContext(
            "PhyTxEnd",
            MakeCallback(&FabricIncastLosslessTestCase::OnTxEnd, this));
        for (uint32_t i = 1; i <= k; ++i)
        {
            ep[i]->Send(0, bytes, 0);
        }
        Simulator::Run();

        uint64_t dropped = 0;
        for (uint32_t i = 0; i < sw->GetNPorts(); ++i)
        {
            for (const auto& [r, b] : sw->GetPort(i)->GetStats().dropBytes)
            {
                NS_TEST_EXPECT_MSG_EQ(r, FabricDropReason::BUFFER_FULL, "drops are BufferFull");
                dropped += b;
            }
        }
        const uint64_t received = ep[0]->GetReceivedPayloadBytes();
        NS_TEST_EXPECT_MSG_EQ(received + dropped, m_expectedTotal, "sent = received + dropped");
        if (m_fc.empty())
        {
            NS_TEST_EXPECT_MSG_GT(dropped, 0, "a small buffer without flow control drops");
            Simulator::Destroy();
            return;
        }
        NS_TEST_EXPECT_MSG_EQ(dropped, 0, "lossless: nothing dropped");
        NS_TEST_EXPECT_MSG_EQ(received, m_expectedTotal, "lossless: every byte delivered");
        const double busy =
            sw->GetPort(0)->GetStats().busyTime.GetSeconds() / (m_last - m_first).GetSeconds();
        NS_TEST_EXPECT_MSG_GT_OR_EQ(busy, 0.99, "the receiver link is busy during the incast");
        for (uint32_t i = 1; i <= k; ++i)
        {
            const double share = double(m_half[i]) / (m_expectedTotal / 2.0);
            NS_TEST_EXPECT_MSG_EQ_TOL(share * k, 1.0, 0.05, "sender " << i << "'s share");
        }
        if (m_fc == "ns3::FabricPfc")
        {
            uint64_t pauses = 0;
            for (uint32_t i = 1; i <= k; ++i)
            {
                Ptr<FabricPfc> pfc = DynamicCast<FabricPfc>(sw->GetPort(i)->GetFlowControl());
                NS_TEST_EXPECT_MSG_LT_OR_EQ(pfc->GetPeakOccupancy(0),
                                            pfc->GetXoff() + pfc->GetHeadroom(),
                                            "ingress stays within XOFF + headroom");
                pauses += pfc->GetPauseFramesSent();
            }
            NS_TEST_EXPECT_MSG_GT(pauses, 0, "the incast triggered pauses");
        }
        Simulator::Destroy();
    }

    std::string m_fc;                      //!< flow control
    std::map<uint32_t, uint64_t> m_perSrc; //!< payload per source
    std::map<uint32_t, uint64_t> m_half;   //!< snapshot at half
    uint64_t m_total{0};                   //!< payload received
    uint64_t m_expectedTotal{0};           //!< payload sent
    bool m_snap{false};                    //!< snapshot taken
    Time m_first{-1};                      //!< first unit on the receiver link
    Time m_last;                           //!< last unit end
};

/**
 * Link-level retry without errors: no replays, and the message arrives at exactly the time it
 * does without the engine (ACKs travel the other direction and cost the data nothing).
 */
class FabricLlrNoErrorTestCase : public TestCase
{
  public:
    FabricLlrNoErrorTestCase()
        : TestCase("LLR: no errors, no replays and no added latency")
    {
    }

  private:
    void DoRun() override
    {
        PairConfig c;
        Pair plain = BuildPair(c);
        const Time t0 = RunOneMessage(plain, 64, 4096);
        Simulator::Destroy();
        c.llr = true;
        Pair p = BuildPair(c);
        const Time t1 = RunOneMessage(p, 64, 4096);
        const auto& s = p.da->GetRetryEngine()->GetStats();
        NS_TEST_EXPECT_MSG_EQ(s.replays, 0, "no replays");
        NS_TEST_EXPECT_MSG_EQ(t1, t0, "no added latency");
        NS_TEST_EXPECT_MSG_GT(p.db->GetRetryEngine()->GetStats().acksSent, 0, "ACKs flow back");
        NS_TEST_EXPECT_MSG_EQ(p.da->GetRetryEngine()->GetBufferedUnits(),
                              0,
                              "every unit acknowledged");
        Simulator::Destroy();
    }
};

/**
 * Link-level retry on an error-free link whose receiving port acts on a unit only after a
 * forwarding pipeline, as a switch port does (FabricNetDevice::SetReceivePipeline, P = 250 ns:
 * SUE spec Appendix A.1): no replay, no timeout, and no added latency.
 *
 * The receiver's engine sees a unit R after its head arrives: R = P when cut-through, tU + P
 * when store-and-forward (tU = 4134 B at 800 Gb/s = 41.34 ns). The cumulative ACK of a lone
 * unit leaves AckDelay (100 ns) later on an idle reverse direction and takes tC + d (84 B = 0.84
 * ns, d = 5 ns), so it is back at T = d + R + AckDelay + tC + d: 360.84 ns cut-through, 402.18
 * ns store-and-forward. The automatic replay timer is 4 RTT + AckDelay with the round trip
 * estimate RTT = 2d + tC + max(tM, R(tM)) (tM: the device MTU, 4096 + 20 B, on the wire): 1143.36
 * and 1308 ns, above T. (Without the pipeline in the estimate it was 4 (2d + tC + tM) + AckDelay
 * = 308 ns: the lone unit was replayed before its ACK came back.) A stream of 64 units is
 * acknowledged at least every AckDelay after the first unacknowledged acceptance, so no gap
 * between ACKs exceeds T either. The ACKs travel on the idle reverse direction: the delivery
 * time equals that of the same pair without LLR.
 */
class FabricLlrPipelineTestCase : public TestCase
{
  public:
    /// \param cutThrough the receiving port's pipeline mode
    /// \param units units in the message
    FabricLlrPipelineTestCase(bool cutThrough, uint64_t units)
        : TestCase(std::string("LLR: no replay behind a ") +
                   (cutThrough ? "cut-through" : "store-and-forward") + " 250 ns pipeline, " +
                   std::to_string(units) + " unit(s)"),
          m_cutThrough(cutThrough),
          m_units(units)
    {
    }

  private:
    void DoRun() override
    {
        const Time pipeline = NanoSeconds(250);
        PairConfig c;
        c.delay = NanoSeconds(5);
        c.deviceMtu = 4096;
        Pair plain = BuildPair(c);
        plain.db->SetReceivePipeline(m_cutThrough, pipeline);
        const Time t0 = RunOneMessage(plain, m_units, 4096);
        Simulator::Destroy();
        c.llr = true;
        Pair p = BuildPair(c);
        p.db->SetReceivePipeline(m_cutThrough, pipeline);
        const Time t1 = RunOneMessage(p, m_units, 4096);
        const auto& s = p.da->GetRetryEngine()->GetStats();
        NS_TEST_EXPECT_MSG_EQ(p.deliveries[0], 1, "delivered once");
        NS_TEST_EXPECT_MSG_EQ(s.replays, 0, "no replay on an error-free link");
        NS_TEST_EXPECT_MSG_EQ(s.timeouts, 0, "the replay timer never expires");
        NS_TEST_EXPECT_MSG_EQ(s.replayedUnits, 0, "no unit replayed");
        NS_TEST_EXPECT_MSG_EQ(p.db->GetRetryEngine()->GetStats().duplicates,
                              0,
                              "no duplicate at the receiver");
        NS_TEST_EXPECT_MSG_GT(s.acksReceived, 0, "ACKs came back");
        NS_TEST_EXPECT_MSG_EQ(p.da->GetRetryEngine()->GetBufferedUnits(),
                              0,
                              "every unit acknowledged");
        NS_TEST_EXPECT_MSG_EQ(t1, t0, "no added latency");
        // The round trip estimate includes the peer's pipeline.
        const Time tC = PicoSeconds(840);   // 84 B at 800 Gb/s
        const Time tM = PicoSeconds(41160); // 4116 B at 800 Gb/s
        const Time r = m_cutThrough ? pipeline : tM + pipeline;
        NS_TEST_EXPECT_MSG_EQ(p.da->GetRetryEngine()->GetRoundTripEstimate(),
                              2 * c.delay + tC + std::max(tM, r),
                              "round trip estimate: 2d + tC + max(tM, R(tM))");
        Simulator::Destroy();
    }

    bool m_cutThrough; //!< pipeline mode at the receiving port
    uint64_t m_units;  //!< units in the message
};

/**
 * Link-level retry, one injected error on unit k = 10: the replay starts at unit 10, nothing is
 * lost or duplicated, and the message is late by the NAK loop rounded up to whole unit times:
 * the receiver sees the corruption tU + d after unit 10 starts, its NAK takes tC + d, and the
 * sender replays at its next unit boundary, so every later unit moves by
 * K * tU with K = ceil((tU + 2d + tC) / tU) — one link round trip, rounded up to a unit.
 */
class FabricLlrOneErrorTestCase : public TestCase
{
  public:
    FabricLlrOneErrorTestCase()
        : TestCase("LLR: one corrupted unit is replayed from itself, about one round trip late")
    {
    }

  private:
    void OnReplay(uint64_t first, uint64_t units)
    {
        m_firstReplayed.push_back(first);
        (void)units;
    }

    void DoRun() override
    {
        PairConfig c;
        c.llr = true;
        Pair ok = BuildPair(c);
        const Time t0 = RunOneMessage(ok, 64, 4096);
        Simulator::Destroy();
        Pair p = BuildPair(c);
        p.da->GetRetryEngine()->TraceConnectWithoutContext(
            "Replay",
            MakeCallback(&FabricLlrOneErrorTestCase::OnReplay, this));
        p.ch->InjectError(p.da, 10);
        const Time t1 = RunOneMessage(p, 64, 4096);
        const auto& s = p.da->GetRetryEngine()->GetStats();
        NS_TEST_EXPECT_MSG_EQ(s.replays, 1, "one replay");
        NS_TEST_ASSERT_MSG_EQ(m_firstReplayed.size(), 1, "one replay traced");
        NS_TEST_EXPECT_MSG_EQ(m_firstReplayed[0], 10, "the replay starts at the corrupted unit");
        NS_TEST_EXPECT_MSG_EQ(p.deliveries[0], 1, "delivered exactly once");
        NS_TEST_EXPECT_MSG_EQ(p.eb->GetReceivedPayloadBytes(), 64 * 4096, "nothing lost");
        NS_TEST_EXPECT_MSG_EQ(p.eb->GetOutOfOrderUnits(), 0, "in order to the endpoint");
        NS_TEST_EXPECT_MSG_EQ(Dropped(p), 0, "no drop counted: the unit was recovered");
        const double tU = TxSeconds(4134, 800e9);
        const double loop = tU + 2 * 100e-9 + TxSeconds(84, 800e9);
        const double k = std::ceil(loop / tU);
        NS_TEST_EXPECT_MSG_EQ_TOL((t1 - t0).GetSeconds(),
                                  k * tU,
                                  TxSeconds(84, 800e9) + 1e-12,
                                  "added latency is the NAK loop in whole units");
        NS_TEST_EXPECT_MSG_GT_OR_EQ((t1 - t0).GetSeconds(), loop, "at least one round trip");
        Simulator::Destroy();
    }

    std::vector<uint64_t> m_firstReplayed; //!< first sequence of each replay
};

/**
 * Link-level retry, a corrupted control frame: the receiver's first ACK (unit 0 in its direction)
 * is corrupted. The data sender cannot tell it from data, so it NAKs the next unit it expects
 * from its peer (0); the peer has sent no data, so it answers with one SYNC, which ends the NAK.
 * Without the SYNC the NAK would be repeated every NakRepeat forever and the simulation would
 * never end. Expected: one NAK (not repeated up to a stop at 1 ms), one SYNC, no replay, the
 * message delivered once with nothing lost.
 */
class FabricLlrControlErrorTestCase : public TestCase
{
  public:
    FabricLlrControlErrorTestCase()
        : TestCase("LLR: a corrupted ACK costs one NAK and one SYNC, and the run ends")
    {
    }

  private:
    void DoRun() override
    {
        PairConfig c;
        c.llr = true;
        Pair p = BuildPair(c);
        p.ch->InjectError(p.db, 0);
        // The message needs about 3 us; a NAK repeated every NakRepeat (two round trips,
        // under 1 us) would be counted hundreds of times by the stop at 1 ms.
        Simulator::Stop(MilliSeconds(1));
        const Time t1 = RunOneMessage(p, 64, 4096);
        NS_TEST_EXPECT_MSG_GT(t1, Seconds(0), "delivered");
        const auto& a = p.da->GetRetryEngine()->GetStats();
        const auto& b = p.db->GetRetryEngine()->GetStats();
        NS_TEST_EXPECT_MSG_EQ(a.corrupted, 1, "the corrupted ACK was seen");
        NS_TEST_EXPECT_MSG_EQ(a.naksSent, 1, "one NAK, not repeated");
        NS_TEST_EXPECT_MSG_EQ(b.syncsSent, 1, "one SYNC");
        NS_TEST_EXPECT_MSG_EQ(a.syncsReceived, 1, "the SYNC arrived");
        NS_TEST_EXPECT_MSG_EQ(a.replays + b.replays, 0, "nothing to replay");
        NS_TEST_EXPECT_MSG_EQ(p.deliveries[0], 1, "delivered exactly once");
        NS_TEST_EXPECT_MSG_EQ(p.eb->GetReceivedPayloadBytes(), 64 * 4096, "nothing lost");
        Simulator::Destroy();
    }
};

/**
 * Link-level retry under random errors: throughput against the go-back-N efficiency.
 *
 * A saturated sender loses a unit with probability p; each loss wastes the K unit slots from
 * the lost unit to its replay (K = ceil((tU + 2d + tC) / tU), the units in between are
 * discarded by the in-order receiver). Expected slots per delivered unit (1 + (K - 1) p) /
 * (1 - p), so the efficiency is eta = (1 - p) / (1 + (K - 1) p) (window >= K). With d = 500 ns,
 * tU = 41.34 ns: K = 26; p = 1% gives eta = 0.792. The measured ratio of error-free to lossy
 * completion time must be within 2% of eta.
 *
 * NakOnly (RIFL): each error stops new data from the error to the end of a pause of 2.5 round
 * trips after the NAK arrives, during which the K lost slots are replayed; the waste per error is
 * W = (tU + 2d + tC) + 2.5 RTT - K tU, RTT being the engine's round trip (2d + tC + one MTU
 * frame); NakOnlyEfficiency gives eta for any p (about 1 / (1 + p W / tU) for small p).
 */
class FabricLlrEfficiencyTestCase : public TestCase
{
  public:
    /// \param nakOnly NakOnly signalling (RIFL) instead of AckNak
    /// \param ber bit error rate for the RIFL case
    FabricLlrEfficiencyTestCase(bool nakOnly, double ber)
        : TestCase(nakOnly ? "LLR NakOnly (RIFL, 100G, 500 m, BER " + BerName(ber) +
                                 "): throughput matches the pause model"
                           : "LLR AckNak: throughput under random errors matches go-back-N"),
          m_nakOnly(nakOnly),
          m_ber(ber)
    {
    }

  private:
    void DoRun() override
    {
        PairConfig c;
        c.llr = true;
        c.nakOnly = m_nakOnly;
        uint64_t units = 100000;
        if (m_nakOnly)
        {
            // RIFL paper section II.A: 100 Gb/s, 500 m, 256 B frames with a 12-bit CRC each.
            // Coarse units of 16 frames (4096 B on the wire, 32 B of frame headers); a unit is
            // lost if any of its frames is, so a codeword is one 2048-bit frame.
            c.rate = DataRate("100Gbps");
            c.cableM = 500;
            c.mtu = 4064;
            c.header = 32;
            c.ifg = 0;
            c.deviceMtu = 4096;
            units = 120000;
        }
        else
        {
            c.delay = NanoSeconds(500);
            units = 60000;
        }
        Pair ok = BuildPair(c);
        const Time t0 = RunOneMessage(ok, units, c.mtu);
        Simulator::Destroy();

        Pair p = BuildPair(c);
        double pUnit = 0;
        if (m_nakOnly)
        {
            p.ch->SetAttribute("CodewordBits", UintegerValue(2048));
            p.ch->SetErrorRates(p.da, 0, m_ber);
        }
        else
        {
            // p = 1% per unit of 4134 B = 7 codewords of 5140 bits.
            const double pcw = 1.0 - std::pow(0.99, 1.0 / 7);
            p.ch->SetErrorRates(p.da, pcw, 0);
        }
        const uint32_t wire = c.mtu + c.header + c.ifg;
        pUnit = p.ch->GetUnitErrorProbability(p.da, wire);
        const Time t1 = RunOneMessage(p, units, c.mtu);
        NS_TEST_ASSERT_MSG_EQ(p.deliveries[0], 1, "delivered once");
        NS_TEST_EXPECT_MSG_EQ(p.eb->GetReceivedPayloadBytes(), units * c.mtu, "nothing lost");

        const double bps = c.rate.GetBitRate();
        const double tU = TxSeconds(wire, bps);
        const double tC = TxSeconds(64 + c.ifg, bps);
        const double d = p.ch->GetOneWayDelay().GetSeconds();
        const double loop = tU + 2 * d + tC;
        const double k = std::ceil(loop / tU);
        double eta;
        if (m_nakOnly)
        {
            const double rtt = p.da->GetRetryEngine()->GetRoundTripEstimate().GetSeconds();
            eta = NakOnlyEfficiency(pUnit, tU, loop, 2.5 * rtt);
        }
        else
        {
            eta = (1 - pUnit) / (1 + (k - 1) * pUnit);
        }
        const double measured = t0.GetSeconds() / t1.GetSeconds();
        const auto& s = p.da->GetRetryEngine()->GetStats();
        std::cout << GetName() << ": p=" << pUnit << " K=" << k << " replays=" << s.replays
                  << " eta(model)=" << eta << " eta(measured)=" << measured << std::endl;
        NS_TEST_EXPECT_MSG_EQ_TOL(measured / eta, 1.0, 0.02, "efficiency within 2% of the model");
        if (m_nakOnly && m_ber <= 1e-9)
        {
            NS_TEST_EXPECT_MSG_GT_OR_EQ(measured, 0.99, "RIFL keeps 99% of error-free throughput");
        }
        Simulator::Destroy();
    }

    bool m_nakOnly; //!< NakOnly
    double m_ber;   //!< BER (NakOnly case)
};

/**
 * NakOnly link retry recovers at any bit error rate where AckNak does, at the efficiency of the
 * pause model (NakOnlyEfficiency). RIFL frames as a pod carries them (RIFL paper section IV.A): a
 * 256 B segment and its 8 B header, 264 B with one CRC each (codewords of 2112 bits), one frame
 * per unit, 100 Gb/s (tU = 21.12 ns), single-mode fibre, control frames of 64 B (tC = 5.12 ns,
 * one codeword). Bit errors in both directions: the frame (and NAK) error rate is
 * p = q = 1 - (1 - BER)^2112: 0.0209 at 1e-5 and 0.190 at 1e-4. 10 m (d = 49.6 ns):
 * L = tU + 2d + tC = 125.44 ns = RTT, K = 6, P = 313.6 ns, R = RTT + tU + tC = 151.68 ns;
 * eta = 0.758 at 1e-5, 0.215 at 1e-4. 500 m (d = 2.48 us): L = 4986.24 ns, K = 237,
 * P = 12465.6 ns; eta = 0.00714 at 1e-4 (each episode replays 237 units some 57 times; few
 * episodes are needed, so 20000 units measure it closely). Both modes deliver every byte once;
 * NakOnly's measured efficiency (units x tU over the time from the first unit to the delivery)
 * is within 5% of the model (the model leaves out the pauses a receiver adds on NAK repeats and
 * SYNCs that are lost: 3% at 1e-4 over 10 m). Before the retention clock stopped during error
 * recovery, the sender dropped units the receiver was still asking for (its NAKs lost or its
 * replays corrupted for longer than the retention time) and the link stopped for good: no
 * delivery by the stop at ten times the model's duration.
 */
class FabricLlrNakOnlyBerTestCase : public TestCase
{
  public:
    /// \param ber bit error rate on the data direction
    /// \param cableM single-mode fibre length (m)
    /// \param units units in the message
    FabricLlrNakOnlyBerTestCase(double ber, double cableM, uint64_t units)
        : TestCase("LLR NakOnly recovers like AckNak at BER " + BerName(ber) + " (RIFL frames, " +
                   BerName(cableM) + " m), at the pause model's efficiency"),
          m_ber(ber),
          m_cableM(cableM),
          m_units(units)
    {
    }

  private:
    void DoRun() override
    {
        PairConfig c;
        c.llr = true;
        c.rate = DataRate("100Gbps");
        c.cableM = m_cableM;
        c.mtu = 256;
        c.header = 8;
        c.ifg = 0;
        c.deviceMtu = 264;
        const double tU = TxSeconds(264, 100e9);
        for (bool nakOnly : {false, true})
        {
            c.nakOnly = nakOnly;
            Pair p = BuildPair(c);
            p.ch->SetAttribute("CodewordBits", UintegerValue(2112));
            p.ch->SetErrorRates(p.da, 0, m_ber);
            p.ch->SetErrorRates(p.db, 0, m_ber); // the control frames coming back
            const double pUnit = p.ch->GetUnitErrorProbability(p.da, 264);
            const double qNak = p.ch->GetUnitErrorProbability(p.db, 64);
            const double d = p.ch->GetOneWayDelay().GetSeconds();
            const double loop = tU + 2 * d + TxSeconds(64, 100e9);
            const double eta = NakOnlyEfficiency(pUnit,
                                                 tU,
                                                 loop,
                                                 2.5 * loop,
                                                 qNak,
                                                 loop + tU + TxSeconds(64, 100e9));
            // Stop at ten times the model's duration: a link that stops recovering fails the
            // test instead of running forever.
            Simulator::Stop(Seconds(10 * m_units * tU / eta));
            const Time t1 = RunOneMessage(p, m_units, c.mtu);
            const std::string mode = nakOnly ? "NakOnly" : "AckNak";
            NS_TEST_ASSERT_MSG_EQ(p.deliveries[0], 1, mode << ": delivered once");
            NS_TEST_EXPECT_MSG_EQ(p.eb->GetReceivedPayloadBytes(),
                                  m_units * c.mtu,
                                  mode << ": every byte");
            NS_TEST_EXPECT_MSG_EQ(Dropped(p), 0, mode << ": nothing dropped");
            if (nakOnly)
            {
                const Ptr<FabricRetryEngine> e = p.da->GetRetryEngine();
                NS_TEST_EXPECT_MSG_EQ_TOL(e->GetRoundTripEstimate().GetSeconds(),
                                          loop,
                                          1e-12,
                                          "the NAK loop is the round trip");
                NS_TEST_EXPECT_MSG_EQ_TOL(p.db->GetRetryEngine()->GetNakRepeat().GetSeconds(),
                                          loop + tU + TxSeconds(64, 100e9),
                                          1e-12,
                                          "NakRepeat: RTT + one unit + one control frame");
                // From the first unit's start to the delivery of the last: minus its latency.
                const double measured = m_units * tU / (t1.GetSeconds() - (tU + d));
                const auto& s = e->GetStats();
                std::cout << GetName() << ": p=" << pUnit << " q=" << qNak << " cycles=" << s.cycles
                          << " eta(model)=" << eta << " eta(measured)=" << measured << std::endl;
                NS_TEST_EXPECT_MSG_EQ_TOL(measured / eta,
                                          1.0,
                                          0.05,
                                          "efficiency within 5% of the pause model");
            }
            Simulator::Destroy();
        }
    }

    double m_ber;     //!< bit error rate
    double m_cableM;  //!< fibre length (m)
    uint64_t m_units; //!< units sent
};

/**
 * Go-back-N transport, one unit lost (unit k = 10 of a 64-unit message corrupted on a direct
 * 100 ns link, no LLR, so the receiving port drops it as Corrupted). The receiver sees the gap
 * when unit 11 has fully arrived, tU + d after unit 10 was due, and NACKs PSN 10 at once; the
 * NACK takes tC + d back; the sender goes back at its next unit boundary. From the start of unit
 * 10 to its retransmission the sender has sent K = ceil((2 tU + 2d + tC) / tU) = ceil((82.68 +
 * 200 + 0.84) / 41.34) = 7 units (10 to 16): the go-back resends exactly those K, the receiver
 * discards the K - 1 that followed the lost one, and the message is late by K tU = 289.38 ns
 * against the same run without the loss, which itself is not slower than the run without a
 * transport (ACKs use the other direction). Conservation: payload sent + sent again = received
 * + dropped + discarded.
 */
class FabricGoBackNOneLossTestCase : public TestCase
{
  public:
    FabricGoBackNOneLossTestCase()
        : TestCase("Go-back-N: one lost unit is recovered with one go-back of K units")
    {
    }

  private:
    void DoRun() override
    {
        PairConfig plain;
        Pair np = BuildPair(plain);
        const Time tPlain = RunOneMessage(np, 64, 4096);
        Simulator::Destroy();

        PairConfig c;
        c.gbn = true;
        Pair ok = BuildPair(c);
        const Time t0 = RunOneMessage(ok, 64, 4096);
        NS_TEST_EXPECT_MSG_EQ(t0, tPlain, "the transport adds no latency without loss");
        NS_TEST_EXPECT_MSG_EQ(ok.ea->GetTransport(0)->GetStats().goBacks, 0, "no go-back");
        NS_TEST_EXPECT_MSG_EQ(ok.completedAt.count(0), 1, "completed once acknowledged");
        NS_TEST_EXPECT_MSG_EQ(ok.ea->GetTransport(0)->GetUnackedUnits(), 0, "all acknowledged");
        Simulator::Destroy();

        Pair p = BuildPair(c);
        p.ch->InjectError(p.da, 10);
        const Time t1 = RunOneMessage(p, 64, 4096);
        const auto& tx = p.ea->GetTransport(0)->GetStats();
        const auto& rx = p.eb->GetTransport(0)->GetStats();
        const double tU = TxSeconds(4134, 800e9);
        const double tC = TxSeconds(84, 800e9);
        const uint64_t k = std::ceil((2 * tU + 2 * 100e-9 + tC) / tU);
        NS_TEST_EXPECT_MSG_EQ(k, 7, "K from the closed form");
        NS_TEST_EXPECT_MSG_EQ(tx.goBacks, 1, "one go-back");
        NS_TEST_EXPECT_MSG_EQ(tx.timeouts, 0, "started by the NACK, not the timer");
        NS_TEST_EXPECT_MSG_EQ(rx.nacksSent, 1, "one NACK");
        NS_TEST_EXPECT_MSG_EQ(tx.retransmittedUnits, k, "K units sent again");
        NS_TEST_EXPECT_MSG_EQ(rx.outOfSequence, k - 1, "K - 1 discarded after the gap");
        NS_TEST_EXPECT_MSG_EQ(rx.duplicates, 0, "no duplicate");
        NS_TEST_EXPECT_MSG_EQ(p.deliveries[0], 1, "delivered exactly once");
        NS_TEST_EXPECT_MSG_EQ(p.eb->GetOutOfOrderUnits(), 0, "in order to the endpoint");
        NS_TEST_EXPECT_MSG_EQ(p.eb->GetReceivedPayloadBytes(), 64 * 4096, "every byte arrived");
        NS_TEST_EXPECT_MSG_EQ(Dropped(p), 4096, "the lost unit is counted as a drop");
        NS_TEST_EXPECT_MSG_EQ(64 * 4096 + tx.retransmittedBytes,
                              p.eb->GetReceivedPayloadBytes() + Dropped(p) + rx.discardedBytes,
                              "sent + sent again = received + dropped + discarded");
        NS_TEST_EXPECT_MSG_EQ_TOL((t1 - t0).GetSeconds(), k * tU, tC + 1e-12, "late by K tU");
        NS_TEST_EXPECT_MSG_EQ(p.completedAt.count(0), 1, "completed");
        Simulator::Destroy();
    }
};

/**
 * Credit recovery: a CBFC link without link-level retry loses one data unit to corruption (unit
 * 10 of 64, recovered end to end by go-back-N). The receiving port drops it as Corrupted and
 * returns its credits as the periodic credit resynchronization of credit schemes would
 * (FabricCreditFlowControl::NotifyLost): by conservation of credits, once the message is
 * delivered and acknowledged the sender holds all C / 64 credits again and the receiver none,
 * and exactly one unit's ceil(4114 / 64) = 65 credits were recovered. Without the recovery the
 * sender would end 65 credits short for good.
 */
class FabricCreditRecoveryTestCase : public TestCase
{
  public:
    FabricCreditRecoveryTestCase()
        : TestCase("CBFC: the credits of a unit lost on the wire are recovered")
    {
    }

  private:
    void DoRun() override
    {
        PairConfig c;
        c.fc = "ns3::FabricCreditFlowControl";
        c.creditBytes = 16 * 65 * 64;
        c.gbn = true;
        Pair p = BuildPair(c);
        p.ch->InjectError(p.da, 10);
        RunOneMessage(p, 64, 4096);
        Ptr<FabricCreditFlowControl> tx =
            DynamicCast<FabricCreditFlowControl>(p.da->GetFlowControl());
        Ptr<FabricCreditFlowControl> rx =
            DynamicCast<FabricCreditFlowControl>(p.db->GetFlowControl());
        NS_TEST_EXPECT_MSG_EQ(p.deliveries[0], 1, "delivered exactly once");
        NS_TEST_EXPECT_MSG_EQ(Dropped(p), 4096, "the lost unit is counted as a drop");
        NS_TEST_EXPECT_MSG_EQ(rx->GetRecoveredCredits(), 65, "one unit's credits recovered");
        NS_TEST_EXPECT_MSG_EQ(tx->GetAvailableCredits(0), 16 * 65, "every credit home");
        NS_TEST_EXPECT_MSG_EQ(rx->GetOccupancy(0), 0, "the receiver holds none");
        Simulator::Destroy();
    }
};

/**
 * Go-back-N under random loss: goodput against the analytic go-back-N efficiency. A saturated
 * sender loses a unit with probability p = 1% on a 500 ns link; each loss costs the K unit slots
 * from the lost unit to its retransmission, K = ceil((2 tU + 2d + tC) / tU) = ceil((82.68 + 1000
 * + 0.84) / 41.34) = 27 (the gap is seen one unit after the loss, unlike link-level retry, and a
 * lost retransmission is NACKed again when the stream rewinds). Expected slots per delivered unit
 * (1 + (K - 1) p) / (1 - p), so eta = (1 - p) / (1 + (K - 1) p) = 0.786 with a window (64) above
 * K. The measured ratio of error-free to lossy delivery time of one 60000-unit message must be
 * within 2% of eta. The retransmission timer (5 us, above the 1.1 us round trip) only matters if
 * one of the last units is lost.
 */
class FabricGoBackNEfficiencyTestCase : public TestCase
{
  public:
    FabricGoBackNEfficiencyTestCase()
        : TestCase("Go-back-N: goodput under 1% random loss matches the analytic efficiency")
    {
    }

  private:
    void DoRun() override
    {
        PairConfig c;
        c.gbn = true;
        c.delay = NanoSeconds(500);
        c.rto = MicroSeconds(5);
        const uint64_t units = 60000;
        Pair ok = BuildPair(c);
        const Time t0 = RunOneMessage(ok, units, c.mtu);
        Simulator::Destroy();

        Pair p = BuildPair(c);
        const double pcw = 1.0 - std::pow(0.99, 1.0 / 7); // 1% per 4134 B unit (7 codewords)
        p.ch->SetErrorRates(p.da, pcw, 0);
        const double pUnit = p.ch->GetUnitErrorProbability(p.da, 4134);
        const Time t1 = RunOneMessage(p, units, c.mtu);
        NS_TEST_ASSERT_MSG_EQ(p.deliveries[0], 1, "delivered once");
        NS_TEST_EXPECT_MSG_EQ(p.eb->GetReceivedPayloadBytes(), units * c.mtu, "nothing lost");
        const auto& tx = p.ea->GetTransport(0)->GetStats();
        const auto& rx = p.eb->GetTransport(0)->GetStats();
        NS_TEST_EXPECT_MSG_EQ(rx.duplicates, 0, "no duplicate reached the receiver");
        const double tU = TxSeconds(4134, 800e9);
        const double tC = TxSeconds(84, 800e9);
        const double k = std::ceil((2 * tU + 2 * 500e-9 + tC) / tU);
        const double eta = (1 - pUnit) / (1 + (k - 1) * pUnit);
        const double measured = t0.GetSeconds() / t1.GetSeconds();
        std::cout << GetName() << ": p=" << pUnit << " K=" << k << " go-backs=" << tx.goBacks
                  << " timeouts=" << tx.timeouts << " eta model=" << eta << " measured=" << measured
                  << std::endl;
        NS_TEST_EXPECT_MSG_EQ(k, 27, "K from the closed form");
        NS_TEST_EXPECT_MSG_EQ_TOL(measured / eta, 1.0, 0.02, "within 2% of go-back-N");
        NS_TEST_EXPECT_MSG_EQ(tx.sentUnits + tx.retransmittedUnits,
                              rx.acceptedUnits + rx.outOfSequence + rx.duplicates +
                                  p.db->GetStats().dropUnits.at(FabricDropReason::CORRUPTED),
                              "every unit sent is accepted, discarded or dropped");
        Simulator::Destroy();
    }
};

/**
 * Go-back-N in both directions at once: each side's cumulative ACKs ride on its own data units
 * (piggybacked) rather than in standalone frames while it has data for the peer; both messages
 * are delivered once and complete.
 */
class FabricGoBackNPiggybackTestCase : public TestCase
{
  public:
    FabricGoBackNPiggybackTestCase()
        : TestCase("Go-back-N: ACKs ride on reverse data")
    {
    }

  private:
    void DoRun() override
    {
        PairConfig c;
        c.gbn = true;
        Pair p = BuildPair(c);
        Hook(p);
        p.ea->Send(1, 64 * 4096, 0);
        p.eb->Send(0, 64 * 4096, 0);
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(p.deliveries.size(), 1, "one message id (0) on each side");
        NS_TEST_EXPECT_MSG_EQ(p.deliveries[0], 2, "both messages delivered once");
        NS_TEST_EXPECT_MSG_EQ(p.completedAt.count(0), 1, "a's message completed");
        NS_TEST_EXPECT_MSG_EQ(p.eb->GetMessagesCompleted(), 1, "b's message completed");
        for (auto e : {p.ea, p.eb})
        {
            const auto& s = e->GetTransport(0)->GetStats();
            NS_TEST_EXPECT_MSG_GT(s.piggybackedAcks, 0, "ACKs piggybacked");
            NS_TEST_EXPECT_MSG_EQ(s.goBacks, 0, "no loss, no go-back");
            NS_TEST_EXPECT_MSG_EQ(e->GetTransport(0)->GetUnackedUnits(), 0, "all acknowledged");
        }
        Simulator::Destroy();
    }
};

/**
 * Incast 64:1 without flow control through a 256 KiB switch buffer, with go-back-N: the buffer
 * overflows (BufferFull drops, as in the lossy incast case), and go-back-N recovers every byte:
 * each message is delivered exactly once and completes, no connection fails, and payload sent +
 * sent again = received + dropped + discarded (conservation).
 */
class FabricGoBackNIncastTestCase : public TestCase
{
  public:
    FabricGoBackNIncastTestCase()
        : TestCase("Go-back-N recovers every byte of a 64:1 incast that overflows the buffer")
    {
    }

  private:
    void OnDelivered(const FabricMessage& m)
    {
        m_delivered[m.src]++;
        m_last = Simulator::Now();
    }

    void DoRun() override
    {
        const uint32_t k = 64;
        const uint64_t bytes = 64 * 1024;
        NodeContainer acc;
        acc.Create(k + 1);
        Ptr<Node> swNode = CreateObject<Node>();
        FabricSwitchHelper swh;
        swh.SetBufferAttribute("Size", UintegerValue(256 * 1024));
        swh.SetSwitchAttribute("Classes", UintegerValue(1));
        Ptr<FabricSwitch> sw = swh.Install(swNode);
        FabricLinkHelper lh;
        lh.SetChannelAttribute("DataRate", DataRateValue(DataRate("800Gbps")));
        lh.SetChannelAttribute("Delay", TimeValue(NanoSeconds(10)));
        BasicEndpointHelper eh;
        eh.SetTransport("ns3::FabricGoBackN", "RetransmitTimeout", TimeValue(MicroSeconds(10)));
        std::vector<Ptr<BasicEndpoint>> ep;
        for (uint32_t i = 0; i <= k; ++i)
        {
            Ptr<BasicEndpoint> e = eh.Install(acc.Get(i), i);
            NetDeviceContainer d = lh.Install(acc.Get(i), swNode);
            e->AddDevice(DynamicCast<FabricNetDevice>(d.Get(0)));
            const uint32_t port = sw->AddPort(DynamicCast<FabricNetDevice>(d.Get(1)));
            sw->GetRoutingTable()->SetRoute(i, {port});
            ep.push_back(e);
        }
        ep[0]->SetDeliveredCallback(MakeCallback(&FabricGoBackNIncastTestCase::OnDelivered, this));
        for (uint32_t i = 1; i <= k; ++i)
        {
            ep[i]->Send(0, bytes, 0);
        }
        Simulator::Stop(MilliSeconds(100)); // safety against a livelock
        Simulator::Run();

        uint64_t dropped = 0;
        for (uint32_t i = 0; i < sw->GetNPorts(); ++i)
        {
            for (const auto& [r, b] : sw->GetPort(i)->GetStats().dropBytes)
            {
                NS_TEST_EXPECT_MSG_EQ(r, FabricDropReason::BUFFER_FULL, "drops are BufferFull");
                dropped += b;
            }
        }
        NS_TEST_EXPECT_MSG_GT(dropped, 0, "the buffer overflowed");
        uint64_t again = 0;
        uint64_t goBacks = 0;
        uint64_t completed = 0;
        for (uint32_t i = 1; i <= k; ++i)
        {
            const auto& s = ep[i]->GetTransport(0)->GetStats();
            again += s.retransmittedBytes;
            goBacks += s.goBacks;
            NS_TEST_EXPECT_MSG_EQ(s.failed, 0, "no connection failed");
            NS_TEST_EXPECT_MSG_EQ(m_delivered[i], 1, "sender " << i << " delivered once");
            completed += ep[i]->GetMessagesCompleted();
        }
        const auto& rx = ep[0]->GetTransport(0)->GetStats();
        NS_TEST_EXPECT_MSG_GT(goBacks, 0, "losses were recovered by going back");
        NS_TEST_EXPECT_MSG_EQ(completed, k, "every message completed");
        NS_TEST_EXPECT_MSG_EQ(ep[0]->GetReceivedPayloadBytes(), k * bytes, "every byte arrived");
        NS_TEST_EXPECT_MSG_EQ(k * bytes + again,
                              ep[0]->GetReceivedPayloadBytes() + dropped + rx.discardedBytes,
                              "sent + sent again = received + dropped + discarded");
        // 4 MiB at 800 Gb/s take 42 us; losses and 10 us timeouts may triple that.
        std::cout << GetName() << ": last delivery " << m_last.As(Time::US) << ", go-backs "
                  << goBacks << ", dropped " << dropped << " B" << std::endl;
        NS_TEST_EXPECT_MSG_LT(m_last, MicroSeconds(500), "recovered well before the stop");
        Simulator::Destroy();
    }

    std::map<uint32_t, uint32_t> m_delivered; //!< deliveries per source
    Time m_last;                              //!< last delivery
};

/**
 * Delay-based congestion control on a PFC incast (64 senders x 512 KiB through one switch,
 * go-back-N with a 32-unit window on every endpoint). Both runs start with the same burst (64 x
 * 32 units, more than the 4 MiB buffer: PFC holds it). Without congestion control (None) the
 * windows stay at 32 and the ingress queues stay above XOFF for the whole incast, so PFC keeps
 * pausing. With CongestionControl = Delay (2 us target) the senders shrink their windows once
 * the round trip passes the target, the queue drains below the PFC thresholds, and PFC sends at
 * most half the pause frames; the receiver's link stays busy, so the incast still ends within 2%
 * of the line-rate bound (64 x 128 units of 4134 wire bytes at 800 Gb/s = 338.6 us). Both runs
 * are lossless and deliver every byte.
 */
class FabricDelayCcIncastTestCase : public TestCase
{
  public:
    FabricDelayCcIncastTestCase()
        : TestCase("Delay-based congestion control keeps the incast queue and pauses down at "
                   "line rate")
    {
    }

  private:
    struct Outcome
    {
        uint64_t peakBuffer{0}; //!< peak switch buffer
        uint64_t pauses{0};     //!< pause frames sent
        Time last;              //!< last delivery
        uint64_t received{0};   //!< payload received
        uint64_t dropped{0};    //!< payload dropped
        uint64_t decreases{0};  //!< window decreases
    };

    void OnDelivered(const FabricMessage& m)
    {
        m_last = Simulator::Now();
        (void)m;
    }

    Outcome RunOnce(bool cc)
    {
        const uint32_t k = 64;
        NodeContainer acc;
        acc.Create(k + 1);
        Ptr<Node> swNode = CreateObject<Node>();
        FabricSwitchHelper swh;
        swh.SetBufferAttribute("Size", UintegerValue(4 * 1024 * 1024));
        swh.SetSwitchAttribute("Classes", UintegerValue(1));
        Ptr<FabricSwitch> sw = swh.Install(swNode);
        FabricLinkHelper lh;
        lh.SetChannelAttribute("DataRate", DataRateValue(DataRate("800Gbps")));
        lh.SetChannelAttribute("Delay", TimeValue(NanoSeconds(10)));
        lh.SetDeviceAttribute("Mtu", UintegerValue(4114));
        lh.SetFlowControl("ns3::FabricPfc", "Classes", UintegerValue(1));
        BasicEndpointHelper eh;
        eh.SetTransport("ns3::FabricGoBackN",
                        "CongestionControl",
                        EnumValue(cc ? FabricGoBackN::DELAY : FabricGoBackN::NONE),
                        "Window",
                        UintegerValue(32));
        std::vector<Ptr<BasicEndpoint>> ep;
        for (uint32_t i = 0; i <= k; ++i)
        {
            Ptr<BasicEndpoint> e = eh.Install(acc.Get(i), i);
            NetDeviceContainer d = lh.Install(acc.Get(i), swNode);
            e->AddDevice(DynamicCast<FabricNetDevice>(d.Get(0)));
            const uint32_t port = sw->AddPort(DynamicCast<FabricNetDevice>(d.Get(1)));
            sw->GetRoutingTable()->SetRoute(i, {port});
            ep.push_back(e);
        }
        sw->ShareBufferForPfc(1);
        ep[0]->SetDeliveredCallback(MakeCallback(&FabricDelayCcIncastTestCase::OnDelivered, this));
        for (uint32_t i = 1; i <= k; ++i)
        {
            ep[i]->Send(0, 512 * 1024, 0);
        }
        Simulator::Run();
        Outcome o;
        o.peakBuffer = sw->GetBuffer()->GetPeakOccupancy();
        for (uint32_t i = 0; i <= k; ++i)
        {
            Ptr<FabricPfc> pfc = DynamicCast<FabricPfc>(sw->GetPort(i)->GetFlowControl());
            o.pauses += pfc->GetPauseFramesSent();
            for (const auto& [r, b] : sw->GetPort(i)->GetStats().dropBytes)
            {
                o.dropped += b;
            }
            o.decreases += ep[i]->GetTransport(0)->GetStats().decreases;
        }
        o.received = ep[0]->GetReceivedPayloadBytes();
        o.last = m_last;
        Simulator::Destroy();
        return o;
    }

    void DoRun() override
    {
        const Outcome none = RunOnce(false);
        const Outcome delay = RunOnce(true);
        std::cout << GetName() << ": peak buffer " << none.peakBuffer << " -> " << delay.peakBuffer
                  << " B, pauses " << none.pauses << " -> " << delay.pauses << ", end "
                  << none.last.As(Time::US) << " -> " << delay.last.As(Time::US) << ", decreases "
                  << delay.decreases << std::endl;
        for (const Outcome& o : {none, delay})
        {
            NS_TEST_EXPECT_MSG_EQ(o.dropped, 0, "lossless");
            NS_TEST_EXPECT_MSG_EQ(o.received, 64 * 512 * 1024, "every byte");
        }
        NS_TEST_EXPECT_MSG_GT(delay.decreases, 0, "windows shrank");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(delay.pauses * 2, none.pauses, "at most half the pauses");
        const double bound = 64 * 128 * TxSeconds(4134, 800e9);
        NS_TEST_EXPECT_MSG_EQ_TOL(delay.last.GetSeconds() / bound, 1.0, 0.02, "at line rate");
    }

    Time m_last; //!< last delivery of the current run
};

/**
 * The lossless suite.
 */
class FabricLosslessTestSuite : public PicosecondTestSuite
{
  public:
    FabricLosslessTestSuite()
        : PicosecondTestSuite("fabric-lossless", UNIT)
    {
        for (uint32_t frames : {2, 4, 16})
        {
            AddTestCase(new FabricCreditLoopTestCase(frames), TestCase::QUICK);
        }
        AddTestCase(new FabricPfcPauseTestCase, TestCase::QUICK);
        AddTestCase(new FabricIncastLosslessTestCase("ns3::FabricPfc"), TestCase::QUICK);
        AddTestCase(new FabricIncastLosslessTestCase("ns3::FabricCreditFlowControl"),
                    TestCase::QUICK);
        AddTestCase(new FabricIncastLosslessTestCase(""), TestCase::QUICK);
        AddTestCase(new FabricLlrNoErrorTestCase, TestCase::QUICK);
        for (bool cutThrough : {true, false})
        {
            for (uint64_t units : {1, 64})
            {
                AddTestCase(new FabricLlrPipelineTestCase(cutThrough, units), TestCase::QUICK);
            }
        }
        AddTestCase(new FabricLlrOneErrorTestCase, TestCase::QUICK);
        AddTestCase(new FabricLlrControlErrorTestCase, TestCase::QUICK);
        AddTestCase(new FabricLlrEfficiencyTestCase(false, 0), TestCase::QUICK);
        AddTestCase(new FabricLlrEfficiencyTestCase(true, 1e-7), TestCase::QUICK);
        AddTestCase(new FabricLlrEfficiencyTestCase(true, 1e-9), TestCase::QUICK);
        AddTestCase(new FabricLlrNakOnlyBerTestCase(1e-5, 10, 100000), TestCase::QUICK);
        AddTestCase(new FabricLlrNakOnlyBerTestCase(1e-4, 10, 100000), TestCase::QUICK);
        AddTestCase(new FabricLlrNakOnlyBerTestCase(1e-4, 500, 20000), TestCase::QUICK);
        AddTestCase(new FabricCreditRecoveryTestCase, TestCase::QUICK);
        AddTestCase(new FabricGoBackNOneLossTestCase, TestCase::QUICK);
        AddTestCase(new FabricGoBackNEfficiencyTestCase, TestCase::QUICK);
        AddTestCase(new FabricGoBackNPiggybackTestCase, TestCase::QUICK);
        AddTestCase(new FabricGoBackNIncastTestCase, TestCase::QUICK);
        AddTestCase(new FabricDelayCcIncastTestCase, TestCase::QUICK);
    }
};

static FabricLosslessTestSuite g_fabricLosslessTestSuite; //!< registers the suite
