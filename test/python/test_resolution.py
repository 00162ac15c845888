# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""Loading podsim's libraries leaves ns-3's time resolution alone; programs set picoseconds
themselves (EnsurePicosecondResolution(), src/fabric/model/picosecond-resolution.h), and a fabric
object made without it stops the program with a message naming the call.

build/bin/podsim-resolution-check (test/resolution-check.cc) is linked with every module library
and prints the resolution main() finds: ns-3's default, nanoseconds (ns-3's Time starts at NS:
Time::SetDefaultNsResolution in src/core/model/time.cc). It then makes a FabricChannel and a
FabricNetDevice, with or without EnsurePicosecondResolution() first.
"""

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BUILD = Path(os.environ.get("PODSIM_BUILD_DIR", ROOT / "build"))
PROG = BUILD / "bin" / "podsim-resolution-check"
MODULES = sorted(p.parent.name for p in (ROOT / "src").glob("*/CMakeLists.txt"))


def run(*args):
    if not PROG.is_file():
        pytest.skip(f"{PROG} is not built (./podsim build)")
    return subprocess.run([str(PROG), *args], capture_output=True, text=True, check=False)


def test_every_module_library_is_loaded():
    if not PROG.is_file():
        pytest.skip(f"{PROG} is not built (./podsim build)")
    ldd = subprocess.run(["ldd", str(PROG)], capture_output=True, text=True, check=True).stdout
    for m in MODULES:
        assert f"libpodsim-{m}.so" in ldd, m


def test_loading_the_libraries_keeps_ns3s_resolution():
    r = run("--ensure")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "resolution at main: not ps (ns)" in r.stdout
    assert "made a FabricChannel and a FabricNetDevice at ps" in r.stdout


def test_a_program_that_forgot_gets_told_what_to_call():
    r = run()
    assert r.returncode != 0
    assert "made a FabricChannel" not in r.stdout
    assert "ns3::FabricChannel made while ns-3's time resolution is nanoseconds" in r.stderr
    assert "call ns3::EnsurePicosecondResolution() (ns3/picosecond-resolution.h)" in r.stderr
