/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PICOSECOND_RESOLUTION_H
#define PICOSECOND_RESOLUTION_H

#include <string>

namespace ns3
{

/**
 * \ingroup fabric
 * \brief Set ns-3's time resolution to picoseconds, unless it already is.
 *
 * podsim computes time on the wire exactly in picoseconds (DESIGN.md rule 4: a UALink TL flit is
 * 0.653 ns at x4; serialization is never rounded to nanoseconds). ns-3's default resolution is
 * nanoseconds, and linking podsim's libraries does not change it: every program that uses them
 * calls this first thing in main(), before it makes any Time and before Simulator::Run:
 *
 * \code
 *   #include "ns3/picosecond-resolution.h"
 *   int main(int argc, char* argv[])
 *   {
 *       ns3::EnsurePicosecondResolution();
 *       ...
 * \endcode
 *
 * Test suites derive from PicosecondTestSuite, which calls it before their cases run.
 *
 * ns-3 converts every Time made before the change (attribute defaults registered when the
 * libraries were loaded included), and allows the change until the first Simulator::Run of the
 * process; after that a call that would change the resolution is an error of ns-3's
 * (Time::SetResolution: "called more than once?"). A Time made before the change keeps only
 * whole nanoseconds, so sub-nanosecond values are made after the call, never at static
 * initialization.
 */
void EnsurePicosecondResolution();

/**
 * \ingroup fabric
 * \brief Stop the program with a message naming EnsurePicosecondResolution() unless ns-3's time
 * resolution is picoseconds.
 *
 * FabricChannel and FabricNetDevice call it when they are constructed, so a program that forgot
 * the call stops at its first fabric object instead of running with times rounded to the
 * resolution ns-3 had.
 *
 * \param what the object being made, for the message (e.g. "ns3::FabricChannel")
 */
void CheckPicosecondResolution(const std::string& what);

} // namespace ns3

#endif /* PICOSECOND_RESOLUTION_H */
