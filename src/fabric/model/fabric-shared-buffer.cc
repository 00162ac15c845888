/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-shared-buffer.h"

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
    return true;
}

void
FabricSharedBuffer::Release(uint32_t port, uint8_t tclass, uint32_t bytes)
{
    const std::size_t i = static_cast<std::size_t>(port) * m_classes + tclass;
    NS_ABORT_MSG_IF(i >= m_portClass.size() || m_portClass[i] < bytes || m_occupancy < bytes,
                    "Shared buffer accounting error: releasing " << bytes << " B from port " << port
                                                                 << " class " << unsigned(tclass));
    m_portClass[i] -= bytes;
    m_occupancy = m_occupancy - bytes;
}

uint64_t
FabricSharedBuffer::GetPortClassOccupancy(uint32_t port, uint8_t tclass) const
{
    const std::size_t i = static_cast<std::size_t>(port) * m_classes + tclass;
    return i < m_portClass.size() ? m_portClass[i] : 0;
}

} // namespace ns3
