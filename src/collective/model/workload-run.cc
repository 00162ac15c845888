/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "workload-run.h"

namespace ns3
{

WorkloadRun::~WorkloadRun() = default;

std::string
WorkloadRun::GetProgressWhat() const
{
    return "";
}

bool
WorkloadRun::OwnsMessage(uint64_t /* cookie */) const
{
    return false;
}

bool
WorkloadRun::TablesMessage(uint64_t /* cookie */, uint32_t& /* src */, uint32_t& /* dst */) const
{
    return false;
}

} // namespace ns3
