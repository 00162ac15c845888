/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Tests of the rifl module. Expected values come from the RIFL paper (seed 003: Equation 1 and
// the header rules of section IV.A, Table I and Figure 5 of section V), from closed forms written
// next to each test (segmentation padding, head-of-line blocking), and from conservation (every
// cell generated is switched exactly once, nothing dropped).

#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/fabric-islip-scheduler.h"
#include "ns3/packet.h"
#include "ns3/rifl-cell-switch-helper.h"
#include "ns3/rifl-l2-header.h"
#include "ns3/rifl-segmentation.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <iomanip>
#include <iostream>
#include <set>
#include <sstream>
#include <vector>

using namespace ns3;

namespace
{

/**
 * Route a header through a chain of switches: at hop k the cell enters port ins[k] of a switch
 * with ports[k] ports; returns the output ports taken, rotating the header as a switch does.
 */
std::vector<uint32_t>
Walk(RiflL2Header& h, const std::vector<uint32_t>& ins, const std::vector<uint32_t>& ports)
{
    std::vector<uint32_t> outs;
    for (std::size_t k = 0; k < ins.size(); ++k)
    {
        const uint32_t o = RiflL2Header::Forward(ins[k], h.GetDstPort(0), ports[k]);
        outs.push_back(o);
        h.Rotate(ins[k], o);
    }
    return outs;
}

} // namespace

/**
 * Equation 1 (seed 003 section IV.A) on an 8-port switch, every input i and every Dst Port
 * value j: d = j for j < i, j + 1 for i <= j < 7; j = 7 names no port (the input is skipped,
 * so an 8-port switch has 7 values), 255 is broadcast. For each i, the 7 values reach the 7
 * other ports exactly once and never i (no loopback). The header rotation moves Dst Port 2..5
 * to 1..4, decrements Remain Hops and writes the return port into Dst Port 5, which Eq. 1 maps
 * back to i from d.
 */
class RiflEquationOneTestCase : public TestCase
{
  public:
    RiflEquationOneTestCase()
        : TestCase("Equation 1 and the header rotation for every input and destination of an "
                   "8-port switch")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 8;
        for (uint32_t i = 0; i < n; ++i)
        {
            std::set<uint32_t> reached;
            for (uint32_t j = 0; j < n; ++j)
            {
                const uint32_t d = RiflL2Header::Forward(i, j, n);
                const uint32_t expected = j < i ? j : (j + 1 < n ? j + 1 : RiflL2Header::NO_PORT);
                NS_TEST_ASSERT_MSG_EQ(d, expected, "Eq. 1 for i=" << i << " j=" << j);
                if (d == RiflL2Header::NO_PORT)
                {
                    continue;
                }
                NS_TEST_ASSERT_MSG_NE(d, i, "no loopback");
                reached.insert(d);
                NS_TEST_ASSERT_MSG_EQ(unsigned(RiflL2Header::RelativeAddress(i, d)),
                                      j,
                                      "the inverse of Eq. 1");
                RiflL2Header h = RiflL2Header::FromRoute({uint8_t(j), 11, 22, 33, 44});
                h.Rotate(i, d);
                NS_TEST_ASSERT_MSG_EQ(unsigned(h.GetRemainHops()), 4u, "Remain Hops - 1");
                NS_TEST_ASSERT_MSG_EQ(unsigned(h.GetTotalHops()), 5u, "Total Hops kept");
                NS_TEST_ASSERT_MSG_EQ(unsigned(h.GetDstPort(0)), 11u, "Dst Port 2 -> 1");
                NS_TEST_ASSERT_MSG_EQ(unsigned(h.GetDstPort(1)), 22u, "Dst Port 3 -> 2");
                NS_TEST_ASSERT_MSG_EQ(unsigned(h.GetDstPort(2)), 33u, "Dst Port 4 -> 3");
                NS_TEST_ASSERT_MSG_EQ(unsigned(h.GetDstPort(3)), 44u, "Dst Port 5 -> 4");
                NS_TEST_ASSERT_MSG_EQ(RiflL2Header::Forward(d, h.GetDstPort(4), n),
                                      i,
                                      "the return port leads back to the input");
            }
            NS_TEST_ASSERT_MSG_EQ(reached.size(), n - 1, "7 values reach the 7 other ports");
            NS_TEST_ASSERT_MSG_EQ(RiflL2Header::Forward(i, 255, n),
                                  unsigned(RiflL2Header::BROADCAST),
                                  "255 is broadcast");
        }
        // The header is 8 bytes on the wire and survives serialization.
        RiflL2Header h = RiflL2Header::FromRoute({3, 250, 7});
        Ptr<Packet> p = Create<Packet>(256);
        p->AddHeader(h);
        NS_TEST_ASSERT_MSG_EQ(p->GetSize(), 264u, "256 B segment + 8 B L1+L2 header");
        RiflL2Header r;
        p->RemoveHeader(r);
        NS_TEST_ASSERT_MSG_EQ(unsigned(r.GetTotalHops()), 3u, "Total Hops");
        NS_TEST_ASSERT_MSG_EQ(unsigned(r.GetRemainHops()), 3u, "Remain Hops");
        NS_TEST_ASSERT_MSG_EQ(unsigned(r.GetDstPort(1)), 250u, "Dst Port 2");
    }
};

/**
 * Broadcast: a cell with Dst Port 1 = 255 entering port i of an 8-port switch goes to the 7
 * other ports; each copy's return port leads back to i.
 */
class RiflBroadcastTestCase : public TestCase
{
  public:
    RiflBroadcastTestCase()
        : TestCase("Broadcast (Dst Port 255) reaches every port but the input")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 8;
        for (uint32_t i = 0; i < n; ++i)
        {
            uint32_t copies = 0;
            for (uint32_t o = 0; o < n; ++o)
            {
                if (o == i)
                {
                    continue;
                }
                RiflL2Header h = RiflL2Header::FromRoute({255});
                h.Rotate(i, o);
                NS_TEST_ASSERT_MSG_EQ(RiflL2Header::Forward(o, h.ReverseRoute()[0], n),
                                      i,
                                      "reply from a broadcast copy");
                ++copies;
            }
            NS_TEST_ASSERT_MSG_EQ(copies, n - 1, "N - 1 copies");
        }
    }
};

/**
 * Reverse addressing (section IV.A): after 1, 2 and 5 hops through switches of 8, 16 and 32
 * ports, the destination reads the last Total Hops Dst Port fields in reverse; a cell sent back
 * with that route, entering each switch at the port the forward cell left by, retraces the path
 * to the source's port.
 */
class RiflReverseAddressTestCase : public TestCase
{
  public:
    /// \param hops route length
    RiflReverseAddressTestCase(uint32_t hops)
        : TestCase("Reverse address after " + std::to_string(hops) + " hops"),
          m_hops(hops)
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<uint32_t> sizes{8, 16, 32, 8, 16};
        const std::vector<uint32_t> inputsAll{5, 0, 31, 7, 9};
        const std::vector<uint8_t> routeAll{2, 14, 0, 6, 9};
        std::vector<uint32_t> ins(inputsAll.begin(), inputsAll.begin() + m_hops);
        std::vector<uint32_t> ports(sizes.begin(), sizes.begin() + m_hops);
        std::vector<uint8_t> route(routeAll.begin(), routeAll.begin() + m_hops);
        RiflL2Header h = RiflL2Header::FromRoute(route);
        const std::vector<uint32_t> outs = Walk(h, ins, ports);
        NS_TEST_ASSERT_MSG_EQ(unsigned(h.GetRemainHops()), 0u, "arrived");
        const std::vector<uint8_t> back = h.ReverseRoute();
        NS_TEST_ASSERT_MSG_EQ(back.size(), m_hops, "one field per hop");
        // The reply enters the last switch at the port the cell left by, and so on backwards.
        RiflL2Header r = RiflL2Header::FromRoute(back);
        std::vector<uint32_t> rIns(outs.rbegin(), outs.rend());
        std::vector<uint32_t> rPorts(ports.rbegin(), ports.rend());
        const std::vector<uint32_t> rOuts = Walk(r, rIns, rPorts);
        for (uint32_t k = 0; k < m_hops; ++k)
        {
            NS_TEST_ASSERT_MSG_EQ(rOuts[k],
                                  ins[m_hops - 1 - k],
                                  "the reply leaves hop " << k << " by the forward input");
        }
        // And the reply's reverse route is the original route.
        const std::vector<uint8_t> again = r.ReverseRoute();
        for (uint32_t k = 0; k < m_hops; ++k)
        {
            NS_TEST_ASSERT_MSG_EQ(unsigned(again[k]), unsigned(route[k]), "round trip");
        }
    }

    uint32_t m_hops; //!< hops
};

/**
 * Segmentation (section IV.A): a packet of b bytes takes ceil(b / 256) cells, the last padded.
 * Hand formula for the variable sizes of section V.A (uniform integers 64..2048 B): the mean
 * payload is (64 + 2048) / 2 = 1056 B; the mean segment bytes is 256 x (193 x 1 + 256 x (2 + 3 +
 * ... + 8)) / 1985 = 256 x 9153 / 1985 = 1180.43 B (sizes 64..256 take 1 cell, 193 values; each
 * further 256-byte band takes one more); utilization 1056 / 1180.43 = 0.8946. The traffic
 * generator's cells must carry exactly that ratio (all its data, 2.5 MB per pair truncated per
 * flow, so within 0.5%).
 */
class RiflSegmentationTestCase : public TestCase
{
  public:
    RiflSegmentationTestCase()
        : TestCase("Segmentation: padding and utilization of variable-size packets")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(RiflSegmentation::Cells(1), 1u, "1 B: one cell");
        NS_TEST_ASSERT_MSG_EQ(RiflSegmentation::Cells(256), 1u, "256 B: one cell");
        NS_TEST_ASSERT_MSG_EQ(RiflSegmentation::Cells(257), 2u, "257 B: two cells");
        NS_TEST_ASSERT_MSG_EQ(RiflSegmentation::Padding(257), 255u, "257 B: 255 B padding");
        NS_TEST_ASSERT_MSG_EQ(RiflSegmentation::Padding(2048), 0u, "2048 B: no padding");
        NS_TEST_ASSERT_MSG_EQ(RiflSegmentation::ValidBytes(600, 2), 88u, "last of 600 B: 88 B");
        uint64_t cells = 0;
        uint64_t bytes = 0;
        for (uint32_t b = 64; b <= 2048; ++b)
        {
            cells += RiflSegmentation::Cells(b);
            bytes += b;
        }
        NS_TEST_ASSERT_MSG_EQ(cells, 9153u, "hand count of cells over 64..2048");
        const double formula = 1056.0 / (256.0 * 9153 / 1985);
        NS_TEST_ASSERT_MSG_EQ_TOL(static_cast<double>(bytes) / (256.0 * cells),
                                  formula,
                                  1e-9,
                                  "utilization");
        // The generator at a light load (no saturation): payload over cell bytes.
        RiflCellSwitchHelper h;
        h.SetSwitchAttribute("Ports", UintegerValue(8));
        h.SetTrafficAttribute("SizeMode", EnumValue(RiflTrafficGenerator::VARIABLE));
        h.SetTrafficAttribute("Load", DoubleValue(0.3));
        h.SetTrafficAttribute("BytesPerPair", UintegerValue(1 << 20));
        Ptr<RiflCellSwitch> sw = h.Run(3);
        const auto& s = sw->GetStats();
        const double measured =
            static_cast<double>(s.payloadBytes) / (256.0 * static_cast<double>(s.cells));
        std::cout << GetName() << ": formula " << formula << ", measured " << measured << std::endl;
        NS_TEST_EXPECT_MSG_EQ(s.payloadBytes, uint64_t(64) << 20, "all bytes switched");
        NS_TEST_EXPECT_MSG_EQ_TOL(measured, formula, 0.005, "utilization of the generated cells");
        Simulator::Destroy();
    }
};

/// The suite.
class RiflTestSuite : public TestSuite
{
  public:
    RiflTestSuite()
        : TestSuite("rifl", UNIT)
    {
        AddTestCase(new RiflEquationOneTestCase, TestCase::QUICK);
        AddTestCase(new RiflBroadcastTestCase, TestCase::QUICK);
        for (uint32_t hops : {1, 2, 5})
        {
            AddTestCase(new RiflReverseAddressTestCase(hops), TestCase::QUICK);
        }
        AddTestCase(new RiflSegmentationTestCase, TestCase::QUICK);
    }
};

static RiflTestSuite g_riflTestSuite; //!< registers the suite
