/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pyxis-fabric-binding.h"

#include "pyxis-chip.h"

#include "ns3/boolean.h"
#include "ns3/cell-fabric-voq-table.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PyxisFabricBinding");
NS_OBJECT_ENSURE_REGISTERED(PyxisFabricBinding);

TypeId
PyxisFabricBinding::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PyxisFabricBinding")
            .SetParent<Object>()
            .SetGroupName("Pyxis")
            .AddConstructor<PyxisFabricBinding>()
            .AddAttribute("FlushOnJobFailed",
                          "On an RDMA Job Failed, run the trip flush of 11.8 (flush mode on "
                          "every cluster, failed jobs released).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&PyxisFabricBinding::m_flushOnFailure),
                          MakeBooleanChecker())
            .AddTraceSource("JobFailed",
                            "An RDMA job of a trip failed (chip, cluster, tx, jid, trip id).",
                            MakeTraceSourceAccessor(&PyxisFabricBinding::m_failedTrace),
                            "ns3::PyxisFabricBinding::JobFailedTracedCallback");
    return tid;
}

PyxisFabricBinding::PyxisFabricBinding()
{
    NS_LOG_FUNCTION(this);
}

PyxisFabricBinding::~PyxisFabricBinding()
{
    NS_LOG_FUNCTION(this);
}

void
PyxisFabricBinding::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_open.clear();
    m_chip = nullptr;
    m_adapter = nullptr;
    Object::DoDispose();
}

void
PyxisFabricBinding::Bind(Ptr<PyxisChip> chip, Ptr<CellFabricAdapter> adapter)
{
    NS_LOG_FUNCTION(this << chip << adapter);
    NS_ABORT_MSG_IF(!chip || !adapter, "PyxisFabricBinding: a chip and an adapter are needed");
    m_chip = chip;
    m_adapter = adapter;
    chip->Build();
    chip->SetRdmaJobHandler(MakeCallback(&PyxisFabricBinding::Handle, this));
    adapter->SetRdmaFailureCallback([this](const CellFabricAdapter::RdmaFailure& f) { Failed(f); });
}

uint32_t
PyxisFabricBinding::GetVoq(uint32_t chip, uint32_t cluster, uint32_t oq) const
{
    const uint32_t v = m_adapter->GetVoqTable().GetDefaultVoq(chip, cluster, oq);
    return v == CellFabricVoqTable::UNMAPPED ? UINT32_MAX : v;
}

void
PyxisFabricBinding::Handle(Ptr<PyxisRdmaEngine> engine, const PyxisTrip& trip)
{
    NS_LOG_FUNCTION(this << trip.tripId);
    const uint32_t cluster = engine->GetCluster();
    const uint32_t words = trip.bytes / 128;
    const bool tx = engine->IsTx();
    const uint32_t jid = tx ? trip.tjid : trip.rjid;
    std::string error;
    bool ok;
    auto done = [this, tx](const CellFabricAdapter::RdmaCompletion& c) { Completed(tx, c); };
    if (tx)
    {
        ok = m_adapter->PostRdmaTx(cluster,
                                   trip.tjid,
                                   trip.rjid,
                                   trip.voq,
                                   0,
                                   words,
                                   trip.pageSizeWords,
                                   done,
                                   &error);
    }
    else
    {
        CellFabricVoqTable::Target t;
        ok = m_adapter->GetVoqTable().Lookup(trip.voq, t, error) && m_adapter->PostRdmaRx(cluster,
                                                                                          t.chip,
                                                                                          trip.rjid,
                                                                                          trip.tjid,
                                                                                          trip.voq,
                                                                                          0,
                                                                                          words,
                                                                                          done,
                                                                                          &error);
    }
    NS_ABORT_MSG_UNLESS(ok,
                        "PyxisFabricBinding: chip " << m_chip->GetChipId() << " cluster " << cluster
                                                    << " RDMA " << (tx ? "Tx" : "Rx") << " trip "
                                                    << trip.tripId << ": " << error);
    m_open[std::make_tuple(tx, cluster, jid)] = Open{engine, trip.tripId, trip.bytes};
    (tx ? m_stats.txPosted : m_stats.rxPosted)++;
}

void
PyxisFabricBinding::Completed(bool tx, const CellFabricAdapter::RdmaCompletion& c)
{
    NS_LOG_FUNCTION(this << tx << c.cluster << c.jid);
    const auto it = m_open.find(std::make_tuple(tx, c.cluster, c.jid));
    NS_ABORT_MSG_IF(it == m_open.end(),
                    "PyxisFabricBinding: chip " << m_chip->GetChipId() << " cluster " << c.cluster
                                                << ": completion of " << (tx ? "TJID " : "RJID ")
                                                << c.jid << ", which no trip posted");
    const Open o = it->second;
    m_open.erase(it);
    (tx ? m_stats.txCompleted : m_stats.rxCompleted)++;
    (tx ? m_stats.txBytes : m_stats.rxBytes) += o.bytes;
    o.engine->CompleteJob(o.tripId);
}

void
PyxisFabricBinding::Failed(const CellFabricAdapter::RdmaFailure& f)
{
    NS_LOG_FUNCTION(this << f.cluster << f.jid);
    const bool tx = f.side == CellFabricAdapter::RDMA_TX;
    const auto it = m_open.find(std::make_tuple(tx, f.cluster, f.jid));
    if (it != m_open.end())
    {
        const Open o = it->second;
        m_open.erase(it);
        m_stats.failed++;
        m_failedTrace(m_chip->GetChipId(), f.cluster, tx, f.jid, o.tripId);
        NS_LOG_INFO("chip " << m_chip->GetChipId() << " cluster " << f.cluster << " "
                            << (tx ? "TJID " : "RJID ") << f.jid << " (trip " << o.tripId
                            << ") failed");
        o.engine->FailJob(o.tripId);
    }
    if (!m_flushOnFailure)
    {
        return;
    }
    // 11.8: step 1, flush mode (trips not past their wait are discarded); step 2, release the
    // failed jobs of every cluster
    if (!m_chip->IsFlushing())
    {
        m_stats.flushes++;
        m_chip->Flush();
    }
    for (uint32_t c = 0; c < m_chip->GetClusters(); ++c)
    {
        m_stats.released += m_adapter->ReleaseFailedRdmaJobs(c);
    }
}

} // namespace ns3
