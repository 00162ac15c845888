/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "experiment.h"

#include "buffer-sampler.h"
#include "channel-dependency-graph.h"
#include "fault-injector.h"
#include "output-budget.h"
#include "pod-memory-estimate.h"
#include "pod-plugins.h"
#include "pod-topology.h"
#include "pod-watchdog-probes.h"
#include "progress-reporter.h"
#include "progress-watchdog.h"
#include "rail-split.h"
#include "results-writer.h"
#include "run-invariant-check.h"
#include "scenario-dag.h"
#include "scenario-error.h"
#include "scenario-loader.h"
#include "wall-clock-limit.h"
#include "workload-generator.h"

#include "ns3/collective-dispatcher.h"
#include "ns3/collective-helper.h"
#include "ns3/config.h"
#include "ns3/dag-iteration-summary.h"
#include "ns3/dag-runner.h"
#include "ns3/fabric-channel.h"
#include "ns3/fabric-check-scheduler.h"
#include "ns3/fabric-deadlock-monitor.h"
#include "ns3/fabric-go-back-n.h"
#include "ns3/fabric-invariant-check.h"
#include "ns3/fabric-pfc.h"
#include "ns3/fabric-retry-engine.h"
#include "ns3/flow-engine.h"
#include "ns3/log.h"
#include "ns3/object-factory.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"
#include "ns3/workload-kind.h"
#include "ns3/workload-run.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <sys/resource.h>
#include <unordered_map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("Experiment");

namespace
{

/// \return peak resident set size of this process in bytes
uint64_t
PeakRss()
{
    // VmHWM, the high-water mark of this process image: getrusage's ru_maxrss is kept across
    // execve, so a run started by a large process (a Python test) reported the parent's peak.
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
    {
        if (line.rfind("VmHWM:", 0) == 0)
        {
            return std::stoull(line.substr(6)) * 1024; // kB
        }
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return static_cast<uint64_t>(ru.ru_maxrss) * 1024; // Linux reports KiB
}

/// What a collective instance belongs to.
struct InstanceInfo
{
    uint32_t workload{0};  //!< workload index
    std::string name;      //!< workload name, or "<workload>/<node>"
    uint32_t iteration{0}; //!< iteration
};

/// Records deliveries and completions into the message table: the cookie is the row for
/// planned workloads; a collective's messages, and those of a plug-in workload that tables its
/// messages (WorkloadRun::TablesMessage: a message trace), get a row when they are posted.
struct MessageRecorder
{
    RunResults::Messages* table{nullptr};                //!< the table
    const std::vector<InstanceInfo>* instances{nullptr}; //!< collective instances
    std::unordered_map<uint64_t, uint64_t> rows;         //!< (src, message id) -> row (collectives)
    uint64_t bytesDelivered{0};                          //!< payload bytes of delivered messages
    uint64_t posted{0};                                  //!< messages posted
    uint64_t delivered{0};                               //!< messages delivered
    uint64_t completed{0};                               //!< messages completed
    Ptr<ProgressWatchdog> watchdog;                      //!< armed by each post (or null)
    RunInvariantCheck* check{nullptr};                   //!< check mode: the run's checks
    const WorkloadRun* program{nullptr}; //!< a plug-in workload, whose messages it records itself
    /// plug-in workloads and their indexes, whose messages it may table (TablesMessage)
    std::vector<std::pair<const WorkloadRun*, uint32_t>> plugins;
    std::unordered_map<uint64_t, uint64_t> cookieRows; //!< cookie -> row (tabled plug-in messages)

    /// \param m a message \return its key in rows
    static uint64_t Key(const FabricMessage& m)
    {
        return (static_cast<uint64_t>(m.src) << 40) | m.id;
    }

    /// A message was posted.
    void Posted(const FabricMessage& m)
    {
        ++posted;
        if (watchdog)
        {
            watchdog->Arm();
        }
        if (!CollectiveDispatcher::IsCollective(m.cookie))
        {
            uint32_t src = 0;
            uint32_t dst = 0;
            for (const auto& [run, wi] : plugins)
            {
                if (run->TablesMessage(m.cookie, src, dst))
                {
                    cookieRows[m.cookie] = table->src.size();
                    AddRow(m, src, dst, wi);
                    return;
                }
            }
            return;
        }
        if (program && program->OwnsMessage(m.cookie))
        {
            return;
        }
        rows[Key(m)] = table->src.size();
        AddRow(m, m.src, m.dst, (*instances)[CollectiveDispatcher::InstanceOf(m.cookie)].workload);
    }

    /**
     * Add a row for a message posted now.
     * \param m the message
     * \param src the accelerator its data leaves
     * \param dst the accelerator its data reaches
     * \param wi its workload
     */
    void AddRow(const FabricMessage& m, uint32_t src, uint32_t dst, uint32_t wi)
    {
        table->src.push_back(src);
        table->dst.push_back(dst);
        table->bytes.push_back(m.bytes);
        table->tclass.push_back(m.tclass);
        table->workload.push_back(wi);
        table->postPs.push_back(m.posted.GetPicoSeconds());
        table->deliverPs.push_back(-1);
        table->completePs.push_back(-1);
    }

    /**
     * \param m a message
     * \return its row; a tabled plug-in message whose post no Post trace announced (UALink's
     *         reads and atomics) gets its row now, with the post time its record carries
     */
    uint64_t Row(const FabricMessage& m)
    {
        if (CollectiveDispatcher::IsCollective(m.cookie))
        {
            return rows.at(Key(m));
        }
        if (!plugins.empty())
        {
            const auto it = cookieRows.find(m.cookie);
            if (it != cookieRows.end())
            {
                return it->second;
            }
            uint32_t src = 0;
            uint32_t dst = 0;
            for (const auto& [run, wi] : plugins)
            {
                if (run->TablesMessage(m.cookie, src, dst))
                {
                    const uint64_t row = table->src.size();
                    cookieRows[m.cookie] = row;
                    AddRow(m, src, dst, wi);
                    return row;
                }
            }
        }
        return m.cookie;
    }

    /// Forget a collective or tabled message's row once it is delivered and completed.
    void Release(const FabricMessage& m, uint64_t row)
    {
        if (table->deliverPs[row] < 0 || table->completePs[row] < 0)
        {
            return;
        }
        if (CollectiveDispatcher::IsCollective(m.cookie))
        {
            rows.erase(Key(m));
        }
        else if (!plugins.empty())
        {
            cookieRows.erase(m.cookie);
        }
    }

    /// A message was delivered.
    void Delivered(const FabricMessage& m)
    {
        if (program && program->OwnsMessage(m.cookie))
        {
            bytesDelivered += m.bytes; // a plug-in workload's own message: its table has it
            ++delivered;
            return;
        }
        if (check)
        {
            // A collective message's row is forgotten once delivered and completed.
            const bool gone = CollectiveDispatcher::IsCollective(m.cookie) && !rows.count(Key(m));
            check->Delivered(m.src, m.dst, m.id, gone || table->deliverPs[Row(m)] >= 0);
        }
        const uint64_t row = Row(m);
        table->deliverPs[row] = m.delivered.GetPicoSeconds();
        bytesDelivered += m.bytes;
        ++delivered;
        Release(m, row);
    }

    /// A message completed.
    void Completed(const FabricMessage& m)
    {
        if (program && program->OwnsMessage(m.cookie))
        {
            ++completed;
            return;
        }
        const uint64_t row = Row(m);
        if (m.delivered.IsStrictlyPositive() && table->deliverPs[row] < 0 &&
            !CollectiveDispatcher::IsCollective(m.cookie))
        {
            // A read that completes where it is delivered, the completion carrying the delivery
            // time (the endpoint API's Read) without a delivered callback of its own.
            table->deliverPs[row] = m.delivered.GetPicoSeconds();
            bytesDelivered += m.bytes;
            ++delivered;
        }
        table->completePs[row] = m.completed.GetPicoSeconds();
        ++completed;
        Release(m, row);
    }
};

/// The pod's collectives: creates executors from scenario collectives and keeps their owners.
struct CollectiveContext
{
    Ptr<CollectiveDispatcher> dispatcher; //!< routes the messages
    std::vector<Ptr<FabricEndpoint>> all; //!< every endpoint
    std::vector<InstanceInfo> instances;  //!< per instance id

    /**
     * Create (not start) a collective.
     * \param c the scenario's collective
     * \param tclass traffic class
     * \param info what it belongs to
     * \return the executor
     */
    Ptr<CollectiveExecutor> Install(const Scenario::Collective& c,
                                    uint8_t tclass,
                                    const InstanceInfo& info)
    {
        CollectiveHelper h;
        h.SetExecutorAttribute("Chunks", UintegerValue(c.chunks));
        h.SetExecutorAttribute("ChunksInFlight", UintegerValue(c.chunksInFlight));
        h.SetExecutorAttribute("Stripes", UintegerValue(c.stripes));
        h.SetExecutorAttribute("ReduceTimePerByte", TimeValue(c.reduceCost));
        h.SetExecutorAttribute("TrafficClass", UintegerValue(tclass));
        if (c.groupSize)
        {
            h.SetAlgorithmAttribute("GroupSize", UintegerValue(c.groupSize));
        }
        CollectiveSpec spec;
        CollectiveSpec::ParseType(c.collective, spec.type);
        spec.root = c.root;
        spec.bytes = c.bytes;
        spec.sizes = c.sizes;
        std::vector<Ptr<FabricEndpoint>> group;
        if (c.group.empty())
        {
            group = all;
        }
        else
        {
            for (uint32_t a : c.group)
            {
                group.push_back(all[a]);
            }
        }
        Ptr<CollectiveExecutor> e = h.Install(dispatcher, spec, c.algorithm, group);
        instances.resize(std::max<std::size_t>(instances.size(), e->GetInstance() + 1));
        instances[e->GetInstance()] = info;
        return e;
    }
};

/// Runs the iterations of a collective workload back to back.
struct CollectiveWorkloadRun
{
    CollectiveContext* ctx{nullptr};      //!< the pod's collectives
    const Scenario::Workload* w{nullptr}; //!< the workload
    uint32_t index{0};                    //!< workload index
    uint32_t next{0};                     //!< next iteration
    uint32_t running{0};                  //!< communicators of this iteration not done

    /// Start the next iteration, if any: one collective per communicator, all at once.
    void StartNext()
    {
        if (next >= w->iterations)
        {
            return;
        }
        const InstanceInfo info{index, w->name, next++};
        if (w->communicators <= 1)
        {
            running = 1;
            Ptr<CollectiveExecutor> e = ctx->Install(w->coll, w->tclass, info);
            e->SetDoneCallback(MakeCallback(&CollectiveWorkloadRun::Done, this));
            e->Start();
            return;
        }
        // Communicator k: members [k b, (k + 1) b) of the group (every accelerator if none).
        const auto members =
            static_cast<uint32_t>(w->coll.group.empty() ? ctx->all.size() : w->coll.group.size());
        const uint32_t b = members / w->communicators;
        running = w->communicators;
        std::vector<Ptr<CollectiveExecutor>> started;
        for (uint32_t k = 0; k < w->communicators; ++k)
        {
            Scenario::Collective c = w->coll;
            c.group.resize(b);
            for (uint32_t r = 0; r < b; ++r)
            {
                const uint32_t m = k * b + r;
                c.group[r] = w->coll.group.empty() ? m : w->coll.group[m];
            }
            Ptr<CollectiveExecutor> e = ctx->Install(c, w->tclass, info);
            e->SetDoneCallback(MakeCallback(&CollectiveWorkloadRun::Done, this));
            started.push_back(e);
        }
        for (auto& e : started)
        {
            e->Start();
        }
    }

    /// A communicator finished; the iteration is done when all have.
    void Done(Ptr<CollectiveExecutor>)
    {
        if (--running == 0)
        {
            StartNext();
        }
    }
};

/**
 * \param c a scenario's collective
 * \param accelerators the pod's size (a collective without a group is over all of them)
 * \return the messages its whole schedule posts (CollectiveExecutor::CountPlannedMessages)
 */
uint64_t
PlannedMessages(const Scenario::Collective& c, uint32_t accelerators)
{
    return CollectiveExecutor::CountPlannedMessages(PodMemoryEstimate::ScheduleOf(c, accelerators),
                                                    c.chunks,
                                                    c.stripes);
}

/**
 * Add a row to the DAG node table.
 * \param r the results
 * \param wi the DAG's workload
 * \param d the node
 * \param rec its instance on one accelerator (-1 times for what did not happen)
 */
void
AddDagNodeRow(RunResults& r, uint32_t wi, const DagProgram::Node& d, const DagRunner::Record& rec)
{
    r.dagNodes.workload.push_back(wi);
    r.dagNodes.node.push_back(d.name);
    r.dagNodes.kind.push_back(DagProgram::KindName(d.kind));
    r.dagNodes.category.push_back(d.category);
    r.dagNodes.iteration.push_back(rec.iteration);
    r.dagNodes.accelerator.push_back(rec.accelerator);
    r.dagNodes.startPs.push_back(rec.start.GetPicoSeconds());
    r.dagNodes.endPs.push_back(rec.end.GetPicoSeconds());
}

/**
 * \param ids accelerator ids
 * \return them as text, runs of consecutive ids as ranges: "0-127", "0,2,4"
 */
std::string
FormatGroup(const std::vector<uint32_t>& ids)
{
    std::string out;
    for (std::size_t i = 0; i < ids.size();)
    {
        std::size_t j = i;
        while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1)
        {
            ++j;
        }
        out += (out.empty() ? "" : ",") + std::to_string(ids[i]);
        if (j > i)
        {
            out += "-" + std::to_string(ids[j]);
        }
        i = j + 1;
    }
    return out;
}

/**
 * With lossless flow control, the deadlock checks: the static channel dependency check of the
 * routes (a warning on stderr naming a cycle, the run goes on) and, unless
 * pod.flow-control.deadlock-timeout is 0, a deadlock monitor on every switch.
 * \param s the scenario
 * \param topo the built pod
 * \return the monitor, or null
 */
Ptr<FabricDeadlockMonitor>
WatchForDeadlock(const Scenario& s, const PodTopology& topo)
{
    const auto& fc = s.pod.fc;
    if (fc.kind == "none")
    {
        return nullptr;
    }
    const auto t0 = std::chrono::steady_clock::now();
    ChannelDependencyGraph cdg;
    cdg.AddSwitches(topo);
    cdg.Build();
    NS_LOG_INFO(
        "channel dependency check: "
        << cdg.GetNChannels() << " channels, " << cdg.GetNDependencies() << " dependencies, "
        << std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() << " s");
    const auto& cycle = cdg.GetCycle();
    if (!cycle.empty())
    {
        std::cerr << "warning: the routes have a cyclic channel dependency and can deadlock "
                     "under "
                  << fc.kind << ": ";
        for (const auto& c : cycle)
        {
            std::cerr << c << " -> ";
        }
        std::cerr << cycle.front() << " (" << cdg.GetNCyclicChannels()
                  << " channels on cycles in all)" << std::endl;
    }
    if (!fc.deadlockTimeout.IsStrictlyPositive())
    {
        return nullptr;
    }
    Ptr<FabricDeadlockMonitor> monitor = CreateObject<FabricDeadlockMonitor>();
    monitor->SetAttribute("Timeout", TimeValue(fc.deadlockTimeout));
    monitor->SetAttribute("CheckInterval", TimeValue(fc.deadlockCheckInterval));
    const auto& switches = topo.GetSwitches();
    for (uint32_t k = 0; k < switches.size(); ++k)
    {
        monitor->AddSwitch(switches[k], topo.GetSwitchName(k));
    }
    return monitor;
}

/// \return the q-quantile of sorted values
double
Quantile(const std::vector<int64_t>& sorted, double q)
{
    if (sorted.empty())
    {
        return 0;
    }
    const std::size_t i = std::min<std::size_t>(sorted.size() - 1, q * sorted.size());
    return sorted[i];
}

/**
 * Count the messages that did not arrive and name the failure, if any:
 * StoppedWithMessagesOutstanding when the stop time cut the run short with events pending,
 * MessagesFailed when the run ended by itself with messages undelivered. The causes counted in the
 * results are listed with it.
 *
 * \param s the scenario
 * \param r the results (messages, drops and transport counters filled)
 * \param stopped the stop time came with events still pending
 */
void
NameFailure(const Scenario& s, RunResults& r, bool stopped)
{
    const RunResults::Messages& m = r.messages;
    uint64_t bytes = 0;
    for (std::size_t i = 0; i < m.src.size(); ++i)
    {
        bytes += m.bytes[i];
        if (m.deliverPs[i] < 0 && m.deliverPs[i] != RunResults::NOT_IN_RAILS)
        {
            ++r.messagesFailed;
            r.bytesFailed += m.bytes[i];
        }
    }
    if (r.messagesFailed == 0 && r.messagesUnposted == 0)
    {
        return;
    }
    std::ostringstream os;
    os << (stopped ? "StoppedWithMessagesOutstanding" : "MessagesFailed") << ": "
       << r.messagesFailed << " of " << m.src.size() << " messages (" << r.bytesFailed << " of "
       << bytes << " B) not delivered";
    if (r.messagesUnposted > 0)
    {
        // Collectives and DAG nodes post as they go: what waited on failed messages never was.
        os << ", " << r.messagesUnposted << " more never posted (of "
           << m.src.size() + r.messagesUnposted << " their collectives and DAG nodes would post)";
    }
    std::string causes;
    for (const auto& [reason, n] : r.dropsByReason)
    {
        causes += (causes.empty() ? "" : ", ") + reason + " " + std::to_string(n);
    }
    if (r.failedConnections > 0)
    {
        causes += (causes.empty() ? "" : ", ") + std::string("connections failed ") +
                  std::to_string(r.failedConnections);
    }
    if (r.isolations > 0)
    {
        causes += (causes.empty() ? "" : ", ") + std::string("stations isolated ") +
                  std::to_string(r.isolations) + " (CMPTO " + std::to_string(r.cmpto) + ")";
    }
    if (!causes.empty())
    {
        os << " (" << causes << ")";
    }
    if (!s.faults.empty())
    {
        os << " after " << s.faults.size() << " fault(s): " << FaultInjector::Describe(s.faults[0]);
        if (s.faults.size() > 1)
        {
            os << ", ...";
        }
    }
    r.failure = os.str();
}

/// One run of a scenario, step by step (Experiment::DoRun): each step is a method, in the order
/// Run() calls them, and what the steps share is the run's state below.
class ExperimentRun
{
  public:
    /// The steady clock the run's wall times are taken with.
    using clock = std::chrono::steady_clock;

    /**
     * \param scenario a validated scenario
     * \param runOptions what to write and print
     * \param withChecks with the invariant checks
     */
    ExperimentRun(const Scenario& scenario, const Experiment::Options& runOptions, bool withChecks)
        : s(scenario),
          options(runOptions),
          check(withChecks)
    {
    }

    /// \return the results, after every step
    RunResults Run();

  private:
    void Describe();            //!< the scenario's description; refuses what cannot run
    void SetScheduler();        //!< the scenario's event scheduler
    void Build();               //!< the pod, its watchers (deadlock, samples, watchdog, checks)
    void Connect();             //!< the message table, recorder, rails, planned posts, faults
    void StartWorkloads();      //!< collectives, DAGs and plug-in workloads
    void StartDag(uint32_t wi); //!< one DAG workload
    void Simulate();            //!< progress, watchdog counters, limits, stop time; the run
    void Ended();               //!< what the run left: the last posts, its simulated time
    void CollectEndpoints();    //!< the endpoints' bytes and transports, the faults' counts
    void CollectLinks();        //!< the per-link table
    void CollectFabric();       //!< the fabric's own counters, the failure, the switch buffers
    void CollectCollectives();  //!< the collectives' and DAG nodes' tables
    void Account();             //!< messages never posted, unfinished DAG nodes, the failure
    void Finish();              //!< the monitors' reports, the end-of-run checks; the simulator
    void Output();              //!< the summary, the output budget, the results file

    /**
     * Run one step, named for the progress lines and errors.
     * \param name what it does ("building the pod")
     * \param fn the step
     */
    void Step(const std::string& name, void (ExperimentRun::*fn)());

    /**
     * The build's monitor (PodTopology::BuildMonitor): stops it past limits.wall or on an
     * interrupt (WallClockLimit::Stopped), prints its progress in a long build.
     * \param what the build's step
     * \param done its units done
     * \param total its units
     */
    void WatchBuild(const std::string& what, uint64_t done, uint64_t total);

    /// Wall seconds of a run before progress lines are printed, and between two of the build's.
    static constexpr double kQuietSeconds = 2.0;

    const Scenario& s;                                  //!< the scenario
    const Experiment::Options& options;                 //!< what to write and print
    const bool check;                                   //!< the invariant checks are on
    RunResults r;                                       //!< the results
    std::string resultsFile;                            //!< the results file
    clock::time_point t0;                               //!< when the build started
    PodTopology topo;                                   //!< the pod
    Ptr<FabricDeadlockMonitor> deadlockMonitor;         //!< lossless fabrics: the deadlock monitor
    std::unique_ptr<BufferSampler> sampler;             //!< the switch buffer series
    Ptr<ProgressWatchdog> watchdog;                     //!< the no-progress watchdog
    Ptr<FlowEngine> flow;                               //!< engine: flow: the flow engine
    std::unique_ptr<RunInvariantCheck> invariants;      //!< the invariant checks
    std::vector<std::pair<uint64_t, uint64_t>> rows;    //!< each workload's planned rows
    CollectiveContext coll;                             //!< collectives and the dispatcher
    MessageRecorder rec;                                //!< the message table's recorder
    RailSplit railSplit;                                //!< a run of some rails
    std::shared_ptr<WorkloadGenerator::LazyPosts> lazy; //!< messages posted lazily
    std::unique_ptr<FaultInjector> faults;              //!< the injected faults
    std::vector<std::unique_ptr<CollectiveWorkloadRun>> collectiveRuns; //!< collective workloads
    std::vector<std::pair<uint32_t, Ptr<DagRunner>>> dags;              //!< DAG workloads
    std::vector<std::unique_ptr<WorkloadRun>> programs;                 //!< plug-in workloads
    uint64_t totalBytes{0};                     //!< the planned messages' bytes (progress)
    std::unique_ptr<ProgressReporter> progress; //!< the progress line
    WallClockLimit wallLimit;                   //!< limits.wall
    bool stoppedWithWork{false};                //!< the stop time cut the run short
    std::string step;                           //!< the step being run (Step)
    double lastBuildLine{0};                    //!< wall time of the build's last progress line
};

RunResults
ExperimentRun::Run()
{
    NS_LOG_FUNCTION(s.name << check);
    try
    {
        Step("describe", &ExperimentRun::Describe);
        Step("scheduler", &ExperimentRun::SetScheduler);
        try
        {
            Step("building the pod", &ExperimentRun::Build);
        }
        catch (const WallClockLimit::Stopped&)
        {
            Simulator::Destroy();
            throw;
        }
        Step("connecting the workloads", &ExperimentRun::Connect);
        Step("starting the workloads", &ExperimentRun::StartWorkloads);
        Step("simulating", &ExperimentRun::Simulate);
        Step("simulating", &ExperimentRun::Ended);
        // Post-processing: a long run says where it is (the tables of a large pod take time).
        Step("collecting the endpoints' counters", &ExperimentRun::CollectEndpoints);
        Step("collecting the links' table", &ExperimentRun::CollectLinks);
        Step("collecting the fabric's counters", &ExperimentRun::CollectFabric);
        Step("collecting the collectives' tables", &ExperimentRun::CollectCollectives);
        Step("accounting for unfinished work", &ExperimentRun::Account);
        Step("checking the end of the run", &ExperimentRun::Finish);
        Step("writing the results", &ExperimentRun::Output);
    }
    catch (const std::bad_alloc&)
    {
        // A clear message instead of a bare std::bad_alloc: where, and what was estimated.
        const PodMemoryEstimate estimate(s, PodPlugins::GetFabric(s.pod.fabric));
        std::string source;
        const uint64_t available = PodMemoryEstimate::GetAvailable(source);
        throw std::runtime_error(
            "out of memory while " + step + ": the run was estimated to need " +
            estimate.Describe() + " of the " + PodMemoryEstimate::Format(available) +
            " this process may use (" + source +
            "); run a smaller pod or workload, or on a machine with more memory");
    }
    return r;
}

void
ExperimentRun::Step(const std::string& name, void (ExperimentRun::*fn)())
{
    step = name;
    if (t0 != clock::time_point() && options.progress && s.output.progress)
    {
        // After the build: a step of a run already long is announced (its tables are large).
        const double wall = std::chrono::duration<double>(clock::now() - t0).count();
        if (wall >= kQuietSeconds && name != "simulating")
        {
            std::fprintf(stderr, "[podsim] %s | wall %.1f s\n", name.c_str(), wall);
        }
    }
    (this->*fn)();
}

void
ExperimentRun::WatchBuild(const std::string& what, uint64_t done, uint64_t total)
{
    const double wall = std::chrono::duration<double>(clock::now() - t0).count();
    if (done > 0 && done < total)
    {
        // Inside a long step only (the routes of a pod of more than 256 accelerators): a small
        // pod's build is never cut, and its run stops in the simulation as it always did.
        std::ostringstream where;
        where << "while building the pod (" << what << ": " << done << " of " << total << ")";
        WallClockLimit::StopIfDue(s.limits.wallSeconds, wall, where.str());
    }
    if (options.progress && s.output.progress && wall >= kQuietSeconds &&
        wall - lastBuildLine >= kQuietSeconds)
    {
        lastBuildLine = wall;
        std::fprintf(stderr,
                     "[podsim] building the pod: %s %.1f%% (%lu of %lu) | wall %.1f s\n",
                     what.c_str(),
                     total ? 100.0 * done / total : 0.0,
                     static_cast<unsigned long>(done),
                     static_cast<unsigned long>(total),
                     wall);
    }
}

/// Name the run's results and refuse what cannot run (rails, an output path).
void
ExperimentRun::Describe()
{
    r.scenarioName = s.name;
    r.scenarioText = s.text;
    if (!s.overrides.empty())
    {
        std::string header = "# overrides:";
        for (const auto& o : s.overrides)
        {
            header += " --set " + o;
        }
        r.scenarioText = header + "\n" + s.text;
    }
    r.accelerators = s.pod.accelerators;
    r.planes = s.pod.planes;
    r.engine = s.engine;
    if (s.engine == "flow" && (check || !options.rails.empty()))
    {
        // The checks and the rails work on the devices, which the flow engine leaves idle.
        throw std::invalid_argument(std::string("engine: flow runs neither ") +
                                    (check ? "the invariant checks (--check)" : "--rails") +
                                    ": they need engine: packet");
    }
    if (!options.rails.empty())
    {
        // Only some rails of a UALink pod (RailSplit; podsim-run refuses the rest first).
        const std::string refusal = RailSplit::Refusal(s, options.rails, check);
        if (!refusal.empty())
        {
            throw std::invalid_argument(refusal);
        }
        r.rails = RailSplit::Format(options.rails);
    }
    resultsFile = options.resultsFile.empty() ? s.output.file : options.resultsFile;
    if (options.writeResults)
    {
        // An output that cannot be written is bad input: say so before simulating anything.
        ResultsWriter::CheckWritable(resultsFile);
    }
    // The scenario's seed is ns-3's run number: every random stream of the run depends on it.
    RngSeedManager::SetRun(s.seed);
}

/// The scenario's event scheduler (scheduler key); ns-3 moves any pending events into it.
void
ExperimentRun::SetScheduler()
{
    // The scenario's event scheduler (scheduler key); ns-3 moves any pending events into it.
    static const std::map<std::string, std::string> kSchedulers = {
        {"map", "ns3::MapScheduler"},
        {"heap", "ns3::HeapScheduler"},
        {"calendar", "ns3::CalendarScheduler"},
        {"priority-queue", "ns3::PriorityQueueScheduler"},
        {"heap2", "ns3::FabricHeapScheduler"},
        {"heap4", "ns3::FabricHeapScheduler"},
        {"heap8", "ns3::FabricHeapScheduler"}};
    if (s.scheduler.rfind("heap", 0) == 0 && s.scheduler.size() > 4)
    {
        // FabricHeapScheduler's arity is the name's digit; set as the default because the
        // check scheduler creates its inner one from a TypeId name.
        Config::SetDefault("ns3::FabricHeapScheduler::Arity",
                           UintegerValue(std::stoul(s.scheduler.substr(4))));
    }
    ObjectFactory scheduler;
    if (check)
    {
        // The scenario's scheduler inside one that checks every event's time.
        scheduler.SetTypeId("ns3::FabricCheckScheduler");
        scheduler.Set("Inner", StringValue(kSchedulers.at(s.scheduler)));
    }
    else
    {
        scheduler.SetTypeId(kSchedulers.at(s.scheduler));
    }
    if (s.pod.canonicalArrivals)
    {
        // FabricArrivalOrder asks it whether events of the present picosecond are pending.
        ObjectFactory peek("ns3::FabricPeekScheduler");
        peek.Set("Inner", ObjectFactoryValue(scheduler));
        scheduler = peek;
    }
    Simulator::SetScheduler(scheduler);
}

/// Build the pod and what watches it.
void
ExperimentRun::Build()
{
    t0 = clock::now();
    topo.SetBuildMonitor([this](const std::string& what, uint64_t done, uint64_t total) {
        WatchBuild(what, done, total);
    });
    topo.Build(s.pod);
    if (s.engine == "flow")
    {
        // The flow engine takes the endpoints' messages; the devices stay idle.
        flow = CreateObject<FlowEngine>();
        const std::string why = flow->Install(topo.GetPod());
        if (!why.empty())
        {
            throw std::invalid_argument("engine: flow: " + why);
        }
    }
    const auto& views = topo.GetSwitchViews();
    r.switches = views.size();
    for (const auto& v : views)
    {
        r.switchPorts += v.sw->GetNPorts();
    }
    deadlockMonitor = WatchForDeadlock(s, topo);
    // The switch buffer time series (output.sample-interval): trace sinks only, no event.
    if (s.output.sampleInterval.IsStrictlyPositive())
    {
        sampler = std::make_unique<BufferSampler>(s.output.sampleInterval);
        for (uint32_t k = 0; k < views.size(); ++k)
        {
            sampler->Add(k, views[k].sw->GetBuffer());
            r.bufferSeries.switchNames.push_back(views[k].name);
        }
    }
    // The no-progress watchdog of every fabric (limits.no-progress; robustness.rst, section
    // Watchdogs).
    if (s.limits.noProgress.IsStrictlyPositive() && !flow)
    {
        watchdog = CreateObject<ProgressWatchdog>();
        watchdog->SetAttribute("Timeout", TimeValue(s.limits.noProgress));
        watchdog->SetAttribute("CheckInterval", TimeValue(s.limits.checkInterval));
        PodWatchdogProbes::Install(watchdog, topo);
    }
    if (options.afterBuild)
    {
        options.afterBuild(topo);
    }
    if (check)
    {
        invariants = std::make_unique<RunInvariantCheck>();
        invariants->Watch(topo);
    }
}

/// The planned messages and what records them, the rails, the faults.
void
ExperimentRun::Connect()
{
    rows = WorkloadGenerator::Plan(s, r);
    // The dispatcher owns the endpoints' callbacks: collective messages go to their executors,
    // every message to the recorder.
    coll.dispatcher = CreateObject<CollectiveDispatcher>();
    for (uint32_t i = 0; i < topo.GetNAccelerators(); ++i)
    {
        coll.all.push_back(topo.GetEndpoint(i));
    }
    coll.dispatcher->Install(coll.all);
    rec.table = &r.messages;
    rec.instances = &coll.instances;
    rec.watchdog = watchdog;
    rec.check = invariants.get();
    coll.dispatcher->SetDeliveredCallback(MakeCallback(&MessageRecorder::Delivered, &rec));
    coll.dispatcher->SetCompletedCallback(MakeCallback(&MessageRecorder::Completed, &rec));
    for (const auto& ep : coll.all)
    {
        ep->TraceConnectWithoutContext("Post", MakeCallback(&MessageRecorder::Posted, &rec));
    }
    if (!options.rails.empty())
    {
        railSplit.Install(topo, options.rails, &r.messages);
    }
    // Messages that endpoints post lazily count as posted for the watchdog (as at the start).
    lazy = WorkloadGenerator::Schedule(s, r, rows, topo);
    faults = std::make_unique<FaultInjector>(s, topo);
    faults->Schedule();
}

/// Start the workloads that post as they go: collectives, DAGs, plug-in workloads.
void
ExperimentRun::StartWorkloads()
{
    // Workloads of plug-in kinds (a Pyxis model's chips and trip programs): started now, on the
    // pod's endpoints; each keeps its own tables.
    for (uint32_t wi = 0; wi < s.workloads.size(); ++wi)
    {
        const Scenario::Workload& w = s.workloads[wi];
        const WorkloadKind* plugin = PodPlugins::FindWorkload(w.kind);
        if (plugin != nullptr && !w.program)
        {
            std::string error;
            std::unique_ptr<WorkloadRun> run = plugin->Start(*w.config, coll.all, error);
            if (!run)
            {
                // Nothing ran: clear the simulator for the next run before saying why.
                coll.dispatcher->Dispose();
                Simulator::Destroy();
                const std::string file = w.config->GetSourceFile();
                throw ScenarioError(file.empty() ? s.sourceFile : file, 0, "", error);
            }
            rec.program = run.get();
            rec.plugins.emplace_back(run.get(), wi);
            programs.push_back(std::move(run));
        }
        else if (w.kind == "collective")
        {
            auto run = std::make_unique<CollectiveWorkloadRun>();
            run->ctx = &coll;
            run->w = &w;
            run->index = wi;
            Simulator::Schedule(w.start, &CollectiveWorkloadRun::StartNext, run.get());
            collectiveRuns.push_back(std::move(run));
        }
        else if (w.program)
        {
            StartDag(wi);
        }
    }
}

/// Start one DAG workload (a `kind: dag` or a plug-in kind's program).
void
ExperimentRun::StartDag(uint32_t wi)
{
    const Scenario::Workload& w = s.workloads[wi];
    const DagProgram* program = w.program.get();
    std::vector<DagRunner::Node> nodes;
    nodes.reserve(program->nodes.size());
    for (const auto& d : program->nodes)
    {
        DagRunner::Node node;
        node.name = d.name;
        node.compute = d.kind == DagProgram::COMPUTE;
        node.duration = d.duration;
        node.deps = d.deps;
        node.rankDeps = d.rankDeps;
        node.participants = d.participants;
        nodes.push_back(std::move(node));
    }
    Ptr<DagRunner> dag = CreateObject<DagRunner>();
    CollectiveContext* ctx = &coll;
    dag->Setup(nodes,
               program->iterations,
               topo.GetNAccelerators(),
               [ctx, program, &w, wi](uint32_t j, uint32_t i) {
                   const DagProgram::Node& d = program->nodes[j];
                   const InstanceInfo info{wi, w.name + "/" + d.name, i};
                   return ctx->Install(ScenarioDag::CollectiveOf(d), w.tclass, info);
               });
    Simulator::Schedule(w.start, &DagRunner::Start, dag);
    dags.emplace_back(wi, dag);
}

/// Progress line, watchdog counters, wall limit and stop time; then the run.
void
ExperimentRun::Simulate()
{
    totalBytes = 0;
    for (uint64_t b : r.messages.bytes)
    {
        totalBytes += b;
    }
    if (!options.rails.empty())
    {
        // Progress only: the rails' share of the bytes (each rail carries about as much).
        totalBytes = totalBytes * options.rails.size() / std::max<uint32_t>(1, s.pod.planes);
    }
    r.buildSeconds = std::chrono::duration<double>(clock::now() - t0).count();

    // Run.
    Time lastStart;
    for (const auto& w : s.workloads)
    {
        lastStart = std::max(lastStart, w.start);
    }
    progress = std::make_unique<ProgressReporter>(
        std::cerr,
        [this]() {
            if (!programs.empty())
            {
                return programs.front()->GetProgress(); // e.g. trips ended of those built
            }
            if (totalBytes == 0)
            {
                return 1.0;
            }
            // Bytes that arrived, in whole messages or not: an all-to-all delivers its messages
            // near the end, and its ETA would otherwise say nothing until then.
            uint64_t arrived = 0;
            for (const auto& ep : coll.all)
            {
                arrived += ep->GetReceivedPayloadBytes();
            }
            const double f = static_cast<double>(std::max(arrived, rec.bytesDelivered)) /
                             static_cast<double>(totalBytes);
            return std::min(1.0, f);
        },
        lastStart);
    if (!programs.empty() && !programs.front()->GetProgressWhat().empty())
    {
        progress->SetWhat(programs.front()->GetProgressWhat());
    }
    if (options.progress && s.output.progress)
    {
        progress->Start();
    }
    if (watchdog)
    {
        watchdog->SetCounters([this]() { return rec.posted + lazy->GetUnposted(); },
                              [this]() { return std::min(rec.delivered, rec.completed); },
                              [this]() {
                                  // Any byte that arrives is progress, in whole messages or not.
                                  uint64_t arrived = rec.bytesDelivered;
                                  for (const auto& ep : coll.all)
                                  {
                                      arrived += ep->GetReceivedPayloadBytes();
                                  }
                                  return arrived;
                              });
        // Progress samples and the deadlock monitor's checks are not the simulation's own work.
        watchdog->SetBookkeeping([this]() {
            return progress->GetSamples() + (deadlockMonitor ? deadlockMonitor->GetChecks() : 0);
        });
    }
    // The wall-time limit (limits.wall): its report says where the simulation stands.
    // Started whatever the limit (0: none), so that an interrupt (SIGINT) also stops the run.
    {
        // The limit counts from the start of the build: what the build took is spent.
        const double limit = s.limits.wallSeconds;
        const double spent = std::chrono::duration<double>(clock::now() - t0).count();
        wallLimit.Start(limit > 0 ? std::max(1e-3, limit - spent) : 0, [this, limit]() {
            std::ostringstream os;
            const uint64_t done = std::min(rec.delivered, rec.completed);
            const uint64_t posted = rec.posted + lazy->GetUnposted();
            os << WallClockLimit::Reason(limit) << " at simulated " << Simulator::Now().As(Time::US)
               << " after " << Simulator::GetEventCount() << " events: " << done << " of " << posted
               << " messages done, " << (posted > done ? posted - done : 0) << " outstanding ("
               << rec.delivered << " delivered, " << rec.completed << " completed), "
               << rec.bytesDelivered << " B delivered in whole messages";
            r.watchdog = os.str();
        });
    }
    // The stop time: its event notes whether work was still pending (other events queued: the
    // run was cut short) before it stops the run; a run that ran out of work before it was not.
    stoppedWithWork = false;
    if (s.stopTime.IsStrictlyPositive())
    {
        Simulator::Schedule(s.stopTime, [this]() {
            stoppedWithWork = !Simulator::IsFinished();
            Simulator::Stop();
        });
    }
    const uint64_t events0 = Simulator::GetEventCount();
    const auto t1 = clock::now();
    Simulator::Run();
    wallLimit.Cancel();
    r.wallSeconds = std::chrono::duration<double>(clock::now() - t1).count();
    r.events = Simulator::GetEventCount() - events0;
}

/// What the run left: the messages not posted yet, the simulated time.
void
ExperimentRun::Ended()
{
    // A run stopped early: what the endpoints did not post yet is posted now (nothing is sent),
    // so that their counters are those of posting every message at the start.
    lazy->PostRemaining();
    // Simulated time of the run: the last delivery or completion (bookkeeping events such as
    // progress samples, or a stop event after the work, do not count), or the stop time if the
    // run was stopped with messages outstanding.
    r.simTimePs = 0;
    bool outstanding = false;
    for (std::size_t i = 0; i < r.messages.src.size(); ++i)
    {
        r.simTimePs = std::max({r.simTimePs, r.messages.deliverPs[i], r.messages.completePs[i]});
        outstanding = outstanding || (r.messages.deliverPs[i] < 0 &&
                                      r.messages.deliverPs[i] != RunResults::NOT_IN_RAILS);
    }
    if (outstanding && stoppedWithWork)
    {
        r.simTimePs = s.stopTime.GetPicoSeconds();
    }
    if (r.simTimePs == 0 && outstanding)
    {
        // Nothing arrived at all: the run lasted until its last event.
        r.simTimePs = Simulator::Now().GetPicoSeconds();
    }
    if (watchdog && watchdog->IsStopped())
    {
        r.watchdog = watchdog->GetReport();
    }
    if (!r.watchdog.empty())
    {
        // A watchdog stopped the run: it lasted until then.
        r.simTimePs = std::max(r.simTimePs, Simulator::Now().GetPicoSeconds());
    }

    for (const auto& program : programs)
    {
        program->Finish();
        r.simTimePs = std::max(r.simTimePs, program->GetEnd().GetPicoSeconds());
    }
}

/// The endpoints' bytes and transports, the faults' counts.
void
ExperimentRun::CollectEndpoints()
{
    const FabricKind& kind = topo.GetKind();
    for (uint32_t i = 0; i < topo.GetNAccelerators(); ++i)
    {
        r.bytesSent += topo.GetEndpoint(i)->GetBytesSent();
        r.bytesReceived += topo.GetEndpoint(i)->GetReceivedPayloadBytes();
        const std::vector<Ptr<FabricGoBackN>> transports = kind.GetTransports(topo.GetEndpoint(i));
        for (const auto& t : transports)
        {
            const FabricGoBackN::Stats& ts = t->GetStats();
            r.retransmittedPackets += ts.retransmittedUnits;
            r.bytesRetransmitted += ts.retransmittedBytes;
            r.bytesDiscarded += ts.discardedBytes;
            r.goBacks += ts.goBacks;
            r.transportTimeouts += ts.timeouts;
            r.failedConnections += ts.failed;
        }
    }
    if (!options.rails.empty())
    {
        r.bytesSent = kind.GetRailBytesSent(topo.GetPod()); // the share on this run's rails
    }
    r.bytesDelivered = rec.bytesDelivered;
    const FaultInjector::Counters& fc = faults->GetCounters();
    r.faultsInjected = fc.faults;
    r.linkDownEvents = fc.linkDowns;
    r.linkUpEvents = fc.linkUps;
    r.routesDenied = fc.routesDenied;
}

/// The per-link table.
void
ExperimentRun::CollectLinks()
{
    const FabricKind& kind = topo.GetKind();
    RunResults::Links& l = r.links;
    if (flow)
    {
        const FlowEngine::Stats& fs = flow->GetStats();
        r.flows = fs.flows;
        r.flowResolves = fs.resolves;
        r.flowResolved = fs.resolvedFlows;
        r.peakFlows = fs.peakFlows;
    }
    std::vector<std::string> reasons;
    for (const auto& t : topo.GetTransmitters())
    {
        for (const auto& [reason, n] : t.device->GetStats().dropUnits)
        {
            if (std::find(reasons.begin(), reasons.end(), reason) == reasons.end())
            {
                reasons.push_back(reason);
            }
        }
    }
    for (const auto& reason : reasons)
    {
        l.dropPackets[reason] = {};
        l.dropBytes[reason] = {};
    }
    for (const auto& t : topo.GetTransmitters())
    {
        const FabricNetDevice::Stats& st = t.device->GetStats();
        l.name.push_back(t.name);
        l.kind.push_back(t.kind);
        l.plane.push_back(t.plane);
        if (flow)
        {
            // The flow engine's bytes: the wire bytes of the flows that crossed the link.
            const FlowEngine::LinkStats fs = flow->GetLinkStats(t.device);
            l.txBytes.push_back(fs.wireBytes);
            l.txWireBytes.push_back(fs.wireBytes);
            l.txPackets.push_back(0);
            l.busyPs.push_back(static_cast<int64_t>(fs.busyPs));
        }
        else
        {
            l.txBytes.push_back(st.txBytes);
            l.txWireBytes.push_back(st.txWireBytes);
            l.txPackets.push_back(st.txUnits);
            l.busyPs.push_back(st.busyTime.GetPicoSeconds());
        }
        l.rateBps.push_back(t.device->GetFabricChannel()->GetDataRate().GetBitRate());
        Ptr<FabricPfc> pfc = DynamicCast<FabricPfc>(t.device->GetFlowControl());
        const int64_t pause = pfc ? pfc->GetTotalPausedTime().GetPicoSeconds() : 0;
        l.pausePs.push_back(pause);
        l.stallPs.push_back(st.stallTime.GetPicoSeconds());
        l.controlPackets.push_back(st.txControlUnits);
        Ptr<FabricRetryEngine> llr = t.device->GetRetryEngine();
        const uint64_t replays = llr ? llr->GetStats().replays : 0;
        const uint64_t replayed = llr ? llr->GetStats().replayedUnits : 0;
        l.replays.push_back(replays);
        l.replayedPackets.push_back(replayed);
        r.pausePs += pause;
        r.stallPs += st.stallTime.GetPicoSeconds();
        r.replays += replays;
        r.replayedPackets += replayed;
        // The hops of the benchmark figures: a unit sent, or what the fabric counts instead (a
        // UALink port's transactions).
        r.packetHops += kind.GetHops(t.device);
        // Drops are recorded at the receiving device of a link direction (corruption) or at
        // the switch's ingress port (buffer, route): both belong to the direction arriving at
        // that device, i.e. the peer's transmit row. Account them on the peer's row.
        Ptr<FabricNetDevice> peer = t.device->GetFabricChannel()->GetPeer(t.device);
        const FabricNetDevice::Stats& ps = peer->GetStats();
        l.rxDiscarded.push_back(ps.rxDiscarded);
        for (const auto& reason : reasons)
        {
            auto pu = ps.dropUnits.find(reason);
            auto pb = ps.dropBytes.find(reason);
            const uint64_t units = pu == ps.dropUnits.end() ? 0 : pu->second;
            const uint64_t bytes = pb == ps.dropBytes.end() ? 0 : pb->second;
            l.dropPackets[reason].push_back(units);
            l.dropBytes[reason].push_back(bytes);
            r.dropsByReason[reason] += units;
            r.bytesDropped += bytes;
        }
    }
}

/// The fabric's own counters, the named failure, the switch buffers.
void
ExperimentRun::CollectFabric()
{
    const FabricKind& kind = topo.GetKind();
    const auto& views = topo.GetSwitchViews();
    // What the fabric counted beyond its devices: its own drops by reason, its named counters.
    FabricCounters counters;
    kind.Collect(topo.GetPod(), counters);
    for (const auto& [reason, n] : counters.drops)
    {
        r.dropsByReason[reason] += n;
    }
    r.bytesFailedOver = counters.Get(FabricCounters::BYTES_FAILED_OVER);
    r.isolations = counters.Get(FabricCounters::ISOLATIONS);
    r.cmpto = counters.Get(FabricCounters::CMPTO);
    for (const auto& v : views)
    {
        r.peakSwitchBufferBytes =
            std::max<uint64_t>(r.peakSwitchBufferBytes, v.sw->GetPeakOccupancy());
    }
    if (sampler)
    {
        sampler->Collect(r.bufferSeries);
        sampler.reset();
    }
}

/// The collectives' and the DAG nodes' tables.
void
ExperimentRun::CollectCollectives()
{
    // Collectives and DAG nodes.
    for (uint32_t id = 0; id < coll.dispatcher->GetNInstances(); ++id)
    {
        Ptr<CollectiveExecutor> e = coll.dispatcher->GetInstance(id);
        const InstanceInfo& info = coll.instances[id];
        const CollectiveSpec& spec = e->GetAlgorithm()->GetSpec();
        RunResults::Collectives& c = r.collectives;
        const uint32_t row = c.workload.size();
        c.workload.push_back(info.workload);
        c.name.push_back(info.name);
        c.collective.push_back(CollectiveSpec::TypeName(spec.type));
        c.algorithm.push_back(e->GetAlgorithm()->GetName());
        c.group.push_back(FormatGroup(e->GetGroup()));
        c.ranks.push_back(spec.ranks);
        c.bytes.push_back(spec.bytes);
        c.iteration.push_back(info.iteration);
        c.startPs.push_back(e->GetStartTime().GetPicoSeconds());
        c.endPs.push_back(e->IsDone() ? e->GetEndTime().GetPicoSeconds() : -1);
        c.algbwBytesPerS.push_back(e->GetAlgorithmBandwidth());
        c.busbwBytesPerS.push_back(e->GetBusBandwidth());
        c.messages.push_back(e->GetMessagesSent());
        const auto& steps = e->GetStepTimings();
        for (uint32_t k = 0; k < steps.size(); ++k)
        {
            r.collectiveSteps.collective.push_back(row);
            r.collectiveSteps.step.push_back(k);
            r.collectiveSteps.startPs.push_back(steps[k].startPs);
            r.collectiveSteps.endPs.push_back(steps[k].endPs);
            r.collectiveSteps.bytes.push_back(steps[k].bytes);
        }
    }
    for (const auto& [wi, dag] : dags)
    {
        for (const auto& rec : dag->GetRecords())
        {
            AddDagNodeRow(r, wi, s.workloads[wi].program->nodes[rec.node], rec);
        }
        for (int64_t end : r.dagNodes.endPs)
        {
            r.simTimePs = std::max(r.simTimePs, end);
        }
    }
}

/// What did not run: the messages that collectives and DAG nodes never posted (counted from
/// their schedules), the DAG node instances that did not finish (rows with -1 times), and the
/// named failure, if any.
void
ExperimentRun::Account()
{
    const uint32_t n = topo.GetNAccelerators();
    // Collectives that started and did not finish: the rest of their schedules.
    for (uint32_t id = 0; id < coll.dispatcher->GetNInstances(); ++id)
    {
        Ptr<CollectiveExecutor> e = coll.dispatcher->GetInstance(id);
        if (!e->IsDone())
        {
            r.messagesUnposted += e->GetMessagesPlanned() - e->GetMessagesSent();
        }
    }
    // Iterations of collective workloads that never started.
    for (const auto& run : collectiveRuns)
    {
        const Scenario::Workload& w = *run->w;
        const uint32_t members = w.coll.group.empty() ? n : w.coll.group.size();
        Scenario::Collective one = w.coll;
        if (w.communicators > 1)
        {
            one.group.assign(members / w.communicators, 0); // one communicator's size
        }
        const uint64_t per = PlannedMessages(one, n) * w.communicators;
        r.messagesUnposted += per * (w.iterations - run->next);
    }
    for (const auto& [wi, dag] : dags)
    {
        const Scenario::Workload& w = s.workloads[wi];
        // DAG collectives and sends no participant reached.
        for (const auto& [j, i] : dag->GetUnstartedCollectives())
        {
            const DagProgram::Node& d = w.program->nodes[j];
            r.messagesUnposted +=
                d.kind == DagProgram::SEND ? 1 : PlannedMessages(ScenarioDag::CollectiveOf(d), n);
        }
        // Node instances that did not finish: a row each, with -1 for what did not happen.
        for (const auto& rec : dag->GetUnfinished())
        {
            AddDagNodeRow(r, wi, w.program->nodes[rec.node], rec);
        }
    }
    NameFailure(s, r, stoppedWithWork);
}

/// The monitors' reports and the end-of-run checks; the simulator is cleared.
void
ExperimentRun::Finish()
{
    r.peakRssBytes = PeakRss();
    if (deadlockMonitor)
    {
        r.deadlock = deadlockMonitor->GetReport();
        if (!r.deadlock.empty())
        {
            std::cerr << "error: " << r.deadlock << std::endl;
        }
        deadlockMonitor->Dispose();
    }
    if (!r.watchdog.empty())
    {
        std::cerr << "error: " << r.watchdog << std::endl;
    }
    if (watchdog)
    {
        watchdog->Dispose();
    }
    if (invariants)
    {
        // The end-of-run checks. A run cut short (stop time, deadlock, a watchdog) may hold bytes
        // in flight and credits away from home; one that ended by itself may not.
        const bool stopped = !r.deadlock.empty() || !r.watchdog.empty() ||
                             (s.stopTime.IsStrictlyPositive() && Simulator::Now() >= s.stopTime);
        const RunInvariantCheck::Summary sum = invariants->CheckMessages(r.messages, stopped);
        if (!stopped && s.faults.empty() && r.failedConnections == 0)
        {
            invariants->CheckDrained(topo);
        }
        r.checked = true;
        r.checks = FabricInvariantCheck::GetChecks();
        r.checkedFlows = sum.flows;
        r.checkLostBytes = sum.lostBytes;
        r.checkInFlightBytes = sum.inFlightBytes;
    }
    if (flow)
    {
        flow->Dispose();
    }
    coll.dispatcher->Dispose();
    Simulator::Destroy();
}

/// The summary, the output budget and the results file.
void
ExperimentRun::Output()
{
    // The summary counts every message; the output budget may then thin the tables.
    std::ostringstream summary;
    if (options.printSummary)
    {
        Experiment::PrintSummary(r, summary);
        for (const auto& program : programs)
        {
            summary << program->GetSummaryLine() << std::endl;
        }
    }
    const std::string budgetNote = OutputBudget::Apply(r, s.output.budgetBytes);
    if (!budgetNote.empty())
    {
        std::cerr << "warning: " << budgetNote << std::endl;
    }
    if (options.writeResults)
    {
        ResultsWriter::Write(resultsFile, r);
        for (const auto& program : programs)
        {
            if (!program->WriteTables(resultsFile))
            {
                throw std::runtime_error("cannot write the tables of a workload into " +
                                         resultsFile);
            }
        }
        if (options.printSummary)
        {
            std::cout << "results: " << resultsFile << std::endl;
        }
    }
    if (options.printSummary)
    {
        std::cout << summary.str();
    }
}

} // namespace

Scenario
Experiment::Load(const std::string& path, const std::vector<std::string>& overrides)
{
    return ScenarioLoader::Load(path, overrides);
}

RunResults
Experiment::Run(const Scenario& s, const Options& options)
{
    if (!options.check && !s.check)
    {
        return DoRun(s, options, false);
    }
    FabricInvariantCheck::Enable();
    try
    {
        RunResults r = DoRun(s, options, true);
        FabricInvariantCheck::Disable();
        return r;
    }
    catch (...)
    {
        // A violation left the event loop: clear the simulator for the next run.
        Simulator::Destroy();
        FabricInvariantCheck::Disable();
        throw;
    }
}

RunResults
Experiment::DoRun(const Scenario& s, const Options& options, bool check)
{
    return ExperimentRun(s, options, check).Run();
}

namespace
{

/**
 * Print one workload's row of the summary's table: messages posted and delivered, bytes
 * delivered, the span from the first post to the last delivery, the goodput over that span,
 * and the latency quantiles of the delivered messages.
 * \param r the results
 * \param w the workload's index
 * \param os the stream
 */
void
PrintWorkloadRow(const RunResults& r, uint32_t w, std::ostream& os)
{
    char line[256];
    const RunResults::Messages& t = r.messages;
    uint64_t n = 0;
    uint64_t delivered = 0;
    uint64_t bytes = 0;
    int64_t start = INT64_MAX;
    int64_t finish = 0;
    std::vector<int64_t> lat;
    for (std::size_t i = 0; i < t.src.size(); ++i)
    {
        if (t.workload[i] != w)
        {
            continue;
        }
        ++n;
        start = std::min(start, t.postPs[i]);
        if (t.deliverPs[i] >= 0)
        {
            ++delivered;
            bytes += t.bytes[i];
            finish = std::max(finish, t.deliverPs[i]);
            lat.push_back(t.deliverPs[i] - t.postPs[i]);
        }
    }
    std::sort(lat.begin(), lat.end());
    const double span = delivered ? (finish - start) * 1e-6 : 0; // us
    std::snprintf(line,
                  sizeof(line),
                  "%-16s %9lu %9lu %11.2f %12.3f %10.1f %10.3f %10.3f %10.3f\n",
                  r.workloadNames[w].c_str(),
                  static_cast<unsigned long>(n),
                  static_cast<unsigned long>(delivered),
                  bytes / 1048576.0,
                  span,
                  span > 0 ? bytes * 8.0 / (span * 1e3) : 0.0,
                  Quantile(lat, 0.5) * 1e-6,
                  Quantile(lat, 0.99) * 1e-6,
                  lat.empty() ? 0.0 : lat.back() * 1e-6);
    os << line;
}

/**
 * Print the summary's workload table: its header and a row per workload.
 * \param r the results
 * \param os the stream
 */
void
PrintWorkloads(const RunResults& r, std::ostream& os)
{
    char line[256];
    std::snprintf(line,
                  sizeof(line),
                  "%-16s %9s %9s %11s %12s %10s %10s %10s %10s\n",
                  "workload",
                  "messages",
                  "delivered",
                  "MiB",
                  "finish (us)",
                  "Gb/s",
                  "p50 (us)",
                  "p99 (us)",
                  "max (us)");
    os << line;
    for (uint32_t w = 0; w < r.workloadNames.size(); ++w)
    {
        PrintWorkloadRow(r, w, os);
    }
}

/**
 * Print the summary's collective table (the first 16 collectives), if the run had any.
 * \param r the results
 * \param os the stream
 */
void
PrintCollectives(const RunResults& r, std::ostream& os)
{
    char line[256];
    const RunResults::Collectives& c = r.collectives;
    if (!c.name.empty())
    {
        std::snprintf(line,
                      sizeof(line),
                      "%-24s %-14s %-18s %6s %11s %12s %11s %11s\n",
                      "collective",
                      "op",
                      "algorithm",
                      "ranks",
                      "size (B)",
                      "time (us)",
                      "algbw GB/s",
                      "busbw GB/s");
        os << line;
        const std::size_t shown = std::min<std::size_t>(c.name.size(), 16);
        for (std::size_t i = 0; i < shown; ++i)
        {
            const std::string name =
                c.name[i] + (c.iteration[i] ? "#" + std::to_string(c.iteration[i]) : "");
            std::snprintf(line,
                          sizeof(line),
                          "%-24s %-14s %-18s %6u %11lu %12.3f %11.2f %11.2f\n",
                          name.c_str(),
                          c.collective[i].c_str(),
                          c.algorithm[i].c_str(),
                          c.ranks[i],
                          static_cast<unsigned long>(c.bytes[i]),
                          c.endPs[i] >= 0 ? (c.endPs[i] - c.startPs[i]) * 1e-6 : -1.0,
                          c.algbwBytesPerS[i] * 1e-9,
                          c.busbwBytesPerS[i] * 1e-9);
            os << line;
        }
        if (shown < c.name.size())
        {
            os << "... " << c.name.size() - shown << " more collectives in the results file\n";
        }
    }
}

/**
 * Print one line per DAG workload whose nodes have categories (a generated one, such as an
 * llm-step): its first iteration's time, compute time, exposed communication and time per
 * category (DagIterationSummary).
 * \param r the results
 * \param os the stream
 */
void
PrintDagIterations(const RunResults& r, std::ostream& os)
{
    const RunResults::DagNodes& d = r.dagNodes;
    std::map<uint32_t, std::vector<DagIterationSummary::Row>> rows;
    std::map<uint32_t, bool> categorized;
    for (std::size_t i = 0; i < d.node.size(); ++i)
    {
        if (d.iteration[i] != 0)
        {
            continue;
        }
        const std::string& category = i < d.category.size() ? d.category[i] : std::string();
        rows[d.workload[i]].push_back(
            {d.accelerator[i], d.kind[i] == "compute", category, d.startPs[i], d.endPs[i]});
        categorized[d.workload[i]] = categorized[d.workload[i]] || !category.empty();
    }
    for (const auto& [w, rs] : rows)
    {
        if (!categorized[w])
        {
            continue;
        }
        const std::string name =
            w < r.workloadNames.size() ? r.workloadNames[w] : std::to_string(w);
        os << "dag " << name << ": " << DagIterationSummary::Compute(rs).ToString() << "\n";
    }
}

/**
 * Print the summary's traffic lines: bytes sent, received and dropped, the peak switch buffer,
 * and (when there were any) flow control, transport recovery and fault figures.
 * \param r the results
 * \param os the stream
 */
void
PrintTraffic(const RunResults& r, std::ostream& os)
{
    os << "bytes: sent " << r.bytesSent << ", received " << r.bytesReceived
       << " (in whole messages " << r.bytesDelivered << "), dropped " << r.bytesDropped;
    for (const auto& [reason, n] : r.dropsByReason)
    {
        os << ", " << reason << " " << n << " pkts";
    }
    os << "\npeak switch buffer: " << r.peakSwitchBufferBytes / 1024.0 << " KiB\n";
    if (r.pausePs > 0 || r.stallPs > 0 || r.replays > 0)
    {
        os << "flow control: " << r.pausePs / 1e6 << " us paused, " << r.stallPs / 1e6
           << " us stalled (summed over links); link replays: " << r.replays << " ("
           << r.replayedPackets << " packets)\n";
    }
    if (r.goBacks > 0 || r.retransmittedPackets > 0 || r.failedConnections > 0)
    {
        os << "transport: " << r.goBacks << " go-backs (" << r.transportTimeouts << " by timeout), "
           << r.retransmittedPackets << " packets sent again (" << r.bytesRetransmitted << " B), "
           << r.bytesDiscarded << " B discarded out of sequence";
        if (r.failedConnections > 0)
        {
            os << ", " << r.failedConnections << " connections FAILED";
        }
        os << "\n";
    }
    if (r.faultsInjected > 0)
    {
        os << "faults: " << r.faultsInjected << " injected, " << r.linkDownEvents << " links down, "
           << r.linkUpEvents << " links up, " << r.routesDenied << " routes denied";
        if (r.bytesFailedOver > 0)
        {
            os << "; " << r.bytesFailedOver << " B failed over";
        }
        if (r.isolations > 0 || r.cmpto > 0)
        {
            os << "; " << r.isolations << " stations isolated, " << r.cmpto << " CMPTO";
        }
        os << "\n";
    }
}

/**
 * Print the summary's outcome lines: a failure or stop, a deadlock, a watchdog stop, and the
 * invariant checks' verdict, each only if it applies.
 * \param r the results
 * \param os the stream
 */
void
PrintOutcome(const RunResults& r, std::ostream& os)
{
    if (!r.failure.empty())
    {
        // A run cut short by the scenario's own stop time is not a failure of the fabric.
        const bool stopped = r.failure.rfind("StoppedWithMessagesOutstanding", 0) == 0;
        os << (stopped ? "STOPPED (the scenario's stop time): " : "FAILED: ") << r.failure << "\n";
    }
    if (!r.deadlock.empty())
    {
        os << "DEADLOCK: " << r.deadlock << "\n";
    }
    if (!r.watchdog.empty())
    {
        os << "STOPPED BY WATCHDOG: " << r.watchdog << "\n";
    }
    if (r.checked)
    {
        os << "invariant checks: passed (" << r.checks << " checks; " << r.checkedFlows
           << " flows: every byte posted delivered";
        if (r.checkLostBytes > 0)
        {
            os << " or lost with a counted drop (" << r.checkLostBytes << " B)";
        }
        if (r.checkInFlightBytes > 0)
        {
            os << " or in flight at the stop (" << r.checkInFlightBytes << " B)";
        }
        os << ")\n";
    }
}

/**
 * Print the summary's last line: simulated time, wall-clock time, events and memory.
 * \param r the results
 * \param os the stream
 */
void
PrintRunCost(const RunResults& r, std::ostream& os)
{
    char line[256];
    std::snprintf(line,
                  sizeof(line),
                  "run: %.3f us simulated in %.2f s wall (build %.2f s) | %lu events, %.2f "
                  "M events/s | %lu packet-hops, %.2f events/hop | peak RSS %.0f MiB\n",
                  r.simTimePs * 1e-6,
                  r.wallSeconds,
                  r.buildSeconds,
                  static_cast<unsigned long>(r.events),
                  r.wallSeconds > 0 ? r.events / r.wallSeconds * 1e-6 : 0.0,
                  static_cast<unsigned long>(r.packetHops),
                  r.packetHops ? static_cast<double>(r.events) / r.packetHops : 0.0,
                  r.peakRssBytes / 1048576.0);
    os << line << std::flush;
}

} // namespace

void
Experiment::PrintSummary(const RunResults& r, std::ostream& os)
{
    os << "\n== " << r.scenarioName << ": " << r.accelerators << " accelerators, " << r.planes
       << " plane(s), " << r.switches << " switches ==\n";
    PrintWorkloads(r, os);
    PrintCollectives(r, os);
    PrintDagIterations(r, os);
    PrintTraffic(r, os);
    PrintOutcome(r, os);
    PrintRunCost(r, os);
}

} // namespace ns3
