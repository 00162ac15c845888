/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_DEADLOCK_MONITOR_H
#define FABRIC_DEADLOCK_MONITOR_H

#include "fabric-switch.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup fabric
 * \brief Detects a flow-control deadlock among switches at run time, reports the cycle and
 * stops the simulation.
 *
 * With lossless flow control (PFC, credits), routes that make a cyclic buffer dependency can
 * deadlock: every egress port on a cycle waits for its peer's ingress buffer to drain, and that
 * buffer waits for the next egress port of the cycle. Nothing moves again, and with PFC the
 * pause refreshes keep the simulation running forever.
 *
 * The monitor watches the switches given to AddSwitch(). Every CheckInterval it looks at each
 * egress queue: a queue that was empty, or whose port transmitted a data unit since the
 * previous check (FabricTxQueue::GetDequeuedUnits() moved), made progress; a queue that holds
 * units and made no progress for at least Timeout is *stuck*. Once ports are stuck, it builds
 * the wait-for graph among them: egress port (S, o), whose peer is port j of a watched switch
 * N, waits for N's egress queues that hold units of the same class that arrived on j (their
 * departure is what frees j's ingress buffer, and so what lets the pause end or the credits
 * return). A cycle in that graph is a deadlock: the monitor builds a report naming the cycle's
 * ports ("<switch>:port<k>", GetPortName()), logs it (NS_LOG_WARN), fires the Deadlock trace,
 * keeps the report and the cycle for GetReport() and GetCycle(), and calls Simulator::Stop().
 * If every queue that holds units is stuck but the stuck ports form no cycle, nothing in the
 * fabric can move either: the monitor reports that stall (GetCycle() is then empty) and stops
 * as well.
 *
 * Progress is judged per port, so a deadlocked cycle is found even while unrelated traffic
 * still flows elsewhere; and the whole-fabric case (no watched port made progress for Timeout)
 * is the special case where every queued port is stuck.
 *
 * Termination: the monitor schedules nothing while it is idle. It is idle until a unit arrives
 * at a watched switch (FabricSwitch::Receive arms it through one pointer test) and goes idle
 * again at the first check that finds every watched queue empty, so it never keeps a finished
 * simulation alive: after the last unit leaves the switches at most one check runs (at most
 * CheckInterval later). After a deadlock it stays stopped.
 */
class FabricDeadlockMonitor : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    FabricDeadlockMonitor();
    ~FabricDeadlockMonitor() override;

    /**
     * \brief Watch a switch. Add the switches before traffic starts; ports added to a switch
     * later are watched too. A switch arms one monitor (the last that added it).
     * \param sw the switch
     * \param name its name in reports; empty: the ns-3 Names name of its node, or "node<id>"
     */
    void AddSwitch(Ptr<FabricSwitch> sw, const std::string& name = "");

    /// \return the number of switches watched
    uint32_t GetNSwitches() const
    {
        return m_switches.size();
    }

    /**
     * \brief Start checking (called by a watched switch when a unit arrives while the monitor
     * is idle). Does nothing if already armed or after a deadlock.
     */
    void Arm();

    /// \return true while checks are scheduled
    bool IsArmed() const
    {
        return m_armed;
    }

    /// \return true once a deadlock (or a stall of every queued port) stopped the run
    bool IsDeadlocked() const
    {
        return m_deadlocked;
    }

    /// \return the report of the deadlock, or an empty string if none was found
    const std::string& GetReport() const
    {
        return m_report;
    }

    /**
     * \return the egress ports of the deadlock cycle in wait-for order (each waits for the
     * next, the last for the first), starting with the first watched one (AddSwitch order, then
     * port index); empty if none was found
     */
    const std::vector<std::string>& GetCycle() const
    {
        return m_cycle;
    }

    /// \return when the deadlock was detected (zero if none was)
    Time GetDetectionTime() const
    {
        return m_detectedAt;
    }

    /// \return checks run so far
    uint64_t GetChecks() const
    {
        return m_checks;
    }

    /**
     * \brief The name of a port in reports: "<node>:port<k>", where node is \p nodeName, else
     * the node's ns-3 Names name, else "node<id>"; k is the port's index on its node. The
     * channel dependency check of src/pod names a channel after the port that transmits on it
     * the same way.
     * \param port a switch port
     * \param nodeName the name of its switch ("" for the default)
     * \return the name
     */
    static std::string GetPortName(const Ptr<FabricNetDevice>& port,
                                   const std::string& nodeName = "");

    /**
     * TracedCallback signature for a detected deadlock.
     * \param report the report (as GetReport())
     */
    typedef void (*DeadlockTracedCallback)(const std::string& report);

  protected:
    void DoDispose() override;

  private:
    /// What the monitor remembers of one egress port between checks.
    struct PortState
    {
        uint64_t dequeued{0}; //!< the queue's dequeued units at the last check
        Time since;           //!< last check at which it was seen making progress
        bool idle{true};      //!< it was empty at the last check
    };

    /// One watched switch.
    struct Watched
    {
        Ptr<FabricSwitch> sw;         //!< the switch
        std::string name;             //!< name for reports ("" for the default)
        std::vector<PortState> ports; //!< per port
    };

    /// A port: (index into m_switches, port index).
    typedef std::pair<uint32_t, uint32_t> PortRef;

    /// One periodic check.
    void Check();

    /**
     * Build the wait-for graph among the stuck ports and look for a cycle; report and stop if
     * there is one, or if \p all and there is none.
     * \param stuck the stuck ports, in (switch, port) order
     * \param all every port holding units is stuck
     * \return true if the run was stopped
     */
    bool Analyse(const std::vector<PortRef>& stuck, bool all);

    /**
     * The wait-for graph among the stuck ports: (S, o) -> (N, o') when N's egress o' holds
     * units of a class that (S, o) holds and that arrived on the port j of N facing (S, o).
     * \param stuck the stuck ports, in (switch, port) order (its vertices)
     * \return per vertex, the vertices it waits for
     */
    std::vector<std::vector<uint32_t>> WaitForGraph(const std::vector<PortRef>& stuck) const;

    /**
     * The report of a deadlock (a cycle) or of a stall (no cycle); fills m_cycle with the
     * cycle's port names.
     * \param stuck the stuck ports
     * \param cycle the cycle's vertices (indices into \p stuck), starting at the smallest;
     * empty for a stall
     * \param now the detection time
     * \return the report
     */
    std::string Report(const std::vector<PortRef>& stuck,
                       const std::vector<uint32_t>& cycle,
                       Time now);

    /**
     * \param p a port
     * \return its name in reports
     */
    std::string PortName(const PortRef& p) const;

    /**
     * \param p a port
     * \return "<name> (<units> units, <bytes> B queued)"
     */
    std::string Describe(const PortRef& p) const;

    /**
     * Set or clear the arm hook of every watched switch.
     * \param idle true: the next unit arms this monitor; false: no hook
     */
    void SetIdleHooks(bool idle);

    Time m_interval;                                    //!< CheckInterval
    Time m_timeout;                                     //!< Timeout
    std::vector<Watched> m_switches;                    //!< watched switches
    EventId m_event;                                    //!< the next check
    bool m_armed{false};                                //!< checks are scheduled
    bool m_deadlocked{false};                           //!< a deadlock stopped the run
    uint64_t m_checks{0};                               //!< checks run
    std::string m_report;                               //!< the report
    std::vector<std::string> m_cycle;                   //!< the cycle's ports
    Time m_detectedAt;                                  //!< detection time
    TracedCallback<const std::string&> m_deadlockTrace; //!< Deadlock trace source
};

} // namespace ns3

#endif /* FABRIC_DEADLOCK_MONITOR_H */
