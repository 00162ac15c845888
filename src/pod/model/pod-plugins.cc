/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pod-plugins.h"

#include "ns3/abort.h"
#include "ns3/cell-fabric-kind.h"
#include "ns3/chakra-workload-kind.h"
#include "ns3/ethernet-fabric-kind.h"
#include "ns3/fabric-kind-registry.h"
#include "ns3/llm-step-workload-kind.h"
#include "ns3/message-trace-workload-kind.h"
#include "ns3/pyxis-workload-kind.h"
#include "ns3/rifl-fabric-kind.h"
#include "ns3/sue-fabric-kind.h"
#include "ns3/ualink-fabric-kind.h"
#include "ns3/workload-kind-registry.h"

#include <memory>

namespace ns3
{

void
PodPlugins::Register()
{
    static const bool registered = []() {
        // The fabrics, in the order of the scenario reference and of pod.fabric's values.
        FabricKindRegistry::Add(std::make_unique<EthernetFabricKind>());
        FabricKindRegistry::Add(std::make_unique<SueFabricKind>());
        FabricKindRegistry::Add(std::make_unique<UalinkFabricKind>());
        FabricKindRegistry::Add(std::make_unique<RiflFabricKind>());
        FabricKindRegistry::Add(std::make_unique<CellFabricKind>());
        // The workload kinds that modules bring (after the pod's own kinds in the reference).
        WorkloadKindRegistry::Add(std::make_unique<PyxisWorkloadKind>());
        WorkloadKindRegistry::Add(std::make_unique<LlmStepWorkloadKind>());
        WorkloadKindRegistry::Add(std::make_unique<MessageTraceWorkloadKind>());
        WorkloadKindRegistry::Add(std::make_unique<ChakraWorkloadKind>());
        return true;
    }();
    (void)registered;
}

const FabricKind*
PodPlugins::FindFabric(const std::string& name)
{
    Register();
    return FabricKindRegistry::Find(name);
}

const FabricKind&
PodPlugins::GetFabric(const std::string& name)
{
    const FabricKind* kind = FindFabric(name);
    NS_ABORT_MSG_IF(kind == nullptr, "no fabric kind named " << name);
    return *kind;
}

std::vector<const FabricKind*>
PodPlugins::GetFabrics()
{
    Register();
    return FabricKindRegistry::GetAll();
}

const WorkloadKind*
PodPlugins::FindWorkload(const std::string& name)
{
    Register();
    return WorkloadKindRegistry::Find(name);
}

std::vector<const WorkloadKind*>
PodPlugins::GetWorkloads()
{
    Register();
    return WorkloadKindRegistry::GetAll();
}

} // namespace ns3
