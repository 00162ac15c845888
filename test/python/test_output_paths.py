# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""Output paths (src/pod/model/results-writer.h, ResultsWriter::CheckOutputPath; utils/outpath.py).

A results file is written under a temporary name beside it and renamed over it. So an output
path that is a directory, a device, a FIFO or a socket must be refused before anything runs: the
rename would replace it (as root, ``--out=/dev/null`` replaced /dev/null), or fail after the
whole simulation (a directory). Every entry point refuses them with a clear error and a non-zero
exit status, runs nothing and leaves them as they were: podsim-run, ``./podsim run`` (one run and
a study), ``./podsim sweep`` and ``podsim.run``. ``--out FILE`` and ``--out=FILE`` are the same
everywhere, and a relative ``--out`` is the caller's.
"""

import os
import stat
import subprocess
import sys

import pytest

from conftest import DATA, ROOT

PROG = ROOT / "build" / "bin" / "podsim-run"
PODSIM = ROOT / "podsim"
SMALL = DATA / "small.yaml"
STUDY = ROOT / "examples" / "scenarios" / "pod-1024.yaml"

pytestmark = pytest.mark.skipif(not PROG.exists(), reason="podsim-run is not built")


@pytest.fixture
def specials(tmp_path):
    """A FIFO and a directory with one file in it."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    d = tmp_path / "dir"
    d.mkdir()
    (d / "keep").write_text("kept")
    return {"fifo": fifo, "dir": d}


def unchanged(specials):
    assert stat.S_ISFIFO(os.stat(specials["fifo"]).st_mode)
    assert sorted(os.listdir(specials["dir"])) == ["keep"]
    assert (specials["dir"] / "keep").read_text() == "kept"
    for p in specials.values():
        assert not os.path.exists(str(p) + ".tmp")
        assert not os.path.exists(str(p) + ".partial")


def refused(p, path):
    """Non-zero, the path named in the error, and no run (its summary's "run:" line)."""
    assert p.returncode != 0, p.stdout + p.stderr
    assert str(path.name) in p.stderr
    assert "run: " not in p.stdout


@pytest.mark.parametrize("kind", ["fifo", "dir"])
@pytest.mark.parametrize("spelling", ["--out=", "--out "])
def test_podsim_run_refuses_special_outputs(specials, kind, spelling):
    out = specials[kind]
    args = [f"--out={out}"] if spelling == "--out=" else ["--out", str(out)]
    p = subprocess.run([str(PROG), str(SMALL), "--quiet", *args], capture_output=True, text=True)
    refused(p, out)
    assert p.returncode == 2
    assert ("is a FIFO" if kind == "fifo" else "is a directory") in p.stderr
    unchanged(specials)


def test_podsim_run_takes_out_with_a_space(tmp_path):
    # ns-3's CommandLine reads --name=value only; "--out FILE" once gave "Invalid command-line
    # argument" and the whole help.
    out = tmp_path / "r.h5"
    p = subprocess.run([str(PROG), str(SMALL), "--quiet", "--out", str(out)], capture_output=True,
                       text=True)
    assert p.returncode == 0, p.stderr
    assert out.is_file()


@pytest.mark.parametrize("kind", ["fifo", "dir"])
def test_driver_run_refuses_special_outputs(specials, kind):
    out = specials[kind]
    p = subprocess.run([str(PODSIM), "run", str(SMALL), "--no-plots", "--out", str(out)],
                       capture_output=True, text=True)
    refused(p, out)
    unchanged(specials)


def test_driver_study_refuses_a_fifo_output(specials):
    # A study checks its results path after validating the cases, before running any.
    out = specials["fifo"]
    p = subprocess.run([str(PODSIM), "run", str(STUDY), "--quick", "--no-plots", f"--out={out}"],
                       capture_output=True, text=True)
    refused(p, out)
    assert "cases done" not in p.stderr
    unchanged(specials)


@pytest.mark.parametrize("kind", ["fifo", "dir"])
def test_driver_sweep_refuses_special_outputs(specials, kind):
    out = specials[kind]
    p = subprocess.run([str(PODSIM), "sweep", str(SMALL), "--vary", "pod.accelerators=8,16",
                        "--out", str(out)], capture_output=True, text=True)
    refused(p, out)
    assert "run(s) of" not in p.stdout
    unchanged(specials)


@pytest.mark.parametrize("kind", ["fifo", "dir"])
def test_python_run_refuses_special_outputs(podsim, specials, kind):
    out = specials[kind]
    with pytest.raises(RuntimeError) as e:
        podsim.run(SMALL, results_file=out)
    assert out.name in str(e.value)
    unchanged(specials)


def test_driver_run_out_is_the_callers(tmp_path):
    # A relative --out is the caller's directory, in both spellings (./podsim run once resolved
    # it against the checkout, ./podsim sweep against the caller's directory).
    for i, args in enumerate((["--out", "a.h5"], ["--out=b.h5"])):
        p = subprocess.run([str(PODSIM), "run", str(SMALL), "--no-plots", *args],
                           capture_output=True, text=True, cwd=tmp_path)
        assert p.returncode == 0, p.stderr
        assert (tmp_path / ("a.h5", "b.h5")[i]).is_file()
        assert not (ROOT / ("a.h5", "b.h5")[i]).exists()


def test_driver_run_help():
    # ./podsim run --help once ran the default study and refused --help.
    p = subprocess.run([str(PODSIM), "run", "--help"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert "run [SCENARIO.yaml]" in p.stdout and "--out FILE" in p.stdout


def test_split_rails_refuses_a_fifo_output(specials):
    # ./podsim run --split-rails merges its parts into the output: checked before any part runs.
    out = specials["fifo"]
    p = subprocess.run([sys.executable, str(ROOT / "utils" / "rails.py"), "--prog", str(PROG),
                        str(ROOT / "examples" / "bench" / "ualink-all-to-all.yaml"), "--set",
                        "pod.accelerators=8", "--out", str(out)], capture_output=True, text=True)
    refused(p, out)
    assert "rail(s) of" not in p.stdout
    unchanged(specials)
