/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-credit-flow-control.h"

#include "fabric-channel.h"
#include "fabric-invariant-check.h"
#include "fabric-net-device.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricCreditFlowControl");
NS_OBJECT_ENSURE_REGISTERED(FabricCreditFlowControl);

TypeId
FabricCreditFlowControl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FabricCreditFlowControl")
            .SetParent<FabricFlowControl>()
            .SetGroupName("Fabric")
            .AddConstructor<FabricCreditFlowControl>()
            .AddAttribute("Vcs",
                          "Virtual channels (traffic classes), at most 32.",
                          UintegerValue(8),
                          MakeUintegerAccessor(&FabricCreditFlowControl::m_vcs),
                          MakeUintegerChecker<uint32_t>(1, 32))
            .AddAttribute("BytesPerCredit",
                          "Buffer bytes one credit stands for (bytes). The seeds do not fix it "
                          "for Ethernet CBFC; 64 B is one minimum frame.",
                          UintegerValue(64),
                          MakeUintegerAccessor(&FabricCreditFlowControl::m_bytesPerCredit),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("BufferBytes",
                          "Receive buffer per VC that this port advertises to its peer (bytes).",
                          UintegerValue(65536),
                          MakeUintegerAccessor(&FabricCreditFlowControl::m_bufferBytes),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("PoolBytes",
                          "Receive buffer shared by all VCs, used when a VC's own credits run "
                          "out (bytes).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&FabricCreditFlowControl::m_poolBytes),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("CreditBatch",
                          "Credits freed before a credit frame is sent (credits).",
                          UintegerValue(16),
                          MakeUintegerAccessor(&FabricCreditFlowControl::m_batch),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("CreditDelay",
                          "Longest time freed credits wait for their batch to fill.",
                          TimeValue(NanoSeconds(100)),
                          MakeTimeAccessor(&FabricCreditFlowControl::m_delay),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("CreditLatency",
                          "Processing latency from the decision to return credits to the "
                          "credit frame being queued for transmission.",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&FabricCreditFlowControl::m_latency),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("InBandCredits",
                          "Credit returns ride in the headers of the units going the other way "
                          "(a cell fabric's cell headers): they take no wire time and reach the "
                          "peer after the link's one-way delay (plus CreditLatency), instead of "
                          "being control frames of ControlFrameBytes queued ahead of data.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&FabricCreditFlowControl::m_inBand),
                          MakeBooleanChecker());
    return tid;
}

FabricCreditFlowControl::FabricCreditFlowControl()
{
    NS_LOG_FUNCTION(this);
}

FabricCreditFlowControl::~FabricCreditFlowControl()
{
    NS_LOG_FUNCTION(this);
}

void
FabricCreditFlowControl::DoDispose()
{
    m_timer.Cancel();
    FabricFlowControl::DoDispose();
}

void
FabricCreditFlowControl::Start() const
{
    if (m_started)
    {
        return;
    }
    Ptr<FabricFlowControl> peerFc = GetPeer();
    Ptr<FabricCreditFlowControl> peer = DynamicCast<FabricCreditFlowControl>(peerFc);
    NS_ABORT_MSG_IF(!peer,
                    "FabricCreditFlowControl: the peer port of the link runs no credit flow "
                    "control; configure it on both ends");
    NS_ABORT_MSG_IF(peer->m_bytesPerCredit != m_bytesPerCredit || peer->m_vcs != m_vcs,
                    "FabricCreditFlowControl: the two ends of a link disagree on BytesPerCredit "
                    "or Vcs");
    m_credits.Reset(m_vcs + 1);
    for (uint32_t vc = 0; vc < m_vcs; ++vc)
    {
        m_credits.Advertise(vc, peer->m_bufferBytes / m_bytesPerCredit);
    }
    m_credits.Advertise(m_vcs, peer->m_poolBytes / m_bytesPerCredit);
    m_started = true;
}

uint64_t
FabricCreditFlowControl::GetAvailableCredits(uint8_t vc) const
{
    Start();
    return vc < m_vcs ? m_credits.GetAvailable(vc) : 0;
}

uint64_t
FabricCreditFlowControl::GetAvailablePoolCredits() const
{
    Start();
    return m_credits.GetAvailable(m_vcs);
}

void
FabricCreditFlowControl::SetUnitCredits(UnitCreditsCallback cb)
{
    m_unitCredits = cb;
}

bool
FabricCreditFlowControl::CanSendUnit(uint8_t tclass, const FabricPacket& p) const
{
    if (m_unitCredits.IsNull())
    {
        return CanSend(tclass, p.GetSize(), p.dst);
    }
    NS_ABORT_MSG_IF(tclass >= m_vcs,
                    "FabricCreditFlowControl: a unit of VC " << unsigned(tclass) << " on a port "
                                                             << "with " << m_vcs << " VCs");
    return GetAvailableCredits(tclass) + GetAvailablePoolCredits() >= m_unitCredits(p);
}

bool
FabricCreditFlowControl::CanSend(uint8_t tclass, uint32_t bytes, uint32_t dst) const
{
    (void)dst;
    NS_ABORT_MSG_IF(tclass >= m_vcs,
                    "FabricCreditFlowControl: a unit of VC " << unsigned(tclass) << " on a port "
                                                             << "with " << m_vcs << " VCs");
    const uint64_t n = CreditsFor(bytes);
    return GetAvailableCredits(tclass) + GetAvailablePoolCredits() >= n;
}

void
FabricCreditFlowControl::NotifySent(const Ptr<FabricPacket>& p)
{
    const uint8_t vc = p->tclass;
    const uint64_t n = CreditsOf(*p);
    const uint64_t own = std::min(n, GetAvailableCredits(vc));
    const uint64_t pool = n - own;
    if (FabricInvariantCheck::IsEnabled())
    {
        CheckSpend(vc, own, pool);
    }
    NS_ABORT_MSG_IF(pool > GetAvailablePoolCredits(),
                    "FabricCreditFlowControl: a unit was sent without credit");
    if (own > 0)
    {
        m_credits.Take(vc, own);
    }
    m_credits.Take(m_vcs, pool);
    p->poolCredits = static_cast<uint32_t>(pool);
}

void
FabricCreditFlowControl::NotifyReceived(const Ptr<FabricPacket>& p)
{
    if (m_occ.empty())
    {
        m_occ.assign(m_vcs, 0);
        m_freed.assign(m_vcs, 0);
        m_reported.assign(m_vcs, 0);
    }
    const uint8_t vc = p->tclass;
    NS_ABORT_MSG_IF(vc >= m_vcs,
                    "FabricCreditFlowControl: a unit of unknown VC " << unsigned(vc) << " arrived");
    const uint64_t n = CreditsOf(*p);
    NS_ABORT_MSG_IF(p->poolCredits > n,
                    "FabricCreditFlowControl: a unit claims more pool credits "
                    "than its size");
    m_occ[vc] += n - p->poolCredits;
    m_poolOcc += p->poolCredits;
    if (FabricInvariantCheck::IsEnabled())
    {
        CheckHeld(vc, n, true);
    }
    NS_ABORT_MSG_IF(m_occ[vc] > m_bufferBytes / m_bytesPerCredit ||
                        m_poolOcc > m_poolBytes / m_bytesPerCredit,
                    "FabricCreditFlowControl: receive buffer overflow on VC "
                        << unsigned(vc) << " (" << m_occ[vc] << " credits held, "
                        << m_bufferBytes / m_bytesPerCredit << " advertised; pool " << m_poolOcc
                        << "): the sender transmitted without credit");
    m_peak = std::max(m_peak, m_occ[vc] + m_poolOcc);
}

void
FabricCreditFlowControl::NotifyReleased(const Ptr<FabricPacket>& p)
{
    const uint8_t vc = p->tclass;
    const uint64_t n = CreditsOf(*p);
    const uint64_t pool = p->poolCredits;
    if (FabricInvariantCheck::IsEnabled())
    {
        CheckRelease(vc, n, pool);
    }
    NS_ABORT_MSG_IF(vc >= m_occ.size() || m_occ[vc] < n - pool || m_poolOcc < pool,
                    "FabricCreditFlowControl: release of credits the port does not hold (VC "
                        << unsigned(vc) << ")");
    m_occ[vc] -= n - pool;
    m_poolOcc -= pool;
    m_freed[vc] += n - pool;
    m_poolFreed += pool;
    CreditsDue(n);
}

void
FabricCreditFlowControl::NotifyLost(const Ptr<FabricPacket>& p)
{
    const uint64_t n = CreditsOf(*p);
    m_recovered += n;
    NotifyReceived(p);
    NotifyReleased(p);
}

void
FabricCreditFlowControl::CreditsDue(uint64_t n)
{
    m_due += n;
    if (m_due >= m_batch)
    {
        m_timer.Cancel();
        ReturnCredits();
    }
    else if (!m_timer.IsRunning())
    {
        m_timer = Simulator::Schedule(m_delay, &FabricCreditFlowControl::ReturnCredits, this);
    }
}

void
FabricCreditFlowControl::ReturnCredits()
{
    m_due = 0;
    bool poolSent = m_poolFreed == m_poolReported;
    for (uint32_t vc = 0; vc < m_vcs; ++vc)
    {
        if (m_freed[vc] == m_reported[vc] && (poolSent || vc + 1 < m_vcs))
        {
            continue;
        }
        Ptr<FabricPacket> f = MakeControlFrame(FabricPacket::CREDIT);
        f->ctrlClass = vc;
        f->ctrlValue = m_freed[vc];
        f->ctrlValue2 = m_poolFreed;
        m_reported[vc] = m_freed[vc];
        m_poolReported = m_poolFreed;
        poolSent = true;
        if (m_latency.IsStrictlyPositive())
        {
            Simulator::Schedule(m_latency, &FabricCreditFlowControl::SendFrame, this, f);
        }
        else
        {
            SendFrame(f);
        }
    }
}

void
FabricCreditFlowControl::SendFrame(Ptr<FabricPacket> f)
{
    if (!m_inBand)
    {
        SendControl(f);
        return;
    }
    // In the header of the next unit the other way (or of an idle one): no wire time of its
    // own; it reaches the peer one link delay later (up to a unit time early, see the class).
    FabricNetDevice* dev = GetDevice();
    NS_ASSERT_MSG(dev && dev->GetFabricChannel(), "flow control is not bound to a linked port");
    CountControlSent();
    Simulator::Schedule(dev->GetFabricChannel()->GetOneWayDelay(),
                        &FabricCreditFlowControl::DeliverInBand,
                        this,
                        f);
}

void
FabricCreditFlowControl::DeliverInBand(Ptr<FabricPacket> f)
{
    Ptr<FabricFlowControl> peer = GetPeer();
    if (peer && GetDevice()->IsLinkUp())
    {
        peer->ReceiveControl(f);
    }
}

void
FabricCreditFlowControl::ReceiveControl(const Ptr<FabricPacket>& p)
{
    NS_ABORT_MSG_IF(p->kind != FabricPacket::CREDIT,
                    "FabricCreditFlowControl: received a control frame of another mechanism");
    CountControlReceived();
    const uint8_t vc = p->ctrlClass;
    NS_ABORT_MSG_IF(vc >= m_vcs,
                    "FabricCreditFlowControl: credits for unknown VC " << unsigned(vc));
    Start();
    // Cumulative counts: an older frame never takes credits back.
    if (p->ctrlValue > m_credits.GetReturned(vc))
    {
        m_credits.Return(vc, p->ctrlValue - m_credits.GetReturned(vc));
    }
    if (p->ctrlValue2 > m_credits.GetReturned(m_vcs))
    {
        m_credits.Return(m_vcs, p->ctrlValue2 - m_credits.GetReturned(m_vcs));
    }
    if (FabricInvariantCheck::IsEnabled())
    {
        CheckReturned(vc);
    }
    NS_ABORT_MSG_IF(m_credits.GetReturned(vc) > m_credits.GetSpent(vc) ||
                        m_credits.GetReturned(m_vcs) > m_credits.GetSpent(m_vcs),
                    "FabricCreditFlowControl: the peer returned more credits than were spent on "
                    "VC "
                        << unsigned(vc));
    WakeDevice();
}

std::string
FabricCreditFlowControl::Name() const
{
    return FabricInvariantCheck::GetName(GetDevice(), "FabricNetDevice");
}

void
FabricCreditFlowControl::CheckSpend(uint8_t vc, uint64_t own, uint64_t pool) const
{
    FabricInvariantCheck::Count();
    // Credits left after the spend: limit + returned - spent, never negative.
    const int64_t left =
        static_cast<int64_t>(m_credits.GetAvailable(vc)) - static_cast<int64_t>(own);
    const int64_t poolLeft =
        static_cast<int64_t>(m_credits.GetAvailable(m_vcs)) - static_cast<int64_t>(pool);
    if (left < 0 || poolLeft < 0)
    {
        FabricInvariantCheck::Fail(FabricInvariantCheck::CREDITS,
                                   Name(),
                                   "credits " + std::to_string(left < 0 ? left : poolLeft) +
                                       (left < 0 ? " on class " + std::to_string(vc)
                                                 : std::string(" in the shared pool")) +
                                       " after sending a unit (sent without credit)");
    }
}

void
FabricCreditFlowControl::CheckReturned(uint8_t vc) const
{
    Start();
    FabricInvariantCheck::Count();
    // Credits available (limit + returned - spent) never exceed what the peer advertised:
    // returned <= spent.
    const FabricCreditLedger& c = m_credits;
    if (c.GetReturned(vc) > c.GetSpent(vc))
    {
        FabricInvariantCheck::Fail(FabricInvariantCheck::CREDITS,
                                   Name(),
                                   "credits " + std::to_string(c.GetAvailable(vc)) + " on class " +
                                       std::to_string(vc) + ", above the " +
                                       std::to_string(c.GetAdvertised(vc)) + " advertised (" +
                                       std::to_string(c.GetReturned(vc) - c.GetSpent(vc)) +
                                       " returned that were never spent)");
    }
    if (c.GetReturned(m_vcs) > c.GetSpent(m_vcs))
    {
        FabricInvariantCheck::Fail(FabricInvariantCheck::CREDITS,
                                   Name(),
                                   "pool credits " + std::to_string(c.GetAvailable(m_vcs)) +
                                       ", above the " + std::to_string(c.GetAdvertised(m_vcs)) +
                                       " advertised");
    }
}

void
FabricCreditFlowControl::CheckHeld(uint8_t vc, uint64_t n, bool arrived) const
{
    FabricInvariantCheck::Count();
    const uint64_t cap = m_bufferBytes / m_bytesPerCredit;
    const uint64_t poolCap = m_poolBytes / m_bytesPerCredit;
    if (m_occ[vc] > cap || m_poolOcc > poolCap)
    {
        FabricInvariantCheck::Fail(
            FabricInvariantCheck::CREDITS,
            Name(),
            "receive credits held " +
                (m_occ[vc] > cap ? std::to_string(m_occ[vc]) + " on class " + std::to_string(vc) +
                                       ", above the " + std::to_string(cap) + " advertised"
                                 : std::to_string(m_poolOcc) + " in the pool, above the " +
                                       std::to_string(poolCap) + " advertised") +
                (arrived ? " after a unit of " + std::to_string(n) + " credits arrived" : ""));
    }
}

void
FabricCreditFlowControl::CheckRelease(uint8_t vc, uint64_t n, uint64_t pool) const
{
    FabricInvariantCheck::Count();
    const int64_t held = vc < m_occ.size() ? static_cast<int64_t>(m_occ[vc]) : 0;
    const int64_t after = held - static_cast<int64_t>(n - pool);
    const int64_t poolAfter = static_cast<int64_t>(m_poolOcc) - static_cast<int64_t>(pool);
    if (after < 0 || poolAfter < 0)
    {
        FabricInvariantCheck::Fail(
            FabricInvariantCheck::CREDITS,
            Name(),
            "receive credits " + std::to_string(after < 0 ? after : poolAfter) +
                (after < 0 ? " on class " + std::to_string(vc) : std::string(" in the pool")) +
                " after releasing a unit of " + std::to_string(n) +
                " credits (released twice, or never received)");
    }
}

uint64_t
FabricCreditFlowControl::GetOccupancy(uint8_t vc) const
{
    return vc < m_occ.size() ? m_occ[vc] : 0;
}

} // namespace ns3
