/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-islip-scheduler.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricIslipScheduler");
NS_OBJECT_ENSURE_REGISTERED(FabricIslipScheduler);

TypeId
FabricIslipScheduler::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FabricIslipScheduler")
            .SetParent<Object>()
            .SetGroupName("Fabric")
            .AddConstructor<FabricIslipScheduler>()
            .AddAttribute("Iterations",
                          "iSLIP iterations per decision (cell time). Default 3: the 32-port RIFL "
                          "switch runs 3-SLIP (RIFL paper section IV.C).",
                          UintegerValue(3),
                          MakeUintegerAccessor(&FabricIslipScheduler::m_iterations),
                          MakeUintegerChecker<uint32_t>(1, 64));
    return tid;
}

FabricIslipScheduler::FabricIslipScheduler()
{
    NS_LOG_FUNCTION(this);
}

FabricIslipScheduler::~FabricIslipScheduler()
{
    NS_LOG_FUNCTION(this);
}

void
FabricIslipScheduler::SetPorts(uint32_t ports)
{
    NS_LOG_FUNCTION(this << ports);
    NS_ABORT_MSG_IF(ports == 0 || ports > MAX_PORTS, "FabricIslipScheduler: 1 to 64 ports");
    m_ports = ports;
    m_requests.assign(ports, 0);
    m_grantPtr.assign(ports, 0);
    m_acceptPtr.assign(ports, 0);
    m_grants.assign(ports, 0);
    m_match.assign(ports, NONE);
}

uint32_t
FabricIslipScheduler::RoundRobin(uint64_t mask, uint32_t from, uint32_t ports)
{
    if (mask == 0)
    {
        return NONE;
    }
    const uint64_t high = from < 64 ? (mask >> from) << from : 0;
    if (high != 0)
    {
        return static_cast<uint32_t>(__builtin_ctzll(high));
    }
    (void)ports;
    return static_cast<uint32_t>(__builtin_ctzll(mask));
}

const std::vector<uint32_t>&
FabricIslipScheduler::Match(uint64_t eligibleInputs, uint64_t eligibleOutputs)
{
    std::fill(m_match.begin(), m_match.end(), NONE);
    uint64_t freeIn = eligibleInputs;
    uint64_t freeOut = eligibleOutputs;
    for (uint32_t it = 0; it < m_iterations && freeIn != 0 && freeOut != 0; ++it)
    {
        // Grant: each unmatched output grants one requesting unmatched input.
        uint64_t granted = 0;
        for (uint64_t outs = freeOut; outs != 0; outs &= outs - 1)
        {
            const uint32_t o = static_cast<uint32_t>(__builtin_ctzll(outs));
            const uint64_t req = m_requests[o] & freeIn;
            if (req == 0)
            {
                continue;
            }
            const uint32_t i = RoundRobin(req, m_grantPtr[o], m_ports);
            m_grants[i] |= uint64_t(1) << o;
            granted |= uint64_t(1) << i;
        }
        if (granted == 0)
        {
            break;
        }
        // Accept: each input that got grants accepts one.
        for (uint64_t ins = granted; ins != 0; ins &= ins - 1)
        {
            const uint32_t i = static_cast<uint32_t>(__builtin_ctzll(ins));
            const uint32_t o = RoundRobin(m_grants[i], m_acceptPtr[i], m_ports);
            m_grants[i] = 0;
            m_match[i] = o;
            freeIn &= ~(uint64_t(1) << i);
            freeOut &= ~(uint64_t(1) << o);
            ++m_matches;
            if (it == 0)
            {
                // Pointers move only on first-iteration matches (McKeown 1999, section IV).
                m_acceptPtr[i] = (o + 1) % m_ports;
                m_grantPtr[o] = (i + 1) % m_ports;
            }
        }
    }
    return m_match;
}

const std::vector<uint32_t>&
FabricIslipScheduler::MatchOutputsOnly(uint64_t eligibleOutputs)
{
    std::fill(m_match.begin(), m_match.end(), NONE);
    for (uint64_t outs = eligibleOutputs; outs != 0; outs &= outs - 1)
    {
        const uint32_t o = static_cast<uint32_t>(__builtin_ctzll(outs));
        const uint32_t i = RoundRobin(m_requests[o], m_grantPtr[o], m_ports);
        if (i != NONE)
        {
            m_match[o] = i;
            m_grantPtr[o] = (i + 1) % m_ports;
            ++m_matches;
        }
    }
    return m_match;
}

} // namespace ns3
