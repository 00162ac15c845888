/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef WALL_CLOCK_LIMIT_H
#define WALL_CLOCK_LIMIT_H

#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

namespace ns3
{

/**
 * \ingroup pod
 * \brief The wall-time watchdog of a run: stops Simulator::Run() once the run has taken more
 * than a given wall-clock time, whatever the simulation does (a livelock that keeps making
 * events, a run far longer than planned).
 *
 * Start() starts a timer thread that sleeps until the deadline (or until Cancel()). At the
 * deadline it schedules, through Simulator::ScheduleWithContext (ns-3's thread-safe way in),
 * an event at the current simulated time; the simulation thread runs it after the event in
 * progress: it calls the expiry function (which writes the report of where the simulation
 * stands) and Simulator::Stop(). The timer thread touches nothing else, and the simulation
 * schedules no event of its own for the limit, so a run that ends in time is not changed.
 * Cancel() (also called by the destructor) wakes and joins the thread: call it right after
 * Simulator::Run() returns, before Simulator::Destroy().
 *
 * The same thread stops the run on an interrupt: RequestInterrupt() (async-signal-safe, called
 * by the SIGINT handler that CatchInterrupts() installs, or by the Python module's) makes it
 * expire within INTERRUPT_POLL_MS, limit or not (Start with 0 seconds: no limit, interrupts
 * only). Its report then starts with INTERRUPTED (Reason()), which the results file records
 * (ResultsWriter: the root attribute incomplete = 1).
 */
class WallClockLimit
{
  public:
    /// The start of the report of a run stopped by an interrupt (Reason()).
    static constexpr const char* INTERRUPTED = "interrupted (SIGINT)";
    /// How often the timer thread looks for an interrupt (ms).
    static constexpr int INTERRUPT_POLL_MS = 50;

    WallClockLimit() = default;
    ~WallClockLimit();

    WallClockLimit(const WallClockLimit&) = delete;
    WallClockLimit& operator=(const WallClockLimit&) = delete;

    /**
     * \brief Start the timer (before Simulator::Run()).
     * \param seconds the wall-clock limit in seconds (0: none, interrupts only)
     * \param onExpiry called in the simulation thread when the limit or an interrupt stops the
     * run
     */
    void Start(double seconds, std::function<void()> onExpiry);

    /**
     * \brief Ask the run in progress (and any started later, until ClearInterrupt()) to stop.
     * Async-signal-safe: it only sets an atomic flag.
     */
    static void RequestInterrupt();

    /// \return true once RequestInterrupt() was called (and not cleared since)
    static bool IsInterruptRequested();

    /// \brief Forget an interrupt (the Python module does, after the run it stopped).
    static void ClearInterrupt();

    /**
     * \brief Install a SIGINT handler that calls RequestInterrupt() and then restores the
     * default action, so that a second SIGINT ends the process at once (podsim-run).
     */
    static void CatchInterrupts();

    /**
     * \param limit the wall-clock limit in seconds
     * \return the start of the expiry report: INTERRUPTED after an interrupt, else "wall limit
     * of LIMIT s reached"
     */
    static std::string Reason(double limit);

    /**
     * \brief A run stopped by the limit or an interrupt outside the simulation (while its
     * pod was built): it has nothing to write.
     */
    class Stopped : public std::runtime_error
    {
      public:
        /**
         * \param what the report
         * \param interrupt an interrupt stopped it (else the limit)
         */
        Stopped(const std::string& what, bool interrupt)
            : std::runtime_error(what),
              m_interrupt(interrupt)
        {
        }

        /// \return true if an interrupt stopped it, false if the limit did
        bool IsInterrupt() const
        {
            return m_interrupt;
        }

      private:
        bool m_interrupt; //!< an interrupt stopped it
    };

    /**
     * \brief Throw Stopped if an interrupt was requested, or if \p elapsed exceeds \p limit.
     * For the phases outside Simulator::Run() (the build), where the timer's expiry event
     * cannot run.
     * \param limit the wall-clock limit in seconds (0: none)
     * \param elapsed the run's wall time so far, in seconds
     * \param where what was being done, for the report ("while building the pod (routes:
     *        256 of 65536)")
     */
    static void StopIfDue(double limit, double elapsed, const std::string& where);

    /// \brief Stop the timer and join its thread (does nothing if not started).
    void Cancel();

    /// \return true once the limit stopped the run (its expiry event ran)
    bool HasExpired() const
    {
        return m_expired;
    }

  private:
    /// The timer thread.
    void Wait();

    /// The expiry event, in the simulation thread.
    void Expire();

    double m_seconds{0};                //!< the limit
    std::function<void()> m_onExpiry;   //!< expiry function
    std::thread m_thread;               //!< the timer thread
    std::mutex m_mutex;                 //!< guards m_cancelled
    std::condition_variable m_cv;       //!< wakes the timer thread on Cancel()
    bool m_cancelled{false};            //!< Cancel() was called
    std::atomic<bool> m_expired{false}; //!< the expiry event ran
};

} // namespace ns3

#endif /* WALL_CLOCK_LIMIT_H */
