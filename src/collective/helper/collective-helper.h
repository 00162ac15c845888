/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef COLLECTIVE_HELPER_H
#define COLLECTIVE_HELPER_H

#include "ns3/collective-algorithm.h"
#include "ns3/collective-dispatcher.h"
#include "ns3/collective-executor.h"
#include "ns3/fabric-endpoint.h"
#include "ns3/object-factory.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup collective
 * \brief Creates algorithms by name and installs collectives on groups of endpoints.
 *
 * Algorithm names (as in scenarios): ring, bidirectional-ring, halving-doubling, rabenseifner
 * (halving-doubling with FoldNonPowerOfTwo), double-binary-tree, direct, pairwise,
 * hierarchical, dissemination.
 */
class CollectiveHelper
{
  public:
    CollectiveHelper();

    /**
     * \param name attribute name of ns3::CollectiveExecutor
     * \param value its value
     */
    void SetExecutorAttribute(std::string name, const AttributeValue& value);

    /**
     * \param name attribute of the algorithm (e.g. GroupSize of hierarchical); set on every
     * algorithm created by Install that has it
     * \param value its value
     */
    void SetAlgorithmAttribute(std::string name, const AttributeValue& value);

    /// \return every algorithm name
    static std::vector<std::string> AlgorithmNames();

    /**
     * \param type a collective
     * \return the algorithm used when none is named: ring for all-reduce, reduce-scatter,
     * all-gather, broadcast and reduce; direct for all-to-all(-v); dissemination for a barrier
     */
    static std::string DefaultAlgorithm(CollectiveSpec::Type type);

    /**
     * Create an algorithm and prepare it for a spec.
     * \param name an algorithm name
     * \param spec the collective
     * \return the prepared algorithm
     * \throws std::invalid_argument if the name is unknown or the algorithm cannot do the spec
     */
    Ptr<CollectiveAlgorithm> CreateAlgorithm(const std::string& name,
                                             const CollectiveSpec& spec) const;

    /**
     * Create, register and set up a collective (not started).
     * \param dispatcher the dispatcher installed on the endpoints
     * \param spec the collective (spec.ranks is set from the group)
     * \param algorithm an algorithm name
     * \param group the endpoint of each rank
     * \return the executor; call Start() or StartRank()
     * \throws std::invalid_argument as CreateAlgorithm
     */
    Ptr<CollectiveExecutor> Install(Ptr<CollectiveDispatcher> dispatcher,
                                    CollectiveSpec spec,
                                    const std::string& algorithm,
                                    const std::vector<Ptr<FabricEndpoint>>& group) const;

  private:
    ObjectFactory m_executorFactory;                                 //!< executors
    std::vector<std::pair<std::string, Ptr<AttributeValue>>> m_algo; //!< algorithm attributes
};

} // namespace ns3

#endif /* COLLECTIVE_HELPER_H */
