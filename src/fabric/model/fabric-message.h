/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_MESSAGE_H
#define FABRIC_MESSAGE_H

#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup fabric
 * \brief A message of the endpoint API, as reported to delivery and completion callbacks.
 */
struct FabricMessage
{
    uint64_t id{0};     //!< message id, unique per source endpoint
    uint32_t src{0};    //!< source accelerator
    uint32_t dst{0};    //!< destination accelerator
    uint64_t bytes{0};  //!< payload bytes
    uint8_t tclass{0};  //!< traffic class
    uint64_t cookie{0}; //!< caller's tag, returned unchanged in callbacks
    Time posted;        //!< when the sender posted it
    Time delivered;     //!< when the last byte reached the receiver (zero until then)
    Time completed;     //!< when the sender was told it completed (zero until then)
};

} // namespace ns3

#endif /* FABRIC_MESSAGE_H */
