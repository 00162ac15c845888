/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_CHECK_SCHEDULER_H
#define FABRIC_CHECK_SCHEDULER_H

#include "ns3/scheduler.h"

#include <string>

namespace ns3
{

/**
 * \ingroup fabric
 * \brief An event scheduler that checks event times around another one (`podsim run --check`).
 *
 * It passes every call to the scheduler named by the Inner attribute and checks the
 * "no event scheduled in the past" invariant: an event inserted with a time stamp before the
 * time of the last event removed (the simulator's present) is a violation, and so is an event
 * removed before that time (the inner scheduler out of order). Time stamps are read as signed,
 * so a negative delay (which Debian's release build of ns-3 does not assert against: its
 * NS_ASSERT is compiled out, and the negative stamp wraps to a huge unsigned one) is caught
 * too. Violations go through FabricInvariantCheck::Fail (the component is "scheduler"), whether
 * or not FabricInvariantCheck is enabled: installing this scheduler is the switch.
 *
 * The cost is one virtual call and one comparison per insertion and removal; it is installed only
 * in check mode.
 */
class FabricCheckScheduler : public Scheduler
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    FabricCheckScheduler();
    ~FabricCheckScheduler() override;

    void Insert(const Event& ev) override;
    bool IsEmpty() const override;
    Event PeekNext() const override;
    Event RemoveNext() override;
    void Remove(const Event& ev) override;

    /// \return events whose time was checked (insertions and removals)
    uint64_t GetChecks() const
    {
        return m_checks;
    }

  protected:
    void DoDispose() override;

  private:
    /// \brief Create the inner scheduler (first use).
    void Start();

    std::string m_innerType{"ns3::MapScheduler"}; //!< Inner attribute
    Ptr<Scheduler> m_inner;                       //!< the scheduler that holds the events
    int64_t m_now{0};                             //!< time stamp of the last event removed
    uint64_t m_checks{0};                         //!< checks done
};

} // namespace ns3

#endif /* FABRIC_CHECK_SCHEDULER_H */
