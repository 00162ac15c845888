# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""README.md's scenario reference is the code's own schema (utils/gen_reference.py), and the
README stays in step with the repository: every module doc is linked, every driver command has
its row, CITATION.cff carries the VERSION file's version.

The expected values are not numbers but the code's own outputs: ``podsim-run --schema``
(ScenarioSchema::MarkdownReference()) for the README section, ScenarioSchema::GetKeys() through
``podsim.schema()`` for the key list, and the GitHub Flavored Markdown table rules (a row has as
many cells as the header; a pipe inside a cell is escaped) for the table's shape.
"""

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
SCRIPT = ROOT / "utils" / "gen_reference.py"
PODSIM_RUN = Path(os.environ.get("PODSIM_BUILD_DIR", ROOT / "build")) / "bin" / "podsim-run"
HINT = "run: /usr/bin/python3 utils/gen_reference.py --write"

needs_podsim_run = pytest.mark.skipif(
    not PODSIM_RUN.is_file(), reason=f"{PODSIM_RUN} is not built (./podsim build)"
)


def _load_generator():
    spec = importlib.util.spec_from_file_location("gen_reference", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


gen = _load_generator()


def generator(*args):
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args], capture_output=True, text=True, check=False
    )


@pytest.fixture(scope="module")
def schema_md():
    if not PODSIM_RUN.is_file():
        pytest.skip(f"{PODSIM_RUN} is not built (./podsim build)")
    return gen.schema_markdown(PODSIM_RUN)


def split_cells(row):
    """The cells of a GFM table row: split at pipes not preceded by a backslash."""
    inner = row.strip()
    assert inner.startswith("|") and inner.endswith("|"), row
    return [c.strip() for c in re.split(r"(?<!\\)\|", inner[1:-1])]


def table_keys(markdown):
    """The key of every row of the reference table, in order (the first cell's code span)."""
    keys = []
    for line in markdown.splitlines():
        if line.startswith("| `"):
            first = split_cells(line)[0]
            assert first.startswith("`") and first.endswith("`"), line
            keys.append(first.strip("`").replace("\\|", "|"))
    return keys


@needs_podsim_run
def test_readme_reference_is_current():
    # The README's generated section is exactly podsim-run --schema's output.
    r = generator("--check", "--prog", str(PODSIM_RUN))
    assert r.returncode == 0, (
        f"README.md's scenario reference differs from podsim-run --schema; {HINT}\n"
        f"{r.stdout}{r.stderr}"
    )


def test_readme_section_keys_match_schema(schema_md):
    # Every key that --schema lists has its row in the README section, in the same order.
    _, section, _ = gen.split_readme(README.read_text(encoding="utf-8"))
    schema_keys = table_keys(schema_md)
    assert schema_keys, "podsim-run --schema printed no table rows"
    readme_keys = table_keys(section)
    missing = [k for k in schema_keys if k not in readme_keys]
    assert not missing, f"keys missing from README.md's reference: {missing}; {HINT}"
    assert readme_keys == schema_keys, f"README.md's reference rows differ; {HINT}"


def test_python_schema_agrees_with_markdown(podsim, schema_md):
    # podsim.schema() and --schema both walk ScenarioSchema::GetKeys(): same keys, same order.
    assert [k["path"] for k in podsim.schema()] == table_keys(schema_md)


def test_reference_table_is_github_markdown(schema_md):
    # GFM tables: the delimiter row has one cell per header cell, and every row has as many
    # cells as the header (an unescaped pipe in a help text would add one). Outside code spans,
    # no raw HTML tag (it would vanish on GitHub) and no unescaped emphasis star.
    lines = schema_md.splitlines()
    header = lines.index("| Key | Type | Default | Range | Description |")
    assert split_cells(lines[header + 1]) == ["---"] * 5
    rows = [line for line in lines[header + 2 :] if line.startswith("|")]
    assert len(rows) == len(table_keys(schema_md))
    for row in rows:
        cells = split_cells(row)
        assert len(cells) == 5, row
        text = re.sub(r"(`+)(.+?)\1", "", row)  # the code spans are literal
        assert not re.search(r"(?<!\\)<[A-Za-z/!?]", text), f"raw HTML in: {row}"
        stars = re.sub(r"\*\*required\*\*", "", text)
        stars = re.sub(r"\| \*[a-z, -]+ only\.\* ", "| ", stars)  # the kinds, on purpose
        assert not re.search(r"(?<!\\)\*", stars), f"unescaped '*' in: {row}"


def test_generator_write_then_check(tmp_path, schema_md):
    # --write makes a stale README current and leaves the rest untouched; --check then passes,
    # and a stale README fails --check with a unified diff and the hint.
    text = README.read_text(encoding="utf-8")
    before, _, after = gen.split_readme(text)
    stale = tmp_path / "README.md"
    stale.write_text(before + "\nold reference\n\n" + after, encoding="utf-8")

    r = generator("--check", "--prog", str(PODSIM_RUN), "--readme", str(stale))
    assert r.returncode == 1
    assert "-old reference" in r.stdout and "+| Key | Type |" in r.stdout
    assert HINT in r.stdout

    r = generator("--write", "--prog", str(PODSIM_RUN), "--readme", str(stale))
    assert r.returncode == 0, r.stderr
    assert stale.read_text(encoding="utf-8") == before + "\n" + schema_md + "\n" + after
    r = generator("--check", "--prog", str(PODSIM_RUN), "--readme", str(stale))
    assert r.returncode == 0, r.stdout + r.stderr


def test_generator_errors(tmp_path):
    # No markers, or a missing program: exit status 2 with the reason; nothing written.
    bare = tmp_path / "README.md"
    bare.write_text("# no reference here\n", encoding="utf-8")
    r = generator("--write", "--prog", str(PODSIM_RUN), "--readme", str(bare))
    assert r.returncode == 2
    assert bare.read_text(encoding="utf-8") == "# no reference here\n"
    r = generator("--check", "--prog", str(tmp_path / "nothing"), "--readme", str(README))
    assert r.returncode == 2 and "not found" in r.stderr


def test_readme_links_every_doc():
    # Every module's documentation and contrib/README.md are linked, and every relative link
    # of the README points at a file or directory that exists.
    text = README.read_text(encoding="utf-8")
    docs = sorted(ROOT.glob("src/*/doc/*.rst")) + [ROOT / "contrib" / "README.md"]
    for doc in docs:
        rel = doc.relative_to(ROOT).as_posix()
        assert f"]({rel})" in text, f"README.md does not link {rel}"
    for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
        if "://" not in target:
            assert (ROOT / target).exists(), f"README.md links a missing path: {target}"


def test_readme_lists_every_driver_command():
    # Every command of `./podsim help` has its row in the README's driver table.
    usage = subprocess.run(
        [str(ROOT / "podsim"), "help"], capture_output=True, text=True, check=True
    ).stdout
    commands = re.findall(r"^  ([a-z]+)\b", usage, re.M)
    assert "reference" in commands
    text = README.read_text(encoding="utf-8")
    for cmd in commands:
        assert f"| `./podsim {cmd}" in text, f"README.md's driver table has no ./podsim {cmd}"


def test_readme_python_examples_run(podsim, tmp_path):
    # The examples of "Using podsim from Python" run as written (one script, in order, from the
    # repository root; their /tmp files go to a temporary directory instead).
    text = README.read_text(encoding="utf-8")
    start = text.index("## Using podsim from Python")
    section = text[start : text.index("\n## ", start + 1)]
    blocks = re.findall(r"^```python\n(.*?)^```$", section, re.S | re.M)
    assert len(blocks) >= 5, "the Python section lost its examples"
    script = tmp_path / "examples.py"
    script.write_text("".join(blocks).replace("/tmp/", f"{tmp_path}/"), encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(Path(podsim.__file__).resolve().parents[1]))
    r = subprocess.run(
        [sys.executable, str(script)], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert r.returncode == 0, r.stdout + r.stderr


def test_citation_version_is_the_version_file(podsim):
    # One version everywhere: VERSION, CITATION.cff, CMake's project() and the library's own
    # (podsim.__version__, which results files carry as podsim_version).
    version = (ROOT / "VERSION").read_text(encoding="utf-8").strip()
    yaml = pytest.importorskip("yaml")
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    assert str(cff["version"]) == version
    assert cff["cff-version"] == "1.2.0"
    assert cff["title"] and cff["authors"] and cff["message"]
    cmake = (ROOT / "CMakeLists.txt").read_text(encoding="utf-8")
    assert re.search(r"project\(podsim VERSION " + re.escape(version) + r"\b", cmake)
    assert podsim.__version__ == version
