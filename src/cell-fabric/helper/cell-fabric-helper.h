/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CELL_FABRIC_HELPER_H
#define CELL_FABRIC_HELPER_H

#include "ns3/cell-fabric-adapter.h"
#include "ns3/fabric-link-helper.h"
#include "ns3/fabric-switch-helper.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"

#include <memory>
#include <vector>

namespace ns3
{

class FabricSwitch;

/**
 * \ingroup cell-fabric
 * \brief Builds a cell fabric: one CellFabricAdapter per chip and single-stage cell-switch
 * planes, chip link p to plane p (the any-to-any fabric of up to 144 chips, seed 004 1, 5.3;
 * digest 5.9).
 *
 * A plane is a FabricSwitch (output-queued, forwarding each unit by destination chip) with one
 * port per chip. Links are FabricChannels at LinkRate with 0 interframe bytes (the cell header
 * is the adapter's CellHeaderBytes).
 */
class CellFabricHelper
{
  public:
    CellFabricHelper();

    /**
     * \param name an attribute of ns3::CellFabricAdapter
     * \param value its value
     */
    void SetAdapterAttribute(std::string name, const AttributeValue& value);
    /**
     * \param name an attribute of ns3::FabricChannel
     * \param value its value
     */
    void SetChannelAttribute(std::string name, const AttributeValue& value);
    /**
     * \param name an attribute of ns3::FabricSwitch
     * \param value its value
     */
    void SetSwitchAttribute(std::string name, const AttributeValue& value);
    /**
     * \param name an attribute of ns3::FabricSharedBuffer (a plane's buffer)
     * \param value its value
     */
    void SetBufferAttribute(std::string name, const AttributeValue& value);
    /// \param ports ports of a cell switch (144 by default, digest 7.1)
    void SetSwitchPorts(uint32_t ports);

    /**
     * Build the fabric. Aborts with a clear error if there are more chips than switch ports.
     * \param chips one node per chip; chip i gets accelerator id i
     * \param linksPerChip links of each chip = planes (36 by default, seed 004 1)
     * \return the adapters, by accelerator id
     */
    std::vector<Ptr<CellFabricAdapter>> Install(NodeContainer chips, uint32_t linksPerChip = 36);

    /// \return the plane switches of the last Install()
    const std::vector<Ptr<FabricSwitch>>& GetPlanes() const
    {
        return m_planes;
    }

  private:
    ObjectFactory m_adapterFactory;          //!< adapters
    FabricLinkHelper m_links;                //!< cell links
    FabricSwitchHelper m_switches;           //!< plane switches
    uint32_t m_switchPorts{144};             //!< ports per cell switch
    std::vector<Ptr<FabricSwitch>> m_planes; //!< planes built
};

} // namespace ns3

#endif /* CELL_FABRIC_HELPER_H */
