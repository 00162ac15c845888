/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef POD_TOPOLOGY_H
#define POD_TOPOLOGY_H

#include "scenario.h"

#include "ns3/fabric-endpoint.h"
#include "ns3/fabric-net-device.h"
#include "ns3/fabric-switch.h"
#include "ns3/node-container.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

class FabricLinkHelper;
class UalinkSwitch;

/**
 * \ingroup pod
 * \brief Builds a pod from a scenario: the graph, the ns-3 nodes and links, and the routes.
 *
 * Each plane is one switch when the radix covers every accelerator, otherwise a two-tier
 * leaf-spine: with oversubscription k (pod.switch.oversubscription), s = floor(radix/(k+1))
 * spines, and leaves of k*s accelerators with s uplinks, one to each spine; k = 1 gives radix/2
 * and radix/2 (full bisection), k = 4 leaves each leaf a quarter of its accelerators' bandwidth
 * toward the spines. The planes are identical and joined only through the accelerators, which
 * never forward.
 *
 * The topology is first built as a Boost.Graph graph (vertices: accelerators and switches; edges:
 * links); ns-3 nodes, devices and channels are then created edge by edge, and the routes come from
 * a breadth-first search of the plane graph from every destination: a switch forwards toward a
 * destination on every port whose neighbour is one hop closer (equal-cost multipath). Since the
 * planes are identical, the search runs on one plane and its tables serve all of them.
 */
class PodTopology
{
  public:
    /// One transmitting device (one direction of one link), for the per-link table.
    struct Transmitter
    {
        Ptr<FabricNetDevice> device; //!< the device
        std::string name;            //!< "<from>-><to>"
        std::string kind; //!< acc-up, down, leaf-up, spine-down, spine-up, core-down, mesh
        uint32_t plane;   //!< plane index
    };

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
     * (FabricLinkHelper::SetRemoteChannelType). Only the Ethernet-switched fabrics (sue,
     * ethernet, rifl) built here support it; Build() refuses the others.
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
     * \brief Take the link of accelerator \p acc's port on \p plane down for good (both
     * directions). A SUE XPU sees its port's link status drop (seed 000 section 3.4.8) and its
     * instance reacts (SueInstance::SetPortDown); other endpoints just lose the link.
     * \param acc accelerator id
     * \param plane plane of the port
     */
    void FailLink(uint32_t acc, uint32_t plane) const;

    /**
     * \brief Take the link of accelerator \p acc's port on \p plane down, or bring it back up
     * (SUE: SueInstance::SetPortDown / SetPortUp; the Ethernet and RIFL NICs see their port's
     * link status, BasicEndpoint::SetPortUp; then both ends of the channel).
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

    /// \return the UALink switches, one per plane (rail); empty for the other fabrics
    const std::vector<Ptr<UalinkSwitch>>& GetUalinkSwitches() const;

    /// \return every switch of every plane
    const std::vector<Ptr<FabricSwitch>>& GetSwitches() const;

    /**
     * \param k index into GetSwitches()
     * \return the switch's name: "p<plane>.sw0", "p<plane>.leaf<l>" or "p<plane>.spine<s>"
     */
    std::string GetSwitchName(uint32_t k) const;

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
     * Link the accelerators straight to each other (pod.topology: mesh).
     * \param lh the link helper, configured
     * \param setRetry turns link-level retry on or off for the next links
     * \param stream first random stream number for the links
     */
    void BuildMesh(FabricLinkHelper& lh, const std::function<void(bool)>& setRetry, int64_t stream);

    struct Impl;
    std::unique_ptr<Impl> m_impl; //!< graph and ns-3 objects
};

} // namespace ns3

#endif /* POD_TOPOLOGY_H */
