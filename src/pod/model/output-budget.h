/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef POD_OUTPUT_BUDGET_H
#define POD_OUTPUT_BUDGET_H

#include "run-results.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup pod
 * \brief Keeps the results of a run within output.budget (bounded output).
 *
 * The estimate is the uncompressed size of the per-row tables: each numeric column counts its
 * element size, each string its length plus 16 bytes (HDF5 variable-length overhead). The file
 * is smaller than the estimate (the tables are shuffled and deflated), so a run within budget
 * writes a file within budget.
 *
 * When the estimate exceeds the budget, Apply() downsamples, in this order, and says so on
 * stderr:
 *  1. the switch buffer time series: its interval is doubled (BufferSampler::Coarsen) until the
 *     series takes at most a quarter of the budget or a single interval spans the run;
 *  2. the message table: one row in k is kept (rows 0, k, 2k, ... in table order), with k the
 *     smallest integer that brings the estimate within budget; the last-delivered and
 *     last-completed message of each workload are kept as well, so completion times computed
 *     from the table stay exact.
 * The summary figures (bytes sent, delivered, dropped, ...) are computed before and count
 * every message. The report (budget, estimate, rows before, k, coarsening factor) is written to
 * /summary in the results file.
 */
class OutputBudget
{
  public:
    /// Bytes of one message row: src, dst u32; bytes u64; class u8; workload u32; 3 x i64.
    static constexpr uint64_t MESSAGE_ROW_BYTES = 4 + 4 + 8 + 1 + 4 + 8 + 8 + 8;
    /// Bytes of one time-series row: sw u32; time_ps i64; max_bytes, end_bytes u64.
    static constexpr uint64_t SERIES_ROW_BYTES = 4 + 8 + 8 + 8;
    /// Bytes counted per variable-length string besides its characters.
    static constexpr uint64_t STRING_OVERHEAD = 16;

    /**
     * \param r the results
     * \return the estimated uncompressed size of the tables
     */
    static uint64_t Estimate(const RunResults& r);

    /**
     * \brief Downsample \p r to fit \p budgetBytes (0: unlimited, nothing done) and fill
     * r.output.
     * \param r the results
     * \param budgetBytes the budget
     * \return a human-readable note of what was done ("" if nothing)
     */
    static std::string Apply(RunResults& r, uint64_t budgetBytes);
};

} // namespace ns3

#endif /* POD_OUTPUT_BUDGET_H */
