/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_FLAT_INDEX_H
#define FABRIC_FLAT_INDEX_H

#include "ns3/abort.h"

#include <cstdint>
#include <type_traits>
#include <vector>

namespace ns3
{

/**
 * \ingroup fabric
 * \brief An open-addressing index from an integer key to a 32-bit slot number (the position of
 * the keyed record in a compact array its owner keeps).
 *
 * The per-peer state of a port (a transport connection, a packer queue) is looked up on every
 * unit. A node-based hash map costs a bucket read and a node read per lookup and a heap node per
 * entry; this index keeps {key, slot} pairs in one power-of-two array with linear probing (one
 * cache line per lookup in the common case), grows lazily from nothing (an unused port costs
 * nothing) and keeps its load at most one half. Keys are mixed with a multiplicative (Fibonacci)
 * hash, so dense ids (peer accelerators 0..N-1) spread evenly.
 *
 * \tparam Key an unsigned integer type
 */
template <typename Key>
class FabricFlatIndex
{
    static_assert(std::is_unsigned_v<Key>, "FabricFlatIndex: the key must be unsigned");

  public:
    /// Slot value of an empty entry (never a valid slot).
    static constexpr uint32_t NONE = UINT32_MAX;

    /**
     * \param key a key
     * \return its slot, or NONE if absent
     */
    uint32_t Find(Key key) const
    {
        if (m_size == 0)
        {
            return NONE;
        }
        for (std::size_t i = Home(key);; i = (i + 1) & m_mask)
        {
            const Entry& e = m_entries[i];
            if (e.slot == NONE)
            {
                return NONE;
            }
            if (e.key == key)
            {
                return e.slot;
            }
        }
    }

    /**
     * \brief Add a key that is absent.
     * \param key the key
     * \param slot its slot (not NONE)
     */
    void Insert(Key key, uint32_t slot)
    {
        NS_ABORT_MSG_IF(slot == NONE, "FabricFlatIndex: slot " << slot << " is reserved");
        if (2 * (m_size + 1) > m_entries.size())
        {
            Grow();
        }
        Place(key, slot);
        ++m_size;
    }

    /**
     * \brief Remove a key (backward-shift deletion: no tombstones, lookups stay short).
     * \param key the key
     * \return true if it was present
     */
    bool Erase(Key key)
    {
        if (m_size == 0)
        {
            return false;
        }
        std::size_t i = Home(key);
        while (m_entries[i].slot != NONE && m_entries[i].key != key)
        {
            i = (i + 1) & m_mask;
        }
        if (m_entries[i].slot == NONE)
        {
            return false;
        }
        // Shift later entries of the probe run back into the hole when their home allows it.
        std::size_t hole = i;
        for (std::size_t j = (i + 1) & m_mask; m_entries[j].slot != NONE; j = (j + 1) & m_mask)
        {
            const std::size_t home = Home(m_entries[j].key);
            // j may move to hole if home is not cyclically in (hole, j].
            const bool stays = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
            if (!stays)
            {
                m_entries[hole] = m_entries[j];
                hole = j;
            }
        }
        m_entries[hole].slot = NONE;
        --m_size;
        return true;
    }

    /// \return the number of keys
    std::size_t Size() const
    {
        return m_size;
    }

    /// Remove every key and free the array.
    void Clear()
    {
        m_entries.clear();
        m_entries.shrink_to_fit();
        m_mask = 0;
        m_size = 0;
    }

  private:
    /// One {key, slot} pair.
    struct Entry
    {
        Key key{0};          //!< the key
        uint32_t slot{NONE}; //!< its slot, NONE if the entry is empty
    };

    /**
     * \param key a key
     * \return its home position
     */
    std::size_t Home(Key key) const
    {
        const uint64_t h = static_cast<uint64_t>(key) * 0x9e3779b97f4a7c15ull;
        return static_cast<std::size_t>(h >> m_shift) & m_mask;
    }

    /**
     * \brief Put a pair in the first empty entry of its probe run.
     * \param key the key
     * \param slot its slot
     */
    void Place(Key key, uint32_t slot)
    {
        std::size_t i = Home(key);
        while (m_entries[i].slot != NONE)
        {
            i = (i + 1) & m_mask;
        }
        m_entries[i] = Entry{key, slot};
    }

    /// Double the array (8 entries at first) and place every pair again.
    void Grow()
    {
        std::vector<Entry> old;
        old.swap(m_entries);
        const std::size_t n = old.empty() ? 8 : 2 * old.size();
        m_entries.assign(n, Entry{});
        m_mask = n - 1;
        unsigned bits = 0;
        while ((std::size_t(1) << bits) < n)
        {
            ++bits;
        }
        m_shift = 64 - bits;
        for (const Entry& e : old)
        {
            if (e.slot != NONE)
            {
                Place(e.key, e.slot);
            }
        }
    }

    std::vector<Entry> m_entries; //!< power-of-two array, load at most 1/2
    std::size_t m_mask{0};        //!< size - 1
    unsigned m_shift{64};         //!< 64 - log2(size): the hash's top bits pick the home
    std::size_t m_size{0};        //!< keys held
};

} // namespace ns3

#endif /* FABRIC_FLAT_INDEX_H */
