# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""A UALink or SUE run split by rails (podsim-run --rails, utils/rails.py).

Expected values come from the decomposition argument (src/ualink/doc/ualink.rst, "Rails in
parallel"; UALink 200 sections 1.1, 2.4, 10.7): the pod's switches are single-tier, one per
accelerator port (a rail), with no switch-to-switch link; a message's 256 B requests are dealt to
the ports by the rail hash, and every port has its own tags, UPLI credits (mode Ideal), TL queue
and link, and the completer answers on the port the request came in on. With no fault and static
workloads the rails never interact, so simulating each rail alone gives, event for event, what
that rail does in the whole run. Hence the merged split run must equal the monolithic one
EXACTLY: every message's deliver and complete time (the latest of its rails') to the picosecond,
every link's counters (each link belongs to one rail), the total transaction-hops; and, as in any
lossless run, bytes are conserved with no drop (fabric_checks.lossless).

The pod is the benchmark's layout (examples/bench/ualink-all-to-all.yaml) at 64 accelerators:
4 x4 ports on 4 rails, switches of 64 ports. Workloads: an all-to-all of 4 KiB (16 requests per
message, 4 per rail), a 16:1 incast of 64 KiB, and a permutation of 512 B (2 requests: rails 0
and 1 only, so rails 2 and 3 mark it not theirs, -2). UALink scenarios have no read workload
(workloads[].operation is SUE's), so reads are not covered here.
"""

import subprocess
import sys

import numpy as np
import pytest

import fabric_checks
from conftest import DATA, ROOT

PROG = ROOT / "build" / "bin" / "podsim-run"
RAILS = ROOT / "utils" / "rails.py"

pytestmark = pytest.mark.skipif(not PROG.exists(), reason="podsim-run is not built")

SCENARIO = """\
name: ualink-rails-64
pod:
  fabric: ualink
  accelerators: 64
  planes: 4
  switch: {radix: 64}
  link: {cable: twinax, length: 3m}
  ualink: {bifurcation: x4, lane-rate: 200g}
workloads:
  - {kind: all-to-all, size: 4KiB}
  - {kind: incast, senders: 16, receiver: 5, size: 64KiB}
  - {kind: permutation, size: 512B}
output: {plots: false, progress: false}
"""


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """(monolithic results file, merged split results file, split stdout)."""
    d = tmp_path_factory.mktemp("rails")
    yaml = d / "ualink-rails.yaml"
    yaml.write_text(SCENARIO)
    mono = d / "mono.h5"
    p = subprocess.run([str(PROG), str(yaml), "--quiet", f"--out={mono}"], capture_output=True,
                       text=True)
    assert p.returncode == 0, p.stderr
    split = d / "split.h5"
    p = subprocess.run([sys.executable, str(RAILS), str(yaml), "--prog", str(PROG), "-j", "2",
                        "--out", str(split)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    return yaml, mono, split, p.stdout


def test_split_rails_equals_the_monolithic_run(podsim, runs):
    h5py = pytest.importorskip("h5py")
    _, mono, split, out = runs
    a, b = podsim.read(mono), podsim.read(split)
    ma, mb = a["messages"], b["messages"]
    assert len(ma["deliver_ps"]) == 4032 + 16 + 64
    # Every message: delivered and completed at the same picosecond.
    for col in ("src", "dst", "bytes", "post_ps", "deliver_ps", "complete_ps"):
        assert np.array_equal(np.asarray(ma[col]), np.asarray(mb[col])), col
    # Every link direction: the same counters.
    la, lb = a["links"], b["links"]
    assert list(la["name"]) == list(lb["name"])
    for col in ("tx_bytes", "tx_wire_bytes", "tx_packets", "busy_ps", "stall_ps",
                "control_packets"):
        assert np.array_equal(np.asarray(la[col]), np.asarray(lb[col])), col
    sa, sb = a["summary"], b["summary"]
    for key in ("packet_hops", "bytes_sent", "bytes_received", "bytes_delivered", "sim_time_ps"):
        assert sa[key] == sb[key], key
    fabric_checks.lossless(b)
    # The latency histograms, recomputed from the merged messages, are the monolithic run's.
    assert_same_histograms(h5py, mono, split)
    # The merged file says what it covers; the summary table printed as a run's.
    with h5py.File(split) as f:
        assert f.attrs["rails"] == "0,1,2,3"
        assert int(f.attrs["split_rails_processes"]) == 4
        assert int(f["summary"].attrs["peak_rss_bytes_sum"]) >= int(sb["peak_rss_bytes"])
    assert "permutation-2" in out and "results:" in out


def assert_same_histograms(h5py, mono, split):
    """/histograms/message_latency of both files: equal row for row (the same message table
    gives the same bins, src/pod/doc/pod.rst "Results file")."""
    with h5py.File(mono) as fa, h5py.File(split) as fb:
        ga, gb = fa["histograms/message_latency"], fb["histograms/message_latency"]
        assert ga.attrs["bins_per_decade"] == gb.attrs["bins_per_decade"]
        assert sorted(ga) == sorted(gb)
        assert len(ga["count"]) > 0
        for col in ga:
            assert np.array_equal(ga[col][()], gb[col][()]), col


def run_rails(podsim, yaml, out, rails):
    """podsim-run --rails=RAILS into out; its results (podsim.read)."""
    p = subprocess.run([str(PROG), str(yaml), "--quiet", f"--rails={rails}", f"--out={out}"],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    return podsim.read(out)


def test_one_rail_carries_its_share(podsim, runs, tmp_path):
    """Rail 2 alone: a quarter of the 4 KiB and 64 KiB messages' bytes (4 and 64 requests of
    256 B each dealt round 4 ports), none of the 512 B permutation's (requests 0 and 1 go on
    ports 0 and 1): its rows are -2 (not this run's) and count as no failure."""
    h5py = pytest.importorskip("h5py")
    out = tmp_path / "rail2.h5"
    r = run_rails(podsim, runs[0], out, "2")
    m = r["messages"]
    wl = np.asarray(m["workload"])
    deliver = np.asarray(m["deliver_ps"])
    assert (deliver[wl == 2] == -2).all() and (np.asarray(m["complete_ps"])[wl == 2] == -2).all()
    assert (deliver[wl != 2] >= 0).all()
    share = (4032 * 4096 + 16 * 65536) // 4
    s = r["summary"]
    assert s["bytes_sent"] == s["bytes_received"] == s["bytes_delivered"] == share
    assert s["messages_failed"] == 0
    with h5py.File(out) as f:
        assert f.attrs["rails"] == "2"


def refused(tmp_path, yaml, *args):
    out = tmp_path / "refused.h5"
    p = subprocess.run([str(PROG), str(yaml), "--quiet", f"--out={out}", *args],
                       capture_output=True, text=True)
    assert p.returncode == 2, p.stdout + p.stderr
    assert not out.exists()
    return p.stderr


@pytest.mark.parametrize("args, field", [
    (["--rails=0", "--set=pod.ualink.upli=tdm"], "pod.ualink.upli"),
    (["--rails=0", "--set=pod.ualink.watchdog=2us"], "pod.ualink.watchdog"),
    (["--rails=0", "--set=pod.ualink.watchdog=2us", "--set=pod.ualink.station-reset=1us"],
     "pod.ualink.station-reset"),
    (["--rails=0", "--set=pod.ualink.fail-link=true"], "pod.ualink.fail-link"),
    (["--rails=0", "--set=pod.link.ber=1e-12", "--set=pod.ualink.replay=true"], "pod.link.ber"),
    (["--rails=0", "--check"], "--check"),
    (["--rails=4"], "rail 4"),
    (["--rails=0,0"], "given twice"),
    (["--rails=a"], "not a rail number"),
])
def test_rails_refuses_what_couples_them(runs, tmp_path, args, field):
    err = refused(tmp_path, runs[0], *args)
    assert "--rails" in err and field in err


def test_rails_refuses_other_fabrics_faults_and_dynamic_workloads(runs, tmp_path):
    assert "pod.fabric" in refused(tmp_path, DATA / "small.yaml", "--rails=0")
    faults = tmp_path / "faults.yaml"
    faults.write_text(SCENARIO.replace(
        "output:", "faults:\n  - {kind: link-down, accelerator: 3, plane: 0, at: 300ns}\noutput:"))
    assert "faults" in refused(tmp_path, faults, "--rails=0")
    coll = tmp_path / "collective.yaml"
    coll.write_text(SCENARIO.replace(
        "  - {kind: permutation, size: 512B}\n",
        "  - {kind: collective, collective: all-reduce, size: 64KiB}\n"))
    assert "workloads[2].kind" in refused(tmp_path, coll, "--rails=0")


def test_split_rails_with_a_refused_feature_writes_nothing(runs, tmp_path):
    out = tmp_path / "split.h5"
    p = subprocess.run([sys.executable, str(RAILS), str(runs[0]), "--prog", str(PROG),
                        "--out", str(out), "--set", "pod.ualink.upli=tdm"],
                       capture_output=True, text=True)
    assert p.returncode == 2 and "pod.ualink.upli" in p.stderr
    assert not out.exists()


# ---- SUE: a switch plane is a rail (src/sue/doc/sue.rst, "Planes in parallel") ----------------
#
# Expected values come from the same decomposition argument: in a switched SUE pod each plane has
# its own switches and links, and each SUE instance of P ports has its own planes (ports kP to
# kP + P - 1), packer, transport and credits (SUE RM102 sections 1.1, 4.3); a message goes whole
# to one instance, chosen by the load balance from the order of the posts alone (Hash:
# (source + destination) mod instances; RoundRobin: the next instance). With no fault and static
# workloads the instances never interact, so the merged split run must equal the monolithic one
# EXACTLY: every message's times, every link's counters, every switch's buffer samples.

SUE_SCENARIO = """\
name: sue-rails-64
pod:
  fabric: sue
  accelerators: 64
  planes: 4
  switch: {radix: 64, latency: 250ns, buffer: 8MiB}
  link: {rate: 800Gbps, cable: twinax, length: 3m}
  flow-control: {kind: pfc}
  sue: {ports: 1, ordering: strict, header: afh-gen2-12}
workloads:
  - {kind: all-to-all, size: 4KiB}
  - {kind: incast, senders: 16, receiver: 5, size: 64KiB}
  - {kind: permutation, size: 512B}
output: {plots: false, progress: false}
"""


def sue_pair(tmp_path, sets=(), split_args=()):
    """(monolithic file, merged split file, split stdout) of SUE_SCENARIO with overrides."""
    yaml = tmp_path / "sue-rails.yaml"
    yaml.write_text(SUE_SCENARIO)
    mono, split = tmp_path / "mono.h5", tmp_path / "split.h5"
    p = subprocess.run([str(PROG), str(yaml), "--quiet", f"--out={mono}"]
                       + [f"--set={s}" for s in sets], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    cmd = [sys.executable, str(RAILS), str(yaml), "--prog", str(PROG), "-j", "2",
           "--out", str(split), *split_args]
    for s in sets:
        cmd += ["--set", s]
    p = subprocess.run(cmd, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    return mono, split, p.stdout


def assert_same_run(podsim, mono, split):
    h5py = pytest.importorskip("h5py")
    a, b = podsim.read(mono), podsim.read(split)
    ma, mb = a["messages"], b["messages"]
    assert len(ma["deliver_ps"]) == 4032 + 16 + 64
    assert (np.asarray(mb["deliver_ps"]) >= 0).all()
    for col in ("src", "dst", "bytes", "post_ps", "deliver_ps", "complete_ps"):
        assert np.array_equal(np.asarray(ma[col]), np.asarray(mb[col])), col
    la, lb = a["links"], b["links"]
    assert list(la["name"]) == list(lb["name"])
    for col in ("tx_bytes", "tx_wire_bytes", "tx_packets", "busy_ps", "stall_ps", "pause_ps",
                "control_packets"):
        assert np.array_equal(np.asarray(la[col]), np.asarray(lb[col])), col
    sa, sb = a["summary"], b["summary"]
    for key in ("packet_hops", "bytes_sent", "bytes_received", "bytes_delivered", "sim_time_ps",
                "peak_switch_buffer_bytes"):
        assert sa[key] == sb[key], key
    fabric_checks.lossless(b)
    with h5py.File(mono) as fa, h5py.File(split) as fb:
        ga, gb = fa["timeseries/switch_buffer"], fb["timeseries/switch_buffer"]
        assert len(ga["switch"]) > 0
        for col in ga:
            assert np.array_equal(ga[col][()], gb[col][()]), col
    assert_same_histograms(h5py, mono, split)


@pytest.mark.parametrize("sets, split_args, parts", [
    ((), (), 4),
    ((), ("--parts", "2"), 2),
    (("pod.sue.load-balance=round-robin", "pod.sue.ordering=unordered",
      "pod.sue.congestion-control=delay"), ("--parts", "3"), 3),
    # Instances of 2 ports of 400G (Table 4 of SUE RM102): planes 0-1 and 2-3 go together.
    (("pod.sue.ports=2", "pod.link.rate=400Gbps"), (), 2),
])
def test_sue_split_planes_equals_the_monolithic_run(podsim, tmp_path, sets, split_args, parts):
    h5py = pytest.importorskip("h5py")
    mono, split, out = sue_pair(tmp_path, sets, split_args)
    assert_same_run(podsim, mono, split)
    with h5py.File(split) as f:
        assert f.attrs["rails"] == "0,1,2,3"
        assert int(f.attrs["split_rails_processes"]) == parts


def test_sue_one_plane_carries_its_messages(podsim, tmp_path):
    """Plane 1 alone, Hash: the messages with (source + destination) mod 4 == 1 (SUE RM102
    section 4.3) are this run's, delivered; the others are -2; bytes sent are theirs."""
    yaml = tmp_path / "sue-rails.yaml"
    yaml.write_text(SUE_SCENARIO)
    r = run_rails(podsim, yaml, tmp_path / "plane1.h5", "1")
    m = r["messages"]
    src, dst = np.asarray(m["src"]), np.asarray(m["dst"])
    mine = (src + dst) % 4 == 1
    deliver = np.asarray(m["deliver_ps"])
    assert mine.any() and (~mine).any()
    assert (deliver[mine] >= 0).all() and (deliver[~mine] == -2).all()
    assert (np.asarray(m["complete_ps"])[~mine] == -2).all()
    share = int(np.asarray(m["bytes"])[mine].sum())
    s = r["summary"]
    assert s["bytes_sent"] == s["bytes_received"] == s["bytes_delivered"] == share
    assert s["messages_failed"] == 0
    # Only plane 1's links carried anything.
    planes = np.asarray(r["links"]["plane"])
    tx = np.asarray(r["links"]["tx_bytes"])
    assert tx[planes == 1].sum() > 0 and tx[planes != 1].sum() == 0


@pytest.mark.parametrize("args, field", [
    (["--rails=0", "--set=pod.sue.load-balance=least-loaded", "--set=pod.sue.ordering=unordered"],
     "pod.sue.load-balance"),
    (["--rails=0", "--set=pod.sue.ports=2", "--set=pod.link.rate=400Gbps"], "without rail 1"),
    (["--rails=0", "--set=pod.link.codeword-error-rate=1e-6"], "pod.link.codeword-error-rate"),
    (["--rails=0", "--check"], "--check"),
    (["--rails=4"], "rail 4"),
])
def test_sue_rails_refuses_what_couples_the_planes(tmp_path, args, field):
    yaml = tmp_path / "sue-rails.yaml"
    yaml.write_text(SUE_SCENARIO)
    err = refused(tmp_path, yaml, *args)
    assert "--rails" in err and field in err


def test_sue_rails_refuses_reads_and_meshes(tmp_path):
    reads = tmp_path / "reads.yaml"
    reads.write_text(SUE_SCENARIO.replace("{kind: permutation, size: 512B}",
                                          "{kind: permutation, size: 512B, operation: read}"))
    assert "workloads[2].operation" in refused(tmp_path, reads, "--rails=0")
    assert "pod.topology" in refused(tmp_path, ROOT / "examples/scenarios/sue-mesh.yaml",
                                     "--rails=0")
