/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_CREDIT_LEDGER_H
#define FABRIC_CREDIT_LEDGER_H

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup fabric
 * \brief A sender's mirror of the receive buffers its link partner advertised, in credits, per
 * counter: the credit accounting that FabricCreditFlowControl (one counter per VC and one for
 * the shared pool) and UALink's TL (UalinkTxQueue: a counter per credit class and VC or pool)
 * share.
 *
 * Each counter holds what the partner advertised, what the sender may spend now, and what it has
 * spent and got back in all. A unit that needs credits of two counters at once (UALink: a command
 * credit and its data credits) takes both or neither (TryTake). Returns add to what is available;
 * whether more than was advertised is an error (the owner's check, with its own message) or, after
 * the partner re-advertised its buffer, credits of the old link to void (ClampToAdvertised), is
 * the owner's to say. Plain arithmetic: no events, no attributes; the owner checks before it takes
 * (Take never goes below zero without the owner having checked).
 */
class FabricCreditLedger
{
  public:
    /**
     * \param counters counters (all at zero)
     */
    explicit FabricCreditLedger(uint32_t counters = 0);

    /**
     * \brief Set the number of counters; all at zero.
     * \param counters counters
     */
    void Reset(uint32_t counters);

    /// \return counters
    uint32_t GetNCounters() const
    {
        return static_cast<uint32_t>(m_c.size());
    }

    /**
     * \brief The partner advertises a counter's buffer: it becomes the advertised count and is
     * added to what is available.
     * \param i the counter
     * \param credits credits advertised
     */
    void Advertise(uint32_t i, uint64_t credits)
    {
        m_c[i].advertised = credits;
        m_c[i].available += credits;
    }

    /// \brief Every counter has what its partner advertised available again (its buffer afresh).
    void Refill();

    /// \brief No counter has credits available (until the partner advertises again).
    void Empty();

    /**
     * \param i a counter
     * \return credits available
     */
    uint64_t GetAvailable(uint32_t i) const
    {
        return m_c[i].available;
    }

    /**
     * \param i a counter
     * \return credits the partner advertised
     */
    uint64_t GetAdvertised(uint32_t i) const
    {
        return m_c[i].advertised;
    }

    /**
     * \param i a counter
     * \return credits spent in all
     */
    uint64_t GetSpent(uint32_t i) const
    {
        return m_c[i].spent;
    }

    /**
     * \param i a counter
     * \return credits returned in all
     */
    uint64_t GetReturned(uint32_t i) const
    {
        return m_c[i].returned;
    }

    /**
     * \brief Spend credits (the owner checked that they are available).
     * \param i the counter
     * \param n credits
     */
    void Take(uint32_t i, uint64_t n)
    {
        m_c[i].available -= n;
        m_c[i].spent += n;
    }

    /**
     * \brief Spend \p n credits of counter \p i and \p m of counter \p j if both are available,
     * else none.
     * \param i the first counter
     * \param n its credits
     * \param j the second counter (another one)
     * \param m its credits
     * \return whether they were taken
     */
    bool TryTake(uint32_t i, uint64_t n, uint32_t j, uint64_t m)
    {
        if (m_c[i].available < n || m_c[j].available < m)
        {
            return false;
        }
        Take(i, n);
        Take(j, m);
        return true;
    }

    /**
     * \brief Credits come back from the partner.
     * \param i the counter
     * \param n credits
     */
    void Return(uint32_t i, uint64_t n)
    {
        m_c[i].available += n;
        m_c[i].returned += n;
    }

    /**
     * \brief Void what a counter has available beyond what the partner advertised.
     * \param i the counter
     * \return the credits voided
     */
    uint64_t ClampToAdvertised(uint32_t i);

  private:
    /// One counter.
    struct Counter
    {
        uint64_t advertised{0}; //!< credits the partner advertised
        uint64_t available{0};  //!< credits the sender may spend now
        uint64_t spent{0};      //!< credits spent in all
        uint64_t returned{0};   //!< credits returned in all
    };

    std::vector<Counter> m_c; //!< counters
};

} // namespace ns3

#endif /* FABRIC_CREDIT_LEDGER_H */
