# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""build/bin/pyxis-run on examples/pyxis/tiny-transformer.yaml: 64 Pyxis chips (TP 8 x
DP 8) over the cell fabric, 4 decoder layers. The run completes, every chip runs every layer,
the /pyxis tables are consistent (analysis/pyxis_timeline.py check_layers, check_trips, and the
layer table equals layer_summary of the trips), the job count is conserved, and a bad model path
gives a clear error."""

import importlib.util
import subprocess
from pathlib import Path

import h5py
import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
RUNNER = ROOT / "build" / "bin" / "pyxis-run"
MODEL = ROOT / "examples" / "pyxis" / "tiny-transformer.yaml"
SCRIPT = ROOT / "analysis" / "pyxis_timeline.py"
SCENARIO = ROOT / "examples" / "pyxis" / "tensor-parallel.yaml"
TP8_MODEL = ROOT / "examples" / "pyxis" / "tp8-layer.yaml"
PODSIM_RUN = ROOT / "build" / "bin" / "podsim-run"
PLOT_RESULTS = ROOT / "analysis" / "plot_results.py"
LAYER_COLUMNS = ("chip", "layer", "start_ns", "end_ns", "compute_ns", "exposed_comm_ns")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

CHIPS = 64  # tensor 8 x data 8
LAYERS = 4  # one decoder layer, repeat 4
# RDMA jobs (Tx side): chips x layers x 2 all-reduces (attention, MLP) x 4 rings (one per
# cluster) x 2(P-1) = 14 steps, one job per step (16 KiB chunks: S = 128 x 4096 x 1 B = 512
# KiB, S / (4 x 8) = 16 KiB, far below the 8 MiB job limit)
JOBS = CHIPS * LAYERS * 2 * 4 * 2 * (8 - 1)


def load_timeline():
    spec = importlib.util.spec_from_file_location("pyxis_timeline", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    if not RUNNER.exists():
        pytest.fail(f"{RUNNER} is not built (./podsim build)")
    out = tmp_path_factory.mktemp("pyxis-run")
    h5 = out / "tiny.h5"
    png = out / "tiny.png"
    p = subprocess.run(
        [str(RUNNER), f"--model={MODEL}", f"--output={h5}", f"--plot={png}"],
        cwd=ROOT, capture_output=True, text=True,
    )
    return p, h5, png


def test_run_completes(tiny_run):
    p, h5, png = tiny_run
    assert p.returncode == 0, p.stderr
    assert f"{CHIPS} chips, {LAYERS} layers" in p.stdout
    assert f"{JOBS} RDMA jobs" in p.stdout, p.stdout
    assert "0 jobs open" in p.stdout
    assert png.read_bytes()[:8] == PNG_SIGNATURE


def test_every_chip_every_layer(tiny_run):
    _, h5, _ = tiny_run
    tl = load_timeline()
    trips, layers = tl.read_pyxis(h5)
    pairs = set(zip(np.asarray(layers["chip"]).tolist(), np.asarray(layers["layer"]).tolist()))
    assert pairs == {(c, layer) for c in range(CHIPS) for layer in range(LAYERS)}
    # every chip ran compute, comm and reduce trips in every layer
    for kind in ("compute", "comm", "reduce"):
        seen = {(int(c), int(la)) for c, la, k in zip(trips["chip"], trips["layer"], trips["kind"])
                if k == kind}
        assert len(seen) == CHIPS * LAYERS, kind


def test_tables_consistent(tiny_run):
    _, h5, _ = tiny_run
    tl = load_timeline()
    trips, layers = tl.read_pyxis(h5)
    assert tl.check_layers(layers) == []
    assert tl.check_trips(trips, layers) == []
    # the writer's layer table is layer_summary's reference definition of it
    ref = tl.layer_summary(trips)
    for col in ("start_ns", "end_ns", "compute_ns", "exposed_comm_ns"):
        np.testing.assert_allclose(np.asarray(layers[col], dtype=float), ref[col], atol=1e-6)
    # every TP group runs the same program on a symmetric ring: per layer the chips agree
    end = np.asarray(layers["end_ns"], dtype=float).reshape(CHIPS, LAYERS)
    np.testing.assert_allclose(end, np.broadcast_to(end[0], end.shape), atol=1e-3)
    # a layer is its compute plus the communication compute did not hide, the rest idle: each
    # layer's compute is the same on every layer and chip (same shapes)
    compute = np.asarray(layers["compute_ns"], dtype=float)
    np.testing.assert_allclose(compute, compute[0], rtol=1e-9)
    with h5py.File(h5, "r") as f:
        assert len(f["/pyxis/trips/chip"]) == len(trips["chip"])


def test_bad_model_path(tmp_path):
    missing = tmp_path / "no-such-model.yaml"
    p = subprocess.run(
        [str(RUNNER), f"--model={missing}", f"--output={tmp_path / 'x.h5'}"],
        cwd=ROOT, capture_output=True, text=True,
    )
    assert p.returncode == 1
    assert str(missing) in p.stderr
    assert "cannot open model file" in p.stderr
    assert not (tmp_path / "x.h5").exists()


DP_MODEL = """name: tp-dp
parallelism:
  tensor: 2
  data: 4
  tp-collective: all-reduce
  reduction: vpu
  data-sync: weights
  data-algorithm: ring
layers:
""" + "".join(
    f"""  - kind: transformer
    name: decoder{i}
    dtype: fp8
    d-model: 512
    heads: 4
    head-dim: 128
    ffn: 2048
    tokens: 128
    batch: 1
"""
    for i in range(2)
)


def test_data_parallel_run(tmp_path):
    """TP 2 x DP 4, 2 layers, data-sync: weights (ring): the weights' all-reduce runs as RDMA
    trips on queues 0x0D (Tx 1) and 0x0F (Rx 1), kind comm, in the tables."""
    model = tmp_path / "tp-dp.yaml"
    model.write_text(DP_MODEL)
    h5 = tmp_path / "tp-dp.h5"
    p = subprocess.run(
        [str(RUNNER), f"--model={model}", f"--output={h5}"],
        cwd=ROOT, capture_output=True, text=True,
    )
    assert p.returncode == 0, p.stderr
    # Tx jobs: TP: 8 chips x 2 layers x 2 all-reduces x 4 rings x 2(P-1) = 2 steps = 256; DP:
    # 8 chips x 2 layers x 4 clusters x 2(P-1) = 6 ring steps of one job = 384
    tp_jobs = 8 * 2 * 2 * 4 * 2
    dp_jobs = 8 * 2 * 4 * 6
    assert f"{tp_jobs + dp_jobs} RDMA jobs" in p.stdout, p.stdout
    assert "0 jobs open" in p.stdout
    tl = load_timeline()
    trips, layers = tl.read_pyxis(h5)
    assert tl.check_layers(layers) == []
    assert tl.check_trips(trips, layers) == []
    # read_pyxis gives the engine (queue id) and the kind as text
    dp = [k for e, k in zip(trips["engine"], trips["kind"]) if e in ("13", "15")]
    # one Tx and one Rx row per DP job, all of kind comm
    assert len(dp) == 2 * dp_jobs
    assert set(dp) == {"comm"}


# ---- the scenario workload (kind: pyxis) ----

TP_CHIPS = 8  # tp8-layer.yaml: tensor 8 x data 1, one decoder layer
# chips x 1 layer x 2 all-reduces x 4 rings x 2(P-1) = 14 steps, one job per step (as JOBS)
TP_JOBS = TP_CHIPS * 1 * 2 * 4 * 2 * (8 - 1)


def pyxis_run(model, h5, *extra):
    p = subprocess.run([str(RUNNER), f"--model={model}", f"--output={h5}", *extra],
                       cwd=ROOT, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    return p


def read_layers(h5):
    with h5py.File(h5, "r") as f:
        return {c: f["pyxis/layers"][c][()] for c in LAYER_COLUMNS}


def check_consistent(h5, chips, layers_per_chip):
    tl = load_timeline()
    trips, layers = tl.read_pyxis(h5)
    assert tl.check_layers(layers) == []
    assert tl.check_trips(trips, layers) == []
    pairs = set(zip(np.asarray(layers["chip"]).tolist(), np.asarray(layers["layer"]).tolist()))
    assert pairs == {(c, la) for c in range(chips) for la in range(layers_per_chip)}


def assert_same_layers(a, b):
    # The same model on the same fabric through the same setup (PyxisRunner): the same
    # discrete-event run, so the same times to the last bit.
    la, lb = read_layers(a), read_layers(b)
    for c in LAYER_COLUMNS:
        np.testing.assert_array_equal(la[c], lb[c], err_msg=c)


@pytest.fixture(scope="module")
def tp_reference(tmp_path_factory):
    h5 = tmp_path_factory.mktemp("pyxis-tp") / "reference.h5"
    p = pyxis_run(TP8_MODEL, h5)
    assert f"{TP_JOBS} RDMA jobs" in p.stdout and "0 jobs open" in p.stdout, p.stdout
    return h5


def test_scenario_python_api(podsim, tmp_path, tp_reference):
    h5 = tmp_path / "tp.h5"
    r = podsim.run(str(SCENARIO), results_file=str(h5))
    assert r["results_file"] == str(h5)
    check_consistent(h5, TP_CHIPS, 1)
    assert_same_layers(h5, tp_reference)
    # the run lasts until the last trip ends (the pod's simulated time is the pyxis run's)
    end_ns = float(np.max(read_layers(h5)["end_ns"]))
    assert r["summary"]["sim_time_ps"] == round(end_ns * 1e3)


def test_scenario_cli_and_plots(tmp_path, tp_reference):
    if not PODSIM_RUN.exists():
        pytest.fail(f"{PODSIM_RUN} is not built (./podsim build)")
    h5 = tmp_path / "cli.h5"
    p = subprocess.run([str(PODSIM_RUN), str(SCENARIO), f"--set=output.file={h5}"],
                       cwd=ROOT, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert f"pyxis: {TP_CHIPS} chips, 1 layers" in p.stdout, p.stdout
    assert f"{TP_JOBS} RDMA jobs" in p.stdout and "0 jobs open (completed)" in p.stdout
    assert f"plots: {h5}" in p.stdout
    check_consistent(h5, TP_CHIPS, 1)
    assert_same_layers(h5, tp_reference)
    # ./podsim run draws the plots with analysis/plot_results.py: the timeline is one of them
    q = subprocess.run(["/usr/bin/python3", str(PLOT_RESULTS), str(h5), "--out", str(tmp_path)],
                       cwd=ROOT, capture_output=True, text=True)
    assert q.returncode == 0, q.stderr
    png = tmp_path / "pyxis-timeline.png"
    assert str(png) in q.stdout.split()
    assert png.read_bytes()[:8] == PNG_SIGNATURE


def test_scenario_late_posting(podsim, tmp_path):
    # rx-posting reaches the trip programs: late posting is pyxis-run --rx-posting=late, and
    # pre-posting hides the CTS round trip, so a late layer is never shorter (Pyxis spec 10.3)
    h5 = tmp_path / "late.h5"
    podsim.run(str(SCENARIO), {"workloads[0].rx-posting": "late"}, results_file=str(h5))
    ref = tmp_path / "late-ref.h5"
    pyxis_run(TP8_MODEL, ref, "--rx-posting=late")
    assert_same_layers(h5, ref)
    pre = tmp_path / "pre.h5"
    pyxis_run(TP8_MODEL, pre)
    assert read_layers(h5)["end_ns"].min() > read_layers(pre)["end_ns"].max()


def test_scenario_tiny_transformer_equals_pyxis_run(podsim, tmp_path, tiny_run):
    # the 64-chip model of pyxis-run's test as a scenario: the same per-layer times
    _, ref, _ = tiny_run
    h5 = tmp_path / "tiny.h5"
    podsim.run(str(SCENARIO), {"pod.accelerators": 64, "workloads[0].model": str(MODEL)},
               results_file=str(h5))
    check_consistent(h5, CHIPS, LAYERS)
    assert_same_layers(h5, ref)


SCENARIO_TEXT = """name: pyxis-refusal
pod:
  fabric: {fabric}
  accelerators: {accelerators}
  switch: {{radix: 64}}
workloads:
  - kind: pyxis
    model: {model}
"""
KIND_LINE = 7  # workloads[0].kind
MODEL_LINE = 8  # workloads[0].model


def write_scenario(tmp_path, fabric="cell", accelerators=8, model="tp8-layer.yaml", extra=""):
    (tmp_path / "tp8-layer.yaml").write_text(TP8_MODEL.read_text())
    path = tmp_path / "scenario.yaml"
    path.write_text(SCENARIO_TEXT.format(fabric=fabric, accelerators=accelerators, model=model)
                    + extra)
    return path


def refusal(podsim, path):
    with pytest.raises(podsim.ScenarioError) as e:
        podsim.run(str(path), write_results=False)
    return e.value


@pytest.mark.parametrize("fabric", ["ethernet", "sue", "ualink", "rifl"])
def test_loads_on_every_fabric(podsim, tmp_path, fabric):
    # Pyxis chips run on any fabric through the endpoint API (PyxisEndpointBinding): the
    # workload loads on each (it was refused everywhere but on the cell fabric).
    s = podsim.load(str(write_scenario(tmp_path, fabric=fabric)))
    assert s["fabric"] == fabric
    assert s["workloads"][0]["kind"] == "pyxis"


def test_refused_too_few_accelerators(podsim, tmp_path):
    e = refusal(podsim, write_scenario(tmp_path, accelerators=7))
    assert (e.file, e.line, e.field) == (str(tmp_path / "scenario.yaml"), MODEL_LINE,
                                         "workloads[0].model"), str(e)
    assert "8 chips" in e.message and "pod.accelerators = 7" in e.message


def test_model_path_relative_to_scenario(podsim, tmp_path):
    # the model file is found beside the scenario, wherever the process runs
    path = write_scenario(tmp_path)
    w = podsim.load(str(path))["workloads"][0]
    assert (w["kind"], w["model"], w["rx_posting"], w["chips"]) == (
        "pyxis", str(tmp_path / "tp8-layer.yaml"), "pre-posted", TP_CHIPS)
    h5 = tmp_path / "rel.h5"
    podsim.run(str(path), results_file=str(h5))
    check_consistent(h5, TP_CHIPS, 1)


def test_refused_missing_model(podsim, tmp_path):
    e = refusal(podsim, write_scenario(tmp_path, model="no-such-model.yaml"))
    assert (e.line, e.field) == (MODEL_LINE, "workloads[0].model"), str(e)
    assert "no-such-model.yaml" in e.message


def test_model_error_names_the_model_file(podsim, tmp_path):
    bad = tmp_path / "bad-model.yaml"
    bad.write_text("name: bad\nparallelism:\n  tensor: 0\nlayers: []\n")
    e = refusal(podsim, write_scenario(tmp_path, model="bad-model.yaml"))
    assert (e.file, e.line, e.field) == (str(bad), 3, "parallelism.tensor"), str(e)


def test_refused_beside_another_workload(podsim, tmp_path):
    e = refusal(podsim, write_scenario(tmp_path, extra="  - {kind: permutation, size: 1KiB}\n"))
    assert (e.line, e.field) == (KIND_LINE, "workloads[0].kind"), str(e)
    assert "only workload" in e.message


def test_refused_rx_posting_and_keys_of_other_kinds(podsim, tmp_path):
    e = refusal(podsim, write_scenario(tmp_path, extra="    rx-posting: early\n"))
    assert (e.line, e.field) == (MODEL_LINE + 1, "workloads[0].rx-posting"), str(e)
    e = refusal(podsim, write_scenario(tmp_path, extra="    size: 1KiB\n"))
    assert (e.line, e.field) == (MODEL_LINE + 1, "workloads[0].size"), str(e)
    e = refusal(podsim, write_scenario(tmp_path, extra="    start: 1us\n"))
    assert (e.line, e.field) == (MODEL_LINE + 1, "workloads[0].start"), str(e)


def test_unbuildable_program_is_refused(podsim, tmp_path):
    # A tensor-72 ring needs 142 RDMA jobs per cluster and collective, more than the 128 job
    # ids a cluster may hold (half its 256 TJIDs/RJIDs, Pyxis spec 10.4): refused before running,
    # naming the model file, chip, layer and limit (pyxis-run's message).
    model = tmp_path / "t72.yaml"
    model.write_text("name: t72\nparallelism: {tensor: 72, data: 1}\nlayers:\n"
                     "  - {kind: transformer, name: decoder, dtype: fp8, d-model: 4608, heads: 72,"
                     " head-dim: 64, ffn: 9216, tokens: 128, batch: 1}\n")
    path = write_scenario(tmp_path, accelerators=72, model="t72.yaml")
    e = refusal(podsim, path)
    assert e.file == str(model), str(e)
    assert "142 RDMA jobs, more than 128" in e.message
    # the simulator was left clean: the next run works
    h5 = tmp_path / "after.h5"
    podsim.run(str(SCENARIO), results_file=str(h5))
    check_consistent(h5, TP_CHIPS, 1)


@pytest.mark.parametrize("fabric, pod", [
    ("sue", {"pod.fabric": "sue", "pod.planes": 8, "pod.switch.radix": 8}),
    ("ualink", {"pod.fabric": "ualink", "pod.planes": 4, "pod.switch.radix": 8}),
])
def test_pyxis_layer_runs_on_any_fabric(podsim, tmp_path, fabric, pod):
    # The tensor-parallel layer of examples/questions/pyxis-tp-layer.yaml (a pyxis workload,
    # PyxisWorkloadKind) on a SUE and a UALink pod from the scenario, against the cell fabric:
    # the same trips on every chip, every UIE trip (compute and reduce) of the cell run's
    # duration to the picosecond (the UIE model's cycles, src/pyxis/doc/pyxis.rst), and only
    # the network's trips and the layer's end differ; every RDMA job completes.
    scenario = ROOT / "examples" / "questions" / "pyxis-tp-layer.yaml"
    # The same scenario without its pod.cell section (refused on another fabric), the model
    # path made absolute.
    lines = scenario.read_text().splitlines()
    start = lines.index("  cell:")
    end = start + 1
    while end < len(lines) and lines[end].startswith("    "):
        end += 1
    other_scenario = tmp_path / "pyxis-tp-layer.yaml"
    other_scenario.write_text("\n".join(lines[:start] + lines[end:]).replace(
        "../pyxis/tp8-layer.yaml", str(ROOT / "examples" / "pyxis" / "tp8-layer.yaml")) + "\n")

    def trips(over, name):
        out = tmp_path / f"{name}.h5"
        podsim.run(other_scenario if over else scenario, overrides=over, results_file=str(out))
        with h5py.File(out, "r") as f:
            t = f["pyxis/trips"]
            cols = {k: t[k][()] for k in ("chip", "cluster", "engine", "trip_id", "kind",
                                          "start_ns", "end_ns")}
            layer_end = f["pyxis/layers"]["end_ns"][()].max()
        rows = {}
        for i in range(len(cols["chip"])):
            key = (int(cols["chip"][i]), int(cols["cluster"][i]), int(cols["engine"][i]),
                   int(cols["trip_id"][i]))
            rows[key] = (int(cols["kind"][i]), cols["start_ns"][i], cols["end_ns"][i])
        return rows, layer_end

    cell, cell_end = trips({}, "cell")
    other, other_end = trips(pod, fabric)
    assert other.keys() == cell.keys()
    uie = 0
    for key, (kind, start, end) in cell.items():
        okind, ostart, oend = other[key]
        assert okind == kind
        if kind in (0, 3):  # compute and reduce: the UIE model's time
            assert oend - ostart == pytest.approx(end - start, abs=1e-6)
            uie += 1
    assert uie > 0
    assert other_end != cell_end
