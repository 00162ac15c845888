/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PYXIS_ENGINE_H
#define PYXIS_ENGINE_H

#include "pyxis-trip.h"

#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup pyxis
 * \brief An engine behind one descriptor queue (Pyxis spec 11.3): UIE, DMA, MPE, barrier config,
 * RDMA job manager.
 *
 * Non-virtual interface: the Trip Manager calls Start with a trip that has passed its barrier
 * wait; the engine (DoStart) runs it and reports through three protected calls:
 * - BeginTrip when the trip starts executing (TripStart trace),
 * - EndTrip when its work ends (TripEnd trace); after CommitDelay, the AMEM write commit of
 *   11.7.1-2, the Trip Manager is told the trip is done and notifies its barriers (in trip
 *   order, since the commit delay of an engine is constant),
 * - ReleaseEngine when the engine can take the next trip.
 * A serial engine (all but RDMA) runs one trip at a time: it releases at EndTrip, so the
 * commit of one trip overlaps the next trip (the UIE scoreboard of 11.7.1). Trips of a queue are
 * taken in FIFO order.
 */
class PyxisEngine : public Object
{
  public:
    /**
     * TracedCallback signature of a trip start.
     * \param chip chip id
     * \param cluster cluster
     * \param queue queue id of the engine (Table 11-1)
     * \param tripId the trip's id
     * \param start when it started
     */
    typedef void (*TripStartTracedCallback)(uint32_t chip,
                                            uint32_t cluster,
                                            uint32_t queue,
                                            uint32_t tripId,
                                            Time start);

    /**
     * TracedCallback signature of a trip end.
     * \param chip chip id
     * \param cluster cluster
     * \param queue queue id of the engine (Table 11-1)
     * \param tripId the trip's id
     * \param start when it started
     * \param end when its work ended (its barriers are notified CommitDelay later)
     */
    typedef void (*TripEndTracedCallback)(uint32_t chip,
                                          uint32_t cluster,
                                          uint32_t queue,
                                          uint32_t tripId,
                                          Time start,
                                          Time end);

    /// \return the TypeId
    static TypeId GetTypeId();

    PyxisEngine();
    ~PyxisEngine() override;

    /**
     * Place the engine (called by PyxisChip).
     * \param chip chip id
     * \param cluster cluster
     * \param queue queue id
     * \param clockGhz chip clock in GHz
     */
    void SetIdentity(uint32_t chip, uint32_t cluster, uint32_t queue, double clockGhz);

    /**
     * Connect the engine to its Trip Manager.
     * \param released called when the engine can take the next trip
     * \param done called when a trip is done (after its commit), with true if its barriers are
     *        to be notified (false: the trip failed, e.g. a failed RDMA job)
     */
    void SetTripManager(Callback<void> released, Callback<void, PyxisTrip, bool> done);

    /**
     * Check a trip's payload against the engine's limits.
     * \param trip the trip
     * \param[out] error why, if refused
     * \return false if refused
     */
    virtual bool CheckTrip(const PyxisTrip& trip, std::string& error) const = 0;

    /**
     * Start a trip (the engine must not be busy).
     * \param trip the trip
     * \param goTime when its barrier released it
     */
    void Start(const PyxisTrip& trip, Time goTime);

    /// \return true if the engine cannot take a trip now
    bool IsBusy() const
    {
        return m_busy;
    }

    /**
     * \param cycles chip cycles
     * \return their time at the chip clock, rounded to the picosecond
     */
    Time Cycles(double cycles) const;

    /// \return the queue id
    uint32_t GetQueue() const
    {
        return m_queue;
    }

    /// \return the cluster
    uint32_t GetCluster() const
    {
        return m_cluster;
    }

    /// \return "chip C cluster K queue 0xQQ (name)" for messages
    std::string Where() const;

  protected:
    void DoDispose() override;

    /**
     * Run a trip; report with BeginTrip, EndTrip and ReleaseEngine.
     * \param trip the trip
     * \param goTime when its barrier released it
     */
    virtual void DoStart(const PyxisTrip& trip, Time goTime) = 0;

    /**
     * \return the AMEM write-commit delay between EndTrip and done (0: none)
     */
    virtual Time GetCommitDelay() const = 0;

    /**
     * The trip starts executing now.
     * \param trip the trip
     */
    void BeginTrip(const PyxisTrip& trip);

    /**
     * The trip's work ended now; it is done (notify) after the commit delay.
     * \param trip the trip
     * \param start when it began (BeginTrip)
     */
    void EndTrip(const PyxisTrip& trip, Time start);

    /**
     * The trip failed: it is done now without notifying its barriers.
     * \param trip the trip
     */
    void FailTrip(const PyxisTrip& trip);

    /// The engine can take the next trip.
    void ReleaseEngine();

    uint32_t m_chip{0};      //!< chip id
    uint32_t m_cluster{0};   //!< cluster
    uint32_t m_queue{0};     //!< queue id
    double m_clockGhz{1.33}; //!< chip clock

  private:
    /**
     * Report a trip done to the Trip Manager.
     * \param trip the trip
     * \param notify notify its barriers
     */
    void Done(PyxisTrip trip, bool notify);

    bool m_busy{false};                     //!< between Start and ReleaseEngine
    Callback<void> m_released;              //!< to the Trip Manager: engine free
    Callback<void, PyxisTrip, bool> m_done; //!< to the Trip Manager: trip done
    TracedCallback<uint32_t, uint32_t, uint32_t, uint32_t, Time> m_tripStartTrace;     //!< start
    TracedCallback<uint32_t, uint32_t, uint32_t, uint32_t, Time, Time> m_tripEndTrace; //!< end
};

} // namespace ns3

#endif /* PYXIS_ENGINE_H */
