/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Tests of the UPLI (UalinkUpli) and of the TL's per-VC and pool credits (UalinkTxQueue).
// Expected values come from UALink_200 Rev 1.0: sections 2.5 (TDM), 2.6 (UPLI
// credits), 2.7.8 (channel rules), 2.7.9 (ordering), 2.8 (beats on natural byte lanes) and 5.8
// (TL credits, FC fields, Shared Data Buffer mode), with the closed forms written next to each
// test.

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/node-container.h"
#include "ns3/picosecond-test-suite.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/ualink-endpoint.h"
#include "ns3/ualink-helper.h"
#include "ns3/ualink-phy.h"
#include "ns3/ualink-switch.h"
#include "ns3/ualink-tl-packer.h"
#include "ns3/ualink-upli.h"
#include "ns3/uinteger.h"

#include <iostream>
#include <map>

using namespace ns3;

/**
 * \defgroup ualink-upli-tests Tests for the UALink UPLI and TL credits
 * \ingroup ualink
 * \ingroup tests
 */

namespace
{

/// Deliveries and completions of a pod, by (source, message id).
struct Log
{
    std::map<std::pair<uint32_t, uint64_t>, Time> delivered; //!< at the destination
    std::map<std::pair<uint32_t, uint64_t>, Time> completed; //!< at the source

    /// A delivery.
    void OnDelivered(const FabricMessage& m)
    {
        delivered[{m.src, m.id}] = Simulator::Now();
    }

    /// A completion.
    void OnCompleted(const FabricMessage& m)
    {
        completed[{m.src, m.id}] = Simulator::Now();
    }

    /// Hook an endpoint.
    void Hook(Ptr<UalinkEndpoint> e)
    {
        e->SetDeliveredCallback(MakeCallback(&Log::OnDelivered, this));
        e->SetCompletedCallback(MakeCallback(&Log::OnCompleted, this));
    }
};

/// Two accelerators joined by `ports` direct x`lanes` links.
struct Direct
{
    Ptr<UalinkEndpoint> a; //!< accelerator 0
    Ptr<UalinkEndpoint> b; //!< accelerator 1
};

/// Build a direct pair.
Direct
MakeDirect(UalinkHelper& h, uint32_t ports, uint32_t lanes)
{
    h.SetPhyAttribute("Lanes", UintegerValue(lanes));
    h.SetPhyAttribute("FecInterleave", UintegerValue(lanes == 1 ? 1 : 4));
    h.SetChannelAttribute("Delay", TimeValue(NanoSeconds(5)));
    NodeContainer n;
    n.Create(2);
    Direct d;
    d.a = h.CreateEndpoint(n.Get(0), 0);
    d.b = h.CreateEndpoint(n.Get(1), 1);
    for (uint32_t p = 0; p < ports; ++p)
    {
        h.ConnectDirect(d.a, d.b);
    }
    return d;
}

} // namespace

/**
 * \ingroup ualink-upli-tests
 * Beats and credits per operation (sections 2.7.8, 2.8, 5.8): a Read is 1 Req beat; a 256 B
 * write 1 Req + 4 OrigData beats; a 64 B write at byte 32 crosses a 64 B line: 2 OrigData beats
 * (2.8: natural byte lanes); an atomic 1 + 1; a 256 B read response 4 RdRsp beats; a write
 * response 1 WrRsp beat. Through the endpoint, a 600 B message is cut at the 256 B boundaries
 * (no request crosses one, 2.7.4): 256 + 256 + 88 B, so 3 Req beats and 4 + 4 + 2 = 10 OrigData
 * beats at the UPLI, and 3 ReqCmd + 10 ReqData TL credits on the link; the completer's 3 write
 * responses take 3 WrRsp beats and 3 RspCmd credits.
 */
class UalinkUpliBeatsTestCase : public TestCase
{
  public:
    UalinkUpliBeatsTestCase()
        : TestCase("UPLI beats and credits per operation, requests cut at 256 B")
    {
    }

  private:
    void DoRun() override
    {
        typedef UalinkUpli::Beats B;
        NS_TEST_ASSERT_MSG_EQ((UalinkUpli::BeatsOf(ualink::OP_READ, 256, 0) == B{1, 0, 0, 0}),
                              true,
                              "Read: 1 Req beat");
        NS_TEST_ASSERT_MSG_EQ((UalinkUpli::BeatsOf(ualink::OP_WRITE, 256, 0) == B{1, 4, 0, 0}),
                              true,
                              "256 B write: 1 + 4");
        NS_TEST_ASSERT_MSG_EQ((UalinkUpli::BeatsOf(ualink::OP_WRITE, 64, 32) == B{1, 2, 0, 0}),
                              true,
                              "64 B at byte 32: 2 beats (2.8)");
        NS_TEST_ASSERT_MSG_EQ((UalinkUpli::BeatsOf(ualink::OP_ATOMIC_R, 16, 0) == B{1, 1, 0, 0}),
                              true,
                              "atomic: 1 + 1");
        NS_TEST_ASSERT_MSG_EQ((UalinkUpli::BeatsOf(ualink::OP_READ_RSP, 256, 0) == B{0, 0, 4, 0}),
                              true,
                              "256 B read response: 4 RdRsp beats");
        NS_TEST_ASSERT_MSG_EQ((UalinkUpli::BeatsOf(ualink::OP_WRITE_RSP, 256, 0) == B{0, 0, 0, 1}),
                              true,
                              "write response: 1 WrRsp beat");

        UalinkHelper h;
        Direct d = MakeDirect(h, 1, 4);
        Log log;
        log.Hook(d.a);
        const uint64_t id = d.a->Send(1, 600, 0);
        Simulator::Run();
        const UalinkUpli::Stats& ua = d.a->GetUpli()->GetStats();
        const UalinkUpli::Stats& ub = d.b->GetUpli()->GetStats();
        Ptr<UalinkTxQueue> qa = d.a->GetTxQueue(0);
        Ptr<UalinkTxQueue> qb = d.b->GetTxQueue(0);
        std::cout << "600 B write: UPLI Req " << ua.beats[UalinkUpli::REQ] << ", OrigData "
                  << ua.beats[UalinkUpli::ORIG_DATA] << " beats; TL ReqCmd "
                  << qa->GetSpentCredits(ualink::REQ_CMD) << ", ReqData "
                  << qa->GetSpentCredits(ualink::REQ_DATA) << "; completer WrRsp "
                  << ub.beats[UalinkUpli::WR_RSP] << " beats, RspCmd "
                  << qb->GetSpentCredits(ualink::RSP_CMD) << std::endl;
        NS_TEST_ASSERT_MSG_EQ(log.completed.count({0, id}), 1, "completed");
        NS_TEST_ASSERT_MSG_EQ(ua.beats[UalinkUpli::REQ], 3, "3 requests");
        NS_TEST_ASSERT_MSG_EQ(ua.beats[UalinkUpli::ORIG_DATA], 10, "4 + 4 + 2 data beats");
        NS_TEST_ASSERT_MSG_EQ(qa->GetSpentCredits(ualink::REQ_CMD), 3, "3 ReqCmd");
        NS_TEST_ASSERT_MSG_EQ(qa->GetSpentCredits(ualink::REQ_DATA), 10, "10 ReqData");
        NS_TEST_ASSERT_MSG_EQ(ub.beats[UalinkUpli::WR_RSP], 3, "3 WrRsp beats");
        NS_TEST_ASSERT_MSG_EQ(qb->GetSpentCredits(ualink::RSP_CMD), 3, "3 RspCmd");
        // Every UPLI credit is back once the TL has taken every beat (2.6).
        for (uint32_t c = 0; c < UalinkUpli::N_CHANNELS; ++c)
        {
            const auto ch = static_cast<UalinkUpli::Channel>(c);
            NS_TEST_ASSERT_MSG_EQ(d.a->GetUpli()->GetCredits(0, ch, ualink::POOL),
                                  d.a->GetUpli()->GetInitialCredits(ch, ualink::POOL),
                                  "UPLI credits back");
        }
        Simulator::Destroy();
    }
};

/**
 * \ingroup ualink-upli-tests
 * UPLI beat credits per channel (sections 2.6, 2.7.8, 2.7.9): with 4 OrigData and 8 Req credits
 * per port and no TL ReqData credit, the first 256 B write takes 1 Req + 4 OrigData credits and
 * sits in the TL; the other 3 writes wait at the UPLI for OrigData credits, while the 4 reads
 * posted after them take Req credits (7 left) and complete (non-strict: other messages are other
 * 256 B regions). In strict ordering the reads stay behind the held writes.
 */
class UalinkUpliChannelCreditsTestCase : public TestCase
{
  public:
    UalinkUpliChannelCreditsTestCase()
        : TestCase("UPLI OrigData credits exhausted hold writes, reads flow on Req")
    {
    }

  private:
    void DoRun() override
    {
        for (bool strict : {false, true})
        {
            UalinkHelper h;
            h.SetUpliAttribute("OrigDataPoolCredits", UintegerValue(4));
            h.SetUpliAttribute("ReqPoolCredits", UintegerValue(8));
            h.SetPackerAttribute("StrictOrdering", BooleanValue(strict));
            Direct d = MakeDirect(h, 1, 4);
            d.a->GetTxQueue(0)->SetAttribute("ReqDataCredits", UintegerValue(0));
            Log log;
            log.Hook(d.a);
            log.Hook(d.b);
            const uint64_t wr = d.a->Send(1, 1024, 0);
            const uint64_t rd = d.a->Read(1, 1024, 0);
            Simulator::Stop(MicroSeconds(20));
            Simulator::Run();
            const UalinkUpli::Stats& s = d.a->GetUpli()->GetStats();
            std::cout << (strict ? "strict" : "non-strict") << ": read completed "
                      << log.completed.count({0, rd}) << ", TL queue "
                      << d.a->GetTxQueue(0)->GetQueuedOps() << ", waiting at the UPLI "
                      << d.a->GetWaitingRequests(0) << ", OrigData stalls "
                      << s.stalls[UalinkUpli::ORIG_DATA] << ", Req stalls "
                      << s.stalls[UalinkUpli::REQ] << std::endl;
            NS_TEST_ASSERT_MSG_EQ(log.delivered.count({0, wr}), 0, "the writes are held");
            NS_TEST_ASSERT_MSG_EQ(d.a->GetTxQueue(0)->GetQueuedOps(), 1, "one write in the TL");
            NS_TEST_ASSERT_MSG_EQ(
                d.a->GetUpli()->GetCredits(0, UalinkUpli::ORIG_DATA, ualink::POOL),
                0,
                "OrigData exhausted");
            NS_TEST_ASSERT_MSG_GT(s.stalls[UalinkUpli::ORIG_DATA], 0, "OrigData stalls");
            NS_TEST_ASSERT_MSG_EQ(s.stalls[UalinkUpli::REQ], 0, "Req never short");
            if (!strict)
            {
                NS_TEST_ASSERT_MSG_EQ(log.completed.count({0, rd}), 1, "the read completes");
                NS_TEST_ASSERT_MSG_EQ(d.a->GetWaitingRequests(0), 3, "3 writes at the UPLI");
                NS_TEST_ASSERT_MSG_EQ(s.beats[UalinkUpli::REQ], 5, "1 write + 4 reads issued");
            }
            else
            {
                NS_TEST_ASSERT_MSG_EQ(log.completed.count({0, rd}), 0, "the read stays behind");
                NS_TEST_ASSERT_MSG_EQ(d.a->GetWaitingRequests(0), 7, "3 writes + 4 reads wait");
            }
            Simulator::Destroy();
        }
    }
};

/**
 * \ingroup ualink-upli-tests
 * TL credits per VC (section 5.8): A's uplink has no Pool credit and 2 ReqCmd + 8 ReqData
 * credits per VC; the switch egress toward B has no request credit, so A's VC 0 writes to B hold
 * their switch buffers: after 2 writes (2 ReqCmd, 8 ReqData) VC 0 is exhausted at A and its other
 * 2 writes stall in A's TL. A's VC 1 writes to C pass them (non-strict: other 256 B regions,
 * 2.7.9) on VC 1's credits and are delivered, all 8 of VC 1's data credits back at the end. In
 * strict ordering the VC 1 writes stay behind the VC 0 ones.
 */
class UalinkVcCreditsTestCase : public TestCase
{
  public:
    UalinkVcCreditsTestCase()
        : TestCase("TL VC credits: VC 0 exhausted stalls VC 0, VC 1 flows")
    {
    }

  private:
    void DoRun() override
    {
        for (bool strict : {false, true})
        {
            UalinkHelper h;
            h.SetPackerAttribute("StrictOrdering", BooleanValue(strict));
            UalinkHelper::Pod pod = h.Install(3, 1);
            Ptr<UalinkTxQueue> up = pod.acc[0]->GetTxQueue(0);
            up->SetAttribute("ReqCmdCredits", UintegerValue(0));
            up->SetAttribute("ReqDataCredits", UintegerValue(0));
            up->SetAttribute("ReqCmdVcCredits", UintegerValue(2));
            up->SetAttribute("ReqDataVcCredits", UintegerValue(8));
            pod.sw[0]->GetTxQueue(1)->SetAttribute("ReqCmdCredits", UintegerValue(0));
            Log log;
            for (const auto& e : pod.acc)
            {
                log.Hook(e);
            }
            const uint64_t m0 = pod.acc[0]->Send(1, 1024, 0); // VC 0, to B
            const uint64_t m1 = pod.acc[0]->Send(2, 1024, 1); // VC 1, to C
            Simulator::Stop(MicroSeconds(20));
            Simulator::Run();
            std::cout << (strict ? "strict" : "non-strict") << ": VC 0 ReqCmd left "
                      << up->GetAvailableCredits(ualink::REQ_CMD, 0) << ", ReqData "
                      << up->GetAvailableCredits(ualink::REQ_DATA, 0) << "; VC 1 ReqData "
                      << up->GetAvailableCredits(ualink::REQ_DATA, 1) << "; VC 1 delivered "
                      << log.delivered.count({0, m1}) << ", stalls " << up->GetStats().creditStalls
                      << std::endl;
            NS_TEST_ASSERT_MSG_EQ(log.delivered.count({0, m0}), 0, "VC 0 held");
            NS_TEST_ASSERT_MSG_EQ(up->GetAvailableCredits(ualink::REQ_CMD, 0), 0, "VC 0 spent");
            NS_TEST_ASSERT_MSG_EQ(up->GetAvailableCredits(ualink::REQ_DATA, 0), 0, "8 - 2 x 4");
            NS_TEST_ASSERT_MSG_EQ(pod.sw[0]->GetTxQueue(1)->GetQueuedOps(), 2, "2 at the switch");
            NS_TEST_ASSERT_MSG_GT(up->GetStats().creditStalls, 0, "stalls");
            if (!strict)
            {
                NS_TEST_ASSERT_MSG_EQ(log.delivered.count({0, m1}), 1, "VC 1 delivered");
                NS_TEST_ASSERT_MSG_EQ(up->GetAvailableCredits(ualink::REQ_DATA, 1),
                                      8,
                                      "VC 1 credits back");
                NS_TEST_ASSERT_MSG_EQ(up->GetQueuedOps(), 2, "VC 0's other 2 writes wait");
            }
            else
            {
                NS_TEST_ASSERT_MSG_EQ(log.delivered.count({0, m1}), 0, "VC 1 behind VC 0");
            }
            Simulator::Destroy();
        }
    }
};

/**
 * \ingroup ualink-upli-tests
 * FC field limits (section 5.8): one FC field returns at most 31 data and 7 command credits per
 * class, one non-zero field per class and VC or Pool per control half-flit. A return of 40
 * ReqData Pool credits takes ceil(40 / 31) = 2 fields (31 + 9) in 2 half-flits; 40 ReqCmd
 * credits ceil(40 / 7) = 6 (6 x 7 = 42 >= 40); 40 ReqData credits on VC 0 and 40 on VC 1 also 2
 * half-flits, 4 fields (the two VCs share each half-flit).
 */
class UalinkFcLimitsTestCase : public TestCase
{
  public:
    UalinkFcLimitsTestCase()
        : TestCase("TL FC fields: 40 credits take 31 + 9, per VC in parallel")
    {
    }

  private:
    /// Pack until nothing is left; return (FC fields, TL flits).
    static std::pair<uint64_t, uint64_t> Drain(Ptr<UalinkTlPacker> p)
    {
        while (p->PackNext(nullptr))
        {
        }
        return {p->GetStats().flowControlFields, p->GetTlFlits()};
    }

    void DoRun() override
    {
        Ptr<UalinkTlPacker> a = CreateObject<UalinkTlPacker>();
        a->ReturnCredits(ualink::REQ_DATA, ualink::POOL, 40);
        const auto ra = Drain(a);
        Ptr<UalinkTlPacker> b = CreateObject<UalinkTlPacker>();
        b->ReturnCredits(ualink::REQ_CMD, ualink::POOL, 40);
        const auto rb = Drain(b);
        Ptr<UalinkTlPacker> c = CreateObject<UalinkTlPacker>();
        c->ReturnCredits(ualink::REQ_DATA, 0, 40);
        c->ReturnCredits(ualink::REQ_DATA, 1, 40);
        const auto rc = Drain(c);
        std::cout << "40 ReqData: " << ra.first << " fields in " << ra.second
                  << " TL flits; 40 ReqCmd: " << rb.first
                  << " fields; 40 + 40 on VC 0, 1: " << rc.first << " fields in " << rc.second
                  << " TL flits" << std::endl;
        NS_TEST_ASSERT_MSG_EQ(ra.first, 2, "31 + 9");
        NS_TEST_ASSERT_MSG_EQ(ra.second, 2, "one half-flit each");
        NS_TEST_ASSERT_MSG_EQ(rb.first, 6, "ceil(40 / 7)");
        NS_TEST_ASSERT_MSG_EQ(rc.first, 4, "2 per VC");
        NS_TEST_ASSERT_MSG_EQ(rc.second, 2, "VCs share a half-flit");
        NS_TEST_ASSERT_MSG_EQ(a->GetPendingCredits() + b->GetPendingCredits() +
                                  c->GetPendingCredits(),
                              0,
                              "all returned");
    }
};

/**
 * \ingroup ualink-upli-tests
 * Shared Data Buffer mode (section 5.8): the partner advertises no ReqData and 8 RspData Pool
 * credits; without the mode a 256 B write never leaves (existing Credits test), with it the write
 * takes 4 of the 8 shared data credits and completes, the count back at 8.
 */
class UalinkSharedDataBufferTestCase : public TestCase
{
  public:
    UalinkSharedDataBufferTestCase()
        : TestCase("TL Shared Data Buffer mode: writes use the RspData pool")
    {
    }

  private:
    void DoRun() override
    {
        for (bool shared : {false, true})
        {
            UalinkHelper h;
            Direct d = MakeDirect(h, 1, 4);
            Ptr<UalinkTxQueue> q = d.a->GetTxQueue(0);
            q->SetAttribute("ReqDataCredits", UintegerValue(0));
            q->SetAttribute("RspDataCredits", UintegerValue(8));
            q->SetAttribute("SharedDataBuffer", BooleanValue(shared));
            Log log;
            log.Hook(d.a);
            const uint64_t id = d.a->Send(1, 256, 0);
            Simulator::Stop(MicroSeconds(10));
            Simulator::Run();
            std::cout << (shared ? "shared" : "not shared") << ": write completed "
                      << log.completed.count({0, id}) << ", shared pool "
                      << q->GetAvailableCredits(ualink::REQ_DATA, ualink::POOL) << std::endl;
            NS_TEST_ASSERT_MSG_EQ(log.completed.count({0, id}), shared ? 1 : 0, "5.8");
            if (shared)
            {
                NS_TEST_ASSERT_MSG_EQ(q->GetAvailableCredits(ualink::REQ_DATA, ualink::POOL),
                                      8,
                                      "shared pool back at 8");
                NS_TEST_ASSERT_MSG_EQ(q->GetSpentCredits(ualink::REQ_DATA), 4, "4 data credits");
            }
            Simulator::Destroy();
        }
    }
};

/**
 * \ingroup ualink-upli-tests
 * UPLI TDM (sections 2.5, 2.7.8), the arithmetic: at 1562.5 MHz (0.64 ns cycles) with 4 x1 ports
 * per station, port 2 owns cycles 2, 6, 10, ... A 256 B write issued at 0 starts at cycle 2, its
 * 4 data beats on cycles 2, 6, 10, 14: in the TL at the end of cycle 14 = 15 x 0.64 = 9.6 ns. A
 * read issued next takes the port's next Req cycle, 6 (reads pipeline over write data): 7 x 0.64
 * = 4.48 ns. A second write waits for the first's data: cycles 18..30, 31 x 0.64 = 19.84 ns. Port
 * 0's write at the same time: cycles 0..12, 13 x 0.64 = 8.32 ns. A write response on port 2:
 * cycle 2, 1.92 ns.
 */
class UalinkUpliTdmArithmeticTestCase : public TestCase
{
  public:
    UalinkUpliTdmArithmeticTestCase()
        : TestCase("UPLI TDM: beat cycles of a station's ports")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<UalinkUpli> u = CreateObject<UalinkUpli>();
        u->SetAttribute("Mode", EnumValue(UalinkUpli::TDM));
        u->SetPorts(4, 4);
        UalinkUpli::Grant g;
        const double ns = 1e9;
        NS_TEST_ASSERT_MSG_EQ(u->TryIssue(2, ualink::OP_WRITE, 256, 0, 0, &g), true, "write");
        NS_TEST_ASSERT_MSG_EQ_TOL(g.ready.GetSeconds() * ns, 9.6, 1e-3, "cycles 2..14");
        NS_TEST_ASSERT_MSG_EQ(u->TryIssue(2, ualink::OP_READ, 256, 256, 0, &g), true, "read");
        NS_TEST_ASSERT_MSG_EQ_TOL(g.ready.GetSeconds() * ns, 4.48, 1e-3, "cycle 6");
        NS_TEST_ASSERT_MSG_EQ(u->TryIssue(2, ualink::OP_WRITE, 256, 512, 0, &g), true, "write 2");
        NS_TEST_ASSERT_MSG_EQ_TOL(g.ready.GetSeconds() * ns, 19.84, 1e-3, "cycles 18..30");
        NS_TEST_ASSERT_MSG_EQ(u->TryIssue(0, ualink::OP_WRITE, 256, 0, 0, &g), true, "port 0");
        NS_TEST_ASSERT_MSG_EQ_TOL(g.ready.GetSeconds() * ns, 8.32, 1e-3, "cycles 0..12");
        NS_TEST_ASSERT_MSG_EQ(u->TryIssue(2, ualink::OP_WRITE_RSP, 256, 0, 0, &g), true, "rsp");
        NS_TEST_ASSERT_MSG_EQ_TOL(g.ready.GetSeconds() * ns, 1.92, 1e-3, "WrRsp cycle 2");
        NS_TEST_ASSERT_MSG_EQ(u->GetCredits(2, UalinkUpli::ORIG_DATA, ualink::POOL),
                              128 - 8,
                              "2 writes of 4 beats");
        Simulator::Destroy();
    }
};

/**
 * \ingroup ualink-upli-tests
 * UPLI TDM through the stack (section 2.5, 6.5.4): an accelerator at the 156.25 MHz reference
 * clock (6.4 ns cycles) writes 64 KiB to another over one station of 4 x1 direct links. Each port
 * carries 64 writes of 4 beats, one beat per 4 cycles: 64 x 16 x 6.4 ns = 6553.6 ns until the last
 * beat of port 3 (cycles 3 + 4 k) reaches the TL, i.e. 512 bit x 156.25 MHz / 4 = 20 Gb/s per port
 * and 80 Gb/s per station, well below the links (4 x 186.7 Gb/s). The message is delivered after
 * 6553.6 ns plus one write's trip over a link (its 5 TL flits at x1, 13 ns, plus FEC and cable:
 * under 150 ns). In Ideal mode the same message is delivered in under 1 us (link-limited: 64 KiB
 * at the one-way 4 x 189 Gb/s is about 690 ns: ualink.rst, Validation, Derivations: one-way
 * writes).
 */
class UalinkUpliTdmRateTestCase : public TestCase
{
  public:
    UalinkUpliTdmRateTestCase()
        : TestCase("UPLI TDM: a station's ports at the closed-form UPLI rate")
    {
    }

  private:
    void DoRun() override
    {
        for (bool tdm : {true, false})
        {
            UalinkHelper h;
            h.SetUpliAttribute("Mode", EnumValue(tdm ? UalinkUpli::TDM : UalinkUpli::IDEAL));
            h.SetUpliAttribute("ClockHz", DoubleValue(156.25e6));
            Direct d = MakeDirect(h, 4, 1);
            Log log;
            log.Hook(d.b);
            const uint64_t id = d.a->Send(1, 65536, 0);
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(log.delivered.count({0, id}), 1, "delivered");
            const double t = log.delivered[{0, id}].GetSeconds() * 1e9;
            std::cout << (tdm ? "Tdm" : "Ideal")
                      << " at 156.25 MHz, 4 x1 ports: 64 KiB delivered at " << t << " ns ("
                      << 65536 * 8.0 / t << " Gb/s)" << std::endl;
            if (tdm)
            {
                NS_TEST_ASSERT_MSG_GT_OR_EQ(t, 6553.6, "UPLI-limited: 64 x 16 cycles");
                NS_TEST_ASSERT_MSG_LT(t, 6553.6 + 150, "plus one write's trip");
            }
            else
            {
                NS_TEST_ASSERT_MSG_LT(t, 1000, "link-limited");
            }
            Simulator::Destroy();
        }
    }
};

/**
 * \ingroup ualink-upli-tests
 * The saturated-throughput acceptance with the UPLI timed (ualink.rst, Validation, Derivations:
 * bandwidth chain): symmetric 2 MiB
 * writes on a direct x4 link with the UPLI in Tdm mode at its default 1562.5 MHz give 746.9
 * Gb/s per direction within 0.5%, as in Ideal mode: the UPLI's 800 Gb/s per channel exceeds the
 * link's data rate, so it only adds latency.
 */
class UalinkUpliGoodputTestCase : public TestCase
{
  public:
    UalinkUpliGoodputTestCase()
        : TestCase("UPLI Tdm at 1562.5 MHz keeps the x4 goodput, 746.9 Gbps")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t bytes = 2 * 1024 * 1024;
        UalinkHelper h;
        h.SetUpliAttribute("Mode", EnumValue(UalinkUpli::TDM));
        Direct d = MakeDirect(h, 1, 4);
        Log log;
        log.Hook(d.a);
        log.Hook(d.b);
        const uint64_t ia = d.a->Send(1, bytes, 0);
        const uint64_t ib = d.b->Send(0, bytes, 0);
        Simulator::Run();
        const Time last = std::max(log.delivered[{0, ia}], log.delivered[{1, ib}]);
        const double gbps = bytes * 8.0 / last.GetSeconds() / 1e9;
        std::cout << "symmetric goodput x4 with the UPLI in Tdm mode: " << gbps
                  << " Gb/s per direction" << std::endl;
        NS_TEST_ASSERT_MSG_EQ(d.a->GetBytesDelivered() + d.b->GetBytesDelivered(),
                              2 * bytes,
                              "every byte");
        NS_TEST_ASSERT_MSG_EQ_TOL(gbps, 746.9, 0.005 * 746.9, "bandwidth chain");
        Simulator::Destroy();
    }
};

/**
 * \ingroup ualink-upli-tests
 * Initial credit release (section 5.8): both TLs start with no credit and advertise theirs in FC
 * fields, then send the Initial Credit Release Complete message. With the default counts (512
 * ReqCmd and RspCmd, 2048 ReqData and RspData Pool credits) the class that needs most is a
 * command class: ceil(512 / 7) = 74 control half-flits (data: ceil(2048 / 31) = 67), each a TL
 * flit with its MANDATORY NOP, plus 1 for the message: 75 TL flits. The credits arrive 75 TL
 * flit times (0.6531 ns each at x4) + one DL flit (6.4 ns) + the link's one-way delay (the 5 ns
 * cable and the 4-way FEC interleave's 3 slots, 19.2 ns, section 7.2) after time 0 = 79.57 ns,
 * and a lone 256 B write is delivered exactly that much later than with the credits known at
 * time 0 (the link otherwise idle).
 */
class UalinkInitialReleaseTestCase : public TestCase
{
  public:
    UalinkInitialReleaseTestCase()
        : TestCase("TL initial credit release delays the first write by its FC fields")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<UalinkPhy> phy = CreateObject<UalinkPhy>();
        phy->SetAttribute("Lanes", UintegerValue(4));
        const double slot = phy->GetSlotTime().GetSeconds() * 1e9;
        const double expected = 75 * phy->GetTlFlitSeconds() * 1e9 + slot + 5 + 3 * slot;
        double at[2] = {0, 0};
        for (bool release : {false, true})
        {
            UalinkHelper h;
            h.SetTxQueueAttribute("InitialCreditRelease", BooleanValue(release));
            Direct d = MakeDirect(h, 1, 4);
            Log log;
            log.Hook(d.b);
            const uint64_t id = d.a->Send(1, 256, 0);
            Simulator::Run();
            at[release] = log.delivered[{0, id}].GetSeconds() * 1e9;
            if (release)
            {
                Ptr<UalinkTxQueue> q = d.a->GetTxQueue(0);
                std::cout << "initial release: " << q->GetStats().initialReleaseTlFlits
                          << " TL flits, credits at "
                          << q->GetInitialReleaseTime().GetSeconds() * 1e9 << " ns (expected "
                          << expected << "); write delivered at " << at[1] << " ns against "
                          << at[0] << " ns" << std::endl;
                NS_TEST_ASSERT_MSG_EQ(q->GetStats().initialReleaseTlFlits, 75, "74 FC + 1 message");
                NS_TEST_ASSERT_MSG_EQ_TOL(q->GetInitialReleaseTime().GetSeconds() * 1e9,
                                          expected,
                                          0.001,
                                          "75 TL flits + DL flit + cable");
            }
            Simulator::Destroy();
        }
        NS_TEST_ASSERT_MSG_EQ_TOL(at[1] - at[0],
                                  expected,
                                  0.01,
                                  "the write starts that much later");
    }
};

/**
 * \ingroup ualink-upli-tests
 * The UPLI and TL credit suite.
 */
class UalinkUpliTestSuite : public PicosecondTestSuite
{
  public:
    UalinkUpliTestSuite()
        : PicosecondTestSuite("ualink-upli", UNIT)
    {
        AddTestCase(new UalinkUpliBeatsTestCase, TestCase::QUICK);
        AddTestCase(new UalinkUpliChannelCreditsTestCase, TestCase::QUICK);
        AddTestCase(new UalinkVcCreditsTestCase, TestCase::QUICK);
        AddTestCase(new UalinkFcLimitsTestCase, TestCase::QUICK);
        AddTestCase(new UalinkSharedDataBufferTestCase, TestCase::QUICK);
        AddTestCase(new UalinkInitialReleaseTestCase, TestCase::QUICK);
        AddTestCase(new UalinkUpliTdmArithmeticTestCase, TestCase::QUICK);
        AddTestCase(new UalinkUpliTdmRateTestCase, TestCase::QUICK);
        AddTestCase(new UalinkUpliGoodputTestCase, TestCase::QUICK);
    }
};

static UalinkUpliTestSuite g_ualinkUpliTestSuite; //!< the suite
