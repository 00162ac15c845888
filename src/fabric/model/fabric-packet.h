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
#include <memory>
#include <vector>

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
    /// What a unit is. Link-level control frames (PFC pause, credit return, LLR ACK/NAK) are
    /// consumed by the device that receives them; transport ACKs travel end to end like data.
    enum Kind : uint8_t
    {
        DATA,          //!< a data unit of a message
        PFC_PAUSE,     //!< IEEE 802.1Qbb per-priority pause: ctrlClass, ctrlValue = quanta
        CREDIT,        //!< credit return: ctrlClass = VC, ctrlValue/ctrlValue2 = cumulative credits
        LLR_ACK,       //!< link-level retry cumulative ACK: ctrlValue = next expected sequence
        LLR_NAK,       //!< link-level retry replay request: ctrlValue = first sequence to replay
        LLR_SYNC,      //!< link-level retry: nothing was sent from ctrlValue on (answers a NAK
                       //!< that a corrupted control frame caused)
        TRANSPORT_ACK, //!< end-to-end transport ACK/NACK (go-back-N), routed like data
    };

    /// A piece of one message carried by a unit that packs several (SUE packing, SUE RM102
    /// section 4.4): the unit's message-level fields describe the first piece.
    struct Segment
    {
        uint64_t msgId{0};    //!< message id (unique per source)
        uint64_t msgBytes{0}; //!< total payload bytes of the message
        uint64_t offset{0};   //!< payload offset of the piece in the message
        uint64_t cookie{0};   //!< the poster's tag
        Time posted;          //!< when the message was posted
        uint32_t bytes{0};    //!< payload bytes of the piece
        uint8_t tclass{0};    //!< the message's class
        uint8_t op{0};        //!< protocol operation (SUE: 0 write, 1 read request, 2 read
                              //!< response); a unit with op != 0 always lists its segments
        uint32_t src{0};      //!< protocols whose units mix peers (UALink bursts): source
        uint32_t dst{0};      //!< ... and destination accelerator of the piece
        uint32_t aux{0};      //!< protocol field (UALink: tag, status, ingress port)
    };

    FabricPacket() = default;

    /// \return true for link-level control frames, consumed by the receiving device
    bool IsLinkControl() const
    {
        return kind != DATA && kind != TRANSPORT_ACK;
    }

    /**
     * Call \p f with every piece of a message this unit carries: its segments, or the one
     * piece its message-level fields describe.
     * \tparam F callable taking a const Segment&
     * \param f the callable
     */
    template <typename F>
    void ForEachSegment(F&& f) const
    {
        if (segments)
        {
            for (const Segment& s : *segments)
            {
                f(s);
            }
            return;
        }
        Segment s;
        s.msgId = msgId;
        s.msgBytes = msgBytes;
        s.offset = offset;
        s.cookie = cookie;
        s.posted = posted;
        s.bytes = payloadBytes;
        s.tclass = tclass;
        f(s);
    }

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

    // Layout (performance.rst, "What the code does for speed"): the fields every hop reads
    // (routing, size, ports, queue link, cut-through bound) fill the first 64 bytes, the 4-byte and
    // 1-byte fields packed after the reference count; then the control, message-level and
    // transport fields. 184 bytes, without padding holes (200 before).
    uint32_t src{0};          //!< source accelerator id (set by the sending endpoint)
    uint32_t dst{0};          //!< destination accelerator id
    uint32_t payloadBytes{0}; //!< payload bytes carried
    uint32_t headerBytes{0};  //!< protocol header and framing bytes carried
    uint32_t flowHash{0};     //!< hash used for ECMP path selection
    uint32_t inPort{0};       //!< ingress port index at the current switch (rewritten per hop)
    uint32_t outPort{0};      //!< egress port index at the current switch (buffer accounting)
    uint32_t poolCredits{0};  //!< credit flow control: shared-pool credits this unit consumed
    Kind kind{DATA};          //!< what the unit is
    uint8_t tclass{0};        //!< traffic class (priority / virtual channel)
    uint8_t ctrlClass{0};     //!< control frames: the class or VC the frame is about
    bool hasAck{false};       //!< transport: ackPsn is valid (piggybacked or standalone ACK)
    bool isNack{false};       //!< transport: ackPsn is a NACK (go back to it)
    uint8_t ackVc{0};         //!< transport: traffic class of the connection ackPsn belongs to
    Time tailArrival;         //!< time the last bit arrives at the current hop (cut-through bound)
    /// Intrusive FIFO link used by queues (no per-packet container allocation): the next unit
    /// in the queue that currently holds this one.
    Ptr<FabricPacket> next;
    /// A source route carried in the unit's header and rewritten at each hop, for switches
    /// that forward by it (RIFL Layer 2: Total / Remain Hops and five Dst Port bytes, packed by
    /// RiflSourceRouting); 0 when the unit is routed by the switches' tables.
    uint64_t sourceRoute{0};
    uint64_t linkSeq{0};    //!< link-level retry sequence number on the current link
    uint64_t ctrlValue{0};  //!< control frames: quanta, cumulative credits or a sequence number
    uint64_t ctrlValue2{0}; //!< control frames: cumulative shared-pool credits

    // Message-level fields, set by the sending endpoint.
    uint64_t msgId{0};    //!< message id, unique per source endpoint
    uint64_t msgBytes{0}; //!< total payload bytes of the message
    uint64_t offset{0};   //!< payload offset of this unit in the message
    uint64_t cookie{0};   //!< the poster's tag for the message
    Time posted;          //!< time the message was posted

    // End-to-end transport fields.
    Time sentAt;                   //!< transport: when the unit was first sent (RTT samples)
    uint64_t psn{0};               //!< transport packet sequence number (go-back-N)
    uint64_t ackPsn{0};            //!< transport: cumulative ACK (next expected PSN) or NACKed PSN
    Ptr<FabricPacket> unackedNext; //!< transport sender: next unacknowledged unit of the
                                   //!< same connection (its retransmission list)
    /// Every piece, in order, when the unit packs pieces of several messages (null when it
    /// carries one piece, described by the message-level fields); shared by copies.
    std::shared_ptr<const std::vector<Segment>> segments;
};

/*
 * Units are dereferenced and copied some thirty times per unit and hop, and ns-3's Ptr checks for
 * a null pointer at every dereference and for an overflowing count at every copy
 * (NS_ASSERT_MSG, compiled in: NS3_ASSERT_ENABLE). The checks keep GCC from inlining the
 * operators, which cost 5% of the SUE benchmark's instructions as out-of-line calls
 * (src/pod/doc/performance.rst, What the code does for speed). For this one
 * type they are replaced by the plain operations; a null unit is still a fault (and an error in the
 * sanitizer build).
 */

/// \return the unit (no null check)
template <>
inline FabricPacket*
Ptr<FabricPacket>::operator->() const
{
    return m_ptr;
}

/// \return the unit (no null check)
template <>
inline FabricPacket*
Ptr<FabricPacket>::operator->()
{
    return m_ptr;
}

/// \return the unit (no null check)
template <>
inline FabricPacket&
Ptr<FabricPacket>::operator*() const
{
    return *m_ptr;
}

/// \return the unit (no null check)
template <>
inline FabricPacket&
Ptr<FabricPacket>::operator*()
{
    return *m_ptr;
}

/// Take a reference (no overflow check: a count of 2^32 units would not fit in memory).
template <>
inline void
SimpleRefCount<FabricPacket>::Ref() const
{
    m_count++;
}

/// Release the reference (the unit is deleted with its last handle).
template <>
inline Ptr<FabricPacket>::~Ptr()
{
    if (m_ptr)
    {
        m_ptr->Unref();
    }
}

/// \return this handle, now to the unit of \p o (taken before the old one is released, so
/// that assigning a handle to itself keeps the unit)
template <>
inline Ptr<FabricPacket>&
Ptr<FabricPacket>::operator=(const Ptr& o)
{
    FabricPacket* old = m_ptr;
    m_ptr = o.m_ptr;
    if (m_ptr)
    {
        m_ptr->Ref();
    }
    if (old)
    {
        old->Unref();
    }
    return *this;
}

} // namespace ns3

#endif /* FABRIC_PACKET_H */
