/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ualink-route-table.h"

#include "ns3/abort.h"

namespace ns3
{

UalinkRouteTable::UalinkRouteTable(uint32_t entries, uint32_t ports)
    : m_entries(entries),
      m_ports(ports)
{
    NS_ABORT_MSG_IF(entries == 0 || entries > MAX_ENTRIES,
                    "UalinkRouteTable: 1 to 1024 entries (10-bit ids, section 10.7), not "
                        << entries);
    NS_ABORT_MSG_IF(ports != 1 && ports != 2 && ports != 4,
                    "UalinkRouteTable: a station has 1, 2 or 4 ports (section 1.1), not " << ports);
    Reset();
}

void
UalinkRouteTable::Reset()
{
    const uint8_t all = static_cast<uint8_t>((1U << m_ports) - 1);
    for (Entry& e : m_entries)
    {
        e.egress = NO_EGRESS;
        e.deny = all;
    }
}

void
UalinkRouteTable::SetEgress(uint32_t dst, uint32_t egress)
{
    NS_ABORT_MSG_IF(dst >= m_entries.size(),
                    "UalinkRouteTable: destination " << dst << " beyond the table's "
                                                     << m_entries.size() << " entries");
    NS_ABORT_MSG_IF(egress >= NO_EGRESS, "UalinkRouteTable: egress port " << egress);
    m_entries[dst].egress = static_cast<uint16_t>(egress);
}

void
UalinkRouteTable::ClearEgress(uint32_t dst)
{
    NS_ABORT_MSG_IF(dst >= m_entries.size(),
                    "UalinkRouteTable: destination " << dst << " beyond the table's "
                                                     << m_entries.size() << " entries");
    m_entries[dst].egress = NO_EGRESS;
}

void
UalinkRouteTable::SetDenied(uint32_t dst, uint32_t port, bool deny)
{
    NS_ABORT_MSG_IF(dst >= m_entries.size(),
                    "UalinkRouteTable: destination " << dst << " beyond the table's "
                                                     << m_entries.size() << " entries");
    NS_ABORT_MSG_IF(port >= m_ports,
                    "UalinkRouteTable: port " << port << " of a station of " << m_ports);
    const uint8_t bit = static_cast<uint8_t>(1U << port);
    m_entries[dst].deny = deny ? (m_entries[dst].deny | bit) : (m_entries[dst].deny & ~bit);
}

bool
UalinkRouteTable::IsDenied(uint32_t dst, uint32_t port) const
{
    NS_ABORT_MSG_IF(dst >= m_entries.size() || port >= m_ports,
                    "UalinkRouteTable: no entry " << dst << " port " << port);
    return (m_entries[dst].deny >> port) & 1U;
}

uint32_t
UalinkRouteTable::GetEgress(uint32_t dst) const
{
    NS_ABORT_MSG_IF(dst >= m_entries.size(), "UalinkRouteTable: no entry " << dst);
    return m_entries[dst].egress;
}

} // namespace ns3
