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
 * The budget is for the file on disk, so the estimate is of the stored, compressed size
 * (Estimate): each numeric column is written, with the results file's chunks and filters
 * (shuffle and deflate level 4, ResultsWriter), into an HDF5 file held in memory, whole up to
 * SAMPLE_ROWS rows and above that as a sample of SAMPLE_ROWS rows (four runs of consecutive
 * rows spread over the column) whose stored size is scaled to the column; strings count their
 * length padded to 8 bytes plus STRING_OVERHEAD (they are stored uncompressed, in HDF5's
 * global heap, at least a collection per column); every dataset counts DATASET_OVERHEAD, one
 * that holds rows CHUNK_INDEX_OVERHEAD, and the file FILE_OVERHEAD besides (HDF5's headers,
 * groups, attributes): a results file is within a few percent of its estimate, small ones
 * (tens of kB, mostly HDF5's own structures) within about 10%.
 * (The estimate once counted the uncompressed tables, about ten times a message table's stored
 * size: a run of 4.2 million messages dropped half its message rows to save 0.2 MB of a 2 MB
 * file.) EstimateUncompressed() gives that figure.
 *
 * When the estimate exceeds the budget, Apply() downsamples, in this order, and says so on
 * stderr:
 *  1. the switch buffer time series: its interval is doubled (BufferSampler::Coarsen) until the
 *     series takes at most a quarter of the budget or a single interval spans the run;
 *  2. the message table: one row in k is kept (rows 0, k, 2k, ... in table order), with k the
 *     smallest found (from the compressed bytes per row, then measured on the thinned table
 *     and raised until it fits) that brings the estimate within budget; the last-delivered and
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
    /// Bytes counted per variable-length string besides its characters (padded to 8 bytes):
    /// its reference in the dataset (16) and its global heap object header (16).
    static constexpr uint64_t STRING_OVERHEAD = 32;
    /// Rows of a column compressed whole; a longer one is measured on a sample this long.
    static constexpr uint64_t SAMPLE_ROWS = 65536;
    /// Bytes counted per dataset for HDF5's object header.
    static constexpr uint64_t DATASET_OVERHEAD = 512;
    /// Bytes counted per dataset that holds rows, for its chunk index (a B-tree node).
    static constexpr uint64_t CHUNK_INDEX_OVERHEAD = 1536;
    /// The smallest global heap collection, which a string column that holds any takes.
    static constexpr uint64_t HEAP_COLLECTION_BYTES = 4096;
    /// Bytes counted per file for the superblock, groups, attributes and the summary.
    static constexpr uint64_t FILE_OVERHEAD = 8192;

    /**
     * \param r the results
     * \return the estimated size of the results file (compressed, as stored)
     */
    static uint64_t Estimate(const RunResults& r);

    /**
     * \param r the results
     * \return the uncompressed size of the tables (numeric columns at their element size,
     * strings at their length plus STRING_OVERHEAD): what the estimate was before it measured
     * the compression
     */
    static uint64_t EstimateUncompressed(const RunResults& r);

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
