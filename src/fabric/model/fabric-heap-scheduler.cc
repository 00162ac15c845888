/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-heap-scheduler.h"

#include "ns3/abort.h"
#include "ns3/assert.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricHeapScheduler");
NS_OBJECT_ENSURE_REGISTERED(FabricHeapScheduler);

TypeId
FabricHeapScheduler::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FabricHeapScheduler")
            .SetParent<Scheduler>()
            .SetGroupName("Fabric")
            .AddConstructor<FabricHeapScheduler>()
            .AddAttribute("Arity",
                          "Children of a node of the heap (2 to 8); set only while empty.",
                          UintegerValue(4),
                          MakeUintegerAccessor(&FabricHeapScheduler::SetArity,
                                               &FabricHeapScheduler::GetArity),
                          MakeUintegerChecker<uint32_t>(2, 8));
    return tid;
}

FabricHeapScheduler::FabricHeapScheduler()
{
    NS_LOG_FUNCTION(this);
    SetArity(4);
}

FabricHeapScheduler::~FabricHeapScheduler()
{
    NS_LOG_FUNCTION(this);
}

void
FabricHeapScheduler::SetArity(uint32_t arity)
{
    NS_LOG_FUNCTION(this << arity);
    NS_ABORT_MSG_IF(m_heap.size() > m_base,
                    "FabricHeapScheduler: the arity can only be set while no event is held");
    switch (arity)
    {
    case 2:
        m_siftUp = &FabricHeapScheduler::SiftUp<2>;
        m_siftDown = &FabricHeapScheduler::SiftDown<2>;
        break;
    case 3:
        m_siftUp = &FabricHeapScheduler::SiftUp<3>;
        m_siftDown = &FabricHeapScheduler::SiftDown<3>;
        break;
    case 4:
        m_siftUp = &FabricHeapScheduler::SiftUp<4>;
        m_siftDown = &FabricHeapScheduler::SiftDown<4>;
        break;
    case 5:
        m_siftUp = &FabricHeapScheduler::SiftUp<5>;
        m_siftDown = &FabricHeapScheduler::SiftDown<5>;
        break;
    case 6:
        m_siftUp = &FabricHeapScheduler::SiftUp<6>;
        m_siftDown = &FabricHeapScheduler::SiftDown<6>;
        break;
    case 7:
        m_siftUp = &FabricHeapScheduler::SiftUp<7>;
        m_siftDown = &FabricHeapScheduler::SiftDown<7>;
        break;
    case 8:
        m_siftUp = &FabricHeapScheduler::SiftUp<8>;
        m_siftDown = &FabricHeapScheduler::SiftDown<8>;
        break;
    default:
        NS_ABORT_MSG("FabricHeapScheduler: arity " << arity << " is not in 2 to 8");
    }
    m_arity = arity;
    m_base = arity - 1;
    // The padding before the root: the children of logical node i are at logical d*i+1 to
    // d*i+d, that is at array index d*(i+1) onwards, a multiple of d.
    m_heap.assign(m_base, Entry{0, 0, nullptr});
}

uint32_t
FabricHeapScheduler::GetArity() const
{
    return m_arity;
}

std::size_t
FabricHeapScheduler::GetEntries() const
{
    return m_heap.size() - m_base;
}

std::size_t
FabricHeapScheduler::GetRemovedPending() const
{
    return m_removed.size();
}

template <uint32_t D>
void
FabricHeapScheduler::SiftUp(std::size_t hole, const Entry& e)
{
    Entry* h = m_heap.data() + m_base;
    while (hole > 0)
    {
        const std::size_t parent = (hole - 1) / D;
        if (!Before(e, h[parent]))
        {
            break;
        }
        h[hole] = h[parent];
        hole = parent;
    }
    h[hole] = e;
}

template <uint32_t D>
void
FabricHeapScheduler::SiftDown(std::size_t hole, const Entry& e)
{
    // Bottom-up (Floyd): the entry placed at the root is the heap's last one, which nearly always
    // belongs near the leaves, so the hole first follows the least children down to a leaf
    // without comparing them with the entry (D - 1 comparisons per level instead of D), and the
    // entry then moves up from there to its place (rarely more than a level). The heap's order
    // of removal does not depend on how it is kept: (time stamp, uid) is a total order.
    Entry* h = m_heap.data() + m_base;
    const std::size_t n = m_heap.size() - m_base;
    for (;;)
    {
        const std::size_t first = D * hole + 1;
        if (first + D > n)
        {
            if (first < n)
            {
                // The last, partial family.
                std::size_t best = first;
                for (std::size_t c = first + 1; c < n; ++c)
                {
                    best = Before(h[c], h[best]) ? c : best;
                }
                h[hole] = h[best];
                hole = best;
            }
            break;
        }
        // The grandchildren of the hole are contiguous (D * D entries from D * first + 1): ask
        // for their cache lines now, while the children are compared (the lower levels of a
        // large heap are not in the caches; measured in doc/fabric.rst). A constant number of
        // requests, unrolled; a prefetch past the array's end does not fault, and the addresses
        // are integers, so no pointer past the array is formed.
        const std::size_t g = D * first + 1;
        if (g < n)
        {
            constexpr std::size_t bytes = D * D * sizeof(Entry);
            const uintptr_t a = reinterpret_cast<uintptr_t>(h + g);
            for (std::size_t off = 0; off < bytes; off += 64)
            {
                __builtin_prefetch(reinterpret_cast<const void*>(a + off));
            }
            __builtin_prefetch(reinterpret_cast<const void*>(a + bytes - 1));
        }
        // A full family: a loop of constant length, unrolled by the compiler, each step a
        // conditional move rather than a branch.
        std::size_t best = first;
        for (std::size_t c = first + 1; c < first + D; ++c)
        {
            best = Before(h[c], h[best]) ? c : best;
        }
        h[hole] = h[best];
        hole = best;
    }
    while (hole > 0)
    {
        const std::size_t parent = (hole - 1) / D;
        if (!Before(e, h[parent]))
        {
            break;
        }
        h[hole] = h[parent];
        hole = parent;
    }
    h[hole] = e;
}

void
FabricHeapScheduler::Insert(const Event& ev)
{
    NS_LOG_FUNCTION(this << ev.impl << ev.key.m_ts << ev.key.m_uid);
    const Entry e{ev.key.m_ts,
                  (static_cast<uint64_t>(ev.key.m_uid) << 32) | ev.key.m_context,
                  ev.impl};
    m_heap.push_back(e);
    (this->*m_siftUp)(m_heap.size() - 1 - m_base, e);
}

bool
FabricHeapScheduler::IsEmpty() const
{
    // The root is always live (DropRemoved), so a held entry means a pending event.
    return m_heap.size() == m_base;
}

Scheduler::Event
FabricHeapScheduler::PeekNext() const
{
    NS_LOG_FUNCTION(this);
    NS_ASSERT(!IsEmpty());
    const Entry& r = m_heap[m_base];
    return Event{r.impl, EventKey{r.ts, r.Uid(), r.Context()}};
}

void
FabricHeapScheduler::PopRoot()
{
    const Entry last = m_heap.back();
    m_heap.pop_back();
    if (m_heap.size() > m_base)
    {
        (this->*m_siftDown)(0, last);
    }
}

void
FabricHeapScheduler::DropRemoved()
{
    while (!m_removed.empty() && m_heap.size() > m_base && m_removed.erase(m_heap[m_base].Uid()))
    {
        PopRoot();
    }
}

Scheduler::Event
FabricHeapScheduler::RemoveNext()
{
    NS_LOG_FUNCTION(this);
    NS_ASSERT(!IsEmpty());
    const Entry r = m_heap[m_base];
    PopRoot();
    DropRemoved();
    return Event{r.impl, EventKey{r.ts, r.Uid(), r.Context()}};
}

void
FabricHeapScheduler::Remove(const Event& ev)
{
    NS_LOG_FUNCTION(this << ev.impl << ev.key.m_ts << ev.key.m_uid);
    NS_ASSERT(!IsEmpty());
    // ns-3 removes only pending events, each once (Simulator::Remove returns early for an
    // expired or cancelled one), so the uid is in the heap and not yet in the set.
    const bool fresh = m_removed.insert(ev.key.m_uid).second;
    NS_ABORT_MSG_IF(!fresh, "FabricHeapScheduler: event " << ev.key.m_uid << " removed twice");
    DropRemoved();
}

} // namespace ns3
