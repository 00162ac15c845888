/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_KIND_H
#define FABRIC_KIND_H

#include "fabric-config-key.h"
#include "fabric-counters.h"
#include "fabric-endpoint.h"
#include "fabric-kind-config.h"
#include "fabric-pod-config.h"
#include "fabric-probe.h"

#include "ns3/callback.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

class FabricConfigReader;
class FabricGoBackN;
class FabricNetDevice;
class FabricTxQueue;
struct FabricPlanePlan;
struct FabricPod;

/**
 * \ingroup fabric
 * \brief One fabric of a pod (`pod.fabric`), as a plug-in of the pod module: its scenario keys
 * and their checks, how it builds a pod, what it counts, how the runner watches it.
 *
 * Each protocol module implements it once (ethernet in this module, sue, ualink, cell-fabric,
 * rifl) and the pod module registers the implementations in one list (FabricKindRegistry). The
 * pod module is a generic runner: it loads and validates a scenario, computes the switched planes
 * with their routes where a kind asks for them (UsesPlanePlan), asks the kind to build the pod,
 * runs the workloads over the endpoint API and writes the results; it never casts to a fabric's
 * own types.
 *
 * What a kind must give is its name, its summary and Build(); every other method has a default
 * that fits a fabric of switched planes with no section of its own and nothing to add.
 *
 * The methods are const: a kind holds no state of a run (a run's state is in the FabricPod and
 * the FabricKindConfig it made).
 */
class FabricKind
{
  public:
    virtual ~FabricKind();

    /// Ways the runner may move data through an endpoint (bit mask, GetOperations()).
    enum Operation
    {
        WRITE = 1,  //!< FabricEndpoint::Send: the source pushes a message
        READ = 2,   //!< FabricEndpoint::Read: the destination pulls it
        ATOMIC = 4, //!< FabricEndpoint::Atomic: an atomic operation on a word of the target
    };

    /// A set of accelerators that a workload makes talk to each other (CheckTraffic).
    struct TrafficGroup
    {
        std::string field;                  //!< the key that puts them together
        std::string what;                   //!< what they are, for messages
        std::vector<uint32_t> accelerators; //!< the accelerators
    };

    /// A fault the kind's own keys imply (GetImpliedFaults).
    struct Fault
    {
        std::string kind;        //!< a fault kind of the scenario's faults list (e.g. link-down)
        uint32_t accelerator{0}; //!< the accelerator
        uint32_t plane{0};       //!< the plane (port) of its link
        Time at;                 //!< when
    };

    // ---- Identity and scenario keys -------------------------------------------------------

    /// \return the value of pod.fabric that selects this kind ("sue")
    virtual std::string GetName() const = 0;

    /**
     * \return one line for the reference of pod.fabric, e.g. "ualink (UALink 200: one
     * single-tier switch per accelerator port; see pod.ualink)"
     */
    virtual std::string GetSummary() const = 0;

    /// \return the module's documentation, e.g. "src/sue/doc/sue.rst"
    virtual std::string GetDoc() const;

    /// \return the path of the kind's own section ("pod.sue"), or "" if it has none
    virtual std::string GetSection() const;

    /**
     * Declare the keys of the kind's own section, the section first (each key's path starts
     * with GetSection()).
     * \param keys where to add them
     */
    virtual void DeclareKeys(std::vector<FabricConfigKey>& keys) const;

    /**
     * Read and check the kind's section, and check the pod's generic keys against what the
     * fabric can build; set on \p pod what the fabric fixes. Errors go through \p in (they name
     * the file, line and key, and stop the loading).
     * \param in the scenario's keys
     * \param pod the pod's generic keys (read and checked already)
     * \return the kind's section (null when it has none)
     */
    virtual std::shared_ptr<const FabricKindConfig> Read(const FabricConfigReader& in,
                                                         FabricPodConfig& pod) const;

    // ---- What the fabric supports ---------------------------------------------------------

    /// \return the operations its endpoints offer (Operation bits; WRITE by default)
    virtual uint32_t GetOperations() const;

    /**
     * Check a workload's messages against what an operation allows on this fabric.
     * \param op an operation the fabric offers (Operation)
     * \param bytes the bytes of each message
     * \return why such messages are refused ("" if they are not)
     */
    virtual std::string CheckOperation(uint32_t op, uint64_t bytes) const;

    /// \return true if its pods are switched planes that the pod module lays out and routes
    ///         (FabricPlanePlan), false if Build() lays out its own
    virtual bool UsesPlanePlan() const;

    /// \return true if it can be wired as a mesh of direct links (pod.topology: mesh)
    virtual bool SupportsMesh() const;

    /// \return true if a distributed run (MPI ranks) can build it (by default: UsesPlanePlan())
    virtual bool SupportsDistributed() const;

    /**
     * \param pod the pod
     * \return switches per plane, for a kind that lays out its own planes (UsesPlanePlan()
     *         false; the pod module computes it otherwise)
     */
    virtual uint32_t GetSwitchesPerPlane(const FabricPodConfig& pod) const;

    /**
     * Memory the pod's objects take per accelerator (its endpoint, devices and links, its share
     * of the switches' ports), for the estimate made before a build (the pod module's memory
     * check). The route tables of switched planes (UsesPlanePlan()) are not included: the pod
     * module adds them from the plane's shape. Measured as the peak resident memory of built
     * pods, less the process's own, over their accelerators (pod.rst, Memory estimate).
     * \param pod the pod
     * \return bytes per accelerator (default: 16 KiB per plane, the Ethernet NIC's figure)
     */
    virtual uint64_t EstimateBytesPerAccelerator(const FabricPodConfig& pod) const;

    /**
     * Traffic classes the fabric uses on its own beside the workloads' (switch classes must
     * cover them, and a lossless link layer must keep them lossless).
     * \param pod the pod
     * \param reads a workload reads
     * \param [out] why for each class, why the fabric uses it (for messages)
     * \return the classes
     */
    virtual std::vector<uint32_t> GetOwnClasses(const FabricPodConfig& pod,
                                                bool reads,
                                                std::vector<std::string>& why) const;

    /**
     * Check the groups of accelerators that the workloads make talk to each other (a fabric
     * that partitions the pod refuses a group across its partitions). Errors go through \p in.
     * \param in the scenario's keys
     * \param pod the pod
     * \param groups the groups, in workload order
     */
    virtual void CheckTraffic(const FabricConfigReader& in,
                              const FabricPodConfig& pod,
                              const std::vector<TrafficGroup>& groups) const;

    /**
     * Check one injected fault against what the fabric models. Errors go through \p in.
     * \param in the scenario's keys
     * \param pod the pod
     * \param kind the fault's kind (faults[].kind)
     * \param path the fault's path ("faults[2]")
     */
    virtual void CheckFault(const FabricConfigReader& in,
                            const FabricPodConfig& pod,
                            const std::string& kind,
                            const std::string& path) const;

    /**
     * \param pod the pod
     * \return faults that the kind's own keys ask for (injected as the faults list's are)
     */
    virtual std::vector<Fault> GetImpliedFaults(const FabricPodConfig& pod) const;

    // ---- Building ---------------------------------------------------------------------------

    /**
     * Build the pod: nodes, endpoints, switches, links and routes.
     * \param pod the validated pod (with the kind's section)
     * \param plan the plane layout and routes, when UsesPlanePlan() (else null)
     * \param out the built pod
     */
    virtual void Build(const FabricPodConfig& pod,
                       const FabricPlanePlan* plan,
                       FabricPod& out) const = 0;

    /**
     * Take the link of accelerator \p acc's port on \p plane down, or bring it back up, as the
     * accelerator sees it (by default: both ends of the channel).
     * \param pod the built pod
     * \param config the pod's configuration
     * \param acc the accelerator
     * \param plane the plane of the port
     * \param up the new state
     */
    virtual void SetLinkUp(const FabricPod& pod,
                           const FabricPodConfig& config,
                           uint32_t acc,
                           uint32_t plane,
                           bool up) const;

    // ---- Watching, checking and counting a run ---------------------------------------------

    /**
     * Make the no-progress probe of a transmit queue of the kind's own type.
     * \param q the queue
     * \param [out] probe its held, progress and describe functions (name is set by the caller)
     * \return false if the queue is not of the kind's own types
     */
    virtual bool MakeQueueProbe(Ptr<FabricTxQueue> q, FabricProbe& probe) const;

    /**
     * Add the no-progress probes of the kind's own queues beside the ports' (requests waiting
     * for a tag, jobs waiting for a grant).
     * \param pod the built pod
     * \param probes where to add them
     */
    virtual void AddProbes(const FabricPod& pod, std::vector<FabricProbe>& probes) const;

    /**
     * \param dev a transmitting device of the pod
     * \return the units it sent that the benchmark figures count as hops (by default every unit
     *         it sent)
     */
    virtual uint64_t GetHops(Ptr<FabricNetDevice> dev) const;

    /**
     * \param ep an endpoint of the pod
     * \return its end-to-end transports (the go-back-N connections of its ports), if any
     */
    virtual std::vector<Ptr<FabricGoBackN>> GetTransports(Ptr<FabricEndpoint> ep) const;

    /**
     * With the invariant checks on (FabricInvariantCheck): name the kind's own components for
     * the checks' messages, and call \p piece for every piece of a flow the fabric drops outside
     * the devices (a switch's route drops), with the flow's source, destination and reason.
     * \param pod the built pod
     * \param piece the callback
     */
    virtual void WatchChecks(const FabricPod& pod,
                             Callback<void, uint32_t, uint32_t, const std::string&> piece) const;

    /**
     * With the invariant checks on, at the end of a run that drained: fail
     * (FabricInvariantCheck::Fail) where the kind's own state did not return home (credits,
     * buffers, grants).
     * \param pod the built pod
     */
    virtual void CheckDrained(const FabricPod& pod) const;

    /**
     * Add what the fabric counted in the run.
     * \param pod the built pod
     * \param [in,out] counters drops by reason and named counters
     */
    virtual void Collect(const FabricPod& pod, FabricCounters& counters) const;

    // ---- Rails (a run split into independent processes, one per rail) ----------------------

    /// \return true if a pod of this fabric can be split into runs of some rails (GetRailGroup)
    virtual bool SplitsByRails() const;

    /**
     * \param pod the pod
     * \return how many consecutive rails (planes) must run together (an instance of several
     *         ports: its ports), or 0 if the fabric cannot be split by rails
     */
    virtual uint32_t GetRailGroup(const FabricPodConfig& pod) const;

    /**
     * \param pod the pod
     * \param rails the rails to run (sorted, each a plane of the pod)
     * \return why the kind's own keys couple these rails ("" if they do not)
     */
    virtual std::string GetRailRefusal(const FabricPodConfig& pod,
                                       const std::vector<uint32_t>& rails) const;

    /// \return where the doc explains the split, e.g. "src/sue/doc/sue.rst, Planes in parallel"
    virtual std::string GetRailDoc() const;

    /// \return what an injected fault does that couples the rails, e.g. "work moved off a
    ///         failed port"
    virtual std::string GetRailFaultCoupling() const;

    /**
     * Let the endpoints carry only what goes over some rails.
     * \param pod the built pod
     * \param rails mask of the rails run
     * \param skipped called for every message with nothing on those rails
     */
    virtual void ActivateRails(const FabricPod& pod,
                               uint64_t rails,
                               FabricEndpoint::MessageCallback skipped) const;

    /**
     * \param pod the built pod
     * \return payload bytes the endpoints posted on the rails run (ActivateRails)
     */
    virtual uint64_t GetRailBytesSent(const FabricPod& pod) const;
};

} // namespace ns3

#endif /* FABRIC_KIND_H */
