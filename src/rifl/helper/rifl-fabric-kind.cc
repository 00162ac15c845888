/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rifl-fabric-kind.h"

#include "ns3/abort.h"
#include "ns3/basic-endpoint.h"
#include "ns3/enum.h"
#include "ns3/fabric-config-reader.h"
#include "ns3/fabric-islip-scheduler.h"
#include "ns3/fabric-plane-plan.h"
#include "ns3/fabric-pod.h"
#include "ns3/rifl-l2-header.h"
#include "ns3/rifl-segmentation.h"
#include "ns3/rifl-source-routing.h"
#include "ns3/rifl-voq-switch.h"
#include "ns3/uinteger.h"

namespace ns3
{

std::string
RiflFabricKind::GetName() const
{
    return "rifl";
}

std::string
RiflFabricKind::GetSummary() const
{
    return "rifl (RIFL, RIFL paper: 256 B segments with the 8-byte L1+L2 header, NAK-only Layer 1 "
           "on every link; sets pod.nic.header-bytes, pod.link.codeword-bits, "
           "pod.link.interframe-bytes and pod.llr)";
}

std::string
RiflFabricKind::GetDoc() const
{
    return "src/rifl/doc/rifl.rst";
}

std::string
RiflFabricKind::GetSection() const
{
    return "pod.rifl";
}

void
RiflFabricKind::DeclareKeys(std::vector<FabricConfigKey>& k) const
{
    using K = FabricConfigKey;
    k.push_back(K("pod.rifl", K::MAP)
                    .Help("RIFL switches (pod.fabric: rifl, RIFL paper sections IV.C, V.A)."));
    k.push_back(K("pod.rifl.switch", K::ENUM)
                    .Default("islip")
                    .Allowed({"islip", "safc", "fifo", "output-queued"})
                    .Help("islip: VOQ per input and output with an iSLIP scheduler deciding at "
                          "cell-time boundaries (the RIFL switch, section IV.C); safc: the ideal "
                          "statically allocated fully connected switch (section V.A); fifo: "
                          "input-queued FIFO without VOQs; output-queued: the generic fabric "
                          "switch. islip, safc and fifo need pod.switch.radix <= 64."));
    k.push_back(K("pod.rifl.islip-iterations", K::UINT)
                    .Default("3")
                    .Range(1, 64)
                    .Help("iSLIP iterations per cell time (3 for the 32-port switch, section "
                          "IV.C)."));
}

std::shared_ptr<const FabricKindConfig>
RiflFabricKind::Read(const FabricConfigReader& in, FabricPodConfig& pod) const
{
    auto c = std::make_shared<Config>();
    c->sw = in.Get("pod.rifl.switch").str;
    c->islipIterations = static_cast<uint32_t>(in.Get("pod.rifl.islip-iterations").u);
    const uint32_t seg = RiflSegmentation::SEGMENT_BYTES;
    if (pod.nic.mtu % seg != 0)
    {
        in.Fail("pod.nic.mtu",
                "RIFL Layer 2 cuts packets into 256 B segments (RIFL paper section IV.A): "
                "the NIC packet must be a multiple of 256 B, not " +
                    std::to_string(pod.nic.mtu));
    }
    if (pod.transport.kind != "none")
    {
        in.Fail("pod.transport.kind",
                "RIFL is lossless hop by hop (NAK-only link retransmission, RIFL paper section "
                "II.A) and has no end-to-end transport: pod.transport is for the ethernet "
                "fabric");
    }
    if (pod.llr.mode == "ack-nak")
    {
        in.Fail("pod.llr.mode",
                "RIFL Layer 1 retransmits on NAKs only (RIFL paper section II.A): use nak-only");
    }
    if (pod.sw.radix > 256)
    {
        in.Fail("pod.switch.radix",
                "RIFL Dst Port fields are 8 bits (RIFL paper section IV.A): at most 256 ports "
                "per switch, not " +
                    std::to_string(pod.sw.radix));
    }
    if (c->sw != "output-queued" && pod.sw.radix > FabricIslipScheduler::MAX_PORTS)
    {
        in.Fail("pod.rifl.switch",
                c->sw + " schedules with " + std::to_string(FabricIslipScheduler::MAX_PORTS) +
                    "-bit port masks: pod.switch.radix " + std::to_string(pod.sw.radix) +
                    " needs pod.rifl.switch: output-queued");
    }
    // What RIFL fixes: its framing and its Layer 1 on every link.
    pod.nic.headerBytes = RiflL2Header::SIZE * (pod.nic.mtu / seg);
    pod.link.interframeBytes = 0;
    pod.link.codewordBits = (seg + RiflL2Header::SIZE) * 8; // one CRC per 264 B frame
    pod.llr.mode = "nak-only";
    pod.llr.links = "all";
    return c;
}

void
RiflFabricKind::Build(const FabricPodConfig& pod, const FabricPlanePlan* plan, FabricPod& out) const
{
    NS_ABORT_MSG_IF(plan == nullptr, "RiflFabricKind::Build: no plane plan");
    BasicEndpointHelper eh = MakeEndpointHelper(pod);
    // RIFL NICs: 256 B segments, each with the 8 B L1 + L2 header (the NIC's own per-packet
    // header is then 0).
    eh.SetEndpointAttribute("HeaderBytes", UintegerValue(0));
    eh.SetEndpointAttribute("SegmentBytes", UintegerValue(RiflSegmentation::SEGMENT_BYTES));
    eh.SetEndpointAttribute("SegmentHeaderBytes", UintegerValue(RiflL2Header::SIZE));
    const std::vector<Ptr<BasicEndpoint>> nics = BuildPlanes(pod, *plan, eh, out);
    ConfigureSourceRouting(out, nics);
    ConfigureSwitches(out.switches, pod);
}

void
RiflFabricKind::ConfigureSourceRouting(const FabricPod& out,
                                       const std::vector<Ptr<BasicEndpoint>>& endpoints)
{
    Ptr<RiflSourceRouting> r = CreateObject<RiflSourceRouting>();
    const auto& switches = out.switches;
    for (uint32_t k = 0; k < out.switchesPerPlane && k < switches.size(); ++k)
    {
        r->AddSwitch(switches[k]);
    }
    for (uint32_t a = 0; a < out.accDevices.size(); ++a)
    {
        if (!out.accDevices[a].empty())
        {
            r->SetAccessDevice(a, out.accDevices[a][0]);
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
RiflFabricKind::ConfigureSwitches(const std::vector<Ptr<FabricSwitch>>& switches,
                                  const FabricPodConfig& pod)
{
    const Config& c = pod.GetKind<Config>();
    if (c.sw == "output-queued")
    {
        return;
    }
    const auto arch = c.sw == "islip"  ? RiflVoqSwitch::ISLIP
                      : c.sw == "safc" ? RiflVoqSwitch::SAFC
                                       : RiflVoqSwitch::FIFO;
    // One cell on the wire: a 256 B segment and its 8 B L1 + L2 header (RIFL paper IV.A).
    const uint32_t cellBytes = RiflSegmentation::SEGMENT_BYTES + RiflL2Header::SIZE;
    const Time cellTime = pod.link.rate.CalculateBytesTxTime(cellBytes);
    for (const auto& sw : switches)
    {
        Ptr<RiflVoqSwitch> v = CreateObject<RiflVoqSwitch>();
        v->SetAttribute("Architecture", EnumValue(arch));
        v->SetAttribute("CellTime", TimeValue(cellTime));
        v->SetAttribute("CellBytes", UintegerValue(cellBytes));
        v->GetScheduler()->SetAttribute("Iterations", UintegerValue(c.islipIterations));
        v->Attach(sw);
        sw->AggregateObject(v);
    }
}

} // namespace ns3
