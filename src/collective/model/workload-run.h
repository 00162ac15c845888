/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef WORKLOAD_RUN_H
#define WORKLOAD_RUN_H

#include "ns3/nstime.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup collective
 * \brief One running workload of a plug-in kind (WorkloadKind::Start), as the pod's runner
 * follows it: its progress, its messages (which the runner's message table does not record:
 * the kind keeps its own tables), its end and its results.
 */
class WorkloadRun
{
  public:
    virtual ~WorkloadRun();

    /// \return the fraction done, 0 to 1, for the progress line
    virtual double GetProgress() const = 0;

    /// \return what GetProgress() counts, for the progress line ("of trips ended")
    virtual std::string GetProgressWhat() const;

    /**
     * \param cookie a message's cookie
     * \return true if the message is this workload's own (its table records it, not the
     *         runner's)
     */
    virtual bool OwnsMessage(uint64_t cookie) const;

    /**
     * A workload whose messages the runner's message table (/messages) records, as it records
     * the pod's own workloads' messages: a row added when each is posted, its delivery and
     * completion times filled in as they happen.
     * \param cookie a message's cookie
     * \param [out] src the accelerator its data leaves (a read's target)
     * \param [out] dst the accelerator its data reaches (a read's initiator)
     * \return true if the message is this workload's and the table records it
     */
    virtual bool TablesMessage(uint64_t cookie, uint32_t& src, uint32_t& dst) const;

    /// Gather the results once the simulation has ended (before the calls below).
    virtual void Finish() = 0;

    /// \return when the workload's last work ended (after Finish())
    virtual Time GetEnd() const = 0;

    /// \return one line for the run's summary (after Finish())
    virtual std::string GetSummaryLine() const = 0;

    /**
     * Add the workload's tables to a results file the runner wrote (after Finish()).
     * \param file the HDF5 file
     * \return false if they could not be written
     */
    virtual bool WriteTables(const std::string& file) const = 0;
};

} // namespace ns3

#endif /* WORKLOAD_RUN_H */
