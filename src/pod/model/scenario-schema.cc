/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scenario-schema.h"

#include "units.h"

#include "ns3/collective-helper.h"
#include "ns3/collective-spec.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace ns3
{

namespace
{

/// Builds one table row readably: Row("pod.accelerators", UINT).Required().Range(1, 65536).
class Row
{
  public:
    /**
     * Start a row.
     * \param path dotted path
     * \param type value type
     */
    Row(const std::string& path, ScenarioSchema::Type type)
    {
        m_key.path = path;
        m_key.type = type;
    }

    /// \param v default as text \return this row
    Row& Default(const std::string& v)
    {
        m_key.defaultValue = v;
        return *this;
    }

    /// \param note description of a computed default \return this row
    Row& Note(const std::string& note)
    {
        m_key.defaultNote = note;
        return *this;
    }

    /// \param unit unit for the reference \return this row
    Row& Unit(const std::string& unit)
    {
        m_key.unit = unit;
        return *this;
    }

    /// \return this row, made required
    Row& Required()
    {
        m_key.required = true;
        return *this;
    }

    /// \param v inclusive minimum \return this row
    Row& Min(double v)
    {
        m_key.hasMin = true;
        m_key.min = v;
        return *this;
    }

    /// \param v exclusive minimum \return this row
    Row& Above(double v)
    {
        Min(v);
        m_key.minExclusive = true;
        return *this;
    }

    /// \param v inclusive maximum \return this row
    Row& Max(double v)
    {
        m_key.hasMax = true;
        m_key.max = v;
        return *this;
    }

    /// \param lo inclusive minimum \param hi inclusive maximum \return this row
    Row& Range(double lo, double hi)
    {
        return Min(lo).Max(hi);
    }

    /// \param values allowed values of an enum \return this row
    Row& Allowed(const std::vector<std::string>& values)
    {
        m_key.allowed = values;
        return *this;
    }

    /// \param t element type of a list \return this row
    Row& Element(ScenarioSchema::Type t)
    {
        m_key.element = t;
        return *this;
    }

    /// \param kinds workload kinds the key belongs to \return this row
    Row& Kinds(const std::vector<std::string>& kinds)
    {
        m_key.kinds = kinds;
        return *this;
    }

    /// \param help one-line description \return this row
    Row& Help(const std::string& help)
    {
        m_key.help = help;
        return *this;
    }

    /// \return the key
    operator ScenarioSchema::Key() const
    {
        return m_key;
    }

  private:
    ScenarioSchema::Key m_key; //!< the key being built
};

/**
 * Add the keys of a collective under a prefix (a collective workload or a DAG node).
 * \param k the table
 * \param prefix `workloads[]` or `workloads[].nodes[]`
 * \param kinds the kinds they belong to (workload kinds; empty for DAG nodes)
 */
void
AddCollectiveKeys(std::vector<ScenarioSchema::Key>& k,
                  const std::string& prefix,
                  const std::vector<std::string>& kinds)
{
    using S = ScenarioSchema;
    k.push_back(Row(prefix + ".collective", S::ENUM)
                    .Required()
                    .Allowed(CollectiveSpec::TypeNames())
                    .Kinds(kinds)
                    .Help("The collective operation."));
    k.push_back(Row(prefix + ".algorithm", S::ENUM)
                    .Note("ring; direct for all-to-all(-v); dissemination for barrier")
                    .Allowed(CollectiveHelper::AlgorithmNames())
                    .Kinds(kinds)
                    .Help("The algorithm (rabenseifner: halving-doubling for any group size)."));
    k.push_back(Row(prefix + ".group", S::LIST)
                    .Element(S::UINT)
                    .Note("every accelerator")
                    .Kinds(kinds)
                    .Help("The communicator: distinct accelerators, in rank order."));
    k.push_back(Row(prefix + ".root", S::UINT)
                    .Default("0")
                    .Kinds(kinds)
                    .Help("Root rank of a broadcast or reduce (a rank of the group)."));
    k.push_back(Row(prefix + ".size-matrix", S::LIST)
                    .Element(S::UINT)
                    .Kinds(kinds)
                    .Help("all-to-all-v: n x n byte counts, row-major (row = sender)."));
    k.push_back(Row(prefix + ".chunks", S::UINT)
                    .Default("1")
                    .Range(1, 1048576)
                    .Kinds(kinds)
                    .Help("Chunks the data is split into, each running the whole schedule."));
    k.push_back(Row(prefix + ".chunks-in-flight", S::UINT)
                    .Default("0")
                    .Kinds(kinds)
                    .Help("Chunks a rank runs at once (pipeline depth); 0: all."));
    k.push_back(Row(prefix + ".stripes", S::UINT)
                    .Default("1")
                    .Range(1, 64)
                    .Kinds(kinds)
                    .Help("Sub-messages per send (multi-plane striping with round-robin plane "
                          "selection; spray already stripes)."));
    k.push_back(Row(prefix + ".reduce-cost", S::TIME)
                    .Default("0")
                    .Min(0)
                    .Kinds(kinds)
                    .Help("Reduction time per received byte at the receiver."));
    k.push_back(Row(prefix + ".group-size", S::UINT)
                    .Note("largest divisor <= sqrt(n)")
                    .Min(1)
                    .Kinds(kinds)
                    .Help("hierarchical: ranks per group (divides the group size)."));
}

/**
 * Add the keys of the ualink fabric (pod.ualink; UALink_200 Rev 1.0, seed 002).
 * \param k the table
 */
void
AddUalinkKeys(std::vector<ScenarioSchema::Key>& k)
{
    using S = ScenarioSchema;
    k.push_back(Row("pod.ualink", S::MAP)
                    .Help("UALink 200 (pod.fabric: ualink): pod.planes ports per accelerator, "
                          "one single-tier switch of pod.accelerators ports per port (rails, "
                          "section 1.1); pod.link.rate is derived from the lanes."));
    k.push_back(Row("pod.ualink.bifurcation", S::ENUM)
                    .Default("x4")
                    .Allowed({"x4", "2x2", "4x1"})
                    .Help("How every 4-lane station is split, the same on every station of the "
                          "pod (section 2.4): one x4 port, two x2 or four x1; pod.planes (ports "
                          "per accelerator) must fill whole stations."));
    k.push_back(Row("pod.ualink.lane-rate", S::ENUM)
                    .Default("200g")
                    .Allowed({"200g", "100g"})
                    .Help("Lanes of 200G (212.5 GT/s) or the 100G option (106.25 GT/s), "
                          "section 7.1."));
    k.push_back(Row("pod.ualink.fec-interleave", S::UINT)
                    .Default("0")
                    .Range(0, 4)
                    .Help("RS(544,514) interleave ways (Tables 7-2, 7-4); 0: the PHY's IEEE "
                          "802.3 default."));
    k.push_back(Row("pod.ualink.address-cache", S::BOOL)
                    .Default("true")
                    .Help("Compressed requests through the 4-way x 1024-row TL address caches "
                          "(sections 5.5, 5.6)."));
    k.push_back(Row("pod.ualink.authentication", S::BOOL)
                    .Default("false")
                    .Help("TL authentication: an AuthTags half-flit per control half-flit "
                          "(section 5.1.1); forces strict ordering (section 2.7.9)."));
    k.push_back(Row("pod.ualink.strict-ordering", S::BOOL)
                    .Default("false")
                    .Help("Strict ordering mode: every request in order (section 2.7.9); "
                          "otherwise only requests to the same 256 B region and VC."));
    k.push_back(Row("pod.ualink.req-cmd-credits", S::UINT)
                    .Default("512")
                    .Range(1, 1 << 20)
                    .Help("TL request field credits per port (section 5.8; the spec leaves "
                          "counts to the implementation)."));
    k.push_back(Row("pod.ualink.rsp-cmd-credits", S::UINT)
                    .Default("512")
                    .Range(1, 1 << 20)
                    .Help("TL response field credits per port."));
    k.push_back(Row("pod.ualink.req-data-credits", S::UINT)
                    .Default("2048")
                    .Range(4, 1 << 20)
                    .Help("TL 64 B request data credits per port (about 1530 cover a 1 us "
                          "credit loop at x4)."));
    k.push_back(Row("pod.ualink.rsp-data-credits", S::UINT)
                    .Default("2048")
                    .Range(4, 1 << 20)
                    .Help("TL 64 B read response data credits per port."));
    k.push_back(Row("pod.ualink.vc-cmd-credits", S::UINT)
                    .Default("0")
                    .Range(0, 1 << 20)
                    .Help("TL request and response field credits per VC (each of 4) beside the "
                          "pool (section 5.8); 0: pool credits only."));
    k.push_back(Row("pod.ualink.vc-data-credits", S::UINT)
                    .Default("0")
                    .Range(0, 1 << 20)
                    .Help("TL 64 B request and response data credits per VC (each of 4) "
                          "beside the pool (section 5.8)."));
    k.push_back(Row("pod.ualink.shared-data-buffer", S::BOOL)
                    .Default("false")
                    .Help("Shared Data Buffer mode: request and response data pool credits "
                          "are one count (section 5.8)."));
    k.push_back(Row("pod.ualink.initial-credit-release", S::BOOL)
                    .Default("false")
                    .Help("Model the TL's initial credit release at time 0 (FC fields and the "
                          "Initial Credit Release Complete message, section 5.8); false: the "
                          "credits are known at time 0."));
    k.push_back(Row("pod.ualink.upli", S::ENUM)
                    .Default("ideal")
                    .Allowed({"ideal", "tdm"})
                    .Help("UPLI timing (chapter 2): ideal, faster than the link (true at "
                          "1562.5 MHz); tdm, each beat on its port's TDM cycle (section 2.5)."));
    k.push_back(Row("pod.ualink.upli-clock-mhz", S::DOUBLE)
                    .Default("1562.5")
                    .Range(156.25, 1562.5)
                    .Help("UPLI clock in MHz (section 6.5.4: 1562.5, not below the 156.25 MHz "
                          "reference clock); used by upli: tdm."));
    k.push_back(Row("pod.ualink.switch-latency", S::TIME)
                    .Default("0")
                    .Min(0)
                    .Help("Switch pin-to-pin latency; 0: the goals of section 10.9.2 by lanes "
                          "(200, 250, 300 ns up to 128, 256, 512 lanes; 300 ns beyond)."));
    k.push_back(Row("pod.ualink.completer-latency", S::TIME)
                    .Default("0")
                    .Min(0)
                    .Help("Time from a request's arrival to its response at the completer."));
    k.push_back(Row("pod.ualink.watchdog", S::TIME)
                    .Default("0")
                    .Min(0)
                    .Help("Per-request watchdog of every originator (section 3.1.3: "
                          "programmable, no default); on expiry the station isolates and "
                          "answers its requests CMPTO. 0: off."));
    k.push_back(Row("pod.ualink.station-reset", S::TIME)
                    .Default("0")
                    .Min(0)
                    .Help("Management reset of an isolated accelerator station this long after "
                          "the last of its ports is Up again (section 3.1.4.3; the procedure is "
                          "the Manageability Specification's): it leaves isolation and drop "
                          "mode and issues requests again. 0: never (a link-up fault is then "
                          "refused)."));
    k.push_back(Row("pod.ualink.fail-link", S::BOOL)
                    .Default("false")
                    .Help("Fault injection: take one accelerator link down at pod.ualink.fail-at "
                          "(the accelerator's station isolates, section 3.1.4). Kept for older "
                          "scenarios: the same as faults: [{kind: link-down, accelerator: "
                          "fail-accelerator, plane: fail-port, at: fail-at}], and faults "
                          "offers the other kinds."));
    k.push_back(Row("pod.ualink.fail-accelerator", S::UINT)
                    .Default("0")
                    .Help("Fault injection: the accelerator whose link goes down."));
    k.push_back(Row("pod.ualink.fail-port", S::UINT)
                    .Default("0")
                    .Help("Fault injection: which port (rail) of that accelerator."));
    k.push_back(Row("pod.ualink.fail-at", S::TIME)
                    .Default("0")
                    .Min(0)
                    .Help("Fault injection: when the link goes down."));
    k.push_back(Row("pod.ualink.virtual-pods", S::LIST)
                    .Element(S::MAP)
                    .Help("Partition the pod into virtual pods (sections 1.1, 8.4): each "
                          "element is one, given as `{from: A, to: B}` (an inclusive range of "
                          "accelerator ids) or `{accelerators: [..]}`; an accelerator is in at "
                          "most one, and one in none is excluded from routing. Every switch's "
                          "per-station route tables deny traffic between virtual pods (10.7.1); "
                          "a workload that would cross one is refused before the run."));
    k.push_back(Row("pod.ualink.virtual-pods[].from", S::UINT)
                    .Help("First accelerator id of the virtual pod's range (with `to`)."));
    k.push_back(Row("pod.ualink.virtual-pods[].to", S::UINT)
                    .Help("Last accelerator id of the range, inclusive (with `from`)."));
    k.push_back(Row("pod.ualink.virtual-pods[].accelerators", S::LIST)
                    .Element(S::UINT)
                    .Help("The virtual pod's accelerator ids, as a list (instead of from/to)."));
    k.push_back(Row("pod.ualink.replay", S::BOOL)
                    .Default("false")
                    .Help("Run the DL's link-level replay on every link (section 6.6); "
                          "required when pod.link.codeword-error-rate or ber is set."));
}

/**
 * Add the keys of the cell fabric (pod.cell; seed 004 section 10, issue 6). Defaults are the
 * CellFabricAdapter's and CellFabricHelper's (src/cell-fabric/doc/cell-fabric.rst).
 * \param k the table
 */
void
AddCellKeys(std::vector<ScenarioSchema::Key>& k)
{
    using S = ScenarioSchema;
    k.push_back(Row("pod.cell", S::MAP)
                    .Help("Cell fabric (pod.fabric: cell): one Fabric Adapter per accelerator "
                          "(chip), chip link p to cell-switch plane p (pod.planes is set to "
                          "pod.cell.links)."));
    k.push_back(Row("pod.cell.links", S::UINT)
                    .Default("36")
                    .Range(1, 64)
                    .Help("Links per chip, one per plane (seed 004 1: 36 x 112G SerDes)."));
    k.push_back(Row("pod.cell.stages", S::ENUM)
                    .Default("auto")
                    .Allowed({"auto", "single-stage", "two-stage"})
                    .Help("Cell switches per plane: single-stage (one switch, a port per chip, "
                          "seed 004 5.3), two-stage (folded Clos) or auto (single-stage when "
                          "the chips fit on one switch)."));
    k.push_back(Row("pod.cell.switch-ports", S::UINT)
                    .Default("144")
                    .Range(2, 4096)
                    .Help("Ports of a cell switch (digest 7.1: 144)."));
    k.push_back(Row("pod.cell.spines", S::UINT)
                    .Default("0")
                    .Help("Two-stage: second-stage switches per plane; 0: one per up port of a "
                          "first-stage switch."));
    k.push_back(Row("pod.cell.page-size-words", S::UINT)
                    .Default("125")
                    .Unit("128 B words")
                    .Help("PageSizeWords of RDMA jobs: 37, 48, ..., 125 (10.7.2, 11.4.6)."));
    k.push_back(Row("pod.cell.clusters", S::UINT)
                    .Default("4")
                    .Range(1, 8)
                    .Help("Clusters per chip, each with its OQs and RxDMA (seed 004 1)."));
    k.push_back(Row("pod.cell.destination-clusters", S::UINT)
                    .Default("4")
                    .Range(1, 8)
                    .Help("Clusters of the destination that messages go to in turn (not in the "
                          "spec)."));
    k.push_back(Row("pod.cell.clock-ghz", S::DOUBLE)
                    .Default("1.33")
                    .Min(0.01)
                    .Help("Adapter clock in GHz (seed 004 1); at least 0.01, as the "
                          "adapter's ClockGhz attribute."));
    k.push_back(
        Row("pod.cell.fo-pipes", S::UINT).Default("4").Range(1, 64).Help("FO pipes (10.7)."));
    k.push_back(Row("pod.cell.fo-bytes-per-cycle", S::UINT)
                    .Default("88")
                    .Range(1, 4096)
                    .Unit("B")
                    .Help("FO pipe width per cycle (10.7)."));
    k.push_back(Row("pod.cell.rxdma-bytes-per-cycle", S::UINT)
                    .Default("128")
                    .Range(1, 4096)
                    .Unit("B")
                    .Help("RxDMA width per cluster per cycle (10.8.8: 170 GB/s)."));
    k.push_back(Row("pod.cell.rx-cbuf-cells", S::UINT)
                    .Default("24576")
                    .Unit("cells")
                    .Help("Rx CBUF data cells (10.8.3); at least one full page."));
    k.push_back(Row("pod.cell.cell-header-bytes", S::UINT)
                    .Default("16")
                    .Range(0, 256)
                    .Unit("B")
                    .Help("Cell header per cell on a link (not in the spec; digest 5.9)."));
    k.push_back(Row("pod.cell.control-cell-bytes", S::UINT)
                    .Default("96")
                    .Unit("B")
                    .Help("Request, grant, CTS/ACK/NACK cell before its header (64 to 176)."));
    k.push_back(Row("pod.cell.max-outstanding-pages", S::UINT)
                    .Default("64")
                    .Range(1, 1 << 20)
                    .Help("Occupancy limiter: pages generated not yet sent, per VOQ (10.7.3.1)."));
    k.push_back(
        Row("pod.cell.occupancy-profiles", S::LIST)
            .Element(S::MAP)
            .Help("The limiter's occupancy profiles, profile 0 first (at most 8, 10.7.3.1), "
                  "each {xoff, xon} in pages: a VOQ stops generating pages when xoff are "
                  "outstanding and resumes when they have dropped to xon (below xoff). Profiles "
                  "not given: {max-outstanding-pages, max-outstanding-pages - 1}."));
    k.push_back(Row("pod.cell.occupancy-profiles[].xoff", S::UINT)
                    .Required()
                    .Range(1, 1 << 20)
                    .Help("XOFF threshold in outstanding pages."));
    k.push_back(Row("pod.cell.occupancy-profiles[].xon", S::UINT)
                    .Required()
                    .Range(0, 1 << 20)
                    .Help("XON threshold in outstanding pages (below xoff)."));
    k.push_back(Row("pod.cell.occupancy-profile", S::UINT)
                    .Default("0")
                    .Range(0, 7)
                    .Help("Occupancy profile of the VOQs the workloads' messages use."));
    k.push_back(Row("pod.cell.qpages", S::UINT)
                    .Default("1024")
                    .Range(1, 1 << 20)
                    .Help("QPage table entries per chip: pages generated and not yet dequeued "
                          "by FO (10.7.6)."));
    k.push_back(Row("pod.cell.txbuf-bytes", S::UINT)
                    .Default("32768")
                    .Range(16384, 1 << 24)
                    .Unit("B")
                    .Help("TxBuf per FO pipe (10.7[5b]: two maximum pages, 32 KB)."));
    k.push_back(Row("pod.cell.max-outstanding-grants", S::UINT)
                    .Default("4096")
                    .Range(1, 1 << 20)
                    .Help("Grants not yet committed, per destination cluster (digest 5.8)."));
    k.push_back(Row("pod.cell.tx-latency", S::TIME)
                    .Default("240ns")
                    .Min(0)
                    .Help("Adapter transmit pipeline latency (not in the spec)."));
    k.push_back(Row("pod.cell.rx-latency", S::TIME)
                    .Default("240ns")
                    .Min(0)
                    .Help("Adapter receive pipeline latency (not in the spec)."));
    k.push_back(Row("pod.cell.grant-policy", S::ENUM)
                    .Default("paced-round-robin")
                    .Allowed({"paced-round-robin", "fifo-round-robin", "fifo"})
                    .Help("Grant scheduler (not in the spec, digest 5.8): paced-round-robin "
                          "grants sources in turn at the rate the receiver drains its Rx "
                          "buffer; fifo-round-robin in turn, every free cell at once; fifo in "
                          "arrival order."));
    // Job timers (seed 004 10.7.1.1, 10.8.1.1; values not in the spec). 0: off.
    k.push_back(Row("pod.cell.tx-cts-timeout", S::TIME)
                    .Default("25ms")
                    .Range(0, 1e13)
                    .Help("Tx CTS-wait timer: Job Failed (10.7.1.1); above rx-data-timeout."));
    k.push_back(Row("pod.cell.tx-active-timeout", S::TIME)
                    .Default("10ms")
                    .Range(0, 1e13)
                    .Help("Tx-active timer, CTS to all pages transmitted: Job Failed."));
    k.push_back(Row("pod.cell.tx-ack-timeout", S::TIME)
                    .Default("1ms")
                    .Range(0, 1e13)
                    .Help("Tx ACK-wait timer: the job is retried once, then Job Failed."));
    k.push_back(Row("pod.cell.rx-data-timeout", S::TIME)
                    .Default("10ms")
                    .Range(0, 1e13)
                    .Help("Rx data-wait timer: CTS resent once, then Rx Job Failed (10.8.1.1)."));
    k.push_back(Row("pod.cell.rx-completion-timeout", S::TIME)
                    .Default("20ms")
                    .Range(0, 1e13)
                    .Help("Rx job-completion timer, first page to last commit: Rx Job Failed; "
                          "above tx-ack-timeout."));
    k.push_back(Row("pod.cell.granularity", S::ENUM)
                    .Default("coarse")
                    .Allowed({"coarse", "fine"})
                    .Help("coarse: one event per page per link; fine: one per cell."));
    k.push_back(Row("pod.cell.link-rate", S::RATE)
                    .Default("106.25Gbps")
                    .Above(0)
                    .Unit("bit/s")
                    .Help("Cell link rate (112G SerDes at the efficiency of digest 5.9)."));
    k.push_back(Row("pod.cell.link-delay", S::TIME)
                    .Default("50ns")
                    .Min(0)
                    .Help("Cell link propagation delay."));
    k.push_back(Row("pod.cell.switch-latency", S::TIME)
                    .Default("400ns")
                    .Min(0)
                    .Help("Cell switch pipeline latency (not in the spec)."));
    // Datagrams and RxDMA (seed 004 10.5, 10.8.8, 11.5.2, 11.7.2)
    k.push_back(Row("pod.cell.transport", S::ENUM)
                    .Default("rdma")
                    .Allowed({"rdma", "datagram"})
                    .Help("Transport of the workloads' messages: rdma (RDMA write jobs, 10.3) or "
                          "datagram (unreliable, 10.5: a message is split into datagrams of "
                          "16,256 B and the rest, delivered when all are written)."));
    k.push_back(Row("pod.cell.datagram-rx-ring-size", S::UINT)
                    .Default("256")
                    .Range(2, 1 << 20)
                    .Unit("descriptors")
                    .Help("Descriptors per datagram RxQ ring; N - 1 usable (11.5.2.2); a "
                          "datagram finding none free is dropped (not in the spec)."));
    k.push_back(Row("pod.cell.datagram-rx-buffer-bytes", S::UINT)
                    .Default("16256")
                    .Range(1, 16256)
                    .Unit("B")
                    .Help("BufferSizeBytes of each RxQ descriptor (11.4.9); larger datagrams "
                          "are dropped."));
    k.push_back(Row("pod.cell.datagram-rx-repost-time", S::TIME)
                    .Default("1us")
                    .Range(0, 1e13)
                    .Help("Software time to process one received datagram and post its "
                          "descriptor again (not in the spec)."));
    k.push_back(Row("pod.cell.datagram-tx-ring-size", S::UINT)
                    .Default("256")
                    .Range(2, 1 << 20)
                    .Unit("descriptors")
                    .Help("Descriptors per datagram TxQ ring; N - 1 usable (11.5.2.1); more "
                          "posts wait in software (not in the spec)."));
    k.push_back(Row("pod.cell.rxdma-tracking-ids", S::UINT)
                    .Default("16")
                    .Range(1, 256)
                    .Help("Write-completion tracking IDs per cluster RxDMA (10.8.8: 16)."));
    k.push_back(Row("pod.cell.rxdma-commit-cycles", S::UINT)
                    .Default("100")
                    .Range(0, 1 << 20)
                    .Unit("cycles")
                    .Help("AMEM write-completion latency of a page (11.7.2: about 100)."));
    // Credit flow control on the cell links (issue 6; values not in the spec).
    k.push_back(Row("pod.cell.switch-credits", S::BOOL)
                    .Default("true")
                    .Help("Credit flow control on every cell link, in cells, a credit pool for "
                          "data and one for control cells (lossless switches)."));
    k.push_back(Row("pod.cell.credits-per-port", S::UINT)
                    .Default("0")
                    .Range(0, 1 << 20)
                    .Unit("cells")
                    .Help("Credits per port and pool; 0: a link's round trip at its smallest "
                          "cell plus the largest unit (full rate on one link)."));
    k.push_back(Row("pod.cell.credit-bytes", S::UINT)
                    .Default("0")
                    .Range(0, 65536)
                    .Unit("B")
                    .Help("Switch buffer bytes of one credit (one cell slot); 0: the largest "
                          "cell with its header, 176 B + cell-header-bytes."));
    k.push_back(Row("pod.cell.credit-latency", S::TIME)
                    .Default("0ns")
                    .Range(0, 1e9)
                    .Help("From a cell leaving a switch buffer to its credit leaving for the "
                          "sender (credits ride in reverse cell headers)."));
    k.push_back(Row("pod.cell.switch-buffer-cells", S::UINT)
                    .Default("349525")
                    .Range(1, 1ULL << 40)
                    .Unit("cells")
                    .Help("Cell slots of a cell switch's shared buffer (64 MiB of 192 B slots); "
                          "with credits at least ports x 2 x credits-per-port."));
}

/**
 * Build the table. Defaults and their sources are given in each help text.
 * \return every key
 */
std::vector<ScenarioSchema::Key>
BuildKeys()
{
    using S = ScenarioSchema;
    std::vector<S::Key> k;
    // Top level.
    k.push_back(Row("name", S::STRING)
                    .Note("file stem")
                    .Help("Name of the run, used for the default output file."));
    k.push_back(Row("seed", S::UINT).Default("1").Min(1).Help("Random seed (ns-3 RngRun)."));
    k.push_back(
        Row("stop", S::TIME)
            .Default("0")
            .Min(0)
            .Help("Simulated time at which the run stops; 0 runs until no event is left (every "
                  "message delivered, or lost where drops are possible)."));
    k.push_back(
        Row("scheduler", S::ENUM)
            .Default("heap4")
            .Allowed({"map", "heap", "calendar", "priority-queue", "heap2", "heap4", "heap8"})
            .Help("Event scheduler: podsim's d-ary heap (ns3::FabricHeapScheduler) of arity 2, "
                  "4 or 8 (heap2, heap4, heap8), or ns-3's map (MapScheduler), heap "
                  "(HeapScheduler), calendar (CalendarScheduler) or priority-queue "
                  "(PriorityQueueScheduler). Every one runs the same events in the same "
                  "order; only the speed differs (doc/performance.rst). heap is refused "
                  "with the cell fabric: ns-3 3.37's HeapScheduler::Remove can break the "
                  "heap order, and the cell adapter removes events."));
    k.push_back(
        Row("limits", S::MAP)
            .Help(
                "Run limits: the watchdogs that stop a run that makes no progress or "
                "takes too long, with a report (src/pod/doc/robustness.rst, section Watchdogs)."));
    k.push_back(Row("limits.no-progress", S::TIME)
                    .Default("100ms")
                    .Min(0)
                    .Help("While messages are outstanding, a queue (a port's transmit queue, "
                          "UALink requests waiting for a tag, a cell adapter's VOQs or grant "
                          "scheduler) that holds work and makes no progress for this long is "
                          "stuck; when every queue that holds work is stuck and nothing was "
                          "delivered for this long, the run stops with a report naming the "
                          "stuck queues (results: watchdog; podsim-run exits with 3). Every "
                          "fabric. 0: off."));
    k.push_back(Row("limits.check-interval", S::TIME)
                    .Default("0")
                    .Min(0)
                    .Help("Simulated time between two checks of the no-progress watchdog while "
                          "messages are outstanding; at most limits.no-progress. 0: a tenth of "
                          "limits.no-progress."));
    k.push_back(Row("limits.wall", S::TIME)
                    .Default("0")
                    .Min(0)
                    .Help("Wall-clock limit of the run (e.g. 600s): past it the run stops with a "
                          "report of where the simulation stands (simulated time, messages done "
                          "and outstanding; results: watchdog; podsim-run exits with 4). 0: "
                          "off."));
    k.push_back(Row("check", S::BOOL)
                    .Default("false")
                    .Help("Invariant checks while running, as podsim run --check: credit and "
                          "buffer accounting, sequence numbers, event times, and byte "
                          "conservation per flow at the end; a violation stops the run with an "
                          "error (doc/robustness.rst)."));
    // The pod.
    k.push_back(Row("pod", S::MAP).Help("The pod: fabric, accelerators, switches, links, NICs."));
    k.push_back(Row("pod.fabric", S::ENUM)
                    .Default("ethernet")
                    .Allowed({"ethernet", "sue", "ualink", "rifl", "cell"})
                    .Help("Fabric kind: ethernet (the plain Ethernet-like NIC), sue "
                          "(Broadcom Scale-Up Ethernet: one SUE instance per pod.sue.ports "
                          "planes; see pod.sue), ualink (UALink 200: one single-tier switch "
                          "per accelerator port; see pod.ualink) or rifl (RIFL, seed 003: 256 B "
                          "segments with the 8-byte L1+L2 header, NAK-only Layer 1 on every "
                          "link; sets pod.nic.header-bytes, pod.link.codeword-bits, "
                          "pod.link.interframe-bytes and pod.llr) or cell (the Pyxis Fabric "
                          "Adapter over sprayed cell-switch planes, seed 004 section 10; see "
                          "pod.cell)."));
    k.push_back(Row("pod.accelerators", S::UINT)
                    .Required()
                    .Range(1, 65536)
                    .Help("Number of accelerators."));
    k.push_back(Row("pod.planes", S::UINT)
                    .Default("1")
                    .Range(1, 64)
                    .Help("Parallel switch planes; each accelerator has one port per plane."));
    k.push_back(
        Row("pod.topology", S::ENUM)
            .Default("switched")
            .Allowed({"switched", "mesh"})
            .Help("switched: one switch (or leaf-spine) per plane; mesh (pod.fabric: sue, "
                  "seed 000 Figure 2): no switches, each XPU port linked straight to another "
                  "XPU, pod.planes / (accelerators - 1) links per pair (pod.switch is unused)."));
    k.push_back(
        Row("pod.arrival-order", S::ENUM)
            .Default("canonical")
            .Allowed({"insertion", "canonical"})
            .Help("Order of units that reach their receivers in the same picosecond (fabrics "
                  "ethernet, sue and rifl; the others keep ns-3's order and refuse canonical "
                  "when given): canonical (after the receiving node's other events of that "
                  "picosecond, sorted by receiving port and sending order; the order a "
                  "distributed run reproduces, and fewer events) or insertion (ns-3's: in the "
                  "order in which the senders' events ran, podsim's order before 2026-11-24; "
                  "src/pod/doc/performance.rst)."));
    k.push_back(Row("pod.switch", S::MAP).Help("The switches (the same in every plane)."));
    k.push_back(
        Row("pod.switch.radix", S::UINT)
            .Default("1024")
            .Min(2)
            .Unit("ports")
            .Help("Ports per switch. A plane is one switch if radix >= accelerators, otherwise a "
                  "two-tier leaf-spine: with oversubscription k, floor(radix/(k+1)) spines and k "
                  "times as many accelerators per leaf (k = 1: radix/2 and radix/2); when that "
                  "needs more leaves than a spine has ports, three tiers: blocks of radix/2 "
                  "leaves, each block with its own spines, under cores that link to every "
                  "block (at most 5 switch hops)."));
    k.push_back(
        Row("pod.switch.latency", S::TIME)
            .Default("250ns")
            .Min(0)
            .Help("Switch pipeline latency, port to port (SUE spec Appendix A.1: 250 ns)."));
    k.push_back(Row("pod.switch.forwarding", S::ENUM)
                    .Default("cut-through")
                    .Allowed({"cut-through", "store-and-forward"})
                    .Help("Forward a packet as soon as its header is in, or once all of it is."));
    k.push_back(Row("pod.switch.buffer", S::SIZE)
                    .Default("64MiB")
                    .Above(0)
                    .Unit("bytes")
                    .Help("Shared packet buffer per switch."));
    k.push_back(Row("pod.switch.classes", S::UINT)
                    .Default("8")
                    .Range(1, 8)
                    .Help("Traffic classes per port."));
    k.push_back(
        Row("pod.switch.oversubscription", S::UINT)
            .Default("1")
            .Range(1, 64)
            .Help("Two tiers only: ratio of a leaf's accelerator ports to its spine uplinks (k:1); "
                  "1 is full bisection, 4 leaves a quarter of the accelerators' bandwidth to the "
                  "spines."));
    k.push_back(Row("pod.link", S::MAP)
                    .Help("The links (accelerator-switch and switch-switch links alike)."));
    k.push_back(Row("pod.link.rate", S::RATE)
                    .Default("800Gbps")
                    .Above(0)
                    .Unit("bit/s")
                    .Help("Line rate of every link."));
    k.push_back(Row("pod.link.cable", S::ENUM)
                    .Default("twinax")
                    .Allowed({"direct", "twinax", "single-mode", "hollow-core"})
                    .Help("Cable kind, which sets the propagation speed; `direct` uses "
                          "`pod.link.delay` instead."));
    k.push_back(Row("pod.link.length", S::LENGTH)
                    .Default("3m")
                    .Min(0)
                    .Unit("m")
                    .Help("Cable length (ignored for `direct`)."));
    k.push_back(Row("pod.link.delay", S::TIME)
                    .Default("0")
                    .Min(0)
                    .Help("Propagation delay of a `direct` link."));
    k.push_back(Row("pod.link.fec-latency", S::TIME)
                    .Default("0")
                    .Min(0)
                    .Help("FEC latency added per link traversal."));
    k.push_back(Row("pod.link.codeword-bits", S::UINT)
                    .Default("5140")
                    .Min(1)
                    .Unit("bits")
                    .Help("Message bits per FEC codeword (RS(544,514): 514 symbols of 10 bits)."));
    k.push_back(Row("pod.link.codeword-error-rate", S::DOUBLE)
                    .Default("0")
                    .Range(0, 1)
                    .Help("Probability that a codeword is uncorrectable."));
    k.push_back(Row("pod.link.ber", S::DOUBLE).Default("0").Range(0, 1).Help("Bit error rate."));
    k.push_back(Row("pod.link.interframe-bytes", S::UINT)
                    .Default("20")
                    .Unit("bytes")
                    .Help("Wire overhead per frame (IEEE 802.3: preamble+SFD 8, IPG 12)."));
    k.push_back(Row("pod.nic", S::MAP).Help("The accelerators' NICs."));
    k.push_back(Row("pod.nic.mtu", S::SIZE)
                    .Default("4096")
                    .Range(1, 65536)
                    .Unit("bytes")
                    .Help("Payload bytes per packet."));
    k.push_back(Row("pod.nic.header-bytes", S::UINT)
                    .Default("18")
                    .Unit("bytes")
                    .Help("Header bytes per packet (Ethernet header 14 + FCS 4)."));
    k.push_back(Row("pod.nic.plane-selection", S::ENUM)
                    .Default("spray")
                    .Allowed({"round-robin", "hash", "spray"})
                    .Help("How a NIC spreads traffic over the planes: spray (each packet to "
                          "whichever plane port is free), round-robin (per message, starting "
                          "at the accelerator's id), hash (of the destination)."));
    // Flow control and link-level retry.
    k.push_back(Row("pod.flow-control", S::MAP)
                    .Help("Link-level flow control on every link (both ends of each)."));
    k.push_back(Row("pod.flow-control.kind", S::ENUM)
                    .Default("none")
                    .Allowed({"none", "pfc", "cbfc"})
                    .Help("none (a full buffer drops), pfc (IEEE 802.1Qbb pause per priority) "
                          "or cbfc (credits per class, as in UEC)."));
    k.push_back(Row("pod.flow-control.xoff", S::SIZE)
                    .Default("0")
                    .Max(1ull << 40)
                    .Unit("bytes")
                    .Help("PFC: ingress bytes of one priority that send a pause. 0: the port's "
                          "share of the switch buffer minus the headroom."));
    k.push_back(Row("pod.flow-control.xon", S::SIZE)
                    .Default("0")
                    .Max(1ull << 40)
                    .Unit("bytes")
                    .Help("PFC: bytes at which the pause is released. 0: XOFF minus two MTUs."));
    k.push_back(Row("pod.flow-control.headroom", S::SIZE)
                    .Default("0")
                    .Max(1ull << 40)
                    .Unit("bytes")
                    .Help("PFC: buffer above XOFF per port and priority. 0: from the link's "
                          "round trip, the MTU and the pause response time."));
    k.push_back(Row("pod.flow-control.pause-quanta", S::UINT)
                    .Default("65535")
                    .Range(1, 65535)
                    .Unit("quanta")
                    .Help("PFC: pause time of a pause frame in 512-bit-time quanta."));
    k.push_back(Row("pod.flow-control.pause-response", S::TIME)
                    .Default("0")
                    .Range(0, 1e9)
                    .Help("PFC: time a sender takes to act on a pause frame."));
    k.push_back(Row("pod.flow-control.bytes-per-credit", S::SIZE)
                    .Default("64")
                    .Range(1, 65536)
                    .Unit("bytes")
                    .Help("CBFC: buffer bytes one credit stands for."));
    k.push_back(Row("pod.flow-control.credit-buffer", S::SIZE)
                    .Default("64KiB")
                    .Range(1, 1ull << 40)
                    .Unit("bytes")
                    .Help("CBFC: receive buffer each port advertises per class."));
    k.push_back(Row("pod.flow-control.credit-pool", S::SIZE)
                    .Default("0")
                    .Max(1ull << 40)
                    .Unit("bytes")
                    .Help("CBFC: receive buffer per port shared by all classes."));
    k.push_back(Row("pod.flow-control.credit-batch", S::UINT)
                    .Default("16")
                    .Range(1, 1 << 20)
                    .Unit("credits")
                    .Help("CBFC: credits freed before a credit frame is sent."));
    k.push_back(Row("pod.flow-control.credit-delay", S::TIME)
                    .Default("100ns")
                    .Range(0, 1e9)
                    .Help("CBFC: longest wait of freed credits for their batch."));
    k.push_back(Row("pod.flow-control.deadlock-timeout", S::TIME)
                    .Default("10ms")
                    .Min(0)
                    .Help("PFC/CBFC: a switch port that holds packets and sends none for this "
                          "long is stuck; a cycle of stuck ports is a deadlock, which stops the "
                          "run with a report. 0: no run-time check."));
    k.push_back(Row("pod.flow-control.deadlock-check-interval", S::TIME)
                    .Default("1ms")
                    .Above(0)
                    .Help("PFC/CBFC: time between two looks at the switch queues while any "
                          "holds packets."));
    k.push_back(Row("pod.rifl", S::MAP)
                    .Help("RIFL switches (pod.fabric: rifl, seed 003 sections IV.C, V.A)."));
    k.push_back(Row("pod.rifl.switch", S::ENUM)
                    .Default("islip")
                    .Allowed({"islip", "safc", "fifo", "output-queued"})
                    .Help("islip: VOQ per input and output with an iSLIP scheduler deciding at "
                          "cell-time boundaries (the RIFL switch, section IV.C); safc: the ideal "
                          "statically allocated fully connected switch (section V.A); fifo: "
                          "input-queued FIFO without VOQs; output-queued: the generic fabric "
                          "switch. islip, safc and fifo need pod.switch.radix <= 64."));
    k.push_back(Row("pod.rifl.islip-iterations", S::UINT)
                    .Default("3")
                    .Range(1, 64)
                    .Help("iSLIP iterations per cell time (3 for the 32-port switch, section "
                          "IV.C)."));
    k.push_back(Row("pod.llr", S::MAP).Help("Link-level retry (replay of corrupted packets)."));
    k.push_back(Row("pod.llr.mode", S::ENUM)
                    .Default("off")
                    .Allowed({"off", "ack-nak", "nak-only"})
                    .Help("off; ack-nak (cumulative ACK plus replay request: Ethernet LLR, "
                          "UALink DL replay); nak-only (RIFL: NAKs only, both directions pause "
                          "while replaying)."));
    k.push_back(Row("pod.llr.links", S::ENUM)
                    .Default("all")
                    .Allowed({"all", "accelerator", "switch"})
                    .Help("Which links run it: all, accelerator-switch links only, or "
                          "switch-switch links only."));
    k.push_back(Row("pod.llr.window", S::UINT)
                    .Default("0")
                    .Range(0, 1 << 15)
                    .Unit("packets")
                    .Help("Replay buffer per link direction; at most half the space of the "
                          "retry engine's 16-bit sequence numbers. 0: derived from the link's "
                          "round trip (nak-only: the packets a saturated link sends while one "
                          "is retained; ack-nak: 512, or more on a long link)."));
    k.push_back(Row("pod.llr.ack-interval", S::UINT)
                    .Default("16")
                    .Range(1, 1 << 20)
                    .Unit("packets")
                    .Help("ack-nak: packets accepted per cumulative ACK."));
    k.push_back(Row("pod.llr.nak-pause", S::DOUBLE)
                    .Default("2.5")
                    .Range(0, 1000)
                    .Unit("round trips")
                    .Help("nak-only: pause of new data per error (RIFL: 2.5)."));
    k.push_back(Row("pod.sue", S::MAP)
                    .Help("SUE (pod.fabric: sue): each XPU has planes / ports instances."));
    k.push_back(Row("pod.sue.ports", S::UINT)
                    .Default("1")
                    .Range(1, 4)
                    .Unit("ports")
                    .Help("Ethernet ports per SUE instance: 1, 2 or 4 (seed 000 section 1.1); "
                          "pod.planes must be a multiple, and pod.link.rate times ports a SUE "
                          "instance rate of Table 4 (800G: 1x800, 2x400, 4x200; 400G: 1x400, "
                          "2x200, 4x100)."));
    k.push_back(Row("pod.sue.ordering", S::ENUM)
                    .Default("strict")
                    .Allowed({"strict", "unordered"})
                    .Help("strict: in order per source, destination and VC, one port per "
                          "destination; unordered: PDUs spread over the instance's ports "
                          "(section 1.2)."));
    k.push_back(Row("pod.sue.header", S::ENUM)
                    .Default("afh-gen2-12")
                    .Allowed({"ethernet-ipv4",
                              "ethernet-ipv6",
                              "afh-gen1",
                              "afh-gen1-shim",
                              "afh-gen2-12",
                              "afh-gen2-6"})
                    .Help("Network header (section 3.4.1; sizes in src/sue/doc/sue.rst)."));
    k.push_back(Row("pod.sue.packing-limit", S::SIZE)
                    .Default("0")
                    .Range(0, 4096)
                    .Help("Most bytes of packed transactions per PDU (section 3.3: at most "
                          "4096); 0: 2048 (section 4.4), 1024 with lite."));
    k.push_back(Row("pod.sue.lite", S::BOOL)
                    .Default("false")
                    .Help("SUE Lite (seed 001): no transport, the 6 B AFH Gen 2 header, 1 KB "
                          "packing; pair it with pod.llr."));
    k.push_back(
        Row("pod.sue.load-balance", S::ENUM)
            .Default("hash")
            .Allowed({"hash", "round-robin", "least-loaded"})
            .Help("How an XPU spreads messages over its instances (section 4.3): hash "
                  "of the source-destination pair (required by strict ordering), round-robin, "
                  "least-loaded."));
    k.push_back(Row("pod.sue.congestion-control", S::ENUM)
                    .Default("none")
                    .Allowed({"none", "delay"})
                    .Help("Endpoint congestion control (section 2.1): none, or a delay-based "
                          "window (2 us target)."));
    k.push_back(Row("pod.sue.tx-credits", S::UINT)
                    .Default("0")
                    .Range(0, 63)
                    .Unit("transactions")
                    .Help("Command interface credits per {destination, VC} (section 3.2.1, a "
                          "6-bit tx_credit): most transactions of one queue in SUE, so most per "
                          "PDU; 0: unlimited."));
    k.push_back(Row("pod.sue.command-rate", S::RATE)
                    .Default("0bps")
                    .Unit("bit/s")
                    .Help("Aggregate rate limit of each instance's command interface (section "
                          "3.2.1; control and data into SUE), a token bucket of one 4096 B PDU; "
                          "0: unlimited."));
    k.push_back(Row("pod.sue.fec", S::ENUM)
                    .Default("rs544")
                    .Allowed({"rs544", "rs272"})
                    .Help("FEC of the Ethernet ports (section 3.4.4): the IEEE RS(544,514), or "
                          "RS(272,257) with half the codeword and receive accumulation time; "
                          "sets the SUE receive latency (A.1's 100 ns assume RS-544) and the "
                          "codeword size of pod.link.codeword-error-rate (pod.link.codeword-bits "
                          "is not used with sue)."));
    k.push_back(Row("pod.sue.fec-interleave", S::UINT)
                    .Default("0")
                    .Range(0, 4)
                    .Unit("codewords")
                    .Help("FEC interleave, 1, 2 or 4 ways (section 3.4.4: fewer ways, less "
                          "latency); 0: the IEEE choice (4 on 200G serdes; 1 or 2 on 100G)."));
    AddUalinkKeys(k);
    AddCellKeys(k);
    k.push_back(Row("pod.transport", S::MAP)
                    .Help("End-to-end transport of the accelerators (recovers packets lost in "
                          "the fabric)."));
    k.push_back(Row("pod.transport.kind", S::ENUM)
                    .Default("none")
                    .Allowed({"none", "go-back-n"})
                    .Help("none (a lost packet loses its message; completion is local); "
                          "go-back-n (PSN per port and peer, cumulative ACK, NACK on a gap, "
                          "retransmission timer; completion is acknowledgement)."));
    k.push_back(Row("pod.transport.window", S::UINT)
                    .Default("128")
                    .Range(1, 1 << 20)
                    .Unit("packets")
                    .Help("go-back-n: most unacknowledged packets per connection."));
    k.push_back(Row("pod.transport.ack-interval", S::UINT)
                    .Default("8")
                    .Range(1, 1 << 20)
                    .Unit("packets")
                    .Help("go-back-n: packets accepted per standalone ACK (ACKs also ride on "
                          "reverse data)."));
    k.push_back(Row("pod.transport.ack-delay", S::TIME)
                    .Default("100ns")
                    .Range(0, 1e9)
                    .Help("go-back-n: longest wait of an accepted packet for its ACK."));
    k.push_back(Row("pod.transport.timeout", S::TIME)
                    .Default("20us")
                    .Range(1e3, 1e12)
                    .Help("go-back-n: retransmission timeout (doubles on each consecutive "
                          "expiry, up to 64 times); keep it above the loaded round trip."));
    // Workloads.
    k.push_back(Row("workloads", S::LIST)
                    .Element(S::MAP)
                    .Required()
                    .Help("The workloads, at least one; they run concurrently."));
    k.push_back(Row("workloads[].kind", S::ENUM)
                    .Required()
                    .Allowed({"incast", "permutation", "all-to-all", "collective", "dag", "pyxis"})
                    .Help("Traffic pattern, a collective operation, a DAG of compute, "
                          "collective and send nodes, or a Pyxis model (pod.fabric: cell; "
                          "src/pyxis/doc/pyxis.rst)."));
    k.push_back(Row("workloads[].name", S::STRING)
                    .Note("`<kind>-<index>`")
                    .Help("Name of the workload in the results; names are distinct."));
    k.push_back(Row("workloads[].size", S::SIZE)
                    .Required()
                    .Min(1)
                    .Unit("bytes")
                    .Kinds({"incast", "permutation", "all-to-all", "collective"})
                    .Help("Bytes per message; for a collective its size (nccl-tests: the buffer "
                          "of an all-reduce, broadcast or reduce, the total of a reduce-scatter "
                          "or all-gather, per pair for an all-to-all; not for barrier or "
                          "all-to-all-v)."));
    k.push_back(Row("workloads[].communicators", S::UINT)
                    .Default("1")
                    .Min(1)
                    .Kinds({"all-to-all", "collective"})
                    .Help("Split the accelerators (a collective: its group, in rank order) into "
                          "this many equal communicators of consecutive members, each running "
                          "the workload at the same time: e.g. 16 on 1024 accelerators are 16 "
                          "expert- or data-parallel groups of 64. It must divide their number."));
    k.push_back(Row("workloads[].start", S::TIME)
                    .Default("0")
                    .Min(0)
                    .Help("Simulated time at which the workload posts its messages."));
    k.push_back(Row("workloads[].operation", S::ENUM)
                    .Default("write")
                    .Allowed({"write", "read"})
                    .Kinds({"incast", "permutation", "all-to-all"})
                    .Help("write: the source pushes each message; read (pod.fabric: sue): the "
                          "destination pulls it, a read request on VC0 answered by a read "
                          "response with the data on VC1 (SUE section 3.2.2), so the data flows "
                          "the same way and the message completes at the destination."));
    k.push_back(Row("workloads[].class", S::UINT)
                    .Default("0")
                    .Range(0, 7)
                    .Help("Traffic class, below `pod.switch.classes`."));
    k.push_back(Row("workloads[].senders", S::UINT)
                    .Required()
                    .Min(1)
                    .Kinds({"incast"})
                    .Help("Number of senders, 1 to accelerators-1."));
    k.push_back(Row("workloads[].receiver", S::UINT)
                    .Default("0")
                    .Kinds({"incast"})
                    .Help("The receiving accelerator, below `pod.accelerators`."));
    k.push_back(Row("workloads[].sender-list", S::LIST)
                    .Element(S::UINT)
                    .Note("the `senders` accelerators after the receiver")
                    .Kinds({"incast"})
                    .Help("Explicit senders: `senders` distinct accelerators, none the receiver."));
    k.push_back(Row("workloads[].iterations", S::UINT)
                    .Default("1")
                    .Min(1)
                    .Kinds({"collective", "dag"})
                    .Help("Repetitions, back to back (a DAG's next iteration starts on an "
                          "accelerator once it finished every node of the last one)."));
    AddCollectiveKeys(k, "workloads[]", {"collective"});
    k.push_back(Row("workloads[].file", S::STRING)
                    .Kinds({"dag"})
                    .Help("YAML file with the DAG's `nodes:` list, relative to the scenario's "
                          "directory (instead of inline `nodes`)."));
    k.push_back(Row("workloads[].model", S::STRING)
                    .Required()
                    .Kinds({"pyxis"})
                    .Help("Pyxis model file (YAML, src/pyxis/doc/pyxis.rst), relative to the "
                          "scenario's directory: chip i of the model runs on accelerator i."));
    k.push_back(Row("workloads[].rx-posting", S::ENUM)
                    .Default("pre-posted")
                    .Allowed({"pre-posted", "late"})
                    .Kinds({"pyxis"})
                    .Help("pyxis: the Rx RDMA jobs posted with the compute before each "
                          "collective (pre-posted) or with each step's Tx job (late)."));
    k.push_back(Row("workloads[].nodes", S::LIST)
                    .Element(S::MAP)
                    .Kinds({"dag"})
                    .Help("The DAG's nodes (or give `file`)."));
    k.push_back(Row("workloads[].nodes[].name", S::STRING)
                    .Required()
                    .Help("Node name, distinct within the DAG."));
    k.push_back(Row("workloads[].nodes[].kind", S::ENUM)
                    .Required()
                    .Allowed({"compute", "collective", "send"})
                    .Help("compute (a duration on each accelerator of its group), collective, or "
                          "send (one message from src to dst, done when delivered)."));
    k.push_back(Row("workloads[].nodes[].deps", S::LIST)
                    .Element(S::STRING)
                    .Help("Names of the nodes it waits for (on each of its accelerators)."));
    k.push_back(Row("workloads[].nodes[].duration", S::TIME)
                    .Default("0")
                    .Min(0)
                    .Help("compute: time on each accelerator."));
    k.push_back(Row("workloads[].nodes[].size", S::SIZE)
                    .Min(1)
                    .Unit("bytes")
                    .Help("collective: its size; send: the message's bytes."));
    k.push_back(Row("workloads[].nodes[].src", S::UINT).Default("0").Help("send: source."));
    k.push_back(Row("workloads[].nodes[].dst", S::UINT).Default("0").Help("send: destination."));
    AddCollectiveKeys(k, "workloads[].nodes[]", {});
    // Outputs.
    k.push_back(Row("faults", S::LIST)
                    .Element(S::MAP)
                    .Help("Faults injected during the run, each at its time (fault campaigns, "
                          "doc/robustness.rst lists each kind's outcome per fabric). Every "
                          "fault is counted in the results (faults_injected, "
                          "link_down_events, link_up_events, routes_denied), and what it costs "
                          "too: drops by reason, replays, go-backs, failed connections, "
                          "bytes_failed_over (SUE), isolations and CMPTO (UALink), "
                          "messages_failed, and the named failure (failure). The cell fabric "
                          "takes none."));
    k.push_back(
        Row("faults[].kind", S::ENUM)
            .Required()
            .Allowed({"link-down",
                      "link-up",
                      "switch-down",
                      "accelerator-down",
                      "deny-route",
                      "bit-errors"})
            .Help("link-down: the link of an accelerator's port on a plane fails (both "
                  "directions; frames on it are lost, reason LinkDown). With SUE the instance "
                  "sees its link status drop (section 3.4.8): in unordered mode its work moves "
                  "to the instance's other ports; in strict mode the port's connections fail. "
                  "With UALink the accelerator's station isolates (section 3.1.4) and the "
                  "peers' watchdogs answer CMPTO. link-up: that link comes back (link-level "
                  "retry replays what it had not seen acknowledged; a SUE port serves its "
                  "queue again); with UALink only with pod.ualink.station-reset (the link is "
                  "re-initialised and the isolated station reset by management). switch-down: "
                  "every link of switch `switch` of `plane` fails. "
                  "accelerator-down: every link of the accelerator fails, so it neither sends "
                  "nor answers. deny-route: the switches of every plane drop what `accelerator` "
                  "sends to `to` (reason RouteDenied; UALink: the route table's deny bit, "
                  "section 10.7.1). bit-errors: from `at` to `until` the link of "
                  "`accelerator` and `plane` (or every link, links: all) has bit error rate "
                  "`ber` and codeword error rate `codeword-error-rate` in both directions; "
                  "corrupted frames are dropped (Corrupted) and recovered by link-level retry "
                  "or the transport where there is one."));
    k.push_back(Row("faults[].accelerator", S::UINT)
                    .Help("The accelerator, below pod.accelerators (link-down, link-up, "
                          "accelerator-down, bit-errors with links: one; deny-route: the "
                          "source)."));
    k.push_back(Row("faults[].plane", S::UINT)
                    .Default("0")
                    .Help("The plane of the accelerator's port (or of the switch), below "
                          "pod.planes (with SUE: instance plane / pod.sue.ports, port plane % "
                          "pod.sue.ports; with UALink: the port, or rail)."));
    k.push_back(Row("faults[].switch", S::UINT)
                    .Default("0")
                    .Help("switch-down: the switch's index within its plane, as in the "
                          "switch names `p<plane>.<name>` (one-switch planes: 0; leaf-spine: the "
                          "leaves, then the spines)."));
    k.push_back(Row("faults[].to", S::UINT)
                    .Help("deny-route: the destination accelerator, below pod.accelerators."));
    k.push_back(Row("faults[].links", S::ENUM)
                    .Default("one")
                    .Allowed({"one", "all"})
                    .Help("bit-errors: one (the link of accelerator and plane) or all (every "
                          "link of the pod)."));
    k.push_back(Row("faults[].ber", S::DOUBLE)
                    .Default("0")
                    .Range(0, 1)
                    .Help("bit-errors: residual bit error rate after FEC during the window."));
    k.push_back(Row("faults[].codeword-error-rate", S::DOUBLE)
                    .Default("0")
                    .Range(0, 1)
                    .Help("bit-errors: probability that a codeword is uncorrectable during the "
                          "window."));
    k.push_back(Row("faults[].at", S::TIME).Required().Min(0).Help("Simulated time of the fault."));
    k.push_back(Row("faults[].until", S::TIME)
                    .Default("0")
                    .Min(0)
                    .Help("bit-errors: end of the window (the link's own pod.link rates "
                          "return); 0: to the end of the run."));
    // A study: fabrics x workloads, one run per pair (utils/study.py; src/pod/doc/pod.rst,
    // Studies). Keys below study.fabrics[].pod and study.workloads[] are those of pod and
    // workloads[] (ScenarioSchema::Find maps them).
    k.push_back(Row("study", S::MAP)
                    .Help("Makes the file a study: every fabric of study.fabrics runs every "
                          "workload of study.workloads, each pair (a case) a run of its own, "
                          "started by `./podsim run FILE` (in parallel processes), which "
                          "gathers them into one results file and prints a comparison table. "
                          "The file then has no top-level workloads; its pod holds what the "
                          "fabrics share."));
    k.push_back(Row("study.fabrics", S::LIST)
                    .Element(S::MAP)
                    .Help("The fabrics compared, at least one, each {name, pod}."));
    k.push_back(Row("study.fabrics[].name", S::STRING)
                    .Help("Name of the fabric in the table and results (required; letters, "
                          "digits, `-`, `_`; distinct)."));
    k.push_back(Row("study.fabrics[].pod", S::MAP)
                    .Help("The fabric's pod: any pod key (pod.fabric, pod.planes, pod.sue...), "
                          "merged over the top-level pod key by key (a value here wins)."));
    k.push_back(Row("study.workloads", S::LIST)
                    .Element(S::MAP)
                    .Help("The workloads compared, at least one; each runs alone on each "
                          "fabric. Every element takes the keys of workloads[] and needs a "
                          "distinct name."));
    k.push_back(Row("study.quick", S::LIST)
                    .Element(S::STRING)
                    .Help("Overrides `KEY=VALUE` (the same dotted keys as --set, e.g. "
                          "pod.accelerators=64) applied by `./podsim run FILE --quick`, before "
                          "the command line's --set, for a small version of the study."));
    k.push_back(Row("output", S::MAP).Help("Outputs."));
    k.push_back(
        Row("output.file", S::STRING).Note("`results/<name>.h5`").Help("HDF5 results file."));
    k.push_back(Row("output.plots", S::BOOL).Default("true").Help("Draw PNG plots after the run."));
    k.push_back(Row("output.progress", S::BOOL)
                    .Default("true")
                    .Help("Print a progress line on stderr during the run."));
    k.push_back(Row("output.sample-interval", S::TIME)
                    .Default("1us")
                    .Min(0)
                    .Help("Interval of the switch buffer occupancy time series (/timeseries in "
                          "the results: per switch and interval with a change, the largest and "
                          "the final occupancy); 0 turns the series off. Sampling adds no "
                          "event."));
    k.push_back(Row("output.budget", S::SIZE)
                    .Default("100MB")
                    .Unit("bytes")
                    .Help("Largest estimated size of the results file, as stored (compressed "
                          "columns measured on a sample of their rows); 0: unlimited. A run "
                          "whose file would exceed it says so and downsamples: first the time "
                          "series to longer intervals, then the message table to one row in k "
                          "(summary figures still count every message)."));
    return k;
}

/**
 * The parent of a schema path.
 * \param path e.g. `pod.link.rate` or `workloads[].size`
 * \return e.g. `pod.link` or `workloads[]`; "" at the top
 */
std::string
Parent(const std::string& path)
{
    const auto dot = path.rfind('.');
    return dot == std::string::npos ? "" : path.substr(0, dot);
}

/**
 * The last component of a schema path.
 * \param path e.g. `pod.link.rate`
 * \return e.g. `rate`
 */
std::string
LastComponent(const std::string& path)
{
    const auto dot = path.rfind('.');
    return dot == std::string::npos ? path : path.substr(dot + 1);
}

/**
 * Format a number without a needless fraction or exponent.
 * \param v the number
 * \return "65536", "0.5", "1e-12"
 */
std::string
FormatNumber(double v)
{
    if (std::floor(v) == v && std::fabs(v) < 1e18)
    {
        return std::to_string(static_cast<int64_t>(v));
    }
    std::ostringstream os;
    os.imbue(std::locale::classic());
    os.precision(17);
    os << v;
    return os.str();
}

/**
 * Format a range bound in the key's base unit.
 * \param key the key
 * \param v the bound
 * \return e.g. "65536 bytes"; a zero bound has no unit
 */
std::string
FormatBound(const ScenarioSchema::Key& key, double v)
{
    std::string s = FormatNumber(v);
    if (v == 0)
    {
        return s;
    }
    switch (key.type)
    {
    case ScenarioSchema::SIZE:
        return s + " bytes";
    case ScenarioSchema::RATE:
        return s + " bit/s";
    case ScenarioSchema::TIME:
        return s + " ps";
    case ScenarioSchema::LENGTH:
        return s + " m";
    default:
        return s;
    }
}

/**
 * Check a value against the key's range.
 * \param key the key
 * \param v the value in the key's base unit
 * \param text the value as written, for the message
 * \throws std::invalid_argument if out of range
 */
void
CheckRange(const ScenarioSchema::Key& key, double v, const std::string& text)
{
    if (key.hasMin && key.minExclusive && !(v > key.min))
    {
        throw std::invalid_argument("must be greater than " + FormatBound(key, key.min) + " (got " +
                                    text + ")");
    }
    if (key.hasMin && !key.minExclusive && v < key.min)
    {
        throw std::invalid_argument("must be at least " + FormatBound(key, key.min) + " (got " +
                                    text + ")");
    }
    if (key.hasMax && v > key.max)
    {
        throw std::invalid_argument("must be at most " + FormatBound(key, key.max) + " (got " +
                                    text + ")");
    }
}

/**
 * Join strings.
 * \param items the strings
 * \param sep separator
 * \param quote text put around each item
 * \return the joined string
 */
std::string
Join(const std::vector<std::string>& items, const std::string& sep, const std::string& quote)
{
    std::string s;
    for (std::size_t i = 0; i < items.size(); ++i)
    {
        s += (i ? sep : "") + quote + items[i] + quote;
    }
    return s;
}

} // namespace

const std::vector<ScenarioSchema::Key>&
ScenarioSchema::GetKeys()
{
    static const std::vector<Key> keys = BuildKeys();
    return keys;
}

const ScenarioSchema::Key*
ScenarioSchema::Find(const std::string& schemaPath)
{
    // A study's fabrics and workloads take the keys of pod and workloads[].
    static const std::string fabricPod = "study.fabrics[].pod.";
    static const std::string studyWorkload = "study.workloads[].";
    if (schemaPath.compare(0, fabricPod.size(), fabricPod) == 0)
    {
        return Find("pod." + schemaPath.substr(fabricPod.size()));
    }
    if (schemaPath.compare(0, studyWorkload.size(), studyWorkload) == 0)
    {
        return Find("workloads[]." + schemaPath.substr(studyWorkload.size()));
    }
    for (const auto& key : GetKeys())
    {
        if (key.path == schemaPath)
        {
            return &key;
        }
    }
    return nullptr;
}

std::string
ScenarioSchema::SchemaPath(const std::string& path)
{
    std::string out;
    std::size_t i = 0;
    while (i < path.size())
    {
        if (path[i] == '[')
        {
            const auto close = path.find(']', i);
            if (close == std::string::npos)
            {
                out += path.substr(i);
                break;
            }
            out += "[]";
            i = close + 1;
            continue;
        }
        out += path[i++];
    }
    return out;
}

std::vector<const ScenarioSchema::Key*>
ScenarioSchema::GetChildren(const std::string& parent)
{
    std::vector<const Key*> children;
    for (const auto& key : GetKeys())
    {
        if (Parent(key.path) == parent)
        {
            children.push_back(&key);
        }
    }
    return children;
}

std::size_t
ScenarioSchema::EditDistance(const std::string& a, const std::string& b)
{
    std::vector<std::size_t> prev(b.size() + 1);
    std::vector<std::size_t> cur(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
    {
        prev[j] = j;
    }
    for (std::size_t i = 1; i <= a.size(); ++i)
    {
        cur[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j)
        {
            const std::size_t subst = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, subst});
        }
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

std::string
ScenarioSchema::Suggest(const std::string& schemaPath)
{
    // The right name in the wrong section first ("rate" -> "pod.link.rate"), then a typo.
    const std::string last = LastComponent(schemaPath);
    for (const auto& key : GetKeys())
    {
        if (LastComponent(key.path) == last && key.path != schemaPath)
        {
            return key.path;
        }
    }
    std::string best;
    std::size_t bestDistance = 3;
    for (const auto& key : GetKeys())
    {
        const std::size_t d = EditDistance(schemaPath, key.path);
        if (d < bestDistance)
        {
            bestDistance = d;
            best = key.path;
        }
    }
    return best;
}

ScenarioSchema::Value
ScenarioSchema::Parse(const Key& key, const std::string& text)
{
    Value v;
    v.text = text;
    switch (key.type)
    {
    case STRING:
        if (text.find_first_not_of(" \t\r\n") == std::string::npos)
        {
            throw std::invalid_argument("must not be empty");
        }
        v.str = text;
        break;
    case ENUM:
        if (std::find(key.allowed.begin(), key.allowed.end(), text) == key.allowed.end())
        {
            std::string message =
                "must be one of " + Join(key.allowed, ", ", "'") + " (got '" + text + "')";
            for (const auto& a : key.allowed)
            {
                if (EditDistance(a, text) <= 2)
                {
                    message += "; did you mean '" + a + "'?";
                    break;
                }
            }
            throw std::invalid_argument(message);
        }
        v.str = text;
        break;
    case UINT:
        v.u = Units::ParseUint(text);
        if (v.u > std::numeric_limits<uint32_t>::max())
        {
            throw std::invalid_argument("must be at most 4294967295 (got " + text + ")");
        }
        CheckRange(key, static_cast<double>(v.u), text);
        break;
    case DOUBLE:
        v.d = Units::ParseDouble(text);
        CheckRange(key, v.d, text);
        break;
    case BOOL: {
        static const std::vector<std::string> yes =
            {"true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON"};
        static const std::vector<std::string> no =
            {"false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF"};
        if (std::find(yes.begin(), yes.end(), text) != yes.end())
        {
            v.b = true;
        }
        else if (std::find(no.begin(), no.end(), text) != no.end())
        {
            v.b = false;
        }
        else
        {
            throw std::invalid_argument("expected true or false, got '" + text + "'");
        }
        break;
    }
    case SIZE:
        v.u = Units::ParseSize(text);
        CheckRange(key, static_cast<double>(v.u), text);
        break;
    case TIME:
        v.ps = Units::ParseTimePs(text);
        CheckRange(key, static_cast<double>(v.ps), text);
        break;
    case RATE:
        v.u = Units::ParseDataRateBps(text);
        CheckRange(key, static_cast<double>(v.u), text);
        break;
    case LENGTH:
        v.d = Units::ParseLengthM(text);
        CheckRange(key, v.d, text);
        break;
    case MAP:
    case LIST:
        throw std::logic_error("ScenarioSchema::Parse: " + key.path + " is not a scalar");
    }
    return v;
}

std::string
ScenarioSchema::TypeName(Type type)
{
    switch (type)
    {
    case STRING:
        return "string";
    case ENUM:
        return "enum";
    case UINT:
        return "uint";
    case DOUBLE:
        return "double";
    case BOOL:
        return "bool";
    case SIZE:
        return "size";
    case TIME:
        return "time";
    case RATE:
        return "rate";
    case LENGTH:
        return "length";
    case MAP:
        return "map";
    case LIST:
        return "list";
    }
    return "?";
}

std::string
ScenarioSchema::MarkdownCell(const std::string& text)
{
    // GitHub Flavored Markdown: a table row is split at every unescaped `|` before anything
    // else is parsed, code spans included, so `|` is escaped everywhere (GFM then drops the
    // backslash inside a code span too). Outside code spans, the characters that would start
    // emphasis, strikethrough, math, raw HTML, an entity or an escape are escaped.
    auto isWordChar = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
    std::string out;
    out.reserve(text.size() + 8);
    std::size_t i = 0;
    while (i < text.size())
    {
        const char c = text[i];
        if (c == '`')
        {
            // A code span: a run of n backticks up to the next run of exactly n backticks. A
            // run without its closing run is literal text (CommonMark).
            std::size_t n = 0;
            while (i + n < text.size() && text[i + n] == '`')
            {
                ++n;
            }
            std::size_t close = std::string::npos;
            for (std::size_t j = i + n; j < text.size();)
            {
                if (text[j] != '`')
                {
                    ++j;
                    continue;
                }
                std::size_t m = 0;
                while (j + m < text.size() && text[j + m] == '`')
                {
                    ++m;
                }
                if (m == n)
                {
                    close = j;
                    break;
                }
                j += m;
            }
            if (close == std::string::npos)
            {
                for (std::size_t k = 0; k < n; ++k)
                {
                    out += "\\`";
                }
                i += n;
                continue;
            }
            for (std::size_t k = i; k < close + n; ++k)
            {
                if (text[k] == '|')
                {
                    out += '\\';
                }
                out += (text[k] == '\n') ? ' ' : text[k];
            }
            i = close + n;
            continue;
        }
        const char prev = i > 0 ? text[i - 1] : ' ';
        const char next = i + 1 < text.size() ? text[i + 1] : ' ';
        bool escape = false;
        switch (c)
        {
        case '|':
        case '\\':
        case '*':
        case '~':
        case '$':
            escape = true;
            break;
        case '_':
            // Inside a word (tx_credit) an underscore never starts emphasis.
            escape = !(isWordChar(prev) && isWordChar(next));
            break;
        case '<':
            // `<=` is text; `<name>`, `</x>`, `<!--` and `<?` would be raw HTML.
            escape = std::isalpha(static_cast<unsigned char>(next)) != 0 || next == '/' ||
                     next == '!' || next == '?';
            break;
        case '&':
            // `&lt;` and `&#60;` would be entities.
            escape = std::isalpha(static_cast<unsigned char>(next)) != 0 || next == '#';
            break;
        default:
            break;
        }
        if (escape)
        {
            out += '\\';
        }
        out += (c == '\n') ? ' ' : c;
        ++i;
    }
    return out;
}

std::string
ScenarioSchema::MarkdownReference()
{
    std::ostringstream os;
    os << "A scenario is one YAML file. Dotted keys below are nested maps: `pod.link.rate: "
          "400Gbps` is written\n\n"
          "```yaml\npod:\n  link:\n    rate: 400Gbps\n```\n\n"
          "and `workloads[].size` is the `size` key of an element of the `workloads` list. "
          "Unknown keys, values of the wrong type or out of range, and keys that belong to another "
          "workload kind are errors naming the file, line and key; nothing runs.\n\n";
    os << "| Key | Type | Default | Range | Description |\n";
    os << "|---|---|---|---|---|\n";
    for (const auto& key : GetKeys())
    {
        // Type, with the unit or the list's element type. Every text from the table goes
        // through MarkdownCell, so that no help text can break the table or its rendering.
        std::string type = TypeName(key.type);
        if (key.type == LIST)
        {
            type = "list of " + TypeName(key.element) + (key.element == MAP ? "s" : "");
        }
        else if (!key.unit.empty())
        {
            type += " (" + MarkdownCell(key.unit) + ")";
        }
        // Default.
        std::string def;
        if (key.required)
        {
            def = key.kinds.empty()
                      ? "**required**"
                      : "**required** (" + MarkdownCell(Join(key.kinds, ", ", "")) + ")";
        }
        else if (!key.defaultNote.empty())
        {
            def = MarkdownCell(key.defaultNote);
        }
        else if (!key.defaultValue.empty())
        {
            def = MarkdownCell("`" + key.defaultValue + "`");
        }
        // Range.
        std::string range;
        if (key.type == ENUM)
        {
            range = MarkdownCell(Join(key.allowed, ", ", "`"));
        }
        else if (key.hasMin && key.hasMax)
        {
            range = FormatNumber(key.min) + " to " + FormatNumber(key.max);
        }
        else if (key.hasMin)
        {
            range = (key.minExclusive ? "> " : ">= ") + FormatNumber(key.min);
        }
        else if (key.hasMax)
        {
            range = "<= " + FormatNumber(key.max);
        }
        std::string help = MarkdownCell(key.help);
        if (!key.kinds.empty())
        {
            help = "*" + MarkdownCell(Join(key.kinds, ", ", "")) + " only.* " + help;
        }
        os << "| " << MarkdownCell("`" + key.path + "`") << " | " << type << " | " << def << " | "
           << range << " | " << help << " |\n";
    }
    os << "\nValues:\n\n"
          "- **uint**: a non-negative integer that fits in 32 bits; **double**: a decimal number "
          "(`0.5`, `1e-12`); **bool**: `true` or `false`.\n"
          "- **size**: bytes, a plain integer or a number with a unit: `B`, `kB` (or `KB`), `MB`, "
          "`GB`, `TB` (powers of 1000), `KiB`, `MiB`, `GiB`, `TiB` (powers of 1024): `4096`, "
          "`16KiB`, `1 MiB`.\n"
          "- **time**: a number with a unit `s`, `ms`, `us`, `ns`, `ps`, or `0`: `250ns`, "
          "`1.5us`. Times are exact in picoseconds; a fraction of a picosecond is an error.\n"
          "- **rate**: a number with a unit `bps`, `kbps`, `Mbps`, `Gbps`, `Tbps`, also written "
          "`Gb/s`, or `GBps` for bytes per second: `800Gbps`, `400Gb/s`.\n"
          "- **length**: metres, a plain number or a number with a unit `m`, `cm`, `mm`, `km`: "
          "`3m`, `300cm`.\n\n"
          "Overrides: `--set KEY=VALUE` sets one key before validation, with list indices for "
          "workloads: `--set pod.accelerators=64 --set workloads[0].size=1MiB`. An index one past "
          "the end of `workloads` adds a workload. Errors in an override name `--set` instead of "
          "a file and line.\n\n"
          "Checks across keys:\n\n"
          "- `pod.switch.radix`: a plane is one switch if radix >= accelerators; otherwise two "
          "tiers with s = floor(radix/(k+1)) spines and k x s accelerators per leaf (k = "
          "`pod.switch.oversubscription`; k = 1: radix/2 each), which needs at most radix "
          "leaves (ceil(accelerators / (k x s)) <= radix).\n"
          "- `workloads[].class` is below `pod.switch.classes`.\n"
          "- incast: `senders` is at most accelerators-1, `receiver` is below accelerators, and a "
          "`sender-list` has exactly `senders` distinct entries, each below accelerators and none "
          "the receiver.\n"
          "- permutation and all-to-all need at least 2 accelerators.\n"
          "- collective: the group's accelerators exist and are distinct, the root is a rank "
          "of the group, the algorithm implements the collective on that group (e.g. "
          "halving-doubling needs a power-of-two group; rabenseifner does not), an "
          "all-to-all-v has n x n sizes.\n"
          "- dag: node names are distinct, every dependency names a node, the dependencies have "
          "no cycle; `file` or `nodes`, not both.\n"
          "- pyxis: needs `pod.fabric: cell`, is the only workload and starts at 0; the model "
          "file is valid (its errors name its own file, line and field) and its chips (tensor x "
          "data) are at most accelerators.\n"
          "- workload names are distinct.\n"
          "- `pod.flow-control.deadlock-timeout`, when not 0 and the kind is pfc, exceeds the "
          "longest pause (`pause-quanta` x 512 bit times at `pod.link.rate`), and "
          "`deadlock-check-interval` does not exceed it.\n"
          "- `limits.check-interval`, when not 0, does not exceed `limits.no-progress`.\n";
    return os.str();
}

} // namespace ns3
