/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-routing-table.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <algorithm>
#include <deque>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricRoutingTable");
NS_OBJECT_ENSURE_REGISTERED(FabricRoutingTable);

namespace
{
/// Most destinations deny bits may cover (accelerator ids; a guard against a stray id).
constexpr uint32_t MAX_DENY_DESTINATIONS = 1U << 24;
} // namespace

TypeId
FabricRoutingTable::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FabricRoutingTable")
                            .SetParent<Object>()
                            .SetGroupName("Fabric")
                            .AddConstructor<FabricRoutingTable>();
    return tid;
}

FabricRoutingTable::FabricRoutingTable()
{
    NS_LOG_FUNCTION(this);
}

FabricRoutingTable::~FabricRoutingTable()
{
    NS_LOG_FUNCTION(this);
}

void
FabricRoutingTable::SetRoute(uint32_t dst, const std::vector<uint32_t>& ports)
{
    NS_LOG_FUNCTION(this << dst << ports.size());
    NS_ASSERT_MSG(!ports.empty(), "A route needs at least one port");
    std::vector<uint32_t> key = ports;
    std::sort(key.begin(), key.end());
    key.erase(std::unique(key.begin(), key.end()), key.end());
    if (key.size() == 1)
    {
        SetSingleRoute(dst, key[0]);
        return;
    }
    auto [it, inserted] = m_index.try_emplace(key, static_cast<uint32_t>(m_groups.size()));
    if (inserted)
    {
        m_groups.push_back(key);
    }
    SetEntry(dst, it->second);
}

void
FabricRoutingTable::SetSingleRoute(uint32_t dst, uint32_t port)
{
    NS_ABORT_MSG_IF(port >= SINGLE, "FabricRoutingTable: port " << port);
    if (port >= m_singleSeen.size())
    {
        m_singleSeen.resize(port + 1, false);
    }
    if (!m_singleSeen[port])
    {
        m_singleSeen[port] = true;
        ++m_nSingles;
    }
    SetEntry(dst, SINGLE | port);
}

void
FabricRoutingTable::CopyRoute(uint32_t dst, uint32_t from)
{
    NS_ASSERT_MSG(from < m_dstToGroup.size() && m_dstToGroup[from] != NO_PORT,
                  "CopyRoute: destination " << from << " has no route");
    SetEntry(dst, m_dstToGroup[from]);
}

void
FabricRoutingTable::SetEntry(uint32_t dst, uint32_t entry)
{
    if (dst >= m_dstToGroup.size())
    {
        m_dstToGroup.resize(dst + 1, NO_PORT);
    }
    m_dstToGroup[dst] = entry;
}

std::vector<uint32_t>
FabricRoutingTable::GetPorts(uint32_t dst) const
{
    return GetPortGroup(dst);
}

const std::vector<uint32_t>&
FabricRoutingTable::GetPortGroup(uint32_t dst) const
{
    static const std::vector<uint32_t> none;
    if (dst >= m_dstToGroup.size() || m_dstToGroup[dst] == NO_PORT)
    {
        return none;
    }
    const uint32_t e = m_dstToGroup[dst];
    return (e & SINGLE) != 0 ? SinglePortGroup(e & ~SINGLE) : m_groups[e];
}

const std::vector<uint32_t>&
FabricRoutingTable::SinglePortGroup(uint32_t port)
{
    // A deque: the groups already handed out stay where they are when it grows.
    static std::deque<std::vector<uint32_t>> groups;
    while (groups.size() <= port)
    {
        groups.push_back({static_cast<uint32_t>(groups.size())});
    }
    return groups[port];
}

void
FabricRoutingTable::GrowDeny(uint32_t dsts, uint32_t ingresses)
{
    NS_ABORT_MSG_IF(dsts > MAX_DENY_DESTINATIONS,
                    "FabricRoutingTable: deny bits for destination " << dsts - 1);
    const uint32_t stride = std::max(m_denyStride, (ingresses + 7) / 8);
    const uint32_t n = std::max(m_denyDsts, dsts);
    if (stride == m_denyStride && n == m_denyDsts)
    {
        return;
    }
    std::vector<uint8_t> bits(static_cast<std::size_t>(n) * stride, 0);
    for (uint32_t d = 0; d < m_denyDsts; ++d)
    {
        std::copy_n(m_deny.begin() + static_cast<std::ptrdiff_t>(d) * m_denyStride,
                    m_denyStride,
                    bits.begin() + static_cast<std::ptrdiff_t>(d) * stride);
    }
    m_deny.swap(bits);
    m_denyStride = stride;
    m_denyDsts = n;
}

void
FabricRoutingTable::SetDenied(uint32_t dst, uint32_t ingress, bool deny)
{
    NS_LOG_FUNCTION(this << dst << ingress << deny);
    if (!deny && !IsDenied(dst, ingress))
    {
        return; // nothing to clear (and no bits to allocate)
    }
    GrowDeny(dst + 1, ingress + 1);
    uint8_t& byte = m_deny[static_cast<std::size_t>(dst) * m_denyStride + ingress / 8];
    const uint8_t bit = static_cast<uint8_t>(1U << (ingress % 8));
    byte = deny ? (byte | bit) : (byte & ~bit);
}

void
FabricRoutingTable::DenyAll(uint32_t dsts, uint32_t ingresses)
{
    NS_LOG_FUNCTION(this << dsts << ingresses);
    NS_ABORT_MSG_IF(dsts > MAX_DENY_DESTINATIONS,
                    "FabricRoutingTable: deny bits for " << dsts << " destinations");
    m_denyStride = (ingresses + 7) / 8;
    m_denyDsts = dsts;
    m_deny.assign(static_cast<std::size_t>(dsts) * m_denyStride, 0);
    for (uint32_t d = 0; d < dsts; ++d)
    {
        for (uint32_t i = 0; i < ingresses; ++i)
        {
            m_deny[static_cast<std::size_t>(d) * m_denyStride + i / 8] |=
                static_cast<uint8_t>(1U << (i % 8));
        }
    }
}

} // namespace ns3
