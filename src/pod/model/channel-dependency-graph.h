/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef POD_CHANNEL_DEPENDENCY_GRAPH_H
#define POD_CHANNEL_DEPENDENCY_GRAPH_H

#include "ns3/fabric-switch.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

class PodTopology;

/**
 * \ingroup pod
 * \brief The static deadlock check: the channel dependency graph of a set of switches and
 * their routing tables (Dally and Seitz), searched for a cycle with Boost.Graph.
 *
 * Vertices are the directed switch-to-switch channels, each named after the port that
 * transmits on it ("<switch>:port<k>", FabricDeadlockMonitor::GetPortName()); a channel from or
 * to an endpoint cannot be on a cycle and is left out. There is an edge c1 -> c2 when some
 * destination's traffic can arrive at a switch on c1 and leave it on c2 according to the
 * routing tables, every member of an equal-cost group counted. Under lossless flow control an
 * edge means that c1's buffer can wait for c2's; a cycle means the routes can deadlock (a
 * necessary condition: whether it happens depends on the traffic), and an acyclic graph means
 * they cannot.
 *
 * Which channels carry a destination d is found by following the tables from every switch
 * that has a port to something outside the set (an endpoint): every destination is assumed to
 * enter the fabric at every such switch, including the one d is attached to (conservative:
 * this can only add edges). The search visits, per destination, the switches reached and
 * their group members, and records edges in a bit matrix per switch (input channel x output
 * channel), so the cost is linear in destinations x (switches reached x group sizes) with no
 * set of edges per destination; the cycle search is Boost's strong_components followed by a
 * breadth-first search inside the first component with more than one channel, which gives a
 * shortest cycle through that component's first channel.
 *
 * Not an ns-3 Object: a tool run once before a simulation.
 */
class ChannelDependencyGraph
{
  public:
    ChannelDependencyGraph();
    ~ChannelDependencyGraph();

    /**
     * \brief Add a switch (with its ports and routing table complete) to the set.
     * \param sw the switch
     * \param name its name ("" for its ns-3 Names name or "node<id>")
     */
    void AddSwitch(Ptr<FabricSwitch> sw, const std::string& name = "");

    /**
     * \brief Add every switch of a pod, named as in the pod ("p0.leaf3").
     * \param topo a built pod
     */
    void AddSwitches(const PodTopology& topo);

    /**
     * \brief Build the graph from the switches' current routes and search it for a cycle.
     */
    void Build();

    /// \return channels (vertices)
    uint32_t GetNChannels() const;

    /// \return dependencies (edges)
    uint64_t GetNDependencies() const;

    /// \return strongly connected components with a cycle (more than one channel)
    uint32_t GetNCyclicComponents() const;

    /// \return channels on some cycle (in the components counted by GetNCyclicComponents)
    uint32_t GetNCyclicChannels() const;

    /**
     * \return a cycle of channels, each named after its transmitting port, in the direction
     * traffic flows (each depends on the next, the last on the first), starting with the
     * cycle's first channel in switch order (AddSwitch order, then port); empty if the graph is
     * acyclic
     */
    const std::vector<std::string>& GetCycle() const;

  private:
    struct Impl;
    std::unique_ptr<Impl> m_impl; //!< switches and the graph
};

} // namespace ns3

#endif /* POD_CHANNEL_DEPENDENCY_GRAPH_H */
