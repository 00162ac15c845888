/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_PACKET_H
#define FABRIC_PACKET_H

#include "fabric-message.h"

#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/simple-ref-count.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup fabric
 * \brief One transfer unit on a fabric link (a packet, a PDU, a burst, a page).
 *
 * podsim keeps exact bytes but coarse events (DESIGN.md rule 3): a transfer unit is described by
 * its fields and its size on the wire, not by serialized header bytes. Protocol modules account
 * their framing (headers, padding, flit and cell packing) in HeaderBytes; the link adds its own
 * per-frame overhead (preamble, inter-frame gap) when it serializes the unit.
 *
 * Message-level fields (source, destination, message id, offset) let the receiving endpoint
 * reassemble the message; hop-local fields are rewritten at every hop.
 */
class FabricPacket : public SimpleRefCount<FabricPacket>
{
  public:
    FabricPacket() = default;

    /// \return header plus payload bytes: what occupies a buffer and is serialized on a link
    uint32_t GetSize() const
    {
        return headerBytes + payloadBytes;
    }

    /// \return the record of the message this unit belongs to (delivery and completion unset)
    FabricMessage GetMessage() const
    {
        FabricMessage m;
        m.id = msgId;
        m.src = src;
        m.dst = dst;
        m.bytes = msgBytes;
        m.tclass = tclass;
        m.cookie = cookie;
        m.posted = posted;
        return m;
    }

    // Message-level fields, set by the sending endpoint.
    uint32_t src{0};          //!< source accelerator id
    uint32_t dst{0};          //!< destination accelerator id
    uint8_t tclass{0};        //!< traffic class (priority / virtual channel)
    uint64_t msgId{0};        //!< message id, unique per source endpoint
    uint64_t msgBytes{0};     //!< total payload bytes of the message
    uint64_t offset{0};       //!< payload offset of this unit in the message
    uint32_t payloadBytes{0}; //!< payload bytes carried
    uint32_t headerBytes{0};  //!< protocol header and framing bytes carried
    uint32_t flowHash{0};     //!< hash used for ECMP path selection
    uint64_t cookie{0};       //!< the poster's tag for the message
    Time posted;              //!< time the message was posted

    // Hop-local fields, rewritten at each hop.
    uint32_t inPort{0};  //!< ingress port index at the current switch
    uint32_t outPort{0}; //!< egress port index at the current switch (buffer accounting)
    Time tailArrival;    //!< time the last bit arrives at the current hop (cut-through bound)

    // Intrusive FIFO link used by queues (no per-packet container allocation).
    Ptr<FabricPacket> next; //!< next unit in the queue that currently holds this one
};

} // namespace ns3

#endif /* FABRIC_PACKET_H */
