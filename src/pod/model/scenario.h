/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef POD_SCENARIO_H
#define POD_SCENARIO_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cstdint>
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
    /// One link kind (accelerator-switch and switch-switch links share it in the core).
    struct Link
    {
        DataRate rate{"800Gbps"}; //!< pod.link.rate
        std::string cable{
            "twinax"};       //!< pod.link.cable: direct | twinax | single-mode | hollow-core
        double lengthM{3.0}; //!< pod.link.length (metres), ignored for direct
        Time delay;          //!< pod.link.delay (used when cable is direct)
        Time fecLatency;     //!< pod.link.fec-latency
        uint32_t codewordBits{5140};  //!< pod.link.codeword-bits
        double codewordErrorRate{0};  //!< pod.link.codeword-error-rate
        double ber{0};                //!< pod.link.ber
        uint32_t interframeBytes{20}; //!< pod.link.interframe-bytes
    };

    /// The switches of every plane.
    struct Switch
    {
        uint32_t radix{1024};         //!< pod.switch.radix (ports per switch)
        Time latency;                 //!< pod.switch.latency (pipeline, default 250 ns)
        bool cutThrough{true};        //!< pod.switch.forwarding: cut-through | store-and-forward
        uint64_t bufferBytes{0};      //!< pod.switch.buffer (shared buffer per switch)
        uint32_t classes{8};          //!< pod.switch.classes
        uint32_t oversubscription{1}; //!< pod.switch.oversubscription (leaf down:up ports)
    };

    /// The accelerators' NICs.
    struct Nic
    {
        uint32_t mtu{4096};                  //!< pod.nic.mtu (payload bytes per packet)
        uint32_t headerBytes{18};            //!< pod.nic.header-bytes
        std::string planeSelection{"spray"}; //!< pod.nic.plane-selection
    };

    /// Link-level flow control on every link (pod.flow-control).
    struct FlowControl
    {
        std::string kind{"none"};     //!< pod.flow-control.kind: none | pfc | cbfc
        uint64_t xoffBytes{0};        //!< pod.flow-control.xoff (0: automatic)
        uint64_t xonBytes{0};         //!< pod.flow-control.xon (0: automatic)
        uint64_t headroomBytes{0};    //!< pod.flow-control.headroom (0: automatic)
        uint32_t pauseQuanta{65535};  //!< pod.flow-control.pause-quanta
        Time pauseResponse;           //!< pod.flow-control.pause-response
        uint32_t bytesPerCredit{64};  //!< pod.flow-control.bytes-per-credit
        uint64_t creditBuffer{65536}; //!< pod.flow-control.credit-buffer (per port and class)
        uint64_t creditPool{0};       //!< pod.flow-control.credit-pool (per port)
        uint32_t creditBatch{16};     //!< pod.flow-control.credit-batch (credits)
        Time creditDelay;             //!< pod.flow-control.credit-delay
        Time deadlockTimeout;         //!< pod.flow-control.deadlock-timeout (0: no monitor)
        Time deadlockCheckInterval;   //!< pod.flow-control.deadlock-check-interval
        uint32_t losslessClasses{1};  //!< classes the workloads use (derived)
    };

    /// Link-level retry (pod.llr).
    struct Llr
    {
        std::string mode{"off"};  //!< pod.llr.mode: off | ack-nak | nak-only
        std::string links{"all"}; //!< pod.llr.links: all | accelerator | switch
        uint32_t window{0};       //!< pod.llr.window (packets; 0: derived from the link)
        uint32_t ackInterval{16}; //!< pod.llr.ack-interval (packets)
        double nakPause{2.5};     //!< pod.llr.nak-pause (round trips)
    };

    /// End-to-end transport of the accelerators (pod.transport).
    struct Transport
    {
        std::string kind{"none"}; //!< pod.transport.kind: none | go-back-n
        uint32_t window{128};     //!< pod.transport.window (packets per connection)
        uint32_t ackInterval{8};  //!< pod.transport.ack-interval (packets)
        Time ackDelay;            //!< pod.transport.ack-delay
        Time timeout;             //!< pod.transport.timeout
    };

    /// SUE (pod.sue), used when pod.fabric is sue.
    struct Sue
    {
        uint32_t ports{1};                 //!< pod.sue.ports (per instance)
        std::string ordering{"strict"};    //!< pod.sue.ordering
        std::string header{"afh-gen2-12"}; //!< pod.sue.header
        uint32_t packingLimit{2048};       //!< pod.sue.packing-limit (0: 2048, Lite 1024)
        bool lite{false};                  //!< pod.sue.lite
        std::string loadBalance{"hash"};   //!< pod.sue.load-balance
        std::string congestion{"none"};    //!< pod.sue.congestion-control
        std::string fec{"rs544"};          //!< pod.sue.fec
        uint32_t txCredits{0};             //!< pod.sue.tx-credits (0: unlimited)
        DataRate commandRate{0};           //!< pod.sue.command-rate (0: unlimited)
        uint32_t fecInterleave{0};         //!< pod.sue.fec-interleave (0: IEEE)
    };

    /// UALink 200 (pod.ualink), used when pod.fabric is ualink.
    struct Ualink
    {
        std::string bifurcation{"x4"};    //!< pod.ualink.bifurcation: x4 | 2x2 | 4x1
        std::string laneRate{"200g"};     //!< pod.ualink.lane-rate: 200g | 100g
        uint32_t fecInterleave{0};        //!< pod.ualink.fec-interleave (0: the PHY's)
        bool addressCache{true};          //!< pod.ualink.address-cache
        bool authentication{false};       //!< pod.ualink.authentication
        bool strictOrdering{false};       //!< pod.ualink.strict-ordering
        uint32_t reqCmdCredits{512};      //!< pod.ualink.req-cmd-credits
        uint32_t rspCmdCredits{512};      //!< pod.ualink.rsp-cmd-credits
        uint32_t reqDataCredits{2048};    //!< pod.ualink.req-data-credits
        uint32_t rspDataCredits{2048};    //!< pod.ualink.rsp-data-credits
        uint32_t vcCmdCredits{0};         //!< pod.ualink.vc-cmd-credits (per VC)
        uint32_t vcDataCredits{0};        //!< pod.ualink.vc-data-credits (per VC)
        bool sharedDataBuffer{false};     //!< pod.ualink.shared-data-buffer
        bool initialCreditRelease{false}; //!< pod.ualink.initial-credit-release
        std::string upli{"ideal"};        //!< pod.ualink.upli: ideal | tdm
        double upliClockMhz{1562.5};      //!< pod.ualink.upli-clock-mhz
        Time switchLatency;               //!< pod.ualink.switch-latency (0: section 10.9.2)
        Time completerLatency;            //!< pod.ualink.completer-latency
        bool replay{false};               //!< pod.ualink.replay
        Time watchdog;                    //!< pod.ualink.watchdog (0: off)
        Time stationReset;                //!< pod.ualink.station-reset (0: never)
        bool failLink{false};             //!< pod.ualink.fail-link
        uint32_t failAccelerator{0};      //!< pod.ualink.fail-accelerator
        uint32_t failPort{0};             //!< pod.ualink.fail-port
        Time failAt;                      //!< pod.ualink.fail-at
        /// pod.ualink.virtual-pods: disjoint lists of accelerator ids (empty: one pod)
        std::vector<std::vector<uint32_t>> virtualPods;

        /// \return lanes per port
        uint32_t Lanes() const
        {
            return bifurcation == "x4" ? 4 : (bifurcation == "2x2" ? 2 : 1);
        }
    };

    /// Cell fabric (pod.cell), used when pod.fabric is cell (seed 004 section 10).
    struct Cell
    {
        uint32_t links{36};                           //!< pod.cell.links (per chip = planes)
        std::string stages{"auto"};                   //!< pod.cell.stages
        uint32_t switchPorts{144};                    //!< pod.cell.switch-ports
        uint32_t spines{0};                           //!< pod.cell.spines (0: automatic)
        uint32_t pageSizeWords{125};                  //!< pod.cell.page-size-words
        uint32_t clusters{4};                         //!< pod.cell.clusters
        uint32_t destinationClusters{4};              //!< pod.cell.destination-clusters
        double clockGhz{1.33};                        //!< pod.cell.clock-ghz
        uint32_t foPipes{4};                          //!< pod.cell.fo-pipes
        uint32_t foBytesPerCycle{88};                 //!< pod.cell.fo-bytes-per-cycle
        uint32_t rxDmaBytesPerCycle{128};             //!< pod.cell.rxdma-bytes-per-cycle
        uint32_t rxCbufCells{24576};                  //!< pod.cell.rx-cbuf-cells
        uint32_t cellHeaderBytes{16};                 //!< pod.cell.cell-header-bytes
        uint32_t controlCellBytes{96};                //!< pod.cell.control-cell-bytes
        uint32_t maxOutstandingPages{64};             //!< pod.cell.max-outstanding-pages
        uint32_t maxOutstandingGrants{4096};          //!< pod.cell.max-outstanding-grants
        Time txLatency;                               //!< pod.cell.tx-latency
        Time rxLatency;                               //!< pod.cell.rx-latency
        std::string grantPolicy{"paced-round-robin"}; //!< pod.cell.grant-policy
        Time txCtsTimeout;                            //!< pod.cell.tx-cts-timeout
        Time txActiveTimeout;                         //!< pod.cell.tx-active-timeout
        Time txAckTimeout;                            //!< pod.cell.tx-ack-timeout
        Time rxDataTimeout;                           //!< pod.cell.rx-data-timeout
        Time rxCompletionTimeout;                     //!< pod.cell.rx-completion-timeout
        std::string granularity{"coarse"};            //!< pod.cell.granularity
        DataRate linkRate{"106.25Gbps"};              //!< pod.cell.link-rate
        Time linkDelay;                               //!< pod.cell.link-delay
        Time switchLatency;                           //!< pod.cell.switch-latency

        /// pod.cell.occupancy-profiles: {xoff, xon} of each profile given (10.7.3.1)
        std::vector<std::pair<uint32_t, uint32_t>> occupancyProfiles;
        uint32_t occupancyProfile{0};          //!< pod.cell.occupancy-profile
        uint32_t qpages{1024};                 //!< pod.cell.qpages
        uint32_t txBufBytes{32768};            //!< pod.cell.txbuf-bytes
        std::string transport{"rdma"};         //!< pod.cell.transport
        uint32_t datagramRxRingSize{256};      //!< pod.cell.datagram-rx-ring-size
        uint32_t datagramRxBufferBytes{16256}; //!< pod.cell.datagram-rx-buffer-bytes
        Time datagramRxRepostTime;             //!< pod.cell.datagram-rx-repost-time
        uint32_t datagramTxRingSize{256};      //!< pod.cell.datagram-tx-ring-size
        uint32_t rxDmaTrackingIds{16};         //!< pod.cell.rxdma-tracking-ids
        uint32_t rxDmaCommitCycles{100};       //!< pod.cell.rxdma-commit-cycles
        bool switchCredits{true};              //!< pod.cell.switch-credits
        uint32_t creditsPerPort{0};            //!< pod.cell.credits-per-port (0: auto)
        uint32_t creditBytes{0};               //!< pod.cell.credit-bytes (0: auto)
        Time creditLatency;                    //!< pod.cell.credit-latency
        uint64_t switchBufferCells{349525};    //!< pod.cell.switch-buffer-cells
    };

    /// The pod.
    struct Pod
    {
        std::string fabric{"ethernet"};   //!< pod.fabric
        uint32_t accelerators{0};         //!< pod.accelerators
        uint32_t planes{1};               //!< pod.planes
        std::string topology{"switched"}; //!< pod.topology: switched | mesh
        bool canonicalArrivals{false};    //!< pod.arrival-order is canonical (the loader's default)
        Switch sw;                        //!< pod.switch
        Link link;                        //!< pod.link
        Nic nic;                          //!< pod.nic
        FlowControl fc;                   //!< pod.flow-control
        Llr llr;                          //!< pod.llr
        Transport transport;              //!< pod.transport
        Sue sue;                          //!< pod.sue
        Ualink ualink;                    //!< pod.ualink

        /// RIFL switches (pod.rifl), used when pod.fabric is rifl.
        struct Rifl
        {
            std::string sw{"islip"};     //!< pod.rifl.switch: islip | safc | fifo | output-queued
            uint32_t islipIterations{3}; //!< pod.rifl.islip-iterations
        };

        Rifl rifl; //!< pod.rifl
        Cell cell; //!< pod.cell
    };

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
        std::string kind;                 //!< incast | ... | collective | dag | pyxis
        uint64_t bytes{0};                //!< workloads[i].size (bytes per message)
        Time start;                       //!< workloads[i].start
        bool read{false};                 //!< workloads[i].operation == read (SUE)
        uint8_t tclass{0};                //!< workloads[i].class
        uint32_t senders{0};              //!< incast: workloads[i].senders (k)
        uint32_t receiver{0};             //!< incast: workloads[i].receiver
        std::vector<uint32_t> senderList; //!< incast: optional explicit workloads[i].sender-list
        uint32_t iterations{1};           //!< collective, dag: repetitions, back to back
        uint32_t communicators{1};        //!< all-to-all, collective: concurrent groups
        Collective coll;                  //!< collective: its parameters
        std::vector<DagNode> nodes;       //!< dag: the nodes
        std::string dagFile;              //!< dag: file the nodes came from ("" if inline)
        std::string model;                //!< pyxis: the model file (beside the scenario)
        std::string rxPosting;            //!< pyxis: workloads[i].rx-posting (pre-posted | late)
        uint32_t chips{0};                //!< pyxis: the model's chips (tensor x data)
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
        Time noProgress;       //!< limits.no-progress (0: no no-progress watchdog)
        Time checkInterval;    //!< limits.check-interval (resolved: a tenth of noProgress if 0)
        double wallSeconds{0}; //!< limits.wall in seconds (0: no wall-time limit)
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
    Limits limits;                   //!< limits (watchdogs)
    bool check{false};               //!< check: invariant checks while running (--check)
    Pod pod;                         //!< pod
    std::vector<Workload> workloads; //!< workloads
    std::vector<Fault> faults;       //!< faults
    Output output;                   //!< output
};

} // namespace ns3

#endif /* POD_SCENARIO_H */
