/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-go-back-n.h"

#include "fabric-clock.h"
#include "fabric-invariant-check.h"
#include "fabric-net-device.h"

#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/integer.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricGoBackN");
NS_OBJECT_ENSURE_REGISTERED(FabricGoBackN);

TypeId
FabricGoBackN::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FabricGoBackN")
            .SetParent<FabricTxQueue>()
            .SetGroupName("Fabric")
            .AddConstructor<FabricGoBackN>()
            .AddAttribute("Window",
                          "Most unacknowledged units per connection (units). New data to a peer "
                          "waits while this many are outstanding.",
                          UintegerValue(128),
                          MakeUintegerAccessor(&FabricGoBackN::m_window),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("AckInterval",
                          "The receiver sends a standalone cumulative ACK after this many "
                          "accepted units when no data unit to the peer carried one (units).",
                          UintegerValue(8),
                          MakeUintegerAccessor(&FabricGoBackN::m_ackInterval),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("AckDelay",
                          "Longest time an accepted unit waits for its ACK.",
                          TimeValue(NanoSeconds(100)),
                          MakeTimeAccessor(&FabricGoBackN::m_ackDelay),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("RetransmitTimeout",
                          "A connection with unacknowledged units and no progress for this long "
                          "goes back to its oldest unit. Well above the pod's loaded round trip, "
                          "so that queueing alone does not trigger it.",
                          TimeValue(MicroSeconds(20)),
                          MakeTimeAccessor(&FabricGoBackN::m_rto),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("MaxBackoff",
                          "The timeout doubles at each consecutive expiry, at most this many "
                          "times.",
                          UintegerValue(6),
                          MakeUintegerAccessor(&FabricGoBackN::m_maxBackoff),
                          MakeUintegerChecker<uint32_t>(0, 30))
            .AddAttribute("MaxRetries",
                          "Consecutive timer expiries after which a connection is declared "
                          "failed and its unacknowledged units are released.",
                          UintegerValue(16),
                          MakeUintegerAccessor(&FabricGoBackN::m_maxRetries),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("AckFrameBytes",
                          "Frame bytes of a standalone ACK or NACK (a minimum Ethernet frame by "
                          "default), before the link's per-frame overhead.",
                          UintegerValue(64),
                          MakeUintegerAccessor(&FabricGoBackN::m_ackBytes),
                          MakeUintegerChecker<uint32_t>(1, 65535))
            .AddAttribute("PerClassConnections",
                          "Keep a connection (PSN space, window, ACKs) per peer and traffic "
                          "class instead of per peer: classes that switches schedule apart (PFC "
                          "pauses one, not the other) then cannot reorder one connection's PSNs.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&FabricGoBackN::m_perClass),
                          MakeBooleanChecker())
            .AddAttribute("AckClass",
                          "Traffic class of standalone ACK/NACK frames; -1 sends them on the "
                          "class of the data they acknowledge. SUE keeps acknowledgements on a "
                          "lossless class of their own so that requests cannot block them (seed "
                          "000 section 3.4.6).",
                          IntegerValue(-1),
                          MakeIntegerAccessor(&FabricGoBackN::m_ackClass),
                          MakeIntegerChecker<int32_t>(-1, 31))
            .AddAttribute("CongestionControl",
                          "Endpoint congestion control: None (fixed Window), or Delay: a "
                          "delay-based window in the manner of Swift (Kumar et al., SIGCOMM "
                          "2020), starting at Window (line rate, SUE RM102 section 2.1): below "
                          "TargetDelay the window grows by AdditiveIncrease units per round "
                          "trip; above it, it shrinks by Beta x (rtt - target) / rtt, at most "
                          "MaxDecrease, once per round trip.",
                          EnumValue(NONE),
                          MakeEnumAccessor(&FabricGoBackN::m_cc),
                          MakeEnumChecker(NONE, "None", DELAY, "Delay"))
            .AddAttribute("TargetDelay",
                          "Delay: the target round trip (ACK time of a unit minus its send "
                          "time). SUE asks for under 2 us round trip (SUE RM102 section 2.1).",
                          TimeValue(MicroSeconds(2)),
                          MakeTimeAccessor(&FabricGoBackN::m_targetDelay),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("AdditiveIncrease",
                          "Delay: window growth per round trip below the target (units).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&FabricGoBackN::m_ai),
                          MakeDoubleChecker<double>(0.0, 1024.0))
            .AddAttribute("Beta",
                          "Delay: decrease gain applied to (rtt - target) / rtt.",
                          DoubleValue(0.8),
                          MakeDoubleAccessor(&FabricGoBackN::m_beta),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("MaxDecrease",
                          "Delay: largest decrease per round trip (fraction of the window).",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&FabricGoBackN::m_maxMdf),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("MinWindow",
                          "Delay: smallest window (units).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&FabricGoBackN::m_minWindow),
                          MakeDoubleChecker<double>(1.0, 1e6))
            .AddTraceSource("GoBack",
                            "A connection goes back: peer, first PSN sent again, by timeout.",
                            MakeTraceSourceAccessor(&FabricGoBackN::m_goBackTrace),
                            "ns3::FabricGoBackN::GoBackTracedCallback");
    return tid;
}

FabricGoBackN::FabricGoBackN()
    : m_gate(this)
{
    NS_LOG_FUNCTION(this);
}

FabricGoBackN::~FabricGoBackN()
{
    NS_LOG_FUNCTION(this);
}

void
FabricGoBackN::DoDispose()
{
    m_ackEvent.Cancel();
    m_rtoEvent.Cancel();
    // Unit lists hold references through unackedNext: release them link by link.
    for (std::size_t slot = 0; slot < m_tx.Size(); ++slot)
    {
        TxConn& c = m_tx.At(slot);
        while (c.head)
        {
            Ptr<FabricPacket> u = c.head;
            c.head = u->unackedNext;
            u->unackedNext = nullptr;
        }
        c.tail = nullptr;
        c.retx = nullptr;
    }
    m_ackDue.clear(); // it points into m_rx
    m_tx.Clear();
    m_rx.Clear();
    m_delay.Clear();
    m_checkNext.Clear();
    m_inner = nullptr;
    m_device = nullptr;
    m_ackedCb = AckedCallback();
    m_failedCb = FailedCallback();
    FabricTxQueue::DoDispose();
}

void
FabricGoBackN::SetInnerQueue(Ptr<FabricTxQueue> q)
{
    m_inner = q;
}

void
FabricGoBackN::SetDevice(FabricNetDevice* device)
{
    m_device = device;
}

void
FabricGoBackN::SetAckedCallback(AckedCallback cb)
{
    m_ackedCb = cb;
}

void
FabricGoBackN::SetFailedCallback(FailedCallback cb)
{
    m_failedCb = cb;
}

void
FabricGoBackN::PeerOutOfRange(uint32_t peer)
{
    NS_FATAL_ERROR("FabricGoBackN: peer id " << peer << " above 2^24");
}

bool
FabricGoBackN::IsFailed(uint32_t peer) const
{
    for (uint32_t c = 0; c < (m_perClass ? 256u : 1u); ++c)
    {
        const TxConn* conn = m_tx.Find(ConnKey(peer, static_cast<uint8_t>(c)));
        if (conn && conn->dead)
        {
            return true;
        }
    }
    return false;
}

void
FabricGoBackN::Release(uint32_t peer, TxConn& c, std::vector<Ptr<FabricPacket>>& out)
{
    while (c.head)
    {
        Ptr<FabricPacket> u = c.head;
        c.head = u->unackedNext;
        u->unackedNext = nullptr;
        out.push_back(u);
        --c.units;
        --m_unacked;
    }
    c.tail = nullptr;
    SetRetx(peer, c, nullptr);
    c.timeouts = 0;
    c.dead = true;
}

std::vector<Ptr<FabricPacket>>
FabricGoBackN::TakeAll()
{
    NS_LOG_FUNCTION(this);
    std::vector<Ptr<FabricPacket>> out;
    for (std::size_t slot = 0; slot < m_tx.Size(); ++slot)
    {
        TxConn& c = m_tx.At(slot);
        Release(m_tx.KeyAt(slot), c, out);
        c.active = false;
    }
    m_active.clear();
    m_rtoEvent.Cancel();
    m_ackEvent.Cancel();
    m_ackDue.clear();
    m_ackQueue.clear();
    m_acksDue = 0;
    for (std::size_t slot = 0; slot < m_rx.Size(); ++slot)
    {
        RxConn& r = m_rx.At(slot);
        r.ackQueued = false;
        r.timerArmed = false;
    }
    return out;
}

void
FabricGoBackN::Wake()
{
    if (m_device)
    {
        m_device->Wake();
    }
}

uint32_t
FabricGoBackN::ConnectionHash(uint32_t local, uint32_t peer)
{
    uint64_t h = (static_cast<uint64_t>(local) << 32) ^ peer;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return static_cast<uint32_t>(h);
}

double
FabricGoBackN::WindowOf(uint32_t key) const
{
    if (m_cc == NONE)
    {
        return m_window;
    }
    const DelayState* d = m_delay.Find(key);
    if (!d || d->cwnd <= 0)
    {
        return m_window;
    }
    return std::min<double>(m_window, std::max(m_minWindow, d->cwnd));
}

void
FabricGoBackN::OnRttSample(DelayState& c, Time rtt, uint32_t acked)
{
    ++m_stats.rttSamples;
    m_stats.rttSum += rtt;
    if (c.cwnd <= 0)
    {
        c.cwnd = m_window; // start at line rate
    }
    const Time now = FabricClock::Now();
    if (rtt < m_targetDelay)
    {
        c.cwnd += m_ai * acked / c.cwnd;
    }
    else if (now - c.lastDecrease >= rtt)
    {
        const double over = (rtt - m_targetDelay).GetSeconds() / rtt.GetSeconds();
        c.cwnd *= std::max(1.0 - m_beta * over, 1.0 - m_maxMdf);
        c.lastDecrease = now;
        ++m_stats.decreases;
    }
    c.cwnd = std::min<double>(m_window, std::max(m_minWindow, c.cwnd));
}

bool
FabricGoBackN::WindowGate::CanSend(uint8_t tclass, uint32_t bytes, uint32_t dst) const
{
    const uint32_t key = m_owner->ConnKey(dst, tclass);
    if (const TxConn* conn = m_owner->m_tx.Find(key))
    {
        const TxConn& c = *conn;
        if (c.units >= m_owner->WindowOf(key) || c.retx || c.dead)
        {
            return false;
        }
    }
    return !m_outer || m_outer->CanSend(tclass, bytes, dst);
}

bool
FabricGoBackN::DoIsEmpty() const
{
    return m_acksDue == 0 && m_retxDue == 0 && (!m_inner || m_inner->IsEmpty());
}

Ptr<FabricPacket>
FabricGoBackN::DoDequeue(const FabricTxGate* gate)
{
    // 1. Standalone ACK / NACK frames.
    while (m_acksDue > 0 && !m_ackQueue.empty())
    {
        const uint32_t key = m_ackQueue.front();
        const uint32_t peer = key & PEER_MASK;
        RxConn& r = m_rx[key];
        if (!r.ackQueued)
        {
            m_ackQueue.pop_front(); // carried by a data unit meanwhile
            continue;
        }
        const uint8_t ackClass = m_ackClass >= 0 ? static_cast<uint8_t>(m_ackClass) : r.tclass;
        if (gate && !gate->CanSend(ackClass, m_ackBytes, peer))
        {
            break; // its class is held back: data of other classes may still go
        }
        m_ackQueue.pop_front();
        Ptr<FabricPacket> a = Create<FabricPacket>();
        a->kind = FabricPacket::TRANSPORT_ACK;
        a->src = m_localId;
        a->dst = peer;
        a->tclass = ackClass;
        a->headerBytes = m_ackBytes;
        a->flowHash = ConnectionHash(peer);
        a->posted = FabricClock::Now();
        const bool nack = r.nackQueued;
        FillAck(a, r);
        if (!nack)
        {
            ++m_stats.acksSent;
        }
        return a;
    }

    // 2. Retransmissions, round robin over the connections that go back.
    for (std::size_t n = m_retxList.size(); n > 0 && m_retxDue > 0; --n)
    {
        const uint32_t key = m_retxList.front();
        const uint32_t peer = key & PEER_MASK;
        m_retxList.pop_front();
        TxConn& c = m_tx[key];
        if (!c.retx)
        {
            c.listed = false;
            continue;
        }
        Ptr<FabricPacket> o = c.retx;
        if (gate && !gate->CanSend(o->tclass, o->GetSize(), peer))
        {
            m_retxList.push_back(key);
            continue;
        }
        SetRetx(key, c, o->unackedNext);
        if (c.retx)
        {
            m_retxList.push_back(key);
        }
        else
        {
            c.listed = false;
        }
        // A copy: the original may still sit in a queue downstream, whose links it uses.
        Ptr<FabricPacket> p = Create<FabricPacket>(*o);
        p->next = nullptr;
        p->unackedNext = nullptr;
        p->tailArrival = Time();
        p->hasAck = false;
        p->isNack = false;
        RxConn* r = m_rx.Find(key);
        if (r && (r->ackPending > 0 || r->ackQueued))
        {
            FillAck(p, *r);
            ++m_stats.piggybackedAcks;
        }
        ++m_stats.retransmittedUnits;
        m_stats.retransmittedBytes += p->payloadBytes;
        return p;
    }

    // 3. New data, while the connection's window is open.
    if (!m_inner || m_inner->IsEmpty())
    {
        return nullptr;
    }
    m_gate.m_outer = gate;
    Ptr<FabricPacket> p = m_inner->Dequeue(&m_gate);
    m_gate.m_outer = nullptr;
    if (!p)
    {
        return nullptr;
    }
    const uint32_t key = ConnKey(p->dst, p->tclass);
    TxConn& c = m_tx[key];
    p->psn = c.nextPsn++;
    p->sentAt = FabricClock::Now();
    p->flowHash = ConnectionHash(p->dst);
    p->unackedNext = nullptr;
    if (c.tail)
    {
        c.tail->unackedNext = p;
    }
    else
    {
        c.head = p;
    }
    c.tail = p;
    ++c.units;
    ++m_unacked;
    if (!c.active)
    {
        c.active = true;
        c.lastProgress = FabricClock::Now();
        m_active.push_back(key);
        if (!m_rtoEvent.IsRunning())
        {
            m_rtoEvent = Simulator::Schedule(m_rto, &FabricGoBackN::RetransmitTimer, this);
        }
    }
    RxConn* r = m_rx.Find(key);
    if (r && (r->ackPending > 0 || r->ackQueued))
    {
        FillAck(p, *r);
        ++m_stats.piggybackedAcks;
    }
    ++m_stats.sentUnits;
    return p;
}

void
FabricGoBackN::FillAck(const Ptr<FabricPacket>& p, RxConn& r)
{
    p->hasAck = true;
    p->ackPsn = r.expected;
    p->ackVc = r.tclass;
    p->isNack = r.nackQueued;
    if (r.nackQueued)
    {
        ++m_stats.nacksSent;
        r.nackQueued = false;
    }
    r.ackPending = 0;
    if (r.ackQueued)
    {
        r.ackQueued = false;
        --m_acksDue;
    }
}

void
FabricGoBackN::QueueAck(uint32_t peer, RxConn& r)
{
    if (r.ackQueued)
    {
        return;
    }
    r.ackQueued = true;
    ++m_acksDue;
    m_ackQueue.push_back(peer);
    Wake();
}

bool
FabricGoBackN::Receive(const Ptr<FabricPacket>& p)
{
    NS_LOG_FUNCTION(this << p->src << p->psn << unsigned(p->kind));
    if (p->hasAck)
    {
        ProcessAck(ConnKey(p->src, p->ackVc), p->ackPsn, p->isNack);
    }
    if (p->kind == FabricPacket::TRANSPORT_ACK)
    {
        return false;
    }
    const uint32_t key = ConnKey(p->src, p->tclass);
    RxConn& r = m_rx[key];
    r.tclass = p->tclass;
    if (p->psn == r.expected)
    {
        if (FabricInvariantCheck::IsEnabled())
        {
            // Units of a connection go up in PSN order, each the one after the last: never a
            // repeat (a duplicate delivered upward), never a jump.
            FabricInvariantCheck::Count();
            uint64_t& checkNext = m_checkNext[key];
            if (p->psn != checkNext)
            {
                FabricInvariantCheck::Fail(
                    FabricInvariantCheck::SEQUENCE,
                    "acc" + std::to_string(m_localId) + " transport",
                    "delivers PSN " + std::to_string(p->psn) + " from acc" +
                        std::to_string(p->src) + " class " + std::to_string(p->tclass) +
                        " upward after " +
                        (checkNext == 0 ? std::string("none") : std::to_string(checkNext - 1)) +
                        (p->psn < checkNext ? " (a duplicate)" : " (a gap)"));
            }
            checkNext = p->psn + 1;
        }
        ++r.expected;
        r.nackSent = false;
        ++m_stats.acceptedUnits;
        if (++r.ackPending >= m_ackInterval)
        {
            QueueAck(key, r);
        }
        else if (!r.timerArmed)
        {
            r.timerArmed = true;
            // The coalescing timer is pending exactly while deadlines are queued (AckTimer
            // reschedules itself while any is left; both are cleared together), so an empty
            // queue says that it is idle without asking the simulator.
            const bool idle = m_ackDue.empty();
            m_ackDue.push_back(AckDue{FabricClock::Now() + m_ackDelay, key, &r});
            if (idle)
            {
                m_ackEvent = Simulator::Schedule(m_ackDelay, &FabricGoBackN::AckTimer, this);
            }
        }
        return true;
    }
    m_stats.discardedBytes += p->payloadBytes;
    if (p->psn < r.expected)
    {
        // Sent again after it was accepted: its ACK was lost or late. Say it again.
        ++m_stats.duplicates;
        QueueAck(key, r);
        return false;
    }
    // A gap: NACK once; NACK again when the sender's retransmitted stream rewinds past what was
    // discarded since (the retransmission of the expected unit was lost too).
    ++m_stats.outOfSequence;
    if (!r.nackSent || p->psn <= r.nackMark)
    {
        r.nackSent = true;
        r.nackQueued = true;
        QueueAck(key, r);
    }
    r.nackMark = p->psn;
    return false;
}

void
FabricGoBackN::ForceExpectedPsn(uint32_t peer, uint8_t tclass, uint64_t psn)
{
    NS_LOG_FUNCTION(this << peer << unsigned(tclass) << psn);
    m_rx[ConnKey(peer, tclass)].expected = psn;
}

void
FabricGoBackN::AckTimer()
{
    const Time now = FabricClock::Now();
    while (!m_ackDue.empty() && m_ackDue.front().at <= now)
    {
        const uint32_t peer = m_ackDue.front().key;
        RxConn& r = *m_ackDue.front().r;
        m_ackDue.pop_front();
        r.timerArmed = false;
        if (r.ackPending > 0)
        {
            QueueAck(peer, r);
        }
    }
    if (!m_ackDue.empty())
    {
        m_ackEvent = Simulator::Schedule(m_ackDue.front().at - now, &FabricGoBackN::AckTimer, this);
    }
}

void
FabricGoBackN::SetRetx(uint32_t peer, TxConn& c, Ptr<FabricPacket> u)
{
    if (!c.retx && u)
    {
        ++m_retxDue;
    }
    else if (c.retx && !u)
    {
        --m_retxDue;
    }
    c.retx = u;
    if (u && !c.listed)
    {
        c.listed = true;
        m_retxList.push_back(peer);
    }
}

void
FabricGoBackN::ProcessAck(uint32_t peer, uint64_t psn, bool nack)
{
    TxConn* conn = m_tx.Find(peer);
    if (!conn)
    {
        return;
    }
    TxConn& c = *conn;
    if (FabricInvariantCheck::IsEnabled())
    {
        // The peer accepts only units sent here: its cumulative ACK (or NACKed PSN) is at most
        // the next PSN to send. The acknowledged point (the oldest unacknowledged unit) only
        // moves forward by construction.
        FabricInvariantCheck::Count();
        if (psn > c.nextPsn)
        {
            FabricInvariantCheck::Fail(FabricInvariantCheck::SEQUENCE,
                                       "acc" + std::to_string(m_localId) + " transport",
                                       std::string(nack ? "NACK" : "ACK") + " from acc" +
                                           std::to_string(peer & PEER_MASK) + " for PSN " +
                                           std::to_string(psn) + ", but only " +
                                           std::to_string(c.nextPsn) + " units were sent");
        }
    }
    if (nack)
    {
        ++m_stats.nacksReceived;
    }
    else
    {
        ++m_stats.acksReceived;
    }
    bool progress = false;
    uint32_t freed = 0;
    Time newestSent;
    while (c.head && c.head->psn < psn)
    {
        Ptr<FabricPacket> u = c.head;
        ++freed;
        newestSent = u->sentAt;
        c.head = u->unackedNext;
        u->unackedNext = nullptr;
        if (c.retx == u)
        {
            SetRetx(peer, c, c.head);
        }
        --c.units;
        --m_unacked;
        progress = true;
        if (!m_ackedCb.IsNull())
        {
            m_ackedCb(u);
        }
    }
    if (!c.head)
    {
        c.tail = nullptr;
    }
    if (progress)
    {
        c.lastProgress = FabricClock::Now();
        c.timeouts = 0;
        if (m_cc == DELAY)
        {
            // The newest unit this ACK frees gives the sample (a go-back resends with the
            // original stamp, so samples after a loss are large, which only slows down more).
            OnRttSample(m_delay[peer], FabricClock::Now() - newestSent, freed);
        }
    }
    if (nack && c.head && c.head->psn == psn)
    {
        GoBack(peer, c, false);
    }
    if (progress || nack)
    {
        Wake();
    }
}

void
FabricGoBackN::GoBack(uint32_t peer, TxConn& c, bool timeout)
{
    NS_LOG_LOGIC("go back to " << c.head->psn << " toward " << peer
                               << (timeout ? " (timeout)" : ""));
    ++m_stats.goBacks;
    m_goBackTrace(peer & PEER_MASK, c.head->psn, timeout);
    SetRetx(peer, c, c.head);
    c.lastProgress = FabricClock::Now();
}

void
FabricGoBackN::RetransmitTimer()
{
    const Time now = FabricClock::Now();
    Time next = Time::Max();
    bool wake = false;
    for (std::size_t i = 0; i < m_active.size();)
    {
        const uint32_t peer = m_active[i];
        TxConn& c = m_tx[peer];
        if (!c.head)
        {
            c.active = false;
            m_active[i] = m_active.back();
            m_active.pop_back();
            continue;
        }
        Time deadline =
            c.lastProgress + m_rto * (int64_t(1) << std::min<uint32_t>(c.timeouts, m_maxBackoff));
        if (deadline <= now)
        {
            ++m_stats.timeouts;
            if (++c.timeouts > m_maxRetries)
            {
                // Give up: release the units (their messages never complete).
                NS_LOG_WARN("FabricGoBackN: connection " << m_localId << " -> " << peer
                                                         << " failed after " << m_maxRetries
                                                         << " timeouts");
                ++m_stats.failed;
                std::vector<Ptr<FabricPacket>> units;
                Release(peer, c, units);
                c.active = false;
                m_active[i] = m_active.back();
                m_active.pop_back();
                if (!m_failedCb.IsNull())
                {
                    m_failedCb(peer & PEER_MASK, units);
                }
                else
                {
                    for (const auto& u : units)
                    {
                        m_stats.failedBytes += u->payloadBytes;
                    }
                }
                wake = true;
                continue;
            }
            GoBack(peer, c, true);
            wake = true;
            deadline = now + m_rto * (int64_t(1) << std::min<uint32_t>(c.timeouts, m_maxBackoff));
        }
        next = std::min(next, deadline);
        ++i;
    }
    if (!m_active.empty())
    {
        m_rtoEvent = Simulator::Schedule(next - now, &FabricGoBackN::RetransmitTimer, this);
    }
    if (wake)
    {
        Wake();
    }
}

} // namespace ns3
