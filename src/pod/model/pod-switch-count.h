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

/**
 * \ingroup pod
 * The number of switches in each plane that PodTopology::Build makes for a pod (0 for a mesh
 * and for the cell fabric, whose helper builds its planes; UALink: 1), for checking a scenario
 * before building (defined in pod-topology.cc, next to the arithmetic it repeats).
 * \param pod the pod section
 * \return switches per plane
 */
uint32_t PodSwitchesPerPlane(const Scenario::Pod& pod);

} // namespace ns3

#endif /* POD_SWITCH_COUNT_H */
