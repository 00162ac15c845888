/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef POD_SCENARIO_H
#define POD_SCENARIO_H

#include "ns3/dag-program.h"
#include "ns3/data-rate.h"
#include "ns3/fabric-pod-config.h"
#include "ns3/nstime.h"
#include "ns3/workload-config.h"

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup pod
 * \brief A validated scenario: the pod and the workload of one run.
 *
 * Produced by ScenarioLoader from one YAML file (plus --set overrides); every value has been
 * checked against ScenarioSchema, so the builder never sees an impossible value.
 */
struct Scenario
{
    /// The pod: its generic keys and its fabric kind's section (FabricPodConfig).
    typedef FabricPodConfig Pod;
    typedef FabricPodConfig::Link Link;               //!< pod.link
    typedef FabricPodConfig::Switch Switch;           //!< pod.switch
    typedef FabricPodConfig::Nic Nic;                 //!< pod.nic
    typedef FabricPodConfig::FlowControl FlowControl; //!< pod.flow-control
    typedef FabricPodConfig::Llr Llr;                 //!< pod.llr
    typedef FabricPodConfig::Transport Transport;     //!< pod.transport

    /// One collective: of a `collective` workload or of a DAG node.
    struct Collective
    {
        std::string collective{"all-reduce"}; //!< collective
        std::string algorithm;                //!< algorithm (default per collective)
        std::vector<uint32_t> group;          //!< accelerators, rank order (empty: all)
        uint32_t root{0};                     //!< root rank (broadcast, reduce)
        uint64_t bytes{0};                    //!< size (per pair for all-to-all)
        std::vector<uint64_t> sizes;          //!< all-to-all-v: n*n row-major
        uint32_t chunks{1};                   //!< chunks
        uint32_t chunksInFlight{0};           //!< chunks in flight (0: all)
        uint32_t stripes{1};                  //!< sub-messages per send
        Time reduceCost;                      //!< reduction time per byte
        uint32_t groupSize{0};                //!< hierarchical: ranks per group
    };

    /// One node of a workload DAG.
    struct DagNode
    {
        std::string name;              //!< nodes[].name
        std::string kind;              //!< compute | collective | send
        std::vector<std::string> deps; //!< nodes[].deps
        Time duration;                 //!< compute: nodes[].duration
        std::vector<uint32_t> group;   //!< compute: accelerators (empty: all)
        Collective coll;               //!< collective: its parameters
        uint32_t src{0};               //!< send: source accelerator
        uint32_t dst{0};               //!< send: destination accelerator
        uint64_t bytes{0};             //!< send: bytes
    };

    /// One workload (an element of the workloads list).
    struct Workload
    {
        std::string name;                 //!< workloads[i].name (default: kind and index)
        std::string kind;                 //!< incast | ... | collective | dag | a plug-in
        uint64_t bytes{0};                //!< workloads[i].size (bytes per message)
        Time start;                       //!< workloads[i].start
        bool read{false};                 //!< workloads[i].operation == read
        bool atomic{false};               //!< workloads[i].operation == atomic
        uint8_t tclass{0};                //!< workloads[i].class
        uint32_t senders{0};              //!< incast: workloads[i].senders (k)
        uint32_t receiver{0};             //!< incast: workloads[i].receiver
        std::vector<uint32_t> senderList; //!< incast: optional explicit workloads[i].sender-list
        uint32_t iterations{1};           //!< collective, dag: repetitions, back to back
        uint32_t communicators{1};        //!< all-to-all, collective: concurrent groups
        Collective coll;                  //!< collective: its parameters
        std::vector<DagNode> nodes;       //!< dag: the nodes
        std::string dagFile;              //!< dag: file the nodes came from ("" if inline)
        /// a plug-in kind's workload (WorkloadKind, e.g. pyxis): its keys as the kind read them
        std::shared_ptr<const WorkloadConfig> config;
        /// a DAG workload (`kind: dag`, or a plug-in kind whose config has a DAG): what the pod
        /// runs, collectives with their algorithms resolved (null for other workloads)
        std::shared_ptr<const DagProgram> program;
    };

    /// One injected fault (an element of the faults list).
    struct Fault
    {
        std::string kind{"link-down"}; //!< faults[i].kind
        uint32_t accelerator{0};       //!< faults[i].accelerator
        uint32_t plane{0};             //!< faults[i].plane
        Time at;                       //!< faults[i].at
        uint32_t sw{0};                //!< faults[i].switch (switch-down: index in the plane)
        uint32_t to{0};                //!< faults[i].to (deny-route: the destination)
        bool allLinks{false};          //!< faults[i].links: all (bit-errors on every link)
        double ber{0};                 //!< faults[i].ber (bit-errors)
        double codewordErrorRate{0};   //!< faults[i].codeword-error-rate (bit-errors)
        Time until;                    //!< faults[i].until (bit-errors; 0: to the end)
    };

    /// Run limits: the watchdogs (src/pod/doc/robustness.rst, section Watchdogs).
    struct Limits
    {
        Time noProgress;         //!< limits.no-progress (0: no no-progress watchdog)
        Time checkInterval;      //!< limits.check-interval (resolved: a tenth of noProgress if 0)
        double wallSeconds{0};   //!< limits.wall in seconds (0: no wall-time limit)
        uint64_t memoryBytes{0}; //!< limits.memory (0: what this process may use)
    };

    /// Outputs.
    struct Output
    {
        std::string file;        //!< output.file (HDF5 results; default results/<name>.h5)
        bool plots{true};        //!< output.plots (draw PNGs after the run)
        bool progress{true};     //!< output.progress (progress line on stderr)
        Time sampleInterval;     //!< output.sample-interval (switch buffer series; 0: off)
        uint64_t budgetBytes{0}; //!< output.budget (estimated table bytes; 0: unlimited)
    };

    std::string sourceFile;             //!< path of the YAML file
    std::string text;                   //!< the YAML text as read (stored in the results)
    std::vector<std::string> overrides; //!< the --set KEY=VALUE overrides applied
    std::string studyCase; //!< FABRIC/WORKLOAD when loaded as a case of a study, else empty
    std::string name;      //!< name
    uint32_t seed{1};      //!< seed (ns-3 RngRun)
    Time stopTime;         //!< stop (zero: run until every message is delivered)
    std::string scheduler{"heap4"};  //!< scheduler: heap4, heap2, heap8, map, heap, ...
    std::string engine{"packet"};    //!< engine: packet or flow
    Limits limits;                   //!< limits (watchdogs)
    bool check{false};               //!< check: invariant checks while running (--check)
    Pod pod;                         //!< pod
    std::vector<Workload> workloads; //!< workloads
    std::vector<Fault> faults;       //!< faults
    Output output;                   //!< output
};

} // namespace ns3

#endif /* POD_SCENARIO_H */
