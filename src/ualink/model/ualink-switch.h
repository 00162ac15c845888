/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UALINK_SWITCH_H
#define UALINK_SWITCH_H

#include "ualink-tx-queue.h"

#include "ns3/fabric-net-device.h"
#include "ns3/fabric-packet.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <map>
#include <string>
#include <unordered_map>
#include <unordered_set>
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
 * Routing (section 10.7): the table starts all-deny; SetRoute opens a destination, SetDenied
 * closes it for one ingress port (virtual pods, section 10.7.1). A destination with no route or a
 * denied one is dropped silently and counted (RouteDenied, NoRoute). U-turns are allowed.
 *
 * Latency: PinToPinLatency, from the last bit of a flit at the ingress pins to the first bit at
 * the egress pins, defaults to the goals of section 10.9.2 by the switch's lanes (under 200 ns up
 * to 128 lanes, 250 ns up to 256, 300 ns up to 512; LatencyBeyond512Lanes above). The core adds
 * what the ports' FEC and DL framing do not: pin-to-pin minus the FEC receive latency minus two
 * DL flit times.
 */
class UalinkSwitch : public Object
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
    static constexpr const char* ROUTE_DENIED = "RouteDenied";
    /// Drop reason: the destination id has no route (beyond the table, or never opened).
    static constexpr const char* NO_ROUTE = "NoRoute";

    /**
     * \brief Add a port (its device already attached to a channel).
     * \param device the port
     * \param phy its PHY settings
     * \return the port index
     */
    uint32_t AddPort(Ptr<FabricNetDevice> device, Ptr<const UalinkPhy> phy);

    /**
     * \brief Route a destination accelerator to an egress port.
     * \param dst the 10-bit accelerator id
     * \param port the egress port
     */
    void SetRoute(uint32_t dst, uint32_t port);

    /**
     * \brief Set or clear the deny bit of a destination for one ingress port.
     * \param ingress the ingress port
     * \param dst the destination
     * \param deny whether it is denied
     */
    void SetDenied(uint32_t ingress, uint32_t dst, bool deny);

    /// \return ports
    uint32_t GetNPorts() const
    {
        return static_cast<uint32_t>(m_ports.size());
    }

    /**
     * \param i a port
     * \return its device
     */
    Ptr<FabricNetDevice> GetPort(uint32_t i) const
    {
        return m_ports.at(i).dev;
    }

    /**
     * \param i a port
     * \return its TL transmit queue
     */
    Ptr<UalinkTxQueue> GetTxQueue(uint32_t i) const
    {
        return m_ports.at(i).q;
    }

    /// \return the pin-to-pin latency in use
    Time GetPinToPinLatency() const;

    /// \return the core latency in use
    Time GetCoreLatency() const;

    /// \return operations forwarded
    uint64_t GetForwarded() const
    {
        return m_forwarded;
    }

    /// \return operations dropped, by reason
    const std::map<std::string, uint64_t>& GetDrops() const
    {
        return m_drops;
    }

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
        Ptr<FabricNetDevice> dev; //!< the device
        Ptr<UalinkTxQueue> q;     //!< its TL transmit queue
        Time slot;                //!< its DL flit time
        Time fec;                 //!< its FEC receive latency
        uint32_t lanes{4};        //!< its lanes
    };

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
     * \brief A burst left an egress: free the ingress buffers of its operations.
     * \param segs the operations
     */
    void Sent(const std::vector<FabricPacket::Segment>& segs);

    std::vector<Port> m_ports;                                     //!< ports
    std::unordered_map<const FabricNetDevice*, uint32_t> m_portOf; //!< device to port
    std::vector<int32_t> m_routes;                                 //!< dst -> egress (-1: none)
    std::unordered_set<uint64_t> m_denied;                         //!< (ingress, dst) denied
    Time m_pinToPin;                                               //!< PinToPinLatency (0: goal)
    Time m_core{Seconds(-1)};                                      //!< core latency in use
    std::vector<FabricPacket::Segment> m_fwd;                      //!< scratch: operations routed
    std::vector<uint32_t> m_egress;                                //!< scratch: their egress ports
    std::vector<std::pair<uint32_t, UalinkTxQueue::KindCredits>> m_release; //!< scratch
    Time m_beyond512;                                                   //!< LatencyBeyond512Lanes
    uint64_t m_forwarded{0};                                            //!< operations forwarded
    std::map<std::string, uint64_t> m_drops;                            //!< drops by reason
    TracedCallback<uint32_t, uint32_t, const std::string&> m_dropTrace; //!< drops
};

} // namespace ns3

#endif /* UALINK_SWITCH_H */
