/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef POD_PLUGINS_H
#define POD_PLUGINS_H

#include "ns3/fabric-kind.h"
#include "ns3/workload-kind.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup pod
 * \brief The one registration list of the pod module: the fabric kinds (FabricKindRegistry) and
 * the plug-in workload kinds (WorkloadKindRegistry) podsim has. It is the only place in the pod
 * module that names a fabric or a module's workload: adding a fabric (or a workload kind that
 * brings its own program) means adding its kind here and nowhere else in the pod module.
 *
 * Every function registers the list first (once per program).
 */
class PodPlugins
{
  public:
    /// Register podsim's fabric and workload kinds (once; later calls do nothing).
    static void Register();

    /**
     * \param name a value of pod.fabric
     * \return its kind, or null
     */
    static const FabricKind* FindFabric(const std::string& name);

    /**
     * \param name a value of pod.fabric (a registered kind's)
     * \return its kind (aborts if there is none)
     */
    static const FabricKind& GetFabric(const std::string& name);

    /// \return every fabric kind, in registration order
    static std::vector<const FabricKind*> GetFabrics();

    /**
     * \param name a value of workloads[].kind
     * \return its plug-in kind, or null (the pod's own kinds are not plug-ins)
     */
    static const WorkloadKind* FindWorkload(const std::string& name);

    /// \return every plug-in workload kind, in registration order
    static std::vector<const WorkloadKind*> GetWorkloads();
};

} // namespace ns3

#endif /* POD_PLUGINS_H */
