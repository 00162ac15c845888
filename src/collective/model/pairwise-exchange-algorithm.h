/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PAIRWISE_EXCHANGE_ALGORITHM_H
#define PAIRWISE_EXCHANGE_ALGORITHM_H

#include "collective-algorithm.h"

namespace ns3
{

/**
 * \ingroup collective
 * \brief Pairwise-exchange all-to-all(-v): n-1 steps; in step k (k = 1..n-1) rank r sends block
 * (r, r+k) to r+k and receives block (r-k, r) from r-k (mod n). One message in each direction
 * per step, so a rank's port never carries two messages at once; (n-1) * m bytes per rank.
 */
class PairwiseExchangeAlgorithm : public CollectiveAlgorithm
{
  public:
    static TypeId GetTypeId();
    PairwiseExchangeAlgorithm();
    ~PairwiseExchangeAlgorithm() override;

  private:
    void DoPrepare(const CollectiveSpec& spec) override;
    void DoGetStep(uint32_t rank, uint32_t step, std::vector<CollectiveOp>& ops) const override;
    std::string DoGetName() const override;
};

} // namespace ns3

#endif /* PAIRWISE_EXCHANGE_ALGORITHM_H */
