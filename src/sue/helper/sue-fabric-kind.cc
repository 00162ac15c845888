/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "sue-fabric-kind.h"

#include "sue-helper.h"

#include "ns3/abort.h"
#include "ns3/enum.h"
#include "ns3/fabric-config-reader.h"
#include "ns3/fabric-go-back-n.h"
#include "ns3/fabric-plane-helper.h"
#include "ns3/fabric-plane-plan.h"
#include "ns3/fabric-pod.h"
#include "ns3/sue-endpoint.h"
#include "ns3/sue-framing.h"
#include "ns3/sue-instance.h"
#include "ns3/sue-packer.h"
#include "ns3/sue-phy.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace ns3
{

std::string
SueFabricKind::GetName() const
{
    return "sue";
}

std::string
SueFabricKind::GetSummary() const
{
    return "sue (Broadcom Scale-Up Ethernet: one SUE instance per pod.sue.ports planes; see "
           "pod.sue)";
}

std::string
SueFabricKind::GetSection() const
{
    return "pod.sue";
}

void
SueFabricKind::DeclareKeys(std::vector<FabricConfigKey>& k) const
{
    using K = FabricConfigKey;
    k.push_back(
        K("pod.sue", K::MAP).Help("SUE (pod.fabric: sue): each XPU has planes / ports instances."));
    k.push_back(K("pod.sue.ports", K::UINT)
                    .Default("1")
                    .Range(1, 4)
                    .Unit("ports")
                    .Help("Ethernet ports per SUE instance: 1, 2 or 4 (SUE RM102 section 1.1); "
                          "pod.planes must be a multiple, and pod.link.rate times ports a SUE "
                          "instance rate of Table 4 (800G: 1x800, 2x400, 4x200; 400G: 1x400, "
                          "2x200, 4x100)."));
    k.push_back(K("pod.sue.ordering", K::ENUM)
                    .Default("strict")
                    .Allowed({"strict", "unordered"})
                    .Help("strict: in order per source, destination and VC, one port per "
                          "destination; unordered: PDUs spread over the instance's ports "
                          "(section 1.2)."));
    k.push_back(K("pod.sue.header", K::ENUM)
                    .Default("afh-gen2-12")
                    .Allowed({"ethernet-ipv4",
                              "ethernet-ipv6",
                              "afh-gen1",
                              "afh-gen1-shim",
                              "afh-gen2-12",
                              "afh-gen2-6"})
                    .Help("Network header (section 3.4.1; sizes in src/sue/doc/sue.rst)."));
    k.push_back(K("pod.sue.packing-limit", K::SIZE)
                    .Default("0")
                    .Range(0, 4096)
                    .Help("Most bytes of packed transactions per PDU (section 3.3: at most "
                          "4096); 0: 2048 (section 4.4), 1024 with lite."));
    k.push_back(K("pod.sue.lite", K::BOOL)
                    .Default("false")
                    .Help("SUE Lite (SUE Lite spec): no transport, the 6 B AFH Gen 2 header, 1 KB "
                          "packing; pair it with pod.llr."));
    k.push_back(
        K("pod.sue.load-balance", K::ENUM)
            .Default("hash")
            .Allowed({"hash", "round-robin", "least-loaded"})
            .Help("How an XPU spreads messages over its instances (section 4.3): hash "
                  "of the source-destination pair (required by strict ordering), round-robin, "
                  "least-loaded."));
    k.push_back(K("pod.sue.congestion-control", K::ENUM)
                    .Default("none")
                    .Allowed({"none", "delay"})
                    .Help("Endpoint congestion control (section 2.1): none, or a delay-based "
                          "window (2 us target)."));
    k.push_back(K("pod.sue.tx-credits", K::UINT)
                    .Default("0")
                    .Range(0, 63)
                    .Unit("transactions")
                    .Help("Command interface credits per {destination, VC} (section 3.2.1, a "
                          "6-bit tx_credit): most transactions of one queue in SUE, so most per "
                          "PDU; 0: unlimited."));
    k.push_back(K("pod.sue.command-rate", K::RATE)
                    .Default("0bps")
                    .Unit("bit/s")
                    .Help("Aggregate rate limit of each instance's command interface (section "
                          "3.2.1; control and data into SUE), a token bucket of one 4096 B PDU; "
                          "0: unlimited."));
    k.push_back(K("pod.sue.fec", K::ENUM)
                    .Default("rs544")
                    .Allowed({"rs544", "rs272"})
                    .Help("FEC of the Ethernet ports (section 3.4.4): the IEEE RS(544,514), or "
                          "RS(272,257) with half the codeword and receive accumulation time; "
                          "sets the SUE receive latency (A.1's 100 ns assume RS-544) and the "
                          "codeword size of pod.link.codeword-error-rate (pod.link.codeword-bits "
                          "is not used with sue)."));
    k.push_back(K("pod.sue.fec-interleave", K::UINT)
                    .Default("0")
                    .Range(0, 4)
                    .Unit("codewords")
                    .Help("FEC interleave, 1, 2 or 4 ways (section 3.4.4: fewer ways, less "
                          "latency); 0: the IEEE choice (4 on 200G serdes; 1 or 2 on 100G)."));
}

std::shared_ptr<const FabricKindConfig>
SueFabricKind::Read(const FabricConfigReader& in, FabricPodConfig& pod) const
{
    auto s = std::make_shared<Config>();
    s->ports = static_cast<uint32_t>(in.Get("pod.sue.ports").u);
    s->ordering = in.Get("pod.sue.ordering").str;
    s->header = in.Get("pod.sue.header").str;
    s->packingLimit = static_cast<uint32_t>(in.Get("pod.sue.packing-limit").u);
    s->lite = in.Get("pod.sue.lite").b;
    s->loadBalance = in.Get("pod.sue.load-balance").str;
    s->congestion = in.Get("pod.sue.congestion-control").str;
    s->fec = in.Get("pod.sue.fec").str;
    s->txCredits = static_cast<uint32_t>(in.Get("pod.sue.tx-credits").u);
    s->commandRate = DataRate(in.Get("pod.sue.command-rate").u);
    s->fecInterleave = static_cast<uint32_t>(in.Get("pod.sue.fec-interleave").u);
    Check(in, pod, *s);
    return s;
}

void
SueFabricKind::Check(const FabricConfigReader& in,
                     const FabricPodConfig& pod,
                     const Config& s) const
{
    if (s.ports != 1 && s.ports != 2 && s.ports != 4)
    {
        in.Fail("pod.sue.ports",
                "a SUE instance has 1, 2 or 4 ports (SUE RM102 section 1.1), not " +
                    std::to_string(s.ports));
    }
    if (pod.planes % s.ports != 0)
    {
        in.Fail("pod.planes",
                std::to_string(pod.planes) + " planes cannot be split into SUE instances of " +
                    std::to_string(s.ports) + " ports: use a multiple of pod.sue.ports");
    }
    // Table 4: an instance is 800G (4 x 200G lanes) or 400G (4 x 100G lanes), as 1, 2 or 4
    // ports.
    const double gbps = pod.link.rate.GetBitRate() / 1e9;
    const double instance = gbps * s.ports;
    if (std::abs(instance - 800) > 1e-6 && std::abs(instance - 400) > 1e-6)
    {
        std::ostringstream os;
        os << s.ports << " port(s) of " << gbps << " Gb/s make a " << instance
           << " Gb/s SUE instance; Table 4 of SUE RM102 allows 800G (1x800, 2x400, 4x200) "
              "and 400G (1x400, 2x200, 4x100) instances";
        in.Fail("pod.link.rate", os.str());
    }
    if (s.ordering == "strict" && s.loadBalance != "hash")
    {
        in.Fail("pod.sue.load-balance",
                "strict ordering keeps each source-destination pair in order, so every "
                "message to a destination must use the same instance: use load-balance: hash, "
                "or ordering: unordered");
    }
    if (s.lite && s.packingLimit > 1024)
    {
        in.Fail("pod.sue.packing-limit", "SUE Lite packs at most 1 KB (SUE Lite spec section 3.4)");
    }
    if (s.packingLimit != 0 && s.packingLimit < 18 + 256)
    {
        in.Fail("pod.sue.packing-limit",
                "the packing limit must hold one transaction of 256 B of data and 18 B of "
                "control (274 B)");
    }
    if (pod.transport.kind != "none")
    {
        in.Fail("pod.transport.kind",
                "SUE has its own go-back-N transport (and SUE Lite none): pod.transport is for "
                "the ethernet fabric");
    }
    if (s.fecInterleave == 3)
    {
        in.Fail("pod.sue.fec-interleave",
                "FEC codewords interleave 1, 2 or 4 ways (0: the IEEE choice for the port)");
    }
    // A.1's switch latency includes the IEEE RS-544 accumulation at the switch's ingress;
    // another code or interleave shortens it by RxAdjustment, which the latency must cover
    // (the build aborted on a negative latency: found by utils/fuzz_scenarios.py).
    SuePhy::Fec fec = SuePhy::RS544;
    SuePhy::FromName(s.fec, fec);
    const auto portGbps = static_cast<uint32_t>(pod.link.rate.GetBitRate() / 1000000000);
    const uint32_t serdes = SuePhy::SerdesGbps(portGbps * s.ports);
    const Time saved =
        Time(0) -
        SuePhy::RxAdjustment(fec, s.fecInterleave, serdes, SuePhy::Lanes(portGbps, serdes));
    if (pod.sw.latency < saved)
    {
        std::ostringstream os;
        os << "must be at least " << saved.As(Time::NS) << " with pod.sue.fec " << s.fec
           << " and fec-interleave " << s.fecInterleave
           << ": it includes the IEEE RS-544 FEC accumulation at the switch's ingress, "
              "which this FEC choice shortens by that much (SUE RM102 3.4.4, A.1)";
        in.Fail("pod.switch.latency", os.str());
    }
    if (pod.topology == "mesh")
    {
        const uint32_t peers = pod.accelerators - 1;
        if (peers == 0 || pod.planes % peers != 0)
        {
            in.Fail("pod.planes",
                    "a mesh of " + std::to_string(pod.accelerators) + " XPUs links every pair " +
                        "directly: pod.planes must be a multiple of accelerators - 1 = " +
                        std::to_string(peers) + " (got " + std::to_string(pod.planes) + ")");
        }
        if (s.ports > 1 && s.ordering == "unordered")
        {
            in.Fail("pod.sue.ordering",
                    "in a mesh an instance's ports lead to different XPUs, so its PDUs cannot "
                    "be spread over them: use ordering: strict, or single-port instances");
        }
    }
    if (pod.accelerators > 1024)
    {
        in.Fail("pod.accelerators",
                "SUE XPU ids are 10 bits (SUE RM102 Table 3): at most 1024 XPUs");
    }
}

uint32_t
SueFabricKind::GetOperations() const
{
    return WRITE | READ;
}

bool
SueFabricKind::SupportsMesh() const
{
    return true;
}

std::vector<uint32_t>
SueFabricKind::GetOwnClasses(const FabricPodConfig& pod,
                             bool reads,
                             std::vector<std::string>& why) const
{
    std::vector<uint32_t> classes;
    if (reads)
    {
        // A read request on VC0 answered by a read response on VC1 (section 3.2.2).
        for (uint32_t c : {0, 1})
        {
            classes.push_back(c);
            why.push_back("SUE reads use traffic classes 0 and 1 (requests and responses, seed "
                          "000 section 3.2.2)");
        }
    }
    if (!pod.GetKind<Config>().lite)
    {
        // SUE's standalone ACKs travel on a lossless class of their own (SueHelper's AckClass).
        classes.push_back(2);
        why.push_back("SUE sends its acknowledgements on traffic class 2");
    }
    return classes;
}

Time
SueFabricKind::FecAdjustment(const FabricPodConfig& pod)
{
    const Config& s = pod.GetKind<Config>();
    SuePhy::Fec fec = SuePhy::RS544;
    SuePhy::FromName(s.fec, fec);
    const uint32_t portGbps = static_cast<uint32_t>(pod.link.rate.GetBitRate() / 1000000000);
    const uint32_t serdes = SuePhy::SerdesGbps(portGbps * s.ports);
    const uint32_t lanes = SuePhy::Lanes(portGbps, serdes);
    return SuePhy::RxAdjustment(fec, s.fecInterleave, serdes, lanes);
}

void
SueFabricKind::Build(const FabricPodConfig& pod, const FabricPlanePlan* plan, FabricPod& out) const
{
    NS_ABORT_MSG_IF(plan == nullptr, "SueFabricKind::Build: no plane plan");
    const Config& s = pod.GetKind<Config>();
    // FEC (3.4.4): A.1's SUE RX (100 ns) and switch (250 ns) latencies assume the IEEE
    // RS-544; another code or interleave changes every receiver of a link, the XPU's SUE RX
    // and the switch's ingress, by the difference in codeword accumulation time.
    const Time fecAdjustment = FecAdjustment(pod);
    const Time switchLatency = pod.sw.latency + fecAdjustment;
    NS_ABORT_MSG_IF(switchLatency < Time(0),
                    "switch latency " << switchLatency << " is below the FEC time saved");
    SueHelper sh;
    sh.SetPortsPerInstance(s.ports);
    sh.SetLite(s.lite);
    sh.SetInstanceAttribute(
        "Ordering",
        EnumValue(s.ordering == "unordered" ? SueInstance::UNORDERED : SueInstance::STRICT));
    sh.SetEndpointAttribute("LoadBalance",
                            EnumValue(s.loadBalance == "round-robin"    ? SueEndpoint::ROUND_ROBIN
                                      : s.loadBalance == "least-loaded" ? SueEndpoint::LEAST_LOADED
                                                                        : SueEndpoint::HASH));
    SueFraming::HeaderFormat format = SueFraming::AFH_GEN2_12;
    if (!s.lite || s.header != "afh-gen2-12")
    {
        SueFraming::FromName(s.header, format);
        sh.SetPackerAttribute("HeaderFormat", EnumValue(format));
    }
    if (s.packingLimit > 0)
    {
        sh.SetPackerAttribute("PackingLimit", UintegerValue(s.packingLimit));
    }
    if (s.congestion == "delay")
    {
        sh.SetTransportAttribute("CongestionControl", EnumValue(FabricGoBackN::DELAY));
    }
    sh.SetEndpointAttribute("RxLatency", TimeValue(NanoSeconds(100) + fecAdjustment));
    sh.SetPackerAttribute("TxCredits", UintegerValue(s.txCredits));
    sh.SetPackerAttribute("CommandRate", DataRateValue(s.commandRate));

    std::vector<Ptr<SueEndpoint>> xpus;
    FabricPlaneHelper h(pod);
    h.GetSwitchHelper().SetSwitchAttribute("PipelineLatency", TimeValue(switchLatency));
    SuePhy::Fec fec = SuePhy::RS544;
    SuePhy::FromName(s.fec, fec);
    h.GetLinkHelper().SetChannelAttribute("CodewordBits", UintegerValue(SuePhy::MessageBits(fec)));
    h.SetEndpoints(
        [&sh, &xpus](Ptr<Node> node, uint32_t id) {
            Ptr<SueEndpoint> e = sh.Install(node, id);
            xpus.push_back(e);
            return Ptr<FabricEndpoint>(e);
        },
        [&xpus](uint32_t acc, Ptr<FabricNetDevice> dev) { xpus[acc]->AddDevice(dev); });
    h.Install(*plan, out);
    for (uint32_t i = 0; i < out.meshPeers.size(); ++i)
    {
        for (uint32_t p = 0; p < out.meshPeers[i].size(); ++p)
        {
            xpus[i]->SetDirectPeer(p, out.meshPeers[i][p]);
        }
    }
}

void
SueFabricKind::SetLinkUp(const FabricPod& pod,
                         const FabricPodConfig& config,
                         uint32_t acc,
                         uint32_t plane,
                         bool up) const
{
    // The XPU's instance sees its port's link status (section 3.4.8) and takes the link down
    // or up itself.
    const uint32_t ports = config.GetKind<Config>().ports;
    Ptr<SueEndpoint> e = DynamicCast<SueEndpoint>(pod.endpoints.at(acc));
    NS_ABORT_MSG_IF(!e, "SueFabricKind::SetLinkUp: accelerator " << acc << " is no SUE XPU");
    Ptr<SueInstance> in = e->GetInstance(plane / ports);
    if (up)
    {
        in->SetPortUp(plane % ports);
    }
    else
    {
        in->SetPortDown(plane % ports);
    }
}

bool
SueFabricKind::MakeQueueProbe(Ptr<FabricTxQueue> q, FabricProbe& probe) const
{
    Ptr<SuePacker> s = DynamicCast<SuePacker>(q);
    if (!s)
    {
        return false;
    }
    probe.held = [s]() { return static_cast<uint64_t>(s->GetNActiveQueues()); };
    probe.describe = [s]() {
        std::ostringstream os;
        os << s->GetNActiveQueues() << " {destination, VC} queues, " << s->GetBacklogBytes()
           << " B waiting";
        return os.str();
    };
    return true;
}

std::vector<Ptr<FabricGoBackN>>
SueFabricKind::GetTransports(Ptr<FabricEndpoint> ep) const
{
    std::vector<Ptr<FabricGoBackN>> transports;
    if (Ptr<SueEndpoint> se = DynamicCast<SueEndpoint>(ep))
    {
        for (uint32_t k = 0; k < se->GetNInstances(); ++k)
        {
            Ptr<SueInstance> in = se->GetInstance(k);
            for (uint32_t p = 0; p < in->GetNPorts() && in->GetTransport(p); ++p)
            {
                transports.push_back(in->GetTransport(p));
            }
        }
    }
    return transports;
}

void
SueFabricKind::Collect(const FabricPod& pod, FabricCounters& counters) const
{
    for (const auto& ep : pod.endpoints)
    {
        if (Ptr<SueEndpoint> se = DynamicCast<SueEndpoint>(ep))
        {
            for (uint32_t k = 0; k < se->GetNInstances(); ++k)
            {
                // Work moved off a failed port to another port of the instance (3.4.8).
                counters.values[FabricCounters::BYTES_FAILED_OVER] +=
                    se->GetInstance(k)->GetMovedBytes();
            }
        }
    }
}

bool
SueFabricKind::SplitsByRails() const
{
    return true;
}

uint32_t
SueFabricKind::GetRailGroup(const FabricPodConfig& pod) const
{
    return pod.GetKind<Config>().ports;
}

std::string
SueFabricKind::GetRailRefusal(const FabricPodConfig& pod, const std::vector<uint32_t>& rails) const
{
    const Config& u = pod.GetKind<Config>();
    const std::string pre = "--rails: ";
    const std::string why = " couples the rails (" + GetRailDoc() + ")";
    if (pod.topology != "switched")
    {
        return pre + "pod.topology is " + pod.topology +
               ": only a switched SUE pod splits by planes";
    }
    if (u.loadBalance == "least-loaded")
    {
        return pre + "pod.sue.load-balance is least-loaded: choosing by every instance's load" +
               why;
    }
    // An instance of P ports spans planes kP .. kP + P - 1 (SueEndpoint::AddDevice).
    for (uint32_t r : rails)
    {
        const uint32_t first = r - r % u.ports;
        for (uint32_t q = first; q < first + u.ports; ++q)
        {
            if (std::find(rails.begin(), rails.end(), q) == rails.end())
            {
                return pre + "rail " + std::to_string(r) + " without rail " + std::to_string(q) +
                       ": pod.sue.ports is " + std::to_string(u.ports) +
                       ": an instance over planes " + std::to_string(first) + " to " +
                       std::to_string(first + u.ports - 1) + why;
            }
        }
    }
    return "";
}

std::string
SueFabricKind::GetRailDoc() const
{
    return "src/sue/doc/sue.rst, Planes in parallel";
}

std::string
SueFabricKind::GetRailFaultCoupling() const
{
    return "work moved off a failed port";
}

void
SueFabricKind::ActivateRails(const FabricPod& pod,
                             uint64_t rails,
                             FabricEndpoint::MessageCallback skipped) const
{
    for (const auto& ep : pod.endpoints)
    {
        Ptr<SueEndpoint> e = DynamicCast<SueEndpoint>(ep);
        NS_ABORT_MSG_IF(!e, "SueFabricKind::ActivateRails: an accelerator is no SUE XPU");
        // Instance k holds planes kP .. kP + P - 1 (GetRailRefusal asked for whole instances).
        const uint32_t ports = e->GetPortsPerInstance();
        uint64_t instances = 0;
        for (uint32_t k = 0; k * ports < 64; ++k)
        {
            if ((rails >> (k * ports)) & 1)
            {
                instances |= uint64_t(1) << k;
            }
        }
        e->SetActiveInstances(instances, skipped);
    }
}

uint64_t
SueFabricKind::GetRailBytesSent(const FabricPod& pod) const
{
    uint64_t bytes = 0;
    for (const auto& ep : pod.endpoints)
    {
        if (Ptr<SueEndpoint> e = DynamicCast<SueEndpoint>(ep))
        {
            bytes += e->GetActiveBytesSent();
        }
    }
    return bytes;
}

} // namespace ns3
