# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""UALink 200 through scenarios (pod.fabric: ualink, pod.ualink).

A 16:1 incast of 64 KiB per sender plus a 4 KiB all-to-all on 32 accelerators with 4 ports each
(4 rails, 4 single-tier switches): nothing is dropped and every byte arrives (DESIGN.md rule 5:
TL credits hold back, never drop), every message completes (its write responses are back). The
same at x1 and x2 bifurcation, with the 100G lane option, without the address cache, with
authentication, with strict ordering, with small credits, and over links with codeword errors
and the DL's replay. Pods UALink 200 cannot build are refused before the run, naming the field.
"""

import pytest
from fabric_checks import lossless

BASE = {
    "pod.fabric": "ualink",
    "pod.accelerators": 32,
    "pod.planes": 4,
    "pod.switch.radix": 32,
}


@pytest.fixture
def scenario(tmp_path):
    path = tmp_path / "ualink.yaml"
    path.write_text(
        "name: ualink\n"
        "pod: {accelerators: 32}\n"
        "workloads:\n"
        "  - {kind: incast, senders: 16, receiver: 0, size: 64KiB}\n"
        "  - {kind: all-to-all, size: 4KiB}\n"
        "output: {plots: false, progress: false}\n"
    )
    return path


@pytest.mark.parametrize("extra", [
    {},
    {"pod.ualink.bifurcation": "4x1"},
    {"pod.ualink.bifurcation": "2x2", "pod.ualink.lane-rate": "100g"},
    {"pod.ualink.address-cache": False},
    {"pod.ualink.authentication": True},
    {"pod.ualink.strict-ordering": True},
    {"pod.ualink.req-data-credits": 16, "pod.ualink.req-cmd-credits": 4},
    {"pod.ualink.replay": True, "pod.link.codeword-error-rate": 1e-4},
])
def test_ualink_is_lossless(podsim, scenario, extra):
    r = podsim.run(scenario, overrides={**BASE, **extra}, write_results=False)
    lossless(r)


def test_ualink_slower_lanes_take_longer(podsim, scenario):
    fast = podsim.run(scenario, overrides=BASE, write_results=False)
    slow = podsim.run(scenario, overrides={**BASE, "pod.ualink.bifurcation": "4x1"},
                      write_results=False)
    # x1 ports carry a quarter of an x4 port: the incast takes several times longer.
    assert slow["messages"]["deliver_ps"].max() > 2 * fast["messages"]["deliver_ps"].max()


@pytest.mark.parametrize("over, field", [
    ({"pod.accelerators": 1025, "pod.switch.radix": 1025}, "pod.accelerators"),
    ({"pod.planes": 3, "pod.ualink.bifurcation": "2x2"}, "pod.planes"),  # mixed bifurcation
    ({"pod.switch.radix": 16}, "pod.switch.radix"),  # would need switch-to-switch links
    ({"pod.ualink.bifurcation": "x4", "pod.ualink.fec-interleave": 1},
     "pod.ualink.fec-interleave"),
    ({"pod.flow-control.kind": "pfc"}, "pod.flow-control.kind"),
    ({"pod.transport.kind": "go-back-n"}, "pod.transport.kind"),
    ({"pod.llr.mode": "ack-nak"}, "pod.llr.mode"),
    ({"pod.link.codeword-error-rate": 1e-4}, "pod.ualink.replay"),
])
def test_impossible_ualink_pods_are_refused(podsim, scenario, over, field):
    with pytest.raises(podsim.ScenarioError) as e:
        podsim.run(scenario, overrides={**BASE, **over}, write_results=False)
    assert e.value.field == field


def test_ualink_link_fault_isolates_and_completes(podsim, scenario):
    # Accelerator 3's port 0 goes down at 200 ns (stations of 2 x2 ports): its station isolates,
    # the peers' 2 us watchdogs answer what they had outstanding to it with CMPTO, and every
    # message still completes; messages untouched by the failure are delivered.
    over = {**BASE, "pod.planes": 2, "pod.ualink.bifurcation": "2x2",
            "pod.ualink.watchdog": "2us", "pod.ualink.fail-link": True,
            "pod.ualink.fail-accelerator": 3, "pod.ualink.fail-port": 0,
            "pod.ualink.fail-at": "200ns"}
    r = podsim.run(scenario, overrides=over, write_results=False)
    m = r["messages"]
    assert (m["complete_ps"] >= 0).all()
    delivered = (m["deliver_ps"] >= 0).sum()
    assert 0 < delivered < len(m["deliver_ps"])
    assert r["summary"]["bytes_dropped"] > 0


@pytest.mark.parametrize("over, field", [
    ({"pod.ualink.fail-link": True, "pod.ualink.fail-accelerator": 32},
     "pod.ualink.fail-accelerator"),
    ({"pod.ualink.fail-link": True, "pod.ualink.fail-port": 4}, "pod.ualink.fail-port"),
])
def test_bad_faults_are_refused(podsim, scenario, over, field):
    with pytest.raises(podsim.ScenarioError) as e:
        podsim.run(scenario, overrides={**BASE, **over}, write_results=False)
    assert e.value.field == field


def test_ualink_reads_and_atomics_through_the_endpoint_api(podsim, tmp_path):
    # workloads[].operation on a UALink pod (the endpoint API's Read and Atomic, which the
    # ualink fabric kind declares): a read permutation of 64 KiB (256 B reads, UALink 200 Rev 1.0
    # section 2.7) and a 4:1 incast of 8 B AtomicRs (2.7.4.5). Every message is delivered and
    # completed, a read completes where it is delivered (at its destination, the reader) when
    # its last byte is back, and bytes are conserved: the reads' data counts as sent by the
    # accelerator read from, the atomics' operands by their source (sent = received = delivered).
    path = tmp_path / "ops.yaml"
    path.write_text(
        "name: ops\n"
        "pod: {fabric: ualink, accelerators: 8, planes: 4, switch: {radix: 8}}\n"
        "workloads:\n"
        "  - {kind: permutation, size: 64KiB, operation: read}\n"
        "  - {kind: incast, senders: 4, receiver: 0, size: 8, operation: atomic, start: 20us}\n"
        "output: {plots: false, progress: false}\n"
    )
    r = podsim.run(path, write_results=False)
    lossless(r)
    m = r["messages"]
    assert len(m["src"]) == 8 + 4
    assert (m["deliver_ps"] <= m["complete_ps"]).all()
    reads = m["workload"] == 0
    assert (m["deliver_ps"][reads] == m["complete_ps"][reads]).all()
    assert r["summary"]["bytes_sent"] == 8 * 65536 + 4 * 8


@pytest.mark.parametrize("fabric, op, field, says", [
    ("ethernet", "read", "workloads[0].operation", "the ethernet fabric only writes"),
    ("sue", "atomic", "workloads[0].operation", "the sue fabric has none"),
    ("ualink", "atomic", "workloads[0].size", "1 to 16 B"),
])
def test_operations_a_fabric_lacks_are_refused(podsim, tmp_path, fabric, op, field, says):
    # A workload the fabric cannot run is refused before the run, naming the fabric and the key
    # (a read on the plain NIC, an atomic on SUE, an atomic of 64 KiB operands on UALink).
    path = tmp_path / "refused.yaml"
    pod = {"ethernet": "{accelerators: 8}",
           "sue": "{fabric: sue, accelerators: 8, planes: 1}",
           "ualink": "{fabric: ualink, accelerators: 8, planes: 4, switch: {radix: 8}}"}[fabric]
    path.write_text(
        f"pod: {pod}\n"
        f"workloads:\n  - {{kind: permutation, size: 64KiB, operation: {op}}}\n"
    )
    with pytest.raises(podsim.ScenarioError) as e:
        podsim.run(path, write_results=False)
    assert e.value.field == field
    assert says in e.value.message
