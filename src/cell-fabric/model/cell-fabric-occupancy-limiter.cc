/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cell-fabric-occupancy-limiter.h"

#include "ns3/abort.h"
#include "ns3/assert.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CellFabricOccupancyLimiter");

CellFabricOccupancyLimiter::CellFabricOccupancyLimiter()
{
    Configure(1024, 1024, 1024, 1024, 64);
}

void
CellFabricOccupancyLimiter::Configure(uint32_t qpages,
                                      uint32_t clusterQPages,
                                      uint32_t highGroupPages,
                                      uint32_t lowGroupPages,
                                      uint32_t defaultXoff)
{
    NS_ABORT_MSG_IF(qpages == 0 || clusterQPages == 0 || highGroupPages == 0 ||
                        lowGroupPages == 0 || defaultXoff == 0,
                    "CellFabricOccupancyLimiter: every limit must be at least 1");
    m_qpages = qpages;
    m_clusterQPages = clusterQPages;
    m_groupPages[0] = lowGroupPages;
    m_groupPages[1] = highGroupPages;
    for (Profile& p : m_profiles)
    {
        p.xoff = defaultXoff;
        p.xon = defaultXoff - 1;
    }
}

bool
CellFabricOccupancyLimiter::CheckProfile(uint32_t xoff, uint32_t xon, std::string& error)
{
    if (xoff == 0)
    {
        error = "xoff must be at least 1 page";
        return false;
    }
    if (xon >= xoff)
    {
        error = "xon (" + std::to_string(xon) + ") must be below xoff (" + std::to_string(xoff) +
                "): generation stops at xoff and resumes at xon (Pyxis spec 10.7.3.1)";
        return false;
    }
    return true;
}

void
CellFabricOccupancyLimiter::SetProfile(uint32_t i, uint32_t xoff, uint32_t xon)
{
    std::string error;
    NS_ABORT_MSG_IF(i >= PROFILES, "CellFabricOccupancyLimiter: profile " << i << " not below 8");
    NS_ABORT_MSG_UNLESS(CheckProfile(xoff, xon, error),
                        "CellFabricOccupancyLimiter: profile " << i << ": " << error);
    m_profiles[i] = {xoff, xon};
}

const CellFabricOccupancyLimiter::Profile&
CellFabricOccupancyLimiter::GetProfile(uint32_t i) const
{
    NS_ABORT_MSG_IF(i >= PROFILES, "CellFabricOccupancyLimiter: profile " << i << " not below 8");
    return m_profiles[i];
}

CellFabricOccupancyLimiter::Block
CellFabricOccupancyLimiter::Check(uint32_t cluster, uint64_t voq, uint32_t profile, bool high) const
{
    const auto it = m_voq.find(Key(cluster, voq));
    if (it != m_voq.end() && (it->second.off || it->second.pages >= GetProfile(profile).xoff))
    {
        return XOFF;
    }
    if (cluster < m_groupCount.size() && m_groupCount[cluster][high] >= m_groupPages[high])
    {
        return GROUP;
    }
    if (cluster < m_clusterPages.size() && m_clusterPages[cluster] >= m_clusterQPages)
    {
        return CLUSTER;
    }
    if (m_entries.size() >= m_qpages)
    {
        return POOL;
    }
    return NONE;
}

uint32_t
CellFabricOccupancyLimiter::Allocate(uint64_t handle,
                                     uint32_t cluster,
                                     uint64_t voq,
                                     uint32_t profile,
                                     bool high)
{
    NS_ASSERT_MSG(Check(cluster, voq, profile, high) == NONE, "page generated past a limit");
    const bool fresh = m_entries.emplace(handle, Entry{cluster, voq, profile, high}).second;
    NS_ABORT_MSG_UNLESS(fresh, "CellFabricOccupancyLimiter: QPage handle " << handle << " in use");
    if (cluster >= m_clusterPages.size())
    {
        m_clusterPages.resize(cluster + 1, 0);
        m_groupCount.resize(cluster + 1, {0, 0});
    }
    ++m_clusterPages[cluster];
    ++m_groupCount[cluster][high];
    m_stats.peakInUse = std::max<uint32_t>(m_stats.peakInUse, m_entries.size());
    VoqCount& v = m_voq[Key(cluster, voq)];
    ++v.pages;
    if (v.pages >= GetProfile(profile).xoff)
    {
        v.off = true; // XOFF: every channel of this VOQ stops (10.7.3.1)
        ++m_stats.xoffs;
    }
    return v.pages;
}

bool
CellFabricOccupancyLimiter::Free(uint64_t handle)
{
    const auto it = m_entries.find(handle);
    if (it == m_entries.end())
    {
        return false;
    }
    const Entry e = it->second;
    m_entries.erase(it);
    --m_clusterPages[e.cluster];
    --m_groupCount[e.cluster][e.high];
    const auto vt = m_voq.find(Key(e.cluster, e.voq));
    NS_ASSERT(vt != m_voq.end() && vt->second.pages > 0);
    VoqCount& v = vt->second;
    --v.pages;
    if (v.off && v.pages <= GetProfile(e.profile).xon)
    {
        v.off = false; // XON: the VOQ generates again (10.7.3.1)
        ++m_stats.xons;
    }
    if (v.pages == 0 && !v.off)
    {
        m_voq.erase(vt);
    }
    return true;
}

uint32_t
CellFabricOccupancyLimiter::GetOutstanding(uint32_t cluster, uint64_t voq) const
{
    const auto it = m_voq.find(Key(cluster, voq));
    return it == m_voq.end() ? 0 : it->second.pages;
}

std::vector<std::pair<uint64_t, uint32_t>>
CellFabricOccupancyLimiter::GetVoqCounts() const
{
    std::vector<std::pair<uint64_t, uint32_t>> out;
    for (const auto& [key, v] : m_voq)
    {
        if (v.pages > 0)
        {
            out.emplace_back(key.second, v.pages);
        }
    }
    return out;
}

} // namespace ns3
