/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PODSIM_FLOW_RATE_SOLVER_H
#define PODSIM_FLOW_RATE_SOLVER_H

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup flow
 * \brief Max-min fair rates of flows over capacitated links, kept current incrementally.
 *
 * Links have capacities in bit/s; a flow is the list of link indices it crosses. The rates are
 * the max-min fair allocation, found by progressive filling (water-filling): repeatedly take the
 * link whose fair share (remaining capacity / flows on it not yet frozen) is the smallest,
 * freeze its unfrozen flows at that share and subtract their rate from every link they cross.
 *
 * Every change (AddFlow, RemoveFlow, SetCapacity) re-solves only the connected component of the
 * flow-link graph that the change touches (found by a breadth-first search from the changed
 * links), so flows over disjoint paths cost nothing to each other. A component is solved in a
 * canonical order (its links and flows sorted by index, ties between equal shares broken by the
 * link index), so the incremental result is bit-for-bit the result of Solve() from scratch.
 * src/flow/doc/flow.rst derives the algorithm's cost.
 *
 * A plain data structure (not an ns-3 Object: it has no attributes and no simulated time).
 * Bad input (an unknown link or flow, a negative or non-finite capacity, a flow without links
 * or with a link twice) throws std::invalid_argument naming the argument.
 */
class FlowRateSolver
{
  public:
    /// A flow's identifier (reused after RemoveFlow).
    using FlowId = uint32_t;
    /// A link's index (0, 1, ... in the order of AddLink).
    using LinkId = uint32_t;

    FlowRateSolver();

    /**
     * \brief Add a link.
     * \param capacityBps its capacity in bit/s (finite, >= 0)
     * \return its index
     */
    LinkId AddLink(double capacityBps);

    /**
     * \brief Change a link's capacity and re-solve the component of the flows on it.
     * \param link the link
     * \param capacityBps the new capacity in bit/s (finite, >= 0)
     */
    void SetCapacity(LinkId link, double capacityBps);

    /**
     * \param link the link
     * \return its capacity in bit/s
     */
    double GetCapacity(LinkId link) const;

    /**
     * \brief Add a flow and re-solve its component.
     * \param links the links it crosses (at least one, each at most once)
     * \return its identifier
     */
    FlowId AddFlow(const std::vector<LinkId>& links);

    /**
     * \brief Remove a flow and re-solve the component it was in.
     * \param flow the flow
     */
    void RemoveFlow(FlowId flow);

    /**
     * \param flow an active flow
     * \return its max-min fair rate in bit/s
     */
    double GetRate(FlowId flow) const;

    /**
     * \param flow an identifier
     * \return whether it names an active flow
     */
    bool IsActive(FlowId flow) const;

    /**
     * \param flow an active flow
     * \return the links it crosses
     */
    const std::vector<LinkId>& GetLinks(FlowId flow) const;

    /// \return the number of links
    uint32_t GetLinkCount() const;

    /// \return the number of active flows
    uint32_t GetFlowCount() const;

    /// \return one past the largest flow identifier handed out (active or not)
    uint32_t GetFlowIdBound() const;

    /**
     * \param link the link
     * \return the bit/s its flows use (the sum of their rates)
     */
    double GetLoad(LinkId link) const;

    /// \brief Re-solve every component from scratch (the result equals the incremental one).
    void Solve();

    /**
     * Defer re-solving: AddFlow(), RemoveFlow() and SetCapacity() only note the links they
     * touch, and Update() re-solves the components of all the noted links at once (a batch of
     * changes at one instant costs one fill per component instead of one per change).
     * \param deferred true to defer (false re-solves what is pending first)
     */
    void SetDeferred(bool deferred);

    /// Re-solve the components of the links noted since the last Update() (deferred mode).
    void Update();

    /**
     * \return the flows whose rates the last re-solve (a change in immediate mode, Update() or
     *         Solve()) computed again, in no particular order; the others kept theirs
     */
    const std::vector<FlowId>& GetResolvedFlows() const
    {
        return m_resolved;
    }

    /// \return the links of the component the last change re-solved
    uint32_t GetLastComponentLinks() const;

    /// \return the flows of the component the last change re-solved
    uint32_t GetLastComponentFlows() const;

  private:
    /// A flow.
    struct Flow
    {
        std::vector<LinkId> links;   ///< the links it crosses
        std::vector<uint32_t> slots; ///< its position in each link's flow list
        double rate{0};              ///< its rate in bit/s
        bool active{false};          ///< whether it is in use
    };

    /// A link.
    struct Link
    {
        double capacity{0};        ///< bit/s
        std::vector<FlowId> flows; ///< the active flows on it
    };

    /// \param link a link index \param what the argument's name, for the message
    void CheckLink(LinkId link, const char* what) const;
    /// \param flow a flow identifier \param what the caller, for the message
    void CheckFlow(FlowId flow, const char* what) const;
    /// \param capacityBps a capacity \param what the caller, for the message
    static void CheckCapacity(double capacityBps, const char* what);

    /**
     * \brief Re-solve the components of the given links.
     * \param seeds links whose components are re-solved
     */
    void ResolveFrom(const std::vector<LinkId>& seeds);

    /**
     * \brief Progressive filling over one component.
     * \param links its links, sorted
     * \param flows its flows, sorted
     */
    void FillComponent(const std::vector<LinkId>& links, const std::vector<FlowId>& flows);

    std::vector<Link> m_links;     ///< every link
    std::vector<Flow> m_flows;     ///< every flow slot
    std::vector<FlowId> m_freeIds; ///< slots of removed flows, reused by AddFlow
    uint32_t m_activeFlows{0};     ///< active flows
    uint32_t m_lastLinks{0};       ///< links of the last component re-solved
    uint32_t m_lastFlows{0};       ///< flows of the last component re-solved

    // Scratch space, sized to the links and flows, reused between solves (epoch-stamped so a
    // solve clears nothing it does not touch).
    std::vector<uint64_t> m_linkMark; ///< epoch a link was last visited in
    std::vector<uint64_t> m_flowMark; ///< epoch a flow was last visited in
    uint64_t m_epoch{0};              ///< the current visit's epoch
    std::vector<double> m_remaining;  ///< per link: capacity not yet given to frozen flows
    std::vector<uint32_t> m_unfrozen; ///< per link: flows not yet frozen
    std::vector<uint32_t> m_version;  ///< per link: bumped when its share changes
    std::vector<uint8_t> m_frozen;    ///< per flow: frozen in the current fill
    bool m_deferred{false};           ///< changes wait for Update()
    std::vector<LinkId> m_pending;    ///< links touched since the last Update()
    std::vector<FlowId> m_resolved;   ///< flows of the last re-solve
};

} // namespace ns3

#endif // PODSIM_FLOW_RATE_SOLVER_H
