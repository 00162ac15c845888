/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-engine.h"

#include "ns3/abort.h"
#include "ns3/fabric-channel.h"
#include "ns3/fabric-routing-table.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FlowEngine");
NS_OBJECT_ENSURE_REGISTERED(FlowEngine);

TypeId
FlowEngine::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FlowEngine")
                            .SetParent<Object>()
                            .SetGroupName("Flow")
                            .AddConstructor<FlowEngine>();
    return tid;
}

FlowEngine::FlowEngine()
{
    NS_LOG_FUNCTION(this);
    m_solver.SetDeferred(true);
}

FlowEngine::~FlowEngine()
{
    NS_LOG_FUNCTION(this);
}

void
FlowEngine::DoDispose()
{
    NS_LOG_FUNCTION(this);
    if (m_pod != nullptr)
    {
        for (const auto& ep : m_pod->endpoints)
        {
            ep->SetFlowEngine(FabricEndpoint::FlowEngineCallback());
        }
    }
    m_finishEvent.Cancel();
    m_updateEvent.Cancel();
    m_msgs.clear();
    m_sets.clear();
    m_pod = nullptr;
    Object::DoDispose();
}

std::string
FlowEngine::Install(const FabricPod& pod)
{
    NS_LOG_FUNCTION(this);
    m_pod = &pod;
    for (const auto& t : pod.transmitters)
    {
        const uint32_t link =
            NewLink(static_cast<double>(t.device->GetFabricChannel()->GetDataRate().GetBitRate()),
                    {});
        m_devLink[PeekPointer(t.device)] = link;
    }
    for (uint32_t k = 0; k < pod.views.size(); ++k)
    {
        const Ptr<FabricSwitchBase>& sw = pod.views[k].sw;
        for (uint32_t i = 0; i < sw->GetNPorts(); ++i)
        {
            m_owner[PeekPointer(sw->GetPort(i))] = {k, i};
        }
    }
    for (uint32_t a = 0; a < pod.accDevices.size(); ++a)
    {
        for (uint32_t p = 0; p < pod.accDevices[a].size(); ++p)
        {
            m_owner[PeekPointer(pod.accDevices[a][p])] = {a | ACC_BIT, p};
        }
    }
    // What the walks read at every hop, found once: the far end of each link direction and its
    // latencies, each switch port's link.
    m_info.resize(pod.transmitters.size());
    m_portLink.resize(pod.views.size());
    m_switches.resize(pod.views.size());
    m_tables.resize(pod.views.size());
    for (uint32_t k = 0; k < pod.views.size(); ++k)
    {
        const Ptr<FabricSwitchBase>& sw = pod.views[k].sw;
        m_switches[k] = PeekPointer(sw);
        m_tables[k] = PeekPointer(sw->GetRoutingTable());
        m_portLink[k].assign(sw->GetNPorts(), NO_SET);
        for (uint32_t i = 0; i < sw->GetNPorts(); ++i)
        {
            auto it = m_devLink.find(PeekPointer(sw->GetPort(i)));
            if (it != m_devLink.end())
            {
                m_portLink[k][i] = it->second;
            }
        }
    }
    for (uint32_t l = 0; l < pod.transmitters.size(); ++l)
    {
        const Ptr<FabricNetDevice>& dev = pod.transmitters[l].device;
        LinkInfo& li = m_info[l];
        Ptr<FabricChannel> ch = dev->GetFabricChannel();
        li.channel = PeekPointer(ch);
        Ptr<FabricNetDevice> peer = ch->GetPeer(dev);
        auto own = m_owner.find(PeekPointer(peer));
        li.peerOwner = own == m_owner.end() ? NO_SET : own->second.first;
        li.peerPort = own == m_owner.end() ? 0 : own->second.second;
        li.oneWay = ch->GetOneWayDelay();
        li.offset = peer->GetReceiveOffset(Time(0));
        li.offsetAddsUnit = peer->GetReceiveOffset(PicoSeconds(1)) != li.offset;
    }
    m_probe = Create<FabricPacket>();
    for (const auto& ep : pod.endpoints)
    {
        ep->SetFlowEngine(MakeCallback(&FlowEngine::Take, this));
    }
    return "";
}

FlowEngine::LinkStats
FlowEngine::GetLinkStats(Ptr<FabricNetDevice> device) const
{
    LinkStats st;
    auto it = m_devLink.find(PeekPointer(device));
    if (it == m_devLink.end())
    {
        return st;
    }
    if (m_bitsDirty)
    {
        // Bundles add their bits evenly over their members (once per change, not per call).
        m_deviceBits.assign(m_linkBits.begin(), m_linkBits.end());
        for (uint32_t b = 0; b < m_bundleMembers.size(); ++b)
        {
            const auto& members = m_bundleMembers[b];
            for (uint32_t l : members)
            {
                m_deviceBits[l] += m_linkBits[b] / members.size();
            }
        }
        m_bitsDirty = false;
    }
    const double bits = m_deviceBits[it->second];
    st.wireBytes = static_cast<uint64_t>(std::llround(bits / 8));
    const double rate = m_solver.GetCapacity(it->second);
    st.busyPs = rate > 0 ? static_cast<uint64_t>(std::llround(bits / rate * 1e12)) : 0;
    return st;
}

void
FlowEngine::Take(Ptr<FabricEndpoint> ep, const FabricMessage& m)
{
    NS_LOG_FUNCTION(this << m.src << m.dst << m.bytes);
    uint32_t slot;
    if (!m_freeMsg.empty())
    {
        slot = m_freeMsg.back();
        m_freeMsg.pop_back();
    }
    else
    {
        slot = static_cast<uint32_t>(m_msgs.size());
        m_msgs.emplace_back();
    }
    Message& msg = m_msgs[slot];
    msg = Message();
    msg.m = m;
    msg.src = ep;
    FabricFlowPlan& plan = m_plan; // reused: its vectors keep their capacity
    NS_ABORT_MSG_IF(!ep->PlanFlow(m, plan),
                    "FlowEngine: the endpoint of accelerator "
                        << m.src << " (" << ep->GetInstanceTypeId().GetName()
                        << ") offers no flow plan (FabricEndpoint::PlanFlow)");
    NS_ABORT_MSG_IF(plan.shares.empty(),
                    "FlowEngine: the flow plan of accelerator " << m.src << " has no port");
    // Routes now (they do not depend on time): a waiting message keeps them, not its plan.
    Routes(plan, m, msg.routes);
    // One FIFO per endpoint and plan queue (a plan's queue is the endpoint's own key).
    msg.queueKey = {m.src, plan.queue};
    msg.ready = Simulator::Now() + plan.setup;
    msg.wireBytes = plan.wireBytes;
    msg.arrival = plan.arrival;
    msg.ackReturn = plan.ackReturn;
    msg.completesOnAck = plan.completesOnAck;
    ++m_stats.messages;
    // Its FIFO: a list through the messages (head and tail here), most of them one long.
    auto [it, fresh] = m_fifos.try_emplace(msg.queueKey, Fifo{slot, slot});
    if (fresh)
    {
        Begin(slot);
    }
    else
    {
        m_msgs[it->second.tail].next = slot;
        it->second.tail = slot;
    }
}

void
FlowEngine::Begin(uint32_t msg)
{
    // The later of its post plus setup (a handshake overlaps the FIFO's previous message) and
    // now (the previous message's last byte has left).
    const Time wait = m_msgs[msg].ready - Simulator::Now();
    if (wait.IsStrictlyPositive())
    {
        Simulator::Schedule(wait, &FlowEngine::StartParts, this, msg);
    }
    else
    {
        StartParts(msg);
    }
}

void
FlowEngine::StartParts(uint32_t slot)
{
    Message& msg = m_msgs[slot];
    std::vector<Route> routes;
    routes.swap(msg.routes);
    const int64_t now = Simulator::Now().GetPicoSeconds();
    const double bits = 8.0 * static_cast<double>(msg.wireBytes);
    bool unrouted = false;
    for (Route& r : routes)
    {
        if (!r.ok)
        {
            unrouted = true;
            continue;
        }
        msg.latency = std::max(msg.latency, r.latency);
        if (r.links.empty())
        {
            continue; // nothing to cross
        }
        const FlowRateSolver::FlowId f = m_solver.AddFlow(r.links);
        if (f >= m_parts.size())
        {
            m_parts.resize(f + 1);
        }
        Part& p = m_parts[f];
        p.msg = slot;
        p.bits = bits * r.weight;
        p.totalBits = p.bits;
        p.rate = 0;
        p.since = now;
        ++p.version;
        p.links = std::move(r.links);
        ++msg.pending;
        ++m_stats.flows;
    }
    if (unrouted)
    {
        // A route that ends nowhere: the packet engine drops such units (no route); the
        // message is never delivered.
        ++m_stats.unrouted;
        NS_LOG_WARN("FlowEngine: message " << msg.m.id << " from " << msg.m.src << " to "
                                           << msg.m.dst << " has no route");
    }
    m_stats.peakFlows = std::max<uint64_t>(m_stats.peakFlows, m_solver.GetFlowCount());
    if (msg.pending == 0)
    {
        Sent(slot);
        return;
    }
    NeedUpdate();
}

void
FlowEngine::Routes(const FabricFlowPlan& plan, const FabricMessage& m, std::vector<Route>& routes)
{
    const uint32_t unit = plan.unitWireBytes;
    routes.clear();
    if (plan.sprayPorts && plan.shares.front().spray)
    {
        // Sprayed over the ports and at every switch: one route of bundles.
        Route r;
        r.ok = WalkSprayed(plan, 0, plan.shares.size(), m, unit, r);
        routes.push_back(std::move(r));
        AddLimits(plan, routes);
        return;
    }
    for (std::size_t i = 0; i < plan.shares.size(); ++i)
    {
        const FabricFlowPlan::Share& s = plan.shares[i];
        Route r;
        r.weight = s.fraction;
        if (s.spray)
        {
            r.ok = WalkSprayed(plan, i, 1, m, unit, r);
        }
        else
        {
            r.ok = Walk(s, m, unit, r);
        }
        routes.push_back(std::move(r));
    }
    if (plan.sprayPorts && routes.size() > 1)
    {
        // Units sprayed over the ports, each routed by its hash inside its plane: hop by hop,
        // the parts' links act as one bundle when every part has as many hops.
        bool same = true;
        for (const Route& r : routes)
        {
            same = same && r.ok && r.links.size() == routes.front().links.size();
        }
        if (same)
        {
            Route b;
            for (std::size_t h = 0; h < routes.front().links.size(); ++h)
            {
                std::vector<uint32_t> links;
                for (const Route& r : routes)
                {
                    links.push_back(r.links[h]);
                }
                b.links.push_back(Bundle(std::move(links)));
            }
            for (const Route& r : routes)
            {
                b.latency = std::max(b.latency, r.latency);
            }
            routes.assign(1, std::move(b));
        }
    }
    AddLimits(plan, routes);
}

void
FlowEngine::AddLimits(const FabricFlowPlan& plan, std::vector<Route>& routes)
{
    for (const FabricFlowPlan::Limit& lim : plan.limits)
    {
        // An endpoint's resource: a link of its own, shared by the messages that name it.
        auto it = m_limitLinks.find(lim.key);
        if (it == m_limitLinks.end())
        {
            it = m_limitLinks.emplace(lim.key, NewLink(lim.bitsPerSecond, {})).first;
        }
        for (Route& r : routes)
        {
            if (r.ok && !r.links.empty())
            {
                r.links.push_back(it->second);
            }
        }
    }
}

bool
FlowEngine::Walk(const FabricFlowPlan::Share& share,
                 const FabricMessage& m,
                 uint32_t unitBytes,
                 Route& route)
{
    auto first = m_devLink.find(share.port);
    if (first == m_devLink.end())
    {
        return false; // not a link of the pod
    }
    FabricPacket& p = *m_probe;
    p.src = m.src;
    p.dst = m.dst;
    p.tclass = m.tclass;
    p.msgId = m.id;
    p.msgBytes = m.bytes;
    p.flowHash = share.flowHash;
    p.sourceRoute = share.sourceRoute;
    uint32_t link = first->second;
    for (uint32_t hops = 0; hops < 64; ++hops)
    {
        route.links.push_back(link);
        const LinkInfo& li = m_info[link];
        const Time unit = li.channel->GetSerializationTime(unitBytes);
        route.latency += li.oneWay + li.offset + (li.offsetAddsUnit ? unit : Time(0));
        if (li.peerOwner == NO_SET)
        {
            return false;
        }
        if ((li.peerOwner & ACC_BIT) != 0)
        {
            route.latency -= unit; // whole at its tail's arrival
            return (li.peerOwner & ~ACC_BIT) == m.dst;
        }
        const uint32_t out = m_switches[li.peerOwner]->ProbeRoute(m_probe, li.peerPort);
        const std::vector<uint32_t>& ports = m_portLink[li.peerOwner];
        if (out >= ports.size() || ports[out] == NO_SET)
        {
            return false;
        }
        link = ports[out];
    }
    return false; // a loop
}

uint32_t
FlowEngine::Bundle(std::vector<uint32_t> links)
{
    std::sort(links.begin(), links.end());
    links.erase(std::unique(links.begin(), links.end()), links.end());
    if (links.size() == 1)
    {
        return links.front();
    }
    auto it = m_bundles.find(links);
    if (it != m_bundles.end())
    {
        return it->second;
    }
    double capacity = 0;
    for (uint32_t l : links)
    {
        capacity += m_solver.GetCapacity(l);
    }
    const uint32_t b = NewLink(capacity, links);
    m_bundles.emplace(std::move(links), b);
    return b;
}

uint32_t
FlowEngine::NewLink(double capacityBps, std::vector<uint32_t> members)
{
    // A solver link and what the engine keeps beside it: its bits, its bundle's members.
    const uint32_t link = m_solver.AddLink(capacityBps);
    m_linkBits.push_back(0);
    m_bundleMembers.push_back(std::move(members));
    return link;
}

uint32_t
FlowEngine::SetOf(std::vector<uint32_t> links)
{
    std::sort(links.begin(), links.end());
    links.erase(std::unique(links.begin(), links.end()), links.end());
    auto it = m_setIds.find(links);
    if (it != m_setIds.end())
    {
        return it->second;
    }
    SpraySet s;
    s.link = Bundle(links);
    s.firstLink = links.front();
    s.links = links;
    const uint32_t id = static_cast<uint32_t>(m_sets.size());
    m_sets.push_back(std::move(s));
    m_setIds.emplace(std::move(links), id);
    return id;
}

uint32_t
FlowEngine::NextSet(uint32_t set, uint32_t dst)
{
    // Where the units of a set go next depends on the destination only through its route
    // entry at the switches the set leads to: the set's switches are built alike (a sprayed
    // fabric's planes and stages), so the first one's entry stands for all of them.
    const LinkInfo& li = m_info[m_sets[set].firstLink];
    if (li.peerOwner == NO_SET)
    {
        return NO_SET;
    }
    if ((li.peerOwner & ACC_BIT) != 0)
    {
        return li.peerOwner; // reached an accelerator
    }
    const uint32_t entry = m_tables[li.peerOwner]->GetRouteEntry(dst);
    const uint64_t key = (static_cast<uint64_t>(set) << 32) | entry;
    auto it = m_nextSet.find(key);
    if (it != m_nextSet.end())
    {
        return it->second;
    }
    std::vector<uint32_t> next;
    for (uint32_t l : m_sets[set].links)
    {
        const LinkInfo& in = m_info[l];
        if (in.peerOwner == NO_SET || (in.peerOwner & ACC_BIT) != 0)
        {
            continue; // a mixed hop: the switches' parts go on
        }
        const std::vector<uint32_t>& ports = m_portLink[in.peerOwner];
        for (uint32_t port : m_tables[in.peerOwner]->GetPortGroup(dst))
        {
            if (port < ports.size() && ports[port] != NO_SET)
            {
                next.push_back(ports[port]);
            }
        }
    }
    const uint32_t id = next.empty() ? NO_SET : SetOf(std::move(next));
    m_nextSet.emplace(key, id);
    return id;
}

bool
FlowEngine::WalkSprayed(const FabricFlowPlan& plan,
                        std::size_t begin,
                        std::size_t count,
                        const FabricMessage& m,
                        uint32_t unitBytes,
                        Route& route)
{
    // The first hop's set, by its first port and size (an endpoint sprays over the same ports
    // every time): found once.
    const uint64_t key =
        reinterpret_cast<uintptr_t>(plan.shares[begin].port) ^ (static_cast<uint64_t>(count) << 52);
    auto fit = m_firstSet.find(key);
    uint32_t set;
    if (fit != m_firstSet.end())
    {
        set = fit->second;
    }
    else
    {
        std::vector<uint32_t> first;
        for (std::size_t i = begin; i < begin + count; ++i)
        {
            auto l = m_devLink.find(plan.shares[i].port);
            if (l == m_devLink.end())
            {
                return false; // not a link of the pod
            }
            first.push_back(l->second);
        }
        set = SetOf(std::move(first));
        m_firstSet.emplace(key, set);
    }
    for (uint32_t hops = 0; hops < 64 && set != NO_SET; ++hops)
    {
        const SpraySet& ss = m_sets[set];
        route.links.push_back(ss.link);
        const LinkInfo& li = m_info[ss.firstLink];
        const Time unit = li.channel->GetSerializationTime(unitBytes);
        route.latency += li.oneWay + li.offset + (li.offsetAddsUnit ? unit : Time(0));
        const uint32_t next = NextSet(set, m.dst);
        if (next != NO_SET && (next & ACC_BIT) != 0)
        {
            route.latency -= unit; // whole at its tail's arrival
            return (next & ~ACC_BIT) == m.dst;
        }
        set = next;
    }
    return false;
}

void
FlowEngine::NeedUpdate()
{
    if (!m_updateEvent.IsRunning())
    {
        m_updateEvent = Simulator::ScheduleNow(&FlowEngine::Update, this);
    }
}

void
FlowEngine::Update()
{
    m_solver.Update();
    ++m_stats.resolves;
    const int64_t now = Simulator::Now().GetPicoSeconds();
    const std::vector<FlowRateSolver::FlowId>& resolved = m_solver.GetResolvedFlows();
    m_stats.resolvedFlows += resolved.size();
    for (FlowRateSolver::FlowId f : resolved)
    {
        Part& p = m_parts[f];
        if (p.rate > 0)
        {
            p.bits -= p.rate * static_cast<double>(now - p.since) * 1e-12;
        }
        p.since = now;
        p.rate = m_solver.GetRate(f);
        ++p.version;
        if (p.rate > 0)
        {
            const double ps = std::ceil(std::max(0.0, p.bits) / p.rate * 1e12);
            m_heap.emplace(now + static_cast<int64_t>(ps), std::make_pair(f, p.version));
        }
    }
    Reschedule();
}

void
FlowEngine::Reschedule()
{
    while (!m_heap.empty())
    {
        const auto& [at, who] = m_heap.top();
        const Part& p = m_parts[who.first];
        if (p.version == who.second && m_solver.IsActive(who.first))
        {
            break;
        }
        m_heap.pop();
    }
    if (m_heap.empty())
    {
        m_finishEvent.Cancel();
        m_finishAt = -1;
        return;
    }
    const int64_t at = m_heap.top().first;
    if (at == m_finishAt && m_finishEvent.IsRunning())
    {
        return;
    }
    m_finishEvent.Cancel();
    m_finishAt = at;
    const int64_t now = Simulator::Now().GetPicoSeconds();
    m_finishEvent =
        Simulator::Schedule(PicoSeconds(std::max<int64_t>(0, at - now)), &FlowEngine::Finish, this);
}

void
FlowEngine::Finish()
{
    const int64_t now = Simulator::Now().GetPicoSeconds();
    m_finishAt = -1;
    std::vector<uint32_t> done;
    while (!m_heap.empty() && m_heap.top().first <= now)
    {
        const auto who = m_heap.top().second;
        m_heap.pop();
        const Part& p = m_parts[who.first];
        if (p.version == who.second && m_solver.IsActive(who.first))
        {
            done.push_back(who.first);
        }
    }
    for (uint32_t f : done)
    {
        PartDone(f);
    }
    NeedUpdate();
}

void
FlowEngine::PartDone(uint32_t f)
{
    Part& p = m_parts[f];
    for (uint32_t l : p.links)
    {
        m_linkBits[l] += p.totalBits;
    }
    m_bitsDirty = true;
    ++p.version;
    p.rate = 0;
    m_solver.RemoveFlow(f);
    const uint32_t slot = p.msg;
    if (--m_msgs[slot].pending == 0)
    {
        Sent(slot);
    }
}

void
FlowEngine::Sent(uint32_t slot)
{
    // The last byte has left: the FIFO's next message may start, the last byte arrives after
    // the path's latency.
    Message& msg = m_msgs[slot];
    auto fifo = m_fifos.find(msg.queueKey);
    NS_ASSERT(fifo != m_fifos.end() && fifo->second.head == slot);
    const Time latency = msg.latency + msg.arrival;
    const bool onAck = msg.completesOnAck;
    if (fifo->second.tail == slot)
    {
        m_fifos.erase(fifo);
    }
    else
    {
        fifo->second.head = msg.next;
        Begin(msg.next);
    }
    Simulator::Schedule(latency, &FlowEngine::Deliver, this, slot);
    if (!onAck)
    {
        Complete(slot); // completion when the last unit has left the source
    }
}

void
FlowEngine::Deliver(uint32_t slot)
{
    Message& msg = m_msgs[slot];
    msg.m.delivered = Simulator::Now();
    msg.delivered = true;
    const FabricMessage m = msg.m;
    const bool onAck = msg.completesOnAck;
    const Time back = msg.ackReturn.IsStrictlyPositive() ? msg.ackReturn : msg.latency;
    if (onAck)
    {
        // The acknowledgement's way back: the plan's, or the path's latency again.
        Simulator::Schedule(back, &FlowEngine::Complete, this, slot);
    }
    m_pod->endpoints[m.dst]->FlowDelivered(m);
    Release(slot);
}

void
FlowEngine::Complete(uint32_t slot)
{
    Message& msg = m_msgs[slot];
    msg.m.completed = Simulator::Now();
    msg.completed = true;
    const FabricMessage m = msg.m;
    Ptr<FabricEndpoint> src = msg.src;
    src->FlowCompleted(m);
    Release(slot);
}

void
FlowEngine::Release(uint32_t slot)
{
    Message& msg = m_msgs[slot];
    if (msg.delivered && msg.completed)
    {
        msg.src = nullptr;
        m_freeMsg.push_back(slot);
    }
}

} // namespace ns3
