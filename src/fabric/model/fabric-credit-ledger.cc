/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-credit-ledger.h"

namespace ns3
{

FabricCreditLedger::FabricCreditLedger(uint32_t counters)
    : m_c(counters)
{
}

void
FabricCreditLedger::Reset(uint32_t counters)
{
    m_c.assign(counters, Counter{});
}

void
FabricCreditLedger::Refill()
{
    for (Counter& c : m_c)
    {
        c.available = c.advertised;
    }
}

void
FabricCreditLedger::Empty()
{
    for (Counter& c : m_c)
    {
        c.available = 0;
    }
}

uint64_t
FabricCreditLedger::ClampToAdvertised(uint32_t i)
{
    Counter& c = m_c[i];
    if (c.available <= c.advertised)
    {
        return 0;
    }
    const uint64_t excess = c.available - c.advertised;
    c.available = c.advertised;
    return excess;
}

} // namespace ns3
