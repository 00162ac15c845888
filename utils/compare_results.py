#!/usr/bin/python3
# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""Says whether two podsim results files (HDF5) hold the same results.

Compares every dataset of the ``/messages`` table (post, delivery and completion time of every
message, its bytes, source, destination, class, workload) and of the ``/links`` table (bytes,
units, busy, pause and stall time of every link), element by element, and, when both files have
it, of the ``/dag_nodes`` table (the start and end of every DAG node on every accelerator and
iteration, its name, kind and category); the run's totals (events,
wall time) are not compared, so a change that makes a run cheaper without changing what it
simulates compares equal. Used for the performance work (src/pod/doc/performance.rst).

Usage: compare_results.py BEFORE.h5 AFTER.h5   (exit 0: identical, 1: a dataset differs)
"""

import sys

import h5py
import numpy as np


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    a, b = h5py.File(sys.argv[1], "r"), h5py.File(sys.argv[2], "r")
    differing = 0
    groups = ["messages", "links"]
    if "dag_nodes" in a and "dag_nodes" in b:
        groups.append("dag_nodes")
    elif "dag_nodes" in a or "dag_nodes" in b:
        print("DIFF dag_nodes: in one file only")
        differing += 1
    for group in groups:
        for name, data in a[group].items():
            if not isinstance(data, h5py.Dataset):
                continue
            if name not in b[group]:
                print(f"DIFF {group}/{name}: in the first file only")
                differing += 1
                continue
            x, y = data[()], b[group][name][()]
            if x.shape != y.shape:
                print(f"DIFF {group}/{name}: shape {x.shape} against {y.shape}")
                differing += 1
            elif not np.array_equal(x, y):
                print(f"DIFF {group}/{name}: {int((x != y).sum())} elements")
                differing += 1
    complete = a["messages/complete_ps"][()]
    print(
        f"{complete.shape[0]} messages, last completion {complete.max() if complete.size else 0} ps:",
        "IDENTICAL" if not differing else f"{differing} datasets differ",
    )
    sys.exit(1 if differing else 0)


if __name__ == "__main__":
    main()
