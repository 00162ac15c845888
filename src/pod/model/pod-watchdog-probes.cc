/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pod-watchdog-probes.h"

#include "ns3/cell-fabric-adapter.h"
#include "ns3/fabric-deadlock-monitor.h"
#include "ns3/fabric-go-back-n.h"
#include "ns3/fabric-message-queue.h"
#include "ns3/fabric-output-queue.h"
#include "ns3/fabric-pfc.h"
#include "ns3/log.h"
#include "ns3/sue-packer.h"
#include "ns3/ualink-endpoint.h"
#include "ns3/ualink-tx-queue.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PodWatchdogProbes");

namespace
{

/// Credit class names of UALink (section 5.8), by ualink::CreditClass.
const char* const CREDIT_CLASS_NAMES[ualink::N_CREDIT_CLASSES] = {"ReqCmd",
                                                                  "RspCmd",
                                                                  "ReqData",
                                                                  "RspData"};

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
 * \return the probe
 */
ProgressWatchdog::Probe
DeviceProbe(const PodTopology::Transmitter& t)
{
    ProgressWatchdog::Probe p;
    p.name = PodWatchdogProbes::GetName(t) + " tx queue";
    const Ptr<FabricNetDevice> dev = t.device;
    const Ptr<FabricTxQueue> q = dev->GetTxQueue();
    p.progress = [q]() { return q->GetDequeuedUnits(); };
    if (Ptr<UalinkTxQueue> u = DynamicCast<UalinkTxQueue>(q))
    {
        p.held = [u]() { return static_cast<uint64_t>(u->GetQueuedOps()); };
        p.describe = [u, dev]() {
            std::ostringstream os;
            os << u->GetQueuedOps() << " ops waiting; partner credits";
            for (uint32_t c = 0; c < ualink::N_CREDIT_CLASSES; ++c)
            {
                os << (c ? ", " : " ") << CREDIT_CLASS_NAMES[c] << " "
                   << u->GetAvailableCredits(static_cast<ualink::CreditClass>(c));
            }
            os << " (" << u->GetStats().creditStalls << " credit stalls)" << PortState(dev);
            return os.str();
        };
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
    else if (Ptr<SuePacker> s = DynamicCast<SuePacker>(q))
    {
        p.held = [s]() { return static_cast<uint64_t>(s->GetNActiveQueues()); };
        p.describe = [s, dev]() {
            std::ostringstream os;
            os << s->GetNActiveQueues() << " {destination, VC} queues, " << s->GetBacklogBytes()
               << " B waiting" << PortState(dev);
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

/**
 * The probe of one UALink accelerator port's UPLI requests.
 * \param e the endpoint
 * \param acc its name
 * \param i the port
 * \return the probe
 */
ProgressWatchdog::Probe
UpliRequestsProbe(const Ptr<UalinkEndpoint>& e, const std::string& acc, uint32_t i)
{
    ProgressWatchdog::Probe p;
    p.name = FabricDeadlockMonitor::GetPortName(e->GetPort(i), acc) + " UPLI requests";
    p.held = [e, i]() { return e->GetWaitingRequests(i); };
    // A waiting request moves when a tag frees (a response returns) and it enters the TL queue.
    p.progress = [e, i]() { return e->GetTxQueue(i)->GetStats().ops + e->GetStats().responses; };
    p.describe = [e, i]() {
        std::ostringstream os;
        os << e->GetWaitingRequests(i) << " requests waiting for a tag or TL room, "
           << e->GetOutstanding(i) << " tags in use, " << e->GetTxQueue(i)->GetQueuedOps()
           << " ops in the TL queue" << (e->IsIsolated(i) ? "; station isolated" : "");
        return os.str();
    };
    return p;
}

/**
 * The probe of a cell adapter's Tx jobs (VOQs).
 * \param a the adapter
 * \param acc its name
 * \return the probe
 */
ProgressWatchdog::Probe
VoqProbe(const Ptr<CellFabricAdapter>& a, const std::string& acc)
{
    ProgressWatchdog::Probe p;
    p.name = acc + " VOQs";
    p.held = [a]() { return a->GetPendingTxJobs(); };
    p.progress = [a]() {
        const CellFabricAdapter::Stats& s = a->GetStats();
        return s.pagesRequested + s.pagesSent + s.jobsCompleted + s.jobsFailed + s.jobsRetried;
    };
    p.describe = [a]() {
        std::ostringstream os;
        os << a->GetPendingTxJobs() << " Tx jobs pending";
        const auto voqs = a->GetVoqStates();
        const std::size_t shown = std::min<std::size_t>(voqs.size(), 4);
        for (std::size_t k = 0; k < shown; ++k)
        {
            const auto& v = voqs[k];
            os << (k ? ", " : ": ") << "VOQ to acc" << v.dst << " cluster " << v.cluster << " ("
               << v.jobs << " jobs, " << v.outstanding << " pages waiting on a grant"
               << (v.jobs > 0 && !v.cts ? ", head job waiting for its CTS" : "") << ")";
        }
        if (shown < voqs.size())
        {
            os << ", ... (" << voqs.size() - shown << " more VOQs)";
        }
        return os.str();
    };
    return p;
}

/**
 * The probe of a cell adapter's grant scheduler.
 * \param a the adapter
 * \param acc its name
 * \return the probe
 */
ProgressWatchdog::Probe
GrantProbe(const Ptr<CellFabricAdapter>& a, const std::string& acc)
{
    ProgressWatchdog::Probe p;
    p.name = acc + " grant scheduler";
    p.held = [a]() {
        uint64_t n = 0;
        for (const auto& g : a->GetGrantQueueStates())
        {
            n += g.waiting;
        }
        return n;
    };
    p.progress = [a]() {
        const CellFabricAdapter::Stats& s = a->GetStats();
        return s.pagesGranted + s.pagesCommitted;
    };
    p.describe = [a]() {
        std::ostringstream os;
        os << a->GetFreeRxCells() << " free Rx buffer cells";
        for (const auto& g : a->GetGrantQueueStates())
        {
            if (g.waiting > 0)
            {
                os << ", cluster " << g.cluster << ": " << g.waiting << " requests waiting, "
                   << g.grantsOut << " grants out of at most " << a->GetMaxOutstandingGrants();
            }
        }
        return os.str();
    };
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
    for (const auto& t : topo.GetTransmitters())
    {
        watchdog->AddProbe(DeviceProbe(t));
    }
    for (uint32_t i = 0; i < topo.GetNAccelerators(); ++i)
    {
        const std::string acc = "acc" + std::to_string(i);
        const Ptr<FabricEndpoint> ep = topo.GetEndpoint(i);
        if (Ptr<UalinkEndpoint> u = DynamicCast<UalinkEndpoint>(ep))
        {
            for (uint32_t k = 0; k < u->GetNPorts(); ++k)
            {
                watchdog->AddProbe(UpliRequestsProbe(u, acc, k));
            }
        }
        else if (Ptr<CellFabricAdapter> a = DynamicCast<CellFabricAdapter>(ep))
        {
            watchdog->AddProbe(VoqProbe(a, acc));
            watchdog->AddProbe(GrantProbe(a, acc));
        }
    }
}

} // namespace ns3
