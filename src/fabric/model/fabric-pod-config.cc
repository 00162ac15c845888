/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-pod-config.h"

#include "fabric-config-reader.h"

namespace ns3
{

namespace
{

/**
 * Declare the keys of pod.switch.
 * \param k the table
 */
void
DeclareSwitchKeys(std::vector<FabricConfigKey>& k)
{
    using K = FabricConfigKey;
    k.push_back(K("pod.switch", K::MAP).Help("The switches (the same in every plane)."));
    k.push_back(
        K("pod.switch.radix", K::UINT)
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
        K("pod.switch.latency", K::TIME)
            .Default("250ns")
            .Min(0)
            .Help("Switch pipeline latency, port to port (SUE spec Appendix A.1: 250 ns)."));
    k.push_back(K("pod.switch.forwarding", K::ENUM)
                    .Default("cut-through")
                    .Allowed({"cut-through", "store-and-forward"})
                    .Help("Forward a packet as soon as its header is in, or once all of it is."));
    k.push_back(K("pod.switch.buffer", K::SIZE)
                    .Default("64MiB")
                    .Above(0)
                    .Unit("bytes")
                    .Help("Shared packet buffer per switch."));
    k.push_back(K("pod.switch.classes", K::UINT)
                    .Default("8")
                    .Range(1, 8)
                    .Help("Traffic classes per port."));
    k.push_back(
        K("pod.switch.oversubscription", K::UINT)
            .Default("1")
            .Range(1, 64)
            .Help("Two tiers only: ratio of a leaf's accelerator ports to its spine uplinks (k:1); "
                  "1 is full bisection, 4 leaves a quarter of the accelerators' bandwidth to the "
                  "spines."));
}

/**
 * Declare the keys of pod.link.
 * \param k the table
 */
void
DeclareLinkKeys(std::vector<FabricConfigKey>& k)
{
    using K = FabricConfigKey;
    k.push_back(K("pod.link", K::MAP)
                    .Help("The links (accelerator-switch and switch-switch links alike)."));
    k.push_back(K("pod.link.rate", K::RATE)
                    .Default("800Gbps")
                    .Above(0)
                    .Unit("bit/s")
                    .Help("Line rate of every link."));
    k.push_back(K("pod.link.cable", K::ENUM)
                    .Default("twinax")
                    .Allowed({"direct", "twinax", "single-mode", "hollow-core"})
                    .Help("Cable kind, which sets the propagation speed; `direct` uses "
                          "`pod.link.delay` instead."));
    k.push_back(K("pod.link.length", K::LENGTH)
                    .Default("3m")
                    .Min(0)
                    .Unit("m")
                    .Help("Cable length (ignored for `direct`)."));
    k.push_back(K("pod.link.delay", K::TIME)
                    .Default("0")
                    .Min(0)
                    .Help("Propagation delay of a `direct` link."));
    k.push_back(K("pod.link.fec-latency", K::TIME)
                    .Default("0")
                    .Min(0)
                    .Help("FEC latency added per link traversal."));
    k.push_back(K("pod.link.codeword-bits", K::UINT)
                    .Default("5140")
                    .Min(1)
                    .Unit("bits")
                    .Help("Message bits per FEC codeword (RS(544,514): 514 symbols of 10 bits)."));
    k.push_back(K("pod.link.codeword-error-rate", K::DOUBLE)
                    .Default("0")
                    .Range(0, 1)
                    .Help("Probability that a codeword is uncorrectable."));
    k.push_back(K("pod.link.ber", K::DOUBLE).Default("0").Range(0, 1).Help("Bit error rate."));
    k.push_back(K("pod.link.interframe-bytes", K::UINT)
                    .Default("20")
                    .Unit("bytes")
                    .Help("Wire overhead per frame (IEEE 802.3: preamble+SFD 8, IPG 12)."));
}

/**
 * Declare the keys of pod.nic.
 * \param k the table
 */
void
DeclareNicKeys(std::vector<FabricConfigKey>& k)
{
    using K = FabricConfigKey;
    k.push_back(K("pod.nic", K::MAP).Help("The accelerators' NICs."));
    k.push_back(K("pod.nic.mtu", K::SIZE)
                    .Default("4096")
                    .Range(1, 65536)
                    .Unit("bytes")
                    .Help("Payload bytes per packet."));
    k.push_back(K("pod.nic.header-bytes", K::UINT)
                    .Default("18")
                    .Unit("bytes")
                    .Help("Header bytes per packet (Ethernet header 14 + FCS 4)."));
    k.push_back(K("pod.nic.plane-selection", K::ENUM)
                    .Default("spray")
                    .Allowed({"round-robin", "hash", "spray"})
                    .Help("How a NIC spreads traffic over the planes: spray (each packet to "
                          "whichever plane port is free), round-robin (per message, starting "
                          "at the accelerator's id), hash (of the destination)."));
}

/**
 * Declare the keys of pod.flow-control.
 * \param k the table
 */
void
DeclareFlowControlKeys(std::vector<FabricConfigKey>& k)
{
    using K = FabricConfigKey;
    k.push_back(K("pod.flow-control", K::MAP)
                    .Help("Link-level flow control on every link (both ends of each)."));
    k.push_back(K("pod.flow-control.kind", K::ENUM)
                    .Default("none")
                    .Allowed({"none", "pfc", "cbfc"})
                    .Help("none (a full buffer drops), pfc (IEEE 802.1Qbb pause per priority) "
                          "or cbfc (credits per class, as in UEC)."));
    k.push_back(K("pod.flow-control.xoff", K::SIZE)
                    .Default("0")
                    .Max(1ull << 40)
                    .Unit("bytes")
                    .Help("PFC: ingress bytes of one priority that send a pause. 0: the port's "
                          "share of the switch buffer minus the headroom."));
    k.push_back(K("pod.flow-control.xon", K::SIZE)
                    .Default("0")
                    .Max(1ull << 40)
                    .Unit("bytes")
                    .Help("PFC: bytes at which the pause is released. 0: XOFF minus two MTUs."));
    k.push_back(K("pod.flow-control.headroom", K::SIZE)
                    .Default("0")
                    .Max(1ull << 40)
                    .Unit("bytes")
                    .Help("PFC: buffer above XOFF per port and priority. 0: from the link's "
                          "round trip, the MTU and the pause response time."));
    k.push_back(K("pod.flow-control.pause-quanta", K::UINT)
                    .Default("65535")
                    .Range(1, 65535)
                    .Unit("quanta")
                    .Help("PFC: pause time of a pause frame in 512-bit-time quanta."));
    k.push_back(K("pod.flow-control.pause-response", K::TIME)
                    .Default("0")
                    .Range(0, 1e9)
                    .Help("PFC: time a sender takes to act on a pause frame."));
    k.push_back(K("pod.flow-control.bytes-per-credit", K::SIZE)
                    .Default("64")
                    .Range(1, 65536)
                    .Unit("bytes")
                    .Help("CBFC: buffer bytes one credit stands for."));
    k.push_back(K("pod.flow-control.credit-buffer", K::SIZE)
                    .Default("64KiB")
                    .Range(1, 1ull << 40)
                    .Unit("bytes")
                    .Help("CBFC: receive buffer each port advertises per class."));
    k.push_back(K("pod.flow-control.credit-pool", K::SIZE)
                    .Default("0")
                    .Max(1ull << 40)
                    .Unit("bytes")
                    .Help("CBFC: receive buffer per port shared by all classes."));
    k.push_back(K("pod.flow-control.credit-batch", K::UINT)
                    .Default("16")
                    .Range(1, 1 << 20)
                    .Unit("credits")
                    .Help("CBFC: credits freed before a credit frame is sent."));
    k.push_back(K("pod.flow-control.credit-delay", K::TIME)
                    .Default("100ns")
                    .Range(0, 1e9)
                    .Help("CBFC: longest wait of freed credits for their batch."));
    k.push_back(K("pod.flow-control.deadlock-timeout", K::TIME)
                    .Default("10ms")
                    .Min(0)
                    .Help("PFC/CBFC: a switch port that holds packets and sends none for this "
                          "long is stuck; a cycle of stuck ports is a deadlock, which stops the "
                          "run with a report. 0: no run-time check."));
    k.push_back(K("pod.flow-control.deadlock-check-interval", K::TIME)
                    .Default("1ms")
                    .Above(0)
                    .Help("PFC/CBFC: time between two looks at the switch queues while any "
                          "holds packets."));
}

/**
 * Declare the keys of pod.llr.
 * \param k the table
 */
void
DeclareLlrKeys(std::vector<FabricConfigKey>& k)
{
    using K = FabricConfigKey;
    k.push_back(K("pod.llr", K::MAP).Help("Link-level retry (replay of corrupted packets)."));
    k.push_back(K("pod.llr.mode", K::ENUM)
                    .Default("off")
                    .Allowed({"off", "ack-nak", "nak-only"})
                    .Help("off; ack-nak (cumulative ACK plus replay request: Ethernet LLR, "
                          "UALink DL replay); nak-only (RIFL: NAKs only, both directions pause "
                          "while replaying)."));
    k.push_back(K("pod.llr.links", K::ENUM)
                    .Default("all")
                    .Allowed({"all", "accelerator", "switch"})
                    .Help("Which links run it: all, accelerator-switch links only, or "
                          "switch-switch links only."));
    k.push_back(K("pod.llr.window", K::UINT)
                    .Default("0")
                    .Range(0, 1 << 15)
                    .Unit("packets")
                    .Help("Replay buffer per link direction; at most half the space of the "
                          "retry engine's 16-bit sequence numbers. 0: derived from the link's "
                          "round trip (nak-only: the packets a saturated link sends while one "
                          "is retained; ack-nak: 512, or more on a long link)."));
    k.push_back(K("pod.llr.ack-interval", K::UINT)
                    .Default("16")
                    .Range(1, 1 << 20)
                    .Unit("packets")
                    .Help("ack-nak: packets accepted per cumulative ACK."));
    k.push_back(K("pod.llr.nak-pause", K::DOUBLE)
                    .Default("2.5")
                    .Range(0, 1000)
                    .Unit("round trips")
                    .Help("nak-only: pause of new data per error (RIFL: 2.5)."));
}

/**
 * Declare the keys of pod.transport.
 * \param k the table
 */
void
DeclareTransportKeys(std::vector<FabricConfigKey>& k)
{
    using K = FabricConfigKey;
    k.push_back(K("pod.transport", K::MAP)
                    .Help("End-to-end transport of the accelerators (recovers packets lost in "
                          "the fabric)."));
    k.push_back(K("pod.transport.kind", K::ENUM)
                    .Default("none")
                    .Allowed({"none", "go-back-n"})
                    .Help("none (a lost packet loses its message; completion is local); "
                          "go-back-n (PSN per port and peer, cumulative ACK, NACK on a gap, "
                          "retransmission timer; completion is acknowledgement)."));
    k.push_back(K("pod.transport.window", K::UINT)
                    .Default("128")
                    .Range(1, 1 << 20)
                    .Unit("packets")
                    .Help("go-back-n: most unacknowledged packets per connection."));
    k.push_back(K("pod.transport.ack-interval", K::UINT)
                    .Default("8")
                    .Range(1, 1 << 20)
                    .Unit("packets")
                    .Help("go-back-n: packets accepted per standalone ACK (ACKs also ride on "
                          "reverse data)."));
    k.push_back(K("pod.transport.ack-delay", K::TIME)
                    .Default("100ns")
                    .Range(0, 1e9)
                    .Help("go-back-n: longest wait of an accepted packet for its ACK."));
    k.push_back(K("pod.transport.timeout", K::TIME)
                    .Default("20us")
                    .Range(1e3, 1e12)
                    .Help("go-back-n: retransmission timeout (doubles on each consecutive "
                          "expiry, up to 64 times); keep it above the loaded round trip."));
}

} // namespace

void
FabricPodConfig::DeclareKeys(std::vector<FabricConfigKey>& k)
{
    DeclareSwitchKeys(k);
    DeclareLinkKeys(k);
    DeclareNicKeys(k);
    DeclareFlowControlKeys(k);
    DeclareLlrKeys(k);
    DeclareTransportKeys(k);
}

void
FabricPodConfig::Read(const FabricConfigReader& in)
{
    sw.radix = static_cast<uint32_t>(in.Get("pod.switch.radix").u);
    sw.latency = PicoSeconds(static_cast<uint64_t>(in.Get("pod.switch.latency").ps));
    sw.cutThrough = in.Get("pod.switch.forwarding").str == "cut-through";
    sw.bufferBytes = in.Get("pod.switch.buffer").u;
    sw.classes = static_cast<uint32_t>(in.Get("pod.switch.classes").u);
    sw.oversubscription = static_cast<uint32_t>(in.Get("pod.switch.oversubscription").u);
    link.rate = DataRate(in.Get("pod.link.rate").u);
    link.cable = in.Get("pod.link.cable").str;
    link.lengthM = in.Get("pod.link.length").d;
    link.delay = PicoSeconds(static_cast<uint64_t>(in.Get("pod.link.delay").ps));
    link.fecLatency = PicoSeconds(static_cast<uint64_t>(in.Get("pod.link.fec-latency").ps));
    link.codewordBits = static_cast<uint32_t>(in.Get("pod.link.codeword-bits").u);
    link.codewordErrorRate = in.Get("pod.link.codeword-error-rate").d;
    link.ber = in.Get("pod.link.ber").d;
    link.interframeBytes = static_cast<uint32_t>(in.Get("pod.link.interframe-bytes").u);
    nic.mtu = static_cast<uint32_t>(in.Get("pod.nic.mtu").u);
    nic.headerBytes = static_cast<uint32_t>(in.Get("pod.nic.header-bytes").u);
    nic.planeSelection = in.Get("pod.nic.plane-selection").str;

    fc.kind = in.Get("pod.flow-control.kind").str;
    fc.xoffBytes = in.Get("pod.flow-control.xoff").u;
    fc.xonBytes = in.Get("pod.flow-control.xon").u;
    fc.headroomBytes = in.Get("pod.flow-control.headroom").u;
    fc.pauseQuanta = static_cast<uint32_t>(in.Get("pod.flow-control.pause-quanta").u);
    fc.pauseResponse =
        PicoSeconds(static_cast<int64_t>(in.Get("pod.flow-control.pause-response").ps));
    fc.bytesPerCredit = static_cast<uint32_t>(in.Get("pod.flow-control.bytes-per-credit").u);
    fc.creditBuffer = in.Get("pod.flow-control.credit-buffer").u;
    fc.creditPool = in.Get("pod.flow-control.credit-pool").u;
    fc.creditBatch = static_cast<uint32_t>(in.Get("pod.flow-control.credit-batch").u);
    fc.creditDelay = PicoSeconds(static_cast<int64_t>(in.Get("pod.flow-control.credit-delay").ps));
    fc.deadlockTimeout =
        PicoSeconds(static_cast<int64_t>(in.Get("pod.flow-control.deadlock-timeout").ps));
    fc.deadlockCheckInterval =
        PicoSeconds(static_cast<int64_t>(in.Get("pod.flow-control.deadlock-check-interval").ps));

    llr.mode = in.Get("pod.llr.mode").str;
    llr.links = in.Get("pod.llr.links").str;
    llr.window = static_cast<uint32_t>(in.Get("pod.llr.window").u);
    llr.ackInterval = static_cast<uint32_t>(in.Get("pod.llr.ack-interval").u);
    llr.nakPause = in.Get("pod.llr.nak-pause").d;

    transport.kind = in.Get("pod.transport.kind").str;
    transport.window = static_cast<uint32_t>(in.Get("pod.transport.window").u);
    transport.ackInterval = static_cast<uint32_t>(in.Get("pod.transport.ack-interval").u);
    transport.ackDelay = PicoSeconds(static_cast<int64_t>(in.Get("pod.transport.ack-delay").ps));
    transport.timeout = PicoSeconds(static_cast<int64_t>(in.Get("pod.transport.timeout").ps));
}

} // namespace ns3
