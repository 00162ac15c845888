# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""The heap on transparent huge pages changes nothing that a run simulates.

podsim-run gives tcmalloc an allocator that maps 64 MiB chunks on 2 MiB boundaries with
madvise(MADV_HUGEPAGE) (src/pod/examples/huge-page-heap.h; doc/performance.rst). Where an object
lies cannot change a discrete-event run whose order depends on times, ids and counters only, so
the expected values are the run without it (``--huge-pages=false``): every dataset and attribute
of the results file equal, timings and peak RSS aside, and the same event count. The benchmark
figures say what was mapped: nothing when off; when on, whole chunks (at least one 64 MiB
chunk, each a multiple of the 2 MiB huge page: the allocator's contract).
"""

import json
import os
import re
import subprocess

import numpy as np
import pytest

from conftest import ROOT, results_contents

h5py = pytest.importorskip("h5py")

RUN = ROOT / os.environ.get("PODSIM_BUILD_DIR", "build") / "bin" / "podsim-run"
BENCH = ROOT / "examples" / "bench" / "sue-all-to-all.yaml"
SMALL = ["--set=pod.accelerators=64", "--set=pod.switch.radix=64"]
CHUNK = 64 << 20
HUGE_PAGE = 2 << 20


def _run(*args):
    r = subprocess.run(
        [str(RUN), str(BENCH), *SMALL, "--quiet", *args],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    assert r.returncode == 0, r.stderr
    return r.stdout


def _bench(on):
    text = _run("--bench", f"--huge-pages={'true' if on else 'false'}")
    status = re.search(r"heap on huge pages\s+(.*)", text).group(1)
    figures = json.loads(re.search(r"^BENCH-JSON (.*)$", text, re.M).group(1))
    return status, figures


@pytest.fixture(scope="module")
def built():
    if not RUN.is_file():
        pytest.skip("podsim-run not built")


def test_results_do_not_depend_on_huge_pages(built, tmp_path):
    _run(f"--out={tmp_path / 'on.h5'}")
    _run(f"--out={tmp_path / 'off.h5'}", "--huge-pages=false")
    a = results_contents(tmp_path / "off.h5")
    b = results_contents(tmp_path / "on.h5")
    assert sorted(a) == sorted(b)
    differ = [k for k in a if not np.array_equal(np.asarray(a[k]), np.asarray(b[k]))]
    assert differ == []
    assert a["A:summary@events"] > 10000
    # 64 x 63 messages of 16 KiB (the benchmark's all-to-all), every byte delivered, none lost.
    assert a["A:summary@bytes_sent"] == 64 * 63 * 16384
    assert a["A:summary@bytes_delivered"] == a["A:summary@bytes_sent"]
    assert a["A:summary@bytes_dropped"] == 0


def test_bench_reports_the_mapped_chunks(built):
    off_status, off = _bench(False)
    assert off_status == "off (--huge-pages=false)"
    assert off["huge_page_heap_bytes"] == 0
    on_status, on = _bench(True)
    assert on["events"] == off["events"]
    if not on_status.startswith("on ("):
        # Built without gperftools' header, or THP set to never: says why, maps nothing.
        assert re.fullmatch(r"off \(.+\)", on_status), on_status
        assert on["huge_page_heap_bytes"] == 0
        return
    chunks, mib = map(int, re.match(r"on \((\d+) chunks, (\d+) MiB mapped", on_status).groups())
    mapped = on["huge_page_heap_bytes"]
    assert chunks >= 1
    assert mapped >= chunks * CHUNK
    assert mapped % HUGE_PAGE == 0
    assert mib == mapped >> 20
