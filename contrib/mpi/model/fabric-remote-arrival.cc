/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-remote-arrival.h"

#include "ns3/fabric-net-device.h"

namespace ns3
{

FabricRemoteArrival::FabricRemoteArrival(Ptr<FabricNetDevice> dst,
                                         Ptr<FabricPacket> p,
                                         bool corrupted,
                                         Time sent,
                                         uint32_t sender)
    : m_dst(dst),
      m_packet(p),
      m_corrupted(corrupted),
      m_sent(sent),
      m_sender(sender)
{
}

uint32_t
FabricRemoteArrival::GetSender() const
{
    return m_sender;
}

Time
FabricRemoteArrival::GetSent() const
{
    return m_sent;
}

void
FabricRemoteArrival::Notify()
{
    m_dst->Receive(m_packet, m_corrupted);
}

} // namespace ns3
