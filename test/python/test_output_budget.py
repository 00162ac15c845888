# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""output.budget is the size of the results file as stored (src/pod/model/output-budget.h).

The estimate measures the compressed columns (a sample of their rows written with the file's
chunks and filters); a results file is within 10% of it. It once counted the uncompressed tables,
about ten times a message table's stored size: a run of 4.2 million messages (the example
collective-allreduce.yaml, a 2 MB file) dropped half its message rows under the default 100 MB
budget to save 0.2 MB. Here a 512-accelerator all-to-all of 64 B (261,632 messages, about 0.84
MB stored, 11.8 MB uncompressed) keeps every row under a 2 MB budget, and under a 400 kB budget
keeps one row in k with the file within the budget and not far below it.
"""

import os

import h5py
import pytest

SCENARIO = (
    "name: many\n"
    "pod: {accelerators: 512, planes: 1, switch: {radix: 64}, link: {rate: 800Gbps}}\n"
    "workloads:\n"
    "  - {kind: all-to-all, size: 64B}\n"
    "output: {plots: false, progress: false}\n"
)
MESSAGES = 512 * 511


@pytest.fixture
def scenario(tmp_path):
    p = tmp_path / "many.yaml"
    p.write_text(SCENARIO)
    return p


def test_budget_above_the_stored_size_keeps_every_row(podsim, scenario, tmp_path):
    out = tmp_path / "all.h5"
    r = podsim.run(scenario, {"output.budget": "2MB"}, results_file=out)
    s = r["summary"]
    assert s["messages_sampled_every"] == 1
    assert len(r["messages"]["src"]) == MESSAGES == s["messages_total"]
    size = os.path.getsize(out)
    assert size <= 2_000_000
    # The estimate is of the file: within 10% of its size.
    assert s["output_estimated_bytes"] == pytest.approx(size, rel=0.10)


def test_budget_below_the_stored_size_thins_to_fit(podsim, scenario, tmp_path):
    out = tmp_path / "thin.h5"
    budget = 400_000
    r = podsim.run(scenario, {"output.budget": budget}, results_file=out)
    s = r["summary"]
    k = s["messages_sampled_every"]
    assert k >= 2 and s["messages_total"] == MESSAGES
    assert len(r["messages"]["src"]) < MESSAGES
    size = os.path.getsize(out)
    # Within the budget (the estimate's 10%), and not thinned far below it.
    assert budget / 2 <= size <= budget * 1.10
    with h5py.File(out) as f:
        assert len(f["messages"]["src"]) == len(r["messages"]["src"])
