/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "sue-packer.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/fabric-clock.h"
#include "ns3/fabric-packet.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SuePacker");
NS_OBJECT_ENSURE_REGISTERED(SuePacker);

TypeId
SuePacker::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SuePacker")
            .SetParent<FabricTxQueue>()
            .SetGroupName("Sue")
            .AddConstructor<SuePacker>()
            .AddAttribute("PackingLimit",
                          "Most bytes of packed transactions (control and data) per PDU: 2 KB "
                          "in the example of SUE RM102 section 4.4, at most 4096 (section 3.3); "
                          "SUE Lite packs at most 1 KB (SUE Lite spec section 3.4).",
                          UintegerValue(2048),
                          MakeUintegerAccessor(&SuePacker::m_limit),
                          MakeUintegerChecker<uint32_t>(1, SueFraming::MAX_PDU_BYTES))
            .AddAttribute("ControlBytes",
                          "Control bytes carried per transaction: the 144-bit tx_control field "
                          "of SUE RM102 Table 1 (command, length and opaque fields).",
                          UintegerValue(18),
                          MakeUintegerAccessor(&SuePacker::m_controlBytes),
                          MakeUintegerChecker<uint32_t>(2, 256))
            .AddAttribute("MaxDataBytes",
                          "Most data bytes per transaction (SUE RM102 section 3.2.1: 256 B).",
                          UintegerValue(256),
                          MakeUintegerAccessor(&SuePacker::m_maxData),
                          MakeUintegerChecker<uint32_t>(1, SueFraming::MAX_DATA_BYTES))
            .AddAttribute("HeaderFormat",
                          "Network header of each PDU (SUE RM102 section 3.4.1).",
                          EnumValue(SueFraming::AFH_GEN2_12),
                          MakeEnumAccessor(&SuePacker::m_format),
                          MakeEnumChecker(SueFraming::ETHERNET_IPV4,
                                          "EthernetIpv4",
                                          SueFraming::ETHERNET_IPV6,
                                          "EthernetIpv6",
                                          SueFraming::AFH_GEN1,
                                          "AfhGen1",
                                          SueFraming::AFH_GEN1_SHIM,
                                          "AfhGen1Shim",
                                          SueFraming::AFH_GEN2_12,
                                          "AfhGen2_12",
                                          SueFraming::AFH_GEN2_6,
                                          "AfhGen2_6"))
            .AddAttribute("ShimBytes",
                          "Size of the AFH Gen 1 shim header (bytes; its figure is not in the "
                          "text: the IPv4 header's 20 B by default).",
                          UintegerValue(20),
                          MakeUintegerAccessor(&SuePacker::m_shimBytes),
                          MakeUintegerChecker<uint32_t>(0, 256))
            .AddAttribute("Lite",
                          "SUE Lite framing: no reliability header and no R-CRC (SUE Lite spec "
                          "section 3.4).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&SuePacker::m_lite),
                          MakeBooleanChecker())
            .AddAttribute("TxCredits",
                          "Command interface credits per {destination, VC} (SUE RM102 section "
                          "3.2.1; transactions): most transactions of one queue inside SUE. The "
                          "XPU refills a queue as soon as its transactions are packed, so a PDU "
                          "carries at most this many of its queue. 0: unlimited (the spec gives "
                          "no number).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&SuePacker::m_credits),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("CommandRate",
                          "Aggregate rate limit of the command interface (section 3.2.1; bit/s "
                          "of transaction control and data into SUE), as a token bucket of "
                          "CommandBurst bytes: a PDU waits until its transactions have crossed "
                          "the interface. 0: unlimited (the spec gives no number).",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&SuePacker::m_rate),
                          MakeDataRateChecker())
            .AddAttribute("CommandBurst",
                          "Bytes the command interface can have delivered ahead of packing "
                          "(the token bucket's depth; bytes). Default: one 4096 B PDU.",
                          UintegerValue(SueFraming::MAX_PDU_BYTES),
                          MakeUintegerAccessor(&SuePacker::m_burst),
                          MakeUintegerChecker<uint32_t>(1));
    return tid;
}

SuePacker::SuePacker()
{
    NS_LOG_FUNCTION(this);
}

SuePacker::~SuePacker()
{
    NS_LOG_FUNCTION(this);
}

void
SuePacker::DoDispose()
{
    m_wakeEvent.Cancel();
    m_wakeCb = MakeNullCallback<void>();
    m_index.Clear();
    m_queues.clear();
    m_freeSlots.clear();
    m_active.clear();
    FabricTxQueue::DoDispose();
}

uint32_t
SuePacker::GetOverheadBytes() const
{
    return SueFraming::PduOverheadBytes(m_format, m_lite, m_shimBytes);
}

uint32_t
SuePacker::FlowHash(uint32_t src, uint32_t dst)
{
    uint64_t h = (static_cast<uint64_t>(src) << 32) ^ dst;
    h ^= h >> 31;
    h *= 0x9e3779b97f4a7c15ull;
    return static_cast<uint32_t>(h >> 32);
}

SuePacker::LoneWire
SuePacker::GetLoneWire(uint64_t bytes, uint32_t interframeBytes) const
{
    // Plan() on a queue holding this one message: every PDU but the last two takes k full
    // transactions (k: as many as PackingLimit and TxCredits allow); the last one with full
    // transactions takes the tail transaction too if it still fits, else the tail goes alone.
    const uint64_t c = m_controlBytes;
    const uint64_t d = m_maxData;
    const uint64_t maxTrans = m_credits > 0 ? m_credits : ~uint64_t(0);
    const uint64_t k = std::max<uint64_t>(1, std::min<uint64_t>(m_limit / (c + d), maxTrans));
    const uint32_t overhead = GetOverheadBytes();
    LoneWire w;
    const auto add = [&w, overhead, interframeBytes](uint64_t packed, uint64_t count) {
        const uint64_t wire =
            SueFraming::FrameBytes(static_cast<uint32_t>(packed), overhead) + interframeBytes;
        w.wireBytes += count * wire;
        w.pdus += count;
        w.largestPdu = std::max<uint32_t>(w.largestPdu, static_cast<uint32_t>(wire));
    };
    const uint64_t full = bytes / d;
    const uint64_t tail = bytes % d;
    bool tailAlone = tail > 0;
    if (full > 0)
    {
        const uint64_t n = (full + k - 1) / k;
        const uint64_t last = full - (n - 1) * k;
        if (n > 1)
        {
            add(k * (c + d), n - 1);
        }
        uint64_t packed = last * (c + d);
        if (tail > 0 && packed + c + tail <= m_limit && last < maxTrans)
        {
            packed += c + tail;
            tailAlone = false;
        }
        add(packed, 1);
    }
    if (tailAlone)
    {
        add(c + tail, 1);
    }
    return w;
}

void
SuePacker::Add(const Piece& p)
{
    NS_ABORT_MSG_IF(m_limit < m_controlBytes + m_maxData,
                    "SuePacker: PackingLimit " << m_limit << " is below one transaction ("
                                               << m_controlBytes + m_maxData << " B)");
    const uint64_t key = Key(p.msg.dst, p.msg.tclass);
    uint32_t slot = m_index.Find(key);
    if (slot == FabricFlatIndex<uint64_t>::NONE)
    {
        // A queue becomes non-empty: take an emptied one's slot (its piece vector keeps its
        // capacity) or a new one.
        if (m_freeSlots.empty())
        {
            slot = static_cast<uint32_t>(m_queues.size());
            m_queues.emplace_back();
        }
        else
        {
            slot = m_freeSlots.back();
            m_freeSlots.pop_back();
        }
        m_queues[slot].key = key;
        m_index.Insert(key, slot);
        if (p.msg.tclass >= m_active.size())
        {
            m_active.resize(p.msg.tclass + 1);
        }
        m_active[p.msg.tclass].push_back(slot);
    }
    m_queues[slot].pieces.push_back(p);
    m_backlog += p.end - p.next;
}

void
SuePacker::Enqueue(const FabricMessage& m)
{
    NS_LOG_FUNCTION(this << m.id << m.dst << m.bytes);
    Add(Piece{m, 0, m.bytes});
}

void
SuePacker::EnqueueOp(const FabricMessage& m, uint8_t op)
{
    NS_LOG_FUNCTION(this << m.id << m.dst << unsigned(op));
    Piece p{m, 0, op == 1 ? 0 : m.bytes};
    p.op = op;
    Add(p);
}

void
SuePacker::Requeue(const FabricMessage& m, uint64_t offset, uint64_t bytes)
{
    NS_LOG_FUNCTION(this << m.id << offset << bytes);
    Add(Piece{m, offset, offset + bytes});
}

void
SuePacker::SetWakeCallback(Callback<void> cb)
{
    m_wakeCb = cb;
}

bool
SuePacker::TakeTokens(uint64_t bytes)
{
    if (m_rate.GetBitRate() == 0)
    {
        return true;
    }
    const Time now = FabricClock::Now();
    const double perPs = m_rate.GetBitRate() / 8.0 / 1e12;
    m_tokens = std::min<double>(m_burst, m_tokens + (now - m_tokensAt).GetPicoSeconds() * perPs);
    m_tokensAt = now;
    // A PDU larger than the bucket needs a full bucket (it then goes at the interface's rate).
    const double need = std::min<double>(bytes, m_burst);
    if (m_tokens + 1e-9 >= need)
    {
        m_tokens -= std::min<double>(m_tokens, static_cast<double>(bytes));
        if (bytes > m_burst)
        {
            m_tokens -= bytes - m_burst; // a debt, repaid before the next PDU
        }
        return true;
    }
    ++m_rateStalls;
    if (!m_wakeEvent.IsRunning() && !m_wakeCb.IsNull())
    {
        const int64_t wait = static_cast<int64_t>(std::ceil((need - m_tokens) / perPs));
        Callback<void> cb = m_wakeCb;
        m_wakeEvent =
            Simulator::Schedule(PicoSeconds(std::max<int64_t>(1, wait)), [cb]() { cb(); });
    }
    return false;
}

bool
SuePacker::DoIsEmpty() const
{
    return m_index.Size() == 0;
}

void
SuePacker::Plan(const Queue& q,
                uint64_t& dataBytes,
                uint64_t& packedBytes,
                uint64_t& transactions,
                uint64_t& pieces) const
{
    const uint64_t c = m_controlBytes;
    const uint64_t d = m_maxData;
    dataBytes = 0;
    packedBytes = 0;
    transactions = 0;
    pieces = 0;
    const uint64_t maxTrans = m_credits > 0 ? m_credits : ~uint64_t(0);
    for (const Piece& p : q.pieces)
    {
        if (p.op == 1)
        {
            // A read request: one transaction of control only.
            if (packedBytes + c > m_limit || transactions >= maxTrans)
            {
                return;
            }
            packedBytes += c;
            ++transactions;
            ++pieces;
            continue;
        }
        const uint64_t r = p.end - p.next;
        const uint64_t full = r / d;
        const uint64_t tail = r % d;
        const uint64_t take =
            std::min({full, (m_limit - packedBytes) / (c + d), maxTrans - transactions});
        dataBytes += take * d;
        packedBytes += take * (c + d);
        transactions += take;
        pieces += take > 0 ? 1 : 0;
        if (take < full)
        {
            return; // the limit is reached inside this piece
        }
        if (tail > 0)
        {
            if (packedBytes + c + tail > m_limit || transactions >= maxTrans)
            {
                return;
            }
            dataBytes += tail;
            packedBytes += c + tail;
            ++transactions;
            pieces += take > 0 ? 0 : 1;
        }
    }
}

Ptr<FabricPacket>
SuePacker::DoDequeue(const FabricTxGate* gate)
{
    const uint32_t overhead = GetOverheadBytes();
    const uint32_t nVc = m_active.size();
    for (uint32_t i = 0; i < nVc; ++i)
    {
        const uint32_t vc = (m_nextVc + i) % nVc;
        std::deque<uint32_t>& active = m_active[vc];
        for (std::size_t n = active.size(); n > 0; --n)
        {
            const uint32_t key = active.front(); // the queue's slot
            active.pop_front();
            Queue& q = m_queues[key];
            uint64_t data = 0;
            uint64_t packed = 0;
            uint64_t trans = 0;
            uint64_t npieces = 0;
            Plan(q, data, packed, trans, npieces);
            const Piece& head = q.pieces.front();
            const uint32_t frame = SueFraming::FrameBytes(packed, overhead);
            if (gate && !gate->CanSend(vc, frame, head.msg.dst))
            {
                active.push_back(key); // not eligible now: keep its turn order
                continue;
            }
            if (!TakeTokens(packed))
            {
                // The command interface has not delivered this PDU's transactions yet: it is
                // still this queue's turn when it has.
                active.push_front(key);
                return nullptr;
            }
            // Build the PDU from the queue's head pieces.
            Ptr<FabricPacket> p = Create<FabricPacket>();
            p->src = m_localId;
            p->dst = head.msg.dst;
            p->tclass = vc;
            p->msgId = head.msg.id;
            p->msgBytes = head.msg.bytes;
            p->cookie = head.msg.cookie;
            p->posted = head.msg.posted;
            p->offset = head.next;
            p->payloadBytes = static_cast<uint32_t>(data);
            p->headerBytes = frame - static_cast<uint32_t>(data);
            p->flowHash = FlowHash(m_localId, head.msg.dst);
            // One piece (the common case) needs no segment list: the unit's fields say it all.
            std::vector<FabricPacket::Segment> segs;
            FabricPacket::Segment first;
            uint64_t left = data;
            bool withOp = false;
            for (uint64_t k = 0; k < npieces; ++k)
            {
                Piece& pc = q.pieces.front();
                const uint64_t take = std::min(left, pc.end - pc.next);
                FabricPacket::Segment s;
                s.msgId = pc.msg.id;
                s.msgBytes = pc.msg.bytes;
                s.offset = pc.next;
                s.cookie = pc.msg.cookie;
                s.posted = pc.msg.posted;
                s.bytes = static_cast<uint32_t>(take);
                s.tclass = vc;
                s.op = pc.op;
                withOp = withOp || pc.op != 0;
                if (k == 0)
                {
                    first = s;
                }
                else
                {
                    if (segs.empty())
                    {
                        segs.push_back(first);
                    }
                    segs.push_back(s);
                }
                pc.next += take;
                left -= take;
                if (pc.next == pc.end)
                {
                    q.pieces.pop_front();
                }
            }
            if (segs.empty() && withOp)
            {
                segs.push_back(first); // an operation other than a write is always listed
            }
            if (!segs.empty())
            {
                p->segments =
                    std::make_shared<const std::vector<FabricPacket::Segment>>(std::move(segs));
            }
            m_backlog -= data;
            ++m_pdus;
            m_transactions += trans;
            if (q.pieces.empty())
            {
                m_index.Erase(q.key);
                m_freeSlots.push_back(key);
            }
            else
            {
                active.push_back(key);
            }
            m_nextVc = (vc + 1) % nVc;
            return p;
        }
    }
    return nullptr;
}

} // namespace ns3
