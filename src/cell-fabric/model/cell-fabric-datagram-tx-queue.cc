/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cell-fabric-datagram-tx-queue.h"

#include "ns3/abort.h"

namespace ns3
{

void
CellFabricDatagramTxQueue::Configure(uint32_t ringSize, uint32_t reorderIds)
{
    NS_ABORT_MSG_IF(ringSize < 2, "CellFabricDatagramTxQueue: a ring needs at least 2 descriptors");
    NS_ABORT_MSG_IF(reorderIds < 1, "CellFabricDatagramTxQueue: at least one Reorder ID");
    m_capacity = ringSize - 1; // a ring of N holds N - 1 (11.5.2.1)
    m_reorderIds = reorderIds;
}

void
CellFabricDatagramTxQueue::Post(uint64_t job)
{
    if (m_ring.size() >= m_capacity)
    {
        ++m_ringFullWaits;
        m_backlog.push_back(job);
        return;
    }
    m_ring.push_back({job, false, false});
}

bool
CellFabricDatagramTxQueue::Admit(uint64_t& job)
{
    for (Entry& e : m_ring)
    {
        if (e.admitted)
        {
            continue;
        }
        if (m_reorderUsed >= m_reorderIds)
        {
            return false; // the reorder structure is full: the TxQ blocks (10.7.1.4)
        }
        e.admitted = true;
        ++m_reorderUsed;
        job = e.job;
        return true;
    }
    return false;
}

void
CellFabricDatagramTxQueue::Done(uint64_t job)
{
    for (Entry& e : m_ring)
    {
        if (e.job == job)
        {
            e.done = true;
            break;
        }
    }
    // the head advances in FIFO order over done descriptors (10.7.1.4)
    while (!m_ring.empty() && m_ring.front().done)
    {
        m_ring.pop_front();
        --m_reorderUsed;
    }
    Refill();
}

void
CellFabricDatagramTxQueue::Refill()
{
    while (!m_backlog.empty() && m_ring.size() < m_capacity)
    {
        m_ring.push_back({m_backlog.front(), false, false});
        m_backlog.pop_front();
    }
}

} // namespace ns3
