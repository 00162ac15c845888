/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_ENDPOINT_H
#define FABRIC_ENDPOINT_H

#include "fabric-message-supply.h"
#include "fabric-message.h"

#include "ns3/callback.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <cstdint>

namespace ns3
{

struct FabricFlowPlan;

/**
 * \ingroup fabric
 * \brief The one narrow endpoint API of DESIGN.md rule 1.
 *
 * Every fabric's accelerator-side device implements this interface; collectives, traffic
 * generators and compute nodes use only it, so every workload runs unchanged on every fabric.
 *
 * - Send() posts a message of N bytes to accelerator D on traffic class C and returns its id.
 * - The delivered callback fires at the receiving endpoint when the whole message has arrived.
 * - The completed callback fires at the sending endpoint when the fabric says the message is
 *   complete (what "complete" means is fabric specific: local transmission for a plain NIC,
 *   acknowledgement for a reliable transport); the fabric documents it.
 * - GetCongestionState() reports back-pressure toward a destination.
 *
 * The base class keeps the byte counters used for conservation checks (sent = delivered +
 * dropped) and fires the callbacks and trace sources; subclasses call NotifyDelivered() and
 * NotifyCompleted().
 */
class FabricEndpoint : public Object
{
  public:
    /// Callback with a message record.
    typedef Callback<void, const FabricMessage&> MessageCallback;

    /**
     * TracedCallback signature for message events.
     * \param m the message
     */
    typedef void (*MessageTracedCallback)(const FabricMessage& m);

    static TypeId GetTypeId();
    FabricEndpoint();
    ~FabricEndpoint() override;

    /**
     * Post a message.
     * \param dst destination accelerator id
     * \param bytes payload bytes (at least 1)
     * \param tclass traffic class
     * \param cookie caller's tag, returned in the callbacks
     * \return the message id
     */
    uint64_t Send(uint32_t dst, uint64_t bytes, uint8_t tclass, uint64_t cookie = 0);

    /**
     * Read a message from another accelerator: the destination of the data pulls it (a read
     * request to \p target, answered with the data). It completes here when its last byte has
     * arrived, and the completion's record carries that time as its delivery time
     * (FabricMessage::delivered); a fabric may also report it through the delivered callback here
     * (SUE does). Its bytes count as sent by \p target. Only fabrics with a read operation offer
     * it (SUE, UALink); the others abort (a scenario's loader refuses reads on them first).
     * \param target the accelerator read from
     * \param bytes payload bytes
     * \param tclass traffic class (a fabric may use classes of its own for reads)
     * \param cookie caller's tag, returned in the callbacks
     * \return the message id
     */
    virtual uint64_t Read(uint32_t target, uint64_t bytes, uint8_t tclass, uint64_t cookie = 0);

    /**
     * Issue one atomic operation on a word of another accelerator's memory. Only fabrics with
     * atomics offer it (UALink); the others abort (a scenario's loader refuses atomics first).
     * \param target the accelerator
     * \param operandBytes operand bytes
     * \param returnsData true if the old value comes back (an AtomicR), false if only a
     *        completion does
     * \param tclass traffic class
     * \param cookie caller's tag, returned in the callbacks
     * \return the message id
     */
    virtual uint64_t Atomic(uint32_t target,
                            uint32_t operandBytes,
                            bool returnsData,
                            uint8_t tclass,
                            uint64_t cookie = 0);

    /**
     * Post a supply's messages lazily: each is posted (as Send() posts it, with the supply's
     * post time) only when this endpoint's queue needs it, with the same result as posting them
     * all now, in the supply's order. An endpoint that cannot promise the same result (its
     * scheduler looks past the head of its queue, say) refuses, and the caller posts them all.
     * The caller must not post anything else at this endpoint before the supply is empty.
     * \param supply the messages
     * \return true if taken (the first message is posted now)
     */
    virtual bool PostLazily(Ptr<FabricMessageSupply> supply);

    /**
     * Post every message still in a supply taken by PostLazily() now, without starting any
     * transmission (at the end of a run, so that the counters and the Post trace say what
     * posting every message at the start says).
     */
    virtual void PostRemaining();

    /// \param cb called at this endpoint when a message addressed to it has fully arrived
    /**
     * For the flow engine: where the packet engine would put a message's bytes, how many
     * bytes the wire carries for it and what comes before and after them (FabricFlowPlan).
     * Called once per message, in post order, when the flow engine takes it (a choice that
     * rotates, such as round-robin planes, moves on as a send would move it).
     * \param m the message (id, src, dst, bytes, tclass set)
     * \param [out] plan the plan
     * \return false if this endpoint offers no flow plan (the flow engine refuses the pod)
     */
    virtual bool PlanFlow(const FabricMessage& m, FabricFlowPlan& plan);

    /// Where a flow engine takes the messages posted here (instead of the fabric's devices).
    typedef Callback<void, Ptr<FabricEndpoint>, const FabricMessage&> FlowEngineCallback;

    /**
     * Hand every message posted here from now on to a flow engine instead of the fabric's
     * devices (the counters, the Post trace and the message ids are as with the devices).
     * \param cb the engine (null: the devices again)
     */
    void SetFlowEngine(FlowEngineCallback cb);

    /// \return true if a flow engine takes this endpoint's messages
    bool HasFlowEngine() const
    {
        return !m_flowEngine.IsNull();
    }

    /**
     * The flow engine: a message has reached this endpoint whole.
     * \param m the message (delivered time set)
     */
    void FlowDelivered(const FabricMessage& m);

    /**
     * The flow engine: a message this endpoint posted has completed.
     * \param m the message (completed time set)
     */
    void FlowCompleted(const FabricMessage& m);

    void SetDeliveredCallback(MessageCallback cb);
    /// \param cb called at this endpoint when a message it sent completes
    void SetCompletedCallback(MessageCallback cb);

    /**
     * \param dst a destination accelerator
     * \return congestion toward dst in [0, 1]: 0 free, 1 fully back-pressured
     */
    virtual double GetCongestionState(uint32_t dst) const = 0;

    /// \return this endpoint's accelerator id
    uint32_t GetAcceleratorId() const
    {
        return m_id;
    }

    /// \param id this endpoint's accelerator id
    void SetAcceleratorId(uint32_t id)
    {
        m_id = id;
    }

    /// \return payload bytes posted by this endpoint
    uint64_t GetBytesSent() const
    {
        return m_bytesSent;
    }

    /// \return payload bytes of messages delivered to this endpoint
    uint64_t GetBytesDelivered() const
    {
        return m_bytesDelivered;
    }

    /**
     * \return payload bytes of every unit that reached this endpoint intact, whether or not its
     * message was completed: with the fabric's drop counters this closes the conservation law
     * (bytes sent = bytes received + bytes dropped)
     */
    uint64_t GetReceivedPayloadBytes() const
    {
        return m_rxPayloadBytes;
    }

    /// \return messages posted by this endpoint
    uint64_t GetMessagesSent() const
    {
        return m_messagesSent;
    }

    /// \return messages delivered to this endpoint
    uint64_t GetMessagesDelivered() const
    {
        return m_messagesDelivered;
    }

    /// \return messages posted by this endpoint that completed
    uint64_t GetMessagesCompleted() const
    {
        return m_messagesCompleted;
    }

  protected:
    /**
     * Post a message taken from a supply: as Send(), with the supply's post time.
     * \param m the message (dst, bytes, tclass, cookie, posted)
     * \return the message id
     */
    uint64_t PostPlanned(FabricMessage m);

    /**
     * Count payload a subclass sends on its own (a read response), as Send() counts.
     * \param bytes payload bytes
     */
    void CountSentPayload(uint64_t bytes)
    {
        m_bytesSent += bytes;
    }

    /**
     * Count payload that reached this endpoint intact (subclasses call it per unit).
     * \param bytes payload bytes
     */
    void CountReceivedPayload(uint64_t bytes)
    {
        m_rxPayloadBytes += bytes;
    }

    /**
     * Fire the Post trace for a message a subclass posts on its own (a read), as Send() does.
     * \param m the message
     */
    void NotifyPosted(const FabricMessage& m)
    {
        m_postTrace(m);
    }

    /**
     * Report a message fully received at this endpoint.
     * \param m the message (delivered time set by the caller)
     */
    void NotifyDelivered(const FabricMessage& m);
    /**
     * Report a message sent by this endpoint complete.
     * \param m the message (completed time set by the caller)
     */
    void NotifyCompleted(const FabricMessage& m);

  private:
    /**
     * Fabric-specific posting of a message.
     * \param m the message record (id, src, posted already set)
     */
    virtual void DoSend(const FabricMessage& m) = 0;

    uint32_t m_id{0};                                      //!< accelerator id
    uint64_t m_nextMsgId{0};                               //!< next message id
    uint64_t m_bytesSent{0};                               //!< payload bytes posted
    uint64_t m_bytesDelivered{0};                          //!< payload bytes delivered here
    uint64_t m_rxPayloadBytes{0};                          //!< payload bytes received intact
    uint64_t m_messagesSent{0};                            //!< messages posted
    uint64_t m_messagesDelivered{0};                       //!< messages delivered here
    uint64_t m_messagesCompleted{0};                       //!< messages completed
    MessageCallback m_deliveredCb;                         //!< delivery callback
    FlowEngineCallback m_flowEngine;                       //!< the flow engine, if any
    MessageCallback m_completedCb;                         //!< completion callback
    TracedCallback<const FabricMessage&> m_postTrace;      //!< message posted
    TracedCallback<const FabricMessage&> m_deliveredTrace; //!< message delivered
    TracedCallback<const FabricMessage&> m_completedTrace; //!< message completed
};

} // namespace ns3

#endif /* FABRIC_ENDPOINT_H */
