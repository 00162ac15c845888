/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CELL_FABRIC_DATAGRAM_TX_QUEUE_H
#define CELL_FABRIC_DATAGRAM_TX_QUEUE_H

#include <cstdint>
#include <deque>

namespace ns3
{

/**
 * \ingroup cell-fabric
 * \brief A datagram TxQ of the Pyxis Fabric Adapter (Pyxis spec 10.7.1.3-4, 11.4.8, 11.5.2.1):
 * its descriptor ring and its 64-entry completion reorder structure.
 *
 * Software posts descriptors at the tail; a ring of N holds at most N - 1 (11.5.2.1); posts
 * beyond wait in software (the backlog) until the head advances. Hardware admits the ring's
 * descriptors in order into the Page Generator, each with a TxQ Reorder ID from a pool of
 * ReorderIds (64, 10.7.1.4): with none free the TxQ blocks. A datagram is done when its page
 * has been read into the Tx buffer (the model: when it leaves its FO pipe); the head advances
 * over the done descriptors in FIFO order, which frees their ring entries and Reorder IDs.
 */
class CellFabricDatagramTxQueue
{
  public:
    /**
     * \param ringSize descriptors in the ring (N, at least 2)
     * \param reorderIds TxQ Reorder IDs (64 in the spec)
     */
    void Configure(uint32_t ringSize, uint32_t reorderIds);

    /**
     * Software posts a datagram (a Tx job id of the adapter).
     * \param job the job
     */
    void Post(uint64_t job);

    /**
     * Admit the next descriptor into the Page Generator, if the ring holds one not yet admitted
     * and a Reorder ID is free.
     * \param[out] job the admitted job
     * \return false if nothing can be admitted now
     */
    bool Admit(uint64_t& job);

    /**
     * The datagram's page is in the Tx buffer: mark it done and advance the head in order.
     * \param job the job
     */
    void Done(uint64_t job);

    /// \return descriptors in the ring (posted, head not yet past them)
    uint32_t GetInRing() const
    {
        return m_ring.size();
    }

    /// \return posts waiting in software for ring space
    uint32_t GetBacklog() const
    {
        return m_backlog.size();
    }

    /// \return times a post found the ring full
    uint64_t GetRingFullWaits() const
    {
        return m_ringFullWaits;
    }

  private:
    /// A descriptor in the ring.
    struct Entry
    {
        uint64_t job{0};      //!< the Tx job
        bool admitted{false}; //!< in the Page Generator (holds a Reorder ID)
        bool done{false};     //!< page in the Tx buffer
    };

    /// Move backlog posts into free ring entries.
    void Refill();

    uint32_t m_capacity{255};       //!< ring entries usable (N - 1)
    uint32_t m_reorderIds{64};      //!< Reorder IDs
    uint32_t m_reorderUsed{0};      //!< Reorder IDs held
    std::deque<Entry> m_ring;       //!< head first
    std::deque<uint64_t> m_backlog; //!< posts waiting for ring space
    uint64_t m_ringFullWaits{0};    //!< posts that found the ring full
};

} // namespace ns3

#endif /* CELL_FABRIC_DATAGRAM_TX_QUEUE_H */
