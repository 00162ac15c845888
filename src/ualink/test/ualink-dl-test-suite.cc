/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Tests of the ualink module's DL link states (UALink_200 section 6.7.1), Tx pacing (6.4.2.2,
// 6.5) and drop modes (3.1.3, 3.1.4). Expected values come from the spec's rules, from closed
// forms written next to each test (x4 ports: a codeword slot, the DL flit time, is 5440 bits /
// (4 x 212.5 Gb/s) = 6.4 ns; the default 4-way FEC interleave adds 3 slots, 19.2 ns, to the
// cable delay), and from conservation laws.

#include "ns3/basic-endpoint-helper.h"
#include "ns3/basic-endpoint.h"
#include "ns3/boolean.h"
#include "ns3/fabric-channel.h"
#include "ns3/fabric-net-device.h"
#include "ns3/fabric-retry-engine.h"
#include "ns3/node-container.h"
#include "ns3/node.h"
#include "ns3/picosecond-test-suite.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/ualink-dl-framer.h"
#include "ns3/ualink-dl.h"
#include "ns3/ualink-endpoint.h"
#include "ns3/ualink-helper.h"
#include "ns3/ualink-link-helper.h"
#include "ns3/ualink-phy.h"
#include "ns3/ualink-switch.h"
#include "ns3/uinteger.h"

#include <map>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// The link state changes of one DL.
struct StateLog
{
    std::vector<std::pair<Time, std::string>> changes; //!< (time, "From->To")

    /// Record a change.
    void OnChange(UalinkDl::LinkState from, UalinkDl::LinkState to)
    {
        changes.emplace_back(Simulator::Now(),
                             UalinkDl::GetStateName(from) + "->" + UalinkDl::GetStateName(to));
    }

    /// \return the changes as one string
    std::string Sequence() const
    {
        std::string s;
        for (const auto& [t, c] : changes)
        {
            s += (s.empty() ? "" : " ") + c;
        }
        return s;
    }

    /// \return when the DL last entered Up (-1 s if never)
    Time UpAt() const
    {
        Time t = Seconds(-1);
        for (const auto& [at, c] : changes)
        {
            if (c.size() > 4 && c.substr(c.size() - 4) == "->Up")
            {
                t = at;
            }
        }
        return t;
    }
};

/// \return the DL of a port
Ptr<UalinkDl>
DlOf(Ptr<FabricNetDevice> dev)
{
    return dev->GetObject<UalinkDl>();
}

Time g_delivered; //!< last delivery seen by OnDelivered
Time g_completed; //!< last completion seen by OnCompleted

/// Record a delivery.
void
OnDelivered(const FabricMessage& m)
{
    g_delivered = Simulator::Now();
}

/// Record a completion.
void
OnCompleted(const FabricMessage& m)
{
    g_completed = Simulator::Now();
}

/// Records deliveries per (source, destination) of a pod.
struct Deliveries
{
    std::map<std::pair<uint32_t, uint32_t>, uint64_t> bytes; //!< (src, dst) -> bytes delivered
    std::map<std::pair<uint32_t, uint64_t>, Time> completed; //!< (src, id) -> completion

    /// A delivery.
    void OnDelivered(const FabricMessage& m)
    {
        bytes[{m.src, m.dst}] += m.bytes;
    }

    /// A completion.
    void OnCompleted(const FabricMessage& m)
    {
        completed[{m.src, m.id}] = Simulator::Now();
    }

    /// Hook every endpoint of a pod.
    void Hook(const UalinkHelper::Pod& pod)
    {
        for (const auto& e : pod.acc)
        {
            e->SetDeliveredCallback(MakeCallback(&Deliveries::OnDelivered, this));
            e->SetCompletedCallback(MakeCallback(&Deliveries::OnCompleted, this));
        }
    }
};

} // namespace

/**
 * \ingroup ualink-tests
 * Bring-up (section 6.7.1): from the reset state Fault, the RS reports no fault (Idle), the higher
 * layer enables the link (NOP) and the DL goes Up once it has sent 10 NOP flits and received 2
 * consecutive DL flits. x4 ports start sending at time 0, whose slot is an alignment-marker slot
 * (7.2.7, no DL flit): the 10th NOP flit goes in slot 10 and has left at 11 x 6.4 = 70.4 ns; the
 * partner's 2nd flit (slot 2) has left at 19.2 ns and is received one cable delay plus 19.2 ns
 * of FEC later. With a 10 ns cable that is 48.4 ns: Up at 70.4 ns (sending bounds); with a 100 ns
 * cable 138.4 ns (receiving bounds). A 4 KiB write posted at time 0 waits in the TL (held, not
 * dropped) and arrives exactly 70.4 ns later than on a link trained before time 0.
 */
class UalinkDlBringUpTestCase : public TestCase
{
  public:
    UalinkDlBringUpTestCase()
        : TestCase("DL: bring-up Fault, Idle, NOP, Up after 10 NOP flits sent and 2 received")
    {
    }

  private:
    /**
     * \param delay cable delay
     * \param startUp whether the link starts Up
     * \param logs the two DLs' state logs (filled)
     * \return the write's delivery time
     */
    Time Run(Time delay, bool startUp, StateLog* logs)
    {
        UalinkHelper h;
        h.SetChannelAttribute("Delay", TimeValue(delay));
        h.SetDlAttribute("StartUp", BooleanValue(startUp));
        NodeContainer n;
        n.Create(2);
        Ptr<UalinkEndpoint> a = h.CreateEndpoint(n.Get(0), 0);
        Ptr<UalinkEndpoint> b = h.CreateEndpoint(n.Get(1), 1);
        h.ConnectDirect(a, b);
        Ptr<UalinkDl> dls[2] = {DlOf(a->GetPort(0)), DlOf(b->GetPort(0))};
        for (uint32_t i = 0; i < 2; ++i)
        {
            dls[i]->TraceConnectWithoutContext("LinkState",
                                               MakeCallback(&StateLog::OnChange, &logs[i]));
        }
        g_delivered = Seconds(-1);
        b->SetDeliveredCallback(MakeCallback(&OnDelivered));
        a->Send(1, 4096, 0);
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(dls[0]->GetLinkState(), UalinkDl::UP, "Up at the end");
        NS_TEST_EXPECT_MSG_EQ(a->GetPort(0)->IsLinkUp(), true, "the device is link up in Up");
        NS_TEST_EXPECT_MSG_EQ(a->GetTxQueue(0)->GetStats().dropped, 0, "nothing dropped");
        Simulator::Destroy();
        return g_delivered;
    }

    void DoRun() override
    {
        StateLog trained[2];
        const Time base = Run(NanoSeconds(10), true, trained);
        NS_TEST_ASSERT_MSG_EQ(trained[0].changes.size(), 0, "a trained link never changes");
        for (const auto& [delay, up] : {std::make_pair(NanoSeconds(10), PicoSeconds(70400)),
                                        std::make_pair(NanoSeconds(100), PicoSeconds(138400))})
        {
            StateLog logs[2];
            const Time at = Run(delay, false, logs);
            std::cout << "bring-up, " << delay.As(Time::NS) << " cable: " << logs[0].Sequence()
                      << "; Up at " << logs[0].UpAt().As(Time::NS) << " and "
                      << logs[1].UpAt().As(Time::NS) << "; write delivered at " << at.As(Time::NS)
                      << " (trained link " << base.As(Time::NS) << ")" << std::endl;
            for (uint32_t i = 0; i < 2; ++i)
            {
                NS_TEST_ASSERT_MSG_EQ(logs[i].Sequence(),
                                      "Fault->Idle Idle->NOP NOP->Up",
                                      "the states of section 6.7.1 in order");
                NS_TEST_ASSERT_MSG_EQ(logs[i].changes[0].first, Time(0), "bring-up at reset");
                NS_TEST_ASSERT_MSG_EQ(logs[i].UpAt(), up, "10 sent and 2 received");
            }
            if (delay == NanoSeconds(10))
            {
                NS_TEST_ASSERT_MSG_EQ(at - base, up, "the TL waits for Up");
            }
        }
    }
};

/**
 * \ingroup ualink-tests
 * Ack timeout drives the link states (sections 6.6.5.8, 6.6.6.8, 6.7.1.4): on an x4
 * link of 200 ns whose receiver never acks, the sender's DL goes from Up to Idle exactly 40,000
 * flit times (40,000 x 6.4 ns = 256 us) after its first flit left; the partner, now receiving
 * Idle control flits, goes from Up to Idle when the 4th has arrived: 256 us + 4 x 6.4 ns + 200 ns
 * + 19.2 ns of FEC = 256.2448 us. Neither comes back by itself (a link-down error is recovered by
 * management software, 3.1.4.3): both are Idle 2 ms later, link down.
 */
class UalinkDlAckTimeoutStateTestCase : public TestCase
{
  public:
    UalinkDlAckTimeoutStateTestCase()
        : TestCase("DL: ack timeout takes Up to Idle after 40000 flits, the partner after 4 "
                   "control flits")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<Node> na = CreateObject<Node>();
        Ptr<Node> nb = CreateObject<Node>();
        UalinkLinkHelper lh;
        lh.SetPhyAttribute("Lanes", UintegerValue(4));
        lh.SetChannelAttribute("Delay", TimeValue(NanoSeconds(200)));
        NetDeviceContainer d = lh.Install(na, nb);
        Ptr<FabricNetDevice> da = DynamicCast<FabricNetDevice>(d.Get(0));
        Ptr<FabricNetDevice> db = DynamicCast<FabricNetDevice>(d.Get(1));
        BasicEndpointHelper eh;
        eh.SetEndpointAttribute("Mtu", UintegerValue(UalinkDlFramer::PAYLOAD_BYTES));
        eh.SetEndpointAttribute("HeaderBytes",
                                UintegerValue(UalinkLinkHelper::GetDlFlitUnitHeaderBytes()));
        Ptr<BasicEndpoint> ea = eh.Install(na, 0);
        Ptr<BasicEndpoint> eb = eh.Install(nb, 1);
        ea->AddDevice(da);
        eb->AddDevice(db);
        db->GetRetryEngine()->SetAttribute("AckInterval", UintegerValue(1000000));
        db->GetRetryEngine()->SetAttribute("AckDelay", TimeValue(Seconds(1)));
        StateLog la;
        StateLog lb;
        DlOf(da)->TraceConnectWithoutContext("LinkState", MakeCallback(&StateLog::OnChange, &la));
        DlOf(db)->TraceConnectWithoutContext("LinkState", MakeCallback(&StateLog::OnChange, &lb));
        ea->Send(1, 600 * UalinkDlFramer::PAYLOAD_BYTES, 0);
        Simulator::Stop(MilliSeconds(2));
        Simulator::Run();
        std::cout << "ack timeout: sender " << la.Sequence() << " at "
                  << (la.changes.empty() ? Time(-1) : la.changes[0].first).As(Time::US)
                  << ", partner " << lb.Sequence() << " at "
                  << (lb.changes.empty() ? Time(-1) : lb.changes[0].first).As(Time::US)
                  << std::endl;
        NS_TEST_ASSERT_MSG_EQ(la.Sequence(), "Up->Idle", "sender Up to Idle");
        NS_TEST_ASSERT_MSG_EQ(la.changes[0].first, MicroSeconds(256), "40000 x 6.4 ns");
        NS_TEST_ASSERT_MSG_EQ(lb.Sequence(), "Up->Idle", "partner Up to Idle");
        NS_TEST_ASSERT_MSG_EQ(lb.changes[0].first,
                              PicoSeconds(256244800),
                              "4 control flits + 200 ns + 19.2 ns later");
        NS_TEST_ASSERT_MSG_EQ(DlOf(da)->GetStats().ackTimeouts, 1, "one ack timeout");
        NS_TEST_ASSERT_MSG_EQ(DlOf(db)->GetStats().peerIdles, 1, "one peer idle");
        NS_TEST_ASSERT_MSG_EQ(DlOf(da)->GetLinkState(), UalinkDl::IDLE, "still Idle");
        NS_TEST_ASSERT_MSG_EQ(da->IsLinkUp() || db->IsLinkUp(), false, "link down both ends");
        Simulator::Destroy();
    }
};

/**
 * \ingroup ualink-tests
 * Faults, recovery and error containment (sections 6.7.1, 6.7.4, 7.2.6) on an x4 link with a
 * 10 ns cable (one way 10 + 19.2 = 29.2 ns; slots of 6.4 ns; a transition is seen by the
 * partner once the 4th control codeword, sent from the next slot boundary, has arrived):
 * - 1 us: a local fault at A: A to Fault; B gets remote faults: slot 157 (1004.8 ns) + 4 slots
 *   = 1030.4 ns + 29.2 = 1059.6 ns.
 * - 2 us: the fault clears: A to Idle and, enabled at once after a fault, NOP; the remote faults
 *   stop reaching B at 2028.8 + 29.2 = 2058 ns: B to Idle and NOP. A has sent 10 NOP flits by
 *   slot 322's end (2067.2 ns) and receives B's 2nd (slots 322, 323) at 2073.6 + 29.2 = 2102.8
 *   ns: Up then; B has sent its 10 by slot 331's end, 2124.8 ns (A's flits already arrive).
 * - 3 us: an error containment event at A: A to Idle; B sees 4 Idle flits at 3027.2 + 29.2 =
 *   3056.4 ns and goes to Idle. Neither comes back by itself (a link-down error).
 * - 4 us: both enabled: NOP from slot 625 (4 us) on both sides: 10 sent by 635 x 6.4 = 4064 ns,
 *   the partner's 2nd received at 4012.8 + 29.2 = 4042 ns: both Up at 4064 ns.
 */
class UalinkDlFaultRecoveryTestCase : public TestCase
{
  public:
    UalinkDlFaultRecoveryTestCase()
        : TestCase("DL: fault, remote fault, recovery, error containment and re-enable")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<Node> na = CreateObject<Node>();
        Ptr<Node> nb = CreateObject<Node>();
        UalinkLinkHelper lh;
        lh.SetChannelAttribute("Delay", TimeValue(NanoSeconds(10)));
        NetDeviceContainer d = lh.Install(na, nb);
        Ptr<UalinkDl> a = DlOf(DynamicCast<FabricNetDevice>(d.Get(0)));
        Ptr<UalinkDl> b = DlOf(DynamicCast<FabricNetDevice>(d.Get(1)));
        StateLog la;
        StateLog lb;
        a->TraceConnectWithoutContext("LinkState", MakeCallback(&StateLog::OnChange, &la));
        b->TraceConnectWithoutContext("LinkState", MakeCallback(&StateLog::OnChange, &lb));
        Simulator::Schedule(MicroSeconds(1), &UalinkDl::SetRsFault, a, true);
        Simulator::Schedule(MicroSeconds(2), &UalinkDl::SetRsFault, a, false);
        Simulator::Schedule(MicroSeconds(3), &UalinkDl::ContainError, a);
        Simulator::Schedule(MicroSeconds(4), &UalinkDl::Enable, a);
        Simulator::Schedule(MicroSeconds(4), &UalinkDl::Enable, b);
        Simulator::Run();
        std::cout << "fault and recovery: A " << la.Sequence() << "; B " << lb.Sequence()
                  << std::endl;
        const std::string seq =
            "Up->Fault Fault->Idle Idle->NOP NOP->Up Up->Idle Idle->NOP NOP->Up";
        NS_TEST_ASSERT_MSG_EQ(la.Sequence(), seq, "A's states");
        NS_TEST_ASSERT_MSG_EQ(lb.Sequence(), seq, "B's states");
        const int64_t ta[] = {1000000, 2000000, 2000000, 2102800, 3000000, 4000000, 4064000};
        const int64_t tb[] = {1059600, 2058000, 2058000, 2124800, 3056400, 4000000, 4064000};
        for (uint32_t i = 0; i < 7; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(la.changes[i].first,
                                  PicoSeconds(ta[i]),
                                  "A " << la.changes[i].second);
            NS_TEST_ASSERT_MSG_EQ(lb.changes[i].first,
                                  PicoSeconds(tb[i]),
                                  "B " << lb.changes[i].second);
        }
        NS_TEST_ASSERT_MSG_EQ(a->GetStats().containments, 1, "one containment");
        NS_TEST_ASSERT_MSG_EQ(b->GetStats().peerIdles, 1, "B saw Idle flits");
        NS_TEST_ASSERT_MSG_EQ(a->GetStats().faults + b->GetStats().faults, 2, "both in Fault once");
        Simulator::Destroy();
    }
};

/**
 * \ingroup ualink-tests
 * Ack timeout at an accelerator (sections 3.1.3, 3.1.4, 6.6.5.8, 6.6.6.8): a
 * pod of 3 accelerators with one x4 port each and the DL's replay; the switch never acks A's
 * flits. A's DL leaves Up exactly 256 us (40,000 x 6.4 ns) after A's first flit (time 0); at that
 * instant A's TL enters drop mode, sends ISOLATE and the station isolates: every outstanding and
 * every later request of A's 1 MiB write (4096 requests) is answered CMPTO, so responses + CMPTO
 * = 4096 (each request answered once) and no tag is left. The switch port toward A goes to drop
 * mode when the Idle flits arrive; C's 64 KiB to B is delivered, C untouched.
 */
class UalinkAckTimeoutIsolationTestCase : public TestCase
{
  public:
    UalinkAckTimeoutIsolationTestCase()
        : TestCase("RAS: ack timeout at an accelerator isolates its station, CMPTO for every tag")
    {
    }

  private:
    void DoRun() override
    {
        UalinkHelper h;
        h.SetLinkLevelReplay(true);
        UalinkHelper::Pod pod = h.Install(3, 1);
        Ptr<FabricNetDevice> swToA = pod.sw[0]->GetPort(0);
        swToA->GetRetryEngine()->SetAttribute("AckInterval", UintegerValue(1000000));
        swToA->GetRetryEngine()->SetAttribute("AckDelay", TimeValue(Seconds(1)));
        StateLog la;
        DlOf(pod.acc[0]->GetPort(0))
            ->TraceConnectWithoutContext("LinkState", MakeCallback(&StateLog::OnChange, &la));
        Deliveries log;
        log.Hook(pod);
        const uint64_t bytes = 1024 * 1024;
        pod.acc[0]->Send(1, bytes, 0);
        pod.acc[2]->Send(1, 65536, 0);
        Simulator::Stop(MilliSeconds(1));
        Simulator::Run();
        const auto& a = pod.acc[0]->GetStats();
        std::cout << "ack timeout at A: " << la.Sequence() << " at "
                  << (la.changes.empty() ? Time(-1) : la.changes[0].first).As(Time::US)
                  << "; responses " << a.responses << " + CMPTO " << a.cmpto << " of "
                  << bytes / 256 << " requests; isolations " << a.isolations << ", ISOLATE "
                  << a.isolates << ", TL drops " << a.tlDropped << "; message completed at "
                  << log.completed[{0, 0}].As(Time::US) << std::endl;
        NS_TEST_ASSERT_MSG_EQ(la.Sequence(), "Up->Idle", "A's DL Up to Idle");
        NS_TEST_ASSERT_MSG_EQ(la.changes[0].first, MicroSeconds(256), "40000 flit times");
        NS_TEST_ASSERT_MSG_EQ(a.isolates, 1, "ISOLATE");
        NS_TEST_ASSERT_MSG_EQ(a.isolations, 1, "one isolation");
        NS_TEST_ASSERT_MSG_GT(a.cmpto, 0, "requests answered CMPTO");
        NS_TEST_ASSERT_MSG_EQ(a.responses + a.cmpto, bytes / 256, "each request answered once");
        NS_TEST_ASSERT_MSG_EQ(pod.acc[0]->GetOutstanding(0), 0, "no tag left");
        NS_TEST_ASSERT_MSG_EQ((log.completed[{0, 0}]), MicroSeconds(256), "completes at isolation");
        NS_TEST_ASSERT_MSG_EQ(a.failedMessages, 1, "counted failed");
        NS_TEST_ASSERT_MSG_EQ(pod.acc[0]->IsInDropMode(0), true, "A's TL in drop mode");
        NS_TEST_ASSERT_MSG_EQ(pod.sw[0]->IsInDropMode(0), true, "switch port to A in drop mode");
        NS_TEST_ASSERT_MSG_EQ(pod.sw[0]->IsInDropMode(1) || pod.sw[0]->IsInDropMode(2),
                              false,
                              "the other switch ports run");
        NS_TEST_ASSERT_MSG_EQ((log.bytes[{2, 1}]), 65536, "C's write delivered");
        NS_TEST_ASSERT_MSG_EQ(pod.acc[2]->GetStats().cmpto, 0, "C untouched");
        Simulator::Destroy();
    }
};

/**
 * \ingroup ualink-tests
 * Link down at a switch port (section 3.1.4, Figure 3-8): 4 accelerators, one
 * x4 rail, 2 us watchdogs. B writes 256 KiB to A while C and D write 64 KiB to each other; A's
 * link is cut at 300 ns (a local fault at both ends: both DLs go to Fault). Only the switch port
 * toward A enters drop mode: what its queue holds and B's later writes to A are dropped, counted
 * LinkDown, and their ingress buffers freed, so B gets every credit back (available = advertised
 * on each class). C and D are untouched: each receives exactly the 65536 B sent to it (byte
 * conservation on the other ports), nothing answered CMPTO. B's watchdog isolates B: responses +
 * CMPTO = its 1024 requests. A's station isolates (ISOLATE). The cable is repaired at 10 us: the
 * switch port's DL goes Fault, Idle, NOP, Up again and the port leaves drop mode; A's TL stays in
 * drop mode (management software would reset it, 3.1.4.3).
 */
class UalinkSwitchLinkDownTestCase : public TestCase
{
  public:
    UalinkSwitchLinkDownTestCase()
        : TestCase("RAS: link down at a switch port drops only that port's traffic")
    {
    }

  private:
    void DoRun() override
    {
        UalinkHelper h;
        h.SetEndpointAttribute("WatchdogTimeout", TimeValue(MicroSeconds(2)));
        UalinkHelper::Pod pod = h.Install(4, 1);
        Deliveries log;
        log.Hook(pod);
        pod.acc[1]->Send(0, 262144, 0);
        pod.acc[2]->Send(3, 65536, 0);
        pod.acc[3]->Send(2, 65536, 0);
        Simulator::Schedule(NanoSeconds(300), [&pod]() {
            pod.acc[0]->GetPort(0)->GetFabricChannel()->SetLinkUp(false);
        });
        UalinkDl::LinkState accAt5{UalinkDl::UP};
        UalinkDl::LinkState swAt5{UalinkDl::UP};
        Simulator::Schedule(MicroSeconds(5), [&]() {
            accAt5 = DlOf(pod.acc[0]->GetPort(0))->GetLinkState();
            swAt5 = DlOf(pod.sw[0]->GetPort(0))->GetLinkState();
        });
        // The cable is repaired at 10 us: both DLs run the bring-up again; the switch port leaves
        // drop mode (section 3.1.4: without affecting the others); A stays isolated.
        Simulator::Schedule(MicroSeconds(10), [&pod]() {
            pod.acc[0]->GetPort(0)->GetFabricChannel()->SetLinkUp(true);
        });
        StateLog ls;
        DlOf(pod.sw[0]->GetPort(0))
            ->TraceConnectWithoutContext("LinkState", MakeCallback(&StateLog::OnChange, &ls));
        Simulator::Run();
        const auto& drops = pod.sw[0]->GetDrops();
        const uint64_t linkDown =
            drops.count(UalinkSwitch::LINK_DOWN) ? drops.at(UalinkSwitch::LINK_DOWN) : 0;
        const auto& b = pod.acc[1]->GetStats();
        Ptr<UalinkTxQueue> qb = pod.acc[1]->GetTxQueue(0);
        std::cout << "switch link down: " << linkDown << " operations dropped as LinkDown; C->D "
                  << log.bytes[{2, 3}] << " B, D->C " << log.bytes[{3, 2}] << " B; B responses "
                  << b.responses << " + CMPTO " << b.cmpto << "; A DL "
                  << UalinkDl::GetStateName(DlOf(pod.acc[0]->GetPort(0))->GetLinkState())
                  << ", switch DL "
                  << UalinkDl::GetStateName(DlOf(pod.sw[0]->GetPort(0))->GetLinkState())
                  << std::endl;
        std::cout << "switch port's DL: " << ls.Sequence() << std::endl;
        NS_TEST_ASSERT_MSG_EQ(accAt5, UalinkDl::FAULT, "A's DL in Fault");
        NS_TEST_ASSERT_MSG_EQ(swAt5, UalinkDl::FAULT, "the switch port's DL in Fault");
        NS_TEST_ASSERT_MSG_EQ(ls.Sequence(),
                              "Up->Fault Fault->Idle Idle->NOP NOP->Up",
                              "down at the cut, up again after the repair");
        NS_TEST_ASSERT_MSG_EQ(ls.changes[0].first, NanoSeconds(300), "Fault at the cut");
        NS_TEST_ASSERT_MSG_EQ(ls.changes[1].first, MicroSeconds(10), "Idle at the repair");
        NS_TEST_ASSERT_MSG_EQ(pod.sw[0]->IsInDropMode(0), false, "port to A out of drop mode");
        NS_TEST_ASSERT_MSG_EQ(pod.acc[0]->IsInDropMode(0), true, "A's TL stays in drop mode");
        for (uint32_t i = 1; i < 4; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(pod.sw[0]->IsInDropMode(i), false, "other ports run");
        }
        NS_TEST_ASSERT_MSG_GT(linkDown, 0, "B's writes to A dropped as LinkDown");
        NS_TEST_ASSERT_MSG_EQ((log.bytes[{2, 3}]), 65536, "C to D: every byte");
        NS_TEST_ASSERT_MSG_EQ((log.bytes[{3, 2}]), 65536, "D to C: every byte");
        NS_TEST_ASSERT_MSG_EQ(pod.acc[2]->GetStats().cmpto + pod.acc[3]->GetStats().cmpto,
                              0,
                              "C and D untouched");
        for (uint32_t c = 0; c < ualink::N_CREDIT_CLASSES; ++c)
        {
            const auto cls = static_cast<ualink::CreditClass>(c);
            NS_TEST_ASSERT_MSG_EQ(qb->GetAvailableCredits(cls),
                                  qb->GetAdvertisedCredits(cls),
                                  "B's credits all back");
        }
        NS_TEST_ASSERT_MSG_EQ(b.isolations, 1, "B's watchdog isolates B");
        NS_TEST_ASSERT_MSG_EQ(b.responses + b.cmpto, 1024, "each of B's requests answered once");
        NS_TEST_ASSERT_MSG_EQ(pod.acc[0]->GetStats().isolates, 1, "ISOLATE at A");
        Simulator::Destroy();
    }
};

/**
 * \ingroup ualink-tests
 * Tx pacing (sections 6.4.2.2, 6.5): B's UPLI clock drops to the 156.25 MHz reference clock
 * (rate code 3125) and B announces it in a TL Rate Notification; A registers it and paces the TL
 * flits it admits to its DL to 3125 x 50 kHz x 64 B (a 512-bit DL at x4) = 10 GB/s = 80 Gb/s of
 * TL bytes, against 784.23 Gb/s unpaced. A 1 MiB write from A at 1 us then runs at that rate:
 * A's TL bytes over the time to delivery = 80 Gb/s within 1%. B paces its own responses to its
 * own clock (6.5.4 step 4a). Back at the full rate (31250), nobody paces.
 */
class UalinkTlRatePacingTestCase : public TestCase
{
  public:
    UalinkTlRatePacingTestCase()
        : TestCase("DL: a TL rate notification paces the partner's TL to the closed-form rate")
    {
    }

  private:
    void DoRun() override
    {
        UalinkHelper h;
        h.SetChannelAttribute("Delay", TimeValue(NanoSeconds(5)));
        NodeContainer n;
        n.Create(2);
        Ptr<UalinkEndpoint> a = h.CreateEndpoint(n.Get(0), 0);
        Ptr<UalinkEndpoint> b = h.CreateEndpoint(n.Get(1), 1);
        h.ConnectDirect(a, b);
        Ptr<UalinkDl> dla = DlOf(a->GetPort(0));
        Ptr<UalinkDl> dlb = DlOf(b->GetPort(0));
        dlb->SetTlRate(UalinkDl::MIN_TL_RATE);
        g_delivered = Seconds(-1);
        b->SetDeliveredCallback(MakeCallback(&OnDelivered));
        const uint64_t bytes = 1024 * 1024;
        Simulator::Schedule(MicroSeconds(1), [a, bytes]() { a->Send(1, bytes, 0); });
        Simulator::Run();
        const double expectedBps = 3125 * 50e3 * 64; // 10 GB/s
        const double tlBytes = a->GetTxQueue(0)->GetStats().halfFlits * 32.0;
        const double gbps = tlBytes * 8 / (g_delivered - MicroSeconds(1)).GetSeconds() / 1e9;
        std::cout << "TL rate pacing: A's peer rate " << dla->GetPeerTlRate() << ", pacing "
                  << dla->GetTxPacingBytesPerSecond() / 1e9 << " GB/s; A's TL at " << gbps
                  << " Gb/s (closed form 80); held back " << a->GetTxQueue(0)->GetStats().paceHolds
                  << " times" << std::endl;
        NS_TEST_ASSERT_MSG_EQ(dla->GetPeerTlRate(), UalinkDl::MIN_TL_RATE, "registered");
        NS_TEST_ASSERT_MSG_EQ(dla->GetStats().rateNotifications, 1, "one notification");
        NS_TEST_ASSERT_MSG_EQ(dla->GetTxPacingBytesPerSecond(), expectedBps, "A paces");
        NS_TEST_ASSERT_MSG_EQ(dlb->GetTxPacingBytesPerSecond(), expectedBps, "B paces itself");
        NS_TEST_ASSERT_MSG_EQ(a->GetBytesDelivered() + b->GetBytesDelivered(), bytes, "delivered");
        NS_TEST_ASSERT_MSG_EQ_TOL(gbps, 80.0, 0.8, "10 GB/s of TL bytes");
        Simulator::Destroy();

        // Back to the full rate: the clock allows 800 Gb/s, above the DL's 784.23: no pacing.
        UalinkHelper h2;
        NodeContainer m;
        m.Create(2);
        Ptr<UalinkEndpoint> c = h2.CreateEndpoint(m.Get(0), 0);
        Ptr<UalinkEndpoint> d = h2.CreateEndpoint(m.Get(1), 1);
        h2.ConnectDirect(c, d);
        DlOf(d->GetPort(0))->SetTlRate(UalinkDl::MIN_TL_RATE);
        Simulator::Schedule(MicroSeconds(1),
                            [d]() { DlOf(d->GetPort(0))->SetTlRate(UalinkDl::FULL_TL_RATE); });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(DlOf(c->GetPort(0))->GetPeerTlRate(), UalinkDl::FULL_TL_RATE, "");
        NS_TEST_ASSERT_MSG_EQ(DlOf(c->GetPort(0))->GetTxPacingBytesPerSecond(), 0, "no pacing");
        NS_TEST_ASSERT_MSG_EQ(c->GetTxQueue(0)->GetTlRateLimit(), 0, "the TL is not paced");
        Simulator::Destroy();
    }
};

/**
 * \ingroup ualink-tests
 * Completer drop mode (section 3.1.3): B's completer drops every request arriving on any port and
 * answers none; the TL still returns their credits. A writes 4 KiB (16 requests) and C reads
 * 1 KiB (4 requests) from B: B counts 20 requests dropped and delivers nothing; A's and C's 2 us
 * watchdogs expire 2 us after their first request was issued and answer their 16 and 4
 * outstanding tags CMPTO; A's credits toward the switch are all back.
 */
class UalinkCompleterDropModeTestCase : public TestCase
{
  public:
    UalinkCompleterDropModeTestCase()
        : TestCase("RAS: completer drop mode drops every request, the originators time out")
    {
    }

  private:
    void DoRun() override
    {
        UalinkHelper h;
        h.SetEndpointAttribute("WatchdogTimeout", TimeValue(MicroSeconds(2)));
        UalinkHelper::Pod pod = h.Install(3, 1);
        pod.acc[1]->SetCompleterDropMode(true);
        Deliveries log;
        log.Hook(pod);
        pod.acc[0]->Send(1, 4096, 0);
        pod.acc[2]->Read(1, 1024, 0);
        Simulator::Run();
        const auto& a = pod.acc[0]->GetStats();
        const auto& c = pod.acc[2]->GetStats();
        std::cout << "completer drop mode: B dropped " << pod.acc[1]->GetStats().completerDropped
                  << " requests; A CMPTO " << a.cmpto << ", C CMPTO " << c.cmpto
                  << "; A's message completed at " << log.completed[{0, 0}].As(Time::NS)
                  << std::endl;
        NS_TEST_ASSERT_MSG_EQ(pod.acc[1]->GetStats().completerDropped, 20, "16 + 4 requests");
        NS_TEST_ASSERT_MSG_EQ(pod.acc[1]->GetBytesDelivered(), 0, "nothing delivered at B");
        NS_TEST_ASSERT_MSG_EQ(a.cmpto, 16, "A's 16 tags answered CMPTO");
        NS_TEST_ASSERT_MSG_EQ(c.cmpto, 4, "C's 4 tags answered CMPTO");
        NS_TEST_ASSERT_MSG_EQ((log.completed[{0, 0}]), MicroSeconds(2), "2 us after issue");
        for (uint32_t k = 0; k < ualink::N_CREDIT_CLASSES; ++k)
        {
            const auto cls = static_cast<ualink::CreditClass>(k);
            NS_TEST_ASSERT_MSG_EQ(pod.sw[0]->GetTxQueue(1)->GetAvailableCredits(cls),
                                  pod.sw[0]->GetTxQueue(1)->GetAdvertisedCredits(cls),
                                  "B returned every credit");
        }
        Simulator::Destroy();
    }
};

/**
 * \ingroup ualink-tests
 * The DL's link states, Tx pacing and drop modes (UALink_200 sections 3.1, 6.5, 6.6.6.8, 6.7.1).
 */
class UalinkDlTestSuite : public PicosecondTestSuite
{
  public:
    UalinkDlTestSuite()
        : PicosecondTestSuite("ualink-dl", UNIT)
    {
        AddTestCase(new UalinkDlBringUpTestCase, TestCase::QUICK);
        AddTestCase(new UalinkDlAckTimeoutStateTestCase, TestCase::QUICK);
        AddTestCase(new UalinkDlFaultRecoveryTestCase, TestCase::QUICK);
        AddTestCase(new UalinkAckTimeoutIsolationTestCase, TestCase::QUICK);
        AddTestCase(new UalinkSwitchLinkDownTestCase, TestCase::QUICK);
        AddTestCase(new UalinkTlRatePacingTestCase, TestCase::QUICK);
        AddTestCase(new UalinkCompleterDropModeTestCase, TestCase::QUICK);
    }
};

static UalinkDlTestSuite g_ualinkDlTestSuite; //!< the suite
