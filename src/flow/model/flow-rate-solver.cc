/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-rate-solver.h"

#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <queue>
#include <stdexcept>
#include <string>
#include <tuple>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FlowRateSolver");

FlowRateSolver::FlowRateSolver()
{
    NS_LOG_FUNCTION(this);
}

void
FlowRateSolver::CheckLink(LinkId link, const char* what) const
{
    if (link >= m_links.size())
    {
        throw std::invalid_argument(std::string("FlowRateSolver::") + what + ": link " +
                                    std::to_string(link) + " does not exist (there are " +
                                    std::to_string(m_links.size()) + " links)");
    }
}

void
FlowRateSolver::CheckFlow(FlowId flow, const char* what) const
{
    if (!IsActive(flow))
    {
        throw std::invalid_argument(std::string("FlowRateSolver::") + what + ": flow " +
                                    std::to_string(flow) + " is not an active flow");
    }
}

void
FlowRateSolver::CheckCapacity(double capacityBps, const char* what)
{
    if (!std::isfinite(capacityBps) || capacityBps < 0)
    {
        throw std::invalid_argument(std::string("FlowRateSolver::") + what + ": capacity " +
                                    std::to_string(capacityBps) +
                                    " bit/s is not a finite number >= 0");
    }
}

FlowRateSolver::LinkId
FlowRateSolver::AddLink(double capacityBps)
{
    NS_LOG_FUNCTION(this << capacityBps);
    CheckCapacity(capacityBps, "AddLink");
    m_links.push_back(Link{capacityBps, {}});
    m_linkMark.push_back(0);
    m_remaining.push_back(0);
    m_unfrozen.push_back(0);
    m_version.push_back(0);
    return static_cast<LinkId>(m_links.size() - 1);
}

void
FlowRateSolver::SetCapacity(LinkId link, double capacityBps)
{
    NS_LOG_FUNCTION(this << link << capacityBps);
    CheckLink(link, "SetCapacity");
    CheckCapacity(capacityBps, "SetCapacity");
    m_links[link].capacity = capacityBps;
    ResolveFrom({link});
}

double
FlowRateSolver::GetCapacity(LinkId link) const
{
    CheckLink(link, "GetCapacity");
    return m_links[link].capacity;
}

FlowRateSolver::FlowId
FlowRateSolver::AddFlow(const std::vector<LinkId>& links)
{
    NS_LOG_FUNCTION(this << links.size());
    if (links.empty())
    {
        throw std::invalid_argument("FlowRateSolver::AddFlow: a flow needs at least one link");
    }
    for (std::size_t i = 0; i < links.size(); ++i)
    {
        CheckLink(links[i], "AddFlow");
        for (std::size_t j = 0; j < i; ++j)
        {
            if (links[j] == links[i])
            {
                throw std::invalid_argument("FlowRateSolver::AddFlow: link " +
                                            std::to_string(links[i]) +
                                            " appears twice in the flow's links");
            }
        }
    }
    FlowId id;
    if (!m_freeIds.empty())
    {
        id = m_freeIds.back();
        m_freeIds.pop_back();
    }
    else
    {
        id = static_cast<FlowId>(m_flows.size());
        m_flows.emplace_back();
        m_flowMark.push_back(0);
        m_frozen.push_back(0);
    }
    Flow& f = m_flows[id];
    f.links = links;
    f.slots.resize(links.size());
    f.rate = 0;
    f.active = true;
    for (std::size_t k = 0; k < links.size(); ++k)
    {
        auto& list = m_links[links[k]].flows;
        f.slots[k] = static_cast<uint32_t>(list.size());
        list.push_back(id);
    }
    ++m_activeFlows;
    ResolveFrom(links);
    return id;
}

void
FlowRateSolver::RemoveFlow(FlowId flow)
{
    NS_LOG_FUNCTION(this << flow);
    CheckFlow(flow, "RemoveFlow");
    Flow& f = m_flows[flow];
    for (std::size_t k = 0; k < f.links.size(); ++k)
    {
        // Swap-remove from the link's list, then fix the slot of the flow moved into the hole.
        const LinkId l = f.links[k];
        auto& list = m_links[l].flows;
        const uint32_t slot = f.slots[k];
        const FlowId moved = list.back();
        list[slot] = moved;
        list.pop_back();
        if (moved != flow)
        {
            Flow& g = m_flows[moved];
            for (std::size_t j = 0; j < g.links.size(); ++j)
            {
                if (g.links[j] == l)
                {
                    g.slots[j] = slot;
                    break;
                }
            }
        }
    }
    const std::vector<LinkId> seeds = std::move(f.links);
    f.links.clear();
    f.slots.clear();
    f.rate = 0;
    f.active = false;
    m_freeIds.push_back(flow);
    --m_activeFlows;
    ResolveFrom(seeds);
}

double
FlowRateSolver::GetRate(FlowId flow) const
{
    CheckFlow(flow, "GetRate");
    return m_flows[flow].rate;
}

bool
FlowRateSolver::IsActive(FlowId flow) const
{
    return flow < m_flows.size() && m_flows[flow].active;
}

const std::vector<FlowRateSolver::LinkId>&
FlowRateSolver::GetLinks(FlowId flow) const
{
    CheckFlow(flow, "GetLinks");
    return m_flows[flow].links;
}

uint32_t
FlowRateSolver::GetLinkCount() const
{
    return static_cast<uint32_t>(m_links.size());
}

uint32_t
FlowRateSolver::GetFlowCount() const
{
    return m_activeFlows;
}

uint32_t
FlowRateSolver::GetFlowIdBound() const
{
    return static_cast<uint32_t>(m_flows.size());
}

double
FlowRateSolver::GetLoad(LinkId link) const
{
    CheckLink(link, "GetLoad");
    double load = 0;
    for (FlowId f : m_links[link].flows)
    {
        load += m_flows[f].rate;
    }
    return load;
}

void
FlowRateSolver::Solve()
{
    NS_LOG_FUNCTION(this);
    std::vector<LinkId> all(m_links.size());
    for (LinkId l = 0; l < all.size(); ++l)
    {
        all[l] = l;
    }
    ResolveFrom(all);
}

uint32_t
FlowRateSolver::GetLastComponentLinks() const
{
    return m_lastLinks;
}

uint32_t
FlowRateSolver::GetLastComponentFlows() const
{
    return m_lastFlows;
}

void
FlowRateSolver::SetDeferred(bool deferred)
{
    if (!deferred)
    {
        Update();
    }
    m_deferred = deferred;
}

void
FlowRateSolver::Update()
{
    std::vector<LinkId> seeds;
    seeds.swap(m_pending);
    const bool deferred = m_deferred;
    m_deferred = false;
    ResolveFrom(seeds);
    m_deferred = deferred;
}

void
FlowRateSolver::ResolveFrom(const std::vector<LinkId>& seeds)
{
    if (m_deferred)
    {
        m_pending.insert(m_pending.end(), seeds.begin(), seeds.end());
        return;
    }
    ++m_epoch;
    m_lastLinks = 0;
    m_lastFlows = 0;
    m_resolved.clear();
    std::vector<LinkId> links;
    std::vector<FlowId> flows;
    std::vector<LinkId> queue;
    for (LinkId seed : seeds)
    {
        if (m_linkMark[seed] == m_epoch)
        {
            continue; // already in a component re-solved by this change
        }
        // Breadth-first search over the flow-link graph from the seed: its component.
        links.clear();
        flows.clear();
        queue.assign(1, seed);
        m_linkMark[seed] = m_epoch;
        for (std::size_t head = 0; head < queue.size(); ++head)
        {
            const LinkId l = queue[head];
            links.push_back(l);
            for (FlowId f : m_links[l].flows)
            {
                if (m_flowMark[f] == m_epoch)
                {
                    continue;
                }
                m_flowMark[f] = m_epoch;
                flows.push_back(f);
                for (LinkId l2 : m_flows[f].links)
                {
                    if (m_linkMark[l2] != m_epoch)
                    {
                        m_linkMark[l2] = m_epoch;
                        queue.push_back(l2);
                    }
                }
            }
        }
        if (flows.empty())
        {
            continue; // a link without flows: nothing to solve
        }
        // The canonical order: the result does not depend on where the search started.
        std::sort(links.begin(), links.end());
        std::sort(flows.begin(), flows.end());
        m_lastLinks += static_cast<uint32_t>(links.size());
        m_lastFlows += static_cast<uint32_t>(flows.size());
        m_resolved.insert(m_resolved.end(), flows.begin(), flows.end());
        FillComponent(links, flows);
    }
    NS_LOG_LOGIC("re-solved " << m_lastFlows << " flows over " << m_lastLinks << " links");
}

void
FlowRateSolver::FillComponent(const std::vector<LinkId>& links, const std::vector<FlowId>& flows)
{
    // A min-heap of (fair share, link, version): an entry is stale once the link's version has
    // moved on (its share changed) or its flows are all frozen. Ties between equal shares go to
    // the smaller link index, so the order is canonical.
    using Entry = std::tuple<double, LinkId, uint32_t>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap;
    for (FlowId f : flows)
    {
        m_frozen[f] = 0;
    }
    for (LinkId l : links)
    {
        m_remaining[l] = m_links[l].capacity;
        m_unfrozen[l] = static_cast<uint32_t>(m_links[l].flows.size());
        ++m_version[l];
        if (m_unfrozen[l] > 0)
        {
            heap.emplace(m_remaining[l] / m_unfrozen[l], l, m_version[l]);
        }
    }
    while (!heap.empty())
    {
        const auto [share, l, version] = heap.top();
        heap.pop();
        if (version != m_version[l] || m_unfrozen[l] == 0)
        {
            continue;
        }
        // The bottleneck: freeze its unfrozen flows at its share.
        for (FlowId f : m_links[l].flows)
        {
            if (m_frozen[f])
            {
                continue;
            }
            m_frozen[f] = 1;
            m_flows[f].rate = share;
            for (LinkId l2 : m_flows[f].links)
            {
                m_remaining[l2] -= share;
                --m_unfrozen[l2];
                if (m_unfrozen[l2] > 0 && l2 != l)
                {
                    ++m_version[l2];
                    heap.emplace(std::max(0.0, m_remaining[l2]) / m_unfrozen[l2],
                                 l2,
                                 m_version[l2]);
                }
            }
        }
    }
}

} // namespace ns3
