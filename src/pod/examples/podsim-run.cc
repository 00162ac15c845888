/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// podsim-run: run one scenario file and write its results.
//
//   podsim-run examples/scenarios/default.yaml --set=pod.accelerators=64
//   --set=workloads[0].size=4KiB podsim-run SCENARIO --bench        # print the benchmark figures
//   of the run podsim-run --schema                # print the scenario key reference (Markdown)
//   podsim-run SCENARIO --validate     # load and check the scenario (and --set), run nothing
//
// ./podsim run passes its arguments here (it turns "--set K=V" into "--set=K=V").

#include "huge-page-heap.h"

#include "ns3/chakra-error.h"
#include "ns3/chakra-writer.h"
#include "ns3/command-line.h"
#include "ns3/experiment.h"
#include "ns3/fabric-invariant-check.h"
#include "ns3/nstime.h"
#include "ns3/picosecond-resolution.h"
#include "ns3/pod-memory-estimate.h"
#include "ns3/pod-plugins.h"
#include "ns3/rail-split.h"
#include "ns3/results-writer.h"
#include "ns3/scenario-error.h"
#include "ns3/scenario-loader.h"
#include "ns3/scenario-schema.h"
#include "ns3/wall-clock-limit.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{
std::vector<std::string> g_overrides; //!< --set values, in order

/**
 * Collect one --set value.
 *
 * \param kv KEY=VALUE
 * \return true
 *
 * Takes the string by value: CommandLine::AddValue wants a Callback<bool, std::string>, and ns-3
 * turns a Callback<bool, const std::string&> into one by a static_cast of its implementation to
 * the other signature's type (UndefinedBehaviorSanitizer: "downcast of address ... which does not
 * point to an object of type CallbackImpl").
 */
bool
AddOverride(std::string kv)
{
    g_overrides.push_back(std::move(kv));
    return true;
}

/**
 * The arguments with "--NAME VALUE" joined into "--NAME=VALUE" for the options that take a
 * value (ns-3's CommandLine reads only the second form), so that both spellings work.
 * \param argc argument count
 * \param argv arguments
 * \return the arguments, argv[0] first
 */
std::vector<std::string>
JoinOptionValues(int argc, char** argv)
{
    static const std::vector<std::string> kTakesValue =
        {"--set", "--out", "--seed", "--rails", "--case", "--summary", "--export-chakra"};
    std::vector<std::string> args;
    for (int i = 0; i < argc; ++i)
    {
        const std::string a = argv[i];
        const bool takes =
            i > 0 && std::find(kTakesValue.begin(), kTakesValue.end(), a) != kTakesValue.end();
        if (takes && i + 1 < argc)
        {
            args.push_back(a + "=" + argv[++i]);
        }
        else
        {
            args.push_back(a);
        }
    }
    return args;
}

/**
 * Print a run's benchmark figures (--bench) with the targets they are read against, and one line
 * of JSON that ./podsim bench gathers into results/bench.json.
 * \param r the run's results
 * \param hugePages the heap is on transparent huge pages
 */
void
PrintBench(const RunResults& r, bool hugePages)
{
    // Figures of [core]'s benchmark, with the targets they are read against.
    const double hopsPerSec = r.wallSeconds > 0 ? r.packetHops / r.wallSeconds : 0;
    const double eventsPerHop = r.packetHops ? double(r.events) / r.packetHops : 0;
    const double simPerWall = r.wallSeconds > 0 ? r.simTimePs * 1e-12 / r.wallSeconds : 0;
    std::printf("\nbenchmark %s\n", r.scenarioName.c_str());
    std::printf("  events/s                  %.3e\n",
                r.wallSeconds > 0 ? r.events / r.wallSeconds : 0.0);
    if (r.engine == "flow")
    {
        // The flow engine moves no packet: its figures are per flow (src/flow/doc/flow.rst).
        std::printf("  engine                    flow: %lu flows, %lu re-solves of %lu flows, "
                    "at most %lu at once\n",
                    static_cast<unsigned long>(r.flows),
                    static_cast<unsigned long>(r.flowResolves),
                    static_cast<unsigned long>(r.flowResolved),
                    static_cast<unsigned long>(r.peakFlows));
        std::printf("  flows per wall s          %.3e\n",
                    r.wallSeconds > 0 ? r.flows / r.wallSeconds : 0.0);
        std::printf("  wall with build           %.2f s   (target < 10 s)\n",
                    r.wallSeconds + r.buildSeconds);
    }
    else
    {
        std::printf("  packet-hops per wall s    %.3e   (target >= 1e6)\n", hopsPerSec);
        std::printf("  events per packet-hop     %.3f   (target <= 3)\n", eventsPerHop);
    }
    std::printf("  simulated/wall time       %.3e\n", simPerWall);
    // Memory per unit of pod size: the whole peak RSS divided by the accelerators
    // and, separately, by the switch ports (each figure charges the other's share to itself).
    const double rssPerAccelerator =
        r.accelerators ? static_cast<double>(r.peakRssBytes) / r.accelerators : 0.0;
    const double rssPerSwitchPort =
        r.switchPorts ? static_cast<double>(r.peakRssBytes) / r.switchPorts : 0.0;
    std::printf("  peak RSS                  %.1f MiB (target < 2048)\n",
                r.peakRssBytes / 1048576.0);
    std::printf("  peak RSS per accelerator  %.1f KiB (%u accelerators)\n",
                rssPerAccelerator / 1024.0,
                r.accelerators);
    std::printf("  peak RSS per switch port  %.1f KiB (%lu ports on %u switches)\n",
                rssPerSwitchPort / 1024.0,
                static_cast<unsigned long>(r.switchPorts),
                r.switches);
    std::printf("  wall (run / build)        %.2f s / %.2f s\n", r.wallSeconds, r.buildSeconds);
    std::printf("  heap on huge pages        %s\n",
                hugePages ? HugePageHeap::GetStatus().c_str() : "off (--huge-pages=false)");
    // One line of JSON per benchmark: ./podsim bench gathers them into results/bench.json.
    std::printf("BENCH-JSON {\"name\": \"%s\", \"events_per_s\": %.6e, "
                "\"packet_hops_per_s\": %.6e, \"events_per_packet_hop\": %.6f, "
                "\"sim_per_wall\": %.6e, \"peak_rss_bytes\": %lu, \"wall_s\": %.4f, "
                "\"build_s\": %.4f, \"events\": %lu, \"packet_hops\": %lu, "
                "\"sim_time_ps\": %ld, \"accelerators\": %u, \"switches\": %u, "
                "\"switch_ports\": %lu, \"rss_per_accelerator_bytes\": %.1f, "
                "\"rss_per_switch_port_bytes\": %.1f, \"huge_page_heap_bytes\": %lu}\n",
                r.scenarioName.c_str(),
                r.wallSeconds > 0 ? r.events / r.wallSeconds : 0.0,
                hopsPerSec,
                eventsPerHop,
                simPerWall,
                static_cast<unsigned long>(r.peakRssBytes),
                r.wallSeconds,
                r.buildSeconds,
                static_cast<unsigned long>(r.events),
                static_cast<unsigned long>(r.packetHops),
                static_cast<long>(r.simTimePs),
                r.accelerators,
                r.switches,
                static_cast<unsigned long>(r.switchPorts),
                rssPerAccelerator,
                rssPerSwitchPort,
                static_cast<unsigned long>(HugePageHeap::GetMappedBytes()));
}

/**
 * The modes that print a reference and exit: --schema-docs, --schema-rst, --schema.
 * \param schemaDocs --schema-docs
 * \param schemaRst --schema-rst's sections, comma-separated ("" if not given)
 * \param schema --schema
 * \return true if one of them printed
 */
bool
PrintReference(bool schemaDocs, const std::string& schemaRst, bool schema)
{
    if (schemaDocs)
    {
        for (const auto& [doc, sections] : ScenarioSchema::GetDocSections())
        {
            std::string list;
            for (const auto& sec : sections)
            {
                list += (list.empty() ? "" : ",") + sec;
            }
            std::cout << doc << " " << list << "\n";
        }
        return true;
    }
    if (!schemaRst.empty())
    {
        std::vector<std::string> sections;
        std::string item;
        std::istringstream in(schemaRst);
        while (std::getline(in, item, ','))
        {
            sections.push_back(item);
        }
        std::cout << ScenarioSchema::RstReference(sections);
        return true;
    }
    if (schema)
    {
        std::cout << ScenarioSchema::MarkdownReference();
        return true;
    }
    return false;
}

/**
 * Print what --validate prints: a line for the scenario, its memory estimate and a line per
 * workload (utils/study.py reads them for its table).
 * \param scenario the scenario file
 * \param s the loaded scenario
 */
void
PrintValid(const std::string& scenario, const Scenario& s)
{
    std::cout << "valid: " << scenario << ": " << s.name << ", fabric " << s.pod.fabric << ", "
              << s.pod.accelerators << " accelerators, " << s.pod.planes << " planes, "
              << s.workloads.size() << " workloads, results " << s.output.file << std::endl;
    std::cout << "memory estimate: "
              << PodMemoryEstimate(s, PodPlugins::GetFabric(s.pod.fabric)).Describe() << std::endl;
    for (const auto& w : s.workloads)
    {
        std::cout << "workload " << w.name << ": kind " << w.kind << ", algorithm "
                  << (w.kind == "collective" ? w.coll.algorithm : "-") << ", communicators "
                  << w.communicators << ", size " << w.bytes << ", senders " << w.senders
                  << ", engine " << s.engine << std::endl;
    }
}

/**
 * \param w a workload
 * \return its DAG for export: the program the pod runs (kind dag, a DAG plug-in kind), else the
 *         equivalent DAG a plug-in kind offers (WorkloadConfig::GetExportDag: a Pyxis model),
 *         else null
 */
std::shared_ptr<const DagProgram>
ExportDagOf(const Scenario::Workload& w)
{
    if (w.program)
    {
        return w.program;
    }
    return w.config ? w.config->GetExportDag() : nullptr;
}

/**
 * Write every DAG workload of a scenario as Chakra traces.
 * \param s the scenario
 * \param dir the directory
 * \return the exit status (0, or 2 when a workload has no DAG or a file cannot be written)
 */
int
ExportChakra(const Scenario& s, const std::string& dir)
{
    std::vector<std::shared_ptr<const DagProgram>> programs;
    for (std::size_t i = 0; i < s.workloads.size(); ++i)
    {
        const auto& w = s.workloads[i];
        programs.push_back(ExportDagOf(w));
        if (!programs.back())
        {
            std::cerr << "error: --export-chakra: " << s.sourceFile << ": workloads[" << i << "] ('"
                      << w.name << "', kind " << w.kind
                      << ") is not a DAG workload: only DAG workloads (kind dag, chakra, and "
                         "plug-in kinds with a DAG, such as pyxis) can be written as Chakra "
                         "traces (nothing was written)"
                      << std::endl;
            return 2;
        }
    }
    for (std::size_t i = 0; i < s.workloads.size(); ++i)
    {
        try
        {
            for (const auto& f : ChakraWriter::Write(*programs[i], dir, s.workloads[i].name))
            {
                std::cout << "chakra: " << f << "\n";
            }
        }
        catch (const ChakraError& e)
        {
            std::cerr << "error: --export-chakra: " << e.what() << std::endl;
            return 2;
        }
    }
    return 0;
}

} // namespace

int
main(int argc, char** argv)
{
    // podsim runs at picosecond resolution (DESIGN.md rule 4): set before any Time is made.
    EnsurePicosecondResolution();

    std::string scenario = "examples/scenarios/default.yaml";
    std::string out;
    bool bench = false;
    bool schema = false;
    bool quiet = false;
    bool validate = false;
    bool check = false;
    bool hugePages = true;
    CommandLine cmd(__FILE__);
    cmd.Usage("Run a podsim scenario (YAML) and write its HDF5 results.");
    cmd.AddNonOption("scenario", "scenario file", scenario);
    cmd.AddValue("set",
                 "override a scenario key, KEY=VALUE (repeatable), e.g. pod.accelerators=64",
                 MakeCallback(&AddOverride));
    cmd.AddValue("out", "results file (default: the scenario's output.file)", out);
    cmd.AddValue("bench", "print the run's benchmark figures (and no results file)", bench);
    cmd.AddValue("schema", "print the scenario key reference and exit", schema);
    std::string schemaRst;
    cmd.AddValue("schema-rst",
                 "print the keys of these sections (comma-separated, e.g. pod.sue) as a "
                 "reStructuredText table for a module's doc and exit",
                 schemaRst);
    bool schemaDocs = false;
    cmd.AddValue("schema-docs",
                 "print, one line each, a module doc and the sections whose keys it lists "
                 "(DOC SECTION,SECTION...), then exit",
                 schemaDocs);
    cmd.AddValue("quiet", "no progress line", quiet);
    cmd.AddValue("huge-pages",
                 "put the heap on transparent huge pages (builds with tcmalloc; "
                 "doc/performance.rst); results do not depend on it",
                 hugePages);
    std::string seed;
    cmd.AddValue("seed",
                 "random seed (ns-3 RngRun), as --set=seed=N: only the random streams change",
                 seed);
    cmd.AddValue("validate",
                 "load and check the scenario and overrides, print a one-line summary and exit "
                 "(0: valid, 2: invalid); nothing is built, run or written",
                 validate);
    cmd.AddValue("check",
                 "invariant checks while running (credits, buffers, sequence numbers, event "
                 "times; byte conservation per flow at the end); a violation exits with 4",
                 check);
    std::string rails;
    cmd.AddValue("rails",
                 "UALink or switched SUE: simulate only these rails (UALink ports, SUE switch "
                 "planes, by index, e.g. 0,2) of the whole pod; a message counts as delivered "
                 "when its bytes on them have arrived (src/ualink/doc/ualink.rst, Rails in "
                 "parallel; src/sue/doc/sue.rst, Planes in parallel; ./podsim run --split-rails)",
                 rails);
    std::string caseName;
    cmd.AddValue("case",
                 "a study file (with a study section): run this one case, FABRIC/WORKLOAD "
                 "(./podsim run FILE runs them all; src/pod/doc/pod.rst, Studies)",
                 caseName);
    bool listCases = false;
    cmd.AddValue("list-cases",
                 "a study file: validate every case and print one line per case, "
                 "FABRIC/WORKLOAD, then exit (nothing when the file is not a study)",
                 listCases);
    bool quick = false;
    cmd.AddValue("quick",
                 "a study file: apply its study.quick overrides (before --set): the small "
                 "version of the study",
                 quick);
    std::string summaryOf;
    cmd.AddValue("summary",
                 "print the summary table of a results file (e.g. a merged --split-rails run) "
                 "and exit",
                 summaryOf);
    std::string exportChakra;
    cmd.AddValue("export-chakra",
                 "write every DAG workload of the scenario as Chakra execution traces, "
                 "DIR/WORKLOAD.RANK.et and DIR/WORKLOAD.comm_groups.json, and exit without "
                 "running (src/workload/doc/workload.rst)",
                 exportChakra);
    // "--out FILE" as well as "--out=FILE" (and likewise --set, --seed, --rails, --case,
    // --summary, --export-chakra).
    const std::vector<std::string> args = JoinOptionValues(argc, argv);
    cmd.Parse(args);
    if (hugePages)
    {
        HugePageHeap::Install();
    }
    if (!summaryOf.empty())
    {
        try
        {
            Experiment::PrintSummary(ResultsWriter::Read(summaryOf), std::cout);
        }
        catch (const std::exception& e)
        {
            std::cerr << "error: --summary: " << summaryOf << ": " << e.what() << std::endl;
            return 2;
        }
        return 0;
    }
    if (!seed.empty())
    {
        g_overrides.push_back("seed=" + seed); // applied last: it wins over a --set=seed
    }
    if (cmd.GetNExtraNonOptions() > 0)
    {
        std::cerr << "error: unexpected argument '" << cmd.GetExtraNonOption(0)
                  << "' (one scenario file; options are --name=value)" << std::endl;
        return 2;
    }

    if (PrintReference(schemaDocs, schemaRst, schema))
    {
        return 0;
    }
    if (listCases)
    {
        try
        {
            for (const auto& c : ScenarioLoader::ListCases(scenario, g_overrides, quick))
            {
                std::cout << c.fabric << "/" << c.workload << "\n";
            }
        }
        catch (const ScenarioError& e)
        {
            std::cerr << "error: " << e.what() << std::endl;
            return 2;
        }
        return 0;
    }
    Scenario s;
    try
    {
        if (!caseName.empty())
        {
            s = ScenarioLoader::LoadCase(scenario, g_overrides, quick, caseName);
        }
        else if (quick)
        {
            // Only a study has a quick version: LoadCase says so for any other file.
            ScenarioLoader::ListCases(scenario, g_overrides, true);
            throw ScenarioError(scenario,
                                0,
                                "--quick",
                                "a study runs its cases with ./podsim run FILE --quick, or one "
                                "with --case=FABRIC/WORKLOAD --quick");
        }
        else
        {
            s = Experiment::Load(scenario, g_overrides);
        }
    }
    catch (const ScenarioError& e)
    {
        std::cerr << "error: " << e.what() << std::endl;
        return 2;
    }
    std::vector<uint32_t> railList;
    if (!rails.empty())
    {
        // Refused before anything is built or written: the features that couple the rails.
        std::string error;
        if (!RailSplit::Parse(rails, railList, error))
        {
            std::cerr << "error: " << error << std::endl;
            return 2;
        }
        error = RailSplit::Refusal(s, railList, check);
        if (!error.empty())
        {
            std::cerr << "error: " << scenario << ": " << error << std::endl;
            return 2;
        }
    }
    if (validate)
    {
        PrintValid(scenario, s);
        return 0;
    }
    if (!exportChakra.empty())
    {
        return ExportChakra(s, exportChakra);
    }

    if (!bench)
    {
        // Refused before anything is simulated, and nothing is created or replaced: a results
        // path that is a directory, a device, a FIFO or a socket, or in a directory that cannot
        // take files.
        try
        {
            ResultsWriter::CheckOutputPath(out.empty() ? s.output.file : out);
        }
        catch (const std::exception& e)
        {
            std::cerr << "error: " << e.what() << " (nothing was run)" << std::endl;
            return 2;
        }
    }

    // Ctrl-C stops the simulation within WallClockLimit::INTERRUPT_POLL_MS: the results so far
    // are written (marked incomplete) and the exit status is 130; a second Ctrl-C ends the
    // process at once.
    WallClockLimit::CatchInterrupts();

    Experiment::Options opt;
    opt.resultsFile = out;
    opt.progress = !quiet;
    opt.writeResults = !bench;
    opt.check = check;
    opt.rails = railList;
    RunResults r;
    try
    {
        r = Experiment::Run(s, opt);
    }
    catch (const FabricInvariantCheck::Violation& e)
    {
        std::cerr << "error: " << e.what() << std::endl;
        return 4;
    }
    catch (const WallClockLimit::Stopped& e)
    {
        // Stopped while the pod was built: nothing to write. As a run the limit stopped (4),
        // or as a shell reports a process that SIGINT ended (130).
        std::cerr << "error: " << e.what() << std::endl;
        return e.IsInterrupt() ? 130 : 4;
    }
    catch (const std::exception& e)
    {
        std::cerr << "error: " << e.what() << std::endl;
        return 1;
    }

    if (opt.writeResults && s.output.plots)
    {
        // ./podsim run draws the plots of this file (analysis/plot_results.py).
        std::cout << "plots: " << (out.empty() ? s.output.file : out) << std::endl;
    }
    if (bench)
    {
        PrintBench(r, hugePages);
    }
    if (WallClockLimit::IsInterruptRequested())
    {
        return 130; // 128 + SIGINT, as a shell reports a process that SIGINT ended
    }
    // A deadlock, or no progress for limits.no-progress, stopped the run (3), or the wall-time
    // limit did (4): the results are written, but the run did not finish.
    if (!r.deadlock.empty() || r.watchdog.rfind("no progress", 0) == 0)
    {
        return 3;
    }
    return r.watchdog.empty() ? 0 : 4;
}
