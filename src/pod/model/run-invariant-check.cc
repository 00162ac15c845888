/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "run-invariant-check.h"

#include "pod-topology.h"

#include "ns3/fabric-channel.h"
#include "ns3/fabric-credit-flow-control.h"
#include "ns3/fabric-drop-reason.h"
#include "ns3/fabric-go-back-n.h"
#include "ns3/fabric-invariant-check.h"
#include "ns3/fabric-net-device.h"
#include "ns3/fabric-output-queue.h"
#include "ns3/fabric-shared-buffer.h"
#include "ns3/fabric-switch.h"
#include "ns3/log.h"
#include "ns3/node-list.h"
#include "ns3/node.h"
#include "ns3/uinteger.h"

#include <unordered_map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RunInvariantCheck");

namespace
{
/// Per-flow totals of the message table.
struct FlowTotals
{
    uint64_t posted{0};      //!< bytes posted
    uint64_t delivered{0};   //!< bytes delivered
    uint64_t messages{0};    //!< messages posted
    uint64_t undelivered{0}; //!< messages not delivered
    uint64_t incomplete{0};  //!< messages not completed
};

/// \param src source \param dst destination \return "acc<src>->acc<dst>"
std::string
FlowName(uint32_t src, uint32_t dst)
{
    return "flow acc" + std::to_string(src) + "->acc" + std::to_string(dst);
}
} // namespace

RunInvariantCheck::RunInvariantCheck()
{
    NS_LOG_FUNCTION(this);
}

void
RunInvariantCheck::Watch(const PodTopology& topo)
{
    NS_LOG_FUNCTION(this);
    m_topo = &topo;
    // A switch is named as its links name it ("<from>-><to>": a port's transmitter is its
    // switch): every builder names its links, PodTopology::GetSwitchName only graph-built pods.
    std::unordered_map<const FabricNetDevice*, std::string> from;
    for (const auto& t : topo.GetTransmitters())
    {
        from[PeekPointer(t.device)] = t.name.substr(0, t.name.find("->"));
    }
    std::unordered_map<const FabricNetDevice*, std::string> portName;
    const auto& switches = topo.GetSwitches();
    for (uint32_t k = 0; k < switches.size(); ++k)
    {
        auto named = switches[k]->GetNPorts() > 0 ? from.find(PeekPointer(switches[k]->GetPort(0)))
                                                  : from.end();
        const std::string sw = named != from.end() ? named->second : "switch" + std::to_string(k);
        FabricInvariantCheck::SetName(PeekPointer(switches[k]->GetBuffer()), sw + " buffer");
        for (uint32_t i = 0; i < switches[k]->GetNPorts(); ++i)
        {
            const std::string port = sw + ":port" + std::to_string(i);
            portName[PeekPointer(switches[k]->GetPort(i))] = port;
            FabricInvariantCheck::SetName(PeekPointer(switches[k]->GetOutputQueue(i)),
                                          port + " output queue");
        }
    }
    for (const auto& t : topo.GetTransmitters())
    {
        const FabricNetDevice* dev = PeekPointer(t.device);
        auto it = portName.find(dev);
        const std::string name =
            (it != portName.end() ? it->second : from[dev]) + " (link " + t.name + ")";
        FabricInvariantCheck::SetName(dev, name);
        t.device->TraceConnectWithoutContext(
            "Drop",
            MakeBoundCallback(&RunInvariantCheck::DeviceDropped, this, dev));
    }
    for (uint32_t i = 0; i < topo.GetNAccelerators(); ++i)
    {
        // Endpoints with drops of their own (the cell adapter's page validation).
        topo.GetEndpoint(i)->TraceConnectWithoutContext(
            "Drop",
            MakeCallback(&RunInvariantCheck::Dropped, this));
        // A UALink accelerator's TL and completer drop operations in their drop modes (3.1.3).
        topo.GetEndpoint(i)->TraceConnectWithoutContext(
            "OperationDrop",
            MakeCallback(&RunInvariantCheck::DroppedPiece, this));
    }
    // The fabric's own components (a UALink TL) and its drops outside the devices (a UALink
    // switch drops operations, no route or route denied, before any device sees them).
    topo.GetKind().WatchChecks(topo.GetPod(), MakeCallback(&RunInvariantCheck::DroppedPiece, this));
}

void
RunInvariantCheck::DeviceDropped(RunInvariantCheck* self,
                                 const FabricNetDevice* dev,
                                 Ptr<const FabricPacket> p,
                                 const std::string& reason)
{
    // A data unit lost on the wire gets its credits back (FabricCreditFlowControl::NotifyLost);
    // a lost credit frame is made good only by the next one (credit counts are cumulative), so
    // the last one of a run may be missing at the end.
    if (reason == FabricDropReason::CORRUPTED && p->IsLinkControl())
    {
        self->m_corrupted.insert(dev);
    }
    self->Dropped(p, reason);
}

void
RunInvariantCheck::DroppedPiece(uint32_t src, uint32_t dst, const std::string& reason)
{
    FlowDrops& d = m_drops[Key(src, dst)];
    ++d.units;
    d.reasons.insert(reason);
}

void
RunInvariantCheck::Dropped(Ptr<const FabricPacket> p, const std::string& reason)
{
    // A unit that mixes peers (a UALink burst) names them per segment; a unit of one message
    // loses each of its segments (a packed SUE PDU: several messages).
    auto count = [this, &reason](uint32_t src, uint32_t dst, uint64_t pieces, uint64_t bytes) {
        FlowDrops& d = m_drops[Key(src, dst)];
        d.units += pieces;
        d.bytes += bytes;
        d.reasons.insert(reason);
    };
    uint64_t pieces = 0;
    bool mixed = false;
    p->ForEachSegment([&](const FabricPacket::Segment& s) {
        ++pieces;
        if (s.src != 0 || s.dst != 0)
        {
            mixed = true;
            count(s.src, s.dst, 1, s.bytes);
        }
    });
    if (!mixed)
    {
        count(p->src, p->dst, std::max<uint64_t>(pieces, 1), p->payloadBytes);
    }
}

void
RunInvariantCheck::Delivered(uint32_t src, uint32_t dst, uint64_t id, bool again)
{
    FabricInvariantCheck::Count();
    if (again)
    {
        FabricInvariantCheck::Fail(FabricInvariantCheck::COMPLETION,
                                   FlowName(src, dst),
                                   "message " + std::to_string(id) + " delivered a second time");
    }
}

bool
RunInvariantCheck::ConnectionFailed(uint32_t src, uint32_t dst) const
{
    if (!m_topo || src >= m_topo->GetNAccelerators())
    {
        return false;
    }
    for (const auto& t : m_topo->GetKind().GetTransports(m_topo->GetEndpoint(src)))
    {
        if (t->IsFailed(dst))
        {
            return true;
        }
    }
    return false;
}

RunInvariantCheck::Summary
RunInvariantCheck::CheckMessages(const RunResults::Messages& m, bool stopped) const
{
    NS_LOG_FUNCTION(this << stopped);
    Summary sum;
    std::map<uint64_t, FlowTotals> flows; // ordered: the first violation is the lowest flow
    for (std::size_t i = 0; i < m.src.size(); ++i)
    {
        FabricInvariantCheck::Count();
        const auto when = [&](int64_t ps) { return std::to_string(ps) + " ps"; };
        if (m.deliverPs[i] >= 0 && m.deliverPs[i] < m.postPs[i])
        {
            FabricInvariantCheck::Fail(FabricInvariantCheck::COMPLETION,
                                       FlowName(m.src[i], m.dst[i]),
                                       "message row " + std::to_string(i) + " delivered at " +
                                           when(m.deliverPs[i]) + ", before its post at " +
                                           when(m.postPs[i]));
        }
        if (m.completePs[i] >= 0 && m.completePs[i] < m.postPs[i])
        {
            FabricInvariantCheck::Fail(FabricInvariantCheck::COMPLETION,
                                       FlowName(m.src[i], m.dst[i]),
                                       "message row " + std::to_string(i) + " completed at " +
                                           when(m.completePs[i]) + ", before its post at " +
                                           when(m.postPs[i]));
        }
        FlowTotals& f = flows[Key(m.src[i], m.dst[i])];
        f.posted += m.bytes[i];
        ++f.messages;
        if (m.deliverPs[i] >= 0)
        {
            f.delivered += m.bytes[i];
        }
        else
        {
            ++f.undelivered;
        }
        if (m.completePs[i] < 0)
        {
            ++f.incomplete;
        }
    }
    for (const auto& [key, f] : flows)
    {
        FabricInvariantCheck::Count();
        const uint32_t src = static_cast<uint32_t>(key >> 32);
        const uint32_t dst = static_cast<uint32_t>(key & 0xFFFFFFFFULL);
        ++sum.flows;
        sum.messages += f.messages;
        sum.postedBytes += f.posted;
        sum.deliveredBytes += f.delivered;
        // Drops on the flow or on its reverse (transport ACKs) with their reasons.
        FlowDrops drops;
        for (uint64_t k : {Key(src, dst), Key(dst, src)})
        {
            auto it = m_drops.find(k);
            if (it != m_drops.end())
            {
                drops.units += it->second.units;
                drops.bytes += it->second.bytes;
                drops.reasons.insert(it->second.reasons.begin(), it->second.reasons.end());
            }
        }
        const bool failed = (f.undelivered > 0 || f.incomplete > 0) && ConnectionFailed(src, dst);
        const uint64_t missing = f.posted - f.delivered;
        if (f.undelivered > 0)
        {
            if (drops.units > 0 || failed)
            {
                // Each lost message lost at least one piece (a segment of a unit) on the flow.
                if (!failed && !stopped && f.undelivered > drops.units)
                {
                    FabricInvariantCheck::Fail(FabricInvariantCheck::CONSERVATION,
                                               FlowName(src, dst),
                                               std::to_string(f.undelivered) + " messages (" +
                                                   std::to_string(missing) +
                                                   " B) not delivered, but only " +
                                                   std::to_string(drops.units) + " pieces dropped");
                }
                sum.lostBytes += missing;
            }
            else if (stopped)
            {
                sum.inFlightBytes += missing;
            }
            else
            {
                FabricInvariantCheck::Fail(
                    FabricInvariantCheck::CONSERVATION,
                    FlowName(src, dst),
                    "posted " + std::to_string(f.posted) + " B, delivered " +
                        std::to_string(f.delivered) + " B, dropped 0 B: " +
                        std::to_string(missing) + " B in " + std::to_string(f.undelivered) +
                        " messages vanished (no drop, no failed connection, the run was not "
                        "stopped)");
            }
        }
        if (f.incomplete > 0 && !stopped && drops.units == 0 && !failed)
        {
            FabricInvariantCheck::Fail(FabricInvariantCheck::COMPLETION,
                                       FlowName(src, dst),
                                       std::to_string(f.incomplete) + " of " +
                                           std::to_string(f.messages) +
                                           " messages never completed (no drop, no failed "
                                           "connection, the run was not stopped)");
        }
    }
    return sum;
}

uint64_t
RunInvariantCheck::CheckDrained(const PodTopology& topo) const
{
    NS_LOG_FUNCTION(this);
    uint64_t skipped = 0;
    const auto& switches = topo.GetSwitches();
    for (uint32_t k = 0; k < switches.size(); ++k)
    {
        FabricInvariantCheck::Count();
        Ptr<FabricSharedBuffer> b = switches[k]->GetBuffer();
        if (b->GetOccupancy() != 0)
        {
            FabricInvariantCheck::Fail(FabricInvariantCheck::BUFFER,
                                       PeekPointer(b),
                                       "FabricSharedBuffer",
                                       "holds " + std::to_string(b->GetOccupancy()) +
                                           " B at the end of a run that drained");
        }
        for (uint32_t i = 0; i < switches[k]->GetNPorts(); ++i)
        {
            Ptr<FabricOutputQueue> q = switches[k]->GetOutputQueue(i);
            if (q->GetBytes() != 0 || q->GetUnits() != 0)
            {
                FabricInvariantCheck::Fail(FabricInvariantCheck::BUFFER,
                                           PeekPointer(q),
                                           "FabricOutputQueue",
                                           "holds " + std::to_string(q->GetUnits()) + " units (" +
                                               std::to_string(q->GetBytes()) +
                                               " B) at the end of a run that drained");
            }
        }
    }
    for (const auto& t : topo.GetTransmitters())
    {
        FabricInvariantCheck::Count();
        const FabricNetDevice* dev = PeekPointer(t.device);
        if (Ptr<FabricCreditFlowControl> fc =
                DynamicCast<FabricCreditFlowControl>(t.device->GetFlowControl()))
        {
            Ptr<FabricNetDevice> peer = t.device->GetFabricChannel()->GetPeer(t.device);
            if (m_corrupted.count(dev) || m_corrupted.count(PeekPointer(peer)))
            {
                ++skipped; // units or credit frames lost on the wire: see the header
                continue;
            }
            Ptr<FabricCreditFlowControl> pfc =
                DynamicCast<FabricCreditFlowControl>(peer->GetFlowControl());
            UintegerValue vcs;
            fc->GetAttribute("Vcs", vcs);
            const uint64_t limit = pfc->GetBufferBytes() / pfc->GetBytesPerCredit();
            for (uint32_t vc = 0; vc < vcs.Get(); ++vc)
            {
                const uint64_t avail = fc->GetAvailableCredits(vc);
                if (avail != limit || fc->GetOccupancy(vc) != 0)
                {
                    FabricInvariantCheck::Fail(FabricInvariantCheck::CREDITS,
                                               dev,
                                               "FabricNetDevice",
                                               "credits " + std::to_string(avail) + " of " +
                                                   std::to_string(limit) + " on class " +
                                                   std::to_string(vc) + ", receive credits held " +
                                                   std::to_string(fc->GetOccupancy(vc)) +
                                                   " at the end of a run that drained");
                }
            }
        }
    }
    // The fabric's own state: a UALink TL's credits, a cell adapter's Rx buffer and grants.
    topo.GetKind().CheckDrained(topo.GetPod());
    NS_LOG_INFO(skipped << " credit links not checked for draining (corruption on the link)");
    return skipped;
}

} // namespace ns3
