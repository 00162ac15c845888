/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "sue-phy.h"

#include "ns3/abort.h"

namespace ns3
{

uint32_t
SuePhy::SerdesGbps(uint32_t instanceGbps)
{
    // Table 4: 800G instances on 200G serdes, 400G instances on 100G serdes.
    return instanceGbps == 800 ? 200 : instanceGbps == 400 ? 100 : 0;
}

uint32_t
SuePhy::Lanes(uint32_t portGbps, uint32_t serdesGbps)
{
    NS_ABORT_MSG_IF(serdesGbps == 0 || portGbps % serdesGbps != 0,
                    "SuePhy: a " << portGbps << "G port is not a whole number of " << serdesGbps
                                 << "G lanes");
    return portGbps / serdesGbps;
}

uint32_t
SuePhy::IeeeInterleave(uint32_t serdesGbps, uint32_t lanes)
{
    // 802.3 on 200G lanes (200GBASE-R1, 400GBASE-R2, 800GBASE-R4): 4-way; on 100G lanes
    // (100GBASE-R1: 1-way; 200GBASE-R2, 400GBASE-R4: 2-way).
    if (serdesGbps >= 200)
    {
        return 4;
    }
    return lanes == 1 ? 1 : 2;
}

uint32_t
SuePhy::CodewordBits(Fec fec)
{
    return fec == RS272 ? 2720 : 5440;
}

uint32_t
SuePhy::MessageBits(Fec fec)
{
    return fec == RS272 ? 2570 : 5140;
}

Time
SuePhy::Accumulation(Fec fec, uint32_t ways, uint32_t serdesGbps, uint32_t lanes)
{
    NS_ABORT_MSG_IF(lanes == 0 || (serdesGbps != 100 && serdesGbps != 200),
                    "SuePhy: serdes must be 100G or 200G with at least one lane");
    if (ways == 0)
    {
        ways = IeeeInterleave(serdesGbps, lanes);
    }
    // Lane signalling rates: 212.5 Gb/s (200G) and 106.25 Gb/s (100G), in bits per microsecond
    // times four to stay in integers: 850000 and 425000.
    const uint64_t quarterBitsPerUs = serdesGbps == 200 ? 850000 : 425000;
    const uint64_t bits = uint64_t(ways) * CodewordBits(fec);
    // t [ps] = bits / (lanes x rate) = bits x 4e6 / (lanes x quarterBitsPerUs)
    return PicoSeconds(bits * 4000000 / (lanes * quarterBitsPerUs));
}

Time
SuePhy::RxAdjustment(Fec fec, uint32_t ways, uint32_t serdesGbps, uint32_t lanes)
{
    return Accumulation(fec, ways, serdesGbps, lanes) - Accumulation(RS544, 0, serdesGbps, lanes);
}

bool
SuePhy::FromName(const std::string& name, Fec& fec)
{
    if (name == "rs544")
    {
        fec = RS544;
        return true;
    }
    if (name == "rs272")
    {
        fec = RS272;
        return true;
    }
    return false;
}

} // namespace ns3
