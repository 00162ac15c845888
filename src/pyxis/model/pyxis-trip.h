/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PYXIS_TRIP_H
#define PYXIS_TRIP_H

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \defgroup pyxis Pyxis chip (the Pyxis Chip Functional Specification): trips, barriers, engines
 */

/**
 * \ingroup pyxis
 * \brief A global barrier id (Pyxis spec 11.4.1, 11.6.4): {cluster[1:0], local id[9:0]}.
 *
 * Local id 0 is no barrier (a no-op entry of a notify list).
 */
struct PyxisBarrierRef
{
    uint32_t cluster{0}; //!< absolute cluster of the barrier table (2 bits)
    uint32_t id{0};      //!< local barrier id in that table (10 bits; 0 = none)

    /**
     * \param global a 12-bit global id
     * \return its cluster and local id
     */
    static PyxisBarrierRef FromGlobalId(uint32_t global)
    {
        return PyxisBarrierRef{(global >> 10) & 0x3, global & 0x3FF};
    }
};

/**
 * \ingroup pyxis
 * \brief One trip descriptor (Pyxis spec 11.4): the common header and the engine payload.
 *
 * The header (11.4.1) is the same for every engine. The payload fields used depend on the queue
 * the trip is enqueued to (PyxisQueueMap); the others are ignored. The model carries no
 * addresses or microcode: a UIE or MPE trip carries its duration in chip cycles (the UIE kernel
 * model computes it), a DMA trip its bytes.
 */
struct PyxisTrip
{
    static constexpr uint32_t MAX_NOTIFY = 8;        //!< notify_list entries (11.4.1)
    static constexpr uint32_t MAX_TRIP_ID = 0xFFFFF; //!< Trip_id is 20 bits (11.4.1)

    // Common header (11.4.1)
    uint32_t waitBarrier{0};             //!< local barrier to wait on (0 = no wait)
    std::vector<PyxisBarrierRef> notify; //!< barriers notified when done (at most 8)
    uint32_t tripId{0};                  //!< software trip id, for tracing (20 bits)

    // UIE and MPE payload
    uint64_t cycles{0}; //!< duration in chip cycles (UIE: its kernel; MPE: the patch)

    // DMA payload: H2A, A2H (1 KB units, <= 64 MiB), ICDMA (128 B words, <= 8 MiB), RDMA
    uint64_t bytes{0};       //!< bytes moved
    uint32_t planeMask{0xF}; //!< ICDMA: Core Switch planes it may use (11.4.5; 0 is illegal)

    // Barrier-config payload (11.4.11)
    uint32_t configBarrier{0}; //!< local barrier to set up
    uint32_t notifyCount{0};   //!< producers (at most 31)
    uint32_t waitCount{0};     //!< consumers (at most 31)

    // RDMA payload (11.4.6-7), handed to the RDMA job handler as is
    uint32_t tjid{0};            //!< Tx job id (8 bits)
    uint32_t rjid{0};            //!< Rx job id (8 bits)
    uint32_t voq{0};             //!< Tx: destination VOQ; Rx: message VOQ back to the Tx chip
    uint32_t pageSizeWords{125}; //!< Tx: words per page
};

/**
 * \param a a barrier ref
 * \param b another
 * \return true if they name the same barrier
 */
inline bool
operator==(const PyxisBarrierRef& a, const PyxisBarrierRef& b)
{
    return a.cluster == b.cluster && a.id == b.id;
}

/**
 * Trips are compared field by field (ns-3 compares the bound arguments of callbacks).
 * \param a a trip
 * \param b another
 * \return true if every field is equal
 */
inline bool
operator==(const PyxisTrip& a, const PyxisTrip& b)
{
    return a.waitBarrier == b.waitBarrier && a.notify == b.notify && a.tripId == b.tripId &&
           a.cycles == b.cycles && a.bytes == b.bytes && a.planeMask == b.planeMask &&
           a.configBarrier == b.configBarrier && a.notifyCount == b.notifyCount &&
           a.waitCount == b.waitCount && a.tjid == b.tjid && a.rjid == b.rjid && a.voq == b.voq &&
           a.pageSizeWords == b.pageSizeWords;
}

/**
 * \param a a trip
 * \param b another
 * \return true if a field differs
 */
inline bool
operator!=(const PyxisTrip& a, const PyxisTrip& b)
{
    return !(a == b);
}

} // namespace ns3

#endif /* PYXIS_TRIP_H */
