/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The pyxis-trips suite: the programming model of Pyxis spec section 11 (barriers, descriptor
// queues, the Trip Manager, trip flush) and the engines of section 12 (HBM DMA, inter-cluster
// DMA over the Core Switch). Expected values are derived in each comment from the spec's
// sections (pyxis.rst, Validation) or the model's stated assumptions. Times are exact
// in picoseconds: every delay in cycles is rounded to the picosecond once
// (PyxisChip::Cycles), so the expected values repeat the same sums.

#include "ns3/picosecond-test-suite.h"
#include "ns3/pyxis-barrier-table.h"
#include "ns3/pyxis-chip-helper.h"
#include "ns3/pyxis-chip.h"
#include "ns3/pyxis-core-switch.h"
#include "ns3/pyxis-descriptor-queue.h"
#include "ns3/pyxis-hbm-bus.h"
#include "ns3/pyxis-hbm-dma-engine.h"
#include "ns3/pyxis-icdma-engine.h"
#include "ns3/pyxis-queue-map.h"
#include "ns3/pyxis-rdma-engine.h"
#include "ns3/pyxis-trip-manager.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

using namespace ns3;

namespace
{

/// (cluster, queue, trip id)
using TripKey = std::tuple<uint32_t, uint32_t, uint32_t>;

/// Records the chip's TripStart and TripEnd traces.
struct TripRecorder
{
    std::map<TripKey, Time> start; //!< start by trip
    std::map<TripKey, Time> end;   //!< end by trip

    /**
     * Connect to a chip.
     * \param chip the chip
     */
    void Connect(Ptr<PyxisChip> chip)
    {
        chip->TraceConnectWithoutContext("TripStart", MakeCallback(&TripRecorder::OnStart, this));
        chip->TraceConnectWithoutContext("TripEnd", MakeCallback(&TripRecorder::OnEnd, this));
    }

    /// TripStart sink.
    void OnStart(uint32_t, uint32_t cluster, uint32_t queue, uint32_t id, Time s)
    {
        start[{cluster, queue, id}] = s;
    }

    /// TripEnd sink.
    void OnEnd(uint32_t, uint32_t cluster, uint32_t queue, uint32_t id, Time s, Time e)
    {
        end[{cluster, queue, id}] = e;
        start[{cluster, queue, id}] = s;
    }
};

/**
 * \param wait local barrier to wait on (0: none)
 * \param notify barriers to notify
 * \param id trip id
 * \param cycles duration (UIE, MPE)
 * \return a trip
 */
PyxisTrip
MakeTrip(uint32_t wait, std::vector<PyxisBarrierRef> notify, uint32_t id, uint64_t cycles)
{
    PyxisTrip t;
    t.waitBarrier = wait;
    t.notify = notify;
    t.tripId = id;
    t.cycles = cycles;
    return t;
}

/**
 * \param ps picoseconds
 * \return a Time
 */
Time
Ps(double ps)
{
    return PicoSeconds(static_cast<int64_t>(std::llround(ps)));
}

/**
 * \ingroup pyxis
 * Barrier ordering (Pyxis spec 11.6.2; pyxis.rst, Validation, "Barrier ordering"): three notifies
 * before set_ref_counts(3, 1) leave notify_count at -1, -2, -3 (the pseudocode decrements an unset
 * barrier); set_ref_counts adds 3 and 1: notify_count 0 with valid counts releases (no consumer
 * waits yet), wait_count 1 keeps the barrier; a later wait goes at once (notify_count 0, valid),
 * takes wait_count to 0 and frees the barrier (valid false, both counts 0). Then the same through
 * trips: three MPE trips of 10, 20 and 30 cycles notify B; the barrier-config trip for (3, 1) waits
 * on barrier X, set (1, 1) at t = 0 and notified by a 100-cycle MPE trip, so it runs at 100 cycles
 * and sets B at 101 cycles (ConfigCycles 1): at 50 cycles B's count is -3; at 200 cycles it is 0
 * and valid. A UIE trip waiting on B submitted at 1 us starts at once plus its launch: 1 us + 50
 * cycles.
 */
class BarrierOrderTestCase : public TestCase
{
  public:
    BarrierOrderTestCase()
        : TestCase("barrier ordering: 3 notifies before set_ref_counts(3,1), a later wait goes "
                   "at once and frees (Pyxis spec 11.6.2)")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<PyxisBarrierTable> t = CreateObject<PyxisBarrierTable>();
        std::string e;
        const uint32_t b = 5;
        for (int32_t k = 1; k <= 3; ++k)
        {
            NS_TEST_ASSERT_MSG_EQ(t->Notify(b, e), true, e);
            NS_TEST_ASSERT_MSG_EQ(t->GetNotifyCount(b), -k, "notify before set_ref_counts");
        }
        NS_TEST_ASSERT_MSG_EQ(t->IsValid(b), false, "counts not set yet");
        NS_TEST_ASSERT_MSG_EQ(t->IsFree(b), false, "a negative count is in use");
        NS_TEST_ASSERT_MSG_EQ(t->SetRefCounts(b, 3, 1, e), true, e);
        NS_TEST_ASSERT_MSG_EQ(t->GetNotifyCount(b), 0, "-3 + 3");
        NS_TEST_ASSERT_MSG_EQ(t->GetWaitCount(b), 1, "one consumer");
        NS_TEST_ASSERT_MSG_EQ(t->IsValid(b), true, "set");
        bool went = false;
        const auto r = t->Wait(b, MakeCallback(&BarrierOrderTestCase::Never, this), e);
        went = r == PyxisBarrierTable::WAIT_GO;
        NS_TEST_ASSERT_MSG_EQ(went, true, "a wait after the release goes at once");
        NS_TEST_ASSERT_MSG_EQ(t->GetWaitCount(b), 0, "consumer counted");
        NS_TEST_ASSERT_MSG_EQ(t->IsValid(b), false, "freed");
        NS_TEST_ASSERT_MSG_EQ(t->IsFree(b), true, "freed");
        NS_TEST_ASSERT_MSG_EQ(t->GetStats().frees, 1, "one free");
        NS_TEST_ASSERT_MSG_EQ(t->GetInUse(), 0, "nothing in use");

        // The reverse order: wait first (blocked), then set_ref_counts(1, 1), then notify.
        m_released = 0;
        NS_TEST_ASSERT_MSG_EQ(t->Wait(7, MakeCallback(&BarrierOrderTestCase::Release, this), e),
                              PyxisBarrierTable::WAIT_BLOCKED,
                              "no counts yet");
        NS_TEST_ASSERT_MSG_EQ(t->GetWaitCount(7), -1, "wait before set_ref_counts");
        NS_TEST_ASSERT_MSG_EQ(t->SetRefCounts(7, 1, 1, e), true, e);
        NS_TEST_ASSERT_MSG_EQ(m_released, 0, "one producer still to come");
        NS_TEST_ASSERT_MSG_EQ(t->Notify(7, e), true, e);
        NS_TEST_ASSERT_MSG_EQ(m_released, 1, "released by the notify");
        NS_TEST_ASSERT_MSG_EQ(t->IsFree(7), true, "both counts 0: freed");

        // Through trips
        PyxisChipHelper helper;
        Ptr<PyxisChip> chip = helper.Create(0);
        TripRecorder rec;
        rec.Connect(chip);
        Ptr<PyxisBarrierTable> bt = chip->GetBarrierTable(0);
        const uint32_t x = 2;
        NS_TEST_ASSERT_MSG_EQ(bt->SetRefCounts(x, 1, 1, e), true, e);
        for (uint32_t k = 0; k < 3; ++k)
        {
            chip->Submit(0, PyxisQueueMap::Mpe(k), MakeTrip(0, {{0, b}}, k, 10 * (k + 1)));
        }
        chip->Submit(0, PyxisQueueMap::Mpe(3), MakeTrip(0, {{0, x}}, 3, 100));
        PyxisTrip config = MakeTrip(x, {}, 4, 0);
        config.configBarrier = b;
        config.notifyCount = 3;
        config.waitCount = 1;
        chip->Submit(0, PyxisQueueMap::BARRIER_CONFIG, config);
        int32_t at50 = 99;
        int32_t at200 = 99;
        bool valid200 = false;
        Simulator::Schedule(chip->Cycles(50), [&]() { at50 = bt->GetNotifyCount(b); });
        Simulator::Schedule(chip->Cycles(200), [&]() {
            at200 = bt->GetNotifyCount(b);
            valid200 = bt->IsValid(b);
        });
        Simulator::Schedule(MicroSeconds(1), [&]() {
            chip->Submit(0, PyxisQueueMap::Uie(0), MakeTrip(b, {}, 5, 10));
        });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(at50, -3, "three notifies before set_ref_counts");
        NS_TEST_ASSERT_MSG_EQ(at200, 0, "-3 + 3");
        NS_TEST_ASSERT_MSG_EQ(valid200, true, "set");
        const TripKey cfg{0, PyxisQueueMap::BARRIER_CONFIG, 4};
        NS_TEST_ASSERT_MSG_EQ(rec.start[cfg], chip->Cycles(100), "config waits for X");
        const TripKey consumer{0, PyxisQueueMap::Uie(0), 5};
        NS_TEST_ASSERT_MSG_EQ(rec.start[consumer],
                              MicroSeconds(1) + chip->Cycles(50),
                              "released at once, plus the launch");
        NS_TEST_ASSERT_MSG_EQ(bt->IsFree(b), true, "B freed");
        NS_TEST_ASSERT_MSG_EQ(bt->GetInUse(), 0, "nothing in use");
        Simulator::Destroy();
    }

    /// A go that must not come.
    void Never()
    {
        NS_TEST_EXPECT_MSG_EQ(true, false, "go callback on WAIT_GO");
    }

    /// A go.
    void Release()
    {
        ++m_released;
    }

    uint32_t m_released{0}; //!< gos received
};

/**
 * \ingroup pyxis
 * Refusals (Pyxis spec 11.4.1: a notify list of at most 8; 11.4.11: 5-bit counts, at most 31;
 * 11.6.1: 6-bit signed counts): set_ref_counts with 32 producers or 32 consumers is refused and 31
 * accepted; a second set_ref_counts before the barrier is freed is refused; ids 0 and 1024 are
 * refused; 32 notifies before set_ref_counts reach -32, the 6-bit minimum, and the 33rd is
 * refused. At enqueue: a notify list of 9 is refused and one of 8 accepted; a barrier-config
 * trip with 32 producers, a notify to cluster 4 of a 4-cluster chip, a wait on id 1024, a trip
 * to a datagram queue, an H2A of 1000 B (not 1 KB units) or of 64 MiB + 1 KB, an ICDMA of
 * 8 MiB + 128 B or with plane mask 0 are refused, each with an error naming the field.
 */
class BarrierLimitsTestCase : public TestCase
{
  public:
    BarrierLimitsTestCase()
        : TestCase("barrier and descriptor limits: counts above 31, notify lists above 8 and "
                   "bad payloads are refused with an error")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<PyxisBarrierTable> t = CreateObject<PyxisBarrierTable>();
        std::string e;
        NS_TEST_ASSERT_MSG_EQ(t->SetRefCounts(1, 32, 1, e), false, "32 producers");
        NS_TEST_ASSERT_MSG_NE(e.find("31"), std::string::npos, e);
        NS_TEST_ASSERT_MSG_EQ(t->SetRefCounts(1, 1, 32, e), false, "32 consumers");
        NS_TEST_ASSERT_MSG_EQ(t->SetRefCounts(1, 31, 31, e), true, e);
        NS_TEST_ASSERT_MSG_EQ(t->SetRefCounts(1, 1, 1, e), false, "reused before freed");
        NS_TEST_ASSERT_MSG_NE(e.find("freed before it is reused"), std::string::npos, e);
        NS_TEST_ASSERT_MSG_EQ(t->Notify(0, e), false, "id 0 is no barrier");
        NS_TEST_ASSERT_MSG_EQ(t->Notify(1024, e), false, "beyond the table");
        for (uint32_t k = 0; k < 32; ++k)
        {
            NS_TEST_ASSERT_MSG_EQ(t->Notify(2, e), true, e);
        }
        NS_TEST_ASSERT_MSG_EQ(t->GetNotifyCount(2), -32, "6-bit minimum");
        NS_TEST_ASSERT_MSG_EQ(t->Notify(2, e), false, "33rd notify before set_ref_counts");
        NS_TEST_ASSERT_MSG_EQ(t->GetStats().refusals, 6, "six refusals counted");

        PyxisChipHelper helper;
        Ptr<PyxisChip> chip = helper.Create(3);
        Ptr<PyxisTripManager> tm = chip->GetTripManager(1);
        PyxisTrip trip = MakeTrip(0, {}, 9, 100);
        for (uint32_t k = 1; k <= 9; ++k)
        {
            trip.notify.push_back({k % 4, k});
        }
        NS_TEST_ASSERT_MSG_EQ(tm->CheckTrip(PyxisQueueMap::Uie(0), trip, e), false, "9 notifies");
        NS_TEST_ASSERT_MSG_NE(e.find("at most 8"), std::string::npos, e);
        NS_TEST_ASSERT_MSG_NE(e.find("chip 3 cluster 1 queue 0x0 (uie0), trip 9"),
                              std::string::npos,
                              e);
        trip.notify.pop_back();
        NS_TEST_ASSERT_MSG_EQ(tm->CheckTrip(PyxisQueueMap::Uie(0), trip, e), true, e);
        std::vector<PyxisTrip> list{trip, trip};
        list[1].notify.push_back({0, 9});
        NS_TEST_ASSERT_MSG_EQ(tm->TryEnqueue(PyxisQueueMap::Uie(0), list, e),
                              false,
                              "a list with a bad trip is refused whole");
        NS_TEST_ASSERT_MSG_EQ(tm->GetQueue(PyxisQueueMap::Uie(0))->GetLists(), 0, "nothing in");

        PyxisTrip config = MakeTrip(0, {}, 1, 0);
        config.configBarrier = 3;
        config.notifyCount = 32;
        config.waitCount = 1;
        NS_TEST_ASSERT_MSG_EQ(tm->CheckTrip(PyxisQueueMap::BARRIER_CONFIG, config, e),
                              false,
                              "32 producers");
        NS_TEST_ASSERT_MSG_NE(e.find("31"), std::string::npos, e);
        config.notifyCount = 31;
        NS_TEST_ASSERT_MSG_EQ(tm->CheckTrip(PyxisQueueMap::BARRIER_CONFIG, config, e), true, e);

        NS_TEST_ASSERT_MSG_EQ(tm->CheckTrip(PyxisQueueMap::Uie(0), MakeTrip(0, {{4, 1}}, 1, 1), e),
                              false,
                              "cluster 4");
        NS_TEST_ASSERT_MSG_EQ(tm->CheckTrip(PyxisQueueMap::Uie(0), MakeTrip(1024, {}, 1, 1), e),
                              false,
                              "wait id 1024");
        NS_TEST_ASSERT_MSG_EQ(tm->CheckTrip(PyxisQueueMap::DATAGRAM_TX_FIRST, trip, e),
                              false,
                              "datagram queue");
        NS_TEST_ASSERT_MSG_NE(e.find("11.5.2"), std::string::npos, e);
        PyxisTrip dma = MakeTrip(0, {}, 1, 0);
        dma.bytes = 1000;
        NS_TEST_ASSERT_MSG_EQ(tm->CheckTrip(PyxisQueueMap::H2A, dma, e), false, "not 1 KB units");
        dma.bytes = (64 << 20) + 1024;
        NS_TEST_ASSERT_MSG_EQ(tm->CheckTrip(PyxisQueueMap::H2A, dma, e), false, "over 64 MiB");
        dma.bytes = 64 << 20;
        NS_TEST_ASSERT_MSG_EQ(tm->CheckTrip(PyxisQueueMap::A2H, dma, e), true, e);
        dma.bytes = (8 << 20) + 128;
        NS_TEST_ASSERT_MSG_EQ(tm->CheckTrip(PyxisQueueMap::ICDMA_FIRST, dma, e), false, "8 MiB+");
        dma.bytes = 8 << 20;
        NS_TEST_ASSERT_MSG_EQ(tm->CheckTrip(PyxisQueueMap::ICDMA_FIRST, dma, e), true, e);
        dma.planeMask = 0;
        NS_TEST_ASSERT_MSG_EQ(tm->CheckTrip(PyxisQueueMap::ICDMA_FIRST, dma, e), false, "mask 0");
        Simulator::Destroy();
    }
};

/**
 * \ingroup pyxis
 * Running out of barriers (Pyxis spec 11.6.3: 1024 barriers, id 0 reserved; the model reports
 * an exhausted table as an error rather than hang): a table of cluster 2 hands out the
 * 1023 ids 1 to 1023, each once; the 1024th allocation fails with an error naming the cluster.
 * Freeing one (set_ref_counts(id, 1, 0) then one notify: both counts 0) makes exactly that id
 * available again.
 */
class BarrierExhaustionTestCase : public TestCase
{
  public:
    BarrierExhaustionTestCase()
        : TestCase("barrier table exhaustion: 1023 ids, then an error naming the cluster")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<PyxisBarrierTable> t = CreateObject<PyxisBarrierTable>();
        t->SetAttribute("Cluster", UintegerValue(2));
        std::vector<bool> seen(1024, false);
        std::string e;
        for (uint32_t k = 0; k < 1023; ++k)
        {
            uint32_t id = 0;
            NS_TEST_ASSERT_MSG_EQ(t->TryAllocate(id, e), true, e);
            NS_TEST_ASSERT_MSG_EQ((id >= 1 && id <= 1023 && !seen[id]), true, "a new id");
            seen[id] = true;
        }
        uint32_t id = 0;
        NS_TEST_ASSERT_MSG_EQ(t->TryAllocate(id, e), false, "exhausted");
        NS_TEST_ASSERT_MSG_NE(e.find("cluster 2"), std::string::npos, e);
        NS_TEST_ASSERT_MSG_NE(e.find("exhausted"), std::string::npos, e);
        NS_TEST_ASSERT_MSG_EQ(t->GetInUse(), 1023, "all in use");
        NS_TEST_ASSERT_MSG_EQ(t->SetRefCounts(700, 1, 0, e), true, e);
        NS_TEST_ASSERT_MSG_EQ(t->Notify(700, e), true, e);
        NS_TEST_ASSERT_MSG_EQ(t->IsFree(700), true, "freed");
        NS_TEST_ASSERT_MSG_EQ(t->TryAllocate(id, e), true, e);
        NS_TEST_ASSERT_MSG_EQ(id, 700, "the freed id");
    }
};

/**
 * \ingroup pyxis
 * The descriptor ring (Pyxis spec 11.5.1): 3-bit head and tail; 4 lists fill the ring (tail 4 =
 * wrap 1, index 0; head 0: head ^ tail == 4) and a 5th is refused; fetching the 2 descriptors of
 * the head list advances the head to 1 and a list fits again (tail 5). Through the Trip Manager:
 * 6 lists of one 100-cycle MPE trip each, submitted at once, are held in the software backlog
 * while the ring is full and all run in order: trip k ends at (k + 1) x 100 cycles (MPE launch
 * and commit are 0).
 */
class DescriptorRingTestCase : public TestCase
{
  public:
    DescriptorRingTestCase()
        : TestCase("descriptor ring of 4 lists: full at head ^ tail == 4, the software backlog "
                   "feeds it")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<PyxisDescriptorQueue> q = CreateObject<PyxisDescriptorQueue>();
        std::string e;
        const std::vector<PyxisTrip> two{MakeTrip(0, {}, 1, 1), MakeTrip(0, {}, 2, 1)};
        for (uint32_t k = 0; k < 4; ++k)
        {
            NS_TEST_ASSERT_MSG_EQ(q->TryEnqueue(two, e), true, e);
        }
        NS_TEST_ASSERT_MSG_EQ(q->GetTail(), 4, "wrap bit set");
        NS_TEST_ASSERT_MSG_EQ(q->GetHead(), 0, "nothing fetched");
        NS_TEST_ASSERT_MSG_EQ(q->IsFull(), true, "head ^ tail == 4");
        NS_TEST_ASSERT_MSG_EQ(q->TryEnqueue(two, e), false, "full");
        q->Pop();
        NS_TEST_ASSERT_MSG_EQ(q->GetHead(), 0, "list not fully fetched");
        q->Pop();
        NS_TEST_ASSERT_MSG_EQ(q->GetHead(), 1, "list fetched");
        NS_TEST_ASSERT_MSG_EQ(q->TryEnqueue(two, e), true, e);
        NS_TEST_ASSERT_MSG_EQ(q->GetTail(), 5, "tail advanced");
        NS_TEST_ASSERT_MSG_EQ(q->GetLists(), 4, "4 lists");

        PyxisChipHelper helper;
        Ptr<PyxisChip> chip = helper.Create(0);
        TripRecorder rec;
        rec.Connect(chip);
        for (uint32_t k = 0; k < 6; ++k)
        {
            chip->Submit(1, PyxisQueueMap::Mpe(12), MakeTrip(0, {}, k, 100));
        }
        Simulator::Run();
        for (uint32_t k = 0; k < 6; ++k)
        {
            const TripKey key{1, PyxisQueueMap::Mpe(12), k};
            NS_TEST_ASSERT_MSG_EQ(rec.end.count(key), 1, "trip ran");
            NS_TEST_ASSERT_MSG_EQ(rec.end[key],
                                  chip->Cycles(100) * static_cast<int64_t>(k + 1),
                                  "FIFO, back to back");
        }
        NS_TEST_ASSERT_MSG_EQ(chip->GetTripManager(1)->IsIdle(), true, "all done");
        Simulator::Destroy();
    }
};

/**
 * \ingroup pyxis
 * A producer/consumer graph (Pyxis spec 11.3, 11.6.2: a consumer runs only after all its
 * producers notified; the 12 UIE trips of a cluster notifying one barrier, as the trip programs
 * of pyxis.rst do). Cluster 0: the barrier-config trip sets
 * B = (12, 1); UIE i (i = 0..11) runs a producer of 1000 + 100 i cycles notifying B; the
 * consumer, behind the producer on UIE 0's queue, waits on B. Producers go at t = 0 (no wait)
 * and start after the launch: start_i = L (L = 50 cycles), end_i = L + 1000 + 100 i cycles. The
 * last producer (i = 11) ends at L + 2100 cycles; its notify comes after the AMEM commit (C =
 * 100 cycles) and releases B; the consumer starts after the launch: exactly end_11 + C + L.
 * Producer 11 also notifies barrier D = (1, 1) of cluster 1 (a global id, 11.6.4), on which a
 * consumer on UIE 3 of cluster 1 waits: it starts at the same time. Both barriers are freed
 * after their consumers went.
 */
class ProducerConsumerTestCase : public TestCase
{
  public:
    ProducerConsumerTestCase()
        : TestCase(
              "producer-consumer graph: 12 UIE trips notify one barrier, the consumer starts at "
              "the last end + commit + launch")
    {
    }

  private:
    void DoRun() override
    {
        PyxisChipHelper helper;
        Ptr<PyxisChip> chip = helper.Create(0);
        TripRecorder rec;
        rec.Connect(chip);
        const uint32_t b = chip->GetBarrierTable(0)->Allocate();
        const uint32_t d = chip->GetBarrierTable(1)->Allocate();
        std::string e;
        NS_TEST_ASSERT_MSG_EQ(chip->GetBarrierTable(1)->SetRefCounts(d, 1, 1, e), true, e);
        PyxisTrip config = MakeTrip(0, {}, 100, 0);
        config.configBarrier = b;
        config.notifyCount = 12;
        config.waitCount = 1;
        chip->Submit(0, PyxisQueueMap::BARRIER_CONFIG, config);
        for (uint32_t i = 0; i < 12; ++i)
        {
            std::vector<PyxisBarrierRef> notify{{0, b}};
            if (i == 11)
            {
                notify.push_back(PyxisBarrierRef::FromGlobalId((1 << 10) | d));
            }
            chip->Submit(0, PyxisQueueMap::Uie(i), MakeTrip(0, notify, i, 1000 + 100 * i));
        }
        chip->Submit(0, PyxisQueueMap::Uie(0), MakeTrip(b, {}, 50, 500));
        chip->Submit(1, PyxisQueueMap::Uie(3), MakeTrip(d, {}, 51, 10));
        Simulator::Run();
        const Time l = chip->Cycles(50);
        const Time c = chip->Cycles(100);
        for (uint32_t i = 0; i < 12; ++i)
        {
            const TripKey key{0, PyxisQueueMap::Uie(i), i};
            NS_TEST_ASSERT_MSG_EQ(rec.start[key], l, "producers start after the launch");
            NS_TEST_ASSERT_MSG_EQ(rec.end[key], l + chip->Cycles(1000 + 100 * i), "duration");
        }
        const Time last = rec.end[TripKey(0, PyxisQueueMap::Uie(11), 11)];
        const Time consumer = rec.start[TripKey(0, PyxisQueueMap::Uie(0), 50)];
        NS_TEST_ASSERT_MSG_EQ(consumer, last + c + l, "last end + commit + launch");
        NS_TEST_ASSERT_MSG_EQ(rec.end[TripKey(0, PyxisQueueMap::Uie(0), 50)],
                              consumer + chip->Cycles(500),
                              "consumer duration");
        NS_TEST_ASSERT_MSG_EQ(rec.start[TripKey(1, PyxisQueueMap::Uie(3), 51)],
                              last + c + l,
                              "cross-cluster notify");
        NS_TEST_ASSERT_MSG_EQ(chip->GetBarrierTable(0)->IsFree(b), true, "B freed");
        NS_TEST_ASSERT_MSG_EQ(chip->GetBarrierTable(1)->IsFree(d), true, "D freed");
        NS_TEST_ASSERT_MSG_EQ(chip->GetTripManager(0)->GetStats().notifies, 13, "12 + 1");
        Simulator::Destroy();
    }
};

/**
 * \ingroup pyxis
 * UIE completion tracking ids (Pyxis spec 11.7.1: 3 per UIE; a trip holds one from its start to
 * its done, commit C = 100 cycles included). With the default launch of 50 cycles the limit
 * never binds: the trip after next's go comes at a dispatch, so trips start at least
 * max(d, 50) cycles apart (d its duration) and trip k + 3 starts at least 3 max(d, 50) after
 * trip k, later than trip k's done (d + 100) for every d: the spec's sizing argument. So the
 * test sets LaunchCycles 0 on UIEs 4 and 5 and runs five 10-cycle trips without wait on each:
 * on UIE 4 trips 0, 1, 2 start at 0, 10, 20 cycles; trip 3 would start at 30 but trips 0-2 are
 * all still committing (3 ids held): it starts when trip 0 is done, 10 + C cycles; trip 4
 * starts at trip 3's end (trips 0 and 1 done by then). On UIE 5, with TrackingIds 100, trip 3
 * starts at 30 cycles.
 */
class UieTrackingIdsTestCase : public TestCase
{
  public:
    UieTrackingIdsTestCase()
        : TestCase("UIE tracking ids: a 4th short trip waits for the first trip's commit")
    {
    }

  private:
    void DoRun() override
    {
        PyxisChipHelper helper;
        Ptr<PyxisChip> chip = helper.Create(0);
        TripRecorder rec;
        rec.Connect(chip);
        chip->GetEngine(0, PyxisQueueMap::Uie(5))->SetAttribute("TrackingIds", UintegerValue(100));
        for (uint32_t u : {4U, 5U})
        {
            chip->GetEngine(0, PyxisQueueMap::Uie(u))
                ->SetAttribute("LaunchCycles", UintegerValue(0));
        }
        for (uint32_t u : {4U, 5U})
        {
            std::vector<PyxisTrip> list;
            for (uint32_t k = 0; k < 5; ++k)
            {
                list.push_back(MakeTrip(0, {}, k, 10));
            }
            chip->Submit(0, PyxisQueueMap::Uie(u), list);
        }
        Simulator::Run();
        const Time c10 = chip->Cycles(10);
        const Time c = chip->Cycles(100);
        auto s = [&](uint32_t u, uint32_t k) {
            return rec.start[TripKey(0, PyxisQueueMap::Uie(u), k)];
        };
        auto e = [&](uint32_t u, uint32_t k) {
            return rec.end[TripKey(0, PyxisQueueMap::Uie(u), k)];
        };
        NS_TEST_ASSERT_MSG_EQ(s(4, 0), Time(0), "no launch");
        NS_TEST_ASSERT_MSG_EQ(s(4, 1), c10, "back to back");
        NS_TEST_ASSERT_MSG_EQ(s(4, 2), c10 + c10, "back to back");
        NS_TEST_ASSERT_MSG_EQ(s(4, 3), c10 + c, "waits for trip 0's commit");
        NS_TEST_ASSERT_MSG_EQ(s(4, 4), e(4, 3), "trips 0 and 1 done by then");
        NS_TEST_ASSERT_MSG_EQ(s(5, 3), c10 + c10 + c10, "no tracking-id limit");
        Simulator::Destroy();
    }
};

/**
 * \ingroup pyxis
 * HBM DMA (Pyxis spec 8, 12.1; pyxis.rst, Validation, "DMA"). T = setup + bytes / (B x eta),
 * B = 1228.8 GB/s, setup 100 cycles = 75,188 ps, eta = 0.9 from 100 KiB:
 * - H2A of 1 MiB alone: 1,048,576 / (1228.8e9 x 0.9) = 948,148 ps; T = 1,023,336 ps, above the
 *   device's bound (section 8: 1024 pins x 9.6 Gb/s = 1228.8 GB/s), 1 MiB / 1228.8 GB/s =
 *   853,333 ps (0.853 us).
 * - H2A and A2H of 1 MiB together share the half-duplex device 0.5/0.5 (ReadShare): each moves
 *   at half the rate, T = 75,188 + 2 x 948,148 = 1,971,484 ps (rounding: 1,896,296).
 * - H2A of 10 KiB: eta = 0.3 + 0.6 x 10,240 / 102,400 = 0.36 (the assumed ramp): 10,240 /
 *   (1228.8e9 x 0.36) = 23,148 ps; T = 98,336 ps.
 * Tolerance 2 ps (rounding of fluid rates).
 */
class HbmDmaTestCase : public TestCase
{
  public:
    HbmDmaTestCase()
        : TestCase("HBM DMA: H2A of 1 MiB takes setup + bytes over 1228.8 GB per s x 0.9, at least "
                   "0.853 us; H2A and A2H share the half-duplex bus")
    {
    }

  private:
    void DoRun() override
    {
        PyxisChipHelper helper;
        Ptr<PyxisChip> chip = helper.Create(0);
        TripRecorder rec;
        rec.Connect(chip);
        PyxisTrip t = MakeTrip(0, {}, 1, 0);
        t.bytes = 1 << 20;
        chip->Submit(0, PyxisQueueMap::H2A, t);
        chip->Submit(1, PyxisQueueMap::H2A, t);
        chip->Submit(1, PyxisQueueMap::A2H, t);
        t.bytes = 10 << 10;
        t.tripId = 2;
        chip->Submit(2, PyxisQueueMap::H2A, t);
        Simulator::Run();
        const double setup = 75188;
        const double alone = 1048576.0 / (1228.8e9 * 0.9) * 1e12;
        const Time h2a = rec.end[TripKey(0, PyxisQueueMap::H2A, 1)] -
                         rec.start[TripKey(0, PyxisQueueMap::H2A, 1)];
        NS_TEST_ASSERT_MSG_EQ(chip->Cycles(100), Ps(setup), "setup");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(h2a, Ps(1048576.0 / 1228.8e9 * 1e12), "HBM bound");
        NS_TEST_ASSERT_MSG_EQ_TOL(h2a, Ps(1023336), Ps(2), "setup + 948,148 ps");
        NS_TEST_ASSERT_MSG_EQ_TOL(h2a, Ps(setup + alone), Ps(2), "closed form");
        for (const uint32_t q : {PyxisQueueMap::H2A, PyxisQueueMap::A2H})
        {
            NS_TEST_ASSERT_MSG_EQ_TOL(rec.end[TripKey(1, q, 1)],
                                      Ps(setup + 2 * alone),
                                      Ps(2),
                                      "half the device each");
        }
        NS_TEST_ASSERT_MSG_EQ_TOL(rec.end[TripKey(2, PyxisQueueMap::H2A, 2)],
                                  Ps(setup + 10240.0 / (1228.8e9 * 0.36) * 1e12),
                                  Ps(2),
                                  "small trip: eta 0.36");
        Simulator::Destroy();
    }
};

/**
 * \ingroup pyxis
 * Inter-cluster DMA through the Core Switch (Pyxis spec 5.2, 9, 12.2; pyxis.rst, Validation,
 * "DMA").
 * Every flow is 1 MiB; an ICDMA engine moves at most 128 B per cycle; a switch port of one
 * plane carries 128 B per cycle and a flow spreads evenly over the planes of its mask.
 * - one ICDMA, all planes: 1,048,576 / 128 = 8192 cycles = 6,159,398 ps (6.16 us);
 * - two into cluster 0 (from 1 and 2), all planes: the ingress is 4 x 128 = 512 B per cycle,
 *   more than 2 x 128: 8192 cycles each;
 * - the same on plane 0 only: they share one 128 B port: 64 B per cycle, 16,384 cycles;
 * - three into cluster 0 (from 1, 2, 3) on planes 0-1: 256 B per cycle for three: 85.33 B per
 *   cycle, 12,288 cycles;
 * - cluster 0's three engines (to 1, 2, 3) on plane 0: they share its egress port, 128/3 B per
 *   cycle, 24,576 cycles.
 * Tolerance 2 ps.
 */
class IcdmaTestCase : public TestCase
{
  public:
    /**
     * \param name the case
     * \param flows (source, destination) clusters
     * \param mask plane mask
     * \param cycles expected cycles of each flow
     */
    IcdmaTestCase(std::string name,
                  std::vector<std::pair<uint32_t, uint32_t>> flows,
                  uint32_t mask,
                  double cycles)
        : TestCase("ICDMA of 1 MiB: " + name),
          m_flows(flows),
          m_mask(mask),
          m_cycles(cycles)
    {
    }

  private:
    void DoRun() override
    {
        PyxisChipHelper helper;
        Ptr<PyxisChip> chip = helper.Create(0);
        TripRecorder rec;
        rec.Connect(chip);
        for (const auto& [s, d] : m_flows)
        {
            PyxisTrip t = MakeTrip(0, {}, 7, 0);
            t.bytes = 1 << 20;
            t.planeMask = m_mask;
            chip->Submit(s, PyxisQueueMap::Icdma(s, d), t);
        }
        double rate = 0;
        Simulator::Schedule(MicroSeconds(1), [&]() {
            Ptr<PyxisIcdmaEngine> e = DynamicCast<PyxisIcdmaEngine>(
                chip->GetEngine(m_flows[0].first,
                                PyxisQueueMap::Icdma(m_flows[0].first, m_flows[0].second)));
            rate = chip->GetCoreSwitch()->GetFlowRate(e->GetFlow());
        });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ_TOL(rate, 1048576.0 / m_cycles, 1e-6, "fair share");
        for (const auto& [s, d] : m_flows)
        {
            const TripKey key{s, PyxisQueueMap::Icdma(s, d), 7};
            NS_TEST_ASSERT_MSG_EQ(rec.start[key], Time(0), "no setup");
            NS_TEST_ASSERT_MSG_EQ_TOL(rec.end[key],
                                      Ps(m_cycles * 1000 / 1.33),
                                      Ps(2),
                                      "bytes / fair share");
        }
        if (m_flows.size() == 1)
        {
            const TripKey key{m_flows[0].first,
                              PyxisQueueMap::Icdma(m_flows[0].first, m_flows[0].second),
                              7};
            NS_TEST_ASSERT_MSG_EQ_TOL(rec.end[key], Ps(6159398), Ps(2), "8192 cycles = 6.16 us");
        }
        Simulator::Destroy();
    }

    std::vector<std::pair<uint32_t, uint32_t>> m_flows; //!< the flows
    uint32_t m_mask;                                    //!< plane mask
    double m_cycles;                                    //!< expected cycles
};

/**
 * \ingroup pyxis
 * Trip flush (Pyxis spec 11.8). Cluster 0 at flush time, 1000 cycles:
 * - UIE 0 runs R (10,000 cycles, started at L = 50) notifying B1 = (1, 1); behind it trip 7
 *   without wait, released at once and waiting only for the busy UIE: past its wait, it runs
 *   after R (start = end_R, 100 cycles);
 * - UIE 1's head W waits on B2 = (1, 1), never notified; trips 3 and 4 are queued behind it;
 * - UIE 2's trip 5 waits on B1 (not yet notified);
 * - MPE 0 runs trip 6 (5000 cycles).
 * The flush discards W, 3, 4 and 5 without notify (4 discards; B3, which W would notify, is
 * never notified); a trip submitted during the flush (trip 9, at 2000 cycles) is discarded too (5).
 * R, 6 and 7 finish normally. Cluster 0 is drained when trip 7 is done: end_R + 100 + C
 * cycles (C = 100, commit); the other clusters at once. Then the barrier tables are cleared
 * (every barrier free) and FlushDone fires at that time. A trip submitted 1 us later runs
 * normally: start = 1 us + L after FlushDone.
 */
class TripFlushTestCase : public TestCase
{
  public:
    TripFlushTestCase()
        : TestCase("trip flush: trips before their barrier wait are discarded without notify, "
                   "running ones finish, then the barrier tables are cleared")
    {
    }

  private:
    void DoRun() override
    {
        PyxisChipHelper helper;
        Ptr<PyxisChip> chip = helper.Create(0);
        TripRecorder rec;
        rec.Connect(chip);
        Time flushDone;
        chip->TraceConnectWithoutContext("FlushDone",
                                         MakeCallback(&TripFlushTestCase::OnFlushDone, this));
        Ptr<PyxisBarrierTable> bt = chip->GetBarrierTable(0);
        std::string e;
        const uint32_t b1 = 1;
        const uint32_t b2 = 2;
        const uint32_t b3 = 3;
        for (uint32_t b : {b1, b2, b3})
        {
            NS_TEST_ASSERT_MSG_EQ(bt->SetRefCounts(b, 1, 1, e), true, e);
        }
        chip->Submit(0,
                     PyxisQueueMap::Uie(0),
                     {MakeTrip(0, {{0, b1}}, 1, 10000), MakeTrip(0, {}, 7, 100)});
        chip->Submit(0,
                     PyxisQueueMap::Uie(1),
                     {MakeTrip(b2, {{0, b3}}, 2, 100), MakeTrip(0, {}, 3, 100)});
        chip->Submit(0, PyxisQueueMap::Uie(1), MakeTrip(0, {}, 4, 100));
        chip->Submit(0, PyxisQueueMap::Uie(2), MakeTrip(b1, {}, 5, 100));
        chip->Submit(0, PyxisQueueMap::Mpe(0), MakeTrip(0, {}, 6, 5000));
        Simulator::Schedule(chip->Cycles(1000), &PyxisChip::Flush, chip);
        Simulator::Schedule(chip->Cycles(2000), [&]() {
            NS_TEST_EXPECT_MSG_EQ(chip->IsFlushing(), true, "flush running");
            chip->Submit(0, PyxisQueueMap::Uie(5), MakeTrip(0, {}, 9, 100));
        });
        Simulator::Run();
        const Time l = chip->Cycles(50);
        const Time c = chip->Cycles(100);
        const Time endR = l + chip->Cycles(10000);
        NS_TEST_ASSERT_MSG_EQ(rec.end[TripKey(0, PyxisQueueMap::Uie(0), 1)], endR, "R finished");
        NS_TEST_ASSERT_MSG_EQ(rec.end[TripKey(0, PyxisQueueMap::Mpe(0), 6)],
                              chip->Cycles(5000),
                              "trip 6 finished");
        NS_TEST_ASSERT_MSG_EQ(rec.start[TripKey(0, PyxisQueueMap::Uie(0), 7)],
                              endR,
                              "7 was past its wait");
        for (uint32_t id : {2U, 3U, 4U})
        {
            NS_TEST_ASSERT_MSG_EQ(rec.start.count(TripKey(0, PyxisQueueMap::Uie(1), id)),
                                  0,
                                  "discarded");
        }
        NS_TEST_ASSERT_MSG_EQ(rec.start.count(TripKey(0, PyxisQueueMap::Uie(2), 5)),
                              0,
                              "discarded");
        NS_TEST_ASSERT_MSG_EQ(rec.start.count(TripKey(0, PyxisQueueMap::Uie(5), 9)),
                              0,
                              "discarded");
        NS_TEST_ASSERT_MSG_EQ(chip->GetTripManager(0)->GetStats().discarded, 5, "W, 3, 4, 5, 9");
        NS_TEST_ASSERT_MSG_EQ(m_flushDone.size(), 1, "one FlushDone");
        NS_TEST_ASSERT_MSG_EQ(m_flushDone[0], endR + chip->Cycles(100) + c, "7 done");
        NS_TEST_ASSERT_MSG_EQ(bt->GetInUse(), 0, "table cleared");
        NS_TEST_ASSERT_MSG_EQ(bt->IsFree(b2), true, "B2 cleared");
        NS_TEST_ASSERT_MSG_EQ(chip->IsFlushing(), false, "flush over");

        // after the flush the chip runs trips again
        Simulator::Schedule(MicroSeconds(1), [&]() {
            chip->Submit(0, PyxisQueueMap::Uie(1), MakeTrip(0, {}, 8, 100));
        });
        const Time again = Simulator::Now() + MicroSeconds(1);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(rec.start[TripKey(0, PyxisQueueMap::Uie(1), 8)],
                              again + l,
                              "runs again");
        Simulator::Destroy();
    }

    /// FlushDone sink.
    void OnFlushDone(uint32_t)
    {
        m_flushDone.push_back(Simulator::Now());
    }

    std::vector<Time> m_flushDone; //!< FlushDone times
};

/**
 * \ingroup pyxis
 * The RDMA interface (Pyxis spec 10.7.1.1, 10.8.1.1: RDMA completions are notified by the job
 * managers, out of order). Two RDMA Tx trips on queue 0x0C notify B = (2, 1): both go to the
 * job handler at t = 0 (the queue does not wait for the first job). The handler completes trip
 * 2 at 1 us and trip 1 at 2 us; the TripEnd traces carry those times (RDMA commit 0: RxDMA
 * tracks commits itself). A UIE trip waiting on B starts at 2 us + L (50 cycles). A third trip
 * on the Rx queue 0x0E notifying B2 = (1, 1) fails (FailJob): B2 is not notified and its
 * consumer never starts.
 */
class RdmaInterfaceTestCase : public TestCase
{
  public:
    RdmaInterfaceTestCase()
        : TestCase("RDMA interface: jobs handed over at once, completed out of order, a failed "
                   "job notifies nothing")
    {
    }

  private:
    void DoRun() override
    {
        PyxisChipHelper helper;
        Ptr<PyxisChip> chip = helper.Create(0);
        TripRecorder rec;
        rec.Connect(chip);
        chip->SetRdmaJobHandler(MakeCallback(&RdmaInterfaceTestCase::Handle, this));
        std::string e;
        Ptr<PyxisBarrierTable> bt = chip->GetBarrierTable(2);
        NS_TEST_ASSERT_MSG_EQ(bt->SetRefCounts(4, 2, 1, e), true, e);
        NS_TEST_ASSERT_MSG_EQ(bt->SetRefCounts(5, 1, 1, e), true, e);
        PyxisTrip t = MakeTrip(0, {{2, 4}}, 1, 0);
        t.bytes = 1 << 20;
        chip->Submit(2, PyxisQueueMap::RdmaTx(0), t);
        t.tripId = 2;
        chip->Submit(2, PyxisQueueMap::RdmaTx(0), t);
        t.tripId = 3;
        t.notify = {{2, 5}};
        chip->Submit(2, PyxisQueueMap::RdmaRx(0), t);
        chip->Submit(2, PyxisQueueMap::Uie(0), MakeTrip(4, {}, 10, 10));
        chip->Submit(2, PyxisQueueMap::Uie(1), MakeTrip(5, {}, 11, 10));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(m_handed, 3, "three jobs handed over");
        NS_TEST_ASSERT_MSG_EQ(rec.start[TripKey(2, PyxisQueueMap::RdmaTx(0), 2)],
                              Time(0),
                              "at once");
        NS_TEST_ASSERT_MSG_EQ(rec.end[TripKey(2, PyxisQueueMap::RdmaTx(0), 2)],
                              MicroSeconds(1),
                              "first");
        NS_TEST_ASSERT_MSG_EQ(rec.end[TripKey(2, PyxisQueueMap::RdmaTx(0), 1)],
                              MicroSeconds(2),
                              "second");
        NS_TEST_ASSERT_MSG_EQ(rec.start[TripKey(2, PyxisQueueMap::Uie(0), 10)],
                              MicroSeconds(2) + chip->Cycles(50),
                              "after both");
        NS_TEST_ASSERT_MSG_EQ(rec.start.count(TripKey(2, PyxisQueueMap::Uie(1), 11)), 0, "never");
        NS_TEST_ASSERT_MSG_EQ(bt->GetNotifyCount(5), 1, "not notified");
        NS_TEST_ASSERT_MSG_EQ(chip->GetTripManager(2)->GetStats().failed, 1, "one failed");
        Simulator::Destroy();
    }

    /**
     * The job handler.
     * \param engine the RDMA queue's engine
     * \param trip the job
     */
    void Handle(Ptr<PyxisRdmaEngine> engine, const PyxisTrip& trip)
    {
        ++m_handled;
        ++m_handed;
        if (trip.tripId == 3)
        {
            Simulator::Schedule(MicroSeconds(1), &PyxisRdmaEngine::FailJob, engine, 3);
            return;
        }
        Simulator::Schedule(MicroSeconds(trip.tripId == 2 ? 1 : 2),
                            &PyxisRdmaEngine::CompleteJob,
                            engine,
                            trip.tripId);
    }

    uint32_t m_handled{0}; //!< handler calls
    uint32_t m_handed{0};  //!< jobs handed over
};

/**
 * \ingroup pyxis
 * The pyxis-trips test suite.
 */
class PyxisTripsTestSuite : public PicosecondTestSuite
{
  public:
    PyxisTripsTestSuite()
        : PicosecondTestSuite("pyxis-trips", UNIT)
    {
        AddTestCase(new BarrierOrderTestCase, TestCase::QUICK);
        AddTestCase(new BarrierLimitsTestCase, TestCase::QUICK);
        AddTestCase(new BarrierExhaustionTestCase, TestCase::QUICK);
        AddTestCase(new DescriptorRingTestCase, TestCase::QUICK);
        AddTestCase(new ProducerConsumerTestCase, TestCase::QUICK);
        AddTestCase(new UieTrackingIdsTestCase, TestCase::QUICK);
        AddTestCase(new HbmDmaTestCase, TestCase::QUICK);
        AddTestCase(new IcdmaTestCase("one engine alone, 8192 cycles", {{0, 1}}, 0xF, 8192),
                    TestCase::QUICK);
        AddTestCase(new IcdmaTestCase("two into one cluster on 4 planes, ingress not binding",
                                      {{1, 0}, {2, 0}},
                                      0xF,
                                      8192),
                    TestCase::QUICK);
        AddTestCase(new IcdmaTestCase("two into one cluster on plane 0 share its ingress port",
                                      {{1, 0}, {2, 0}},
                                      0x1,
                                      16384),
                    TestCase::QUICK);
        AddTestCase(new IcdmaTestCase("three into one cluster on planes 0-1 share its ingress",
                                      {{1, 0}, {2, 0}, {3, 0}},
                                      0x3,
                                      12288),
                    TestCase::QUICK);
        AddTestCase(new IcdmaTestCase("three out of one cluster on plane 0 share its egress",
                                      {{0, 1}, {0, 2}, {0, 3}},
                                      0x1,
                                      24576),
                    TestCase::QUICK);
        AddTestCase(new TripFlushTestCase, TestCase::QUICK);
        AddTestCase(new RdmaInterfaceTestCase, TestCase::QUICK);
    }
};

/// The one instance.
PyxisTripsTestSuite g_pyxisTripsTestSuite;

} // namespace
