/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Topology and routing of the pod builder. Expected paths follow from the construction
// (pod-topology.h): one switch per plane when radix >= accelerators, otherwise leaves of radix/2
// accelerators with radix/2 uplinks to radix/2 spines.

#include "ns3/fabric-switch.h"
#include "ns3/picosecond-test-suite.h"
#include "ns3/pod-topology.h"
#include "ns3/scenario.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <map>
#include <set>
#include <vector>

using namespace ns3;

namespace
{
Scenario::Pod
MakePod(uint32_t n, uint32_t planes, uint32_t radix)
{
    Scenario::Pod p;
    p.accelerators = n;
    p.planes = planes;
    p.sw.radix = radix;
    p.sw.latency = NanoSeconds(250);
    p.sw.bufferBytes = 64ull << 20;
    return p;
}
} // namespace

/**
 * Every pair of a single-switch pod is routed through the plane's switch to the right port.
 */
class PodSingleSwitchRouteTestCase : public TestCase
{
  public:
    PodSingleSwitchRouteTestCase()
        : TestCase("Single switch per plane: every pair on every plane is one switch hop")
    {
    }

  private:
    void DoRun() override
    {
        PodTopology t;
        t.Build(MakePod(8, 2, 16));
        NS_TEST_ASSERT_MSG_EQ(t.IsTwoTier(), false, "radix 16 >= 8 accelerators");
        NS_TEST_ASSERT_MSG_EQ(t.GetSwitches().size(), 2, "one switch per plane");
        // Transmitters: 8 links per plane, two directions each.
        NS_TEST_ASSERT_MSG_EQ(t.GetTransmitters().size(), 2 * 2 * 8, "devices");
        for (uint32_t plane = 0; plane < 2; ++plane)
        {
            for (uint32_t s = 0; s < 8; ++s)
            {
                for (uint32_t d = 0; d < 8; ++d)
                {
                    if (s == d)
                    {
                        continue;
                    }
                    auto path = t.WalkRoute(s, d, plane, s * 31 + d);
                    NS_TEST_ASSERT_MSG_EQ(path.size(), 2, "switch then destination");
                    NS_TEST_ASSERT_MSG_EQ(path[0], "p" + std::to_string(plane) + ".sw0", "switch");
                    NS_TEST_ASSERT_MSG_EQ(path[1], "acc" + std::to_string(d), "destination");
                }
            }
        }
        Simulator::Destroy();
    }
};

/**
 * Two-tier leaf-spine: same-leaf pairs take one hop, others leaf-spine-leaf over every spine.
 */
class PodTwoTierRouteTestCase : public TestCase
{
  public:
    PodTwoTierRouteTestCase()
        : TestCase("Two-tier leaf-spine: shortest paths for every pair, ECMP over all spines")
    {
    }

  private:
    void DoRun() override
    {
        // 16 accelerators, radix 8: leaves of 4 accelerators, 4 leaves, 4 spines.
        PodTopology t;
        t.Build(MakePod(16, 1, 8));
        NS_TEST_ASSERT_MSG_EQ(t.IsTwoTier(), true, "radix 8 < 16 accelerators");
        NS_TEST_ASSERT_MSG_EQ(t.GetSwitchesPerPlane(), 8, "4 leaves + 4 spines");
        for (uint32_t s = 0; s < 16; ++s)
        {
            for (uint32_t d = 0; d < 16; ++d)
            {
                if (s == d)
                {
                    continue;
                }
                std::set<std::string> spines;
                for (uint32_t h = 0; h < 64; ++h)
                {
                    auto path = t.WalkRoute(s, d, 0, h);
                    NS_TEST_ASSERT_MSG_EQ(path.back(), "acc" + std::to_string(d), "reaches dst");
                    NS_TEST_ASSERT_MSG_EQ(path[0], "p0.leaf" + std::to_string(s / 4), "own leaf");
                    if (s / 4 == d / 4)
                    {
                        NS_TEST_ASSERT_MSG_EQ(path.size(), 2, "same leaf: one switch");
                    }
                    else
                    {
                        NS_TEST_ASSERT_MSG_EQ(path.size(), 4, "leaf, spine, leaf, dst");
                        NS_TEST_ASSERT_MSG_EQ(path[2], "p0.leaf" + std::to_string(d / 4), "leaf");
                        spines.insert(path[1]);
                    }
                }
                if (s / 4 != d / 4)
                {
                    NS_TEST_ASSERT_MSG_EQ(spines.size(), 4, "ECMP uses all 4 spines");
                }
            }
        }
        Simulator::Destroy();
    }
};

/**
 * Pod sizes: the number of switches of the two-tier example.
 */
class PodSizeTestCase : public TestCase
{
  public:
    PodSizeTestCase()
        : TestCase("Leaf-spine sizing: 1024 accelerators at radix 64 use 32 leaves and 32 spines")
    {
    }

  private:
    void DoRun() override
    {
        PodTopology t;
        t.Build(MakePod(1024, 1, 64));
        // 32 accelerators per leaf -> 32 leaves; 32 uplinks per leaf -> 32 spines.
        NS_TEST_ASSERT_MSG_EQ(t.GetSwitchesPerPlane(), 64, "32 leaves + 32 spines");
        // 1024 access links + 32 x 32 leaf-spine links, two directions each.
        NS_TEST_ASSERT_MSG_EQ(t.GetTransmitters().size(), 2 * (1024 + 1024), "devices");
        auto path = t.WalkRoute(0, 1023, 0, 7);
        NS_TEST_ASSERT_MSG_EQ(path.size(), 4, "far pair crosses a spine");
        NS_TEST_ASSERT_MSG_EQ(path.back(), "acc1023", "destination");
        Simulator::Destroy();
    }
};

/**
 * The pod module's topology suite.
 */
/**
 * A 4:1 oversubscribed two-tier plane: floor(radix/5) spines and 4 times as many accelerators
 * per leaf, every leaf linked to every spine.
 */
class PodOversubscribedTestCase : public TestCase
{
  public:
    PodOversubscribedTestCase()
        : TestCase("Oversubscription 4:1: radix 20 gives 4 spines and 16 accelerators per leaf")
    {
    }

  private:
    void DoRun() override
    {
        Scenario::Pod p = MakePod(64, 1, 20);
        p.sw.oversubscription = 4;
        PodTopology t;
        t.Build(p);
        NS_TEST_ASSERT_MSG_EQ(t.IsTwoTier(), true, "radix 20 < 64");
        NS_TEST_ASSERT_MSG_EQ(t.GetSwitchesPerPlane(), 4 + 4, "64/16 = 4 leaves + 4 spines");
        uint32_t accUp = 0;
        uint32_t leafUp = 0;
        for (const auto& tx : t.GetTransmitters())
        {
            accUp += tx.kind == "acc-up";
            leafUp += tx.kind == "leaf-up";
        }
        NS_TEST_ASSERT_MSG_EQ(accUp, 64, "one port per accelerator");
        NS_TEST_ASSERT_MSG_EQ(leafUp, 4 * 4, "4 uplinks per leaf: 16 down : 4 up = 4:1");
        // Accelerators 0..15 share leaf 0; 16 leaves it through a spine.
        NS_TEST_ASSERT_MSG_EQ(t.WalkRoute(0, 15, 0, 7).size(), 2, "acc0 -> leaf0 -> acc15");
        NS_TEST_ASSERT_MSG_EQ(t.WalkRoute(0, 16, 0, 7).size(), 4, "leaf, spine, leaf, acc16");
        Simulator::Destroy();
    }
};

/**
 * Three tiers (a folded Clos): 128 accelerators on radix-8 switches. Two tiers would need 32
 * leaves of 4 accelerators (4 uplinks each), more than a spine's 8 ports; three tiers use blocks
 * of radix/2 = 4 leaves with 4 spines each (8 blocks, 32 spines) and 4 x 4 = 16 cores, each with
 * one port to each of the 8 blocks: 32 + 32 + 16 = 80 switches, no switch with more than 8
 * ports in use. Hop counts follow the structure: same leaf 1 switch, same block 3 (leaf, spine,
 * leaf), other block 5 (leaf, spine, core, spine, leaf: RIFL's 5-hop limit, RIFL paper IV.A). Full
 * bisection: 4 x 32 leaf uplinks, 32 x 4 spine uplinks.
 */
class PodThreeTierTestCase : public TestCase
{
  public:
    PodThreeTierTestCase()
        : TestCase("Three tiers: 128 accelerators on radix 8, 80 switches, 1, 3 or 5 switch hops")
    {
    }

  private:
    void DoRun() override
    {
        Scenario::Pod p = MakePod(128, 1, 8);
        PodTopology t;
        t.Build(p);
        NS_TEST_ASSERT_MSG_EQ(t.GetTiers(), 3, "radix 8 needs three tiers for 128");
        NS_TEST_ASSERT_MSG_EQ(t.GetSwitchesPerPlane(), 80, "32 leaves, 32 spines, 16 cores");
        std::map<std::string, uint32_t> kinds;
        for (const auto& tx : t.GetTransmitters())
        {
            ++kinds[tx.kind];
        }
        NS_TEST_EXPECT_MSG_EQ(kinds["acc-up"], 128, "one port per accelerator");
        NS_TEST_EXPECT_MSG_EQ(kinds["leaf-up"], 32 * 4, "4 uplinks per leaf");
        NS_TEST_EXPECT_MSG_EQ(kinds["spine-down"], 32 * 4, "4 leaves per spine");
        NS_TEST_EXPECT_MSG_EQ(kinds["spine-up"], 32 * 4, "4 cores per spine");
        NS_TEST_EXPECT_MSG_EQ(kinds["core-down"], 16 * 8, "a port per block on each core");
        for (const auto& sw : t.GetSwitches())
        {
            NS_TEST_EXPECT_MSG_LT_OR_EQ(sw->GetNPorts(), 8u, "within the radix");
        }
        // WalkRoute lists the switches and the destination.
        NS_TEST_EXPECT_MSG_EQ(t.WalkRoute(0, 3, 0, 1).size(), 2, "same leaf");
        NS_TEST_EXPECT_MSG_EQ(t.WalkRoute(0, 15, 0, 1).size(), 4, "same block (leaves 0-3)");
        for (uint32_t hash = 0; hash < 8; ++hash)
        {
            NS_TEST_EXPECT_MSG_EQ(t.WalkRoute(0, 127, 0, hash).size(), 6, "another block");
        }
        Simulator::Destroy();
    }
};

/**
 * The partition of a distributed run (PodTopology::SetPartition, BalanceAccelerators): the
 * accelerators even out the link ends each rank simulates. Expected values: with the same switch
 * link ends on every rank the blocks are floor(i * ranks / n) (closed form of equal shares); with
 * fewer planes than ranks the ranks holding a plane's switch already have their mean share
 * (conservation: 1024 XPUs x 8 planes + 8 switches x 1024 ports = 16384 link ends, 1024 per rank
 * of 16), so the other ranks take the accelerators, 128 each.
 */
class PodPartitionTestCase : public TestCase
{
  public:
    PodPartitionTestCase()
        : TestCase("Partition: accelerators even out the link ends of the ranks")
    {
    }

  private:
    void DoRun() override
    {
        for (uint32_t n : {64u, 100u, 1024u})
        {
            for (uint32_t ranks : {1u, 2u, 3u, 4u, 7u, 8u})
            {
                const auto got =
                    PodTopology::BalanceAccelerators(n, 4, std::vector<uint64_t>(ranks, 4 * n));
                for (uint32_t i = 0; i < n; ++i)
                {
                    NS_TEST_ASSERT_MSG_EQ(got[i],
                                          static_cast<uint64_t>(i) * ranks / n,
                                          "equal switch shares: floor(i ranks / n), n=" << n);
                }
            }
        }
        // The SUE benchmark's pod on 16 ranks: plane p's 1024-port switch on rank 2p.
        std::vector<uint64_t> ends(16, 0);
        for (uint32_t p = 0; p < 8; ++p)
        {
            ends[PodTopology::SwitchRank(p, 0, 1, 8, 16)] += 1024;
        }
        NS_TEST_ASSERT_MSG_EQ(ends[2], 1024, "plane 1 on rank 2");
        const auto got = PodTopology::BalanceAccelerators(1024, 8, ends);
        std::vector<uint64_t> load = ends;
        for (uint32_t r : got)
        {
            load[r] += 8;
        }
        for (uint32_t r = 0; r < 16; ++r)
        {
            NS_TEST_EXPECT_MSG_EQ(load[r], 1024, "every rank simulates 16384 / 16 link ends");
        }
        NS_TEST_EXPECT_MSG_EQ(got[0], 1, "the first block goes to rank 1");
        NS_TEST_EXPECT_MSG_EQ(got[1023], 15, "the last to rank 15");
        // A rank whose switches exceed the mean takes no accelerator; the others share the rest.
        const auto over = PodTopology::BalanceAccelerators(10, 1, {100, 0, 0});
        const std::vector<uint32_t> expect{1, 1, 1, 1, 1, 2, 2, 2, 2, 2};
        NS_TEST_EXPECT_MSG_EQ((over == expect), true, "5 and 5 on ranks 1 and 2");

        // A built pod: 64 XPUs, 2 planes of one 64-port switch, 4 ranks: switches on ranks 0
        // and 2 (64 link ends each, the mean of 256 / 4), XPUs 0-31 on rank 1, 32-63 on rank 3.
        PodTopology t;
        t.SetPartition(4, "ns3::FabricChannel");
        t.Build(MakePod(64, 2, 64));
        for (uint32_t i = 0; i < 64; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(t.GetAcceleratorRank(i), (i < 32 ? 1u : 3u), "accelerator " << i);
            NS_TEST_EXPECT_MSG_EQ(t.GetAccDevice(i, 1)->GetNode()->GetSystemId(),
                                  t.GetAcceleratorRank(i),
                                  "the node carries its rank");
        }
        NS_TEST_EXPECT_MSG_EQ(t.GetSwitches()[1]->GetPort(0)->GetNode()->GetSystemId(),
                              2,
                              "plane 1");
        Simulator::Destroy();
    }
};

class PodTopologyTestSuite : public PicosecondTestSuite
{
  public:
    PodTopologyTestSuite()
        : PicosecondTestSuite("pod-topology", UNIT)
    {
        AddTestCase(new PodOversubscribedTestCase(), TestCase::QUICK);
        AddTestCase(new PodSingleSwitchRouteTestCase, TestCase::QUICK);
        AddTestCase(new PodTwoTierRouteTestCase, TestCase::QUICK);
        AddTestCase(new PodSizeTestCase, TestCase::QUICK);
        AddTestCase(new PodThreeTierTestCase, TestCase::QUICK);
        AddTestCase(new PodPartitionTestCase, TestCase::QUICK);
    }
};

static PodTopologyTestSuite g_podTopologyTestSuite; //!< registers the suite
