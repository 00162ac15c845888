/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-channel.h"

#include "fabric-arrival-order.h"
#include "fabric-clock.h"
#include "fabric-net-device.h"
#include "fabric-rx-event.h"
#include "picosecond-resolution.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricChannel");
NS_OBJECT_ENSURE_REGISTERED(FabricChannel);

FabricChannel::CableType
FabricChannel::CableTypeFromName(const std::string& name)
{
    return name == "twinax"        ? TWINAX
           : name == "single-mode" ? SINGLE_MODE
           : name == "hollow-core" ? HOLLOW_CORE
                                   : DIRECT;
}

int64_t
FabricChannel::PicoSecondsPerMetre(CableType type)
{
    // SUE spec (RM102), Appendix A.1: 3 m twinax = 13.8 ns, 10 m single-mode fiber = 49.6 ns,
    // 10 m hollow-core fiber = 35.0 ns.
    switch (type)
    {
    case TWINAX:
        return 4600;
    case SINGLE_MODE:
        return 4960;
    case HOLLOW_CORE:
        return 3500;
    case DIRECT:
    default:
        return 0;
    }
}

TypeId
FabricChannel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FabricChannel")
            .SetParent<Channel>()
            .SetGroupName("Fabric")
            .AddConstructor<FabricChannel>()
            .AddAttribute(
                "DataRate",
                "Link data rate (bit/s), the same in both directions.",
                DataRateValue(DataRate("800Gbps")),
                MakeDataRateAccessor(&FabricChannel::SetDataRate, &FabricChannel::GetDataRate),
                MakeDataRateChecker())
            .AddAttribute("Delay",
                          "Propagation delay, used when CableType is Direct.",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&FabricChannel::m_delay),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("CableType",
                          "Cable medium; its delay per metre comes from the SUE spec, "
                          "Appendix A.1 (twinax 4.6 ns/m, single-mode 4.96 ns/m, hollow-core "
                          "3.5 ns/m). Direct uses the Delay attribute.",
                          EnumValue(DIRECT),
                          MakeEnumAccessor(&FabricChannel::m_cable),
                          MakeEnumChecker(DIRECT,
                                          "Direct",
                                          TWINAX,
                                          "Twinax",
                                          SINGLE_MODE,
                                          "SingleMode",
                                          HOLLOW_CORE,
                                          "HollowCore"))
            .AddAttribute("CableLength",
                          "Cable length (m), used unless CableType is Direct.",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&FabricChannel::m_cableLength),
                          MakeDoubleChecker<double>(0.0))
            .AddAttribute("FecLatency",
                          "FEC decode latency added to every unit at the receiver.",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&FabricChannel::m_fecLatency),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("CodewordBits",
                          "Payload bits per FEC codeword (bits); the default is the message "
                          "size of RS(544,514) with 10-bit symbols (IEEE 802.3 clause 119).",
                          UintegerValue(5140),
                          MakeUintegerAccessor(&FabricChannel::m_codewordBits),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("CodewordErrorRate",
                          "Probability that a codeword is uncorrectable after FEC (per "
                          "codeword, both directions).",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&FabricChannel::m_codewordErrorRate),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("BitErrorRate",
                          "Residual bit error rate after FEC (per bit, both directions); "
                          "combined with CodewordErrorRate.",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&FabricChannel::m_ber),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("ArrivalOrder",
                          "Order of units that reach their receivers in the same picosecond. "
                          "Insertion: ns-3's, one receive event per unit, run in the order in "
                          "which the senders' events ran. Canonical: after the receiving "
                          "node's other events of that picosecond, sorted by receiving node, "
                          "receiving device and sending order (FabricArrivalOrder), the same in "
                          "a sequential and a distributed run.",
                          EnumValue(INSERTION),
                          MakeEnumAccessor(&FabricChannel::m_arrivalOrder),
                          MakeEnumChecker(INSERTION, "Insertion", CANONICAL, "Canonical"))
            .AddTraceSource("Corrupt",
                            "A unit was corrupted by the error model.",
                            MakeTraceSourceAccessor(&FabricChannel::m_corruptTrace),
                            "ns3::FabricChannel::CorruptTracedCallback");
    return tid;
}

FabricChannel::FabricChannel()
{
    NS_LOG_FUNCTION(this);
    CheckPicosecondResolution("ns3::FabricChannel");
    m_uniform[0] = CreateObject<UniformRandomVariable>();
    m_uniform[1] = CreateObject<UniformRandomVariable>();
}

FabricChannel::~FabricChannel()
{
    NS_LOG_FUNCTION(this);
}

void
FabricChannel::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_devices[0] = nullptr;
    m_devices[1] = nullptr;
    m_uniform[0] = nullptr;
    m_uniform[1] = nullptr;
    Channel::DoDispose();
}

void
FabricChannel::Attach(Ptr<FabricNetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    NS_ASSERT_MSG(m_nDevices < 2, "A FabricChannel connects exactly two devices");
    NS_ASSERT(device);
    m_devices[m_nDevices++] = device;
}

uint32_t
FabricChannel::IndexOf(Ptr<const FabricNetDevice> device) const
{
    if (m_devices[0] == device)
    {
        return 0;
    }
    NS_ASSERT_MSG(m_devices[1] == device, "Device is not attached to this channel");
    return 1;
}

Ptr<FabricNetDevice>
FabricChannel::GetPeer(Ptr<const FabricNetDevice> device) const
{
    return m_devices[1 - IndexOf(device)];
}

Time
FabricChannel::GetSerializationTime(uint64_t bytes) const
{
    // Exact to the picosecond (rounded up): bits * 1e12 / rate. Most rates divide 8e12 exactly
    // (800 Gb/s: 10 ps per byte), which saves the wide division.
    if (m_psPerByte > 0)
    {
        return PicoSeconds(static_cast<int64_t>(bytes) * m_psPerByte);
    }
    const uint64_t bps = m_bps;
    NS_ASSERT_MSG(bps > 0, "FabricChannel DataRate must be positive");
    const unsigned __int128 num = static_cast<unsigned __int128>(bytes) * 8u * 1000000000000ull;
    const unsigned __int128 ps = (num + bps - 1) / bps;
    return PicoSeconds(static_cast<int64_t>(ps));
}

Time
FabricChannel::GetPropagationDelay() const
{
    if (m_cable == DIRECT)
    {
        return m_delay;
    }
    if (m_cableDelayType != m_cable || m_cableDelayLength != m_cableLength)
    {
        // Rounded to the picosecond.
        m_cableDelay = PicoSeconds(std::llround(m_cableLength * PicoSecondsPerMetre(m_cable)));
        m_cableDelayType = m_cable;
        m_cableDelayLength = m_cableLength;
    }
    return m_cableDelay;
}

Time
FabricChannel::GetOneWayDelay() const
{
    return GetPropagationDelay() + m_fecLatency;
}

DataRate
FabricChannel::GetDataRate() const
{
    return m_rate;
}

void
FabricChannel::SetDataRate(DataRate rate)
{
    m_rate = rate;
    m_bps = rate.GetBitRate();
    constexpr uint64_t psBitsPerSecond = 8000000000000ull; // 8 bit * 1e12 ps/s
    m_psPerByte = (m_bps > 0 && psBitsPerSecond % m_bps == 0) ? psBitsPerSecond / m_bps : 0;
}

void
FabricChannel::SetErrorRates(Ptr<const FabricNetDevice> sender,
                             double codewordErrorRate,
                             double ber)
{
    NS_LOG_FUNCTION(this << sender << codewordErrorRate << ber);
    NS_ABORT_MSG_IF(codewordErrorRate < 0 || codewordErrorRate > 1 || ber < 0 || ber > 1,
                    "error rates are probabilities in [0, 1]");
    const uint32_t d = IndexOf(sender);
    m_dirCodewordErrorRate[d] = codewordErrorRate;
    m_dirBer[d] = ber;
}

double
FabricChannel::CodewordErrorProbability(uint32_t d) const
{
    const double cwer =
        m_dirCodewordErrorRate[d] >= 0 ? m_dirCodewordErrorRate[d] : m_codewordErrorRate;
    const double ber = m_dirBer[d] >= 0 ? m_dirBer[d] : m_ber;
    // A codeword fails if it is uncorrectable, or (residual BER) if any of its bits is wrong.
    double ok = 1.0 - cwer;
    if (ber > 0)
    {
        ok *= std::exp(static_cast<double>(m_codewordBits) * std::log1p(-ber));
    }
    return 1.0 - ok;
}

double
FabricChannel::GetUnitErrorProbability(Ptr<const FabricNetDevice> sender, uint64_t wireBytes) const
{
    const double pcw = CodewordErrorProbability(IndexOf(sender));
    if (pcw <= 0)
    {
        return 0;
    }
    // The unit spans ceil(bits / codeword bits) codewords; it is lost if any of them fails.
    const uint64_t bits = wireBytes * 8;
    const uint64_t codewords = (bits + m_codewordBits - 1) / m_codewordBits;
    return 1.0 - std::exp(static_cast<double>(codewords) * std::log1p(-pcw));
}

void
FabricChannel::InjectError(Ptr<const FabricNetDevice> sender, uint64_t k)
{
    NS_LOG_FUNCTION(this << sender << k);
    m_injected[IndexOf(sender)].insert(k);
}

void
FabricChannel::SetLinkUp(bool up)
{
    NS_LOG_FUNCTION(this << up);
    for (const auto& d : m_devices)
    {
        if (d)
        {
            d->SetLinkUp(up);
        }
    }
}

bool
FabricChannel::TransmitStart(const Ptr<FabricPacket>& p,
                             const Ptr<FabricNetDevice>& src,
                             Time txTime)
{
    NS_LOG_FUNCTION(this << p << src << txTime);
    const uint32_t i = IndexOf(src);
    Ptr<FabricNetDevice> dst = m_devices[1 - i];
    NS_ASSERT_MSG(dst, "FabricChannel has only one device");

    const uint64_t k = m_sent[i]++;
    bool corrupted = false;
    if (!m_injected[i].empty())
    {
        auto it = m_injected[i].find(k);
        if (it != m_injected[i].end())
        {
            corrupted = true;
            m_injected[i].erase(it);
        }
    }
    const bool lossy = m_dirCodewordErrorRate[i] >= 0
                           ? (m_dirCodewordErrorRate[i] > 0 || m_dirBer[i] > 0)
                           : (m_codewordErrorRate > 0 || m_ber > 0);
    if (!corrupted && lossy)
    {
        const double pu = GetUnitErrorProbability(src, p->GetSize() + src->GetInterframeBytes());
        corrupted = m_uniform[i]->GetValue() < pu;
    }
    if (corrupted)
    {
        m_corruptTrace(p, i);
    }

    // The head arrives after the propagation and FEC delay; the receiver acts on the unit after
    // its receive offset (tail arrival for store-and-forward, pipeline latency for cut-through).
    const Time head = GetOneWayDelay();
    p->tailArrival = FabricClock::Now() + txTime + head;
    // Link control frames (pause, credits, ACK/NAK) are consumed by the receiving MAC when
    // their tail arrives; they do not go through a switch's forwarding pipeline.
    const Time offset = p->IsLinkControl() ? txTime : dst->GetReceiveOffset(txTime);
    Deliver(dst, p, corrupted, head + offset, k);
    return !corrupted;
}

FabricChannel::ArrivalOrder
FabricChannel::GetArrivalOrder() const
{
    return m_arrivalOrder;
}

void
FabricChannel::Deliver(const Ptr<FabricNetDevice>& dst,
                       const Ptr<FabricPacket>& p,
                       bool corrupted,
                       Time delay,
                       uint64_t seq)
{
    if (m_arrivalOrder == CANONICAL)
    {
        FabricArrivalOrder::Get()->Stage(dst, p, corrupted, FabricClock::Now() + delay, seq);
        return;
    }
    Simulator::ScheduleWithContext(dst->GetNodeId(), delay, new FabricRxEvent(dst, p, corrupted));
}

int64_t
FabricChannel::AssignStreams(int64_t stream)
{
    m_uniform[0]->SetStream(stream);
    m_uniform[1]->SetStream(stream + 1);
    return 2;
}

std::size_t
FabricChannel::GetNDevices() const
{
    return m_nDevices;
}

Ptr<NetDevice>
FabricChannel::GetDevice(std::size_t i) const
{
    NS_ASSERT(i < 2);
    return m_devices[i];
}

} // namespace ns3
