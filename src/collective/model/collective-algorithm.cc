/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "collective-algorithm.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CollectiveAlgorithm");
NS_OBJECT_ENSURE_REGISTERED(CollectiveAlgorithm);

TypeId
CollectiveAlgorithm::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CollectiveAlgorithm").SetParent<Object>().SetGroupName("Collective");
    return tid;
}

CollectiveAlgorithm::CollectiveAlgorithm()
{
    NS_LOG_FUNCTION(this);
}

CollectiveAlgorithm::~CollectiveAlgorithm()
{
    NS_LOG_FUNCTION(this);
}

void
CollectiveAlgorithm::Prepare(const CollectiveSpec& spec)
{
    NS_LOG_FUNCTION(this << CollectiveSpec::TypeName(spec.type) << spec.ranks << spec.bytes);
    if (spec.ranks == 0)
    {
        throw std::invalid_argument("a communicator needs at least one rank");
    }
    if ((spec.type == CollectiveSpec::BROADCAST || spec.type == CollectiveSpec::REDUCE) &&
        spec.root >= spec.ranks)
    {
        throw std::invalid_argument("root " + std::to_string(spec.root) +
                                    " is not a rank of the group (" + std::to_string(spec.ranks) +
                                    " ranks)");
    }
    if (spec.type == CollectiveSpec::ALL_TO_ALL_V &&
        spec.sizes.size() != static_cast<uint64_t>(spec.ranks) * spec.ranks)
    {
        throw std::invalid_argument(
            "an all-to-all-v needs n*n = " + std::to_string(uint64_t(spec.ranks) * spec.ranks) +
            " sizes (got " + std::to_string(spec.sizes.size()) + ")");
    }
    m_spec = spec;
    DoPrepare(spec);
    m_prepared = true;
}

const CollectiveSpec&
CollectiveAlgorithm::GetSpec() const
{
    return m_spec;
}

std::string
CollectiveAlgorithm::GetName() const
{
    return DoGetName();
}

uint32_t
CollectiveAlgorithm::GetNSteps() const
{
    return m_nSteps;
}

uint32_t
CollectiveAlgorithm::GetNBlocks() const
{
    return m_nBlocks;
}

void
CollectiveAlgorithm::SetShape(uint32_t blocks, uint32_t steps)
{
    m_nBlocks = blocks;
    m_nSteps = steps;
}

uint64_t
CollectiveAlgorithm::GetBlocksBytes(uint32_t begin, uint32_t count) const
{
    if (count == 0)
    {
        return 0;
    }
    NS_ASSERT_MSG(begin + count <= m_nBlocks, "block range beyond the layout");
    const uint64_t n = m_spec.ranks;
    if (m_spec.type == CollectiveSpec::ALL_TO_ALL)
    {
        return m_spec.bytes * count;
    }
    if (m_spec.type == CollectiveSpec::ALL_TO_ALL_V)
    {
        uint64_t total = 0;
        for (uint32_t b = begin; b < begin + count; ++b)
        {
            total += m_spec.sizes[b];
        }
        return total;
    }
    (void)n;
    // Near-equal blocks: the first (bytes mod blocks) blocks are one byte larger.
    const uint64_t q = m_spec.bytes / m_nBlocks;
    const uint64_t r = m_spec.bytes % m_nBlocks;
    const uint64_t end = uint64_t(begin) + count;
    const uint64_t larger = (end < r ? end : r) - (begin < r ? begin : r);
    return q * count + larger;
}

void
CollectiveAlgorithm::GetStep(uint32_t rank, uint32_t step, std::vector<CollectiveOp>& ops) const
{
    NS_ASSERT_MSG(m_prepared, "Prepare() the algorithm first");
    NS_ASSERT(rank < m_spec.ranks && step < m_nSteps);
    ops.clear();
    DoGetStep(rank, step, ops);
    for (auto& op : ops)
    {
        op.bytes = GetBlocksBytes(op.blockBegin, op.blockCount);
    }
}

uint64_t
CollectiveAlgorithm::GetBytesSentBy(uint32_t rank) const
{
    std::vector<CollectiveOp> ops;
    uint64_t total = 0;
    for (uint32_t k = 0; k < m_nSteps; ++k)
    {
        GetStep(rank, k, ops);
        for (const auto& op : ops)
        {
            total += op.kind == CollectiveOp::SEND ? op.bytes : 0;
        }
    }
    return total;
}

uint32_t
CollectiveAlgorithm::GetBlockOwner(uint32_t block) const
{
    const uint32_t n = m_spec.ranks;
    if (m_spec.type == CollectiveSpec::ALL_TO_ALL || m_spec.type == CollectiveSpec::ALL_TO_ALL_V)
    {
        return block / n;
    }
    const uint32_t perRank = m_nBlocks / n;
    return perRank ? block / perRank : 0;
}

void
CollectiveAlgorithm::Send(std::vector<CollectiveOp>& ops,
                          uint32_t peer,
                          uint32_t begin,
                          uint32_t count,
                          uint8_t tag)
{
    CollectiveOp op;
    op.kind = CollectiveOp::SEND;
    op.peer = peer;
    op.blockBegin = begin;
    op.blockCount = count;
    op.tag = tag;
    ops.push_back(op);
}

void
CollectiveAlgorithm::Recv(std::vector<CollectiveOp>& ops,
                          uint32_t peer,
                          uint32_t begin,
                          uint32_t count,
                          bool reduce,
                          uint8_t tag)
{
    CollectiveOp op;
    op.kind = reduce ? CollectiveOp::RECV_REDUCE : CollectiveOp::RECV_COPY;
    op.peer = peer;
    op.blockBegin = begin;
    op.blockCount = count;
    op.tag = tag;
    ops.push_back(op);
}

void
CollectiveAlgorithm::Unsupported(const std::string& supported) const
{
    throw std::invalid_argument(DoGetName() + " does not implement " +
                                CollectiveSpec::TypeName(m_spec.type) + " (it implements " +
                                supported + ")");
}

bool
CollectiveAlgorithm::IsPowerOfTwo(uint32_t n)
{
    return n != 0 && (n & (n - 1)) == 0;
}

} // namespace ns3
