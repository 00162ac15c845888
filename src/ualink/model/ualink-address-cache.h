/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UALINK_ADDRESS_CACHE_H
#define UALINK_ADDRESS_CACHE_H

#include "ns3/object.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup ualink
 * \brief The transmit address cache of a TL (UALink_200 sections 5.5 and 5.6): up to 4 ways x
 * 1024 rows (congruence classes), one row per accelerator id, each entry holding ReqAddr[56:20]
 * (a 1 MB region).
 *
 * The Tx cache drives its partner's Rx cache in lockstep (section 5.6.2): a hit lets a request go
 * compressed (2 sectors, CWAY naming the way); a miss sends the request uncompressed with
 * CLOAD = 1 and CWAY naming the way it loads, in this cache and, when the request arrives, in the
 * partner's Rx cache. Which way a miss replaces is implementation-defined; this model replaces
 * the least recently used way of the row. An accelerator indexes the row by DSTACCID, a switch by
 * SRCACCID (section 5.5); the caller passes the right id.
 */
class UalinkAddressCache : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    UalinkAddressCache();
    ~UalinkAddressCache() override;

    /// Result of an access.
    struct Result
    {
        bool hit{false}; //!< the region was cached: the request may go compressed
        uint8_t way{0};  //!< CWAY: the way hit, or the way loaded on a miss
    };

    /**
     * \brief Look a request's region up and, on a miss, load it (CLOAD = 1).
     * \param row the congruence class (accelerator id)
     * \param addr the request's byte address
     * \return hit or miss and the way
     */
    Result Access(uint16_t row, uint64_t addr);

    /**
     * \param row the congruence class
     * \param addr a byte address
     * \return whether the region is cached, without touching the replacement state
     */
    bool Contains(uint16_t row, uint64_t addr) const;

    /// Invalidate every entry (section 5.5: the Tx cache may be cleared at any time).
    void Clear();

  private:
    /// One way of a row: 8 bytes, so that 1024 rows x 4 ways on every port of a 1024-accelerator
    /// pod fit (DESIGN.md rule 7).
    struct Entry
    {
        uint32_t region{0}; //!< ReqAddr[56:20], low 32 bits (the model's addresses fit)
        uint32_t used{0};   //!< last use (LRU stamp); 0: invalid
    };

    /// Allocate the rows on first use (attributes are set by then).
    void Allocate();

    uint32_t m_ways{4};           //!< Ways
    uint32_t m_rows{1024};        //!< Rows
    std::vector<Entry> m_entries; //!< rows x ways, allocated on first use
    uint32_t m_clock{0};          //!< LRU clock (wraps to 1 after 2^32 accesses)
};

} // namespace ns3

#endif /* UALINK_ADDRESS_CACHE_H */
