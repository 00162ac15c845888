/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "hierarchical-algorithm.h"

#include "logical-ring.h"
#include "ring-algorithm.h"

#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HierarchicalAlgorithm");
NS_OBJECT_ENSURE_REGISTERED(HierarchicalAlgorithm);

HierarchicalAlgorithm::HierarchicalAlgorithm()
{
    NS_LOG_FUNCTION(this);
}

HierarchicalAlgorithm::~HierarchicalAlgorithm()
{
    NS_LOG_FUNCTION(this);
}

std::string
HierarchicalAlgorithm::DoGetName() const
{
    return "hierarchical";
}

TypeId
HierarchicalAlgorithm::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::HierarchicalAlgorithm")
            .SetParent<CollectiveAlgorithm>()
            .SetGroupName("Collective")
            .AddConstructor<HierarchicalAlgorithm>()
            .AddAttribute("GroupSize",
                          "Ranks per group (consecutive ranks), a divisor of the communicator "
                          "size; 0 picks the largest divisor not above sqrt(n) (ranks).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&HierarchicalAlgorithm::m_groupSize),
                          MakeUintegerChecker<uint32_t>());
    return tid;
}

void
HierarchicalAlgorithm::DoPrepare(const CollectiveSpec& spec)
{
    if (spec.type != CollectiveSpec::ALL_REDUCE)
    {
        Unsupported("all-reduce");
    }
    const uint32_t n = spec.ranks;
    uint32_t g = m_groupSize;
    if (g == 0)
    {
        g = 1;
        for (uint32_t d = 1; uint64_t(d) * d <= n; ++d)
        {
            if (n % d == 0)
            {
                g = d;
            }
        }
    }
    if (g > n || n % g != 0)
    {
        throw std::invalid_argument("hierarchical group size " + std::to_string(g) +
                                    " does not divide the " + std::to_string(n) + " ranks");
    }
    m_g = g;
    m_h = n / g;
    SetShape(n, 2 * (m_g - 1) + 2 * (m_h - 1));
}

void
HierarchicalAlgorithm::DoGetStep(uint32_t rank, uint32_t step, std::vector<CollectiveOp>& ops) const
{
    const uint32_t g = m_g;
    const uint32_t h = m_h;
    const uint32_t group = rank / g;
    const uint32_t local = rank % g;
    // Rings over communicator ranks: inside this group, and across groups at this local index.
    std::vector<uint32_t> intra(g);
    for (uint32_t l = 0; l < g; ++l)
    {
        intra[l] = group * g + l;
    }
    std::vector<uint32_t> inter(h);
    for (uint32_t j = 0; j < h; ++j)
    {
        inter[j] = j * g + local;
    }
    // Block starts of each segment, indexed by the position in the ring: a ring works on ranks
    // 0..size-1, so the rings below use positions and map them back to communicator ranks.
    auto run = [&](const std::vector<uint32_t>& members,
                   uint32_t self,
                   uint32_t k,
                   bool reduce,
                   const std::vector<uint32_t>& blockOf,
                   uint32_t perSegment) {
        LogicalRing ring(members.size());
        std::vector<CollectiveOp> tmp;
        if (reduce)
        {
            RingAlgorithm::ReduceScatterStep(ring, self, k, blockOf, perSegment, tmp, 0);
        }
        else
        {
            RingAlgorithm::AllGatherStep(ring, self, k, blockOf, perSegment, tmp, 0);
        }
        for (auto& op : tmp)
        {
            op.peer = members[op.peer];
            ops.push_back(op);
        }
    };
    std::vector<uint32_t> segments(g);
    for (uint32_t l = 0; l < g; ++l)
    {
        segments[l] = l * h;
    }
    std::vector<uint32_t> sub(h);
    for (uint32_t j = 0; j < h; ++j)
    {
        sub[j] = local * h + j;
    }
    uint32_t k = step;
    if (k < g - 1)
    {
        run(intra, local, k, true, segments, h);
        return;
    }
    k -= g - 1;
    if (k < h - 1)
    {
        run(inter, group, k, true, sub, 1);
        return;
    }
    k -= h - 1;
    if (k < h - 1)
    {
        run(inter, group, k, false, sub, 1);
        return;
    }
    k -= h - 1;
    run(intra, local, k, false, segments, h);
}

} // namespace ns3
