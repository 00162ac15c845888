# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""Checks of an output path before anything runs (utils/study.py, utils/sweep.py, utils/rails.py).

Results files are written under a temporary name beside the file and renamed over it, so the
path must be a regular file or not exist: a directory, a device, a FIFO or a socket would be
replaced by the rename (as root, /dev/null itself) or make it fail after the whole run. The same
rules as podsim-run's (ResultsWriter::CheckOutputPath, src/pod/model/results-writer.h).
"""

import os
import stat


def _kind(mode):
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def output_path_problem(path, temporaries=(".tmp", ".partial")):
    """None when results may be written to path, else what is wrong, in words. Nothing is
    created. temporaries: the suffixes of the temporary files written beside it."""
    path = os.fspath(path)
    if not path:
        return "empty path"
    for p, what in [(path, "")] + [(path + t, " (the temporary file)") for t in temporaries]:
        try:
            st = os.stat(p)
        except FileNotFoundError:
            continue
        except OSError as e:
            return f"{p}: {e.strerror}"
        if not stat.S_ISREG(st.st_mode):
            return (f"{p}{what}: is {_kind(st.st_mode)}: results are written to a new file "
                    "beside it and renamed over it, so the path must be a regular file or not "
                    "exist")
    d = os.path.dirname(os.path.abspath(path))
    while not os.path.exists(d) and os.path.dirname(d) != d:
        d = os.path.dirname(d)
    if not os.path.isdir(d):
        return f"{path}: {d} is not a directory"
    if not os.access(d, os.W_OK | os.X_OK):
        return f"{path}: cannot create files in {d}"
    return None


def check_output_path(path, prog):
    """Exit with status 2 and the problem on stderr when results may not be written to path."""
    problem = output_path_problem(path)
    if problem:
        raise SystemExit(f"{prog}: error: {problem} (nothing was run)")
