/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "experiment.h"

#include "pod-topology.h"
#include "progress-reporter.h"
#include "results-writer.h"
#include "scenario-loader.h"
#include "workload-generator.h"

#include "ns3/basic-endpoint.h"
#include "ns3/fabric-channel.h"
#include "ns3/fabric-pfc.h"
#include "ns3/fabric-retry-engine.h"
#include "ns3/log.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <sys/resource.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("Experiment");

namespace
{

/// \return peak resident set size of this process in bytes
uint64_t
PeakRss()
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return static_cast<uint64_t>(ru.ru_maxrss) * 1024; // Linux reports KiB
}

/// Records deliveries and completions into the message table (cookie = row).
struct MessageRecorder
{
    RunResults::Messages* table{nullptr}; //!< the table
    uint64_t bytesDelivered{0};           //!< payload bytes of delivered messages

    /// A message was delivered.
    void Delivered(const FabricMessage& m)
    {
        table->deliverPs[m.cookie] = m.delivered.GetPicoSeconds();
        bytesDelivered += m.bytes;
    }

    /// A message completed.
    void Completed(const FabricMessage& m)
    {
        table->completePs[m.cookie] = m.completed.GetPicoSeconds();
    }
};

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

} // namespace

Scenario
Experiment::Load(const std::string& path, const std::vector<std::string>& overrides)
{
    return ScenarioLoader::Load(path, overrides);
}

RunResults
Experiment::Run(const Scenario& s, const Options& options)
{
    NS_LOG_FUNCTION(s.name);
    using clock = std::chrono::steady_clock;
    RunResults r;
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
    const std::string resultsFile =
        options.resultsFile.empty() ? s.output.file : options.resultsFile;
    if (options.writeResults)
    {
        // An output that cannot be written is bad input: say so before simulating anything.
        ResultsWriter::CheckWritable(resultsFile);
    }
    RngSeedManager::SetRun(s.seed);

    // Build.
    const auto t0 = clock::now();
    PodTopology topo;
    topo.Build(s.pod);
    r.switches = topo.GetSwitches().size();
    const auto rows = WorkloadGenerator::Plan(s, r);
    MessageRecorder rec;
    rec.table = &r.messages;
    for (uint32_t i = 0; i < topo.GetNAccelerators(); ++i)
    {
        Ptr<FabricEndpoint> ep = topo.GetEndpoint(i);
        ep->SetDeliveredCallback(MakeCallback(&MessageRecorder::Delivered, &rec));
        ep->SetCompletedCallback(MakeCallback(&MessageRecorder::Completed, &rec));
    }
    WorkloadGenerator::Schedule(s, r, rows, topo);
    uint64_t totalBytes = 0;
    for (uint64_t b : r.messages.bytes)
    {
        totalBytes += b;
    }
    r.buildSeconds = std::chrono::duration<double>(clock::now() - t0).count();

    // Run.
    Time lastStart;
    for (const auto& w : s.workloads)
    {
        lastStart = std::max(lastStart, w.start);
    }
    ProgressReporter progress(
        std::cerr,
        [&rec, totalBytes]() {
            return totalBytes ? static_cast<double>(rec.bytesDelivered) / totalBytes : 1.0;
        },
        lastStart);
    if (options.progress && s.output.progress)
    {
        progress.Start();
    }
    if (s.stopTime.IsStrictlyPositive())
    {
        Simulator::Stop(s.stopTime);
    }
    const uint64_t events0 = Simulator::GetEventCount();
    const auto t1 = clock::now();
    Simulator::Run();
    r.wallSeconds = std::chrono::duration<double>(clock::now() - t1).count();
    r.events = Simulator::GetEventCount() - events0;
    // Simulated time of the run: the last delivery or completion (bookkeeping events such as
    // progress samples, or a stop event after the work, do not count), or the stop time if the
    // run was stopped with messages outstanding.
    r.simTimePs = 0;
    bool outstanding = false;
    for (std::size_t i = 0; i < r.messages.src.size(); ++i)
    {
        r.simTimePs = std::max({r.simTimePs, r.messages.deliverPs[i], r.messages.completePs[i]});
        outstanding = outstanding || r.messages.deliverPs[i] < 0;
    }
    if (outstanding && s.stopTime.IsStrictlyPositive() && Simulator::Now() >= s.stopTime)
    {
        r.simTimePs = s.stopTime.GetPicoSeconds();
    }

    // Collect.
    for (uint32_t i = 0; i < topo.GetNAccelerators(); ++i)
    {
        r.bytesSent += topo.GetEndpoint(i)->GetBytesSent();
        r.bytesReceived += topo.GetEndpoint(i)->GetReceivedPayloadBytes();
    }
    r.bytesDelivered = rec.bytesDelivered;
    RunResults::Links& l = r.links;
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
        l.txBytes.push_back(st.txBytes);
        l.txWireBytes.push_back(st.txWireBytes);
        l.txPackets.push_back(st.txUnits);
        l.busyPs.push_back(st.busyTime.GetPicoSeconds());
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
        r.packetHops += st.txUnits;
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
    for (const auto& sw : topo.GetSwitches())
    {
        r.peakSwitchBufferBytes =
            std::max<uint64_t>(r.peakSwitchBufferBytes, sw->GetBuffer()->GetPeakOccupancy());
    }
    r.peakRssBytes = PeakRss();
    Simulator::Destroy();

    if (options.writeResults)
    {
        ResultsWriter::Write(resultsFile, r);
        if (options.printSummary)
        {
            std::cout << "results: " << resultsFile << std::endl;
        }
    }
    if (options.printSummary)
    {
        PrintSummary(r, std::cout);
    }
    return r;
}

void
Experiment::PrintSummary(const RunResults& r, std::ostream& os)
{
    char line[256];
    os << "\n== " << r.scenarioName << ": " << r.accelerators << " accelerators, " << r.planes
       << " plane(s), " << r.switches << " switches ==\n";
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
    const RunResults::Messages& t = r.messages;
    for (uint32_t w = 0; w < r.workloadNames.size(); ++w)
    {
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

} // namespace ns3
