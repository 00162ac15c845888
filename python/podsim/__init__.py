# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""podsim: pod-scale accelerator fabric simulator (ns-3), from Python.

Run a scenario and get its results as numpy arrays::

    import podsim
    r = podsim.run("examples/scenarios/default.yaml", {"pod.accelerators": 128},
                   results_file="/tmp/incast.h5")
    lat_ns = podsim.message_latency_ns(r)
    again = podsim.read("/tmp/incast.h5")      # same dict, from the HDF5 file
    study = podsim.read_study("results/pod-1024.h5")   # a study: table and every run

Results dict (every time in picoseconds; -1 where a message was never delivered or completed)::

    {
      "messages": {"src": u32, "dst": u32, "bytes": u64, "class": u8, "workload": u32,
                   "post_ps": i64, "deliver_ps": i64, "complete_ps": i64},   # numpy arrays
      "links": {"name": str array, "kind": str array ("acc-up", "down", "leaf-up", "spine-down",
                "spine-up", "core-down", "mesh"),
                "plane": u32, "tx_bytes": u64, "tx_wire_bytes": u64, "tx_packets": u64,
                "busy_ps": i64, "rate_bps": f64,
                "drop_packets": {reason: u64 array}, "drop_bytes": {reason: u64 array}},
      "collectives": {"workload": u32, "name": str, "collective": str, "algorithm": str,
                      "group": str ("0-127"), "ranks": u32, "bytes": u64, "iteration": u32,
                      "start_ps": i64, "end_ps": i64, "algbw_bytes_per_s": f64,
                      "busbw_bytes_per_s": f64, "messages": u64},  # one row per collective run
      "collective_steps": {"collective": u32 (row of collectives), "step": u32,
                           "start_ps": i64, "end_ps": i64, "bytes": u64},
      "dag_nodes": {"workload": u32, "node": str, "kind": str, "iteration": u32,
                    "accelerator": u32, "start_ps": i64, "end_ps": i64},
      "summary": {"scenario_name", "engine" ("packet" or "flow"), "flows", "flow_resolves",
                  "peak_flows" (engine: flow; 0 otherwise), "accelerators", "planes", "switches", "bytes_sent",
                  "bytes_delivered" (whole messages), "bytes_received" (any payload),
                  "bytes_dropped", "drops_by_reason": {reason: packets},
                  "peak_switch_buffer_bytes", "sim_time_ps", "wall_seconds", "build_seconds",
                  "events", "packet_hops", "peak_rss_bytes",
                  "deadlock" (str: the deadlock monitor's report, "" if none),
                  "watchdog" (str: the report of the watchdog that stopped the run, "" if
                  none),
                  "checked" (bool: the invariant checks ran and passed), "checks",
                  "checked_flows", "check_lost_bytes", "check_in_flight_bytes",
                  fault campaigns: "faults_injected", "link_down_events",
                  "link_up_events", "routes_denied", "bytes_failed_over" (SUE), "isolations", "cmpto" (UALink),
                  "messages_failed", "bytes_failed", "messages_unposted" (messages that
                  collectives and DAG nodes never posted, waiting on failed ones),
                  "failure" (str: the named failure, "" if every message arrived),
                  "incomplete" (bool: an interrupt, Ctrl-C, stopped the run; its results file
                  has the root attribute incomplete = 1)},
      "workload_names": [str, ...],   # indexed by messages["workload"]
      "scenario": str,                # the scenario's YAML text
      "results_file": str or None,    # the HDF5 file written (run) or read (read)
    }

Every array of "messages" has one row per message, every array of "links" one row per
transmitting link direction.
"""

import os as _os
import sys as _sys


def _cannot_load(what):
    """The ImportError for a podsim that cannot work in this interpreter or from this path."""
    return ImportError(
        f"podsim: {what}.\n"
        f"  This interpreter: {_sys.executable} (Python {_sys.version.split()[0]}); "
        f"this package: {_os.path.dirname(_os.path.abspath(__file__))}.\n"
        "  podsim is built for Debian's /usr/bin/python3 (with python3-numpy and python3-h5py) "
        "by `./podsim build` (or `ninja -C build`), into build/python. Use\n"
        "    PYTHONPATH=build/python /usr/bin/python3 ...\n"
        "  (not another python3, a virtual environment's or pyenv's, and not PYTHONPATH=python: "
        "the source tree has no compiled module)."
    )


# The compiled part is built for one interpreter, Debian's /usr/bin/python3 with Debian's numpy
# (the build's Python3_EXECUTABLE), into the build tree: another python3 cannot load it (or
# loads it and fails later on numpy), and the source tree's python/ directory does not hold it.
try:
    from ._podsim import ScenarioError
    from ._podsim import __version__
    from ._podsim import load as _load
    from ._podsim import read as _read
    from ._podsim import run as _run
    from ._podsim import schema as _schema
    from ._podsim import pyxis  # the Pyxis UIE kernel model: podsim.pyxis.gemm(...) etc.
except ImportError as _e:
    raise _cannot_load(f"the compiled module podsim._podsim cannot be loaded ({_e})") from _e
try:
    import numpy as _numpy  # the results are numpy arrays
except ImportError as _e:
    raise _cannot_load(f"the compiled module podsim._podsim cannot be loaded: numpy is missing "
                       f"({_e})") from _e

__all__ = [
    "Interrupted",
    "run",
    "load",
    "schema",
    "read",
    "read_study",
    "ScenarioError",
    "message_latency_ns",
    "pyxis",
    "__version__",
]

ScenarioError.__module__ = "podsim"
# `import podsim.pyxis` and `from podsim.pyxis import gemm` work too.
_sys.modules[__name__ + ".pyxis"] = pyxis


class Interrupted(KeyboardInterrupt):
    """Ctrl-C (SIGINT) stopped podsim.run(): ``results`` holds what the run had done by then
    (the dict run() returns, with ``summary["incomplete"]`` True; its results file, when one was
    written, has the root attribute ``incomplete`` = 1). A KeyboardInterrupt, so that a script
    stops as it would on Ctrl-C."""

    def __init__(self, results):
        super().__init__("podsim.run interrupted (SIGINT): the results so far are in .results")
        self.results = results


def run(
    scenario_path, overrides=None, results_file=None, write_results=True, quiet=True, check=False
):
    """Run one scenario and return its results.

    Args:
        scenario_path: the scenario YAML file (str or os.PathLike).
        overrides: None, a dict ``{"pod.accelerators": 64, "pod.link.rate": "400Gbps"}``,
            or a list of ``"KEY=VALUE"`` strings (what ``podsim-run --set`` takes). Dict values
            are converted to scenario text: bools as true/false, None as null, other values
            with str().
        results_file: HDF5 file to write instead of the scenario's ``output.file``.
        write_results: write the HDF5 results file at all.
        quiet: print neither the summary table nor the progress line.
        check: run with the invariant checks (``podsim run --check``, doc/robustness.rst):
            credit and buffer accounting, sequence numbers and event times while running, byte
            conservation per flow at the end. The summary's ``checked`` is then True, with
            ``checks`` (how many were done) and ``checked_flows``.

    Returns:
        The results dict described in the module docstring; ``results_file`` is the path
        written (None when write_results is false).

    Raises:
        ScenarioError: the scenario or an override is invalid (nothing was run). str(e) is
            ``FILE:LINE: FIELD: MESSAGE``; e.file, e.line, e.field and e.message hold the parts.
        RuntimeError: the results file could not be written (checked before the run: a path
            that is a directory, a device, a FIFO or a socket is refused, and nothing is run),
            or (check=True) an invariant was violated: str(e) starts with "invariant violated:
            " and names the invariant, the component and the simulated time.
        Interrupted: Ctrl-C (SIGINT) stopped the run within a tenth of a second; the results
            so far, written to the results file (marked incomplete) as usual, are in
            ``e.results``.

    The simulator is process-wide: runs do not overlap, and the calling thread holds the GIL
    until the run ends.
    """
    if results_file is not None:
        results_file = _os.fspath(results_file)
    results = _run(
        _os.fspath(scenario_path),
        overrides,
        results_file,
        bool(write_results),
        bool(quiet),
        bool(check),
    )
    if results["summary"].get("incomplete"):
        raise Interrupted(results)
    return results


def load(scenario_path, overrides=None):
    """Load and validate a scenario without running it (nothing is built or written).

    Args:
        scenario_path: the scenario YAML file (str or os.PathLike).
        overrides: as for run().

    Returns:
        The resolved scenario's main values (defaults filled)::

            {"source_file", "name", "seed", "stop_ps", "scheduler", "fabric", "accelerators",
             "planes", "topology", "rail_group", "switch_radix", "link_rate_bps", "flow_control",
             "workloads": [{"name", "kind", "bytes", "start_ps", "class", "iterations",
                            "nodes", "model", "rx_posting", "chips"}, ...],
             (model: a pyxis workload's model file, resolved beside the scenario; rx_posting
             and chips, tensor x data, with it; "" and 0 for the other kinds)
             "faults" (count), "output_file", "overrides": [str, ...]}

        rail_group is how many consecutive rails must run together when the pod is split by
        rails (a SUE instance's ports, pod.sue.ports; 1 for UALink); 0 when the fabric does not
        split by rails.

    Raises:
        ScenarioError: exactly what run() raises for the same scenario and overrides.
    """
    return _load(_os.fspath(scenario_path), overrides)


def schema():
    """Every key of the scenario format (the table of ``podsim-run --schema``).

    Returns:
        A list of dicts, sections before their keys: ``{"path": "pod.link.rate", "type":
        "rate", "default": "800Gbps" or None, "required": bool, "min": float or None,
        "min_exclusive": bool, "max": float or None, "allowed": [str] (enums), "element":
        "map"/"uint" (lists) or None, "kinds": [str] (workload kinds the key belongs to; empty:
        all), "unit": str}``. Paths are dotted, ``[]`` marks list elements
        (``workloads[].size``); min and max are in the base unit (bytes, ps, bit/s, m).
    """
    return _schema()


def read(path, group=None):
    """Read an HDF5 results file written by a run, or a run stored as a group of a larger file.

    A results file and a run's group of a study file (``/runs/<fabric>/<workload>``, a results
    file copied whole) are read by the same reader, relative to the group.

    Args:
        path: the results file (str or os.PathLike), or an open h5py Group or File holding a
            run (then the run is read from its file and group; ``group`` must be None).
        group: the run's group in the file (``"/runs/sue/incast"``); None or ``"/"``: the whole
            file.

    Returns:
        The same dict that run() returned for that run (``results_file`` is the file's path).

    Raises:
        RuntimeError: the file cannot be opened, or the group is missing or is not a podsim run
            (the message names the file and the group).
    """
    if hasattr(path, "file") and hasattr(path, "name"):  # an h5py Group or File
        if group is not None:
            raise TypeError("read(): give either an h5py group or a path and a group, not both")
        path, group = path.file.filename, path.name
    return _read(_os.fspath(path), "/" if group is None else str(group))


def _attr_value(value):
    """An h5py attribute value as plain Python: str for bytes, int or float for numpy scalars,
    a list of str for a string array (other arrays as they are)."""
    import numpy as np

    if isinstance(value, bytes):
        return value.decode()
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray) and value.dtype.kind in "OSU":
        return [v.decode() if isinstance(v, bytes) else str(v) for v in value.ravel()]
    return value


def read_study(path):
    """Read a study results file (utils/study.py: one run per fabric and workload).

    Args:
        path: the study file (str or os.PathLike), root attribute ``format`` =
            ``"podsim-study"``.

    Returns:
        ``{"study": {column: numpy array}, "runs": {(fabric, workload): results dict},
        "attrs": {name: value}}``: the ``/study`` table, one row per case (string columns as
        numpy str arrays, the others with the file's types); each case's run, read from
        ``/runs/<fabric>/<workload>`` by read() (the dict read() returns for the case's own
        results file; ``results_file`` is the study file), in the order of the table's rows (a
        case whose run wrote no results has a row but no run); the root attributes
        (``podsim_version``, ``format``, ``study_name``, ``quick``, ``scenario``...) as str,
        int or float, and arrays of strings as lists of str.

    Raises:
        RuntimeError: the file cannot be opened, is not a study file, its columns differ in
            length, or a run group is not a podsim run.
    """
    import h5py
    import numpy as np

    path = _os.fspath(path)
    try:
        f = h5py.File(path, "r")
    except OSError as e:
        raise RuntimeError(f"{path}: cannot open study file ({e})") from None
    with f:
        attrs = {name: _attr_value(value) for name, value in f.attrs.items()}
        if attrs.get("format") != "podsim-study" or "study" not in f:
            raise RuntimeError(
                f"{path}: not a podsim study file (root attribute format is "
                f"{attrs.get('format')!r}, expected 'podsim-study', and a /study table)"
            )
        study = {}
        for name, ds in f["study"].items():
            if h5py.check_string_dtype(ds.dtype) is not None:
                study[name] = np.array(ds.asstr()[()], dtype=str).reshape(-1)
            else:
                study[name] = np.asarray(ds[()]).reshape(-1)
        rows = {len(v) for v in study.values()}
        if len(rows) > 1:
            lengths = ", ".join(f"{k} {len(v)}" for k, v in study.items())
            raise RuntimeError(f"{path}: /study columns differ in length ({lengths})")
        cases = []
        for fabric, workload in zip(study.get("fabric", []), study.get("workload", [])):
            case = (str(fabric), str(workload))
            if case not in cases:
                cases.append(case)
        runs = f.get("runs", {})
        # A case whose run wrote no results file has a row but no group (and no entry in
        # "runs"); a group without a row is read too, after the rows' cases.
        cases = [case for case in cases if "/".join(case) in runs]
        for fabric in sorted(runs):
            for workload in sorted(runs[fabric]):
                if (fabric, workload) not in cases:
                    cases.append((fabric, workload))
    # Read with the h5py handle closed: the run reader opens the file itself.
    return {
        "study": study,
        "runs": {(fb, wl): read(path, f"/runs/{fb}/{wl}") for fb, wl in cases},
        "attrs": attrs,
    }


def message_latency_ns(results):
    """Delivery latency of every delivered message, in nanoseconds.

    Args:
        results: a dict from run() or read().

    Returns:
        float64 numpy array of ``(deliver_ps - post_ps) / 1000`` for the messages that were
        delivered (deliver_ps >= 0), in message order.
    """
    import numpy as np

    m = results["messages"]
    deliver = np.asarray(m["deliver_ps"], dtype=np.int64)
    post = np.asarray(m["post_ps"], dtype=np.int64)
    delivered = deliver >= 0
    return (deliver[delivered] - post[delivered]).astype(np.float64) / 1000.0
