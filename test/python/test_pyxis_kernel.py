# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""podsim.pyxis: the Pyxis UIE kernel model from Python (src/pyxis/doc/pyxis.rst).

The same numbers as the C++ suite pyxis-kernel, derived from the Pyxis spec's sections in
pyxis.rst (Validation, "Expected values from the spec") and in each comment; bound_cycles is
the tile loop or roofline maximum, total_cycles adds T_fill = 40 and T_drain = 128 b_out + 100.
"""

import numpy as np
import pytest

CLOCK = 1.33e9
FILL_DRAIN8 = 40 + 128 + 100  # FP8 output
FILL_DRAIN16 = 40 + 256 + 100  # FP16 output


@pytest.fixture(scope="module")
def px(podsim):
    return podsim.pyxis


def test_import_as_submodule(podsim):
    import podsim.pyxis as sub

    assert sub is podsim.pyxis
    p = sub.params()
    assert p["clock_hz"] == CLOCK
    assert p["clusters"] * p["uies_per_cluster"] == 48
    assert p["hbm_bytes_per_second"] == 1228.8e9  # 1024 pins x 9.6 Gb/s / 8 (spec 8)


def test_gemm_tile(px):
    # One GEMM tile: max(s K, 128 b_out): FP8 4096 (3.08 us), FP16 and mixed 8192, K 64 -> 128.
    b = px.gemm(128, 128, 4096)
    assert b["bound_cycles"] == 4096 and b["bound"] == "compute"
    assert b["total_cycles"] == 4096 + FILL_DRAIN8
    assert b["bound_seconds"] == pytest.approx(3.08e-6, abs=0.005e-6)
    assert px.gemm(128, 128, 4096, dtype="fp16")["bound_cycles"] == 8192
    assert px.gemm(128, 128, 4096, dtype="fp16")["total_cycles"] == 8192 + FILL_DRAIN16
    mixed = px.gemm(128, 128, 4096, a_dtype="fp8", b_dtype="fp16", out_dtype="fp8")
    assert mixed["bound_cycles"] == 8192
    k64 = px.gemm(128, 128, 64, a_transposed=True)
    assert k64["bound_cycles"] == 128 and k64["bound"] == "writeback"


def test_gemm_chip(px):
    # A 4096^3 FP8 GEMM on 48 UIEs: 1024 tiles, ceil(1024 / 48) = 22 x 4096 = 90,112 cycles,
    # 67.8 us.
    b = px.gemm(4096, 4096, 4096, uies=48)
    assert b["tiles"] == 1024 and b["tiles_per_uie"] == 22
    assert b["bound_cycles"] == 90112 and not b["split_k"]
    assert b["bound_seconds"] == pytest.approx(67.8e-6, abs=0.05e-6)
    assert b["total_cycles"] == 90112 + FILL_DRAIN8
    # A and B from HBM: 32 MiB / 4.9152 TB/s = 6.83 us = 9080 cycles: still compute-bound.
    h = px.gemm(4096, 4096, 4096, uies=48, a_in_hbm=True, b_in_hbm=True)
    assert h["hbm_cycles"] == 9080 and h["bound"] == "compute"
    # Split-K always: ceil(1024 x 4096 / 48) = 87,382 (the ideal 65.7 us).
    assert px.gemm(4096, 4096, 4096, uies=48, split_k="always")["bound_cycles"] == 87382


def test_conv3x3(px):
    # A 56 x 56 x 64 -> 64 3x3 convolution: F = 2 (W 56), 2 passes x 7 row groups x 10 x 64 =
    # 8960 cycles = 6.74 us.
    b = px.conv3x3(56, 56, 64, 64)
    assert b["bound_cycles"] == 8960
    assert b["bound_seconds"] == pytest.approx(6.74e-6, abs=0.005e-6)
    assert b["flops"] / b["bound_seconds"] == pytest.approx(34.3e12, abs=0.05e12)
    # F per grid row: H 8, Cin = Cout = 128: passes 8, 4, 2, 1 for W 128, 64, 32, 16.
    for w, passes in ((128, 8), (64, 4), (32, 2), (16, 1)):
        assert px.conv3x3(8, w, 128, 128)["bound_cycles"] == passes * 1280
    # W 200: 2 column tiles (1 + ceil(72 / 112)) x 4 passes x 7 groups x 640.
    assert px.conv3x3(56, 200, 64, 64)["bound_cycles"] == 35840
    with pytest.raises(ValueError, match="stride"):
        px.conv3x3(56, 56, 64, 64, stride=3)


def test_decode(px):
    # An 8192 x 8192 FP8 linear layer for one token (decode): split-K ceil(64 x 8192 / 48) =
    # 10,923 cycles = 8.2 us (weights in AMEM); 64 MiB / (4 x 1228.8 GB/s) = 13.65 us = 18,159
    # cycles from HBM.
    a = px.linear(8192, 8192, 1, uies=48)
    assert a["bound_cycles"] == 10923 and a["split_k"]
    assert a["bound_seconds"] == pytest.approx(8.2e-6, abs=0.05e-6)
    h = px.linear(8192, 8192, 1, uies=48, weights_in_hbm=True)
    assert h["bound_cycles"] == 18159 and h["bound"] == "hbm"
    assert h["bound_seconds"] == pytest.approx(13.7e-6, abs=0.05e-6)
    assert h["total_cycles"] == 18159 + FILL_DRAIN8
    # Block-32 compressed weights: 4.25 bits -> 7.25 us of HBM, under the grid's 8.2 us.
    c = px.linear(8192, 8192, 1, uies=48, weights_in_hbm=True, compression_block=32)
    assert c["hbm_cycles"] == 9647 and c["bound_cycles"] == 10923


def test_vpu_and_transpose(px):
    # ceil(8192 rows / 48) = 171 rows per UIE x max(n, b_in, b_out).
    assert px.vpu(1 << 20, uies=48)["bound_cycles"] == 171
    assert px.vpu(1 << 20, in_dtype="fp16", out_dtype="fp8", uies=48)["bound"] == "amem"
    assert px.vpu(1 << 20, instructions=4, in_dtype="fp16", uies=48)["bound_cycles"] == 684
    assert px.transpose(128, 128)["bound_cycles"] == 128
    assert px.transpose(128, 128, dtype="fp16")["bound_cycles"] == 256


def test_batch_equals_scalar(px):
    grid = np.meshgrid([1, 128, 129, 4096, 8192], [1, 128, 300], [64, 100, 4096])
    m, n, k = (a.ravel() for a in grid)
    options = (
        {},
        {"dtype": "fp16"},
        {"a_transposed": True, "a_in_hbm": True},
        {"split_k": "never"},
    )
    for kw in options:
        for uies in (1, 12, 48):
            r = px.gemm_batch(m, n, k, uies=uies, **kw)
            for i in range(len(m)):
                s = px.gemm(int(m[i]), int(n[i]), int(k[i]), uies=uies, **kw)
                for key in ("tiles", "loop_cycles", "hbm_cycles", "bound_cycles", "total_cycles"):
                    assert r[key][i] == s[key], (key, m[i], n[i], k[i], uies, kw)
                assert r["bound"][i] == s["bound"] and bool(r["split_k"][i]) == s["split_k"]
    h, w = np.meshgrid([8, 56], [16, 33, 64, 128, 200])
    cin = np.full(h.size, 64)
    cout = np.full(h.size, 96)
    r = px.conv3x3_batch(h.ravel(), w.ravel(), cin, cout, uies=12)
    for i, (hh, ww) in enumerate(zip(h.ravel(), w.ravel())):
        scalar = px.conv3x3(int(hh), int(ww), 64, 96, uies=12)
        assert r["total_cycles"][i] == scalar["total_cycles"]


def test_bad_input(px):
    with pytest.raises(ValueError, match="uies"):
        px.gemm(128, 128, 128, uies=49)
    with pytest.raises(ValueError, match="dtype"):
        px.gemm(128, 128, 128, dtype="fp32")
    with pytest.raises(ValueError, match="unknown key"):
        px.gemm(128, 128, 128, params={"clock": 1e9})
    with pytest.raises(ValueError, match=r"m\[1\]"):
        px.gemm_batch([128, 0], [128, 128], [128, 128])
    # A parameter override: at 1 GHz the FP8 tile takes 4.096 us.
    assert px.gemm(128, 128, 4096, params={"clock_hz": 1e9})["bound_seconds"] == pytest.approx(
        4.096e-6
    )
