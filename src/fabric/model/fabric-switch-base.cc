/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-switch-base.h"

#include "ns3/log.h"
#include "ns3/trace-source-accessor.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricSwitchBase");
NS_OBJECT_ENSURE_REGISTERED(FabricSwitchBase);

namespace
{
/**
 * The switch's `Occupancy` trace source: the one of its buffer (FabricSharedBuffer), reached
 * through the switch, so that a sink connects to any switch alike.
 */
class BufferOccupancyAccessor : public TraceSourceAccessor
{
  public:
    bool ConnectWithoutContext(ObjectBase* obj, const CallbackBase& cb) const override
    {
        Ptr<FabricSharedBuffer> b = BufferOf(obj);
        return b && b->TraceConnectWithoutContext(kName, cb);
    }

    bool Connect(ObjectBase* obj, std::string context, const CallbackBase& cb) const override
    {
        Ptr<FabricSharedBuffer> b = BufferOf(obj);
        return b && b->TraceConnect(kName, context, cb);
    }

    bool DisconnectWithoutContext(ObjectBase* obj, const CallbackBase& cb) const override
    {
        Ptr<FabricSharedBuffer> b = BufferOf(obj);
        return b && b->TraceDisconnectWithoutContext(kName, cb);
    }

    bool Disconnect(ObjectBase* obj, std::string context, const CallbackBase& cb) const override
    {
        Ptr<FabricSharedBuffer> b = BufferOf(obj);
        return b && b->TraceDisconnect(kName, context, cb);
    }

  private:
    /**
     * \param obj the object the trace source is asked of
     * \return its buffer, if it is a switch that has one
     */
    static Ptr<FabricSharedBuffer> BufferOf(ObjectBase* obj)
    {
        const FabricSwitchBase* sw = dynamic_cast<const FabricSwitchBase*>(obj);
        return sw ? sw->GetBuffer() : nullptr;
    }

    static constexpr const char* kName = "Occupancy"; //!< the buffer's trace source
};
} // namespace

TypeId
FabricSwitchBase::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FabricSwitchBase")
            .SetParent<Object>()
            .SetGroupName("Fabric")
            .AddTraceSource("Occupancy",
                            "Bytes the switch's buffer holds (its FabricSharedBuffer's Occupancy).",
                            Create<BufferOccupancyAccessor>(),
                            "ns3::TracedValueCallback::Uint64");
    return tid;
}

FabricSwitchBase::FabricSwitchBase()
{
    NS_LOG_FUNCTION(this);
    m_buffer = CreateObject<FabricSharedBuffer>();
    m_routes = CreateObject<FabricRoutingTable>();
}

FabricSwitchBase::~FabricSwitchBase()
{
    NS_LOG_FUNCTION(this);
}

void
FabricSwitchBase::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_ports.clear();
    m_buffer = nullptr;
    m_routes = nullptr;
    Object::DoDispose();
}

Ptr<FabricNetDevice>
FabricSwitchBase::GetPort(uint32_t i) const
{
    NS_ASSERT(i < m_ports.size());
    return m_ports[i];
}

uint32_t
FabricSwitchBase::AddPortDevice(Ptr<FabricNetDevice> device)
{
    const uint32_t index = static_cast<uint32_t>(m_ports.size());
    device->SetPortIndex(index);
    m_ports.push_back(device);
    return index;
}

void
FabricSwitchBase::SetRoute(uint32_t dst, const std::vector<uint32_t>& ports)
{
    NS_LOG_FUNCTION(this << dst << ports.size());
    m_routes->SetRoute(dst, ports);
}

void
FabricSwitchBase::SetDenied(uint32_t ingress, uint32_t dst, bool deny)
{
    NS_LOG_FUNCTION(this << ingress << dst << deny);
    m_routes->SetDenied(dst, ingress, deny);
}

bool
FabricSwitchBase::IsDenied(uint32_t ingress, uint32_t dst) const
{
    return m_routes->IsDenied(dst, ingress);
}

uint32_t
FabricSwitchBase::ProbeRoute(const Ptr<FabricPacket>& p, uint32_t inPort) const
{
    if (m_routes->IsDenied(p->dst, inPort))
    {
        return FabricRoutingTable::NO_PORT;
    }
    return m_routes->Lookup(p->dst, p->flowHash);
}

} // namespace ns3
