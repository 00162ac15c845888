/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wall-clock-limit.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <chrono>
#include <csignal>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WallClockLimit");

namespace
{
/// Set by RequestInterrupt(), from a signal handler: lock-free, hence async-signal-safe.
std::atomic<bool> g_interrupt{false};
static_assert(std::atomic<bool>::is_always_lock_free, "the interrupt flag must be lock-free");

/**
 * The SIGINT handler of CatchInterrupts(): note the interrupt, and let the next SIGINT end the
 * process.
 * \param sig the signal
 */
extern "C" void
OnSigint(int sig)
{
    g_interrupt.store(true);
    std::signal(sig, SIG_DFL);
}
} // namespace

void
WallClockLimit::RequestInterrupt()
{
    g_interrupt.store(true);
}

bool
WallClockLimit::IsInterruptRequested()
{
    return g_interrupt.load();
}

void
WallClockLimit::ClearInterrupt()
{
    g_interrupt.store(false);
}

void
WallClockLimit::CatchInterrupts()
{
    struct sigaction sa = {};
    sa.sa_handler = &OnSigint;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;
    sigaction(SIGINT, &sa, nullptr);
}

std::string
WallClockLimit::Reason(double limit)
{
    if (IsInterruptRequested())
    {
        return INTERRUPTED;
    }
    std::ostringstream os;
    os << "wall limit of " << limit << " s reached";
    return os.str();
}

void
WallClockLimit::StopIfDue(double limit, double elapsed, const std::string& where)
{
    const bool interrupt = IsInterruptRequested();
    if (interrupt || (limit > 0 && elapsed > limit))
    {
        std::ostringstream os;
        os << Reason(limit) << " after " << elapsed << " s " << where
           << ": nothing was simulated or written";
        throw Stopped(os.str(), interrupt);
    }
}

WallClockLimit::~WallClockLimit()
{
    Cancel();
}

void
WallClockLimit::Start(double seconds, std::function<void()> onExpiry)
{
    NS_LOG_FUNCTION(this << seconds);
    NS_ABORT_MSG_IF(m_thread.joinable(), "WallClockLimit::Start: already started");
    NS_ABORT_MSG_IF(seconds < 0, "WallClockLimit::Start: the limit must be 0 (none) or more");
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
    using clock = std::chrono::steady_clock;
    const bool limited = m_seconds > 0;
    const auto deadline =
        clock::now() + std::chrono::duration_cast<clock::duration>(
                           std::chrono::duration<double>(limited ? m_seconds : 0.0));
    const auto poll = std::chrono::milliseconds(INTERRUPT_POLL_MS);
    std::unique_lock<std::mutex> lock(m_mutex);
    while (true)
    {
        // A signal handler cannot wake the condition variable: look for an interrupt every
        // INTERRUPT_POLL_MS.
        auto until = clock::now() + poll;
        if (limited && deadline < until)
        {
            until = deadline;
        }
        if (m_cv.wait_until(lock, until, [this]() { return m_cancelled; }))
        {
            return; // cancelled: the run ended in time
        }
        if (IsInterruptRequested() || (limited && clock::now() >= deadline))
        {
            break;
        }
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
