/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "progress-reporter.h"

#include "ns3/simulator.h"

#include <cstdio>

namespace ns3
{

ProgressReporter::ProgressReporter(std::ostream& os,
                                   std::function<double()> fraction,
                                   Time lastStart)
    : m_os(os),
      m_fraction(std::move(fraction)),
      m_lastStart(lastStart),
      m_interval(NanoSeconds(100))
{
}

void
ProgressReporter::Start()
{
    m_start = std::chrono::steady_clock::now();
    Simulator::Schedule(m_interval, &ProgressReporter::Sample, this);
}

void
ProgressReporter::Sample()
{
    ++m_samples;
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
    const uint64_t events = Simulator::GetEventCount();
    // Keep about 10,000 events between samples: cheap, and still frequent in wall time.
    const uint64_t between = events - m_lastEvents;
    m_lastEvents = events;
    if (between < 10000 && m_interval < MilliSeconds(1))
    {
        m_interval = m_interval * 2;
    }
    else if (between > 100000 && m_interval > PicoSeconds(100))
    {
        m_interval = m_interval / 2;
    }
    if (wall >= m_quietSeconds && wall - m_lastPrint >= m_printEverySeconds)
    {
        m_lastPrint = wall;
        const double f = m_fraction();
        const double eta = f > 0 ? wall * (1 - f) / f : 0;
        char line[200];
        std::snprintf(
            line,
            sizeof(line),
            "[podsim] sim %.3f us | wall %.1f s | %.2f M events/s | %.1f%% %s | ETA %.0f s",
            Simulator::Now().GetPicoSeconds() * 1e-6,
            wall,
            events / wall * 1e-6,
            100 * f,
            m_what.c_str(),
            eta);
        m_os << line << std::endl;
        ++m_lines;
    }
    // All work done, the last event left, or idle since the previous sample (only this sample
    // ran) after every workload started: do not keep the run alive.
    const bool idle = between <= 1 && Simulator::Now() > m_lastStart;
    if (m_fraction() < 1.0 && !idle && !Simulator::IsFinished())
    {
        Simulator::Schedule(m_interval, &ProgressReporter::Sample, this);
    }
}

} // namespace ns3
