/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DAG_ITERATION_SUMMARY_H
#define DAG_ITERATION_SUMMARY_H

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup workload
 * \brief The summary of one iteration of a DAG workload from its node instances (the rows of
 * /dag_nodes): the iteration time, the compute time and the exposed communication time per
 * accelerator, and the time per category (src/workload/doc/workload.rst, "Results";
 * analysis/llm_step.py computes the same from a results file).
 *
 * The iteration time is the last end minus the first start. An accelerator's compute time is the
 * length of the union of its compute nodes' intervals, its exposed communication time the
 * iteration time minus that; a category's time on an accelerator is the length of the union of
 * its nodes' intervals there. Means are over the accelerators that have rows. Rows with a
 * negative start or end (a node a stopped run never started or never finished) are left out and
 * counted.
 */
struct DagIterationSummary
{
    /// One node instance: a node on one accelerator.
    struct Row
    {
        uint32_t accelerator{0}; //!< the accelerator
        bool compute{false};     //!< a compute node
        std::string category;    //!< its category ("" if none)
        int64_t startPs{0};      //!< start
        int64_t endPs{0};        //!< end
    };

    int64_t iterationPs{0};   //!< last end - first start
    double computePs{0};      //!< mean compute time per accelerator
    double exposedPs{0};      //!< mean exposed communication time
    int64_t exposedMaxPs{0};  //!< largest exposed communication time
    uint32_t accelerators{0}; //!< accelerators with rows
    uint64_t unfinished{0};   //!< rows left out: never started or never ended (a stopped run)
    std::map<std::string, double> categoryPs; //!< mean time per category

    /**
     * \param rows the node instances of one iteration of one workload
     * \return their summary (all zero when there are none)
     */
    static DagIterationSummary Compute(const std::vector<Row>& rows);

    /// \return one line: "iteration X us, compute Y us, exposed communication Z us (max W us)
    ///         per accelerator; per category (us): a A, b B, ..."
    std::string ToString() const;
};

} // namespace ns3

#endif /* DAG_ITERATION_SUMMARY_H */
