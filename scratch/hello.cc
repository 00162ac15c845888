/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// A starting point for your own programs: every .cc in scratch/ is built as its own program,
// build/bin/scratch-<name> (here build/bin/scratch-hello), linked to every podsim module.

#include "ns3/core-module.h"

#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    // libfabric sets picosecond resolution when it is loaded; ns-3 allows one change only.
    if (Time::GetResolution() != Time::PS)
    {
        Time::SetResolution(Time::PS);
    }

    Time delay = NanoSeconds(1);
    CommandLine cmd(__FILE__);
    cmd.AddValue("delay", "when to say hello", delay);
    cmd.Parse(argc, argv);

    Simulator::Schedule(delay, []() {
        std::cout << "hello podsim at " << Simulator::Now().As(Time::PS) << std::endl;
    });
    Simulator::Run();
    Simulator::Destroy();
    return 0;
}
