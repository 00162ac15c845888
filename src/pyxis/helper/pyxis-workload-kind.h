/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PYXIS_WORKLOAD_KIND_H
#define PYXIS_WORKLOAD_KIND_H

#include "ns3/workload-kind.h"

#include <string>

namespace ns3
{

/**
 * \ingroup pyxis
 * \brief `workloads[].kind: pyxis`: a Pyxis model file (src/pyxis/doc/pyxis.rst) lowered to trip
 * programs, chip i on accelerator i, on any fabric: on a cell pod through its adapters' explicit
 * RDMA job API (PyxisFabricBinding), on the others through the endpoint API
 * (PyxisEndpointBinding).
 *
 * A pyxis workload is the only workload of its scenario and starts at 0; its model file is
 * validated when the scenario is loaded (its errors name the model file's own line and field),
 * and it needs at most pod.accelerators chips (tensor x data).
 */
class PyxisWorkloadKind : public WorkloadKind
{
  public:
    /// A pyxis workload's keys.
    class Config : public WorkloadConfig
    {
      public:
        std::string model;     //!< workloads[].model, resolved beside the scenario
        std::string rxPosting; //!< workloads[].rx-posting: pre-posted | late
        uint32_t chips{0};     //!< the model's chips (tensor x data)

        std::map<std::string, std::string> GetTexts() const override;
        std::map<std::string, uint64_t> GetCounts() const override;
        std::string GetSourceFile() const override;
        /// \return the model as a DAG (PyxisDagExport), for export
        std::shared_ptr<const DagProgram> GetExportDag() const override;
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

#endif /* PYXIS_WORKLOAD_KIND_H */
