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
class CellFabricTxPipeline;
class CellFabricRxPipeline;
class CellFabricRdmaJobManager;
class CellFabricDatagramService;

/**
 * \ingroup cell-fabric
 * \brief The Pyxis Fabric Adapter (Pyxis spec section 10) as a FabricEndpoint.
 *
 * The adapter is what users and CellFabricHelper see: the endpoint API, the RDMA and datagram
 * posts of the chip's software, the attributes, trace sources and counters. It composes the
 * blocks of the spec's Fabric Adapter, each a class of its own:
 *
 * - CellFabricTxPipeline (10.7, 10.1): the Tx Job Table's jobs, the VOQ-Active lock, the Page
 *   Generator with its occupancy limiter and QPage table, requests, the FO pipes and TxBufs,
 *   cellification and spraying over the links.
 * - CellFabricRxPipeline (10.8, 10.1): reassembly and the Data Reorder, the grant scheduler and
 *   the Rx CBUF cells it reserves, the Rx OQM and RxDMA with its tracking IDs.
 * - CellFabricRdmaJobManager (10.3, 10.4, 10.7.1.1-2, 10.8.1.1-2, 10.8.8): RDMA jobs at both
 *   ends: posts, job ids and epochs, CTS, ACK and NACK, the page checks, timers, retry and Job
 *   Failed.
 * - CellFabricDatagramService (10.5, 10.7.1.3-4, 10.8.1.3): TxQs, RxQ rings and the datagrams
 *   expected here.
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
 * reserves them; they are freed when RxDMA has read the page (10.8[8]), so grants are paced
 * by free Rx buffer cells and the fabric is lossless. The grant policy is an attribute (the
 * spec gives none; default PacedRoundRobin: round robin over sources, grants issued no faster
 * than the receiver drains its CBUF, see GrantPolicy).
 *
 * A granted page is serialized by one of the FO pipes (88 B per cycle, chosen page by page,
 * 10.7[5a]) and its cells are sprayed round robin over the adapter's links. Coarse granularity
 * (DESIGN.md rule 3): the cells of one page that go to one link travel as one unit carrying their
 * exact cell count and bytes. The receiver counts the cells of each page (reorder and
 * reassembly, 10.8[3-4]); a complete page waits in one of its cluster's 4 OQs (10.8.5: strict
 * priority, then round robin) for the cluster's RxDMA (128 B per cycle, section 9), which
 * commits it. After the last page of a job commits, the receiver sends an ACK
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

    /// Grant scheduler policies (the spec gives none: 10.1 and 10.8[8] say only that grants are
    /// paced by freed Rx CBUF cells).
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
        uint32_t oq{1};         //!< OQ, VOQ[1:0] (10.2; the model's 1 = RDMA low class)
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
     * An RDMA Rx job descriptor (11.4.7, 10.3, 10.8.1): what the receiver's software posts. Its CTS
     * is sent when it is posted.
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
     * An RDMA Tx job descriptor (11.4.6, 10.3, 10.7.1): what the sender's software posts. Its pages
     * wait for the Rx job's CTS (which may have come first).
     */
    struct RdmaTxDescriptor
    {
        uint32_t srcCluster{0};      //!< this chip's cluster (its Tx Job Manager)
        uint32_t tjid{0};            //!< Tx job id, 8 bits (10.4)
        uint32_t rjid{0};            //!< the receiver's Rx job id, 8 bits
        uint32_t dstChip{0};         //!< destination chip
        uint32_t dstCluster{0};      //!< destination cluster
        uint32_t oq{1};              //!< the VOQ's OQ, VOQ[1:0] (10.2; the model's 1 = RDMA low)
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

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    CellFabricAdapter();
    ~CellFabricAdapter() override;

    /**
     * Add a link port (a FabricNetDevice attached to a cell-switch plane). Its transmit queue
     * becomes a FabricOutputQueue of the Tx pipeline and its receive handler the Rx pipeline.
     * \param device the port
     */
    void AddPort(Ptr<FabricNetDevice> device);

    /// \return the number of link ports
    uint32_t GetNPorts() const;

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
    const CellFabricOccupancyLimiter& GetOccupancyLimiter();

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
     * \param cluster a source cluster of this chip
     * \param txq its TxQ, 0 or 1
     * \return the datagram TxQ (after the first message sent or expected)
     */
    const CellFabricDatagramTxQueue& GetDatagramTxQueue(uint32_t cluster, uint32_t txq) const;

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
    uint32_t GetRxCbufCells() const;

    /// \return grants issued and not yet committed, all clusters
    uint64_t GetOutstandingGrants() const;

    /// \return true once the Rx buffer is set up (the first message sent or expected)
    bool HasRxResources() const
    {
        return m_resourcesReady;
    }

    /// \return free Rx CBUF data cells now
    uint32_t GetFreeRxCells() const;

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
    uint32_t GetMaxOutstandingGrants() const;

    /// \return RxDMA rate of one cluster in bytes per second (128 B per cycle)
    double GetRxDmaBytesPerSecond() const;

    /// \return the adapter's transmit pipeline latency
    Time GetTxLatency() const;

    /// \return the adapter's receive pipeline latency
    Time GetRxLatency() const;

    /// \return bytes of per-cell header on the links
    uint32_t GetCellHeaderBytes() const;

    double GetCongestionState(uint32_t dst) const override;

    /**
     * \brief The flow engine's plan of a message of the endpoint API (cell-fabric.rst, "Flow
     * engine plan"): the destination cluster DoSend would take (advanced the same way), its
     * cells sprayed over every link (a share per link), the wire bytes of its pages' cells
     * with their headers and of their requests, one FIFO per VOQ (the VOQ-Active lock), the
     * CTS and request-grant handshake and the first page's FO pass before the first cell, and
     * completion on the ACK (RDMA) or at transmission (datagrams).
     * \param m the message
     * \param [out] plan the plan
     * \return false without a link or a peer adapter, or with RdmaJobPosting Explicit
     */
    bool PlanFlow(const FabricMessage& m, FabricFlowPlan& plan) override;

  protected:
    void DoDispose() override;

  private:
    // The parts reach the adapter's counters, traces, peers and each other through it.
    friend class CellFabricTxPipeline;
    friend class CellFabricRxPipeline;
    friend class CellFabricRdmaJobManager;
    friend class CellFabricDatagramService;

    void DoSend(const FabricMessage& m) override;

    /**
     * The destination cluster of the endpoint API's next message to \p dst (its messages to one
     * destination go to the clusters in turn, from the source's id): DoSend and PlanFlow.
     * \param dst the destination chip
     * \return the cluster
     */
    uint32_t NextCluster(uint32_t dst);

    /**
     * The one-way latency of a control cell from an adapter to a chip, along the route its
     * first link's switches give it: each hop's link delay and receive offset (serialization
     * and pipeline), without the adapters' Tx and Rx pipeline latencies (PlanFlow).
     * \param from the sending adapter
     * \param to the destination chip
     * \return the latency
     */
    static Time ControlPathLatency(const CellFabricAdapter& from, uint32_t to);

    /**
     * \param tid the adapter's TypeId
     * \return it with the chip's attributes and those of the endpoint API's messages
     */
    static TypeId AddChipAttributes(TypeId tid);
    /**
     * \param tid the adapter's TypeId
     * \return it with the trace sources
     */
    static TypeId AddTraceSources(TypeId tid);

    /// Size every part's resources from the attributes, once (attributes are final by then).
    void EnsureResources();
    /**
     * \param chip an accelerator id of the pod
     * \return that chip's adapter (aborts if it has none)
     */
    CellFabricAdapter& GetPeer(uint32_t chip) const;
    /**
     * \param chip an accelerator id
     * \return true if the pod has an adapter with that id
     */
    bool HasPeer(uint32_t chip) const;
    /**
     * Count and trace a drop.
     * \param p the unit
     * \param reason the reason
     */
    void Drop(const Ptr<FabricPacket>& p, const char* reason);
    /**
     * \param bytes bytes to move
     * \param bytesPerCycle bytes moved per cycle
     * \return the time of ceil(bytes / bytesPerCycle) cycles of the adapter's clock
     */
    Time Cycles(double bytes, uint32_t bytesPerCycle) const;

    std::unique_ptr<CellFabricTxPipeline> m_tx;               //!< Tx pipeline (10.7)
    std::unique_ptr<CellFabricRxPipeline> m_rx;               //!< Rx pipeline (10.8)
    std::unique_ptr<CellFabricRdmaJobManager> m_jobs;         //!< RDMA jobs (10.3, 10.7.1, 10.8.1)
    std::unique_ptr<CellFabricDatagramService> m_dg;          //!< datagrams (10.5)
    std::shared_ptr<std::vector<CellFabricAdapter*>> m_peers; //!< adapters by accelerator id
    std::unique_ptr<CellFabricVoqTable> m_voqTable;           //!< VOQ map (made on first use)
    std::unordered_map<uint32_t, uint32_t> m_messagesTo;      //!< endpoint messages per destination
    /// PlanFlow: control-cell latency to and from each destination (ControlPathLatency)
    std::unordered_map<uint32_t, std::pair<Time, Time>> m_ctrlLatency;
    std::vector<FabricNetDevice*> m_planPorts; //!< PlanFlow: the links, as plain pointers
    bool m_resourcesReady{false};              //!< EnsureResources() ran

    // Attributes of the chip and of the endpoint API's messages (the parts' own attributes are
    // in their Config)
    uint32_t m_clusters{4};                      //!< clusters per chip (1)
    double m_clockGhz{1.33};                     //!< clock (1)
    uint32_t m_destinationClusters{4};           //!< clusters endpoint messages are spread over
    uint32_t m_pageSizeWords{125};               //!< PageSizeWords of the endpoint API (10.7.2)
    Transport m_transport{TRANSPORT_RDMA};       //!< transport of endpoint messages
    uint32_t m_defaultOq{1};                     //!< OQ of the endpoint API's jobs (10.2)
    VoqPriority m_defaultPriority{LOW_PRIORITY}; //!< priority of the endpoint API's VOQs
    uint32_t m_defaultProfile{0};                //!< occupancy profile of the endpoint's VOQs

    Stats m_stats;                                                            //!< counters
    TracedCallback<uint32_t, uint64_t, uint32_t, uint32_t> m_pageTxTrace;     //!< page sent
    TracedCallback<uint32_t, uint64_t, uint32_t, uint32_t> m_pageCommitTrace; //!< page committed
    TracedCallback<Ptr<const FabricPacket>, const std::string&> m_dropTrace;  //!< drops
    TracedCallback<uint32_t, uint64_t> m_nackTrace;              //!< NACK received (sender)
    TracedCallback<uint32_t, uint64_t> m_jobFailedTrace;         //!< Job Failed (sender)
    TracedCallback<uint32_t, uint64_t> m_retryTrace;             //!< Tx job retried (sender)
    TracedCallback<uint32_t, uint64_t> m_rxJobFailedTrace;       //!< Rx Job Failed (receiver)
    TracedCallback<uint64_t, uint32_t, uint32_t> m_pageGenTrace; //!< page generated (10.7.3)
};

} // namespace ns3

#endif /* CELL_FABRIC_ADAPTER_H */
