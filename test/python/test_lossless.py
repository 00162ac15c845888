# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""Flow control, link-level retry and the transport through scenarios (pod.flow-control,
pod.llr, pod.transport).

A 32:1 incast of 256 KiB per sender on a 64-accelerator single-switch pod: with PFC or CBFC
nothing is dropped and every byte arrives (conservation); without flow control a 512 KiB buffer
overflows and the drops are counted, and go-back-N then recovers every byte. Link-level retry
recovers random codeword errors with no loss. A buffer too small for PFC's headroom is refused
before the run, naming the field.
"""

import pytest

INCAST = {
    "pod.accelerators": 64,
    "pod.switch.buffer": "16MiB",
    "workloads[0].senders": 32,
    "workloads[0].size": "256KiB",
    "workloads[1].size": "4KiB",
}


@pytest.fixture
def scenario(tmp_path):
    path = tmp_path / "lossless.yaml"
    path.write_text(
        "name: lossless\n"
        "pod: {accelerators: 64}\n"
        "workloads:\n"
        "  - {kind: incast, senders: 32, receiver: 0, size: 256KiB}\n"
        "  - {kind: all-to-all, size: 4KiB}\n"
        "output: {plots: false, progress: false}\n"
    )
    return path


def conserved(r):
    s = r["summary"]
    return s["bytes_sent"] == s["bytes_received"] + s["bytes_dropped"]


@pytest.mark.parametrize("kind", ["pfc", "cbfc"])
def test_flow_control_is_lossless(podsim, scenario, kind):
    r = podsim.run(scenario, overrides={**INCAST, "pod.flow-control.kind": kind},
                   write_results=False)
    s = r["summary"]
    assert s["bytes_dropped"] == 0
    assert sum(s["drops_by_reason"].values()) == 0
    assert s["bytes_received"] == s["bytes_sent"]
    assert s["bytes_delivered"] == s["bytes_sent"]
    links = r["links"]
    assert links["control_packets"].sum() > 0, "pause or credit frames were sent"
    assert s["stall_ps"] > 0, "some port waited for its peer"
    if kind == "pfc":
        assert s["pause_ps"] > 0
        assert links["pause_ps"].sum() == s["pause_ps"]


def test_without_flow_control_a_small_buffer_drops(podsim, scenario):
    r = podsim.run(scenario, overrides={**INCAST, "pod.switch.buffer": "512KiB"},
                   write_results=False)
    s = r["summary"]
    assert s["bytes_dropped"] > 0
    assert s["drops_by_reason"].get("BufferFull", 0) > 0
    assert conserved(r)
    assert s["pause_ps"] == 0 and r["links"]["control_packets"].sum() == 0


def test_llr_recovers_codeword_errors(podsim, scenario):
    over = {**INCAST, "pod.link.codeword-error-rate": 1e-4, "pod.llr.mode": "ack-nak",
            "pod.flow-control.kind": "pfc"}
    r = podsim.run(scenario, overrides=over, write_results=False)
    s = r["summary"]
    assert s["replays"] > 0
    assert s["bytes_dropped"] == 0
    assert s["bytes_delivered"] == s["bytes_sent"]
    assert r["links"]["rx_discarded"].sum() > 0
    # Without LLR the same errors lose packets (counted as Corrupted).
    r2 = podsim.run(scenario, overrides={**over, "pod.llr.mode": "off"}, write_results=False)
    assert r2["summary"]["drops_by_reason"].get("Corrupted", 0) > 0
    assert conserved(r2)


def test_buffer_too_small_for_pfc_is_refused(podsim, scenario):
    over = {**INCAST, "pod.switch.buffer": "64KiB", "pod.flow-control.kind": "pfc"}
    with pytest.raises(podsim.ScenarioError) as e:
        podsim.run(scenario, overrides=over, write_results=False)
    assert e.value.field == "pod.switch.buffer"
    assert "headroom" in e.value.message


def test_credits_beyond_the_buffer_are_refused(podsim, scenario):
    over = {**INCAST, "pod.switch.buffer": "1MiB", "pod.flow-control.kind": "cbfc"}
    with pytest.raises(podsim.ScenarioError) as e:
        podsim.run(scenario, overrides=over, write_results=False)
    assert e.value.field == "pod.flow-control.credit-buffer"


def test_unknown_flow_control_is_refused(podsim, scenario):
    with pytest.raises(podsim.ScenarioError) as e:
        podsim.run(scenario, overrides={"pod.flow-control.kind": "xon-xoff"},
                   write_results=False)
    assert e.value.field == "pod.flow-control.kind"


def test_go_back_n_recovers_buffer_drops(podsim, scenario):
    over = {**INCAST, "pod.switch.buffer": "512KiB", "pod.transport.kind": "go-back-n"}
    r = podsim.run(scenario, overrides=over, write_results=False)
    s = r["summary"]
    assert s["bytes_dropped"] > 0, "the small buffer still overflows"
    assert s["go_backs"] > 0 and s["retransmitted_packets"] > 0
    assert s["failed_connections"] == 0
    # Every message is delivered, and each byte lost in the fabric was sent again:
    # sent + sent again = received + dropped + discarded.
    assert s["bytes_delivered"] == s["bytes_sent"]
    assert s["bytes_received"] == s["bytes_sent"]
    assert (s["bytes_sent"] + s["bytes_retransmitted"]
            == s["bytes_received"] + s["bytes_dropped"] + s["bytes_discarded"])
    assert (r["messages"]["complete_ps"] >= r["messages"]["deliver_ps"]).all(), \
        "with a transport a message completes when acknowledged, after its delivery"


def test_unknown_transport_is_refused(podsim, scenario):
    with pytest.raises(podsim.ScenarioError) as e:
        podsim.run(scenario, overrides={"pod.transport.kind": "tcp"}, write_results=False)
    assert e.value.field == "pod.transport.kind"


def test_three_tier_clos_under_pfc_is_lossless(podsim, tmp_path):
    # 128 accelerators on radix-8 switches need three tiers (32 leaves, 8 blocks with 4 spines
    # each, 16 cores; see the pod-topology suite). A 16:1 incast and an all-to-all under PFC:
    # nothing dropped, bytes conserved, and the summary counts the 80 switches.
    path = tmp_path / "clos.yaml"
    path.write_text(
        "pod: {accelerators: 128, switch: {radix: 8, buffer: 4MiB}, flow-control: {kind: pfc}}\n"
        "workloads:\n"
        "  - {kind: incast, senders: 16, size: 64KiB}\n"
        "  - {kind: all-to-all, size: 2KiB}\n"
        "output: {plots: false, progress: false}\n"
    )
    r = podsim.run(path, write_results=False)
    s = r["summary"]
    assert s["switches"] == 80
    assert s["bytes_dropped"] == 0
    assert s["bytes_received"] == s["bytes_sent"] == s["bytes_delivered"]
