#!/usr/bin/env bash
# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
#
# Downloads Debian's ns3 source package of the installed libns3-dev version
# (`apt-get source --download-only ns3=<version>`: the .dsc, the upstream tarball
# ns3_<upstream>.orig.tar.* and Debian's ns3_<version>.debian.tar.*) into a cache directory
# outside the repository, once; no ns-3 code is committed here.
#
#   contrib/fetch-ns3-source.sh CACHE_DIR
#
# Prints the directory that holds the package (CACHE_DIR/debian-ns3_<version>) on stdout. Needs
# a deb-src entry for the installed release (./podsim setup adds one) and the network to reach
# the archive the first time; later calls reuse the cache. Used by contrib/mpi (ns-3's mpi
# module) and utils/intree-build.sh (podsim inside ns-3's own source tree).
set -euo pipefail

cache=${1:?usage: fetch-ns3-source.sh CACHE_DIR}
say() { printf 'fetch-ns3-source: %s\n' "$*" >&2; }

version=$(dpkg-query -W -f='${Version}' libns3-dev 2>/dev/null) ||
  { say "error: libns3-dev is not installed (run ./podsim setup)"; exit 1; }
dir=$cache/debian-ns3_$version
if [ -f "$dir/.complete" ] && [ -f "$dir/ns3_$version.dsc" ]; then
  echo "$dir"
  exit 0
fi

mkdir -p "$cache"
work=$(mktemp -d "$cache/download.XXXXXX")
trap 'rm -rf "$work"' EXIT
say "apt-get source --download-only ns3=$version (into $dir)"
if ! (cd "$work" && apt-get source --download-only "ns3=$version" >&2); then
  say "error: 'apt-get source ns3=$version' failed; it needs a deb-src entry for Debian's archive"
  say "(./podsim setup adds /etc/apt/sources.list.d/podsim-deb-src.sources) and network access"
  exit 1
fi
[ -f "$work/ns3_$version.dsc" ] || { say "error: no ns3_$version.dsc was downloaded"; exit 1; }
touch "$work/.complete"
rm -rf "$dir"
mv "$work" "$dir"
trap - EXIT
echo "$dir"
