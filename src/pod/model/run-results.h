/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef POD_RUN_RESULTS_H
#define POD_RUN_RESULTS_H

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup pod
 * \brief Everything one run produced, in plain arrays (written to HDF5, returned to Python).
 *
 * Times are in picoseconds (int64), the simulator's resolution. A message not delivered or not
 * completed has -1 in that column.
 */
struct RunResults
{
    /// Deliver and complete time of a message with no byte on the rails of a --rails run
    /// (RailSplit): not this run's share.
    static constexpr int64_t NOT_IN_RAILS = -2;

    /// Per-message table (one row per message).
    struct Messages
    {
        std::vector<uint32_t> src;       //!< source accelerator
        std::vector<uint32_t> dst;       //!< destination accelerator
        std::vector<uint64_t> bytes;     //!< payload bytes
        std::vector<uint8_t> tclass;     //!< traffic class
        std::vector<uint32_t> workload;  //!< index into workloadNames
        std::vector<int64_t> postPs;     //!< post time
        std::vector<int64_t> deliverPs;  //!< delivery time at the receiver (-1: never)
        std::vector<int64_t> completePs; //!< completion time at the sender (-1: never)
    };

    /// Per-link-direction table (one row per transmitting device).
    struct Links
    {
        std::vector<std::string>
            name; //!< "<from>-><to>", e.g. "acc12->p3.sw0", "p3.leaf1->p3.spine0"
        std::vector<std::string>
            kind; //!< acc-up (accelerator to switch), down (switch to
                  //!< accelerator), leaf-up, spine-down, spine-up, core-down, mesh
        std::vector<uint32_t> plane;       //!< plane index
        std::vector<uint64_t> txBytes;     //!< frame bytes sent
        std::vector<uint64_t> txWireBytes; //!< bytes on the wire including per-frame overhead
        std::vector<uint64_t> txPackets;   //!< packets sent
        std::vector<int64_t> busyPs;       //!< time the transmitter was busy
        std::vector<double> rateBps;       //!< link rate (bit/s)
        std::vector<int64_t> pausePs;      //!< time PFC paused this transmitter (all priorities)
        std::vector<int64_t> stallPs;      //!< time data waited for a pause, credit or retry window
        std::vector<uint64_t> controlPackets; //!< link control frames sent (pause, credit, ACK/NAK)
        std::vector<uint64_t> replays;        //!< link-level replays started by this transmitter
        std::vector<uint64_t> replayedPackets; //!< packets it retransmitted in replays
        std::vector<uint64_t> rxDiscarded; //!< corrupted or out-of-sequence packets discarded at
                                           //!< the receiving end (recovered by replay)
        /// drops counted at the receiving end of this link direction, by reason: reason -> column
        std::map<std::string, std::vector<uint64_t>> dropPackets;
        std::map<std::string, std::vector<uint64_t>> dropBytes; //!< dropped payload bytes by reason
    };

    /// Per-collective table (one row per collective run: an iteration of a collective
    /// workload, or a collective node of a DAG in one iteration).
    struct Collectives
    {
        std::vector<uint32_t> workload;      //!< index into workloadNames
        std::vector<std::string> name;       //!< workload name, or "<workload>/<node>"
        std::vector<std::string> collective; //!< all-reduce, ...
        std::vector<std::string> algorithm;  //!< ring, ...
        std::vector<std::string> group;      //!< accelerators, e.g. "0-127" or "0,2,4"
        std::vector<uint32_t> ranks;         //!< group size n
        std::vector<uint64_t> bytes;         //!< size (the scenario's; per pair for all-to-all)
        std::vector<uint32_t> iteration;     //!< iteration
        std::vector<int64_t> startPs;        //!< first rank's start
        std::vector<int64_t> endPs;          //!< last rank's end (-1: never)
        std::vector<double> algbwBytesPerS;  //!< algorithm bandwidth (nccl-tests), bytes/s
        std::vector<double> busbwBytesPerS;  //!< bus bandwidth (nccl-tests), bytes/s
        std::vector<uint64_t> messages;      //!< messages posted
    };

    /// Per-step timings of the collectives (one row per step of each collective row).
    struct CollectiveSteps
    {
        std::vector<uint32_t> collective; //!< row of the collectives table
        std::vector<uint32_t> step;       //!< step index
        std::vector<int64_t> startPs;     //!< first start by any rank
        std::vector<int64_t> endPs;       //!< last end by any rank
        std::vector<uint64_t> bytes;      //!< bytes sent in the step by all ranks
    };

    /// DAG node instances (one row per node, iteration and accelerator taking part).
    struct DagNodes
    {
        std::vector<uint32_t> workload;    //!< index into workloadNames
        std::vector<std::string> node;     //!< node name
        std::vector<std::string> kind;     //!< compute, collective, send
        std::vector<std::string> category; //!< what the node stands for ("" if nothing said)
        std::vector<uint32_t> iteration;   //!< iteration
        std::vector<uint32_t> accelerator; //!< accelerator
        std::vector<int64_t> startPs;      //!< start on this accelerator
        std::vector<int64_t> endPs;        //!< end on this accelerator
    };

    /// Sampled switch buffer occupancy (BufferSampler): one row per switch and sample interval
    /// in which its occupancy changed (none in between: the level held).
    struct BufferSeries
    {
        int64_t intervalPs{0};                //!< sample interval (0: not sampled)
        std::vector<std::string> switchNames; //!< switch names, indexed by sw
        std::vector<uint32_t> sw;             //!< switch (PodTopology::GetSwitches() order)
        std::vector<int64_t> timePs;          //!< start of the interval
        std::vector<uint64_t> maxBytes;       //!< largest occupancy in the interval
        std::vector<uint64_t> endBytes;       //!< occupancy at the end of the interval
    };

    /// What the output budget did (output.budget; OutputBudget::Apply).
    struct OutputBudgetReport
    {
        uint64_t budgetBytes{0};          //!< the budget (0: unlimited)
        uint64_t estimatedBytes{0};       //!< estimated table bytes before downsampling
        uint64_t messagesTotal{0};        //!< messages before downsampling
        uint32_t messagesSampledEvery{1}; //!< 1: every message kept; k: one row in k kept
        uint32_t seriesCoarsenedBy{1};    //!< factor the series interval was multiplied by
    };

    std::vector<std::string> workloadNames; //!< workload names, indexed by Messages::workload
    Messages messages;                      //!< per-message table
    Links links;                            //!< per-link table
    Collectives collectives;                //!< per-collective table
    CollectiveSteps collectiveSteps;        //!< per-step timings of the collectives
    DagNodes dagNodes;                      //!< DAG node instances
    BufferSeries bufferSeries;              //!< switch buffer occupancy over time
    OutputBudgetReport output;              //!< what the output budget did

    // Summary.
    std::string rails;            //!< --rails: the rails simulated, "0,2" ("": all)
    std::string scenarioName;     //!< scenario name
    std::string engine{"packet"}; //!< the engine that moved the messages: packet or flow
    std::string scenarioText;     //!< the YAML text (plus overrides, as a comment header)
    uint32_t accelerators{0};     //!< pod size
    uint32_t planes{0};           //!< planes
    uint32_t switches{0};         //!< switches in the pod
    uint64_t switchPorts{0};      //!< ports of those switches, summed (the benchmark's memory unit)
    uint64_t bytesSent{0};        //!< payload bytes posted
    uint64_t bytesDelivered{0};   //!< payload bytes of messages delivered whole
    uint64_t bytesReceived{0}; //!< payload bytes that reached an endpoint (whole messages or not)
    uint64_t bytesDropped{0};  //!< payload bytes dropped (all reasons)
    std::map<std::string, uint64_t> dropsByReason; //!< dropped packets by reason
    uint64_t peakSwitchBufferBytes{0}; //!< largest shared-buffer occupancy of any switch
    int64_t pausePs{0};                //!< PFC pause time summed over transmitters
    int64_t stallPs{0};                //!< flow-control stall time summed over transmitters
    uint64_t replays{0};               //!< link-level replays
    uint64_t replayedPackets{0};       //!< packets retransmitted by link-level retry
    uint64_t retransmittedPackets{0};  //!< packets sent again by the end-to-end transport
    uint64_t bytesRetransmitted{0};    //!< their payload bytes
    uint64_t bytesDiscarded{0};        //!< payload discarded by transport receivers (out of
                                       //!< sequence or duplicate)
    uint64_t goBacks{0};               //!< transport go-backs (NACK or timeout)
    uint64_t transportTimeouts{0};     //!< go-backs started by the retransmission timer
    uint64_t failedConnections{0};     //!< connections given up after repeated timeouts
    bool checked{false};               //!< invariant checks (--check) ran and passed
    uint64_t checks{0};                //!< invariant checks done (while running and at the end)
    uint64_t checkedFlows{0};          //!< flows whose bytes were checked at the end
    uint64_t checkLostBytes{0};        //!< bytes of undelivered messages on flows with drops
                                       //!< or failed connections
    uint64_t checkInFlightBytes{0};    //!< bytes of undelivered messages of a stopped run
    uint64_t faultsInjected{0};        //!< faults applied (the faults list, FaultInjector)
    uint64_t linkDownEvents{0};        //!< links taken down by faults
    uint64_t linkUpEvents{0};          //!< links brought back up by faults
    uint64_t routesDenied{0};          //!< switch routes denied by faults
    uint64_t bytesFailedOver{0};       //!< SUE: payload moved to another port after a failure
    uint64_t isolations{0};            //!< UALink stations isolated (watchdog or link down)
    uint64_t cmpto{0};                 //!< UALink requests answered CMPTO (completion timeout)
    uint64_t messagesFailed{0};        //!< messages not delivered by the end of the run
    uint64_t bytesFailed{0};           //!< their payload bytes
    /// messages that workloads which post as they go (collectives, DAG nodes) never posted, the
    /// ones they waited on having failed or the run having stopped
    uint64_t messagesUnposted{0};
    std::string failure;      //!< the named failure ("" if every message arrived)
    int64_t simTimePs{0};     //!< last delivery or completion (the stop time if it cut work short)
    double wallSeconds{0};    //!< wall-clock time of Simulator::Run
    double buildSeconds{0};   //!< wall-clock time to build the pod
    uint64_t events{0};       //!< scheduler events executed
    uint64_t packetHops{0};   //!< packets transmitted on any link
    uint64_t flows{0};        //!< engine: flow: flows started (a message has one per part)
    uint64_t flowResolves{0}; //!< engine: flow: rate re-solves (instants with a change)
    uint64_t flowResolved{0}; //!< engine: flow: flows re-solved over all re-solves
    uint64_t peakFlows{0};    //!< engine: flow: most flows at once
    uint64_t peakRssBytes{0}; //!< peak resident set size of the process
    std::string deadlock;     //!< the deadlock monitor's report ("" if none stopped the run)
    std::string watchdog;     //!< the report of a watchdog that stopped the run ("" if none)
};

} // namespace ns3

#endif /* POD_RUN_RESULTS_H */
