/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef WORKLOAD_CONFIG_H
#define WORKLOAD_CONFIG_H

#include "dag-program.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>

namespace ns3
{

/**
 * \ingroup collective
 * \brief The validated keys of one workload of a plug-in kind (WorkloadKind::Read): each kind
 * derives its own. The pod module keeps it without looking inside, except for the named values
 * it reports (the Python API's podsim.load).
 */
class WorkloadConfig
{
  public:
    virtual ~WorkloadConfig();

    /// \return named text values for reports (e.g. a model file, resolved)
    virtual std::map<std::string, std::string> GetTexts() const;

    /// \return named counts for reports (e.g. the chips a model runs on)
    virtual std::map<std::string, uint64_t> GetCounts() const;

    /// \return the file the workload's program comes from (a model file; "" if none), which
    ///         an error starting it names
    virtual std::string GetSourceFile() const;

    /**
     * A kind whose workload is a DAG (an execution trace, a generated training step) returns
     * it here; the pod then runs it with its DagRunner as it runs a `kind: dag` workload, and
     * does not call WorkloadKind::Start.
     * \return the DAG, or null for a kind that runs its own program
     */
    virtual std::shared_ptr<const DagProgram> GetDag() const;

    /**
     * The workload as a DAG for export (`--export-chakra`): GetDag() for a DAG kind; a kind that
     * runs its own program may return an equivalent DAG here (a Pyxis model's operations and
     * collectives) that the pod does not run itself.
     * \return the DAG, or null if the kind has none
     */
    virtual std::shared_ptr<const DagProgram> GetExportDag() const;
};

} // namespace ns3

#endif /* WORKLOAD_CONFIG_H */
