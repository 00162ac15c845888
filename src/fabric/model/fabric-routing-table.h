/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_ROUTING_TABLE_H
#define FABRIC_ROUTING_TABLE_H

#include "ns3/object.h"

#include <map>
#include <vector>

namespace ns3
{

/**
 * \ingroup fabric
 * \brief Forwarding by destination accelerator id, with equal-cost port groups and per-ingress
 * deny bits.
 *
 * Routes are computed from the pod graph (src/pod) and installed per destination as a set of
 * equal-cost egress ports. Identical sets of two or more ports are stored once (a leaf's uplink
 * group serves every remote destination); a single port is stored in the destination's own
 * entry. A table therefore costs one 32-bit entry per destination plus its distinct multi-port
 * groups, also when every destination has a port of its own (a single-tier switch). Lookup()
 * picks a port of the group by the unit's flow hash (ECMP).
 *
 * Deny bits (SetDenied, DenyAll) close the route to a destination for units arriving on one
 * ingress port, whatever the route: a switch tests IsDenied() before the lookup and drops what is
 * denied. Any switch uses them for fault injection (FabricSwitch::SetDenied); a table that
 * several ingress ports share, each with its own bit, and that starts closed to all of them is a
 * UALink switch station's (UalinkRouteTable: UALink 200 sections 10.7, 10.7.1). Routes and deny
 * bits are independent: a denied destination keeps its ports. The bits are kept only once one is
 * set: a table without denials pays one test of an empty vector per lookup.
 */
class FabricRoutingTable : public Object
{
  public:
    static constexpr uint32_t NO_PORT = 0xffffffff; //!< no route

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    FabricRoutingTable();
    ~FabricRoutingTable() override;

    /**
     * \param dst destination accelerator
     * \param ports equal-cost egress ports (not empty)
     */
    void SetRoute(uint32_t dst, const std::vector<uint32_t>& ports);

    /**
     * \brief SetRoute(dst, {port}) without building a vector (tables with one egress per
     * destination, programmed entry by entry).
     * \param dst destination accelerator
     * \param port the egress port
     */
    void SetSingleRoute(uint32_t dst, uint32_t port);

    /**
     * \brief Route \p dst as \p from is routed (the same group, no new one), for tables
     * programmed from a plan whose many destinations share a few groups.
     * \param dst destination accelerator
     * \param from a destination with a route
     */
    void CopyRoute(uint32_t dst, uint32_t from);

    /**
     * \param dst destination accelerator
     * \param hash flow hash
     * \return the egress port, or NO_PORT
     */
    uint32_t Lookup(uint32_t dst, uint32_t hash) const
    {
        if (dst >= m_dstToGroup.size())
        {
            return NO_PORT;
        }
        const uint32_t e = m_dstToGroup[dst];
        if (e == NO_PORT || (e & SINGLE) != 0)
        {
            return e == NO_PORT ? NO_PORT : e & ~SINGLE;
        }
        const std::vector<uint32_t>& g = m_groups[e];
        return g[hash % g.size()];
    }

    /**
     * \param dst destination accelerator
     * \return the equal-cost ports toward dst (empty if none)
     */
    std::vector<uint32_t> GetPorts(uint32_t dst) const;

    /**
     * \brief The equal-cost ports toward a destination, without a copy (for analyses that visit
     * every destination of every switch, such as the channel dependency check of src/pod).
     * \param dst destination accelerator
     * \return the ports, sorted (empty if none); valid until the next SetRoute()
     */
    const std::vector<uint32_t>& GetPortGroup(uint32_t dst) const;

    /**
     * \param dst destination accelerator
     * \return the identity of dst's route in this table (a port group's index, or a single
     *         port with the SINGLE bit; NO_PORT if none): destinations with equal entries are
     *         routed alike here
     */
    uint32_t GetRouteEntry(uint32_t dst) const
    {
        return dst < m_dstToGroup.size() ? m_dstToGroup[dst] : NO_PORT;
    }

    /// \return the size of the destination index: destinations 0 to this minus 1 may have routes
    uint32_t GetNDestinations() const
    {
        return m_dstToGroup.size();
    }

    /// \return number of distinct port groups (single ports included)
    std::size_t GetNGroups() const
    {
        return m_groups.size() + m_nSingles;
    }

    /**
     * \brief Deny (or allow again) the route to a destination for units arriving on one ingress
     * port.
     * \param dst the destination accelerator
     * \param ingress the ingress port (a switch port, or a port of the group sharing the table)
     * \param deny whether it is denied
     */
    void SetDenied(uint32_t dst, uint32_t ingress, bool deny);

    /**
     * \brief Deny every destination below \p dsts to every ingress port below \p ingresses (the
     * reset state of a table that starts closed), replacing the bits set before.
     * \param dsts destinations
     * \param ingresses ingress ports
     */
    void DenyAll(uint32_t dsts, uint32_t ingresses);

    /**
     * \param dst a destination accelerator
     * \param ingress an ingress port
     * \return whether the route from that ingress port to the destination is denied
     */
    bool IsDenied(uint32_t dst, uint32_t ingress) const
    {
        if (m_deny.empty() || dst >= m_denyDsts || ingress >= m_denyStride * 8)
        {
            return false;
        }
        return (m_deny[static_cast<std::size_t>(dst) * m_denyStride + ingress / 8] >>
                (ingress % 8)) &
               1U;
    }

  private:
    /// Entry flag: the entry holds a single port itself, not a group index.
    static constexpr uint32_t SINGLE = 0x80000000;

    /**
     * \brief Make the deny bits cover a destination and an ingress port (keeping those set).
     * \param dsts destinations to cover
     * \param ingresses ingress ports to cover
     */
    void GrowDeny(uint32_t dsts, uint32_t ingresses);

    /**
     * \brief Set a destination's entry, growing the index.
     * \param dst the destination
     * \param entry a group index, or SINGLE | port
     */
    void SetEntry(uint32_t dst, uint32_t entry);

    /**
     * \param port a port
     * \return a group holding just that port, shared by every table (GetPortGroup of a single
     * port)
     */
    static const std::vector<uint32_t>& SinglePortGroup(uint32_t port);

    std::vector<uint32_t> m_dstToGroup;                //!< destination -> group index or port
    std::vector<std::vector<uint32_t>> m_groups;       //!< distinct groups of 2 or more ports
    std::map<std::vector<uint32_t>, uint32_t> m_index; //!< group -> index (build time)
    std::vector<bool> m_singleSeen;                    //!< single ports routed to so far
    std::size_t m_nSingles{0};                         //!< distinct single ports routed to
    std::vector<uint8_t> m_deny; //!< deny bits: m_denyStride bytes per destination
    uint32_t m_denyStride{0};    //!< bytes of deny bits per destination
    uint32_t m_denyDsts{0};      //!< destinations covered by the deny bits
};

} // namespace ns3

#endif /* FABRIC_ROUTING_TABLE_H */
