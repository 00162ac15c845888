# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""Each module's waf wscript must list what its CMakeLists.txt lists (utils/sync-wscript.py)."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "utils" / "sync-wscript.py"
MODULES = sorted(p.parent.name for p in (ROOT / "src").glob("*/CMakeLists.txt"))


def sync(*args, root=None):
    cmd = [sys.executable, str(SCRIPT)]
    if root is not None:
        cmd += ["--root", str(root)]
    return subprocess.run(cmd + list(args), capture_output=True, text=True, check=False)


@pytest.mark.parametrize("module", MODULES)
def test_wscript_matches_cmakelists(module):
    r = sync("--check", module)
    assert r.returncode == 0, (
        f"src/{module}/wscript is stale; run utils/sync-wscript.py --write\n{r.stdout}{r.stderr}"
    )


DEMO_CMAKE = """\
# A module written the way 5G-LENA writes its lists.
find_package(yaml-cpp REQUIRED)
find_package(Boost 1.74 REQUIRED)
set(demo_sources
    model/demo.cc  # trailing comment
    "model/demo-queue.cc"
)
set(demo_headers model/demo.h)
list(APPEND demo_headers model/demo-queue.h)
#[[ build_lib(LIBNAME commented-out) ]]
build_lib(
  LIBNAME demo
  SOURCE_FILES ${demo_sources}
  HEADER_FILES ${demo_headers}
  PRIVATE_HEADER_FILES model/demo-impl.h
  LIBRARIES_TO_LINK ${libfabric} ${libcore} yaml-cpp ${HDF5_C_LIBRARIES}
  TEST_SOURCES test/demo-test-suite.cc
)
target_include_directories(libdemo PRIVATE ${HDF5_C_INCLUDE_DIRS})
"""

DEMO_EXAMPLES = """\
build_lib_example(
  NAME demo-example
  SOURCE_FILES demo-example.cc
  LIBRARIES_TO_LINK ${libdemo} ${libcore}
)
if(NOT WIN32)
  build_lib_example(NAME demo-two SOURCE_FILES demo-two.cc demo-util.cc
                    LIBRARIES_TO_LINK ${libnetwork})
endif()
"""


def make_demo(tmp_path):
    mod = tmp_path / "src" / "demo"
    (mod / "examples").mkdir(parents=True)
    (mod / "CMakeLists.txt").write_text(DEMO_CMAKE)
    (mod / "examples" / "CMakeLists.txt").write_text(DEMO_EXAMPLES)
    (tmp_path / "src" / "notamodule").mkdir()
    return mod


def load_wscript(path):
    """Run a generated wscript's build() against a recording stand-in for waf's bld."""

    class Gen:
        def __init__(self, **kw):
            self.__dict__.update(kw)
            self.use = []

    class Bld:
        def __init__(self):
            self.gens = []
            self.recursed = []
            self.env = Gen(ENABLE_EXAMPLES=True)

        def _gen(self, **kw):
            g = Gen(**kw)
            self.gens.append(g)
            return g

        def create_ns3_module(self, name, deps):
            return self._gen(kind="module", name=name, deps=deps)

        def create_ns3_module_test_library(self, name):
            return self._gen(kind="test", name=name)

        def create_ns3_program(self, name, deps):
            return self._gen(kind="program", name=name, deps=deps)

        def __call__(self, features):
            return self._gen(kind=features)

        def recurse(self, d):
            self.recursed.append(d)

    ns = {}
    exec(compile(path.read_text(), str(path), "exec"), ns)
    bld = Bld()
    ns["build"](bld)
    return bld, ns


def test_generated_wscripts_for_a_demo_module(tmp_path):
    mod = make_demo(tmp_path)
    r = sync("--check", root=tmp_path)
    assert r.returncode == 1 and "src/demo/wscript is missing" in r.stdout

    r = sync("--write", root=tmp_path)
    assert r.returncode == 0, r.stderr
    assert sync("--check", root=tmp_path).returncode == 0

    bld, ns = load_wscript(mod / "wscript")
    kinds = {g.kind: g for g in bld.gens}
    assert kinds["module"].name == "demo"
    assert kinds["module"].deps == ["fabric", "core"]
    assert kinds["module"].source == ["model/demo.cc", "model/demo-queue.cc"]
    assert kinds["module"].use == ["YAML_CPP", "HDF5"]
    assert kinds["test"].source == ["test/demo-test-suite.cc"]
    assert kinds["ns3header"].module == "demo"
    assert kinds["ns3header"].source == ["model/demo.h", "model/demo-queue.h"]
    assert kinds["ns3privateheader"].source == ["model/demo-impl.h"]
    assert bld.recursed == ["examples"]
    assert "configure" in ns

    bld, _ = load_wscript(mod / "examples" / "wscript")
    progs = [(g.name, g.deps, g.source) for g in bld.gens]
    assert progs == [
        ("demo-example", ["demo", "core"], ["demo-example.cc"]),
        ("demo-two", ["demo", "network"], ["demo-two.cc", "demo-util.cc"]),
    ]


def test_check_names_module_and_file_when_stale(tmp_path):
    mod = make_demo(tmp_path)
    assert sync("--write", root=tmp_path).returncode == 0
    cmake = mod / "CMakeLists.txt"
    cmake.write_text(cmake.read_text().replace("model/demo.h", "model/demo.h model/demo-new.h"))
    r = sync("--check", root=tmp_path)
    assert r.returncode == 1
    assert "module demo: src/demo/wscript differs from src/demo/CMakeLists.txt" in r.stdout
    assert "+        'model/demo-new.h'," in r.stdout

    # Examples removed: the generated examples/wscript is stale, and --write removes it.
    assert sync("--write", root=tmp_path).returncode == 0
    (mod / "examples" / "CMakeLists.txt").unlink()
    r = sync("--check", root=tmp_path)
    assert r.returncode == 1 and "src/demo/examples/wscript is stale" in r.stdout
    assert sync("--write", root=tmp_path).returncode == 0
    assert not (mod / "examples" / "wscript").exists()
    assert sync("--check", root=tmp_path).returncode == 0


def test_bad_cmakelists_is_reported(tmp_path):
    mod = tmp_path / "src" / "broken"
    mod.mkdir(parents=True)
    (mod / "CMakeLists.txt").write_text("build_lib(\n  LIBNAME broken\n  SOURCE_FILES a.cc\n")
    r = sync("--check", root=tmp_path)
    assert r.returncode == 1
    assert "module broken" in r.stderr and "unterminated build_lib(" in r.stderr


def test_no_wscript_at_the_root():
    # A waf-era tree registers each directory under contrib/ that holds a wscript as one module
    # named after the directory: the repository as one directory there would be a module
    # "podsim" that creates none of that name. Each src/<module> is linked instead (README.md).
    assert not (ROOT / "wscript").exists()


def test_libname_must_be_the_directory_name(tmp_path):
    mod = make_demo(tmp_path)
    cmake = mod / "CMakeLists.txt"
    cmake.write_text(cmake.read_text().replace("LIBNAME demo", "LIBNAME other"))
    r = sync("--check", root=tmp_path)
    assert r.returncode == 1
    assert "LIBNAME other differs from the directory name demo" in r.stderr


def test_configure_checks_the_libraries_of_needed_modules(tmp_path):
    # demo needs yaml-cpp and HDF5; a module on top of it checks them too, so that ns-3 leaves
    # it out when demo is left out.
    make_demo(tmp_path)
    top = tmp_path / "src" / "top"
    top.mkdir()
    (top / "CMakeLists.txt").write_text(
        "build_lib(LIBNAME top SOURCE_FILES model/top.cc LIBRARIES_TO_LINK ${libdemo})\n"
    )
    assert sync("--write", root=tmp_path).returncode == 0
    text = (top / "wscript").read_text()
    assert "package='yaml-cpp'" in text and "package='hdf5'" in text
    assert "conf.env['MODULES_NOT_BUILT'].append('top')" in text
    _, ns = load_wscript(top / "wscript")

    class Conf:
        env = {"MODULES_NOT_BUILT": []}
        reported = []

        def check_cfg(self, package, args, uselib_store, mandatory):
            assert mandatory is False
            return package != "hdf5"

        def report_optional_feature(self, *args):
            self.reported.append(args)

    conf = Conf()
    ns["configure"](conf)
    assert conf.env["MODULES_NOT_BUILT"] == ["top"]
    assert conf.reported == [("top", "podsim top", False, "not found: hdf5")]
    # The module itself links only what its own CMakeLists.txt names.
    bld, _ = load_wscript(top / "wscript")
    assert [g.use for g in bld.gens if g.kind == "module"] == [[]]


def cmake_module_order(src, tmp_path):
    """podsim_modules_in_dependency_order() of cmake/podsim-modules.cmake on a src/ directory."""
    import shutil

    if not shutil.which("cmake"):
        pytest.skip("cmake is not installed (./podsim setup installs it)")
    script = tmp_path / "order.cmake"
    script.write_text(
        "cmake_minimum_required(VERSION 3.16)\n"
        f"include({ROOT / 'cmake' / 'podsim-modules.cmake'})\n"
        f"podsim_modules_in_dependency_order({src} order)\n"
        'message("ORDER=${order}")\n'
    )
    r = subprocess.run(["cmake", "-P", str(script)], capture_output=True, text=True, check=False)
    m = re.search(r"ORDER=(.*)", r.stderr)
    return r.returncode, (m.group(1).split(";") if m else None), r.stderr


def test_cmake_takes_the_modules_and_their_order_from_src(tmp_path):
    # The standalone build adds the modules in this order: each after those it links.
    rc, order, err = cmake_module_order(ROOT / "src", tmp_path)
    assert rc == 0, err
    assert sorted(order) == MODULES
    for i, name in enumerate(order):
        cmake = (ROOT / "src" / name / "CMakeLists.txt").read_text()
        deps = set(re.findall(r"\$\{lib([^}]+)\}", cmake)) & set(MODULES) - {name}
        assert deps <= set(order[:i]), f"{name} comes before its dependencies {deps}"


def test_cmake_module_cycle_is_an_error(tmp_path):
    src = tmp_path / "src"
    for name, dep in (("a", "b"), ("b", "a"), ("c", "a")):
        (src / name).mkdir(parents=True)
        (src / name / "CMakeLists.txt").write_text(
            f"build_lib(LIBNAME {name} LIBRARIES_TO_LINK ${{lib{dep}}})\n"
        )
    rc, _, err = cmake_module_order(src, tmp_path)
    assert rc != 0
    assert "the modules a;b;c depend on each other" in err
