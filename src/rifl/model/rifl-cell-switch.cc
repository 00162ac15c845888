/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rifl-cell-switch.h"

#include "rifl-traffic-generator.h"

#include "ns3/abort.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RiflCellSwitch");
NS_OBJECT_ENSURE_REGISTERED(RiflCellSwitch);

TypeId
RiflCellSwitch::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RiflCellSwitch")
            .SetParent<Object>()
            .SetGroupName("Rifl")
            .AddConstructor<RiflCellSwitch>()
            .AddAttribute("Ports",
                          "Switch ports N (32 in section V.A; at most 64, the largest iSLIP "
                          "scheduler of Table II).",
                          UintegerValue(32),
                          MakeUintegerAccessor(&RiflCellSwitch::m_ports),
                          MakeUintegerChecker<uint32_t>(2, FabricIslipScheduler::MAX_PORTS))
            .AddAttribute("Scheduler",
                          "Islip (the RIFL switch), Safc (ideal reference, section V.A) or Fifo "
                          "(input-queued, no VOQ).",
                          EnumValue(ISLIP),
                          MakeEnumAccessor(&RiflCellSwitch::m_scheduler),
                          MakeEnumChecker(ISLIP, "Islip", SAFC, "Safc", FIFO, "Fifo"))
            .AddAttribute("CellTime",
                          "Cell time: 20 ns at 100 Gb/s, 10 ns at 200 Gb/s (section IV.C).",
                          TimeValue(NanoSeconds(20)),
                          MakeTimeAccessor(&RiflCellSwitch::m_cellTime),
                          MakeTimeChecker(PicoSeconds(1)))
            .AddAttribute("FixedLatency",
                          "Latency of everything but the VOQ and the scheduler, in cell times "
                          "(17, section V.A).",
                          UintegerValue(17),
                          MakeUintegerAccessor(&RiflCellSwitch::m_fixedLatency),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("LinkDelay",
                          "One-way NIC-switch delay in cell times, for data and flow control "
                          "frames (part of FixedLatency). Default 8: half of a 320 ns round "
                          "trip, near the 300 ns of section IV.D (the paper does not give it "
                          "for its simulation).",
                          UintegerValue(8),
                          MakeUintegerAccessor(&RiflCellSwitch::m_linkDelay),
                          MakeUintegerChecker<uint32_t>(0, 1024))
            .AddAttribute("VoqCells",
                          "VOQ size in cells; 0: 1.5 round trips (2 LinkDelay) of cells, the "
                          "minimum of section IV.D.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RiflCellSwitch::m_voqCells),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("FcOnCells",
                          "FC ON when a VOQ just exceeds this many cells; 0: VoqCells minus one "
                          "round trip (what can still arrive after the FC frame).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RiflCellSwitch::m_fcOn),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("FcOffCells",
                          "FC OFF when a paused VOQ just drops to this many cells; 0: half of "
                          "FC ON (the paper does not give it).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RiflCellSwitch::m_fcOff),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("SegmentBytes",
                          "Cell payload in bytes (256, section IV.A).",
                          UintegerValue(256),
                          MakeUintegerAccessor(&RiflCellSwitch::m_segment),
                          MakeUintegerChecker<uint32_t>(8, 65535))
            .AddAttribute("SafcOrder",
                          "SAFC output arbitration: RoundRobin over inputs, or Oldest (first come "
                          "first served, as an output-queued switch). The paper does not say.",
                          EnumValue(SAFC_ROUND_ROBIN),
                          MakeEnumAccessor(&RiflCellSwitch::m_safcOrder),
                          MakeEnumChecker(SAFC_ROUND_ROBIN, "RoundRobin", SAFC_OLDEST, "Oldest"))
            .AddAttribute("NicQueue",
                          "Source NIC queueing: Fifo (one transmit queue, the head cell waits "
                          "while its VOQ is paused) or PerDestination (round robin over "
                          "destination queues not paused). The paper does not say.",
                          EnumValue(PER_DESTINATION),
                          MakeEnumAccessor(&RiflCellSwitch::m_nicQueue),
                          MakeEnumChecker(NIC_FIFO, "Fifo", PER_DESTINATION, "PerDestination"))
            .AddAttribute("LatencyFrom",
                          "Where a cell's latency starts: SwitchInput (when it is fully received "
                          "at the switch; Table I's latency is the switch's) or Generation (source "
                          "queueing included).",
                          EnumValue(SWITCH_INPUT),
                          MakeEnumAccessor(&RiflCellSwitch::m_latencyFrom),
                          MakeEnumChecker(SWITCH_INPUT, "SwitchInput", GENERATION, "Generation"))
            .AddAttribute("Arbiter",
                          "The iSLIP / SAFC arbiters.",
                          PointerValue(),
                          MakePointerAccessor(&RiflCellSwitch::m_sched),
                          MakePointerChecker<FabricIslipScheduler>())
            .AddTraceSource("Cell",
                            "A cell crossed the switch fabric.",
                            MakeTraceSourceAccessor(&RiflCellSwitch::m_cellTrace),
                            "ns3::RiflCellSwitch::CellTracedCallback")
            .AddTraceSource("Drop",
                            "A cell was dropped, with the reason and the input.",
                            MakeTraceSourceAccessor(&RiflCellSwitch::m_dropTrace),
                            "ns3::RiflCellSwitch::DropTracedCallback");
    return tid;
}

RiflCellSwitch::RiflCellSwitch()
{
    NS_LOG_FUNCTION(this);
    m_sched = CreateObject<FabricIslipScheduler>();
}

RiflCellSwitch::~RiflCellSwitch()
{
    NS_LOG_FUNCTION(this);
}

void
RiflCellSwitch::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_event.Cancel();
    m_sched = nullptr;
    m_gen = nullptr;
    Object::DoDispose();
}

void
RiflCellSwitch::SetTrafficGenerator(Ptr<RiflTrafficGenerator> gen)
{
    m_gen = gen;
}

void
RiflCellSwitch::Start()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(!m_gen, "RiflCellSwitch: no traffic generator");
    const uint32_t n = m_ports;
    const uint32_t d = m_linkDelay;
    const uint32_t queues = m_scheduler == FIFO ? n : n * n;
    const uint32_t nicQueues = (m_scheduler == FIFO || m_nicQueue == NIC_FIFO) ? n : n * n;
    // Section IV.D: a VOQ holds at least what arrives in 1.5 round trips (RTT = 2 LinkDelay).
    m_voqCap = m_voqCells != 0 ? m_voqCells : std::max<uint32_t>(3 * d, 2);
    if (m_scheduler == FIFO)
    {
        m_voqCap *= n; // the same memory as N VOQs, in one FIFO
    }
    m_on = m_fcOn != 0 ? m_fcOn : (m_voqCap > 2 * d + 1 ? m_voqCap - 2 * d : 1);
    if (m_scheduler == FIFO && m_fcOn != 0)
    {
        m_on = m_fcOn * n;
    }
    m_off = m_fcOff != 0 ? m_fcOff : m_on / 2;
    NS_ABORT_MSG_IF(m_off >= m_on, "RiflCellSwitch: FcOffCells must be below FcOnCells");
    m_sched->SetPorts(n);
    m_gen->Setup(n);
    m_nicQ.assign(nicQueues, RiflCellRing());
    m_voq.assign(queues, RiflCellRing());
    for (auto& q : m_voq)
    {
        q.Reserve(m_voqCap);
    }
    m_nicBusy.assign(n, 0);
    m_paused.assign(n, 0);
    m_nicPtr.assign(n, 0);
    m_fcSent.assign(n, 0);
    m_wire.assign(std::size_t(n) * std::max<uint32_t>(d, 1), RiflCell());
    m_wireValid.assign(std::size_t(n) * std::max<uint32_t>(d, 1), 0);
    m_fcWire.assign(std::size_t(n) * std::max<uint32_t>(d, 1), FcFrame());
    m_stats = Stats();
    m_stats.latencyHistogram.assign(1024, 0);
    m_slot = 0;
    m_inSystem = 0;
    m_event = Simulator::ScheduleNow(&RiflCellSwitch::Slot, this);
}

void
RiflCellSwitch::SendFc(uint32_t in, uint32_t channel, bool on)
{
    const uint64_t bit = uint64_t(1) << channel;
    if (on)
    {
        m_fcSent[in] |= bit;
        ++m_stats.fcOn;
    }
    else
    {
        m_fcSent[in] &= ~bit;
        ++m_stats.fcOff;
    }
    if (m_linkDelay == 0)
    {
        m_paused[in] = on ? (m_paused[in] | bit) : (m_paused[in] & ~bit);
        ++m_stats.fcFrames;
        return;
    }
    FcFrame& f = m_fcWire[std::size_t(in) * m_linkDelay + m_slot % m_linkDelay];
    // Section IV.D: a frame carries one FC ON and one FC OFF channel, so the frames of a cell
    // time are the larger of the two counts (more than one only where an input dequeues twice
    // in a cell time: the SAFC reference).
    auto frames = [&f]() {
        return std::max(__builtin_popcountll(f.on), __builtin_popcountll(f.off));
    };
    const int before = frames();
    (on ? f.on : f.off) |= bit;
    m_stats.fcFrames += frames() - before;
}

void
RiflCellSwitch::Arrive(uint32_t in, const RiflCell& c)
{
    const uint32_t ch = m_scheduler == FIFO ? 0 : c.dst;
    RiflCellRing& q = m_voq[Q(in, c.dst)];
    if (q.Size() >= m_voqCap)
    {
        --m_inSystem;
        ++m_stats.drops[VOQ_OVERFLOW];
        m_dropTrace(VOQ_OVERFLOW, in);
        return;
    }
    q.Push(c);
    if (m_latencyFrom == SWITCH_INPUT)
    {
        q.Back().gen = static_cast<uint32_t>(m_slot);
    }
    const uint32_t size = q.Size();
    if (size == 1)
    {
        m_sched->SetRequest(in, c.dst, true);
    }
    if (size == m_on + 1 && (m_fcSent[in] & (uint64_t(1) << ch)) == 0)
    {
        SendFc(in, ch, true);
    }
    m_stats.peakVoq = std::max(m_stats.peakVoq, size);
}

void
RiflCellSwitch::Cross(uint32_t in, uint32_t out)
{
    RiflCellRing& q = m_voq[Q(in, out)];
    const RiflCell c = q.Front();
    q.Pop();
    --m_inSystem;
    if (m_scheduler == FIFO)
    {
        m_sched->SetRequest(in, out, false);
        if (!q.IsEmpty())
        {
            m_sched->SetRequest(in, q.Front().dst, true);
        }
    }
    else if (q.IsEmpty())
    {
        m_sched->SetRequest(in, out, false);
    }
    const uint32_t ch = m_scheduler == FIFO ? 0 : out;
    if (q.Size() == m_off && (m_fcSent[in] & (uint64_t(1) << ch)) != 0)
    {
        SendFc(in, ch, false);
    }
    // From generation, the link delay is part of FixedLatency already.
    const uint32_t lat = static_cast<uint32_t>(m_slot - c.gen) -
                         (m_latencyFrom == GENERATION ? m_linkDelay : 0) + m_fixedLatency + 1;
    if (lat >= m_stats.latencyHistogram.size())
    {
        m_stats.latencyHistogram.resize(lat * 2, 0);
    }
    ++m_stats.latencyHistogram[lat];
    ++m_stats.cells;
    m_stats.payloadBytes += c.bytes;
    m_stats.lastSlot = m_slot;
    m_cellTrace(in, out, lat);
}

void
RiflCellSwitch::Slot()
{
    ++m_events;
    const uint64_t t = m_slot;
    const uint32_t n = m_ports;
    const uint32_t d = m_linkDelay;
    const bool fifo = m_scheduler == FIFO;
    for (uint32_t i = 0; i < n; ++i)
    {
        const std::size_t w = std::size_t(i) * std::max<uint32_t>(d, 1) + (d ? t % d : 0);
        if (d != 0)
        {
            // Flow control frames sent LinkDelay ago reach the NIC.
            FcFrame& f = m_fcWire[w];
            if ((f.on | f.off) != 0)
            {
                m_paused[i] = (m_paused[i] | f.on) & ~f.off;
                f = FcFrame();
            }
            // The cell sent LinkDelay ago is fully received at the switch input.
            if (m_wireValid[w])
            {
                m_wireValid[w] = 0;
                Arrive(i, m_wire[w]);
            }
        }
        // The source puts at most one new cell in its queues per cell time.
        RiflCell c;
        while (m_gen->Next(i, t, c))
        {
            const bool one = fifo || m_nicQueue == NIC_FIFO;
            const uint32_t k = one ? 0 : c.dst;
            m_nicQ[one ? i : i * n + c.dst].Push(c);
            m_nicBusy[i] |= uint64_t(1) << k;
            ++m_inSystem;
        }
        // The NIC sends one cell, round robin over destinations not paused.
        uint64_t avail = 0;
        uint32_t k = 0;
        if (fifo || m_nicQueue == NIC_FIFO)
        {
            // One queue: the head cell goes unless its channel (VOQ, or the link) is paused.
            if (m_nicBusy[i] != 0)
            {
                const uint32_t ch = fifo ? 0 : m_nicQ[i].Front().dst;
                avail = (m_paused[i] >> ch) & 1;
                avail = avail ? 0 : 1;
            }
        }
        else
        {
            avail = m_nicBusy[i] & ~m_paused[i];
            if (avail != 0)
            {
                k = FabricIslipScheduler::RoundRobin(avail, m_nicPtr[i], n);
            }
        }
        if (avail != 0)
        {
            RiflCellRing& nq = m_nicQ[(fifo || m_nicQueue == NIC_FIFO) ? i : i * n + k];
            const RiflCell s = nq.Front();
            nq.Pop();
            if (nq.IsEmpty())
            {
                m_nicBusy[i] &= ~(uint64_t(1) << k);
            }
            m_nicPtr[i] = (k + 1) % n;
            if (d == 0)
            {
                Arrive(i, s);
            }
            else
            {
                m_wire[w] = s;
                m_wireValid[w] = 1;
            }
        }
    }
    // One scheduling decision per cell time; the Batcher-Banyan network delivers the matching.
    const uint64_t all = n == 64 ? ~uint64_t(0) : (uint64_t(1) << n) - 1;
    if (m_scheduler == ISLIP)
    {
        const std::vector<uint32_t>& m = m_sched->Match(all, all);
        for (uint32_t i = 0; i < n; ++i)
        {
            if (m[i] != FabricIslipScheduler::NONE)
            {
                Cross(i, m[i]);
            }
        }
    }
    else if (m_scheduler == SAFC && m_safcOrder == SAFC_OLDEST)
    {
        for (uint32_t o = 0; o < n; ++o)
        {
            uint32_t best = FabricIslipScheduler::NONE;
            uint32_t bestStamp = 0;
            for (uint32_t i = 0; i < n; ++i)
            {
                const RiflCellRing& q = m_voq[i * n + o];
                if (!q.IsEmpty() &&
                    (best == FabricIslipScheduler::NONE || q.Front().gen < bestStamp))
                {
                    best = i;
                    bestStamp = q.Front().gen;
                }
            }
            if (best != FabricIslipScheduler::NONE)
            {
                Cross(best, o);
            }
        }
    }
    else
    {
        const std::vector<uint32_t>& m = m_sched->MatchOutputsOnly(all);
        for (uint32_t o = 0; o < n; ++o)
        {
            if (m[o] != FabricIslipScheduler::NONE)
            {
                Cross(m[o], o);
            }
        }
    }
    ++m_slot;
    m_stats.slots = m_slot;
    if (m_gen->IsDone() && m_inSystem == 0)
    {
        return;
    }
    m_event = Simulator::Schedule(m_cellTime, &RiflCellSwitch::Slot, this);
}

uint32_t
RiflCellSwitch::GetLatencyPercentile(double p) const
{
    const auto& h = m_stats.latencyHistogram;
    if (m_stats.cells == 0)
    {
        return 0;
    }
    uint64_t rank = static_cast<uint64_t>(std::ceil(p * static_cast<double>(m_stats.cells)));
    rank = std::max<uint64_t>(rank, 1);
    uint64_t cum = 0;
    for (uint32_t l = 0; l < h.size(); ++l)
    {
        cum += h[l];
        if (cum >= rank)
        {
            return l;
        }
    }
    return static_cast<uint32_t>(h.size() - 1);
}

double
RiflCellSwitch::GetMeanLatency() const
{
    double s = 0;
    for (uint32_t l = 0; l < m_stats.latencyHistogram.size(); ++l)
    {
        s += static_cast<double>(l) * static_cast<double>(m_stats.latencyHistogram[l]);
    }
    return m_stats.cells ? s / static_cast<double>(m_stats.cells) : 0;
}

double
RiflCellSwitch::GetUtilization() const
{
    const double slots = static_cast<double>(m_stats.lastSlot + 1);
    return static_cast<double>(m_stats.payloadBytes) / (slots * m_ports * m_segment);
}

} // namespace ns3
