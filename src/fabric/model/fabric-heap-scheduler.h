/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_HEAP_SCHEDULER_H
#define FABRIC_HEAP_SCHEDULER_H

#include "ns3/scheduler.h"

#include <cstddef>
#include <cstdint>
#include <new>
#include <unordered_set>
#include <vector>

namespace ns3
{

/**
 * \ingroup fabric
 * \brief An event scheduler that keeps the pending events in an implicit d-ary min-heap in one
 * contiguous array (scenario key `scheduler: heap2`, `heap4` or `heap8`).
 *
 * The order is that of every ns-3 scheduler, (time stamp, event uid), which is a total order
 * (uids are unique), so a run with this scheduler executes the same events in the same order as
 * with ns3::MapScheduler. Each entry is 24 bytes (time stamp, uid, context, EventImpl pointer)
 * and moves by value; there is no allocation per event (MapScheduler allocates a tree node per
 * event and rebalances on each insertion and removal). The array is aligned to a cache line and
 * the root is stored at index Arity - 1, so the Arity children of a node are contiguous and
 * start at a multiple of Arity entries (for Arity 8, exactly three cache lines).
 *
 * Insert sifts the new entry up (O(log_d n); podsim's events are mostly near the present and
 * stop near the leaves), RemoveNext moves the last entry to the root and sifts it down
 * (O(d log_d n)) bottom-up: the hole follows the least children to a leaf and the entry, which
 * nearly always belongs there, moves up from it (d - 1 comparisons per level, each a 128-bit
 * comparison of time stamp and uid, with conditional moves), asking for the cache lines of the
 * grandchildren while it compares the children (they are contiguous). Remove of an arbitrary event
 * (Simulator::Remove; Simulator::Cancel only marks the event and leaves it to come out, so it never
 * reaches here) is lazy: the uid is remembered and the entry is dropped when it reaches the root,
 * before anyone can see it. The root is therefore always a live event, so PeekNext and IsEmpty
 * answer without changing the heap, and an event removed this way is never returned (its EventImpl
 * has been released by the simulator and is never touched). ns-3 3.37's HeapScheduler::Remove, by
 * contrast, refills the hole and only sifts down (doc/performance.rst of the pod module).
 *
 * Measured on the 1024-accelerator benchmarks (src/fabric/doc/fabric.rst, section Event
 * scheduler), arity 4 took 0 to 13% less CPU than MapScheduler and is the scenarios' default;
 * the gain is modest because the sift-down through a heap of 0.3 to 1 M pending events misses
 * the caches too.
 */
class FabricHeapScheduler : public Scheduler
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    FabricHeapScheduler();
    ~FabricHeapScheduler() override;

    void Insert(const Event& ev) override;
    bool IsEmpty() const override;
    Event PeekNext() const override;
    Event RemoveNext() override;
    void Remove(const Event& ev) override;

    /**
     * \brief Set the number of children of a node (Arity attribute); only while empty.
     * \param arity 2 to 8
     */
    void SetArity(uint32_t arity);
    /// \return the number of children of a node
    uint32_t GetArity() const;
    /// \return entries held, removed ones not yet dropped included (events)
    std::size_t GetEntries() const;
    /// \return events removed by Remove and not yet dropped from the heap
    std::size_t GetRemovedPending() const;

  private:
    /// One pending event (24 bytes).
    struct Entry
    {
        uint64_t ts;     //!< time stamp (time steps)
        uint64_t order;  //!< uid in the high 32 bits (ties of time stamp go by it), context low
        EventImpl* impl; //!< the event

        /// \return the event's uid
        uint32_t Uid() const
        {
            return static_cast<uint32_t>(order >> 32);
        }

        /// \return the event's context
        uint32_t Context() const
        {
            return static_cast<uint32_t>(order);
        }
    };

    /// An allocator whose blocks start at a cache line (64 bytes).
    template <typename T>
    struct LineAllocator
    {
        using value_type = T; //!< allocated type
        LineAllocator() = default;

        /// Rebinding constructor.
        template <typename U>
        LineAllocator(const LineAllocator<U>&) // NOLINT: implicit by the allocator requirements
        {
        }

        /// \param n objects \return a block of n objects aligned to 64 bytes
        T* allocate(std::size_t n)
        {
            return static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t(64)));
        }

        /// \param p a block from allocate
        void deallocate(T* p, std::size_t)
        {
            ::operator delete(p, std::align_val_t(64));
        }

        /// \return true: every instance is interchangeable
        template <typename U>
        bool operator==(const LineAllocator<U>&) const
        {
            return true;
        }

        /// \return false: every instance is interchangeable
        template <typename U>
        bool operator!=(const LineAllocator<U>&) const
        {
            return false;
        }
    };

    /**
     * \param a an entry
     * \param b an entry
     * \return true if a comes out before b: (time stamp, uid) order
     */
    static bool Before(const Entry& a, const Entry& b)
    {
        // One 128-bit comparison (time stamp, then uid; the context below the uid never
        // decides, uids being unique): no branch for the tie.
        return ((static_cast<unsigned __int128>(a.ts) << 64) | a.order) <
               ((static_cast<unsigned __int128>(b.ts) << 64) | b.order);
    }

    /**
     * \brief Move an entry up from a hole to its place.
     * \tparam D the arity
     * \param hole logical index of the hole
     * \param e the entry to place
     */
    template <uint32_t D>
    void SiftUp(std::size_t hole, const Entry& e);

    /**
     * \brief Move an entry down from a hole to its place.
     * \tparam D the arity
     * \param hole logical index of the hole
     * \param e the entry to place
     */
    template <uint32_t D>
    void SiftDown(std::size_t hole, const Entry& e);

    /// \brief Take the root off the heap.
    void PopRoot();
    /// \brief Drop removed entries from the root until a live one (or none) is there.
    void DropRemoved();

    /// The array of the heap; logical index i is at i + m_base.
    std::vector<Entry, LineAllocator<Entry>> m_heap;
    std::size_t m_base{3}; //!< Arity - 1: padding before the root
    uint32_t m_arity{4};   //!< Arity attribute
    void (FabricHeapScheduler::*m_siftUp)(std::size_t, const Entry&){nullptr};   //!< SiftUp<D>
    void (FabricHeapScheduler::*m_siftDown)(std::size_t, const Entry&){nullptr}; //!< SiftDown<D>
    std::unordered_set<uint32_t> m_removed; //!< uids of removed entries still in the heap
};

} // namespace ns3

#endif /* FABRIC_HEAP_SCHEDULER_H */
