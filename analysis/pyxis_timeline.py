#!/usr/bin/env python3
# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""Timeline of a Pyxis run: per chip and cluster, compute and communication trips over time.

    /usr/bin/python3 analysis/pyxis_timeline.py results.h5 -o timeline.png [--chips 0,1]
    /usr/bin/python3 analysis/pyxis_timeline.py results.h5 --check

Reads the HDF5 group /pyxis:

- ``trips``: one row per trip, columns chip, cluster, engine, trip_id, layer, kind
  (compute | comm | dma | reduce), start_ns, end_ns;
- ``layers``: one row per chip and layer, columns chip, layer, start_ns, end_ns, compute_ns,
  exposed_comm_ns.

Each table is either a group of column datasets (the layout of the other results tables) or a
compound dataset with those field names. Text columns (kind, engine) may be strings or integers
(kind: 0 compute, 1 comm, 2 dma, 3 reduce).

The plot has one row per (chip, cluster), a bar per trip coloured by kind, time in
microseconds. --check runs the consistency checks (check_layers, check_trips), prints every
problem and exits 1 if there is one.
"""

import argparse
import sys

import h5py
import matplotlib
import numpy as np

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402

KINDS = ("compute", "comm", "dma", "reduce")
COLORS = {"compute": "#1f77b4", "comm": "#ff7f0e", "dma": "#2ca02c", "reduce": "#d62728"}
TRIP_COLUMNS = ("chip", "cluster", "engine", "trip_id", "layer", "kind", "start_ns", "end_ns")
LAYER_COLUMNS = ("chip", "layer", "start_ns", "end_ns", "compute_ns", "exposed_comm_ns")


def _text(values):
    """A column of bytes, str or integer codes as a list of str."""
    out = []
    for v in values:
        if isinstance(v, bytes):
            out.append(v.decode())
        elif isinstance(v, (int, np.integer)):
            out.append(str(int(v)))
        else:
            out.append(str(v))
    return out


def _table(obj, columns, name):
    """{column: numpy array} of a group of column datasets or of a compound dataset."""
    if isinstance(obj, h5py.Group):
        missing = [c for c in columns if c not in obj]
        data = {c: obj[c][()] for c in columns if c in obj}
    else:
        fields = obj.dtype.names or ()
        missing = [c for c in columns if c not in fields]
        data = {c: obj[c] for c in columns if c in fields}
    if missing:
        raise ValueError(f"/pyxis/{name}: missing columns {', '.join(missing)}")
    lengths = {len(v) for v in data.values()}
    if len(lengths) > 1:
        raise ValueError(f"/pyxis/{name}: columns of different lengths {sorted(lengths)}")
    return data


def _kinds(values):
    """The kind column as names (integer codes mapped through KINDS)."""
    names = []
    for k in _text(values):
        if k.isdigit() and int(k) < len(KINDS):
            names.append(KINDS[int(k)])
        else:
            names.append(k)
    return names


def read_pyxis(path):
    """(trips, layers): the two tables of /pyxis as dicts of arrays (kind and engine as str)."""
    with h5py.File(path, "r") as f:
        if "pyxis" not in f:
            raise ValueError(f"{path}: no /pyxis group")
        g = f["pyxis"]
        for name in ("trips", "layers"):
            if name not in g:
                raise ValueError(f"{path}: no /pyxis/{name}")
        trips = _table(g["trips"], TRIP_COLUMNS, "trips")
        layers = _table(g["layers"], LAYER_COLUMNS, "layers")
    trips["kind"] = _kinds(trips["kind"])
    trips["engine"] = _text(trips["engine"])
    return trips, layers


def _union(intervals):
    """Sorted, merged list of (start, end) covering the given intervals."""
    merged = []
    for s, e in sorted(intervals):
        if merged and s <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([s, e])
    return merged


def _length(merged):
    return sum(e - s for s, e in merged)


def _minus(merged, cut):
    """Length of the merged intervals outside the merged intervals `cut`."""
    total = 0.0
    for s, e in merged:
        covered = 0.0
        for cs, ce in cut:
            lo, hi = max(s, cs), min(e, ce)
            if hi > lo:
                covered += hi - lo
        total += (e - s) - covered
    return total


def layer_summary(trips):
    """The per-layer table computed from the trips (the reference definition of its columns):
    for each chip and layer, start_ns and end_ns = the first start and last end of its trips on
    any cluster; compute_ns = the time covered by at least one compute trip; exposed_comm_ns =
    the time covered by a comm or reduce trip and by no compute trip. DMA trips count in the
    layer's span only. Rows sorted by chip, then layer."""
    groups = {}
    for i in range(len(trips["chip"])):
        key = (int(trips["chip"][i]), int(trips["layer"][i]))
        groups.setdefault(key, []).append(i)
    out = {k: [] for k in LAYER_COLUMNS}
    for (c, layer), idx in sorted(groups.items()):
        start = min(float(trips["start_ns"][i]) for i in idx)
        end = max(float(trips["end_ns"][i]) for i in idx)
        compute = _union([(float(trips["start_ns"][i]), float(trips["end_ns"][i]))
                          for i in idx if trips["kind"][i] == "compute"])
        comm = _union([(float(trips["start_ns"][i]), float(trips["end_ns"][i]))
                       for i in idx if trips["kind"][i] in ("comm", "reduce")])
        for name, v in (("chip", c), ("layer", layer), ("start_ns", start), ("end_ns", end),
                        ("compute_ns", _length(compute)),
                        ("exposed_comm_ns", _minus(comm, compute))):
            out[name].append(v)
    return {k: np.asarray(v) for k, v in out.items()}


def check_layers(layers, tol_ns=1e-3):
    """Problems of the per-layer table (an empty list if consistent):

    - end_ns >= start_ns, compute_ns >= 0 and exposed_comm_ns >= 0;
    - compute_ns + exposed_comm_ns <= end_ns - start_ns + tol_ns (the layer's time is its
      compute plus the communication that compute did not hide, plus idle time);
    - per chip, each layer index once, and in layer order the starts and the ends do not go
      back in time.
    """
    problems = []
    chip = np.asarray(layers["chip"])
    layer = np.asarray(layers["layer"])
    start = np.asarray(layers["start_ns"], dtype=float)
    end = np.asarray(layers["end_ns"], dtype=float)
    compute = np.asarray(layers["compute_ns"], dtype=float)
    exposed = np.asarray(layers["exposed_comm_ns"], dtype=float)
    for i in range(len(chip)):
        where = f"chip {int(chip[i])} layer {int(layer[i])}"
        if end[i] < start[i]:
            problems.append(f"{where}: end {end[i]} before start {start[i]}")
        if compute[i] < 0 or exposed[i] < 0:
            problems.append(f"{where}: negative compute {compute[i]} or exposed {exposed[i]}")
        if compute[i] + exposed[i] > end[i] - start[i] + tol_ns:
            problems.append(
                f"{where}: compute {compute[i]} + exposed comm {exposed[i]} > duration "
                f"{end[i] - start[i]}"
            )
    for c in np.unique(chip):
        rows = np.flatnonzero(chip == c)
        rows = rows[np.argsort(layer[rows], kind="stable")]
        seen = layer[rows]
        if len(np.unique(seen)) != len(seen):
            problems.append(f"chip {int(c)}: a layer appears more than once")
        for a, b in zip(rows[:-1], rows[1:]):
            if start[b] + tol_ns < start[a] or end[b] + tol_ns < end[a]:
                problems.append(
                    f"chip {int(c)}: layer {int(layer[b])} [{start[b]}, {end[b]}] out of order "
                    f"after layer {int(layer[a])} [{start[a]}, {end[a]}]"
                )
    return problems


def check_trips(trips, layers, tol_ns=1e-3):
    """Problems of the trip table against the layer table (an empty list if consistent):
    end_ns >= start_ns, a known kind, and each trip inside its chip's layer interval."""
    problems = []
    span = {}
    for i in range(len(layers["chip"])):
        span[(int(layers["chip"][i]), int(layers["layer"][i]))] = (
            float(layers["start_ns"][i]),
            float(layers["end_ns"][i]),
        )
    for i in range(len(trips["chip"])):
        key = (int(trips["chip"][i]), int(trips["layer"][i]))
        s, e = float(trips["start_ns"][i]), float(trips["end_ns"][i])
        where = f"trip {int(trips['trip_id'][i])} (chip {key[0]} layer {key[1]})"
        if e < s:
            problems.append(f"{where}: end {e} before start {s}")
        if trips["kind"][i] not in KINDS:
            problems.append(f"{where}: unknown kind {trips['kind'][i]!r}")
        if key not in span:
            problems.append(f"{where}: no such layer in /pyxis/layers")
        elif s + tol_ns < span[key][0] or e > span[key][1] + tol_ns:
            problems.append(f"{where}: [{s}, {e}] outside its layer {list(span[key])}")
    return problems


def plot_timeline(trips, out, chips=None, max_chips=8, title=None):
    """Draw the timeline to `out` (PNG): one row per (chip, cluster) of the chosen chips (the
    first max_chips chips if none are given). Returns the rows drawn as (chip, cluster)."""
    chip = np.asarray(trips["chip"]).astype(int)
    cluster = np.asarray(trips["cluster"]).astype(int)
    if chips is None:
        chips = sorted(set(chip.tolist()))[:max_chips]
    chosen = set(chips)
    rows = sorted({(c, k) for c, k in zip(chip.tolist(), cluster.tolist()) if c in chosen})
    index = {r: i for i, r in enumerate(rows)}
    bars = {k: [[] for _ in rows] for k in KINDS}
    for i in range(len(chip)):
        r = (int(chip[i]), int(cluster[i]))
        if r not in index:
            continue
        kind = trips["kind"][i] if trips["kind"][i] in KINDS else "compute"
        s = float(trips["start_ns"][i]) * 1e-3
        e = float(trips["end_ns"][i]) * 1e-3
        bars[kind][index[r]].append((s, max(e - s, 0.0)))
    fig, ax = plt.subplots(figsize=(10, max(2.0, 0.3 * len(rows) + 1.2)))
    for kind in KINDS:
        for i, segs in enumerate(bars[kind]):
            if segs:
                # comm and dma drawn thinner so that compute underneath stays visible
                h = 0.8 if kind in ("compute", "reduce") else 0.4
                ax.broken_barh(segs, (i - h / 2, h), facecolors=COLORS[kind], linewidth=0)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([f"chip {c} cl {k}" for c, k in rows], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("time (us)")
    ax.set_title(title or "Pyxis timeline: compute vs communication per chip and cluster")
    ax.legend(handles=[Patch(color=COLORS[k], label=k) for k in KINDS], loc="upper right",
              fontsize=7)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("results", help="results file with a /pyxis group")
    ap.add_argument("-o", "--output", default="pyxis-timeline.png", help="PNG to write")
    ap.add_argument("--chips", help="comma-separated chip ids to draw (default: the first ones)")
    ap.add_argument("--max-chips", type=int, default=8, help="chips drawn when --chips is absent")
    ap.add_argument("--check", action="store_true", help="check consistency instead of plotting")
    args = ap.parse_args(argv)
    try:
        trips, layers = read_pyxis(args.results)
    except (OSError, ValueError) as e:
        print(f"pyxis_timeline: {e}", file=sys.stderr)
        return 2
    if args.check:
        problems = check_layers(layers) + check_trips(trips, layers)
        for p in problems:
            print(p)
        print(f"{len(layers['chip'])} layer rows, {len(trips['chip'])} trips, "
              f"{len(problems)} problems")
        return 1 if problems else 0
    chips = [int(c) for c in args.chips.split(",")] if args.chips else None
    rows = plot_timeline(trips, args.output, chips=chips, max_chips=args.max_chips)
    print(f"wrote {args.output} ({len(rows)} chip-cluster rows)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
