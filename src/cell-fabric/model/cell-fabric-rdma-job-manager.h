/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CELL_FABRIC_RDMA_JOB_MANAGER_H
#define CELL_FABRIC_RDMA_JOB_MANAGER_H

#include "cell-fabric-adapter.h"
#include "cell-fabric-rdma-job-ids.h"
#include "cell-fabric-rx-pipeline.h"
#include "cell-fabric-tx-job.h"

#include "ns3/event-id.h"
#include "ns3/fabric-message.h"
#include "ns3/fabric-packet.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/type-id.h"

#include <bitset>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup cell-fabric
 * \brief The RDMA operation of a Pyxis chip's Tx and Rx Job Managers (Pyxis spec 10.3, 10.4,
 * 10.7.1.1-2, 10.8.1.1-2, 10.8.8): RDMA jobs at both ends of the fabric; a part of
 * CellFabricAdapter.
 *
 * - Posts (10.3, 11.4.6-7): the endpoint API's RDMA writes post both ends at once (RdmaJobPosting
 *   Automatic); the chip's software posts Tx and Rx jobs with 8-bit job ids and their 1-bit
 *   epochs per cluster (RdmaJobPosting Explicit, CellFabricRdmaJobIds, 10.4), refused with a
 *   reason when a field breaks a rule.
 * - Solicited write (10.3): an Rx job sends its CTS when it is posted; the Tx job generates no
 *   page before the CTS (which may come first and is then kept); after the last page commits
 *   the receiver sends the ACK, which completes the Tx job (10.3.1.1-2 messages).
 * - Rx page checks (10.8.8, 10.8.1.1): a page is checked against its Rx job, on arrival (job,
 *   epoch, a retry's first page) and at RxDMA (header CRC, sequence number, words); a job in
 *   error is NACKed at its last page and restarts for the retry.
 * - Timers, retry and Job Failed (10.3.1, 10.7.1.1-2, 10.8.1.1-2): a Tx job retries once on a
 *   NACK or an ACK-wait timeout; a second failure, a CTS-wait or Tx-active timeout is Job
 *   Failed; the Rx side resends its CTS once on a data-wait timeout and fails the job on a
 *   second one, a job-completion timeout or an error in the retry. A failed job of the chip's
 *   software calls the failure callback (the interrupt) and keeps its id until released (11.8).
 *
 * The Tx jobs are entries of the Tx pipeline's Tx Job Table (CellFabricTxJob); the Rx Job
 * Table (10.8.2) is here.
 */
class CellFabricRdmaJobManager
{
  public:
    /// The attributes of CellFabricAdapter that configure the RDMA jobs.
    struct Config
    {
        CellFabricAdapter::RdmaJobPosting posting{
            CellFabricAdapter::RX_POSTING_AUTOMATIC}; //!< who posts Rx jobs
        Time txCtsTimeout;                            //!< Tx CTS-wait timer [assumption]
        Time txActiveTimeout;                         //!< Tx-active timer [assumption]
        Time txAckTimeout;                            //!< Tx ACK-wait timer [assumption]
        Time rxDataTimeout;                           //!< Rx data-wait timer [assumption]
        Time rxCompletionTimeout;                     //!< Rx job-completion timer [assumption]
        uint64_t injectDropJob{UINT64_MAX};           //!< job (id at its source) to lose a page of
        uint32_t injectDropPage{0};                   //!< page of that job to lose
        CellFabricAdapter::InjectDropMode injectDropMode{
            CellFabricAdapter::INJECT_LOST}; //!< how an injected loss shows
        uint32_t injectDropAttempts{1};      //!< attempts on which the page is lost
    };

    /**
     * \param adapter the adapter this is a part of
     */
    explicit CellFabricRdmaJobManager(CellFabricAdapter& adapter);
    ~CellFabricRdmaJobManager();

    /**
     * \param tid the adapter's TypeId
     * \return it with the RDMA jobs' attributes
     */
    static TypeId AddAttributes(TypeId tid);

    /**
     * \param adapter an adapter
     * \return its RDMA job manager's configuration (for the attribute accessors)
     */
    static Config& GetConfigOf(const CellFabricAdapter& adapter);

    /// \return the configuration
    const Config& GetConfig() const
    {
        return m_config;
    }

    /// Size the job ids from the adapter's clusters, once.
    void Setup();

    /// Drop the Rx jobs, the early CTSs and the failure callback.
    void Dispose();

    /**
     * Post the jobs of an endpoint RDMA write (RdmaJobPosting Automatic): one Tx job per 2^16
     * words (11.4.6) to the same VOQ, and at the receiver the matching Rx jobs, which send their
     * CTSs (10.3). The caller has checked the message.
     * \param m the message record
     * \param dstCluster destination cluster
     * \param cls the job's class
     * \param pageSizeWords PageSizeWords of its pages
     */
    void PostWrite(const FabricMessage& m,
                   uint32_t dstCluster,
                   const CellFabricAdapter::JobClass& cls,
                   uint32_t pageSizeWords);

    /**
     * Post an Rx job of the chip's software (see CellFabricAdapter::PostRdmaRx).
     * \param d the descriptor
     * \param done called on completion (may be empty)
     * \param[out] error why it was refused (if not null)
     * \return false if refused
     */
    bool PostRx(const CellFabricAdapter::RdmaRxDescriptor& d,
                CellFabricAdapter::RdmaCallback done,
                std::string* error);

    /**
     * Post a Tx job of the chip's software (see CellFabricAdapter::PostRdmaTx).
     * \param d the descriptor
     * \param done called on completion (may be empty)
     * \param[out] error why it was refused (if not null)
     * \return false if refused
     */
    bool PostTx(const CellFabricAdapter::RdmaTxDescriptor& d,
                CellFabricAdapter::RdmaCallback done,
                std::string* error);

    /**
     * Refuse an RDMA post: count it, log it, give the reason.
     * \param error where the reason goes (may be null)
     * \param why the reason
     * \return false
     */
    bool Refuse(std::string* error, const std::string& why);

    /**
     * \param cb the Job Failed interrupt (see CellFabricAdapter::SetRdmaFailureCallback)
     */
    void SetFailureCallback(CellFabricAdapter::RdmaFailureCallback cb);

    /**
     * \param side Tx or Rx
     * \param cluster a cluster of this chip
     * \return its failed-job vector
     */
    std::bitset<256> GetFailed(CellFabricAdapter::RdmaSide side, uint32_t cluster) const;

    /**
     * \param side Tx or Rx
     * \param cluster a cluster of this chip
     * \return its active jobs of that side
     */
    uint32_t GetActive(CellFabricAdapter::RdmaSide side, uint32_t cluster) const;

    /**
     * Release the failed Tx and Rx jobs of a cluster (11.8 step 2).
     * \param cluster a cluster of this chip
     * \return the jobs released
     */
    uint32_t ReleaseFailed(uint32_t cluster);

    /**
     * An RDMA job got its VOQ's lock (10.7.1.1): CTS Wait until the CTS is seen (it may have
     * come first), then Tx Active, each with its timer.
     * \param job the job
     */
    void OnVoqLockTaken(CellFabricTxJob& job);

    /**
     * A page of an RDMA job left its FO pipe and the Tx pipeline: after the attempt's last page
     * the job waits for its ACK (ACK Wait, 10.7.1.1).
     * \param job the job
     * \param epoch the page's epoch and page bits
     */
    void OnPageTransmitted(CellFabricTxJob& job, uint8_t epoch);

    /**
     * A CTS arrived (10.3.1.1): the Tx job may generate pages; a CTS before its job is kept.
     * \param from the chip that sent it
     * \param id the job id it names
     */
    void OnCts(uint32_t from, uint64_t id);

    /**
     * An ACK arrived: the Tx job is complete.
     * \param id job id
     */
    void OnAck(uint64_t id);

    /**
     * A NACK arrived: retry the job once (its epoch flips), or fail it (Job Failed).
     * \param id job id
     */
    void OnNack(uint64_t id);

    /**
     * \param src source chip
     * \param job job id at the source
     * \param[out] pages the pages the Rx job expects (0 while an explicit Rx job has not learnt
     * them)
     * \return false if there is no such Rx job here
     */
    bool GetRxJobPages(uint32_t src, uint64_t job, uint32_t& pages) const;

    /**
     * An RDMA page is complete and in order (Data Reorder): the Rx job's checks before RxDMA.
     * Starts the Rx job's retry on the first page of a retry it did not NACK, and its
     * job-completion timer on its first data page (10.8.1.1); loses the page InjectDrop* names.
     * \param p the page's last unit
     * \param page its page sequence number
     * \param epoch its epoch bit
     * \param retryBit its Retry bit
     * \param[out] crcError set if the page reaches RxDMA with a header CRC error (injected)
     * \return the reason the page is dropped, or null if it goes on to RxDMA
     */
    const char* AdmitPage(const Ptr<FabricPacket>& p,
                          uint32_t page,
                          uint8_t epoch,
                          bool retryBit,
                          bool& crcError);

    /**
     * Validate an RDMA page against its Rx job when RxDMA takes it (10.8.8): header CRC, ids
     * and epoch, sequence, words. A page that fails is dropped (counted and traced here) and a
     * job in error is NACKed at its last page.
     * \param pg the page
     * \return true if it is to be written
     */
    bool ValidatePage(const CellFabricRxPipeline::RxDmaPage& pg);

    /**
     * An RDMA page's writes are committed (tracking ID returned): count its payload, finish
     * the job after its last page (ACK, delivery, completion).
     * \param src source chip
     * \param job job id at the source
     * \param page page sequence number
     * \param cells cells of the page
     * \param epoch its epoch bit
     */
    void OnPageCommitted(uint32_t src, uint64_t job, uint32_t page, uint32_t cells, uint8_t epoch);

  private:
    /// An Rx job (10.8.2, Table 10-2).
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

        bool api{false};                        //!< posted by PostRdmaRx (a callback)
        CellFabricAdapter::RdmaCompletion info; //!< PostRdmaRx: what its completion reports
        CellFabricAdapter::RdmaCallback done;   //!< PostRdmaRx: called after the ACK is sent
    };

    /**
     * \param d an Rx descriptor
     * \return why it is refused (mode, clusters, chip, TJID, NumWords), or empty
     */
    std::string CheckRxDescriptor(const CellFabricAdapter::RdmaRxDescriptor& d) const;
    /**
     * \param d a Tx descriptor
     * \return why it is refused (mode at both ends, clusters, chip, RJID, NumWords,
     * PageSizeWords, OQ, profile, links), or empty
     */
    std::string CheckTxDescriptor(const CellFabricAdapter::RdmaTxDescriptor& d) const;
    /**
     * Post an Rx job here and send its CTS (10.3, 10.8.1).
     * \param src source chip
     * \param job job id at the source
     * \param rx the job
     */
    void PostRxJob(uint32_t src, uint64_t job, const RxJob& rx);
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
     * A CTS for a PostRdmaTx job that is not (yet) posted here: kept for its post (10.3); a
     * "future" CTS when its TJID is active with a job of the other epoch (10.4).
     * \param from the chip that sent it
     * \param id the job id it names
     */
    void KeepEarlyCts(uint32_t from, uint64_t id);
    /**
     * Report an RDMA Job Failed of a PostRdmaTx or PostRdmaRx job to the failure callback.
     * \param side its side
     * \param info the job's completion record (ids, clusters)
     */
    void ReportFailure(CellFabricAdapter::RdmaSide side,
                       const CellFabricAdapter::RdmaCompletion& info);
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
     * Send a NACK for an Rx job in error and restart it for the retry (10.8.1.1); an error in
     * the retry is Rx Job Failed.
     * \param rx the job
     * \param page the page that triggered it
     */
    void SendNack(RxJob& rx, uint32_t page);
    /**
     * All pages of an Rx job are committed (10.3, 10.8.1.1): ACK, delivery after the message's
     * last job, the Rx completion of a PostRdmaRx job; the job retires.
     * \param it the job
     */
    void CompleteRxJob(std::map<std::pair<uint32_t, uint64_t>, RxJob>::iterator it);

    CellFabricAdapter& m_adapter;      //!< the adapter this is a part of
    CellFabricAdapter::Stats& m_stats; //!< the adapter's counters
    Config m_config;                   //!< configuration (attributes)

    std::map<std::pair<uint32_t, uint64_t>, RxJob> m_rxJobs; //!< Rx jobs by (src, job)
    CellFabricRdmaJobIds m_txIds;                            //!< TJIDs per cluster
    CellFabricRdmaJobIds m_rxIds;                            //!< RJIDs per cluster
    std::set<std::pair<uint32_t, uint64_t>> m_earlyCts;      //!< CTSs (from, job) before their job
    CellFabricAdapter::RdmaFailureCallback m_failure;        //!< the Job Failed interrupt
};

} // namespace ns3

#endif /* CELL_FABRIC_RDMA_JOB_MANAGER_H */
