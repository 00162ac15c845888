/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef LLM_STEP_GENERATOR_H
#define LLM_STEP_GENERATOR_H

#include "llm-step-spec.h"

#include "ns3/dag-program.h"

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup workload
 * \brief Builds the DagProgram of one LLM training iteration (`kind: llm-step`).
 *
 * Per pipeline stage, data-parallel replica, layer and micro-batch: a forward and a backward
 * compute node over the replica's tensor-parallel group (LlmRoofline's times), followed by the
 * tensor-parallel collectives (2 all-reduces, or 2 reduce-scatter + all-gather pairs with
 * sequence parallelism) and, in an MoE layer, the expert-parallel all-to-alls (dispatch and
 * combine); pipeline sends of activations and gradients between consecutive stages in a 1F1B
 * schedule; per layer the data-parallel gradient collective once its last backward is done; an
 * optimizer node per stage and replica; the ZeRO parameter all-gathers. The compute nodes of a
 * tensor-parallel group form a chain in the schedule's order, so the pipeline's 1F1B order holds
 * on every accelerator. Node categories name what each node stands for.
 */
class LlmStepGenerator
{
  public:
    /// \param spec the step's keys (LlmStepSpec::Check passed)
    explicit LlmStepGenerator(const LlmStepSpec& spec);

    /// \return the iteration's DAG (nodes in a topological order)
    std::shared_ptr<DagProgram> Build() const;

    /**
     * The 1F1B schedule of a stage (PipeDream-Flush, as Megatron-LM runs it): min(p - 1 - s, m)
     * warm-up forwards, then one forward and one backward alternately, then the remaining
     * backwards.
     * \param stages p
     * \param stage s
     * \param microBatches m
     * \return the stage's operations in order: (true for forward, micro-batch)
     */
    static std::vector<std::pair<bool, uint32_t>> GetSchedule(uint32_t stages,
                                                              uint32_t stage,
                                                              uint32_t microBatches);

    /**
     * Reorder a DAG's nodes topologically (Kahn's algorithm, the smallest ready index first),
     * remapping deps and rankDeps.
     * \param program the DAG (acyclic)
     * \return false if it has a cycle (then it is unchanged)
     */
    static bool SortTopologically(DagProgram& program);

  private:
    LlmStepSpec m_spec; //!< the keys
};

} // namespace ns3

#endif /* LLM_STEP_GENERATOR_H */
