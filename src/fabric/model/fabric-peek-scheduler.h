/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_PEEK_SCHEDULER_H
#define FABRIC_PEEK_SCHEDULER_H

#include "ns3/object-factory.h"
#include "ns3/ptr.h"
#include "ns3/scheduler.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup fabric
 * \brief An event scheduler around another one that says whether an event of a given time stamp
 * is pending (FabricArrivalOrder asks it).
 *
 * ns-3.37's Simulator has no public way to look at the next event; FabricArrivalOrder needs one
 * to hand the units of a picosecond to their receivers after every other event of that
 * picosecond. Installed, this scheduler passes every call to the scheduler that the Inner
 * attribute (an ObjectFactory: FabricCheckScheduler and its own Inner fit) makes, so the order of
 * events is the inner one's (every ns-3 scheduler orders by time stamp, then insertion);
 * GetInstalled() returns the one the simulator holds. Without it, FabricArrivalOrder finds out by
 * deferring once more (one event more per picosecond with arrivals); the pod builder's runs
 * (Experiment, podsim-run-mpi) install it whenever pod.arrival-order is canonical.
 *
 * It also records the time stamp of each event it hands out, the time at which the simulator runs
 * it, for FabricClock::Now().
 *
 * The cost is one virtual call per insertion and removal.
 */
class FabricPeekScheduler : public Scheduler
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    FabricPeekScheduler();
    ~FabricPeekScheduler() override;

    void Insert(const Event& ev) override;
    bool IsEmpty() const override;
    Event PeekNext() const override;
    Event RemoveNext() override;
    void Remove(const Event& ev) override;

    /**
     * \param ts a time stamp (time steps)
     * \return true if the next pending event (cancelled ones included) has that time stamp
     */
    bool HasEventAt(uint64_t ts) const;

    /// \return the FabricPeekScheduler created last and still alive (the simulator's), or null
    static FabricPeekScheduler* GetInstalled();

  protected:
    void DoDispose() override;

  private:
    /// \brief Create the inner scheduler (first use).
    void Start();

    ObjectFactory m_inner;                   //!< Inner attribute
    Ptr<Scheduler> m_events;                 //!< the scheduler that holds the events
    static FabricPeekScheduler* m_installed; //!< the one created last, until destroyed
};

} // namespace ns3

#endif /* FABRIC_PEEK_SCHEDULER_H */
