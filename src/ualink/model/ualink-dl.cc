/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ualink-dl.h"

#include "ualink-phy.h"
#include "ualink-tx-queue.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/fabric-channel.h"
#include "ns3/fabric-clock.h"
#include "ns3/fabric-net-device.h"
#include "ns3/fabric-retry-engine.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("UalinkDl");
NS_OBJECT_ENSURE_REGISTERED(UalinkDl);

TypeId
UalinkDl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::UalinkDl")
            .SetParent<Object>()
            .SetGroupName("Ualink")
            .AddConstructor<UalinkDl>()
            .AddAttribute("ReplayBufferFlits",
                          "Tx replay buffer in DL flits: at most 255 unacknowledged (section "
                          "6.6); it should cover the link round trip (section 6.6.7).",
                          UintegerValue(MAX_UNACKED_FLITS),
                          MakeUintegerAccessor(&UalinkDl::m_bufferFlits),
                          MakeUintegerChecker<uint32_t>(1, MAX_UNACKED_FLITS))
            .AddAttribute("AckTimeoutFlits",
                          "Tx_ack_time_out: flit times without ack progress before the link goes "
                          "down (section 6.6.5.8: 40,000).",
                          UintegerValue(40000),
                          MakeUintegerAccessor(&UalinkDl::m_ackTimeoutFlits),
                          MakeUintegerChecker<uint32_t>(1, (1u << 24) - 1))
            .AddAttribute("ReplayRequestCopies",
                          "Times a replay request is sent, one per codeword group (6.6.1: 3).",
                          UintegerValue(3),
                          MakeUintegerAccessor(&UalinkDl::m_replayCopies),
                          MakeUintegerChecker<uint32_t>(1, 3))
            .AddAttribute("ReplayIgnoreFlits",
                          "Rx_replay_ignore_count: flits during which further replay requests "
                          "are ignored after the first (section 6.6.1: 12).",
                          UintegerValue(12),
                          MakeUintegerAccessor(&UalinkDl::m_ignoreFlits),
                          MakeUintegerChecker<uint32_t>(1, 15))
            .AddAttribute("ReplayLimitFlits",
                          "Rx_replay_limit: unexpected flits after which the receiver asks for "
                          "the replay again (section 6.6.4.6: 50; should be 2 x RTT).",
                          UintegerValue(50),
                          MakeUintegerAccessor(&UalinkDl::m_replayLimit),
                          MakeUintegerChecker<uint32_t>(1, 255))
            .AddAttribute("StartUp",
                          "Whether the port starts in Up (trained before time 0); otherwise it "
                          "starts in Fault, the reset state (6.7.1.1), and brings the link up.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&UalinkDl::m_startUp),
                          MakeBooleanChecker())
            .AddAttribute("AutoEnable",
                          "Whether the higher layer enables the link (Idle to NOP, 6.7.1.2) as "
                          "soon as the DL reaches Idle from Fault; never after a link-down error "
                          "(recovery is management software's, 3.1.4.3: call Enable).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&UalinkDl::m_autoEnable),
                          MakeBooleanChecker())
            .AddAttribute("NopFlitsToUp",
                          "NOP flits sent before NOP may go Up (section 6.7.1.3: ten).",
                          UintegerValue(10),
                          MakeUintegerAccessor(&UalinkDl::m_nopFlitsToUp),
                          MakeUintegerChecker<uint32_t>(1, 1000))
            .AddAttribute("RxFlitsToUp",
                          "Consecutive DL flits received before NOP may go Up (6.7.1.3: two).",
                          UintegerValue(2),
                          MakeUintegerAccessor(&UalinkDl::m_rxFlitsToUp),
                          MakeUintegerChecker<uint32_t>(1, 1000))
            .AddAttribute("ControlFlitsToIdle",
                          "Consecutive control flits received that take Up to Idle (6.7.1.4: "
                          "four); also the remote-fault ordered sets that signal a fault (an "
                          "assumption: the spec defers to the RS's link fault signalling).",
                          UintegerValue(4),
                          MakeUintegerAccessor(&UalinkDl::m_controlFlitsToIdle),
                          MakeUintegerChecker<uint32_t>(1, 1000))
            .AddAttribute("TlRate",
                          "This side's TL rate (UPLI clock) in 50 kHz units (section 6.4.2.2: "
                          "31250 = 1562.5 MHz, the full rate; 3125 = 156.25 MHz, the minimum).",
                          UintegerValue(FULL_TL_RATE),
                          MakeUintegerAccessor(&UalinkDl::m_tlRate),
                          MakeUintegerChecker<uint32_t>(MIN_TL_RATE, FULL_TL_RATE))
            .AddTraceSource("LinkState",
                            "The DL link state changed (section 6.7.1): old state, new state.",
                            MakeTraceSourceAccessor(&UalinkDl::m_stateTrace),
                            "ns3::UalinkDl::LinkStateTracedCallback");
    return tid;
}

UalinkDl::UalinkDl()
{
    NS_LOG_FUNCTION(this);
}

UalinkDl::~UalinkDl()
{
    NS_LOG_FUNCTION(this);
}

void
UalinkDl::Configure(Ptr<FabricRetryEngine> engine,
                    Ptr<const UalinkPhy> phy,
                    uint32_t dlFlitsPerUnit) const
{
    NS_LOG_FUNCTION(this << engine << phy << dlFlitsPerUnit);
    NS_ABORT_MSG_IF(dlFlitsPerUnit == 0, "UalinkDl: a retry unit holds at least one DL flit");
    const Time flit = phy->GetSlotTime();
    const uint32_t window = std::max<uint32_t>(1, m_bufferFlits / dlFlitsPerUnit);
    engine->SetAttribute("Mode", EnumValue(FabricRetryEngine::ACK_NAK));
    engine->SetAttribute("Window", UintegerValue(window));
    engine->SetAttribute("SequenceBits", UintegerValue(SEQUENCE_BITS));
    // Acks ride in every command flit header: one per received unit, in no wire time.
    engine->SetAttribute("AckInterval", UintegerValue(1));
    engine->SetAttribute("AckDelay", TimeValue(Time(0)));
    engine->SetAttribute("ControlFrameBytes", UintegerValue(0));
    // Replay requests: 3 copies, one per codeword group of the FEC interleave.
    engine->SetAttribute("NakCopies", UintegerValue(m_replayCopies));
    engine->SetAttribute("NakCopyInterval",
                         TimeValue(flit * static_cast<int64_t>(phy->GetFecInterleave())));
    engine->SetAttribute("NakIgnoreWindow", TimeValue(flit * static_cast<int64_t>(m_ignoreFlits)));
    engine->SetAttribute("NakRepeat", TimeValue(flit * static_cast<int64_t>(m_replayLimit)));
    // Tx ack timeout: the link goes down (no replay timer in UALink).
    engine->SetAttribute("ReplayTimeout",
                         TimeValue(flit * static_cast<int64_t>(m_ackTimeoutFlits)));
    engine->SetAttribute("TimeoutAction", EnumValue(FabricRetryEngine::LINK_DOWN));
}

void
UalinkDl::DoDispose()
{
    m_upEvent.Cancel();
    m_peerEvent.Cancel();
    m_dev = nullptr;
    m_phy = nullptr;
    Object::DoDispose();
}

std::string
UalinkDl::GetStateName(LinkState s)
{
    switch (s)
    {
    case FAULT:
        return "Fault";
    case IDLE:
        return "Idle";
    case NOP:
        return "NOP";
    case UP:
        return "Up";
    }
    return "?";
}

void
UalinkDl::Attach(Ptr<FabricNetDevice> dev, Ptr<const UalinkPhy> phy)
{
    NS_LOG_FUNCTION(this << dev << phy);
    NS_ABORT_MSG_IF(m_dev != nullptr, "UalinkDl: already attached to a port");
    m_dev = PeekPointer(dev);
    m_phy = phy;
    dev->AddLinkChangeCallback(MakeCallback(&UalinkDl::DeviceLinkChanged, this));
    if (Ptr<FabricRetryEngine> llr = dev->GetRetryEngine())
    {
        // Section 6.6.6.8: the ack timeout takes this side from Up to Idle (not both ends at once).
        llr->SetLinkDownHandler(MakeCallback(&UalinkDl::AckTimeout, this));
    }
    if (m_startUp)
    {
        m_state = UP;
        m_upSince = Time(0);
    }
    else
    {
        // The reset state (6.7.1.1); the RS reports no fault: the bring-up starts at time 0.
        m_state = FAULT;
        m_driving = true;
        dev->SetLinkUp(false);
        m_driving = false;
        Simulator::ScheduleNow(&UalinkDl::SetRsFault, this, false);
    }
    if (m_tlRate < FULL_TL_RATE)
    {
        // The pacing of the port's TL once its queue exists (the owner adds it after this).
        Simulator::ScheduleNow(&UalinkDl::ApplyPacing, this);
    }
}

UalinkDl*
UalinkDl::GetPeer() const
{
    if (!m_dev || !m_dev->GetFabricChannel())
    {
        return nullptr;
    }
    Ptr<FabricNetDevice> peer =
        m_dev->GetFabricChannel()->GetPeer(Ptr<const FabricNetDevice>(m_dev));
    return peer ? PeekPointer(peer->GetObject<UalinkDl>()) : nullptr;
}

UalinkTxQueue*
UalinkDl::GetQueue() const
{
    return m_dev ? dynamic_cast<UalinkTxQueue*>(PeekPointer(m_dev->GetTxQueue())) : nullptr;
}

Time
UalinkDl::FlitsSentBy(Time from, uint32_t k) const
{
    const int64_t slot = m_phy->GetSlotTime().GetTimeStep();
    const int64_t t = std::max<int64_t>(0, from.GetTimeStep());
    uint64_t s = static_cast<uint64_t>((t + slot - 1) / slot); // first slot boundary
    uint32_t n = 0;
    for (;; ++s)
    {
        if (m_phy->IsDlFlitSlot(s) && ++n == k)
        {
            return TimeStep(static_cast<int64_t>(s + 1) * slot);
        }
    }
}

Time
UalinkDl::ControlFlitsArrive(uint32_t n) const
{
    // Control codewords (Idle, remote fault) fill every slot from the next boundary on; the n-th
    // has arrived once it crossed the link and the FEC decoded it.
    const int64_t slot = m_phy->GetSlotTime().GetTimeStep();
    const int64_t t = FabricClock::Now().GetTimeStep();
    const int64_t first = (t + slot - 1) / slot;
    return TimeStep((first + n) * slot) + m_dev->GetFabricChannel()->GetOneWayDelay();
}

void
UalinkDl::SetState(LinkState to)
{
    const LinkState from = m_state;
    if (from == to)
    {
        return;
    }
    NS_LOG_LOGIC("DL " << GetStateName(from) << " -> " << GetStateName(to));
    m_state = to;
    if (to != NOP)
    {
        m_upEvent.Cancel();
        m_rxBy = Time::Max();
    }
    UalinkTxQueue* q = GetQueue();
    if (from == UP)
    {
        m_leftUp = true;
    }
    if (q)
    {
        if (to == UP && m_reinitUp)
        {
            q->LinkUp(); // a re-initialised link: the credit release starts now (5.8)
        }
        q->SetHeld(to != UP); // the TL sends only in Up
    }
    if (to == UP)
    {
        m_reinitUp = false;
        ++m_stats.ups;
        m_upSince = FabricClock::Now();
        m_errorDown = false;
    }
    if (to == FAULT)
    {
        ++m_stats.faults;
    }
    UalinkDl* peer = GetPeer();
    if ((from == UP || from == NOP) && (to == IDLE || to == FAULT) && peer)
    {
        // The partner now receives control flits (Idle or remote fault) instead of DL flits.
        peer->m_rxBy = Time::Max();
        peer->m_upEvent.Cancel();
        if (to == IDLE)
        {
            peer->m_peerEvent.Cancel();
            peer->m_peerEvent =
                Simulator::Schedule(ControlFlitsArrive(m_controlFlitsToIdle) - FabricClock::Now(),
                                    &UalinkDl::PeerControlFlits,
                                    peer);
        }
    }
    if (m_dev && (from == UP || to == UP))
    {
        m_driving = true;
        m_dev->SetLinkUp(to == UP);
        m_driving = false;
    }
    m_stateTrace(from, to);
}

void
UalinkDl::SetRsFault(bool fault)
{
    NS_LOG_FUNCTION(this << fault);
    UalinkDl* peer = GetPeer();
    if (fault)
    {
        const bool was = m_localFault;
        m_localFault = true;
        SetState(FAULT);
        if (!was && peer && m_dev->GetFabricChannel())
        {
            // Remote fault ordered sets reach the partner (section 7.2.6, Table 7-3).
            Simulator::Schedule(ControlFlitsArrive(m_controlFlitsToIdle) - FabricClock::Now(),
                                &UalinkDl::RemoteFault,
                                peer,
                                true);
        }
        return;
    }
    const bool was = m_localFault;
    m_localFault = false;
    if (was && peer)
    {
        Simulator::Schedule(ControlFlitsArrive(m_controlFlitsToIdle) - FabricClock::Now(),
                            &UalinkDl::RemoteFault,
                            peer,
                            false);
    }
    if (m_state == FAULT && !m_remoteFault)
    {
        SetState(IDLE); // 6.7.1.1: the RS indicates no fault
        if (m_autoEnable && !m_errorDown)
        {
            Enable();
        }
    }
}

void
UalinkDl::RemoteFault(bool fault)
{
    NS_LOG_FUNCTION(this << fault);
    m_remoteFault = fault;
    if (fault)
    {
        SetState(FAULT);
        return;
    }
    if (m_state == FAULT && !m_localFault)
    {
        SetState(IDLE);
        if (m_autoEnable && !m_errorDown)
        {
            Enable();
        }
    }
}

void
UalinkDl::Enable()
{
    NS_LOG_FUNCTION(this);
    if (m_state == IDLE)
    {
        EnterNop();
    }
}

void
UalinkDl::Reinitialise()
{
    NS_LOG_FUNCTION(this);
    m_leftUp = false;
    m_reinitUp = true;
    ++m_stats.reinits;
    if (Ptr<FabricRetryEngine> llr = m_dev->GetRetryEngine())
    {
        m_stats.replayDiscarded += llr->Reset();
    }
    if (UalinkTxQueue* q = GetQueue())
    {
        q->ReinitLink();
    }
}

void
UalinkDl::EnterNop()
{
    if (m_leftUp && m_dev)
    {
        // Both ends pass through NOP before either sends payload again (NOP to Up needs the
        // partner's flits, which it sends only from NOP): both reset before new sequence numbers.
        Reinitialise();
    }
    SetState(NOP);
    const Time now = FabricClock::Now();
    m_nopSince = now;
    m_nopSentBy = FlitsSentBy(now, m_nopFlitsToUp);
    UalinkDl* peer = GetPeer();
    if (!peer || !m_dev->GetFabricChannel())
    {
        return;
    }
    const Time delay = m_dev->GetFabricChannel()->GetOneWayDelay();
    // Our NOP flits reach the partner; its flits reach us if it sends DL flits already.
    peer->PeerNop(FlitsSentBy(now, m_rxFlitsToUp) + delay);
    if (peer->m_state == NOP)
    {
        PeerNop(peer->FlitsSentBy(peer->m_nopSince, m_rxFlitsToUp) + delay);
    }
    else if (peer->m_state == UP)
    {
        PeerNop(FlitsSentBy(now, m_rxFlitsToUp) + delay);
    }
}

void
UalinkDl::PeerNop(Time at)
{
    if (m_state != NOP)
    {
        return; // flits received outside NOP do not count (6.7.1.3)
    }
    m_rxBy = std::max(at, FabricClock::Now());
    TryUp();
}

void
UalinkDl::TryUp()
{
    if (m_state != NOP || m_rxBy == Time::Max())
    {
        return;
    }
    const Time at = std::max(m_nopSentBy, m_rxBy);
    if (FabricClock::Now() >= at)
    {
        SetState(UP); // 6.7.1.3: ten NOP flits sent, two consecutive flits received
        ApplyPacing();
        return;
    }
    m_upEvent.Cancel();
    m_upEvent = Simulator::Schedule(at - FabricClock::Now(), &UalinkDl::TryUp, this);
}

void
UalinkDl::PeerControlFlits()
{
    if (m_state == UP)
    {
        // 6.7.1.4: four consecutive control flits: the partner is link down.
        ++m_stats.peerIdles;
        m_errorDown = true;
        SetState(IDLE);
    }
}

void
UalinkDl::AckTimeout()
{
    NS_LOG_FUNCTION(this);
    if (m_state == UP)
    {
        ++m_stats.ackTimeouts;
        m_errorDown = true;
        SetState(IDLE); // 6.6.6.8
    }
}

void
UalinkDl::ContainError()
{
    NS_LOG_FUNCTION(this);
    if (m_state == UP)
    {
        ++m_stats.containments;
        m_errorDown = true;
        SetState(IDLE); // 6.7.4
    }
}

void
UalinkDl::DeviceLinkChanged()
{
    if (m_driving || !m_dev)
    {
        return;
    }
    if (!m_dev->IsLinkUp())
    {
        // The link was cut under the DL (FabricChannel::SetLinkUp(false) takes both ends): a
        // local fault at this port (loss of signal).
        m_localFault = true;
        SetState(FAULT);
        return;
    }
    // The channel was restored: the device stays down until the DL is Up again (the fault
    // clears and the bring-up runs).
    m_driving = true;
    m_dev->SetLinkUp(m_state == UP);
    m_driving = false;
    if (m_localFault)
    {
        m_localFault = false;
        if (m_state == FAULT && !m_remoteFault)
        {
            SetState(IDLE);
            if (m_autoEnable && !m_errorDown)
            {
                Enable();
            }
        }
    }
}

void
UalinkDl::SetTlRate(uint32_t code)
{
    NS_LOG_FUNCTION(this << code);
    NS_ABORT_MSG_IF(code < MIN_TL_RATE || code > FULL_TL_RATE,
                    "UalinkDl: TL rate " << code << " outside 3125 to 31250 (section 6.4.2.2)");
    m_tlRate = code;
    ApplyPacing(); // 6.5.4 step 4a: this side paces itself first
    UalinkDl* peer = GetPeer();
    if (peer && m_dev->GetFabricChannel())
    {
        // The notification rides in an alternative sector of the next DL flit (6.4.2.2).
        const Time at =
            FlitsSentBy(FabricClock::Now(), 1) + m_dev->GetFabricChannel()->GetOneWayDelay();
        Simulator::Schedule(at - FabricClock::Now(), &UalinkDl::ReceiveTlRate, peer, code);
    }
}

void
UalinkDl::ReceiveTlRate(uint32_t code)
{
    NS_LOG_FUNCTION(this << code);
    ++m_stats.rateNotifications;
    m_peerTlRate = code; // 6.5.4 step 5: register it and adjust the pacing
    ApplyPacing();
}

double
UalinkDl::GetTxPacingBytesPerSecond() const
{
    const uint32_t rate = std::min(m_tlRate, m_peerTlRate);
    if (rate >= FULL_TL_RATE || !m_phy)
    {
        return 0;
    }
    // 6.4.2.2: the DL is 512 bits wide at x4, 256 at x2, 128 at x1: 16 B per lane per clock.
    return rate * TL_RATE_UNIT_HZ * 16.0 * m_phy->GetLanes();
}

void
UalinkDl::ApplyPacing()
{
    UalinkTxQueue* q = GetQueue();
    if (!q)
    {
        return;
    }
    q->SetHeld(m_state != UP);
    const double bps = GetTxPacingBytesPerSecond();
    if (bps == q->GetTlRateLimit())
    {
        return;
    }
    q->SetTlRateLimit(bps,
                      bps > 0 ? MakeCallback(&FabricNetDevice::Wake, m_dev) : Callback<void>());
    if (m_state == UP)
    {
        m_dev->Wake();
    }
}

} // namespace ns3
