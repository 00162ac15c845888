# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""scratch/pod-incast.cc, the starting point for one's own programs, is built by the normal build
(build/bin/scratch-pod-incast) and prints what its closed form says.

The program runs a k-to-1 incast of S bytes per sender on an Ethernet pod of one single-switch
plane: 800 Gb/s links of 3 m twinax, a 250 ns cut-through switch, 4096 B MTU. From
src/fabric/doc/fabric.rst:

- a unit of p payload bytes is a frame of p + 18 B and p + 18 + 20 B on the wire (header,
  preamble and interframe gap), serialized in T(p) = (p + 38) x 8 / rate: 41340 ps for a full
  4096 B unit at 800 Gb/s (10 ps per byte);
- the link delay d is the cable's propagation delay plus FecLatency (0 here): 3 m of twinax at
  4.6 ns/m (SUE A.1) is 13800 ps; the switch acts L = 250 ns after a unit's head arrives;
- Validation, the incast case: the receiver's link starts at d + L and stays busy until its last
  unit has left, so its busy time is the sum of T over the k x ceil(S / 4096) units, and the
  last byte reaches the receiver at 2d + L + busy.

Byte conservation: every message is delivered, k x S bytes, on k x (S + 38 x units) wire bytes.
"""

import os
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BUILD = Path(os.environ.get("PODSIM_BUILD_DIR", ROOT / "build"))
PROG = BUILD / "bin" / "scratch-pod-incast"

MTU = 4096
OVERHEAD = 18 + 20  # Ethernet header + preamble, start delimiter and interframe gap
D_PS = 13_800  # 3 m twinax at 4.6 ns/m
L_PS = 250_000  # switch pipeline latency


def serialization_ps(payload, rate_bps):
    """T of one unit, in ps (an exact integer for the rates used here)."""
    ps = (payload + OVERHEAD) * 8 * 10**12 / rate_bps
    assert ps == int(ps)
    return int(ps)


def run(*args):
    if not PROG.is_file():
        pytest.skip(f"{PROG} is not built (./podsim build)")
    r = subprocess.run([str(PROG), *args], capture_output=True, text=True, cwd=ROOT, check=False)
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


@pytest.mark.parametrize(
    "senders,size,rate",
    [
        (4, 1 << 20, 800e9),  # the defaults: 1024 full units
        (3, 10_000, 800e9),  # 4096 + 4096 + 1808 B per message
        (15, 64 << 10, 800e9),  # every other accelerator
        (2, 8192, 400e9),  # --set overrides a scenario key: T doubles
    ],
)
def test_incast_meets_its_closed_form(senders, size, rate):
    args = [f"--senders={senders}", f"--size={size}"]
    if rate != 800e9:
        args.append(f"--set=pod.link.rate={int(rate / 1e9)}Gbps")
    out = run(*args)

    full, rest = divmod(size, MTU)
    units = full + (1 if rest else 0)
    per_message = full * serialization_ps(MTU, rate) + (serialization_ps(rest, rate) if rest else 0)
    busy = senders * per_message

    m = re.search(
        r"incast: (\d+) messages, (\d+) B, (\d+) not delivered; "
        r"first delivered at (\d+) ps, last at (\d+) ps",
        out,
    )
    assert m, out
    messages, sent, lost, first, last = map(int, m.groups())
    assert (messages, sent, lost) == (senders, senders * size, 0)
    link = re.findall(r"receiver link (\S+): (\d+) packets, (\d+) wire B, busy (\d+) ps", out)
    assert len(link) == 1, out
    name, packets, wire, busy_ps = link[0][0], *map(int, link[0][1:])
    assert name == "p0.sw0->acc0"
    assert packets == senders * units
    assert wire == senders * (size + OVERHEAD * units)
    assert busy_ps == busy
    assert last == 2 * D_PS + L_PS + busy
    # Round robin over the inputs: the messages finish within one round of k units.
    assert last - first <= senders * serialization_ps(MTU, rate)
    # podsim's own summary table is printed too, with every byte delivered.
    assert f"bytes: sent {senders * size}, received {senders * size}" in out


def test_scratch_programs_are_built_from_every_file():
    # Every scratch/*.cc becomes build/bin/scratch-<name> (CMakeLists.txt).
    if not PROG.is_file():
        pytest.skip(f"{PROG} is not built (./podsim build)")
    for src in (ROOT / "scratch").glob("*.cc"):
        assert (BUILD / "bin" / f"scratch-{src.stem}").is_file(), src


def test_bad_override_is_an_error_naming_the_key():
    if not PROG.is_file():
        pytest.skip(f"{PROG} is not built (./podsim build)")
    r = subprocess.run(
        [str(PROG), "--set=pod.link.rate=fast"], capture_output=True, text=True, check=False
    )
    assert r.returncode == 2
    assert "pod.link.rate" in r.stderr
