/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Tests of the ualink module's recovery after a link down (UALink_200 sections 3.1.4.3, 5.6,
// 5.8, 6.6, 6.7.1), of the DL replay in the fine mode inside a pod (6.6, granularity) and of the
// atomics' effect (2.7.4.5, Table 2-6). Expected values come from the spec's rules, from closed
// forms written next to each test (x4 ports: a codeword slot, the DL flit time, is 5440 bits /
// (4 x 212.5 Gb/s) = 6.4 ns; the default 4-way FEC interleave adds 3 slots, 19.2 ns, to the
// cable delay) and from conservation laws.

#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/fabric-channel.h"
#include "ns3/fabric-net-device.h"
#include "ns3/fabric-retry-engine.h"
#include "ns3/node-container.h"
#include "ns3/picosecond-test-suite.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/ualink-atomic-memory.h"
#include "ns3/ualink-dl.h"
#include "ns3/ualink-endpoint.h"
#include "ns3/ualink-helper.h"
#include "ns3/ualink-phy.h"
#include "ns3/ualink-switch.h"
#include "ns3/ualink-tx-queue.h"
#include "ns3/ualink-upli.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// Deliveries, completions and completer arrivals of a pod.
struct RasLog
{
    std::map<std::pair<uint32_t, uint64_t>, uint64_t> delivered; //!< (src, id) -> bytes
    std::map<std::pair<uint32_t, uint64_t>, Time> deliveredAt;   //!< (src, id) -> time
    std::map<std::pair<uint32_t, uint64_t>, Time> completed;     //!< (src, id) -> time
    uint64_t completions{0};                                     //!< completions, repeats too
    std::map<std::tuple<uint32_t, uint64_t, uint64_t>, uint32_t> arrivals; //!< requests seen
    std::vector<std::pair<Time, std::string>> states; //!< A's DL: (time, "From->To")

    /// A delivery.
    void OnDelivered(const FabricMessage& m)
    {
        delivered[{m.src, m.id}] += m.bytes;
        deliveredAt[{m.src, m.id}] = Simulator::Now();
    }

    /// A completion.
    void OnCompleted(const FabricMessage& m)
    {
        completed[{m.src, m.id}] = Simulator::Now();
        ++completions;
    }

    /// A request arrived at a completer.
    void OnRequest(uint32_t src, uint64_t msgId, uint64_t offset, uint8_t op)
    {
        ++arrivals[{src, msgId, offset}];
    }

    /// A's DL changed state.
    void OnState(UalinkDl::LinkState from, UalinkDl::LinkState to)
    {
        states.emplace_back(Simulator::Now(),
                            UalinkDl::GetStateName(from) + "->" + UalinkDl::GetStateName(to));
    }

    /// Hook every endpoint of a pod.
    void Hook(const UalinkHelper::Pod& pod)
    {
        for (const auto& e : pod.acc)
        {
            e->SetDeliveredCallback(MakeCallback(&RasLog::OnDelivered, this));
            e->SetCompletedCallback(MakeCallback(&RasLog::OnCompleted, this));
            e->TraceConnectWithoutContext("Request", MakeCallback(&RasLog::OnRequest, this));
        }
    }
};

/// \return the DL of a port
Ptr<UalinkDl>
DlOf(Ptr<FabricNetDevice> dev)
{
    return dev->GetObject<UalinkDl>();
}

/// \return whether every credit class of a queue has what the partner advertised
bool
CreditsBack(Ptr<UalinkTxQueue> q)
{
    for (uint32_t c = 0; c < ualink::N_CREDIT_CLASSES; ++c)
    {
        const auto cls = static_cast<ualink::CreditClass>(c);
        if (q->GetAvailableCredits(cls) != q->GetAdvertisedCredits(cls))
        {
            return false;
        }
    }
    return true;
}

/// \return whether every UPLI channel of a port has its initial credits
bool
UpliCreditsBack(Ptr<UalinkUpli> u, uint32_t port)
{
    for (uint8_t ch = 0; ch < UalinkUpli::N_CHANNELS; ++ch)
    {
        for (uint8_t k = 0; k < ualink::N_CREDIT_KINDS; ++k)
        {
            const auto c = static_cast<UalinkUpli::Channel>(ch);
            if (u->GetCredits(port, c, k) != u->GetInitialCredits(c, k))
            {
                return false;
            }
        }
    }
    return true;
}

/// Data units a port sent (control frames excluded).
uint64_t
DataUnits(Ptr<FabricNetDevice> d)
{
    return d->GetStats().txUnits - d->GetStats().txControlUnits;
}

/// Corrupts the n-th data unit a port sends (its link control frames, the acks of the reverse
/// traffic, do not count: in UALink they ride in DL flit headers).
struct DataUnitError
{
    Ptr<FabricNetDevice> dev; //!< the port
    uint64_t target{0};       //!< which data unit (1-based)
    uint64_t seen{0};         //!< data units so far

    /// A unit starts on the wire (the channel numbers it txUnits - 1).
    void OnTx(Ptr<const FabricPacket> p)
    {
        if (!p->IsLinkControl() && ++seen == target)
        {
            dev->GetFabricChannel()->InjectError(dev, dev->GetStats().txUnits - 1);
        }
    }
};

} // namespace

/**
 * \ingroup ualink-tests
 * Recovery after a link down (sections 3.1.4.3, 5.6, 5.8, 6.6, 6.7.1). A pod of 3 accelerators
 * with one x4 rail, 10 ns cables (one way 10 + 19.2 = 29.2 ns), the DL's replay,
 * StationResetDelay 1 us. Before the fault A writes 64 KiB to B. A's cable is cut at 600 ns
 * (both DLs to Fault at once: a local fault at both ends); A's station isolates (ISOLATE) and
 * answers CMPTO. The cable is repaired at 10 us: both DLs go Fault, Idle and, the fault cleared,
 * NOP at 10 us; NOP flits go from the next slot boundary, slot 1563 (10003.2 ns), so the 10th
 * has left at 1573 x 6.4 = 10067.2 ns, while the partner's 2nd (slot 1564) arrives at 1565 x 6.4
 * + 29.2 = 10045.2 ns: both Up at exactly 10067.2 ns. On entering NOP both ends re-initialise:
 * the replay state (sequence numbers from 0, the replay buffer emptied, 6.6.4, 6.6.5), the TL
 * credits (the partner's advertised counts again, 5.8) and the Tx address cache (5.6: A's entry
 * for B's region, loaded by the first write, is gone). A's station is reset 1 us after the link
 * is Up: isolated at 11067.2 ns - 1 ps, running from 11067.2 ns. (The first responses reach A
 * after the switch's 200 ns pin-to-pin latency twice, so some return before the cut.) After
 * recovery (12 us) A writes 64 KiB to B, B writes 64 KiB to A, C writes 16 KiB to A and A reads 4
 * KiB from C.
 *
 * Checks: every post-recovery message delivered with all its bytes and completed once, none
 * failed; A's pre-fault write: responses + CMPTO = its 256 requests, each request seen at most
 * once at B (no duplicate), B received at least the requests answered OKAY; no pre-fault
 * response is taken for a later request. Conservation at the end: on A's port and on the switch
 * port facing A every TL credit class is back at what the partner advertised, every UPLI
 * credit of A is back, no tag outstanding; the sequence numbers restarted: A's next sequence
 * number equals the data units A sent since the re-initialisation and the switch port expects
 * exactly that one next (in order, nothing lost), and the reverse; both replay buffers empty.
 */
class UalinkRecoveryTestCase : public TestCase
{
  public:
    UalinkRecoveryTestCase()
        : TestCase("RAS recovery: link down, repair, re-initialisation, station reset, traffic")
    {
    }

  private:
    /// What the run's probes saw, and the messages posted after recovery.
    struct Observed
    {
        bool cachedBefore{false};   //!< B's region in A's Tx address cache at 9 us
        bool cachedAfter{true};     //!< ... just after both ends entered NOP
        uint64_t unitsA{0};         //!< data units A had sent at the re-initialisation
        uint64_t unitsS{0};         //!< data units the switch port had sent then
        bool isolatedBefore{false}; //!< A isolated 1 ps before the station reset
        bool isolatedAfter{true};   //!< A isolated 1 ps after it
        std::vector<std::pair<uint32_t, uint64_t>> post;             //!< (source, message id)
        std::map<std::pair<uint32_t, uint64_t>, uint64_t> postBytes; //!< their bytes
    };

    /// When both DLs are Up again (derived in the class description).
    static constexpr int64_t UP_PS = 10067200;

    void DoRun() override
    {
        UalinkHelper h;
        h.SetChannelAttribute("Delay", TimeValue(NanoSeconds(10)));
        h.SetLinkLevelReplay(true);
        h.SetEndpointAttribute("WatchdogTimeout", TimeValue(MicroSeconds(2)));
        h.SetEndpointAttribute("StationResetDelay", TimeValue(MicroSeconds(1)));
        UalinkHelper::Pod pod = h.Install(3, 1);
        RasLog log;
        log.Hook(pod);
        Ptr<FabricNetDevice> da = pod.acc[0]->GetPort(0);
        DlOf(da)->TraceConnectWithoutContext("LinkState", MakeCallback(&RasLog::OnState, &log));
        const uint64_t pre = pod.acc[0]->Send(1, 65536, 0);
        Observed o;
        ScheduleFaultAndProbes(pod, o);
        Simulator::Run();
        CheckRecovery(pod, log, o);
        CheckMessages(pod, log, o, pre);
        CheckConservation(pod, o);
        Simulator::Destroy();
    }

    /**
     * \brief Schedule the cut and the repair of A's cable, the probes and the traffic posted
     * after recovery.
     * \param pod the pod
     * \param o what the probes see
     */
    static void ScheduleFaultAndProbes(const UalinkHelper::Pod& pod, Observed& o)
    {
        Ptr<UalinkEndpoint> a = pod.acc[0];
        Ptr<FabricNetDevice> da = a->GetPort(0);
        Ptr<FabricNetDevice> ds = pod.sw[0]->GetPort(0);
        Simulator::Schedule(NanoSeconds(600), [da]() { da->GetFabricChannel()->SetLinkUp(false); });
        // A's first write to B loaded B's row (DSTACCID 1) with region 0 (5.5).
        Simulator::Schedule(MicroSeconds(9), [a, &o]() {
            o.cachedBefore = a->GetTxQueue(0)->GetPacker()->GetAddressCache()->Contains(1, 0);
        });
        Simulator::Schedule(MicroSeconds(10), [da]() { da->GetFabricChannel()->SetLinkUp(true); });
        Simulator::Schedule(NanoSeconds(10050), [a, da, ds, &o]() {
            o.cachedAfter = a->GetTxQueue(0)->GetPacker()->GetAddressCache()->Contains(1, 0);
            o.unitsA = DataUnits(da);
            o.unitsS = DataUnits(ds);
        });
        const Time reset = PicoSeconds(UP_PS) + MicroSeconds(1);
        Simulator::Schedule(reset - PicoSeconds(1),
                            [a, &o]() { o.isolatedBefore = a->IsIsolated(0); });
        Simulator::Schedule(reset + PicoSeconds(1),
                            [a, &o]() { o.isolatedAfter = a->IsIsolated(0); });
        Simulator::Schedule(MicroSeconds(12), [pod, &o]() {
            const std::vector<std::tuple<uint32_t, uint32_t, uint64_t, bool>> jobs = {
                {0, 1, 65536, false},
                {1, 0, 65536, false},
                {2, 0, 16384, false},
                {0, 2, 4096, true}};
            for (const auto& [src, dst, bytes, read] : jobs)
            {
                const uint64_t id =
                    read ? pod.acc[src]->Read(dst, bytes, 0) : pod.acc[src]->Send(dst, bytes, 0);
                o.post.emplace_back(src, id);
                o.postBytes[{src, id}] = bytes;
            }
        });
    }

    /**
     * \brief The link states, the re-initialisation, the address cache and the station reset.
     * \param pod the pod
     * \param log the run's log
     * \param o what the probes saw
     */
    void CheckRecovery(const UalinkHelper::Pod& pod, const RasLog& log, const Observed& o)
    {
        Ptr<UalinkEndpoint> a = pod.acc[0];
        Ptr<FabricNetDevice> da = a->GetPort(0);
        Ptr<FabricNetDevice> ds = pod.sw[0]->GetPort(0);
        const auto& sa = a->GetStats();
        const auto& dlA = DlOf(da)->GetStats();
        const auto& dlS = DlOf(ds)->GetStats();
        Ptr<FabricRetryEngine> ea = da->GetRetryEngine();
        Ptr<FabricRetryEngine> es = ds->GetRetryEngine();
        std::string seq;
        for (const auto& [t, c] : log.states)
        {
            seq += (seq.empty() ? "" : " ") + c + "@" + std::to_string(t.GetPicoSeconds());
        }
        std::cout << "recovery: A's DL " << seq << "; re-initialisations A " << dlA.reinits
                  << ", switch " << dlS.reinits << " (replay units discarded "
                  << dlA.replayDiscarded << " + " << dlS.replayDiscarded
                  << "); pre-fault write: responses " << sa.responses << " + CMPTO " << sa.cmpto
                  << "; A next seq " << ea->GetNextSequence() << " (units since "
                  << DataUnits(da) - o.unitsA << "), switch next seq " << es->GetNextSequence()
                  << " (units since " << DataUnits(ds) - o.unitsS << "); stale credits "
                  << a->GetTxQueue(0)->GetStats().staleCredits << " + "
                  << pod.sw[0]->GetTxQueue(0)->GetStats().staleCredits << "; stale responses "
                  << sa.staleResponses << ", discarded " << sa.discarded << std::endl;

        // Link states, times derived above.
        NS_TEST_ASSERT_MSG_EQ(seq,
                              "Up->Fault@600000 Fault->Idle@10000000 Idle->NOP@10000000 "
                              "NOP->Up@10067200",
                              "A's DL down at the cut, up at 10067.2 ns");
        NS_TEST_ASSERT_MSG_EQ(DlOf(ds)->GetUpSince(),
                              PicoSeconds(UP_PS),
                              "the switch port Up at 10067.2 ns");
        NS_TEST_ASSERT_MSG_EQ(dlA.reinits, 1, "A re-initialised once");
        NS_TEST_ASSERT_MSG_EQ(dlS.reinits, 1, "the switch port re-initialised once");
        // The address cache was reset.
        NS_TEST_ASSERT_MSG_EQ(o.cachedBefore, true, "B's region cached before the repair");
        NS_TEST_ASSERT_MSG_EQ(o.cachedAfter, false, "the Tx address cache cleared at NOP");
        // The station reset.
        NS_TEST_ASSERT_MSG_EQ(o.isolatedBefore, true, "isolated until the reset");
        NS_TEST_ASSERT_MSG_EQ(o.isolatedAfter, false, "running after it");
        NS_TEST_ASSERT_MSG_EQ(sa.stationResets, 1, "one station reset");
        NS_TEST_ASSERT_MSG_EQ(a->IsInDropMode(0), false, "A's TL out of drop mode");
    }

    /**
     * \brief The pre-fault write answered once per request, the later messages whole.
     * \param pod the pod
     * \param log the run's log
     * \param o the messages posted after recovery
     * \param pre the pre-fault write
     */
    void CheckMessages(const UalinkHelper::Pod& pod, RasLog& log, const Observed& o, uint64_t pre)
    {
        const auto& sa = pod.acc[0]->GetStats();
        // Pre-fault write: each request answered once; none seen twice at B.
        NS_TEST_ASSERT_MSG_EQ(log.completed.count({0, pre}), 1, "pre-fault write completed");
        uint64_t preResponses = 0;
        uint64_t preArrivals = 0;
        for (const auto& [k, n] : log.arrivals)
        {
            NS_TEST_ASSERT_MSG_EQ(n, 1, "no request arrives twice");
            preArrivals += (std::get<0>(k) == 0 && std::get<1>(k) == pre) ? 1 : 0;
        }
        // Responses to A before the reset are the pre-fault write's (A is isolated until then).
        const uint64_t postRequestsOfA = 65536 / 256 + 4096 / 256;
        preResponses = sa.responses - postRequestsOfA;
        NS_TEST_ASSERT_MSG_EQ(preResponses + sa.cmpto, 65536 / 256, "responses + CMPTO = 256");
        NS_TEST_ASSERT_MSG_GT(sa.cmpto, 0, "the cut left requests to answer CMPTO");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(preArrivals, preResponses, "answered OKAY => arrived");
        NS_TEST_ASSERT_MSG_EQ(sa.failedMessages, 1, "only the pre-fault write failed");
        // After recovery: every byte, each message completed once.
        for (const auto& k : o.post)
        {
            NS_TEST_ASSERT_MSG_EQ(log.completed.count(k), 1, "post-recovery message completed");
            NS_TEST_ASSERT_MSG_GT(log.completed[k], MicroSeconds(12), "after recovery");
            const bool read = k.first == 0 && o.postBytes.at(k) == 4096;
            if (!read)
            {
                NS_TEST_ASSERT_MSG_EQ(log.delivered[k], o.postBytes.at(k), "every byte delivered");
            }
        }
        NS_TEST_ASSERT_MSG_EQ(sa.readBytes, 4096, "the read's every byte");
        for (uint32_t i = 1; i < 3; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(pod.acc[i]->GetStats().failedMessages, 0, "B and C: no failure");
            NS_TEST_ASSERT_MSG_EQ(pod.acc[i]->GetStats().isolations, 0, "B and C never isolate");
        }
        NS_TEST_ASSERT_MSG_EQ(log.completions, log.completed.size(), "no message completes twice");
    }

    /**
     * \brief Credits and tags back, sequence numbers restarted and in step.
     * \param pod the pod
     * \param o what the probes saw
     */
    void CheckConservation(const UalinkHelper::Pod& pod, const Observed& o)
    {
        Ptr<UalinkEndpoint> a = pod.acc[0];
        Ptr<FabricNetDevice> da = a->GetPort(0);
        Ptr<FabricNetDevice> ds = pod.sw[0]->GetPort(0);
        Ptr<FabricRetryEngine> ea = da->GetRetryEngine();
        Ptr<FabricRetryEngine> es = ds->GetRetryEngine();
        // Conservation of credits and tags.
        NS_TEST_ASSERT_MSG_EQ(CreditsBack(a->GetTxQueue(0)), true, "A's TL credits all back");
        NS_TEST_ASSERT_MSG_EQ(CreditsBack(pod.sw[0]->GetTxQueue(0)),
                              true,
                              "the switch port's TL credits all back");
        for (uint32_t i = 1; i < 3; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(CreditsBack(pod.acc[i]->GetTxQueue(0)), true, "B, C credits");
        }
        NS_TEST_ASSERT_MSG_EQ(UpliCreditsBack(a->GetUpli(), 0), true, "A's UPLI credits all back");
        NS_TEST_ASSERT_MSG_EQ(a->GetOutstanding(0), 0, "no tag outstanding");
        // Sequence numbers restarted at 0 and stayed in step (in order, nothing lost or doubled).
        NS_TEST_ASSERT_MSG_EQ(ea->GetNextSequence(), DataUnits(da) - o.unitsA, "A's sequence");
        NS_TEST_ASSERT_MSG_EQ(es->GetExpectedSequence(), ea->GetNextSequence(), "in step");
        NS_TEST_ASSERT_MSG_EQ(es->GetNextSequence(), DataUnits(ds) - o.unitsS, "switch sequence");
        NS_TEST_ASSERT_MSG_EQ(ea->GetExpectedSequence(), es->GetNextSequence(), "in step back");
        NS_TEST_ASSERT_MSG_EQ(ea->GetBufferedUnits() + es->GetBufferedUnits(), 0, "all acked");
        NS_TEST_ASSERT_MSG_EQ(ea->GetStats().duplicates + es->GetStats().duplicates,
                              0,
                              "no duplicate unit");
    }
};

/**
 * \ingroup ualink-tests
 * Recovery with the TL's initial credit release (section 5.8): after a link down both TLs start
 * again from no credit and release them afresh once the link is Up. Two accelerators on a
 * direct x4 link with a 5 ns cable (one way 24.2 ns), InitialCreditRelease, StationResetDelay
 * 1 ps. A 256 B write at time 0, the cable cut at 1 us, repaired at 2 us: both DLs to NOP at
 * 2 us, NOP flits from slot 313 (2003.2 ns), the 10th has left at 323 x 6.4 = 2067.2 ns, the
 * partner's 2nd arrives at 315 x 6.4 + 24.2 = 2040.2 ns: both Up at 2067.2 ns, both stations
 * reset 1 ps later. The release takes 75 TL flits (ceil(512 / 7) = 74 FC half-flits + the Initial
 * Credit Release Complete message) x 0.6531 ns + one DL flit (6.4 ns) + 24.2 ns = 79.565 ns from
 * Up (the UPLI test's closed form, its origin moved to the Up instant): at Up + 50 ns A has no
 * credit, and a lone 256 B write posted at Up + 2 ps is delivered exactly 79.565 ns + its
 * unhindered latency (a reference run: the same write on a fresh link without the release)
 * after Up. The first write and the second both delivered; every credit back at the end.
 */
class UalinkRecoveryInitialReleaseTestCase : public TestCase
{
  public:
    UalinkRecoveryInitialReleaseTestCase()
        : TestCase("RAS recovery: the initial credit release runs again from Up")
    {
    }

  private:
    void DoRun() override
    {
        // Reference: a lone 256 B write on a fresh link, credits known at time 0.
        Time lone;
        {
            UalinkHelper h;
            h.SetChannelAttribute("Delay", TimeValue(NanoSeconds(5)));
            NodeContainer n;
            n.Create(2);
            Ptr<UalinkEndpoint> a = h.CreateEndpoint(n.Get(0), 0);
            Ptr<UalinkEndpoint> b = h.CreateEndpoint(n.Get(1), 1);
            h.ConnectDirect(a, b);
            UalinkHelper::Pod pod;
            pod.acc = {a, b};
            RasLog log;
            log.Hook(pod);
            const uint64_t id = a->Send(1, 256, 0);
            Simulator::Run();
            lone = log.deliveredAt[{0, id}];
            Simulator::Destroy();
        }
        UalinkHelper h;
        h.SetChannelAttribute("Delay", TimeValue(NanoSeconds(5)));
        h.SetTxQueueAttribute("InitialCreditRelease", BooleanValue(true));
        h.SetEndpointAttribute("StationResetDelay", TimeValue(PicoSeconds(1)));
        NodeContainer n;
        n.Create(2);
        Ptr<UalinkEndpoint> a = h.CreateEndpoint(n.Get(0), 0);
        Ptr<UalinkEndpoint> b = h.CreateEndpoint(n.Get(1), 1);
        h.ConnectDirect(a, b);
        UalinkHelper::Pod pod;
        pod.acc = {a, b};
        RasLog log;
        log.Hook(pod);
        Ptr<FabricNetDevice> da = a->GetPort(0);
        const uint64_t first = a->Send(1, 256, 0);
        Simulator::Schedule(MicroSeconds(1), [da]() { da->GetFabricChannel()->SetLinkUp(false); });
        Simulator::Schedule(MicroSeconds(2), [da]() { da->GetFabricChannel()->SetLinkUp(true); });
        const Time up = PicoSeconds(2067200);
        uint64_t creditsEarly = 1;
        Simulator::Schedule(up + NanoSeconds(50), [&]() {
            creditsEarly = a->GetTxQueue(0)->GetAvailableCredits(ualink::REQ_CMD);
        });
        uint64_t second = 0;
        Simulator::Schedule(up + PicoSeconds(2), [&]() { second = a->Send(1, 256, 0); });
        Simulator::Run();
        Ptr<UalinkPhy> phy = CreateObject<UalinkPhy>();
        phy->SetAttribute("Lanes", UintegerValue(4));
        const Time release = Seconds(75 * phy->GetTlFlitSeconds()) + phy->GetSlotTime() +
                             NanoSeconds(5) + 3 * phy->GetSlotTime();
        const Time got = log.deliveredAt[{0, second}];
        std::cout << "recovery with the initial release: A Up at "
                  << DlOf(da)->GetUpSince().As(Time::NS) << ", credits at Up + 50 ns "
                  << creditsEarly << ", second write delivered at " << got.As(Time::NS) << " (Up + "
                  << release.As(Time::NS) << " + " << lone.As(Time::NS) << ")" << std::endl;
        NS_TEST_ASSERT_MSG_EQ(DlOf(da)->GetUpSince(), up, "Up at 2067.2 ns");
        NS_TEST_ASSERT_MSG_EQ(a->GetStats().stationResets, 1, "A's station reset");
        NS_TEST_ASSERT_MSG_EQ(b->GetStats().stationResets, 1, "B's station reset");
        NS_TEST_ASSERT_MSG_EQ(creditsEarly, 0, "no credit before the release has arrived");
        NS_TEST_ASSERT_MSG_EQ((log.delivered[{0, first}]), 256, "the first write delivered");
        NS_TEST_ASSERT_MSG_EQ((log.delivered[{0, second}]), 256, "the second write delivered");
        NS_TEST_ASSERT_MSG_EQ_TOL(got.GetPicoSeconds(),
                                  (up + release + lone).GetPicoSeconds(),
                                  10,
                                  "Up + release + the write's own latency");
        NS_TEST_ASSERT_MSG_EQ(a->GetStats().failedMessages, 0, "none failed");
        NS_TEST_ASSERT_MSG_EQ(CreditsBack(a->GetTxQueue(0)), true, "A's credits all back");
        NS_TEST_ASSERT_MSG_EQ(CreditsBack(b->GetTxQueue(0)), true, "B's credits all back");
        Simulator::Destroy();
    }
};

/**
 * \ingroup ualink-tests
 * The DL replay in the fine mode inside a pod (section 6.6; ualink.rst, Validation, Derivations:
 * replay after one CRC error), which checks that the default (coarse) mode agrees with the fine
 * one (DESIGN.md rule 3). A pod of 3 accelerators with one x4 rail, 50 ns cables (one way 50 + 19.2
 * = 69.2 ns, a round trip of about 22 flits, under the replay limit of 50), the DL's replay;
 * A writes 256 KiB to B through the switch. In the fine mode (one unit per DL flit, replayed as
 * such) the 100th DL flit of A's port is corrupted: the switch asks 3 times, A replays once and
 * ignores 2 requests, no duplicate goes up, nothing is dropped, every byte arrives once; the
 * delivery is later than without the error by about one round trip, 2 x one-way + 2 flits =
 * 151.2 ns (within one flit). The same error in the default mode (burst 60 of A's port, about
 * the same point of the stream: a burst carries some 1.7 DL flits) delays the delivery by the
 * same amount within two DL flits (12.8 ns): the two modes give the same delivery within one DL
 * flit per link crossed (2) with and without the error, plus one DL flit for the order of
 * events of one picosecond. That last flit: the switch enqueues two responses for A's port at
 * the picosecond (+482.4 ns) its DL flit ends. The port's end of transmission is an event only
 * when something woke the port during the flit (FabricNetDevice::Wake); with an event per credit
 * return (before event-free credit returns, UalinkTxQueue::PushCredits) a return arriving at
 * +478.4 ns made it one, which ran after both enqueues and sent both responses in one DL flit;
 * now the first enqueue finds the port done and sends it alone, the second goes one DL flit
 * later. Only that order moves: the same run with an event per return (and its credits applied
 * at the same picosecond) gives the old times exactly. The error run in the fine mode then
 * delivers at +3247.2 ns instead of +3253.6 ns (one DL flit earlier): the extra delay is
 * 236.8 ns against 247.466 ns in the default mode (10.7 ns, under two flits) and the deliveries
 * differ by 14.5 ns (under three flits).
 */
class UalinkFineModeReplayTestCase : public TestCase
{
  public:
    UalinkFineModeReplayTestCase()
        : TestCase("Fine mode in a pod: one CRC error, replay per DL flit, same delivery as coarse")
    {
    }

  private:
    /// Outcome of one run.
    struct Run
    {
        Time delivered{-1};         //!< A's write delivered at B
        uint64_t bytes{0};          //!< bytes delivered at B
        uint64_t naksSent{0};       //!< replay requests the switch port sent
        uint64_t replays{0};        //!< replays at A
        uint64_t ignored{0};        //!< replay requests A ignored
        uint64_t duplicates{0};     //!< duplicates at the switch port
        uint64_t corrupted{0};      //!< corrupted units at the switch port
        uint64_t dropped{0};        //!< units dropped anywhere
        uint64_t unitBytesFirst{0}; //!< wire bytes of A's first unit
    };

    /// Run A's 256 KiB write in one mode, with an error on data unit `errorUnit` (0: none).
    Run RunMode(UalinkTxQueue::Granularity g, uint64_t errorUnit)
    {
        UalinkHelper h;
        h.SetChannelAttribute("Delay", TimeValue(NanoSeconds(10)));
        h.SetLinkLevelReplay(true);
        h.SetTxQueueAttribute("Granularity", EnumValue(g));
        UalinkHelper::Pod pod = h.Install(3, 1);
        RasLog log;
        log.Hook(pod);
        Ptr<FabricNetDevice> da = pod.acc[0]->GetPort(0);
        Ptr<FabricNetDevice> ds = pod.sw[0]->GetPort(0);
        const uint64_t id = pod.acc[0]->Send(1, 262144, 0);
        DataUnitError inj;
        inj.dev = da;
        inj.target = errorUnit;
        if (errorUnit > 0)
        {
            da->TraceConnectWithoutContext("PhyTxBegin", MakeCallback(&DataUnitError::OnTx, &inj));
        }
        Simulator::Run();
        Run r;
        r.delivered = log.deliveredAt.count({0, id}) ? log.deliveredAt[{0, id}] : Time(-1);
        r.bytes = log.delivered[{0, id}];
        const auto& tx = da->GetRetryEngine()->GetStats();
        const auto& rx = ds->GetRetryEngine()->GetStats();
        r.naksSent = rx.naksSent;
        r.replays = tx.replays;
        r.ignored = tx.naksIgnored;
        r.duplicates = rx.duplicates;
        r.corrupted = rx.corrupted;
        for (const auto& ch : pod.links)
        {
            for (std::size_t i = 0; i < 2; ++i)
            {
                for (const auto& [reason, n] :
                     DynamicCast<FabricNetDevice>(ch->GetDevice(i))->GetStats().dropUnits)
                {
                    r.dropped += n;
                }
            }
        }
        Simulator::Destroy();
        return r;
    }

    void DoRun() override
    {
        const Time flit = PicoSeconds(6400);
        const Time oneWay = NanoSeconds(10) + PicoSeconds(19200);
        // The switch core latency: 200 ns pin-to-pin (10.9.2) - 19.2 ns FEC - 2 flits.
        const Time core = NanoSeconds(200) - PicoSeconds(19200) - 2 * flit;
        const Run fine0 = RunMode(UalinkTxQueue::DL_FLIT, 0);
        const Run fine = RunMode(UalinkTxQueue::DL_FLIT, 100);
        const Run coarse0 = RunMode(UalinkTxQueue::BURST, 0);
        const Run coarse = RunMode(UalinkTxQueue::BURST, 60);
        const Time extraFine = fine.delivered - fine0.delivered;
        const Time extraCoarse = coarse.delivered - coarse0.delivered;
        std::cout << "fine-mode replay in a pod: fine " << fine0.delivered.As(Time::NS) << " -> "
                  << fine.delivered.As(Time::NS) << " (+" << extraFine.As(Time::NS) << "), coarse "
                  << coarse0.delivered.As(Time::NS) << " -> " << coarse.delivered.As(Time::NS)
                  << " (+" << extraCoarse.As(Time::NS) << "); replay requests " << fine.naksSent
                  << ", replays " << fine.replays << ", ignored " << fine.ignored << ", duplicates "
                  << fine.duplicates << "; 2 x one-way + core + 2 flits = "
                  << (2 * oneWay + core + 2 * flit).As(Time::NS) << std::endl;
        for (const Run* r : {&fine0, &fine, &coarse0, &coarse})
        {
            NS_TEST_ASSERT_MSG_EQ(r->bytes, 262144, "every byte once");
            NS_TEST_ASSERT_MSG_EQ(r->duplicates, 0, "no duplicate goes up");
            NS_TEST_ASSERT_MSG_EQ(r->dropped, 0, "nothing dropped");
        }
        NS_TEST_ASSERT_MSG_EQ(fine.corrupted, 1, "one CRC error");
        NS_TEST_ASSERT_MSG_EQ(fine.naksSent, 3, "three replay requests (6.6.1)");
        NS_TEST_ASSERT_MSG_EQ(fine.replays, 1, "one replay");
        NS_TEST_ASSERT_MSG_EQ(fine.ignored, 2, "two ignored in the 12-flit window");
        NS_TEST_ASSERT_MSG_EQ(coarse.corrupted, 1, "one error in the coarse run too");
        NS_TEST_ASSERT_MSG_EQ(coarse.replays, 1, "one replay in the coarse run too");
        NS_TEST_ASSERT_MSG_EQ_TOL(extraFine.GetPicoSeconds(),
                                  (2 * oneWay + core + 2 * flit).GetPicoSeconds(),
                                  flit.GetPicoSeconds(),
                                  "about one round trip");
        // One DL flit of the replay's alignment, one for the order of events of one picosecond
        // (see the class description).
        NS_TEST_ASSERT_MSG_EQ_TOL(extraCoarse.GetPicoSeconds(),
                                  extraFine.GetPicoSeconds(),
                                  2 * flit.GetPicoSeconds(),
                                  "the same extra delay within two DL flits");
        NS_TEST_ASSERT_MSG_EQ_TOL(fine.delivered.GetPicoSeconds(),
                                  coarse.delivered.GetPicoSeconds(),
                                  3 * flit.GetPicoSeconds(),
                                  "same delivery within one DL flit per link crossed, plus one");
    }
};

/**
 * \ingroup ualink-tests
 * Atomics (sections 2.7.4.5, 2.7.9, Table 2-6, 5.1.1): a pod of 9 accelerators with 2 x2 ports
 * (2 rails, 2 switches); the completer is accelerator 0.
 * - 8 originators each send one AtomicR fetch-add of 1 to the 8 B word at 0x1000: the answers'
 *   old values are exactly 0..7, each once (the adds serialise at the completer: conservation),
 *   and the word ends at 8.
 * - Originator 1 sends 5 AtomicR adds of 1 to the word at 0x3000 back to back: same 256 B
 *   region, same VC, same rail, so they stay in order (2.7.9): old values 0, 1, 2, 3, 4 in issue
 *   order.
 * - 8 originators x 4 AtomicNR adds of 3 to the 4 B word at 0x2000: only write responses; the
 *   word ends at 8 x 4 x 3 = 96.
 * - Originator 2: two AtomicR adds of 200 to the 1 B word at 0x4000: 0 then 200, the word ends
 *   at 400 mod 256 = 144.
 * Every request is uncompressed (Table 5-32) with 3 data half-flits (2 operand + 1 byte enable,
 * 5.1.1): the originators' packers count 8 + 5 + 32 + 2 = 47 requests and 141 data half-flits;
 * the completer answers 47 times, with 2 data half-flits (one beat, the old value) for each of
 * the 15 AtomicR: 30, none for the 32 AtomicNR; 15 AtomicR answers reach the originators, every
 * message completes, every tag and every credit is back.
 */
class UalinkAtomicAddTestCase : public TestCase
{
  public:
    UalinkAtomicAddTestCase()
        : TestCase("Atomics: fetch-add at the completer, N originators get old values 0..N-1")
    {
    }

  private:
    std::map<uint64_t, uint64_t> m_old; //!< (msg id | originator << 40) -> old value

    /// An AtomicR answer at an originator.
    void OnResult(uint32_t originator, uint64_t msgId, uint64_t old)
    {
        m_old[(static_cast<uint64_t>(originator) << 40) | msgId] = old;
    }

    void DoRun() override
    {
        UalinkHelper h;
        h.SetPhyAttribute("Lanes", UintegerValue(2));
        h.SetChannelAttribute("Delay", TimeValue(NanoSeconds(10)));
        UalinkHelper::Pod pod = h.Install(9, 2);
        RasLog log;
        log.Hook(pod);
        for (uint32_t i = 1; i < 9; ++i)
        {
            pod.acc[i]->TraceConnectWithoutContext(
                "AtomicResult",
                MakeCallback(&UalinkAtomicAddTestCase::OnResult, this, i));
        }
        std::vector<uint64_t> first(9);
        std::vector<uint64_t> ordered;
        std::vector<uint64_t> wrap;
        for (uint32_t i = 1; i < 9; ++i)
        {
            first[i] = pod.acc[i]->AtomicAdd(0, 0x1000, 1, 8, true, 0);
            for (uint32_t k = 0; k < 4; ++k)
            {
                pod.acc[i]->AtomicAdd(0, 0x2000, 3, 4, false, 0);
            }
        }
        for (uint32_t k = 0; k < 5; ++k)
        {
            ordered.push_back(pod.acc[1]->AtomicAdd(0, 0x3000, 1, 8, true, 0));
        }
        for (uint32_t k = 0; k < 2; ++k)
        {
            wrap.push_back(pod.acc[2]->AtomicAdd(0, 0x4000, 200, 1, true, 0));
        }
        Simulator::Run();

        Ptr<UalinkAtomicMemory> mem = pod.acc[0]->GetMemory();
        std::set<uint64_t> olds;
        std::string firstOlds;
        for (uint32_t i = 1; i < 9; ++i)
        {
            const uint64_t v = m_old[(static_cast<uint64_t>(i) << 40) | first[i]];
            olds.insert(v);
            firstOlds += std::to_string(v) + " ";
        }
        std::cout << "atomics: old values at 0x1000 " << firstOlds << "; words 0x1000 "
                  << mem->Read(0x1000) << ", 0x2000 " << mem->Read(0x2000) << ", 0x3000 "
                  << mem->Read(0x3000) << ", 0x4000 " << mem->Read(0x4000) << "; applied "
                  << mem->GetStats().applied << " (" << mem->GetStats().returningValue
                  << " AtomicR)" << std::endl;
        NS_TEST_ASSERT_MSG_EQ(olds.size(), 8, "8 distinct old values");
        NS_TEST_ASSERT_MSG_EQ(*olds.begin(), 0, "from 0");
        NS_TEST_ASSERT_MSG_EQ(*olds.rbegin(), 7, "to N - 1 = 7");
        NS_TEST_ASSERT_MSG_EQ(mem->Read(0x1000), 8, "the word ends at N");
        for (uint32_t k = 0; k < 5; ++k)
        {
            NS_TEST_ASSERT_MSG_EQ(m_old[(uint64_t(1) << 40) | ordered[k]], k, "in issue order");
        }
        NS_TEST_ASSERT_MSG_EQ(mem->Read(0x3000), 5, "5 adds of 1");
        NS_TEST_ASSERT_MSG_EQ(mem->Read(0x2000), 96, "8 x 4 x 3");
        NS_TEST_ASSERT_MSG_EQ(m_old[(uint64_t(2) << 40) | wrap[0]], 0, "1 B word: 0 first");
        NS_TEST_ASSERT_MSG_EQ(m_old[(uint64_t(2) << 40) | wrap[1]], 200, "then 200");
        NS_TEST_ASSERT_MSG_EQ(mem->Read(0x4000), 144, "400 mod 256");
        NS_TEST_ASSERT_MSG_EQ(mem->GetStats().applied, 47, "47 atomics applied");
        NS_TEST_ASSERT_MSG_EQ(mem->GetStats().returningValue, 15, "15 AtomicR");
        uint64_t requests = 0;
        uint64_t compressed = 0;
        uint64_t reqData = 0;
        uint64_t answers = 0;
        uint64_t failed = 0;
        for (uint32_t i = 1; i < 9; ++i)
        {
            for (uint32_t p = 0; p < 2; ++p)
            {
                const auto& st = pod.acc[i]->GetTxQueue(p)->GetPacker()->GetStats();
                requests += st.requests;
                compressed += st.compressedRequests;
                reqData += st.dataHalfFlits;
                NS_TEST_ASSERT_MSG_EQ(pod.acc[i]->GetOutstanding(p), 0, "every tag free");
                NS_TEST_ASSERT_MSG_EQ(CreditsBack(pod.acc[i]->GetTxQueue(p)), true, "credits");
            }
            answers += pod.acc[i]->GetStats().atomicResponses;
            failed += pod.acc[i]->GetStats().failedMessages;
        }
        uint64_t responses = 0;
        uint64_t rspData = 0;
        for (uint32_t p = 0; p < 2; ++p)
        {
            const auto& st = pod.acc[0]->GetTxQueue(p)->GetPacker()->GetStats();
            responses += st.responses;
            rspData += st.dataHalfFlits;
        }
        NS_TEST_ASSERT_MSG_EQ(requests, 47, "47 requests");
        NS_TEST_ASSERT_MSG_EQ(compressed, 0, "atomics never compress (Table 5-32)");
        NS_TEST_ASSERT_MSG_EQ(reqData, 47 * 3, "2 operand + 1 byte-enable half-flit each");
        NS_TEST_ASSERT_MSG_EQ(responses, 47, "one response each");
        NS_TEST_ASSERT_MSG_EQ(rspData, 15 * 2, "AtomicR: one beat of old value; AtomicNR none");
        NS_TEST_ASSERT_MSG_EQ(answers, 15, "15 AtomicR answers on RdRsp");
        NS_TEST_ASSERT_MSG_EQ(log.completed.size(), 47, "every atomic completes");
        NS_TEST_ASSERT_MSG_EQ(failed, 0, "none failed");
        Simulator::Destroy();
    }
};

/**
 * \ingroup ualink-tests
 * Recovery, the fine mode's replay in a pod and the atomics' effect.
 */
class UalinkRasTestSuite : public PicosecondTestSuite
{
  public:
    UalinkRasTestSuite()
        : PicosecondTestSuite("ualink-ras", UNIT)
    {
        AddTestCase(new UalinkRecoveryTestCase, TestCase::QUICK);
        AddTestCase(new UalinkRecoveryInitialReleaseTestCase, TestCase::QUICK);
        AddTestCase(new UalinkFineModeReplayTestCase, TestCase::QUICK);
        AddTestCase(new UalinkAtomicAddTestCase, TestCase::QUICK);
    }
};

static UalinkRasTestSuite g_ualinkRasTestSuite; //!< the suite
