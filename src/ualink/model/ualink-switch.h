/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UALINK_SWITCH_H
#define UALINK_SWITCH_H

#include "ualink-dl.h"
#include "ualink-route-table.h"
#include "ualink-tx-queue.h"

#include "ns3/fabric-drop-reason.h"
#include "ns3/fabric-net-device.h"
#include "ns3/fabric-packet.h"
#include "ns3/fabric-switch-base.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

class UalinkPhy;

/**
 * \ingroup ualink
 * \brief A UALink switch (UALink_200 chapter 10): single tier, one port per accelerator of the
 * pod, stateless and without timers.
 *
 * A burst received on a port is split into its operations; each is looked up by its 10-bit
 * destination id (section 10.7: only the destination routes) and, after the core latency, queued
 * in its egress port's TL transmit queue, where requests and responses wait apart and hold
 * separate credit classes, so requests blocked by credits never block responses (section 10.4).
 * The egress serves each class in arrival order, which with equal ingress credits shares it
 * fairly among the inputs (starvation free, section 10.5). An operation holds its ingress TL
 * credits until it leaves the egress: congestion spreads back hop by hop through credits only,
 * and nothing is dropped for lack of buffer (section 10.3).
 *
 * Routing (sections 10.7, 10.7.1): one UalinkRouteTable per station, shared by the station's
 * ports (1, 2 or 4 by the bifurcation, the same for every station: section 2.4), indexed by the
 * destination id, each entry an egress port and a deny bit per port of the station. Every table
 * starts all-deny (reset). SetRoute programs a destination's egress in the switch's routing table
 * (FabricSwitchBase::GetRoutingTable, one port per destination) and in every station's table, and
 * opens it there (also in stations added later); SetDenied sets one ingress port's deny bit in its
 * station's table; GetRouteTable gives a station's table to program it on its own (virtual pods,
 * UalinkHelper::SetVirtualPods). A destination with no route (beyond RouteTableEntries or no
 * egress) or a denied one is dropped silently and counted (NoRoute, RouteDenied; its ingress
 * credits go back), and the source's request watchdog ends it (section 3.1.3). U-turns are
 * allowed (10.7.2).
 *
 * Buffer (FabricSwitchBase::GetBuffer): an operation is charged to its egress port and class
 * (0 requests, 1 responses) when it is routed and released when it leaves the egress in a burst
 * or is dropped there, by GetBufferBytes. The specification leaves the buffer's organisation to
 * the implementation; the credits the ingress ports advertise bound it (sections 5.8, 10.3), so
 * the buffer has no size of its own and an admission never fails (one that did would be a credit
 * accounting error, and stops the simulation).
 *
 * Latency: PinToPinLatency, from the last bit of a flit at the ingress pins to the first bit at
 * the egress pins, defaults to the goals of section 10.9.2 by the switch's lanes (under 200 ns up
 * to 128 lanes, 250 ns up to 256, 300 ns up to 512; LatencyBeyond512Lanes above). The core adds
 * what the ports' FEC and DL framing do not: pin-to-pin minus the FEC receive latency minus two
 * DL flit times.
 */
class UalinkSwitch : public FabricSwitchBase
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    UalinkSwitch();
    ~UalinkSwitch() override;

    /// Drop reason: the route table denies the destination to this ingress port (10.7).
    static constexpr const char* ROUTE_DENIED = FabricDropReason::ROUTE_DENIED;
    /// Drop reason: the destination id has no route (beyond the table, or never opened).
    static constexpr const char* NO_ROUTE = FabricDropReason::NO_ROUTE;
    /// Drop reason: the egress port's TL is in drop mode after its link went down (3.1.4).
    static constexpr const char* LINK_DOWN = FabricDropReason::LINK_DOWN;

    /**
     * \brief Add a port (its device already attached to a channel).
     * \param device the port
     * \param phy its PHY settings
     * \return the port index
     */
    uint32_t AddPort(Ptr<FabricNetDevice> device, Ptr<const UalinkPhy> phy);

    /**
     * \brief Route a destination accelerator to an egress port in every station's table (and in
     * those of stations added later), and open it to every ingress port (deny bits cleared).
     * \param dst the 10-bit accelerator id (below RouteTableEntries)
     * \param port the egress port
     */
    void SetRoute(uint32_t dst, uint32_t port);

    /**
     * \brief SetRoute(dst, port) for the one port of \p ports: a route table entry has one
     * egress (section 10.7); more ports abort.
     * \param dst the destination
     * \param ports its egress port
     */
    void SetRoute(uint32_t dst, const std::vector<uint32_t>& ports) override;

    /**
     * \brief Set or clear the deny bit of a destination for one ingress port, in the table of the
     * port's station (section 10.7).
     * \param ingress the ingress port
     * \param dst the destination (below RouteTableEntries)
     * \param deny whether it is denied
     */
    void SetDenied(uint32_t ingress, uint32_t dst, bool deny) override;

    /**
     * \param ingress an ingress port
     * \param dst a destination
     * \return whether the deny bit of \p dst for \p ingress is set in its station's table (false
     * beyond RouteTableEntries)
     */
    bool IsDenied(uint32_t ingress, uint32_t dst) const override;

    /**
     * \brief Look a destination up as the switch does for an operation received on a port.
     * \param ingress the ingress port
     * \param dst the destination (any 10-bit id)
     * \param[out] egress the egress port, when routed
     * \return the verdict of the ingress station's table
     */
    UalinkRouteTable::Verdict Lookup(uint32_t ingress, uint32_t dst, uint32_t& egress) const;

    /// \return stations (ports added, grouped by the bifurcation)
    uint32_t GetNStations() const
    {
        return static_cast<uint32_t>(m_tables.size());
    }

    /// \return ports per station (1 at x4, 2 at x2, 4 at x1; 0 before the first port)
    uint32_t GetPortsPerStation() const
    {
        return m_perStation;
    }

    /**
     * \param station a station
     * \return its route table, to program it (section 10.7.1: independently programmable)
     */
    UalinkRouteTable& GetRouteTable(uint32_t station)
    {
        return m_tables.at(station);
    }

    /**
     * \param station a station
     * \return its route table
     */
    const UalinkRouteTable& GetRouteTable(uint32_t station) const
    {
        return m_tables.at(station);
    }

    /**
     * \param i a port
     * \return its TL transmit queue
     */
    Ptr<UalinkTxQueue> GetTxQueue(uint32_t i) const
    {
        return m_portInfo.at(i).q;
    }

    /**
     * \brief Bytes an operation takes in the switch's buffers: its uncompressed TL field (a
     * request 4 sectors = 16 B, a response 2 sectors = 8 B; section 5.1.1, Table 5-2) and its
     * data half-flits, byte enables included (32 B each; UalinkControlHalfFlit::DataHalfFlits).
     * \param s the operation
     * \return its bytes
     */
    static uint64_t GetBufferBytes(const FabricPacket::Segment& s);

    /**
     * \param i a port
     * \return whether its TL is in drop mode (its link is down, section 3.1.4)
     */
    bool IsInDropMode(uint32_t i) const
    {
        return m_portInfo.at(i).dropMode;
    }

    /// \return the pin-to-pin latency in use
    Time GetPinToPinLatency() const;

    /// \return the core latency in use
    Time GetCoreLatency() const;

    /**
     * TracedCallback signature for dropped operations.
     * \param src source accelerator
     * \param dst destination accelerator
     * \param reason the reason
     */
    typedef void (*DropTracedCallback)(uint32_t src, uint32_t dst, const std::string& reason);

  protected:
    void DoDispose() override;

  private:
    /// One port.
    struct Port
    {
        Ptr<UalinkTxQueue> q;      //!< its TL transmit queue
        Time slot;                 //!< its DL flit time
        Time fec;                  //!< its FEC receive latency
        uint32_t lanes{4};         //!< its lanes
        uint32_t station{0};       //!< its station
        uint32_t portInStation{0}; //!< its port within the station
        bool dropMode{false};      //!< its TL is in drop mode (link down, 3.1.4)
    };

    /**
     * \brief A port's DL changed state (UalinkDl's LinkState): leaving Up puts the port's TL
     * in drop mode, returning to Up takes it out (section 3.1.4).
     * \param port the port
     * \param from the old state
     * \param to the new state
     */
    void DlStateChanged(uint32_t port, UalinkDl::LinkState from, UalinkDl::LinkState to);

    /**
     * \brief The link of a port went down: its TL enters drop mode (section 3.1.4).
     * \param port the port
     */
    void EnterDropMode(uint32_t port);

    /**
     * \brief The link of a port without a DL changed (the device's link state).
     * \param port the port
     */
    void LinkChanged(uint32_t port);

    /**
     * \brief A burst arrived.
     * \param dev the ingress port
     * \param p the burst
     */
    void Receive(const Ptr<FabricNetDevice>& dev, const Ptr<FabricPacket>& p);

    /**
     * \brief Queue routed operations at their egress ports.
     * \param segs the operations, ingress port in aux
     * \param egress their egress ports
     */
    void Forward(const std::vector<FabricPacket::Segment>& segs, std::vector<uint32_t>& egress);

    /**
     * \brief A burst left an egress (or its queue was dropped): release the operations from
     * the buffer and free the ingress buffers they held.
     * \param egress the egress port
     * \param segs the operations
     */
    void Sent(uint32_t egress, const std::vector<FabricPacket::Segment>& segs);

    /**
     * \param s an operation
     * \return its buffer class: 0 for a request, 1 for a response
     */
    static uint8_t BufferClass(const FabricPacket::Segment& s);

    /**
     * \brief A new station: its table, reset, takes the routes SetRoute programmed so far.
     */
    void AddStation();

    std::vector<Port> m_portInfo;                                  //!< ports
    std::unordered_map<const FabricNetDevice*, uint32_t> m_portOf; //!< device to port
    std::vector<UalinkRouteTable> m_tables;                        //!< route table per station
    uint32_t m_tableEntries{UalinkRouteTable::MAX_ENTRIES};        //!< RouteTableEntries
    uint32_t m_perStation{0};                                      //!< ports per station
    Time m_pinToPin;                                               //!< PinToPinLatency (0: goal)
    Time m_core{Seconds(-1)};                                      //!< core latency in use
    std::vector<FabricPacket::Segment> m_fwd;                      //!< scratch: operations routed
    std::vector<uint32_t> m_egress;                                //!< scratch: their egress ports
    std::vector<std::pair<uint32_t, UalinkTxQueue::KindCredits>> m_release; //!< scratch
    Time m_beyond512;                                                   //!< LatencyBeyond512Lanes
    TracedCallback<uint32_t, uint32_t, const std::string&> m_dropTrace; //!< drops
};

} // namespace ns3

#endif /* UALINK_SWITCH_H */
