# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""The examples by question (examples/questions/*.yaml) answer their question.

Each scenario runs at reduced size through podsim.run (no results file) and is checked on what
its question is about, with expectations from conservation laws, closed forms or the specs:

- incast-buffer: without flow control a buffer smaller than the incast's backlog drops
  (BufferFull only) with sent = received + dropped, one that holds it all does not; PFC and CBFC
  drop nothing and the incast ends at the receiver's line rate (frames x wire time);
- pfc-vs-cbfc: both lossless; PFC pauses, CBFC never does (it stalls on credits); the incast
  ends at the receiver's line rate under both;
- llr-bit-errors: without LLR the Corrupted drops are the binomial count of frames lost
  (fabric.rst error model: 7 codewords per 4134 B frame) within 5 sigma; with LLR replays and
  discards happen, nothing is dropped, every byte arrives, and not earlier than without errors;
- sue-ordering: strict mode delivers each pair's messages in posting order over one port (seed
  000 section 1.2); unordered spreads the receiver's bytes evenly over the instance's 4 ports and
  finishes about 4 times sooner;
- ualink-bifurcation: port rates x4 : 2x2 : 4x1 = 4 : 2 : 1 (UALink_200 section 2.4), a
  bandwidth-bound incast takes about 1 : 2 : 4, and never less than its bytes at the receiver's
  signalling rate;
- cell-pages: by Little's law a VOQ with at most XOFF pages outstanding, each for at least one
  request/grant round trip 2D, moves at most XOFF pages per 2D; with XOFF 1 the transfer takes
  pages x 2D;
- collective-sizes: ring and halving-doubling all-reduce within 5% of the alpha-beta closed
  forms of collective.rst at 8 MiB, and the model's order at 4 KiB;
- pyxis-tp-layer: the layer passes analysis/pyxis_timeline.py's checks with the model file
  reused by relative path, and late Rx posting costs one D per all-reduce step (pyxis.rst).

Every question's `./podsim sweep` line (in its header) is run at reduced size through
utils/sweep.py: it parses, every combination runs, and the incast-buffer sweep's table shows
the answer (drops only without flow control and with the small buffer).
"""

import importlib.util
import math
import re
import shlex
import subprocess
import sys

import numpy as np
import pytest

from conftest import ROOT

QUESTIONS = ROOT / "examples" / "questions"
PROG = ROOT / "build" / "bin" / "podsim-run"
SWEEP = ROOT / "utils" / "sweep.py"

# The reduced size of each question (its values stay valid for every value its sweep varies).
REDUCED = {
    "incast-buffer.yaml": {"pod.accelerators": 32, "pod.switch.radix": 32,
                           "workloads[0].senders": 16},
    "pfc-vs-cbfc.yaml": {"pod.accelerators": 32, "workloads[0].senders": 16,
                         "workloads[0].size": "128KiB"},
    "llr-bit-errors.yaml": {"pod.accelerators": 16, "pod.switch.radix": 16,
                            "workloads[0].size": "1MiB"},
    "sue-ordering.yaml": {"pod.accelerators": 16, "pod.switch.radix": 16,
                          "workloads[0].senders": 8, "workloads[1].senders": 8},
    "ualink-bifurcation.yaml": {"pod.accelerators": 16, "pod.switch.radix": 16,
                                "workloads[0].senders": 8},
    "cell-pages.yaml": {"pod.accelerators": 4},
    "collective-sizes.yaml": {"pod.accelerators": 8, "pod.switch.radix": 8},
    # The model's 8 chips (tensor 8) are its size.
    "pyxis-tp-layer.yaml": {},
}

# Ethernet frame on the wire: 4096 B payload + 18 B header + 20 B preamble and gap (fabric.rst).
FRAME_WIRE = 4096 + 18 + 20
# Time of one full frame at 800 Gb/s, in ps.
T_FRAME_800G = FRAME_WIRE * 8 / 800e9 * 1e12


def run(podsim, name, extra=None):
    over = dict(REDUCED[name])
    over.update(extra or {})
    return podsim.run(QUESTIONS / name, over, write_results=False)


def assert_lossless(r):
    m, s = r["messages"], r["summary"]
    assert s["bytes_dropped"] == 0 and s["drops_by_reason"] == {}
    assert (m["deliver_ps"] >= m["post_ps"]).all() and (m["deliver_ps"] >= 0).all()
    assert s["bytes_received"] == s["bytes_sent"] == int(m["bytes"].sum())


def test_every_question_has_a_file():
    assert sorted(p.name for p in QUESTIONS.glob("*.yaml")) == sorted(REDUCED)


# --- incast-buffer ---------------------------------------------------------------------------

def test_incast_buffer(podsim):
    # 16 x 1 MiB = 16 MiB into one 800G port: 4096 frames on the receiver's link at least.
    bound_ps = 16 * 256 * T_FRAME_800G
    small = run(podsim, "incast-buffer.yaml",
                {"pod.switch.buffer": "8MiB", "pod.flow-control.kind": "none"})
    s, m = small["summary"], small["messages"]
    # 8 MiB cannot hold the backlog (16 MiB in, at most 1/16 of it drained meanwhile).
    assert s["bytes_dropped"] > 0 and set(s["drops_by_reason"]) == {"BufferFull"}
    assert s["bytes_sent"] == s["bytes_received"] + s["bytes_dropped"]  # conservation
    assert (m["deliver_ps"] < 0).any()
    # A buffer larger than the whole incast cannot overflow.
    big = run(podsim, "incast-buffer.yaml",
              {"pod.switch.buffer": "32MiB", "pod.flow-control.kind": "none"})
    assert_lossless(big)
    for kind in ("pfc", "cbfc"):
        r = run(podsim, "incast-buffer.yaml",
                {"pod.switch.buffer": "8MiB", "pod.flow-control.kind": kind})
        assert_lossless(r)
        last = int(r["messages"]["deliver_ps"].max())
        # Line rate bound, plus at most 5% (cable, switch and pause/credit reaction).
        assert bound_ps <= last <= 1.05 * bound_ps, (kind, last, bound_ps)
        assert r["summary"]["peak_switch_buffer_bytes"] <= 8 * 1024 * 1024


# --- pfc-vs-cbfc -----------------------------------------------------------------------------

def test_pfc_vs_cbfc(podsim):
    # 16 x 128 KiB = 512 frames into accelerator 0, plus the all-to-all's 31 x 4 KiB.
    bound_ps = (16 * 32 + 31) * T_FRAME_800G
    out = {}
    for kind in ("pfc", "cbfc"):
        r = run(podsim, "pfc-vs-cbfc.yaml", {"pod.flow-control.kind": kind})
        assert_lossless(r)
        m = r["messages"]
        to0 = m["dst"] == 0
        last = int(m["deliver_ps"][to0].max())
        assert bound_ps <= last <= 1.05 * bound_ps, (kind, last, bound_ps)
        assert r["links"]["control_packets"].sum() > 0
        # The summary's pause and stall are the sums of the link columns.
        assert r["summary"]["pause_ps"] == int(r["links"]["pause_ps"].sum())
        assert r["summary"]["stall_ps"] == int(r["links"]["stall_ps"].sum())
        out[kind] = r["summary"]
    assert out["pfc"]["pause_ps"] > 0
    assert out["cbfc"]["pause_ps"] == 0 and out["cbfc"]["stall_ps"] > 0


# --- llr-bit-errors --------------------------------------------------------------------------

def test_llr_bit_errors(podsim):
    cer = 1e-3
    # fabric.rst: a 4134 B frame spans ceil(8 x 4134 / 5140) = 7 codewords.
    per_frame = 1 - (1 - cer) ** math.ceil(8 * FRAME_WIRE / 5140)
    off = run(podsim, "llr-bit-errors.yaml",
              {"pod.llr.mode": "off", "pod.link.codeword-error-rate": cer})
    s = off["summary"]
    assert set(s["drops_by_reason"]) == {"Corrupted"}
    assert s["bytes_sent"] == s["bytes_received"] + s["bytes_dropped"]
    # Every transmitted frame is corrupted independently: a binomial count.
    n = int(off["links"]["tx_packets"].sum())
    lost = s["drops_by_reason"]["Corrupted"]
    mean, sd = n * per_frame, math.sqrt(n * per_frame * (1 - per_frame))
    assert abs(lost - mean) <= 5 * sd, (lost, mean, sd)

    on = run(podsim, "llr-bit-errors.yaml", {"pod.link.codeword-error-rate": cer})
    assert_lossless(on)
    assert on["summary"]["replays"] > 0 and on["links"]["rx_discarded"].sum() > 0
    clean = run(podsim, "llr-bit-errors.yaml", {"pod.link.codeword-error-rate": 0})
    assert_lossless(clean)
    # Replays only add time: the last delivery is not earlier than without errors.
    assert on["messages"]["deliver_ps"].max() >= clean["messages"]["deliver_ps"].max()


# --- sue-ordering ----------------------------------------------------------------------------

def _down_bytes_into(r, acc, planes):
    L = r["links"]
    names = list(L["name"])
    return [int(L["tx_bytes"][names.index(f"p{p}.sw0->acc{acc}")]) for p in range(planes)]


def test_sue_ordering(podsim):
    strict = run(podsim, "sue-ordering.yaml", {"pod.sue.ordering": "strict"})
    unordered = run(podsim, "sue-ordering.yaml", {"pod.sue.ordering": "unordered"})
    for r in (strict, unordered):
        assert_lossless(r)
    # Strict (SUE RM102 section 1.2): per source and destination, delivery order = posting order.
    m = strict["messages"]
    for src in np.unique(m["src"]):
        rows = np.nonzero((m["src"] == src) & (m["dst"] == 0))[0]
        rows = rows[np.lexsort((rows, m["post_ps"][rows]))]
        assert len(rows) == 2
        # (The tail may ride in the PDU of the bulk's last bytes, packing across messages,
        # section 3.3: then both are delivered in the same picosecond, still in order.)
        assert (np.diff(m["deliver_ps"][rows]) >= 0).all(), src
    # Unordered mode promises no order (section 1.2); here a free port carries each tail before
    # its sender's bulk ends, so the same check fails: it tells the two modes apart.
    m = unordered["messages"]
    bulk, tail = m["workload"] == 0, m["workload"] == 1
    assert (m["src"][bulk] == m["src"][tail]).all()
    assert (m["deliver_ps"][tail] < m["deliver_ps"][bulk]).any()
    # Strict serves destination 0 on port 0 mod 4 = 0 only; unordered on all 4 ports, a quarter
    # each (within 10%).
    s_bytes = _down_bytes_into(strict, 0, 4)
    assert s_bytes[0] > 0 and s_bytes[1:] == [0, 0, 0]
    u_bytes = _down_bytes_into(unordered, 0, 4)
    for b in u_bytes:
        assert abs(b - sum(u_bytes) / 4) <= 0.1 * sum(u_bytes) / 4, u_bytes
    # 4 ports against 1: about 4 times sooner (within 10%; the fixed latency is the rest).
    ratio = strict["summary"]["sim_time_ps"] / unordered["summary"]["sim_time_ps"]
    assert 0.9 * 4 <= ratio <= 4, ratio


# --- ualink-bifurcation ----------------------------------------------------------------------

def test_ualink_bifurcation(podsim):
    res = {b: run(podsim, "ualink-bifurcation.yaml", {"pod.ualink.bifurcation": b})
           for b in ("x4", "2x2", "4x1")}
    rate, time = {}, {}
    for b, r in res.items():
        assert_lossless(r)
        assert (r["messages"]["complete_ps"] >= 0).all()
        rates = np.unique(r["links"]["rate_bps"])
        assert len(rates) == 1
        rate[b], time[b] = float(rates[0]), r["summary"]["sim_time_ps"]
        # The receiver's 4 ports cannot take the 8 x 256 KiB faster than their signalling rate.
        assert time[b] >= r["summary"]["bytes_sent"] * 8 / (4 * rate[b]) * 1e12
    # UALink_200 section 2.4 and 7.1: a port of k lanes of 212.5 GT/s.
    assert rate["x4"] == 4 * 212.5e9 and rate["2x2"] == 2 * 212.5e9 and rate["4x1"] == 212.5e9
    # Bandwidth-bound: time inversely proportional to the port rate (within 10%).
    assert 0.9 * 2 <= time["2x2"] / time["x4"] <= 2.0 * 1.02
    assert 0.9 * 4 <= time["4x1"] / time["x4"] <= 4.0 * 1.02


# --- cell-pages ------------------------------------------------------------------------------

# One-way time D of a control cell on an idle path (cell-pages.yaml's header, the defaults of
# pod.cell: tx-latency, link-delay, switch-latency, rx-latency; 96 B control cell + 16 B header
# at the 106.25 Gb/s cell link rate).
D_MIN_PS = 240e3 + 50e3 + 400e3 + 50e3 + 240e3
D_PS = D_MIN_PS + (96 + 16) * 8 / 106.25e9 * 1e12


@pytest.mark.parametrize("words", [37, 125])
def test_cell_pages(podsim, words):
    size = 1 << 20
    pages = math.ceil(size / (words * 128))
    profiles = {0: 64, 1: 1, 2: 8}  # xoff of each profile in the file
    times = {}
    for prof, xoff in profiles.items():
        r = run(podsim, "cell-pages.yaml",
                {"pod.cell.page-size-words": words, "pod.cell.occupancy-profile": prof})
        assert_lossless(r)
        m = r["messages"]
        lat = int((m["deliver_ps"] - m["post_ps"]).max())
        # Little's law: at most xoff pages outstanding, each for a request/grant round trip of
        # at least 2 D_min, so at most xoff pages per 2 D_min after the first xoff.
        assert lat >= max(0, pages - xoff) / xoff * 2 * D_MIN_PS, (prof, lat)
        times[prof] = lat
    # One page at a time: pages round trips, plus the CTS and the last page's delivery (2 D).
    assert times[1] <= (pages + 2) * 2 * D_PS * 1.02, times[1]
    assert times[1] > times[2] > times[0]


# --- collective-sizes ------------------------------------------------------------------------

def test_collective_sizes(podsim):
    n = 8
    alpha = 2 * 13.8e3 + 250e3  # 2d + L in ps (collective.rst)
    beta = T_FRAME_800G / 4096  # ps per byte

    def model(alg, size):
        steps = {"ring": 2 * (n - 1), "halving-doubling": 2 * int(math.log2(n))}[alg]
        return steps * alpha + 2 * (n - 1) / n * size * beta

    def measure(alg, size):
        r = run(podsim, "collective-sizes.yaml",
                {"workloads[0].algorithm": alg, "workloads[0].size": size})
        assert_lossless(r)
        c = r["collectives"]
        assert len(c["end_ps"]) == 1 and c["ranks"][0] == n
        return int(c["end_ps"][0] - c["start_ps"][0])

    big = 8 << 20
    for alg in ("ring", "halving-doubling"):
        t = measure(alg, big)
        assert abs(t - model(alg, big)) <= 0.05 * model(alg, big), (alg, t, model(alg, big))
    measure("double-binary-tree", big)  # completes, conserves bytes
    # At 4 KiB the model's 6 alphas (halving-doubling) against 14 (ring) decide the order.
    assert measure("halving-doubling", 4096) < measure("ring", 4096)


# --- pyxis-tp-layer --------------------------------------------------------------------------

def test_pyxis_tp_layer(podsim, tmp_path):
    spec = importlib.util.spec_from_file_location(
        "pyxis_timeline", ROOT / "analysis" / "pyxis_timeline.py")
    tl = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tl)
    loaded = podsim.load(QUESTIONS / "pyxis-tp-layer.yaml")
    # The model is the one of examples/pyxis, reused by relative path.
    assert loaded["workloads"][0]["model"].endswith("pyxis/tp8-layer.yaml")
    assert loaded["workloads"][0]["chips"] == 8
    h5 = tmp_path / "tp.h5"
    pre = podsim.run(QUESTIONS / "pyxis-tp-layer.yaml", results_file=h5)
    trips, layers = tl.read_pyxis(h5)
    assert tl.check_layers(layers) == [] and tl.check_trips(trips, layers) == []
    assert sorted(set(np.asarray(layers["chip"]).tolist())) == list(range(8))
    late = podsim.run(QUESTIONS / "pyxis-tp-layer.yaml", {"workloads[0].rx-posting": "late"},
                      write_results=False)
    # pyxis.rst: late posting adds D per step of the layer's 2 ring all-reduces of 2(P-1) steps.
    extra = late["summary"]["sim_time_ps"] - pre["summary"]["sim_time_ps"]
    expected = 2 * 2 * (8 - 1) * D_PS
    assert abs(extra - expected) <= 0.03 * expected, (extra, expected)


# --- the sweep lines -------------------------------------------------------------------------

def sweep_line(path):
    """The `./podsim sweep ...` command of a question's header, as a list of words."""
    for line in path.read_text().splitlines():
        if not line.startswith("#"):
            break
        words = line.lstrip("#").strip()
        if words.startswith("./podsim sweep "):
            return shlex.split(words)
    return None


@pytest.mark.skipif(not PROG.exists(), reason="podsim-run is not built")
@pytest.mark.parametrize("name", sorted(REDUCED))
def test_sweep_line_runs_reduced(name, tmp_path):
    h5py = pytest.importorskip("h5py")
    words = sweep_line(QUESTIONS / name)
    assert words is not None, f"{name}: no ./podsim sweep line in the header"
    assert words[:3] == ["./podsim", "sweep", f"examples/questions/{name}"]
    args = words[3:]
    varied = [a.split("=", 1) for a, prev in zip(args, [""] + args) if prev == "--vary"]
    assert varied, args
    sets = [x for k, v in REDUCED[name].items() for x in ("--set", f"{k}={v}")]
    out = tmp_path / "sweep.h5"
    p = subprocess.run([sys.executable, str(SWEEP), str(QUESTIONS / name), *args, *sets,
                        "--prog", str(PROG), "--out", str(out), "-j", "2"],
                       capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 0, p.stderr
    runs = math.prod(len(v.split(",")) for _, v in varied)
    with h5py.File(out) as f:
        s = f["sweep"]
        assert len(s["run"]) == runs and (s["exit"][()] == 0).all()
        if name == "incast-buffer.yaml":
            buf = [v.decode() for v in s["pod.switch.buffer"][()]]
            kind = [v.decode() for v in s["pod.flow-control.kind"][()]]
            dropped = list(s["bytes_dropped"][()])
            for b, k, d in zip(buf, kind, dropped):
                # 16 MiB of incast: only the 8 MiB buffer without flow control overflows.
                assert (d > 0) == (k == "none" and b == "8MiB"), (b, k, d)
