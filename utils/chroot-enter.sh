# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
#
# Source as root in the root of a repository copy (with the build/ that chroot-bundle.sh saw) on
# a machine without Debian's packages: unpacks the tarball of utils/chroot-bundle.sh into
# /tmp/podsim-root (once), binds this repository at its own path and at /work/main (the build's
# RUNPATH; change PODSIM_BUILT_AT if it was built elsewhere), /proc, /sys, /dev and /tmp, and
# defines deb (run a shell command inside, in this directory) and MPI_FLAGS (mpirun's options
# for one machine, as root, with no rsh agent).
#
#   source utils/chroot-enter.sh .devbundle/rootfs.tar.xz
#   deb "build/bin/podsim-run examples/scenarios/sue-distributed.yaml"
#   deb "mpirun $MPI_FLAGS -np 4 build/bin/podsim-run-mpi examples/scenarios/sue-distributed.yaml"
PODSIM_ROOT=/tmp/podsim-root
PODSIM_REPO=$PWD
PODSIM_BUILT_AT=${PODSIM_BUILT_AT:-/work/main}
if [ ! -x "$PODSIM_ROOT/usr/bin/orterun" ]; then
    mkdir -p "$PODSIM_ROOT" && tar -C "$PODSIM_ROOT" -xJf "${1:?the tarball of chroot-bundle.sh}"
    mkdir -p "$PODSIM_ROOT$PODSIM_BUILT_AT" "$PODSIM_ROOT$PODSIM_REPO"
    mount --bind "$PODSIM_REPO" "$PODSIM_ROOT$PODSIM_BUILT_AT"
    [ "$PODSIM_REPO" != "$PODSIM_BUILT_AT" ] && mount --bind "$PODSIM_REPO" "$PODSIM_ROOT$PODSIM_REPO"
    mount -t proc proc "$PODSIM_ROOT/proc"
    mount --rbind /dev "$PODSIM_ROOT/dev"
    mount --rbind /sys "$PODSIM_ROOT/sys"
    mount --bind /tmp "$PODSIM_ROOT/tmp"
    chroot "$PODSIM_ROOT" /sbin/ldconfig
fi
deb() { chroot "$PODSIM_ROOT" /bin/sh -c "cd '$PODSIM_REPO' && $*"; }
MPI_FLAGS="--allow-run-as-root --oversubscribe --bind-to none --mca plm isolated --mca btl_vader_single_copy_mechanism none"
