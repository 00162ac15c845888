/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DISSEMINATION_ALGORITHM_H
#define DISSEMINATION_ALGORITHM_H

#include "collective-algorithm.h"

namespace ns3
{

/**
 * \ingroup collective
 * \brief Dissemination barrier: ceil(log2 n) rounds; in round k rank r sends one byte to
 * r + 2^k and waits for one from r - 2^k (mod n). After the last round every rank has heard,
 * directly or not, from every other one.
 */
class DisseminationAlgorithm : public CollectiveAlgorithm
{
  public:
    static TypeId GetTypeId();
    DisseminationAlgorithm();
    ~DisseminationAlgorithm() override;

  private:
    void DoPrepare(const CollectiveSpec& spec) override;
    void DoGetStep(uint32_t rank, uint32_t step, std::vector<CollectiveOp>& ops) const override;
    std::string DoGetName() const override;
};

} // namespace ns3

#endif /* DISSEMINATION_ALGORITHM_H */
