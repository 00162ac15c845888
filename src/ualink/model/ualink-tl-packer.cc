/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ualink-tl-packer.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("UalinkTlPacker");
NS_OBJECT_ENSURE_REGISTERED(UalinkTlPacker);

TypeId
UalinkTlPacker::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::UalinkTlPacker")
            .SetParent<Object>()
            .SetGroupName("Ualink")
            .AddConstructor<UalinkTlPacker>()
            .AddAttribute("AddressCache",
                          "The Tx address cache (sections 5.5, 5.6).",
                          PointerValue(),
                          MakePointerAccessor(&UalinkTlPacker::m_cache),
                          MakePointerChecker<UalinkAddressCache>())
            .AddAttribute("UseAddressCache",
                          "Send compressed requests when the address cache hits (the caches are "
                          "optional, section 5.5; off: every request is uncompressed, CLOAD = 0).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&UalinkTlPacker::m_useCache),
                          MakeBooleanChecker())
            .AddAttribute("CacheIndexBySource",
                          "Index the Tx cache by SRCACCID, as a switch does; an accelerator "
                          "indexes it by DSTACCID (section 5.5).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&UalinkTlPacker::m_indexBySource),
                          MakeBooleanChecker())
            .AddAttribute("CompressResponses",
                          "Send OKAY responses as 1-sector compressed fields (sections 5.9.4, "
                          "5.9.5); otherwise every response is a 2-sector uncompressed field.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&UalinkTlPacker::m_compressResponses),
                          MakeBooleanChecker())
            .AddAttribute("Authentication",
                          "Authentication on the TL channel: an AuthTags half-flit follows each "
                          "control half-flit holding requests or responses (section 5.1.1).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&UalinkTlPacker::m_auth),
                          MakeBooleanChecker())
            .AddAttribute("CatchLimits",
                          "Hold the receiver catch limits of section 5.7 (4 requests, 8 "
                          "responses not yet retired, one of each retired per TL flit).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&UalinkTlPacker::m_catchLimits),
                          MakeBooleanChecker())
            .AddAttribute("WriteMessageByteEnables",
                          "A UPLI Write Message carries a byte-enable half-flit (section 5.1.1 "
                          "names only Write and vendor-defined commands, Table 9-9 gives a Write "
                          "Message byte enables; default: yes).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&UalinkTlPacker::m_wmBe),
                          MakeBooleanChecker())
            .AddAttribute("StrictOrdering",
                          "Strict ordering mode (section 2.7.9): every request stays in order. "
                          "Off: a request may pass earlier ones held by credits unless they go to "
                          "the same 256 B region on the same VC.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&UalinkTlPacker::m_strict),
                          MakeBooleanChecker())
            .AddAttribute("BypassDepth",
                          "How many queued requests behind a credit-blocked head are looked at for "
                          "one that may pass it (non-strict ordering).",
                          UintegerValue(16),
                          MakeUintegerAccessor(&UalinkTlPacker::m_bypassDepth),
                          MakeUintegerChecker<uint32_t>(0, 1024))
            .AddAttribute("FlowControlCmdThreshold",
                          "Command credits (per class and VC or pool) queued for return that make "
                          "the next control half-flit reserve an FC field; below it FC fields only "
                          "fill sectors nothing else uses (picking policy: the spec leaves it to "
                          "the implementation).",
                          UintegerValue(ualink::FC_MAX_CMD_CREDITS),
                          MakeUintegerAccessor(&UalinkTlPacker::m_fcCmdThreshold),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("FlowControlDataThreshold",
                          "Data credits (per class and VC or pool) queued for return that make "
                          "the next control half-flit reserve an FC field.",
                          UintegerValue(ualink::FC_MAX_DATA_CREDITS),
                          MakeUintegerAccessor(&UalinkTlPacker::m_fcDataThreshold),
                          MakeUintegerChecker<uint32_t>(1));
    return tid;
}

UalinkTlPacker::UalinkTlPacker()
{
    NS_LOG_FUNCTION(this);
    m_cache = CreateObject<UalinkAddressCache>();
}

UalinkTlPacker::~UalinkTlPacker()
{
    NS_LOG_FUNCTION(this);
}

void
UalinkTlPacker::DoDispose()
{
    m_cache = nullptr;
    m_reqQueue.clear();
    m_rspQueue.clear();
    m_gate = Callback<bool, const UalinkTlOp&>();
    Object::DoDispose();
}

std::vector<UalinkTlPacker::Placement>
UalinkTlPacker::AddControl(const UalinkControlHalfFlit& c)
{
    std::vector<Placement> out;
    out.reserve(c.GetRequests() + c.GetResponses());
    AddControl(c, &out);
    return out;
}

void
UalinkTlPacker::AddControl(const UalinkControlHalfFlit& c, std::vector<Placement>* out)
{
    NS_LOG_FUNCTION(this << c.ToString());
    const uint64_t c0 = m_next;
    const bool holdsOps = c.GetRequests() + c.GetResponses() > 0;
    NS_ABORT_MSG_IF(m_auth && holdsOps && m_swapPending,
                    "UalinkTlPacker: with authentication, a control half-flit sharing its TL flit "
                    "with a swapped data half-flit may carry only FC and NOP fields (5.1.1)");
    NS_ABORT_MSG_IF(m_auth && holdsOps &&
                        c.GetRequests() + c.GetResponses() > ualink::AUTH_TAGS_PER_HALF_FLIT,
                    "UalinkTlPacker: with authentication, at most 4 requests and responses per "
                    "control half-flit (5.1.1)");
    // Section 5.7: the receiver retires one request and one response per TL flit; a transmitter
    // keeps at most 4 requests and 8 responses unretired, counting this TL flit's.
    Retire(c0 / 2);
    m_reqCatch += c.GetRequests();
    m_rspCatch += c.GetResponses();
    NS_ABORT_MSG_IF(m_catchLimits && (m_reqCatch > ualink::CATCH_LIMIT_REQUESTS ||
                                      m_rspCatch > ualink::CATCH_LIMIT_RESPONSES),
                    "UalinkTlPacker: control half-flit overruns the receiver catch buffers (5.7)");
    ++m_stats.controlHalfFlits;
    m_stats.nopControlHalfFlits += c.IsNop() ? 1 : 0;
    m_stats.flowControlFields += c.GetFlowControlFields();

    // First half-flit free for data: after the control half-flit, after a swapped data half-flit
    // already in this TL flit's upper half, or after the AuthTags half-flit.
    uint64_t first = c0 + 1;
    if (m_swapPending)
    {
        first = c0 + 2;
    }
    else if (m_auth && holdsOps)
    {
        first = c0 + 2;
        ++m_stats.authTagHalfFlits;
    }
    const uint64_t d = c.GetDataHalfFlits();
    const uint64_t last = first + d - 1; // meaningful when d > 0
    const bool swap = d > 0 && last % 2 == 0;

    uint64_t cursor = first;
    std::array<const UalinkControlHalfFlit::Field*, ualink::HALF_FLIT_SECTORS> sorted;
    const uint32_t nFields = c.GetSortedFields(&sorted);
    for (uint32_t i = 0; i < nFields; ++i)
    {
        const UalinkControlHalfFlit::Field& f = *sorted[i];
        if (f.type == ualink::FTYPE_FC_NOP)
        {
            continue;
        }
        Placement p;
        p.id = f.op.id;
        p.kind = f.op.kind;
        p.field = f.type;
        p.controlFlit = c0 / 2;
        uint64_t lastHf = c0;
        if (f.dataHalfFlits > 0)
        {
            cursor += f.dataHalfFlits;
            lastHf = cursor - 1;
            if (swap && lastHf == last)
            {
                lastHf = last + 1;
            }
        }
        p.lastFlit = lastHf / 2;
        out->push_back(p);
        if (ualink::IsRequestField(f.type))
        {
            ++m_stats.requests;
            m_stats.compressedRequests += f.type == ualink::FTYPE_COMPRESSED_REQUEST ? 1 : 0;
            const bool be = f.op.cmd == ualink::WRITE || f.op.cmd == ualink::ATOMIC_R ||
                            f.op.cmd == ualink::ATOMIC_NR ||
                            (f.op.cmd == ualink::WRITE_MESSAGE && m_wmBe);
            m_stats.byteEnableHalfFlits += be ? 1 : 0;
        }
        else
        {
            ++m_stats.responses;
            m_stats.compressedResponses += f.type != ualink::FTYPE_UNCOMPRESSED_RESPONSE ? 1 : 0;
        }
        m_stats.poisonMessages += f.op.poisoned ? 1 : 0;
    }
    m_stats.dataHalfFlits += d;
    m_stats.dataBytes += c.GetDataBytes();

    if (d == 0)
    {
        if (first == c0 + 1)
        {
            ++m_stats.mandatoryNops; // section 5.1.1: MANDATORY NOP in the upper half
        }
        m_next = c0 + 2;
        m_swapPending = false;
    }
    else if (swap)
    {
        // Section 5.1.1: the last data half-flit moves up; the lower half is the next control.
        ++m_stats.swaps;
        m_next = last;
        m_swapPending = true;
    }
    else
    {
        m_next = last + 1;
        m_swapPending = false;
    }
}

void
UalinkTlPacker::AddMessage(uint8_t type)
{
    NS_LOG_FUNCTION(this << unsigned(type));
    NS_ABORT_MSG_IF(type == 0x20,
                    "UalinkTlPacker: poisoned-data messages replace data (AddPoison)");
    // Section 5.1.2: the message takes the control position; the upper half is the swapped data
    // half-flit or a MANDATORY NOP.
    ++m_stats.messageHalfFlits;
    if (!m_swapPending)
    {
        ++m_stats.mandatoryNops;
    }
    m_next += 2;
    m_swapPending = false;
}

void
UalinkTlPacker::AddPoison()
{
    ++m_stats.poisonMessages;
}

void
UalinkTlPacker::Close()
{
    NS_LOG_FUNCTION(this);
    if (m_swapPending)
    {
        ++m_stats.controlHalfFlits;
        ++m_stats.nopControlHalfFlits;
        m_next += 2;
        m_swapPending = false;
    }
}

double
UalinkTlPacker::GetEfficiency() const
{
    const uint64_t flits = GetTlFlits();
    return flits == 0 ? 0.0
                      : static_cast<double>(m_stats.dataBytes) /
                            static_cast<double>(flits * ualink::TL_FLIT_BYTES);
}

void
UalinkTlPacker::Enqueue(const UalinkTlOp& op)
{
    NS_LOG_FUNCTION(this << op.id << unsigned(op.kind));
    NS_ABORT_MSG_IF(op.bytes > ualink::MAX_REQUEST_BYTES,
                    "UalinkTlPacker: an operation moves at most 256 B (2.7.4)");
    NS_ABORT_MSG_IF(op.bytes > 0 && op.addr / ualink::MAX_REQUEST_BYTES !=
                                        (op.addr + op.bytes - 1) / ualink::MAX_REQUEST_BYTES,
                    "UalinkTlPacker: an operation may not cross a 256 B boundary (2.7.4)");
    if (op.kind == UalinkTlOp::REQUEST)
    {
        m_reqQueue.push_back(Queued{op, ualink::FTYPE_FC_NOP});
    }
    else
    {
        m_rspQueue.push_back(Queued{op, ClassifyResponse(op)});
    }
}

void
UalinkTlPacker::TakeAll(std::vector<uint64_t>* ids)
{
    NS_LOG_FUNCTION(this);
    for (std::deque<Queued>* q : {&m_reqQueue, &m_rspQueue})
    {
        for (const Queued& e : *q)
        {
            ids->push_back(e.op.id);
        }
        q->clear();
    }
}

void
UalinkTlPacker::ReturnCredits(ualink::CreditClass cls, uint8_t kind, uint32_t n)
{
    NS_ABORT_MSG_IF(kind >= ualink::N_CREDIT_KINDS, "UalinkTlPacker: bad credit kind");
    m_credits[cls][kind] += n;
}

uint64_t
UalinkTlPacker::GetPendingCredits() const
{
    uint64_t sum = 0;
    for (const auto& cls : m_credits)
    {
        for (uint32_t n : cls)
        {
            sum += n;
        }
    }
    return sum;
}

ualink::FieldType
UalinkTlPacker::ClassifyRequest(const UalinkTlOp& op)
{
    // Table 5-32: only Read, Write and WriteFull compress; 64 B aligned, a whole number of beats
    // (the 2-bit LEN), within one 256 B block; and the region must hit in the Tx cache.
    const bool eligible =
        (op.cmd == ualink::READ || op.cmd == ualink::WRITE || op.cmd == ualink::WRITE_FULL) &&
        op.addr % ualink::BEAT_BYTES == 0 && op.bytes > 0 && op.bytes % ualink::BEAT_BYTES == 0;
    if (!m_useCache || !eligible)
    {
        return ualink::FTYPE_UNCOMPRESSED_REQUEST;
    }
    const uint16_t row = m_indexBySource ? op.src : op.dst;
    const UalinkAddressCache::Result r = m_cache->Access(row, op.addr);
    return r.hit ? ualink::FTYPE_COMPRESSED_REQUEST : ualink::FTYPE_UNCOMPRESSED_REQUEST;
}

ualink::FieldType
UalinkTlPacker::ClassifyResponse(const UalinkTlOp& op) const
{
    if (!m_compressResponses || op.status != ualink::OKAY)
    {
        return ualink::FTYPE_UNCOMPRESSED_RESPONSE;
    }
    const bool singleBeatRead =
        op.kind == UalinkTlOp::READ_RESPONSE && ualink::Beats(op.bytes, op.addr) == 1;
    return singleBeatRead ? ualink::FTYPE_COMPRESSED_READ_RESPONSE
                          : ualink::FTYPE_COMPRESSED_RESPONSE;
}

uint32_t
UalinkTlPacker::GetRequestAllowance()
{
    Retire(m_next / 2);
    return ualink::CATCH_LIMIT_REQUESTS - m_reqCatch;
}

void
UalinkTlPacker::Retire(uint64_t flit)
{
    const uint64_t elapsed = flit - m_catchFlit;
    m_reqCatch = elapsed >= m_reqCatch ? 0 : m_reqCatch - static_cast<uint32_t>(elapsed);
    m_rspCatch = elapsed >= m_rspCatch ? 0 : m_rspCatch - static_cast<uint32_t>(elapsed);
    m_catchFlit = flit;
}

bool
UalinkTlPacker::FcDue() const
{
    for (uint32_t c = 0; c < ualink::N_CREDIT_CLASSES; ++c)
    {
        const uint32_t threshold =
            (c == ualink::REQ_CMD || c == ualink::RSP_CMD) ? m_fcCmdThreshold : m_fcDataThreshold;
        for (uint32_t n : m_credits[c])
        {
            if (n >= threshold)
            {
                return true;
            }
        }
    }
    return false;
}

bool
UalinkTlPacker::AddFcField(
    UalinkControlHalfFlit& c,
    std::array<std::array<bool, ualink::N_CREDIT_KINDS>, ualink::N_CREDIT_CLASSES>& used)
{
    std::array<std::pair<uint8_t, uint8_t>, ualink::N_CREDIT_CLASSES> field{};
    bool any = false;
    for (uint32_t cls = 0; cls < ualink::N_CREDIT_CLASSES; ++cls)
    {
        const uint32_t max = (cls == ualink::REQ_CMD || cls == ualink::RSP_CMD)
                                 ? ualink::FC_MAX_CMD_CREDITS
                                 : ualink::FC_MAX_DATA_CREDITS;
        // The kind with the most credits waiting that no other FC field of this half-flit uses
        // (section 5.7: one non-zero field per class and VC or pool per control half-flit).
        int best = -1;
        for (uint32_t k = 0; k < ualink::N_CREDIT_KINDS; ++k)
        {
            if (m_credits[cls][k] > 0 && !used[cls][k] &&
                (best < 0 || m_credits[cls][k] > m_credits[cls][best]))
            {
                best = static_cast<int>(k);
            }
        }
        if (best >= 0)
        {
            const uint32_t n = std::min(max, m_credits[cls][best]);
            field[cls] = {static_cast<uint8_t>(best), static_cast<uint8_t>(n)};
            any = true;
        }
    }
    if (!any || !c.AddFlowControl(field))
    {
        return false;
    }
    for (uint32_t cls = 0; cls < ualink::N_CREDIT_CLASSES; ++cls)
    {
        if (field[cls].second > 0)
        {
            m_credits[cls][field[cls].first] -= field[cls].second;
            used[cls][field[cls].first] = true;
        }
    }
    return true;
}

bool
UalinkTlPacker::TakeBypass(UalinkControlHalfFlit& c, uint32_t reserve)
{
    const ualink::FieldType type = ualink::FTYPE_UNCOMPRESSED_REQUEST;
    if (ualink::FieldSectors(type) + reserve > c.GetFreeSectors())
    {
        return false;
    }
    const std::size_t n = std::min<std::size_t>(m_reqQueue.size(), m_bypassDepth + 1);
    for (std::size_t j = 1; j < n; ++j)
    {
        const UalinkTlOp& op = m_reqQueue[j].op;
        bool mayPass = true;
        for (std::size_t i = 0; i < j && mayPass; ++i)
        {
            const UalinkTlOp& earlier = m_reqQueue[i].op;
            mayPass =
                earlier.vc != op.vc || earlier.dst != op.dst ||
                earlier.addr / ualink::MAX_REQUEST_BYTES != op.addr / ualink::MAX_REQUEST_BYTES;
        }
        if (mayPass && m_gate(op))
        {
            ++m_stats.bypasses;
            c.AddField(type, op);
            m_reqQueue.erase(m_reqQueue.begin() + static_cast<std::ptrdiff_t>(j));
            return true;
        }
    }
    return false;
}

void
UalinkTlPacker::NotifyIdle(uint64_t tlFlits)
{
    // The receiver keeps retiring one request and one response per TL flit while the link idles.
    m_reqCatch = tlFlits >= m_reqCatch ? 0 : m_reqCatch - static_cast<uint32_t>(tlFlits);
    m_rspCatch = tlFlits >= m_rspCatch ? 0 : m_rspCatch - static_cast<uint32_t>(tlFlits);
}

void
UalinkTlPacker::ResetLink()
{
    NS_LOG_FUNCTION(this);
    if (m_cache)
    {
        m_cache->Clear();
    }
    m_reqCatch = 0;
    m_rspCatch = 0;
    m_credits = {};
}

bool
UalinkTlPacker::PackNext(std::vector<Placement>* out, bool allowFcOnly)
{
    NS_LOG_FUNCTION(this);
    if (m_reqQueue.empty() && m_rspQueue.empty() && (GetPendingCredits() == 0 || !allowFcOnly))
    {
        return false;
    }
    const uint64_t flit = m_next / 2;
    Retire(flit);
    UalinkControlHalfFlit c;
    c.SetWriteMessageByteEnables(m_wmBe);
    std::array<std::array<bool, ualink::N_CREDIT_KINDS>, ualink::N_CREDIT_CLASSES> used{};
    // Credits that reached their threshold keep one sector for an FC field.
    const uint32_t reserve = FcDue() ? 1 : 0;
    // With authentication: at most 4 requests and responses, none when the upper half holds a
    // swapped data half-flit (section 5.1.1).
    uint32_t opsLeft = m_auth ? (m_swapPending ? 0 : ualink::AUTH_TAGS_PER_HALF_FLIT) : 1000;
    uint32_t reqLeft = m_catchLimits ? ualink::CATCH_LIMIT_REQUESTS - m_reqCatch : 1000;
    uint32_t rspLeft = m_catchLimits ? ualink::CATCH_LIMIT_RESPONSES - m_rspCatch : 1000;
    bool reqBlockedByCatch = false;
    const auto fits = [&c, reserve](ualink::FieldType t) {
        return ualink::FieldSectors(t) + reserve <= c.GetFreeSectors();
    };
    while (opsLeft > 0)
    {
        if (!m_reqQueue.empty() && m_reqQueue.front().field == ualink::FTYPE_FC_NOP)
        {
            m_reqQueue.front().field = ClassifyRequest(m_reqQueue.front().op);
        }
        const bool reqFits = !m_reqQueue.empty() && fits(m_reqQueue.front().field);
        const bool rspFits = !m_rspQueue.empty() && fits(m_rspQueue.front().field);
        reqBlockedByCatch |= reqFits && reqLeft == 0;
        bool canReq = reqFits && reqLeft > 0;
        bool canRsp = rspFits && rspLeft > 0;
        if (!canReq && !canRsp)
        {
            break;
        }
        // Responses drain opportunistically into free sectors (section 5.5); requests keep their
        // order. Take from the longer queue, responses first on a tie (they must never block).
        const bool takeReq = canReq && (!canRsp || m_reqQueue.size() > m_rspQueue.size());
        std::deque<Queued>& q = takeReq ? m_reqQueue : m_rspQueue;
        if (!m_gate.IsNull() && !m_gate(q.front().op))
        {
            // No TL credit for the head of this queue: in non-strict ordering a later request
            // may pass it (section 2.7.9: only requests to the same 256 B region on the same VC
            // stay ordered), e.g. a read passing writes that wait for ReqData credits; it goes
            // uncompressed with CLOAD = 0, always legal (section 5.6.2). Otherwise stop taking
            // from this queue in this half-flit (requests blocked by credits never block
            // responses, section 10.4).
            if (takeReq && !m_strict && TakeBypass(c, reserve))
            {
                --opsLeft;
                --reqLeft;
                continue;
            }
            (takeReq ? reqLeft : rspLeft) = 0;
            continue;
        }
        c.AddField(q.front().field, q.front().op);
        q.pop_front();
        --opsLeft;
        --(takeReq ? reqLeft : rspLeft);
    }
    m_stats.catchLimitedRequests += reqBlockedByCatch ? 1 : 0;
    if (c.IsNop() && !allowFcOnly)
    {
        return false; // nothing could go (credits): keep the credits for a later half-flit
    }
    // Sectors nothing else uses carry credits for free.
    while (c.GetFreeSectors() > 0 && AddFcField(c, used))
    {
    }
    if (c.IsNop())
    {
        return false;
    }
    if (out)
    {
        AddControl(c, out);
    }
    else
    {
        std::vector<Placement> ignored;
        AddControl(c, &ignored);
    }
    return true;
}

} // namespace ns3
