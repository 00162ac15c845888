/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CELL_FABRIC_TX_PIPELINE_H
#define CELL_FABRIC_TX_PIPELINE_H

#include "cell-fabric-adapter.h"
#include "cell-fabric-occupancy-limiter.h"
#include "cell-fabric-tx-job.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/type-id.h"

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ns3
{

class FabricNetDevice;
class FabricOutputQueue;

/**
 * \ingroup cell-fabric
 * \brief The Tx Fabric Adapter of a Pyxis chip (Pyxis spec section 10.7), from a posted job to
 * its cells on the links; a part of CellFabricAdapter.
 *
 * - Tx Job Table (10.7.2): the jobs of the chip's Tx side by id, RDMA jobs and admitted
 *   datagrams alike (CellFabricTxJob).
 * - VOQ-Active lock (10.7.1.1): the jobs of one VOQ (destination chip, cluster and OQ; and
 *   source cluster, whose Job Manager and Page Generator serve it) wait in order; only the head
 *   job is active, and the lock passes on when its last page has been generated.
 * - Page Generator (10.7.3): one page per active job (channel) in turn while the occupancy
 *   limiter allows (10.7.3.1, CellFabricOccupancyLimiter: the VOQ's profile, the priority
 *   groups, the cluster's cap and a free QPage, 10.7.6); a cluster's low-priority channels wait
 *   while one of its high-priority channels can generate. A generated page is a request to the
 *   destination's grant scheduler (the first phase of 10.1's three-way handshake).
 * - FO pipes and TxBufs (10.7[5a-5b], 10.7.5-10.7.8): a granted page retires its QPage and goes
 *   to the pipe that frees first among those whose TxBuf has room for its data; a pipe moves
 *   88 B of cells per cycle and the page holds its TxBuf space until its last cell is out.
 * - Cellification and spraying (10.1, 10.7.9-10): the page (with its 16 B header) is cut into
 *   cells that go round robin over the chip's links; in Coarse granularity the cells of one page
 *   on one link travel as one unit with their exact count and bytes (DESIGN.md rule 3).
 * - Control cells (10.1, 10.7.1.5): requests, grants and the Rx side's messages (CTS, ACK,
 *   NACK) leave after the Tx pipeline latency on the next link in turn, ahead of data.
 */
class CellFabricTxPipeline
{
  public:
    /// The attributes of CellFabricAdapter that configure the Tx pipeline.
    struct Config
    {
        uint32_t foPipes{4};           //!< FO pipes (10.7[5a])
        uint32_t foBytesPerCycle{88};  //!< FO pipe width (10.7[5a])
        uint32_t txBufBytes{32768};    //!< TxBuf per FO pipe (10.7[5b], 10.7.8)
        uint32_t cellHeaderBytes{16};  //!< per-cell header on the links [assumption]
        uint32_t controlCellBytes{96}; //!< request, grant and message cell bytes [assumption]
        Time txLatency;                //!< Tx pipeline latency [assumption]
        CellFabricAdapter::Granularity granularity{CellFabricAdapter::COARSE}; //!< granularity
        uint32_t maxOutstandingPages{64}; //!< default XOFF of every profile (10.7.3.1)
        std::string occupancyProfiles;    //!< profiles "xoff:xon,..." (10.7.3.1)
        uint32_t qpages{1024};            //!< QPage table entries of the chip (10.7.6)
        uint32_t clusterQPages{1024};     //!< QPage cap per source cluster (10.7.3.1)
        uint32_t highGroupPages{1024};    //!< high-priority group limit per cluster
        uint32_t lowGroupPages{1024};     //!< low-priority group limit per cluster
    };

    /// Page-header bits carried with a page's epoch in requests, grants and data cells (10.6).
    enum PageFlags : uint8_t
    {
        PAGE_EPOCH = 1,    //!< the job's epoch bit
        PAGE_RETRY = 2,    //!< the Retry bit (a retried job's pages)
        PAGE_DATAGRAM = 4, //!< page type: a datagram
        PAGE_RXQ = 8,      //!< a datagram's RxQ index
    };

    /**
     * \param adapter the adapter this pipeline is a part of
     */
    explicit CellFabricTxPipeline(CellFabricAdapter& adapter);
    ~CellFabricTxPipeline();

    /**
     * \param tid the adapter's TypeId
     * \return it with the Tx pipeline's attributes
     */
    static TypeId AddAttributes(TypeId tid);

    /**
     * \param adapter an adapter
     * \return its Tx pipeline's configuration (for the attribute accessors)
     */
    static Config& GetConfigOf(const CellFabricAdapter& adapter);

    /// \return the configuration
    const Config& GetConfig() const
    {
        return m_config;
    }

    /**
     * \param dst destination chip
     * \param cluster destination cluster
     * \param oq the OQ, VOQ[1:0]
     * \param srcCluster the source cluster
     * \return the model's VOQ key: bits 0 to 47 (dst * 8 + cluster) * 4 + OQ, the source cluster
     * from bit 48 (one VOQ-Active lock and occupancy count per VOQ and source cluster, 10.7.1,
     * 10.7.3.1)
     */
    static uint64_t GetVoqKey(uint32_t dst, uint32_t cluster, uint32_t oq, uint32_t srcCluster);

    /**
     * Add a link: its transmit queue becomes a FabricOutputQueue serving control cells (class 1)
     * in strict priority over data (class 0).
     * \param device the link port
     */
    void AddLink(Ptr<FabricNetDevice> device);

    /// \return the number of links
    uint32_t GetNLinks() const
    {
        return m_ports.size();
    }

    /**
     * \param i a link index (AddLink order)
     * \return its port
     */
    Ptr<FabricNetDevice> GetLink(uint32_t i) const;

    /// \return the sum of the links' rates in bytes per second
    double GetLinkBytesPerSecond() const;

    /// Size the FO pipes, TxBufs and the occupancy limiter from the configuration, once.
    void Setup();

    /// Drop the links and the jobs.
    void Dispose();

    /// \return a new job id (the endpoint API's jobs and datagrams are numbered in turn)
    uint64_t TakeJobId()
    {
        return m_nextJob++;
    }

    /**
     * \param job a new job
     * \return its entry in the Tx Job Table
     */
    CellFabricTxJob& AddJob(CellFabricTxJob job);

    /**
     * \param id a job id
     * \return its entry, or null if the table has none
     */
    CellFabricTxJob* FindJob(uint64_t id);

    /**
     * \param id the id of a job in the table
     * \return its entry
     */
    CellFabricTxJob& GetJob(uint64_t id);

    /**
     * \param id the id of a job in the table: it leaves the table
     */
    void EraseJob(uint64_t id);

    /**
     * Drop the entries of the failed PostRdmaTx jobs of a source cluster (11.8 step 2).
     * \param cluster the source cluster
     */
    void EraseFailedApiJobs(uint32_t cluster);

    /**
     * A job joins the end of its VOQ's queue (behind the VOQ-Active lock).
     * \param voq the VOQ key
     * \param id the job
     * \return the jobs queued on the VOQ with it (1: the VOQ was free)
     */
    uint32_t JoinVoq(uint64_t voq, uint64_t id);

    /**
     * Make the head job of a VOQ active (VOQ-Active lock, 10.7.1.1) and run the Page Generator.
     * \param voq the VOQ key
     */
    void ActivateNext(uint64_t voq);

    /**
     * A job that holds its VOQ's lock (it is active) gives it up before its last page: it
     * leaves the active jobs and its VOQ's queue, and the next job of the VOQ is activated.
     * \param id the job
     * \param voq its VOQ key
     * \return false if the job was not active (nothing done)
     */
    bool ReleaseVoqLock(uint64_t id, uint64_t voq);

    /**
     * A job leaves its VOQ's queue without holding the lock.
     * \param voq the VOQ key
     * \param id the job
     */
    void LeaveVoq(uint64_t voq, uint64_t id);

    /**
     * \param id a job
     * \return true if it holds its VOQ's lock (its pages are being generated)
     */
    bool IsActive(uint64_t id) const;

    /// Page Generator: request pages of the active jobs in turn (10.7.3).
    void Generate();

    /**
     * A grant arrived: the page goes to an FO pipe.
     * \param job job id
     * \param page page sequence number
     * \param epoch the job epoch its request carried (with the page-type bits, PageFlags)
     * \param from the granting chip
     * \param info the page's cells, and its cluster in bits 16 to 31
     */
    void OnGrant(uint64_t job, uint32_t page, uint8_t epoch, uint32_t from, uint64_t info);

    /**
     * Send a control cell after the Tx pipeline, on the next link in turn.
     * \param dst destination chip
     * \param type REQUEST, GRANT, CTS, ACK or NACK
     * \param job job id at the data source
     * \param page page sequence number
     * \param cells cells of the page (requests also carry the cluster in bits 16 to 31 and the
     * page's data bytes in bits 32 and up)
     */
    void SendControl(uint32_t dst,
                     CellFabricAdapter::UnitType type,
                     uint64_t job,
                     uint64_t page,
                     uint64_t cells);

    /// \return the VOQs that hold jobs or pages waiting on a grant, in VOQ key order
    std::vector<CellFabricAdapter::VoqState> GetVoqStates() const;

    /// \return the occupancy limiter and QPage table (10.7.3.1, 10.7.6)
    const CellFabricOccupancyLimiter& GetOccupancyLimiter() const
    {
        return m_limiter;
    }

  private:
    /// A granted page on its way to an FO pipe.
    struct GrantedPage
    {
        uint64_t job{0};     //!< job id
        uint32_t page{0};    //!< page sequence number
        uint8_t epoch{0};    //!< its request's epoch and page bits (PageFlags)
        uint32_t dst{0};     //!< destination chip
        uint32_t cluster{0}; //!< destination cluster
        uint32_t bytes{0};   //!< data bytes
    };

    /// Set the occupancy profiles of the OccupancyProfiles attribute ("xoff:xon,...").
    void ParseOccupancyProfiles();
    /**
     * A job got the VOQ-Active lock: a datagram is active at once (no CTS, no timer, 10.5); an
     * RDMA job's state machine goes on in CellFabricRdmaJobManager.
     * \param id the job
     */
    void OnActivated(uint64_t id);
    /**
     * The last page of an active job is generated: the job gives up the VOQ-Active lock
     * (10.7.1.1) and the next job of its VOQ is activated.
     * \param id the job
     */
    void ReleaseFinished(uint64_t id);
    /**
     * A grant for a job no longer in the table (acknowledged or released meanwhile): the page is
     * still sent, as the hardware sends what its VOQ holds, and the receiver drops it.
     * \param jobId job id
     * \param page page sequence number
     * \param epoch the epoch its request carried
     * \param from the granting chip
     * \param info the grant's cells, and the cluster in bits 16 to 31
     */
    void OnGrantForRetiredJob(uint64_t jobId,
                              uint32_t page,
                              uint8_t epoch,
                              uint32_t from,
                              uint64_t info);
    /**
     * FO dequeues a granted page (10.7.5-7): its QPage is retired and it takes space in the
     * TxBuf of the pipe that frees first among those with room.
     * \param g the granted page
     * \return false if no pipe's TxBuf has room for it
     */
    bool Dequeue(const GrantedPage& g);
    /// \return when the first page now in a TxBuf leaves its pipe (Time::Max() if none)
    Time GetNextTxBufRelease() const;
    /// Dequeue the granted pages waiting for TxBuf space, in order, while there is room.
    void DrainFoWait();
    /**
     * A page leaves its FO pipe: spray its cells over the links.
     * \param job job id
     * \param page page sequence number
     * \param dst destination chip
     * \param cluster destination cluster
     * \param bytes data bytes of the page
     * \param epoch its epoch and page bits (PageFlags)
     */
    void PageOut(uint64_t job,
                 uint32_t page,
                 uint32_t dst,
                 uint32_t cluster,
                 uint32_t bytes,
                 uint8_t epoch);
    /**
     * Queue a unit on a link and wake the link.
     * \param link the link index
     * \param p the unit
     */
    void EnqueueOnLink(uint32_t link, const Ptr<FabricPacket>& p);

    CellFabricAdapter& m_adapter;      //!< the adapter this is a part of
    CellFabricAdapter::Stats& m_stats; //!< the adapter's counters
    Config m_config;                   //!< configuration (attributes)

    std::vector<Ptr<FabricNetDevice>> m_ports;    //!< link ports
    std::vector<Ptr<FabricOutputQueue>> m_queues; //!< link transmit queues
    uint32_t m_sprayNext{0};                      //!< next link to spray on
    uint32_t m_sprayHash{0}; //!< flow hash of the next unit (middle-stage spraying)
    uint32_t m_ctrlNext{0};  //!< next link for control cells

    uint64_t m_nextJob{0};                                //!< next job id
    std::unordered_map<uint64_t, CellFabricTxJob> m_jobs; //!< Tx jobs by id
    std::map<uint64_t, std::deque<uint64_t>> m_voqJobs;   //!< jobs per VOQ, head active
    std::vector<uint64_t> m_active;                       //!< active jobs (head of a VOQ)
    uint32_t m_activeRr{0};                               //!< round robin over active jobs

    CellFabricOccupancyLimiter m_limiter; //!< occupancy limiter and QPage table
    std::vector<Time> m_foFree;           //!< when each FO pipe is free
    std::vector<std::deque<std::pair<Time, uint32_t>>> m_txBuf; //!< TxBuf pages per pipe
    std::vector<uint32_t> m_txBufUsed;                          //!< TxBuf bytes in use per pipe
    std::deque<GrantedPage> m_foWait;                           //!< granted, waiting for TxBuf
    EventId m_foWake;                                           //!< TxBuf space frees
};

} // namespace ns3

#endif /* CELL_FABRIC_TX_PIPELINE_H */
