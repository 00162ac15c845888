/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef LOGICAL_TREE_H
#define LOGICAL_TREE_H

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup collective
 * \brief A logical binary tree over the ranks of a communicator.
 *
 * Built in order over positions 0..n-1: the root of a range [lo, hi) is its middle (lo+hi)/2,
 * the left subtree covers [lo, mid) and the right one [mid+1, hi), so the tree is balanced
 * (height floor(log2 n)) and, for n = 2^k - 1, its leaves are exactly the even positions. A
 * rotation maps positions to ranks (rank = (position + shift) mod n): the double binary tree
 * uses shift 0 and shift n-1 so that the ranks that are inner nodes in one tree are mostly leaves
 * in the other.
 */
class LogicalTree
{
  public:
    /// No parent (the root).
    static constexpr uint32_t NONE = UINT32_MAX;

    /**
     * \param n ranks
     * \param shift rank = (position + shift) mod n
     */
    explicit LogicalTree(uint32_t n = 1, uint32_t shift = 0);

    /// \param rank a rank \return its parent, or NONE for the root
    uint32_t GetParent(uint32_t rank) const
    {
        return m_parent[rank];
    }

    /// \param rank a rank \return its children (0, 1 or 2)
    const std::vector<uint32_t>& GetChildren(uint32_t rank) const
    {
        return m_children[rank];
    }

    /// \param rank a rank \return its depth (the root has 0)
    uint32_t GetDepth(uint32_t rank) const
    {
        return m_depth[rank];
    }

    /// \return the largest depth
    uint32_t GetHeight() const
    {
        return m_height;
    }

    /// \return the root's rank
    uint32_t GetRoot() const
    {
        return m_root;
    }

  private:
    /**
     * Build the subtree of positions [lo, hi).
     * \param lo first position
     * \param hi one past the last
     * \param parent parent rank (NONE for the root)
     * \param depth depth of the subtree's root
     * \return the subtree root's rank, or NONE if empty
     */
    uint32_t Build(uint32_t lo, uint32_t hi, uint32_t parent, uint32_t depth);

    uint32_t m_n;                                  //!< ranks
    uint32_t m_shift;                              //!< rank = (position + shift) mod n
    std::vector<uint32_t> m_parent;                //!< per rank
    std::vector<std::vector<uint32_t>> m_children; //!< per rank
    std::vector<uint32_t> m_depth;                 //!< per rank
    uint32_t m_height{0};                          //!< largest depth
    uint32_t m_root{0};                            //!< root rank
};

} // namespace ns3

#endif /* LOGICAL_TREE_H */
