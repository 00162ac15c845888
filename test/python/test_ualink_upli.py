# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""UALink 200 UPLI and TL credit keys through scenarios (pod.ualink).

The 16:1 incast plus all-to-all of test_ualink.py on 32 accelerators with 4 ports, with the UPLI
timed on its TDM cycles (section 2.5), per-VC TL credits beside a small pool, Shared Data Buffer
mode and the initial credit release (section 5.8): lossless and every message completed in each.
With the UPLI at the 156.25 MHz reference clock a station's channels carry 512 bit x 156.25 MHz
= 80 Gb/s, a tenth of the 800 Gb/s at 1562.5 MHz, while an x4 link carries 747 Gb/s of writes:
an all-to-all then takes at least its closed-form UPLI time and several times longer.
"""

import pytest

# The pod, the scenario and the lossless check of test_ualink.py (the same 32-accelerator pod).
from test_ualink import BASE, lossless, scenario  # noqa: F401 (scenario is a fixture)


@pytest.mark.parametrize("extra", [
    {"pod.ualink.upli": "tdm"},
    {"pod.ualink.upli": "tdm", "pod.ualink.bifurcation": "4x1"},
    {"pod.ualink.vc-cmd-credits": 4, "pod.ualink.vc-data-credits": 16,
     "pod.ualink.req-cmd-credits": 2, "pod.ualink.req-data-credits": 8},
    {"pod.ualink.shared-data-buffer": True, "pod.ualink.req-data-credits": 4},
    {"pod.ualink.initial-credit-release": True},
])
def test_upli_and_credit_modes_are_lossless(podsim, scenario, extra):
    r = podsim.run(scenario, overrides={**BASE, **extra}, write_results=False)
    lossless(r)


def test_slow_upli_clock_limits_the_station(podsim, tmp_path):
    # All-to-all of 4 KiB on 32 accelerators with 4 x4 ports (each port its own station): each
    # accelerator sends 31 x 4 KiB = 124 KiB. At 156.25 MHz a station's OrigData channel carries
    # 512 bit x 156.25 MHz = 80 Gb/s, 320 Gb/s per accelerator: at least 124 KiB x 8 / 320 Gb/s
    # = 3.17 us; at 1562.5 MHz the links bound it (4 x 747 Gb/s: 0.34 us plus latency).
    path = tmp_path / "a2a.yaml"
    path.write_text(
        "name: ualink-upli-a2a\n"
        "pod: {accelerators: 32}\n"
        "workloads:\n"
        "  - {kind: all-to-all, size: 4KiB}\n"
        "output: {plots: false, progress: false}\n"
    )
    fast = podsim.run(path, overrides={**BASE, "pod.ualink.upli": "tdm"}, write_results=False)
    slow = podsim.run(path, overrides={**BASE, "pod.ualink.upli": "tdm",
                                       "pod.ualink.upli-clock-mhz": 156.25},
                      write_results=False)
    lossless(fast)
    lossless(slow)
    bound_ps = 124 * 1024 * 8 / 320e9 * 1e12
    assert slow["messages"]["deliver_ps"].max() >= bound_ps
    assert slow["messages"]["deliver_ps"].max() > 4 * fast["messages"]["deliver_ps"].max()


@pytest.mark.parametrize("over, field", [
    ({"pod.ualink.upli": "fast"}, "pod.ualink.upli"),
    ({"pod.ualink.upli-clock-mhz": 100}, "pod.ualink.upli-clock-mhz"),
])
def test_bad_upli_settings_are_refused(podsim, scenario, over, field):
    with pytest.raises(podsim.ScenarioError) as e:
        podsim.run(scenario, overrides={**BASE, **over}, write_results=False)
    assert e.value.field == field
