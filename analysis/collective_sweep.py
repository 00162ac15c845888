#!/usr/bin/env python3
# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""Collective algorithms against message size, measured and predicted (a notebook as a script).

    /usr/bin/python3 analysis/collective_sweep.py [--out DIR] [--accelerators N] [--quick]

Runs an all-reduce of each algorithm at each size on a small one-switch pod through
``podsim.run`` (no results files), prints a table of completion times with the alpha-beta
model's prediction beside them and the fastest algorithm per size, and saves
``DIR/collective-sweep.png`` (default DIR: results/collective-sweep). The cells (``# %%``) can
be run one by one in an editor that knows them (VS Code, Spyder, Jupytext).
"""

# %% [markdown]
# ## Setup
#
# The pod is examples/questions/collective-sizes.yaml (800 Gb/s links of 3 m twinax, one
# 250 ns switch, 4096 B frames), resized to N accelerators on one switch of N ports. podsim is
# imported as built (PYTHONPATH=build/python, or $PODSIM_BUILD_DIR/python, or build/python of
# this checkout).

# %%
import argparse
import math
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "examples" / "questions" / "collective-sizes.yaml"


def import_podsim():
    try:
        import podsim
        return podsim
    except ImportError:
        pass
    for d in [os.environ.get("PODSIM_BUILD_DIR"), str(ROOT / "build")]:
        if d and (Path(d) / "python" / "podsim" / "__init__.py").is_file():
            sys.path.insert(0, str(Path(d) / "python"))
            import podsim
            return podsim
    raise SystemExit("collective_sweep: error: cannot import podsim (build it: ./podsim build)")


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default=str(ROOT / "results" / "collective-sweep"),
                   help="directory of the plot (default results/collective-sweep)")
    p.add_argument("--accelerators", type=int, default=16,
                   help="ranks of the all-reduce, on one switch (default 16)")
    p.add_argument("--quick", action="store_true",
                   help="three sizes instead of eight (a test's run)")
    return p.parse_args(argv)


ALGORITHMS = ["ring", "halving-doubling", "double-binary-tree", "direct"]
FULL_SIZES = [4 << 10, 16 << 10, 64 << 10, 256 << 10, 1 << 20, 4 << 20, 16 << 20, 64 << 20]
QUICK_SIZES = [4 << 10, 256 << 10, 4 << 20]

# %% [markdown]
# ## The alpha-beta model
#
# src/collective/doc/collective.rst (validation): on an idle one-switch path a message of m
# bytes takes alpha + m beta, with alpha = 2d + L (d: the cable, 3 m of twinax at 4.6 ns/m,
# fabric.rst; L: the switch latency, 250 ns) and beta = T / 4096 B per plane, T the wire time of
# a full frame, (4096 + 18 + 20) B at the link rate. For n ranks and S bytes:
#
# - ring: 2(n-1) steps, each moving S/n: 2(n-1) alpha + 2(n-1)/n S beta;
# - halving-doubling: 2 log2(n) steps (n a power of two), the same bytes;
# - direct: a reduce-scatter and an all-gather of one step each: 2 alpha + 2(n-1)/n S beta.
#
# The double binary tree has no closed form in collective.rst: its rows show "-".

# %%
CABLE_PS = 3 * 4600  # 3 m of twinax, 4.6 ns/m
SWITCH_PS = 250_000
FRAME_WIRE_BYTES = 4096 + 18 + 20


def alpha_beta(link_rate_bps, planes):
    alpha = 2 * CABLE_PS + SWITCH_PS
    beta = FRAME_WIRE_BYTES * 8 / link_rate_bps * 1e12 / (4096 * planes)
    return alpha, beta


def model_ps(algorithm, n, size, alpha, beta):
    """Predicted all-reduce time in ps, or None where the model has no closed form."""
    steps = {"ring": 2 * (n - 1), "direct": 2}.get(algorithm)
    if algorithm == "halving-doubling":
        steps = 2 * int(round(math.log2(n)))
    if steps is None:
        return None
    return steps * alpha + 2 * (n - 1) / n * size * beta


# %% [markdown]
# ## The sweep
#
# One run per algorithm and size; an algorithm the scenario loader refuses for n (e.g.
# halving-doubling on a group that is not a power of two) is reported and left out.

# %%
def sweep(podsim, n, sizes):
    """(rows, skipped): rows of {algorithm, size, measured_ps, model_ps}."""
    loaded = podsim.load(SCENARIO, {"pod.accelerators": n, "pod.switch.radix": n})
    alpha, beta = alpha_beta(loaded["link_rate_bps"], loaded["planes"])
    rows, skipped = [], {}
    for alg in ALGORITHMS:
        for size in sizes:
            over = {"pod.accelerators": n, "pod.switch.radix": n,
                    "workloads[0].algorithm": alg, "workloads[0].size": size}
            try:
                r = podsim.run(SCENARIO, over, write_results=False)
            except podsim.ScenarioError as e:
                skipped[alg] = e.message
                break
            c = r["collectives"]
            if r["summary"]["bytes_dropped"] or int(c["end_ps"][0]) < 0:
                raise SystemExit(f"collective_sweep: error: {alg} at {size} B did not complete")
            rows.append({"algorithm": alg, "size": size,
                         "measured_ps": int(c["end_ps"][0] - c["start_ps"][0]),
                         "model_ps": model_ps(alg, n, size, alpha, beta)})
    return rows, skipped, (alpha, beta)


def human(size):
    for unit, shift in (("MiB", 20), ("KiB", 10)):
        if size >= 1 << shift and size % (1 << shift) == 0:
            return f"{size >> shift} {unit}"
    return f"{size} B"


# %% [markdown]
# ## The table
#
# Completion (last rank done - first post) in microseconds, the model's prediction and their
# ratio; then, per size, the fastest algorithm measured and the one the model predicts (among
# the algorithms it covers).

# %%
def print_table(rows, skipped, n, alpha, beta):
    print(f"all-reduce on {n} ranks: alpha {alpha / 1e3:.1f} ns, beta {beta:.5f} ps/B")
    print(f"{'size':>10}  {'algorithm':<20} {'measured us':>12} {'model us':>10} {'ratio':>7}")
    for row in rows:
        m = row["model_ps"]
        model = f"{m / 1e6:10.3f}" if m is not None else f"{'-':>10}"
        ratio = f"{row['measured_ps'] / m:7.3f}" if m is not None else f"{'-':>7}"
        print(f"{human(row['size']):>10}  {row['algorithm']:<20} "
              f"{row['measured_ps'] / 1e6:12.3f} {model} {ratio}")
    for alg, why in skipped.items():
        print(f"skipped {alg}: {why}")
    for size in sorted({r["size"] for r in rows}):
        at = [r for r in rows if r["size"] == size]
        best = min(at, key=lambda r: r["measured_ps"])["algorithm"]
        modelled = [r for r in at if r["model_ps"] is not None]
        pred = min(modelled, key=lambda r: r["model_ps"])["algorithm"] if modelled else "-"
        print(f"fastest at {human(size)}: measured {best}, model {pred}")


# %% [markdown]
# ## The plot
#
# Time against size on log-log axes: measured points joined by solid lines, the model dashed in
# the same colour.

# %%
def plot(rows, n, out_dir):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out_dir.mkdir(parents=True, exist_ok=True)
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for i, alg in enumerate(dict.fromkeys(r["algorithm"] for r in rows)):
        pts = sorted((r["size"], r["measured_ps"], r["model_ps"]) for r in rows
                     if r["algorithm"] == alg)
        color = f"C{i}"
        ax.plot([p[0] for p in pts], [p[1] / 1e6 for p in pts], marker="o", color=color,
                label=alg)
        if all(p[2] is not None for p in pts):
            ax.plot([p[0] for p in pts], [p[2] / 1e6 for p in pts], linestyle="--",
                    color=color, label=f"{alg} (alpha-beta)")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("all-reduce size (bytes)")
    ax.set_ylabel("completion (us)")
    ax.set_title(f"all-reduce on {n} ranks, one 800 Gb/s switch")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    path = out_dir / "collective-sweep.png"
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


# %% [markdown]
# ## Run it

# %%
def main(argv=None):
    args = parse_args(argv)
    podsim = import_podsim()
    sizes = QUICK_SIZES if args.quick else FULL_SIZES
    rows, skipped, (alpha, beta) = sweep(podsim, args.accelerators, sizes)
    print_table(rows, skipped, args.accelerators, alpha, beta)
    path = plot(rows, args.accelerators, Path(args.out))
    print(f"plot: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
