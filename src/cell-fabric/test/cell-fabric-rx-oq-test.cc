/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Tests of the Rx OQM of the Fabric Adapter (Pyxis spec 10.8.5): the 4 OQs of a cluster served
// by a simple priority + round-robin scheduler, one page at a time, to the cluster's Page Reader
// and RxDMA. Part of the `cell-fabric` suite (cell-fabric-test-suite.cc adds them). Expected
// values are derived in each comment.

#include "ns3/cell-fabric-adapter.h"
#include "ns3/cell-fabric-helper.h"
#include "ns3/enum.h"
#include "ns3/fabric-net-device.h"
#include "ns3/fabric-switch.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <cstdint>
#include <iostream>
#include <tuple>
#include <vector>

using namespace ns3;

namespace
{

/// A page commit at the receiver: time, source chip, page.
using Commit = std::tuple<Time, uint32_t, uint32_t>;

/**
 * \ingroup cell-fabric
 * The Rx OQM's priority and round robin (10.8.5). Chips 1 and 2 each send 64,000 B (4 pages of
 * 125 words, 16,000 B) to cluster 0 of chip 0: chip 1 on OQ 1 (RDMA low class) at t0 = 1 us,
 * chip 2 on OQ 0 (RDMA high class) 100 ns later. The receiver's RxDMA is slowed to 8 B per
 * cycle, so a page takes w = 16,000 / 8 = 2000 cycles = 1.504 us to write, and the grant policy
 * is Fifo (every page granted at once: 8 x 91 cells fit the 24K-cell Rx CBUF), so all 8 pages
 * reach the OQs while RxDMA writes the first: chip 1's page 0 arrives first (it started 100 ns
 * earlier) and RxDMA takes it at once; chip 1's pages 1-3 and chip 2's 4 pages all arrive
 * within about 100 ns + 4 x 16,016 B / 478 GB/s (36 links) = 0.23 us of it, well before its
 * write ends at w. From then on RxDMA is never idle, and with commit latency 100 cycles < w and
 * 16 tracking IDs it never stalls: the commits are exactly w apart.
 * - Priority (RxOqHighPriority default 5: OQs 0 and 2 high): after chip 1's page 0 the high OQ
 *   holds pages, so chip 2's 4 pages go first (strict priority), then chip 1's pages 1-3 take
 *   what is left: order (1,0) (2,0) (2,1) (2,2) (2,3) (1,1) (1,2) (1,3).
 * - Round robin (RxOqHighPriority 0: OQs 0 and 1 of equal priority): after OQ 1's page 0 the
 *   pointer is at OQ 2, and pages alternate: (1,0) (2,0) (1,1) (2,1) (1,2) (2,2) (1,3) (2,3).
 * (In arrival order, the model before the OQM, chip 1's 4 pages would all come first.) Commit k
 * is at commit 0 + k w, within 1 ns. Conservation: 128,000 B delivered, no drop.
 */
class RxOqSchedulerTestCase : public TestCase
{
  public:
    /**
     * \param roundRobin OQs 0 and 1 of equal priority (else OQ 0 high, OQ 1 low)
     */
    RxOqSchedulerTestCase(bool roundRobin)
        : TestCase(roundRobin ? "Rx OQM: two OQs of equal priority share RxDMA round robin"
                              : "Rx OQM: the high-priority OQ is written first, the low one "
                                "gets what is left"),
          m_roundRobin(roundRobin)
    {
    }

  private:
    void DoRun() override
    {
        CellFabricHelper helper;
        helper.SetAdapterAttribute("GrantPolicy", EnumValue(CellFabricAdapter::FIFO));
        NodeContainer chips;
        chips.Create(3);
        std::vector<Ptr<CellFabricAdapter>> a = helper.Install(chips, 36);
        a[0]->SetAttribute("RxDmaBytesPerCycle", UintegerValue(8));
        if (m_roundRobin)
        {
            a[0]->SetAttribute("RxOqHighPriority", UintegerValue(0));
        }
        std::vector<Commit> log;
        a[0]->TraceConnectWithoutContext(
            "PageCommit",
            Callback<void, uint32_t, uint64_t, uint32_t, uint32_t>(
                [&log](uint32_t src, uint64_t, uint32_t page, uint32_t) {
                    log.emplace_back(Simulator::Now(), src, page);
                }));
        const Time t0 = MicroSeconds(1);
        auto post = [&a](uint32_t src, uint32_t oq) {
            FabricMessage m;
            m.id = src;
            m.src = src;
            m.dst = 0;
            m.bytes = 64000;
            m.posted = Simulator::Now();
            CellFabricAdapter::JobClass cls;
            cls.oq = oq;
            a[src]->PostRdmaWrite(m, 0, cls);
        };
        Simulator::Schedule(t0, [&post]() { post(1, 1); });
        Simulator::Schedule(t0 + NanoSeconds(100), [&post]() { post(2, 0); });
        Simulator::Run();
        const std::vector<std::pair<uint32_t, uint32_t>> expected =
            m_roundRobin ? std::vector<std::pair<uint32_t, uint32_t>>{{1, 0},
                                                                      {2, 0},
                                                                      {1, 1},
                                                                      {2, 1},
                                                                      {1, 2},
                                                                      {2, 2},
                                                                      {1, 3},
                                                                      {2, 3}}
                         : std::vector<std::pair<uint32_t, uint32_t>>{{1, 0},
                                                                      {2, 0},
                                                                      {2, 1},
                                                                      {2, 2},
                                                                      {2, 3},
                                                                      {1, 1},
                                                                      {1, 2},
                                                                      {1, 3}};
        const Time w = Seconds(16000 / a[0]->GetRxDmaBytesPerSecond());
        NS_TEST_ASSERT_MSG_EQ(log.size(), expected.size(), "8 pages committed");
        std::cout << (m_roundRobin ? "Rx OQM round robin" : "Rx OQM priority") << ": w "
                  << w.GetSeconds() * 1e9 << " ns; commits (us, src, page):";
        for (uint32_t k = 0; k < log.size() && k < expected.size(); ++k)
        {
            const auto& [t, src, page] = log[k];
            std::cout << " (" << (t - t0).GetSeconds() * 1e6 << ", " << src << ", " << page << ")";
            NS_TEST_ASSERT_MSG_EQ(src, expected[k].first, "source of commit " << k);
            NS_TEST_ASSERT_MSG_EQ(page, expected[k].second, "page of commit " << k);
            NS_TEST_ASSERT_MSG_EQ_TOL(t,
                                      std::get<0>(log[0]) + k * w,
                                      NanoSeconds(1),
                                      "commit " << k << " at commit 0 + k w");
        }
        std::cout << std::endl;
        NS_TEST_ASSERT_MSG_EQ(a[0]->GetReceivedPayloadBytes(), 128000, "bytes conserved");
        uint64_t drops = 0;
        for (const Ptr<CellFabricAdapter>& x : a)
        {
            for (const auto& kv : x->GetStats().drops)
            {
                drops += kv.second;
            }
        }
        NS_TEST_ASSERT_MSG_EQ(drops, 0, "no drop");
        Simulator::Destroy();
    }

    bool m_roundRobin; //!< equal priorities
};

} // namespace

/**
 * \return the Rx OQM tests, for the `cell-fabric` suite
 */
std::vector<TestCase*>
MakeCellFabricRxOqTests()
{
    return {new RxOqSchedulerTestCase(false), new RxOqSchedulerTestCase(true)};
}
