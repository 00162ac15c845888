/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Tests of the explicit RDMA job API of the Fabric Adapter (PostRdmaRx, PostRdmaTx; attribute
// RdmaJobPosting Explicit): Pyxis spec 10.3-10.4, 10.7.1, 10.8.1, 11.4.6-7, 11.8. Expected values
// come from the spec (derived in cell-fabric.rst, section Validation, entries V1, V4, V5 and
// V6), from closed forms written next to each test and from conservation.
//
// Times: D is the one-way time of a control cell (CTS, ACK, NACK, request, grant) on an idle
// fabric: Tx pipeline + link delay + switch latency + its 112 B on the last link (the switch
// cuts through) + link delay + Rx pipeline = 240 + 50 + 400 + 8.433 + 50 + 240 = 988.43 ns with
// the defaults (TxLatency, RxLatency 240 ns; 106.25 Gb/s links with 50 ns of delay; 400 ns cell
// switch; a 96 B control cell and its 16 B cell header). A cycle is 1 / 1.33 GHz.

#include "ns3/cell-fabric-adapter.h"
#include "ns3/cell-fabric-cellifier.h"
#include "ns3/cell-fabric-helper.h"
#include "ns3/fabric-channel.h"
#include "ns3/fabric-net-device.h"
#include "ns3/fabric-switch.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/picosecond-test-suite.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <functional>
#include <iostream>
#include <string>
#include <tuple>
#include <vector>

using namespace ns3;

uint64_t FabricDrops(const CellFabricHelper& helper,
                     const std::vector<Ptr<CellFabricAdapter>>& adapters);

namespace
{

/// Callbacks and traces seen in one run.
struct Seen
{
    std::vector<CellFabricAdapter::RdmaCompletion> tx;     //!< Tx completions (chip 0)
    std::vector<CellFabricAdapter::RdmaCompletion> rx;     //!< Rx completions (chip 1)
    std::vector<CellFabricAdapter::RdmaFailure> txFail;    //!< Job Failed at chip 0
    std::vector<CellFabricAdapter::RdmaFailure> rxFail;    //!< Job Failed at chip 1
    std::vector<Time> nacks;                               //!< NACKs received at chip 0
    std::vector<std::tuple<Time, uint64_t, uint32_t>> gen; //!< pages generated at chip 0
};

/// Trace sink: NACK received.
void
OnNack(Seen* s, uint32_t, uint64_t)
{
    s->nacks.push_back(Simulator::Now());
}

/// Trace sink: page generated.
void
OnPageGen(Seen* s, uint64_t job, uint32_t page, uint32_t)
{
    s->gen.emplace_back(Simulator::Now(), job, page);
}

/// Drops of one reason in an adapter's counters.
uint64_t
DropsOf(const CellFabricAdapter::Stats& st, const std::string& reason)
{
    auto it = st.drops.find(reason);
    return it == st.drops.end() ? 0 : it->second;
}

/// A fabric of chips on 36 planes, every adapter with RdmaJobPosting Explicit.
struct Fabric
{
    CellFabricHelper helper;               //!< the helper
    NodeContainer chips;                   //!< the chips
    std::vector<Ptr<CellFabricAdapter>> a; //!< their adapters
    Seen seen;                             //!< what happened
    double d{0};                           //!< control one-way time D (s)

    /// \param n chips \param explicitMode RdmaJobPosting Explicit on all of them
    Fabric(uint32_t n, bool explicitMode = true)
    {
        if (explicitMode)
        {
            helper.SetAdapterAttribute("RdmaJobPosting", StringValue("Explicit"));
        }
        chips.Create(n);
        a = helper.Install(chips, 36);
        Ptr<FabricNetDevice> port = DynamicCast<FabricNetDevice>(chips.Get(0)->GetDevice(0));
        Ptr<FabricChannel> ch = port->GetFabricChannel();
        const double rate = ch->GetDataRate().GetBitRate() / 8.0;
        d = a[0]->GetTxLatency().GetSeconds() + 2 * ch->GetOneWayDelay().GetSeconds() +
            helper.GetPlanes()[0]->GetPipelineLatency().GetSeconds() +
            (96 + a[0]->GetCellHeaderBytes()) / rate + a[0]->GetRxLatency().GetSeconds();
        a[0]->TraceConnectWithoutContext("Nack", MakeBoundCallback(&OnNack, &seen));
        a[0]->TraceConnectWithoutContext("PageGen", MakeBoundCallback(&OnPageGen, &seen));
        Seen* s = &seen;
        a[0]->SetRdmaFailureCallback(
            [s](const CellFabricAdapter::RdmaFailure& f) { s->txFail.push_back(f); });
        a[1]->SetRdmaFailureCallback(
            [s](const CellFabricAdapter::RdmaFailure& f) { s->rxFail.push_back(f); });
    }

    ~Fabric()
    {
        Simulator::Destroy();
    }

    /// \return a callback recording a Tx completion
    CellFabricAdapter::RdmaCallback TxDone()
    {
        Seen* s = &seen;
        return [s](const CellFabricAdapter::RdmaCompletion& c) { s->tx.push_back(c); };
    }

    /// \return a callback recording an Rx completion
    CellFabricAdapter::RdmaCallback RxDone()
    {
        Seen* s = &seen;
        return [s](const CellFabricAdapter::RdmaCompletion& c) { s->rx.push_back(c); };
    }

    /**
     * Post the Rx job of the 1 MiB test pair at chip 1 (cluster 0, RJID 3, from TJID 7 of chip
     * 0's cluster 0).
     * \param words NumWords
     */
    void PostRx(uint32_t words = 8192)
    {
        CellFabricAdapter::RdmaRxDescriptor rx;
        rx.cluster = 0;
        rx.rjid = 3;
        rx.tjid = 7;
        rx.srcChip = 0;
        rx.srcCluster = 0;
        rx.amemAddr = 0x100000;
        rx.numWords = words;
        std::string error;
        const bool ok = a[1]->PostRdmaRx(rx, RxDone(), &error);
        NS_ABORT_MSG_UNLESS(ok, error);
    }

    /**
     * Post the Tx job of the test pair at chip 0 (cluster 0, TJID 7, to RJID 3 of chip 1's
     * cluster 0, OQ 1, PageSizeWords 125).
     * \param words NumWords
     */
    void PostTx(uint32_t words = 8192)
    {
        CellFabricAdapter::RdmaTxDescriptor tx;
        tx.srcCluster = 0;
        tx.tjid = 7;
        tx.rjid = 3;
        tx.dstChip = 1;
        tx.dstCluster = 0;
        tx.amemAddr = 0x200000;
        tx.numWords = words;
        tx.pageSizeWords = 125;
        std::string error;
        const bool ok = a[0]->PostRdmaTx(tx, TxDone(), &error);
        NS_ABORT_MSG_UNLESS(ok, error);
    }
};

/// \return true if \p text contains \p what
bool
Has(const std::string& text, const std::string& what)
{
    return text.find(what) != std::string::npos;
}

/// Seconds from \p t0 to \p t.
double
Since(Time t, Time t0)
{
    return (t - t0).GetSeconds();
}

/**
 * \ingroup cell-fabric
 * Pre-posting an Rx job hides the CTS (10.3, 10.7.1.1; cell-fabric.rst, Validation, V6), and the
 * 1 MiB RDMA job of Validation V1 d through the explicit API. The Tx job of 8192 words (1 MiB,
 * PageSizeWords 125) is posted at T = 21 us in each run; times are after T.
 *
 * - Rx job posted 20 us before (at 1 us): its CTS reached the sender at 1 us + D and waits
 *   there; the Tx job starts at once (10.3: "the CTS message may arrive before or after the Tx
 *   job has been initialized"). Closed form (RdmaJobTimeTestCase less its CTS leg): the requests
 *   reach the receiver at D and the grants the sender at 2D; the first page then takes its FO
 *   time (16,016 B at 88 B per cycle, 182 cycles), the Tx pipeline, the links (91 cells over 36
 *   links: 3 cells of 192 B on the busiest) and the Rx pipeline; RxDMA (128 B per cycle, the
 *   bottleneck) writes the 1 MiB in 8192 cycles and the last page commits 100 cycles later:
 *   data ready (Rx completion) at R = 2D + first page + 8192 + 100 cycles (within 2%, as in
 *   RdmaJobTimeTestCase), the ACK reaches the sender D later: Tx completion at R + D exactly.
 * - Rx job posted at T too (the endpoint API's automatic posting): the Tx job waits in CTS Wait
 *   for D, and nothing else changes: every later event is D later. Tx completion exactly D
 *   after the pre-posted run's (within 1 ps), and equal to the automatic endpoint API's 1 MiB
 *   message posted at T (the same machinery).
 * - Rx job posted 5 us after T: the Tx job waits 5 us + D: completion 5 us + D after the
 *   pre-posted run's.
 * Validation V1 d, counted in the pre-posted run: 66 pages (65 x 125 + 67 words), 5964 cells
 * sent and received (65 x 91 + 49), 1,049,632 B of fabric payload (1 MiB + 66 page headers of
 * 16 B), 1 MiB received, one CTS and one ACK (the receiver's only messages), the sender's CTS
 * counted as early, no drop. Each callback once, reporting its ids, epoch 0 and no retry.
 */
class PrePostTestCase : public TestCase
{
  public:
    PrePostTestCase()
        : TestCase("Pre-posted Rx job hides the CTS one-way time; the 1 MiB RDMA job by the API")
    {
    }

  private:
    /// What one run gives: Tx and Rx completion after T, sender stats.
    struct Run
    {
        double tx{-1};
        double rx{-1};
        uint32_t txCalls{0};
        uint32_t rxCalls{0};
        CellFabricAdapter::Stats s0;
        CellFabricAdapter::Stats s1;
        uint64_t received{0};
        uint64_t drops{0};
        double d{0};
        CellFabricAdapter::RdmaCompletion txInfo;
        CellFabricAdapter::RdmaCompletion rxInfo;
    };

    /// \param rxAt when the Rx job is posted \return the run
    Run RunAt(Time rxAt)
    {
        const Time t = MicroSeconds(21);
        Fabric f(2);
        Simulator::Schedule(rxAt, [&f]() { f.PostRx(); });
        Simulator::Schedule(t, [&f]() { f.PostTx(); });
        Simulator::Run();
        Run r;
        r.txCalls = f.seen.tx.size();
        r.rxCalls = f.seen.rx.size();
        if (!f.seen.tx.empty() && !f.seen.rx.empty())
        {
            r.tx = Since(f.seen.tx[0].completed, t);
            r.rx = Since(f.seen.rx[0].completed, t);
            r.txInfo = f.seen.tx[0];
            r.rxInfo = f.seen.rx[0];
        }
        r.s0 = f.a[0]->GetStats();
        r.s1 = f.a[1]->GetStats();
        r.received = f.a[1]->GetReceivedPayloadBytes();
        r.drops = FabricDrops(f.helper, f.a);
        r.d = f.d;
        return r;
    }

    void DoRun() override
    {
        const Run pre = RunAt(MicroSeconds(1));
        const Run same = RunAt(MicroSeconds(21));
        const Run late = RunAt(MicroSeconds(26));
        // the automatic endpoint API: the same message, its Rx job posted at the Send
        double automatic = -1;
        {
            Fabric f(2, false);
            Time completed;
            f.a[0]->SetCompletedCallback(FabricEndpoint::MessageCallback(
                [&completed](const FabricMessage& m) { completed = m.completed; }));
            UintegerValue dc(1);
            f.a[0]->SetAttribute("DestinationClusters", dc);
            Simulator::Schedule(MicroSeconds(21), [&f]() { f.a[0]->Send(1, 1 << 20, 0); });
            Simulator::Run();
            automatic = Since(completed, MicroSeconds(21));
        }
        const double d = pre.d;
        const double cycle = 1 / 1.33e9;
        const double rate = 106.25e9 / 8;
        const double firstPage =
            182 * cycle + 240e-9 + 50e-9 + 400e-9 + 3 * 192 / rate + 50e-9 + 240e-9;
        const double ready = 2 * d + firstPage + 8192 * cycle + 100 * cycle;
        std::cout << "RDMA API: D " << d * 1e9 << " ns; Tx completion after the Tx post: Rx "
                  << "pre-posted " << pre.tx * 1e6 << " us (data ready " << pre.rx * 1e6
                  << " us, closed form " << ready * 1e6 << " us), posted with it " << same.tx * 1e6
                  << " us (+" << (same.tx - pre.tx) * 1e9 << " ns), 5 us later " << late.tx * 1e6
                  << " us (+" << (late.tx - pre.tx) * 1e9 << " ns); automatic endpoint API "
                  << automatic * 1e6 << " us; pages " << pre.s0.pagesSent << ", cells "
                  << pre.s0.cellsSent << ", fabric payload " << pre.s0.pageBytesSent << " B"
                  << std::endl;
        for (const Run* r : {&pre, &same, &late})
        {
            NS_TEST_ASSERT_MSG_EQ(r->txCalls, 1, "Tx callback once");
            NS_TEST_ASSERT_MSG_EQ(r->rxCalls, 1, "Rx callback once");
            NS_TEST_ASSERT_MSG_EQ_TOL(r->tx - r->rx, d, 1e-12, "the ACK takes D");
            NS_TEST_ASSERT_MSG_EQ(r->received, 1 << 20, "1 MiB received");
            NS_TEST_ASSERT_MSG_EQ(r->drops, 0, "no drop");
        }
        NS_TEST_ASSERT_MSG_EQ_TOL(pre.rx, ready, 0.02 * ready, "closed form, CTS hidden");
        NS_TEST_ASSERT_MSG_EQ_TOL(same.tx - pre.tx, d, 1e-12, "CTS exposed: D more");
        NS_TEST_ASSERT_MSG_EQ_TOL(late.tx - pre.tx, 5e-6 + d, 1e-12, "5 us + D more");
        NS_TEST_ASSERT_MSG_EQ_TOL(automatic, same.tx, 1e-12, "as the endpoint API");
        NS_TEST_ASSERT_MSG_EQ(pre.s0.ctsEarly, 1, "the CTS came first");
        NS_TEST_ASSERT_MSG_EQ(same.s0.ctsEarly, 0, "the Tx job was there");
        NS_TEST_ASSERT_MSG_EQ(late.s0.ctsEarly, 0, "the Tx job was there");
        NS_TEST_ASSERT_MSG_EQ(pre.s0.futureCts, 0, "no future CTS");
        // Validation V1 d
        NS_TEST_ASSERT_MSG_EQ(pre.s0.pagesSent, 66, "66 pages");
        NS_TEST_ASSERT_MSG_EQ(pre.s0.cellsSent, 5964, "5964 cells sent");
        NS_TEST_ASSERT_MSG_EQ(pre.s1.cellsReceived, 5964, "5964 cells received");
        NS_TEST_ASSERT_MSG_EQ(pre.s0.pageBytesSent, 1049632, "1 MiB + 66 x 16 B headers");
        NS_TEST_ASSERT_MSG_EQ(pre.s1.messagesSent, 2, "CTS and ACK");
        NS_TEST_ASSERT_MSG_EQ(pre.s0.messagesSent, 0, "none from the sender");
        NS_TEST_ASSERT_MSG_EQ(pre.txInfo.jid, 7, "TJID");
        NS_TEST_ASSERT_MSG_EQ(pre.txInfo.peerJid, 3, "RJID");
        NS_TEST_ASSERT_MSG_EQ(pre.rxInfo.jid, 3, "RJID");
        NS_TEST_ASSERT_MSG_EQ(pre.rxInfo.peerJid, 7, "TJID");
        NS_TEST_ASSERT_MSG_EQ(pre.rxInfo.peerChip, 0, "from chip 0");
        NS_TEST_ASSERT_MSG_EQ(uint32_t(pre.txInfo.epoch), 0, "first job: epoch 0");
        NS_TEST_ASSERT_MSG_EQ(pre.txInfo.retried, false, "no retry");
        NS_TEST_ASSERT_MSG_EQ(pre.txInfo.numWords, 8192, "NumWords");
        NS_TEST_ASSERT_MSG_EQ(pre.rxInfo.amemAddr, 0x100000, "Rx AMEM address");
    }
};

/**
 * \ingroup cell-fabric
 * A job's own PageSizeWords and the VOQ-id overloads (10.2, 10.7.2, 11.4.6-7). Chip 1 posts RJID
 * 100 on cluster 2 with message VOQ 4 (default map (chip x 4 + cluster) x 4 + OQ: chip 0, cluster
 * 1, OQ 0) for TJID 200; chip 0 posts TJID 200 on cluster 1 to VOQ 25 (chip 1, cluster 2, OQ 1)
 * with NumWords 1000 and PageSizeWords 37, the adapters' attribute staying 125. Cellification
 * (10.1, 10.7.2): 28 pages (27 x 37 + 1 word); a full page is 37 x 128 + 16 = 4752 B = 297
 * chunks = 27 cells of 176 B, the last 128 + 16 = 144 B = 9 chunks, one cell: 27 x 27 + 1 = 730
 * cells; fabric payload 1000 x 128 + 28 x 16 = 128,448 B; 128,000 B received (the receiver
 * counts each page at the sender's page size). Both callbacks once with their clusters and ids.
 */
class PageSizeTestCase : public TestCase
{
  public:
    PageSizeTestCase()
        : TestCase("RDMA API: a job's own PageSizeWords (37) and posts by VOQ id")
    {
    }

  private:
    void DoRun() override
    {
        Fabric f(2);
        std::string error;
        Simulator::Schedule(MicroSeconds(1), [&f, &error]() {
            f.a[1]->PostRdmaRx(2, 0, 100, 200, 4, 0x4000, 1000, f.RxDone(), &error);
            f.a[0]->PostRdmaTx(1, 200, 100, 25, 0x8000, 1000, 37, f.TxDone(), &error);
        });
        Simulator::Run();
        const CellFabricAdapter::Stats s0 = f.a[0]->GetStats();
        std::cout << "RDMA API PageSizeWords 37: pages " << s0.pagesSent << ", cells "
                  << s0.cellsSent << ", fabric payload " << s0.pageBytesSent << " B, received "
                  << f.a[1]->GetReceivedPayloadBytes() << " B" << std::endl;
        NS_TEST_ASSERT_MSG_EQ(error, "", "both accepted");
        NS_TEST_ASSERT_MSG_EQ(s0.pagesSent, 28, "28 pages");
        NS_TEST_ASSERT_MSG_EQ(s0.cellsSent, 730, "730 cells");
        NS_TEST_ASSERT_MSG_EQ(s0.pageBytesSent, 128448, "with 28 page headers");
        NS_TEST_ASSERT_MSG_EQ(f.a[1]->GetReceivedPayloadBytes(), 128000, "1000 words");
        NS_TEST_ASSERT_MSG_EQ(FabricDrops(f.helper, f.a), 0, "no drop");
        NS_TEST_ASSERT_MSG_EQ(f.seen.tx.size(), 1, "Tx callback once");
        NS_TEST_ASSERT_MSG_EQ(f.seen.rx.size(), 1, "Rx callback once");
        if (f.seen.tx.size() == 1 && f.seen.rx.size() == 1)
        {
            NS_TEST_ASSERT_MSG_EQ(f.seen.tx[0].cluster, 1, "source cluster");
            NS_TEST_ASSERT_MSG_EQ(f.seen.tx[0].peerCluster, 2, "destination cluster");
            NS_TEST_ASSERT_MSG_EQ(f.seen.tx[0].jid, 200, "TJID");
            NS_TEST_ASSERT_MSG_EQ(f.seen.rx[0].cluster, 2, "Rx cluster");
            NS_TEST_ASSERT_MSG_EQ(f.seen.rx[0].peerCluster, 1, "from cluster 1");
            NS_TEST_ASSERT_MSG_EQ(f.seen.rx[0].jid, 100, "RJID");
            NS_TEST_ASSERT_MSG_EQ(f.seen.rx[0].amemAddr, 0x4000, "Rx AMEM address");
        }
    }
};

/**
 * \ingroup cell-fabric
 * Reliability through the explicit API (10.3.1, 10.7.1.2, 10.8.1.2, 11.8; cell-fabric.rst,
 * Validation, V4),
 * on the pre-posted 1 MiB pair of PrePostTestCase (Tx posted at T = 21 us; times after T; T_c
 * the clean Tx completion, measured here).
 *
 * - Page 10 lost once (InjectDropJob: the job's model id, GetRdmaJobId(0, 7, 3, 0, 0)): pages 11
 *   to 65 fail the sequence check and the NACK goes when page 65 is checked, instead of the ACK
 *   at its commit: it reaches the sender 67 write cycles + 100 commit cycles before the clean
 *   ACK, T_n = T_c - 167 cycles. The whole job is retried (no CTS wait, as pre-posted): Tx
 *   completion at T_n + T_c, data ready D before. Each callback once with retried set, no
 *   failure, 1 MiB counted once, both ids free again.
 * - Page 10 lost on both attempts: the second NACK comes T_n after the retry began: Job Failed
 *   at the sender at 2 T_n, Rx Job Failed D earlier (when it sends that NACK). One failure
 *   callback each side with the failed-job vector {TJID 7} and {RJID 3}; no completion
 *   callback; the failed ids are refused until ReleaseFailedRdmaJobs (1 released each side);
 *   then a new pair on the same ids (epoch 1 on both sides) completes once each.
 * - Stale epoch: TxAckTimeout 1 us at the sender (shorter than the ACK's way back) retries the
 *   job with no loss; the Rx completion callback posts the next Rx job on RJID 3 at once (epoch
 *   1), so the retry's pages of the epoch-0 job find RJID 3 holding the next epoch: dropped
 *   (StaleEpoch), none UnknownJob. The Tx completion callback posts the next Tx job on TJID 7
 *   (epoch 1) and it completes. The receiver sends the ACK, then (in its callback) the next
 *   CTS, in the same instant on the next link: they arrive together, ACK first, so the second
 *   job is posted just before its CTS (one early CTS in all: the first job's; no future CTS).
 *   Conservation at the receiver: grants =
 *   commits (2 x 66) + StaleEpoch drops, every request granted; the retry requested 64 pages
 *   (the VOQ's occupancy limit, MaxOutstandingPages) before the ACK ended it.
 */
class ReliabilityTestCase : public TestCase
{
  public:
    ReliabilityTestCase()
        : TestCase("RDMA API reliability: NACK and retry, Job Failed on both sides, stale epoch")
    {
    }

  private:
    void DoRun() override
    {
        RunClean();
        RunLostOnce();
        RunLostTwice();
        RunStaleEpoch();
    }

    /// \return when the Tx job is posted (T; the Rx job at 1 us)
    static Time PostTime()
    {
        return MicroSeconds(21);
    }

    /**
     * Run the pre-posted pair with page 10 of job 0 lost at the receiver.
     * \param f the fabric
     * \param attempts on how many attempts the page is lost
     */
    static void RunLosingPage10(Fabric& f, uint32_t attempts)
    {
        f.a[1]->SetAttribute("InjectDropJob",
                             UintegerValue(CellFabricAdapter::GetRdmaJobId(0, 7, 3, 0, 0)));
        f.a[1]->SetAttribute("InjectDropPage", UintegerValue(10));
        f.a[1]->SetAttribute("InjectDropAttempts", UintegerValue(attempts));
        Simulator::Schedule(MicroSeconds(1), [&f]() { f.PostRx(); });
        Simulator::Schedule(PostTime(), [&f]() { f.PostTx(); });
        Simulator::Run();
    }

    /// The clean run: the Tx completion T_c and the control one-way time D.
    void RunClean()
    {
        const Time t = PostTime();
        Fabric f(2);
        Simulator::Schedule(MicroSeconds(1), [&f]() { f.PostRx(); });
        Simulator::Schedule(t, [&f]() { f.PostTx(); });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(f.seen.tx.size(), 1, "clean run completes");
        m_tc = f.seen.tx.empty() ? 0 : Since(f.seen.tx[0].completed, t);
        m_d = f.d;
    }

    /// Page 10 lost once: NACK, one retry without a CTS, completion.
    void RunLostOnce()
    {
        const Time t = PostTime();
        const double cycle = 1 / 1.33e9;
        const double tc = m_tc;
        const double d = m_d;
        Fabric f(2);
        RunLosingPage10(f, 1);
        const double tn = f.seen.nacks.empty() ? 0 : Since(f.seen.nacks[0], t);
        const double done = f.seen.tx.empty() ? 0 : Since(f.seen.tx[0].completed, t);
        std::cout << "RDMA API retry: clean completion " << tc * 1e6 << " us; NACK expected "
                  << (tc - 167 * cycle) * 1e6 << " us, measured " << tn * 1e6
                  << " us; completion expected " << (tn + tc) * 1e6 << " us, measured "
                  << done * 1e6 << " us" << std::endl;
        NS_TEST_ASSERT_MSG_EQ(f.seen.nacks.size(), 1, "one NACK");
        NS_TEST_ASSERT_MSG_EQ_TOL(tn, tc - 167 * cycle, 1e-9, "NACK at page 65's check");
        NS_TEST_ASSERT_MSG_EQ(f.seen.tx.size(), 1, "Tx callback once");
        NS_TEST_ASSERT_MSG_EQ(f.seen.rx.size(), 1, "Rx callback once");
        NS_TEST_ASSERT_MSG_EQ_TOL(done, tn + tc, 1e-9, "retry = a pre-posted job");
        if (f.seen.tx.size() == 1 && f.seen.rx.size() == 1)
        {
            NS_TEST_ASSERT_MSG_EQ_TOL(Since(f.seen.rx[0].completed, t),
                                      tn + tc - d,
                                      1e-9,
                                      "data ready D before");
            NS_TEST_ASSERT_MSG_EQ(f.seen.tx[0].retried, true, "Tx retried");
            NS_TEST_ASSERT_MSG_EQ(f.seen.rx[0].retried, true, "Rx retried");
        }
        NS_TEST_ASSERT_MSG_EQ(f.seen.txFail.size() + f.seen.rxFail.size(), 0, "no failure");
        NS_TEST_ASSERT_MSG_EQ(f.a[0]->GetStats().jobsRetried, 1, "one retry");
        NS_TEST_ASSERT_MSG_EQ(DropsOf(f.a[1]->GetStats(), CellFabricAdapter::SEQUENCE_ERROR),
                              55,
                              "pages 11 to 65");
        NS_TEST_ASSERT_MSG_EQ(f.a[1]->GetReceivedPayloadBytes(), 1 << 20, "counted once");
        NS_TEST_ASSERT_MSG_EQ(f.a[0]->GetActiveRdmaJobs(CellFabricAdapter::RDMA_TX, 0),
                              0,
                              "TJID free");
        NS_TEST_ASSERT_MSG_EQ(f.a[1]->GetActiveRdmaJobs(CellFabricAdapter::RDMA_RX, 0),
                              0,
                              "RJID free");
    }

    /// Page 10 lost on both attempts: Job Failed on both sides, then flush and a new pair.
    void RunLostTwice()
    {
        const Time t = PostTime();
        const double tc = m_tc;
        const double d = m_d;
        Fabric f(2);
        RunLosingPage10(f, 2);
        const double tn = f.seen.nacks.empty() ? 0 : Since(f.seen.nacks[0], t);
        const double txFail = f.seen.nacks.size() < 2 ? 0 : Since(f.seen.nacks[1], t);
        std::cout << "RDMA API Job Failed: NACKs " << f.seen.nacks.size() << ", second expected "
                  << 2 * tn * 1e6 << " us, measured " << txFail * 1e6
                  << " us; failure callbacks Tx " << f.seen.txFail.size() << ", Rx "
                  << f.seen.rxFail.size() << "; completions " << f.seen.tx.size() + f.seen.rx.size()
                  << std::endl;
        NS_TEST_ASSERT_MSG_EQ(f.seen.nacks.size(), 2, "two NACKs");
        NS_TEST_ASSERT_MSG_EQ_TOL(txFail, 2 * tn, 1e-9, "second NACK after a full attempt");
        NS_TEST_ASSERT_MSG_EQ(f.seen.txFail.size(), 1, "Tx Job Failed once");
        NS_TEST_ASSERT_MSG_EQ(f.seen.rxFail.size(), 1, "Rx Job Failed once");
        NS_TEST_ASSERT_MSG_EQ(f.seen.tx.size(), 0, "no Tx completion");
        NS_TEST_ASSERT_MSG_EQ(f.seen.rx.size(), 0, "no Rx completion");
        NS_TEST_ASSERT_MSG_EQ(f.a[0]->GetStats().jobsFailed, 1, "jobsFailed");
        NS_TEST_ASSERT_MSG_EQ(f.a[1]->GetStats().rxJobsFailed, 1, "rxJobsFailed");
        if (f.seen.txFail.size() == 1 && f.seen.rxFail.size() == 1)
        {
            const auto& tf = f.seen.txFail[0];
            const auto& rf = f.seen.rxFail[0];
            NS_TEST_ASSERT_MSG_EQ(tf.side, CellFabricAdapter::RDMA_TX, "Tx side");
            NS_TEST_ASSERT_MSG_EQ(tf.jid, 7, "TJID 7");
            NS_TEST_ASSERT_MSG_EQ(tf.failed.count(), 1, "one failed Tx job");
            NS_TEST_ASSERT_MSG_EQ(tf.failed.test(7), true, "bit 7");
            NS_TEST_ASSERT_MSG_EQ(rf.side, CellFabricAdapter::RDMA_RX, "Rx side");
            NS_TEST_ASSERT_MSG_EQ(rf.jid, 3, "RJID 3");
            NS_TEST_ASSERT_MSG_EQ(rf.failed.count(), 1, "one failed Rx job");
            NS_TEST_ASSERT_MSG_EQ(rf.failed.test(3), true, "bit 3");
        }
        NS_TEST_ASSERT_MSG_EQ(f.a[0]->GetFailedRdmaJobs(CellFabricAdapter::RDMA_TX, 0).test(7),
                              true,
                              "sticky");
        // the failed ids are refused until released (11.8 step 2)
        CellFabricAdapter::RdmaTxDescriptor tx;
        tx.tjid = 7;
        tx.rjid = 3;
        tx.dstChip = 1;
        tx.numWords = 8192;
        std::string error;
        NS_TEST_ASSERT_MSG_EQ(f.a[0]->PostRdmaTx(tx, {}, &error), false, "TJID failed");
        NS_TEST_ASSERT_MSG_EQ(Has(error, "failed"), true, error);
        NS_TEST_ASSERT_MSG_EQ(f.a[0]->ReleaseFailedRdmaJobs(0), 1, "one Tx job released");
        NS_TEST_ASSERT_MSG_EQ(f.a[1]->ReleaseFailedRdmaJobs(0), 1, "one Rx job released");
        NS_TEST_ASSERT_MSG_EQ(f.a[0]->GetFailedRdmaJobs(CellFabricAdapter::RDMA_TX, 0).none(),
                              true,
                              "vector clear");
        // the next pair on the same ids: epoch 1 on both sides, no loss (job 0's id only)
        const Time t2 = Simulator::Now() + MicroSeconds(1);
        Simulator::Schedule(MicroSeconds(1), [&f]() {
            f.PostRx();
            f.PostTx();
        });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(f.seen.tx.size(), 1, "new job: Tx callback once");
        NS_TEST_ASSERT_MSG_EQ(f.seen.rx.size(), 1, "new job: Rx callback once");
        if (f.seen.tx.size() == 1)
        {
            NS_TEST_ASSERT_MSG_EQ(uint32_t(f.seen.tx[0].epoch), 1, "epoch 1");
            NS_TEST_ASSERT_MSG_EQ_TOL(Since(f.seen.tx[0].completed, t2),
                                      tc + d,
                                      1e-9,
                                      "a clean job with its CTS exposed");
        }
        NS_TEST_ASSERT_MSG_EQ(f.seen.txFail.size() + f.seen.rxFail.size(), 2, "no more");
    }

    /// Stale epoch: the retry's pages of job 0 reach RJID 3 holding its next job.
    void RunStaleEpoch()
    {
        const Time t = PostTime();
        Fabric f(2);
        f.a[0]->SetAttribute("TxAckTimeout", TimeValue(MicroSeconds(1)));
        Fabric* pf = &f;
        // on Rx completion post the next Rx job at once; on Tx completion the next Tx job
        CellFabricAdapter::RdmaRxDescriptor rx;
        rx.rjid = 3;
        rx.tjid = 7;
        rx.numWords = 8192;
        CellFabricAdapter::RdmaTxDescriptor tx;
        tx.tjid = 7;
        tx.rjid = 3;
        tx.dstChip = 1;
        tx.numWords = 8192;
        Simulator::Schedule(MicroSeconds(1), [pf, rx]() {
            pf->a[1]->PostRdmaRx(rx, [pf, rx](const CellFabricAdapter::RdmaCompletion& c) {
                pf->seen.rx.push_back(c);
                pf->a[1]->PostRdmaRx(rx, pf->RxDone());
            });
        });
        Simulator::Schedule(t, [pf, tx]() {
            pf->a[0]->PostRdmaTx(tx, [pf, tx](const CellFabricAdapter::RdmaCompletion& c) {
                pf->seen.tx.push_back(c);
                // the second job gets a 1 ms ACK wait back: no retry of its own
                pf->a[0]->SetAttribute("TxAckTimeout", TimeValue(MilliSeconds(1)));
                pf->a[0]->PostRdmaTx(tx, pf->TxDone());
            });
        });
        Simulator::Run();
        const CellFabricAdapter::Stats s0 = f.a[0]->GetStats();
        const CellFabricAdapter::Stats s1 = f.a[1]->GetStats();
        const uint64_t stale = DropsOf(s1, CellFabricAdapter::STALE_EPOCH);
        std::cout << "RDMA API stale epoch: requested " << s0.pagesRequested << ", granted "
                  << s1.pagesGranted << ", committed " << s1.pagesCommitted << ", StaleEpoch "
                  << stale << ", UnknownJob " << DropsOf(s1, CellFabricAdapter::UNKNOWN_JOB)
                  << "; early CTSs " << s0.ctsEarly << std::endl;
        NS_TEST_ASSERT_MSG_EQ(f.seen.tx.size(), 2, "two Tx completions");
        NS_TEST_ASSERT_MSG_EQ(f.seen.rx.size(), 2, "two Rx completions");
        if (f.seen.tx.size() == 2)
        {
            NS_TEST_ASSERT_MSG_EQ(uint32_t(f.seen.tx[1].epoch), 1, "second job epoch 1");
        }
        NS_TEST_ASSERT_MSG_EQ(s0.ackTimeouts, 1, "the first job's ACK wait expired");
        NS_TEST_ASSERT_MSG_EQ(stale, 64, "the retry's 64 pages are stale");
        NS_TEST_ASSERT_MSG_EQ(DropsOf(s1, CellFabricAdapter::UNKNOWN_JOB), 0, "none unknown");
        NS_TEST_ASSERT_MSG_EQ(s1.pagesCommitted, 2 * 66, "two jobs written");
        NS_TEST_ASSERT_MSG_EQ(s1.pagesGranted, s1.pagesCommitted + stale, "conservation");
        NS_TEST_ASSERT_MSG_EQ(s0.pagesRequested, s1.pagesGranted, "every request granted");
        NS_TEST_ASSERT_MSG_EQ(s0.ctsEarly, 1, "the first job's CTS came before it");
        NS_TEST_ASSERT_MSG_EQ(s0.futureCts, 0, "the second CTS came after the ACK");
        NS_TEST_ASSERT_MSG_EQ(f.a[1]->GetReceivedPayloadBytes(), 2 << 20, "2 MiB");
        NS_TEST_ASSERT_MSG_EQ(f.a[1]->GetFreeRxCells(), f.a[1]->GetRxCbufCells(), "all free");
    }

    double m_tc{-1}; //!< the clean run's Tx completion after T (s)
    double m_d{0};   //!< the control one-way time D (s)
};

/**
 * \ingroup cell-fabric
 * A "future" CTS (10.4): the one-bit epoch of a CTS is checked against the Tx job table entry of
 * its TJID. Chip 0 has TxCtsTimeout 3 us. Job A (TJID 7, epoch 0) is posted at 1 us with no Rx
 * job: Job Failed at 4 us (CTS wait), failure callback, released. Job B (TJID 7, epoch 1) is
 * posted at 4.5 us. Chip 1 posts RJID 3 (its first job: epoch 0) at 5 us: its CTS reaches the
 * sender at 5 us + D, while TJID 7 holds B of the other epoch: a future CTS, counted and kept.
 * B fails at 7.5 us (CTS wait) and is released; job C (TJID 7, epoch 0 again) posted at 8 us
 * finds the kept CTS and starts at once: it completes at 8 us + T_c (the pre-posted 1 MiB time
 * of PrePostTestCase, measured here in a clean run). Failure callbacks: 2 at chip 0 (A at 4 us,
 * B at 7.5 us), none at chip 1; one completion each side.
 */
class FutureCtsTestCase : public TestCase
{
  public:
    FutureCtsTestCase()
        : TestCase("RDMA API: a future CTS is detected, kept and starts the next job of its TJID")
    {
    }

  private:
    void DoRun() override
    {
        double tc = -1;
        {
            Fabric f(2);
            Simulator::Schedule(MicroSeconds(1), [&f]() { f.PostRx(); });
            Simulator::Schedule(MicroSeconds(21), [&f]() { f.PostTx(); });
            Simulator::Run();
            tc = f.seen.tx.empty() ? 0 : Since(f.seen.tx[0].completed, MicroSeconds(21));
        }
        Fabric f(2);
        f.a[0]->SetAttribute("TxCtsTimeout", TimeValue(MicroSeconds(3)));
        std::vector<Time> failAt;
        Fabric* pf = &f;
        f.a[0]->SetRdmaFailureCallback([pf, &failAt](const CellFabricAdapter::RdmaFailure& x) {
            pf->seen.txFail.push_back(x);
            failAt.push_back(Simulator::Now());
            pf->a[0]->ReleaseFailedRdmaJobs(x.cluster); // the trip flush releases it
        });
        Simulator::Schedule(MicroSeconds(1), [&f]() { f.PostTx(); });
        Simulator::Schedule(NanoSeconds(4500), [&f]() { f.PostTx(); });
        Simulator::Schedule(MicroSeconds(5), [&f]() { f.PostRx(); });
        Simulator::Schedule(MicroSeconds(8), [&f]() { f.PostTx(); });
        Simulator::Run();
        const CellFabricAdapter::Stats s0 = f.a[0]->GetStats();
        const double done = f.seen.tx.empty() ? 0 : Since(f.seen.tx[0].completed, MicroSeconds(8));
        std::cout << "RDMA API future CTS: Job Failed at";
        for (const Time& x : failAt)
        {
            std::cout << " " << x.GetSeconds() * 1e6 << " us";
        }
        std::cout << "; future CTSs " << s0.futureCts << "; job C completes " << done * 1e6
                  << " us after its post, expected " << tc * 1e6 << " us" << std::endl;
        NS_TEST_ASSERT_MSG_EQ(failAt.size(), 2, "A and B failed");
        if (failAt.size() == 2)
        {
            NS_TEST_ASSERT_MSG_EQ(failAt[0], MicroSeconds(4), "A: CTS wait from 1 us");
            NS_TEST_ASSERT_MSG_EQ(failAt[1], NanoSeconds(7500), "B: CTS wait from 4.5 us");
            NS_TEST_ASSERT_MSG_EQ(uint32_t(f.seen.txFail[0].epoch), 0, "A epoch 0");
            NS_TEST_ASSERT_MSG_EQ(uint32_t(f.seen.txFail[1].epoch), 1, "B epoch 1");
        }
        NS_TEST_ASSERT_MSG_EQ(s0.futureCts, 1, "one future CTS");
        NS_TEST_ASSERT_MSG_EQ(s0.ctsEarly, 1, "kept for its job");
        NS_TEST_ASSERT_MSG_EQ(f.seen.tx.size(), 1, "C completes");
        NS_TEST_ASSERT_MSG_EQ(f.seen.rx.size(), 1, "the Rx job completes");
        NS_TEST_ASSERT_MSG_EQ(f.seen.rxFail.size(), 0, "no Rx failure");
        NS_TEST_ASSERT_MSG_EQ_TOL(done, tc, 1e-12, "C starts at once, as pre-posted");
    }
};

/**
 * \ingroup cell-fabric
 * VOQ-Active lock through the explicit API (10.7.1.1; cell-fabric.rst, Validation, V5). Chip 0
 * posts two Tx
 * jobs of 8192 words (66 pages each), TJIDs 1 and 2, at 21 us, to RJIDs 1 and 2 of chip 1 that
 * were pre-posted at 1 us (CTSs already there). Same VOQ (cluster 0, OQ 1): job 2 generates no
 * page before job 1's last page is generated: in the PageGen order all 66 pages of job 1 come
 * first (index 66 is job 2's page 0), at or after the time of job 1's page 65 and not at the
 * post (with at most 64 pages outstanding per VOQ, pages 64 and 65 of job 1 wait for FO to
 * dequeue pages 0 and 1, after the grants at 2D, and job 2's page 0 for the next). Different
 * VOQs (job 2 to cluster 1): job 2's page 0 is generated at the post, with job 1's. Both pairs
 * complete, each callback once, 2 MiB received.
 */
class VoqLockTestCase : public TestCase
{
  public:
    VoqLockTestCase()
        : TestCase("RDMA API: VOQ-Active lock orders two Tx jobs to one VOQ, not to two VOQs")
    {
    }

  private:
    void DoRun() override
    {
        for (const bool sameVoq : {true, false})
        {
            Fabric f(2);
            const uint32_t cluster2 = sameVoq ? 0 : 1;
            Simulator::Schedule(MicroSeconds(1), [&f, cluster2]() {
                for (uint32_t j = 1; j <= 2; ++j)
                {
                    CellFabricAdapter::RdmaRxDescriptor rx;
                    rx.cluster = j == 1 ? 0 : cluster2;
                    rx.rjid = j;
                    rx.tjid = j;
                    rx.numWords = 8192;
                    f.a[1]->PostRdmaRx(rx, f.RxDone());
                }
            });
            Simulator::Schedule(MicroSeconds(21), [&f, cluster2]() {
                for (uint32_t j = 1; j <= 2; ++j)
                {
                    CellFabricAdapter::RdmaTxDescriptor tx;
                    tx.tjid = j;
                    tx.rjid = j;
                    tx.dstChip = 1;
                    tx.dstCluster = j == 1 ? 0 : cluster2;
                    tx.numWords = 8192;
                    f.a[0]->PostRdmaTx(tx, f.TxDone());
                }
            });
            Simulator::Run();
            const uint64_t job1 = CellFabricAdapter::GetRdmaJobId(0, 1, 1, 0, 0);
            const uint64_t job2 = CellFabricAdapter::GetRdmaJobId(0, 2, 2, cluster2, 0);
            int64_t lastOf1 = -1;
            int64_t firstOf2 = -1;
            Time lastOf1At;
            Time firstOf2At;
            for (uint32_t k = 0; k < f.seen.gen.size(); ++k)
            {
                const auto& [at, job, page] = f.seen.gen[k];
                if (job == job1 && page == 65)
                {
                    lastOf1 = k;
                    lastOf1At = at;
                }
                if (job == job2 && page == 0 && firstOf2 < 0)
                {
                    firstOf2 = k;
                    firstOf2At = at;
                }
            }
            std::cout << "RDMA API VOQ lock, " << (sameVoq ? "one VOQ" : "two VOQs")
                      << ": job 1 page 65 generated #" << lastOf1 << " at "
                      << lastOf1At.GetSeconds() * 1e6 << " us, job 2 page 0 #" << firstOf2 << " at "
                      << firstOf2At.GetSeconds() * 1e6 << " us" << std::endl;
            NS_TEST_ASSERT_MSG_EQ(f.seen.gen.size(), 132, "132 pages generated");
            NS_TEST_ASSERT_MSG_EQ(f.seen.tx.size(), 2, "two Tx completions");
            NS_TEST_ASSERT_MSG_EQ(f.seen.rx.size(), 2, "two Rx completions");
            NS_TEST_ASSERT_MSG_EQ(f.a[1]->GetReceivedPayloadBytes(), 2 << 20, "2 MiB");
            if (sameVoq)
            {
                NS_TEST_ASSERT_MSG_EQ(firstOf2, 66, "job 1's 66 pages first");
                NS_TEST_ASSERT_MSG_EQ((firstOf2At >= lastOf1At), true, "not before job 1's last");
                NS_TEST_ASSERT_MSG_GT(firstOf2At, MicroSeconds(21), "not at the post");
            }
            else
            {
                NS_TEST_ASSERT_MSG_EQ(firstOf2At, MicroSeconds(21), "at the post");
                NS_TEST_ASSERT_MSG_LT(firstOf2, lastOf1, "interleaved");
            }
        }
    }
};

/**
 * \ingroup cell-fabric
 * Refusals (10.4, 10.7.2, 11.4.6-7): each bad post returns false with a reason naming the field,
 * counts in rdmaRefused and sends nothing. Refused: any post with RdmaJobPosting Automatic; a Tx
 * job to a chip in Automatic mode; RJID and TJID 256 (8 bits); cluster 4 (4 clusters); the chip
 * itself as source or destination; NumWords 0 and 65,537 (range [1, 2^16]); PageSizeWords 32,
 * 36, 126 and 127 ((w x 128 + 16) mod 176 != 0); OQ 4; profile 8; VOQ 8192 (13 bits) and a
 * message VOQ to another chip (VOQ 32: chip 2 with the default map, (chip x 4 + cluster) x 4 +
 * OQ); a second job on an active TJID; the 257th Rx job of a cluster
 * (RJIDs 0 to 255 all active; 256 accepted: the 256 Rx jobs per cluster of 10.4). Accepted:
 * PageSizeWords 37 and NumWords 1 and 65,536.
 */
class RefusalTestCase : public TestCase
{
  public:
    RefusalTestCase()
        : TestCase("RDMA API refusals: mode, ids, active jobs, NumWords, PageSizeWords, VOQs")
    {
    }

  private:
    void DoRun() override
    {
        {
            Fabric f(2, false);
            std::string error;
            CellFabricAdapter::RdmaRxDescriptor rx;
            rx.srcChip = 0;
            rx.numWords = 1;
            NS_TEST_ASSERT_MSG_EQ(f.a[1]->PostRdmaRx(rx, {}, &error), false, "Automatic");
            NS_TEST_ASSERT_MSG_EQ(Has(error, "Automatic"), true, error);
            CellFabricAdapter::RdmaTxDescriptor tx;
            tx.dstChip = 1;
            tx.numWords = 1;
            NS_TEST_ASSERT_MSG_EQ(f.a[0]->PostRdmaTx(tx, {}, &error), false, "Automatic");
            NS_TEST_ASSERT_MSG_EQ(f.a[0]->GetStats().rdmaRefused, 1, "counted");
        }
        Fabric f(3);
        f.a[2]->SetAttribute("RdmaJobPosting", StringValue("Automatic"));
        uint32_t refused = 0;
        auto tx = [&](std::function<void(CellFabricAdapter::RdmaTxDescriptor&)> change,
                      const std::string& expect) {
            CellFabricAdapter::RdmaTxDescriptor d;
            d.tjid = 9;
            d.rjid = 9;
            d.dstChip = 1;
            d.numWords = 8192;
            change(d);
            std::string error;
            const bool ok = f.a[0]->PostRdmaTx(d, {}, &error);
            std::cout << "RDMA API refusal " << f.a[0]->GetStats().rdmaRefused << ": "
                      << (ok ? "accepted" : error) << std::endl;
            NS_TEST_ASSERT_MSG_EQ(ok, false, "refused: " + expect);
            NS_TEST_ASSERT_MSG_EQ(Has(error, expect), true, error);
            ++refused;
        };
        auto rx = [&](std::function<void(CellFabricAdapter::RdmaRxDescriptor&)> change,
                      const std::string& expect) {
            CellFabricAdapter::RdmaRxDescriptor d;
            d.rjid = 9;
            d.tjid = 9;
            d.srcChip = 0;
            d.numWords = 8192;
            change(d);
            std::string error;
            const bool ok = f.a[1]->PostRdmaRx(d, {}, &error);
            std::cout << "RDMA API refusal: " << (ok ? "accepted" : error) << std::endl;
            NS_TEST_ASSERT_MSG_EQ(ok, false, "refused: " + expect);
            NS_TEST_ASSERT_MSG_EQ(Has(error, expect), true, error);
        };
        tx([](auto& d) { d.dstChip = 2; }, "Automatic");
        tx([](auto& d) { d.rjid = 256; }, "RJID 256 is not 8 bits");
        tx([](auto& d) { d.tjid = 256; }, "job id 256 is not 8 bits");
        tx([](auto& d) { d.srcCluster = 4; }, "srcCluster 4");
        tx([](auto& d) { d.dstCluster = 4; }, "dstCluster 4");
        tx([](auto& d) { d.dstChip = 0; }, "dstChip 0");
        tx([](auto& d) { d.numWords = 0; }, "NumWords 0 is not in [1, 65536]");
        tx([](auto& d) { d.numWords = 65537; }, "NumWords 65537");
        for (uint32_t w : {32, 36, 126, 127})
        {
            tx([w](auto& d) { d.pageSizeWords = w; },
               "PageSizeWords " + std::to_string(w) + " is not legal");
        }
        tx([](auto& d) { d.oq = 4; }, "OQ 4");
        tx([](auto& d) { d.profile = 8; }, "profile 8");
        std::string error;
        NS_TEST_ASSERT_MSG_EQ(f.a[0]->PostRdmaTx(0, 9, 9, 8192, 0, 8192, 125, {}, &error),
                              false,
                              "VOQ 8192");
        NS_TEST_ASSERT_MSG_EQ(Has(error, "8192"), true, error);
        ++refused;
        // accepted: the extremes of NumWords and the smallest legal page size
        CellFabricAdapter::RdmaTxDescriptor ok;
        ok.tjid = 9;
        ok.rjid = 9;
        ok.dstChip = 1;
        ok.numWords = 65536;
        ok.pageSizeWords = 37;
        NS_TEST_ASSERT_MSG_EQ(f.a[0]->PostRdmaTx(ok, {}, &error), true, error);
        // VOQ 16 is chip 1, cluster 0, OQ 0 with the default map ((chip x 4 + cluster) x 4 + OQ)
        NS_TEST_ASSERT_MSG_EQ(f.a[0]->PostRdmaTx(0, 10, 10, 16, 0, 1, 125, {}, &error),
                              true,
                              error);
        tx([](auto& d) {}, "is active");
        NS_TEST_ASSERT_MSG_EQ(f.a[0]->GetStats().rdmaRefused, refused, "all counted");
        NS_TEST_ASSERT_MSG_EQ(f.a[0]->GetStats().jobsPosted, 2, "two posted");
        NS_TEST_ASSERT_MSG_EQ(f.a[0]->GetActiveRdmaJobs(CellFabricAdapter::RDMA_TX, 0),
                              2,
                              "two TJIDs active");

        rx([](auto& d) { d.rjid = 256; }, "job id 256 is not 8 bits");
        rx([](auto& d) { d.tjid = 256; }, "TJID 256 is not 8 bits");
        rx([](auto& d) { d.cluster = 4; }, "cluster 4 is not below 4");
        rx([](auto& d) { d.srcCluster = 4; }, "srcCluster 4");
        rx([](auto& d) { d.srcChip = 1; }, "srcChip 1 is not another chip");
        rx([](auto& d) { d.srcChip = 7; }, "srcChip 7 is not another chip");
        rx([](auto& d) { d.numWords = 0; }, "NumWords 0");
        rx([](auto& d) { d.numWords = 65537; }, "NumWords 65537");
        // message VOQ 32 is chip 2 (cluster 0, OQ 0), not the source chip 0
        NS_TEST_ASSERT_MSG_EQ(f.a[1]->PostRdmaRx(0, 0, 9, 9, 32, 0, 1, {}, &error),
                              false,
                              "message VOQ to chip 2");
        NS_TEST_ASSERT_MSG_EQ(Has(error, "chip 2"), true, error);
        // 256 Rx jobs on cluster 1 (RJIDs 0 to 255, message VOQ 1: chip 0, cluster 0, OQ 1)
        uint32_t accepted = 0;
        for (uint32_t id = 0; id < 256; ++id)
        {
            accepted += f.a[1]->PostRdmaRx(1, 0, id, id, 1, 0, 1 + id, {}, &error);
        }
        NS_TEST_ASSERT_MSG_EQ(accepted, 256, "256 Rx jobs per cluster");
        NS_TEST_ASSERT_MSG_EQ(f.a[1]->GetActiveRdmaJobs(CellFabricAdapter::RDMA_RX, 1),
                              256,
                              "all active");
        rx(
            [](auto& d) {
                d.cluster = 1;
                d.rjid = 17;
            },
            "is active");
        NS_TEST_ASSERT_MSG_EQ(f.a[1]->GetStats().rdmaRefused, 10, "all counted");
        NS_TEST_ASSERT_MSG_EQ(f.a[1]->GetStats().messagesSent, 256, "a CTS per accepted job");
    }
};

/// The explicit RDMA job API suite.
class CellFabricRdmaApiTestSuite : public PicosecondTestSuite
{
  public:
    CellFabricRdmaApiTestSuite()
        : PicosecondTestSuite("cell-fabric-rdma-api", UNIT)
    {
        AddTestCase(new PrePostTestCase, TestCase::QUICK);
        AddTestCase(new PageSizeTestCase, TestCase::QUICK);
        AddTestCase(new ReliabilityTestCase, TestCase::QUICK);
        AddTestCase(new FutureCtsTestCase, TestCase::QUICK);
        AddTestCase(new VoqLockTestCase, TestCase::QUICK);
        AddTestCase(new RefusalTestCase, TestCase::QUICK);
    }
};

/// Static instance.
static CellFabricRdmaApiTestSuite g_cellFabricRdmaApiTestSuite;

} // namespace
