/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fault-injector.h"

#include "ns3/abort.h"
#include "ns3/fabric-channel.h"
#include "ns3/fabric-net-device.h"
#include "ns3/fabric-switch.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FaultInjector");

FaultInjector::FaultInjector(const Scenario& scenario, const PodTopology& topo)
    : m_scenario(scenario),
      m_topo(topo)
{
    for (uint32_t a = 0; a < topo.GetNAccelerators(); ++a)
    {
        for (uint32_t p = 0; p < scenario.pod.planes; ++p)
        {
            m_accPorts[PeekPointer(topo.GetAccDevice(a, p))] = {a, p};
        }
    }
}

void
FaultInjector::Schedule()
{
    for (const auto& f : m_scenario.faults)
    {
        Simulator::Schedule(f.at, &FaultInjector::Apply, this, f);
        if (f.kind == "bit-errors" && f.until.IsStrictlyPositive())
        {
            Simulator::Schedule(f.until, &FaultInjector::BitErrors, this, f, false);
        }
    }
}

const FaultInjector::Counters&
FaultInjector::GetCounters() const
{
    return m_counters;
}

std::string
FaultInjector::Describe(const Scenario::Fault& f)
{
    std::ostringstream os;
    os << f.kind;
    if (f.kind == "switch-down")
    {
        os << " p" << f.plane << " switch " << f.sw;
    }
    else if (f.kind == "deny-route")
    {
        os << " acc" << f.accelerator << "->acc" << f.to;
    }
    else if (f.kind == "accelerator-down")
    {
        os << " acc" << f.accelerator;
    }
    else if (f.kind == "bit-errors" && f.allLinks)
    {
        os << " all links";
    }
    else
    {
        os << " acc" << f.accelerator << " p" << f.plane;
    }
    os << " at " << f.at.GetNanoSeconds() << " ns";
    return os.str();
}

void
FaultInjector::Apply(const Scenario::Fault& f)
{
    NS_LOG_FUNCTION(this << Describe(f));
    NS_LOG_INFO("fault: " << Describe(f));
    ++m_counters.faults;
    if (f.kind == "link-down" || f.kind == "link-up")
    {
        SetAccLink(f.accelerator, f.plane, f.kind == "link-up");
    }
    else if (f.kind == "switch-down")
    {
        SwitchDown(f.plane, f.sw);
    }
    else if (f.kind == "accelerator-down")
    {
        for (uint32_t p = 0; p < m_scenario.pod.planes; ++p)
        {
            SetAccLink(f.accelerator, p, false);
        }
    }
    else if (f.kind == "deny-route")
    {
        DenyRoute(f.accelerator, f.to);
    }
    else if (f.kind == "bit-errors")
    {
        BitErrors(f, true);
    }
    else
    {
        NS_ABORT_MSG("FaultInjector: unknown fault kind " << f.kind); // the loader checks kinds
    }
}

void
FaultInjector::SetAccLink(uint32_t acc, uint32_t plane, bool up)
{
    if (m_topo.SetLinkUp(acc, plane, up))
    {
        ++(up ? m_counters.linkUps : m_counters.linkDowns);
    }
}

void
FaultInjector::SwitchDown(uint32_t plane, uint32_t k)
{
    const uint32_t perPlane = m_topo.GetSwitchesPerPlane();
    NS_ABORT_MSG_IF(k >= perPlane, "FaultInjector: no switch " << k << " in a plane");
    Ptr<FabricSwitchBase> sw = m_topo.GetSwitchViews().at(plane * perPlane + k).sw;
    for (uint32_t i = 0; i < sw->GetNPorts(); ++i)
    {
        Ptr<FabricNetDevice> dev = sw->GetPort(i);
        // A link to an accelerator goes down as the accelerator sees it (its fabric's way);
        // a link to another switch just goes down.
        Ptr<FabricChannel> ch = dev->GetFabricChannel();
        auto it = m_accPorts.find(PeekPointer(ch->GetPeer(dev)));
        if (it != m_accPorts.end())
        {
            SetAccLink(it->second.first, it->second.second, false);
        }
        else if (dev->IsLinkUp())
        {
            ch->SetLinkUp(false);
            ++m_counters.linkDowns;
        }
    }
}

void
FaultInjector::DenyRoute(uint32_t src, uint32_t dst)
{
    for (uint32_t p = 0; p < m_scenario.pod.planes; ++p)
    {
        // The switch at the other end of the source's port on this plane denies dst to that
        // ingress port (a FabricSwitch's route table, a UALink station's deny bit).
        Ptr<FabricNetDevice> dev = m_topo.GetAccDevice(src, p);
        Ptr<FabricNetDevice> peer = dev->GetFabricChannel()->GetPeer(dev);
        bool done = false;
        for (const auto& v : m_topo.GetSwitchViews())
        {
            if (v.plane != p)
            {
                continue;
            }
            for (uint32_t i = 0; i < v.sw->GetNPorts() && !done; ++i)
            {
                if (v.sw->GetPort(i) == peer)
                {
                    v.sw->SetDenied(i, dst, true);
                    done = true;
                }
            }
            if (done)
            {
                break;
            }
        }
        NS_ABORT_MSG_IF(!done,
                        "FaultInjector: accelerator " << src << " has no switch on plane " << p);
        ++m_counters.routesDenied;
    }
}

void
FaultInjector::SetErrors(Ptr<FabricNetDevice> sender, double cwer, double ber)
{
    sender->GetFabricChannel()->SetErrorRates(sender, cwer, ber);
}

void
FaultInjector::BitErrors(const Scenario::Fault& f, bool on)
{
    const double cwer = on ? f.codewordErrorRate : m_scenario.pod.link.codewordErrorRate;
    const double ber = on ? f.ber : m_scenario.pod.link.ber;
    uint64_t n = 0;
    if (f.allLinks)
    {
        for (const auto& t : m_topo.GetTransmitters())
        {
            SetErrors(t.device, cwer, ber);
            ++n;
        }
    }
    else
    {
        Ptr<FabricNetDevice> dev = m_topo.GetAccDevice(f.accelerator, f.plane);
        SetErrors(dev, cwer, ber);
        SetErrors(dev->GetFabricChannel()->GetPeer(dev), cwer, ber);
        n = 2;
    }
    if (on)
    {
        m_counters.linksWithErrors += n;
    }
}

} // namespace ns3
