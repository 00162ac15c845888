# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""podsim.read_study and analysis/plot_study.py on a small study file built here: six real runs
(16 accelerators; fabrics sue, ualink and cell; an incast and a ring all-reduce) through
build/bin/podsim-run, assembled into the study layout (utils/study.py's, src/pod/doc/pod.rst)
with h5py: each run's file copied whole into /runs/<fabric>/<workload>, and /study filled with
values computed from the runs."""

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import h5py
import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
PODSIM_RUN = Path(os.environ.get("PODSIM_BUILD_DIR", ROOT / "build")) / "bin" / "podsim-run"
PLOT_STUDY = ROOT / "analysis" / "plot_study.py"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
PNGS = {"completion-time.png", "latency-cdf.png", "switch-buffer.png", "achieved-bandwidth.png"}

FABRICS = {
    "sue": "{fabric: sue, accelerators: 16, planes: 2, switch: {radix: 32}, link: {rate: 400Gbps}}",
    "ualink": "{fabric: ualink, accelerators: 16, planes: 2, switch: {radix: 32}, "
    "link: {rate: 100Gbps}}",
    "cell": "{fabric: cell, accelerators: 16, cell: {links: 4}}",
}
WORKLOADS = {
    "incast": "{name: incast, kind: incast, senders: 8, receiver: 0, size: 64KiB}",
    "ring-ar": "{name: ring-ar, kind: collective, collective: all-reduce, algorithm: ring, "
    "size: 64KiB}",
}
ALGORITHM = {"incast": "", "ring-ar": "ring"}
KIND = {"incast": "incast", "ring-ar": "collective"}


def load_plot_module():
    spec = importlib.util.spec_from_file_location("plot_study", PLOT_STUDY)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_case(tmp, fabric, workload, sample_interval):
    """One case through podsim-run; returns its results file."""
    scenario = tmp / f"{fabric}-{workload}.yaml"
    scenario.write_text(
        f"name: {fabric}-{workload}\n"
        f"pod: {FABRICS[fabric]}\n"
        f"workloads:\n  - {WORKLOADS[workload]}\n"
        f"output: {{plots: false, progress: false, sample-interval: {sample_interval}}}\n"
    )
    out = tmp / f"{fabric}-{workload}.h5"
    r = subprocess.run(
        [str(PODSIM_RUN), str(scenario), f"--out={out}", "--quiet"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert r.returncode == 0, r.stderr
    return out


def study_row(podsim, fabric, workload, run_file):
    """The /study columns of one case, computed from its run (simple test values: the
    achieved fraction is delivered bits over completion time x accelerators x line rate, the
    wire efficiency payload bytes over wire bytes on the accelerator uplinks)."""
    r = podsim.read(run_file)
    m, links, s = r["messages"], r["links"], r["summary"]
    done = m["complete_ps"] >= 0
    latency = m["complete_ps"][done] - m["post_ps"][done]
    completion = int(m["complete_ps"].max() - m["post_ps"].min())
    up = links["kind"] == "acc-up"
    line_rate = float(links["rate_bps"][up].sum()) / s["accelerators"]
    return {
        "fabric": fabric,
        "workload": workload,
        "kind": KIND[workload],
        "algorithm": ALGORITHM[workload],
        "accelerators": s["accelerators"],
        "completion_ps": completion,
        "bytes_posted": int(m["bytes"].sum()),
        "bytes_delivered": s["bytes_delivered"],
        "bytes_dropped": s["bytes_dropped"],
        "line_rate_bps": line_rate,
        "wire_efficiency": float(m["bytes"].sum()) / float(links["tx_wire_bytes"][up].sum()),
        "achieved_fraction": s["bytes_delivered"]
        * 8.0
        / (completion * 1e-12 * s["accelerators"] * line_rate),
        "latency_p50_ps": int(np.percentile(latency, 50)),
        "latency_p99_ps": int(np.percentile(latency, 99)),
        "latency_max_ps": int(latency.max()),
        "peak_switch_buffer_bytes": s["peak_switch_buffer_bytes"],
        "pause_ps": s["pause_ps"],
        "stall_ps": s["stall_ps"],
        "replays": s["replays"],
        "wall_s": s["wall_seconds"],
        "events": s["events"],
    }


STRING_COLUMNS = ("fabric", "workload", "kind", "algorithm")
FLOAT_COLUMNS = ("line_rate_bps", "wire_efficiency", "achieved_fraction", "wall_s")


def make_study(podsim, tmp, sample_interval):
    """A study file of every fabric x workload; returns (path, {case: run file}, columns)."""
    tmp.mkdir(parents=True, exist_ok=True)
    files = {}
    rows = []
    for fabric in FABRICS:
        for workload in WORKLOADS:
            files[(fabric, workload)] = run_case(tmp, fabric, workload, sample_interval)
            rows.append(study_row(podsim, fabric, workload, files[(fabric, workload)]))
    columns = {}
    for name in rows[0]:
        values = [row[name] for row in rows]
        if name in STRING_COLUMNS:
            columns[name] = np.array(values, dtype=str)
        elif name in FLOAT_COLUMNS:
            columns[name] = np.array(values, dtype=np.float64)
        else:
            columns[name] = np.array(values, dtype=np.int64)
    path = tmp / "study.h5"
    with h5py.File(path, "w") as f:
        f.attrs["podsim_version"] = podsim.__version__
        f.attrs["format"] = "podsim-study"
        f.attrs["study_name"] = "tiny"
        f.attrs["quick"] = np.int64(0)
        f.attrs["scenario"] = "name: tiny\n"
        g = f.create_group("study")
        for name, values in columns.items():
            if name in STRING_COLUMNS:
                g.create_dataset(name, data=values.tolist(), dtype=h5py.string_dtype())
            else:
                g[name] = values
        f.attrs["overrides"] = np.array(["pod.accelerators=16"], dtype=h5py.string_dtype())
        for (fabric, workload), run_file in files.items():
            # As utils/study.py copies a run: the root attributes, then every member whole
            # (the pod-output suite checks a copy of the root group itself).
            with h5py.File(run_file, "r") as src:
                dst = f.require_group(f"runs/{fabric}").create_group(workload)
                for k, v in src.attrs.items():
                    dst.attrs[k] = v
                for k in src:
                    src.copy(src[k], dst, name=k)
    return path, files, columns


@pytest.fixture(scope="module")
def study(podsim, tmp_path_factory):
    if not PODSIM_RUN.is_file():
        pytest.skip(f"{PODSIM_RUN} not built")
    return make_study(podsim, tmp_path_factory.mktemp("study"), "100ns")


@pytest.fixture(scope="module")
def unsampled_study(podsim, tmp_path_factory):
    if not PODSIM_RUN.is_file():
        pytest.skip(f"{PODSIM_RUN} not built")
    return make_study(podsim, tmp_path_factory.mktemp("unsampled"), "0")


def assert_same(a, b, where=""):
    """Deep equality of results dicts (numpy arrays: values and dtype)."""
    if isinstance(a, dict):
        assert a.keys() == b.keys(), where
        for k in a:
            assert_same(a[k], b[k], f"{where}/{k}")
    elif isinstance(a, np.ndarray):
        assert a.dtype == b.dtype and np.array_equal(a, b), where
    else:
        assert a == b, where


def test_read_study_round_trips_columns_and_attrs(podsim, study):
    # What make_study wrote comes back: every column, same values; strings as str arrays.
    path, _, columns = study
    s = podsim.read_study(path)
    assert set(s) == {"study", "runs", "attrs"}
    assert s["study"].keys() == columns.keys()
    for name, values in columns.items():
        got = s["study"][name]
        assert got.dtype.kind == values.dtype.kind, name
        assert np.array_equal(got, values), name
    assert s["attrs"] == {
        "podsim_version": podsim.__version__,
        "format": "podsim-study",
        "study_name": "tiny",
        "quick": 0,
        "scenario": "name: tiny\n",
        "overrides": ["pod.accelerators=16"],
    }


def test_each_run_equals_read_of_its_own_file(podsim, study):
    # A run group is its results file copied whole, read by the same reader: the same dict,
    # except results_file, which names the study file.
    path, files, _ = study
    s = podsim.read_study(path)
    assert list(s["runs"]) == list(files)  # in the order of the /study rows
    for case, run_file in files.items():
        got = dict(s["runs"][case])
        assert got["results_file"] == str(path)
        got["results_file"] = str(run_file)
        assert_same(podsim.read(run_file), got, "/".join(case))


def test_read_accepts_an_open_h5py_group(podsim, study):
    # The h5py group's file and name go to the same reader (the file is open twice, read-only).
    path, _, _ = study
    with h5py.File(path, "r") as f:
        got = podsim.read(f["runs/cell/incast"])
        with pytest.raises(TypeError):
            podsim.read(f, "/runs/cell/incast")  # a group and a group name: ambiguous
    assert_same(podsim.read(path, "/runs/cell/incast"), got)


def test_read_group_errors_name_file_and_group(podsim, study):
    path, files, _ = study
    with pytest.raises(RuntimeError, match=r"study\.h5:/runs/sue/nope: no group"):
        podsim.read(path, "/runs/sue/nope")
    with pytest.raises(RuntimeError, match=r"study\.h5:/runs/sue: no attribute podsim_version"):
        podsim.read(path, "/runs/sue")
    # A plain results file is not a study.
    with pytest.raises(RuntimeError, match="not a podsim study file"):
        podsim.read_study(files[("sue", "incast")])


def test_buffer_envelope_holds_level_between_rows():
    # The sampler's rule (buffer-sampler.h): a switch without a row in an interval held the
    # end_bytes of its previous row (0 before its first). Switch 0: interval 1 (max 5, end 3),
    # interval 4 (max 7, end 0); switch 1: interval 2 (max 4, end 4). Per interval the largest
    # of the two: 0, 5, max(3,4), max(3,4), max(7,4), max(0,4), max(0,4).
    plot_study = load_plot_module()
    series = {
        "interval_ps": 10,
        "switch": np.array([0, 0, 1], np.uint32),
        "time_ps": np.array([10, 40, 20], np.int64),
        "max_bytes": np.array([5, 7, 4], np.uint64),
        "end_bytes": np.array([3, 0, 4], np.uint64),
    }
    t, top = plot_study.buffer_envelope(series, sim_time_ps=65)
    assert t.tolist() == [0, 10, 20, 30, 40, 50, 60]
    assert top.tolist() == [0, 5, 4, 4, 7, 4, 4]
    series["interval_ps"] = 0
    assert plot_study.buffer_envelope(series, 65)[0].size == 0


def test_buffer_envelope_peak_is_the_runs_peak(podsim, study):
    # The largest max_bytes of a switch over its rows is its peak occupancy (buffer-sampler.h),
    # so the envelope's maximum is the run's peak_switch_buffer_bytes.
    plot_study = load_plot_module()
    s = podsim.read_study(study[0])
    for case, run in s["runs"].items():
        _, top = plot_study.buffer_envelope(
            run["switch_buffer_series"], run["summary"]["sim_time_ps"]
        )
        assert top.size > 0, case
        assert int(top.max()) == run["summary"]["peak_switch_buffer_bytes"], case


def test_fallback_reader_matches_read_study(podsim, study):
    # The h5py fallback of plot_study.py reads the same values as podsim.read_study.
    plot_study = load_plot_module()
    full = plot_study.load(study[0], use_podsim=True)
    own = plot_study.read_study_h5py(study[0])
    for name, values in full["study"].items():
        assert np.array_equal(own["study"][name], values), name
    assert own["attrs"] == full["attrs"]
    assert own["runs"].keys() == full["runs"].keys()
    for case, run in own["runs"].items():
        ref = full["runs"][case]
        for c in ("post_ps", "complete_ps"):
            assert np.array_equal(run["messages"][c], ref["messages"][c]), case
        for c, v in run["switch_buffer_series"].items():
            assert np.array_equal(v, ref["switch_buffer_series"][c]), (case, c)
        assert run["summary"]["sim_time_ps"] == ref["summary"]["sim_time_ps"]


def check_pngs(out_dir, printed):
    assert {p.name for p in out_dir.iterdir()} == PNGS
    assert sorted(printed) == sorted(str(out_dir / n) for n in PNGS)
    for p in out_dir.iterdir():
        data = p.read_bytes()
        assert data.startswith(PNG_SIGNATURE) and len(data) > 1000, p


def run_script(*args):
    env = {**os.environ, "MPLBACKEND": "Agg"}
    return subprocess.run(
        [sys.executable, str(PLOT_STUDY), *map(str, args)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )


def test_cli_writes_four_pngs_beside_the_file(study):
    path = study[0]
    r = run_script(path)
    assert r.returncode == 0, r.stderr
    check_pngs(path.parent / "study-plots", r.stdout.split())


def test_plot_with_fallback_reader_and_out_dir(study, tmp_path):
    plot_study = load_plot_module()
    paths = plot_study.plot(study[0], tmp_path / "own", use_podsim=False)
    check_pngs(tmp_path / "own", paths)


def test_study_without_timeseries_still_plots(podsim, unsampled_study, tmp_path):
    # output.sample-interval 0: no series in any run; the buffer panels carry a note instead.
    path = unsampled_study[0]
    s = podsim.read_study(path)
    for run in s["runs"].values():
        assert run["switch_buffer_series"]["interval_ps"] == 0
    r = run_script(path, "--out", tmp_path / "plots")
    assert r.returncode == 0, r.stderr
    check_pngs(tmp_path / "plots", r.stdout.split())


def test_failed_case_and_missing_figures_still_plot(podsim, study, tmp_path):
    # A case whose run wrote no results keeps its row but has no run group; a figure that
    # could not be computed is NaN (utils/study.py) and a completion that never came is -1.
    # read_study leaves the case out of "runs", and every plot is still drawn (with the
    # fallback reader too).
    path = tmp_path / "partial.h5"
    path.write_bytes(study[0].read_bytes())
    with h5py.File(path, "r+") as f:
        del f["runs/cell/ring-ar"]
        f["study/wire_efficiency"][0] = np.nan
        f["study/achieved_fraction"][1] = np.nan
        f["study/completion_ps"][2] = -1
    s = podsim.read_study(path)
    assert ("cell", "ring-ar") not in s["runs"] and len(s["runs"]) == len(study[1]) - 1
    assert len(s["study"]["fabric"]) == len(study[1])
    plot_study = load_plot_module()
    for use_podsim in (True, False):
        out = tmp_path / f"plots-{use_podsim}"
        check_pngs(out, plot_study.plot(path, out, use_podsim=use_podsim))


def test_cli_rejects_missing_and_non_study_files(study, tmp_path):
    r = run_script(tmp_path / "none.h5")
    assert r.returncode == 1 and "none.h5: no such file" in r.stderr
    plain = next(iter(study[1].values()))
    r = run_script(plain, "--out", tmp_path / "p")
    assert r.returncode == 1 and "not a podsim study file" in r.stderr, r.stderr
