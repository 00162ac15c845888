/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rifl-l2-header.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RiflL2Header");
NS_OBJECT_ENSURE_REGISTERED(RiflL2Header);

TypeId
RiflL2Header::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RiflL2Header")
                            .SetParent<Header>()
                            .SetGroupName("Rifl")
                            .AddConstructor<RiflL2Header>();
    return tid;
}

TypeId
RiflL2Header::GetInstanceTypeId() const
{
    return GetTypeId();
}

RiflL2Header::RiflL2Header()
{
}

RiflL2Header
RiflL2Header::FromRoute(const std::vector<uint8_t>& route)
{
    NS_ABORT_MSG_IF(route.empty() || route.size() > MAX_HOPS,
                    "RIFL Layer 2 routes have 1 to 5 hops (RIFL paper section IV.A)");
    RiflL2Header h;
    h.m_totalHops = static_cast<uint8_t>(route.size());
    h.m_remainHops = h.m_totalHops;
    for (std::size_t k = 0; k < route.size(); ++k)
    {
        h.m_dst[k] = route[k];
    }
    return h;
}

uint32_t
RiflL2Header::Forward(uint32_t i, uint32_t j, uint32_t ports)
{
    // RIFL paper section IV.A, Equation 1.
    if (j == BROADCAST)
    {
        return ALL_PORTS;
    }
    if (j < i)
    {
        return j;
    }
    if (j + 1 < ports)
    {
        return j + 1;
    }
    return NO_PORT;
}

uint8_t
RiflL2Header::RelativeAddress(uint32_t in, uint32_t out)
{
    NS_ABORT_MSG_IF(in == out, "RIFL switches never loop a cell back to its input (Eq. 1)");
    return static_cast<uint8_t>(out < in ? out : out - 1);
}

void
RiflL2Header::Rotate(uint32_t in, uint32_t out)
{
    NS_ABORT_MSG_IF(m_remainHops == 0, "RiflL2Header::Rotate with no hop left");
    --m_remainHops;
    for (uint32_t k = 0; k + 1 < MAX_HOPS; ++k)
    {
        m_dst[k] = m_dst[k + 1];
    }
    // The return port: entering at `out`, Eq. 1 maps it back to `in`.
    m_dst[MAX_HOPS - 1] = RelativeAddress(out, in);
}

std::vector<uint8_t>
RiflL2Header::ReverseRoute() const
{
    std::vector<uint8_t> r;
    const uint32_t hops = m_totalHops;
    for (uint32_t k = 0; k < hops; ++k)
    {
        r.push_back(m_dst[MAX_HOPS - 1 - k]);
    }
    return r;
}

uint64_t
RiflL2Header::Pack() const
{
    uint64_t v = uint64_t(1) << 63;
    for (uint32_t k = 0; k < MAX_HOPS; ++k)
    {
        v |= uint64_t(m_dst[k]) << (8 * k);
    }
    v |= uint64_t(m_remainHops & 0x0f) << 40;
    v |= uint64_t(m_totalHops & 0x0f) << 44;
    return v;
}

RiflL2Header
RiflL2Header::Unpack(uint64_t packed)
{
    RiflL2Header h;
    for (uint32_t k = 0; k < MAX_HOPS; ++k)
    {
        h.m_dst[k] = static_cast<uint8_t>(packed >> (8 * k));
    }
    h.m_remainHops = static_cast<uint8_t>((packed >> 40) & 0x0f);
    h.m_totalHops = static_cast<uint8_t>((packed >> 44) & 0x0f);
    return h;
}

uint32_t
RiflL2Header::GetSerializedSize() const
{
    return SIZE;
}

void
RiflL2Header::Serialize(Buffer::Iterator start) const
{
    // Layer 1 (section II.A, Figure 2): sync 01, meta code 01 (data, non-zero), then the 12-bit
    // verification code, written as 0 here (the error model decides corruption).
    start.WriteU8(0x50);
    start.WriteU8(0);
    start.WriteU8(static_cast<uint8_t>((m_totalHops << 4) | (m_remainHops & 0x0f)));
    for (uint8_t d : m_dst)
    {
        start.WriteU8(d);
    }
}

uint32_t
RiflL2Header::Deserialize(Buffer::Iterator start)
{
    const uint8_t l1 = start.ReadU8();
    start.ReadU8();
    NS_ABORT_MSG_IF((l1 >> 6) != 1, "RIFL frame without the 01 sync word");
    const uint8_t hops = start.ReadU8();
    m_totalHops = hops >> 4;
    m_remainHops = hops & 0x0f;
    for (auto& d : m_dst)
    {
        d = start.ReadU8();
    }
    return SIZE;
}

void
RiflL2Header::Print(std::ostream& os) const
{
    os << "total=" << unsigned(m_totalHops) << " remain=" << unsigned(m_remainHops) << " dst=";
    for (uint32_t k = 0; k < MAX_HOPS; ++k)
    {
        os << (k ? "," : "") << unsigned(m_dst[k]);
    }
}

} // namespace ns3
