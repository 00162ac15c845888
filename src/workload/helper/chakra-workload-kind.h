/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CHAKRA_WORKLOAD_KIND_H
#define CHAKRA_WORKLOAD_KIND_H

#include "ns3/workload-kind.h"

#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup workload
 * \brief `workloads[].kind: chakra`: a workload read from Chakra execution traces
 * (PREFIX.RANK.et), run by the pod as a DAG (src/workload/doc/workload.rst, Chakra execution
 * traces).
 *
 * Read() reads and checks the traces with ChakraReader; the config's GetDag() is the program,
 * which the pod runs with its DagRunner as it runs a `kind: dag` workload.
 */
class ChakraWorkloadKind : public WorkloadKind
{
  public:
    /// A chakra workload's keys and the program read from its traces.
    class Config : public WorkloadConfig
    {
      public:
        std::string trace;                         //!< workloads[].trace, resolved (the PREFIX)
        std::string commGroups;                    //!< the comm-groups file, resolved ("" if none)
        uint32_t ranks{0};                         //!< the ranks read
        std::shared_ptr<const DagProgram> program; //!< the program

        std::map<std::string, std::string> GetTexts() const override;
        std::map<std::string, uint64_t> GetCounts() const override;
        std::string GetSourceFile() const override;
        std::shared_ptr<const DagProgram> GetDag() const override;
    };

    std::string GetName() const override;
    std::string GetSummary() const override;
    std::string GetChecks() const override;
    void DeclareKeys(std::vector<FabricConfigKey>& keys) const override;
    std::shared_ptr<const WorkloadConfig> Read(const FabricConfigReader& in,
                                               const std::string& path,
                                               const Context& context) const override;
    std::unique_ptr<WorkloadRun> Start(const WorkloadConfig& config,
                                       const std::vector<Ptr<FabricEndpoint>>& endpoints,
                                       std::string& error) const override;
};

} // namespace ns3

#endif /* CHAKRA_WORKLOAD_KIND_H */
