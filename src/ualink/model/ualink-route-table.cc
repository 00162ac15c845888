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
    m_table = CreateObject<FabricRoutingTable>(); // no egress
    m_table->DenyAll(m_entries, m_ports);
}

void
UalinkRouteTable::CheckEntry(uint32_t dst) const
{
    NS_ABORT_MSG_IF(dst >= m_entries,
                    "UalinkRouteTable: destination " << dst << " beyond the table's " << m_entries
                                                     << " entries");
}

void
UalinkRouteTable::SetEgress(uint32_t dst, uint32_t egress)
{
    CheckEntry(dst);
    NS_ABORT_MSG_IF(egress >= NO_EGRESS, "UalinkRouteTable: egress port " << egress);
    m_table->SetSingleRoute(dst, egress); // one egress per entry (10.7)
}

void
UalinkRouteTable::SetDenied(uint32_t dst, uint32_t port, bool deny)
{
    CheckEntry(dst);
    NS_ABORT_MSG_IF(port >= m_ports,
                    "UalinkRouteTable: port " << port << " of a station of " << m_ports);
    m_table->SetDenied(dst, port, deny);
}

bool
UalinkRouteTable::IsDenied(uint32_t dst, uint32_t port) const
{
    NS_ABORT_MSG_IF(dst >= m_entries || port >= m_ports,
                    "UalinkRouteTable: no entry " << dst << " port " << port);
    return m_table->IsDenied(dst, port);
}

uint32_t
UalinkRouteTable::GetEgress(uint32_t dst) const
{
    NS_ABORT_MSG_IF(dst >= m_entries, "UalinkRouteTable: no entry " << dst);
    const uint32_t out = m_table->Lookup(dst, 0);
    return out == FabricRoutingTable::NO_PORT ? NO_EGRESS : out;
}

} // namespace ns3
