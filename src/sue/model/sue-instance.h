/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SUE_INSTANCE_H
#define SUE_INSTANCE_H

#include "sue-packer.h"

#include "ns3/callback.h"
#include "ns3/fabric-go-back-n.h"
#include "ns3/fabric-net-device.h"
#include "ns3/object-factory.h"
#include "ns3/object.h"

#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup sue
 * \brief One SUE instance of an XPU (RM102 sections 1.1, 1.2, 3.4, 4.2-4.4): 1, 2 or 4
 * Ethernet ports, the packer, and the go-back-N transport per port (none in SUE Lite).
 *
 * Ordering (1.2): in Strict mode each destination is served by one port (destination modulo
 * ports), with a packer per port, so that every transaction between a source and a destination
 * on a VC arrives in order. In Unordered mode one packer feeds every port: a port that is free
 * takes the next PDU its transport window and credits admit, so PDUs spread over the ports by
 * available bandwidth and credit state (4.3), and order is not kept.
 *
 * Transport (4.2 step 4): each port numbers its PDUs per destination XPU (PSN per {output port,
 * destination XPU}) with a FabricGoBackN; ACKs and NACKs ride in the RH of reverse traffic or in
 * a standalone PDU. SUE Lite (SUE Lite spec section 2.2) has no transport: reliability comes from
 * LLR alone.
 *
 * Link failures (3.4.8): SetPortDown takes a port's link down. In Unordered mode the instance
 * moves the port's unacknowledged work to its other ports; a remote XPU found unreachable on one
 * port (its connection fails after MaxRetries timeouts) gets its work moved the same way and is
 * no longer served on that port. In Strict mode nothing moves (it would break the order): work
 * to a destination on a failed port fails with its connection.
 */
class SueInstance : public Object
{
  public:
    /// Ordering modes (1.2).
    enum Ordering
    {
        STRICT,    //!< in order per source, destination and VC; one port per destination
        UNORDERED, //!< PDUs spread over the ports; no order kept
    };

    /// Callback with a unit.
    typedef Callback<void, const Ptr<FabricPacket>&> UnitCallback;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    SueInstance();
    ~SueInstance() override;

    /**
     * \brief Configure before the first AddPort.
     * \param packer creates the packers (SuePacker attributes)
     * \param transport creates the transports (FabricGoBackN); unused in Lite mode
     * \param lite SUE Lite: no transport
     * \param localId this XPU's id
     */
    void Configure(const ObjectFactory& packer,
                   const ObjectFactory& transport,
                   bool lite,
                   uint32_t localId);

    /**
     * \brief Add the instance's next Ethernet port.
     * \param device the port (attached to its channel)
     */
    void AddPort(Ptr<FabricNetDevice> device);

    /// \return number of ports
    uint32_t GetNPorts() const
    {
        return m_ports.size();
    }

    /**
     * \param i port index
     * \return the port
     */
    Ptr<FabricNetDevice> GetPort(uint32_t i) const;

    /**
     * \param i port index
     * \return its transport, or null (Lite)
     */
    Ptr<FabricGoBackN> GetTransport(uint32_t i) const;

    /**
     * \param i port index (Strict: each port has its own packer; Unordered: one for all)
     * \return the packer serving it
     */
    Ptr<SuePacker> GetPacker(uint32_t i) const;

    /**
     * \brief Send a message's transactions.
     * \param m the message (tclass is the VC)
     */
    void Enqueue(const FabricMessage& m);

    /**
     * \brief Send one transaction of another operation (SuePacker::EnqueueOp).
     * \param m the message
     * \param op 1 read request, 2 read response
     */
    void EnqueueOp(const FabricMessage& m, uint8_t op);

    /// \param cb called for each data PDU this instance accepts (in sequence)
    void SetReceiveCallback(UnitCallback cb);

    /// \param cb called for each PDU sent from here once it is done: acknowledged, or
    ///        serialized in Lite mode
    void SetDoneCallback(UnitCallback cb);

    /**
     * \brief Mesh deployment (Figure 2): port \p port links straight to XPU \p peer. Once
     * any port has a peer, messages to a peer leave on (one of) its ports; without, every port
     * reaches every XPU (through a switch).
     * \param peer the XPU at the other end
     * \param port the port
     */
    void SetPeerPort(uint32_t peer, uint32_t port);

    /**
     * \brief Take a port's link down (both ends of its link) and move its work.
     * \param i the port
     */
    void SetPortDown(uint32_t i);

    /**
     * \brief Bring a port's link back up (after SetPortDown): the port serves the instance's
     * queue again. Connections that failed while it was down stay failed (FabricGoBackN: no new
     * data to those peers on this port); the others resume, their lost units resent by the
     * transport.
     * \param i the port
     */
    void SetPortUp(uint32_t i);

    /**
     * \param i a port
     * \return true if its link is up
     */
    bool IsPortUp(uint32_t i) const;

    /// \return data bytes queued in the packers
    uint64_t GetBacklogBytes() const;

    /// \return data bytes sent and not yet done
    uint64_t GetInFlightBytes() const
    {
        return m_inFlight;
    }

    /// \return bytes of work moved to other ports after failures
    uint64_t GetMovedBytes() const
    {
        return m_moved;
    }

    /// \return the ordering mode
    Ordering GetOrdering() const
    {
        return m_ordering;
    }

    /// \return true if a message leaves on one port chosen by its destination (StrictPort):
    /// Strict ordering, or a mesh; otherwise the PDUs spread over the ports (Enqueue)
    bool IsOnePortPerDestination() const
    {
        return m_ordering == STRICT || !m_peerPorts.empty();
    }

    /**
     * \param dst a destination XPU
     * \return the port a strict-order (or mesh) message to it leaves on
     */
    uint32_t StrictPort(uint32_t dst) const;

  protected:
    void DoDispose() override;

  private:
    /**
     * \brief A unit arrived on one of the ports.
     * \param dev the port
     * \param p the unit
     */
    void Receive(const Ptr<FabricNetDevice>& dev, const Ptr<FabricPacket>& p);
    /**
     * \brief A unit left a port (Lite completion).
     * \param p the unit
     */
    void TransmitDone(const Ptr<FabricPacket>& p);
    /**
     * \brief A unit was acknowledged.
     * \param p the unit
     */
    void Acked(const Ptr<FabricPacket>& p);
    /**
     * \brief A connection of a port failed.
     * \param port the port
     * \param peer the peer
     * \param units its unacknowledged units
     */
    void ConnectionFailed(uint32_t port,
                          uint32_t peer,
                          const std::vector<Ptr<FabricPacket>>& units);
    /**
     * \brief Queue the pieces of units again (Unordered failover).
     * \param units the units
     */
    void Move(const std::vector<Ptr<FabricPacket>>& units);
    /// \brief Wake every live port.
    void WakeAll();

    Ordering m_ordering{STRICT};                                     //!< Ordering attribute
    std::unordered_map<uint32_t, std::vector<uint32_t>> m_peerPorts; //!< mesh: peer -> ports
    ObjectFactory m_packerFactory;                                   //!< packers
    ObjectFactory m_transportFactory;                                //!< transports
    bool m_lite{false};                                              //!< SUE Lite
    uint32_t m_localId{0};                                           //!< this XPU
    std::vector<Ptr<FabricNetDevice>> m_ports;                       //!< Ethernet ports
    std::vector<Ptr<SuePacker>> m_packers;        //!< per port (Strict) or one (Unordered)
    std::vector<Ptr<FabricGoBackN>> m_transports; //!< per port (none in Lite)
    std::vector<bool> m_up;                       //!< link state per port
    UnitCallback m_rxCb;                          //!< accepted PDUs
    UnitCallback m_doneCb;                        //!< done PDUs
    uint64_t m_inFlight{0};                       //!< data bytes sent, not yet done
    uint64_t m_moved{0};                          //!< bytes moved after failures
};

} // namespace ns3

#endif /* SUE_INSTANCE_H */
