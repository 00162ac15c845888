# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""Distributed runs with ns-3's MPI distributed simulator (contrib/mpi).

A distributed run must give the same results as the sequential run of the same scenario
(DESIGN.md, "Growing past one machine"): ns-3's granted-time-window synchronization is
conservative (no rank processes an event before every unit that could precede it has arrived;
the lookahead is the propagation delay between ranks, 13.8 ns for 3 m of twinax),
FabricRemoteChannel delivers a unit at the receive time the same link gives on one rank, and
units that reach a node in the same picosecond are handed over in the canonical order of
FabricArrivalOrder (pod.arrival-order: canonical, the default, which a distributed run always
uses), which does not depend on which sender's event ran first. The expected values are therefore those of
podsim-run with pod.arrival-order: canonical, to the picosecond, on the 64-XPU SUE scenario
examples/scenarios/sue-distributed.yaml (4 planes, PFC; a 32:1 incast of writes, a 32:1 incast
of reads, an all-to-all, a permutation; with 2 and 4 ranks every switch has XPUs of every rank
on its ports, so units cross ranks on every plane):

- with 1, 2 and 4 ranks, all four workloads;
- two 2-rank runs of the full scenario are identical;
- the sequential run in ns-3's order (pod.arrival-order: insertion) differs from the canonical
  one on this scenario (so the comparison above is one that the order of simultaneous arrivals
  decides).

Skipped, with the reason, when contrib/mpi was not built (Open MPI or Debian's ns3 source
package missing: ./podsim setup installs both) or mpirun is missing.
"""

import os
import shutil
import subprocess

import pytest

from conftest import ROOT

h5py = pytest.importorskip("h5py")

BUILD = ROOT / os.environ.get("PODSIM_BUILD_DIR", "build")
RUN = BUILD / "bin" / "podsim-run"
RUN_MPI = BUILD / "bin" / "podsim-run-mpi"
SCENARIO = ROOT / "examples" / "scenarios" / "sue-distributed.yaml"


def _mpirun(ranks):
    cmd = ["mpirun", "-np", str(ranks), "--oversubscribe", "--bind-to", "none"]
    if os.geteuid() == 0:
        cmd.append("--allow-run-as-root")
    return cmd


@pytest.fixture(scope="module")
def mpi_built():
    if not RUN.is_file():
        pytest.skip(f"{RUN} not built")
    if not RUN_MPI.is_file():
        pytest.skip(f"{RUN_MPI} not built: contrib/mpi needs Open MPI and Debian's ns3 source "
                    "package (./podsim setup; the cmake output says which is missing)")
    if shutil.which("mpirun") is None:
        pytest.skip("mpirun not found (./podsim setup installs openmpi-bin)")


def _messages(path):
    with h5py.File(path, "r") as f:
        m = f["messages"]
        return {k: m[k][()] for k in ("src", "dst", "bytes", "deliver_ps", "complete_ps")}


@pytest.fixture(scope="module")
def sequential(mpi_built, tmp_path_factory):
    """{order: message table of podsim-run} for pod.arrival-order canonical and insertion."""
    tmp = tmp_path_factory.mktemp("mpi")
    out = {}
    for order in ("canonical", "insertion"):
        h5 = tmp / f"{order}.h5"
        subprocess.run([str(RUN), str(SCENARIO), f"--out={h5}", "--quiet",
                        f"--set=pod.arrival-order={order}"],
                       check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
        out[order] = _messages(h5)
    return out


def _distributed(scenario, ranks, tmp_path):
    out = tmp_path / f"ranks{ranks}.h5"
    p = subprocess.run(_mpirun(ranks) + [str(RUN_MPI), str(scenario), f"--out={out}"],
                       cwd=ROOT, capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr
    # The summary line says how many units crossed ranks: none with one rank, some otherwise.
    line = next(ln for ln in p.stdout.splitlines() if ln.startswith("distributed run:"))
    crossed = int(line.split(" units between ranks")[0].rsplit(" ", 1)[1])
    assert (crossed == 0) == (ranks == 1), line
    return _messages(out)


def _assert_same(got, ref, what):
    for col in ("src", "dst", "bytes"):
        assert (got[col] == ref[col]).all(), col
    # Every message was delivered and completed in the sequential run.
    assert (ref["deliver_ps"] > 0).all() and (ref["complete_ps"] > 0).all()
    for col in ("deliver_ps", "complete_ps"):
        diff = (got[col] != ref[col]).nonzero()[0]
        assert len(diff) == 0, (
            f"{what}: {len(diff)} of {len(ref['src'])} {col} differ, first row {diff[:1]}: "
            f"{got[col][diff[:1]]} vs sequential {ref[col][diff[:1]]}")


# 8 ranks: more ranks than the scenario's 4 planes, so ranks 0, 2, 4 and 6 hold one plane's
# switch each (64 link ends, the mean of 512 / 8) and ranks 1, 3, 5 and 7 the XPUs
# (PodTopology::BalanceAccelerators): every packet-hop crosses ranks.
@pytest.mark.parametrize("ranks", [1, 2, 4, 8])
def test_distributed_run_matches_sequential(sequential, tmp_path, ranks):
    ref = sequential["canonical"]
    # 32 writes + 32 reads + 64 * 63 pairs + 64 permutation messages.
    assert len(ref["src"]) == 32 + 32 + 64 * 63 + 64
    _assert_same(_distributed(SCENARIO, ranks, tmp_path), ref, f"{ranks} ranks")


def test_distributed_run_is_reproducible(mpi_built, tmp_path):
    # FabricArrivalOrder sorts the units of a picosecond, whatever the order in which MPI
    # delivered them: two 2-rank runs of the full scenario are identical.
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a = _distributed(SCENARIO, 2, tmp_path / "a")
    b = _distributed(SCENARIO, 2, tmp_path / "b")
    _assert_same(a, b, "two 2-rank runs")


def test_scenario_has_simultaneous_arrivals(sequential):
    # The insertion order (ns-3's) and the canonical one (the default) give different times on
    # this scenario: units from several senders do reach one port in the same picosecond (the
    # incasts, the synchronized all-to-all), so the tests above compare a run that a wrong order
    # of simultaneous arrivals would change. Same messages, same bytes, all delivered either way.
    ins, can = sequential["insertion"], sequential["canonical"]
    for col in ("src", "dst", "bytes"):
        assert (ins[col] == can[col]).all(), col
    assert (ins["deliver_ps"] > 0).all()
    assert (ins["deliver_ps"] != can["deliver_ps"]).any()


def test_unsupported_scenario_is_refused(mpi_built, tmp_path):
    # Collectives coordinate ranks outside the links: refused, naming the field.
    path = tmp_path / "coll.yaml"
    path.write_text(
        "name: coll\n"
        "pod: {fabric: sue, accelerators: 8, planes: 2}\n"
        "workloads:\n"
        "  - {kind: collective, collective: all-reduce, algorithm: ring, size: 64KiB}\n"
        "output: {plots: false, progress: false}\n")
    p = subprocess.run(_mpirun(2) + [str(RUN_MPI), str(path), f"--out={tmp_path / 'x.h5'}"],
                       cwd=ROOT, capture_output=True, text=True)
    assert p.returncode == 2, p.stdout + p.stderr
    assert "workloads[0].kind" in p.stderr and "collective" in p.stderr, p.stderr
    assert not (tmp_path / "x.h5").exists()
