/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_RX_EVENT_H
#define FABRIC_RX_EVENT_H

#include "fabric-packet.h"

#include "ns3/event-impl.h"
#include "ns3/ptr.h"

#include <cstddef>

namespace ns3
{

class FabricNetDevice;

/**
 * \ingroup fabric
 * \brief The receive event of one unit at the far end of a link: calls
 * FabricNetDevice::Receive(unit, corrupted) when it runs.
 *
 * The same as the event MakeEvent() builds for that call, but its memory comes from a free list
 * of this class (one receive event per packet-hop, the commonest event of every run) instead of
 * the general allocator, and it is dispatched without a member-function pointer. It is scheduled
 * like any other event, so the order of events does not change.
 */
class FabricRxEvent : public EventImpl
{
  public:
    /**
     * \param dst the receiving device
     * \param p the unit
     * \param corrupted whether the link corrupted it
     */
    FabricRxEvent(const Ptr<FabricNetDevice>& dst, const Ptr<FabricPacket>& p, bool corrupted);
    ~FabricRxEvent() override;

    /// \brief Memory of one event, from the free list. \param size bytes \return the memory
    static void* operator new(std::size_t size);
    /// \brief Memory back to the free list. \param mem the memory
    static void operator delete(void* mem);

  protected:
    void Notify() override;

  private:
    Ptr<FabricNetDevice> m_dst; //!< the receiving device
    Ptr<FabricPacket> m_packet; //!< the unit
    bool m_corrupted;           //!< corrupted by the link
};

} // namespace ns3

#endif /* FABRIC_RX_EVENT_H */
