#!/usr/bin/env python3
# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""Cross-validation of the flow engine against the packet engine (src/flow/doc/flow.rst,
Validation): run the same scenario with `engine: packet` and `engine: flow` and compare, per
workload, the completion time (the last delivery after the first post) and the message latency
percentiles (delivery minus post: p50, p99).

    validate_engines.py --prog build/bin/podsim-run SCENARIO.yaml [--set KEY=VALUE ...]
    validate_engines.py --prog build/bin/podsim-run --suite [-j N] [--rst FILE] [--check-doc DOC]

--suite runs the validation suite below (every fabric; incast, permutation, all-to-all, ring and
halving-doubling all-reduce; 64 to 1024 accelerators; small and large messages), prints its
table, and with --rst writes it as the reStructuredText table of flow.rst; --check-doc fails when
the table between the markers of DOC differs from the one just computed (the doc says what the
engines give). Each case has a class: `bandwidth` (bandwidth-bound, no back-pressure: the flow
engine must be within 5% on the completion time), `collective` (the study's collectives and
all-to-alls: within 15%), or `untrusted` (where the flow engine is known to be wrong, with the
reason: back-pressure, head-of-line blocking, per-packet effects of small messages). The exit
status is 1 when a case of the first two classes is outside its bound.
"""

import argparse
import concurrent.futures
import math
import os
import subprocess
import sys
import tempfile

import h5py
import numpy as np

# The fabrics as the default study (examples/scenarios/pod-1024.yaml) configures them, plus the
# plain Ethernet NIC with PFC and RIFL.
FABRICS = {
    "ethernet": ("{fabric: ethernet, planes: 1, link: {rate: 400Gbps}, "
                 "switch: {radix: 1024, latency: 250ns}, flow-control: {kind: pfc}}"),
    "ethernet-2tier": ("{fabric: ethernet, planes: 1, link: {rate: 400Gbps}, "
                       "switch: {radix: 64, latency: 250ns}, flow-control: {kind: pfc}, "
                       "nic: {plane-selection: hash}}"),
    "sue": ("{fabric: sue, planes: 8, switch: {radix: 1024, latency: 250ns, buffer: 128MiB}, "
            "link: {rate: 800Gbps}, flow-control: {kind: pfc}, "
            "sue: {ports: 1, ordering: strict, header: afh-gen2-12}}"),
    "ualink": "{fabric: ualink, planes: 4, switch: {radix: 1024}, "
              "ualink: {bifurcation: x4, lane-rate: 200g}}",
    "cell": "{fabric: cell, cell: {links: 36, stages: two-stage, switch-ports: 144, "
            "page-size-words: 125}}",
    "rifl": "{fabric: rifl, link: {rate: 100Gbps}, switch: {radix: 64}}",
}

WORKLOADS = {
    # A 255-to-1 incast of 1 MiB and, beside it, a permutation of 1 MiB (the victim: reported).
    "incast+victim": ("{name: incast, kind: incast, senders: 255, receiver: 0, size: 1MiB}\n"
                      "  - {name: victim, kind: permutation, size: 1MiB}"),
    "incast": "{kind: incast, senders: 16, receiver: 0, size: 1MiB}",
    "permutation": "{kind: permutation, size: 1MiB}",
    "all-to-all": "{kind: all-to-all, size: 16KiB}",
    "all-to-all-small": "{kind: all-to-all, size: 256B}",
    "ring": "{kind: collective, collective: all-reduce, algorithm: ring, size: 4MiB}",
    "halving-doubling": ("{kind: collective, collective: all-reduce, "
                         "algorithm: halving-doubling, size: 4MiB}"),
}

SMALL = "per-packet effects: a 256 B message is one unit whose per-unit costs (packing waits, " \
        "headers, handshakes) the flow engine spreads over bytes"

# (fabric, workload, accelerators, class, why untrusted)
SUITE = []
for _f in ("ethernet", "sue", "ualink", "cell", "rifl"):
    SUITE += [
        (_f, "incast", 64, "bandwidth", ""),
        (_f, "permutation", 64, "bandwidth", ""),
        (_f, "all-to-all", 64, "collective", ""),
        (_f, "ring", 64, "collective", ""),
        (_f, "halving-doubling", 64, "collective", ""),
        (_f, "all-to-all-small", 64, "untrusted", SMALL),
    ]
SUITE += [
    ("ethernet-2tier", "permutation", 1024, "bandwidth", ""),
    ("sue", "permutation", 1024, "bandwidth", ""),
    ("ualink", "incast", 1024, "bandwidth", ""),
    ("cell", "permutation", 256, "untrusted",
     "unit-level spraying through two-stage cell planes: each source rotates its own spray "
     "counter, so units of different sources meet by chance on a spine's link toward one leaf "
     "and queue behind the links' credits; the flow engine spreads every byte evenly over the "
     "spines (exact at 64 chips, where every chip of a plane shares one leaf)"),
    ("ethernet-2tier", "incast+victim", 1024, "untrusted",
     "back-pressure and head-of-line blocking: the incast's PFC pauses reach back through the "
     "spines and stop the victim permutation's packets queued behind the incast's; max-min "
     "gives the victim's flows their fair share of every link instead"),
]
BOUNDS = {"bandwidth": 0.05, "collective": 0.15}

MARK_BEGIN = ".. validate-engines table begin"
MARK_END = ".. validate-engines table end"


def suite_scenario(fabric, workload, n):
    name = f"{fabric}-{workload}-{n}"
    text = (f"name: {name}\n"
            f"pod: {FABRICS[fabric]}\n"
            f"workloads:\n  - {WORKLOADS[workload]}\n"
            f"output: {{progress: false, plots: false}}\n")
    return name, text, [f"pod.accelerators={n}"]


def run(prog, path, overrides, engine, out):
    cmd = [prog, path, f"--out={out}", "--quiet", f"--set=engine={engine}"]
    cmd += [f"--set={o}" for o in overrides]
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                       timeout=3600)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({p.returncode}): {p.stderr.strip()}")
    with h5py.File(out, "r") as f:
        m = f["messages"]
        names = [n.decode() if isinstance(n, bytes) else str(n)
                 for n in m.attrs["workload_names"]]
        t = {k: m[k][()] for k in ("workload", "post_ps", "deliver_ps")}
        wall = float(f["summary"].attrs["wall_seconds"])
        engine_attr = f.attrs["engine"]
        engine_attr = engine_attr.decode() if isinstance(engine_attr, bytes) else str(engine_attr)
    if engine_attr != engine:
        raise RuntimeError(f"{out}: results name engine {engine_attr}, not {engine}")
    rows = {}
    for w, name in enumerate(names):
        sel = t["workload"] == w
        post = t["post_ps"][sel]
        dl = t["deliver_ps"][sel]
        if len(post) == 0:
            continue
        if (dl < 0).any():
            raise RuntimeError(f"{out}: workload {name}: {int((dl < 0).sum())} messages "
                               f"not delivered")
        lat = dl - post
        rows[name] = {
            "messages": int(len(post)),
            "completion_ps": int(dl.max() - post.min()),
            "p50_ps": float(np.percentile(lat, 50)),
            "p99_ps": float(np.percentile(lat, 99)),
        }
    return rows, wall


def rel(flow, packet):
    return (flow - packet) / packet if packet else 0.0


def compare(prog, path, overrides, tmp, tag):
    pr, pw = run(prog, path, overrides, "packet", os.path.join(tmp, tag + ".packet.h5"))
    fr, fw = run(prog, path, overrides, "flow", os.path.join(tmp, tag + ".flow.h5"))
    out = []
    for name, p in pr.items():
        f = fr[name]
        out.append({
            "workload": name,
            "messages": p["messages"],
            "packet_ps": p["completion_ps"],
            "flow_ps": f["completion_ps"],
            "error": rel(f["completion_ps"], p["completion_ps"]),
            "p50_error": rel(f["p50_ps"], p["p50_ps"]),
            "p99_error": rel(f["p99_ps"], p["p99_ps"]),
            "packet_wall": pw,
            "flow_wall": fw,
        })
    return out


def fmt_ps(ps):
    for unit, scale in (("ms", 1e9), ("us", 1e6), ("ns", 1e3)):
        if ps >= scale:
            return f"{ps / scale:.4g} {unit}"
    return f"{ps} ps"


def pct(x):
    return f"{100 * x:+.1f}%"


def rst_table(results):
    head = ["case", "class", "packet", "flow", "error", "p50 error", "p99 error"]
    rows = []
    for r in results:
        rows.append([r["case"], r["class"], fmt_ps(r["packet_ps"]), fmt_ps(r["flow_ps"]),
                     pct(r["error"]), pct(r["p50_error"]), pct(r["p99_error"])])
    widths = [max(len(h), *(len(x[i]) for x in rows)) for i, h in enumerate(head)]
    sep = " ".join("=" * w for w in widths)
    lines = [sep, " ".join(h.ljust(w) for h, w in zip(head, widths)).rstrip(), sep]
    for x in rows:
        lines.append(" ".join(c.ljust(w) for c, w in zip(x, widths)).rstrip())
    lines.append(sep)
    return "\n".join(lines) + "\n"


def doc_table(path):
    text = open(path).read()
    if MARK_BEGIN not in text or MARK_END not in text:
        raise RuntimeError(f"{path}: no validate-engines markers")
    body = text.split(MARK_BEGIN, 1)[1].split(MARK_END, 1)[0]
    return "\n".join(line for line in body.strip("\n").splitlines()) + "\n"


def run_suite(args):
    tmp = tempfile.mkdtemp(prefix="podsim-validate-")
    jobs = []
    for fabric, workload, n, cls, why in SUITE:
        name, text, overrides = suite_scenario(fabric, workload, n)
        path = os.path.join(tmp, name + ".yaml")
        with open(path, "w") as f:
            f.write(text)
        jobs.append((f"{fabric}/{workload}/{n}", cls, why, path, overrides, name))
    results = [None] * len(jobs)
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        futs = {ex.submit(compare, args.prog, j[3], j[4], tmp, j[5]): i
                for i, j in enumerate(jobs)}
        for fut in concurrent.futures.as_completed(futs):
            i = futs[fut]
            rows = fut.result()
            # The case's workload: the only one, or the victim beside an incast.
            row = rows[-1]
            row.update(case=jobs[i][0], **{"class": jobs[i][1]}, why=jobs[i][2])
            results[i] = row
            print(f"  {row['case']:<34} {row['class']:<10} packet {fmt_ps(row['packet_ps']):>10} "
                  f"({row['packet_wall']:.1f} s)  flow {fmt_ps(row['flow_ps']):>10} "
                  f"({row['flow_wall']:.2f} s)  error {pct(row['error'])}  "
                  f"p50 {pct(row['p50_error'])}  p99 {pct(row['p99_error'])}", flush=True)
    bad = []
    for r in results:
        bound = BOUNDS.get(r["class"])
        if bound is not None and abs(r["error"]) > bound:
            bad.append(f"{r['case']}: completion error {pct(r['error'])} outside "
                       f"{100 * bound:.0f}%")
    table = rst_table(results)
    print(table)
    if args.rst:
        with open(args.rst, "w") as f:
            f.write(table)
    status = 0
    if args.check_doc:
        doc = doc_table(args.check_doc)
        if doc != table:
            print(f"error: the table of {args.check_doc} is not what the engines give now; "
                  f"write it again with --rst and paste it between the markers", file=sys.stderr)
            status = 1
    for b in bad:
        print("error: " + b, file=sys.stderr)
    return 1 if bad else status


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--prog", required=True, help="podsim-run")
    ap.add_argument("scenario", nargs="?", help="a scenario file (not with --suite)")
    ap.add_argument("--set", action="append", default=[], help="KEY=VALUE override")
    ap.add_argument("--suite", action="store_true", help="run the validation suite")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--rst", help="--suite: write the table here")
    ap.add_argument("--check-doc", help="--suite: fail if DOC's table differs")
    args = ap.parse_args()
    if args.suite == bool(args.scenario):
        ap.error("give a scenario or --suite")
    if args.suite:
        return run_suite(args)
    tmp = tempfile.mkdtemp(prefix="podsim-validate-")
    rows = compare(args.prog, args.scenario, args.set, tmp, "case")
    print(f"{'workload':<24} {'messages':>9} {'packet':>11} {'flow':>11} {'error':>8} "
          f"{'p50 err':>8} {'p99 err':>8} {'packet s':>9} {'flow s':>8}")
    for r in rows:
        print(f"{r['workload']:<24} {r['messages']:>9} {fmt_ps(r['packet_ps']):>11} "
              f"{fmt_ps(r['flow_ps']):>11} {pct(r['error']):>8} {pct(r['p50_error']):>8} "
              f"{pct(r['p99_error']):>8} {r['packet_wall']:>9.2f} {r['flow_wall']:>8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
