/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "huge-page-heap.h"

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <sstream>

#ifdef PODSIM_HUGE_PAGE_HEAP
#include <gperftools/malloc_extension.h>
#include <sys/mman.h>
#endif

namespace ns3
{

namespace
{
bool g_installed = false;           //!< Install() succeeded
std::string g_reason = "not asked"; //!< why not installed
uint64_t g_mapped = 0;              //!< bytes mapped in chunks
uint32_t g_chunks = 0;              //!< chunks mapped

/**
 * \return the kernel's transparent huge page mode (the bracketed word of
 * /sys/kernel/mm/transparent_hugepage/enabled: always, madvise or never), or "" without THP
 */
std::string
ThpMode()
{
    std::ifstream f("/sys/kernel/mm/transparent_hugepage/enabled");
    std::string line;
    if (!std::getline(f, line))
    {
        return "";
    }
    const auto open = line.find('[');
    const auto close = line.find(']', open);
    if (open == std::string::npos || close == std::string::npos)
    {
        return "";
    }
    return line.substr(open + 1, close - open - 1);
}

#ifdef PODSIM_HUGE_PAGE_HEAP
constexpr std::size_t HUGE_PAGE = std::size_t{2} << 20; //!< x86-64's transparent huge page

/// \return n rounded up to a multiple of the huge page
constexpr std::size_t
RoundUp(std::size_t n)
{
    return (n + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
}

/**
 * The system allocator given to tcmalloc. Called by tcmalloc under its page heap lock, so it
 * allocates nothing from the heap itself.
 */
class HugeChunkAllocator : public SysAllocator
{
  public:
    /// \param fallback tcmalloc's own allocator, for what this one cannot serve
    explicit HugeChunkAllocator(SysAllocator* fallback)
        : m_fallback(fallback)
    {
    }

    void* Alloc(std::size_t size, std::size_t* actualSize, std::size_t alignment) override
    {
        if (alignment > HUGE_PAGE || size == 0)
        {
            return m_fallback->Alloc(size, actualSize, alignment);
        }
        // A whole chunk where the caller takes what it gets (tcmalloc's page heap does), else
        // just the request.
        const std::size_t bytes =
            RoundUp(actualSize ? std::max(size, HugePageHeap::ChunkBytes) : size);
        // Map one huge page more and trim to a 2 MiB boundary: the kernel backs only aligned
        // 2 MiB ranges with huge pages.
        void* raw = mmap(nullptr,
                         bytes + HUGE_PAGE,
                         PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS,
                         -1,
                         0);
        if (raw == MAP_FAILED)
        {
            return m_fallback->Alloc(size, actualSize, alignment);
        }
        const auto base = reinterpret_cast<uintptr_t>(raw);
        const uintptr_t start = (base + HUGE_PAGE - 1) & ~(uintptr_t{HUGE_PAGE} - 1);
        const std::size_t head = start - base;
        if (head > 0)
        {
            munmap(raw, head);
        }
        munmap(reinterpret_cast<void*>(start + bytes), HUGE_PAGE - head); // head < HUGE_PAGE
        // Advice only: without it (a kernel without THP) the chunk is ordinary memory.
        madvise(reinterpret_cast<void*>(start), bytes, MADV_HUGEPAGE);
        g_mapped += bytes;
        ++g_chunks;
        if (actualSize)
        {
            *actualSize = bytes;
        }
        return reinterpret_cast<void*>(start);
    }

  private:
    SysAllocator* m_fallback; //!< tcmalloc's allocator
};
#endif
} // namespace

bool
HugePageHeap::Install()
{
    if (g_installed)
    {
        return true;
    }
#ifdef PODSIM_HUGE_PAGE_HEAP
    const std::string mode = ThpMode();
    if (mode == "never")
    {
        g_reason = "transparent huge pages are set to never";
        return false;
    }
    MallocExtension* ext = MallocExtension::instance();
    SysAllocator* current = ext ? ext->GetSystemAllocator() : nullptr;
    if (current == nullptr)
    {
        g_reason = "the allocator is not tcmalloc";
        return false;
    }
    // Lives as long as the process: tcmalloc keeps calling it.
    static HugeChunkAllocator allocator(current);
    ext->SetSystemAllocator(&allocator);
    g_installed = true;
    g_reason.clear();
    return true;
#else
    g_reason = "built without tcmalloc's extension header (libgoogle-perftools-dev)";
    return false;
#endif
}

uint64_t
HugePageHeap::GetMappedBytes()
{
    return g_mapped;
}

std::string
HugePageHeap::GetStatus()
{
    std::ostringstream os;
    if (g_installed)
    {
        const std::string mode = ThpMode();
        os << "on (" << g_chunks << " chunks, " << (g_mapped >> 20) << " MiB mapped; THP "
           << (mode.empty() ? "not in this kernel" : mode) << ")";
    }
    else
    {
        os << "off (" << g_reason << ")";
    }
    return os.str();
}

} // namespace ns3
