/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "logical-tree.h"

#include <algorithm>

namespace ns3
{

LogicalTree::LogicalTree(uint32_t n, uint32_t shift)
    : m_n(n),
      m_shift(n ? shift % n : 0),
      m_parent(n, NONE),
      m_children(n),
      m_depth(n, 0)
{
    m_root = Build(0, n, NONE, 0);
}

uint32_t
LogicalTree::Build(uint32_t lo, uint32_t hi, uint32_t parent, uint32_t depth)
{
    if (lo >= hi)
    {
        return NONE;
    }
    const uint32_t mid = lo + (hi - lo) / 2;
    const uint32_t rank = (mid + m_shift) % m_n;
    m_parent[rank] = parent;
    m_depth[rank] = depth;
    m_height = std::max(m_height, depth);
    const uint32_t left = Build(lo, mid, rank, depth + 1);
    const uint32_t right = Build(mid + 1, hi, rank, depth + 1);
    if (left != NONE)
    {
        m_children[rank].push_back(left);
    }
    if (right != NONE)
    {
        m_children[rank].push_back(right);
    }
    return rank;
}

} // namespace ns3
