/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RIFL_CELL_H
#define RIFL_CELL_H

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup rifl
 * \brief One Layer 2 cell in the cell-time switch model: 8 bytes, copied by value (no
 * allocation per cell).
 */
struct RiflCell
{
    uint32_t gen{0};   //!< cell time it was generated at the source
    uint16_t dst{0};   //!< output port
    uint16_t bytes{0}; //!< valid payload bytes (at most 256)
};

/**
 * \ingroup rifl
 * \brief A FIFO ring of cells. Bounded rings (VOQs) never grow; unbounded ones (source queues)
 * double their storage when full, so steady state allocates nothing.
 */
class RiflCellRing
{
  public:
    /**
     * \brief Reserve storage.
     * \param capacity cells (rounded up to a power of two)
     */
    void Reserve(uint32_t capacity)
    {
        uint32_t c = 1;
        while (c < capacity)
        {
            c <<= 1;
        }
        m_buf.assign(c, RiflCell());
        m_head = 0;
        m_size = 0;
    }

    /// \return cells queued
    uint32_t Size() const
    {
        return m_size;
    }

    /// \return whether empty
    bool IsEmpty() const
    {
        return m_size == 0;
    }

    /// \param c the cell to append (grows the ring when full)
    void Push(const RiflCell& c)
    {
        if (m_size == m_buf.size())
        {
            Grow();
        }
        m_buf[(m_head + m_size) & (m_buf.size() - 1)] = c;
        ++m_size;
    }

    /// \return the head cell
    const RiflCell& Front() const
    {
        return m_buf[m_head];
    }

    /// \return the tail cell (the last pushed)
    RiflCell& Back()
    {
        return m_buf[(m_head + m_size - 1) & (m_buf.size() - 1)];
    }

    /// \brief Remove the head cell.
    void Pop()
    {
        m_head = (m_head + 1) & (static_cast<uint32_t>(m_buf.size()) - 1);
        --m_size;
    }

  private:
    /// \brief Double the storage, keeping the order.
    void Grow()
    {
        std::vector<RiflCell> b(m_buf.empty() ? 4 : m_buf.size() * 2);
        for (uint32_t k = 0; k < m_size; ++k)
        {
            b[k] = m_buf[(m_head + k) & (m_buf.size() - 1)];
        }
        m_buf.swap(b);
        m_head = 0;
    }

    std::vector<RiflCell> m_buf; //!< storage (power of two)
    uint32_t m_head{0};          //!< index of the head
    uint32_t m_size{0};          //!< cells queued
};

} // namespace ns3

#endif /* RIFL_CELL_H */
