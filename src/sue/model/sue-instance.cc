/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "sue-instance.h"

#include "ns3/abort.h"
#include "ns3/enum.h"
#include "ns3/fabric-channel.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SueInstance");
NS_OBJECT_ENSURE_REGISTERED(SueInstance);

TypeId
SueInstance::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SueInstance")
            .SetParent<Object>()
            .SetGroupName("Sue")
            .AddConstructor<SueInstance>()
            .AddAttribute("Ordering",
                          "Strict: every transaction between a source and a destination on a VC "
                          "is delivered in order, one port per destination. Unordered: PDUs "
                          "spread over the instance's ports, order not kept (SUE RM102 section "
                          "1.2).",
                          EnumValue(STRICT),
                          MakeEnumAccessor(&SueInstance::m_ordering),
                          MakeEnumChecker(STRICT, "Strict", UNORDERED, "Unordered"));
    return tid;
}

SueInstance::SueInstance()
{
    NS_LOG_FUNCTION(this);
}

SueInstance::~SueInstance()
{
    NS_LOG_FUNCTION(this);
}

void
SueInstance::DoDispose()
{
    m_ports.clear();
    m_packers.clear();
    m_transports.clear();
    m_rxCb = UnitCallback();
    m_doneCb = UnitCallback();
    Object::DoDispose();
}

void
SueInstance::Configure(const ObjectFactory& packer,
                       const ObjectFactory& transport,
                       bool lite,
                       uint32_t localId)
{
    NS_ABORT_MSG_IF(!m_ports.empty(), "SueInstance::Configure: call it before AddPort");
    m_packerFactory = packer;
    m_transportFactory = transport;
    m_lite = lite;
    m_localId = localId;
}

void
SueInstance::AddPort(Ptr<FabricNetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    NS_ABORT_MSG_IF(m_ports.size() >= 4, "a SUE instance has 1, 2 or 4 ports (RM102 1.1)");
    const uint32_t i = m_ports.size();
    device->SetPortIndex(i);
    Ptr<SuePacker> packer;
    if (m_ordering == UNORDERED && !m_packers.empty())
    {
        packer = m_packers.front();
    }
    else
    {
        packer = m_packerFactory.Create<SuePacker>();
        packer->SetLocalId(m_localId);
        packer->SetWakeCallback(MakeCallback(&SueInstance::WakeAll, this));
        m_packers.push_back(packer);
    }
    if (m_lite)
    {
        device->SetTxQueue(packer);
    }
    else
    {
        Ptr<FabricGoBackN> t = m_transportFactory.Create<FabricGoBackN>();
        t->SetInnerQueue(packer);
        t->SetDevice(PeekPointer(device));
        t->SetLocalId(m_localId);
        t->SetAckedCallback(MakeCallback(&SueInstance::Acked, this));
        t->SetFailedCallback(MakeCallback(&SueInstance::ConnectionFailed, this, i));
        device->SetTxQueue(t);
        m_transports.push_back(t);
    }
    device->SetFabricReceiveCallback(MakeCallback(&SueInstance::Receive, this));
    device->SetTransmitDoneCallback(MakeCallback(&SueInstance::TransmitDone, this));
    m_ports.push_back(device);
    m_up.push_back(true);
}

Ptr<FabricNetDevice>
SueInstance::GetPort(uint32_t i) const
{
    NS_ASSERT(i < m_ports.size());
    return m_ports[i];
}

Ptr<FabricGoBackN>
SueInstance::GetTransport(uint32_t i) const
{
    return i < m_transports.size() ? m_transports[i] : nullptr;
}

Ptr<SuePacker>
SueInstance::GetPacker(uint32_t i) const
{
    if (m_packers.empty())
    {
        return nullptr;
    }
    return m_packers.size() == 1 ? m_packers.front() : m_packers.at(i);
}

void
SueInstance::SetReceiveCallback(UnitCallback cb)
{
    m_rxCb = cb;
}

void
SueInstance::SetDoneCallback(UnitCallback cb)
{
    m_doneCb = cb;
}

uint64_t
SueInstance::GetBacklogBytes() const
{
    uint64_t b = 0;
    for (const auto& p : m_packers)
    {
        b += p->GetBacklogBytes();
    }
    return b;
}

bool
SueInstance::IsPortUp(uint32_t i) const
{
    return i < m_up.size() && m_up[i];
}

void
SueInstance::WakeAll()
{
    for (uint32_t i = 0; i < m_ports.size(); ++i)
    {
        if (m_up[i])
        {
            m_ports[i]->Wake();
        }
    }
}

void
SueInstance::SetPeerPort(uint32_t peer, uint32_t port)
{
    NS_ABORT_MSG_IF(port >= m_ports.size(), "SueInstance::SetPeerPort: no port " << port);
    NS_ABORT_MSG_IF(m_ordering == UNORDERED && m_ports.size() > 1,
                    "SueInstance: in a mesh an unordered instance has one port (its ports would "
                    "lead to different XPUs)");
    m_peerPorts[peer].push_back(port);
}

uint32_t
SueInstance::StrictPort(uint32_t dst) const
{
    if (m_peerPorts.empty())
    {
        return dst % m_ports.size();
    }
    auto it = m_peerPorts.find(dst);
    NS_ABORT_MSG_IF(it == m_peerPorts.end(),
                    "XPU " << m_localId << ": no port of this SUE instance links to XPU " << dst);
    return it->second[(m_localId + dst) % it->second.size()];
}

void
SueInstance::Enqueue(const FabricMessage& m)
{
    NS_LOG_FUNCTION(this << m.id << m.dst << m.bytes);
    NS_ABORT_MSG_IF(m_ports.empty(), "SueInstance has no port");
    m_inFlight += m.bytes;
    if (IsOnePortPerDestination())
    {
        const uint32_t port = StrictPort(m.dst);
        m_packers[port]->Enqueue(m);
        m_ports[port]->Wake();
    }
    else
    {
        m_packers.front()->Enqueue(m);
        WakeAll();
    }
}

void
SueInstance::EnqueueOp(const FabricMessage& m, uint8_t op)
{
    NS_ABORT_MSG_IF(m_ports.empty(), "SueInstance has no port");
    m_inFlight += op == 1 ? 0 : m.bytes;
    const bool onePort = IsOnePortPerDestination();
    const uint32_t port = onePort ? StrictPort(m.dst) : 0;
    m_packers[onePort ? port : 0]->EnqueueOp(m, op);
    if (onePort)
    {
        m_ports[port]->Wake();
    }
    else
    {
        WakeAll();
    }
}

void
SueInstance::Receive(const Ptr<FabricNetDevice>& dev, const Ptr<FabricPacket>& p)
{
    if (!m_transports.empty())
    {
        if (!m_transports[dev->GetPortIndex()]->Receive(p))
        {
            return; // an ACK, a duplicate or a PDU after a gap
        }
    }
    else
    {
        NS_ABORT_MSG_IF(p->kind == FabricPacket::TRANSPORT_ACK,
                        "SUE Lite instance of XPU " << m_localId
                                                    << " received a transport ACK: every XPU "
                                                       "of a pod must use the same profile");
    }
    if (!m_rxCb.IsNull())
    {
        m_rxCb(p);
    }
}

void
SueInstance::TransmitDone(const Ptr<FabricPacket>& p)
{
    if (m_lite && p->kind == FabricPacket::DATA)
    {
        Acked(p); // no transport: done when serialized
    }
}

void
SueInstance::Acked(const Ptr<FabricPacket>& p)
{
    m_inFlight -= p->payloadBytes;
    if (!m_doneCb.IsNull())
    {
        m_doneCb(p);
    }
}

void
SueInstance::Move(const std::vector<Ptr<FabricPacket>>& units)
{
    Ptr<SuePacker> packer = m_packers.front();
    for (const auto& u : units)
    {
        FabricMessage m = u->GetMessage();
        u->ForEachSegment([&m, &packer](const FabricPacket::Segment& s) {
            m.id = s.msgId;
            m.bytes = s.msgBytes;
            m.cookie = s.cookie;
            m.posted = s.posted;
            packer->Requeue(m, s.offset, s.bytes);
        });
        m_moved += u->payloadBytes;
    }
    WakeAll();
}

void
SueInstance::ConnectionFailed(uint32_t port,
                              uint32_t peer,
                              const std::vector<Ptr<FabricPacket>>& units)
{
    NS_LOG_FUNCTION(this << port << peer << units.size());
    if (m_ordering == UNORDERED && m_ports.size() > 1)
    {
        NS_LOG_INFO("XPU " << m_localId << ": XPU " << peer << " unreachable on port " << port
                           << ", moving " << units.size() << " PDUs to the other ports");
        Move(units);
        return;
    }
    // Strict mode keeps order by not moving: the work is lost with its connection.
    NS_LOG_WARN("XPU " << m_localId << ": connection to XPU " << peer << " on port " << port
                       << " failed; " << units.size() << " PDUs lost (strict mode)");
    for (const auto& u : units)
    {
        m_inFlight -= u->payloadBytes;
    }
}

void
SueInstance::SetPortDown(uint32_t i)
{
    NS_LOG_FUNCTION(this << i);
    NS_ABORT_MSG_IF(i >= m_ports.size(), "SueInstance::SetPortDown: no port " << i);
    if (!m_up[i])
    {
        return;
    }
    m_up[i] = false;
    if (m_ordering == UNORDERED && m_ports.size() > 1)
    {
        // Detach the port from the shared packer first (a dead port drains its queue), then
        // move its unacknowledged work to the other ports.
        m_ports[i]->SetTxQueue(nullptr);
        m_ports[i]->GetFabricChannel()->SetLinkUp(false);
        if (!m_transports.empty())
        {
            Move(m_transports[i]->TakeAll());
        }
        return;
    }
    m_ports[i]->GetFabricChannel()->SetLinkUp(false);
}

void
SueInstance::SetPortUp(uint32_t i)
{
    NS_LOG_FUNCTION(this << i);
    NS_ABORT_MSG_IF(i >= m_ports.size(), "SueInstance::SetPortUp: no port " << i);
    if (m_up[i])
    {
        return;
    }
    m_up[i] = true;
    if (m_ordering == UNORDERED && m_ports.size() > 1)
    {
        // Reattach the port to the shared packer (through its transport, unless SUE Lite).
        if (m_transports.empty())
        {
            m_ports[i]->SetTxQueue(m_packers.front());
        }
        else
        {
            m_ports[i]->SetTxQueue(m_transports[i]);
        }
    }
    m_ports[i]->GetFabricChannel()->SetLinkUp(true);
    WakeAll();
}

} // namespace ns3
