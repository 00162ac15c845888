/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pyxis-core-switch.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PyxisCoreSwitch");
NS_OBJECT_ENSURE_REGISTERED(PyxisCoreSwitch);

TypeId
PyxisCoreSwitch::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PyxisCoreSwitch")
            .SetParent<Object>()
            .SetGroupName("Pyxis")
            .AddConstructor<PyxisCoreSwitch>()
            .AddAttribute("Planes",
                          "Switch planes; every client has one port per plane (Pyxis spec 9: 4).",
                          UintegerValue(4),
                          MakeUintegerAccessor(&PyxisCoreSwitch::m_planes),
                          MakeUintegerChecker<uint32_t>(1, 4))
            .AddAttribute("Clusters",
                          "Cluster clients; the Fabric Adapter is client Clusters (Pyxis spec 9: "
                          "4 clusters + fabric, 5x5 planes).",
                          UintegerValue(4),
                          MakeUintegerAccessor(&PyxisCoreSwitch::m_clusters),
                          MakeUintegerChecker<uint32_t>(1, 4))
            .AddAttribute("PortBytesPerCycle",
                          "Bytes per cycle of one port of one plane (Pyxis spec 9: 128 B buses).",
                          DoubleValue(128),
                          MakeDoubleAccessor(&PyxisCoreSwitch::m_portBytesPerCycle),
                          MakeDoubleChecker<double>(1));
    return tid;
}

PyxisCoreSwitch::PyxisCoreSwitch()
{
    NS_LOG_FUNCTION(this);
}

PyxisCoreSwitch::~PyxisCoreSwitch()
{
    NS_LOG_FUNCTION(this);
}

void
PyxisCoreSwitch::DoDispose()
{
    for (auto& [id, f] : m_flows)
    {
        f.event.Cancel();
    }
    m_flows.clear();
    Object::DoDispose();
}

void
PyxisCoreSwitch::SetClockGhz(double clockGhz)
{
    m_clockGhz = clockGhz;
}

uint64_t
PyxisCoreSwitch::StartFlow(uint32_t src,
                           uint32_t dst,
                           double bytes,
                           uint32_t planeMask,
                           double maxBytesPerCycle,
                           Callback<void> done)
{
    NS_LOG_FUNCTION(this << src << dst << bytes << planeMask << maxBytesPerCycle);
    NS_ABORT_MSG_IF(src > m_clusters || dst > m_clusters,
                    "PyxisCoreSwitch: client " << std::max(src, dst) << " beyond " << m_clusters
                                               << " clusters and the fabric");
    NS_ABORT_MSG_IF(src == dst,
                    "PyxisCoreSwitch: no loopback (Pyxis spec 9): client " << src << " to itself");
    const uint32_t mask = planeMask & ((1U << m_planes) - 1);
    NS_ABORT_MSG_IF(mask == 0,
                    "PyxisCoreSwitch: plane mask 0x"
                        << std::hex << planeMask << std::dec << " selects none of the " << m_planes
                        << " planes (0 is illegal, Pyxis spec 11.4.5)");
    NS_ABORT_MSG_IF(maxBytesPerCycle <= 0, "PyxisCoreSwitch: a flow without a rate");
    Update();
    const uint64_t id = m_nextId++;
    Flow& f = m_flows[id];
    f.src = src;
    f.dst = dst;
    f.mask = mask;
    for (uint32_t p = 0; p < m_planes; ++p)
    {
        f.planes += (mask >> p) & 1;
    }
    f.remaining = bytes;
    f.cap = maxBytesPerCycle;
    f.done = done;
    Update();
    return id;
}

double
PyxisCoreSwitch::GetFlowRate(uint64_t flow) const
{
    const auto it = m_flows.find(flow);
    return it == m_flows.end() ? 0.0 : it->second.rate;
}

void
PyxisCoreSwitch::Update()
{
    const Time now = Simulator::Now();
    const double dtCycles = (now - m_last).GetSeconds() * m_clockGhz * 1e9;
    m_last = now;
    for (auto& [id, f] : m_flows)
    {
        f.remaining = std::max(0.0, f.remaining - f.rate * dtCycles);
        f.rate = 0;
    }
    // Progressive filling: every unfrozen flow has rate x; a port of capacity C carrying flows
    // F is full when sum over F of rate / planes = C.
    const uint32_t clients = m_clusters + 1;
    const uint32_t ports = 2 * clients * m_planes; // egress then ingress
    auto egress = [&](uint32_t c, uint32_t p) { return c * m_planes + p; };
    auto ingress = [&](uint32_t c, uint32_t p) { return (clients + c) * m_planes + p; };
    std::vector<uint64_t> unfrozen;
    for (auto& [id, f] : m_flows)
    {
        unfrozen.push_back(id);
    }
    std::vector<double> frozenLoad(ports, 0.0);
    while (!unfrozen.empty())
    {
        std::vector<double> weight(ports, 0.0);
        for (uint64_t id : unfrozen)
        {
            const Flow& f = m_flows[id];
            for (uint32_t p = 0; p < m_planes; ++p)
            {
                if ((f.mask >> p) & 1)
                {
                    weight[egress(f.src, p)] += 1.0 / f.planes;
                    weight[ingress(f.dst, p)] += 1.0 / f.planes;
                }
            }
        }
        double x = std::numeric_limits<double>::infinity();
        for (uint32_t r = 0; r < ports; ++r)
        {
            if (weight[r] > 0)
            {
                x = std::min(x, (m_portBytesPerCycle - frozenLoad[r]) / weight[r]);
            }
        }
        for (uint64_t id : unfrozen)
        {
            x = std::min(x, m_flows[id].cap);
        }
        // freeze the flows at their cap or through a full port
        std::vector<uint64_t> next;
        std::vector<bool> full(ports, false);
        for (uint32_t r = 0; r < ports; ++r)
        {
            full[r] =
                weight[r] > 0 && frozenLoad[r] + x * weight[r] >= m_portBytesPerCycle * (1 - 1e-12);
        }
        for (uint64_t id : unfrozen)
        {
            Flow& f = m_flows[id];
            bool freeze = f.cap <= x * (1 + 1e-12);
            for (uint32_t p = 0; p < m_planes && !freeze; ++p)
            {
                freeze = ((f.mask >> p) & 1) && (full[egress(f.src, p)] || full[ingress(f.dst, p)]);
            }
            if (freeze)
            {
                f.rate = x;
                for (uint32_t p = 0; p < m_planes; ++p)
                {
                    if ((f.mask >> p) & 1)
                    {
                        frozenLoad[egress(f.src, p)] += x / f.planes;
                        frozenLoad[ingress(f.dst, p)] += x / f.planes;
                    }
                }
            }
            else
            {
                next.push_back(id);
            }
        }
        NS_ASSERT_MSG(next.size() < unfrozen.size(), "progressive filling froze no flow");
        unfrozen.swap(next);
    }
    for (auto& [id, f] : m_flows)
    {
        f.event.Cancel();
        const double seconds = f.remaining / (f.rate * m_clockGhz * 1e9);
        f.event = Simulator::Schedule(PicoSeconds(std::llround(seconds * 1e12)),
                                      &PyxisCoreSwitch::Complete,
                                      this,
                                      id);
        NS_LOG_LOGIC("flow " << id << " " << f.src << "->" << f.dst << " " << f.remaining
                             << " B left at " << f.rate << " B/cycle");
    }
}

void
PyxisCoreSwitch::Complete(uint64_t id)
{
    NS_LOG_FUNCTION(this << id);
    Update();
    const auto it = m_flows.find(id);
    NS_ASSERT(it != m_flows.end());
    Callback<void> done = it->second.done;
    it->second.event.Cancel();
    m_flows.erase(it);
    Update();
    done();
}

} // namespace ns3
