# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
"""podsim for waf-era ns-3 trees (ns-3.35 and older).

Each module has its own wscript (src/<module>/wscript, generated from its CMakeLists.txt by
utils/sync-wscript.py). Link the module directories into the tree's contrib/ (one symlink per
module), or place this repository there as one directory: this file then recurses into every
module, in the dependency order of PODSIM_MODULES in the top-level CMakeLists.txt, so the two
builds cannot disagree on what the modules are.
"""

import os
import re


def _modules():
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "CMakeLists.txt")) as f:
        m = re.search(r"set\(PODSIM_MODULES\s+(.*?)\s*(?:CACHE|\))", f.read(), re.S)
    return ["src/" + name for name in m.group(1).split()]


def options(opt):
    pass


def configure(conf):
    for module in _modules():
        conf.recurse(module)


def build(bld):
    for module in _modules():
        bld.recurse(module)
