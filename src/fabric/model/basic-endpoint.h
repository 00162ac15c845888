/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef BASIC_ENDPOINT_H
#define BASIC_ENDPOINT_H

#include "fabric-endpoint.h"
#include "fabric-flow-plan.h"
#include "fabric-go-back-n.h"
#include "fabric-message-queue.h"
#include "fabric-net-device.h"

#include "ns3/object-factory.h"

#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup fabric
 * \brief The plain Ethernet-like NIC: the endpoint API with no flow control and no transport.
 *
 * The accelerator has one FabricNetDevice per plane. A posted message goes to a plane chosen by
 * PlaneSelection (round robin per message, starting at the accelerator's own id, a hash of the
 * destination, or packet spraying over a queue shared by all planes) and is cut into units of at
 * most Mtu payload bytes plus HeaderBytes of framing (Ethernet header and FCS by default). The
 * receiver reassembles by (source, message id) and reports delivery when every byte has arrived.
 *
 * Without a transport, completion at the sender is local (the last unit has been serialized onto
 * the wire) and lost units are not recovered: the message is never delivered and its bytes show
 * up as drops. With a transport (SetTransport, e.g. FabricGoBackN), each port gets its own
 * instance, which numbers, acknowledges and retransmits units per {port, peer}; a message
 * completes when all its units are acknowledged, and every byte lost in the fabric is recovered.
 */
class BasicEndpoint : public FabricEndpoint
{
  public:
    /// Plane selection policies.
    enum PlaneSelection
    {
        ROUND_ROBIN, //!< successive messages on successive planes
        HASH,        //!< plane = hash(destination) mod planes
        SPRAY,       //!< one queue shared by every plane: units go to whichever port is free
    };

    static TypeId GetTypeId();
    BasicEndpoint();
    ~BasicEndpoint() override;

    /**
     * Give every device added from now on an end-to-end transport.
     * \param factory creates one transport (a FabricGoBackN) per device
     */
    void SetTransport(const ObjectFactory& factory);

    /**
     * \param i plane
     * \return the transport of that plane's device, or null without a transport
     */
    Ptr<FabricGoBackN> GetTransport(uint32_t i) const;

    /**
     * Add the device of the next plane.
     * \param device the NIC port (attached to its channel)
     */
    void AddDevice(Ptr<FabricNetDevice> device);

    /**
     * \brief The NIC sees its port's link status (call before the link goes down, after it
     * comes back): with spray, a dead port stops taking units from the shared queue, so that
     * the live ports carry them, and takes them again when it is back. Other plane selections
     * keep their per-plane queues (a message bound to a dead port is lost there).
     * \param port the port
     * \param up the link's new state
     */
    void SetPortUp(uint32_t port, bool up);

    /// \return number of planes (devices)
    uint32_t GetNDevices() const
    {
        return m_devices.size();
    }

    /**
     * \param i plane
     * \return the device of that plane
     */
    Ptr<FabricNetDevice> GetDevice(uint32_t i) const;

    double GetCongestionState(uint32_t dst) const override;

    /**
     * \brief Give every unit sent a source route (RIFL Layer 2), for switches that forward by
     * it; call before AddDevice.
     * \param cb (source, destination, flow hash) -> FabricPacket::sourceRoute
     */
    void SetSourceRouteCallback(FabricMessageQueue::RouteCallback cb);

    /// \return units that arrived out of offset order (only possible with SPRAY)
    uint64_t GetOutOfOrderUnits() const
    {
        return m_outOfOrder;
    }

    /// \return units that arrived here but were addressed elsewhere (a routing error)
    uint64_t GetMisdeliveredUnits() const
    {
        return m_misdelivered;
    }

    /**
     * Takes the supply (LazyPosting true) when every port draws from one FIFO queue without a
     * transport: PlaneSelection Spray, or a single port. The queue then pulls each message when
     * its class's FIFO runs empty (FabricMessageQueue::SetSupply), so every unit leaves as it
     * would had the whole supply been posted now. Refused with a transport (its windows let
     * other connections' data pass a blocked head) and with RoundRobin or Hash over several
     * ports (the ports' FIFOs would each need the supply's messages for them ahead of time).
     * \param supply the messages
     * \return true if taken
     */
    bool PostLazily(Ptr<FabricMessageSupply> supply) override;

    /**
     * The flow engine's plan: the plane DoSend() would choose (the round-robin rotation moves
     * on), or every plane at an equal share when units are sprayed; the units' flow hash (the
     * transport's connection hash when there is one, else the message's); the wire bytes of
     * the units the queue cuts (headers, segments and their padding, the device's interframe
     * bytes); one FIFO per class and plane; completion at the last acknowledgement with a
     * transport, at the end of transmission without.
     * \param m the message
     * \param [out] plan the plan
     * \return true
     */
    bool PlanFlow(const FabricMessage& m, FabricFlowPlan& plan) override;
    void PostRemaining() override;

  protected:
    void DoDispose() override;

  private:
    void DoSend(const FabricMessage& m) override;

    /**
     * The plane of a message (PlaneSelection; 0 when sprayed); a round robin moves on.
     * \param m the message
     * \return the plane
     */
    uint32_t PickPlane(const FabricMessage& m);

    /**
     * Post the supply's next message into the queue, without waking a port (the queue asked).
     * \return false if the supply is empty
     */
    bool Pull();

    /**
     * A unit arrived on one of the planes.
     * \param dev the device
     * \param p the unit
     */
    void Receive(const Ptr<FabricNetDevice>& dev, const Ptr<FabricPacket>& p);

    /**
     * A unit finished serializing on one of the planes.
     * \param p the unit
     */
    void TransmitDone(const Ptr<FabricPacket>& p);

    /**
     * A unit of a message sent from here is done: serialized (no transport) or acknowledged
     * (transport). Completes the message when all its units are.
     * \param p the unit
     */
    void UnitDone(const Ptr<FabricPacket>& p);

    /// Reassembly state of one message.
    struct Reassembly
    {
        uint64_t received{0}; //!< payload bytes received
        uint64_t next{0};     //!< next expected offset
    };

    std::vector<Ptr<FabricNetDevice>> m_devices;     //!< one per plane
    std::vector<Ptr<FabricMessageQueue>> m_queues;   //!< one per plane (one shared if SPRAY)
    std::vector<Ptr<FabricGoBackN>> m_transports;    //!< one per plane, or none
    ObjectFactory m_transportFactory;                //!< transports (if m_useTransport)
    bool m_useTransport{false};                      //!< devices get a transport
    PlaneSelection m_planeSelection{SPRAY};          //!< policy
    uint32_t m_mtu{4096};                            //!< payload bytes per unit
    uint32_t m_headerBytes{18};                      //!< framing bytes per unit
    FabricMessageQueue::RouteCallback m_route;       //!< source routes, if set
    uint32_t m_segmentBytes{0};                      //!< segment size (0: none)
    uint32_t m_segmentHeaderBytes{0};                //!< header bytes per segment
    uint32_t m_nextPlane{0};                         //!< round-robin pointer
    bool m_lazy{true};                               //!< LazyPosting attribute
    Ptr<FabricMessageSupply> m_supply;               //!< messages posted lazily, if any
    bool m_pulling{false};                           //!< Pull() is posting
    std::unordered_map<uint64_t, Reassembly> m_rx;   //!< messages being received
    std::unordered_map<uint64_t, uint64_t> m_txDone; //!< sprayed messages: bytes serialized
    uint64_t m_outOfOrder{0};                        //!< out-of-order units
    uint64_t m_misdelivered{0};                      //!< misdelivered units
};

} // namespace ns3

#endif /* BASIC_ENDPOINT_H */
