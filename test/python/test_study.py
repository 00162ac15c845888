# SPDX-License-Identifier: GPL-2.0-only
"""The default study (examples/scenarios/pod-1024.yaml) in its --quick version, and the study
runner (utils/study.py).

The quick study runs every case of the default study (SUE, UALink and the cell fabric x a 63:1
incast, an all-to-all, a ring and a halving-doubling all-reduce, a dense and a mixture-of-experts
training step) on 64 accelerators. Its table
must keep these invariants, each from a law rather than from a recorded run:

- every fabric delivered every byte: bytes delivered = bytes posted, nothing dropped, every
  message complete (conservation; each fabric is lossless here: PFC, UALink credits, the cell
  fabric's credits between stages);
- the achieved bandwidth never exceeds line rate x wire efficiency: no accelerator can send or
  receive payload faster than its links carry it at their best framing (utils/study.py
  WIRE_EFFICIENCY gives each fabric's from its spec);
- the algorithms are ordered as the alpha-beta model orders them: for an all-reduce of S bytes
  over p ranks on a non-blocking fabric, ring takes 2(p-1) alpha + 2(p-1)/p S beta and
  halving-doubling 2 log2(p) alpha + 2(p-1)/p S beta: the same bandwidth term and fewer
  latency terms, so halving-doubling finishes first, and neither finishes before the bandwidth
  term alone at the fabric's best efficiency;
- a training step's compute does not depend on the fabric: its compute nodes last what the
  roofline model gives them, so the mean compute time per accelerator is the same on every
  fabric, to the picosecond, and the exposed communication is the iteration minus it.
"""

import math
import subprocess
import sys
from pathlib import Path

import h5py
import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
STUDY = ROOT / "examples" / "scenarios" / "pod-1024.yaml"
PROG = ROOT / "build" / "bin" / "podsim-run"
RUNNER = ROOT / "utils" / "study.py"


def col(t, name):
    v = t[name][()]
    return np.array([x.decode() if isinstance(x, bytes) else x for x in v]) if v.dtype.kind in "OS" else v


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    out = tmp_path_factory.mktemp("study") / "quick.h5"
    p = subprocess.run([sys.executable, str(RUNNER), str(STUDY), "--prog", str(PROG), "--quick",
                        "--out", str(out), "--no-plots", "-j", "2"],
                       capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 0, p.stderr
    with h5py.File(out, "r") as f:
        table = {k: col(f["study"], k) for k in f["study"]}
        attrs = dict(f.attrs)
        runs = {(fa, w): {"summary": dict(f["runs"][fa][w]["summary"].attrs),
                          "bytes": f["runs"][fa][w]["messages"]["bytes"][()]}
                for fa in f["runs"] for w in f["runs"][fa]}
    return {"table": table, "attrs": attrs, "runs": runs, "stdout": p.stdout,
            "stderr": p.stderr, "path": out}


def rows(q):
    t = q["table"]
    return [{k: t[k][i] for k in t} for i in range(len(t["fabric"]))]


def test_every_case_ran(quick):
    t = quick["table"]
    assert quick["attrs"]["format"] == "podsim-study"
    assert quick["attrs"]["quick"] == 1
    cases = set(zip(t["fabric"], t["workload"]))
    fabrics = {"sue", "ualink", "cell"}
    workloads = {"incast", "all-to-all", "ring-all-reduce", "hd-all-reduce", "train-dense",
                 "train-moe"}
    flow = {"hd-all-reduce-1GiB", "all-to-all-1MiB", "train-dense-7b"}
    assert cases == {(f, w) for f in fabrics for w in workloads | flow}
    # The engine column: the realistic sizes ran on the flow engine, the rest on the packets.
    for fa, w, e in zip(t["fabric"], t["workload"], t["engine"]):
        assert e == ("flow" if w in flow else "packet"), (fa, w, e)
    assert set(quick["runs"]) == cases
    assert (t["accelerators"] == 64).all()
    assert (t["exit_status"] == 0).all()


def test_table_is_printed(quick):
    out = quick["stdout"]
    assert "study pod-1024 (quick): 27 cases, 64 accelerators" in out
    head = [l for l in out.splitlines() if l.startswith("fabric")]
    assert head and "completion" in head[0] and "achieved" in head[0] and "p99" in head[0]
    for r in rows(quick):
        assert any(l.split()[:2] == [r["fabric"], r["workload"]] for l in out.splitlines())
    # The progress line: one per finished case (stderr is not a terminal here).
    assert "27/27 cases done" in quick["stderr"]


def test_every_fabric_delivered_every_byte(quick):
    for r in rows(quick):
        case = f"{r['fabric']}/{r['workload']}"
        assert r["bytes_posted"] > 0, case
        assert r["bytes_delivered"] == r["bytes_posted"], case
        assert r["bytes_dropped"] == 0, case
        assert r["messages_incomplete"] == 0, case
        s = quick["runs"][(r["fabric"], r["workload"])]["summary"]
        assert s["bytes_received"] == s["bytes_sent"] == r["bytes_posted"], case
        assert int(quick["runs"][(r["fabric"], r["workload"])]["bytes"].sum()) == r["bytes_posted"]


def test_achieved_bandwidth_within_line_rate_times_efficiency(quick):
    for r in rows(quick):
        case = f"{r['fabric']}/{r['workload']}"
        assert 0 < r["wire_efficiency"] < 1, case
        assert 0 < r["achieved_fraction"] <= r["wire_efficiency"] * (1 + 1e-9), case
        # The same bound written as a time: the busiest accelerator's bytes at line rate x
        # efficiency take at least this long.
        floor_ps = r["busiest_endpoint_bytes"] * 8 / (r["line_rate_bps"] * r["wire_efficiency"]) * 1e12
        assert r["completion_ps"] >= floor_ps * (1 - 1e-9), case


def test_incast_is_bound_by_the_receiver(quick):
    # 63 senders x 256 KiB into one accelerator: the receiver's bytes are the whole incast.
    for r in rows(quick):
        if r["workload"] == "incast":
            assert r["busiest_endpoint_bytes"] == 63 * 256 * 1024
            assert r["bytes_posted"] == 63 * 256 * 1024


def test_all_reduce_order_follows_alpha_beta(quick):
    by = {(r["fabric"], r["workload"]): r for r in rows(quick)}
    for fabric in ("sue", "ualink", "cell"):
        ring, hd = by[(fabric, "ring-all-reduce")], by[(fabric, "hd-all-reduce")]
        assert ring["algorithm"] == "ring" and hd["algorithm"] == "halving-doubling"
        p, size = ring["communicator_size"], ring["size_bytes"]
        assert (p, size) == (hd["communicator_size"], hd["size_bytes"])
        # Fewer latency terms, the same bandwidth term: halving-doubling first.
        assert hd["completion_ps"] < ring["completion_ps"], fabric
        # Neither beats the bandwidth term at the fabric's best efficiency.
        beta_term_ps = 2 * (p - 1) / p * size * 8 / (ring["line_rate_bps"] * ring["wire_efficiency"]) * 1e12
        for r in (ring, hd):
            assert r["completion_ps"] >= beta_term_ps, fabric
        # The difference is latency terms only: 2 (p - 1 - log2 p) alpha with alpha > 0, and
        # alpha no larger than the ring's slowest message (each ring step is one message).
        alpha_ps = (ring["completion_ps"] - hd["completion_ps"]) / (2 * (p - 1 - math.log2(p)))
        assert 0 < alpha_ps <= ring["latency_max_ps"], fabric


def test_study_refuses_bad_input(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(STUDY.read_text().replace("ordering: strict", "orderin: strict"))
    out = tmp_path / "bad.h5"
    p = subprocess.run([sys.executable, str(RUNNER), str(bad), "--prog", str(PROG), "--out",
                        str(out), "--no-plots"], capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 2
    assert "bad.yaml:" in p.stderr and "pod.sue.orderin: unknown key" in p.stderr
    assert "(in study case sue/incast)" in p.stderr
    assert not out.exists()
    # A plain scenario is not a study.
    p = subprocess.run([sys.executable, str(RUNNER), str(ROOT / "examples" / "scenarios" /
                                                         "default.yaml"), "--prog", str(PROG)],
                       capture_output=True, text=True, cwd=ROOT)
    assert p.returncode != 0 and "not a study" in p.stderr


def test_training_steps(quick):
    steps = [r for r in rows(quick) if r["workload"].startswith("train-")]
    others = [r for r in rows(quick) if not r["workload"].startswith("train-")]
    assert len(steps) == 9
    for r in others:
        assert r["iteration_ps"] == r["compute_ps"] == r["exposed_comm_ps"] == -1
    for wl in ("train-dense", "train-moe", "train-dense-7b"):
        mine = [r for r in steps if r["workload"] == wl]
        assert len({int(r["compute_ps"]) for r in mine}) == 1, mine  # fabric-independent
        for r in mine:
            case = f"{r['fabric']}/{wl}"
            assert 0 < r["compute_ps"] < r["iteration_ps"], case
            # exposed = iteration - compute (means over accelerators, rounded to the ps)
            assert abs(r["exposed_comm_ps"] - (r["iteration_ps"] - r["compute_ps"])) <= 1, case
    # The second table, one row per training case.
    out = quick["stdout"]
    assert any(l.startswith("fabric") and "exposed comm" in l for l in out.splitlines())
