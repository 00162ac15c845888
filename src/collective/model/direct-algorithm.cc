/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "direct-algorithm.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DirectAlgorithm");
NS_OBJECT_ENSURE_REGISTERED(DirectAlgorithm);

DirectAlgorithm::DirectAlgorithm()
{
    NS_LOG_FUNCTION(this);
}

DirectAlgorithm::~DirectAlgorithm()
{
    NS_LOG_FUNCTION(this);
}

std::string
DirectAlgorithm::DoGetName() const
{
    return "direct";
}

TypeId
DirectAlgorithm::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DirectAlgorithm")
                            .SetParent<CollectiveAlgorithm>()
                            .SetGroupName("Collective")
                            .AddConstructor<DirectAlgorithm>();
    return tid;
}

void
DirectAlgorithm::DoPrepare(const CollectiveSpec& spec)
{
    const uint32_t n = spec.ranks;
    switch (spec.type)
    {
    case CollectiveSpec::ALL_REDUCE:
        SetShape(n, n > 1 ? 2 : 0);
        break;
    case CollectiveSpec::REDUCE_SCATTER:
    case CollectiveSpec::ALL_GATHER:
        SetShape(n, n > 1 ? 1 : 0);
        break;
    case CollectiveSpec::BROADCAST:
    case CollectiveSpec::REDUCE:
        SetShape(1, n > 1 ? 1 : 0);
        break;
    case CollectiveSpec::ALL_TO_ALL:
    case CollectiveSpec::ALL_TO_ALL_V:
        SetShape(n * n, n > 1 ? 1 : 0);
        break;
    case CollectiveSpec::BARRIER:
        SetShape(0, n > 1 ? 1 : 0);
        break;
    }
}

void
DirectAlgorithm::DoGetStep(uint32_t rank, uint32_t step, std::vector<CollectiveOp>& ops) const
{
    const uint32_t n = m_spec.ranks;
    const uint32_t root = m_spec.root;
    for (uint32_t j = 1; j < n; ++j)
    {
        const uint32_t to = (rank + j) % n;
        const uint32_t from = (rank + n - j) % n;
        switch (m_spec.type)
        {
        case CollectiveSpec::ALL_REDUCE:
            if (step == 0)
            {
                Send(ops, to, to, 1);
                Recv(ops, from, rank, 1, true);
            }
            else
            {
                Send(ops, to, rank, 1);
                Recv(ops, from, from, 1, false);
            }
            break;
        case CollectiveSpec::REDUCE_SCATTER:
            Send(ops, to, to, 1);
            Recv(ops, from, rank, 1, true);
            break;
        case CollectiveSpec::ALL_GATHER:
            Send(ops, to, rank, 1);
            Recv(ops, from, from, 1, false);
            break;
        case CollectiveSpec::BROADCAST:
            if (rank == root)
            {
                Send(ops, to, 0, 1);
            }
            else if (from == root)
            {
                Recv(ops, root, 0, 1, false);
            }
            break;
        case CollectiveSpec::REDUCE:
            if (to == root)
            {
                Send(ops, root, 0, 1);
            }
            if (rank == root)
            {
                Recv(ops, from, 0, 1, true);
            }
            break;
        case CollectiveSpec::ALL_TO_ALL:
        case CollectiveSpec::ALL_TO_ALL_V:
            Send(ops, to, rank * n + to, 1);
            Recv(ops, from, from * n + rank, 1, false);
            break;
        case CollectiveSpec::BARRIER:
            Send(ops, to, 0, 0);
            Recv(ops, from, 0, 0, false);
            break;
        }
    }
}

} // namespace ns3
