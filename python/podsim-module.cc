/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup pod
 * The `_podsim` Python extension: runs a scenario and returns its results as numpy arrays.
 *
 * The `podsim` package (python/podsim/__init__.py) re-exports what is defined here.
 */

#include "pyxis-bindings.h"

#include "ns3/experiment.h"
#include "ns3/nstime.h"
#include "ns3/picosecond-resolution.h"
#include "ns3/pod-plugins.h"
#include "ns3/results-writer.h"
#include "ns3/run-results.h"
#include "ns3/scenario-error.h"
#include "ns3/scenario-schema.h"
#include "ns3/wall-clock-limit.h"

#include <csignal>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <string>
#include <vector>

namespace py = pybind11;

namespace
{

/**
 * A Python str from UTF-8 bytes; invalid bytes become U+FFFD instead of raising.
 * \param s the bytes
 * \return the str
 */
py::str
ToStr(const std::string& s)
{
    PyObject* o = PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "replace");
    if (o == nullptr)
    {
        throw py::error_already_set();
    }
    return py::reinterpret_steal<py::str>(o);
}

/**
 * A 1-D numpy array with a copy of a column.
 * \param v the column
 * \return the array
 */
template <typename T>
py::array_t<T>
ToArray(const std::vector<T>& v)
{
    py::array_t<T> a(static_cast<py::ssize_t>(v.size()));
    if (!v.empty())
    {
        std::copy(v.begin(), v.end(), a.mutable_data());
    }
    return a;
}

/**
 * A list of str.
 * \param v the strings
 * \return the list
 */
py::list
ToList(const std::vector<std::string>& v)
{
    py::list l;
    for (const auto& s : v)
    {
        l.append(ToStr(s));
    }
    return l;
}

/**
 * A 1-D numpy array of str (dtype '<U...'), so that `links["kind"] == "nic-up"` is a mask.
 * \param v the strings
 * \return the array
 */
py::object
ToStrArray(const std::vector<std::string>& v)
{
    py::module_ np = py::module_::import("numpy");
    return np.attr("array")(ToList(v), py::arg("dtype") = py::str("U"));
}

/**
 * {reason: array} from a map of columns.
 * \param m the columns by reason
 * \return the dict
 */
py::dict
ToDict(const std::map<std::string, std::vector<uint64_t>>& m)
{
    py::dict d;
    for (const auto& [reason, col] : m)
    {
        d[ToStr(reason)] = ToArray(col);
    }
    return d;
}

/**
 * The results of a run as the dict documented in podsim.run().
 * \param r the results
 * \return the dict
 */
py::dict
ResultsToDict(const ns3::RunResults& r)
{
    const auto& m = r.messages;
    py::dict messages;
    messages["src"] = ToArray(m.src);
    messages["dst"] = ToArray(m.dst);
    messages["bytes"] = ToArray(m.bytes);
    messages["class"] = ToArray(m.tclass);
    messages["workload"] = ToArray(m.workload);
    messages["post_ps"] = ToArray(m.postPs);
    messages["deliver_ps"] = ToArray(m.deliverPs);
    messages["complete_ps"] = ToArray(m.completePs);

    const auto& l = r.links;
    py::dict links;
    links["name"] = ToStrArray(l.name);
    links["kind"] = ToStrArray(l.kind);
    links["plane"] = ToArray(l.plane);
    links["tx_bytes"] = ToArray(l.txBytes);
    links["tx_wire_bytes"] = ToArray(l.txWireBytes);
    links["tx_packets"] = ToArray(l.txPackets);
    links["busy_ps"] = ToArray(l.busyPs);
    links["pause_ps"] = ToArray(l.pausePs);
    links["stall_ps"] = ToArray(l.stallPs);
    links["control_packets"] = ToArray(l.controlPackets);
    links["replays"] = ToArray(l.replays);
    links["replayed_packets"] = ToArray(l.replayedPackets);
    links["rx_discarded"] = ToArray(l.rxDiscarded);
    links["rate_bps"] = ToArray(l.rateBps);
    links["drop_packets"] = ToDict(l.dropPackets);
    links["drop_bytes"] = ToDict(l.dropBytes);

    const auto& c = r.collectives;
    py::dict collectives;
    collectives["workload"] = ToArray(c.workload);
    collectives["name"] = ToStrArray(c.name);
    collectives["collective"] = ToStrArray(c.collective);
    collectives["algorithm"] = ToStrArray(c.algorithm);
    collectives["group"] = ToStrArray(c.group);
    collectives["ranks"] = ToArray(c.ranks);
    collectives["bytes"] = ToArray(c.bytes);
    collectives["iteration"] = ToArray(c.iteration);
    collectives["start_ps"] = ToArray(c.startPs);
    collectives["end_ps"] = ToArray(c.endPs);
    collectives["algbw_bytes_per_s"] = ToArray(c.algbwBytesPerS);
    collectives["busbw_bytes_per_s"] = ToArray(c.busbwBytesPerS);
    collectives["messages"] = ToArray(c.messages);
    const auto& st = r.collectiveSteps;
    py::dict steps;
    steps["collective"] = ToArray(st.collective);
    steps["step"] = ToArray(st.step);
    steps["start_ps"] = ToArray(st.startPs);
    steps["end_ps"] = ToArray(st.endPs);
    steps["bytes"] = ToArray(st.bytes);
    const auto& dn = r.dagNodes;
    py::dict dag;
    dag["workload"] = ToArray(dn.workload);
    dag["node"] = ToStrArray(dn.node);
    dag["kind"] = ToStrArray(dn.kind);
    dag["category"] = ToStrArray(dn.category);
    dag["iteration"] = ToArray(dn.iteration);
    dag["accelerator"] = ToArray(dn.accelerator);
    dag["start_ps"] = ToArray(dn.startPs);
    dag["end_ps"] = ToArray(dn.endPs);
    const auto& ts = r.bufferSeries;
    py::dict series;
    series["interval_ps"] = ts.intervalPs;
    series["switch_names"] = ToList(ts.switchNames);
    series["switch"] = ToArray(ts.sw);
    series["time_ps"] = ToArray(ts.timePs);
    series["max_bytes"] = ToArray(ts.maxBytes);
    series["end_bytes"] = ToArray(ts.endBytes);

    py::dict drops;
    for (const auto& [reason, count] : r.dropsByReason)
    {
        drops[ToStr(reason)] = count;
    }
    py::dict summary;
    summary["scenario_name"] = ToStr(r.scenarioName);
    summary["engine"] = ToStr(r.engine);
    summary["flows"] = r.flows;
    summary["flow_resolves"] = r.flowResolves;
    summary["peak_flows"] = r.peakFlows;
    summary["accelerators"] = r.accelerators;
    summary["planes"] = r.planes;
    summary["switches"] = r.switches;
    summary["bytes_sent"] = r.bytesSent;
    summary["bytes_delivered"] = r.bytesDelivered;
    summary["bytes_received"] = r.bytesReceived;
    summary["bytes_dropped"] = r.bytesDropped;
    summary["drops_by_reason"] = drops;
    summary["peak_switch_buffer_bytes"] = r.peakSwitchBufferBytes;
    summary["pause_ps"] = r.pausePs;
    summary["stall_ps"] = r.stallPs;
    summary["replays"] = r.replays;
    summary["replayed_packets"] = r.replayedPackets;
    summary["retransmitted_packets"] = r.retransmittedPackets;
    summary["bytes_retransmitted"] = r.bytesRetransmitted;
    summary["bytes_discarded"] = r.bytesDiscarded;
    summary["go_backs"] = r.goBacks;
    summary["transport_timeouts"] = r.transportTimeouts;
    summary["failed_connections"] = r.failedConnections;
    summary["sim_time_ps"] = r.simTimePs;
    summary["wall_seconds"] = r.wallSeconds;
    summary["build_seconds"] = r.buildSeconds;
    summary["events"] = r.events;
    summary["packet_hops"] = r.packetHops;
    summary["peak_rss_bytes"] = r.peakRssBytes;
    summary["deadlock"] = ToStr(r.deadlock);
    summary["output_budget_bytes"] = r.output.budgetBytes;
    summary["output_estimated_bytes"] = r.output.estimatedBytes;
    summary["messages_total"] = r.output.messagesTotal;
    summary["messages_sampled_every"] = r.output.messagesSampledEvery;
    summary["series_coarsened_by"] = r.output.seriesCoarsenedBy;
    summary["watchdog"] = ToStr(r.watchdog);
    summary["checked"] = r.checked;
    summary["checks"] = r.checks;
    summary["checked_flows"] = r.checkedFlows;
    summary["check_lost_bytes"] = r.checkLostBytes;
    summary["check_in_flight_bytes"] = r.checkInFlightBytes;
    summary["faults_injected"] = r.faultsInjected;
    summary["link_down_events"] = r.linkDownEvents;
    summary["link_up_events"] = r.linkUpEvents;
    summary["routes_denied"] = r.routesDenied;
    summary["bytes_failed_over"] = r.bytesFailedOver;
    summary["isolations"] = r.isolations;
    summary["cmpto"] = r.cmpto;
    summary["messages_failed"] = r.messagesFailed;
    summary["bytes_failed"] = r.bytesFailed;
    summary["messages_unposted"] = r.messagesUnposted;
    summary["failure"] = ToStr(r.failure);
    // An interrupt (SIGINT) stopped the run: the results file has the root attribute incomplete.
    summary["incomplete"] = r.watchdog.rfind(ns3::WallClockLimit::INTERRUPTED, 0) == 0;

    py::dict d;
    d["messages"] = messages;
    d["links"] = links;
    d["collectives"] = collectives;
    d["collective_steps"] = steps;
    d["dag_nodes"] = dag;
    d["switch_buffer_series"] = series;
    d["summary"] = summary;
    d["workload_names"] = ToList(r.workloadNames);
    d["scenario"] = ToStr(r.scenarioText);
    d["results_file"] = py::none();
    return d;
}

/**
 * One override value as scenario text: bool as true/false, None as null, str as is,
 * anything else through str() (numbers, and lists or dicts, which print as YAML flow style).
 * \param v the value
 * \return the text
 */
std::string
OverrideValue(const py::handle& v)
{
    if (v.is_none())
    {
        return "null";
    }
    if (py::isinstance<py::bool_>(v))
    {
        return v.cast<bool>() ? "true" : "false";
    }
    if (py::isinstance<py::str>(v))
    {
        return v.cast<std::string>();
    }
    return py::str(v).cast<std::string>();
}

/**
 * Overrides as KEY=VALUE strings.
 * \param overrides None, a dict {key: value}, or a list of "KEY=VALUE" strings or (key, value)
 * pairs
 * \return the strings
 */
std::vector<std::string>
OverrideStrings(const py::object& overrides)
{
    std::vector<std::string> out;
    if (overrides.is_none())
    {
        return out;
    }
    if (py::isinstance<py::dict>(overrides))
    {
        for (const auto& [key, value] : overrides.cast<py::dict>())
        {
            out.push_back(py::str(key).cast<std::string>() + "=" + OverrideValue(value));
        }
        return out;
    }
    if (py::isinstance<py::str>(overrides) || py::isinstance<py::bytes>(overrides) ||
        !py::isinstance<py::sequence>(overrides))
    {
        throw py::type_error("overrides must be a dict {key: value} or a list of "
                             "'KEY=VALUE' strings");
    }
    for (const auto& item : overrides.cast<py::sequence>())
    {
        if (py::isinstance<py::str>(item))
        {
            out.push_back(item.cast<std::string>());
        }
        else if (py::isinstance<py::tuple>(item) && py::len(item) == 2)
        {
            auto pair = item.cast<py::tuple>();
            out.push_back(py::str(pair[0]).cast<std::string>() + "=" + OverrideValue(pair[1]));
        }
        else
        {
            throw py::type_error("overrides list items must be 'KEY=VALUE' strings or "
                                 "(key, value) pairs, got " +
                                 py::repr(item).cast<std::string>());
        }
    }
    return out;
}

/**
 * The SIGINT handler during a run: the run's WallClockLimit stops the simulation.
 * \param sig the signal
 */
extern "C" void
OnSigintDuringRun(int sig)
{
    (void)sig;
    ns3::WallClockLimit::RequestInterrupt();
}

/**
 * Replaces Python's SIGINT handler for the time of a run (the GIL is held: Python's handler
 * would only run after it) and puts it back.
 */
class SigintDuringRun
{
  public:
    SigintDuringRun()
    {
        ns3::WallClockLimit::ClearInterrupt();
        struct sigaction sa = {};
        sa.sa_handler = &OnSigintDuringRun;
        sigemptyset(&sa.sa_mask);
        m_installed = sigaction(SIGINT, &sa, &m_old) == 0;
    }

    ~SigintDuringRun()
    {
        if (m_installed)
        {
            sigaction(SIGINT, &m_old, nullptr);
        }
    }

    SigintDuringRun(const SigintDuringRun&) = delete;
    SigintDuringRun& operator=(const SigintDuringRun&) = delete;

  private:
    struct sigaction m_old = {}; //!< Python's handler
    bool m_installed{false};     //!< ours is in place
};

/**
 * podsim.run(): load, run, return the results.
 * \param scenarioPath the YAML file
 * \param overrides None, dict or list (see OverrideStrings)
 * \param resultsFile None or the HDF5 file to write instead of the scenario's output.file
 * \param writeResults write the HDF5 file
 * \param quiet no summary table and no progress line
 * \param check run with the invariant checks (podsim run --check)
 * \return the results dict
 */
py::dict
Run(const std::string& scenarioPath,
    const py::object& overrides,
    const py::object& resultsFile,
    bool writeResults,
    bool quiet,
    bool check)
{
    ns3::Scenario scenario = ns3::Experiment::Load(scenarioPath, OverrideStrings(overrides));
    ns3::Experiment::Options options;
    options.writeResults = writeResults;
    if (!resultsFile.is_none())
    {
        options.resultsFile = py::str(resultsFile).cast<std::string>();
    }
    options.printSummary = !quiet;
    options.progress = !quiet;
    options.check = check;

    // The simulator is process-wide state and the GIL is held throughout: one run at a time,
    // and no HDF5 call (the results file) can overlap h5py's in another thread. Ctrl-C stops
    // the simulation (WallClockLimit); the results so far are returned (summary incomplete) and
    // podsim.run raises podsim.Interrupted with them.
    ns3::RunResults results;
    try
    {
        SigintDuringRun sigint;
        results = ns3::Experiment::Run(scenario, options);
    }
    catch (const ns3::WallClockLimit::Stopped& e)
    {
        // Stopped while the pod was built: nothing to return. Ctrl-C is a KeyboardInterrupt;
        // the wall limit a RuntimeError.
        ns3::WallClockLimit::ClearInterrupt();
        if (e.IsInterrupt())
        {
            PyErr_SetString(PyExc_KeyboardInterrupt, e.what());
            throw py::error_already_set();
        }
        throw;
    }
    ns3::WallClockLimit::ClearInterrupt();

    py::dict d = ResultsToDict(results);
    if (writeResults)
    {
        std::string file = options.resultsFile;
        if (file.empty())
        {
            file = scenario.output.file;
        }
        if (file.empty())
        {
            file = "results/" + scenario.name + ".h5";
        }
        d["results_file"] = ToStr(file);
    }
    return d;
}

/**
 * podsim.load(): load and validate a scenario without running it.
 * \param scenarioPath the YAML file
 * \param overrides None, dict or list (see OverrideStrings)
 * \return the resolved scenario's main values (see podsim.load)
 */
py::dict
Load(const std::string& scenarioPath, const py::object& overrides)
{
    // Times are read as steps of the picosecond resolution: Time's inline unit conversions
    // (GetPicoSeconds) would give this module its own copy of the resolution, whose first use
    // resets the process-wide one to nanoseconds (ns-3 3.37's SetDefaultNsResolution).
    const ns3::Scenario s = ns3::Experiment::Load(scenarioPath, OverrideStrings(overrides));
    py::list workloads;
    for (const auto& w : s.workloads)
    {
        py::dict d;
        d["name"] = ToStr(w.name);
        d["kind"] = ToStr(w.kind);
        d["bytes"] = w.bytes;
        d["start_ps"] = w.start.GetTimeStep();
        d["class"] = static_cast<uint32_t>(w.tclass);
        d["iterations"] = w.iterations;
        d["nodes"] = w.nodes.size();
        // A plug-in kind's named values (a pyxis workload's model file, resolved beside the
        // scenario, its rx_posting and chips); "" and 0 for the other kinds.
        d["model"] = "";
        d["rx_posting"] = "";
        d["chips"] = 0;
        if (w.config)
        {
            for (const auto& [name, text] : w.config->GetTexts())
            {
                d[py::str(name)] = ToStr(text);
            }
            for (const auto& [name, count] : w.config->GetCounts())
            {
                d[py::str(name)] = count;
            }
        }
        workloads.append(d);
    }
    py::dict d;
    d["source_file"] = ToStr(s.sourceFile);
    d["name"] = ToStr(s.name);
    d["seed"] = s.seed;
    d["stop_ps"] = s.stopTime.GetTimeStep();
    d["scheduler"] = ToStr(s.scheduler);
    d["fabric"] = ToStr(s.pod.fabric);
    d["accelerators"] = s.pod.accelerators;
    d["planes"] = s.pod.planes;
    d["topology"] = ToStr(s.pod.topology);
    // Consecutive rails that must run together in a split run (a SUE instance's ports), 0 when
    // the fabric does not split by rails.
    const ns3::FabricKind& kind = ns3::PodPlugins::GetFabric(s.pod.fabric);
    d["rail_group"] = kind.SplitsByRails() ? kind.GetRailGroup(s.pod) : 0;
    d["switch_radix"] = s.pod.sw.radix;
    d["link_rate_bps"] = s.pod.link.rate.GetBitRate();
    d["flow_control"] = ToStr(s.pod.fc.kind);
    d["workloads"] = workloads;
    d["faults"] = s.faults.size();
    d["output_file"] = ToStr(s.output.file);
    d["overrides"] = ToList(s.overrides);
    return d;
}

/**
 * podsim.schema(): every key of the scenario format (ScenarioSchema::GetKeys()).
 * \return a list of dicts, one per key, in the order of the reference
 */
py::list
Schema()
{
    py::list keys;
    for (const auto& k : ns3::ScenarioSchema::GetKeys())
    {
        py::dict d;
        d["path"] = ToStr(k.path);
        d["type"] = ToStr(ns3::ScenarioSchema::TypeName(k.type));
        d["default"] =
            k.defaultValue.empty() ? py::object(py::none()) : py::object(ToStr(k.defaultValue));
        d["required"] = k.required;
        d["min"] = k.hasMin ? py::object(py::float_(k.min)) : py::object(py::none());
        d["min_exclusive"] = k.minExclusive;
        d["max"] = k.hasMax ? py::object(py::float_(k.max)) : py::object(py::none());
        d["allowed"] = ToList(k.allowed);
        d["element"] = k.type == ns3::ScenarioSchema::LIST
                           ? py::object(ToStr(ns3::ScenarioSchema::TypeName(k.element)))
                           : py::object(py::none());
        d["kinds"] = ToList(k.kinds);
        d["unit"] = ToStr(k.unit);
        keys.append(d);
    }
    return keys;
}

/**
 * podsim.read(): a results file, or a run stored as a group of a larger file (a study file's
 * /runs/FABRIC/WORKLOAD), as the results dict.
 * \param path the HDF5 file
 * \param group the run's group ("/": the whole file)
 * \return the results dict
 */
py::dict
Read(const std::string& path, const std::string& group)
{
    py::dict d = ResultsToDict(ns3::ResultsWriter::Read(path, group));
    d["results_file"] = ToStr(path);
    return d;
}

} // namespace

PYBIND11_MODULE(_podsim, m)
{
    // podsim runs at picosecond resolution (DESIGN.md rule 4): set before any Time is made.
    ns3::EnsurePicosecondResolution();

    m.doc() = "podsim simulator core (use the podsim package, which re-exports this module)";
    m.attr("__version__") = ns3::ResultsWriter::PODSIM_VERSION;

    // ScenarioError -> podsim.ScenarioError(ValueError), with the parts of the message as
    // attributes file, line, field and message.
    static py::exception<ns3::ScenarioError> scenarioError(m, "ScenarioError", PyExc_ValueError);
    scenarioError.doc() = "A scenario file or override is invalid. str(e) is "
                          "'FILE:LINE: FIELD: MESSAGE'; the attributes file, line (0: unknown), "
                          "field and message hold the parts.";
    py::register_exception_translator([](std::exception_ptr p) {
        try
        {
            if (p)
            {
                std::rethrow_exception(p);
            }
        }
        catch (const ns3::ScenarioError& e)
        {
            // py::exception's operator() sets the error; call the class through a plain object.
            py::object cls = py::reinterpret_borrow<py::object>(scenarioError);
            py::object err = cls(ToStr(e.what()));
            err.attr("file") = ToStr(e.GetFile());
            err.attr("line") = e.GetLine();
            err.attr("field") = ToStr(e.GetField());
            err.attr("message") = ToStr(e.GetMessage());
            PyErr_SetObject(scenarioError.ptr(), err.ptr());
        }
    });

    m.def("run",
          &Run,
          py::arg("scenario_path"),
          py::arg("overrides") = py::none(),
          py::arg("results_file") = py::none(),
          py::arg("write_results") = true,
          py::arg("quiet") = true,
          py::arg("check") = false,
          "Run a scenario file and return its results as a dict of numpy arrays "
          "(see podsim.run).");
    m.def("load",
          &Load,
          py::arg("scenario_path"),
          py::arg("overrides") = py::none(),
          "Load and validate a scenario without running it (see podsim.load).");
    m.def("schema",
          &Schema,
          "Every key of the scenario format, as a list of dicts (see podsim.schema).");
    m.def("read",
          &Read,
          py::arg("path"),
          py::arg("group") = "/",
          "Read a results file (or a run's group of a larger file) into the dict that run() "
          "returns (see podsim.read).");

    // podsim.pyxis: the Pyxis UIE kernel model (python/pyxis-bindings.cc).
    RegisterPyxis(m);
}
