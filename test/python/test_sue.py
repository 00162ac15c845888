# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""SUE through scenarios (pod.fabric: sue, pod.sue).

A 16:1 incast of 64 KiB per sender plus a 4 KiB all-to-all on 32 XPUs with 4 single-port 800G
instances each (4 planes) under PFC: nothing is dropped and every byte arrives (DESIGN.md rule
5), every message completes (is acknowledged). The same with 2 instances of 2 x 400G ports,
unordered, and with SUE Lite over LLR with codeword errors. Combinations the spec rules out are
refused before the run, naming the field.
"""

import pytest

BASE = {
    "pod.fabric": "sue",
    "pod.accelerators": 32,
    "pod.planes": 4,
    "pod.flow-control.kind": "pfc",
}


@pytest.fixture
def scenario(tmp_path):
    path = tmp_path / "sue.yaml"
    path.write_text(
        "name: sue\n"
        "pod: {accelerators: 32}\n"
        "workloads:\n"
        "  - {kind: incast, senders: 16, receiver: 0, size: 64KiB}\n"
        "  - {kind: all-to-all, size: 4KiB}\n"
        "output: {plots: false, progress: false}\n"
    )
    return path


def lossless(r):
    s = r["summary"]
    assert s["bytes_dropped"] == 0
    assert s["bytes_received"] == s["bytes_sent"] == s["bytes_delivered"]
    m = r["messages"]
    assert (m["deliver_ps"] >= 0).all() and (m["complete_ps"] >= 0).all()


@pytest.mark.parametrize("extra", [
    {},
    {"pod.sue.ports": 2, "pod.link.rate": "400Gbps", "pod.sue.ordering": "unordered",
     "pod.sue.load-balance": "least-loaded"},
    {"pod.sue.header": "ethernet-ipv4", "pod.sue.congestion-control": "delay"},
    {"pod.flow-control.kind": "cbfc"},
])
def test_sue_is_lossless(podsim, scenario, extra):
    r = podsim.run(scenario, overrides={**BASE, **extra}, write_results=False)
    lossless(r)


def test_sue_lite_over_llr(podsim, scenario):
    over = {**BASE, "pod.sue.lite": True, "pod.llr.mode": "ack-nak",
            "pod.link.codeword-error-rate": 1e-4}
    r = podsim.run(scenario, overrides=over, write_results=False)
    lossless(r)
    assert r["summary"]["replays"] > 0
    assert r["summary"]["go_backs"] == 0 and r["summary"]["retransmitted_packets"] == 0


@pytest.mark.parametrize("over, field", [
    ({"pod.sue.ports": 4}, "pod.link.rate"),          # 4 ports at 800G: not in Table 4
    ({"pod.sue.load-balance": "round-robin"}, "pod.sue.load-balance"),  # strict + balancing
    ({"pod.sue.packing-limit": "8KiB"}, "pod.sue.packing-limit"),       # above 4096 B
    ({"pod.sue.ports": 3}, "pod.sue.ports"),
    ({"pod.planes": 6, "pod.sue.ports": 4, "pod.link.rate": "200Gbps"}, "pod.planes"),
    ({"pod.sue.lite": True, "pod.sue.packing-limit": 2048}, "pod.sue.packing-limit"),
    ({"pod.transport.kind": "go-back-n"}, "pod.transport.kind"),
])
def test_bad_sue_combinations_are_refused(podsim, scenario, over, field):
    with pytest.raises(podsim.ScenarioError) as e:
        podsim.run(scenario, overrides={**BASE, **over}, write_results=False)
    assert e.value.field == field
