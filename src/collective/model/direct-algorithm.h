/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DIRECT_ALGORITHM_H
#define DIRECT_ALGORITHM_H

#include "collective-algorithm.h"

namespace ns3
{

/**
 * \ingroup collective
 * \brief Direct (one-shot) algorithms: every rank talks to every other rank in one step.
 *
 * - all-to-all(-v): rank r sends block (r, d) to every d != r, in the staggered order r+1, r+2,
 *   ... (mod n), and receives from all; one step, (n-1) * m bytes per rank.
 * - reduce-scatter: rank r sends block d to rank d and reduces the n-1 blocks r it receives;
 *   all-gather: rank r sends its block to all; all-reduce: both (2 steps, 2(n-1)/n * S).
 * - broadcast: the root sends the buffer to every rank; reduce: every rank sends it to the root.
 * - barrier: every rank sends 1 byte to every other one.
 */
class DirectAlgorithm : public CollectiveAlgorithm
{
  public:
    static TypeId GetTypeId();
    DirectAlgorithm();
    ~DirectAlgorithm() override;

  private:
    void DoPrepare(const CollectiveSpec& spec) override;
    void DoGetStep(uint32_t rank, uint32_t step, std::vector<CollectiveOp>& ops) const override;
    std::string DoGetName() const override;
};

} // namespace ns3

#endif /* DIRECT_ALGORITHM_H */
