/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "progress-watchdog.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ProgressWatchdog");
NS_OBJECT_ENSURE_REGISTERED(ProgressWatchdog);

TypeId
ProgressWatchdog::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::ProgressWatchdog")
            .SetParent<Object>()
            .SetGroupName("Pod")
            .AddConstructor<ProgressWatchdog>()
            .AddAttribute("CheckInterval",
                          "Simulated time between two checks while messages are outstanding "
                          "(podsim: limits.check-interval, by default a tenth of Timeout).",
                          TimeValue(MilliSeconds(10)),
                          MakeTimeAccessor(&ProgressWatchdog::m_interval),
                          MakeTimeChecker(PicoSeconds(1)))
            .AddAttribute("Timeout",
                          "A probe that holds work and makes no progress for this long is "
                          "stuck; when every probe that holds work is stuck and nothing moved "
                          "for this long, the run is stopped (podsim: limits.no-progress).",
                          TimeValue(MilliSeconds(100)),
                          MakeTimeAccessor(&ProgressWatchdog::m_timeout),
                          MakeTimeChecker(PicoSeconds(1)))
            .AddTraceSource("NoProgress",
                            "Nothing made progress for Timeout; the argument is the report. The "
                            "run is stopped right after.",
                            MakeTraceSourceAccessor(&ProgressWatchdog::m_noProgressTrace),
                            "ns3::ProgressWatchdog::NoProgressTracedCallback");
    return tid;
}

ProgressWatchdog::ProgressWatchdog()
{
    NS_LOG_FUNCTION(this);
}

ProgressWatchdog::~ProgressWatchdog()
{
    NS_LOG_FUNCTION(this);
}

void
ProgressWatchdog::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_event.Cancel();
    m_probes.clear();
    m_state.clear();
    m_posted = nullptr;
    m_done = nullptr;
    m_delivered = nullptr;
    m_bookkeeping = nullptr;
    Object::DoDispose();
}

void
ProgressWatchdog::AddProbe(const Probe& probe)
{
    NS_LOG_FUNCTION(this << probe.name);
    NS_ABORT_MSG_IF(!probe.held || !probe.progress || !probe.describe,
                    "ProgressWatchdog::AddProbe: probe " << probe.name << " lacks a function");
    m_probes.push_back(probe);
}

void
ProgressWatchdog::SetCounters(std::function<uint64_t()> posted,
                              std::function<uint64_t()> done,
                              std::function<uint64_t()> delivered)
{
    m_posted = std::move(posted);
    m_done = std::move(done);
    m_delivered = std::move(delivered);
}

void
ProgressWatchdog::SetBookkeeping(std::function<uint64_t()> f)
{
    m_bookkeeping = std::move(f);
}

void
ProgressWatchdog::Arm()
{
    if (m_armed || m_stopped)
    {
        return;
    }
    NS_LOG_FUNCTION(this);
    m_armed = true;
    m_state.assign(m_probes.size(), State());
    m_lastProgress = Simulator::Now();
    m_lastDelivered = m_delivered ? m_delivered() : 0;
    m_lastEvents = Simulator::GetEventCount();
    m_lastBookkeeping = m_bookkeeping ? m_bookkeeping() : 0;
    m_event = Simulator::Schedule(m_interval, &ProgressWatchdog::Check, this);
}

void
ProgressWatchdog::Check()
{
    NS_LOG_FUNCTION(this);
    ++m_checks;
    const Time now = Simulator::Now();
    // The simulation's own events since the previous check: all of them but that check (or
    // this one) and the bookkeeping events of others.
    const uint64_t events = Simulator::GetEventCount();
    const uint64_t bookkeeping = m_bookkeeping ? m_bookkeeping() : 0;
    const uint64_t others = (events - m_lastEvents) + m_lastBookkeeping;
    const uint64_t own = others > bookkeeping + 1 ? others - bookkeeping - 1 : 0;
    m_lastEvents = events;
    m_lastBookkeeping = bookkeeping;

    bool progressed = false;
    const uint64_t delivered = m_delivered ? m_delivered() : 0;
    if (delivered != m_lastDelivered)
    {
        progressed = true;
        m_lastDelivered = delivered;
    }
    std::vector<uint32_t> stuck;
    uint32_t holding = 0;
    for (uint32_t i = 0; i < m_probes.size(); ++i)
    {
        const Probe& p = m_probes[i];
        State& st = m_state[i];
        const uint64_t count = p.progress();
        const bool moved = count != st.progress;
        progressed = progressed || moved;
        if (p.held() == 0)
        {
            st.idle = true;
            st.progress = count;
            continue;
        }
        ++holding;
        if (st.idle || moved)
        {
            // Empty at the last check (its work arrived since), or it moved since: at most this
            // check's interval without progress so far.
            st.idle = false;
            st.progress = count;
            st.since = now;
            continue;
        }
        if (now - st.since >= m_timeout)
        {
            stuck.push_back(i);
        }
    }
    if (progressed)
    {
        m_lastProgress = now;
    }
    const bool outstanding = m_posted && m_done && m_posted() > m_done();
    if (!outstanding || (holding == 0 && own == 0))
    {
        // Nothing outstanding, or nothing held anywhere and nothing else happened: idle until
        // the next message is posted.
        NS_LOG_LOGIC("idle at " << now.As(Time::US) << " (outstanding " << outstanding << ")");
        m_armed = false;
        return;
    }
    if (holding > 0 && stuck.size() == holding && now - m_lastProgress >= m_timeout)
    {
        Stop(stuck);
        return;
    }
    m_event = Simulator::Schedule(m_interval, &ProgressWatchdog::Check, this);
}

void
ProgressWatchdog::Stop(const std::vector<uint32_t>& stuck)
{
    const Time now = Simulator::Now();
    const uint64_t posted = m_posted();
    const uint64_t done = m_done();
    std::ostringstream os;
    os << "no progress at " << now.As(Time::US) << ": " << stuck.size()
       << " queue(s) hold work and none has made progress for at least " << m_timeout.As(Time::US)
       << " (last progress seen at the check at " << m_lastProgress.As(Time::US) << "); "
       << posted - done << " of " << posted << " messages outstanding; stuck:";
    const std::size_t shown = std::min<std::size_t>(stuck.size(), 16);
    for (std::size_t k = 0; k < stuck.size(); ++k)
    {
        const Probe& p = m_probes[stuck[k]];
        m_stuckNames.push_back(p.name);
        if (k < shown)
        {
            os << (k ? "; " : " ") << p.name << ": " << p.describe();
        }
    }
    if (shown < stuck.size())
    {
        os << "; ... (" << stuck.size() - shown << " more)";
    }
    m_report = os.str();
    m_stopped = true;
    m_armed = false;
    m_detectedAt = now;
    NS_LOG_WARN(m_report);
    m_noProgressTrace(m_report);
    Simulator::Stop();
}

} // namespace ns3
