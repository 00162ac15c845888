/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_KIND_CONFIG_H
#define FABRIC_KIND_CONFIG_H

#include <string>

namespace ns3
{

/**
 * \ingroup fabric
 * \brief The validated scenario section of one fabric kind (`pod.sue`, `pod.ualink`, ...):
 * each FabricKind derives its own and fills it in FabricKind::Read. The pod module keeps it
 * without looking inside (FabricPodConfig::kind).
 */
class FabricKindConfig
{
  public:
    virtual ~FabricKindConfig();

    /**
     * Abort with a clear message when a fabric kind is handed another kind's section (a
     * programming error: FabricPodConfig::GetKind).
     * \param ok the section has the expected type
     * \param fabric the pod's fabric name
     */
    static void CheckType(bool ok, const std::string& fabric);
};

} // namespace ns3

#endif /* FABRIC_KIND_CONFIG_H */
