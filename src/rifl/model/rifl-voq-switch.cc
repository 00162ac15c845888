/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rifl-voq-switch.h"

#include "ns3/enum.h"
#include "ns3/fabric-clock.h"
#include "ns3/fabric-packet.h"
#include "ns3/fabric-switch.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RiflVoqSwitch");
NS_OBJECT_ENSURE_REGISTERED(RiflVoqSwitch);

TypeId
RiflVoqSwitch::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RiflVoqSwitch")
            .SetParent<Object>()
            .SetGroupName("Rifl")
            .AddConstructor<RiflVoqSwitch>()
            .AddAttribute("Architecture",
                          "Islip (VOQ + iSLIP, the RIFL switch, RIFL paper section IV.C), Safc "
                          "(ideal statically allocated fully connected, section V.A) or Fifo "
                          "(input-queued FIFO, no VOQ).",
                          EnumValue(ISLIP),
                          MakeEnumAccessor(&RiflVoqSwitch::m_arch),
                          MakeEnumChecker(ISLIP, "Islip", SAFC, "Safc", FIFO, "Fifo"))
            .AddAttribute("CellTime",
                          "Cell time (s): one scheduler decision per cell time at most; a "
                          "CellBytes cell at the link rate (20 ns at 100 Gb/s in the paper for "
                          "256 B, section IV.C).",
                          TimeValue(NanoSeconds(20)),
                          MakeTimeAccessor(&RiflVoqSwitch::m_cellTime),
                          MakeTimeChecker(PicoSeconds(1)))
            .AddAttribute("CellBytes",
                          "Bytes of one cell on the wire (bytes): 256 B segment plus the 8 B L1 "
                          "+ L2 header (section IV.A); a unit holds its ports for "
                          "ceil(size / CellBytes) cell times.",
                          UintegerValue(264),
                          MakeUintegerAccessor(&RiflVoqSwitch::m_cellBytes),
                          MakeUintegerChecker<uint32_t>(1));
    return tid;
}

RiflVoqSwitch::RiflVoqSwitch()
    : m_sched(CreateObject<FabricIslipScheduler>())
{
    NS_LOG_FUNCTION(this);
}

RiflVoqSwitch::~RiflVoqSwitch()
{
    NS_LOG_FUNCTION(this);
}

void
RiflVoqSwitch::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_event.Cancel();
    m_switch = nullptr;
    m_voq.clear();
    m_sched = nullptr;
    Object::DoDispose();
}

void
RiflVoqSwitch::Attach(Ptr<FabricSwitch> sw)
{
    NS_LOG_FUNCTION(this << sw);
    m_switch = PeekPointer(sw);
    m_ports = sw->GetNPorts();
    NS_ABORT_MSG_IF(m_ports > FabricIslipScheduler::MAX_PORTS,
                    "RiflVoqSwitch: at most " << FabricIslipScheduler::MAX_PORTS << " ports");
    m_sched->SetPorts(m_ports);
    m_voq.assign(m_arch == FIFO ? m_ports : m_ports * m_ports, {});
    m_req.assign(m_ports, 0);
    m_inFree.assign(m_ports, Time(0));
    m_outFree.assign(m_ports, Time(0));
    sw->SetIngressCallback(MakeCallback(&RiflVoqSwitch::Ingress, this));
}

void
RiflVoqSwitch::Refresh(uint32_t in)
{
    for (uint32_t out = 0; out < m_ports; ++out)
    {
        const bool on = m_arch == FIFO ? (!m_voq[in].empty() && m_voq[in].front()->outPort == out)
                                       : !m_voq[in * m_ports + out].empty();
        const uint64_t bit = uint64_t(1) << in;
        m_req[out] = on ? (m_req[out] | bit) : (m_req[out] & ~bit);
        m_sched->SetRequest(in, out, on);
    }
}

void
RiflVoqSwitch::Ingress(Ptr<FabricPacket> p)
{
    NS_LOG_FUNCTION(this << p);
    Q(p->inPort, p->outPort).push_back(p);
    ++m_queued;
    m_stats.peakQueued = std::max(m_stats.peakQueued, m_queued);
    Refresh(p->inPort);
    Kick(FabricClock::Now());
}

void
RiflVoqSwitch::Kick(Time earliest)
{
    // Decisions fall on cell-time boundaries, one per boundary at most.
    const int64_t ct = m_cellTime.GetTimeStep();
    int64_t t = (earliest.GetTimeStep() + ct - 1) / ct * ct;
    if (t <= m_last.GetTimeStep())
    {
        t = m_last.GetTimeStep() + ct;
    }
    const Time at = TimeStep(t);
    if (m_event.IsRunning())
    {
        if (m_event.GetTs() <= static_cast<uint64_t>(t))
        {
            return;
        }
        m_event.Cancel();
    }
    m_event = Simulator::Schedule(at - FabricClock::Now(), &RiflVoqSwitch::Decide, this);
}

void
RiflVoqSwitch::Decide()
{
    const Time now = FabricClock::Now();
    m_last = now;
    ++m_stats.decisions;
    uint64_t freeIn = 0;
    uint64_t freeOut = 0;
    for (uint32_t i = 0; i < m_ports; ++i)
    {
        if (m_inFree[i] <= now || m_arch == SAFC) // a SAFC input feeds any number of outputs
        {
            freeIn |= uint64_t(1) << i;
        }
        if (m_outFree[i] <= now)
        {
            freeOut |= uint64_t(1) << i;
        }
    }
    std::vector<std::pair<uint32_t, uint32_t>> matched; // (in, out)
    if (m_arch == SAFC)
    {
        const auto& pick = m_sched->MatchOutputsOnly(freeOut);
        for (uint32_t out = 0; out < m_ports; ++out)
        {
            if (pick[out] != FabricIslipScheduler::NONE)
            {
                matched.emplace_back(pick[out], out);
            }
        }
    }
    else
    {
        const auto& match = m_sched->Match(freeIn, freeOut);
        for (uint32_t in = 0; in < m_ports; ++in)
        {
            if (match[in] != FabricIslipScheduler::NONE)
            {
                matched.emplace_back(in, match[in]);
            }
        }
    }
    for (const auto& [in, out] : matched)
    {
        auto& q = Q(in, out);
        Ptr<FabricPacket> p = q.front();
        q.pop_front();
        --m_queued;
        const uint64_t cells = (p->GetSize() + m_cellBytes - 1) / m_cellBytes;
        const Time busy = m_cellTime * static_cast<int64_t>(std::max<uint64_t>(cells, 1));
        m_inFree[in] = now + busy;
        m_outFree[out] = now + busy;
        ++m_stats.units;
        m_stats.cells += cells;
        Refresh(in);
        m_switch->EnqueueOutput(p);
    }
    if (m_queued == 0)
    {
        return;
    }
    // Next boundary at which a waiting unit's input and output are both free.
    Time next = Time::Max();
    for (uint32_t out = 0; out < m_ports; ++out)
    {
        for (uint64_t r = m_req[out]; r != 0; r &= r - 1)
        {
            const uint32_t in = static_cast<uint32_t>(__builtin_ctzll(r));
            const Time ready =
                m_arch == SAFC ? m_outFree[out] : std::max(m_inFree[in], m_outFree[out]);
            next = std::min(next, ready);
        }
    }
    Kick(std::max(next, now + m_cellTime));
}

} // namespace ns3
