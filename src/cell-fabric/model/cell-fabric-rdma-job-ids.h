/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CELL_FABRIC_RDMA_JOB_IDS_H
#define CELL_FABRIC_RDMA_JOB_IDS_H

#include <bitset>
#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup cell-fabric
 * \brief The RDMA job ids of one side (Tx or Rx) of a Pyxis chip's Fabric Adapter (Pyxis spec
 * 10.4, 10.7.2, 10.8.2): per cluster 256 ids of 8 bits, each the index of one Job
 * Table entry, with its 1-bit epoch and the sticky failed-job vector (10.7.1.2, 11.8).
 *
 * An id is active from its job's post to its retirement (ACK, or Rx completion); a second job on
 * an active id is refused, so a cluster has at most 256 active jobs per side. Every job takes
 * the id's current epoch and the epoch is incremented (it is one bit: it flips) for the next
 * invocation: the first job of an id has epoch 0, then 1, 0, ... (10.4: "initialized to zero ...
 * incremented automatically by hardware on each new job invocation"). A failed job keeps its id
 * (the failed-job vector) until software releases the cluster's failed jobs (11.8 step 2).
 */
class CellFabricRdmaJobIds
{
  public:
    /// Job ids per cluster and side (8 bits, 10.4).
    static constexpr uint32_t IDS = 256;

    /// One id's state.
    enum State
    {
        FREE,   //!< no job: the next post takes it
        ACTIVE, //!< a job posted and not retired
        FAILED, //!< its job failed (sticky until released)
    };

    /**
     * \param clusters clusters of the chip
     */
    void Configure(uint32_t clusters);

    /**
     * Take an id for a new job.
     * \param cluster the cluster
     * \param id the id (0 to 255)
     * \param[out] epoch the job's epoch
     * \param[out] error why it is refused (a cluster or id out of range, or an id not free)
     * \return false if refused
     */
    bool Acquire(uint32_t cluster, uint32_t id, uint8_t& epoch, std::string& error);

    /**
     * The id's job retired (completed): the id is free again.
     * \param cluster the cluster
     * \param id the id
     */
    void Retire(uint32_t cluster, uint32_t id);

    /**
     * The id's job failed: the id stays taken and is set in the failed-job vector.
     * \param cluster the cluster
     * \param id the id
     */
    void Fail(uint32_t cluster, uint32_t id);

    /**
     * Release the failed jobs of a cluster (trip flush, 11.8 step 2): their ids are free.
     * \param cluster the cluster
     * \return the ids released
     */
    std::vector<uint32_t> ReleaseFailed(uint32_t cluster);

    /**
     * \param cluster the cluster
     * \param id the id
     * \return the id's state
     */
    State GetState(uint32_t cluster, uint32_t id) const;

    /**
     * \param cluster the cluster
     * \return the failed-job vector (bit i: id i failed and is not released)
     */
    std::bitset<IDS> GetFailed(uint32_t cluster) const;

    /**
     * \param cluster the cluster
     * \return ids active (not failed) now
     */
    uint32_t GetActive(uint32_t cluster) const;

  private:
    /// One id (a Job Table entry).
    struct Entry
    {
        State state{FREE}; //!< its state
        uint8_t epoch{0};  //!< epoch of its next job
    };

    std::vector<Entry> m_ids; //!< cluster * IDS + id
};

} // namespace ns3

#endif /* CELL_FABRIC_RDMA_JOB_IDS_H */
