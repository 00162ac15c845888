# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""UALink 200 recovery after a link down through a scenario (src/ualink/doc/ualink.rst, RAS,
Recovery).

A link-down fault isolates the accelerator's station (UALink_200 section 3.1.4) and, through
their watchdogs, the peers that had requests outstanding to it. With pod.ualink.station-reset
a link-up fault brings the link back: both DLs re-initialise it on entering NOP (replay state,
TL credits, address cache: sections 5.6, 5.8, 6.6) and management resets every isolated
station that long after it isolated and after its ports are Up again (section 3.1.4.3). A
workload started after the recovery then completes entirely.
"""

import pytest

N = 8


def scenario(tmp_path, reset):
    path = tmp_path / "ualink-recovery.yaml"
    path.write_text(
        "name: ualink-recovery\nstop: 1s\n"
        f"pod: {{accelerators: {N}, planes: 2, switch: {{radix: {N}}}}}\n"
        "workloads:\n"
        "  - {kind: all-to-all, size: 64KiB}\n"
        "  - {kind: all-to-all, size: 16KiB, start: 40us}\n"
        "faults:\n"
        "  - {kind: link-down, accelerator: 3, plane: 0, at: 300ns}\n"
        "  - {kind: link-up, accelerator: 3, plane: 0, at: 10us}\n"
        "output: {plots: false, progress: false}\n"
    )
    over = {"pod.fabric": "ualink", "pod.ualink.watchdog": "2us",
            "pod.ualink.bifurcation": "2x2"}
    if reset:
        over["pod.ualink.station-reset"] = reset
    return path, over


def test_ualink_link_up_recovers_and_later_traffic_completes(podsim, tmp_path):
    path, over = scenario(tmp_path, "1us")
    r = podsim.run(path, overrides=over, write_results=False)
    s = r["summary"]
    m = r["messages"]
    assert s["link_down_events"] == 1
    assert s["isolations"] >= 1 and s["cmpto"] >= 1
    # The second all-to-all posts at 40 us, after the repair (10 us) and every reset: each of
    # its N x (N - 1) messages is delivered, none failed (every byte after the recovery).
    late = m["post_ps"] >= 40_000_000
    assert late.sum() == N * (N - 1)
    assert (m["deliver_ps"][late] >= 0).all()
    assert (m["complete_ps"][late] >= m["deliver_ps"][late]).all()
    assert int(m["bytes"][late].sum()) == N * (N - 1) * 16384
    # Conservation over the whole run: delivered plus failed is what was posted.
    assert s["bytes_delivered"] + s["bytes_failed"] == int(m["bytes"].sum())
    assert (m["complete_ps"] >= 0).all()


def test_ualink_link_up_without_station_reset_is_refused(podsim, tmp_path):
    path, over = scenario(tmp_path, None)
    with pytest.raises(podsim.ScenarioError) as e:
        podsim.run(path, overrides=over, write_results=False)
    assert e.value.field == "faults[1].kind"
    assert "station-reset" in str(e.value)
