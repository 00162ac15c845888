/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ualink-tx-queue.h"

#include "ualink-control-half-flit.h"
#include "ualink-dl-framer.h"
#include "ualink-dl.h"
#include "ualink-phy.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/fabric-channel.h"
#include "ns3/fabric-clock.h"
#include "ns3/fabric-invariant-check.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <memory>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("UalinkTxQueue");
NS_OBJECT_ENSURE_REGISTERED(UalinkTxQueue);

Time UalinkTxQueue::s_lastArrival;
bool UalinkTxQueue::s_sentinelPending = false;
bool UalinkTxQueue::s_resetHooked = false;

TypeId
UalinkTxQueue::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::UalinkTxQueue")
            .SetParent<FabricTxQueue>()
            .SetGroupName("Ualink")
            .AddConstructor<UalinkTxQueue>()
            .AddAttribute("Packer",
                          "The TL packer of this port.",
                          PointerValue(),
                          MakePointerAccessor(&UalinkTxQueue::m_packer),
                          MakePointerChecker<UalinkTlPacker>())
            .AddAttribute("Granularity",
                          "Burst: one event per control half-flit and its data per hop, the wire "
                          "time exact in bytes (default). DlFlit: one event per DL flit, each "
                          "operation delivered with the DL flit that completes it (the fine mode "
                          "the tests compare with).",
                          EnumValue(BURST),
                          MakeEnumAccessor(&UalinkTxQueue::m_granularity),
                          MakeEnumChecker(BURST, "Burst", DL_FLIT, "DlFlit"))
            .AddAttribute("ReqCmdCredits",
                          "Request field credits the partner advertises (section 5.8: "
                          "implementation-defined; sized for a ~1 us credit loop at x4).",
                          UintegerValue(512),
                          MakeUintegerAccessor(&UalinkTxQueue::m_initReqCmd),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RspCmdCredits",
                          "Response field credits the partner advertises (section 5.8).",
                          UintegerValue(512),
                          MakeUintegerAccessor(&UalinkTxQueue::m_initRspCmd),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("ReqDataCredits",
                          "64 B request data buffer credits the partner advertises (section "
                          "5.8; a 1 us credit loop at x4 needs 1 us x 784.23 Gb/s / 512 bits = "
                          "1532, ualink.rst, Validation).",
                          UintegerValue(2048),
                          MakeUintegerAccessor(&UalinkTxQueue::m_initReqData),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RspDataCredits",
                          "64 B read response data buffer credits the partner advertises.",
                          UintegerValue(2048),
                          MakeUintegerAccessor(&UalinkTxQueue::m_initRspData),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("ReqCmdVcCredits",
                          "Request field credits the partner advertises for each of the 4 VCs "
                          "(section 5.8: VC credits beside the pool; 0: pool only).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&UalinkTxQueue::m_vcReqCmd),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RspCmdVcCredits",
                          "Response field credits the partner advertises for each VC.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&UalinkTxQueue::m_vcRspCmd),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("ReqDataVcCredits",
                          "64 B request data credits the partner advertises for each VC.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&UalinkTxQueue::m_vcReqData),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RspDataVcCredits",
                          "64 B read response data credits the partner advertises for each VC.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&UalinkTxQueue::m_vcRspData),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("SharedDataBuffer",
                          "Shared Data Buffer mode (section 5.8, optional): the partner's "
                          "ReqData and RspData Pool credits are one count, usable by either.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&UalinkTxQueue::m_sharedData),
                          MakeBooleanChecker())
            .AddAttribute("InitialCreditRelease",
                          "Model the partner's initial credit release (section 5.8): no credit "
                          "until its FC fields and the Initial Credit Release Complete message "
                          "have arrived. Off: the credits are known at time 0 (the link was "
                          "brought up before).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&UalinkTxQueue::m_initialRelease),
                          MakeBooleanChecker());
    return tid;
}

UalinkTxQueue::UalinkTxQueue()
{
    NS_LOG_FUNCTION(this);
    m_packer = CreateObject<UalinkTlPacker>();
    m_packer->SetGate(MakeCallback(&UalinkTxQueue::Gate, this));
}

UalinkTxQueue::~UalinkTxQueue()
{
    NS_LOG_FUNCTION(this);
}

void
UalinkTxQueue::DoDispose()
{
    if (m_packer)
    {
        m_packer->Dispose();
    }
    m_packer = nullptr;
    m_slots.clear();
    m_freeSlots.clear();
    m_sentCb = SentCallback();
    m_paceEvent.Cancel();
    m_paceWake = Callback<void>();
    m_peerDev = nullptr;
    m_peerQ = nullptr;
    m_peerCh = nullptr;
    m_wakePending = false;
    m_returns.clear();
    m_wakeDev = nullptr;
    FabricTxQueue::DoDispose();
}

void
UalinkTxQueue::SetPhy(Ptr<const UalinkPhy> phy)
{
    const double p = phy->GetIdlePeriod();
    m_wirePerHf = static_cast<double>(ualink::HALF_FLIT_BYTES) * UalinkPhy::CODEWORD_BYTES /
                  UalinkDlFramer::PAYLOAD_BYTES * p / (p - 1.0);
    m_tlFlitSeconds = phy->GetTlFlitSeconds();
    m_bps = static_cast<double>(phy->GetLanes()) * phy->GetLaneRate().GetBitRate();
    m_idlePeriod = phy->GetIdlePeriod();
    m_slot = phy->GetSlotTime();
}

void
UalinkTxQueue::SetDevice(Ptr<FabricNetDevice> dev)
{
    m_dev = PeekPointer(dev);
}

uint64_t
UalinkTxQueue::GetInitialReleaseTlFlits() const
{
    const std::array<uint32_t, ualink::N_CREDIT_CLASSES> pool{m_initReqCmd,
                                                              m_initRspCmd,
                                                              m_initReqData,
                                                              m_initRspData};
    const std::array<uint32_t, ualink::N_CREDIT_CLASSES> vc{m_vcReqCmd,
                                                            m_vcRspCmd,
                                                            m_vcReqData,
                                                            m_vcRspData};
    uint64_t fields = 0;
    for (uint32_t c = 0; c < ualink::N_CREDIT_CLASSES; ++c)
    {
        const uint32_t lim =
            c < ualink::REQ_DATA ? ualink::FC_MAX_CMD_CREDITS : ualink::FC_MAX_DATA_CREDITS;
        // One non-zero field per class and kind per control half-flit: the kinds (pool and
        // each VC) go in parallel, so the largest count sets the half-flits.
        fields = std::max<uint64_t>(fields, (std::max(pool[c], vc[c]) + lim - 1) / lim);
    }
    return fields + 1; // + the Initial Credit Release Complete message (Table 5-28, 0x01)
}

Time
UalinkTxQueue::GetInitialReleaseTime() const
{
    if (!m_initialRelease)
    {
        return Time(0);
    }
    NS_ABORT_MSG_IF(!m_dev || !m_dev->GetFabricChannel(),
                    "UalinkTxQueue: InitialCreditRelease needs SetDevice on a connected port");
    if (m_releaseOrigin == Time::Max())
    {
        return Time::Max(); // re-initialised, the link not Up yet (LinkUp)
    }
    return m_releaseOrigin +
           Seconds(static_cast<double>(GetInitialReleaseTlFlits()) * m_tlFlitSeconds) + m_slot +
           m_dev->GetFabricChannel()->GetOneWayDelay();
}

void
UalinkTxQueue::InitialReleaseDone()
{
    DrainCredits();
    m_releasePending = false;
    if (!m_started)
    {
        Start();
    }
    m_dev->Wake();
}

uint32_t
UalinkTxQueue::CreditsFor(const FabricPacket::Segment& s, ualink::CreditClass cls)
{
    return CreditsOf(s)[cls];
}

UalinkTlOp
UalinkTxQueue::ToTlOp(const FabricPacket::Segment& s)
{
    UalinkTlOp op;
    // A region per message and MB: the first request to each goes uncompressed (CLOAD = 1).
    op.addr = AddressOf(s);
    op.bytes = s.bytes;
    op.src = static_cast<uint16_t>(s.src);
    op.dst = static_cast<uint16_t>(s.dst);
    op.tag = ualink::AuxTag(s.aux);
    op.status = ualink::AuxStatus(s.aux);
    op.vc = s.tclass & 3;
    // Poisoned data travels as two 0x20 messages replacing each beat's data half-flits: no
    // bytes added (section 5.3).
    op.poisoned = ualink::AuxPoisoned(s.aux);
    switch (s.op)
    {
    case ualink::OP_ATOMIC_R:
        op.kind = UalinkTlOp::REQUEST;
        op.cmd = ualink::ATOMIC_R;
        op.addr = s.offset; // the word's own address (UalinkEndpoint::AtomicAdd)
        break;
    case ualink::OP_ATOMIC_NR:
        op.kind = UalinkTlOp::REQUEST;
        op.cmd = ualink::ATOMIC_NR;
        op.addr = s.offset;
        break;
    case ualink::OP_WRITE_MESSAGE:
        op.kind = UalinkTlOp::REQUEST;
        op.cmd = ualink::WRITE_MESSAGE;
        break;
    case ualink::OP_WRITE:
        op.kind = UalinkTlOp::REQUEST;
        op.cmd = (op.addr % ualink::BEAT_BYTES == 0 && s.bytes % ualink::BEAT_BYTES == 0)
                     ? ualink::WRITE_FULL
                     : ualink::WRITE;
        break;
    case ualink::OP_READ:
        op.kind = UalinkTlOp::REQUEST;
        op.cmd = ualink::READ;
        break;
    case ualink::OP_READ_RSP:
        op.kind = UalinkTlOp::READ_RESPONSE;
        op.cmd = ualink::READ;
        break;
    default:
        op.kind = UalinkTlOp::WRITE_RESPONSE;
        op.cmd = ualink::WRITE_FULL;
        break;
    }
    return op;
}

void
UalinkTxQueue::Enqueue(const FabricPacket::Segment& s)
{
    NS_LOG_FUNCTION(this << s.msgId << s.offset << unsigned(s.op));
    UalinkTlOp op = ToTlOp(s);
    if (m_freeSlots.empty())
    {
        op.id = m_slots.size();
        m_slots.push_back(s);
    }
    else
    {
        op.id = m_freeSlots.back();
        m_freeSlots.pop_back();
        m_slots[op.id] = s;
    }
    ++m_queued;
    m_packer->Enqueue(op);
}

void
UalinkTxQueue::Start()
{
    m_started = true;
    m_stats.initialReleaseTlFlits = m_initialRelease ? GetInitialReleaseTlFlits() : 0;
    const std::array<uint32_t, ualink::N_CREDIT_CLASSES> pool{m_initReqCmd,
                                                              m_initRspCmd,
                                                              m_initReqData,
                                                              m_initRspData};
    const std::array<uint32_t, ualink::N_CREDIT_CLASSES> vc{m_vcReqCmd,
                                                            m_vcRspCmd,
                                                            m_vcReqData,
                                                            m_vcRspData};
    for (uint32_t c = 0; c < ualink::N_CREDIT_CLASSES; ++c)
    {
        const auto cls = static_cast<ualink::CreditClass>(c);
        for (uint8_t k = 0; k < ualink::POOL; ++k)
        {
            m_credits.Advertise(CreditIndex(cls, k), vc[c]);
        }
        uint64_t pooled = pool[c];
        if (m_sharedData && cls == ualink::REQ_DATA)
        {
            pooled += pool[ualink::RSP_DATA]; // 5.8: one pool of data buffers for both classes
        }
        else if (m_sharedData && cls == ualink::RSP_DATA)
        {
            pooled = 0;
        }
        m_credits.Advertise(CreditIndex(cls, ualink::POOL), pooled);
    }
}

void
UalinkTxQueue::ReinitLink()
{
    NS_LOG_FUNCTION(this);
    DrainCredits(); // returns that arrived before now belong to the link as it was
    ++m_epoch;
    ++m_stats.linkReinits;
    m_packer->ResetLink();
    if (m_initialRelease)
    {
        // Section 5.8: no credit until the partner's release has arrived (after LinkUp).
        m_started = false;
        m_releasePending = false;
        m_releaseOrigin = Time::Max();
        m_credits.Empty();
        return;
    }
    if (m_started)
    {
        m_credits.Refill(); // the partner's whole buffer, known as at time 0
    }
}

void
UalinkTxQueue::LinkUp()
{
    NS_LOG_FUNCTION(this);
    if (m_epoch > 0 && !m_started)
    {
        m_releaseOrigin = FabricClock::Now();
    }
}

void
UalinkTxQueue::AddCredits(ualink::CreditClass cls, uint32_t n)
{
    AddCredits(cls, ualink::POOL, n);
}

void
UalinkTxQueue::AddCredits(ualink::CreditClass cls, uint8_t kind, uint32_t n)
{
    DrainCredits();
    DoAddCredits(cls, kind, n);
}

void
UalinkTxQueue::DoAddCredits(ualink::CreditClass cls, uint8_t kind, uint32_t n)
{
    if (!m_started && m_epoch > 0)
    {
        // Re-initialised and the partner's release not yet in: nothing was sent on the new link,
        // so these credits belong to the old one.
        m_stats.staleCredits += n;
        return;
    }
    if (!m_started)
    {
        Start();
    }
    NS_ASSERT(kind < ualink::N_CREDIT_KINDS);
    cls = Counted(cls, kind);
    const uint32_t i = CreditIndex(cls, kind);
    m_credits.Return(i, n);
    if (m_epoch > 0)
    {
        // After a re-initialisation the partner advertised its whole buffer again; an operation
        // it received before the link went down and freed since (held in a switch's egress)
        // returns a credit of the old link: void.
        m_stats.staleCredits += m_credits.ClampToAdvertised(i);
    }
    if (FabricInvariantCheck::IsEnabled())
    {
        CheckCredits(cls, true);
    }
    NS_ABORT_MSG_IF(m_credits.GetAvailable(i) > m_credits.GetAdvertised(i),
                    "UalinkTxQueue: more credits returned than the partner advertised");
}

uint64_t
UalinkTxQueue::GetAvailableCredits(ualink::CreditClass cls) const
{
    DrainCredits();
    uint64_t n = 0;
    for (uint8_t k = 0; k < ualink::N_CREDIT_KINDS; ++k)
    {
        n += m_credits.GetAvailable(CreditIndex(cls, k));
    }
    return n;
}

uint64_t
UalinkTxQueue::GetAvailableCredits(ualink::CreditClass cls, uint8_t kind) const
{
    DrainCredits();
    return m_credits.GetAvailable(CreditIndex(cls, kind));
}

const UalinkTxQueue::Stats&
UalinkTxQueue::GetStats() const
{
    DrainCredits(); // stale returns are counted when they arrive
    return m_stats;
}

uint64_t
UalinkTxQueue::GetAdvertisedCredits(ualink::CreditClass cls) const
{
    DrainCredits(); // the first return may load them (AddCredits)
    uint64_t n = 0;
    for (uint8_t k = 0; k < ualink::N_CREDIT_KINDS; ++k)
    {
        n += m_credits.GetAdvertised(CreditIndex(cls, k));
    }
    return m_started ? n : 0;
}

void
UalinkTxQueue::CheckCredits(ualink::CreditClass cls, bool returned) const
{
    FabricInvariantCheck::Count();
    static const char* const kNames[] = {"ReqCmd", "RspCmd", "ReqData", "RspData"};
    const char* name = cls < 4 ? kNames[cls] : "?";
    for (uint32_t k = 0; k < ualink::N_CREDIT_KINDS; ++k)
    {
        // Unsigned counts: a spend below zero wraps to above the advertised count too.
        const uint64_t avail = m_credits.GetAvailable(CreditIndex(cls, static_cast<uint8_t>(k)));
        const uint64_t advertised =
            m_credits.GetAdvertised(CreditIndex(cls, static_cast<uint8_t>(k)));
        if (avail <= advertised)
        {
            continue;
        }
        const bool wrapped = avail > (uint64_t(1) << 63);
        const std::string kind = k == ualink::POOL ? "" : " VC " + std::to_string(k);
        FabricInvariantCheck::Fail(
            FabricInvariantCheck::CREDITS,
            this,
            "UalinkTxQueue",
            std::string("credits ") +
                (wrapped ? std::to_string(static_cast<int64_t>(avail)) : std::to_string(avail)) +
                " on class " + name + kind +
                (wrapped ? std::string(" (spent without credit)")
                         : ", above the " + std::to_string(advertised) + " advertised" +
                               (returned ? std::string(" (returned twice?)") : std::string())));
    }
}

bool
UalinkTxQueue::Gate(const UalinkTlOp& op)
{
    if (!m_started)
    {
        const Time at = GetInitialReleaseTime();
        if (at > FabricClock::Now())
        {
            // The release began at time 0 (or when the link came Up again); nothing leaves
            // before it has arrived (5.8).
            if (!m_releasePending && at != Time::Max())
            {
                m_releasePending = true;
                Simulator::Schedule(at - FabricClock::Now(),
                                    &UalinkTxQueue::InitialReleaseDone,
                                    this);
            }
            ++m_stats.creditStalls;
            return false;
        }
        Start();
    }
    // Credits from the TL view alone (no look-up of the queued operation): a command credit of
    // its kind and one data credit per beat of write or read data.
    const bool request = op.kind == UalinkTlOp::REQUEST;
    const uint32_t beats = (request ? op.cmd != ualink::READ : op.kind == UalinkTlOp::READ_RESPONSE)
                               ? ualink::Beats(op.bytes, op.addr)
                               : 0;
    // An operation needs one command credit and its beats of data credits of its direction
    // (request: ReqCmd + ReqData; response: RspCmd + RspData), all of one kind: its VC's, else
    // the pool's. Command classes are never counted elsewhere (Counted maps only RspData).
    const ualink::CreditClass cmd = request ? ualink::REQ_CMD : ualink::RSP_CMD;
    const ualink::CreditClass data = request ? ualink::REQ_DATA : ualink::RSP_DATA;
    for (const uint8_t kind : {static_cast<uint8_t>(op.vc & 3), static_cast<uint8_t>(ualink::POOL)})
    {
        const ualink::CreditClass counted = Counted(data, kind);
        if (!m_credits.TryTake(CreditIndex(cmd, kind), 1, CreditIndex(counted, kind), beats))
        {
            continue;
        }
        m_spent[cmd] += 1;
        m_spent[data] += beats;
        if (FabricInvariantCheck::IsEnabled())
        {
            for (uint32_t c = 0; c < ualink::N_CREDIT_CLASSES; ++c)
            {
                CheckCredits(Counted(static_cast<ualink::CreditClass>(c), kind), false);
            }
        }
        if (op.id >= m_slotKind.size())
        {
            m_slotKind.resize(op.id + 1);
        }
        m_slotKind[op.id] = kind;
        return true;
    }
    ++m_stats.creditStalls;
    return false;
}

bool
UalinkTxQueue::DoIsEmpty() const
{
    return m_queued == 0 && (m_granularity == BURST || m_pending.empty());
}

Ptr<FabricPacket>
UalinkTxQueue::DequeueDlFlit()
{
    // Pack until a whole DL flit of TL sectors is ready or nothing more can be packed.
    while (m_packer->GetHalfFlitPosition() * ualink::HALF_FLIT_SECTORS - m_consumed <
           UalinkDlFramer::PAYLOAD_SECTORS)
    {
        m_placed.clear();
        if (!m_packer->PackNext(&m_placed, false))
        {
            break;
        }
        for (const UalinkTlPacker::Placement& pl : m_placed)
        {
            m_pending.push_back(Pending{(pl.lastFlit + 1) * ualink::TL_FLIT_SECTORS,
                                        m_slots[pl.id],
                                        m_slotKind[pl.id]});
            m_freeSlots.push_back(static_cast<uint32_t>(pl.id));
            --m_queued;
        }
        m_stats.ops += m_placed.size();
    }
    if (m_packer->GetQueuedRequests() + m_packer->GetQueuedResponses() == 0)
    {
        m_packer->Close();
    }
    const uint64_t packed = m_packer->GetHalfFlitPosition() * ualink::HALF_FLIT_SECTORS;
    if (packed <= m_consumed)
    {
        return nullptr;
    }
    // One DL flit takes up to 157 sectors (6.3.4); with fewer ready the rest is zero-filled and
    // the next TL flit starts in the next DL flit.
    const uint64_t take = std::min<uint64_t>(UalinkDlFramer::PAYLOAD_SECTORS, packed - m_consumed);
    m_consumed += take;
    auto segs = std::make_shared<std::vector<FabricPacket::Segment>>();
    m_kinds.clear();
    while (!m_pending.empty() && m_pending.front().endSector <= m_consumed)
    {
        segs->push_back(m_pending.front().seg);
        m_kinds.push_back(m_pending.front().kind);
        m_pending.pop_front();
    }
    uint64_t data = 0;
    for (const FabricPacket::Segment& s : *segs)
    {
        data += (ualink::IsDataRequest(s.op) || s.op == ualink::OP_READ_RSP) ? s.bytes : 0;
    }
    // One codeword slot, plus the slot that carries no DL flit (AM or idle) once every
    // IdlePeriod - 1 DL flits.
    ++m_dlFlits;
    const uint32_t wire = UalinkPhy::CODEWORD_BYTES * (m_dlFlits % (m_idlePeriod - 1) == 0 ? 2 : 1);
    Ptr<FabricPacket> u = Create<FabricPacket>();
    u->src = segs->empty() ? 0 : segs->front().src;
    u->dst = segs->empty() ? 0 : segs->front().dst;
    u->payloadBytes = 0; // the operations' data is counted by the endpoints, per segment
    u->headerBytes = wire;
    u->segments = segs;
    m_busyUntil = FabricClock::Now() + Seconds(static_cast<double>(wire) * 8.0 / m_bps);
    m_idleTold = 0;
    ++m_stats.bursts;
    Pace(take * ualink::SECTOR_BYTES);
    m_stats.halfFlits += take / ualink::HALF_FLIT_SECTORS;
    m_stats.wireBytes += wire;
    m_stats.dataBytes += data;
    if (!m_sentCb.IsNull() && !segs->empty())
    {
        m_sentCb(*segs);
    }
    MarkKinds(segs.get(), m_kinds);
    return u;
}

void
UalinkTxQueue::SetHeld(bool held)
{
    NS_LOG_FUNCTION(this << held);
    m_held = held;
}

std::vector<FabricPacket::Segment>
UalinkTxQueue::DropAll()
{
    NS_LOG_FUNCTION(this);
    std::vector<FabricPacket::Segment> out;
    // Fine mode: operations packed in the TL stream but not yet in a DL flit go too.
    for (const Pending& pd : m_pending)
    {
        out.push_back(pd.seg);
    }
    m_pending.clear();
    std::vector<uint64_t> ids;
    m_packer->TakeAll(&ids);
    for (uint64_t id : ids)
    {
        out.push_back(m_slots[id]);
        m_freeSlots.push_back(static_cast<uint32_t>(id));
        --m_queued;
    }
    m_stats.dropped += out.size();
    return out;
}

void
UalinkTxQueue::SetTlRateLimit(double bytesPerSecond, Callback<void> wake)
{
    NS_LOG_FUNCTION(this << bytesPerSecond);
    NS_ABORT_MSG_IF(bytesPerSecond < 0, "UalinkTxQueue: negative TL rate");
    m_paceBps = bytesPerSecond;
    m_paceWake = wake;
}

void
UalinkTxQueue::Pace(uint64_t tlBytes)
{
    if (m_paceBps > 0)
    {
        // Section 6.5.1: the DL admits a TL flit on the clock ticks its ready signal allows; in
        // the mean, TL bytes at the paced rate from the later of now and the last admission.
        m_paceNext = std::max(m_paceNext, FabricClock::Now().GetSeconds()) +
                     static_cast<double>(tlBytes) / m_paceBps;
    }
}

Ptr<FabricPacket>
UalinkTxQueue::DoDequeue(const FabricTxGate* gate)
{
    NS_LOG_FUNCTION(this);
    DrainCredits();
    Ptr<FabricPacket> p = DequeueUnit();
    // The port calls only with work queued: none handed out means it waits (for credits, the
    // DL, Tx pacing). Returns on their way wake it; with none, the next PushCredits does.
    m_blocked = !p;
    if (m_blocked)
    {
        ScheduleCreditWake();
    }
    return p;
}

Ptr<FabricPacket>
UalinkTxQueue::DequeueUnit()
{
    NS_ABORT_MSG_IF(m_wirePerHf <= 0, "UalinkTxQueue: SetPhy was not called");
    const Time now = FabricClock::Now();
    if (m_held)
    {
        return nullptr; // the DL is not Up (section 6.7.1): the TL keeps what it holds
    }
    if (m_paceBps > 0)
    {
        const Time at = Seconds(m_paceNext);
        if (at > now)
        {
            ++m_stats.paceHolds;
            if (!m_paceEvent.IsRunning() && !m_paceWake.IsNull())
            {
                m_paceEvent = Simulator::Schedule(at - now, m_paceWake);
            }
            return nullptr;
        }
    }
    if (now > m_busyUntil)
    {
        // The link idled: the partner kept retiring its catch buffers, one TL flit time each
        // since the last unit ended; the flits told at an earlier attempt are not told again
        // (the retirement does not depend on how often the port tries).
        const uint64_t idle =
            static_cast<uint64_t>((now - m_busyUntil).GetSeconds() / m_tlFlitSeconds);
        if (idle > m_idleTold)
        {
            m_packer->NotifyIdle(idle - m_idleTold);
            m_idleTold = idle;
        }
    }
    if (m_granularity == DL_FLIT)
    {
        return DequeueDlFlit();
    }
    const uint64_t before = m_packer->GetHalfFlitPosition();
    m_placed.clear();
    if (!m_packer->PackNext(&m_placed, false))
    {
        return nullptr; // every queued operation waits for credits
    }
    if (m_packer->GetQueuedRequests() + m_packer->GetQueuedResponses() == 0)
    {
        m_packer->Close(); // nothing more to pack: the last TL flit goes out now
    }
    const uint64_t hfs = m_packer->GetHalfFlitPosition() - before;
    const double exact = m_carry + static_cast<double>(hfs) * m_wirePerHf;
    const uint64_t wire = static_cast<uint64_t>(std::floor(exact));
    m_carry = exact - static_cast<double>(wire);

    auto segs = std::make_shared<std::vector<FabricPacket::Segment>>();
    segs->reserve(m_placed.size());
    m_kinds.clear();
    uint64_t data = 0;
    for (const UalinkTlPacker::Placement& pl : m_placed)
    {
        const FabricPacket::Segment& s = m_slots[pl.id];
        if (ualink::IsDataRequest(s.op) || s.op == ualink::OP_READ_RSP)
        {
            data += s.bytes;
        }
        segs->push_back(s);
        m_kinds.push_back(m_slotKind[pl.id]);
        m_freeSlots.push_back(static_cast<uint32_t>(pl.id));
        --m_queued;
    }
    Ptr<FabricPacket> p = Create<FabricPacket>();
    const FabricPacket::Segment& first = segs->front();
    p->src = first.src;
    p->dst = first.dst;
    p->tclass = 0;
    p->msgId = first.msgId;
    p->msgBytes = first.msgBytes;
    p->offset = first.offset;
    p->cookie = first.cookie;
    p->posted = first.posted;
    p->payloadBytes = static_cast<uint32_t>(data);
    NS_ASSERT(wire >= data);
    p->headerBytes = static_cast<uint32_t>(wire - data);
    p->segments = segs;
    m_busyUntil = now + Seconds(static_cast<double>(wire) * 8.0 / m_bps);
    m_idleTold = 0;
    ++m_stats.bursts;
    Pace(hfs * ualink::HALF_FLIT_BYTES);
    m_stats.ops += segs->size();
    m_stats.halfFlits += hfs;
    m_stats.wireBytes += wire;
    m_stats.dataBytes += data;
    if (!m_sentCb.IsNull())
    {
        m_sentCb(*segs);
    }
    MarkKinds(segs.get(), m_kinds);
    return p;
}

void
UalinkTxQueue::MarkKinds(std::vector<FabricPacket::Segment>* segs,
                         const std::vector<uint8_t>& kinds)
{
    for (std::size_t i = 0; i < segs->size(); ++i)
    {
        uint8_t& tc = (*segs)[i].tclass;
        tc = (tc & ~ualink::TCLASS_TL_POOL) |
             (kinds[i] == ualink::POOL ? ualink::TCLASS_TL_POOL : 0);
    }
}

void
UalinkTxQueue::PushCredits(const KindCredits& n, Time at, uint64_t epoch, FabricNetDevice* dev)
{
    if (!m_wakeDev)
    {
        m_wakeDev = dev;
        m_wakeContext = dev->GetNode()->GetId();
    }
    // Returns that have arrived since the queue last looked go in first (a wake that found the
    // port busy or its link down leaves them): the head is then always in the future.
    DrainCredits();
    if (m_returns.empty() || m_returns.back().at <= at)
    {
        // One link: a fixed delay from a non-decreasing release time.
        m_returns.push_back(CreditReturn{at, n, epoch});
    }
    else
    {
        // Returns from two paths of different delays (ReleaseCredits of a port that is not the
        // owner of its queue): kept in arrival order, the earlier-pushed first on a tie.
        auto it = std::upper_bound(m_returns.begin(),
                                   m_returns.end(),
                                   at,
                                   [](const Time& t, const CreditReturn& r) { return t < r.at; });
        m_returns.insert(it, CreditReturn{at, n, epoch});
    }
    NoteArrival(at);
    if (m_blocked)
    {
        ScheduleCreditWake();
    }
}

void
UalinkTxQueue::NoteArrival(Time at)
{
    if (at <= s_lastArrival)
    {
        return;
    }
    s_lastArrival = at;
    if (!s_sentinelPending)
    {
        if (!s_resetHooked)
        {
            s_resetHooked = true; // once per simulation
            Simulator::ScheduleDestroy(&UalinkTxQueue::ResetArrivalSentinel);
        }
        s_sentinelPending = true;
        Simulator::Schedule(at - FabricClock::Now(), &UalinkTxQueue::ArrivalSentinel);
    }
}

void
UalinkTxQueue::ArrivalSentinel()
{
    s_sentinelPending = false;
    if (s_lastArrival > FabricClock::Now())
    {
        s_sentinelPending = true;
        Simulator::Schedule(s_lastArrival - FabricClock::Now(), &UalinkTxQueue::ArrivalSentinel);
    }
}

void
UalinkTxQueue::ResetArrivalSentinel()
{
    s_lastArrival = Time(0);
    s_sentinelPending = false;
    s_resetHooked = false;
}

void
UalinkTxQueue::ScheduleCreditWake()
{
    if (m_returns.empty() || !m_wakeDev)
    {
        return;
    }
    const Time at = m_returns.front().at;
    if (m_wakePending && m_wakeAt <= at)
    {
        return; // one wake per queue: the pending one comes first
    }
    // (A pending wake after an earlier return put in front by PushCredits stays: it only wakes
    // the port once more.)
    const Time now = FabricClock::Now();
    NS_ASSERT(at >= now);
    m_wakePending = true;
    m_wakeAt = at;
    Simulator::ScheduleWithContext(m_wakeContext, at - now, &UalinkTxQueue::CreditWake, this);
}

void
UalinkTxQueue::CreditWake()
{
    if (!m_wakeDev || FabricClock::Now() < m_wakeAt)
    {
        return; // disposed, or a wake that an earlier one replaced
    }
    m_wakePending = false;
    // The port dequeues (DoDequeue applies the returns, and wakes it again at the next one if
    // it is still blocked); a busy port dequeues at the end of its transmission.
    m_wakeDev->Wake();
}

void
UalinkTxQueue::DoDrainCredits(Time until)
{
    while (!m_returns.empty() && m_returns.front().at <= until)
    {
        // Applied in order; the entry leaves first (AddCredits does not drain again).
        const CreditReturn r = m_returns.front();
        m_returns.pop_front();
        ApplyReturn(r);
    }
}

void
UalinkTxQueue::SettleCredits()
{
    DoDrainCredits(Time::Max());
}

void
UalinkTxQueue::ApplyReturn(const CreditReturn& r)
{
    if (r.epoch != m_epoch)
    {
        // Released for a link that has been re-initialised since (ReinitLink).
        for (const auto& k : r.n)
        {
            for (uint32_t c : k)
            {
                DiscardStaleCredits(c);
            }
        }
        return;
    }
    for (uint32_t k = 0; k < ualink::N_CREDIT_KINDS; ++k)
    {
        for (uint32_t c = 0; c < ualink::N_CREDIT_CLASSES; ++c)
        {
            if (r.n[k][c] > 0)
            {
                DoAddCredits(static_cast<ualink::CreditClass>(c),
                             static_cast<uint8_t>(k),
                             r.n[k][c]);
            }
        }
    }
}

UalinkTxQueue::Credits
UalinkTxQueue::CreditsOf(const FabricPacket::Segment& s)
{
    const uint32_t beats = ualink::Beats(s.bytes, 0);
    switch (s.op)
    {
    case ualink::OP_WRITE:
    case ualink::OP_ATOMIC_R:
    case ualink::OP_ATOMIC_NR:
    case ualink::OP_WRITE_MESSAGE:
        return {1, 0, beats, 0};
    case ualink::OP_READ:
        return {1, 0, 0, 0};
    case ualink::OP_READ_RSP:
        return {0, 1, 0, beats};
    default:
        return {0, 1, 0, 0};
    }
}

void
UalinkTxQueue::TallyCredits(KindCredits* tally, const FabricPacket::Segment& s)
{
    const Credits c = CreditsOf(s);
    const uint8_t kind = (s.tclass & ualink::TCLASS_TL_POOL) ? ualink::POOL : (s.tclass & 3);
    for (uint32_t k = 0; k < ualink::N_CREDIT_CLASSES; ++k)
    {
        (*tally)[kind][k] += c[k];
    }
}

void
UalinkTxQueue::ReleaseCredits(const Ptr<FabricNetDevice>& rx,
                              const std::vector<FabricPacket::Segment>& segs,
                              Time slot)
{
    KindCredits n{};
    for (const FabricPacket::Segment& s : segs)
    {
        TallyCredits(&n, s);
    }
    ReleaseCredits(rx, n, slot);
}

void
UalinkTxQueue::ReleaseCredits(const Ptr<FabricNetDevice>& rx, const Credits& n, Time slot)
{
    KindCredits k{};
    k[ualink::POOL] = n;
    ReleaseCredits(rx, k, slot);
}

void
UalinkTxQueue::ReleaseCredits(const Ptr<FabricNetDevice>& rx, const KindCredits& n, Time slot)
{
    FabricChannel* ch = PeekPointer(rx->GetFabricChannel());
    if (!ch)
    {
        return;
    }
    UalinkTxQueue* own = dynamic_cast<UalinkTxQueue*>(PeekPointer(rx->GetTxQueue()));
    if (own && own->m_dev == PeekPointer(rx))
    {
        own->Release(n, slot);
        return;
    }
    Ptr<FabricNetDevice> peer = ch->GetPeer(rx);
    if (own)
    {
        own->ReturnOwn(n);
    }
    UalinkTxQueue* peerQ = dynamic_cast<UalinkTxQueue*>(PeekPointer(peer->GetTxQueue()));
    if (!peerQ)
    {
        return; // the partner is no UALink port
    }
    // Credits released for a link that is re-initialised before they arrive are stale: they
    // carry the partner's link epoch of now (without a queue of our own: 0).
    const uint64_t epoch = own ? peerQ->m_epoch : 0;
    peerQ->PushCredits(n,
                       FabricClock::Now() + ch->GetOneWayDelay() + slot,
                       epoch,
                       PeekPointer(peer));
}

void
UalinkTxQueue::ReturnOwn(const KindCredits& n)
{
    for (uint32_t k = 0; k < ualink::N_CREDIT_KINDS; ++k)
    {
        for (uint32_t c = 0; c < ualink::N_CREDIT_CLASSES; ++c)
        {
            if (n[k][c] > 0)
            {
                m_packer->ReturnCredits(static_cast<ualink::CreditClass>(c),
                                        static_cast<uint8_t>(k),
                                        n[k][c]);
            }
        }
    }
}

void
UalinkTxQueue::Release(const std::vector<FabricPacket::Segment>& segs, Time slot)
{
    KindCredits n{};
    for (const FabricPacket::Segment& s : segs)
    {
        TallyCredits(&n, s);
    }
    Release(n, slot);
}

void
UalinkTxQueue::Release(const KindCredits& n, Time slot)
{
    NS_ASSERT(m_dev);
    if (!m_peerDev)
    {
        // The links are fixed once built: the channel, the partner and its queue are found
        // once, on the first return (the channel's object is not read again per burst).
        FabricChannel* ch = PeekPointer(m_dev->GetFabricChannel());
        if (!ch)
        {
            return;
        }
        Ptr<FabricNetDevice> peer = ch->GetPeer(m_dev);
        m_peerDev = PeekPointer(peer);
        m_peerQ = dynamic_cast<UalinkTxQueue*>(PeekPointer(peer->GetTxQueue()));
        m_peerCh = ch;
    }
    ReturnOwn(n);
    if (m_peerQ)
    {
        m_peerQ->PushCredits(n,
                             FabricClock::Now() + m_peerCh->GetOneWayDelay() + slot,
                             m_peerQ->m_epoch,
                             m_peerDev);
    }
}

} // namespace ns3
