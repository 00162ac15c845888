# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""Fuzzed scenarios (src/pod/doc/robustness.rst): the loader refuses every malformed scenario with a
located error and never crashes or hangs; random-but-valid scenarios run or are refused with a
reason.

utils/fuzz_scenarios.py generates the scenarios from a fixed seed (PODSIM_FUZZ_SEED, default 1)
and feeds them to a worker subprocess, so a crash or a hang is a failure of this test, not of
pytest. CI runs 1,000 of them (PODSIM_FUZZ_COUNT; the extended suite sets 10,000 or more, or runs
``./podsim fuzz --count 10000``). The spec of each expectation is the scenario format itself:
every error is ``FILE:LINE: FIELD: MESSAGE`` (scenario-error.h), LINE > 0 when the field is in
the file, FIELD the key the mutation touched. test/python/data/fuzz-regressions holds the
scenarios that found bugs, each with the error it must now give (`# fuzz-expect:` line).
"""

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parent / "data"
REGRESSIONS = DATA / "fuzz-regressions"


def _fuzz_module():
    spec = importlib.util.spec_from_file_location("fuzz_scenarios",
                                                  ROOT / "utils" / "fuzz_scenarios.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _build_dir(podsim):
    # build/python/podsim/__init__.py -> build
    return Path(podsim.__file__).resolve().parents[2]


def _fuzz_args(podsim, tmp_path, count, regressions):
    return [
        "--count", str(count),
        "--seed", os.environ.get("PODSIM_FUZZ_SEED", "1"),
        "--build-dir", str(_build_dir(podsim)),
        "--failures", str(tmp_path / "failures"),
    ] + ([] if regressions else ["--no-regressions"])


def test_load_validates_without_running(podsim, tmp_path):
    # podsim.load resolves the defaults of the schema (pod.planes 1, seed 1, stop 0).
    p = tmp_path / "ok.yaml"
    p.write_text("pod: {accelerators: 4}\nworkloads:\n  - {kind: all-to-all, size: 1KiB}\n")
    d = podsim.load(p)
    assert d["accelerators"] == 4 and d["planes"] == 1 and d["seed"] == 1
    assert d["stop_ps"] == 0 and d["name"] == "ok"
    assert [w["kind"] for w in d["workloads"]] == ["all-to-all"]
    assert d["workloads"][0]["bytes"] == 1024
    d = podsim.load(p, {"pod.accelerators": 8})
    assert d["accelerators"] == 8


def test_load_error_names_file_line_field(podsim, tmp_path):
    p = tmp_path / "bad.yaml"
    p.write_text("pod:\n  accelerators: 4\n  link: {rate: 3 parsecs}\n"
                 "workloads:\n  - {kind: all-to-all, size: 1KiB}\n")
    with pytest.raises(podsim.ScenarioError) as e:
        podsim.load(p)
    assert (e.value.file, e.value.line, e.value.field) == (str(p), 3, "pod.link.rate")
    assert str(e.value).startswith("%s:3: pod.link.rate: " % p)


def test_schema_lists_every_key(podsim):
    keys = {k["path"]: k for k in podsim.schema()}
    assert keys["pod.accelerators"]["required"] and keys["pod.accelerators"]["type"] == "uint"
    assert keys["pod.accelerators"]["min"] == 1
    assert "ualink" in keys["pod.fabric"]["allowed"]
    assert keys["workloads"]["element"] == "map"
    assert keys["workloads[].senders"]["kinds"] == ["incast"]


def test_podsim_run_validate(podsim, tmp_path):
    prog = _build_dir(podsim) / "bin" / "podsim-run"
    if not prog.is_file():
        pytest.skip("%s not built" % prog)
    ok = subprocess.run([str(prog), str(DATA / "small.yaml"), "--validate"],
                        capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.startswith("valid: ") and "16 accelerators" in ok.stdout
    bad = subprocess.run([str(prog), str(DATA / "small.yaml"), "--validate",
                          "--set=pod.planes=0"], capture_output=True, text=True)
    assert bad.returncode == 2
    assert "error: --set: pod.planes: must be at least 1 (got 0)" in bad.stderr


def test_fuzz_regressions(podsim, tmp_path, capsys):
    # Every scenario that once crashed, hung or gave a badly located error.
    assert sorted(REGRESSIONS.glob("*.yaml")), "fuzz-regressions corpus"
    fuzz = _fuzz_module()
    failed = fuzz.main(_fuzz_args(podsim, tmp_path, 0, True))
    out = capsys.readouterr().out
    print(out)
    assert failed == 0, out


def test_fuzzed_scenarios(podsim, tmp_path, capsys):
    count = int(os.environ.get("PODSIM_FUZZ_COUNT", "1000"))
    fuzz = _fuzz_module()
    failed = fuzz.main(_fuzz_args(podsim, tmp_path, count, False))
    out = capsys.readouterr().out
    print(out)
    summary = [l for l in out.splitlines() if l.startswith("fuzz: ")]
    assert summary and " 0 failures " in summary[-1], out[-5000:]
    assert failed == 0


def test_driver_detects_crash_and_hang(podsim, tmp_path):
    # The watchdog itself: a worker that aborts is a crash (SIGABRT, exit status -6), one that
    # spins past its limit of CPU time a hang, one that waits (no CPU) past its limit of wall
    # time a hang; the worker is restarted and answers again. The limits are of CPU time, which
    # a loaded machine does not stretch (a legitimate 20 MB DAG once took 21.6 s of wall time to
    # load against a fixed 20 s limit); only a worker that does nothing meets the wall limit.
    fuzz = _fuzz_module()
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(_build_dir(podsim) / "python")] +
                                        ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    import sys
    w = fuzz.Worker(sys.executable, env, 0)
    try:
        w.start()
        ans = w.call({"op": "selftest-abort"}, 60)
        assert ans["status"] == "crash" and ans["returncode"] == -6
        ans = w.call({"op": "selftest-hang"}, 1)
        assert ans["status"] == "hang" and ans["cpu_s"] >= 1
        ans = w.call({"op": "selftest-block"}, 1, wall_timeout=2)
        assert ans["status"] == "hang" and "cpu_s" not in ans
        assert w.restarts == 3
        ans = w.call({"op": "load", "path": str(DATA / "small.yaml")}, 60)
        assert ans == {"status": "ok", "accelerators": 16}
    finally:
        w.stop()


def test_large_size_matrix_loads(podsim, tmp_path):
    # Found by the fuzzer: an all-to-all-v of 1001 ranks has a size-matrix of 1001 x 1001 =
    # 1002001 entries; the loader's path parser refused list indices above 1000000 and the
    # lookup of entry 1000001 aborted on an assertion. It loads now (the value budget of 2^22
    # values holds it).
    n = 1001
    p = tmp_path / "a2av.yaml"
    p.write_text("pod: {accelerators: 1024}\n"
                 "workloads:\n"
                 "  - kind: collective\n"
                 "    collective: all-to-all-v\n"
                 "    group: [%s]\n"
                 "    size-matrix: [%s]\n" % (", ".join(str(i) for i in range(n)),
                                              ", ".join(["64"] * (n * n))))
    d = podsim.load(p)
    assert d["workloads"][0]["kind"] == "collective"


def test_failure_is_saved_whole_and_replays(podsim, tmp_path):
    # A failure is saved with every file beside its scenario, so that it replays: here a
    # scenario whose DAG workload is in a file beside it (the fuzzer's dag-file cases). Its
    # saved copy loads (the DAG file is found) and --replay judges it again. Before, only the
    # scenario was saved, and the copy failed for want of its DAG file.
    fuzz = _fuzz_module()
    args = fuzz.parse_args(_fuzz_args(podsim, tmp_path, 0, False))
    fz = fuzz.Fuzzer(args)
    try:
        text = ("pod: {accelerators: 4}\n"
                "workloads:\n"
                "  - {kind: dag, file: %s}\n" % fuzz.DAG_FILE)
        dag = "nodes:\n  - {name: a, kind: compute, duration: 1us}\n"
        case = fuzz.Case("dag-file-test", text, expect="run")
        case.extra = {fuzz.DAG_FILE: dag.encode()}
        path = fz.write("case.yaml", case.data)
        fz.write(fuzz.DAG_FILE, case.extra[fuzz.DAG_FILE])
        fz.fail(7, case, path, "a made-up failure", {"status": "hang", "timeout_s": 1}, "load")
    finally:
        shutil.rmtree(fz.work, ignore_errors=True)
    saved = tmp_path / "failures" / ("seed%s-00007-dag-file-test" % args.seed)
    assert (saved / "case.yaml").read_text() == text
    assert (saved / fuzz.DAG_FILE).read_text() == dag
    info = json.loads((saved / "case.json").read_text())
    assert info["op"] == "load" and info["why"] == "a made-up failure"
    # It loads as saved: the made-up failure does not reproduce.
    d = podsim.load(saved / "case.yaml")
    assert d["workloads"][0]["kind"] == "dag" and d["workloads"][0]["nodes"] == 1
    env = dict(os.environ, PYTHONPATH=str(_build_dir(podsim) / "python"))
    p = subprocess.run([sys.executable, str(ROOT / "utils" / "fuzz_scenarios.py"), "--replay",
                        str(saved), "--build-dir", str(_build_dir(podsim))],
                       capture_output=True, text=True, env=env)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "replay: passes" in p.stdout and '"status": "ok"' in p.stdout
