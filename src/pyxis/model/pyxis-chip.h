/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PYXIS_CHIP_H
#define PYXIS_CHIP_H

#include "pyxis-rdma-engine.h"
#include "pyxis-trip.h"

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class PyxisBarrierTable;
class PyxisCoreSwitch;
class PyxisEngine;
class PyxisHbmBus;
class PyxisTripManager;

/**
 * \ingroup pyxis
 * \brief A Pyxis chip's trip machinery (Pyxis spec 1, 5, 11, 12): Clusters clusters, each with a
 * Trip Manager, a barrier table and the engines of its descriptor queues, and the chip's Core
 * Switch.
 *
 * Per cluster (queue ids of Table 11-1): UiesPerCluster PyxisUieEngine (0x00-), 2 RDMA Tx and 2
 * RDMA Rx PyxisRdmaEngine interfaces (0x0C-0x0F), the H2A and A2H PyxisHbmDmaEngine (0x10,
 * 0x11) on the cluster's PyxisHbmBus, Clusters-1 PyxisIcdmaEngine (0x12-) to the other clusters,
 * 13 PyxisMpeEngine (0x15-0x21) and the PyxisBarrierConfigEngine (0x22). The parts are built on
 * first use (set the attributes before); Config::SetDefault or GetEngine(...)->SetAttribute
 * configure the engines.
 *
 * TripStart and TripEnd repeat the traces of every engine of the chip. Flush runs a trip flush
 * (11.8) on every cluster: when all are drained the barrier tables are cleared and FlushDone
 * fires.
 */
class PyxisChip : public Object
{
  public:
    /**
     * TracedCallback signature of a flush done.
     * \param chip chip id
     */
    typedef void (*FlushDoneTracedCallback)(uint32_t chip);

    /// \return the TypeId
    static TypeId GetTypeId();

    PyxisChip();
    ~PyxisChip() override;

    /// Build the clusters (done on first use; attributes set later have no effect).
    void Build();

    /// \return the chip id
    uint32_t GetChipId() const
    {
        return m_chipId;
    }

    /// \return clusters
    uint32_t GetClusters() const
    {
        return m_clusters;
    }

    /// \return UIEs per cluster
    uint32_t GetUiesPerCluster() const
    {
        return m_uies;
    }

    /**
     * \param cycles chip cycles
     * \return their time, rounded to the picosecond (as the engines round)
     */
    Time Cycles(double cycles) const;

    /**
     * \param cluster a cluster
     * \return its Trip Manager
     */
    Ptr<PyxisTripManager> GetTripManager(uint32_t cluster);

    /**
     * \param cluster a cluster
     * \return its barrier table
     */
    Ptr<PyxisBarrierTable> GetBarrierTable(uint32_t cluster);

    /**
     * \param cluster a cluster
     * \param queue a queue id (PyxisQueueMap)
     * \return the engine of that queue
     */
    Ptr<PyxisEngine> GetEngine(uint32_t cluster, uint32_t queue);

    /**
     * \param cluster a cluster
     * \param queue an RDMA Tx or Rx queue id
     * \return its RDMA interface
     */
    Ptr<PyxisRdmaEngine> GetRdmaEngine(uint32_t cluster, uint32_t queue);

    /**
     * Attach one job handler to every RDMA Tx and Rx queue of the chip.
     * \param handler the handler
     */
    void SetRdmaJobHandler(PyxisRdmaEngine::JobHandler handler);

    /// \return the Core Switch
    Ptr<PyxisCoreSwitch> GetCoreSwitch();

    /**
     * Submit a list of trips to a queue (PyxisTripManager::Submit).
     * \param cluster the cluster
     * \param queue the queue id
     * \param list the trips
     */
    void Submit(uint32_t cluster, uint32_t queue, const std::vector<PyxisTrip>& list);

    /**
     * Submit one trip to a queue.
     * \param cluster the cluster
     * \param queue the queue id
     * \param trip the trip
     */
    void Submit(uint32_t cluster, uint32_t queue, const PyxisTrip& trip);

    /// Start a trip flush on every cluster (11.8).
    void Flush();

    /// \return true while a flush runs
    bool IsFlushing() const
    {
        return m_flushing;
    }

  protected:
    void DoDispose() override;

  private:
    /// One cluster's parts.
    struct Cluster
    {
        Ptr<PyxisTripManager> tripManager;     //!< its Trip Manager
        Ptr<PyxisBarrierTable> barriers;       //!< its barrier table
        Ptr<PyxisHbmBus> hbm;                  //!< its HBM device
        std::vector<Ptr<PyxisEngine>> engines; //!< its engines
    };

    /**
     * Add an engine to a cluster.
     * \param c the cluster
     * \param queue its queue id
     * \param engine the engine
     */
    void AddEngine(uint32_t c, uint32_t queue, Ptr<PyxisEngine> engine);

    /// A cluster drained during a flush.
    void ClusterDrained();

    /**
     * \param cluster a cluster
     * \return it, aborting if out of range
     */
    Cluster& GetCluster(uint32_t cluster);

    /// Forward an engine's TripStart.
    void ForwardTripStart(uint32_t chip, uint32_t cluster, uint32_t queue, uint32_t id, Time s);
    /// Forward an engine's TripEnd.
    void ForwardTripEnd(uint32_t chip,
                        uint32_t cluster,
                        uint32_t queue,
                        uint32_t id,
                        Time s,
                        Time e);

    uint32_t m_chipId{0};           //!< chip id
    uint32_t m_clusters{4};         //!< clusters
    uint32_t m_uies{12};            //!< UIEs per cluster
    double m_clockGhz{1.33};        //!< chip clock
    bool m_built{false};            //!< Build done
    bool m_flushing{false};         //!< a flush runs
    uint32_t m_drained{0};          //!< clusters drained in this flush
    std::vector<Cluster> m_cluster; //!< the clusters
    Ptr<PyxisCoreSwitch> m_switch;  //!< the Core Switch
    TracedCallback<uint32_t, uint32_t, uint32_t, uint32_t, Time> m_tripStartTrace;     //!< starts
    TracedCallback<uint32_t, uint32_t, uint32_t, uint32_t, Time, Time> m_tripEndTrace; //!< ends
    TracedCallback<uint32_t> m_flushDoneTrace; //!< flush done
};

} // namespace ns3

#endif /* PYXIS_CHIP_H */
