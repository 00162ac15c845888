/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rail-split.h"

#include "pod-plugins.h"
#include "pod-topology.h"

#include "ns3/abort.h"
#include "ns3/callback.h"
#include "ns3/log.h"

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
    const FabricKind& kind = PodPlugins::GetFabric(s.pod.fabric);
    if (!kind.SplitsByRails() || kind.GetRailGroup(s.pod) == 0)
    {
        std::string fabrics;
        for (const FabricKind* k : PodPlugins::GetFabrics())
        {
            if (k->SplitsByRails())
            {
                fabrics +=
                    (fabrics.empty() ? "" : ", ") + k->GetName() + " (" + k->GetRailDoc() + ")";
            }
        }
        return pre + "pod.fabric is " + s.pod.fabric +
               ": only pods whose rails do not interact split by rails: " + fabrics;
    }
    const std::string why = " couples the rails (" + kind.GetRailDoc() + ")";
    for (uint32_t r : rails)
    {
        if (r >= s.pod.planes || r >= 64)
        {
            return pre + "rail " + std::to_string(r) + " does not exist (pod.planes is " +
                   std::to_string(s.pod.planes) + ": rails 0 to " +
                   std::to_string(s.pod.planes - 1) + ")";
        }
    }
    const std::string own = kind.GetRailRefusal(s.pod, rails);
    if (!own.empty())
    {
        return own;
    }
    if (!s.faults.empty())
    {
        return pre + "faults (" + std::to_string(s.faults.size()) +
               " given): " + kind.GetRailFaultCoupling() + why;
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
        if (s.workloads[i].read || s.workloads[i].atomic)
        {
            return pre + "workloads[" + std::to_string(i) + "].operation is " +
                   (s.workloads[i].read ? "read" : "atomic") +
                   ": the responder's own choice of instance" + why;
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
    topo.GetKind().ActivateRails(topo.GetPod(), mask, MakeCallback(&RailSplit::NotInRails, this));
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
