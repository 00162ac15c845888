/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Tests of the Tx pipeline structures of the Fabric Adapter (Pyxis spec 10.2, 10.7.3, 10.7.3.1,
// 10.7.6-8): the VOQ map table, the Page Generator's high/low priority, the occupancy limiter's
// XOFF/XON hysteresis, the QPage table and the TxBuf of the FO pipes. Part of the `cell-fabric`
// suite (cell-fabric-test-suite.cc adds them). Expected values are derived in each comment.

#include "ns3/cell-fabric-adapter.h"
#include "ns3/cell-fabric-helper.h"
#include "ns3/cell-fabric-occupancy-limiter.h"
#include "ns3/cell-fabric-voq-table.h"
#include "ns3/fabric-channel.h"
#include "ns3/fabric-net-device.h"
#include "ns3/fabric-switch.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <string>
#include <tuple>
#include <vector>

using namespace ns3;

/// Drops at every plane switch, link device and adapter (cell-fabric-test-suite.cc).
uint64_t FabricDrops(const CellFabricHelper& helper,
                     const std::vector<Ptr<CellFabricAdapter>>& adapters);

namespace
{

/**
 * D, the one-way time of a control cell with the helper's defaults (as in the suite's 1 MiB job
 * test): Tx pipeline + link delay + switch latency + one 112 B cell's serialization + link
 * delay + Rx pipeline.
 * \param chips the chips
 * \param helper the helper
 * \param a an adapter
 * \return D
 */
Time
ControlOneWay(const NodeContainer& chips, const CellFabricHelper& helper, Ptr<CellFabricAdapter> a)
{
    Ptr<FabricNetDevice> port = DynamicCast<FabricNetDevice>(chips.Get(0)->GetDevice(0));
    Ptr<FabricChannel> ch = port->GetFabricChannel();
    const double rate = ch->GetDataRate().GetBitRate() / 8.0;
    const double d = a->GetTxLatency().GetSeconds() + 2 * ch->GetOneWayDelay().GetSeconds() +
                     helper.GetPlanes()[0]->GetPipelineLatency().GetSeconds() +
                     (96 + a->GetCellHeaderBytes()) / rate + a->GetRxLatency().GetSeconds();
    return Seconds(d);
}

/**
 * \param id message id
 * \param src source chip
 * \param dst destination chip
 * \param bytes payload
 * \return a message record for PostRdmaWrite / PostRdmaJob
 */
FabricMessage
Message(uint64_t id, uint32_t src, uint32_t dst, uint64_t bytes)
{
    FabricMessage m;
    m.id = id;
    m.src = src;
    m.dst = dst;
    m.bytes = bytes;
    m.posted = Simulator::Now();
    return m;
}

/**
 * \ingroup cell-fabric
 * The VOQ map table (Pyxis spec 10.2). VPFE[10:0] = map[VOQ[12:2]], OQ = VOQ[1:0]; legal VPFEs
 * have VPFE[1:0] != 3, so 3 of every 4 of the 2048 are legal: 1536. The model numbers the pod's
 * clusters n = chip * 4 + cluster onto the legal VPFEs in order: VPFE = (n / 3) * 4 + n % 3, and
 * the default map sends group g to the g-th legal VPFE, so VOQ id = 4 n + OQ. Expected:
 * - VOQ 0: VPFE 0, chip 0, cluster 0, OQ 0. VOQ 13: group 3 -> VPFE 4 (n = 3: chip 0,
 *   cluster 3), OQ 1. VOQ 91 = 4 x 22 + 3: n = 22 -> VPFE 7 x 4 + 1 = 29, chip 5, cluster 2, OQ 3.
 * - group 1535 (VOQ 6143 = 4 x 1535 + 3) -> VPFE 511 x 4 + 2 = 2046: chip 383, cluster 3; group
 *   1536 (VOQ 6144) and group 2047 (VOQ 8191) map to no VPFE by default.
 * - ids 8192 (2^13), 8193 and 65535 are refused: they do not fit in 13 bits.
 * - VPFEs 3, 7 and 2047 (VPFE[1:0] = 3) and 2048 are refused; group 2048 is refused.
 * - Group 2047 remapped to VPFE 8 (n = 6: chip 1, cluster 2): VOQ 8191 -> VPFE 8, OQ 3.
 * - Every cluster n < 1536 round-trips (chip, cluster) -> VPFE -> (chip, cluster) through a
 *   legal VPFE, and exactly 1536 VPFEs below 2048 are legal.
 * - Priority and profile per VOQ: low and 0 by default, as set.
 */
class VoqTableTestCase : public TestCase
{
  public:
    VoqTableTestCase()
        : TestCase("VOQ map table: 13-bit VOQ ids to VPFE and OQ, refusals")
    {
    }

  private:
    void DoRun() override
    {
        CellFabricVoqTable t(4);
        t.SetDefaultMap();
        CellFabricVoqTable::Target r;
        std::string error;
        using Row = std::tuple<uint32_t, uint32_t, uint32_t, uint32_t, uint32_t>;
        for (const auto& [voq, vpfe, chip, cluster, oq] : std::vector<Row>{{0, 0, 0, 0, 0},
                                                                           {13, 4, 0, 3, 1},
                                                                           {91, 29, 5, 2, 3},
                                                                           {6143, 2046, 383, 3, 3}})
        {
            NS_TEST_ASSERT_MSG_EQ(t.Lookup(voq, r, error), true, "VOQ " << voq << ": " << error);
            NS_TEST_ASSERT_MSG_EQ(r.vpfe, vpfe, "VPFE of VOQ " << voq);
            NS_TEST_ASSERT_MSG_EQ(r.chip, chip, "chip of VOQ " << voq);
            NS_TEST_ASSERT_MSG_EQ(r.cluster, cluster, "cluster of VOQ " << voq);
            NS_TEST_ASSERT_MSG_EQ(r.oq, oq, "OQ of VOQ " << voq);
            NS_TEST_ASSERT_MSG_EQ(t.GetDefaultVoq(chip, cluster, oq), voq, "default VOQ id");
        }
        for (uint32_t voq : {6144U, 8191U})
        {
            NS_TEST_ASSERT_MSG_EQ(t.Lookup(voq, r, error), false, "unmapped VOQ " << voq);
            NS_TEST_ASSERT_MSG_NE(error.find("maps to no VPFE"), std::string::npos, error);
        }
        for (uint32_t voq : {8192U, 8193U, 65535U})
        {
            error.clear();
            NS_TEST_ASSERT_MSG_EQ(t.Lookup(voq, r, error), false, "VOQ " << voq << " refused");
            NS_TEST_ASSERT_MSG_NE(error.find("does not fit in 13 bits"), std::string::npos, error);
        }
        for (uint32_t vpfe : {3U, 7U, 2047U, 2048U})
        {
            NS_TEST_ASSERT_MSG_EQ(t.Map(0, vpfe, error), false, "VPFE " << vpfe << " refused");
        }
        NS_TEST_ASSERT_MSG_EQ(t.Map(2048, 0, error), false, "group 2048 refused");
        NS_TEST_ASSERT_MSG_EQ(t.Map(2047, 8, error), true, error);
        NS_TEST_ASSERT_MSG_EQ(t.Lookup(8191, r, error), true, error);
        NS_TEST_ASSERT_MSG_EQ(r.vpfe, 8, "remapped VPFE");
        NS_TEST_ASSERT_MSG_EQ(r.chip, 1, "remapped chip");
        NS_TEST_ASSERT_MSG_EQ(r.cluster, 2, "remapped cluster");
        NS_TEST_ASSERT_MSG_EQ(r.oq, 3, "remapped OQ");
        uint32_t legal = 0;
        for (uint32_t v = 0; v < 2048; ++v)
        {
            legal += CellFabricVoqTable::IsLegalVpfe(v);
        }
        NS_TEST_ASSERT_MSG_EQ(legal, 1536, "legal VPFEs");
        bool roundTrip = true;
        for (uint32_t n = 0; n < 1536; ++n)
        {
            const uint32_t vpfe = t.GetVpfe(n / 4, n % 4);
            uint32_t chip = 0;
            uint32_t cluster = 0;
            roundTrip &= CellFabricVoqTable::IsLegalVpfe(vpfe);
            t.GetChipCluster(vpfe, chip, cluster);
            roundTrip &= chip == n / 4 && cluster == n % 4;
        }
        NS_TEST_ASSERT_MSG_EQ(roundTrip, true, "clusters round-trip through their VPFEs");
        NS_TEST_ASSERT_MSG_EQ(t.GetVpfe(384, 0), CellFabricVoqTable::UNMAPPED, "cluster 1536");
        NS_TEST_ASSERT_MSG_EQ(t.IsHighPriority(91), false, "low by default");
        NS_TEST_ASSERT_MSG_EQ(t.GetProfile(91), 0, "profile 0 by default");
        t.SetHighPriority(91, true);
        t.SetProfile(91, 7);
        NS_TEST_ASSERT_MSG_EQ(t.IsHighPriority(91), true, "set high");
        NS_TEST_ASSERT_MSG_EQ(t.GetProfile(91), 7, "set profile 7");
        std::cout << "VOQ table: VOQ 91 -> VPFE 29 (chip 5, cluster 2, OQ 3); 1536 legal VPFEs; "
                     "ids 8192, 8193, 65535 refused"
                  << std::endl;
    }
};

/**
 * \ingroup cell-fabric
 * The occupancy limiter's levels (10.7.3.1) on their own, counted by hand. Configured with a
 * 10-entry QPage table, a cap of 6 per source cluster, groups of 4 (high) and 3 (low) per
 * cluster and profile 0 = {XOFF 2, XON 0}:
 * - cluster 0, low VOQs 1, 2, 3 (one page each): the 4th low page (VOQ 4) is stopped by the low
 *   group (3 of 3); high VOQs 5, 6, 7: the next high page is stopped by the cluster cap (6 of
 *   6) before the high group (3 of 4).
 * - cluster 1: 4 high pages (its own groups and cap) fill the table (10 of 10); the next is
 *   stopped by the pool (a low page: the low group of cluster 1 is empty).
 * - XOFF/XON: cluster 1's VOQ 9 takes 2 pages of profile 0 once a QPage is free (the pool then
 *   full again): XOFF at 2; one page retired (1 left) stays off (XON is 0); the second retired:
 *   XON, and VOQ 9 may generate again. Retiring an unknown handle is refused.
 * - Profiles: {8, 9}, {4, 4} and {0, 0} are refused (XON not below XOFF, XOFF 0); {8, 7} is
 *   legal.
 */
class OccupancyLimiterTestCase : public TestCase
{
  public:
    OccupancyLimiterTestCase()
        : TestCase("Occupancy limiter levels: group limits, cluster cap, QPage pool, profiles")
    {
    }

  private:
    void DoRun() override
    {
        using L = CellFabricOccupancyLimiter;
        L lim;
        lim.Configure(10, 6, 4, 3, 64);
        lim.SetProfile(0, 2, 0);
        uint64_t handle = 0;
        for (uint64_t voq = 1; voq <= 3; ++voq)
        {
            NS_TEST_ASSERT_MSG_EQ(lim.Check(0, voq, 0, false), L::NONE, "low page " << voq);
            lim.Allocate(handle++, 0, voq, 0, false);
        }
        NS_TEST_ASSERT_MSG_EQ(lim.Check(0, 4, 0, false), L::GROUP, "low group full");
        for (uint64_t voq = 5; voq <= 7; ++voq)
        {
            NS_TEST_ASSERT_MSG_EQ(lim.Check(0, voq, 0, true), L::NONE, "high page " << voq);
            lim.Allocate(handle++, 0, voq, 0, true);
        }
        NS_TEST_ASSERT_MSG_EQ(lim.Check(0, 8, 0, true), L::CLUSTER, "cluster cap");
        for (uint64_t voq = 10; voq <= 13; ++voq)
        {
            NS_TEST_ASSERT_MSG_EQ(lim.Check(1, voq, 0, true), L::NONE, "cluster 1");
            lim.Allocate(handle++, 1, voq, 0, true);
        }
        NS_TEST_ASSERT_MSG_EQ(lim.GetInUse(), 10, "10 QPages");
        NS_TEST_ASSERT_MSG_EQ(lim.Check(1, 9, 0, false), L::POOL, "table full");
        // free two of cluster 1's QPages (handles 6 and 7): VOQ 9 takes both and goes to XOFF
        NS_TEST_ASSERT_MSG_EQ(lim.Free(6), true, "free 6");
        NS_TEST_ASSERT_MSG_EQ(lim.Free(7), true, "free 7");
        NS_TEST_ASSERT_MSG_EQ(lim.Allocate(100, 1, 9, 0, true), 1, "VOQ 9: 1 page");
        NS_TEST_ASSERT_MSG_EQ(lim.Allocate(101, 1, 9, 0, true), 2, "VOQ 9: 2 pages");
        NS_TEST_ASSERT_MSG_EQ(lim.GetStats().xoffs, 1, "XOFF at 2");
        NS_TEST_ASSERT_MSG_EQ(lim.Check(1, 9, 0, true), L::XOFF, "VOQ 9 in XOFF");
        NS_TEST_ASSERT_MSG_EQ(lim.Free(100), true, "free 100");
        NS_TEST_ASSERT_MSG_EQ(lim.Check(1, 9, 0, true), L::XOFF, "1 left: still off (XON 0)");
        NS_TEST_ASSERT_MSG_EQ(lim.GetStats().xons, 0, "no XON yet");
        NS_TEST_ASSERT_MSG_EQ(lim.Free(101), true, "free 101");
        NS_TEST_ASSERT_MSG_EQ(lim.GetStats().xons, 1, "XON at 0");
        NS_TEST_ASSERT_MSG_EQ(lim.Check(1, 9, 0, true), L::NONE, "VOQ 9 generates again");
        NS_TEST_ASSERT_MSG_EQ(lim.GetOutstanding(1, 9), 0, "VOQ 9 empty");
        NS_TEST_ASSERT_MSG_EQ(lim.GetInUse(), 8, "8 QPages in use");
        NS_TEST_ASSERT_MSG_EQ(lim.GetStats().peakInUse, 10, "peak 10");
        NS_TEST_ASSERT_MSG_EQ(lim.Free(999), false, "unknown handle");
        std::string error;
        NS_TEST_ASSERT_MSG_EQ(L::CheckProfile(8, 9, error), false, "xon 9 above xoff 8");
        NS_TEST_ASSERT_MSG_EQ(L::CheckProfile(4, 4, error), false, "xon equal to xoff");
        NS_TEST_ASSERT_MSG_EQ(L::CheckProfile(0, 0, error), false, "xoff 0");
        NS_TEST_ASSERT_MSG_EQ(L::CheckProfile(8, 7, error), true, "{8, 7}");
    }
};

/**
 * \ingroup cell-fabric
 * RDMA jobs posted by VOQ id (10.2, 10.7[1]) on 4 chips. Default map: VOQ 44 = 4 x (2 x 4 + 3)
 * + 0 is chip 2, cluster 3, OQ 0: right after the post the adapter's VOQ list shows exactly
 * that VOQ (one job). Software remaps group 11 (VOQ[12:2] of 44) to the VPFE of chip 3,
 * cluster 1 (n = 13: VPFE 4 x 4 + 1 = 17): the same VOQ id now reaches chip 3, cluster 1 (the
 * table virtualizes the VOQ numbering, 10.2). Conservation: both 64 KiB messages are delivered,
 * at chips 2 and 3, and nothing is dropped.
 */
class VoqIdJobTestCase : public TestCase
{
  public:
    VoqIdJobTestCase()
        : TestCase("RDMA jobs posted by VOQ id reach the VOQ map's chip and cluster")
    {
    }

  private:
    void DoRun() override
    {
        CellFabricHelper helper;
        NodeContainer chips;
        chips.Create(4);
        std::vector<Ptr<CellFabricAdapter>> a = helper.Install(chips, 4);
        a[0]->PostRdmaJob(Message(1, 0, 2, 65536), 44);
        const std::vector<CellFabricAdapter::VoqState> v = a[0]->GetVoqStates();
        NS_TEST_ASSERT_MSG_EQ(v.size(), 1, "one VOQ");
        NS_TEST_ASSERT_MSG_EQ(v[0].dst, 2, "chip 2");
        NS_TEST_ASSERT_MSG_EQ(v[0].cluster, 3, "cluster 3");
        NS_TEST_ASSERT_MSG_EQ(v[0].oq, 0, "OQ 0");
        NS_TEST_ASSERT_MSG_EQ(v[0].jobs, 1, "one job");
        std::string error;
        NS_TEST_ASSERT_MSG_EQ(a[0]->GetVoqTable().Map(11, 17, error), true, error);
        a[0]->PostRdmaJob(Message(2, 0, 3, 65536), 44);
        bool found = false;
        for (const auto& s : a[0]->GetVoqStates())
        {
            found |= s.dst == 3 && s.cluster == 1 && s.oq == 0 && s.jobs == 1;
        }
        NS_TEST_ASSERT_MSG_EQ(found, true, "remapped VOQ 44: chip 3, cluster 1, OQ 0");
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(a[2]->GetReceivedPayloadBytes(), 65536, "64 KiB at chip 2");
        NS_TEST_ASSERT_MSG_EQ(a[3]->GetReceivedPayloadBytes(), 65536, "64 KiB at chip 3");
        NS_TEST_ASSERT_MSG_EQ(a[0]->GetStats().jobsCompleted, 2, "both jobs acknowledged");
        NS_TEST_ASSERT_MSG_EQ(FabricDrops(helper, a), 0, "no drop");
        Simulator::Destroy();
    }
};

/// Page generation records: (time, job, page, outstanding).
using GenLog = std::vector<std::tuple<Time, uint64_t, uint32_t, uint32_t>>;

/**
 * Record a generated page.
 * \param log the record
 * \param job job id
 * \param page page
 * \param outstanding the VOQ's outstanding pages with it
 */
void
OnPageGen(GenLog* log, uint64_t job, uint32_t page, uint32_t outstanding)
{
    log->emplace_back(Simulator::Now(), job, page, outstanding);
}

/**
 * \ingroup cell-fabric
 * The Page Generator's high/low priority (10.7.3) with one QPage (QPages = 1). Chip 0 posts at
 * t0 a high-priority job of 4 pages (64,000 B = 500 words = 4 x 125) to chip 1 and then a
 * low-priority job of 4 pages to chip 2. Both CTSs arrive at t0 + D (D: control one way; the
 * high one first, it was posted first), so both VOQs are backlogged from then on. Every page's
 * QPage is retired when its grant comes back and FO dequeues it: the request takes D to the
 * receiver, which grants at once (an idle scheduler: its pace, 37 ns of links or 94 ns of RxDMA
 * per page, is below the 2D between requests), and the grant D back. So one page is generated
 * every 2D, and with both backlogged the high-priority channel wins every time: expected order
 * high pages 0..3 then low pages 0..3, page k at t0 + D + 2 k D (k = 0..7): the low job starts at
 * t0 + 9D. Each within 1 ns. Conservation: 128,000 B delivered, no drop; the QPage table never
 * held more than 1 page, and the low job's CTS found it full (a QPage wait).
 */
class PagePriorityTestCase : public TestCase
{
  public:
    PagePriorityTestCase()
        : TestCase("Page Generator serves high-priority VOQs before low-priority ones")
    {
    }

  private:
    void DoRun() override
    {
        CellFabricHelper helper;
        helper.SetAdapterAttribute("QPages", UintegerValue(1));
        NodeContainer chips;
        chips.Create(3);
        std::vector<Ptr<CellFabricAdapter>> a = helper.Install(chips, 36);
        GenLog log;
        a[0]->TraceConnectWithoutContext("PageGen", MakeBoundCallback(&OnPageGen, &log));
        const Time t0 = MicroSeconds(1);
        Simulator::Schedule(t0, [&a]() {
            CellFabricAdapter::JobClass high;
            high.high = true;
            CellFabricAdapter::JobClass low;
            a[0]->PostRdmaWrite(Message(1, 0, 1, 64000), 0, high); // job 0
            a[0]->PostRdmaWrite(Message(2, 0, 2, 64000), 0, low);  // job 1
        });
        Simulator::Run();
        const Time d = ControlOneWay(chips, helper, a[0]);
        NS_TEST_ASSERT_MSG_EQ(log.size(), 8, "8 pages generated");
        std::cout << "priority: D " << d.GetSeconds() * 1e9 << " ns; generated (us, job, page):";
        for (uint32_t k = 0; k < log.size(); ++k)
        {
            const auto& [t, job, page, outstanding] = log[k];
            std::cout << " (" << (t - t0).GetSeconds() * 1e6 << ", " << job << ", " << page << ")";
            NS_TEST_ASSERT_MSG_EQ(job, (k < 4 ? 0U : 1U), "high pages first");
            NS_TEST_ASSERT_MSG_EQ(page, k % 4, "pages in order");
            const Time expected = t0 + d + 2 * k * d;
            NS_TEST_ASSERT_MSG_EQ_TOL(t, expected, NanoSeconds(1), "page " << k << " at D + 2kD");
        }
        std::cout << std::endl;
        NS_TEST_ASSERT_MSG_EQ(a[1]->GetReceivedPayloadBytes(), 64000, "high job delivered");
        NS_TEST_ASSERT_MSG_EQ(a[2]->GetReceivedPayloadBytes(), 64000, "low job delivered");
        NS_TEST_ASSERT_MSG_EQ(FabricDrops(helper, a), 0, "no drop");
        NS_TEST_ASSERT_MSG_EQ(a[0]->GetOccupancyLimiter().GetStats().peakInUse, 1, "one QPage");
        NS_TEST_ASSERT_MSG_GT(a[0]->GetStats().qpageWaits, 0, "the low job waited for a QPage");
        NS_TEST_ASSERT_MSG_EQ(a[0]->GetOccupancyLimiter().GetInUse(), 0, "QPages all free");
        Simulator::Destroy();
    }
};

/**
 * \ingroup cell-fabric
 * The occupancy limiter's XOFF/XON hysteresis (10.7.3.1) on a 1 MiB job (66 pages) between two
 * idle chips. Grants come back one at a time (paced), each retiring one QPage, and every
 * retirement runs the Page Generator, which generates at once whatever the limiter allows.
 * - Profile 1 = {XOFF 8, XON 4} (OccupancyProfiles "64:63,8:4", DefaultOccupancyProfile 1): 8
 *   pages at the CTS (XOFF 1); then each time 4 grants have brought the count down to XON = 4,
 *   4 more pages (5, 6, 7, 8: XOFF again). 66 = 8 + 14 x 4 + 2: XOFF 1 + 14 = 15 times, XON 14 +
 *   1 = 15 times (the last resumption generates the last 2 pages, 5 and 6, and stays on). Every
 *   page: at most 8 outstanding; every page after an XOFF has 5 outstanding (resumed exactly at
 *   XON = 4).
 * - Profile 0 by default = {64, 63}, the old MaxOutstandingPages limit: 64 pages at the CTS (XOFF
 *   1), then a grant gives 63 (XON 1) and page 65 is generated (64: XOFF 2), then page 66 the
 *   same way (XON 2, XOFF 3), and the next grant XON 3: 3 and 3, at most 64 outstanding.
 * Conservation: 1 MiB delivered, no drop, all QPages free at the end.
 */
class OccupancyHysteresisTestCase : public TestCase
{
  public:
    OccupancyHysteresisTestCase()
        : TestCase("Occupancy limiter: XOFF and XON hysteresis per VOQ profile")
    {
    }

  private:
    void DoRun() override
    {
        Check(true, 8, 4, 15, 15);
        Check(false, 64, 63, 3, 3);
    }

    /**
     * Run the job with a profile and check it.
     * \param custom use profile 1 = {8, 4}; else the default profile 0
     * \param xoff the profile's XOFF
     * \param xon its XON
     * \param xoffs expected XOFF events
     * \param xons expected XON events
     */
    void Check(bool custom, uint32_t xoff, uint32_t xon, uint64_t xoffs, uint64_t xons)
    {
        CellFabricHelper helper;
        if (custom)
        {
            helper.SetAdapterAttribute("OccupancyProfiles", StringValue("64:63,8:4"));
            helper.SetAdapterAttribute("DefaultOccupancyProfile", UintegerValue(1));
        }
        NodeContainer chips;
        chips.Create(2);
        std::vector<Ptr<CellFabricAdapter>> a = helper.Install(chips, 36);
        GenLog log;
        a[0]->TraceConnectWithoutContext("PageGen", MakeBoundCallback(&OnPageGen, &log));
        Simulator::Schedule(MicroSeconds(1), [&a]() { a[0]->Send(1, 1 << 20, 0); });
        Simulator::Run();
        uint32_t most = 0;
        uint32_t afterXoff = 0;
        bool resumedAtXon = true;
        for (uint32_t k = 0; k < log.size(); ++k)
        {
            const uint32_t n = std::get<3>(log[k]);
            most = std::max(most, n);
            if (k > 0 && std::get<3>(log[k - 1]) == xoff)
            {
                ++afterXoff;
                resumedAtXon &= n == xon + 1;
            }
        }
        const auto& s = a[0]->GetOccupancyLimiter().GetStats();
        std::cout << "hysteresis {" << xoff << ", " << xon << "}: " << log.size()
                  << " pages, most outstanding " << most << ", XOFF " << s.xoffs << ", XON "
                  << s.xons << ", resumptions after XOFF " << afterXoff << std::endl;
        NS_TEST_ASSERT_MSG_EQ(log.size(), 66, "66 pages");
        NS_TEST_ASSERT_MSG_EQ(most, xoff, "never more than XOFF outstanding");
        NS_TEST_ASSERT_MSG_EQ(resumedAtXon, true, "generation resumes exactly at XON");
        NS_TEST_ASSERT_MSG_EQ(s.xoffs, xoffs, "XOFF events");
        NS_TEST_ASSERT_MSG_EQ(s.xons, xons, "XON events");
        NS_TEST_ASSERT_MSG_EQ(a[1]->GetReceivedPayloadBytes(), 1 << 20, "1 MiB delivered");
        NS_TEST_ASSERT_MSG_EQ(FabricDrops(helper, a), 0, "no drop");
        NS_TEST_ASSERT_MSG_EQ(a[0]->GetOccupancyLimiter().GetInUse(), 0, "QPages all free");
        Simulator::Destroy();
    }
};

/**
 * \ingroup cell-fabric
 * QPage table exhaustion (10.7.6) and TxBuf stalls (10.7.7-8), without loss.
 * - QPages = 4: chip 0 sends 256 KiB to each of chips 1, 2 and 3 (3 VOQs of 17 pages: 16 x 125
 *   + 48 words). The VOQs' own limit (64) would let all 51 pages out at once; the table holds 4,
 *   so generation stalls until FO dequeues pages. Expected: at most 4 QPages in use (exactly 4
 *   at the peak), QPage waits, and by conservation 3 x 256 KiB delivered, 3 jobs completed, no
 *   drop, the table empty at the end.
 * - One FO pipe with a TxBuf of 16,384 B (one full page of 16,000 B; two do not fit): the same
 *   traffic's grants come back from 3 receivers faster than one pipe moves pages (88 B per cycle,
 *   a full page of 16,016 B in 182 cycles, the 48-word page of 6160 B in 70), so granted pages
 *   wait for TxBuf space (stalls) and the pipe is never idle once backlogged: from the first
 *   page out to the last is exactly the FO time of the other 50 pages, 47 x 182 + 3 x 70 cycles
 *   (each page rounded to the picosecond as the model does: 47 x 136,842 + 3 x 52,632 ps =
 *   6,589.47 ns; within 1 ns). Conservation as above.
 */
class QPageTxBufTestCase : public TestCase
{
  public:
    QPageTxBufTestCase()
        : TestCase("QPage table exhaustion and TxBuf stalls stall generation without loss")
    {
    }

  private:
    void DoRun() override
    {
        Run(false);
        Run(true);
    }

    /**
     * \param txBuf true: one FO pipe with a one-page TxBuf; false: 4 QPages
     */
    void Run(bool txBuf)
    {
        CellFabricHelper helper;
        if (txBuf)
        {
            helper.SetAdapterAttribute("FoPipes", UintegerValue(1));
            helper.SetAdapterAttribute("TxBufBytes", UintegerValue(16384));
        }
        else
        {
            helper.SetAdapterAttribute("QPages", UintegerValue(4));
        }
        NodeContainer chips;
        chips.Create(4);
        std::vector<Ptr<CellFabricAdapter>> a = helper.Install(chips, 36);
        std::vector<Time> out;
        a[0]->TraceConnectWithoutContext("PageTx",
                                         Callback<void, uint32_t, uint64_t, uint32_t, uint32_t>(
                                             [&out](uint32_t, uint64_t, uint32_t, uint32_t) {
                                                 out.push_back(Simulator::Now());
                                             }));
        uint64_t completed = 0;
        a[0]->SetCompletedCallback(
            FabricEndpoint::MessageCallback([&completed](const FabricMessage&) { ++completed; }));
        Simulator::Schedule(MicroSeconds(1), [&a]() {
            for (uint32_t d = 1; d < 4; ++d)
            {
                a[0]->Send(d, 256 << 10, 0);
            }
        });
        Simulator::Run();
        const auto& lim = a[0]->GetOccupancyLimiter();
        const CellFabricAdapter::Stats& s = a[0]->GetStats();
        uint64_t received = 0;
        for (uint32_t d = 1; d < 4; ++d)
        {
            received += a[d]->GetReceivedPayloadBytes();
        }
        std::cout << (txBuf ? "TxBuf one page, one pipe" : "4 QPages") << ": peak QPages "
                  << lim.GetStats().peakInUse << ", QPage waits " << s.qpageWaits
                  << ", TxBuf stalls " << s.txBufStalls << ", pages " << out.size()
                  << ", first to last page out "
                  << (out.empty() ? 0.0 : (out.back() - out.front()).GetSeconds() * 1e9)
                  << " ns, bytes " << received << std::endl;
        NS_TEST_ASSERT_MSG_EQ(received, 3 * (256 << 10), "bytes conserved");
        NS_TEST_ASSERT_MSG_EQ(completed, 3, "3 jobs completed");
        NS_TEST_ASSERT_MSG_EQ(FabricDrops(helper, a), 0, "no drop");
        NS_TEST_ASSERT_MSG_EQ(out.size(), 51, "51 pages sent");
        NS_TEST_ASSERT_MSG_EQ(lim.GetInUse(), 0, "QPages all free");
        if (txBuf)
        {
            NS_TEST_ASSERT_MSG_GT(s.txBufStalls, 0, "pages waited for TxBuf space");
            const Time expected = 47 * PicoSeconds(136842) + 3 * PicoSeconds(52632);
            NS_TEST_ASSERT_MSG_EQ_TOL(out.back() - out.front(),
                                      expected,
                                      NanoSeconds(1),
                                      "the pipe never idles");
        }
        else
        {
            NS_TEST_ASSERT_MSG_EQ(lim.GetStats().peakInUse, 4, "at most 4 QPages");
            NS_TEST_ASSERT_MSG_GT(s.qpageWaits, 0, "generation waited for QPages");
        }
        Simulator::Destroy();
    }
};

} // namespace

/**
 * \return the Tx pipeline test cases of the cell-fabric suite
 */
std::vector<TestCase*>
MakeCellFabricTxPipelineTests()
{
    return {new VoqTableTestCase,
            new OccupancyLimiterTestCase,
            new VoqIdJobTestCase,
            new PagePriorityTestCase,
            new OccupancyHysteresisTestCase,
            new QPageTxBufTestCase};
}
