#!/bin/bash
# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
#
# Pack the Debian files that podsim's built programs and Open MPI need into a tarball that runs,
# by chroot, on another x86-64 Linux machine without Debian's packages (a cluster node or a lent
# machine with another distribution). Used for the distributed-run measurements on 16 cores in
# src/pod/doc/performance.rst (Distributed runs). The tarball holds no podsim build: the build
# tree is bound into the chroot at the path it was built at (its RUNPATH), by chroot-enter.sh.
#
#   utils/chroot-bundle.sh [OUT.tar.xz]        # default: .devbundle/rootfs.tar.xz
#   # on the other machine, as root, in a copy of the repository with its build/:
#   source utils/chroot-enter.sh .devbundle/rootfs.tar.xz
#   deb "mpirun $MPI_FLAGS -np 16 build/bin/podsim-run-mpi SCENARIO"
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${1:-$ROOT/.devbundle/rootfs.tar.xz}
R=$(mktemp -d /tmp/podsim-root.XXXXXX)
trap 'rm -rf "$R"' EXIT
mkdir -p "$R"/usr/{lib/x86_64-linux-gnu,bin,sbin,lib64,share} "$R"/{etc,proc,sys,dev,tmp}
ln -s usr/lib "$R/lib"; ln -s usr/lib64 "$R/lib64"; ln -s usr/bin "$R/bin"; ln -s usr/sbin "$R/sbin"

# Copy a file to its path under /usr (Debian's merged /usr), following links.
copy() {
    local d
    d=$(realpath -s "$1"); d=${d#/}
    case $d in lib/* | lib64/* | bin/* | sbin/*) d=usr/$d ;; esac
    [ -e "$R/$d" ] && return 0
    mkdir -p "$R/$(dirname "$d")"
    cp -L "$1" "$R/$d"
}
# Copy a program or library and the shared libraries it loads.
declare -A seen
elf() {
    [ -n "${seen[$1]:-}" ] && return 0
    seen[$1]=1
    copy "$1"
    ldd "$1" 2>/dev/null | awk '/=> \//{print $3} /^\t\/.*ld-linux/{print $1}' |
        while read -r lib; do copy "$lib"; done
}
progs=(/usr/bin/orterun /usr/bin/orted /usr/bin/time /usr/bin/timeout /bin/dash /sbin/ldconfig
    /usr/bin/env /bin/cat /bin/ls /bin/rm /bin/mkdir /usr/bin/nproc)
for p in podsim-run podsim-run-mpi; do
    [ -x "$ROOT/build/bin/$p" ] && progs+=("$ROOT/build/bin/$p")
done
# Open MPI's and PMIx's components are loaded with dlopen: ldd of the programs misses them.
progs+=(/usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3/*.so /usr/lib/x86_64-linux-gnu/pmix2/lib/pmix/*.so)
for f in "${progs[@]}"; do elf "$f"; done
copy /usr/lib/x86_64-linux-gnu/pmix2/lib/libpmix.so.2
ln -sf dash "$R/usr/bin/sh"
ln -sf orterun "$R/usr/bin/mpirun"
cp -a /etc/openmpi "$R/etc/"
cp -a /usr/share/openmpi "$R/usr/share/"
mkdir -p "$R/usr/lib/x86_64-linux-gnu/pmix2"
cp -a /usr/lib/x86_64-linux-gnu/pmix2/share "$R/usr/lib/x86_64-linux-gnu/pmix2/"
cp -a /etc/ld.so.conf /etc/ld.so.conf.d "$R/etc/"
echo 'root:x:0:0:root:/root:/bin/sh' >"$R/etc/passwd"
echo 'root:x:0:' >"$R/etc/group"
mkdir -p "$(dirname "$OUT")"
tar -C "$R" -cJf "$OUT" .
echo "$OUT: $(du -h "$OUT" | cut -f1) ($(du -sh "$R" | cut -f1) unpacked); the build tree it serves: $ROOT"
