/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef HALVING_DOUBLING_ALGORITHM_H
#define HALVING_DOUBLING_ALGORITHM_H

#include "collective-algorithm.h"

namespace ns3
{

/**
 * \ingroup collective
 * \brief Recursive halving-doubling (Rabenseifner): reduce-scatter by recursive halving, then
 * all-gather by recursive doubling.
 *
 * With p = 2^L ranks and p blocks: reduce-scatter step k (k = 0..L-1, distance d = p >> (k+1))
 * exchanges half of the current block range with rank r XOR d (keeping the half that contains
 * r, reducing the partner's copy into it); all-gather step k (d = 1 << k) exchanges the current
 * range with r XOR d. All-reduce: 2L steps, 2(p-1)/p * S bytes per rank.
 *
 * Non-power-of-two groups need the FoldNonPowerOfTwo variant (the scenario name
 * "rabenseifner"): with p the largest power of two below n and e = n - p extra ranks, in a first
 * step each even rank r < 2e sends its whole buffer to r+1, which reduces it; the p remaining
 * ranks (the odd ranks below 2e and every rank from 2e up) run the algorithm above; in a last
 * step each odd rank below 2e returns the result to r-1. Without the variant a non-power-of-two
 * group is an error.
 */
class HalvingDoublingAlgorithm : public CollectiveAlgorithm
{
  public:
    static TypeId GetTypeId();
    HalvingDoublingAlgorithm();
    ~HalvingDoublingAlgorithm() override;

  private:
    void DoPrepare(const CollectiveSpec& spec) override;
    void DoGetStep(uint32_t rank, uint32_t step, std::vector<CollectiveOp>& ops) const override;
    std::string DoGetName() const override;
    uint32_t m_p{1};      //!< participating ranks (a power of two)
    uint32_t m_levels{0}; //!< log2(m_p)
    uint32_t m_extra{0};  //!< n - m_p
    bool m_fold{false};   //!< FoldNonPowerOfTwo attribute

    /**
     * \param v virtual rank (0..p-1) \return its real rank
     */
    uint32_t Real(uint32_t v) const;
    /**
     * \param rank real rank \param [out] v its virtual rank \return false if it sits out
     */
    bool Virtual(uint32_t rank, uint32_t& v) const;
    /**
     * The halving-doubling ops of a virtual rank in a step of the core (2L steps).
     * \param v virtual rank \param k core step \param ops the step
     */
    void CoreStep(uint32_t v, uint32_t k, std::vector<CollectiveOp>& ops) const;
};

} // namespace ns3

#endif /* HALVING_DOUBLING_ALGORITHM_H */
