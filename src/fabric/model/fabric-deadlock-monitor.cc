/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-deadlock-monitor.h"

#include "fabric-channel.h"

#include "ns3/log.h"
#include "ns3/names.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"

#include <algorithm>
#include <sstream>
#include <unordered_map>

namespace ns3
{

namespace
{

/**
 * A cycle of a directed graph: depth-first search in vertex order; the first edge back to a
 * vertex on the search path closes one.
 * \param next per vertex, the vertices it has an edge to
 * \return the vertices of the cycle in edge order, starting where the search entered it;
 * empty if the graph is acyclic
 */
std::vector<uint32_t>
FindCycle(const std::vector<std::vector<uint32_t>>& next)
{
    enum Color : uint8_t
    {
        WHITE,
        GRAY,
        BLACK
    };

    std::vector<Color> color(next.size(), WHITE);
    std::vector<uint32_t> cycle;
    for (uint32_t root = 0; root < next.size() && cycle.empty(); ++root)
    {
        if (color[root] != WHITE)
        {
            continue;
        }
        // Stack of (vertex, next edge to follow); the stack is the search path.
        std::vector<std::pair<uint32_t, uint32_t>> path{{root, 0}};
        color[root] = GRAY;
        while (!path.empty() && cycle.empty())
        {
            auto& [v, e] = path.back();
            if (e == next[v].size())
            {
                color[v] = BLACK;
                path.pop_back();
                continue;
            }
            const uint32_t w = next[v][e++];
            if (color[w] == WHITE)
            {
                color[w] = GRAY;
                path.emplace_back(w, 0);
            }
            else if (color[w] == GRAY)
            {
                auto from = std::find_if(path.begin(), path.end(), [w](const auto& x) {
                    return x.first == w;
                });
                for (; from != path.end(); ++from)
                {
                    cycle.push_back(from->first);
                }
            }
        }
    }
    return cycle;
}

} // namespace

NS_LOG_COMPONENT_DEFINE("FabricDeadlockMonitor");
NS_OBJECT_ENSURE_REGISTERED(FabricDeadlockMonitor);

TypeId
FabricDeadlockMonitor::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FabricDeadlockMonitor")
            .SetParent<Object>()
            .SetGroupName("Fabric")
            .AddConstructor<FabricDeadlockMonitor>()
            .AddAttribute("CheckInterval",
                          "Simulated time between two checks of the watched egress queues while "
                          "any of them holds units (podsim: a tenth of the default Timeout).",
                          TimeValue(MilliSeconds(1)),
                          MakeTimeAccessor(&FabricDeadlockMonitor::m_interval),
                          MakeTimeChecker(PicoSeconds(1)))
            .AddAttribute("Timeout",
                          "A port that holds units and transmits none for this long is stuck; a "
                          "cycle of stuck ports is a deadlock. Default (podsim): 10 ms, well "
                          "above the longest PFC pause (65535 quanta of 512 bit times: 41.9 us "
                          "at 800 Gb/s, 335 us at 100 Gb/s, 3.4 ms at 10 Gb/s).",
                          TimeValue(MilliSeconds(10)),
                          MakeTimeAccessor(&FabricDeadlockMonitor::m_timeout),
                          MakeTimeChecker(PicoSeconds(1)))
            .AddTraceSource("Deadlock",
                            "A deadlock (or a stall of every queued port) was detected; the "
                            "argument is the report. The run is stopped right after.",
                            MakeTraceSourceAccessor(&FabricDeadlockMonitor::m_deadlockTrace),
                            "ns3::FabricDeadlockMonitor::DeadlockTracedCallback");
    return tid;
}

FabricDeadlockMonitor::FabricDeadlockMonitor()
{
    NS_LOG_FUNCTION(this);
}

FabricDeadlockMonitor::~FabricDeadlockMonitor()
{
    NS_LOG_FUNCTION(this);
}

void
FabricDeadlockMonitor::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_event.Cancel();
    SetIdleHooks(false);
    m_switches.clear();
    Object::DoDispose();
}

void
FabricDeadlockMonitor::AddSwitch(Ptr<FabricSwitch> sw, const std::string& name)
{
    NS_LOG_FUNCTION(this << sw << name);
    NS_ABORT_MSG_IF(!sw, "FabricDeadlockMonitor::AddSwitch: null switch");
    m_switches.push_back(Watched{sw, name, {}});
    if (m_armed || m_deadlocked)
    {
        return;
    }
    sw->SetIdleMonitor(this);
    // A switch that already holds units (added during a run) arms the monitor now.
    for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
    {
        if (sw->GetOutputQueue(p)->GetUnits() > 0)
        {
            Arm();
            return;
        }
    }
}

void
FabricDeadlockMonitor::SetIdleHooks(bool idle)
{
    for (auto& w : m_switches)
    {
        w.sw->SetIdleMonitor(idle ? this : nullptr);
    }
}

void
FabricDeadlockMonitor::Arm()
{
    if (m_armed || m_deadlocked)
    {
        return;
    }
    NS_LOG_FUNCTION(this);
    m_armed = true;
    SetIdleHooks(false);
    for (auto& w : m_switches)
    {
        w.ports.assign(w.sw->GetNPorts(), PortState());
    }
    m_event = Simulator::Schedule(m_interval, &FabricDeadlockMonitor::Check, this);
}

void
FabricDeadlockMonitor::Check()
{
    NS_LOG_FUNCTION(this);
    ++m_checks;
    const Time now = Simulator::Now();
    std::vector<PortRef> stuck;
    uint32_t queuedPorts = 0;
    for (uint32_t s = 0; s < m_switches.size(); ++s)
    {
        Watched& w = m_switches[s];
        const uint32_t n = w.sw->GetNPorts();
        if (w.ports.size() < n)
        {
            w.ports.resize(n);
        }
        for (uint32_t p = 0; p < n; ++p)
        {
            const Ptr<FabricOutputQueue> q = w.sw->GetOutputQueue(p);
            PortState& st = w.ports[p];
            const uint64_t dequeued = q->GetDequeuedUnits();
            if (q->GetUnits() == 0)
            {
                st.idle = true;
                st.dequeued = dequeued;
                continue;
            }
            ++queuedPorts;
            if (st.idle || dequeued != st.dequeued)
            {
                // Empty at the last check (its units arrived since), or it transmitted since:
                // at most this check's interval without progress so far.
                st.idle = false;
                st.dequeued = dequeued;
                st.since = now;
                continue;
            }
            if (now - st.since >= m_timeout)
            {
                stuck.emplace_back(s, p);
            }
        }
    }
    if (queuedPorts == 0)
    {
        // Every watched queue is empty: go idle until the next unit arrives.
        NS_LOG_LOGIC("idle at " << now.As(Time::US));
        m_armed = false;
        SetIdleHooks(true);
        return;
    }
    if (!stuck.empty() && Analyse(stuck, stuck.size() == queuedPorts))
    {
        return;
    }
    m_event = Simulator::Schedule(m_interval, &FabricDeadlockMonitor::Check, this);
}

bool
FabricDeadlockMonitor::Analyse(const std::vector<PortRef>& stuck, bool all)
{
    NS_LOG_FUNCTION(this << stuck.size() << all);
    std::vector<uint32_t> cycle = FindCycle(WaitForGraph(stuck));
    if (cycle.empty() && !all)
    {
        return false; // some ports still move: the stuck ones may yet be released
    }
    // Start the cycle at its first port in watch order (the smallest vertex).
    std::rotate(cycle.begin(), std::min_element(cycle.begin(), cycle.end()), cycle.end());

    const Time now = Simulator::Now();
    m_report = Report(stuck, cycle, now);
    m_deadlocked = true;
    m_armed = false;
    m_detectedAt = now;
    NS_LOG_WARN(m_report);
    m_deadlockTrace(m_report);
    Simulator::Stop();
    return true;
}

std::vector<std::vector<uint32_t>>
FabricDeadlockMonitor::WaitForGraph(const std::vector<PortRef>& stuck) const
{
    // Vertices: the stuck ports, numbered in (switch, port) order.
    std::vector<std::vector<int32_t>> vertexOf(m_switches.size());
    for (uint32_t s = 0; s < m_switches.size(); ++s)
    {
        vertexOf[s].assign(m_switches[s].sw->GetNPorts(), -1);
    }
    for (uint32_t v = 0; v < stuck.size(); ++v)
    {
        vertexOf[stuck[v].first][stuck[v].second] = v;
    }
    std::unordered_map<const Node*, uint32_t> switchOfNode;
    for (uint32_t s = 0; s < m_switches.size(); ++s)
    {
        const Ptr<FabricSwitch>& sw = m_switches[s].sw;
        if (sw->GetNPorts() > 0)
        {
            switchOfNode[PeekPointer(sw->GetPort(0)->GetNode())] = s;
        }
    }

    // Edges: (S, o) -> (N, o') when N's egress o' holds units of a class that (S, o) holds and
    // that arrived on the port j of N facing (S, o).
    std::vector<std::vector<uint32_t>> next(stuck.size());
    for (uint32_t v = 0; v < stuck.size(); ++v)
    {
        const auto [s, o] = stuck[v];
        const Ptr<FabricNetDevice> dev = m_switches[s].sw->GetPort(o);
        const Ptr<FabricChannel> ch = dev->GetFabricChannel();
        const Ptr<FabricNetDevice> peer = ch ? ch->GetPeer(dev) : nullptr;
        if (!peer)
        {
            continue;
        }
        const auto it = switchOfNode.find(PeekPointer(peer->GetNode()));
        if (it == switchOfNode.end())
        {
            continue; // the peer is an endpoint or an unwatched switch
        }
        const uint32_t n = it->second;
        const uint32_t j = peer->GetPortIndex();
        const Ptr<FabricOutputQueue> q = m_switches[s].sw->GetOutputQueue(o);
        const Ptr<FabricSwitch>& nsw = m_switches[n].sw;
        for (uint32_t o2 = 0; o2 < nsw->GetNPorts(); ++o2)
        {
            const int32_t w = vertexOf[n][o2];
            if (w < 0)
            {
                continue;
            }
            const Ptr<FabricOutputQueue> q2 = nsw->GetOutputQueue(o2);
            for (uint32_t c = 0; c < q->GetNClasses(); ++c)
            {
                if (q->GetClassBytes(c) > 0 && q2->HasUnitsFrom(c, j))
                {
                    next[v].push_back(w);
                    break;
                }
            }
        }
    }
    return next;
}

std::string
FabricDeadlockMonitor::Report(const std::vector<PortRef>& stuck,
                              const std::vector<uint32_t>& cycle,
                              Time now)
{
    std::ostringstream os;
    if (!cycle.empty())
    {
        os << "deadlock at " << now.As(Time::US) << ": " << cycle.size()
           << " switch egress ports in a cycle have made no progress for at least "
           << m_timeout.As(Time::US)
           << ", each waiting for the next to drain its peer's ingress buffer: ";
        for (uint32_t v : cycle)
        {
            m_cycle.push_back(PortName(stuck[v]));
            os << Describe(stuck[v]) << " -> ";
        }
        os << m_cycle.front();
    }
    else
    {
        os << "stall at " << now.As(Time::US)
           << ": no switch egress port that holds units has made progress for at least "
           << m_timeout.As(Time::US) << ", and they wait for no cycle of each other";
    }
    // The other stuck ports (waiting on the cycle, or all of them in a stall), the first 16.
    std::vector<uint32_t> others;
    for (uint32_t v = 0; v < stuck.size(); ++v)
    {
        if (std::find(cycle.begin(), cycle.end(), v) == cycle.end())
        {
            others.push_back(v);
        }
    }
    if (!others.empty())
    {
        os << "; " << others.size() << (cycle.empty() ? "" : " other") << " stuck port(s):";
        const std::size_t shown = std::min<std::size_t>(others.size(), 16);
        for (std::size_t i = 0; i < shown; ++i)
        {
            os << (i ? ", " : " ") << Describe(stuck[others[i]]);
        }
        if (shown < others.size())
        {
            os << ", ... (" << others.size() - shown << " more)";
        }
    }
    return os.str();
}

std::string
FabricDeadlockMonitor::PortName(const PortRef& p) const
{
    const Watched& w = m_switches[p.first];
    return GetPortName(w.sw->GetPort(p.second), w.name);
}

std::string
FabricDeadlockMonitor::Describe(const PortRef& p) const
{
    const Ptr<FabricOutputQueue> q = m_switches[p.first].sw->GetOutputQueue(p.second);
    std::ostringstream os;
    os << PortName(p) << " (" << q->GetUnits() << " units, " << q->GetBytes() << " B queued)";
    return os.str();
}

std::string
FabricDeadlockMonitor::GetPortName(const Ptr<FabricNetDevice>& port, const std::string& nodeName)
{
    std::string node = nodeName;
    const Ptr<Node> n = port->GetNode();
    if (node.empty() && n)
    {
        node = Names::FindName(n);
        if (node.empty())
        {
            node = "node" + std::to_string(n->GetId());
        }
    }
    return node + ":port" + std::to_string(port->GetPortIndex());
}

} // namespace ns3
