/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef POD_PROGRESS_REPORTER_H
#define POD_PROGRESS_REPORTER_H

#include "ns3/event-id.h"
#include "ns3/nstime.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <ostream>
#include <string>

namespace ns3
{

/**
 * \ingroup pod
 * \brief The progress line of long runs: simulated time, wall time, events/s and an ETA.
 *
 * A self-rescheduling event samples the run every interval of simulated time, adapted so that
 * about 10,000 to 100,000 events separate two samples (a sample costs nothing next to that work).
 * A line is printed at most every 2 s of wall time and only once the run has taken longer than
 * 2 s, so short runs print nothing; the ETA comes from the fraction of payload bytes arrived
 * so far. The reporter stops rescheduling itself when all the work is done, when it is the last
 * event left, or when nothing but itself happened since the previous sample once every workload
 * has started (messages lost on a lossy fabric never arrive; a pending stop event must not keep
 * the sampler going), so it never keeps a finished simulation alive.
 */
class ProgressReporter
{
  public:
    /**
     * \param os where lines go (stderr)
     * \param fraction returns the fraction of the work done, in [0, 1]
     * \param lastStart when the last workload starts: the run is not idle before that
     */
    ProgressReporter(std::ostream& os, std::function<double()> fraction, Time lastStart);

    /**
     * \param what what the fraction counts, as the line says it after the percentage (default
     * "of bytes arrived"; a pyxis workload: "of trips ended")
     */
    void SetWhat(const std::string& what)
    {
        m_what = what;
    }

    /// Start sampling (call before Simulator::Run).
    void Start();

    /// \return lines printed
    uint32_t GetLinesPrinted() const
    {
        return m_lines;
    }

    /// \return samples taken so far (each one event of the simulation)
    uint64_t GetSamples() const
    {
        return m_samples;
    }

  private:
    /// One sample.
    void Sample();

    std::ostream& m_os;                            //!< output
    std::function<double()> m_fraction;            //!< work done
    Time m_lastStart;                              //!< start of the last workload
    std::chrono::steady_clock::time_point m_start; //!< wall start
    double m_lastPrint{0};                         //!< wall seconds of the last line
    Time m_interval;                               //!< simulated time between samples
    uint64_t m_lastEvents{0};                      //!< events at the previous sample
    uint32_t m_lines{0};                           //!< lines printed
    uint64_t m_samples{0};                         //!< samples taken
    double m_quietSeconds{2.0};                    //!< no line before this much wall time
    double m_printEverySeconds{2.0};               //!< at most one line this often
    std::string m_what{"of bytes arrived"};        //!< what the fraction counts
};

} // namespace ns3

#endif /* POD_PROGRESS_REPORTER_H */
