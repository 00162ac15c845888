# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""Lazy posting gives the same run as posting every planned message at once.

WorkloadGenerator offers an all-to-all's messages of each source to its endpoint as a supply
(FabricEndpoint::PostLazily); a BasicEndpoint whose ports share one FIFO queue takes it and posts
each message when the queue's FIFO of its class runs empty (src/pod/doc/performance.rst, Lazy
posting). The attribute ns3::BasicEndpoint::LazyPosting=false (set here through ns-3's
NS_ATTRIBUTE_DEFAULT) makes the endpoint refuse, so that every message is posted at the start as
before. The expected values are the eager run's (an identity check): every dataset and attribute
of the results file equal, wall and build times and peak RSS aside, and the same event count.
Besides: byte conservation (a run to completion delivers every byte it sent: bytes sent =
bytes delivered = bytes received), nothing dropped, and (from the WorkloadGenerator log) which
sources took the lazy path, so that the check is not vacuous.
"""

import os
import re
import subprocess

import numpy as np
import pytest

from conftest import ROOT, results_contents

h5py = pytest.importorskip("h5py")

RUN = ROOT / os.environ.get("PODSIM_BUILD_DIR", "build") / "bin" / "podsim-run"

# Ethernet pods: 8 planes of one switch (Spray over the planes, the default: one shared FIFO),
# PFC; an incast posted before the all-to-all at the same start.
ETH = (
    "name: lazy-eth\n"
    "pod: {{fabric: ethernet, accelerators: 64, planes: {planes}, switch: {{radix: 64}},\n"
    "      link: {{rate: 800Gbps}}, flow-control: {{kind: pfc}}{nic}}}\n"
    "workloads:\n"
    "  - {{kind: incast, senders: 16, receiver: 3, size: 64KiB, class: 1}}\n"
    "  - {{kind: all-to-all, size: {size}}}\n"
    "{extra}"
    "output: {{plots: false, progress: false}}\n"
)

CASES = {
    # Spray over 8 planes, 4 units per message: the ports take units of one message each.
    "spray-8-planes": (ETH.format(planes=8, nic="", size="16KiB", extra=""), 64),
    # Stopped while most messages are still unposted: the rest are posted after the run.
    "spray-stopped": (ETH.format(planes=8, nic="", size="16KiB", extra="stop: 300ns\n"), 64),
    # One plane: a single port and FIFO, two classes (the incast's on class 1 and the
    # all-to-all's on class 0 share the queue round robin).
    "one-plane-two-classes": (ETH.format(planes=1, nic="", size="4KiB", extra=""), 64),
    # Round robin over 8 planes: 8 FIFOs, refused (every message posted at the start).
    "round-robin-refused": (
        ETH.format(planes=8, nic=", nic: {plane-selection: round-robin}", size="4KiB", extra=""),
        0,
    ),
}


def _run(scenario, out, eager):
    env = dict(os.environ)
    env["NS_LOG"] = "WorkloadGenerator=level_info"
    if eager:
        env["NS_ATTRIBUTE_DEFAULT"] = "ns3::BasicEndpoint::LazyPosting=false"
    r = subprocess.run(
        [str(RUN), str(scenario), f"--out={out}", "--quiet"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert r.returncode == 0, r.stderr
    lazy = [int(m) for m in re.findall(r"(\d+) of \d+ sources post lazily", r.stdout + r.stderr)]
    return lazy


@pytest.mark.parametrize("name", sorted(CASES))
def test_lazy_posting_equals_eager_posting(tmp_path, name):
    if not RUN.is_file():
        pytest.skip("podsim-run not built")
    text, lazy_sources = CASES[name]
    scenario = tmp_path / f"{name}.yaml"
    scenario.write_text(text)
    lazy = _run(scenario, tmp_path / "lazy.h5", eager=False)
    eager = _run(scenario, tmp_path / "eager.h5", eager=True)
    # The all-to-all's 64 sources take the lazy path (the incast's single messages are posted
    # at once); with the attribute false none does.
    assert max(lazy) == lazy_sources, lazy
    assert max(eager) == 0, eager
    a = results_contents(tmp_path / "eager.h5")
    b = results_contents(tmp_path / "lazy.h5")
    assert sorted(a) == sorted(b)
    differ = [k for k in a if not np.array_equal(np.asarray(a[k]), np.asarray(b[k]))]
    assert differ == []
    s = a["A:summary@events"]
    assert s > 1000
    # 16 x 64 KiB + 64 x 63 messages of the all-to-all, every one posted (also when stopped).
    size = 16384 if "spray" in name else 4096
    assert a["A:summary@bytes_sent"] == 16 * 65536 + 64 * 63 * size
    assert a["A:summary@bytes_dropped"] == 0
    if name != "spray-stopped":
        # Conservation in a run to completion: every byte sent arrived, in whole messages.
        assert a["A:summary@bytes_delivered"] == a["A:summary@bytes_sent"]
        assert a["A:summary@bytes_received"] == a["A:summary@bytes_sent"]
        assert np.all(a["D:messages/deliver_ps"] >= 0)
    else:
        assert a["A:summary@bytes_delivered"] < a["A:summary@bytes_sent"]
