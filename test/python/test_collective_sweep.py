# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""analysis/collective_sweep.py, the notebook-style collective sweep.

Run with --quick on 8 ranks into tmp_path: it writes a valid PNG, its table has a row per
algorithm and size, the alpha-beta model's column agrees with the measurement where
collective.rst validates it (ring, halving-doubling and direct all-reduce on an idle one-switch
pod: within 5%), and every "fastest at SIZE" line names the algorithm that the table's own rows
make fastest, measured and modelled; at 4 KiB the measured order is the model's (2 alphas for
direct, 2 log2(8) = 6 for halving-doubling, 2(8-1) = 14 for ring).
"""

import os
import re
import subprocess
import sys
from pathlib import Path

from conftest import ROOT

SCRIPT = ROOT / "analysis" / "collective_sweep.py"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
ROW = re.compile(r"^\s*(\d+ (?:KiB|MiB|B))\s+([a-z-]+)\s+([\d.]+)\s+([\d.]+|-)\s+([\d.]+|-)$")
FASTEST = re.compile(r"^fastest at (\d+ (?:KiB|MiB|B)): measured ([a-z-]+), model ([a-z-]+)$")


def test_collective_sweep_quick(podsim, tmp_path):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(Path(podsim.__file__).resolve().parents[1]), env.get("PYTHONPATH", "")])
    p = subprocess.run([sys.executable, str(SCRIPT), "--quick", "--accelerators", "8",
                        "--out", str(tmp_path)], capture_output=True, text=True, env=env)
    assert p.returncode == 0, p.stderr
    png = tmp_path / "collective-sweep.png"
    assert png.read_bytes()[:8] == PNG_SIGNATURE and png.stat().st_size > 1000
    assert f"plot: {png}" in p.stdout

    rows, fastest = [], []
    for line in p.stdout.splitlines():
        if m := ROW.match(line):
            size, alg, meas, model, ratio = m.groups()
            rows.append((size, alg, float(meas), None if model == "-" else float(model)))
        elif m := FASTEST.match(line):
            fastest.append(m.groups())
    sizes = ["4 KiB", "256 KiB", "4 MiB"]
    algs = ["ring", "halving-doubling", "double-binary-tree", "direct"]
    assert sorted((r[0], r[1]) for r in rows) == sorted((s, a) for s in sizes for a in algs)
    for size, alg, meas, model in rows:
        assert (model is None) == (alg == "double-binary-tree")
        if model is not None:
            assert abs(meas - model) <= 0.05 * model, (size, alg, meas, model)
    assert [f[0] for f in fastest] == sizes
    for size, best, pred in fastest:
        at = [r for r in rows if r[0] == size]
        assert best == min(at, key=lambda r: r[2])[1]
        assert pred == min((r for r in at if r[3] is not None), key=lambda r: r[3])[1]
    small = {r[1]: r[2] for r in rows if r[0] == "4 KiB"}
    assert small["direct"] < small["halving-doubling"] < small["ring"]
