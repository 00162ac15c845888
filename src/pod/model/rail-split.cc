/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rail-split.h"

#include "pod-topology.h"

#include "ns3/abort.h"
#include "ns3/callback.h"
#include "ns3/log.h"
#include "ns3/sue-endpoint.h"
#include "ns3/ualink-endpoint.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RailSplit");

bool
RailSplit::Parse(const std::string& text, std::vector<uint32_t>& rails, std::string& error)
{
    rails.clear();
    std::istringstream in(text);
    std::string item;
    while (std::getline(in, item, ','))
    {
        if (item.empty() || item.size() > 6 ||
            item.find_first_not_of("0123456789") != std::string::npos)
        {
            error = "--rails: '" + item + "' is not a rail number (a list such as 0,2)";
            return false;
        }
        const uint32_t r = static_cast<uint32_t>(std::stoul(item));
        if (std::find(rails.begin(), rails.end(), r) != rails.end())
        {
            error = "--rails: rail " + item + " given twice";
            return false;
        }
        rails.push_back(r);
    }
    if (rails.empty() || (!text.empty() && text.back() == ','))
    {
        error = "--rails: '" + text + "': expected a list of rails such as 0,2";
        return false;
    }
    std::sort(rails.begin(), rails.end());
    return true;
}

std::string
RailSplit::Refusal(const Scenario& s, const std::vector<uint32_t>& rails, bool check)
{
    const std::string pre = "--rails: ";
    const bool sue = s.pod.fabric == "sue";
    const std::string why = std::string(" couples the rails (") +
                            (sue ? "src/sue/doc/sue.rst, Planes in parallel"
                                 : "src/ualink/doc/ualink.rst, Rails in parallel") +
                            ")";
    if (s.pod.fabric != "ualink" && !sue)
    {
        return pre + "pod.fabric is " + s.pod.fabric +
               ": only a UALink pod (one single-tier switch per rail) or a switched SUE pod (a "
               "rail is a switch plane) splits by rails";
    }
    for (uint32_t r : rails)
    {
        if (r >= s.pod.planes || r >= 64)
        {
            return pre + "rail " + std::to_string(r) + " does not exist (pod.planes is " +
                   std::to_string(s.pod.planes) + ": rails 0 to " +
                   std::to_string(s.pod.planes - 1) + ")";
        }
    }
    if (sue)
    {
        const Scenario::Sue& u = s.pod.sue;
        if (s.pod.topology != "switched")
        {
            return pre + "pod.topology is " + s.pod.topology +
                   ": only a switched SUE pod splits by planes";
        }
        if (u.loadBalance == "least-loaded")
        {
            return pre + "pod.sue.load-balance is least-loaded: choosing by every instance's load" +
                   why;
        }
        // An instance of P ports spans planes kP .. kP + P - 1 (SueEndpoint::AddDevice).
        for (uint32_t r : rails)
        {
            const uint32_t first = r - r % u.ports;
            for (uint32_t q = first; q < first + u.ports; ++q)
            {
                if (std::find(rails.begin(), rails.end(), q) == rails.end())
                {
                    return pre + "rail " + std::to_string(r) + " without rail " +
                           std::to_string(q) + ": pod.sue.ports is " + std::to_string(u.ports) +
                           ": an instance over planes " + std::to_string(first) + " to " +
                           std::to_string(first + u.ports - 1) + why;
                }
            }
        }
    }
    else
    {
        const Scenario::Ualink& u = s.pod.ualink;
        if (u.upli != "ideal")
        {
            return pre + "pod.ualink.upli is " + u.upli +
                   ": the TDM of a station's ports over one UPLI" + why;
        }
        if (u.failLink)
        {
            return pre + "pod.ualink.fail-link: a link down isolates all ports of its station" +
                   why;
        }
        if (u.stationReset.IsStrictlyPositive())
        {
            return pre + "pod.ualink.station-reset: a reset takes all ports of the station" + why;
        }
        if (u.watchdog.IsStrictlyPositive())
        {
            return pre + "pod.ualink.watchdog: its expiry isolates all ports of the station" + why;
        }
    }
    if (!s.faults.empty())
    {
        return pre + "faults (" + std::to_string(s.faults.size()) + " given): " +
               (sue ? "work moved off a failed port"
                    : "a link down isolates all ports of its station") +
               why;
    }
    if (s.pod.link.ber > 0 || s.pod.link.codewordErrorRate > 0)
    {
        return pre + "pod.link." + (s.pod.link.ber > 0 ? "ber" : "codeword-error-rate") +
               ": link errors are faults, not split (the exactness test covers error-free links)";
    }
    for (uint32_t i = 0; i < s.workloads.size(); ++i)
    {
        const std::string& k = s.workloads[i].kind;
        if (k != "incast" && k != "permutation" && k != "all-to-all")
        {
            return pre + "workloads[" + std::to_string(i) + "].kind is " + k +
                   ": a workload that posts on completions" + why +
                   " (incast, permutation and all-to-all only)";
        }
        if (s.workloads[i].read)
        {
            return pre + "workloads[" + std::to_string(i) +
                   "].operation is read: the responder's own choice of instance" + why;
        }
    }
    if (check || s.check)
    {
        return pre + (check ? std::string("--check") : std::string("the check key")) +
               ": the invariant checks count every byte of every message";
    }
    return "";
}

void
RailSplit::Install(const PodTopology& topo,
                   const std::vector<uint32_t>& rails,
                   RunResults::Messages* table)
{
    uint64_t mask = 0;
    for (uint32_t r : rails)
    {
        NS_ABORT_MSG_IF(r >= 64, "RailSplit: rail " << r);
        mask |= uint64_t(1) << r;
    }
    m_table = table;
    for (uint32_t i = 0; i < topo.GetNAccelerators(); ++i)
    {
        if (Ptr<SueEndpoint> e = DynamicCast<SueEndpoint>(topo.GetEndpoint(i)))
        {
            // Instance k holds planes kP .. kP + P - 1 (Refusal asked for whole instances).
            const uint32_t ports = e->GetPortsPerInstance();
            uint64_t instances = 0;
            for (uint32_t k = 0; k * ports < 64; ++k)
            {
                if ((mask >> (k * ports)) & 1)
                {
                    instances |= uint64_t(1) << k;
                }
            }
            e->SetActiveInstances(instances, MakeCallback(&RailSplit::NotInRails, this));
            continue;
        }
        Ptr<UalinkEndpoint> e = DynamicCast<UalinkEndpoint>(topo.GetEndpoint(i));
        NS_ABORT_MSG_IF(!e,
                        "RailSplit: accelerator " << i
                                                  << " is neither a UALink nor a SUE endpoint");
        e->SetActiveRails(mask);
        e->TraceConnectWithoutContext("Post", MakeCallback(&RailSplit::Posted, this));
        m_ep = m_ep ? m_ep : e;
    }
}

void
RailSplit::Posted(const FabricMessage& m)
{
    // Every accelerator of a pod has the same ports: any endpoint deals a message alike.
    if (m_ep->GetRailShareBytes(m.id, m.bytes) == 0)
    {
        NotInRails(m);
    }
}

void
RailSplit::NotInRails(const FabricMessage& m)
{
    if (m.cookie < m_table->deliverPs.size())
    {
        m_table->deliverPs[m.cookie] = RunResults::NOT_IN_RAILS;
        m_table->completePs[m.cookie] = RunResults::NOT_IN_RAILS;
    }
}

uint64_t
RailSplit::PostedBytes(const PodTopology& topo)
{
    uint64_t bytes = 0;
    for (uint32_t i = 0; i < topo.GetNAccelerators(); ++i)
    {
        if (Ptr<UalinkEndpoint> e = DynamicCast<UalinkEndpoint>(topo.GetEndpoint(i)))
        {
            bytes += e->GetPostedShareBytes();
        }
        else if (Ptr<SueEndpoint> e = DynamicCast<SueEndpoint>(topo.GetEndpoint(i)))
        {
            bytes += e->GetActiveBytesSent();
        }
    }
    return bytes;
}

std::string
RailSplit::Format(const std::vector<uint32_t>& rails)
{
    std::string out;
    for (uint32_t r : rails)
    {
        out += (out.empty() ? "" : ",") + std::to_string(r);
    }
    return out;
}

} // namespace ns3
