/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pyxis-mpe-engine.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PyxisMpeEngine");
NS_OBJECT_ENSURE_REGISTERED(PyxisMpeEngine);

TypeId
PyxisMpeEngine::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PyxisMpeEngine")
            .SetParent<PyxisEngine>()
            .SetGroupName("Pyxis")
            .AddConstructor<PyxisMpeEngine>()
            .AddAttribute("LaunchCycles",
                          "Cycles from the barrier go to the trip's start (not in the spec; 0).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&PyxisMpeEngine::m_launchCycles),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("CommitCycles",
                          "Cycles from the trip's end to its notify (not in the spec; 0: NoC "
                          "writes are acknowledged).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&PyxisMpeEngine::m_commitCycles),
                          MakeUintegerChecker<uint32_t>());
    return tid;
}

PyxisMpeEngine::PyxisMpeEngine()
{
    NS_LOG_FUNCTION(this);
}

PyxisMpeEngine::~PyxisMpeEngine()
{
    NS_LOG_FUNCTION(this);
}

bool
PyxisMpeEngine::CheckTrip(const PyxisTrip& /* trip */, std::string& /* error */) const
{
    return true;
}

Time
PyxisMpeEngine::GetCommitDelay() const
{
    return Cycles(m_commitCycles);
}

void
PyxisMpeEngine::DoStart(const PyxisTrip& trip, Time goTime)
{
    NS_LOG_FUNCTION(this << trip.tripId << goTime);
    // the launch runs from the barrier's go; it overlaps the previous trip if that was still
    // running when the go came
    const Time now = Simulator::Now();
    const Time start = std::max(goTime + Cycles(m_launchCycles), now);
    Simulator::Schedule(start - now, &PyxisMpeEngine::Begin, this, trip);
}

void
PyxisMpeEngine::Begin(PyxisTrip trip)
{
    NS_LOG_FUNCTION(this << trip.tripId);
    BeginTrip(trip);
    Simulator::Schedule(Cycles(trip.cycles), &PyxisMpeEngine::End, this, trip, Simulator::Now());
}

void
PyxisMpeEngine::End(PyxisTrip trip, Time start)
{
    NS_LOG_FUNCTION(this << trip.tripId);
    EndTrip(trip, start);
    ReleaseEngine();
}

} // namespace ns3
