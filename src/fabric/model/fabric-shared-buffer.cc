/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-shared-buffer.h"

#include "fabric-invariant-check.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricSharedBuffer");
NS_OBJECT_ENSURE_REGISTERED(FabricSharedBuffer);

TypeId
FabricSharedBuffer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FabricSharedBuffer")
            .SetParent<Object>()
            .SetGroupName("Fabric")
            .AddConstructor<FabricSharedBuffer>()
            .AddAttribute("Size",
                          "Shared buffer size (bytes). The spec of a generic switch is silent; "
                          "64 MiB is in the range of current scale-up switch ASICs.",
                          UintegerValue(64ull << 20),
                          MakeUintegerAccessor(&FabricSharedBuffer::m_size),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("PortClassLimit",
                          "Most bytes one egress port and class may hold (bytes; 0: no limit "
                          "beyond the shared size).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&FabricSharedBuffer::m_portClassLimit),
                          MakeUintegerChecker<uint64_t>())
            .AddTraceSource("Occupancy",
                            "Bytes in use.",
                            MakeTraceSourceAccessor(&FabricSharedBuffer::m_occupancy),
                            "ns3::TracedValueCallback::Uint64");
    return tid;
}

FabricSharedBuffer::FabricSharedBuffer()
{
    NS_LOG_FUNCTION(this);
}

FabricSharedBuffer::~FabricSharedBuffer()
{
    NS_LOG_FUNCTION(this);
}

void
FabricSharedBuffer::Configure(uint32_t ports, uint32_t classes)
{
    NS_LOG_FUNCTION(this << ports << classes);
    m_classes = classes;
    m_portClass.assign(static_cast<std::size_t>(ports) * classes, 0);
}

bool
FabricSharedBuffer::Admit(uint32_t port, uint8_t tclass, uint32_t bytes)
{
    const std::size_t i = static_cast<std::size_t>(port) * m_classes + tclass;
    NS_ASSERT_MSG(i < m_portClass.size(), "Port or class out of range in the shared buffer");
    if (m_occupancy + bytes > m_size)
    {
        return false;
    }
    if (m_portClassLimit > 0 && m_portClass[i] + bytes > m_portClassLimit)
    {
        return false;
    }
    m_portClass[i] += bytes;
    m_occupancy = m_occupancy + bytes;
    m_peak = std::max<uint64_t>(m_peak, m_occupancy);
    if (FabricInvariantCheck::IsEnabled())
    {
        Check(port, tclass, i);
    }
    return true;
}

void
FabricSharedBuffer::Release(uint32_t port, uint8_t tclass, uint32_t bytes)
{
    const std::size_t i = static_cast<std::size_t>(port) * m_classes + tclass;
    if (FabricInvariantCheck::IsEnabled())
    {
        CheckRelease(port, tclass, i, bytes);
    }
    NS_ABORT_MSG_IF(i >= m_portClass.size() || m_portClass[i] < bytes || m_occupancy < bytes,
                    "Shared buffer accounting error: releasing " << bytes << " B from port " << port
                                                                 << " class " << unsigned(tclass));
    m_portClass[i] -= bytes;
    m_occupancy = m_occupancy - bytes;
}

void
FabricSharedBuffer::Check(uint32_t port, uint8_t tclass, std::size_t i) const
{
    FabricInvariantCheck::Count();
    if (m_occupancy > m_size)
    {
        FabricInvariantCheck::Fail(FabricInvariantCheck::BUFFER,
                                   this,
                                   "FabricSharedBuffer",
                                   "occupancy " + std::to_string(m_occupancy) +
                                       " B, above its size of " + std::to_string(m_size) + " B");
    }
    if (m_portClassLimit > 0 && m_portClass[i] > m_portClassLimit)
    {
        FabricInvariantCheck::Fail(FabricInvariantCheck::BUFFER,
                                   this,
                                   "FabricSharedBuffer",
                                   "port " + std::to_string(port) + " class " +
                                       std::to_string(tclass) + " holds " +
                                       std::to_string(m_portClass[i]) + " B, above its limit of " +
                                       std::to_string(m_portClassLimit) + " B");
    }
}

void
FabricSharedBuffer::CheckRelease(uint32_t port, uint8_t tclass, std::size_t i, uint32_t bytes) const
{
    FabricInvariantCheck::Count();
    const int64_t held = i < m_portClass.size() ? static_cast<int64_t>(m_portClass[i]) : 0;
    const int64_t after = held - static_cast<int64_t>(bytes);
    const int64_t total = static_cast<int64_t>(m_occupancy.Get()) - static_cast<int64_t>(bytes);
    if (after < 0 || total < 0)
    {
        FabricInvariantCheck::Fail(
            FabricInvariantCheck::BUFFER,
            this,
            "FabricSharedBuffer",
            "port " + std::to_string(port) + " class " + std::to_string(tclass) + " holds " +
                std::to_string(after < 0 ? after : total) + " B after releasing " +
                std::to_string(bytes) + " B (released twice, or never admitted)");
    }
}

uint64_t
FabricSharedBuffer::GetPortClassOccupancy(uint32_t port, uint8_t tclass) const
{
    const std::size_t i = static_cast<std::size_t>(port) * m_classes + tclass;
    return i < m_portClass.size() ? m_portClass[i] : 0;
}

} // namespace ns3
