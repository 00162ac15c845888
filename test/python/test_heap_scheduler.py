# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""Podsim's d-ary heap scheduler (FabricHeapScheduler, scheduler: heap2, heap4,
heap8; heap4 is the default) runs the same events in the same order as ns-3's MapScheduler.

Both order events by (timestamp, uid), a total order, so a run must be identical event for event:
the same event count, the same simulated end, and every dataset of the results file equal element
by element (only /scenario differs: its header names the --set overrides, scheduler included).
The scenarios: a 64-XPU SUE all-to-all (the SUE benchmark at 64 XPUs), a 64-accelerator UALink
all-to-all, and a cell-fabric all-to-all, whose adapter removes its idle timers with
Simulator::Remove (the heap's lazy Remove).
"""

import h5py
import numpy as np
import pytest

from conftest import ROOT

HEAPS = ["heap2", "heap4", "heap8"]

SCENARIOS = {
    "sue64": (ROOT / "examples" / "bench" / "sue-all-to-all.yaml", {"pod.accelerators": 64}),
    "ualink64": (
        "name: ua64\n"
        "pod: {fabric: ualink, accelerators: 64, planes: 4, switch: {radix: 64},\n"
        "      ualink: {bifurcation: x4, lane-rate: 200g}}\n"
        "workloads:\n  - {kind: all-to-all, size: 1KiB}\n"
        "output: {plots: false, progress: false}\n",
        {},
    ),
    "cell32": (
        "name: cell32\n"
        "pod: {fabric: cell, accelerators: 32, cell: {links: 4, stages: two-stage,\n"
        "      switch-ports: 16}}\n"
        "workloads:\n  - {kind: all-to-all, size: 4KiB}\n"
        "output: {plots: false, progress: false}\n",
        {},
    ),
}


def _datasets(path):
    """{name: array} of every dataset of a results file but /scenario."""
    out = {}
    with h5py.File(path, "r") as f:

        def visit(name, obj):
            if isinstance(obj, h5py.Dataset) and name != "scenario":
                out[name] = np.asarray(obj[()])

        f.visititems(visit)
    return out


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_heap_runs_equal_map_runs(podsim, tmp_path, name):
    source, over = SCENARIOS[name]
    if isinstance(source, str):
        path = tmp_path / f"{name}.yaml"
        path.write_text(source)
    else:
        path = source
    runs = {}
    for s in ["map"] + HEAPS:
        h5 = tmp_path / f"{name}-{s}.h5"
        runs[s] = (podsim.run(path, overrides={**over, "scheduler": s}, results_file=h5), h5)
    ref, ref_h5 = runs["map"]
    ref_data = _datasets(ref_h5)
    assert ref["summary"]["events"] > 10000
    assert ref["summary"]["bytes_dropped"] == 0
    assert len(ref_data["messages/complete_ps"]) > 0
    for s in HEAPS:
        r, h5 = runs[s]
        assert r["summary"]["events"] == ref["summary"]["events"], s
        assert r["summary"]["sim_time_ps"] == ref["summary"]["sim_time_ps"], s
        data = _datasets(h5)
        assert sorted(data) == sorted(ref_data), s
        for k, x in ref_data.items():
            assert x.shape == data[k].shape and np.all(x == data[k]), (s, k)


def test_heap_checked_run(podsim, tmp_path):
    # --check puts the scheduler inside FabricCheckScheduler (every event's time checked; the
    # arity reaches the inner scheduler through the attribute default): the run passes its
    # checks and is the same run.
    path = tmp_path / "c.yaml"
    path.write_text(SCENARIOS["cell32"][0])
    ref = podsim.run(path, overrides={"scheduler": "map"}, write_results=False)
    r = podsim.run(path, overrides={"scheduler": "heap8"}, write_results=False, check=True)
    assert r["summary"]["checked"] and r["summary"]["checks"] > 0
    assert r["summary"]["events"] == ref["summary"]["events"]
    assert (r["messages"]["complete_ps"] == ref["messages"]["complete_ps"]).all()


def test_unknown_heap_arity_is_refused(podsim, tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text(SCENARIOS["ualink64"][0])
    with pytest.raises(Exception, match="scheduler") as e:
        podsim.run(path, overrides={"scheduler": "heap3"}, write_results=False)
    assert "heap4" in str(e.value)  # the message lists the accepted names
