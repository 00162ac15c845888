/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_TX_GATE_H
#define FABRIC_TX_GATE_H

#include "fabric-packet.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup fabric
 * \brief What a transmit queue asks before it hands a unit to a port: may a unit of this class,
 * size and destination leave now?
 *
 * Flow control (PFC pauses, credits) and transports (a window per connection) implement it. A
 * queue skips a class whose head unit the gate refuses (the other classes keep flowing), and
 * returns nothing when every non-empty class is refused; the gate's owner wakes the port when
 * the answer changes.
 */
class FabricTxGate
{
  public:
    virtual ~FabricTxGate() = default;

    /**
     * \param tclass traffic class (PFC priority, virtual channel)
     * \param bytes frame bytes of the unit (header plus payload)
     * \param dst destination accelerator of the unit
     * \return true if the unit may be transmitted now
     */
    virtual bool CanSend(uint8_t tclass, uint32_t bytes, uint32_t dst) const = 0;

    /**
     * The question asked with the unit itself, for gates that count more than its bytes (credit
     * flow control counting a cell fabric's cells). By default CanSend with the unit's size and
     * destination.
     * \param tclass traffic class (PFC priority, virtual channel)
     * \param p the unit
     * \return true if the unit may be transmitted now
     */
    virtual bool CanSendUnit(uint8_t tclass, const FabricPacket& p) const
    {
        return CanSend(tclass, p.GetSize(), p.dst);
    }
};

} // namespace ns3

#endif /* FABRIC_TX_GATE_H */
