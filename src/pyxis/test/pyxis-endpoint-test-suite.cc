/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Suite pyxis-endpoint: PyxisEndpointBinding, the RDMA queues of two chips on the endpoint API,
// over an ideal two-endpoint fabric of known timing (a message of b bytes is delivered
// LATENCY + b ns after its post and completes ACK later), so that every expected time is a sum
// of stated delays. The fabrics of the pod (SUE, UALink, the cell fabric) are exercised by the
// cross-module suite pyxis-cross-fabric (test/).

#include "ns3/fabric-endpoint.h"
#include "ns3/picosecond-test-suite.h"
#include "ns3/pyxis-barrier-table.h"
#include "ns3/pyxis-chip-helper.h"
#include "ns3/pyxis-chip.h"
#include "ns3/pyxis-endpoint-binding.h"
#include "ns3/pyxis-queue-map.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

using namespace ns3;

namespace
{

/// One-way time of a message before its bytes (ns).
constexpr int64_t LATENCY_NS = 1000;
/// Completion after delivery (ns): the sender's acknowledgement.
constexpr int64_t ACK_NS = 500;

/**
 * An ideal fabric endpoint: a message of b bytes is delivered to its peer LATENCY_NS + b ns
 * after its post (1 B/ns) and completes ACK_NS later.
 */
class IdealEndpoint : public FabricEndpoint
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::PyxisTestIdealEndpoint")
                                .SetParent<FabricEndpoint>()
                                .SetGroupName("Pyxis")
                                .AddConstructor<IdealEndpoint>();
        return tid;
    }

    /// \param peers the endpoints, by accelerator id
    void SetPeers(const std::vector<Ptr<IdealEndpoint>>* peers)
    {
        m_peers = peers;
    }

    double GetCongestionState(uint32_t /* dst */) const override
    {
        return 0;
    }

  private:
    void DoSend(const FabricMessage& m) override
    {
        const Time arrive = NanoSeconds(LATENCY_NS + static_cast<int64_t>(m.bytes));
        Simulator::Schedule(arrive, &IdealEndpoint::Arrive, (*m_peers)[m.dst], m);
        Simulator::Schedule(arrive + NanoSeconds(ACK_NS), &IdealEndpoint::Complete, this, m);
    }

    /// \param m a message for this endpoint: delivered now
    void Arrive(FabricMessage m)
    {
        m.delivered = Simulator::Now();
        CountReceivedPayload(m.bytes);
        NotifyDelivered(m);
    }

    /// \param m a message of this endpoint: completed now
    void Complete(FabricMessage m)
    {
        m.completed = Simulator::Now();
        NotifyCompleted(m);
    }

    const std::vector<Ptr<IdealEndpoint>>* m_peers{nullptr}; //!< the endpoints
};

/// (chip, queue, trip id)
using TripKey = std::tuple<uint32_t, uint32_t, uint32_t>;

/// Records the chips' TripStart and TripEnd traces.
struct Trips
{
    std::map<TripKey, Time> start; //!< start by trip
    std::map<TripKey, Time> end;   //!< end by trip

    /// TripEnd sink.
    void OnEnd(uint32_t chip, uint32_t, uint32_t queue, uint32_t id, Time s, Time e)
    {
        start[{chip, queue, id}] = s;
        end[{chip, queue, id}] = e;
    }
};

/**
 * \param id trip id
 * \param bytes RDMA bytes
 * \param tjid Tx job id
 * \param rjid Rx job id
 * \param voq the VOQ (Tx: destination; Rx: message VOQ back to the sender)
 * \param wait local barrier to wait on (0: none)
 * \return an RDMA trip
 */
PyxisTrip
Rdma(uint32_t id, uint64_t bytes, uint32_t tjid, uint32_t rjid, uint32_t voq, uint32_t wait = 0)
{
    PyxisTrip t;
    t.tripId = id;
    t.bytes = bytes;
    t.tjid = tjid;
    t.rjid = rjid;
    t.voq = voq;
    t.waitBarrier = wait;
    return t;
}

} // namespace

/**
 * Tx trips are messages that complete with them; Rx trips complete at the delivery of the
 * message of their identity, whether posted before it arrives or after.
 */
class PyxisEndpointBindingTestCase : public TestCase
{
  public:
    PyxisEndpointBindingTestCase()
        : TestCase("endpoint binding: Tx = message, Rx = delivery of its message, before or after")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<Ptr<IdealEndpoint>> eps;
        std::vector<Ptr<PyxisChip>> chips;
        std::vector<Ptr<PyxisEndpointBinding>> bindings;
        Trips trips;
        // accelerator ids 10 and 11 hold chips 0 and 1: the binding maps between them
        const std::vector<uint32_t> accelerators{10, 11};
        std::vector<Ptr<IdealEndpoint>> byAccelerator(12);
        for (uint32_t i = 0; i < 2; ++i)
        {
            eps.push_back(CreateObject<IdealEndpoint>());
            eps[i]->SetAcceleratorId(accelerators[i]);
            eps[i]->SetPeers(&byAccelerator);
            byAccelerator[accelerators[i]] = eps[i];
            chips.push_back(PyxisChipHelper().Create(i));
            bindings.push_back(CreateObject<PyxisEndpointBinding>());
            bindings[i]->Bind(chips[i], eps[i], accelerators);
            chips[i]->TraceConnectWithoutContext("TripEnd", MakeCallback(&Trips::OnEnd, &trips));
        }
        const uint32_t tx = PyxisQueueMap::RdmaTx(0);
        const uint32_t rx = PyxisQueueMap::RdmaRx(0);
        // the VOQ table's default map (Pyxis spec 10.2): (chip x 4 + cluster) x 4 + OQ
        const uint32_t toChip1 = bindings[0]->GetVoq(1, 0, 1);
        const uint32_t backTo0 = bindings[1]->GetVoq(0, 0, 0);
        NS_TEST_ASSERT_MSG_EQ(toChip1, (1 * 4 + 0) * 4 + 1, "VOQ of chip 1 cluster 0 OQ 1");
        NS_TEST_ASSERT_MSG_EQ(backTo0, 0, "VOQ of chip 0 cluster 0 OQ 0");
        NS_TEST_ASSERT_MSG_EQ(bindings[0]->GetVoq(2, 0, 0), UINT32_MAX, "no chip 2");
        // A (pre-posted): 4096 B, Rx trip waiting from t = 0
        chips[0]->Submit(0, tx, Rdma(1, 4096, 3, 5, toChip1));
        chips[1]->Submit(0, rx, Rdma(1, 4096, 3, 5, backTo0));
        // B (early message): 4096 B sent at t = 0; its Rx trip waits on a barrier that an MPE
        // trip of 10,000 cycles (7,518.797 ns; MPE launch and commit 0) notifies, after the
        // message's delivery at 1000 + 4096 ns
        Ptr<PyxisBarrierTable> table = chips[1]->GetBarrierTable(0);
        const uint32_t gate = table->Allocate();
        std::string error;
        NS_TEST_ASSERT_MSG_EQ(table->SetRefCounts(gate, 1, 1, error), true, error);
        PyxisTrip mpe;
        mpe.tripId = 2;
        mpe.cycles = 10000;
        mpe.notify = {PyxisBarrierRef{0, gate}};
        chips[1]->Submit(0, PyxisQueueMap::Mpe(0), mpe);
        chips[0]->Submit(0, tx, Rdma(2, 4096, 4, 6, toChip1));
        chips[1]->Submit(0, PyxisQueueMap::RdmaRx(1), Rdma(2, 4096, 4, 6, backTo0, gate));
        // C: two messages of 256 and 128 B (TJID = RJID 8 and 7), Rx trips posted in the other
        // order: each takes the message of its identity
        chips[0]->Submit(0, tx, Rdma(3, 256, 8, 8, toChip1));
        chips[0]->Submit(0, tx, Rdma(4, 128, 7, 7, toChip1));
        chips[1]->Submit(0, rx, Rdma(3, 128, 7, 7, backTo0));
        chips[1]->Submit(0, rx, Rdma(4, 256, 8, 8, backTo0));
        // D: an Rx trip whose message never comes stays open
        chips[1]->Submit(0, rx, Rdma(5, 128, 9, 9, backTo0));
        // F: across clusters, with A's TJID and RJID: chip 0 cluster 1 to chip 1 cluster 2; the
        // channel is the clusters' too (Pyxis spec 10.4), so A's and F's jobs stay apart
        chips[0]->Submit(1, tx, Rdma(6, 512, 3, 5, bindings[0]->GetVoq(1, 2, 1)));
        chips[1]->Submit(2, rx, Rdma(6, 512, 3, 5, bindings[1]->GetVoq(0, 1, 0)));
        // E: a message of another workload (no COOKIE_FLAG) is ignored
        eps[0]->Send(11, 1000, 0, 42);
        Simulator::Run();

        const Time mpeEnd = chips[1]->Cycles(10000);
        // A: delivered at 1000 + 4096 ns, completed 500 ns later
        NS_TEST_ASSERT_MSG_EQ(trips.end[TripKey(1, rx, 1)], NanoSeconds(5096), "A: Rx at delivery");
        NS_TEST_ASSERT_MSG_EQ(trips.start[TripKey(1, rx, 1)], Time(0), "A: Rx posted at 0");
        NS_TEST_ASSERT_MSG_EQ(trips.end[TripKey(0, tx, 1)],
                              NanoSeconds(5596),
                              "A: Tx at completion");
        // B: the Rx trip is posted after its message arrived and completes when posted
        NS_TEST_ASSERT_MSG_EQ(trips.start[TripKey(1, PyxisQueueMap::RdmaRx(1), 2)],
                              mpeEnd,
                              "B: posted at the MPE trip's end");
        NS_TEST_ASSERT_MSG_EQ(trips.end[TripKey(1, PyxisQueueMap::RdmaRx(1), 2)],
                              mpeEnd,
                              "B: completes when posted");
        NS_TEST_ASSERT_MSG_EQ(trips.end[TripKey(0, tx, 2)],
                              NanoSeconds(5596),
                              "B: Tx at completion");
        // C: identity, not order
        NS_TEST_ASSERT_MSG_EQ(trips.end[TripKey(1, rx, 3)], NanoSeconds(1128), "C: 128 B message");
        NS_TEST_ASSERT_MSG_EQ(trips.end[TripKey(1, rx, 4)], NanoSeconds(1256), "C: 256 B message");
        NS_TEST_ASSERT_MSG_EQ(trips.end.count(TripKey(1, rx, 5)), 0, "D: never completes");
        NS_TEST_ASSERT_MSG_EQ(trips.end[TripKey(1, rx, 6)], NanoSeconds(1512), "F: 512 B message");
        NS_TEST_ASSERT_MSG_EQ(trips.end[TripKey(0, tx, 6)], NanoSeconds(2012), "F: Tx");

        const PyxisEndpointBinding::Stats& s0 = bindings[0]->GetStats();
        const PyxisEndpointBinding::Stats& s1 = bindings[1]->GetStats();
        NS_TEST_ASSERT_MSG_EQ(s0.txPosted, 5, "5 Tx trips sent");
        NS_TEST_ASSERT_MSG_EQ(s0.txCompleted, 5, "5 Tx trips completed");
        NS_TEST_ASSERT_MSG_EQ(s0.txBytes, 4096 + 4096 + 256 + 128 + 512, "Tx bytes");
        NS_TEST_ASSERT_MSG_EQ(s1.rxPosted, 6, "6 Rx trips posted");
        NS_TEST_ASSERT_MSG_EQ(s1.rxCompleted, 5, "5 Rx trips completed");
        NS_TEST_ASSERT_MSG_EQ(s1.rxBytes, s0.txBytes, "every byte sent is received");
        NS_TEST_ASSERT_MSG_EQ(s1.early, 1, "one message before its Rx trip (B)");
        NS_TEST_ASSERT_MSG_EQ(bindings[0]->GetOpenJobs(), 0, "no Tx job open");
        NS_TEST_ASSERT_MSG_EQ(bindings[1]->GetOpenJobs(), 1, "D open");
        NS_TEST_ASSERT_MSG_EQ(bindings[1]->GetUnclaimedMessages(), 0, "E ignored");
        NS_TEST_ASSERT_MSG_EQ(eps[1]->GetBytesDelivered(), s0.txBytes + 1000, "endpoint bytes");
        NS_TEST_ASSERT_MSG_EQ(PyxisEndpointBinding::IsPyxisCookie(42), false, "plain cookie");
        NS_TEST_ASSERT_MSG_EQ(PyxisEndpointBinding::IsPyxisCookie(uint64_t(3) << 62),
                              false,
                              "a collective cookie (bit 63)");
        NS_TEST_ASSERT_MSG_EQ(
            PyxisEndpointBinding::IsPyxisCookie(PyxisEndpointBinding::MakeCookie(3, 3, 255, 255)),
            true,
            "a Pyxis cookie");
        Simulator::Destroy();
    }
};

/// The suite.
class PyxisEndpointTestSuite : public PicosecondTestSuite
{
  public:
    PyxisEndpointTestSuite()
        : PicosecondTestSuite("pyxis-endpoint", UNIT)
    {
        AddTestCase(new PyxisEndpointBindingTestCase, TestCase::QUICK);
    }
};

/// Registers the suite.
static PyxisEndpointTestSuite g_pyxisEndpointTestSuite;
