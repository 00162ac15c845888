# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""The watchdogs of a run (src/pod/doc/robustness.rst, section Watchdogs).

A generic CBFC pod whose ports advertise 1 KiB of buffer per class can never send a 4096 B unit
(4114 B with its header: 65 credits of 64 B, and a port has 16). Without a watchdog the run would
end silently with every message outstanding; with limits.no-progress 50 us (checks every 5 us)
podsim-run stops it at the first check plus the timeout, 5 + 50 = 55 us, exits with status 3,
prints the report naming the stuck queues on stderr and keeps it in the results file. The same
pod with the default 64 KiB buffer finishes and exits 0. limits.wall stops a run that takes too
long (status 4) with a report of where the simulation stands.
"""

import subprocess

import pytest

from conftest import ROOT

PROG = ROOT / "build" / "bin" / "podsim-run"

pytestmark = pytest.mark.skipif(not PROG.exists(), reason="podsim-run is not built")

STUCK = (
    "name: stuck\n"
    "pod: {accelerators: 4, switch: {radix: 4}, flow-control: {kind: cbfc, credit-buffer: 1KiB}}\n"
    "workloads:\n"
    "  - {kind: all-to-all, size: 16KiB}\n"
    "limits: {no-progress: 50us, check-interval: 5us}\n"
    "output: {plots: false, progress: false}\n"
)


def run(tmp_path, text, *sets):
    path = tmp_path / "scenario.yaml"
    path.write_text(text)
    out = tmp_path / "out.h5"
    args = [str(PROG), str(path), f"--out={out}", "--quiet"] + [f"--set={s}" for s in sets]
    return subprocess.run(args, capture_output=True, text=True), out


def test_stuck_run_exits_nonzero_with_report(podsim, tmp_path):
    p, out = run(tmp_path, STUCK)
    assert p.returncode == 3, p.stderr
    assert "error: no progress at +55us" in p.stderr
    for q in range(4):
        assert f"acc{q}:port0 (acc{q}->p0.sw0) tx queue" in p.stderr
    assert "12 of 12 messages outstanding" in p.stderr
    assert "STOPPED BY WATCHDOG" in p.stdout
    r = podsim.read(out)
    assert r["summary"]["watchdog"].startswith("no progress at +55us")
    assert r["summary"]["sim_time_ps"] == 55_000_000
    assert (r["messages"]["deliver_ps"] < 0).all()


def test_progressing_run_exits_zero(podsim, tmp_path):
    p, out = run(tmp_path, STUCK, "pod.flow-control.credit-buffer=64KiB")
    assert p.returncode == 0, p.stderr
    r = podsim.read(out)
    assert r["summary"]["watchdog"] == ""
    assert (r["messages"]["deliver_ps"] >= 0).all()


def test_wall_limit_exits_4_with_report(tmp_path):
    # 16 accelerators, a 1 MiB all-to-all; a 1 ns wall limit expires before the first delivery.
    text = STUCK.replace("accelerators: 4, switch: {radix: 4}, flow-control: {kind: cbfc, "
                         "credit-buffer: 1KiB}", "accelerators: 16")
    text = text.replace("size: 16KiB", "size: 1MiB")
    p, _ = run(tmp_path, text, "limits.wall=1ns")
    assert p.returncode == 4, p.stderr
    assert "error: wall limit of 1e-09 s reached at simulated" in p.stderr
    assert "outstanding" in p.stderr
