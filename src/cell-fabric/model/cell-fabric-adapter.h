/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CELL_FABRIC_ADAPTER_H
#define CELL_FABRIC_ADAPTER_H

#include "cell-fabric-datagram-rx-ring.h"
#include "cell-fabric-datagram-tx-queue.h"
#include "cell-fabric-occupancy-limiter.h"
#include "cell-fabric-rdma-job-ids.h"
#include "cell-fabric-voq-table.h"

#include "ns3/event-id.h"
#include "ns3/fabric-endpoint.h"
#include "ns3/fabric-packet.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <array>
#include <bitset>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

class FabricNetDevice;
class FabricOutputQueue;

/**
 * \ingroup cell-fabric
 * \brief The Pyxis Fabric Adapter (seed 004, section 10; pyxis digest 5) as a FabricEndpoint.
 *
 * A message of the endpoint API becomes one RDMA job per 2^16 words (11.4.6) to one cluster of
 * the destination chip (clusters in turn). Solicited write (10.3): the receiver's Rx job is
 * posted when the message is (the endpoint API has no receive posting; the model assumes the
 * receiver's software posts it at once) and the receiver sends a CTS; the Tx job waits for it.
 * With RdmaJobPosting Explicit the chip's software posts both ends instead (PostRdmaRx,
 * PostRdmaTx: 8-bit job ids with 1-bit epochs per cluster, 10.4; completion and Job Failed
 * callbacks): a pre-posted Rx job's CTS waits at the sender and its Tx job starts at once.
 * Jobs to one VOQ are serialized by the VOQ-Active lock (10.7.1.1): the next job generates no
 * page until the previous one's last page is generated.
 *
 * Every data page is requested from the destination's grant scheduler and sent when granted
 * (10.1). The grant scheduler grants a page only when the Rx CBUF has free cells for it and
 * reserves them; they are freed when RxDMA has written the page (10.8.6), so grants are paced
 * by free Rx buffer cells and the fabric is lossless. The grant policy is an attribute (the
 * spec gives none; default PacedRoundRobin: round robin over sources, grants issued no faster
 * than the receiver drains its CBUF, see GrantPolicy).
 *
 * A granted page is serialized by one of the FO pipes (88 B per cycle, chosen page by page,
 * 10.7[5a]) and its cells are sprayed round robin over the adapter's links. Coarse granularity
 * (DESIGN.md rule 3): the cells of one page that go to one link travel as one unit carrying their
 * exact cell count and bytes. The receiver counts the cells of each page (reorder and
 * reassembly, 10.8[3-4]); a complete page waits in one of its cluster's 4 OQs (10.8.5: strict
 * priority, then round robin) for the cluster's RxDMA (128 B per cycle, 10.8.8), which commits
 * it. After the last page of a job commits, the receiver sends an ACK
 * and the message is delivered there; the ACK completes it at the sender.
 *
 * Messages (CTS, ACK, NACK) are 64 B one-cell pages on their own VOQ (10.3.1.1-2) and get
 * preferential service: they are not requested and use a message area of the Rx buffer outside
 * the data cells (an assumption; the spec lets messages have preferential service).
 *
 * The pages of one job attempt reach RxDMA in sequence order (the Juniper Data Reorder,
 * 10.8[3]); RxDMA checks each RDMA page against its Rx job before writing it (10.8.8: ids and
 * epoch, page sequence number, words; a header CRC error) and NACKs a job in error at its last
 * page. A written page holds one of 16 tracking IDs until its writes commit (10.8.8, 11.7.2).
 * Datagrams (10.5; PostDatagram, or EndpointTransport Datagram) are one-page jobs without CTS,
 * ACK or timers, sent from TxQ rings (CellFabricDatagramTxQueue) to RxQ rings
 * (CellFabricDatagramRxRing) and dropped at the receiver when its RxQ has no free descriptor or
 * a too small buffer.
 */
class CellFabricAdapter : public FabricEndpoint
{
  public:
    /// What a unit on a cell link is (carried in FabricPacket::ctrlClass).
    enum UnitType : uint8_t
    {
        DATA_CELLS = 0, //!< cells of a data page
        REQUEST = 1,    //!< Juniper request (page size, OQ), a control cell
        GRANT = 2,      //!< Juniper grant, a control cell
        CTS = 3,        //!< Pyxis message: clear to send (10.3.1)
        ACK = 4,        //!< Pyxis message: job acknowledged (10.3.1)
        NACK = 5,       //!< Pyxis message: job in error (10.3.1)
    };

    /// Grant scheduler policies (the spec gives none, digest 5.8).
    enum GrantPolicy
    {
        FIFO_ROUND_ROBIN,  //!< per destination cluster one FIFO per source, round robin
        FIFO,              //!< one FIFO per destination cluster in arrival order
        PACED_ROUND_ROBIN, //!< round robin over sources, paced at the CBUF's drain rate
    };

    /// How an injected page loss shows (InjectDropMode).
    enum InjectDropMode
    {
        INJECT_LOST,       //!< lost in the fabric: the sequence check (or a timer) finds it
        INJECT_HEADER_CRC, //!< header CRC error at RxDMA: dropped silently, timers find it
    };

    /// Transport of the endpoint API's messages (EndpointTransport).
    enum Transport
    {
        TRANSPORT_RDMA,     //!< RDMA write jobs (reliable, 10.3)
        TRANSPORT_DATAGRAM, //!< datagrams of at most 16,256 B each (unreliable, 10.5)
    };

    /// Page Generator priority of a VOQ (10.7.3).
    enum VoqPriority
    {
        LOW_PRIORITY,  //!< served when no high-priority channel of the cluster is pending
        HIGH_PRIORITY, //!< served first, round robin among the high-priority channels
    };

    /// What a Tx job names besides its destination (its VOQ's OQ and configuration).
    struct JobClass
    {
        uint32_t oq{1};         //!< OQ, VOQ[1:0] (digest 5.2: 1 = RDMA low class)
        bool high{false};       //!< the VOQ is high priority (10.7.3)
        uint32_t profile{0};    //!< the VOQ's occupancy profile (10.7.3.1)
        uint32_t srcCluster{0}; //!< source cluster: its Job Manager and Page Generator
    };

    /// Event granularity of data on the links (DESIGN.md rule 3).
    enum Granularity
    {
        COARSE, //!< one unit per page per link, with its exact cell count and bytes
        FINE,   //!< one unit per cell
    };

    /// Who posts a receiver's Rx jobs (RdmaJobPosting).
    enum RdmaJobPosting
    {
        RX_POSTING_AUTOMATIC, //!< the sender's post (endpoint API, PostRdmaWrite) posts the Rx job
        RX_POSTING_EXPLICIT,  //!< the chip's software posts Rx and Tx jobs (PostRdmaRx, PostRdmaTx)
    };

    /// Side of an RDMA job.
    enum RdmaSide
    {
        RDMA_TX, //!< the sender's Tx job (TJID)
        RDMA_RX, //!< the receiver's Rx job (RJID)
    };

    /**
     * An RDMA Rx job descriptor (11.4.7, 10.3, 10.8.1; digest 6.2): what the receiver's software
     * posts. Its CTS is sent when it is posted.
     */
    struct RdmaRxDescriptor
    {
        uint32_t cluster{0};    //!< this chip's cluster (its Rx Job Manager and AMEM)
        uint32_t rjid{0};       //!< Rx job id, 8 bits (10.4)
        uint32_t tjid{0};       //!< the sender's Tx job id, 8 bits
        uint32_t srcChip{0};    //!< the sender chip
        uint32_t srcCluster{0}; //!< the sender's cluster (its Tx Job Manager)
        uint64_t amemAddr{0};   //!< AMEM base address (carried, not modelled)
        uint32_t numWords{0};   //!< NumWords: 128 B words, 1 to 2^16 (11.4.6)
    };

    /**
     * An RDMA Tx job descriptor (11.4.6, 10.3, 10.7.1; digest 6.2): what the sender's software
     * posts. Its pages wait for the Rx job's CTS (which may have come first).
     */
    struct RdmaTxDescriptor
    {
        uint32_t srcCluster{0};      //!< this chip's cluster (its Tx Job Manager)
        uint32_t tjid{0};            //!< Tx job id, 8 bits (10.4)
        uint32_t rjid{0};            //!< the receiver's Rx job id, 8 bits
        uint32_t dstChip{0};         //!< destination chip
        uint32_t dstCluster{0};      //!< destination cluster
        uint32_t oq{1};              //!< the VOQ's OQ, VOQ[1:0] (digest 5.2: 1 = RDMA low)
        bool high{false};            //!< the VOQ is high priority (10.7.3)
        uint32_t profile{0};         //!< the VOQ's occupancy profile (10.7.3.1)
        uint64_t amemAddr{0};        //!< source AMEM address (carried, not modelled)
        uint32_t numWords{0};        //!< NumWords: 128 B words, 1 to 2^16 (11.4.6)
        uint32_t pageSizeWords{125}; //!< PageSizeWords, a legal value (10.7.2)
    };

    /// An RDMA job completed (the Job Manager's barrier notify, 10.3, 11.3).
    struct RdmaCompletion
    {
        RdmaSide side{RDMA_TX};  //!< Tx: ACK received (source buffer reusable); Rx: data ready
        uint32_t cluster{0};     //!< the cluster here
        uint32_t jid{0};         //!< its TJID (Tx) or RJID (Rx)
        uint32_t peerJid{0};     //!< the other side's id
        uint32_t peerChip{0};    //!< the other chip
        uint32_t peerCluster{0}; //!< the other chip's cluster
        uint8_t epoch{0};        //!< the job's epoch bit (10.4)
        uint64_t amemAddr{0};    //!< the descriptor's AMEM address
        uint32_t numWords{0};    //!< the descriptor's NumWords
        bool retried{false};     //!< the job needed its one retry
        Time posted;             //!< when the job was posted
        Time completed;          //!< now
    };

    /// An RDMA Job Failed (sticky, with its interrupt; 10.7.1.2, 10.8.1.2, 11.8).
    struct RdmaFailure
    {
        RdmaSide side{RDMA_TX};    //!< which Job Manager failed it
        uint32_t cluster{0};       //!< the cluster here
        uint32_t jid{0};           //!< its TJID (Tx) or RJID (Rx)
        uint32_t peerChip{0};      //!< the other chip
        uint8_t epoch{0};          //!< the job's epoch bit
        std::bitset<256> failed{}; //!< the cluster's failed-job vector of that side, this one in
    };

    /// Called when an RDMA job completes (given with its post).
    typedef std::function<void(const RdmaCompletion&)> RdmaCallback;
    /// Called on every RDMA Job Failed of this adapter (the interrupt).
    typedef std::function<void(const RdmaFailure&)> RdmaFailureCallback;

    /// Drop reasons of the adapter (each with a counter).
    static constexpr const char* UNKNOWN_JOB = "UnknownJob";       //!< page for no active Rx job
    static constexpr const char* STALE_EPOCH = "StaleEpoch";       //!< page of a job's stale epoch
    static constexpr const char* INJECTED_DROP = "InjectedDrop";   //!< page lost (InjectDrop*)
    static constexpr const char* HEADER_CRC = "HeaderCrc";         //!< page header CRC error
    static constexpr const char* RX_JOB_FAILED = "RxJobFailed";    //!< page for a failed Rx job
    static constexpr const char* SEQUENCE_ERROR = "SequenceError"; //!< page not the expected one
    static constexpr const char* OVERRUN = "Overrun";              //!< page beyond the job's words
    static constexpr const char* SHORT_TOTAL = "ShortTotal";       //!< last page, words missing
    /// datagram for an RxQ with no free descriptor (10.8.1.3)
    static constexpr const char* DATAGRAM_NO_DESCRIPTOR = "DatagramNoDescriptor";
    /// datagram larger than its RxQ descriptor's buffer (10.8.1.3)
    static constexpr const char* DATAGRAM_TOO_LARGE = "DatagramTooLarge";
    /// datagram refused at the sender: not 1 to 16,256 B (11.4.8)
    static constexpr const char* DATAGRAM_SIZE = "DatagramSize";

    /// Per-adapter counters.
    struct Stats
    {
        uint64_t jobsPosted{0};                //!< Tx jobs posted
        uint64_t jobsCompleted{0};             //!< Tx jobs acknowledged
        uint64_t pagesRequested{0};            //!< data pages requested
        uint64_t pagesGranted{0};              //!< grants issued by this adapter's scheduler
        uint64_t pagesSent{0};                 //!< data pages sent (granted and serialized)
        uint64_t pagesCommitted{0};            //!< data pages written by RxDMA here
        uint64_t cellsSent{0};                 //!< data cells sent
        uint64_t cellsReceived{0};             //!< data cells received
        uint64_t messagesSent{0};              //!< CTS, ACK and NACK sent
        uint64_t nacksSent{0};                 //!< NACKs sent (jobs in error here)
        uint64_t jobsRetried{0};               //!< Tx jobs retried (NACK or ACK timeout)
        uint64_t jobsFailed{0};                //!< Tx jobs failed (Job Failed)
        uint64_t ackTimeouts{0};               //!< Tx ACK-wait timer expiries
        uint64_t ctsResent{0};                 //!< CTS resent on an Rx data-wait timeout
        uint64_t rxJobsFailed{0};              //!< Rx jobs failed (timer or second error)
        uint64_t grantsDeferred{0};            //!< requests that waited for free Rx buffer cells
        uint64_t grantPaceWaits{0};            //!< times the paced scheduler waited its pace
        uint32_t minFreeCells{0};              //!< low-water mark of free Rx CBUF cells
        uint64_t datagramsPosted{0};           //!< datagrams accepted by PostDatagram (Tx)
        uint64_t datagramsSent{0};             //!< datagram pages transmitted (Tx)
        uint64_t datagramsReceived{0};         //!< datagrams written into an RxQ here
        uint64_t trackingIdStalls{0};          //!< RxDMA writes that waited for a tracking ID
        uint64_t pagesReordered{0};            //!< RDMA pages that waited for an earlier page
        uint64_t requestsReordered{0};         //!< requests that overtook an earlier one
        std::map<std::string, uint64_t> drops; //!< drops by reason

        uint64_t qpageWaits{0};  //!< Page Generator runs that left a page for want of a QPage
        uint64_t txBufStalls{0}; //!< granted pages that waited for TxBuf space (10.7.7)

        uint64_t pageBytesSent{0}; //!< fabric payload sent: data pages with their 16 B headers
        uint64_t rdmaRefused{0};   //!< PostRdmaTx and PostRdmaRx calls refused
        uint64_t ctsEarly{0};      //!< CTSs that came before their Tx job was posted (10.3)
        uint64_t futureCts{0};     //!< of those, CTSs for the next job of an active TJID (10.4)
    };

    /**
     * TracedCallback signature for page events.
     * \param src source chip
     * \param job job id at the source
     * \param page page sequence number in the job
     * \param cells cells of the page
     */
    typedef void (*PageTracedCallback)(uint32_t src, uint64_t job, uint32_t page, uint32_t cells);

    /**
     * TracedCallback signature for job events at the sender (NACK received, job failed).
     * \param dst destination chip
     * \param job job id
     */
    typedef void (*JobTracedCallback)(uint32_t dst, uint64_t job);

    /**
     * TracedCallback signature for page generation (10.7.3).
     * \param job job id
     * \param page page sequence number in the job
     * \param outstanding the VOQ's outstanding pages (its source cluster's) with this one
     */
    typedef void (*PageGenTracedCallback)(uint64_t job, uint32_t page, uint32_t outstanding);

    static TypeId GetTypeId();
    CellFabricAdapter();
    ~CellFabricAdapter() override;

    /**
     * Add a link port (a FabricNetDevice attached to a cell-switch plane). Its transmit queue
     * becomes a FabricOutputQueue and its receive handler this adapter.
     * \param device the port
     */
    void AddPort(Ptr<FabricNetDevice> device);

    /// \return the number of link ports
    uint32_t GetNPorts() const
    {
        return m_ports.size();
    }

    /**
     * Give the adapter the table of every adapter of the pod by accelerator id (for posting the
     * receiver's Rx job; see the class description). Set by CellFabricHelper.
     * \param peers the table, shared by all adapters
     */
    void SetPeers(std::shared_ptr<std::vector<CellFabricAdapter*>> peers);

    /**
     * Post an RDMA write of \p bytes (rounded up to 128 B words on the wire) to a cluster of
     * \p dst: what [pyxis] drives directly. A message of the endpoint API calls it.
     * \param m the message record (id, src, dst, bytes set)
     * \param dstCluster destination cluster
     */
    void PostRdmaWrite(const FabricMessage& m, uint32_t dstCluster);

    /**
     * Post an RDMA write naming its VOQ's OQ, priority, occupancy profile and source cluster.
     * \param m the message record (id, src, dst, bytes set)
     * \param dstCluster destination cluster
     * \param cls the job's class
     */
    void PostRdmaWrite(const FabricMessage& m, uint32_t dstCluster, const JobClass& cls);

    /**
     * Post an RDMA write to a 13-bit Pyxis VOQ id (10.2, 10.7[1]): the VOQ table gives the
     * destination chip (it must be m.dst), cluster and OQ, and the VOQ's priority and profile.
     * Aborts with the table's reason for an id of 2^13 or more or an unmapped one.
     * \param m the message record (id, src, dst, bytes set)
     * \param voq the VOQ id
     * \param srcCluster the source cluster
     */
    void PostRdmaJob(const FabricMessage& m, uint32_t voq, uint32_t srcCluster = 0);

    /**
     * Post an RDMA Rx job (RdmaJobPosting Explicit; 10.3, 10.8.1): the RJID is taken (with its
     * next epoch) and the CTS is sent to the sender at once, so a job posted early lets the
     * sender's Tx job start without waiting. When its last page has committed the ACK is sent,
     * the RJID is free again and \p done is called (data ready). A refused post (mode, cluster,
     * chip, ids, an active or failed RJID, NumWords) sends nothing.
     * \param d the descriptor
     * \param done called on completion (may be empty)
     * \param[out] error why it was refused (if not null)
     * \return false if refused
     */
    bool PostRdmaRx(const RdmaRxDescriptor& d, RdmaCallback done, std::string* error = nullptr);

    /**
     * Post an RDMA Rx job naming the message VOQ back to the sender (the descriptor's Msg VOQ,
     * 10.8.2): the VOQ table gives the sender's chip (it must be \p srcChip) and cluster.
     * \param cluster this chip's cluster
     * \param srcChip the sender chip
     * \param rjid Rx job id
     * \param tjid the sender's Tx job id
     * \param msgVoq the message VOQ (13 bits)
     * \param amemAddr AMEM base address
     * \param numWords NumWords (1 to 2^16)
     * \param done called on completion (may be empty)
     * \param[out] error why it was refused (if not null)
     * \return false if refused
     */
    bool PostRdmaRx(uint32_t cluster,
                    uint32_t srcChip,
                    uint32_t rjid,
                    uint32_t tjid,
                    uint32_t msgVoq,
                    uint64_t amemAddr,
                    uint32_t numWords,
                    RdmaCallback done,
                    std::string* error = nullptr);

    /**
     * Post an RDMA Tx job (RdmaJobPosting Explicit; 10.3, 10.7.1): the TJID is taken (with its
     * next epoch); the job joins its VOQ (VOQ-Active lock) and generates pages once its CTS is
     * here (at once if it came first). On the ACK the TJID is free again and \p done is called
     * (source buffer reusable). A refused post (mode, clusters, chip, ids, an active or failed
     * TJID, NumWords, PageSizeWords, OQ, profile) sends nothing.
     * \param d the descriptor
     * \param done called on completion (may be empty)
     * \param[out] error why it was refused (if not null)
     * \return false if refused
     */
    bool PostRdmaTx(const RdmaTxDescriptor& d, RdmaCallback done, std::string* error = nullptr);

    /**
     * Post an RDMA Tx job to a 13-bit VOQ id (the descriptor's VOQ, 11.4.6): the VOQ table gives
     * the destination chip, cluster and OQ and the VOQ's priority and profile.
     * \param srcCluster this chip's cluster
     * \param tjid Tx job id
     * \param rjid the receiver's Rx job id
     * \param dstVoq the VOQ id
     * \param amemAddr source AMEM address
     * \param numWords NumWords (1 to 2^16)
     * \param pageSizeWords PageSizeWords (a legal value)
     * \param done called on completion (may be empty)
     * \param[out] error why it was refused (if not null)
     * \return false if refused
     */
    bool PostRdmaTx(uint32_t srcCluster,
                    uint32_t tjid,
                    uint32_t rjid,
                    uint32_t dstVoq,
                    uint64_t amemAddr,
                    uint32_t numWords,
                    uint32_t pageSizeWords,
                    RdmaCallback done,
                    std::string* error = nullptr);

    /**
     * Set the Job Failed interrupt: called on each RDMA Job Failed here, Tx or Rx (10.7.1.2,
     * 10.8.1.2), with the cluster's failed-job vector, at the time of the failure in an event
     * of its own (so it may call ReleaseFailedRdmaJobs). A failed job calls no completion callback
     * and keeps its id until ReleaseFailedRdmaJobs.
     * \param cb the callback
     */
    void SetRdmaFailureCallback(RdmaFailureCallback cb);

    /**
     * \param side Tx or Rx
     * \param cluster a cluster of this chip
     * \return its failed-job vector (sticky: bit i, TJID or RJID i failed and not released)
     */
    std::bitset<256> GetFailedRdmaJobs(RdmaSide side, uint32_t cluster) const;

    /**
     * \param side Tx or Rx
     * \param cluster a cluster of this chip
     * \return its active (posted, not retired, not failed) jobs of that side
     */
    uint32_t GetActiveRdmaJobs(RdmaSide side, uint32_t cluster) const;

    /**
     * Trip flush, step 2 (11.8): release the failed Tx and Rx jobs of a cluster; their ids are
     * free again (their next jobs take the next epoch) and their job records are dropped.
     * \param cluster a cluster of this chip
     * \return the jobs released (Tx and Rx)
     */
    uint32_t ReleaseFailedRdmaJobs(uint32_t cluster);

    /**
     * The model's job id (at its source; what InjectDropJob and the job traces name) of an RDMA
     * job of PostRdmaTx: its header fields TJID, RJID and epoch and the two clusters, with bit 31
     * set (the endpoint API's jobs are numbered below 2^31).
     * \param srcCluster source cluster
     * \param tjid Tx job id
     * \param rjid Rx job id
     * \param dstCluster destination cluster
     * \param epoch the job's epoch bit
     * \return the id
     */
    static uint64_t GetRdmaJobId(uint32_t srcCluster,
                                 uint32_t tjid,
                                 uint32_t rjid,
                                 uint32_t dstCluster,
                                 uint8_t epoch);

    /**
     * The VOQ map table (10.2), the default map until software changes it (made on first use).
     * \return the table
     */
    CellFabricVoqTable& GetVoqTable();

    /// \return the occupancy limiter and QPage table (10.7.3.1, 10.7.6)
    const CellFabricOccupancyLimiter& GetOccupancyLimiter()
    {
        EnsureResources();
        return m_limiter;
    }

    /**
     * Post one datagram (10.5, 11.4.8) of \p m.bytes (1 to 16,256 B) from TxQ \p rxq of
     * cluster \p srcCluster to RxQ \p rxq of cluster \p dstCluster of \p m.dst. It is delivered
     * there when written into the RxQ, completed here when its page is transmitted; a datagram
     * dropped at the receiver is neither delivered nor retried. A size out of range is refused:
     * drop reason DatagramSize here, nothing sent.
     * \param m the message record (id, src, dst, bytes set)
     * \param dstCluster destination cluster
     * \param rxq the RxQ (and TxQ) index, 0 or 1 (the two classes of 10.5)
     * \param srcCluster the source cluster whose TxQ sends it
     * \return false if refused
     */
    bool PostDatagram(const FabricMessage& m,
                      uint32_t dstCluster,
                      uint32_t rxq = 0,
                      uint32_t srcCluster = 0);

    /**
     * \param cluster a cluster of this chip
     * \param rxq its RxQ, 0 or 1
     * \return the datagram RxQ ring (after the first message sent or expected)
     */
    const CellFabricDatagramRxRing& GetDatagramRxRing(uint32_t cluster, uint32_t rxq) const
    {
        return m_dgRx.at(cluster * 2 + rxq);
    }

    /**
     * \param cluster a source cluster of this chip
     * \param txq its TxQ, 0 or 1
     * \return the datagram TxQ (after the first message sent or expected)
     */
    const CellFabricDatagramTxQueue& GetDatagramTxQueue(uint32_t cluster, uint32_t txq) const
    {
        return m_dgTx.at(cluster * 2 + txq);
    }

    /// \return the counters
    const Stats& GetStats() const
    {
        return m_stats;
    }

    /**
     * \brief RxDMA is done with a granted page (committed, stale or lost): its Rx CBUF cells are
     * free and its grant is no longer outstanding. Public so that the invariant tests can free a
     * page twice on purpose.
     * \param cluster the destination cluster of the page
     * \param cells its cells
     */
    void FreeRxCells(uint32_t cluster, uint32_t cells);

    /// \return Rx CBUF data cells (RxCbufCells)
    uint32_t GetRxCbufCells() const
    {
        return m_rxCbufCells;
    }

    /// \return grants issued and not yet committed, all clusters
    uint64_t GetOutstandingGrants() const
    {
        uint64_t n = 0;
        for (uint32_t g : m_grantsOut)
        {
            n += g;
        }
        return n;
    }

    /// \return true once the Rx buffer is set up (the first message sent or expected)
    bool HasRxResources() const
    {
        return m_resourcesReady;
    }

    /// \return free Rx CBUF data cells now
    uint32_t GetFreeRxCells() const
    {
        return m_freeCells;
    }

    /// What one VOQ of this adapter holds (for reports on a run that makes no progress).
    struct VoqState
    {
        uint32_t dst{0};         //!< destination chip
        uint32_t cluster{0};     //!< destination cluster
        uint32_t oq{0};          //!< output queue (VOQ[1:0])
        uint32_t jobs{0};        //!< jobs queued whose last page is not yet requested
        uint32_t outstanding{0}; //!< pages requested and not yet sent (waiting on a grant)
        bool cts{false};         //!< the head job has its CTS (false: it waits for it)

        uint32_t srcCluster{0}; //!< source cluster (its Job Manager and Page Generator)
    };

    /// \return the VOQs that hold jobs or pages waiting on a grant, in VOQ key order
    std::vector<VoqState> GetVoqStates() const;

    /// What one destination cluster's grant scheduler holds.
    struct GrantQueueState
    {
        uint32_t cluster{0};   //!< the cluster (here)
        uint64_t waiting{0};   //!< requests waiting for a grant
        uint32_t grantsOut{0}; //!< grants not yet committed by RxDMA
    };

    /// \return the grant scheduler of every cluster (empty before the first unit)
    std::vector<GrantQueueState> GetGrantQueueStates() const;

    /// \return Tx jobs posted and neither acknowledged nor failed
    uint64_t GetPendingTxJobs() const
    {
        return m_stats.jobsPosted - m_stats.jobsCompleted - m_stats.jobsFailed;
    }

    /// \return the adapter's MaxOutstandingGrants (grants not yet committed, per cluster)
    uint32_t GetMaxOutstandingGrants() const
    {
        return m_maxOutstandingGrants;
    }

    /// \return RxDMA rate of one cluster in bytes per second (128 B per cycle)
    double GetRxDmaBytesPerSecond() const;

    /// \return FO pipe rate in bytes per second (88 B per cycle)
    double GetFoBytesPerSecond() const;

    /// \return the adapter's transmit pipeline latency
    Time GetTxLatency() const
    {
        return m_txLatency;
    }

    /// \return the adapter's receive pipeline latency
    Time GetRxLatency() const
    {
        return m_rxLatency;
    }

    /// \return bytes of per-cell header on the links
    uint32_t GetCellHeaderBytes() const
    {
        return m_cellHeaderBytes;
    }

    double GetCongestionState(uint32_t dst) const override;

  protected:
    void DoDispose() override;

  private:
    void DoSend(const FabricMessage& m) override;

    /// State of a message at its source (its jobs).
    struct TxMessage
    {
        FabricMessage msg;    //!< the record
        uint32_t jobsLeft{0}; //!< jobs not yet acknowledged
    };

    /// Tx job FSM states (10.7.1.1; digest 5.4).
    enum TxState
    {
        TX_QUEUED,   //!< waiting for the VOQ-Active lock
        TX_CTS_WAIT, //!< holds the lock, waits for the CTS (TxCtsTimeout)
        TX_ACTIVE,   //!< pages being generated and sent (TxActiveTimeout)
        TX_ACK_WAIT, //!< all pages transmitted, waits for ACK or NACK (TxAckTimeout)
        TX_DONE,     //!< acknowledged or failed
    };

    /// A Tx job (10.7.2).
    struct TxJob
    {
        uint64_t id{0};                     //!< job id (the TJID with its epoch, unbounded here)
        uint32_t dst{0};                    //!< destination chip
        uint32_t cluster{0};                //!< destination cluster
        uint64_t voq{0};                    //!< VOQ key (dst, cluster, OQ; source cluster)
        std::vector<uint32_t> pages;        //!< data bytes of each page
        uint32_t nextRequest{0};            //!< next page to request
        bool cts{false};                    //!< CTS received
        uint8_t epoch{0};                   //!< 1-bit job epoch (flips on a retry)
        bool retried{false};                //!< the job was retried once
        bool failed{false};                 //!< Job Failed (second NACK)
        std::shared_ptr<TxMessage> message; //!< the message the job belongs to
        TxState state{TX_QUEUED};           //!< FSM state (10.7.1.1)
        uint32_t sent{0};                   //!< pages of this attempt transmitted
        EventId timer;                      //!< the state's timer

        uint32_t srcCluster{0}; //!< source cluster (10.7.1: its Job Manager)
        bool high{false};       //!< its VOQ is high priority (10.7.3)
        uint32_t profile{0};    //!< its VOQ's occupancy profile (10.7.3.1)
        bool datagram{false};   //!< a datagram (one page, no CTS, no timer)
        uint32_t rxq{0};        //!< datagram: RxQ index (page header, 10.6)
        uint32_t txq{0};        //!< datagram: TxQ (source cluster * 2 + index)

        bool api{false};           //!< posted by PostRdmaTx (no message: a callback)
        RdmaCompletion info;       //!< PostRdmaTx: what its completion reports
        RdmaCallback done;         //!< PostRdmaTx: called on the ACK
        uint32_t pageSizeWords{0}; //!< PageSizeWords of its pages
    };

    /// An Rx job (10.8.2).
    struct RxJob
    {
        uint32_t src{0};           //!< source chip
        uint64_t job{0};           //!< job id at the source
        uint32_t cluster{0};       //!< destination cluster (here)
        uint32_t pages{0};         //!< pages expected
        uint32_t committed{0};     //!< pages committed
        uint64_t bytes{0};         //!< payload bytes of the job
        FabricMessage msg;         //!< the message
        bool lastJob{true};        //!< last job of its message
        uint8_t epoch{0};          //!< epoch expected (flips on a NACK)
        uint32_t nacks{0};         //!< NACKs sent for the job
        uint32_t losses{0};        //!< injected losses of the page (InjectDrop*)
        bool retry{false};         //!< the job is in its retry (after a NACK or a Tx timeout)
        bool dataSeen{false};      //!< a data page arrived (Rx Data Active, 10.8.1.1)
        bool ctsResent{false};     //!< the CTS was resent after a data-wait timeout
        bool failed{false};        //!< Rx Job Failed (10.8.1.2)
        std::vector<bool> counted; //!< pages whose payload was counted (delivered once)
        EventId timer;             //!< data-wait or job-completion timer
        uint32_t nextSeq{0};       //!< PageSeqNum: next expected page (10.8.2)
        uint64_t words{0};         //!< WordsReceived of the attempt (10.8.2)
        uint64_t totalWords{0};    //!< TotalWords of the job (10.8.2)
        bool error{false};         //!< the attempt is in error: NACK at its last page
        uint64_t pageBytes{0};     //!< payload bytes of a full page (the sender's page size)

        bool api{false};     //!< posted by PostRdmaRx (no message: a callback)
        RdmaCompletion info; //!< PostRdmaRx: what its completion reports
        RdmaCallback done;   //!< PostRdmaRx: called after the ACK is sent
    };

    /// A datagram message expected here (its datagrams, 10.5).
    struct RxDatagramMessage
    {
        FabricMessage msg; //!< the message
        uint32_t left{0};  //!< datagrams neither written nor dropped
        bool lost{false};  //!< a datagram was dropped: never delivered
    };

    /// A datagram expected here: its message and its payload bytes.
    struct RxDatagram
    {
        std::shared_ptr<RxDatagramMessage> message; //!< the message
        uint64_t payload{0};                        //!< payload bytes it carries
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

    /// Data Reorder of one job attempt (10.8[3]): pages go on to RxDMA in sequence order.
    struct RxOrder
    {
        uint32_t next{0}; //!< next page to release
        std::map<uint32_t, std::pair<Ptr<FabricPacket>, uint32_t>> waiting; //!< unit, cells
    };

    /// A request waiting at the grant scheduler.
    struct Request
    {
        uint32_t src{0};   //!< requesting chip
        uint64_t job{0};   //!< job id at the source
        uint32_t page{0};  //!< page sequence number
        uint32_t cells{0}; //!< cells of the page
        uint32_t bytes{0}; //!< data bytes of the page (RxDMA time of the paced policy)
        uint8_t epoch{0};  //!< job epoch of the request
    };

    /// Grant scheduler state of one destination cluster.
    struct GrantQueue
    {
        std::map<uint32_t, std::deque<Request>> bySource; //!< FIFO per source
        std::deque<Request> fifo;                         //!< FIFO policy queue
        uint32_t rrNext{0};                               //!< next source in round robin
        uint64_t waiting{0};                              //!< requests queued
    };

    /// A granted page on its way to an FO pipe.
    struct GrantedPage
    {
        uint64_t job{0};     //!< job id
        uint32_t page{0};    //!< page sequence number
        uint8_t epoch{0};    //!< its request's epoch (bit 0) and the Retry bit (bit 1)
        uint32_t dst{0};     //!< destination chip
        uint32_t cluster{0}; //!< destination cluster
        uint32_t bytes{0};   //!< data bytes
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

    /// Size the Rx and FO resources from the attributes, once.
    void EnsureResources();
    /**
     * A unit arrived on a link port.
     * \param dev the port
     * \param p the unit
     */
    void Receive(const Ptr<FabricNetDevice>& dev, const Ptr<FabricPacket>& p);
    /**
     * Handle a control cell (request, grant, CTS, ACK) after the Rx pipeline.
     * \param p the cell
     */
    void HandleControl(Ptr<FabricPacket> p);
    /**
     * Post an Rx job here and send its CTS (10.3, 10.8.1).
     * \param src source chip
     * \param job job id at the source
     * \param rx the job
     */
    void PostRxJob(uint32_t src, uint64_t job, const RxJob& rx);
    /**
     * Refuse an RDMA post: count it, log it, give the reason.
     * \param error where the reason goes (may be null)
     * \param why the reason
     * \return false
     */
    bool RefuseRdma(std::string* error, const std::string& why);
    /**
     * The sender of an RDMA job of PostRdmaTx has its CTS: its pages are about to be requested.
     * The Rx job learns the job's pages (the model's stand-in for each page header's size and
     * Last-page flag, 10.6).
     * \param src source chip
     * \param job job id at the source
     * \param pageSizeWords the Tx job's PageSizeWords
     * \param pages its pages
     */
    void LearnRdmaPages(uint32_t src, uint64_t job, uint32_t pageSizeWords, uint32_t pages);
    /**
     * \param src source chip
     * \param job job id at the source (not an Rx job here)
     * \return true if it is a PostRdmaTx job whose RJID here holds a job of the other epoch
     * (the page is of a past or later invocation of the TJID/RJID pair, 10.4)
     */
    bool IsStaleRdmaJob(uint32_t src, uint64_t job) const;
    /**
     * Report an RDMA Job Failed of a PostRdmaTx or PostRdmaRx job to the failure callback.
     * \param side its side
     * \param info the job's completion record (ids, clusters)
     */
    void ReportRdmaFailure(RdmaSide side, const RdmaCompletion& info);
    /**
     * Send a control cell after the Tx pipeline, on the next link in turn.
     * \param dst destination chip
     * \param type REQUEST, GRANT, CTS, ACK or NACK
     * \param job job id at the data source
     * \param page page sequence number
     * \param cells cells of the page (requests also carry the cluster in bits 16 to 31 and the
     * page's data bytes in bits 32 and up)
     */
    void SendControl(uint32_t dst, UnitType type, uint64_t job, uint64_t page, uint64_t cells);
    /**
     * Queue a unit on a link port and wake the port.
     * \param link the port index
     * \param p the unit
     */
    void EnqueueOnLink(uint32_t link, const Ptr<FabricPacket>& p);
    /**
     * Make the head job of a VOQ active (VOQ-Active lock, 10.7.1.1).
     * \param voq the VOQ key
     */
    void ActivateNext(uint64_t voq);
    /// Page Generator: request pages of the active jobs in turn (10.7.3).
    void Generate();
    /**
     * A grant arrived: the page goes to an FO pipe.
     * \param job job id
     * \param page page sequence number
     * \param epoch the job epoch its request carried
     * \param from the granting chip
     * \param info the page's cells, and its cluster in bits 16 to 31
     */
    void OnGrant(uint64_t job, uint32_t page, uint8_t epoch, uint32_t from, uint64_t info);
    /**
     * A NACK arrived: retry the job once (its epoch flips), or fail it (Job Failed).
     * \param job job id
     */
    void OnNack(uint64_t job);
    /**
     * FO dequeues a granted page (10.7.5-7): its QPage is retired and it takes space in the
     * TxBuf of the pipe that frees first among those with room.
     * \param g the granted page
     * \return false if no pipe's TxBuf has room for it
     */
    bool Dequeue(const GrantedPage& g);
    /// Dequeue the granted pages waiting for TxBuf space, in order, while there is room.
    void DrainFoWait();
    /**
     * A page leaves its FO pipe: spray its cells over the links.
     * \param job job id
     * \param page page sequence number
     * \param dst destination chip
     * \param cluster destination cluster
     * \param bytes data bytes of the page
     */
    void PageOut(uint64_t job,
                 uint32_t page,
                 uint32_t dst,
                 uint32_t cluster,
                 uint32_t bytes,
                 uint8_t epoch);
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
     * Give back the Rx CBUF cells and the grant of a page that is dropped, and grant again.
     * \param cluster the page's cluster
     * \param cells its cells
     */
    void ReleasePage(uint32_t cluster, uint32_t cells);
    /**
     * A job of this adapter got the VOQ-Active lock: start its CTS-wait or Tx-active timer.
     * \param id the job
     */
    void OnActivated(uint64_t id);
    /**
     * (Re)start a timer, or stop it when \p delay is zero (the timer is off).
     * \param ev the timer
     * \param delay the timeout
     * \param fn what runs on expiry
     */
    template <typename F>
    void Arm(EventId& ev, Time delay, F fn);
    /**
     * A Tx job's timer expired (10.7.1.1-2): CTS wait or Tx active: Job Failed; ACK wait:
     * retry once, then Job Failed.
     * \param id the job
     */
    void OnTxTimeout(uint64_t id);
    /**
     * An Rx job's timer expired (10.8.1.1-2): data wait: resend the CTS once, then Rx Job
     * Failed; job completion: Rx Job Failed.
     * \param src source chip
     * \param job job id at the source
     */
    void OnRxTimeout(uint32_t src, uint64_t job);
    /**
     * Retry a Tx job once (its epoch flips; no new CTS), or fail it if it was retried.
     * \param id the job
     */
    void RetryOrFail(uint64_t id);
    /**
     * Job Failed (sticky): the message is never delivered nor completed.
     * \param id the job
     */
    void FailTxJob(uint64_t id);
    /**
     * Rx Job Failed: later pages of the job are dropped (RxJobFailed).
     * \param rx the job
     */
    void FailRxJob(RxJob& rx);
    /**
     * Check mode: free cells and outstanding grants within their capacity.
     * \param cluster the cluster whose grants changed
     * \param after what changed them (for the message)
     */
    void CheckRxCells(uint32_t cluster, const char* after) const;
    /**
     * An RDMA page is complete and its predecessors in the job attempt went on (Data Reorder):
     * the Rx job's early checks, then on to RxDMA after the Rx pipeline.
     * \param p its last unit
     * \param pageCells its cells
     */
    void OnPageInOrder(const Ptr<FabricPacket>& p, uint32_t pageCells);
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
     * RxDMA has read a page out of the Rx CBUF: free its cells and take the next page.
     * \param cluster the cluster
     * \param cells the page's cells
     */
    void RxDmaReadDone(uint32_t cluster, uint32_t cells);
    /**
     * Validate an RDMA page against its Rx job (10.8.8): id and epoch, sequence, words.
     * \param pg the page
     * \return true if it is to be written
     */
    bool ValidateRdma(const RxDmaPage& pg);
    /**
     * Send a NACK for an Rx job in error and restart it for the retry (10.8.1.1); an error in
     * the retry is Rx Job Failed.
     * \param rx the job
     * \param page the page that triggered it
     */
    void SendNack(RxJob& rx, uint32_t page);
    /**
     * An RDMA page's writes are committed (tracking ID returned): count its payload, finish
     * the job after its last page.
     * \param src source chip
     * \param job job id at the source
     * \param page page sequence number
     * \param cells cells of the page
     * \param epoch its epoch bit
     */
    void PageCommitted(uint32_t src, uint64_t job, uint32_t page, uint32_t cells, uint8_t epoch);
    /**
     * A datagram's writes are committed: its RxQ descriptor is filled.
     * \param pg the page
     */
    void DatagramCommitted(const RxDmaPage& pg);
    /**
     * The datagram of \p pg will not be written (dropped): its message is lost.
     * \param pg the page
     */
    void DatagramLost(const RxDmaPage& pg);
    /**
     * A sender announces a datagram (the model's stand-in for the RxQ index and message
     * identity a datagram page carries).
     * \param src source chip
     * \param job its job id there
     * \param dg the datagram
     */
    void ExpectDatagram(uint32_t src, uint64_t job, const RxDatagram& dg);
    /**
     * Post one datagram of a message (shared by PostDatagram and DoSend).
     * \param msg the message at the sender
     * \param rxMsg the message at the receiver
     * \param bytes the datagram's bytes (1 to 16,256)
     * \param payload payload bytes it counts
     * \param dstCluster destination cluster
     * \param rxq RxQ and TxQ index
     * \param srcCluster source cluster
     */
    void PostDatagramPart(const std::shared_ptr<TxMessage>& msg,
                          const std::shared_ptr<RxDatagramMessage>& rxMsg,
                          uint32_t bytes,
                          uint64_t payload,
                          uint32_t dstCluster,
                          uint32_t rxq,
                          uint32_t srcCluster);
    /**
     * Admit datagrams of a TxQ into the Page Generator while it allows (10.7.1.3-4).
     * \param txq the TxQ
     */
    void PumpTxQueue(uint32_t txq);
    /**
     * An ACK arrived: the Tx job is complete.
     * \param job job id
     */
    void OnAck(uint64_t job);
    /**
     * Count and trace a drop.
     * \param p the unit
     * \param reason the reason
     */
    void Drop(const Ptr<FabricPacket>& p, const char* reason);
    /**
     * \param bytes bytes to move
     * \param bytesPerCycle bytes moved per cycle
     * \return the time of ceil(bytes / bytesPerCycle) cycles
     */
    Time Cycles(double bytes, uint32_t bytesPerCycle) const;

    std::vector<Ptr<FabricNetDevice>> m_ports;                //!< link ports
    std::vector<Ptr<FabricOutputQueue>> m_queues;             //!< link transmit queues
    std::shared_ptr<std::vector<CellFabricAdapter*>> m_peers; //!< adapters by accelerator id

    // Attributes
    uint32_t m_clusters{4};                //!< clusters per chip (1)
    double m_clockGhz{1.33};               //!< clock (1)
    uint32_t m_destinationClusters{4};     //!< clusters endpoint messages are spread over
    uint32_t m_pageSizeWords{125};         //!< PageSizeWords of RDMA jobs (10.7.2)
    uint32_t m_foPipes{4};                 //!< FO pipes (10.7)
    uint32_t m_foBytesPerCycle{88};        //!< FO pipe width (10.7[5a])
    uint32_t m_rxDmaBytesPerCycle{128};    //!< RxDMA width per cluster (10.8.8)
    uint32_t m_rxCbufCells{24576};         //!< Rx CBUF cells (10.8.3)
    uint32_t m_cellHeaderBytes{16};        //!< per-cell header on the links [assumption]
    uint32_t m_controlCellBytes{96};       //!< request, grant and message cell bytes [assumption]
    uint32_t m_maxOutstandingPages{64};    //!< default XOFF of every profile (10.7.3.1)
    uint32_t m_maxOutstandingGrants{4096}; //!< grants not yet committed, per cluster
    Time m_txLatency;                      //!< Tx pipeline latency [assumption]
    Time m_rxLatency;                      //!< Rx pipeline latency [assumption]
    Time m_txCtsTimeout;                   //!< Tx CTS-wait timer [assumption]
    Time m_txActiveTimeout;                //!< Tx-active timer [assumption]
    Time m_txAckTimeout;                   //!< Tx ACK-wait timer [assumption]
    Time m_rxDataTimeout;                  //!< Rx data-wait timer [assumption]
    Time m_rxCompletionTimeout;            //!< Rx job-completion timer [assumption]
    GrantPolicy m_grantPolicy{PACED_ROUND_ROBIN}; //!< grant scheduler policy
    InjectDropMode m_injectDropMode{INJECT_LOST}; //!< how an injected loss shows
    Granularity m_granularity{COARSE};            //!< event granularity on the links
    uint64_t m_injectDropJob{UINT64_MAX};         //!< job (id at its source) to lose a page of
    uint32_t m_injectDropPage{0};                 //!< page of that job to lose
    uint32_t m_injectDropAttempts{1};             //!< attempts on which the page is lost
    Transport m_transport{TRANSPORT_RDMA};        //!< transport of endpoint messages
    uint32_t m_dgRxRingSize{256};                 //!< RxQ ring descriptors [assumption]
    uint32_t m_dgRxBufferBytes{16256};            //!< RxQ descriptor buffer (11.4.9)
    Time m_dgRxRepostTime;                        //!< software time per RxQ descriptor
    uint64_t m_dgRxRepostLimit{UINT64_MAX};       //!< descriptors software posts again
    uint32_t m_dgTxRingSize{256};                 //!< TxQ ring descriptors [assumption]
    uint32_t m_dgTxReorderIds{64};                //!< TxQ Reorder IDs (10.7.1.4)
    uint32_t m_trackingIds{16};                   //!< RxDMA tracking IDs per cluster (10.8.8)
    uint32_t m_rxOqHighMask{5};                   //!< high-priority Rx OQs, bit per OQ (10.8.5)
    uint32_t m_commitCycles{100};                 //!< AMEM write completion latency (11.7.2)

    // Attributes of the Tx pipeline structures (10.7.3-10.7.8)
    std::string m_occupancyProfiles;             //!< profiles "xoff:xon,..." (10.7.3.1)
    uint32_t m_qpages{1024};                     //!< QPage table entries of the chip (10.7.6)
    uint32_t m_clusterQPages{1024};              //!< QPage cap per source cluster (10.7.3.1)
    uint32_t m_highGroupPages{1024};             //!< high-priority group limit per cluster
    uint32_t m_lowGroupPages{1024};              //!< low-priority group limit per cluster
    uint32_t m_txBufBytes{32768};                //!< TxBuf per FO pipe (10.7[5b], 10.7.8)
    uint32_t m_defaultOq{1};                     //!< OQ of the endpoint API's jobs (digest 5.2)
    VoqPriority m_defaultPriority{LOW_PRIORITY}; //!< priority of the endpoint API's VOQs
    uint32_t m_defaultProfile{0};                //!< occupancy profile of the endpoint's VOQs

    // Tx state
    uint64_t m_nextJob{0};                               //!< next job id
    std::unordered_map<uint32_t, uint32_t> m_messagesTo; //!< endpoint messages per destination
    std::unordered_map<uint64_t, TxJob> m_txJobs;        //!< Tx jobs by id
    std::map<uint64_t, std::deque<uint64_t>> m_voqJobs;  //!< jobs per VOQ, head active
    std::vector<uint64_t> m_active;                      //!< active jobs (head of a VOQ)
    uint32_t m_activeRr{0};                              //!< round robin over active jobs
    std::vector<Time> m_foFree;                          //!< when each FO pipe is free
    uint32_t m_sprayNext{0};                             //!< next link to spray on
    uint32_t m_sprayHash{0}; //!< flow hash of the next unit (middle-stage spraying)
    uint32_t m_ctrlNext{0};  //!< next link for control cells

    // Tx pipeline structures (10.7.3-10.7.8)
    CellFabricOccupancyLimiter m_limiter;           //!< occupancy limiter and QPage table
    std::unique_ptr<CellFabricVoqTable> m_voqTable; //!< VOQ map (made on first use)
    std::vector<std::deque<std::pair<Time, uint32_t>>> m_txBuf; //!< TxBuf pages per pipe
    std::vector<uint32_t> m_txBufUsed;                          //!< TxBuf bytes in use per pipe
    std::deque<GrantedPage> m_foWait;                           //!< granted, waiting for TxBuf
    EventId m_foWake;                                           //!< TxBuf space frees

    // Rx state
    std::map<std::pair<uint32_t, uint64_t>, RxJob> m_rxJobs; //!< Rx jobs by (src, job)
    std::unordered_map<uint64_t, RxPage> m_rxPages;          //!< pages being reassembled
    std::vector<GrantQueue> m_grants;                        //!< grant scheduler per cluster
    std::map<std::tuple<uint32_t, uint64_t, uint8_t>, GrantAdmission> m_grantAdmission; //!< order
    std::vector<uint32_t> m_grantsOut; //!< grants not committed, per cluster
    /// Rx OQM (10.8.5): the 4 OQs of each cluster, complete pages waiting for its RxDMA
    std::vector<std::array<std::deque<RxDmaPage>, CellFabricVoqTable::OQS_PER_VPFE>> m_rxOq;
    std::vector<std::array<uint32_t, 2>> m_rxOqNext; //!< round robin: next OQ (low, high)
    std::vector<bool> m_rxDmaBusy;                   //!< RxDMA serving a page
    std::vector<std::vector<Time>> m_trackFree;      //!< tracking IDs' free times
    std::map<std::tuple<uint32_t, uint64_t, uint8_t>, RxOrder> m_rxOrder; //!< Data Reorder
    std::map<std::pair<uint32_t, uint64_t>, RxDatagram> m_rxDatagrams;    //!< expected here
    std::vector<CellFabricDatagramRxRing> m_dgRx;  //!< RxQs (cluster * 2 + index)
    std::vector<CellFabricDatagramTxQueue> m_dgTx; //!< TxQs (cluster * 2 + index)
    uint32_t m_freeCells{0};                       //!< free Rx CBUF data cells
    Time m_chipGrantNext;                 //!< paced: earliest next grant (receiver's links)
    std::vector<Time> m_clusterGrantNext; //!< paced: earliest next grant per cluster (RxDMA)
    uint32_t m_grantRrCluster{0};         //!< paced: next cluster in round robin
    EventId m_grantWake;                  //!< paced: pending wake-up of the scheduler
    double m_linkBytesPerSecond{0};       //!< sum of the link ports' rates
    bool m_resourcesReady{false};         //!< EnsureResources() ran

    // Explicit RDMA job posting (PostRdmaTx, PostRdmaRx; 10.4)
    RdmaJobPosting m_rxPosting{RX_POSTING_AUTOMATIC};   //!< who posts Rx jobs
    CellFabricRdmaJobIds m_txIds;                       //!< TJIDs per cluster
    CellFabricRdmaJobIds m_rxIds;                       //!< RJIDs per cluster
    std::set<std::pair<uint32_t, uint64_t>> m_earlyCts; //!< CTSs (from, job) before their job
    RdmaFailureCallback m_rdmaFailure;                  //!< the Job Failed interrupt

    Stats m_stats;                                                            //!< counters
    TracedCallback<uint32_t, uint64_t, uint32_t, uint32_t> m_pageTxTrace;     //!< page sent
    TracedCallback<uint32_t, uint64_t, uint32_t, uint32_t> m_pageCommitTrace; //!< page committed
    TracedCallback<Ptr<const FabricPacket>, const std::string&> m_dropTrace;  //!< drops
    TracedCallback<uint32_t, uint64_t> m_nackTrace;        //!< NACK received (sender)
    TracedCallback<uint32_t, uint64_t> m_jobFailedTrace;   //!< Job Failed (sender)
    TracedCallback<uint32_t, uint64_t> m_retryTrace;       //!< Tx job retried (sender)
    TracedCallback<uint32_t, uint64_t> m_rxJobFailedTrace; //!< Rx Job Failed (receiver)

    TracedCallback<uint64_t, uint32_t, uint32_t> m_pageGenTrace; //!< page generated (10.7.3)
};

} // namespace ns3

#endif /* CELL_FABRIC_ADAPTER_H */
