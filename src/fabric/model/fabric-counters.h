/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_COUNTERS_H
#define FABRIC_COUNTERS_H

#include <cstdint>
#include <map>
#include <string>

namespace ns3
{

/**
 * \ingroup fabric
 * \brief What a fabric kind counts in a run beyond what every device counts (FabricNetDevice
 * statistics) and every endpoint counts (FabricEndpoint's byte and message counters): drops by
 * named reason, and named counters summed over the pod.
 *
 * The names of the counters the results file has a column for are the constants below; a
 * counter of another name is reported too (results: /summary/fabric_counters).
 */
struct FabricCounters
{
    /// Bytes of SUE work moved off a failed port to another port of its instance.
    static constexpr const char* BYTES_FAILED_OVER = "bytes_failed_over";
    /// Stations isolated (UALink: watchdog expiry or link down).
    static constexpr const char* ISOLATIONS = "isolations";
    /// Requests answered with a completion timeout (UALink CMPTO).
    static constexpr const char* CMPTO = "cmpto";
    /// Messages completed with a failed request among their pieces.
    static constexpr const char* FAILED_MESSAGES = "failed_messages";

    std::map<std::string, uint64_t> drops;  //!< drops by reason (units)
    std::map<std::string, uint64_t> values; //!< named counters

    /**
     * \param name a counter
     * \return its value (0 if never counted)
     */
    uint64_t Get(const std::string& name) const
    {
        auto it = values.find(name);
        return it == values.end() ? 0 : it->second;
    }
};

} // namespace ns3

#endif /* FABRIC_COUNTERS_H */
