/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ualink-fabric-kind.h"

#include "ualink-helper.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/fabric-channel.h"
#include "ns3/fabric-config-reader.h"
#include "ns3/fabric-deadlock-monitor.h"
#include "ns3/fabric-invariant-check.h"
#include "ns3/fabric-plane-plan.h"
#include "ns3/fabric-pod.h"
#include "ns3/log.h"
#include "ns3/ualink-endpoint.h"
#include "ns3/ualink-switch.h"
#include "ns3/ualink-tx-queue.h"
#include "ns3/uinteger.h"

#include <map>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("UalinkFabricKind");

namespace
{

/// Credit class names of UALink (section 5.8), by ualink::CreditClass.
const char* const CREDIT_CLASS_NAMES[ualink::N_CREDIT_CLASSES] = {"ReqCmd",
                                                                  "RspCmd",
                                                                  "ReqData",
                                                                  "RspData"};

/// What the virtual-pod checks of one scenario share.
struct VpodCheck
{
    std::vector<int32_t> member; //!< virtual pod of each accelerator (-1: none)
    std::string field;           //!< offending key
    std::string message;         //!< why

    /// \param a an accelerator \return its virtual pod, as text
    std::string Of(uint32_t a) const
    {
        return member[a] < 0 ? std::string("no virtual pod")
                             : "virtual pod " + std::to_string(member[a]) +
                                   " (pod.ualink.virtual-pods[" + std::to_string(member[a]) + "])";
    }

    /**
     * \brief Check that a set of accelerators that talk to each other lies in one virtual pod.
     * \param accs the accelerators (empty: the whole pod)
     * \param key the key to name on failure
     * \param what what they are, for the message
     * \return true if they do
     */
    bool Together(const std::vector<uint32_t>& given,
                  const std::string& key,
                  const std::string& what)
    {
        std::vector<uint32_t> accs = given;
        if (accs.empty())
        {
            accs.resize(member.size());
            for (uint32_t a = 0; a < accs.size(); ++a)
            {
                accs[a] = a;
            }
        }
        for (uint32_t a : accs)
        {
            if (member[a] < 0)
            {
                field = key;
                message = what + " uses accelerator " + std::to_string(a) +
                          ", which is in no virtual pod of pod.ualink.virtual-pods (excluded "
                          "from the switches' route tables, section 8.4)";
                return false;
            }
        }
        for (uint32_t a : accs)
        {
            if (member[a] != member[accs.front()])
            {
                field = key;
                message = what + " crosses virtual pods: accelerator " +
                          std::to_string(accs.front()) + " is in " + Of(accs.front()) +
                          ", accelerator " + std::to_string(a) + " in " + Of(a) +
                          "; the route tables deny traffic between virtual pods (sections "
                          "1.1, 10.7.1): keep each workload inside one virtual pod, or use a "
                          "deny-route fault to drop traffic on purpose";
                return false;
            }
        }
        return true;
    }
};

/**
 * A UALink switch's Drop trace: an operation dropped (no route, route denied).
 * \param piece the invariant checks' callback
 * \param src source accelerator
 * \param dst destination accelerator
 * \param reason the reason
 */
void
SwitchDropped(Callback<void, uint32_t, uint32_t, const std::string&> piece,
              uint32_t src,
              uint32_t dst,
              const std::string& reason)
{
    piece(src, dst, reason);
}

/**
 * A message posted at an endpoint of a run on some rails: told to \p skipped when none of its
 * bytes go over those rails.
 * \param ep the endpoint
 * \param skipped the callback
 * \param m the message
 */
void
RailPosted(Ptr<UalinkEndpoint> ep, FabricEndpoint::MessageCallback skipped, const FabricMessage& m)
{
    if (ep->GetRailShareBytes(m.id, m.bytes) == 0 && !skipped.IsNull())
    {
        skipped(m);
    }
}

} // namespace

std::string
UalinkFabricKind::GetName() const
{
    return "ualink";
}

std::string
UalinkFabricKind::GetSummary() const
{
    return "ualink (UALink 200: one single-tier switch per accelerator port; see pod.ualink)";
}

std::string
UalinkFabricKind::GetSection() const
{
    return "pod.ualink";
}

void
UalinkFabricKind::DeclareKeys(std::vector<FabricConfigKey>& k) const
{
    using K = FabricConfigKey;
    k.push_back(K("pod.ualink", K::MAP)
                    .Help("UALink 200 (pod.fabric: ualink): pod.planes ports per accelerator, "
                          "one single-tier switch of pod.accelerators ports per port (rails, "
                          "section 1.1); pod.link.rate is derived from the lanes."));
    k.push_back(K("pod.ualink.bifurcation", K::ENUM)
                    .Default("x4")
                    .Allowed({"x4", "2x2", "4x1"})
                    .Help("How every 4-lane station is split, the same on every station of the "
                          "pod (section 2.4): one x4 port, two x2 or four x1; pod.planes (ports "
                          "per accelerator) must fill whole stations."));
    k.push_back(K("pod.ualink.lane-rate", K::ENUM)
                    .Default("200g")
                    .Allowed({"200g", "100g"})
                    .Help("Lanes of 200G (212.5 GT/s) or the 100G option (106.25 GT/s), "
                          "section 7.1."));
    k.push_back(K("pod.ualink.fec-interleave", K::UINT)
                    .Default("0")
                    .Range(0, 4)
                    .Help("RS(544,514) interleave ways (Tables 7-2, 7-4); 0: the PHY's IEEE "
                          "802.3 default."));
    k.push_back(K("pod.ualink.address-cache", K::BOOL)
                    .Default("true")
                    .Help("Compressed requests through the 4-way x 1024-row TL address caches "
                          "(sections 5.5, 5.6)."));
    k.push_back(K("pod.ualink.authentication", K::BOOL)
                    .Default("false")
                    .Help("TL authentication: an AuthTags half-flit per control half-flit "
                          "(section 5.1.1); forces strict ordering (section 2.7.9)."));
    k.push_back(K("pod.ualink.strict-ordering", K::BOOL)
                    .Default("false")
                    .Help("Strict ordering mode: every request in order (section 2.7.9); "
                          "otherwise only requests to the same 256 B region and VC."));
    k.push_back(K("pod.ualink.req-cmd-credits", K::UINT)
                    .Default("512")
                    .Range(1, 1 << 20)
                    .Help("TL request field credits per port (section 5.8; the spec leaves "
                          "counts to the implementation)."));
    k.push_back(K("pod.ualink.rsp-cmd-credits", K::UINT)
                    .Default("512")
                    .Range(1, 1 << 20)
                    .Help("TL response field credits per port."));
    k.push_back(K("pod.ualink.req-data-credits", K::UINT)
                    .Default("2048")
                    .Range(4, 1 << 20)
                    .Help("TL 64 B request data credits per port (about 1530 cover a 1 us "
                          "credit loop at x4)."));
    k.push_back(K("pod.ualink.rsp-data-credits", K::UINT)
                    .Default("2048")
                    .Range(4, 1 << 20)
                    .Help("TL 64 B read response data credits per port."));
    k.push_back(K("pod.ualink.vc-cmd-credits", K::UINT)
                    .Default("0")
                    .Range(0, 1 << 20)
                    .Help("TL request and response field credits per VC (each of 4) beside the "
                          "pool (section 5.8); 0: pool credits only."));
    k.push_back(K("pod.ualink.vc-data-credits", K::UINT)
                    .Default("0")
                    .Range(0, 1 << 20)
                    .Help("TL 64 B request and response data credits per VC (each of 4) "
                          "beside the pool (section 5.8)."));
    k.push_back(K("pod.ualink.shared-data-buffer", K::BOOL)
                    .Default("false")
                    .Help("Shared Data Buffer mode: request and response data pool credits "
                          "are one count (section 5.8)."));
    k.push_back(K("pod.ualink.initial-credit-release", K::BOOL)
                    .Default("false")
                    .Help("Model the TL's initial credit release at time 0 (FC fields and the "
                          "Initial Credit Release Complete message, section 5.8); false: the "
                          "credits are known at time 0."));
    k.push_back(K("pod.ualink.upli", K::ENUM)
                    .Default("ideal")
                    .Allowed({"ideal", "tdm"})
                    .Help("UPLI timing (chapter 2): ideal, faster than the link (true at "
                          "1562.5 MHz); tdm, each beat on its port's TDM cycle (section 2.5)."));
    k.push_back(K("pod.ualink.upli-clock-mhz", K::DOUBLE)
                    .Default("1562.5")
                    .Range(156.25, 1562.5)
                    .Help("UPLI clock in MHz (section 6.5.4: 1562.5, not below the 156.25 MHz "
                          "reference clock); used by upli: tdm."));
    k.push_back(K("pod.ualink.switch-latency", K::TIME)
                    .Default("0")
                    .Min(0)
                    .Help("Switch pin-to-pin latency; 0: the goals of section 10.9.2 by lanes "
                          "(200, 250, 300 ns up to 128, 256, 512 lanes; 300 ns beyond)."));
    k.push_back(K("pod.ualink.completer-latency", K::TIME)
                    .Default("0")
                    .Min(0)
                    .Help("Time from a request's arrival to its response at the completer."));
    k.push_back(K("pod.ualink.watchdog", K::TIME)
                    .Default("0")
                    .Min(0)
                    .Help("Per-request watchdog of every originator (section 3.1.3: "
                          "programmable, no default); on expiry the station isolates and "
                          "answers its requests CMPTO. 0: off."));
    k.push_back(K("pod.ualink.station-reset", K::TIME)
                    .Default("0")
                    .Min(0)
                    .Help("Management reset of an isolated accelerator station this long after "
                          "the last of its ports is Up again (section 3.1.4.3; the procedure is "
                          "the Manageability Specification's): it leaves isolation and drop "
                          "mode and issues requests again. 0: never (a link-up fault is then "
                          "refused)."));
    k.push_back(K("pod.ualink.fail-link", K::BOOL)
                    .Default("false")
                    .Help("Fault injection: take one accelerator link down at pod.ualink.fail-at "
                          "(the accelerator's station isolates, section 3.1.4). Kept for older "
                          "scenarios: the same as faults: [{kind: link-down, accelerator: "
                          "fail-accelerator, plane: fail-port, at: fail-at}], and faults "
                          "offers the other kinds."));
    k.push_back(K("pod.ualink.fail-accelerator", K::UINT)
                    .Default("0")
                    .Help("Fault injection: the accelerator whose link goes down."));
    k.push_back(K("pod.ualink.fail-port", K::UINT)
                    .Default("0")
                    .Help("Fault injection: which port (rail) of that accelerator."));
    k.push_back(K("pod.ualink.fail-at", K::TIME)
                    .Default("0")
                    .Min(0)
                    .Help("Fault injection: when the link goes down."));
    k.push_back(K("pod.ualink.virtual-pods", K::LIST)
                    .Element(K::MAP)
                    .Help("Partition the pod into virtual pods (sections 1.1, 8.4): each "
                          "element is one, given as `{from: A, to: B}` (an inclusive range of "
                          "accelerator ids) or `{accelerators: [..]}`; an accelerator is in at "
                          "most one, and one in none is excluded from routing. Every switch's "
                          "per-station route tables deny traffic between virtual pods (10.7.1); "
                          "a workload that would cross one is refused before the run."));
    k.push_back(K("pod.ualink.virtual-pods[].from", K::UINT)
                    .Help("First accelerator id of the virtual pod's range (with `to`)."));
    k.push_back(K("pod.ualink.virtual-pods[].to", K::UINT)
                    .Help("Last accelerator id of the range, inclusive (with `from`)."));
    k.push_back(K("pod.ualink.virtual-pods[].accelerators", K::LIST)
                    .Element(K::UINT)
                    .Help("The virtual pod's accelerator ids, as a list (instead of from/to)."));
    k.push_back(K("pod.ualink.replay", K::BOOL)
                    .Default("false")
                    .Help("Run the DL's link-level replay on every link (section 6.6); "
                          "required when pod.link.codeword-error-rate or ber is set."));
}

std::shared_ptr<const FabricKindConfig>
UalinkFabricKind::Read(const FabricConfigReader& in, FabricPodConfig& pod) const
{
    auto u = std::make_shared<Config>();
    auto u32 = [&in](const std::string& key) { return static_cast<uint32_t>(in.Get(key).u); };
    auto time = [&in](const std::string& key) {
        return PicoSeconds(static_cast<int64_t>(in.Get(key).ps));
    };
    u->bifurcation = in.Get("pod.ualink.bifurcation").str;
    u->laneRate = in.Get("pod.ualink.lane-rate").str;
    u->fecInterleave = u32("pod.ualink.fec-interleave");
    u->addressCache = in.Get("pod.ualink.address-cache").b;
    u->authentication = in.Get("pod.ualink.authentication").b;
    u->strictOrdering = in.Get("pod.ualink.strict-ordering").b;
    u->reqCmdCredits = u32("pod.ualink.req-cmd-credits");
    u->rspCmdCredits = u32("pod.ualink.rsp-cmd-credits");
    u->reqDataCredits = u32("pod.ualink.req-data-credits");
    u->rspDataCredits = u32("pod.ualink.rsp-data-credits");
    u->vcCmdCredits = u32("pod.ualink.vc-cmd-credits");
    u->vcDataCredits = u32("pod.ualink.vc-data-credits");
    u->sharedDataBuffer = in.Get("pod.ualink.shared-data-buffer").b;
    u->initialCreditRelease = in.Get("pod.ualink.initial-credit-release").b;
    u->upli = in.Get("pod.ualink.upli").str;
    u->upliClockMhz = in.Get("pod.ualink.upli-clock-mhz").d;
    u->switchLatency = time("pod.ualink.switch-latency");
    u->completerLatency = time("pod.ualink.completer-latency");
    u->replay = in.Get("pod.ualink.replay").b;
    u->watchdog = time("pod.ualink.watchdog");
    u->stationReset = time("pod.ualink.station-reset");
    u->failLink = in.Get("pod.ualink.fail-link").b;
    u->failAccelerator = u32("pod.ualink.fail-accelerator");
    u->failPort = u32("pod.ualink.fail-port");
    u->failAt = time("pod.ualink.fail-at");
    Check(in, pod, *u);
    ReadVirtualPods(in, pod, *u);
    return u;
}

void
UalinkFabricKind::Check(const FabricConfigReader& in,
                        const FabricPodConfig& pod,
                        const Config& u) const
{
    if (pod.accelerators > 1024)
    {
        in.Fail("pod.accelerators",
                "a UALink pod has at most 1024 accelerators (10-bit ids, section 1.1), not " +
                    std::to_string(pod.accelerators));
    }
    const uint32_t perStation = 4 / u.Lanes();
    if (pod.planes % perStation != 0)
    {
        in.Fail("pod.planes",
                std::to_string(pod.planes) + " ports per accelerator do not fill whole " +
                    u.bifurcation + " stations of " + std::to_string(perStation) +
                    " ports: every station of the pod is bifurcated the same way (section "
                    "2.4), so use a multiple of " +
                    std::to_string(perStation));
    }
    if (pod.sw.radix < pod.accelerators)
    {
        in.Fail("pod.switch.radix",
                "a UALink switch has a port for every accelerator: switch-to-switch links are "
                "not supported (section 10.1), so the radix must be at least pod.accelerators (" +
                    std::to_string(pod.accelerators) + ")");
    }
    if (pod.sw.oversubscription > 1)
    {
        in.Fail("pod.switch.oversubscription",
                "a leaf:spine ratio needs switch-to-switch links, which UALink does not support "
                "(section 10.1): every UALink pod is one tier of switches with a port per "
                "accelerator");
    }
    if (u.fecInterleave != 0)
    {
        const uint32_t w = u.fecInterleave;
        const uint32_t lanes = u.Lanes();
        const bool ok = u.laneRate == "100g"
                            ? (lanes == 1 ? w == 1 : w == 2)
                            : (lanes == 1 ? (w == 1 || w == 2 || w == 4)
                                          : (lanes == 2 ? (w == 2 || w == 4) : w == 4));
        if (!ok)
        {
            in.Fail("pod.ualink.fec-interleave",
                    "interleave " + std::to_string(w) + " is not allowed for " + u.bifurcation +
                        " ports of " + u.laneRate + " lanes (Tables 7-2, 7-4)");
        }
    }
    if (pod.fc.kind != "none")
    {
        in.Fail("pod.flow-control.kind",
                "UALink has its own TL credits (pod.ualink.*-credits): pod.flow-control is for "
                "the ethernet and sue fabrics");
    }
    if (pod.transport.kind != "none")
    {
        in.Fail("pod.transport.kind",
                "UALink is lossless link by link (TL credits, DL replay): pod.transport is for "
                "the ethernet fabric");
    }
    if (pod.llr.mode != "off")
    {
        in.Fail("pod.llr.mode",
                "UALink's link-level replay is its DL's (section 6.6): use pod.ualink.replay");
    }
    if (u.failLink && u.failAccelerator >= pod.accelerators)
    {
        in.Fail("pod.ualink.fail-accelerator",
                "accelerator " + std::to_string(u.failAccelerator) + " is not in a pod of " +
                    std::to_string(pod.accelerators));
    }
    if (u.failLink && u.failPort >= pod.planes)
    {
        in.Fail("pod.ualink.fail-port",
                "port " + std::to_string(u.failPort) + " is not one of the " +
                    std::to_string(pod.planes) + " ports of an accelerator");
    }
    if ((pod.link.codewordErrorRate > 0 || pod.link.ber > 0) && !u.replay)
    {
        in.Fail("pod.ualink.replay",
                "links with errors need the DL's replay: set pod.ualink.replay: true");
    }
}

void
UalinkFabricKind::ReadVirtualPods(const FabricConfigReader& in,
                                  const FabricPodConfig& pod,
                                  Config& u) const
{
    const std::string lp = "pod.ualink.virtual-pods";
    if (!in.Has(lp))
    {
        return;
    }
    std::map<uint32_t, std::string> owner; // accelerator -> the element that has it
    const std::size_t n = in.GetListSize(lp);
    for (std::size_t i = 0; i < n; ++i)
    {
        const std::string p = lp + "[" + std::to_string(i) + "]";
        bool hasFrom = false;
        bool hasTo = false;
        const auto from = in.Get(p + ".from", false, &hasFrom);
        const auto to = in.Get(p + ".to", false, &hasTo);
        const std::string ap = p + ".accelerators";
        std::vector<std::pair<uint32_t, std::string>> ids; // id, its key
        if (in.Has(ap))
        {
            if (hasFrom || hasTo)
            {
                in.Fail(ap, "give either accelerators or from and to, not both");
            }
            const std::size_t m = in.GetListSize(ap);
            if (m == 0)
            {
                in.Fail(ap, "a virtual pod has at least one accelerator (section 1.1)");
            }
            for (std::size_t j = 0; j < m; ++j)
            {
                const std::string ep = ap + "[" + std::to_string(j) + "]";
                ids.emplace_back(static_cast<uint32_t>(in.Get(ep).u), ep);
            }
        }
        else
        {
            if (!hasFrom || !hasTo)
            {
                in.Fail(p,
                        "a virtual pod is {from: A, to: B} (an inclusive range of accelerator "
                        "ids) or {accelerators: [..]}");
            }
            if (from.u > to.u)
            {
                in.Fail(p + ".to", "is below from (" + from.text + "): the range is empty");
            }
            for (uint64_t a = from.u; a <= to.u && a < pod.accelerators + 1ULL; ++a)
            {
                // Name from for the first id, to for one beyond the pod, else the element.
                ids.emplace_back(static_cast<uint32_t>(a),
                                 a == from.u ? p + ".from"
                                             : (a >= pod.accelerators ? p + ".to" : p));
            }
        }
        std::vector<uint32_t> members;
        for (const auto& [a, key] : ids)
        {
            if (a >= pod.accelerators)
            {
                in.Fail(key,
                        "accelerator " + std::to_string(a) + " is not in a pod of " +
                            std::to_string(pod.accelerators) + " accelerators");
            }
            const auto dup = owner.find(a);
            if (dup != owner.end())
            {
                in.Fail(key,
                        "accelerator " + std::to_string(a) + " is already in " + dup->second +
                            ": an accelerator belongs to at most one virtual pod (section 8.4)");
            }
            owner[a] = p;
            members.push_back(a);
        }
        u.virtualPods.push_back(members);
    }
}

uint32_t
UalinkFabricKind::GetOperations() const
{
    return WRITE | READ | ATOMIC;
}

std::string
UalinkFabricKind::CheckOperation(uint32_t op, uint64_t bytes) const
{
    // Section 2.7.4.5: an atomic carries at most two operands of at most 8 B, in one 64 B beat.
    if (op == ATOMIC && (bytes == 0 || bytes > 16))
    {
        return "an atomic's operands are 1 to 16 B (at most two operands of at most 8 B, "
               "UALink 200 Rev 1.0 section 2.7.4.5), not " +
               std::to_string(bytes) + " B";
    }
    return "";
}

bool
UalinkFabricKind::UsesPlanePlan() const
{
    return false;
}

uint32_t
UalinkFabricKind::GetSwitchesPerPlane(const FabricPodConfig& /* pod */) const
{
    return 1; // one switch per rail
}

uint64_t
UalinkFabricKind::EstimateBytesPerAccelerator(const FabricPodConfig& pod) const
{
    // Measured on pods of 512 and 1024 accelerators (68 KiB per accelerator and rail: a
    // station's transaction, DL and credit state per port), rounded up (pod.rst, Memory estimate).
    return uint64_t(80) * 1024 * pod.planes;
}

void
UalinkFabricKind::CheckTraffic(const FabricConfigReader& in,
                               const FabricPodConfig& pod,
                               const std::vector<TrafficGroup>& groups) const
{
    const auto& vpods = pod.GetKind<Config>().virtualPods;
    if (vpods.empty())
    {
        return;
    }
    VpodCheck c;
    c.member.assign(pod.accelerators, -1);
    for (std::size_t v = 0; v < vpods.size(); ++v)
    {
        for (uint32_t a : vpods[v])
        {
            c.member.at(a) = static_cast<int32_t>(v);
        }
    }
    for (const auto& g : groups)
    {
        if (!c.Together(g.accelerators, g.field, g.what))
        {
            in.Fail(c.field, c.message);
        }
    }
}

void
UalinkFabricKind::CheckFault(const FabricConfigReader& in,
                             const FabricPodConfig& pod,
                             const std::string& kind,
                             const std::string& path) const
{
    const Config& u = pod.GetKind<Config>();
    if (kind == "link-up" && !u.stationReset.IsStrictlyPositive())
    {
        in.Fail(path + ".kind",
                "a UALink link that went down stays down for this run: the station "
                "isolated when it did (section 3.1.4), and only software can reset it "
                "(pod.ualink.station-reset)");
    }
    if (kind == "bit-errors" && !u.replay)
    {
        in.Fail(path + ".kind",
                "bit errors on UALink links need the DL's replay: set "
                "pod.ualink.replay: true");
    }
}

std::vector<FabricKind::Fault>
UalinkFabricKind::GetImpliedFaults(const FabricPodConfig& pod) const
{
    const Config& u = pod.GetKind<Config>();
    if (!u.failLink)
    {
        return {};
    }
    // The older UALink keys: the same as faults: [{kind: link-down, ...}].
    Fault f;
    f.kind = "link-down";
    f.accelerator = u.failAccelerator;
    f.plane = u.failPort;
    f.at = u.failAt;
    return {f};
}

void
UalinkFabricKind::Build(const FabricPodConfig& pod,
                        const FabricPlanePlan* /* plan */,
                        FabricPod& out) const
{
    NS_LOG_FUNCTION(pod.accelerators << pod.planes);
    const Config& u = pod.GetKind<Config>();
    UalinkHelper h;
    h.SetPhyAttribute("Lanes", UintegerValue(u.Lanes()));
    h.SetPhyAttribute("LaneRate",
                      DataRateValue(DataRate(u.laneRate == "100g" ? "106.25Gbps" : "212.5Gbps")));
    h.SetPhyAttribute("FecInterleave", UintegerValue(u.fecInterleave));
    h.SetPhyAttribute("FecDecodeLatency", TimeValue(pod.link.fecLatency));
    h.SetChannelAttribute("CableType", EnumValue(FabricChannel::CableTypeFromName(pod.link.cable)));
    h.SetChannelAttribute("CableLength", DoubleValue(pod.link.lengthM));
    h.SetChannelAttribute("Delay", TimeValue(pod.link.delay));
    h.SetChannelAttribute("CodewordErrorRate", DoubleValue(pod.link.codewordErrorRate));
    h.SetChannelAttribute("BitErrorRate", DoubleValue(pod.link.ber));
    h.SetEndpointAttribute("CompleterLatency", TimeValue(u.completerLatency));
    h.SetEndpointAttribute("WatchdogTimeout", TimeValue(u.watchdog));
    h.SetEndpointAttribute("StationResetDelay", TimeValue(u.stationReset));
    h.SetSwitchAttribute("PinToPinLatency", TimeValue(u.switchLatency));
    h.SetTxQueueAttribute("ReqCmdCredits", UintegerValue(u.reqCmdCredits));
    h.SetTxQueueAttribute("RspCmdCredits", UintegerValue(u.rspCmdCredits));
    h.SetTxQueueAttribute("ReqDataCredits", UintegerValue(u.reqDataCredits));
    h.SetTxQueueAttribute("RspDataCredits", UintegerValue(u.rspDataCredits));
    for (const char* c : {"ReqCmdVcCredits", "RspCmdVcCredits"})
    {
        h.SetTxQueueAttribute(c, UintegerValue(u.vcCmdCredits));
    }
    for (const char* c : {"ReqDataVcCredits", "RspDataVcCredits"})
    {
        h.SetTxQueueAttribute(c, UintegerValue(u.vcDataCredits));
    }
    h.SetTxQueueAttribute("SharedDataBuffer", BooleanValue(u.sharedDataBuffer));
    h.SetTxQueueAttribute("InitialCreditRelease", BooleanValue(u.initialCreditRelease));
    h.SetUpliAttribute("Mode", EnumValue(u.upli == "tdm" ? UalinkUpli::TDM : UalinkUpli::IDEAL));
    h.SetUpliAttribute("ClockHz", DoubleValue(u.upliClockMhz * 1e6));
    h.SetPackerAttribute("UseAddressCache", BooleanValue(u.addressCache));
    h.SetPackerAttribute("Authentication", BooleanValue(u.authentication));
    // Section 2.7.9: strict ordering whenever security is on.
    h.SetPackerAttribute("StrictOrdering", BooleanValue(u.strictOrdering || u.authentication));
    h.SetLinkLevelReplay(u.replay);
    UalinkHelper::Pod built = h.Install(pod.accelerators, pod.planes);
    if (!u.virtualPods.empty())
    {
        // Sections 1.1, 10.7.1: every station's table on every rail denies the other pods.
        UalinkHelper::SetVirtualPods(built, u.virtualPods);
    }

    out.accNodes = built.acceleratorNodes;
    out.endpoints.assign(built.acc.begin(), built.acc.end());
    out.accDevices.assign(pod.accelerators, {});
    out.switchesPerPlane = 1;
    int64_t stream = 1000;
    std::size_t link = 0;
    for (uint32_t r = 0; r < pod.planes; ++r)
    {
        const std::string sw = "p" + std::to_string(r) + ".sw0";
        for (uint32_t a = 0; a < pod.accelerators; ++a, ++link)
        {
            Ptr<FabricChannel> ch = built.links[link];
            Ptr<FabricNetDevice> up = DynamicCast<FabricNetDevice>(ch->GetDevice(0));
            Ptr<FabricNetDevice> down = DynamicCast<FabricNetDevice>(ch->GetDevice(1));
            const std::string acc = "acc" + std::to_string(a);
            out.accDevices[a].push_back(up);
            out.transmitters.push_back(FabricPod::Transmitter{up, acc + "->" + sw, "acc-up", r});
            out.transmitters.push_back(FabricPod::Transmitter{down, sw + "->" + acc, "down", r});
            stream += ch->AssignStreams(stream);
        }
    }
    // The switches, one per rail ("p<rail>.sw0"): their buffer holds the TL bytes of the
    // operations they hold; faults are scheduled by the runner.
    for (uint32_t r = 0; r < built.sw.size(); ++r)
    {
        out.views.push_back({built.sw[r], "p" + std::to_string(r) + ".sw0", r});
    }
}

bool
UalinkFabricKind::MakeQueueProbe(Ptr<FabricTxQueue> q, FabricProbe& probe) const
{
    Ptr<UalinkTxQueue> u = DynamicCast<UalinkTxQueue>(q);
    if (!u)
    {
        return false;
    }
    probe.held = [u]() { return static_cast<uint64_t>(u->GetQueuedOps()); };
    probe.describe = [u]() {
        std::ostringstream os;
        os << u->GetQueuedOps() << " ops waiting; partner credits";
        for (uint32_t c = 0; c < ualink::N_CREDIT_CLASSES; ++c)
        {
            os << (c ? ", " : " ") << CREDIT_CLASS_NAMES[c] << " "
               << u->GetAvailableCredits(static_cast<ualink::CreditClass>(c));
        }
        os << " (" << u->GetStats().creditStalls << " credit stalls)";
        return os.str();
    };
    return true;
}

void
UalinkFabricKind::AddProbes(const FabricPod& pod, std::vector<FabricProbe>& probes) const
{
    for (uint32_t a = 0; a < pod.endpoints.size(); ++a)
    {
        Ptr<UalinkEndpoint> e = DynamicCast<UalinkEndpoint>(pod.endpoints[a]);
        if (!e)
        {
            continue;
        }
        const std::string acc = "acc" + std::to_string(a);
        for (uint32_t i = 0; i < e->GetNPorts(); ++i)
        {
            // The requests of one accelerator port waiting for a tag or TL room.
            FabricProbe p;
            p.name = FabricDeadlockMonitor::GetPortName(e->GetPort(i), acc) + " UPLI requests";
            p.held = [e, i]() { return e->GetWaitingRequests(i); };
            // A waiting request moves when a tag frees (a response returns) and it enters the
            // TL queue.
            p.progress = [e, i]() {
                return e->GetTxQueue(i)->GetStats().ops + e->GetStats().responses;
            };
            p.describe = [e, i]() {
                std::ostringstream os;
                os << e->GetWaitingRequests(i) << " requests waiting for a tag or TL room, "
                   << e->GetOutstanding(i) << " tags in use, " << e->GetTxQueue(i)->GetQueuedOps()
                   << " ops in the TL queue" << (e->IsIsolated(i) ? "; station isolated" : "");
                return os.str();
            };
            probes.push_back(p);
        }
    }
}

uint64_t
UalinkFabricKind::GetHops(Ptr<FabricNetDevice> dev) const
{
    // A UALink port sends bursts of transactions (one control half-flit each): its hops count
    // transactions (requests and responses), the unit of its benchmark.
    Ptr<UalinkTxQueue> uq = DynamicCast<UalinkTxQueue>(dev->GetTxQueue());
    return uq ? uq->GetStats().ops : dev->GetStats().txUnits;
}

void
UalinkFabricKind::WatchChecks(const FabricPod& pod,
                              Callback<void, uint32_t, uint32_t, const std::string&> piece) const
{
    // The TL of every link end is named after its device.
    for (const auto& t : pod.transmitters)
    {
        if (Ptr<UalinkTxQueue> q = DynamicCast<UalinkTxQueue>(t.device->GetTxQueue()))
        {
            FabricInvariantCheck::SetName(
                PeekPointer(q),
                FabricInvariantCheck::GetName(PeekPointer(t.device), "FabricNetDevice") + " TL");
        }
    }
    // UALink switches drop operations (no route, route denied) before any device sees them.
    for (const auto& v : pod.views)
    {
        if (Ptr<UalinkSwitch> sw = DynamicCast<UalinkSwitch>(v.sw))
        {
            sw->TraceConnectWithoutContext("Drop", MakeBoundCallback(&SwitchDropped, piece));
        }
    }
}

void
UalinkFabricKind::CheckDrained(const FabricPod& pod) const
{
    for (const auto& t : pod.transmitters)
    {
        Ptr<UalinkTxQueue> q = DynamicCast<UalinkTxQueue>(t.device->GetTxQueue());
        if (!q)
        {
            continue;
        }
        for (uint32_t c = 0; c < ualink::N_CREDIT_CLASSES; ++c)
        {
            const auto cls = static_cast<ualink::CreditClass>(c);
            if (q->GetAvailableCredits(cls) != q->GetAdvertisedCredits(cls))
            {
                FabricInvariantCheck::Fail(
                    FabricInvariantCheck::CREDITS,
                    PeekPointer(q),
                    "UalinkTxQueue",
                    "TL credits " + std::to_string(q->GetAvailableCredits(cls)) + " of " +
                        std::to_string(q->GetAdvertisedCredits(cls)) + " in class " +
                        std::to_string(c) + " at the end of a run that drained");
            }
        }
    }
}

void
UalinkFabricKind::Collect(const FabricPod& pod, FabricCounters& counters) const
{
    // The switches' route drops, the stations' isolations and CMPTO answers.
    for (const auto& v : pod.views)
    {
        if (Ptr<UalinkSwitch> sw = DynamicCast<UalinkSwitch>(v.sw))
        {
            for (const auto& [reason, n] : sw->GetDrops())
            {
                counters.drops[reason] += n;
            }
        }
    }
    for (const auto& e : pod.endpoints)
    {
        if (Ptr<UalinkEndpoint> u = DynamicCast<UalinkEndpoint>(e))
        {
            const UalinkEndpoint::Stats& st = u->GetStats();
            counters.values[FabricCounters::ISOLATIONS] += st.isolations;
            counters.values[FabricCounters::CMPTO] += st.cmpto;
            counters.values[FabricCounters::FAILED_MESSAGES] += st.failedMessages;
            // Drop modes (section 3.1.3): the TL after a link down, the completer.
            if (st.tlDropped > 0)
            {
                counters.drops[UalinkEndpoint::TL_DROP_MODE] += st.tlDropped;
            }
            if (st.completerDropped > 0)
            {
                counters.drops[UalinkEndpoint::COMPLETER_DROP_MODE] += st.completerDropped;
            }
        }
    }
}

bool
UalinkFabricKind::SplitsByRails() const
{
    return true;
}

uint32_t
UalinkFabricKind::GetRailGroup(const FabricPodConfig& /* pod */) const
{
    return 1;
}

std::string
UalinkFabricKind::GetRailRefusal(const FabricPodConfig& pod,
                                 const std::vector<uint32_t>& /* rails */) const
{
    const Config& u = pod.GetKind<Config>();
    const std::string pre = "--rails: ";
    const std::string why = " couples the rails (" + GetRailDoc() + ")";
    if (u.upli != "ideal")
    {
        return pre + "pod.ualink.upli is " + u.upli +
               ": the TDM of a station's ports over one UPLI" + why;
    }
    if (u.failLink)
    {
        return pre + "pod.ualink.fail-link: a link down isolates all ports of its station" + why;
    }
    if (u.stationReset.IsStrictlyPositive())
    {
        return pre + "pod.ualink.station-reset: a reset takes all ports of the station" + why;
    }
    if (u.watchdog.IsStrictlyPositive())
    {
        return pre + "pod.ualink.watchdog: its expiry isolates all ports of the station" + why;
    }
    return "";
}

std::string
UalinkFabricKind::GetRailDoc() const
{
    return "src/ualink/doc/ualink.rst, Rails in parallel";
}

std::string
UalinkFabricKind::GetRailFaultCoupling() const
{
    return "a link down isolates all ports of its station";
}

void
UalinkFabricKind::ActivateRails(const FabricPod& pod,
                                uint64_t rails,
                                FabricEndpoint::MessageCallback skipped) const
{
    for (const auto& ep : pod.endpoints)
    {
        Ptr<UalinkEndpoint> e = DynamicCast<UalinkEndpoint>(ep);
        NS_ABORT_MSG_IF(!e, "UalinkFabricKind::ActivateRails: an accelerator is no UALink one");
        e->SetActiveRails(rails);
        e->TraceConnectWithoutContext("Post", MakeBoundCallback(&RailPosted, e, skipped));
    }
}

uint64_t
UalinkFabricKind::GetRailBytesSent(const FabricPod& pod) const
{
    uint64_t bytes = 0;
    for (const auto& ep : pod.endpoints)
    {
        if (Ptr<UalinkEndpoint> e = DynamicCast<UalinkEndpoint>(ep))
        {
            bytes += e->GetPostedShareBytes();
        }
    }
    return bytes;
}

} // namespace ns3
