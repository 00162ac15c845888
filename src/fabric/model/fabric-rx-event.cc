/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-rx-event.h"

#include "fabric-net-device.h"

#include <new>
#include <vector>

namespace ns3
{

namespace
{
/**
 * Memory of receive events that ran (the simulation is single-threaded: no lock). The list is
 * never destroyed: blocks returned after static destruction (events still pending when the
 * program ends) must not be lost, and a leak checker sees the blocks as reachable from it.
 * \return the list
 */
std::vector<void*>&
FreeList()
{
    static auto* list = new std::vector<void*>;
    return *list;
}
} // namespace

FabricRxEvent::FabricRxEvent(const Ptr<FabricNetDevice>& dst,
                             const Ptr<FabricPacket>& p,
                             bool corrupted)
    : m_dst(dst),
      m_packet(p),
      m_corrupted(corrupted)
{
}

FabricRxEvent::~FabricRxEvent() = default;

void*
FabricRxEvent::operator new(std::size_t size)
{
    std::vector<void*>& list = FreeList();
    if (size == sizeof(FabricRxEvent) && !list.empty())
    {
        void* mem = list.back();
        list.pop_back();
        return mem;
    }
    return ::operator new(size);
}

void
FabricRxEvent::operator delete(void* mem)
{
    // Every object of this class has its size (no subclass), so any block may serve again.
    FreeList().push_back(mem);
}

void
FabricRxEvent::Notify()
{
    m_dst->Receive(m_packet, m_corrupted);
}

} // namespace ns3
