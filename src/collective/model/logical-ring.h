/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef LOGICAL_RING_H
#define LOGICAL_RING_H

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup collective
 * \brief A logical ring over the ranks of a communicator: an order of the ranks, each sending to
 * the next position and receiving from the previous one.
 *
 * Kept apart from the algorithms that run on it (style-anchors rule 13): RingAlgorithm and
 * BidirectionalRingAlgorithm walk a LogicalRing, HierarchicalAlgorithm walks one ring inside each
 * group and one across groups.
 */
class LogicalRing
{
  public:
    /**
     * The ring 0, 1, ..., n-1 (reversed: 0, n-1, n-2, ..., 1).
     * \param n ranks
     * \param reversed run the other way round
     */
    explicit LogicalRing(uint32_t n = 1, bool reversed = false);

    /**
     * A ring in a given order.
     * \param order the ranks in ring order (a permutation of 0..n-1)
     */
    explicit LogicalRing(const std::vector<uint32_t>& order);

    /// \return ranks in the ring
    uint32_t GetSize() const
    {
        return m_order.size();
    }

    /// \param pos a position (taken modulo the size, may be negative) \return the rank there
    uint32_t RankAt(int64_t pos) const;

    /// \param rank a rank \return its position
    uint32_t PositionOf(uint32_t rank) const
    {
        return m_position[rank];
    }

    /// \param rank a rank \return the rank it sends to
    uint32_t Next(uint32_t rank) const
    {
        return RankAt(int64_t(m_position[rank]) + 1);
    }

    /// \param rank a rank \return the rank it receives from
    uint32_t Prev(uint32_t rank) const
    {
        return RankAt(int64_t(m_position[rank]) - 1);
    }

  private:
    std::vector<uint32_t> m_order;    //!< rank at each position
    std::vector<uint32_t> m_position; //!< position of each rank
};

} // namespace ns3

#endif /* LOGICAL_RING_H */
