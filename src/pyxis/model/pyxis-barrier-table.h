/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PYXIS_BARRIER_TABLE_H
#define PYXIS_BARRIER_TABLE_H

#include "ns3/callback.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup pyxis
 * \brief The hardware barrier table of one cluster (Pyxis spec 11.6).
 *
 * 1024 barriers (attribute Barriers); id 0 is reserved as "no barrier". Each barrier holds a
 * 6-bit signed notify_count and wait_count and a ref_counts_valid flag (11.6.1). The three
 * primitives follow the 11.6.2 pseudocode exactly:
 *
 * - SetRefCounts(id, n, w): valid = true; notify_count += n; wait_count += w; if notify_count
 *   is 0 the waiting consumers are released; if both are 0 the barrier is freed.
 * - Notify(id): notify_count -= 1; at 0 with valid counts the waiting consumers are released,
 *   and the barrier is freed if wait_count is 0 too.
 * - Wait(id, go): wait_count -= 1; with notify_count 0 and valid counts the consumer goes at
 *   once (and the barrier is freed if wait_count is 0), else it waits.
 *
 * Free sets ref_counts_valid to false (counts are then 0). Operations are order independent:
 * notifies and waits may come before SetRefCounts, leaving negative counts.
 *
 * Refused, with an error string the caller reports (never a hang):
 * - an id of 0 or beyond the table;
 * - SetRefCounts with a count above 31 (the descriptor's 5-bit fields, 11.4.11), or on a barrier
 *   whose counts are valid already (a barrier must be freed before it is reused, 11.6.2);
 * - a Notify or Wait that would take its count below -32 (6-bit signed, 11.6.1).
 *
 * Software allocation of ids (TryAllocate, Allocate) hands out ids that are not in use; an id
 * returns to the pool when the barrier is freed. Running out is an error naming the cluster.
 */
class PyxisBarrierTable : public Object
{
  public:
    static constexpr int32_t MAX_COUNT = 31;  //!< most producers or consumers (5-bit fields)
    static constexpr int32_t MIN_COUNT = -32; //!< lowest 6-bit signed count

    /// Result of a Wait.
    enum WaitResult
    {
        WAIT_GO,      //!< the consumer may go at once
        WAIT_BLOCKED, //!< the consumer waits; its go callback is called on release
        WAIT_ERROR,   //!< refused (see the error string)
    };

    /// Counters.
    struct Stats
    {
        uint64_t setRefCounts{0}; //!< SetRefCounts operations
        uint64_t notifies{0};     //!< Notify operations
        uint64_t waits{0};        //!< Wait operations
        uint64_t releases{0};     //!< consumers released from waiting
        uint64_t frees{0};        //!< barriers freed
        uint64_t refusals{0};     //!< operations refused
        uint32_t peakInUse{0};    //!< most barriers in use at once
    };

    /**
     * TracedCallback signature of a barrier event.
     * \param cluster the table's cluster
     * \param id the local barrier id
     */
    typedef void (*BarrierTracedCallback)(uint32_t cluster, uint32_t id);

    /// \return the TypeId
    static TypeId GetTypeId();

    PyxisBarrierTable();
    ~PyxisBarrierTable() override;

    /**
     * set_ref_counts(id, notifyCount, waitCount) of 11.6.2.
     * \param id local barrier id
     * \param notifyCount producers, 0 to 31
     * \param waitCount consumers, 0 to 31
     * \param[out] error why, if refused
     * \return false if refused
     */
    bool SetRefCounts(uint32_t id, uint32_t notifyCount, uint32_t waitCount, std::string& error);

    /**
     * notify() of 11.6.2.
     * \param id local barrier id
     * \param[out] error why, if refused
     * \return false if refused
     */
    bool Notify(uint32_t id, std::string& error);

    /**
     * wait(consumer) of 11.6.2.
     * \param id local barrier id
     * \param go called when the barrier releases the consumer (not called on WAIT_GO)
     * \param[out] error why, if refused
     * \return what happened
     */
    WaitResult Wait(uint32_t id, Callback<void> go, std::string& error);

    /**
     * Take a barrier id not in use (not allocated, counts 0 and not valid, no waiter). It stays
     * allocated until the barrier is freed.
     * \param[out] id the id
     * \param[out] error why, if none is free
     * \return false if every id is in use
     */
    bool TryAllocate(uint32_t& id, std::string& error);

    /**
     * As TryAllocate, aborting with an error naming the chip and cluster when none is free.
     * \return the id
     */
    uint32_t Allocate();

    /// Clear the table (trip flush, 11.8): every barrier free, waiting consumers dropped.
    void Clear();

    /**
     * \param id local barrier id
     * \return its notify_count
     */
    int32_t GetNotifyCount(uint32_t id) const;

    /**
     * \param id local barrier id
     * \return its wait_count
     */
    int32_t GetWaitCount(uint32_t id) const;

    /**
     * \param id local barrier id
     * \return its ref_counts_valid flag
     */
    bool IsValid(uint32_t id) const;

    /**
     * \param id local barrier id
     * \return true if the id is not in use (see TryAllocate)
     */
    bool IsFree(uint32_t id) const;

    /// \return barriers in use
    uint32_t GetInUse() const;

    /// \return barriers in the table (ids 0 to Barriers - 1; 0 unusable)
    uint32_t GetBarriers() const;

    /// \return the counters
    const Stats& GetStats() const
    {
        return m_stats;
    }

    /// \return the cluster
    uint32_t GetCluster() const
    {
        return m_cluster;
    }

  protected:
    void DoDispose() override;

  private:
    /// One barrier object (11.6.1) and the model's bookkeeping.
    struct Barrier
    {
        int32_t notifyCount{0};                //!< 6-bit signed notify_count
        int32_t waitCount{0};                  //!< 6-bit signed wait_count
        bool refCountsValid{false};            //!< ref_counts_valid
        bool allocated{false};                 //!< handed out by TryAllocate
        std::vector<Callback<void>> consumers; //!< consumers waiting on it
    };

    /**
     * \param n barriers
     */
    void SetBarriers(uint32_t n);

    /**
     * \param id a local id
     * \param op the operation, for the error
     * \param[out] error why, if not a usable id
     * \return false if not usable
     */
    bool CheckId(uint32_t id, const char* op, std::string& error);

    /// \return "chip C cluster K" for messages
    std::string Where() const;

    /**
     * \param b a barrier
     * \return true if in use
     */
    static bool InUse(const Barrier& b);

    /**
     * release_waiting_consumers of 11.6.2.
     * \param id the barrier
     */
    void ReleaseWaitingConsumers(uint32_t id);

    /**
     * free of 11.6.2.
     * \param id the barrier
     */
    void Free(uint32_t id);

    /// Count the barriers in use into the peak.
    void UpdatePeak();

    uint32_t m_chip{0};              //!< chip id, for messages
    uint32_t m_cluster{0};           //!< cluster id
    std::vector<Barrier> m_barriers; //!< the table
    uint32_t m_nextAlloc{1};         //!< where TryAllocate looks first
    uint32_t m_inUse{0};             //!< barriers in use
    Stats m_stats;                   //!< counters

    TracedCallback<uint32_t, uint32_t> m_releasedTrace; //!< notify_count reached 0 (valid)
    TracedCallback<uint32_t, uint32_t> m_freedTrace;    //!< a barrier was freed
};

} // namespace ns3

#endif /* PYXIS_BARRIER_TABLE_H */
