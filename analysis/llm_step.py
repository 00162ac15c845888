#!/usr/bin/env python3
# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""The iteration summary and plots of an LLM training step (``workloads[].kind: llm-step``).

Command line::

    /usr/bin/python3 analysis/llm_step.py RESULTS.h5 [--out DIR]

reads ``/dag_nodes`` of a results file (or of every run ``/runs/FABRIC/WORKLOAD`` of a study
file, utils/study.py), prints one summary line per run and workload, and writes into DIR
(default: ``<stem>-plots/`` beside the results file)

- ``llm-timeline.png``: per run, one row per pipeline stage (the first accelerator of each
  stage's first tensor-parallel group), its nodes coloured by category, first iteration;
- ``llm-breakdown.png``: one bar per run (per fabric for a study), stacked: compute and exposed
  communication (mean over accelerators), and beside it the mean time per category.

As a module: ``summarize(dag_nodes)`` gives the numbers (definitions in
src/workload/doc/workload.rst, "Results"), ``load(path)`` the runs of a file, ``plot(path,
out_dir)`` writes the figures and returns their paths.

The category of a node is the ``category`` column of ``/dag_nodes`` when the file has one, and
otherwise the first dot-separated part of its name (the llm-step generator names every node
``<category>.<coordinates>``). Rendering uses matplotlib's Agg canvas directly (no pyplot).
"""

import argparse
import sys
from pathlib import Path

import h5py
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import Patch

TIMELINE_PNG = "llm-timeline.png"
BREAKDOWN_PNG = "llm-breakdown.png"

# Categories of compute (the rest is communication).
COMPUTE = ("forward", "backward", "optimizer")
# Drawing order and colours of the categories.
CATEGORY_COLORS = {
    "forward": "#4c72b0",
    "backward": "#55a868",
    "optimizer": "#8172b2",
    "tp-all-reduce": "#dd8452",
    "tp-reduce-scatter": "#e5a36b",
    "tp-all-gather": "#c44e52",
    "ep-all-to-all": "#da8bc3",
    "pp-send": "#937860",
    "dp-all-reduce": "#8c8c8c",
    "dp-reduce-scatter": "#ccb974",
    "dp-all-gather": "#64b5cd",
}


def _strings(values):
    """A list of str from an h5py string array (variable- or fixed-length, str or bytes)."""
    return [v.decode("utf-8", "replace") if isinstance(v, bytes) else str(v)
            for v in np.asarray(values).ravel()]


def _read_dag_nodes(group):
    """The /dag_nodes columns of a run group as numpy arrays (None if it has no DAG nodes)."""
    if "dag_nodes" not in group or len(group["dag_nodes"]["node"]) == 0:
        return None
    g = group["dag_nodes"]
    out = {c: g[c][()] for c in ("workload", "iteration", "accelerator", "start_ps", "end_ps")}
    out["node"] = np.array(_strings(g["node"][()]))
    if "category" in g:
        out["category"] = np.array(_strings(g["category"][()]))
    return out


def load(path):
    """The runs of a results or study file: ``{label: dag_nodes}``.

    A results file gives one run labelled with its scenario name; a study file one per case,
    labelled ``FABRIC/WORKLOAD`` (or ``FABRIC`` when the study has one workload). Runs without
    DAG nodes are left out.
    """
    runs = {}
    with h5py.File(path, "r") as f:
        if "runs" in f:
            cases = [(fab, wl) for fab in f["runs"] for wl in f["runs"][fab]]
            workloads = {wl for _, wl in cases}
            for fab, wl in cases:
                d = _read_dag_nodes(f["runs"][fab][wl])
                if d is not None:
                    runs[fab if len(workloads) == 1 else f"{fab}/{wl}"] = d
        else:
            d = _read_dag_nodes(f)
            if d is not None:
                runs[str(f.attrs.get("scenario_name", Path(path).stem))] = d
    return runs


def categories(dag):
    """Each row's category (the column, or the node name's first part)."""
    if "category" in dag:
        cats = dag["category"]
        if len(cats) and all(cats != ""):
            return cats
    return np.array([n.split(".", 1)[0] for n in dag["node"]])


def _union_ps(start, end):
    """The total length of the union of intervals [start, end)."""
    if len(start) == 0:
        return 0
    order = np.argsort(start, kind="stable")
    s = start[order]
    e = end[order]
    reach = np.maximum.accumulate(e)
    prev = np.concatenate(([s[0]], reach[:-1]))
    return int(np.sum(np.maximum(0, e - np.maximum(s, prev))))


def summarize(dag, workload=0, iteration=0):
    """The summary of one workload's iteration in a run's /dag_nodes.

    Returns a dict (times in ps): ``iteration_ps`` (last end - first start), ``compute_ps``
    (mean over accelerators of the union of their compute nodes' intervals), ``exposed_ps``
    and ``exposed_max_ps`` (iteration minus an accelerator's compute union: mean, largest),
    ``accelerators``, ``unfinished`` (rows of nodes a stopped run never started or finished,
    negative times, left out), and ``categories`` ({category: mean over accelerators of the union of its
    intervals}).
    """
    sel = (dag["workload"] == workload) & (dag["iteration"] == iteration)
    if not np.any(sel):
        raise ValueError(f"no /dag_nodes rows for workload {workload}, iteration {iteration}")
    done = (dag["start_ps"] >= 0) & (dag["end_ps"] >= 0)
    unfinished = int(np.sum(sel & ~done))
    sel = sel & done
    if not np.any(sel):
        raise ValueError(f"no node of workload {workload} finished in iteration {iteration}")
    start = dag["start_ps"][sel].astype(np.int64)
    end = dag["end_ps"][sel].astype(np.int64)
    acc = dag["accelerator"][sel]
    cats = categories(dag)[sel]
    begin = int(start.min())
    iteration_ps = int(end.max()) - begin
    accs = np.unique(acc)
    is_compute = np.isin(cats, COMPUTE)
    compute = []
    per_cat = {}
    for a in accs:
        mine = acc == a
        compute.append(_union_ps(start[mine & is_compute], end[mine & is_compute]))
        for c in np.unique(cats[mine]):
            m = mine & (cats == c)
            per_cat[c] = per_cat.get(c, 0) + _union_ps(start[m], end[m])
    compute = np.array(compute, dtype=np.int64)
    exposed = iteration_ps - compute
    return {
        "iteration_ps": iteration_ps,
        "compute_ps": float(compute.mean()),
        "exposed_ps": float(exposed.mean()),
        "exposed_max_ps": int(exposed.max()),
        "accelerators": int(len(accs)),
        "unfinished": unfinished,
        "categories": {c: v / len(accs) for c, v in sorted(per_cat.items())},
    }


def summary_line(label, s):
    """One printable line of a summary."""
    cats = ", ".join(f"{c} {v / 1e6:.3f}" for c, v in s["categories"].items())
    return (f"{label}: iteration {s['iteration_ps'] / 1e6:.3f} us, compute {s['compute_ps'] / 1e6:.3f}"
            f" us, exposed communication {s['exposed_ps'] / 1e6:.3f} us (max "
            f"{s['exposed_max_ps'] / 1e6:.3f}) per accelerator; per category (us): {cats}"
            + (f"; {s['unfinished']} node instances did not finish" if s["unfinished"] else ""))


def _figure(width=10, height=5):
    fig = Figure(figsize=(width, height))
    FigureCanvasAgg(fig)
    return fig


def _stage_rows(dag, workload):
    """The accelerator drawn for each stage: the smallest of each forward node's group whose
    name has a stage (``.s<q>.``), or the smallest accelerators when names say none."""
    sel = dag["workload"] == workload
    rows = {}
    for node, a in zip(dag["node"][sel], dag["accelerator"][sel]):
        parts = node.split(".")
        if len(parts) > 1 and parts[1].startswith("s") and parts[1][1:].isdigit():
            q = int(parts[1][1:])
            rows[q] = min(rows.get(q, a), a)
    if not rows:
        return {i: a for i, a in enumerate(sorted(set(dag["accelerator"][sel]))[:8])}
    return dict(sorted(rows.items()))


def plot_timeline(runs, out_path, workload=0, iteration=0):
    """One panel per run: a row per stage, its nodes coloured by category."""
    fig = _figure(11, 2.2 + 2.0 * len(runs))
    seen = {}
    for k, (label, dag) in enumerate(runs.items()):
        ax = fig.add_subplot(len(runs), 1, k + 1)
        rows = _stage_rows(dag, workload)
        cats = categories(dag)
        sel = (dag["workload"] == workload) & (dag["iteration"] == iteration)
        t0 = dag["start_ps"][sel].min() if np.any(sel) else 0
        for y, (stage, a) in enumerate(rows.items()):
            mine = sel & (dag["accelerator"] == a)
            for c in np.unique(cats[mine]):
                m = mine & (cats == c)
                bars = [((s - t0) / 1e6, (e - s) / 1e6) for s, e in
                        zip(dag["start_ps"][m], dag["end_ps"][m])]
                color = CATEGORY_COLORS.get(c, "#333333")
                h = 0.8 if c in COMPUTE else 0.35
                ax.broken_barh(bars, (y - h / 2, h), facecolors=color, label=c)
                seen[c] = color
        ax.set_yticks(range(len(rows)))
        ax.set_yticklabels([f"stage {q} (acc {a})" for q, a in rows.items()])
        ax.invert_yaxis()
        ax.set_title(label)
        ax.set_xlabel("time (us)")
    handles = [Patch(color=c, label=n) for n, c in seen.items()]
    if handles:
        fig.legend(handles=handles, loc="lower center", ncol=min(6, len(handles)), fontsize=8)
    fig.tight_layout(rect=(0, 0.08, 1, 1))
    fig.savefig(out_path, dpi=110)
    return out_path


def plot_breakdown(summaries, out_path):
    """Stacked bars of compute and exposed communication per run, and per-category bars."""
    fig = _figure(11, 4.5)
    labels = list(summaries)
    ax = fig.add_subplot(1, 2, 1)
    comp = np.array([summaries[l]["compute_ps"] / 1e6 for l in labels])
    exp = np.array([summaries[l]["exposed_ps"] / 1e6 for l in labels])
    x = np.arange(len(labels))
    ax.bar(x, comp, color=CATEGORY_COLORS["forward"], label="compute")
    ax.bar(x, exp, bottom=comp, color=CATEGORY_COLORS["tp-all-reduce"], label="exposed communication")
    ax.set_xticks(x)
    ax.set_xticklabels(labels, rotation=20, ha="right")
    ax.set_ylabel("time per iteration (us, mean over accelerators)")
    ax.legend(fontsize=8)
    ax.set_title("iteration")
    ax2 = fig.add_subplot(1, 2, 2)
    cats = sorted({c for s in summaries.values() for c in s["categories"]},
                  key=lambda c: list(CATEGORY_COLORS).index(c) if c in CATEGORY_COLORS else 99)
    width = 0.8 / max(1, len(labels))
    for k, l in enumerate(labels):
        vals = [summaries[l]["categories"].get(c, 0) / 1e6 for c in cats]
        ax2.bar(np.arange(len(cats)) + k * width, vals, width, label=l)
    ax2.set_xticks(np.arange(len(cats)) + width * (len(labels) - 1) / 2)
    ax2.set_xticklabels(cats, rotation=35, ha="right", fontsize=8)
    ax2.set_ylabel("time (us, mean over accelerators)")
    ax2.set_title("per category")
    if len(labels) > 1:
        ax2.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out_path, dpi=110)
    return out_path


def has_categories(path):
    """Whether a results file's /dag_nodes rows carry categories (a generated DAG's)."""
    with h5py.File(path, "r") as f:
        if "dag_nodes" not in f or "category" not in f["dag_nodes"]:
            return False
        cats = f["dag_nodes"]["category"][()]
    return any(c not in (b"", "") for c in cats)


def plot(path, out_dir=None, workload=0, verbose=True):
    """Summaries (printed when verbose) and figures of a results or study file; returns the
    paths written."""
    runs = load(path)
    if not runs:
        raise ValueError(f"{path}: no /dag_nodes rows (not a DAG or llm-step run)")
    out = Path(out_dir) if out_dir else Path(path).parent / (Path(path).stem + "-plots")
    out.mkdir(parents=True, exist_ok=True)
    summaries = {label: summarize(dag, workload) for label, dag in runs.items()}
    if verbose:
        for label, s in summaries.items():
            print(summary_line(label, s))
    return [str(plot_timeline(runs, out / TIMELINE_PNG, workload)),
            str(plot_breakdown(summaries, out / BREAKDOWN_PNG))]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("results", help="results or study file (HDF5)")
    ap.add_argument("--out", help="output directory (default: <stem>-plots/)")
    ap.add_argument("--workload", type=int, default=0, help="workload index (default 0)")
    args = ap.parse_args(argv)
    try:
        for p in plot(args.results, args.out, args.workload):
            print(p)
    except (OSError, ValueError) as e:
        print(f"llm_step.py: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
