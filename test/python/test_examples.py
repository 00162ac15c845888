# SPDX-License-Identifier: GPL-2.0-only
"""Every scenario shipped in examples/scenarios runs, at reduced size, and keeps its promises.

Each example (study files excepted) is run with 128 accelerators (the defaults use up to 1024;
128 keeps every other value valid: the 64-sender incast, the radix-64 leaf-spine; a mesh runs at its own size, which
its planes depend on) through podsim.run, without writing a results file. The fabric of these examples is lossless in practice (64 MiB or 16 MiB buffers, no
bit errors), so the expectations are conservation laws: every message delivered, no drop, bytes
received = bytes sent.

The Pyxis scenarios of examples/pyxis run at their own size (their model's chips, 8):
every chip runs every layer and the /pyxis tables pass analysis/pyxis_timeline.py's checks.
"""

import importlib.util
import re
from pathlib import Path

import h5py
import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
# Study files (a line `study:` at column 0, run by utils/study.py) have no top-level workloads
# and cannot be run by podsim.run; test/python/test_study.py covers them.
EXAMPLES = sorted(p for p in (ROOT / "examples" / "scenarios").glob("*.yaml")
                  if not re.search(r"^study:", p.read_text(), re.MULTILINE))
# Pyxis scenarios beside their model files in examples/pyxis: the files with a
# workloads list (the model files have layers instead).
PYXIS_EXAMPLES = sorted(p for p in (ROOT / "examples" / "pyxis").glob("*.yaml")
                        if "\nworkloads:" in p.read_text())


def test_there_are_examples():
    assert EXAMPLES, "examples/scenarios/*.yaml"


@pytest.mark.parametrize("scenario", EXAMPLES, ids=lambda p: p.name)
def test_example_runs_and_conserves_bytes(podsim, scenario):
    # A mesh's planes are tied to its size (accelerators - 1 per link set): run it as it is.
    mesh = "topology: mesh" in scenario.read_text()
    over = {} if mesh else {"pod.accelerators": 128}
    r = podsim.run(str(scenario), over, write_results=False)
    m, s = r["messages"], r["summary"]
    assert len(m["src"]) > 0
    assert (m["deliver_ps"] >= 0).all(), "every message delivered"
    assert (m["deliver_ps"] >= m["post_ps"]).all()
    assert s["bytes_dropped"] == 0
    assert s["bytes_received"] == s["bytes_sent"] == int(m["bytes"].sum())
    # DESIGN.md rule 3: at most 3 scheduler events per packet-hop.
    assert s["events"] <= 3 * s["packet_hops"]


def test_there_are_pyxis_examples():
    assert PYXIS_EXAMPLES, "examples/pyxis/*.yaml with workloads"


@pytest.mark.parametrize("scenario", PYXIS_EXAMPLES, ids=lambda p: p.name)
def test_pyxis_example_runs(podsim, scenario, tmp_path):
    # Run at its own size (its accelerators are its model's chips, already a handful): every
    # chip of the model runs every layer, and the /pyxis tables pass analysis/pyxis_timeline.py's
    # consistency checks (each layer is its compute plus its exposed communication plus idle).
    spec = importlib.util.spec_from_file_location(
        "pyxis_timeline", ROOT / "analysis" / "pyxis_timeline.py")
    tl = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tl)
    h5 = tmp_path / "pyxis.h5"
    r = podsim.run(str(scenario), results_file=str(h5))
    trips, layers = tl.read_pyxis(h5)
    assert len(trips["chip"]) > 0
    assert tl.check_layers(layers) == []
    assert tl.check_trips(trips, layers) == []
    chips = sorted(set(np.asarray(layers["chip"]).tolist()))
    assert chips == list(range(len(chips))) and len(chips) <= r["summary"]["accelerators"]
    with h5py.File(h5, "r") as f:
        assert r["summary"]["sim_time_ps"] == round(float(f["pyxis/layers/end_ns"][()].max()) * 1e3)
