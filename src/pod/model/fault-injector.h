/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FAULT_INJECTOR_H
#define FAULT_INJECTOR_H

#include "pod-topology.h"
#include "scenario.h"

#include <cstdint>
#include <map>
#include <string>

namespace ns3
{

class FabricNetDevice;

/**
 * \ingroup pod
 * \brief Applies a scenario's faults (the faults list) to a built pod, each at its time, and
 * counts what they did (fault campaigns, doc/robustness.rst).
 *
 * - link-down / link-up: PodTopology::SetLinkUp on the accelerator's port (SUE: the instance's
 *   SetPortDown / SetPortUp, section 3.4.8).
 * - switch-down: every link of the switch goes down; a link to an accelerator as that
 *   accelerator's port (so a SUE instance reacts), the others at both ends.
 * - accelerator-down: every port of the accelerator goes down: it neither sends nor answers.
 * - deny-route: on every plane, the switch the source is attached to drops what arrives from it
 *   for the destination (FabricSwitch::SetDenied, reason RouteDenied; UALink: the route
 *   table's deny bit, UalinkSwitch::SetDenied, section 10.7.1).
 * - bit-errors: both directions of one link (or every link) get the fault's error rates
 *   (FabricChannel::SetErrorRates) from `at` to `until`, then the pod.link rates again.
 *
 * The loader has already refused what a fabric does not model (ScenarioLoader).
 */
class FaultInjector
{
  public:
    /// What the faults did.
    struct Counters
    {
        uint64_t faults{0};          //!< faults applied
        uint64_t linkDowns{0};       //!< links taken down (each link once per transition)
        uint64_t linkUps{0};         //!< links brought back up
        uint64_t routesDenied{0};    //!< (switch, ingress port, destination) routes denied
        uint64_t linksWithErrors{0}; //!< link directions given a fault's error rates
    };

    /**
     * \param scenario the scenario (faults and pod.link rates read)
     * \param topo the built pod
     */
    FaultInjector(const Scenario& scenario, const PodTopology& topo);

    /// Schedule every fault of the scenario at its time.
    void Schedule();

    /**
     * Apply one fault now.
     * \param f the fault
     */
    void Apply(const Scenario::Fault& f);

    /// \return the counters
    const Counters& GetCounters() const;

    /**
     * \param f a fault
     * \return it in words, e.g. "link-down acc3 p1 at 300 ns"
     */
    static std::string Describe(const Scenario::Fault& f);

  private:
    /**
     * Take one accelerator port down or up, counting a change.
     * \param acc accelerator
     * \param plane plane
     * \param up new state
     */
    void SetAccLink(uint32_t acc, uint32_t plane, bool up);

    /**
     * switch-down.
     * \param plane plane
     * \param k switch index in the plane
     */
    void SwitchDown(uint32_t plane, uint32_t k);

    /**
     * deny-route on every plane.
     * \param src source accelerator
     * \param dst destination accelerator
     */
    void DenyRoute(uint32_t src, uint32_t dst);

    /**
     * Set the error rates of one link direction.
     * \param sender the device sending in that direction
     * \param cwer codeword error rate
     * \param ber bit error rate
     */
    void SetErrors(Ptr<FabricNetDevice> sender, double cwer, double ber);

    /**
     * bit-errors: set (or restore) the rates of the fault's links.
     * \param f the fault
     * \param on the fault's rates (true) or the pod.link rates (false)
     */
    void BitErrors(const Scenario::Fault& f, bool on);

    const Scenario& m_scenario; //!< the scenario
    const PodTopology& m_topo;  //!< the pod
    /// accelerator ports: device -> (accelerator, plane)
    std::map<const FabricNetDevice*, std::pair<uint32_t, uint32_t>> m_accPorts;
    Counters m_counters; //!< counters
};

} // namespace ns3

#endif /* FAULT_INJECTOR_H */
