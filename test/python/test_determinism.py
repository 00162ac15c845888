# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""Issue 12 [robust]: the same scenario and seed give the same results file.

Each shipped example (at 128 accelerators, as in test_examples.py; a mesh at its own size) runs twice into two HDF5 files,
which must be identical dataset for dataset and attribute for attribute, apart from the figures
that measure the run rather than the simulation: wall and build seconds and peak RSS.
"""

from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples" / "scenarios").glob("*.yaml"))
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
