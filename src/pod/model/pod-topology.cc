/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pod-topology.h"

#include "cell-pod-builder.h"
#include "pod-switch-count.h"
#include "rifl-scenario.h"
#include "ualink-pod-builder.h"

#include "ns3/abort.h"
#include "ns3/basic-endpoint-helper.h"
#include "ns3/basic-endpoint.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/fabric-channel.h"
#include "ns3/fabric-link-helper.h"
#include "ns3/fabric-retry-engine.h"
#include "ns3/fabric-switch-helper.h"
#include "ns3/log.h"
#include "ns3/sue-endpoint.h"
#include "ns3/sue-framing.h"
#include "ns3/sue-helper.h"
#include "ns3/sue-phy.h"
#include "ns3/ualink-switch.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/visitors.hpp>
#include <limits>

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
    Scenario::Pod pod;                          //!< the scenario's pod
    PlaneGraph graph;                           //!< one plane (all planes are identical)
    uint32_t switchesPerPlane{0};               //!< switches per plane
    bool twoTier{false};                        //!< leaf-spine
    uint32_t tiers{0};                          //!< switch tiers (0: mesh)
    NodeContainer accNodes;                     //!< accelerator nodes
    std::vector<Ptr<FabricEndpoint>> endpoints; //!< per accelerator
    std::vector<std::vector<Ptr<FabricNetDevice>>> accDevices; //!< per accelerator, per plane
    std::vector<Ptr<BasicEndpoint>> basic;                     //!< ethernet fabric: the endpoints
    std::vector<Ptr<SueEndpoint>> sue;                         //!< sue fabric: the endpoints
    Time fecAdjustment; //!< sue fabric: receive latency change of the FEC choice (3.4.4)
    std::vector<Ptr<FabricSwitch>> switches;       //!< plane-major: plane * perPlane + index
    std::vector<Ptr<UalinkSwitch>> ualinkSwitches; //!< ualink fabric: the switch of each plane
    std::vector<Transmitter> transmitters;         //!< every device
    /// routes[switch index][dst] = egress ports (computed on the plane graph)
    std::vector<std::vector<std::vector<uint32_t>>> routes;

    uint32_t ranks{1};             //!< ranks of a distributed run (SetPartition)
    std::string remoteChannelType; //!< channel type between ranks (SetPartition)
    std::vector<uint32_t> accRank; //!< rank of each accelerator (Build, with a partition)

    Vertex AccVertex(uint32_t i) const
    {
        return i;
    }

    Vertex SwitchVertex(uint32_t k) const
    {
        return pod.accelerators + k;
    }
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
    NS_LOG_FUNCTION(this << pod.accelerators << pod.planes);
    Impl& m = *m_impl;
    m.pod = pod;
    NS_ABORT_MSG_IF(m.ranks > 1 && (pod.fabric == "ualink" || pod.fabric == "cell"),
                    "pod.fabric: a distributed run (--ranks) supports the sue, ethernet and "
                    "rifl fabrics, not "
                        << pod.fabric);
    if (pod.fabric == "ualink")
    {
        // Single tier, one switch per port (rails): src/ualink builds it (ualink-pod-builder.cc).
        m.switchesPerPlane = 1;
        UalinkPodBuilder::Build(pod,
                                m.accNodes,
                                m.endpoints,
                                m.accDevices,
                                m.transmitters,
                                m.ualinkSwitches);
        return;
    }
    if (pod.fabric == "cell")
    {
        // Cell-switch planes, one per chip link: src/cell-fabric builds them (cell-pod-builder.cc).
        CellPodBuilder::Build(pod,
                              m.accNodes,
                              m.endpoints,
                              m.accDevices,
                              m.transmitters,
                              m.switches);
        m.switchesPerPlane = m.switches.size() / pod.planes;
        return;
    }
    const uint32_t n = pod.accelerators;
    const uint32_t r = pod.sw.radix;

    // 1. The plane graph (Boost.Graph). Ports are numbered per vertex in edge order.
    std::vector<uint32_t> nextPort;
    auto addVertex = [&](bool isSwitch, uint32_t index, const std::string& name) {
        Vertex v = boost::add_vertex(VertexProps{isSwitch, index, name}, m.graph);
        nextPort.push_back(0);
        return v;
    };
    auto addEdge = [&](Vertex a, Vertex b) {
        boost::add_edge(a, b, EdgeProps{a, b, nextPort[a]++, nextPort[b]++}, m.graph);
    };
    for (uint32_t i = 0; i < n; ++i)
    {
        addVertex(false, i, "acc" + std::to_string(i));
    }
    if (pod.topology == "mesh")
    {
        // No switches: the links are made below, accelerator to accelerator.
        m.twoTier = false;
        m.switchesPerPlane = 0;
    }
    else if (r >= n)
    {
        m.twoTier = false;
        m.tiers = 1;
        m.switchesPerPlane = 1;
        addVertex(true, 0, "sw0");
        for (uint32_t i = 0; i < n; ++i)
        {
            addEdge(m.AccVertex(i), m.SwitchVertex(0));
        }
    }
    else
    {
        // k:1 oversubscription: s = floor(r/(k+1)) uplinks per leaf, one to each of s spines,
        // and k*s accelerators per leaf (k = 1: radix/2 and radix/2, full bisection).
        const uint32_t k = std::max<uint32_t>(1, pod.sw.oversubscription);
        const uint32_t spines = r / (k + 1);
        NS_ABORT_MSG_IF(spines == 0, "radix " << r << " has no uplink at " << k << ":1");
        const uint32_t down = k * spines;
        const uint32_t leaves = (n + down - 1) / down;
        for (uint32_t l = 0; l < leaves; ++l)
        {
            addVertex(true, l, "leaf" + std::to_string(l));
        }
        if (leaves <= r)
        {
            // Two tiers: every leaf links to each of the s spines.
            m.twoTier = true;
            m.tiers = 2;
            m.switchesPerPlane = leaves + spines;
            for (uint32_t sp = 0; sp < spines; ++sp)
            {
                addVertex(true, leaves + sp, "spine" + std::to_string(sp));
            }
            for (uint32_t i = 0; i < n; ++i)
            {
                addEdge(m.AccVertex(i), m.SwitchVertex(i / down));
            }
            for (uint32_t l = 0; l < leaves; ++l)
            {
                for (uint32_t sp = 0; sp < spines; ++sp)
                {
                    addEdge(m.SwitchVertex(l), m.SwitchVertex(leaves + sp));
                }
            }
        }
        else
        {
            // Three tiers (a folded Clos, as a fat tree): blocks of h = radix/2 leaves share s
            // spines (spine j of a block links to each of its leaves, once per leaf uplink);
            // a spine's other r - h ports go up to r - h cores of its column j, and core (j, t)
            // links to spine j of every block, so blocks <= radix. Full bisection above the
            // leaves; a route is at most leaf, spine, core, spine, leaf: 5 switch hops.
            const uint32_t h = r / 2;
            const uint32_t up = r - h;
            const uint32_t blocks = (leaves + h - 1) / h;
            NS_ABORT_MSG_IF(h == 0 || blocks > r,
                            "radix " << r << " too small for three tiers of " << n);
            m.tiers = 3;
            m.switchesPerPlane = leaves + blocks * spines + spines * up;
            const uint32_t spine0 = leaves;
            const uint32_t core0 = leaves + blocks * spines;
            for (uint32_t b = 0; b < blocks; ++b)
            {
                for (uint32_t j = 0; j < spines; ++j)
                {
                    const uint32_t idx = b * spines + j;
                    addVertex(true, spine0 + idx, "spine" + std::to_string(idx));
                }
            }
            for (uint32_t j = 0; j < spines; ++j)
            {
                for (uint32_t t = 0; t < up; ++t)
                {
                    const uint32_t idx = j * up + t;
                    addVertex(true, core0 + idx, "core" + std::to_string(idx));
                }
            }
            for (uint32_t i = 0; i < n; ++i)
            {
                addEdge(m.AccVertex(i), m.SwitchVertex(i / down));
            }
            for (uint32_t l = 0; l < leaves; ++l)
            {
                for (uint32_t j = 0; j < spines; ++j)
                {
                    addEdge(m.SwitchVertex(l), m.SwitchVertex(spine0 + (l / h) * spines + j));
                }
            }
            for (uint32_t j = 0; j < spines; ++j)
            {
                for (uint32_t t = 0; t < up; ++t)
                {
                    for (uint32_t b = 0; b < blocks; ++b)
                    {
                        addEdge(m.SwitchVertex(spine0 + b * spines + j),
                                m.SwitchVertex(core0 + j * up + t));
                    }
                }
            }
        }
    }

    // 2. Routes: breadth-first search from every destination; a switch forwards on every port
    // whose neighbour is one hop closer to it.
    const uint32_t nv = boost::num_vertices(m.graph);
    m.routes.assign(m.switchesPerPlane, std::vector<std::vector<uint32_t>>(n));
    std::vector<uint32_t> dist(nv);
    for (uint32_t d = 0; d < n; ++d)
    {
        std::fill(dist.begin(), dist.end(), std::numeric_limits<uint32_t>::max());
        dist[m.AccVertex(d)] = 0;
        boost::breadth_first_search(
            m.graph,
            m.AccVertex(d),
            boost::visitor(boost::make_bfs_visitor(
                boost::record_distances(dist.data(), boost::on_tree_edge()))));
        for (uint32_t k = 0; k < m.switchesPerPlane; ++k)
        {
            const Vertex sv = m.SwitchVertex(k);
            for (auto [e, eEnd] = boost::out_edges(sv, m.graph); e != eEnd; ++e)
            {
                const Vertex nb = boost::target(*e, m.graph);
                // Accelerators never forward: only the destination itself is a next hop.
                if (!m.graph[nb].isSwitch && nb != m.AccVertex(d))
                {
                    continue;
                }
                if (dist[nb] + 1 == dist[sv])
                {
                    m.routes[k][d].push_back(m.graph[*e].PortAt(sv));
                }
            }
        }
    }

    // 3. ns-3 objects, plane by plane, following the graph's edges in order. With a partition,
    // the accelerators even out the link ends of the ranks' switches (BalanceAccelerators).
    m.accRank.assign(n, 0);
    if (m.ranks > 1)
    {
        std::vector<uint64_t> switchEnds(m.ranks, 0);
        for (uint32_t plane = 0; plane < pod.planes; ++plane)
        {
            for (uint32_t k = 0; k < m.switchesPerPlane; ++k)
            {
                switchEnds[SwitchRank(plane, k, m.switchesPerPlane, pod.planes, m.ranks)] +=
                    boost::out_degree(m.SwitchVertex(k), m.graph);
            }
        }
        const uint64_t accEnds =
            static_cast<uint64_t>(pod.planes) * boost::out_degree(m.AccVertex(0), m.graph);
        m.accRank = BalanceAccelerators(n, accEnds, switchEnds);
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        m.accNodes.Add(CreateObject<Node>(m.accRank[i]));
    }
    BasicEndpointHelper eh;
    eh.SetEndpointAttribute("Mtu", UintegerValue(pod.nic.mtu));
    eh.SetEndpointAttribute("HeaderBytes", UintegerValue(pod.nic.headerBytes));
    const std::string& sel = pod.nic.planeSelection;
    eh.SetEndpointAttribute("PlaneSelection",
                            EnumValue(sel == "hash"    ? BasicEndpoint::HASH
                                      : sel == "spray" ? BasicEndpoint::SPRAY
                                                       : BasicEndpoint::ROUND_ROBIN));
    const auto& tr = pod.transport;
    if (tr.kind == "go-back-n")
    {
        eh.SetTransport("ns3::FabricGoBackN",
                        "Window",
                        UintegerValue(tr.window),
                        "AckInterval",
                        UintegerValue(tr.ackInterval),
                        "AckDelay",
                        TimeValue(tr.ackDelay),
                        "RetransmitTimeout",
                        TimeValue(tr.timeout));
    }
    if (pod.fabric == "rifl")
    {
        RiflScenario::ConfigureEndpoints(eh); // RIFL NICs: 256 B segments, 8 B header each
    }
    m.accDevices.assign(n, {});
    Time switchLatency = pod.sw.latency;
    if (pod.fabric == "sue")
    {
        // FEC (3.4.4): A.1's SUE RX (100 ns) and switch (250 ns) latencies assume the IEEE
        // RS-544; another code or interleave changes every receiver of a link, the XPU's SUE RX
        // and the switch's ingress, by the difference in codeword accumulation time.
        SuePhy::Fec fec = SuePhy::RS544;
        SuePhy::FromName(pod.sue.fec, fec);
        const uint32_t portGbps = static_cast<uint32_t>(pod.link.rate.GetBitRate() / 1000000000);
        const uint32_t serdes = SuePhy::SerdesGbps(portGbps * pod.sue.ports);
        const uint32_t lanes = SuePhy::Lanes(portGbps, serdes);
        m.fecAdjustment = SuePhy::RxAdjustment(fec, pod.sue.fecInterleave, serdes, lanes);
        NS_ABORT_MSG_IF(switchLatency + m.fecAdjustment < Time(0),
                        "switch latency " << switchLatency << " is below the FEC time saved");
        switchLatency += m.fecAdjustment;
    }
    if (pod.fabric == "sue")
    {
        const auto& s = pod.sue;
        SueHelper sh;
        sh.SetPortsPerInstance(s.ports);
        sh.SetLite(s.lite);
        sh.SetInstanceAttribute(
            "Ordering",
            EnumValue(s.ordering == "unordered" ? SueInstance::UNORDERED : SueInstance::STRICT));
        sh.SetEndpointAttribute("LoadBalance",
                                EnumValue(s.loadBalance == "round-robin" ? SueEndpoint::ROUND_ROBIN
                                          : s.loadBalance == "least-loaded"
                                              ? SueEndpoint::LEAST_LOADED
                                              : SueEndpoint::HASH));
        SueFraming::HeaderFormat format = SueFraming::AFH_GEN2_12;
        if (!s.lite || s.header != "afh-gen2-12")
        {
            SueFraming::FromName(s.header, format);
            sh.SetPackerAttribute("HeaderFormat", EnumValue(format));
        }
        if (s.packingLimit > 0)
        {
            sh.SetPackerAttribute("PackingLimit", UintegerValue(s.packingLimit));
        }
        if (s.congestion == "delay")
        {
            sh.SetTransportAttribute("CongestionControl", EnumValue(FabricGoBackN::DELAY));
        }
        sh.SetEndpointAttribute("RxLatency", TimeValue(NanoSeconds(100) + m.fecAdjustment));
        sh.SetPackerAttribute("TxCredits", UintegerValue(s.txCredits));
        sh.SetPackerAttribute("CommandRate", DataRateValue(s.commandRate));
        for (uint32_t i = 0; i < n; ++i)
        {
            Ptr<SueEndpoint> e = sh.Install(m.accNodes.Get(i), i);
            m.sue.push_back(e);
            m.endpoints.push_back(e);
        }
    }
    else
    {
        for (uint32_t i = 0; i < n; ++i)
        {
            Ptr<BasicEndpoint> e = eh.Install(m.accNodes.Get(i), i);
            m.basic.push_back(e);
            m.endpoints.push_back(e);
        }
    }

    FabricSwitchHelper swh;
    swh.SetSwitchAttribute(
        "ForwardingMode",
        EnumValue(pod.sw.cutThrough ? FabricSwitch::CUT_THROUGH : FabricSwitch::STORE_AND_FORWARD));
    swh.SetSwitchAttribute("PipelineLatency", TimeValue(switchLatency));
    swh.SetSwitchAttribute("Classes", UintegerValue(pod.sw.classes));
    swh.SetBufferAttribute("Size", UintegerValue(pod.sw.bufferBytes));

    FabricLinkHelper lh;
    lh.SetRemoteChannelType(m.remoteChannelType);
    lh.SetChannelAttribute("DataRate", DataRateValue(pod.link.rate));
    const std::string& cable = pod.link.cable;
    lh.SetChannelAttribute("CableType",
                           EnumValue(cable == "twinax"        ? FabricChannel::TWINAX
                                     : cable == "single-mode" ? FabricChannel::SINGLE_MODE
                                     : cable == "hollow-core" ? FabricChannel::HOLLOW_CORE
                                                              : FabricChannel::DIRECT));
    lh.SetChannelAttribute("CableLength", DoubleValue(pod.link.lengthM));
    lh.SetChannelAttribute("Delay", TimeValue(pod.link.delay));
    lh.SetChannelAttribute("FecLatency", TimeValue(pod.link.fecLatency));
    uint32_t codewordBits = pod.link.codewordBits;
    if (pod.fabric == "sue")
    {
        SuePhy::Fec fec = SuePhy::RS544;
        SuePhy::FromName(pod.sue.fec, fec);
        codewordBits = SuePhy::MessageBits(fec);
    }
    lh.SetChannelAttribute("CodewordBits", UintegerValue(codewordBits));
    lh.SetChannelAttribute("CodewordErrorRate", DoubleValue(pod.link.codewordErrorRate));
    lh.SetChannelAttribute("BitErrorRate", DoubleValue(pod.link.ber));
    lh.SetChannelAttribute(
        "ArrivalOrder",
        EnumValue(pod.canonicalArrivals ? FabricChannel::CANONICAL : FabricChannel::INSERTION));
    lh.SetDeviceAttribute("InterframeBytes", UintegerValue(pod.link.interframeBytes));
    // The device MTU is the largest frame: PFC's headroom and LLR's timers are derived from it.
    lh.SetDeviceAttribute(
        "Mtu",
        UintegerValue(std::min<uint64_t>(65535, uint64_t(pod.nic.mtu) + pod.nic.headerBytes)));
    const auto& fc = pod.fc;
    if (fc.kind == "pfc")
    {
        lh.SetFlowControl("ns3::FabricPfc",
                          "Classes",
                          UintegerValue(pod.sw.classes),
                          "XoffBytes",
                          UintegerValue(fc.xoffBytes),
                          "XonBytes",
                          UintegerValue(fc.xonBytes),
                          "HeadroomBytes",
                          UintegerValue(fc.headroomBytes),
                          "PauseQuanta",
                          UintegerValue(fc.pauseQuanta),
                          "PauseResponseTime",
                          TimeValue(fc.pauseResponse));
    }
    else if (fc.kind == "cbfc")
    {
        lh.SetFlowControl("ns3::FabricCreditFlowControl",
                          "Vcs",
                          UintegerValue(pod.sw.classes),
                          "BytesPerCredit",
                          UintegerValue(fc.bytesPerCredit),
                          "BufferBytes",
                          UintegerValue(fc.creditBuffer),
                          "PoolBytes",
                          UintegerValue(fc.creditPool),
                          "CreditBatch",
                          UintegerValue(fc.creditBatch),
                          "CreditDelay",
                          TimeValue(fc.creditDelay));
    }
    const auto& llr = pod.llr;
    auto setRetry = [&lh, &llr](bool on) {
        lh.SetRetryEngine(on && llr.mode != "off",
                          "Mode",
                          EnumValue(llr.mode == "nak-only" ? FabricRetryEngine::NAK_ONLY
                                                           : FabricRetryEngine::ACK_NAK),
                          "Window",
                          UintegerValue(llr.window),
                          "AckInterval",
                          UintegerValue(llr.ackInterval),
                          "NakPause",
                          DoubleValue(llr.nakPause));
    };

    int64_t stream = 1000;
    for (uint32_t plane = 0; plane < pod.planes; ++plane)
    {
        const std::string prefix = "p" + std::to_string(plane) + ".";
        std::vector<Ptr<Node>> swNodes;
        for (uint32_t k = 0; k < m.switchesPerPlane; ++k)
        {
            Ptr<Node> node =
                CreateObject<Node>(SwitchRank(plane, k, m.switchesPerPlane, pod.planes, m.ranks));
            swNodes.push_back(node);
            m.switches.push_back(swh.Install(node));
        }
        auto nodeOf = [&](Vertex v) {
            return m.graph[v].isSwitch ? swNodes[m.graph[v].index]
                                       : m.accNodes.Get(m.graph[v].index);
        };
        auto nameOf = [&](Vertex v) {
            return m.graph[v].isSwitch ? prefix + m.graph[v].name : m.graph[v].name;
        };
        auto kindOf = [&](Vertex from, Vertex to) -> std::string {
            if (!m.graph[from].isSwitch)
            {
                return "acc-up";
            }
            if (!m.graph[to].isSwitch)
            {
                return "down";
            }
            const std::string& f = m.graph[from].name;
            if (f.rfind("leaf", 0) == 0)
            {
                return "leaf-up";
            }
            if (f.rfind("core", 0) == 0)
            {
                return "core-down";
            }
            return m.graph[to].name.rfind("core", 0) == 0 ? "spine-up" : "spine-down";
        };
        for (auto [e, eEnd] = boost::edges(m.graph); e != eEnd; ++e)
        {
            const EdgeProps& ep = m.graph[*e];
            const bool switchLink = m.graph[ep.a].isSwitch && m.graph[ep.b].isSwitch;
            setRetry(llr.links == "all" || (llr.links == "switch") == switchLink);
            NetDeviceContainer devs = lh.Install(nodeOf(ep.a), nodeOf(ep.b));
            const Vertex ends[2] = {ep.a, ep.b};
            const uint32_t ports[2] = {ep.portA, ep.portB};
            for (uint32_t side = 0; side < 2; ++side)
            {
                Ptr<FabricNetDevice> dev = DynamicCast<FabricNetDevice>(devs.Get(side));
                const Vertex self = ends[side];
                const Vertex peer = ends[1 - side];
                if (m.graph[self].isSwitch)
                {
                    Ptr<FabricSwitch> sw =
                        m.switches[plane * m.switchesPerPlane + m.graph[self].index];
                    const uint32_t port = sw->AddPort(dev);
                    NS_ASSERT_MSG(port == ports[side], "port numbering differs from the graph");
                }
                else
                {
                    const uint32_t acc = m.graph[self].index;
                    if (m.sue.empty())
                    {
                        m.basic[acc]->AddDevice(dev);
                    }
                    else
                    {
                        m.sue[acc]->AddDevice(dev);
                    }
                    m.accDevices[acc].push_back(dev);
                }
                m.transmitters.push_back(Transmitter{dev,
                                                     nameOf(self) + "->" + nameOf(peer),
                                                     kindOf(self, peer),
                                                     plane});
            }
            // Fixed random streams per channel: the same scenario and seed give the same run.
            Ptr<FabricNetDevice> d0 = DynamicCast<FabricNetDevice>(devs.Get(0));
            stream += d0->GetFabricChannel()->AssignStreams(stream);
        }
        if (fc.kind == "pfc")
        {
            for (uint32_t k = 0; k < m.switchesPerPlane; ++k)
            {
                m.switches[plane * m.switchesPerPlane + k]->ShareBufferForPfc(fc.losslessClasses);
            }
        }
        for (uint32_t k = 0; k < m.switchesPerPlane; ++k)
        {
            Ptr<FabricRoutingTable> table =
                m.switches[plane * m.switchesPerPlane + k]->GetRoutingTable();
            for (uint32_t d = 0; d < n; ++d)
            {
                table->SetRoute(d, m.routes[k][d]);
            }
        }
    }
    if (pod.fabric == "rifl")
    {
        RiflScenario::ConfigureSourceRouting(m.switches, m.switchesPerPlane, m.accDevices, m.basic);
        RiflScenario::ConfigureSwitches(m.switches, pod); // pod.rifl.switch
    }
    if (pod.topology == "mesh")
    {
        BuildMesh(lh, setRetry, stream);
    }
}

void
PodTopology::BuildMesh(FabricLinkHelper& lh,
                       const std::function<void(bool)>& setRetry,
                       int64_t stream)
{
    // Mesh deployment (seed 000 Figure 2): port p of accelerator i links to accelerator
    // j = (i + o) mod n with o = p mod (n - 1) + 1, at j's port q = (p div (n - 1)) (n - 1) +
    // (n - o - 1), whose own offset n - o leads back to i. Every pair gets planes / (n - 1)
    // links, and each link is made once, from its lower (accelerator, port) end.
    Impl& m = *m_impl;
    const uint32_t n = m.pod.accelerators;
    const uint32_t planes = m.pod.planes;
    const uint32_t peers = n - 1;
    std::vector<std::vector<Ptr<FabricNetDevice>>> devs(n,
                                                        std::vector<Ptr<FabricNetDevice>>(planes));
    std::vector<std::vector<uint32_t>> peerOf(n, std::vector<uint32_t>(planes));
    setRetry(m.pod.llr.links != "switch");
    for (uint32_t i = 0; i < n; ++i)
    {
        for (uint32_t p = 0; p < planes; ++p)
        {
            const uint32_t o = p % peers + 1;
            const uint32_t j = (i + o) % n;
            const uint32_t q = (p / peers) * peers + (n - o - 1);
            peerOf[i][p] = j;
            if (std::make_pair(j, q) < std::make_pair(i, p))
            {
                continue; // made from the other end
            }
            NetDeviceContainer c = lh.Install(m.accNodes.Get(i), m.accNodes.Get(j));
            devs[i][p] = DynamicCast<FabricNetDevice>(c.Get(0));
            devs[j][q] = DynamicCast<FabricNetDevice>(c.Get(1));
            stream += devs[i][p]->GetFabricChannel()->AssignStreams(stream);
        }
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        for (uint32_t p = 0; p < planes; ++p)
        {
            Ptr<FabricNetDevice> dev = devs[i][p];
            NS_ASSERT_MSG(dev, "mesh port " << i << "." << p << " has no link");
            m.sue[i]->AddDevice(dev);
            m.accDevices[i].push_back(dev);
            m.transmitters.push_back(
                Transmitter{dev,
                            "acc" + std::to_string(i) + "->acc" + std::to_string(peerOf[i][p]),
                            "mesh",
                            p});
        }
        for (uint32_t p = 0; p < planes; ++p)
        {
            m.sue[i]->SetDirectPeer(p, peerOf[i][p]);
        }
    }
}

uint32_t
PodTopology::GetNAccelerators() const
{
    return m_impl->endpoints.size();
}

Ptr<FabricEndpoint>
PodTopology::GetEndpoint(uint32_t i) const
{
    NS_ASSERT(i < m_impl->endpoints.size());
    return m_impl->endpoints[i];
}

void
PodTopology::FailLink(uint32_t acc, uint32_t plane) const
{
    SetLinkUp(acc, plane, false);
}

bool
PodTopology::SetLinkUp(uint32_t acc, uint32_t plane, bool up) const
{
    NS_LOG_FUNCTION(this << acc << plane << up);
    const Impl& m = *m_impl;
    NS_ABORT_MSG_IF(acc >= m.accDevices.size() || plane >= m.accDevices[acc].size(),
                    "PodTopology::SetLinkUp: no port of accelerator " << acc << " on plane "
                                                                      << plane);
    Ptr<FabricNetDevice> dev = m.accDevices[acc][plane];
    if (dev->IsLinkUp() == up)
    {
        return false;
    }
    if (!m.sue.empty())
    {
        const uint32_t ports = m.pod.sue.ports;
        Ptr<SueInstance> in = m.sue[acc]->GetInstance(plane / ports);
        if (up)
        {
            in->SetPortUp(plane % ports);
        }
        else
        {
            in->SetPortDown(plane % ports);
        }
        return true;
    }
    if (!m.basic.empty() && !up)
    {
        m.basic[acc]->SetPortUp(plane, false); // the NIC stops feeding the port first
    }
    dev->GetFabricChannel()->SetLinkUp(up);
    if (!m.basic.empty() && up)
    {
        m.basic[acc]->SetPortUp(plane, true);
    }
    return true;
}

Ptr<FabricNetDevice>
PodTopology::GetAccDevice(uint32_t acc, uint32_t plane) const
{
    const Impl& m = *m_impl;
    NS_ASSERT(acc < m.accDevices.size() && plane < m.accDevices[acc].size());
    return m.accDevices[acc][plane];
}

const std::vector<Ptr<UalinkSwitch>>&
PodTopology::GetUalinkSwitches() const
{
    return m_impl->ualinkSwitches;
}

uint32_t
PodSwitchesPerPlane(const Scenario::Pod& pod)
{
    // The same arithmetic as Build.
    const uint32_t n = pod.accelerators;
    const uint32_t r = pod.sw.radix;
    if (pod.fabric == "ualink")
    {
        return 1;
    }
    if (pod.fabric == "cell" || pod.topology == "mesh")
    {
        return 0; // the cell fabric's planes are built by its helper; a mesh has none
    }
    if (r >= n)
    {
        return 1;
    }
    const uint32_t k = std::max<uint32_t>(1, pod.sw.oversubscription);
    const uint32_t spines = r / (k + 1);
    if (spines == 0)
    {
        return 0;
    }
    const uint32_t down = k * spines;
    const uint32_t leaves = (n + down - 1) / down;
    if (leaves <= r)
    {
        return leaves + spines;
    }
    const uint32_t h = r / 2;
    const uint32_t blocks = h == 0 ? 0 : (leaves + h - 1) / h;
    return leaves + blocks * spines + spines * (r - h);
}

const std::vector<Ptr<FabricSwitch>>&
PodTopology::GetSwitches() const
{
    return m_impl->switches;
}

std::string
PodTopology::GetSwitchName(uint32_t k) const
{
    const Impl& m = *m_impl;
    NS_ASSERT(k < m.switches.size());
    const uint32_t plane = m.switchesPerPlane ? k / m.switchesPerPlane : 0;
    const uint32_t local = m.switchesPerPlane ? k % m.switchesPerPlane : k;
    if (m.SwitchVertex(local) >= boost::num_vertices(m.graph))
    {
        // Pods built by a fabric's own builder (cell, UALink) have no plane graph.
        return "p" + std::to_string(plane) + ".sw" + std::to_string(local);
    }
    return "p" + std::to_string(plane) + "." + m.graph[m.SwitchVertex(local)].name;
}

const std::vector<PodTopology::Transmitter>&
PodTopology::GetTransmitters() const
{
    return m_impl->transmitters;
}

uint32_t
PodTopology::GetSwitchesPerPlane() const
{
    return m_impl->switchesPerPlane;
}

bool
PodTopology::IsTwoTier() const
{
    return m_impl->twoTier;
}

uint32_t
PodTopology::GetTiers() const
{
    return m_impl->tiers;
}

std::vector<std::string>
PodTopology::WalkRoute(uint32_t src, uint32_t dst, uint32_t plane, uint32_t hash) const
{
    const Impl& m = *m_impl;
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
                const VertexProps& vp = m.graph[m.SwitchVertex(k % m.switchesPerPlane)];
                path.push_back("p" + std::to_string(k / m.switchesPerPlane) + "." + vp.name);
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
