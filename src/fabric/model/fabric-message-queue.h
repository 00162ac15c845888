/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_MESSAGE_QUEUE_H
#define FABRIC_MESSAGE_QUEUE_H

#include "fabric-message-supply.h"
#include "fabric-message.h"
#include "fabric-tx-queue.h"

#include <deque>
#include <vector>

namespace ns3
{

/**
 * \ingroup fabric
 * \brief An endpoint's transmit queue of messages, cut into units only when the wire is free.
 *
 * Posted messages wait whole, per traffic class, in post order. Dequeue() takes the class whose
 * turn it is (round robin over non-empty classes) and cuts the next unit of at most Mtu payload
 * bytes from the head message, adding HeaderBytes of framing. Nothing is allocated per unit
 * until it is transmitted, so posting a million messages costs a million small records, not
 * their packets. Several devices may share one queue (packet spraying over planes).
 */
class FabricMessageQueue : public FabricTxQueue
{
  public:
    static TypeId GetTypeId();
    FabricMessageQueue();
    ~FabricMessageQueue() override;

    /**
     * Queue a message.
     * \param m the message
     */
    void Enqueue(const FabricMessage& m);

    /// Source routes: (source, destination, flow hash) -> FabricPacket::sourceRoute.
    typedef Callback<uint64_t, uint32_t, uint32_t, uint32_t> RouteCallback;

    /**
     * \brief Give every unit a source route (null: none).
     * \param cb the route function
     */
    void SetRouteCallback(RouteCallback cb)
    {
        m_route = cb;
    }

    /**
     * Messages of one class that the owner posts lazily (FabricEndpoint::PostLazily): whenever
     * that class's FIFO is empty when the queue is asked whether it is empty or for a unit,
     * \p pull is called until the FIFO has a message or the supply is empty (each call posts the
     * supply's next message, by Enqueue(), and returns false if there was none). The FIFO's head
     * is therefore always the one it would be had every message been queued at once; the
     * backlog and message counts include the messages still in the supply.
     * \param supply the messages not posted yet
     * \param pull posts the next one
     */
    void SetSupply(Ptr<FabricMessageSupply> supply, Callback<bool> pull);

    /**
     * \param m a message
     * \return the flow hash of its units (ECMP: one message keeps one path, so its units stay
     *         in order)
     */
    static uint32_t FlowHash(const FabricMessage& m);

    /**
     * \param src the source accelerator
     * \param dst the destination accelerator
     * \param flowHash the units' flow hash
     * \return the source route the units carry (0 without a route callback)
     */
    uint64_t GetSourceRoute(uint32_t src, uint32_t dst, uint32_t flowHash) const;

    /**
     * Bytes on the wire for a message of \p bytes cut into units as Dequeue() cuts it.
     * \param bytes payload bytes
     * \param perUnitBytes wire bytes each unit adds outside its frame (a device's interframe)
     * \return the wire bytes
     */
    uint64_t GetWireBytes(uint64_t bytes, uint32_t perUnitBytes) const;

    /// \return payload bytes waiting (not yet cut into units), a lazy supply's included
    uint64_t GetBacklogBytes() const
    {
        return m_backlog + (m_supply ? m_supply->GetRemainingBytes() : 0);
    }

    /// \return messages waiting or partially sent, a lazy supply's included
    uint64_t GetNMessages() const;

    /// \return the payload bytes per unit
    uint32_t GetMtu() const
    {
        return m_mtu;
    }

  private:
    void DoDispose() override;
    bool DoIsEmpty() const override;

    /// Post from the supply until its class's FIFO holds a message or the supply is empty.
    void Refill() const;
    Ptr<FabricPacket> DoDequeue(const FabricTxGate* gate) override;

    /// A message being sent.
    struct Pending
    {
        FabricMessage msg; //!< the message
        uint64_t sent{0};  //!< payload bytes already cut into units
    };

    uint32_t m_mtu{4096};             //!< payload bytes per unit
    uint32_t m_headerBytes{18};       //!< framing bytes per unit
    RouteCallback m_route;            //!< source routes, if set
    uint32_t m_segmentBytes{0};       //!< segment size (0: no segmentation)
    uint32_t m_segmentHeaderBytes{0}; //!< header bytes per segment

    /**
     * \param payload payload bytes of a unit
     * \return its framing bytes: HeaderBytes, plus, when units are cut into segments (RIFL
     * Layer 2), SegmentHeaderBytes per segment and the padding of the last segment
     */
    uint32_t UnitHeaderBytes(uint32_t payload) const
    {
        if (m_segmentBytes == 0)
        {
            return m_headerBytes;
        }
        const uint32_t segs = payload == 0 ? 1 : (payload + m_segmentBytes - 1) / m_segmentBytes;
        return m_headerBytes + segs * m_segmentHeaderBytes + (segs * m_segmentBytes - payload);
    }

    std::vector<std::deque<Pending>> m_classes; //!< per class FIFO
    uint32_t m_nextClass{0};                    //!< round-robin pointer
    uint64_t m_backlog{0};                      //!< payload bytes waiting
    uint32_t m_nonEmpty{0};                     //!< non-empty classes
    Ptr<FabricMessageSupply> m_supply;          //!< messages posted lazily, if any
    Callback<bool> m_pull;                      //!< posts the supply's next message
};

} // namespace ns3

#endif /* FABRIC_MESSAGE_QUEUE_H */
