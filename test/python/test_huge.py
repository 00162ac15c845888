# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""Huge scenarios (src/pod/doc/pod.rst, Memory estimate and Progress line).

- A pod too large for the memory this process may use is refused before anything is built,
  naming its memory estimate and the key to change: 65,536 accelerators with default.yaml's
  workloads (an all-to-all of 65,536 x 65,535 messages, about 600 GiB of message table alone),
  on any machine; and a 16,384-accelerator pod (about 360 MiB) under ``limits.memory: 100MiB``. Both once passed
  ``--validate`` and sat in the build.
- The estimate the refusal rests on is within 25% of the peak resident memory a 4096-
  accelerator pod's build takes (pod.rst's table of measurements).
- ``limits.wall`` covers the build: a 16,384-accelerator pod (whose routes alone take seconds
  on any machine) under a 1 ms limit stops in its build with exit status 4, naming the build's
  step, and writes nothing; ``podsim.run`` raises RuntimeError. The limit once covered only the
  simulation.
- Running out of memory anyway is an error naming the step and the estimate, not a bare
  std::bad_alloc.
"""

import re
import subprocess

import pytest

from conftest import ROOT

PROG = ROOT / "build" / "bin" / "podsim-run"
DEFAULT = ROOT / "examples" / "scenarios" / "default.yaml"

pytestmark = pytest.mark.skipif(not PROG.exists(), reason="podsim-run is not built")

GIB = 1 << 30


def size_of(text):
    """'1.5 GiB' -> bytes."""
    value, unit = text.split()
    scale = {"B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40}[unit]
    return float(value) * scale


def pod(tmp_path, n, extra=""):
    """A pod of n Ethernet accelerators with a 4 KiB permutation, stopped at 1 ns."""
    path = tmp_path / f"pod{n}.yaml"
    path.write_text(
        f"name: pod{n}\nstop: 1ns\n{extra}pod: {{accelerators: {n}}}\n"
        "workloads:\n  - {kind: permutation, size: 4KiB}\n"
        f"output: {{plots: false, progress: false, file: {tmp_path / f'pod{n}.h5'}}}\n"
    )
    return path


def test_65536_accelerators_are_refused_before_the_build_with_the_estimate(tmp_path):
    out = tmp_path / "never.h5"
    p = subprocess.run(
        [str(PROG), str(DEFAULT), "--set=pod.accelerators=65536", f"--out={out}"],
        capture_output=True,
        text=True,
    )
    assert p.returncode == 2, p.stderr
    assert "pod.accelerators: this run needs an estimated" in p.stderr
    m = re.search(r"planned messages ([0-9.]+ [KMGT]?i?B)", p.stderr)
    # 64 incast senders + 65,536 x 65,535 all-to-all messages at 150 B each.
    assert m and size_of(m.group(1)) == pytest.approx((64 + 65536 * 65535) * 150, rel=0.01)
    assert "it may use" in p.stderr and "limits.memory" in p.stderr
    assert not out.exists()
    # --validate refuses it too.
    v = subprocess.run(
        [str(PROG), str(DEFAULT), "--set=pod.accelerators=65536", "--validate"],
        capture_output=True,
        text=True,
    )
    assert v.returncode == 2 and "this run needs an estimated" in v.stderr


def test_limits_memory_refuses_a_pod_above_it(tmp_path):
    p = subprocess.run(
        [str(PROG), str(pod(tmp_path, 16384, "limits: {memory: 100MiB}\n")), "--validate"],
        capture_output=True,
        text=True,
    )
    assert p.returncode == 2
    assert re.search(r"pod16384\.yaml:3: limits\.memory: this run needs an estimated", p.stderr)
    assert "more than the 100.0 MiB it may use (limits.memory)" in p.stderr


def test_the_estimate_is_within_a_quarter_of_a_build_s_peak_memory(tmp_path):
    path = pod(tmp_path, 4096)
    v = subprocess.run([str(PROG), str(path), "--validate"], capture_output=True, text=True)
    assert v.returncode == 0, v.stderr
    estimate = size_of(re.search(r"memory estimate: ([0-9.]+ \w+)", v.stdout).group(1))
    # Without the huge-page heap, whose pages count whole in the resident size.
    b = subprocess.run(
        [str(PROG), str(path), "--bench", "--huge-pages=false"], capture_output=True, text=True
    )
    assert b.returncode == 0, b.stderr
    rss = float(re.search(r"peak RSS +([0-9.]+) MiB", b.stdout).group(1)) * (1 << 20)
    assert 0.75 * rss <= estimate <= 1.25 * rss, (estimate, rss)


def test_limits_wall_stops_a_build(tmp_path):
    path = pod(tmp_path, 16384, "limits: {wall: 1ms}\n")
    p = subprocess.run([str(PROG), str(path)], capture_output=True, text=True)
    assert p.returncode == 4, p.stderr
    assert re.search(
        r"error: wall limit of 0\.001 s reached after [0-9.e-]+ s while building the pod "
        r"\(routes: \d+ of 16384\): nothing was simulated or written",
        p.stderr,
    ), p.stderr
    assert not (tmp_path / "pod16384.h5").exists()


def test_limits_wall_stops_a_build_in_python(podsim, tmp_path):
    with pytest.raises(RuntimeError, match="while building the pod"):
        podsim.run(pod(tmp_path, 16384, "limits: {wall: 1ms}\n"))
    # The simulator is usable afterwards.
    r = podsim.run(pod(tmp_path, 16), write_results=False)
    assert r["summary"]["accelerators"] == 16


def test_running_out_of_memory_is_a_clear_error(tmp_path):
    """Under an address-space limit below what a 16,384-accelerator build takes (about 330 MiB
    resident) but above what a small run takes (a 1024-accelerator pod runs under 120 MB), with
    limits.memory set past the estimate: the build runs out of memory, and the error says where
    and what was estimated (it was a bare std::bad_alloc)."""
    import resource

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (250 << 20, 250 << 20))

    path = pod(tmp_path, 16384, "limits: {memory: 64GiB}\n")
    p = subprocess.run([str(PROG), str(path)], capture_output=True, text=True, preexec_fn=limit)
    assert p.returncode == 1, p.stderr
    assert re.search(
        r"error: out of memory while building the pod: the run was estimated to need [0-9.]+ MiB "
        r"\(pod objects .*\) of the 250\.0 MiB this process may use \(the address-space limit "
        r"\(ulimit -v\)\)",
        p.stderr,
    ), p.stderr
    assert not (tmp_path / "pod16384.h5").exists()
