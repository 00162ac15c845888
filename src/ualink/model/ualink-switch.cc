/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ualink-switch.h"

#include "ualink-phy.h"
#include "ualink-tl-op.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("UalinkSwitch");
NS_OBJECT_ENSURE_REGISTERED(UalinkSwitch);

namespace
{
/// Accelerator ids are 10 bits (section 1.1).
constexpr uint32_t MAX_ACCELERATORS = 1024;
} // namespace

TypeId
UalinkSwitch::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::UalinkSwitch")
            .SetParent<Object>()
            .SetGroupName("Ualink")
            .AddConstructor<UalinkSwitch>()
            .AddAttribute("PinToPinLatency",
                          "Idle pin-to-pin latency of a 64 B write. 0: the goal of section "
                          "10.9.2 for the switch's lanes (200 ns up to 128 lanes, 250 ns up to "
                          "256, 300 ns up to 512, LatencyBeyond512Lanes above).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&UalinkSwitch::m_pinToPin),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("LatencyBeyond512Lanes",
                          "Pin-to-pin latency of switches with more than 512 lanes, which section "
                          "10.9.2 does not cover (digest appendix A.9: a parameter).",
                          TimeValue(NanoSeconds(300)),
                          MakeTimeAccessor(&UalinkSwitch::m_beyond512),
                          MakeTimeChecker(Time(0)))
            .AddTraceSource("Drop",
                            "An operation was dropped: source, destination, reason.",
                            MakeTraceSourceAccessor(&UalinkSwitch::m_dropTrace),
                            "ns3::UalinkSwitch::DropTracedCallback");
    return tid;
}

UalinkSwitch::UalinkSwitch()
    : m_routes(MAX_ACCELERATORS, -1)
{
    NS_LOG_FUNCTION(this);
}

UalinkSwitch::~UalinkSwitch()
{
    NS_LOG_FUNCTION(this);
}

void
UalinkSwitch::DoDispose()
{
    for (Port& p : m_ports)
    {
        p.dev = nullptr;
        p.q = nullptr;
    }
    m_ports.clear();
    m_portOf.clear();
    Object::DoDispose();
}

uint32_t
UalinkSwitch::AddPort(Ptr<FabricNetDevice> device, Ptr<const UalinkPhy> phy)
{
    NS_LOG_FUNCTION(this << device);
    const uint32_t index = static_cast<uint32_t>(m_ports.size());
    Port p;
    p.dev = device;
    p.q = CreateObject<UalinkTxQueue>();
    p.q->SetPhy(phy);
    p.q->SetDevice(device);
    // Section 5.5: a switch's Tx address cache is indexed by SRCACCID.
    p.q->GetPacker()->SetAttribute("CacheIndexBySource", BooleanValue(true));
    p.q->SetSentCallback(MakeCallback(&UalinkSwitch::Sent, this));
    p.slot = phy->GetSlotTime();
    p.fec = phy->GetFecReceiveLatency();
    p.lanes = phy->GetLanes();
    device->SetTxQueue(p.q);
    device->SetPortIndex(index);
    device->SetFabricReceiveCallback(MakeCallback(&UalinkSwitch::Receive, this));
    m_portOf[PeekPointer(device)] = index;
    m_ports.push_back(p);
    // The core latency depends on the switch's lanes: it rides in every port's receive pipeline
    // (store and forward: a burst is handled once its last flit is in), no event of its own.
    const Time core = GetCoreLatency();
    if (core != m_core)
    {
        m_core = core;
        for (const Port& q : m_ports)
        {
            q.dev->SetReceivePipeline(false, m_core);
        }
    }
    else
    {
        device->SetReceivePipeline(false, m_core);
    }
    return index;
}

void
UalinkSwitch::SetRoute(uint32_t dst, uint32_t port)
{
    NS_ABORT_MSG_IF(dst >= MAX_ACCELERATORS, "UalinkSwitch: accelerator ids are 10 bits");
    m_routes[dst] = static_cast<int32_t>(port);
}

void
UalinkSwitch::SetDenied(uint32_t ingress, uint32_t dst, bool deny)
{
    const uint64_t key = (static_cast<uint64_t>(ingress) << 32) | dst;
    if (deny)
    {
        m_denied.insert(key);
    }
    else
    {
        m_denied.erase(key);
    }
}

Time
UalinkSwitch::GetPinToPinLatency() const
{
    if (m_pinToPin.IsStrictlyPositive())
    {
        return m_pinToPin;
    }
    uint32_t lanes = 0;
    for (const Port& p : m_ports)
    {
        lanes += p.lanes;
    }
    if (lanes <= 128)
    {
        return NanoSeconds(200);
    }
    if (lanes <= 256)
    {
        return NanoSeconds(250);
    }
    if (lanes <= 512)
    {
        return NanoSeconds(300);
    }
    return m_beyond512;
}

Time
UalinkSwitch::GetCoreLatency() const
{
    if (m_ports.empty())
    {
        return Time(0);
    }
    const Port& p = m_ports.front();
    const Time core = GetPinToPinLatency() - p.fec - 2 * p.slot;
    return core.IsStrictlyPositive() ? core : Time(0);
}

void
UalinkSwitch::Receive(const Ptr<FabricNetDevice>& dev, const Ptr<FabricPacket>& p)
{
    NS_LOG_FUNCTION(this << p);
    const uint32_t in = m_portOf.at(PeekPointer(dev));
    NS_ASSERT(p->segments);
    std::vector<FabricPacket::Segment>& fwd = m_fwd;
    std::vector<uint32_t>& egress = m_egress;
    std::vector<FabricPacket::Segment> dropped;
    fwd.clear();
    egress.clear();
    for (FabricPacket::Segment s : *p->segments)
    {
        const int32_t out = s.dst < MAX_ACCELERATORS ? m_routes[s.dst] : -1;
        const char* reason = nullptr;
        if (out < 0)
        {
            reason = NO_ROUTE;
        }
        else if (!m_denied.empty() &&
                 m_denied.count((static_cast<uint64_t>(in) << 32) | s.dst) != 0)
        {
            reason = ROUTE_DENIED;
        }
        if (reason)
        {
            // Section 10.7: silently dropped and logged; the source's watchdog will notice.
            ++m_drops[reason];
            m_dropTrace(s.src, s.dst, reason);
            dropped.push_back(s);
            continue;
        }
        // Poisoned data is forwarded unchanged (section 3.1.4.1: poison and forward).
        s.aux = ualink::PackAux(ualink::AuxTag(s.aux),
                                ualink::AuxStatus(s.aux),
                                in,
                                ualink::AuxPoisoned(s.aux));
        fwd.push_back(s);
        egress.push_back(static_cast<uint32_t>(out));
    }
    if (!dropped.empty())
    {
        UalinkTxQueue::ReleaseCredits(dev, dropped, m_ports[in].slot);
    }
    if (fwd.empty())
    {
        return;
    }
    // The core latency has passed already (the ports' receive pipeline).
    Forward(fwd, egress);
}

void
UalinkSwitch::Forward(const std::vector<FabricPacket::Segment>& segs, std::vector<uint32_t>& egress)
{
    for (std::size_t i = 0; i < segs.size(); ++i)
    {
        m_ports[egress[i]].q->Enqueue(segs[i]);
        ++m_forwarded;
    }
    // Wake each egress once.
    std::sort(egress.begin(), egress.end());
    egress.erase(std::unique(egress.begin(), egress.end()), egress.end());
    for (uint32_t e : egress)
    {
        m_ports[e].dev->Wake();
    }
}

void
UalinkSwitch::Sent(const std::vector<FabricPacket::Segment>& segs)
{
    // One credit return per ingress port per burst: count per ingress (a burst holds a few).
    m_release.clear();
    for (const FabricPacket::Segment& s : segs)
    {
        const uint32_t in = ualink::AuxPort(s.aux);
        auto it = std::find_if(m_release.begin(), m_release.end(), [in](const auto& r) {
            return r.first == in;
        });
        if (it == m_release.end())
        {
            m_release.emplace_back(in, UalinkTxQueue::KindCredits{});
            it = m_release.end() - 1;
        }
        UalinkTxQueue::TallyCredits(&it->second, s); // by the kind the ingress hop took
    }
    for (const auto& [in, n] : m_release)
    {
        UalinkTxQueue::ReleaseCredits(m_ports[in].dev, n, m_ports[in].slot);
    }
}

} // namespace ns3
