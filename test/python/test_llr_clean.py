# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""Link-level retry (pod.llr.mode ack-nak) on error-free links never replays, through a switch.

The receiving end of an accelerator uplink is a switch port: its retry engine sees a frame
after the switch pipeline (250 ns cut-through; the frame's tail plus 250 ns store-and-forward),
and its cumulative ACK leaves from there. The automatic replay timer (four round trips plus
AckDelay) counts that pipeline in its round trip (fabric.rst, Link-level retry), so the ACK of
every frame, a lone one included, returns before it expires: zero replays, zero replayed frames.

What LLR then costs (fabric.rst, Link-level retry, cost without errors): the ACK frames only.
A receiver fed back to back acknowledges every k = min(AckInterval, floor(AckDelay / tU) + 1)
frames (AckDelay 100 ns, tU = 4134 B at 800 Gb/s = 41.34 ns: k = 3 with AckInterval 16), so a
link direction carries ceil(U / k) ACKs for the U frames coming the other way, and each takes
tC = (64 + 20) B at 800 Gb/s = 0.84 ns from the data going its way. A message is late by at
most the ACKs sent on its links times tC, per hop: 2 x ceil(U / k) x tC over uplink and
downlink; it is never earlier than without LLR.

The runs use examples/questions/llr-bit-errors.yaml (a random cyclic permutation: every link
carries one message each way) with codeword-error-rate 0: at its full size (64 x 4 MiB, the
report of 64 spurious replays) and reduced to 16 accelerators with 1 MiB and 4 KiB (one lone
frame) messages, in both forwarding modes.
"""

import math

import pytest

from conftest import ROOT

SCENARIO = ROOT / "examples" / "questions" / "llr-bit-errors.yaml"

FRAME_WIRE = 4096 + 18 + 20  # payload, header, preamble and gap (fabric.rst)
T_FRAME_PS = FRAME_WIRE * 8 / 800e9 * 1e12  # 41340 ps
T_ACK_PS = (64 + 20) * 8 / 800e9 * 1e12  # 840 ps: ControlFrameBytes + interframe gap
ACK_DELAY_PS = 100_000  # FabricRetryEngine AckDelay
ACK_INTERVAL = 16  # pod.llr.ack-interval in the scenario (the default)
# Frames per ACK at line rate.
K = min(ACK_INTERVAL, math.floor(ACK_DELAY_PS / T_FRAME_PS) + 1)


def run(podsim, mode, forwarding, accelerators, size):
    over = {"pod.link.codeword-error-rate": 0, "pod.llr.mode": mode,
            "pod.switch.forwarding": forwarding, "pod.accelerators": accelerators,
            "pod.switch.radix": accelerators, "workloads[0].size": size}
    return podsim.run(SCENARIO, over, write_results=False)


CASES = [(f, n, size, frames)
         for f in ("cut-through", "store-and-forward")
         for n, size, frames in ((64, "4MiB", 1024), (16, "1MiB", 256), (16, "4KiB", 1))]


@pytest.mark.parametrize("forwarding,accelerators,size,frames", CASES)
def test_llr_error_free_never_replays(podsim, forwarding, accelerators, size, frames):
    assert K == 3
    off = run(podsim, "off", forwarding, accelerators, size)
    on = run(podsim, "ack-nak", forwarding, accelerators, size)
    s, L = on["summary"], on["links"]
    assert s["replays"] == 0 and s["replayed_packets"] == 0
    assert (L["replays"] == 0).all() and (L["replayed_packets"] == 0).all()
    assert (L["rx_discarded"] == 0).all()
    assert s["bytes_dropped"] == 0 and s["bytes_received"] == s["bytes_sent"]
    # Without LLR no control frame at all (PFC never pauses: nothing congests).
    assert (off["links"]["control_packets"] == 0).all()
    # Every link direction carries ceil(U / k) ACKs for the U frames coming the other way.
    acks = math.ceil(frames / K)
    assert (L["control_packets"] == acks).all(), (acks, L["control_packets"])
    # Same permutation (same seed), message by message.
    mo, mf = on["messages"], off["messages"]
    assert (mo["src"] == mf["src"]).all() and (mo["dst"] == mf["dst"]).all()
    assert (mo["deliver_ps"] >= 0).all()
    late = mo["deliver_ps"] - mf["deliver_ps"]
    assert (late >= 0).all()
    # At most the documented per-hop cost, over the two hops.
    assert (late <= 2 * acks * T_ACK_PS).all(), (late.max(), 2 * acks * T_ACK_PS)
    if frames == 1:
        # The lone frame's ACK goes back on an idle reverse direction: no cost at all.
        assert (late == 0).all()
