/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_KIND_REGISTRY_H
#define FABRIC_KIND_REGISTRY_H

#include "fabric-kind.h"

#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup fabric
 * \brief The fabric kinds a program knows, by name, in the order they were added.
 *
 * The pod module adds every kind podsim has from one registration list (PodPlugins); a
 * program may add a kind of its own before loading a scenario. Names are unique.
 */
class FabricKindRegistry
{
  public:
    /**
     * Add a kind (aborts if a kind of the same name is there).
     * \param kind the kind
     */
    static void Add(std::unique_ptr<FabricKind> kind);

    /**
     * \param name a value of pod.fabric
     * \return its kind, or null
     */
    static const FabricKind* Find(const std::string& name);

    /// \return every kind, in the order added
    static std::vector<const FabricKind*> GetAll();

    /// \return the names of every kind, in the order added
    static std::vector<std::string> GetNames();
};

} // namespace ns3

#endif /* FABRIC_KIND_REGISTRY_H */
