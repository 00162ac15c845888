/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ualink-address-cache.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("UalinkAddressCache");
NS_OBJECT_ENSURE_REGISTERED(UalinkAddressCache);

namespace
{
/// The cached part of an address: ReqAddr[56:20] (section 5.5).
constexpr uint32_t REGION_SHIFT = 20;
} // namespace

TypeId
UalinkAddressCache::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::UalinkAddressCache")
            .SetParent<Object>()
            .SetGroupName("Ualink")
            .AddConstructor<UalinkAddressCache>()
            .AddAttribute("Ways",
                          "Ways per congruence class (section 5.5: up to, and typically, 4).",
                          UintegerValue(4),
                          MakeUintegerAccessor(&UalinkAddressCache::m_ways),
                          MakeUintegerChecker<uint32_t>(1, 4))
            .AddAttribute("Rows",
                          "Congruence classes, one per accelerator id (section 5.5: up to 1024).",
                          UintegerValue(1024),
                          MakeUintegerAccessor(&UalinkAddressCache::m_rows),
                          MakeUintegerChecker<uint32_t>(1, 1024));
    return tid;
}

UalinkAddressCache::UalinkAddressCache()
{
    NS_LOG_FUNCTION(this);
}

UalinkAddressCache::~UalinkAddressCache()
{
    NS_LOG_FUNCTION(this);
}

void
UalinkAddressCache::Allocate()
{
    m_entries.assign(static_cast<std::size_t>(m_rows) * m_ways, Entry{});
}

UalinkAddressCache::Result
UalinkAddressCache::Access(uint16_t row, uint64_t addr)
{
    NS_LOG_FUNCTION(this << row << addr);
    if (m_entries.empty())
    {
        Allocate();
    }
    NS_ABORT_MSG_IF(row >= m_rows,
                    "UalinkAddressCache: row " << row << " beyond " << m_rows << " rows");
    const uint32_t region = static_cast<uint32_t>(addr >> REGION_SHIFT);
    Entry* base = &m_entries[static_cast<std::size_t>(row) * m_ways];
    if (++m_clock == 0)
    {
        m_clock = 1; // after 2^32 accesses the LRU order restarts (0 marks invalid entries)
    }
    int invalid = -1;
    uint32_t lru = 0;
    for (uint32_t w = 0; w < m_ways; ++w)
    {
        if (base[w].used != 0 && base[w].region == region)
        {
            base[w].used = m_clock;
            return Result{true, static_cast<uint8_t>(w)};
        }
        if (base[w].used == 0 && invalid < 0)
        {
            invalid = static_cast<int>(w);
        }
        if (base[w].used != 0 && base[w].used < base[lru].used)
        {
            lru = w;
        }
    }
    // An invalid way if there is one, else the least recently used way.
    const uint32_t victim = invalid >= 0 ? static_cast<uint32_t>(invalid) : lru;
    base[victim] = Entry{region, m_clock};
    NS_LOG_LOGIC("miss: row " << row << " loads way " << victim);
    return Result{false, static_cast<uint8_t>(victim)};
}

bool
UalinkAddressCache::Contains(uint16_t row, uint64_t addr) const
{
    if (m_entries.empty() || row >= m_rows)
    {
        return false;
    }
    const uint32_t region = static_cast<uint32_t>(addr >> REGION_SHIFT);
    const Entry* base = &m_entries[static_cast<std::size_t>(row) * m_ways];
    for (uint32_t w = 0; w < m_ways; ++w)
    {
        if (base[w].used != 0 && base[w].region == region)
        {
            return true;
        }
    }
    return false;
}

void
UalinkAddressCache::Clear()
{
    NS_LOG_FUNCTION(this);
    m_entries.clear();
}

} // namespace ns3
