/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pyxis-rdma-engine.h"

#include "pyxis-queue-map.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PyxisRdmaEngine");
NS_OBJECT_ENSURE_REGISTERED(PyxisRdmaEngine);

TypeId
PyxisRdmaEngine::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PyxisRdmaEngine")
                            .SetParent<PyxisEngine>()
                            .SetGroupName("Pyxis")
                            .AddConstructor<PyxisRdmaEngine>();
    return tid;
}

PyxisRdmaEngine::PyxisRdmaEngine()
{
    NS_LOG_FUNCTION(this);
}

PyxisRdmaEngine::~PyxisRdmaEngine()
{
    NS_LOG_FUNCTION(this);
}

void
PyxisRdmaEngine::DoDispose()
{
    m_handler = JobHandler();
    m_open.clear();
    PyxisEngine::DoDispose();
}

void
PyxisRdmaEngine::SetJobHandler(JobHandler handler)
{
    m_handler = handler;
}

bool
PyxisRdmaEngine::IsTx() const
{
    return PyxisQueueMap::GetKind(m_queue) == PyxisQueueMap::RDMA_TX_ENGINE;
}

bool
PyxisRdmaEngine::CheckTrip(const PyxisTrip& trip, std::string& error) const
{
    std::ostringstream os;
    if (trip.bytes == 0 || trip.bytes % 128 != 0 || trip.bytes / 128 > (1U << 16))
    {
        os << "RDMA trip of " << trip.bytes
           << " B: NumWords must be 1 to 65536 words of 128 B (Pyxis spec 11.4.6-7)";
    }
    else if (trip.tjid > 255 || trip.rjid > 255)
    {
        os << "RDMA trip: TJID " << trip.tjid << " / RJID " << trip.rjid
           << " are 8-bit ids (Pyxis spec 10.4)";
    }
    if (!os.str().empty())
    {
        error = os.str();
        return false;
    }
    return true;
}

Time
PyxisRdmaEngine::GetCommitDelay() const
{
    // RxDMA tracks each page's commit itself (11.7.2): the job completes after it
    return Time(0);
}

void
PyxisRdmaEngine::DoStart(const PyxisTrip& trip, Time goTime)
{
    NS_LOG_FUNCTION(this << trip.tripId << goTime);
    NS_ABORT_MSG_IF(m_handler.IsNull(),
                    "PyxisRdmaEngine: " << Where() << ": trip " << trip.tripId
                                        << " passed its barrier wait but no RDMA job handler is "
                                        << "attached (PyxisRdmaEngine::SetJobHandler)");
    NS_ABORT_MSG_IF(m_open.count(trip.tripId),
                    "PyxisRdmaEngine: " << Where() << ": trip id " << trip.tripId
                                        << " is already an open job of this queue");
    m_open[trip.tripId] = Open{trip, Simulator::Now()};
    BeginTrip(trip);
    m_handler(this, trip);
    // into the job table: the queue moves on (in an event of its own, so that a queue of
    // ready RDMA trips is not handed over by recursion)
    Simulator::ScheduleNow(&PyxisRdmaEngine::ReleaseEngine, this);
}

void
PyxisRdmaEngine::CompleteJob(uint32_t tripId)
{
    NS_LOG_FUNCTION(this << tripId);
    const auto it = m_open.find(tripId);
    NS_ABORT_MSG_IF(it == m_open.end(),
                    "PyxisRdmaEngine: " << Where() << ": CompleteJob of trip " << tripId
                                        << ", which is not an open job");
    const Open o = it->second;
    m_open.erase(it);
    EndTrip(o.trip, o.start);
}

void
PyxisRdmaEngine::FailJob(uint32_t tripId)
{
    NS_LOG_FUNCTION(this << tripId);
    const auto it = m_open.find(tripId);
    NS_ABORT_MSG_IF(it == m_open.end(),
                    "PyxisRdmaEngine: " << Where() << ": FailJob of trip " << tripId
                                        << ", which is not an open job");
    const PyxisTrip trip = it->second.trip;
    m_open.erase(it);
    FailTrip(trip);
}

} // namespace ns3
