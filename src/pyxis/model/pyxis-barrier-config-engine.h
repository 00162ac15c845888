/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PYXIS_BARRIER_CONFIG_ENGINE_H
#define PYXIS_BARRIER_CONFIG_ENGINE_H

#include "pyxis-engine.h"

#include "ns3/ptr.h"

namespace ns3
{

class PyxisBarrierTable;

/**
 * \ingroup pyxis
 * \brief The barrier configuration engine of a cluster (Pyxis spec 11.3 item 6, 11.4.11): a trip
 * sets up one local barrier with set_ref_counts(Barrier_id, Notify_count, Wait_count).
 *
 * A trip takes ConfigCycles [assumption: the spec gives no time; 1 cycle], then issues the
 * operation to its cluster's barrier table. Counts above 31 are refused when the trip is
 * enqueued (CheckTrip); a set_ref_counts on a barrier whose counts are still valid (reused
 * before it was freed) aborts the run with the table's error.
 */
class PyxisBarrierConfigEngine : public PyxisEngine
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();

    PyxisBarrierConfigEngine();
    ~PyxisBarrierConfigEngine() override;

    /**
     * \param table the cluster's barrier table
     */
    void SetBarrierTable(Ptr<PyxisBarrierTable> table);

    bool CheckTrip(const PyxisTrip& trip, std::string& error) const override;

  protected:
    void DoDispose() override;
    void DoStart(const PyxisTrip& trip, Time goTime) override;
    Time GetCommitDelay() const override;

  private:
    /**
     * Issue the set_ref_counts.
     * \param trip the trip
     * \param start when it began
     */
    void End(PyxisTrip trip, Time start);

    Ptr<PyxisBarrierTable> m_table; //!< the cluster's barrier table
    uint32_t m_configCycles{1};     //!< cycles per trip
};

} // namespace ns3

#endif /* PYXIS_BARRIER_CONFIG_ENGINE_H */
