/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pyxis-hbm-dma-engine.h"

#include "pyxis-hbm-bus.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PyxisHbmDmaEngine");
NS_OBJECT_ENSURE_REGISTERED(PyxisHbmDmaEngine);

TypeId
PyxisHbmDmaEngine::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PyxisHbmDmaEngine")
            .SetParent<PyxisEngine>()
            .SetGroupName("Pyxis")
            .AddConstructor<PyxisHbmDmaEngine>()
            .AddAttribute("HbmToAmem",
                          "true: the H2A engine (HBM read); false: the A2H engine (HBM write).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&PyxisHbmDmaEngine::m_h2a),
                          MakeBooleanChecker())
            .AddAttribute("SetupCycles",
                          "Cycles per trip before its first byte (not in the spec; 100).",
                          UintegerValue(100),
                          MakeUintegerAccessor(&PyxisHbmDmaEngine::m_setupCycles),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("EfficiencyLarge",
                          "eta of trips of at least EfficientBytes: the share of the HBM "
                          "bandwidth they get (an assumption; the spec gives none, 12.1).",
                          DoubleValue(0.9),
                          MakeDoubleAccessor(&PyxisHbmDmaEngine::m_efficiencyLarge),
                          MakeDoubleChecker<double>(0.01, 1.0))
            .AddAttribute("EfficiencySmall",
                          "eta towards a 0 B trip; it rises linearly to EfficiencyLarge at "
                          "EfficientBytes (the spec: much lower efficiency; 0.3 assumed).",
                          DoubleValue(0.3),
                          MakeDoubleAccessor(&PyxisHbmDmaEngine::m_efficiencySmall),
                          MakeDoubleChecker<double>(0.01, 1.0))
            .AddAttribute("EfficientBytes",
                          "Trip size in bytes from which eta is EfficiencyLarge (Pyxis spec 12.1: "
                          "at least 100K bytes per descriptor).",
                          UintegerValue(102400),
                          MakeUintegerAccessor(&PyxisHbmDmaEngine::m_efficientBytes),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("EngineBytesPerCycle",
                          "The engine's own limit in bytes per cycle (8.1: 1024 B per cycle, "
                          "1.36 TB/s at 1.33 GHz).",
                          UintegerValue(1024),
                          MakeUintegerAccessor(&PyxisHbmDmaEngine::m_engineBytesPerCycle),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("CommitCycles",
                          "H2A: cycles from the last byte to the notify (AMEM write commit, "
                          "11.7.2: about 100). A2H writes HBM and has none.",
                          UintegerValue(100),
                          MakeUintegerAccessor(&PyxisHbmDmaEngine::m_commitCycles),
                          MakeUintegerChecker<uint32_t>());
    return tid;
}

PyxisHbmDmaEngine::PyxisHbmDmaEngine()
{
    NS_LOG_FUNCTION(this);
}

PyxisHbmDmaEngine::~PyxisHbmDmaEngine()
{
    NS_LOG_FUNCTION(this);
}

void
PyxisHbmDmaEngine::DoDispose()
{
    m_bus = nullptr;
    PyxisEngine::DoDispose();
}

void
PyxisHbmDmaEngine::SetHbmBus(Ptr<PyxisHbmBus> bus)
{
    m_bus = bus;
}

double
PyxisHbmDmaEngine::GetEfficiency(double bytes) const
{
    if (bytes >= m_efficientBytes)
    {
        return m_efficiencyLarge;
    }
    return m_efficiencySmall + (m_efficiencyLarge - m_efficiencySmall) * bytes / m_efficientBytes;
}

bool
PyxisHbmDmaEngine::CheckTrip(const PyxisTrip& trip, std::string& error) const
{
    if (trip.bytes == 0 || trip.bytes % 1024 != 0 || trip.bytes > (64ULL << 20))
    {
        std::ostringstream os;
        os << (m_h2a ? "H2A" : "A2H") << " trip of " << trip.bytes
           << " B: HBM DMA moves 1 to 65536 units of 1024 B (at most 64 MiB per descriptor, "
           << "Pyxis spec 11.4.3-4, 12.1)";
        error = os.str();
        return false;
    }
    return true;
}

Time
PyxisHbmDmaEngine::GetCommitDelay() const
{
    return m_h2a ? Cycles(m_commitCycles) : Time(0);
}

void
PyxisHbmDmaEngine::DoStart(const PyxisTrip& trip, Time goTime)
{
    NS_LOG_FUNCTION(this << trip.tripId << goTime);
    NS_ABORT_MSG_IF(!m_bus, "PyxisHbmDmaEngine: " << Where() << " has no HBM bus");
    BeginTrip(trip);
    Simulator::Schedule(Cycles(m_setupCycles),
                        &PyxisHbmDmaEngine::Transfer,
                        this,
                        trip,
                        Simulator::Now());
}

void
PyxisHbmDmaEngine::Transfer(PyxisTrip trip, Time start)
{
    NS_LOG_FUNCTION(this << trip.tripId);
    const double eta = GetEfficiency(trip.bytes);
    m_bus->Start(m_h2a,
                 trip.bytes,
                 eta,
                 m_engineBytesPerCycle * m_clockGhz * 1e9,
                 MakeCallback(&PyxisHbmDmaEngine::End, this, trip, start));
}

void
PyxisHbmDmaEngine::End(PyxisTrip trip, Time start)
{
    NS_LOG_FUNCTION(this << trip.tripId);
    EndTrip(trip, start);
    ReleaseEngine();
}

} // namespace ns3
