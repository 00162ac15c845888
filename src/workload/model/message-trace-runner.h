/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MESSAGE_TRACE_RUNNER_H
#define MESSAGE_TRACE_RUNNER_H

#include "message-trace.h"

#include "ns3/fabric-endpoint.h"
#include "ns3/fabric-message.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup workload
 * \brief Replays a MessageTrace on a pod's endpoints through the endpoint API.
 *
 * A row with a time is issued at the workload's start plus its time; a row with `after` once
 * every message it names has completed (the endpoint's completed callback, at the initiator),
 * plus its delay. Posting is streamed: one pending event for the timed rows (the next distinct
 * time, rows sorted once by time), and one per row whose references have all completed, so a
 * trace of a million rows holds no million events.
 *
 * Messages carry a cookie of their own (COOKIE_FLAG, the runner's number, the row), by which
 * the runner follows their completions and the pod's message table records them.
 *
 * Memory on top of the trace: 28 bytes per row (its issue and completion times, its count of
 * references not yet completed, its place in the time order and in the dependents' index) and
 * 4 bytes per `after` reference.
 */
class MessageTraceRunner
{
  public:
    /// Marks a trace message's cookie (bit 61; 62 is Pyxis's, 63 the collectives').
    static constexpr uint64_t COOKIE_FLAG = uint64_t(1) << 61;

    /**
     * \param trace the trace
     * \param placement rank -> accelerator
     * \param tclass traffic class of every message
     * \param start the workload's start
     */
    MessageTraceRunner(std::shared_ptr<const MessageTrace> trace,
                       std::vector<uint32_t> placement,
                       uint8_t tclass,
                       Time start);

    /**
     * Connect to the endpoints and schedule the first timed rows (call before the simulation).
     * \param endpoints the pod's endpoints, by accelerator
     * \param [out] error why it cannot start
     * \return false if it cannot (a placement beyond the endpoints)
     */
    bool Start(const std::vector<Ptr<FabricEndpoint>>& endpoints, std::string& error);

    /// \param cookie a message cookie \return true if it is one of this runner's messages
    bool Owns(uint64_t cookie) const;

    /**
     * The accelerators a message of this runner moves data between.
     * \param cookie its cookie (Owns())
     * \param [out] src the accelerator its data leaves (a read's target)
     * \param [out] dst the accelerator its data reaches
     */
    void GetEnds(uint64_t cookie, uint32_t& src, uint32_t& dst) const;

    /// \return the rows issued so far
    uint64_t GetIssued() const
    {
        return m_issued;
    }

    /// \return the rows completed so far
    uint64_t GetCompleted() const
    {
        return m_completed;
    }

    /// \return each row's issue time (-1: not issued)
    const std::vector<int64_t>& GetIssuePs() const
    {
        return m_issuePs;
    }

    /// \return each row's completion time (-1: not completed)
    const std::vector<int64_t>& GetCompletePs() const
    {
        return m_completePs;
    }

    /// \return the trace
    const MessageTrace& GetTrace() const
    {
        return *m_trace;
    }

    /// \return the placement (rank -> accelerator)
    const std::vector<uint32_t>& GetPlacement() const
    {
        return m_placement;
    }

  private:
    /// Issue the timed rows due now and schedule the next time.
    void PostDue();

    /**
     * Issue a row through the endpoint API.
     * \param row the row
     */
    void Post(uint32_t row);

    /**
     * An endpoint's completed trace: a row completed (others' messages are ignored).
     * \param m the message
     */
    void Completed(const FabricMessage& m);

    std::shared_ptr<const MessageTrace> m_trace;  //!< the trace
    std::vector<uint32_t> m_placement;            //!< rank -> accelerator
    uint8_t m_tclass;                             //!< traffic class
    Time m_start;                                 //!< the workload's start
    uint64_t m_tagBits;                           //!< COOKIE_FLAG and the runner's number
    std::vector<Ptr<FabricEndpoint>> m_endpoints; //!< the pod's endpoints
    std::vector<uint32_t> m_timed;                //!< timed rows by (time, row)
    std::size_t m_nextTimed{0};                   //!< next of m_timed to issue
    std::vector<uint32_t> m_waiting;              //!< per row: references not yet completed
    std::vector<uint32_t> m_depBegin;             //!< dependents' index (CSR offsets, rows + 1)
    std::vector<uint32_t> m_dependents;           //!< rows that name each row in `after`
    std::vector<int64_t> m_issuePs;               //!< per row: issue time (-1: not yet)
    std::vector<int64_t> m_completePs;            //!< per row: completion time (-1: not yet)
    uint64_t m_issued{0};                         //!< rows issued
    uint64_t m_completed{0};                      //!< rows completed
};

} // namespace ns3

#endif /* MESSAGE_TRACE_RUNNER_H */
