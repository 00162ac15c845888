# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""kind: llm-step (src/workload/doc/workload.rst, "LLM training step"): the scenario loader's
errors name the file, line and key; analysis/llm_step.py's summary on a hand-made /dag_nodes
table; and a small training step end to end on the sue, ualink and cell fabrics with its
summary and plots.

The DAG's own counts, sizes and compute-only time are checked by the C++ suite
workload-llm-step.
"""

import importlib.util
import subprocess
from pathlib import Path

import h5py
import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
PODSIM_RUN = ROOT / "build" / "bin" / "podsim-run"
SCRIPT = ROOT / "analysis" / "llm_step.py"
PLOT_RESULTS = ROOT / "analysis" / "plot_results.py"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

# A small step: 4 layers of hidden 256 (4 heads, ffn 1024), sequence 128, TP 2 x PP 2 x DP 4 = 16
# accelerators, global batch 8: m = 8 / (4 x 1) = 2 micro-batches.
SMALL = """name: llm-small
pod:
  fabric: sue
  accelerators: 16
workloads:
  - kind: llm-step
    layers: 4
    hidden: 256
    ffn: 1024
    heads: 4
    sequence: 128
    global-batch: 8
    vocabulary: 512
    tp: 2
    pp: 2
    dp: 4
"""


def load_module():
    spec = importlib.util.spec_from_file_location("llm_step", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def need_runner():
    if not PODSIM_RUN.exists():
        pytest.fail(f"{PODSIM_RUN} is not built (./podsim build)")


@pytest.mark.parametrize(
    "line, text, key, message",
    [
        # global-batch 6 is not a multiple of dp x micro-batch = 4
        (12, "    global-batch: 6", "workloads[0].global-batch", "not divisible by dp x micro-batch"),
        # tp x pp x dp = 2 x 2 x 8 = 32 on a 16-accelerator pod
        (16, "    dp: 8", "workloads[0].dp", "32 accelerators, but pod.accelerators is 16"),
        # 3 heads on tp 2 (hidden 255 would fail the head dimension; heads is checked first)
        (10, "    heads: 3", "workloads[0].heads", "not divisible by tp = 2"),
        (7, "    layers: 3", "workloads[0].layers", "not divisible by pp = 2"),
        (17, "    ep: 2", "workloads[0].ep", "needs experts"),
    ],
)
def test_bad_keys_name_file_line_and_key(tmp_path, line, text, key, message):
    need_runner()
    lines = SMALL.splitlines()
    if line <= len(lines):
        lines[line - 1] = text
    else:
        lines.append(text)
    scenario = tmp_path / "bad.yaml"
    scenario.write_text("\n".join(lines) + "\n")
    p = subprocess.run([str(PODSIM_RUN), str(scenario), "--validate"],
                       capture_output=True, text=True, timeout=1800)
    assert p.returncode != 0
    assert f"{scenario}:{line}: {key}: " in p.stderr, p.stderr
    assert message in p.stderr, p.stderr


def test_small_step_is_valid(tmp_path):
    need_runner()
    scenario = tmp_path / "ok.yaml"
    scenario.write_text(SMALL)
    p = subprocess.run([str(PODSIM_RUN), str(scenario), "--validate"],
                       capture_output=True, text=True, timeout=1800)
    assert p.returncode == 0, p.stderr
    assert "kind llm-step" in p.stdout


def hand_table(with_category=True):
    """Two accelerators, times in us (x 1e6 ps):
    acc 0: forward 0-10, tp-all-reduce 10-14, backward 14-34, optimizer 40-45;
    acc 1: forward 0-10, tp-all-reduce 10-14, backward 14-34, dp-all-reduce 30-42, optimizer
    42-50."""
    rows = [
        ("forward.s0.l0.mb0.dp0", "forward", 0, 0, 10),
        ("tp-all-reduce.s0.l0.mb0.dp0.fwd0", "tp-all-reduce", 0, 10, 14),
        ("backward.s0.l0.mb0.dp0", "backward", 0, 14, 34),
        ("optimizer.s0.dp0", "optimizer", 0, 40, 45),
        ("forward.s1.l1.mb0.dp0", "forward", 1, 0, 10),
        ("tp-all-reduce.s1.l1.mb0.dp0.fwd0", "tp-all-reduce", 1, 10, 14),
        ("backward.s1.l1.mb0.dp0", "backward", 1, 14, 34),
        ("dp-all-reduce.s1.l1.tp0", "dp-all-reduce", 1, 30, 42),
        ("optimizer.s1.dp0", "optimizer", 1, 42, 50),
    ]
    t = {
        "workload": np.zeros(len(rows), dtype=np.uint32),
        "iteration": np.zeros(len(rows), dtype=np.uint32),
        "node": np.array([r[0] for r in rows]),
        "accelerator": np.array([r[2] for r in rows], dtype=np.uint32),
        "start_ps": np.array([r[3] * 10**6 for r in rows], dtype=np.int64),
        "end_ps": np.array([r[4] * 10**6 for r in rows], dtype=np.int64),
    }
    if with_category:
        t["category"] = np.array([r[1] for r in rows])
    return t


@pytest.mark.parametrize("with_category", [True, False])
def test_summary_of_hand_table(with_category):
    m = load_module()
    s = m.summarize(hand_table(with_category))
    # iteration: 50 - 0 us; compute: acc 0 10 + 20 + 5 = 35, acc 1 10 + 20 + 8 = 38 (the
    # all-reduce overlapping the backward is not compute); exposed = 50 - compute: 15 and 12.
    assert s["iteration_ps"] == 50 * 10**6
    assert s["compute_ps"] == pytest.approx(36.5e6)
    assert s["exposed_ps"] == pytest.approx(13.5e6)
    assert s["exposed_max_ps"] == 15 * 10**6
    assert s["accelerators"] == 2
    assert s["unfinished"] == 0
    # per category: mean over the 2 accelerators of the union of its intervals
    assert s["categories"] == pytest.approx({
        "backward": 20e6, "dp-all-reduce": 6e6, "forward": 10e6, "optimizer": 6.5e6,
        "tp-all-reduce": 4e6})


def write_run(group, table):
    g = group.create_group("dag_nodes")
    for c, v in table.items():
        if v.dtype.kind == "U":
            g.create_dataset(c, data=v.astype(object), dtype=h5py.string_dtype())
        else:
            g.create_dataset(c, data=v)


def test_plots_of_a_study_file(tmp_path):
    # A study file holds a run per fabric under /runs/FABRIC/WORKLOAD: one bar per fabric.
    m = load_module()
    path = tmp_path / "study.h5"
    with h5py.File(path, "w") as f:
        for fabric in ("sue", "ualink"):
            write_run(f.create_group(f"runs/{fabric}/step"), hand_table())
    runs = m.load(path)
    assert list(runs) == ["sue", "ualink"]
    written = m.plot(path, tmp_path / "plots")
    assert [Path(w).name for w in written] == [m.TIMELINE_PNG, m.BREAKDOWN_PNG]
    for w in written:
        assert Path(w).read_bytes()[:8] == PNG_SIGNATURE


def step_supported():
    """Whether the pod runs DAG-producing workload kinds (the DAG runner's plumbing)."""
    return "GetDag" in (ROOT / "src" / "pod" / "model" / "experiment.cc").read_text() or any(
        "GetDag" in p.read_text() for p in (ROOT / "src" / "pod" / "model").glob("*.cc"))


@pytest.mark.parametrize("fabric", ["sue", "ualink", "cell"])
def test_small_step_end_to_end(tmp_path, fabric):
    need_runner()
    if not step_supported():
        pytest.skip("the pod does not run DAG-producing workload kinds yet")
    scenario = tmp_path / "small.yaml"
    scenario.write_text(SMALL)
    h5 = tmp_path / f"{fabric}.h5"
    p = subprocess.run([str(PODSIM_RUN), str(scenario), f"--set=pod.fabric={fabric}",
                        f"--set=output.file={h5}"], capture_output=True, text=True, timeout=1800)
    assert p.returncode == 0, p.stderr[-3000:]
    # the summary printout has the iteration line (DagIterationSummary)
    assert "dag llm-step-0: iteration " in p.stdout
    assert "exposed communication" in p.stdout
    m = load_module()
    runs = m.load(h5)
    assert len(runs) == 1
    dag = next(iter(runs.values()))
    cats = set(m.categories(dag))
    # TP 2, PP 2, DP 4, no ZeRO: these categories and no others
    assert cats == {"forward", "backward", "tp-all-reduce", "pp-send", "dp-all-reduce",
                    "optimizer"}
    # rows: nodes x participants: compute 2 stages x 2 layers x 2 micro-batches x 4 replicas x 2
    # directions x 2 ranks = 128; TP 4 x 4 layers x 2 x 4 x 2 ranks = 256; sends 2 x 1 x 2 x 4 x
    # 2 x 2 ends = 64; DP 4 layers x 2 TP ranks x 4 replicas = 32; optimizer 2 x 4 x 2 = 16
    assert len(dag["node"]) == 128 + 256 + 64 + 32 + 16
    s = m.summarize(dag)
    assert s["accelerators"] == 16
    assert 0 < s["compute_ps"] <= s["iteration_ps"]
    assert s["exposed_ps"] > 0  # the collectives take time on a fabric
    written = m.plot(h5, tmp_path / "plots")
    for w in written:
        assert Path(w).read_bytes()[:8] == PNG_SIGNATURE
    # plot_results.py (what `./podsim run` draws) adds the two figures for a categorized DAG
    q = subprocess.run(["/usr/bin/python3", str(PLOT_RESULTS), str(h5), "--out",
                        str(tmp_path / "all")], capture_output=True, text=True, timeout=1800)
    assert q.returncode == 0, q.stderr
    names = [Path(line).name for line in q.stdout.split()]
    assert m.TIMELINE_PNG in names and m.BREAKDOWN_PNG in names


def test_moe_zero3_step_end_to_end(tmp_path):
    # An MoE step (4 experts, top-2, ep 2, sequence parallel, ZeRO-3) on 16 accelerators: every
    # communication category of the generator runs on the fabric and finishes.
    need_runner()
    if not step_supported():
        pytest.skip("the pod does not run DAG-producing workload kinds yet")
    text = SMALL.replace("layers: 4", "layers: 2").replace("    vocabulary: 512\n", "")
    text += ("    experts: 4\n    top-k: 2\n    ep: 2\n    sequence-parallel: true\n"
             "    zero: 3\n")
    scenario = tmp_path / "moe.yaml"
    scenario.write_text(text)
    h5 = tmp_path / "moe.h5"
    p = subprocess.run([str(PODSIM_RUN), str(scenario), f"--set=output.file={h5}"],
                       capture_output=True, text=True, timeout=1800)
    assert p.returncode == 0, p.stderr[-3000:]
    m = load_module()
    dag = next(iter(m.load(h5).values()))
    assert set(m.categories(dag)) == {
        "forward", "backward", "tp-reduce-scatter", "tp-all-gather", "ep-all-to-all",
        "pp-send", "dp-reduce-scatter", "dp-all-gather", "optimizer"}
    s = m.summarize(dag)
    assert s["unfinished"] == 0
    assert s["accelerators"] == 16


@pytest.mark.parametrize("name", ["llm-dense.yaml", "llm-moe.yaml"])
def test_full_size_examples_are_valid(name):
    # The 1024-accelerator examples load (their keys fit together); they are too long to run
    # here (their comments give the cost).
    need_runner()
    p = subprocess.run([str(PODSIM_RUN), str(ROOT / "examples" / "workloads" / name),
                        "--validate"], capture_output=True, text=True, timeout=1800)
    assert p.returncode == 0, p.stderr
    assert "kind llm-step" in p.stdout
