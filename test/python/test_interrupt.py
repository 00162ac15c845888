# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""Ctrl-C (SIGINT) stops a run, a study and a sweep at once and keeps what had finished.

podsim-run stops its simulation within WallClockLimit::INTERRUPT_POLL_MS of a SIGINT, writes the
results so far with the root attribute ``incomplete`` = 1 and exits 130. A study
(``./podsim run --quick``, utils/study.py) and a sweep (``./podsim sweep``, utils/sweep.py) start
no more runs, stop the running ones and write the finished ones, marked ``incomplete``, then
exit 130. ``podsim.run`` raises ``podsim.Interrupted`` (a KeyboardInterrupt) carrying the results
so far. Before, a study ran all 12 cases for 41 s after Ctrl-C, a sweep started 8 more runs, and
podsim.run ignored it for 90 s, wrote the file, then raised and lost the results.

The tests send SIGINT as a terminal's Ctrl-C does (to the process group), once the first run or
case has finished, and check that the process ended and what the file holds; the time to stop is
printed, and bounded only loosely (tens of seconds), so a loaded machine does not fail them.
"""

import os
import signal
import subprocess
import sys
import time

import h5py
import pytest

from conftest import ROOT

PROG = ROOT / "build" / "bin" / "podsim-run"
PODSIM = ROOT / "podsim"
RIFL = ROOT / "examples" / "scenarios" / "rifl.yaml"
# A run of tens of seconds: the RIFL pod on 128 accelerators at BER 1e-4 (NAK-only Layer 1
# retransmits most frames). SIGINT goes once its first progress line is out (the run is on).
LONG = ["--set=pod.accelerators=128", "--set=pod.link.ber=1e-4"]
PROGRESS = "[podsim] sim"
BOUND_S = 60  # generous: the process must end, however loaded the machine

pytestmark = pytest.mark.skipif(not PROG.exists(), reason="podsim-run is not built")


def start(cmd, **kw):
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, **kw)


def ctrl_c(p):
    """SIGINT to the process group, as a terminal's Ctrl-C; returns the seconds to the exit."""
    t0 = time.monotonic()
    os.killpg(p.pid, signal.SIGINT)
    out, err = p.communicate(timeout=BOUND_S)
    dt = time.monotonic() - t0
    print(f"stopped {dt:.2f} s after SIGINT")
    return out, err, dt


def wait_for_line(stream, text, timeout):
    """Read lines of a pipe until one contains text; returns what was read."""
    seen = []
    t_end = time.monotonic() + timeout
    while time.monotonic() < t_end:
        line = stream.readline()
        if not line:
            break
        seen.append(line)
        if text in line:
            return "".join(seen)
    raise AssertionError(f"no line with {text!r} in: {''.join(seen)}")


def test_podsim_run_stops_and_writes_what_it_did(tmp_path):
    out = tmp_path / "r.h5"
    p = start([str(PROG), str(RIFL), f"--out={out}", *LONG])
    wait_for_line(p.stderr, PROGRESS, timeout=600)
    _, err, _ = ctrl_c(p)
    assert p.returncode == 130, err
    assert "interrupted (SIGINT)" in err
    with h5py.File(out) as f:
        assert f.attrs["incomplete"] == 1
        watchdog = f["summary"].attrs["watchdog"]
        assert (watchdog.decode() if isinstance(watchdog, bytes) else watchdog).startswith(
            "interrupted (SIGINT) at simulated")


def test_python_run_raises_with_the_results(tmp_path):
    out = tmp_path / "py.h5"
    script = (
        "import sys, podsim\n"
        "try:\n"
        f"    podsim.run({str(RIFL)!r}, {{'pod.accelerators': 128, 'pod.link.ber': 1e-4}},\n"
        f"               results_file={str(out)!r}, quiet=False)\n"
        "except podsim.Interrupted as e:\n"
        "    r = e.results\n"
        "    assert isinstance(e, KeyboardInterrupt)\n"
        "    print('interrupted', r['summary']['incomplete'], r['results_file'],\n"
        "          len(r['messages']['src']))\n"
        "    sys.exit(0)\n"
        "sys.exit(1)\n"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT / "build" / "python"))
    p = start([sys.executable, "-c", script], env=env)
    wait_for_line(p.stderr, PROGRESS, timeout=600)
    stdout, err, _ = ctrl_c(p)
    assert p.returncode == 0, stdout + err
    assert f"interrupted True {out} 16384" in stdout, stdout
    with h5py.File(out) as f:
        assert f.attrs["incomplete"] == 1


def test_study_stops_and_keeps_the_finished_cases(tmp_path):
    out = tmp_path / "quick.h5"
    p = start([str(PODSIM), "run", "--quick", "--no-plots", "-j", "2", f"--out={out}"])
    # The progress line: one per finished case when stderr is not a terminal.
    wait_for_line(p.stderr, " 1/27 cases done", timeout=1800)
    _, err, _ = ctrl_c(p)
    assert p.returncode == 130, err
    assert "interrupted" in err
    with h5py.File(out) as f:
        assert f.attrs["format"] == "podsim-study"
        assert f.attrs["incomplete"] == 1
        done = list(zip(f["study"]["fabric"].asstr()[()], f["study"]["workload"].asstr()[()]))
        missing = list(f.attrs["cases_not_finished"])
        assert len(done) >= 1 and len(missing) >= 1
        assert len(done) + len(missing) == 27
        assert (f["study"]["exit_status"][()] == 0).all()
        assert sorted(f"{a}/{b}" for a, b in done) == sorted(
            f"{a}/{b}" for a in f["runs"] for b in f["runs"][a])


def test_sweep_stops_and_keeps_the_finished_runs(tmp_path):
    out = tmp_path / "sweep.h5"
    p = start([str(PODSIM), "sweep", str(RIFL), "--set", "pod.accelerators=16", "--set",
               "pod.link.ber=1e-4", "--vary", "seed=1,2,3,4,5,6,7,8", "-j", "1", "--out",
               str(out)])
    wait_for_line(p.stdout, "[1/8]", timeout=1800)
    _, err, _ = ctrl_c(p)
    assert p.returncode == 130, err
    with h5py.File(out) as f:
        assert f.attrs["incomplete"] == 1
        runs = len(f["sweep"]["run"][()])
        assert 1 <= runs < 8
        assert runs + len(f.attrs["combinations_not_run"]) == 8
        assert (f["sweep"]["exit"][()] == 0).all()
