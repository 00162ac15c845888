/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UALINK_ATOMIC_MEMORY_H
#define UALINK_ATOMIC_MEMORY_H

#include "ns3/object.h"

#include <cstdint>
#include <unordered_map>

namespace ns3
{

/**
 * \ingroup ualink
 * \brief The memory words an accelerator's completer modifies with atomics (UALink_200 sections
 * 2.7.4.5, Table 2-4): AtomicR and AtomicNR are read-modify-writes at the completer, AtomicR
 * returning the value read before the update (Table 2-6).
 *
 * The model keeps only the words atomics touch (a map from byte address to value, 0 until first
 * written). The spec leaves the operation types (OpType[4:0] in ReqAttr, Table 2-4) and their
 * semantics implementation-defined; this model implements one, an add (fetch-and-add): the
 * operand is added modulo 2^(8 x size), size 1, 2, 4 or 8 B (Table 2-5's 8, 16, 32 and 64-bit
 * operands). Each update is applied whole when the request arrives at the completer, so
 * concurrent atomics to one word from several originators serialise in arrival order (2.7.10:
 * single-copy atomicity).
 */
class UalinkAtomicMemory : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    UalinkAtomicMemory();
    ~UalinkAtomicMemory() override;

    /// Counters.
    struct Stats
    {
        uint64_t applied{0};        //!< atomic updates applied
        uint64_t returningValue{0}; //!< of which AtomicR (old value returned)
    };

    /**
     * \brief Apply an atomic add.
     * \param addr the word's byte address (aligned to its size)
     * \param operand the value added
     * \param bytes the word size: 1, 2, 4 or 8
     * \param returnsData whether it is an AtomicR (counted apart)
     * \return the value before the update
     */
    uint64_t FetchAdd(uint64_t addr, uint64_t operand, uint32_t bytes, bool returnsData);

    /**
     * \param addr a byte address
     * \return the word's value (0 if no atomic touched it)
     */
    uint64_t Read(uint64_t addr) const;

    /// \return the counters
    const Stats& GetStats() const
    {
        return m_stats;
    }

    /**
     * \param bytes an operand size
     * \return whether it is a size this model's add takes (1, 2, 4 or 8 B)
     */
    static bool IsValidSize(uint32_t bytes)
    {
        return bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8;
    }

  private:
    std::unordered_map<uint64_t, uint64_t> m_words; //!< address to value
    Stats m_stats;                                  //!< counters
};

} // namespace ns3

#endif /* UALINK_ATOMIC_MEMORY_H */
