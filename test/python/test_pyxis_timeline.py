# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""analysis/pyxis_timeline.py on synthetic /pyxis groups written with h5py in the documented
schema (no simulator needed): the timeline plot, and the per-layer and per-trip consistency
checks, which must pass on a consistent run and name each kind of inconsistency."""

import importlib.util
import subprocess
import sys
from pathlib import Path

import h5py
import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "analysis" / "pyxis_timeline.py"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def load_module():
    spec = importlib.util.spec_from_file_location("pyxis_timeline", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def synthetic(chips=2, clusters=4, layers=3, compute_ns=1000, comm_ns=400, overlap_ns=100):
    """A consistent run: on every chip and cluster, per layer, one compute trip, then a comm
    trip that starts overlap_ns before the compute ends, then a reduce trip (inside the comm);
    a DMA trip at the start of each layer. Layer time = compute + exposed comm, exposed comm =
    comm - overlap (closed form of this schedule)."""
    trips = {k: [] for k in ("chip", "cluster", "engine", "trip_id", "layer", "kind",
                             "start_ns", "end_ns")}
    rows = {k: [] for k in ("chip", "layer", "start_ns", "end_ns", "compute_ns",
                            "exposed_comm_ns")}
    layer_ns = compute_ns + comm_ns - overlap_ns
    tid = 0
    for c in range(chips):
        for layer in range(layers):
            t0 = layer * layer_ns
            for k in range(clusters):
                for kind, engine, s, e in (
                    ("dma", "h2a", t0, t0 + 50),
                    ("compute", "uie0", t0, t0 + compute_ns),
                    ("comm", "rdma-tx0", t0 + compute_ns - overlap_ns, t0 + layer_ns),
                    ("reduce", "vpu", t0 + compute_ns, t0 + compute_ns + 20),
                ):
                    for name, v in (("chip", c), ("cluster", k), ("engine", engine),
                                    ("trip_id", tid), ("layer", layer), ("kind", kind),
                                    ("start_ns", s), ("end_ns", e)):
                        trips[name].append(v)
                    tid += 1
            for name, v in (("chip", c), ("layer", layer), ("start_ns", t0),
                            ("end_ns", t0 + layer_ns), ("compute_ns", compute_ns),
                            ("exposed_comm_ns", comm_ns - overlap_ns)):
                rows[name].append(v)
    return trips, rows


def write(path, trips, layers, compound=False):
    """Write /pyxis as groups of column datasets, or as compound datasets."""
    text = h5py.string_dtype()
    ints = {"chip", "cluster", "trip_id", "layer"}
    with h5py.File(path, "w") as f:
        g = f.create_group("pyxis")
        for name, table in (("trips", trips), ("layers", layers)):
            if compound:
                fields = []
                for col, values in table.items():
                    if col in ("kind", "engine"):
                        fields.append((col, "S16"))
                    elif col in ints:
                        fields.append((col, np.uint32))
                    else:
                        fields.append((col, np.float64))
                arr = np.zeros(len(next(iter(table.values()))), dtype=fields)
                for col, values in table.items():
                    arr[col] = [v.encode() if isinstance(v, str) else v for v in values]
                g.create_dataset(name, data=arr)
            else:
                t = g.create_group(name)
                for col, values in table.items():
                    if col in ("kind", "engine"):
                        t.create_dataset(col, data=values, dtype=text)
                    elif col in ints:
                        t.create_dataset(col, data=np.asarray(values, dtype=np.uint32))
                    else:
                        t.create_dataset(col, data=np.asarray(values, dtype=np.float64))


@pytest.mark.parametrize("compound", [False, True], ids=["columns", "compound"])
def test_plot_and_consistent(tmp_path, compound):
    m = load_module()
    trips, layers = synthetic()
    path = tmp_path / "run.h5"
    write(path, trips, layers, compound=compound)
    t, lay = m.read_pyxis(path)
    assert len(t["chip"]) == 2 * 4 * 3 * 4  # chips x clusters x layers x trips per layer
    assert set(t["kind"]) == {"compute", "comm", "dma", "reduce"}
    assert m.check_layers(lay) == []
    assert m.check_trips(t, lay) == []
    out = tmp_path / "timeline.png"
    rows = m.plot_timeline(t, out)
    assert rows == [(c, k) for c in range(2) for k in range(4)]  # one row per chip and cluster
    assert out.read_bytes()[:8] == PNG_SIGNATURE


def test_layer_summary_from_trips():
    """layer_summary recomputes the synthetic layer table from its trips: compute 1000 ns,
    exposed comm = 400 - 100 overlap = 300 ns (the reduce trip lies inside the comm trip and the
    DMA trip inside the compute trip), spans of 1300 ns."""
    m = load_module()
    trips, layers = synthetic(chips=2, clusters=3, layers=4)
    summary = m.layer_summary(trips)
    for col in ("chip", "layer", "start_ns", "end_ns", "compute_ns", "exposed_comm_ns"):
        assert np.allclose(summary[col], layers[col]), col
    assert m.check_layers(summary) == []
    # Comm in pieces on two clusters, partly hidden by compute: [100, 140] exposed.
    t = {k: [] for k in trips}
    for tid, (k, kind, s, e) in enumerate(((0, "compute", 0, 100), (0, "comm", 50, 120),
                                           (1, "comm", 110, 150), (1, "compute", 140, 160))):
        for name, v in (("chip", 0), ("cluster", k), ("engine", "x"), ("trip_id", tid),
                        ("layer", 0), ("kind", kind), ("start_ns", s), ("end_ns", e)):
            t[name].append(v)
    s = m.layer_summary(t)
    assert s["compute_ns"][0] == pytest.approx(120)  # [0, 100] and [140, 160]
    assert s["exposed_comm_ns"][0] == pytest.approx(40)  # [100, 140]
    assert s["end_ns"][0] - s["start_ns"][0] == pytest.approx(160)


def test_layer_inconsistencies_are_named():
    m = load_module()
    _, layers = synthetic(chips=1, layers=3)
    # compute + exposed comm longer than the layer (1000 + 300 > 1300 - 1)
    bad = {k: list(v) for k, v in layers.items()}
    bad["end_ns"][0] -= 1
    assert any("> duration" in p for p in m.check_layers(bad))
    # end before start
    bad = {k: list(v) for k, v in layers.items()}
    bad["end_ns"][1] = bad["start_ns"][1] - 5
    assert any("before start" in p for p in m.check_layers(bad))
    # layer 2 starting before layer 1 on the same chip
    bad = {k: list(v) for k, v in layers.items()}
    bad["start_ns"][2], bad["end_ns"][2] = 0.0, 1000.0
    bad["compute_ns"][2], bad["exposed_comm_ns"][2] = 500.0, 0.0
    assert any("out of order" in p for p in m.check_layers(bad))
    # the same layer twice
    bad = {k: list(v) for k, v in layers.items()}
    bad["layer"][2] = 1
    assert any("more than once" in p for p in m.check_layers(bad))
    # within the tolerance: no problem
    ok = {k: list(v) for k, v in layers.items()}
    ok["end_ns"][0] -= 1e-4
    assert m.check_layers(ok) == []


def test_trip_inconsistencies_are_named():
    m = load_module()
    trips, layers = synthetic(chips=1, clusters=1, layers=2)
    bad = {k: list(v) for k, v in trips.items()}
    bad["end_ns"][1] = bad["start_ns"][1] - 1
    bad["kind"][2] = "idle"
    bad["layer"][3] = 7
    bad["end_ns"][4] = layers["end_ns"][1] + 10  # trip 4 is layer 1's DMA: past its layer
    problems = m.check_trips(bad, layers)
    assert any("trip 1" in p and "before start" in p for p in problems)
    assert any("trip 2" in p and "unknown kind" in p for p in problems)
    assert any("trip 3" in p and "no such layer" in p for p in problems)
    assert any("trip 4" in p and "outside its layer" in p for p in problems)


def test_command_line(tmp_path):
    trips, layers = synthetic(chips=3)
    path = tmp_path / "run.h5"
    write(path, trips, layers)
    out = tmp_path / "t.png"
    r = subprocess.run([sys.executable, str(SCRIPT), str(path), "-o", str(out), "--chips", "0,2"],
                       capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stderr
    assert "(8 chip-cluster rows)" in r.stdout
    assert out.read_bytes()[:8] == PNG_SIGNATURE
    r = subprocess.run([sys.executable, str(SCRIPT), str(path), "--check"],
                       capture_output=True, text=True, check=False)
    assert r.returncode == 0 and "0 problems" in r.stdout, r.stdout + r.stderr
    layers["exposed_comm_ns"][0] = 10**6
    write(path, trips, layers)
    r = subprocess.run([sys.executable, str(SCRIPT), str(path), "--check"],
                       capture_output=True, text=True, check=False)
    assert r.returncode == 1 and "1 problems" in r.stdout, r.stdout
    with h5py.File(tmp_path / "empty.h5", "w"):
        pass
    r = subprocess.run([sys.executable, str(SCRIPT), str(tmp_path / "empty.h5"), "--check"],
                       capture_output=True, text=True, check=False)
    assert r.returncode == 2 and "no /pyxis group" in r.stderr
