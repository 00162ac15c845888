/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-kind-registry.h"

#include "ns3/abort.h"

namespace ns3
{

namespace
{

/// \return the kinds added so far
std::vector<std::unique_ptr<FabricKind>>&
Kinds()
{
    static std::vector<std::unique_ptr<FabricKind>> kinds;
    return kinds;
}

} // namespace

void
FabricKindRegistry::Add(std::unique_ptr<FabricKind> kind)
{
    NS_ABORT_MSG_IF(!kind, "FabricKindRegistry::Add: no kind");
    NS_ABORT_MSG_IF(Find(kind->GetName()) != nullptr,
                    "FabricKindRegistry::Add: a fabric kind named " << kind->GetName()
                                                                    << " is already there");
    Kinds().push_back(std::move(kind));
}

const FabricKind*
FabricKindRegistry::Find(const std::string& name)
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

std::vector<const FabricKind*>
FabricKindRegistry::GetAll()
{
    std::vector<const FabricKind*> all;
    for (const auto& k : Kinds())
    {
        all.push_back(k.get());
    }
    return all;
}

std::vector<std::string>
FabricKindRegistry::GetNames()
{
    std::vector<std::string> names;
    for (const auto& k : Kinds())
    {
        names.push_back(k->GetName());
    }
    return names;
}

} // namespace ns3
