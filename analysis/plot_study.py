#!/usr/bin/env python3
# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""Comparison plots of a podsim study results file (utils/study.py: one run per fabric and
workload, root attribute ``format`` = ``podsim-study``).

Command line::

    /usr/bin/python3 analysis/plot_study.py STUDY.h5 [--out DIR]

writes into DIR (default: ``<stem>-plots/`` beside the study file)

- ``completion-time.png``: each case's completion time (``/study`` column ``completion_ps``,
  last completion - first post), grouped by workload with one bar per fabric, log scale, the
  value on each bar;
- ``latency-cdf.png``: one panel per workload, one CDF per fabric of the message latency
  (``complete_ps - post_ps`` of the completed messages of the case's run, us, log x);
- ``switch-buffer.png``: one panel per workload, one line per fabric: per sample interval, the
  largest shared-buffer occupancy of any switch (MiB) against time, from the run's
  ``timeseries/switch_buffer``; a run without the series (``output.sample-interval: 0``) gets
  a panel note instead of a line;
- ``achieved-bandwidth.png``: each case's ``achieved_fraction`` as a bar, with the fabric's
  ``wire_efficiency`` (the ceiling) drawn as a line over the bar;

and prints the path of each file written, one per line. As a module: ``plot(path, out_dir)``
returns the list of paths written.

Reading: the script uses ``podsim.read_study`` when ``podsim`` is importable (as is, or from
``build/python`` of this checkout); otherwise it falls back to its own h5py code, which reads
only what the plots need (the ``/study`` table, and per run the message post and completion
times, the buffer series and the simulated time) into the same dict shape. Either way it needs
only numpy, h5py and matplotlib, and draws on matplotlib's Agg canvas directly (no pyplot, so
the plots do not depend on ``MPLBACKEND`` and importing this module changes no backend).
"""

import argparse
import importlib
import sys
from pathlib import Path

import h5py
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.transforms import blended_transform_factory

COMPLETION_PNG = "completion-time.png"
LATENCY_PNG = "latency-cdf.png"
BUFFER_PNG = "switch-buffer.png"
BANDWIDTH_PNG = "achieved-bandwidth.png"
ROOT = Path(__file__).resolve().parents[1]
MIB = 1024.0 * 1024.0
# Largest number of steps of one latency CDF line.
CDF_POINTS = 4000


def _import_podsim():
    """The podsim package, from the path or this checkout's build/python; None if neither."""
    try:
        return importlib.import_module("podsim")
    except ImportError:
        pass
    build = ROOT / "build" / "python"
    if not (build / "podsim" / "__init__.py").is_file():
        return None
    sys.path.insert(0, str(build))
    try:
        return importlib.import_module("podsim")
    except ImportError:
        sys.path.remove(str(build))
        return None


def _text(v):
    return v.decode("utf-8", "replace") if isinstance(v, bytes) else str(v)


def read_study_h5py(path):
    """The fallback reader: the subset of ``podsim.read_study(path)`` the plots use.

    Returns ``{"study": {column: array}, "runs": {(fabric, workload): {"messages": {"post_ps",
    "complete_ps"}, "switch_buffer_series": {"interval_ps", "switch", "time_ps", "max_bytes",
    "end_bytes"}, "summary": {"sim_time_ps"}}}, "attrs": {...}}``.

    Raises:
        RuntimeError: not a study file.
    """
    with h5py.File(path, "r") as f:
        attrs = {}
        for k, v in f.attrs.items():
            if isinstance(v, np.ndarray) and v.dtype.kind in "OSU":
                v = [_text(x) for x in v.ravel()]
            elif isinstance(v, (bytes, str)):
                v = _text(v)
            elif isinstance(v, np.generic):
                v = v.item()
            attrs[k] = v
        if attrs.get("format") != "podsim-study" or "study" not in f:
            raise RuntimeError(f"{path}: not a podsim study file (root attribute format)")
        study = {}
        for name, ds in f["study"].items():
            if h5py.check_string_dtype(ds.dtype) is not None:
                study[name] = np.array(ds.asstr()[()], dtype=str).reshape(-1)
            else:
                study[name] = np.asarray(ds[()]).reshape(-1)
        runs = {}
        for fabric, workload in zip(study["fabric"].tolist(), study["workload"].tolist()):
            name = f"runs/{fabric}/{workload}"
            if name not in f:
                continue  # the case's run wrote no results (read_study leaves it out too)
            g = f[name]
            series = {"interval_ps": 0}
            for c in ("switch", "time_ps", "max_bytes", "end_bytes"):
                series[c] = np.zeros(0, np.int64)
            if "timeseries/switch_buffer" in g:
                b = g["timeseries/switch_buffer"]
                series["interval_ps"] = int(b.attrs.get("interval_ps", 0))
                for c in ("switch", "time_ps", "max_bytes", "end_bytes"):
                    series[c] = b[c][()]
            runs[(fabric, workload)] = {
                "messages": {c: g["messages"][c][()] for c in ("post_ps", "complete_ps")},
                "switch_buffer_series": series,
                "summary": {"sim_time_ps": int(g["summary"].attrs["sim_time_ps"])},
            }
    return {"study": study, "runs": runs, "attrs": attrs}


def load(path, use_podsim=True):
    """The study file as ``podsim.read_study`` returns it (podsim importable and use_podsim),
    else as read_study_h5py() does."""
    podsim = _import_podsim() if use_podsim else None
    if podsim is not None and hasattr(podsim, "read_study"):
        return podsim.read_study(path)
    return read_study_h5py(path)


def default_out_dir(path):
    """``<stem>-plots/`` beside the study file."""
    path = Path(path)
    return path.parent / (path.stem + "-plots")


def _order(values):
    """Distinct values in order of first appearance."""
    out = []
    for v in values:
        if v not in out:
            out.append(v)
    return out


def cases(data):
    """(fabrics, workloads, {(fabric, workload): row index}) from the /study table."""
    fabric = [str(v) for v in data["study"]["fabric"]]
    workload = [str(v) for v in data["study"]["workload"]]
    rows = {(f, w): i for i, (f, w) in enumerate(zip(fabric, workload))}
    return _order(fabric), _order(workload), rows


def buffer_envelope(series, sim_time_ps):
    """Per sample interval, the largest occupancy of any switch.

    A switch has a row only for an interval in which its occupancy changed; in an interval
    without a row it held the ``end_bytes`` of its previous row (0 before its first row).

    Args:
        series: ``switch_buffer_series`` of a run (interval_ps, switch, time_ps, max_bytes,
            end_bytes).
        sim_time_ps: the run's simulated time (the intervals drawn reach it).

    Returns:
        (start_ps, bytes): int64 arrays, one entry per interval from 0; both empty when the
        run was not sampled (interval_ps 0).
    """
    interval = int(series["interval_ps"])
    if interval <= 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    sw = np.asarray(series["switch"], dtype=np.int64)
    k = np.asarray(series["time_ps"], dtype=np.int64) // interval
    peak = np.asarray(series["max_bytes"], dtype=np.int64)
    end = np.asarray(series["end_bytes"], dtype=np.int64)
    n = int(max(sim_time_ps // interval, k.max() if k.size else 0)) + 1
    grid = np.arange(n, dtype=np.int64)
    top = np.zeros(n, dtype=np.int64)
    for s in np.unique(sw):
        mine = sw == s
        ks, ps, es = k[mine], peak[mine], end[mine]
        order = np.argsort(ks, kind="stable")
        ks, ps, es = ks[order], ps[order], es[order]
        last = np.searchsorted(ks, grid, side="right") - 1  # the row at or before each interval
        has = last >= 0
        level = np.zeros(n, dtype=np.int64)
        at = has & (ks[np.maximum(last, 0)] == grid)
        level[has] = es[last[has]]  # held since the previous row
        level[at] = ps[last[at]]  # the interval's own row: its largest occupancy
        np.maximum(top, level, out=top)
    return grid * interval, top


def _figure(panels=1):
    cols = min(panels, 2)
    rows = (panels + cols - 1) // cols
    fig = Figure(figsize=(6.5 * cols, 4.2 * rows), dpi=100)
    FigureCanvasAgg(fig)
    axes = [fig.add_subplot(rows, cols, i + 1) for i in range(panels)]
    return fig, axes


def _note(ax, text):
    ax.text(0.5, 0.5, text, ha="center", va="center", transform=ax.transAxes, fontsize="small")


def _colors(fabrics):
    return {f: f"C{i % 10}" for i, f in enumerate(fabrics)}


def _format_us(us):
    for unit, scale in (("s", 1e6), ("ms", 1e3), ("us", 1.0)):
        if us >= scale:
            return f"{us / scale:.3g} {unit}"
    return f"{us * 1e3:.3g} ns"


def _grouped_bars(ax, data, column, scale=1.0):
    """Bars of a /study column, grouped by workload, one per fabric; returns
    [(x, width, fabric, workload, row)] of the bars drawn."""
    fabrics, workloads, rows = cases(data)
    colors = _colors(fabrics)
    width = 0.8 / max(1, len(fabrics))
    values = np.asarray(data["study"][column], dtype=np.float64) * scale
    drawn = []
    # x in data, y in axes coordinates: "n/a" at the foot of a case without a value.
    foot = blended_transform_factory(ax.transData, ax.transAxes)
    for j, fabric in enumerate(fabrics):
        xs, ys = [], []
        for i, workload in enumerate(workloads):
            row = rows.get((fabric, workload))
            if row is None:
                continue
            x = i - 0.4 + width * (j + 0.5)
            if not values[row] > 0:  # NaN, or a completion that never came (-1)
                ax.text(x, 0.02, "n/a", transform=foot, ha="center", va="bottom", fontsize=7,
                        rotation=90, color=colors[fabric])
                continue
            xs.append(x)
            ys.append(values[row])
            drawn.append((x, width, fabric, workload, row))
        bars = ax.bar(xs, ys, width=width, color=colors[fabric], label=fabric)
        if column == "completion_ps":
            ax.bar_label(bars, labels=[_format_us(y) for y in ys], fontsize=7, rotation=90,
                         padding=2)
        else:
            ax.bar_label(bars, labels=[f"{y:.2f}" for y in ys], fontsize=7, padding=2)
    ax.set_xticks(range(len(workloads)))
    ax.set_xticklabels(workloads, rotation=20, ha="right")
    return drawn


def plot_completion_time(data, out_path):
    """Completion time per workload (groups) and fabric (bars), log y. Returns out_path."""
    fig, (ax,) = _figure()
    drawn = _grouped_bars(ax, data, "completion_ps", scale=1e-6)
    if drawn:
        ax.set_yscale("log")
        lo, hi = ax.get_ylim()
        ax.set_ylim(lo, hi * 10)  # room for the labels above the bars
        ax.legend(fontsize="small", loc="upper left")
    else:
        _note(ax, "no case completed")
    ax.set_ylabel("completion time, first post to last completion (us)")
    ax.set_title(f"{_name(data)}: completion time")
    ax.grid(True, axis="y", which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(out_path)
    return out_path


def plot_latency_cdf(data, out_path):
    """One panel per workload, one CDF per fabric of complete_ps - post_ps (us, log x).

    Returns out_path.
    """
    fabrics, workloads, _ = cases(data)
    colors = _colors(fabrics)
    fig, axes = _figure(max(1, len(workloads)))
    for ax, workload in zip(axes, workloads):
        drawn = 0
        for fabric in fabrics:
            run = data["runs"].get((fabric, workload))
            if run is None:
                continue
            post = np.asarray(run["messages"]["post_ps"], dtype=np.int64)
            done = np.asarray(run["messages"]["complete_ps"], dtype=np.int64)
            ok = done >= 0
            lat_us = np.sort((done[ok] - post[ok]).astype(np.float64) / 1e6)
            if lat_us.size == 0:
                continue
            p50 = float(np.percentile(lat_us, 50, method="nearest"))  # as the study table
            label = f"{fabric} (n={lat_us.size}, p50 {_format_us(p50)})"
            # A log axis cannot show zero: a zero latency is drawn at 1 ps.
            lat_us = np.maximum(lat_us, 1e-6)
            # At most CDF_POINTS steps (a 1024-accelerator all-to-all has a million messages):
            # the sorted latencies at evenly spaced ranks, always the last one.
            rank = np.unique(np.linspace(0, lat_us.size - 1, CDF_POINTS).astype(np.int64))
            frac = np.concatenate(([0.0], (rank + 1) / lat_us.size))
            x = np.concatenate(([lat_us[0]], lat_us[rank]))
            ax.step(x, frac, where="post", color=colors[fabric], label=label)
            drawn += 1
        if drawn:
            ax.set_xscale("log")
            ax.legend(fontsize="x-small", loc="lower right")
        else:
            _note(ax, "no completed messages")
        ax.set_ylim(0.0, 1.02)
        ax.set_title(workload, fontsize="medium")
        ax.set_xlabel("message latency, post to completion (us)")
        ax.set_ylabel("fraction of messages")
        ax.grid(True, which="both", alpha=0.3)
    if not workloads:
        _note(axes[0], "no cases")
    fig.suptitle(f"{_name(data)}: message latency")
    fig.tight_layout()
    fig.savefig(out_path)
    return out_path


def plot_switch_buffer(data, out_path):
    """One panel per workload, one line per fabric: per sample interval the largest switch
    buffer occupancy of any switch (MiB) against time (us). Returns out_path."""
    fabrics, workloads, _ = cases(data)
    colors = _colors(fabrics)
    fig, axes = _figure(max(1, len(workloads)))
    for ax, workload in zip(axes, workloads):
        drawn, unsampled = 0, []
        for fabric in fabrics:
            run = data["runs"].get((fabric, workload))
            if run is None:
                continue
            t_ps, top = buffer_envelope(
                run["switch_buffer_series"], int(run["summary"]["sim_time_ps"])
            )
            if t_ps.size == 0:
                unsampled.append(fabric)
                continue
            # One more point at the end of the last interval, so its level is drawn too.
            interval = int(run["switch_buffer_series"]["interval_ps"])
            x = np.append(t_ps, t_ps[-1] + interval) / 1e6
            y = np.append(top, top[-1]) / MIB
            label = f"{fabric} (peak {top.max() / MIB:.3g} MiB)"
            ax.step(x, y, where="post", color=colors[fabric], label=label)
            drawn += 1
        if drawn:
            ax.legend(fontsize="x-small", loc="upper right")
            ax.set_ylim(bottom=0.0)
        if unsampled:
            _note(
                ax,
                "no buffer series (output.sample-interval 0): " + ", ".join(unsampled),
            )
        ax.set_title(workload, fontsize="medium")
        ax.set_xlabel("simulated time (us)")
        ax.set_ylabel("largest switch buffer occupancy (MiB)")
        ax.grid(True, alpha=0.3)
    if not workloads:
        _note(axes[0], "no cases")
    fig.suptitle(f"{_name(data)}: switch buffer occupancy, max over switches per interval")
    fig.tight_layout()
    fig.savefig(out_path)
    return out_path


def plot_achieved_bandwidth(data, out_path):
    """achieved_fraction per case as bars, wire_efficiency (the ceiling) as a line on each.

    Returns out_path.
    """
    fig, (ax,) = _figure()
    drawn = _grouped_bars(ax, data, "achieved_fraction")
    efficiency = np.asarray(data["study"]["wire_efficiency"], dtype=np.float64)
    label = "wire efficiency (ceiling)"
    for x, width, _, _, row in drawn:
        if not np.isfinite(efficiency[row]):
            continue
        ax.hlines(
            efficiency[row],
            x - width / 2,
            x + width / 2,
            colors="black",
            linestyles="--",
            linewidth=1.5,
            label=label,
        )
        label = None  # one legend entry
    if drawn:
        # NaN: a case without a figure (no line rate, or a fabric without a known ceiling).
        shown = [efficiency[row] for *_, row in drawn]
        shown += [data["study"]["achieved_fraction"][row] for *_, row in drawn]
        top = max([1.0] + [float(v) for v in shown if np.isfinite(v)])
        ax.set_ylim(0.0, top * 1.15)
        ax.legend(fontsize="small", loc="upper left", ncol=2)
    else:
        _note(ax, "no case has an achieved fraction")
    ax.set_ylabel("achieved fraction of line rate")
    ax.set_title(f"{_name(data)}: achieved bandwidth")
    ax.grid(True, axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(out_path)
    return out_path


def _name(data):
    return str(data["attrs"].get("study_name", "study"))


def plot(path, out_dir=None, use_podsim=True):
    """Write every plot of one study file.

    Args:
        path: the study file.
        out_dir: directory for the PNGs (created if missing); default ``<stem>-plots/`` beside
            the study file.
        use_podsim: read through podsim.read_study when podsim is importable (False: always
            the h5py fallback).

    Returns:
        The list of paths written (str).
    """
    data = load(path, use_podsim)
    out = Path(out_dir) if out_dir is not None else default_out_dir(path)
    out.mkdir(parents=True, exist_ok=True)
    return [
        str(plot_completion_time(data, out / COMPLETION_PNG)),
        str(plot_latency_cdf(data, out / LATENCY_PNG)),
        str(plot_switch_buffer(data, out / BUFFER_PNG)),
        str(plot_achieved_bandwidth(data, out / BANDWIDTH_PNG)),
    ]


def main(argv=None):
    parser = argparse.ArgumentParser(description="Plot a podsim study results file to PNGs.")
    parser.add_argument("study", help="study results file (.h5)")
    parser.add_argument(
        "--out", metavar="DIR", help="output directory (default: <stem>-plots/ beside STUDY)"
    )
    args = parser.parse_args(argv)
    if not Path(args.study).is_file():
        print(f"plot_study.py: {args.study}: no such file", file=sys.stderr)
        return 1
    try:
        paths = plot(args.study, args.out)
    except (OSError, KeyError, RuntimeError) as e:
        print(f"plot_study.py: {args.study}: cannot plot: {e}", file=sys.stderr)
        return 1
    for p in paths:
        print(p)
    return 0


if __name__ == "__main__":
    sys.exit(main())
