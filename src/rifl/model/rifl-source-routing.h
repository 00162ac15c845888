/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RIFL_SOURCE_ROUTING_H
#define RIFL_SOURCE_ROUTING_H

#include "ns3/fabric-net-device.h"
#include "ns3/fabric-packet.h"
#include "ns3/fabric-switch.h"
#include "ns3/object.h"

#include <unordered_map>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup rifl
 * \brief RIFL Layer 2 source routing in a network of fabric switches (RIFL paper section IV.A):
 * the sending NIC writes the route (one Dst Port per hop, relative addresses, at most 5 hops)
 * into each cell's header; every switch forwards by Equation 1 from the header and its ingress
 * port, then rotates the header; no switch looks up a destination (no CAM).
 *
 * Routes are computed at the source by walking one plane of switches along the paths their
 * routing tables give (the same ECMP choice by the unit's flow hash), so a RIFL network takes
 * the paths of the table-routed one; the planes of a pod are identical, so a route computed on
 * one plane holds on every plane. Route() is the endpoints' FabricMessageQueue::RouteCallback,
 * Forward() the switches' FabricSwitch::ForwardCallback.
 */
class RiflSourceRouting : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    RiflSourceRouting();
    ~RiflSourceRouting() override;

    /**
     * \brief Add a switch of the plane routes are computed on.
     * \param sw the switch (its ports already attached)
     */
    void AddSwitch(Ptr<FabricSwitch> sw);

    /**
     * \brief Name an accelerator's port on that plane.
     * \param acc accelerator id
     * \param dev its port
     */
    void SetAccessDevice(uint32_t acc, Ptr<FabricNetDevice> dev);

    /**
     * \brief The packed Layer 2 header from \p src to \p dst (FabricPacket::sourceRoute).
     * \param src source accelerator
     * \param dst destination accelerator
     * \param hash the unit's flow hash (ECMP choice)
     * \return the packed header, or 0 if there is no route (or src = dst)
     */
    uint64_t Route(uint32_t src, uint32_t dst, uint32_t hash);

    /**
     * \brief Forward a cell at a switch: Equation 1 on Dst Port 1, then the rotation.
     * \param p the unit (its header is rewritten)
     * \param in its ingress port
     * \param ports the switch's port count
     * \return the egress port, or FabricRoutingTable::NO_PORT (no route, no hop left,
     * broadcast: not supported in fabric switches)
     */
    uint32_t Forward(Ptr<FabricPacket> p, uint32_t in, uint32_t ports);

    /// \return cells forwarded by source route
    uint64_t GetForwarded() const
    {
        return m_forwarded;
    }

    /// \return cells refused (no route, no hop left, broadcast)
    uint64_t GetRefused() const
    {
        return m_refused;
    }

    /// \return the longest route computed (switch hops)
    uint32_t GetMaxHops() const
    {
        return m_maxHops;
    }

  protected:
    void DoDispose() override;

  private:
    std::vector<Ptr<FabricSwitch>> m_switches;  //!< one plane
    std::vector<Ptr<FabricNetDevice>> m_access; //!< per accelerator, its port on that plane
    /// switch port device -> (switch index, port index)
    std::unordered_map<const FabricNetDevice*, std::pair<uint32_t, uint32_t>> m_ports;
    uint64_t m_forwarded{0}; //!< cells forwarded
    uint64_t m_refused{0};   //!< cells refused
    uint32_t m_maxHops{0};   //!< longest route
};

} // namespace ns3

#endif /* RIFL_SOURCE_ROUTING_H */
