/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// podsim-resolution-check: linked with every podsim library (each one is loaded), it
// prints ns-3's time resolution as main() finds it, optionally calls EnsurePicosecondResolution(),
// then makes a FabricChannel and a FabricNetDevice. test/python/test_resolution.py checks that
// loading the libraries leaves ns-3's default (nanoseconds), that a fabric object made without
// the call stops the program with a message naming it, and that with the call it is made.
//
//   build/bin/podsim-resolution-check [--ensure]

#include "ns3/fabric-channel.h"
#include "ns3/fabric-net-device.h"
#include "ns3/nstime.h"
#include "ns3/picosecond-resolution.h"

#include <iostream>
#include <string>

using namespace ns3;

int
main(int argc, char* argv[])
{
    const bool ensure = argc > 1 && std::string(argv[1]) == "--ensure";
    std::cout << "resolution at main: " << (Time::GetResolution() == Time::PS ? "ps" : "not ps")
              << (Time::GetResolution() == Time::NS ? " (ns)" : "") << std::endl;
    if (ensure)
    {
        EnsurePicosecondResolution();
    }
    Ptr<FabricChannel> channel = CreateObject<FabricChannel>();
    Ptr<FabricNetDevice> device = CreateObject<FabricNetDevice>();
    std::cout << "made a FabricChannel and a FabricNetDevice at "
              << (Time::GetResolution() == Time::PS ? "ps" : "not ps") << std::endl;
    return 0;
}
