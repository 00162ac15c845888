/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_POD_CONFIG_H
#define FABRIC_POD_CONFIG_H

#include "fabric-config-key.h"
#include "fabric-kind-config.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

class FabricConfigReader;

/**
 * \ingroup fabric
 * \brief The pod section of a scenario as every fabric sees it: the accelerators, planes,
 * switches, links and the link-level mechanisms written once in this module (PFC, credits,
 * link-level retry, the go-back-N transport), plus the validated section of the pod's fabric
 * kind (GetKind()).
 *
 * The scenario loader fills it from the `pod` keys (every value checked against its key); a
 * FabricKind reads its own section into a FabricKindConfig and may set what its fabric fixes
 * here (RIFL its framing, the cell fabric its planes).
 */
struct FabricPodConfig
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

    std::string fabric{"ethernet"};   //!< pod.fabric: the name of a registered FabricKind
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

    /// The fabric kind's own section (pod.<fabric>), as its FabricKind read it; may be null
    std::shared_ptr<const FabricKindConfig> kind;

    /**
     * Declare the keys of the generic sections: pod.switch, pod.link, pod.nic,
     * pod.flow-control, pod.llr and pod.transport (each with its type, default, range and help).
     * \param keys where to add them
     */
    static void DeclareKeys(std::vector<FabricConfigKey>& keys);

    /**
     * Read the generic sections (every value checked against its key; errors stop the loading
     * through \p in).
     * \param in the scenario's keys
     */
    void Read(const FabricConfigReader& in);

    /**
     * \tparam T the fabric kind's configuration class
     * \return the fabric kind's section (aborts if it is not a T)
     */
    template <typename T>
    const T& GetKind() const
    {
        const T* c = dynamic_cast<const T*>(kind.get());
        FabricKindConfig::CheckType(c != nullptr, fabric);
        return *c;
    }
};

} // namespace ns3

#endif /* FABRIC_POD_CONFIG_H */
