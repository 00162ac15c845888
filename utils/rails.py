#!/usr/bin/python3
# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""podsim run --split-rails: a UALink or SUE scenario as one process per rail, merged into one file.

    ./podsim run --split-rails [-j N] [--parts P] SCENARIO.yaml [--set KEY=VALUE ...]
        [--out FILE] [--bench]

A UALink pod's rails never interact when the UPLI is Ideal, nothing fails and the workloads are
static (src/ualink/doc/ualink.rst, "Rails in parallel"); nor do a switched SUE pod's planes when
the load balance is Hash or RoundRobin, nothing fails and the workloads are static
(src/sue/doc/sue.rst, "Planes in parallel"). Each part runs as ``podsim-run --rails=LIST`` (at
most N at once, default nproc), which builds the whole pod but posts only what goes on its
rails: the requests the rail hash deals to those UALink ports, the messages whose SUE instance
is on those planes. By default each rail is a part of its own (each SUE instance, when it has
more than one port); ``--parts P`` makes P parts of consecutive rails instead (whole SUE
instances), as even as they can be, so that P processes build the pod instead of one per rail.
Their results merge into ONE file with the layout of a monolithic run (``podsim.read`` reads it):

- ``/messages``: deliver_ps and complete_ps are the latest over the rails that carry a share of
  the message (-1 if any share never arrived; a rail with no request of it wrote -2 and is left
  out); the other columns are the plan's, the same in every part;
- ``/links``: each row's counters summed (a link belongs to one rail: the other parts hold 0),
  its name, kind, plane and rate as they are;
- ``/summary``: bytes, events, packet-hops, drops, stalls, replays summed; simulated time, peak
  switch buffer and build time the maximum; wall time the split run's own (first process start
  to last process end); peak RSS the largest process's (``peak_rss_bytes_sum``: all of them);
  messages_failed, bytes_failed and failure recomputed from the merged messages;
- ``/timeseries/switch_buffer``: each switch's rows from the part that ran its rail (the
  switches of plane R are named ``pR.*``); ``/collectives`` and ``/dag_nodes`` are empty (their
  workloads are refused);
- ``/histograms/message_latency``: recomputed from the merged ``/messages`` with the binning of
  ``ResultsWriter`` (src/pod/doc/pod.rst, "Results file").

The root attributes ``rails`` (every rail, "0,1,2,3") and ``split_rails_processes`` say how it was
made. The file is written under a temporary name and renamed; if any rail fails, nothing is
written. With ``--bench`` no file is written: the bench figures of the whole split run print,
with a BENCH-JSON line named ``<scenario name>-split-rails``.
"""

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time
import concurrent.futures

import h5py
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sweep  # noqa: E402  (run_one: one podsim-run process)
from outpath import check_output_path  # noqa: E402

NOT_IN_RAILS = -2  # RunResults::NOT_IN_RAILS: no request of the message on the part's rails

SUMMED = {
    "bytes_sent", "bytes_delivered", "bytes_received", "bytes_dropped", "events", "packet_hops",
    "pause_ps", "stall_ps", "replays", "replayed_packets", "retransmitted_packets",
    "bytes_retransmitted", "bytes_discarded", "go_backs", "transport_timeouts",
    "failed_connections", "isolations", "cmpto", "faults_injected", "link_down_events",
    "link_up_events", "routes_denied", "bytes_failed_over", "checks", "checked_flows",
    "check_lost_bytes", "check_in_flight_bytes",
}
MAXIMUM = {"sim_time_ps", "peak_switch_buffer_bytes", "build_seconds", "peak_rss_bytes"}
LINK_AS_IS = {"name", "kind", "plane", "rate_bps"}


def die(msg, code=2):
    print(f"podsim run --split-rails: error: {msg}", file=sys.stderr)
    raise SystemExit(code)


def scenario_of(prog, scenario, fixed):
    """The resolved scenario (podsim.load, from the build beside prog)."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(prog))),
                                    "python"))
    import podsim
    return podsim.load(scenario, [f"{k}={v}" for k, v in fixed])


def check_split(prog, scenario, fixed, extra, width):
    """Exits with podsim-run's error if the scenario is invalid or cannot split by rails.

    width: rails that go together (a SUE instance's planes)."""
    first = ",".join(str(r) for r in range(width))
    cmd = [prog, scenario, "--validate", f"--rails={first}"]
    cmd += [f"--set={k}={v}" for k, v in fixed] + list(extra)
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.stderr.write(p.stderr)
        raise SystemExit(p.returncode)


def group_rails(planes, width, parts):
    """The parts: consecutive whole units of width rails, as even as they can be."""
    units = [list(range(u, min(u + width, planes))) for u in range(0, planes, width)]
    parts = len(units) if parts is None else min(parts, len(units))
    out = []
    for i in range(parts):
        lo, hi = i * len(units) // parts, (i + 1) * len(units) // parts
        out.append([r for unit in units[lo:hi] for r in unit])
    return out


def merge_deliveries(parts):
    """Latest time over the parts that carry a share; -1 if any share never arrived."""
    stack = np.stack(parts)
    share = stack != NOT_IN_RAILS
    never = (stack == -1).any(axis=0)
    latest = np.where(share, stack, np.iinfo(np.int64).min).max(axis=0)
    out = np.where(never, -1, latest)
    return np.where(share.any(axis=0), out, NOT_IN_RAILS).astype(np.int64)


def copy_attrs(src, dst):
    for name, value in src.attrs.items():
        dst.attrs[name] = value


def merge(out, part_files, rails_of_part, wall_s):
    """Writes the merged results file at out from the parts (one per process)."""
    srcs = [h5py.File(p, "r") for p in part_files]
    try:
        first = srcs[0]
        with h5py.File(out, "w") as f:
            copy_attrs(first, f)
            f.attrs["rails"] = ",".join(str(r) for rs in rails_of_part for r in rs)
            f.attrs["split_rails_processes"] = np.uint32(len(srcs))
            first.copy(first["scenario"], f, name="scenario")
            # Messages: the plan's columns from any part, the times merged.
            m = f.create_group("messages")
            copy_attrs(first["messages"], m)
            for name in first["messages"]:
                if name in ("deliver_ps", "complete_ps"):
                    data = merge_deliveries([s["messages"][name][()] for s in srcs])
                    m.create_dataset(name, data=data)
                else:
                    m.create_dataset(name, data=first["messages"][name][()])
            # Links: counters summed (each link belongs to one rail).
            links = f.create_group("links")
            for name, obj in first["links"].items():
                if isinstance(obj, h5py.Group):
                    g = links.create_group(name)
                    reasons = sorted({r for s in srcs for r in s["links"][name]})
                    rows = len(first["links/name"])
                    for reason in reasons:
                        total = np.zeros(rows, dtype=np.uint64)
                        for s in srcs:
                            if reason in s["links"][name]:
                                total += s["links"][name][reason][()]
                        g.create_dataset(reason, data=total)
                elif name in LINK_AS_IS:
                    links.create_dataset(name, data=obj[()])
                else:
                    total = sum(s["links"][name][()] for s in srcs)
                    links.create_dataset(name, data=total.astype(obj.dtype))
            # Collectives and DAG nodes: none (refused); copied as they are (empty).
            for group in ("collectives", "dag_nodes"):
                if group in first:
                    if any(len(s[group + "/workload"]) for s in srcs):
                        raise RuntimeError(f"/{group} is not empty: cannot merge it")
                    first.copy(first[group], f, name=group)
            merge_series(f, srcs, rails_of_part)
            write_latency_histograms(f, srcs[0])
            merge_summary(f, srcs, wall_s)
    finally:
        for s in srcs:
            s.close()


def merge_series(f, srcs, rails_of_part):
    """Each switch's buffer rows from the part that ran its rail (plane r: "pR.*")."""
    path = "timeseries/switch_buffer"
    if path not in srcs[0]:
        return
    first = srcs[0][path]
    g = f.create_group(path)
    copy_attrs(first, g)
    names = [n.decode() if isinstance(n, bytes) else n for n in first["switch_names"][()]]
    g.create_dataset("switch_names", data=first["switch_names"][()],
                     dtype=h5py.string_dtype())
    cols = [c for c in first if c != "switch_names"]
    picked = {c: [] for c in cols}
    for s, rails in zip(srcs, rails_of_part):
        sw = s[path + "/switch"][()]
        plane = np.array([int(names[k].split(".")[0][1:]) if names[k].startswith("p") else -1
                          for k in sw], dtype=np.int64)
        keep = np.isin(plane, list(rails))
        for c in cols:
            picked[c].append(s[path][c][()][keep])
    data = {c: np.concatenate(picked[c]) for c in cols}
    order = np.lexsort((data["time_ps"], data["switch"])) if "time_ps" in data else None
    for c in cols:
        g.create_dataset(c, data=data[c][order] if order is not None else data[c],
                         dtype=first[c].dtype)


def latency_bin_edge(k, per_decade):
    """Lower edge of latency bin k in ps: 10^(k / per_decade), the same pow as the C++ writer."""
    return 10.0 ** (k / per_decade)


def latency_bin(ps, per_decade):
    """The largest k with latency_bin_edge(k) <= ps (ps >= 1), decided by the edges themselves."""
    x = float(ps)
    k = math.floor(math.log10(x) * per_decade)
    while latency_bin_edge(k + 1, per_decade) <= x:
        k += 1
    while latency_bin_edge(k, per_decade) > x:
        k -= 1
    return k


def write_latency_histograms(f, first):
    """/histograms/message_latency recomputed from the merged message table, as ResultsWriter
    writes it (WriteLatencyHistograms in src/pod/model/results-writer.cc): per workload, one row
    per log-spaced bin from the smallest delivered latency's to the largest's."""
    path = "histograms/message_latency"
    if path not in first:
        return
    per_decade = int(first[path].attrs["bins_per_decade"])
    m = f["messages"]
    workload, post, deliver = m["workload"][()], m["post_ps"][()], m["deliver_ps"][()]
    n = max(len(m.attrs.get("workload_names", [])), int(workload.max()) + 1 if workload.size else 0)
    rows = {c: [] for c in ("workload", "bin", "lower_ps", "upper_ps", "count")}
    for w in range(n):
        lat = (deliver - post)[(workload == w) & (deliver >= 0)]
        if lat.size == 0:
            continue
        zeros = int((lat < 1).sum())
        counts = {}
        for ps, c in zip(*np.unique(lat[lat >= 1], return_counts=True)):
            k = latency_bin(int(ps), per_decade)
            counts[k] = counts.get(k, 0) + int(c)
        if zeros:
            first_bin = min(counts) if counts else 0
            counts[first_bin] = counts.get(first_bin, 0) + zeros
        lo, hi = min(counts), max(counts)
        for k in range(lo, hi + 1):
            rows["workload"].append(w)
            rows["bin"].append(k)
            rows["lower_ps"].append(0.0 if k == lo and zeros else latency_bin_edge(k, per_decade))
            rows["upper_ps"].append(latency_bin_edge(k + 1, per_decade))
            rows["count"].append(counts.get(k, 0))
    g = f.create_group(path)
    copy_attrs(first[path], g)
    types = {"workload": np.uint32, "bin": np.int64, "lower_ps": np.float64,
             "upper_ps": np.float64, "count": np.uint64}
    for c, t in types.items():
        g.create_dataset(c, data=np.asarray(rows[c], dtype=t))


def merge_summary(f, srcs, wall_s):
    s0 = srcs[0]["summary"]
    g = f.create_group("summary")
    for name, value in s0.attrs.items():
        vals = [s["summary"].attrs[name] for s in srcs]
        if name in SUMMED:
            g.attrs[name] = np.sum(vals).astype(np.asarray(value).dtype)
        elif name in MAXIMUM:
            g.attrs[name] = np.max(vals).astype(np.asarray(value).dtype)
        elif name in ("deadlock", "watchdog"):
            texts = [str(v) for v in vals if str(v)]
            g.attrs[name] = "; ".join(texts)
        else:
            g.attrs[name] = value
    g.attrs["wall_seconds"] = float(wall_s)
    g.attrs["peak_rss_bytes_sum"] = np.uint64(sum(int(s["summary"].attrs["peak_rss_bytes"])
                                                  for s in srcs))
    deliver = f["messages/deliver_ps"][()]
    nbytes = f["messages/bytes"][()]
    failed = deliver == -1
    g.attrs["messages_failed"] = np.uint64(failed.sum())
    g.attrs["bytes_failed"] = np.uint64(nbytes[failed].sum())
    g.attrs["failure"] = (f"MessagesFailed: {int(failed.sum())} of {len(deliver)} messages "
                          f"({int(nbytes[failed].sum())} of {int(nbytes.sum())} B) not delivered"
                          if failed.any() else "")
    d = g.create_group("drops_by_reason")
    reasons = sorted({r for s in srcs for r in s["summary/drops_by_reason"].attrs})
    for reason in reasons:
        d.attrs[reason] = np.uint64(sum(int(s["summary/drops_by_reason"].attrs.get(reason, 0))
                                        for s in srcs))


def bench_json(stdout):
    for line in stdout.splitlines():
        if line.startswith("BENCH-JSON "):
            return json.loads(line[len("BENCH-JSON "):])
    return None


def print_bench(name, figures, wall_s, jobs):
    """The figures of the whole split run and its BENCH-JSON line."""
    events = sum(b["events"] for b in figures)
    hops = sum(b["packet_hops"] for b in figures)
    rss = [b["peak_rss_bytes"] for b in figures]
    sim_ps = max(b["sim_time_ps"] for b in figures)
    run_wall = max(b["wall_s"] for b in figures)
    out = {
        # One process at a time is a one-core figure: an entry of its own.
        "name": f"{name}-split-rails" + ("-one-core" if jobs == 1 else ""),
        "events_per_s": events / wall_s if wall_s > 0 else 0.0,
        "packet_hops_per_s": hops / wall_s if wall_s > 0 else 0.0,
        "events_per_packet_hop": events / hops if hops else 0.0,
        "sim_per_wall": sim_ps * 1e-12 / wall_s if wall_s > 0 else 0.0,
        "peak_rss_bytes": max(rss),
        "peak_rss_sum_bytes": sum(rss),
        "wall_s": wall_s,
        "max_rail_run_wall_s": run_wall,
        "build_s": max(b["build_s"] for b in figures),
        "events": events,
        "packet_hops": hops,
        "sim_time_ps": sim_ps,
        "accelerators": figures[0]["accelerators"],
        "processes": len(figures),
        "jobs": jobs,
    }
    print(f"\nbenchmark {out['name']} ({len(figures)} processes, {jobs} at a time)")
    print(f"  packet-hops per wall s    {out['packet_hops_per_s']:.3e}   (target >= 1e6; "
          f"wall of the whole split run, builds included)")
    print(f"  events/s                  {out['events_per_s']:.3e}")
    print(f"  events, packet-hops       {events}, {hops}")
    print(f"  peak RSS                  {max(rss) / 1048576:.1f} MiB largest process, "
          f"{sum(rss) / 1048576:.1f} MiB summed")
    print(f"  wall (split / longest rail run)  {wall_s:.2f} s / {run_wall:.2f} s")
    print("BENCH-JSON " + json.dumps(out), flush=True)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="podsim run --split-rails", description=__doc__.splitlines()[0])
    ap.add_argument("scenario")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--parts", type=int, default=None,
                    help="processes (groups of consecutive rails); default one per rail")
    ap.add_argument("--out", help="merged results (default: the scenario's output.file)")
    ap.add_argument("--bench", action="store_true", help="bench figures, no results file")
    ap.add_argument("--prog", default="build/bin/podsim-run")
    args, extra = ap.parse_known_args(argv)
    if args.jobs < 1:
        die("-j must be at least 1")
    if args.parts is not None and args.parts < 1:
        die("--parts must be at least 1")
    if not os.path.isfile(args.scenario):
        die(f"no such scenario: {args.scenario}")
    fixed = []
    for s in args.set + [e[len("--set="):] for e in extra if e.startswith("--set=")]:
        k, sep, v = s.partition("=")
        if not sep or not k:
            die(f"--set {s!r}: expected KEY=VALUE")
        fixed.append((k, v))
    extra = [e for e in extra if not e.startswith("--set=")]
    for e in extra:
        if e.startswith("--rails") or e.startswith("--out"):
            die(f"{e}: --split-rails chooses the rails and the parts' files itself")
    try:
        scen = scenario_of(args.prog, args.scenario, fixed)
    except Exception as e:  # noqa: BLE001  (podsim.ScenarioError: podsim-run says it below)
        check_split(args.prog, args.scenario, fixed, extra, 1)
        die(str(e))
    width = max(1, scen["rail_group"])
    check_split(args.prog, args.scenario, fixed, extra, width)
    planes = scen["planes"]
    rails = group_rails(planes, width, args.parts)
    out = args.out
    if out is None and not args.bench:
        out = scen["output_file"]
    if out is not None:
        check_output_path(out, "podsim run --split-rails")  # before any part runs

    print(f"podsim run --split-rails: {planes} rail(s) of {args.scenario} in {len(rails)} "
          f"part(s), {min(args.jobs, len(rails))} process(es) at a time", flush=True)
    with tempfile.TemporaryDirectory(prefix="podsim-rails-") as tmp:
        parts = [os.path.join(tmp, f"rails-{i}.h5") for i in range(len(rails))]
        results = [None] * len(rails)
        t0 = time.monotonic()
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            futures = {}
            for i, rs in enumerate(rails):
                more = extra + [f"--rails={','.join(map(str, rs))}"] + (["--bench"] if args.bench
                                                                         else [])
                futures[pool.submit(sweep.run_one, args.prog, args.scenario, fixed, {}, parts[i],
                                    more)] = i
            for fut in concurrent.futures.as_completed(futures):
                i = futures[fut]
                results[i] = fut.result()
                code = results[i][0]
                state = {0: "done", 3: "deadlock or no progress", 4: "wall limit"}.get(
                    code, f"FAILED (exit {code})")
                print(f"  rail(s) {','.join(map(str, rails[i]))}: {state}", flush=True)
        wall_s = time.monotonic() - t0
        failed = [(i, r) for i, r in enumerate(results)
                  if r[0] not in (0, 3, 4) or (not args.bench and not os.path.exists(parts[i]))]
        if failed:
            for i, (code, _, err) in failed:
                print(f"podsim run --split-rails: rail {rails[i]}: exit {code}: {err.strip()}",
                      file=sys.stderr)
            print("podsim run --split-rails: error: a rail failed; nothing written",
                  file=sys.stderr)
            return 2 if all(r[0] == 2 for _, r in failed) else 1
        if args.bench:
            figures = [bench_json(r[1]) for r in results]
            if any(b is None for b in figures):
                die("a rail printed no BENCH-JSON line", 1)
            name = figures[0]["name"]
            print_bench(name, figures, wall_s, args.jobs)
            return max(r[0] for r in results)
        os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
        partial = out + ".partial"
        try:
            merge(partial, parts, rails, wall_s)
        except BaseException:
            if os.path.exists(partial):
                os.remove(partial)
            raise
        os.replace(partial, out)
    # The summary table of the merged file, as a monolithic run prints it.
    subprocess.run([args.prog, f"--summary={out}"], check=False)
    print(f"results: {out} (rails merged, wall {wall_s:.2f} s for {len(rails)} processes)")
    return max(r[0] for r in results)


if __name__ == "__main__":
    sys.exit(main())
