/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MESSAGE_TRACE_WORKLOAD_KIND_H
#define MESSAGE_TRACE_WORKLOAD_KIND_H

#include "ns3/message-trace.h"
#include "ns3/workload-kind.h"

#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup workload
 * \brief `workloads[].kind: message-trace`: messages captured from a real system (a CSV or HDF5
 * file of src, dst, bytes and an issue time or the messages each waits for) replayed on any
 * fabric through the endpoint API (src/workload/doc/workload.rst, section Message traces).
 *
 * The trace is read and checked row by row when the scenario is loaded; its messages are
 * recorded in the results' /messages table like the pod's own workloads' (WorkloadRun::
 * TablesMessage), and its own table /message_trace/<workload name> keeps each row's line, tag,
 * issue and completion time.
 */
class MessageTraceWorkloadKind : public WorkloadKind
{
  public:
    /// A message-trace workload's keys and its loaded trace.
    class Config : public WorkloadConfig
    {
      public:
        std::string name;                    //!< the workload's name (its table's group)
        std::string file;                    //!< workloads[].file, resolved
        std::string format;                  //!< csv or hdf5
        double timeScale{1};                 //!< workloads[].time-scale
        uint8_t tclass{0};                   //!< workloads[].class
        Time start;                          //!< workloads[].start
        std::vector<uint32_t> placement;     //!< rank -> accelerator
        std::shared_ptr<MessageTrace> trace; //!< the rows

        std::map<std::string, std::string> GetTexts() const override;
        std::map<std::string, uint64_t> GetCounts() const override;
        std::string GetSourceFile() const override;
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

#endif /* MESSAGE_TRACE_WORKLOAD_KIND_H */
