# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""Fault campaigns (src/pod/doc/robustness.rst): each fault kind of the faults
list on each fabric that models it, on 8 accelerators with 2 planes and a 4 KiB all-to-all
(56 messages, 229,376 B).

Every run is checked by conservation: the bytes of the message table are the bytes posted
(bytes_sent), delivered plus failed is posted, and a run either delivers everything (failure
"") or names its failure with the count of messages that did not arrive. Where recovery is
claimed (link-level retry, a transport, a SUE failover) nothing is lost; where it is not, the
messages that fail are exactly those the fault touches (the accelerator that went down, the
denied pair), and the run ends by itself (MessagesFailed, not StoppedWithMessagesOutstanding:
no hang; the stop time only bounds the test). The fault counters are closed forms: one link per
port, pod.accelerators links per single-switch plane, pod.planes routes per denied pair.
Combinations a fabric does not model are refused before the run, naming the field.
"""

import pytest

N = 8
PLANES = 2
MSG = 4096
STOP = "1s"
WATCHDOG_PS = 2_000_000

FABRICS = {
    # The generic Ethernet-like NIC: go-back-N transport (2 us timer), packets sprayed over the
    # planes.
    "ethernet": {"pod.fabric": "ethernet", "pod.transport.kind": "go-back-n",
                 "pod.transport.timeout": "2us"},
    # SUE: one instance of 2 x 400G ports per XPU, unordered: a port's work fails over.
    "sue": {"pod.fabric": "sue", "pod.sue.ports": 2, "pod.link.rate": "400Gbps",
            "pod.sue.ordering": "unordered", "pod.sue.load-balance": "least-loaded",
            "pod.flow-control.kind": "pfc"},
    # RIFL: NAK-only Layer 1 on every link, no transport.
    "rifl": {"pod.fabric": "rifl", "pod.link.rate": "100Gbps", "pod.switch.radix": 64},
    # UALink 200: x4 ports (one station each), 2 us watchdog, DL replay.
    "ualink": {"pod.fabric": "ualink", "pod.ualink.watchdog": "2us", "pod.ualink.replay": True},
}


def run(podsim, tmp_path, fabric, faults, extra=None, workloads=None, stop=STOP):
    """Run the campaign's pod on a fabric with the given faults (YAML flow maps)."""
    path = tmp_path / "faults.yaml"
    text = (
        f"name: faults\nstop: {stop}\n"
        f"pod: {{accelerators: {N}, planes: {PLANES}, switch: {{radix: {N}}}}}\n"
        "workloads:\n"
        + "".join(f"  - {w}\n" for w in (workloads or [f"{{kind: all-to-all, size: {MSG}}}"]))
        + "output: {plots: false, progress: false}\n"
    )
    if faults:
        text += "faults:\n" + "".join(f"  - {f}\n" for f in faults)
    path.write_text(text)
    over = {**FABRICS[fabric], **(extra or {})}
    return podsim.run(path, overrides=over, write_results=False)


def conserved(r, ends=True):
    """Conservation and the named failure; returns the (src, dst) pairs that failed."""
    s = r["summary"]
    m = r["messages"]
    posted = int(m["bytes"].sum())
    failed = m["deliver_ps"] < 0
    assert s["bytes_sent"] == posted
    assert s["bytes_delivered"] + s["bytes_failed"] == posted
    assert s["messages_failed"] == int(failed.sum())
    assert s["bytes_failed"] == int(m["bytes"][failed].sum())
    if s["messages_failed"] == 0:
        assert s["failure"] == ""
    else:
        assert s["failure"].startswith(
            "MessagesFailed: " if ends else ("MessagesFailed: ", "StoppedWithMessagesOutstanding"))
        assert f"{s['messages_failed']} of {len(m['src'])} messages" in s["failure"]
    return {(int(a), int(b)) for a, b in zip(m["src"][failed], m["dst"][failed])}


def lossless(r):
    s = r["summary"]
    assert conserved(r) == set()
    assert s["bytes_delivered"] == s["bytes_sent"] == N * (N - 1) * MSG


def involve(pairs, acc):
    return all(acc in p for p in pairs)


LINK_DOWN = "{kind: link-down, accelerator: 3, plane: 1, at: 300ns}"
LINK_UP = "{kind: link-up, accelerator: 3, plane: 1, at: 5us}"
SWITCH_DOWN = "{kind: switch-down, plane: 1, switch: 0, at: 300ns}"
ACC_DOWN = "{kind: accelerator-down, accelerator: 3, at: 300ns}"
DENY = "{kind: deny-route, accelerator: 1, to: 2, at: 0ns}"


def test_no_fault_no_failure(podsim, tmp_path):
    # The baseline of the campaign: without faults every fabric delivers everything.
    for fabric in FABRICS:
        r = run(podsim, tmp_path, fabric, [])
        lossless(r)
        assert r["summary"]["faults_injected"] == 0


# ---- link-down ---------------------------------------------------------------------------------

def test_ethernet_link_down_fails_the_connections_to_the_port(podsim, tmp_path):
    # The switch keeps routing to the dead port (static routes): what the senders spray to acc3
    # on plane 1 is dropped (LinkDown) and their transports give up after 16 timeouts. The
    # messages that fail all involve acc3; acc3's own NIC stops feeding its dead port.
    r = run(podsim, tmp_path, "ethernet", [LINK_DOWN])
    s = r["summary"]
    assert s["faults_injected"] == 1 and s["link_down_events"] == 1
    assert s["drops_by_reason"].get("LinkDown", 0) > 0
    assert s["failed_connections"] > 0
    pairs = conserved(r)
    assert pairs and involve(pairs, 3)


def test_a_stop_time_that_cuts_the_retries_short_is_named(podsim, tmp_path):
    # The same fault stopped at 20 us, while the transports still retry (2 + 4 + 8 us ...): the
    # run stops with work pending, names it, and its simulated time is the stop time.
    r = run(podsim, tmp_path, "ethernet", [LINK_DOWN], stop="20us")
    s = r["summary"]
    assert s["failure"].startswith("StoppedWithMessagesOutstanding: ")
    assert s["sim_time_ps"] == 20_000_000
    conserved(r, ends=False)


def test_a_run_that_ends_by_itself_reports_its_last_event(podsim, tmp_path):
    # Ended by itself (connections given up), the run's simulated time is its last delivery or
    # completion, not the stop time: below the 1 s bound.
    r = run(podsim, tmp_path, "ethernet", [LINK_DOWN])
    assert r["summary"]["failure"].startswith("MessagesFailed: ")
    assert 0 < r["summary"]["sim_time_ps"] < 1_000_000_000_000


def test_sue_link_down_fails_over(podsim, tmp_path):
    # Section 3.4.8, unordered: the instance moves the port's work to its other port; the
    # peers' connections to the dead port fail and move too: nothing is lost.
    r = run(podsim, tmp_path, "sue", [LINK_DOWN])
    assert r["summary"]["link_down_events"] == 1
    assert r["summary"]["bytes_failed_over"] > 0
    lossless(r)


def test_sue_strict_link_down_fails_the_connections(podsim, tmp_path):
    # Strict mode keeps order by not moving work: the port's connections fail and their
    # messages are counted failed (2 single-port 800G instances per XPU).
    r = run(podsim, tmp_path, "sue", [LINK_DOWN],
            extra={"pod.sue.ports": 1, "pod.link.rate": "800Gbps", "pod.sue.ordering": "strict",
                   "pod.sue.load-balance": "hash"})
    s = r["summary"]
    assert s["failed_connections"] > 0
    pairs = conserved(r)
    assert pairs and involve(pairs, 3)


def test_rifl_link_down_loses_what_it_carried(podsim, tmp_path):
    # No transport above RIFL's Layer 1: what the dead link swallowed is lost (LinkDown) and the
    # messages it carried fail, all of them to or from acc3.
    r = run(podsim, tmp_path, "rifl", [LINK_DOWN])
    s = r["summary"]
    assert s["link_down_events"] == 1
    assert s["drops_by_reason"].get("LinkDown", 0) > 0
    pairs = conserved(r)
    assert pairs and involve(pairs, 3)


def test_ualink_link_down_isolates_and_completes(podsim, tmp_path):
    # Section 3.1.4: acc3's station on port 1 isolates at once (ISOLATE); the peers' requests to
    # it time out after the 2 us watchdog and their stations answer CMPTO. Every message
    # completes (no hang); the failed ones are counted.
    # Closed form: every peer had a request to acc3 outstanding when the link failed at 300 ns
    # (the all-to-all issues them all in the first ~100 ns), so its watchdog fires by 300 ns +
    # 2 us: the last message completes by then.
    r = run(podsim, tmp_path, "ualink", [LINK_DOWN.replace("plane: 1", "plane: 0")])
    s = r["summary"]
    assert s["link_down_events"] == 1
    assert s["isolations"] >= 1
    assert (r["messages"]["complete_ps"] >= 0).all()
    assert r["messages"]["complete_ps"].max() <= 300_000 + WATCHDOG_PS
    assert r["messages"]["complete_ps"].max() >= WATCHDOG_PS
    conserved(r)


def test_ualink_old_fail_link_keys_are_a_link_down_fault(podsim, tmp_path):
    # pod.ualink.fail-link and fail-* are read as faults: [{kind: link-down, ...}].
    r = run(podsim, tmp_path, "ualink", [],
            extra={"pod.ualink.fail-link": True, "pod.ualink.fail-accelerator": 3,
                   "pod.ualink.fail-port": 0, "pod.ualink.fail-at": "300ns"})
    s = r["summary"]
    assert s["faults_injected"] == 1 and s["link_down_events"] == 1 and s["isolations"] >= 1
    conserved(r)


# ---- link-up -----------------------------------------------------------------------------------

def test_ethernet_link_flap_recovers_through_the_transport(podsim, tmp_path):
    # Down at 300 ns, up at 5 us: within the transport's retries (2 + 4 + 8 us ...), so the
    # go-back-N resends what was lost and everything arrives.
    r = run(podsim, tmp_path, "ethernet", [LINK_DOWN, LINK_UP])
    s = r["summary"]
    assert s["link_down_events"] == 1 and s["link_up_events"] == 1
    assert s["go_backs"] > 0
    lossless(r)


def test_ethernet_llr_replays_what_the_link_held_when_it_returns(podsim, tmp_path):
    # LLR on every link, no transport. While the link is down its replay timers stop; when it
    # comes back the switch's port toward acc3 replays what it had sent unacknowledged (one
    # replay episode on p1.sw0->acc3; none if the link stays down). What the switch had still
    # queued for the dead port is dropped (LinkDown) and its messages fail: LLR covers the link,
    # not the queue.
    llr = {"pod.transport.kind": "none", "pod.llr.mode": "ack-nak"}
    replays = {}
    for faults in ([LINK_DOWN], [LINK_DOWN, LINK_UP]):
        r = run(podsim, tmp_path, "ethernet", faults, extra=llr)
        links = r["links"]
        row = list(links["name"]).index("p1.sw0->acc3")
        replays[len(faults)] = int(links["replays"][row])
        assert r["summary"]["drops_by_reason"].get("LinkDown", 0) > 0
        pairs = conserved(r)
        assert involve(pairs, 3)
    assert replays == {1: 0, 2: 1}


def test_sue_link_flap_is_lossless(podsim, tmp_path):
    r = run(podsim, tmp_path, "sue", [LINK_DOWN, LINK_UP])
    s = r["summary"]
    assert s["link_down_events"] == 1 and s["link_up_events"] == 1
    lossless(r)


def test_rifl_link_up_carries_later_traffic(podsim, tmp_path):
    # What the link held while down is lost (no transport); a second all-to-all posted at 10 us,
    # after the link came back at 5 us, arrives whole.
    r = run(podsim, tmp_path, "rifl", [LINK_DOWN, LINK_UP],
            workloads=[f"{{kind: all-to-all, size: {MSG}}}",
                       f"{{kind: all-to-all, size: {MSG}, start: 10us}}"])
    s = r["summary"]
    assert s["link_up_events"] == 1
    conserved(r)
    m = r["messages"]
    later = m["workload"] == 1
    assert (m["deliver_ps"][later] >= 0).all()


# ---- switch-down -------------------------------------------------------------------------------

def test_ethernet_switch_down_takes_every_link_of_the_plane(podsim, tmp_path):
    # One switch per plane: N links go down. The spraying NICs stop feeding plane 1; what plane
    # 1 held is lost and its connections fail; messages posted after the fault use plane 0.
    r = run(podsim, tmp_path, "ethernet", [SWITCH_DOWN],
            workloads=[f"{{kind: all-to-all, size: {MSG}}}",
                       f"{{kind: all-to-all, size: {MSG}, start: 10us}}"])
    s = r["summary"]
    assert s["link_down_events"] == N
    conserved(r)
    m = r["messages"]
    assert (m["deliver_ps"][m["workload"] == 1] >= 0).all()


@pytest.mark.parametrize("switch, links", [(0, 2 + 2), (4, 4)])
def test_ethernet_leaf_spine_switch_down(podsim, tmp_path, switch, links):
    # Radix 4 makes each plane a leaf-spine of 4 leaves (2 accelerators and 2 uplinks each) and
    # 2 spines (one link per leaf): leaf 0 takes 2 accelerator links and 2 uplinks down, spine 0
    # (index 4, after the leaves) 4 leaf links. The routes are static, so what ECMP still hashes
    # onto the dead links is lost; the run ends by itself and counts it.
    r = run(podsim, tmp_path, "ethernet", [f"{{kind: switch-down, plane: 1, switch: {switch}, "
                                           "at: 300ns}"],
            extra={"pod.switch.radix": 4})
    assert r["summary"]["switches"] == 2 * 6
    assert r["summary"]["link_down_events"] == links
    conserved(r)


def test_sue_switch_down_fails_over_to_the_other_plane(podsim, tmp_path):
    # Every XPU's port 1 goes down; each instance moves its work to port 0: nothing is lost.
    r = run(podsim, tmp_path, "sue", [SWITCH_DOWN])
    assert r["summary"]["link_down_events"] == N
    assert r["summary"]["bytes_failed_over"] > 0
    lossless(r)


def test_rifl_switch_down_later_traffic_uses_the_live_plane(podsim, tmp_path):
    r = run(podsim, tmp_path, "rifl", [SWITCH_DOWN],
            workloads=[f"{{kind: all-to-all, size: {MSG}}}",
                       f"{{kind: all-to-all, size: {MSG}, start: 10us}}"])
    assert r["summary"]["link_down_events"] == N
    conserved(r)
    m = r["messages"]
    assert (m["deliver_ps"][m["workload"] == 1] >= 0).all()


def test_ualink_switch_down_isolates_every_station_on_the_rail(podsim, tmp_path):
    # Rail 0's switch fails: N links down, N stations isolate (x4 ports: a station per port);
    # every message still completes.
    r = run(podsim, tmp_path, "ualink", [SWITCH_DOWN.replace("plane: 1", "plane: 0")])
    s = r["summary"]
    assert s["link_down_events"] == N
    assert s["isolations"] >= N
    assert (r["messages"]["complete_ps"] >= 0).all()
    conserved(r)


# ---- accelerator-down --------------------------------------------------------------------------

@pytest.mark.parametrize("fabric", ["ethernet", "rifl"])
def test_accelerator_down_fails_only_its_messages(podsim, tmp_path, fabric):
    # Both ports of acc3 go down: it neither sends nor receives. Every message that fails has
    # acc3 at one end, and the messages among the other 7 all arrive.
    r = run(podsim, tmp_path, fabric, [ACC_DOWN])
    s = r["summary"]
    assert s["link_down_events"] == PLANES
    pairs = conserved(r)
    assert pairs and involve(pairs, 3)


def test_sue_accelerator_down_fails_only_its_messages(podsim, tmp_path):
    r = run(podsim, tmp_path, "sue", [ACC_DOWN])
    s = r["summary"]
    assert s["link_down_events"] == PLANES
    pairs = conserved(r)
    assert pairs and involve(pairs, 3)


def test_ualink_accelerator_down_isolates_and_completes(podsim, tmp_path):
    r = run(podsim, tmp_path, "ualink", [ACC_DOWN])
    s = r["summary"]
    assert s["link_down_events"] == PLANES
    assert s["isolations"] >= PLANES
    assert (r["messages"]["complete_ps"] >= 0).all()
    conserved(r)


# ---- deny-route --------------------------------------------------------------------------------

@pytest.mark.parametrize("fabric", ["ethernet", "rifl"])
def test_denied_route_fails_exactly_that_pair(podsim, tmp_path, fabric):
    # acc1 -> acc2 is denied at both planes' switches (RouteDenied); only that message fails.
    r = run(podsim, tmp_path, fabric, [DENY])
    s = r["summary"]
    assert s["routes_denied"] == PLANES
    assert s["drops_by_reason"].get("RouteDenied", 0) > 0
    assert conserved(r) == {(1, 2)}
    assert s["bytes_failed"] == MSG


def test_sue_denied_route_fails_that_pair(podsim, tmp_path):
    r = run(podsim, tmp_path, "sue", [DENY])
    s = r["summary"]
    assert s["routes_denied"] == PLANES
    assert s["drops_by_reason"].get("RouteDenied", 0) > 0
    assert (1, 2) in conserved(r)


def test_ualink_denied_route_isolates_after_the_watchdog(podsim, tmp_path):
    # Section 10.7.1: the switch drops acc1's requests to acc2 (RouteDenied); acc1's watchdog
    # expires 2 us after the request was issued, its station isolates and answers CMPTO, so the
    # 1 -> 2 message completes failed no sooner than post + watchdog.
    r = run(podsim, tmp_path, "ualink", [DENY])
    s = r["summary"]
    assert s["routes_denied"] == PLANES
    assert s["drops_by_reason"].get("RouteDenied", 0) > 0
    assert s["isolations"] >= 1 and s["cmpto"] >= 1
    m = r["messages"]
    assert (m["complete_ps"] >= 0).all()
    assert (1, 2) in conserved(r)
    row = [i for i in range(len(m["src"])) if m["src"][i] == 1 and m["dst"][i] == 2][0]
    waited = m["complete_ps"][row] - m["post_ps"][row]
    assert WATCHDOG_PS <= waited <= WATCHDOG_PS + 1_000_000


# ---- bit-errors --------------------------------------------------------------------------------

BER_ONE = "{kind: bit-errors, accelerator: 3, plane: 0, codeword-error-rate: 0.05, at: 0ns}"
BER_ALL = "{kind: bit-errors, links: all, codeword-error-rate: 0.01, at: 0ns}"


def test_ethernet_bit_errors_recovered_by_the_transport(podsim, tmp_path):
    r = run(podsim, tmp_path, "ethernet", [BER_ONE])
    s = r["summary"]
    assert s["drops_by_reason"].get("Corrupted", 0) > 0
    assert s["go_backs"] > 0
    lossless(r)


def test_ethernet_bit_errors_recovered_by_llr(podsim, tmp_path):
    # Link-level retry on every link, no transport: the corrupted frames are replayed hop by hop.
    # Without errors LLR already replays each acc-up link's tail once (the ACK interval leaves
    # it unacknowledged until the replay timer): the errors add replays to that baseline.
    llr = {"pod.transport.kind": "none", "pod.llr.mode": "ack-nak"}
    base = run(podsim, tmp_path, "ethernet", [], extra=llr)["summary"]["replays"]
    r = run(podsim, tmp_path, "ethernet", [BER_ALL], extra=llr)
    assert r["summary"]["replays"] > base
    lossless(r)


def test_ethernet_error_window_ends(podsim, tmp_path):
    # Every codeword of acc3's plane 0 link fails from 0 to 3 us: LLR replays until the window
    # closes, then everything crosses; the last delivery is after the window.
    llr = {"pod.transport.kind": "none", "pod.llr.mode": "ack-nak"}
    base = run(podsim, tmp_path, "ethernet", [], extra=llr)["summary"]["replays"]
    r = run(podsim, tmp_path, "ethernet",
            ["{kind: bit-errors, accelerator: 3, plane: 0, codeword-error-rate: 1, at: 0ns, "
             "until: 3us}"],
            extra=llr)
    assert r["summary"]["replays"] > base
    lossless(r)
    assert r["messages"]["deliver_ps"].max() > 3_000_000


def test_sue_bit_errors_recovered_by_its_transport(podsim, tmp_path):
    r = run(podsim, tmp_path, "sue", [BER_ONE])
    s = r["summary"]
    assert s["drops_by_reason"].get("Corrupted", 0) > 0
    assert s["go_backs"] > 0 or s["retransmitted_packets"] > 0
    lossless(r)


@pytest.mark.parametrize("fabric", ["rifl", "ualink"])
def test_bit_errors_recovered_by_link_replay(podsim, tmp_path, fabric):
    # RIFL's NAK-only Layer 1, UALink's DL replay (section 6.6): lossless, with replays (none
    # without the errors).
    assert run(podsim, tmp_path, fabric, [])["summary"]["replays"] == 0
    r = run(podsim, tmp_path, fabric, [BER_ALL])
    assert r["summary"]["replays"] > 0
    lossless(r)


# ---- refused combinations ----------------------------------------------------------------------

@pytest.mark.parametrize("fault", [LINK_DOWN, LINK_UP, SWITCH_DOWN, ACC_DOWN, DENY, BER_ALL])
def test_cell_fabric_refuses_faults(podsim, tmp_path, fault):
    path = tmp_path / "cell.yaml"
    path.write_text(
        "pod: {fabric: cell, accelerators: 8, cell: {links: 2}}\n"
        "workloads:\n  - {kind: all-to-all, size: 4KiB}\n"
        "output: {plots: false, progress: false}\n"
        f"faults:\n  - {fault}\n")
    with pytest.raises(podsim.ScenarioError) as e:
        podsim.run(path, write_results=False)
    assert e.value.field == "faults"


@pytest.mark.parametrize("fabric, fault, extra, field", [
    ("ualink", LINK_UP, {}, "faults[0].kind"),
    ("ualink", BER_ALL, {"pod.ualink.replay": False}, "faults[0].kind"),
    ("ethernet", "{kind: deny-route, accelerator: 1, to: 1, at: 0ns}", {}, "faults[0].to"),
    ("ethernet", "{kind: deny-route, accelerator: 1, at: 0ns}", {}, "faults[0].to"),
    ("ethernet", "{kind: deny-route, accelerator: 1, to: 8, at: 0ns}", {}, "faults[0].to"),
    ("ethernet", "{kind: switch-down, plane: 0, switch: 1, at: 0ns}", {}, "faults[0].switch"),
    ("ethernet", "{kind: switch-down, plane: 2, at: 0ns}", {}, "faults[0].plane"),
    ("ethernet", "{kind: switch-down, plane: 0, switch: 6, at: 0ns}", {"pod.switch.radix": 4},
     "faults[0].switch"),
    ("ethernet", "{kind: accelerator-down, at: 0ns}", {}, "faults[0].accelerator"),
    ("ethernet", "{kind: bit-errors, accelerator: 1, at: 0ns}", {}, "faults[0].kind"),
    ("ethernet", "{kind: bit-errors, links: all, ber: 1e-6, at: 2us, until: 1us}", {},
     "faults[0].until"),
    ("sue", "{kind: switch-down, at: 0ns}",
     {"pod.topology": "mesh", "pod.planes": 7, "pod.sue.ports": 1, "pod.link.rate": "800Gbps",
      "pod.sue.ordering": "strict", "pod.sue.load-balance": "hash"}, "faults[0].kind"),
])
def test_unsupported_faults_are_refused(podsim, tmp_path, fabric, fault, extra, field):
    with pytest.raises(podsim.ScenarioError) as e:
        run(podsim, tmp_path, fabric, [fault], extra=extra)
    assert e.value.field == field


def test_a_faulted_run_is_deterministic(podsim, tmp_path):
    # The same scenario and seed give the same run, faults included (as test_determinism.py asks of
    # every run): the message table and every counter but the measured wall, build and memory
    # figures.
    faults = [ACC_DOWN, "{kind: bit-errors, links: all, codeword-error-rate: 0.01, at: 0ns}"]
    a = run(podsim, tmp_path, "sue", faults)
    b = run(podsim, tmp_path, "sue", faults)
    for col in a["messages"]:
        assert (a["messages"][col] == b["messages"][col]).all(), col
    measured = {"wall_seconds", "build_seconds", "peak_rss_bytes"}
    for k, v in a["summary"].items():
        if k not in measured:
            assert b["summary"][k] == v, k
