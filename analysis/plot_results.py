#!/usr/bin/env python3
# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""Plots of one podsim results file (HDF5, written by podsim-run or podsim.run()).

Command line::

    /usr/bin/python3 analysis/plot_results.py RESULTS.h5 [--out DIR]

writes into DIR (default: ``<stem>-plots/`` beside the results file)

- ``message-completion-cdf.png``: CDF of message completion time (deliver_ps - post_ps), one
  curve per workload, log x axis;
- ``link-utilization.png``: histogram of per-link utilization (busy_ps / simulated time), one
  curve per link kind;
- ``throughput.png``: delivered throughput over time: the payload bytes of the messages
  delivered in each of ``THROUGHPUT_BINS`` equal intervals of [0, last delivery], per workload
  and in total, in Gb/s (a message counts whole in the interval of its deliver_ps; with the
  output budget's sampling, ``messages_sampled_every`` k > 1, the rows kept are counted k
  times);
- ``switch-buffer.png``: switch buffer occupancy over time from ``/timeseries/switch_buffer``
  (the largest occupancy of any switch per sample interval, and the busiest switches' own
  curves); a file without the series (older format, or ``output.sample-interval: 0``) gets a
  figure that says so;
- ``pyxis-timeline.png`` (a file with a ``/pyxis`` group, from a ``kind: pyxis`` workload):
  the Pyxis timeline, per chip and cluster, compute vs communication, drawn by
  ``analysis/pyxis_timeline.py`` in a process of its own;
- ``llm-timeline.png`` and ``llm-breakdown.png`` (a file whose ``/dag_nodes`` rows have
  categories, from a generated DAG such as ``kind: llm-step``): drawn by
  ``analysis/llm_step.py`` (per-stage timeline, compute and exposed communication);

and prints the path of each file written, one per line. As a module: ``plot(path, out_dir)``
returns the list of paths written.

Rendering uses matplotlib's Agg canvas directly (no pyplot), so importing this module does not
change the matplotlib backend of the importing program.
"""

import argparse
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import h5py
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

CDF_PNG = "message-completion-cdf.png"
UTILIZATION_PNG = "link-utilization.png"
THROUGHPUT_PNG = "throughput.png"
BUFFER_PNG = "switch-buffer.png"
PYXIS_PNG = "pyxis-timeline.png"
PYXIS_SCRIPT = Path(__file__).resolve().parent / "pyxis_timeline.py"
LLM_SCRIPT = Path(__file__).resolve().parent / "llm_step.py"
# Time bins of the throughput plot.
THROUGHPUT_BINS = 100
# Switches drawn on their own in the buffer plot (the busiest by peak occupancy).
BUFFER_CURVES = 4

# Link kinds in the order they are drawn (RunResults' names, then PodTopology's); kinds not
# listed follow in name order.
KIND_ORDER = ["acc-up", "leaf-up", "spine-up", "core-down", "spine-down", "down", "mesh"]


def _strings(values):
    """A list of str from an h5py string array (variable- or fixed-length, str or bytes)."""
    out = []
    for v in np.asarray(values).ravel():
        out.append(v.decode("utf-8", "replace") if isinstance(v, bytes) else str(v))
    return out


def load(path):
    """Read what the plots need from a results file.

    Returns a dict: ``scenario_name``, ``workload_names`` (list of str), ``sim_time_ps`` (int),
    ``messages_sampled_every`` (int, 1 when every message row is kept), ``messages``
    ({column: array} for workload, bytes, post_ps, deliver_ps), ``links`` ({"kind": list of
    str, "busy_ps": array}) and ``switch_buffer`` (the series, or None).
    """
    with h5py.File(path, "r") as f:
        messages = {
            c: f["messages"][c][()] for c in ("workload", "bytes", "post_ps", "deliver_ps")
        }
        names = f["messages"].attrs.get("workload_names", [])
        series = None
        if "timeseries" in f and "switch_buffer" in f["timeseries"]:
            g = f["timeseries"]["switch_buffer"]
            series = {c: g[c][()] for c in ("switch", "time_ps", "max_bytes", "end_bytes")}
            series["interval_ps"] = int(g.attrs.get("interval_ps", 0))
            switches = (g["switch_names"][()] if "switch_names" in g
                        else g.attrs.get("switch_names", []))
            series["switch_names"] = _strings(switches)
        return {
            "switch_buffer": series,
            "scenario_name": str(f.attrs.get("scenario_name", Path(path).stem)),
            "workload_names": _strings(names),
            "sim_time_ps": int(f["summary"].attrs["sim_time_ps"]),
            "messages_sampled_every": int(
                f["summary"].attrs.get("messages_sampled_every", 1)
            ),
            "messages": messages,
            "links": {
                "kind": _strings(f["links"]["kind"][()]),
                "busy_ps": f["links"]["busy_ps"][()],
            },
        }


def default_out_dir(path):
    """``<stem>-plots/`` beside the results file."""
    path = Path(path)
    return path.parent / (path.stem + "-plots")


def _format_ns(ns):
    """A duration in ns as text with a readable unit (ns, us, ms, s)."""
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("us", 1e3)):
        if abs(ns) >= scale:
            return f"{ns / scale:.4g} {unit}"
    return f"{ns:.4g} ns"


def _new_figure():
    fig = Figure(figsize=(7.0, 4.5), dpi=100)
    FigureCanvasAgg(fig)
    return fig, fig.add_subplot(1, 1, 1)


def _empty(ax, text):
    ax.text(0.5, 0.5, text, ha="center", va="center", transform=ax.transAxes)


def plot_completion_cdf(data, out_path):
    """CDF of deliver_ps - post_ps per workload (delivered messages only), log x axis.

    Returns out_path.
    """
    m = data["messages"]
    workload = np.asarray(m["workload"])
    post = np.asarray(m["post_ps"], dtype=np.int64)
    deliver = np.asarray(m["deliver_ps"], dtype=np.int64)
    names = data["workload_names"]

    fig, ax = _new_figure()
    drawn = 0
    indices = sorted(set(workload.tolist()) | set(range(len(names))))
    for w in indices:
        mine = workload == w
        delivered = mine & (deliver >= 0)
        lost = int(mine.sum() - delivered.sum())
        lat_ns = (deliver[delivered] - post[delivered]).astype(np.float64) / 1000.0
        if lat_ns.size == 0:
            continue
        name = names[w] if w < len(names) else f"workload {w}"
        label = f"{name} (n={lat_ns.size}, p50 {_format_ns(np.median(lat_ns))}"
        label += f", {lost} not delivered)" if lost else ")"
        # A log axis cannot show zero; a zero latency is drawn at 1 ps. Each curve starts at 0,
        # so a workload whose messages all take the same time is a full-height step.
        lat_ns = np.sort(np.maximum(lat_ns, 1e-3))
        frac = np.arange(0, lat_ns.size + 1) / lat_ns.size
        lat_ns = np.concatenate(([lat_ns[0]], lat_ns))
        ax.step(lat_ns, frac, where="post", label=label)
        drawn += 1
    if drawn:
        ax.set_xscale("log")
        ax.legend(loc="lower right", fontsize="small")
    else:
        _empty(ax, "no delivered messages")
    ax.set_ylim(0.0, 1.02)
    ax.set_xlabel("completion time, post to delivery (ns)")
    ax.set_ylabel("fraction of messages")
    ax.set_title(f"{data['scenario_name']}: message completion time")
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(out_path)
    return out_path


def throughput_series(data, bins=THROUGHPUT_BINS):
    """Delivered payload bytes per time bin, per workload.

    The interval [0, last delivery] is cut into ``bins`` equal bins (the last one closed); each
    delivered message (deliver_ps >= 0) adds its bytes to the bin of its deliver_ps, times
    ``messages_sampled_every`` (the output budget's sampling: each row kept stands for k).

    Returns (edges_ps, {workload index: bytes per bin}) with edges_ps a float array of
    ``bins + 1`` edges; both empty when no message was delivered. Summed over workloads and
    bins, the bytes are those of the delivered rows (times k).
    """
    m = data["messages"]
    deliver = np.asarray(m["deliver_ps"], dtype=np.int64)
    nbytes = np.asarray(m["bytes"], dtype=np.float64) * data.get("messages_sampled_every", 1)
    workload = np.asarray(m["workload"])
    delivered = deliver >= 0
    if not delivered.any():
        return np.zeros(0), {}
    end = max(int(deliver[delivered].max()), 1)
    edges = np.linspace(0.0, float(end), bins + 1)
    series = {}
    for w in sorted(set(workload[delivered].tolist())):
        mine = delivered & (workload == w)
        series[w], _ = np.histogram(deliver[mine], bins=edges, weights=nbytes[mine])
    return edges, series


def plot_throughput(data, out_path):
    """Delivered throughput over time (throughput_series), per workload and in total, in Gb/s.

    Returns out_path.
    """
    edges, series = throughput_series(data)
    names = data["workload_names"]
    fig, ax = _new_figure()
    if series:
        width_ps = edges[1] - edges[0]
        t_us = edges / 1e6
        to_gbps = 8.0 / width_ps * 1e3  # bytes per bin of width_ps -> Gb/s (1 Gb/s = 1e-3 b/ps)
        total = np.zeros(len(edges) - 1)
        for w, b in series.items():
            total += b
            name = names[w] if w < len(names) else f"workload {w}"
            ax.stairs(b * to_gbps, t_us, label=name)
        if len(series) > 1:
            ax.stairs(total * to_gbps, t_us, color="black", linewidth=1.5, label="all workloads")
        ax.legend(loc="upper right", fontsize="small")
        ax.set_xlim(0.0, float(t_us[-1]))
        ax.set_ylim(bottom=0.0)
    else:
        _empty(ax, "no delivered messages")
    sampled = data.get("messages_sampled_every", 1)
    ax.set_xlabel("simulated time, delivery (us)")
    ax.set_ylabel("delivered payload (Gb/s)")
    title = f"{data['scenario_name']}: delivered throughput"
    if sampled > 1:
        title += f" (1 message row in {sampled} kept, scaled)"
    ax.set_title(title)
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    fig.savefig(out_path)
    return out_path


def plot_link_utilization(data, out_path):
    """Histogram of busy_ps / simulated time over links, one curve per link kind.

    Returns out_path.
    """
    kinds = np.asarray(data["links"]["kind"], dtype=object)
    busy = np.asarray(data["links"]["busy_ps"], dtype=np.float64)
    sim = float(data["sim_time_ps"])

    fig, ax = _new_figure()
    if busy.size and sim > 0:
        util = busy / sim
        top = max(1.0, float(util.max()))
        bins = np.linspace(0.0, top, int(round(40 * top)) + 1)
        present = set(kinds.tolist())
        order = [k for k in KIND_ORDER if k in present] + sorted(present - set(KIND_ORDER))
        for kind in order:
            u = util[kinds == kind]
            ax.hist(
                u,
                bins=bins,
                histtype="step",
                linewidth=1.5,
                label=f"{kind} (n={u.size}, mean {u.mean():.1%})",
            )
        ax.set_xlim(0.0, top)
        ax.legend(loc="upper right", fontsize="small")
    else:
        _empty(ax, "no links" if not busy.size else "simulated time is zero")
    ax.set_xlabel(f"utilization (busy time / simulated time {sim / 1e6:.4g} us)")
    ax.set_ylabel("links")
    ax.set_title(f"{data['scenario_name']}: per-link utilization")
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    fig.savefig(out_path)
    return out_path


def plot_switch_buffer(data, out_path):
    """Switch buffer occupancy over time (the sampled series of the results file).

    The series has one row per switch and interval in which its occupancy changed (the level
    held in between). Drawn: per interval, the largest occupancy of any switch, and the
    ``BUFFER_CURVES`` switches with the highest peaks on their own. Returns out_path.
    """
    ts = data.get("switch_buffer")
    fig, ax = _new_figure()
    if not ts or ts["interval_ps"] <= 0 or len(ts["switch"]) == 0:
        _empty(ax, "no switch buffer series in this file")
    else:
        sw = np.asarray(ts["switch"], dtype=np.int64)
        t_us = np.asarray(ts["time_ps"], dtype=np.float64) / 1e6
        peak = np.asarray(ts["max_bytes"], dtype=np.float64) / 1024.0
        step_us = ts["interval_ps"] / 1e6
        names = ts["switch_names"]
        # Largest over switches per interval (intervals without a row held their level, which
        # is at most the maximum drawn at the switch's previous row).
        times, inverse = np.unique(t_us, return_inverse=True)
        top = np.zeros(times.size)
        np.maximum.at(top, inverse, peak)
        ax.step(times, top, where="post", color="black", linewidth=1.5, label="any switch (max)")
        peaks = {}
        for k, p in zip(sw.tolist(), peak.tolist()):
            peaks[k] = max(peaks.get(k, 0.0), p)
        busiest = sorted(peaks, key=lambda k: (-peaks[k], k))[:BUFFER_CURVES]
        for k in busiest:
            mine = sw == k
            name = names[k] if k < len(names) else f"switch {k}"
            ax.step(t_us[mine], peak[mine], where="post", linewidth=1.0, label=name)
        ax.legend(loc="upper right", fontsize="small")
        ax.set_xlim(0.0, float(times.max()) + step_us)
        ax.set_ylim(bottom=0.0)
    ax.set_xlabel("simulated time (us)")
    ax.set_ylabel("buffer occupancy, max per interval (KiB)")
    ax.set_title(f"{data['scenario_name']}: switch buffer occupancy")
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    fig.savefig(out_path)
    return out_path


def plot(path, out_dir=None):
    """Write every plot of one results file.

    Args:
        path: the results file.
        out_dir: directory for the PNGs (created if missing); default ``<stem>-plots/`` beside
            the results file.

    Returns:
        The list of paths written (str).
    """
    data = load(path)
    out = Path(out_dir) if out_dir is not None else default_out_dir(path)
    out.mkdir(parents=True, exist_ok=True)
    paths = [
        str(plot_completion_cdf(data, out / CDF_PNG)),
        str(plot_link_utilization(data, out / UTILIZATION_PNG)),
        str(plot_throughput(data, out / THROUGHPUT_PNG)),
        str(plot_switch_buffer(data, out / BUFFER_PNG)),
    ]
    with h5py.File(path, "r") as f:
        pyxis = "pyxis" in f
    if pyxis:
        # A pyxis workload's timeline, drawn by its own script in a process of its own (it
        # uses pyplot, which this module leaves alone).
        png = out / PYXIS_PNG
        subprocess.run(
            [sys.executable, str(PYXIS_SCRIPT), str(path), "-o", str(png)],
            check=True, capture_output=True, env={**os.environ, "MPLBACKEND": "Agg"},
        )
        paths.append(str(png))
    llm = _load_llm_step()
    if llm.has_categories(path):
        paths.extend(llm.plot(path, out, verbose=False))
    return paths


def _load_llm_step():
    """analysis/llm_step.py as a module (it draws on the Agg canvas too)."""
    spec = importlib.util.spec_from_file_location("llm_step", LLM_SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main(argv=None):
    parser = argparse.ArgumentParser(description="Plot a podsim results file (HDF5) to PNGs.")
    parser.add_argument("results", help="results file (.h5)")
    parser.add_argument(
        "--out", metavar="DIR", help="output directory (default: <stem>-plots/ beside RESULTS)"
    )
    args = parser.parse_args(argv)
    if not Path(args.results).is_file():
        print(f"plot_results.py: {args.results}: no such file", file=sys.stderr)
        return 1
    try:
        paths = plot(args.results, args.out)
    except (OSError, KeyError) as e:
        print(f"plot_results.py: {args.results}: not a podsim results file ({e})", file=sys.stderr)
        return 1
    for p in paths:
        print(p)
    return 0


if __name__ == "__main__":
    sys.exit(main())
