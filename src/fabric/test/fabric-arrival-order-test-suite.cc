/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Tests of FabricArrivalOrder (FabricChannel's ArrivalOrder = Canonical) and of
// FabricPeekScheduler. The expected orders follow from the classes' definitions: the units of one
// picosecond are handed over after every other event of that picosecond, sorted by (receiving
// node id, receiving device index, sender's unit count on the link); the expected times are
// channel arithmetic (propagation delay + serialization for a store-and-forward receiver).

#include "ns3/enum.h"
#include "ns3/fabric-arrival-order.h"
#include "ns3/fabric-channel.h"
#include "ns3/fabric-clock.h"
#include "ns3/fabric-link-helper.h"
#include "ns3/fabric-net-device.h"
#include "ns3/fabric-peek-scheduler.h"
#include "ns3/node.h"
#include "ns3/object-factory.h"
#include "ns3/picosecond-test-suite.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <algorithm>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// What one run saw: names of the events and units, in the order they were handled.
struct Log
{
    std::vector<std::string> order; //!< "L", "Z" (events) or the unit's src id as "u<src>"
    std::vector<Time> at;           //!< when each was handled

    /// Record a received unit.
    void Unit(const Ptr<FabricNetDevice>&, const Ptr<FabricPacket>& p)
    {
        order.push_back("u" + std::to_string(p->src));
        at.push_back(Simulator::Now());
    }

    /// Record an event.
    void Event(std::string name)
    {
        order.push_back(name);
        at.push_back(Simulator::Now());
    }
};

/// \param src a name for the unit \return a data unit of 64 B
Ptr<FabricPacket>
MakeUnit(uint32_t src)
{
    Ptr<FabricPacket> p = Create<FabricPacket>();
    p->src = src;
    p->dst = 0;
    p->payloadBytes = 64;
    return p;
}

/// Install FabricPeekScheduler around a MapScheduler.
void
InstallPeek()
{
    ObjectFactory f("ns3::FabricPeekScheduler");
    f.Set("Inner", ObjectFactoryValue(ObjectFactory("ns3::MapScheduler")));
    Simulator::SetScheduler(f);
}

} // namespace

/**
 * \ingroup fabric-tests
 * \brief Units staged for one picosecond are handed over in (node, device, sequence) order,
 * whatever order they were staged in.
 *
 * Four units for t = 100 ns, staged from events at 10, 20, 30 and 40 ns, to devices (node 1,
 * device 1, seq 7), (node 1, device 0, seq 9), (node 0, device 0, seq 3), (node 1, device 0,
 * seq 2), forwards and backwards. Expected, from the sort key: node 0 first, then node 1's
 * device 0 by sequence (2 before 9), then device 1; all at 100 ns; the counters: 4 units, one
 * drain event that handed them over together (shared = 4), no deferral (nothing else at 100 ns,
 * and FabricPeekScheduler says so).
 */
class FabricArrivalOrderSortTestCase : public TestCase
{
  public:
    FabricArrivalOrderSortTestCase()
        : TestCase("units of one picosecond are handed over sorted by node, device and sequence")
    {
    }

  private:
    /// \param backwards stage in the reverse order \return what was received
    Log RunOnce(bool backwards)
    {
        InstallPeek();
        Log log;
        Ptr<Node> n0 = CreateObject<Node>();
        Ptr<Node> n1 = CreateObject<Node>();
        std::vector<Ptr<FabricNetDevice>> devs;
        for (const Ptr<Node>& n : {n0, n1, n1})
        {
            Ptr<FabricNetDevice> d = CreateObject<FabricNetDevice>();
            n->AddDevice(d); // device index 0, 0, 1
            d->SetFabricReceiveCallback(MakeCallback(&Log::Unit, &log));
            devs.push_back(d);
        }

        struct Staged
        {
            Ptr<FabricNetDevice> dst;
            uint32_t name;
            uint64_t seq;
        };

        std::vector<Staged> staged = {{devs[2], 117, 7},
                                      {devs[1], 109, 9},
                                      {devs[0], 3, 3},
                                      {devs[1], 102, 2}};
        if (backwards)
        {
            std::reverse(staged.begin(), staged.end());
        }
        for (uint32_t i = 0; i < staged.size(); ++i)
        {
            const Staged s = staged[i];
            Simulator::Schedule(NanoSeconds(10 * (i + 1)), [s]() {
                FabricArrivalOrder::Get()->Stage(s.dst,
                                                 MakeUnit(s.name),
                                                 false,
                                                 NanoSeconds(100),
                                                 s.seq);
            });
        }
        FabricArrivalOrder::Stats stats;
        Simulator::Schedule(NanoSeconds(200),
                            [&stats]() { stats = FabricArrivalOrder::Get()->GetStats(); });
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(stats.units, 4, "units staged");
        NS_TEST_EXPECT_MSG_EQ(stats.drains, 1, "one picosecond, one drain");
        NS_TEST_EXPECT_MSG_EQ(stats.shared, 4, "handed over together");
        NS_TEST_EXPECT_MSG_EQ(stats.deferrals, 0, "nothing else at 100 ns");
        Simulator::Destroy();
        return log;
    }

    void DoRun() override
    {
        const std::vector<std::string> expected = {"u3", "u102", "u109", "u117"};
        for (bool backwards : {false, true})
        {
            Log log = RunOnce(backwards);
            NS_TEST_ASSERT_MSG_EQ(log.order.size(), expected.size(), "every unit received");
            for (uint32_t i = 0; i < expected.size(); ++i)
            {
                NS_TEST_EXPECT_MSG_EQ(log.order[i], expected[i], "canonical order");
                NS_TEST_EXPECT_MSG_EQ(log.at[i], NanoSeconds(100), "receive time");
            }
        }
    }
};

/**
 * \ingroup fabric-tests
 * \brief The units of a picosecond come after the other events of that picosecond, including
 * the ones those schedule with a zero delay, with and without FabricPeekScheduler.
 *
 * A unit is staged at 10 ns for 100 ns (its drain event is inserted then); at 50 ns an event L is
 * scheduled for 100 ns (inserted after the drain event, so ns-3 would run it after), and L
 * schedules Z with a zero delay. Expected order, from the class definition: L, Z, then the unit,
 * all at 100 ns. Deferrals: with the peek scheduler, the drain event defers while L, then Z, is
 * pending: 2; without it, it defers until no event ran between two of its runs: once before L,
 * once before Z, once more to see that nothing is left: 3.
 */
class FabricArrivalOrderLastTestCase : public TestCase
{
  public:
    FabricArrivalOrderLastTestCase()
        : TestCase("the units of a picosecond come after its other events, zero-delay ones too")
    {
    }

  private:
    void DoRun() override
    {
        for (bool peek : {true, false})
        {
            if (peek)
            {
                InstallPeek();
            }
            Log log;
            Ptr<Node> n = CreateObject<Node>();
            Ptr<FabricNetDevice> d = CreateObject<FabricNetDevice>();
            n->AddDevice(d);
            d->SetFabricReceiveCallback(MakeCallback(&Log::Unit, &log));
            Simulator::Schedule(NanoSeconds(10), [d]() {
                FabricArrivalOrder::Get()->Stage(d, MakeUnit(1), false, NanoSeconds(100), 0);
            });
            Simulator::Schedule(NanoSeconds(50), [&log]() {
                Simulator::Schedule(NanoSeconds(50), [&log]() {
                    log.Event("L");
                    Simulator::ScheduleNow([&log]() { log.Event("Z"); });
                });
            });
            uint64_t deferrals = 0;
            Simulator::Schedule(NanoSeconds(200), [&deferrals]() {
                deferrals = FabricArrivalOrder::Get()->GetStats().deferrals;
            });
            Simulator::Run();
            Simulator::Destroy();
            const std::vector<std::string> expected = {"L", "Z", "u1"};
            NS_TEST_ASSERT_MSG_EQ(log.order.size(), expected.size(), "three handled");
            for (uint32_t i = 0; i < expected.size(); ++i)
            {
                NS_TEST_EXPECT_MSG_EQ(log.order[i], expected[i], "the unit last");
                NS_TEST_EXPECT_MSG_EQ(log.at[i], NanoSeconds(100), "at 100 ns");
            }
            NS_TEST_EXPECT_MSG_EQ(deferrals, peek ? 2 : 3, "deferrals");
        }
    }
};

/**
 * \ingroup fabric-tests
 * \brief Two units that reach one node in the same picosecond over two links: Insertion
 * follows the order of the senders' events, Canonical does not.
 *
 * Nodes A and B each have a link (Delay 10 ns, 800 Gb/s) to node R, whose devices are R0 (from
 * A, device index 0) and R1 (from B, index 1). At 1 ns, A and B each start a 64 B unit on the
 * wire (TransmitStart, 640 ps of serialization), in the order A, B or B, A (two events of one
 * time stamp). Expected receive time: 1 ns + 10 ns + 640 ps (R's devices are store-and-forward,
 * no pipeline latency) = 11.64 ns for both. Expected order: with Insertion, the order of the
 * senders' events (A first if A's event ran first); with Canonical, R0 (A's unit) first both
 * times.
 */
class FabricArrivalOrderChannelTestCase : public TestCase
{
  public:
    FabricArrivalOrderChannelTestCase()
        : TestCase("Canonical orders simultaneous units by receiving device, not by the senders")
    {
    }

  private:
    /// \param canonical the ArrivalOrder \param aFirst A's event first \return what R received
    Log RunOnce(bool canonical, bool aFirst)
    {
        Log log;
        FabricLinkHelper lh;
        lh.SetChannelAttribute("Delay", TimeValue(NanoSeconds(10)));
        lh.SetChannelAttribute("DataRate", DataRateValue(DataRate("800Gbps")));
        lh.SetChannelAttribute(
            "ArrivalOrder",
            EnumValue(canonical ? FabricChannel::CANONICAL : FabricChannel::INSERTION));
        Ptr<Node> a = CreateObject<Node>();
        Ptr<Node> b = CreateObject<Node>();
        Ptr<Node> r = CreateObject<Node>();
        NetDeviceContainer ar = lh.Install(a, r);
        NetDeviceContainer br = lh.Install(b, r);
        for (const NetDeviceContainer& c : {ar, br})
        {
            DynamicCast<FabricNetDevice>(c.Get(1))->SetFabricReceiveCallback(
                MakeCallback(&Log::Unit, &log));
        }
        auto send = [](NetDeviceContainer c, uint32_t name) {
            Ptr<FabricNetDevice> src = DynamicCast<FabricNetDevice>(c.Get(0));
            Ptr<FabricChannel> ch = src->GetFabricChannel();
            Ptr<FabricPacket> p = MakeUnit(name);
            ch->TransmitStart(p, src, ch->GetSerializationTime(p->GetSize()));
        };
        const NetDeviceContainer first = aFirst ? ar : br;
        const NetDeviceContainer second = aFirst ? br : ar;
        Simulator::Schedule(NanoSeconds(1), [=]() { send(first, aFirst ? 1 : 2); });
        Simulator::Schedule(NanoSeconds(1), [=]() { send(second, aFirst ? 2 : 1); });
        Simulator::Run();
        Simulator::Destroy();
        return log;
    }

    void DoRun() override
    {
        for (bool canonical : {false, true})
        {
            for (bool aFirst : {true, false})
            {
                Log log = RunOnce(canonical, aFirst);
                NS_TEST_ASSERT_MSG_EQ(log.order.size(), 2, "both received");
                const bool aSeenFirst = log.order[0] == "u1";
                NS_TEST_EXPECT_MSG_EQ(aSeenFirst, canonical || aFirst, "order");
                NS_TEST_EXPECT_MSG_EQ(log.at[0], PicoSeconds(11640), "1 + 10 + 0.64 ns");
                NS_TEST_EXPECT_MSG_EQ(log.at[1], PicoSeconds(11640), "the same picosecond");
            }
        }
    }
};

/**
 * \ingroup fabric-tests
 * \brief FabricPeekScheduler keeps its inner scheduler's order and tells the next time stamp.
 *
 * Five events inserted out of order (time stamps 30, 10, 20, 10, 30 with ids 1-5, one of them
 * removed): expected order (10, 2), (10, 4), (20, 3), (30, 1), ns-3's (time stamp, id) order;
 * HasEventAt is true exactly for the next time stamp; GetInstalled names the scheduler created
 * last.
 */
class FabricPeekSchedulerTestCase : public TestCase
{
  public:
    FabricPeekSchedulerTestCase()
        : TestCase("the peek scheduler keeps the inner order and says the next time stamp")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<FabricPeekScheduler> s = CreateObject<FabricPeekScheduler>();
        NS_TEST_EXPECT_MSG_EQ(FabricPeekScheduler::GetInstalled(), PeekPointer(s), "installed");
        NS_TEST_EXPECT_MSG_EQ(s->IsEmpty(), true, "empty");
        NS_TEST_EXPECT_MSG_EQ(s->HasEventAt(0), false, "nothing pending");
        const uint64_t ts[] = {30, 10, 20, 10, 30};
        for (uint32_t uid = 1; uid <= 5; ++uid)
        {
            Scheduler::Event e;
            e.impl = nullptr;
            e.key.m_ts = ts[uid - 1];
            e.key.m_uid = uid;
            e.key.m_context = 0;
            s->Insert(e);
            if (uid == 5)
            {
                s->Remove(e);
            }
        }
        const std::pair<uint64_t, uint32_t> expected[] = {{10, 2}, {10, 4}, {20, 3}, {30, 1}};
        for (const auto& [t, uid] : expected)
        {
            NS_TEST_EXPECT_MSG_EQ(s->HasEventAt(t), true, "next time stamp");
            NS_TEST_EXPECT_MSG_EQ(s->HasEventAt(t + 1), false, "not another one");
            Scheduler::Event e = s->RemoveNext();
            NS_TEST_EXPECT_MSG_EQ(e.key.m_ts, t, "time stamp");
            NS_TEST_EXPECT_MSG_EQ(e.key.m_uid, uid, "id");
        }
        NS_TEST_EXPECT_MSG_EQ(s->IsEmpty(), true, "all removed");
        s->Dispose();
        s = nullptr;
        NS_TEST_EXPECT_MSG_EQ(FabricPeekScheduler::GetInstalled(),
                              static_cast<FabricPeekScheduler*>(nullptr),
                              "gone");
    }
};

/**
 * \ingroup fabric-tests
 * \brief FabricClock::Now() equals Simulator::Now() wherever it is asked.
 *
 * The expected value is Simulator::Now() itself (FabricClock only reads it differently). Asked
 * before the run, in events at 1 ns (two of them, and one scheduled from them for the same
 * time), 2.5 ns and 7 ps, after Simulator::Stop at 10 ns with an event still pending at 20 ns,
 * after a new FabricPeekScheduler is installed in the middle of the run and the run goes on,
 * after Simulator::Destroy, and in a run without FabricPeekScheduler (ns-3's MapScheduler).
 */
class FabricClockTestCase : public TestCase
{
  public:
    FabricClockTestCase()
        : TestCase("the fabric clock reads the simulator's time")
    {
    }

  private:
    /// Compare the two clocks now, record the time and maybe schedule more.
    void Check(int depth)
    {
        NS_TEST_EXPECT_MSG_EQ(FabricClock::Now(), Simulator::Now(), "in an event");
        m_seen.push_back(FabricClock::Now());
        if (depth > 0)
        {
            Simulator::ScheduleNow(&FabricClockTestCase::Check, this, depth - 1);
            Simulator::Schedule(PicoSeconds(3), &FabricClockTestCase::Check, this, depth - 1);
        }
    }

    void DoRun() override
    {
        InstallPeek();
        NS_TEST_EXPECT_MSG_EQ(FabricClock::Now(), Simulator::Now(), "before the run");
        Simulator::Schedule(NanoSeconds(1), &FabricClockTestCase::Check, this, 1);
        Simulator::Schedule(NanoSeconds(1), &FabricClockTestCase::Check, this, 0);
        Simulator::Schedule(PicoSeconds(2500), &FabricClockTestCase::Check, this, 0);
        Simulator::Schedule(PicoSeconds(7), &FabricClockTestCase::Check, this, 0);
        EventId cancelled =
            Simulator::Schedule(NanoSeconds(3), &FabricClockTestCase::Check, this, 0);
        Simulator::Schedule(NanoSeconds(2), &EventId::Cancel, &cancelled);
        Simulator::Schedule(NanoSeconds(20), &FabricClockTestCase::Check, this, 0);
        Simulator::Stop(NanoSeconds(10));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(FabricClock::Now(), NanoSeconds(10), "after the stop");
        NS_TEST_EXPECT_MSG_EQ(FabricClock::Now(), Simulator::Now(), "after the stop");
        // Events at 7 ps, 1 ns (3), 1.003 ns, 2.5 ns: the cancelled one and the one at 20 ns
        // are not run.
        const Time expected[] = {PicoSeconds(7),
                                 NanoSeconds(1),
                                 NanoSeconds(1),
                                 NanoSeconds(1),
                                 PicoSeconds(1003),
                                 PicoSeconds(2500)};
        NS_TEST_ASSERT_MSG_EQ(m_seen.size(), std::size_t(6), "events run");
        for (std::size_t i = 0; i < m_seen.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(m_seen[i], expected[i], "event " << i);
        }
        // A new scheduler in the middle of the run: it has handed out nothing yet.
        InstallPeek();
        NS_TEST_EXPECT_MSG_EQ(FabricClock::Now(), Simulator::Now(), "new scheduler");
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(m_seen.back(), NanoSeconds(20), "the run went on");
        NS_TEST_EXPECT_MSG_EQ(FabricClock::Now(), Simulator::Now(), "after the run");
        Simulator::Destroy();
        NS_TEST_EXPECT_MSG_EQ(FabricClock::Now(), Simulator::Now(), "after destroy");
        NS_TEST_EXPECT_MSG_EQ(FabricClock::Now(), Time(0), "after destroy");
        // Without FabricPeekScheduler, FabricClock asks the simulator.
        Simulator::SetScheduler(ObjectFactory("ns3::MapScheduler"));
        m_seen.clear();
        Simulator::Schedule(NanoSeconds(4), &FabricClockTestCase::Check, this, 1);
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(m_seen.size(),
                              std::size_t(3),
                              "events run without the peek scheduler");
        NS_TEST_EXPECT_MSG_EQ(FabricClock::Now(), PicoSeconds(4003), "last event");
        Simulator::Destroy();
    }

    std::vector<Time> m_seen; //!< the time of every event run
};

/**
 * \ingroup fabric-tests
 * \brief The arrival-order test suite.
 */
class FabricArrivalOrderTestSuite : public PicosecondTestSuite
{
  public:
    FabricArrivalOrderTestSuite()
        : PicosecondTestSuite("fabric-arrival-order", UNIT)
    {
        AddTestCase(new FabricArrivalOrderSortTestCase, TestCase::QUICK);
        AddTestCase(new FabricArrivalOrderLastTestCase, TestCase::QUICK);
        AddTestCase(new FabricArrivalOrderChannelTestCase, TestCase::QUICK);
        AddTestCase(new FabricPeekSchedulerTestCase, TestCase::QUICK);
        AddTestCase(new FabricClockTestCase, TestCase::QUICK);
    }
};

/// The suite's instance.
static FabricArrivalOrderTestSuite g_fabricArrivalOrderTestSuite;
