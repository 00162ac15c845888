/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "workload-config.h"

namespace ns3
{

WorkloadConfig::~WorkloadConfig() = default;

std::map<std::string, std::string>
WorkloadConfig::GetTexts() const
{
    return {};
}

std::map<std::string, uint64_t>
WorkloadConfig::GetCounts() const
{
    return {};
}

std::string
WorkloadConfig::GetSourceFile() const
{
    return "";
}

std::shared_ptr<const DagProgram>
WorkloadConfig::GetDag() const
{
    return nullptr;
}

std::shared_ptr<const DagProgram>
WorkloadConfig::GetExportDag() const
{
    return GetDag();
}

} // namespace ns3
