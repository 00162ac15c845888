#!/usr/bin/env python3
# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""Time per collective against message size, one line per (algorithm, fabric), from results files.

    /usr/bin/python3 analysis/plot_collectives.py results/*.h5 -o collectives.png

Every row of each file's /collectives table is one point: x = its size (bytes), y = its time
(end - start, microseconds). Points are grouped by collective, algorithm and the fabric of the
run (the scenario's pod.fabric, or the file name when absent), so that a sweep over sizes,
algorithms and fabrics gives one curve per algorithm and fabric.
"""

import argparse
import re
import sys
from collections import defaultdict
from pathlib import Path

import h5py
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def _fabric(f, path):
    text = f["scenario"][()]
    text = text.decode() if isinstance(text, bytes) else str(text)
    m = re.search(r"fabric:\s*([\w-]+)", text)
    return m.group(1) if m else Path(path).stem


def _str(v):
    return v.decode() if isinstance(v, bytes) else str(v)


def collect(paths):
    """{(collective, algorithm, fabric): [(bytes, time_us), ...]} from results files."""
    curves = defaultdict(list)
    for path in paths:
        with h5py.File(path, "r") as f:
            if "collectives" not in f:
                continue
            c = f["collectives"]
            fabric = _fabric(f, path)
            for i in range(len(c["bytes"])):
                if c["end_ps"][i] < 0:
                    continue
                key = (_str(c["collective"][i]), _str(c["algorithm"][i]), fabric)
                t_us = (int(c["end_ps"][i]) - int(c["start_ps"][i])) * 1e-6
                curves[key].append((int(c["bytes"][i]), t_us))
    return curves


def plot(curves, out):
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for (coll, alg, fabric), pts in sorted(curves.items()):
        pts.sort()
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o",
                label=f"{coll} {alg} ({fabric})")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("message size (bytes)")
    ax.set_ylabel("time per collective (us)")
    ax.grid(True, which="both", alpha=0.3)
    if curves:
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results", nargs="+", help="HDF5 results files")
    ap.add_argument("-o", "--out", default="collectives.png", help="PNG to write")
    args = ap.parse_args(argv)
    curves = collect(args.results)
    if not curves:
        print("no collectives in these files", file=sys.stderr)
        return 1
    plot(curves, args.out)
    print(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
