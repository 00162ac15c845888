# SPDX-License-Identifier: GPL-2.0-only
"""Invariant checking (src/pod/doc/robustness.rst): every example scenario, at the reduced size of
test_examples.py, runs with the checks on (podsim.run(..., check=True)) and passes them, and the
byte accounts the checks report agree with closed forms from the message table; a lossy incast
passes too, its lost bytes equal to posted - delivered; podsim-run --check and the scenario key
check do the same from the command line.

The violations themselves (a credit returned twice, a buffer released twice, a sequence number
regressing, an event in the past, bytes vanishing) are provoked in the pod-invariant-check
TestSuite, through test hooks that a scenario cannot reach.
"""

import os
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
# As test_examples.py: study files (a line `study:` at column 0) are not podsim.run scenarios.
EXAMPLES = sorted(p for p in (ROOT / "examples" / "scenarios").glob("*.yaml")
                  if not re.search(r"^study:", p.read_text(), re.MULTILINE))
PODSIM_RUN = Path(os.environ.get("PODSIM_BUILD_DIR", ROOT / "build")) / "bin" / "podsim-run"


def _flows(m):
    """Distinct (source, destination) pairs of a message table."""
    return {(int(s), int(d)) for s, d in zip(m["src"], m["dst"])}


@pytest.mark.parametrize("scenario", EXAMPLES, ids=lambda p: p.name)
def test_example_passes_the_checks(podsim, scenario):
    # As test_examples.py: 128 accelerators, a mesh at its own size (its planes depend on it).
    mesh = "topology: mesh" in scenario.read_text()
    over = {} if mesh else {"pod.accelerators": 128}
    r = podsim.run(str(scenario), over, write_results=False, check=True)
    m, s = r["messages"], r["summary"]
    assert s["checked"] is True
    assert s["checks"] > 0
    # One conservation check per flow of the message table.
    assert s["checked_flows"] == len(_flows(m))
    # Lossless examples: posted = delivered per flow, nothing lost, nothing left in flight.
    assert s["check_lost_bytes"] == 0
    assert s["check_in_flight_bytes"] == 0
    assert s["bytes_delivered"] == int(m["bytes"].sum())


def test_checks_are_off_by_default(podsim):
    r = podsim.run(str(ROOT / "test" / "python" / "data" / "small.yaml"), write_results=False)
    s = r["summary"]
    assert s["checked"] is False
    assert s["checks"] == 0


def test_lossy_incast_accounts_every_byte(podsim):
    # 63-to-1 incast of 256 KiB per sender over 64 accelerators with no flow control: 15.75 MiB
    # into one port through a 1 MiB switch buffer overflows it. Each message is delivered or lost
    # with a counted drop on its flow: posted = delivered + lost.
    r = podsim.run(
        str(ROOT / "examples" / "bench" / "incast-none.yaml"),
        {
            "pod.accelerators": 64,
            "pod.planes": 1,
            "pod.switch.radix": 64,
            "pod.switch.buffer": "1MiB",
            "workloads[0].senders": 63,
            "workloads[0].size": "256KiB",
        },
        write_results=False,
        check=True,
    )
    m, s = r["messages"], r["summary"]
    posted = 63 * 256 * 1024
    assert int(m["bytes"].sum()) == posted
    assert s["checked"] is True
    assert s["checked_flows"] == 63
    assert s["bytes_dropped"] > 0
    delivered = int(m["bytes"][m["deliver_ps"] >= 0].sum())
    assert s["check_lost_bytes"] == posted - delivered > 0
    assert s["check_in_flight_bytes"] == 0


def _podsim_run(*args):
    if not PODSIM_RUN.is_file():
        pytest.skip(f"{PODSIM_RUN} not built")
    return subprocess.run(
        [str(PODSIM_RUN), *args], capture_output=True, text=True, cwd=ROOT
    )


@pytest.mark.parametrize("how", [["--check"], ["--set=check=true"]], ids=["option", "key"])
def test_podsim_run_check(how):
    p = _podsim_run(
        str(ROOT / "test" / "python" / "data" / "small.yaml"), "--bench", "--quiet", *how
    )
    assert p.returncode == 0, p.stderr
    assert "invariant checks: passed (" in p.stdout


def test_stopped_run_counts_bytes_in_flight(podsim):
    # Stopped at 1 us, before the 64 KiB messages of the small scenario can all arrive: what is
    # not delivered is in flight, and the checks pass.
    r = podsim.run(
        str(ROOT / "test" / "python" / "data" / "small.yaml"),
        {"stop": "1us"},
        write_results=False,
        check=True,
    )
    m, s = r["messages"], r["summary"]
    assert s["checked"] is True
    undelivered = int(m["bytes"][m["deliver_ps"] < 0].sum())
    assert undelivered > 0
    assert s["check_in_flight_bytes"] + s["check_lost_bytes"] == undelivered
    assert np.all(m["deliver_ps"][m["deliver_ps"] >= 0] <= 1_000_000)


def _random_cases(n, seed=12):
    """n random variations of data/small.yaml (Ethernet, 16 accelerators, incast + all-to-all):
    flow control, buffer, bit errors, link-level retry, transport, sizes and the seed drawn at
    random (a fixed generator seed, so the cases are the same in every run). The small (lossy)
    buffer goes with flow control none only: PFC needs a per-port share above its headroom and
    CBFC a buffer that backs the credits its ports advertise (the loader refuses less)."""
    import random

    rng = random.Random(seed)
    cases = []
    for _ in range(n):
        fc = rng.choice(["none", "pfc", "cbfc"])
        over = {
            "seed": rng.randint(1, 1000),
            "pod.flow-control.kind": fc,
            "pod.switch.buffer": rng.choice(["256KiB", "64MiB"]) if fc == "none" else "64MiB",
            "pod.link.ber": rng.choice([0, 0, 1e-7, 1e-6]),
            "pod.llr.mode": rng.choice(["off", "ack-nak", "nak-only"]),
            "pod.transport.kind": rng.choice(["none", "go-back-n"]),
            "workloads[0].size": rng.choice(["4KiB", "64KiB", "256KiB"]),
            "workloads[1].size": rng.choice(["1KiB", "4KiB", "16KiB"]),
        }
        cases.append(over)
    return cases


@pytest.mark.parametrize("over", _random_cases(16), ids=lambda o: "-".join(str(v) for v in o.values()))
def test_random_scenario_passes_the_checks(podsim, over):
    # Each case passes the checks; its undelivered bytes are exactly those the checks account
    # as lost (drops with a reason, failed connections): posted = delivered + lost per flow,
    # summed here over flows; nothing is in flight (no stop time).
    r = podsim.run(
        str(ROOT / "test" / "python" / "data" / "small.yaml"), over, write_results=False, check=True
    )
    m, s = r["messages"], r["summary"]
    assert s["checked"] is True
    assert s["checked_flows"] == len(_flows(m))
    delivered = int(m["bytes"][m["deliver_ps"] >= 0].sum())
    assert int(m["bytes"].sum()) == delivered + s["check_lost_bytes"]
    assert s["check_in_flight_bytes"] == 0
    if s["check_lost_bytes"] > 0:
        assert s["bytes_dropped"] > 0 or s["failed_connections"] > 0
