/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ualink-upli.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/fabric-clock.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("UalinkUpli");
NS_OBJECT_ENSURE_REGISTERED(UalinkUpli);

TypeId
UalinkUpli::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::UalinkUpli")
            .SetParent<Object>()
            .SetGroupName("Ualink")
            .AddConstructor<UalinkUpli>()
            .AddAttribute("Mode",
                          "Ideal: the UPLI is faster than the link and beats issue at once (true "
                          "at the default clock, section 6.5.4: 800 Gb/s per channel and station "
                          "against the link's 785 Gb/s TL ceiling). Tdm: each beat on its port's "
                          "TDM cycle of the UPLI clock (section 2.5), computed per operation.",
                          EnumValue(IDEAL),
                          MakeEnumAccessor(&UalinkUpli::m_mode),
                          MakeEnumChecker(IDEAL, "Ideal", TDM, "Tdm"))
            .AddAttribute("ClockHz",
                          "UPLI clock in Hz (sections 6.4.2.2, 6.5.4: 1562.5 MHz, 512 bit per "
                          "channel; an accelerator may run slower, not below the 156.25 MHz "
                          "reference clock).",
                          DoubleValue(1562.5e6),
                          MakeDoubleAccessor(&UalinkUpli::m_clockHz),
                          MakeDoubleChecker<double>(156.25e6, 1562.5e6))
            .AddAttribute("ReqPoolCredits",
                          "Request channel pool credits per port, in beats (section 2.6: the "
                          "TL's buffer, implementation-defined; 32 requests).",
                          UintegerValue(32),
                          MakeUintegerAccessor(&UalinkUpli::m_poolReq),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("OrigDataPoolCredits",
                          "Originator Data channel pool credits per port, in 64 B beats (32 "
                          "requests of 4 beats).",
                          UintegerValue(128),
                          MakeUintegerAccessor(&UalinkUpli::m_poolOrigData),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RdRspPoolCredits",
                          "Read Response/Data channel pool credits per port, in 64 B beats.",
                          UintegerValue(128),
                          MakeUintegerAccessor(&UalinkUpli::m_poolRdRsp),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("WrRspPoolCredits",
                          "Write Response channel pool credits per port, in beats.",
                          UintegerValue(32),
                          MakeUintegerAccessor(&UalinkUpli::m_poolWrRsp),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("ReqVcCredits",
                          "Request channel credits per port for each of the 4 VCs (section 2.6).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&UalinkUpli::m_vcReq),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("OrigDataVcCredits",
                          "Originator Data channel credits per port for each VC, in beats.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&UalinkUpli::m_vcOrigData),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RdRspVcCredits",
                          "Read Response/Data channel credits per port for each VC, in beats.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&UalinkUpli::m_vcRdRsp),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("WrRspVcCredits",
                          "Write Response channel credits per port for each VC, in beats.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&UalinkUpli::m_vcWrRsp),
                          MakeUintegerChecker<uint32_t>());
    return tid;
}

UalinkUpli::UalinkUpli()
{
    NS_LOG_FUNCTION(this);
}

UalinkUpli::~UalinkUpli()
{
    NS_LOG_FUNCTION(this);
}

UalinkUpli::Beats
UalinkUpli::BeatsOf(uint8_t op, uint32_t bytes, uint64_t addr)
{
    const uint32_t b = ualink::Beats(bytes, addr);
    switch (op)
    {
    case ualink::OP_READ:
        return {1, 0, 0, 0};
    case ualink::OP_ATOMIC_R:
    case ualink::OP_ATOMIC_NR:
        return {1, 1, 0, 0}; // operands always in one beat (2.7.4.5)
    case ualink::OP_WRITE:
    case ualink::OP_WRITE_MESSAGE:
        return {1, b, 0, 0};
    case ualink::OP_READ_RSP:
        return {0, 0, b, 0};
    default:
        return {0, 0, 0, 1};
    }
}

void
UalinkUpli::SetPorts(uint32_t ports, uint32_t portsPerStation)
{
    NS_ABORT_MSG_IF(portsPerStation != 1 && portsPerStation != 2 && portsPerStation != 4,
                    "UalinkUpli: " << portsPerStation << " ports per station (1, 2 or 4, 2.5)");
    m_perStation = portsPerStation;
    m_pool = {m_poolReq, m_poolOrigData, m_poolRdRsp, m_poolWrRsp};
    m_vc = {m_vcReq, m_vcOrigData, m_vcRdRsp, m_vcWrRsp};
    m_ports.resize(ports);
    for (Port& p : m_ports)
    {
        for (uint32_t c = 0; c < N_CHANNELS; ++c)
        {
            for (uint32_t k = 0; k < ualink::POOL; ++k)
            {
                p.credits[c][k] = m_vc[c];
            }
            p.credits[c][ualink::POOL] = m_pool[c];
        }
    }
}

uint32_t
UalinkUpli::GetInitialCredits(Channel ch, uint8_t kind) const
{
    return kind == ualink::POOL ? m_pool[ch] : m_vc[ch];
}

uint32_t
UalinkUpli::GetCredits(uint32_t port, Channel ch, uint8_t kind) const
{
    return m_ports.at(port).credits[ch][kind];
}

Time
UalinkUpli::GetCycle() const
{
    return Seconds(1.0 / m_clockHz);
}

bool
UalinkUpli::TryIssue(uint32_t port,
                     uint8_t op,
                     uint32_t bytes,
                     uint64_t addr,
                     uint8_t vc,
                     Grant* grant)
{
    NS_ASSERT(port < m_ports.size());
    Port& p = m_ports[port];
    const Beats beats = BeatsOf(op, bytes, addr);
    std::array<uint8_t, N_CHANNELS> kind{};
    for (uint32_t c = 0; c < N_CHANNELS; ++c)
    {
        if (beats[c] == 0)
        {
            continue;
        }
        // Its VC's credits first, then the pool (2.6: the sender allocates the pool).
        if (p.credits[c][vc & 3] >= beats[c])
        {
            kind[c] = vc & 3;
        }
        else if (p.credits[c][ualink::POOL] >= beats[c])
        {
            kind[c] = ualink::POOL;
        }
        else
        {
            ++m_stats.stalls[c];
            return false;
        }
    }
    for (uint32_t c = 0; c < N_CHANNELS; ++c)
    {
        p.credits[c][kind[c]] -= beats[c];
        m_stats.beats[c] += beats[c];
    }
    grant->beats = beats;
    grant->kind = kind;
    grant->ready = FabricClock::Now();
    if (m_mode == IDEAL)
    {
        return true;
    }
    // Tdm: port p owns cycles c with c mod N == p mod N (2.5); the request and its first data
    // beat share a cycle, the data beats follow on the port's next phases (2.7.8).
    const double cycle = 1.0 / m_clockHz;
    const uint64_t n = m_perStation;
    const uint64_t phase = port % n;
    uint64_t c0 = static_cast<uint64_t>(std::ceil(FabricClock::Now().GetSeconds() / cycle - 1e-9));
    uint64_t lastBeats = 1;
    if (beats[REQ] > 0)
    {
        c0 = std::max(c0, p.next[REQ]);
        if (beats[ORIG_DATA] > 0)
        {
            c0 = std::max(c0, p.next[ORIG_DATA]);
        }
    }
    else
    {
        const Channel ch = beats[RD_RSP] > 0 ? RD_RSP : WR_RSP;
        c0 = std::max(c0, p.next[ch]);
        lastBeats = beats[ch];
    }
    c0 += (phase + n - c0 % n) % n;
    if (beats[REQ] > 0)
    {
        p.next[REQ] = c0 + n;
        if (beats[ORIG_DATA] > 0)
        {
            lastBeats = beats[ORIG_DATA];
            p.next[ORIG_DATA] = c0 + lastBeats * n;
        }
    }
    else
    {
        p.next[beats[RD_RSP] > 0 ? RD_RSP : WR_RSP] = c0 + lastBeats * n;
    }
    // The last beat is on the interface during cycle c0 + (b - 1) N; the TL has it at its end.
    grant->ready = Seconds(static_cast<double>(c0 + (lastBeats - 1) * n + 1) * cycle);
    if (grant->ready < FabricClock::Now())
    {
        grant->ready = FabricClock::Now();
    }
    return true;
}

void
UalinkUpli::Return(uint32_t port, const Beats& beats, const std::array<uint8_t, N_CHANNELS>& kind)
{
    NS_ASSERT(port < m_ports.size());
    Port& p = m_ports[port];
    for (uint32_t c = 0; c < N_CHANNELS; ++c)
    {
        p.credits[c][kind[c]] += beats[c];
        NS_ABORT_MSG_IF(p.credits[c][kind[c]] > GetInitialCredits(static_cast<Channel>(c), kind[c]),
                        "UalinkUpli: more credits returned than released on channel " << c);
    }
}

} // namespace ns3
