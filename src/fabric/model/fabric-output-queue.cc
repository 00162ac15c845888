/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-output-queue.h"

#include "fabric-invariant-check.h"

#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricOutputQueue");
NS_OBJECT_ENSURE_REGISTERED(FabricOutputQueue);

TypeId
FabricOutputQueue::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FabricOutputQueue")
            .SetParent<FabricTxQueue>()
            .SetGroupName("Fabric")
            .AddConstructor<FabricOutputQueue>()
            .AddAttribute("Classes",
                          "Number of traffic classes (priorities / virtual channels).",
                          UintegerValue(8),
                          MakeUintegerAccessor(&FabricOutputQueue::m_classes),
                          MakeUintegerChecker<uint32_t>(1, 32))
            .AddAttribute(
                "ClassScheduling",
                "How classes share the port: RoundRobin, or StrictPriority (higher "
                "class first).",
                EnumValue(ROUND_ROBIN),
                MakeEnumAccessor(&FabricOutputQueue::m_scheduling),
                MakeEnumChecker(ROUND_ROBIN, "RoundRobin", STRICT_PRIORITY, "StrictPriority"))
            .AddTraceSource("Units",
                            "Units queued (all classes).",
                            MakeTraceSourceAccessor(&FabricOutputQueue::m_units),
                            "ns3::TracedValueCallback::Uint64");
    return tid;
}

FabricOutputQueue::FabricOutputQueue()
{
    NS_LOG_FUNCTION(this);
}

FabricOutputQueue::~FabricOutputQueue()
{
    NS_LOG_FUNCTION(this);
}

void
FabricOutputQueue::DoDispose()
{
    m_queues.clear();
    m_dequeueCb = DequeueCallback();
    FabricTxQueue::DoDispose();
}

void
FabricOutputQueue::SetDequeueCallback(DequeueCallback cb)
{
    m_dequeueCb = cb;
}

void
FabricOutputQueue::Enqueue(const Ptr<FabricPacket>& p)
{
    NS_LOG_FUNCTION(this << p);
    NS_ASSERT_MSG(p->tclass < m_classes,
                  "Traffic class " << unsigned(p->tclass) << " out of range (" << m_classes
                                   << " classes)");
    if (m_queues.empty())
    {
        m_queues.resize(m_classes);
    }
    ClassQueue& q = m_queues[p->tclass];
    const uint32_t in = p->inPort;
    if (in >= q.slotOf.size())
    {
        q.slotOf.resize(in + 1, NONE);
    }
    p->next = nullptr;
    uint32_t s = q.slotOf[in];
    if (s == NONE)
    {
        // The input becomes active: take a slot and append it to the service ring.
        if (q.freeHead != NONE)
        {
            s = q.freeHead;
            q.freeHead = q.slots[s].next;
        }
        else
        {
            s = q.slots.size();
            q.slots.emplace_back();
        }
        InputFifo& f = q.slots[s];
        f.head = p;
        f.tail = p;
        f.input = in;
        q.slotOf[in] = s;
        AppendActive(q, s);
    }
    else
    {
        InputFifo& f = q.slots[s];
        f.tail->next = p;
        f.tail = p;
    }
    q.bytes += p->GetSize();
    m_bytes += p->GetSize();
    m_units = m_units + 1;
}

void
FabricOutputQueue::AppendActive(ClassQueue& q, uint32_t s)
{
    q.slots[s].next = NONE;
    if (q.activeTail == NONE)
    {
        q.activeHead = s;
    }
    else
    {
        q.slots[q.activeTail].next = s;
    }
    q.activeTail = s;
}

bool
FabricOutputQueue::DoIsEmpty() const
{
    return m_units == 0;
}

Ptr<FabricPacket>
FabricOutputQueue::DoDequeue(const FabricTxGate* gate)
{
    // Pick the class: the first non-empty one in service order whose head unit the gate (flow
    // control) admits.
    auto eligible = [this, gate](uint32_t c) {
        const ClassQueue& q = m_queues[c];
        if (q.activeHead == NONE)
        {
            return false;
        }
        if (!gate)
        {
            return true;
        }
        const Ptr<FabricPacket>& head = q.slots[q.activeHead].head;
        return gate->CanSendUnit(c, *head);
    };
    uint32_t c = 0;
    bool found = false;
    if (m_scheduling == STRICT_PRIORITY)
    {
        for (c = m_classes; c-- > 0;)
        {
            if (eligible(c))
            {
                found = true;
                break;
            }
        }
    }
    else
    {
        for (uint32_t i = 0; i < m_classes; ++i)
        {
            c = (m_nextClass + i) % m_classes;
            if (eligible(c))
            {
                found = true;
                break;
            }
        }
        if (found)
        {
            m_nextClass = (c + 1) % m_classes;
        }
    }
    if (!found)
    {
        return nullptr;
    }
    ClassQueue& q = m_queues[c];

    // Round robin over the active inputs of the class: serve the head of the ring, then move
    // it to the tail if it still has units, or free its slot.
    const uint32_t s = q.activeHead;
    InputFifo& f = q.slots[s];
    Ptr<FabricPacket> p = f.head;
    f.head = p->next;
    p->next = nullptr;
    q.activeHead = f.next;
    if (q.activeHead == NONE)
    {
        q.activeTail = NONE;
    }
    if (f.head)
    {
        AppendActive(q, s);
    }
    else
    {
        f.tail = nullptr;
        q.slotOf[f.input] = NONE;
        f.next = q.freeHead;
        q.freeHead = s;
    }
    if (FabricInvariantCheck::IsEnabled())
    {
        FabricInvariantCheck::Count();
        if (q.bytes < p->GetSize() || m_bytes < p->GetSize() || m_units == 0)
        {
            FabricInvariantCheck::Fail(
                FabricInvariantCheck::BUFFER,
                this,
                "FabricOutputQueue",
                "class " + std::to_string(c) + " bytes " +
                    std::to_string(static_cast<int64_t>(q.bytes) -
                                   static_cast<int64_t>(p->GetSize())) +
                    ", queue bytes " +
                    std::to_string(static_cast<int64_t>(m_bytes) -
                                   static_cast<int64_t>(p->GetSize())) +
                    ", units " + std::to_string(static_cast<int64_t>(m_units.Get()) - 1) +
                    " after a dequeue of " + std::to_string(p->GetSize()) + " B");
        }
    }
    q.bytes -= p->GetSize();
    m_bytes -= p->GetSize();
    m_units = m_units - 1;
    if (!m_dequeueCb.IsNull())
    {
        m_dequeueCb(p);
    }
    return p;
}

uint64_t
FabricOutputQueue::GetClassBytes(uint8_t tclass) const
{
    return tclass < m_queues.size() ? m_queues[tclass].bytes : 0;
}

bool
FabricOutputQueue::HasUnitsFrom(uint8_t tclass, uint32_t inPort) const
{
    if (tclass >= m_queues.size())
    {
        return false;
    }
    const ClassQueue& q = m_queues[tclass];
    // An input has a slot exactly while it has units queued (a slot is freed when it empties).
    return inPort < q.slotOf.size() && q.slotOf[inPort] != NONE;
}

} // namespace ns3
