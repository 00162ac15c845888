/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef COLLECTIVE_OP_H
#define COLLECTIVE_OP_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup collective
 * \brief One operation of one step of a rank's schedule: a send, or a receive that copies or
 * reduces into the local buffer.
 *
 * Data is addressed in blocks: the algorithm cuts the collective's data into blocks (see
 * CollectiveAlgorithm::GetNBlocks) and every operation moves a contiguous range of them. A send
 * of step k from rank a to rank b with tag t matches the receive of step k at rank b from rank a
 * with tag t; both carry the same range, hence the same bytes.
 */
struct CollectiveOp
{
    /// Kind of operation.
    enum Kind : uint8_t
    {
        SEND,        //!< send the blocks to the peer
        RECV_COPY,   //!< receive the blocks from the peer and overwrite the local ones
        RECV_REDUCE, //!< receive the blocks from the peer and reduce them into the local ones
    };

    Kind kind{SEND};        //!< kind
    uint8_t tag{0};         //!< tells apart two messages between the same ranks in one step
    uint32_t peer{0};       //!< the other rank (communicator rank, not accelerator id)
    uint32_t blockBegin{0}; //!< first block
    uint32_t blockCount{0}; //!< number of blocks (0: a 1-byte synchronization message)
    uint64_t bytes{0};      //!< bytes of the blocks (filled by CollectiveAlgorithm::GetStep)

    /// \return true for either receive kind
    bool IsRecv() const
    {
        return kind != SEND;
    }
};

} // namespace ns3

#endif /* COLLECTIVE_OP_H */
