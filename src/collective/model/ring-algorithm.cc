/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ring-algorithm.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RingAlgorithm");
NS_OBJECT_ENSURE_REGISTERED(RingAlgorithm);

TypeId
RingAlgorithm::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RingAlgorithm")
                            .SetParent<CollectiveAlgorithm>()
                            .SetGroupName("Collective")
                            .AddConstructor<RingAlgorithm>();
    return tid;
}

RingAlgorithm::RingAlgorithm()
{
    NS_LOG_FUNCTION(this);
}

RingAlgorithm::~RingAlgorithm()
{
    NS_LOG_FUNCTION(this);
}

std::string
RingAlgorithm::DoGetName() const
{
    return "ring";
}

void
RingAlgorithm::DoPrepare(const CollectiveSpec& spec)
{
    const uint32_t n = spec.ranks;
    m_ring = LogicalRing(n);
    m_blockOf.resize(n);
    for (uint32_t r = 0; r < n; ++r)
    {
        m_blockOf[r] = r;
    }
    switch (spec.type)
    {
    case CollectiveSpec::ALL_REDUCE:
        SetShape(n, 2 * (n - 1));
        break;
    case CollectiveSpec::REDUCE_SCATTER:
    case CollectiveSpec::ALL_GATHER:
        SetShape(n, n - 1);
        break;
    case CollectiveSpec::BROADCAST:
    case CollectiveSpec::REDUCE:
        SetShape(1, n - 1);
        break;
    default:
        Unsupported("all-reduce, reduce-scatter, all-gather, broadcast, reduce");
    }
}

void
RingAlgorithm::ReduceScatterStep(const LogicalRing& ring,
                                 uint32_t rank,
                                 uint32_t k,
                                 const std::vector<uint32_t>& blockOf,
                                 uint32_t blocksPerSegment,
                                 std::vector<CollectiveOp>& ops,
                                 uint8_t tag)
{
    const int64_t p = ring.PositionOf(rank);
    Send(ops, ring.Next(rank), blockOf[ring.RankAt(p - k - 1)], blocksPerSegment, tag);
    Recv(ops, ring.Prev(rank), blockOf[ring.RankAt(p - k - 2)], blocksPerSegment, true, tag);
}

void
RingAlgorithm::AllGatherStep(const LogicalRing& ring,
                             uint32_t rank,
                             uint32_t k,
                             const std::vector<uint32_t>& blockOf,
                             uint32_t blocksPerSegment,
                             std::vector<CollectiveOp>& ops,
                             uint8_t tag)
{
    const int64_t p = ring.PositionOf(rank);
    Send(ops, ring.Next(rank), blockOf[ring.RankAt(p - k)], blocksPerSegment, tag);
    Recv(ops, ring.Prev(rank), blockOf[ring.RankAt(p - k - 1)], blocksPerSegment, false, tag);
}

void
RingAlgorithm::DoGetStep(uint32_t rank, uint32_t step, std::vector<CollectiveOp>& ops) const
{
    const uint32_t n = m_spec.ranks;
    switch (m_spec.type)
    {
    case CollectiveSpec::ALL_REDUCE:
        if (step < n - 1)
        {
            ReduceScatterStep(m_ring, rank, step, m_blockOf, 1, ops, 0);
        }
        else
        {
            AllGatherStep(m_ring, rank, step - (n - 1), m_blockOf, 1, ops, 0);
        }
        break;
    case CollectiveSpec::REDUCE_SCATTER:
        ReduceScatterStep(m_ring, rank, step, m_blockOf, 1, ops, 0);
        break;
    case CollectiveSpec::ALL_GATHER:
        AllGatherStep(m_ring, rank, step, m_blockOf, 1, ops, 0);
        break;
    case CollectiveSpec::BROADCAST: {
        // Chain root -> root+1 -> ...: relative position q sends in step q, receives in q-1.
        const uint32_t q = (rank + n - m_spec.root) % n;
        if (q + 1 == step + 1 && q < n - 1)
        {
            Send(ops, (rank + 1) % n, 0, 1);
        }
        if (q >= 1 && q - 1 == step)
        {
            Recv(ops, (rank + n - 1) % n, 0, 1, false);
        }
        break;
    }
    case CollectiveSpec::REDUCE: {
        // Chain ... -> root+1 -> root: relative position q >= 1 sends to q-1 in step n-1-q.
        const uint32_t q = (rank + n - m_spec.root) % n;
        if (q >= 1 && step == n - 1 - q)
        {
            Send(ops, (rank + n - 1) % n, 0, 1);
        }
        if (q + 1 < n && step == n - 2 - q)
        {
            Recv(ops, (rank + 1) % n, 0, 1, true);
        }
        break;
    }
    default:
        break;
    }
}

} // namespace ns3
