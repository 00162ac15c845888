/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-pfc.h"

#include "fabric-channel.h"
#include "fabric-clock.h"
#include "fabric-invariant-check.h"
#include "fabric-net-device.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricPfc");
NS_OBJECT_ENSURE_REGISTERED(FabricPfc);

TypeId
FabricPfc::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FabricPfc")
            .SetParent<FabricFlowControl>()
            .SetGroupName("Fabric")
            .AddConstructor<FabricPfc>()
            .AddAttribute("Classes",
                          "Priorities (IEEE 802.1Qbb has 8).",
                          UintegerValue(8),
                          MakeUintegerAccessor(&FabricPfc::m_classes),
                          MakeUintegerChecker<uint32_t>(1, 32))
            .AddAttribute("XoffBytes",
                          "Ingress bytes of one priority at which a PAUSE is sent (bytes). 0: "
                          "BufferShare minus the headroom.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&FabricPfc::m_xoff),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("XonBytes",
                          "Ingress bytes of one priority at which the pause is released "
                          "(bytes). 0: XOFF minus two MTU frames (at least 0).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&FabricPfc::m_xon),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("HeadroomBytes",
                          "Buffer reserved above XOFF per priority for the bytes in flight "
                          "when a pause takes effect (bytes). 0: computed from the link (see the "
                          "class documentation).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&FabricPfc::m_headroom),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("BufferShare",
                          "Buffer bytes available to one priority of this ingress port, used "
                          "for the automatic XOFF (bytes). 0: none (XoffBytes must be set).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&FabricPfc::m_bufferShare),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("PauseQuanta",
                          "Pause time carried by an XOFF frame, in quanta of 512 bit times "
                          "(IEEE 802.1Qbb; 65535 is the largest).",
                          UintegerValue(0xffff),
                          MakeUintegerAccessor(&FabricPfc::m_quanta),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("PauseResponseTime",
                          "Time from the arrival of a PAUSE to the sender acting on it (at the "
                          "next unit boundary after it); also part of the automatic headroom.",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&FabricPfc::m_responseTime),
                          MakeTimeChecker(Seconds(0)))
            .AddTraceSource("PauseTx",
                            "A PAUSE frame was sent: priority and quanta (0: resume).",
                            MakeTraceSourceAccessor(&FabricPfc::m_pauseTxTrace),
                            "ns3::FabricPfc::PauseTracedCallback")
            .AddTraceSource("PauseRx",
                            "A PAUSE frame was received: priority and quanta (0: resume).",
                            MakeTraceSourceAccessor(&FabricPfc::m_pauseRxTrace),
                            "ns3::FabricPfc::PauseTracedCallback");
    return tid;
}

FabricPfc::FabricPfc()
{
    NS_LOG_FUNCTION(this);
}

FabricPfc::~FabricPfc()
{
    NS_LOG_FUNCTION(this);
}

void
FabricPfc::DoDispose()
{
    for (auto& e : m_refresh)
    {
        e.Cancel();
    }
    for (auto& e : m_expiry)
    {
        e.Cancel();
    }
    FabricFlowControl::DoDispose();
}

void
FabricPfc::Resize()
{
    if (m_rxClass.size() == m_classes)
    {
        return;
    }
    m_rxClass.assign(m_classes, RxClass());
    m_refresh.assign(m_classes, EventId());
    m_pausedUntil.assign(m_classes, Time());
    m_paused.assign(m_classes, false);
    m_pauseStart.assign(m_classes, Time());
    m_pausedTime.assign(m_classes, Time());
    m_expiry.assign(m_classes, EventId());
}

Time
FabricPfc::QuantaToTime(uint16_t quanta) const
{
    // One quantum is 512 bit times = 64 bytes at the link rate.
    Ptr<FabricChannel> ch = GetDevice() ? GetDevice()->GetFabricChannel() : nullptr;
    NS_ABORT_MSG_IF(!ch, "FabricPfc: the port has no channel");
    return ch->GetSerializationTime(uint64_t(quanta) * 64);
}

uint64_t
FabricPfc::GetHeadroom() const
{
    if (m_headroom > 0)
    {
        return m_headroom;
    }
    if (m_autoHeadroom > 0 && m_autoHeadroomResponse == m_responseTime &&
        m_autoHeadroomDevice == GetDevice())
    {
        return m_autoHeadroom;
    }
    FabricNetDevice* dev = GetDevice();
    Ptr<FabricChannel> ch = dev ? dev->GetFabricChannel() : nullptr;
    NS_ABORT_MSG_IF(!ch, "FabricPfc: the automatic headroom needs the port's channel");
    const uint64_t ifg = dev->GetInterframeBytes();
    const Time rxPipe = dev->GetReceiveOffset(ch->GetSerializationTime(dev->GetMtu() + ifg));
    m_autoHeadroom = ComputeHeadroom(ch->GetDataRate(),
                                     ch->GetOneWayDelay(),
                                     rxPipe,
                                     m_responseTime,
                                     dev->GetMtu(),
                                     ifg,
                                     GetControlFrameBytes());
    m_autoHeadroomResponse = m_responseTime;
    m_autoHeadroomDevice = dev;
    return m_autoHeadroom;
}

uint64_t
FabricPfc::ComputeHeadroom(DataRate rate,
                           Time oneWay,
                           Time rxPipeline,
                           Time response,
                           uint64_t maxFrameBytes,
                           uint64_t ifg,
                           uint64_t ctrlBytes)
{
    // In flight when the pause takes effect: the link both ways, this port's pipeline and the
    // peer's response time at the line rate; plus the frame the peer is serializing when the
    // pause arrives and the frame this port is sending ahead of the pause frame.
    const Time inFlight = 2 * oneWay + rxPipeline + response;
    const double bytesInFlight = inFlight.GetSeconds() * rate.GetBitRate() / 8.0;
    return static_cast<uint64_t>(std::ceil(bytesInFlight)) + 2 * (maxFrameBytes + ifg) + ctrlBytes +
           ifg;
}

uint64_t
FabricPfc::GetXoff() const
{
    if (m_xoff > 0)
    {
        return m_xoff;
    }
    const uint64_t h = GetHeadroom();
    NS_ABORT_MSG_IF(m_bufferShare == 0,
                    "FabricPfc: set XoffBytes or BufferShare (the buffer available to one "
                    "priority of the port)");
    NS_ABORT_MSG_IF(m_bufferShare <= h + GetDevice()->GetMtu(),
                    "FabricPfc: the buffer share of a port and priority ("
                        << m_bufferShare << " B) does not exceed the PFC headroom (" << h
                        << " B) by one MTU: the switch buffer is too small for lossless PFC on "
                           "this link");
    return m_bufferShare - h;
}

uint64_t
FabricPfc::GetXon() const
{
    if (m_xon > 0)
    {
        return m_xon;
    }
    const uint64_t xoff = GetXoff();
    const uint64_t twoFrames = 2 * (uint64_t(GetDevice()->GetMtu()));
    return xoff > twoFrames ? xoff - twoFrames : 0;
}

bool
FabricPfc::CanSend(uint8_t tclass, uint32_t bytes, uint32_t dst) const
{
    (void)bytes;
    (void)dst;
    return tclass >= m_paused.size() || !m_paused[tclass];
}

void
FabricPfc::NotifySent(const Ptr<FabricPacket>& p)
{
    (void)p;
}

void
FabricPfc::NotifyReceived(const Ptr<FabricPacket>& p)
{
    Resize();
    const uint8_t c = p->tclass;
    NS_ABORT_MSG_IF(c >= m_classes, "FabricPfc: priority " << unsigned(c) << " out of range");
    m_rxClass[c].occ += p->GetSize();
    if (m_rxClass[c].occ > m_rxClass[c].peak)
    {
        m_rxClass[c].peak = m_rxClass[c].occ;
    }
    if (FabricInvariantCheck::IsEnabled())
    {
        CheckHeld(c);
    }
    // A port whose owner consumes units as they arrive (an endpoint) never needs to pause.
    if (!m_rxClass[c].xoffSent && GetDevice()->GetHoldsReceivedUnits() &&
        m_rxClass[c].occ >= GetXoff())
    {
        m_rxClass[c].xoffSent = true;
        SendPause(c, m_quanta);
        m_refresh[c] =
            Simulator::Schedule(QuantaToTime(m_quanta) / 2, &FabricPfc::Refresh, this, c);
    }
}

void
FabricPfc::NotifyReleased(const Ptr<FabricPacket>& p)
{
    const uint8_t c = p->tclass;
    if (FabricInvariantCheck::IsEnabled())
    {
        FabricInvariantCheck::Count();
        const int64_t after = (c < m_rxClass.size() ? static_cast<int64_t>(m_rxClass[c].occ) : 0) -
                              static_cast<int64_t>(p->GetSize());
        if (after < 0)
        {
            FabricInvariantCheck::Fail(FabricInvariantCheck::BUFFER,
                                       GetDevice(),
                                       "FabricNetDevice",
                                       "ingress counter " + std::to_string(after) + " B on class " +
                                           std::to_string(c) + " after releasing " +
                                           std::to_string(p->GetSize()) +
                                           " B (released twice, or never received)");
        }
    }
    NS_ABORT_MSG_IF(c >= m_rxClass.size() || m_rxClass[c].occ < p->GetSize(),
                    "FabricPfc: release of " << p->GetSize() << " B of priority " << unsigned(c)
                                             << " that the port does not hold");
    m_rxClass[c].occ -= p->GetSize();
    if (m_rxClass[c].xoffSent && m_rxClass[c].occ <= GetXon())
    {
        m_rxClass[c].xoffSent = false;
        m_refresh[c].Cancel();
        SendPause(c, 0);
    }
}

void
FabricPfc::CheckHeld(uint8_t c) const
{
    FabricInvariantCheck::Count();
    // A port that holds what it receives (a switch port) pauses at XOFF; the headroom above it
    // absorbs what is in flight, so XOFF + headroom is the most it may ever hold.
    if (!GetDevice()->GetHoldsReceivedUnits())
    {
        return;
    }
    const uint64_t cap = GetXoff() + GetHeadroom();
    if (m_rxClass[c].occ > cap)
    {
        FabricInvariantCheck::Fail(FabricInvariantCheck::BUFFER,
                                   GetDevice(),
                                   "FabricNetDevice",
                                   "ingress counter " + std::to_string(m_rxClass[c].occ) +
                                       " B on class " + std::to_string(c) +
                                       ", above XOFF + headroom = " + std::to_string(cap) +
                                       " B (PFC paused too late)");
    }
}

void
FabricPfc::Refresh(uint8_t tclass)
{
    if (!m_rxClass[tclass].xoffSent)
    {
        return;
    }
    SendPause(tclass, m_quanta);
    m_refresh[tclass] =
        Simulator::Schedule(QuantaToTime(m_quanta) / 2, &FabricPfc::Refresh, this, tclass);
}

void
FabricPfc::SendPause(uint8_t tclass, uint16_t quanta)
{
    NS_LOG_LOGIC("pause tx class " << unsigned(tclass) << " quanta " << quanta);
    Ptr<FabricPacket> f = MakeControlFrame(FabricPacket::PFC_PAUSE);
    f->ctrlClass = tclass;
    f->ctrlValue = quanta;
    m_pauseTxTrace(tclass, quanta);
    SendControl(f);
}

void
FabricPfc::ReceiveControl(const Ptr<FabricPacket>& p)
{
    NS_ABORT_MSG_IF(p->kind != FabricPacket::PFC_PAUSE,
                    "FabricPfc: received a control frame of another mechanism (kind "
                        << unsigned(p->kind) << ")");
    CountControlReceived();
    Resize();
    const uint8_t c = p->ctrlClass;
    const uint16_t quanta = static_cast<uint16_t>(p->ctrlValue);
    m_pauseRxTrace(c, quanta);
    if (c >= m_classes)
    {
        return; // a priority this port does not use: nothing to stop
    }
    if (m_responseTime.IsStrictlyPositive())
    {
        Simulator::Schedule(m_responseTime, &FabricPfc::ApplyPause, this, c, quanta);
    }
    else
    {
        ApplyPause(c, quanta);
    }
}

void
FabricPfc::ApplyPause(uint8_t tclass, uint16_t quanta)
{
    const Time now = FabricClock::Now();
    m_expiry[tclass].Cancel();
    if (quanta == 0)
    {
        EndPause(tclass);
        WakeDevice();
        return;
    }
    if (!m_paused[tclass])
    {
        m_paused[tclass] = true;
        m_pauseStart[tclass] = now;
    }
    m_pausedUntil[tclass] = now + QuantaToTime(quanta);
    m_expiry[tclass] =
        Simulator::Schedule(m_pausedUntil[tclass] - now, &FabricPfc::PauseExpired, this, tclass);
}

void
FabricPfc::PauseExpired(uint8_t tclass)
{
    EndPause(tclass);
    WakeDevice();
}

void
FabricPfc::EndPause(uint8_t tclass)
{
    if (m_paused[tclass])
    {
        m_paused[tclass] = false;
        m_pausedTime[tclass] += FabricClock::Now() - m_pauseStart[tclass];
    }
}

bool
FabricPfc::IsPaused(uint8_t tclass) const
{
    return tclass < m_paused.size() && m_paused[tclass];
}

Time
FabricPfc::GetPausedTime(uint8_t tclass) const
{
    if (tclass >= m_pausedTime.size())
    {
        return Time();
    }
    Time t = m_pausedTime[tclass];
    if (m_paused[tclass])
    {
        t += FabricClock::Now() - m_pauseStart[tclass];
    }
    return t;
}

Time
FabricPfc::GetTotalPausedTime() const
{
    Time t;
    for (uint32_t c = 0; c < m_pausedTime.size(); ++c)
    {
        t += GetPausedTime(c);
    }
    return t;
}

uint64_t
FabricPfc::GetPeakOccupancy(uint8_t tclass) const
{
    return tclass < m_rxClass.size() ? m_rxClass[tclass].peak : 0;
}

uint64_t
FabricPfc::GetOccupancy(uint8_t tclass) const
{
    return tclass < m_rxClass.size() ? m_rxClass[tclass].occ : 0;
}

} // namespace ns3
