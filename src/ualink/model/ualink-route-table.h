/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UALINK_ROUTE_TABLE_H
#define UALINK_ROUTE_TABLE_H

#include "ns3/fabric-routing-table.h"
#include "ns3/ptr.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ualink
 * \brief The route table of one switch station (UALink_200 sections 10.7, 10.7.1), kept in a
 * FabricRoutingTable with its per-ingress deny bits.
 *
 * Indexed by the 10-bit destination accelerator id; each entry holds the egress (a switch port,
 * i.e. station and port within it) and, for each port of the station (1, 2 or 4 by the
 * bifurcation), a deny bit for Requests and Responses received on that port. Every port of a
 * bifurcated station shares the station's table (10.7.1); the deny bits keep the ports apart,
 * which is how a switch is cut into the virtual switches of virtual pods (1.1, 10.7.1).
 *
 * What is UALink's here, over the generic table: the station (its 1, 2 or 4 ports are the
 * table's ingress ports), one egress per entry (10.7: an entry names one egress station and
 * port; no equal-cost groups), at most 1024 entries (10-bit ids, section 1.1), and the reset
 * state: every entry denied to every port with no egress (10.7: "Upon Switch reset, the Deny
 * setting shall apply to all table entries"). A destination at or beyond the table's entries, or
 * with no egress, has no route; one whose deny bit is set for the ingress port is denied. Either
 * way the switch drops it silently and counts it (10.7).
 *
 * A value class the switch holds one of per station (movable, not copyable: a copy would share
 * the table).
 */
class UalinkRouteTable
{
  public:
    /// Accelerator ids are 10 bits (section 1.1): at most 1024 entries.
    static constexpr uint32_t MAX_ENTRIES = 1024;
    /// A station has at most 4 ports (4 x1 links, section 1.1).
    static constexpr uint32_t MAX_PORTS = 4;
    /// No egress programmed.
    static constexpr uint16_t NO_EGRESS = 0xFFFF;

    /// Outcome of a lookup.
    enum Verdict
    {
        ROUTED,   //!< routed to the entry's egress
        DENIED,   //!< the entry's deny bit for the ingress port is set
        NO_ROUTE, //!< the destination is beyond the table or has no egress
    };

    /**
     * \brief A reset table.
     * \param entries entries (1 to 1024; destinations at or above are never routed)
     * \param ports ports of the station sharing it (1, 2 or 4)
     */
    UalinkRouteTable(uint32_t entries, uint32_t ports);

    UalinkRouteTable(const UalinkRouteTable&) = delete;
    UalinkRouteTable& operator=(const UalinkRouteTable&) = delete;
    /// Move (the switch's vector of stations grows).
    UalinkRouteTable(UalinkRouteTable&&) = default;
    /**
     * \brief Move assignment.
     * \return this table
     */
    UalinkRouteTable& operator=(UalinkRouteTable&&) = default;

    /// Reset: every entry denied to every port, no egress (section 10.7).
    void Reset();

    /**
     * \brief Program an entry's egress.
     * \param dst the destination accelerator id (below GetEntries())
     * \param egress the switch port (station and port) it leaves by
     */
    void SetEgress(uint32_t dst, uint32_t egress);

    /**
     * \brief Set or clear the deny bit of an entry for one port of the station.
     * \param dst the destination accelerator id (below GetEntries())
     * \param port the port within the station (below GetPorts())
     * \param deny whether Requests and Responses received on that port are denied
     */
    void SetDenied(uint32_t dst, uint32_t port, bool deny);

    /**
     * \brief Look a destination up for a Request or Response received on a port of the station.
     * \param dst the destination accelerator id (any 10-bit value)
     * \param port the ingress port within the station
     * \param[out] egress the switch port, when routed
     * \return the verdict
     */
    Verdict Lookup(uint32_t dst, uint32_t port, uint32_t& egress) const
    {
        const uint32_t out = m_table->Lookup(dst, 0);
        if (out == FabricRoutingTable::NO_PORT)
        {
            return NO_ROUTE;
        }
        if (m_table->IsDenied(dst, port))
        {
            return DENIED;
        }
        egress = out;
        return ROUTED;
    }

    /**
     * \param dst a destination below GetEntries()
     * \param port a port of the station
     * \return whether its deny bit is set
     */
    bool IsDenied(uint32_t dst, uint32_t port) const;

    /**
     * \param dst a destination below GetEntries()
     * \return its egress, or NO_EGRESS
     */
    uint32_t GetEgress(uint32_t dst) const;

    /// \return entries
    uint32_t GetEntries() const
    {
        return m_entries;
    }

    /// \return ports of the station
    uint32_t GetPorts() const
    {
        return m_ports;
    }

  private:
    /**
     * \brief Abort unless a destination is below the table's entries.
     * \param dst the destination
     */
    void CheckEntry(uint32_t dst) const;

    Ptr<FabricRoutingTable> m_table; //!< egress per destination and the ports' deny bits
    uint32_t m_entries;              //!< entries
    uint32_t m_ports;                //!< ports of the station
};

} // namespace ns3

#endif /* UALINK_ROUTE_TABLE_H */
