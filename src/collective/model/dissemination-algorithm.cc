/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "dissemination-algorithm.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DisseminationAlgorithm");
NS_OBJECT_ENSURE_REGISTERED(DisseminationAlgorithm);

DisseminationAlgorithm::DisseminationAlgorithm()
{
    NS_LOG_FUNCTION(this);
}

DisseminationAlgorithm::~DisseminationAlgorithm()
{
    NS_LOG_FUNCTION(this);
}

std::string
DisseminationAlgorithm::DoGetName() const
{
    return "dissemination";
}

TypeId
DisseminationAlgorithm::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DisseminationAlgorithm")
                            .SetParent<CollectiveAlgorithm>()
                            .SetGroupName("Collective")
                            .AddConstructor<DisseminationAlgorithm>();
    return tid;
}

void
DisseminationAlgorithm::DoPrepare(const CollectiveSpec& spec)
{
    if (spec.type != CollectiveSpec::BARRIER)
    {
        Unsupported("barrier");
    }
    uint32_t rounds = 0;
    while ((uint64_t(1) << rounds) < spec.ranks)
    {
        ++rounds;
    }
    SetShape(0, rounds);
}

void
DisseminationAlgorithm::DoGetStep(uint32_t rank,
                                  uint32_t step,
                                  std::vector<CollectiveOp>& ops) const
{
    const uint32_t n = m_spec.ranks;
    const uint32_t d = (1u << step) % n;
    Send(ops, (rank + d) % n, 0, 0);
    Recv(ops, (rank + n - d) % n, 0, 0, false);
}

} // namespace ns3
