/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "logical-ring.h"

#include "ns3/assert.h"

namespace ns3
{

LogicalRing::LogicalRing(uint32_t n, bool reversed)
    : m_order(n),
      m_position(n)
{
    for (uint32_t p = 0; p < n; ++p)
    {
        m_order[p] = reversed ? (n - p) % n : p;
        m_position[m_order[p]] = p;
    }
}

LogicalRing::LogicalRing(const std::vector<uint32_t>& order)
    : m_order(order),
      m_position(order.size())
{
    for (uint32_t p = 0; p < order.size(); ++p)
    {
        NS_ASSERT_MSG(order[p] < order.size(), "ring order is not a permutation");
        m_position[order[p]] = p;
    }
}

uint32_t
LogicalRing::RankAt(int64_t pos) const
{
    const int64_t n = m_order.size();
    return m_order[((pos % n) + n) % n];
}

} // namespace ns3
