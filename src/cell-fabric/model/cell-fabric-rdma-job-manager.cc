/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cell-fabric-rdma-job-manager.h"

#include "cell-fabric-cellifier.h"
#include "cell-fabric-config-accessor.h"
#include "cell-fabric-occupancy-limiter.h"
#include "cell-fabric-tx-pipeline.h"
#include "cell-fabric-voq-table.h"

#include "ns3/abort.h"
#include "ns3/enum.h"
#include "ns3/fabric-clock.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <memory>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CellFabricRdmaJobManager");

namespace
{

/**
 * \tparam V the attribute's value class
 * \tparam F the field's type
 * \param field a field of the RDMA job manager's Config
 * \return the accessor of the CellFabricAdapter attribute kept there
 */
template <typename V, typename F>
Ptr<const AttributeAccessor>
ConfigAccessor(F CellFabricRdmaJobManager::Config::*field)
{
    return MakeCellFabricConfigAccessor<V, CellFabricRdmaJobManager>(field);
}

} // namespace

TypeId
CellFabricRdmaJobManager::AddAttributes(TypeId tid)
{
    return tid
        .AddAttribute("RdmaJobPosting",
                      "Who posts a receiver's RDMA Rx jobs. Automatic: the sender's post "
                      "(the endpoint API, PostRdmaWrite, PostRdmaJob) posts it at the "
                      "receiver at once (the endpoint API has no receive posting). "
                      "Explicit: the chip's software posts Rx and Tx jobs with their 8-bit "
                      "job ids (PostRdmaRx, PostRdmaTx; 10.3-10.4); the endpoint API's RDMA "
                      "messages are refused (datagrams still go). Both ends of a job must "
                      "use the same mode.",
                      EnumValue(CellFabricAdapter::RX_POSTING_AUTOMATIC),
                      ConfigAccessor<EnumValue>(&Config::posting),
                      MakeEnumChecker(CellFabricAdapter::RX_POSTING_AUTOMATIC,
                                      "Automatic",
                                      CellFabricAdapter::RX_POSTING_EXPLICIT,
                                      "Explicit"))
        .AddAttribute("TxCtsTimeout",
                      "Tx CTS-wait timer (10.7.1.1): from the VOQ-Active lock to the CTS; "
                      "expiry: Job Failed. Generous: longer than two Rx data-wait timeouts "
                      "(the Rx side resends its CTS once). Not in the spec; 0: off.",
                      TimeValue(MilliSeconds(25)),
                      ConfigAccessor<TimeValue>(&Config::txCtsTimeout),
                      MakeTimeChecker(Time(0)))
        .AddAttribute("TxActiveTimeout",
                      "Tx-active timer (10.7.1.1): from the CTS (or the retry) until all "
                      "pages are transmitted; expiry: Job Failed (the VOQ makes no "
                      "progress). Not in the spec; 0: off.",
                      TimeValue(MilliSeconds(10)),
                      ConfigAccessor<TimeValue>(&Config::txActiveTimeout),
                      MakeTimeChecker(Time(0)))
        .AddAttribute("TxAckTimeout",
                      "Tx ACK-wait timer (10.7.1.1): from the last page transmitted to the "
                      "ACK or NACK; expiry: the job is retried once (a lost page or "
                      "message), then Job Failed. Not in the spec (default: well above the "
                      "time a full 24K-cell Rx CBUF takes to drain at one link); 0: off.",
                      TimeValue(MilliSeconds(1)),
                      ConfigAccessor<TimeValue>(&Config::txAckTimeout),
                      MakeTimeChecker(Time(0)))
        .AddAttribute("RxDataTimeout",
                      "Rx data-wait timer (10.8.1.1): from the CTS to the first data page; "
                      "expiry: the CTS is resent once (retry), a second expiry: Rx Job "
                      "Failed. Not in the spec; 0: off.",
                      TimeValue(MilliSeconds(10)),
                      ConfigAccessor<TimeValue>(&Config::rxDataTimeout),
                      MakeTimeChecker(Time(0)))
        .AddAttribute("RxCompletionTimeout",
                      "Rx job-completion timer (10.8.1.1): from the first data page to the "
                      "last commit; expiry: Rx Job Failed. Generous: longer than the Tx "
                      "side's ACK timeout plus its retry (Rx timers longer than Tx ones). "
                      "Not in the spec; 0: off.",
                      TimeValue(MilliSeconds(20)),
                      ConfigAccessor<TimeValue>(&Config::rxCompletionTimeout),
                      MakeTimeChecker(Time(0)))
        .AddAttribute("InjectDropJob",
                      "For tests: the job (its id at the source; any source) of which one "
                      "page is lost at this receiver; the maximum value means none.",
                      UintegerValue(UINT64_MAX),
                      ConfigAccessor<UintegerValue>(&Config::injectDropJob),
                      MakeUintegerChecker<uint64_t>())
        .AddAttribute("InjectDropPage",
                      "For tests: the page sequence number (in the job) that is lost.",
                      UintegerValue(0),
                      ConfigAccessor<UintegerValue>(&Config::injectDropPage),
                      MakeUintegerChecker<uint32_t>())
        .AddAttribute("InjectDropMode",
                      "For tests: how the lost page shows. Lost: lost in the fabric before "
                      "RxDMA (drop reason InjectedDrop); the next page of the job fails the "
                      "sequence check and the job is NACKed at its last page (10.8.8), or, "
                      "if the last page is lost, the job timers find it. HeaderCrc: the "
                      "page reaches RxDMA with a header CRC error and is dropped there "
                      "(10.8.8) without a trace in the job, so the job timers find the "
                      "loss.",
                      EnumValue(CellFabricAdapter::INJECT_LOST),
                      ConfigAccessor<EnumValue>(&Config::injectDropMode),
                      MakeEnumChecker(CellFabricAdapter::INJECT_LOST,
                                      "Lost",
                                      CellFabricAdapter::INJECT_HEADER_CRC,
                                      "HeaderCrc"))
        .AddAttribute("InjectDropAttempts",
                      "For tests: on how many attempts of the job the page is lost (1: the "
                      "retry succeeds; 2: the retry fails too, Job Failed).",
                      UintegerValue(1),
                      ConfigAccessor<UintegerValue>(&Config::injectDropAttempts),
                      MakeUintegerChecker<uint32_t>());
}

CellFabricRdmaJobManager::CellFabricRdmaJobManager(CellFabricAdapter& adapter)
    : m_adapter(adapter),
      m_stats(adapter.m_stats)
{
}

CellFabricRdmaJobManager::~CellFabricRdmaJobManager() = default;

CellFabricRdmaJobManager::Config&
CellFabricRdmaJobManager::GetConfigOf(const CellFabricAdapter& adapter)
{
    return adapter.m_jobs->m_config;
}

void
CellFabricRdmaJobManager::Setup()
{
    m_txIds.Configure(m_adapter.m_clusters);
    m_rxIds.Configure(m_adapter.m_clusters);
}

void
CellFabricRdmaJobManager::Dispose()
{
    m_rxJobs.clear();
    m_earlyCts.clear();
    m_failure = nullptr;
}

template <typename F>
void
CellFabricRdmaJobManager::Arm(EventId& ev, Time delay, F fn)
{
    if (ev.IsRunning())
    {
        Simulator::Remove(ev); // removed, not cancelled: an idle run ends when its work does
    }
    ev = delay.IsStrictlyPositive() ? Simulator::Schedule(delay, fn) : EventId();
}

void
CellFabricRdmaJobManager::PostWrite(const FabricMessage& m,
                                    uint32_t dstCluster,
                                    const CellFabricAdapter::JobClass& cls,
                                    uint32_t pageSizeWords)
{
    CellFabricTxPipeline& tx = *m_adapter.m_tx;
    const uint32_t self = m_adapter.GetAcceleratorId();
    auto msg = std::make_shared<CellFabricTxJob::Message>();
    msg->msg = m;
    // NumWords <= 2^16 per job (11.4.6): a larger message is several jobs to the same VOQ.
    const uint64_t words = std::max<uint64_t>(1, (m.bytes + 127) / 128);
    const uint64_t jobs =
        (words + CellFabricCellifier::MAX_JOB_WORDS - 1) / CellFabricCellifier::MAX_JOB_WORDS;
    msg->jobsLeft = jobs;
    const uint64_t voq = CellFabricTxPipeline::GetVoqKey(m.dst, dstCluster, cls.oq, cls.srcCluster);
    uint64_t bytesLeft = m.bytes;
    uint32_t queued = 0;
    for (uint64_t j = 0; j < jobs; ++j)
    {
        const uint32_t jobWords =
            static_cast<uint32_t>(std::min<uint64_t>(words - j * CellFabricCellifier::MAX_JOB_WORDS,
                                                     CellFabricCellifier::MAX_JOB_WORDS));
        CellFabricTxJob job;
        job.id = tx.TakeJobId();
        job.dst = m.dst;
        job.cluster = dstCluster;
        job.voq = voq;
        job.srcCluster = cls.srcCluster;
        job.high = cls.high;
        job.profile = cls.profile;
        job.pages = CellFabricCellifier::GetRdmaPages(jobWords, pageSizeWords);
        job.pageSizeWords = pageSizeWords;
        job.message = msg;
        // the endpoint API's ids stay below 2^31 (bit 31 marks the jobs of PostRdmaTx)
        NS_ABORT_MSG_IF(job.id >= CellFabricTxJob::API_JOB_BIT,
                        "CellFabricAdapter: job ids exhausted");
        RxJob rx;
        rx.pageBytes = static_cast<uint64_t>(pageSizeWords) * CellFabricCellifier::WORD_BYTES;
        rx.src = self;
        rx.job = job.id;
        rx.cluster = dstCluster;
        rx.pages = job.pages.size();
        rx.totalWords = jobWords;
        rx.bytes = std::min<uint64_t>(bytesLeft, static_cast<uint64_t>(jobWords) * 128);
        bytesLeft -= rx.bytes;
        rx.msg = m;
        rx.lastJob = (j + 1 == jobs);
        const uint64_t id = job.id;
        queued = tx.JoinVoq(voq, id);
        tx.AddJob(std::move(job));
        ++m_stats.jobsPosted;
        // The receiver's software posts the Rx job, which sends the CTS (10.3).
        m_adapter.GetPeer(m.dst).m_jobs->PostRxJob(self, id, rx);
    }
    if (queued == jobs)
    {
        tx.ActivateNext(voq); // the VOQ was free
    }
}

bool
CellFabricRdmaJobManager::Refuse(std::string* error, const std::string& why)
{
    ++m_stats.rdmaRefused;
    NS_LOG_WARN("acc" << m_adapter.GetAcceleratorId() << ": " << why);
    if (error)
    {
        *error = why;
    }
    return false;
}

std::string
CellFabricRdmaJobManager::CheckRxDescriptor(const CellFabricAdapter::RdmaRxDescriptor& d) const
{
    const uint32_t clusters = m_adapter.m_clusters;
    if (m_config.posting != CellFabricAdapter::RX_POSTING_EXPLICIT)
    {
        return "RdmaJobPosting is Automatic (set it to Explicit)";
    }
    if (d.cluster >= clusters)
    {
        return "cluster " + std::to_string(d.cluster) + " is not below " + std::to_string(clusters);
    }
    if (!m_adapter.HasPeer(d.srcChip) || d.srcChip == m_adapter.GetAcceleratorId())
    {
        return "srcChip " + std::to_string(d.srcChip) + " is not another chip of the fabric";
    }
    if (d.srcCluster >= clusters)
    {
        return "srcCluster " + std::to_string(d.srcCluster) + " is not below " +
               std::to_string(clusters);
    }
    if (d.tjid >= CellFabricRdmaJobIds::IDS)
    {
        return "TJID " + std::to_string(d.tjid) + " is not 8 bits (0 to 255, 10.4)";
    }
    if (d.numWords < 1 || d.numWords > CellFabricCellifier::MAX_JOB_WORDS)
    {
        return "NumWords " + std::to_string(d.numWords) + " is not in [1, 65536] (11.4.6)";
    }
    return "";
}

bool
CellFabricRdmaJobManager::PostRx(const CellFabricAdapter::RdmaRxDescriptor& d,
                                 CellFabricAdapter::RdmaCallback done,
                                 std::string* error)
{
    NS_LOG_FUNCTION(this << d.cluster << d.rjid << d.tjid << d.srcChip << d.srcCluster
                         << d.numWords);
    std::ostringstream why;
    why << "CellFabricAdapter acc" << m_adapter.GetAcceleratorId() << " PostRdmaRx (cluster "
        << d.cluster << ", RJID " << d.rjid << "): ";
    const std::string refusal = CheckRxDescriptor(d);
    if (!refusal.empty())
    {
        return Refuse(error, why.str() + refusal);
    }
    m_adapter.EnsureResources();
    uint8_t epoch = 0;
    std::string idError;
    if (!m_rxIds.Acquire(d.cluster, d.rjid, epoch, idError))
    {
        return Refuse(error, why.str() + "RJID: " + idError);
    }
    const uint64_t job =
        CellFabricAdapter::GetRdmaJobId(d.srcCluster, d.tjid, d.rjid, d.cluster, epoch);
    RxJob rx;
    rx.src = d.srcChip;
    rx.job = job;
    rx.cluster = d.cluster;
    rx.pages = 0; // learnt from the sender (the page headers' sizes and Last-page flag)
    rx.totalWords = d.numWords;
    rx.bytes = static_cast<uint64_t>(d.numWords) * CellFabricCellifier::WORD_BYTES;
    rx.lastJob = false;
    rx.api = true;
    rx.done = std::move(done);
    rx.info.side = CellFabricAdapter::RDMA_RX;
    rx.info.cluster = d.cluster;
    rx.info.jid = d.rjid;
    rx.info.peerJid = d.tjid;
    rx.info.peerChip = d.srcChip;
    rx.info.peerCluster = d.srcCluster;
    rx.info.epoch = epoch;
    rx.info.amemAddr = d.amemAddr;
    rx.info.numWords = d.numWords;
    rx.info.posted = FabricClock::Now();
    // the Rx job table entry is written and the CTS goes out (10.8.1: CTS Send)
    PostRxJob(d.srcChip, job, rx);
    return true;
}

std::string
CellFabricRdmaJobManager::CheckTxDescriptor(const CellFabricAdapter::RdmaTxDescriptor& d) const
{
    const uint32_t clusters = m_adapter.m_clusters;
    if (m_config.posting != CellFabricAdapter::RX_POSTING_EXPLICIT)
    {
        return "RdmaJobPosting is Automatic (set it to Explicit)";
    }
    if (d.srcCluster >= clusters)
    {
        return "srcCluster " + std::to_string(d.srcCluster) + " is not below " +
               std::to_string(clusters);
    }
    if (!m_adapter.HasPeer(d.dstChip) || d.dstChip == m_adapter.GetAcceleratorId())
    {
        return "dstChip " + std::to_string(d.dstChip) + " is not another chip of the fabric";
    }
    if (m_adapter.GetPeer(d.dstChip).m_jobs->m_config.posting !=
        CellFabricAdapter::RX_POSTING_EXPLICIT)
    {
        return "chip " + std::to_string(d.dstChip) +
               " has RdmaJobPosting Automatic (both ends must be Explicit)";
    }
    if (d.dstCluster >= clusters)
    {
        return "dstCluster " + std::to_string(d.dstCluster) + " is not below " +
               std::to_string(clusters);
    }
    if (d.rjid >= CellFabricRdmaJobIds::IDS)
    {
        return "RJID " + std::to_string(d.rjid) + " is not 8 bits (0 to 255, 10.4)";
    }
    if (d.numWords < 1 || d.numWords > CellFabricCellifier::MAX_JOB_WORDS)
    {
        return "NumWords " + std::to_string(d.numWords) + " is not in [1, 65536] (11.4.6)";
    }
    if (!CellFabricCellifier::IsLegalPageSizeWords(d.pageSizeWords))
    {
        return "PageSizeWords " + std::to_string(d.pageSizeWords) +
               " is not legal: (words x 128 + 16) mod 176 = 0 with words in [32, 127], "
               "{37, 48, 59, 70, 81, 92, 103, 114, 125} (10.7.2)";
    }
    if (d.oq >= CellFabricVoqTable::OQS_PER_VPFE)
    {
        return "OQ " + std::to_string(d.oq) + " is not below 4 (10.2)";
    }
    if (d.profile >= CellFabricOccupancyLimiter::PROFILES)
    {
        return "occupancy profile " + std::to_string(d.profile) + " is not below 8 (10.7.3.1)";
    }
    if (m_adapter.m_tx->GetNLinks() == 0)
    {
        return "no link ports";
    }
    return "";
}

bool
CellFabricRdmaJobManager::PostTx(const CellFabricAdapter::RdmaTxDescriptor& d,
                                 CellFabricAdapter::RdmaCallback done,
                                 std::string* error)
{
    NS_LOG_FUNCTION(this << d.srcCluster << d.tjid << d.rjid << d.dstChip << d.dstCluster
                         << d.numWords << d.pageSizeWords);
    std::ostringstream why;
    why << "CellFabricAdapter acc" << m_adapter.GetAcceleratorId() << " PostRdmaTx (cluster "
        << d.srcCluster << ", TJID " << d.tjid << "): ";
    const std::string refusal = CheckTxDescriptor(d);
    if (!refusal.empty())
    {
        return Refuse(error, why.str() + refusal);
    }
    m_adapter.EnsureResources();
    uint8_t epoch = 0;
    std::string idError;
    if (!m_txIds.Acquire(d.srcCluster, d.tjid, epoch, idError))
    {
        return Refuse(error, why.str() + "TJID: " + idError);
    }
    CellFabricTxPipeline& tx = *m_adapter.m_tx;
    CellFabricTxJob job;
    job.id = CellFabricAdapter::GetRdmaJobId(d.srcCluster, d.tjid, d.rjid, d.dstCluster, epoch);
    job.dst = d.dstChip;
    job.cluster = d.dstCluster;
    job.voq = CellFabricTxPipeline::GetVoqKey(d.dstChip, d.dstCluster, d.oq, d.srcCluster);
    job.srcCluster = d.srcCluster;
    job.high = d.high;
    job.profile = d.profile;
    job.pages = CellFabricCellifier::GetRdmaPages(d.numWords, d.pageSizeWords);
    job.pageSizeWords = d.pageSizeWords;
    job.api = true;
    job.done = std::move(done);
    job.info.side = CellFabricAdapter::RDMA_TX;
    job.info.cluster = d.srcCluster;
    job.info.jid = d.tjid;
    job.info.peerJid = d.rjid;
    job.info.peerChip = d.dstChip;
    job.info.peerCluster = d.dstCluster;
    job.info.epoch = epoch;
    job.info.amemAddr = d.amemAddr;
    job.info.numWords = d.numWords;
    job.info.posted = FabricClock::Now();
    const uint64_t id = job.id;
    const uint64_t voq = job.voq;
    const uint32_t pages = job.pages.size();
    // its CTS may have come first (a pre-posted Rx job, 10.3): no CTS wait then
    const auto early = m_earlyCts.find({d.dstChip, id});
    if (early != m_earlyCts.end())
    {
        m_earlyCts.erase(early);
        job.cts = true;
        m_adapter.GetPeer(d.dstChip).m_jobs->LearnRdmaPages(m_adapter.GetAcceleratorId(),
                                                            id,
                                                            d.pageSizeWords,
                                                            pages);
    }
    tx.AddJob(std::move(job));
    ++m_stats.jobsPosted;
    if (tx.JoinVoq(voq, id) == 1)
    {
        tx.ActivateNext(voq); // the VOQ was free
    }
    return true;
}

void
CellFabricRdmaJobManager::PostRxJob(uint32_t src, uint64_t job, const RxJob& rx)
{
    NS_LOG_FUNCTION(this << src << job);
    m_adapter.EnsureResources();
    RxJob& r = m_rxJobs[{src, job}];
    r = rx;
    r.counted.assign(rx.pages, false);
    m_adapter.m_tx->SendControl(src, CellFabricAdapter::CTS, job, 0, 0);
    // Rx Data Wait (10.8.1.1): no data within RxDataTimeout suggests a lost CTS
    Arm(r.timer, m_config.rxDataTimeout, [this, src, job]() { OnRxTimeout(src, job); });
}

void
CellFabricRdmaJobManager::LearnRdmaPages(uint32_t src,
                                         uint64_t job,
                                         uint32_t pageSizeWords,
                                         uint32_t pages)
{
    auto it = m_rxJobs.find({src, job});
    if (it == m_rxJobs.end() || it->second.pages != 0)
    {
        return;
    }
    it->second.pages = pages;
    it->second.pageBytes = static_cast<uint64_t>(pageSizeWords) * CellFabricCellifier::WORD_BYTES;
    it->second.counted.assign(pages, false);
}

bool
CellFabricRdmaJobManager::IsStaleRdmaJob(uint32_t src, uint64_t job) const
{
    return (job & CellFabricTxJob::API_JOB_BIT) && m_rxJobs.count({src, job ^ 1});
}

void
CellFabricRdmaJobManager::SetFailureCallback(CellFabricAdapter::RdmaFailureCallback cb)
{
    m_failure = std::move(cb);
}

std::bitset<256>
CellFabricRdmaJobManager::GetFailed(CellFabricAdapter::RdmaSide side, uint32_t cluster) const
{
    if (!m_adapter.m_resourcesReady)
    {
        return {};
    }
    return side == CellFabricAdapter::RDMA_TX ? m_txIds.GetFailed(cluster)
                                              : m_rxIds.GetFailed(cluster);
}

uint32_t
CellFabricRdmaJobManager::GetActive(CellFabricAdapter::RdmaSide side, uint32_t cluster) const
{
    if (!m_adapter.m_resourcesReady)
    {
        return 0;
    }
    return side == CellFabricAdapter::RDMA_TX ? m_txIds.GetActive(cluster)
                                              : m_rxIds.GetActive(cluster);
}

void
CellFabricRdmaJobManager::ReportFailure(CellFabricAdapter::RdmaSide side,
                                        const CellFabricAdapter::RdmaCompletion& info)
{
    CellFabricRdmaJobIds& ids = side == CellFabricAdapter::RDMA_TX ? m_txIds : m_rxIds;
    ids.Fail(info.cluster, info.jid);
    CellFabricAdapter::RdmaFailure f;
    f.side = side;
    f.cluster = info.cluster;
    f.jid = info.jid;
    f.peerChip = info.peerChip;
    f.epoch = info.epoch;
    f.failed = ids.GetFailed(info.cluster);
    // The interrupt is raised after the event that failed the job (same time): software may
    // release the failed jobs in it, which drops the records the caller still holds.
    Simulator::ScheduleNow([this, f]() {
        if (m_failure)
        {
            m_failure(f);
        }
    });
}

uint32_t
CellFabricRdmaJobManager::ReleaseFailed(uint32_t cluster)
{
    NS_LOG_FUNCTION(this << cluster);
    if (!m_adapter.m_resourcesReady || cluster >= m_adapter.m_clusters)
    {
        return 0;
    }
    const std::vector<uint32_t> tx = m_txIds.ReleaseFailed(cluster);
    const std::vector<uint32_t> rx = m_rxIds.ReleaseFailed(cluster);
    // their records go: later grants and pages of them find no job (UnknownJob)
    m_adapter.m_tx->EraseFailedApiJobs(cluster);
    for (auto it = m_rxJobs.begin(); it != m_rxJobs.end();)
    {
        const bool release = it->second.api && it->second.failed && it->second.cluster == cluster;
        it = release ? m_rxJobs.erase(it) : std::next(it);
    }
    return tx.size() + rx.size();
}

void
CellFabricRdmaJobManager::OnVoqLockTaken(CellFabricTxJob& job)
{
    // CTS Wait until the CTS is seen (it may have come first), then Tx Active (10.7.1.1)
    const uint64_t id = job.id;
    job.state = job.cts ? CellFabricTxJob::ACTIVE : CellFabricTxJob::CTS_WAIT;
    Arm(job.timer, job.cts ? m_config.txActiveTimeout : m_config.txCtsTimeout, [this, id]() {
        OnTxTimeout(id);
    });
}

void
CellFabricRdmaJobManager::OnPageTransmitted(CellFabricTxJob& job, uint8_t epoch)
{
    // all pages of the attempt transmitted: ACK Wait (10.7.1.1)
    if (job.state == CellFabricTxJob::ACTIVE && (epoch & 1) == job.epoch &&
        ++job.sent == job.pages.size())
    {
        const uint64_t id = job.id;
        job.state = CellFabricTxJob::ACK_WAIT;
        Arm(job.timer, m_config.txAckTimeout, [this, id]() { OnTxTimeout(id); });
    }
}

void
CellFabricRdmaJobManager::OnCts(uint32_t from, uint64_t id)
{
    CellFabricTxJob* job = m_adapter.m_tx->FindJob(id);
    if ((id & CellFabricTxJob::API_JOB_BIT) && job && job->dst != from)
    {
        job = nullptr; // the same ids from another chip: not this job's CTS
    }
    if (!job && (id & CellFabricTxJob::API_JOB_BIT))
    {
        KeepEarlyCts(from, id);
        return;
    }
    if (!job || job->cts)
    {
        return; // a resent CTS (10.3.1.1) for a job that had it, or that is done
    }
    job->cts = true;
    if (job->api)
    {
        m_adapter.GetPeer(job->dst).m_jobs->LearnRdmaPages(m_adapter.GetAcceleratorId(),
                                                           job->id,
                                                           job->pageSizeWords,
                                                           job->pages.size());
    }
    if (job->state == CellFabricTxJob::CTS_WAIT)
    {
        job->state = CellFabricTxJob::ACTIVE;
        Arm(job->timer, m_config.txActiveTimeout, [this, id]() { OnTxTimeout(id); });
    }
    m_adapter.m_tx->Generate();
}

void
CellFabricRdmaJobManager::KeepEarlyCts(uint32_t from, uint64_t id)
{
    // A CTS before its Tx job (a pre-posted Rx job, 10.3): kept for the job's post. With the
    // TJID active on a job of the other epoch, it is for the next invocation: a "future" CTS
    // (10.4).
    m_adapter.EnsureResources();
    const uint32_t cluster = static_cast<uint32_t>((id >> 17) & 7);
    const uint32_t tjid = static_cast<uint32_t>((id >> 1) & 0xFF);
    ++m_stats.ctsEarly;
    if (m_txIds.GetState(cluster, tjid) != CellFabricRdmaJobIds::FREE)
    {
        ++m_stats.futureCts;
    }
    m_earlyCts.insert({from, id});
}

void
CellFabricRdmaJobManager::OnAck(uint64_t id)
{
    NS_LOG_FUNCTION(this << id);
    CellFabricTxPipeline& tx = *m_adapter.m_tx;
    CellFabricTxJob* job = tx.FindJob(id);
    NS_ASSERT_MSG(job, "ACK for an unknown Tx job");
    if (job->failed)
    {
        return; // Job Failed is sticky (10.7.1.2)
    }
    Arm(job->timer, Time(0), []() {});
    std::shared_ptr<CellFabricTxJob::Message> msg = job->message;
    const uint64_t voq = job->voq;
    const bool retried = job->retried;
    const bool api = job->api;
    CellFabricAdapter::RdmaCompletion info = job->info;
    CellFabricAdapter::RdmaCallback done = std::move(job->done);
    tx.EraseJob(id);
    // an ACK for a job in its retry (its ACK-wait timer expired before the ACK came): the retry
    // ends here; its requests still out are granted and dropped at the receiver
    if (retried && !tx.ReleaseVoqLock(id, voq))
    {
        tx.LeaveVoq(voq, id);
    }
    ++m_stats.jobsCompleted;
    if (api)
    {
        // the Tx job retires (its TJID free); the sender's barriers are notified (10.3)
        m_txIds.Retire(info.cluster, info.jid);
        m_earlyCts.erase({info.peerChip, id}); // a resent CTS of this job
        info.retried = retried;
        info.completed = FabricClock::Now();
        if (done)
        {
            done(info);
        }
        return;
    }
    if (--msg->jobsLeft == 0)
    {
        FabricMessage m = msg->msg;
        m.completed = FabricClock::Now();
        m_adapter.NotifyCompleted(m);
    }
}

void
CellFabricRdmaJobManager::OnNack(uint64_t id)
{
    NS_LOG_FUNCTION(this << id);
    CellFabricTxJob* job = m_adapter.m_tx->FindJob(id);
    NS_ASSERT_MSG(job, "NACK for an unknown Tx job");
    if (job->failed)
    {
        return;
    }
    m_adapter.m_nackTrace(job->dst, id);
    RetryOrFail(id);
}

void
CellFabricRdmaJobManager::RetryOrFail(uint64_t id)
{
    NS_LOG_FUNCTION(this << id);
    CellFabricTxPipeline& tx = *m_adapter.m_tx;
    CellFabricTxJob& job = tx.GetJob(id);
    if (job.retried)
    {
        // a second failure: Job Failed; the message is never delivered nor completed
        FailTxJob(id);
        return;
    }
    // The job's 1-bit epoch flips: grants of requests made before arrive with the old epoch
    // and their pages are dropped as stale at the receiver.
    job.epoch ^= 1;
    // one retry of the whole job (the receiver's Rx job stays posted: no new CTS)
    job.retried = true;
    job.sent = 0;
    ++m_stats.jobsRetried;
    m_adapter.m_retryTrace(job.dst, id);
    job.nextRequest = 0;
    if (!tx.IsActive(id))
    {
        job.state = CellFabricTxJob::QUEUED;
        Arm(job.timer, Time(0), []() {});
        if (tx.JoinVoq(job.voq, id) == 1)
        {
            tx.ActivateNext(job.voq);
        }
        return;
    }
    job.state = CellFabricTxJob::ACTIVE;
    Arm(job.timer, m_config.txActiveTimeout, [this, id]() { OnTxTimeout(id); });
    tx.Generate();
}

void
CellFabricRdmaJobManager::FailTxJob(uint64_t id)
{
    NS_LOG_FUNCTION(this << id);
    CellFabricTxJob& job = m_adapter.m_tx->GetJob(id);
    job.failed = true;
    job.state = CellFabricTxJob::DONE;
    job.epoch ^= 1; // pages of grants still to come are stale at the receiver
    Arm(job.timer, Time(0), []() {});
    ++m_stats.jobsFailed;
    m_adapter.m_jobFailedTrace(job.dst, id);
    if (job.api)
    {
        job.done = nullptr; // no completion: Job Failed is sticky
        ReportFailure(CellFabricAdapter::RDMA_TX, job.info);
    }
    m_adapter.m_tx->ReleaseVoqLock(id, job.voq);
}

void
CellFabricRdmaJobManager::OnTxTimeout(uint64_t id)
{
    NS_LOG_FUNCTION(this << id);
    const CellFabricTxJob& job = m_adapter.m_tx->GetJob(id);
    switch (job.state)
    {
    case CellFabricTxJob::ACK_WAIT:
        // no ACK nor NACK (a lost page, or a lost message): retry once (10.3.1, 10.7.1.1)
        ++m_stats.ackTimeouts;
        RetryOrFail(id);
        break;
    case CellFabricTxJob::CTS_WAIT:
    case CellFabricTxJob::ACTIVE:
        // CTS-wait or Tx-active timeout: Job Failed (10.7.1.2)
        FailTxJob(id);
        break;
    default:
        NS_ABORT_MSG("CellFabricAdapter: timer of Tx job " << id << " in state " << job.state);
    }
}

void
CellFabricRdmaJobManager::OnRxTimeout(uint32_t src, uint64_t job)
{
    NS_LOG_FUNCTION(this << src << job);
    RxJob& rx = m_rxJobs.at({src, job});
    if (!rx.dataSeen && !rx.ctsResent)
    {
        // Rx Data Wait timeout: the CTS may be lost; resend it once, with Retry (10.8.1.1)
        rx.ctsResent = true;
        ++m_stats.ctsResent;
        m_adapter.m_tx->SendControl(src, CellFabricAdapter::CTS, job, 1, 0);
        Arm(rx.timer, m_config.rxDataTimeout, [this, src, job]() { OnRxTimeout(src, job); });
        return;
    }
    // a second data-wait timeout, or the job-completion timeout (10.8.1.1-2)
    FailRxJob(rx);
}

void
CellFabricRdmaJobManager::FailRxJob(RxJob& rx)
{
    NS_LOG_FUNCTION(this << rx.src << rx.job);
    rx.failed = true;
    Arm(rx.timer, Time(0), []() {});
    ++m_stats.rxJobsFailed;
    m_adapter.m_rxJobFailedTrace(rx.src, rx.job);
    if (rx.api)
    {
        rx.done = nullptr; // no completion: Rx Job Failed is sticky
        ReportFailure(CellFabricAdapter::RDMA_RX, rx.info);
    }
}

bool
CellFabricRdmaJobManager::GetRxJobPages(uint32_t src, uint64_t job, uint32_t& pages) const
{
    auto it = m_rxJobs.find({src, job});
    if (it == m_rxJobs.end())
    {
        return false;
    }
    pages = it->second.pages;
    return true;
}

const char*
CellFabricRdmaJobManager::AdmitPage(const Ptr<FabricPacket>& p,
                                    uint32_t page,
                                    uint8_t epoch,
                                    bool retryBit,
                                    bool& crcError)
{
    auto jt = m_rxJobs.find({p->src, p->msgId});
    if (jt == m_rxJobs.end())
    {
        // a page of a job retired here (e.g. a retry's page after the first attempt's ACK);
        // if its RJID holds a job of the other epoch, the page is stale (10.4, 10.8.8)
        return IsStaleRdmaJob(p->src, p->msgId) ? CellFabricAdapter::STALE_EPOCH
                                                : CellFabricAdapter::UNKNOWN_JOB;
    }
    RxJob& rx = jt->second;
    if (rx.failed)
    {
        return CellFabricAdapter::RX_JOB_FAILED; // Rx Job Failed: its pages are dropped
    }
    if (epoch != rx.epoch && retryBit && !rx.retry)
    {
        // The first page of a retry the sender started on its ACK-wait timeout (no NACK from
        // here): the Rx job restarts (10.8.1.1: sequence and offset reset, retry state).
        NS_LOG_LOGIC("retry of job " << p->msgId << " from " << p->src << " begins");
        rx.retry = true;
        rx.epoch = epoch;
        rx.committed = 0;
        rx.nextSeq = 0;
        rx.words = 0;
        rx.error = false;
    }
    if (epoch != rx.epoch)
    {
        return CellFabricAdapter::STALE_EPOCH; // sent before a NACK
    }
    const bool injected = p->msgId == m_config.injectDropJob && page == m_config.injectDropPage &&
                          rx.losses < m_config.injectDropAttempts;
    if (injected && m_config.injectDropMode == CellFabricAdapter::INJECT_LOST)
    {
        // Lost in the fabric (for tests): it never reaches RxDMA; the sequence check of the
        // next page finds the gap (10.8.8)
        ++rx.losses;
        return CellFabricAdapter::INJECTED_DROP;
    }
    if (!rx.dataSeen && !injected)
    {
        // Rx Data Active (10.8.1.1): the job-completion timer runs from the first data page
        rx.dataSeen = true;
        const uint32_t src = p->src;
        const uint64_t job = p->msgId;
        Arm(rx.timer, m_config.rxCompletionTimeout, [this, src, job]() { OnRxTimeout(src, job); });
    }
    if (injected)
    {
        ++rx.losses;
        crcError = true; // InjectDropMode HeaderCrc
    }
    return nullptr;
}

bool
CellFabricRdmaJobManager::ValidatePage(const CellFabricRxPipeline::RxDmaPage& pg)
{
    NS_LOG_FUNCTION(this << pg.src << pg.job << pg.page);
    // Integrity checks of an RDMA page (10.8.8), before its write.
    if (pg.crcError)
    {
        // header CRC error: its fields cannot be used; dropped, nothing recorded in the job
        m_adapter.Drop(pg.unit, CellFabricAdapter::HEADER_CRC);
        return false;
    }
    auto it = m_rxJobs.find({pg.src, pg.job});
    if (it == m_rxJobs.end())
    {
        m_adapter.Drop(pg.unit,
                       IsStaleRdmaJob(pg.src, pg.job) ? CellFabricAdapter::STALE_EPOCH
                                                      : CellFabricAdapter::UNKNOWN_JOB);
        return false;
    }
    RxJob& rx = it->second;
    if (rx.failed)
    {
        m_adapter.Drop(pg.unit, CellFabricAdapter::RX_JOB_FAILED);
        return false;
    }
    if (pg.epoch != rx.epoch)
    {
        // ids or epoch do not match: a stale page, dropped silently
        m_adapter.Drop(pg.unit, CellFabricAdapter::STALE_EPOCH);
        return false;
    }
    const bool last = pg.page + 1 == rx.pages; // the header's Last-page flag
    const uint64_t words =
        (pg.bytes + CellFabricCellifier::WORD_BYTES - 1) / CellFabricCellifier::WORD_BYTES;
    const char* error = nullptr;
    if (pg.page != rx.nextSeq)
    {
        error = CellFabricAdapter::SEQUENCE_ERROR; // a lost page before it: NACK at the end
    }
    else if (rx.words + words > rx.totalWords)
    {
        error = CellFabricAdapter::OVERRUN; // corruption: dropped, error, NACK
    }
    else if (last && rx.words + words < rx.totalWords)
    {
        error = CellFabricAdapter::SHORT_TOTAL; // a lost page: error, NACK
    }
    if (!error)
    {
        ++rx.nextSeq;
        rx.words += words;
        return true;
    }
    m_adapter.Drop(pg.unit, error);
    rx.error = true;
    if (last || error == CellFabricAdapter::OVERRUN)
    {
        SendNack(rx, pg.page);
    }
    return false;
}

void
CellFabricRdmaJobManager::SendNack(RxJob& rx, uint32_t page)
{
    NS_LOG_FUNCTION(this << rx.src << rx.job << page);
    // NACK at the end of the job in error; the job restarts for the retry (sequence and
    // words reset, retry state, 10.8.1.1) and its epoch flips, so that pages of the failed
    // attempt still in flight are stale. An error in the retry: Rx Job Failed, after its NACK
    // (the sender fails the job on it).
    ++rx.nacks;
    ++m_stats.nacksSent;
    rx.epoch ^= 1;
    rx.committed = 0;
    rx.nextSeq = 0;
    rx.words = 0;
    rx.error = false;
    m_adapter.m_tx->SendControl(rx.src, CellFabricAdapter::NACK, rx.job, page, 0);
    if (rx.retry)
    {
        FailRxJob(rx);
    }
    rx.retry = true;
}

void
CellFabricRdmaJobManager::OnPageCommitted(uint32_t src,
                                          uint64_t job,
                                          uint32_t page,
                                          uint32_t cells,
                                          uint8_t epoch)
{
    NS_LOG_FUNCTION(this << src << job << page);
    auto it = m_rxJobs.find({src, job});
    if (it == m_rxJobs.end())
    {
        return;
    }
    RxJob& rx = it->second;
    // payload of this page: the job's bytes cut into PageSizeWords pages
    const uint64_t pageBytes = rx.pageBytes;
    const uint64_t before = static_cast<uint64_t>(page) * pageBytes;
    const uint64_t payload =
        rx.bytes > before ? std::min<uint64_t>(pageBytes, rx.bytes - before) : 0;
    if (page >= rx.counted.size())
    {
        rx.counted.resize(page + 1, false); // an explicit Rx job that has not learnt its pages
    }
    if (!rx.counted[page])
    {
        rx.counted[page] = true; // a retried page's payload is delivered once
        m_adapter.CountReceivedPayload(payload);
    }
    ++m_stats.pagesCommitted;
    m_adapter.m_pageCommitTrace(src, job, page, cells);
    if (epoch != rx.epoch || rx.failed)
    {
        return; // written for an attempt NACKed (or failed) since
    }
    ++rx.committed;
    if (rx.committed == rx.pages)
    {
        CompleteRxJob(it);
    }
}

void
CellFabricRdmaJobManager::CompleteRxJob(std::map<std::pair<uint32_t, uint64_t>, RxJob>::iterator it)
{
    RxJob& rx = it->second;
    const uint32_t src = it->first.first;
    const uint64_t job = it->first.second;
    // all pages committed: ACK, and the message is delivered here after its last job
    Arm(rx.timer, Time(0), []() {});
    m_adapter.m_tx->SendControl(src, CellFabricAdapter::ACK, job, 0, 0);
    if (rx.lastJob)
    {
        FabricMessage m = rx.msg;
        m.delivered = FabricClock::Now();
        m_adapter.NotifyDelivered(m);
    }
    // the attempt's Data Reorder context is done (the other epoch's may still get pages)
    m_adapter.m_rx->EndReorder(src, job, rx.epoch);
    if (rx.api)
    {
        // Rx completion (10.3): the RJID retires, the receiver's barriers are notified
        CellFabricAdapter::RdmaCompletion info = rx.info;
        info.retried = rx.retry;
        info.completed = FabricClock::Now();
        CellFabricAdapter::RdmaCallback done = std::move(rx.done);
        m_rxJobs.erase(it);
        m_rxIds.Retire(info.cluster, info.jid);
        if (done)
        {
            done(info);
        }
        return;
    }
    m_rxJobs.erase(it);
}

} // namespace ns3
