/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CELL_FABRIC_HELPER_H
#define CELL_FABRIC_HELPER_H

#include "ns3/cell-fabric-adapter.h"
#include "ns3/data-rate.h"
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
 *   any-to-any fabric of up to 144 chips (Pyxis spec section 1, 5.3).
 * - Two stages (more chips, 1024 included): a plane is a folded Clos (adapter, first stage,
 *   second stage, first stage, adapter). A first-stage switch has SwitchPorts / 2 ports down to
 *   chips and SwitchPorts / 2 up, spread evenly over the plane's SpinesPerPlane second-stage
 *   switches; a unit for a chip of another first-stage switch takes an up port chosen by its
 *   flow hash, which the adapter advances for every unit (spraying over the middle stage).
 *
 * A cell switch is a FabricSwitch (output queued, cut-through, forwarding each unit by
 * destination chip) with a finite buffer of SetSwitchBufferCells cell slots. Links are
 * FabricChannels with 0 interframe bytes (the cell header is the adapter's CellHeaderBytes).
 *
 * Credit flow control (on by default, SetCredits): every cell link, both directions (adapter to
 * first stage, first to second stage and back, first stage to adapter), runs the fabric module's
 * FabricCreditFlowControl in cells: a unit of k cells takes k credits, data cells (class 0) and
 * control cells (class 1) have a credit pool (VC) each, and credit returns ride in the cell
 * headers of the reverse direction (no wire time; the link's delay). Credits per port default to
 * the round trip of a link at its smallest cell (GetRoundTripCredits), so one link runs at full
 * rate; a switch's buffer must hold every credit it advertises (ports x 2 VCs x credits), or
 * Install aborts.
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
    /// \param ports ports of a cell switch (144 by default: the spec's 144 chips, section 1)
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
     * \param cells cell slots of each cell switch's shared buffer (a slot holds the largest cell
     * with its header, GetCellSlotBytes; default 349,525: the fabric module's 64 MiB buffer in
     * 192 B slots); 0 leaves the buffer's Size attribute as set (SetBufferAttribute)
     */
    void SetSwitchBufferCells(uint64_t cells);
    /// \param on credit flow control on every cell link (default true)
    void SetCredits(bool on);
    /// \param credits credits per port and VC (cells); 0 (default): GetRoundTripCredits
    void SetCreditsPerPort(uint32_t credits);
    /**
     * \param bytes buffer bytes one credit (one cell slot) stands for; 0 (default): the largest
     * cell with its header, 176 B + CellHeaderBytes
     */
    void SetCreditBytes(uint32_t bytes);
    /// \param latency from a cell leaving a buffer to its credit leaving for the peer (default 0)
    void SetCreditLatency(Time latency);

    /**
     * Credits one port needs for its link to run at full rate: the cells the link carries
     * during a credit's round trip at its smallest cell, plus the largest unit. A credit spent
     * when a unit starts leaving comes back R later: into a switch R = 2 x link delay + switch
     * latency + credit latency (the switch counts the unit from its head's arrival plus its
     * pipeline and frees it when it starts leaving an idle egress, cut-through); into an adapter
     * R = U x T' + 2 x link delay + credit latency (freed at the unit's tail; T' its cells'
     * time). Units of at most U cells sent back to back hold at most U x ceil(R / (U x T'))
     * credits with the new one; with T <= T' the smallest cell's time that is below
     * R / T + U into a switch and 2 x U + (2 x link delay + credit latency) / T into an adapter.
     * The larger of ceil((2 d + L + c) / T) + U (d link delay, L switch latency, c credit latency)
     * and ceil((2 d + c) / T) + 2 U credits never stall the link. \param rate link rate \param
     * linkDelay link one-way delay \param switchLatency cell switch pipeline latency \param
     * creditLatency credit return latency \param smallestCellWireBytes the smallest cell with its
     * header on the wire (bytes) \param largestUnitCells cells of the largest unit on a link
     * \return credits per port and VC
     */
    static uint32_t GetRoundTripCredits(DataRate rate,
                                        Time linkDelay,
                                        Time switchLatency,
                                        Time creditLatency,
                                        uint32_t smallestCellWireBytes,
                                        uint32_t largestUnitCells);

    /**
     * \param pageSizeWords PageSizeWords of the adapters
     * \param links links per chip
     * \param fine Fine granularity (one unit per cell)
     * \return cells of the largest unit on a link: a full page's cells over the links (Coarse),
     * or 1 (Fine)
     */
    static uint32_t GetLargestUnitCells(uint32_t pageSizeWords, uint32_t links, bool fine);

    /**
     * \param chips chips
     * \param switchPorts ports per cell switch
     * \param stages 1 or 2
     * \param spines second-stage switches per plane (0: automatic)
     * \return the most ports any cell switch of such a fabric has
     */
    static uint32_t GetMostSwitchPorts(uint32_t chips,
                                       uint32_t switchPorts,
                                       uint32_t stages,
                                       uint32_t spines);

    /// \return credits per port and VC of the last Install() (0: credits off)
    uint32_t GetCreditsPerPort() const
    {
        return m_builtCredits;
    }

    /// \return bytes of one cell slot (and one credit) of the last Install()
    uint32_t GetCellSlotBytes() const
    {
        return m_builtSlotBytes;
    }

    /**
     * Build the fabric. Aborts with a clear error if the chips do not fit (more chips than a
     * one-stage plane's switch ports, or than a two-stage plane can reach).
     * \param chips one node per chip; chip i gets accelerator id i
     * \param linksPerChip links of each chip = planes (36 by default, Pyxis spec section 1)
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
    /**
     * Credit flow control on every cell link of the last build (both ends of each link).
     * \param adapter an adapter (its page size, granularity, cell header and control cells)
     * \param links links per chip
     * \param slot bytes per credit
     */
    void InstallCredits(const Ptr<CellFabricAdapter>& adapter, uint32_t links, uint32_t slot);

    ObjectFactory m_adapterFactory; //!< adapters
    FabricLinkHelper m_links;       //!< cell links
    FabricSwitchHelper m_switches;  //!< plane switches
    uint32_t m_switchPorts{144};    //!< ports per cell switch
    uint32_t m_stages{0};           //!< stages per plane (0: automatic)
    uint32_t m_spines{0};           //!< second-stage switches per plane (0: automatic)
    uint32_t m_builtStages{0};      //!< stages of the last Install()
    uint64_t m_bufferCells{349525}; //!< cell slots per switch buffer (0: Size attribute)
    bool m_credits{true};           //!< credit flow control on cell links
    uint32_t m_creditsPerPort{0};   //!< credits per port and VC (0: round trip)
    uint32_t m_creditBytes{0};      //!< bytes per credit (0: the largest cell)
    Time m_creditLatency;           //!< credit return latency
    uint32_t m_builtCredits{0};     //!< credits per port of the last Install()
    uint32_t m_builtSlotBytes{0};   //!< cell slot bytes of the last Install()
    std::vector<Ptr<FabricNetDevice>> m_chipPorts; //!< switch port per (plane, chip)
    uint32_t m_nChips{0};                          //!< chips of the last Install()
    std::vector<Ptr<FabricSwitch>> m_planes;       //!< planes built
};

} // namespace ns3

#endif /* CELL_FABRIC_HELPER_H */
