/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_REMOTE_CHANNEL_H
#define FABRIC_REMOTE_CHANNEL_H

#include "ns3/fabric-channel.h"
#include "ns3/packet.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup fabric
 * \brief A FabricChannel whose two devices are simulated by different ranks of a distributed run
 * (ns-3's MPI distributed simulator, built by contrib/mpi).
 *
 * It works as ns-3's PointToPointRemoteChannel: when the receiving device's node belongs to
 * another rank, the unit is serialized into an ns3::Packet and handed to
 * MpiInterface::SendPacket() (with its receive time and the sender's unit count on the link); at
 * the receiving rank, ns-3's MPI interface schedules MpiReceiver::Receive() on that device at
 * the handover time (sending time + propagation delay), and the MpiReceiver that this channel
 * aggregates to each of its devices turns the bytes back into a FabricPacket and stages it in
 * FabricArrivalOrder under its receive time, as FabricChannel::Deliver does on one rank with the
 * ArrivalOrder attribute Canonical (which a link between ranks requires). Everything else
 * (timing, error model) is FabricChannel's, so a link gives the same receive times, and a node
 * the same order of simultaneous arrivals, whether the link's ends are on one rank or two.
 *
 * The lookahead of the distributed simulator is the smallest Delay attribute of the remote
 * channels; FabricLinkHelper sets it to the propagation delay, a lower bound of the time from
 * TransmitStart() to the receive event (propagation + FEC + receive offset).
 */
class FabricRemoteChannel : public FabricChannel
{
  public:
    static TypeId GetTypeId();
    FabricRemoteChannel();
    ~FabricRemoteChannel() override;

    /**
     * Attach a device, and aggregate to it the MpiReceiver that delivers the units sent to it
     * from the other rank.
     * \param device the device
     */
    void Attach(Ptr<FabricNetDevice> device) override;

    /**
     * Serialize a unit: every field that a receiving device, switch or endpoint reads (the
     * queue links `next` and `unackedNext` belong to the sender and are not carried).
     * \param p the unit
     * \param corrupted whether the error model corrupted it
     * \return the bytes
     */
    static std::vector<uint8_t> Serialize(const FabricPacket& p, bool corrupted);

    /**
     * The inverse of Serialize().
     * \param data the bytes
     * \param size their number
     * \param[out] corrupted whether the unit was corrupted
     * \return a new unit
     */
    static Ptr<FabricPacket> Deserialize(const uint8_t* data, uint32_t size, bool& corrupted);

    /// \return units this channel sent to another rank
    uint64_t GetRemoteUnits() const;

  protected:
    void Deliver(const Ptr<FabricNetDevice>& dst,
                 const Ptr<FabricPacket>& p,
                 bool corrupted,
                 Time delay,
                 uint64_t seq) override;

  private:
    /**
     * A unit from another rank arrived at one of this rank's devices.
     * \param dst the device
     * \param packet the serialized unit
     */
    static void ReceiveFromRank(Ptr<FabricNetDevice> dst, Ptr<Packet> packet);

    uint64_t m_remoteUnits{0}; //!< units sent to another rank
};

} // namespace ns3

#endif /* FABRIC_REMOTE_CHANNEL_H */
