/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cell-fabric-tx-pipeline.h"

#include "cell-fabric-cellifier.h"
#include "cell-fabric-config-accessor.h"
#include "cell-fabric-datagram-service.h"
#include "cell-fabric-rdma-job-manager.h"
#include "cell-fabric-voq-table.h"

#include "ns3/abort.h"
#include "ns3/enum.h"
#include "ns3/fabric-channel.h"
#include "ns3/fabric-clock.h"
#include "ns3/fabric-net-device.h"
#include "ns3/fabric-output-queue.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CellFabricTxPipeline");

namespace
{

/// The VOQ key's source cluster starts at this bit (CellFabricTxPipeline::GetVoqKey).
constexpr uint32_t SRC_CLUSTER_SHIFT = 48;

/**
 * \param job job id at the source
 * \param page page sequence number
 * \param epoch the job's epoch bit of the page's request
 * \return the page's QPage handle
 */
uint64_t
QPageHandle(uint64_t job, uint32_t page, uint8_t epoch)
{
    return (job << 20) ^ (static_cast<uint64_t>(page) << 1) ^ (epoch & 1);
}

/**
 * \tparam V the attribute's value class
 * \tparam F the field's type
 * \param field a field of the Tx pipeline's Config
 * \return the accessor of the CellFabricAdapter attribute kept there
 */
template <typename V, typename F>
Ptr<const AttributeAccessor>
ConfigAccessor(F CellFabricTxPipeline::Config::*field)
{
    return MakeCellFabricConfigAccessor<V, CellFabricTxPipeline>(field);
}

} // namespace

TypeId
CellFabricTxPipeline::AddAttributes(TypeId tid)
{
    return tid
        .AddAttribute("FoPipes",
                      "FO pipes; pages are balanced over them page by page (10.7[5a]).",
                      UintegerValue(4),
                      ConfigAccessor<UintegerValue>(&Config::foPipes),
                      MakeUintegerChecker<uint32_t>(1))
        .AddAttribute("FoBytesPerCycle",
                      "FO pipe width in bytes of cells per cycle (10.7: 88 B, half a cell).",
                      UintegerValue(88),
                      ConfigAccessor<UintegerValue>(&Config::foBytesPerCycle),
                      MakeUintegerChecker<uint32_t>(1))
        .AddAttribute("TxBufBytes",
                      "TxBuf of one FO pipe in bytes (10.7[5b]: up to two maximum pages, "
                      "32 KB). A dequeued page takes its data's 128 B entries until its "
                      "last cell leaves the pipe; a page that finds no pipe with room "
                      "waits (10.7.7).",
                      UintegerValue(32768),
                      ConfigAccessor<UintegerValue>(&Config::txBufBytes),
                      MakeUintegerChecker<uint32_t>(CellFabricCellifier::MAX_PAGE_PAYLOAD_BYTES))
        .AddAttribute("CellHeaderBytes",
                      "Bytes of Juniper cell header per cell on a link (not given by the "
                      "spec, which gives the cells' payload only, 10.1; an assumption).",
                      UintegerValue(16),
                      ConfigAccessor<UintegerValue>(&Config::cellHeaderBytes),
                      MakeUintegerChecker<uint32_t>())
        .AddAttribute("ControlCellBytes",
                      "Bytes of a request, grant or message (CTS/ACK/NACK) cell before its "
                      "cell header: a 64 B message (10.7.9) padded to the minimum 96 B cell "
                      "(10.1; an assumption).",
                      UintegerValue(96),
                      ConfigAccessor<UintegerValue>(&Config::controlCellBytes),
                      MakeUintegerChecker<uint32_t>(64, 176))
        .AddAttribute("TxLatency",
                      "Transmit pipeline latency from a page leaving FO (or a control cell "
                      "being made) to its first cell on a link (not in the spec; with the "
                      "default fabric a control cell's round trip is about 2 us, 10.1).",
                      TimeValue(NanoSeconds(240)),
                      ConfigAccessor<TimeValue>(&Config::txLatency),
                      MakeTimeChecker())
        .AddAttribute(
            "Granularity",
            "Coarse: the cells of a page sent on one link travel as one unit with "
            "their exact count and bytes (DESIGN.md rule 3); Fine: one unit per "
            "cell, for tests that compare the two.",
            EnumValue(CellFabricAdapter::COARSE),
            ConfigAccessor<EnumValue>(&Config::granularity),
            MakeEnumChecker(CellFabricAdapter::COARSE, "Coarse", CellFabricAdapter::FINE, "Fine"))
        .AddAttribute("MaxOutstandingPages",
                      "Occupancy limiter: pages generated but not yet dequeued by FO, per "
                      "VOQ (10.7.3.1: about RTT x rate / page size).",
                      UintegerValue(64),
                      ConfigAccessor<UintegerValue>(&Config::maxOutstandingPages),
                      MakeUintegerChecker<uint32_t>(1))
        .AddAttribute("OccupancyProfiles",
                      "The 8 occupancy profiles of the limiter (10.7.3.1) as \"xoff:xon\" "
                      "in pages, comma separated, profile 0 first (at most 8; XON below "
                      "XOFF): a VOQ stops generating pages when XOFF of them are "
                      "outstanding and resumes when they have dropped to XON. Profiles not "
                      "given are {MaxOutstandingPages, MaxOutstandingPages - 1}: a plain "
                      "limit. The spec gives no values.",
                      StringValue(""),
                      ConfigAccessor<StringValue>(&Config::occupancyProfiles),
                      MakeStringChecker())
        .AddAttribute("QPages",
                      "QPage table entries of the chip, shared by its clusters: pages "
                      "generated and not yet dequeued by FO (10.7.6: about 1024).",
                      UintegerValue(1024),
                      ConfigAccessor<UintegerValue>(&Config::qpages),
                      MakeUintegerChecker<uint32_t>(1))
        .AddAttribute("ClusterQPages",
                      "Most QPages one source cluster may hold (10.7.3.1: configurable, no "
                      "value given; default the whole table).",
                      UintegerValue(1024),
                      ConfigAccessor<UintegerValue>(&Config::clusterQPages),
                      MakeUintegerChecker<uint32_t>(1))
        .AddAttribute("HighGroupPages",
                      "Limit of the pages of a source cluster's high-priority VOQs "
                      "(10.7.3.1 occupancy-tracking group; no value given; default the "
                      "whole table).",
                      UintegerValue(1024),
                      ConfigAccessor<UintegerValue>(&Config::highGroupPages),
                      MakeUintegerChecker<uint32_t>(1))
        .AddAttribute("LowGroupPages",
                      "Limit of the pages of a source cluster's low-priority VOQs "
                      "(10.7.3.1; no value given; default the whole table).",
                      UintegerValue(1024),
                      ConfigAccessor<UintegerValue>(&Config::lowGroupPages),
                      MakeUintegerChecker<uint32_t>(1));
}

CellFabricTxPipeline::CellFabricTxPipeline(CellFabricAdapter& adapter)
    : m_adapter(adapter),
      m_stats(adapter.m_stats)
{
}

CellFabricTxPipeline::~CellFabricTxPipeline() = default;

CellFabricTxPipeline::Config&
CellFabricTxPipeline::GetConfigOf(const CellFabricAdapter& adapter)
{
    return adapter.m_tx->m_config;
}

uint64_t
CellFabricTxPipeline::GetVoqKey(uint32_t dst, uint32_t cluster, uint32_t oq, uint32_t srcCluster)
{
    return ((static_cast<uint64_t>(dst) * 8 + cluster) * 4 + oq) |
           (static_cast<uint64_t>(srcCluster) << SRC_CLUSTER_SHIFT);
}

void
CellFabricTxPipeline::AddLink(Ptr<FabricNetDevice> device)
{
    // control cells (class 1) before data (class 0): requests and grants are high-priority
    // control cells and messages get preferential service (10.3.1.1-2)
    Ptr<FabricOutputQueue> q = CreateObject<FabricOutputQueue>();
    q->SetAttribute("ClassScheduling", EnumValue(FabricOutputQueue::STRICT_PRIORITY));
    device->SetTxQueue(q);
    device->SetPortIndex(m_ports.size());
    m_ports.push_back(device);
    m_queues.push_back(q);
}

double
CellFabricTxPipeline::GetLinkBytesPerSecond() const
{
    double bytesPerSecond = 0;
    for (const auto& port : m_ports)
    {
        if (Ptr<FabricChannel> ch = port->GetFabricChannel())
        {
            bytesPerSecond += ch->GetDataRate().GetBitRate() / 8.0;
        }
    }
    return bytesPerSecond;
}

void
CellFabricTxPipeline::Setup()
{
    m_foFree.assign(m_config.foPipes, Time(0));
    m_txBuf.assign(m_config.foPipes, {});
    m_txBufUsed.assign(m_config.foPipes, 0);
    m_limiter.Configure(m_config.qpages,
                        m_config.clusterQPages,
                        m_config.highGroupPages,
                        m_config.lowGroupPages,
                        m_config.maxOutstandingPages);
    ParseOccupancyProfiles();
}

void
CellFabricTxPipeline::ParseOccupancyProfiles()
{
    std::istringstream profiles(m_config.occupancyProfiles);
    std::string item;
    uint32_t i = 0;
    while (std::getline(profiles, item, ','))
    {
        uint32_t xoff = 0;
        uint32_t xon = 0;
        char colon = 0;
        std::istringstream one(item);
        NS_ABORT_MSG_UNLESS((one >> xoff >> colon >> xon) && colon == ':' && (one >> std::ws).eof(),
                            "CellFabricAdapter: OccupancyProfiles entry \""
                                << item << "\" is not xoff:xon");
        NS_ABORT_MSG_IF(i >= CellFabricOccupancyLimiter::PROFILES,
                        "CellFabricAdapter: OccupancyProfiles has more than 8 profiles");
        m_limiter.SetProfile(i++, xoff, xon);
    }
}

void
CellFabricTxPipeline::Dispose()
{
    m_ports.clear();
    m_queues.clear();
    m_jobs.clear();
}

CellFabricTxJob&
CellFabricTxPipeline::AddJob(CellFabricTxJob job)
{
    const uint64_t id = job.id;
    return m_jobs.emplace(id, std::move(job)).first->second;
}

CellFabricTxJob*
CellFabricTxPipeline::FindJob(uint64_t id)
{
    auto it = m_jobs.find(id);
    return it == m_jobs.end() ? nullptr : &it->second;
}

CellFabricTxJob&
CellFabricTxPipeline::GetJob(uint64_t id)
{
    return m_jobs.at(id);
}

void
CellFabricTxPipeline::EraseJob(uint64_t id)
{
    m_jobs.erase(id);
}

void
CellFabricTxPipeline::EraseFailedApiJobs(uint32_t cluster)
{
    for (auto it = m_jobs.begin(); it != m_jobs.end();)
    {
        const bool release =
            it->second.api && it->second.failed && it->second.srcCluster == cluster;
        it = release ? m_jobs.erase(it) : std::next(it);
    }
}

uint32_t
CellFabricTxPipeline::JoinVoq(uint64_t voq, uint64_t id)
{
    std::deque<uint64_t>& q = m_voqJobs[voq];
    q.push_back(id);
    return q.size();
}

void
CellFabricTxPipeline::ActivateNext(uint64_t voq)
{
    NS_LOG_FUNCTION(this << voq);
    auto it = m_voqJobs.find(voq);
    if (it == m_voqJobs.end() || it->second.empty())
    {
        return;
    }
    // VOQ-Active lock (10.7.1.1): only the head job of a VOQ generates pages.
    m_active.push_back(it->second.front());
    OnActivated(it->second.front());
    Generate();
}

void
CellFabricTxPipeline::OnActivated(uint64_t id)
{
    CellFabricTxJob& job = m_jobs.at(id);
    if (job.datagram)
    {
        job.state = CellFabricTxJob::ACTIVE; // no CTS, no timer (10.5)
        return;
    }
    m_adapter.m_jobs->OnVoqLockTaken(job);
}

bool
CellFabricTxPipeline::ReleaseVoqLock(uint64_t id, uint64_t voq)
{
    const auto active = std::find(m_active.begin(), m_active.end(), id);
    if (active == m_active.end())
    {
        return false;
    }
    m_active.erase(active);
    m_voqJobs[voq].pop_front();
    if (!m_active.empty())
    {
        m_activeRr %= m_active.size();
    }
    ActivateNext(voq);
    return true;
}

void
CellFabricTxPipeline::LeaveVoq(uint64_t voq, uint64_t id)
{
    std::deque<uint64_t>& q = m_voqJobs[voq];
    q.erase(std::remove(q.begin(), q.end(), id), q.end());
}

bool
CellFabricTxPipeline::IsActive(uint64_t id) const
{
    return std::find(m_active.begin(), m_active.end(), id) != m_active.end();
}

void
CellFabricTxPipeline::Generate()
{
    NS_LOG_FUNCTION(this);
    // Page Generator (10.7.3): one page per active job (channel) in turn while the occupancy
    // limiter allows (10.7.3.1: the VOQ's profile, the priority groups, the cluster's cap and a
    // free QPage). A cluster's low-priority channels wait while one of its high-priority
    // channels can generate (high/low priority, round robin within each).
    bool progress = true;
    bool poolWait = false;
    while (progress && !m_active.empty())
    {
        progress = false;
        std::vector<uint64_t> finished;
        const uint32_t n = m_active.size();
        auto ready = [this, &poolWait](const CellFabricTxJob& job) {
            if (!job.cts || job.nextRequest >= job.pages.size())
            {
                return false;
            }
            const auto block = m_limiter.Check(job.srcCluster, job.voq, job.profile, job.high);
            poolWait |= block == CellFabricOccupancyLimiter::POOL;
            return block == CellFabricOccupancyLimiter::NONE;
        };
        std::vector<bool> highReady(m_adapter.m_clusters, false);
        for (uint64_t id : m_active)
        {
            const CellFabricTxJob& job = m_jobs.at(id);
            if (job.high && ready(job))
            {
                highReady[job.srcCluster] = true;
            }
        }
        for (uint32_t i = 0; i < n; ++i)
        {
            const uint64_t id = m_active[(m_activeRr + i) % n];
            CellFabricTxJob& job = m_jobs.at(id);
            if ((!job.high && highReady[job.srcCluster]) || !ready(job))
            {
                continue;
            }
            const uint32_t page = job.nextRequest++;
            // a QPage for the page (10.7[3]), counted on its VOQ until FO dequeues it
            const uint32_t outstanding = m_limiter.Allocate(QPageHandle(id, page, job.epoch),
                                                            job.srcCluster,
                                                            job.voq,
                                                            job.profile,
                                                            job.high);
            ++m_stats.pagesRequested;
            m_adapter.m_pageGenTrace(id, page, outstanding);
            const uint32_t cells = CellFabricCellifier::GetCells(
                job.pages[page] + CellFabricCellifier::PAGE_HEADER_BYTES);
            // the request carries the job's epoch (bit 32; bit 34 marks a datagram), echoed by
            // its grant
            const uint64_t flags = job.epoch | (job.datagram ? PAGE_DATAGRAM : 0);
            SendControl(job.dst,
                        CellFabricAdapter::REQUEST,
                        id,
                        page | (flags << 32),
                        cells | (job.cluster << 16) |
                            (static_cast<uint64_t>(job.pages[page]) << 32));
            progress = true;
            if (job.nextRequest == job.pages.size())
            {
                finished.push_back(id);
            }
        }
        m_activeRr = n ? (m_activeRr + 1) % n : 0;
        for (uint64_t id : finished)
        {
            ReleaseFinished(id);
            progress = true;
        }
        if (!m_active.empty())
        {
            m_activeRr %= m_active.size();
        }
    }
    if (poolWait)
    {
        ++m_stats.qpageWaits;
    }
}

void
CellFabricTxPipeline::ReleaseFinished(uint64_t id)
{
    // the last page is enqueued: release the VOQ-Active lock
    const uint64_t voq = m_jobs.at(id).voq;
    m_active.erase(std::find(m_active.begin(), m_active.end(), id));
    m_voqJobs[voq].pop_front();
    if (!m_voqJobs[voq].empty())
    {
        m_active.push_back(m_voqJobs[voq].front());
        OnActivated(m_voqJobs[voq].front());
    }
}

void
CellFabricTxPipeline::SendControl(uint32_t dst,
                                  CellFabricAdapter::UnitType type,
                                  uint64_t job,
                                  uint64_t page,
                                  uint64_t cells)
{
    NS_LOG_FUNCTION(this << dst << static_cast<uint32_t>(type) << job << page);
    Ptr<FabricPacket> p = Create<FabricPacket>();
    p->src = m_adapter.GetAcceleratorId();
    p->dst = dst;
    p->tclass = 1; // control cells ahead of data at the adapter's links
    p->msgId = job;
    p->ctrlClass = type;
    p->ctrlValue = page;
    p->ctrlValue2 = cells;
    p->headerBytes = m_config.controlCellBytes + m_config.cellHeaderBytes;
    if (type == CellFabricAdapter::CTS || type == CellFabricAdapter::ACK ||
        type == CellFabricAdapter::NACK)
    {
        ++m_stats.messagesSent;
    }
    const uint32_t link = m_ctrlNext;
    m_ctrlNext = (m_ctrlNext + 1) % m_ports.size();
    Simulator::Schedule(m_config.txLatency, &CellFabricTxPipeline::EnqueueOnLink, this, link, p);
}

void
CellFabricTxPipeline::EnqueueOnLink(uint32_t link, const Ptr<FabricPacket>& p)
{
    // A two-stage fabric sprays over the middle stage by flow hash: every unit gets the next.
    p->flowHash = m_sprayHash++;
    m_queues[link]->Enqueue(p);
    m_ports[link]->Wake();
}

void
CellFabricTxPipeline::OnGrant(uint64_t jobId,
                              uint32_t page,
                              uint8_t epoch,
                              uint32_t from,
                              uint64_t info)
{
    NS_LOG_FUNCTION(this << jobId << page);
    auto jobIt = m_jobs.find(jobId);
    if (jobIt == m_jobs.end())
    {
        OnGrantForRetiredJob(jobId, page, epoch, from, info);
        return;
    }
    CellFabricTxJob& job = jobIt->second;
    GrantedPage g;
    g.job = jobId;
    g.page = page;
    g.epoch = epoch;
    g.dst = job.dst;
    g.cluster = job.cluster;
    g.bytes = job.pages.at(page);
    // the Retry bit of the page header (10.6), set on the pages of a retried job
    if (job.retried && epoch == job.epoch)
    {
        g.epoch |= PAGE_RETRY;
    }
    if (job.datagram)
    {
        g.epoch |= PAGE_DATAGRAM | (job.rxq ? PAGE_RXQ : 0); // page type and RxQ index (10.6)
    }
    if (m_foWait.empty() && Dequeue(g))
    {
        Generate();
        return;
    }
    // no FO pipe's TxBuf has room: the page transfer stalls (10.7.7), pages in grant order
    ++m_stats.txBufStalls;
    m_foWait.push_back(g);
    if (!m_foWake.IsRunning())
    {
        const Time next = GetNextTxBufRelease();
        NS_ASSERT(next != Time::Max() && next > FabricClock::Now());
        m_foWake = Simulator::Schedule(next - FabricClock::Now(),
                                       &CellFabricTxPipeline::DrainFoWait,
                                       this);
    }
}

void
CellFabricTxPipeline::OnGrantForRetiredJob(uint64_t jobId,
                                           uint32_t page,
                                           uint8_t epoch,
                                           uint32_t from,
                                           uint64_t info)
{
    // A grant for a job acknowledged meanwhile (its retry's requests were out when the first
    // attempt's ACK came): the page is still sent, as the hardware sends what its VOQ holds,
    // and the receiver drops it and frees the cells it reserved. Its size is not known any
    // more: the grant's cells, full (the same cell count).
    NS_LOG_LOGIC("grant for retired job " << jobId);
    const uint32_t grantedCells = static_cast<uint32_t>(info & 0xFFFF);
    const uint32_t cluster = static_cast<uint32_t>((info >> 16) & 0xFFFF);
    const bool freed = m_limiter.Free(QPageHandle(jobId, page, epoch));
    NS_ASSERT_MSG(freed, "grant for a page without a QPage");
    const uint32_t fullBytes =
        grantedCells * CellFabricCellifier::MAX_CELL_CHUNKS * CellFabricCellifier::CHUNK_BYTES -
        CellFabricCellifier::PAGE_HEADER_BYTES;
    Simulator::Schedule(m_config.txLatency,
                        &CellFabricTxPipeline::PageOut,
                        this,
                        jobId,
                        page,
                        from,
                        cluster,
                        fullBytes,
                        epoch);
    Generate();
}

bool
CellFabricTxPipeline::Dequeue(const GrantedPage& g)
{
    const Time now = FabricClock::Now();
    // the page's data in 128 B TxBuf entries (10.7.7-8)
    const uint32_t need = (g.bytes + 127) / 128 * 128;
    // FO pipes (10.7[5a]): the page goes to the pipe that frees first, at 88 B per cycle, among
    // those whose TxBuf has room for it; a page holds its space until its last cell is out.
    const uint32_t pipes = m_config.foPipes;
    uint32_t best = pipes;
    for (uint32_t i = 0; i < pipes; ++i)
    {
        auto& pages = m_txBuf[i];
        while (!pages.empty() && pages.front().first <= now)
        {
            m_txBufUsed[i] -= pages.front().second;
            pages.pop_front();
        }
        if (m_txBufUsed[i] + need <= m_config.txBufBytes &&
            (best == pipes || m_foFree[i] < m_foFree[best]))
        {
            best = i;
        }
    }
    if (best == pipes)
    {
        return false;
    }
    const uint32_t cellBytes =
        CellFabricCellifier::GetCellBytes(g.bytes + CellFabricCellifier::PAGE_HEADER_BYTES);
    const Time start = std::max(now, m_foFree[best]);
    m_foFree[best] = start + m_adapter.Cycles(cellBytes, m_config.foBytesPerCycle);
    m_txBuf[best].emplace_back(m_foFree[best], need);
    m_txBufUsed[best] += need;
    // The QPage is retired at FO dequeue (10.7.5-6): the occupancy limiter counts it no more.
    const bool freed = m_limiter.Free(QPageHandle(g.job, g.page, g.epoch));
    NS_ASSERT_MSG(freed, "dequeue of a page without a QPage");
    Simulator::Schedule(m_foFree[best] - now + m_config.txLatency,
                        &CellFabricTxPipeline::PageOut,
                        this,
                        g.job,
                        g.page,
                        g.dst,
                        g.cluster,
                        g.bytes,
                        g.epoch);
    return true;
}

Time
CellFabricTxPipeline::GetNextTxBufRelease() const
{
    Time next = Time::Max();
    for (const auto& pages : m_txBuf)
    {
        if (!pages.empty())
        {
            next = std::min(next, pages.front().first);
        }
    }
    return next;
}

void
CellFabricTxPipeline::DrainFoWait()
{
    NS_LOG_FUNCTION(this);
    bool any = false;
    while (!m_foWait.empty() && Dequeue(m_foWait.front()))
    {
        m_foWait.pop_front();
        any = true;
    }
    if (!m_foWait.empty())
    {
        m_foWake = Simulator::Schedule(GetNextTxBufRelease() - FabricClock::Now(),
                                       &CellFabricTxPipeline::DrainFoWait,
                                       this);
    }
    if (any)
    {
        Generate();
    }
}

void
CellFabricTxPipeline::PageOut(uint64_t job,
                              uint32_t page,
                              uint32_t dst,
                              uint32_t cluster,
                              uint32_t bytes,
                              uint8_t epoch)
{
    NS_LOG_FUNCTION(this << job << page);
    // Spray the page's cells round robin over the links; one unit per link carries its exact
    // cells and bytes (coarse granularity, DESIGN.md rule 3).
    const std::vector<uint32_t> cells = CellFabricCellifier::GetCellChunks(
        CellFabricCellifier::GetChunks(bytes + CellFabricCellifier::PAGE_HEADER_BYTES));
    const uint32_t links = m_ports.size();
    const uint32_t first = m_sprayNext;
    // The destination OQ (VOQ[1:0], 10.2) travels in the Juniper cells, not in the page header
    // (10.6 lists no OQ); the receiver's Rx OQM queues the page on it (10.8[5], 10.8.5). A
    // retired job's page (its grant came after the ACK) names OQ 0: the receiver drops it
    // before the OQM.
    const CellFabricTxJob* sent = FindJob(job);
    const uint32_t oq =
        sent ? static_cast<uint32_t>(sent->voq % CellFabricVoqTable::OQS_PER_VPFE) : 0;
    m_sprayNext = (m_sprayNext + cells.size()) % links;
    // Coarse: cell k goes to link (first + k) mod links and the cells of one link form one
    // unit. Fine: one unit per cell, on the same links in the same order.
    const uint32_t units = m_config.granularity == CellFabricAdapter::FINE
                               ? cells.size()
                               : std::min<uint32_t>(links, cells.size());
    std::vector<uint32_t> nCells(units, 0);
    std::vector<uint32_t> nBytes(units, 0);
    for (uint32_t k = 0; k < cells.size(); ++k)
    {
        nCells[k % units] += 1;
        nBytes[k % units] += cells[k] * CellFabricCellifier::CHUNK_BYTES;
    }
    for (uint32_t i = 0; i < units; ++i)
    {
        Ptr<FabricPacket> p = Create<FabricPacket>();
        p->src = m_adapter.GetAcceleratorId();
        p->dst = dst;
        p->tclass = 0;
        p->msgId = job;
        p->ctrlClass = CellFabricAdapter::DATA_CELLS;
        p->ctrlValue = page | (static_cast<uint64_t>(epoch) << 32); // epoch bit 32, retry 33
        p->ctrlValue2 = (static_cast<uint64_t>(cells.size()) << 32) | nCells[i];
        p->psn = cluster | (static_cast<uint64_t>(oq) << 32); // the Juniper cell's OQ
        p->offset = bytes;                                    // the page's data bytes
        p->payloadBytes = nBytes[i];
        p->headerBytes = nCells[i] * m_config.cellHeaderBytes;
        EnqueueOnLink((first + i) % links, p);
    }
    ++m_stats.pagesSent;
    m_stats.cellsSent += cells.size();
    m_stats.pageBytesSent += bytes + CellFabricCellifier::PAGE_HEADER_BYTES;
    m_adapter.m_pageTxTrace(m_adapter.GetAcceleratorId(), job, page, cells.size());
    CellFabricTxJob* out = FindJob(job);
    if (!out)
    {
        return;
    }
    if (out->datagram)
    {
        m_adapter.m_dg->OnPageSent(job); // its TxQ descriptor is done (10.7.1.4); no ACK
        return;
    }
    m_adapter.m_jobs->OnPageTransmitted(*out, epoch);
}

std::vector<CellFabricAdapter::VoqState>
CellFabricTxPipeline::GetVoqStates() const
{
    std::map<uint64_t, CellFabricAdapter::VoqState> voqs;
    auto at = [&voqs](uint64_t key) -> CellFabricAdapter::VoqState& {
        CellFabricAdapter::VoqState& v = voqs[key];
        const uint64_t low = key & ((1ULL << SRC_CLUSTER_SHIFT) - 1);
        v.dst = static_cast<uint32_t>(low / 32);
        v.cluster = static_cast<uint32_t>(low / 4 % 8);
        v.oq = static_cast<uint32_t>(low % 4);
        v.srcCluster = static_cast<uint32_t>(key >> SRC_CLUSTER_SHIFT);
        return v;
    };
    for (const auto& [key, jobs] : m_voqJobs)
    {
        if (!jobs.empty())
        {
            CellFabricAdapter::VoqState& v = at(key);
            v.jobs = jobs.size();
            const auto head = m_jobs.find(jobs.front());
            v.cts = head != m_jobs.end() && head->second.cts;
        }
    }
    for (const auto& [key, n] : m_limiter.GetVoqCounts())
    {
        at(key).outstanding = n;
    }
    std::vector<CellFabricAdapter::VoqState> out;
    for (const auto& [key, v] : voqs)
    {
        out.push_back(v);
    }
    return out;
}

Ptr<FabricNetDevice>
CellFabricTxPipeline::GetLink(uint32_t i) const
{
    return m_ports.at(i);
}

} // namespace ns3
