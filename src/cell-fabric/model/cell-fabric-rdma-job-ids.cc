/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cell-fabric-rdma-job-ids.h"

#include "ns3/assert.h"

#include <sstream>

namespace ns3
{

void
CellFabricRdmaJobIds::Configure(uint32_t clusters)
{
    m_ids.assign(static_cast<size_t>(clusters) * IDS, Entry());
}

bool
CellFabricRdmaJobIds::Acquire(uint32_t cluster, uint32_t id, uint8_t& epoch, std::string& error)
{
    std::ostringstream why;
    if (cluster >= m_ids.size() / IDS)
    {
        why << "no cluster " << cluster << " (the chip has " << m_ids.size() / IDS << ")";
    }
    else if (id >= IDS)
    {
        why << "job id " << id << " is not 8 bits (0 to 255, 10.4)";
    }
    else if (m_ids[cluster * IDS + id].state == ACTIVE)
    {
        why << "job id " << id << " of cluster " << cluster
            << " is active (one job per id: 256 active jobs per cluster at most, 10.4)";
    }
    else if (m_ids[cluster * IDS + id].state == FAILED)
    {
        why << "job id " << id << " of cluster " << cluster
            << " failed and is not released (failed-job vector, 11.8)";
    }
    if (!why.str().empty())
    {
        error = why.str();
        return false;
    }
    Entry& e = m_ids[cluster * IDS + id];
    e.state = ACTIVE;
    epoch = e.epoch;
    e.epoch ^= 1; // incremented on each invocation (one bit)
    return true;
}

void
CellFabricRdmaJobIds::Retire(uint32_t cluster, uint32_t id)
{
    NS_ASSERT_MSG(GetState(cluster, id) == ACTIVE, "retiring an id that is not active");
    m_ids[cluster * IDS + id].state = FREE;
}

void
CellFabricRdmaJobIds::Fail(uint32_t cluster, uint32_t id)
{
    NS_ASSERT_MSG(GetState(cluster, id) != FREE, "failing an id with no job");
    m_ids[cluster * IDS + id].state = FAILED;
}

std::vector<uint32_t>
CellFabricRdmaJobIds::ReleaseFailed(uint32_t cluster)
{
    std::vector<uint32_t> released;
    for (uint32_t id = 0; id < IDS; ++id)
    {
        Entry& e = m_ids.at(cluster * IDS + id);
        if (e.state == FAILED)
        {
            e.state = FREE;
            released.push_back(id);
        }
    }
    return released;
}

CellFabricRdmaJobIds::State
CellFabricRdmaJobIds::GetState(uint32_t cluster, uint32_t id) const
{
    return m_ids.at(cluster * IDS + id).state;
}

std::bitset<CellFabricRdmaJobIds::IDS>
CellFabricRdmaJobIds::GetFailed(uint32_t cluster) const
{
    std::bitset<IDS> failed;
    for (uint32_t id = 0; id < IDS; ++id)
    {
        failed[id] = m_ids.at(cluster * IDS + id).state == FAILED;
    }
    return failed;
}

uint32_t
CellFabricRdmaJobIds::GetActive(uint32_t cluster) const
{
    uint32_t n = 0;
    for (uint32_t id = 0; id < IDS; ++id)
    {
        n += m_ids.at(cluster * IDS + id).state == ACTIVE;
    }
    return n;
}

} // namespace ns3
