/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ualink-phy.h"

#include "ualink-dl-framer.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("UalinkPhy");
NS_OBJECT_ENSURE_REGISTERED(UalinkPhy);

TypeId
UalinkPhy::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::UalinkPhy")
            .SetParent<Object>()
            .SetGroupName("Ualink")
            .AddConstructor<UalinkPhy>()
            .AddAttribute("Lanes",
                          "Lanes of the port: 4 (x4), 2 (x2) or 1 (x1) (sections 2.5, 7.1).",
                          UintegerValue(4),
                          MakeUintegerAccessor(&UalinkPhy::m_lanes),
                          MakeUintegerChecker<uint32_t>(1, 4))
            .AddAttribute("LaneRate",
                          "Signalling rate per lane: 212.5 GT/s for 200G lanes, 106.25 GT/s for "
                          "the 100G option (sections 1.1, 7.1).",
                          DataRateValue(DataRate("212.5Gbps")),
                          MakeDataRateAccessor(&UalinkPhy::m_laneRate),
                          MakeDataRateChecker())
            .AddAttribute("FecInterleave",
                          "RS(544,514) interleave in ways (Tables 7-2, 7-4): 200G x1 allows 1, 2, "
                          "4; 200G x2 2, 4; 200G x4 4; 100G x1 1; 100G x2 and x4 2. 0: the PHY's "
                          "IEEE 802.3 default (4 for 200G lanes, 1 or 2 for the 100G option).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&UalinkPhy::m_interleave),
                          MakeUintegerChecker<uint32_t>(0, 4))
            .AddAttribute("FecDecodeLatency",
                          "Decoder time after a codeword has arrived (the spec gives no FEC "
                          "latency: a parameter).",
                          TimeValue(NanoSeconds(0)),
                          MakeTimeAccessor(&UalinkPhy::m_decode),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("AmPeriod",
                          "Codewords between alignment-marker flits (section 7.2.7: 4096 for "
                          "100 and 200G ports, 8192 for 400G, 16384 for 800G); 0: by port rate.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&UalinkPhy::m_amPeriod),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("IdlePeriod",
                          "Codewords between idle flits for rate matching; the AM flit takes the "
                          "idle flit's slot when they meet (section 7.3.5: 1024).",
                          UintegerValue(1024),
                          MakeUintegerAccessor(&UalinkPhy::m_idlePeriod),
                          MakeUintegerChecker<uint32_t>(2));
    return tid;
}

UalinkPhy::UalinkPhy()
    : m_laneRate("212.5Gbps")
{
    NS_LOG_FUNCTION(this);
}

UalinkPhy::~UalinkPhy()
{
    NS_LOG_FUNCTION(this);
}

void
UalinkPhy::DoInitialize()
{
    CheckConfig();
    Object::DoInitialize();
}

bool
UalinkPhy::Is100G() const
{
    return m_laneRate.GetBitRate() < 150000000000ULL;
}

void
UalinkPhy::CheckConfig() const
{
    NS_ABORT_MSG_IF(m_lanes != 1 && m_lanes != 2 && m_lanes != 4,
                    "UalinkPhy: a port is 1, 2 or 4 lanes (section 2.5), not " << m_lanes);
    const uint32_t w = GetFecInterleave();
    bool ok = false;
    if (Is100G())
    {
        ok = (m_lanes == 1) ? w == 1 : w == 2; // Table 7-2
    }
    else
    {
        ok = (m_lanes == 1) ? (w == 1 || w == 2 || w == 4)
                            : (m_lanes == 2 ? (w == 2 || w == 4) : w == 4);
    }
    NS_ABORT_MSG_UNLESS(ok,
                        "UalinkPhy: FEC interleave " << w << " is not allowed for x" << m_lanes
                                                     << (Is100G() ? " 100G" : " 200G")
                                                     << " lanes (Tables 7-2, 7-4)");
    NS_ABORT_MSG_IF(GetAmPeriod() % m_idlePeriod != 0,
                    "UalinkPhy: AmPeriod must be a multiple of IdlePeriod (section 7.3.5)");
}

Time
UalinkPhy::GetSlotTime() const
{
    const double seconds = static_cast<double>(CODEWORD_BITS) /
                           (static_cast<double>(m_lanes) * m_laneRate.GetBitRate());
    return PicoSeconds(static_cast<int64_t>(std::llround(seconds * 1e12)));
}

uint32_t
UalinkPhy::GetAmPeriod() const
{
    if (m_amPeriod != 0)
    {
        return m_amPeriod;
    }
    // Section 7.2.7, by the port's Ethernet rate: 100/200G 4096, 400G 8192, 800G 16384.
    const uint32_t gbps = m_lanes * (Is100G() ? 100 : 200);
    return gbps <= 200 ? 4096 : (gbps == 400 ? 8192 : 16384);
}

uint32_t
UalinkPhy::GetFecInterleave() const
{
    if (m_interleave != 0)
    {
        return m_interleave;
    }
    if (Is100G())
    {
        return m_lanes == 1 ? 1 : 2;
    }
    return 4;
}

uint64_t
UalinkPhy::GetFirstDlFlitAtOrAfter(uint64_t slot) const
{
    // Inverse of GetSlotOfDlFlit: slots below `slot` that carry DL flits.
    if (slot == 0)
    {
        return 0;
    }
    const uint64_t reservedBelow = (slot - 1) / m_idlePeriod + 1; // slots 0, P, 2P, ... < slot
    return slot - reservedBelow;
}

Time
UalinkPhy::GetFecReceiveLatency() const
{
    return GetSlotTime() * static_cast<int64_t>(GetFecInterleave() - 1) + m_decode;
}

double
UalinkPhy::GetDlFlitRate() const
{
    return (1.0 - 1.0 / m_idlePeriod) / GetSlotTime().GetSeconds();
}

double
UalinkPhy::GetTlFlitSeconds() const
{
    return static_cast<double>(UalinkDlFramer::TL_FLIT_SECTORS) /
           (UalinkDlFramer::PAYLOAD_SECTORS * GetDlFlitRate());
}

double
UalinkPhy::GetTlCeilingBps() const
{
    return GetDlFlitRate() * UalinkDlFramer::PAYLOAD_BYTES * 8.0;
}

} // namespace ns3
