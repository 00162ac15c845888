/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CELL_FABRIC_RX_PIPELINE_H
#define CELL_FABRIC_RX_PIPELINE_H

#include "cell-fabric-adapter.h"
#include "cell-fabric-voq-table.h"

#include "ns3/event-id.h"
#include "ns3/fabric-packet.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/type-id.h"

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ns3
{

class FabricNetDevice;

/**
 * \ingroup cell-fabric
 * \brief The Rx Fabric Adapter of a Pyxis chip (Pyxis spec section 10.8), from cells on the
 * links to pages written by RxDMA; a part of CellFabricAdapter.
 *
 * - Reassembly and Data Reorder (10.8[1-4]): a page is complete when all its cells are here,
 *   whatever their order and link; the pages of one RDMA job attempt go on in sequence order
 *   (the model keeps the Juniper DR's order per job attempt). Control cells go on after the Rx
 *   pipeline latency: requests to the grant scheduler, grants to the Tx pipeline, messages to
 *   the RDMA job manager (10.8.8).
 * - Grant scheduler (10.1, 10.8[8], 10.8.6): one per destination cluster; a page is granted
 *   only when the shared Rx CBUF (10.8.3) has free cells for all its cells, which stay reserved
 *   until the Page Reader has read the page (the fabric is lossless). The policy is the
 *   adapter's GrantPolicy (the spec gives none). The requests of one job attempt join the
 *   scheduler under page numbers in order (a Juniper grant sends the VOQ's head page, 10.1).
 * - Rx OQM (10.8[5-6], 10.8.5): a complete page joins one of its cluster's 4 OQs (FIFOs), the
 *   one the sender's VOQ names; a priority + round-robin scheduler hands one page at a time to
 *   the cluster's Page Reader and RxDMA.
 * - RxDMA (10.8.8, 11.7.2; 128 B per cycle, section 9): a page is checked (RDMA: by the RDMA job
 *   manager, 10.8.8; datagram: against its RxQ, 10.8.1.3), written with one of the cluster's
 *   write-completion tracking IDs, and committed when its writes are.
 */
class CellFabricRxPipeline
{
  public:
    /// The attributes of CellFabricAdapter that configure the Rx pipeline.
    struct Config
    {
        uint32_t rxCbufCells{24576};         //!< Rx CBUF cells (10.8.3)
        uint32_t maxOutstandingGrants{4096}; //!< grants not yet committed, per cluster
        CellFabricAdapter::GrantPolicy grantPolicy{
            CellFabricAdapter::PACED_ROUND_ROBIN}; //!< policy
        Time rxLatency;                            //!< Rx pipeline latency [assumption]
        uint32_t rxOqHighMask{5};                  //!< high-priority Rx OQs, bit per OQ (10.8.5)
        uint32_t rxDmaBytesPerCycle{128};          //!< RxDMA width per cluster (section 9)
        uint32_t trackingIds{16};                  //!< RxDMA tracking IDs per cluster (10.8.8)
        uint32_t commitCycles{100};                //!< AMEM write completion latency (11.7.2)
    };

    /// A reassembled page for its cluster's RxDMA.
    struct RxDmaPage
    {
        Ptr<FabricPacket> unit; //!< its last unit (for the Drop trace)
        uint32_t src{0};        //!< source chip
        uint64_t job{0};        //!< job id at the source
        uint32_t page{0};       //!< page sequence number
        uint32_t bytes{0};      //!< data bytes
        uint32_t cells{0};      //!< cells in the Rx CBUF
        uint32_t cluster{0};    //!< destination cluster (here)
        uint32_t oq{0};         //!< its OQ at the cluster's Rx OQM (10.8.5)
        uint8_t epoch{0};       //!< epoch bit
        bool datagram{false};   //!< a datagram page
        uint32_t rxq{0};        //!< datagram: its RxQ
        bool crcError{false};   //!< header CRC error (InjectDropMode HeaderCrc)
    };

    /**
     * \param adapter the adapter this pipeline is a part of
     */
    explicit CellFabricRxPipeline(CellFabricAdapter& adapter);
    ~CellFabricRxPipeline();

    /**
     * \param tid the adapter's TypeId
     * \return it with the Rx pipeline's attributes
     */
    static TypeId AddAttributes(TypeId tid);

    /**
     * \param adapter an adapter
     * \return its Rx pipeline's configuration (for the attribute accessors)
     */
    static Config& GetConfigOf(const CellFabricAdapter& adapter);

    /// \return the configuration
    const Config& GetConfig() const
    {
        return m_config;
    }

    /// Size the Rx CBUF, grant schedulers, OQs and RxDMAs from the configuration, once.
    void Setup();

    /// Drop the pages and requests held.
    void Dispose();

    /**
     * A unit arrived on a link port.
     * \param dev the port
     * \param p the unit
     */
    void Receive(const Ptr<FabricNetDevice>& dev, const Ptr<FabricPacket>& p);

    /**
     * RxDMA is done with a granted page (committed, stale or lost): its Rx CBUF cells are free
     * and its grant is no longer outstanding.
     * \param cluster the destination cluster of the page
     * \param cells its cells
     */
    void FreeRxCells(uint32_t cluster, uint32_t cells);

    /**
     * An RDMA job attempt is done here (its last page committed): its Data Reorder context goes
     * (the other epoch's may still get pages).
     * \param src source chip
     * \param job job id at the source
     * \param epoch the attempt's epoch
     */
    void EndReorder(uint32_t src, uint64_t job, uint8_t epoch);

    /// \return free Rx CBUF data cells now
    uint32_t GetFreeCells() const
    {
        return m_freeCells;
    }

    /// \return grants issued and not yet committed, all clusters
    uint64_t GetOutstandingGrants() const;

    /// \return the grant scheduler of every cluster (empty before the first unit)
    std::vector<CellFabricAdapter::GrantQueueState> GetGrantQueueStates() const;

  private:
    /// A request waiting at the grant scheduler.
    struct Request
    {
        uint32_t src{0};   //!< requesting chip
        uint64_t job{0};   //!< job id at the source
        uint32_t page{0};  //!< page sequence number
        uint32_t cells{0}; //!< cells of the page
        uint32_t bytes{0}; //!< data bytes of the page (RxDMA time of the paced policy)
        uint8_t epoch{0};  //!< job epoch of the request (with the page-type bits)
    };

    /// Grant scheduler state of one destination cluster.
    struct GrantQueue
    {
        std::map<uint32_t, std::deque<Request>> bySource; //!< FIFO per source
        std::deque<Request> fifo;                         //!< FIFO policy queue
        uint32_t rrNext{0};                               //!< next source in round robin
        uint64_t waiting{0};                              //!< requests queued
    };

    /// Requests of one job attempt joining the grant scheduler in page order.
    struct GrantAdmission
    {
        uint32_t next{0};        //!< next page number to join
        bool hasLast{false};     //!< the last page's request came early and waits
        Request last;            //!< that request
        uint32_t lastCluster{0}; //!< its cluster
    };

    /// A page being reassembled.
    struct RxPage
    {
        uint32_t cells{0};    //!< cells received
        uint32_t expected{0}; //!< cells of the page
        uint32_t bytes{0};    //!< data bytes received
    };

    /// Data Reorder of one job attempt (10.8[3]): pages go on to RxDMA in sequence order.
    struct RxOrder
    {
        uint32_t next{0}; //!< next page to release
        std::map<uint32_t, std::pair<Ptr<FabricPacket>, uint32_t>> waiting; //!< unit, cells
    };

    /**
     * Handle a control cell (request, grant, CTS, ACK, NACK) after the Rx pipeline.
     * \param p the cell
     */
    void HandleControl(Ptr<FabricPacket> p);
    /**
     * A data unit arrived: count its cells; when its page is complete, pass the page on
     * (a datagram page to RxDMA, an RDMA page through the Data Reorder).
     * \param p the unit
     */
    void ReceiveCells(const Ptr<FabricPacket>& p);
    /**
     * An RDMA page is complete: the Data Reorder passes it on in sequence order (10.8[3]).
     * \param p its last unit
     * \param page its page sequence number
     * \param epoch its epoch bit
     * \param pageCells its cells
     */
    void Reorder(const Ptr<FabricPacket>& p, uint32_t page, uint8_t epoch, uint32_t pageCells);
    /**
     * An RDMA page is complete and its predecessors in the job attempt went on (Data Reorder):
     * the Rx job's early checks, then on to RxDMA after the Rx pipeline.
     * \param p its last unit
     * \param pageCells its cells
     */
    void OnPageInOrder(const Ptr<FabricPacket>& p, uint32_t pageCells);
    /**
     * \param p the last unit of a complete page
     * \param page its page sequence number
     * \param pageCells its cells
     * \return the page for RxDMA: source, job, page, bytes, cells, cluster and OQ
     */
    static RxDmaPage MakeRxDmaPage(const Ptr<FabricPacket>& p, uint32_t page, uint32_t pageCells);
    /**
     * \param g a cluster's grant scheduler with requests waiting (not Fifo)
     * \return the request FIFO of the next source in round robin
     */
    static std::map<uint32_t, std::deque<Request>>::iterator NextSource(GrantQueue& g);
    /**
     * A request arrived at this chip's grant scheduler.
     * \param r the request
     * \param cluster destination cluster
     */
    void OnRequest(const Request& r, uint32_t cluster);
    /**
     * A request joins its cluster's grant queue.
     * \param r the request
     * \param cluster destination cluster
     */
    void QueueRequest(const Request& r, uint32_t cluster);
    /**
     * Grant waiting requests of a cluster while free Rx cells allow.
     * \param cluster the cluster
     */
    void RunGrantScheduler(uint32_t cluster);
    /// PacedRoundRobin: grant in round robin over clusters and sources at the drain rate.
    void RunPacedGrants();
    /**
     * Run the paced scheduler again at \p t (one wake-up pending at a time, the earliest).
     * \param t the time
     */
    void WakeGrantsAt(Time t);
    /**
     * Give back the Rx CBUF cells and the grant of a page that is dropped or read, and grant
     * again.
     * \param cluster the page's cluster
     * \param cells its cells
     */
    void ReleasePage(uint32_t cluster, uint32_t cells);
    /**
     * Check mode: free cells and outstanding grants within their capacity.
     * \param cluster the cluster whose grants changed
     * \param after what changed them (for the message)
     */
    void CheckRxCells(uint32_t cluster, const char* after) const;
    /**
     * A page joins its OQ at its cluster's Rx OQM (10.8.5).
     * \param pg the page
     */
    void EnqueueRxDma(RxDmaPage pg);
    /**
     * RxDMA of a cluster takes its next page (10.8.5-8): the Rx OQM dequeues the head page of a
     * high-priority OQ if one holds a page, else of a low one, round robin among the OQs of the
     * same priority; then validation, a tracking ID, the write.
     * \param cluster the cluster
     */
    void RxDmaNext(uint32_t cluster);
    /**
     * The Rx OQM's scheduler (10.8.5): the OQ whose head page goes next.
     * \param c the cluster
     * \return the OQ, or CellFabricVoqTable::OQS_PER_VPFE if all are empty
     */
    uint32_t PickOq(uint32_t c);
    /**
     * RxDMA has read a page out of the Rx CBUF: free its cells and take the next page.
     * \param cluster the cluster
     * \param cells the page's cells
     */
    void RxDmaReadDone(uint32_t cluster, uint32_t cells);

    CellFabricAdapter& m_adapter;      //!< the adapter this is a part of
    CellFabricAdapter::Stats& m_stats; //!< the adapter's counters
    Config m_config;                   //!< configuration (attributes)

    std::unordered_map<uint64_t, RxPage> m_rxPages;                       //!< being reassembled
    std::map<std::tuple<uint32_t, uint64_t, uint8_t>, RxOrder> m_rxOrder; //!< Data Reorder

    uint32_t m_freeCells{0};          //!< free Rx CBUF data cells
    std::vector<GrantQueue> m_grants; //!< grant scheduler per cluster
    std::map<std::tuple<uint32_t, uint64_t, uint8_t>, GrantAdmission> m_grantAdmission; //!< order
    std::vector<uint32_t> m_grantsOut;    //!< grants not committed, per cluster
    Time m_chipGrantNext;                 //!< paced: earliest next grant (receiver's links)
    std::vector<Time> m_clusterGrantNext; //!< paced: earliest next grant per cluster (RxDMA)
    uint32_t m_grantRrCluster{0};         //!< paced: next cluster in round robin
    EventId m_grantWake;                  //!< paced: pending wake-up of the scheduler
    double m_linkBytesPerSecond{0};       //!< sum of the link ports' rates

    /// Rx OQM (10.8.5): the 4 OQs of each cluster, complete pages waiting for its RxDMA
    std::vector<std::array<std::deque<RxDmaPage>, CellFabricVoqTable::OQS_PER_VPFE>> m_rxOq;
    std::vector<std::array<uint32_t, 2>> m_rxOqNext; //!< round robin: next OQ (low, high)
    std::vector<bool> m_rxDmaBusy;                   //!< RxDMA serving a page
    std::vector<std::vector<Time>> m_trackFree;      //!< tracking IDs' free times
};

} // namespace ns3

#endif /* CELL_FABRIC_RX_PIPELINE_H */
