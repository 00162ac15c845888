/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PYXIS_DAG_EXPORT_H
#define PYXIS_DAG_EXPORT_H

#include "pyxis-model-spec.h"
#include "pyxis-uie-model.h"

#include "ns3/dag-program.h"

#include <memory>

namespace ns3
{

/**
 * \ingroup pyxis
 * \brief A Pyxis model as a workload DAG, for tools that take DAGs (the Chakra export): each
 * chip's lowered operations (PyxisLayerProgram::Lower) in order, a compute node per compute
 * operation on its chip, and a collective node per tensor-parallel collective (merged over the
 * chips of its ring) and per data-parallel collective (over its replicas).
 *
 * A compute node lasts as long as the operation's UIE trips take in the trip program: the
 * launch cycles, the slowest share's cycles in the kernel model (PyxisTripProgram::ShareCycles)
 * and the commit cycles, at the UIE clock. A tensor-parallel collective keeps its bytes, group (in
 * ring order) and collective (all-reduce or all-gather) with the `ring` algorithm; a data-parallel
 * one its spec and algorithm. What the DAG does not carry: the trip-level machinery (per-cluster
 * rings, the reduce trips and barriers of section 11, Rx pre-posting), so a run of the DAG is
 * the model's operations and traffic on a generic collective schedule, not the Pyxis runner's
 * timeline; pyxis.rst, "As a DAG", says so.
 */
class PyxisDagExport
{
  public:
    /**
     * \param spec the model
     * \param uie the kernel model's parameters
     * \return the DAG (one iteration; chip c on accelerator c)
     */
    static std::shared_ptr<DagProgram> Build(const PyxisModelSpec& spec,
                                             const PyxisUieParams& uie = PyxisUieParams());
};

} // namespace ns3

#endif /* PYXIS_DAG_EXPORT_H */
