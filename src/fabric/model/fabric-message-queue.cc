/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-message-queue.h"

#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricMessageQueue");
NS_OBJECT_ENSURE_REGISTERED(FabricMessageQueue);

TypeId
FabricMessageQueue::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FabricMessageQueue")
            .SetParent<FabricTxQueue>()
            .SetGroupName("Fabric")
            .AddConstructor<FabricMessageQueue>()
            .AddAttribute("Mtu",
                          "Most payload bytes per unit (bytes).",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&FabricMessageQueue::m_mtu),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("HeaderBytes",
                          "Framing bytes added to every unit (bytes).",
                          UintegerValue(18),
                          MakeUintegerAccessor(&FabricMessageQueue::m_headerBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("SegmentBytes",
                          "Cut each unit's payload into segments of this many "
                          "bytes, the last padded (RIFL Layer 2: 256); 0: no "
                          "segments (bytes).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&FabricMessageQueue::m_segmentBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("SegmentHeaderBytes",
                          "Header bytes per segment (RIFL: 8) (bytes).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&FabricMessageQueue::m_segmentHeaderBytes),
                          MakeUintegerChecker<uint32_t>());
    return tid;
}

FabricMessageQueue::FabricMessageQueue()
{
    NS_LOG_FUNCTION(this);
}

FabricMessageQueue::~FabricMessageQueue()
{
    NS_LOG_FUNCTION(this);
}

void
FabricMessageQueue::DoDispose()
{
    m_supply = nullptr;
    m_pull = Callback<bool>();
    FabricTxQueue::DoDispose();
}

void
FabricMessageQueue::SetSupply(Ptr<FabricMessageSupply> supply, Callback<bool> pull)
{
    NS_LOG_FUNCTION(this);
    m_supply = supply;
    m_pull = pull;
}

void
FabricMessageQueue::Refill() const
{
    // Logically const: the FIFO holds, from the supply, what it would hold had every message
    // been posted at once (the owner's pull enqueues through its own pointer).
    if (!m_supply)
    {
        return;
    }
    const uint8_t c = m_supply->GetTclass();
    while ((c >= m_classes.size() || m_classes[c].empty()) && m_pull())
    {
    }
}

void
FabricMessageQueue::Enqueue(const FabricMessage& m)
{
    NS_LOG_FUNCTION(this << m.id << m.bytes);
    if (m.tclass >= m_classes.size())
    {
        m_classes.resize(m.tclass + 1);
    }
    std::deque<Pending>& q = m_classes[m.tclass];
    if (q.empty())
    {
        ++m_nonEmpty;
    }
    q.push_back(Pending{m, 0});
    m_backlog += m.bytes;
}

uint64_t
FabricMessageQueue::GetNMessages() const
{
    uint64_t n = 0;
    for (const auto& q : m_classes)
    {
        n += q.size();
    }
    return n + (m_supply ? m_supply->GetRemaining() : 0);
}

bool
FabricMessageQueue::DoIsEmpty() const
{
    Refill();
    return m_nonEmpty == 0;
}

Ptr<FabricPacket>
FabricMessageQueue::DoDequeue(const FabricTxGate* gate)
{
    Refill();
    const uint32_t n = m_classes.size();
    uint32_t c = 0;
    bool found = false;
    for (uint32_t i = 0; i < n; ++i)
    {
        c = (m_nextClass + i) % n;
        if (m_classes[c].empty())
        {
            continue;
        }
        if (gate)
        {
            // The head message's next unit: what flow control must admit.
            const Pending& h = m_classes[c].front();
            const uint32_t payload =
                static_cast<uint32_t>(std::min<uint64_t>(m_mtu, h.msg.bytes - h.sent));
            const uint32_t bytes = UnitHeaderBytes(payload) + payload;
            if (!gate->CanSend(c, bytes, h.msg.dst))
            {
                continue;
            }
        }
        found = true;
        break;
    }
    if (!found)
    {
        return nullptr;
    }
    m_nextClass = (c + 1) % n;
    std::deque<Pending>& q = m_classes[c];
    Pending& head = q.front();

    Ptr<FabricPacket> p = Create<FabricPacket>();
    const FabricMessage& m = head.msg;
    p->src = m.src;
    p->dst = m.dst;
    p->tclass = m.tclass;
    p->msgId = m.id;
    p->msgBytes = m.bytes;
    p->cookie = m.cookie;
    p->posted = m.posted;
    p->offset = head.sent;
    p->payloadBytes = static_cast<uint32_t>(std::min<uint64_t>(m_mtu, m.bytes - head.sent));
    p->headerBytes = UnitHeaderBytes(p->payloadBytes);
    p->flowHash = FlowHash(m);
    if (!m_route.IsNull())
    {
        p->sourceRoute = m_route(m.src, m.dst, p->flowHash);
    }

    head.sent += p->payloadBytes;
    m_backlog -= p->payloadBytes;
    if (head.sent == m.bytes)
    {
        q.pop_front();
        if (q.empty())
        {
            --m_nonEmpty;
        }
    }
    return p;
}

uint32_t
FabricMessageQueue::FlowHash(const FabricMessage& m)
{
    uint64_t h = (static_cast<uint64_t>(m.src) << 32) ^ m.dst ^ (m.id * 0x9e3779b97f4a7c15ull);
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 32;
    return static_cast<uint32_t>(h);
}

uint64_t
FabricMessageQueue::GetSourceRoute(uint32_t src, uint32_t dst, uint32_t flowHash) const
{
    return m_route.IsNull() ? 0 : m_route(src, dst, flowHash);
}

uint64_t
FabricMessageQueue::GetWireBytes(uint64_t bytes, uint32_t perUnitBytes) const
{
    // Full units, then the last one (Dequeue cuts at most m_mtu payload bytes per unit).
    const uint64_t full = bytes / m_mtu;
    const uint32_t rest = static_cast<uint32_t>(bytes % m_mtu);
    uint64_t wire = full * (uint64_t{m_mtu} + UnitHeaderBytes(m_mtu) + perUnitBytes);
    if (rest > 0)
    {
        wire += rest + UnitHeaderBytes(rest) + perUnitBytes;
    }
    return wire;
}

} // namespace ns3
