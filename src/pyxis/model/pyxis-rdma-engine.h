/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PYXIS_RDMA_ENGINE_H
#define PYXIS_RDMA_ENGINE_H

#include "pyxis-engine.h"

#include "ns3/ptr.h"

#include <map>

namespace ns3
{

/**
 * \ingroup pyxis
 * \brief The interface of an RDMA Tx or Rx descriptor queue to the Fabric Adapter's job
 * managers (Pyxis spec 10.7.1, 10.8.1, 11.3, 11.4.6-7).
 *
 * This class does not model RDMA: it hands each trip that has passed its barrier wait to a job
 * handler (SetJobHandler: the fabric adapter's job API plugs in here) and takes the next trip at
 * once, since the job manager holds many jobs in its job table and completes them out of order.
 * The handler reports each job with CompleteJob (Rx: its last page committed; Tx: its ACK
 * arrived), which notifies the trip's barriers, or FailJob (Job Failed), which does not.
 * Trips are found again by their trip id, which must be unique among the queue's open jobs.
 *
 * A trip dispatched with no handler attached aborts the run, naming the queue.
 */
class PyxisRdmaEngine : public PyxisEngine
{
  public:
    /// The job handler: the engine and the trip (a Tx or Rx job descriptor).
    typedef Callback<void, Ptr<PyxisRdmaEngine>, const PyxisTrip&> JobHandler;

    /// \return the TypeId
    static TypeId GetTypeId();

    PyxisRdmaEngine();
    ~PyxisRdmaEngine() override;

    /**
     * \param handler called with each trip that passed its barrier wait
     */
    void SetJobHandler(JobHandler handler);

    /// \return true if this is an RDMA Tx queue (else Rx)
    bool IsTx() const;

    /**
     * The job of a trip completed: its barriers are notified now.
     * \param tripId the trip's id
     */
    void CompleteJob(uint32_t tripId);

    /**
     * The job of a trip failed (Job Failed, 10.3.1): done without notify.
     * \param tripId the trip's id
     */
    void FailJob(uint32_t tripId);

    /// \return jobs handed to the handler and not yet completed or failed
    uint32_t GetOpenJobs() const
    {
        return m_open.size();
    }

    bool CheckTrip(const PyxisTrip& trip, std::string& error) const override;

  protected:
    void DoDispose() override;
    void DoStart(const PyxisTrip& trip, Time goTime) override;
    Time GetCommitDelay() const override;

  private:
    /// An open job.
    struct Open
    {
        PyxisTrip trip; //!< its trip
        Time start;     //!< when it was handed over
    };

    JobHandler m_handler;            //!< the fabric adapter's job API
    std::map<uint32_t, Open> m_open; //!< open jobs by trip id
};

/**
 * \ingroup pyxis
 * \brief An RDMA job that a fabric binding holds open: the queue it came from, its trip and its
 * bytes (PyxisFabricBinding, PyxisEndpointBinding).
 */
struct PyxisOpenRdmaJob
{
    Ptr<PyxisRdmaEngine> engine; //!< its queue
    uint32_t tripId{0};          //!< its trip
    uint64_t bytes{0};           //!< its bytes
};

} // namespace ns3

#endif /* PYXIS_RDMA_ENGINE_H */
