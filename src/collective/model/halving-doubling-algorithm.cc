/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "halving-doubling-algorithm.h"

#include "ns3/boolean.h"
#include "ns3/log.h"

#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HalvingDoublingAlgorithm");
NS_OBJECT_ENSURE_REGISTERED(HalvingDoublingAlgorithm);

HalvingDoublingAlgorithm::HalvingDoublingAlgorithm()
{
    NS_LOG_FUNCTION(this);
}

HalvingDoublingAlgorithm::~HalvingDoublingAlgorithm()
{
    NS_LOG_FUNCTION(this);
}

std::string
HalvingDoublingAlgorithm::DoGetName() const
{
    return m_fold ? "rabenseifner" : "halving-doubling";
}

TypeId
HalvingDoublingAlgorithm::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::HalvingDoublingAlgorithm")
            .SetParent<CollectiveAlgorithm>()
            .SetGroupName("Collective")
            .AddConstructor<HalvingDoublingAlgorithm>()
            .AddAttribute("FoldNonPowerOfTwo",
                          "Accept groups whose size is not a power of two by folding the extra "
                          "ranks into their neighbours first (Rabenseifner's variant).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&HalvingDoublingAlgorithm::m_fold),
                          MakeBooleanChecker());
    return tid;
}

uint32_t
HalvingDoublingAlgorithm::Real(uint32_t v) const
{
    return v < m_extra ? 2 * v + 1 : v + m_extra;
}

bool
HalvingDoublingAlgorithm::Virtual(uint32_t rank, uint32_t& v) const
{
    if (rank < 2 * m_extra)
    {
        v = rank / 2;
        return rank % 2 == 1;
    }
    v = rank - m_extra;
    return true;
}

void
HalvingDoublingAlgorithm::DoPrepare(const CollectiveSpec& spec)
{
    const uint32_t n = spec.ranks;
    if (spec.type != CollectiveSpec::ALL_REDUCE && spec.type != CollectiveSpec::REDUCE_SCATTER &&
        spec.type != CollectiveSpec::ALL_GATHER)
    {
        Unsupported("all-reduce, reduce-scatter, all-gather");
    }
    const bool pow2 = IsPowerOfTwo(n);
    if (!pow2 && !m_fold)
    {
        throw std::invalid_argument("halving-doubling needs a power-of-two group (got " +
                                    std::to_string(n) +
                                    " ranks); use rabenseifner, its non-power-of-two variant");
    }
    if (!pow2 && spec.type != CollectiveSpec::ALL_REDUCE)
    {
        throw std::invalid_argument(
            "the non-power-of-two variant of halving-doubling implements all-reduce only (got " +
            CollectiveSpec::TypeName(spec.type) + " on " + std::to_string(n) + " ranks)");
    }
    m_p = 1;
    m_levels = 0;
    while (m_p * 2 <= n)
    {
        m_p *= 2;
        ++m_levels;
    }
    m_extra = n - m_p;
    uint32_t steps = spec.type == CollectiveSpec::ALL_REDUCE ? 2 * m_levels : m_levels;
    if (m_extra > 0)
    {
        steps += 2; // fold in, fold out
    }
    SetShape(m_p, steps);
}

void
HalvingDoublingAlgorithm::CoreStep(uint32_t v, uint32_t k, std::vector<CollectiveOp>& ops) const
{
    const uint32_t L = m_levels;
    const bool gather = m_spec.type == CollectiveSpec::ALL_GATHER ||
                        (m_spec.type == CollectiveSpec::ALL_REDUCE && k >= L);
    if (!gather)
    {
        // Recursive halving: the current range has p >> k blocks and contains v.
        const uint32_t size = m_p >> k;
        const uint32_t d = size / 2;
        const uint32_t lo = v & ~(size - 1);
        const uint32_t partner = Real(v ^ d);
        const bool upper = (v & d) != 0;
        const uint32_t keep = upper ? lo + d : lo;
        const uint32_t give = upper ? lo : lo + d;
        Send(ops, partner, give, d);
        Recv(ops, partner, keep, d, true);
    }
    else
    {
        // Recursive doubling: the current range has d = 2^j blocks and contains v.
        const uint32_t j = m_spec.type == CollectiveSpec::ALL_REDUCE ? k - L : k;
        const uint32_t d = 1u << j;
        const uint32_t lo = v & ~(d - 1);
        const uint32_t partner = Real(v ^ d);
        Send(ops, partner, lo, d);
        Recv(ops, partner, lo ^ d, d, false);
    }
}

void
HalvingDoublingAlgorithm::DoGetStep(uint32_t rank,
                                    uint32_t step,
                                    std::vector<CollectiveOp>& ops) const
{
    uint32_t v = 0;
    const bool active = Virtual(rank, v);
    if (m_extra == 0)
    {
        CoreStep(v, step, ops);
        return;
    }
    const uint32_t last = GetNSteps() - 1;
    if (step == 0)
    {
        if (rank < 2 * m_extra)
        {
            if (rank % 2 == 0)
            {
                Send(ops, rank + 1, 0, m_p);
            }
            else
            {
                Recv(ops, rank - 1, 0, m_p, true);
            }
        }
    }
    else if (step == last)
    {
        if (rank < 2 * m_extra)
        {
            if (rank % 2 == 1)
            {
                Send(ops, rank - 1, 0, m_p);
            }
            else
            {
                Recv(ops, rank + 1, 0, m_p, false);
            }
        }
    }
    else if (active)
    {
        CoreStep(v, step - 1, ops);
    }
}

} // namespace ns3
