#!/usr/bin/python3
# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""Keep each module's waf ``wscript`` (ns-3 <= 3.35) in step with its ``CMakeLists.txt``.

Modules are the direct children of src/ that have a CMakeLists.txt. From each one this reads the
``build_lib()`` call (LIBNAME, SOURCE_FILES, HEADER_FILES, PRIVATE_HEADER_FILES,
DEPRECATED_HEADER_FILES, LIBRARIES_TO_LINK, TEST_SOURCES) and, from examples/CMakeLists.txt, every
``build_lib_example()`` call (NAME, SOURCE_FILES, LIBRARIES_TO_LINK), and derives:

  src/<module>/wscript            create_ns3_module, its test library, ns3header, configure()
  src/<module>/examples/wscript   one create_ns3_program per example

Dependencies on ns-3 modules (ours or ns-3's) are the ``${lib<name>}`` tokens in
LIBRARIES_TO_LINK, as in ns-3's own CMake scan. Other libraries there, and libraries named by
find_package(), become waf ``use`` names found in ``configure(conf)`` the way waf-era ns-3
modules find theirs (``conf.check_cfg(..., mandatory=False)``; when one is missing the module
reports itself with ``conf.report_optional_feature`` and joins ``MODULES_NOT_BUILT``). A module
also checks the libraries of the podsim modules it depends on, so that it is left out with them
(ns-3's build would otherwise enable a left-out module again as its dependency).

Variables set with set() or list(APPEND) are expanded; if()/else() blocks are not evaluated, so
every branch counts.

Usage:
  utils/sync-wscript.py --check [MODULE ...]   exit 1, with a diff, if any wscript is stale
  utils/sync-wscript.py --write [MODULE ...]   regenerate the wscripts
"""

import argparse
import difflib
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

BUILD_LIB_OPTIONS = {"IGNORE_PCH"}
BUILD_LIB_ONE = {"LIBNAME"}
BUILD_LIB_MULTI = {
    "SOURCE_FILES",
    "HEADER_FILES",
    "LIBRARIES_TO_LINK",
    "TEST_SOURCES",
    "PRIVATE_HEADER_FILES",
    "DEPRECATED_HEADER_FILES",
    "MODULE_ENABLED_FEATURES",
}
EXAMPLE_ONE = {"NAME"}
EXAMPLE_MULTI = {"SOURCE_FILES", "HEADER_FILES", "LIBRARIES_TO_LINK"}

LIB_TOKEN = re.compile(r"^\$\{lib([^}]+)\}$")

# Third-party libraries: a pattern on a LIBRARIES_TO_LINK token or find_package() name, and what
# waf does with it: (use name, check). A check is ("pkg", pkg-config package, args) or
# ("lib", library name); None means nothing to check here (GSL: ns-3's own configure stores it).
# A use name of None means nothing to link or check (Boost.Graph: header-only in /usr/include).
EXTERNAL = [
    (re.compile(r"yaml", re.I), "YAML_CPP", ("pkg", "yaml-cpp", ("--cflags", "--libs"))),
    (re.compile(r"hdf5", re.I), "HDF5", ("pkg", "hdf5", ("--cflags", "--libs"))),
    (re.compile(r"eigen", re.I), "EIGEN3", ("pkg", "eigen3", ("--cflags",))),
    (re.compile(r"protobuf", re.I), "PROTOBUF", ("pkg", "protobuf", ("--cflags", "--libs"))),
    (re.compile(r"^(\$\{)?boost", re.I), None, None),
    (re.compile(r"^(\$\{)?(gsl)", re.I), "GSL", None),
]
# find_package() names that are not libraries of their own.
FIND_PACKAGE_IGNORE = {"pkgconfig", "python3", "threads", "mpi", "ns3"}


class CMakeError(Exception):
    pass


# ---- a small CMake reader ----------------------------------------------------------------------


def _bracket_close(text, i):
    """If text[i:] opens a bracket [[ or [=[, return the matching close string, else None."""
    m = re.match(r"\[(=*)\[", text[i:])
    return "]" + m.group(1) + "]" if m else None


def parse_commands(text, filename):
    """Return [(name_lower, [args], line)] for every command invocation in CMake source text.

    Arguments are returned unexpanded; quoted and bracket arguments lose their delimiters.
    Unquoted parentheses inside a call are kept as plain tokens.
    """
    commands = []
    i, n, line = 0, len(text), 1

    def err(msg):
        raise CMakeError(f"{filename}:{line}: {msg}")

    def skip_comment(i, line):
        # A '#' at text[i]: skip a bracket comment #[[...]] or a line comment; return the new
        # position and line number.
        close = _bracket_close(text, i + 1)
        if close:
            j = text.find(close, i)
            if j < 0:
                raise CMakeError(f"{filename}:{line}: unterminated bracket comment")
            return j + len(close), line + text.count("\n", i, j)
        j = text.find("\n", i)
        return (n if j < 0 else j), line

    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif c.isspace():
            i += 1
        elif c == "#":
            i, line = skip_comment(i, line)
        else:
            m = re.match(r"[A-Za-z_][A-Za-z0-9_]*", text[i:])
            if not m:
                err(f"unexpected character {c!r}")
            name = m.group(0)
            start_line = line
            i += len(name)
            while i < n and text[i] in " \t":
                i += 1
            if i >= n or text[i] != "(":
                err(f"expected '(' after {name}")
            i += 1
            args, depth = [], 0
            while True:
                if i >= n:
                    raise CMakeError(f"{filename}:{start_line}: unterminated {name}(")
                c = text[i]
                if c == "\n":
                    line += 1
                    i += 1
                elif c.isspace():
                    i += 1
                elif c == "#":
                    i, line = skip_comment(i, line)
                elif c == "(":
                    depth += 1
                    args.append("(")
                    i += 1
                elif c == ")":
                    i += 1
                    if depth == 0:
                        break
                    depth -= 1
                    args.append(")")
                elif c == '"':
                    j, buf = i + 1, []
                    while j < n and text[j] != '"':
                        if text[j] == "\\" and j + 1 < n:
                            buf.append(text[j : j + 2])
                            j += 2
                            continue
                        buf.append(text[j])
                        j += 1
                    if j >= n:
                        err("unterminated quoted argument")
                    arg = "".join(buf)
                    line += arg.count("\n")
                    args.append(arg)
                    i = j + 1
                elif c == "[" and _bracket_close(text, i):
                    close = _bracket_close(text, i)
                    open_len = len(close)
                    j = text.find(close, i + open_len)
                    if j < 0:
                        err("unterminated bracket argument")
                    arg = text[i + open_len : j]
                    line += arg.count("\n")
                    args.append(arg)
                    i = j + len(close)
                else:
                    j = i
                    while j < n and not text[j].isspace() and text[j] not in '()#"':
                        if text[j] == "\\" and j + 1 < n:
                            j += 2
                            continue
                        j += 1
                    args.append(text[i:j])
                    i = j
            commands.append((name.lower(), args, start_line))
    return commands


VAR_REF = re.compile(r"\$\{([A-Za-z0-9_.+-]+)\}")


def expand(arg, variables):
    """Expand ${VAR} for variables set in this file. ${lib...} and unknown variables are kept
    as written. Returns a list (a variable holding a list splits into several arguments)."""
    if LIB_TOKEN.match(arg):
        return [arg]

    def sub(m):
        name = m.group(1)
        if name.startswith("lib") or name not in variables:
            return m.group(0)
        return ";".join(variables[name])

    value = VAR_REF.sub(sub, arg)
    return [v for v in value.split(";") if v != ""]


def keyword_args(args, options, one, multi, what, filename, line):
    out = {k: [] for k in multi}
    for k in one:
        out[k] = None
    key = None
    for a in args:
        if a in options:
            out[a] = True
            key = None
        elif a in one or a in multi:
            key = a
        elif key is None:
            raise CMakeError(f"{filename}:{line}: {what}(): argument {a!r} before any keyword")
        elif key in one:
            if out[key] is not None:
                raise CMakeError(f"{filename}:{line}: {what}(): {key} given twice")
            out[key] = a
        else:
            out[key].append(a)
    return out


def read_cmake(path):
    """Evaluate set()/list(APPEND) and return (calls, find_packages) where calls is a list of
    (name, expanded args, line) for build_lib and build_lib_example."""
    text = path.read_text(encoding="utf-8")
    variables, calls, packages = {}, [], []
    for name, args, line in parse_commands(text, path):
        if name == "set" and args:
            values = []
            for a in args[1:]:
                if a in ("PARENT_SCOPE", "CACHE"):
                    break
                values.extend(expand(a, variables))
            variables[args[0]] = values
        elif name == "list" and len(args) >= 2 and args[0] == "APPEND":
            values = variables.setdefault(args[1], [])
            for a in args[2:]:
                values.extend(expand(a, variables))
        elif name == "find_package" and args:
            packages.append(args[0])
        elif name in ("build_lib", "build_lib_example"):
            expanded = []
            for a in args:
                expanded.extend(expand(a, variables))
            calls.append((name, expanded, line))
    return calls, packages


# ---- the model of one module -------------------------------------------------------------------


def external_for(token):
    """(use name, configure line) for a third-party library token, or None to ignore it."""
    for pattern, use, check in EXTERNAL:
        if pattern.search(token):
            return (use, check) if use else None
    m = re.match(r"^\$\{([A-Za-z0-9]+)", token) or re.match(r"^([A-Za-z0-9_+-]+)(::|$)", token)
    if not m:
        return None
    base = m.group(1)
    use = re.sub(r"[^A-Za-z0-9]", "_", base).upper()
    if token.startswith("${") or "::" in token:
        check = ("pkg", base.lower(), ("--cflags", "--libs"))
    else:  # a plain library name, e.g. "m" or "pthread"
        check = ("lib", base)
    return use, check


def render_check(use, check):
    """The configure() lines that look for one library and note it when missing."""
    if check[0] == "pkg":
        _, package, args = check
        call = (
            f"conf.check_cfg(package={package!r}, args={list(args)!r}, uselib_store={use!r}, "
            "mandatory=False)"
        )
        name = package
    else:
        name = check[1]
        call = f"conf.check_cxx(lib={name!r}, uselib_store={use!r}, mandatory=False)"
    return f"    if not {call}:\n        missing.append({name!r})\n"


def split_libraries(tokens):
    """(ns-3 module dependencies, [(use, check)]) from a LIBRARIES_TO_LINK list."""
    deps, externals = [], []
    for t in tokens:
        m = LIB_TOKEN.match(t)
        if m:
            if m.group(1) not in deps:
                deps.append(m.group(1))
        else:
            ext = external_for(t)
            if ext and ext not in externals:
                externals.append(ext)
    return deps, externals


class Module:
    def __init__(self, root, name):
        self.root = root
        self.name = name
        self.dir = root / "src" / name
        self.cmake = self.dir / "CMakeLists.txt"
        self.examples_cmake = self.dir / "examples" / "CMakeLists.txt"
        calls, packages = read_cmake(self.cmake)
        libs = [c for c in calls if c[0] == "build_lib"]
        if len(libs) != 1:
            raise CMakeError(
                f"{self.rel(self.cmake)}: expected one build_lib() call, found {len(libs)}"
            )
        _, args, line = libs[0]
        kw = keyword_args(
            args,
            BUILD_LIB_OPTIONS,
            BUILD_LIB_ONE,
            BUILD_LIB_MULTI,
            "build_lib",
            self.rel(self.cmake),
            line,
        )
        self.libname = kw["LIBNAME"] or name
        if self.libname != name:
            # ns-3 registers a contrib/ module by its directory name, in CMake
            # (process_contribution) as in waf (contrib/wscript).
            raise CMakeError(
                f"{self.rel(self.cmake)}:{line}: LIBNAME {self.libname} differs from the "
                f"directory name {name}; ns-3 names a module after its directory"
            )
        self.sources = kw["SOURCE_FILES"]
        self.headers = kw["HEADER_FILES"] + kw["DEPRECATED_HEADER_FILES"]
        self.private_headers = kw["PRIVATE_HEADER_FILES"]
        self.test_sources = kw["TEST_SOURCES"]
        self.deps, self.externals = split_libraries(kw["LIBRARIES_TO_LINK"])
        for p in packages:
            if p.lower() in FIND_PACKAGE_IGNORE:
                continue
            ext = external_for(p)
            if ext and ext not in self.externals:
                self.externals.append(ext)

        self.example_externals = []  # checked in configure() too, but not used by the library
        self.inherited_externals = []  # those of the podsim modules it depends on (link_modules)
        self.has_examples = self.examples_cmake.is_file()
        self.examples = []  # (name, [deps], [sources], [uses])
        if self.has_examples:
            calls, _ = read_cmake(self.examples_cmake)
            where = self.rel(self.examples_cmake)
            for cname, args, line in calls:
                if cname != "build_lib_example":
                    continue
                kw = keyword_args(
                    args, set(), EXAMPLE_ONE, EXAMPLE_MULTI, "build_lib_example", where, line
                )
                if not kw["NAME"]:
                    raise CMakeError(f"{where}:{line}: build_lib_example() without NAME")
                deps, externals = split_libraries(kw["LIBRARIES_TO_LINK"])
                deps = [self.libname] + [d for d in deps if d != self.libname]
                for ext in externals:
                    if ext not in self.example_externals:
                        self.example_externals.append(ext)
                uses = [u for u, _c in externals]
                self.examples.append((kw["NAME"], deps, kw["SOURCE_FILES"], uses))

    def rel(self, path):
        try:
            return str(Path(path).relative_to(self.root))
        except ValueError:
            return str(path)

    # ---- rendering ----

    def header(self, source):
        if source == self.cmake:
            use = (
                "# For waf-era ns-3 trees (<= 3.35), which register each directory under contrib/ that\n"
                "# holds a wscript as one module: link this module's directory there under its own name.\n"
            )
        else:
            use = (
                f"# For waf-era ns-3 trees (<= 3.35): the examples of module {self.libname}, built when\n"
                "# examples are enabled (its wscript recurses here).\n"
            )
        return (
            "# -*- Mode: python; py-indent-offset: 4; indent-tabs-mode: nil; coding: utf-8; -*-\n"
            "# SPDX-License-Identifier: GPL-2.0-only\n"
            f"# Generated by utils/sync-wscript.py from {self.rel(source)}:\n"
            "# edit that file, then run utils/sync-wscript.py --write.\n"
            + use
            + "# ns-3.36 and later build the CMakeLists.txt instead.\n"
        )

    @staticmethod
    def pylist(items, indent):
        if not items:
            return "[]"
        pad = " " * (indent + 4)
        return "[\n" + "".join(f"{pad}{i!r},\n" for i in items) + " " * indent + "]"

    def render_module(self):
        uses = [u for u, _c in self.externals]
        checks = []
        for use, c in self.externals + self.example_externals + self.inherited_externals:
            if c and (use, c) not in checks:
                checks.append((use, c))
        out = [self.header(self.cmake), "\n"]
        if checks:
            out.append("\ndef configure(conf):\n")
            out.append(
                "    # Third-party libraries, found as waf-era ns-3 modules find theirs: without one,\n"
                "    # the module is reported and left out (MODULES_NOT_BUILT), and ns-3 goes on.\n"
            )
            inherited = [c for _u, c in self.inherited_externals]
            if inherited:
                out.append(
                    "    # It also checks those of the podsim modules it needs, so that it is left out\n"
                    "    # with them.\n"
                )
            out.append("    missing = []\n")
            for use, c in checks:
                out.append(render_check(use, c))
            out.append("    if missing:\n")
            out.append("        conf.report_optional_feature(\n")
            out.append(
                f"            {self.libname!r}, {'podsim ' + self.libname!r}, False, "
                "'not found: ' + ', '.join(missing)\n"
            )
            out.append("        )\n")
            out.append(f"        conf.env['MODULES_NOT_BUILT'].append({self.libname!r})\n")
            out.append("\n")
        out.append("\ndef build(bld):\n")
        out.append(f"    module = bld.create_ns3_module({self.libname!r}, {self.deps!r})\n")
        out.append(f"    module.source = {self.pylist(self.sources, 4)}\n")
        if uses:
            out.append(f"    module.use.extend({uses!r})\n")
        if self.test_sources:
            out.append("\n")
            out.append(f"    module_test = bld.create_ns3_module_test_library({self.libname!r})\n")
            out.append(f"    module_test.source = {self.pylist(self.test_sources, 4)}\n")
            if uses:
                out.append(f"    module_test.use.extend({uses!r})\n")
        out.append("\n")
        out.append("    headers = bld(features='ns3header')\n")
        out.append(f"    headers.module = {self.libname!r}\n")
        out.append(f"    headers.source = {self.pylist(self.headers, 4)}\n")
        if self.private_headers:
            out.append("\n")
            out.append("    private_headers = bld(features='ns3privateheader')\n")
            out.append(f"    private_headers.module = {self.libname!r}\n")
            out.append(f"    private_headers.source = {self.pylist(self.private_headers, 4)}\n")
        if self.has_examples:
            out.append("\n")
            out.append("    if bld.env.ENABLE_EXAMPLES:\n")
            out.append("        bld.recurse('examples')\n")
        return "".join(out)

    def render_examples(self):
        out = [self.header(self.examples_cmake), "\n", "\ndef build(bld):\n"]
        if not self.examples:
            out.append("    pass\n")
        for i, (name, deps, sources, uses) in enumerate(self.examples):
            if i:
                out.append("\n")
            out.append(f"    obj = bld.create_ns3_program({name!r}, {deps!r})\n")
            out.append(f"    obj.source = {self.pylist(sources, 4)}\n")
            if uses:
                out.append(f"    obj.use.extend({uses!r})\n")
        return "".join(out)

    def expected_files(self):
        """{path: content or None (must not exist)}"""
        files = {self.dir / "wscript": self.render_module()}
        ex = self.dir / "examples" / "wscript"
        files[ex] = self.render_examples() if self.has_examples else None
        return files


def link_modules(modules):
    """Give each module the third-party libraries of the modules (of this repository) it
    depends on, directly or not: its configure() checks them too."""
    by_name = {m.name: m for m in modules}

    def closure(name, seen):
        for dep in by_name[name].deps:
            if dep in by_name and dep not in seen:
                seen.append(dep)
                closure(dep, seen)
        return seen

    for m in modules:
        own = m.externals + m.example_externals
        for dep in closure(m.name, []):
            for ext in by_name[dep].externals:
                if ext not in own and ext not in m.inherited_externals:
                    m.inherited_externals.append(ext)


# ---- main --------------------------------------------------------------------------------------


def discover(root):
    src = root / "src"
    if not src.is_dir():
        return []
    return sorted(p.name for p in src.iterdir() if p.is_dir() and (p / "CMakeLists.txt").is_file())


def is_generated(path):
    try:
        return "Generated by utils/sync-wscript.py" in path.read_text(encoding="utf-8")
    except OSError:
        return False


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true", help="exit 1 if any wscript is stale")
    mode.add_argument("--write", action="store_true", help="regenerate the wscripts")
    ap.add_argument(
        "--root", type=Path, default=ROOT, help="repository root (default: %(default)s)"
    )
    ap.add_argument(
        "modules", nargs="*", help="modules to handle (default: every src/<m>/CMakeLists.txt)"
    )
    args = ap.parse_args(argv)

    root = args.root.resolve()
    found = discover(root)
    modules = args.modules or found
    unknown = [m for m in modules if m not in found]
    if unknown:
        print(
            f"sync-wscript: no src/<module>/CMakeLists.txt for: {', '.join(unknown)}",
            file=sys.stderr,
        )
        return 2
    if not modules:
        print("sync-wscript: no modules under src/", file=sys.stderr)
        return 0

    # Every module is read (a module's configure() depends on those it needs); the named ones
    # are checked or written.
    bad = 0
    parsed = {}
    for name in found:
        try:
            parsed[name] = Module(root, name)
        except (CMakeError, OSError) as e:
            if name in modules:
                print(f"sync-wscript: module {name}: {e}", file=sys.stderr)
                bad += 1
    link_modules(list(parsed.values()))
    for name in modules:
        module = parsed.get(name)
        if module is None:
            continue
        for path, content in module.expected_files().items():
            rel = module.rel(path)
            current = path.read_text(encoding="utf-8") if path.is_file() else None
            if content == current:
                continue
            if args.write:
                if content is None:
                    if is_generated(path):
                        path.unlink()
                        print(f"removed {rel}")
                    else:
                        print(
                            f"sync-wscript: module {name}: {rel} has no CMakeLists.txt beside "
                            "it, but was not generated by this script: left alone",
                            file=sys.stderr,
                        )
                    continue
                path.write_text(content, encoding="utf-8")
                print(f"wrote {rel}")
                continue
            bad += 1
            if content is None:
                gone = module.rel(path.parent / "CMakeLists.txt")
                print(f"module {name}: {rel} is stale: {gone} does not exist; remove it")
            elif current is None:
                print(f"module {name}: {rel} is missing (derived from its CMakeLists.txt)")
            else:
                src = module.cmake if path.parent == module.dir else module.examples_cmake
                print(f"module {name}: {rel} differs from {module.rel(src)}:")
                sys.stdout.writelines(
                    difflib.unified_diff(
                        current.splitlines(keepends=True),
                        content.splitlines(keepends=True),
                        fromfile=f"{rel} (on disk)",
                        tofile=f"{rel} (from {module.rel(src)})",
                    )
                )
    if bad and args.check:
        print("run utils/sync-wscript.py --write to regenerate", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
