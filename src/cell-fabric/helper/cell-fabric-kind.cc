/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "cell-fabric-kind.h"

#include "cell-fabric-helper.h"

#include "ns3/abort.h"
#include "ns3/cell-fabric-adapter.h"
#include "ns3/cell-fabric-cellifier.h"
#include "ns3/cell-fabric-occupancy-limiter.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/fabric-channel.h"
#include "ns3/fabric-config-reader.h"
#include "ns3/fabric-invariant-check.h"
#include "ns3/fabric-plane-plan.h"
#include "ns3/fabric-pod.h"
#include "ns3/fabric-switch.h"
#include "ns3/log.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <map>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CellFabricKind");

namespace
{

/**
 * Declare the pod.cell keys of the section and the planes: links, stages, switch ports and spines
 * (Pyxis spec sections 1, 5.3). \param k the table
 */
void
DeclarePlaneKeys(std::vector<FabricConfigKey>& k)
{
    using K = FabricConfigKey;
    k.push_back(K("pod.cell", K::MAP)
                    .Help("Cell fabric (pod.fabric: cell): one Fabric Adapter per accelerator "
                          "(chip), chip link p to cell-switch plane p (pod.planes is set to "
                          "pod.cell.links)."));
    k.push_back(K("pod.cell.links", K::UINT)
                    .Default("36")
                    .Range(1, 64)
                    .Help("Links per chip, one per plane (Pyxis spec 1: 36 x 112G SerDes)."));
    k.push_back(K("pod.cell.stages", K::ENUM)
                    .Default("auto")
                    .Allowed({"auto", "single-stage", "two-stage"})
                    .Help("Cell switches per plane: single-stage (one switch, a port per chip, "
                          "the Pyxis spec 5.3), two-stage (folded Clos) or auto (single-stage when "
                          "the chips fit on one switch)."));
    k.push_back(
        K("pod.cell.switch-ports", K::UINT)
            .Default("144")
            .Range(2, 4096)
            .Help("Ports of a cell switch: 144, the chips the Pyxis spec's fabric joins any to any "
                  "(sections 1, 5.3)."));
    k.push_back(K("pod.cell.spines", K::UINT)
                    .Default("0")
                    .Help("Two-stage: second-stage switches per plane; 0: one per up port of a "
                          "first-stage switch."));
}

/**
 * Declare the pod.cell keys of the adapter: pages, clusters, clock, FO pipes, Rx buffer, cells,
 * admission (10.1, 10.6, 10.7). \param k the table
 */
void
DeclareAdapterKeys(std::vector<FabricConfigKey>& k)
{
    using K = FabricConfigKey;
    k.push_back(K("pod.cell.page-size-words", K::UINT)
                    .Default("125")
                    .Unit("128 B words")
                    .Help("PageSizeWords of RDMA jobs: 37, 48, ..., 125 (10.7.2, 11.4.6)."));
    k.push_back(K("pod.cell.clusters", K::UINT)
                    .Default("4")
                    .Range(1, 8)
                    .Help("Clusters per chip, each with its OQs and RxDMA (Pyxis spec 1)."));
    k.push_back(K("pod.cell.destination-clusters", K::UINT)
                    .Default("4")
                    .Range(1, 8)
                    .Help("Clusters of the destination that messages go to in turn (not in the "
                          "spec)."));
    k.push_back(K("pod.cell.clock-ghz", K::DOUBLE)
                    .Default("1.33")
                    .Min(0.01)
                    .Help("Adapter clock in GHz (Pyxis spec 1); at least 0.01, as the "
                          "adapter's ClockGhz attribute."));
    k.push_back(K("pod.cell.fo-pipes", K::UINT).Default("4").Range(1, 64).Help("FO pipes (10.7)."));
    k.push_back(K("pod.cell.fo-bytes-per-cycle", K::UINT)
                    .Default("88")
                    .Range(1, 4096)
                    .Unit("B")
                    .Help("FO pipe width per cycle (10.7)."));
    k.push_back(K("pod.cell.rxdma-bytes-per-cycle", K::UINT)
                    .Default("128")
                    .Range(1, 4096)
                    .Unit("B")
                    .Help("RxDMA width per cluster per cycle (10.8.8: 170 GB/s)."));
    k.push_back(K("pod.cell.rx-cbuf-cells", K::UINT)
                    .Default("24576")
                    .Unit("cells")
                    .Help("Rx CBUF data cells (10.8.3); at least one full page."));
    k.push_back(K("pod.cell.cell-header-bytes", K::UINT)
                    .Default("16")
                    .Range(0, 256)
                    .Unit("B")
                    .Help("Cell header per cell on a link (not in the spec: podsim's choice, "
                          "src/cell-fabric/doc/cell-fabric.rst Validation V7)."));
    k.push_back(K("pod.cell.control-cell-bytes", K::UINT)
                    .Default("96")
                    .Unit("B")
                    .Help("Request, grant, CTS/ACK/NACK cell before its header (64 to 176)."));
    k.push_back(K("pod.cell.max-outstanding-pages", K::UINT)
                    .Default("64")
                    .Range(1, 1 << 20)
                    .Help("Occupancy limiter: pages generated not yet sent, per VOQ (10.7.3.1)."));
    k.push_back(
        K("pod.cell.occupancy-profiles", K::LIST)
            .Element(K::MAP)
            .Help("The limiter's occupancy profiles, profile 0 first (at most 8, 10.7.3.1), "
                  "each {xoff, xon} in pages: a VOQ stops generating pages when xoff are "
                  "outstanding and resumes when they have dropped to xon (below xoff). Profiles "
                  "not given: {max-outstanding-pages, max-outstanding-pages - 1}."));
    k.push_back(K("pod.cell.occupancy-profiles[].xoff", K::UINT)
                    .Required()
                    .Range(1, 1 << 20)
                    .Help("XOFF threshold in outstanding pages."));
    k.push_back(K("pod.cell.occupancy-profiles[].xon", K::UINT)
                    .Required()
                    .Range(0, 1 << 20)
                    .Help("XON threshold in outstanding pages (below xoff)."));
    k.push_back(K("pod.cell.occupancy-profile", K::UINT)
                    .Default("0")
                    .Range(0, 7)
                    .Help("Occupancy profile of the VOQs the workloads' messages use."));
    k.push_back(K("pod.cell.qpages", K::UINT)
                    .Default("1024")
                    .Range(1, 1 << 20)
                    .Help("QPage table entries per chip: pages generated and not yet dequeued "
                          "by FO (10.7.6)."));
    k.push_back(K("pod.cell.txbuf-bytes", K::UINT)
                    .Default("32768")
                    .Range(16384, 1 << 24)
                    .Unit("B")
                    .Help("TxBuf per FO pipe (10.7[5b]: two maximum pages, 32 KB)."));
    k.push_back(
        K("pod.cell.max-outstanding-grants", K::UINT)
            .Default("4096")
            .Range(1, 1 << 20)
            .Help("Grants not yet committed, per destination cluster (the spec leaves the grant "
                  "scheduler open, 10.8: podsim's cap)."));
}

/**
 * Declare the pod.cell keys of latencies, the grant scheduler, the job timers, the granularity and
 * the links (10.7.1.1, 10.8.1.1). \param k the table
 */
void
DeclareTimingKeys(std::vector<FabricConfigKey>& k)
{
    using K = FabricConfigKey;
    k.push_back(K("pod.cell.tx-latency", K::TIME)
                    .Default("240ns")
                    .Min(0)
                    .Help("Adapter transmit pipeline latency (not in the spec)."));
    k.push_back(K("pod.cell.rx-latency", K::TIME)
                    .Default("240ns")
                    .Min(0)
                    .Help("Adapter receive pipeline latency (not in the spec)."));
    k.push_back(K("pod.cell.grant-policy", K::ENUM)
                    .Default("paced-round-robin")
                    .Allowed({"paced-round-robin", "fifo-round-robin", "fifo"})
                    .Help("Grant scheduler (not in the spec, 10.8): paced-round-robin "
                          "grants sources in turn at the rate the receiver drains its Rx "
                          "buffer; fifo-round-robin in turn, every free cell at once; fifo in "
                          "arrival order."));
    // Job timers (Pyxis spec 10.7.1.1, 10.8.1.1; values not in the spec). 0: off.
    k.push_back(K("pod.cell.tx-cts-timeout", K::TIME)
                    .Default("25ms")
                    .Range(0, 1e13)
                    .Help("Tx CTS-wait timer: Job Failed (10.7.1.1); above rx-data-timeout."));
    k.push_back(K("pod.cell.tx-active-timeout", K::TIME)
                    .Default("10ms")
                    .Range(0, 1e13)
                    .Help("Tx-active timer, CTS to all pages transmitted: Job Failed."));
    k.push_back(K("pod.cell.tx-ack-timeout", K::TIME)
                    .Default("1ms")
                    .Range(0, 1e13)
                    .Help("Tx ACK-wait timer: the job is retried once, then Job Failed."));
    k.push_back(K("pod.cell.rx-data-timeout", K::TIME)
                    .Default("10ms")
                    .Range(0, 1e13)
                    .Help("Rx data-wait timer: CTS resent once, then Rx Job Failed (10.8.1.1)."));
    k.push_back(K("pod.cell.rx-completion-timeout", K::TIME)
                    .Default("20ms")
                    .Range(0, 1e13)
                    .Help("Rx job-completion timer, first page to last commit: Rx Job Failed; "
                          "above tx-ack-timeout."));
    k.push_back(K("pod.cell.granularity", K::ENUM)
                    .Default("coarse")
                    .Allowed({"coarse", "fine"})
                    .Help("coarse: one event per page per link; fine: one per cell."));
    k.push_back(
        K("pod.cell.link-rate", K::RATE)
            .Default("106.25Gbps")
            .Above(0)
            .Unit("bit/s")
            .Help("Cell link rate: a 112G SerDes (Pyxis spec section 1) at the efficiency that "
                  "carries the spec's payload rate with 16 B cell headers "
                  "(cell-fabric.rst Validation V7)."));
    k.push_back(K("pod.cell.link-delay", K::TIME)
                    .Default("50ns")
                    .Min(0)
                    .Help("Cell link propagation delay."));
    k.push_back(K("pod.cell.switch-latency", K::TIME)
                    .Default("400ns")
                    .Min(0)
                    .Help("Cell switch pipeline latency (not in the spec)."));
    // Datagrams and RxDMA (Pyxis spec 10.5, 10.8.8, 11.5.2, 11.7.2)
}

/**
 * Declare the pod.cell keys of the endpoint API's transport, datagram rings and RxDMA tracking
 * (10.5, 10.8). \param k the table
 */
void
DeclareTransportKeys(std::vector<FabricConfigKey>& k)
{
    using K = FabricConfigKey;
    k.push_back(K("pod.cell.transport", K::ENUM)
                    .Default("rdma")
                    .Allowed({"rdma", "datagram"})
                    .Help("Transport of the workloads' messages: rdma (RDMA write jobs, 10.3) or "
                          "datagram (unreliable, 10.5: a message is split into datagrams of "
                          "16,256 B and the rest, delivered when all are written)."));
    k.push_back(K("pod.cell.datagram-rx-ring-size", K::UINT)
                    .Default("256")
                    .Range(2, 1 << 20)
                    .Unit("descriptors")
                    .Help("Descriptors per datagram RxQ ring; N - 1 usable (11.5.2.2); a "
                          "datagram finding none free is dropped (not in the spec)."));
    k.push_back(K("pod.cell.datagram-rx-buffer-bytes", K::UINT)
                    .Default("16256")
                    .Range(1, 16256)
                    .Unit("B")
                    .Help("BufferSizeBytes of each RxQ descriptor (11.4.9); larger datagrams "
                          "are dropped."));
    k.push_back(K("pod.cell.datagram-rx-repost-time", K::TIME)
                    .Default("1us")
                    .Range(0, 1e13)
                    .Help("Software time to process one received datagram and post its "
                          "descriptor again (not in the spec)."));
    k.push_back(K("pod.cell.datagram-tx-ring-size", K::UINT)
                    .Default("256")
                    .Range(2, 1 << 20)
                    .Unit("descriptors")
                    .Help("Descriptors per datagram TxQ ring; N - 1 usable (11.5.2.1); more "
                          "posts wait in software (not in the spec)."));
    k.push_back(K("pod.cell.rxdma-tracking-ids", K::UINT)
                    .Default("16")
                    .Range(1, 256)
                    .Help("Write-completion tracking IDs per cluster RxDMA (10.8.8: 16)."));
    k.push_back(K("pod.cell.rxdma-commit-cycles", K::UINT)
                    .Default("100")
                    .Range(0, 1 << 20)
                    .Unit("cycles")
                    .Help("AMEM write-completion latency of a page (11.7.2: about 100)."));
    // Credit flow control on the cell links (values not in the spec: podsim's choice).
}

/**
 * Declare the pod.cell keys of the cell switches' credits and buffer.
 * \param k the table
 */
void
DeclareCreditKeys(std::vector<FabricConfigKey>& k)
{
    using K = FabricConfigKey;
    k.push_back(K("pod.cell.switch-credits", K::BOOL)
                    .Default("true")
                    .Help("Credit flow control on every cell link, in cells, a credit pool for "
                          "data and one for control cells (lossless switches)."));
    k.push_back(K("pod.cell.credits-per-port", K::UINT)
                    .Default("0")
                    .Range(0, 1 << 20)
                    .Unit("cells")
                    .Help("Credits per port and pool; 0: a link's round trip at its smallest "
                          "cell plus the largest unit (full rate on one link)."));
    k.push_back(K("pod.cell.credit-bytes", K::UINT)
                    .Default("0")
                    .Range(0, 65536)
                    .Unit("B")
                    .Help("Switch buffer bytes of one credit (one cell slot); 0: the largest "
                          "cell with its header, 176 B + cell-header-bytes."));
    k.push_back(K("pod.cell.credit-latency", K::TIME)
                    .Default("0ns")
                    .Range(0, 1e9)
                    .Help("From a cell leaving a switch buffer to its credit leaving for the "
                          "sender (credits ride in reverse cell headers)."));
    k.push_back(K("pod.cell.switch-buffer-cells", K::UINT)
                    .Default("349525")
                    .Range(1, 1ULL << 40)
                    .Unit("cells")
                    .Help("Cell slots of a cell switch's shared buffer (64 MiB of 192 B slots); "
                          "with credits at least ports x 2 x credits-per-port."));
}

} // namespace

std::string
CellFabricKind::GetName() const
{
    return "cell";
}

std::string
CellFabricKind::GetSummary() const
{
    return "cell (the Pyxis Fabric Adapter over sprayed cell-switch planes, Pyxis spec section 10; "
           "see pod.cell)";
}

std::string
CellFabricKind::GetDoc() const
{
    return "src/cell-fabric/doc/cell-fabric.rst";
}

std::string
CellFabricKind::GetSection() const
{
    return "pod.cell";
}

void
CellFabricKind::DeclareKeys(std::vector<FabricConfigKey>& k) const
{
    DeclarePlaneKeys(k);
    DeclareAdapterKeys(k);
    DeclareTimingKeys(k);
    DeclareTransportKeys(k);
    DeclareCreditKeys(k);
}

std::shared_ptr<const FabricKindConfig>
CellFabricKind::Read(const FabricConfigReader& in, FabricPodConfig& pod) const
{
    auto c = std::make_shared<Config>();
    auto u32 = [&in](const std::string& key) { return static_cast<uint32_t>(in.Get(key).u); };
    auto time = [&in](const std::string& key) {
        return PicoSeconds(static_cast<int64_t>(in.Get(key).ps));
    };
    c->links = u32("pod.cell.links");
    c->stages = in.Get("pod.cell.stages").str;
    c->switchPorts = u32("pod.cell.switch-ports");
    c->spines = u32("pod.cell.spines");
    c->pageSizeWords = u32("pod.cell.page-size-words");
    c->clusters = u32("pod.cell.clusters");
    c->destinationClusters = u32("pod.cell.destination-clusters");
    c->clockGhz = in.Get("pod.cell.clock-ghz").d;
    c->foPipes = u32("pod.cell.fo-pipes");
    c->foBytesPerCycle = u32("pod.cell.fo-bytes-per-cycle");
    c->rxDmaBytesPerCycle = u32("pod.cell.rxdma-bytes-per-cycle");
    c->rxCbufCells = u32("pod.cell.rx-cbuf-cells");
    c->cellHeaderBytes = u32("pod.cell.cell-header-bytes");
    c->controlCellBytes = u32("pod.cell.control-cell-bytes");
    c->maxOutstandingPages = u32("pod.cell.max-outstanding-pages");
    c->maxOutstandingGrants = u32("pod.cell.max-outstanding-grants");
    {
        const std::size_t n = in.GetListSize("pod.cell.occupancy-profiles");
        for (std::size_t i = 0; i < n; ++i)
        {
            const std::string p = "pod.cell.occupancy-profiles[" + std::to_string(i) + "]";
            c->occupancyProfiles.emplace_back(static_cast<uint32_t>(in.Get(p + ".xoff", true).u),
                                              static_cast<uint32_t>(in.Get(p + ".xon", true).u));
        }
    }
    c->occupancyProfile = u32("pod.cell.occupancy-profile");
    c->qpages = u32("pod.cell.qpages");
    c->txBufBytes = u32("pod.cell.txbuf-bytes");
    c->txLatency = time("pod.cell.tx-latency");
    c->rxLatency = time("pod.cell.rx-latency");
    c->grantPolicy = in.Get("pod.cell.grant-policy").str;
    c->txCtsTimeout = time("pod.cell.tx-cts-timeout");
    c->txActiveTimeout = time("pod.cell.tx-active-timeout");
    c->txAckTimeout = time("pod.cell.tx-ack-timeout");
    c->rxDataTimeout = time("pod.cell.rx-data-timeout");
    c->rxCompletionTimeout = time("pod.cell.rx-completion-timeout");
    c->granularity = in.Get("pod.cell.granularity").str;
    c->linkRate = DataRate(in.Get("pod.cell.link-rate").u);
    c->linkDelay = time("pod.cell.link-delay");
    c->switchLatency = time("pod.cell.switch-latency");
    c->transport = in.Get("pod.cell.transport").str;
    c->datagramRxRingSize = u32("pod.cell.datagram-rx-ring-size");
    c->datagramRxBufferBytes = u32("pod.cell.datagram-rx-buffer-bytes");
    c->datagramRxRepostTime = time("pod.cell.datagram-rx-repost-time");
    c->datagramTxRingSize = u32("pod.cell.datagram-tx-ring-size");
    c->rxDmaTrackingIds = u32("pod.cell.rxdma-tracking-ids");
    c->rxDmaCommitCycles = u32("pod.cell.rxdma-commit-cycles");
    c->switchCredits = in.Get("pod.cell.switch-credits").b;
    c->creditsPerPort = u32("pod.cell.credits-per-port");
    c->creditBytes = u32("pod.cell.credit-bytes");
    c->creditLatency = time("pod.cell.credit-latency");
    c->switchBufferCells = in.Get("pod.cell.switch-buffer-cells").u;
    if (in.Get("scheduler").str == "heap")
    {
        // ns-3 3.37's HeapScheduler::Remove moves the heap's last event into the removed
        // slot and only sifts it down, never up, so a later event can come out before an
        // earlier one (time goes backwards; found by --check in the fuzzer). The cell
        // adapter removes its idle timers with Simulator::Remove.
        in.Fail("scheduler",
                "heap is not usable with the cell fabric: ns-3's HeapScheduler::Remove can "
                "break the heap order (events would run out of time order); use map, calendar "
                "or priority-queue");
    }
    if (pod.link.ber > 0 || pod.link.codewordErrorRate > 0)
    {
        // The cell links are pod.cell.link-rate and link-delay; their errors are not modelled
        // (the adapter finds lost cells only through page validation, 10.8, modelled for
        // injected page loss alone).
        in.Fail(pod.link.ber > 0 ? "pod.link.ber" : "pod.link.codeword-error-rate",
                "bit errors are not modelled on cell links (the cell fabric takes its links from "
                "pod.cell; lost cells are found only by page validation, Pyxis spec 10.8)");
    }
    bool planesGiven = false;
    in.Get("pod.planes", false, &planesGiven);
    if (planesGiven && pod.planes != c->links)
    {
        in.Fail("pod.planes",
                "a cell fabric has one plane per chip link: set pod.cell.links instead");
    }
    // What the cell fabric fixes: chip link p goes to plane p.
    pod.planes = c->links;
    const std::shared_ptr<const FabricKindConfig> section = c;
    FabricPodConfig checked = pod;
    checked.kind = section;
    std::string field;
    std::string message;
    if (!Check(checked, field, message))
    {
        in.Fail(field, message);
    }
    return section;
}

bool
CellFabricKind::UsesPlanePlan() const
{
    return false;
}

void
CellFabricKind::CheckFault(const FabricConfigReader& in,
                           const FabricPodConfig& /* pod */,
                           const std::string& /* kind */,
                           const std::string& /* path */) const
{
    in.Fail("faults",
            "faults are not modelled on the cell fabric: its adapters spray every page "
            "over every link with no link status to react to, and find lost cells only "
            "through page validation, which is modelled for injected page loss alone "
            "(CellFabricAdapter InjectDropJob; the Pyxis spec section 10)");
}

uint32_t
CellFabricKind::GetStages(const FabricPodConfig& pod)
{
    const Config& c = pod.GetKind<Config>();
    if (c.stages == "single-stage")
    {
        return 1;
    }
    if (c.stages == "two-stage")
    {
        return 2;
    }
    return pod.accelerators <= c.switchPorts ? 1 : 2;
}

bool
CellFabricKind::Check(const FabricPodConfig& pod, std::string& field, std::string& message)
{
    const Config& c = pod.GetKind<Config>();
    const uint32_t n = pod.accelerators;
    if (!CellFabricCellifier::IsLegalPageSizeWords(c.pageSizeWords))
    {
        field = "pod.cell.page-size-words";
        std::string legal;
        for (uint32_t w : CellFabricCellifier::GetLegalPageSizeWords())
        {
            legal += (legal.empty() ? "" : ", ") + std::to_string(w);
        }
        message = std::to_string(c.pageSizeWords) +
                  " words is not a legal RDMA page size (Pyxis spec 10.7.2, 11.4.6): one of " +
                  legal;
        return false;
    }
    if (n < 2)
    {
        field = "pod.accelerators";
        message = "a cell fabric needs at least 2 chips";
        return false;
    }
    const uint32_t stages = GetStages(pod);
    const uint32_t down = c.switchPorts / 2;
    const uint32_t up = c.switchPorts - down;
    if (stages == 1 && n > c.switchPorts)
    {
        field = "pod.accelerators";
        message = std::to_string(n) + " chip links reach each single-stage plane, more than the " +
                  std::to_string(c.switchPorts) +
                  " ports of its cell switch (one port per chip): use pod.cell.stages: two-stage "
                  "or more pod.cell.switch-ports";
        return false;
    }
    if (stages == 2)
    {
        const uint32_t spines = c.spines ? c.spines : up;
        if (up % spines != 0)
        {
            field = "pod.cell.spines";
            message = "the " + std::to_string(up) +
                      " up ports of a first-stage switch must spread evenly over " +
                      std::to_string(spines) + " second-stage switches";
            return false;
        }
        const uint64_t leaves = (n + down - 1) / down;
        if (leaves * (up / spines) > c.switchPorts)
        {
            field = "pod.accelerators";
            message = std::to_string(n) + " chips need " + std::to_string(leaves) +
                      " first-stage switches per plane (" + std::to_string(down) +
                      " chips each), more than a second-stage switch of " +
                      std::to_string(c.switchPorts) + " ports reaches (at most " +
                      std::to_string(c.switchPorts / (up / spines) * down) + " chips)";
            return false;
        }
    }
    const uint32_t maxPageCells = CellFabricCellifier::GetCells(
        CellFabricCellifier::MAX_PAGE_PAYLOAD_BYTES + CellFabricCellifier::PAGE_HEADER_BYTES);
    if (c.rxCbufCells < maxPageCells)
    {
        field = "pod.cell.rx-cbuf-cells";
        message = "the Rx CBUF must hold at least one full page (" + std::to_string(maxPageCells) +
                  " cells)";
        return false;
    }
    if (c.controlCellBytes < CellFabricCellifier::MESSAGE_BYTES ||
        c.controlCellBytes >
            CellFabricCellifier::MAX_CELL_CHUNKS * CellFabricCellifier::CHUNK_BYTES)
    {
        field = "pod.cell.control-cell-bytes";
        message = "a control cell carries a 64 B message in one cell of at most 176 B (10.1)";
        return false;
    }
    if (!CheckCredits(pod, field, message))
    {
        return false;
    }
    // Rx timers longer than Tx timers (10.7.1.1, 10.8.1.1): the Tx CTS wait covers the Rx side's
    // data wait (which resends the CTS), the Rx job completion covers the Tx ACK wait and retry.
    if (c.txCtsTimeout.IsStrictlyPositive() && c.rxDataTimeout.IsStrictlyPositive() &&
        c.txCtsTimeout <= c.rxDataTimeout)
    {
        field = "pod.cell.tx-cts-timeout";
        message = "the Tx CTS-wait timer must be longer than pod.cell.rx-data-timeout, so that the "
                  "receiver can resend its CTS first (Pyxis spec 10.7.1.1)";
        return false;
    }
    if (c.rxCompletionTimeout.IsStrictlyPositive() && c.txAckTimeout.IsStrictlyPositive() &&
        c.rxCompletionTimeout <= c.txAckTimeout)
    {
        field = "pod.cell.rx-completion-timeout";
        message = "the Rx job-completion timer must be longer than pod.cell.tx-ack-timeout, so "
                  "that the sender can time out and retry first (Pyxis spec 10.8.1.1)";
        return false;
    }
    // the occupancy limiter's profiles (10.7.3.1): at most 8, XON below XOFF
    if (c.occupancyProfiles.size() > CellFabricOccupancyLimiter::PROFILES)
    {
        field = "pod.cell.occupancy-profiles";
        message = std::to_string(c.occupancyProfiles.size()) +
                  " occupancy profiles given; the limiter has 8 (Pyxis spec 10.7.3.1)";
        return false;
    }
    for (std::size_t i = 0; i < c.occupancyProfiles.size(); ++i)
    {
        std::string error;
        if (!CellFabricOccupancyLimiter::CheckProfile(c.occupancyProfiles[i].first,
                                                      c.occupancyProfiles[i].second,
                                                      error))
        {
            field = "pod.cell.occupancy-profiles[" + std::to_string(i) + "].xon";
            message = error;
            return false;
        }
    }
    if (!c.occupancyProfiles.empty() && c.occupancyProfile >= c.occupancyProfiles.size())
    {
        field = "pod.cell.occupancy-profile";
        message = "profile " + std::to_string(c.occupancyProfile) + " is not among the " +
                  std::to_string(c.occupancyProfiles.size()) +
                  " given in pod.cell.occupancy-profiles (profiles count from 0)";
        return false;
    }
    if (pod.fc.kind != "none")
    {
        field = "pod.flow-control.kind";
        message = "the cell fabric is lossless by request/grant (grants paced by free Rx buffer "
                  "cells, Pyxis spec 10.1) and its own credits (pod.cell.switch-credits): "
                  "pod.flow-control is for the ethernet and sue fabrics";
        return false;
    }
    if (pod.transport.kind != "none")
    {
        field = "pod.transport.kind";
        message = "the cell fabric's adapter is its own transport (RDMA jobs with CTS and ACK, "
                  "10.3): pod.transport is for the ethernet fabric";
        return false;
    }
    if (pod.llr.mode != "off")
    {
        field = "pod.llr.mode";
        message = "link-level retry is not modelled on cell links: pod.llr is for the ethernet "
                  "and sue fabrics";
        return false;
    }
    return true;
}

uint32_t
CellFabricKind::GetCreditsPerPort(const FabricPodConfig& pod)
{
    const Config& c = pod.GetKind<Config>();
    if (c.creditsPerPort)
    {
        return c.creditsPerPort;
    }
    // As CellFabricHelper derives them: the round trip of a link at its smallest cell (a 96 B
    // data cell or a control cell, with its header) plus the largest unit.
    const uint32_t smallest =
        std::min<uint32_t>(CellFabricCellifier::MIN_CELL_CHUNKS * CellFabricCellifier::CHUNK_BYTES,
                           c.controlCellBytes) +
        c.cellHeaderBytes;
    return CellFabricHelper::GetRoundTripCredits(
        c.linkRate,
        c.linkDelay,
        c.switchLatency,
        c.creditLatency,
        smallest,
        CellFabricHelper::GetLargestUnitCells(c.pageSizeWords, c.links, c.granularity == "fine"));
}

bool
CellFabricKind::CheckCredits(const FabricPodConfig& pod, std::string& field, std::string& message)
{
    const Config& c = pod.GetKind<Config>();
    const uint32_t largestCell =
        CellFabricCellifier::MAX_CELL_CHUNKS * CellFabricCellifier::CHUNK_BYTES + c.cellHeaderBytes;
    if (c.creditBytes != 0 && c.creditBytes < largestCell)
    {
        field = "pod.cell.credit-bytes";
        message = std::to_string(c.creditBytes) + " B per credit (cell slot) cannot hold a " +
                  std::to_string(largestCell) + " B cell with its header (176 B + " +
                  "pod.cell.cell-header-bytes); 0 takes that size";
        return false;
    }
    if (!c.switchCredits)
    {
        return true;
    }
    const uint32_t unit =
        CellFabricHelper::GetLargestUnitCells(c.pageSizeWords, c.links, c.granularity == "fine");
    if (c.creditsPerPort != 0 && c.creditsPerPort < unit)
    {
        field = "pod.cell.credits-per-port";
        message = std::to_string(c.creditsPerPort) + " credits are fewer than the " +
                  std::to_string(unit) + " cells of the largest unit on a link (a page's cells " +
                  "over pod.cell.links in coarse granularity), which could never be sent";
        return false;
    }
    const uint32_t credits = GetCreditsPerPort(pod);
    const uint64_t ports = CellFabricHelper::GetMostSwitchPorts(pod.accelerators,
                                                                c.switchPorts,
                                                                GetStages(pod),
                                                                c.spines);
    const uint64_t need = ports * 2 * credits;
    if (c.switchBufferCells < need)
    {
        field = "pod.cell.switch-buffer-cells";
        message =
            std::to_string(c.switchBufferCells) +
            " cells cannot hold the credits a cell switch advertises: " + std::to_string(ports) +
            " ports x 2 pools (data, control) x " + std::to_string(credits) +
            " credits = " + std::to_string(need) +
            " cells; give more cells, fewer pod.cell.credits-per-port, or "
            "pod.cell.switch-credits: false";
        return false;
    }
    return true;
}

void
CellFabricKind::Build(const FabricPodConfig& pod,
                      const FabricPlanePlan* /* plan */,
                      FabricPod& out) const
{
    const Config& c = pod.GetKind<Config>();
    NS_LOG_FUNCTION(pod.accelerators << c.links);
    CellFabricHelper h;
    h.SetAdapterAttribute("Clusters", UintegerValue(c.clusters));
    h.SetAdapterAttribute("DestinationClusters", UintegerValue(c.destinationClusters));
    h.SetAdapterAttribute("ClockGhz", DoubleValue(c.clockGhz));
    h.SetAdapterAttribute("PageSizeWords", UintegerValue(c.pageSizeWords));
    h.SetAdapterAttribute("FoPipes", UintegerValue(c.foPipes));
    h.SetAdapterAttribute("FoBytesPerCycle", UintegerValue(c.foBytesPerCycle));
    h.SetAdapterAttribute("RxDmaBytesPerCycle", UintegerValue(c.rxDmaBytesPerCycle));
    h.SetAdapterAttribute("RxCbufCells", UintegerValue(c.rxCbufCells));
    h.SetAdapterAttribute("CellHeaderBytes", UintegerValue(c.cellHeaderBytes));
    h.SetAdapterAttribute("ControlCellBytes", UintegerValue(c.controlCellBytes));
    h.SetAdapterAttribute("MaxOutstandingPages", UintegerValue(c.maxOutstandingPages));
    h.SetAdapterAttribute("MaxOutstandingGrants", UintegerValue(c.maxOutstandingGrants));
    h.SetAdapterAttribute("TxLatency", TimeValue(c.txLatency));
    h.SetAdapterAttribute("RxLatency", TimeValue(c.rxLatency));
    h.SetAdapterAttribute("GrantPolicy",
                          EnumValue(c.grantPolicy == "fifo" ? CellFabricAdapter::FIFO
                                    : c.grantPolicy == "fifo-round-robin"
                                        ? CellFabricAdapter::FIFO_ROUND_ROBIN
                                        : CellFabricAdapter::PACED_ROUND_ROBIN));
    h.SetAdapterAttribute("TxCtsTimeout", TimeValue(c.txCtsTimeout));
    h.SetAdapterAttribute("TxActiveTimeout", TimeValue(c.txActiveTimeout));
    h.SetAdapterAttribute("TxAckTimeout", TimeValue(c.txAckTimeout));
    std::string profiles;
    for (const auto& [xoff, xon] : c.occupancyProfiles)
    {
        profiles +=
            (profiles.empty() ? "" : ",") + std::to_string(xoff) + ":" + std::to_string(xon);
    }
    h.SetAdapterAttribute("OccupancyProfiles", StringValue(profiles));
    h.SetAdapterAttribute("DefaultOccupancyProfile", UintegerValue(c.occupancyProfile));
    h.SetAdapterAttribute("QPages", UintegerValue(c.qpages));
    h.SetAdapterAttribute("TxBufBytes", UintegerValue(c.txBufBytes));
    h.SetAdapterAttribute("RxDataTimeout", TimeValue(c.rxDataTimeout));
    h.SetAdapterAttribute("RxCompletionTimeout", TimeValue(c.rxCompletionTimeout));
    h.SetAdapterAttribute(
        "Granularity",
        EnumValue(c.granularity == "fine" ? CellFabricAdapter::FINE : CellFabricAdapter::COARSE));
    h.SetAdapterAttribute("EndpointTransport",
                          EnumValue(c.transport == "datagram"
                                        ? CellFabricAdapter::TRANSPORT_DATAGRAM
                                        : CellFabricAdapter::TRANSPORT_RDMA));
    h.SetAdapterAttribute("DatagramRxRingSize", UintegerValue(c.datagramRxRingSize));
    h.SetAdapterAttribute("DatagramRxBufferBytes", UintegerValue(c.datagramRxBufferBytes));
    h.SetAdapterAttribute("DatagramRxRepostTime", TimeValue(c.datagramRxRepostTime));
    h.SetAdapterAttribute("DatagramTxRingSize", UintegerValue(c.datagramTxRingSize));
    h.SetAdapterAttribute("RxDmaTrackingIds", UintegerValue(c.rxDmaTrackingIds));
    h.SetAdapterAttribute("RxDmaCommitCycles", UintegerValue(c.rxDmaCommitCycles));
    h.SetChannelAttribute("DataRate", DataRateValue(c.linkRate));
    h.SetChannelAttribute("Delay", TimeValue(c.linkDelay));
    h.SetSwitchAttribute("PipelineLatency", TimeValue(c.switchLatency));
    h.SetSwitchPorts(c.switchPorts);
    h.SetStages(GetStages(pod));
    h.SetSpinesPerPlane(c.spines);
    h.SetSwitchBufferCells(c.switchBufferCells);
    h.SetCredits(c.switchCredits);
    h.SetCreditsPerPort(c.creditsPerPort);
    h.SetCreditBytes(c.creditBytes);
    h.SetCreditLatency(c.creditLatency);

    NodeContainer& accNodes = out.accNodes;
    accNodes.Create(pod.accelerators);
    std::vector<Ptr<CellFabricAdapter>> adapters = h.Install(accNodes, c.links);
    out.endpoints.assign(adapters.begin(), adapters.end());

    // Names: chips by node, switches in the order the helper built them (per plane: the
    // first-stage switches, then the second-stage ones).
    std::map<uint32_t, std::string> nodeName;
    for (uint32_t a = 0; a < pod.accelerators; ++a)
    {
        nodeName[accNodes.Get(a)->GetId()] = "acc" + std::to_string(a);
    }
    const auto& planes = h.GetPlanes();
    out.switches = planes;
    const uint32_t perPlane = planes.size() / c.links;
    out.accDevices.assign(pod.accelerators, {});
    std::map<uint32_t, bool> isLeaf; // switch node id -> has chip ports
    for (uint32_t p = 0; p < c.links; ++p)
    {
        for (uint32_t a = 0; a < pod.accelerators; ++a)
        {
            Ptr<FabricNetDevice> sw = h.GetSwitchPortOf(a, p);
            out.accDevices[a].push_back(sw->GetFabricChannel()->GetPeer(sw));
            isLeaf[sw->GetNode()->GetId()] = true;
        }
    }
    std::map<uint32_t, uint32_t> switchPlane;
    uint32_t leafIndex = 0;
    uint32_t spineIndex = 0;
    for (uint32_t k = 0; k < planes.size(); ++k)
    {
        const uint32_t p = k / perPlane;
        if (k % perPlane == 0)
        {
            leafIndex = 0;
            spineIndex = 0;
        }
        const uint32_t id = planes[k]->GetPort(0)->GetNode()->GetId();
        const bool leaf = isLeaf.count(id) != 0;
        isLeaf[id] = leaf;
        nodeName[id] =
            "p" + std::to_string(p) +
            (leaf ? ".sw" + std::to_string(leafIndex++) : ".spine" + std::to_string(spineIndex++));
        switchPlane[id] = p;
    }
    for (uint32_t p = 0; p < c.links; ++p)
    {
        for (uint32_t a = 0; a < pod.accelerators; ++a)
        {
            Ptr<FabricNetDevice> acc = out.accDevices[a][p];
            Ptr<FabricNetDevice> sw = h.GetSwitchPortOf(a, p);
            const std::string& swName = nodeName[sw->GetNode()->GetId()];
            out.transmitters.push_back(
                FabricPod::Transmitter{acc,
                                       "acc" + std::to_string(a) + "->" + swName,
                                       "acc-up",
                                       p});
        }
    }
    for (const Ptr<FabricSwitch>& s : planes)
    {
        for (uint32_t i = 0; i < s->GetNPorts(); ++i)
        {
            Ptr<FabricNetDevice> d = s->GetPort(i);
            Ptr<FabricNetDevice> peer = d->GetFabricChannel()->GetPeer(d);
            const uint32_t from = d->GetNode()->GetId();
            const uint32_t to = peer->GetNode()->GetId();
            const bool toChip = switchPlane.find(to) == switchPlane.end();
            const std::string kind = toChip ? "down" : (isLeaf[from] ? "leaf-up" : "spine-down");
            out.transmitters.push_back(FabricPod::Transmitter{d,
                                                              nodeName[from] + "->" + nodeName[to],
                                                              kind,
                                                              switchPlane[from]});
        }
    }
    // The switches' names in the results: "p<plane>.sw<index in the plane>".
    out.switchesPerPlane = perPlane;
    for (uint32_t k = 0; k < planes.size(); ++k)
    {
        const uint32_t p = k / perPlane;
        out.switchNames.push_back("p" + std::to_string(p) + ".sw" + std::to_string(k % perPlane));
        out.views.push_back({planes[k], out.switchNames.back(), p});
    }
}

void
CellFabricKind::AddProbes(const FabricPod& pod, std::vector<FabricProbe>& probes) const
{
    for (uint32_t i = 0; i < pod.endpoints.size(); ++i)
    {
        Ptr<CellFabricAdapter> a = DynamicCast<CellFabricAdapter>(pod.endpoints[i]);
        if (!a)
        {
            continue;
        }
        const std::string acc = "acc" + std::to_string(i);
        // The adapter's Tx jobs (VOQs).
        FabricProbe voq;
        voq.name = acc + " VOQs";
        voq.held = [a]() { return a->GetPendingTxJobs(); };
        voq.progress = [a]() {
            const CellFabricAdapter::Stats& s = a->GetStats();
            return s.pagesRequested + s.pagesSent + s.jobsCompleted + s.jobsFailed + s.jobsRetried;
        };
        voq.describe = [a]() {
            std::ostringstream os;
            os << a->GetPendingTxJobs() << " Tx jobs pending";
            const auto voqs = a->GetVoqStates();
            const std::size_t shown = std::min<std::size_t>(voqs.size(), 4);
            for (std::size_t k = 0; k < shown; ++k)
            {
                const auto& v = voqs[k];
                os << (k ? ", " : ": ") << "VOQ to acc" << v.dst << " cluster " << v.cluster << " ("
                   << v.jobs << " jobs, " << v.outstanding << " pages waiting on a grant"
                   << (v.jobs > 0 && !v.cts ? ", head job waiting for its CTS" : "") << ")";
            }
            if (shown < voqs.size())
            {
                os << ", ... (" << voqs.size() - shown << " more VOQs)";
            }
            return os.str();
        };
        probes.push_back(voq);
        // The adapter's grant scheduler.
        FabricProbe grant;
        grant.name = acc + " grant scheduler";
        grant.held = [a]() {
            uint64_t n = 0;
            for (const auto& g : a->GetGrantQueueStates())
            {
                n += g.waiting;
            }
            return n;
        };
        grant.progress = [a]() {
            const CellFabricAdapter::Stats& s = a->GetStats();
            return s.pagesGranted + s.pagesCommitted;
        };
        grant.describe = [a]() {
            std::ostringstream os;
            os << a->GetFreeRxCells() << " free Rx buffer cells";
            for (const auto& g : a->GetGrantQueueStates())
            {
                if (g.waiting > 0)
                {
                    os << ", cluster " << g.cluster << ": " << g.waiting << " requests waiting, "
                       << g.grantsOut << " grants out of at most " << a->GetMaxOutstandingGrants();
                }
            }
            return os.str();
        };
        probes.push_back(grant);
    }
}

void
CellFabricKind::CheckDrained(const FabricPod& pod) const
{
    for (uint32_t i = 0; i < pod.endpoints.size(); ++i)
    {
        Ptr<CellFabricAdapter> a = DynamicCast<CellFabricAdapter>(pod.endpoints[i]);
        if (!a || !a->HasRxResources())
        {
            continue;
        }
        FabricInvariantCheck::Count();
        if (a->GetFreeRxCells() != a->GetRxCbufCells() || a->GetOutstandingGrants() != 0)
        {
            FabricInvariantCheck::Fail(FabricInvariantCheck::CREDITS,
                                       "acc" + std::to_string(i) + " Rx CBUF",
                                       "free cells " + std::to_string(a->GetFreeRxCells()) +
                                           " of " + std::to_string(a->GetRxCbufCells()) +
                                           ", outstanding grants " +
                                           std::to_string(a->GetOutstandingGrants()) +
                                           " at the end of a run that drained");
        }
    }
}

void
CellFabricKind::Collect(const FabricPod& pod, FabricCounters& counters) const
{
    // The adapters' own drops (page validation, 10.8), by reason.
    for (const Ptr<FabricEndpoint>& e : pod.endpoints)
    {
        if (Ptr<CellFabricAdapter> a = DynamicCast<CellFabricAdapter>(e))
        {
            for (const auto& [reason, n] : a->GetStats().drops)
            {
                counters.drops[reason] += n;
            }
        }
    }
}

} // namespace ns3
