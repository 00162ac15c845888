/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ualink-switch.h"

#include "ualink-control-half-flit.h"
#include "ualink-phy.h"
#include "ualink-tl-op.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("UalinkSwitch");
NS_OBJECT_ENSURE_REGISTERED(UalinkSwitch);

namespace
{
/// Accelerator ids are 10 bits (section 1.1).
constexpr uint32_t MAX_ACCELERATORS = 1024;
/// Buffer classes: requests and responses wait apart (section 10.4).
constexpr uint32_t BUFFER_CLASSES = 2;
} // namespace

TypeId
UalinkSwitch::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::UalinkSwitch")
            .SetParent<FabricSwitchBase>()
            .SetGroupName("Ualink")
            .AddConstructor<UalinkSwitch>()
            .AddAttribute("PinToPinLatency",
                          "Idle pin-to-pin latency of a 64 B write. 0: the goal of section "
                          "10.9.2 for the switch's lanes (200 ns up to 128 lanes, 250 ns up to "
                          "256, 300 ns up to 512, LatencyBeyond512Lanes above).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&UalinkSwitch::m_pinToPin),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("RouteTableEntries",
                          "Entries of each station's route table (section 10.7: destinations "
                          "at or above are never routed, counted NoRoute). Set before the "
                          "first port is added.",
                          UintegerValue(UalinkRouteTable::MAX_ENTRIES),
                          MakeUintegerAccessor(&UalinkSwitch::m_tableEntries),
                          MakeUintegerChecker<uint32_t>(1, UalinkRouteTable::MAX_ENTRIES))
            .AddAttribute("LatencyBeyond512Lanes",
                          "Pin-to-pin latency of switches with more than 512 lanes, which the "
                          "goals of section 10.9.2 do not cover (they stop at 512 lanes, while a "
                          "pod of 1024 accelerators needs switches of 1024 ports, 10.1): a "
                          "parameter.",
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
{
    NS_LOG_FUNCTION(this);
    // The ingress credits bound what the switch holds (5.8, 10.3): no size of its own.
    m_buffer->SetAttribute("Size", UintegerValue(std::numeric_limits<uint64_t>::max()));
}

UalinkSwitch::~UalinkSwitch()
{
    NS_LOG_FUNCTION(this);
}

void
UalinkSwitch::DoDispose()
{
    for (Port& p : m_portInfo)
    {
        p.q = nullptr;
    }
    m_portInfo.clear();
    m_portOf.clear();
    FabricSwitchBase::DoDispose();
}

uint32_t
UalinkSwitch::AddPort(Ptr<FabricNetDevice> device, Ptr<const UalinkPhy> phy)
{
    NS_LOG_FUNCTION(this << device);
    const uint32_t index = GetNPorts();
    // Section 2.4: every station of the pod is bifurcated alike; a station is 4 lanes.
    const uint32_t perStation = 4 / std::max<uint32_t>(1, std::min<uint32_t>(4, phy->GetLanes()));
    NS_ABORT_MSG_IF(m_perStation != 0 && perStation != m_perStation,
                    "UalinkSwitch: port " << index << " has " << phy->GetLanes()
                                          << " lanes, the switch's stations have " << m_perStation
                                          << " ports: every station is bifurcated alike "
                                             "(section 2.4)");
    if (m_perStation == 0)
    {
        m_perStation = perStation;
    }
    Port p;
    p.station = index / m_perStation;
    p.portInStation = index % m_perStation;
    if (p.station == m_tables.size())
    {
        AddStation();
    }
    p.q = CreateObject<UalinkTxQueue>();
    p.q->SetPhy(phy);
    p.q->SetDevice(device);
    // Section 5.5: a switch's Tx address cache is indexed by SRCACCID.
    p.q->GetPacker()->SetAttribute("CacheIndexBySource", BooleanValue(true));
    p.q->SetSentCallback(MakeCallback(&UalinkSwitch::Sent, this, index));
    p.slot = phy->GetSlotTime();
    p.fec = phy->GetFecReceiveLatency();
    p.lanes = phy->GetLanes();
    device->SetTxQueue(p.q);
    AddPortDevice(device);
    device->SetFabricReceiveCallback(MakeCallback(&UalinkSwitch::Receive, this));
    if (Ptr<UalinkDl> dl = device->GetObject<UalinkDl>())
    {
        // The port's DL owns its link state (section 6.7.1): the TL sends only in Up.
        p.q->SetHeld(!dl->IsUp());
        dl->TraceConnectWithoutContext("LinkState",
                                       MakeCallback(&UalinkSwitch::DlStateChanged, this, index));
    }
    else
    {
        device->AddLinkChangeCallback(MakeCallback(&UalinkSwitch::LinkChanged, this, index));
    }
    m_portOf[PeekPointer(device)] = index;
    m_portInfo.push_back(p);
    m_buffer->Configure(GetNPorts(), BUFFER_CLASSES);
    // The core latency depends on the switch's lanes: it rides in every port's receive pipeline
    // (store and forward: a burst is handled once its last flit is in), no event of its own.
    const Time core = GetCoreLatency();
    if (core != m_core)
    {
        m_core = core;
        for (const Ptr<FabricNetDevice>& d : m_ports)
        {
            d->SetReceivePipeline(false, m_core);
        }
    }
    else
    {
        device->SetReceivePipeline(false, m_core);
    }
    return index;
}

void
UalinkSwitch::AddStation()
{
    // A new station: its table is reset (all deny), then takes the switch-wide routes.
    m_tables.emplace_back(m_tableEntries, m_perStation);
    UalinkRouteTable& t = m_tables.back();
    const uint32_t n = std::min(m_routes->GetNDestinations(), m_tableEntries);
    for (uint32_t dst = 0; dst < n; ++dst)
    {
        const uint32_t out = m_routes->Lookup(dst, 0);
        if (out != FabricRoutingTable::NO_PORT)
        {
            t.SetEgress(dst, out);
            for (uint32_t k = 0; k < m_perStation; ++k)
            {
                t.SetDenied(dst, k, false);
            }
        }
    }
}

void
UalinkSwitch::SetRoute(uint32_t dst, uint32_t port)
{
    NS_ABORT_MSG_IF(dst >= MAX_ACCELERATORS, "UalinkSwitch: accelerator ids are 10 bits");
    NS_ABORT_MSG_IF(dst >= m_tableEntries,
                    "UalinkSwitch: destination " << dst << " beyond the route tables' "
                                                 << m_tableEntries << " entries");
    m_routes->SetSingleRoute(dst, port);
    for (UalinkRouteTable& t : m_tables)
    {
        t.SetEgress(dst, port);
        for (uint32_t k = 0; k < t.GetPorts(); ++k)
        {
            t.SetDenied(dst, k, false);
        }
    }
}

void
UalinkSwitch::SetRoute(uint32_t dst, const std::vector<uint32_t>& ports)
{
    NS_ABORT_MSG_IF(ports.size() != 1,
                    "UalinkSwitch: a route table entry has one egress (section 10.7), not "
                        << ports.size());
    SetRoute(dst, ports.front());
}

void
UalinkSwitch::SetDenied(uint32_t ingress, uint32_t dst, bool deny)
{
    const Port& p = m_portInfo.at(ingress);
    m_tables.at(p.station).SetDenied(dst, p.portInStation, deny);
}

bool
UalinkSwitch::IsDenied(uint32_t ingress, uint32_t dst) const
{
    const Port& p = m_portInfo.at(ingress);
    return dst < m_tableEntries && m_tables.at(p.station).IsDenied(dst, p.portInStation);
}

UalinkRouteTable::Verdict
UalinkSwitch::Lookup(uint32_t ingress, uint32_t dst, uint32_t& egress) const
{
    const Port& p = m_portInfo.at(ingress);
    return m_tables[p.station].Lookup(dst, p.portInStation, egress);
}

Time
UalinkSwitch::GetPinToPinLatency() const
{
    if (m_pinToPin.IsStrictlyPositive())
    {
        return m_pinToPin;
    }
    uint32_t lanes = 0;
    for (const Port& p : m_portInfo)
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
    if (m_portInfo.empty())
    {
        return Time(0);
    }
    const Port& p = m_portInfo.front();
    const Time core = GetPinToPinLatency() - p.fec - 2 * p.slot;
    return core.IsStrictlyPositive() ? core : Time(0);
}

void
UalinkSwitch::Receive(const Ptr<FabricNetDevice>& dev, const Ptr<FabricPacket>& p)
{
    NS_LOG_FUNCTION(this << p);
    // AddPort set the device's port index (the map is the fallback if someone changed it).
    uint32_t in = dev->GetPortIndex();
    if (in >= m_ports.size() || m_ports[in] != dev)
    {
        in = m_portOf.at(PeekPointer(dev));
    }
    const Port& port = m_portInfo[in];
    const UalinkRouteTable& table = m_tables[port.station];
    NS_ASSERT(p->segments);
    std::vector<FabricPacket::Segment>& fwd = m_fwd;
    std::vector<uint32_t>& egress = m_egress;
    std::vector<FabricPacket::Segment> dropped;
    fwd.clear();
    egress.clear();
    for (FabricPacket::Segment s : *p->segments)
    {
        uint32_t out = 0;
        const UalinkRouteTable::Verdict v = table.Lookup(s.dst, port.portInStation, out);
        const char* reason = nullptr;
        if (v != UalinkRouteTable::ROUTED)
        {
            reason = v == UalinkRouteTable::DENIED ? ROUTE_DENIED : NO_ROUTE;
        }
        else if (m_portInfo[out].dropMode)
        {
            reason = LINK_DOWN; // new traffic to a port in drop mode (section 3.1.4)
        }
        if (reason)
        {
            // Section 10.7: silently dropped and logged; the source's watchdog will notice (the
            // same for a port in drop mode, 3.1.4).
            CountDrop(reason);
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
        egress.push_back(out);
    }
    if (!dropped.empty())
    {
        m_portInfo[in].q->Release(dropped, m_portInfo[in].slot);
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
        m_portInfo[egress[i]].q->Enqueue(segs[i]);
        const bool admitted = m_buffer->Admit(egress[i],
                                              BufferClass(segs[i]),
                                              static_cast<uint32_t>(GetBufferBytes(segs[i])));
        NS_ABORT_MSG_UNLESS(admitted,
                            "UalinkSwitch: the buffer refused an operation; the ingress credits "
                            "bound what the switch holds (sections 5.8, 10.3)");
        ++m_forwarded;
    }
    // Wake each egress once.
    std::sort(egress.begin(), egress.end());
    egress.erase(std::unique(egress.begin(), egress.end()), egress.end());
    for (uint32_t e : egress)
    {
        m_ports[e]->Wake();
    }
}

void
UalinkSwitch::DlStateChanged(uint32_t port, UalinkDl::LinkState from, UalinkDl::LinkState to)
{
    NS_LOG_FUNCTION(this << port << UalinkDl::GetStateName(from) << UalinkDl::GetStateName(to));
    if (from == UalinkDl::UP && to != UalinkDl::UP)
    {
        EnterDropMode(port);
    }
    else if (to == UalinkDl::UP && m_portInfo.at(port).dropMode)
    {
        // Section 3.1.4: returning the link to an active state affects no other port.
        m_portInfo[port].dropMode = false;
    }
}

void
UalinkSwitch::LinkChanged(uint32_t port)
{
    Port& p = m_portInfo.at(port);
    if (!m_ports[port]->IsLinkUp())
    {
        EnterDropMode(port);
    }
    else
    {
        p.dropMode = false;
    }
}

void
UalinkSwitch::EnterDropMode(uint32_t port)
{
    NS_LOG_FUNCTION(this << port);
    Port& p = m_portInfo.at(port);
    if (p.dropMode)
    {
        return;
    }
    // Link down at a switch (section 3.1.4): only this port's TL enters drop mode; the
    // operations its queue holds are dropped and counted, and the ingress buffers they held
    // are freed, so their credits go back to the other ports' accelerators (their UPLI channels
    // stay active and keep their credits). The other ports of the station keep running.
    p.dropMode = true;
    const std::vector<FabricPacket::Segment> dropped = p.q->DropAll();
    for (const FabricPacket::Segment& s : dropped)
    {
        CountDrop(LINK_DOWN);
        m_dropTrace(s.src, s.dst, LINK_DOWN);
    }
    if (!dropped.empty())
    {
        Sent(port, dropped);
    }
}

void
UalinkSwitch::Sent(uint32_t egress, const std::vector<FabricPacket::Segment>& segs)
{
    // One credit return per ingress port per burst: count per ingress (a burst holds a few).
    m_release.clear();
    for (const FabricPacket::Segment& s : segs)
    {
        m_buffer->Release(egress, BufferClass(s), static_cast<uint32_t>(GetBufferBytes(s)));
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
        m_portInfo[in].q->Release(n, m_portInfo[in].slot);
    }
}

uint8_t
UalinkSwitch::BufferClass(const FabricPacket::Segment& s)
{
    // The requests of ToTlOp: reads, writes, Write Messages, atomics.
    return (ualink::IsDataRequest(s.op) || s.op == ualink::OP_READ) ? 0 : 1;
}

uint64_t
UalinkSwitch::GetBufferBytes(const FabricPacket::Segment& s)
{
    const UalinkTlOp op = UalinkTxQueue::ToTlOp(s);
    const uint64_t field =
        op.kind == UalinkTlOp::REQUEST ? 4 * ualink::SECTOR_BYTES : 2 * ualink::SECTOR_BYTES;
    return field + static_cast<uint64_t>(UalinkControlHalfFlit::DataHalfFlits(op)) *
                       ualink::HALF_FLIT_BYTES;
}

} // namespace ns3
