#!/usr/bin/python3
# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""podsim sweep: run a scenario over combinations of keys, as parallel processes, into one file.

    ./podsim sweep SCENARIO.yaml --vary KEY=V1,V2,... [--vary KEY=...] [--set KEY=VALUE ...]
                                 [-j N] [--out FILE.h5]

Every combination of the --vary values (their Cartesian product, the first key varying slowest)
is one run of podsim-run with those values as --set overrides, in a process of its own; at most
N run at once (default: the number of CPUs). The results are gathered into one HDF5 file:

- ``/sweep``: one row per run, with a column per varied key (the value as given, a string),
  ``run`` (the row's index), ``exit`` (podsim-run's status: 0 finished, 3 stopped by a deadlock
  or the no-progress watchdog, 4 stopped by the wall-time limit) and every summary figure of the run (``sim_time_ps``, ``bytes_dropped``, ``events``...);
- ``/sweep_messages``: every run's message table, one after the other, with columns ``run`` and
  the varied keys added, so that one table answers "how does latency change with KEY";
- ``/runs/NNNN``: each run's own results file, whole (the layout of ``podsim.read``).

The file's attributes name the scenario, the varied keys (``varied``) and the fixed overrides.
Every combination is validated (``podsim-run --validate``) before the first run: one the
scenario loader refuses (exit 2) stops the sweep with its error before anything runs, and
nothing is written. The output path is checked first too: it must be a regular file or not
exist (a directory, a device, a FIFO or a socket is refused). The output appears once every run
has finished (written to a temporary name, then renamed), so a failed sweep never leaves a
half-written file. Ctrl-C (SIGINT) stops the sweep within a second: no run starts any more,
the running ones are stopped (podsim-run ends its simulation on SIGINT), and the file is
written with the runs that had finished, marked with the root attribute ``incomplete`` = 1 and
``combinations_not_run`` (the unfinished combinations, ``KEY=VALUE`` joined by spaces); the exit
status is 130.
"""

import argparse
import concurrent.futures
import itertools
import os
import subprocess
import sys
import tempfile

import h5py
import numpy as np

from children import Children
from outpath import check_output_path


def parse_vary(items):
    """[(key, [values])] from KEY=V1,V2 strings, in the order given."""
    out = []
    seen = set()
    for item in items:
        key, sep, values = item.partition("=")
        if not sep or not key or not values:
            raise SystemExit(f"podsim sweep: error: --vary {item!r}: expected KEY=V1,V2,...")
        if key in seen:
            raise SystemExit(f"podsim sweep: error: --vary {key}: given twice")
        seen.add(key)
        vals = [v for v in values.split(",")]
        if any(v == "" for v in vals):
            raise SystemExit(f"podsim sweep: error: --vary {item!r}: an empty value")
        out.append((key, vals))
    if not out:
        raise SystemExit("podsim sweep: error: nothing to vary (give --vary KEY=V1,V2,...)")
    return out


def combinations(vary):
    keys = [k for k, _ in vary]
    return keys, [dict(zip(keys, combo)) for combo in itertools.product(*[v for _, v in vary])]


def command(prog, scenario, fixed, combo, extra=()):
    """podsim-run's command line for one combination. extra: more podsim-run arguments."""
    cmd = [prog, scenario, "--quiet"]
    cmd += [f"--set={k}={v}" for k, v in fixed]
    cmd += [f"--set={k}={v}" for k, v in combo.items()]
    return cmd + list(extra)


def run_one(prog, scenario, fixed, combo, out_path, extra=(), children=None):
    """One podsim-run: (exit status, stdout, stderr); None if the sweep stopped first."""
    cmd = command(prog, scenario, fixed, combo, [f"--out={out_path}", *extra])
    if children is None:
        p = subprocess.run(cmd, capture_output=True, text=True)
        return p.returncode, p.stdout, p.stderr
    return children.run(cmd)


def validate_all(prog, scenario, fixed, combos, jobs):
    """[(label, exit status, stderr)] of the combinations podsim-run --validate refuses."""
    def one(combo):
        p = subprocess.run(command(prog, scenario, fixed, combo, ["--validate"]),
                           capture_output=True, text=True)
        return p.returncode, p.stderr
    refused = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for combo, (code, err) in zip(combos, pool.map(one, combos)):
            if code != 0:
                label = " ".join(f"{k}={v}" for k, v in combo.items())
                refused.append((label, code, err.strip()))
    return refused


def gather(out, scenario, keys, combos, fixed, parts, codes, not_run=()):
    """Writes the gathered file at out (parts: per-run result files; not_run: the labels of
    the combinations an interrupt stopped or kept from starting, which mark it incomplete)."""
    with h5py.File(out, "w") as f:
        f.attrs["scenario"] = scenario
        if not_run:
            f.attrs["incomplete"] = 1
            f.attrs["combinations_not_run"] = np.array(list(not_run), dtype=h5py.string_dtype())
        f.attrs["varied"] = np.array(keys, dtype=h5py.string_dtype())
        f.attrs["fixed"] = np.array([f"{k}={v}" for k, v in fixed], dtype=h5py.string_dtype())
        summaries = []
        messages = []
        runs = f.create_group("runs")
        for i, part in enumerate(parts):
            with h5py.File(part, "r") as src:
                g = runs.create_group(f"{i:04d}")
                for name, value in src.attrs.items():
                    g.attrs[name] = value
                for name in src:
                    src.copy(src[name], g, name=name)
                summaries.append(dict(src["summary"].attrs))
                messages.append({name: src["messages"][name][()] for name in src["messages"]})
        sweep = f.create_group("sweep")
        sweep.create_dataset("run", data=np.arange(len(parts), dtype=np.uint32))
        sweep.create_dataset("exit", data=np.array(codes, dtype=np.int32))
        for k in keys:
            sweep.create_dataset(k, data=np.array([c[k] for c in combos],
                                                  dtype=h5py.string_dtype()))
        for name in (summaries[0] if summaries else []):
            col = [s.get(name) for s in summaries]
            if all(isinstance(v, (int, float, np.integer, np.floating)) for v in col):
                sweep.create_dataset(name, data=np.array(col))
            else:
                sweep.create_dataset(name, data=np.array([str(v) for v in col],
                                                         dtype=h5py.string_dtype()))
        msg = f.create_group("sweep_messages")
        counts = [len(next(iter(m.values()))) if m else 0 for m in messages]
        msg.create_dataset("run", data=np.repeat(np.arange(len(parts), dtype=np.uint32), counts))
        for k in keys:
            msg.create_dataset(k, data=np.array(np.repeat([c[k] for c in combos], counts),
                                                dtype=h5py.string_dtype()))
        for name in (messages[0] if messages else []):
            msg.create_dataset(name, data=np.concatenate([m[name] for m in messages]))


def main(argv=None):
    ap = argparse.ArgumentParser(prog="podsim sweep", description=__doc__.splitlines()[0])
    ap.add_argument("scenario")
    ap.add_argument("--vary", action="append", default=[], metavar="KEY=V1,V2,...")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="a fixed override for every run")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--out", help="gathered results (default results/<scenario stem>-sweep.h5)")
    ap.add_argument("--prog", default="build/bin/podsim-run")
    args = ap.parse_args(argv)
    if args.jobs < 1:
        raise SystemExit("podsim sweep: error: -j must be at least 1")
    if not os.path.isfile(args.scenario):
        raise SystemExit(f"podsim sweep: error: no such scenario: {args.scenario}")
    fixed = []
    for s in args.set:
        k, sep, v = s.partition("=")
        if not sep or not k:
            raise SystemExit(f"podsim sweep: error: --set {s!r}: expected KEY=VALUE")
        fixed.append((k, v))
    keys, combos = combinations(parse_vary(args.vary))
    stem = os.path.splitext(os.path.basename(args.scenario))[0]
    out = args.out or os.path.join("results", f"{stem}-sweep.h5")

    check_output_path(out, "podsim sweep")
    # Every combination is checked before the first run: one refused stops the sweep here.
    refused = validate_all(args.prog, args.scenario, fixed, combos, args.jobs)
    if refused:
        for label, code, err in refused:
            print(f"podsim sweep: {label}: refused (exit {code}): {err}", file=sys.stderr)
        print(f"podsim sweep: error: {len(refused)} of {len(combos)} combination(s) refused; "
              "nothing was run or written", file=sys.stderr)
        return 2

    print(f"podsim sweep: {len(combos)} run(s) of {args.scenario}, {args.jobs} at a time",
          flush=True)
    children = Children()
    interrupted = False
    with tempfile.TemporaryDirectory(prefix="podsim-sweep-") as tmp:
        parts = [os.path.join(tmp, f"run-{i:04d}.h5") for i in range(len(combos))]
        codes = [None] * len(combos)
        failed = []
        pool = concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs)
        futures = {pool.submit(run_one, args.prog, args.scenario, fixed, c, parts[i], (),
                               children): i
                   for i, c in enumerate(combos)}
        done = 0
        try:
            for fut in concurrent.futures.as_completed(futures):
                i = futures[fut]
                res = fut.result()
                if res is None:
                    continue
                code, _, err = res
                codes[i] = code
                done += 1
                label = " ".join(f"{k}={v}" for k, v in combos[i].items())
                state = {0: "done", 3: "deadlock or no progress", 4: "wall limit"}.get(
                    code, f"FAILED (exit {code})")
                print(f"  [{done}/{len(combos)}] {label}: {state}", flush=True)
                if code not in (0, 3, 4) or not os.path.exists(parts[i]):
                    failed.append((label, code, err.strip()))
        except KeyboardInterrupt:
            # Ctrl-C: no run starts any more, the running ones stop; the finished ones are
            # gathered below.
            interrupted = True
            children.stop()
        pool.shutdown(wait=True, cancel_futures=True)
        if interrupted:
            for fut, i in futures.items():
                if codes[i] is None and fut.done() and not fut.cancelled() and fut.result():
                    codes[i] = fut.result()[0]
            kept = [i for i in range(len(combos))
                    if codes[i] in (0, 3, 4) and os.path.exists(parts[i])]
            not_run = [" ".join(f"{k}={v}" for k, v in combos[i].items())
                       for i in range(len(combos)) if i not in kept]
            os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
            partial = out + ".partial"
            gather(partial, args.scenario, keys, [combos[i] for i in kept], fixed,
                   [parts[i] for i in kept], [codes[i] for i in kept], not_run)
            os.replace(partial, out)
            print(f"podsim sweep: interrupted: {len(kept)} of {len(combos)} runs finished; "
                  f"results (incomplete) in {out}", file=sys.stderr)
            return 130
        if failed:
            for label, code, err in failed:
                print(f"podsim sweep: {label}: exit {code}: {err}", file=sys.stderr)
            print("podsim sweep: error: some runs failed; nothing written", file=sys.stderr)
            return 2 if all(c == 2 for _, c, _ in failed) else 1
        os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
        partial = out + ".partial"
        gather(partial, args.scenario, keys, combos, fixed, parts, codes)
        os.replace(partial, out)
    print(f"podsim sweep: results in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
