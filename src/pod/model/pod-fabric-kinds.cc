/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pod-fabric-kinds.h"

#include "ns3/abort.h"
#include "ns3/cell-fabric-kind.h"
#include "ns3/ethernet-fabric-kind.h"
#include "ns3/fabric-kind-registry.h"
#include "ns3/rifl-fabric-kind.h"
#include "ns3/sue-fabric-kind.h"
#include "ns3/ualink-fabric-kind.h"

#include <memory>

namespace ns3
{

void
PodFabricKinds::Register()
{
    static const bool registered = []() {
        // The order of the scenario reference and of pod.fabric's values.
        FabricKindRegistry::Add(std::make_unique<EthernetFabricKind>());
        FabricKindRegistry::Add(std::make_unique<SueFabricKind>());
        FabricKindRegistry::Add(std::make_unique<UalinkFabricKind>());
        FabricKindRegistry::Add(std::make_unique<RiflFabricKind>());
        FabricKindRegistry::Add(std::make_unique<CellFabricKind>());
        return true;
    }();
    (void)registered;
}

const FabricKind*
PodFabricKinds::Find(const std::string& name)
{
    Register();
    return FabricKindRegistry::Find(name);
}

const FabricKind&
PodFabricKinds::Get(const std::string& name)
{
    const FabricKind* kind = Find(name);
    NS_ABORT_MSG_IF(kind == nullptr, "no fabric kind named " << name);
    return *kind;
}

std::vector<const FabricKind*>
PodFabricKinds::GetAll()
{
    Register();
    return FabricKindRegistry::GetAll();
}

} // namespace ns3
