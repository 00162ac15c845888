/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RIFL_VOQ_SWITCH_H
#define RIFL_VOQ_SWITCH_H

#include "ns3/event-id.h"
#include "ns3/fabric-islip-scheduler.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <cstdint>
#include <deque>
#include <vector>

namespace ns3
{

class FabricSwitch;
class FabricPacket;

/**
 * \ingroup rifl
 * \brief The RIFL switch core (RIFL paper section IV.C) inside a pod switch: a virtual output
 * queue per input and output, and a scheduler that decides at cell-time boundaries which
 * inputs send to which outputs (a conflict-free matching, delivered by the Batcher-Banyan
 * network in one cell time).
 *
 * It attaches to a FabricSwitch (FabricSwitch::SetIngressCallback): the switch still routes
 * (RIFL source routing, Equation 1) and admits each unit to its buffer (the link flow control
 * keeps the pod lossless); the unit then waits in VOQ (in, out) until the scheduler matches
 * (in, out), and goes to the output queue (FabricSwitch::EnqueueOutput).
 *
 * Architectures (Architecture attribute):
 * - Islip: VOQs and iSLIP with Iterations iterations (FabricIslipScheduler; 3 for the 32-port
 *   switch, section IV.C);
 * - Safc: the ideal statically allocated fully connected switch (section V.A): each output
 *   takes from its inputs round robin, an input may feed several outputs at once;
 * - Fifo: one FIFO per input (no VOQ): only the head unit of each input requests (head-of-line
 *   blocking), matched by the same iSLIP arbiters.
 *
 * Coarse events: a pod unit is a whole NIC packet of k cells (k = ceil(size / CellBytes),
 * 4224 B = 16 cells of 264 B). A match holds its input and output for the k cell times of
 * the unit (packet-mode scheduling: the unit's cells cross back to back), and the scheduler
 * runs only at the cell-time boundaries where a port becomes free or a unit arrives, not every
 * cell time. Ports: at most FabricIslipScheduler::MAX_PORTS (64).
 */
class RiflVoqSwitch : public Object
{
  public:
    /// Switch architectures.
    enum Architecture
    {
        ISLIP, //!< VOQ + iSLIP (the RIFL switch)
        SAFC,  //!< ideal statically allocated fully connected switch
        FIFO,  //!< input-queued FIFO, no VOQ
    };

    /// Counters.
    struct Stats
    {
        uint64_t units{0};      //!< units switched
        uint64_t cells{0};      //!< cells switched (units times their cells)
        uint64_t decisions{0};  //!< scheduler runs (cell-time boundaries evaluated)
        uint64_t peakQueued{0}; //!< most units held in the VOQs at once
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    RiflVoqSwitch();
    ~RiflVoqSwitch() override;

    /**
     * \brief Take over the switch's queueing (its ports must all be added).
     * \param sw the switch (held by a plain pointer: aggregate this object to it)
     */
    void Attach(Ptr<FabricSwitch> sw);

    /// \return the counters
    const Stats& GetStats() const
    {
        return m_stats;
    }

    /// \return units waiting in the VOQs
    uint64_t GetQueued() const
    {
        return m_queued;
    }

    /// \return the arbiters
    Ptr<FabricIslipScheduler> GetScheduler() const
    {
        return m_sched;
    }

    /// \return the architecture
    Architecture GetArchitecture() const
    {
        return m_arch;
    }

  protected:
    void DoDispose() override;

  private:
    /// \brief A routed, admitted unit enters its VOQ.
    /// \param p the unit
    void Ingress(Ptr<FabricPacket> p);
    /// \brief Schedule a decision at the next cell-time boundary (if none is due sooner).
    /// \param earliest no earlier than this
    void Kick(Time earliest);
    /// \brief One scheduler decision.
    void Decide();
    /// \brief Set the scheduler's request of (in, out) from the queues.
    /// \param in input
    void Refresh(uint32_t in);

    /// \return queue of (in, out)
    /// \param in input
    /// \param out output
    std::deque<Ptr<FabricPacket>>& Q(uint32_t in, uint32_t out)
    {
        return m_voq[m_arch == FIFO ? in : in * m_ports + out];
    }

    Architecture m_arch{ISLIP};                       //!< architecture
    Time m_cellTime;                                  //!< cell time
    uint32_t m_cellBytes{264};                        //!< bytes of one cell on the wire
    FabricSwitch* m_switch{nullptr};                  //!< the switch (aggregated with this object)
    Ptr<FabricIslipScheduler> m_sched;                //!< arbiters
    uint32_t m_ports{0};                              //!< ports
    std::vector<std::deque<Ptr<FabricPacket>>> m_voq; //!< per input x output (Fifo: per input)
    std::vector<uint64_t> m_req;                      //!< per output: inputs with a unit for it
    std::vector<Time> m_inFree;                       //!< per input: free from
    std::vector<Time> m_outFree;                      //!< per output: free from
    uint64_t m_queued{0};                             //!< units in the VOQs
    Time m_last{-1};                                  //!< time of the last decision
    EventId m_event;                                  //!< next decision
    Stats m_stats;                                    //!< counters
};

} // namespace ns3

#endif /* RIFL_VOQ_SWITCH_H */
