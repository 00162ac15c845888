/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "collective-helper.h"

#include "ns3/bidirectional-ring-algorithm.h"
#include "ns3/boolean.h"
#include "ns3/direct-algorithm.h"
#include "ns3/dissemination-algorithm.h"
#include "ns3/double-binary-tree-algorithm.h"
#include "ns3/halving-doubling-algorithm.h"
#include "ns3/hierarchical-algorithm.h"
#include "ns3/pairwise-exchange-algorithm.h"
#include "ns3/ring-algorithm.h"

#include <stdexcept>

namespace ns3
{

CollectiveHelper::CollectiveHelper()
{
    m_executorFactory.SetTypeId("ns3::CollectiveExecutor");
}

void
CollectiveHelper::SetExecutorAttribute(std::string name, const AttributeValue& value)
{
    m_executorFactory.Set(name, value);
}

void
CollectiveHelper::SetAlgorithmAttribute(std::string name, const AttributeValue& value)
{
    m_algo.emplace_back(name, value.Copy());
}

std::vector<std::string>
CollectiveHelper::AlgorithmNames()
{
    return {"ring",
            "bidirectional-ring",
            "halving-doubling",
            "rabenseifner",
            "double-binary-tree",
            "direct",
            "pairwise",
            "hierarchical",
            "dissemination"};
}

std::string
CollectiveHelper::DefaultAlgorithm(CollectiveSpec::Type type)
{
    switch (type)
    {
    case CollectiveSpec::ALL_TO_ALL:
    case CollectiveSpec::ALL_TO_ALL_V:
        return "direct";
    case CollectiveSpec::BARRIER:
        return "dissemination";
    default:
        return "ring";
    }
}

Ptr<CollectiveAlgorithm>
CollectiveHelper::CreateAlgorithm(const std::string& name, const CollectiveSpec& spec) const
{
    Ptr<CollectiveAlgorithm> a;
    if (name == "ring")
    {
        a = CreateObject<RingAlgorithm>();
    }
    else if (name == "bidirectional-ring")
    {
        a = CreateObject<BidirectionalRingAlgorithm>();
    }
    else if (name == "halving-doubling")
    {
        a = CreateObject<HalvingDoublingAlgorithm>();
    }
    else if (name == "rabenseifner")
    {
        a = CreateObject<HalvingDoublingAlgorithm>();
        a->SetAttribute("FoldNonPowerOfTwo", BooleanValue(true));
    }
    else if (name == "double-binary-tree")
    {
        a = CreateObject<DoubleBinaryTreeAlgorithm>();
    }
    else if (name == "direct")
    {
        a = CreateObject<DirectAlgorithm>();
    }
    else if (name == "pairwise")
    {
        a = CreateObject<PairwiseExchangeAlgorithm>();
    }
    else if (name == "hierarchical")
    {
        a = CreateObject<HierarchicalAlgorithm>();
    }
    else if (name == "dissemination")
    {
        a = CreateObject<DisseminationAlgorithm>();
    }
    else
    {
        throw std::invalid_argument("unknown algorithm '" + name + "'");
    }
    for (const auto& [attr, value] : m_algo)
    {
        a->SetAttributeFailSafe(attr, *value);
    }
    a->Prepare(spec);
    return a;
}

Ptr<CollectiveExecutor>
CollectiveHelper::Install(Ptr<CollectiveDispatcher> dispatcher,
                          CollectiveSpec spec,
                          const std::string& algorithm,
                          const std::vector<Ptr<FabricEndpoint>>& group) const
{
    spec.ranks = group.size();
    Ptr<CollectiveAlgorithm> a = CreateAlgorithm(algorithm, spec);
    Ptr<CollectiveExecutor> e = m_executorFactory.Create<CollectiveExecutor>();
    const uint32_t id = dispatcher->Register(e);
    e->Setup(a, group, id);
    return e;
}

} // namespace ns3
