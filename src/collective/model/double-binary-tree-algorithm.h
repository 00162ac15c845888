/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DOUBLE_BINARY_TREE_ALGORITHM_H
#define DOUBLE_BINARY_TREE_ALGORITHM_H

#include "collective-algorithm.h"
#include "logical-tree.h"

namespace ns3
{

/**
 * \ingroup collective
 * \brief Double binary tree all-reduce: two LogicalTree over the ranks (shift 0 and n-1),
 * each reducing then broadcasting half of the data (block 0 on tree A with tag 0, block 1 on
 * tree B with tag 1).
 *
 * Steps are aligned rounds, H = the larger tree height: in round t < H a rank at depth d >= 1
 * sends its block to its parent when t = H_T - d and receives (reduces) from its children when
 * t = H_T - d - 1 (H_T: that tree's height); in round H + d - 1 it receives the result from its
 * parent and in round H + d sends it to its children. 2H steps; with chunks the trees are
 * pipelined. Per rank and tree it sends S/2 to its parent (unless root) and S/2 to each child.
 */
class DoubleBinaryTreeAlgorithm : public CollectiveAlgorithm
{
  public:
    static TypeId GetTypeId();
    DoubleBinaryTreeAlgorithm();
    ~DoubleBinaryTreeAlgorithm() override;

  private:
    void DoPrepare(const CollectiveSpec& spec) override;
    void DoGetStep(uint32_t rank, uint32_t step, std::vector<CollectiveOp>& ops) const override;
    std::string DoGetName() const override;
    LogicalTree m_trees[2]; //!< tree A and tree B
    uint32_t m_height{0};   //!< the larger height
};

} // namespace ns3

#endif /* DOUBLE_BINARY_TREE_ALGORITHM_H */
