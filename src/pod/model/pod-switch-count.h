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

/**
 * \ingroup pod
 * The shape of one switched plane as PodTopology lays it out (pod-topology.h): one switch, two
 * tiers of leaves and spines, or three tiers of blocks of leaves, their spines and the cores.
 */
struct PodPlaneShape
{
    uint32_t tiers{0};    //!< 0 (a mesh), 1, 2 or 3
    uint32_t leaves{0};   //!< leaves (the one switch of a single-switch plane is not a leaf)
    uint32_t spines{0};   //!< spines of each block (two tiers: of the plane), a leaf's uplinks
    uint32_t blocks{0};   //!< three tiers: blocks of radix/2 leaves (two tiers: 1)
    uint32_t spineUp{0};  //!< three tiers: a spine's uplinks, one to each core of its column
    uint32_t cores{0};    //!< three tiers: cores
    uint32_t perPlane{0}; //!< switches of the plane
};

/**
 * \ingroup pod
 * The shape of a switched plane (FabricKind::UsesPlanePlan) before it is built: the counts
 * PodTopology's layout builds (defined in pod-topology.cc, whose layout uses them).
 * \param pod the pod section
 * \return the shape (tiers 0 for a mesh; perPlane 0 when the radix has no uplink)
 */
PodPlaneShape GetPodPlaneShape(const Scenario::Pod& pod);

} // namespace ns3

#endif /* POD_SWITCH_COUNT_H */
