/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_ARRIVAL_ORDER_H
#define FABRIC_ARRIVAL_ORDER_H

#include "fabric-packet.h"

#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace ns3
{

class FabricNetDevice;

/**
 * \ingroup fabric
 * \brief Hands the units that reach their receivers in one picosecond to the receiving devices
 * in an order that depends on the model alone (FabricChannel's ArrivalOrder attribute set to
 * Canonical).
 *
 * ns-3 runs the events of one time stamp in the order in which they were inserted. A unit's
 * receive event is inserted when its sender starts transmitting it, so two units that reach one
 * node in the same picosecond are received in the order in which their senders' events ran,
 * and a unit and a timer of the receiving node that fall in the same picosecond likewise. That
 * order is a property of the whole run: a distributed run (contrib/mpi), where the senders are
 * simulated by other processes, cannot reproduce it.
 *
 * With this class, a channel does not schedule a receive event per unit: it stages the unit here
 * under its receive time. One drain event per picosecond with staged units runs after every
 * other event of that picosecond (it defers itself with a zero delay while another one is
 * pending: FabricPeekScheduler says so, or, without it, an event that ran between two of its
 * runs) and hands the units to their devices (FabricNetDevice::Receive) sorted by receiving
 * node id, receiving device index and the sending device's unit count on that link. Every
 * arrival of a picosecond is staged before that picosecond (links have a positive delay; a unit
 * from another rank is staged at the synchronization before its receive time), so the order in
 * which a node sees the events of one picosecond is: its own events (in the order of their
 * insertion, which it alone made), then the units that reach it (sorted), then the events that
 * those scheduled with a zero delay. Every term is the same in a sequential and in a
 * distributed run.
 *
 * One instance per simulation (SimulationSingleton: Simulator::Destroy deletes it).
 */
class FabricArrivalOrder
{
  public:
    /// Counters of one simulation.
    struct Stats
    {
        uint64_t units{0};     //!< units staged
        uint64_t drains{0};    //!< picoseconds whose units were handed over (drain events)
        uint64_t deferrals{0}; //!< drain events deferred behind another event of their picosecond
        uint64_t shared{0};    //!< units handed over with another one of the same picosecond
    };

    FabricArrivalOrder();
    ~FabricArrivalOrder();

    /// \return the simulation's instance (created on first use)
    static FabricArrivalOrder* Get();

    /**
     * Stage a unit; it is handed to \p dst at \p at, after every other event of that time.
     * \param dst the receiving device
     * \param p the unit
     * \param corrupted whether the error model corrupted it
     * \param at the receive time (not before now)
     * \param seq the sending device's unit count on this link (FabricChannel), which orders
     *        units of one link that arrive together
     */
    void Stage(const Ptr<FabricNetDevice>& dst,
               const Ptr<FabricPacket>& p,
               bool corrupted,
               Time at,
               uint64_t seq);

    /// \return the counters
    const Stats& GetStats() const;

  private:
    /// A staged unit.
    struct Unit
    {
        uint32_t node;            //!< receiving node id
        uint32_t ifIndex;         //!< receiving device index
        uint64_t seq;             //!< sender's unit count on the link
        Ptr<FabricNetDevice> dst; //!< receiving device
        Ptr<FabricPacket> p;      //!< the unit
        bool corrupted;           //!< corrupted by the error model
    };

    /// The drain event of the earliest picosecond: hand its units over, or defer.
    void Drain();

    /// \return true if another event of the present picosecond is pending
    bool OtherEventNow();

    /// Staged units by receive time (steps). A drain event runs at its own picosecond and looks
    /// it up there, so no order of the keys is needed: a hash map, not a search tree (whose
    /// lookups at every staged unit walked a dozen nodes scattered in memory).
    std::unordered_map<int64_t, std::vector<Unit>> m_pending;
    std::vector<std::vector<Unit>> m_spare; //!< emptied vectors, reused

    /// The sort key of a unit of a shared picosecond.
    struct OrderKey
    {
        uint64_t port;  //!< receiving node (high 32 bits) and interface index (low 32 bits)
        uint64_t seq;   //!< sender's unit count on the link
        uint32_t index; //!< the unit's position in its vector
    };

    std::vector<OrderKey> m_order;     //!< sort scratch, reused
    uint64_t m_deferredAt{UINT64_MAX}; //!< event count at the last deferral (no peek scheduler)
    Stats m_stats;                     //!< counters
};

} // namespace ns3

#endif /* FABRIC_ARRIVAL_ORDER_H */
