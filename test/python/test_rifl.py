# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""RIFL through scenarios (pod.fabric: rifl, RIFL paper).

A 16:1 incast of 64 KiB per sender plus a 4 KiB all-to-all on 32 accelerators over RIFL links:
every byte arrives once and nothing is dropped. The bytes on the wire follow RIFL's framing: a
4096 B NIC packet is 16 segments of 256 B with 8 bytes of L1 + L2 header each (4224 B, no
interframe gap). With bit errors, NAK-only Layer 1 recovers every byte (replays, no drop).
Combinations RIFL rules out are refused before the run, naming the field.
"""

import math

import pytest
from fabric_checks import lossless as _lossless


def lossless(r):
    _lossless(r, completions=False)


BASE = {"pod.fabric": "rifl", "pod.accelerators": 32, "pod.link.rate": "100Gbps",
        "pod.switch.radix": 64}


@pytest.fixture
def scenario(tmp_path):
    path = tmp_path / "rifl.yaml"
    path.write_text(
        "name: rifl\n"
        "pod: {accelerators: 32}\n"
        "workloads:\n"
        "  - {kind: incast, senders: 16, receiver: 0, size: 64KiB}\n"
        "  - {kind: all-to-all, size: 4KiB}\n"
        "output: {plots: false, progress: false}\n"
    )
    return path


def test_rifl_is_lossless_with_rifl_framing(podsim, scenario):
    r = podsim.run(scenario, overrides=BASE, write_results=False)
    lossless(r)
    # Every packet here is a whole 4096 B (16 segments): 16 x (256 + 8) B on the wire each, and
    # without errors NAK-only Layer 1 sends no control frame.
    links = r["links"]
    assert links["control_packets"].sum() == 0
    assert int(links["tx_wire_bytes"].sum()) == 4224 * int(links["tx_packets"].sum())


def test_rifl_pads_the_last_segment(podsim, tmp_path):
    # One 1000 B message: 4 segments of 256 B (24 B of padding) with 8 B of header each.
    path = tmp_path / "one.yaml"
    path.write_text(
        "name: one\n"
        "pod: {accelerators: 2}\n"
        "workloads:\n"
        "  - {kind: permutation, size: 1000B}\n"
        "output: {plots: false, progress: false}\n"
    )
    r = podsim.run(path, overrides={**BASE, "pod.accelerators": 2}, write_results=False)
    lossless(r)
    links = r["links"]
    up = links["kind"] == "acc-up"
    assert int(links["tx_wire_bytes"][up].sum()) == 2 * 1056
    assert r["summary"]["bytes_received"] == 2000


@pytest.mark.parametrize("radix", [64, 16])
def test_rifl_source_routes(podsim, scenario, radix):
    # Switches forward by the cells' Layer 2 source routes (Equation 1 and the header rotation);
    # radix 16 makes a two-tier leaf-spine (3 switch hops), radix 64 one switch. A wrong port
    # would misdeliver or drop (NoRoute) cells: every message must arrive, nothing dropped.
    r = podsim.run(scenario, overrides={**BASE, "pod.switch.radix": radix, "pod.planes": 2},
                   write_results=False)
    lossless(r)
    assert sum(r["summary"]["drops_by_reason"].values()) == 0


def test_rifl_layer_one_recovers_bit_errors(podsim, scenario):
    r = podsim.run(scenario, overrides={**BASE, "pod.link.ber": 1e-6}, write_results=False)
    lossless(r)
    assert r["summary"]["replays"] > 0


@pytest.mark.parametrize("over, field", [
    ({"pod.nic.mtu": 1000}, "pod.nic.mtu"),                 # not whole 256 B segments
    ({"pod.transport.kind": "go-back-n"}, "pod.transport.kind"),
    ({"pod.llr.mode": "ack-nak"}, "pod.llr.mode"),
    ({"pod.switch.radix": 512}, "pod.switch.radix"),        # 8-bit Dst Port fields
    ({"pod.rifl.switch": "voq"}, "pod.rifl.switch"),         # not an architecture
    ({"pod.rifl.islip-iterations": 0}, "pod.rifl.islip-iterations"),  # at least one
    ({"pod.switch.radix": 128}, "pod.rifl.switch"),          # iSLIP masks: 64 ports at most
])
def test_bad_rifl_combinations_are_refused(podsim, scenario, over, field):
    with pytest.raises(podsim.ScenarioError) as e:
        podsim.run(scenario, overrides={**BASE, **over}, write_results=False)
    assert e.value.field == field


def test_rifl_routes_five_hops_through_three_tiers(podsim, scenario):
    # 32 accelerators on radix-6 switches: 3 per leaf, 11 leaves (more than a spine's 6 ports),
    # so three tiers: 4 blocks of 3 leaves, each block with 3 spines, and 3 x 3 cores (RIFL paper
    # IV.A: five Dst Port fields, five switch hops). Every byte arrives; the links of every tier
    # carry traffic, so routes do cross the cores.
    r = podsim.run(scenario, overrides={**BASE, "pod.switch.radix": 6}, write_results=False)
    lossless(r)
    kinds = r["links"]["kind"]
    used = r["links"]["tx_packets"] > 0
    for kind in ("acc-up", "leaf-up", "spine-up", "core-down", "spine-down", "down"):
        assert used[kinds == kind].any(), kind


@pytest.mark.parametrize("arch", ["islip", "safc", "fifo"])
def test_rifl_switches_are_lossless_over_five_hops(podsim, scenario, arch):
    # The three-tier pod of the test above (five switch hops) with every switch a RIFL switch
    # core (VOQ + iSLIP, SAFC or FIFO, RIFL paper IV.C, V.A) and one iSLIP iteration: every byte
    # arrives once and nothing is dropped.
    r = podsim.run(scenario, overrides={**BASE, "pod.switch.radix": 6, "pod.rifl.switch": arch,
                                        "pod.rifl.islip-iterations": 1}, write_results=False)
    lossless(r)
    assert sum(r["summary"]["drops_by_reason"].values()) == 0


# ---- Layer 1 under moderate bit errors ---------------------------------------------------------
#
# RIFL's NAK-only Layer 1 must recover at any bit error rate where ACK/NAK retry does
# (src/fabric/doc/fabric.rst, Link-level retry; Validation, the pause model of NakOnly). Its
# sender once dropped a unit from the replay buffer after a fixed time even while the receiver
# was still asking for it (NAKs or replays lost for longer), then ignored every later NAK for it:
# the 16-accelerator RIFL pod below delivered 0 of its 16 permutation messages at 1e-4 and the
# no-progress watchdog stopped it at 110 ms simulated.

EXAMPLE = __import__("pathlib").Path(__file__).resolve().parents[2] / "examples" / "scenarios"


@pytest.mark.parametrize("ber", [1e-5, 3e-5, 1e-4])
def test_rifl_pod_recovers_moderate_bit_errors(podsim, ber):
    # examples/scenarios/rifl.yaml on 16 accelerators (2 planes, permutation of 256 KiB and an
    # all-to-all of 2 KiB): every byte arrives, nothing is dropped, no watchdog.
    r = podsim.run(EXAMPLE / "rifl.yaml",
                   overrides={"pod.accelerators": 16, "pod.link.ber": ber,
                              "output.plots": False, "output.progress": False},
                   write_results=False)
    lossless(r)
    assert r["summary"]["failure"] == "" and r["summary"]["watchdog"] == ""
    assert r["summary"]["replays"] > 0


def test_ethernet_nak_only_recovers_like_ack_nak(podsim):
    # pod.llr.mode nak-only on an Ethernet pod at BER 1e-4 (a 4 KiB unit spans 7 codewords of
    # 5140 bits: 97% of first transmissions are lost): every byte arrives, as with ack-nak.
    small = __import__("pathlib").Path(__file__).resolve().parent / "data" / "small.yaml"
    for mode in ("ack-nak", "nak-only"):
        r = podsim.run(small, overrides={"pod.llr.mode": mode, "pod.link.ber": 1e-4},
                       write_results=False)
        lossless(r)
        assert r["summary"]["failure"] == "", mode


def _pause_model(p, t_unit, loop, pause, q, repeat):
    """NAK-only efficiency (src/fabric/doc/fabric.rst, Validation, the pause model of NakOnly):
    a unit of wire time t_unit lost with probability p, NAKs lost with probability q, the NAK
    loop L, the retransmission cycle P and the NAK repeat R."""
    k = math.ceil(loop / t_unit)
    ok = 1 - p
    episode = loop + repeat * q / (1 - q) + pause * (1 + k * p / ok)
    return t_unit * (ok + p * k) / (ok * t_unit + p * episode)


def _one_flow(tmp_path, name, pod, size):
    path = tmp_path / f"{name}.yaml"
    path.write_text(
        f"name: {name}\n"
        f"pod: {pod}\n"
        "workloads:\n"
        f"  - {{kind: incast, senders: 1, receiver: 1, size: {size}}}\n"
        "output: {plots: false, progress: false}\n"
    )
    return path


RIFL_FRAME_POD = ("{fabric: rifl, accelerators: 2, planes: 1, "
                  "switch: {radix: 4, latency: 340ns, forwarding: cut-through, buffer: 64MiB}, "
                  "link: {rate: 100Gbps, cable: single-mode, length: 10m}, nic: {mtu: 256}}")


@pytest.mark.parametrize("ber", [1e-5, 1e-4])
def test_rifl_pod_efficiency_matches_the_pause_model(podsim, tmp_path, ber):
    # One 4 MiB flow acc0 -> switch -> acc1 of single-frame packets (pod.nic.mtu 256: a 256 B
    # segment and its 8 B header, 264 B with one CRC, T = 21.12 ns at 100 Gb/s). Errors are
    # charged per frame (2112-bit codewords, RIFL's CRC per frame): p = 1 - (1 - BER)^2112, for
    # data frames and 64 B NAKs alike (with the former 2048-bit codewords a frame spanned two and
    # was lost twice as often). The bottleneck is the NIC's link, whose receiver (the switch)
    # acts on a frame after its 340 ns cut-through pipeline: L = RTT = 2d + t_c + 340 ns
    # = 444.32 ns (d = 49.6 ns for 10 m, t_c = 5.12 ns), P = 2.5 RTT, NakRepeat = RTT + T + t_c;
    # the switch's link to acc1 (RTT 125.44 ns) is faster. Efficiency: the flow's 16384 frame
    # times over its duration with errors, less the error-free run's latency. Model: 0.4727
    # at 1e-5, 0.0739 at 1e-4; within 5%.
    path = _one_flow(tmp_path, "rifl-frames", RIFL_FRAME_POD, "4MiB")
    t_unit, d, t_c = 264 * 8 / 100e9, 10 * 4.96e-9, 64 * 8 / 100e9
    units = 4 * 1024 * 1024 // 256
    clean = podsim.run(path, overrides={"pod.link.ber": 0}, write_results=False)
    lossy = podsim.run(path, overrides={"pod.link.ber": ber}, write_results=False)
    lossless(lossy)
    end = lambda r: int(r["messages"]["deliver_ps"].max()) * 1e-12
    latency = end(clean) - units * t_unit
    measured = units * t_unit / (end(lossy) - latency)
    p = 1 - (1 - ber) ** 2112
    rtt = 2 * d + t_c + max(t_unit, 340e-9)
    model = _pause_model(p, t_unit, rtt, 2.5 * rtt, p, rtt + t_unit + t_c)
    assert measured == pytest.approx(model, rel=0.05)


def test_ethernet_nak_only_efficiency_matches_the_pause_model(podsim, tmp_path):
    # pod.llr.mode nak-only on an Ethernet pod at BER 1e-4: one 8 MiB flow acc0 -> switch -> acc1
    # in 4096 B packets (4114 B frames + 20 B of interframe gap, T = 330.72 ns at 100 Gb/s: 7
    # codewords of 5140 bits, p = 1 - (1 - 1e-4)^35980 = 0.9726; a 64 + 20 B NAK is one
    # codeword, q = 0.4019), 3 m twinax (d = 13.8 ns, t_c = 6.72 ns). The switch acts on a
    # packet after its 1 us cut-through pipeline, which makes the NIC's link the bottleneck:
    # L = RTT = 2d + t_c + 1 us = 1034.32 ns, K = 4, P = 2.5 RTT, NakRepeat RTT + T + t_c: the
    # model gives 0.00358 (the switch's link to acc1, L = 365.04 ns, 0.0101). Within 5%.
    pod = ("{fabric: ethernet, accelerators: 2, planes: 1, switch: {radix: 4, latency: 1us}, "
           "link: {rate: 100Gbps}, llr: {mode: nak-only}}")
    path = _one_flow(tmp_path, "eth-nak-only", pod, "8MiB")
    t_unit, d, t_c = 4134 * 8 / 100e9, 3 * 4.6e-9, 84 * 8 / 100e9
    units = 8 * 1024 * 1024 // 4096
    clean = podsim.run(path, overrides={"pod.link.ber": 0}, write_results=False)
    lossy = podsim.run(path, overrides={"pod.link.ber": 1e-4}, write_results=False)
    lossless(lossy)
    end = lambda r: int(r["messages"]["deliver_ps"].max()) * 1e-12
    latency = end(clean) - units * t_unit
    measured = units * t_unit / (end(lossy) - latency)
    p = 1 - (1 - 1e-4) ** (7 * 5140)
    q = 1 - (1 - 1e-4) ** 5140
    rtt = 2 * d + t_c + max(t_unit, 1e-6)
    model = _pause_model(p, t_unit, rtt, 2.5 * rtt, q, rtt + t_unit + t_c)
    assert measured == pytest.approx(model, rel=0.05)


@pytest.mark.parametrize("window", [0, 512])
def test_rifl_long_link_window_covers_the_round_trip(podsim, tmp_path, window):
    # A 500 m RIFL pod of single-frame packets (pod.nic.mtu 256, T = 21.12 ns) without errors.
    # The NAK-only sender keeps each frame for Retention = 4.5 round trips; over the NIC's link
    # (the switch acts after its 340 ns pipeline) RTT = 2 x 2.48 us + 5.12 ns + 340 ns =
    # 5305.12 ns. The default window (pod.llr.window 0) is the frames sent in that time, plus
    # one (1131): the flow runs at line rate. A window of 512 set in the scenario is kept, and
    # holds the link to 512 frames per retention (512 T / (4.5 RTT) = 45.3% of line rate): the
    # 4096 frames go in 8 windows, the last at line rate, so they take 7 x 4.5 RTT + 512 T.
    pod = RIFL_FRAME_POD.replace("length: 10m", "length: 500m")
    path = _one_flow(tmp_path, "rifl-500m", pod, "1MiB")
    r = podsim.run(path, overrides={"pod.llr.window": window}, write_results=False)
    lossless(r)
    t_unit, rtt = 264 * 8 / 100e9, 2 * 2.48e-6 + 5.12e-9 + 340e-9
    units = 1024 * 1024 // 256
    latency = 2 * 2.48e-6 + 340e-9 + t_unit  # both links' delays, the pipeline, the last frame
    efficiency = units * t_unit / (int(r["messages"]["deliver_ps"].max()) * 1e-12 - latency)
    if window == 0:
        assert efficiency > 0.99
    else:
        assert efficiency == pytest.approx(
            units * t_unit / (7 * 4.5 * rtt + 512 * t_unit), rel=0.01)
