/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// podsim-run-mpi: run one scenario with ns-3's MPI distributed simulator (contrib/mpi).
//
//   mpirun -np 2 build/bin/podsim-run-mpi SCENARIO.yaml [--set=KEY=VALUE ...] [--out=FILE]
//   ./podsim run --ranks 2 SCENARIO.yaml          # the same through the driver script
//
// Every rank builds the whole pod (PodTopology::SetPartition gives each node its rank) and
// simulates its own nodes; links between ranks are FabricRemoteChannels. Each rank records the
// deliveries and completions of its own accelerators; rank 0 gathers them (MPI_Reduce) and
// writes the results file with the per-message table and the run's totals.

#include "huge-page-heap.h"

#include "ns3/command-line.h"
#include "ns3/config.h"
#include "ns3/experiment.h"
#include "ns3/fabric-endpoint.h"
#include "ns3/fabric-remote-channel.h"
#include "ns3/mpi-interface.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/picosecond-resolution.h"
#include "ns3/pod-plugins.h"
#include "ns3/pod-topology.h"
#include "ns3/results-writer.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/run-results.h"
#include "ns3/scenario-error.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"
#include "ns3/workload-generator.h"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <map>
#include <mpi.h>
#include <set>
#include <string>
#include <vector>

using namespace ns3;

namespace
{
std::vector<std::string> g_overrides; //!< --set values, in order

/**
 * Collect one --set value.
 * \param kv KEY=VALUE
 * \return true
 */
bool
AddOverride(std::string kv)
{
    g_overrides.push_back(std::move(kv));
    return true;
}

/// What a distributed run does not support yet, or "" (the run's scenario is refused with it).
std::string
Unsupported(const Scenario& s)
{
    if (!PodPlugins::GetFabric(s.pod.fabric).SupportsDistributed())
    {
        std::string fabrics;
        for (const FabricKind* k : PodPlugins::GetFabrics())
        {
            if (k->SupportsDistributed())
            {
                fabrics += (fabrics.empty() ? "" : ", ") + k->GetName();
            }
        }
        return "pod.fabric: a distributed run supports " + fabrics + ", not " + s.pod.fabric;
    }
    for (uint32_t i = 0; i < s.workloads.size(); ++i)
    {
        const std::string& k = s.workloads[i].kind;
        if (k != "incast" && k != "permutation" && k != "all-to-all")
        {
            return "workloads[" + std::to_string(i) + "].kind: a distributed run supports " +
                   "incast, permutation and all-to-all, not " + k +
                   " (collectives and DAGs coordinate ranks outside the links)";
        }
    }
    if (!s.faults.empty())
    {
        return "faults: not supported in a distributed run";
    }
    if (s.check)
    {
        return "check: not supported in a distributed run";
    }
    return "";
}

/// Records the deliveries and completions at this rank's accelerators.
struct LocalRecorder
{
    RunResults::Messages* table{nullptr}; //!< the planned table (rows = cookies)
    uint64_t delivered{0};                //!< messages delivered here
    uint64_t bytesDelivered{0};           //!< their payload bytes
    uint64_t completed{0};                //!< messages completed here

    /// \param m a delivered message
    void Delivered(const FabricMessage& m)
    {
        table->deliverPs[m.cookie] = m.delivered.GetPicoSeconds();
        ++delivered;
        bytesDelivered += m.bytes;
    }

    /// \param m a completed message
    void Completed(const FabricMessage& m)
    {
        table->completePs[m.cookie] = m.completed.GetPicoSeconds();
        ++completed;
    }
};

} // namespace

int
main(int argc, char** argv)
{
    // podsim runs at picosecond resolution (DESIGN.md rule 4): set before any Time is made.
    EnsurePicosecondResolution();

    MpiInterface::Enable(&argc, &argv); // also selects ns3::DistributedSimulatorImpl
    const uint32_t rank = MpiInterface::GetSystemId();
    const uint32_t ranks = MpiInterface::GetSize();
    MPI_Comm comm = MpiInterface::GetCommunicator();

    std::string scenario;
    std::string out;
    bool quiet = false;
    CommandLine cmd(__FILE__);
    cmd.Usage("Run a podsim scenario (YAML) over the ranks of an MPI job (mpirun -np N).");
    cmd.AddNonOption("scenario", "scenario file", scenario);
    cmd.AddValue("set",
                 "override a scenario key, KEY=VALUE (repeatable)",
                 MakeCallback(&AddOverride));
    cmd.AddValue("out", "results file (default: the scenario's output.file)", out);
    cmd.AddValue("quiet", "no summary lines", quiet);
    bool hugePages = true;
    cmd.AddValue("huge-pages",
                 "put the heap on transparent huge pages, as podsim-run does",
                 hugePages);
    std::string seed;
    cmd.AddValue("seed", "random seed (ns-3 RngRun), as --set=seed=N", seed);
    cmd.Parse(argc, argv);
    if (hugePages)
    {
        HugePageHeap::Install();
    }
    if (!seed.empty())
    {
        g_overrides.push_back("seed=" + seed); // applied last, as podsim-run does
    }

    Scenario s;
    std::string error;
    try
    {
        s = Experiment::Load(scenario, g_overrides);
        error = Unsupported(s);
        if (!error.empty())
        {
            error = scenario + ": " + error;
        }
    }
    catch (const ScenarioError& e)
    {
        error = e.what();
    }
    if (!error.empty())
    {
        if (rank == 0)
        {
            std::cerr << "error: " << error << std::endl;
        }
        MpiInterface::Disable();
        return 2;
    }
    const std::string resultsFile = out.empty() ? s.output.file : out;
    if (rank == 0)
    {
        ResultsWriter::CheckWritable(resultsFile);
        if (!quiet && (s.limits.noProgress.IsStrictlyPositive() || s.limits.wallSeconds > 0 ||
                       s.output.sampleInterval.IsStrictlyPositive()))
        {
            std::cerr << "note: a distributed run does not apply limits.no-progress, limits.wall "
                         "or output.sample-interval, and writes the message table and totals "
                         "only (src/pod/doc/performance.rst, Distributed runs)"
                      << std::endl;
        }
    }

    if (!s.pod.canonicalArrivals)
    {
        // Units from other ranks can only be ordered canonically (FabricArrivalOrder), and the
        // local ones must be ordered alike.
        if (rank == 0 && !quiet)
        {
            std::cerr << "note: a distributed run orders the units that reach a node in the same "
                         "picosecond canonically: its results are those of podsim-run with "
                         "--set=pod.arrival-order=canonical"
                      << std::endl;
        }
        s.pod.canonicalArrivals = true;
    }

    RngSeedManager::SetRun(s.seed);
    {
        static const std::map<std::string, std::string> kSchedulers = {
            {"map", "ns3::MapScheduler"},
            {"heap", "ns3::HeapScheduler"},
            {"calendar", "ns3::CalendarScheduler"},
            {"priority-queue", "ns3::PriorityQueueScheduler"},
            {"heap2", "ns3::FabricHeapScheduler"},
            {"heap4", "ns3::FabricHeapScheduler"},
            {"heap8", "ns3::FabricHeapScheduler"}};
        // The scenario's scheduler, inside FabricPeekScheduler (FabricArrivalOrder asks it
        // whether events of the present picosecond are pending), as podsim-run with
        // pod.arrival-order: canonical.
        NS_ABORT_MSG_IF(!kSchedulers.count(s.scheduler), "unknown scheduler " << s.scheduler);
        ObjectFactory scheduler("ns3::FabricPeekScheduler");
        ObjectFactory inner(kSchedulers.at(s.scheduler));
        if (s.scheduler.rfind("heap", 0) == 0 && s.scheduler.size() > 4)
        {
            // FabricHeapScheduler's arity is the name's digit.
            inner.Set("Arity", UintegerValue(std::stoul(s.scheduler.substr(4))));
        }
        scheduler.Set("Inner", ObjectFactoryValue(inner));
        Simulator::SetScheduler(scheduler);
    }

    // Build the whole pod on every rank; each node knows its rank.
    PodTopology topo;
    topo.SetPartition(ranks, "ns3::FabricRemoteChannel");
    topo.Build(s.pod);
    const uint32_t n = topo.GetNAccelerators();
    auto local = [&topo, rank](uint32_t acc) { return topo.GetAcceleratorRank(acc) == rank; };

    RunResults r;
    r.scenarioName = s.name;
    r.scenarioText = s.text;
    r.accelerators = s.pod.accelerators;
    r.planes = s.pod.planes;
    r.switches = topo.GetSwitches().size();
    const auto rows = WorkloadGenerator::Plan(s, r);
    LocalRecorder rec;
    rec.table = &r.messages;
    for (uint32_t i = 0; i < n; ++i)
    {
        if (local(i))
        {
            topo.GetEndpoint(i)->SetDeliveredCallback(
                MakeCallback(&LocalRecorder::Delivered, &rec));
            topo.GetEndpoint(i)->SetCompletedCallback(
                MakeCallback(&LocalRecorder::Completed, &rec));
        }
    }
    // This rank's posters only (writes by their sources, reads by their readers): each
    // endpoint sees the same sequence of posts as in the sequential run, lazily where it can.
    const auto lazy = WorkloadGenerator::Schedule(s, r, rows, topo, local);
    if (s.stopTime.IsStrictlyPositive())
    {
        Simulator::Stop(s.stopTime);
    }

    MPI_Barrier(comm);
    const auto t0 = std::chrono::steady_clock::now();
    Simulator::Run();
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    lazy->PostRemaining(); // a stopped run: the counters of posting everything at the start
    // Each channel once (it is the channel of both its transmitters).
    std::set<Ptr<FabricRemoteChannel>> remoteChannels;
    for (const auto& tr : topo.GetTransmitters())
    {
        if (Ptr<FabricRemoteChannel> c =
                DynamicCast<FabricRemoteChannel>(tr.device->GetFabricChannel()))
        {
            remoteChannels.insert(c);
        }
    }
    uint64_t remoteUnits = 0;
    for (const auto& c : remoteChannels)
    {
        remoteUnits += c->GetRemoteUnits();
    }
    uint64_t bytesSent = 0;
    for (uint32_t i = 0; i < n; ++i)
    {
        if (local(i))
        {
            bytesSent += topo.GetEndpoint(i)->GetBytesSent();
        }
    }

    // Gather: every row's times are -1 except on the ranks that saw them.
    RunResults::Messages& m = r.messages;
    const int rowsN = static_cast<int>(m.src.size());
    std::vector<int64_t> deliver(rowsN);
    std::vector<int64_t> complete(rowsN);
    MPI_Reduce(m.deliverPs.data(), deliver.data(), rowsN, MPI_INT64_T, MPI_MAX, 0, comm);
    MPI_Reduce(m.completePs.data(), complete.data(), rowsN, MPI_INT64_T, MPI_MAX, 0, comm);
    // Counters, summed over the ranks: events, units between ranks, bytes, messages.
    uint64_t mine[6] = {Simulator::GetEventCount(),
                        remoteUnits,
                        rec.bytesDelivered,
                        bytesSent,
                        rec.delivered,
                        rec.completed};
    uint64_t sum[6] = {};
    MPI_Reduce(mine, sum, 6, MPI_UINT64_T, MPI_SUM, 0, comm);
    double slowest = 0;
    MPI_Reduce(&wall, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, comm);
    Simulator::Destroy();

    int rc = 0;
    if (rank == 0)
    {
        m.deliverPs = deliver;
        m.completePs = complete;
        r.events = sum[0];
        r.bytesDelivered = sum[2];
        r.bytesSent = sum[3];
        r.wallSeconds = slowest;
        r.simTimePs = 0;
        for (int i = 0; i < rowsN; ++i)
        {
            r.simTimePs = std::max({r.simTimePs, deliver[i], complete[i]});
        }
        ResultsWriter::Write(resultsFile, r);
        if (!quiet)
        {
            std::cout << "distributed run: " << ranks << " ranks, " << r.events << " events, "
                      << sum[1] << " units between ranks, " << sum[4] << " of " << rowsN
                      << " messages delivered, " << sum[5] << " completed, simulated "
                      << r.simTimePs << " ps, wall " << slowest << " s" << std::endl;
            std::cout << "results: " << resultsFile << std::endl;
        }
        if (sum[4] != static_cast<uint64_t>(rowsN) && !s.stopTime.IsStrictlyPositive())
        {
            std::cerr << "error: " << rowsN - sum[4] << " messages were not delivered" << std::endl;
            rc = 1;
        }
    }
    MPI_Bcast(&rc, 1, MPI_INT, 0, comm);
    MpiInterface::Disable();
    return rc;
}
