#!/usr/bin/env bash
# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
#
# podsim inside an ns-3.37 source tree, built by ns-3's own CMake: the recipe of README.md
# ("Using podsim inside an ns-3.37 source tree"), as one script.
#
#   utils/intree-build.sh [--modules M1,M2,...] [--configure-all] [--suite NAME]...
#                         [--run PROGRAM ARGS...] [--work DIR] [--cache DIR] [--jobs N]
#
#  1. Debian's ns3 source package of the installed libns3-dev version (apt-get source
#     --download-only, kept in the cache: contrib/fetch-ns3-source.sh) is unpacked with its Debian
#     patches (dpkg-source -x, what `apt-get source ns3` does) into a fresh WORK/ns3-<version>;
#  2. every module directory under src/ is linked into its contrib/ (contrib/<module>);
#  3. --configure-all: `./ns3 configure` with every podsim module enabled, which runs each
#     module's CMakeLists.txt (and examples/CMakeLists.txt) in ns-3's build: the third-party
#     libraries, ns-3's dependency scan, build_lib() and build_lib_example();
#  4. `./ns3 configure` with the --modules enabled (default: all of them; ns-3 adds what they
#     depend on: core, network, stats and the podsim modules they name) and only their tests and
#     examples (--filter-module-examples-and-tests), then build (what `./ns3 build` runs);
#  5. each --suite through ns-3's test runner (`./test.py --no-build -s NAME`; default: every
#     suite that was built, `./test.py --no-build`), and each --run program from
#     build/contrib/<module>/examples/.
#
# Options:
#   --modules LIST   podsim modules to build, comma-separated (default: every src/<module>)
#   --configure-all  configure with every module first (step 3), then build only --modules
#   --suite NAME     run this suite (repeatable; default: every suite built)
#   --run PROG ARGS  run an example program after the suites, from the repository root, with
#                    ARGS (no spaces inside one) up to the next option of this script
#                    (repeatable); PROG is the example's name (built as ns3.37-PROG)
#   --work DIR       where the tree is unpacked, fresh each time (default: build-intree/)
#   --cache DIR      where the source package is kept (default: ~/.cache/podsim, as contrib/mpi)
#   --jobs N         build parallelism (default: nproc)
#
# ns-3 is configured as Debian builds the libns3 that podsim's own build runs on (debian/rules:
# --build-profile=release --enable-logs; -O3, NS_LOG compiled in, NS_ASSERT compiled out), for
# podsim's modules too. With --enable-asserts ns-3's own Simulator::Schedule asserts on a negative
# delay, which two cases of the pod-invariant-check suite schedule on purpose (to show that
# FabricCheckScheduler catches what Debian's build lets through). Each step prints its wall time;
# the script exits non-zero if a step fails or a suite does not pass.
set -euo pipefail
# The whole script is one block, read before it runs: editing (or checking out) this file
# during a run of half an hour cannot change the run.
{
cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.."
readonly ROOT=$PWD

say() { printf 'intree-build: %s\n' "$*" >&2; }
die() {
  say "error: $*"
  exit 1
}

modules=""
configure_all=0
suites=()
runs=()
work=$ROOT/build-intree
cache=${PODSIM_NS3_SOURCE_CACHE:-${HOME:-/tmp}/.cache/podsim}
jobs=$(nproc 2>/dev/null || echo 2)
while [ $# -gt 0 ]; do
  case $1 in
    --modules) modules=${2:?--modules needs a list}; shift 2 ;;
    --configure-all) configure_all=1; shift ;;
    --suite) suites+=("${2:?--suite needs a name}"); shift 2 ;;
    --run)
      shift
      run=${1:?--run needs a program}
      shift
      while [ $# -gt 0 ] && ! [[ $1 =~ ^--(modules|configure-all|suite|run|work|cache|jobs)$ ]]; do
        run+=" $1"
        shift
      done
      runs+=("$run")
      ;;
    --work) work=$(readlink -m "${2:?--work needs a directory}"); shift 2 ;;
    --cache) cache=$(readlink -m "${2:?--cache needs a directory}"); shift 2 ;;
    --jobs) jobs=${2:?--jobs needs a number}; shift 2 ;;
    -h | --help) sed -n '5,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1' (--help)" ;;
  esac
done

all=$(cd src && for d in */CMakeLists.txt; do printf '%s\n' "${d%/CMakeLists.txt}"; done)
[ -n "$all" ] || die "no modules under src/"
if [ -z "$modules" ]; then
  modules=$(printf '%s' "$all" | paste -sd, -)
fi
for m in ${modules//,/ }; do
  grep -qx "$m" <<<"$all" || die "no module '$m' under src/ (modules: $(paste -sd' ' <<<"$all"))"
done

started=$(date +%s)
step_start=$started
step() {
  local now
  now=$(date +%s)
  say "[$((now - step_start)) s] $*"
  step_start=$now
}

# 1. The source package, unpacked with Debian's patches.
pkg=$(contrib/fetch-ns3-source.sh "$cache")
version=$(dpkg-query -W -f='${Version}' libns3-dev)
upstream=${version%-*}
rm -rf "$work"
mkdir -p "$work"
if command -v dpkg-source >/dev/null; then
  dpkg-source --no-check -x "$pkg/ns3_$version.dsc" "$work/ns3-$upstream" >/dev/null
  how="with Debian's patches"
else
  # Without dpkg-dev: the upstream tarball as it is. Debian's patches name the libraries
  # libns3-* instead of libns3.37-* and change the documentation build and the version cache;
  # nothing here depends on them.
  mkdir -p "$work/ns3-$upstream"
  tar -xf "$pkg"/ns3_"$upstream".orig.tar.* -C "$work/ns3-$upstream" --strip-components=1
  how="without Debian's patches (dpkg-source not found: apt-get install dpkg-dev)"
fi
tree=$work/ns3-$upstream/ns-$upstream
[ -x "$tree/ns3" ] || die "no ns3 script in $tree"
step "unpacked Debian's ns3 $version into $tree, $how"

# 2. The modules, linked into contrib/.
while read -r m; do
  ln -s "$ROOT/src/$m" "$tree/contrib/$m"
done <<<"$all"
step "linked $(paste -sd' ' <<<"$all") into contrib/"

cd "$tree"
configure() { # enabled modules (;-separated)
  ./ns3 configure -d release --enable-logs --enable-examples --enable-tests \
    --enable-modules="$1" --filter-module-examples-and-tests="$1"
}
# 3. Every module through ns-3's CMake.
if [ "$configure_all" -eq 1 ]; then
  configure "$(paste -sd';' <<<"$all")"
  step "configured with every module: $(paste -sd' ' <<<"$all")"
fi
# 4. The chosen modules: configure, build.
configure "${modules//,/;}"
step "configured with ${modules//,/ }"
# What `./ns3 build` runs, with --jobs as given (./ns3 takes at most nproc - 1 jobs).
cmake --build cmake-cache -j "$jobs"
step "built (cmake --build cmake-cache -j $jobs, i.e. ./ns3 build)"
ls build/lib/ | grep -E '^libns3' | sed 's/^/  /' >&2

# 5. Suites through ns-3's test runner (test.py runs each in a test-runner process of its own),
#    and programs.
status=0
if [ ${#suites[@]} -eq 0 ]; then
  out=$(./test.py --no-build 2>&1) || status=1
  printf '%s\n' "$out"
  # "N of N tests passed (N passed, 0 skipped, 0 failed, 0 crashed, 0 valgrind errors)"
  grep -Eq '^([0-9]+) of \1 tests passed' <<<"$out" || status=1
  step "ran every suite built (./test.py --no-build)"
else
  for s in "${suites[@]}"; do
    out=$(./test.py --no-build -s "$s" 2>&1) || status=1
    printf '%s\n' "$out"
    grep -Eq "PASS.*: TestSuite $s\$" <<<"$out" || status=1
  done
  step "ran the suites: ${suites[*]}"
fi
for r in "${runs[@]}"; do
  read -r -a argv <<<"$r"
  prog=$(find build -type f -name "ns${upstream}-${argv[0]}-*" -o -type f -name "ns${upstream}-${argv[0]}" | head -n 1)
  [ -n "$prog" ] || { say "no program ${argv[0]} was built"; status=1; continue; }
  say "running $prog ${argv[*]:1}"
  (cd "$ROOT" && "$tree/$prog" "${argv[@]:1}") || status=1
done
[ ${#runs[@]} -eq 0 ] || step "ran the programs"

say "total $(($(date +%s) - started)) s; $([ $status -eq 0 ] && echo "all passed" || echo FAILED)"
exit $status
}
