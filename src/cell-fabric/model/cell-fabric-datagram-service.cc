/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cell-fabric-datagram-service.h"

#include "cell-fabric-cellifier.h"
#include "cell-fabric-config-accessor.h"
#include "cell-fabric-tx-pipeline.h"

#include "ns3/abort.h"
#include "ns3/fabric-clock.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CellFabricDatagramService");

namespace
{

/// OQ of datagrams of RxQ 0 (RxQ 1: the next), VOQ[1:0] (10.2): the model's OQ assignment
/// (0 RDMA high or messages, 1 RDMA low, 2 and 3 datagrams; the spec gives four OQs per
/// cluster for two classes of RDMA and of datagrams, 10.8[5], and no numbering).
constexpr uint32_t DATAGRAM_OQ = 2;

/**
 * \tparam V the attribute's value class
 * \tparam F the field's type
 * \param field a field of the datagram service's Config
 * \return the accessor of the CellFabricAdapter attribute kept there
 */
template <typename V, typename F>
Ptr<const AttributeAccessor>
ConfigAccessor(F CellFabricDatagramService::Config::*field)
{
    return MakeCellFabricConfigAccessor<V, CellFabricDatagramService>(field);
}

} // namespace

TypeId
CellFabricDatagramService::AddAttributes(TypeId tid)
{
    return tid
        .AddAttribute("DatagramTxRingSize",
                      "Descriptors in each datagram TxQ ring (2 per cluster); a ring of N "
                      "holds N - 1 (11.5.2.1), more posts wait in software. Not in the spec.",
                      UintegerValue(256),
                      ConfigAccessor<UintegerValue>(&Config::txRingSize),
                      MakeUintegerChecker<uint32_t>(2))
        .AddAttribute("DatagramTxReorderIds",
                      "TxQ Reorder IDs per TxQ (10.7.1.4: 64): datagrams admitted and "
                      "whose head has not advanced; with none free the TxQ blocks.",
                      UintegerValue(64),
                      ConfigAccessor<UintegerValue>(&Config::txReorderIds),
                      MakeUintegerChecker<uint32_t>(1))
        .AddAttribute("DatagramRxRingSize",
                      "Descriptors in each datagram RxQ ring (2 per cluster); a ring of N "
                      "holds N - 1 free descriptors (11.5.2.2). Not in the spec.",
                      UintegerValue(256),
                      ConfigAccessor<UintegerValue>(&Config::rxRingSize),
                      MakeUintegerChecker<uint32_t>(2))
        .AddAttribute("DatagramRxBufferBytes",
                      "BufferSizeBytes of every RxQ descriptor (11.4.9: at most 16,256 B); "
                      "a larger datagram is dropped (10.8.1.3).",
                      UintegerValue(CellFabricCellifier::MAX_DATAGRAM_BYTES),
                      ConfigAccessor<UintegerValue>(&Config::rxBufferBytes),
                      MakeUintegerChecker<uint32_t>(1, CellFabricCellifier::MAX_DATAGRAM_BYTES))
        .AddAttribute("DatagramRxRepostTime",
                      "Software's time to process one received datagram and post its "
                      "descriptor again (one at a time; not in the spec).",
                      TimeValue(MicroSeconds(1)),
                      ConfigAccessor<TimeValue>(&Config::rxRepostTime),
                      MakeTimeChecker(Time(0)))
        .AddAttribute("DatagramRxRepostLimit",
                      "Descriptors software posts again per RxQ in all (the maximum: no "
                      "limit; 0: the ring runs dry after N - 1 datagrams).",
                      UintegerValue(UINT64_MAX),
                      ConfigAccessor<UintegerValue>(&Config::rxRepostLimit),
                      MakeUintegerChecker<uint64_t>());
}

CellFabricDatagramService::CellFabricDatagramService(CellFabricAdapter& adapter)
    : m_adapter(adapter),
      m_stats(adapter.m_stats)
{
}

CellFabricDatagramService::~CellFabricDatagramService() = default;

CellFabricDatagramService::Config&
CellFabricDatagramService::GetConfigOf(const CellFabricAdapter& adapter)
{
    return adapter.m_dg->m_config;
}

void
CellFabricDatagramService::Setup()
{
    // two TxQs and two RxQs per cluster (10.5); sized once, never moved
    const uint32_t queues = m_adapter.m_clusters * 2;
    m_rx.assign(queues, CellFabricDatagramRxRing());
    for (auto& ring : m_rx)
    {
        ring.Configure(m_config.rxRingSize,
                       m_config.rxBufferBytes,
                       m_config.rxRepostTime,
                       m_config.rxRepostLimit);
    }
    m_tx.assign(queues, CellFabricDatagramTxQueue());
    for (auto& q : m_tx)
    {
        q.Configure(m_config.txRingSize, m_config.txReorderIds);
    }
}

void
CellFabricDatagramService::Dispose()
{
    m_expected.clear();
}

bool
CellFabricDatagramService::Post(const FabricMessage& m,
                                uint32_t dstCluster,
                                uint32_t rxq,
                                uint32_t srcCluster)
{
    NS_LOG_FUNCTION(this << m.id << m.dst << dstCluster << rxq);
    NS_ABORT_MSG_UNLESS(m_adapter.HasPeer(m.dst),
                        "CellFabricAdapter: no adapter for accelerator " << m.dst);
    NS_ABORT_MSG_IF(rxq > 1, "CellFabricAdapter: no RxQ " << rxq << " (two per cluster, 10.5)");
    NS_ABORT_MSG_IF(srcCluster >= m_adapter.m_clusters,
                    "CellFabricAdapter: no cluster " << srcCluster);
    m_adapter.EnsureResources();
    if (m.bytes < 1 || m.bytes > CellFabricCellifier::MAX_DATAGRAM_BYTES)
    {
        // NumBytes is 1 to 16,256 (11.4.8): the descriptor is refused, nothing is sent
        Ptr<FabricPacket> p = Create<FabricPacket>();
        p->src = m_adapter.GetAcceleratorId();
        p->dst = m.dst;
        p->msgId = m.id;
        p->payloadBytes = static_cast<uint32_t>(std::min<uint64_t>(m.bytes, UINT32_MAX));
        m_adapter.Drop(p, CellFabricAdapter::DATAGRAM_SIZE);
        return false;
    }
    auto msg = std::make_shared<CellFabricTxJob::Message>();
    msg->msg = m;
    msg->jobsLeft = 1;
    auto rxMsg = std::make_shared<RxMessage>();
    rxMsg->msg = m;
    rxMsg->left = 1;
    PostPart(msg, rxMsg, m.bytes, m.bytes, dstCluster, rxq, srcCluster);
    return true;
}

void
CellFabricDatagramService::SendMessage(const FabricMessage& m, uint32_t cluster)
{
    NS_ABORT_MSG_UNLESS(m_adapter.HasPeer(m.dst),
                        "CellFabricAdapter: no adapter for accelerator " << m.dst);
    const uint64_t maxBytes = CellFabricCellifier::MAX_DATAGRAM_BYTES;
    const uint64_t parts = std::max<uint64_t>(1, (m.bytes + maxBytes - 1) / maxBytes);
    auto msg = std::make_shared<CellFabricTxJob::Message>();
    msg->msg = m;
    msg->jobsLeft = parts;
    auto rxMsg = std::make_shared<RxMessage>();
    rxMsg->msg = m;
    rxMsg->left = parts;
    uint64_t left = m.bytes;
    for (uint64_t i = 0; i < parts; ++i)
    {
        const uint64_t payload = std::min(left, maxBytes);
        left -= payload;
        // a message of 0 B is one datagram of 1 B (the least, 11.4.8) carrying no payload
        PostPart(msg,
                 rxMsg,
                 static_cast<uint32_t>(std::max<uint64_t>(1, payload)),
                 payload,
                 cluster,
                 0,
                 cluster % m_adapter.m_clusters);
    }
}

void
CellFabricDatagramService::PostPart(const std::shared_ptr<CellFabricTxJob::Message>& msg,
                                    const std::shared_ptr<RxMessage>& rxMsg,
                                    uint32_t bytes,
                                    uint64_t payload,
                                    uint32_t dstCluster,
                                    uint32_t rxq,
                                    uint32_t srcCluster)
{
    const FabricMessage& m = msg->msg;
    CellFabricTxPipeline& tx = *m_adapter.m_tx;
    NS_ABORT_MSG_IF(m.dst == m_adapter.GetAcceleratorId(), "CellFabricAdapter: no loopback");
    NS_ABORT_MSG_IF(dstCluster >= m_adapter.m_clusters,
                    "CellFabricAdapter: no cluster " << dstCluster);
    NS_ABORT_MSG_IF(tx.GetNLinks() == 0, "CellFabricAdapter: no link ports");
    m_adapter.EnsureResources();
    // A datagram is a one-page job without job table, CTS or timers (10.7.1.3); it takes the
    // VOQ-Active lock of its datagram VOQ once admitted from its TxQ.
    CellFabricTxJob job;
    job.id = tx.TakeJobId();
    job.dst = m.dst;
    job.cluster = dstCluster;
    // the datagram OQ of its RxQ, one VOQ per source cluster (10.7.1, 10.7.3.1)
    job.voq = CellFabricTxPipeline::GetVoqKey(m.dst, dstCluster, DATAGRAM_OQ + rxq, srcCluster);
    job.srcCluster = srcCluster;
    job.pages = {bytes};
    job.message = msg;
    job.cts = true;
    job.datagram = true;
    job.rxq = rxq;
    job.txq = srcCluster * 2 + rxq;
    const uint64_t id = job.id;
    const uint32_t txq = job.txq;
    tx.AddJob(std::move(job));
    ++m_stats.datagramsPosted;
    m_adapter.GetPeer(m.dst).m_dg->Expect(m_adapter.GetAcceleratorId(), id, {rxMsg, payload});
    m_tx[txq].Post(id);
    PumpTxQueue(txq);
}

void
CellFabricDatagramService::PumpTxQueue(uint32_t txq)
{
    CellFabricTxPipeline& tx = *m_adapter.m_tx;
    uint64_t id = 0;
    while (m_tx[txq].Admit(id))
    {
        const uint64_t voq = tx.GetJob(id).voq;
        if (tx.JoinVoq(voq, id) == 1)
        {
            tx.ActivateNext(voq); // the VOQ was free
        }
    }
}

void
CellFabricDatagramService::Expect(uint32_t src, uint64_t job, const Expected& dg)
{
    m_adapter.EnsureResources();
    m_expected[{src, job}] = dg;
}

void
CellFabricDatagramService::OnPageSent(uint64_t id)
{
    CellFabricTxPipeline& tx = *m_adapter.m_tx;
    const CellFabricTxJob& job = tx.GetJob(id);
    const uint32_t txq = job.txq;
    std::shared_ptr<CellFabricTxJob::Message> msg = job.message;
    tx.EraseJob(id);
    ++m_stats.datagramsSent;
    if (--msg->jobsLeft == 0)
    {
        FabricMessage m = msg->msg;
        m.completed = FabricClock::Now();
        m_adapter.NotifyCompleted(m);
    }
    m_tx[txq].Done(id);
    PumpTxQueue(txq);
}

bool
CellFabricDatagramService::TakeDescriptor(const CellFabricRxPipeline::RxDmaPage& pg)
{
    CellFabricDatagramRxRing& ring = m_rx[pg.cluster * 2 + pg.rxq];
    bool write = false;
    switch (ring.Take(pg.bytes))
    {
    case CellFabricDatagramRxRing::ACCEPT:
        write = true;
        break;
    case CellFabricDatagramRxRing::NO_DESCRIPTOR:
        m_adapter.Drop(pg.unit, CellFabricAdapter::DATAGRAM_NO_DESCRIPTOR);
        break;
    case CellFabricDatagramRxRing::TOO_LARGE:
        m_adapter.Drop(pg.unit, CellFabricAdapter::DATAGRAM_TOO_LARGE);
        break;
    }
    if (!write)
    {
        Lost(pg);
    }
    return write;
}

void
CellFabricDatagramService::OnCommitted(const CellFabricRxPipeline::RxDmaPage& pg)
{
    NS_LOG_FUNCTION(this << pg.src << pg.job);
    // written into the RxQ: the head advances, software is told (10.8.1.3, 11.5.2.2)
    m_rx[pg.cluster * 2 + pg.rxq].Filled();
    ++m_stats.datagramsReceived;
    auto it = m_expected.find({pg.src, pg.job});
    NS_ASSERT_MSG(it != m_expected.end(), "CellFabricAdapter: datagram not announced");
    const Expected dg = it->second;
    m_expected.erase(it);
    m_adapter.CountReceivedPayload(dg.payload);
    if (--dg.message->left == 0 && !dg.message->lost)
    {
        FabricMessage m = dg.message->msg;
        m.delivered = FabricClock::Now();
        m_adapter.NotifyDelivered(m);
    }
}

void
CellFabricDatagramService::Lost(const CellFabricRxPipeline::RxDmaPage& pg)
{
    auto it = m_expected.find({pg.src, pg.job});
    NS_ASSERT_MSG(it != m_expected.end(), "CellFabricAdapter: datagram not announced");
    it->second.message->lost = true; // unreliable: the message is never delivered
    --it->second.message->left;
    m_expected.erase(it);
}

} // namespace ns3
