/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cell-fabric-adapter.h"

#include "cell-fabric-cellifier.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/fabric-channel.h"
#include "ns3/fabric-clock.h"
#include "ns3/fabric-invariant-check.h"
#include "ns3/fabric-net-device.h"
#include "ns3/fabric-output-queue.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CellFabricAdapter");
NS_OBJECT_ENSURE_REGISTERED(CellFabricAdapter);

namespace
{

/// VOQ keys: bits 0 to 47 (dst * 8 + cluster) * 4 + OQ, the source cluster from bit 48.
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

/// OQ of datagrams of RxQ 0 (RxQ 1: the next) in the assignment of digest 5.2.
constexpr uint32_t DATAGRAM_OQ = 2;
/// OQs per cluster at the Rx OQM (10.8.5), VOQ[1:0] (10.2).
constexpr uint32_t RX_OQS = CellFabricVoqTable::OQS_PER_VPFE;
/// Page-type bits carried with a data page's epoch (bit 0 epoch, bit 1 Retry; 10.6).
constexpr uint8_t PAGE_DATAGRAM = 4;
/// RxQ index bit of a datagram page (10.6).
constexpr uint8_t PAGE_RXQ = 8;
/// Bit 31 of a job id: a job of PostRdmaTx (the endpoint API's ids stay below it).
constexpr uint64_t RDMA_API_BIT = 1ULL << 31;

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
            .AddAttribute("OccupancyProfiles",
                          "The 8 occupancy profiles of the limiter (10.7.3.1) as \"xoff:xon\" "
                          "in pages, comma separated, profile 0 first (at most 8; XON below "
                          "XOFF): a VOQ stops generating pages when XOFF of them are "
                          "outstanding and resumes when they have dropped to XON. Profiles not "
                          "given are {MaxOutstandingPages, MaxOutstandingPages - 1}: a plain "
                          "limit. The spec gives no values.",
                          StringValue(""),
                          MakeStringAccessor(&CellFabricAdapter::m_occupancyProfiles),
                          MakeStringChecker())
            .AddAttribute("QPages",
                          "QPage table entries of the chip, shared by its clusters: pages "
                          "generated and not yet dequeued by FO (10.7.6: about 1024).",
                          UintegerValue(1024),
                          MakeUintegerAccessor(&CellFabricAdapter::m_qpages),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("ClusterQPages",
                          "Most QPages one source cluster may hold (10.7.3.1: configurable, no "
                          "value given; default the whole table).",
                          UintegerValue(1024),
                          MakeUintegerAccessor(&CellFabricAdapter::m_clusterQPages),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("HighGroupPages",
                          "Limit of the pages of a source cluster's high-priority VOQs "
                          "(10.7.3.1 occupancy-tracking group; no value given; default the "
                          "whole table).",
                          UintegerValue(1024),
                          MakeUintegerAccessor(&CellFabricAdapter::m_highGroupPages),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("LowGroupPages",
                          "Limit of the pages of a source cluster's low-priority VOQs "
                          "(10.7.3.1; no value given; default the whole table).",
                          UintegerValue(1024),
                          MakeUintegerAccessor(&CellFabricAdapter::m_lowGroupPages),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute(
                "TxBufBytes",
                "TxBuf of one FO pipe in bytes (10.7[5b]: up to two maximum pages, "
                "32 KB). A dequeued page takes its data's 128 B entries until its "
                "last cell leaves the pipe; a page that finds no pipe with room "
                "waits (10.7.7).",
                UintegerValue(32768),
                MakeUintegerAccessor(&CellFabricAdapter::m_txBufBytes),
                MakeUintegerChecker<uint32_t>(CellFabricCellifier::MAX_PAGE_PAYLOAD_BYTES))
            .AddAttribute("DefaultOq",
                          "OQ (VOQ[1:0]) of the endpoint API's jobs, which name no VOQ (digest "
                          "5.2's assumption: 1 = RDMA low class).",
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
                          "Grant scheduler policy (the spec gives none, digest 5.8). Every "
                          "policy grants a page only when the Rx CBUF has its cells free. "
                          "PacedRoundRobin: one request FIFO per source, sources served round "
                          "robin (clusters too), one grant at a time no faster than the "
                          "receiver drains its CBUF (the page's cells with a request cell at "
                          "the rate of all its links; its data at its cluster's RxDMA rate), so "
                          "sources whose requests come first cannot take the whole free CBUF. "
                          "FifoRoundRobin: the same round robin, granting every page whose "
                          "cells are free at once. Fifo: arrival order, at once.",
                          EnumValue(PACED_ROUND_ROBIN),
                          MakeEnumAccessor(&CellFabricAdapter::m_grantPolicy),
                          MakeEnumChecker(PACED_ROUND_ROBIN,
                                          "PacedRoundRobin",
                                          FIFO_ROUND_ROBIN,
                                          "FifoRoundRobin",
                                          FIFO,
                                          "Fifo"))
            .AddAttribute("TxCtsTimeout",
                          "Tx CTS-wait timer (10.7.1.1): from the VOQ-Active lock to the CTS; "
                          "expiry: Job Failed. Generous: longer than two Rx data-wait timeouts "
                          "(the Rx side resends its CTS once). Not in the spec; 0: off.",
                          TimeValue(MilliSeconds(25)),
                          MakeTimeAccessor(&CellFabricAdapter::m_txCtsTimeout),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("TxActiveTimeout",
                          "Tx-active timer (10.7.1.1): from the CTS (or the retry) until all "
                          "pages are transmitted; expiry: Job Failed (the VOQ makes no "
                          "progress). Not in the spec; 0: off.",
                          TimeValue(MilliSeconds(10)),
                          MakeTimeAccessor(&CellFabricAdapter::m_txActiveTimeout),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("TxAckTimeout",
                          "Tx ACK-wait timer (10.7.1.1): from the last page transmitted to the "
                          "ACK or NACK; expiry: the job is retried once (a lost page or "
                          "message), then Job Failed. Not in the spec (default: well above the "
                          "time a full 24K-cell Rx CBUF takes to drain at one link); 0: off.",
                          TimeValue(MilliSeconds(1)),
                          MakeTimeAccessor(&CellFabricAdapter::m_txAckTimeout),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("RxDataTimeout",
                          "Rx data-wait timer (10.8.1.1): from the CTS to the first data page; "
                          "expiry: the CTS is resent once (retry), a second expiry: Rx Job "
                          "Failed. Not in the spec; 0: off.",
                          TimeValue(MilliSeconds(10)),
                          MakeTimeAccessor(&CellFabricAdapter::m_rxDataTimeout),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("RxCompletionTimeout",
                          "Rx job-completion timer (10.8.1.1): from the first data page to the "
                          "last commit; expiry: Rx Job Failed. Generous: longer than the Tx "
                          "side's ACK timeout plus its retry (Rx timers longer than Tx ones). "
                          "Not in the spec; 0: off.",
                          TimeValue(MilliSeconds(20)),
                          MakeTimeAccessor(&CellFabricAdapter::m_rxCompletionTimeout),
                          MakeTimeChecker(Time(0)))
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
            .AddAttribute("InjectDropMode",
                          "For tests: how the lost page shows. Lost: lost in the fabric before "
                          "RxDMA (drop reason InjectedDrop); the next page of the job fails the "
                          "sequence check and the job is NACKed at its last page (10.8.8), or, "
                          "if the last page is lost, the job timers find it. HeaderCrc: the "
                          "page reaches RxDMA with a header CRC error and is dropped there "
                          "(10.8.8) without a trace in the job, so the job timers find the "
                          "loss.",
                          EnumValue(INJECT_LOST),
                          MakeEnumAccessor(&CellFabricAdapter::m_injectDropMode),
                          MakeEnumChecker(INJECT_LOST, "Lost", INJECT_HEADER_CRC, "HeaderCrc"))
            .AddAttribute("InjectDropAttempts",
                          "For tests: on how many attempts of the job the page is lost (1: the "
                          "retry succeeds; 2: the retry fails too, Job Failed).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&CellFabricAdapter::m_injectDropAttempts),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute(
                "RdmaJobPosting",
                "Who posts a receiver's RDMA Rx jobs. Automatic: the sender's post "
                "(the endpoint API, PostRdmaWrite, PostRdmaJob) posts it at the "
                "receiver at once (the endpoint API has no receive posting). "
                "Explicit: the chip's software posts Rx and Tx jobs with their 8-bit "
                "job ids (PostRdmaRx, PostRdmaTx; 10.3-10.4); the endpoint API's RDMA "
                "messages are refused (datagrams still go). Both ends of a job must "
                "use the same mode.",
                EnumValue(RX_POSTING_AUTOMATIC),
                MakeEnumAccessor(&CellFabricAdapter::m_rxPosting),
                MakeEnumChecker(RX_POSTING_AUTOMATIC, "Automatic", RX_POSTING_EXPLICIT, "Explicit"))
            .AddAttribute("EndpointTransport",
                          "Transport of the endpoint API's messages. Rdma: RDMA write jobs "
                          "(10.3). Datagram: unreliable datagrams (10.5) to RxQ 0, a message "
                          "larger than 16,256 B split into datagrams of 16,256 B and the rest; "
                          "the message is delivered when all its datagrams are written into the "
                          "receiver's RxQ, never if one is dropped, and completed at the sender "
                          "when all are transmitted.",
                          EnumValue(TRANSPORT_RDMA),
                          MakeEnumAccessor(&CellFabricAdapter::m_transport),
                          MakeEnumChecker(TRANSPORT_RDMA, "Rdma", TRANSPORT_DATAGRAM, "Datagram"))
            .AddAttribute("DatagramRxRingSize",
                          "Descriptors in each datagram RxQ ring (2 per cluster); a ring of N "
                          "holds N - 1 free descriptors (11.5.2.2). Not in the spec.",
                          UintegerValue(256),
                          MakeUintegerAccessor(&CellFabricAdapter::m_dgRxRingSize),
                          MakeUintegerChecker<uint32_t>(2))
            .AddAttribute("DatagramRxBufferBytes",
                          "BufferSizeBytes of every RxQ descriptor (11.4.9: at most 16,256 B); "
                          "a larger datagram is dropped (10.8.1.3).",
                          UintegerValue(CellFabricCellifier::MAX_DATAGRAM_BYTES),
                          MakeUintegerAccessor(&CellFabricAdapter::m_dgRxBufferBytes),
                          MakeUintegerChecker<uint32_t>(1, CellFabricCellifier::MAX_DATAGRAM_BYTES))
            .AddAttribute("DatagramRxRepostTime",
                          "Software's time to process one received datagram and post its "
                          "descriptor again (one at a time; not in the spec).",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&CellFabricAdapter::m_dgRxRepostTime),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("DatagramRxRepostLimit",
                          "Descriptors software posts again per RxQ in all (the maximum: no "
                          "limit; 0: the ring runs dry after N - 1 datagrams).",
                          UintegerValue(UINT64_MAX),
                          MakeUintegerAccessor(&CellFabricAdapter::m_dgRxRepostLimit),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("DatagramTxRingSize",
                          "Descriptors in each datagram TxQ ring (2 per cluster); a ring of N "
                          "holds N - 1 (11.5.2.1), more posts wait in software. Not in the spec.",
                          UintegerValue(256),
                          MakeUintegerAccessor(&CellFabricAdapter::m_dgTxRingSize),
                          MakeUintegerChecker<uint32_t>(2))
            .AddAttribute("DatagramTxReorderIds",
                          "TxQ Reorder IDs per TxQ (10.7.1.4: 64): datagrams admitted and "
                          "whose head has not advanced; with none free the TxQ blocks.",
                          UintegerValue(64),
                          MakeUintegerAccessor(&CellFabricAdapter::m_dgTxReorderIds),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("RxDmaTrackingIds",
                          "Write-completion tracking IDs per cluster RxDMA (10.8.8, 11.7.2: "
                          "16): a page is written only with a free one, held until its writes "
                          "are committed; with none free RxDMA stalls.",
                          UintegerValue(16),
                          MakeUintegerAccessor(&CellFabricAdapter::m_trackingIds),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("RxDmaCommitCycles",
                          "AMEM write-completion latency in cycles, from a page's last write to "
                          "its commit (11.7.2: about 100 cycles).",
                          UintegerValue(100),
                          MakeUintegerAccessor(&CellFabricAdapter::m_commitCycles),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RxOqHighPriority",
                          "High-priority OQs of the Rx OQM, one bit per OQ (10.8.5: a simple "
                          "priority + round-robin scheduler over the 4 OQs of a cluster; the "
                          "spec does not say which are high). RxDMA takes the head page of a "
                          "high OQ while one holds a page (strict priority), round robin among "
                          "OQs of the same priority. Default 5: OQs 0 and 2, the high classes "
                          "of RDMA and datagram in the digest's OQ assignment (5.2).",
                          UintegerValue(5),
                          MakeUintegerAccessor(&CellFabricAdapter::m_rxOqHighMask),
                          MakeUintegerChecker<uint32_t>(0, 15))
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
    m_rxOrder.clear();
    m_rxOq.clear();
    m_rxDatagrams.clear();
    m_grantAdmission.clear();
    m_earlyCts.clear();
    m_rdmaFailure = nullptr;
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
    // VOQ keys are (dst * 8 + cluster) * 4 + OQ, the source cluster from bit 48 (see
    // PostRdmaWrite).
    std::map<uint64_t, VoqState> voqs;
    auto at = [&voqs](uint64_t key) -> VoqState& {
        VoqState& v = voqs[key];
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
            VoqState& v = at(key);
            v.jobs = jobs.size();
            const auto head = m_txJobs.find(jobs.front());
            v.cts = head != m_txJobs.end() && head->second.cts;
        }
    }
    for (const auto& [key, n] : m_limiter.GetVoqCounts())
    {
        at(key).outstanding = n;
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
    // the endpoint API's VOQs (source cluster 0) to the destination's clusters
    uint32_t worst = 0;
    for (uint32_t c = 0; c < m_clusters; ++c)
    {
        const uint64_t voq = (static_cast<uint64_t>(dst) * 8 + c) * 4 + m_defaultOq;
        worst = std::max(worst, m_limiter.GetOutstanding(0, voq));
    }
    const uint32_t xoff =
        m_resourcesReady ? m_limiter.GetProfile(m_defaultProfile).xoff : m_maxOutstandingPages;
    return std::min(1.0, static_cast<double>(worst) / xoff);
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
    if (m_transport == TRANSPORT_RDMA)
    {
        PostRdmaWrite(m, cluster);
        return;
    }
    // Datagrams (10.5): one page of at most 16,256 B each; a larger message is split, from the
    // TxQ 0 of the same cluster number at the source (cluster j to cluster j, 10.4's example).
    NS_ABORT_MSG_UNLESS(m_peers && m.dst < m_peers->size() && (*m_peers)[m.dst],
                        "CellFabricAdapter: no adapter for accelerator " << m.dst);
    const uint64_t maxBytes = CellFabricCellifier::MAX_DATAGRAM_BYTES;
    const uint64_t parts = std::max<uint64_t>(1, (m.bytes + maxBytes - 1) / maxBytes);
    auto msg = std::make_shared<TxMessage>();
    msg->msg = m;
    msg->jobsLeft = parts;
    auto rxMsg = std::make_shared<RxDatagramMessage>();
    rxMsg->msg = m;
    rxMsg->left = parts;
    uint64_t left = m.bytes;
    for (uint64_t i = 0; i < parts; ++i)
    {
        const uint64_t payload = std::min(left, maxBytes);
        left -= payload;
        // a message of 0 B is one datagram of 1 B (the least, 11.4.8) carrying no payload
        PostDatagramPart(msg,
                         rxMsg,
                         static_cast<uint32_t>(std::max<uint64_t>(1, payload)),
                         payload,
                         cluster,
                         0,
                         cluster % m_clusters);
    }
}

bool
CellFabricAdapter::PostDatagram(const FabricMessage& m,
                                uint32_t dstCluster,
                                uint32_t rxq,
                                uint32_t srcCluster)
{
    NS_LOG_FUNCTION(this << m.id << m.dst << dstCluster << rxq);
    NS_ABORT_MSG_UNLESS(m_peers && m.dst < m_peers->size() && (*m_peers)[m.dst],
                        "CellFabricAdapter: no adapter for accelerator " << m.dst);
    NS_ABORT_MSG_IF(rxq > 1, "CellFabricAdapter: no RxQ " << rxq << " (two per cluster, 10.5)");
    NS_ABORT_MSG_IF(srcCluster >= m_clusters, "CellFabricAdapter: no cluster " << srcCluster);
    EnsureResources();
    if (m.bytes < 1 || m.bytes > CellFabricCellifier::MAX_DATAGRAM_BYTES)
    {
        // NumBytes is 1 to 16,256 (11.4.8): the descriptor is refused, nothing is sent
        Ptr<FabricPacket> p = Create<FabricPacket>();
        p->src = GetAcceleratorId();
        p->dst = m.dst;
        p->msgId = m.id;
        p->payloadBytes = static_cast<uint32_t>(std::min<uint64_t>(m.bytes, UINT32_MAX));
        Drop(p, DATAGRAM_SIZE);
        return false;
    }
    auto msg = std::make_shared<TxMessage>();
    msg->msg = m;
    msg->jobsLeft = 1;
    auto rxMsg = std::make_shared<RxDatagramMessage>();
    rxMsg->msg = m;
    rxMsg->left = 1;
    PostDatagramPart(msg, rxMsg, m.bytes, m.bytes, dstCluster, rxq, srcCluster);
    return true;
}

void
CellFabricAdapter::PostDatagramPart(const std::shared_ptr<TxMessage>& msg,
                                    const std::shared_ptr<RxDatagramMessage>& rxMsg,
                                    uint32_t bytes,
                                    uint64_t payload,
                                    uint32_t dstCluster,
                                    uint32_t rxq,
                                    uint32_t srcCluster)
{
    const FabricMessage& m = msg->msg;
    NS_ABORT_MSG_IF(m.dst == GetAcceleratorId(), "CellFabricAdapter: no loopback");
    NS_ABORT_MSG_IF(dstCluster >= m_clusters, "CellFabricAdapter: no cluster " << dstCluster);
    NS_ABORT_MSG_IF(m_ports.empty(), "CellFabricAdapter: no link ports");
    EnsureResources();
    // A datagram is a one-page job without job table, CTS or timers (10.7.1.3); it takes the
    // VOQ-Active lock of its datagram VOQ once admitted from its TxQ.
    TxJob job;
    job.id = m_nextJob++;
    job.dst = m.dst;
    job.cluster = dstCluster;
    // the datagram OQ of its RxQ (digest 5.2), one VOQ per source cluster (10.7.1, 10.7.3.1)
    job.voq = ((static_cast<uint64_t>(m.dst) * 8 + dstCluster) * 4 + DATAGRAM_OQ + rxq) |
              (static_cast<uint64_t>(srcCluster) << SRC_CLUSTER_SHIFT);
    job.srcCluster = srcCluster;
    job.pages = {bytes};
    job.message = msg;
    job.cts = true;
    job.datagram = true;
    job.rxq = rxq;
    job.txq = srcCluster * 2 + rxq;
    const uint64_t id = job.id;
    const uint32_t txq = job.txq;
    m_txJobs.emplace(id, std::move(job));
    ++m_stats.datagramsPosted;
    (*m_peers)[m.dst]->ExpectDatagram(GetAcceleratorId(), id, {rxMsg, payload});
    m_dgTx[txq].Post(id);
    PumpTxQueue(txq);
}

void
CellFabricAdapter::PumpTxQueue(uint32_t txq)
{
    uint64_t id = 0;
    while (m_dgTx[txq].Admit(id))
    {
        const uint64_t voq = m_txJobs.at(id).voq;
        m_voqJobs[voq].push_back(id);
        if (m_voqJobs[voq].size() == 1)
        {
            ActivateNext(voq); // the VOQ was free
        }
    }
}

void
CellFabricAdapter::ExpectDatagram(uint32_t src, uint64_t job, const RxDatagram& dg)
{
    EnsureResources();
    m_rxDatagrams[{src, job}] = dg;
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
    NS_ABORT_MSG_UNLESS(m_peers && m.dst < m_peers->size() && (*m_peers)[m.dst],
                        "CellFabricAdapter: no adapter for accelerator " << m.dst);
    NS_ABORT_MSG_IF(m.dst == GetAcceleratorId(), "CellFabricAdapter: no loopback");
    NS_ABORT_MSG_IF(dstCluster >= m_clusters, "CellFabricAdapter: no cluster " << dstCluster);
    NS_ABORT_MSG_IF(m_ports.empty(), "CellFabricAdapter: no link ports");
    NS_ABORT_MSG_IF(m_rxPosting == RX_POSTING_EXPLICIT ||
                        (*m_peers)[m.dst]->m_rxPosting == RX_POSTING_EXPLICIT,
                    "CellFabricAdapter: an RDMA message (endpoint API, PostRdmaWrite or "
                    "PostRdmaJob) from accelerator "
                        << GetAcceleratorId() << " to " << m.dst
                        << " posts the receiver's Rx job, but RdmaJobPosting is Explicit at "
                        << (m_rxPosting == RX_POSTING_EXPLICIT ? "the sender" : "the receiver")
                        << ": use PostRdmaRx and PostRdmaTx");
    EnsureResources();
    auto msg = std::make_shared<TxMessage>();
    msg->msg = m;
    // NumWords <= 2^16 per job (11.4.6): a larger message is several jobs to the same VOQ.
    const uint64_t words = std::max<uint64_t>(1, (m.bytes + 127) / 128);
    const uint64_t jobs =
        (words + CellFabricCellifier::MAX_JOB_WORDS - 1) / CellFabricCellifier::MAX_JOB_WORDS;
    msg->jobsLeft = jobs;
    // one VOQ-Active lock and one occupancy count per VOQ and source cluster (10.7.1, 10.7.3.1)
    const uint64_t voq = ((static_cast<uint64_t>(m.dst) * 8 + dstCluster) * 4 + cls.oq) |
                         (static_cast<uint64_t>(cls.srcCluster) << SRC_CLUSTER_SHIFT);
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
        job.srcCluster = cls.srcCluster;
        job.high = cls.high;
        job.profile = cls.profile;
        job.pages = CellFabricCellifier::GetRdmaPages(jobWords, m_pageSizeWords);
        job.pageSizeWords = m_pageSizeWords;
        job.message = msg;
        // the endpoint API's ids stay below 2^31 (bit 31 marks the jobs of PostRdmaTx)
        NS_ABORT_MSG_IF(job.id >= (1ULL << 31), "CellFabricAdapter: job ids exhausted");
        RxJob rx;
        rx.pageBytes = static_cast<uint64_t>(m_pageSizeWords) * CellFabricCellifier::WORD_BYTES;
        rx.src = GetAcceleratorId();
        rx.job = job.id;
        rx.cluster = dstCluster;
        rx.pages = job.pages.size();
        rx.totalWords = jobWords;
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

uint64_t
CellFabricAdapter::GetRdmaJobId(uint32_t srcCluster,
                                uint32_t tjid,
                                uint32_t rjid,
                                uint32_t dstCluster,
                                uint8_t epoch)
{
    // the page header's TJID, RJID and epoch (10.6) with the two clusters: what names the job
    // at both ends (bit 0 epoch, 1-8 TJID, 9-16 RJID, 17-19 source and 20-22 destination cluster)
    return RDMA_API_BIT | (epoch & 1) | (static_cast<uint64_t>(tjid & 0xFF) << 1) |
           (static_cast<uint64_t>(rjid & 0xFF) << 9) |
           (static_cast<uint64_t>(srcCluster & 7) << 17) |
           (static_cast<uint64_t>(dstCluster & 7) << 20);
}

bool
CellFabricAdapter::RefuseRdma(std::string* error, const std::string& why)
{
    ++m_stats.rdmaRefused;
    NS_LOG_WARN("acc" << GetAcceleratorId() << ": " << why);
    if (error)
    {
        *error = why;
    }
    return false;
}

bool
CellFabricAdapter::PostRdmaRx(const RdmaRxDescriptor& d, RdmaCallback done, std::string* error)
{
    NS_LOG_FUNCTION(this << d.cluster << d.rjid << d.tjid << d.srcChip << d.srcCluster
                         << d.numWords);
    std::ostringstream why;
    why << "CellFabricAdapter acc" << GetAcceleratorId() << " PostRdmaRx (cluster " << d.cluster
        << ", RJID " << d.rjid << "): ";
    if (m_rxPosting != RX_POSTING_EXPLICIT)
    {
        return RefuseRdma(error, why.str() + "RdmaJobPosting is Automatic (set it to Explicit)");
    }
    if (d.cluster >= m_clusters)
    {
        return RefuseRdma(error,
                          why.str() + "cluster " + std::to_string(d.cluster) + " is not below " +
                              std::to_string(m_clusters));
    }
    if (!m_peers || d.srcChip >= m_peers->size() || !(*m_peers)[d.srcChip] ||
        d.srcChip == GetAcceleratorId())
    {
        return RefuseRdma(error,
                          why.str() + "srcChip " + std::to_string(d.srcChip) +
                              " is not another chip of the fabric");
    }
    if (d.srcCluster >= m_clusters)
    {
        return RefuseRdma(error,
                          why.str() + "srcCluster " + std::to_string(d.srcCluster) +
                              " is not below " + std::to_string(m_clusters));
    }
    if (d.tjid >= CellFabricRdmaJobIds::IDS)
    {
        return RefuseRdma(error,
                          why.str() + "TJID " + std::to_string(d.tjid) +
                              " is not 8 bits (0 to 255, 10.4)");
    }
    if (d.numWords < 1 || d.numWords > CellFabricCellifier::MAX_JOB_WORDS)
    {
        return RefuseRdma(error,
                          why.str() + "NumWords " + std::to_string(d.numWords) +
                              " is not in [1, 65536] (11.4.6)");
    }
    EnsureResources();
    uint8_t epoch = 0;
    std::string idError;
    if (!m_rxIds.Acquire(d.cluster, d.rjid, epoch, idError))
    {
        return RefuseRdma(error, why.str() + "RJID: " + idError);
    }
    const uint64_t job = GetRdmaJobId(d.srcCluster, d.tjid, d.rjid, d.cluster, epoch);
    RxJob rx;
    rx.src = d.srcChip;
    rx.job = job;
    rx.cluster = d.cluster;
    rx.pages = 0; // learnt from the sender (the page headers' sizes and Last-page flag)
    rx.totalWords = d.numWords;
    rx.bytes = static_cast<uint64_t>(d.numWords) * CellFabricCellifier::WORD_BYTES;
    rx.lastJob = false;
    rx.api = true;
    rx.done = std::move(done);
    rx.info.side = RDMA_RX;
    rx.info.cluster = d.cluster;
    rx.info.jid = d.rjid;
    rx.info.peerJid = d.tjid;
    rx.info.peerChip = d.srcChip;
    rx.info.peerCluster = d.srcCluster;
    rx.info.epoch = epoch;
    rx.info.amemAddr = d.amemAddr;
    rx.info.numWords = d.numWords;
    rx.info.posted = FabricClock::Now();
    // the Rx job table entry is written and the CTS goes out (10.8.1: CTS Send)
    PostRxJob(d.srcChip, job, rx);
    return true;
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
        return RefuseRdma(error, "CellFabricAdapter PostRdmaRx: message VOQ: " + voqError);
    }
    if (t.chip != srcChip)
    {
        return RefuseRdma(error,
                          "CellFabricAdapter PostRdmaRx: message VOQ " + std::to_string(msgVoq) +
                              " goes to chip " + std::to_string(t.chip) + ", not to srcChip " +
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
    NS_LOG_FUNCTION(this << d.srcCluster << d.tjid << d.rjid << d.dstChip << d.dstCluster
                         << d.numWords << d.pageSizeWords);
    std::ostringstream why;
    why << "CellFabricAdapter acc" << GetAcceleratorId() << " PostRdmaTx (cluster " << d.srcCluster
        << ", TJID " << d.tjid << "): ";
    auto refuse = [&](const std::string& what) { return RefuseRdma(error, why.str() + what); };
    if (m_rxPosting != RX_POSTING_EXPLICIT)
    {
        return refuse("RdmaJobPosting is Automatic (set it to Explicit)");
    }
    if (d.srcCluster >= m_clusters)
    {
        return refuse("srcCluster " + std::to_string(d.srcCluster) + " is not below " +
                      std::to_string(m_clusters));
    }
    if (!m_peers || d.dstChip >= m_peers->size() || !(*m_peers)[d.dstChip] ||
        d.dstChip == GetAcceleratorId())
    {
        return refuse("dstChip " + std::to_string(d.dstChip) +
                      " is not another chip of the fabric");
    }
    if ((*m_peers)[d.dstChip]->m_rxPosting != RX_POSTING_EXPLICIT)
    {
        return refuse("chip " + std::to_string(d.dstChip) +
                      " has RdmaJobPosting Automatic (both ends must be Explicit)");
    }
    if (d.dstCluster >= m_clusters)
    {
        return refuse("dstCluster " + std::to_string(d.dstCluster) + " is not below " +
                      std::to_string(m_clusters));
    }
    if (d.rjid >= CellFabricRdmaJobIds::IDS)
    {
        return refuse("RJID " + std::to_string(d.rjid) + " is not 8 bits (0 to 255, 10.4)");
    }
    if (d.numWords < 1 || d.numWords > CellFabricCellifier::MAX_JOB_WORDS)
    {
        return refuse("NumWords " + std::to_string(d.numWords) + " is not in [1, 65536] (11.4.6)");
    }
    if (!CellFabricCellifier::IsLegalPageSizeWords(d.pageSizeWords))
    {
        return refuse("PageSizeWords " + std::to_string(d.pageSizeWords) +
                      " is not legal: (words x 128 + 16) mod 176 = 0 with words in [32, 127], "
                      "{37, 48, 59, 70, 81, 92, 103, 114, 125} (10.7.2)");
    }
    if (d.oq >= CellFabricVoqTable::OQS_PER_VPFE)
    {
        return refuse("OQ " + std::to_string(d.oq) + " is not below 4 (10.2)");
    }
    if (d.profile >= CellFabricOccupancyLimiter::PROFILES)
    {
        return refuse("occupancy profile " + std::to_string(d.profile) +
                      " is not below 8 (10.7.3.1)");
    }
    if (m_ports.empty())
    {
        return refuse("no link ports");
    }
    EnsureResources();
    uint8_t epoch = 0;
    std::string idError;
    if (!m_txIds.Acquire(d.srcCluster, d.tjid, epoch, idError))
    {
        return refuse("TJID: " + idError);
    }
    TxJob job;
    job.id = GetRdmaJobId(d.srcCluster, d.tjid, d.rjid, d.dstCluster, epoch);
    job.dst = d.dstChip;
    job.cluster = d.dstCluster;
    job.voq = ((static_cast<uint64_t>(d.dstChip) * 8 + d.dstCluster) * 4 + d.oq) |
              (static_cast<uint64_t>(d.srcCluster) << SRC_CLUSTER_SHIFT);
    job.srcCluster = d.srcCluster;
    job.high = d.high;
    job.profile = d.profile;
    job.pages = CellFabricCellifier::GetRdmaPages(d.numWords, d.pageSizeWords);
    job.pageSizeWords = d.pageSizeWords;
    job.api = true;
    job.done = std::move(done);
    job.info.side = RDMA_TX;
    job.info.cluster = d.srcCluster;
    job.info.jid = d.tjid;
    job.info.peerJid = d.rjid;
    job.info.peerChip = d.dstChip;
    job.info.peerCluster = d.dstCluster;
    job.info.epoch = epoch;
    job.info.amemAddr = d.amemAddr;
    job.info.numWords = d.numWords;
    job.info.posted = FabricClock::Now();
    const uint64_t id = job.id;
    const uint64_t voq = job.voq;
    const uint32_t pages = job.pages.size();
    // its CTS may have come first (a pre-posted Rx job, 10.3): no CTS wait then
    const auto early = m_earlyCts.find({d.dstChip, id});
    if (early != m_earlyCts.end())
    {
        m_earlyCts.erase(early);
        job.cts = true;
        (*m_peers)[d.dstChip]->LearnRdmaPages(GetAcceleratorId(), id, d.pageSizeWords, pages);
    }
    m_txJobs.emplace(id, std::move(job));
    ++m_stats.jobsPosted;
    m_voqJobs[voq].push_back(id);
    if (m_voqJobs[voq].size() == 1)
    {
        ActivateNext(voq); // the VOQ was free
    }
    return true;
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
        return RefuseRdma(error, "CellFabricAdapter PostRdmaTx: VOQ: " + voqError);
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
CellFabricAdapter::LearnRdmaPages(uint32_t src,
                                  uint64_t job,
                                  uint32_t pageSizeWords,
                                  uint32_t pages)
{
    auto it = m_rxJobs.find({src, job});
    if (it == m_rxJobs.end() || it->second.pages != 0)
    {
        return;
    }
    it->second.pages = pages;
    it->second.pageBytes = static_cast<uint64_t>(pageSizeWords) * CellFabricCellifier::WORD_BYTES;
    it->second.counted.assign(pages, false);
}

bool
CellFabricAdapter::IsStaleRdmaJob(uint32_t src, uint64_t job) const
{
    return (job & RDMA_API_BIT) && m_rxJobs.count({src, job ^ 1});
}

void
CellFabricAdapter::SetRdmaFailureCallback(RdmaFailureCallback cb)
{
    m_rdmaFailure = std::move(cb);
}

std::bitset<256>
CellFabricAdapter::GetFailedRdmaJobs(RdmaSide side, uint32_t cluster) const
{
    if (!m_resourcesReady)
    {
        return {};
    }
    return side == RDMA_TX ? m_txIds.GetFailed(cluster) : m_rxIds.GetFailed(cluster);
}

uint32_t
CellFabricAdapter::GetActiveRdmaJobs(RdmaSide side, uint32_t cluster) const
{
    if (!m_resourcesReady)
    {
        return 0;
    }
    return side == RDMA_TX ? m_txIds.GetActive(cluster) : m_rxIds.GetActive(cluster);
}

void
CellFabricAdapter::ReportRdmaFailure(RdmaSide side, const RdmaCompletion& info)
{
    CellFabricRdmaJobIds& ids = side == RDMA_TX ? m_txIds : m_rxIds;
    ids.Fail(info.cluster, info.jid);
    RdmaFailure f;
    f.side = side;
    f.cluster = info.cluster;
    f.jid = info.jid;
    f.peerChip = info.peerChip;
    f.epoch = info.epoch;
    f.failed = ids.GetFailed(info.cluster);
    // The interrupt is raised after the event that failed the job (same time): software may
    // release the failed jobs in it, which drops the records the caller still holds.
    Simulator::ScheduleNow([this, f]() {
        if (m_rdmaFailure)
        {
            m_rdmaFailure(f);
        }
    });
}

uint32_t
CellFabricAdapter::ReleaseFailedRdmaJobs(uint32_t cluster)
{
    NS_LOG_FUNCTION(this << cluster);
    if (!m_resourcesReady || cluster >= m_clusters)
    {
        return 0;
    }
    const std::vector<uint32_t> tx = m_txIds.ReleaseFailed(cluster);
    const std::vector<uint32_t> rx = m_rxIds.ReleaseFailed(cluster);
    // their records go: later grants and pages of them find no job (UnknownJob)
    for (auto it = m_txJobs.begin(); it != m_txJobs.end();)
    {
        const bool release =
            it->second.api && it->second.failed && it->second.srcCluster == cluster;
        it = release ? m_txJobs.erase(it) : std::next(it);
    }
    for (auto it = m_rxJobs.begin(); it != m_rxJobs.end();)
    {
        const bool release = it->second.api && it->second.failed && it->second.cluster == cluster;
        it = release ? m_rxJobs.erase(it) : std::next(it);
    }
    return tx.size() + rx.size();
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
    OnActivated(it->second.front());
    Generate();
}

void
CellFabricAdapter::OnActivated(uint64_t id)
{
    TxJob& job = m_txJobs.at(id);
    if (job.datagram)
    {
        job.state = TX_ACTIVE; // no CTS, no timer (10.5)
        return;
    }
    // CTS Wait until the CTS is seen (it may have come first), then Tx Active (10.7.1.1)
    job.state = job.cts ? TX_ACTIVE : TX_CTS_WAIT;
    Arm(job.timer, job.cts ? m_txActiveTimeout : m_txCtsTimeout, [this, id]() { OnTxTimeout(id); });
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
    m_rxOq.assign(m_clusters, {});
    m_rxOqNext.assign(m_clusters, {0, 0});
    m_rxDmaBusy.assign(m_clusters, false);
    m_trackFree.assign(m_clusters, std::vector<Time>(m_trackingIds, Time(0)));
    // datagram queues: two TxQs and two RxQs per cluster (10.5); sized once, never moved
    m_dgRx.assign(m_clusters * 2, CellFabricDatagramRxRing());
    for (auto& ring : m_dgRx)
    {
        ring.Configure(m_dgRxRingSize, m_dgRxBufferBytes, m_dgRxRepostTime, m_dgRxRepostLimit);
    }
    m_dgTx.assign(m_clusters * 2, CellFabricDatagramTxQueue());
    for (auto& q : m_dgTx)
    {
        q.Configure(m_dgTxRingSize, m_dgTxReorderIds);
    }
    m_foFree.assign(m_foPipes, Time(0));
    m_txBuf.assign(m_foPipes, {});
    m_txBufUsed.assign(m_foPipes, 0);
    m_limiter.Configure(m_qpages,
                        m_clusterQPages,
                        m_highGroupPages,
                        m_lowGroupPages,
                        m_maxOutstandingPages);
    std::istringstream profiles(m_occupancyProfiles);
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
    m_clusterGrantNext.assign(m_clusters, Time(0));
    m_txIds.Configure(m_clusters);
    m_rxIds.Configure(m_clusters);
    m_linkBytesPerSecond = 0;
    for (const auto& port : m_ports)
    {
        if (Ptr<FabricChannel> ch = port->GetFabricChannel())
        {
            m_linkBytesPerSecond += ch->GetDataRate().GetBitRate() / 8.0;
        }
    }
}

template <typename F>
void
CellFabricAdapter::Arm(EventId& ev, Time delay, F fn)
{
    if (ev.IsRunning())
    {
        Simulator::Remove(ev); // removed, not cancelled: an idle run ends when its work does
    }
    ev = delay.IsStrictlyPositive() ? Simulator::Schedule(delay, fn) : EventId();
}

void
CellFabricAdapter::PostRxJob(uint32_t src, uint64_t job, const RxJob& rx)
{
    NS_LOG_FUNCTION(this << src << job);
    EnsureResources();
    RxJob& r = m_rxJobs[{src, job}];
    r = rx;
    r.counted.assign(rx.pages, false);
    SendControl(src, CTS, job, 0, 0);
    // Rx Data Wait (10.8.1.1): no data within RxDataTimeout suggests a lost CTS
    Arm(r.timer, m_rxDataTimeout, [this, src, job]() { OnRxTimeout(src, job); });
}

void
CellFabricAdapter::SendControl(uint32_t dst,
                               UnitType type,
                               uint64_t job,
                               uint64_t page,
                               uint64_t cells)
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
        auto ready = [this, &poolWait](const TxJob& job) {
            if (!job.cts || job.nextRequest >= job.pages.size())
            {
                return false;
            }
            const auto block = m_limiter.Check(job.srcCluster, job.voq, job.profile, job.high);
            poolWait |= block == CellFabricOccupancyLimiter::POOL;
            return block == CellFabricOccupancyLimiter::NONE;
        };
        std::vector<bool> highReady(m_clusters, false);
        for (uint64_t id : m_active)
        {
            const TxJob& job = m_txJobs.at(id);
            if (job.high && ready(job))
            {
                highReady[job.srcCluster] = true;
            }
        }
        for (uint32_t i = 0; i < n; ++i)
        {
            const uint64_t id = m_active[(m_activeRr + i) % n];
            TxJob& job = m_txJobs.at(id);
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
            m_pageGenTrace(id, page, outstanding);
            const uint32_t cells = CellFabricCellifier::GetCells(
                job.pages[page] + CellFabricCellifier::PAGE_HEADER_BYTES);
            // the request carries the job's epoch (bit 32; bit 34 marks a datagram), echoed by
            // its grant
            const uint64_t flags = job.epoch | (job.datagram ? PAGE_DATAGRAM : 0);
            SendControl(job.dst,
                        REQUEST,
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
            // the last page is enqueued: release the VOQ-Active lock
            const uint64_t voq = m_txJobs.at(id).voq;
            m_active.erase(std::find(m_active.begin(), m_active.end(), id));
            m_voqJobs[voq].pop_front();
            if (!m_voqJobs[voq].empty())
            {
                m_active.push_back(m_voqJobs[voq].front());
                OnActivated(m_voqJobs[voq].front());
            }
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
CellFabricAdapter::OnGrant(uint64_t jobId,
                           uint32_t page,
                           uint8_t epoch,
                           uint32_t from,
                           uint64_t info)
{
    NS_LOG_FUNCTION(this << jobId << page);
    auto jobIt = m_txJobs.find(jobId);
    if (jobIt == m_txJobs.end())
    {
        // A grant for a job acknowledged meanwhile (its retry's requests were out when the
        // first attempt's ACK came): the page is still sent, as the hardware sends what its VOQ
        // holds, and the receiver drops it and frees the cells it reserved. Its size is not
        // known any more: the grant's cells, full (the same cell count).
        NS_LOG_LOGIC("grant for retired job " << jobId);
        const uint32_t grantedCells = static_cast<uint32_t>(info & 0xFFFF);
        const uint32_t cluster = static_cast<uint32_t>((info >> 16) & 0xFFFF);
        const bool freed = m_limiter.Free(QPageHandle(jobId, page, epoch));
        NS_ASSERT_MSG(freed, "grant for a page without a QPage");
        const uint32_t fullBytes =
            grantedCells * CellFabricCellifier::MAX_CELL_CHUNKS * CellFabricCellifier::CHUNK_BYTES -
            CellFabricCellifier::PAGE_HEADER_BYTES;
        Simulator::Schedule(m_txLatency,
                            &CellFabricAdapter::PageOut,
                            this,
                            jobId,
                            page,
                            from,
                            cluster,
                            fullBytes,
                            epoch);
        Generate();
        return;
    }
    TxJob& job = jobIt->second;
    GrantedPage g;
    g.job = jobId;
    g.page = page;
    g.epoch = epoch;
    g.dst = job.dst;
    g.cluster = job.cluster;
    g.bytes = job.pages.at(page);
    // bit 1: the Retry bit of the page header (10.6), set on the pages of a retried job
    if (job.retried && epoch == job.epoch)
    {
        g.epoch |= 2;
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
        Time next = Time::Max();
        for (const auto& pages : m_txBuf)
        {
            if (!pages.empty())
            {
                next = std::min(next, pages.front().first);
            }
        }
        NS_ASSERT(next != Time::Max() && next > FabricClock::Now());
        m_foWake =
            Simulator::Schedule(next - FabricClock::Now(), &CellFabricAdapter::DrainFoWait, this);
    }
}

bool
CellFabricAdapter::Dequeue(const GrantedPage& g)
{
    const Time now = FabricClock::Now();
    // the page's data in 128 B TxBuf entries (10.7.7-8)
    const uint32_t need = (g.bytes + 127) / 128 * 128;
    // FO pipes (10.7[5a]): the page goes to the pipe that frees first, at 88 B per cycle, among
    // those whose TxBuf has room for it; a page holds its space until its last cell is out.
    uint32_t best = m_foPipes;
    for (uint32_t i = 0; i < m_foPipes; ++i)
    {
        auto& pages = m_txBuf[i];
        while (!pages.empty() && pages.front().first <= now)
        {
            m_txBufUsed[i] -= pages.front().second;
            pages.pop_front();
        }
        if (m_txBufUsed[i] + need <= m_txBufBytes &&
            (best == m_foPipes || m_foFree[i] < m_foFree[best]))
        {
            best = i;
        }
    }
    if (best == m_foPipes)
    {
        return false;
    }
    const uint32_t cellBytes =
        CellFabricCellifier::GetCellBytes(g.bytes + CellFabricCellifier::PAGE_HEADER_BYTES);
    const Time start = std::max(now, m_foFree[best]);
    m_foFree[best] = start + Cycles(cellBytes, m_foBytesPerCycle);
    m_txBuf[best].emplace_back(m_foFree[best], need);
    m_txBufUsed[best] += need;
    // The QPage is retired at FO dequeue (10.7.5-6): the occupancy limiter counts it no more.
    const bool freed = m_limiter.Free(QPageHandle(g.job, g.page, g.epoch));
    NS_ASSERT_MSG(freed, "dequeue of a page without a QPage");
    Simulator::Schedule(m_foFree[best] - now + m_txLatency,
                        &CellFabricAdapter::PageOut,
                        this,
                        g.job,
                        g.page,
                        g.dst,
                        g.cluster,
                        g.bytes,
                        g.epoch);
    return true;
}

void
CellFabricAdapter::DrainFoWait()
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
        Time next = Time::Max();
        for (const auto& pages : m_txBuf)
        {
            if (!pages.empty())
            {
                next = std::min(next, pages.front().first);
            }
        }
        m_foWake =
            Simulator::Schedule(next - FabricClock::Now(), &CellFabricAdapter::DrainFoWait, this);
    }
    if (any)
    {
        Generate();
    }
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
    // The destination OQ (VOQ[1:0], 10.2) travels in the Juniper cells, not in the page header
    // (digest 5.3); the receiver's Rx OQM queues the page on it (10.8.5). A retired job's page
    // (its grant came after the ACK) names OQ 0: the receiver drops it before the OQM.
    auto sent = m_txJobs.find(job);
    const uint32_t oq =
        sent != m_txJobs.end() ? static_cast<uint32_t>(sent->second.voq % RX_OQS) : 0;
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
        p->ctrlValue = page | (static_cast<uint64_t>(epoch) << 32); // epoch bit 32, retry 33
        p->ctrlValue2 = (static_cast<uint64_t>(cells.size()) << 32) | nCells[i];
        p->psn = cluster | (static_cast<uint64_t>(oq) << 32); // the Juniper cell's OQ
        p->offset = bytes;                                    // the page's data bytes
        p->payloadBytes = nBytes[i];
        p->headerBytes = nCells[i] * m_cellHeaderBytes;
        EnqueueOnLink((first + i) % links, p);
    }
    ++m_stats.pagesSent;
    m_stats.cellsSent += cells.size();
    m_stats.pageBytesSent += bytes + CellFabricCellifier::PAGE_HEADER_BYTES;
    m_pageTxTrace(GetAcceleratorId(), job, page, cells.size());
    auto it = m_txJobs.find(job);
    if (it != m_txJobs.end() && it->second.datagram)
    {
        // the datagram's page is out: its TxQ descriptor is done (10.7.1.4); no ACK
        const uint32_t txq = it->second.txq;
        std::shared_ptr<TxMessage> msg = it->second.message;
        m_txJobs.erase(it);
        ++m_stats.datagramsSent;
        if (--msg->jobsLeft == 0)
        {
            FabricMessage m = msg->msg;
            m.completed = FabricClock::Now();
            NotifyCompleted(m);
        }
        m_dgTx[txq].Done(job);
        PumpTxQueue(txq);
        return;
    }
    // all pages of the attempt transmitted: ACK Wait (10.7.1.1)
    if (it != m_txJobs.end() && it->second.state == TX_ACTIVE && (epoch & 1) == it->second.epoch &&
        ++it->second.sent == it->second.pages.size())
    {
        it->second.state = TX_ACK_WAIT;
        Arm(it->second.timer, m_txAckTimeout, [this, job]() { OnTxTimeout(job); });
    }
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
    const uint32_t nCells = static_cast<uint32_t>(p->ctrlValue2 & 0xFFFFFFFFULL);
    const uint32_t expected = static_cast<uint32_t>(p->ctrlValue2 >> 32);
    m_stats.cellsReceived += nCells;
    // Reorder and reassembly (10.8[3-4]): the page is complete when all its cells are here, in
    // whatever order and on whatever links they came.
    const uint32_t page = static_cast<uint32_t>(p->ctrlValue & 0xFFFFFFFFULL);
    const uint8_t flags = static_cast<uint8_t>(p->ctrlValue >> 32);
    const uint8_t epoch = flags & 1;
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
    if (flags & PAGE_DATAGRAM)
    {
        // a datagram page: no job, no order among pages; on to its cluster's RxDMA
        RxDmaPage pg;
        pg.unit = p;
        pg.src = p->src;
        pg.job = p->msgId;
        pg.page = page;
        pg.bytes = static_cast<uint32_t>(p->offset);
        pg.cells = pageCells;
        pg.cluster = static_cast<uint32_t>(p->psn);
        pg.oq = static_cast<uint32_t>(p->psn >> 32);
        pg.datagram = true;
        pg.rxq = (flags & PAGE_RXQ) ? 1 : 0;
        Simulator::Schedule(m_rxLatency, &CellFabricAdapter::EnqueueRxDma, this, pg);
        return;
    }
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
CellFabricAdapter::OnPageInOrder(const Ptr<FabricPacket>& p, uint32_t pageCells)
{
    const uint32_t page = static_cast<uint32_t>(p->ctrlValue & 0xFFFFFFFFULL);
    const uint8_t epoch = static_cast<uint8_t>((p->ctrlValue >> 32) & 1);
    const bool retryBit = (p->ctrlValue >> 33) & 1;
    auto jt = m_rxJobs.find({p->src, p->msgId});
    if (jt == m_rxJobs.end())
    {
        // a page of a job retired here (e.g. a retry's page after the first attempt's ACK):
        // dropped; it was granted here, so its cells are freed (psn: its cluster). If its RJID
        // holds a job of the other epoch, the page is stale (10.4, 10.8.8).
        Drop(p, IsStaleRdmaJob(p->src, p->msgId) ? STALE_EPOCH : UNKNOWN_JOB);
        ReleasePage(static_cast<uint32_t>(p->psn), pageCells);
        return;
    }
    RxJob& rx = jt->second;
    if (rx.failed)
    {
        // Rx Job Failed: its pages are dropped, their cells freed
        Drop(p, RX_JOB_FAILED);
        ReleasePage(rx.cluster, pageCells);
        return;
    }
    if (epoch != rx.epoch && retryBit && !rx.retry)
    {
        // The first page of a retry the sender started on its ACK-wait timeout (no NACK from
        // here): the Rx job restarts (10.8.1.1: sequence and offset reset, retry state).
        NS_LOG_LOGIC("retry of job " << p->msgId << " from " << p->src << " begins");
        rx.retry = true;
        rx.epoch = epoch;
        rx.committed = 0;
        rx.nextSeq = 0;
        rx.words = 0;
        rx.error = false;
    }
    if (epoch != rx.epoch)
    {
        // a page of the job's stale epoch (sent before a NACK): dropped, its cells freed
        Drop(p, STALE_EPOCH);
        ReleasePage(rx.cluster, pageCells);
        return;
    }
    const bool injected =
        p->msgId == m_injectDropJob && page == m_injectDropPage && rx.losses < m_injectDropAttempts;
    if (injected && m_injectDropMode == INJECT_LOST)
    {
        // Lost in the fabric (for tests): it never reaches RxDMA; the sequence check of the
        // next page finds the gap (10.8.8)
        ++rx.losses;
        Drop(p, INJECTED_DROP);
        ReleasePage(rx.cluster, pageCells);
        return;
    }
    if (!rx.dataSeen && !injected)
    {
        // Rx Data Active (10.8.1.1): the job-completion timer runs from the first data page
        rx.dataSeen = true;
        const uint32_t src = p->src;
        const uint64_t job = p->msgId;
        Arm(rx.timer, m_rxCompletionTimeout, [this, src, job]() { OnRxTimeout(src, job); });
    }
    RxDmaPage pg;
    pg.unit = p;
    pg.src = p->src;
    pg.job = p->msgId;
    pg.page = page;
    pg.bytes = static_cast<uint32_t>(p->offset);
    pg.cells = pageCells;
    pg.cluster = rx.cluster;
    pg.oq = static_cast<uint32_t>(p->psn >> 32);
    pg.epoch = epoch;
    if (injected)
    {
        ++rx.losses;
        pg.crcError = true; // header CRC error, found at decapsulation (10.8.7)
    }
    Simulator::Schedule(m_rxLatency, &CellFabricAdapter::EnqueueRxDma, this, pg);
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
        r.bytes = static_cast<uint32_t>(p->ctrlValue2 >> 32);
        OnRequest(r, static_cast<uint32_t>((p->ctrlValue2 >> 16) & 0xFFFF));
        break;
    }
    case GRANT:
        OnGrant(p->msgId,
                static_cast<uint32_t>(p->ctrlValue & 0xFFFFFFFFULL),
                static_cast<uint8_t>(p->ctrlValue >> 32),
                p->src,
                p->ctrlValue2);
        break;
    case CTS: {
        auto it = m_txJobs.find(p->msgId);
        if ((p->msgId & RDMA_API_BIT) && it != m_txJobs.end() && it->second.dst != p->src)
        {
            it = m_txJobs.end(); // the same ids from another chip: not this job's CTS
        }
        if (it == m_txJobs.end() && (p->msgId & RDMA_API_BIT))
        {
            // A CTS before its Tx job (a pre-posted Rx job, 10.3): kept for the job's post.
            // With the TJID active on a job of the other epoch, it is for the next invocation:
            // a "future" CTS (10.4).
            EnsureResources();
            const uint32_t cluster = static_cast<uint32_t>((p->msgId >> 17) & 7);
            const uint32_t tjid = static_cast<uint32_t>((p->msgId >> 1) & 0xFF);
            ++m_stats.ctsEarly;
            if (m_txIds.GetState(cluster, tjid) != CellFabricRdmaJobIds::FREE)
            {
                ++m_stats.futureCts;
            }
            m_earlyCts.insert({p->src, p->msgId});
            break;
        }
        if (it == m_txJobs.end() || it->second.cts)
        {
            break; // a resent CTS (10.3.1.1) for a job that had it, or that is done
        }
        TxJob& job = it->second;
        job.cts = true;
        if (job.api)
        {
            (*m_peers)[job.dst]->LearnRdmaPages(GetAcceleratorId(),
                                                job.id,
                                                job.pageSizeWords,
                                                job.pages.size());
        }
        if (job.state == TX_CTS_WAIT)
        {
            const uint64_t id = p->msgId;
            job.state = TX_ACTIVE;
            Arm(job.timer, m_txActiveTimeout, [this, id]() { OnTxTimeout(id); });
        }
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
    if (r.epoch & PAGE_DATAGRAM)
    {
        QueueRequest(r, cluster); // a datagram is one page: nothing to keep in order
        RunGrantScheduler(cluster);
        return;
    }
    auto rx = m_rxJobs.find({r.src, r.job});
    if (rx == m_rxJobs.end())
    {
        QueueRequest(r, cluster); // a retired job's request: its page is dropped here anyway
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
    const uint32_t last = rx->second.pages - 1;
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
CellFabricAdapter::QueueRequest(const Request& r, uint32_t cluster)
{
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
}

void
CellFabricAdapter::RunGrantScheduler(uint32_t cluster)
{
    NS_LOG_FUNCTION(this << cluster);
    if (m_grantPolicy == PACED_ROUND_ROBIN)
    {
        RunPacedGrants();
        return;
    }
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
        SendControl(r.src,
                    GRANT,
                    r.job,
                    r.page | (static_cast<uint64_t>(r.epoch) << 32),
                    r.cells | (cluster << 16));
    }
}

void
CellFabricAdapter::RunPacedGrants()
{
    NS_LOG_FUNCTION(this);
    // Grants paced at the rate the receiver drains its CBUF (an assumption where the spec is
    // silent, digest 5.8): after a page is granted, the next grant waits until the receiver's
    // links have had time to bring the page's cells and its request cell, and a cluster's next
    // grant until its RxDMA has had time to write the page's data. Sources are served round
    // robin (one FIFO of requests per source), clusters too, one grant at a time, so every
    // source with requests gets an equal share of pages whatever the order its requests came
    // in. Free CBUF cells are still required and reserved (lossless).
    const Time now = FabricClock::Now();
    while (true)
    {
        if (m_chipGrantNext > now)
        {
            WakeGrantsAt(m_chipGrantNext);
            return;
        }
        Time wake = Time::Max();
        bool granted = false;
        for (uint32_t i = 0; i < m_clusters && !granted; ++i)
        {
            const uint32_t c = (m_grantRrCluster + i) % m_clusters;
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
            auto it = g.bySource.lower_bound(g.rrNext);
            if (it == g.bySource.end())
            {
                it = g.bySource.begin();
            }
            const Request r = it->second.front();
            if (r.cells > m_freeCells || m_grantsOut[c] >= m_maxOutstandingGrants)
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
            SendControl(r.src,
                        GRANT,
                        r.job,
                        r.page | (static_cast<uint64_t>(r.epoch) << 32),
                        r.cells | (c << 16));
            // the page's cells (chunks plus a cell header each) and its request cell
            const double wire = CellFabricCellifier::GetCellBytes(
                                    r.bytes + CellFabricCellifier::PAGE_HEADER_BYTES) +
                                static_cast<double>(r.cells) * m_cellHeaderBytes +
                                m_controlCellBytes + m_cellHeaderBytes;
            if (m_linkBytesPerSecond > 0)
            {
                m_chipGrantNext = now + PicoSeconds(static_cast<int64_t>(
                                            std::ceil(wire * 1e12 / m_linkBytesPerSecond)));
            }
            m_clusterGrantNext[c] = now + Cycles(r.bytes, m_rxDmaBytesPerCycle);
            m_grantRrCluster = (c + 1) % m_clusters;
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
CellFabricAdapter::WakeGrantsAt(Time t)
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
    m_grantWake =
        Simulator::Schedule(t - FabricClock::Now(), &CellFabricAdapter::RunGrantScheduler, this, 0);
}

void
CellFabricAdapter::ReleasePage(uint32_t cluster, uint32_t cells)
{
    FreeRxCells(cluster, cells);
    if (m_grantPolicy == PACED_ROUND_ROBIN)
    {
        RunPacedGrants(); // all clusters, in its own round robin
        return;
    }
    for (uint32_t c = 0; c < m_clusters; ++c)
    {
        RunGrantScheduler((cluster + 1 + c) % m_clusters);
    }
}

void
CellFabricAdapter::EnqueueRxDma(RxDmaPage pg)
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

void
CellFabricAdapter::RxDmaNext(uint32_t c)
{
    // The Rx OQM's simple priority + round-robin scheduler (10.8.5): a high-priority OQ holding
    // a page first (strict priority), else a low one; among the OQs of that priority the first
    // holding a page from the one after the last served (round robin).
    uint32_t pick = RX_OQS;
    for (uint32_t level = 2; level-- > 0 && pick == RX_OQS;)
    {
        for (uint32_t k = 0; k < RX_OQS; ++k)
        {
            const uint32_t q = (m_rxOqNext[c][level] + k) % RX_OQS;
            if (((m_rxOqHighMask >> q) & 1) == level && !m_rxOq[c][q].empty())
            {
                pick = q;
                m_rxOqNext[c][level] = (q + 1) % RX_OQS;
                break;
            }
        }
    }
    if (pick == RX_OQS)
    {
        m_rxDmaBusy[c] = false;
        return;
    }
    m_rxDmaBusy[c] = true;
    const RxDmaPage pg = std::move(m_rxOq[c][pick].front());
    m_rxOq[c][pick].pop_front();
    // The page is validated before its write (10.8.8); a dropped page's flits are discarded
    // at the same 128 B per cycle, its cells freed when read.
    bool write = false;
    if (pg.datagram)
    {
        CellFabricDatagramRxRing& ring = m_dgRx[c * 2 + pg.rxq];
        switch (ring.Take(pg.bytes))
        {
        case CellFabricDatagramRxRing::ACCEPT:
            write = true;
            break;
        case CellFabricDatagramRxRing::NO_DESCRIPTOR:
            Drop(pg.unit, DATAGRAM_NO_DESCRIPTOR);
            break;
        case CellFabricDatagramRxRing::TOO_LARGE:
            Drop(pg.unit, DATAGRAM_TOO_LARGE);
            break;
        }
        if (!write)
        {
            DatagramLost(pg);
        }
    }
    else
    {
        write = ValidateRdma(pg);
    }
    const Time now = FabricClock::Now();
    const Time w = Cycles(pg.bytes, m_rxDmaBytesPerCycle);
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
        *id = start + w + Cycles(m_commitCycles, 1);
        if (pg.datagram)
        {
            Simulator::Schedule(*id - now, &CellFabricAdapter::DatagramCommitted, this, pg);
        }
        else
        {
            Simulator::Schedule(*id - now,
                                &CellFabricAdapter::PageCommitted,
                                this,
                                pg.src,
                                pg.job,
                                pg.page,
                                pg.cells,
                                pg.epoch);
        }
    }
    Simulator::Schedule(start + w - now, &CellFabricAdapter::RxDmaReadDone, this, c, pg.cells);
}

void
CellFabricAdapter::RxDmaReadDone(uint32_t c, uint32_t cells)
{
    // CBUF cells are freed on read (10.8[8]); the grant scheduler learns of them
    ReleasePage(c, cells);
    RxDmaNext(c);
}

bool
CellFabricAdapter::ValidateRdma(const RxDmaPage& pg)
{
    NS_LOG_FUNCTION(this << pg.src << pg.job << pg.page);
    // Integrity checks of an RDMA page (10.8.8), before its write.
    if (pg.crcError)
    {
        // header CRC error: its fields cannot be used; dropped, nothing recorded in the job
        Drop(pg.unit, HEADER_CRC);
        return false;
    }
    auto it = m_rxJobs.find({pg.src, pg.job});
    if (it == m_rxJobs.end())
    {
        Drop(pg.unit, IsStaleRdmaJob(pg.src, pg.job) ? STALE_EPOCH : UNKNOWN_JOB);
        return false;
    }
    RxJob& rx = it->second;
    if (rx.failed)
    {
        Drop(pg.unit, RX_JOB_FAILED);
        return false;
    }
    if (pg.epoch != rx.epoch)
    {
        // ids or epoch do not match: a stale page, dropped silently
        Drop(pg.unit, STALE_EPOCH);
        return false;
    }
    const bool last = pg.page + 1 == rx.pages; // the header's Last-page flag
    const uint64_t words =
        (pg.bytes + CellFabricCellifier::WORD_BYTES - 1) / CellFabricCellifier::WORD_BYTES;
    const char* error = nullptr;
    if (pg.page != rx.nextSeq)
    {
        error = SEQUENCE_ERROR; // a lost page before it: the job is in error, NACK at its end
    }
    else if (rx.words + words > rx.totalWords)
    {
        error = OVERRUN; // corruption: dropped, error, NACK
    }
    else if (last && rx.words + words < rx.totalWords)
    {
        error = SHORT_TOTAL; // a lost page: error, NACK
    }
    if (!error)
    {
        ++rx.nextSeq;
        rx.words += words;
        return true;
    }
    Drop(pg.unit, error);
    rx.error = true;
    if (last || error == OVERRUN)
    {
        SendNack(rx, pg.page);
    }
    return false;
}

void
CellFabricAdapter::SendNack(RxJob& rx, uint32_t page)
{
    NS_LOG_FUNCTION(this << rx.src << rx.job << page);
    // NACK at the end of the job in error; the job restarts for the retry (sequence and
    // words reset, retry state, 10.8.1.1) and its epoch flips, so that pages of the failed
    // attempt still in flight are stale. An error in the retry: Rx Job Failed, after its NACK
    // (the sender fails the job on it).
    ++rx.nacks;
    ++m_stats.nacksSent;
    rx.epoch ^= 1;
    rx.committed = 0;
    rx.nextSeq = 0;
    rx.words = 0;
    rx.error = false;
    SendControl(rx.src, NACK, rx.job, page, 0);
    if (rx.retry)
    {
        FailRxJob(rx);
    }
    rx.retry = true;
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
    if (it == m_rxJobs.end())
    {
        return;
    }
    RxJob& rx = it->second;
    // payload of this page: the job's bytes cut into PageSizeWords pages
    const uint64_t pageBytes = rx.pageBytes;
    const uint64_t before = static_cast<uint64_t>(page) * pageBytes;
    const uint64_t payload =
        rx.bytes > before ? std::min<uint64_t>(pageBytes, rx.bytes - before) : 0;
    if (page >= rx.counted.size())
    {
        rx.counted.resize(page + 1, false); // an explicit Rx job that has not learnt its pages
    }
    if (!rx.counted[page])
    {
        rx.counted[page] = true; // a retried page's payload is delivered once
        CountReceivedPayload(payload);
    }
    ++m_stats.pagesCommitted;
    m_pageCommitTrace(src, job, page, cells);
    if (epoch != rx.epoch || rx.failed)
    {
        return; // written for an attempt NACKed (or failed) since
    }
    ++rx.committed;
    if (rx.committed == rx.pages)
    {
        // all pages committed: ACK, and the message is delivered here after its last job
        Arm(rx.timer, Time(0), []() {});
        SendControl(src, ACK, job, 0, 0);
        if (rx.lastJob)
        {
            FabricMessage m = rx.msg;
            m.delivered = FabricClock::Now();
            NotifyDelivered(m);
        }
        // the attempt's Data Reorder context is done (the other epoch's may still get pages)
        m_rxOrder.erase({src, job, rx.epoch});
        if (rx.api)
        {
            // Rx completion (10.3): the RJID retires, the receiver's barriers are notified
            RdmaCompletion info = rx.info;
            info.retried = rx.retry;
            info.completed = FabricClock::Now();
            RdmaCallback done = std::move(rx.done);
            m_rxJobs.erase(it);
            m_rxIds.Retire(info.cluster, info.jid);
            if (done)
            {
                done(info);
            }
            return;
        }
        m_rxJobs.erase(it);
    }
}

void
CellFabricAdapter::DatagramCommitted(const RxDmaPage& pg)
{
    NS_LOG_FUNCTION(this << pg.src << pg.job);
    // written into the RxQ: the head advances, software is told (10.8.1.3, 11.5.2.2)
    m_dgRx[pg.cluster * 2 + pg.rxq].Filled();
    ++m_stats.datagramsReceived;
    auto it = m_rxDatagrams.find({pg.src, pg.job});
    NS_ASSERT_MSG(it != m_rxDatagrams.end(), "CellFabricAdapter: datagram not announced");
    const RxDatagram dg = it->second;
    m_rxDatagrams.erase(it);
    CountReceivedPayload(dg.payload);
    if (--dg.message->left == 0 && !dg.message->lost)
    {
        FabricMessage m = dg.message->msg;
        m.delivered = FabricClock::Now();
        NotifyDelivered(m);
    }
}

void
CellFabricAdapter::DatagramLost(const RxDmaPage& pg)
{
    auto it = m_rxDatagrams.find({pg.src, pg.job});
    NS_ASSERT_MSG(it != m_rxDatagrams.end(), "CellFabricAdapter: datagram not announced");
    it->second.message->lost = true; // unreliable: the message is never delivered
    --it->second.message->left;
    m_rxDatagrams.erase(it);
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
    if (it->second.failed)
    {
        return; // Job Failed is sticky (10.7.1.2)
    }
    Arm(it->second.timer, Time(0), []() {});
    std::shared_ptr<TxMessage> msg = it->second.message;
    const uint64_t voq = it->second.voq;
    const bool retried = it->second.retried;
    const bool api = it->second.api;
    RdmaCompletion info = it->second.info;
    RdmaCallback done = std::move(it->second.done);
    m_txJobs.erase(it);
    // an ACK for a job in its retry (its ACK-wait timer expired before the ACK came): the retry
    // ends here; its requests still out are granted and dropped at the receiver
    const auto active =
        retried ? std::find(m_active.begin(), m_active.end(), jobId) : m_active.end();
    if (active != m_active.end())
    {
        m_active.erase(active);
        m_voqJobs[voq].pop_front();
        if (!m_active.empty())
        {
            m_activeRr %= m_active.size();
        }
        ActivateNext(voq);
    }
    else if (retried)
    {
        std::deque<uint64_t>& q = m_voqJobs[voq];
        q.erase(std::remove(q.begin(), q.end(), jobId), q.end());
    }
    ++m_stats.jobsCompleted;
    if (api)
    {
        // the Tx job retires (its TJID free); the sender's barriers are notified (10.3)
        m_txIds.Retire(info.cluster, info.jid);
        m_earlyCts.erase({info.peerChip, jobId}); // a resent CTS of this job
        info.retried = retried;
        info.completed = FabricClock::Now();
        if (done)
        {
            done(info);
        }
        return;
    }
    if (--msg->jobsLeft == 0)
    {
        FabricMessage m = msg->msg;
        m.completed = FabricClock::Now();
        NotifyCompleted(m);
    }
}

void
CellFabricAdapter::OnNack(uint64_t jobId)
{
    NS_LOG_FUNCTION(this << jobId);
    auto it = m_txJobs.find(jobId);
    NS_ASSERT_MSG(it != m_txJobs.end(), "NACK for an unknown Tx job");
    if (it->second.failed)
    {
        return;
    }
    m_nackTrace(it->second.dst, jobId);
    RetryOrFail(jobId);
}

void
CellFabricAdapter::RetryOrFail(uint64_t jobId)
{
    NS_LOG_FUNCTION(this << jobId);
    TxJob& job = m_txJobs.at(jobId);
    if (job.retried)
    {
        // a second failure: Job Failed; the message is never delivered nor completed
        FailTxJob(jobId);
        return;
    }
    // The job's 1-bit epoch flips: grants of requests made before arrive with the old epoch
    // and their pages are dropped as stale at the receiver.
    job.epoch ^= 1;
    // one retry of the whole job (the receiver's Rx job stays posted: no new CTS)
    job.retried = true;
    job.sent = 0;
    ++m_stats.jobsRetried;
    m_retryTrace(job.dst, jobId);
    job.nextRequest = 0;
    const auto active = std::find(m_active.begin(), m_active.end(), jobId);
    if (active == m_active.end())
    {
        job.state = TX_QUEUED;
        Arm(job.timer, Time(0), []() {});
        std::deque<uint64_t>& q = m_voqJobs[job.voq];
        q.push_back(jobId);
        if (q.size() == 1)
        {
            ActivateNext(job.voq);
        }
        return;
    }
    job.state = TX_ACTIVE;
    Arm(job.timer, m_txActiveTimeout, [this, jobId]() { OnTxTimeout(jobId); });
    Generate();
}

void
CellFabricAdapter::FailTxJob(uint64_t jobId)
{
    NS_LOG_FUNCTION(this << jobId);
    TxJob& job = m_txJobs.at(jobId);
    job.failed = true;
    job.state = TX_DONE;
    job.epoch ^= 1; // pages of grants still to come are stale at the receiver
    Arm(job.timer, Time(0), []() {});
    ++m_stats.jobsFailed;
    m_jobFailedTrace(job.dst, jobId);
    if (job.api)
    {
        job.done = nullptr; // no completion: Job Failed is sticky
        ReportRdmaFailure(RDMA_TX, job.info);
    }
    const auto active = std::find(m_active.begin(), m_active.end(), jobId);
    if (active != m_active.end())
    {
        m_active.erase(active);
        m_voqJobs[job.voq].pop_front();
        if (!m_active.empty())
        {
            m_activeRr %= m_active.size();
        }
        ActivateNext(job.voq);
    }
}

void
CellFabricAdapter::OnTxTimeout(uint64_t jobId)
{
    NS_LOG_FUNCTION(this << jobId);
    TxJob& job = m_txJobs.at(jobId);
    switch (job.state)
    {
    case TX_ACK_WAIT:
        // no ACK nor NACK (a lost page, or a lost message): retry once (10.3.1, 10.7.1.1)
        ++m_stats.ackTimeouts;
        RetryOrFail(jobId);
        break;
    case TX_CTS_WAIT:
    case TX_ACTIVE:
        // CTS-wait or Tx-active timeout: Job Failed (10.7.1.2)
        FailTxJob(jobId);
        break;
    default:
        NS_ABORT_MSG("CellFabricAdapter: timer of Tx job " << jobId << " in state " << job.state);
    }
}

void
CellFabricAdapter::OnRxTimeout(uint32_t src, uint64_t job)
{
    NS_LOG_FUNCTION(this << src << job);
    RxJob& rx = m_rxJobs.at({src, job});
    if (!rx.dataSeen && !rx.ctsResent)
    {
        // Rx Data Wait timeout: the CTS may be lost; resend it once, with Retry (10.8.1.1)
        rx.ctsResent = true;
        ++m_stats.ctsResent;
        SendControl(src, CTS, job, 1, 0);
        Arm(rx.timer, m_rxDataTimeout, [this, src, job]() { OnRxTimeout(src, job); });
        return;
    }
    // a second data-wait timeout, or the job-completion timeout (10.8.1.1-2)
    FailRxJob(rx);
}

void
CellFabricAdapter::FailRxJob(RxJob& rx)
{
    NS_LOG_FUNCTION(this << rx.src << rx.job);
    rx.failed = true;
    Arm(rx.timer, Time(0), []() {});
    ++m_stats.rxJobsFailed;
    m_rxJobFailedTrace(rx.src, rx.job);
    if (rx.api)
    {
        rx.done = nullptr; // no completion: Rx Job Failed is sticky
        ReportRdmaFailure(RDMA_RX, rx.info);
    }
}

void
CellFabricAdapter::Drop(const Ptr<FabricPacket>& p, const char* reason)
{
    NS_LOG_FUNCTION(this << p << reason);
    ++m_stats.drops[reason];
    m_dropTrace(p, reason);
}

} // namespace ns3
