/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "basic-endpoint.h"

#include "fabric-clock.h"
#include "fabric-drop-reason.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("BasicEndpoint");
NS_OBJECT_ENSURE_REGISTERED(BasicEndpoint);

TypeId
BasicEndpoint::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::BasicEndpoint")
            .SetParent<FabricEndpoint>()
            .SetGroupName("Fabric")
            .AddConstructor<BasicEndpoint>()
            .AddAttribute("Mtu",
                          "Most payload bytes per packet (bytes).",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&BasicEndpoint::m_mtu),
                          MakeUintegerChecker<uint32_t>(1, 65536))
            .AddAttribute("HeaderBytes",
                          "Framing bytes per packet (bytes): Ethernet header (14) and FCS (4) "
                          "by default (IEEE 802.3).",
                          UintegerValue(18),
                          MakeUintegerAccessor(&BasicEndpoint::m_headerBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("SegmentBytes",
                          "Cut each packet's payload into segments of this many bytes, the last "
                          "padded, each with SegmentHeaderBytes (RIFL Layer 2: 256 B segments "
                          "with 8 B of header, RIFL paper section IV.A); 0: no segments (bytes).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&BasicEndpoint::m_segmentBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("SegmentHeaderBytes",
                          "Header bytes per segment (bytes).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&BasicEndpoint::m_segmentHeaderBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("PlaneSelection",
                          "How messages are spread over the planes: Spray (per packet, any free "
                          "port; balances incast and all-to-all alike), RoundRobin (per message), "
                          "Hash (of the destination).",
                          EnumValue(SPRAY),
                          MakeEnumAccessor(&BasicEndpoint::m_planeSelection),
                          MakeEnumChecker(ROUND_ROBIN, "RoundRobin", HASH, "Hash", SPRAY, "Spray"))
            .AddAttribute("LazyPosting",
                          "Take a workload's planned messages one at a time, when the queue "
                          "needs the next (PostLazily), instead of all at the workload's start: "
                          "the same units at the same times with one queued message instead of "
                          "all of them. False: refuse, so that they are all posted at once.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&BasicEndpoint::m_lazy),
                          MakeBooleanChecker());
    return tid;
}

BasicEndpoint::BasicEndpoint()
{
    NS_LOG_FUNCTION(this);
}

BasicEndpoint::~BasicEndpoint()
{
    NS_LOG_FUNCTION(this);
}

void
BasicEndpoint::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_devices.clear();
    for (auto& q : m_queues)
    {
        q->SetRouteCallback(FabricMessageQueue::RouteCallback()); // may hold what holds us
    }
    m_queues.clear();
    m_route = FabricMessageQueue::RouteCallback();
    m_transports.clear();
    m_rx.clear();
    m_txDone.clear();
    m_supply = nullptr;
    FabricEndpoint::DoDispose();
}

void
BasicEndpoint::AddDevice(Ptr<FabricNetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    Ptr<FabricMessageQueue> q;
    if (m_planeSelection == SPRAY && !m_queues.empty())
    {
        q = m_queues.front();
    }
    else
    {
        q = CreateObject<FabricMessageQueue>();
        q->SetAttribute("Mtu", UintegerValue(m_mtu));
        q->SetAttribute("HeaderBytes", UintegerValue(m_headerBytes));
        q->SetAttribute("SegmentBytes", UintegerValue(m_segmentBytes));
        q->SetAttribute("SegmentHeaderBytes", UintegerValue(m_segmentHeaderBytes));
        q->SetRouteCallback(m_route);
        m_queues.push_back(q);
    }
    device->SetPortIndex(m_devices.size());
    if (m_useTransport)
    {
        Ptr<FabricGoBackN> t = m_transportFactory.Create<FabricGoBackN>();
        t->SetInnerQueue(q);
        t->SetDevice(PeekPointer(device));
        t->SetLocalId(GetAcceleratorId());
        t->SetAckedCallback(MakeCallback(&BasicEndpoint::UnitDone, this));
        device->SetTxQueue(t);
        m_transports.push_back(t);
    }
    else
    {
        NS_ABORT_MSG_IF(!m_transports.empty(),
                        "BasicEndpoint: every device needs a transport once one has one");
        device->SetTxQueue(q);
    }
    device->SetFabricReceiveCallback(MakeCallback(&BasicEndpoint::Receive, this));
    device->SetTransmitDoneCallback(MakeCallback(&BasicEndpoint::TransmitDone, this));
    m_devices.push_back(device);
}

void
BasicEndpoint::SetTransport(const ObjectFactory& factory)
{
    NS_ABORT_MSG_IF(!m_devices.empty() && m_transports.empty(),
                    "BasicEndpoint::SetTransport: call it before the first AddDevice");
    m_transportFactory = factory;
    m_useTransport = true;
}

Ptr<FabricGoBackN>
BasicEndpoint::GetTransport(uint32_t i) const
{
    return i < m_transports.size() ? m_transports[i] : nullptr;
}

Ptr<FabricNetDevice>
BasicEndpoint::GetDevice(uint32_t i) const
{
    NS_ASSERT(i < m_devices.size());
    return m_devices[i];
}

void
BasicEndpoint::SetSourceRouteCallback(FabricMessageQueue::RouteCallback cb)
{
    m_route = cb;
    for (auto& q : m_queues)
    {
        q->SetRouteCallback(cb);
    }
}

double
BasicEndpoint::GetCongestionState(uint32_t dst) const
{
    // Without flow control the only back-pressure is the local backlog: report the fraction of
    // planes whose queue holds more than one MTU of payload.
    (void)dst;
    if (m_queues.empty())
    {
        return 0;
    }
    uint32_t busy = 0;
    for (const auto& q : m_queues)
    {
        busy += q->GetBacklogBytes() > m_mtu ? 1 : 0;
    }
    return static_cast<double>(busy) / m_queues.size();
}

void
BasicEndpoint::DoSend(const FabricMessage& m)
{
    NS_ABORT_MSG_IF(m_devices.empty(), "BasicEndpoint has no device");
    const uint32_t plane = PickPlane(m);
    if (m_planeSelection == SPRAY)
    {
        m_queues.front()->Enqueue(m);
        for (auto& d : m_devices)
        {
            if (!m_pulling)
            {
                d->Wake();
            }
        }
    }
    else
    {
        m_queues[plane]->Enqueue(m);
        if (!m_pulling)
        {
            m_devices[plane]->Wake();
        }
    }
}

uint32_t
BasicEndpoint::PickPlane(const FabricMessage& m)
{
    const uint32_t n = static_cast<uint32_t>(m_devices.size());
    switch (m_planeSelection)
    {
    case ROUND_ROBIN: {
        // Each accelerator starts its rotation at its own id, so that the first messages of
        // many senders (an incast) spread over the planes instead of all taking plane 0.
        const uint32_t plane = (GetAcceleratorId() + m_nextPlane) % n;
        m_nextPlane = (m_nextPlane + 1) % n;
        return plane;
    }
    case HASH:
        return (m.dst * 2654435761u) % n;
    case SPRAY:
        break;
    }
    return 0; // sprayed: one queue feeds every plane
}

bool
BasicEndpoint::PlanFlow(const FabricMessage& m, FabricFlowPlan& plan)
{
    if (m_devices.empty())
    {
        return false;
    }
    const Ptr<FabricMessageQueue>& q = m_queues.front(); // every plane's queue cuts alike
    const uint32_t hash = m_useTransport ? FabricGoBackN::ConnectionHash(GetAcceleratorId(), m.dst)
                                         : FabricMessageQueue::FlowHash(m);
    const uint64_t route = q->GetSourceRoute(m.src, m.dst, hash);
    plan = FabricFlowPlan();
    const uint32_t n = static_cast<uint32_t>(m_devices.size());
    if (m_planeSelection == SPRAY)
    {
        for (uint32_t k = 0; k < n; ++k)
        {
            FabricFlowPlan::Share share;
            share.port = PeekPointer(m_devices[k]);
            share.flowHash = hash;
            share.sourceRoute = route;
            share.fraction = 1.0 / n;
            plan.shares.push_back(share);
        }
        plan.sprayPorts = n > 1;
        plan.queue = m.tclass;
    }
    else
    {
        const uint32_t plane = PickPlane(m);
        FabricFlowPlan::Share share;
        share.port = PeekPointer(m_devices[plane]);
        share.flowHash = hash;
        share.sourceRoute = route;
        plan.shares.push_back(share);
        plan.queue = (static_cast<uint64_t>(plane) << 8) | m.tclass;
    }
    const uint32_t interframe = m_devices.front()->GetInterframeBytes();
    plan.wireBytes = q->GetWireBytes(m.bytes, interframe);
    plan.unitWireBytes = static_cast<uint32_t>(
        q->GetWireBytes(std::min<uint64_t>(m.bytes, q->GetMtu()), interframe));
    plan.completesOnAck = m_useTransport;
    return true;
}

bool
BasicEndpoint::PostLazily(Ptr<FabricMessageSupply> supply)
{
    NS_LOG_FUNCTION(this);
    if (!m_lazy || m_useTransport || m_supply || m_queues.size() != 1)
    {
        return false; // several FIFOs (RoundRobin, Hash) or a transport: posted all at once
    }
    // Posting message k at once wakes the ports; each woken port that finds data either sends
    // it or (busy) arms its end of transmission. Later posts at the same instant wake them
    // again to no effect, as long as the queue is never empty while messages are left, which
    // the pull from the queue guarantees: so only the first message is posted here.
    m_supply = supply;
    m_queues.front()->SetSupply(supply, MakeCallback(&BasicEndpoint::Pull, this));
    FabricMessage m;
    if (m_supply->Next(m))
    {
        PostPlanned(m);
    }
    return true;
}

bool
BasicEndpoint::Pull()
{
    FabricMessage m;
    if (!m_supply || !m_supply->Next(m))
    {
        return false;
    }
    m_pulling = true;
    PostPlanned(m);
    m_pulling = false;
    return true;
}

void
BasicEndpoint::PostRemaining()
{
    NS_LOG_FUNCTION(this);
    while (Pull())
    {
    }
}

void
BasicEndpoint::SetPortUp(uint32_t port, bool up)
{
    NS_LOG_FUNCTION(this << port << up);
    Ptr<FabricNetDevice> dev = m_devices.at(port);
    if (m_planeSelection != SPRAY || m_devices.size() == 1)
    {
        return;
    }
    if (!up)
    {
        dev->SetTxQueue(nullptr);
        return;
    }
    if (m_transports.empty())
    {
        dev->SetTxQueue(m_queues.front());
    }
    else
    {
        dev->SetTxQueue(m_transports.at(port));
    }
    dev->Wake();
}

void
BasicEndpoint::TransmitDone(const Ptr<FabricPacket>& p)
{
    if (m_transports.empty())
    {
        UnitDone(p); // no transport: complete when serialized
    }
}

void
BasicEndpoint::UnitDone(const Ptr<FabricPacket>& p)
{
    // Every unit of the message is done (serialized, or acknowledged by the transport). On one
    // port units are done in order, so the last one completes the message; sprayed over several
    // ports, an earlier, longer unit may still be on the wire (or unacknowledged) when the last
    // one is done, so count bytes.
    bool done;
    if (p->payloadBytes == p->msgBytes)
    {
        done = true;
    }
    else if (m_planeSelection != SPRAY || m_devices.size() == 1)
    {
        done = p->offset + p->payloadBytes == p->msgBytes;
    }
    else
    {
        auto it = m_txDone.try_emplace(p->msgId, 0).first;
        it->second += p->payloadBytes;
        done = it->second == p->msgBytes;
        if (done)
        {
            m_txDone.erase(it);
        }
    }
    if (done)
    {
        FabricMessage m = p->GetMessage();
        m.completed = FabricClock::Now();
        NotifyCompleted(m);
    }
}

void
BasicEndpoint::Receive(const Ptr<FabricNetDevice>& dev, const Ptr<FabricPacket>& p)
{
    NS_LOG_FUNCTION(this << dev << p);
    if (p->dst != GetAcceleratorId())
    {
        ++m_misdelivered;
        dev->RecordDrop(p, FabricDropReason::MISDELIVERED);
        return;
    }
    if (!m_transports.empty())
    {
        if (!m_transports[dev->GetPortIndex()]->Receive(p))
        {
            return; // an ACK, a duplicate or a unit after a gap
        }
    }
    else
    {
        NS_ABORT_MSG_IF(p->kind == FabricPacket::TRANSPORT_ACK,
                        "BasicEndpoint " << GetAcceleratorId()
                                         << " received a transport ACK but has no transport: "
                                            "give every endpoint the same transport");
    }
    CountReceivedPayload(p->payloadBytes);
    bool done = false;
    if (p->offset == 0 && p->payloadBytes == p->msgBytes)
    {
        done = true; // single-unit message: no reassembly state
    }
    else
    {
        const uint64_t key = (static_cast<uint64_t>(p->src) << 40) | p->msgId;
        Reassembly& r = m_rx[key];
        if (p->offset != r.next)
        {
            ++m_outOfOrder;
        }
        r.next = std::max(r.next, p->offset + p->payloadBytes);
        r.received += p->payloadBytes;
        NS_ABORT_MSG_IF(r.received > p->msgBytes,
                        "Message " << p->msgId << " from " << p->src
                                   << " received more bytes than it has (duplicate unit)");
        if (r.received == p->msgBytes)
        {
            m_rx.erase(key);
            done = true;
        }
    }
    if (done)
    {
        FabricMessage m = p->GetMessage();
        m.delivered = FabricClock::Now();
        NotifyDelivered(m);
    }
}

} // namespace ns3
