/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_PLANE_PLAN_H
#define FABRIC_PLANE_PLAN_H

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup fabric
 * \brief The graph of one switched plane, its ports and its routes, as the pod module computes
 * them (with Boost.Graph) for the fabrics built of switched planes (FabricKind::UsesPlanePlan):
 * FabricPlaneHelper turns it into ns-3 nodes, switches and links, the same for every plane.
 *
 * Vertices 0 to accelerators - 1 are the accelerators (vertex i is accelerator i); the switches
 * follow (vertex accelerators + k is switch k of the plane). Ports are numbered per vertex in
 * edge order. A mesh has no switch and no edge: every accelerator port links straight to another
 * accelerator (FabricPlaneHelper's mesh wiring).
 */
struct FabricPlanePlan
{
    /// A vertex: an accelerator or a switch.
    struct Vertex
    {
        bool isSwitch{false}; //!< switch or accelerator
        uint32_t index{0};    //!< accelerator id, or switch index within the plane
        std::string name;     //!< name without the plane prefix ("acc3", "leaf0")
    };

    /**
     * The routes of one switch, compact: a pod of n accelerators has n of them per switch, and
     * a list of ports per destination would cost 32 B plus 4 B per port each (a leaf's routes
     * to the accelerators of other leaves list every spine: gigabytes at 65,536 accelerators).
     */
    struct SwitchRoutes
    {
        /// Entry flag: the entry is a single port itself, not a group index.
        static constexpr uint32_t SINGLE = 0x80000000;
        /// per destination: SINGLE | port, or an index into groups
        std::vector<uint32_t> entry;
        /// the distinct equal-cost groups of two or more ports, in order of first use
        std::vector<std::vector<uint32_t>> groups;
    };

    /// An edge: a link, its two ends and the port each end uses.
    struct Edge
    {
        uint32_t a{0};     //!< first end (vertex)
        uint32_t b{0};     //!< second end (vertex)
        uint32_t portA{0}; //!< port index at a
        uint32_t portB{0}; //!< port index at b
    };

    uint32_t accelerators{0};     //!< accelerators (the first vertices)
    bool mesh{false};             //!< no switches: accelerators linked directly
    uint32_t switchesPerPlane{0}; //!< switches per plane
    uint32_t tiers{0};            //!< switch tiers: 1, 2 (leaf-spine), 3 (folded Clos); 0 mesh
    std::vector<Vertex> vertices; //!< accelerators, then switches
    std::vector<Edge> edges;      //!< the links, in port order
    std::vector<uint32_t> degree; //!< ports of each vertex
    /// routes[switch]: the equal-cost egress ports of the switch toward each accelerator
    std::vector<SwitchRoutes> routes;

    uint32_t ranks{1};             //!< ranks of a distributed run (1: one process)
    std::string remoteChannelType; //!< channel type for links between ranks
    std::vector<uint32_t> accRank; //!< rank of each accelerator
    /// rank of switch k of a plane: switchRank(plane, k) (empty: 0)
    std::function<uint32_t(uint32_t, uint32_t)> switchRank;
};

} // namespace ns3

#endif /* FABRIC_PLANE_PLAN_H */
