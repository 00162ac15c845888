/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cell-fabric-rx-pipeline.h"

#include "cell-fabric-cellifier.h"
#include "cell-fabric-config-accessor.h"
#include "cell-fabric-datagram-service.h"
#include "cell-fabric-rdma-job-manager.h"
#include "cell-fabric-tx-pipeline.h"

#include "ns3/abort.h"
#include "ns3/enum.h"
#include "ns3/fabric-clock.h"
#include "ns3/fabric-invariant-check.h"
#include "ns3/fabric-net-device.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CellFabricRxPipeline");

namespace
{

/// OQs per cluster at the Rx OQM (10.8.5), VOQ[1:0] (10.2).
constexpr uint32_t RX_OQS = CellFabricVoqTable::OQS_PER_VPFE;

/**
 * \param src source chip
 * \param job job id at the source
 * \param page page sequence number
 * \return a key for a page being reassembled
 */
uint64_t
PageKey(uint32_t src, uint64_t job, uint32_t page)
{
    return (static_cast<uint64_t>(src) << 44) ^ ((job & 0xFFFFFFFFULL) << 12) ^ page;
}

/**
 * \tparam V the attribute's value class
 * \tparam F the field's type
 * \param field a field of the Rx pipeline's Config
 * \return the accessor of the CellFabricAdapter attribute kept there
 */
template <typename V, typename F>
Ptr<const AttributeAccessor>
ConfigAccessor(F CellFabricRxPipeline::Config::*field)
{
    return MakeCellFabricConfigAccessor<V, CellFabricRxPipeline>(field);
}

} // namespace

TypeId
CellFabricRxPipeline::AddAttributes(TypeId tid)
{
    return tid
        .AddAttribute("RxCbufCells",
                      "Rx CBUF data cells shared by all clusters (10.8.3: 24K cells).",
                      UintegerValue(24576),
                      ConfigAccessor<UintegerValue>(&Config::rxCbufCells),
                      MakeUintegerChecker<uint32_t>(CellFabricCellifier::GetCells(
                          CellFabricCellifier::MAX_PAGE_PAYLOAD_BYTES +
                          CellFabricCellifier::PAGE_HEADER_BYTES)))
        .AddAttribute("MaxOutstandingGrants",
                      "Grants issued and not yet committed by RxDMA, per destination "
                      "cluster (the spec gives none; an assumption). 0: the "
                      "scheduler grants nothing (a receiver that never grants: a fault the "
                      "watchdog tests inject; scenarios ask for at least 1).",
                      UintegerValue(4096),
                      ConfigAccessor<UintegerValue>(&Config::maxOutstandingGrants),
                      MakeUintegerChecker<uint32_t>())
        .AddAttribute("GrantPolicy",
                      "Grant scheduler policy (the spec gives none: 10.1 and 10.8[8] say "
                      "only that freed Rx CBUF cells pace the grants). Every "
                      "policy grants a page only when the Rx CBUF has its cells free. "
                      "PacedRoundRobin: one request FIFO per source, sources served round "
                      "robin (clusters too), one grant at a time no faster than the "
                      "receiver drains its CBUF (the page's cells with a request cell at "
                      "the rate of all its links; its data at its cluster's RxDMA rate), so "
                      "sources whose requests come first cannot take the whole free CBUF. "
                      "FifoRoundRobin: the same round robin, granting every page whose "
                      "cells are free at once. Fifo: arrival order, at once.",
                      EnumValue(CellFabricAdapter::PACED_ROUND_ROBIN),
                      ConfigAccessor<EnumValue>(&Config::grantPolicy),
                      MakeEnumChecker(CellFabricAdapter::PACED_ROUND_ROBIN,
                                      "PacedRoundRobin",
                                      CellFabricAdapter::FIFO_ROUND_ROBIN,
                                      "FifoRoundRobin",
                                      CellFabricAdapter::FIFO,
                                      "Fifo"))
        .AddAttribute("RxLatency",
                      "Receive pipeline latency from the last cell of a page or a control "
                      "cell to its handling (not in the spec; see TxLatency).",
                      TimeValue(NanoSeconds(240)),
                      ConfigAccessor<TimeValue>(&Config::rxLatency),
                      MakeTimeChecker())
        .AddAttribute("RxOqHighPriority",
                      "High-priority OQs of the Rx OQM, one bit per OQ (10.8.5: a simple "
                      "priority + round-robin scheduler over the 4 OQs of a cluster; the "
                      "spec does not say which are high). RxDMA takes the head page of a "
                      "high OQ while one holds a page (strict priority), round robin among "
                      "OQs of the same priority. Default 5: OQs 0 and 2, the high classes "
                      "of RDMA and datagram in the model's OQ assignment (see DefaultOq).",
                      UintegerValue(5),
                      ConfigAccessor<UintegerValue>(&Config::rxOqHighMask),
                      MakeUintegerChecker<uint32_t>(0, 15))
        .AddAttribute("RxDmaBytesPerCycle",
                      "RxDMA width per cluster in bytes per cycle (section 9: 128 B, 170 GB/s "
                      "at 1.33 GHz).",
                      UintegerValue(128),
                      ConfigAccessor<UintegerValue>(&Config::rxDmaBytesPerCycle),
                      MakeUintegerChecker<uint32_t>(1))
        .AddAttribute("RxDmaTrackingIds",
                      "Write-completion tracking IDs per cluster RxDMA (10.8.8, 11.7.2: "
                      "16): a page is written only with a free one, held until its writes "
                      "are committed; with none free RxDMA stalls.",
                      UintegerValue(16),
                      ConfigAccessor<UintegerValue>(&Config::trackingIds),
                      MakeUintegerChecker<uint32_t>(1))
        .AddAttribute("RxDmaCommitCycles",
                      "AMEM write-completion latency in cycles, from a page's last write to "
                      "its commit (11.7.2: about 100 cycles).",
                      UintegerValue(100),
                      ConfigAccessor<UintegerValue>(&Config::commitCycles),
                      MakeUintegerChecker<uint32_t>());
}

CellFabricRxPipeline::CellFabricRxPipeline(CellFabricAdapter& adapter)
    : m_adapter(adapter),
      m_stats(adapter.m_stats)
{
}

CellFabricRxPipeline::~CellFabricRxPipeline() = default;

CellFabricRxPipeline::Config&
CellFabricRxPipeline::GetConfigOf(const CellFabricAdapter& adapter)
{
    return adapter.m_rx->m_config;
}

void
CellFabricRxPipeline::Setup()
{
    const uint32_t clusters = m_adapter.m_clusters;
    m_freeCells = m_config.rxCbufCells;
    m_stats.minFreeCells = m_config.rxCbufCells;
    m_grants.resize(clusters);
    m_grantsOut.assign(clusters, 0);
    m_rxOq.assign(clusters, {});
    m_rxOqNext.assign(clusters, {0, 0});
    m_rxDmaBusy.assign(clusters, false);
    m_trackFree.assign(clusters, std::vector<Time>(m_config.trackingIds, Time(0)));
    m_clusterGrantNext.assign(clusters, Time(0));
    m_linkBytesPerSecond = m_adapter.m_tx->GetLinkBytesPerSecond();
}

void
CellFabricRxPipeline::Dispose()
{
    m_rxOrder.clear();
    m_rxOq.clear();
    m_grantAdmission.clear();
}

void
CellFabricRxPipeline::Receive(const Ptr<FabricNetDevice>& dev, const Ptr<FabricPacket>& p)
{
    NS_LOG_FUNCTION(this << dev << p);
    if (p->ctrlClass != CellFabricAdapter::DATA_CELLS)
    {
        Simulator::Schedule(m_config.rxLatency, &CellFabricRxPipeline::HandleControl, this, p);
        return;
    }
    ReceiveCells(p);
}

void
CellFabricRxPipeline::ReceiveCells(const Ptr<FabricPacket>& p)
{
    const uint32_t nCells = static_cast<uint32_t>(p->ctrlValue2 & 0xFFFFFFFFULL);
    const uint32_t expected = static_cast<uint32_t>(p->ctrlValue2 >> 32);
    m_stats.cellsReceived += nCells;
    // Reorder and reassembly (10.8[3-4]): the page is complete when all its cells are here, in
    // whatever order and on whatever links they came.
    const uint32_t page = static_cast<uint32_t>(p->ctrlValue & 0xFFFFFFFFULL);
    const uint8_t flags = static_cast<uint8_t>(p->ctrlValue >> 32);
    const uint8_t epoch = flags & CellFabricTxPipeline::PAGE_EPOCH;
    const uint64_t key = PageKey(p->src, p->msgId, page) ^ (static_cast<uint64_t>(epoch) << 43);
    RxPage& rp = m_rxPages[key];
    rp.expected = expected;
    rp.cells += nCells;
    if (rp.cells < rp.expected)
    {
        return;
    }
    const uint32_t pageCells = rp.expected;
    m_rxPages.erase(key);
    if (flags & CellFabricTxPipeline::PAGE_DATAGRAM)
    {
        // a datagram page: no job, no order among pages; on to its cluster's RxDMA
        RxDmaPage pg = MakeRxDmaPage(p, page, pageCells);
        pg.datagram = true;
        pg.rxq = (flags & CellFabricTxPipeline::PAGE_RXQ) ? 1 : 0;
        Simulator::Schedule(m_config.rxLatency, &CellFabricRxPipeline::EnqueueRxDma, this, pg);
        return;
    }
    Reorder(p, page, epoch, pageCells);
}

void
CellFabricRxPipeline::Reorder(const Ptr<FabricPacket>& p,
                              uint32_t page,
                              uint8_t epoch,
                              uint32_t pageCells)
{
    // Data Reorder (10.8[3]): the cells of a chip pair are handed on in the order they were
    // sent, and a VOQ sends its pages in order, so the pages of one job attempt reach RxDMA in
    // sequence order. The model keeps that order per job attempt (source, job, epoch): a page
    // complete before an earlier one of its attempt waits for it.
    RxOrder& order = m_rxOrder[{p->src, p->msgId, epoch}];
    if (page != order.next)
    {
        order.waiting.emplace(page, std::make_pair(p, pageCells));
        ++m_stats.pagesReordered;
        return;
    }
    ++order.next;
    OnPageInOrder(p, pageCells);
    while (!order.waiting.empty() && order.waiting.begin()->first == order.next)
    {
        const auto next = order.waiting.begin()->second;
        order.waiting.erase(order.waiting.begin());
        ++order.next;
        OnPageInOrder(next.first, next.second);
    }
}

void
CellFabricRxPipeline::OnPageInOrder(const Ptr<FabricPacket>& p, uint32_t pageCells)
{
    const uint32_t page = static_cast<uint32_t>(p->ctrlValue & 0xFFFFFFFFULL);
    const uint8_t epoch = static_cast<uint8_t>((p->ctrlValue >> 32) & 1);
    const bool retryBit = (p->ctrlValue >> 33) & 1;
    bool crcError = false;
    const char* drop = m_adapter.m_jobs->AdmitPage(p, page, epoch, retryBit, crcError);
    RxDmaPage pg = MakeRxDmaPage(p, page, pageCells);
    if (drop)
    {
        // dropped before RxDMA: it was granted here, so its cells are freed
        m_adapter.Drop(p, drop);
        ReleasePage(pg.cluster, pageCells);
        return;
    }
    pg.epoch = epoch;
    pg.crcError = crcError; // header CRC error, found at decapsulation (10.8.7)
    Simulator::Schedule(m_config.rxLatency, &CellFabricRxPipeline::EnqueueRxDma, this, pg);
}

CellFabricRxPipeline::RxDmaPage
CellFabricRxPipeline::MakeRxDmaPage(const Ptr<FabricPacket>& p, uint32_t page, uint32_t pageCells)
{
    RxDmaPage pg;
    pg.unit = p;
    pg.src = p->src;
    pg.job = p->msgId;
    pg.page = page;
    pg.bytes = static_cast<uint32_t>(p->offset); // the page's data bytes
    pg.cells = pageCells;
    // The Juniper cell's OQ names the page's cluster (10.8[4]) and its OQ there (10.8[5]); an Rx
    // job of the page has the same cluster, as its job id names it.
    pg.cluster = static_cast<uint32_t>(p->psn);
    pg.oq = static_cast<uint32_t>(p->psn >> 32);
    return pg;
}

void
CellFabricRxPipeline::HandleControl(Ptr<FabricPacket> p)
{
    NS_LOG_FUNCTION(this << p);
    switch (p->ctrlClass)
    {
    case CellFabricAdapter::REQUEST: {
        Request r;
        r.src = p->src;
        r.job = p->msgId;
        r.page = static_cast<uint32_t>(p->ctrlValue & 0xFFFFFFFFULL);
        r.epoch = static_cast<uint8_t>(p->ctrlValue >> 32);
        r.cells = p->ctrlValue2 & 0xFFFF;
        r.bytes = static_cast<uint32_t>(p->ctrlValue2 >> 32);
        OnRequest(r, static_cast<uint32_t>((p->ctrlValue2 >> 16) & 0xFFFF));
        break;
    }
    case CellFabricAdapter::GRANT:
        m_adapter.m_tx->OnGrant(p->msgId,
                                static_cast<uint32_t>(p->ctrlValue & 0xFFFFFFFFULL),
                                static_cast<uint8_t>(p->ctrlValue >> 32),
                                p->src,
                                p->ctrlValue2);
        break;
    case CellFabricAdapter::CTS:
        // messages go to the Tx Job Manager (10.8.8)
        m_adapter.m_jobs->OnCts(p->src, p->msgId);
        break;
    case CellFabricAdapter::ACK:
        m_adapter.m_jobs->OnAck(p->msgId);
        break;
    case CellFabricAdapter::NACK:
        m_adapter.m_jobs->OnNack(p->msgId);
        break;
    default:
        NS_ABORT_MSG("CellFabricAdapter: unexpected unit type " << uint32_t(p->ctrlClass));
    }
}

void
CellFabricRxPipeline::OnRequest(const Request& r, uint32_t cluster)
{
    NS_LOG_FUNCTION(this << r.src << r.job << r.page << cluster);
    uint32_t pages = 0;
    if ((r.epoch & CellFabricTxPipeline::PAGE_DATAGRAM) ||
        !m_adapter.m_jobs->GetRxJobPages(r.src, r.job, pages))
    {
        // A datagram is one page: nothing to keep in order. A retired job's request: its page
        // is dropped here anyway.
        QueueRequest(r, cluster);
        RunGrantScheduler(cluster);
        return;
    }
    // A Juniper grant is for a VOQ and a page size, and sends the VOQ's head page (10.1): the
    // pages of a job attempt are granted in order. The model's grants name pages, so the
    // requests of a job attempt join the scheduler under page numbers in order: a request that
    // overtook an earlier one on another link stands for the earliest page not yet requested
    // here (the same size: every page but the last is PageSizeWords), and the last page, which
    // is smaller, waits for the others. Otherwise a later page could hold Rx CBUF cells at the
    // Data Reorder while an earlier one waited for a grant.
    const auto key = std::make_tuple(r.src, r.job, r.epoch);
    GrantAdmission& ga = m_grantAdmission[key];
    const uint32_t last = pages - 1;
    if (r.page == last && ga.next != last)
    {
        ga.hasLast = true;
        ga.last = r;
        ga.lastCluster = cluster;
        ++m_stats.requestsReordered;
        return;
    }
    Request q = r;
    if (q.page != ga.next)
    {
        q.page = ga.next;
        ++m_stats.requestsReordered;
    }
    ++ga.next;
    QueueRequest(q, cluster);
    if (ga.hasLast && ga.next == last)
    {
        ++ga.next;
        QueueRequest(ga.last, ga.lastCluster);
    }
    if (ga.next > last)
    {
        m_grantAdmission.erase(key); // the attempt's last request is in
    }
    RunGrantScheduler(cluster);
}

void
CellFabricRxPipeline::QueueRequest(const Request& r, uint32_t cluster)
{
    GrantQueue& g = m_grants.at(cluster);
    if (m_config.grantPolicy == CellFabricAdapter::FIFO)
    {
        g.fifo.push_back(r);
    }
    else
    {
        g.bySource[r.src].push_back(r);
    }
    ++g.waiting;
}

std::map<uint32_t, std::deque<CellFabricRxPipeline::Request>>::iterator
CellFabricRxPipeline::NextSource(GrantQueue& g)
{
    // round robin over sources: the first from the one after the last served
    auto it = g.bySource.lower_bound(g.rrNext);
    return it == g.bySource.end() ? g.bySource.begin() : it;
}

void
CellFabricRxPipeline::RunGrantScheduler(uint32_t cluster)
{
    NS_LOG_FUNCTION(this << cluster);
    if (m_config.grantPolicy == CellFabricAdapter::PACED_ROUND_ROBIN)
    {
        RunPacedGrants();
        return;
    }
    GrantQueue& g = m_grants[cluster];
    while (g.waiting > 0)
    {
        std::deque<Request>* q = nullptr;
        if (m_config.grantPolicy == CellFabricAdapter::FIFO)
        {
            q = &g.fifo;
        }
        else
        {
            q = &NextSource(g)->second;
        }
        const Request r = q->front();
        // Grants are paced by free Rx CBUF cells (10.8[8]): a page is granted only when its
        // cells are free, and they stay reserved until RxDMA has read the page.
        if (r.cells > m_freeCells || m_grantsOut[cluster] >= m_config.maxOutstandingGrants)
        {
            ++m_stats.grantsDeferred;
            return;
        }
        q->pop_front();
        --g.waiting;
        if (m_config.grantPolicy != CellFabricAdapter::FIFO)
        {
            g.rrNext = r.src + 1;
            if (q->empty())
            {
                g.bySource.erase(r.src);
            }
        }
        m_freeCells -= r.cells;
        m_stats.minFreeCells = std::min(m_stats.minFreeCells, m_freeCells);
        ++m_grantsOut[cluster];
        if (FabricInvariantCheck::IsEnabled())
        {
            CheckRxCells(cluster, "a grant");
        }
        ++m_stats.pagesGranted;
        m_adapter.m_tx->SendControl(r.src,
                                    CellFabricAdapter::GRANT,
                                    r.job,
                                    r.page | (static_cast<uint64_t>(r.epoch) << 32),
                                    r.cells | (cluster << 16));
    }
}

void
CellFabricRxPipeline::RunPacedGrants()
{
    NS_LOG_FUNCTION(this);
    // Grants paced at the rate the receiver drains its CBUF (an assumption where the spec is
    // silent: 10.8[8] says only that freed cells pace the grants): after a page is granted, the
    // next grant waits until the receiver's links have had time to bring the page's cells and
    // its request cell, and a cluster's next grant until its RxDMA has had time to write the
    // page's data. Sources are served round robin (one FIFO of requests per source), clusters
    // too, one grant at a time, so every source with requests gets an equal share of pages
    // whatever the order its requests came in. Free CBUF cells are still required and reserved
    // (lossless).
    const Time now = FabricClock::Now();
    const uint32_t clusters = m_adapter.m_clusters;
    const CellFabricTxPipeline::Config& tx = m_adapter.m_tx->GetConfig();
    while (true)
    {
        if (m_chipGrantNext > now)
        {
            WakeGrantsAt(m_chipGrantNext);
            return;
        }
        Time wake = Time::Max();
        bool granted = false;
        for (uint32_t i = 0; i < clusters && !granted; ++i)
        {
            const uint32_t c = (m_grantRrCluster + i) % clusters;
            GrantQueue& g = m_grants[c];
            if (g.waiting == 0)
            {
                continue;
            }
            if (m_clusterGrantNext[c] > now)
            {
                wake = std::min(wake, m_clusterGrantNext[c]);
                continue;
            }
            auto it = NextSource(g);
            const Request r = it->second.front();
            if (r.cells > m_freeCells || m_grantsOut[c] >= m_config.maxOutstandingGrants)
            {
                ++m_stats.grantsDeferred; // a commit or a drop runs the scheduler again
                continue;
            }
            it->second.pop_front();
            if (it->second.empty())
            {
                g.bySource.erase(it);
            }
            --g.waiting;
            g.rrNext = r.src + 1;
            m_freeCells -= r.cells;
            m_stats.minFreeCells = std::min(m_stats.minFreeCells, m_freeCells);
            ++m_grantsOut[c];
            ++m_stats.pagesGranted;
            m_adapter.m_tx->SendControl(r.src,
                                        CellFabricAdapter::GRANT,
                                        r.job,
                                        r.page | (static_cast<uint64_t>(r.epoch) << 32),
                                        r.cells | (c << 16));
            // the page's cells (chunks plus a cell header each) and its request cell
            const double wire = CellFabricCellifier::GetCellBytes(
                                    r.bytes + CellFabricCellifier::PAGE_HEADER_BYTES) +
                                static_cast<double>(r.cells) * tx.cellHeaderBytes +
                                tx.controlCellBytes + tx.cellHeaderBytes;
            if (m_linkBytesPerSecond > 0)
            {
                m_chipGrantNext = now + PicoSeconds(static_cast<int64_t>(
                                            std::ceil(wire * 1e12 / m_linkBytesPerSecond)));
            }
            m_clusterGrantNext[c] = now + m_adapter.Cycles(r.bytes, m_config.rxDmaBytesPerCycle);
            m_grantRrCluster = (c + 1) % clusters;
            granted = true;
        }
        if (!granted)
        {
            if (wake != Time::Max())
            {
                WakeGrantsAt(wake);
            }
            return;
        }
    }
}

void
CellFabricRxPipeline::WakeGrantsAt(Time t)
{
    if (m_grantWake.IsRunning())
    {
        if (TimeStep(m_grantWake.GetTs()) <= t)
        {
            return;
        }
        Simulator::Remove(m_grantWake);
    }
    ++m_stats.grantPaceWaits;
    m_grantWake = Simulator::Schedule(t - FabricClock::Now(),
                                      &CellFabricRxPipeline::RunGrantScheduler,
                                      this,
                                      0);
}

void
CellFabricRxPipeline::ReleasePage(uint32_t cluster, uint32_t cells)
{
    FreeRxCells(cluster, cells);
    if (m_config.grantPolicy == CellFabricAdapter::PACED_ROUND_ROBIN)
    {
        RunPacedGrants(); // all clusters, in its own round robin
        return;
    }
    const uint32_t clusters = m_adapter.m_clusters;
    for (uint32_t c = 0; c < clusters; ++c)
    {
        RunGrantScheduler((cluster + 1 + c) % clusters);
    }
}

void
CellFabricRxPipeline::FreeRxCells(uint32_t cluster, uint32_t cells)
{
    NS_LOG_FUNCTION(this << cluster << cells);
    if (FabricInvariantCheck::IsEnabled())
    {
        // Before the update: a grant count of 0 would wrap.
        FabricInvariantCheck::Count();
        if (cluster >= m_grantsOut.size() || m_grantsOut[cluster] == 0 ||
            uint64_t(m_freeCells) + cells > m_config.rxCbufCells)
        {
            const int64_t grants =
                cluster < m_grantsOut.size() ? int64_t(m_grantsOut[cluster]) - 1 : -1;
            FabricInvariantCheck::Fail(
                FabricInvariantCheck::CREDITS,
                "acc" + std::to_string(m_adapter.GetAcceleratorId()) + " Rx CBUF",
                "free cells " + std::to_string(uint64_t(m_freeCells) + cells) + " of " +
                    std::to_string(m_config.rxCbufCells) + ", outstanding grants " +
                    std::to_string(grants) + " on cluster " + std::to_string(cluster) +
                    " after freeing a page of " + std::to_string(cells) +
                    " cells (freed twice, or never granted)");
        }
    }
    m_freeCells += cells;
    --m_grantsOut[cluster];
}

void
CellFabricRxPipeline::CheckRxCells(uint32_t cluster, const char* after) const
{
    FabricInvariantCheck::Count();
    if (m_freeCells > m_config.rxCbufCells || m_grantsOut[cluster] > m_config.maxOutstandingGrants)
    {
        FabricInvariantCheck::Fail(
            FabricInvariantCheck::CREDITS,
            "acc" + std::to_string(m_adapter.GetAcceleratorId()) + " Rx CBUF",
            "free cells " + std::to_string(m_freeCells) + " of " +
                std::to_string(m_config.rxCbufCells) + ", outstanding grants " +
                std::to_string(m_grantsOut[cluster]) + " of " +
                std::to_string(m_config.maxOutstandingGrants) + " on cluster " +
                std::to_string(cluster) + " after " + after);
    }
}

void
CellFabricRxPipeline::EndReorder(uint32_t src, uint64_t job, uint8_t epoch)
{
    m_rxOrder.erase({src, job, epoch});
}

uint64_t
CellFabricRxPipeline::GetOutstandingGrants() const
{
    uint64_t n = 0;
    for (uint32_t g : m_grantsOut)
    {
        n += g;
    }
    return n;
}

std::vector<CellFabricAdapter::GrantQueueState>
CellFabricRxPipeline::GetGrantQueueStates() const
{
    std::vector<CellFabricAdapter::GrantQueueState> out;
    for (uint32_t c = 0; c < m_grants.size(); ++c)
    {
        out.push_back({c, m_grants[c].waiting, c < m_grantsOut.size() ? m_grantsOut[c] : 0});
    }
    return out;
}

void
CellFabricRxPipeline::EnqueueRxDma(RxDmaPage pg)
{
    NS_LOG_FUNCTION(this << pg.src << pg.job << pg.page);
    // Rx OQM (10.8.5): the complete page joins its OQ, a FIFO; the OQM presents one page at a
    // time to the cluster's Page Reader and RxDMA (10.8.6-8)
    const uint32_t c = pg.cluster;
    const uint32_t oq = pg.oq;
    m_rxOq[c][oq].push_back(std::move(pg));
    if (!m_rxDmaBusy[c])
    {
        RxDmaNext(c);
    }
}

uint32_t
CellFabricRxPipeline::PickOq(uint32_t c)
{
    // The Rx OQM's simple priority + round-robin scheduler (10.8.5): a high-priority OQ holding
    // a page first (strict priority), else a low one; among the OQs of that priority the first
    // holding a page from the one after the last served (round robin).
    for (uint32_t level = 2; level-- > 0;)
    {
        for (uint32_t k = 0; k < RX_OQS; ++k)
        {
            const uint32_t q = (m_rxOqNext[c][level] + k) % RX_OQS;
            if (((m_config.rxOqHighMask >> q) & 1) == level && !m_rxOq[c][q].empty())
            {
                m_rxOqNext[c][level] = (q + 1) % RX_OQS;
                return q;
            }
        }
    }
    return RX_OQS;
}

void
CellFabricRxPipeline::RxDmaNext(uint32_t c)
{
    const uint32_t pick = PickOq(c);
    if (pick == RX_OQS)
    {
        m_rxDmaBusy[c] = false;
        return;
    }
    m_rxDmaBusy[c] = true;
    const RxDmaPage pg = std::move(m_rxOq[c][pick].front());
    m_rxOq[c][pick].pop_front();
    // The page is validated before its write (10.8.8): a datagram against its RxQ, an RDMA page
    // by the Rx Job Manager; a dropped page's flits are discarded at the same 128 B per cycle,
    // its cells freed when read.
    const bool write =
        pg.datagram ? m_adapter.m_dg->TakeDescriptor(pg) : m_adapter.m_jobs->ValidatePage(pg);
    const Time now = FabricClock::Now();
    const Time w = m_adapter.Cycles(pg.bytes, m_config.rxDmaBytesPerCycle);
    Time start = now;
    if (write)
    {
        // a write-completion tracking ID (10.8.8, 11.7.2), held until the writes commit
        auto id = std::min_element(m_trackFree[c].begin(), m_trackFree[c].end());
        if (*id > now)
        {
            ++m_stats.trackingIdStalls; // none free: RxDMA stalls
            start = *id;
        }
        *id = start + w + m_adapter.Cycles(m_config.commitCycles, 1);
        if (pg.datagram)
        {
            Simulator::Schedule(*id - now,
                                &CellFabricDatagramService::OnCommitted,
                                m_adapter.m_dg.get(),
                                pg);
        }
        else
        {
            Simulator::Schedule(*id - now,
                                &CellFabricRdmaJobManager::OnPageCommitted,
                                m_adapter.m_jobs.get(),
                                pg.src,
                                pg.job,
                                pg.page,
                                pg.cells,
                                pg.epoch);
        }
    }
    Simulator::Schedule(start + w - now, &CellFabricRxPipeline::RxDmaReadDone, this, c, pg.cells);
}

void
CellFabricRxPipeline::RxDmaReadDone(uint32_t c, uint32_t cells)
{
    // CBUF cells are freed on read (10.8[8]); the grant scheduler learns of them
    ReleasePage(c, cells);
    RxDmaNext(c);
}

} // namespace ns3
