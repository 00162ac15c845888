/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_OUTPUT_QUEUE_H
#define FABRIC_OUTPUT_QUEUE_H

#include "fabric-tx-queue.h"

#include "ns3/callback.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup fabric
 * \brief The egress queue of a switch port: per traffic class, round robin over input ports.
 *
 * An output-queued switch keeps, for each egress port and class, one FIFO per input port that
 * currently has units queued. Dequeue serves classes round robin (or in strict priority, see the
 * ClassScheduling attribute) and, within a class, the active inputs round robin: with k inputs
 * backlogged toward one output each gets 1/k of the output (the fairness the incast tests check).
 *
 * Costs are O(1) per unit and nothing is allocated per unit: units are chained through
 * FabricPacket::next; the FIFOs of active inputs live in a pool of slots that are reused when an
 * input empties, linked in a ring in service order; a class's input-to-slot index (2 bytes per
 * input) is created the first time the class is used.
 */
class FabricOutputQueue : public FabricTxQueue
{
  public:
    /// How classes share the port.
    enum ClassScheduling
    {
        ROUND_ROBIN,     //!< one unit per non-empty class in turn
        STRICT_PRIORITY, //!< the highest-numbered non-empty class first
    };

    /**
     * Called when a unit leaves the queue (the switch releases its buffer).
     * \param p the unit
     */
    typedef Callback<void, const Ptr<FabricPacket>&> DequeueCallback;

    static TypeId GetTypeId();
    FabricOutputQueue();
    ~FabricOutputQueue() override;

    /**
     * Queue a unit from an input port.
     * \param p the unit (p->tclass selects the class, p->inPort the input)
     */
    void Enqueue(const Ptr<FabricPacket>& p);

    /// \param cb called for each unit dequeued
    void SetDequeueCallback(DequeueCallback cb);

    /// \return the number of classes
    uint32_t GetNClasses() const
    {
        return m_classes;
    }

    /// \return bytes queued (all classes)
    uint64_t GetBytes() const
    {
        return m_bytes;
    }

    /// \return units queued (all classes)
    uint64_t GetUnits() const
    {
        return m_units;
    }

    /**
     * \param tclass a class
     * \return bytes queued in that class
     */
    uint64_t GetClassBytes(uint8_t tclass) const;

    /**
     * \brief Whether units of a class that arrived on an input port are queued here (what a
     * deadlock monitor asks to find which egress queues an ingress port waits on). O(1).
     * \param tclass a class
     * \param inPort an input port of the switch
     * \return true if at least one such unit is queued
     */
    bool HasUnitsFrom(uint8_t tclass, uint32_t inPort) const;

  protected:
    void DoDispose() override;

  private:
    bool DoIsEmpty() const override;
    Ptr<FabricPacket> DoDequeue(const FabricTxGate* gate) override;

    static constexpr uint32_t NONE = 0xffffffff; //!< no slot

    /// FIFO of one active input within one class.
    struct InputFifo
    {
        Ptr<FabricPacket> head; //!< first unit
        Ptr<FabricPacket> tail; //!< last unit
        uint32_t input{0};      //!< input port
        uint32_t next{NONE};    //!< next active slot in service order, or next free slot
    };

    /// State of one class.
    struct ClassQueue
    {
        std::vector<uint32_t> slotOf; //!< input port -> slot (NONE: inactive)
        std::vector<InputFifo> slots; //!< slot pool
        uint32_t freeHead{NONE};      //!< free slots
        uint32_t activeHead{NONE};    //!< next input to serve
        uint32_t activeTail{NONE};    //!< last input to serve
        uint64_t bytes{0};            //!< bytes queued
    };

    /**
     * Put a slot at the end of its class's service ring.
     * \param q the class
     * \param s the slot
     */
    static void AppendActive(ClassQueue& q, uint32_t s);

    uint32_t m_classes{8};                     //!< number of classes
    ClassScheduling m_scheduling{ROUND_ROBIN}; //!< class scheduling
    std::vector<ClassQueue> m_queues;          //!< per class
    uint32_t m_nextClass{0};                   //!< round-robin pointer over classes
    uint64_t m_bytes{0};                       //!< bytes queued
    TracedValue<uint64_t> m_units{0};          //!< units queued
    DequeueCallback m_dequeueCb;               //!< buffer release
};

} // namespace ns3

#endif /* FABRIC_OUTPUT_QUEUE_H */
