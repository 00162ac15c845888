# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""The flow engine against the packet engine (src/flow/doc/flow.rst, Validation): the
validation suite of utils/validate_engines.py (every fabric; incast, permutation, all-to-all,
ring and halving-doubling all-reduce; 64 and 1024 accelerators; small and large messages) with
both engines. It fails when a bandwidth-bound case is more than 5% or a collective or all-to-all
case more than 15% from the packet engine (the bounds flow.rst states), and when flow.rst's table
is not the one the engines give now. Also: ./podsim validate-engines on one scenario, and the
refusals of engine: flow.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BUILD = Path(os.environ.get("PODSIM_BUILD_DIR", ROOT / "build"))
PROG = BUILD / "bin" / "podsim-run"
SCRIPT = ROOT / "utils" / "validate_engines.py"
DOC = ROOT / "src" / "flow" / "doc" / "flow.rst"

pytestmark = pytest.mark.skipif(not PROG.is_file(), reason=f"{PROG} is not built")


def test_suite_within_bounds_and_doc_table_current(tmp_path):
    table = tmp_path / "table.rst"
    # A hang guard only (the suite takes a few minutes on two cores).
    p = subprocess.run([sys.executable, str(SCRIPT), "--prog", str(PROG), "--suite", "-j", "2",
                        "--rst", str(table), "--check-doc", str(DOC)],
                       capture_output=True, text=True, timeout=7200)
    assert p.returncode == 0, p.stdout[-4000:] + p.stderr[-4000:]
    lines = [l for l in table.read_text().splitlines() if "/" in l]
    assert len(lines) >= 30
    fabrics = {l.split("/", 1)[0].split("-", 1)[0] for l in lines}
    assert fabrics == {"ethernet", "sue", "ualink", "cell", "rifl"}


def test_one_scenario(tmp_path):
    scenario = tmp_path / "s.yaml"
    scenario.write_text(
        "name: s\n"
        "pod: {accelerators: 16, fabric: sue, planes: 2, link: {rate: 800Gbps}, "
        "flow-control: {kind: pfc}}\n"
        "workloads:\n"
        "  - {name: ring, kind: collective, collective: all-reduce, size: 1MiB}\n"
        "  - {name: a2a, kind: all-to-all, size: 64KiB, start: 100us}\n"
        "output: {progress: false, plots: false}\n")
    p = subprocess.run([sys.executable, str(SCRIPT), "--prog", str(PROG), str(scenario)],
                       capture_output=True, text=True, timeout=3600)
    assert p.returncode == 0, p.stderr
    rows = {l.split()[0]: l.split() for l in p.stdout.splitlines()[1:] if l.strip()}
    assert set(rows) == {"ring", "a2a"}
    for name, cells in rows.items():
        # The first percentage is the completion-time error (times are "44.08 us": two cells).
        err = float(next(c for c in cells if c.endswith("%")).rstrip("%"))
        assert abs(err) < 15, (name, cells)


@pytest.mark.parametrize("extra,field", [
    ("  - {kind: incast, senders: 2, receiver: 0, size: 4KiB, operation: read}\n",
     "workloads[1].operation"),
    ("faults:\n  - {kind: link-down, accelerator: 1, plane: 0, at: 1us}\n", "engine"),
])
def test_flow_engine_refuses_what_it_does_not_model(tmp_path, extra, field):
    scenario = tmp_path / "s.yaml"
    text = ("name: s\nengine: flow\npod: {accelerators: 4, fabric: sue}\nworkloads:\n"
            "  - {kind: permutation, size: 4KiB}\n")
    scenario.write_text(text + extra)
    p = subprocess.run([str(PROG), str(scenario), "--validate"], capture_output=True, text=True,
                       timeout=600)
    assert p.returncode == 2, p.stdout + p.stderr
    assert field in p.stderr and "engine: packet" in p.stderr, p.stderr


def test_flow_engine_refuses_bit_errors(tmp_path):
    scenario = tmp_path / "s.yaml"
    scenario.write_text("name: s\nengine: flow\npod: {accelerators: 4, link: {ber: 1e-9}}\n"
                        "workloads:\n  - {kind: permutation, size: 4KiB}\n")
    p = subprocess.run([str(PROG), str(scenario), "--validate"], capture_output=True, text=True,
                       timeout=600)
    assert p.returncode == 2 and "pod.link.ber" in p.stderr, p.stderr
