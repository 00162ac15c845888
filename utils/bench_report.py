#!/usr/bin/python3
# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""Gathers the BENCH-JSON lines of `./podsim bench` into one JSON file and compares with the last.

Reads the benchmarks' output on stdin and echoes it unchanged. Every line that starts with
``BENCH-JSON `` carries one benchmark's figures as a JSON object. At the end of the input:

- the figures are written to OUT as ``{"git": ..., "date": ..., "host": ..., "benchmarks": [...]}``
  (the file being replaced is kept as OUT with ``.previous`` before its suffix), and
- if a baseline exists (``--baseline``, else the file being replaced), a table prints, for each
  benchmark in both, the new and old wall time and the speedup (old wall / new wall) with the
  ratio of events per second.

Usage: ... | bench_report.py --out results/bench.json [--baseline FILE]
"""

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys


def git_revision(root):
    try:
        out = subprocess.run(["git", "-C", root, "describe", "--always", "--dirty"],
                             capture_output=True, text=True, check=True)
        return out.stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def parse(stream, echo):
    benches = []
    for line in stream:
        echo.write(line)
        echo.flush()
        if line.startswith("BENCH-JSON "):
            try:
                benches.append(json.loads(line[len("BENCH-JSON "):]))
            except json.JSONDecodeError as e:
                echo.write(f"bench_report: unreadable BENCH-JSON line ({e})\n")
    return benches


def compare(new, old):
    """Rows (name, new wall, old wall, speedup, events/s ratio) for benchmarks in both runs."""
    old_by_name = {b["name"]: b for b in old}
    rows = []
    for b in new:
        o = old_by_name.get(b["name"])
        if o is None or not o.get("wall_s") or not b.get("wall_s"):
            continue
        eps_ratio = None
        if o.get("events_per_s") and b.get("events_per_s"):
            eps_ratio = b["events_per_s"] / o["events_per_s"]
        rows.append((b["name"], b["wall_s"], o["wall_s"], o["wall_s"] / b["wall_s"], eps_ratio))
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, help="JSON file to write")
    ap.add_argument("--baseline", help="JSON file to compare with (default: the one replaced)")
    ap.add_argument("--root", default=".", help="repository (for the git revision)")
    args = ap.parse_args(argv)

    benches = parse(sys.stdin, sys.stdout)
    if not benches:
        print("bench_report: no BENCH-JSON lines; nothing written")
        return 0
    baseline = args.baseline
    if os.path.exists(args.out):
        stem, ext = os.path.splitext(args.out)
        kept = stem + ".previous" + ext
        os.replace(args.out, kept)
        baseline = baseline or kept
    doc = {
        "git": git_revision(args.root),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "host": platform.node(),
        "cpus": os.cpu_count(),
        "benchmarks": benches,
    }
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    print(f"\nbench: {len(benches)} benchmark(s) written to {args.out}")
    if baseline and os.path.exists(baseline):
        with open(baseline) as f:
            old = json.load(f)
        rows = compare(benches, old.get("benchmarks", []))
        if rows:
            print(f"compared with {baseline} ({old.get('git', '?')}, {old.get('date', '?')}):")
            print(f"  {'benchmark':40s} {'wall s':>9s} {'before':>9s} {'speedup':>8s} "
                  f"{'events/s':>9s}")
            for name, wall, owall, speedup, eps in rows:
                eps_s = f"{eps:8.2f}x" if eps is not None else "        -"
                print(f"  {name:40s} {wall:9.2f} {owall:9.2f} {speedup:7.2f}x {eps_s}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
