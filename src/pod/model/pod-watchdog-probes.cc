/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pod-watchdog-probes.h"

#include "ns3/fabric-deadlock-monitor.h"
#include "ns3/fabric-go-back-n.h"
#include "ns3/fabric-message-queue.h"
#include "ns3/fabric-output-queue.h"
#include "ns3/fabric-pfc.h"
#include "ns3/log.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PodWatchdogProbes");

namespace
{

/**
 * \param dev a device
 * \return "" or "; link down" (and the PFC-paused classes, if any)
 */
std::string
PortState(const Ptr<FabricNetDevice>& dev)
{
    std::ostringstream os;
    if (!dev->IsLinkUp())
    {
        os << "; link down";
    }
    if (Ptr<FabricPfc> pfc = DynamicCast<FabricPfc>(dev->GetFlowControl()))
    {
        std::string paused;
        for (uint32_t c = 0; c < 8; ++c)
        {
            if (pfc->IsPaused(c))
            {
                paused += (paused.empty() ? "" : ",") + std::to_string(c);
            }
        }
        if (!paused.empty())
        {
            os << "; PFC paused class " << paused;
        }
    }
    return os.str();
}

/**
 * The probe of one transmitting device.
 * \param t the device
 * \param kind the pod's fabric kind (for the queues of its own types)
 * \return the probe
 */
ProgressWatchdog::Probe
DeviceProbe(const PodTopology::Transmitter& t, const FabricKind& kind)
{
    ProgressWatchdog::Probe p;
    p.name = PodWatchdogProbes::GetName(t) + " tx queue";
    const Ptr<FabricNetDevice> dev = t.device;
    const Ptr<FabricTxQueue> q = dev->GetTxQueue();
    p.progress = [q]() { return q->GetDequeuedUnits(); };
    if (kind.MakeQueueProbe(q, p))
    {
        // A queue of the fabric's own type (a UALink TL, a SUE packer): its state, then the
        // port's.
        const std::function<std::string()> own = p.describe;
        p.describe = [own, dev]() { return own() + PortState(dev); };
    }
    else if (Ptr<FabricOutputQueue> o = DynamicCast<FabricOutputQueue>(q))
    {
        p.held = [o]() { return o->GetUnits(); };
        p.describe = [o, dev]() {
            std::ostringstream os;
            os << o->GetUnits() << " units, " << o->GetBytes() << " B queued" << PortState(dev);
            return os.str();
        };
    }
    else if (Ptr<FabricGoBackN> g = DynamicCast<FabricGoBackN>(q))
    {
        // Data for a peer whose connection failed stays queued for good (no new data goes to
        // it): once a connection of the port failed, its queued data is not counted as held.
        p.held = [g]() {
            const bool waiting = !g->IsEmpty() && g->GetStats().failed == 0;
            return g->GetUnackedUnits() + (waiting ? 1 : 0);
        };
        p.describe = [g, dev]() {
            std::ostringstream os;
            os << g->GetUnackedUnits() << " units unacknowledged, "
               << (g->IsEmpty() ? "nothing" : "data") << " waiting to be sent, "
               << g->GetStats().failed << " failed connections" << PortState(dev);
            return os.str();
        };
    }
    else if (Ptr<FabricMessageQueue> m = DynamicCast<FabricMessageQueue>(q))
    {
        p.held = [m]() { return m->GetNMessages(); };
        p.describe = [m, dev]() {
            std::ostringstream os;
            os << m->GetNMessages() << " messages, " << m->GetBacklogBytes() << " B waiting"
               << PortState(dev);
            return os.str();
        };
    }
    else
    {
        p.held = [q]() { return q->IsEmpty() ? uint64_t(0) : uint64_t(1); };
        p.describe = [q, dev]() {
            return std::string(q->IsEmpty() ? "empty" : "not empty") + PortState(dev);
        };
    }
    return p;
}

} // namespace

std::string
PodWatchdogProbes::GetName(const PodTopology::Transmitter& t)
{
    const std::string node = t.name.substr(0, t.name.find("->"));
    return FabricDeadlockMonitor::GetPortName(t.device, node) + " (" + t.name + ")";
}

void
PodWatchdogProbes::Install(const Ptr<ProgressWatchdog>& watchdog, const PodTopology& topo)
{
    NS_LOG_FUNCTION(watchdog);
    const FabricKind& kind = topo.GetKind();
    for (const auto& t : topo.GetTransmitters())
    {
        watchdog->AddProbe(DeviceProbe(t, kind));
    }
    // The fabric's own queues (UALink requests waiting for a tag, cell adapters' VOQs and grant
    // schedulers).
    std::vector<FabricProbe> own;
    kind.AddProbes(topo.GetPod(), own);
    for (const auto& p : own)
    {
        watchdog->AddProbe(p);
    }
}

} // namespace ns3
