/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-config-reader.h"

namespace ns3
{

FabricConfigReader::~FabricConfigReader() = default;

} // namespace ns3
