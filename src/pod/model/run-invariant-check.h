/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef POD_RUN_INVARIANT_CHECK_H
#define POD_RUN_INVARIANT_CHECK_H

#include "run-results.h"

#include "ns3/fabric-packet.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

class PodTopology;
class FabricNetDevice;

/**
 * \ingroup pod
 * \brief The run-level part of `podsim run --check`: names the pod's components for the
 * messages of the checks done while running (FabricInvariantCheck), watches every drop, and at the
 * end checks each flow's bytes and each message's completion.
 *
 * At the end of a run (Finish):
 * - **message completion**: a message is delivered at most once (Delivered, during the run), and
 *   its delivery and completion times are never before its post time;
 * - **byte conservation per flow** (source, destination pair): bytes posted = bytes delivered +
 *   bytes of messages not delivered; a flow may have undelivered bytes only when they are
 *   accounted: the flow (either direction) lost units that were counted as dropped with a
 *   reason (at most one undelivered message per dropped unit), its transport connection failed,
 *   or the run was stopped (stop time, deadlock or watchdog) with them in flight. Without any of
 * these a run that ended by itself has every message delivered and completed;
 * - **drained**: when the run ended by itself (no stop, no deadlock, no link fault, no failed
 *   connection), every switch buffer and output queue is empty and every credit is back home
 *   (fabric credit flow control, UALink TL credits, cell-fabric Rx buffer cells and grants).
 *
 * A violation throws FabricInvariantCheck::Violation.
 */
class RunInvariantCheck
{
  public:
    /// Drops seen on one flow (either kind of unit: data or transport ACK).
    struct FlowDrops
    {
        uint64_t units{0};             //!< units dropped
        uint64_t bytes{0};             //!< payload bytes dropped
        std::set<std::string> reasons; //!< their reasons
    };

    /// What Finish() found.
    struct Summary
    {
        uint64_t flows{0};          //!< flows checked
        uint64_t messages{0};       //!< messages checked
        uint64_t postedBytes{0};    //!< bytes posted
        uint64_t deliveredBytes{0}; //!< bytes delivered
        uint64_t lostBytes{0};      //!< bytes of undelivered messages on flows with drops/failures
        uint64_t inFlightBytes{0};  //!< bytes of undelivered messages of a stopped run
    };

    RunInvariantCheck();

    /**
     * \brief Name the pod's components for the messages and watch every device's drops.
     * \param topo the built pod
     */
    void Watch(const PodTopology& topo);

    /**
     * \brief Count a dropped unit on its flow (the devices' Drop trace calls it; tests too).
     * \param p the unit
     * \param reason its reason
     */
    void Dropped(Ptr<const FabricPacket> p, const std::string& reason);

    /**
     * \brief Count one dropped piece of a flow (a UALink switch's Drop trace: an operation).
     * \param src its source
     * \param dst its destination
     * \param reason its reason
     */
    void DroppedPiece(uint32_t src, uint32_t dst, const std::string& reason);

    /**
     * \brief A message was delivered: fails if it was delivered before.
     * \param src source
     * \param dst destination
     * \param id message id
     * \param again its row was delivered before
     */
    void Delivered(uint32_t src, uint32_t dst, uint64_t id, bool again);

    /**
     * \brief The end-of-run checks.
     * \param messages the message table
     * \param stopped the run was stopped (stop time, deadlock or watchdog) with messages
     * outstanding \return what was checked
     */
    Summary CheckMessages(const RunResults::Messages& messages, bool stopped) const;

    /**
     * \brief Check that the pod drained: buffers empty, credits home. The fabric credits of a
     * link on which a credit frame was lost to corruption are not checked: a lost last credit
     * frame is repaired by no later one, so such a link may end short of credits. (A data unit
     * lost on the wire gets its credits back: FabricCreditFlowControl::NotifyLost.)
     * \param topo the pod
     * \return the links whose credits were not checked for that reason
     */
    uint64_t CheckDrained(const PodTopology& topo) const;

    /// \return the drops seen, by flow key (src << 32 | dst)
    const std::unordered_map<uint64_t, FlowDrops>& GetDrops() const
    {
        return m_drops;
    }

  private:
    /**
     * \brief A device's Drop trace (bound to the device): counts the drop on its flow and notes
     * a corruption.
     * \param self the check
     * \param dev the device
     * \param p the unit
     * \param reason its reason
     */
    static void DeviceDropped(RunInvariantCheck* self,
                              const FabricNetDevice* dev,
                              Ptr<const FabricPacket> p,
                              const std::string& reason);

    /**
     * \param src source
     * \param dst destination
     * \return true if a transport connection from src to dst gave up (go-back-N MaxRetries)
     */
    bool ConnectionFailed(uint32_t src, uint32_t dst) const;

    /// \param src source \param dst destination \return the flow key
    static uint64_t Key(uint32_t src, uint32_t dst)
    {
        return (static_cast<uint64_t>(src) << 32) | dst;
    }

    std::unordered_map<uint64_t, FlowDrops> m_drops; //!< drops by flow
    const PodTopology* m_topo{nullptr};              //!< the pod (Watch), for failed connections
    std::set<const FabricNetDevice*> m_corrupted;    //!< devices that dropped corrupted units
};

} // namespace ns3

#endif /* POD_RUN_INVARIANT_CHECK_H */
