# SPDX-License-Identifier: GPL-2.0-only
"""Every scenario shipped in examples/scenarios runs, at reduced size, and keeps its promises.

Each example is run with 128 accelerators (the defaults use up to 1024; 128 keeps every other
value valid: the 64-sender incast, the radix-64 leaf-spine; a mesh runs at its own size, which
its planes depend on) through podsim.run, without writing a results file. The fabric of these examples is lossless in practice (64 MiB or 16 MiB buffers, no
bit errors), so the expectations are conservation laws: every message delivered, no drop, bytes
received = bytes sent.
"""

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples" / "scenarios").glob("*.yaml"))


def test_there_are_examples():
    assert EXAMPLES, "examples/scenarios/*.yaml"


@pytest.mark.parametrize("scenario", EXAMPLES, ids=lambda p: p.name)
def test_example_runs_and_conserves_bytes(podsim, scenario):
    # A mesh's planes are tied to its size (accelerators - 1 per link set): run it as it is.
    mesh = "topology: mesh" in scenario.read_text()
    over = {} if mesh else {"pod.accelerators": 128}
    r = podsim.run(str(scenario), over, write_results=False)
    m, s = r["messages"], r["summary"]
    assert len(m["src"]) > 0
    assert (m["deliver_ps"] >= 0).all(), "every message delivered"
    assert (m["deliver_ps"] >= m["post_ps"]).all()
    assert s["bytes_dropped"] == 0
    assert s["bytes_received"] == s["bytes_sent"] == int(m["bytes"].sum())
    # DESIGN.md rule 3: at most 3 scheduler events per packet-hop.
    assert s["events"] <= 3 * s["packet_hops"]
