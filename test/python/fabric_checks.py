# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""Checks shared by the fabric tests (imported by the test files next to this one)."""


def lossless(r, completions=True):
    """Byte conservation without loss (DESIGN.md: lossless is checked) in one run's results.

    Nothing dropped; every byte sent was received and delivered; every message has a delivery
    time and, when ``completions``, a completion time at its sender.
    """
    s = r["summary"]
    assert s["bytes_dropped"] == 0
    assert sum(s["drops_by_reason"].values()) == 0
    assert s["bytes_received"] == s["bytes_sent"] == s["bytes_delivered"]
    m = r["messages"]
    assert (m["deliver_ps"] >= 0).all()
    if completions:
        assert (m["complete_ps"] >= 0).all()
