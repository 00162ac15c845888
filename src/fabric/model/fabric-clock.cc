/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-clock.h"

namespace ns3
{

const void* FabricClock::m_owner = nullptr;
uint64_t FabricClock::m_ts = 0;

} // namespace ns3
