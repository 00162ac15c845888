/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// podsim runs at picosecond resolution (DESIGN.md rule 4). Programs set it themselves: loading
// libfabric leaves ns-3's resolution as it is, so that linking podsim into an ns-3 program or
// source tree changes nothing for code that does not use it.

#include "picosecond-resolution.h"

#include "ns3/abort.h"
#include "ns3/nstime.h"

namespace ns3
{

namespace
{
/**
 * \param unit a Time unit
 * \return its name as ns-3 prints it
 */
const char*
UnitName(Time::Unit unit)
{
    switch (unit)
    {
    case Time::Y:
        return "years";
    case Time::D:
        return "days";
    case Time::H:
        return "hours";
    case Time::MIN:
        return "minutes";
    case Time::S:
        return "seconds";
    case Time::MS:
        return "milliseconds";
    case Time::US:
        return "microseconds";
    case Time::NS:
        return "nanoseconds";
    case Time::PS:
        return "picoseconds";
    case Time::FS:
        return "femtoseconds";
    default:
        return "an unknown unit";
    }
}
} // namespace

void
EnsurePicosecondResolution()
{
    if (Time::GetResolution() != Time::PS)
    {
        Time::SetResolution(Time::PS);
    }
}

void
CheckPicosecondResolution(const std::string& what)
{
    NS_ABORT_MSG_IF(Time::GetResolution() != Time::PS,
                    what << " made while ns-3's time resolution is "
                         << UnitName(Time::GetResolution())
                         << "; podsim needs picoseconds: call ns3::EnsurePicosecondResolution() "
                            "(ns3/picosecond-resolution.h) at the start of main(), before any "
                            "Time is made and before Simulator::Run (test suites: derive from "
                            "ns3::PicosecondTestSuite)");
}

} // namespace ns3
