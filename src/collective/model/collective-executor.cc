/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "collective-executor.h"

#include "collective-dispatcher.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CollectiveExecutor");
NS_OBJECT_ENSURE_REGISTERED(CollectiveExecutor);

TypeId
CollectiveExecutor::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CollectiveExecutor")
            .SetParent<Object>()
            .SetGroupName("Collective")
            .AddConstructor<CollectiveExecutor>()
            .AddAttribute("Chunks",
                          "Parts the data is split into, each running the whole schedule "
                          "(chunks).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&CollectiveExecutor::m_chunks),
                          MakeUintegerChecker<uint32_t>(1, CollectiveDispatcher::MAX_CHUNK + 1))
            .AddAttribute("ChunksInFlight",
                          "Chunks a rank runs at once; 0: all of them (chunks).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&CollectiveExecutor::m_inFlightChunks),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Stripes",
                          "Sub-messages each send is split into, for NICs that choose a plane "
                          "per message (messages).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&CollectiveExecutor::m_stripes),
                          MakeUintegerChecker<uint32_t>(1, 64))
            .AddAttribute("ReduceTimePerByte",
                          "Time the receiver spends reducing each received byte (time per "
                          "byte); 0: free.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&CollectiveExecutor::m_reducePerByte),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("TrafficClass",
                          "Traffic class of the collective's messages.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&CollectiveExecutor::m_tclass),
                          MakeUintegerChecker<uint8_t>(0, 7))
            .AddAttribute("CarryData",
                          "Carry block values and apply the schedule's copy/reduce semantics "
                          "(tests; tiny collectives only).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&CollectiveExecutor::m_carryData),
                          MakeBooleanChecker())
            .AddTraceSource("StepDone",
                            "A rank finished a step of a chunk.",
                            MakeTraceSourceAccessor(&CollectiveExecutor::m_stepTrace),
                            "ns3::CollectiveExecutor::StepTracedCallback");
    return tid;
}

CollectiveExecutor::CollectiveExecutor()
{
    NS_LOG_FUNCTION(this);
}

CollectiveExecutor::~CollectiveExecutor()
{
    NS_LOG_FUNCTION(this);
}

void
CollectiveExecutor::DoDispose()
{
    m_algorithm = nullptr;
    m_endpoints.clear();
    m_ranks.clear();
    m_inFlight.clear();
    m_doneCb = DoneCallback();
    m_rankDoneCb = RankDoneCallback();
    Object::DoDispose();
}

void
CollectiveExecutor::Setup(Ptr<CollectiveAlgorithm> algorithm,
                          const std::vector<Ptr<FabricEndpoint>>& endpoints,
                          uint32_t instance)
{
    NS_LOG_FUNCTION(this << algorithm->GetName() << endpoints.size() << instance);
    NS_ABORT_MSG_IF(endpoints.size() != algorithm->GetSpec().ranks,
                    "the algorithm was prepared for " << algorithm->GetSpec().ranks
                                                      << " ranks, not " << endpoints.size());
    NS_ABORT_MSG_IF(algorithm->GetNSteps() > CollectiveDispatcher::MAX_STEP + 1,
                    "schedule too long for the cookie");
    m_algorithm = algorithm;
    m_endpoints = endpoints;
    m_instance = instance;
    m_ranks.assign(endpoints.size(), RankState());
    m_steps.assign(algorithm->GetNSteps(), StepTiming());
    uint32_t maxId = 0;
    for (const auto& ep : endpoints)
    {
        maxId = std::max(maxId, ep->GetAcceleratorId());
    }
    m_rankOf.assign(maxId + 1, -1);
    for (uint32_t r = 0; r < endpoints.size(); ++r)
    {
        const uint32_t id = endpoints[r]->GetAcceleratorId();
        NS_ABORT_MSG_IF(m_rankOf[id] >= 0, "accelerator " << id << " appears twice in a group");
        m_rankOf[id] = r;
    }
}

void
CollectiveExecutor::SetDoneCallback(DoneCallback cb)
{
    m_doneCb = cb;
}

void
CollectiveExecutor::SetRankDoneCallback(RankDoneCallback cb)
{
    m_rankDoneCb = cb;
}

void
CollectiveExecutor::Start()
{
    NS_LOG_FUNCTION(this);
    for (uint32_t r = 0; r < m_ranks.size(); ++r)
    {
        StartRank(r);
    }
}

double
CollectiveExecutor::InitialValue(uint32_t rank, uint32_t block)
{
    return 1000.0 * (rank + 1) + block + 1;
}

void
CollectiveExecutor::InitData(uint32_t r)
{
    const CollectiveSpec& spec = m_algorithm->GetSpec();
    const uint32_t n = spec.ranks;
    const uint32_t nb = m_algorithm->GetNBlocks();
    RankState& rs = m_ranks[r];
    rs.data.assign(m_chunks, std::vector<Block>(nb));
    for (auto& chunk : rs.data)
    {
        for (uint32_t b = 0; b < nb; ++b)
        {
            Block& blk = chunk[b];
            bool holds = false;
            switch (spec.type)
            {
            case CollectiveSpec::ALL_REDUCE:
            case CollectiveSpec::REDUCE_SCATTER:
            case CollectiveSpec::REDUCE:
                holds = true;
                break;
            case CollectiveSpec::BROADCAST:
                holds = r == spec.root;
                break;
            case CollectiveSpec::ALL_GATHER:
            case CollectiveSpec::ALL_TO_ALL:
            case CollectiveSpec::ALL_TO_ALL_V:
                holds = m_algorithm->GetBlockOwner(b) == r;
                break;
            case CollectiveSpec::BARRIER:
                break;
            }
            if (holds)
            {
                blk.valid = true;
                blk.value = InitialValue(r, b);
                blk.contributions.assign(n, 0);
                blk.contributions[r] = 1;
            }
        }
    }
}

void
CollectiveExecutor::StartRank(uint32_t r)
{
    NS_LOG_FUNCTION(this << r);
    NS_ASSERT(m_algorithm);
    RankState& rs = m_ranks[r];
    NS_ABORT_MSG_IF(rs.started, "rank " << r << " started twice");
    rs.started = true;
    rs.start = Simulator::Now();
    m_start = std::min(m_start, rs.start);
    rs.chunks.assign(m_chunks, ChunkState());
    if (m_carryData)
    {
        InitData(r);
    }
    const uint32_t window = m_inFlightChunks == 0 ? m_chunks : std::min(m_inFlightChunks, m_chunks);
    for (uint32_t i = 0; i < window && rs.nextChunk < m_chunks; ++i)
    {
        StartChunk(r, rs.nextChunk++);
    }
}

uint64_t
CollectiveExecutor::ChunkBytes(uint32_t c, uint64_t bytes) const
{
    const uint64_t share = bytes / m_chunks + (c < bytes % m_chunks ? 1 : 0);
    return std::max<uint64_t>(share, 1);
}

uint64_t
CollectiveExecutor::GetMessagesPlanned() const
{
    return CountPlannedMessages(m_algorithm, m_chunks, m_stripes);
}

uint64_t
CollectiveExecutor::CountPlannedMessages(Ptr<const CollectiveAlgorithm> algorithm,
                                         uint32_t chunks,
                                         uint32_t stripes)
{
    // As PostStep posts them: each send of each step, rank and chunk, cut into
    // min(stripes, chunk bytes) messages (ChunkBytes: the chunk's share, at least 1 B).
    const uint32_t ranks = algorithm->GetSpec().ranks;
    std::vector<CollectiveOp> ops;
    uint64_t messages = 0;
    for (uint32_t r = 0; r < ranks; ++r)
    {
        for (uint32_t k = 0; k < algorithm->GetNSteps(); ++k)
        {
            algorithm->GetStep(r, k, ops);
            for (const auto& op : ops)
            {
                if (op.kind != CollectiveOp::SEND)
                {
                    continue;
                }
                for (uint32_t c = 0; c < chunks; ++c)
                {
                    const uint64_t share = op.bytes / chunks + (c < op.bytes % chunks ? 1 : 0);
                    messages += std::min<uint64_t>(stripes, std::max<uint64_t>(share, 1));
                }
            }
        }
    }
    return messages;
}

bool
CollectiveExecutor::Ready(const ChunkState& st)
{
    return !st.posting && !st.reducing && st.recvPending == 0 && st.sendPending == 0;
}

void
CollectiveExecutor::StartChunk(uint32_t r, uint32_t c)
{
    NS_LOG_FUNCTION(this << r << c);
    ChunkState& st = m_ranks[r].chunks[c];
    st.active = true;
    if (m_algorithm->GetNSteps() == 0)
    {
        st.active = false;
        ChunkDone(r, c);
        return;
    }
    Begin(r, c, 0);
    TryFinish(r, c);
}

void
CollectiveExecutor::Begin(uint32_t r, uint32_t c, uint32_t k)
{
    RankState& rs = m_ranks[r];
    ChunkState& st = rs.chunks[c];
    m_algorithm->GetStep(r, k, m_ops);
    st.step = k;
    st.posting = true;
    st.stepStartPs = Simulator::Now().GetPicoSeconds();
    uint64_t send = 0;
    uint64_t recv = 0;
    uint64_t reduce = 0;
    for (const auto& op : m_ops)
    {
        const uint64_t b = ChunkBytes(c, op.bytes);
        if (op.kind == CollectiveOp::SEND)
        {
            send += b;
        }
        else
        {
            recv += b;
            reduce += op.kind == CollectiveOp::RECV_REDUCE ? b : 0;
        }
    }
    const uint64_t key = (uint64_t(c) << 32) | k;
    uint64_t early = 0;
    auto it = rs.early.find(key);
    if (it != rs.early.end())
    {
        early = it->second;
        rs.early.erase(it);
    }
    NS_ABORT_MSG_IF(early > recv,
                    "rank " << r << " step " << k << ": more bytes arrived than the schedule "
                            << "expects (" << early << " > " << recv << ")");
    st.recvPending = recv - early;
    st.sendPending = send;
    st.reduceBytes = reduce;
    StepTiming& t = m_steps[k];
    if (t.startPs < 0 || st.stepStartPs < t.startPs)
    {
        t.startPs = st.stepStartPs;
    }
    t.bytes += send;
    // Post the sends (the ops vector is scratch: copy what is needed first).
    const std::vector<CollectiveOp> ops = m_ops;
    for (const auto& op : ops)
    {
        if (op.kind != CollectiveOp::SEND)
        {
            continue;
        }
        if (m_carryData)
        {
            std::vector<Block> payload;
            for (uint32_t b = op.blockBegin; b < op.blockBegin + op.blockCount; ++b)
            {
                const Block& blk = rs.data[c][b];
                NS_ABORT_MSG_IF(!blk.valid,
                                m_algorithm->GetName()
                                    << ": rank " << r << " sends block " << b << " in step " << k
                                    << " without holding it");
                payload.push_back(blk);
            }
            m_inFlight[std::make_tuple(r, op.peer, c, k, op.tag)] = payload;
        }
        const uint64_t bytes = ChunkBytes(c, op.bytes);
        const uint64_t parts = std::min<uint64_t>(m_stripes, bytes);
        const uint64_t cookie = CollectiveDispatcher::MakeCookie(m_instance, k, c, op.tag);
        const uint32_t dst = m_endpoints[op.peer]->GetAcceleratorId();
        for (uint64_t i = 0; i < parts; ++i)
        {
            const uint64_t part = bytes / parts + (i < bytes % parts ? 1 : 0);
            rs.sent += part;
            ++m_messages;
            m_endpoints[r]->Send(dst, part, m_tclass, cookie);
        }
    }
    st.posting = false;
}

void
CollectiveExecutor::TryFinish(uint32_t r, uint32_t c)
{
    RankState& rs = m_ranks[r];
    ChunkState& st = rs.chunks[c];
    if (!st.active || !Ready(st))
    {
        return;
    }
    if (st.reduceBytes > 0 && m_reducePerByte.IsStrictlyPositive())
    {
        const Time now = Simulator::Now();
        const Time done = std::max(now, rs.reduceFree) + m_reducePerByte * int64_t(st.reduceBytes);
        rs.reduceFree = done;
        st.reducing = true;
        Simulator::Schedule(done - now, &CollectiveExecutor::ReduceDone, this, r, c);
        return;
    }
    Advance(r, c);
}

void
CollectiveExecutor::ReduceDone(uint32_t r, uint32_t c)
{
    ChunkState& st = m_ranks[r].chunks[c];
    st.reducing = false;
    st.reduceBytes = 0;
    Advance(r, c);
}

void
CollectiveExecutor::FinishStep(uint32_t r, uint32_t c)
{
    RankState& rs = m_ranks[r];
    ChunkState& st = rs.chunks[c];
    const int64_t now = Simulator::Now().GetPicoSeconds();
    StepTiming& t = m_steps[st.step];
    t.endPs = std::max(t.endPs, now);
    m_stepTrace(r, st.step, c, PicoSeconds(st.stepStartPs), PicoSeconds(now));
    if (!m_carryData)
    {
        return;
    }
    m_algorithm->GetStep(r, st.step, m_ops);
    for (const auto& op : m_ops)
    {
        if (!op.IsRecv())
        {
            continue;
        }
        auto it = m_inFlight.find(std::make_tuple(op.peer, r, c, st.step, op.tag));
        NS_ABORT_MSG_IF(it == m_inFlight.end(),
                        "rank " << r << " step " << st.step << ": no data from " << op.peer);
        const std::vector<Block>& in = it->second;
        NS_ABORT_MSG_IF(in.size() != op.blockCount, "send and receive differ in blocks");
        for (uint32_t i = 0; i < op.blockCount; ++i)
        {
            Block& local = rs.data[c][op.blockBegin + i];
            if (op.kind == CollectiveOp::RECV_COPY)
            {
                local = in[i];
                continue;
            }
            NS_ABORT_MSG_IF(!local.valid,
                            m_algorithm->GetName() << ": rank " << r << " reduces into block "
                                                   << op.blockBegin + i << " it does not hold");
            local.value += in[i].value;
            for (uint32_t s = 0; s < local.contributions.size(); ++s)
            {
                local.contributions[s] += in[i].contributions[s];
            }
        }
        m_inFlight.erase(it);
    }
}

void
CollectiveExecutor::Advance(uint32_t r, uint32_t c)
{
    const uint32_t nSteps = m_algorithm->GetNSteps();
    while (true)
    {
        ChunkState& st = m_ranks[r].chunks[c];
        FinishStep(r, c);
        if (st.step + 1 == nSteps)
        {
            st.active = false;
            ChunkDone(r, c);
            return;
        }
        Begin(r, c, st.step + 1);
        if (!Ready(st))
        {
            return;
        }
        if (st.reduceBytes > 0 && m_reducePerByte.IsStrictlyPositive())
        {
            TryFinish(r, c);
            return;
        }
    }
}

void
CollectiveExecutor::ChunkDone(uint32_t r, uint32_t c)
{
    NS_LOG_FUNCTION(this << r << c);
    RankState& rs = m_ranks[r];
    ++rs.chunksDone;
    if (rs.nextChunk < m_chunks)
    {
        StartChunk(r, rs.nextChunk++);
    }
    if (rs.chunksDone == m_chunks && !rs.finished)
    {
        rs.finished = true;
        rs.end = Simulator::Now();
        m_end = std::max(m_end, rs.end);
        ++m_ranksDone;
        if (!m_rankDoneCb.IsNull())
        {
            m_rankDoneCb(this, r);
        }
        if (m_ranksDone == m_ranks.size() && !m_doneCb.IsNull())
        {
            m_doneCb(this);
        }
    }
}

void
CollectiveExecutor::HandleDelivered(const FabricMessage& m)
{
    const uint32_t k = CollectiveDispatcher::StepOf(m.cookie);
    const uint32_t c = CollectiveDispatcher::ChunkOf(m.cookie);
    NS_ABORT_MSG_IF(m.dst >= m_rankOf.size() || m_rankOf[m.dst] < 0,
                    "collective message delivered outside its group");
    const uint32_t r = m_rankOf[m.dst];
    RankState& rs = m_ranks[r];
    rs.received += m.bytes;
    if (rs.started && rs.chunks[c].active && rs.chunks[c].step == k)
    {
        ChunkState& st = rs.chunks[c];
        NS_ABORT_MSG_IF(m.bytes > st.recvPending,
                        "rank " << r << " step " << k << ": more bytes than expected");
        st.recvPending -= m.bytes;
        TryFinish(r, c);
        return;
    }
    rs.early[(uint64_t(c) << 32) | k] += m.bytes;
}

void
CollectiveExecutor::HandleCompleted(const FabricMessage& m)
{
    const uint32_t k = CollectiveDispatcher::StepOf(m.cookie);
    const uint32_t c = CollectiveDispatcher::ChunkOf(m.cookie);
    const uint32_t r = m_rankOf[m.src];
    ChunkState& st = m_ranks[r].chunks[c];
    NS_ABORT_MSG_IF(!st.active || st.step != k,
                    "rank " << r << ": completion of step " << k << " while in step " << st.step);
    NS_ABORT_MSG_IF(m.bytes > st.sendPending, "completion of more bytes than were sent");
    st.sendPending -= m.bytes;
    TryFinish(r, c);
}

Ptr<CollectiveAlgorithm>
CollectiveExecutor::GetAlgorithm() const
{
    return m_algorithm;
}

std::vector<uint32_t>
CollectiveExecutor::GetGroup() const
{
    std::vector<uint32_t> g;
    for (const auto& ep : m_endpoints)
    {
        g.push_back(ep->GetAcceleratorId());
    }
    return g;
}

uint32_t
CollectiveExecutor::GetInstance() const
{
    return m_instance;
}

bool
CollectiveExecutor::IsDone() const
{
    return !m_ranks.empty() && m_ranksDone == m_ranks.size();
}

Time
CollectiveExecutor::GetStartTime() const
{
    return m_start == Time::Max() ? Time(0) : m_start;
}

Time
CollectiveExecutor::GetEndTime() const
{
    return m_end;
}

Time
CollectiveExecutor::GetRankStartTime(uint32_t rank) const
{
    return m_ranks[rank].start;
}

Time
CollectiveExecutor::GetRankEndTime(uint32_t rank) const
{
    return m_ranks[rank].end;
}

uint64_t
CollectiveExecutor::GetBytesSent(uint32_t rank) const
{
    return m_ranks[rank].sent;
}

uint64_t
CollectiveExecutor::GetBytesReceived(uint32_t rank) const
{
    return m_ranks[rank].received;
}

uint64_t
CollectiveExecutor::GetMessagesSent() const
{
    return m_messages;
}

const std::vector<CollectiveExecutor::StepTiming>&
CollectiveExecutor::GetStepTimings() const
{
    return m_steps;
}

double
CollectiveExecutor::GetAlgorithmBandwidth() const
{
    const double t = (GetEndTime() - GetStartTime()).GetSeconds();
    return IsDone() && t > 0 ? m_algorithm->GetSpec().AlgorithmBandwidthBytes() / t : 0.0;
}

double
CollectiveExecutor::GetBusBandwidth() const
{
    return GetAlgorithmBandwidth() * m_algorithm->GetSpec().BusBandwidthFactor();
}

const CollectiveExecutor::Block&
CollectiveExecutor::GetBlock(uint32_t rank, uint32_t chunk, uint32_t block) const
{
    NS_ABORT_MSG_IF(!m_carryData, "GetBlock needs CarryData");
    return m_ranks[rank].data[chunk][block];
}

bool
CollectiveExecutor::CheckData(std::string& why) const
{
    NS_ABORT_MSG_IF(!m_carryData, "CheckData needs CarryData");
    const CollectiveSpec& spec = m_algorithm->GetSpec();
    const uint32_t n = spec.ranks;
    const uint32_t nb = m_algorithm->GetNBlocks();
    std::ostringstream os;
    // reduced: every rank's value added exactly once; single: exactly the owner's.
    auto check = [&](uint32_t r, uint32_t c, uint32_t b, bool reduced, uint32_t owner) {
        const Block& blk = m_ranks[r].data[c][b];
        double expect = 0;
        for (uint32_t s = 0; s < n; ++s)
        {
            const uint16_t want = reduced ? 1 : (s == owner ? 1 : 0);
            expect += want * InitialValue(s, b);
            if (!blk.valid || blk.contributions[s] != want)
            {
                os << "rank " << r << " chunk " << c << " block " << b << ": "
                   << (blk.valid ? "rank " + std::to_string(s) + " contributed " +
                                       std::to_string(blk.contributions[s]) + " times, expected " +
                                       std::to_string(want)
                                 : std::string("missing"));
                return false;
            }
        }
        if (blk.value != expect)
        {
            os << "rank " << r << " block " << b << ": value " << blk.value << ", expected "
               << expect;
            return false;
        }
        return true;
    };
    for (uint32_t r = 0; r < n; ++r)
    {
        for (uint32_t c = 0; c < m_chunks; ++c)
        {
            for (uint32_t b = 0; b < nb; ++b)
            {
                bool ok = true;
                const uint32_t owner = m_algorithm->GetBlockOwner(b);
                switch (spec.type)
                {
                case CollectiveSpec::ALL_REDUCE:
                    ok = check(r, c, b, true, 0);
                    break;
                case CollectiveSpec::REDUCE_SCATTER:
                    ok = owner != r || check(r, c, b, true, 0);
                    break;
                case CollectiveSpec::REDUCE:
                    ok = r != spec.root || check(r, c, b, true, 0);
                    break;
                case CollectiveSpec::ALL_GATHER:
                    ok = check(r, c, b, false, owner);
                    break;
                case CollectiveSpec::BROADCAST:
                    ok = check(r, c, b, false, spec.root);
                    break;
                case CollectiveSpec::ALL_TO_ALL:
                case CollectiveSpec::ALL_TO_ALL_V:
                    ok = b % n != r || check(r, c, b, false, owner);
                    break;
                case CollectiveSpec::BARRIER:
                    break;
                }
                if (!ok)
                {
                    why = os.str();
                    return false;
                }
            }
        }
    }
    return true;
}

} // namespace ns3
