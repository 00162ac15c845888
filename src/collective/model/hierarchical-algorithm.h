/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef HIERARCHICAL_ALGORITHM_H
#define HIERARCHICAL_ALGORITHM_H

#include "collective-algorithm.h"

namespace ns3
{

/**
 * \ingroup collective
 * \brief Hierarchical (two-dimensional) all-reduce: a ring inside each group of GroupSize
 * consecutive ranks, then a ring across the groups, then a ring inside each group again.
 *
 * With g ranks per group and h = n/g groups, rank r = group * g + local, and n blocks (segment l
 * is blocks [l*h, (l+1)*h)): (1) reduce-scatter of the g segments inside the group (g-1 steps);
 * (2) all-reduce of segment 'local' across the h ranks with the same local index, a ring over its
 * h blocks (2(h-1) steps); (3) all-gather of the segments inside the group (g-1 steps). Each rank
 * sends 2(g-1)/g * S + 2(h-1)/h * S/g bytes, of which only the second term crosses groups. It
 * implements all-reduce.
 */
class HierarchicalAlgorithm : public CollectiveAlgorithm
{
  public:
    static TypeId GetTypeId();
    HierarchicalAlgorithm();
    ~HierarchicalAlgorithm() override;

  private:
    void DoPrepare(const CollectiveSpec& spec) override;
    void DoGetStep(uint32_t rank, uint32_t step, std::vector<CollectiveOp>& ops) const override;
    std::string DoGetName() const override;
    uint32_t m_groupSize{0}; //!< GroupSize attribute (0: the largest divisor <= sqrt(n))
    uint32_t m_g{1};         //!< ranks per group
    uint32_t m_h{1};         //!< groups
};

} // namespace ns3

#endif /* HIERARCHICAL_ALGORITHM_H */
