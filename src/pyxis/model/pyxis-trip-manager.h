/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PYXIS_TRIP_MANAGER_H
#define PYXIS_TRIP_MANAGER_H

#include "pyxis-trip.h"

#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

class PyxisBarrierTable;
class PyxisDescriptorQueue;
class PyxisEngine;

/**
 * \ingroup pyxis
 * \brief The Trip Manager of one cluster (Pyxis spec 11.3).
 *
 * One descriptor queue (PyxisDescriptorQueue, a ring of 4 lists) per engine (AddEngine). For
 * the trip at the head of each queue the Trip Manager issues wait(wait_barrier_id) to the
 * cluster's barrier table (no wait for id 0); on "go" it dispatches the trip to the engine as
 * soon as the engine can take it; when the engine reports the trip done (after its write
 * commit) it issues notify() to every barrier of the notify list, in any cluster of the chip
 * (global ids). Only the head trip of a queue waits: the next trip's wait is issued when the
 * head has been dispatched, so a released trip can wait for its busy engine.
 *
 * Software side: Submit validates a descriptor list (refusing bad trips with an error that names
 * the chip, cluster, queue, trip and field) and enqueues it to the ring, or keeps it in a
 * software backlog while the ring is full and enqueues it when a list has been fetched
 * [assumption: the driver reacts at once]. TryEnqueue is the hardware enqueue that fails on a
 * full ring.
 *
 * Trip flush (11.8, SetFlushMode): trips not yet past their barrier wait (queued, backlogged or
 * waiting) are discarded without notify (TripDiscarded), and so is every trip submitted while
 * the mode is on; trips past their wait finish normally and notify. When the cluster is
 * drained (no trip past its wait left) the drained callback is called; PyxisChip then clears
 * the barrier tables.
 */
class PyxisTripManager : public Object
{
  public:
    /// Counters.
    struct Stats
    {
        uint64_t submitted{0};  //!< trips accepted by Submit or TryEnqueue
        uint64_t dispatched{0}; //!< trips handed to their engine
        uint64_t done{0};       //!< trips done and notified
        uint64_t failed{0};     //!< trips done without notify (failed RDMA jobs)
        uint64_t discarded{0};  //!< trips discarded by a flush
        uint64_t notifies{0};   //!< notify operations issued
    };

    /**
     * TracedCallback signature of a discarded trip.
     * \param chip chip id
     * \param cluster cluster
     * \param queue queue id
     * \param tripId the trip's id
     */
    typedef void (*TripDiscardedTracedCallback)(uint32_t chip,
                                                uint32_t cluster,
                                                uint32_t queue,
                                                uint32_t tripId);

    /// \return the TypeId
    static TypeId GetTypeId();

    PyxisTripManager();
    ~PyxisTripManager() override;

    /**
     * \param tables the barrier table of every cluster of the chip, by cluster
     */
    void SetBarrierTables(const std::vector<Ptr<PyxisBarrierTable>>& tables);

    /**
     * Add an engine and its descriptor queue.
     * \param queue the queue id (Pyxis spec Table 11-1)
     * \param engine the engine
     */
    void AddEngine(uint32_t queue, Ptr<PyxisEngine> engine);

    /**
     * \param queue a queue id
     * \return its engine (null if none)
     */
    Ptr<PyxisEngine> GetEngine(uint32_t queue) const;

    /**
     * \param queue a queue id
     * \return its descriptor ring (null if none)
     */
    Ptr<PyxisDescriptorQueue> GetQueue(uint32_t queue) const;

    /**
     * Check a trip for a queue: the header (wait barrier local and in range, at most 8 notify
     * entries in existing clusters and ids, 20-bit trip id) and the engine's payload limits.
     * \param queue the queue id
     * \param trip the trip
     * \param[out] error why, if refused (naming chip, cluster, queue, trip and field)
     * \return false if refused
     */
    bool CheckTrip(uint32_t queue, const PyxisTrip& trip, std::string& error) const;

    /**
     * The hardware enqueue of a list (11.5.1.1): refused if a trip is bad or the ring is full.
     * \param queue the queue id
     * \param list the trips
     * \param[out] error why, if refused
     * \return false if refused
     */
    bool TryEnqueue(uint32_t queue, const std::vector<PyxisTrip>& list, std::string& error);

    /**
     * The software driver: enqueue a list, keeping it until the ring has room. Aborts with the
     * error of CheckTrip on a bad trip.
     * \param queue the queue id
     * \param list the trips
     */
    void Submit(uint32_t queue, const std::vector<PyxisTrip>& list);

    /**
     * Submit a list of one trip.
     * \param queue the queue id
     * \param trip the trip
     */
    void Submit(uint32_t queue, const PyxisTrip& trip);

    /**
     * Trip flush mode (11.8).
     * \param on true to enter it (discarding what has not passed its wait), false to leave it
     */
    void SetFlushMode(bool on);

    /**
     * \param drained called (once per flush) when, in flush mode, no trip past its wait is left
     */
    void SetDrainedCallback(Callback<void> drained);

    /// \return trips dispatched and not yet done
    uint32_t GetOutstanding() const
    {
        return m_outstanding;
    }

    /// \return true if no trip is queued, backlogged, waiting, ready or outstanding
    bool IsIdle() const;

    /// \return the counters
    const Stats& GetStats() const
    {
        return m_stats;
    }

  protected:
    void DoDispose() override;

  private:
    /// One queue and its engine.
    struct Queue
    {
        Ptr<PyxisDescriptorQueue> ring;             //!< the ring of lists
        Ptr<PyxisEngine> engine;                    //!< its engine
        std::deque<std::vector<PyxisTrip>> backlog; //!< lists waiting for ring space
        bool hasHead{false};                        //!< a trip was fetched and not dispatched
        bool headReady{false};                      //!< it passed its barrier wait
        PyxisTrip head;                             //!< that trip
        Time goTime;                                //!< when it passed
        uint64_t token{0};                          //!< invalidates a cancelled wait
    };

    /**
     * Fetch the next trip of a queue if it has none and issue its wait.
     * \param q the queue id
     */
    void Advance(uint32_t q);

    /**
     * Move backlogged lists into the ring while it has room.
     * \param q the queue id
     */
    void FeedRing(uint32_t q);

    /**
     * Dispatch the head trip if it passed its wait and the engine is free.
     * \param q the queue id
     */
    void TryDispatch(uint32_t q);

    /**
     * The barrier released a waiting head trip.
     * \param q the queue id
     * \param token the wait's token
     */
    void Go(uint32_t q, uint64_t token);

    /**
     * An engine can take the next trip.
     * \param q the queue id
     */
    void Released(uint32_t q);

    /**
     * An engine reports a trip done.
     * \param q the queue id
     * \param trip the trip
     * \param notify notify its barriers (false: failed)
     */
    void Done(uint32_t q, PyxisTrip trip, bool notify);

    /**
     * Discard a trip (flush).
     * \param q the queue id
     * \param trip the trip
     */
    void Discard(uint32_t q, const PyxisTrip& trip);

    /// In flush mode, call the drained callback once nothing past its wait is left.
    void CheckDrained();

    /**
     * \param q a queue id
     * \return "chip C cluster K queue 0xQQ (name)"
     */
    std::string Where(uint32_t q) const;

    uint32_t m_chip{0};                           //!< chip id
    uint32_t m_cluster{0};                        //!< cluster
    std::vector<Ptr<PyxisBarrierTable>> m_tables; //!< barrier tables by cluster
    std::map<uint32_t, Queue> m_queues;           //!< queues by id
    uint32_t m_outstanding{0};                    //!< dispatched, not done
    bool m_flush{false};                          //!< flush mode
    bool m_drainedSignalled{false};               //!< drained callback called this flush
    Callback<void> m_drained;                     //!< drained callback
    Stats m_stats;                                //!< counters
    TracedCallback<uint32_t, uint32_t, uint32_t, uint32_t> m_discardedTrace; //!< discarded
};

} // namespace ns3

#endif /* PYXIS_TRIP_MANAGER_H */
