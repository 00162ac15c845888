/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Tests of FabricHeapScheduler. The expected order is the definition of every ns-3
// scheduler's order, (time stamp, uid), kept here by a std::map (a reference that is ordered by
// construction); the counts are conservation: every event inserted comes out exactly once unless
// it was removed, and a removed one never comes out.

#include "ns3/fabric-heap-scheduler.h"
#include "ns3/object-factory.h"
#include "ns3/picosecond-test-suite.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

/// \param uid an event uid \return a distinct stand-in EventImpl pointer (never dereferenced)
EventImpl*
FakeImpl(uint32_t uid)
{
    return reinterpret_cast<EventImpl*>(static_cast<uintptr_t>(uid + 1) * 16);
}

/// \param ts time stamp \param uid uid \return an event whose context is derived from its uid
Scheduler::Event
MakeEv(uint64_t ts, uint32_t uid)
{
    Scheduler::Event ev;
    ev.impl = FakeImpl(uid);
    ev.key.m_ts = ts;
    ev.key.m_uid = uid;
    ev.key.m_context = uid * 7 + 3;
    return ev;
}

} // namespace

/**
 * \ingroup fabric-tests
 * Random sequences of Insert, RemoveNext and Remove against a std::map keyed by (ts, uid), for
 * each arity 2 to 8. Times grow like a simulator's (each insertion at the present, the time of
 * the last event out, plus 0, a few or many time steps; many ties, which go by uid). Expected:
 * PeekNext and RemoveNext give the map's first event (time stamp, uid, context and impl), IsEmpty
 * agrees with the map at every step, and at the end inserted = came out + removed, with no event
 * out twice (conservation).
 */
class FabricHeapSchedulerRandomTestCase : public TestCase
{
  public:
    FabricHeapSchedulerRandomTestCase()
        : TestCase("random Insert, RemoveNext and Remove against std::map, arity 2 to 8")
    {
    }

  private:
    void DoRun() override
    {
        for (uint32_t d = 2; d <= 8; ++d)
        {
            RunOne<FabricHeapScheduler>(d, "ns3::FabricHeapScheduler");
        }
    }

    /// \param d the arity \param type TypeId name
    template <typename T>
    void RunOne(uint32_t d, std::string type)
    {
        ObjectFactory f(type);
        f.Set("Arity", UintegerValue(d));
        Ptr<T> s = f.Create<T>();
        NS_TEST_ASSERT_MSG_EQ(s->GetArity(), d, "Arity attribute");
        std::map<std::pair<uint64_t, uint32_t>, Scheduler::Event> ref;
        std::vector<uint32_t> seen; // times each uid came out
        std::mt19937_64 rng(12345 + d);
        uint64_t now = 0;
        uint32_t nextUid = 0;
        uint64_t inserted = 0;
        uint64_t out = 0;
        uint64_t removed = 0;
        const std::string tag = "arity " + std::to_string(d) + ": ";
        for (uint32_t step = 0; step < 60000; ++step)
        {
            // Phases: grow to thousands of pending events, then drain; Remove now and then.
            const bool growing = (step / 15000) % 2 == 0;
            const uint32_t r = rng() % 100;
            if (ref.empty() || (growing ? r < 60 : r < 35))
            {
                const uint32_t kind = rng() % 4;
                const uint64_t delay =
                    kind == 0 ? 0 : (kind == 1 ? rng() % 4 : (kind == 2 ? rng() % 1000 : rng()));
                const uint64_t ts = now + (delay >> (kind == 3 ? 24 : 0));
                const auto ev = MakeEv(ts, nextUid++);
                s->Insert(ev);
                ref.emplace(std::make_pair(ev.key.m_ts, ev.key.m_uid), ev);
                seen.push_back(0);
                ++inserted;
            }
            else if (r < 92)
            {
                const auto peek = s->PeekNext();
                const auto ev = s->RemoveNext();
                const auto& want = ref.begin()->second;
                NS_TEST_ASSERT_MSG_EQ(peek.key.m_uid, want.key.m_uid, tag + "PeekNext uid");
                NS_TEST_ASSERT_MSG_EQ(ev.key.m_uid, want.key.m_uid, tag + "RemoveNext uid");
                NS_TEST_ASSERT_MSG_EQ(ev.key.m_ts, want.key.m_ts, tag + "RemoveNext ts");
                NS_TEST_ASSERT_MSG_EQ(ev.key.m_context, want.key.m_context, tag + "context");
                NS_TEST_ASSERT_MSG_EQ(ev.impl, want.impl, tag + "impl");
                NS_TEST_ASSERT_MSG_EQ((ev.key.m_ts >= now), true, tag + "time went back");
                now = ev.key.m_ts;
                ++seen[ev.key.m_uid];
                ref.erase(ref.begin());
                ++out;
            }
            else
            {
                // Remove a pending event picked at random (the first one now and then, which
                // is the root of the heap).
                auto it = ref.begin();
                if (rng() % 4 != 0)
                {
                    std::advance(it, rng() % ref.size());
                }
                s->Remove(it->second);
                ref.erase(it);
                ++removed;
            }
            NS_TEST_ASSERT_MSG_EQ(s->IsEmpty(), ref.empty(), tag + "IsEmpty");
        }
        while (!ref.empty())
        {
            const auto ev = s->RemoveNext();
            NS_TEST_ASSERT_MSG_EQ(ev.key.m_uid, ref.begin()->second.key.m_uid, tag + "drain");
            ++seen[ev.key.m_uid];
            ref.erase(ref.begin());
            ++out;
        }
        NS_TEST_ASSERT_MSG_EQ(s->IsEmpty(), true, tag + "empty at the end");
        NS_TEST_ASSERT_MSG_EQ(s->GetRemovedPending(), 0, tag + "removed uids left");
        NS_TEST_ASSERT_MSG_EQ(inserted, out + removed, tag + "conservation");
        NS_TEST_ASSERT_MSG_GT(removed, 1000, tag + "the sequence removes events");
        uint64_t twice = 0;
        for (auto n : seen)
        {
            twice += n > 1 ? 1 : 0;
        }
        NS_TEST_ASSERT_MSG_EQ(twice, 0, tag + "events out twice");
    }
};

/**
 * \ingroup fabric-tests
 * The same events through ns-3's Simulator with MapScheduler and with FabricHeapScheduler:
 * scheduled with and without context, with ties, some cancelled (Simulator::Cancel marks them)
 * and some removed (Simulator::Remove calls Scheduler::Remove), some scheduling others. Expected:
 * the two logs of (event name, time, context) are equal entry for entry, and the removed and
 * cancelled events never run.
 */
class FabricHeapSchedulerSimulatorTestCase : public TestCase
{
  public:
    FabricHeapSchedulerSimulatorTestCase()
        : TestCase("Simulator run with FabricHeapScheduler equals the MapScheduler run")
    {
    }

  private:
    /// Handled events: (name, time in ps, context).
    std::vector<std::tuple<uint32_t, int64_t, uint32_t>> m_log;
    std::vector<EventId> m_ids; //!< events that may be removed or cancelled

    /// \param name the event's name \param depth events still to schedule from it
    void Handle(uint32_t name, uint32_t depth)
    {
        m_log.emplace_back(name, Simulator::Now().GetPicoSeconds(), Simulator::GetContext());
        if (depth > 0)
        {
            // Children at the present, at a tie and later, one with another context.
            Simulator::Schedule(PicoSeconds(0),
                                &FabricHeapSchedulerSimulatorTestCase::Handle,
                                this,
                                name * 3 + 1,
                                depth - 1);
            Simulator::ScheduleWithContext(name % 5,
                                           PicoSeconds(name % 7),
                                           &FabricHeapSchedulerSimulatorTestCase::Handle,
                                           this,
                                           name * 3 + 2,
                                           depth - 1);
            m_ids.push_back(Simulator::Schedule(PicoSeconds(1000 + name % 13),
                                                &FabricHeapSchedulerSimulatorTestCase::Handle,
                                                this,
                                                name * 3 + 3,
                                                depth - 1));
        }
        if (name % 4 == 0 && !m_ids.empty())
        {
            // Remove or cancel a pending event scheduled earlier (a no-op if it ran already).
            EventId id = m_ids[(name * 2654435761U) % m_ids.size()];
            if (name % 8 == 0)
            {
                Simulator::Remove(id);
            }
            else
            {
                Simulator::Cancel(id);
            }
        }
    }

    /// \param type the scheduler's TypeId name \return the log of the run
    std::vector<std::tuple<uint32_t, int64_t, uint32_t>> Run(const std::string& type)
    {
        m_log.clear();
        m_ids.clear();
        Simulator::SetScheduler(ObjectFactory(type));
        for (uint32_t i = 0; i < 8; ++i)
        {
            Simulator::Schedule(PicoSeconds(i % 3),
                                &FabricHeapSchedulerSimulatorTestCase::Handle,
                                this,
                                100 + i,
                                7);
        }
        Simulator::Run();
        Simulator::Destroy();
        return m_log;
    }

    void DoRun() override
    {
        const auto ref = Run("ns3::MapScheduler");
        const auto got = Run("ns3::FabricHeapScheduler");
        NS_TEST_ASSERT_MSG_GT(ref.size(), 1000u, "the run handles many events");
        NS_TEST_ASSERT_MSG_EQ(got.size(), ref.size(), "events handled");
        for (std::size_t i = 0; i < ref.size() && i < got.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ((got[i] == ref[i]), true, "event " << i);
        }
    }
};

/**
 * \ingroup fabric-tests
 * FabricHeapScheduler test suite.
 */
class FabricHeapSchedulerTestSuite : public PicosecondTestSuite
{
  public:
    FabricHeapSchedulerTestSuite()
        : PicosecondTestSuite("fabric-heap-scheduler", UNIT)
    {
        AddTestCase(new FabricHeapSchedulerRandomTestCase, TestCase::QUICK);
        AddTestCase(new FabricHeapSchedulerSimulatorTestCase, TestCase::QUICK);
    }
};

static FabricHeapSchedulerTestSuite g_fabricHeapSchedulerTestSuite; //!< static instance
