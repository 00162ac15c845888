/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pyxis-model-error.h"

namespace ns3
{

PyxisModelError::PyxisModelError(const std::string& file,
                                 uint32_t line,
                                 const std::string& field,
                                 const std::string& message)
    : FabricInputError(file, line, field, message)
{
}

} // namespace ns3
