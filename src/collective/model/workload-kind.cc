/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "workload-kind.h"

namespace ns3
{

WorkloadKind::~WorkloadKind() = default;

std::string
WorkloadKind::GetChecks() const
{
    return "";
}

void
WorkloadKind::DeclareKeys(std::vector<FabricConfigKey>& /* keys */) const
{
}

} // namespace ns3
