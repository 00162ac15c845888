/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pod-topology.h"

#include "pod-plugins.h"
#include "pod-switch-count.h"

#include "ns3/abort.h"
#include "ns3/fabric-channel.h"
#include "ns3/fabric-routing-table.h"
#include "ns3/log.h"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/visitors.hpp>
#include <limits>
#include <map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PodTopology");

namespace
{

/// Vertex of the plane graph.
struct VertexProps
{
    bool isSwitch{false}; //!< switch or accelerator
    uint32_t index{0};    //!< accelerator id, or switch index within the plane
    std::string name;     //!< name without the plane prefix
};

/// Edge of the plane graph: its two ends and the port each end uses. The ends are stored
/// because an undirected graph reports either end as the source, depending on the traversal.
struct EdgeProps
{
    std::size_t a{0};  //!< first end
    std::size_t b{0};  //!< second end
    uint32_t portA{0}; //!< port index at a
    uint32_t portB{0}; //!< port index at b

    /// \return the port used at vertex v, an end of this edge
    uint32_t PortAt(std::size_t v) const
    {
        return v == a ? portA : portB;
    }
};

typedef boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, VertexProps, EdgeProps>
    PlaneGraph;
typedef boost::graph_traits<PlaneGraph>::vertex_descriptor Vertex;

} // namespace

struct PodTopology::Impl
{
    Scenario::Pod pod;               //!< the scenario's pod
    const FabricKind* kind{nullptr}; //!< its fabric kind
    PlaneGraph graph;                //!< one plane (all planes are identical)
    bool twoTier{false};             //!< leaf-spine
    FabricPod built;                 //!< the pod the kind built
    uint32_t ranks{1};               //!< ranks of a distributed run (SetPartition)
    std::string remoteChannelType;   //!< channel type between ranks (SetPartition)
    std::vector<uint32_t> accRank;   //!< rank of each accelerator (Build, with a partition)

    Vertex AccVertex(uint32_t i) const
    {
        return i;
    }

    Vertex SwitchVertex(uint32_t k) const
    {
        return pod.accelerators + k;
    }

    std::vector<uint32_t> nextPort; //!< the next port of each vertex (AddEdge)
    uint32_t tiers{0};              //!< switch tiers of the plane laid out
    BuildMonitor monitor;           //!< told how the build goes (SetBuildMonitor)

    /**
     * Tell the monitor, if any.
     * \param step the step
     * \param done its units done
     * \param total its units
     */
    void Report(const std::string& step, uint64_t done, uint64_t total) const
    {
        if (monitor)
        {
            monitor(step, done, total);
        }
    }

    /**
     * Add a vertex to the plane graph.
     * \param isSwitch a switch, or an accelerator
     * \param index its index (accelerator id, or switch index in the plane)
     * \param name its name
     * \return the vertex
     */
    Vertex AddVertex(bool isSwitch, uint32_t index, const std::string& name)
    {
        Vertex v = boost::add_vertex(VertexProps{isSwitch, index, name}, graph);
        nextPort.push_back(0);
        return v;
    }

    /**
     * Link two vertices; each end takes its next port.
     * \param a an end
     * \param b the other end
     */
    void AddEdge(Vertex a, Vertex b)
    {
        boost::add_edge(a, b, EdgeProps{a, b, nextPort[a]++, nextPort[b]++}, graph);
    }

    /**
     * Lay out one plane: the accelerators, then one switch, a leaf-spine or a three-tier folded
     * Clos (or none, for a mesh). Ports are numbered per vertex in edge order.
     * \param pod the pod
     * \return switches per plane
     */
    uint32_t LayOut(const Scenario::Pod& pod);

    /**
     * Lay out the switches of a three-tier plane and link them.
     * \param n accelerators
     * \param r radix
     * \param leaves leaves
     * \param spines spines per block
     * \param down accelerators per leaf
     * \return switches per plane
     */
    uint32_t LayOutThreeTier(uint32_t n,
                             uint32_t r,
                             uint32_t leaves,
                             uint32_t spines,
                             uint32_t down);

    /**
     * Route the plane laid out: breadth-first search from every destination.
     * \param n accelerators
     * \param perPlane switches per plane
     * \return routes[switch][destination]: the equal-cost egress ports
     */
    std::vector<FabricPlanePlan::SwitchRoutes> Route(uint32_t n, uint32_t perPlane) const;

    /**
     * Give every accelerator a rank of a distributed run (SetPartition).
     * \param pod the pod
     * \param perPlane switches per plane
     */
    void Partition(const Scenario::Pod& pod, uint32_t perPlane);
};

PodTopology::PodTopology()
    : m_impl(std::make_unique<Impl>())
{
}

PodTopology::~PodTopology() = default;

void
PodTopology::SetPartition(uint32_t ranks, std::string remoteChannelType)
{
    NS_ABORT_MSG_IF(ranks == 0, "a distributed run needs at least one rank");
    m_impl->ranks = ranks;
    m_impl->remoteChannelType = remoteChannelType;
}

uint32_t
PodTopology::SwitchRank(uint32_t plane,
                        uint32_t k,
                        uint32_t perPlane,
                        uint32_t planes,
                        uint32_t ranks)
{
    if (planes >= ranks)
    {
        return plane % ranks; // whole planes: no link between two switches crosses ranks
    }
    // Fewer planes than ranks: each plane spreads over its share of the ranks.
    const uint32_t first = static_cast<uint32_t>(static_cast<uint64_t>(plane) * ranks / planes);
    const uint32_t next = static_cast<uint32_t>(static_cast<uint64_t>(plane + 1) * ranks / planes);
    return first + static_cast<uint32_t>(static_cast<uint64_t>(k) * (next - first) / perPlane);
}

std::vector<uint32_t>
PodTopology::BalanceAccelerators(uint32_t n,
                                 uint64_t accEnds,
                                 const std::vector<uint64_t>& switchEnds)
{
    const uint64_t ranks = switchEnds.size();
    NS_ABORT_MSG_IF(ranks == 0, "a partition needs at least one rank");
    // In units of 1/ranks of a link end, so that every quantity is an integer: the mean load is
    // total, a rank's lack is total - ranks * switchEnds[r] (or 0).
    uint64_t total = static_cast<uint64_t>(n) * accEnds;
    for (uint64_t e : switchEnds)
    {
        total += e;
    }
    std::vector<uint64_t> lack(ranks);
    uint64_t sumLack = 0;
    for (uint64_t r = 0; r < ranks; ++r)
    {
        const uint64_t have = ranks * switchEnds[r];
        lack[r] = have < total ? total - have : 0;
        sumLack += lack[r];
    }
    // Accelerator i goes to the first rank r with i < n * (lack[0] + ... + lack[r]) / sumLack.
    std::vector<uint32_t> rank(n, 0);
    uint64_t r = 0;
    unsigned __int128 cum = lack[0];
    for (uint32_t i = 0; i < n; ++i)
    {
        while (r + 1 < ranks && static_cast<unsigned __int128>(i) * sumLack >=
                                    static_cast<unsigned __int128>(n) * cum)
        {
            cum += lack[++r];
        }
        rank[i] = static_cast<uint32_t>(r);
    }
    return rank;
}

uint32_t
PodTopology::GetAcceleratorRank(uint32_t i) const
{
    NS_ASSERT(i < m_impl->pod.accelerators);
    return m_impl->accRank.empty() ? 0 : m_impl->accRank[i];
}

void
PodTopology::Build(const Scenario::Pod& pod)
{
    NS_LOG_FUNCTION(pod.accelerators << pod.planes);
    Impl& m = *m_impl;
    m.pod = pod;
    m.kind = &PodPlugins::GetFabric(pod.fabric);
    m.Report("layout", 0, 1);
    NS_ABORT_MSG_IF(m.ranks > 1 && !m.kind->SupportsDistributed(),
                    "pod.fabric: a distributed run (--ranks) does not support the " << pod.fabric
                                                                                    << " fabric");
    if (!m.kind->UsesPlanePlan())
    {
        // The fabric lays out its own planes (UALink's rails, the cell fabric's planes).
        m.Report("devices", 0, 1);
        m.kind->Build(pod, nullptr, m.built);
        m.Report("devices", 1, 1);
        return;
    }
    const FabricPlanePlan plan = Plan(pod);
    m.Report("devices", 0, 1);
    m.kind->Build(pod, &plan, m.built);
    m.Report("devices", 1, 1);
}

void
PodTopology::SetBuildMonitor(BuildMonitor monitor)
{
    m_impl->monitor = std::move(monitor);
}

uint32_t
PodTopology::Impl::LayOut(const Scenario::Pod& pod)
{
    uint32_t switchesPerPlane = 0;
    const uint32_t n = pod.accelerators;
    const uint32_t r = pod.sw.radix;
    // 1. The plane graph (Boost.Graph). Ports are numbered per vertex in edge order.
    for (uint32_t i = 0; i < n; ++i)
    {
        AddVertex(false, i, "acc" + std::to_string(i));
    }
    if (pod.topology == "mesh")
    {
        // No switches: the links are made below, accelerator to accelerator.
        twoTier = false;
        switchesPerPlane = 0;
    }
    else if (GetPodPlaneShape(pod).tiers == 1)
    {
        twoTier = false;
        tiers = 1;
        switchesPerPlane = 1;
        AddVertex(true, 0, "sw0");
        for (uint32_t i = 0; i < n; ++i)
        {
            AddEdge(AccVertex(i), SwitchVertex(0));
        }
    }
    else
    {
        // k:1 oversubscription: s = floor(r/(k+1)) uplinks per leaf, one to each of s spines,
        // and k*s accelerators per leaf (k = 1: radix/2 and radix/2, full bisection); the counts
        // are GetPodPlaneShape's.
        const uint32_t k = std::max<uint32_t>(1, pod.sw.oversubscription);
        const PodPlaneShape shape = GetPodPlaneShape(pod);
        const uint32_t spines = shape.spines;
        NS_ABORT_MSG_IF(spines == 0, "radix " << r << " has no uplink at " << k << ":1");
        const uint32_t down = k * spines;
        const uint32_t leaves = shape.leaves;
        for (uint32_t l = 0; l < leaves; ++l)
        {
            AddVertex(true, l, "leaf" + std::to_string(l));
        }
        if (shape.tiers == 2)
        {
            // Two tiers: every leaf links to each of the s spines.
            twoTier = true;
            tiers = 2;
            switchesPerPlane = leaves + spines;
            for (uint32_t sp = 0; sp < spines; ++sp)
            {
                AddVertex(true, leaves + sp, "spine" + std::to_string(sp));
            }
            for (uint32_t i = 0; i < n; ++i)
            {
                AddEdge(AccVertex(i), SwitchVertex(i / down));
            }
            for (uint32_t l = 0; l < leaves; ++l)
            {
                for (uint32_t sp = 0; sp < spines; ++sp)
                {
                    AddEdge(SwitchVertex(l), SwitchVertex(leaves + sp));
                }
            }
        }
        else
        {
            switchesPerPlane = LayOutThreeTier(n, r, leaves, spines, down);
        }
    }
    return switchesPerPlane;
}

uint32_t
PodTopology::Impl::LayOutThreeTier(uint32_t n,
                                   uint32_t r,
                                   uint32_t leaves,
                                   uint32_t spines,
                                   uint32_t down)
{
    // Three tiers (a folded Clos, as a fat tree): blocks of h = radix/2 leaves share s
    // spines (spine j of a block links to each of its leaves, once per leaf uplink);
    // a spine's other r - h ports go up to r - h cores of its column j, and core (j, t)
    // links to spine j of every block, so blocks <= radix. Full bisection above the
    // leaves; a route is at most leaf, spine, core, spine, leaf: 5 switch hops.
    const uint32_t h = r / 2;
    const uint32_t up = r - h;
    const uint32_t blocks = (leaves + h - 1) / h;
    NS_ABORT_MSG_IF(h == 0 || blocks > r, "radix " << r << " too small for three tiers of " << n);
    tiers = 3;
    const uint32_t perPlane = leaves + blocks * spines + spines * up;
    const uint32_t spine0 = leaves;
    const uint32_t core0 = leaves + blocks * spines;
    for (uint32_t b = 0; b < blocks; ++b)
    {
        for (uint32_t j = 0; j < spines; ++j)
        {
            const uint32_t idx = b * spines + j;
            AddVertex(true, spine0 + idx, "spine" + std::to_string(idx));
        }
    }
    for (uint32_t j = 0; j < spines; ++j)
    {
        for (uint32_t t = 0; t < up; ++t)
        {
            const uint32_t idx = j * up + t;
            AddVertex(true, core0 + idx, "core" + std::to_string(idx));
        }
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        AddEdge(AccVertex(i), SwitchVertex(i / down));
    }
    for (uint32_t l = 0; l < leaves; ++l)
    {
        for (uint32_t j = 0; j < spines; ++j)
        {
            AddEdge(SwitchVertex(l), SwitchVertex(spine0 + (l / h) * spines + j));
        }
    }
    for (uint32_t j = 0; j < spines; ++j)
    {
        for (uint32_t t = 0; t < up; ++t)
        {
            for (uint32_t b = 0; b < blocks; ++b)
            {
                AddEdge(SwitchVertex(spine0 + b * spines + j), SwitchVertex(core0 + j * up + t));
            }
        }
    }
    return perPlane;
}

std::vector<FabricPlanePlan::SwitchRoutes>
PodTopology::Impl::Route(uint32_t n, uint32_t perPlane) const
{
    // 2. Routes: breadth-first search from every destination; a switch forwards on every port
    // whose neighbour is one hop closer to it. Each switch keeps its distinct groups once.
    using SwitchRoutes = FabricPlanePlan::SwitchRoutes;
    const uint32_t nv = boost::num_vertices(graph);
    std::vector<SwitchRoutes> routes(perPlane);
    std::vector<std::map<std::vector<uint32_t>, uint32_t>> index(perPlane);
    for (SwitchRoutes& r : routes)
    {
        r.entry.assign(n, SwitchRoutes::SINGLE);
    }
    std::vector<uint32_t> ports;
    std::vector<uint32_t> dist(nv);
    for (uint32_t d = 0; d < n; ++d)
    {
        if (d % 256 == 0 && d > 0)
        {
            Report("routes", d, n);
        }
        std::fill(dist.begin(), dist.end(), std::numeric_limits<uint32_t>::max());
        dist[AccVertex(d)] = 0;
        boost::breadth_first_search(
            graph,
            AccVertex(d),
            boost::visitor(boost::make_bfs_visitor(
                boost::record_distances(dist.data(), boost::on_tree_edge()))));
        for (uint32_t k = 0; k < perPlane; ++k)
        {
            const Vertex sv = SwitchVertex(k);
            ports.clear();
            for (auto [e, eEnd] = boost::out_edges(sv, graph); e != eEnd; ++e)
            {
                const Vertex nb = boost::target(*e, graph);
                // Accelerators never forward: only the destination itself is a next hop.
                if (!graph[nb].isSwitch && nb != AccVertex(d))
                {
                    continue;
                }
                if (dist[nb] + 1 == dist[sv])
                {
                    ports.push_back(graph[*e].PortAt(sv));
                }
            }
            NS_ASSERT_MSG(!ports.empty(), "switch " << k << " has no route to " << d);
            if (ports.size() == 1)
            {
                routes[k].entry[d] = SwitchRoutes::SINGLE | ports[0];
                continue;
            }
            auto [it, added] = index[k].try_emplace(ports, routes[k].groups.size());
            if (added)
            {
                routes[k].groups.push_back(ports);
            }
            routes[k].entry[d] = it->second;
        }
    }
    Report("routes", n, n);
    return routes;
}

void
PodTopology::Impl::Partition(const Scenario::Pod& pod, uint32_t perPlane)
{
    const uint32_t n = pod.accelerators;
    accRank.assign(n, 0);
    if (ranks > 1)
    {
        std::vector<uint64_t> switchEnds(ranks, 0);
        for (uint32_t plane = 0; plane < pod.planes; ++plane)
        {
            for (uint32_t k = 0; k < perPlane; ++k)
            {
                switchEnds[SwitchRank(plane, k, perPlane, pod.planes, ranks)] +=
                    boost::out_degree(SwitchVertex(k), graph);
            }
        }
        const uint64_t accEnds =
            static_cast<uint64_t>(pod.planes) * boost::out_degree(AccVertex(0), graph);
        accRank = BalanceAccelerators(n, accEnds, switchEnds);
    }
}

FabricPlanePlan
PodTopology::Plan(const Scenario::Pod& pod) const
{
    Impl& m = *m_impl;
    FabricPlanePlan plan;
    const uint32_t n = pod.accelerators;
    const uint32_t switchesPerPlane = m.LayOut(pod);
    plan.tiers = m.tiers;
    auto routes = m.Route(n, switchesPerPlane);
    m.Partition(pod, switchesPerPlane);
    const uint32_t nv = boost::num_vertices(m.graph);

    // 3. The plan: the graph as plain vectors, for the kind's builder.
    plan.accelerators = n;
    plan.mesh = pod.topology == "mesh";
    plan.switchesPerPlane = switchesPerPlane;
    for (uint32_t v = 0; v < nv; ++v)
    {
        const VertexProps& vp = m.graph[v];
        plan.vertices.push_back({vp.isSwitch, vp.index, vp.name});
        plan.degree.push_back(static_cast<uint32_t>(boost::out_degree(v, m.graph)));
    }
    for (auto [e, eEnd] = boost::edges(m.graph); e != eEnd; ++e)
    {
        const EdgeProps& ep = m.graph[*e];
        plan.edges.push_back(
            {static_cast<uint32_t>(ep.a), static_cast<uint32_t>(ep.b), ep.portA, ep.portB});
    }
    plan.routes = std::move(routes);
    plan.ranks = m.ranks;
    plan.remoteChannelType = m.remoteChannelType;
    plan.accRank = m.accRank;
    const uint32_t planes = pod.planes;
    const uint32_t ranks = m.ranks;
    plan.switchRank = [switchesPerPlane, planes, ranks](uint32_t plane, uint32_t k) {
        return SwitchRank(plane, k, switchesPerPlane, planes, ranks);
    };
    return plan;
}

uint32_t
PodTopology::GetNAccelerators() const
{
    return m_impl->built.endpoints.size();
}

Ptr<FabricEndpoint>
PodTopology::GetEndpoint(uint32_t i) const
{
    NS_ASSERT(i < m_impl->built.endpoints.size());
    return m_impl->built.endpoints[i];
}

bool
PodTopology::SetLinkUp(uint32_t acc, uint32_t plane, bool up) const
{
    NS_LOG_FUNCTION(this << acc << plane << up);
    const Impl& m = *m_impl;
    const auto& devices = m.built.accDevices;
    NS_ABORT_MSG_IF(acc >= devices.size() || plane >= devices[acc].size(),
                    "PodTopology::SetLinkUp: no port of accelerator " << acc << " on plane "
                                                                      << plane);
    if (devices[acc][plane]->IsLinkUp() == up)
    {
        return false;
    }
    m.kind->SetLinkUp(m.built, m.pod, acc, plane, up);
    return true;
}

Ptr<FabricNetDevice>
PodTopology::GetAccDevice(uint32_t acc, uint32_t plane) const
{
    const auto& devices = m_impl->built.accDevices;
    NS_ASSERT(acc < devices.size() && plane < devices[acc].size());
    return devices[acc][plane];
}

PodPlaneShape
GetPodPlaneShape(const Scenario::Pod& pod)
{
    // The counts Impl::LayOut builds (and Impl::LayOutThreeTier, from the leaves and spines).
    PodPlaneShape shape;
    const uint32_t n = pod.accelerators;
    const uint32_t r = pod.sw.radix;
    if (pod.topology == "mesh")
    {
        return shape; // a mesh has none
    }
    if (r >= n)
    {
        shape.tiers = 1;
        shape.perPlane = 1;
        return shape;
    }
    const uint32_t k = std::max<uint32_t>(1, pod.sw.oversubscription);
    shape.spines = r / (k + 1);
    if (shape.spines == 0)
    {
        return shape;
    }
    const uint32_t down = k * shape.spines;
    shape.leaves = (n + down - 1) / down;
    if (shape.leaves <= r)
    {
        shape.tiers = 2;
        shape.blocks = 1;
        shape.perPlane = shape.leaves + shape.spines;
        return shape;
    }
    const uint32_t h = r / 2;
    shape.tiers = 3;
    shape.blocks = h == 0 ? 0 : (shape.leaves + h - 1) / h;
    shape.spineUp = r - h;
    shape.cores = shape.spines * shape.spineUp;
    shape.perPlane = shape.leaves + shape.blocks * shape.spines + shape.cores;
    return shape;
}

uint32_t
PodSwitchesPerPlane(const Scenario::Pod& pod, const FabricKind& kind)
{
    if (!kind.UsesPlanePlan())
    {
        return kind.GetSwitchesPerPlane(pod);
    }
    return GetPodPlaneShape(pod).perPlane;
}

const std::vector<Ptr<FabricSwitch>>&
PodTopology::GetSwitches() const
{
    return m_impl->built.switches;
}

std::string
PodTopology::GetSwitchName(uint32_t k) const
{
    const auto& names = m_impl->built.switchNames;
    NS_ASSERT(k < names.size());
    return names[k];
}

const std::vector<FabricPod::SwitchView>&
PodTopology::GetSwitchViews() const
{
    return m_impl->built.views;
}

const FabricPod&
PodTopology::GetPod() const
{
    return m_impl->built;
}

const FabricKind&
PodTopology::GetKind() const
{
    NS_ASSERT_MSG(m_impl->kind != nullptr, "PodTopology: Build() first");
    return *m_impl->kind;
}

const FabricPodConfig&
PodTopology::GetConfig() const
{
    return m_impl->pod;
}

const std::vector<PodTopology::Transmitter>&
PodTopology::GetTransmitters() const
{
    return m_impl->built.transmitters;
}

uint32_t
PodTopology::GetSwitchesPerPlane() const
{
    return m_impl->built.switchesPerPlane;
}

bool
PodTopology::IsTwoTier() const
{
    return m_impl->twoTier;
}

uint32_t
PodTopology::GetTiers() const
{
    return m_impl->built.tiers;
}

std::vector<std::string>
PodTopology::WalkRoute(uint32_t src, uint32_t dst, uint32_t plane, uint32_t hash) const
{
    const FabricPod& m = m_impl->built;
    std::vector<std::string> path;
    // From the source's device on this plane to whatever is at the other end, then through the
    // switches' tables.
    Ptr<FabricNetDevice> dev = m.accDevices[src][plane];
    for (uint32_t hops = 0; hops < 16; ++hops)
    {
        Ptr<FabricNetDevice> peer = dev->GetFabricChannel()->GetPeer(dev);
        Ptr<Node> node = peer->GetNode();
        Ptr<FabricSwitch> sw = node->GetObject<FabricSwitch>();
        if (!sw)
        {
            Ptr<FabricEndpoint> ep = node->GetObject<FabricEndpoint>();
            path.push_back("acc" + std::to_string(ep->GetAcceleratorId()));
            return path;
        }
        for (uint32_t k = 0; k < m.switches.size(); ++k)
        {
            if (m.switches[k] == sw)
            {
                path.push_back(m.switchNames[k]);
            }
        }
        const uint32_t out = sw->GetRoutingTable()->Lookup(dst, hash);
        if (out == FabricRoutingTable::NO_PORT)
        {
            path.push_back("no-route");
            return path;
        }
        dev = sw->GetPort(out);
    }
    path.push_back("loop");
    return path;
}

} // namespace ns3
