# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""The event schedulers and the benchmark report.

Every ns-3 scheduler orders events by (timestamp, insertion id), so the choice of scheduler may
change the speed and nothing else: the same scenario must give the same per-message delivery and
completion times and the same event count with each of them (the MapScheduler run is the
reference). The benchmark report (utils/bench_report.py) gathers BENCH-JSON lines into one JSON
file and compares with the previous one.
"""

import importlib.util
import io
import json

import pytest

from conftest import ROOT

SCHEDULERS = ["map", "heap", "calendar", "priority-queue"]


@pytest.fixture
def scenario(tmp_path):
    path = tmp_path / "sched.yaml"
    path.write_text(
        "name: sched\n"
        "pod: {fabric: sue, accelerators: 32, planes: 4, flow-control: {kind: pfc}}\n"
        "workloads:\n"
        "  - {kind: incast, senders: 16, receiver: 0, size: 64KiB}\n"
        "  - {kind: all-to-all, size: 4KiB}\n"
        "output: {plots: false, progress: false}\n"
    )
    return path


def test_schedulers_give_identical_runs(podsim, scenario):
    runs = {s: podsim.run(scenario, overrides={"scheduler": s}, write_results=False)
            for s in SCHEDULERS}
    ref = runs["map"]
    assert ref["summary"]["bytes_dropped"] == 0
    for name, r in runs.items():
        assert r["summary"]["events"] == ref["summary"]["events"], name
        assert r["summary"]["sim_time_ps"] == ref["summary"]["sim_time_ps"], name
        for col in ("deliver_ps", "complete_ps"):
            assert (r["messages"][col] == ref["messages"][col]).all(), (name, col)


def test_canonical_arrivals_with_every_scheduler(podsim, scenario):
    # pod.arrival-order: canonical puts the scheduler inside FabricPeekScheduler, which keeps
    # its order: the four schedulers, and the checked run (FabricCheckScheduler inside it, whose
    # checks all pass), still give one run. Against the insertion order (the reference above):
    # the same messages and bytes, every one delivered, nothing dropped (conservation), and fewer
    # events (one drain event per picosecond with arrivals instead of one receive event per
    # unit). The times themselves may differ from the insertion order's (on this scenario 5 of
    # 1008 deliveries, and the end by 20.74 ns): another order of simultaneous arrivals.
    over = {"pod.arrival-order": "canonical"}
    runs = {s: podsim.run(scenario, overrides={**over, "scheduler": s}, write_results=False)
            for s in SCHEDULERS}
    runs["checked"] = podsim.run(scenario, overrides=over, write_results=False, check=True)
    ref = runs["map"]
    for name, r in runs.items():
        assert r["summary"]["events"] == ref["summary"]["events"], name
        assert r["summary"]["sim_time_ps"] == ref["summary"]["sim_time_ps"], name
        for col in ("deliver_ps", "complete_ps"):
            assert (r["messages"][col] == ref["messages"][col]).all(), (name, col)
    ins = podsim.run(scenario, overrides={"pod.arrival-order": "insertion"},
                     write_results=False)
    assert ref["summary"]["bytes_dropped"] == 0
    assert ref["summary"]["bytes_delivered"] == ins["summary"]["bytes_delivered"]
    assert (ref["messages"]["deliver_ps"] > 0).all()
    assert ref["summary"]["events"] < ins["summary"]["events"]


def test_canonical_arrivals_refused_for_ualink(podsim, tmp_path):
    # UALink builds its own links: the loader refuses canonical there, naming the field.
    path = tmp_path / "ua.yaml"
    path.write_text("name: ua\n"
                    "pod: {fabric: ualink, accelerators: 4, arrival-order: canonical}\n"
                    "workloads:\n  - {kind: all-to-all, size: 4KiB}\n"
                    "output: {plots: false, progress: false}\n")
    with pytest.raises(Exception, match="pod.arrival-order"):
        podsim.run(str(path), write_results=False)


def test_unknown_scheduler_is_refused(podsim, scenario):
    with pytest.raises(Exception, match="scheduler"):
        podsim.run(scenario, overrides={"scheduler": "ladder"}, write_results=False)


def _bench_report():
    spec = importlib.util.spec_from_file_location("bench_report",
                                                  ROOT / "utils" / "bench_report.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_bench_report_gathers_and_compares(tmp_path, monkeypatch, capsys):
    br = _bench_report()
    out = tmp_path / "bench.json"
    old = {"git": "a", "date": "d", "benchmarks": [
        {"name": "x", "wall_s": 10.0, "events_per_s": 1e6},
        {"name": "gone", "wall_s": 1.0}]}
    out.write_text(json.dumps(old))
    text = ("benchmark x\n"
            'BENCH-JSON {"name": "x", "wall_s": 4.0, "events_per_s": 2.5e6}\n'
            'BENCH-JSON {"name": "new", "wall_s": 1.0}\n')
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    assert br.main(["--out", str(out), "--root", str(ROOT)]) == 0
    printed = capsys.readouterr().out
    assert "benchmark x" in printed  # echoed
    doc = json.loads(out.read_text())
    assert [b["name"] for b in doc["benchmarks"]] == ["x", "new"]
    assert json.loads((tmp_path / "bench.previous.json").read_text()) == old
    # Speedup = old wall / new wall = 10 / 4; events/s ratio 2.5e6 / 1e6.
    rows = br.compare(doc["benchmarks"], old["benchmarks"])
    assert rows == [("x", 4.0, 10.0, 2.5, 2.5)]
    assert "2.50x" in printed
