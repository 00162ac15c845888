# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""The watchdogs of a run (src/pod/doc/robustness.rst, section Watchdogs).

A generic CBFC pod whose ports advertise 1 KiB of buffer per class can never send a 4096 B unit
(4114 B with its header: 65 credits of 64 B, and a port has 16). It once ran until the watchdog
stopped it; the loader now refuses it before the run, naming the key. The same pod with the
default 64 KiB buffer finishes and exits 0. limits.wall stops a run that takes too
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


def test_a_pod_that_could_never_send_is_refused_before_the_run(tmp_path):
    # It once ran until the watchdog stopped it at 55 us (and, with the watchdog off, exited 0
    # with every message failed and no cause): the loader now refuses the buffer, naming it.
    # The watchdog's report on such a pod, made after loading, is checked by the pod-watchdog
    # suite.
    p, out = run(tmp_path, STUCK)
    assert p.returncode == 2, p.stderr
    assert "scenario.yaml:2: pod.flow-control.credit-buffer: must hold at least one frame, " \
        "4114 B" in p.stderr
    assert not out.exists()


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
