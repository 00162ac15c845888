/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "workload-kind-registry.h"

#include "ns3/abort.h"

namespace ns3
{

namespace
{

/// \return the kinds added so far
std::vector<std::unique_ptr<WorkloadKind>>&
Kinds()
{
    static std::vector<std::unique_ptr<WorkloadKind>> kinds;
    return kinds;
}

} // namespace

void
WorkloadKindRegistry::Add(std::unique_ptr<WorkloadKind> kind)
{
    NS_ABORT_MSG_IF(!kind, "WorkloadKindRegistry::Add: no kind");
    NS_ABORT_MSG_IF(Find(kind->GetName()) != nullptr,
                    "WorkloadKindRegistry::Add: a workload kind named " << kind->GetName()
                                                                        << " is already there");
    Kinds().push_back(std::move(kind));
}

const WorkloadKind*
WorkloadKindRegistry::Find(const std::string& name)
{
    for (const auto& k : Kinds())
    {
        if (k->GetName() == name)
        {
            return k.get();
        }
    }
    return nullptr;
}

std::vector<const WorkloadKind*>
WorkloadKindRegistry::GetAll()
{
    std::vector<const WorkloadKind*> all;
    for (const auto& k : Kinds())
    {
        all.push_back(k.get());
    }
    return all;
}

} // namespace ns3
