# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""The podsim-run processes of a study or a sweep (utils/study.py, utils/sweep.py), so that
Ctrl-C (SIGINT) stops them all and starts no more."""

import signal
import subprocess
import threading
import time


class Children:
    """Runs commands as child processes from worker threads; stop() ends them."""

    def __init__(self):
        self.lock = threading.Lock()
        self.running = set()
        self.stopping = False

    def run(self, cmd, on_start=None):
        """(exit status, stdout, stderr) of cmd, or None once stopping (nothing started).
        on_start: called once the process has started."""
        with self.lock:
            if self.stopping:
                return None
            p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            self.running.add(p)
        if on_start is not None:
            on_start()
        try:
            out, err = p.communicate()
        finally:
            with self.lock:
                self.running.discard(p)
        return p.returncode, out, err

    def stop(self, grace=1.0):
        """Start nothing more; SIGINT the running ones (podsim-run stops its simulation), and
        kill those still running after grace seconds."""
        with self.lock:
            self.stopping = True
            running = list(self.running)
        for p in running:
            if p.poll() is None:
                p.send_signal(signal.SIGINT)
        deadline = time.monotonic() + grace
        for p in running:
            try:
                p.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
