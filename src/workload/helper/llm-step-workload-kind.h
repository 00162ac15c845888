/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef LLM_STEP_WORKLOAD_KIND_H
#define LLM_STEP_WORKLOAD_KIND_H

#include "ns3/llm-step-spec.h"
#include "ns3/workload-kind.h"

#include <memory>
#include <mutex>
#include <string>

namespace ns3
{

/**
 * \ingroup workload
 * \brief `workloads[].kind: llm-step`: one training iteration of a transformer (dense or MoE)
 * under tensor, pipeline, data and expert parallelism, as a DagProgram (LlmStepGenerator) that
 * the pod runs with its DagRunner (src/workload/doc/workload.rst, "LLM training step").
 *
 * Its keys are checked when the scenario is loaded (tp x pp x dp equals pod.accelerators, the
 * global batch splits into micro-batches, heads split over tp, ...), each error naming the key.
 * The DAG is generated the first time it is asked for.
 */
class LlmStepWorkloadKind : public WorkloadKind
{
  public:
    /// An llm-step workload's keys and its DAG.
    class Config : public WorkloadConfig
    {
      public:
        LlmStepSpec spec; //!< the checked keys

        std::map<std::string, std::string> GetTexts() const override;
        std::map<std::string, uint64_t> GetCounts() const override;
        std::shared_ptr<const DagProgram> GetDag() const override;

      private:
        mutable std::once_flag m_once;                   //!< generate once
        mutable std::shared_ptr<const DagProgram> m_dag; //!< the generated DAG
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

#endif /* LLM_STEP_WORKLOAD_KIND_H */
