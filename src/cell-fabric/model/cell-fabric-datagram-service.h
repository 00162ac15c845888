/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CELL_FABRIC_DATAGRAM_SERVICE_H
#define CELL_FABRIC_DATAGRAM_SERVICE_H

#include "cell-fabric-adapter.h"
#include "cell-fabric-datagram-rx-ring.h"
#include "cell-fabric-datagram-tx-queue.h"
#include "cell-fabric-rx-pipeline.h"
#include "cell-fabric-tx-job.h"

#include "ns3/fabric-message.h"
#include "ns3/nstime.h"
#include "ns3/type-id.h"

#include <cstdint>
#include <map>
#include <memory>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup cell-fabric
 * \brief The datagram service of a Pyxis chip's Fabric Adapter (Pyxis spec 10.5, 10.7.1.3-4,
 * 10.8.1.3, 11.4.8-9, 11.5.2); a part of CellFabricAdapter.
 *
 * A datagram is one page of 1 to 16,256 B with no job table, CTS, ACK, timer or retry: it is
 * unreliable. Each cluster has two TxQs (CellFabricDatagramTxQueue: a descriptor ring and its
 * 64 TxQ Reorder IDs, 10.7.1.4) and two RxQs (CellFabricDatagramRxRing, 11.5.2.2). An admitted
 * datagram takes the VOQ-Active lock of its datagram VOQ and is requested, granted and sent by
 * the Tx pipeline like any page; when its page leaves its FO pipe its TxQ descriptor is done.
 * At the receiver RxDMA takes the RxQ's next free descriptor (none free, or too small a buffer:
 * the page is dropped, 10.8.1.3) and the datagram is written; a message is delivered when all
 * its datagrams are written, never if one is dropped.
 */
class CellFabricDatagramService
{
  public:
    /// The attributes of CellFabricAdapter that configure the datagram queues.
    struct Config
    {
        uint32_t txRingSize{256};           //!< TxQ ring descriptors [assumption]
        uint32_t txReorderIds{64};          //!< TxQ Reorder IDs (10.7.1.4)
        uint32_t rxRingSize{256};           //!< RxQ ring descriptors [assumption]
        uint32_t rxBufferBytes{16256};      //!< RxQ descriptor buffer (11.4.9)
        Time rxRepostTime;                  //!< software time per RxQ descriptor
        uint64_t rxRepostLimit{UINT64_MAX}; //!< descriptors software posts again
    };

    /**
     * \param adapter the adapter this is a part of
     */
    explicit CellFabricDatagramService(CellFabricAdapter& adapter);
    ~CellFabricDatagramService();

    /**
     * \param tid the adapter's TypeId
     * \return it with the datagram queues' attributes
     */
    static TypeId AddAttributes(TypeId tid);

    /**
     * \param adapter an adapter
     * \return its datagram service's configuration (for the attribute accessors)
     */
    static Config& GetConfigOf(const CellFabricAdapter& adapter);

    /// Make two TxQs and two RxQs per cluster from the configuration, once.
    void Setup();

    /// Drop the datagrams expected here.
    void Dispose();

    /**
     * Post one datagram (see CellFabricAdapter::PostDatagram).
     * \param m the message record (id, src, dst, bytes set)
     * \param dstCluster destination cluster
     * \param rxq the RxQ (and TxQ) index, 0 or 1
     * \param srcCluster the source cluster whose TxQ sends it
     * \return false if refused (a size out of 1 to 16,256 B)
     */
    bool Post(const FabricMessage& m, uint32_t dstCluster, uint32_t rxq, uint32_t srcCluster);

    /**
     * Send a message of the endpoint API as datagrams (EndpointTransport Datagram): pages of
     * 16,256 B and the rest, from TxQ 0 of the cluster with the destination cluster's number to
     * RxQ 0 (cluster j to cluster j, as in 10.4's example).
     * \param m the message
     * \param cluster the destination cluster
     */
    void SendMessage(const FabricMessage& m, uint32_t cluster);

    /**
     * \param cluster a source cluster of this chip
     * \param txq its TxQ, 0 or 1
     * \return the TxQ
     */
    const CellFabricDatagramTxQueue& GetTxQueue(uint32_t cluster, uint32_t txq) const
    {
        return m_tx.at(cluster * 2 + txq);
    }

    /**
     * A datagram's page left its FO pipe: its TxQ descriptor is done (10.7.1.4), its job
     * leaves the Tx Job Table, and its message is completed after its last datagram.
     * \param id the datagram's job id
     */
    void OnPageSent(uint64_t id);

    /**
     * RxDMA takes the next free descriptor of the page's RxQ (10.8.1.3, 10.8.8); the page is
     * dropped (counted and traced) when there is none or its buffer is too small.
     * \param pg the datagram page
     * \return true if the page is to be written
     */
    bool TakeDescriptor(const CellFabricRxPipeline::RxDmaPage& pg);

    /**
     * A datagram's writes are committed: its RxQ descriptor is filled, its message delivered
     * after its last datagram.
     * \param pg the page
     */
    void OnCommitted(const CellFabricRxPipeline::RxDmaPage& pg);

  private:
    /// A datagram message expected here (its datagrams, 10.5).
    struct RxMessage
    {
        FabricMessage msg; //!< the message
        uint32_t left{0};  //!< datagrams neither written nor dropped
        bool lost{false};  //!< a datagram was dropped: never delivered
    };

    /// A datagram expected here: its message and its payload bytes.
    struct Expected
    {
        std::shared_ptr<RxMessage> message; //!< the message
        uint64_t payload{0};                //!< payload bytes it carries
    };

    /**
     * Post one datagram of a message (shared by Post and SendMessage).
     * \param msg the message at the sender
     * \param rxMsg the message at the receiver
     * \param bytes the datagram's bytes (1 to 16,256)
     * \param payload payload bytes it counts
     * \param dstCluster destination cluster
     * \param rxq RxQ and TxQ index
     * \param srcCluster source cluster
     */
    void PostPart(const std::shared_ptr<CellFabricTxJob::Message>& msg,
                  const std::shared_ptr<RxMessage>& rxMsg,
                  uint32_t bytes,
                  uint64_t payload,
                  uint32_t dstCluster,
                  uint32_t rxq,
                  uint32_t srcCluster);
    /**
     * Admit datagrams of a TxQ into the Page Generator while it allows (10.7.1.3-4).
     * \param txq the TxQ
     */
    void PumpTxQueue(uint32_t txq);
    /**
     * A sender announces a datagram (the model's stand-in for the RxQ index and message
     * identity a datagram page carries).
     * \param src source chip
     * \param job its job id there
     * \param dg the datagram
     */
    void Expect(uint32_t src, uint64_t job, const Expected& dg);
    /**
     * The datagram of \p pg will not be written (dropped): its message is lost.
     * \param pg the page
     */
    void Lost(const CellFabricRxPipeline::RxDmaPage& pg);

    CellFabricAdapter& m_adapter;      //!< the adapter this is a part of
    CellFabricAdapter::Stats& m_stats; //!< the adapter's counters
    Config m_config;                   //!< configuration (attributes)

    std::vector<CellFabricDatagramTxQueue> m_tx;                  //!< TxQs (cluster * 2 + index)
    std::vector<CellFabricDatagramRxRing> m_rx;                   //!< RxQs (cluster * 2 + index)
    std::map<std::pair<uint32_t, uint64_t>, Expected> m_expected; //!< datagrams expected here
};

} // namespace ns3

#endif /* CELL_FABRIC_DATAGRAM_SERVICE_H */
