/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PYXIS_MODEL_LOADER_H
#define PYXIS_MODEL_LOADER_H

#include "pyxis-model-spec.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup pyxis
 * \brief Reads a Pyxis model file (YAML) into a PyxisModelSpec.
 *
 * The file is a map with `name`, `parallelism` and `layers` (src/pyxis/doc/pyxis.rst lists
 * every key, its type, default and unit; examples/pyxis/ has examples). Every key is checked:
 * an unknown key, a duplicate key, a value of the wrong type or out of range, a missing
 * required key, or a shape that the tensor-parallel degree does not divide stops the load with
 * a PyxisModelError naming the file, the line and the field (`layers[1].heads`).
 */
class PyxisModelLoader
{
  public:
    static constexpr uint32_t MAX_TENSOR = 144;      //!< any-to-any chips of one fabric (spec 1)
    static constexpr uint32_t MAX_DATA = 4096;       //!< data-parallel replicas
    static constexpr uint32_t MAX_LAYERS = 100000;   //!< layers after expanding repeats
    static constexpr uint64_t MAX_ROWS = 1ULL << 24; //!< tokens * batch of a layer

    /**
     * Read a model file.
     * \param path the file
     * \return the model
     * \throws PyxisModelError on any error (file, line, field, message)
     */
    static PyxisModelSpec LoadFile(const std::string& path);

    /**
     * Read a model from text.
     * \param text the YAML text
     * \param file the name errors give (and the default model name's source)
     * \return the model
     * \throws PyxisModelError on any error
     */
    static PyxisModelSpec LoadString(const std::string& text, const std::string& file);
};

} // namespace ns3

#endif /* PYXIS_MODEL_LOADER_H */
