/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-routing-table.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricRoutingTable");
NS_OBJECT_ENSURE_REGISTERED(FabricRoutingTable);

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
    auto [it, inserted] = m_index.try_emplace(key, static_cast<uint32_t>(m_groups.size()));
    if (inserted)
    {
        m_groups.push_back(key);
    }
    if (dst >= m_dstToGroup.size())
    {
        m_dstToGroup.resize(dst + 1, NO_PORT);
    }
    m_dstToGroup[dst] = it->second;
}

std::vector<uint32_t>
FabricRoutingTable::GetPorts(uint32_t dst) const
{
    if (dst >= m_dstToGroup.size() || m_dstToGroup[dst] == NO_PORT)
    {
        return {};
    }
    return m_groups[m_dstToGroup[dst]];
}

const std::vector<uint32_t>&
FabricRoutingTable::GetPortGroup(uint32_t dst) const
{
    static const std::vector<uint32_t> none;
    if (dst >= m_dstToGroup.size() || m_dstToGroup[dst] == NO_PORT)
    {
        return none;
    }
    return m_groups[m_dstToGroup[dst]];
}

} // namespace ns3
