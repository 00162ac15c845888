/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PYXIS_CORE_SWITCH_H
#define PYXIS_CORE_SWITCH_H

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <cstdint>
#include <map>

namespace ns3
{

/**
 * \ingroup pyxis
 * \brief The Core Switch of a chip (Pyxis spec 5.2, 9) as a fluid model.
 *
 * 4 planes (attribute Planes), each a 5x5 buffered crossbar with one 128 B per cycle port per
 * client and plane: clients 0 to Clusters-1 are the clusters' AMEMs (sources: ICDMA and Tx
 * RDMA reads; destinations: their write ports) and client Clusters is the Fabric Adapter
 * (source: Fabric Rx; destination: Fabric Tx). No loopback: a cluster cannot send to itself nor
 * Fabric Rx to Fabric Tx.
 *
 * A shortcut [assumption]: a flow (one DMA job) sprays its flits round robin over the planes
 * of its plane mask, so it loads each of those planes' source egress port and destination
 * ingress port with rate / planes; every port carries at most PortBytesPerCycle. Flow rates,
 * capped by each flow's own engine rate, are shared max-min fairly (progressive filling) and
 * recomputed whenever a flow starts or ends. With all 4 planes this is a per-source egress and
 * per-destination ingress limit of 4 x 128 B per cycle. Credits, FIFO depths and the 4:1
 * round-robin arbiters are not modelled (their effect on throughput is the fair share).
 */
class PyxisCoreSwitch : public Object
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();

    PyxisCoreSwitch();
    ~PyxisCoreSwitch() override;

    /**
     * Start a flow.
     * \param src source client (cluster, or Clusters for Fabric Rx)
     * \param dst destination client (cluster, or Clusters for Fabric Tx)
     * \param bytes bytes to move
     * \param planeMask planes it may use (bit p: plane p; not 0)
     * \param maxBytesPerCycle the source engine's own limit
     * \param done called when the last byte has arrived
     * \return the flow's id
     */
    uint64_t StartFlow(uint32_t src,
                       uint32_t dst,
                       double bytes,
                       uint32_t planeMask,
                       double maxBytesPerCycle,
                       Callback<void> done);

    /**
     * \param flow a flow id
     * \return its rate in bytes per cycle (0 if it is not running)
     */
    double GetFlowRate(uint64_t flow) const;

    /**
     * \param clockGhz the chip clock
     */
    void SetClockGhz(double clockGhz);

  protected:
    void DoDispose() override;

  private:
    /// A flow.
    struct Flow
    {
        uint32_t src{0};     //!< source client
        uint32_t dst{0};     //!< destination client
        uint32_t mask{0};    //!< planes used
        uint32_t planes{0};  //!< planes in the mask
        double remaining{0}; //!< bytes left
        double cap{0};       //!< engine limit, bytes per cycle
        double rate{0};      //!< current rate, bytes per cycle
        EventId event;       //!< its completion
        Callback<void> done; //!< its callback
    };

    /// Advance the flows to now, share the ports and reschedule the completions.
    void Update();

    /**
     * A flow completed.
     * \param id the flow
     */
    void Complete(uint64_t id);

    uint32_t m_planes{4};             //!< planes
    uint32_t m_clusters{4};           //!< cluster clients (the fabric client is one more)
    double m_portBytesPerCycle{128};  //!< port width
    double m_clockGhz{1.33};          //!< chip clock
    std::map<uint64_t, Flow> m_flows; //!< running flows
    uint64_t m_nextId{1};             //!< next flow id
    Time m_last;                      //!< when the flows were last advanced
};

} // namespace ns3

#endif /* PYXIS_CORE_SWITCH_H */
