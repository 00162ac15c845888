/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef POD_RESULTS_WRITER_H
#define POD_RESULTS_WRITER_H

#include "run-results.h"

#include <string>

namespace ns3
{

/**
 * \ingroup pod
 * \brief Writes the RunResults of one run to one HDF5 file, and reads such a file back.
 *
 * Layout of the file (every time in picoseconds):
 *
 * \verbatim
 * /                       attributes podsim_version, scenario_name, format_version (u32);
 *                         incomplete (u32 1, only when an interrupt (SIGINT) stopped the run:
 *                         the file holds what was done by then; WallClockLimit)
 * /scenario               scalar string dataset: the YAML text of the scenario
 * /messages/              one 1-D dataset per column, chunked and deflate-compressed:
 *     src u32, dst u32, bytes u64, class u8, workload u32,
 *     post_ps i64, deliver_ps i64, complete_ps i64        (-1: never delivered / completed)
 *   attribute workload_names (1-D string array, indexed by the workload column)
 * /links/                 one 1-D dataset per column (one row per transmitting device):
 *     name str, kind str, plane u32, tx_bytes u64, tx_wire_bytes u64, tx_packets u64,
 *     busy_ps i64, rate_bps f64
 *   /links/drop_packets/<reason>  u64, one per drop reason
 *   /links/drop_bytes/<reason>    u64, one per drop reason
 * /collectives/           one row per collective run: workload u32, name str, collective str,
 *     algorithm str, group str, ranks u32, bytes u64, iteration u32, start_ps i64, end_ps i64,
 *     algbw_bytes_per_s f64, busbw_bytes_per_s f64, messages u64   (format version 2)
 *   /collectives/steps/   per step: collective u32 (row), step u32, start_ps, end_ps, bytes u64
 * /dag_nodes/             one row per DAG node, iteration and accelerator: workload u32,
 *     node str, kind str, category str (what the node stands for, e.g. "tp-all-reduce"; "" if
 *     the workload says nothing), iteration u32, accelerator u32, start_ps i64, end_ps i64
 * /timeseries/switch_buffer/   switch buffer occupancy (format version 3; BufferSampler):
 *     switch u32, time_ps i64 (interval start), max_bytes u64, end_bytes u64, switch_names str
 *     (one per switch, indexed by the switch column); attribute interval_ps i64 (0: not sampled)
 * /histograms/message_latency/  message latency (deliver_ps - post_ps) of the delivered rows
 *     of /messages, per workload, in log-spaced bins (format version 4; written from the
 *     message table, not read back: see WriteLatencyHistograms in results-writer.cc):
 *     workload u32, bin i64, lower_ps f64, upper_ps f64, count u64; one row per bin from each
 *     workload's smallest to its largest latency (empty bins included), workloads in index
 *     order; bin k is [10^(k/B), 10^((k+1)/B)) ps with B the attribute bins_per_decade u32
 *     (lower_ps of a workload's first bin is 0 when one of its latencies is 0 ps)
 * /summary/               scalar attributes: scenario_name, accelerators, planes, switches,
 *     bytes_sent, bytes_delivered, bytes_received, bytes_dropped, peak_switch_buffer_bytes,
 *     sim_time_ps, wall_seconds, build_seconds, events, packet_hops, peak_rss_bytes,
 *     deadlock (string: the deadlock monitor's report, empty if none), output_budget_bytes,
 *     output_estimated_bytes, messages_total, messages_sampled_every (1: every message row
 *     kept; k: one in k, OutputBudget), series_coarsened_by,
 *     watchdog (string: the report of the watchdog that stopped the run, empty if none)
 *   /summary/drops_by_reason/   one u64 attribute per drop reason (dropped packets)
 * \endverbatim
 *
 * Strings are variable-length UTF-8. Numeric columns are stored in chunks of at most
 * 65536 rows with the shuffle and deflate (level 4) filters, so that a table of a million
 * messages stays small; every column has an unlimited maximum size, so empty tables are valid.
 */
class ResultsWriter
{
  public:
    /// The podsim version written as the podsim_version attribute.
    static constexpr const char* PODSIM_VERSION = "0.1.0";
    /// Version of the file layout, written as the format_version attribute.
    static constexpr unsigned FORMAT_VERSION = 4;
    /// Rows per chunk of the table datasets.
    static constexpr unsigned long long CHUNK_ROWS = 65536;
    /// Deflate level of the table datasets.
    static constexpr unsigned DEFLATE_LEVEL = 4;
    /// Bins per decade of the message latency histograms (/histograms/message_latency).
    static constexpr unsigned LATENCY_BINS_PER_DECADE = 10;

    /**
     * Write the results of a run.
     *
     * The file is written to `path + ".tmp"` and renamed to `path` once complete, so an
     * interrupted or failed write never leaves a partial file at `path`. The parent directory
     * is created if missing. A path that is not a regular file (a directory, a device, a FIFO,
     * a socket) is refused (CheckOutputPath), before anything is written.
     *
     * \param path the HDF5 file to write (replaced if it exists)
     * \param r the results
     * \throws std::runtime_error naming the path if anything fails (the temporary file is
     *         removed), or if the columns of a table have different lengths
     */
    static void Write(const std::string& path, const RunResults& r);

    /**
     * Check, before a run, that Write() will be able to create the file: CheckOutputPath(),
     * then create the parent directory if missing and create (then remove) the temporary file.
     * \param path the HDF5 file to write
     * \throws std::runtime_error naming the path if it cannot be written
     */
    static void CheckWritable(const std::string& path);

    /**
     * Check an output path without creating anything: it must be a regular file or not exist
     * (never a directory, a device, a FIFO or a socket, which the rename of Write() would
     * replace, or fail on after the whole run), its temporary file likewise, and the nearest
     * existing ancestor directory must let this process create files. Write() checks again
     * before it renames.
     * \param path the file to write
     * \throws std::runtime_error naming the path and what is wrong with it
     */
    static void CheckOutputPath(const std::string& path);

    /**
     * Read a results file written by Write().
     * \param path the HDF5 file
     * \return the results (every field that Write() stores; /histograms, computed from the
     *         message table, is not read back)
     * \throws std::runtime_error naming the path if the file cannot be opened or does not
     *         have the expected layout
     */
    static RunResults Read(const std::string& path);

    /**
     * Read a run stored as a group of a larger file (a study file's /runs/FABRIC/WORKLOAD,
     * which holds a results file copied whole): the same layout as Read(path), below \p group.
     * \param path the HDF5 file
     * \param group the absolute path of the run's group ("/": the whole file, as Read(path))
     * \return the results
     * \throws std::runtime_error naming the path and the group if the file cannot be opened or
     *         the group does not have the expected layout
     */
    static RunResults Read(const std::string& path, const std::string& group);
};

} // namespace ns3

#endif /* POD_RESULTS_WRITER_H */
