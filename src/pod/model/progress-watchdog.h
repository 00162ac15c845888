/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PROGRESS_WATCHDOG_H
#define PROGRESS_WATCHDOG_H

#include "ns3/event-id.h"
#include "ns3/fabric-probe.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup pod
 * \brief The run-level no-progress watchdog of every fabric: while messages are outstanding,
 * if nothing makes progress for Timeout, it stops the run with a report naming the stuck
 * queues.
 *
 * What it watches are *probes*, each a named place where work can wait (a port's transmit
 * queue, the requests an endpoint has not yet handed to its port, a cell adapter's VOQs or
 * grant scheduler), given by three functions: how much work it holds (0: nothing), a count
 * that grows whenever it makes progress (units dequeued, pages granted) and a description of
 * its state for the report ("12 ops waiting; credits ReqCmd 0, ..."). PodWatchdogProbes
 * installs the probes of a pod, per fabric.
 *
 * Every CheckInterval it judges each probe as FabricDeadlockMonitor judges a switch port: a
 * probe that held nothing at the previous check, or whose count moved since, made progress; a
 * probe that holds work and made no progress for at least Timeout is *stuck*. The run is
 * stopped when every probe that holds work is stuck and nothing anywhere (no probe's count,
 * no delivered byte) moved for at least Timeout: nothing in the pod can move again. The
 * report ("no progress at <t>: ...") names the stuck probes with their state (the first 16),
 * is logged (NS_LOG_WARN), fired through the NoProgress trace and kept for GetReport(), and
 * Simulator::Stop() ends the run.
 *
 * Termination: the watchdog schedules nothing while it is idle. Arm() (each posted message)
 * starts the checks; it goes idle again at the first check that finds no message outstanding,
 * or no probe holding work and no event of the simulation's own (bookkeeping events, e.g.
 * progress samples, do not count) since the previous check. So it never keeps a finished run
 * alive: after the last event of the simulation at most two checks run. While armed its
 * checks are the only events it adds; they read state and change none, so a run that makes
 * progress gives the same results with the watchdog on or off.
 */
class ProgressWatchdog : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    ProgressWatchdog();
    ~ProgressWatchdog() override;

    /// One place where work can wait (FabricProbe).
    typedef FabricProbe Probe;

    /**
     * \brief Watch a probe (before the run).
     * \param probe the probe
     */
    void AddProbe(const Probe& probe);

    /// \return the number of probes
    uint32_t GetNProbes() const
    {
        return m_probes.size();
    }

    /**
     * \brief Set what the run has done so far.
     * \param posted messages posted
     * \param done messages done (delivered and completed)
     * \param delivered bytes that arrived at their destinations (any growth is progress)
     */
    void SetCounters(std::function<uint64_t()> posted,
                     std::function<uint64_t()> done,
                     std::function<uint64_t()> delivered);

    /**
     * \brief Set a count of the bookkeeping events run so far that are not the simulation's own
     * (progress samples, other monitors' checks): they neither keep the watchdog armed nor
     * count as activity.
     * \param f the count
     */
    void SetBookkeeping(std::function<uint64_t()> f);

    /**
     * \brief Start checking (a message was posted). Does nothing if armed or stopped.
     */
    void Arm();

    /// \return true while checks are scheduled
    bool IsArmed() const
    {
        return m_armed;
    }

    /// \return true once the watchdog stopped the run
    bool IsStopped() const
    {
        return m_stopped;
    }

    /// \return the report, or an empty string if the run was not stopped
    const std::string& GetReport() const
    {
        return m_report;
    }

    /// \return the names of the stuck probes at detection (empty if none)
    const std::vector<std::string>& GetStuck() const
    {
        return m_stuckNames;
    }

    /// \return when the run was stopped (zero if it was not)
    Time GetDetectionTime() const
    {
        return m_detectedAt;
    }

    /// \return the check at which progress was last seen
    Time GetLastProgress() const
    {
        return m_lastProgress;
    }

    /// \return checks run so far
    uint64_t GetChecks() const
    {
        return m_checks;
    }

    /// \return the check interval in use
    Time GetCheckInterval() const
    {
        return m_interval;
    }

    /// \return the timeout in use
    Time GetTimeout() const
    {
        return m_timeout;
    }

    /**
     * TracedCallback signature for a run stopped for lack of progress.
     * \param report the report (as GetReport())
     */
    typedef void (*NoProgressTracedCallback)(const std::string& report);

  protected:
    void DoDispose() override;

  private:
    /// What the watchdog remembers of one probe between checks.
    struct State
    {
        uint64_t progress{0}; //!< its count at the last check
        Time since;           //!< last check at which it was seen making progress
        bool idle{true};      //!< it held nothing at the last check
    };

    /// One periodic check.
    void Check();

    /**
     * Stop the run and build the report.
     * \param stuck indices of the stuck probes
     */
    void Stop(const std::vector<uint32_t>& stuck);

    Time m_interval;                                      //!< CheckInterval
    Time m_timeout;                                       //!< Timeout
    std::vector<Probe> m_probes;                          //!< probes
    std::vector<State> m_state;                           //!< per probe
    std::function<uint64_t()> m_posted;                   //!< messages posted
    std::function<uint64_t()> m_done;                     //!< messages done
    std::function<uint64_t()> m_delivered;                //!< bytes arrived
    std::function<uint64_t()> m_bookkeeping;              //!< bookkeeping events
    EventId m_event;                                      //!< the next check
    bool m_armed{false};                                  //!< checks are scheduled
    bool m_stopped{false};                                //!< it stopped the run
    uint64_t m_checks{0};                                 //!< checks run
    uint64_t m_lastDelivered{0};                          //!< bytes arrived at the last check
    uint64_t m_lastEvents{0};                             //!< events run by the last check
    uint64_t m_lastBookkeeping{0};                        //!< bookkeeping events then
    Time m_lastProgress;                                  //!< last check that saw progress
    Time m_detectedAt;                                    //!< detection time
    std::string m_report;                                 //!< the report
    std::vector<std::string> m_stuckNames;                //!< stuck probes
    TracedCallback<const std::string&> m_noProgressTrace; //!< NoProgress trace source
};

} // namespace ns3

#endif /* PROGRESS_WATCHDOG_H */
