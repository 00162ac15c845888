/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UALINK_HELPER_H
#define UALINK_HELPER_H

#include "ns3/attribute.h"
#include "ns3/fabric-channel.h"
#include "ns3/fabric-link-helper.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/ualink-endpoint.h"
#include "ns3/ualink-phy.h"
#include "ns3/ualink-switch.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup ualink
 * \brief Builds UALink pods in the default (coarse) mode: accelerators with their ports, one
 * single-tier switch per accelerator port (rails), and the links between them (UALink_200
 * sections 1.1, 2.4, 10.1).
 *
 * Install(n, k) gives each of n accelerators k ports and builds k switches of n ports: accelerator
 * port r connects to switch r, and switch port a to accelerator a (section 2.4's wiring, Figure
 * 2-8, for any pod: accelerator station s, port p on switch 4s + p; accelerator a on switch
 * station a / 4, port a mod 4); each switch routes destination a to its port a. Links run at the
 * PHY's signalling rate with its FEC latency; with SetLinkLevelReplay(true) every port also runs
 * the DL's replay (UalinkDl) on a FabricRetryEngine, a unit being one burst.
 */
class UalinkHelper
{
  public:
    UalinkHelper();

    /// A built pod.
    struct Pod
    {
        NodeContainer acceleratorNodes;        //!< accelerator nodes
        NodeContainer switchNodes;             //!< switch nodes
        std::vector<Ptr<UalinkEndpoint>> acc;  //!< endpoints, by accelerator id
        std::vector<Ptr<UalinkSwitch>> sw;     //!< switches, by rail
        std::vector<Ptr<FabricChannel>> links; //!< every link
    };

    /**
     * \param name attribute of ns3::UalinkPhy
     * \param value its value
     */
    void SetPhyAttribute(std::string name, const AttributeValue& value);

    /**
     * \param name attribute of ns3::FabricChannel (Delay, CableType, CableLength, error rates)
     * \param value its value
     */
    void SetChannelAttribute(std::string name, const AttributeValue& value);

    /**
     * \param name attribute of ns3::UalinkEndpoint
     * \param value its value
     */
    void SetEndpointAttribute(std::string name, const AttributeValue& value);

    /**
     * \param name attribute of ns3::UalinkUpli (each accelerator's UPLI: mode, clock, credits)
     * \param value its value
     */
    void SetUpliAttribute(std::string name, const AttributeValue& value);

    /**
     * \param name attribute of ns3::UalinkSwitch
     * \param value its value
     */
    void SetSwitchAttribute(std::string name, const AttributeValue& value);

    /**
     * \param name attribute of ns3::UalinkTxQueue (credits), set on every port
     * \param value its value
     */
    void SetTxQueueAttribute(std::string name, const AttributeValue& value);

    /**
     * \param name attribute of ns3::UalinkTlPacker (address cache, authentication, ...), set on
     * every port
     * \param value its value
     */
    void SetPackerAttribute(std::string name, const AttributeValue& value);

    /**
     * \param name attribute of ns3::UalinkDl
     * \param value its value
     */
    void SetDlAttribute(std::string name, const AttributeValue& value);

    /// \param on run the DL's link-level replay on every link
    void SetLinkLevelReplay(bool on)
    {
        m_llr = on;
    }

    /**
     * \brief Build a pod.
     * \param accelerators accelerators (at most 1024, section 1.1)
     * \param ports ports per accelerator (= switches)
     * \return the pod
     */
    Pod Install(uint32_t accelerators, uint32_t ports) const;

    /**
     * \brief Partition a pod into virtual pods (sections 1.1, 8.4, 10.7.1): program every station's
     * route table on every switch (rail) so that each accelerator reaches exactly the members of
     * its own virtual pod. For each station and each destination d, the deny bit of the port
     * facing accelerator i is set unless i and d are in the same virtual pod; an accelerator in
     * no virtual pod is excluded (denied to and from every other, Figure 8-4). Every rail gets
     * the same tables, so the verdict does not depend on the port the rail hash picks (2.4).
     * Traffic between virtual pods is dropped silently at the first switch (RouteDenied).
     * \param pod a pod built by Install (switch port a faces accelerator a)
     * \param vpods the virtual pods: disjoint lists of accelerator ids
     */
    static void SetVirtualPods(const Pod& pod, const std::vector<std::vector<uint32_t>>& vpods);

    /**
     * \brief Deny a source the route to a destination on every rail (section 10.7): the deny bit
     * of the source's port in its station's table, on every switch, so every request whatever
     * the rail hash picks is dropped (RouteDenied).
     * \param pod a pod built by Install
     * \param src the source accelerator
     * \param dst the destination accelerator
     * \param deny deny (true) or allow again
     */
    static void DenyRoute(const Pod& pod, uint32_t src, uint32_t dst, bool deny = true);

    /**
     * \brief Join two accelerators' endpoints with a direct link (section 1.2).
     * \param a one endpoint (already aggregated to its node)
     * \param b the other
     */
    void ConnectDirect(Ptr<UalinkEndpoint> a, Ptr<UalinkEndpoint> b) const;

    /**
     * \brief Create an endpoint on a node (no port yet).
     * \param node the node
     * \param id its accelerator id
     * \return the endpoint
     */
    Ptr<UalinkEndpoint> CreateEndpoint(Ptr<Node> node, uint32_t id) const;

    /// \return a PHY with the configured settings
    Ptr<UalinkPhy> CreatePhy() const;

  private:
    /**
     * \brief Connect two nodes.
     * \param a first node
     * \param b second node
     * \return the two devices
     */
    NetDeviceContainer Link(Ptr<Node> a, Ptr<Node> b) const;

    /**
     * \brief Apply the per-port settings to a port's transmit queue.
     * \param q the queue
     */
    void Configure(Ptr<UalinkTxQueue> q) const;

    ObjectFactory m_phy;      //!< PHY settings
    ObjectFactory m_endpoint; //!< endpoint settings
    ObjectFactory m_upli;     //!< UPLI settings
    ObjectFactory m_switch;   //!< switch settings
    ObjectFactory m_dl;       //!< DL settings
    FabricLinkHelper m_link;  //!< links
    /// \return whether the ports' queues are set to the fine mode (Granularity DlFlit)
    bool IsFineMode() const;

    std::vector<std::pair<std::string, Ptr<AttributeValue>>> m_queueAttrs;  //!< queue settings
    std::vector<std::pair<std::string, Ptr<AttributeValue>>> m_packerAttrs; //!< packer settings
    bool m_llr{false};                                                      //!< replay on
};

} // namespace ns3

#endif /* UALINK_HELPER_H */
