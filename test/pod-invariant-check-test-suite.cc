/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Invariant checking (podsim run --check): each invariant is violated on purpose through
// a test hook (a credit returned twice, a buffer released twice, a unit that grows in its queue,
// a sequence number regressing, an event scheduled in the past, bytes vanishing) and the check
// must stop it with the expected message; two small pods run with the checks on and pass, their
// byte accounts checked against closed forms.

#include "ns3/basic-endpoint-helper.h"
#include "ns3/cell-fabric-adapter.h"
#include "ns3/experiment.h"
#include "ns3/fabric-check-scheduler.h"
#include "ns3/fabric-credit-flow-control.h"
#include "ns3/fabric-go-back-n.h"
#include "ns3/fabric-invariant-check.h"
#include "ns3/fabric-link-helper.h"
#include "ns3/fabric-net-device.h"
#include "ns3/fabric-output-queue.h"
#include "ns3/fabric-pfc.h"
#include "ns3/fabric-retry-engine.h"
#include "ns3/fabric-shared-buffer.h"
#include "ns3/node.h"
#include "ns3/object-factory.h"
#include "ns3/picosecond-test-suite.h"
#include "ns3/run-invariant-check.h"
#include "ns3/scenario-loader.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/ualink-tx-queue.h"
#include "ns3/uinteger.h"

#include <functional>
#include <string>

using namespace ns3;

namespace
{

/// Payload of the test units (bytes).
constexpr uint32_t PAYLOAD = 4096;
/// Header of the test units (bytes): a unit is 4114 B, 65 credits of 64 B.
constexpr uint32_t HEADER = 18;

/// \return a data unit of class 0 from accelerator 0 to 1
Ptr<FabricPacket>
Unit()
{
    Ptr<FabricPacket> p = Create<FabricPacket>();
    p->src = 0;
    p->dst = 1;
    p->payloadBytes = PAYLOAD;
    p->headerBytes = HEADER;
    p->msgBytes = PAYLOAD;
    return p;
}

/**
 * Run \p body with the checks on and return the violation's message ("" if none). \p body runs
 * inside an event at \p at (the messages give the simulated time), in a fresh simulator.
 * \param at when to run it
 * \param body the violation
 * \param withScheduler install the checking event scheduler
 * \return the message
 */
std::string
Violation(Time at, const std::function<void()>& body, bool withScheduler = false)
{
    if (withScheduler)
    {
        ObjectFactory f;
        f.SetTypeId("ns3::FabricCheckScheduler");
        Simulator::SetScheduler(f);
    }
    std::string message;
    Simulator::Schedule(at, body);
    try
    {
        Simulator::Run();
    }
    catch (const FabricInvariantCheck::Violation& e)
    {
        message = e.what();
    }
    Simulator::Destroy();
    return message;
}

/// A pair of FabricNetDevices on one link (800 Gb/s, 100 ns) with the given flow control.
struct Pair
{
    Ptr<FabricNetDevice> a; //!< one end
    Ptr<FabricNetDevice> b; //!< the other
};

/**
 * \param fc flow control TypeId ("" for none)
 * \param llr link-level retry on both ends
 * \return the pair (names "acc0:port0" and "sw2:port5" registered)
 */
Pair
MakePair(const std::string& fc, bool llr)
{
    FabricLinkHelper lh;
    lh.SetChannelAttribute("DataRate", DataRateValue(DataRate("800Gbps")));
    lh.SetChannelAttribute("Delay", TimeValue(NanoSeconds(100)));
    if (fc == "ns3::FabricCreditFlowControl")
    {
        // 65536 B per VC of 64 B credits: 1024 credits advertised.
        lh.SetFlowControl(fc, "BufferBytes", UintegerValue(65536), "Vcs", UintegerValue(2));
    }
    else if (!fc.empty())
    {
        lh.SetFlowControl(fc, "XoffBytes", UintegerValue(16384));
    }
    if (llr)
    {
        lh.SetRetryEngine(true);
    }
    NetDeviceContainer d = lh.Install(CreateObject<Node>(), CreateObject<Node>());
    Pair p;
    p.a = DynamicCast<FabricNetDevice>(d.Get(0));
    p.b = DynamicCast<FabricNetDevice>(d.Get(1));
    FabricInvariantCheck::SetName(PeekPointer(p.a), "acc0:port0");
    FabricInvariantCheck::SetName(PeekPointer(p.b), "sw2:port5");
    return p;
}

} // namespace

/**
 * \ingroup pod-tests
 * Base of the cases: checks on before, off after (the switch is process-wide).
 */
class InvariantTestCase : public TestCase
{
  public:
    /// \param name the case's name
    explicit InvariantTestCase(const std::string& name)
        : TestCase(name)
    {
    }

  private:
    void DoSetup() override
    {
        FabricInvariantCheck::Enable();
    }

    void DoTeardown() override
    {
        FabricInvariantCheck::Disable();
    }
};

/**
 * Credit accounting of FabricCreditFlowControl. A unit of 4114 B takes ceil(4114 / 64) = 65
 * credits. (1) The receiving port releases it twice: held 65 - 65 - 65 = -65 credits.
 * (2) The peer returns 10 credits on VC 0 when none were spent: the sender would have
 * 1024 + 10 = 1034 credits, above the 1024 (65536 / 64) advertised.
 */
class CreditDoubleReturnTestCase : public InvariantTestCase
{
  public:
    CreditDoubleReturnTestCase()
        : InvariantTestCase("credit accounting: a CBFC credit released twice or returned unspent")
    {
    }

  private:
    void DoRun() override
    {
        Pair p = MakePair("ns3::FabricCreditFlowControl", false);
        Ptr<FabricFlowControl> rx = p.b->GetFlowControl();
        std::string m = Violation(NanoSeconds(1234), [rx]() {
            Ptr<FabricPacket> u = Unit();
            rx->NotifyReceived(u);
            rx->NotifyReleased(u);
            rx->NotifyReleased(u); // the hook: the same unit leaves the buffer twice
        });
        NS_TEST_ASSERT_MSG_EQ(m,
                              "invariant violated: credit accounting: sw2:port5 receive credits "
                              "-65 on class 0 after releasing a unit of 65 credits (released "
                              "twice, or never received) at 1.234000 us",
                              "the second release is caught");

        p = MakePair("ns3::FabricCreditFlowControl", false);
        Ptr<FabricFlowControl> tx = p.a->GetFlowControl();
        m = Violation(NanoSeconds(5), [tx]() {
            Ptr<FabricPacket> f = Create<FabricPacket>();
            f->kind = FabricPacket::CREDIT;
            f->ctrlClass = 0;
            f->ctrlValue = 10; // cumulative credits returned on VC 0; none were spent
            tx->ReceiveControl(f);
        });
        NS_TEST_ASSERT_MSG_EQ(m,
                              "invariant violated: credit accounting: acc0:port0 credits 1034 on "
                              "class 0, above the 1024 advertised (10 returned that were never "
                              "spent) at 0.005000 us",
                              "credits above the advertised buffer are caught");
    }
};

/**
 * UALink TL credits: the partner advertises 512 ReqCmd credits (the attribute's default); one
 * returned when none were spent makes 513.
 */
class UalinkCreditTestCase : public InvariantTestCase
{
  public:
    UalinkCreditTestCase()
        : InvariantTestCase("credit accounting: a UALink TL credit returned twice")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<UalinkTxQueue> q = CreateObject<UalinkTxQueue>();
        FabricInvariantCheck::SetName(PeekPointer(q), "acc3:port1 TL");
        const std::string m = Violation(NanoSeconds(2), [q]() {
            q->AddCredits(ualink::REQ_CMD, 0); // load the advertised credits
            q->AddCredits(ualink::REQ_CMD, 1); // the hook: a credit back that was never spent
        });
        NS_TEST_ASSERT_MSG_EQ(m,
                              "invariant violated: credit accounting: acc3:port1 TL credits 513 "
                              "on class ReqCmd, above the 512 advertised (returned twice?) "
                              "at 0.002000 us",
                              "the surplus credit is caught");
    }
};

/**
 * Cell-fabric Rx buffer cells and grants: freeing the cells of a page that holds no grant (a page
 * freed twice) would leave -1 outstanding grants and 24576 + 10 free cells of 24576.
 */
class CellRxCellsTestCase : public InvariantTestCase
{
  public:
    CellRxCellsTestCase()
        : InvariantTestCase("credit accounting: cell-fabric Rx cells freed without a grant")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<CellFabricAdapter> a = CreateObject<CellFabricAdapter>();
        const std::string m = Violation(NanoSeconds(3), [a]() { a->FreeRxCells(0, 10); });
        NS_TEST_ASSERT_MSG_EQ(m,
                              "invariant violated: credit accounting: acc0 Rx CBUF free cells 10 "
                              "of 24576, outstanding grants -1 on cluster 0 after freeing a page "
                              "of 10 cells (freed twice, or never granted) at 0.003000 us",
                              "the release without a grant is caught");
    }
};

/**
 * Buffer accounting. (1) A switch's shared buffer: 1000 B admitted to port 1 class 0, released
 * twice: -1000 B. (2) A PFC ingress counter released twice: 4114 - 2 x 4114 = -4114 B. (3) A PFC
 * switch port that never pauses in time: with XOFF 16384 B the counter may reach XOFF + headroom
 * (FabricPfc::ComputeHeadroom for this link); the first unit beyond trips the check. (4) An
 * output queue whose unit grows by 100 B while queued: its class would hold -100 B after the
 * dequeue.
 */
class BufferDoubleReleaseTestCase : public InvariantTestCase
{
  public:
    BufferDoubleReleaseTestCase()
        : InvariantTestCase("buffer accounting: buffers and counters released twice, overfilled")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<FabricSharedBuffer> b = CreateObject<FabricSharedBuffer>();
        b->Configure(4, 2);
        FabricInvariantCheck::SetName(PeekPointer(b), "sw2 buffer");
        std::string m = Violation(NanoSeconds(7), [b]() {
            NS_ABORT_UNLESS(b->Admit(1, 0, 1000));
            b->Release(1, 0, 1000);
            b->Release(1, 0, 1000); // the hook
        });
        NS_TEST_ASSERT_MSG_EQ(m,
                              "invariant violated: buffer accounting: sw2 buffer port 1 class 0 "
                              "holds -1000 B after releasing 1000 B (released twice, or never "
                              "admitted) at 0.007000 us",
                              "the shared buffer's second release is caught");

        Pair p = MakePair("ns3::FabricPfc", false);
        Ptr<FabricFlowControl> rx = p.b->GetFlowControl();
        m = Violation(NanoSeconds(8), [rx]() {
            Ptr<FabricPacket> u = Unit();
            rx->NotifyReceived(u);
            rx->NotifyReleased(u);
            rx->NotifyReleased(u); // the hook
        });
        NS_TEST_ASSERT_MSG_EQ(m,
                              "invariant violated: buffer accounting: sw2:port5 ingress counter "
                              "-4114 B on class 0 after releasing 4114 B (released twice, or "
                              "never received) at 0.008000 us",
                              "the ingress counter's second release is caught");

        p = MakePair("ns3::FabricPfc", false);
        p.b->SetHoldsReceivedUnits(true); // a switch port: it pauses at XOFF
        Ptr<FabricPfc> pfc = DynamicCast<FabricPfc>(p.b->GetFlowControl());
        const uint64_t cap = pfc->GetXoff() + pfc->GetHeadroom();
        const uint64_t over = (cap / (PAYLOAD + HEADER) + 1) * (PAYLOAD + HEADER);
        m = Violation(NanoSeconds(9), [pfc]() {
            for (;;)
            {
                pfc->NotifyReceived(Unit()); // the hook: the peer ignores the pause
            }
        });
        NS_TEST_ASSERT_MSG_EQ(m,
                              "invariant violated: buffer accounting: sw2:port5 ingress counter " +
                                  std::to_string(over) + " B on class 0, above XOFF + headroom = " +
                                  std::to_string(cap) + " B (PFC paused too late) at 0.009000 us",
                              "the first unit beyond the headroom is caught");

        Ptr<FabricOutputQueue> q = CreateObject<FabricOutputQueue>();
        FabricInvariantCheck::SetName(PeekPointer(q), "sw2:port5 output queue");
        m = Violation(NanoSeconds(10), [q]() {
            Ptr<FabricPacket> u = Unit();
            q->Enqueue(u);
            u->headerBytes += 100; // the hook: the unit changes size while queued
            q->Dequeue();
        });
        NS_TEST_ASSERT_MSG_EQ(m,
                              "invariant violated: buffer accounting: sw2:port5 output queue "
                              "class 0 bytes -100, queue bytes -100, units 0 after a dequeue of "
                              "4214 B at 0.010000 us",
                              "the queue's byte count going negative is caught");
    }
};

/**
 * Sequence numbers. (1) Link-level retry: units 0 and 1 go up; the receiver's expected number is
 * set back to 1, so unit 1 is accepted again: a duplicate delivered upward. (2) An ACK for
 * sequence 5 when nothing was sent. (3) Go-back-N: PSN 0 from acc0 goes up at acc1; the expected
 * PSN set back to 0 lets it through again.
 */
class SequenceRegressionTestCase : public InvariantTestCase
{
  public:
    SequenceRegressionTestCase()
        : InvariantTestCase("sequence numbers: a regressing sequence number and an ACK of "
                            "nothing sent")
    {
    }

  private:
    void DoRun() override
    {
        Pair p = MakePair("", true);
        Ptr<FabricRetryEngine> rx = p.b->GetRetryEngine();
        std::string m = Violation(NanoSeconds(11), [rx]() {
            for (uint64_t s : {0, 1})
            {
                Ptr<FabricPacket> u = Unit();
                u->linkSeq = s;
                NS_ABORT_UNLESS(rx->AcceptData(u));
            }
            rx->ForceExpectedSequence(1); // the hook
            Ptr<FabricPacket> again = Unit();
            again->linkSeq = 1;
            rx->AcceptData(again);
        });
        NS_TEST_ASSERT_MSG_EQ(m,
                              "invariant violated: sequence numbers: sw2:port5 link retry "
                              "delivers sequence 1 upward after 1 (a duplicate) at 0.011000 us",
                              "the duplicate is caught");

        p = MakePair("", true);
        Ptr<FabricRetryEngine> tx = p.a->GetRetryEngine();
        m = Violation(NanoSeconds(12), [tx]() {
            Ptr<FabricPacket> f = Create<FabricPacket>();
            f->kind = FabricPacket::LLR_ACK;
            f->ctrlValue = 5;
            tx->ReceiveControl(f);
        });
        NS_TEST_ASSERT_MSG_EQ(m,
                              "invariant violated: sequence numbers: acc0:port0 link retry "
                              "acknowledges up to sequence 5, but only 0 units were sent at "
                              "0.012000 us",
                              "the ACK beyond what was sent is caught");

        Ptr<FabricGoBackN> gbn = CreateObject<FabricGoBackN>();
        gbn->SetLocalId(1);
        m = Violation(NanoSeconds(13), [gbn]() {
            Ptr<FabricPacket> u = Unit();
            u->psn = 0;
            NS_ABORT_UNLESS(gbn->Receive(u));
            gbn->ForceExpectedPsn(0, 0, 0); // the hook
            gbn->Receive(u);
        });
        NS_TEST_ASSERT_MSG_EQ(m,
                              "invariant violated: sequence numbers: acc1 transport delivers PSN "
                              "0 from acc0 class 0 upward after 0 (a duplicate) at 0.013000 us",
                              "the transport's duplicate is caught");
        gbn->Dispose();
    }
};

/**
 * No event in the past. At 10 ns an event schedules another with a delay of -5 ns. Without the
 * check (Debian's release build of ns-3 has NS_ASSERT compiled out, so its "negative delay"
 * assertion is not there) the event is inserted at 5 ns and runs with the clock going back from
 * 10 to 5 ns; with FabricCheckScheduler the insertion is caught: 5000 ps, 5000 ps before the
 * present.
 */
class EventInThePastTestCase : public InvariantTestCase
{
  public:
    EventInThePastTestCase()
        : InvariantTestCase("event time: an event scheduled with a negative delay")
    {
    }

  private:
    void DoRun() override
    {
        Time ranAt(-1);
        Simulator::Schedule(NanoSeconds(10), [&ranAt]() {
            Simulator::Schedule(NanoSeconds(-5), [&ranAt]() { ranAt = Simulator::Now(); });
        });
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_EQ(ranAt,
                              NanoSeconds(5),
                              "without the check, ns-3 runs the event in the past");

        const std::string m = Violation(
            NanoSeconds(10),
            []() { Simulator::Schedule(NanoSeconds(-5), []() {}); },
            true);
        const std::string tail = " scheduled at 5000 ps, 5000 ps before the present (a negative "
                                 "delay) at 0.010000 us";
        NS_TEST_ASSERT_MSG_EQ(m.rfind("invariant violated: event time: scheduler event ", 0),
                              0,
                              "the event in the past is caught: " << m);
        const bool endsWithTail =
            m.size() > tail.size() && m.compare(m.size() - tail.size(), tail.size(), tail) == 0;
        NS_TEST_ASSERT_MSG_EQ(endsWithTail, true, "with its time: " << m);
    }
};

/**
 * Byte conservation and message completion at the end of a run, on message tables built by
 * hand. Flow acc0->acc1 posts 3 messages of 1000 B and 2 are delivered:
 * - with no drop and the run not stopped, 3000 - 2000 = 1000 B vanished;
 * - with one unit of the flow counted as dropped (reason "buffer-full") they are accounted:
 *   posted 3000 = delivered 2000 + lost 1000;
 * - with the run stopped they are in flight: 1000 B;
 * - with 2 messages undelivered and 1 unit dropped, 1 message has no dropped piece.
 * A delivery before the post, and a second delivery of one message, are caught too.
 */
class ConservationTestCase : public InvariantTestCase
{
  public:
    ConservationTestCase()
        : InvariantTestCase("byte conservation and message completion per flow at the end")
    {
    }

  private:
    /// \param delivered messages delivered of 3 \return the table
    static RunResults::Messages Table(uint32_t delivered)
    {
        RunResults::Messages t;
        for (uint32_t i = 0; i < 3; ++i)
        {
            t.src.push_back(0);
            t.dst.push_back(1);
            t.bytes.push_back(1000);
            t.tclass.push_back(0);
            t.workload.push_back(0);
            t.postPs.push_back(1000);
            t.deliverPs.push_back(i < delivered ? 5000 : -1);
            t.completePs.push_back(i < delivered ? 6000 : -1);
        }
        return t;
    }

    /// \param f the check \return its message, or ""
    static std::string Caught(const std::function<void()>& f)
    {
        try
        {
            f();
        }
        catch (const FabricInvariantCheck::Violation& e)
        {
            return e.what();
        }
        return "";
    }

    void DoRun() override
    {
        RunInvariantCheck none;
        std::string m = Caught([&none]() { none.CheckMessages(Table(2), false); });
        NS_TEST_ASSERT_MSG_EQ(m,
                              "invariant violated: byte conservation: flow acc0->acc1 posted "
                              "3000 B, delivered 2000 B, dropped 0 B: 1000 B in 1 messages "
                              "vanished (no drop, no failed connection, the run was not stopped) "
                              "at 0.000000 us",
                              "bytes that vanish are caught");

        RunInvariantCheck dropped;
        dropped.Dropped(Unit(), "buffer-full");
        const RunInvariantCheck::Summary s = dropped.CheckMessages(Table(2), false);
        NS_TEST_ASSERT_MSG_EQ(s.flows, 1, "one flow");
        NS_TEST_ASSERT_MSG_EQ(s.messages, 3, "three messages");
        NS_TEST_ASSERT_MSG_EQ(s.postedBytes, 3000, "posted 3 x 1000 B");
        NS_TEST_ASSERT_MSG_EQ(s.deliveredBytes, 2000, "delivered 2 x 1000 B");
        NS_TEST_ASSERT_MSG_EQ(s.lostBytes, 1000, "posted = delivered + lost");
        NS_TEST_ASSERT_MSG_EQ(dropped.GetDrops().at(1).bytes, PAYLOAD, "the drop's payload");

        const RunInvariantCheck::Summary st = none.CheckMessages(Table(2), true);
        NS_TEST_ASSERT_MSG_EQ(st.inFlightBytes, 1000, "a stopped run has them in flight");

        m = Caught([&dropped]() { dropped.CheckMessages(Table(1), false); });
        NS_TEST_ASSERT_MSG_EQ(m,
                              "invariant violated: byte conservation: flow acc0->acc1 2 messages "
                              "(2000 B) not delivered, but only 1 pieces dropped at 0.000000 us",
                              "more lost messages than dropped pieces are caught");

        RunResults::Messages early = Table(3);
        early.deliverPs[1] = 500;
        m = Caught([&none, &early]() { none.CheckMessages(early, false); });
        NS_TEST_ASSERT_MSG_EQ(m,
                              "invariant violated: message completion: flow acc0->acc1 message "
                              "row 1 delivered at 500 ps, before its post at 1000 ps at "
                              "0.000000 us",
                              "a delivery before the post is caught");

        m = Caught([&none]() { none.Delivered(0, 1, 7, true); });
        NS_TEST_ASSERT_MSG_EQ(m,
                              "invariant violated: message completion: flow acc0->acc1 message 7 "
                              "delivered a second time at 0.000000 us",
                              "a second delivery is caught");
    }
};

/**
 * Two small pods run with the checks on (Experiment::Run with Options::check), 8 accelerators on
 * one switch, an incast of 7 senders x 64 KiB to accelerator 0:
 * - with CBFC nothing is lost: 7 flows, posted = delivered = 7 x 65536 = 458752 B, every buffer
 *   drained and every credit home;
 * - without flow control and a 64 KiB switch buffer the incast overflows it: drops are counted,
 *   and posted 458752 B = delivered + lost, with lost > 0.
 */
class CheckedRunTestCase : public TestCase
{
  public:
    CheckedRunTestCase()
        : TestCase("checked runs: a lossless and a lossy incast pass the checks")
    {
    }

  private:
    void DoRun() override
    {
        const std::string text = "pod:\n"
                                 "  accelerators: 8\n"
                                 "workloads:\n"
                                 "  - {kind: incast, senders: 7, receiver: 0, size: 64KiB}\n"
                                 "output: {plots: false, progress: false}\n";
        Experiment::Options opt;
        opt.writeResults = false;
        opt.printSummary = false;
        opt.progress = false;
        opt.check = true;
        const uint64_t posted = 7 * 65536;

        Scenario s =
            ScenarioLoader::LoadString(text, "incast.yaml", {"pod.flow-control.kind=cbfc"});
        RunResults r = Experiment::Run(s, opt);
        NS_TEST_ASSERT_MSG_EQ(r.checked, true, "the checks ran and passed");
        NS_TEST_ASSERT_MSG_GT(r.checks, 0, "checks were done");
        NS_TEST_ASSERT_MSG_EQ(r.checkedFlows, 7, "7 flows");
        NS_TEST_ASSERT_MSG_EQ(r.bytesDelivered, posted, "7 x 64 KiB delivered");
        NS_TEST_ASSERT_MSG_EQ(r.checkLostBytes, 0, "nothing lost");
        NS_TEST_ASSERT_MSG_EQ(FabricInvariantCheck::IsEnabled(), false, "checks off after");

        s = ScenarioLoader::LoadString(text,
                                       "incast.yaml",
                                       {"pod.flow-control.kind=none", "pod.switch.buffer=64KiB"});
        r = Experiment::Run(s, opt);
        NS_TEST_ASSERT_MSG_EQ(r.checked, true, "the lossy run passes too");
        NS_TEST_ASSERT_MSG_GT(r.bytesDropped, 0, "the 64 KiB buffer overflows");
        NS_TEST_ASSERT_MSG_GT(r.checkLostBytes, 0, "messages were lost");
        NS_TEST_ASSERT_MSG_EQ(r.bytesDelivered + r.checkLostBytes,
                              posted,
                              "posted = delivered + lost");
    }
};

/**
 * A violation inside a checked run: an event left pending before Experiment::Run (the run moves
 * it into its checking scheduler) schedules, at 1 us, another with a delay of -500 ns. The run
 * stops with the event-time violation (its insertion at 500000 ps, 500000 ps before the
 * present), the checks are off again, and the next checked run of the same scenario starts from
 * a clean simulator and passes.
 */
class ViolationStopsRunTestCase : public TestCase
{
  public:
    ViolationStopsRunTestCase()
        : TestCase("a violation stops Experiment Run and the next run is clean")
    {
    }

  private:
    void DoRun() override
    {
        const std::string text = "pod:\n"
                                 "  accelerators: 8\n"
                                 "workloads:\n"
                                 "  - {kind: all-to-all, size: 4KiB}\n"
                                 "output: {plots: false, progress: false}\n";
        const Scenario s = ScenarioLoader::LoadString(text, "a2a.yaml", {});
        Experiment::Options opt;
        opt.writeResults = false;
        opt.printSummary = false;
        opt.progress = false;
        opt.check = true;
        Simulator::Schedule(MicroSeconds(1),
                            []() { Simulator::Schedule(NanoSeconds(-500), []() {}); });
        std::string m;
        try
        {
            Experiment::Run(s, opt);
        }
        catch (const FabricInvariantCheck::Violation& e)
        {
            m = e.what();
        }
        const std::string tail = " scheduled at 500000 ps, 500000 ps before the present (a "
                                 "negative delay) at 1.000000 us";
        const bool caught = m.rfind("invariant violated: event time: scheduler event ", 0) == 0 &&
                            m.size() > tail.size() &&
                            m.compare(m.size() - tail.size(), tail.size(), tail) == 0;
        NS_TEST_ASSERT_MSG_EQ(caught, true, "the run stops with the violation: " << m);
        NS_TEST_ASSERT_MSG_EQ(FabricInvariantCheck::IsEnabled(), false, "checks off after");
        NS_TEST_ASSERT_MSG_EQ(Simulator::Now(), Time(0), "the simulator was cleared");
        const RunResults r = Experiment::Run(s, opt);
        NS_TEST_ASSERT_MSG_EQ(r.checked, true, "the next run passes");
        // All-to-all over 8: 8 x 7 = 56 flows of 4096 B.
        NS_TEST_ASSERT_MSG_EQ(r.checkedFlows, 56, "8 x 7 flows");
        NS_TEST_ASSERT_MSG_EQ(r.bytesDelivered, 56 * 4096, "every byte delivered");
    }
};

/**
 * \ingroup pod-tests
 * The invariant checks of podsim run --check.
 */
class PodInvariantCheckTestSuite : public PicosecondTestSuite
{
  public:
    PodInvariantCheckTestSuite()
        : PicosecondTestSuite("pod-invariant-check", UNIT)
    {
        AddTestCase(new CreditDoubleReturnTestCase, TestCase::QUICK);
        AddTestCase(new UalinkCreditTestCase, TestCase::QUICK);
        AddTestCase(new CellRxCellsTestCase, TestCase::QUICK);
        AddTestCase(new BufferDoubleReleaseTestCase, TestCase::QUICK);
        AddTestCase(new SequenceRegressionTestCase, TestCase::QUICK);
        AddTestCase(new EventInThePastTestCase, TestCase::QUICK);
        AddTestCase(new ConservationTestCase, TestCase::QUICK);
        AddTestCase(new CheckedRunTestCase, TestCase::QUICK);
        AddTestCase(new ViolationStopsRunTestCase, TestCase::QUICK);
    }
};

/// The suite's instance.
static PodInvariantCheckTestSuite g_podInvariantCheckTestSuite;
