/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rifl-scenario.h"

#include "ns3/basic-endpoint-helper.h"
#include "ns3/basic-endpoint.h"
#include "ns3/fabric-switch.h"
#include "ns3/rifl-l2-header.h"
#include "ns3/rifl-segmentation.h"
#include "ns3/rifl-source-routing.h"
#include "ns3/uinteger.h"

namespace ns3
{

bool
RiflScenario::Check(const Scenario::Pod& pod, std::string& field, std::string& message)
{
    const uint32_t seg = RiflSegmentation::SEGMENT_BYTES;
    if (pod.nic.mtu % seg != 0)
    {
        field = "pod.nic.mtu";
        message = "RIFL Layer 2 cuts packets into 256 B segments (seed 003 section IV.A): "
                  "the NIC packet must be a multiple of 256 B, not " +
                  std::to_string(pod.nic.mtu);
        return false;
    }
    if (pod.transport.kind != "none")
    {
        field = "pod.transport.kind";
        message = "RIFL is lossless hop by hop (NAK-only link retransmission, seed 003 section "
                  "II.A) and has no end-to-end transport: pod.transport is for the ethernet "
                  "fabric";
        return false;
    }
    if (pod.llr.mode == "ack-nak")
    {
        field = "pod.llr.mode";
        message = "RIFL Layer 1 retransmits on NAKs only (seed 003 section II.A): use nak-only";
        return false;
    }
    if (pod.sw.radix > 256)
    {
        field = "pod.switch.radix";
        message = "RIFL Dst Port fields are 8 bits (seed 003 section IV.A): at most 256 ports "
                  "per switch, not " +
                  std::to_string(pod.sw.radix);
        return false;
    }
    return true;
}

void
RiflScenario::Apply(Scenario::Pod& pod)
{
    const uint32_t seg = RiflSegmentation::SEGMENT_BYTES;
    pod.nic.headerBytes = RiflL2Header::SIZE * (pod.nic.mtu / seg);
    pod.link.interframeBytes = 0;
    pod.link.codewordBits = seg * 8;
    pod.llr.mode = "nak-only";
    pod.llr.links = "all";
}

void
RiflScenario::ConfigureEndpoints(BasicEndpointHelper& eh)
{
    eh.SetEndpointAttribute("HeaderBytes", UintegerValue(0));
    eh.SetEndpointAttribute("SegmentBytes", UintegerValue(RiflSegmentation::SEGMENT_BYTES));
    eh.SetEndpointAttribute("SegmentHeaderBytes", UintegerValue(RiflL2Header::SIZE));
}

void
RiflScenario::ConfigureSourceRouting(
    const std::vector<Ptr<FabricSwitch>>& switches,
    uint32_t perPlane,
    const std::vector<std::vector<Ptr<FabricNetDevice>>>& accDevices,
    const std::vector<Ptr<BasicEndpoint>>& endpoints)
{
    Ptr<RiflSourceRouting> r = CreateObject<RiflSourceRouting>();
    for (uint32_t k = 0; k < perPlane && k < switches.size(); ++k)
    {
        r->AddSwitch(switches[k]);
    }
    for (uint32_t a = 0; a < accDevices.size(); ++a)
    {
        if (!accDevices[a].empty())
        {
            r->SetAccessDevice(a, accDevices[a][0]);
        }
    }
    for (const auto& sw : switches)
    {
        sw->SetForwardCallback(MakeCallback(&RiflSourceRouting::Forward, r));
    }
    for (const auto& e : endpoints)
    {
        e->SetSourceRouteCallback(MakeCallback(&RiflSourceRouting::Route, r));
    }
}

} // namespace ns3
