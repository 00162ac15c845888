/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Tests of the cell-fabric module. Expected values come from the Pyxis spec (section 10; the
// derivations are in cell-fabric.rst, section Validation, entries V1 to V9), from closed forms
// written next to each test, and from conservation (bytes posted = bytes delivered, zero drops).

#include "ns3/cell-fabric-adapter.h"
#include "ns3/cell-fabric-cellifier.h"
#include "ns3/cell-fabric-helper.h"
#include "ns3/config.h"
#include "ns3/enum.h"
#include "ns3/fabric-channel.h"
#include "ns3/fabric-credit-flow-control.h"
#include "ns3/fabric-drop-reason.h"
#include "ns3/fabric-net-device.h"
#include "ns3/fabric-shared-buffer.h"
#include "ns3/fabric-switch.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/picosecond-test-suite.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <iostream>
#include <iterator>
#include <map>
#include <numeric>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

using namespace ns3;

/// The Tx pipeline tests (cell-fabric-tx-pipeline-test.cc).
std::vector<TestCase*> MakeCellFabricTxPipelineTests();
/// The Rx OQM tests (cell-fabric-rx-oq-test.cc).
std::vector<TestCase*> MakeCellFabricRxOqTests();

/// Drops at every plane switch, link device and adapter of a fabric (also used by the other
/// cell-fabric test files).
uint64_t
FabricDrops(const CellFabricHelper& helper, const std::vector<Ptr<CellFabricAdapter>>& adapters)
{
    uint64_t drops = 0;
    for (const Ptr<FabricSwitch>& sw : helper.GetPlanes())
    {
        for (const auto& kv : sw->GetDrops())
        {
            drops += kv.second;
        }
        for (uint32_t i = 0; i < sw->GetNPorts(); ++i)
        {
            for (const auto& kv : sw->GetPort(i)->GetStats().dropUnits)
            {
                drops += kv.second;
            }
        }
    }
    for (const Ptr<CellFabricAdapter>& a : adapters)
    {
        for (const auto& kv : a->GetStats().drops)
        {
            drops += kv.second;
        }
    }
    return drops;
}

namespace
{

/**
 * \ingroup cell-fabric
 * Cellification (Pyxis spec 10.1, 10.6, 10.7.2, 11.4.6; cell-fabric.rst, Validation, V1).
 */
class CellificationTestCase : public TestCase
{
  public:
    CellificationTestCase()
        : TestCase("Cellification: pages, cells, last-two-cells rule, legal page sizes")
    {
    }

  private:
    void DoRun() override
    {
        using C = CellFabricCellifier;
        // Validation V1 a: a 4 KB RDMA write is NumWords 32 at PageSizeWords 125, so one page of
        // 4096 + 16 = 4112 B = 257 chunks; 257 = 23 * 11 + 4, r = 4 -> 22 full cells and the
        // last two (5 + 4, 6) = (9, 6) chunks = 144 B + 96 B: 24 cells.
        const std::vector<uint32_t> p4k = C::GetRdmaPages(32, 125);
        NS_TEST_ASSERT_MSG_EQ(p4k.size(), 1, "4 KB is one page");
        NS_TEST_ASSERT_MSG_EQ(p4k[0], 4096, "4 KB page data");
        NS_TEST_ASSERT_MSG_EQ(C::GetChunks(4112), 257, "4112 B = 257 chunks");
        const std::vector<uint32_t> c4k = C::GetCellChunks(257);
        NS_TEST_ASSERT_MSG_EQ(c4k.size(), 24, "4 KB write = 24 cells");
        NS_TEST_ASSERT_MSG_EQ(c4k[21], 11, "cell 22 is full (176 B)");
        NS_TEST_ASSERT_MSG_EQ(c4k[22] * 16, 144, "next-to-last cell 144 B");
        NS_TEST_ASSERT_MSG_EQ(c4k[23] * 16, 96, "last cell 96 B");
        NS_TEST_ASSERT_MSG_EQ(C::GetRdmaCells(32, 125), 24, "4 KB job cells");

        // Validation V1 b: a full 125-word page is 125 * 128 + 16 = 16,016 B = 1001 chunks =
        // 91 * 11: 91 cells of 176 B, no short cell (the legality rule of 10.7.2).
        const std::vector<uint32_t> cFull = C::GetCellChunks(C::GetChunks(125 * 128 + 16));
        NS_TEST_ASSERT_MSG_EQ(cFull.size(), 91, "full page = 91 cells");
        for (uint32_t c : cFull)
        {
            NS_TEST_ASSERT_MSG_EQ(c * 16, 176, "every cell of a full page is 176 B");
        }

        // Validation V1 c: a maximum datagram is 16,256 + 16 = 16,272 B = 1017 chunks =
        // 92 * 11 + 5, r = 5 -> 91 full cells and (10, 6) = 160 B + 96 B: 93 cells.
        NS_TEST_ASSERT_MSG_EQ(C::IsLegalDatagram(16256), true, "16,256 B datagram legal");
        NS_TEST_ASSERT_MSG_EQ(C::IsLegalDatagram(16257), false, "16,257 B datagram illegal");
        NS_TEST_ASSERT_MSG_EQ(C::IsLegalDatagram(0), false, "empty datagram illegal");
        const std::vector<uint32_t> cDg = C::GetCellChunks(C::GetChunks(16256 + 16));
        NS_TEST_ASSERT_MSG_EQ(cDg.size(), 93, "max datagram = 93 cells");
        NS_TEST_ASSERT_MSG_EQ(cDg[90] * 16, 176, "cell 91 full");
        NS_TEST_ASSERT_MSG_EQ(cDg[91] * 16, 160, "cell 92 160 B");
        NS_TEST_ASSERT_MSG_EQ(cDg[92] * 16, 96, "cell 93 96 B");

        // Validation V1 d: 1 MiB = 8192 words = 65 * 125 + 67 -> 66 pages; a 125-word page is
        // 91 cells, the 67-word page is 67 * 128 + 16 = 8592 B = 537 chunks = 48 * 11 + 9 ->
        // 49 cells: 65 * 91 + 49 = 5964 cells. Fabric payload 1 MiB + 66 * 16 = 1,049,632 B.
        const std::vector<uint32_t> pMiB = C::GetRdmaPages(8192, 125);
        NS_TEST_ASSERT_MSG_EQ(pMiB.size(), 66, "1 MiB = 66 pages");
        NS_TEST_ASSERT_MSG_EQ(pMiB.back(), 67 * 128, "last page 67 words");
        NS_TEST_ASSERT_MSG_EQ(C::GetRdmaCells(8192, 125), 5964, "1 MiB = 5964 cells");
        uint64_t fabricBytes = 0;
        for (uint32_t b : pMiB)
        {
            fabricBytes += b + C::PAGE_HEADER_BYTES;
        }
        NS_TEST_ASSERT_MSG_EQ(fabricBytes, 1049632, "1 MiB fabric payload with headers");

        // Validation V1 e, the last-two-cells rule of 10.1: C = 12 = 11 + 1 -> (5 + 1, 6) = (6, 6);
        // 17 = 11 + 6 -> (11, 6); 22 = 2 * 11 -> (11, 11); 23 = 2 * 11 + 1 -> (11, 6, 6).
        NS_TEST_ASSERT_MSG_EQ((C::GetCellChunks(12) == std::vector<uint32_t>{6, 6}),
                              true,
                              "12 chunks -> (6, 6)");
        NS_TEST_ASSERT_MSG_EQ((C::GetCellChunks(17) == std::vector<uint32_t>{11, 6}),
                              true,
                              "17 chunks -> (11, 6)");
        NS_TEST_ASSERT_MSG_EQ((C::GetCellChunks(22) == std::vector<uint32_t>{11, 11}),
                              true,
                              "22 chunks -> (11, 11)");
        NS_TEST_ASSERT_MSG_EQ((C::GetCellChunks(23) == std::vector<uint32_t>{11, 6, 6}),
                              true,
                              "23 chunks -> (11, 6, 6)");
        // Conservation of the rule: for every page size the cells hold exactly its chunks, there
        // are ceil(C / 11) of them, and every cell of a multi-cell page has 6..11 chunks.
        for (uint32_t chunks = 1; chunks <= 1024; ++chunks)
        {
            const std::vector<uint32_t> cells = C::GetCellChunks(chunks);
            NS_TEST_ASSERT_MSG_EQ(std::accumulate(cells.begin(), cells.end(), 0U),
                                  chunks,
                                  "cells hold all chunks");
            NS_TEST_ASSERT_MSG_EQ(cells.size(), (chunks + 10) / 11, "ceil(C / 11) cells");
            if (cells.size() > 1)
            {
                for (uint32_t c : cells)
                {
                    NS_TEST_ASSERT_MSG_EQ((c >= 6 && c <= 11), true, "cell of 96..176 B");
                }
            }
        }

        // Validation V1 f: (w * 128 + 16) mod 176 = 0 with w in [32, 127] holds for
        // w = 37 + 11k: {37, 48, 59, 70, 81, 92, 103, 114, 125}; 32, 36, 126, 127 are refused.
        const std::vector<uint32_t> legal{37, 48, 59, 70, 81, 92, 103, 114, 125};
        NS_TEST_ASSERT_MSG_EQ((C::GetLegalPageSizeWords() == legal), true, "legal page sizes");
        for (uint32_t w : {32U, 36U, 126U, 127U, 26U, 136U})
        {
            NS_TEST_ASSERT_MSG_EQ(C::IsLegalPageSizeWords(w), false, "illegal page size " << w);
            NS_TEST_ASSERT_MSG_EQ(C::GetRdmaPages(8192, w).empty(), true, "refused " << w);
        }
        NS_TEST_ASSERT_MSG_EQ(C::GetRdmaPages(65537, 125).empty(), true, "NumWords > 2^16");

        // Validation V1 g: CTS, ACK and NACK are 64 B pages (10.7.9), one cell.
        NS_TEST_ASSERT_MSG_EQ(C::GetCells(C::MESSAGE_BYTES), 1, "message = one cell");

        std::cout << "cellification: 4 KB write " << c4k.size() << " cells; full page "
                  << cFull.size() << " cells; max datagram " << cDg.size() << " cells; 1 MiB "
                  << pMiB.size() << " pages, " << C::GetRdmaCells(8192, 125) << " cells"
                  << std::endl;
    }
};

/**
 * \ingroup cell-fabric
 * A 1 MiB RDMA job between two idle chips (Pyxis spec 10.1, 10.3, 10.7, section 9; cell-fabric.rst,
 * Validation, V2).
 *
 * Closed form of the model's timeline, from the attribute values. With D the one-way time of a
 * control cell (Tx pipeline + link delay + switch latency + one cell's serialization + link
 * delay + Rx pipeline; the switch cuts through, so only the last link's serialization counts):
 * the Rx job's CTS reaches the sender at D, the requests the receiver at 2D and the grants the
 * sender at 3D (the startup: CTS plus request/grant, 1.5 round trips of 2D). The first page then
 * takes its FO time (16,016 B at 88 B per cycle = 182 cycles), the Tx pipeline, the links (its
 * 91 cells sprayed over 36 links: at most 3 cells of 192 B on one link) and the Rx pipeline; from
 * then on the receiving cluster's RxDMA, 128 B per cycle, is the bottleneck (170 GB/s, below the
 * 4 x 117 GB/s of FO and the links' 438 GB/s), so it writes the 1 MiB in 8192 cycles back to
 * back; the last page's writes commit RxDmaCommitCycles (100, 11.7.2) later. Delivery = 3D +
 * first page + 8192 cycles + 100 cycles, checked within 2%.
 */
class RdmaJobTimeTestCase : public TestCase
{
  public:
    RdmaJobTimeTestCase()
        : TestCase("1 MiB RDMA job between two idle chips: startup plus transfer")
    {
    }

  private:
    void DoRun() override
    {
        CellFabricHelper helper;
        NodeContainer chips;
        chips.Create(2);
        std::vector<Ptr<CellFabricAdapter>> a = helper.Install(chips, 36);
        Time delivered;
        Time completed;
        a[1]->SetDeliveredCallback(FabricEndpoint::MessageCallback(
            [&delivered](const FabricMessage& m) { delivered = m.delivered; }));
        a[0]->SetCompletedCallback(FabricEndpoint::MessageCallback(
            [&completed](const FabricMessage& m) { completed = m.completed; }));
        const uint64_t bytes = 1 << 20;
        Simulator::Schedule(MicroSeconds(1), [&a, bytes]() { a[0]->Send(1, bytes, 0); });
        Simulator::Run();

        Ptr<FabricNetDevice> port = DynamicCast<FabricNetDevice>(chips.Get(0)->GetDevice(0));
        Ptr<FabricChannel> ch = port->GetFabricChannel();
        const double link = ch->GetOneWayDelay().GetSeconds();
        const double sw = helper.GetPlanes()[0]->GetPipelineLatency().GetSeconds();
        const double rate = ch->GetDataRate().GetBitRate() / 8.0;
        const double cellWire = 176 + a[0]->GetCellHeaderBytes();
        const double ctrlWire = 96 + a[0]->GetCellHeaderBytes();
        const double tx = a[0]->GetTxLatency().GetSeconds();
        const double rx = a[0]->GetRxLatency().GetSeconds();
        const double cycle = 1.0 / 1.33e9;
        const double d = tx + link + sw + ctrlWire / rate + link + rx;
        const double firstPage = 182 * cycle + tx + link + sw + 3 * cellWire / rate + link + rx;
        const double transfer = 8192 * cycle;
        const double commit = 100 * cycle;
        const double expected = 3 * d + firstPage + transfer + commit;
        const double measured = (delivered - MicroSeconds(1)).GetSeconds();
        std::cout << "1 MiB job: control one-way " << d * 1e9 << " ns (round trip " << 2 * d * 1e6
                  << " us), startup " << 3 * d * 1e6 << " us, transfer " << transfer * 1e6
                  << " us at " << a[1]->GetRxDmaBytesPerSecond() / 1e9 << " GB/s RxDMA; expected "
                  << expected * 1e6 << " us, measured " << measured * 1e6 << " us; ACK at sender "
                  << (completed - MicroSeconds(1)).GetSeconds() * 1e6 << " us" << std::endl;
        NS_TEST_ASSERT_MSG_EQ_TOL(measured, expected, 0.02 * expected, "1 MiB job time");
        NS_TEST_ASSERT_MSG_GT(completed, delivered, "ACK after delivery");
        // Conservation and the cellification of Validation V1 d.
        NS_TEST_ASSERT_MSG_EQ(a[1]->GetReceivedPayloadBytes(), bytes, "bytes conserved");
        NS_TEST_ASSERT_MSG_EQ(a[0]->GetStats().cellsSent, 5964, "1 MiB = 5964 cells sent");
        NS_TEST_ASSERT_MSG_EQ(a[1]->GetStats().cellsReceived, 5964, "5964 cells received");
        NS_TEST_ASSERT_MSG_EQ(a[0]->GetStats().pagesSent, 66, "66 pages");
        // Messages (Validation V1 g): one CTS and one ACK from the receiver, one cell each.
        NS_TEST_ASSERT_MSG_EQ(a[1]->GetStats().messagesSent, 2, "CTS and ACK");
        NS_TEST_ASSERT_MSG_EQ(a[0]->GetStats().messagesSent, 0, "no message from the sender");
        NS_TEST_ASSERT_MSG_EQ(FabricDrops(helper, a), 0, "no drop");
        Simulator::Destroy();
    }
};

/**
 * \ingroup cell-fabric
 * A small lossless incast: 4 chips each send 4 x 64 KiB to one chip whose Rx CBUF holds 200
 * cells (two full pages), so grants wait for free cells (10.8.6). Expected, by conservation:
 * every message delivered and completed, bytes received = bytes sent, no drop anywhere, the
 * CBUF back to 200 free cells at the end; grants were deferred (pacing happened) and the free
 * cells never went below zero (the low-water mark is within the buffer).
 */
class LosslessIncastTestCase : public TestCase
{
  public:
    LosslessIncastTestCase()
        : TestCase("Lossless incast 4 to 1 with grants paced by Rx buffer cells")
    {
    }

  private:
    void DoRun() override
    {
        CellFabricHelper helper;
        helper.SetAdapterAttribute("RxCbufCells", UintegerValue(200));
        NodeContainer chips;
        chips.Create(5);
        std::vector<Ptr<CellFabricAdapter>> a = helper.Install(chips, 4);
        uint64_t delivered = 0;
        uint64_t completed = 0;
        std::vector<Time> last(5);
        a[0]->SetDeliveredCallback(
            FabricEndpoint::MessageCallback([&delivered, &last](const FabricMessage& m) {
                ++delivered;
                last[m.src] = m.delivered;
            }));
        uint64_t sent = 0;
        for (uint32_t s = 1; s < 5; ++s)
        {
            a[s]->SetCompletedCallback(FabricEndpoint::MessageCallback(
                [&completed](const FabricMessage&) { ++completed; }));
            for (uint32_t k = 0; k < 4; ++k)
            {
                Simulator::Schedule(NanoSeconds(10 * s), [&a, s]() { a[s]->Send(0, 65536, 0); });
                sent += 65536;
            }
        }
        Simulator::Run();
        uint64_t bytesSent = 0;
        for (uint32_t s = 1; s < 5; ++s)
        {
            bytesSent += a[s]->GetBytesSent();
        }
        std::cout << "incast 4:1: delivered " << delivered << " messages, "
                  << a[0]->GetReceivedPayloadBytes() << " of " << bytesSent
                  << " B; grants deferred " << a[0]->GetStats().grantsDeferred
                  << "; lowest free cells " << a[0]->GetStats().minFreeCells
                  << "; last delivery per source (us):";
        for (uint32_t s = 1; s < 5; ++s)
        {
            std::cout << " " << last[s].GetSeconds() * 1e6;
        }
        std::cout << std::endl;
        NS_TEST_ASSERT_MSG_EQ(bytesSent, sent, "bytes posted");
        NS_TEST_ASSERT_MSG_EQ(delivered, 16, "every message delivered");
        NS_TEST_ASSERT_MSG_EQ(completed, 16, "every message completed");
        NS_TEST_ASSERT_MSG_EQ(a[0]->GetReceivedPayloadBytes(), bytesSent, "bytes conserved");
        NS_TEST_ASSERT_MSG_EQ(FabricDrops(helper, a), 0, "no drop");
        NS_TEST_ASSERT_MSG_GT(a[0]->GetStats().grantsDeferred, 0, "grants paced by Rx cells");
        NS_TEST_ASSERT_MSG_EQ(a[0]->GetFreeRxCells(), 200, "Rx CBUF free again");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(a[0]->GetStats().minFreeCells, 200U, "within the CBUF");
        Simulator::Destroy();
    }
};

/**
 * \ingroup cell-fabric
 * The per-cluster RxDMA limit (Pyxis spec section 9, 10.8[4]; cell-fabric.rst, Validation, V3).
 * Four chips each send
 * 1 MiB to one chip. To one destination cluster, its RxDMA at 128 B per cycle = 170.24 GB/s is
 * the bottleneck. Spread over the 4 clusters (681 GB/s of RxDMA) the destination's 36 links are:
 * 36 x 106.25 Gb/s = 478.1 GB/s of cells with their headers, of which a 125-word page's data
 * is 16,000 / (91 x 192) = 91.6%: 437.9 GB/s, less the request cells that share the links (one
 * 112 B cell per 17,472 B page, 0.64%): 435.1 GB/s. The rate is measured between the first and
 * the last page commit and checked within 5%.
 */
class RxDmaLimitTestCase : public TestCase
{
  public:
    /**
     * \param clusters destination clusters the messages are spread over
     */
    RxDmaLimitTestCase(uint32_t clusters)
        : TestCase(clusters == 1 ? "Incast to one cluster saturates at the RxDMA rate"
                                 : "Incast spread over four clusters reaches the link rate"),
          m_clusters(clusters)
    {
    }

  private:
    void DoRun() override
    {
        CellFabricHelper helper;
        helper.SetAdapterAttribute("DestinationClusters", UintegerValue(m_clusters));
        NodeContainer chips;
        chips.Create(5);
        std::vector<Ptr<CellFabricAdapter>> a = helper.Install(chips, 36);
        Time first;
        Time last;
        uint64_t bytes = 0;
        uint64_t firstBytes = 0;
        a[0]->TraceConnectWithoutContext("PageCommit",
                                         Callback<void, uint32_t, uint64_t, uint32_t, uint32_t>(
                                             [&](uint32_t, uint64_t, uint32_t page, uint32_t) {
                                                 (void)page;
                                                 if (first.IsZero())
                                                 {
                                                     first = Simulator::Now();
                                                     firstBytes = a[0]->GetReceivedPayloadBytes();
                                                 }
                                                 last = Simulator::Now();
                                                 bytes = a[0]->GetReceivedPayloadBytes();
                                             }));
        for (uint32_t s = 1; s < 5; ++s)
        {
            for (uint32_t k = 0; k < 4; ++k)
            {
                Simulator::Schedule(NanoSeconds(1), [&a, s]() { a[s]->Send(0, 1 << 18, 0); });
            }
        }
        Simulator::Run();
        const double rate = (bytes - firstBytes) / (last - first).GetSeconds();
        const double linkRate = 36 * 106.25e9 / 8 * 16000.0 / (91 * 192) * (1 - 112.0 / 17472);
        const double expected = m_clusters == 1 ? a[0]->GetRxDmaBytesPerSecond() : linkRate;
        Time busy;
        for (const Ptr<FabricSwitch>& sw : helper.GetPlanes())
        {
            busy += sw->GetPort(0)->GetStats().busyTime;
        }
        std::cout << "incast 4:1 to " << m_clusters << " cluster(s): " << rate / 1e9
                  << " GB/s, expected " << expected / 1e9 << " GB/s; receiver links busy "
                  << 100 * busy.GetSeconds() / 36 / (last - first).GetSeconds()
                  << "% of the commit window" << std::endl;
        NS_TEST_ASSERT_MSG_EQ_TOL(rate, expected, 0.05 * expected, "receive rate");
        NS_TEST_ASSERT_MSG_EQ(a[0]->GetReceivedPayloadBytes(), 4u << 20, "bytes conserved");
        NS_TEST_ASSERT_MSG_EQ(FabricDrops(helper, a), 0, "no drop");
        Simulator::Destroy();
    }

    uint32_t m_clusters; //!< destination clusters
};

/**
 * \ingroup cell-fabric
 * Coarse and fine granularity agree (DESIGN.md rule 3). 16 chips with 8 links each; chip i
 * sends 64 KiB and 5 KiB to chip (i + 5) mod 16 and 16 KiB to chip (i + 3) mod 16, so that the
 * planes' output ports carry traffic of two sources at once. Each page's commit time in the
 * fine mode (one unit per cell) is compared with the coarse mode's (one unit per page per link):
 * they must agree within one cell time (a 176 B cell and its 16 B header at 106.25 Gb/s,
 * 14.46 ns), the time by which interleaving single cells of two pages at a switch port can
 * move a page's last cell.
 */
class GranularityTestCase : public TestCase
{
  public:
    GranularityTestCase()
        : TestCase("Coarse and fine modes agree on page delivery times on 16 chips")
    {
    }

  private:
    /**
     * Run the traffic.
     * \param fine fine granularity
     * \param[out] events scheduler events executed
     * \return commit time of every page, by (source, job, page)
     */
    std::map<std::tuple<uint32_t, uint64_t, uint32_t>, Time> Run(bool fine, uint64_t& events)
    {
        CellFabricHelper helper;
        helper.SetAdapterAttribute(
            "Granularity",
            EnumValue(fine ? CellFabricAdapter::FINE : CellFabricAdapter::COARSE));
        NodeContainer chips;
        chips.Create(16);
        std::vector<Ptr<CellFabricAdapter>> a = helper.Install(chips, 8);
        std::map<std::tuple<uint32_t, uint64_t, uint32_t>, Time> commits;
        for (uint32_t i = 0; i < 16; ++i)
        {
            a[i]->TraceConnectWithoutContext(
                "PageCommit",
                Callback<void, uint32_t, uint64_t, uint32_t, uint32_t>(
                    [&commits](uint32_t src, uint64_t job, uint32_t page, uint32_t) {
                        commits[{src, job, page}] = Simulator::Now();
                    }));
            Simulator::Schedule(NanoSeconds(1), [&a, i]() {
                a[i]->Send((i + 5) % 16, 65536, 0);
                a[i]->Send((i + 3) % 16, 16384, 0);
                a[i]->Send((i + 5) % 16, 5120, 0);
            });
        }
        Simulator::Run();
        uint64_t bytes = 0;
        for (uint32_t i = 0; i < 16; ++i)
        {
            bytes += a[i]->GetReceivedPayloadBytes();
        }
        NS_TEST_EXPECT_MSG_EQ(bytes, 16 * (65536 + 16384 + 5120), "bytes conserved");
        NS_TEST_EXPECT_MSG_EQ(FabricDrops(helper, a), 0, "no drop");
        events = Simulator::GetEventCount();
        Simulator::Destroy();
        return commits;
    }

    void DoRun() override
    {
        uint64_t coarseEvents = 0;
        uint64_t fineEvents = 0;
        const auto coarse = Run(false, coarseEvents);
        const auto fine = Run(true, fineEvents);
        NS_TEST_ASSERT_MSG_EQ(coarse.size(), fine.size(), "same pages");
        const Time cell = PicoSeconds(static_cast<int64_t>(192 * 8 / 106.25e9 * 1e12 + 0.5));
        Time worst;
        for (const auto& kv : coarse)
        {
            auto it = fine.find(kv.first);
            NS_TEST_ASSERT_MSG_EQ((it != fine.end()), true, "page in both modes");
            const Time d = kv.second > it->second ? kv.second - it->second : it->second - kv.second;
            worst = std::max(worst, d);
        }
        std::cout << "coarse vs fine: " << coarse.size() << " pages, largest difference "
                  << worst.GetSeconds() * 1e9 << " ns (one cell " << cell.GetSeconds() * 1e9
                  << " ns); events coarse " << coarseEvents << ", fine " << fineEvents << std::endl;
        NS_TEST_ASSERT_MSG_LT_OR_EQ(worst, cell, "within one cell time");
        NS_TEST_ASSERT_MSG_LT(coarseEvents, fineEvents, "coarse mode costs fewer events");
    }
};

/**
 * \ingroup cell-fabric
 * Lossless incast 64:1 on a two-stage fabric of 1024 chips (the lossless fabric of Pyxis spec
 * 10.3.1 at pod scale; grants paced by free Rx CBUF cells, 10.8[8]).
 * 2 planes (2 links per chip, to keep the test fast), each a folded Clos of 15 first-stage
 * switches (72 chips each) and 8 second-stage switches (9 links from each first-stage switch).
 * 64 chips spread over the first-stage switches each write 1 MiB to chip 0: 64 MiB, 15 times
 * the 24K-cell (4.3 MB) Rx CBUF. Default grant policy (PacedRoundRobin): grants go round
 * robin over the sources that have requests, one at a time at the rate the receiver's links
 * bring a page and its request cell, so no source takes the free CBUF ahead of the others.
 * Expected: by conservation, every byte delivered, no cell dropped anywhere and the CBUF all
 * free at the end; the scheduler waited for its pace; the receiver's links, the bottleneck, are
 * busy at least 95% of the incast (first to last commit). Fairness (one bottleneck shared
 * round robin by 64 sources of equal size): over the window in which all 64 are active (the
 * last source's first commit to the first source's last commit, which must be most of the
 * incast) each commits the same number of cells, and all finish at the same time, each within
 * 5% of the mean. (Before this policy, FifoRoundRobin let the 5 sources on the receiver's own
 * first-stage switch, whose requests come first, take the whole free CBUF: they finished by
 * 572 us of a 2759 us incast.)
 */
class TwoStageIncastTestCase : public TestCase
{
  public:
    TwoStageIncastTestCase()
        : TestCase("Lossless incast 64 to 1 on a two-stage fabric of 1024 chips")
    {
    }

  private:
    void DoRun() override
    {
        CellFabricHelper helper;
        helper.SetSpinesPerPlane(8);
        NodeContainer chips;
        chips.Create(1024);
        std::vector<Ptr<CellFabricAdapter>> a = helper.Install(chips, 2);
        NS_TEST_ASSERT_MSG_EQ(helper.GetStages(), 2, "two stages for 1024 chips");
        NS_TEST_ASSERT_MSG_EQ(helper.GetPlanes().size(), 2 * (15 + 8), "switches");
        std::vector<std::tuple<Time, uint32_t, uint32_t>> commits; // time, source, cells
        std::vector<std::pair<Time, uint32_t>> done;               // time, source
        a[0]->TraceConnectWithoutContext(
            "PageCommit",
            Callback<void, uint32_t, uint64_t, uint32_t, uint32_t>(
                [&commits](uint32_t src, uint64_t, uint32_t, uint32_t n) {
                    commits.emplace_back(Simulator::Now(), src, n);
                }));
        a[0]->SetDeliveredCallback(FabricEndpoint::MessageCallback(
            [&done](const FabricMessage& m) { done.emplace_back(m.delivered, m.src); }));
        uint64_t posted = 0;
        for (uint32_t k = 0; k < 64; ++k)
        {
            const uint32_t src = 1 + k * 16;
            Simulator::Schedule(NanoSeconds(1), [&a, src]() { a[src]->Send(0, 1 << 20, 0); });
            posted += 1 << 20;
        }
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(done.size(), 64, "every message delivered");
        const Time first = std::get<0>(commits.front());
        const Time last = std::get<0>(commits.back());
        // Shares over the window in which all 64 sources are active: from the last source's
        // first commit to the first source's last commit. Each source should commit 1/64 of the
        // cells committed in it (round robin over sources), within 5% of the mean.
        std::map<uint32_t, Time> firstCommit;
        std::map<uint32_t, Time> lastCommit;
        for (const auto& c : commits)
        {
            firstCommit.emplace(std::get<1>(c), std::get<0>(c));
            lastCommit[std::get<1>(c)] = std::get<0>(c);
        }
        Time from;
        Time to = Time::Max();
        for (const auto& [src, t] : firstCommit)
        {
            from = std::max(from, t);
            to = std::min(to, lastCommit[src]);
        }
        std::map<uint32_t, uint64_t> cells;
        for (const auto& c : commits)
        {
            if (std::get<0>(c) > from && std::get<0>(c) <= to)
            {
                cells[std::get<1>(c)] += std::get<2>(c);
            }
        }
        uint64_t minCells = UINT64_MAX;
        uint64_t maxCells = 0;
        uint64_t sum = 0;
        for (const auto& kv : cells)
        {
            minCells = std::min(minCells, kv.second);
            maxCells = std::max(maxCells, kv.second);
            sum += kv.second;
        }
        const double mean = cells.empty() ? 0 : static_cast<double>(sum) / cells.size();
        // Finish times (delivery after the post at 1 ns): equal shares of one bottleneck make
        // them equal; each within 5% of their mean.
        double minDone = 1e9;
        double maxDone = 0;
        double sumDone = 0;
        for (const auto& [t, src] : done)
        {
            const double d = (t - NanoSeconds(1)).GetSeconds();
            minDone = std::min(minDone, d);
            maxDone = std::max(maxDone, d);
            sumDone += d;
        }
        const double meanDone = sumDone / done.size();
        Time busy;
        for (uint32_t p = 0; p < 2; ++p)
        {
            busy += helper.GetSwitchPortOf(0, p)->GetStats().busyTime;
        }
        const double busyFraction = busy.GetSeconds() / 2 / (last - first).GetSeconds();
        const CellFabricAdapter::Stats& st = a[0]->GetStats();
        std::cout << "incast 64:1, 1024 chips, two stages: " << a[0]->GetReceivedPayloadBytes()
                  << " of " << posted << " B in " << (last - first).GetSeconds() * 1e6
                  << " us; all 64 active from " << from.GetSeconds() * 1e6 << " to "
                  << to.GetSeconds() * 1e6 << " us: cells per source " << minCells << " to "
                  << maxCells << " (mean " << mean << ", spread "
                  << 100 * (maxCells - minCells) / mean << "%); finish times " << minDone * 1e6
                  << " to " << maxDone * 1e6 << " us (mean " << meanDone * 1e6
                  << "); grants deferred for free cells " << st.grantsDeferred << ", pace waits "
                  << st.grantPaceWaits << ", lowest free Rx cells " << st.minFreeCells
                  << "; receiver links busy " << 100 * busyFraction << "%; requests reordered "
                  << st.requestsReordered << ", pages reordered " << st.pagesReordered << std::endl;
        NS_TEST_ASSERT_MSG_EQ(a[0]->GetReceivedPayloadBytes(), posted, "bytes conserved");
        NS_TEST_ASSERT_MSG_EQ(FabricDrops(helper, a), 0, "no cell dropped");
        NS_TEST_ASSERT_MSG_GT(st.grantPaceWaits, 0, "grants paced at the CBUF's drain rate");
        NS_TEST_ASSERT_MSG_EQ(a[0]->GetFreeRxCells(), 24576, "Rx CBUF free again");
        NS_TEST_ASSERT_MSG_EQ(cells.size(), 64, "every source active in the window");
        NS_TEST_ASSERT_MSG_GT(to - from, (last - first) / 2, "the window is most of the incast");
        NS_TEST_ASSERT_MSG_EQ_TOL(static_cast<double>(minCells), mean, 0.05 * mean, "fair");
        NS_TEST_ASSERT_MSG_EQ_TOL(static_cast<double>(maxCells), mean, 0.05 * mean, "fair");
        NS_TEST_ASSERT_MSG_EQ_TOL(minDone, meanDone, 0.05 * meanDone, "finish times fair");
        NS_TEST_ASSERT_MSG_EQ_TOL(maxDone, meanDone, 0.05 * meanDone, "finish times fair");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(busyFraction, 0.95, "receiver links busy");
        Simulator::Destroy();
    }
};

/// Times of NACK, retry, Job Failed and Rx Job Failed events (trace sinks of JobRetryTestCase).
std::vector<Time> g_nackTimes;
std::vector<Time> g_failTimes;
std::vector<Time> g_retryTimes;
std::vector<Time> g_rxFailTimes;

void
OnRetryTrace(uint32_t, uint64_t)
{
    g_retryTimes.push_back(Simulator::Now());
}

void
OnRxJobFailedTrace(uint32_t, uint64_t)
{
    g_rxFailTimes.push_back(Simulator::Now());
}

void
OnNackTrace(uint32_t, uint64_t)
{
    g_nackTimes.push_back(Simulator::Now());
}

void
OnJobFailedTrace(uint32_t, uint64_t)
{
    g_failTimes.push_back(Simulator::Now());
}

/**
 * \ingroup cell-fabric
 * RDMA job retry and the page checks of RxDMA (Pyxis spec 10.3.1, 10.8.1.1, 10.8.8;
 * cell-fabric.rst, Validation, V4): a 1 MiB job (66 pages) between two idle chips with one page
 * lost in the fabric at the receiver (InjectDropJob/Page/Attempts, InjectDropMode Lost). Times are
 * after the post; D is the control one-way time, P = 125 cycles a full page's RxDMA time (the paced
 * scheduler's grant interval), T_ack the clean run's ACK at the sender.
 *
 * - Page 64 lost once: page 65 reaches RxDMA with sequence 65 where 64 is expected: a sequence
 *   error (dropped, SequenceError), and as it is the last page (Last-page flag) the NACK leaves
 *   at once (10.8.8: NACK once the last page has been received). Page 65 is transmitted at
 *   T_last = 3D + 65 P + 98 FO cycles + TxLatency (JobTimerTestCase); RxDMA is idle (page 64
 *   never came), so it is checked when its cells are in (cut-through: link, switch, its largest
 *   unit of 2 cells = 384 B on one link, link) plus RxLatency, and the NACK reaches the sender
 *   D later: T_nack = T_last + 2 x 50 ns + 400 ns + 384 B / 13.28 GB/s + 240 ns + D. The retry
 *   needs no CTS and RxDMA is idle: completion at T_nack + (T_ack - D). Commits 64 + 66 = 130;
 *   grants 132 = 130 + 1 lost + 1 sequence error; no stale page (the NACK follows the last
 *   page); 1 MiB delivered once.
 * - Page 64 lost on both attempts: the retry is the first attempt less its CTS, shifted by
 *   T_nack - D, so its NACK reaches the sender at 2 T_nack - D: Job Failed there, the Rx job
 *   failed when it sent that NACK (D before); 64 pages (1,024,000 B) written, counted once;
 *   nothing delivered or completed.
 * - Page 10 lost once: pages 11 to 65 fail the sequence check (55 SequenceError drops; the
 *   expected number stays 10); a dropped page's flits still pass RxDMA, so page 65 is checked
 *   when it would have been written in the clean run, 67 + 100 cycles (its write and the commit
 *   latency) before the clean ACK left: T_nack = T_ack - 167 cycles; completion T_nack + (T_ack
 *   - D). Grants 132 = 76 commits (10 + 66) + 1 lost + 55 sequence errors.
 * - Page 65 (the last) lost once: no later page shows the gap, so there is no NACK; the ACK-wait
 *   timer retries at T_last + TxAckTimeout (1 ms), as with a header CRC error.
 */
class JobRetryTestCase : public TestCase
{
  public:
    JobRetryTestCase()
        : TestCase("RDMA job retry: sequence check, NACK at the last page, one retry, Job Failed")
    {
    }

  protected:
    /// \param name the test's name
    JobRetryTestCase(const std::string& name)
        : TestCase(name)
    {
    }

    /// What a run of RunJob gives.
    struct Result
    {
        Time delivered;
        Time completed;
        std::vector<Time> nacks;
        std::vector<Time> fails;
        std::vector<Time> retries;
        std::vector<Time> rxFails;
        CellFabricAdapter::Stats tx;
        CellFabricAdapter::Stats rx;
        uint64_t received{0};
        uint32_t freeCells{0};
        uint32_t cbufCells{0};
        double d{0};
    };

    /**
     * One 1 MiB job from chip 0 to chip 1 posted at 1 us.
     * \param dropPage the page lost at the receiver (-1: none)
     * \param attempts on how many attempts
     * \param mode how the loss shows (InjectDropMode)
     * \param setup attributes to set on the two adapters before the run
     * \return what happened
     */
    Result RunJob(int64_t dropPage,
                  uint32_t attempts,
                  const std::string& mode = "Lost",
                  std::function<void(std::vector<Ptr<CellFabricAdapter>>&)> setup = {})
    {
        g_nackTimes.clear();
        g_failTimes.clear();
        g_retryTimes.clear();
        g_rxFailTimes.clear();
        CellFabricHelper helper;
        NodeContainer chips;
        chips.Create(2);
        std::vector<Ptr<CellFabricAdapter>> a = helper.Install(chips, 36);
        if (dropPage >= 0)
        {
            a[1]->SetAttribute("InjectDropJob", UintegerValue(0));
            a[1]->SetAttribute("InjectDropPage", UintegerValue(dropPage));
            a[1]->SetAttribute("InjectDropAttempts", UintegerValue(attempts));
            a[1]->SetAttribute("InjectDropMode", StringValue(mode));
        }
        if (setup)
        {
            setup(a);
        }
        a[0]->TraceConnectWithoutContext("Nack", MakeCallback(&OnNackTrace));
        a[0]->TraceConnectWithoutContext("JobFailed", MakeCallback(&OnJobFailedTrace));
        a[0]->TraceConnectWithoutContext("JobRetry", MakeCallback(&OnRetryTrace));
        a[1]->TraceConnectWithoutContext("RxJobFailed", MakeCallback(&OnRxJobFailedTrace));
        Result r;
        a[1]->SetDeliveredCallback(FabricEndpoint::MessageCallback(
            [&r](const FabricMessage& m) { r.delivered = m.delivered; }));
        a[0]->SetCompletedCallback(FabricEndpoint::MessageCallback(
            [&r](const FabricMessage& m) { r.completed = m.completed; }));
        Simulator::Schedule(MicroSeconds(1), [&a]() { a[0]->Send(1, 1 << 20, 0); });
        Simulator::Run();
        Ptr<FabricNetDevice> port = DynamicCast<FabricNetDevice>(chips.Get(0)->GetDevice(0));
        Ptr<FabricChannel> ch = port->GetFabricChannel();
        const double rate = ch->GetDataRate().GetBitRate() / 8.0;
        r.d = a[0]->GetTxLatency().GetSeconds() + 2 * ch->GetOneWayDelay().GetSeconds() +
              helper.GetPlanes()[0]->GetPipelineLatency().GetSeconds() +
              (96 + a[0]->GetCellHeaderBytes()) / rate + a[0]->GetRxLatency().GetSeconds();
        r.nacks = g_nackTimes;
        r.fails = g_failTimes;
        r.retries = g_retryTimes;
        r.rxFails = g_rxFailTimes;
        r.tx = a[0]->GetStats();
        r.rx = a[1]->GetStats();
        r.received = a[1]->GetReceivedPayloadBytes();
        r.freeCells = a[1]->GetFreeRxCells();
        UintegerValue cbuf;
        a[1]->GetAttribute("RxCbufCells", cbuf);
        r.cbufCells = cbuf.Get();
        Simulator::Destroy();
        return r;
    }

    static uint64_t DropsOf(const CellFabricAdapter::Stats& s, const std::string& reason)
    {
        auto it = s.drops.find(reason);
        return it == s.drops.end() ? 0 : it->second;
    }

  private:
    void DoRun() override
    {
        const Time post = MicroSeconds(1);
        const Result clean = RunJob(-1, 0);
        const double tAck = (clean.completed - post).GetSeconds();
        const double d = clean.d;
        const double cycle = 1 / 1.33e9;
        const double fo65 =
            std::ceil(CellFabricCellifier::GetCellBytes(67 * 128 + 16) / 88.0) * cycle;
        const double tLast = 3 * d + 65 * 125 * cycle + fo65 + 240e-9;

        // page 64 lost once: the sequence check of page 65 (the last) NACKs at once
        const Result once = RunJob(64, 1);
        NS_TEST_ASSERT_MSG_EQ(once.nacks.size(), 1, "one NACK");
        const double tNack = once.nacks.empty() ? 0 : (once.nacks.at(0) - post).GetSeconds();
        const double nackExpected = tLast + 2 * 50e-9 + 400e-9 + 384 / (106.25e9 / 8) + 240e-9 + d;
        const double expected = tNack + (tAck - d);
        const double measured = (once.completed - post).GetSeconds();
        std::cout << "job retry: clean ACK at " << tAck * 1e6 << " us, D " << d * 1e9
                  << " ns; page 64 lost: NACK expected " << nackExpected * 1e6 << " us, measured "
                  << tNack * 1e6 << " us; completion expected " << expected * 1e6
                  << " us, measured " << measured * 1e6 << " us; bytes " << once.received
                  << "; sequence errors " << DropsOf(once.rx, CellFabricAdapter::SEQUENCE_ERROR)
                  << std::endl;
        NS_TEST_ASSERT_MSG_EQ_TOL(tNack, nackExpected, 1e-9, "NACK at page 65's check + D");
        NS_TEST_ASSERT_MSG_EQ_TOL(measured, expected, 1e-9, "NACK time + a full job less CTS");
        NS_TEST_ASSERT_MSG_EQ(DropsOf(once.rx, CellFabricAdapter::SEQUENCE_ERROR), 1, "page 65");
        NS_TEST_ASSERT_MSG_EQ(DropsOf(once.rx, CellFabricAdapter::INJECTED_DROP), 1, "one loss");
        NS_TEST_ASSERT_MSG_EQ(DropsOf(once.rx, CellFabricAdapter::STALE_EPOCH), 0, "none stale");
        NS_TEST_ASSERT_MSG_EQ(once.rx.nacksSent, 1, "one NACK sent");
        NS_TEST_ASSERT_MSG_EQ(once.tx.jobsRetried, 1, "one retry");
        NS_TEST_ASSERT_MSG_EQ(once.tx.jobsFailed, 0, "no Job Failed");
        NS_TEST_ASSERT_MSG_EQ(once.tx.jobsCompleted, 1, "job completed");
        NS_TEST_ASSERT_MSG_EQ(once.received, 1 << 20, "bytes delivered once");
        NS_TEST_ASSERT_MSG_EQ(once.tx.pagesSent, 2 * 66, "two attempts of 66 pages");
        NS_TEST_ASSERT_MSG_EQ(once.rx.pagesCommitted, 64 + 66, "64 before the loss + 66");
        NS_TEST_ASSERT_MSG_EQ(once.rx.pagesGranted, 130 + 1 + 1, "grants = commits + drops");
        NS_TEST_ASSERT_MSG_EQ(once.freeCells, once.cbufCells, "Rx buffer all free");

        // the page lost on both attempts: Job Failed on the second NACK
        const Result twice = RunJob(64, 2);
        const double failAt = twice.fails.empty() ? 0 : (twice.fails[0] - post).GetSeconds();
        const double rxFailAt = twice.rxFails.empty() ? 0 : (twice.rxFails[0] - post).GetSeconds();
        std::cout << "job retry: lost twice: NACKs " << twice.nacks.size() << ", retries "
                  << twice.tx.jobsRetried << ", Job Failed expected " << (2 * tNack - d) * 1e6
                  << " us, measured " << failAt * 1e6 << " us; Rx Job Failed at " << rxFailAt * 1e6
                  << " us; bytes " << twice.received << std::endl;
        NS_TEST_ASSERT_MSG_EQ(twice.nacks.size(), 2, "two NACKs");
        NS_TEST_ASSERT_MSG_EQ(twice.tx.jobsRetried, 1, "one retry only");
        NS_TEST_ASSERT_MSG_EQ(twice.tx.jobsFailed, 1, "Job Failed");
        NS_TEST_ASSERT_MSG_EQ(twice.fails.size(), 1, "JobFailed traced once");
        NS_TEST_ASSERT_MSG_EQ_TOL(failAt, 2 * tNack - d, 1e-9, "second NACK");
        NS_TEST_ASSERT_MSG_EQ(twice.rxFails.size(), 1, "Rx Job Failed");
        NS_TEST_ASSERT_MSG_EQ_TOL(rxFailAt, 2 * tNack - 2 * d, 1e-9, "when it NACKs again");
        NS_TEST_ASSERT_MSG_EQ(twice.delivered, Time(0), "not delivered");
        NS_TEST_ASSERT_MSG_EQ(twice.completed, Time(0), "not completed");
        NS_TEST_ASSERT_MSG_EQ(twice.tx.jobsCompleted, 0, "no ACK");
        NS_TEST_ASSERT_MSG_EQ(twice.received, 64 * 16000, "64 pages written, counted once");
        NS_TEST_ASSERT_MSG_EQ(twice.freeCells, twice.cbufCells, "Rx buffer all free");

        // a middle page lost once: every later page fails the sequence check, NACK at the last
        const Result mid = RunJob(10, 1);
        const uint64_t seq = DropsOf(mid.rx, CellFabricAdapter::SEQUENCE_ERROR);
        const double midNack = mid.nacks.empty() ? 0 : (mid.nacks.at(0) - post).GetSeconds();
        const double midDone = (mid.completed - post).GetSeconds();
        std::cout << "job retry: page 10 lost: sequence errors " << seq << ", grants "
                  << mid.rx.pagesGranted << ", commits " << mid.rx.pagesCommitted
                  << "; NACK expected " << (tAck - 167 * cycle) * 1e6 << " us, measured "
                  << midNack * 1e6 << " us; completion expected " << (midNack + tAck - d) * 1e6
                  << " us, measured " << midDone * 1e6 << " us; bytes " << mid.received
                  << std::endl;
        NS_TEST_ASSERT_MSG_EQ(seq, 55, "pages 11 to 65");
        NS_TEST_ASSERT_MSG_EQ(DropsOf(mid.rx, CellFabricAdapter::STALE_EPOCH), 0, "none stale");
        NS_TEST_ASSERT_MSG_EQ(mid.rx.pagesGranted,
                              mid.rx.pagesCommitted + 1 + seq,
                              "grants = commits + lost + sequence errors");
        NS_TEST_ASSERT_MSG_EQ(mid.rx.pagesCommitted, 10 + 66, "10 before the loss + 66");
        NS_TEST_ASSERT_MSG_EQ_TOL(midNack, tAck - 167 * cycle, 1e-9, "NACK at page 65's check");
        NS_TEST_ASSERT_MSG_EQ_TOL(midDone, midNack + tAck - d, 1e-9, "a full job less CTS");
        NS_TEST_ASSERT_MSG_EQ(mid.received, 1 << 20, "bytes delivered once");
        NS_TEST_ASSERT_MSG_EQ(mid.tx.jobsCompleted, 1, "job completed");
        NS_TEST_ASSERT_MSG_EQ(mid.freeCells, mid.cbufCells, "Rx buffer all free");

        // the last page lost: no page after it shows the gap; the ACK-wait timer finds it
        const Result last = RunJob(65, 1);
        const double lastRetry = last.retries.empty() ? 0 : (last.retries[0] - post).GetSeconds();
        std::cout << "job retry: page 65 lost: NACKs " << last.nacks.size() << ", retry expected "
                  << (tLast + 1e-3) * 1e6 << " us, measured " << lastRetry * 1e6 << " us"
                  << std::endl;
        NS_TEST_ASSERT_MSG_EQ(last.nacks.size(), 0, "no NACK");
        NS_TEST_ASSERT_MSG_EQ(last.tx.ackTimeouts, 1, "ACK-wait timeout");
        NS_TEST_ASSERT_MSG_EQ_TOL(lastRetry, tLast + 1e-3, 1e-9, "retry at T_last + 1 ms");
        NS_TEST_ASSERT_MSG_EQ(last.received, 1 << 20, "bytes delivered once");
        NS_TEST_ASSERT_MSG_EQ(last.freeCells, last.cbufCells, "Rx buffer all free");
    }
};

/**
 * \ingroup cell-fabric
 * Job timers (Pyxis spec 10.3.1, 10.7.1.1-2, 10.8.1.1-2; cell-fabric.rst, Validation, V4), at
 * their defaults (TxAckTimeout 1 ms, TxActiveTimeout 10 ms, RxDataTimeout 10 ms,
 * RxCompletionTimeout 20 ms), with the 1 MiB job of JobRetryTestCase. Times are after the post; D
 * is the control one-way time, P = 125 cycles the RxDMA time of a full page (the paced scheduler's
 * grant interval for one source).
 *
 * - Last page (65) lost by a header CRC error (InjectDropMode HeaderCrc: dropped, nothing
 *   recorded, no NACK). The CTS reaches the sender at D, the requests the receiver at 2D; the
 *   grants leave every P from 2D and page 65's reaches the sender at 3D + 65 P; its FO pipe
 *   (ceil(8592 / 88) = 98 cycles) and the Tx pipeline later all pages are transmitted: T_last =
 *   3D + 65 P + 98 cycles + TxLatency. No ACK comes: the ACK-wait timer retries the job at
 *   T_retry = T_last + TxAckTimeout. The retry (no CTS wait; its pages carry the Retry bit, which
 *   restarts the Rx job) completes a full job less its CTS later: T_retry + (T_ack - D), T_ack
 *   the clean run's ACK. 1 MiB delivered once, one header CRC drop, no NACK.
 * - Page 65 lost on both attempts: the retry's ACK-wait timer expires T_last - D after T_retry
 *   plus TxAckTimeout: Job Failed there. The Rx job-completion timer runs from the first data
 *   page (its cells complete at 3D + first page - RxLatency, the first page's term of
 *   RdmaJobTimeTestCase) and fails the Rx job RxCompletionTimeout later, after the Tx side.
 * - A receiver that never grants (MaxOutstandingGrants 0): the Tx-active timer, from the CTS at
 *   D, fails the job at D + TxActiveTimeout; the Rx data-wait timer, from the CTS sent at 0,
 *   resends the CTS once at RxDataTimeout and fails the Rx job at 2 RxDataTimeout.
 * - A CTS-wait timer (500 ns) shorter than D: Job Failed at 500 ns, no page requested.
 * - An ACK-wait timer (1 us) shorter than the ACK's way back (T_ack - T_last = 1.96 us): the job
 *   is retried at T_last + 1 us with no loss; the first attempt's ACK still completes it at
 *   T_ack. The retry's requests (64, the occupancy limit) reach the receiver after its Rx job
 *   has retired: granted, their pages are dropped there (UnknownJob) and their cells freed.
 *   1 MiB delivered once, completed once, the Rx buffer all free.
 */
class JobTimerTestCase : public JobRetryTestCase
{
  public:
    JobTimerTestCase()
        : JobRetryTestCase("RDMA job timers: ACK-wait retry, Job Failed, data wait, Tx active")
    {
    }

  private:
    void DoRun() override
    {
        const Time post = MicroSeconds(1);
        const Result clean = RunJob(-1, 0);
        const double tAck = (clean.completed - post).GetSeconds();
        const double d = clean.d;
        const double cycle = 1 / 1.33e9;
        const double p = 125 * cycle;
        const double fo65 =
            std::ceil(CellFabricCellifier::GetCellBytes(67 * 128 + 16) / 88.0) * cycle;
        const double txLat = 240e-9;
        const double rxLat = 240e-9;
        const double ackTimeout = 1e-3;
        const double tLast = 3 * d + 65 * p + fo65 + txLat;
        const double tRetry = tLast + ackTimeout;

        const Result once = RunJob(65, 1, "HeaderCrc");
        NS_TEST_ASSERT_MSG_EQ(once.retries.size(), 1, "one retry");
        const double retryAt = (once.retries[0] - post).GetSeconds();
        const double doneAt = (once.completed - post).GetSeconds();
        std::cout << "job timers: page 65 lost (header CRC): all pages transmitted at "
                  << tLast * 1e6 << " us; retry expected " << tRetry * 1e6 << " us, measured "
                  << retryAt * 1e6 << " us; completion expected " << (tRetry + tAck - d) * 1e6
                  << " us, measured " << doneAt * 1e6 << " us; bytes " << once.received
                  << std::endl;
        NS_TEST_ASSERT_MSG_EQ_TOL(retryAt, tRetry, 1e-9, "retry at T_last + TxAckTimeout");
        NS_TEST_ASSERT_MSG_EQ_TOL(doneAt, tRetry + tAck - d, 1e-9, "retry + a job less CTS");
        NS_TEST_ASSERT_MSG_EQ(once.nacks.size(), 0, "no NACK: the timer found the loss");
        NS_TEST_ASSERT_MSG_EQ(once.tx.ackTimeouts, 1, "one ACK-wait timeout");
        NS_TEST_ASSERT_MSG_EQ(once.tx.jobsFailed, 0, "no Job Failed");
        NS_TEST_ASSERT_MSG_EQ(once.tx.jobsCompleted, 1, "job completed");
        NS_TEST_ASSERT_MSG_EQ(DropsOf(once.rx, CellFabricAdapter::HEADER_CRC), 1, "one CRC drop");
        NS_TEST_ASSERT_MSG_EQ(once.received, 1 << 20, "bytes delivered once");
        NS_TEST_ASSERT_MSG_EQ(once.tx.pagesSent, 2 * 66, "two attempts of 66 pages");
        NS_TEST_ASSERT_MSG_EQ(once.rx.rxJobsFailed, 0, "Rx job not failed");
        NS_TEST_ASSERT_MSG_EQ(once.freeCells, once.cbufCells, "Rx buffer all free");

        const Result twice = RunJob(65, 2, "HeaderCrc");
        const double firstData =
            3 * d + 182 * cycle + txLat + 2 * 50e-9 + 400e-9 + 3 * (176 + 16) / (106.25e9 / 8);
        const double failAt = twice.fails.empty() ? 0 : (twice.fails[0] - post).GetSeconds();
        const double rxFailAt = twice.rxFails.empty() ? 0 : (twice.rxFails[0] - post).GetSeconds();
        std::cout << "job timers: lost twice: retry at "
                  << (twice.retries.empty() ? 0 : (twice.retries[0] - post).GetSeconds()) * 1e6
                  << " us; Job Failed expected " << (tRetry + tLast - d + ackTimeout) * 1e6
                  << " us, measured " << failAt * 1e6 << " us; Rx Job Failed expected "
                  << (firstData + 20e-3) * 1e6 << " us, measured " << rxFailAt * 1e6
                  << " us; bytes " << twice.received << std::endl;
        NS_TEST_ASSERT_MSG_EQ(twice.retries.size(), 1, "one retry only");
        NS_TEST_ASSERT_MSG_EQ(twice.fails.size(), 1, "Job Failed once");
        NS_TEST_ASSERT_MSG_EQ_TOL(failAt, tRetry + tLast - d + ackTimeout, 1e-9, "Job Failed");
        NS_TEST_ASSERT_MSG_EQ(twice.tx.ackTimeouts, 2, "two ACK-wait timeouts");
        NS_TEST_ASSERT_MSG_EQ(twice.nacks.size(), 0, "no NACK");
        NS_TEST_ASSERT_MSG_EQ(twice.delivered, Time(0), "not delivered");
        NS_TEST_ASSERT_MSG_EQ(twice.completed, Time(0), "not completed");
        NS_TEST_ASSERT_MSG_EQ(twice.rxFails.size(), 1, "Rx Job Failed");
        NS_TEST_ASSERT_MSG_EQ_TOL(rxFailAt, firstData + 20e-3, 1e-9, "Rx completion timer");
        NS_TEST_ASSERT_MSG_GT(rxFailAt, failAt, "Rx timers longer than Tx timers");
        NS_TEST_ASSERT_MSG_EQ(twice.freeCells, twice.cbufCells, "Rx buffer all free");

        const Result stuck = RunJob(-1, 0, "Lost", [](std::vector<Ptr<CellFabricAdapter>>& a) {
            a[1]->SetAttribute("MaxOutstandingGrants", UintegerValue(0));
        });
        const double stuckFail = stuck.fails.empty() ? 0 : (stuck.fails[0] - post).GetSeconds();
        const double stuckRx = stuck.rxFails.empty() ? 0 : (stuck.rxFails[0] - post).GetSeconds();
        std::cout << "job timers: no grant: Job Failed expected " << (d + 10e-3) * 1e6
                  << " us, measured " << stuckFail * 1e6 << " us; CTS resent " << stuck.rx.ctsResent
                  << "; Rx Job Failed expected 20000 us, measured " << stuckRx * 1e6 << " us"
                  << std::endl;
        NS_TEST_ASSERT_MSG_EQ(stuck.fails.size(), 1, "Job Failed");
        NS_TEST_ASSERT_MSG_EQ_TOL(stuckFail, d + 10e-3, 1e-9, "Tx-active timer from the CTS");
        NS_TEST_ASSERT_MSG_EQ(stuck.rx.ctsResent, 1, "CTS resent once");
        NS_TEST_ASSERT_MSG_EQ_TOL(stuckRx, 20e-3, 1e-9, "two data-wait timeouts");
        NS_TEST_ASSERT_MSG_EQ(stuck.tx.pagesSent, 0, "nothing sent");

        const Result noCts = RunJob(-1, 0, "Lost", [](std::vector<Ptr<CellFabricAdapter>>& a) {
            a[0]->SetAttribute("TxCtsTimeout", TimeValue(NanoSeconds(500)));
        });
        const double noCtsFail = noCts.fails.empty() ? 0 : (noCts.fails[0] - post).GetSeconds();
        std::cout << "job timers: CTS wait 500 ns < D: Job Failed at " << noCtsFail * 1e9
                  << " ns, pages requested " << noCts.tx.pagesRequested << std::endl;
        NS_TEST_ASSERT_MSG_EQ(noCts.fails.size(), 1, "Job Failed");
        NS_TEST_ASSERT_MSG_EQ_TOL(noCtsFail, 500e-9, 1e-12, "CTS-wait timer");
        NS_TEST_ASSERT_MSG_EQ(noCts.tx.pagesRequested, 0, "no page requested");

        const Result early = RunJob(-1, 0, "Lost", [](std::vector<Ptr<CellFabricAdapter>>& a) {
            a[0]->SetAttribute("TxAckTimeout", TimeValue(MicroSeconds(1)));
        });
        const double earlyRetry =
            early.retries.empty() ? 0 : (early.retries[0] - post).GetSeconds();
        const uint64_t unknown = DropsOf(early.rx, CellFabricAdapter::UNKNOWN_JOB);
        std::cout << "job timers: ACK wait 1 us: retry expected " << (tLast + 1e-6) * 1e6
                  << " us, measured " << earlyRetry * 1e6 << " us; completion "
                  << (early.completed - post).GetSeconds() * 1e6 << " us (clean " << tAck * 1e6
                  << " us); retry pages dropped at the receiver " << unknown << "; bytes "
                  << early.received << std::endl;
        NS_TEST_ASSERT_MSG_EQ(early.retries.size(), 1, "one retry");
        NS_TEST_ASSERT_MSG_EQ_TOL(earlyRetry, tLast + 1e-6, 1e-9, "retry at T_last + 1 us");
        NS_TEST_ASSERT_MSG_EQ_TOL((early.completed - post).GetSeconds(), tAck, 1e-9, "ACK");
        NS_TEST_ASSERT_MSG_EQ(early.tx.jobsCompleted, 1, "completed once");
        NS_TEST_ASSERT_MSG_EQ(early.tx.jobsFailed, 0, "no Job Failed");
        NS_TEST_ASSERT_MSG_EQ(early.received, 1 << 20, "bytes delivered once");
        NS_TEST_ASSERT_MSG_EQ(unknown, 64, "the retry's 64 requested pages dropped");
        NS_TEST_ASSERT_MSG_EQ(early.freeCells, early.cbufCells, "Rx buffer all free");
    }
};

/// Drops of one reason at an adapter.
uint64_t
AdapterDrops(const Ptr<CellFabricAdapter>& a, const std::string& reason)
{
    auto it = a->GetStats().drops.find(reason);
    return it == a->GetStats().drops.end() ? 0 : it->second;
}

/**
 * \ingroup cell-fabric
 * Datagrams (Pyxis spec 10.5, 10.8.1.3, 10.8.8, 11.4.8-9, 11.5.2; cell-fabric.rst, Validation,
 * V1 c and V8), between two idle chips (36 links, single stage, default attributes unless named).
 *
 * - The maximum datagram, 16,256 B (11.4.8), is one page of 16,272 B with its header: 93 cells
 *   (91 x 176 + 160 + 96, Validation V1 c), delivered. No CTS (10.5): its request reaches the
 *   receiver at D, its grant the sender at 2D; then its FO time (ceil(16,272 / 88) = 185
 *   cycles), TxLatency, link, switch, its largest unit on one link (93 cells over 36 links:
 *   cells 0, 36 and 72 = 3 x 176 B + 3 x 16 B = 576 B), link, RxLatency, RxDMA (ceil(16,256 /
 *   128) = 127 cycles) and the commit latency (100 cycles): delivery = 2D + 185 cycles + 240 ns
 *   + 50 ns + 400 ns + 576 B / 13.28 GB/s + 50 ns + 240 ns + 227 cycles, within 1 ns.
 * - 16,257 B is refused at the sender (NumBytes 1 to 16,256): drop reason DatagramSize, nothing
 *   sent.
 * - An RxQ ring of 9 descriptors holds 8 free ones (a ring of N holds N - 1, 11.5.2.2); with no
 *   re-posting (DatagramRxRepostLimit 0) 20 datagrams deliver exactly 8 and 12 are dropped
 *   (DatagramNoDescriptor): sent 20 = delivered 8 + dropped 12. With 4 re-posts allowed at once
 *   (DatagramRxRepostTime 0): 12 delivered, 8 dropped.
 * - A TxQ ring of 9 descriptors holds 8 (11.5.2.1): of 20 posts at once 12 wait in software;
 *   with 4 TxQ Reorder IDs (10.7.1.4) the TxQ blocks until the head advances; all 20 are sent
 *   and delivered, the TxQ empty at the end.
 * - A buffer of 4096 B (BufferSizeBytes): 4096 B delivered, 4097 B dropped (DatagramTooLarge).
 * - The endpoint API over datagrams (EndpointTransport Datagram): a 40,000 B message is 3
 *   datagrams (16,256 + 16,256 + 7488 B: 93 + 93 + 43 cells = 229), delivered once with its
 *   40,000 B, completed once at the sender.
 */
class DatagramTestCase : public TestCase
{
  public:
    DatagramTestCase()
        : TestCase("Datagrams: 16256 B max, refusal, RxQ ring runs dry, buffer size, endpoint API")
    {
    }

  private:
    /// What one run gives.
    struct Run
    {
        std::vector<Time> delivered; //!< delivery times at the receiver
        uint32_t completed{0};       //!< completions at the sender
        std::vector<bool> posted;    //!< PostDatagram's results
        CellFabricAdapter::Stats tx; //!< sender's counters
        CellFabricAdapter::Stats rx; //!< receiver's counters
        uint64_t received{0};        //!< payload bytes received
        uint64_t noDescriptor{0};    //!< DatagramNoDescriptor drops
        uint64_t tooLarge{0};        //!< DatagramTooLarge drops
        uint64_t refused{0};         //!< DatagramSize drops at the sender
        uint64_t txRingFull{0};      //!< posts that found TxQ 0 full
        uint32_t txLeft{0};          //!< TxQ 0's ring and backlog at the end
        double d{0};                 //!< control one-way time
    };

    /**
     * \param sizes datagrams posted at 1 us, in order (0: a 40,000 B endpoint message instead)
     * \param setup attributes of the two adapters
     * \return the run
     */
    Run Go(const std::vector<uint64_t>& sizes,
           std::function<void(std::vector<Ptr<CellFabricAdapter>>&)> setup = {})
    {
        CellFabricHelper helper;
        NodeContainer chips;
        chips.Create(2);
        std::vector<Ptr<CellFabricAdapter>> a = helper.Install(chips, 36);
        if (setup)
        {
            setup(a);
        }
        Run r;
        a[1]->SetDeliveredCallback(FabricEndpoint::MessageCallback(
            [&r](const FabricMessage& m) { r.delivered.push_back(m.delivered); }));
        a[0]->SetCompletedCallback(
            FabricEndpoint::MessageCallback([&r](const FabricMessage&) { ++r.completed; }));
        Simulator::Schedule(MicroSeconds(1), [&a, &r, sizes]() {
            uint64_t id = 0;
            for (uint64_t bytes : sizes)
            {
                if (bytes == 0)
                {
                    a[0]->Send(1, 40000, 0);
                    continue;
                }
                FabricMessage m;
                m.id = id++;
                m.src = 0;
                m.dst = 1;
                m.bytes = bytes;
                m.posted = Simulator::Now();
                r.posted.push_back(a[0]->PostDatagram(m, 0, 0, 0));
            }
        });
        Simulator::Run();
        Ptr<FabricNetDevice> port = DynamicCast<FabricNetDevice>(chips.Get(0)->GetDevice(0));
        Ptr<FabricChannel> ch = port->GetFabricChannel();
        r.d = a[0]->GetTxLatency().GetSeconds() + 2 * ch->GetOneWayDelay().GetSeconds() +
              helper.GetPlanes()[0]->GetPipelineLatency().GetSeconds() +
              (96 + a[0]->GetCellHeaderBytes()) / (ch->GetDataRate().GetBitRate() / 8.0) +
              a[0]->GetRxLatency().GetSeconds();
        r.tx = a[0]->GetStats();
        r.rx = a[1]->GetStats();
        r.received = a[1]->GetReceivedPayloadBytes();
        r.noDescriptor = AdapterDrops(a[1], CellFabricAdapter::DATAGRAM_NO_DESCRIPTOR);
        r.tooLarge = AdapterDrops(a[1], CellFabricAdapter::DATAGRAM_TOO_LARGE);
        r.refused = AdapterDrops(a[0], CellFabricAdapter::DATAGRAM_SIZE);
        if (a[0]->HasRxResources())
        {
            const CellFabricDatagramTxQueue& q = a[0]->GetDatagramTxQueue(0, 0);
            r.txRingFull = q.GetRingFullWaits();
            r.txLeft = q.GetInRing() + q.GetBacklog();
        }
        Simulator::Destroy();
        return r;
    }

    void DoRun() override
    {
        const double cycle = 1 / 1.33e9;
        // the maximum datagram and one byte more
        const Run max = Go({16256, 16257});
        const double expected = 2 * max.d + 185 * cycle + 240e-9 + 50e-9 + 400e-9 +
                                576 / (106.25e9 / 8) + 50e-9 + 240e-9 + 227 * cycle;
        const double at = max.delivered.empty() ? 0 : max.delivered[0].GetSeconds() - 1e-6;
        std::cout << "datagram 16256 B: " << max.tx.cellsSent << " cells, delivered at " << at * 1e6
                  << " us (expected " << expected * 1e6 << " us); 16257 B refused " << max.refused
                  << std::endl;
        NS_TEST_ASSERT_MSG_EQ(max.posted.size(), 2, "two posts");
        NS_TEST_ASSERT_MSG_EQ(max.posted[0], true, "16256 B accepted");
        NS_TEST_ASSERT_MSG_EQ(max.posted[1], false, "16257 B refused");
        NS_TEST_ASSERT_MSG_EQ(max.refused, 1, "DatagramSize drop");
        NS_TEST_ASSERT_MSG_EQ(max.tx.cellsSent, 93, "93 cells");
        NS_TEST_ASSERT_MSG_EQ(max.tx.pagesSent, 1, "one page");
        NS_TEST_ASSERT_MSG_EQ(max.tx.datagramsSent, 1, "one datagram sent");
        NS_TEST_ASSERT_MSG_EQ(max.delivered.size(), 1, "delivered");
        NS_TEST_ASSERT_MSG_EQ(max.completed, 1, "completed at the sender");
        NS_TEST_ASSERT_MSG_EQ(max.received, 16256, "payload");
        NS_TEST_ASSERT_MSG_EQ(max.rx.messagesSent, 0, "no CTS, no ACK");
        NS_TEST_ASSERT_MSG_EQ_TOL(at, expected, 1e-9, "request, grant, page, RxDMA, commit");

        // a ring of 9 descriptors, no re-posting: 8 of 20 delivered
        const std::vector<uint64_t> twenty(20, 1000);
        const Run dry = Go(twenty, [](std::vector<Ptr<CellFabricAdapter>>& a) {
            a[1]->SetAttribute("DatagramRxRingSize", UintegerValue(9));
            a[1]->SetAttribute("DatagramRxRepostLimit", UintegerValue(0));
        });
        std::cout << "datagram RxQ of 9, no re-post: sent " << dry.tx.datagramsSent
                  << ", delivered " << dry.delivered.size() << ", dropped " << dry.noDescriptor
                  << std::endl;
        NS_TEST_ASSERT_MSG_EQ(dry.tx.datagramsSent, 20, "20 sent");
        NS_TEST_ASSERT_MSG_EQ(dry.delivered.size(), 8, "N - 1 = 8 delivered");
        NS_TEST_ASSERT_MSG_EQ(dry.noDescriptor, 12, "12 dropped");
        NS_TEST_ASSERT_MSG_EQ(dry.rx.datagramsReceived + dry.noDescriptor,
                              dry.tx.datagramsSent,
                              "sent = delivered + dropped");
        NS_TEST_ASSERT_MSG_EQ(dry.received, 8 * 1000, "8 payloads");
        NS_TEST_ASSERT_MSG_EQ(dry.completed, 20, "all completed at the sender (unreliable)");

        // 4 re-posts at once: 12 delivered
        const Run four = Go(twenty, [](std::vector<Ptr<CellFabricAdapter>>& a) {
            a[1]->SetAttribute("DatagramRxRingSize", UintegerValue(9));
            a[1]->SetAttribute("DatagramRxRepostLimit", UintegerValue(4));
            a[1]->SetAttribute("DatagramRxRepostTime", TimeValue(Time(0)));
        });
        std::cout << "datagram RxQ of 9, 4 re-posts: delivered " << four.delivered.size()
                  << ", dropped " << four.noDescriptor << std::endl;
        NS_TEST_ASSERT_MSG_EQ(four.delivered.size(), 12, "8 + 4 delivered");
        NS_TEST_ASSERT_MSG_EQ(four.noDescriptor, 8, "8 dropped");

        // a TxQ ring of 9 (8 descriptors) and 4 Reorder IDs: 12 of 20 posts wait in software,
        // the TxQ blocks on its Reorder IDs, and still every datagram is sent and delivered
        const Run txq = Go(twenty, [](std::vector<Ptr<CellFabricAdapter>>& a) {
            a[0]->SetAttribute("DatagramTxRingSize", UintegerValue(9));
            a[0]->SetAttribute("DatagramTxReorderIds", UintegerValue(4));
        });
        std::cout << "datagram TxQ of 9, 4 Reorder IDs: ring-full posts " << txq.txRingFull
                  << ", sent " << txq.tx.datagramsSent << ", delivered " << txq.delivered.size()
                  << std::endl;
        NS_TEST_ASSERT_MSG_EQ(txq.txRingFull, 12, "20 posts, 8 fit");
        NS_TEST_ASSERT_MSG_EQ(txq.tx.datagramsSent, 20, "all sent");
        NS_TEST_ASSERT_MSG_EQ(txq.delivered.size(), 20, "all delivered");
        NS_TEST_ASSERT_MSG_EQ(txq.txLeft, 0, "the TxQ empty at the end");

        // a 4096 B buffer
        const Run small = Go({4096, 4097}, [](std::vector<Ptr<CellFabricAdapter>>& a) {
            a[1]->SetAttribute("DatagramRxBufferBytes", UintegerValue(4096));
        });
        std::cout << "datagram buffer 4096 B: delivered " << small.delivered.size()
                  << ", too large " << small.tooLarge << std::endl;
        NS_TEST_ASSERT_MSG_EQ(small.delivered.size(), 1, "4096 B delivered");
        NS_TEST_ASSERT_MSG_EQ(small.tooLarge, 1, "4097 B dropped");
        NS_TEST_ASSERT_MSG_EQ(small.received, 4096, "payload");

        // the endpoint API over datagrams
        const Run api = Go({0}, [](std::vector<Ptr<CellFabricAdapter>>& a) {
            a[0]->SetAttribute("EndpointTransport", StringValue("Datagram"));
        });
        std::cout << "endpoint message of 40000 B over datagrams: " << api.tx.datagramsSent
                  << " datagrams, " << api.tx.cellsSent << " cells, delivered "
                  << api.delivered.size() << ", bytes " << api.received << std::endl;
        NS_TEST_ASSERT_MSG_EQ(api.tx.datagramsSent, 3, "3 datagrams");
        NS_TEST_ASSERT_MSG_EQ(api.tx.cellsSent, 93 + 93 + 43, "229 cells");
        NS_TEST_ASSERT_MSG_EQ(api.delivered.size(), 1, "delivered once");
        NS_TEST_ASSERT_MSG_EQ(api.completed, 1, "completed once");
        NS_TEST_ASSERT_MSG_EQ(api.received, 40000, "bytes conserved");
        NS_TEST_ASSERT_MSG_EQ(api.tx.jobsPosted, 0, "no RDMA job");
    }
};

/**
 * \ingroup cell-fabric
 * RxDMA tracking IDs (Pyxis spec 10.8.8, 11.7.2): a page is written only with one of the
 * cluster's 16 tracking IDs, held from the start of its write to its commit (w + L: w its write
 * cycles, L = RxDmaCommitCycles = 100). With small pages (datagrams of 128 B, w = 1 cycle) the 16
 * IDs, not RxDMA's 128 B per cycle, set the rate: once RxDMA has a backlog, page k starts
 * (and commits) w + L after page k - 16, i.e. 16 pages per 101 cycles (210.7 M pages/s, against
 * one page per cycle, 1.33 G/s, without the limit). With n = 16 (m + 1) datagrams (m = 60) the
 * commits of pages 15 and n - 1 are m (w + L) apart (the model's cycle rounding: w = 752 ps,
 * L = 75,188 ps), within 1 ps per step; RxDMA stalls once per group of 16 after the first
 * (the group's first page waits for the ID of the page 16 before; the next ones find theirs
 * freed exactly at their turn): m stalls. With 4096 IDs the same run commits one page per cycle
 * (752 ps, the RxDMA or grant pace) and never stalls. The sender's occupancy limit and TxQ
 * (MaxOutstandingPages, DatagramTxReorderIds, DatagramTxRingSize) are raised so that the
 * receiver is the bottleneck.
 */
class TrackingIdTestCase : public TestCase
{
  public:
    TrackingIdTestCase()
        : TestCase("RxDMA tracking IDs limit small pages to 16 per write and commit time")
    {
    }

  private:
    /**
     * \param ids RxDmaTrackingIds of the receiver
     * \param n datagrams
     * \param[out] stalls the receiver's tracking-ID stalls
     * \return sorted delivery times
     */
    std::vector<Time> Go(uint32_t ids, uint32_t n, uint64_t& stalls)
    {
        CellFabricHelper helper;
        NodeContainer chips;
        chips.Create(2);
        std::vector<Ptr<CellFabricAdapter>> a = helper.Install(chips, 36);
        a[0]->SetAttribute("MaxOutstandingPages", UintegerValue(100000));
        a[0]->SetAttribute("DatagramTxReorderIds", UintegerValue(8192));
        a[0]->SetAttribute("DatagramTxRingSize", UintegerValue(8192));
        a[1]->SetAttribute("DatagramRxRingSize", UintegerValue(8192));
        a[1]->SetAttribute("RxDmaTrackingIds", UintegerValue(ids));
        std::vector<Time> t;
        a[1]->SetDeliveredCallback(FabricEndpoint::MessageCallback(
            [&t](const FabricMessage& m) { t.push_back(m.delivered); }));
        Simulator::Schedule(MicroSeconds(1), [&a, n]() {
            for (uint32_t i = 0; i < n; ++i)
            {
                FabricMessage m;
                m.id = i;
                m.src = 0;
                m.dst = 1;
                m.bytes = 128;
                a[0]->PostDatagram(m, 0, 0, 0);
            }
        });
        Simulator::Run();
        stalls = a[1]->GetStats().trackingIdStalls;
        Simulator::Destroy();
        std::sort(t.begin(), t.end());
        return t;
    }

    void DoRun() override
    {
        const uint32_t m = 60;
        const uint32_t n = 16 * (m + 1);
        uint64_t stalls = 0;
        const std::vector<Time> t16 = Go(16, n, stalls);
        NS_TEST_ASSERT_MSG_EQ(t16.size(), n, "all delivered");
        const double span = (t16.back() - t16.at(15)).GetSeconds();
        const double expected = m * (752e-12 + 75188e-12);
        uint64_t stallsFree = 0;
        const std::vector<Time> tFree = Go(4096, n, stallsFree);
        NS_TEST_ASSERT_MSG_EQ(tFree.size(), n, "all delivered");
        const double spanFree = (tFree.back() - tFree.at(15)).GetSeconds();
        std::cout << "tracking IDs: " << n << " datagrams of 128 B: 16 IDs: pages 15 to " << n - 1
                  << " commit over " << span * 1e9 << " ns (expected " << expected * 1e9 << " ns, "
                  << 16 * m / span / 1e6 << " M pages/s), stalls " << stalls
                  << "; 4096 IDs: " << spanFree * 1e9 << " ns (expected " << 16 * m * 752e-3
                  << " ns), stalls " << stallsFree << std::endl;
        NS_TEST_ASSERT_MSG_EQ_TOL(span, expected, m * 1e-12, "16 pages per w + L");
        NS_TEST_ASSERT_MSG_EQ(stalls, m, "one stall per group of 16 after the first");
        NS_TEST_ASSERT_MSG_EQ_TOL(spanFree, 16 * m * 752e-12, m * 1e-12, "one page per cycle");
        NS_TEST_ASSERT_MSG_EQ(stallsFree, 0, "no stall");
    }
};

/// Credits of every cell link of a fabric: returns false (and says which) if a sender's credits
/// are not all back or a receiver still holds some (the end of a run that drained).
bool
CreditsAllBack(const CellFabricHelper& helper, std::string& where)
{
    for (const Ptr<FabricSwitch>& sw : helper.GetPlanes())
    {
        for (uint32_t i = 0; i < sw->GetNPorts(); ++i)
        {
            Ptr<FabricNetDevice> d = sw->GetPort(i);
            for (const Ptr<FabricNetDevice>& e : {d, d->GetFabricChannel()->GetPeer(d)})
            {
                Ptr<FabricCreditFlowControl> fc =
                    DynamicCast<FabricCreditFlowControl>(e->GetFlowControl());
                if (!fc)
                {
                    where = "a cell link without credit flow control";
                    return false;
                }
                for (uint8_t vc = 0; vc < 2; ++vc)
                {
                    if (fc->GetAvailableCredits(vc) != helper.GetCreditsPerPort() ||
                        fc->GetOccupancy(vc) != 0)
                    {
                        where = "credits " + std::to_string(fc->GetAvailableCredits(vc)) + " of " +
                                std::to_string(helper.GetCreditsPerPort()) + " on class " +
                                std::to_string(vc);
                        return false;
                    }
                }
            }
        }
    }
    return true;
}

/**
 * \ingroup cell-fabric
 * Credit flow control between the cell-switch stages keeps an overloaded switch lossless
 * (the spec's lossless fabric, 10.3.1). Three chips send 1 MiB each to a fourth over 2 single-stage
 * planes of 4 ports with grant pacing off (GrantPolicy Fifo, a 64K-cell Rx CBUF: every page is
 * granted at once) and job timers off (a lossy run drains and stops). Each plane's switch has a
 * finite buffer of 848 cells: exactly what its credits need, 4 ports x 2 pools x 106 credits, where
 * 106 is the round trip of a link at its smallest cell, ceil((2 x 50 + 400) ns / (112 B at 106.25
 * Gb/s = 8.433 ns)) = 60, plus the largest unit, ceil(91 cells / 2 links) = 46.
 *
 * Without credits the three sources pour 3 x 26.56 GB/s into the receiver's 2 x 13.28 GB/s and
 * its switch ports overflow: cells are dropped (BufferFull), counted at the switch, and by
 * conservation the cells sent = the cells received + the data cells dropped; not all 3 MiB
 * arrive. With credits the same run drops nothing: 3 MiB sent = received = delivered, every
 * credit back at the end, and the incast is link-limited: the receiver's 2 links carry, per
 * source, 1 MiB + 66 page headers and 5964 cell headers of 16 B (1,145,056 B) plus 66 request
 * cells of 112 B, 3,457,344 B in all = 130.158 us at 2 x 106.25 Gb/s. The last delivery comes
 * no sooner than that after the post and within 5% of it plus the startup 3D (CTS, request,
 * grant: 3 x 988.4 ns, the RDMA job test's closed form).
 */
class CreditIncastTestCase : public TestCase
{
  public:
    /// \param credits run with credit flow control
    CreditIncastTestCase(bool credits)
        : TestCase(credits ? "Incast 3 to 1 on a finite switch buffer with credits: no drop"
                           : "Incast 3 to 1 on a finite switch buffer without credits drops"),
          m_credits(credits)
    {
    }

  private:
    void DoRun() override
    {
        CellFabricHelper helper;
        helper.SetAdapterAttribute("GrantPolicy", EnumValue(CellFabricAdapter::FIFO));
        helper.SetAdapterAttribute("RxCbufCells", UintegerValue(65536));
        for (const char* t : {"TxCtsTimeout",
                              "TxActiveTimeout",
                              "TxAckTimeout",
                              "RxDataTimeout",
                              "RxCompletionTimeout"})
        {
            helper.SetAdapterAttribute(t, TimeValue(Seconds(0)));
        }
        helper.SetSwitchBufferCells(848);
        helper.SetCredits(m_credits);
        NodeContainer chips;
        chips.Create(4);
        std::vector<Ptr<CellFabricAdapter>> a = helper.Install(chips, 2);
        NS_TEST_ASSERT_MSG_EQ(helper.GetCellSlotBytes(), 192, "a cell slot is 176 + 16 B");
        NS_TEST_ASSERT_MSG_EQ(helper.GetCreditsPerPort(), m_credits ? 106 : 0, "60 + 46 credits");
        std::map<std::string, uint64_t> dropsByReason;
        uint64_t droppedDataCells = 0;
        for (const Ptr<FabricSwitch>& sw : helper.GetPlanes())
        {
            NS_TEST_ASSERT_MSG_EQ(sw->GetBuffer()->GetSize(), 848 * 192, "848 slots of 192 B");
            sw->TraceConnectWithoutContext(
                "Drop",
                Callback<void, Ptr<const FabricPacket>, const std::string&>(
                    [&droppedDataCells](Ptr<const FabricPacket> p, const std::string&) {
                        if (p->ctrlClass == CellFabricAdapter::DATA_CELLS)
                        {
                            droppedDataCells += p->ctrlValue2 & 0xFFFFFFFFULL;
                        }
                    }));
        }
        Time lastDelivery;
        uint64_t delivered = 0;
        a[0]->SetDeliveredCallback(
            FabricEndpoint::MessageCallback([&lastDelivery, &delivered](const FabricMessage& m) {
                lastDelivery = m.delivered;
                ++delivered;
            }));
        for (uint32_t s = 1; s < 4; ++s)
        {
            Simulator::Schedule(NanoSeconds(1), [&a, s]() { a[s]->Send(0, 1 << 20, 0); });
        }
        Simulator::Run();
        uint64_t cellsSent = 0;
        uint64_t bytesSent = 0;
        for (uint32_t s = 1; s < 4; ++s)
        {
            cellsSent += a[s]->GetStats().cellsSent;
            bytesSent += a[s]->GetBytesSent();
        }
        for (const Ptr<FabricSwitch>& sw : helper.GetPlanes())
        {
            for (const auto& kv : sw->GetDrops())
            {
                dropsByReason[kv.first] += kv.second;
            }
        }
        const uint64_t received = a[0]->GetReceivedPayloadBytes();
        const double linkLimited = 3.0 * (1145056 + 66 * 112) * 8 / (2 * 106.25e9);
        const double startup = 3 * 988.433e-9;
        // Nothing is delivered in the lossy run: its last delivery stays 0 (a negative Time's
        // GetSeconds is undefined behaviour inside ns-3's int64x64, found by the sanitizers).
        const double measured =
            lastDelivery > NanoSeconds(1) ? (lastDelivery - NanoSeconds(1)).GetSeconds() : 0.0;
        std::cout << "incast 3:1, " << (m_credits ? "credits" : "no credits")
                  << ": switch drops BufferFull " << dropsByReason[FabricDropReason::BUFFER_FULL]
                  << " units (" << droppedDataCells << " data cells); cells sent " << cellsSent
                  << ", received " << a[0]->GetStats().cellsReceived << "; bytes sent " << bytesSent
                  << ", received " << received << ", delivered " << a[0]->GetBytesDelivered()
                  << "; last delivery " << measured * 1e6 << " us (link-limited "
                  << linkLimited * 1e6 << " us)" << std::endl;
        NS_TEST_ASSERT_MSG_EQ(bytesSent, 3 << 20, "3 MiB posted");
        // Conservation of cells: every cell sent arrived or was dropped at a switch.
        NS_TEST_ASSERT_MSG_EQ(cellsSent,
                              a[0]->GetStats().cellsReceived + droppedDataCells,
                              "cells sent = received + dropped");
        if (!m_credits)
        {
            NS_TEST_ASSERT_MSG_GT(dropsByReason[FabricDropReason::BUFFER_FULL],
                                  0,
                                  "the switch buffer overflows");
            NS_TEST_ASSERT_MSG_GT(droppedDataCells, 0, "data cells dropped");
            NS_TEST_ASSERT_MSG_LT(a[0]->GetBytesDelivered(), bytesSent, "not all delivered");
            Simulator::Destroy();
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(FabricDrops(helper, a), 0, "no drop");
        NS_TEST_ASSERT_MSG_EQ(droppedDataCells, 0, "no cell dropped");
        NS_TEST_ASSERT_MSG_EQ(delivered, 3, "every message delivered");
        NS_TEST_ASSERT_MSG_EQ(received, bytesSent, "bytes received = sent");
        NS_TEST_ASSERT_MSG_EQ(a[0]->GetBytesDelivered(), bytesSent, "bytes delivered = sent");
        NS_TEST_ASSERT_MSG_EQ(cellsSent, 3 * 5964, "3 x 5964 cells");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(measured, linkLimited, "no faster than the links");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(measured,
                                    1.05 * linkLimited + startup,
                                    "link-limited within 5%");
        for (const Ptr<FabricSwitch>& sw : helper.GetPlanes())
        {
            NS_TEST_ASSERT_MSG_LT_OR_EQ(sw->GetBuffer()->GetPeakOccupancy(),
                                        848 * 192,
                                        "within the buffer");
        }
        std::string where;
        NS_TEST_ASSERT_MSG_EQ(CreditsAllBack(helper, where), true, where);
        Simulator::Destroy();
    }

    bool m_credits; //!< credit flow control on
};

/**
 * \ingroup cell-fabric
 * Credits sized to the round trip do not throttle. One 1 MiB RDMA job from chip 0 to
 * chip 7 over L two-stage planes of 8-port switches (4 down, 4 up to 4 spines: 2 first-stage
 * switches, chips 0 and 7 on different ones), so every cell crosses four credited links
 * (adapter to first stage, to second stage, back to first stage, to the adapter). The job is
 * link-limited: L links of 106.25 Gb/s carry 1,145,056 B of cells plus 66 request cells of
 * 112 B, 86.772 us / L. Closed form: startup 3D with D = 240 + 4 x 50 + 3 x 400 + 8.433 + 240 ns
 * = 1888.43 ns (the control one-way time over three switches), the first page's FO time (182
 * cycles at 1.33 GHz) and path (Tx and Rx pipelines, 4 links, 3 switches), then the links:
 * 5.665 + 0.137 + 1.880 + 86.772 / L us (51.07 us on 2 links, 94.45 us on 1), within 2%. With
 * credits the delivery time equals that without (within 1 ps). Credits per port
 * (CellFabricHelper::GetRoundTripCredits, a 112 B smallest cell of 8.433 ns): on 2 links a unit
 * has U = ceil(91 / 2) = 46 cells, max(ceil(500 / 8.433) + 46, ceil(100 / 8.433) + 2 x 46) =
 * max(106, 104) = 106; on 1 link U = 91, max(151, 194) = 194: into an adapter, which frees a
 * unit at its tail, a 91-cell unit's own time adds to the round trip. Evidence for that second
 * term: on 1 link with 151 credits (the first term alone) the flow is slower than without
 * credits.
 */
class TwoStageCreditsTestCase : public TestCase
{
  public:
    /// \param links links per chip (planes)
    TwoStageCreditsTestCase(uint32_t links)
        : TestCase("Credits sized to the round trip do not slow a flow through two stages, " +
                   std::to_string(links) + " link(s)"),
          m_links(links)
    {
    }

  private:
    /**
     * \param credits credit flow control on
     * \param[out] creditsPerPort its credits
     * \param perPort credits per port to set (0: derived)
     * \return the delivery time after the post
     */
    Time RunOnce(bool credits, uint32_t& creditsPerPort, uint32_t perPort = 0)
    {
        CellFabricHelper helper;
        helper.SetCreditsPerPort(perPort);
        helper.SetSwitchPorts(8);
        helper.SetStages(2);
        helper.SetCredits(credits);
        NodeContainer chips;
        chips.Create(8);
        std::vector<Ptr<CellFabricAdapter>> a = helper.Install(chips, m_links);
        creditsPerPort = helper.GetCreditsPerPort();
        Time delivered;
        a[7]->SetDeliveredCallback(FabricEndpoint::MessageCallback(
            [&delivered](const FabricMessage& m) { delivered = m.delivered; }));
        Simulator::Schedule(NanoSeconds(1), [&a]() { a[0]->Send(7, 1 << 20, 0); });
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(helper.GetPlanes().size(), m_links * (2 + 4), "2 + 4 a plane");
        NS_TEST_EXPECT_MSG_EQ(a[7]->GetBytesDelivered(), 1 << 20, "1 MiB delivered");
        NS_TEST_EXPECT_MSG_EQ(FabricDrops(helper, a), 0, "no drop");
        uint64_t upBytes = 0;
        for (const Ptr<FabricSwitch>& sw : helper.GetPlanes())
        {
            for (uint32_t i = 0; i < sw->GetNPorts(); ++i)
            {
                upBytes += sw->GetPort(i)->GetStats().txControlUnits;
            }
        }
        NS_TEST_EXPECT_MSG_EQ(upBytes, 0, "credits ride in cell headers: no credit frame");
        if (credits)
        {
            std::string where;
            NS_TEST_EXPECT_MSG_EQ(CreditsAllBack(helper, where), true, where);
        }
        Simulator::Destroy();
        return delivered - NanoSeconds(1);
    }

    void DoRun() override
    {
        uint32_t creditsOn = 0;
        uint32_t creditsOff = 0;
        const Time on = RunOnce(true, creditsOn);
        const Time off = RunOnce(false, creditsOff);
        const double byteTime = 8 / 106.25e9;
        const double cycle = 1 / 1.33e9;
        const double d = 240e-9 + 4 * 50e-9 + 3 * 400e-9 + 112 * byteTime + 240e-9;
        const double path = 240e-9 + 4 * 50e-9 + 3 * 400e-9 + 240e-9;
        const double links = (1145056.0 + 66 * 112) * byteTime / m_links;
        const double expected = 3 * d + 182 * cycle + path + links;
        std::cout << "two stages, 1 MiB over " << m_links << " link(s): credits per port "
                  << creditsOn << "; delivery with credits " << on.GetSeconds() * 1e6
                  << " us, without " << off.GetSeconds() * 1e6 << " us, closed form "
                  << expected * 1e6 << " us" << std::endl;
        NS_TEST_ASSERT_MSG_EQ(creditsOn, (m_links == 2 ? 106U : 194U), "round trip and unit");
        NS_TEST_ASSERT_MSG_EQ(creditsOff, 0, "no credits");
        NS_TEST_ASSERT_MSG_EQ_TOL(on.GetSeconds(), off.GetSeconds(), 1e-12, "no throttling");
        NS_TEST_ASSERT_MSG_EQ_TOL(on.GetSeconds(), expected, 0.02 * expected, "closed form");
        if (m_links == 1)
        {
            uint32_t few = 0;
            const Time slow = RunOnce(true, few, 151);
            std::cout << "  with 151 credits per port: " << slow.GetSeconds() * 1e6 << " us"
                      << std::endl;
            NS_TEST_ASSERT_MSG_EQ(few, 151, "151 credits set");
            NS_TEST_ASSERT_MSG_GT(slow, off, "too few credits for a 91-cell unit into an adapter");
        }
    }

    uint32_t m_links; //!< links per chip
};

/**
 * \ingroup cell-fabric
 * The adapter's attributes reach its parts. CellFabricAdapter keeps the attributes of its Tx
 * pipeline, Rx pipeline, RDMA job manager and datagram service in their configurations: the
 * TypeId ns3::CellFabricAdapter still declares all 45 of them by their names, a value set by
 * Config::SetDefault, by the helper or by SetAttribute is read back by GetAttribute and by the
 * adapter's getters, and every attribute reads back its default on a fresh adapter.
 */
class AttributeTestCase : public TestCase
{
  public:
    AttributeTestCase()
        : TestCase("Adapter attributes: 45 on ns3::CellFabricAdapter, kept in its parts")
    {
    }

  private:
    void DoRun() override
    {
        const TypeId tid = CellFabricAdapter::GetTypeId();
        // the adapter's attributes by name, as before its parts kept them
        std::istringstream list(
            "Clusters DestinationClusters ClockGhz PageSizeWords DefaultOq DefaultPriority "
            "DefaultOccupancyProfile EndpointTransport FoPipes FoBytesPerCycle TxBufBytes "
            "CellHeaderBytes ControlCellBytes TxLatency Granularity MaxOutstandingPages "
            "OccupancyProfiles QPages ClusterQPages HighGroupPages LowGroupPages RxCbufCells "
            "MaxOutstandingGrants GrantPolicy RxLatency RxOqHighPriority RxDmaBytesPerCycle "
            "RxDmaTrackingIds RxDmaCommitCycles RdmaJobPosting TxCtsTimeout TxActiveTimeout "
            "TxAckTimeout RxDataTimeout RxCompletionTimeout InjectDropJob InjectDropPage "
            "InjectDropMode InjectDropAttempts DatagramTxRingSize DatagramTxReorderIds "
            "DatagramRxRingSize DatagramRxBufferBytes DatagramRxRepostTime "
            "DatagramRxRepostLimit");
        const std::vector<std::string> names{std::istream_iterator<std::string>(list),
                                             std::istream_iterator<std::string>()};
        NS_TEST_ASSERT_MSG_EQ(tid.GetAttributeN(), names.size(), "the adapter's attributes");
        Ptr<CellFabricAdapter> fresh = CreateObject<CellFabricAdapter>();
        for (const std::string& name : names)
        {
            TypeId::AttributeInformation info;
            NS_TEST_ASSERT_MSG_EQ(tid.LookupAttributeByName(name, &info), true, name);
            // a fresh adapter reads back every default through its accessor
            Ptr<AttributeValue> value = info.checker->Create();
            NS_TEST_ASSERT_MSG_EQ(info.accessor->Get(PeekPointer(fresh), *value), true, name);
            NS_TEST_ASSERT_MSG_EQ(value->SerializeToString(info.checker),
                                  info.initialValue->SerializeToString(info.checker),
                                  name << " default");
        }

        // Config::SetDefault reaches an attribute kept in the Tx pipeline
        Config::SetDefault("ns3::CellFabricAdapter::TxLatency", TimeValue(NanoSeconds(300)));
        Ptr<CellFabricAdapter> a = CreateObject<CellFabricAdapter>();
        Config::SetDefault("ns3::CellFabricAdapter::TxLatency", TimeValue(NanoSeconds(240)));
        NS_TEST_ASSERT_MSG_EQ(a->GetTxLatency(), NanoSeconds(300), "SetDefault TxLatency");
        // SetAttribute and GetAttribute, one attribute of each part
        a->SetAttribute("FoPipes", UintegerValue(2));
        a->SetAttribute("RxLatency", TimeValue(NanoSeconds(123)));
        a->SetAttribute("GrantPolicy", StringValue("Fifo"));
        a->SetAttribute("MaxOutstandingGrants", UintegerValue(7));
        a->SetAttribute("RxCbufCells", UintegerValue(1000));
        a->SetAttribute("CellHeaderBytes", UintegerValue(8));
        a->SetAttribute("TxAckTimeout", TimeValue(MicroSeconds(5)));
        a->SetAttribute("RdmaJobPosting", StringValue("Explicit"));
        a->SetAttribute("DatagramRxRingSize", UintegerValue(9));
        UintegerValue pipes;
        a->GetAttribute("FoPipes", pipes);
        NS_TEST_ASSERT_MSG_EQ(pipes.Get(), 2, "FoPipes");
        EnumValue policy;
        a->GetAttribute("GrantPolicy", policy);
        NS_TEST_ASSERT_MSG_EQ(policy.Get(), CellFabricAdapter::FIFO, "GrantPolicy");
        TimeValue ack;
        a->GetAttribute("TxAckTimeout", ack);
        NS_TEST_ASSERT_MSG_EQ(ack.Get(), MicroSeconds(5), "TxAckTimeout");
        EnumValue posting;
        a->GetAttribute("RdmaJobPosting", posting);
        NS_TEST_ASSERT_MSG_EQ(posting.Get(), CellFabricAdapter::RX_POSTING_EXPLICIT, "posting");
        UintegerValue ring;
        a->GetAttribute("DatagramRxRingSize", ring);
        NS_TEST_ASSERT_MSG_EQ(ring.Get(), 9, "DatagramRxRingSize");
        NS_TEST_ASSERT_MSG_EQ(a->GetRxLatency(), NanoSeconds(123), "RxLatency");
        NS_TEST_ASSERT_MSG_EQ(a->GetMaxOutstandingGrants(), 7, "MaxOutstandingGrants");
        NS_TEST_ASSERT_MSG_EQ(a->GetRxCbufCells(), 1000, "RxCbufCells");
        NS_TEST_ASSERT_MSG_EQ(a->GetCellHeaderBytes(), 8, "CellHeaderBytes");
        // the helper's adapter attributes
        CellFabricHelper helper;
        helper.SetAdapterAttribute("RxDmaBytesPerCycle", UintegerValue(64));
        NodeContainer chips;
        chips.Create(2);
        std::vector<Ptr<CellFabricAdapter>> two = helper.Install(chips, 2);
        NS_TEST_ASSERT_MSG_EQ_TOL(two[0]->GetRxDmaBytesPerSecond(),
                                  64 * 1.33e9,
                                  1,
                                  "RxDmaBytesPerCycle through the helper");
        Simulator::Destroy();
    }
};

/**
 * \ingroup cell-fabric
 * The cell-fabric test suite.
 */
class CellFabricTestSuite : public PicosecondTestSuite
{
  public:
    CellFabricTestSuite()
        : PicosecondTestSuite("cell-fabric", UNIT)
    {
        AddTestCase(new CellificationTestCase, TestCase::QUICK);
        AddTestCase(new RdmaJobTimeTestCase, TestCase::QUICK);
        AddTestCase(new LosslessIncastTestCase, TestCase::QUICK);
        AddTestCase(new RxDmaLimitTestCase(1), TestCase::QUICK);
        AddTestCase(new RxDmaLimitTestCase(4), TestCase::QUICK);
        AddTestCase(new GranularityTestCase, TestCase::QUICK);
        AddTestCase(new TwoStageIncastTestCase, TestCase::QUICK);
        AddTestCase(new JobRetryTestCase, TestCase::QUICK);
        AddTestCase(new JobTimerTestCase, TestCase::QUICK);
        AddTestCase(new CreditIncastTestCase(false), TestCase::QUICK);
        AddTestCase(new CreditIncastTestCase(true), TestCase::QUICK);
        AddTestCase(new TwoStageCreditsTestCase(2), TestCase::QUICK);
        AddTestCase(new TwoStageCreditsTestCase(1), TestCase::QUICK);
        // the Tx pipeline structures (cell-fabric-tx-pipeline-test.cc)
        for (TestCase* t : MakeCellFabricTxPipelineTests())
        {
            AddTestCase(t, TestCase::QUICK);
        }
        AddTestCase(new DatagramTestCase, TestCase::QUICK);
        AddTestCase(new TrackingIdTestCase, TestCase::QUICK);
        // the Rx OQM (cell-fabric-rx-oq-test.cc)
        for (TestCase* t : MakeCellFabricRxOqTests())
        {
            AddTestCase(t, TestCase::QUICK);
        }
        AddTestCase(new AttributeTestCase, TestCase::QUICK);
    }
};

/// The one instance.
CellFabricTestSuite g_cellFabricTestSuite;

} // namespace
