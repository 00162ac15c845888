/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-endpoint.h"

#include "fabric-clock.h"
#include "fabric-flow-plan.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricEndpoint");
NS_OBJECT_ENSURE_REGISTERED(FabricEndpoint);

TypeId
FabricEndpoint::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FabricEndpoint")
            .SetParent<Object>()
            .SetGroupName("Fabric")
            .AddTraceSource("Post",
                            "A message was posted at this endpoint.",
                            MakeTraceSourceAccessor(&FabricEndpoint::m_postTrace),
                            "ns3::FabricEndpoint::MessageTracedCallback")
            .AddTraceSource("Delivered",
                            "A message addressed to this endpoint has fully arrived.",
                            MakeTraceSourceAccessor(&FabricEndpoint::m_deliveredTrace),
                            "ns3::FabricEndpoint::MessageTracedCallback")
            .AddTraceSource("Completed",
                            "A message sent by this endpoint completed.",
                            MakeTraceSourceAccessor(&FabricEndpoint::m_completedTrace),
                            "ns3::FabricEndpoint::MessageTracedCallback");
    return tid;
}

FabricEndpoint::FabricEndpoint()
{
    NS_LOG_FUNCTION(this);
}

FabricEndpoint::~FabricEndpoint()
{
    NS_LOG_FUNCTION(this);
}

uint64_t
FabricEndpoint::Send(uint32_t dst, uint64_t bytes, uint8_t tclass, uint64_t cookie)
{
    NS_LOG_FUNCTION(this << dst << bytes << unsigned(tclass) << cookie);
    FabricMessage m;
    m.dst = dst;
    m.bytes = bytes;
    m.tclass = tclass;
    m.cookie = cookie;
    m.posted = FabricClock::Now();
    return PostPlanned(m);
}

uint64_t
FabricEndpoint::PostPlanned(FabricMessage m)
{
    NS_ABORT_MSG_IF(m.bytes == 0, "A message carries at least one byte");
    m.id = m_nextMsgId++;
    m.src = m_id;
    m_bytesSent += m.bytes;
    ++m_messagesSent;
    m_postTrace(m);
    if (!m_flowEngine.IsNull())
    {
        m_flowEngine(this, m);
    }
    else
    {
        DoSend(m);
    }
    return m.id;
}

bool
FabricEndpoint::PlanFlow(const FabricMessage& /* m */, FabricFlowPlan& /* plan */)
{
    return false;
}

void
FabricEndpoint::SetFlowEngine(FlowEngineCallback cb)
{
    m_flowEngine = cb;
}

void
FabricEndpoint::FlowDelivered(const FabricMessage& m)
{
    CountReceivedPayload(m.bytes);
    NotifyDelivered(m);
}

void
FabricEndpoint::FlowCompleted(const FabricMessage& m)
{
    NotifyCompleted(m);
}

uint64_t
FabricEndpoint::Read(uint32_t target, uint64_t bytes, uint8_t tclass, uint64_t cookie)
{
    NS_ABORT_MSG("FabricEndpoint::Read: the endpoint of accelerator "
                 << m_id << " (" << GetInstanceTypeId().GetName()
                 << ") has no read operation (read " << bytes << " B from " << target << ", class "
                 << unsigned(tclass) << ", cookie " << cookie << ")");
    return 0;
}

uint64_t
FabricEndpoint::Atomic(uint32_t target,
                       uint32_t operandBytes,
                       bool returnsData,
                       uint8_t tclass,
                       uint64_t cookie)
{
    NS_ABORT_MSG("FabricEndpoint::Atomic: the endpoint of accelerator "
                 << m_id << " (" << GetInstanceTypeId().GetName() << ") has no atomics ("
                 << operandBytes << " B to " << target << (returnsData ? ", AtomicR" : ", AtomicNR")
                 << ", class " << unsigned(tclass) << ", cookie " << cookie << ")");
    return 0;
}

bool
FabricEndpoint::PostLazily(Ptr<FabricMessageSupply> supply)
{
    (void)supply;
    return false;
}

void
FabricEndpoint::PostRemaining()
{
}

void
FabricEndpoint::SetDeliveredCallback(MessageCallback cb)
{
    m_deliveredCb = cb;
}

void
FabricEndpoint::SetCompletedCallback(MessageCallback cb)
{
    m_completedCb = cb;
}

void
FabricEndpoint::NotifyDelivered(const FabricMessage& m)
{
    NS_LOG_FUNCTION(this << m.id << m.src);
    m_bytesDelivered += m.bytes;
    ++m_messagesDelivered;
    m_deliveredTrace(m);
    if (!m_deliveredCb.IsNull())
    {
        m_deliveredCb(m);
    }
}

void
FabricEndpoint::NotifyCompleted(const FabricMessage& m)
{
    NS_LOG_FUNCTION(this << m.id << m.dst);
    ++m_messagesCompleted;
    m_completedTrace(m);
    if (!m_completedCb.IsNull())
    {
        m_completedCb(m);
    }
}

} // namespace ns3
