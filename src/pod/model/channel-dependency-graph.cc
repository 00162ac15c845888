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

    /**
     * The switches' ports and switch-to-switch channels, flat: port (s, p) is portBase[s] + p;
     * a switch-to-switch port has a local index among its switch's switch-facing ports, and its
     * channel is chanBase[s] + local.
     */
    struct Channels
    {
        std::vector<uint32_t> portBase;   //!< first flat port of each switch (and the total)
        std::vector<uint32_t> peerSw;     //!< per port: the switch at the other end, or NONE
        std::vector<uint32_t> peerPort;   //!< per port: the port at the other end, or NONE
        std::vector<uint32_t> local;      //!< per port: its local index, or NONE
        std::vector<uint32_t> nLocal;     //!< per switch: its switch-facing ports
        std::vector<uint32_t> chanBase;   //!< first channel of each switch (and the total)
        std::vector<uint32_t> sources;    //!< switches with a port to an endpoint
        std::vector<uint32_t> inChannel;  //!< per channel slot of a switch: the channel arriving
        std::vector<uint32_t> chanSwitch; //!< per channel: its transmitting switch
        std::vector<uint32_t> chanPort;   //!< per channel: its transmitting port
    };

    /// Per switch n: bits (input local index x output local index) of its dependencies.
    typedef std::vector<std::vector<uint64_t>> DependencyBits;

    /// The strongly connected components of the graph.
    struct Components
    {
        std::vector<uint32_t> comp; //!< per channel: its component
        std::vector<bool> cyclic;   //!< per component: it holds a cycle
    };

    /**
     * Step 1: number the ports and channels, find each port's peer and the source switches;
     * sets #channels.
     * \return the numbering
     */
    Channels IndexChannels();

    /**
     * Step 2: the dependencies, destination by destination.
     * \param x the numbering
     * \return the dependency bits of each switch
     */
    DependencyBits RecordDependencies(const Channels& x) const;

    /**
     * Step 3: the Boost graph of the dependencies; counts #dependencies.
     * \param x the numbering
     * \param bits the dependency bits of each switch
     * \param selfLoop set per channel: it depends on itself
     * \return the graph
     */
    DependencyGraph MakeGraph(const Channels& x,
                              const DependencyBits& bits,
                              std::vector<bool>& selfLoop);

    /**
     * Step 4: the strongly connected components and those with a cycle; counts
     * #cyclicComponents and #cyclicChannels.
     * \param g the graph
     * \param selfLoop per channel: it depends on itself
     * \return the components
     */
    Components FindComponents(const DependencyGraph& g, const std::vector<bool>& selfLoop);

    /**
     * Step 5: a shortest cycle through the first cyclic channel, named into #cycle.
     * \param x the numbering
     * \param g the graph
     * \param k its components
     */
    void FindCycle(const Channels& x, const DependencyGraph& g, const Components& k);

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
    m.channels = 0;
    m.dependencies = 0;
    m.cyclicComponents = 0;
    m.cyclicChannels = 0;
    m.cycle.clear();
    const Impl::Channels x = m.IndexChannels();
    const Impl::DependencyBits bits = m.RecordDependencies(x);
    std::vector<bool> selfLoop(m.channels, false);
    const DependencyGraph g = m.MakeGraph(x, bits, selfLoop);
    const Impl::Components k = m.FindComponents(g, selfLoop);
    m.FindCycle(x, g, k);
    NS_LOG_INFO(m.channels << " channels, " << m.dependencies << " dependencies, "
                           << m.cyclicComponents << " cyclic components");
}

ChannelDependencyGraph::Impl::Channels
ChannelDependencyGraph::Impl::IndexChannels()
{
    // Ports, flat: port (s, p) is portBase[s] + p. For each, the switch and port at the other
    // end (NONE: an endpoint, an unwatched node or no link) and, for a switch-to-switch port,
    // its local index among the switch's switch-facing ports (its channel is chanBase[s] +
    // local).
    const uint32_t nsw = switches.size();
    std::unordered_map<const Node*, uint32_t> switchOfNode;
    for (uint32_t s = 0; s < nsw; ++s)
    {
        const Ptr<FabricSwitch>& sw = switches[s].sw;
        if (sw->GetNPorts() > 0)
        {
            switchOfNode[PeekPointer(sw->GetPort(0)->GetNode())] = s;
        }
    }
    Channels x;
    x.portBase.assign(nsw + 1, 0);
    for (uint32_t s = 0; s < nsw; ++s)
    {
        x.portBase[s + 1] = x.portBase[s] + switches[s].sw->GetNPorts();
    }
    const uint32_t nports = x.portBase[nsw];
    x.peerSw.assign(nports, NONE);
    x.peerPort.assign(nports, NONE);
    x.local.assign(nports, NONE);
    x.nLocal.assign(nsw, 0);
    x.chanBase.assign(nsw + 1, 0);
    for (uint32_t s = 0; s < nsw; ++s)
    {
        const Ptr<FabricSwitch>& sw = switches[s].sw;
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
            x.peerSw[x.portBase[s] + p] = it->second;
            x.peerPort[x.portBase[s] + p] = peer->GetPortIndex();
            x.local[x.portBase[s] + p] = x.nLocal[s]++;
        }
        x.chanBase[s + 1] = x.chanBase[s] + x.nLocal[s];
        if (source)
        {
            x.sources.push_back(s);
        }
    }
    channels = x.chanBase[nsw];
    // The channel that arrives at switch n on its switch-facing port of local index a.
    x.inChannel.assign(channels, NONE);
    x.chanSwitch.resize(channels);
    x.chanPort.resize(channels);
    for (uint32_t s = 0; s < nsw; ++s)
    {
        for (uint32_t p = 0; p < x.portBase[s + 1] - x.portBase[s]; ++p)
        {
            const uint32_t i = x.portBase[s] + p;
            if (x.local[i] == NONE)
            {
                continue;
            }
            const uint32_t c = x.chanBase[s] + x.local[i];
            x.chanSwitch[c] = s;
            x.chanPort[c] = p;
            const uint32_t n = x.peerSw[i];
            x.inChannel[x.chanBase[n] + x.local[x.portBase[n] + x.peerPort[i]]] = c;
        }
    }
    return x;
}

ChannelDependencyGraph::Impl::DependencyBits
ChannelDependencyGraph::Impl::RecordDependencies(const Channels& x) const
{
    // Destination by destination: the switches the destination reaches from the sources, and
    // for each switch-to-switch hop (s, p) -> n the switch-to-switch ports of n's group toward
    // it. Recorded per switch n as bits (input local index x output local index), which
    // deduplicates them across destinations.
    const uint32_t nsw = switches.size();
    std::vector<Ptr<FabricRoutingTable>> tables(nsw);
    uint32_t ndst = 0;
    for (uint32_t s = 0; s < nsw; ++s)
    {
        tables[s] = switches[s].sw->GetRoutingTable();
        ndst = std::max(ndst, tables[s]->GetNDestinations());
    }
    DependencyBits bits(nsw);
    for (uint32_t n = 0; n < nsw; ++n)
    {
        const uint64_t l = x.nLocal[n];
        bits[n].assign((l * l + 63) / 64, 0);
    }
    if (channels == 0)
    {
        return bits;
    }
    std::vector<uint32_t> stamp(nsw, 0);
    std::vector<uint32_t> reached;
    reached.reserve(nsw);
    for (uint32_t d = 0; d < ndst; ++d)
    {
        const uint32_t mark = d + 1;
        reached.clear();
        for (uint32_t s : x.sources)
        {
            stamp[s] = mark;
            reached.push_back(s);
        }
        for (std::size_t i = 0; i < reached.size(); ++i)
        {
            const uint32_t s = reached[i];
            const uint32_t np = x.portBase[s + 1] - x.portBase[s];
            for (uint32_t p : tables[s]->GetPortGroup(d))
            {
                if (p >= np || x.local[x.portBase[s] + p] == NONE)
                {
                    continue; // toward an endpoint (or a port that does not exist)
                }
                const uint32_t n = x.peerSw[x.portBase[s] + p];
                if (stamp[n] != mark)
                {
                    stamp[n] = mark;
                    reached.push_back(n);
                }
                const uint64_t l = x.nLocal[n];
                const uint64_t in = x.local[x.portBase[n] + x.peerPort[x.portBase[s] + p]];
                const uint32_t nn = x.portBase[n + 1] - x.portBase[n];
                for (uint32_t p2 : tables[n]->GetPortGroup(d))
                {
                    if (p2 >= nn || x.local[x.portBase[n] + p2] == NONE)
                    {
                        continue;
                    }
                    const uint64_t bit = in * l + x.local[x.portBase[n] + p2];
                    bits[n][bit / 64] |= uint64_t(1) << (bit % 64);
                }
            }
        }
    }
    return bits;
}

DependencyGraph
ChannelDependencyGraph::Impl::MakeGraph(const Channels& x,
                                        const DependencyBits& bits,
                                        std::vector<bool>& selfLoop)
{
    DependencyGraph g(channels);
    for (uint32_t n = 0; n < switches.size(); ++n)
    {
        const uint64_t l = x.nLocal[n];
        for (std::size_t w = 0; w < bits[n].size(); ++w)
        {
            for (uint64_t word = bits[n][w]; word != 0; word &= word - 1)
            {
                const uint64_t bit = w * 64 + __builtin_ctzll(word);
                const uint32_t from = x.inChannel[x.chanBase[n] + bit / l];
                const uint32_t to = x.chanBase[n] + bit % l;
                boost::add_edge(from, to, g);
                selfLoop[from] = selfLoop[from] || from == to;
                ++dependencies;
            }
        }
    }
    return g;
}

ChannelDependencyGraph::Impl::Components
ChannelDependencyGraph::Impl::FindComponents(const DependencyGraph& g,
                                             const std::vector<bool>& selfLoop)
{
    Components k;
    k.comp.resize(channels);
    const uint32_t ncomp =
        channels == 0 ? 0
                      : boost::strong_components(
                            g,
                            boost::make_iterator_property_map(k.comp.begin(),
                                                              boost::get(boost::vertex_index, g)));
    std::vector<uint32_t> compSize(ncomp, 0);
    for (uint32_t c = 0; c < channels; ++c)
    {
        ++compSize[k.comp[c]];
    }
    k.cyclic.assign(ncomp, false);
    for (uint32_t c = 0; c < channels; ++c)
    {
        k.cyclic[k.comp[c]] = k.cyclic[k.comp[c]] || compSize[k.comp[c]] > 1 || selfLoop[c];
    }
    for (uint32_t i = 0; i < ncomp; ++i)
    {
        if (k.cyclic[i])
        {
            ++cyclicComponents;
            cyclicChannels += compSize[i];
        }
    }
    return k;
}

void
ChannelDependencyGraph::Impl::FindCycle(const Channels& x,
                                        const DependencyGraph& g,
                                        const Components& k)
{
    uint32_t first = NONE;
    for (uint32_t c = 0; c < channels && first == NONE; ++c)
    {
        if (k.cyclic[k.comp[c]])
        {
            first = c;
        }
    }
    if (first == NONE)
    {
        return;
    }
    // Breadth-first search from the first cyclic channel within its component: the first edge
    // back to it closes a shortest cycle through it.
    std::vector<uint32_t> parent(channels, NONE);
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
            if (k.comp[v] == k.comp[first] && parent[v] == NONE)
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
        const Switch& s = switches[x.chanSwitch[*it]];
        cycle.push_back(FabricDeadlockMonitor::GetPortName(s.sw->GetPort(x.chanPort[*it]), s.name));
    }
}

} // namespace ns3
