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
from fabric_checks import lossless

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
    ({"pod.sue.fec-interleave": 3}, "pod.sue.fec-interleave"),
    ({"pod.sue.fec": "rs528"}, "pod.sue.fec"),
    ({"pod.sue.tx-credits": 64}, "pod.sue.tx-credits"),     # a 6-bit credit field
])
def test_bad_sue_combinations_are_refused(podsim, scenario, over, field):
    with pytest.raises(podsim.ScenarioError) as e:
        podsim.run(scenario, overrides={**BASE, **over}, write_results=False)
    assert e.value.field == field


@pytest.fixture
def lone(tmp_path):
    path = tmp_path / "lone.yaml"
    path.write_text(
        "name: lone\n"
        "pod: {fabric: sue, accelerators: 2, switch: {radix: 2}}\n"
        "workloads:\n"
        "  - {kind: incast, senders: 1, size: 256}\n"
        "output: {plots: false, progress: false}\n"
    )
    return path


@pytest.mark.parametrize("fec, ways, saved_ps", [
    # Every receiver of a link (the switch, then the XPU's SUE RX) saves the difference in
    # codeword accumulation, ways x codeword bits / (4 lanes x 212.5 Gb/s), from the IEEE
    # RS-544 4-way group (25.6 ns) that A.1's budget assumes: RS-272 4-way 12.8 ns, RS-544
    # 1-way 6.4 ns, RS-272 1-way 3.2 ns; two receivers on the path.
    ("rs272", 0, 2 * 12800),
    ("rs544", 1, 2 * 19200),
    ("rs272", 1, 2 * 22400),
])
def test_fec_choice_changes_latency_by_the_accumulation_time(podsim, lone, fec, ways, saved_ps):
    def latency(over):
        m = podsim.run(lone, overrides=over, write_results=False)["messages"]
        return int(m["deliver_ps"][0] - m["post_ps"][0])

    base = latency({})
    # A.1, 3 m twinax: 477.6 ns, plus serializing the 256 B write's frame at 800 Gb/s (a few
    # ns; the sue TestSuite checks the exact sum).
    assert 477600 < base < 477600 + 4000
    assert base - latency({"pod.sue.fec": fec, "pod.sue.fec-interleave": ways}) == saved_ps


def test_read_workload_pulls_the_data_without_loss(podsim, scenario):
    # The receiver pulls 64 KiB from each of 16 senders (requests on VC0, responses on VC1,
    # section 3.2.2) while the all-to-all writes: bytes conserved, every message delivered and
    # completed, and no go-back: each VC has its own PSN space, so PFC pausing one class does
    # not reorder the other's PDUs.
    path = scenario.with_name("read.yaml")
    path.write_text(scenario.read_text().replace("size: 64KiB}", "size: 64KiB, operation: read}"))
    r = podsim.run(path, overrides=BASE, write_results=False)
    lossless(r)
    assert r["summary"]["go_backs"] == 0 and r["summary"]["bytes_discarded"] == 0
    m = r["messages"]
    incast = m["workload"] == 0
    assert incast.sum() == 16 and (m["dst"][incast] == 0).all()


@pytest.mark.parametrize("text, field", [
    ("  - {kind: incast, senders: 4, size: 4KiB, operation: read}\n", "workloads[0].operation"),
])
def test_reads_need_sue(podsim, tmp_path, text, field):
    path = tmp_path / "eth.yaml"
    path.write_text("pod: {accelerators: 8}\nworkloads:\n" + text)
    with pytest.raises(podsim.ScenarioError) as e:
        podsim.run(path, write_results=False)
    assert e.value.field == field


FAULT = (
    "faults:\n"
    "  - {kind: link-down, accelerator: 3, plane: 1, at: 300ns}\n"
)


def test_link_down_in_unordered_mode_moves_the_work(podsim, scenario):
    # Section 3.4.8: XPU 3's port 1 fails during a 4 KiB all-to-all plus incast on 2 x 400G
    # instances. Its own instance moves its unacknowledged PDUs to port 0 at once; the other
    # XPUs find XPU 3 unreachable on that plane when their connections give up, and move the
    # work too. What the dead link swallowed is dropped with reason LinkDown, and every byte
    # still arrives.
    path = scenario.with_name("fault.yaml")
    path.write_text(scenario.read_text() + FAULT)
    over = {**BASE, "pod.sue.ports": 2, "pod.link.rate": "400Gbps",
            "pod.sue.ordering": "unordered", "pod.sue.load-balance": "least-loaded"}
    r = podsim.run(path, overrides=over, write_results=False)
    s = r["summary"]
    assert s["bytes_received"] == s["bytes_sent"] == s["bytes_delivered"]
    assert s["drops_by_reason"].get("LinkDown", 0) > 0
    assert s["failed_connections"] > 0
    assert (r["messages"]["deliver_ps"] >= 0).all()


def test_link_down_in_strict_mode_fails_the_connections(podsim, scenario):
    # Strict mode keeps order by not moving work: the port's connections fail and their
    # messages are reported undelivered, nothing is hidden.
    path = scenario.with_name("fault.yaml")
    path.write_text(scenario.read_text() + FAULT)
    r = podsim.run(path, overrides=BASE, write_results=False)
    s = r["summary"]
    assert s["failed_connections"] > 0
    assert s["bytes_delivered"] < s["bytes_sent"]
    assert (r["messages"]["deliver_ps"] < 0).any()


@pytest.mark.parametrize("fault, field", [
    ("{kind: link-down, accelerator: 32, at: 1us}", "faults[0].accelerator"),
    ("{kind: link-down, accelerator: 1, plane: 4, at: 1us}", "faults[0].plane"),
    ("{kind: link-flap, accelerator: 1, at: 1us}", "faults[0].kind"),
    ("{kind: link-down, accelerator: 1}", "faults[0].at"),
])
def test_bad_faults_are_refused(podsim, scenario, fault, field):
    path = scenario.with_name("bad-fault.yaml")
    path.write_text(scenario.read_text() + "faults:\n  - " + fault + "\n")
    with pytest.raises(podsim.ScenarioError) as e:
        podsim.run(path, overrides=BASE, write_results=False)
    assert e.value.field == field


def test_mesh_links_every_pair_directly(podsim, tmp_path):
    # Figure 2's mesh: 4 XPUs, 3 single-port 800G instances each, one link per pair, no
    # switch. A 64 KiB all-to-all: each pair's 64 KiB leaves on its own link as 36 packed PDUs
    # of 7 x 274 B (1948 B framed with the 12 B AFH Gen 2, RH, R-CRC and FCS, plus 20 B of
    # preamble and gap: 1968 B) and one of 4 transactions (1146 B): 71994 B at 800 Gb/s is
    # 719.94 ns; plus SUE TX 100, 3 m of twinax 13.8 and SUE RX 100 (A.1, no switch): 933.74 ns
    # (within 1%: ACKs share the links).
    path = tmp_path / "mesh.yaml"
    path.write_text(
        "pod: {fabric: sue, topology: mesh, accelerators: 4, planes: 3,"
        " flow-control: {kind: pfc}}\n"
        "workloads:\n"
        "  - {kind: all-to-all, size: 64KiB}\n"
        "output: {plots: false, progress: false}\n"
    )
    r = podsim.run(path, write_results=False)
    lossless(r)
    assert r["summary"]["switches"] == 0
    m = r["messages"]
    finish_ns = (m["deliver_ps"] - m["post_ps"]).max() / 1000
    assert finish_ns == pytest.approx(933.74, rel=0.01)


@pytest.mark.parametrize("over, field", [
    ({"pod.planes": 4}, "pod.planes"),                       # 4 XPUs need 3k ports
    ({"pod.fabric": "ethernet"}, "pod.topology"),            # a mesh is a SUE deployment
    ({"pod.planes": 6, "pod.sue.ports": 2, "pod.link.rate": "400Gbps",
      "pod.sue.ordering": "unordered", "pod.sue.load-balance": "least-loaded"},
     "pod.sue.ordering"),                                    # ports lead to different XPUs
])
def test_bad_meshes_are_refused(podsim, tmp_path, over, field):
    path = tmp_path / "mesh.yaml"
    path.write_text(
        "pod: {fabric: sue, topology: mesh, accelerators: 4, planes: 3}\n"
        "workloads:\n"
        "  - {kind: all-to-all, size: 4KiB}\n"
    )
    with pytest.raises(podsim.ScenarioError) as e:
        podsim.run(path, overrides=over, write_results=False)
    assert e.value.field == field


def test_command_interface_rate_limit_paces_the_instance(podsim, lone):
    # Section 3.2.1's aggregate rate limit: 1 MiB over an 800G port with the command interface
    # at 400 Gb/s crosses the interface as 4096 transactions of 274 B (22.4 us, less the 4 KiB
    # bucket), twice the port's 11.5 us of serialization; the sue TestSuite checks the sum.
    def finish(over):
        path = lone.with_name("big.yaml")
        path.write_text(lone.read_text().replace("size: 256}", "size: 1MiB}"))
        m = podsim.run(path, overrides=over, write_results=False)["messages"]
        return (m["deliver_ps"][0] - m["post_ps"][0]) / 1e6

    free = finish({})
    paced = finish({"pod.sue.command-rate": "400Gbps"})
    assert free == pytest.approx(0.1 + 11.52 + 0.378, rel=0.01)
    assert paced == pytest.approx(22.84, rel=0.005)
