/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pyxis-uie-engine.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PyxisUieEngine");
NS_OBJECT_ENSURE_REGISTERED(PyxisUieEngine);

TypeId
PyxisUieEngine::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PyxisUieEngine")
            .SetParent<PyxisEngine>()
            .SetGroupName("Pyxis")
            .AddConstructor<PyxisUieEngine>()
            .AddAttribute("LaunchCycles",
                          "Cycles from the barrier go to the trip's start (trip dispatch and "
                          "microcode start; the spec gives none, 11.3: an assumption).",
                          UintegerValue(50),
                          MakeUintegerAccessor(&PyxisUieEngine::m_launchCycles),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("CommitCycles",
                          "Cycles from the trip's end to its notify: the AMEM write commit of its "
                          "last writes (Pyxis spec 11.7.2: about 100 cycles).",
                          UintegerValue(100),
                          MakeUintegerAccessor(&PyxisUieEngine::m_commitCycles),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("TrackingIds",
                          "Completion tracking ids of the UIE (Pyxis spec 11.7.1: 3): at most this "
                          "many trips between start and done.",
                          UintegerValue(3),
                          MakeUintegerAccessor(&PyxisUieEngine::m_trackingIds),
                          MakeUintegerChecker<uint32_t>(1));
    return tid;
}

PyxisUieEngine::PyxisUieEngine()
{
    NS_LOG_FUNCTION(this);
}

PyxisUieEngine::~PyxisUieEngine()
{
    NS_LOG_FUNCTION(this);
}

bool
PyxisUieEngine::CheckTrip(const PyxisTrip& /* trip */, std::string& /* error */) const
{
    return true;
}

Time
PyxisUieEngine::GetCommitDelay() const
{
    return Cycles(m_commitCycles);
}

void
PyxisUieEngine::DoStart(const PyxisTrip& trip, Time goTime)
{
    NS_LOG_FUNCTION(this << trip.tripId << goTime);
    // the launch runs from the barrier's go; it overlaps the previous trip if that was still
    // running when the go came
    const Time now = Simulator::Now();
    Time start = std::max(goTime + Cycles(m_launchCycles), now);
    // tracking ids (11.7.1): with k trips still committing (done times d_0 <= ... <= d_k-1),
    // the new one needs at most TrackingIds - 1 of them left: start >= d_(k - TrackingIds)
    while (!m_doneTimes.empty() && m_doneTimes.front() <= now)
    {
        m_doneTimes.pop_front();
    }
    const uint32_t k = m_doneTimes.size();
    if (k >= m_trackingIds)
    {
        start = std::max(start, m_doneTimes[k - m_trackingIds]);
        NS_LOG_LOGIC("trip " << trip.tripId << " waits for a tracking id until " << start);
    }
    Simulator::Schedule(start - now, &PyxisUieEngine::Begin, this, trip);
}

void
PyxisUieEngine::Begin(PyxisTrip trip)
{
    NS_LOG_FUNCTION(this << trip.tripId);
    BeginTrip(trip);
    Simulator::Schedule(Cycles(trip.cycles), &PyxisUieEngine::End, this, trip, Simulator::Now());
}

void
PyxisUieEngine::End(PyxisTrip trip, Time start)
{
    NS_LOG_FUNCTION(this << trip.tripId);
    m_doneTimes.push_back(Simulator::Now() + Cycles(m_commitCycles));
    EndTrip(trip, start);
    ReleaseEngine();
}

} // namespace ns3
