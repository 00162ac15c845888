/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cell-fabric-voq-table.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CellFabricVoqTable");

CellFabricVoqTable::CellFabricVoqTable(uint32_t clusters)
    : m_clusters(clusters),
      m_map(GROUPS, UNMAPPED),
      m_high(VOQS, false),
      m_profile(VOQS, 0)
{
    NS_ABORT_MSG_IF(clusters == 0, "CellFabricVoqTable: a chip has at least one cluster");
}

bool
CellFabricVoqTable::IsLegalVpfe(uint32_t vpfe)
{
    return vpfe < VPFES && (vpfe & 3) != 3;
}

uint32_t
CellFabricVoqTable::GetVpfe(uint32_t chip, uint32_t cluster) const
{
    const uint64_t n = static_cast<uint64_t>(chip) * m_clusters + cluster;
    if (cluster >= m_clusters || n >= LEGAL_VPFES)
    {
        return UNMAPPED;
    }
    // the n-th legal VPFE: three of every four (VPFE[1:0] != 3)
    return static_cast<uint32_t>(n / 3 * 4 + n % 3);
}

void
CellFabricVoqTable::GetChipCluster(uint32_t vpfe, uint32_t& chip, uint32_t& cluster) const
{
    NS_ABORT_MSG_UNLESS(IsLegalVpfe(vpfe), "CellFabricVoqTable: VPFE " << vpfe << " is illegal");
    const uint32_t n = vpfe / 4 * 3 + vpfe % 4;
    chip = n / m_clusters;
    cluster = n % m_clusters;
}

void
CellFabricVoqTable::SetDefaultMap()
{
    for (uint32_t g = 0; g < GROUPS; ++g)
    {
        m_map[g] = g < LEGAL_VPFES ? g / 3 * 4 + g % 3 : UNMAPPED;
    }
}

bool
CellFabricVoqTable::Map(uint32_t group, uint32_t vpfe, std::string& error)
{
    if (group >= GROUPS)
    {
        error = "VOQ group " + std::to_string(group) + " is not below " + std::to_string(GROUPS) +
                " (VOQ[12:2], Pyxis spec 10.2)";
        return false;
    }
    if (vpfe != UNMAPPED && !IsLegalVpfe(vpfe))
    {
        error = "VPFE " + std::to_string(vpfe) +
                " is not legal: below 2048 with VPFE[1:0] != 3 (Pyxis spec 10.2)";
        return false;
    }
    m_map[group] = vpfe;
    return true;
}

bool
CellFabricVoqTable::Lookup(uint32_t voq, Target& t, std::string& error) const
{
    if (voq >= VOQS)
    {
        error = "VOQ id " + std::to_string(voq) + " does not fit in 13 bits (below " +
                std::to_string(VOQS) + ", Pyxis spec 10.2)";
        return false;
    }
    const uint32_t vpfe = m_map[voq / OQS_PER_VPFE];
    if (vpfe == UNMAPPED)
    {
        error = "VOQ id " + std::to_string(voq) + ": its group " +
                std::to_string(voq / OQS_PER_VPFE) + " maps to no VPFE";
        return false;
    }
    t.vpfe = vpfe;
    t.oq = voq % OQS_PER_VPFE;
    GetChipCluster(vpfe, t.chip, t.cluster);
    return true;
}

uint32_t
CellFabricVoqTable::GetDefaultVoq(uint32_t chip, uint32_t cluster, uint32_t oq) const
{
    const uint64_t n = static_cast<uint64_t>(chip) * m_clusters + cluster;
    if (cluster >= m_clusters || oq >= OQS_PER_VPFE || n >= LEGAL_VPFES)
    {
        return UNMAPPED;
    }
    return static_cast<uint32_t>(n * OQS_PER_VPFE + oq);
}

void
CellFabricVoqTable::SetHighPriority(uint32_t voq, bool high)
{
    NS_ABORT_MSG_IF(voq >= VOQS, "CellFabricVoqTable: VOQ id " << voq << " is not below 2^13");
    m_high[voq] = high;
}

bool
CellFabricVoqTable::IsHighPriority(uint32_t voq) const
{
    return voq < VOQS && m_high[voq];
}

void
CellFabricVoqTable::SetProfile(uint32_t voq, uint32_t profile)
{
    NS_ABORT_MSG_IF(voq >= VOQS, "CellFabricVoqTable: VOQ id " << voq << " is not below 2^13");
    NS_ABORT_MSG_IF(profile >= PROFILES,
                    "CellFabricVoqTable: occupancy profile " << profile << " is not below 8");
    m_profile[voq] = static_cast<uint8_t>(profile);
}

uint32_t
CellFabricVoqTable::GetProfile(uint32_t voq) const
{
    return voq < VOQS ? m_profile[voq] : 0;
}

} // namespace ns3
