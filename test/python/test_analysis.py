# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""analysis/plot_results.py: on a synthetic results file written with h5py in the documented
layout (runs without the podsim module) and on a real run of data/small.yaml."""

import importlib.util
import subprocess
import sys

import h5py
import numpy as np
import pytest
from conftest import PLOT_SCRIPT

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
EXPECTED = {
    "message-completion-cdf.png",
    "link-utilization.png",
    "throughput.png",
    "switch-buffer.png",
}


def load_plot_module():
    spec = importlib.util.spec_from_file_location("plot_results", PLOT_SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def write_synthetic(path, messages=1000, links=64):
    """A results file in ResultsWriter's layout, with random but plausible contents."""
    rng = np.random.default_rng(1)
    workload = rng.integers(0, 2, messages).astype(np.uint32)
    post = rng.integers(0, 10**6, messages).astype(np.int64)
    deliver = post + rng.integers(10**5, 10**8, messages)
    deliver[::50] = -1
    sim = int(deliver.max()) + 1 if messages else 10**6
    text = h5py.string_dtype()
    with h5py.File(path, "w") as f:
        f.attrs["podsim_version"] = "0.1.0"
        f.attrs["scenario_name"] = "synthetic"
        f["scenario"] = "name: synthetic\n"
        m = f.create_group("messages")
        m.attrs.create("workload_names", ["incast-0", "all-to-all-1"], dtype=text)
        m["src"] = rng.integers(0, 16, messages).astype(np.uint32)
        m["dst"] = rng.integers(0, 16, messages).astype(np.uint32)
        m["bytes"] = np.full(messages, 4096, np.uint64)
        m["class"] = np.zeros(messages, np.uint8)
        m["workload"] = workload
        m["post_ps"] = post
        m["deliver_ps"] = deliver
        m["complete_ps"] = deliver
        lk = f.create_group("links")
        kinds = np.array(["acc-up", "down", "leaf-up", "spine-down"])[np.arange(links) % 4]
        lk.create_dataset("name", data=[f"l{i}" for i in range(links)], dtype=text)
        lk.create_dataset("kind", data=kinds.tolist(), dtype=text)
        lk["busy_ps"] = rng.integers(0, sim, links).astype(np.int64)
        lk["rate_bps"] = np.full(links, 100e9)
        s = f.create_group("summary")
        s.attrs["sim_time_ps"] = np.int64(sim)


def check_pngs(paths, out_dir):
    assert {p.name for p in out_dir.iterdir()} == EXPECTED
    assert sorted(str(out_dir / n) for n in EXPECTED) == sorted(paths)
    for p in out_dir.iterdir():
        data = p.read_bytes()
        assert len(data) > 1000, p
        assert data.startswith(PNG_SIGNATURE), p


def run_script(*args):
    return subprocess.run(
        [sys.executable, str(PLOT_SCRIPT), *map(str, args)],
        capture_output=True,
        text=True,
        check=False,
    )


def test_cli_default_out_dir(tmp_path):
    results = tmp_path / "synthetic.h5"
    write_synthetic(results)
    r = run_script(results)
    assert r.returncode == 0, r.stderr
    check_pngs(r.stdout.split(), tmp_path / "synthetic-plots")


def test_cli_out_dir(tmp_path):
    results = tmp_path / "synthetic.h5"
    write_synthetic(results)
    out = tmp_path / "a" / "b"
    r = run_script(results, "--out", out)
    assert r.returncode == 0, r.stderr
    check_pngs(r.stdout.split(), out)


def test_plot_importable(tmp_path):
    results = tmp_path / "synthetic.h5"
    write_synthetic(results)
    paths = load_plot_module().plot(results, tmp_path / "out")
    check_pngs(paths, tmp_path / "out")


def test_switch_buffer_series(tmp_path):
    """A file with the /timeseries/switch_buffer group of format version 3: three switches,
    sparse rows (intervals without a change have none)."""
    results = tmp_path / "series.h5"
    write_synthetic(results)
    with h5py.File(results, "a") as f:
        g = f.create_group("timeseries").create_group("switch_buffer")
        g.attrs["interval_ps"] = np.int64(10**6)
        g.create_dataset("switch_names", data=["p0.sw0", "p1.sw0", "p2.sw0"], dtype=h5py.string_dtype())
        g["switch"] = np.array([0, 0, 0, 1, 1, 2], np.uint32)
        g["time_ps"] = np.array([0, 1, 3, 0, 5, 2], np.int64) * 10**6
        g["max_bytes"] = np.array([4096, 65536, 8192, 1024, 2048, 512], np.uint64)
        g["end_bytes"] = np.array([4096, 8192, 0, 1024, 0, 0], np.uint64)
    mod = load_plot_module()
    data = mod.load(results)
    assert data["switch_buffer"]["interval_ps"] == 10**6
    assert data["switch_buffer"]["switch_names"] == ["p0.sw0", "p1.sw0", "p2.sw0"]
    # The completion CDF's labels are the workloads' names, not the switches' (the series'
    # switch names once replaced them).
    assert data["workload_names"] == ["incast-0", "all-to-all-1"]
    paths = mod.plot(results, tmp_path / "out")
    check_pngs(paths, tmp_path / "out")


def test_throughput_series_bins_delivered_bytes(tmp_path):
    """throughput_series on a hand-made table: 4 bins of 25 ns over [0, 100 ns] (the last
    delivery); each delivered message's bytes land whole in the bin of its delivery time, the
    undelivered one nowhere, so the bins sum to the delivered bytes (conservation)."""
    mod = load_plot_module()
    data = {
        "messages": {
            "workload": np.array([0, 0, 1, 1, 0], np.uint32),
            "bytes": np.array([100, 200, 400, 800, 1600], np.uint64),
            "post_ps": np.zeros(5, np.int64),
            "deliver_ps": np.array([10_000, 30_000, 49_999, 100_000, -1], np.int64),
        },
        "messages_sampled_every": 1,
    }
    edges, series = mod.throughput_series(data, bins=4)
    np.testing.assert_array_equal(edges, [0.0, 25e3, 50e3, 75e3, 100e3])
    assert sorted(series) == [0, 1]
    np.testing.assert_array_equal(series[0], [100, 200, 0, 0])
    np.testing.assert_array_equal(series[1], [0, 400, 0, 800])
    # The output budget kept one row in 3: each row stands for 3 messages.
    data["messages_sampled_every"] = 3
    _, scaled = mod.throughput_series(data, bins=4)
    np.testing.assert_array_equal(scaled[1], [0, 1200, 0, 2400])
    data["messages"]["deliver_ps"][:] = -1
    edges, series = mod.throughput_series(data, bins=4)
    assert edges.size == 0 and series == {}


def test_throughput_of_a_real_run_conserves_bytes(small_run):
    """On data/small.yaml: the bins of every workload sum to its delivered bytes, and all of
    them to the run's bytes_delivered (payload of the messages delivered whole)."""
    mod = load_plot_module()
    _, results = small_run
    data = mod.load(results)
    edges, series = mod.throughput_series(data)
    assert edges.size == mod.THROUGHPUT_BINS + 1 and edges[0] == 0.0
    m = data["messages"]
    delivered = m["deliver_ps"] >= 0
    assert edges[-1] == m["deliver_ps"][delivered].max()
    for w, b in series.items():
        assert b.sum() == m["bytes"][delivered & (m["workload"] == w)].sum()
    with h5py.File(results, "r") as f:
        assert sum(b.sum() for b in series.values()) == f["summary"].attrs["bytes_delivered"]


def test_empty_tables(tmp_path):
    results = tmp_path / "empty.h5"
    write_synthetic(results, messages=0, links=0)
    paths = load_plot_module().plot(results, tmp_path / "out")
    check_pngs(paths, tmp_path / "out")


def test_missing_file(tmp_path):
    r = run_script(tmp_path / "missing.h5")
    assert r.returncode != 0
    assert "missing.h5" in r.stderr


def test_not_a_results_file(tmp_path):
    bad = tmp_path / "bad.h5"
    bad.write_text("not hdf5")
    r = run_script(bad)
    assert r.returncode != 0
    assert "bad.h5" in r.stderr


def test_plots_of_a_real_run(small_run, tmp_path):
    _, results = small_run
    out = tmp_path / "plots"
    r = run_script(results, "--out", out)
    assert r.returncode == 0, r.stderr
    check_pngs(r.stdout.split(), out)


def test_real_run_labels_are_its_workloads(small_run):
    # data/small.yaml: an incast and an all-to-all, two switches with buffer series.
    _, results = small_run
    data = load_plot_module().load(results)
    with h5py.File(results, "r") as f:
        names = [n.decode() if isinstance(n, bytes) else str(n)
                 for n in f["messages"].attrs["workload_names"]]
    assert data["workload_names"] == names == ["incast-0", "all-to-all-1"]


@pytest.mark.parametrize("column", ["post_ps", "deliver_ps"])
def test_real_run_has_what_the_plots_read(small_run, column):
    _, results = small_run
    with h5py.File(results, "r") as f:
        assert f["messages"][column].shape[0] > 0
        assert f["summary"].attrs["sim_time_ps"] > 0
