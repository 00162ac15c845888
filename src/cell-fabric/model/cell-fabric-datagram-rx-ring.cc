/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cell-fabric-datagram-rx-ring.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CellFabricDatagramRxRing");

void
CellFabricDatagramRxRing::Configure(uint32_t ringSize,
                                    uint32_t bufferBytes,
                                    Time repostTime,
                                    uint64_t repostLimit)
{
    NS_ABORT_MSG_IF(ringSize < 2, "CellFabricDatagramRxRing: a ring needs at least 2 descriptors");
    m_bufferBytes = bufferBytes;
    m_repostTime = repostTime;
    m_repostLimit = repostLimit;
    m_free = ringSize - 1; // a ring of N holds N - 1 (11.5.2.2)
}

CellFabricDatagramRxRing::Verdict
CellFabricDatagramRxRing::Take(uint32_t bytes)
{
    if (m_free == 0)
    {
        return NO_DESCRIPTOR;
    }
    if (bytes > m_bufferBytes)
    {
        return TOO_LARGE;
    }
    --m_free;
    return ACCEPT;
}

void
CellFabricDatagramRxRing::Filled()
{
    if (m_reposted + m_toProcess >= m_repostLimit)
    {
        return; // software posts no more descriptors
    }
    ++m_toProcess;
    if (!m_softwareBusy)
    {
        m_softwareBusy = true;
        Simulator::Schedule(m_repostTime, &CellFabricDatagramRxRing::Repost, this);
    }
}

void
CellFabricDatagramRxRing::Repost()
{
    NS_LOG_FUNCTION(this);
    --m_toProcess;
    ++m_free;
    ++m_reposted;
    if (m_toProcess > 0)
    {
        Simulator::Schedule(m_repostTime, &CellFabricDatagramRxRing::Repost, this);
    }
    else
    {
        m_softwareBusy = false;
    }
}

} // namespace ns3
