/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_ISLIP_SCHEDULER_H
#define FABRIC_ISLIP_SCHEDULER_H

#include "ns3/object.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup fabric
 * \brief The iSLIP crossbar scheduler (McKeown, IEEE/ACM ToN 7(2), 1999), for input-queued
 * switches with virtual output queues, up to 64 ports.
 *
 * Requests are a bitmask per output (which inputs have a cell for it), kept up to date by the
 * owner through SetRequest(). Match() runs the configured number of iterations of
 * request / grant / accept:
 *
 * - grant: each unmatched output grants the requesting unmatched input that appears next at or
 *   after its grant pointer;
 * - accept: each unmatched input accepts the granting output next at or after its accept
 *   pointer;
 * - pointers move one beyond the granted / accepted port, and only for matches made in the first
 *   iteration (this is what desynchronizes the pointers and gives iSLIP 100% throughput under
 *   uniform i.i.d. traffic).
 *
 * Bitmasks keep one decision O(N) per iteration with no allocation (DESIGN.md rule 3: RIFL's
 * switch decides once per cell time, RIFL paper section IV.C).
 *
 * MatchOutputsOnly() is the arbitration of a statically allocated fully connected (SAFC) switch,
 * where every input-output pair has its own path: each output picks one requesting input round
 * robin, and an input may feed several outputs in the same cell time.
 */
class FabricIslipScheduler : public Object
{
  public:
    static constexpr uint32_t NONE = ~uint32_t(0); //!< unmatched
    static constexpr uint32_t MAX_PORTS = 64;      //!< bitmask width

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    FabricIslipScheduler();
    ~FabricIslipScheduler() override;

    /**
     * \brief Size the scheduler (clears requests and pointers).
     * \param ports number of ports (1 to 64)
     */
    void SetPorts(uint32_t ports);

    /// \return number of ports
    uint32_t GetPorts() const
    {
        return m_ports;
    }

    /**
     * \brief Set or clear the request of \p in for \p out.
     * \param in input port
     * \param out output port
     * \param on whether the input has a cell for the output
     */
    void SetRequest(uint32_t in, uint32_t out, bool on)
    {
        const uint64_t bit = uint64_t(1) << in;
        m_requests[out] = on ? (m_requests[out] | bit) : (m_requests[out] & ~bit);
    }

    /**
     * \brief Run iSLIP once (one cell time).
     * \param eligibleInputs inputs that may be matched (bit per input)
     * \param eligibleOutputs outputs that may be matched (bit per output)
     * \return the matching: for each input, its output or NONE (owned by the scheduler, valid
     * until the next call)
     */
    const std::vector<uint32_t>& Match(uint64_t eligibleInputs, uint64_t eligibleOutputs);

    /**
     * \brief SAFC arbitration: each eligible output picks one requesting input round robin.
     * \param eligibleOutputs outputs that may take a cell
     * \return for each output, the input it takes a cell from, or NONE (owned by the scheduler)
     */
    const std::vector<uint32_t>& MatchOutputsOnly(uint64_t eligibleOutputs);

    /**
     * \brief Round-robin choice in a bitmask.
     * \param mask candidates (bit per port)
     * \param from the pointer: the first port to consider
     * \param ports number of ports
     * \return the first set bit at or after \p from (cyclically), or NONE if \p mask is 0
     */
    static uint32_t RoundRobin(uint64_t mask, uint32_t from, uint32_t ports);

    /// \return matches made, summed over all calls
    uint64_t GetMatches() const
    {
        return m_matches;
    }

  private:
    uint32_t m_ports{0};               //!< ports
    uint32_t m_iterations{3};          //!< iSLIP iterations per cell time
    std::vector<uint64_t> m_requests;  //!< per output: requesting inputs
    std::vector<uint32_t> m_grantPtr;  //!< per output: grant pointer
    std::vector<uint32_t> m_acceptPtr; //!< per input: accept pointer
    std::vector<uint64_t> m_grants;    //!< per input: granting outputs (scratch)
    std::vector<uint32_t> m_match;     //!< per input (Match) or output (SAFC): the result
    uint64_t m_matches{0};             //!< matches made
};

} // namespace ns3

#endif /* FABRIC_ISLIP_SCHEDULER_H */
