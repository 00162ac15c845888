/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// RIFL pods through RIFL switches (pod.rifl.switch, RIFL paper sections IV.A, IV.C): a lone
// message over 3 and 5 switch hops crosses every switch's VOQ + iSLIP core, every byte arrives,
// nothing is dropped, and the cells counted at the switches are the message's cells times the
// hops. Its completion time against the output-queued switch: a cell-time-slotted scheduler adds
// less than one cell time per hop (closed form in the test's comment).

#include "ns3/fabric-endpoint.h"
#include "ns3/fabric-message.h"
#include "ns3/fabric-switch.h"
#include "ns3/picosecond-test-suite.h"
#include "ns3/pod-topology.h"
#include "ns3/rifl-voq-switch.h"
#include "ns3/scenario-loader.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <string>

using namespace ns3;

namespace
{
/// Result of one lone-message run.
struct LoneRun
{
    uint64_t delivered{0}; //!< payload bytes delivered at the destination
    uint64_t drops{0};     //!< units dropped at switches
    uint64_t units{0};     //!< units through the RIFL switch cores
    uint64_t cells{0};     //!< cells through the RIFL switch cores
    uint64_t cores{0};     //!< switches with a RIFL core
    uint32_t hops{0};      //!< switch hops of the route
    Time done;             //!< delivery time
};

void
Delivered(Time* at, const FabricMessage&)
{
    *at = Simulator::Now();
}

LoneRun
RunLone(uint32_t n, uint32_t radix, uint32_t dst, uint64_t bytes, const std::string& sw)
{
    const std::string text =
        "name: rifl-pod\n"
        "pod: {accelerators: " +
        std::to_string(n) +
        ", fabric: rifl, link: {rate: 100Gbps}, switch: {radix: " + std::to_string(radix) +
        "}, rifl: {switch: " + sw +
        "}}\n"
        "workloads:\n"
        "  - {kind: all-to-all, size: 4KiB}\n"
        "output: {progress: false}\n";
    const Scenario s = ScenarioLoader::LoadString(text, "rifl-pod.yaml", {});
    LoneRun r;
    {
        PodTopology t;
        t.Build(s.pod);
        const auto path = t.WalkRoute(0, dst, 0, 0);
        r.hops = static_cast<uint32_t>(path.size()) - 1;
        t.GetEndpoint(dst)->SetDeliveredCallback(MakeBoundCallback(&Delivered, &r.done));
        t.GetEndpoint(0)->Send(dst, bytes, 0);
        Simulator::Run();
        r.delivered = t.GetEndpoint(dst)->GetBytesDelivered();
        for (const auto& x : t.GetSwitches())
        {
            for (const auto& [reason, count] : x->GetDrops())
            {
                r.drops += count;
            }
            Ptr<RiflVoqSwitch> v = x->GetObject<RiflVoqSwitch>();
            if (v)
            {
                ++r.cores;
                r.units += v->GetStats().units;
                r.cells += v->GetStats().cells;
            }
        }
    }
    Simulator::Destroy();
    return r;
}
} // namespace

/**
 * A lone 64 KiB message from accelerator 0 through a RIFL pod of iSLIP switches, over 3 hops
 * (8 accelerators on radix-4 switches: leaf, spine, leaf) and 5 hops (32 accelerators on radix-6
 * switches: leaf, spine, core, spine, leaf).
 */
class PodRiflIslipTestCase : public TestCase
{
  public:
    /**
     * \param n accelerators
     * \param radix switch radix
     * \param dst destination accelerator
     * \param hops expected switch hops
     */
    PodRiflIslipTestCase(uint32_t n, uint32_t radix, uint32_t dst, uint32_t hops)
        : TestCase("RIFL pod, lone message over " + std::to_string(hops) +
                   " hops through iSLIP switches"),
          m_n(n),
          m_radix(radix),
          m_dst(dst),
          m_hops(hops)
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t bytes = 64 * 1024;
        const LoneRun is = RunLone(m_n, m_radix, m_dst, bytes, "islip");
        const LoneRun oq = RunLone(m_n, m_radix, m_dst, bytes, "output-queued");
        NS_TEST_ASSERT_MSG_EQ(is.hops, m_hops, "route length");
        NS_TEST_EXPECT_MSG_GT(is.cores, 0, "switches have a RIFL core");
        NS_TEST_EXPECT_MSG_EQ(oq.cores, 0, "output-queued: none");
        // Lossless: every byte once, no drop.
        NS_TEST_EXPECT_MSG_EQ(is.delivered, bytes, "bytes conserved (islip)");
        NS_TEST_EXPECT_MSG_EQ(oq.delivered, bytes, "bytes conserved (output-queued)");
        NS_TEST_EXPECT_MSG_EQ(is.drops, 0, "no drop");
        // Section IV.A: 64 KiB in 4096 B NIC packets = 16 packets of 16 segments of 256 B (each
        // 264 B with its header); every one crosses each switch of the route once.
        NS_TEST_EXPECT_MSG_EQ(is.units, 16 * m_hops, "packets through the iSLIP cores");
        NS_TEST_EXPECT_MSG_EQ(is.cells, 256 * m_hops, "cells through the iSLIP cores");
        // Closed form: the packets arrive back to back, 16 cell times apart (264 B x 16 at the
        // link rate), so at each hop every packet waits the same delta_h in [0, cell time) for
        // the next cell-time boundary, and its input and output are free again exactly when the
        // next packet arrives: T_islip = T_oq + sum_h delta_h, 0 <= sum < hops x cell time.
        const Time cell = DataRate("100Gbps").CalculateBytesTxTime(264);
        const Time extra = is.done - oq.done;
        std::cout << "  " << m_hops << " hops: output-queued " << oq.done.GetNanoSeconds()
                  << " ns, islip " << is.done.GetNanoSeconds() << " ns, extra "
                  << extra.GetPicoSeconds() << " ps < " << m_hops << " x " << cell.GetPicoSeconds()
                  << " ps; cells " << is.cells << ", units " << is.units << std::endl;
        NS_TEST_EXPECT_MSG_GT_OR_EQ(extra, Time(0), "slotting never speeds up");
        NS_TEST_EXPECT_MSG_LT(extra,
                              cell * static_cast<int64_t>(m_hops),
                              "under a cell time per hop");
    }

    uint32_t m_n;     //!< accelerators
    uint32_t m_radix; //!< radix
    uint32_t m_dst;   //!< destination
    uint32_t m_hops;  //!< expected hops
};

/**
 * The RIFL pod suite.
 */
class PodRiflTestSuite : public PicosecondTestSuite
{
  public:
    PodRiflTestSuite()
        : PicosecondTestSuite("pod-rifl", UNIT)
    {
        AddTestCase(new PodRiflIslipTestCase(8, 4, 7, 3), TestCase::QUICK);
        AddTestCase(new PodRiflIslipTestCase(32, 6, 31, 5), TestCase::QUICK);
    }
};

static PodRiflTestSuite g_podRiflTestSuite; //!< the suite
