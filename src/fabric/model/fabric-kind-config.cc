/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-kind-config.h"

#include "ns3/abort.h"

namespace ns3
{

FabricKindConfig::~FabricKindConfig() = default;

void
FabricKindConfig::CheckType(bool ok, const std::string& fabric)
{
    NS_ABORT_MSG_UNLESS(ok,
                        "FabricPodConfig::GetKind: the pod's section is not the one the "
                        "fabric kind "
                            << fabric << " reads (a pod configured for another fabric)");
}

} // namespace ns3
