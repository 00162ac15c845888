/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_SWITCH_H
#define FABRIC_SWITCH_H

#include "fabric-net-device.h"
#include "fabric-output-queue.h"
#include "fabric-switch-base.h"

#include "ns3/nstime.h"
#include "ns3/object.h"

#include <string>
#include <vector>

namespace ns3
{

class FabricDeadlockMonitor;

/**
 * \ingroup fabric
 * \brief A generic output-queued switch, aggregated to an ns-3 Node whose devices are its ports.
 *
 * A unit received on a port is looked up in the FabricRoutingTable by destination accelerator
 * (ECMP by flow hash among equal-cost ports), charged to the FabricSharedBuffer for its egress
 * port and class, and queued in that port's FabricOutputQueue (round robin over classes and
 * inputs). A unit the buffer cannot hold is dropped and counted as
 * FabricDropReason::BUFFER_FULL; a unit with no route as NO_ROUTE. The buffer is released when
 * the unit starts serializing on the egress link.
 *
 * Forwarding is cut-through (the egress may start PipelineLatency after the head of the unit
 * arrives) or store-and-forward (PipelineLatency after its tail arrives). In cut-through the
 * egress never finishes before the tail has arrived (FabricPacket::tailArrival).
 *
 * Its ports, buffer, routing table (with SetDenied's per-ingress deny bits, tested before the
 * lookup) and counters are FabricSwitchBase's, the face every switch of a pod shows.
 */
class FabricSwitch : public FabricSwitchBase
{
  public:
    /// Forwarding modes.
    enum ForwardingMode
    {
        CUT_THROUGH,       //!< forward from head arrival
        STORE_AND_FORWARD, //!< forward from tail arrival
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    FabricSwitch();
    ~FabricSwitch() override;

    /**
     * Add a port. The device's transmit queue becomes a FabricOutputQueue and its receive
     * handler this switch.
     * \param device the port (already attached to a node and a channel)
     * \return the port index
     */
    uint32_t AddPort(Ptr<FabricNetDevice> device);

    /**
     * Forwarding by the unit itself instead of the routing table (e.g. RIFL's source routes):
     * given the unit, its ingress port and the number of ports, return the egress port (or
     * FabricRoutingTable::NO_PORT to drop it as NoRoute); it may rewrite the unit's header.
     */
    typedef Callback<uint32_t, Ptr<FabricPacket>, uint32_t, uint32_t> ForwardCallback;

    /**
     * \brief Forward by \p cb instead of the routing table (a null callback restores the table).
     * \param cb the forwarding function
     */
    void SetForwardCallback(ForwardCallback cb);

    uint32_t ProbeRoute(const Ptr<FabricPacket>& p, uint32_t inPort) const override;

    /**
     * Callback taking a unit once it is routed and admitted to the buffer (inPort and outPort
     * set), instead of the output queue: an input-queued switch core (VOQs and a scheduler,
     * e.g. RiflVoqSwitch) holds it and later hands it to EnqueueOutput().
     */
    typedef Callback<void, Ptr<FabricPacket>> IngressCallback;

    /**
     * \brief Divert admitted units to an input-queued core (a null callback restores output
     * queueing).
     * \param cb the core's entry
     */
    void SetIngressCallback(IngressCallback cb);

    /**
     * \brief Put a unit held by the input-queued core into its output queue (p->outPort) and
     * wake the port.
     * \param p the unit
     */
    void EnqueueOutput(Ptr<FabricPacket> p);

    /**
     * \param i port index
     * \return the port's egress queue
     */
    Ptr<FabricOutputQueue> GetOutputQueue(uint32_t i) const;

    /**
     * \brief Give every PFC port of the switch an equal share of the buffer for each lossless
     * priority: BufferShare = buffer size / (ports * priorities). Call after the last port is
     * added. PFC then derives XOFF = share - headroom, so that the headroom of every port and
     * priority fits in the buffer and nothing is dropped for lack of space.
     * \param priorities lossless priorities in use
     * \return the share (bytes)
     */
    uint64_t ShareBufferForPfc(uint32_t priorities);

    /// \return the forwarding mode
    ForwardingMode GetForwardingMode() const
    {
        return m_mode;
    }

    /// \return the pipeline latency
    Time GetPipelineLatency() const
    {
        return m_latency;
    }

    /**
     * \brief Have the next unit that arrives at this switch arm a deadlock monitor.
     *
     * FabricDeadlockMonitor sets itself here when it goes idle (no switch it watches holds a
     * unit) and clears it when it arms or goes away, so that an idle monitor schedules nothing
     * and the forwarding path pays one pointer test per unit (DESIGN.md rule 3). The switch
     * keeps a plain pointer; the monitor clears it before it is disposed.
     * \param monitor the monitor to arm, or null
     */
    void SetIdleMonitor(FabricDeadlockMonitor* monitor)
    {
        m_idleMonitor = monitor;
    }

  protected:
    void DoDispose() override;

  private:
    /**
     * A unit arrived on a port.
     * \param port the ingress device
     * \param p the unit
     */
    void Receive(const Ptr<FabricNetDevice>& port, const Ptr<FabricPacket>& p);

    /**
     * A unit left an egress queue.
     * \param p the unit
     */
    void Dequeued(const Ptr<FabricPacket>& p);

    /**
     * Count a drop.
     * \param port the ingress device
     * \param p the unit
     * \param reason a FabricDropReason
     */
    void Drop(const Ptr<FabricNetDevice>& port, const Ptr<FabricPacket>& p, const char* reason);

    std::vector<Ptr<FabricOutputQueue>> m_queues; //!< egress queue per port
    ForwardingMode m_mode{CUT_THROUGH};           //!< forwarding mode
    Time m_latency;                               //!< pipeline latency
    ForwardCallback m_forward;                    //!< forwarding by the unit, if set
    IngressCallback m_ingress;                    //!< input-queued core, if set
    uint32_t m_classes{8};                        //!< traffic classes
    TracedCallback<Ptr<const FabricPacket>, const std::string&> m_dropTrace; //!< drops

    FabricDeadlockMonitor* m_idleMonitor{nullptr}; //!< idle monitor to arm on the next unit
};

} // namespace ns3

#endif /* FABRIC_SWITCH_H */
