/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PYXIS_FABRIC_BINDING_H
#define PYXIS_FABRIC_BINDING_H

#include "pyxis-rdma-engine.h"
#include "pyxis-trip.h"

#include "ns3/cell-fabric-adapter.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <map>
#include <tuple>

namespace ns3
{

class PyxisChip;

/**
 * \ingroup pyxis
 * \brief Binds a PyxisChip's RDMA Tx and Rx queues to its CellFabricAdapter through the explicit
 * RDMA job API (RdmaJobPosting Explicit; Pyxis spec 10.3, 11.4.6-7, 11.8).
 *
 * An RDMA Tx trip that passed its barrier becomes PostRdmaTx (its cluster, TJID, RJID, VOQ,
 * NumWords = bytes / 128, PageSizeWords); an RDMA Rx trip becomes PostRdmaRx (its cluster, RJID,
 * TJID, message VOQ back to the sender, whose chip the VOQ table gives). The completion
 * callback (Tx: ACK; Rx: last page committed) calls CompleteJob, which notifies the trip's
 * barriers. A refused post aborts the run with the adapter's reason, naming chip, cluster and
 * trip. On a Job Failed interrupt the trip of that job is failed (FailJob: no notify) and, with
 * FlushOnJobFailed, the chip runs the trip flush of 11.8: every cluster enters flush mode
 * (PyxisChip::Flush: trips not past their wait are discarded, barrier tables cleared when
 * drained) and the failed jobs of every cluster are released (ReleaseFailedRdmaJobs), so that
 * their ids can be posted again.
 */
class PyxisFabricBinding : public Object
{
  public:
    /// Counters.
    struct Stats
    {
        uint64_t txPosted{0};    //!< PostRdmaTx calls accepted
        uint64_t rxPosted{0};    //!< PostRdmaRx calls accepted
        uint64_t txCompleted{0}; //!< Tx jobs completed (ACK)
        uint64_t rxCompleted{0}; //!< Rx jobs completed (data ready)
        uint64_t failed{0};      //!< Job Failed interrupts of a trip's job
        uint64_t flushes{0};     //!< trip flushes started
        uint64_t released{0};    //!< failed jobs released (ReleaseFailedRdmaJobs)
        uint64_t txBytes{0};     //!< bytes of the completed Tx jobs
        uint64_t rxBytes{0};     //!< bytes of the completed Rx jobs
    };

    /**
     * TracedCallback signature of a failed job.
     * \param chip chip id
     * \param cluster cluster
     * \param tx true for a Tx job
     * \param jid its TJID or RJID
     * \param tripId its trip
     */
    typedef void (*JobFailedTracedCallback)(uint32_t chip,
                                            uint32_t cluster,
                                            bool tx,
                                            uint32_t jid,
                                            uint32_t tripId);

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    PyxisFabricBinding();
    ~PyxisFabricBinding() override;

    /**
     * Attach the chip's RDMA queues to the adapter (which must be RdmaJobPosting Explicit) and
     * take the adapter's Job Failed callback.
     * \param chip the chip
     * \param adapter its Fabric Adapter (same chip id)
     */
    void Bind(Ptr<PyxisChip> chip, Ptr<CellFabricAdapter> adapter);

    /**
     * The VOQ id of the adapter's default map (10.2).
     * \param chip destination chip
     * \param cluster destination cluster
     * \param oq OQ
     * \return the VOQ id, or UINT32_MAX if the map has none
     */
    uint32_t GetVoq(uint32_t chip, uint32_t cluster, uint32_t oq) const;

    /// \return the counters
    const Stats& GetStats() const
    {
        return m_stats;
    }

    /// \return jobs posted and not completed or failed
    uint32_t GetOpenJobs() const
    {
        return m_open.size();
    }

  protected:
    void DoDispose() override;

  private:
    /// An open job.
    typedef PyxisOpenRdmaJob Open;

    /**
     * A trip passed its barrier: post its job.
     * \param engine the queue
     * \param trip the trip
     */
    void Handle(Ptr<PyxisRdmaEngine> engine, const PyxisTrip& trip);

    /**
     * A job completed.
     * \param tx Tx side
     * \param c the completion
     */
    void Completed(bool tx, const CellFabricAdapter::RdmaCompletion& c);

    /**
     * Job Failed interrupt.
     * \param f the failure
     */
    void Failed(const CellFabricAdapter::RdmaFailure& f);

    Ptr<PyxisChip> m_chip;                                       //!< the chip
    Ptr<CellFabricAdapter> m_adapter;                            //!< its adapter
    bool m_flushOnFailure{true};                                 //!< FlushOnJobFailed
    std::map<std::tuple<bool, uint32_t, uint32_t>, Open> m_open; //!< open jobs
    Stats m_stats;                                               //!< counters
    TracedCallback<uint32_t, uint32_t, bool, uint32_t, uint32_t> m_failedTrace; //!< failures
};

} // namespace ns3

#endif /* PYXIS_FABRIC_BINDING_H */
