/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef WORKLOAD_KIND_REGISTRY_H
#define WORKLOAD_KIND_REGISTRY_H

#include "workload-kind.h"

#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup collective
 * \brief The plug-in workload kinds a program knows, by name, in the order they were added (the
 * pod module adds podsim's from its registration list).
 */
class WorkloadKindRegistry
{
  public:
    /**
     * Add a kind (aborts if a kind of the same name is there).
     * \param kind the kind
     */
    static void Add(std::unique_ptr<WorkloadKind> kind);

    /**
     * \param name a value of workloads[].kind
     * \return its kind, or null
     */
    static const WorkloadKind* Find(const std::string& name);

    /// \return every kind, in the order added
    static std::vector<const WorkloadKind*> GetAll();
};

} // namespace ns3

#endif /* WORKLOAD_KIND_REGISTRY_H */
