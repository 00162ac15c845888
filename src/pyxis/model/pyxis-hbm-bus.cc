/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pyxis-hbm-bus.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PyxisHbmBus");
NS_OBJECT_ENSURE_REGISTERED(PyxisHbmBus);

TypeId
PyxisHbmBus::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PyxisHbmBus")
            .SetParent<Object>()
            .SetGroupName("Pyxis")
            .AddConstructor<PyxisHbmBus>()
            .AddAttribute("Bandwidth",
                          "HBM3E device bandwidth, half duplex: 1024 pins x 9.6 Gb/s = 1228.8 GB/s "
                          "(Pyxis spec 8: 1024 pins x 9.6 Gb/s; its 12,288 GB/s is a 10x typo).",
                          DataRateValue(DataRate("9830.4Gbps")),
                          MakeDataRateAccessor(&PyxisHbmBus::m_bandwidth),
                          MakeDataRateChecker())
            .AddAttribute("ReadShare",
                          "Share of the device for HBM reads (H2A) while an A2H write runs too: "
                          "the controller's read/write bias (12.1; not given, 0.5).",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&PyxisHbmBus::m_readShare),
                          MakeDoubleChecker<double>(0.01, 0.99));
    return tid;
}

PyxisHbmBus::PyxisHbmBus()
{
    NS_LOG_FUNCTION(this);
}

PyxisHbmBus::~PyxisHbmBus()
{
    NS_LOG_FUNCTION(this);
}

void
PyxisHbmBus::DoDispose()
{
    for (Transfer& t : m_dir)
    {
        t.event.Cancel();
        t.done = Callback<void>();
    }
    Object::DoDispose();
}

double
PyxisHbmBus::GetBytesPerSecond() const
{
    return m_bandwidth.GetBitRate() / 8.0;
}

void
PyxisHbmBus::Start(bool read,
                   double bytes,
                   double efficiency,
                   double maxBytesPerSecond,
                   Callback<void> done)
{
    NS_LOG_FUNCTION(this << read << bytes << efficiency << maxBytesPerSecond);
    Transfer& t = m_dir[read ? 1 : 0];
    NS_ABORT_MSG_IF(t.active, "PyxisHbmBus: a second " << (read ? "H2A" : "A2H") << " transfer");
    NS_ABORT_MSG_IF(efficiency <= 0 || efficiency > 1 || maxBytesPerSecond <= 0,
                    "PyxisHbmBus: efficiency " << efficiency << " and engine rate "
                                               << maxBytesPerSecond << " B/s");
    Update(); // advance the other direction to now
    t.active = true;
    t.remaining = bytes;
    t.efficiency = efficiency;
    t.cap = maxBytesPerSecond;
    t.done = done;
    Update();
}

void
PyxisHbmBus::Update()
{
    const Time now = Simulator::Now();
    const double dt = (now - m_last).GetSeconds();
    m_last = now;
    const bool both = m_dir[0].active && m_dir[1].active;
    for (uint32_t d = 0; d < 2; ++d)
    {
        Transfer& t = m_dir[d];
        if (!t.active)
        {
            continue;
        }
        t.remaining = std::max(0.0, t.remaining - t.rate * dt);
        const double share = both ? (d == 1 ? m_readShare : 1.0 - m_readShare) : 1.0;
        t.rate = std::min(t.cap, share * GetBytesPerSecond() * t.efficiency);
        t.event.Cancel();
        const int64_t ps = std::llround(t.remaining / t.rate * 1e12);
        t.event = Simulator::Schedule(PicoSeconds(ps), &PyxisHbmBus::Complete, this, d);
        NS_LOG_LOGIC((d ? "read" : "write")
                     << " " << t.remaining << " B left at " << t.rate << " B/s");
    }
}

void
PyxisHbmBus::Complete(uint32_t dir)
{
    NS_LOG_FUNCTION(this << dir);
    Transfer& t = m_dir[dir];
    Update(); // the other direction advances at the shared rate up to now
    t.active = false;
    t.remaining = 0;
    t.rate = 0;
    t.event.Cancel();
    Callback<void> done = t.done;
    t.done = Callback<void>();
    Update(); // the other direction now has the device alone
    done();
}

} // namespace ns3
