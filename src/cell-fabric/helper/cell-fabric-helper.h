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

class FabricNetDevice;
class FabricSwitch;

/**
 * \ingroup cell-fabric
 * \brief Builds a cell fabric: one CellFabricAdapter per chip and one cell-switch plane per chip
 * link, chip link p to plane p.
 *
 * - One stage (up to SwitchPorts chips): a plane is one cell switch with a port per chip, the
 *   any-to-any fabric of up to 144 chips (seed 004 1, 5.3; digest 5.9).
 * - Two stages (more chips, 1024 included): a plane is a folded Clos (adapter, first stage,
 *   second stage, first stage, adapter). A first-stage switch has SwitchPorts / 2 ports down to
 *   chips and SwitchPorts / 2 up, spread evenly over the plane's SpinesPerPlane second-stage
 *   switches; a unit for a chip of another first-stage switch takes an up port chosen by its
 *   flow hash, which the adapter advances for every unit (spraying over the middle stage).
 *
 * A cell switch is a FabricSwitch (output queued, cut-through, forwarding each unit by
 * destination chip). Links are FabricChannels with 0 interframe bytes (the cell header is the
 * adapter's CellHeaderBytes).
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
     * \param stages 1 or 2 stages of cell switches per plane; 0 (default) chooses 1 when the
     * chips fit on one switch, else 2
     */
    void SetStages(uint32_t stages);
    /**
     * \param spines second-stage switches per plane of a two-stage fabric (0, the default: as
     * many as a first-stage switch has up ports, one link from each first-stage switch to each)
     */
    void SetSpinesPerPlane(uint32_t spines);

    /**
     * Build the fabric. Aborts with a clear error if the chips do not fit (more chips than a
     * one-stage plane's switch ports, or than a two-stage plane can reach).
     * \param chips one node per chip; chip i gets accelerator id i
     * \param linksPerChip links of each chip = planes (36 by default, seed 004 1)
     * \return the adapters, by accelerator id
     */
    std::vector<Ptr<CellFabricAdapter>> Install(NodeContainer chips, uint32_t linksPerChip = 36);

    /// \return every cell switch of the last Install() (per plane: first stage, then second)
    const std::vector<Ptr<FabricSwitch>>& GetPlanes() const
    {
        return m_planes;
    }

    /**
     * \param chip a chip
     * \param plane a plane
     * \return the switch port device facing that chip's link to that plane
     */
    Ptr<FabricNetDevice> GetSwitchPortOf(uint32_t chip, uint32_t plane) const;

    /// \return stages per plane of the last Install()
    uint32_t GetStages() const
    {
        return m_builtStages;
    }

  private:
    ObjectFactory m_adapterFactory; //!< adapters
    FabricLinkHelper m_links;       //!< cell links
    FabricSwitchHelper m_switches;  //!< plane switches
    uint32_t m_switchPorts{144};    //!< ports per cell switch
    uint32_t m_stages{0};           //!< stages per plane (0: automatic)
    uint32_t m_spines{0};           //!< second-stage switches per plane (0: automatic)
    uint32_t m_builtStages{0};      //!< stages of the last Install()
    std::vector<Ptr<FabricNetDevice>> m_chipPorts; //!< switch port per (plane, chip)
    uint32_t m_nChips{0};                          //!< chips of the last Install()
    std::vector<Ptr<FabricSwitch>> m_planes;       //!< planes built
};

} // namespace ns3

#endif /* CELL_FABRIC_HELPER_H */
