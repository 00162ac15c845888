/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef POD_TOPOLOGY_H
#define POD_TOPOLOGY_H

#include "scenario.h"

#include "ns3/fabric-endpoint.h"
#include "ns3/fabric-kind.h"
#include "ns3/fabric-net-device.h"
#include "ns3/fabric-plane-plan.h"
#include "ns3/fabric-pod.h"
#include "ns3/fabric-switch.h"
#include "ns3/node-container.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup pod
 * \brief Builds a pod from a scenario: the plane graph and its routes, then the pod's fabric kind
 * (FabricKind::Build) makes the ns-3 nodes, devices, switches and links.
 *
 * For the fabrics of switched planes (FabricKind::UsesPlanePlan) each plane is one switch when
 * the radix covers every accelerator, otherwise a two-tier leaf-spine: with oversubscription k
 * (pod.switch.oversubscription), s = floor(radix/(k+1)) spines, and leaves of k*s accelerators
 * with s uplinks, one to each spine; k = 1 gives radix/2 and radix/2 (full bisection), k = 4
 * leaves each leaf a quarter of its accelerators' bandwidth toward the spines; beyond a spine's
 * ports, three tiers. The planes are identical and joined only through the accelerators, which
 * never forward.
 *
 * The topology is first built as a Boost.Graph graph (vertices: accelerators and switches; edges:
 * links), and the routes come from a breadth-first search of the plane graph from every
 * destination: a switch forwards toward a destination on every port whose neighbour is one hop
 * closer (equal-cost multipath). Since the planes are identical, the search runs on one plane and
 * its tables serve all of them. The result is handed to the kind as a FabricPlanePlan. Fabrics
 * that lay out their own planes (UALink's rails, the cell fabric's planes) build without it.
 */
class PodTopology
{
  public:
    /// One transmitting device (one direction of one link), for the per-link table.
    typedef FabricPod::Transmitter Transmitter;

    PodTopology();
    ~PodTopology();

    /**
     * \brief Partition the pod over the ranks of a distributed run (contrib/mpi), before Build().
     *
     * Every node gets a system id (ns3::Node's, the rank that simulates it): the switches of
     * plane p go to rank p mod ranks (a plane's switches to consecutive ranks, in index order,
     * when there are fewer planes than ranks); the accelerators go to the ranks in consecutive
     * blocks that even out the link ends each rank simulates (BalanceAccelerators()): with
     * whole planes per rank, accelerator i goes to rank floor(i * ranks / N).
     * Links between nodes of different ranks use \p remoteChannelType
     * (FabricLinkHelper::SetRemoteChannelType). Only the fabrics of switched planes
     * (FabricKind::SupportsDistributed) support it; Build() refuses the others.
     * \param ranks number of ranks (1: every node on rank 0, as without a partition)
     * \param remoteChannelType channel type for links between ranks
     */
    void SetPartition(uint32_t ranks, std::string remoteChannelType);

    /**
     * \param plane a plane
     * \param k a switch index within the plane
     * \param perPlane switches per plane
     * \param planes planes
     * \param ranks ranks
     * \return the rank of that switch (SetPartition())
     */
    static uint32_t SwitchRank(uint32_t plane,
                               uint32_t k,
                               uint32_t perPlane,
                               uint32_t planes,
                               uint32_t ranks);

    /**
     * Spread the accelerators over the ranks in consecutive blocks so that every rank simulates
     * about the same number of link ends (a node's work grows with the units its ports send and
     * receive): rank r takes accelerators until its switches' link ends plus its accelerators'
     * reach the mean, total / ranks (a rank whose switches already exceed it takes none, and the
     * others share the rest in proportion to what they lack). With the same switch link ends on
     * every rank this is floor(i * ranks / n).
     * \param n accelerators
     * \param accEnds link ends of one accelerator (its ports on all planes)
     * \param switchEnds link ends of the switches of each rank (its size is the number of ranks)
     * \return the rank of each accelerator
     */
    static std::vector<uint32_t> BalanceAccelerators(uint32_t n,
                                                     uint64_t accEnds,
                                                     const std::vector<uint64_t>& switchEnds);

    /**
     * \param i an accelerator
     * \return the rank that simulates it (SetPartition(); 0 without a partition), after Build()
     */
    uint32_t GetAcceleratorRank(uint32_t i) const;

    /**
     * What Build() reports as it goes: the step ("layout", "routes", "devices"), the units of
     * it done and their total (routes: destinations). It is called between steps and every
     * few hundred destinations of the routes, the build's longest step (the pod module prints
     * progress from it and stops a build past limits.wall or on an interrupt by throwing).
     */
    typedef std::function<void(const std::string& step, uint64_t done, uint64_t total)>
        BuildMonitor;

    /**
     * \param monitor called as Build() goes (BuildMonitor); may throw to stop the build
     */
    void SetBuildMonitor(BuildMonitor monitor);

    /**
     * Build the pod (ns-3 nodes, links, switches, endpoints, routes).
     * \param pod the validated pod section of a scenario
     */
    void Build(const Scenario::Pod& pod);

    /// \return the number of accelerators
    uint32_t GetNAccelerators() const;

    /**
     * \param i accelerator id
     * \return its endpoint
     */
    Ptr<FabricEndpoint> GetEndpoint(uint32_t i) const;

    /**
     * \brief Take the link of accelerator \p acc's port on \p plane down, or bring it back up, as
     * the pod's fabric kind does it (FabricKind::SetLinkUp: a SUE instance sees its port's link
     * status, the plain NIC stops feeding the port; then both ends of the channel).
     * \param acc accelerator id
     * \param plane plane of the port
     * \param up the new state
     * \return true if the link's state changed
     */
    bool SetLinkUp(uint32_t acc, uint32_t plane, bool up) const;

    /**
     * \param acc accelerator id
     * \param plane plane
     * \return the accelerator's port on that plane
     */
    Ptr<FabricNetDevice> GetAccDevice(uint32_t acc, uint32_t plane) const;

    /// \return the FabricSwitches of every plane, plane-major
    const std::vector<Ptr<FabricSwitch>>& GetSwitches() const;

    /**
     * \param k index into GetSwitches()
     * \return the switch's name: "p<plane>.sw0", "p<plane>.leaf<l>" or "p<plane>.spine<s>"
     */
    std::string GetSwitchName(uint32_t k) const;

    /// \return every switch of the pod, FabricSwitch or a fabric's own (its name, ports and
    ///         buffer)
    const std::vector<FabricPod::SwitchView>& GetSwitchViews() const;

    /// \return the built pod
    const FabricPod& GetPod() const;

    /// \return the pod's fabric kind (after Build())
    const FabricKind& GetKind() const;

    /// \return the pod's configuration (after Build())
    const FabricPodConfig& GetConfig() const;

    /// \return every device, each naming the link direction it transmits on
    const std::vector<Transmitter>& GetTransmitters() const;

    /// \return switches per plane
    uint32_t GetSwitchesPerPlane() const;

    /// \return true if the planes are two-tier leaf-spine
    bool IsTwoTier() const;

    /// \return switch tiers per plane: 1 (one switch), 2 (leaf-spine), 3 (leaf, spine and
    ///         core: a folded Clos), 0 for a mesh
    uint32_t GetTiers() const;

    /**
     * Follow the routing tables from one accelerator to another on one plane, as a unit with
     * the given flow hash would travel.
     * \param src source accelerator
     * \param dst destination accelerator
     * \param plane plane
     * \param hash flow hash (ECMP choice)
     * \return names of the nodes visited after src, ending with the accelerator reached (or
     *         "no-route" / "loop")
     */
    std::vector<std::string> WalkRoute(uint32_t src,
                                       uint32_t dst,
                                       uint32_t plane,
                                       uint32_t hash) const;

  private:
    /**
     * Lay out one switched plane (or a mesh) and route it.
     * \param pod the pod
     * \return the plan
     */
    FabricPlanePlan Plan(const Scenario::Pod& pod) const;

    struct Impl;
    std::unique_ptr<Impl> m_impl; //!< graph and ns-3 objects
};

} // namespace ns3

#endif /* POD_TOPOLOGY_H */
