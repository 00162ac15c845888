/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_CONN_MAP_H
#define FABRIC_CONN_MAP_H

#include "fabric-flat-index.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace ns3
{

/**
 * \ingroup fabric
 * \brief Per-peer records of a port (transport connections), keyed by a 32-bit id, stored
 * densely.
 *
 * Records live in blocks of BLOCK, in the order they were made, and are never moved or removed
 * before Clear(): a reference stays valid while others are added. A FabricFlatIndex maps each key
 * to its slot. A port that never talks to a peer holds nothing for it; a lookup reads one index
 * entry and the record itself, where a node-based hash map reads a bucket, a node, and has the
 * record on a heap node of its own.
 *
 * \tparam T the record (default-constructible)
 */
template <typename T>
class FabricConnMap
{
  public:
    /**
     * \param key a key
     * \return its record, or null if it has none
     */
    T* Find(uint32_t key) const
    {
        const uint32_t slot = m_index.Find(key);
        return slot == FabricFlatIndex<uint32_t>::NONE ? nullptr : &At(slot);
    }

    /**
     * \param key a key
     * \return its record, default-constructed on first use
     */
    T& operator[](uint32_t key)
    {
        uint32_t slot = m_index.Find(key);
        if (slot == FabricFlatIndex<uint32_t>::NONE)
        {
            slot = static_cast<uint32_t>(m_keys.size());
            if (slot % BLOCK == 0)
            {
                m_blocks.push_back(std::make_unique<T[]>(BLOCK));
            }
            m_keys.push_back(key);
            m_index.Insert(key, slot);
        }
        return At(slot);
    }

    /// \return the number of records
    std::size_t Size() const
    {
        return m_keys.size();
    }

    /**
     * \param slot a slot below Size() (records are numbered in the order they were made)
     * \return its key
     */
    uint32_t KeyAt(std::size_t slot) const
    {
        return m_keys[slot];
    }

    /**
     * \param slot a slot below Size()
     * \return its record
     */
    T& At(std::size_t slot) const
    {
        return m_blocks[slot / BLOCK][slot % BLOCK];
    }

    /// Remove every record.
    void Clear()
    {
        m_index.Clear();
        m_blocks.clear();
        m_keys.clear();
    }

  private:
    /// Records per block (a port with few peers holds one small block).
    static constexpr uint32_t BLOCK = 32;

    FabricFlatIndex<uint32_t> m_index;          //!< key -> slot
    std::vector<std::unique_ptr<T[]>> m_blocks; //!< records, BLOCK per block
    std::vector<uint32_t> m_keys;               //!< key of each slot
};

} // namespace ns3

#endif /* FABRIC_CONN_MAP_H */
