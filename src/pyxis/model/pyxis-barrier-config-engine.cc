/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pyxis-barrier-config-engine.h"

#include "pyxis-barrier-table.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PyxisBarrierConfigEngine");
NS_OBJECT_ENSURE_REGISTERED(PyxisBarrierConfigEngine);

TypeId
PyxisBarrierConfigEngine::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PyxisBarrierConfigEngine")
            .SetParent<PyxisEngine>()
            .SetGroupName("Pyxis")
            .AddConstructor<PyxisBarrierConfigEngine>()
            .AddAttribute("ConfigCycles",
                          "Cycles of one barrier-config trip (not in the spec; 1).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&PyxisBarrierConfigEngine::m_configCycles),
                          MakeUintegerChecker<uint32_t>());
    return tid;
}

PyxisBarrierConfigEngine::PyxisBarrierConfigEngine()
{
    NS_LOG_FUNCTION(this);
}

PyxisBarrierConfigEngine::~PyxisBarrierConfigEngine()
{
    NS_LOG_FUNCTION(this);
}

void
PyxisBarrierConfigEngine::DoDispose()
{
    m_table = nullptr;
    PyxisEngine::DoDispose();
}

void
PyxisBarrierConfigEngine::SetBarrierTable(Ptr<PyxisBarrierTable> table)
{
    m_table = table;
}

bool
PyxisBarrierConfigEngine::CheckTrip(const PyxisTrip& trip, std::string& error) const
{
    std::ostringstream os;
    const uint32_t n = m_table ? m_table->GetBarriers() : 1024;
    if (trip.configBarrier == 0 || trip.configBarrier >= n)
    {
        os << "barrier-config trip: Barrier_id " << trip.configBarrier << " is not 1 to " << n - 1
           << " (Pyxis spec 11.4.11)";
    }
    else if (trip.notifyCount > PyxisBarrierTable::MAX_COUNT ||
             trip.waitCount > PyxisBarrierTable::MAX_COUNT)
    {
        os << "barrier-config trip: Notify_count " << trip.notifyCount << " / Wait_count "
           << trip.waitCount << " refused: at most 31 producers and 31 consumers per barrier "
           << "(5-bit fields, Pyxis spec 11.4.11)";
    }
    if (!os.str().empty())
    {
        error = os.str();
        return false;
    }
    return true;
}

Time
PyxisBarrierConfigEngine::GetCommitDelay() const
{
    return Time(0);
}

void
PyxisBarrierConfigEngine::DoStart(const PyxisTrip& trip, Time goTime)
{
    NS_LOG_FUNCTION(this << trip.tripId << goTime);
    BeginTrip(trip);
    Simulator::Schedule(Cycles(m_configCycles),
                        &PyxisBarrierConfigEngine::End,
                        this,
                        trip,
                        Simulator::Now());
}

void
PyxisBarrierConfigEngine::End(PyxisTrip trip, Time start)
{
    NS_LOG_FUNCTION(this << trip.tripId);
    std::string error;
    NS_ABORT_MSG_UNLESS(
        m_table->SetRefCounts(trip.configBarrier, trip.notifyCount, trip.waitCount, error),
        "PyxisBarrierConfigEngine: " << Where() << " trip " << trip.tripId << ": " << error);
    EndTrip(trip, start);
    ReleaseEngine();
}

} // namespace ns3
