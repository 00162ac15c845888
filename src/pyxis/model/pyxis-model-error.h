/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PYXIS_MODEL_ERROR_H
#define PYXIS_MODEL_ERROR_H

#include "ns3/fabric-input-error.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup pyxis
 * \brief An error in a Pyxis model file: the file, line and field it is about, and what is
 * wrong.
 *
 * what() is `FILE:LINE: FIELD: MESSAGE`, the format of the pod module's ScenarioError, e.g.
 * `tiny.yaml:12: layers[1].heads: must be at least 1 (got 0)`. A LINE of 0 (unknown) is left
 * out and so is an empty FIELD. Control characters are written as `\xHH` (FabricInputError).
 */
class PyxisModelError : public FabricInputError
{
  public:
    /**
     * Constructor.
     * \param file the model file as given by the user
     * \param line 1-based line number, 0 if unknown
     * \param field dotted path of the field, e.g. "parallelism.tensor" or "layers[2].ffn";
     * empty when the error is about the whole file
     * \param message what is wrong, e.g. "must be at least 1 (got 0)"
     */
    PyxisModelError(const std::string& file,
                    uint32_t line,
                    const std::string& field,
                    const std::string& message);
};

} // namespace ns3

#endif /* PYXIS_MODEL_ERROR_H */
