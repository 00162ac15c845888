/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CELL_FABRIC_DATAGRAM_RX_RING_H
#define CELL_FABRIC_DATAGRAM_RX_RING_H

#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup cell-fabric
 * \brief A datagram RxQ descriptor ring of the Pyxis Fabric Adapter (Pyxis spec 10.5, 10.8.1.3,
 * 10.8.8, 11.4.9, 11.5.2.2).
 *
 * Software owns the tail, hardware the head. A ring of N descriptors holds at most N - 1
 * (11.5.2.2), so software posts N - 1 free descriptors at the start, each with a buffer of
 * BufferSizeBytes (at most 16,256 B, 11.4.9). RxDMA takes the next free descriptor for a
 * datagram page (Take): none free, the page is dropped; larger than the buffer, the page is
 * dropped and the descriptor stays free (10.8.8). A written page fills its descriptor (Filled;
 * the head advances and software is told). Software processes the filled descriptors one at a
 * time, each in RepostTime, and posts it again as free, up to RepostLimit descriptors in all
 * (the spec gives no software timing: both are the model's attributes; a limit of 0 makes a
 * ring that runs dry after N - 1 datagrams). The descriptor prefetch FIFO is not modelled
 * apart: every free descriptor counts as prefetched.
 */
class CellFabricDatagramRxRing
{
  public:
    /// Why Take() refused a page.
    enum Verdict
    {
        ACCEPT,        //!< a free descriptor with a large enough buffer: write the page
        NO_DESCRIPTOR, //!< the ring has no free descriptor
        TOO_LARGE,     //!< the page is larger than the descriptor's buffer
    };

    /**
     * \param ringSize descriptors in the ring (N, at least 2; N - 1 are posted)
     * \param bufferBytes buffer of each descriptor (BufferSizeBytes)
     * \param repostTime software's time to process one filled descriptor and post it again
     * \param repostLimit descriptors software posts again, in all
     */
    void Configure(uint32_t ringSize, uint32_t bufferBytes, Time repostTime, uint64_t repostLimit);

    /**
     * RxDMA asks for a descriptor for a datagram page of \p bytes; on ACCEPT the descriptor is
     * taken (no longer free) until Filled().
     * \param bytes the page's payload bytes
     * \return the verdict
     */
    Verdict Take(uint32_t bytes);

    /// The page taken by the last accepted Take() is written: software may process it.
    void Filled();

  private:
    /// Software finishes processing one filled descriptor and posts it again.
    void Repost();

    uint32_t m_bufferBytes{16256}; //!< BufferSizeBytes of every descriptor
    Time m_repostTime;             //!< software time per filled descriptor
    uint64_t m_repostLimit{0};     //!< descriptors software may post again
    uint32_t m_free{0};            //!< free descriptors
    uint32_t m_toProcess{0};       //!< filled descriptors software has not processed
    bool m_softwareBusy{false};    //!< software is processing a descriptor
    uint64_t m_reposted{0};        //!< descriptors posted again
};

} // namespace ns3

#endif /* CELL_FABRIC_DATAGRAM_RX_RING_H */
