#!/usr/bin/env bash
# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
#
# Fetches ns-3's `mpi` module sources from Debian's ns3 source package of the installed
# libns3-dev version (downloaded by contrib/fetch-ns3-source.sh), into a cache directory outside
# the repository (no ns-3 code is committed).
#
#   contrib/mpi/fetch-ns3-mpi-source.sh CACHE_DIR
#
# Prints the directory that holds src/mpi/model/ (CACHE_DIR/ns-3.<version>) on stdout. Needs a
# deb-src entry for the installed release (./podsim setup adds one) and the network to reach the
# archive the first time; later calls reuse the cache.
set -euo pipefail

cache=${1:?usage: fetch-ns3-mpi-source.sh CACHE_DIR}
say() { printf 'fetch-ns3-mpi-source: %s\n' "$*" >&2; }

version=$(dpkg-query -W -f='${Version}' libns3-dev 2>/dev/null) ||
  { say "error: libns3-dev is not installed (run ./podsim setup)"; exit 1; }
upstream=${version%-*}
tree=$cache/ns-$upstream
if [ -f "$tree/src/mpi/model/mpi-interface.cc" ] && [ -f "$tree/.debian-version" ] &&
  [ "$(cat "$tree/.debian-version")" = "$version" ]; then
  echo "$tree"
  exit 0
fi

pkg=$("$(dirname "$0")/../fetch-ns3-source.sh" "$cache") || exit 1
work=$(mktemp -d "$cache/fetch.XXXXXX")
trap 'rm -rf "$work"' EXIT
orig=$(ls "$pkg"/ns3_"$upstream".orig.tar.* 2>/dev/null | head -n 1)
[ -n "$orig" ] || { say "error: no ns3_$upstream.orig.tar.* in the source package"; exit 1; }
# Debian's patches (debian/patches) do not touch src/mpi: the upstream files are used as they are.
if tar -xOf "$pkg"/ns3_"$version".debian.tar.* debian/patches/series 2>/dev/null |
  while read -r p; do
    [ -n "$p" ] && tar -xOf "$pkg"/ns3_"$version".debian.tar.* "debian/patches/$p"
  done | grep -q '^+++ .*src/mpi/'; then
  say "error: Debian's patches of ns3 $version change src/mpi; this script does not apply them"
  exit 1
fi
say "extracting src/mpi from $(basename "$orig")"
tar -xf "$orig" -C "$work" --wildcards '*/src/mpi/*'
src=$(find "$work" -type d -path "*/ns-$upstream/src/mpi" | head -n 1)
[ -n "$src" ] || { say "error: src/mpi not found in $(basename "$orig")"; exit 1; }
rm -rf "$tree"
mkdir -p "$tree/src"
mv "$src" "$tree/src/mpi"
echo "$version" >"$tree/.debian-version"
echo "$tree"
