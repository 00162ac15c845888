/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ualink-atomic-memory.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("UalinkAtomicMemory");
NS_OBJECT_ENSURE_REGISTERED(UalinkAtomicMemory);

TypeId
UalinkAtomicMemory::GetTypeId()
{
    static TypeId tid = TypeId("ns3::UalinkAtomicMemory")
                            .SetParent<Object>()
                            .SetGroupName("Ualink")
                            .AddConstructor<UalinkAtomicMemory>();
    return tid;
}

UalinkAtomicMemory::UalinkAtomicMemory()
{
    NS_LOG_FUNCTION(this);
}

UalinkAtomicMemory::~UalinkAtomicMemory()
{
    NS_LOG_FUNCTION(this);
}

uint64_t
UalinkAtomicMemory::FetchAdd(uint64_t addr, uint64_t operand, uint32_t bytes, bool returnsData)
{
    NS_LOG_FUNCTION(this << addr << operand << bytes << returnsData);
    NS_ABORT_MSG_IF(!IsValidSize(bytes),
                    "UalinkAtomicMemory: an atomic add of " << bytes << " B (1, 2, 4 or 8)");
    const uint64_t mask = bytes == 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * bytes)) - 1;
    uint64_t& w = m_words[addr];
    const uint64_t old = w & mask;
    w = (old + operand) & mask;
    ++m_stats.applied;
    m_stats.returningValue += returnsData ? 1 : 0;
    return old;
}

uint64_t
UalinkAtomicMemory::Read(uint64_t addr) const
{
    auto it = m_words.find(addr);
    return it == m_words.end() ? 0 : it->second;
}

} // namespace ns3
