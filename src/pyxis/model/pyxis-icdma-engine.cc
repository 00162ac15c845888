/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pyxis-icdma-engine.h"

#include "pyxis-core-switch.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PyxisIcdmaEngine");
NS_OBJECT_ENSURE_REGISTERED(PyxisIcdmaEngine);

TypeId
PyxisIcdmaEngine::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PyxisIcdmaEngine")
            .SetParent<PyxisEngine>()
            .SetGroupName("Pyxis")
            .AddConstructor<PyxisIcdmaEngine>()
            .AddAttribute("BytesPerCycle",
                          "The engine's rate in bytes per cycle (Pyxis spec 9, 12.2: 128 B).",
                          UintegerValue(128),
                          MakeUintegerAccessor(&PyxisIcdmaEngine::m_bytesPerCycle),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("CommitCycles",
                          "Cycles from the last byte to the notify (AMEM write commit, 11.7.2: "
                          "about 100).",
                          UintegerValue(100),
                          MakeUintegerAccessor(&PyxisIcdmaEngine::m_commitCycles),
                          MakeUintegerChecker<uint32_t>());
    return tid;
}

PyxisIcdmaEngine::PyxisIcdmaEngine()
{
    NS_LOG_FUNCTION(this);
}

PyxisIcdmaEngine::~PyxisIcdmaEngine()
{
    NS_LOG_FUNCTION(this);
}

void
PyxisIcdmaEngine::DoDispose()
{
    m_switch = nullptr;
    PyxisEngine::DoDispose();
}

void
PyxisIcdmaEngine::SetCoreSwitch(Ptr<PyxisCoreSwitch> coreSwitch, uint32_t destination)
{
    m_switch = coreSwitch;
    m_destination = destination;
}

bool
PyxisIcdmaEngine::CheckTrip(const PyxisTrip& trip, std::string& error) const
{
    std::ostringstream os;
    if (trip.bytes == 0 || trip.bytes % 128 != 0 || trip.bytes / 128 > (1U << 16))
    {
        os << "ICDMA trip of " << trip.bytes
           << " B: inter-cluster DMA moves 1 to 65536 words of 128 B (at most 8 MiB per "
           << "descriptor, Pyxis spec 11.4.5, 12.2)";
    }
    else if ((trip.planeMask & 0xF) == 0 || trip.planeMask > 0xF)
    {
        os << "ICDMA trip: Core Switch plane mask 0x" << std::hex << trip.planeMask
           << " is illegal (4 bits, at least one set, Pyxis spec 11.4.5)";
    }
    if (!os.str().empty())
    {
        error = os.str();
        return false;
    }
    return true;
}

Time
PyxisIcdmaEngine::GetCommitDelay() const
{
    return Cycles(m_commitCycles);
}

void
PyxisIcdmaEngine::DoStart(const PyxisTrip& trip, Time goTime)
{
    NS_LOG_FUNCTION(this << trip.tripId << goTime);
    NS_ABORT_MSG_IF(!m_switch, "PyxisIcdmaEngine: " << Where() << " has no Core Switch");
    BeginTrip(trip);
    m_flow =
        m_switch->StartFlow(m_cluster,
                            m_destination,
                            trip.bytes,
                            trip.planeMask,
                            m_bytesPerCycle,
                            MakeCallback(&PyxisIcdmaEngine::End, this, trip, Simulator::Now()));
}

void
PyxisIcdmaEngine::End(PyxisTrip trip, Time start)
{
    NS_LOG_FUNCTION(this << trip.tripId);
    m_flow = 0;
    EndTrip(trip, start);
    ReleaseEngine();
}

} // namespace ns3
