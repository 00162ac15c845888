/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_ROUTING_TABLE_H
#define FABRIC_ROUTING_TABLE_H

#include "ns3/object.h"

#include <map>
#include <vector>

namespace ns3
{

/**
 * \ingroup fabric
 * \brief Forwarding by destination accelerator id, with equal-cost port groups.
 *
 * Routes are computed from the pod graph (src/pod) and installed per destination as a set of
 * equal-cost egress ports. Identical sets are stored once (a leaf's uplink group serves every
 * remote destination), so a table costs one 32-bit index per destination plus its distinct
 * groups. Lookup() picks a port of the group by the unit's flow hash (ECMP).
 */
class FabricRoutingTable : public Object
{
  public:
    static constexpr uint32_t NO_PORT = 0xffffffff; //!< no route

    static TypeId GetTypeId();
    FabricRoutingTable();
    ~FabricRoutingTable() override;

    /**
     * \param dst destination accelerator
     * \param ports equal-cost egress ports (not empty)
     */
    void SetRoute(uint32_t dst, const std::vector<uint32_t>& ports);

    /**
     * \param dst destination accelerator
     * \param hash flow hash
     * \return the egress port, or NO_PORT
     */
    uint32_t Lookup(uint32_t dst, uint32_t hash) const
    {
        if (dst >= m_dstToGroup.size() || m_dstToGroup[dst] == NO_PORT)
        {
            return NO_PORT;
        }
        const std::vector<uint32_t>& g = m_groups[m_dstToGroup[dst]];
        return g.size() == 1 ? g[0] : g[hash % g.size()];
    }

    /**
     * \param dst destination accelerator
     * \return the equal-cost ports toward dst (empty if none)
     */
    std::vector<uint32_t> GetPorts(uint32_t dst) const;

    /**
     * \brief The equal-cost ports toward a destination, without a copy (for analyses that visit
     * every destination of every switch, such as the channel dependency check of src/pod).
     * \param dst destination accelerator
     * \return the ports, sorted (empty if none); valid until the next SetRoute()
     */
    const std::vector<uint32_t>& GetPortGroup(uint32_t dst) const;

    /// \return the size of the destination index: destinations 0 to this minus 1 may have routes
    uint32_t GetNDestinations() const
    {
        return m_dstToGroup.size();
    }

    /// \return number of distinct port groups
    std::size_t GetNGroups() const
    {
        return m_groups.size();
    }

  private:
    std::vector<uint32_t> m_dstToGroup;                //!< destination -> group index
    std::vector<std::vector<uint32_t>> m_groups;       //!< distinct port groups
    std::map<std::vector<uint32_t>, uint32_t> m_index; //!< group -> index (build time)
};

} // namespace ns3

#endif /* FABRIC_ROUTING_TABLE_H */
