# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""RIFL through scenarios (pod.fabric: rifl, RIFL paper).

A 16:1 incast of 64 KiB per sender plus a 4 KiB all-to-all on 32 accelerators over RIFL links:
every byte arrives once and nothing is dropped. The bytes on the wire follow RIFL's framing: a
4096 B NIC packet is 16 segments of 256 B with 8 bytes of L1 + L2 header each (4224 B, no
interframe gap). With bit errors, NAK-only Layer 1 recovers every byte (replays, no drop).
Combinations RIFL rules out are refused before the run, naming the field.
"""

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
