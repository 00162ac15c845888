/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef POD_RAIL_SPLIT_H
#define POD_RAIL_SPLIT_H

#include "run-results.h"
#include "scenario.h"

#include "ns3/fabric-message.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class PodTopology;

/**
 * \ingroup pod
 * \brief A run of some rails only (podsim-run --rails). The whole pod is built.
 *
 * - UALink (src/ualink/doc/ualink.rst, "Rails in parallel"): only the requests whose rail hash
 *   picks an active port are posted, and a message is delivered (completed) when its bytes on
 *   those rails have arrived (been answered).
 * - SUE (src/sue/doc/sue.rst, "Planes in parallel"): a rail is a switch plane; only the
 *   messages whose SUE instance (the load balance's choice) has its ports on active planes are
 *   sent (SueEndpoint::SetActiveInstances).
 *
 * A message with nothing on the active rails is not this run's share: its deliver and complete
 * times are RunResults::NOT_IN_RAILS. utils/rails.py runs the rails in processes of their own
 * and merges the results.
 */
class RailSplit
{
  public:
    /**
     * \brief Parse a rail list ("0,2").
     * \param text the list
     * \param rails receives the rails, ascending, each once
     * \param error receives why it is invalid
     * \return whether it is valid (non-negative integers, no repeats, at least one)
     */
    static bool Parse(const std::string& text, std::vector<uint32_t>& rails, std::string& error);

    /**
     * \brief Why a scenario cannot be split by rails: a feature that makes the rails interact.
     * \param s the scenario
     * \param rails the rails asked for
     * \param check whether the invariant checks are on (--check or the check key)
     * \return the reason, naming the scenario key or option ("" if it can)
     */
    static std::string Refusal(const Scenario& s, const std::vector<uint32_t>& rails, bool check);

    /**
     * \brief Activate the rails at every endpoint of a built pod and mark the rows of messages
     * with nothing on them as they are posted.
     * \param topo the pod (of a fabric that splits by rails)
     * \param rails the rails
     * \param table the message table (planned workloads: a message's cookie is its row)
     */
    void Install(const PodTopology& topo,
                 const std::vector<uint32_t>& rails,
                 RunResults::Messages* table);

    /**
     * \param rails the rails
     * \return them as a list, "0,2"
     */
    static std::string Format(const std::vector<uint32_t>& rails);

  private:
    /**
     * \brief Mark a message's row as not this run's share.
     * \param m the message (its cookie is its row)
     */
    void NotInRails(const FabricMessage& m);

    RunResults::Messages* m_table{nullptr}; //!< the message table
};

} // namespace ns3

#endif /* POD_RAIL_SPLIT_H */
