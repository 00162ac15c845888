# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""build/bin/pyxis-run on examples/pyxis/tiny-transformer.yaml (issue 9): 64 Pyxis chips (TP 8 x
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
        cwd=ROOT, capture_output=True, text=True, timeout=600,
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
        cwd=ROOT, capture_output=True, text=True, timeout=60,
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
        cwd=ROOT, capture_output=True, text=True, timeout=300,
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
