/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_TX_QUEUE_H
#define FABRIC_TX_QUEUE_H

#include "fabric-packet.h"
#include "fabric-tx-gate.h"

#include "ns3/object.h"
#include "ns3/traced-value.h"

namespace ns3
{

/**
 * \ingroup fabric
 * \brief What a FabricNetDevice transmits from: the abstract transmit queue of a port.
 *
 * NVI, as traffic-control's QueueDisc: the public non-virtual Dequeue() does the accounting and
 * tracing and the private DoDequeue() holds the policy. A switch egress port uses
 * FabricOutputQueue (per class, round robin over inputs); an endpoint uses FabricMessageQueue
 * (messages cut into units lazily, when the wire is free).
 */
class FabricTxQueue : public Object
{
  public:
    static TypeId GetTypeId();
    FabricTxQueue();
    ~FabricTxQueue() override;

    /// \return true if no unit is queued
    bool IsEmpty() const;

    /**
     * \param gate flow control or transport consulted for each candidate class (null: none)
     * \return the next unit to transmit, or nullptr if none is queued, the gate refuses every
     * class that has one, or the queue paces itself (it then wakes the device when a unit can go)
     */
    Ptr<FabricPacket> Dequeue(const FabricTxGate* gate = nullptr);

    /// \return the units dequeued so far
    uint64_t GetDequeuedUnits() const
    {
        return m_dequeuedUnits;
    }

    /// \return the bytes (header plus payload) dequeued so far
    uint64_t GetDequeuedBytes() const
    {
        return m_dequeuedBytes;
    }

  protected:
    /**
     * \return true if the queue holds units back by a gate of its own (UALink's TL credits, a
     * transport's window, SUE's command interface rate), so that DoDequeue may return nothing
     * with no external gate
     */
    virtual bool HasOwnGate() const
    {
        return false;
    }

  private:
    /// \return true if the policy has nothing to send now
    virtual bool DoIsEmpty() const = 0;
    /**
     * \param gate the gate to consult (may be null)
     * \return the next unit chosen by the policy among those the gate admits, or nullptr
     * (never called when DoIsEmpty())
     */
    virtual Ptr<FabricPacket> DoDequeue(const FabricTxGate* gate) = 0;

    uint64_t m_dequeuedUnits{0}; //!< units dequeued
    uint64_t m_dequeuedBytes{0}; //!< bytes dequeued
};

} // namespace ns3

#endif /* FABRIC_TX_QUEUE_H */
