/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-tx-queue.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricTxQueue");
NS_OBJECT_ENSURE_REGISTERED(FabricTxQueue);

TypeId
FabricTxQueue::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FabricTxQueue").SetParent<Object>().SetGroupName("Fabric");
    return tid;
}

FabricTxQueue::FabricTxQueue()
{
    NS_LOG_FUNCTION(this);
}

FabricTxQueue::~FabricTxQueue()
{
    NS_LOG_FUNCTION(this);
}

bool
FabricTxQueue::IsEmpty() const
{
    return DoIsEmpty();
}

Ptr<FabricPacket>
FabricTxQueue::Dequeue(const FabricTxGate* gate)
{
    if (DoIsEmpty())
    {
        return nullptr;
    }
    Ptr<FabricPacket> p = DoDequeue(gate);
    if (!p)
    {
        // Held back by the gate, or by a gate of the queue's own (which wakes the device when a
        // unit can go); otherwise a non-empty queue must hand out a unit.
        NS_ASSERT_MSG(gate || HasOwnGate(),
                      "DoDequeue returned nothing although the queue is not empty");
        return nullptr;
    }
    ++m_dequeuedUnits;
    m_dequeuedBytes += p->GetSize();
    return p;
}

} // namespace ns3
