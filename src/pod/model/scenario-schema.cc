/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scenario-schema.h"

#include "pod-plugins.h"

#include "ns3/collective-helper.h"
#include "ns3/collective-spec.h"
#include "ns3/workload-kind.h"

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
typedef FabricConfigKey Row;

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
 * Add the top-level keys: name, seed, stop, scheduler, engine, limits, check.
 * \param k the table
 */
void
AddTopLevelKeys(std::vector<ScenarioSchema::Key>& k)
{
    using S = ScenarioSchema;
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
        Row("engine", S::ENUM)
            .Default("packet")
            .Allowed({"packet", "flow"})
            .Help("What moves the messages: packet (the devices, switches and links unit by "
                  "unit, exact bytes: the reference) or flow (each message a flow with a "
                  "max-min fair rate on the links the packet engine's routes give it, timed "
                  "from its plan's wire bytes, setup and path latency: realistic sizes in "
                  "seconds, without back-pressure, loss or per-unit effects; src/flow/doc/"
                  "flow.rst, with the table of its errors against the packet engine). The "
                  "results file records it."));
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
                          "and outstanding; results: watchdog; podsim-run exits with 4). It "
                          "covers the build too (a pod stopped while it is built has nothing "
                          "to write); the results are always written. 0: off."));
    k.push_back(Row("limits.memory", S::SIZE)
                    .Default("0")
                    .Unit("bytes")
                    .Help("Memory the run may use: a scenario whose estimate (pod objects, "
                          "route tables while a plane is built, planned messages; "
                          "src/pod/doc/pod.rst, Memory estimate) exceeds it is refused before "
                          "anything is built, with the estimate. 0: what this process may use "
                          "(the smallest of the machine's memory, the cgroup's limit and "
                          "ulimit -v and -d)."));
    k.push_back(Row("check", S::BOOL)
                    .Default("false")
                    .Help("Invariant checks while running, as podsim run --check: credit and "
                          "buffer accounting, sequence numbers, event times, and byte "
                          "conservation per flow at the end; a violation stops the run with an "
                          "error (doc/robustness.rst)."));
}

/**
 * Add the pod's keys: its own, the generic sections (src/fabric) and each fabric kind's.
 * \param k the table
 */
void
AddPodKeys(std::vector<ScenarioSchema::Key>& k)
{
    using S = ScenarioSchema;
    // The pod.
    k.push_back(Row("pod", S::MAP).Help("The pod: fabric, accelerators, switches, links, NICs."));
    std::vector<std::string> fabrics;
    std::string summaries;
    const auto kinds = PodPlugins::GetFabrics();
    for (std::size_t i = 0; i < kinds.size(); ++i)
    {
        fabrics.push_back(kinds[i]->GetName());
        summaries +=
            (i == 0 ? "" : (i + 1 == kinds.size() ? " or " : ", ")) + kinds[i]->GetSummary();
    }
    k.push_back(Row("pod.fabric", S::ENUM)
                    .Default("ethernet")
                    .Allowed(fabrics)
                    .Help("Fabric kind: " + summaries + "."));
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
                  "SUE RM102 Figure 2): no switches, each XPU port linked straight to another "
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
    // The pod's generic sections (src/fabric's mechanisms: switches, links, NICs, flow control,
    // link-level retry, transport).
    FabricPodConfig::DeclareKeys(k);
    // The sections of the fabric kinds (each module declares its own), in registration order.
    for (const FabricKind* kind : PodPlugins::GetFabrics())
    {
        kind->DeclareKeys(k);
    }
}

/**
 * Add the keys of a workload (and of a DAG's nodes, a plug-in kind's).
 * \param k the table
 */
void
AddWorkloadKeys(std::vector<ScenarioSchema::Key>& k)
{
    using S = ScenarioSchema;
    k.push_back(Row("workloads", S::LIST)
                    .Element(S::MAP)
                    .Required()
                    .Help("The workloads, at least one; they run concurrently."));
    std::vector<std::string> workloadKinds = {"incast",
                                              "permutation",
                                              "all-to-all",
                                              "collective",
                                              "dag"};
    std::string plugins;
    for (const WorkloadKind* kind : PodPlugins::GetWorkloads())
    {
        workloadKinds.push_back(kind->GetName());
        plugins += ", or " + kind->GetSummary();
    }
    k.push_back(Row("workloads[].kind", S::ENUM)
                    .Required()
                    .Allowed(workloadKinds)
                    .Help("Traffic pattern, a collective operation, a DAG of compute, "
                          "collective and send nodes" +
                          plugins + "."));
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
                    .Allowed({"write", "read", "atomic"})
                    .Kinds({"incast", "permutation", "all-to-all"})
                    .Help("write: the source pushes each message; read (fabrics with reads: sue, "
                          "ualink): the destination pulls it (SUE: a read request on VC0 "
                          "answered by a read response with the data on VC1, SUE RM102 section "
                          "3.2.2; UALink: reads of at most 256 B each, UALink 200 section 2.7), "
                          "so the data flows the same way and the message completes at the "
                          "destination; atomic (fabrics with atomics: ualink): each message is "
                          "one atomic of `size` operand bytes (1 to 16, section 2.7.4.5) that "
                          "returns the old value (an AtomicR), delivered at the destination and "
                          "completed at the source when answered."));
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
                    .Kinds({"dag", "message-trace"})
                    .Help("dag: YAML file with the DAG's `nodes:` list, relative to the "
                          "scenario's directory (instead of inline `nodes`); message-trace "
                          "(required): the trace, a CSV or HDF5 file relative to the scenario's "
                          "directory (src/workload/doc/workload.rst)."));
    // The keys of the workload kinds that modules bring (each declares its own).
    for (const WorkloadKind* kind : PodPlugins::GetWorkloads())
    {
        kind->DeclareKeys(k);
    }
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
}

/**
 * Add the keys of the injected faults.
 * \param k the table
 */
void
AddFaultKeys(std::vector<ScenarioSchema::Key>& k)
{
    using S = ScenarioSchema;
    // Faults.
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
}

/**
 * Add the keys of a study and of the outputs.
 * \param k the table
 */
void
AddStudyAndOutputKeys(std::vector<ScenarioSchema::Key>& k)
{
    using S = ScenarioSchema;
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
}

/**
 * Build the table. Defaults and their sources are given in each help text.
 * \return every key
 */
std::vector<ScenarioSchema::Key>
BuildKeys()
{
    std::vector<ScenarioSchema::Key> k;
    AddTopLevelKeys(k);
    AddPodKeys(k);
    AddWorkloadKeys(k);
    AddFaultKeys(k);
    AddStudyAndOutputKeys(k);
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
    return FabricConfigKey::EditDistance(a, b);
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
    return key.Parse(text);
}

std::string
ScenarioSchema::TypeName(Type type)
{
    return FabricConfigKey::TypeName(type);
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
                      : "**required** (" +
                            MarkdownCell(FabricConfigKey::Join(key.kinds, ", ", "")) + ")";
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
        const std::string range =
            key.type == ENUM ? MarkdownCell(key.FormatRange("`")) : key.FormatRange("`");
        std::string help = MarkdownCell(key.help);
        if (!key.kinds.empty())
        {
            help =
                "*" + MarkdownCell(FabricConfigKey::Join(key.kinds, ", ", "")) + " only.* " + help;
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
          "no cycle; `file` or `nodes`, not both.\n";
    for (const WorkloadKind* kind : PodPlugins::GetWorkloads())
    {
        if (!kind->GetChecks().empty())
        {
            os << "- " << kind->GetChecks() << "\n";
        }
    }
    os << "- workload names are distinct.\n"
          "- `pod.flow-control.deadlock-timeout`, when not 0 and the kind is pfc, exceeds the "
          "longest pause (`pause-quanta` x 512 bit times at `pod.link.rate`), and "
          "`deadlock-check-interval` does not exceed it.\n"
          "- `limits.check-interval`, when not 0, does not exceed `limits.no-progress`.\n";
    return os.str();
}

std::vector<std::pair<std::string, std::vector<std::string>>>
ScenarioSchema::GetDocSections()
{
    std::vector<std::pair<std::string, std::vector<std::string>>> docs;
    docs.emplace_back("src/fabric/doc/fabric.rst",
                      std::vector<std::string>{"pod.switch",
                                               "pod.link",
                                               "pod.nic",
                                               "pod.flow-control",
                                               "pod.llr",
                                               "pod.transport"});
    for (const FabricKind* kind : PodPlugins::GetFabrics())
    {
        if (!kind->GetSection().empty())
        {
            docs.emplace_back(kind->GetDoc(), std::vector<std::string>{kind->GetSection()});
        }
    }
    return docs;
}

namespace
{

/**
 * Turn a help text's Markdown code spans into reStructuredText literals and escape what
 * reStructuredText would take as inline markup.
 * \param text the text, with `code spans` in single backticks
 * \return the text for a table cell
 */
std::string
RstText(const std::string& text)
{
    std::string out;
    bool code = false;
    for (char c : text)
    {
        if (c == '`')
        {
            out += "``";
            code = !code;
            continue;
        }
        if (!code && (c == '*' || c == '|' || c == '\\' || c == '_'))
        {
            out += '\\';
        }
        out += (c == '\n') ? ' ' : c;
    }
    return out;
}

} // namespace

std::string
ScenarioSchema::RstReference(const std::vector<std::string>& sections)
{
    std::ostringstream os;
    os << ".. list-table::\n   :header-rows: 1\n   :widths: 25 12 12 12 39\n\n";
    os << "   * - Key\n     - Type\n     - Default\n     - Range\n     - Description\n";
    auto in = [&sections](const std::string& path) {
        for (const auto& sec : sections)
        {
            if (path == sec || path.compare(0, sec.size() + 1, sec + ".") == 0 ||
                path.compare(0, sec.size() + 1, sec + "[") == 0)
            {
                return true;
            }
        }
        return false;
    };
    for (const auto& key : GetKeys())
    {
        if (!in(key.path))
        {
            continue;
        }
        std::string type = TypeName(key.type);
        if (key.type == LIST)
        {
            type = "list of " + TypeName(key.element) + (key.element == MAP ? "s" : "");
        }
        else if (!key.unit.empty())
        {
            type += " (" + key.unit + ")";
        }
        std::string def;
        if (key.required)
        {
            def = "required";
        }
        else if (!key.defaultNote.empty())
        {
            def = RstText(key.defaultNote);
        }
        else if (!key.defaultValue.empty())
        {
            def = "``" + key.defaultValue + "``";
        }
        const std::string range = key.FormatRange("``");
        // A cell: "-" and its text, or "-" alone when empty (no trailing blanks).
        auto cell = [](const std::string& text) {
            return text.empty() ? std::string("     -\n") : "     - " + text + "\n";
        };
        os << "   * - ``" << key.path << "``\n"
           << cell(type) << cell(def) << cell(range) << cell(RstText(key.help));
    }
    return os.str();
}

} // namespace ns3
