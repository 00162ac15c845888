# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""./podsim sweep (utils/sweep.py).

The sweep runs each combination as its own podsim-run process; a run in a sweep must give the
same figures as the same scenario run alone with the same overrides (runs share nothing), the
gathered file must have one row per combination with the varied keys as columns, and a
combination the loader refuses must stop the sweep with nothing written.
"""

import subprocess
import sys

import pytest

from conftest import DATA, ROOT

PROG = ROOT / "build" / "bin" / "podsim-run"
SWEEP = ROOT / "utils" / "sweep.py"

pytestmark = pytest.mark.skipif(not PROG.exists(), reason="podsim-run is not built")


def sweep(tmp_path, *args):
    out = tmp_path / "sweep.h5"
    p = subprocess.run([sys.executable, str(SWEEP), str(DATA / "small.yaml"), "--prog",
                        str(PROG), "--out", str(out), *args], capture_output=True, text=True)
    return p, out


def test_sweep_gathers_every_combination(podsim, tmp_path):
    h5py = pytest.importorskip("h5py")
    p, out = sweep(tmp_path, "--vary", "pod.accelerators=8,16",
                   "--vary", "workloads[0].size=4KiB,64KiB", "-j", "2")
    assert p.returncode == 0, p.stderr
    with h5py.File(out) as f:
        s = f["sweep"]
        acc = [v.decode() for v in s["pod.accelerators"][()]]
        size = [v.decode() for v in s["workloads[0].size"][()]]
        # The first key varies slowest (Cartesian product order).
        assert acc == ["8", "8", "16", "16"]
        assert size == ["4KiB", "64KiB", "4KiB", "64KiB"]
        assert list(s["accelerators"][()]) == [8, 8, 16, 16]
        assert (s["bytes_dropped"][()] == 0).all()
        assert (s["exit"][()] == 0).all()
        sim = list(s["sim_time_ps"][()])
        m = f["sweep_messages"]
        assert set(m["run"][()]) == {0, 1, 2, 3}
        assert sorted(f["runs"]) == ["0000", "0001", "0002", "0003"]
    # Each row equals the same run done alone.
    for i, (a, z) in enumerate([(8, "4KiB"), (8, "64KiB"), (16, "4KiB"), (16, "64KiB")]):
        r = podsim.run(DATA / "small.yaml", overrides={"pod.accelerators": a,
                                                       "workloads[0].size": z},
                       write_results=False)
        assert r["summary"]["sim_time_ps"] == sim[i]


def test_sweep_refused_combination_writes_nothing(tmp_path):
    p, out = sweep(tmp_path, "--vary", "pod.accelerators=8,100000")
    assert p.returncode == 2
    assert "pod.accelerators" in p.stderr
    assert not out.exists()
    assert not (tmp_path / "sweep.h5.partial").exists()


def test_sweep_validates_every_combination_before_running(tmp_path):
    # Every combination is validated (podsim-run --validate) before the first run: a refused
    # value stops the sweep with no run at all (the sweep once ran every other combination,
    # then wrote nothing).
    p, out = sweep(tmp_path, "--vary", "pod.accelerators=8,16,100000,32", "-j", "1")
    assert p.returncode == 2
    assert "pod.accelerators=100000" in p.stderr and "1 of 4 combination(s) refused" in p.stderr
    assert "run(s) of" not in p.stdout and "done" not in p.stdout
    assert not out.exists()


def test_sweep_needs_something_to_vary(tmp_path):
    p, out = sweep(tmp_path)
    assert p.returncode != 0 and "nothing to vary" in p.stderr
