/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef POD_FABRIC_KINDS_H
#define POD_FABRIC_KINDS_H

#include "ns3/fabric-kind.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup pod
 * \brief The fabric kinds podsim registers (FabricKindRegistry): the one list that names every
 * fabric module. Adding a fabric means adding its kind here and nowhere else in the pod module.
 *
 * Every function registers the list first (once per program).
 */
class PodFabricKinds
{
  public:
    /// Register podsim's fabric kinds (once; later calls do nothing).
    static void Register();

    /**
     * \param name a value of pod.fabric
     * \return its kind, or null
     */
    static const FabricKind* Find(const std::string& name);

    /**
     * \param name a value of pod.fabric (a registered kind's)
     * \return its kind (aborts if there is none)
     */
    static const FabricKind& Get(const std::string& name);

    /// \return every kind, in registration order
    static std::vector<const FabricKind*> GetAll();
};

} // namespace ns3

#endif /* POD_FABRIC_KINDS_H */
