# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""import podsim where it cannot work says why and what to do.

The compiled part (podsim._podsim) is built by ./podsim build into build/python for Debian's
/usr/bin/python3 and its numpy. The source tree's python/podsim has no compiled module
(``PYTHONPATH=python`` once gave "No module named podsim._podsim" and nothing else), and another
interpreter (a pyenv or virtual environment python3) cannot load the one built (it once failed
on numpy with no hint). Either way the ImportError names /usr/bin/python3, build/python and the
build step.
"""

import os
import shutil
import subprocess

import pytest

from conftest import ROOT


def import_with(python, path):
    env = dict(os.environ, PYTHONPATH=str(path))
    return subprocess.run([python, "-c", "import podsim"], capture_output=True, text=True,
                          env=env, cwd="/")


def says_what_to_do(p):
    assert p.returncode != 0
    err = p.stderr
    assert "podsim._podsim cannot be loaded" in err, err
    assert "/usr/bin/python3" in err and "./podsim build" in err and "build/python" in err


def test_source_tree_package_says_how_to_build():
    says_what_to_do(import_with("/usr/bin/python3", ROOT / "python"))


def other_interpreters():
    """python3 and python3.N on the PATH that are not Debian's /usr/bin/python3."""
    debian = os.path.realpath("/usr/bin/python3")
    seen, out = set(), []
    for name in ["python3"] + [f"python3.{m}" for m in range(6, 16)]:
        p = shutil.which(name)
        if not p:
            continue
        exe = subprocess.run([p, "-c", "import sys; print(sys.executable)"], capture_output=True,
                             text=True).stdout.strip()
        if exe and os.path.realpath(exe) != debian and exe not in seen:
            seen.add(exe)
            out.append(exe)
    return out


def test_other_interpreter_is_told_to_use_debians():
    build = ROOT / "build" / "python"
    others = other_interpreters()
    if not others or not (build / "podsim").is_dir():
        pytest.skip("no python3 but Debian's here, or podsim not built")
    checked = 0
    for python in others:
        p = import_with(python, build)
        if p.returncode == 0:
            continue  # the same Python version with numpy: it loads and works
        says_what_to_do(p)
        checked += 1
    if not checked:
        pytest.skip("every other python3 here loads the module built for /usr/bin/python3")
