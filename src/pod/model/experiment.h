/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef POD_EXPERIMENT_H
#define POD_EXPERIMENT_H

#include "run-results.h"
#include "scenario.h"

#include <functional>
#include <string>
#include <vector>

namespace ns3
{

class PodTopology;

/**
 * \ingroup pod
 * \brief One run of one scenario: load, build the pod, post the workloads, run, collect.
 *
 * Used by the podsim-run program, the benchmarks and the Python binding. Each Run() builds a new
 * pod and ends with Simulator::Destroy(), so several runs can follow each other in one process.
 */
class Experiment
{
  public:
    /// What to do besides simulating.
    struct Options
    {
        bool writeResults{true}; //!< write the HDF5 results file named by the scenario
        std::string resultsFile; //!< override of output.file (empty: the scenario's)
        bool printSummary{true}; //!< print the summary table on stdout
        bool progress{true};     //!< progress line on stderr (also needs output.progress)
        /// Called once the pod is built, before the run (tests use it to inject a fault
        /// that no scenario key gives, e.g. a port without credits); empty: none.
        std::function<void(const PodTopology&)> afterBuild;
        bool check{false}; //!< invariant checks while running (also: scenario key check)
        /// --rails: simulate only these rails of a UALink pod (RailSplit; empty: all)
        std::vector<uint32_t> rails;
    };

    /**
     * Load and validate a scenario file with overrides (throws ScenarioError on bad input).
     * \param path YAML file
     * \param overrides KEY=VALUE strings (dotted scenario keys, e.g. pod.accelerators=64)
     * \return the scenario
     */
    static Scenario Load(const std::string& path, const std::vector<std::string>& overrides);

    /**
     * Run a scenario. With options.check (or the scenario's check key) the invariant checks run
     * too (FabricInvariantCheck, RunInvariantCheck): a violation throws
     * FabricInvariantCheck::Violation, after the simulator has been cleared for the next run.
     * \param scenario a validated scenario
     * \param options what to write and print
     * \return the results
     */
    static RunResults Run(const Scenario& scenario, const Options& options);

    /**
     * Print the summary table of a run.
     * \param r the results
     * \param os the stream
     */
    static void PrintSummary(const RunResults& r, std::ostream& os);

  private:
    /**
     * Run a scenario (Run without the handling of a violated invariant).
     * \param scenario a validated scenario
     * \param options what to write and print
     * \param check with the invariant checks
     * \return the results
     */
    static RunResults DoRun(const Scenario& scenario, const Options& options, bool check);
};

} // namespace ns3

#endif /* POD_EXPERIMENT_H */
