/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cell-fabric-adapter.h"

#include "cell-fabric-cellifier.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/fabric-invariant-check.h"
#include "ns3/fabric-net-device.h"
#include "ns3/fabric-output-queue.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CellFabricAdapter");
NS_OBJECT_ENSURE_REGISTERED(CellFabricAdapter);

namespace
{

/// OQ of RDMA data in the VOQ[1:0] assignment of digest 5.2 (an assumption there).
constexpr uint32_t RDMA_DATA_OQ = 1;

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

} // namespace

TypeId
CellFabricAdapter::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CellFabricAdapter")
            .SetParent<FabricEndpoint>()
            .SetGroupName("CellFabric")
            .AddConstructor<CellFabricAdapter>()
            .AddAttribute("Clusters",
                          "Clusters per chip, each with its own OQs and RxDMA (seed 004 1).",
                          UintegerValue(4),
                          MakeUintegerAccessor(&CellFabricAdapter::m_clusters),
                          MakeUintegerChecker<uint32_t>(1, 8))
            .AddAttribute("DestinationClusters",
                          "Messages of the endpoint API (which names no cluster) go to the "
                          "first DestinationClusters clusters of their destination: the "
                          "messages of a source to one destination in turn, starting at the "
                          "source's accelerator id (not in the spec; 1 sends every message to "
                          "cluster 0).",
                          UintegerValue(4),
                          MakeUintegerAccessor(&CellFabricAdapter::m_destinationClusters),
                          MakeUintegerChecker<uint32_t>(1, 8))
            .AddAttribute("ClockGhz",
                          "Adapter clock in GHz (seed 004 1: 1.33 GHz).",
                          DoubleValue(1.33),
                          MakeDoubleAccessor(&CellFabricAdapter::m_clockGhz),
                          MakeDoubleChecker<double>(0.01))
            .AddAttribute("PageSizeWords",
                          "PageSizeWords of RDMA jobs, in 128 B words: one of {37, 48, ..., "
                          "125} (10.7.2, 11.4.6; 125 recommended).",
                          UintegerValue(125),
                          MakeUintegerAccessor(&CellFabricAdapter::m_pageSizeWords),
                          MakeUintegerChecker<uint32_t>(CellFabricCellifier::MIN_PAGE_SIZE_WORDS,
                                                        CellFabricCellifier::MAX_PAGE_SIZE_WORDS))
            .AddAttribute("FoPipes",
                          "FO pipes; pages are balanced over them page by page (10.7[5a]).",
                          UintegerValue(4),
                          MakeUintegerAccessor(&CellFabricAdapter::m_foPipes),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("FoBytesPerCycle",
                          "FO pipe width in bytes of cells per cycle (10.7: 88 B, half a cell).",
                          UintegerValue(88),
                          MakeUintegerAccessor(&CellFabricAdapter::m_foBytesPerCycle),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("RxDmaBytesPerCycle",
                          "RxDMA width per cluster in bytes per cycle (10.8.8: 128 B, 170 GB/s).",
                          UintegerValue(128),
                          MakeUintegerAccessor(&CellFabricAdapter::m_rxDmaBytesPerCycle),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("RxCbufCells",
                          "Rx CBUF data cells shared by all clusters (10.8.3: 24K cells).",
                          UintegerValue(24576),
                          MakeUintegerAccessor(&CellFabricAdapter::m_rxCbufCells),
                          MakeUintegerChecker<uint32_t>(CellFabricCellifier::GetCells(
                              CellFabricCellifier::MAX_PAGE_PAYLOAD_BYTES +
                              CellFabricCellifier::PAGE_HEADER_BYTES)))
            .AddAttribute("CellHeaderBytes",
                          "Bytes of Juniper cell header per cell on a link (not given by the "
                          "spec; digest 5.9 suggests 16 B).",
                          UintegerValue(16),
                          MakeUintegerAccessor(&CellFabricAdapter::m_cellHeaderBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("ControlCellBytes",
                          "Bytes of a request, grant or message (CTS/ACK/NACK) cell before its "
                          "cell header: a 64 B message padded to the minimum 96 B cell "
                          "(digest 5.1, an assumption).",
                          UintegerValue(96),
                          MakeUintegerAccessor(&CellFabricAdapter::m_controlCellBytes),
                          MakeUintegerChecker<uint32_t>(64, 176))
            .AddAttribute("MaxOutstandingPages",
                          "Occupancy limiter: pages generated but not yet dequeued by FO, per "
                          "VOQ (10.7.3.1: about RTT x rate / page size).",
                          UintegerValue(64),
                          MakeUintegerAccessor(&CellFabricAdapter::m_maxOutstandingPages),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("MaxOutstandingGrants",
                          "Grants issued and not yet committed by RxDMA, per destination "
                          "cluster (the spec gives none; an assumption of digest 5.8). 0: the "
                          "scheduler grants nothing (a receiver that never grants: a fault the "
                          "watchdog tests inject; scenarios ask for at least 1).",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&CellFabricAdapter::m_maxOutstandingGrants),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("TxLatency",
                          "Transmit pipeline latency from a page leaving FO (or a control cell "
                          "being made) to its first cell on a link (not in the spec; with the "
                          "default fabric a control cell's round trip is about 2 us, 10.1).",
                          TimeValue(NanoSeconds(240)),
                          MakeTimeAccessor(&CellFabricAdapter::m_txLatency),
                          MakeTimeChecker())
            .AddAttribute("RxLatency",
                          "Receive pipeline latency from the last cell of a page or a control "
                          "cell to its handling (not in the spec; see TxLatency).",
                          TimeValue(NanoSeconds(240)),
                          MakeTimeAccessor(&CellFabricAdapter::m_rxLatency),
                          MakeTimeChecker())
            .AddAttribute("GrantPolicy",
                          "Grant scheduler policy (the spec gives none, digest 5.8).",
                          EnumValue(FIFO_ROUND_ROBIN),
                          MakeEnumAccessor(&CellFabricAdapter::m_grantPolicy),
                          MakeEnumChecker(FIFO_ROUND_ROBIN, "FifoRoundRobin", FIFO, "Fifo"))
            .AddAttribute("Granularity",
                          "Coarse: the cells of a page sent on one link travel as one unit with "
                          "their exact count and bytes (DESIGN.md rule 3); Fine: one unit per "
                          "cell, for tests that compare the two.",
                          EnumValue(COARSE),
                          MakeEnumAccessor(&CellFabricAdapter::m_granularity),
                          MakeEnumChecker(COARSE, "Coarse", FINE, "Fine"))
            .AddAttribute("InjectDropJob",
                          "For tests: the job (its id at the source; any source) of which one "
                          "page is lost at this receiver; the maximum value means none.",
                          UintegerValue(UINT64_MAX),
                          MakeUintegerAccessor(&CellFabricAdapter::m_injectDropJob),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("InjectDropPage",
                          "For tests: the page sequence number (in the job) that is lost.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&CellFabricAdapter::m_injectDropPage),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("InjectDropAttempts",
                          "For tests: on how many attempts of the job the page is lost (1: the "
                          "retry succeeds; 2: the retry fails too, Job Failed).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&CellFabricAdapter::m_injectDropAttempts),
                          MakeUintegerChecker<uint32_t>())
            .AddTraceSource("PageTx",
                            "A data page left an FO pipe onto the links.",
                            MakeTraceSourceAccessor(&CellFabricAdapter::m_pageTxTrace),
                            "ns3::CellFabricAdapter::PageTracedCallback")
            .AddTraceSource("PageCommit",
                            "RxDMA committed a data page here.",
                            MakeTraceSourceAccessor(&CellFabricAdapter::m_pageCommitTrace),
                            "ns3::CellFabricAdapter::PageTracedCallback")
            .AddTraceSource("Drop",
                            "A unit was dropped, with its reason.",
                            MakeTraceSourceAccessor(&CellFabricAdapter::m_dropTrace),
                            "ns3::FabricNetDevice::DropTracedCallback")
            .AddTraceSource("Nack",
                            "A NACK for a Tx job arrived here (the sender).",
                            MakeTraceSourceAccessor(&CellFabricAdapter::m_nackTrace),
                            "ns3::CellFabricAdapter::JobTracedCallback")
            .AddTraceSource("JobFailed",
                            "A Tx job failed: NACKed again after its one retry (the message "
                            "is never delivered nor completed).",
                            MakeTraceSourceAccessor(&CellFabricAdapter::m_jobFailedTrace),
                            "ns3::CellFabricAdapter::JobTracedCallback");
    return tid;
}

CellFabricAdapter::CellFabricAdapter()
{
    NS_LOG_FUNCTION(this);
}

CellFabricAdapter::~CellFabricAdapter()
{
    NS_LOG_FUNCTION(this);
}

void
CellFabricAdapter::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_ports.clear();
    m_queues.clear();
    m_peers.reset();
    m_txJobs.clear();
    m_rxJobs.clear();
    FabricEndpoint::DoDispose();
}

void
CellFabricAdapter::AddPort(Ptr<FabricNetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    // control cells (class 1) before data (class 0): they are high priority (digest 5.9)
    Ptr<FabricOutputQueue> q = CreateObject<FabricOutputQueue>();
    q->SetAttribute("ClassScheduling", EnumValue(FabricOutputQueue::STRICT_PRIORITY));
    device->SetTxQueue(q);
    device->SetPortIndex(m_ports.size());
    device->SetFabricReceiveCallback(MakeCallback(&CellFabricAdapter::Receive, this));
    m_ports.push_back(device);
    m_queues.push_back(q);
}

void
CellFabricAdapter::SetPeers(std::shared_ptr<std::vector<CellFabricAdapter*>> peers)
{
    m_peers = peers;
}

Time
CellFabricAdapter::Cycles(double bytes, uint32_t bytesPerCycle) const
{
    const double cycles = std::ceil(bytes / bytesPerCycle);
    return PicoSeconds(static_cast<int64_t>(std::llround(cycles * 1000.0 / m_clockGhz)));
}

double
CellFabricAdapter::GetRxDmaBytesPerSecond() const
{
    return m_rxDmaBytesPerCycle * m_clockGhz * 1e9;
}

double
CellFabricAdapter::GetFoBytesPerSecond() const
{
    return m_foBytesPerCycle * m_clockGhz * 1e9;
}

std::vector<CellFabricAdapter::VoqState>
CellFabricAdapter::GetVoqStates() const
{
    // VOQ keys are (dst * 8 + cluster) * 4 + OQ (see PostRdmaWrite).
    std::map<uint64_t, VoqState> voqs;
    auto at = [&voqs](uint64_t key) -> VoqState& {
        VoqState& v = voqs[key];
        v.dst = static_cast<uint32_t>(key / 32);
        v.cluster = static_cast<uint32_t>(key / 4 % 8);
        v.oq = static_cast<uint32_t>(key % 4);
        return v;
    };
    for (const auto& [key, jobs] : m_voqJobs)
    {
        if (!jobs.empty())
        {
            VoqState& v = at(key);
            v.jobs = jobs.size();
            const auto head = m_txJobs.find(jobs.front());
            v.cts = head != m_txJobs.end() && head->second.cts;
        }
    }
    for (const auto& [key, n] : m_voqOutstanding)
    {
        if (n > 0)
        {
            at(key).outstanding = n;
        }
    }
    std::vector<VoqState> out;
    for (const auto& [key, v] : voqs)
    {
        out.push_back(v);
    }
    return out;
}

std::vector<CellFabricAdapter::GrantQueueState>
CellFabricAdapter::GetGrantQueueStates() const
{
    std::vector<GrantQueueState> out;
    for (uint32_t c = 0; c < m_grants.size(); ++c)
    {
        out.push_back({c, m_grants[c].waiting, c < m_grantsOut.size() ? m_grantsOut[c] : 0});
    }
    return out;
}

double
CellFabricAdapter::GetCongestionState(uint32_t dst) const
{
    uint32_t worst = 0;
    for (uint32_t c = 0; c < m_clusters; ++c)
    {
        auto it = m_voqOutstanding.find((static_cast<uint64_t>(dst) * 8 + c) * 4 + RDMA_DATA_OQ);
        if (it != m_voqOutstanding.end())
        {
            worst = std::max(worst, it->second);
        }
    }
    return std::min(1.0, static_cast<double>(worst) / m_maxOutstandingPages);
}

void
CellFabricAdapter::DoSend(const FabricMessage& m)
{
    NS_LOG_FUNCTION(this << m.id << m.dst << m.bytes);
    // The endpoint API names no cluster: messages go to the destination's clusters in turn.
    const uint32_t spread = std::min(m_destinationClusters, m_clusters);
    // Messages to one destination go to its clusters in turn, each source starting at its own
    // id, so that sources that start together aim at different clusters (an assumption; the
    // endpoint API names no cluster).
    const uint32_t cluster = (GetAcceleratorId() + m_messagesTo[m.dst]++) % spread;
    PostRdmaWrite(m, cluster);
}

void
CellFabricAdapter::PostRdmaWrite(const FabricMessage& m, uint32_t dstCluster)
{
    NS_LOG_FUNCTION(this << m.id << m.dst << dstCluster);
    NS_ABORT_MSG_UNLESS(CellFabricCellifier::IsLegalPageSizeWords(m_pageSizeWords),
                        "CellFabricAdapter: PageSizeWords " << m_pageSizeWords
                                                            << " is not legal (10.7.2)");
    NS_ABORT_MSG_UNLESS(m_peers && m.dst < m_peers->size() && (*m_peers)[m.dst],
                        "CellFabricAdapter: no adapter for accelerator " << m.dst);
    NS_ABORT_MSG_IF(m.dst == GetAcceleratorId(), "CellFabricAdapter: no loopback");
    NS_ABORT_MSG_IF(dstCluster >= m_clusters, "CellFabricAdapter: no cluster " << dstCluster);
    NS_ABORT_MSG_IF(m_ports.empty(), "CellFabricAdapter: no link ports");
    EnsureResources();
    auto msg = std::make_shared<TxMessage>();
    msg->msg = m;
    // NumWords <= 2^16 per job (11.4.6): a larger message is several jobs to the same VOQ.
    const uint64_t words = std::max<uint64_t>(1, (m.bytes + 127) / 128);
    const uint64_t jobs =
        (words + CellFabricCellifier::MAX_JOB_WORDS - 1) / CellFabricCellifier::MAX_JOB_WORDS;
    msg->jobsLeft = jobs;
    const uint64_t voq = (static_cast<uint64_t>(m.dst) * 8 + dstCluster) * 4 + RDMA_DATA_OQ;
    uint64_t bytesLeft = m.bytes;
    for (uint64_t j = 0; j < jobs; ++j)
    {
        const uint32_t jobWords =
            static_cast<uint32_t>(std::min<uint64_t>(words - j * CellFabricCellifier::MAX_JOB_WORDS,
                                                     CellFabricCellifier::MAX_JOB_WORDS));
        TxJob job;
        job.id = m_nextJob++;
        job.dst = m.dst;
        job.cluster = dstCluster;
        job.voq = voq;
        job.pages = CellFabricCellifier::GetRdmaPages(jobWords, m_pageSizeWords);
        job.message = msg;
        RxJob rx;
        rx.src = GetAcceleratorId();
        rx.cluster = dstCluster;
        rx.pages = job.pages.size();
        rx.bytes = std::min<uint64_t>(bytesLeft, static_cast<uint64_t>(jobWords) * 128);
        bytesLeft -= rx.bytes;
        rx.msg = m;
        rx.lastJob = (j + 1 == jobs);
        m_voqJobs[voq].push_back(job.id);
        m_txJobs.emplace(job.id, std::move(job));
        ++m_stats.jobsPosted;
        // The receiver's software posts the Rx job, which sends the CTS (10.3).
        (*m_peers)[m.dst]->PostRxJob(GetAcceleratorId(), m_nextJob - 1, rx);
    }
    if (m_voqJobs[voq].size() == jobs)
    {
        ActivateNext(voq); // the VOQ was free
    }
}

void
CellFabricAdapter::ActivateNext(uint64_t voq)
{
    NS_LOG_FUNCTION(this << voq);
    auto it = m_voqJobs.find(voq);
    if (it == m_voqJobs.end() || it->second.empty())
    {
        return;
    }
    // VOQ-Active lock (10.7.1.1): only the head job of a VOQ generates pages.
    m_active.push_back(it->second.front());
    Generate();
}

void
CellFabricAdapter::EnsureResources()
{
    if (m_resourcesReady)
    {
        return;
    }
    // first use: attributes are final by now
    m_resourcesReady = true;
    m_freeCells = m_rxCbufCells;
    m_stats.minFreeCells = m_rxCbufCells;
    m_grants.resize(m_clusters);
    m_grantsOut.assign(m_clusters, 0);
    m_rxDmaFree.assign(m_clusters, Time(0));
    m_foFree.assign(m_foPipes, Time(0));
}

void
CellFabricAdapter::PostRxJob(uint32_t src, uint64_t job, const RxJob& rx)
{
    NS_LOG_FUNCTION(this << src << job);
    EnsureResources();
    m_rxJobs[{src, job}] = rx;
    m_rxJobs[{src, job}].counted.assign(rx.pages, false);
    SendControl(src, CTS, job, 0, 0);
}

void
CellFabricAdapter::SendControl(uint32_t dst,
                               UnitType type,
                               uint64_t job,
                               uint64_t page,
                               uint32_t cells)
{
    NS_LOG_FUNCTION(this << dst << static_cast<uint32_t>(type) << job << page);
    Ptr<FabricPacket> p = Create<FabricPacket>();
    p->src = GetAcceleratorId();
    p->dst = dst;
    p->tclass = 1; // control cells ahead of data at the adapter's links
    p->msgId = job;
    p->ctrlClass = type;
    p->ctrlValue = page;
    p->ctrlValue2 = cells;
    p->headerBytes = m_controlCellBytes + m_cellHeaderBytes;
    if (type == CTS || type == ACK || type == NACK)
    {
        ++m_stats.messagesSent;
    }
    const uint32_t link = m_ctrlNext;
    m_ctrlNext = (m_ctrlNext + 1) % m_ports.size();
    Simulator::Schedule(m_txLatency, &CellFabricAdapter::EnqueueOnLink, this, link, p);
}

void
CellFabricAdapter::EnqueueOnLink(uint32_t link, const Ptr<FabricPacket>& p)
{
    // A two-stage fabric sprays over the middle stage by flow hash: every unit gets the next.
    p->flowHash = m_sprayHash++;
    m_queues[link]->Enqueue(p);
    m_ports[link]->Wake();
}

void
CellFabricAdapter::Generate()
{
    NS_LOG_FUNCTION(this);
    // Page Generator (10.7.3): one page per active job in turn, while the occupancy limiter
    // allows (outstanding pages per VOQ below MaxOutstandingPages).
    bool progress = true;
    while (progress && !m_active.empty())
    {
        progress = false;
        std::vector<uint64_t> finished;
        const uint32_t n = m_active.size();
        for (uint32_t i = 0; i < n; ++i)
        {
            const uint64_t id = m_active[(m_activeRr + i) % n];
            TxJob& job = m_txJobs.at(id);
            uint32_t& outstanding = m_voqOutstanding[job.voq];
            if (!job.cts || job.nextRequest >= job.pages.size() ||
                outstanding >= m_maxOutstandingPages)
            {
                continue;
            }
            const uint32_t page = job.nextRequest++;
            ++outstanding;
            ++m_stats.pagesRequested;
            const uint32_t cells = CellFabricCellifier::GetCells(
                job.pages[page] + CellFabricCellifier::PAGE_HEADER_BYTES);
            // the request carries the job's epoch (bit 32), echoed by its grant
            SendControl(job.dst,
                        REQUEST,
                        id,
                        page | (static_cast<uint64_t>(job.epoch) << 32),
                        cells | (job.cluster << 16));
            progress = true;
            if (job.nextRequest == job.pages.size())
            {
                finished.push_back(id);
            }
        }
        m_activeRr = n ? (m_activeRr + 1) % n : 0;
        for (uint64_t id : finished)
        {
            // the last page is enqueued: release the VOQ-Active lock
            const uint64_t voq = m_txJobs.at(id).voq;
            m_active.erase(std::find(m_active.begin(), m_active.end(), id));
            m_voqJobs[voq].pop_front();
            if (!m_voqJobs[voq].empty())
            {
                m_active.push_back(m_voqJobs[voq].front());
            }
            progress = true;
        }
        if (!m_active.empty())
        {
            m_activeRr %= m_active.size();
        }
    }
}

void
CellFabricAdapter::OnGrant(uint64_t jobId, uint32_t page, uint8_t epoch)
{
    NS_LOG_FUNCTION(this << jobId << page);
    TxJob& job = m_txJobs.at(jobId);
    const uint32_t bytes = job.pages.at(page);
    const uint32_t cellBytes =
        CellFabricCellifier::GetCellBytes(bytes + CellFabricCellifier::PAGE_HEADER_BYTES);
    // FO pipes (10.7[5a]): the page goes to the pipe that frees first, at 88 B per cycle.
    auto pipe = std::min_element(m_foFree.begin(), m_foFree.end());
    const Time start = std::max(Simulator::Now(), *pipe);
    *pipe = start + Cycles(cellBytes, m_foBytesPerCycle);
    // The QPage is freed at FO dequeue (10.7.6): the occupancy limiter counts it no more.
    --m_voqOutstanding[job.voq];
    Simulator::Schedule(*pipe - Simulator::Now() + m_txLatency,
                        &CellFabricAdapter::PageOut,
                        this,
                        jobId,
                        page,
                        job.dst,
                        job.cluster,
                        bytes,
                        epoch);
    Generate();
}

void
CellFabricAdapter::PageOut(uint64_t job,
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
    m_sprayNext = (m_sprayNext + cells.size()) % links;
    // Coarse: cell k goes to link (first + k) mod links and the cells of one link form one
    // unit. Fine: one unit per cell, on the same links in the same order.
    const uint32_t units =
        m_granularity == FINE ? cells.size() : std::min<uint32_t>(links, cells.size());
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
        p->src = GetAcceleratorId();
        p->dst = dst;
        p->tclass = 0;
        p->msgId = job;
        p->ctrlClass = DATA_CELLS;
        p->ctrlValue = page | (static_cast<uint64_t>(epoch) << 32); // the epoch in bit 32
        p->ctrlValue2 = (static_cast<uint64_t>(cells.size()) << 32) | nCells[i];
        p->psn = cluster;
        p->offset = bytes; // the page's data bytes
        p->payloadBytes = nBytes[i];
        p->headerBytes = nCells[i] * m_cellHeaderBytes;
        EnqueueOnLink((first + i) % links, p);
    }
    ++m_stats.pagesSent;
    m_stats.cellsSent += cells.size();
    m_pageTxTrace(GetAcceleratorId(), job, page, cells.size());
}

void
CellFabricAdapter::Receive(const Ptr<FabricNetDevice>& dev, const Ptr<FabricPacket>& p)
{
    NS_LOG_FUNCTION(this << dev << p);
    if (p->ctrlClass != DATA_CELLS)
    {
        Simulator::Schedule(m_rxLatency, &CellFabricAdapter::HandleControl, this, p);
        return;
    }
    auto jt = m_rxJobs.find({p->src, p->msgId});
    if (jt == m_rxJobs.end())
    {
        Drop(p, UNKNOWN_JOB);
        return;
    }
    const uint32_t nCells = static_cast<uint32_t>(p->ctrlValue2 & 0xFFFFFFFFULL);
    const uint32_t expected = static_cast<uint32_t>(p->ctrlValue2 >> 32);
    m_stats.cellsReceived += nCells;
    // Reorder and reassembly (10.8[3-4]): the page is complete when all its cells are here, in
    // whatever order and on whatever links they came.
    const uint32_t page = static_cast<uint32_t>(p->ctrlValue & 0xFFFFFFFFULL);
    const uint8_t epoch = static_cast<uint8_t>(p->ctrlValue >> 32);
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
    if (epoch != jt->second.epoch)
    {
        // a page of the job's stale epoch (sent before a NACK): dropped, its cells freed
        Drop(p, STALE_EPOCH);
        FreeRxCells(jt->second.cluster, pageCells);
        for (uint32_t c = 0; c < m_clusters; ++c)
        {
            RunGrantScheduler(c);
        }
        return;
    }
    Simulator::Schedule(m_rxLatency,
                        &CellFabricAdapter::PageComplete,
                        this,
                        p->src,
                        p->msgId,
                        page,
                        static_cast<uint32_t>(p->offset),
                        epoch);
}

void
CellFabricAdapter::HandleControl(Ptr<FabricPacket> p)
{
    NS_LOG_FUNCTION(this << p);
    switch (p->ctrlClass)
    {
    case REQUEST: {
        Request r;
        r.src = p->src;
        r.job = p->msgId;
        r.page = static_cast<uint32_t>(p->ctrlValue & 0xFFFFFFFFULL);
        r.epoch = static_cast<uint8_t>(p->ctrlValue >> 32);
        r.cells = p->ctrlValue2 & 0xFFFF;
        OnRequest(r, static_cast<uint32_t>(p->ctrlValue2 >> 16));
        break;
    }
    case GRANT:
        OnGrant(p->msgId,
                static_cast<uint32_t>(p->ctrlValue & 0xFFFFFFFFULL),
                static_cast<uint8_t>(p->ctrlValue >> 32));
        break;
    case CTS: {
        auto it = m_txJobs.find(p->msgId);
        NS_ASSERT_MSG(it != m_txJobs.end(), "CTS for an unknown Tx job");
        it->second.cts = true;
        Generate();
        break;
    }
    case ACK:
        OnAck(p->msgId);
        break;
    case NACK:
        OnNack(p->msgId);
        break;
    default:
        NS_ABORT_MSG("CellFabricAdapter: unexpected unit type " << uint32_t(p->ctrlClass));
    }
}

void
CellFabricAdapter::OnRequest(const Request& r, uint32_t cluster)
{
    NS_LOG_FUNCTION(this << r.src << r.job << r.page << cluster);
    GrantQueue& g = m_grants.at(cluster);
    if (m_grantPolicy == FIFO)
    {
        g.fifo.push_back(r);
    }
    else
    {
        g.bySource[r.src].push_back(r);
    }
    ++g.waiting;
    RunGrantScheduler(cluster);
}

void
CellFabricAdapter::RunGrantScheduler(uint32_t cluster)
{
    NS_LOG_FUNCTION(this << cluster);
    GrantQueue& g = m_grants[cluster];
    while (g.waiting > 0)
    {
        std::deque<Request>* q = nullptr;
        if (m_grantPolicy == FIFO)
        {
            q = &g.fifo;
        }
        else
        {
            auto it = g.bySource.lower_bound(g.rrNext);
            if (it == g.bySource.end())
            {
                it = g.bySource.begin();
            }
            q = &it->second;
        }
        const Request r = q->front();
        // Grants are paced by free Rx CBUF cells (10.8.6): a page is granted only when its
        // cells are free, and they stay reserved until RxDMA has written the page.
        if (r.cells > m_freeCells || m_grantsOut[cluster] >= m_maxOutstandingGrants)
        {
            ++m_stats.grantsDeferred;
            return;
        }
        q->pop_front();
        --g.waiting;
        if (m_grantPolicy != FIFO)
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
        SendControl(r.src, GRANT, r.job, r.page | (static_cast<uint64_t>(r.epoch) << 32), r.cells);
    }
}

void
CellFabricAdapter::PageComplete(uint32_t src,
                                uint64_t job,
                                uint32_t page,
                                uint32_t bytes,
                                uint8_t epoch)
{
    NS_LOG_FUNCTION(this << src << job << page);
    RxJob& rx = m_rxJobs.at({src, job});
    // RxDMA of the page's cluster (10.8.8): 128 B per cycle, pages in arrival order.
    Time& free = m_rxDmaFree[rx.cluster];
    const Time start = std::max(Simulator::Now(), free);
    free = start + Cycles(bytes, m_rxDmaBytesPerCycle);
    const uint32_t cells =
        CellFabricCellifier::GetCells(bytes + CellFabricCellifier::PAGE_HEADER_BYTES);
    Simulator::Schedule(free - Simulator::Now(),
                        &CellFabricAdapter::PageCommitted,
                        this,
                        src,
                        job,
                        page,
                        cells,
                        epoch);
}

void
CellFabricAdapter::PageCommitted(uint32_t src,
                                 uint64_t job,
                                 uint32_t page,
                                 uint32_t cells,
                                 uint8_t epoch)
{
    NS_LOG_FUNCTION(this << src << job << page);
    auto it = m_rxJobs.find({src, job});
    RxJob& rx = it->second;
    const bool stale = epoch != rx.epoch;
    // Page validation at RxDMA (section 10, digest 5): a lost page (injected for tests) puts
    // the job in error: NACK, and the job's epoch flips so the pages still in flight or queued
    // here for RxDMA are recognized as stale.
    const bool lost = !stale && job == m_injectDropJob && page == m_injectDropPage &&
                      rx.nacks < m_injectDropAttempts;
    if (stale || lost)
    {
        ++m_stats.drops[stale ? STALE_EPOCH : INJECTED_DROP];
        FreeRxCells(rx.cluster, cells);
        if (lost)
        {
            ++rx.nacks;
            ++m_stats.nacksSent;
            rx.epoch ^= 1;
            rx.committed = 0;
            SendControl(src, NACK, job, page, 0);
        }
        const uint32_t cl = rx.cluster;
        for (uint32_t c = 0; c < m_clusters; ++c)
        {
            RunGrantScheduler((cl + 1 + c) % m_clusters);
        }
        return;
    }
    // payload of this page: the job's bytes cut into PageSizeWords pages
    const uint64_t pageBytes = static_cast<uint64_t>(m_pageSizeWords) * 128;
    const uint64_t before = static_cast<uint64_t>(page) * pageBytes;
    const uint64_t payload =
        rx.bytes > before ? std::min<uint64_t>(pageBytes, rx.bytes - before) : 0;
    if (!rx.counted[page])
    {
        rx.counted[page] = true; // a retried page's payload is delivered once
        CountReceivedPayload(payload);
    }
    ++m_stats.pagesCommitted;
    m_pageCommitTrace(src, job, page, cells);
    const uint32_t cluster = rx.cluster;
    FreeRxCells(cluster, cells);
    ++rx.committed;
    if (rx.committed == rx.pages)
    {
        // all pages committed: ACK, and the message is delivered here after its last job
        SendControl(src, ACK, job, 0, 0);
        if (rx.lastJob)
        {
            FabricMessage m = rx.msg;
            m.delivered = Simulator::Now();
            NotifyDelivered(m);
        }
        m_rxJobs.erase(it);
    }
    for (uint32_t c = 0; c < m_clusters; ++c)
    {
        RunGrantScheduler((cluster + 1 + c) % m_clusters);
    }
}

void
CellFabricAdapter::FreeRxCells(uint32_t cluster, uint32_t cells)
{
    NS_LOG_FUNCTION(this << cluster << cells);
    if (FabricInvariantCheck::IsEnabled())
    {
        // Before the update: a grant count of 0 would wrap.
        FabricInvariantCheck::Count();
        if (cluster >= m_grantsOut.size() || m_grantsOut[cluster] == 0 ||
            uint64_t(m_freeCells) + cells > m_rxCbufCells)
        {
            const int64_t grants =
                cluster < m_grantsOut.size() ? int64_t(m_grantsOut[cluster]) - 1 : -1;
            FabricInvariantCheck::Fail(
                FabricInvariantCheck::CREDITS,
                "acc" + std::to_string(GetAcceleratorId()) + " Rx CBUF",
                "free cells " + std::to_string(uint64_t(m_freeCells) + cells) + " of " +
                    std::to_string(m_rxCbufCells) + ", outstanding grants " +
                    std::to_string(grants) + " on cluster " + std::to_string(cluster) +
                    " after freeing a page of " + std::to_string(cells) +
                    " cells (freed twice, or never granted)");
        }
    }
    m_freeCells += cells;
    --m_grantsOut[cluster];
}

void
CellFabricAdapter::CheckRxCells(uint32_t cluster, const char* after) const
{
    FabricInvariantCheck::Count();
    if (m_freeCells > m_rxCbufCells || m_grantsOut[cluster] > m_maxOutstandingGrants)
    {
        FabricInvariantCheck::Fail(FabricInvariantCheck::CREDITS,
                                   "acc" + std::to_string(GetAcceleratorId()) + " Rx CBUF",
                                   "free cells " + std::to_string(m_freeCells) + " of " +
                                       std::to_string(m_rxCbufCells) + ", outstanding grants " +
                                       std::to_string(m_grantsOut[cluster]) + " of " +
                                       std::to_string(m_maxOutstandingGrants) + " on cluster " +
                                       std::to_string(cluster) + " after " + after);
    }
}

void
CellFabricAdapter::OnAck(uint64_t jobId)
{
    NS_LOG_FUNCTION(this << jobId);
    auto it = m_txJobs.find(jobId);
    NS_ASSERT_MSG(it != m_txJobs.end(), "ACK for an unknown Tx job");
    std::shared_ptr<TxMessage> msg = it->second.message;
    m_txJobs.erase(it);
    ++m_stats.jobsCompleted;
    if (--msg->jobsLeft == 0)
    {
        FabricMessage m = msg->msg;
        m.completed = Simulator::Now();
        NotifyCompleted(m);
    }
}

void
CellFabricAdapter::OnNack(uint64_t jobId)
{
    NS_LOG_FUNCTION(this << jobId);
    auto it = m_txJobs.find(jobId);
    NS_ASSERT_MSG(it != m_txJobs.end(), "NACK for an unknown Tx job");
    TxJob& job = it->second;
    m_nackTrace(job.dst, jobId);
    // The job's 1-bit epoch flips: grants of requests made before arrive with the old epoch
    // and their pages are dropped as stale at the receiver.
    job.epoch ^= 1;
    const auto active = std::find(m_active.begin(), m_active.end(), jobId);
    if (job.retried)
    {
        // a second failure: Job Failed; the message is never delivered nor completed
        job.failed = true;
        ++m_stats.jobsFailed;
        m_jobFailedTrace(job.dst, jobId);
        if (active != m_active.end())
        {
            m_active.erase(active);
            m_voqJobs[job.voq].pop_front();
            ActivateNext(job.voq);
        }
        return;
    }
    // one retry of the whole job (the receiver's Rx job stays posted: no new CTS)
    job.retried = true;
    ++m_stats.jobsRetried;
    job.nextRequest = 0;
    if (active == m_active.end())
    {
        std::deque<uint64_t>& q = m_voqJobs[job.voq];
        q.push_back(jobId);
        if (q.size() == 1)
        {
            ActivateNext(job.voq);
        }
        return;
    }
    Generate();
}

void
CellFabricAdapter::Drop(const Ptr<FabricPacket>& p, const char* reason)
{
    NS_LOG_FUNCTION(this << p << reason);
    ++m_stats.drops[reason];
    m_dropTrace(p, reason);
}

} // namespace ns3
