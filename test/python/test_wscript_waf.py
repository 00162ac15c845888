# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""Each module's wscript, run against a stand-in of waf-era ns-3's module API (ns-3.35 and older).

No waf-era ns-3 tree is built here (none is installed, and this repository does not vendor one).
Instead, every src/<module>/wscript and src/<module>/examples/wscript is loaded the way such a
tree loads a module linked into its contrib/ directory, against stand-ins of the calls it makes:

- contrib/wscript: every directory under contrib/ that holds a wscript is a module, named after
  the directory; configure(conf) of each, then build(bld) of each that is not in
  MODULES_NOT_BUILT, then an 'ns3moduleheader' for each directory name;
- conf.check_cfg(package=, args=, uselib_store=, mandatory=) (answered by the real pkg-config of
  this machine), conf.check_cxx(lib=, ...), conf.report_optional_feature(),
  conf.env['MODULES_NOT_BUILT'];
- bld.create_ns3_module(name, deps), bld.create_ns3_module_test_library(name),
  bld(features='ns3header'), bld(features='ns3privateheader'), bld.create_ns3_program(name, deps),
  bld.recurse('examples'), bld.env.ENABLE_EXAMPLES;
- the top-level wscript's closure over enabled modules (a 'ns3-<dep>' in a module's use must be
  an ns-3 module or a contributed one, and is enabled with it) and its exclusion of programs
  whose modules are not enabled.

Checked: every file a wscript declares exists; the declarations agree with what CMake itself
reads from the module's CMakeLists.txt files (cmake -P with build_lib()/build_lib_example()
recording their arguments); every module and example is built, its dependencies resolve, every
third-party 'use' name was stored by a configure check, and a missing library leaves out the
module with the modules that need it. Not checked: compiling or linking with waf.
"""

import ctypes.util
import shutil
import subprocess
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MODULES = sorted(p.parent.name for p in (ROOT / "src").glob("*/CMakeLists.txt"))

# ns-3's own modules, which a podsim module may name as a dependency: the directories of
# ns-3.37's src/ (Debian's source package), the same set of modules as ns-3.35's.
NS3_SRC_MODULES = """
antenna aodv applications bridge brite buildings click config-store core csma csma-layout dsdv
dsr energy fd-net-device flow-monitor internet internet-apps lr-wpan lte mesh mobility mpi
netanim network nix-vector-routing olsr openflow point-to-point point-to-point-layout
propagation sixlowpan spectrum stats tap-bridge test topology-read traffic-control uan
virtual-net-device visualizer wave wifi wimax
""".split()

# Library stores that ns-3's own configure makes before the modules' (top-level wscript: GSL).
NS3_GLOBAL_STORES = {"GSL", "BOOST"}


class WafError(Exception):
    """What waf raises for a configuration or build error."""


class ConfigSet(dict):
    """waf's ConfigSet: a dict whose missing keys read as []."""

    def __getitem__(self, key):
        if key not in self:
            dict.__setitem__(self, key, [])
        return dict.__getitem__(self, key)

    def __getattr__(self, key):
        return self[key]

    def __setattr__(self, key, value):
        self[key] = value


class TaskGen:
    """A task generator: the attributes a wscript sets on it."""

    def __init__(self, path, **kw):
        self.path = path
        self.features = ""
        self.source = []
        self.use = []
        self.__dict__.update(kw)

    def sources(self):
        return [self.source] if isinstance(self.source, str) else list(self.source)


def load_wscript(path):
    ns = {"__file__": str(path)}
    exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), ns)
    return ns


class Conf:
    """The configuration context a module's configure(conf) sees."""

    def __init__(self, hide_packages=()):
        self.env = ConfigSet()
        self.env["MODULES_NOT_BUILT"] = []
        self.hide = set(hide_packages)
        self.stored = set(NS3_GLOBAL_STORES)
        self.features = []

    def check_cfg(self, package, args, uselib_store, mandatory=True):
        flags = None
        if package not in self.hide and shutil.which("pkg-config"):
            r = subprocess.run(
                ["pkg-config", *args, package], capture_output=True, text=True, check=False
            )
            flags = r.stdout.split() if r.returncode == 0 else None
        if flags is None:
            if mandatory:
                raise WafError(f"The configuration failed: package {package!r} not found")
            return None
        self.env["CXXFLAGS_" + uselib_store] = [f for f in flags if not f.startswith("-l")]
        self.env["LIB_" + uselib_store] = [f[2:] for f in flags if f.startswith("-l")]
        self.stored.add(uselib_store)
        return True

    def check_cxx(self, lib, uselib_store, mandatory=True):
        if lib in self.hide or not ctypes.util.find_library(lib):
            if mandatory:
                raise WafError(f"The configuration failed: library {lib!r} not found")
            return None
        self.env["LIB_" + uselib_store] = [lib]
        self.stored.add(uselib_store)
        return True

    def report_optional_feature(self, name, caption, was_enabled, reason_not_enabled):
        self.features.append((name, caption, was_enabled, reason_not_enabled))


class Bld:
    """The build context: src/wscript's and the top-level wscript's module API."""

    def __init__(self, env):
        self.env = env
        self.env["ENABLE_EXAMPLES"] = True
        self.env["ENABLE_TESTS"] = True
        self.path = None
        self.gens = []

    def __call__(self, features="", **kw):
        g = TaskGen(self.path, features=features, **kw)
        self.gens.append(g)
        return g

    def create_ns3_module(self, name, dependencies=(), test=False):
        return self(
            features="cxx cxxshlib ns3module",
            name="ns3-" + name,
            module_deps=list(dependencies),
            use=["ns3-" + dep for dep in dependencies],
            test=test,
            is_ns3_module=True,
        )

    def create_ns3_module_test_library(self, name):
        library = self.create_ns3_module(name + "-test", [name], test=True)
        library.features += " ns3testlib"
        del library.is_ns3_module
        library.is_ns3_module_test_library = True
        library.module_name = "ns3-" + name
        return library

    def create_ns3_program(self, name, dependencies=("core",)):
        deps = ["ns3-" + dep for dep in dependencies]
        return self(
            features="cxx cxxprogram",
            name=name,
            is_ns3_program=True,
            ns3_module_dependencies=deps,
            use=list(deps),
        )

    def recurse(self, subdir):
        saved = self.path
        self.path = saved / subdir
        try:
            load_wscript(self.path / "wscript")["build"](self)
        finally:
            self.path = saved

    def modules(self):
        return {g.name: g for g in self.gens if getattr(g, "is_ns3_module", False)}


def make_tree(tmp_path):
    """A stand-in ns-3 tree: contrib/<module> links to src/<module>, as the README says."""
    contrib = tmp_path / "contrib"
    contrib.mkdir()
    for m in MODULES:
        (contrib / m).symlink_to(ROOT / "src" / m, target_is_directory=True)
    return contrib


def waf_configure_and_build(contrib, hide_packages=()):
    """What contrib/wscript and the top-level wscript do with the contrib/ modules."""
    modules = sorted(
        d.name for d in contrib.iterdir() if d.is_dir() and (d / "wscript").is_file()
    )
    conf = Conf(hide_packages)
    for m in modules:
        configure = load_wscript(contrib / m / "wscript").get("configure")
        if configure:
            configure(conf)
    contributed = ["ns3-" + m for m in modules]

    bld = Bld(conf.env)
    built = [m for m in modules if m not in conf.env["MODULES_NOT_BUILT"]]
    for m in built:
        bld.path = contrib / m
        load_wscript(contrib / m / "wscript")["build"](bld)
    # contrib/wscript: one module header per directory, for the module of that name.
    tgens = bld.modules()
    for m in built:
        assert "ns3-" + m in tgens, f"contrib/{m}: no module named {m!r} (ns3moduleheader)"

    # The top-level wscript: enable the contributed modules, then their dependencies.
    enabled = ["ns3-" + m for m in built]
    changed = True
    while changed:
        changed = False
        for name in list(enabled):
            for dep in tgens[name].use:
                if not dep.startswith("ns3-") or dep in enabled:
                    continue
                if dep[4:] in NS3_SRC_MODULES:
                    continue  # ns-3's own, built from src/
                if dep in contributed:
                    if dep not in tgens:
                        # Enabled again as a dependency, but contrib/wscript did not build it.
                        raise WafError(
                            f"module '{name[4:]}' needs '{dep[4:]}', which is in "
                            f"MODULES_NOT_BUILT: Could not find a task generator for the name "
                            f"'{dep}'"
                        )
                    enabled.append(dep)
                    changed = True
                else:
                    raise WafError(
                        f"Cannot find dependency '{dep[4:]}' of module '{name[4:]}'; "
                        "check the module wscript for errors."
                    )
    # Programs whose modules are not all enabled are dropped.
    known = set(enabled) | {"ns3-" + m for m in NS3_SRC_MODULES}
    for g in bld.gens:
        if getattr(g, "is_ns3_program", False):
            g.excluded = any(d not in known for d in g.ns3_module_dependencies)
    return conf, bld, enabled


# ---- what CMake reads from the same modules ------------------------------------------------------

CMAKE_HARNESS = textwrap.dedent(
    """\
    # Records build_lib() and build_lib_example() arguments; the commands a script cannot run
    # (find_package, include_directories, ...) do nothing.
    cmake_minimum_required(VERSION 3.16)
    foreach(_c find_package find_library find_path find_program include_directories
               link_directories target_link_libraries target_compile_definitions
               target_include_directories target_compile_options add_compile_definitions
               add_compile_options add_definitions link_libraries set_target_properties
               add_dependencies add_subdirectory add_executable add_library add_custom_command
               add_custom_target install pkg_check_modules)
      cmake_language(EVAL CODE "function(${_c})\\nendfunction()")
    endforeach()
    function(_record key)
      file(APPEND "${OUT}" "${key}\\t${ARGN}\\n")
    endfunction()
    function(build_lib)
      cmake_parse_arguments(BLIB "IGNORE_PCH" "LIBNAME"
        "SOURCE_FILES;HEADER_FILES;LIBRARIES_TO_LINK;TEST_SOURCES;PRIVATE_HEADER_FILES;DEPRECATED_HEADER_FILES;MODULE_ENABLED_FEATURES"
        ${ARGN})
      _record("${MODULE} lib" ${BLIB_LIBNAME})
      _record("${MODULE} sources" ${BLIB_SOURCE_FILES})
      _record("${MODULE} headers" ${BLIB_HEADER_FILES} ${BLIB_DEPRECATED_HEADER_FILES})
      _record("${MODULE} private" ${BLIB_PRIVATE_HEADER_FILES})
      _record("${MODULE} tests" ${BLIB_TEST_SOURCES})
      _record("${MODULE} link" ${BLIB_LIBRARIES_TO_LINK})
    endfunction()
    function(build_lib_example)
      cmake_parse_arguments(EX "IGNORE_PCH" "NAME" "SOURCE_FILES;HEADER_FILES;LIBRARIES_TO_LINK"
                            ${ARGN})
      _record("${MODULE} example ${EX_NAME} sources" ${EX_SOURCE_FILES})
      _record("${MODULE} example ${EX_NAME} link" ${EX_LIBRARIES_TO_LINK})
    endfunction()
    foreach(MODULE IN LISTS MODULES)
      # ${lib<name>} as in an ns-3 tree: the target names, kept readable here.
      foreach(_m IN LISTS MODULES ITEMS core network stats)
        set(lib${_m} "lib${_m}")
      endforeach()
      include(${SRC}/${MODULE}/CMakeLists.txt)
      if(EXISTS ${SRC}/${MODULE}/examples/CMakeLists.txt)
        include(${SRC}/${MODULE}/examples/CMakeLists.txt)
      endif()
    endforeach()
    """
)


@pytest.fixture(scope="module")
def cmake_lists(tmp_path_factory):
    """{module: {key: [values]}} from CMake's own reading of every module's lists."""
    if not shutil.which("cmake"):
        pytest.skip("cmake is not installed (./podsim setup installs it)")
    d = tmp_path_factory.mktemp("cmake")
    script, out = d / "harness.cmake", d / "lists.tsv"
    script.write_text(CMAKE_HARNESS)
    r = subprocess.run(
        [
            "cmake",
            f"-DSRC={ROOT / 'src'}",
            f"-DMODULES={';'.join(MODULES)}",
            f"-DOUT={out}",
            "-P",
            str(script),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    lists = {m: {} for m in MODULES}
    for line in out.read_text().splitlines():
        key, _, values = line.partition("\t")
        module, _, what = key.partition(" ")
        lists[module][what] = [v for v in values.split(";") if v]
    return lists


@pytest.fixture(scope="module")
def waf(tmp_path_factory):
    contrib = make_tree(tmp_path_factory.mktemp("ns-3.35"))
    return waf_configure_and_build(contrib)


def ns3_deps(tokens):
    """The ns-3 modules a LIBRARIES_TO_LINK list names (its libX targets)."""
    return [t[3:] for t in tokens if t.startswith("lib") and t[3:] in MODULES + NS3_SRC_MODULES]


# ---- the tests -----------------------------------------------------------------------------------


def test_every_module_is_configured_and_built(waf):
    conf, bld, enabled = waf
    assert conf.env["MODULES_NOT_BUILT"] == [], conf.features
    assert sorted(n[4:] for n in enabled) == MODULES
    assert sorted(n[4:] for n in bld.modules() if not n.endswith("-test")) == MODULES


@pytest.mark.parametrize("module", MODULES)
def test_module_wscript_agrees_with_cmake(waf, cmake_lists, module):
    conf, bld, _ = waf
    cm = cmake_lists[module]
    lib = bld.modules()["ns3-" + module]
    assert cm["lib"] == [module], "ns-3 names a contrib module after its directory"
    assert lib.sources() == cm["sources"]
    assert lib.module_deps == ns3_deps(cm["link"])

    mine = [g for g in bld.gens if g.path.name == module]
    headers = [g for g in mine if g.features == "ns3header"]
    assert len(headers) == 1 and headers[0].module == module
    assert headers[0].sources() == cm["headers"]
    private = [g for g in mine if g.features == "ns3privateheader"]
    assert [s for g in private for s in g.sources()] == cm["private"]

    tests = [g for g in mine if getattr(g, "is_ns3_module_test_library", False)]
    if cm["tests"]:
        assert len(tests) == 1 and tests[0].module_name == "ns3-" + module
        assert tests[0].sources() == cm["tests"]
        assert tests[0].use[0] == "ns3-" + module
    else:
        assert tests == []

    # Third-party libraries: each 'use' name that is not a module was stored by a configure
    # check (of this module or of ns-3 itself).
    for g in [lib] + tests:
        for use in g.use:
            if not use.startswith("ns3-"):
                assert use in conf.stored, f"{module}: use {use!r} was never configured"


@pytest.mark.parametrize("module", MODULES)
def test_examples_wscript_agrees_with_cmake(waf, cmake_lists, module):
    _, bld, _ = waf
    cm = cmake_lists[module]
    progs = [g for g in bld.gens if getattr(g, "is_ns3_program", False)]
    progs = [g for g in progs if g.path.name == "examples" and g.path.parent.name == module]
    expected = sorted(k.split()[1] for k in cm if k.startswith("example ") and k.endswith(" sources"))
    assert sorted(g.name for g in progs) == expected
    for g in progs:
        assert not g.excluded, f"{g.name}: a module it needs is not built"
        assert g.sources() == cm[f"example {g.name} sources"]
        deps = ns3_deps(cm[f"example {g.name} link"])
        # build_lib_example() links the module itself first, as create_ns3_program is given.
        assert [d[4:] for d in g.ns3_module_dependencies] == [module] + [
            d for d in dict.fromkeys(deps) if d != module
        ]


@pytest.mark.parametrize("module", MODULES)
def test_declared_files_exist_and_none_is_forgotten(waf, module):
    _, bld, _ = waf
    mod_dir = ROOT / "src" / module
    declared = set()
    for g in bld.gens:
        if g.path.resolve() in (mod_dir, mod_dir / "examples"):
            for s in g.sources():
                f = (g.path / s).resolve()
                assert f.is_file(), f"{module}: {g.path.name}/wscript declares {s}, not on disk"
                declared.add(f)
    on_disk = [
        f.resolve()
        for pattern in ("model/*.cc", "model/*.h", "helper/*.cc", "helper/*.h", "test/*.cc")
        for f in mod_dir.glob(pattern)
    ] + [f.resolve() for f in mod_dir.glob("examples/*.cc")]
    forgotten = sorted(str(f.relative_to(ROOT)) for f in on_disk if f not in declared)
    assert forgotten == [], f"{module}: files no build list names: {forgotten}"


def test_module_dependencies_are_acyclic(waf):
    _, bld, _ = waf
    deps = {
        n: [d for d in g.use if d.startswith("ns3-")] for n, g in bld.modules().items()
    }
    done, active = set(), []

    def visit(n):
        assert n not in active, "dependency cycle: " + " -> ".join(active + [n])
        if n in done or n not in deps:
            return
        active.append(n)
        for d in deps[n]:
            visit(d)
        active.pop()
        done.add(n)

    for n in deps:
        visit(n)


@pytest.mark.parametrize("package", ["eigen3", "hdf5", "yaml-cpp"])
def test_missing_library_leaves_out_the_modules_that_need_it(tmp_path, cmake_lists, package):
    # As waf-era ns-3 modules do: the module reports itself and joins MODULES_NOT_BUILT, ns-3's
    # configuration goes on, and no module that needs it is enabled again as a dependency.
    contrib = make_tree(tmp_path)
    conf, bld, enabled = waf_configure_and_build(contrib, hide_packages=[package])
    left_out = conf.env["MODULES_NOT_BUILT"]
    assert left_out, f"no module checks {package}"
    for name, _caption, was_enabled, reason in conf.features:
        assert not was_enabled and package in reason and name in left_out
    assert not set(left_out) & {n[4:] for n in enabled}
    # Every module that names one left out among its dependencies is left out too.
    for m in MODULES:
        needs = set(ns3_deps(cmake_lists[m]["link"]))
        if needs & set(left_out):
            assert m in left_out, f"{m} needs {needs & set(left_out)} but is still built"
