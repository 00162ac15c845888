/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_FLOW_PLAN_H
#define FABRIC_FLOW_PLAN_H

#include "fabric-net-device.h"

#include "ns3/nstime.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup fabric
 * \brief What an endpoint tells the flow engine about one message: where the packet engine
 * would put its bytes, how many bytes the wire carries for them, and what comes before and
 * after the data (FabricEndpoint::PlanFlow).
 *
 * The flow engine (src/flow) follows each share from its port through the switches' routes
 * (FabricSwitchBase::ProbeRoute, with the share's flow hash and source route, as a unit of the
 * message would be routed), gives it a max-min fair rate on those links, and times the message
 * from the plan: it starts \c setup after it may start, its \c wireBytes leave at its rate, its
 * last unit reaches the destination after the path's latency (each link's delay and the
 * serialization of one unit of \c unitWireBytes, each switch's pipeline latency), and it
 * completes then (a transport that completes on delivery) or when the acknowledgement is back
 * (\c completesOnAck: the reverse path's latency once more).
 */
struct FabricFlowPlan
{
    /// One part of the message: the bytes it puts on one port, routed as one flow.
    struct Share
    {
        /// The accelerator's port the bytes leave on (the pod owns it; a plain pointer, so
        /// that planning a message touches no device's reference count).
        FabricNetDevice* port{nullptr};
        uint32_t flowHash{0};    //!< the units' flow hash (FabricPacket::flowHash)
        uint64_t sourceRoute{0}; //!< the units' source route (FabricPacket::sourceRoute)
        double fraction{1};      //!< the fraction of the message's wire bytes
        /// The units are sprayed: every switch spreads them evenly over all the equal-cost
        /// ports toward the destination (the flow hash is not used).
        bool spray{false};
    };

    /// A resource of the endpoints beside the links that the message's wire bytes pass
    /// through (a DMA engine): the messages that name the same key share its rate as flows
    /// share a link. Keys are the pod's: an endpoint names the accelerator it is on in them.
    struct Limit
    {
        uint64_t key{0};         //!< the resource
        double bitsPerSecond{0}; //!< its rate, in wire bits per second
    };

    std::vector<Share> shares; //!< the parts (their fractions sum to 1)
    std::vector<Limit> limits; //!< resources every part also crosses
    /// When the shares are the message's bytes sprayed evenly over those ports unit by unit
    /// (every port carries the same share of every message): the ports act as one link of
    /// their summed capacity (spraying over planes), each hop likewise.
    bool sprayPorts{false};
    uint64_t wireBytes{0};     //!< bytes on the wire for the whole message, framing included
    uint32_t unitWireBytes{0}; //!< bytes on the wire of one full unit (a hop's serialization)
    /// Messages of one endpoint with the same queue are served one after the other in post
    /// order (one FIFO); messages of different queues share the ports as flows.
    uint64_t queue{0};
    Time setup;                //!< before the first byte may leave (handshakes, packing waits)
    bool completesOnAck{true}; //!< completion waits for the acknowledgement's return
    /// From the last unit's arrival to delivery: the receiver's own pipelines (a DMA write
    /// and its commit).
    Time arrival;
    /// With completesOnAck: from delivery to completion (the acknowledgement's way back);
    /// zero: the path's latency again.
    Time ackReturn;
};

} // namespace ns3

#endif /* FABRIC_FLOW_PLAN_H */
