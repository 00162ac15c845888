/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef WORKLOAD_KIND_H
#define WORKLOAD_KIND_H

#include "workload-config.h"
#include "workload-run.h"

#include "ns3/fabric-config-key.h"
#include "ns3/fabric-endpoint.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

class FabricConfigReader;

/**
 * \ingroup collective
 * \brief A kind of workload that a module plugs into the pod's runner (`workloads[].kind`), for
 * workloads that bring their own program: a Pyxis model's trip programs, and later traces.
 *
 * The pod module runs its own kinds (incast, permutation, all-to-all, collective, dag); a module
 * registers a WorkloadKind in the pod's one registration list for each kind it adds. The kind
 * declares its keys (workloads[].<key> with Kinds({name})), reads and checks them, and starts
 * its program on the pod's endpoints over the endpoint API only, so it runs on every fabric.
 */
class WorkloadKind
{
  public:
    /// What the kind may check a workload against when it reads it.
    struct Context
    {
        std::string scenarioFile; //!< the scenario's file (relative files are beside it)
        uint32_t accelerators{0}; //!< pod.accelerators
        uint32_t workloads{0};    //!< how many workloads the scenario has
        Time start;               //!< the workload's start
        std::string fabric;       //!< pod.fabric
    };

    virtual ~WorkloadKind();

    /// \return the value of workloads[].kind ("pyxis")
    virtual std::string GetName() const = 0;

    /// \return a short phrase for the reference of workloads[].kind ("a Pyxis model")
    virtual std::string GetSummary() const = 0;

    /// \return one line for the reference's checks across keys ("" if none)
    virtual std::string GetChecks() const;

    /**
     * Declare the workload keys only this kind takes (workloads[].<key>, with Kinds({name})).
     * \param keys where to add them
     */
    virtual void DeclareKeys(std::vector<FabricConfigKey>& keys) const;

    /**
     * Read and check a workload of this kind. Errors go through \p in.
     * \param in the scenario's keys
     * \param path the workload's path ("workloads[0]")
     * \param context the scenario around it
     * \return its configuration
     */
    virtual std::shared_ptr<const WorkloadConfig> Read(const FabricConfigReader& in,
                                                       const std::string& path,
                                                       const Context& context) const = 0;

    /**
     * Start a workload on a built pod (at time 0 of the run, before the simulation starts).
     * \param config its configuration (from Read())
     * \param endpoints the pod's endpoints, by accelerator id
     * \param [out] error why it could not start
     * \return the running workload, or null (then \p error says why)
     */
    virtual std::unique_ptr<WorkloadRun> Start(const WorkloadConfig& config,
                                               const std::vector<Ptr<FabricEndpoint>>& endpoints,
                                               std::string& error) const = 0;
};

} // namespace ns3

#endif /* WORKLOAD_KIND_H */
