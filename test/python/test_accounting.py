# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""What a run did not do is counted too, and what a scenario would ignore is refused.

- A ring all-reduce of 16 ranks posts 2 (n - 1) n = 480 messages (src/collective/doc/
  collective.rst: every rank sends to its successor in each of the 2 (n - 1) steps). With the
  only switch down mid-run, the messages it posted plus those it never posted (its later steps
  wait on the failed ones) are all 480, and the failure says so.
- A DAG of 3 nodes on 4 accelerators has 12 node instances: a failed run keeps a row for each,
  -1 for what did not happen.
- A run in which nothing arrives lasted until its last event, not 0 ps.
- Keys that would be ignored are refused before the run, naming the key: another fabric's
  section, bit errors on cell links, a CBFC receive buffer smaller than one frame, a name that
  would put the results file outside results/.
"""

import pytest

N = 16


def write(tmp_path, text, name="acct.yaml"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_ring_all_reduce_with_a_switch_down_accounts_for_every_message(podsim, tmp_path):
    path = write(tmp_path,
                 f"name: ring\npod: {{accelerators: {N}, transport: {{kind: go-back-n, "
                 "timeout: 2us}}\n"
                 "workloads:\n  - {kind: collective, collective: all-reduce, algorithm: ring, "
                 "size: 1MiB}\n"
                 "faults:\n  - {kind: switch-down, plane: 0, switch: 0, at: 2us}\n"
                 "output: {plots: false, progress: false}\n")
    r = podsim.run(path, write_results=False)
    s = r["summary"]
    posted = len(r["messages"]["src"])
    assert 0 < s["messages_failed"] <= posted < 2 * (N - 1) * N
    assert posted + s["messages_unposted"] == 2 * (N - 1) * N
    assert f"{s['messages_unposted']} more never posted" in s["failure"]
    assert s["failure"].startswith("MessagesFailed: ")


def test_a_failed_dag_keeps_every_node_row(podsim, tmp_path):
    path = write(tmp_path,
                 "name: dag\npod: {accelerators: 4, transport: {kind: go-back-n, timeout: 2us}}\n"
                 "workloads:\n  - kind: dag\n    nodes:\n"
                 "      - {name: a, kind: compute, duration: 1us}\n"
                 "      - {name: b, kind: collective, collective: all-reduce, size: 1MiB, "
                 "deps: [a]}\n"
                 "      - {name: c, kind: compute, duration: 1us, deps: [b]}\n"
                 "faults:\n  - {kind: switch-down, plane: 0, switch: 0, at: 2us}\n"
                 "output: {plots: false, progress: false}\n")
    r = podsim.run(path, write_results=False)
    d = r["dag_nodes"]
    assert len(d["node"]) == 3 * 4
    names = [n.decode() if isinstance(n, bytes) else n for n in d["node"]]
    done = {(names[i], int(d["accelerator"][i])) for i in range(len(names)) if d["end_ps"][i] >= 0}
    assert done == {("a", a) for a in range(4)}
    for i, name in enumerate(names):
        if name == "c":
            assert d["start_ps"][i] == -1 and d["end_ps"][i] == -1
    assert r["summary"]["messages_unposted"] > 0


def test_a_run_where_nothing_arrives_lasts_until_its_last_event(podsim, tmp_path):
    path = write(tmp_path,
                 "name: dark\npod: {accelerators: 4}\n"
                 "workloads:\n  - {kind: all-to-all, size: 64KiB}\n"
                 "faults:\n  - {kind: switch-down, plane: 0, switch: 0, at: 0ns}\n"
                 "output: {plots: false, progress: false}\n")
    r = podsim.run(path, write_results=False)
    s = r["summary"]
    assert s["messages_failed"] == len(r["messages"]["src"]) == 12
    assert s["sim_time_ps"] > 0


@pytest.mark.parametrize("text, field, says", [
    # pod.sue on an Ethernet pod: the plain NIC never reads it.
    ("pod: {accelerators: 8, sue: {ports: 2}}\n", "pod.sue.ports", "section of the sue fabric"),
    # pod.ualink on a cell pod.
    ("pod: {fabric: cell, accelerators: 8, ualink: {replay: true}}\n", "pod.ualink.replay",
     "section of the ualink fabric"),
    # Bit errors on cell links: the cell fabric's links are pod.cell's and error-free.
    ("pod: {fabric: cell, accelerators: 8, link: {ber: 1e-9}}\n", "pod.link.ber",
     "not modelled on cell links"),
    # A credit buffer smaller than one 4096 + 18 B frame: no credit would ever come back.
    ("pod: {accelerators: 8, flow-control: {kind: cbfc, credit-buffer: 2KiB}}\n",
     "pod.flow-control.credit-buffer", "at least one frame, 4114 B"),
    # The default results file is results/<name>.h5.
    ("name: ../escape\npod: {accelerators: 8}\n", "name", "takes no /"),
])
def test_keys_that_would_be_ignored_are_refused(podsim, tmp_path, text, field, says):
    path = write(tmp_path, text + "workloads:\n  - {kind: all-to-all, size: 4KiB}\n")
    with pytest.raises(podsim.ScenarioError) as e:
        podsim.load(path)
    assert e.value.field == field
    assert says in e.value.message
