/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef POD_SWITCH_COUNT_H
#define POD_SWITCH_COUNT_H

#include "scenario.h"

#include <cstdint>

namespace ns3
{

class FabricKind;

/**
 * \ingroup pod
 * The number of switches in each plane that PodTopology::Build makes for a pod (0 for a mesh;
 * what the kind says for a fabric that lays out its own planes), for checking a scenario before
 * building (defined in pod-topology.cc, next to the arithmetic it repeats).
 * \param pod the pod section
 * \param kind the pod's fabric kind
 * \return switches per plane
 */
uint32_t PodSwitchesPerPlane(const Scenario::Pod& pod, const FabricKind& kind);

} // namespace ns3

#endif /* POD_SWITCH_COUNT_H */
