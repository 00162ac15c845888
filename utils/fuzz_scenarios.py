#!/usr/bin/env python3
# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""Scenario fuzzer: feeds the scenario loader malformed and random-but-valid scenarios.

A seeded random generator (src/pod/doc/robustness.rst, "Fuzzed scenarios") writes scenario files of
two sorts:

* malformed: a valid base (an example of examples/scenarios, tests/python/data/small.yaml or a
  generated valid scenario) with one mutation that must make it invalid: an unknown key at any
  level, a value of the wrong type, out of range, negative, huge or with a unit that does not
  parse, a bad enum value, a missing required key, an empty value, a key of another workload
  kind, an impossible topology or workload (cross-field checks), malformed YAML (tabs, unclosed
  brackets and quotes, duplicate keys, several documents, deep nesting, alias bombs), empty and
  binary files, bad --set overrides. Each must be refused by podsim.load with a ScenarioError
  whose text is ``FILE:LINE: FIELD: MESSAGE``: FILE the file given (``--set`` for an override),
  LINE > 0 where the field is in the file (and the line the mutation is on where the generator
  knows it), FIELD the mutated key where the generator knows it. Text-level noise (byte flips,
  truncation, tags, BOM) may leave a scenario valid: it must then load, or be refused the same
  way.
* valid: drawn from the schema (podsim.schema()): fabric ethernet, sue, ualink, cell or rifl,
  at most 32 accelerators, small workloads, a simulated ``stop`` bound, plus random keys of the
  fabric's sections with values drawn from their types and ranges. Each is run (podsim.run,
  nothing written) and must complete or be refused with a located ScenarioError.

The loader and the simulator run in a worker subprocess (this file with --worker) that handles
one scenario at a time: a worker that dies (abort, segfault, out of memory under the address
space limit) is a crash, one that does not answer within the time limit a hang; the worker is
then restarted. The limits (--load-timeout, --run-timeout) are of the worker's CPU time, which a
loaded machine does not stretch (a 20 MB DAG once took 21.6 s of wall time to load on a busy
machine, against a fixed 20 s); a worker that uses no CPU (blocked) is a hang after WALL_FACTOR
times the limit of wall time. Every failure is saved whole, in a directory of its own in the
failure directory: the scenario under the name it had, every file beside it (DAG files, the
examples' dags/), and case.json (what was expected, what happened, the worker's stderr), so
that ``--replay DIR`` loads or runs it again exactly as the fuzzer did.

Run:  PYTHONPATH=build/python /usr/bin/python3 utils/fuzz_scenarios.py --count 10000 --seed 1
Last line: ``fuzz: N scenarios (seed S): ...; F failures`` (exit 0 if F is 0, else 1).
Replay a saved failure:  utils/fuzz_scenarios.py --replay results/fuzz-failures/STEM
"""

import argparse
import json
import os
import random
import re
import select
import shutil
import signal
import string
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "scenarios"
EXTRA_BASES = [ROOT / "test" / "python" / "data" / "small.yaml"]
REGRESSIONS = ROOT / "test" / "python" / "data" / "fuzz-regressions"

# ---------------------------------------------------------------------------------------------
# Worker: the loader and the simulator, one request per line on stdin, one answer per line.
# ---------------------------------------------------------------------------------------------


def worker_main():
    """Answer requests {"op": "schema"|"load"|"run", "path", "overrides"} until stdin closes."""
    # Answers go to a private copy of stdout; the simulator's own output goes to stderr.
    answers = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8")
    os.dup2(2, 1)
    import podsim

    answers.write(json.dumps({"status": "ready"}) + "\n")
    for line in sys.stdin:
        req = json.loads(line)
        try:
            if req["op"] == "selftest-abort":  # the driver's own test: a crash
                os.abort()
            elif req["op"] == "selftest-hang":  # ... a hang that spins
                while True:
                    pass
            elif req["op"] == "selftest-block":  # ... and one that waits
                time.sleep(3600)
            if req["op"] == "schema":
                ans = {"status": "ok", "schema": podsim.schema()}
            elif req["op"] == "load":
                d = podsim.load(req["path"], req.get("overrides"))
                ans = {"status": "ok", "accelerators": d["accelerators"]}
            else:
                # With the invariant checks (--check): a violation raises, a failure here.
                r = podsim.run(
                    req["path"], req.get("overrides"), write_results=False, quiet=True, check=True
                )
                s = r["summary"]
                ans = {
                    "status": "ok",
                    "messages": int(len(r["messages"]["src"])),
                    "delivered": int((r["messages"]["deliver_ps"] >= 0).sum()),
                    "sim_time_ps": int(s["sim_time_ps"]),
                    "events": int(s["events"]),
                    "deadlock": s["deadlock"],
                    "watchdog": s.get("watchdog", ""),
                    "checked": bool(s.get("checked", False)),
                }
        except podsim.ScenarioError as e:
            ans = {
                "status": "scenario-error",
                "text": str(e),
                "file": e.file,
                "line": e.line,
                "field": e.field,
                "message": e.message,
            }
        except Exception as e:  # reported as a failure by the driver
            ans = {"status": "exception", "type": type(e).__name__, "text": str(e)}
        answers.write(json.dumps(ans) + "\n")


# A worker that uses no CPU (blocked, not spinning) is a hang after this many times its limit of
# CPU time, in wall time.
WALL_FACTOR = 30


def cpu_seconds(pid):
    """CPU time (user + system, every thread) a process has used, or None (no /proc)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


class Worker:
    """A worker subprocess, restarted after a crash or a hang."""

    def __init__(self, python, env, mem_limit):
        self.python = python
        self.env = env
        self.mem_limit = mem_limit
        self.proc = None
        self.stderr = None
        self.buf = b""
        self.restarts = 0

    def _limits(self):
        import resource

        if self.mem_limit:
            resource.setrlimit(resource.RLIMIT_AS, (self.mem_limit, self.mem_limit))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        os.setsid()

    def start(self, tries=2):
        try:
            self._start()
        except RuntimeError:
            if tries <= 1:
                raise
            self.stop()
            time.sleep(5)  # e.g. a library being rebuilt under the worker
            self.start(tries - 1)

    def _start(self):
        self.stderr = tempfile.TemporaryFile()
        self.buf = b""
        self.proc = subprocess.Popen(
            [self.python, str(Path(__file__).resolve()), "--worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.stderr,
            env=self.env,
            preexec_fn=self._limits,
        )
        ans = self._answer(120)
        if ans.get("status") != "ready":
            raise RuntimeError("the fuzz worker did not start: %s" % ans)

    def stop(self):
        if self.proc is not None:
            if self.proc.poll() is None:
                try:
                    os.killpg(self.proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            self.proc.wait()
            self.proc.stdin.close()
            self.proc.stdout.close()
            self.proc = None

    def stderr_tail(self, n=4000):
        self.stderr.flush()
        self.stderr.seek(0, os.SEEK_END)
        size = self.stderr.tell()
        self.stderr.seek(max(0, size - n))
        return self.stderr.read().decode("utf-8", "replace")

    def _answer(self, timeout, wall_timeout=None):
        """The next answer line, or {"status": "crash"|"hang"}: a hang when the worker has used
        more than timeout seconds of CPU time on the request, or (blocked) when wall_timeout
        (default WALL_FACTOR x timeout) seconds have passed."""
        t0 = time.monotonic()
        wall = wall_timeout if wall_timeout is not None else WALL_FACTOR * timeout
        cpu0 = cpu_seconds(self.proc.pid)
        if cpu0 is None:
            wall = timeout  # no CPU time to read: the wall time is all there is
        fd = self.proc.stdout.fileno()
        while b"\n" not in self.buf:
            now = time.monotonic()
            cpu = cpu_seconds(self.proc.pid) if cpu0 is not None else None
            if cpu is not None and cpu - cpu0 > timeout:
                return {"status": "hang", "timeout_s": timeout, "cpu_s": round(cpu - cpu0, 1)}
            if now - t0 > wall:
                return {"status": "hang", "timeout_s": timeout, "wall_s": round(now - t0, 1)}
            ready, _, _ = select.select([fd], [], [], min(0.25, wall - (now - t0)) + 0.01)
            if not ready:
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                rc = self.proc.wait()
                return {"status": "crash", "returncode": rc}
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line.decode("utf-8"))

    def call(self, req, timeout, wall_timeout=None):
        """Send one request; a crash or a hang (timeout: seconds of the worker's CPU time;
        wall_timeout: of wall time, default WALL_FACTOR x timeout) restarts the worker (its stderr
        is attached)."""
        if self.proc is None:
            self.start()
        try:
            self.proc.stdin.write((json.dumps(req) + "\n").encode("utf-8"))
            self.proc.stdin.flush()
        except BrokenPipeError:
            pass  # the answer says crash
        ans = self._answer(timeout, wall_timeout)
        if ans["status"] in ("crash", "hang"):
            ans["stderr"] = self.stderr_tail()
            self.stop()
            self.restarts += 1
        elif ans["status"] == "exception":
            # The simulator is process-wide state: do not trust it after an unknown failure.
            ans["stderr"] = self.stderr_tail()
            self.stop()
            self.restarts += 1
        return ans


# ---------------------------------------------------------------------------------------------
# Documents: YAML with every scalar kept as text, and where each path is in the file.
# ---------------------------------------------------------------------------------------------


def load_doc(text):
    """A YAML text as a tree of dict, list and str (BaseLoader: no implicit types)."""
    return yaml.load(text, Loader=yaml.BaseLoader)


def dump_doc(doc):
    """A tree as block-style YAML, one key per line."""
    return yaml.dump(
        doc,
        Dumper=yaml.SafeDumper,
        default_flow_style=False,
        sort_keys=False,
        allow_unicode=True,
        width=100000,
    )


def path_str(path):
    """("workloads", 1, "size") -> "workloads[1].size"."""
    out = ""
    for p in path:
        if isinstance(p, int):
            out += "[%d]" % p
        else:
            out += ("." if out else "") + p
    return out


def schema_path(path):
    """("workloads", 1, "size") -> "workloads[].size"."""
    return re.sub(r"\[\d+\]", "[]", path_str(path))


def lines_of(text, path):
    """(key line, value line) of a path in a block-style text (1-based), or None."""
    node = yaml.compose(text, Loader=yaml.BaseLoader)
    key_line = node.start_mark.line + 1
    for p in path:
        if isinstance(p, int):
            if not isinstance(node, yaml.SequenceNode) or p >= len(node.value):
                return None
            node = node.value[p]
            key_line = node.start_mark.line + 1
            continue
        if not isinstance(node, yaml.MappingNode):
            return None
        for k, v in node.value:
            if isinstance(k, yaml.ScalarNode) and k.value == p:
                key_line = k.start_mark.line + 1
                node = v
                break
        else:
            return None
    return key_line, node.start_mark.line + 1


def get(doc, path):
    for p in path:
        doc = doc[p]
    return doc


def maps_in(doc, path=()):
    """Every (path, dict) in a tree, the top included."""
    out = []
    if isinstance(doc, dict):
        out.append((path, doc))
        for k, v in doc.items():
            out.extend(maps_in(v, path + (k,)))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out.extend(maps_in(v, path + (i,)))
    return out


def scalars_in(doc, path=()):
    """Every (path, value) of a scalar or a list of scalars under a map key."""
    out = []
    if isinstance(doc, dict):
        for k, v in doc.items():
            if isinstance(v, (dict, list)):
                if isinstance(v, list) and all(not isinstance(x, (dict, list)) for x in v):
                    out.append((path + (k,), v))
                out.extend(scalars_in(v, path + (k,)))
            else:
                out.append((path + (k,), v))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            if isinstance(v, dict):
                out.extend(scalars_in(v, path + (i,)))
    return out


# ---------------------------------------------------------------------------------------------
# The schema and values drawn from it.
# ---------------------------------------------------------------------------------------------


class Schema:
    """podsim.schema() by path."""

    def __init__(self, keys):
        self.keys = keys
        self.by_path = {k["path"]: k for k in keys}

    def key(self, path):
        return self.by_path.get(schema_path(path))

    def children(self, parent):
        """The keys directly inside a schema path ("" at the top; "workloads[]" for items)."""
        out = []
        for k in self.keys:
            p = k["path"]
            head, _, last = p.rpartition(".")
            if head == parent:
                out.append(k)
        return out

    def names_at(self, parent):
        return {k["path"].rpartition(".")[2] for k in self.children(parent)}


UNIT_BASE = {"size": "", "time": "ps", "rate": "bps", "length": "m"}


def fmt_number(v, typ):
    """A number in the key's base unit as scenario text."""
    if typ in ("uint", "size", "time", "rate"):
        return "%d%s" % (int(v), UNIT_BASE.get(typ, ""))
    if typ == "length":
        return "%rm" % float(v)
    return repr(float(v))


def bad_values(key, rng):
    """Values that a key of this type must refuse, whatever the other keys say."""
    typ = key["type"]
    out = []
    if typ == "uint":
        out += ["-1", "1.5", "abc", "4294967296", "99999999999999999999999999", "0x10", "1e3",
                "12 apples", "+-3", "٣", "1,000", "NaN", "true"]
    elif typ == "double":
        out += ["abc", "nan", "inf", "-inf", "1e400", "1.2.3", "1e", "--1", "0x1p3", "1/2",
                "1" * 40]
    elif typ == "bool":
        out += ["maybe", "2", "tru", "yes please", "1", "0", "null?", "T"]
    elif typ == "size":
        out += ["-1", "-1KiB", "1XB", "12 parsecs", "1e400", "18446744073709551616",
                "1.5.3MiB", "KiB", "1.5B", "0.1", "1 Kib", "9" * 50, "1e30TiB", "MiB 4"]
    elif typ == "time":
        out += ["5", "-3ns", "1.5ps", "1e30s", "3 furlongs", "ns", "1e-3ps", "1.0.0us",
                "200000000s", "1 h", "5 ns ns", "1e999s"]
    elif typ == "rate":
        out += ["fast", "-100Gbps", "1.5bps", "100", "100 Gibps", "1e30Tbps", "Gbps",
                "400Gb/ss", "1e-1bps"]
    elif typ == "length":
        out += ["-1m", "3 feet", "m", "1e400m", "1..2m", "2 mi"]
    elif typ == "enum":
        allowed = key["allowed"]
        a = rng.choice(allowed)
        out += ["zz" + a, a.upper() if a.upper() != a else a + "x", a[:-1] or "q", "", " ",
                "no-such-" + a, a + " " + a]
    elif typ == "string":
        out += ["", "   "]
    # Out of range, in the base unit.
    if key["min"] is not None and typ in ("uint", "size", "time", "rate", "length", "double"):
        lo = key["min"]
        if typ in ("double", "length"):
            out.append(fmt_number(lo if key["min_exclusive"] else lo - 0.5, typ))
        elif key["min_exclusive"]:
            out.append(fmt_number(lo, typ))
        elif lo >= 1:
            out.append(fmt_number(lo - 1, typ))
    if key["max"] is not None and typ in ("uint", "size", "time", "rate", "length", "double"):
        hi = key["max"]
        out.append(fmt_number(hi + (0.5 if typ in ("double", "length") else 1), typ))
    # Enum and string values that are valid whatever they are ("" for a string is not).
    return [v for v in out if not (typ == "enum" and v in key["allowed"])]


def shape_bad_values(key):
    """Values of the wrong shape: a list or map for a scalar, a scalar or map for a list..."""
    typ = key["type"]
    if typ == "map":
        return ["5", ["a", "b"], "[]"]
    if typ == "list":
        return ["5", {"a": "1"}, None]
    return [["1", "2"], {"a": "1"}, None, []]


def modest_value(key, rng):
    """A value of a key's type within its range, near its default (a valid scenario's extra)."""
    typ = key["type"]
    d = key["default"]
    lo, hi = key["min"], key["max"]
    if typ == "enum":
        return rng.choice(key["allowed"])
    if typ == "bool":
        return rng.choice(["true", "false"])
    if typ == "uint":
        base = int(d) if d and d.isdigit() else 1
        v = rng.choice([base, base, max(0, base // 2), base * 2, base + 1, 0, 1, 2, 4])
        if lo is not None:
            v = max(v, int(lo) + (1 if key["min_exclusive"] else 0))
        if hi is not None:
            v = min(v, int(hi))
        return str(v)
    if typ == "time":
        return rng.choice(["0", "1ns", "10ns", "100ns", "250ns", "1us"]) if lo is None or lo <= 0 \
            else rng.choice(["1us", "5us", "20us"])
    if typ == "size":
        sizes = [1024, 4096, 65536, 1 << 20, 16 << 20]
        ok = [v for v in sizes if (hi is None or v <= hi) and (lo is None or v >= lo)]
        return str(rng.choice(ok)) if ok else fmt_number(lo if lo is not None else 1, typ)
    if typ == "double":
        v = rng.choice([0.0, 1e-7, 1e-5, 0.5, 1.0, 1.33, 2.0])
        if lo is not None and (v < lo or (key["min_exclusive"] and v <= lo)):
            v = lo + 1.0
        if hi is not None and v > hi:
            v = hi
        return repr(v)
    if typ == "length":
        return rng.choice(["0m", "1m", "3m", "10m"])
    if typ == "rate":
        return rng.choice(["100Gbps", "200Gbps", "400Gbps", "800Gbps"])
    return "fuzz"


def extreme_value(key, rng):
    """A value at an end of a key's range (min or max), or a modest one if it has no range."""
    typ = key["type"]
    if typ not in ("uint", "size", "time", "rate", "length", "double") or \
            (key["min"] is None and key["max"] is None):
        return modest_value(key, rng)
    # A 1-byte MTU is valid and slow (a packet per byte): such a run is work, not a finding.
    if key["max"] is not None and (key["min"] is None or rng.random() < 0.5
                                   or key["path"] == "pod.nic.mtu"):
        return fmt_number(key["max"], typ)
    if key["min_exclusive"]:
        if typ in ("double", "length"):
            return fmt_number(key["min"] + 1e-6, typ)
        return fmt_number(key["min"] + 1, typ)
    return fmt_number(key["min"], typ)


# ---------------------------------------------------------------------------------------------
# Valid scenarios.
# ---------------------------------------------------------------------------------------------

FABRICS = ["ethernet", "sue", "ualink", "cell", "rifl"]
EXTREME_SHARE = 0.25  # share of the random extra keys of a valid scenario set to a range end
SIZES = ["512", "1KiB", "4KiB", "16KiB", "64KiB"]


def gen_valid(rng, schema, index):
    """A random scenario that should be valid (cross-field checks may still refuse it)."""
    fabric = rng.choice(FABRICS)
    n = rng.choice([2, 3, 4, 5, 6, 8, 12, 16, 24, 32])
    pod = {"fabric": fabric, "accelerators": str(n)}
    doc = {
        "name": "fuzz-%d" % index,
        "seed": str(rng.randint(1, 10000)),
        "stop": rng.choice(["10us", "20us", "50us", "100us"]),
        "pod": pod,
    }
    if rng.random() < 0.3:
        doc["scheduler"] = rng.choice(schema.by_path["scheduler"]["allowed"])
    if fabric == "ethernet":
        pod["planes"] = str(rng.choice([1, 2, 4]))
        pod["switch"] = {"radix": str(rng.choice([n, n, 4, 8, 16, 64]))}
        pod["link"] = {"rate": rng.choice(["100Gbps", "400Gbps", "800Gbps"])}
        if rng.random() < 0.4:
            pod["flow-control"] = {"kind": rng.choice(["pfc", "cbfc", "none"])}
        if rng.random() < 0.2:
            pod["transport"] = {"kind": "go-back-n"}
        if rng.random() < 0.2:
            pod["llr"] = {"mode": rng.choice(["ack-nak", "nak-only"])}
            pod["link"]["ber"] = rng.choice(["0", "1e-7"])
    elif fabric == "sue":
        ports = rng.choice([1, 2, 4])
        instance = rng.choice([800, 400])
        pod["planes"] = str(ports * rng.choice([1, 2]))
        pod["link"] = {"rate": "%dGbps" % (instance // ports)}
        pod["switch"] = {"radix": str(max(n, 2))}
        pod["flow-control"] = {"kind": rng.choice(["pfc", "cbfc", "none"])}
        ordering = rng.choice(["strict", "unordered"])
        sue = {"ports": str(ports), "ordering": ordering}
        if ordering == "strict":
            sue["load-balance"] = "hash"
        pod["sue"] = sue
        if rng.random() < 0.15 and n >= 3:
            pod["topology"] = "mesh"
            sue["ports"] = "1"
            sue["ordering"] = "strict"
            sue["load-balance"] = "hash"
            pod["link"]["rate"] = "800Gbps"
            pod["planes"] = str(n - 1)
    elif fabric == "ualink":
        bif = rng.choice(["x4", "2x2", "4x1"])
        per_station = {"x4": 1, "2x2": 2, "4x1": 4}[bif]
        pod["planes"] = str(per_station * rng.choice([1, 2]))
        pod["switch"] = {"radix": str(max(n, 2))}
        pod["ualink"] = {"bifurcation": bif}
    elif fabric == "cell":
        pod["cell"] = {"links": str(rng.choice([1, 2, 4, 8])),
                       "page-size-words": str(rng.choice([37, 48, 59, 70, 81, 92, 103, 114, 125]))}
    elif fabric == "rifl":
        pod["planes"] = str(rng.choice([1, 2]))
        pod["link"] = {"rate": "100Gbps"}
        pod["switch"] = {"radix": str(rng.choice([n, 64, 16]))}
        pod["rifl"] = {"switch": rng.choice(schema.by_path["pod.rifl.switch"]["allowed"])}
    # Random keys of the pod's sections, from the schema: new keys are covered as they come.
    sections = ["pod.switch", "pod.link", "pod.nic", "pod.flow-control"]
    if fabric in ("sue", "ualink", "cell", "rifl"):
        sections.append("pod." + fabric)
    for _ in range(rng.choice([0, 0, 1, 2, 3])):
        sec = rng.choice(sections)
        keys = [k for k in schema.children(sec) if k["type"] not in ("map", "list")]
        if not keys:
            continue
        k = rng.choice(keys)
        name = k["path"].rpartition(".")[2]
        if k["path"] in ("pod.link.rate",) and fabric in ("sue", "rifl"):
            continue
        target = pod
        for part in sec.split(".")[1:]:
            target = target.setdefault(part, {})
        target[name] = (extreme_value(k, rng) if rng.random() < EXTREME_SHARE
                        else modest_value(k, rng))
    # Workloads.
    workloads = []
    kinds = ["incast", "permutation", "all-to-all", "collective", "dag"]
    for i in range(rng.choice([1, 1, 2, 3])):
        kind = rng.choice(kinds)
        w = {"kind": kind}
        if rng.random() < 0.3:
            w["start"] = rng.choice(["0", "1us", "5us"])
        if kind == "incast":
            w["senders"] = str(rng.randint(1, max(1, n - 1)))
            w["receiver"] = str(rng.randrange(n))
            w["size"] = rng.choice(SIZES)
        elif kind in ("permutation", "all-to-all"):
            w["size"] = rng.choice(SIZES[:3] if kind == "all-to-all" else SIZES)
        elif kind == "collective":
            w.update(gen_collective(rng, schema, n))
            if rng.random() < 0.2:
                w["iterations"] = str(rng.randint(1, 3))
        else:
            w["nodes"] = gen_dag_nodes(rng, schema, n)
        if fabric == "sue" and kind in ("incast", "permutation", "all-to-all") \
                and rng.random() < 0.3:
            w["operation"] = "read"
        if rng.random() < 0.15:
            w["class"] = str(rng.randint(0, 1))
        workloads.append(w)
    doc["workloads"] = workloads
    if fabric in ("ethernet", "sue", "rifl") and rng.random() < 0.15:
        planes = int(pod.get("planes", "1"))
        doc["faults"] = [{"kind": "link-down", "accelerator": str(rng.randrange(n)),
                          "plane": str(rng.randrange(planes)),
                          "at": rng.choice(["0", "1us", "3us"])}
                         for _ in range(rng.choice([1, 1, 2, 3]))]
    if "limits.wall" in schema.by_path:
        doc["limits"] = {"wall": "20s"}  # a slow run ends with a report, not the driver's kill
    if rng.random() < 0.15:
        # Run until no event is left. Some of these never end: a destination that faults cut
        # off is retried for ever, a link that corrupts every frame is replayed for ever. Where
        # the schema has the run's watchdogs (limits.*), they must stop such a run; without
        # them, stop-0 scenarios have neither faults nor bit errors.
        if "limits.wall" in schema.by_path and "limits.no-progress" in schema.by_path:
            doc["stop"] = "0"
            doc["limits"].update({"no-progress": rng.choice(["100us", "1ms"]), "wall": "5s"})
        elif "faults" not in doc and not any(
                k in pod.get("link", {}) for k in ("ber", "codeword-error-rate")):
            doc["stop"] = "0"
    doc["output"] = {"plots": "false", "progress": "false"}
    return doc


def gen_collective(rng, schema, n):
    """The keys of a collective (a workload's or a DAG node's) on at most n ranks."""
    coll = rng.choice(schema.by_path["workloads[].collective"]["allowed"])
    c = {"collective": coll}
    ranks = n
    if rng.random() < 0.3 and n >= 2:
        ranks = rng.randint(1, n)
        c["group"] = [str(a) for a in rng.sample(range(n), ranks)]
    if rng.random() < 0.3:
        c["algorithm"] = rng.choice(schema.by_path["workloads[].algorithm"]["allowed"])
    if coll == "all-to-all-v":
        c["size-matrix"] = [str(rng.choice([0, 256, 1024])) for _ in range(ranks * ranks)]
    elif coll != "barrier":
        c["size"] = rng.choice(SIZES[:4])
    if coll in ("broadcast", "reduce") and rng.random() < 0.5:
        c["root"] = str(rng.randrange(ranks))
    if rng.random() < 0.2:
        c["chunks"] = str(rng.randint(1, 4))
        if rng.random() < 0.5:
            c["chunks-in-flight"] = str(rng.randint(0, 2))
    if rng.random() < 0.15:
        c["stripes"] = str(rng.choice([1, 2, 4, 64]))
    if rng.random() < 0.1:
        c["reduce-cost"] = rng.choice(["0", "1ps", "10ps"])
    if rng.random() < 0.1 and coll == "all-reduce":
        c["algorithm"] = "hierarchical"
        if rng.random() < 0.5:
            c["group-size"] = str(rng.randint(1, max(1, ranks)))
    return c


def gen_dag_nodes(rng, schema, n):
    nodes = []
    for j in range(rng.randint(1, 4)):
        kind = rng.choice(["compute", "collective", "send"]) if n >= 2 else "compute"
        node = {"name": "n%d" % j, "kind": kind}
        if j > 0 and rng.random() < 0.6:
            node["deps"] = ["n%d" % d for d in sorted(rng.sample(range(j), rng.randint(1, j)))]
        if kind == "compute":
            node["duration"] = rng.choice(["0", "100ns", "1us"])
        elif kind == "collective":
            node.update(gen_collective(rng, schema, n))
        else:
            src, dst = rng.sample(range(n), 2)
            node.update({"src": str(src), "dst": str(dst), "size": rng.choice(SIZES)})
        nodes.append(node)
    return nodes


# ---------------------------------------------------------------------------------------------
# Malformed scenarios: one mutation of a valid base each.
# ---------------------------------------------------------------------------------------------


class Case:
    """One generated scenario and what must happen to it.

    expect: "error" (refused with a located error), "any" (loads, or refused with a located
    error), "run" (runs, or refused with a located error).
    field: the field the error must name (None: any non-empty field; "" : none needed, e.g. a
    YAML syntax error or an empty file); fields: a set of acceptable fields instead.
    lines: acceptable lines (None: any line > 0); line0: a line of 0 is acceptable.
    """

    def __init__(self, kind, data, expect="error", field=None, fields=None, lines=None,
                 line0=False, overrides=None, note=""):
        self.kind = kind
        self.data = data if isinstance(data, bytes) else data.encode("utf-8")
        self.expect = expect
        self.field = field
        self.fields = fields
        self.lines = lines
        self.line0 = line0
        self.overrides = overrides
        self.note = note
        self.stop_ps = 0  # valid runs: the simulated time they must not pass
        self.extra = {}  # other files beside the scenario: {name: bytes} (DAG files)
        self.error_file = None  # the file the error must name, if not the scenario
        self.runnable = False  # a mutant of a small generated base: run it if it loads


def random_name(rng):
    alphabet = string.ascii_lowercase + "-_"
    return "zq" + "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 10)))


def mutate_unknown_key(rng, schema, base):
    doc = load_doc(dump_doc(base))
    path, m = rng.choice(maps_in(doc))
    parent = schema_path(path)
    known = schema.names_at(parent) if path else schema.names_at("")
    choices = [random_name(rng)]
    # A typo of a key of this section, a key of another section, odd characters.
    if known:
        k = rng.choice(sorted(known))
        choices.append(k[:-1] + ("x" if k[-1] != "x" else "y"))
        choices.append(k + "s")
    choices += [rng.choice(["rate", "size", "kind", "accelerators", "mtu", "links"]),
                "link.rate", "workloads[0]", "a b", "Pod", "ÄÖÜ", "1", "-", "x" * 300, "~x"]
    name = rng.choice([c for c in choices if c not in known and c not in m])
    m[name] = rng.choice(["1", "x", {"a": "1"}, ["1"]])
    text = dump_doc(doc)
    where = lines_of(text, path + (name,))
    return Case("unknown-key", text, field=path_str(path + (name,)),
                lines={where[0]} if where else None, note="key %r in %r" % (name, path_str(path)))


def settable_keys(schema, doc):
    """(path, key) of scalars and lists that can be set in this document, present or not."""
    out = []
    for path, m in maps_in(doc):
        parent = schema_path(path)
        kind = m.get("kind") if path and path[0] == "workloads" and len(path) == 2 else None
        for k in schema.children(parent):
            if k["type"] == "map":
                continue
            if kind is not None and k["kinds"] and kind not in k["kinds"]:
                continue
            if len(path) == 4 and path[2] == "nodes":
                continue  # DAG node keys depend on the node kind
            out.append((path + (k["path"].rpartition(".")[2],), k))
    # Sections (maps) in their parents.
    for k in schema.keys:
        if k["type"] == "map" and "[]" not in k["path"]:
            out.append((tuple(k["path"].split(".")), k))
    return out


def set_path(doc, path, value):
    cur = doc
    for p in path[:-1]:
        if isinstance(p, int):
            cur = cur[p]
        else:
            if not isinstance(cur.get(p), (dict, list)):
                cur[p] = {}
            cur = cur[p]
    cur[path[-1]] = value


def mutate_bad_value(rng, schema, base, shape):
    doc = load_doc(dump_doc(base))
    path, key = rng.choice(settable_keys(schema, doc))
    if shape or key["type"] in ("map", "list"):
        value = rng.choice(shape_bad_values(key))
        kind = "wrong-shape"
    else:
        value = rng.choice(bad_values(key, rng))
        kind = "bad-value"
    # An empty section is allowed; a map in a list of maps is not a shape error.
    if key["type"] == "map" and value is None:
        value = "5"
    set_path(doc, path, value)
    text = dump_doc(doc)
    where = lines_of(text, path)
    return Case(kind, text, field=path_str(path), lines=set(where) if where else None,
                note="%s = %r (%s)" % (path_str(path), value, key["type"]))


def mutate_list_item(rng, schema, base):
    """A list of uints with a bad item, or a list of maps with a scalar item."""
    doc = load_doc(dump_doc(base))
    ws = doc["workloads"]
    i = rng.randrange(len(ws))
    w = ws[i]
    if rng.random() < 0.5 or w.get("kind") != "collective":
        ws.insert(rng.randint(0, len(ws)), rng.choice(["5", ["a"], "incast"]))
        text = dump_doc(doc)
        j = [k for k, x in enumerate(ws) if not isinstance(x, dict)][0]
        where = lines_of(text, ("workloads", j))
        return Case("bad-list-item", text, field="workloads[%d]" % j,
                    lines={where[1]} if where else None)
    group = w.get("group") or ["0"]
    j = rng.randrange(len(group) + 1)
    group.insert(j, rng.choice(["-1", "x", "1.5", {"a": "b"}, ["1"], "99999999999"]))
    w["group"] = group
    text = dump_doc(doc)
    where = lines_of(text, ("workloads", i, "group", j))
    return Case("bad-list-item", text, field="workloads[%d].group[%d]" % (i, j),
                lines={where[1]} if where else None)


def mutate_extreme(rng, schema, base):
    """A numeric key at the end of its range: valid on its own, so the scenario may load; what
    is checked is that the load neither hangs nor crashes (e.g. 65536 accelerators)."""
    doc = load_doc(dump_doc(base))
    keys = [(p, k) for p, k in settable_keys(schema, doc)
            if k["type"] in ("uint", "size", "time", "rate", "length", "double")
            and (k["min"] is not None or k["max"] is not None)
            and k["path"] != "stop"]  # stop 0 is no bound, not an extreme: it may never end
    path, key = rng.choice(keys)
    typ = key["type"]
    if key["max"] is not None and (key["min"] is None or rng.random() < 0.6):
        v = key["max"]
    else:
        v = key["min"] + (1 if key["min_exclusive"] and typ not in ("double", "length") else 0)
        if key["min_exclusive"] and typ in ("double", "length"):
            v = key["min"] + 1e-9
    set_path(doc, path, fmt_number(v, typ))
    return Case("extreme-value", dump_doc(doc), expect="any",
                note="%s = %s" % (path_str(path), fmt_number(v, typ)))


def mutate_missing(rng, schema, base):
    doc = load_doc(dump_doc(base))
    options = [("pod", "accelerators"), ("workloads",)]
    for i, w in enumerate(doc["workloads"]):
        options.append(("workloads", i, "kind"))
        if w.get("kind") in ("incast", "permutation", "all-to-all") and "size" in w:
            options.append(("workloads", i, "size"))
        if w.get("kind") == "incast":
            options.append(("workloads", i, "senders"))
        if w.get("kind") == "collective":
            options.append(("workloads", i, "collective"))
    for i, f in enumerate(doc.get("faults") or []):
        options += [("faults", i, "accelerator"), ("faults", i, "at"), ("faults", i, "kind")]
    path = rng.choice(options)
    parent = get(doc, path[:-1])
    if path[-1] not in parent:
        return None
    del parent[path[-1]]
    field = path_str(path)
    if path == ("pod", "accelerators") and rng.random() < 0.3:
        del doc["pod"]
    return Case("missing-key", dump_doc(doc), field=field)


def mutate_kind_key(rng, schema, base):
    """A key of another workload kind."""
    doc = load_doc(dump_doc(base))
    i = rng.randrange(len(doc["workloads"]))
    w = doc["workloads"][i]
    kind = w.get("kind")
    foreign = [k for k in schema.children("workloads[]") if k["kinds"] and kind not in k["kinds"]]
    k = rng.choice(foreign)
    name = k["path"].rpartition(".")[2]
    if k["type"] != "list":
        w[name] = "1"
    elif k["element"] == "map":
        w[name] = [{"name": "x", "kind": "compute"}]
    else:
        w[name] = ["1"]
    text = dump_doc(doc)
    where = lines_of(text, ("workloads", i, name))
    return Case("other-kind-key", text, field="workloads[%d].%s" % (i, name),
                lines={where[0]} if where else None)


def mutate_cross(rng, schema, base):
    """An impossible topology or workload: the field named is one of the keys involved."""
    doc = load_doc(dump_doc(base))
    pod = doc["pod"]
    fabric = pod.get("fabric", "ethernet")
    n = int(pod["accelerators"])
    ws = doc["workloads"]
    choices = ["radix", "incast-senders", "incast-receiver", "class", "dup-name", "fault",
               "group", "one-accelerator", "ports", "mesh", "dag"]
    c = rng.choice(choices)
    if c == "radix" and n >= 3 and fabric not in ("cell",) and pod.get("topology") != "mesh":
        pod.setdefault("switch", {})
        if rng.random() < 0.5 or n < 4:
            pod["switch"]["radix"] = "2"
            return Case("topology", dump_doc(doc), fields={"pod.switch.radix"})
        pod["switch"]["radix"] = "3"
        pod["switch"]["oversubscription"] = "3"
        return Case("topology", dump_doc(doc),
                    fields={"pod.switch.oversubscription", "pod.switch.radix"})
    if c == "incast-senders":
        ws.append({"kind": "incast", "senders": str(n + rng.choice([0, 5, 1000])), "size": "1KiB"})
        return Case("workload", dump_doc(doc), field="workloads[%d].senders" % (len(ws) - 1))
    if c == "incast-receiver":
        ws.append({"kind": "incast", "senders": "1", "receiver": str(n + rng.randint(0, 3)),
                   "size": "1KiB"})
        return Case("workload", dump_doc(doc), field="workloads[%d].receiver" % (len(ws) - 1))
    if c == "class":
        classes = int((pod.get("switch") or {}).get("classes", "8"))
        ws.append({"kind": "permutation", "class": str(classes), "size": "1KiB"})
        f = "workloads[%d].class" % (len(ws) - 1)
        return Case("workload", dump_doc(doc), fields={f, "workloads[%d].kind" % (len(ws) - 1)}
                    if n < 2 else {f})
    if c == "dup-name":
        ws.append({"kind": "all-to-all", "size": "1KiB", "name": "dup"})
        ws.append({"kind": "all-to-all", "size": "1KiB", "name": "dup"})
        return Case("workload", dump_doc(doc),
                    fields={"workloads[%d].name" % (len(ws) - 1), "workloads[%d].kind"
                            % (len(ws) - 2)})
    if c == "fault" and fabric not in ("ualink", "cell"):
        planes = int(pod.get("planes", "1"))
        if rng.random() < 0.5:
            doc["faults"] = [{"kind": "link-down", "accelerator": str(n), "at": "1us"}]
            return Case("fault", dump_doc(doc), field="faults[0].accelerator")
        doc["faults"] = [{"kind": "link-down", "accelerator": "0", "plane": str(planes),
                          "at": "1us"}]
        return Case("fault", dump_doc(doc), field="faults[0].plane")
    if c == "group":
        g = [str(min(n - 1, 1)), str(min(n - 1, 1))] if rng.random() < 0.5 else [str(n)]
        ws.append({"kind": "collective", "collective": "all-reduce", "size": "1KiB", "group": g})
        j = len(ws) - 1
        return Case("workload", dump_doc(doc),
                    fields={"workloads[%d].group[1]" % j, "workloads[%d].group[0]" % j})
    if c == "one-accelerator":
        pod["accelerators"] = "1"  # a collective or compute DAG on one accelerator is valid
        return Case("topology", dump_doc(doc), expect="any")
    if c == "ports" and fabric == "sue":
        pod["sue"]["ports"] = rng.choice(["3", "5", "8"])
        return Case("topology", dump_doc(doc), field="pod.sue.ports")
    if c == "mesh" and fabric != "sue":
        pod["topology"] = "mesh"
        return Case("topology", dump_doc(doc), field="pod.topology")
    if c == "dag":
        nodes = [{"name": "a", "kind": "compute", "deps": ["b"]},
                 {"name": "b", "kind": "compute", "deps": ["a"]}]
        sub = rng.choice(["cycle", "dangling", "dup"])
        if sub == "dangling":
            nodes[1]["deps"] = ["nowhere"]
            del nodes[0]["deps"]
        elif sub == "dup":
            nodes[1]["name"] = "a"
            del nodes[0]["deps"]
            del nodes[1]["deps"]
        ws.append({"kind": "dag", "nodes": nodes})
        j = len(ws) - 1
        return Case("dag", dump_doc(doc), fields={
            "workloads[%d].nodes[0].deps[0]" % j, "workloads[%d].nodes[1].deps[0]" % j,
            "workloads[%d].nodes[1].name" % j})
    return None


def text_case(rng, base_text, base_doc):
    """Malformed YAML, empty and binary files, and noise."""
    text = dump_doc(base_doc) if rng.random() < 0.7 else base_text
    lines = text.split("\n")
    kinds = ["tab", "unclosed-bracket", "unclosed-quote", "duplicate", "empty", "binary",
             "documents", "deep", "alias-bomb", "merge", "noise", "truncate", "bom-crlf", "tag",
             "not-a-map", "nul", "long", "comma"]
    # An alias bomb past the loader's value budget takes seconds: a third of the others' share.
    c = rng.choices(kinds, weights=[0.33 if k == "alias-bomb" else 1 for k in kinds])[0]
    if c == "tab":
        idx = [i for i, l in enumerate(lines) if l.startswith("  ") and ":" in l]
        if idx:
            i = rng.choice(idx)
            lines[i] = "\t" + lines[i].lstrip(" ")
        return Case("yaml-tab", "\n".join(lines), expect="any", field="")
    if c == "unclosed-bracket":
        i = rng.randrange(len(lines) + 1)
        lines.insert(i, rng.choice(["zq: [1, 2", "zq: {a: 1", "- [", "zq: [[[", "{"]))
        return Case("yaml-unclosed", "\n".join(lines), field="", fields=None, line0=False)
    if c == "unclosed-quote":
        lines.append(rng.choice(['name: "abc', "name: 'abc", 'zq: "\\x']))
        return Case("yaml-quote", "\n".join(lines), field="")
    if c == "duplicate":
        top = [l for l in lines if re.match(r"^[a-z][a-z-]*:", l)]
        key = rng.choice(top).split(":")[0]
        lines = [l for l in lines]
        while lines and lines[-1] == "":
            lines.pop()
        lines.append("%s: 1" % key)
        return Case("yaml-duplicate", "\n".join(lines) + "\n", field=key, lines={len(lines)})
    if c == "empty":
        return Case("empty", rng.choice(["", "\n", "   \n\n", "# nothing\n", "---\n", "~\n",
                                         "null\n", "...\n"]), field="", line0=True)
    if c == "binary":
        n = rng.randint(1, 4096)
        data = bytes(rng.getrandbits(8) for _ in range(n))
        return Case("binary", data, field="", line0=True)
    if c == "documents":
        return Case("yaml-documents", text + "---\n" + text, field="")
    if c == "deep":
        depth = rng.choice([100, 1000, 1999, 2500, 10000, 100000])
        style = rng.choice(["list", "map", "block"])
        if style == "list":
            value = "[" * depth + "]" * depth
        elif style == "map":
            value = "{a: " * depth + "1" + "}" * depth
        else:
            value = "".join("\n" + "  " * (k + 1) + "- " for k in range(min(depth, 3000))) + "1"
        key = rng.choice(["zqdeep", "pod", "workloads", "name"])
        d = load_doc(dump_doc(base_doc))
        d.pop(key, None)
        doc_text = dump_doc(d) + "%s: %s\n" % (key, value)
        # Shape errors at key's line, or a syntax error (yaml-cpp's depth limit).
        return Case("deep-nesting", doc_text, field=None, note="depth %d %s under %s"
                    % (depth, style, key), fields=None)
    if c == "alias-bomb":
        k = rng.choice([3, 5, 6, 8, 24])
        bomb = ["zqa0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
        for j in range(1, k):
            bomb.append("zqa%d: &a%d [%s]" % (j, j, ", ".join(["*a%d" % (j - 1)] * 10)))
        return Case("alias-bomb", text.rstrip("\n") + "\n" + "\n".join(bomb) + "\n",
                    field=None, note="%d levels of 10 aliases" % k)
    if c == "merge":
        return Case("yaml-merge", text.rstrip("\n") + "\nzqbase: &b {planes: 1}\n"
                    "zqpod:\n  <<: *b\n", field=None)
    if c == "noise":
        data = bytearray(text.encode("utf-8"))
        for _ in range(rng.randint(1, 5)):
            op = rng.choice(["flip", "insert", "delete"])
            i = rng.randrange(max(1, len(data)))
            if op == "flip" and data:
                data[i] = rng.choice(b":-[]{}#&*!|>'\"%@`,? \t\n0aZ\x00\xff")
            elif op == "insert":
                data[i:i] = bytes([rng.getrandbits(8)])
            elif data:
                del data[i]
        return Case("noise", bytes(data), expect="any", field=None, line0=True)
    if c == "truncate":
        data = text.encode("utf-8")
        return Case("truncate", data[: rng.randrange(len(data) + 1)], expect="any", field=None,
                    line0=True)
    if c == "bom-crlf":
        t = text.replace("\n", "\r\n") if rng.random() < 0.5 else text
        return Case("bom-crlf", ("\ufeff" if rng.random() < 0.5 else "") + t, expect="any",
                    field=None)
    if c == "tag":
        i = rng.randrange(len(lines))
        if ": " in lines[i]:
            a, b = lines[i].split(": ", 1)
            lines[i] = a + ": " + rng.choice(["!!str ", "!!int ", "!custom ", "!!binary "]) + b
        return Case("yaml-tag", "\n".join(lines), expect="any", field=None)
    if c == "comma":  # a ',' outside [] or {}: yaml-cpp's LoadAll never returned (finding)
        i = rng.randrange(len(lines) + 1)
        lines.insert(i, rng.choice([",", ", x", ",,", "- ,"]))
        return Case("yaml-comma", "\n".join(lines), expect="any", field=None)
    if c == "not-a-map":
        return Case("not-a-map", rng.choice(["- 1\n- 2\n", "just text\n", "42\n",
                                             "[pod, workloads]\n"]), field="")
    if c == "nul":
        i = rng.randrange(len(text) + 1)
        return Case("nul-byte", (text[:i] + "\x00" + text[i:]), expect="any", field=None,
                    line0=True)
    # A very long value under an unknown key.
    t = text.rstrip("\n")
    return Case("long-string", t + "\nzqlong: " + "x" * 200000 + "\n", field="zqlong",
                lines={t.count("\n") + 2})


DAG_FILE = "dag-fuzz.yaml"


def dag_file_case(rng, schema, base):
    """A DAG workload whose nodes are in a file beside the scenario, the file mutated: the error
    must name the DAG file, the line in it and the workload's field path."""
    doc = load_doc(dump_doc(base))
    n = int(doc["pod"]["accelerators"])
    nodes = gen_dag_nodes(rng, schema, max(n, 2) if n >= 2 else 1)
    for node in nodes:
        node.pop("algorithm", None)  # a random algorithm may not implement the collective
    dag = {"nodes": nodes}
    j = len(doc["workloads"])
    doc["workloads"].append({"kind": "dag", "file": DAG_FILE})
    c = rng.choice(["unknown", "bad", "cycle", "syntax", "shape", "empty", "extra-key"])
    field, lines = None, None
    if c == "unknown":
        k = rng.randrange(len(nodes))
        nodes[k]["zq-" + random_name(rng)] = "1"
        name = [x for x in nodes[k] if x.startswith("zq-")][0]
        text = dump_doc(dag)
        field = "workloads[%d].nodes[%d].%s" % (j, k, name)
        where = lines_of(text, ("nodes", k, name))
        lines = {where[0]} if where else None
    elif c == "bad":
        k = rng.randrange(len(nodes))
        nodes[k]["kind"] = "zq" + nodes[k]["kind"]
        text = dump_doc(dag)
        field = "workloads[%d].nodes[%d].kind" % (j, k)
        where = lines_of(text, ("nodes", k, "kind"))
        lines = {where[1]} if where else None
    elif c == "cycle":
        nodes.append({"name": "zqa", "kind": "compute", "deps": ["zqb"]})
        nodes.append({"name": "zqb", "kind": "compute", "deps": ["zqa"]})
        text = dump_doc(dag)
        field = "workloads[%d].nodes[%d].deps[0]" % (j, len(nodes) - 1)
    elif c == "syntax":
        text = dump_doc(dag).rstrip("\n") + "\n  - {name: [\n"
    elif c == "shape":
        text = rng.choice(["- 1\n", "nodes: 5\n", "nodes: {a: 1}\n", "just text\n"])
    elif c == "empty":
        text = rng.choice(["", "nodes: []\n", "~\n"])
    else:
        dag["zqextra"] = "1"
        text = dump_doc(dag)
        field = "workloads[%d].zqextra" % j
        lines = {text.count("\n")}
    case = Case("dag-file-" + c, dump_doc(doc), field=field, lines=lines,
                line0=c in ("empty",))
    case.extra = {DAG_FILE: text.encode("utf-8")}
    case.error_file = DAG_FILE
    return case


def override_case(rng, schema, base_text):
    """A valid file with one bad --set override: the error names --set, line 0 and the key."""
    keys = [k for k in schema.keys if k["type"] not in ("map", "list") and "[]" not in k["path"]]
    k = rng.choice(keys)
    c = rng.choice(["value", "unknown", "syntax", "index", "structure"])
    if c == "structure":
        key, value = rng.choice([
            ("workloads", "[{kind: incast}]"), ("workloads", "5"), ("workloads", "{a: 1}"),
            ("workloads", "[[[1]]]"), ("workloads", "[" * 3000 + "]" * 3000),
            ("pod", "5"), ("pod", "[1, 2]"), ("pod", "{accelerators: -1}"),
            ("pod.link", "{rate: fast}"), ("workloads[0]", "{kind: zq}"),
            ("workloads[0]", "*alias"), ("pod", "{a: &x [1], b: *x}"), ("pod", "{unclosed"),
            ("workloads[0].group", "[1, x]"), ("workloads[0].sender-list", "{a: 1}")])
        return Case("override", base_text, overrides=["%s=%s" % (key, value)], field=None,
                    line0=True, note="--set %s=%s" % (key, value[:40]))
    if c == "value":
        v = rng.choice(bad_values(k, rng))
        return Case("override", base_text, overrides=["%s=%s" % (k["path"], v)],
                    field=k["path"])
    if c == "unknown":
        key = k["path"] + "." + random_name(rng) if rng.random() < 0.5 else random_name(rng)
        return Case("override", base_text, overrides=["%s=1" % key], field=key)
    if c == "syntax":
        o = rng.choice(["novalue", "=5", "pod..planes=1", "pod.planes[=1", "[0]=1",
                        "workloads[x].size=1", "workloads[99999999999].size=1"])
        return Case("override", base_text, overrides=[o], field=None, line0=True)
    return Case("override", base_text, overrides=["workloads[%d].size=1KiB"
                                                  % rng.randint(5, 100)], field=None, line0=True)


# ---------------------------------------------------------------------------------------------
# Checking an answer.
# ---------------------------------------------------------------------------------------------

def check_error(case, ans, path):
    """None if the ScenarioError is well located, else what is wrong with it."""
    text, file, line, field = ans["text"], ans["file"], ans["line"], ans["field"]
    if case.overrides:
        if file != "--set":
            return "names file %r, not --set (the file is valid, the override is not)" % file
    elif case.error_file is not None:
        if Path(file).name != case.error_file:
            return "names file %r, not the DAG file %r" % (file, case.error_file)
    elif file != path:
        # A DAG file's error names that file (beside the scenario); nothing else may be named.
        if not (file.endswith(".yaml") and file.startswith(str(Path(path).parent))):
            return "names file %r, not %r" % (file, path)
    prefix = file + (":%d" % line if line else "") + ": " + (field + ": " if field else "")
    if not text.startswith(prefix) or not ans["message"] or text[len(prefix):] != ans["message"]:
        return "text %r is not FILE:LINE: FIELD: MESSAGE of its parts" % text[:300]
    if file == "--set":
        if line != 0:
            return "an override error with line %d" % line
        if case.field and field != case.field:
            return "names field %r, not %r" % (field, case.field)
        return None
    if line == 0 and not case.line0:
        return "no line"
    if case.field:
        if field != case.field:
            return "names field %r, not %r" % (field, case.field)
    elif case.fields:
        if field not in case.fields:
            return "names field %r, not one of %s" % (field, sorted(case.fields))
    if case.lines and line not in case.lines:
        return "line %d, not %s" % (line, sorted(case.lines))
    return None


# ---------------------------------------------------------------------------------------------
# Driver.
# ---------------------------------------------------------------------------------------------


def base_documents():
    """(name, text, doc) of the scenarios mutations start from."""
    out = []
    for p in sorted(EXAMPLES.glob("*.yaml")) + EXTRA_BASES:
        if p.is_file():
            text = p.read_text()
            # A study file (examples/scenarios/pod-1024.yaml) is not a scenario that loads
            # alone; its cases are plain scenarios, checked by the pod-study suite.
            if "\nstudy:" in "\n" + text:
                continue
            out.append((p.name, text, load_doc(text)))
    return out


class Fuzzer:
    def __init__(self, args):
        self.args = args
        self.rng = random.Random(args.seed)
        env = dict(os.environ)
        pp = [str(Path(args.build_dir) / "python")] + ([env["PYTHONPATH"]]
                                                        if env.get("PYTHONPATH") else [])
        env["PYTHONPATH"] = os.pathsep.join(pp)
        env.setdefault("NS_LOG", "")
        env.pop("NS_LOG", None)
        self.worker = Worker(sys.executable if not args.python else args.python, env,
                             args.mem_limit_mib * 1024 * 1024 if args.mem_limit_mib else 0)
        self.work = Path(tempfile.mkdtemp(prefix="podsim-fuzz-"))
        # DAG files of the examples, relative to the scenario's directory.
        if (EXAMPLES / "dags").is_dir():
            shutil.copytree(EXAMPLES / "dags", self.work / "dags")
        self.faildir = Path(args.failures)
        self.counts = {}
        self.failures = []
        self.bases = []

    def count(self, key):
        self.counts[key] = self.counts.get(key, 0) + 1

    def write(self, name, data):
        p = self.work / name
        p.write_bytes(data)
        return p

    def fail(self, index, case, path, why, ans, op="load"):
        """Save a failure whole (the scenario, every file beside it, case.json) in a directory
        of its own, so that --replay reproduces it."""
        self.failures.append((index, case.kind, why))
        stem = "seed%d-%05d-%s" % (self.args.seed, index, case.kind)
        out = self.faildir / stem
        if out.exists():
            shutil.rmtree(out)
        out.mkdir(parents=True)
        path = Path(path)
        shutil.copyfile(path, out / path.name)
        for name, data in case.extra.items():
            (out / name).parent.mkdir(parents=True, exist_ok=True)
            (out / name).write_bytes(data)
        # The DAG files the examples name (dags/...), beside every scenario here.
        src_dags = path.parent / "dags"
        if src_dags.is_dir() and not (out / "dags").exists():
            shutil.copytree(src_dags, out / "dags")
        info = {
            "scenario": path.name,
            "op": op,
            "index": index,
            "seed": self.args.seed,
            "kind": case.kind,
            "note": case.note,
            "why": why,
            "expect": case.expect,
            "field": case.field,
            "fields": sorted(case.fields) if case.fields else None,
            "lines": sorted(case.lines) if case.lines else None,
            "line0": case.line0,
            "error_file": case.error_file,
            "stop_ps": case.stop_ps,
            "overrides": case.overrides,
            "extra": sorted(case.extra),
            "answer": ans,
        }
        (out / "case.json").write_text(json.dumps(info, indent=2) + "\n")
        print("FAIL %s: %s (saved in %s; replay: %s --replay %s)"
              % (stem, why, out, Path(__file__).relative_to(ROOT), out), flush=True)

    def judge(self, index, case, path, ans):
        st = ans["status"]
        if st == "crash":
            return "crash (exit status %s): %s" % (ans.get("returncode"),
                                                   ans.get("stderr", "")[-500:])
        if st == "hang":
            return "no answer within %s s (hang)" % ans["timeout_s"]
        if st == "exception":
            return "%s instead of a ScenarioError: %s" % (ans["type"], ans["text"][:500])
        if st == "ok":
            if case.expect == "error":
                return "accepted, but the scenario is malformed (%s)" % case.note
            # Simulated progress: a run ends by its stop time (the last delivery may be earlier).
            if case.stop_ps and ans.get("sim_time_ps", 0) > case.stop_ps:
                return "ran to %d ps, past its stop time of %d ps" % (ans["sim_time_ps"],
                                                                       case.stop_ps)
            return None
        return check_error(case, ans, str(path))

    def one(self, index, case, op, name):
        path = self.write(name, case.data)
        for extra, data in case.extra.items():
            self.write(extra, data)
        timeout = self.args.run_timeout if op == "run" else self.args.load_timeout
        ans = self.worker.call({"op": op, "path": str(path), "overrides": case.overrides},
                               timeout)
        why = self.judge(index, case, path, ans)
        if why:
            self.fail(index, case, path, why, ans, op)
            self.count("failed")
        ans["passed"] = not why
        return ans

    def prepare(self):
        self.worker.start()
        ans = self.worker.call({"op": "schema"}, 60)
        if ans["status"] != "ok":
            raise RuntimeError("podsim.schema() failed: %s" % ans)
        self.schema = Schema(ans["schema"])
        for name, text, doc in base_documents():
            p = self.write("base-" + name, text.encode("utf-8"))
            a = self.worker.call({"op": "load", "path": str(p)}, 60)
            if a["status"] != "ok":
                raise RuntimeError("base scenario %s does not load: %s" % (name, a))
            self.bases.append((name, text, doc))
        # Generated valid scenarios make more bases (fabrics the examples lack: ualink).
        rng = random.Random(self.args.seed ^ 0x5EED)
        tries = 0
        while len(self.bases) < 40 and tries < 200:
            tries += 1
            doc = gen_valid(rng, self.schema, 100000 + tries)
            # Mutants of these bases are run: a stop bound keeps a mutant that adds bit errors
            # or faults to a stop-0 pod from running for ever (finding 9).
            doc["stop"] = "50us" if doc["stop"] == "0" else doc["stop"]
            text = dump_doc(doc)
            p = self.write("base-gen.yaml", text.encode("utf-8"))
            if self.worker.call({"op": "load", "path": str(p)}, 60)["status"] == "ok":
                self.bases.append(("generated-%d" % tries, text, doc))

    def malformed(self, rng):
        name, text, doc = rng.choice(self.bases)
        r = rng.random()
        s = self.schema
        case = None
        if r < 0.14:
            case = mutate_unknown_key(rng, s, doc)
        elif r < 0.34:
            case = mutate_bad_value(rng, s, doc, shape=False)
        elif r < 0.42:
            case = mutate_bad_value(rng, s, doc, shape=True)
        elif r < 0.47:
            case = mutate_list_item(rng, s, doc)
        elif r < 0.53:
            case = mutate_missing(rng, s, doc)
        elif r < 0.58:
            case = mutate_kind_key(rng, s, doc)
        elif r < 0.65:
            case = mutate_cross(rng, s, doc)
        elif r < 0.70:
            case = mutate_extreme(rng, s, doc)
        elif r < 0.90:
            case = text_case(rng, text, doc)
        elif r < 0.93:
            case = dag_file_case(rng, s, doc)
        else:
            case = override_case(rng, s, dump_doc(doc))
        if case is not None:
            case.note = (case.note + " " if case.note else "") + "(base %s)" % name
            # A generated base is small and has a stop time: what still loads can be run.
            case.runnable = name.startswith("generated-")
        return case

    def run(self):
        t0 = time.monotonic()
        self.prepare()
        rng = self.rng
        n_valid = 0
        for index in range(self.args.count):
            if rng.random() < self.args.valid_share:
                n_valid += 1
                doc = gen_valid(rng, self.schema, index)
                extra = {}
                for k, w in enumerate(doc["workloads"]):
                    if w["kind"] == "dag" and rng.random() < 0.3:  # nodes in a file beside
                        name = "dag-valid-%d.yaml" % k
                        extra[name] = dump_doc({"nodes": w.pop("nodes")}).encode("utf-8")
                        w["file"] = name
                case = Case("valid", dump_doc(doc), expect="run")
                case.extra = extra
                case.stop_ps = int(doc["stop"][:-2]) * 1000000 if doc["stop"] != "0" else 0
                ans = self.one(index, case, "run", "valid.yaml")
                if ans["status"] == "ok" and ans["passed"]:
                    self.count("ran")
                    if ans.get("deadlock") or ans.get("watchdog"):
                        self.count("deadlock-stopped")
                elif ans["status"] == "scenario-error" and ans["passed"]:
                    self.count("refused")
                if self.args.verbose:
                    print("%5d %-16s %s" % (index, "valid", ans.get("text", ans["status"])[:160]))
                continue
            case = None
            while case is None:
                case = self.malformed(rng)
            self.count("malformed")
            self.count("kind:" + case.kind)
            ans = self.one(index, case, "load", "case.yaml")
            if ans["passed"]:
                # Refused with a located error, or (a mutation that may leave the scenario
                # valid, expect "any") accepted.
                self.count("malformed-refused" if ans["status"] != "ok" else "malformed-valid")
            if self.args.verbose:
                print("%5d %-16s %s" % (index, case.kind, ans.get("text", ans["status"])[:160]))
            if ans["status"] == "ok" and case.runnable and case.expect == "any":
                # An extreme value or noise that loads: it must also run (or be refused).
                case.expect = "run"
                ans = self.one(index, case, "run", "case.yaml")
                if ans["passed"]:
                    self.count("mutant-ran" if ans["status"] == "ok" else "mutant-refused")
        # The fixed corpus of findings.
        reg = 0
        for p in sorted(REGRESSIONS.glob("*.yaml")) if self.args.regressions else []:
            reg += 1
            head = p.read_text(errors="replace").split("\n", 3)
            exp = {}
            for line in head[:3]:
                m = re.match(r"#\s*fuzz-expect:\s*(.*)", line)
                if m:
                    exp = dict(x.split("=", 1) for x in m.group(1).split())
            if exp.get("requires") and exp["requires"] not in self.schema.by_path:
                self.count("regressions-skipped")  # a key this build does not have yet
                continue
            case = Case("regression-" + p.stem, p.read_bytes(),
                        expect=exp.get("expect", "error"),
                        field=exp.get("field") or None,
                        lines={int(exp["line"])} if exp.get("line") else None)
            op = "run" if case.expect == "run" else "load"
            # Regressions load from their own directory (DAG files beside them).
            ans = self.worker.call({"op": op, "path": str(p), "overrides": None},
                                   self.args.run_timeout if op == "run"
                                   else self.args.load_timeout)
            why = self.judge(-reg, case, p, ans)
            if not why and exp.get("contains"):
                want = exp["contains"].replace("_", " ")
                if want not in ans.get("text", ""):
                    why = "the error does not say %r: %s" % (want, ans.get("text", ans))
            if why:
                self.fail(-reg, case, p, why, ans, op)
                self.count("failed")
        self.worker.stop()
        shutil.rmtree(self.work, ignore_errors=True)
        dt = time.monotonic() - t0
        c = self.counts
        n_mal = c.get("malformed", 0)
        kinds = ", ".join("%s %d" % (k[5:], v) for k, v in sorted(c.items())
                          if k.startswith("kind:"))
        print("mutations: " + kinds)
        failed = len(self.failures)
        crashes = sum(1 for f in self.failures if f[2].startswith("crash"))
        hangs = sum(1 for f in self.failures if "hang" in f[2])
        print("fuzz: %d scenarios (seed %d): %d mutated, %d refused with a located error, "
              "%d left valid by noise and loaded (%d of them run); %d valid: %d ran (%d stopped "
              "by a deadlock monitor or watchdog), %d refused with a located error; %d "
              "regressions (%d skipped); %d failures (%d crashes, %d hangs); worker restarts "
              "%d; %.1f s"
              % (self.args.count, self.args.seed, n_mal, c.get("malformed-refused", 0),
                 c.get("malformed-valid", 0), c.get("mutant-ran", 0) + c.get("mutant-refused", 0),
                 n_valid, c.get("ran", 0),
                 c.get("deadlock-stopped", 0), c.get("refused", 0), reg,
                 c.get("regressions-skipped", 0), failed, crashes, hangs,
                 self.worker.restarts, dt), flush=True)
        return failed


def replay(args):
    """Load or run a saved failure again (its directory: the scenario, the files beside it,
    case.json) and judge it as the fuzzer did: exit 1 if it still fails, 0 if it passes now."""
    d = Path(args.replay)
    info = json.loads((d / "case.json").read_text())
    path = d / info["scenario"]
    case = Case(info["kind"], path.read_bytes(), expect=info["expect"], field=info["field"],
                fields=set(info["fields"]) if info["fields"] else None,
                lines=set(info["lines"]) if info["lines"] else None,
                line0=info.get("line0", False), overrides=info["overrides"], note=info["note"])
    case.error_file = info.get("error_file")
    case.stop_ps = info.get("stop_ps", 0)
    args.failures = str(d / "replayed")
    fz = Fuzzer(args)
    try:
        timeout = args.run_timeout if info["op"] == "run" else args.load_timeout
        ans = fz.worker.call({"op": info["op"], "path": str(path), "overrides": info["overrides"]},
                             timeout)
        why = fz.judge(info["index"], case, path, ans)
    finally:
        fz.worker.stop()
        shutil.rmtree(fz.work, ignore_errors=True)
    print("replay %s (%s %s): %s" % (d.name, info["op"], info["scenario"],
                                     json.dumps({k: v for k, v in ans.items() if k != "stderr"})))
    print("replay: %s" % ("FAILS: " + why if why else "passes"))
    print("  (saved as: %s)" % info["why"])
    return 1 if why else 0


def parse_args(argv):
    """The fuzzer's options (see main)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, default=int(os.environ.get("PODSIM_FUZZ_COUNT", 1000)),
                    help="generated scenarios (default $PODSIM_FUZZ_COUNT or 1000)")
    ap.add_argument("--seed", type=int, default=int(os.environ.get("PODSIM_FUZZ_SEED", 1)))
    ap.add_argument("--valid-share", type=float, default=0.12,
                    help="share of random-but-valid scenarios, which are run (default 0.12)")
    ap.add_argument("--extreme-share", type=float, default=EXTREME_SHARE,
                    help="share of a valid scenario's random keys set to an end of their "
                         "range (default %(default)s)")
    ap.add_argument("--load-timeout", type=float, default=20.0,
                    help="seconds of the worker's CPU time a load may take before it counts as "
                         "a hang (a worker that uses no CPU: %d times as long)" % WALL_FACTOR)
    ap.add_argument("--run-timeout", type=float, default=60.0,
                    help="seconds of the worker's CPU time a run may take before it counts as a "
                         "hang")
    ap.add_argument("--mem-limit-mib", type=int, default=6144,
                    help="address space limit of the worker (0: none)")
    ap.add_argument("--build-dir", default=str(ROOT / "build"))
    ap.add_argument("--python", default="")
    ap.add_argument("--failures", default="results/fuzz-failures",
                    help="directory the failing scenarios are saved in")
    ap.add_argument("--no-regressions", dest="regressions", action="store_false",
                    help="skip the fixed corpus test/python/data/fuzz-regressions")
    ap.add_argument("--replay", metavar="DIR",
                    help="load or run a saved failure again (a directory of the failure "
                         "directory) and say whether it still fails")
    ap.add_argument("-v", "--verbose", action="store_true")
    return ap.parse_args(argv)


def main(argv=None):
    global EXTREME_SHARE
    if argv is None:
        argv = sys.argv[1:]
    if argv[:1] == ["--worker"]:
        worker_main()
        return 0
    args = parse_args(argv)
    EXTREME_SHARE = args.extreme_share
    if args.replay:
        return replay(args)
    return 1 if Fuzzer(args).run() else 0


if __name__ == "__main__":
    sys.exit(main())
