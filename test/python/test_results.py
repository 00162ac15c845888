# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""podsim.run() and podsim.read() on data/small.yaml: table shapes, conservation, the HDF5
results file, and scenario errors."""

import h5py
import numpy as np
import pytest
from conftest import SMALL

ACCELERATORS = 16
INCAST_SENDERS = 4
INCAST_BYTES = 64 * 1024
A2A_BYTES = 4 * 1024
MESSAGES = INCAST_SENDERS + ACCELERATORS * (ACCELERATORS - 1)
# Link kinds as documented in run-results.h (RunResults::Links::kind), and the kind of the
# accelerator-to-switch direction.
LINK_KINDS = {"acc-up", "down", "leaf-up", "spine-down", "spine-up", "core-down", "mesh"}
UPLINK_KIND = "acc-up"

MESSAGE_COLUMNS = {
    "src": np.uint32,
    "dst": np.uint32,
    "bytes": np.uint64,
    "class": np.uint8,
    "workload": np.uint32,
    "post_ps": np.int64,
    "deliver_ps": np.int64,
    "complete_ps": np.int64,
}
LINK_COLUMNS = {
    "plane": np.uint32,
    "tx_bytes": np.uint64,
    "tx_wire_bytes": np.uint64,
    "tx_packets": np.uint64,
    "busy_ps": np.int64,
    "rate_bps": np.float64,
    "pause_ps": np.int64,
    "stall_ps": np.int64,
    "control_packets": np.uint64,
    "replays": np.uint64,
    "replayed_packets": np.uint64,
    "rx_discarded": np.uint64,
}
SUMMARY_KEYS = {
    "scenario_name",
    "engine",
    "flows",
    "flow_resolves",
    "peak_flows",
    "accelerators",
    "planes",
    "switches",
    "bytes_sent",
    "bytes_delivered",
    "bytes_received",
    "bytes_dropped",
    "drops_by_reason",
    "peak_switch_buffer_bytes",
    "pause_ps",
    "stall_ps",
    "replays",
    "replayed_packets",
    "retransmitted_packets",
    "bytes_retransmitted",
    "bytes_discarded",
    "go_backs",
    "transport_timeouts",
    "failed_connections",
    "sim_time_ps",
    "deadlock",
    "watchdog",
    "checked",
    "checks",
    "checked_flows",
    "check_lost_bytes",
    "check_in_flight_bytes",
    "wall_seconds",
    "build_seconds",
    "events",
    "packet_hops",
    "peak_rss_bytes",
    "output_budget_bytes",
    "output_estimated_bytes",
    "messages_total",
    "messages_sampled_every",
    "series_coarsened_by",
    "faults_injected",
    "link_down_events",
    "link_up_events",
    "routes_denied",
    "bytes_failed_over",
    "isolations",
    "cmpto",
    "messages_failed",
    "bytes_failed",
    "messages_unposted",
    "failure",
    "incomplete",
}


def no_drops(r):
    s = r["summary"]
    return s["bytes_dropped"] == 0 and sum(s["drops_by_reason"].values()) == 0


def test_result_dict_layout(small_run):
    r, _ = small_run
    assert set(r) >= {"messages", "links", "summary", "workload_names", "scenario"}
    assert set(r["messages"]) == set(MESSAGE_COLUMNS)
    assert set(r["links"]) == set(LINK_COLUMNS) | {"name", "kind", "drop_packets", "drop_bytes"}
    assert set(r["summary"]) == SUMMARY_KEYS
    for col, dtype in MESSAGE_COLUMNS.items():
        assert isinstance(r["messages"][col], np.ndarray), col
        assert r["messages"][col].dtype == dtype, col
    for col, dtype in LINK_COLUMNS.items():
        assert r["links"][col].dtype == dtype, col
    assert "name: small" in r["scenario"]
    assert r["summary"]["scenario_name"] == "small"
    assert r["summary"]["engine"] == "packet" and r["summary"]["flows"] == 0


def test_switch_buffer_series(small_run, podsim):
    """The sampled switch buffer series (format version 3): equal-length columns on interval
    boundaries, a name per switch, its largest sample the summary's peak; the same from the
    file as from the run."""
    r, path = small_run
    ts = r["switch_buffer_series"]
    assert set(ts) == {"interval_ps", "switch_names", "switch", "time_ps", "max_bytes", "end_bytes"}
    assert ts["interval_ps"] == 10**6  # output.sample-interval's default, 1 us
    assert len(ts["switch_names"]) == r["summary"]["switches"]
    n = len(ts["switch"])
    assert n > 0
    assert all(len(ts[c]) == n for c in ("time_ps", "max_bytes", "end_bytes"))
    assert (ts["time_ps"] % ts["interval_ps"] == 0).all()
    assert int(ts["max_bytes"].max()) == r["summary"]["peak_switch_buffer_bytes"]
    assert r["summary"]["messages_sampled_every"] == 1
    assert r["summary"]["messages_total"] == MESSAGES
    back = podsim.read(path)["switch_buffer_series"]
    assert back["switch_names"] == ts["switch_names"]
    for c in ("switch", "time_ps", "max_bytes", "end_bytes"):
        assert (back[c] == ts[c]).all(), c


def test_columns_have_equal_length(small_run):
    r, _ = small_run
    lengths = {col: len(v) for col, v in r["messages"].items()}
    assert len(set(lengths.values())) == 1, lengths
    links = r["links"]
    n = len(links["name"])
    assert n > 0
    for col in list(LINK_COLUMNS) + ["kind"]:
        assert len(links[col]) == n, col
    for table in ("drop_packets", "drop_bytes"):
        for reason, v in links[table].items():
            assert len(v) == n, f"{table}/{reason}"


def test_message_count(small_run):
    r, _ = small_run
    assert len(r["messages"]["src"]) == MESSAGES
    assert r["summary"]["accelerators"] == ACCELERATORS
    assert r["summary"]["planes"] == 2


def test_message_table_matches_workloads(small_run):
    r, _ = small_run
    m = r["messages"]
    assert len(r["workload_names"]) == 2
    assert m["workload"].max() < len(r["workload_names"])
    incast = m["workload"] == 0
    assert incast.sum() == INCAST_SENDERS
    assert (m["dst"][incast] == 0).all()
    assert (m["src"][incast] != 0).all()
    assert len(set(m["src"][incast].tolist())) == INCAST_SENDERS
    assert (m["bytes"][incast] == INCAST_BYTES).all()
    a2a = m["workload"] == 1
    pairs = set(zip(m["src"][a2a].tolist(), m["dst"][a2a].tolist()))
    expected = {(s, d) for s in range(ACCELERATORS) for d in range(ACCELERATORS) if s != d}
    assert pairs == expected
    assert (m["bytes"][a2a] == A2A_BYTES).all()


def test_bytes_conservation(small_run):
    r, _ = small_run
    m, s = r["messages"], r["summary"]
    total = INCAST_SENDERS * INCAST_BYTES + ACCELERATORS * (ACCELERATORS - 1) * A2A_BYTES
    assert int(m["bytes"].sum()) == total
    assert s["bytes_sent"] == total
    delivered = m["deliver_ps"] >= 0
    assert int(m["bytes"][delivered].sum()) == s["bytes_delivered"]
    assert s["bytes_received"] >= s["bytes_delivered"]
    if no_drops(r):
        assert delivered.all()
        assert s["bytes_delivered"] == s["bytes_sent"]
        assert s["bytes_received"] == s["bytes_sent"]
    else:
        assert s["bytes_delivered"] + s["bytes_dropped"] >= s["bytes_sent"]


def test_times_are_consistent(small_run):
    r, _ = small_run
    m, s = r["messages"], r["summary"]
    assert (m["post_ps"] >= 0).all()
    delivered = m["deliver_ps"] >= 0
    assert (m["deliver_ps"][delivered] > m["post_ps"][delivered]).all()
    completed = m["complete_ps"] >= 0
    assert (m["complete_ps"][completed] >= m["post_ps"][completed]).all()
    assert s["sim_time_ps"] >= m["deliver_ps"].max()
    assert ((m["deliver_ps"] == -1) | delivered).all()


def test_link_table(small_run):
    r, _ = small_run
    links, s = r["links"], r["summary"]
    kinds = set(links["kind"].tolist())
    assert kinds <= LINK_KINDS
    assert UPLINK_KIND in kinds
    assert (links["tx_wire_bytes"] >= links["tx_bytes"]).all()
    assert (links["busy_ps"] >= 0).all() and (links["busy_ps"] <= s["sim_time_ps"]).all()
    assert (links["rate_bps"] == 100e9).all()
    assert (links["plane"] < 2).all()
    # Every message leaves its accelerator on exactly one uplink, headers included.
    up = links["kind"] == UPLINK_KIND
    assert int(links["tx_bytes"][up].sum()) >= s["bytes_sent"]
    assert len(set(links["name"].tolist())) == len(links["name"])


def test_results_file_round_trip(podsim, small_run):
    r, path = small_run
    assert path.is_file()
    assert not path.with_name(path.name + ".tmp").exists()
    back = podsim.read(path)
    for col in MESSAGE_COLUMNS:
        assert back["messages"][col].dtype == r["messages"][col].dtype, col
        np.testing.assert_array_equal(back["messages"][col], r["messages"][col], err_msg=col)
    for col in list(LINK_COLUMNS) + ["name", "kind"]:
        np.testing.assert_array_equal(back["links"][col], r["links"][col], err_msg=col)
    for table in ("drop_packets", "drop_bytes"):
        assert back["links"][table].keys() == r["links"][table].keys()
        for reason in r["links"][table]:
            np.testing.assert_array_equal(back["links"][table][reason], r["links"][table][reason])
    assert back["summary"] == r["summary"]
    assert back["workload_names"] == r["workload_names"]
    assert back["scenario"] == r["scenario"]


def test_results_file_layout(podsim, small_run):
    r, path = small_run
    assert r["results_file"] == str(path)
    with h5py.File(path, "r") as f:
        assert f.attrs["podsim_version"] == podsim.__version__
        assert f.attrs["scenario_name"] == "small"
        assert f["scenario"].asstr()[()] == r["scenario"]
        assert list(f["messages"].attrs["workload_names"]) == r["workload_names"]
        for col in MESSAGE_COLUMNS:
            ds = f["messages"][col]
            assert ds.shape == (MESSAGES,)
            assert ds.chunks is not None and ds.compression == "gzip" and ds.shuffle, col
        assert list(f["links/kind"].asstr()[()]) == r["links"]["kind"].tolist()
        assert set(f["links/drop_packets"]) == set(r["links"]["drop_packets"])
        assert f["summary"].attrs["bytes_sent"] == r["summary"]["bytes_sent"]
        assert dict(f["summary/drops_by_reason"].attrs) == r["summary"]["drops_by_reason"]


def test_message_latency_ns(podsim, small_run):
    r, _ = small_run
    m = r["messages"]
    lat = podsim.message_latency_ns(r)
    delivered = m["deliver_ps"] >= 0
    assert lat.shape == (int(delivered.sum()),)
    np.testing.assert_allclose(lat, (m["deliver_ps"] - m["post_ps"])[delivered] / 1000.0)
    assert (lat > 0).all()


def test_latency_histograms(small_run):
    """/histograms/message_latency (src/pod/doc/pod.rst, "Results file"): per workload, the
    counts sum to its delivered messages (conservation: every delivered row is counted once), the
    bins are consecutive log-spaced intervals [10^(k/B), 10^((k+1)/B)) ps, the first and last hold
    the smallest and largest latency, and each latency lies in the bin that counts it."""
    _, path = small_run
    with h5py.File(path, "r") as f:
        m = {c: f["messages"][c][()] for c in ("workload", "post_ps", "deliver_ps")}
        names = list(f["messages"].attrs["workload_names"])
        h = f["histograms/message_latency"]
        per_decade = int(h.attrs["bins_per_decade"])
        hist = {c: h[c][()] for c in ("workload", "bin", "lower_ps", "upper_ps", "count")}
    assert per_decade == 10
    types = {"workload": np.uint32, "bin": np.int64, "lower_ps": np.float64,
             "upper_ps": np.float64, "count": np.uint64}
    for col, dtype in types.items():
        assert hist[col].dtype == dtype, col
    delivered = m["deliver_ps"] >= 0
    assert set(hist["workload"].tolist()) == set(m["workload"][delivered].tolist())
    assert len(names) == 2
    for w in range(len(names)):
        lat = (m["deliver_ps"] - m["post_ps"])[delivered & (m["workload"] == w)]
        mine = hist["workload"] == w
        k, lo, hi, n = (hist[c][mine] for c in ("bin", "lower_ps", "upper_ps", "count"))
        assert lat.size > 0 and (lat >= 1).all()
        assert int(n.sum()) == lat.size
        assert np.array_equal(k, np.arange(k[0], k[0] + k.size))
        np.testing.assert_allclose(lo, 10.0 ** (k / per_decade), rtol=1e-15)
        np.testing.assert_allclose(hi / lo, 10.0 ** (1.0 / per_decade), rtol=1e-12)
        assert np.array_equal(hi[:-1], lo[1:])
        assert lo[0] <= lat.min() < hi[0] and lo[-1] <= lat.max() < hi[-1]
        assert n[0] > 0 and n[-1] > 0
        counts, _ = np.histogram(lat, bins=np.append(lo, hi[-1]))
        assert np.array_equal(counts, n)


def test_runs_are_repeatable(podsim, small_run):
    r, _ = small_run
    again = podsim.run(SMALL, write_results=False)
    for col in MESSAGE_COLUMNS:
        np.testing.assert_array_equal(again["messages"][col], r["messages"][col], err_msg=col)
    assert again["summary"]["sim_time_ps"] == r["summary"]["sim_time_ps"]


def test_overrides_change_the_scenario(podsim):
    r = podsim.run(SMALL, {"pod.accelerators": 8}, write_results=False)
    assert len(r["messages"]["src"]) == INCAST_SENDERS + 8 * 7
    r = podsim.run(SMALL, ["pod.accelerators=8"], write_results=False)
    assert r["summary"]["accelerators"] == 8


def test_write_results_false_writes_nothing(podsim, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = podsim.run(SMALL, write_results=False)
    assert r["results_file"] is None
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("overrides", [{"pod.accelerators": 0}, ["pod.accelerators=0"]])
def test_bad_override_raises_scenario_error(podsim, overrides):
    with pytest.raises(podsim.ScenarioError) as info:
        podsim.run(SMALL, overrides, write_results=False)
    assert "pod.accelerators" in str(info.value)
    assert info.value.field == "pod.accelerators"
    assert isinstance(info.value, ValueError)


def test_scenario_error_is_a_value_error(podsim):
    assert issubclass(podsim.ScenarioError, ValueError)
    assert podsim.ScenarioError.__module__ == "podsim"


def test_missing_scenario_file(podsim, tmp_path):
    missing = tmp_path / "missing.yaml"
    with pytest.raises(podsim.ScenarioError) as info:
        podsim.run(missing, write_results=False)
    assert str(missing) in str(info.value)


def test_overrides_must_be_dict_or_list(podsim):
    with pytest.raises(TypeError):
        podsim.run(SMALL, "pod.accelerators=8", write_results=False)


def test_read_missing_file(podsim, tmp_path):
    missing = tmp_path / "missing.h5"
    with pytest.raises(RuntimeError, match="missing.h5"):
        podsim.read(missing)


def test_unwritable_results_file_fails_before_running(podsim):
    # An output that cannot be written is bad input: the run stops before simulating, naming
    # the path, and leaves no file behind.
    with pytest.raises(RuntimeError) as e:
        podsim.run(str(SMALL), results_file="/proc/podsim-no-such-dir/x.h5", quiet=True)
    assert "/proc/podsim-no-such-dir/x.h5" in str(e.value)


def test_flow_engine_run(podsim, tmp_path):
    """engine: flow through the Python API: the same layout, the engine recorded, every byte
    delivered, the flows counted (src/flow/doc/flow.rst)."""
    path = tmp_path / "flow.h5"
    r = podsim.run(SMALL, {"engine": "flow"}, results_file=path)
    p = podsim.run(SMALL, write_results=False)
    assert set(r["summary"]) == SUMMARY_KEYS
    assert r["summary"]["engine"] == "flow"
    assert r["summary"]["flows"] >= len(r["messages"]["bytes"]) > 0
    assert (r["messages"]["deliver_ps"] >= 0).all()
    assert r["summary"]["bytes_delivered"] == r["summary"]["bytes_sent"]
    assert len(r["links"]["name"]) == len(p["links"]["name"])
    with h5py.File(path) as f:
        assert f.attrs["engine"] == "flow"
