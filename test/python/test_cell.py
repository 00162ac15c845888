# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""The cell fabric through scenarios (pod.fabric: cell, Pyxis spec section 10).

A 1 MiB permutation on 16 chips over 36 single-stage planes: every pair is alone on its
receiver, so each message takes the closed form of the cell-fabric suite's 1 MiB RDMA job
(startup of CTS plus request/grant, the first page, then the receiving cluster's RxDMA at 128 B
per cycle), and the bytes on the links are exactly the pages' cells plus the control cells. An
all-to-all on a two-stage fabric conserves bytes and drops nothing. Bad configurations are
refused before the run, naming the field.
"""

import pytest
from fabric_checks import lossless as _lossless


def lossless(r):
    _lossless(r)
    m = r["messages"]
    assert (m["complete_ps"] > m["deliver_ps"]).all()  # the ACK follows the last page's commit


PERMUTATION = (
    "name: cell\n"
    "pod: {fabric: cell, accelerators: 16}\n"
    "workloads:\n"
    "  - {kind: permutation, size: 1MiB}\n"
    "output: {plots: false, progress: false}\n"
)

ALL_TO_ALL = (
    "name: cell\n"
    "pod: {fabric: cell, accelerators: 16}\n"
    "workloads:\n"
    "  - {kind: all-to-all, size: 64KiB}\n"
    "  - {kind: incast, senders: 15, receiver: 0, size: 256KiB, start: 5us}\n"
    "output: {plots: false, progress: false}\n"
)


@pytest.fixture
def permutation(tmp_path):
    path = tmp_path / "cell-permutation.yaml"
    path.write_text(PERMUTATION)
    return path


@pytest.fixture
def all_to_all(tmp_path):
    path = tmp_path / "cell-all-to-all.yaml"
    path.write_text(ALL_TO_ALL)
    return path


def one_mib_job_ns():
    """The 1 MiB job's delivery time from the defaults (cell-fabric suite, RdmaJobTimeTestCase).

    D, a control cell one way: Tx pipeline 240 ns + link 50 ns + switch 400 ns + one 112 B cell
    (96 B + 16 B header) at 106.25 Gb/s + link 50 ns + Rx pipeline 240 ns. Startup 3D (CTS, then
    request and grant: 1.5 round trips). First page: 182 FO cycles (16,016 B at 88 B) at
    1.33 GHz, the pipelines, links and switch, and 3 cells of 192 B on its busiest link. Then
    RxDMA writes 1 MiB at 128 B per cycle: 8192 cycles, and the last page's writes commit 100
    cycles later (AMEM write-completion latency, Pyxis spec 11.7.2; pod.cell.rxdma-commit-cycles).
    """
    byte_ns = 8 / 106.25
    cycle = 1 / 1.33
    d = 240 + 50 + 400 + 112 * byte_ns + 50 + 240
    first_page = 182 * cycle + 240 + 50 + 400 + 3 * 192 * byte_ns + 50 + 240
    return 3 * d + first_page + 8192 * cycle + 100 * cycle


@pytest.mark.parametrize("policy", ["paced-round-robin", "fifo-round-robin", "fifo"])
def test_cell_permutation_matches_the_closed_form(podsim, permutation, policy):
    # One sender per receiver: every grant policy gives the lone job its closed form (the paced
    # one grants a page per RxDMA page write, the bottleneck's own pace).
    r = podsim.run(permutation, overrides={"pod.cell.grant-policy": policy}, write_results=False)
    lossless(r)
    assert r["summary"]["planes"] == 36 and r["summary"]["switches"] == 36
    m = r["messages"]
    assert len(m["src"]) == 16
    expected = one_mib_job_ns()
    measured = (m["deliver_ps"] - m["post_ps"]) / 1e3
    print(f"1 MiB per pair: expected {expected:.1f} ns, measured {measured.min():.1f} to "
          f"{measured.max():.1f} ns")
    assert measured == pytest.approx(expected, rel=0.02)
    # Every chip also sends, so a grant (a control cell, strict priority but not preemptive) can
    # wait behind one data unit of the chip's own pages on its uplink, which the closed form
    # leaves out: at most one unit of 3 cells of 192 B (43.4 ns). Found: 40.8 ns.
    assert 0 <= measured.min() - expected and measured.max() - expected <= 3 * 192 * 8 / 106.25
    # Bytes on the chips' links, per pair (Pyxis spec 10.1, 10.6): 66 pages of 125 words (the
    # last 67 words) with a 16 B page header each, cut into 5964 cells with a 16 B cell header
    # each (1,145,056 B), plus 134 control cells of 112 B: a request and a grant per page, the
    # CTS and the ACK.
    links = r["links"]
    up = links["kind"] == "acc-up"
    per_pair = (1 << 20) + 66 * 16 + 5964 * 16 + (2 * 66 + 2) * 112
    assert int(links["tx_wire_bytes"][up].sum()) == 16 * per_pair
    down = links["kind"] == "down"
    assert int(links["tx_wire_bytes"][down].sum()) == 16 * per_pair


def test_cell_timer_keys_reach_the_adapters(podsim, permutation):
    # A Tx CTS-wait timer of 500 ns is shorter than the CTS's one-way time D = 988.4 ns (see
    # one_mib_job_ns): every job fails before its CTS arrives (Job Failed, Pyxis spec 10.7.1.2), so
    # nothing is delivered, completed or dropped. rx-data-timeout 0 (off) keeps the order check
    # (the Tx CTS wait longer than the Rx data wait) out of the way.
    r = podsim.run(permutation, overrides={"pod.cell.tx-cts-timeout": "500ns",
                                           "pod.cell.rx-data-timeout": 0}, write_results=False)
    s = r["summary"]
    assert s["bytes_sent"] == 16 << 20
    assert s["bytes_delivered"] == s["bytes_received"] == s["bytes_dropped"] == 0
    m = r["messages"]
    assert (m["deliver_ps"] == -1).all() and (m["complete_ps"] == -1).all()
    # Timers longer than the run change nothing: the closed form holds.
    r = podsim.run(permutation, overrides={"pod.cell.tx-ack-timeout": "20us",
                                           "pod.cell.tx-active-timeout": "30us",
                                           "pod.cell.rx-completion-timeout": "40us"},
                   write_results=False)
    lossless(r)
    measured = (r["messages"]["deliver_ps"] - r["messages"]["post_ps"]) / 1e3
    assert measured == pytest.approx(one_mib_job_ns(), rel=0.02)


def test_cell_qpage_and_occupancy_keys_reach_the_adapters(podsim, permutation):
    # pod.cell.qpages 1 (Pyxis spec 10.7.6): a chip generates one page at a time and the next only
    # when FO dequeues it at its grant, a request/grant round trip 2D later. The CTS comes at D,
    # so page k is generated at D + 2kD and the last (k = 65) is granted at 133D; then it takes
    # its FO time (8592 B: 98 cycles), the pipelines, links and switch with 2 cells on its
    # busiest link, and RxDMA writes its 67 words (67 cycles). Lossless, within 2%.
    r = podsim.run(permutation, overrides={"pod.cell.qpages": 1}, write_results=False)
    lossless(r)
    byte_ns = 8 / 106.25
    cycle = 1 / 1.33
    d = 240 + 50 + 400 + 112 * byte_ns + 50 + 240
    expected = 133 * d + 98 * cycle + 240 + 50 + 400 + 2 * 192 * byte_ns + 50 + 240 + 67 * cycle
    measured = (r["messages"]["deliver_ps"] - r["messages"]["post_ps"]) / 1e3
    print(f"qpages 1: expected {expected:.1f} ns, measured {measured.min():.1f} to "
          f"{measured.max():.1f} ns")
    assert measured == pytest.approx(expected, rel=0.02)
    # An occupancy profile of {xoff 8, xon 4} (10.7.3.1) keeps at most 8 pages of a VOQ
    # outstanding: fewer than the 2D x 170 GB/s / 16 KB = 21 pages that keep RxDMA busy, so the
    # jobs take longer than the unlimited closed form, and nothing is lost.
    r = podsim.run(permutation, overrides={
        "pod.cell.occupancy-profiles": "[{xoff: 64, xon: 63}, {xoff: 8, xon: 4}]",
        "pod.cell.occupancy-profile": 1}, write_results=False)
    lossless(r)
    measured = (r["messages"]["deliver_ps"] - r["messages"]["post_ps"]) / 1e3
    print(f"profile {{8, 4}}: {measured.min():.1f} to {measured.max():.1f} ns")
    assert measured.min() > 1.2 * one_mib_job_ns()


def test_cell_datagram_transport_is_exact(podsim, permutation):
    # pod.cell.transport: datagram (Pyxis spec 10.5): a 1 MiB message is 64 datagrams of 16,256 B
    # and one of 8192 B (11.4.8: at most 16,256 B each). One sender per receiver and 255 free
    # descriptors per RxQ (a ring of 256 holds 255, 11.5.2.2) for 65 datagrams: nothing dropped,
    # every message delivered. Bytes on the chips' links per pair: 64 pages of 16,272 B and one
    # of 8208 B (with the 16 B page header), 64 x 93 + 47 = 5999 cells with a 16 B cell header,
    # and a request and a grant per datagram (130 control cells of 112 B); no CTS, no ACK.
    r = podsim.run(permutation, overrides={"pod.cell.transport": "datagram"},
                   write_results=False)
    s = r["summary"]
    assert s["bytes_dropped"] == 0 and sum(s["drops_by_reason"].values()) == 0
    assert s["bytes_received"] == s["bytes_sent"] == s["bytes_delivered"] == 16 << 20
    m = r["messages"]
    assert (m["deliver_ps"] > 0).all() and (m["complete_ps"] > 0).all()
    # unreliable: the sender completes a message when its last datagram is transmitted,
    # before the receiver has it
    assert (m["complete_ps"] < m["deliver_ps"]).all()
    per_pair = 64 * 16272 + 8208 + 5999 * 16 + 130 * 112
    links = r["links"]
    assert int(links["tx_wire_bytes"][links["kind"] == "acc-up"].sum()) == 16 * per_pair
    assert int(links["tx_wire_bytes"][links["kind"] == "down"].sum()) == 16 * per_pair


def test_cell_datagram_rx_ring_runs_dry(podsim, permutation):
    # An RxQ ring of 3 descriptors holds 2 (11.5.2.2); software re-posts one per millisecond,
    # long after the 65 datagrams of each message have arrived (about 10 us): per receiver 2
    # written and 63 dropped for want of a descriptor (10.8.1.3), so no message is delivered.
    # Conservation: datagrams sent 16 x 65 = written 16 x 2 + dropped 16 x 63.
    r = podsim.run(permutation, overrides={"pod.cell.transport": "datagram",
                                           "pod.cell.datagram-rx-ring-size": 3,
                                           "pod.cell.datagram-rx-repost-time": "1ms"},
                   write_results=False)
    s = r["summary"]
    assert s["drops_by_reason"].get("DatagramNoDescriptor") == 16 * 63
    assert s["bytes_received"] == 16 * 2 * 16256
    assert s["bytes_delivered"] == 0
    assert (r["messages"]["deliver_ps"] == -1).all()


@pytest.mark.parametrize("over", [
    {},
    {"pod.cell.stages": "two-stage", "pod.cell.switch-ports": 8, "pod.cell.links": 4},
    {"pod.cell.page-size-words": 37, "pod.cell.links": 8, "pod.cell.granularity": "fine"},
])
def test_cell_all_to_all_and_incast_are_lossless(podsim, all_to_all, over):
    r = podsim.run(all_to_all, overrides=over, write_results=False)
    lossless(r)
    s = r["summary"]
    assert s["bytes_sent"] == 16 * 15 * (64 << 10) + 15 * (256 << 10)
    links = r["links"]
    # Every byte a switch port sends came in on another: chip links up = chip links down.
    up = links["kind"] == "acc-up"
    down = links["kind"] == "down"
    assert int(links["tx_wire_bytes"][up].sum()) == int(links["tx_wire_bytes"][down].sum())
    if "pod.cell.stages" in over:
        assert s["switches"] == 4 * (4 + 4)  # per plane 4 first-stage and 4 second-stage
        assert int(links["tx_wire_bytes"][links["kind"] == "leaf-up"].sum()) == int(
            links["tx_wire_bytes"][links["kind"] == "spine-down"].sum()) > 0


@pytest.mark.parametrize("over, field", [
    ({"pod.cell.page-size-words": 32}, "pod.cell.page-size-words"),
    ({"pod.cell.page-size-words": 36}, "pod.cell.page-size-words"),
    ({"pod.cell.page-size-words": 126}, "pod.cell.page-size-words"),
    ({"pod.cell.page-size-words": 127}, "pod.cell.page-size-words"),
    ({"pod.accelerators": 17, "pod.cell.switch-ports": 16, "pod.cell.stages": "single-stage"},
     "pod.accelerators"),
    ({"pod.accelerators": 40, "pod.cell.switch-ports": 8, "pod.cell.stages": "two-stage"},
     "pod.accelerators"),
    ({"pod.cell.switch-ports": 10, "pod.cell.spines": 3, "pod.cell.stages": "two-stage"},
     "pod.cell.spines"),
    ({"pod.cell.rx-cbuf-cells": 92}, "pod.cell.rx-cbuf-cells"),
    ({"pod.planes": 4}, "pod.planes"),
    ({"pod.flow-control.kind": "pfc"}, "pod.flow-control.kind"),
    ({"pod.transport.kind": "go-back-n"}, "pod.transport.kind"),
    ({"pod.llr.mode": "ack-nak"}, "pod.llr.mode"),
    ({"pod.cell.grant-policy": "lottery"}, "pod.cell.grant-policy"),
    ({"pod.cell.tx-ack-timeout": "-1us"}, "pod.cell.tx-ack-timeout"),
    ({"pod.cell.tx-active-timeout": "11s"}, "pod.cell.tx-active-timeout"),
    ({"pod.cell.rx-completion-timeout": "20s"}, "pod.cell.rx-completion-timeout"),
    ({"pod.cell.rx-data-timeout": "-5ms"}, "pod.cell.rx-data-timeout"),
    ({"pod.cell.tx-cts-timeout": "5ms"}, "pod.cell.tx-cts-timeout"),  # not above rx-data 10ms
    ({"pod.cell.rx-completion-timeout": "500us"}, "pod.cell.rx-completion-timeout"),  # < ack 1ms
    # occupancy profiles (Pyxis spec 10.7.3.1): xon not below xoff, more than 8, out of range
    ({"pod.cell.occupancy-profiles": "[{xoff: 8, xon: 9}]"}, "pod.cell.occupancy-profiles[0].xon"),
    ({"pod.cell.occupancy-profiles": "[{xoff: 8, xon: 4}, {xoff: 4, xon: 4}]"},
     "pod.cell.occupancy-profiles[1].xon"),
    ({"pod.cell.occupancy-profiles": "[" + ", ".join(["{xoff: 8, xon: 4}"] * 9) + "]"},
     "pod.cell.occupancy-profiles"),
    ({"pod.cell.occupancy-profiles": "[{xoff: 0, xon: 0}]"}, "pod.cell.occupancy-profiles[0].xoff"),
    ({"pod.cell.occupancy-profiles": "[{xoff: 8}]"}, "pod.cell.occupancy-profiles[0].xon"),
    ({"pod.cell.occupancy-profiles": "[{xoff: 8, xon: 4}]", "pod.cell.occupancy-profile": 1},
     "pod.cell.occupancy-profile"),
    ({"pod.cell.occupancy-profile": 8}, "pod.cell.occupancy-profile"),
    ({"pod.cell.qpages": 0}, "pod.cell.qpages"),
    ({"pod.cell.txbuf-bytes": 16000}, "pod.cell.txbuf-bytes"),  # below one 16 KB page
    ({"pod.cell.transport": "udp"}, "pod.cell.transport"),
    ({"pod.cell.datagram-rx-ring-size": 1}, "pod.cell.datagram-rx-ring-size"),  # holds N - 1
    ({"pod.cell.datagram-rx-buffer-bytes": 16257}, "pod.cell.datagram-rx-buffer-bytes"),
    ({"pod.cell.datagram-rx-buffer-bytes": 0}, "pod.cell.datagram-rx-buffer-bytes"),
    ({"pod.cell.datagram-rx-repost-time": "-1us"}, "pod.cell.datagram-rx-repost-time"),
    ({"pod.cell.datagram-tx-ring-size": 1}, "pod.cell.datagram-tx-ring-size"),
    ({"pod.cell.rxdma-tracking-ids": 0}, "pod.cell.rxdma-tracking-ids"),
])
def test_bad_cell_pods_are_refused(podsim, permutation, over, field):
    with pytest.raises(podsim.ScenarioError) as e:
        podsim.run(permutation, overrides=over, write_results=False)
    assert e.value.field == field


# Switch credits (pod.cell.switch-credits, src/cell-fabric/doc/cell-fabric.rst): 3 chips send 1 MiB
# each to a fourth over 2 single-stage planes, with grant pacing off (fifo grants, a 64K-cell Rx
# CBUF: every page granted at once) and job timers off (a lossy run drains and ends). Each switch
# (4 ports) has 848 cells of buffer: exactly its credits, 4 ports x 2 pools x 106, where 106 =
# ceil((2 x 50 + 400) ns / 8.433 ns, the time of the smallest 112 B cell) = 60 for a link's round
# trip plus ceil(91 / 2) = 46 for the largest unit (a page's cells over 2 links).
CREDIT_INCAST = (
    "name: cell-credits\n"
    "pod:\n"
    "  fabric: cell\n"
    "  accelerators: 4\n"
    "  cell: {links: 2, grant-policy: fifo, rx-cbuf-cells: 65536, switch-buffer-cells: 848,\n"
    "         tx-cts-timeout: 0, tx-active-timeout: 0, tx-ack-timeout: 0, rx-data-timeout: 0,\n"
    "         rx-completion-timeout: 0}\n"
    "workloads:\n"
    "  - {kind: incast, senders: 3, receiver: 0, size: 1MiB}\n"
    "output: {plots: false, progress: false}\n"
)


@pytest.fixture
def credit_incast(tmp_path):
    path = tmp_path / "cell-credit-incast.yaml"
    path.write_text(CREDIT_INCAST)
    return path


def test_cell_switch_credits_make_an_overflowing_incast_lossless(podsim, credit_incast):
    # Without credits the receiver's switch ports get 3 x 26.56 GB/s for 26.56 GB/s out and the
    # 848-cell buffer overflows: drops by reason BufferFull, bytes missing.
    r = podsim.run(credit_incast, overrides={"pod.cell.switch-credits": False},
                   write_results=False)
    s = r["summary"]
    print(f"no credits: drops {s['drops_by_reason']}, bytes received {s['bytes_received']} of "
          f"{s['bytes_sent']}")
    assert s["bytes_sent"] == 3 << 20
    assert s["drops_by_reason"].get("BufferFull", 0) > 0
    assert s["bytes_delivered"] < s["bytes_sent"]
    # With credits (the default) the same run loses nothing, and the receiver's 2 links are the
    # bottleneck: per source 1 MiB + 66 page headers + 5964 cell headers of 16 B = 1,145,056 B
    # plus 66 request cells of 112 B, 3,457,344 B in all at 2 x 106.25 Gb/s = 130.16 us. The
    # last delivery is no sooner, and within 5% of it plus the startup 3D (3 x 988.4 ns).
    r = podsim.run(credit_incast, write_results=False)
    lossless(r)
    m = r["messages"]
    link_limited_ns = 3 * (1145056 + 66 * 112) * 8 / 212.5
    last_ns = (m["deliver_ps"].max() - m["post_ps"].min()) / 1e3
    print(f"credits: last delivery {last_ns:.1f} ns, link-limited {link_limited_ns:.1f} ns")
    assert link_limited_ns <= last_ns <= 1.05 * link_limited_ns + 3 * 988.4
    # Every byte a switch port sends came in on another: chip links up = down (nothing lost).
    links = r["links"]
    assert int(links["tx_wire_bytes"][links["kind"] == "acc-up"].sum()) == int(
        links["tx_wire_bytes"][links["kind"] == "down"].sum())


def test_cell_credit_invariants_are_checked(podsim, all_to_all):
    # podsim run --check on two stages: the credit flow control of every cell link checks each
    # unit it sends (credits stay >= 0), receives (held <= advertised), releases (held >= 0) and
    # each credit return (returned <= spent), and at the end every link has all its credits
    # back. Credits add exactly 4 checks per unit per link to the run without them (the same
    # units: credits sized to the round trip change nothing else in this run), besides the
    # checked scheduler's 2 per extra event (each credit return is an event: its insertion and
    # its execution are checked for time order).
    over = {"pod.cell.stages": "two-stage", "pod.cell.switch-ports": 8, "pod.cell.links": 4}
    on = podsim.run(all_to_all, overrides=over, write_results=False, check=True)
    off = podsim.run(all_to_all, overrides={**over, "pod.cell.switch-credits": False},
                     write_results=False, check=True)
    for r in (on, off):
        lossless(r)
        assert r["summary"]["checked"] is True
        assert r["summary"]["check_lost_bytes"] == 0
    units = int(on["links"]["tx_packets"].sum())
    assert units == int(off["links"]["tx_packets"].sum())
    extra_events = on["summary"]["events"] - off["summary"]["events"]
    print(f"checks with credits {on['summary']['checks']}, without "
          f"{off['summary']['checks']}, units on links {units}, extra events {extra_events}")
    assert extra_events >= units  # at least one credit return per unit per link
    assert on["summary"]["checks"] - off["summary"]["checks"] == 4 * units + 2 * extra_events


@pytest.mark.parametrize("over, field", [
    ({"pod.cell.switch-buffer-cells": 2000}, "pod.cell.switch-buffer-cells"),  # needs 2016
    ({"pod.cell.switch-buffer-cells": 0}, "pod.cell.switch-buffer-cells"),
    ({"pod.cell.credits-per-port": 2}, "pod.cell.credits-per-port"),  # a unit has 3 cells
    ({"pod.cell.credit-bytes": 191}, "pod.cell.credit-bytes"),  # a cell is 192 B
    ({"pod.cell.credit-latency": "-1ns"}, "pod.cell.credit-latency"),
    ({"pod.cell.switch-credits": "maybe"}, "pod.cell.switch-credits"),
])
def test_bad_cell_credit_keys_are_refused(podsim, permutation, over, field):
    with pytest.raises(podsim.ScenarioError) as e:
        podsim.run(permutation, overrides=over, write_results=False)
    assert e.value.field == field
    print(e.value)


def test_cell_small_buffer_is_fine_without_credits(podsim, permutation):
    # The buffer check is for credits only: 2000 cells without credits runs (a permutation has
    # one sender per receiver, so nothing queues at a switch).
    r = podsim.run(permutation, overrides={"pod.cell.switch-buffer-cells": 2000,
                                           "pod.cell.switch-credits": False},
                   write_results=False)
    lossless(r)
