/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-retry-engine.h"

#include "fabric-channel.h"
#include "fabric-clock.h"
#include "fabric-invariant-check.h"
#include "fabric-net-device.h"

#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricRetryEngine");
NS_OBJECT_ENSURE_REGISTERED(FabricRetryEngine);

TypeId
FabricRetryEngine::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FabricRetryEngine")
            .SetParent<Object>()
            .SetGroupName("Fabric")
            .AddConstructor<FabricRetryEngine>()
            .AddAttribute("Mode",
                          "AckNak: cumulative ACKs plus NAK replay requests (Ethernet LLR, UALink "
                          "DL replay). NakOnly: NAKs only, both directions pause new data while "
                          "replaying (RIFL paper section II.A).",
                          EnumValue(ACK_NAK),
                          MakeEnumAccessor(&FabricRetryEngine::m_mode),
                          MakeEnumChecker(ACK_NAK, "AckNak", NAK_ONLY, "NakOnly"))
            .AddAttribute("Window",
                          "Replay buffer capacity (units): new data waits while this many units "
                          "are unacknowledged (AckNak) or retained (NakOnly). At most half the "
                          "sequence space. 0: automatic (GetWindow): NakOnly: the units a "
                          "saturated link sends during the Retention time, plus one; AckNak: "
                          "512, or the units sent during one ReplayTimeout when more.",
                          UintegerValue(512),
                          MakeUintegerAccessor(&FabricRetryEngine::m_window),
                          MakeUintegerChecker<uint32_t>(0))
            .AddAttribute("SequenceBits",
                          "Width of the sequence number on the wire (bits).",
                          UintegerValue(16),
                          MakeUintegerAccessor(&FabricRetryEngine::m_seqBits),
                          MakeUintegerChecker<uint32_t>(2, 48))
            .AddAttribute("AckInterval",
                          "AckNak: the receiver sends a cumulative ACK after this many accepted "
                          "units (units).",
                          UintegerValue(16),
                          MakeUintegerAccessor(&FabricRetryEngine::m_ackInterval),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("AckDelay",
                          "AckNak: longest time an accepted unit waits for its ACK.",
                          TimeValue(NanoSeconds(100)),
                          MakeTimeAccessor(&FabricRetryEngine::m_ackDelay),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("ReplayTimeout",
                          "AckNak: the sender replays its whole buffer when no ACK has arrived "
                          "for this long. 0: four round trips plus AckDelay (the round trip "
                          "counts the peer's receive pipeline, GetRoundTripEstimate).",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&FabricRetryEngine::m_replayTimeout),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("NakRepeat",
                          "The receiver repeats its NAK when the replay has not arrived after "
                          "this long. 0: AckNak: two round trips; NakOnly: one round trip plus "
                          "one MTU unit of either end and one control frame (the latest a "
                          "replay answering the NAK arrives).",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&FabricRetryEngine::m_nakRepeat),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("NakPause",
                          "NakOnly: both ends stop new data for this many round trips on an "
                          "error (2.5 in the RIFL paper, section II.A); the sender's "
                          "retransmission cycle lasts as long.",
                          DoubleValue(2.5),
                          MakeDoubleAccessor(&FabricRetryEngine::m_nakPauseRtts),
                          MakeDoubleChecker<double>(0, 1000))
            .AddAttribute("Retention",
                          "NakOnly: how long a sent unit stays in the replay buffer, counting "
                          "only time when new data is not paused. 0: the NakPause plus two "
                          "round trips.",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&FabricRetryEngine::m_retention),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("ControlFrameBytes",
                          "Frame bytes of an ACK or NAK, before the link's per-frame overhead.",
                          UintegerValue(64),
                          MakeUintegerAccessor(&FabricRetryEngine::m_ctrlBytes),
                          MakeUintegerChecker<uint32_t>(0, 65535))
            .AddAttribute("NakCopies",
                          "Times each replay request (NAK) is sent (UALink: 3, section 6.6.1).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&FabricRetryEngine::m_nakCopies),
                          MakeUintegerChecker<uint32_t>(1, 16))
            .AddAttribute("NakCopyInterval",
                          "Time between the copies of a replay request (UALink: one FEC "
                          "codeword group).",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&FabricRetryEngine::m_nakCopyInterval),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("NakIgnoreWindow",
                          "After starting a replay, the sender ignores requests for the same unit "
                          "for this long (UALink: 12 flit times, section 6.6.1). 0: one round "
                          "trip.",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&FabricRetryEngine::m_nakIgnore),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute(
                "TimeoutAction",
                "AckNak: what ReplayTimeout without ACK progress does: Replay the buffer, "
                "or LinkDown (UALink's Tx ack timeout, section 6.6.5.8).",
                EnumValue(REPLAY),
                MakeEnumAccessor(&FabricRetryEngine::m_timeoutAction),
                MakeEnumChecker(REPLAY, "Replay", LINK_DOWN, "LinkDown"))
            .AddTraceSource("Replay",
                            "A replay starts: first sequence number and units buffered from it.",
                            MakeTraceSourceAccessor(&FabricRetryEngine::m_replayTrace),
                            "ns3::FabricRetryEngine::ReplayTracedCallback")
            .AddTraceSource("NakPause",
                            "NakOnly: new data stops (or stays stopped) until a time: the start "
                            "of the added pause and its end.",
                            MakeTraceSourceAccessor(&FabricRetryEngine::m_nakPauseTrace),
                            "ns3::FabricRetryEngine::NakPauseTracedCallback")
            .AddTraceSource("Nak",
                            "A replay request is sent: the unit asked for and the copy index.",
                            MakeTraceSourceAccessor(&FabricRetryEngine::m_nakTrace),
                            "ns3::FabricRetryEngine::NakTracedCallback")
            .AddTraceSource("LinkDown",
                            "The ack timeout took the link down (TimeoutAction LinkDown).",
                            MakeTraceSourceAccessor(&FabricRetryEngine::m_linkDownTrace),
                            "ns3::TracedCallback::Void");
    return tid;
}

FabricRetryEngine::FabricRetryEngine()
{
    NS_LOG_FUNCTION(this);
}

FabricRetryEngine::~FabricRetryEngine()
{
    NS_LOG_FUNCTION(this);
}

void
FabricRetryEngine::DoDispose()
{
    m_replayTimer.Cancel();
    m_cycleEvent.Cancel();
    m_wakeEvent.Cancel();
    m_linkDownHandler = Callback<void>();
    m_ackEvent.Cancel();
    m_nakRepeatEvent.Cancel();
    for (EventId& e : m_nakCopyEvents)
    {
        e.Cancel();
    }
    m_nakCopyEvents.clear();
    m_buf.clear();
    m_device = nullptr;
    Object::DoDispose();
}

void
FabricRetryEngine::SetDevice(FabricNetDevice* device)
{
    m_device = device;
    m_autoWindow = 0;
    if (device)
    {
        NS_ABORT_MSG_IF(m_seqBits < 64 && m_window > (uint64_t(1) << (m_seqBits - 1)),
                        "FabricRetryEngine: Window "
                            << m_window << " exceeds half the sequence space of " << m_seqBits
                            << "-bit sequence numbers");
    }
}

Time
FabricRetryEngine::GetUnitTime() const
{
    if (!m_device || !m_device->GetFabricChannel())
    {
        return MicroSeconds(1);
    }
    return m_device->GetFabricChannel()->GetSerializationTime(m_device->GetMtu() +
                                                              m_device->GetInterframeBytes());
}

Time
FabricRetryEngine::GetUnitTimeBothEnds() const
{
    Time t = GetUnitTime();
    if (m_device && m_device->GetFabricChannel())
    {
        Ptr<FabricChannel> ch = m_device->GetFabricChannel();
        Ptr<FabricNetDevice> peer = ch->GetPeer(m_device);
        if (peer)
        {
            t = std::max(t, ch->GetSerializationTime(peer->GetMtu() + peer->GetInterframeBytes()));
        }
    }
    return t;
}

Time
FabricRetryEngine::GetControlFrameTime() const
{
    if (!m_device || !m_device->GetFabricChannel())
    {
        return Time(0);
    }
    return m_device->GetFabricChannel()->GetSerializationTime(m_ctrlBytes +
                                                              m_device->GetInterframeBytes());
}

uint32_t
FabricRetryEngine::GetWindow() const
{
    if (m_window > 0)
    {
        return m_window;
    }
    if (m_autoWindow > 0)
    {
        return m_autoWindow;
    }
    // The bandwidth-delay product, in units, of the time a unit must stay buffered: NakOnly
    // keeps it for Retention (outside error recovery), during which a saturated link sends
    // Retention / unit time more, counted in the smallest unit sent so far (the MTU before the
    // first, m_minUnitBytes is kept in NakOnly only) so that no mix of sizes fills the window
    // before the oldest unit may leave; AckNak frees it with an ACK within ReplayTimeout, in
    // MTU-sized units, and keeps at least 512 (every link that 512 served is unchanged).
    Time unit = GetUnitTime();
    if (m_minUnitBytes > 0 && m_device && m_device->GetFabricChannel())
    {
        unit = std::min(unit,
                        m_device->GetFabricChannel()->GetSerializationTime(
                            m_minUnitBytes + m_device->GetInterframeBytes()));
    }
    const Time span = m_mode == NAK_ONLY ? GetRetention() : GetReplayTimeout();
    uint64_t w =
        static_cast<uint64_t>(span.GetPicoSeconds() / std::max<int64_t>(1, unit.GetPicoSeconds())) +
        1;
    if (m_mode == ACK_NAK)
    {
        w = std::max<uint64_t>(w, 512);
    }
    const uint64_t half = m_seqBits < 64 ? (uint64_t(1) << (m_seqBits - 1)) : w;
    w = std::min(w, half);
    if (m_device && m_device->GetFabricChannel())
    {
        m_autoWindow = static_cast<uint32_t>(w); // until a smaller unit is sent
    }
    return static_cast<uint32_t>(w);
}

Time
FabricRetryEngine::GetRoundTripEstimate() const
{
    if (!m_device || !m_device->GetFabricChannel())
    {
        return MicroSeconds(1);
    }
    Ptr<FabricChannel> ch = m_device->GetFabricChannel();
    const uint32_t ifg = m_device->GetInterframeBytes();
    const Time unit = ch->GetSerializationTime(m_device->GetMtu() + ifg);
    // The peer's engine sees a unit when its device receives it: after the tail for an end
    // device, after the forwarding pipeline for a switch port (FabricNetDevice::
    // GetReceiveOffset: the pipeline latency when cut-through, the tail plus the pipeline when
    // store-and-forward). Its ACK or NAK leaves from there.
    Time act = unit;
    Ptr<FabricNetDevice> peer = ch->GetPeer(m_device);
    if (peer)
    {
        act = std::max(unit, peer->GetReceiveOffset(unit));
    }
    return 2 * ch->GetOneWayDelay() + ch->GetSerializationTime(m_ctrlBytes + ifg) + act;
}

Time
FabricRetryEngine::GetReplayTimeout() const
{
    return m_replayTimeout.IsStrictlyPositive() ? m_replayTimeout
                                                : 4 * GetRoundTripEstimate() + m_ackDelay;
}

Time
FabricRetryEngine::GetNakIgnoreWindow() const
{
    return m_nakIgnore.IsStrictlyPositive() ? m_nakIgnore : GetRoundTripEstimate();
}

Time
FabricRetryEngine::GetNakRepeat() const
{
    if (m_nakRepeat.IsStrictlyPositive())
    {
        return m_nakRepeat;
    }
    if (m_mode == NAK_ONLY)
    {
        // The replay of a NAK that got through arrives within a round trip, plus the MTU unit
        // the sender may be finishing and a control frame ahead of it: repeat only after that.
        return GetRoundTripEstimate() + GetUnitTimeBothEnds() + GetControlFrameTime();
    }
    return 2 * GetRoundTripEstimate();
}

Time
FabricRetryEngine::GetRetention() const
{
    return m_retention.IsStrictlyPositive() ? m_retention
                                            : GetRoundTripEstimate() * (m_nakPauseRtts + 2.0);
}

void
FabricRetryEngine::Wake()
{
    if (m_device)
    {
        m_device->Wake();
    }
}

void
FabricRetryEngine::NotifyLinkUp()
{
    NS_LOG_FUNCTION(this << m_buf.size() << m_nakOutstanding);
    if (!m_buf.empty())
    {
        StartReplay();
        if (m_mode == ACK_NAK)
        {
            m_replayTimer.Cancel();
            m_replayTimer =
                Simulator::Schedule(GetReplayTimeout(), &FabricRetryEngine::ReplayTimeout, this);
        }
    }
    if (m_nakOutstanding)
    {
        SendNak();
    }
    Wake();
}

uint64_t
FabricRetryEngine::Reset()
{
    NS_LOG_FUNCTION(this << m_buf.size());
    const uint64_t discarded = m_buf.size();
    m_buf.clear();
    m_nextSeq = 0;
    m_replayPos = NONE;
    m_replayTimer.Cancel();
    m_wakeEvent.Cancel();
    m_cycleEvent.Cancel();
    m_cycleEnd = Time(0);
    m_cyclePending = false;
    m_lostAsked = false;
    if (m_pausedUntil > FabricClock::Now())
    {
        m_stats.nakPauseTime -= m_pausedUntil - FabricClock::Now(); // the pause ends now
    }
    if (m_heldUntil > FabricClock::Now())
    {
        m_heldTotal -= m_heldUntil - FabricClock::Now(); // so does the clock hold
        m_heldUntil = FabricClock::Now();
    }
    m_pausedUntil = Time(0);
    m_replayStarted = false;
    m_windowStalled = false;
    m_expected = 0;
    m_checkNext = 0;
    m_nakOutstanding = false;
    m_ackPending = 0;
    m_ackEvent.Cancel();
    m_nakRepeatEvent.Cancel();
    for (EventId& e : m_nakCopyEvents)
    {
        e.Cancel();
    }
    m_nakCopyEvents.clear();
    return discarded;
}

// ---- sender ---------------------------------------------------------------------------------

bool
FabricRetryEngine::HasReplay() const
{
    return m_replayPos != NONE && m_replayPos < m_buf.size();
}

Ptr<FabricPacket>
FabricRetryEngine::NextReplay()
{
    if (!HasReplay())
    {
        m_replayPos = NONE;
        return nullptr;
    }
    Entry& e = m_buf[m_replayPos++];
    if (m_replayPos == m_buf.size())
    {
        m_replayPos = NONE;
    }
    // A copy: the original may sit in the next hop's queues, whose links it uses.
    Ptr<FabricPacket> p = Create<FabricPacket>(*e.p);
    p->next = nullptr;
    p->unackedNext = nullptr;
    p->tailArrival = Time();
    p->linkSeq = e.seq;
    p->poolCredits = e.poolCredits;
    e.sent = FabricClock::Now();
    if (m_mode == NAK_ONLY)
    {
        e.heldAtSent = HeldSoFar();
        if (e.seq == m_lastReplaySeq && m_device && m_device->GetFabricChannel())
        {
            // A NAK for this unit sent once it has reached the peer (which acts on it after its
            // receive offset) arrives a NAK loop after it leaves; one arriving earlier was
            // sent before the replay could answer it.
            Ptr<FabricChannel> ch = m_device->GetFabricChannel();
            const Time tx = ch->GetSerializationTime(p->GetSize() + m_device->GetInterframeBytes());
            Ptr<FabricNetDevice> peer = ch->GetPeer(m_device);
            const Time act = peer ? std::max(tx, peer->GetReceiveOffset(tx)) : tx;
            m_replayAnsweredUntil = e.sent + 2 * ch->GetOneWayDelay() + GetControlFrameTime() + act;
        }
    }
    ++m_stats.replayedUnits;
    return p;
}

void
FabricRetryEngine::HoldClock(Time until)
{
    // Every interval starts now, so the union grows at its end only: count what is new.
    const Time now = FabricClock::Now();
    const Time from = m_heldUntil > now ? m_heldUntil : now;
    if (until > from)
    {
        m_heldTotal += until - from;
        m_heldUntil = until;
    }
}

Time
FabricRetryEngine::HeldSoFar() const
{
    // m_heldTotal counts each held interval in full when it is added; the part still to come is
    // not spent yet.
    const Time now = FabricClock::Now();
    return m_heldTotal - (m_heldUntil > now ? m_heldUntil - now : Time(0));
}

Time
FabricRetryEngine::UnheldAge(const Entry& e) const
{
    return (FabricClock::Now() - e.sent) - (HeldSoFar() - e.heldAtSent);
}

Time
FabricRetryEngine::GetCorruptionHold() const
{
    // The peer repeats a NAK NakRepeat after sending it; the repeat may wait for a unit on the
    // peer's wire and takes one control frame. From the arrival of the (corrupted) NAK, its
    // repeat arrives within NakRepeat + one MTU unit + one control frame.
    return GetNakRepeat() + GetUnitTimeBothEnds() + GetControlFrameTime();
}

void
FabricRetryEngine::Expire()
{
    // RIFL's replay buffer is overwritten only by new frames, and both ends stop new frames
    // while an error is recovered (RIFL paper, section II.A): a unit's retention clock runs only
    // while no error is being recovered (HoldClock), so no recovery, however long, lets a unit
    // the peer may still ask for leave the buffer.
    const Time keep = GetRetention();
    std::size_t n = 0;
    while (n < m_buf.size() && UnheldAge(m_buf[n]) >= keep &&
           (m_replayPos == NONE || n < m_replayPos))
    {
        ++n;
    }
    if (n > 0)
    {
        m_stats.expired += n;
        m_buf.erase(m_buf.begin(), m_buf.begin() + n);
        if (m_replayPos != NONE)
        {
            m_replayPos -= n;
        }
    }
}

bool
FabricRetryEngine::CanSendNew()
{
    const Time now = FabricClock::Now();
    if (m_mode == NAK_ONLY)
    {
        Expire();
    }
    bool ok = true;
    Time reopen;
    if (now < m_pausedUntil)
    {
        ok = false;
        reopen = m_pausedUntil;
    }
    else if (m_buf.size() >= GetWindow())
    {
        ok = false;
        // AckNak: an ACK reopens the window. NakOnly: the oldest unit ages out (at the end of
        // a clock hold at the earliest).
        if (m_mode == NAK_ONLY)
        {
            const Time start = m_heldUntil > now ? m_heldUntil : now;
            reopen = start + (GetRetention() - UnheldAge(m_buf.front()));
        }
    }
    if (ok)
    {
        if (m_windowStalled)
        {
            m_windowStalled = false;
            m_stats.windowStallTime += now - m_windowStallSince;
        }
        return true;
    }
    if (!m_windowStalled)
    {
        m_windowStalled = true;
        m_windowStallSince = now;
    }
    if (reopen > now && !m_wakeEvent.IsRunning())
    {
        m_wakeEvent = Simulator::Schedule(reopen - now, &FabricRetryEngine::Wake, this);
    }
    return false;
}

void
FabricRetryEngine::NotifySentNew(const Ptr<FabricPacket>& p)
{
    if (m_window == 0 && m_mode == NAK_ONLY &&
        (m_minUnitBytes == 0 || p->GetSize() < m_minUnitBytes))
    {
        m_minUnitBytes = p->GetSize();
        m_autoWindow = 0; // computed again for the smaller unit
    }
    p->linkSeq = m_nextSeq++;
    m_buf.push_back(Entry{p->linkSeq,
                          p->poolCredits,
                          FabricClock::Now(),
                          p,
                          m_mode == NAK_ONLY ? HeldSoFar() : Time(0)});
    if (m_mode == ACK_NAK && !m_replayTimer.IsRunning())
    {
        m_replayTimer =
            Simulator::Schedule(GetReplayTimeout(), &FabricRetryEngine::ReplayTimeout, this);
    }
}

void
FabricRetryEngine::Acknowledge(uint64_t next)
{
    if (FabricInvariantCheck::IsEnabled())
    {
        // The peer's receiver accepts only units sent here: what it acknowledges (cumulative
        // ACK, or the first unit a NAK asks for) is at most the next sequence number to send.
        // The acknowledged point (the buffer's front) only moves forward by construction.
        FabricInvariantCheck::Count();
        if (next > m_nextSeq)
        {
            FabricInvariantCheck::Fail(FabricInvariantCheck::SEQUENCE,
                                       m_device,
                                       "FabricNetDevice",
                                       "link retry acknowledges up to sequence " +
                                           std::to_string(next) + ", but only " +
                                           std::to_string(m_nextSeq) + " units were sent");
        }
    }
    std::size_t n = 0;
    while (n < m_buf.size() && m_buf[n].seq < next)
    {
        ++n;
    }
    if (n == 0)
    {
        return;
    }
    m_buf.erase(m_buf.begin(), m_buf.begin() + n);
    if (m_replayPos != NONE)
    {
        m_replayPos = m_replayPos > n ? m_replayPos - n : 0;
        if (m_replayPos >= m_buf.size())
        {
            m_replayPos = NONE;
        }
    }
    if (m_mode == ACK_NAK)
    {
        // Progress: restart the replay timer for what is left.
        m_replayTimer.Cancel();
        if (!m_buf.empty())
        {
            m_replayTimer =
                Simulator::Schedule(GetReplayTimeout(), &FabricRetryEngine::ReplayTimeout, this);
        }
    }
}

void
FabricRetryEngine::StartReplay()
{
    if (m_buf.empty())
    {
        return;
    }
    ++m_stats.replays;
    m_replayPos = 0;
    m_replayStarted = true;
    m_lastReplaySeq = m_buf.front().seq;
    m_lastReplayTime = FabricClock::Now();
    m_replayAnsweredUntil = m_lastReplayTime + GetNakIgnoreWindow(); // until the unit leaves
    m_replayTrace(m_buf.front().seq, m_buf.size());
    NS_LOG_LOGIC("replay from " << m_buf.front().seq << " (" << m_buf.size() << " units)");
}

void
FabricRetryEngine::ReplayTimeout()
{
    if (m_buf.empty() || (m_device && !m_device->IsLinkUp()))
    {
        return; // nothing to replay, or a dead link: the timer stops
    }
    ++m_stats.timeouts;
    if (m_timeoutAction == LINK_DOWN)
    {
        // UALink section 6.6.5.8: Tx_ack_counter reached zero: the DL leaves Up for Idle and the
        // link is down; the buffer's units are lost with it (the TL drops the port, section 7).
        ++m_stats.linkDowns;
        NS_LOG_LOGIC("ack timeout: link down with " << m_buf.size() << " units unacknowledged");
        m_linkDownTrace();
        if (!m_linkDownHandler.IsNull())
        {
            m_linkDownHandler();
        }
        else if (m_device && m_device->GetFabricChannel())
        {
            m_device->GetFabricChannel()->SetLinkUp(false);
        }
        else if (m_device)
        {
            m_device->SetLinkUp(false);
        }
        return;
    }
    StartReplay();
    m_replayTimer =
        Simulator::Schedule(GetReplayTimeout(), &FabricRetryEngine::ReplayTimeout, this);
    Wake();
}

void
FabricRetryEngine::PauseNewData(Time until)
{
    if (until > m_pausedUntil)
    {
        const Time now = FabricClock::Now();
        const Time from = m_pausedUntil > now ? m_pausedUntil : now;
        if (m_pausedUntil <= now)
        {
            ++m_stats.nakPauses;
        }
        m_stats.nakPauseTime += until - from;
        m_pausedUntil = until;
        HoldClock(until);
        m_nakPauseTrace(from, until);
    }
}

void
FabricRetryEngine::ReceiveControl(const Ptr<FabricPacket>& p)
{
    NS_LOG_FUNCTION(this << unsigned(p->kind) << p->ctrlValue);
    if (p->kind == FabricPacket::LLR_ACK)
    {
        ++m_stats.acksReceived;
        Acknowledge(p->ctrlValue);
        Wake();
        return;
    }
    if (p->kind == FabricPacket::LLR_SYNC)
    {
        // The peer sent nothing from ctrlValue on: if that is the unit a NAK of ours asks for,
        // the error that caused the NAK hit a control frame, and no data is missing.
        ++m_stats.syncsReceived;
        if (m_nakOutstanding && p->ctrlValue == m_expected)
        {
            m_nakOutstanding = false;
            m_nakRepeatEvent.Cancel();
        }
        return;
    }
    NS_ASSERT(p->kind == FabricPacket::LLR_NAK);
    ++m_stats.naksReceived;
    const uint64_t k = p->ctrlValue;
    Acknowledge(k); // everything before the first missing unit arrived
    AnswerNak(k);
}

void
FabricRetryEngine::AnswerNak(uint64_t k)
{
    if (k >= m_nextSeq)
    {
        // Nothing was sent from k on. The peer saw a corrupted frame that was not data (an ACK,
        // a NAK, a pause or credit frame) and cannot tell; say so, or it repeats its NAK forever.
        Ptr<FabricPacket> f = Create<FabricPacket>();
        f->kind = FabricPacket::LLR_SYNC;
        f->headerBytes = m_ctrlBytes;
        f->ctrlValue = m_nextSeq;
        ++m_stats.syncsSent;
        if (m_device)
        {
            m_device->SendControl(f);
        }
        return;
    }
    if (m_buf.empty() || m_buf.front().seq > k)
    {
        if (m_mode == NAK_ONLY)
        {
            NakForLostUnit(k);
            return;
        }
        ++m_stats.naksIgnored; // a late copy of a request whose units were acknowledged since
        return;
    }
    NS_ABORT_MSG_IF(m_buf.front().seq != k,
                    "FabricRetryEngine: the peer asks for unit "
                        << k << " which is no longer in the replay buffer (oldest "
                        << (m_buf.empty() ? m_nextSeq : m_buf.front().seq)
                        << "): Retention or Window is too small for the link's round trip");
    if (m_mode == NAK_ONLY)
    {
        NakOnlyRequest(k);
        return;
    }
    if (m_replayStarted && m_lastReplaySeq == k &&
        FabricClock::Now() - m_lastReplayTime < GetNakIgnoreWindow())
    {
        ++m_stats.naksIgnored;
        return; // a repeat of the request this replay already answers
    }
    StartReplay();
    Wake();
}

void
FabricRetryEngine::NakOnlyRequest(uint64_t k)
{
    // A request for the unit the last replay started from, less than a round trip after it
    // started, was sent before that replay could arrive: the replay answers it.
    const Time now = FabricClock::Now();
    const bool answered = m_replayStarted && m_lastReplaySeq == k && now < m_replayAnsweredUntil;
    if (now < m_cycleEnd)
    {
        // RIFL paper, Figure 1: the sender completes its 2.5 round-trip retransmission cycle (t3
        // to t5) and, if requests still arrive, starts another.
        if (answered)
        {
            ++m_stats.naksIgnored;
        }
        else
        {
            m_cyclePending = true;
        }
        return;
    }
    if (answered)
    {
        ++m_stats.naksIgnored;
        return;
    }
    StartCycle();
}

void
FabricRetryEngine::StartCycle()
{
    m_cyclePending = false;
    if (m_buf.empty() || (m_device && !m_device->IsLinkUp()))
    {
        return;
    }
    ++m_stats.cycles;
    StartReplay();
    m_cycleEnd = FabricClock::Now() + GetRoundTripEstimate() * m_nakPauseRtts;
    PauseNewData(m_cycleEnd);
    m_cycleEvent.Cancel();
    m_cycleEvent =
        Simulator::Schedule(m_cycleEnd - FabricClock::Now(), &FabricRetryEngine::CycleEnd, this);
    Wake();
}

void
FabricRetryEngine::CycleEnd()
{
    if (m_cyclePending)
    {
        StartCycle(); // replays from the unit the last NAK asked for (the buffer's oldest)
    }
}

void
FabricRetryEngine::NakForLostUnit(uint64_t k)
{
    ++m_stats.naksIgnored;
    if (m_lostAsked && m_lostSeq == k)
    {
        // Asked twice: the peer does not have it and this end cannot replay it; the link would
        // repeat the request forever.
        NS_FATAL_ERROR("FabricRetryEngine (NakOnly"
                       << (m_device ? " on node " + std::to_string(m_device->GetNodeId()) : "")
                       << "): the peer asks again for unit " << k
                       << ", which left the replay buffer (oldest buffered: "
                       << (m_buf.empty() ? m_nextSeq : m_buf.front().seq) << "): Retention ("
                       << GetRetention().As(Time::NS) << ") or Window (" << GetWindow()
                       << " units) is too small for the link's round trip ("
                       << GetRoundTripEstimate().As(Time::NS) << ")");
    }
    m_lostAsked = true;
    m_lostSeq = k;
}

// ---- receiver -------------------------------------------------------------------------------

bool
FabricRetryEngine::AcceptData(const Ptr<FabricPacket>& p)
{
    const uint64_t seq = p->linkSeq;
    if (seq == m_expected)
    {
        if (FabricInvariantCheck::IsEnabled())
        {
            // Units go up in sequence: each one accepted is the one after the last, never a
            // repeat (a duplicate delivered upward) and never a jump.
            FabricInvariantCheck::Count();
            if (seq != m_checkNext)
            {
                FabricInvariantCheck::Fail(
                    FabricInvariantCheck::SEQUENCE,
                    m_device,
                    "FabricNetDevice",
                    "link retry delivers sequence " + std::to_string(seq) + " upward after " +
                        (m_checkNext == 0 ? std::string("none") : std::to_string(m_checkNext - 1)) +
                        (seq < m_checkNext ? " (a duplicate)" : " (a gap)"));
            }
            m_checkNext = seq + 1;
        }
        ++m_expected;
        if (m_nakOutstanding)
        {
            m_nakOutstanding = false;
            m_nakRepeatEvent.Cancel();
        }
        if (m_mode == ACK_NAK)
        {
            if (++m_ackPending >= m_ackInterval)
            {
                SendAck();
            }
            else if (!m_ackEvent.IsRunning())
            {
                m_ackEvent = Simulator::Schedule(m_ackDelay, &FabricRetryEngine::SendAck, this);
            }
        }
        return true;
    }
    if (seq < m_expected)
    {
        ++m_stats.duplicates;
        if (m_mode == ACK_NAK && !m_ackEvent.IsRunning())
        {
            // The sender replayed what it already delivered: tell it again.
            m_ackEvent = Simulator::Schedule(m_ackDelay, &FabricRetryEngine::SendAck, this);
        }
        return false;
    }
    ++m_stats.outOfSequence;
    RequestReplay();
    return false;
}

void
FabricRetryEngine::ForceExpectedSequence(uint64_t seq)
{
    NS_LOG_FUNCTION(this << seq);
    m_expected = seq;
}

void
FabricRetryEngine::NotifyCorrupted(const Ptr<FabricPacket>& p)
{
    (void)p; // its contents cannot be trusted, its sequence number included
    ++m_stats.corrupted;
    if (m_mode == NAK_ONLY)
    {
        // RIFL (paper, Figure 1, step 2): a corrupted frame stops new data and the receiver
        // asks for the replay in every frame until it arrives: each corrupted frame sends a
        // NAK (restarting the pause), so a replay that is corrupted again is asked for at once.
        // The frame may also have been the peer's NAK: until its repeat can have arrived, no
        // unit of ours ages in the replay buffer.
        HoldClock(FabricClock::Now() + GetCorruptionHold());
        SendNak();
        return;
    }
    RequestReplay();
}

void
FabricRetryEngine::RequestReplay()
{
    const Time now = FabricClock::Now();
    if (m_nakOutstanding && now - m_nakTime < GetNakRepeat())
    {
        return; // the replay asked for is on its way
    }
    SendNak();
}

void
FabricRetryEngine::SendNak()
{
    const Time now = FabricClock::Now();
    m_nakOutstanding = true;
    m_nakTime = now;
    Ptr<FabricPacket> f = Create<FabricPacket>();
    f->kind = FabricPacket::LLR_NAK;
    f->headerBytes = m_ctrlBytes;
    f->ctrlValue = m_expected;
    ++m_stats.naksSent;
    if (m_mode == NAK_ONLY)
    {
        // RIFL: the receiver stops its own new data too while the link recovers.
        PauseNewData(now + GetRoundTripEstimate() * m_nakPauseRtts);
    }
    m_nakRepeatEvent.Cancel();
    m_nakRepeatEvent = Simulator::Schedule(GetNakRepeat(), &FabricRetryEngine::NakRepeat, this);
    m_nakTrace(m_expected, 0);
    if (m_device)
    {
        m_device->SendControl(f);
    }
    // Further copies of the same request (UALink: 3 in all, one per codeword group).
    for (EventId& e : m_nakCopyEvents)
    {
        e.Cancel();
    }
    m_nakCopyEvents.clear();
    for (uint32_t c = 1; c < m_nakCopies; ++c)
    {
        m_nakCopyEvents.push_back(Simulator::Schedule(m_nakCopyInterval * static_cast<int64_t>(c),
                                                      &FabricRetryEngine::SendNakCopy,
                                                      this,
                                                      m_expected,
                                                      c));
    }
}

void
FabricRetryEngine::SendNakCopy(uint64_t seq, uint32_t copy)
{
    if (m_device && !m_device->IsLinkUp())
    {
        return;
    }
    Ptr<FabricPacket> f = Create<FabricPacket>();
    f->kind = FabricPacket::LLR_NAK;
    f->headerBytes = m_ctrlBytes;
    f->ctrlValue = seq;
    ++m_stats.naksSent;
    m_nakTrace(seq, copy);
    if (m_device)
    {
        m_device->SendControl(f);
    }
}

void
FabricRetryEngine::NakRepeat()
{
    if (m_nakOutstanding && (!m_device || m_device->IsLinkUp()))
    {
        SendNak();
    }
}

void
FabricRetryEngine::SendAck()
{
    m_ackEvent.Cancel();
    m_ackPending = 0;
    Ptr<FabricPacket> f = Create<FabricPacket>();
    f->kind = FabricPacket::LLR_ACK;
    f->headerBytes = m_ctrlBytes;
    f->ctrlValue = m_expected;
    ++m_stats.acksSent;
    if (m_device)
    {
        m_device->SendControl(f);
    }
}

} // namespace ns3
