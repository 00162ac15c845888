# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""The flow module's max-min fair rate solver (src/flow/model/flow-rate-solver.h) against an
independent progressive-filling reference written here, on 100 seeded random instances replayed
through build/bin/flow-rate-solve (src/flow/examples/flow-rate-solve.cc; its source describes the
instance format). The reference works in exact rational arithmetic (fractions.Fraction) on
integer capacities, so it has no rounding of its own; the C++ rates must match it to 1e-9
relative. A failing instance is written whole to build/flow-solver-failures/ (named in the
assertion): replay it with ``build/bin/flow-rate-solve < FILE``.
"""

import os
import random
import subprocess
from fractions import Fraction
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BUILD = Path(os.environ.get("PODSIM_BUILD_DIR", ROOT / "build"))
PROG = BUILD / "bin" / "flow-rate-solve"
FAILURES = BUILD / "flow-solver-failures"

pytestmark = pytest.mark.skipif(not PROG.is_file(), reason=f"{PROG} is not built")


def max_min_reference(capacities, flows):
    """Max-min fair rates by progressive filling, exactly.

    capacities: {link: int}; flows: {number: [link, ...]}. Every unfrozen flow's rate rises
    together (the water level); a link is full when its frozen flows' rates plus the level times
    its unfrozen flows reach its capacity. The lowest such level over all links with unfrozen
    flows is where the next links fill: freeze every unfrozen flow on every link full at that
    level, and go on until no flow is unfrozen. Returns {number: Fraction}."""
    rate = {}
    unfrozen = set(flows)
    while unfrozen:
        level = None
        full = []
        for link, cap in capacities.items():
            on = [f for f in flows if link in flows[f]]
            n = sum(1 for f in on if f in unfrozen)
            if n == 0:
                continue
            used = sum((rate[f] for f in on if f not in unfrozen), Fraction(0))
            at = max(Fraction(cap) - used, Fraction(0)) / n
            if level is None or at < level:
                level, full = at, [link]
            elif at == level:
                full.append(link)
        for link in full:
            for f in list(unfrozen):
                if link in flows[f]:
                    rate[f] = level
                    unfrozen.discard(f)
    return rate


def random_instance(seed):
    """(instance text, final capacities, final flows) of one seeded random instance: links,
    then a mix of flow additions, removals, capacity changes and full re-solves."""
    rng = random.Random(seed)
    n_links = rng.randint(1, 25)
    # Integer capacities over several magnitudes (some links share one, to make ties); 0 now
    # and then, for a dead link.
    pool = [rng.randint(1, 400) * 10 ** rng.randint(0, 11) for _ in range(4)]
    capacities = {}
    lines = [f"# seed {seed}"]
    for link in range(n_links):
        cap = rng.choice(pool) if rng.random() < 0.5 else rng.randint(1, 10**12)
        capacities[link] = cap
        lines.append(f"link {cap}")
    flows = {}
    added = 0
    for _ in range(rng.randint(1, 80)):
        r = rng.random()
        if r < 0.65 or not flows:
            path = rng.sample(range(n_links), rng.randint(1, min(5, n_links)))
            flows[added] = path
            lines.append("flow " + " ".join(map(str, path)))
            added += 1
        elif r < 0.85:
            f = rng.choice(sorted(flows))
            del flows[f]
            lines.append(f"remove {f}")
        elif r < 0.97:
            link = rng.randrange(n_links)
            cap = 0 if rng.random() < 0.1 else rng.choice(pool + [rng.randint(1, 10**12)])
            capacities[link] = cap
            lines.append(f"capacity {link} {cap}")
        else:
            lines.append("solve")
    return "\n".join(lines) + "\n", capacities, flows


def test_reference_hand_cases():
    """The reference itself on the cases src/flow/doc/flow.rst solves by hand."""
    assert max_min_reference({0: 10, 1: 10}, {0: [0], 1: [0, 1], 2: [1]}) == {0: 5, 1: 5, 2: 5}
    assert max_min_reference({0: 10, 1: 4}, {0: [0], 1: [0, 1], 2: [1]}) == {0: 8, 1: 2, 2: 2}
    chain = {i: 100 for i in range(6)}
    lot = {0: list(range(6)), **{1 + i: [i] for i in range(6)}}
    assert set(max_min_reference(chain, lot).values()) == {50}


@pytest.mark.parametrize("seed", range(100))
def test_random_instance(seed):
    text, capacities, flows = random_instance(seed)
    r = subprocess.run([str(PROG)], input=text, capture_output=True, text=True, timeout=1800)
    assert r.returncode == 0, r.stderr
    got = {}
    for line in r.stdout.splitlines():
        n, rate = line.split()
        got[int(n)] = float(rate)
    want = max_min_reference(capacities, flows)
    bad = [
        (f, got.get(f), float(want[f]))
        for f in sorted(want)
        if f not in got or abs(got[f] - float(want[f])) > 1e-9 * max(abs(got[f]), float(want[f]))
    ]
    if bad or set(got) != set(want):
        FAILURES.mkdir(parents=True, exist_ok=True)
        path = FAILURES / f"instance-{seed}.txt"
        path.write_text(text)
        pytest.fail(
            f"seed {seed}: rates differ from the reference (flow, C++, reference): {bad[:5]}; "
            f"flows C++ {sorted(got)} reference {sorted(want)}; instance saved to {path} "
            f"(replay: {PROG} < {path})"
        )
