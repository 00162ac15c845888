/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_PROBE_H
#define FABRIC_PROBE_H

#include <cstdint>
#include <functional>
#include <string>

namespace ns3
{

/**
 * \ingroup fabric
 * \brief A place in a pod where work can wait (a port's transmit queue, a fabric's request or
 * job queue), as the pod's no-progress watchdog looks at it: how much it holds, a counter that
 * grows whenever it makes progress, and its state in words for the report.
 *
 * The runner makes one for every transmitting device; a FabricKind adds its own
 * (FabricKind::AddProbes, FabricKind::MakeQueueProbe).
 */
struct FabricProbe
{
    std::string name;                      //!< e.g. "acc3:port1 (acc3->p1.sw0) tx queue"
    std::function<uint64_t()> held;        //!< work it holds now (0: nothing)
    std::function<uint64_t()> progress;    //!< grows whenever it makes progress
    std::function<std::string()> describe; //!< its state for the report
};

} // namespace ns3

#endif /* FABRIC_PROBE_H */
