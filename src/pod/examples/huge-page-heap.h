/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef HUGE_PAGE_HEAP_H
#define HUGE_PAGE_HEAP_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup pod
 * \brief Puts the memory that tcmalloc takes from the system on transparent huge pages (2 MiB).
 *
 * A large run keeps about a GiB of small objects in use at once (units in flight, per-peer
 * transport state, per-input queues: doc/performance.rst, "Where the memory goes") and touches
 * them in no order a cache can follow, so with 4 KiB pages most of its touches also miss the
 * TLB. Linux backs an anonymous mapping with 2 MiB pages where the mapping asks for them
 * (madvise(MADV_HUGEPAGE); /sys/kernel/mm/transparent_hugepage/enabled set to madvise, Debian's
 * default, or always), which nobody asks for otherwise: tcmalloc grows its heap with sbrk in
 * 1 MiB steps.
 *
 * Install() gives tcmalloc (gperftools' MallocExtension::SetSystemAllocator) an allocator that
 * maps whole chunks of ChunkBytes (2 MiB aligned, MADV_HUGEPAGE) and hands each to tcmalloc as
 * one region; tcmalloc's own allocator serves any request it cannot (a larger alignment, a
 * failed mapping). Only memory touched becomes resident, but in 2 MiB steps: the peak RSS of
 * the SUE benchmark rises by about 2.5%. What a run simulates does not depend on where its
 * objects are (every results dataset is equal with and without it; test_huge_pages.py).
 *
 * Built into podsim-run and podsim-run-mpi when they are linked with tcmalloc and gperftools'
 * header is installed (libgoogle-perftools-dev); otherwise Install() returns false and says
 * why in GetStatus().
 */
class HugePageHeap
{
  public:
    /// Bytes mapped at a time unless a request is larger (a multiple of 2 MiB).
    static constexpr std::size_t ChunkBytes = std::size_t{64} << 20;

    /**
     * \brief Install the allocator (once; later calls change nothing).
     * \return whether tcmalloc now takes its memory from huge-page chunks
     */
    static bool Install();

    /// \return bytes mapped in huge-page chunks so far (virtual; resident as touched)
    static uint64_t GetMappedBytes();

    /**
     * \return one line for the benchmark output: "on (N chunks, M MiB mapped; THP madvise)", or
     * "off (" and the reason ")"
     */
    static std::string GetStatus();
};

} // namespace ns3

#endif /* HUGE_PAGE_HEAP_H */
