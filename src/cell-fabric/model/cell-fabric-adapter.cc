/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cell-fabric-adapter.h"

#include "cell-fabric-cellifier.h"
#include "cell-fabric-datagram-service.h"
#include "cell-fabric-rdma-job-manager.h"
#include "cell-fabric-rx-pipeline.h"
#include "cell-fabric-tx-job.h"
#include "cell-fabric-tx-pipeline.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/fabric-channel.h"
#include "ns3/fabric-flow-plan.h"
#include "ns3/fabric-net-device.h"
#include "ns3/fabric-routing-table.h"
#include "ns3/fabric-switch-base.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CellFabricAdapter");
NS_OBJECT_ENSURE_REGISTERED(CellFabricAdapter);

TypeId
CellFabricAdapter::GetTypeId()
{
    static TypeId tid = AddTraceSources(
        CellFabricDatagramService::AddAttributes(CellFabricRdmaJobManager::AddAttributes(
            CellFabricRxPipeline::AddAttributes(CellFabricTxPipeline::AddAttributes(
                AddChipAttributes(TypeId("ns3::CellFabricAdapter")
                                      .SetParent<FabricEndpoint>()
                                      .SetGroupName("CellFabric")
                                      .AddConstructor<CellFabricAdapter>()))))));
    return tid;
}

TypeId
CellFabricAdapter::AddChipAttributes(TypeId tid)
{
    return tid
        .AddAttribute("Clusters",
                      "Clusters per chip, each with its own OQs and RxDMA (Pyxis spec section 1).",
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
                      "Adapter clock in GHz (Pyxis spec section 1: 1.33 GHz).",
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
        .AddAttribute("DefaultOq",
                      "OQ (VOQ[1:0], 10.2) of the endpoint API's jobs, which name no VOQ. "
                      "The spec gives four OQs per cluster, two classes of RDMA and of "
                      "datagrams (10.8[5]), but no numbering; the model's: 0 RDMA high "
                      "(and messages), 1 RDMA low, 2 and 3 datagrams (an assumption).",
                      UintegerValue(1),
                      MakeUintegerAccessor(&CellFabricAdapter::m_defaultOq),
                      MakeUintegerChecker<uint32_t>(0, 3))
        .AddAttribute("DefaultPriority",
                      "Page Generator priority of the endpoint API's VOQs (10.7.3).",
                      EnumValue(LOW_PRIORITY),
                      MakeEnumAccessor(&CellFabricAdapter::m_defaultPriority),
                      MakeEnumChecker(LOW_PRIORITY, "Low", HIGH_PRIORITY, "High"))
        .AddAttribute("DefaultOccupancyProfile",
                      "Occupancy profile of the endpoint API's VOQs (10.7.3.1).",
                      UintegerValue(0),
                      MakeUintegerAccessor(&CellFabricAdapter::m_defaultProfile),
                      MakeUintegerChecker<uint32_t>(0, 7))
        .AddAttribute("EndpointTransport",
                      "Transport of the endpoint API's messages. Rdma: RDMA write jobs "
                      "(10.3). Datagram: unreliable datagrams (10.5) to RxQ 0, a message "
                      "larger than 16,256 B split into datagrams of 16,256 B and the rest; "
                      "the message is delivered when all its datagrams are written into the "
                      "receiver's RxQ, never if one is dropped, and completed at the sender "
                      "when all are transmitted.",
                      EnumValue(TRANSPORT_RDMA),
                      MakeEnumAccessor(&CellFabricAdapter::m_transport),
                      MakeEnumChecker(TRANSPORT_RDMA, "Rdma", TRANSPORT_DATAGRAM, "Datagram"));
}

TypeId
CellFabricAdapter::AddTraceSources(TypeId tid)
{
    return tid
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
                        "A Tx job failed: NACKed or timed out again after its one retry, "
                        "or a CTS-wait or Tx-active timeout (the message is never "
                        "delivered nor completed).",
                        MakeTraceSourceAccessor(&CellFabricAdapter::m_jobFailedTrace),
                        "ns3::CellFabricAdapter::JobTracedCallback")
        .AddTraceSource("JobRetry",
                        "A Tx job is retried (after a NACK or an ACK-wait timeout).",
                        MakeTraceSourceAccessor(&CellFabricAdapter::m_retryTrace),
                        "ns3::CellFabricAdapter::JobTracedCallback")
        .AddTraceSource("RxJobFailed",
                        "An Rx job failed here (timer, or an error in its retry); the "
                        "arguments are the source chip and the job id there.",
                        MakeTraceSourceAccessor(&CellFabricAdapter::m_rxJobFailedTrace),
                        "ns3::CellFabricAdapter::JobTracedCallback")
        .AddTraceSource("PageGen",
                        "The Page Generator generated a data page (10.7.3): the job, the "
                        "page and its VOQ's outstanding pages with it.",
                        MakeTraceSourceAccessor(&CellFabricAdapter::m_pageGenTrace),
                        "ns3::CellFabricAdapter::PageGenTracedCallback");
}

CellFabricAdapter::CellFabricAdapter()
    : m_tx(std::make_unique<CellFabricTxPipeline>(*this)),
      m_rx(std::make_unique<CellFabricRxPipeline>(*this)),
      m_jobs(std::make_unique<CellFabricRdmaJobManager>(*this)),
      m_dg(std::make_unique<CellFabricDatagramService>(*this))
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
    m_tx->Dispose();
    m_rx->Dispose();
    m_jobs->Dispose();
    m_dg->Dispose();
    m_peers.reset();
    FabricEndpoint::DoDispose();
}

void
CellFabricAdapter::AddPort(Ptr<FabricNetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    m_tx->AddLink(device);
    device->SetFabricReceiveCallback(MakeCallback(&CellFabricRxPipeline::Receive, m_rx.get()));
}

uint32_t
CellFabricAdapter::GetNPorts() const
{
    return m_tx->GetNLinks();
}

void
CellFabricAdapter::SetPeers(std::shared_ptr<std::vector<CellFabricAdapter*>> peers)
{
    m_peers = peers;
}

bool
CellFabricAdapter::HasPeer(uint32_t chip) const
{
    return m_peers && chip < m_peers->size() && (*m_peers)[chip];
}

CellFabricAdapter&
CellFabricAdapter::GetPeer(uint32_t chip) const
{
    NS_ABORT_MSG_UNLESS(HasPeer(chip), "CellFabricAdapter: no adapter for accelerator " << chip);
    return *(*m_peers)[chip];
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
    m_tx->Setup();
    m_rx->Setup();
    m_jobs->Setup();
    m_dg->Setup();
}

Time
CellFabricAdapter::Cycles(double bytes, uint32_t bytesPerCycle) const
{
    const double cycles = std::ceil(bytes / bytesPerCycle);
    return PicoSeconds(static_cast<int64_t>(std::llround(cycles * 1000.0 / m_clockGhz)));
}

void
CellFabricAdapter::Drop(const Ptr<FabricPacket>& p, const char* reason)
{
    NS_LOG_FUNCTION(this << p << reason);
    ++m_stats.drops[reason];
    m_dropTrace(p, reason);
}

void
CellFabricAdapter::DoSend(const FabricMessage& m)
{
    NS_LOG_FUNCTION(this << m.id << m.dst << m.bytes);
    // The endpoint API names no cluster: messages go to the destination's clusters in turn.
    const uint32_t cluster = NextCluster(m.dst);
    if (m_transport == TRANSPORT_RDMA)
    {
        PostRdmaWrite(m, cluster);
        return;
    }
    // Datagrams (10.5): one page of at most 16,256 B each; a larger message is split.
    m_dg->SendMessage(m, cluster);
}

uint32_t
CellFabricAdapter::NextCluster(uint32_t dst)
{
    const uint32_t spread = std::min(m_destinationClusters, m_clusters);
    // Messages to one destination go to its clusters in turn, each source starting at its own
    // id, so that sources that start together aim at different clusters (an assumption; the
    // endpoint API names no cluster).
    return (GetAcceleratorId() + m_messagesTo[dst]++) % spread;
}

Time
CellFabricAdapter::ControlPathLatency(const CellFabricAdapter& from, uint32_t to)
{
    const CellFabricTxPipeline::Config& c = from.m_tx->GetConfig();
    Ptr<FabricPacket> probe = Create<FabricPacket>();
    probe->src = from.GetAcceleratorId();
    probe->dst = to;
    probe->headerBytes = c.controlCellBytes + c.cellHeaderBytes;
    Ptr<FabricNetDevice> dev = from.m_tx->GetLink(0);
    Time t;
    // Hop by hop until a node without a switch (the destination's adapter); the equal-cost
    // ports a cell is sprayed over have the same latency, so the probe takes the first.
    for (uint32_t hop = 0; hop < 16 && dev; ++hop)
    {
        Ptr<FabricChannel> ch = dev->GetFabricChannel();
        Ptr<FabricNetDevice> peer = ch ? ch->GetPeer(dev) : nullptr;
        if (!peer)
        {
            break;
        }
        const Time ser = ch->GetSerializationTime(probe->GetSize() + dev->GetInterframeBytes());
        t += ch->GetOneWayDelay() + peer->GetReceiveOffset(ser);
        Ptr<Node> node = peer->GetNode();
        Ptr<FabricSwitchBase> sw = node ? node->GetObject<FabricSwitchBase>() : nullptr;
        if (!sw)
        {
            break;
        }
        uint32_t in = peer->GetPortIndex();
        if (in >= sw->GetNPorts() || sw->GetPort(in) != peer)
        {
            for (in = 0; in < sw->GetNPorts() && sw->GetPort(in) != peer; ++in)
            {
            }
        }
        const uint32_t out =
            in < sw->GetNPorts() ? sw->ProbeRoute(probe, in) : FabricRoutingTable::NO_PORT;
        dev = out < sw->GetNPorts() ? sw->GetPort(out) : nullptr;
    }
    return t;
}

bool
CellFabricAdapter::PlanFlow(const FabricMessage& m, FabricFlowPlan& plan)
{
    const uint32_t links = GetNPorts();
    if (links == 0 || !HasPeer(m.dst) || m.dst == GetAcceleratorId())
    {
        return false;
    }
    const bool rdma = m_transport == TRANSPORT_RDMA;
    CellFabricAdapter& peer = GetPeer(m.dst);
    if (rdma && (m_jobs->GetConfig().posting == RX_POSTING_EXPLICIT ||
                 peer.m_jobs->GetConfig().posting == RX_POSTING_EXPLICIT))
    {
        return false; // PostRdmaWrite refuses the endpoint API's messages then
    }
    const uint32_t cluster = NextCluster(m.dst);
    plan = FabricFlowPlan();
    const CellFabricTxPipeline::Config& tc = m_tx->GetConfig();
    const uint32_t ifg = m_tx->GetLink(0)->GetInterframeBytes();
    // Each data page's request is a control cell on this adapter's links too (10.1).
    const uint64_t requestWire = tc.controlCellBytes + tc.cellHeaderBytes + ifg;
    uint64_t unit = 0;
    // A page of `data` bytes: its cells (16 B page header included, 10.6; the last-two-cells
    // rule, 10.1) with a cell header each, sprayed over the links in one unit per link (Coarse)
    // or per cell (Fine), and its request.
    const auto pageWire = [&](uint32_t data) {
        const std::vector<uint32_t> cells = CellFabricCellifier::GetCellChunks(
            CellFabricCellifier::GetChunks(data + CellFabricCellifier::PAGE_HEADER_BYTES));
        const uint32_t units = tc.granularity == FINE
                                   ? static_cast<uint32_t>(cells.size())
                                   : std::min<uint32_t>(links, static_cast<uint32_t>(cells.size()));
        std::vector<uint64_t> unitBytes(units, ifg);
        uint64_t wire = 0;
        for (std::size_t k = 0; k < cells.size(); ++k)
        {
            const uint64_t b = cells[k] * CellFabricCellifier::CHUNK_BYTES + tc.cellHeaderBytes;
            unitBytes[k % units] += b;
            wire += b;
        }
        unit = std::max(unit, unitBytes.front()); // the first unit has the most cells
        return wire + units * static_cast<uint64_t>(ifg) + requestWire;
    };
    uint32_t firstPage = 0; // data bytes of the first page (its FO pass delays the first cell)
    uint32_t lastPage = 0;  // data bytes of the last page (its RxDMA write delays delivery)
    uint64_t wire = 0;
    if (rdma)
    {
        // PostWrite: 128 B words, jobs of at most 2^16 words (11.4.6), each cut into pages of
        // PageSizeWords but the last (10.7.2).
        const uint64_t words = std::max<uint64_t>(1, (m.bytes + 127) / 128);
        const uint64_t maxJob = CellFabricCellifier::MAX_JOB_WORDS;
        const auto jobWire = [&](uint64_t w) {
            const uint64_t full = w / m_pageSizeWords;
            const uint64_t rest = w % m_pageSizeWords;
            uint64_t b = 0;
            if (full > 0)
            {
                b += full * pageWire(m_pageSizeWords * CellFabricCellifier::WORD_BYTES);
            }
            if (rest > 0)
            {
                b += pageWire(static_cast<uint32_t>(rest * CellFabricCellifier::WORD_BYTES));
            }
            return b;
        };
        const uint64_t fullJobs = (words - 1) / maxJob;
        if (fullJobs > 0)
        {
            wire += fullJobs * jobWire(maxJob);
        }
        wire += jobWire(words - fullJobs * maxJob);
        lastPage = static_cast<uint32_t>(((words - fullJobs * maxJob - 1) % m_pageSizeWords + 1) *
                                         CellFabricCellifier::WORD_BYTES);
        firstPage = static_cast<uint32_t>(std::min<uint64_t>(words, m_pageSizeWords) *
                                          CellFabricCellifier::WORD_BYTES);
    }
    else
    {
        // SendMessage: datagrams of at most 16,256 B, one page each (10.5).
        const uint64_t maxBytes = CellFabricCellifier::MAX_DATAGRAM_BYTES;
        const uint64_t full = m.bytes / maxBytes;
        if (full > 0)
        {
            wire += full * pageWire(static_cast<uint32_t>(maxBytes));
        }
        if (m.bytes % maxBytes > 0 || full == 0)
        {
            wire += pageWire(static_cast<uint32_t>(std::max<uint64_t>(1, m.bytes % maxBytes)));
        }
        firstPage = static_cast<uint32_t>(std::max<uint64_t>(1, std::min(m.bytes, maxBytes)));
        lastPage = m.bytes % maxBytes > 0 ? static_cast<uint32_t>(m.bytes % maxBytes)
                                          : static_cast<uint32_t>(std::min(m.bytes, maxBytes));
    }
    // Every link carries the same share of every page's cells, and every switch sprays them
    // over its equal-cost ports (the units' flow hash, m_sprayHash, changes unit by unit).
    if (m_planPorts.size() != links)
    {
        // The links, once (a plain pointer each: planning touches no reference count).
        m_planPorts.clear();
        for (uint32_t i = 0; i < links; ++i)
        {
            m_planPorts.push_back(PeekPointer(m_tx->GetLink(i)));
        }
    }
    for (uint32_t i = 0; i < links; ++i)
    {
        FabricFlowPlan::Share share;
        share.port = m_planPorts[i];
        share.fraction = 1.0 / links;
        share.spray = true;
        plan.shares.push_back(share);
    }
    plan.sprayPorts = true;
    plan.wireBytes = wire;
    plan.unitWireBytes = static_cast<uint32_t>(unit);
    // The jobs of one VOQ are served one after the other (the VOQ-Active lock, 10.7.1.1); the
    // Page Generator serves the VOQs in turn. Datagrams: the VOQ of RxQ 0's datagram OQ from
    // source cluster `cluster` (DoSend): one per destination cluster, keyed here by OQ 0.
    plan.queue = rdma ? CellFabricTxPipeline::GetVoqKey(m.dst, cluster, m_defaultOq, 0)
                      : CellFabricTxPipeline::GetVoqKey(m.dst, cluster, 0, 0);
    // The handshake before the first cell (10.1, 10.3): the CTS (RDMA: sent by the receiver
    // when the message is posted), the page request and its grant, each a control cell through
    // the sender's Tx and the receiver's Rx pipeline and the fabric; then the first page's pass
    // through an FO pipe and the Tx pipeline.
    auto lat = m_ctrlLatency.find(m.dst);
    if (lat == m_ctrlLatency.end())
    {
        lat = m_ctrlLatency
                  .emplace(m.dst,
                           std::make_pair(ControlPathLatency(*this, m.dst),
                                          ControlPathLatency(peer, GetAcceleratorId())))
                  .first;
    }
    const Time toDst = tc.txLatency + lat->second.first + peer.m_rx->GetConfig().rxLatency;
    const Time fromDst =
        peer.m_tx->GetConfig().txLatency + lat->second.second + m_rx->GetConfig().rxLatency;
    const Time fo = Cycles(
        CellFabricCellifier::GetCellBytes(firstPage + CellFabricCellifier::PAGE_HEADER_BYTES),
        tc.foBytesPerCycle);
    plan.setup = (rdma ? fromDst : Time(0)) + toDst + fromDst + fo + tc.txLatency;
    // The destination cluster's RxDMA writes the pages into AMEM at RxDmaBytesPerCycle (one
    // page at a time per cluster: CellFabricRxPipeline::RxDmaNext), slower than 36 links: the
    // messages into one cluster share it, in wire bits (its rate times wire bytes per byte).
    FabricFlowPlan::Limit rxDma;
    rxDma.key = (uint64_t{1} << 63) | (static_cast<uint64_t>(m.dst) << 16) | cluster;
    rxDma.bitsPerSecond = 8.0 * peer.GetRxDmaBytesPerSecond() * static_cast<double>(wire) /
                          static_cast<double>(m.bytes);
    plan.limits.push_back(rxDma);
    // After its last cell: the receiver's Rx pipeline, the last page's RxDMA write and the
    // write's commit (CellFabricRxPipeline::RxDmaNext); the ACK then comes back as a control
    // cell (RDMA).
    const CellFabricRxPipeline::Config& rc = peer.m_rx->GetConfig();
    plan.arrival = rc.rxLatency + peer.Cycles(lastPage, rc.rxDmaBytesPerCycle) +
                   peer.Cycles(rc.commitCycles, 1);
    plan.ackReturn = fromDst;
    // RDMA completes on the ACK after the last page committed (10.3); a datagram when its
    // page has left (no ACK, 10.5).
    plan.completesOnAck = rdma;
    return true;
}

bool
CellFabricAdapter::PostDatagram(const FabricMessage& m,
                                uint32_t dstCluster,
                                uint32_t rxq,
                                uint32_t srcCluster)
{
    return m_dg->Post(m, dstCluster, rxq, srcCluster);
}

const CellFabricDatagramTxQueue&
CellFabricAdapter::GetDatagramTxQueue(uint32_t cluster, uint32_t txq) const
{
    return m_dg->GetTxQueue(cluster, txq);
}

CellFabricVoqTable&
CellFabricAdapter::GetVoqTable()
{
    if (!m_voqTable)
    {
        m_voqTable = std::make_unique<CellFabricVoqTable>(m_clusters);
        m_voqTable->SetDefaultMap();
    }
    return *m_voqTable;
}

const CellFabricOccupancyLimiter&
CellFabricAdapter::GetOccupancyLimiter()
{
    EnsureResources();
    return m_tx->GetOccupancyLimiter();
}

void
CellFabricAdapter::PostRdmaJob(const FabricMessage& m, uint32_t voq, uint32_t srcCluster)
{
    NS_LOG_FUNCTION(this << m.id << m.dst << voq << srcCluster);
    CellFabricVoqTable& table = GetVoqTable();
    CellFabricVoqTable::Target t;
    std::string error;
    NS_ABORT_MSG_UNLESS(table.Lookup(voq, t, error), "CellFabricAdapter: " << error);
    NS_ABORT_MSG_UNLESS(t.chip == m.dst,
                        "CellFabricAdapter: VOQ id " << voq << " goes to chip " << t.chip
                                                     << " (VPFE " << t.vpfe
                                                     << "), not to the message's " << m.dst);
    JobClass cls;
    cls.oq = t.oq;
    cls.high = table.IsHighPriority(voq);
    cls.profile = table.GetProfile(voq);
    cls.srcCluster = srcCluster;
    PostRdmaWrite(m, t.cluster, cls);
}

void
CellFabricAdapter::PostRdmaWrite(const FabricMessage& m, uint32_t dstCluster)
{
    JobClass cls;
    cls.oq = m_defaultOq;
    cls.high = m_defaultPriority == HIGH_PRIORITY;
    cls.profile = m_defaultProfile;
    cls.srcCluster = 0;
    PostRdmaWrite(m, dstCluster, cls);
}

void
CellFabricAdapter::PostRdmaWrite(const FabricMessage& m, uint32_t dstCluster, const JobClass& cls)
{
    NS_LOG_FUNCTION(this << m.id << m.dst << dstCluster << cls.oq << cls.high << cls.profile
                         << cls.srcCluster);
    NS_ABORT_MSG_IF(cls.oq >= CellFabricVoqTable::OQS_PER_VPFE,
                    "CellFabricAdapter: OQ " << cls.oq << " is not below 4 (10.2)");
    NS_ABORT_MSG_IF(cls.profile >= CellFabricOccupancyLimiter::PROFILES,
                    "CellFabricAdapter: occupancy profile " << cls.profile
                                                            << " is not below 8 (10.7.3.1)");
    NS_ABORT_MSG_IF(cls.srcCluster >= m_clusters,
                    "CellFabricAdapter: no source cluster " << cls.srcCluster);
    NS_ABORT_MSG_UNLESS(CellFabricCellifier::IsLegalPageSizeWords(m_pageSizeWords),
                        "CellFabricAdapter: PageSizeWords " << m_pageSizeWords
                                                            << " is not legal (10.7.2)");
    NS_ABORT_MSG_UNLESS(HasPeer(m.dst), "CellFabricAdapter: no adapter for accelerator " << m.dst);
    NS_ABORT_MSG_IF(m.dst == GetAcceleratorId(), "CellFabricAdapter: no loopback");
    NS_ABORT_MSG_IF(dstCluster >= m_clusters, "CellFabricAdapter: no cluster " << dstCluster);
    NS_ABORT_MSG_IF(GetNPorts() == 0, "CellFabricAdapter: no link ports");
    const bool explicitHere = m_jobs->GetConfig().posting == RX_POSTING_EXPLICIT;
    NS_ABORT_MSG_IF(
        explicitHere || GetPeer(m.dst).m_jobs->GetConfig().posting == RX_POSTING_EXPLICIT,
        "CellFabricAdapter: an RDMA message (endpoint API, PostRdmaWrite or "
        "PostRdmaJob) from accelerator "
            << GetAcceleratorId() << " to " << m.dst
            << " posts the receiver's Rx job, but RdmaJobPosting is Explicit at "
            << (explicitHere ? "the sender" : "the receiver") << ": use PostRdmaRx and PostRdmaTx");
    EnsureResources();
    m_jobs->PostWrite(m, dstCluster, cls, m_pageSizeWords);
}

uint64_t
CellFabricAdapter::GetRdmaJobId(uint32_t srcCluster,
                                uint32_t tjid,
                                uint32_t rjid,
                                uint32_t dstCluster,
                                uint8_t epoch)
{
    // the page header's TJID, RJID and epoch (10.6) with the two clusters: what names the job
    // at both ends (bit 0 epoch, 1-8 TJID, 9-16 RJID, 17-19 source and 20-22 destination cluster)
    return CellFabricTxJob::API_JOB_BIT | (epoch & 1) | (static_cast<uint64_t>(tjid & 0xFF) << 1) |
           (static_cast<uint64_t>(rjid & 0xFF) << 9) |
           (static_cast<uint64_t>(srcCluster & 7) << 17) |
           (static_cast<uint64_t>(dstCluster & 7) << 20);
}

bool
CellFabricAdapter::PostRdmaRx(const RdmaRxDescriptor& d, RdmaCallback done, std::string* error)
{
    return m_jobs->PostRx(d, std::move(done), error);
}

bool
CellFabricAdapter::PostRdmaRx(uint32_t cluster,
                              uint32_t srcChip,
                              uint32_t rjid,
                              uint32_t tjid,
                              uint32_t msgVoq,
                              uint64_t amemAddr,
                              uint32_t numWords,
                              RdmaCallback done,
                              std::string* error)
{
    CellFabricVoqTable::Target t;
    std::string voqError;
    if (!GetVoqTable().Lookup(msgVoq, t, voqError))
    {
        return m_jobs->Refuse(error, "CellFabricAdapter PostRdmaRx: message VOQ: " + voqError);
    }
    if (t.chip != srcChip)
    {
        return m_jobs->Refuse(error,
                              "CellFabricAdapter PostRdmaRx: message VOQ " +
                                  std::to_string(msgVoq) + " goes to chip " +
                                  std::to_string(t.chip) + ", not to srcChip " +
                                  std::to_string(srcChip));
    }
    RdmaRxDescriptor d;
    d.cluster = cluster;
    d.rjid = rjid;
    d.tjid = tjid;
    d.srcChip = srcChip;
    d.srcCluster = t.cluster;
    d.amemAddr = amemAddr;
    d.numWords = numWords;
    return PostRdmaRx(d, std::move(done), error);
}

bool
CellFabricAdapter::PostRdmaTx(const RdmaTxDescriptor& d, RdmaCallback done, std::string* error)
{
    return m_jobs->PostTx(d, std::move(done), error);
}

bool
CellFabricAdapter::PostRdmaTx(uint32_t srcCluster,
                              uint32_t tjid,
                              uint32_t rjid,
                              uint32_t dstVoq,
                              uint64_t amemAddr,
                              uint32_t numWords,
                              uint32_t pageSizeWords,
                              RdmaCallback done,
                              std::string* error)
{
    CellFabricVoqTable& table = GetVoqTable();
    CellFabricVoqTable::Target t;
    std::string voqError;
    if (!table.Lookup(dstVoq, t, voqError))
    {
        return m_jobs->Refuse(error, "CellFabricAdapter PostRdmaTx: VOQ: " + voqError);
    }
    RdmaTxDescriptor d;
    d.srcCluster = srcCluster;
    d.tjid = tjid;
    d.rjid = rjid;
    d.dstChip = t.chip;
    d.dstCluster = t.cluster;
    d.oq = t.oq;
    d.high = table.IsHighPriority(dstVoq);
    d.profile = table.GetProfile(dstVoq);
    d.amemAddr = amemAddr;
    d.numWords = numWords;
    d.pageSizeWords = pageSizeWords;
    return PostRdmaTx(d, std::move(done), error);
}

void
CellFabricAdapter::SetRdmaFailureCallback(RdmaFailureCallback cb)
{
    m_jobs->SetFailureCallback(std::move(cb));
}

std::bitset<256>
CellFabricAdapter::GetFailedRdmaJobs(RdmaSide side, uint32_t cluster) const
{
    return m_jobs->GetFailed(side, cluster);
}

uint32_t
CellFabricAdapter::GetActiveRdmaJobs(RdmaSide side, uint32_t cluster) const
{
    return m_jobs->GetActive(side, cluster);
}

uint32_t
CellFabricAdapter::ReleaseFailedRdmaJobs(uint32_t cluster)
{
    return m_jobs->ReleaseFailed(cluster);
}

void
CellFabricAdapter::FreeRxCells(uint32_t cluster, uint32_t cells)
{
    m_rx->FreeRxCells(cluster, cells);
}

uint32_t
CellFabricAdapter::GetRxCbufCells() const
{
    return m_rx->GetConfig().rxCbufCells;
}

uint64_t
CellFabricAdapter::GetOutstandingGrants() const
{
    return m_rx->GetOutstandingGrants();
}

uint32_t
CellFabricAdapter::GetFreeRxCells() const
{
    return m_rx->GetFreeCells();
}

std::vector<CellFabricAdapter::VoqState>
CellFabricAdapter::GetVoqStates() const
{
    return m_tx->GetVoqStates();
}

std::vector<CellFabricAdapter::GrantQueueState>
CellFabricAdapter::GetGrantQueueStates() const
{
    return m_rx->GetGrantQueueStates();
}

uint32_t
CellFabricAdapter::GetMaxOutstandingGrants() const
{
    return m_rx->GetConfig().maxOutstandingGrants;
}

double
CellFabricAdapter::GetRxDmaBytesPerSecond() const
{
    return m_rx->GetConfig().rxDmaBytesPerCycle * m_clockGhz * 1e9;
}

Time
CellFabricAdapter::GetTxLatency() const
{
    return m_tx->GetConfig().txLatency;
}

Time
CellFabricAdapter::GetRxLatency() const
{
    return m_rx->GetConfig().rxLatency;
}

uint32_t
CellFabricAdapter::GetCellHeaderBytes() const
{
    return m_tx->GetConfig().cellHeaderBytes;
}

double
CellFabricAdapter::GetCongestionState(uint32_t dst) const
{
    // the endpoint API's VOQs (source cluster 0) to the destination's clusters
    const CellFabricOccupancyLimiter& limiter = m_tx->GetOccupancyLimiter();
    uint32_t worst = 0;
    for (uint32_t c = 0; c < m_clusters; ++c)
    {
        const uint64_t voq = CellFabricTxPipeline::GetVoqKey(dst, c, m_defaultOq, 0);
        worst = std::max(worst, limiter.GetOutstanding(0, voq));
    }
    const uint32_t xoff = m_resourcesReady ? limiter.GetProfile(m_defaultProfile).xoff
                                           : m_tx->GetConfig().maxOutstandingPages;
    return std::min(1.0, static_cast<double>(worst) / xoff);
}

} // namespace ns3
