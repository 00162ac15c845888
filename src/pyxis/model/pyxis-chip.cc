/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pyxis-chip.h"

#include "pyxis-barrier-config-engine.h"
#include "pyxis-barrier-table.h"
#include "pyxis-core-switch.h"
#include "pyxis-hbm-bus.h"
#include "pyxis-hbm-dma-engine.h"
#include "pyxis-icdma-engine.h"
#include "pyxis-mpe-engine.h"
#include "pyxis-queue-map.h"
#include "pyxis-trip-manager.h"
#include "pyxis-uie-engine.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PyxisChip");
NS_OBJECT_ENSURE_REGISTERED(PyxisChip);

TypeId
PyxisChip::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PyxisChip")
            .SetParent<Object>()
            .SetGroupName("Pyxis")
            .AddConstructor<PyxisChip>()
            .AddAttribute("ChipId",
                          "Chip id (traces, messages).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&PyxisChip::m_chipId),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Clusters",
                          "Clusters per chip (Pyxis spec 1: 4; global barrier ids have 2 cluster "
                          "bits, 11.6.4).",
                          UintegerValue(4),
                          MakeUintegerAccessor(&PyxisChip::m_clusters),
                          MakeUintegerChecker<uint32_t>(2, 4))
            .AddAttribute("UiesPerCluster",
                          "UIEs per cluster (Pyxis spec 5.1: 12; queues 0x0-0xB).",
                          UintegerValue(12),
                          MakeUintegerAccessor(&PyxisChip::m_uies),
                          MakeUintegerChecker<uint32_t>(1, PyxisQueueMap::UIES))
            .AddAttribute("ClockGhz",
                          "UIE and AMEM clock in GHz (Pyxis spec 1: 1.33 GHz).",
                          DoubleValue(1.33),
                          MakeDoubleAccessor(&PyxisChip::m_clockGhz),
                          MakeDoubleChecker<double>(0.01))
            .AddTraceSource("TripStart",
                            "A trip of any engine of the chip started (chip, cluster, queue, "
                            "trip id, start).",
                            MakeTraceSourceAccessor(&PyxisChip::m_tripStartTrace),
                            "ns3::PyxisEngine::TripStartTracedCallback")
            .AddTraceSource("TripEnd",
                            "A trip of any engine of the chip ended (chip, cluster, queue, trip "
                            "id, start, end).",
                            MakeTraceSourceAccessor(&PyxisChip::m_tripEndTrace),
                            "ns3::PyxisEngine::TripEndTracedCallback")
            .AddTraceSource("FlushDone",
                            "A trip flush ended: every cluster drained, barrier tables cleared.",
                            MakeTraceSourceAccessor(&PyxisChip::m_flushDoneTrace),
                            "ns3::PyxisChip::FlushDoneTracedCallback");
    return tid;
}

PyxisChip::PyxisChip()
{
    NS_LOG_FUNCTION(this);
}

PyxisChip::~PyxisChip()
{
    NS_LOG_FUNCTION(this);
}

void
PyxisChip::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (Cluster& c : m_cluster)
    {
        for (Ptr<PyxisEngine>& e : c.engines)
        {
            e->Dispose();
        }
        c.tripManager->Dispose();
        c.barriers->Dispose();
        c.hbm->Dispose();
    }
    m_cluster.clear();
    if (m_switch)
    {
        m_switch->Dispose();
        m_switch = nullptr;
    }
    Object::DoDispose();
}

Time
PyxisChip::Cycles(double cycles) const
{
    return PicoSeconds(static_cast<int64_t>(std::llround(cycles * 1000.0 / m_clockGhz)));
}

void
PyxisChip::Build()
{
    if (m_built)
    {
        return;
    }
    NS_LOG_FUNCTION(this);
    m_built = true;
    m_switch = CreateObject<PyxisCoreSwitch>();
    m_switch->SetAttribute("Clusters", UintegerValue(m_clusters));
    m_switch->SetClockGhz(m_clockGhz);
    std::vector<Ptr<PyxisBarrierTable>> tables;
    m_cluster.resize(m_clusters);
    for (uint32_t c = 0; c < m_clusters; ++c)
    {
        Cluster& cl = m_cluster[c];
        cl.barriers = CreateObject<PyxisBarrierTable>();
        cl.barriers->SetAttribute("Chip", UintegerValue(m_chipId));
        cl.barriers->SetAttribute("Cluster", UintegerValue(c));
        tables.push_back(cl.barriers);
        cl.tripManager = CreateObject<PyxisTripManager>();
        cl.tripManager->SetAttribute("Chip", UintegerValue(m_chipId));
        cl.tripManager->SetAttribute("Cluster", UintegerValue(c));
        cl.tripManager->SetDrainedCallback(MakeCallback(&PyxisChip::ClusterDrained, this));
        cl.hbm = CreateObject<PyxisHbmBus>();
    }
    for (uint32_t c = 0; c < m_clusters; ++c)
    {
        Cluster& cl = m_cluster[c];
        cl.tripManager->SetBarrierTables(tables);
        for (uint32_t i = 0; i < m_uies; ++i)
        {
            AddEngine(c, PyxisQueueMap::Uie(i), CreateObject<PyxisUieEngine>());
        }
        for (uint32_t i = 0; i < PyxisQueueMap::RDMA_TX; ++i)
        {
            AddEngine(c, PyxisQueueMap::RdmaTx(i), CreateObject<PyxisRdmaEngine>());
        }
        for (uint32_t i = 0; i < PyxisQueueMap::RDMA_RX; ++i)
        {
            AddEngine(c, PyxisQueueMap::RdmaRx(i), CreateObject<PyxisRdmaEngine>());
        }
        for (const bool h2a : {true, false})
        {
            Ptr<PyxisHbmDmaEngine> e = CreateObject<PyxisHbmDmaEngine>();
            e->SetAttribute("HbmToAmem", BooleanValue(h2a));
            e->SetHbmBus(cl.hbm);
            AddEngine(c, h2a ? PyxisQueueMap::H2A : PyxisQueueMap::A2H, e);
        }
        for (uint32_t d = 0; d < m_clusters; ++d)
        {
            if (d == c)
            {
                continue;
            }
            Ptr<PyxisIcdmaEngine> e = CreateObject<PyxisIcdmaEngine>();
            e->SetCoreSwitch(m_switch, d);
            AddEngine(c, PyxisQueueMap::Icdma(c, d), e);
        }
        for (uint32_t i = 0; i < PyxisQueueMap::MPES; ++i)
        {
            AddEngine(c, PyxisQueueMap::Mpe(i), CreateObject<PyxisMpeEngine>());
        }
        Ptr<PyxisBarrierConfigEngine> bc = CreateObject<PyxisBarrierConfigEngine>();
        bc->SetBarrierTable(cl.barriers);
        AddEngine(c, PyxisQueueMap::BARRIER_CONFIG, bc);
    }
}

void
PyxisChip::AddEngine(uint32_t c, uint32_t queue, Ptr<PyxisEngine> engine)
{
    engine->SetIdentity(m_chipId, c, queue, m_clockGhz);
    engine->TraceConnectWithoutContext("TripStart",
                                       MakeCallback(&PyxisChip::ForwardTripStart, this));
    engine->TraceConnectWithoutContext("TripEnd", MakeCallback(&PyxisChip::ForwardTripEnd, this));
    m_cluster[c].tripManager->AddEngine(queue, engine);
    m_cluster[c].engines.push_back(engine);
}

void
PyxisChip::ForwardTripStart(uint32_t chip, uint32_t cluster, uint32_t queue, uint32_t id, Time s)
{
    m_tripStartTrace(chip, cluster, queue, id, s);
}

void
PyxisChip::ForwardTripEnd(uint32_t chip,
                          uint32_t cluster,
                          uint32_t queue,
                          uint32_t id,
                          Time s,
                          Time e)
{
    m_tripEndTrace(chip, cluster, queue, id, s, e);
}

PyxisChip::Cluster&
PyxisChip::GetCluster(uint32_t cluster)
{
    Build();
    NS_ABORT_MSG_IF(cluster >= m_clusters,
                    "PyxisChip: chip " << m_chipId << " has no cluster " << cluster << " ("
                                       << m_clusters << " clusters)");
    return m_cluster[cluster];
}

Ptr<PyxisTripManager>
PyxisChip::GetTripManager(uint32_t cluster)
{
    return GetCluster(cluster).tripManager;
}

Ptr<PyxisBarrierTable>
PyxisChip::GetBarrierTable(uint32_t cluster)
{
    return GetCluster(cluster).barriers;
}

Ptr<PyxisCoreSwitch>
PyxisChip::GetCoreSwitch()
{
    Build();
    return m_switch;
}

Ptr<PyxisEngine>
PyxisChip::GetEngine(uint32_t cluster, uint32_t queue)
{
    Ptr<PyxisEngine> e = GetCluster(cluster).tripManager->GetEngine(queue);
    NS_ABORT_MSG_IF(!e,
                    "PyxisChip: chip " << m_chipId << " cluster " << cluster << " has no engine "
                                       << "for queue 0x" << std::hex << queue);
    return e;
}

Ptr<PyxisRdmaEngine>
PyxisChip::GetRdmaEngine(uint32_t cluster, uint32_t queue)
{
    Ptr<PyxisRdmaEngine> e = DynamicCast<PyxisRdmaEngine>(GetEngine(cluster, queue));
    NS_ABORT_MSG_IF(!e, "PyxisChip: queue 0x" << std::hex << queue << " is not an RDMA queue");
    return e;
}

void
PyxisChip::SetRdmaJobHandler(PyxisRdmaEngine::JobHandler handler)
{
    for (uint32_t c = 0; c < GetClusters(); ++c)
    {
        for (uint32_t i = 0; i < PyxisQueueMap::RDMA_TX; ++i)
        {
            GetRdmaEngine(c, PyxisQueueMap::RdmaTx(i))->SetJobHandler(handler);
        }
        for (uint32_t i = 0; i < PyxisQueueMap::RDMA_RX; ++i)
        {
            GetRdmaEngine(c, PyxisQueueMap::RdmaRx(i))->SetJobHandler(handler);
        }
    }
}

void
PyxisChip::Submit(uint32_t cluster, uint32_t queue, const std::vector<PyxisTrip>& list)
{
    GetTripManager(cluster)->Submit(queue, list);
}

void
PyxisChip::Submit(uint32_t cluster, uint32_t queue, const PyxisTrip& trip)
{
    GetTripManager(cluster)->Submit(queue, trip);
}

void
PyxisChip::Flush()
{
    NS_LOG_FUNCTION(this);
    Build();
    NS_ABORT_MSG_IF(m_flushing, "PyxisChip: chip " << m_chipId << ": a flush is running");
    m_flushing = true;
    m_drained = 0;
    for (Cluster& c : m_cluster)
    {
        c.tripManager->SetFlushMode(true); // may report drained at once
    }
}

void
PyxisChip::ClusterDrained()
{
    NS_LOG_FUNCTION(this);
    if (!m_flushing || ++m_drained < m_clusters)
    {
        return;
    }
    // every cluster is quiescent: hardware clears the barrier tables (11.8)
    for (Cluster& c : m_cluster)
    {
        c.barriers->Clear();
        c.tripManager->SetFlushMode(false);
    }
    m_flushing = false;
    NS_LOG_LOGIC("chip " << m_chipId << " flush done");
    m_flushDoneTrace(m_chipId);
}

} // namespace ns3
