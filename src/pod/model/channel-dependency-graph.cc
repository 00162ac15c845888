/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "channel-dependency-graph.h"

#include "pod-topology.h"

#include "ns3/abort.h"
#include "ns3/fabric-channel.h"
#include "ns3/fabric-deadlock-monitor.h"
#include "ns3/log.h"
#include "ns3/node.h"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/strong_components.hpp>
#include <deque>
#include <limits>
#include <unordered_map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ChannelDependencyGraph");

namespace
{

/// The graph: vertices are channels, numbered in (switch, port) order.
typedef boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS> DependencyGraph;

constexpr uint32_t NONE = std::numeric_limits<uint32_t>::max(); //!< no switch, no channel

} // namespace

struct ChannelDependencyGraph::Impl
{
    /// One switch of the set.
    struct Switch
    {
        Ptr<FabricSwitch> sw; //!< the switch
        std::string name;     //!< name for reports ("" for the default)
    };

    std::vector<Switch> switches;   //!< the set, in AddSwitch order
    uint32_t channels{0};           //!< vertices
    uint64_t dependencies{0};       //!< edges
    uint32_t cyclicComponents{0};   //!< components with a cycle
    uint32_t cyclicChannels{0};     //!< channels in them
    std::vector<std::string> cycle; //!< one cycle, named
};

ChannelDependencyGraph::ChannelDependencyGraph()
    : m_impl(std::make_unique<Impl>())
{
}

ChannelDependencyGraph::~ChannelDependencyGraph() = default;

void
ChannelDependencyGraph::AddSwitch(Ptr<FabricSwitch> sw, const std::string& name)
{
    NS_ABORT_MSG_IF(!sw, "ChannelDependencyGraph::AddSwitch: null switch");
    m_impl->switches.push_back(Impl::Switch{sw, name});
}

void
ChannelDependencyGraph::AddSwitches(const PodTopology& topo)
{
    const auto& all = topo.GetSwitches();
    for (uint32_t k = 0; k < all.size(); ++k)
    {
        AddSwitch(all[k], topo.GetSwitchName(k));
    }
}

uint32_t
ChannelDependencyGraph::GetNChannels() const
{
    return m_impl->channels;
}

uint64_t
ChannelDependencyGraph::GetNDependencies() const
{
    return m_impl->dependencies;
}

uint32_t
ChannelDependencyGraph::GetNCyclicComponents() const
{
    return m_impl->cyclicComponents;
}

uint32_t
ChannelDependencyGraph::GetNCyclicChannels() const
{
    return m_impl->cyclicChannels;
}

const std::vector<std::string>&
ChannelDependencyGraph::GetCycle() const
{
    return m_impl->cycle;
}

void
ChannelDependencyGraph::Build()
{
    Impl& m = *m_impl;
    const uint32_t nsw = m.switches.size();
    m.channels = 0;
    m.dependencies = 0;
    m.cyclicComponents = 0;
    m.cyclicChannels = 0;
    m.cycle.clear();

    // 1. Ports, flat: port (s, p) is portBase[s] + p. For each, the switch and port at the
    // other end (NONE: an endpoint, an unwatched node or no link) and, for a switch-to-switch
    // port, its local index among the switch's switch-facing ports (its channel is
    // chanBase[s] + local).
    std::unordered_map<const Node*, uint32_t> switchOfNode;
    for (uint32_t s = 0; s < nsw; ++s)
    {
        const Ptr<FabricSwitch>& sw = m.switches[s].sw;
        if (sw->GetNPorts() > 0)
        {
            switchOfNode[PeekPointer(sw->GetPort(0)->GetNode())] = s;
        }
    }
    std::vector<uint32_t> portBase(nsw + 1, 0);
    for (uint32_t s = 0; s < nsw; ++s)
    {
        portBase[s + 1] = portBase[s] + m.switches[s].sw->GetNPorts();
    }
    const uint32_t nports = portBase[nsw];
    std::vector<uint32_t> peerSw(nports, NONE);
    std::vector<uint32_t> peerPort(nports, NONE);
    std::vector<uint32_t> local(nports, NONE);
    std::vector<uint32_t> nLocal(nsw, 0);
    std::vector<uint32_t> chanBase(nsw + 1, 0);
    std::vector<uint32_t> sources;
    for (uint32_t s = 0; s < nsw; ++s)
    {
        const Ptr<FabricSwitch>& sw = m.switches[s].sw;
        bool source = false;
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            const Ptr<FabricNetDevice> dev = sw->GetPort(p);
            const Ptr<FabricChannel> ch = dev->GetFabricChannel();
            const Ptr<FabricNetDevice> peer = ch ? ch->GetPeer(dev) : nullptr;
            if (!peer)
            {
                continue;
            }
            const auto it = switchOfNode.find(PeekPointer(peer->GetNode()));
            if (it == switchOfNode.end())
            {
                source = true; // traffic can enter here
                continue;
            }
            peerSw[portBase[s] + p] = it->second;
            peerPort[portBase[s] + p] = peer->GetPortIndex();
            local[portBase[s] + p] = nLocal[s]++;
        }
        chanBase[s + 1] = chanBase[s] + nLocal[s];
        if (source)
        {
            sources.push_back(s);
        }
    }
    m.channels = chanBase[nsw];
    // The channel that arrives at switch n on its switch-facing port of local index a.
    std::vector<uint32_t> inChannel(m.channels, NONE);
    std::vector<uint32_t> chanSwitch(m.channels);
    std::vector<uint32_t> chanPort(m.channels);
    for (uint32_t s = 0; s < nsw; ++s)
    {
        for (uint32_t p = 0; p < portBase[s + 1] - portBase[s]; ++p)
        {
            const uint32_t i = portBase[s] + p;
            if (local[i] == NONE)
            {
                continue;
            }
            const uint32_t c = chanBase[s] + local[i];
            chanSwitch[c] = s;
            chanPort[c] = p;
            const uint32_t n = peerSw[i];
            inChannel[chanBase[n] + local[portBase[n] + peerPort[i]]] = c;
        }
    }

    // 2. Dependencies, destination by destination: the switches the destination reaches from
    // the sources, and for each switch-to-switch hop (s, p) -> n the switch-to-switch ports of
    // n's group toward it. Recorded per switch n as bits (input local index x output local
    // index), which deduplicates them across destinations.
    std::vector<Ptr<FabricRoutingTable>> tables(nsw);
    uint32_t ndst = 0;
    for (uint32_t s = 0; s < nsw; ++s)
    {
        tables[s] = m.switches[s].sw->GetRoutingTable();
        ndst = std::max(ndst, tables[s]->GetNDestinations());
    }
    std::vector<std::vector<uint64_t>> bits(nsw);
    for (uint32_t n = 0; n < nsw; ++n)
    {
        const uint64_t l = nLocal[n];
        bits[n].assign((l * l + 63) / 64, 0);
    }
    std::vector<uint32_t> stamp(nsw, 0);
    std::vector<uint32_t> reached;
    reached.reserve(nsw);
    if (m.channels > 0)
    {
        for (uint32_t d = 0; d < ndst; ++d)
        {
            const uint32_t mark = d + 1;
            reached.clear();
            for (uint32_t s : sources)
            {
                stamp[s] = mark;
                reached.push_back(s);
            }
            for (std::size_t i = 0; i < reached.size(); ++i)
            {
                const uint32_t s = reached[i];
                const uint32_t np = portBase[s + 1] - portBase[s];
                for (uint32_t p : tables[s]->GetPortGroup(d))
                {
                    if (p >= np || local[portBase[s] + p] == NONE)
                    {
                        continue; // toward an endpoint (or a port that does not exist)
                    }
                    const uint32_t n = peerSw[portBase[s] + p];
                    if (stamp[n] != mark)
                    {
                        stamp[n] = mark;
                        reached.push_back(n);
                    }
                    const uint64_t l = nLocal[n];
                    const uint64_t in = local[portBase[n] + peerPort[portBase[s] + p]];
                    const uint32_t nn = portBase[n + 1] - portBase[n];
                    for (uint32_t p2 : tables[n]->GetPortGroup(d))
                    {
                        if (p2 >= nn || local[portBase[n] + p2] == NONE)
                        {
                            continue;
                        }
                        const uint64_t bit = in * l + local[portBase[n] + p2];
                        bits[n][bit / 64] |= uint64_t(1) << (bit % 64);
                    }
                }
            }
        }
    }

    // 3. The Boost graph, its strongly connected components, and a cycle.
    DependencyGraph g(m.channels);
    std::vector<bool> selfLoop(m.channels, false);
    for (uint32_t n = 0; n < nsw; ++n)
    {
        const uint64_t l = nLocal[n];
        for (std::size_t w = 0; w < bits[n].size(); ++w)
        {
            for (uint64_t word = bits[n][w]; word != 0; word &= word - 1)
            {
                const uint64_t bit = w * 64 + __builtin_ctzll(word);
                const uint32_t from = inChannel[chanBase[n] + bit / l];
                const uint32_t to = chanBase[n] + bit % l;
                boost::add_edge(from, to, g);
                selfLoop[from] = selfLoop[from] || from == to;
                ++m.dependencies;
            }
        }
    }
    std::vector<uint32_t> comp(m.channels);
    const uint32_t ncomp = m.channels == 0
                               ? 0
                               : boost::strong_components(g,
                                                          boost::make_iterator_property_map(
                                                              comp.begin(),
                                                              boost::get(boost::vertex_index, g)));
    std::vector<uint32_t> compSize(ncomp, 0);
    for (uint32_t c = 0; c < m.channels; ++c)
    {
        ++compSize[comp[c]];
    }
    std::vector<bool> cyclic(ncomp, false);
    for (uint32_t c = 0; c < m.channels; ++c)
    {
        cyclic[comp[c]] = cyclic[comp[c]] || compSize[comp[c]] > 1 || selfLoop[c];
    }
    for (uint32_t k = 0; k < ncomp; ++k)
    {
        if (cyclic[k])
        {
            ++m.cyclicComponents;
            m.cyclicChannels += compSize[k];
        }
    }
    uint32_t first = NONE;
    for (uint32_t c = 0; c < m.channels && first == NONE; ++c)
    {
        if (cyclic[comp[c]])
        {
            first = c;
        }
    }
    if (first != NONE)
    {
        // Breadth-first search from the first cyclic channel within its component: the first
        // edge back to it closes a shortest cycle through it.
        std::vector<uint32_t> parent(m.channels, NONE);
        std::deque<uint32_t> queue{first};
        parent[first] = first;
        uint32_t last = NONE;
        while (!queue.empty() && last == NONE)
        {
            const uint32_t u = queue.front();
            queue.pop_front();
            for (auto [e, eEnd] = boost::out_edges(u, g); e != eEnd; ++e)
            {
                const uint32_t v = boost::target(*e, g);
                if (v == first)
                {
                    last = u;
                    break;
                }
                if (comp[v] == comp[first] && parent[v] == NONE)
                {
                    parent[v] = u;
                    queue.push_back(v);
                }
            }
        }
        NS_ASSERT_MSG(last != NONE, "a cyclic component without a cycle");
        std::vector<uint32_t> path;
        for (uint32_t v = last; v != first; v = parent[v])
        {
            path.push_back(v);
        }
        path.push_back(first);
        for (auto it = path.rbegin(); it != path.rend(); ++it)
        {
            const Impl::Switch& s = m.switches[chanSwitch[*it]];
            m.cycle.push_back(
                FabricDeadlockMonitor::GetPortName(s.sw->GetPort(chanPort[*it]), s.name));
        }
    }
    NS_LOG_INFO(m.channels << " channels, " << m.dependencies << " dependencies, "
                           << m.cyclicComponents << " cyclic components");
}

} // namespace ns3
