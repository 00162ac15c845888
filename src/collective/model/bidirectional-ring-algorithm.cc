/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "bidirectional-ring-algorithm.h"

#include "ring-algorithm.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("BidirectionalRingAlgorithm");
NS_OBJECT_ENSURE_REGISTERED(BidirectionalRingAlgorithm);

BidirectionalRingAlgorithm::BidirectionalRingAlgorithm()
{
    NS_LOG_FUNCTION(this);
}

BidirectionalRingAlgorithm::~BidirectionalRingAlgorithm()
{
    NS_LOG_FUNCTION(this);
}

std::string
BidirectionalRingAlgorithm::DoGetName() const
{
    return "bidirectional-ring";
}

TypeId
BidirectionalRingAlgorithm::GetTypeId()
{
    static TypeId tid = TypeId("ns3::BidirectionalRingAlgorithm")
                            .SetParent<CollectiveAlgorithm>()
                            .SetGroupName("Collective")
                            .AddConstructor<BidirectionalRingAlgorithm>();
    return tid;
}

void
BidirectionalRingAlgorithm::DoPrepare(const CollectiveSpec& spec)
{
    const uint32_t n = spec.ranks;
    m_cw = LogicalRing(n, false);
    m_ccw = LogicalRing(n, true);
    m_cwBlock.resize(n);
    m_ccwBlock.resize(n);
    for (uint32_t r = 0; r < n; ++r)
    {
        m_cwBlock[r] = 2 * r;
        m_ccwBlock[r] = 2 * r + 1;
    }
    switch (spec.type)
    {
    case CollectiveSpec::ALL_REDUCE:
        SetShape(2 * n, 2 * (n - 1));
        break;
    case CollectiveSpec::REDUCE_SCATTER:
    case CollectiveSpec::ALL_GATHER:
        SetShape(2 * n, n - 1);
        break;
    default:
        Unsupported("all-reduce, reduce-scatter, all-gather");
    }
}

void
BidirectionalRingAlgorithm::DoGetStep(uint32_t rank,
                                      uint32_t step,
                                      std::vector<CollectiveOp>& ops) const
{
    const uint32_t n = m_spec.ranks;
    const bool reducing = m_spec.type == CollectiveSpec::REDUCE_SCATTER ||
                          (m_spec.type == CollectiveSpec::ALL_REDUCE && step < n - 1);
    const uint32_t k =
        m_spec.type == CollectiveSpec::ALL_REDUCE && step >= n - 1 ? step - (n - 1) : step;
    if (reducing)
    {
        RingAlgorithm::ReduceScatterStep(m_cw, rank, k, m_cwBlock, 1, ops, 0);
        RingAlgorithm::ReduceScatterStep(m_ccw, rank, k, m_ccwBlock, 1, ops, 1);
    }
    else
    {
        RingAlgorithm::AllGatherStep(m_cw, rank, k, m_cwBlock, 1, ops, 0);
        RingAlgorithm::AllGatherStep(m_ccw, rank, k, m_ccwBlock, 1, ops, 1);
    }
}

} // namespace ns3
