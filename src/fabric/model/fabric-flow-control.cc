/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-flow-control.h"

#include "fabric-channel.h"
#include "fabric-net-device.h"

#include "ns3/log.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricFlowControl");
NS_OBJECT_ENSURE_REGISTERED(FabricFlowControl);

TypeId
FabricFlowControl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FabricFlowControl")
            .SetParent<Object>()
            .SetGroupName("Fabric")
            .AddAttribute("ControlFrameBytes",
                          "Frame bytes of one control frame (pause or credit update), before the "
                          "link's per-frame overhead. Default: the 64-byte minimum Ethernet frame "
                          "that carries a MAC Control PDU (IEEE 802.3 Annex 31B, 802.1Qbb).",
                          UintegerValue(64),
                          MakeUintegerAccessor(&FabricFlowControl::m_ctrlBytes),
                          MakeUintegerChecker<uint32_t>(1, 65535));
    return tid;
}

FabricFlowControl::FabricFlowControl()
{
    NS_LOG_FUNCTION(this);
}

FabricFlowControl::~FabricFlowControl()
{
    NS_LOG_FUNCTION(this);
}

void
FabricFlowControl::DoDispose()
{
    m_device = nullptr;
    Object::DoDispose();
}

void
FabricFlowControl::SetDevice(FabricNetDevice* device)
{
    m_device = device;
}

Ptr<FabricPacket>
FabricFlowControl::MakeControlFrame(FabricPacket::Kind kind) const
{
    Ptr<FabricPacket> p = Create<FabricPacket>();
    p->kind = kind;
    p->headerBytes = m_ctrlBytes;
    return p;
}

void
FabricFlowControl::SendControl(const Ptr<FabricPacket>& p)
{
    NS_ASSERT_MSG(m_device, "flow control is not bound to a port");
    ++m_ctrlSent;
    m_device->SendControl(p);
}

void
FabricFlowControl::WakeDevice()
{
    if (m_device)
    {
        m_device->Wake();
    }
}

Ptr<FabricFlowControl>
FabricFlowControl::GetPeer() const
{
    if (!m_device || !m_device->GetFabricChannel())
    {
        return nullptr;
    }
    Ptr<FabricNetDevice> peer = m_device->GetFabricChannel()->GetPeer(m_device);
    return peer ? peer->GetFlowControl() : nullptr;
}

} // namespace ns3
