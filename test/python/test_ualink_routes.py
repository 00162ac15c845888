# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""UALink virtual pods and impossible pods through scenarios (pod.ualink.virtual-pods).

A pod of 16 accelerators with 2 x2 ports each is cut into two virtual pods, 0-7 and 8-15
(UALink_200 sections 1.1, 8.4): the switches' per-station route tables deny traffic between them
(10.7.1). Each virtual pod runs its own incast and collective. A fault in virtual pod B (an
accelerator down, or one link down) isolates B's stations (3.1.4) but leaves every message of
virtual pod A delivered and completed at exactly the times of the fault-free run: a link-down
error does not spread beyond its virtual pod (3.1). Workloads that would cross a virtual pod
boundary, bad virtual pod lists and pods UALink cannot build are refused before the run, with
the file, the line and the key.
"""

import numpy as np
import pytest

POD = """\
name: vpods
pod:
  fabric: ualink
  accelerators: 16
  planes: 2
  switch: {radix: 16}
  ualink:
    bifurcation: 2x2
    watchdog: 50us
    virtual-pods:
      - {from: 0, to: 7}
      - {accelerators: [8, 9, 10, 11, 12, 13, 14, 15]}
"""

WORKLOADS = """\
workloads:
  - {kind: incast, senders: 7, receiver: 0, size: 16KiB}
  - {kind: collective, collective: all-reduce, group: [0, 1, 2, 3, 4, 5, 6, 7], size: 32KiB}
  - {kind: incast, senders: 7, receiver: 8, size: 16KiB}
  - {kind: collective, collective: all-to-all, group: [8, 9, 10, 11, 12, 13, 14, 15], size: 4KiB}
"""

TAIL = "output: {plots: false, progress: false}\n"


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return p


def side(r, lo, hi):
    """The delivery and completion times of the messages sent by accelerators lo..hi."""
    m = r["messages"]
    src = np.asarray(m["src"])
    sel = (src >= lo) & (src <= hi)
    return np.asarray(m["deliver_ps"])[sel], np.asarray(m["complete_ps"])[sel]


@pytest.mark.parametrize("fault", [
    "{kind: accelerator-down, accelerator: 9, at: 100ns}",
    "{kind: link-down, accelerator: 12, plane: 1, at: 150ns}",
])
def test_fault_in_one_virtual_pod_leaves_the_other_untouched(podsim, tmp_path, fault):
    clean = podsim.run(write(tmp_path, "clean.yaml", POD + WORKLOADS + TAIL),
                       write_results=False)
    hit = podsim.run(write(tmp_path, "fault.yaml",
                           POD + WORKLOADS + "faults:\n  - " + fault + "\n" + TAIL),
                     write_results=False)
    s = clean["summary"]
    # Fault-free: everything delivered, nothing dropped (the tables deny nothing used).
    assert s["bytes_dropped"] == 0 and s["isolations"] == 0
    cd, cc = side(clean, 0, 7)
    fd, fc = side(hit, 0, 7)
    assert len(cd) > 0 and (cd >= 0).all()
    # Virtual pod A: the same messages at exactly the same times (sections 3.1, 8.4).
    assert np.array_equal(cd, fd) and np.array_equal(cc, fc)
    # The fault did reach virtual pod B: its stations isolated, requests answered CMPTO.
    assert hit["summary"]["isolations"] > 0 and hit["summary"]["cmpto"] > 0


def refusal(podsim, path):
    with pytest.raises(podsim.ScenarioError) as e:
        podsim.run(path, write_results=False)
    return e.value


@pytest.mark.parametrize("workload, line, field", [
    # line 14 is the first workload (POD has 12 lines, "workloads:" is line 13).
    ("{kind: all-to-all, size: 4KiB}", 14, "workloads[0].kind"),
    ("{kind: permutation, size: 4KiB}", 14, "workloads[0].kind"),
    ("{kind: incast, senders: 2, receiver: 0, sender-list: [1, 9], size: 4KiB}", 14,
     "workloads[0].sender-list[1]"),
    # default senders of receiver 6: 7 and 8, and 8 is in the other virtual pod
    ("{kind: incast, senders: 2, receiver: 6, size: 4KiB}", 14, "workloads[0].senders"),
    ("{kind: collective, collective: all-reduce, group: [0, 8], size: 4KiB}", 14,
     "workloads[0].group"),
    ("{kind: collective, collective: all-reduce, size: 4KiB}", 14, "workloads[0].kind"),
    ("{kind: dag, nodes: [{name: s, kind: send, src: 0, dst: 8, size: 4KiB}]}", 14,
     "workloads[0].nodes[0].dst"),
])
def test_workloads_across_virtual_pods_are_refused(podsim, tmp_path, workload, line, field):
    p = write(tmp_path, "cross.yaml", POD + "workloads:\n  - " + workload + "\n" + TAIL)
    e = refusal(podsim, p)
    assert (e.file, e.line, e.field) == (str(p), line, field)
    assert "virtual pod" in e.message


def test_accelerator_in_no_virtual_pod_is_excluded(podsim, tmp_path):
    pod = POD.replace("[8, 9, 10, 11, 12, 13, 14, 15]", "[8, 9, 10, 11, 12, 13, 14]")
    p = write(tmp_path, "excluded.yaml",
              pod + "workloads:\n  - {kind: incast, senders: 1, receiver: 14, "
              "sender-list: [15], size: 4KiB}\n" + TAIL)
    e = refusal(podsim, p)
    assert (e.line, e.field) == (14, "workloads[0].sender-list[0]")
    assert "no virtual pod" in e.message


@pytest.mark.parametrize("vpods, line, field", [
    # lines: "virtual-pods:" is line 10, its elements 11 and 12
    ("      - {from: 0, to: 7}\n      - {accelerators: [7, 8]}\n", 12,
     "pod.ualink.virtual-pods[1].accelerators[0]"),  # 7 in two virtual pods (8.4)
    ("      - {from: 0, to: 7}\n      - {from: 8, to: 16}\n", 12,
     "pod.ualink.virtual-pods[1].to"),  # beyond the pod
    ("      - {from: 4, to: 3}\n      - {from: 8, to: 15}\n", 11,
     "pod.ualink.virtual-pods[0].to"),  # empty range
    ("      - {from: 0, to: 7, accelerators: [1]}\n      - {from: 8, to: 15}\n", 11,
     "pod.ualink.virtual-pods[0].accelerators"),
    ("      - {from: 0}\n      - {from: 8, to: 15}\n", 11, "pod.ualink.virtual-pods[0]"),
    ("      - {accelerators: []}\n      - {from: 8, to: 15}\n", 11,
     "pod.ualink.virtual-pods[0].accelerators"),
])
def test_bad_virtual_pods_are_refused(podsim, tmp_path, vpods, line, field):
    head = POD.split("    virtual-pods:\n")[0] + "    virtual-pods:\n"
    p = write(tmp_path, "bad.yaml",
              head + vpods + "workloads:\n  - {kind: incast, senders: 1, receiver: 8, "
              "sender-list: [9], size: 4KiB}\n" + TAIL)
    e = refusal(podsim, p)
    assert (e.file, e.line, e.field) == (str(p), line, field)


@pytest.mark.parametrize("pod, line, field", [
    # 1025 accelerators: 10-bit ids (section 1.1)
    ("  accelerators: 1025\n  planes: 2\n  switch: {radix: 1025}\n", 4, "pod.accelerators"),
    # 3 ports do not fill x2 stations of 2 ports: mixed bifurcation (section 2.4)
    ("  accelerators: 16\n  planes: 3\n  switch: {radix: 16}\n", 5, "pod.planes"),
    # a radix below the accelerators needs switch-to-switch links (section 10.1)
    ("  accelerators: 16\n  planes: 2\n  switch: {radix: 8}\n", 6, "pod.switch.radix"),
    # a leaf:spine ratio is a switch-to-switch link too (section 10.1)
    ("  accelerators: 16\n  planes: 2\n  switch: {radix: 16, oversubscription: 2}\n", 6,
     "pod.switch.oversubscription"),
])
def test_impossible_pods_are_refused_with_file_and_line(podsim, tmp_path, pod, line, field):
    p = write(tmp_path, "impossible.yaml",
              "name: impossible\npod:\n  fabric: ualink\n" + pod +
              "  ualink: {bifurcation: 2x2}\n"
              "workloads:\n  - {kind: all-to-all, size: 4KiB}\n" + TAIL)
    e = refusal(podsim, p)
    assert (e.file, e.line, e.field) == (str(p), line, field)
