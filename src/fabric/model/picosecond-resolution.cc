/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// podsim runs at picosecond resolution (DESIGN.md rule 4: a UALink TL flit is 0.653 ns at x4;
// serialization is never rounded to nanoseconds). ns-3 allows the resolution to be set until the
// first Simulator::Run and converts every Time made before that, attribute defaults included.
// Setting it when this library is loaded makes it hold for every program that links podsim:
// podsim's own, an ns-3 tree's test-runner and examples, and the Python module alike.

#include "ns3/nstime.h"

namespace
{
/// Sets the resolution at load time.
struct PicosecondResolution
{
    PicosecondResolution()
    {
        ns3::Time::SetResolution(ns3::Time::PS);
    }
};

const PicosecondResolution g_picosecondResolution; //!< set when libfabric is loaded
} // namespace
