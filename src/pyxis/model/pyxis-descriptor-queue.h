/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PYXIS_DESCRIPTOR_QUEUE_H
#define PYXIS_DESCRIPTOR_QUEUE_H

#include "pyxis-trip.h"

#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup pyxis
 * \brief One trip descriptor queue (Pyxis spec 11.5.1): a ring of 4 descriptor lists.
 *
 * Head and tail are 3 bits each: a wrap bit and 2 index bits. The ring is empty when head ==
 * tail and full when head ^ tail == 4 (same index, different wrap bit). Software enqueues a list
 * (TryEnqueue), which advances the tail; the Descriptor Prefetch Engine fetches the head list's
 * descriptors in order (Pop) and advances the head once the list is fully fetched (not
 * necessarily executed). The model's prefetch is immediate [assumption: the DPE keeps the
 * shallow FIFOs full, 12.5].
 */
class PyxisDescriptorQueue : public Object
{
  public:
    static constexpr uint32_t RING = 4; //!< lists in the ring (2 index bits)

    /**
     * TracedCallback signature of a list fetched.
     * \param queue the queue id
     * \param head the head pointer after the list (3 bits)
     */
    typedef void (*ListTracedCallback)(uint32_t queue, uint32_t head);

    /// \return the TypeId
    static TypeId GetTypeId();

    PyxisDescriptorQueue();
    ~PyxisDescriptorQueue() override;

    /**
     * Enqueue a list (the enqueue CSR write of 11.5.1.1).
     * \param list the descriptors (at least one)
     * \param[out] error why, if refused
     * \return false if the ring is full or the list empty
     */
    bool TryEnqueue(const std::vector<PyxisTrip>& list, std::string& error);

    /// \return true if a descriptor is available
    bool HasTrip() const;

    /**
     * Fetch the next descriptor of the head list (HasTrip must hold). Advances the head when the
     * list is exhausted.
     * \return the descriptor
     */
    PyxisTrip Pop();

    /**
     * Discard every list (trip flush, 11.8).
     * \return descriptors discarded
     */
    std::vector<PyxisTrip> Flush();

    /// \return the head pointer (3 bits)
    uint32_t GetHead() const
    {
        return m_head;
    }

    /// \return the tail pointer (3 bits)
    uint32_t GetTail() const
    {
        return m_tail;
    }

    /// \return lists in the ring
    uint32_t GetLists() const
    {
        return (m_tail - m_head) & 0x7;
    }

    /// \return true if the ring is full
    bool IsFull() const
    {
        return (m_head ^ m_tail) == 0x4;
    }

  private:
    uint32_t m_queue{0};                                   //!< queue id (for traces)
    uint32_t m_head{0};                                    //!< 3-bit head pointer
    uint32_t m_tail{0};                                    //!< 3-bit tail pointer
    std::array<std::deque<PyxisTrip>, RING> m_ring;        //!< the lists (ring registers)
    TracedCallback<uint32_t, uint32_t> m_listFetchedTrace; //!< a list was fully fetched
};

} // namespace ns3

#endif /* PYXIS_DESCRIPTOR_QUEUE_H */
