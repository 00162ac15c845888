/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_REMOTE_ARRIVAL_H
#define FABRIC_REMOTE_ARRIVAL_H

#include "ns3/event-impl.h"
#include "ns3/fabric-packet.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

namespace ns3
{

class FabricNetDevice;

/**
 * \ingroup fabric
 * \brief The receive event of a unit that came from another rank (FabricRemoteChannel).
 *
 * It calls FabricNetDevice::Receive() as a local channel's receive event does, and remembers
 * when and by which node the unit was sent: FabricDistributedScheduler orders it among the
 * simultaneous events by these, not by when this rank received it.
 */
class FabricRemoteArrival : public EventImpl
{
  public:
    /**
     * \param dst the receiving device
     * \param p the unit
     * \param corrupted whether the error model corrupted it
     * \param sent when the sending rank started transmitting it
     * \param sender id of the sending node
     */
    FabricRemoteArrival(Ptr<FabricNetDevice> dst,
                        Ptr<FabricPacket> p,
                        bool corrupted,
                        Time sent,
                        uint32_t sender);

    /// \return when the unit was sent
    Time GetSent() const;
    /// \return id of the sending node
    uint32_t GetSender() const;

  protected:
    void Notify() override;

  private:
    Ptr<FabricNetDevice> m_dst; //!< the receiving device
    Ptr<FabricPacket> m_packet; //!< the unit
    bool m_corrupted;           //!< corrupted by the error model
    Time m_sent;                //!< when it was sent
    uint32_t m_sender;          //!< sending node
};

} // namespace ns3

#endif /* FABRIC_REMOTE_ARRIVAL_H */
