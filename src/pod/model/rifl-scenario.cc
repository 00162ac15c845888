/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rifl-scenario.h"

#include "ns3/basic-endpoint-helper.h"
#include "ns3/basic-endpoint.h"
#include "ns3/enum.h"
#include "ns3/fabric-islip-scheduler.h"
#include "ns3/fabric-switch.h"
#include "ns3/rifl-l2-header.h"
#include "ns3/rifl-segmentation.h"
#include "ns3/rifl-source-routing.h"
#include "ns3/rifl-voq-switch.h"
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
    if (pod.rifl.sw != "output-queued" && pod.sw.radix > FabricIslipScheduler::MAX_PORTS)
    {
        field = "pod.rifl.switch";
        message = pod.rifl.sw + " schedules with " +
                  std::to_string(FabricIslipScheduler::MAX_PORTS) +
                  "-bit port masks: pod.switch.radix " + std::to_string(pod.sw.radix) +
                  " needs pod.rifl.switch: output-queued";
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
    pod.link.codewordBits = (seg + RiflL2Header::SIZE) * 8; // one CRC per 264 B frame
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

void
RiflScenario::ConfigureSwitches(const std::vector<Ptr<FabricSwitch>>& switches,
                                const Scenario::Pod& pod)
{
    if (pod.rifl.sw == "output-queued")
    {
        return;
    }
    const auto arch = pod.rifl.sw == "islip"  ? RiflVoqSwitch::ISLIP
                      : pod.rifl.sw == "safc" ? RiflVoqSwitch::SAFC
                                              : RiflVoqSwitch::FIFO;
    // One cell on the wire: a 256 B segment and its 8 B L1 + L2 header (seed 003 IV.A).
    const uint32_t cellBytes = RiflSegmentation::SEGMENT_BYTES + RiflL2Header::SIZE;
    const Time cellTime = pod.link.rate.CalculateBytesTxTime(cellBytes);
    for (const auto& sw : switches)
    {
        Ptr<RiflVoqSwitch> v = CreateObject<RiflVoqSwitch>();
        v->SetAttribute("Architecture", EnumValue(arch));
        v->SetAttribute("CellTime", TimeValue(cellTime));
        v->SetAttribute("CellBytes", UintegerValue(cellBytes));
        v->GetScheduler()->SetAttribute("Iterations", UintegerValue(pod.rifl.islipIterations));
        v->Attach(sw);
        sw->AggregateObject(v);
    }
}

} // namespace ns3
