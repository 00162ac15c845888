/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pyxis-engine.h"

#include "pyxis-queue-map.h"

#include "ns3/assert.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <cmath>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PyxisEngine");
NS_OBJECT_ENSURE_REGISTERED(PyxisEngine);

TypeId
PyxisEngine::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PyxisEngine")
            .SetParent<Object>()
            .SetGroupName("Pyxis")
            .AddTraceSource("TripStart",
                            "A trip started executing (chip, cluster, queue, trip id, start).",
                            MakeTraceSourceAccessor(&PyxisEngine::m_tripStartTrace),
                            "ns3::PyxisEngine::TripStartTracedCallback")
            .AddTraceSource("TripEnd",
                            "A trip's work ended (chip, cluster, queue, trip id, start, end); "
                            "its barriers are notified after the engine's commit delay.",
                            MakeTraceSourceAccessor(&PyxisEngine::m_tripEndTrace),
                            "ns3::PyxisEngine::TripEndTracedCallback");
    return tid;
}

PyxisEngine::PyxisEngine()
{
    NS_LOG_FUNCTION(this);
}

PyxisEngine::~PyxisEngine()
{
    NS_LOG_FUNCTION(this);
}

void
PyxisEngine::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_released = MakeNullCallback<void>();
    m_done = MakeNullCallback<void, PyxisTrip, bool>();
    Object::DoDispose();
}

void
PyxisEngine::SetIdentity(uint32_t chip, uint32_t cluster, uint32_t queue, double clockGhz)
{
    NS_LOG_FUNCTION(this << chip << cluster << queue << clockGhz);
    m_chip = chip;
    m_cluster = cluster;
    m_queue = queue;
    m_clockGhz = clockGhz;
}

void
PyxisEngine::SetTripManager(Callback<void> released, Callback<void, PyxisTrip, bool> done)
{
    m_released = released;
    m_done = done;
}

std::string
PyxisEngine::Where() const
{
    std::ostringstream os;
    os << "chip " << m_chip << " cluster " << m_cluster << " queue 0x" << std::hex << m_queue
       << std::dec << " (" << PyxisQueueMap::GetName(m_queue) << ")";
    return os.str();
}

Time
PyxisEngine::Cycles(double cycles) const
{
    return PicoSeconds(static_cast<int64_t>(std::llround(cycles * 1000.0 / m_clockGhz)));
}

void
PyxisEngine::Start(const PyxisTrip& trip, Time goTime)
{
    NS_LOG_FUNCTION(this << trip.tripId << goTime);
    NS_ASSERT_MSG(!m_busy, Where() << ": Start while busy");
    m_busy = true;
    DoStart(trip, goTime);
}

void
PyxisEngine::BeginTrip(const PyxisTrip& trip)
{
    NS_LOG_FUNCTION(this << trip.tripId);
    m_tripStartTrace(m_chip, m_cluster, m_queue, trip.tripId, Simulator::Now());
}

void
PyxisEngine::EndTrip(const PyxisTrip& trip, Time start)
{
    NS_LOG_FUNCTION(this << trip.tripId << start);
    const Time now = Simulator::Now();
    m_tripEndTrace(m_chip, m_cluster, m_queue, trip.tripId, start, now);
    // done after the commit; scheduled even at 0 so that no release runs inside an engine call
    Simulator::Schedule(GetCommitDelay(), &PyxisEngine::Done, this, trip, true);
}

void
PyxisEngine::FailTrip(const PyxisTrip& trip)
{
    NS_LOG_FUNCTION(this << trip.tripId);
    Simulator::ScheduleNow(&PyxisEngine::Done, this, trip, false);
}

void
PyxisEngine::ReleaseEngine()
{
    NS_LOG_FUNCTION(this);
    m_busy = false;
    if (!m_released.IsNull())
    {
        m_released();
    }
}

void
PyxisEngine::Done(PyxisTrip trip, bool notify)
{
    NS_LOG_FUNCTION(this << trip.tripId << notify);
    if (!m_done.IsNull())
    {
        m_done(trip, notify);
    }
}

} // namespace ns3
