/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef BIDIRECTIONAL_RING_ALGORITHM_H
#define BIDIRECTIONAL_RING_ALGORITHM_H

#include "collective-algorithm.h"
#include "logical-ring.h"

namespace ns3
{

/**
 * \ingroup collective
 * \brief Two rings in opposite directions, each carrying half of the data.
 *
 * Blocks 2r (clockwise ring 0, 1, ..., n-1, tag 0) and 2r+1 (counter-clockwise ring 0, n-1, ...,
 * 1, tag 1) form rank r's segment. Every step runs one step of RingAlgorithm on each ring at
 * once, so both directions of every link carry data: the same 2(n-1)/n * S bytes per rank as the
 * ring all-reduce in the same 2(n-1) steps, each moving half as much per direction.
 */
class BidirectionalRingAlgorithm : public CollectiveAlgorithm
{
  public:
    static TypeId GetTypeId();
    BidirectionalRingAlgorithm();
    ~BidirectionalRingAlgorithm() override;

  private:
    void DoPrepare(const CollectiveSpec& spec) override;
    void DoGetStep(uint32_t rank, uint32_t step, std::vector<CollectiveOp>& ops) const override;
    std::string DoGetName() const override;
    LogicalRing m_cw;                 //!< clockwise ring
    LogicalRing m_ccw;                //!< counter-clockwise ring
    std::vector<uint32_t> m_cwBlock;  //!< first clockwise block of each rank
    std::vector<uint32_t> m_ccwBlock; //!< first counter-clockwise block of each rank
};

} // namespace ns3

#endif /* BIDIRECTIONAL_RING_ALGORITHM_H */
