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
                          "microcode start; not in the spec, digest 2.4 assumes 50).",
                          UintegerValue(50),
                          MakeUintegerAccessor(&PyxisUieEngine::m_launchCycles),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("CommitCycles",
                          "Cycles from the trip's end to its notify: the AMEM write commit of its "
                          "last writes (seed 004 11.7.2: about 100 cycles).",
                          UintegerValue(100),
                          MakeUintegerAccessor(&PyxisUieEngine::m_commitCycles),
                          MakeUintegerChecker<uint32_t>());
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
    const Time start = std::max(goTime + Cycles(m_launchCycles), now);
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
    EndTrip(trip, start);
    ReleaseEngine();
}

} // namespace ns3
