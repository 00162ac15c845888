# SPDX-License-Identifier: GPL-2.0-only
"""workloads[].kind: message-trace end to end (src/workload/doc/workload.rst, Message traces).

The pod is the one of pod.rst's closed-form validation: Ethernet, one plane, cut-through, 3 m
twinax (d = 13.8 ns), L = 250 ns, 800 Gb/s. A 64 KiB message is 16 packets of 4134 wire bytes,
T = 41.34 ns each; on an idle path it is delivered 2d + L + 16 T = 939.04 ns after its post and
completes at its source (a plain NIC: local completion) 16 T = 661.44 ns after it. The trace:

    a at 0            0 -> 1   posted 0          completed 661.44 ns    delivered 939.04 ns
    b at 1 us         2 -> 3   posted 1000 ns    completed 1661.44 ns   delivered 1939.04 ns
    c after a;b       1 -> 2   posted 1661.44 + 100 (delay) = 1761.44 ns
                               completed 2422.88 ns   delivered 2700.48 ns

No two of them share a link direction (a: acc0 up, acc1 down; b: acc2 up, acc3 down; c: acc1 up,
acc2 down), so each takes its idle-path time.
"""

import h5py
import numpy as np
import pytest

MiB = 1 << 20
K64 = 65536

SCENARIO = """pod:
  accelerators: 4
  switch: {{latency: 250ns, forwarding: cut-through}}
  link: {{rate: 800Gbps, cable: twinax, length: 3m}}
workloads:
  - kind: message-trace
    name: tr
    file: {file}
{extra}"""

TRACE = """id,time,after,delay,src,dst,bytes,tag
a,0,,,0,1,64KiB,7
b,1us,,,2,3,65536,
c,,a;b,100ns,1,2,64KiB,9
"""

# post, complete, deliver (ps) of a, b, c: the derivation above
EXPECTED = [(0, 661440, 939040),
            (1000000, 1661440, 1939040),
            (1761440, 2422880, 2700480)]


def write(tmp_path, trace=TRACE, name="trace.csv", extra=""):
    (tmp_path / name).write_text(trace)
    path = tmp_path / "scenario.yaml"
    path.write_text(SCENARIO.format(file=name, extra=extra))
    return path


def messages(h5):
    with h5py.File(h5, "r") as f:
        return {k: np.asarray(f["messages"][k][()]) for k in f["messages"].keys()}


def run(podsim, path, tmp_path, out="out.h5"):
    h5 = tmp_path / out
    r = podsim.run(str(path), results_file=str(h5))
    return r, h5


def test_completion_times_are_hand_derived(podsim, tmp_path):
    r, h5 = run(podsim, write(tmp_path), tmp_path)
    m = messages(h5)
    order = np.argsort(m["post_ps"], kind="stable")
    assert len(order) == 3
    for row, (post, complete, deliver) in zip(order, EXPECTED):
        assert m["post_ps"][row] == post
        assert m["complete_ps"][row] == complete
        assert m["deliver_ps"][row] == deliver
    assert [(m["src"][i], m["dst"][i]) for i in order] == [(0, 1), (2, 3), (1, 2)]
    assert (m["workload"] == 0).all()
    with h5py.File(h5, "r") as f:
        t = f["message_trace/tr"]
        # in trace order: the lines of the CSV, the tags, issue and completion as above
        assert list(t["line"][()]) == [2, 3, 4]
        assert list(t["tag"][()]) == [7, 0, 9]
        assert list(t["issue_ps"][()]) == [e[0] for e in EXPECTED]
        assert list(t["complete_ps"][()]) == [e[1] for e in EXPECTED]
    # the run lasts until the last delivery
    assert r["summary"]["sim_time_ps"] == EXPECTED[2][2]


def test_bytes_conserved(podsim, tmp_path):
    r, h5 = run(podsim, write(tmp_path), tmp_path)
    m = messages(h5)
    s = r["summary"]
    # every row's bytes delivered exactly once: 3 rows of 64 KiB
    assert int(m["bytes"].sum()) == 3 * K64
    assert (m["deliver_ps"] >= 0).all() and (m["complete_ps"] >= 0).all()
    assert s["bytes_sent"] == s["bytes_received"] == 3 * K64
    assert s["bytes_dropped"] == 0


def test_time_scale_and_placement(podsim, tmp_path):
    # time-scale 2: b at 2 us, c's delay 200 ns; placement puts ranks 0..3 on 3, 2, 1, 0
    path = write(tmp_path, extra="    time-scale: 2\n    placement: [3, 2, 1, 0]\n")
    _, h5 = run(podsim, path, tmp_path)
    m = messages(h5)
    order = np.argsort(m["post_ps"], kind="stable")
    assert [int(m["post_ps"][i]) for i in order] == [0, 2000000, 1661440 + 1000000 + 200000]
    assert [(m["src"][i], m["dst"][i]) for i in order] == [(3, 2), (1, 0), (2, 1)]
    assert [int(m["deliver_ps"][i] - m["post_ps"][i]) for i in order] == [939040] * 3


def write_hdf5(path, string_ids=True):
    with h5py.File(path, "w") as f:
        s = h5py.string_dtype()
        if string_ids:
            f.create_dataset("id", data=np.array(["a", "b", "c"], dtype=object), dtype=s)
            f.create_dataset("after", data=np.array(["", "", "a;b"], dtype=object), dtype=s)
        else:
            f.create_dataset("id", data=np.array([10, 11, 12], dtype=np.int64))
            f.create_dataset("after", data=np.array(["", "", "10;11"], dtype="S5"))
        f.create_dataset("time", data=np.array([0, 1000000, -1], dtype=np.int64))
        f.create_dataset("delay", data=np.array([-1, -1, 100000], dtype=np.int64))
        f.create_dataset("src", data=np.array([0, 2, 1], dtype=np.uint32))
        f.create_dataset("dst", data=np.array([1, 3, 2], dtype=np.uint32))
        f.create_dataset("bytes", data=np.array([K64] * 3, dtype=np.uint64))
        f.create_dataset("tag", data=np.array([7, 0, 9], dtype=np.uint32))


@pytest.mark.parametrize("string_ids", [True, False], ids=["string-ids", "integer-ids"])
def test_hdf5_equals_csv(podsim, tmp_path, string_ids):
    _, csv = run(podsim, write(tmp_path), tmp_path, "csv.h5")
    write_hdf5(tmp_path / "trace.h5", string_ids)
    path = tmp_path / "scenario-h5.yaml"
    path.write_text(SCENARIO.format(file="trace.h5", extra=""))
    _, h5 = run(podsim, path, tmp_path, "hdf5.h5")
    a, b = messages(csv), messages(h5)
    assert a.keys() == b.keys()
    for k in a:
        np.testing.assert_array_equal(a[k], b[k], err_msg=k)


def test_streams_a_long_trace(podsim, tmp_path):
    # 3000 one-byte messages, one every 10 ns around the ring of 4, then a chain of 1000 each
    # after the one before: all issued and completed, bytes conserved.
    rows = ["id,time,after,src,dst,bytes"]
    rows += [f",{10 * i}ns,,{i % 4},{(i + 1) % 4},1" for i in range(3000)]
    rows += [f"x{i},{'0' if i == 0 else ''},{'' if i == 0 else f'x{i - 1}'},{i % 4},{(i + 2) % 4},1"
             for i in range(1000)]
    r, h5 = run(podsim, write(tmp_path, "\n".join(rows) + "\n"), tmp_path)
    m = messages(h5)
    assert len(m["src"]) == 4000
    assert (m["complete_ps"] >= 0).all() and (m["deliver_ps"] >= 0).all()
    assert r["summary"]["bytes_received"] == 4000
    with h5py.File(h5, "r") as f:
        t = f["message_trace/tr"]
        issue, done = t["issue_ps"][()], t["complete_ps"][()]
    # each link of the chain is issued when the one before completes
    assert (issue[3001:] == done[3000:3999]).all()


def refusal(podsim, path):
    with pytest.raises(podsim.ScenarioError) as e:
        podsim.run(str(path), write_results=False)
    return e.value


@pytest.mark.parametrize("trace,line,field,text", [
    ("time,src,dst,bytes,colour\n0,0,1,1,red\n", 1, "colour", "unknown column"),
    ("time,src,bytes\n0,0,1\n", 1, "dst", "missing required column"),
    ("time,src,dst,bytes\n0,0,1,1\n0,0,x,1\n", 3, "dst", "not a rank"),
    ("time,src,dst,bytes\n0,0,9,1\n", 2, "dst", "rank 9 is outside the pod (ranks 0 to 3)"),
    ("time,src,dst,bytes\n0,1,1,1\n", 2, "dst", "equals src (1)"),
    ("id,time,after,src,dst,bytes\na,0,,0,1,1\nb,,q,1,2,1\n", 3, "after", "unknown id 'q'"),
    ("id,after,src,dst,bytes\na,b,0,1,1\nb,a,1,2,1\n", 2, "after", "a cycle of after"),
    ("id,time,after,src,dst,bytes\na,0,,0,1,1\nb,0,a,1,2,1\n", 3, "after",
     "give either time or after, not both"),
    ("time,src,dst,bytes,operation\n0,0,1,1,read\n", 2, "operation",
     "the ethernet fabric only writes"),
    ("time,src,dst,bytes\n1 fortnight,0,1,1\n", 2, "time", "not a time"),
])
def test_refused_rows_name_file_line_column(podsim, tmp_path, trace, line, field, text):
    e = refusal(podsim, write(tmp_path, trace))
    assert (e.file, e.line, e.field) == (str(tmp_path / "trace.csv"), line, field), str(e)
    assert text in e.message, str(e)


def test_refused_hdf5_names_the_row(podsim, tmp_path):
    write_hdf5(tmp_path / "trace.h5")
    with h5py.File(tmp_path / "trace.h5", "a") as f:
        del f["dst"]
        f.create_dataset("dst", data=np.array([1, 3, 1], dtype=np.uint32))  # row 2: 1 -> 1
    path = tmp_path / "scenario.yaml"
    path.write_text(SCENARIO.format(file="trace.h5", extra=""))
    e = refusal(podsim, path)
    assert (e.file, e.line, e.field) == (str(tmp_path / "trace.h5"), 0, "dst[2]"), str(e)
    assert "equals src (1)" in e.message


def test_refused_keys(podsim, tmp_path):
    e = refusal(podsim, write(tmp_path, extra="    placement: [0, 4]\n"))
    assert e.field == "workloads[0].placement[1]" and "outside the pod" in e.message, str(e)
    e = refusal(podsim, write(tmp_path, extra="    placement: [1, 1]\n"))
    assert e.field == "workloads[0].placement[1]" and "placed twice" in e.message, str(e)
    path = tmp_path / "missing.yaml"
    path.write_text(SCENARIO.format(file="no-such-trace.csv", extra=""))
    e = refusal(podsim, path)
    assert e.field == "workloads[0].file" and "no such file" in e.message, str(e)
    # a placement of two ranks: rank 2 is outside it
    e = refusal(podsim, write(tmp_path, extra="    placement: [3, 1]\n"))
    assert (e.line, e.field) == (3, "src") and "ranks 0 to 1" in e.message, str(e)


def test_example_runs(podsim, tmp_path):
    # examples/workloads/message-trace.yaml: its first three rows are the trace above
    from pathlib import Path
    example = Path(__file__).resolve().parents[2] / "examples" / "workloads" / "message-trace.yaml"
    _, h5 = run(podsim, example, tmp_path)
    with h5py.File(h5, "r") as f:
        t = f["message_trace/trace"]
        assert list(t["issue_ps"][()][:3]) == [e[0] for e in EXPECTED]
        assert list(t["complete_ps"][()][:3]) == [e[1] for e in EXPECTED]
        assert (t["complete_ps"][()] >= 0).all()
    m = messages(h5)
    assert len(m["src"]) == 7 and (m["deliver_ps"] >= 0).all()
    assert int(m["bytes"].sum()) == 3 * K64 + 4 * 16384


@pytest.mark.parametrize("fabric", ["sue", "ualink"])
def test_reads_and_atomics(podsim, tmp_path, fabric):
    # A read (rank 1 pulls 256 B from rank 0: at most 256 B on UALink, UALink 200 section 2.7),
    # a write, and on UALink an atomic of 8 operand bytes: each is a row of /messages with the
    # data's source and destination (a read's src is the rank read from), delivered and
    # completed, and the bytes add up (256 + 4096 [+ 8]).
    rows = ["time,src,dst,bytes,operation", "0,0,1,256,read", "0,2,3,4KiB,write"]
    if fabric == "ualink":
        rows.append("10ns,1,0,8,atomic")
    path = tmp_path / "scenario.yaml"
    (tmp_path / "trace.csv").write_text("\n".join(rows) + "\n")
    path.write_text(f"pod:\n  accelerators: 4\n  fabric: {fabric}\nworkloads:\n"
                    "  - {kind: message-trace, file: trace.csv}\n")
    for _ in range(2):  # twice in one process: the second replay's cookies differ
        h5 = tmp_path / "out.h5"
        podsim.run(str(path), results_file=str(h5), check=True)
        m = messages(h5)
        pairs = sorted(zip(m["src"].tolist(), m["dst"].tolist(), m["bytes"].tolist()))
        expected = [(0, 1, 256), (2, 3, 4096)] + ([(1, 0, 8)] if fabric == "ualink" else [])
        assert pairs == sorted(expected)
        assert (m["deliver_ps"] >= m["post_ps"]).all() and (m["complete_ps"] >= 0).all()


def test_two_traces_and_a_planned_workload(podsim, tmp_path):
    # The trace twice (the second from start 5 us, every post 5 us later: nothing of the first
    # is in flight after 2.70048 us) and a 1-byte permutation at 10 us: every message its own
    # row, each trace's rows under its workload index, the trace times as derived above.
    extra = ("  - {kind: message-trace, name: later, file: trace.csv, start: 5us}\n"
             "  - {kind: permutation, size: 1, start: 10us}\n")
    _, h5 = run(podsim, write(tmp_path, extra=extra), tmp_path)
    m = messages(h5)
    assert len(m["src"]) == 3 + 3 + 4
    assert (m["deliver_ps"] >= 0).all() and (m["complete_ps"] >= 0).all()
    for wi, shift in ((0, 0), (1, 5000000)):
        rows = np.flatnonzero(m["workload"] == wi)
        got = sorted(zip(m["post_ps"][rows].tolist(), m["complete_ps"][rows].tolist(),
                         m["deliver_ps"][rows].tolist()))
        assert got == [(p + shift, c + shift, d + shift) for p, c, d in EXPECTED]
    assert (m["post_ps"][m["workload"] == 2] == 10000000).all()
