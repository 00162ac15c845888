/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RING_ALGORITHM_H
#define RING_ALGORITHM_H

#include "collective-algorithm.h"
#include "logical-ring.h"

namespace ns3
{

/**
 * \ingroup collective
 * \brief Ring algorithms on a LogicalRing: all-reduce, reduce-scatter, all-gather, and the
 * pipelined chain for broadcast and reduce.
 *
 * With n ranks and n blocks (block b is rank b's segment), at position p:
 * - reduce-scatter, step k = 0..n-2: send block at position p-k-1 to the next rank, receive the
 *   block at position p-k-2 from the previous one and reduce it; rank r ends with block r
 *   reduced. Each rank sends (n-1)/n * S.
 * - all-gather, step k = 0..n-2: send block at position p-k, receive (copy) block p-k-1.
 * - all-reduce: reduce-scatter then all-gather, 2(n-1) steps, 2(n-1)/n * S per rank.
 * - broadcast: a chain from the root (n-1 steps, one block); reduce: the chain reversed into
 *   the root. With chunks (CollectiveExecutor's Chunks) the chain is pipelined.
 */
class RingAlgorithm : public CollectiveAlgorithm
{
  public:
    static TypeId GetTypeId();
    RingAlgorithm();
    ~RingAlgorithm() override;

    /**
     * Append the ops of one reduce-scatter step on a ring, blocks chosen per position.
     * \param ring the ring
     * \param rank this rank
     * \param k step within the phase
     * \param blockOf block range start of the segment owned by a rank
     * \param blocksPerSegment blocks per segment
     * \param ops the step
     * \param tag tag
     */
    static void ReduceScatterStep(const LogicalRing& ring,
                                  uint32_t rank,
                                  uint32_t k,
                                  const std::vector<uint32_t>& blockOf,
                                  uint32_t blocksPerSegment,
                                  std::vector<CollectiveOp>& ops,
                                  uint8_t tag);

    /**
     * Append the ops of one all-gather step on a ring.
     * \param ring the ring
     * \param rank this rank
     * \param k step within the phase
     * \param blockOf block range start of the segment owned by a rank
     * \param blocksPerSegment blocks per segment
     * \param ops the step
     * \param tag tag
     */
    static void AllGatherStep(const LogicalRing& ring,
                              uint32_t rank,
                              uint32_t k,
                              const std::vector<uint32_t>& blockOf,
                              uint32_t blocksPerSegment,
                              std::vector<CollectiveOp>& ops,
                              uint8_t tag);

  private:
    void DoPrepare(const CollectiveSpec& spec) override;
    void DoGetStep(uint32_t rank, uint32_t step, std::vector<CollectiveOp>& ops) const override;
    std::string DoGetName() const override;

    LogicalRing m_ring;              //!< the ring
    std::vector<uint32_t> m_blockOf; //!< first block of each rank's segment
};

} // namespace ns3

#endif /* RING_ALGORITHM_H */
