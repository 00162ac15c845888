#!/usr/bin/python3
# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""podsim study: run every case of a study file in parallel and compare the fabrics.

    ./podsim run STUDY.yaml [--quick] [--set KEY=VALUE ...] [-j N] [--out FILE.h5] [--no-plots]

A study file (a scenario with a ``study`` section; src/pod/doc/pod.rst, Studies) names fabrics
and workloads; each pair is a *case*, one run of ``podsim-run --case=FABRIC/WORKLOAD`` in a
process of its own, at most N at once (default: the number of CPUs). Every case is validated
(``podsim-run --list-cases``) before anything runs. While the cases run, a progress line on
stderr says which are done and running and estimates the time left. Then:

- one comparison table is printed: per fabric and workload, the completion time, the achieved
  bandwidth as a fraction of the accelerator's line rate (beside the fabric's wire efficiency,
  the most it can reach), p50/p99/max message latency, the peak switch buffer, pause and
  credit-stall time, link replays and drops;
- the results file (``output.file``, or --out) holds the table in ``/study`` (one row per
  case, a dataset per column) and each case's own results whole in ``/runs/FABRIC/WORKLOAD``;
  it is written under a temporary name and renamed, so a failed study leaves no file;
- analysis/plot_study.py draws the comparison plots into ``<results stem>-plots/``.

The results path is checked before anything runs: it must be a regular file or not exist (a
directory, a device, a FIFO or a socket is refused). Ctrl-C (SIGINT) stops the study within a
second: no case starts any more, the running ones are stopped (podsim-run ends its simulation
on SIGINT), and the results file is written with the cases that had finished, marked with the
root attribute ``incomplete`` = 1 and the list ``cases_not_finished``; the exit status is 130.

The columns and their definitions are in src/pod/doc/pod.rst (Studies); the wire efficiencies
and where they come from are in WIRE_EFFICIENCY below.
"""

import argparse
import math
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import h5py
import numpy as np

from children import Children
from outpath import check_output_path

ROOT = Path(__file__).resolve().parents[1]
FORMAT = "podsim-study"

# The training-step summary (iteration, compute, exposed communication) of DAG workloads whose
# nodes carry categories (kind: llm-step): analysis/llm_step.py defines it.
sys.path.insert(0, str(ROOT / "analysis"))
import llm_step  # noqa: E402

# The most payload a fabric can carry per bit of its links' line rate, at its largest transfer
# unit, as the specifications give it (src/pod/doc/pod.rst, Studies, derives each):
# - sue: a full 2 KB PDU of the default packing limit carries 7 writes of 256 B, 1792 B, in 1968
#   B on the wire with the AFH Gen 2 12-byte header (SUE RM102 sections 3.3, 3.4.1, 4.4; sue.rst
#   Validation, "Wire efficiency per format"); the 800G line rate is the MAC rate (FEC below it);
# - ualink: one-way 256 B write streams carry about 757.5 Gb/s of data on an x4 port of 200G
#   lanes whose line rate is 4 x 212.5 GT/s = 850 Gb/s (UALink 200 Rev 1.0 section 7.1): 784.23
#   Gb/s of TL flits (850 x 640/680: one 640 B DL flit per 680 B codeword, section 1.3.4; x
#   1023/1024: one codeword slot in 1024 carries an idle or alignment-marker flit, section 7.3.5;
#   x 628/640: the DL flit's header, segment headers and CRC, section 6.3.1) times the one-way
#   write efficiency 56/58 = 96.6% (7 compressed writes of 8 data half-flits per 2 control
#   half-flits: 4 two-sector requests in one, 3 and the flow-control sector in the next, section
#   5.1.1 Table 5-2): 784.23 x 0.966 = 757.5 is the figure used (56/58 exactly gives 757.2, so
#   the bound is 0.04% looser than the exact one);
# - cell: 176 B of payload per cell with a 16 B cell header on 106.25 Gb/s links (Pyxis spec
#   section 10.1 for the 16 B chunks of cells up to 176 B; the header size and link rate are
#   podsim's choices where the spec is silent, src/cell-fabric/doc/cell-fabric.rst).
WIRE_EFFICIENCY = {
    "sue": 1792.0 / 1968.0,
    "ualink": 757.5 / 850.0,
    "cell": 176.0 / 192.0,
}


def fmt_duration(s):
    s = max(0, int(round(s)))
    return f"{s // 60}m{s % 60:02d}s" if s >= 60 else f"{s}s"


def fmt_time_ps(ps):
    """A time in ps, in the unit that suits it."""
    if ps < 0:
        return "-"
    for unit, scale in (("ms", 1e9), ("us", 1e6), ("ns", 1e3)):
        if ps >= scale:
            return f"{ps / scale:.4g} {unit}"
    return f"{ps} ps"


def fmt_bytes(b):
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if b >= scale:
            return f"{b / scale:.4g} {unit}"
    return f"{int(b)} B"


def list_cases(prog, scenario, quick, sets):
    cmd = [prog, scenario, "--list-cases"] + (["--quick"] if quick else [])
    cmd += [f"--set={s}" for s in sets]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.stderr.write(p.stderr)
        raise SystemExit(p.returncode or 2)
    return [tuple(line.split("/", 1)) for line in p.stdout.split() if line]


def prior_walls(path, text, quick, sets):
    """{(fabric, workload): wall seconds} of an earlier results file of the same study (the
    same text, quick and overrides), if any."""
    try:
        with h5py.File(path, "r") as f:
            a = f.attrs
            same = (a.get("format") == FORMAT and a.get("scenario") == text
                    and int(a.get("quick", -1)) == int(quick)
                    and [x.decode() if isinstance(x, bytes) else x
                         for x in a.get("overrides", [])] == list(sets))
            if not same:
                return {}
            t = f["study"]
            fab = [x.decode() if isinstance(x, bytes) else x for x in t["fabric"][()]]
            wl = [x.decode() if isinstance(x, bytes) else x for x in t["workload"][()]]
            return dict(zip(zip(fab, wl), (float(x) for x in t["wall_s"][()])))
    except (OSError, KeyError):
        return {}


# Rough CPU seconds per GiB of payload on one core of this kind of machine, by fabric kind
# (measured on the default study on the 2-core machine; src/pod/doc/pod.rst, Studies): only to
# start the costliest cases first and to estimate the time left before any case has finished.
# Fitted to the 12 cases' wall times on the idle machine (UALink: ring 93.3 s and
# halving-doubling 75.4 s for 2 GiB each with 129,024 and 12,288 messages; cell fabric 98.9 and
# 116.2 s; SUE 9.7 and 9.6 s): the estimates are within a factor 2 of every case.
SECONDS_PER_GIB = {"ethernet": 4.0, "sue": 4.0, "rifl": 6.0, "ualink": 36.0, "cell": 55.0}
# A message costs about as much as this many payload bytes (handshakes, per-message state).
MESSAGE_EQUIVALENT_BYTES = 8192
# engine: flow: about this many seconds per message (the flow benchmarks of ./podsim bench).
FLOW_SECONDS_PER_MESSAGE = 5e-6


def estimate_seconds(info):
    """A rough cost of a case from its workload (see SECONDS_PER_GIB)."""
    n, size, k = info["accelerators"], info["size_bytes"], max(1, info["communicators"])
    p = n // k
    kind, alg = info["kind"], info["algorithm"]
    if kind == "incast":
        messages, payload = info["senders"], info["senders"] * size
    elif kind == "all-to-all":
        messages, payload = n * (p - 1), n * (p - 1) * size
    elif kind == "permutation":
        messages, payload = n, n * size
    elif kind == "collective":
        steps = 2 * max(1, math.ceil(math.log2(max(p, 2)))) if alg in (
            "halving-doubling", "rabenseifner", "double-binary-tree") else 2 * (p - 1)
        messages, payload = n * steps, 2 * n * size
    else:
        messages, payload = n, n * size
    if info.get("engine") == "flow":
        # The flow engine costs per message, not per byte (src/flow/doc/flow.rst, Cost).
        return 1.0 + FLOW_SECONDS_PER_MESSAGE * messages
    rate = SECONDS_PER_GIB.get(info["fabric_kind"], 10.0)
    return 0.2 + rate * (payload + messages * MESSAGE_EQUIVALENT_BYTES) / (1 << 30)


class Progress:
    """The progress line: cases done and running, elapsed time and an estimate of what is left.

    Each case's expected wall time is its wall time in the previous results file of the study
    when there is one, else the rough estimate of estimate_seconds scaled by how the finished
    cases compared with theirs. The time left is the expected time of the cases not finished
    (less what the running ones have already run) spread over the parallel jobs.
    """

    def __init__(self, name, cases, jobs, prior, estimates, enabled):
        self.name = name
        self.cases = cases
        self.jobs = jobs
        self.prior = prior
        self.estimates = estimates
        self.enabled = enabled
        self.tty = sys.stderr.isatty()
        self.t0 = time.monotonic()
        self.started = {}
        self.done = {}
        self.lock = threading.Lock()
        self.last_print = 0.0

    def start(self, case):
        with self.lock:
            self.started[case] = time.monotonic()

    def finish(self, case, wall):
        with self.lock:
            self.done[case] = wall
        self.show(force=True)

    def expected(self, case):
        if case in self.prior:
            return self.prior[case]
        est = sum(self.estimates[c] for c in self.done)
        scale = sum(self.done.values()) / est if self.done and est > 0 else 1.0
        return self.estimates[case] * scale

    def line(self):
        now = time.monotonic()
        with self.lock:
            running = [c for c in self.started if c not in self.done]
            left = 0.0
            for c in self.cases:
                if c in self.done:
                    continue
                e = self.expected(c)
                if c in self.started:
                    e = max(e - (now - self.started[c]), 0.0)
                left += e
            eta = left / max(1, min(self.jobs, len(self.cases) - len(self.done)))
            run = ", ".join(f"{f}/{w} {fmt_duration(now - self.started[(f, w)])}"
                            for f, w in running)
            return (f"study {self.name}: {len(self.done)}/{len(self.cases)} cases done"
                    + (f" | running {run}" if run else "")
                    + f" | elapsed {fmt_duration(now - self.t0)}"
                    + (f" | ETA {fmt_duration(eta)}" if len(self.done) < len(self.cases) else ""))

    def show(self, force=False):
        if not self.enabled:
            return
        now = time.monotonic()
        # On a terminal the line is redrawn each second; in a log, a line per case or 15 s.
        if not force and now - self.last_print < (1.0 if self.tty else 15.0):
            return
        self.last_print = now
        text = self.line()
        if self.tty:
            sys.stderr.write("\r\033[K" + text[:200])
        else:
            sys.stderr.write(text + "\n")
        sys.stderr.flush()

    def close(self):
        if self.enabled and self.tty:
            sys.stderr.write("\n")
            sys.stderr.flush()


def run_case(prog, scenario, case, quick, sets, out_path, progress, children):
    """(exit status, stdout, stderr, wall seconds) of one case; None if the study stopped
    before it started."""
    cmd = [prog, scenario, f"--case={case[0]}/{case[1]}", "--quiet", f"--out={out_path}"]
    cmd += ["--quick"] if quick else []
    cmd += [f"--set={s}" for s in sets]
    t0 = time.monotonic()
    res = children.run(cmd, on_start=lambda: progress.start(case))
    if res is None:
        return None
    wall = time.monotonic() - t0
    progress.finish(case, wall)
    return (*res, wall)


def case_row(path, fabric_kind):
    """The table's figures of one case, from its results file."""
    with h5py.File(path, "r") as f:
        s = dict(f["summary"].attrs)
        m = {k: f["messages"][k][()] for k in ("src", "dst", "bytes", "post_ps", "complete_ps")}
        links = {k: f["links"][k][()] for k in ("kind", "rate_bps")}
        engine = f.attrs.get("engine", "packet")
    engine = engine.decode() if isinstance(engine, bytes) else str(engine)
    n = int(s["accelerators"])
    posted = int(m["bytes"].sum())
    done = m["complete_ps"] >= 0
    row = {
        "engine": engine,
        "accelerators": n,
        "messages": int(len(m["bytes"])),
        "bytes_posted": posted,
        "bytes_delivered": int(s["bytes_delivered"]),
        "bytes_dropped": int(s["bytes_dropped"]),
        "messages_incomplete": int((~done).sum()),
        # UALink: the TL bytes of the operations a switch holds (UalinkSwitch::GetOccupancy).
        "peak_switch_buffer_bytes": int(s["peak_switch_buffer_bytes"]),
        "pause_ps": int(s["pause_ps"]),
        "stall_ps": int(s["stall_ps"]),
        "replays": int(s["replays"]),
        "events": int(s["events"]),
        "sim_time_ps": int(s["sim_time_ps"]),
    }
    if len(m["bytes"]) and done.all():
        completion = int(m["complete_ps"].max() - m["post_ps"].min())
        lat = (m["complete_ps"] - m["post_ps"]).astype(np.float64)
        p50, p99 = np.percentile(lat, [50, 99], method="nearest")
        row.update(completion_ps=completion, latency_p50_ps=int(p50), latency_p99_ps=int(p99),
                   latency_max_ps=int(lat.max()))
    else:
        row.update(completion_ps=-1, latency_p50_ps=-1, latency_p99_ps=-1, latency_max_ps=-1)
    # Line rate per accelerator: the rates of the accelerators' links into the fabric ("acc-up"
    # rows of /links), shared out over the accelerators (every pod here is uniform).
    kinds = [x.decode() if isinstance(x, bytes) else x for x in links["kind"]]
    rate = sum(r for k, r in zip(kinds, links["rate_bps"]) if k == "acc-up") / max(n, 1)
    row["line_rate_bps"] = float(rate)
    row["wire_efficiency"] = float(WIRE_EFFICIENCY.get(fabric_kind, math.nan))
    # Achieved bandwidth: the busiest endpoint's payload (bytes it sent or received, whichever
    # is more) over the completion time, as a fraction of its line rate.
    busiest = 0
    if len(m["bytes"]):
        sent = np.bincount(m["src"], weights=m["bytes"], minlength=n)
        recv = np.bincount(m["dst"], weights=m["bytes"], minlength=n)
        busiest = float(max(sent.max(), recv.max()))
    if row["completion_ps"] > 0 and rate > 0:
        row["achieved_fraction"] = busiest * 8 / (row["completion_ps"] * 1e-12) / rate
    else:
        row["achieved_fraction"] = math.nan
    row["busiest_endpoint_bytes"] = int(busiest)
    row.update(dag_step(path))
    return row


def dag_step(path):
    """The training-step columns of a case: its first iteration's time, the mean compute time
    per accelerator and the mean exposed communication (analysis/llm_step.py, summarize), for a
    DAG whose nodes carry categories; -1 for other workloads."""
    none = {"iteration_ps": -1, "compute_ps": -1, "exposed_comm_ps": -1}
    with h5py.File(path, "r") as f:
        dag = llm_step._read_dag_nodes(f)
    if dag is None or "category" not in dag or not any(dag["category"]):
        return none
    try:
        s = llm_step.summarize(dag)
    except ValueError:  # no node of the iteration finished (a stopped run)
        return none
    if s["unfinished"]:
        return none
    return {"iteration_ps": int(s["iteration_ps"]), "compute_ps": int(round(s["compute_ps"])),
            "exposed_comm_ps": int(round(s["exposed_ps"]))}


COLUMNS = [
    # (name, dtype) of /study, in table order.
    ("fabric", "str"), ("workload", "str"), ("engine", "str"), ("fabric_kind", "str"),
    ("kind", "str"),
    ("algorithm", "str"), ("size_bytes", "i8"), ("communicators", "i8"),
    ("communicator_size", "i8"), ("accelerators", "i8"),
    ("messages", "i8"), ("completion_ps", "i8"), ("bytes_posted", "i8"),
    ("bytes_delivered", "i8"), ("bytes_dropped", "i8"), ("messages_incomplete", "i8"),
    ("busiest_endpoint_bytes", "i8"), ("line_rate_bps", "f8"), ("wire_efficiency", "f8"),
    ("achieved_fraction", "f8"), ("latency_p50_ps", "i8"), ("latency_p99_ps", "i8"),
    ("latency_max_ps", "i8"), ("peak_switch_buffer_bytes", "i8"), ("pause_ps", "i8"),
    ("stall_ps", "i8"), ("replays", "i8"), ("events", "i8"), ("sim_time_ps", "i8"),
    ("iteration_ps", "i8"), ("compute_ps", "i8"), ("exposed_comm_ps", "i8"),
    ("wall_s", "f8"), ("exit_status", "i8"),
]


def write_rows(head, lines, rows, out):
    """A table: the head, a rule, then one line per row (fabric and workload left-aligned, the
    rest right-aligned), a blank line between workloads."""
    widths = [max(len(h), *(len(l[i]) for l in lines)) for i, h in enumerate(head)]
    def fmt(cells):
        return "  ".join(c.ljust(w) if i < 2 else c.rjust(w)
                         for i, (c, w) in enumerate(zip(cells, widths)))
    out.write(fmt(head) + "\n")
    out.write("  ".join("-" * w for w in widths) + "\n")
    prev = None
    for r, l in zip(rows, lines):
        if prev is not None and r["workload"] != prev:
            out.write("\n")
        prev = r["workload"]
        out.write(fmt(l) + "\n")


def print_table(rows, out=sys.stdout):
    head = ["fabric", "workload", "engine", "completion", "achieved", "ceiling", "p50", "p99",
            "max", "peak buffer", "pause", "stall", "replays", "dropped"]
    lines = []
    for r in rows:
        lines.append([
            r["fabric"], r["workload"], r.get("engine", "packet"), fmt_time_ps(r["completion_ps"]),
            "-" if math.isnan(r["achieved_fraction"]) else f"{100 * r['achieved_fraction']:.1f}%",
            "-" if math.isnan(r["wire_efficiency"]) else f"{100 * r['wire_efficiency']:.1f}%",
            fmt_time_ps(r["latency_p50_ps"]), fmt_time_ps(r["latency_p99_ps"]),
            fmt_time_ps(r["latency_max_ps"]), fmt_bytes(r["peak_switch_buffer_bytes"]) if r["peak_switch_buffer_bytes"] >= 0 else "n/a",
            fmt_time_ps(r["pause_ps"]) if r["pause_ps"] else "0",
            fmt_time_ps(r["stall_ps"]) if r["stall_ps"] else "0", str(r["replays"]),
            fmt_bytes(r["bytes_dropped"]) if r["bytes_dropped"] else "0",
        ])
    write_rows(head, lines, rows, out)
    out.write("achieved: the busiest accelerator's payload bytes (sent or received) per second "
              "over its line rate; ceiling: the fabric's wire efficiency (the most payload per "
              "line bit).\npause: PFC pause time summed over links; stall: time links held "
              "data back for want of credits, summed; latencies from post to completion.\n"
              "engine: packet (units through the devices, the reference) or flow (max-min "
              "rates on the same routes, src/flow/doc/flow.rst; no pause, stall or buffer).\n")
    steps = [r for r in rows if r.get("iteration_ps", -1) >= 0]
    if steps:
        out.write("\n")
        print_step_table(steps, out)


def print_step_table(rows, out=sys.stdout):
    """The training steps: iteration time, compute and exposed communication per fabric."""
    head = ["fabric", "workload", "iteration", "compute", "exposed comm", "exposed"]
    lines = [[r["fabric"], r["workload"], fmt_time_ps(r["iteration_ps"]),
              fmt_time_ps(r["compute_ps"]), fmt_time_ps(r["exposed_comm_ps"]),
              f"{100 * r['exposed_comm_ps'] / r['iteration_ps']:.1f}%"
              if r["iteration_ps"] > 0 else "-"] for r in rows]
    write_rows(head, lines, rows, out)
    out.write("iteration: first start to last end of the step's nodes; compute: the time an "
              "accelerator runs a compute node, mean over accelerators; exposed comm: the "
              "rest of the iteration (src/workload/doc/workload.rst, Results).\n")


def write_results(out, scenario, text, name, quick, sets, rows, parts, not_finished=()):
    """Writes the study file; not_finished: the cases an interrupt stopped or kept from
    starting (the file is then marked incomplete)."""
    tmp = out.with_name(out.name + ".tmp")
    with h5py.File(tmp, "w") as f:
        f.attrs["format"] = FORMAT
        if not_finished:
            f.attrs["incomplete"] = 1
            f.attrs["cases_not_finished"] = np.array(
                [f"{fa}/{wl}" for fa, wl in not_finished], dtype=h5py.string_dtype())
        f.attrs["study_name"] = name
        f.attrs["quick"] = int(quick)
        f.attrs["scenario_file"] = str(scenario)
        f.attrs["scenario"] = text
        f.attrs["overrides"] = np.array(list(sets), dtype=h5py.string_dtype())
        from_version = None
        g = f.create_group("study")
        for col, dt in COLUMNS:
            vals = [r[col] for r in rows]
            if dt == "str":
                g.create_dataset(col, data=np.array(vals, dtype=h5py.string_dtype()))
            else:
                g.create_dataset(col, data=np.array(vals, dtype=dt))
        runs = f.create_group("runs")
        for (fabric, workload), part in parts.items():
            with h5py.File(part, "r") as src:
                if from_version is None and "podsim_version" in src.attrs:
                    from_version = src.attrs["podsim_version"]
                dst = runs.require_group(fabric).create_group(workload)
                for k, v in src.attrs.items():
                    dst.attrs[k] = v
                for k in src:
                    src.copy(src[k], dst, name=k)
        if from_version is not None:
            f.attrs["podsim_version"] = from_version
    os.replace(tmp, out)


def validate_cases(prog, scenario, cases, quick, sets):
    """(name, results file, {fabric: pod.fabric}, {case: workload info}) as podsim-run
    --validate resolves each case: "valid: FILE: NAME, fabric KIND, ..., results OUT" and
    "workload NAME: kind K, algorithm A, communicators C, size B"."""
    kinds, info, name, out = {}, {}, None, None
    for fabric, workload in cases:
        cmd = [prog, scenario, f"--case={fabric}/{workload}", "--validate"]
        cmd += ["--quick"] if quick else []
        cmd += [f"--set={s}" for s in sets]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            sys.stderr.write(p.stderr)
            raise SystemExit(p.returncode)
        for line in p.stdout.splitlines():
            if line.startswith("valid: "):
                rest = line.partition(f"{scenario}: ")[2]
                name = rest.split(", fabric ", 1)[0]
                kinds[fabric] = rest.split(", fabric ", 1)[1].split(",", 1)[0]
                n = int(rest.split(" accelerators", 1)[0].rsplit(", ", 1)[1])
                out = rest.rsplit(", results ", 1)[1]
            elif line.startswith("workload "):
                fields = dict(f.strip().split(" ", 1) for f in line.split(": ", 1)[1].split(","))
                info[(fabric, workload)] = {
                    "kind": fields["kind"],
                    "algorithm": "" if fields["algorithm"] == "-" else fields["algorithm"],
                    "communicators": int(fields["communicators"]),
                    "size_bytes": int(fields["size"]),
                    "senders": int(fields["senders"]),
                    "engine": fields.get("engine", "packet"),
                    "accelerators": n,
                    "fabric_kind": kinds[fabric],
                }
    return name, out, kinds, info


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("scenario")
    ap.add_argument("--prog", default=str(ROOT / "build" / "bin" / "podsim-run"))
    ap.add_argument("--quick", action="store_true", help="the study's study.quick version")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--out", help="results file (default: output.file, else results/NAME.h5)")
    ap.add_argument("--no-plots", action="store_true")
    ap.add_argument("--quiet", action="store_true", help="no progress line")
    args = ap.parse_args(argv)
    if args.jobs < 1:
        raise SystemExit("podsim study: error: -j needs a positive number")
    scenario = Path(args.scenario)
    cases = list_cases(args.prog, str(scenario), args.quick, args.set)
    if not cases:
        raise SystemExit(f"podsim study: error: {scenario}: not a study (no study section)")
    name, default_out, kinds, info = validate_cases(args.prog, str(scenario), cases,
                                                    args.quick, args.set)
    text = scenario.read_text()
    out = Path(args.out or default_out)
    if not out.is_absolute():
        out = Path.cwd() / out
    if args.quick and not args.out:
        out = out.with_name(out.stem + "-quick" + out.suffix)
    check_output_path(out, "podsim study")
    out.parent.mkdir(parents=True, exist_ok=True)

    prior = prior_walls(out, text, args.quick, args.set)
    estimates = {c: estimate_seconds(info[c]) for c in cases}
    # Longest first (by the previous run's times when known, else by the estimate) so that the
    # last case to start is a short one.
    order = sorted(cases, key=lambda c: -prior.get(c, estimates[c]))
    progress = Progress(name, cases, args.jobs, prior, estimates, not args.quiet)
    tmpdir = Path(tempfile.mkdtemp(prefix="podsim-study-", dir=out.parent))
    parts, results = {}, {}
    children = Children()
    interrupted = False
    t0 = time.monotonic()
    try:
        pool = ThreadPoolExecutor(max_workers=args.jobs)
        futs = {}
        try:
            for c in order:
                part = tmpdir / f"{c[0]}__{c[1]}.h5"
                parts[c] = part
                futs[c] = pool.submit(run_case, args.prog, str(scenario), c, args.quick,
                                      args.set, part, progress, children)
            while not all(f.done() for f in futs.values()):
                progress.show()
                time.sleep(0.2)
        except KeyboardInterrupt:
            # Ctrl-C: no case starts any more, the running ones stop; the finished ones are
            # kept below.
            interrupted = True
            children.stop()
        pool.shutdown(wait=True, cancel_futures=True)
        progress.close()
        for c, fu in futs.items():
            if fu.done() and not fu.cancelled() and fu.result() is not None:
                results[c] = fu.result()
        if interrupted:
            finished = [c for c in cases if c in results and results[c][0] == 0]
            not_finished = [c for c in cases if c not in finished]
            sys.stderr.write(f"podsim study: interrupted: {len(finished)} of {len(cases)} cases "
                             f"finished; they are kept in {out} (marked incomplete)\n")
        else:
            failed = [(c, r) for c, r in results.items() if r[0] not in (0,)]
            if failed:
                for (f, w), (rc, so, se, _) in failed:
                    sys.stderr.write(f"podsim study: case {f}/{w} failed (exit status {rc}):\n{se}")
                raise SystemExit(1)
            finished, not_finished = list(cases), []
        rows = []
        for c in finished:
            r = case_row(parts[c], kinds[c[0]])
            wi = info[c]
            r.update(fabric=c[0], workload=c[1], fabric_kind=kinds[c[0]], wall_s=results[c][3],
                     exit_status=results[c][0], kind=wi["kind"], algorithm=wi["algorithm"],
                     communicators=wi["communicators"], size_bytes=wi["size_bytes"],
                     communicator_size=wi["accelerators"] // wi["communicators"])
            rows.append(r)
        # Table order: by workload, then fabric, as the file lists them.
        wl_order = {w: i for i, w in enumerate(dict.fromkeys(w for _, w in cases))}
        fab_order = {f: i for i, f in enumerate(dict.fromkeys(f for f, _ in cases))}
        rows.sort(key=lambda r: (wl_order[r["workload"]], fab_order[r["fabric"]]))
        if rows or interrupted:
            write_results(out, scenario, text, name, args.quick, args.set, rows,
                          {c: parts[c] for c in finished}, not_finished)
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)
    if interrupted:
        if rows:
            print_table(rows)
        print(f"\nresults (incomplete): {out}")
        return 130
    wall = time.monotonic() - t0
    print(f"\nstudy {name}{' (quick)' if args.quick else ''}: {len(cases)} cases, "
          f"{rows[0]['accelerators']} accelerators, {fmt_duration(wall)} wall with "
          f"{args.jobs} parallel runs\n")
    print_table(rows)
    print(f"\nresults: {out}")
    if not args.no_plots:
        plot = ROOT / "analysis" / "plot_study.py"
        if plot.exists():
            env = dict(os.environ, MPLBACKEND="Agg")
            subprocess.run([sys.executable, str(plot), str(out)], env=env, check=False)
        if any(r["iteration_ps"] >= 0 for r in rows):
            subprocess.run([sys.executable, str(ROOT / "analysis" / "llm_step.py"), str(out)],
                           env=env, check=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
