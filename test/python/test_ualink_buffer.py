"""UALink switches in the switch-buffer series and peak_switch_buffer_bytes (UalinkSwitch's
Occupancy: the TL bytes of the operations a switch holds, src/ualink/doc/ualink.rst)."""

import numpy as np
from conftest import ROOT

SCENARIO = ROOT / "examples" / "questions" / "ualink-bifurcation.yaml"
SENDERS = 8
# Section 5.8 and UalinkTxQueue's defaults: 2048 request data credits of 64 B and 512 request
# field credits per link, so an ingress port holds at most 512 writes of 256 B, each 16 B of
# field and 8 data half-flits of 32 B (UalinkSwitch::GetBufferBytes): 512 x 272 B.
PER_INGRESS = 512 * (16 + 8 * 32)


def test_ualink_switches_are_sampled(podsim):
    r = podsim.run(SCENARIO, overrides={"workloads[0].senders": SENDERS,
                                        "workloads[0].size": "64KiB"}, write_results=False)
    s = r["summary"]
    # Lossless: every byte delivered, nothing dropped.
    assert s["bytes_delivered"] == SENDERS * 64 * 1024
    assert s["bytes_dropped"] == 0
    ts = r["switch_buffer_series"]
    # One switch per rail (pod.planes = 4), named as the fault targets name them.
    assert ts["switch_names"] == [f"p{k}.sw0" for k in range(4)]
    assert s["switches"] == 4
    peak = s["peak_switch_buffer_bytes"]
    assert peak > 0
    assert int(ts["max_bytes"].max()) == peak
    # Within the credits of the senders' ingress ports (one per sender on each rail).
    assert peak <= SENDERS * PER_INGRESS
    # Conservation: each switch ends empty (its last row's end level).
    for k in range(4):
        rows = np.nonzero(ts["switch"] == k)[0]
        assert len(rows) > 0, k
        assert ts["end_bytes"][rows[-1]] == 0, k
