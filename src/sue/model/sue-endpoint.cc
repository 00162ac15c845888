/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "sue-endpoint.h"

#include "ns3/abort.h"
#include "ns3/enum.h"
#include "ns3/fabric-clock.h"
#include "ns3/fabric-drop-reason.h"
#include "ns3/fabric-flow-plan.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SueEndpoint");
NS_OBJECT_ENSURE_REGISTERED(SueEndpoint);

TypeId
SueEndpoint::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SueEndpoint")
            .SetParent<FabricEndpoint>()
            .SetGroupName("Sue")
            .AddConstructor<SueEndpoint>()
            .AddAttribute("LoadBalance",
                          "How the XPU spreads messages over its SUE instances (RM102 section "
                          "4.3): RoundRobin, LeastLoaded (fewest bytes outstanding, the "
                          "instances' congestion state), Hash (of the source-destination pair, "
                          "which keeps a pair on one instance).",
                          EnumValue(ROUND_ROBIN),
                          MakeEnumAccessor(&SueEndpoint::m_loadBalance),
                          MakeEnumChecker(ROUND_ROBIN,
                                          "RoundRobin",
                                          LEAST_LOADED,
                                          "LeastLoaded",
                                          HASH,
                                          "Hash"))
            .AddAttribute("TxLatency",
                          "SUE transmit latency, command interface to wire (SUE RM102 Appendix "
                          "A.1: 100 ns).",
                          TimeValue(NanoSeconds(100)),
                          MakeTimeAccessor(&SueEndpoint::m_txLatency),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("RxLatency",
                          "SUE receive latency, wire to command interface (SUE RM102 Appendix "
                          "A.1: 100 ns).",
                          TimeValue(NanoSeconds(100)),
                          MakeTimeAccessor(&SueEndpoint::m_rxLatency),
                          MakeTimeChecker(Seconds(0)));
    return tid;
}

SueEndpoint::SueEndpoint()
{
    NS_LOG_FUNCTION(this);
}

SueEndpoint::~SueEndpoint()
{
    NS_LOG_FUNCTION(this);
}

void
SueEndpoint::DoDispose()
{
    m_instances.clear();
    m_rx.clear();
    m_delivered.clear();
    m_done.clear();
    FabricEndpoint::DoDispose();
}

void
SueEndpoint::Configure(const ObjectFactory& instance,
                       const ObjectFactory& packer,
                       const ObjectFactory& transport,
                       bool lite,
                       uint32_t portsPerInstance)
{
    NS_ABORT_MSG_IF(portsPerInstance != 1 && portsPerInstance != 2 && portsPerInstance != 4,
                    "a SUE instance has 1, 2 or 4 ports (RM102 section 1.1), not "
                        << portsPerInstance);
    m_instanceFactory = instance;
    m_packerFactory = packer;
    m_transportFactory = transport;
    m_lite = lite;
    m_portsPerInstance = portsPerInstance;
}

void
SueEndpoint::AddDevice(Ptr<FabricNetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    if (m_nDevices % m_portsPerInstance == 0)
    {
        Ptr<SueInstance> in = m_instanceFactory.Create<SueInstance>();
        in->Configure(m_packerFactory, m_transportFactory, m_lite, GetAcceleratorId());
        m_instances.push_back(in);
        in->SetReceiveCallback(MakeCallback(&SueEndpoint::Receive, this));
        in->SetDoneCallback(MakeCallback(&SueEndpoint::Done, this));
        m_trackDuplicates = m_trackDuplicates ||
                            (in->GetOrdering() == SueInstance::UNORDERED && m_portsPerInstance > 1);
    }
    m_instances.back()->AddPort(device);
    ++m_nDevices;
}

void
SueEndpoint::SetDirectPeer(uint32_t device, uint32_t peer)
{
    NS_LOG_FUNCTION(this << device << peer);
    NS_ABORT_MSG_IF(device >= m_nDevices, "SueEndpoint::SetDirectPeer: no port " << device);
    const uint32_t k = device / m_portsPerInstance;
    m_instances[k]->SetPeerPort(peer, device % m_portsPerInstance);
    std::vector<uint32_t>& in = m_direct[peer];
    if (std::find(in.begin(), in.end(), k) == in.end())
    {
        in.push_back(k);
    }
}

void
SueEndpoint::AddInstance(Ptr<SueInstance> instance)
{
    NS_LOG_FUNCTION(this << instance);
    instance->SetReceiveCallback(MakeCallback(&SueEndpoint::Receive, this));
    instance->SetDoneCallback(MakeCallback(&SueEndpoint::Done, this));
    m_trackDuplicates = m_trackDuplicates || (instance->GetOrdering() == SueInstance::UNORDERED &&
                                              instance->GetNPorts() > 1);
    m_instances.push_back(instance);
}

Ptr<SueInstance>
SueEndpoint::GetInstance(uint32_t i) const
{
    NS_ASSERT(i < m_instances.size());
    return m_instances[i];
}

double
SueEndpoint::GetCongestionState(uint32_t dst) const
{
    // The fraction of instances with more than one packing limit of data waiting to be packed.
    (void)dst;
    if (m_instances.empty())
    {
        return 0;
    }
    uint32_t busy = 0;
    for (const auto& in : m_instances)
    {
        Ptr<SuePacker> p = in->GetPacker(0);
        busy += p && in->GetBacklogBytes() > p->GetPackingLimit() ? 1 : 0;
    }
    return static_cast<double>(busy) / m_instances.size();
}

void
SueEndpoint::DoSend(const FabricMessage& m)
{
    NS_ABORT_MSG_IF(m_instances.empty(),
                    "SueEndpoint " << GetAcceleratorId() << " has no instance");
    uint32_t k = ANY_INSTANCE;
    if (!m_allActive)
    {
        // Only some instances simulated: choose now (SetActiveInstances says why that is the
        // same choice) and send nothing for the others.
        k = PickInstance(m.dst);
        if (k >= 64 || ((m_activeMask >> k) & 1) == 0)
        {
            if (!m_skipped.IsNull())
            {
                m_skipped(m);
            }
            return;
        }
    }
    m_activeBytes += m.bytes;
    if (m_txLatency.IsZero())
    {
        Dispatch(k, m);
    }
    else
    {
        Simulator::Schedule(m_txLatency, &SueEndpoint::Dispatch, this, k, m);
    }
}

void
SueEndpoint::SetActiveInstances(uint64_t mask, SkippedCallback skipped)
{
    NS_LOG_FUNCTION(this << mask);
    NS_ABORT_MSG_IF(GetMessagesSent() != 0, "SueEndpoint: SetActiveInstances after a post");
    NS_ABORT_MSG_IF(m_loadBalance == LEAST_LOADED,
                    "SueEndpoint: only some instances active with LeastLoaded, which reads the "
                    "state of all of them");
    NS_ABORT_MSG_IF(!m_direct.empty(), "SueEndpoint: only some instances active in a mesh");
    m_activeMask = mask;
    m_skipped = skipped;
    m_allActive = true;
    for (uint32_t k = 0; k < m_instances.size(); ++k)
    {
        m_allActive = m_allActive && k < 64 && ((mask >> k) & 1) != 0;
    }
}

uint64_t
SueEndpoint::Read(uint32_t target, uint64_t bytes, uint8_t /* tclass */, uint64_t cookie)
{
    return Read(target, bytes, cookie);
}

uint64_t
SueEndpoint::Read(uint32_t dst, uint64_t bytes, uint64_t cookie)
{
    NS_ABORT_MSG_IF(bytes == 0, "a read asks for at least one byte");
    NS_ABORT_MSG_IF(!m_allActive, "SueEndpoint: a read with only some instances active");
    NS_ABORT_MSG_IF(m_instances.empty(),
                    "SueEndpoint " << GetAcceleratorId() << " has no instance");
    FabricMessage m;
    m.id = (uint64_t(1) << 39) | m_nextReadId++; // apart from write ids (40-bit message keys)
    m.src = GetAcceleratorId();
    m.dst = dst;
    m.bytes = bytes;
    m.tclass = 0; // requests on VC0 (3.2.2)
    m.cookie = cookie;
    m.posted = FabricClock::Now();
    NotifyPosted(m); // the Post trace, as for a write (the run's watchdog counts posted work)
    Simulator::Schedule(m_txLatency,
                        [this, m]() { m_instances[PickInstance(m.dst)]->EnqueueOp(m, 1); });
    return m.id;
}

void
SueEndpoint::CompleteRead(FabricMessage m)
{
    ++m_readsCompleted;
    // The data, from the responder, is delivered here at the reader; the read completes at once.
    FabricMessage data = m;
    std::swap(data.src, data.dst);
    data.tclass = 1;
    data.delivered = m.completed;
    NotifyDelivered(data);
    NotifyCompleted(m);
}

bool
SueEndpoint::PlanFlow(const FabricMessage& m, FabricFlowPlan& plan)
{
    if (m_instances.empty())
    {
        return false;
    }
    // The load balancer's choice, in post order as Dispatch makes it (RoundRobin and Hash
    // depend on the order alone; LeastLoaded sees no bytes in flight here: see sue.rst).
    const uint32_t k = PickInstance(m.dst);
    Ptr<SueInstance> in = m_instances[k];
    if (in->GetNPorts() == 0)
    {
        return false;
    }
    plan = FabricFlowPlan();
    // The PDUs' flow hash: the go-back-N transport wrapping each port's packer sets its
    // connection's (the same on every port), SUE Lite keeps the packer's.
    const uint32_t hash = m_lite ? SuePacker::FlowHash(GetAcceleratorId(), m.dst)
                                 : FabricGoBackN::ConnectionHash(GetAcceleratorId(), m.dst);
    std::vector<uint32_t> ports;
    if (in->IsOnePortPerDestination())
    {
        ports.push_back(in->StrictPort(m.dst)); // Strict ordering or a mesh: one port
    }
    else
    {
        // Unordered: one packer feeds every live port, each taking the next PDU when it is free,
        // so the PDUs spread evenly over them.
        for (uint32_t i = 0; i < in->GetNPorts(); ++i)
        {
            if (in->IsPortUp(i))
            {
                ports.push_back(i);
            }
        }
        if (ports.empty())
        {
            ports.push_back(0);
        }
    }
    for (uint32_t i : ports)
    {
        FabricFlowPlan::Share share;
        share.port = PeekPointer(in->GetPort(i));
        share.flowHash = hash;
        share.fraction = 1.0 / ports.size();
        plan.shares.push_back(share);
    }
    plan.sprayPorts = ports.size() > 1;
    const SuePacker::LoneWire w =
        in->GetPacker(ports.front())
            ->GetLoneWire(m.bytes, in->GetPort(ports.front())->GetInterframeBytes());
    plan.wireBytes = w.wireBytes;
    plan.unitWireBytes = w.largestPdu;
    // One {destination, VC} queue of the instance's packer: its messages are packed in order;
    // the packer serves the VCs and, within one, the queues round robin (RM102 4.2 step 3).
    // Unique for destinations below 2^48 and instances below 256 (an XPU's planes).
    plan.queue =
        (static_cast<uint64_t>(m.dst) << 16) | (static_cast<uint64_t>(k & 0xFF) << 8) | m.tclass;
    plan.setup = m_txLatency;
    // The receiver's RxLatency before it reports the message (every XPU's is the same).
    plan.arrival = m_rxLatency;
    plan.completesOnAck = !m_lite;
    return true;
}

uint32_t
SueEndpoint::PickInstance(uint32_t dst)
{
    if (!m_direct.empty())
    {
        // A mesh: only the instances with a link to dst, chosen among by the same policy.
        auto it = m_direct.find(dst);
        NS_ABORT_MSG_IF(it == m_direct.end(),
                        "XPU " << GetAcceleratorId() << " has no link to XPU " << dst
                               << " in the mesh");
        const std::vector<uint32_t>& c = it->second;
        if (c.size() == 1)
        {
            return c.front();
        }
        switch (m_loadBalance)
        {
        case ROUND_ROBIN:
            m_next = (m_next + 1) % c.size();
            return c[m_next % c.size()];
        case LEAST_LOADED: {
            uint32_t best = c.front();
            for (uint32_t k : c)
            {
                if (m_instances[k]->GetInFlightBytes() < m_instances[best]->GetInFlightBytes())
                {
                    best = k;
                }
            }
            return best;
        }
        case HASH:
            break;
        }
        return c[(GetAcceleratorId() + dst) % c.size()];
    }
    const uint32_t n = m_instances.size();
    uint32_t k = 0;
    switch (m_loadBalance)
    {
    case ROUND_ROBIN:
        // Each XPU starts at its own id, so that the first messages of many senders spread.
        k = (GetAcceleratorId() + m_next) % n;
        m_next = (m_next + 1) % n;
        break;
    case LEAST_LOADED: {
        uint64_t best = ~uint64_t(0);
        for (uint32_t i = 0; i < n; ++i)
        {
            const uint32_t j = (GetAcceleratorId() + m_next + i) % n;
            const uint64_t load = m_instances[j]->GetInFlightBytes();
            if (load < best)
            {
                best = load;
                k = j;
            }
        }
        m_next = (m_next + 1) % n;
        break;
    }
    case HASH:
        // Of the {source, destination} pair, not of the destination alone: every source would
        // then reach a destination over the same plane, and the destination would receive on
        // one of its ports only. (source + destination) mod n keeps a pair on one instance
        // (strict order) and spreads each destination's senders evenly over its planes.
        k = (GetAcceleratorId() + dst) % n;
        break;
    }
    return k;
}

void
SueEndpoint::Dispatch(uint32_t k, const FabricMessage& m)
{
    m_instances[k == ANY_INSTANCE ? PickInstance(m.dst) : k]->Enqueue(m);
}

uint64_t
SueEndpoint::Insert(Reassembly& r, uint64_t a, uint64_t b)
{
    if (b <= r.next)
    {
        return 0;
    }
    a = std::max(a, r.next);
    if (a == r.next && (!r.ooo || r.ooo->empty()))
    {
        r.next = b; // in order: the common case, no map
        r.received += b - a;
        return b - a;
    }
    if (!r.ooo)
    {
        r.ooo = std::make_unique<std::map<uint64_t, uint64_t>>();
    }
    std::map<uint64_t, uint64_t>& m = *r.ooo;
    uint64_t lo = a;
    uint64_t hi = b;
    uint64_t overlap = 0;
    auto it = m.upper_bound(a);
    if (it != m.begin())
    {
        auto p = std::prev(it);
        if (p->second >= a)
        {
            overlap += std::min(p->second, b) - a;
            lo = p->first;
            hi = std::max(hi, p->second);
            m.erase(p);
        }
    }
    while (it != m.end() && it->first <= b)
    {
        overlap += std::min(it->second, b) - it->first;
        hi = std::max(hi, it->second);
        it = m.erase(it);
    }
    m.emplace(lo, hi);
    // Absorb what now joins the prefix.
    while (!m.empty() && m.begin()->first <= r.next)
    {
        r.next = std::max(r.next, m.begin()->second);
        m.erase(m.begin());
    }
    const uint64_t added = (b - a) - overlap;
    r.received += added;
    return added;
}

void
SueEndpoint::Receive(const Ptr<FabricPacket>& p)
{
    if (p->dst != GetAcceleratorId())
    {
        ++m_misdelivered;
        return;
    }
    p->ForEachSegment([this, &p](const FabricPacket::Segment& s) { ReceivePiece(p, s); });
}

void
SueEndpoint::ReceivePiece(const Ptr<FabricPacket>& p, const FabricPacket::Segment& s)
{
    const uint64_t key = (static_cast<uint64_t>(p->src) << 40) | s.msgId;
    FabricMessage m;
    m.id = s.msgId;
    m.src = p->src;
    m.dst = p->dst;
    m.bytes = s.msgBytes;
    m.tclass = s.tclass;
    m.cookie = s.cookie;
    m.posted = s.posted;
    if (s.op == 1)
    {
        // A read request: it goes up through SUE RX to the XPU, whose memory answers at once
        // (memory timing is the XPU's, not SUE's), and the data comes back down through SUE TX
        // on VC1 (3.2.2).
        FabricMessage resp;
        resp.id = s.msgId;
        resp.src = GetAcceleratorId();
        resp.dst = p->src;
        resp.bytes = s.msgBytes;
        resp.tclass = 1;
        resp.cookie = s.cookie;
        resp.posted = s.posted;
        CountSentPayload(resp.bytes); // the response's data is this XPU's to send
        Simulator::Schedule(m_rxLatency + m_txLatency, [this, resp]() {
            m_instances[PickInstance(resp.dst)]->EnqueueOp(resp, 2);
        });
        return;
    }
    if (m_trackDuplicates && m_delivered.count(key))
    {
        m_duplicateBytes += s.bytes;
        return;
    }
    if (s.offset == 0 && s.bytes == s.msgBytes)
    {
        CountReceivedPayload(s.bytes); // the whole message in one piece
        if (m_trackDuplicates)
        {
            m_delivered.insert(key);
        }
        Deliver(m, s.op);
        return;
    }
    Reassembly& r = m_rx[key];
    if (s.offset != r.next)
    {
        ++m_outOfOrder;
    }
    const uint64_t added = Insert(r, s.offset, s.offset + s.bytes);
    CountReceivedPayload(added);
    m_duplicateBytes += s.bytes - added;
    NS_ABORT_MSG_IF(r.received > s.msgBytes,
                    "SueEndpoint: message " << s.msgId << " from " << p->src
                                            << " received more bytes than it has");
    if (r.received == s.msgBytes)
    {
        m_rx.erase(key);
        if (m_trackDuplicates)
        {
            m_delivered.insert(key);
        }
        Deliver(m, s.op);
    }
}

void
SueEndpoint::Deliver(FabricMessage m, uint8_t op)
{
    if (op == 2)
    {
        // A read response: the read was ours, to the responder; it completes here.
        std::swap(m.src, m.dst);
        m.tclass = 0;
        m.completed = FabricClock::Now() + m_rxLatency;
        Simulator::Schedule(m_rxLatency, &SueEndpoint::CompleteRead, this, m);
        return;
    }
    if (m_rxLatency.IsZero())
    {
        m.delivered = FabricClock::Now();
        NotifyDelivered(m);
        return;
    }
    m.delivered = FabricClock::Now() + m_rxLatency;
    Simulator::Schedule(m_rxLatency, &SueEndpoint::NotifyDelivered, this, m);
}

void
SueEndpoint::Done(const Ptr<FabricPacket>& p)
{
    p->ForEachSegment([this, &p](const FabricPacket::Segment& s) { DonePiece(p, s); });
}

void
SueEndpoint::DonePiece(const Ptr<FabricPacket>& p, const FabricPacket::Segment& s)
{
    if (s.op != 0)
    {
        return; // read requests and responses complete when the response arrives
    }
    bool done = s.bytes == s.msgBytes;
    if (!done)
    {
        auto it = m_done.try_emplace(s.msgId, 0).first;
        it->second += s.bytes;
        done = it->second == s.msgBytes;
        if (done)
        {
            m_done.erase(it);
        }
    }
    if (done)
    {
        FabricMessage m;
        m.id = s.msgId;
        m.src = p->src;
        m.dst = p->dst;
        m.bytes = s.msgBytes;
        m.tclass = s.tclass;
        m.cookie = s.cookie;
        m.posted = s.posted;
        m.completed = FabricClock::Now();
        NotifyCompleted(m);
    }
}

} // namespace ns3
