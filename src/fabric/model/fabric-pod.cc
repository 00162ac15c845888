/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-pod.h"

#include "fabric-routing-table.h"
#include "fabric-shared-buffer.h"

namespace ns3
{

FabricPod::SwitchView
FabricPod::View(Ptr<FabricSwitch> sw, const std::string& name, uint32_t plane)
{
    SwitchView v;
    v.name = name;
    v.plane = plane;
    for (uint32_t i = 0; i < sw->GetNPorts(); ++i)
    {
        v.ports.push_back(sw->GetPort(i));
    }
    Ptr<FabricSharedBuffer> buffer = sw->GetBuffer();
    v.occupancySource = buffer;
    v.occupancy = [buffer]() { return buffer->GetOccupancy(); };
    v.peakOccupancy = [buffer]() { return buffer->GetPeakOccupancy(); };
    v.denyRoute = [sw](uint32_t ingress, uint32_t dst) { sw->SetDenied(ingress, dst, true); };
    return v;
}

} // namespace ns3
