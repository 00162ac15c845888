# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""Chakra execution traces (src/workload/doc/workload.rst): podsim-run --export-chakra writes a
DAG workload as traces, a `kind: chakra` workload reads them back, and the run gives the times
derived by hand here, and the very results of the DAG it came from.

The pod of the timed cases: Ethernet, one plane, one 250 ns cut-through switch, 800 Gb/s links of
3 m twinax, 4096 B MTU (test_scratch.py and src/collective/doc/collective.rst, Validation, derive
these values from src/fabric/doc/fabric.rst):

- T, one 4096 B unit on the wire: (4096 + 18 + 20) x 8 bits / 800 Gb/s = 41,340 ps;
- d, the cable: 3 m x 4.6 ns/m = 13,800 ps; L, the switch: 250,000 ps;
- a message of one unit posted at t leaves its sender's link at t + T and arrives at
  t + 2d + L + T = t + 318,940 ps on an idle path.

A send node ends on its sender when the message has left (t + T) and on its receiver when it has
arrived (t + 318,940 ps). A direct all-reduce of S bytes on n ranks is a reduce-scatter then an
all-gather, each step one message of S/n bytes from every rank to every other: a rank's step ends
when its own messages have left and the others' have arrived.
"""

import os
import subprocess
from pathlib import Path

import pytest

h5py = pytest.importorskip("h5py")

ROOT = Path(__file__).resolve().parents[2]
BUILD = Path(os.environ.get("PODSIM_BUILD_DIR", ROOT / "build"))
PROG = BUILD / "bin" / "podsim-run"
COMPARE = ROOT / "utils" / "compare_results.py"

T = 41_340  # one 4096 B unit at 800 Gb/s
D = 13_800  # 3 m twinax
L = 250_000  # switch
ARRIVE = 2 * D + L + T  # a one-unit message, posted to arrived: 318,940 ps

POD = """pod:
  fabric: ethernet
  accelerators: {n}
  planes: 1
  switch: {{radix: 64, latency: 250ns}}
  link: {{rate: 800Gbps, cable: twinax, length: 3m}}
"""


def run(*args):
    r = subprocess.run([str(PROG), *map(str, args), "--quiet"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return r.stdout


def scenario(tmp_path, name, n, workload):
    path = tmp_path / f"{name}.yaml"
    path.write_text(
        f"name: {name}\n" + POD.format(n=n) + "workloads:\n" + workload
        + f"output: {{file: {name}.h5, plots: false}}\n"
    )
    return path


def export_and_read_back(tmp_path, name, n, nodes):
    """The DAG `nodes` as a `kind: dag` workload, exported with podsim-run --export-chakra,
    then read back as a `kind: chakra` workload; both run. Returns the two results files and
    the chakra run's {(node, accelerator): (start_ps, end_ps)}."""
    dag = scenario(tmp_path, name, n, f"  - kind: dag\n    name: {name}\n    nodes:\n{nodes}")
    out = run(dag, "--export-chakra", tmp_path / "traces")
    files = sorted(p.name for p in (tmp_path / "traces").iterdir())
    assert files == sorted([f"{name}.{r}.et" for r in range(n)] + [f"{name}.comm_groups.json"])
    assert out.count("chakra: ") == n + 1
    chakra = scenario(
        tmp_path, name + "-chakra", n, f"  - {{kind: chakra, name: {name}, trace: traces/{name}}}\n"
    )
    run(dag, "--out", tmp_path / "dag.h5")
    run(chakra, "--out", tmp_path / "chakra.h5")
    with h5py.File(tmp_path / "chakra.h5", "r") as f:
        d = f["dag_nodes"]
        times = {
            (node.decode(), int(a)): (int(s), int(e))
            for node, a, s, e in zip(d["node"], d["accelerator"], d["start_ps"], d["end_ps"])
        }
    return tmp_path / "dag.h5", tmp_path / "chakra.h5", times


def identical(a, b):
    r = subprocess.run(["/usr/bin/python3", str(COMPARE), str(a), str(b)], capture_output=True,
                       text=True)
    assert r.returncode == 0 and "IDENTICAL" in r.stdout, r.stdout + r.stderr


@pytest.fixture(autouse=True)
def built():
    if not PROG.exists():
        pytest.skip(f"{PROG} not built (./podsim build)")


def test_two_ranks_times_by_hand(tmp_path):
    """Two ranks: fw (1.5 us of compute, not whole microseconds: the exact-ps attribute carries
    it), a send 0 -> 1 of 4096 B, a direct all-reduce of 8192 B (one 4096 B block each way per
    step), then bw (2.5 us).

    - fw: 0 to 1,500,000 on both ranks.
    - s: starts at 1,500,000 on both; rank 0 ends at + T = 1,541,340, rank 1 at + 318,940 =
      1,818,940.
    - ar starts on each rank when its own part of s ended: rank 0 at 1,541,340, rank 1 at
      1,818,940. Step 1: rank 0's block arrives at rank 1 at 1,541,340 + 318,940 = 1,860,280;
      rank 1's own block has left at 1,818,940 + T = 1,860,280: rank 1's step 1 ends at
      1,860,280. Rank 1's block arrives at rank 0 at 1,818,940 + 318,940 = 2,137,880: rank 0's
      step 1 ends then. Step 2: rank 1's block, posted at 1,860,280, arrives at rank 0 at
      2,179,220 (rank 0's own, posted at 2,137,880, left at 2,179,220 too): rank 0 ends at
      2,179,220; rank 0's block arrives at rank 1 at 2,137,880 + 318,940 = 2,456,820.
    - bw: rank 0 from 2,179,220 to 4,679,220; rank 1 from 2,456,820 to 4,956,820.
    """
    nodes = """      - {name: fw, kind: compute, duration: 1500ns}
      - {name: s, kind: send, src: 0, dst: 1, size: 4096, deps: [fw]}
      - {name: ar, kind: collective, collective: all-reduce, algorithm: direct, size: 8192,
         deps: [s]}
      - {name: bw, kind: compute, duration: 2500ns, deps: [ar]}
"""
    dag, chakra, t = export_and_read_back(tmp_path, "two", 2, nodes)
    fw = 1_500_000
    s0, s1 = fw + T, fw + ARRIVE
    assert (s0, s1) == (1_541_340, 1_818_940)
    step1 = {1: max(s0 + ARRIVE, s1 + T), 0: s1 + ARRIVE}
    ar = {0: max(step1[1] + ARRIVE, step1[0] + T), 1: step1[0] + ARRIVE}
    assert ar == {0: 2_179_220, 1: 2_456_820}
    expected = {
        ("fw", 0): (0, fw),
        ("fw", 1): (0, fw),
        ("s", 0): (fw, s0),
        ("s", 1): (fw, s1),
        ("ar", 0): (s0, ar[0]),
        ("ar", 1): (s1, ar[1]),
        ("bw", 0): (ar[0], ar[0] + 2_500_000),
        ("bw", 1): (ar[1], ar[1] + 2_500_000),
    }
    assert t == expected
    identical(dag, chakra)


def test_eight_ranks_times_by_hand(tmp_path):
    """Eight ranks: fw (1.5 us), a direct all-reduce of 32 KiB (blocks of 4096 B), a send
    0 -> 7 of 4096 B after it, then opt (1 us) on every rank after the send.

    - ar starts at 1,500,000 on every rank. Each step every rank posts 7 one-unit messages, one
      to each other rank: they leave its link back to back in 7T, and the switch's link to each
      rank carries the 7 units sent to it, busy from d + L after the step's start, so the last
      byte arrives 2d + L + 7T = 27,600 + 250,000 + 289,380 = 566,980 ps after it (2 alpha +
      2 (n-1)/n S beta over two steps, collective.rst, exactly): ar ends at 1,500,000 +
      2 x 566,980 = 2,633,960 on every rank.
    - s: from 2,633,960; rank 0 ends at + T = 2,675,300, rank 7 at + 318,940 = 2,952,900.
    - opt depends on s, which ranks 1 to 6 do not take part in: they wait until it finished
      everywhere (DagRunner's rule; the trace keeps it as podsim_remote_deps), 2,952,900. Rank 0
      starts at its own end of s, 2,675,300; rank 7 at 2,952,900. Each runs 1 us.
    """
    nodes = """      - {name: fw, kind: compute, duration: 1500ns}
      - {name: ar, kind: collective, collective: all-reduce, algorithm: direct, size: 32KiB,
         deps: [fw]}
      - {name: s, kind: send, src: 0, dst: 7, size: 4096, deps: [ar]}
      - {name: opt, kind: compute, duration: 1us, deps: [s]}
"""
    dag, chakra, t = export_and_read_back(tmp_path, "eight", 8, nodes)
    fw = 1_500_000
    step = 2 * D + L + 7 * T
    assert step == 566_980
    ar = fw + 2 * step
    s0, s7 = ar + T, ar + ARRIVE
    expected = {}
    for a in range(8):
        expected[("fw", a)] = (0, fw)
        expected[("ar", a)] = (fw, ar)
        start = s0 if a == 0 else s7
        expected[("opt", a)] = (start, start + 1_000_000)
    expected[("s", 0)] = (ar, s0)
    expected[("s", 7)] = (ar, s7)
    assert t == expected
    assert t[("opt", 3)][0] == 2_952_900
    identical(dag, chakra)


def test_collective_dag_round_trip_is_identical(tmp_path):
    """examples/scenarios/collective-dag.yaml at 8 accelerators (3 iterations, ring and
    Rabenseifner all-reduces, a send), exported and read back in the same pod: the results file,
    /dag_nodes included, is IDENTICAL."""
    example = ROOT / "examples" / "scenarios" / "collective-dag.yaml"
    small = ["--set", "pod.accelerators=8"]
    run(example, *small, "--export-chakra", tmp_path / "traces")
    groups = (tmp_path / "traces" / "step.comm_groups.json").read_text()
    assert '"0": [0, 1, 2, 3, 4, 5, 6, 7]' in groups
    text = example.read_text()
    start = text.index("workloads:")
    end = text.index("output:")
    chakra = tmp_path / "collective-dag-chakra.yaml"
    chakra.write_text(
        text[:start] + "workloads:\n  - {kind: chakra, name: step, trace: traces/step}\n"
        + text[end:]
    )
    run(example, *small, "--out", tmp_path / "dag.h5")
    run(chakra, *small, "--out", tmp_path / "chakra.h5")
    identical(tmp_path / "dag.h5", tmp_path / "chakra.h5")
    with h5py.File(tmp_path / "chakra.h5", "r") as f:
        assert f["dag_nodes/iteration"][()].max() == 2  # 3 iterations, from podsim_iterations


@pytest.mark.parametrize("extra",
                         ["zero: 1", "experts: 4, top-k: 2, ep: 2, sequence-parallel: true"])
def test_llm_step_round_trip_is_identical(tmp_path, extra):
    """A generated training step (16 accelerators: TP 2 x PP 2 x DP 4; dense with ZeRO-1, and
    mixture-of-experts), exported and read back in the same pod: IDENTICAL results, /dag_nodes
    (categories included) too."""
    step = (f"  - {{kind: llm-step, name: step, layers: 4, hidden: 256, ffn: 1024, heads: 4,\n"
            f"     sequence: 128, global-batch: 8, vocabulary: 512, tp: 2, pp: 2, dp: 4,\n"
            f"     {extra}}}\n")
    llm = scenario(tmp_path, "llm", 16, step)
    run(llm, "--export-chakra", tmp_path / "traces")
    chakra = scenario(tmp_path, "llm-chakra", 16,
                      "  - {kind: chakra, name: step, trace: traces/step}\n")
    run(llm, "--out", tmp_path / "llm.h5")
    run(chakra, "--out", tmp_path / "chakra.h5")
    identical(tmp_path / "llm.h5", tmp_path / "chakra.h5")
    with h5py.File(tmp_path / "llm.h5", "r") as a, h5py.File(tmp_path / "chakra.h5", "r") as b:
        assert (a["dag_nodes/category"][()] == b["dag_nodes/category"][()]).all()


def test_refusals_name_the_file_rank_and_node(tmp_path):
    """A trace podsim cannot run is refused before running: a file cut short, and a workload
    that is not a DAG cannot be exported."""
    nodes = "      - {name: fw, kind: compute, duration: 1us}\n"
    dag = scenario(tmp_path, "r", 2, f"  - kind: dag\n    name: r\n    nodes:\n{nodes}")
    run(dag, "--export-chakra", tmp_path / "traces")
    with open(tmp_path / "traces" / "r.1.et", "ab") as f:
        f.write(bytes([5, 0x08, 0x01, 0x18]))  # a frame of 5 bytes with 3 of them
    chakra = scenario(tmp_path, "rc", 2, "  - {kind: chakra, name: r, trace: traces/r}\n")
    r = subprocess.run([str(PROG), str(chakra), "--validate"], capture_output=True, text=True)
    assert r.returncode == 2
    assert "traces/r.1.et" in r.stderr and "rank 1" in r.stderr, r.stderr
    assert "not a length-delimited Node (after node 0)" in r.stderr, r.stderr

    incast = ROOT / "examples" / "scenarios" / "default.yaml"
    r = subprocess.run([str(PROG), str(incast), "--export-chakra", str(tmp_path / "x")],
                       capture_output=True, text=True)
    assert r.returncode == 2
    assert "is not a DAG workload" in r.stderr, r.stderr
    assert not (tmp_path / "x").exists()


def test_a_pyxis_model_exports_and_runs_as_a_trace(tmp_path):
    """A Pyxis workload is exported as its equivalent DAG (WorkloadConfig::GetExportDag), one
    file per chip, and the traces run as a `kind: chakra` workload on the same pod: every node
    finishes on every chip it runs on (no row without an end)."""
    example = ROOT / "examples" / "pyxis" / "tensor-parallel.yaml"
    out = run(example, "--export-chakra", tmp_path / "traces")
    ranks = sorted(p.name for p in (tmp_path / "traces").glob("*.et"))
    assert ranks and len(ranks) == out.count(".et")
    name = ranks[0].rsplit(".", 2)[0]
    text = example.read_text()
    start = text.index("workloads:")
    end = text.find("output:")
    chakra = tmp_path / "pyxis-chakra.yaml"
    chakra.write_text(
        text[:start] + f"workloads:\n  - {{kind: chakra, name: {name}, trace: traces/{name}}}\n"
        + (text[end:] if end >= 0 else "")
    )
    run(chakra, "--out", tmp_path / "chakra.h5")
    with h5py.File(tmp_path / "chakra.h5", "r") as f:
        d = f["dag_nodes"]
        assert len(d["node"]) > 0
        assert sorted(set(d["accelerator"][()].tolist())) == list(range(len(ranks)))
        assert (d["end_ps"][()] >= d["start_ps"][()]).all() and (d["start_ps"][()] >= 0).all()
