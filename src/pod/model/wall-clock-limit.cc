/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wall-clock-limit.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <chrono>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WallClockLimit");

WallClockLimit::~WallClockLimit()
{
    Cancel();
}

void
WallClockLimit::Start(double seconds, std::function<void()> onExpiry)
{
    NS_LOG_FUNCTION(this << seconds);
    NS_ABORT_MSG_IF(m_thread.joinable(), "WallClockLimit::Start: already started");
    NS_ABORT_MSG_IF(!(seconds > 0), "WallClockLimit::Start: the limit must be above 0");
    m_seconds = seconds;
    m_onExpiry = std::move(onExpiry);
    m_cancelled = false;
    m_expired = false;
    m_thread = std::thread(&WallClockLimit::Wait, this);
}

void
WallClockLimit::Cancel()
{
    if (!m_thread.joinable())
    {
        return;
    }
    NS_LOG_FUNCTION(this);
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_cancelled = true;
    }
    m_cv.notify_all();
    m_thread.join();
}

void
WallClockLimit::Wait()
{
    const auto deadline = std::chrono::steady_clock::now() +
                          std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                              std::chrono::duration<double>(m_seconds));
    std::unique_lock<std::mutex> lock(m_mutex);
    if (m_cv.wait_until(lock, deadline, [this]() { return m_cancelled; }))
    {
        return; // cancelled: the run ended in time
    }
    // Thread-safe entry into the simulation: the event runs at the current simulated time,
    // after the event in progress.
    Simulator::ScheduleWithContext(Simulator::NO_CONTEXT,
                                   Seconds(0),
                                   &WallClockLimit::Expire,
                                   this);
}

void
WallClockLimit::Expire()
{
    NS_LOG_FUNCTION(this);
    m_expired = true;
    if (m_onExpiry)
    {
        m_onExpiry();
    }
    Simulator::Stop();
}

} // namespace ns3
