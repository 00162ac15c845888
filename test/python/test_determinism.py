# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""The same scenario and seed give the same results file.

Each shipped example (at 128 accelerators, as in test_examples.py; a mesh at its own size) runs twice into two HDF5 files,
which must be identical dataset for dataset and attribute for attribute, apart from the figures
that measure the run rather than the simulation: wall and build seconds and peak RSS.
"""

import re
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
# As test_examples.py: study files (a line `study:` at column 0) are not podsim.run scenarios.
EXAMPLES = sorted(p for p in (ROOT / "examples" / "scenarios").glob("*.yaml")
                  if not re.search(r"^study:", p.read_text(), re.MULTILINE))
MEASURED = {"wall_seconds", "build_seconds", "peak_rss_bytes"}


def contents(path):
    h5py = pytest.importorskip("h5py")
    out = {}
    with h5py.File(path, "r") as f:
        def visit(name, obj):
            for k, v in obj.attrs.items():
                if k not in MEASURED:
                    out[f"{name}@{k}"] = np.asarray(v).tolist()
            if isinstance(obj, h5py.Dataset):
                out[name] = np.asarray(obj[()]).tolist()
        for k, v in f.attrs.items():
            out[f"/@{k}"] = np.asarray(v).tolist()
        f.visititems(visit)
    return out


@pytest.mark.parametrize("scenario", EXAMPLES, ids=lambda p: p.name)
def test_same_scenario_same_results(podsim, scenario, tmp_path):
    mesh = "topology: mesh" in scenario.read_text()
    over = {} if mesh else {"pod.accelerators": 128}
    files = []
    for i in range(2):
        path = tmp_path / f"run{i}.h5"
        podsim.run(str(scenario), over, results_file=str(path))
        files.append(path)
    a, b = contents(files[0]), contents(files[1])
    assert a.keys() == b.keys()
    differ = [k for k in a if a[k] != b[k]]
    assert not differ, differ[:10]


# What the seed may change: the scenario text (it records the overrides) and, with random
# components, the outcomes they draw.
SCENARIO_TEXT = {"scenario"}


def run_with_seed(podsim, scenario, seed, path, extra=None):
    over = {"seed": seed}
    over.update(extra or {})
    podsim.run(str(scenario), over, results_file=str(path))
    return contents(path)


def test_seed_without_random_components_changes_nothing(podsim, tmp_path):
    """data/small.yaml (an incast and an all-to-all on an error-free pod) draws no random
    number: seeds 1 and 2 give the same results, the stored scenario text aside."""
    from conftest import SMALL

    a = run_with_seed(podsim, SMALL, 1, tmp_path / "s1.h5")
    b = run_with_seed(podsim, SMALL, 2, tmp_path / "s2.h5")
    assert a.keys() == b.keys()
    differ = [k for k in a if a[k] != b[k] and k not in SCENARIO_TEXT]
    assert not differ, differ[:10]
    assert a["scenario"] != b["scenario"]  # "# overrides: --set seed=..." records the seed


def test_seed_changes_the_random_streams(podsim, tmp_path):
    """A random permutation (Sattolo's algorithm on the workload's stream) and link bit errors
    (the channels' error streams): another seed draws another permutation and other errors,
    and the same seed again the same ones."""

    scenario = tmp_path / "random.yaml"
    scenario.write_text(
        "name: random\n"
        "pod: {accelerators: 16, switch: {radix: 16}, link: {rate: 100Gbps, ber: 1e-6},\n"
        "      llr: {mode: ack-nak}}\n"
        "workloads:\n"
        "  - {kind: permutation, size: 64KiB}\n"
        "output: {plots: false, progress: false}\n"
    )
    a = run_with_seed(podsim, scenario, 1, tmp_path / "a.h5")
    b = run_with_seed(podsim, scenario, 2, tmp_path / "b.h5")
    a2 = run_with_seed(podsim, scenario, 1, tmp_path / "a2.h5")
    assert a == a2
    assert a["messages/dst"] != b["messages/dst"], "another permutation"
    assert sorted(a["messages/dst"]) == sorted(b["messages/dst"]) == list(range(16))
    assert a["links/rx_discarded"] != b["links/rx_discarded"], "other bit errors"


def test_cli_seed_option(tmp_path):
    """podsim-run --seed=N is --set=seed=N: the results record the override."""
    import subprocess

    from conftest import SMALL

    prog = ROOT / "build" / "bin" / "podsim-run"
    if not prog.is_file():
        pytest.skip("podsim-run not built")
    out = tmp_path / "cli.h5"
    r = subprocess.run(
        [str(prog), str(SMALL), "--seed=7", f"--out={out}", "--quiet"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert r.returncode == 0, r.stderr
    text = contents(out)["scenario"]
    assert "seed=7" in str(text)
