/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PODSIM_FLOW_ENGINE_H
#define PODSIM_FLOW_ENGINE_H

#include "flow-rate-solver.h"

#include "ns3/event-id.h"
#include "ns3/fabric-channel.h"
#include "ns3/fabric-flow-plan.h"
#include "ns3/fabric-pod.h"
#include "ns3/fabric-routing-table.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <deque>
#include <map>
#include <queue>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup flow
 * \brief The flow-level engine: the messages of a built pod's endpoints move as flows with
 * max-min fair rates on the routes the packet engine would give them, instead of as units
 * through the devices (DESIGN.md, Engines; src/flow/doc/flow.rst).
 *
 * Install() takes over every endpoint of a pod (FabricEndpoint::SetFlowEngine): the workloads
 * post as they always do, and the engine reports delivery and completion through the same
 * endpoint callbacks. For each message the endpoint's plan (FabricEndpoint::PlanFlow) names the
 * ports, flow hashes and wire bytes; the engine follows every share hop by hop through the
 * switches' own routes (FabricSwitchBase::ProbeRoute; sprayed shares over every equal-cost
 * port), so a flow crosses exactly the link directions a unit of the message would.
 *
 * Each link direction is a FlowRateSolver link of its channel's data rate; the flows' rates
 * are re-solved (only the components a change touches) once per instant at which flows start
 * or finish. Ports and hops that a message's units are sprayed over evenly act as one link of
 * their summed capacity. A message's wire bytes leave at its rate from its plan's setup on; it
 * is delivered when its last byte has crossed the path (the path's latency: each hop's delay
 * and receive offset for one unit), and completes then or, when the plan waits for an
 * acknowledgement, after the reverse path's latency. Messages of one endpoint's FIFO (the
 * plan's queue) start one after the other.
 *
 * Nothing is lost: the engine models no buffer, back-pressure, bit error or retransmission
 * (flow.rst says when its results are not to be trusted).
 */
class FlowEngine : public Object
{
  public:
    static TypeId GetTypeId();
    FlowEngine();
    ~FlowEngine() override;

    /**
     * Take over every endpoint of a built pod.
     * \param pod the pod (kept by reference: it must outlive the engine's use)
     * \return "" or why the pod cannot run as flows (an endpoint without a flow plan)
     */
    std::string Install(const FabricPod& pod);

    /// What a link direction carried.
    struct LinkStats
    {
        uint64_t wireBytes{0}; //!< bytes on the wire (frames and framing)
        uint64_t busyPs{0};    //!< time it spent sending them at its rate
    };

    /**
     * \param device a transmitting device of the pod
     * \return what it carried (bundles of sprayed links share their bytes evenly)
     */
    LinkStats GetLinkStats(Ptr<FabricNetDevice> device) const;

    /// Counters of a run.
    struct Stats
    {
        uint64_t messages{0};      //!< messages taken
        uint64_t flows{0};         //!< flows started (a message has one per part)
        uint64_t resolves{0};      //!< re-solves (instants with a change)
        uint64_t resolvedFlows{0}; //!< flows re-solved over all re-solves
        uint64_t peakFlows{0};     //!< most flows active at once
        uint64_t unrouted{0};      //!< messages whose route ended nowhere (dropped)
    };

    /// \return the run's counters
    const Stats& GetStats() const
    {
        return m_stats;
    }

  protected:
    void DoDispose() override;

  private:
    /// A message taken from an endpoint.
    struct Route;

    /// A message taken from an endpoint: what its plan said, its routes until it starts.
    struct Message
    {
        FabricMessage m;                        //!< the record
        Ptr<FabricEndpoint> src;                //!< its endpoint
        std::vector<Route> routes;              //!< its parts' routes, until it starts
        std::pair<uint32_t, uint64_t> queueKey; //!< its FIFO (endpoint, plan queue)
        Time ready;                             //!< its post plus its plan's setup
        uint64_t wireBytes{0};                  //!< its plan's wire bytes
        Time arrival;                           //!< its plan's arrival
        Time ackReturn;                         //!< its plan's ackReturn
        bool completesOnAck{true};              //!< its plan's completesOnAck
        uint32_t pending{0};                    //!< parts still sending
        Time latency;                           //!< the slowest part's path latency
        uint32_t next{0};                       //!< the next message of its FIFO
        bool delivered{false};                  //!< delivered
        bool completed{false};                  //!< completed
    };

    /// One part of a message: a flow on the solver.
    struct Part
    {
        uint32_t msg{0};             //!< its message
        double bits{0};              //!< bits left to send
        double rate{0};              //!< its rate (bit/s)
        int64_t since{0};            //!< when bits was last brought up to date (ps)
        uint32_t version{0};         //!< bumped at every new finish time
        std::vector<uint32_t> links; //!< its solver links (for the link statistics)
        double totalBits{0};         //!< bits it sends in all
    };

    /// A route: the solver links of one part and its latency.
    struct Route
    {
        std::vector<uint32_t> links; //!< solver links
        Time latency;                //!< one unit's latency along it
        double weight{1};            //!< its share of the message's wire bytes
        bool ok{true};               //!< it reached the destination
    };

    /// A set of link directions a message is sprayed over evenly at one hop.
    struct SpraySet
    {
        std::vector<uint32_t> links; //!< the devices' links, sorted
        uint32_t link{0};            //!< their solver link (a bundle if several)
        uint32_t firstLink{0};       //!< the device link of the first of them
    };

    void Take(Ptr<FabricEndpoint> ep, const FabricMessage& m);
    void Begin(uint32_t msg);
    void StartParts(uint32_t msg);
    void Routes(const FabricFlowPlan& plan, const FabricMessage& m, std::vector<Route>& routes);
    void AddLimits(const FabricFlowPlan& plan, std::vector<Route>& routes);
    bool Walk(const FabricFlowPlan::Share& share,
              const FabricMessage& m,
              uint32_t unitBytes,
              Route& route);
    bool WalkSprayed(const FabricFlowPlan& plan,
                     std::size_t begin,
                     std::size_t count,
                     const FabricMessage& m,
                     uint32_t unitBytes,
                     Route& route);
    uint32_t SetOf(std::vector<uint32_t> links);
    uint32_t NextSet(uint32_t set, uint32_t dst);
    uint32_t NewLink(double capacityBps, std::vector<uint32_t> members);
    uint32_t Bundle(std::vector<uint32_t> links);
    void NeedUpdate();
    void Update();
    void Reschedule();
    void Finish();
    void PartDone(uint32_t part);
    void Sent(uint32_t msg);
    void Deliver(uint32_t msg);
    void Complete(uint32_t msg);
    void Release(uint32_t msg);

    /// What a walk needs of a link direction, found once (Install).
    struct LinkInfo
    {
        FabricChannel* channel{nullptr}; //!< its channel
        uint32_t peerOwner{0};           //!< switch view index, or ACC_BIT | accelerator
        uint32_t peerPort{0};            //!< the far end's port on its switch
        Time oneWay;                     //!< the channel's one-way delay
        Time offset;                     //!< the far end's receive offset without the unit
        bool offsetAddsUnit{false};      //!< store-and-forward: the unit's serialization too
    };

    const FabricPod* m_pod{nullptr};
    std::vector<LinkInfo> m_info;                  //!< per device link
    std::vector<std::vector<uint32_t>> m_portLink; //!< per switch view, per port: its link
    std::vector<FabricSwitchBase*> m_switches;     //!< per switch view
    std::vector<FabricRoutingTable*> m_tables;     //!< per switch view: its routing table
    Ptr<FabricPacket> m_probe;                     //!< the unit routes are probed with
    FlowRateSolver m_solver;
    std::unordered_map<const FabricNetDevice*, uint32_t> m_devLink; //!< device -> solver link
    std::vector<std::vector<uint32_t>> m_bundleMembers;  //!< per solver link: bundled devices
    std::map<std::vector<uint32_t>, uint32_t> m_bundles; //!< device links -> bundle link
    std::unordered_map<uint64_t, uint32_t> m_limitLinks; //!< plan limit key -> solver link
    std::vector<double> m_linkBits;                      //!< per solver link: bits carried
    mutable std::vector<double> m_deviceBits; //!< per device link: bits, bundles' shares added
    mutable bool m_bitsDirty{true};           //!< m_deviceBits is out of date
    /// Receiving device -> (switch view index, port), or (accelerator | ACC_BIT, plane).
    std::unordered_map<const FabricNetDevice*, std::pair<uint32_t, uint32_t>> m_owner;
    static constexpr uint32_t ACC_BIT = 0x80000000u;
    std::vector<SpraySet> m_sets;                       //!< sprayed hops met so far
    std::map<std::vector<uint32_t>, uint32_t> m_setIds; //!< device links -> set
    /// (set, the destination's route entry at the set's next switch, unit bytes) -> the next
    /// set, or ACC_BIT | the accelerator reached, or NO_SET.
    std::unordered_map<uint64_t, uint32_t> m_nextSet;
    std::unordered_map<uint64_t, uint32_t> m_firstSet; //!< (first port, ports) -> first set
    static constexpr uint32_t NO_SET = 0xffffffffu;

    std::deque<Message> m_msgs;      //!< messages (slots reused; a deque: no copy as it grows)
    FabricFlowPlan m_plan;           //!< the plan being read (reused)
    std::vector<uint32_t> m_freeMsg; //!< free message slots
    std::vector<Part> m_parts;       //!< parts, by solver flow id

    /// Hash of a FIFO's key.
    struct FifoHash
    {
        std::size_t operator()(const std::pair<uint32_t, uint64_t>& k) const
        {
            return std::hash<uint64_t>()(k.second * 0x9e3779b97f4a7c15ull ^ k.first);
        }
    };

    /// A FIFO: its first and last messages (Message::next links them).
    struct Fifo
    {
        uint32_t head; //!< the message sending (or waiting for its setup)
        uint32_t tail; //!< the last one posted
    };

    /// (endpoint, plan queue) -> its messages waiting or sending, in post order
    std::unordered_map<std::pair<uint32_t, uint64_t>, Fifo, FifoHash> m_fifos;

    using HeapEntry = std::pair<int64_t, std::pair<uint32_t, uint32_t>>; //!< (ps, (part, ver))
    std::priority_queue<HeapEntry, std::vector<HeapEntry>, std::greater<HeapEntry>> m_heap;
    EventId m_finishEvent;  //!< the next finish
    int64_t m_finishAt{-1}; //!< when m_finishEvent runs (ps)
    EventId m_updateEvent;  //!< the pending re-solve of this instant
    Stats m_stats;
};

} // namespace ns3

#endif // PODSIM_FLOW_ENGINE_H
