# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""Shared fixtures of the Python tests: the podsim module and one run of data/small.yaml.

podsim is imported as is when it is importable (PYTHONPATH=build/python); otherwise from
$PODSIM_BUILD_DIR/python, then build/python. Tests that need it are skipped, with the reason,
when it cannot be imported (the extension is built by the project's CMake build).
"""

import importlib
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parent / "data"
SMALL = DATA / "small.yaml"
PLOT_SCRIPT = ROOT / "analysis" / "plot_results.py"

# Results-file items that differ between runs of one simulation (timings and memory).
RUN_DEPENDENT = ("wall", "build_s", "peak_rss", "rss_per")


def results_contents(path, skip=RUN_DEPENDENT):
    """{key: value} of every dataset ("D:name") and attribute ("A:name@key") of a results file,
    without the items whose key contains one of ``skip`` (lower case): what two runs of one
    simulation must have equal."""
    import h5py
    import numpy as np

    out = {}
    with h5py.File(path, "r") as f:

        def visit(name, obj):
            if isinstance(obj, h5py.Dataset):
                out["D:" + name] = np.asarray(obj[()])
            for k, a in obj.attrs.items():
                out[f"A:{name}@{k}"] = a

        f.visititems(visit)
        for k, a in f.attrs.items():
            out[f"A:/@{k}"] = a
    return {k: v for k, v in out.items() if not any(s in k.lower() for s in skip)}


def _import_podsim():
    """(module, None) or (None, why it cannot be imported)."""
    reasons = []
    try:
        return importlib.import_module("podsim"), None
    except ImportError as e:
        reasons.append(f"import podsim: {e}")
    candidates = []
    if os.environ.get("PODSIM_BUILD_DIR"):
        candidates.append(Path(os.environ["PODSIM_BUILD_DIR"]) / "python")
    candidates.append(ROOT / "build" / "python")
    for c in candidates:
        if not (c / "podsim" / "__init__.py").is_file():
            reasons.append(f"{c}/podsim: not built")
            continue
        sys.path.insert(0, str(c))
        for name in [n for n in sys.modules if n == "podsim" or n.startswith("podsim.")]:
            del sys.modules[name]
        try:
            return importlib.import_module("podsim"), None
        except ImportError as e:
            reasons.append(f"{c}: {e}")
            sys.path.remove(str(c))
    return None, "podsim cannot be imported (build it: ninja -C build): " + "; ".join(reasons)


@pytest.fixture(scope="session")
def podsim():
    """The podsim package; skips the test when it cannot be imported."""
    module, reason = _import_podsim()
    if module is None:
        pytest.skip(reason)
    return module


@pytest.fixture(scope="session")
def small_run(podsim, tmp_path_factory):
    """(results dict, results file) of one run of data/small.yaml."""
    path = tmp_path_factory.mktemp("small") / "small.h5"
    return podsim.run(SMALL, results_file=path), path
