/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PYXIS_BINDINGS_H
#define PYXIS_BINDINGS_H

#include <pybind11/pybind11.h>

/**
 * \ingroup pyxis
 * Add the `pyxis` submodule (the UIE kernel model) to the `_podsim` extension.
 * \param parent the extension module
 */
void RegisterPyxis(pybind11::module_& parent);

#endif /* PYXIS_BINDINGS_H */
