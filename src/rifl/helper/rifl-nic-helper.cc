/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rifl-nic-helper.h"

#include "ns3/abort.h"
#include "ns3/rifl-l2-header.h"
#include "ns3/rifl-segmentation.h"
#include "ns3/uinteger.h"

namespace ns3
{

RiflNicHelper::RiflNicHelper()
{
    m_helper.SetEndpointAttribute("HeaderBytes", UintegerValue(0));
    m_helper.SetEndpointAttribute("SegmentBytes", UintegerValue(RiflSegmentation::SEGMENT_BYTES));
    m_helper.SetEndpointAttribute("SegmentHeaderBytes", UintegerValue(RiflL2Header::SIZE));
    SetSegmentsPerPacket(16);
}

void
RiflNicHelper::SetSegmentsPerPacket(uint32_t segments)
{
    NS_ABORT_MSG_IF(segments == 0 || segments > 256, "RiflNicHelper: 1 to 256 segments");
    m_helper.SetEndpointAttribute("Mtu", UintegerValue(segments * RiflSegmentation::SEGMENT_BYTES));
}

void
RiflNicHelper::SetEndpointAttribute(const std::string& name, const AttributeValue& value)
{
    m_helper.SetEndpointAttribute(name, value);
}

Ptr<BasicEndpoint>
RiflNicHelper::Install(Ptr<Node> node, uint32_t id) const
{
    return m_helper.Install(node, id);
}

} // namespace ns3
