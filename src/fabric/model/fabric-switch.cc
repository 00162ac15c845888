/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-switch.h"

#include "fabric-deadlock-monitor.h"
#include "fabric-drop-reason.h"
#include "fabric-pfc.h"

#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricSwitch");
NS_OBJECT_ENSURE_REGISTERED(FabricSwitch);

TypeId
FabricSwitch::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FabricSwitch")
            .SetParent<FabricSwitchBase>()
            .SetGroupName("Fabric")
            .AddConstructor<FabricSwitch>()
            .AddAttribute(
                "ForwardingMode",
                "CutThrough: a unit may leave PipelineLatency after its head "
                "arrives; StoreAndForward: after its tail arrives.",
                EnumValue(CUT_THROUGH),
                MakeEnumAccessor(&FabricSwitch::m_mode),
                MakeEnumChecker(CUT_THROUGH, "CutThrough", STORE_AND_FORWARD, "StoreAndForward"))
            .AddAttribute("PipelineLatency",
                          "Port-to-port pipeline latency. Default: the 250 ns switch of the SUE "
                          "spec's latency budget (Appendix A.1).",
                          TimeValue(NanoSeconds(250)),
                          MakeTimeAccessor(&FabricSwitch::m_latency),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("Classes",
                          "Number of traffic classes.",
                          UintegerValue(8),
                          MakeUintegerAccessor(&FabricSwitch::m_classes),
                          MakeUintegerChecker<uint32_t>(1, 32))
            .AddAttribute("Buffer",
                          "The shared buffer.",
                          PointerValue(),
                          MakePointerAccessor(&FabricSwitch::m_buffer),
                          MakePointerChecker<FabricSharedBuffer>())
            .AddAttribute("RoutingTable",
                          "The forwarding table.",
                          PointerValue(),
                          MakePointerAccessor(&FabricSwitch::m_routes),
                          MakePointerChecker<FabricRoutingTable>())
            .AddTraceSource("Drop",
                            "A unit was dropped at this switch, with the reason.",
                            MakeTraceSourceAccessor(&FabricSwitch::m_dropTrace),
                            "ns3::FabricNetDevice::DropTracedCallback");
    return tid;
}

FabricSwitch::FabricSwitch()
{
    NS_LOG_FUNCTION(this);
}

FabricSwitch::~FabricSwitch()
{
    NS_LOG_FUNCTION(this);
}

void
FabricSwitch::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_idleMonitor = nullptr;
    for (auto& q : m_queues)
    {
        q->Dispose();
    }
    m_queues.clear();
    m_forward = ForwardCallback(); // it may hold what holds this switch (source routing)
    m_ingress = IngressCallback(); // likewise (input-queued core)
    FabricSwitchBase::DoDispose();
}

uint32_t
FabricSwitch::AddPort(Ptr<FabricNetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    const uint32_t index = AddPortDevice(device);
    device->SetReceivePipeline(m_mode == CUT_THROUGH, m_latency);
    device->SetFabricReceiveCallback(MakeCallback(&FabricSwitch::Receive, this));
    // Received units stay in the shared buffer until they leave an egress queue (Dequeued):
    // only then does the ingress port's flow control count them as gone.
    device->SetHoldsReceivedUnits(true);
    Ptr<FabricOutputQueue> q = CreateObject<FabricOutputQueue>();
    q->SetAttribute("Classes", UintegerValue(m_classes));
    q->SetDequeueCallback(MakeCallback(&FabricSwitch::Dequeued, this));
    device->SetTxQueue(q);
    m_queues.push_back(q);
    m_buffer->Configure(m_ports.size(), m_classes);
    return index;
}

Ptr<FabricOutputQueue>
FabricSwitch::GetOutputQueue(uint32_t i) const
{
    NS_ASSERT(i < m_queues.size());
    return m_queues[i];
}

uint64_t
FabricSwitch::ShareBufferForPfc(uint32_t priorities)
{
    NS_LOG_FUNCTION(this << priorities);
    NS_ABORT_MSG_IF(priorities == 0 || m_ports.empty(), "ShareBufferForPfc: nothing to share");
    const uint64_t share = m_buffer->GetSize() / (m_ports.size() * uint64_t(priorities));
    for (const auto& port : m_ports)
    {
        Ptr<FabricPfc> pfc = DynamicCast<FabricPfc>(port->GetFlowControl());
        if (pfc)
        {
            pfc->SetAttribute("BufferShare", UintegerValue(share));
        }
    }
    return share;
}

void
FabricSwitch::SetForwardCallback(ForwardCallback cb)
{
    m_forward = cb;
}

void
FabricSwitch::Receive(const Ptr<FabricNetDevice>& port, const Ptr<FabricPacket>& p)
{
    NS_LOG_FUNCTION(this << port << p);
    if (m_idleMonitor)
    {
        m_idleMonitor->Arm(); // clears m_idleMonitor on every switch it watches
    }
    if (m_routes->IsDenied(p->dst, port->GetPortIndex()))
    {
        Drop(port, p, FabricDropReason::ROUTE_DENIED);
        return;
    }
    const uint32_t out =
        m_forward.IsNull()
            ? m_routes->Lookup(p->dst, p->flowHash)
            : m_forward(p, port->GetPortIndex(), static_cast<uint32_t>(m_ports.size()));
    if (out == FabricRoutingTable::NO_PORT || out >= m_ports.size())
    {
        Drop(port, p, FabricDropReason::NO_ROUTE);
        return;
    }
    if (!m_buffer->Admit(out, p->tclass, p->GetSize()))
    {
        Drop(port, p, FabricDropReason::BUFFER_FULL);
        return;
    }
    p->inPort = port->GetPortIndex();
    p->outPort = out;
    ++m_forwarded;
    if (!m_ingress.IsNull())
    {
        m_ingress(p); // the input-queued core calls EnqueueOutput() when it is scheduled
        return;
    }
    m_queues[out]->Enqueue(p);
    m_ports[out]->Wake();
}

uint32_t
FabricSwitch::ProbeRoute(const Ptr<FabricPacket>& p, uint32_t inPort) const
{
    if (m_forward.IsNull())
    {
        return FabricSwitchBase::ProbeRoute(p, inPort);
    }
    if (m_routes->IsDenied(p->dst, inPort))
    {
        return FabricRoutingTable::NO_PORT;
    }
    return m_forward(p, inPort, static_cast<uint32_t>(m_ports.size()));
}

void
FabricSwitch::SetIngressCallback(IngressCallback cb)
{
    m_ingress = cb;
}

void
FabricSwitch::EnqueueOutput(Ptr<FabricPacket> p)
{
    m_queues[p->outPort]->Enqueue(p);
    m_ports[p->outPort]->Wake();
}

void
FabricSwitch::Dequeued(const Ptr<FabricPacket>& p)
{
    m_buffer->Release(p->outPort, p->tclass, p->GetSize());
    m_ports[p->inPort]->NotifyReleased(p);
}

void
FabricSwitch::Drop(const Ptr<FabricNetDevice>& port, const Ptr<FabricPacket>& p, const char* reason)
{
    NS_LOG_LOGIC("drop " << reason << " dst " << p->dst);
    CountDrop(reason);
    port->RecordDrop(p, reason);
    port->NotifyReleased(p);
    m_dropTrace(p, reason);
}

} // namespace ns3
