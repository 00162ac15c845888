# SPDX-License-Identifier: GPL-2.0-only
"""The C++ code is formatted with ns-3.37's .clang-format (clang-format 14), so it cannot drift."""

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_clang_format_is_ns3_style():
    # The repository's .clang-format is ns-3.37's own: it must stay based on Microsoft style
    # with ns-3's 100-column limit and include regrouping.
    text = (ROOT / ".clang-format").read_text()
    for line in ("BasedOnStyle: Microsoft", "ColumnLimit: 100", "IncludeBlocks: Regroup"):
        assert line in text


@pytest.mark.skipif(
    not (shutil.which("clang-format-14") or shutil.which("clang-format")),
    reason="clang-format is not installed (./podsim setup installs it)",
)
def test_code_is_formatted():
    r = subprocess.run(
        [str(ROOT / "podsim"), "format", "--check"], cwd=ROOT, capture_output=True, text=True
    )
    assert r.returncode == 0, "files need formatting (run ./podsim format):\n" + r.stdout + r.stderr
