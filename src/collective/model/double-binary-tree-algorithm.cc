/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "double-binary-tree-algorithm.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DoubleBinaryTreeAlgorithm");
NS_OBJECT_ENSURE_REGISTERED(DoubleBinaryTreeAlgorithm);

DoubleBinaryTreeAlgorithm::DoubleBinaryTreeAlgorithm()
{
    NS_LOG_FUNCTION(this);
}

DoubleBinaryTreeAlgorithm::~DoubleBinaryTreeAlgorithm()
{
    NS_LOG_FUNCTION(this);
}

std::string
DoubleBinaryTreeAlgorithm::DoGetName() const
{
    return "double-binary-tree";
}

TypeId
DoubleBinaryTreeAlgorithm::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DoubleBinaryTreeAlgorithm")
                            .SetParent<CollectiveAlgorithm>()
                            .SetGroupName("Collective")
                            .AddConstructor<DoubleBinaryTreeAlgorithm>();
    return tid;
}

void
DoubleBinaryTreeAlgorithm::DoPrepare(const CollectiveSpec& spec)
{
    if (spec.type != CollectiveSpec::ALL_REDUCE)
    {
        Unsupported("all-reduce");
    }
    const uint32_t n = spec.ranks;
    m_trees[0] = LogicalTree(n, 0);
    m_trees[1] = LogicalTree(n, n - 1);
    m_height = std::max(m_trees[0].GetHeight(), m_trees[1].GetHeight());
    SetShape(2, 2 * m_height);
}

void
DoubleBinaryTreeAlgorithm::DoGetStep(uint32_t rank,
                                     uint32_t step,
                                     std::vector<CollectiveOp>& ops) const
{
    const uint32_t h = m_height;
    for (uint8_t t = 0; t < 2; ++t)
    {
        const LogicalTree& tree = m_trees[t];
        const uint32_t d = tree.GetDepth(rank);
        const uint32_t ht = tree.GetHeight();
        const auto& children = tree.GetChildren(rank);
        if (step < h)
        {
            // Reduce toward the root.
            if (!children.empty() && d + 1 + step == ht)
            {
                for (uint32_t c : children)
                {
                    Recv(ops, c, t, 1, true, t);
                }
            }
            if (d >= 1 && step + d == ht)
            {
                Send(ops, tree.GetParent(rank), t, 1, t);
            }
        }
        else
        {
            // Broadcast from the root.
            if (d >= 1 && step == h + d - 1)
            {
                Recv(ops, tree.GetParent(rank), t, 1, false, t);
            }
            if (step == h + d)
            {
                for (uint32_t c : children)
                {
                    Send(ops, c, t, 1, t);
                }
            }
        }
    }
}

} // namespace ns3
