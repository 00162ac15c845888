/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pairwise-exchange-algorithm.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PairwiseExchangeAlgorithm");
NS_OBJECT_ENSURE_REGISTERED(PairwiseExchangeAlgorithm);

PairwiseExchangeAlgorithm::PairwiseExchangeAlgorithm()
{
    NS_LOG_FUNCTION(this);
}

PairwiseExchangeAlgorithm::~PairwiseExchangeAlgorithm()
{
    NS_LOG_FUNCTION(this);
}

std::string
PairwiseExchangeAlgorithm::DoGetName() const
{
    return "pairwise";
}

TypeId
PairwiseExchangeAlgorithm::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PairwiseExchangeAlgorithm")
                            .SetParent<CollectiveAlgorithm>()
                            .SetGroupName("Collective")
                            .AddConstructor<PairwiseExchangeAlgorithm>();
    return tid;
}

void
PairwiseExchangeAlgorithm::DoPrepare(const CollectiveSpec& spec)
{
    if (spec.type != CollectiveSpec::ALL_TO_ALL && spec.type != CollectiveSpec::ALL_TO_ALL_V)
    {
        Unsupported("all-to-all, all-to-all-v");
    }
    SetShape(spec.ranks * spec.ranks, spec.ranks - 1);
}

void
PairwiseExchangeAlgorithm::DoGetStep(uint32_t rank,
                                     uint32_t step,
                                     std::vector<CollectiveOp>& ops) const
{
    const uint32_t n = m_spec.ranks;
    const uint32_t k = step + 1;
    const uint32_t to = (rank + k) % n;
    const uint32_t from = (rank + n - k) % n;
    Send(ops, to, rank * n + to, 1);
    Recv(ops, from, from * n + rank, 1, false);
}

} // namespace ns3
