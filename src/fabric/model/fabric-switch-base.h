/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_SWITCH_BASE_H
#define FABRIC_SWITCH_BASE_H

#include "fabric-net-device.h"
#include "fabric-routing-table.h"
#include "fabric-shared-buffer.h"

#include "ns3/object.h"

#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup fabric
 * \brief What every switch of a pod shows the rest of the pod, whatever its forwarding core:
 * its ports, its buffer (occupancy, peak and the Occupancy trace source), its routing table
 * (route programming and per-ingress denial) and its units forwarded and dropped, by reason.
 *
 * FabricSwitch (the generic output-queued core of the Ethernet, SUE, cell and RIFL switches) and
 * UalinkSwitch (UALink 200 chapter 10) derive from it, so that a pod can count, sample, program
 * and fault every switch alike without knowing which it is.
 *
 * - **Ports**: the devices added by the derived class (AddPortDevice), each told its index.
 * - **Buffer**: a FabricSharedBuffer that the derived class charges (Admit) when a unit is
 *   admitted and releases when it leaves; GetOccupancy(), GetPeakOccupancy() and the switch's
 *   own `Occupancy` trace source (the buffer's, reached through the switch) read it.
 * - **Routes**: a FabricRoutingTable; SetRoute() programs a destination's equal-cost ports
 *   (a derived class that keeps further tables, such as UALink's per-station ones, programs them
 *   too), SetDenied() closes one ingress port's route to a destination (units from it to that
 *   destination are dropped as FabricDropReason::ROUTE_DENIED), by the table's deny bits unless
 *   the derived class keeps its own.
 * - **Counters**: units forwarded (the derived class's unit: a packet, or an operation) and
 *   dropped, by FabricDropReason or the derived class's own reasons.
 */
class FabricSwitchBase : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    FabricSwitchBase();
    ~FabricSwitchBase() override;

    /// \return number of ports
    uint32_t GetNPorts() const
    {
        return static_cast<uint32_t>(m_ports.size());
    }

    /**
     * \param i port index
     * \return the port device
     */
    Ptr<FabricNetDevice> GetPort(uint32_t i) const;

    /// \return the shared buffer
    Ptr<FabricSharedBuffer> GetBuffer() const
    {
        return m_buffer;
    }

    /// \return bytes the switch holds now (its buffer's occupancy)
    uint64_t GetOccupancy() const
    {
        return m_buffer->GetOccupancy();
    }

    /// \return the largest GetOccupancy() so far
    uint64_t GetPeakOccupancy() const
    {
        return m_buffer->GetPeakOccupancy();
    }

    /// \return the routing table
    Ptr<FabricRoutingTable> GetRoutingTable() const
    {
        return m_routes;
    }

    /**
     * The port a unit would leave by, as Receive() would route it, without queueing it (the
     * flow engine follows each flow's route with it).
     * \param p the unit (dst, flowHash and sourceRoute set; a source route is rotated as a
     *        hop would rotate it)
     * \param inPort the port it arrives on
     * \return the output port, or FabricRoutingTable::NO_PORT if the unit would be dropped
     */
    virtual uint32_t ProbeRoute(const Ptr<FabricPacket>& p, uint32_t inPort) const;

    /**
     * \brief Route a destination to its equal-cost egress ports (the default: the routing
     * table's SetRoute).
     * \param dst the destination accelerator
     * \param ports the egress ports (not empty)
     */
    virtual void SetRoute(uint32_t dst, const std::vector<uint32_t>& ports);

    /**
     * \brief Deny (or allow again) one route: units arriving on \p ingress for \p dst are dropped
     * with reason RouteDenied before the route lookup (the default: the routing table's deny
     * bits).
     * \param ingress the ingress port
     * \param dst the destination accelerator
     * \param deny whether the route is denied
     */
    virtual void SetDenied(uint32_t ingress, uint32_t dst, bool deny);

    /**
     * \param ingress an ingress port
     * \param dst a destination accelerator
     * \return whether units arriving on \p ingress for \p dst are denied
     */
    virtual bool IsDenied(uint32_t ingress, uint32_t dst) const;

    /// \return units dropped at this switch, by reason
    const std::map<std::string, uint64_t>& GetDrops() const
    {
        return m_drops;
    }

    /// \return units forwarded
    uint64_t GetForwarded() const
    {
        return m_forwarded;
    }

  protected:
    void DoDispose() override;

    /**
     * \brief Add a port device: it is told its index (FabricNetDevice::SetPortIndex).
     * \param device the port
     * \return its index
     */
    uint32_t AddPortDevice(Ptr<FabricNetDevice> device);

    /**
     * \brief Count a drop.
     * \param reason its reason
     */
    void CountDrop(const char* reason)
    {
        ++m_drops[reason];
    }

    std::vector<Ptr<FabricNetDevice>> m_ports; //!< ports, by index
    Ptr<FabricRoutingTable> m_routes;          //!< routing table
    Ptr<FabricSharedBuffer> m_buffer;          //!< buffer accounting
    uint64_t m_forwarded{0};                   //!< units forwarded
    std::map<std::string, uint64_t> m_drops;   //!< drops by reason
};

} // namespace ns3

#endif /* FABRIC_SWITCH_BASE_H */
