# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""UALink 200 link down through a scenario's faults list (src/ualink/doc/ualink.rst, RAS).

A link-down fault on a UALink pod cuts the link: both ends' DLs go to Fault (UALink_200 section
6.7.1.1, a local fault at both ends). The switch port enters TL drop mode alone (section 3.1.4):
what it holds for the accelerator and what arrives for it later is dropped as LinkDown; the
accelerator's TL drops all ports of its station (TlDropMode) and sends ISOLATE, so every request
it had outstanding is answered CMPTO at the fault instant; its peers time out on their watchdogs
and isolate in turn.
"""

N = 8
FAULT_PS = 300_000


def run(podsim, tmp_path):
    path = tmp_path / "ualink-dl.yaml"
    path.write_text(
        "name: ualink-dl\nstop: 1s\n"
        f"pod: {{accelerators: {N}, planes: 2, switch: {{radix: {N}}}}}\n"
        "workloads:\n  - {kind: all-to-all, size: 64KiB}\n"
        "faults:\n  - {kind: link-down, accelerator: 3, plane: 0, at: 300ns}\n"
        "output: {plots: false, progress: false}\n"
    )
    # One station of 2 x2 ports per accelerator: the link down isolates both of acc3's ports.
    over = {"pod.fabric": "ualink", "pod.ualink.watchdog": "2us",
            "pod.ualink.bifurcation": "2x2"}
    return podsim.run(path, overrides=over, write_results=False)


def test_ualink_link_down_fault_drives_the_drop_modes(podsim, tmp_path):
    r = run(podsim, tmp_path)
    s = r["summary"]
    m = r["messages"]
    drops = s["drops_by_reason"]
    assert s["link_down_events"] == 1
    # Switch side: only that port's TL drops (section 3.1.4), by the named reason.
    assert drops.get("LinkDown", 0) > 0
    # Accelerator side: the station's TL drops what it held (it held 64 KiB messages' writes).
    assert drops.get("TlDropMode", 0) > 0
    assert s["isolations"] >= 1 and s["cmpto"] >= 1
    failed = m["deliver_ps"] < 0
    # ISOLATE at the fault instant: acc3's 7 messages (448 KiB, far more than 300 ns of its two
    # x2 ports at 2 x 392 Gb/s) all fail; every request of its station, outstanding or waiting,
    # is answered CMPTO when the link goes down, so all 7 complete exactly then.
    own = m["src"] == 3
    assert own.sum() == N - 1 and failed[own].all()
    assert (m["complete_ps"][own] == FAULT_PS).all()
    # The peers with requests outstanding to acc3 time out 2 us later and isolate in turn
    # (section 3.1.4, Figure 3-10): their own failed messages complete after the watchdog.
    peers = failed & ~own
    assert (m["complete_ps"][peers] >= 2_000_000).all()
    # Conservation: delivered plus failed is what was posted; every message completes.
    assert s["bytes_delivered"] + s["bytes_failed"] == int(m["bytes"].sum())
    assert (m["complete_ps"] >= 0).all()
