/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_MESSAGE_SUPPLY_H
#define FABRIC_MESSAGE_SUPPLY_H

#include "fabric-message.h"

#include "ns3/simple-ref-count.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup fabric
 * \brief Messages a workload planned for one source endpoint, handed out one at a time in their
 * planned order (lazy posting, FabricEndpoint::PostLazily).
 *
 * Every message of a supply has the same traffic class. A message taken with Next() is posted
 * by the endpoint as Send() posts it, with the post time the supply gives (the time the
 * workload posted it), so that the endpoint does not hold a record of every planned message
 * from the start.
 */
class FabricMessageSupply : public SimpleRefCount<FabricMessageSupply>
{
  public:
    virtual ~FabricMessageSupply() = default;

    /// \return messages not handed out yet
    virtual uint64_t GetRemaining() const = 0;

    /// \return payload bytes of the messages not handed out yet
    virtual uint64_t GetRemainingBytes() const = 0;

    /// \return the traffic class of every message of the supply
    virtual uint8_t GetTclass() const = 0;

    /**
     * Take the next message.
     * \param[out] m its destination, bytes, class, cookie and post time
     * \return false if none is left (m untouched)
     */
    virtual bool Next(FabricMessage& m) = 0;
};

} // namespace ns3

#endif /* FABRIC_MESSAGE_SUPPLY_H */
