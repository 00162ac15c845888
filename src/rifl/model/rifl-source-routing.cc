/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rifl-source-routing.h"

#include "rifl-l2-header.h"

#include "ns3/abort.h"
#include "ns3/fabric-channel.h"
#include "ns3/fabric-routing-table.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RiflSourceRouting");
NS_OBJECT_ENSURE_REGISTERED(RiflSourceRouting);

TypeId
RiflSourceRouting::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RiflSourceRouting")
                            .SetParent<Object>()
                            .SetGroupName("Rifl")
                            .AddConstructor<RiflSourceRouting>();
    return tid;
}

RiflSourceRouting::RiflSourceRouting()
{
    NS_LOG_FUNCTION(this);
}

RiflSourceRouting::~RiflSourceRouting()
{
    NS_LOG_FUNCTION(this);
}

void
RiflSourceRouting::DoDispose()
{
    m_switches.clear();
    m_access.clear();
    m_ports.clear();
    Object::DoDispose();
}

void
RiflSourceRouting::AddSwitch(Ptr<FabricSwitch> sw)
{
    NS_LOG_FUNCTION(this << sw);
    NS_ABORT_MSG_IF(sw->GetNPorts() > 256,
                    "RIFL Dst Port fields are 8 bits: at most 256 ports (RIFL paper IV.A)");
    const uint32_t k = static_cast<uint32_t>(m_switches.size());
    m_switches.push_back(sw);
    for (uint32_t j = 0; j < sw->GetNPorts(); ++j)
    {
        m_ports[PeekPointer(sw->GetPort(j))] = {k, j};
    }
}

void
RiflSourceRouting::SetAccessDevice(uint32_t acc, Ptr<FabricNetDevice> dev)
{
    if (acc >= m_access.size())
    {
        m_access.resize(acc + 1);
    }
    m_access[acc] = dev;
}

uint64_t
RiflSourceRouting::Route(uint32_t src, uint32_t dst, uint32_t hash)
{
    if (src == dst || src >= m_access.size() || !m_access[src])
    {
        return 0;
    }
    std::vector<uint8_t> route;
    Ptr<FabricNetDevice> dev = m_access[src];
    while (true)
    {
        Ptr<FabricNetDevice> peer = dev->GetFabricChannel()->GetPeer(dev);
        const auto it = m_ports.find(PeekPointer(peer));
        if (it == m_ports.end())
        {
            break; // reached an accelerator
        }
        const auto [k, in] = it->second;
        const uint32_t out = m_switches[k]->GetRoutingTable()->Lookup(dst, hash);
        if (out == FabricRoutingTable::NO_PORT || out == in)
        {
            return 0;
        }
        route.push_back(RiflL2Header::RelativeAddress(in, out));
        NS_ABORT_MSG_IF(route.size() > RiflL2Header::MAX_HOPS,
                        "RIFL routes have at most 5 hops (RIFL paper section IV.A)");
        dev = m_switches[k]->GetPort(out);
    }
    if (route.empty())
    {
        return 0;
    }
    m_maxHops = std::max<uint32_t>(m_maxHops, route.size());
    return RiflL2Header::FromRoute(route).Pack();
}

uint32_t
RiflSourceRouting::Forward(Ptr<FabricPacket> p, uint32_t in, uint32_t ports)
{
    if (p->sourceRoute == 0)
    {
        ++m_refused;
        return FabricRoutingTable::NO_PORT;
    }
    RiflL2Header h = RiflL2Header::Unpack(p->sourceRoute);
    // Section IV.A: a switch forwards only while hops remain.
    if (h.GetRemainHops() == 0)
    {
        ++m_refused;
        return FabricRoutingTable::NO_PORT;
    }
    const uint32_t out = RiflL2Header::Forward(in, h.GetDstPort(0), ports);
    if (out == RiflL2Header::NO_PORT || out == RiflL2Header::ALL_PORTS)
    {
        ++m_refused;
        return FabricRoutingTable::NO_PORT;
    }
    h.Rotate(in, out);
    p->sourceRoute = h.Pack();
    ++m_forwarded;
    return out;
}

} // namespace ns3
