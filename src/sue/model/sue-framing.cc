/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "sue-framing.h"

#include <algorithm>

namespace ns3
{

uint32_t
SueFraming::NetworkHeaderBytes(HeaderFormat format, uint32_t shimBytes)
{
    switch (format)
    {
    case ETHERNET_IPV4:
        return 14 + 20 + 8;
    case ETHERNET_IPV6:
        return 14 + 40 + 8;
    case AFH_GEN1:
        return 6 + 6 + 4 + 2;
    case AFH_GEN1_SHIM:
        return 6 + 6 + 4 + 2 + shimBytes;
    case AFH_GEN2_12:
        return 12 + 2;
    case AFH_GEN2_6:
        return 6 + 2;
    }
    return 0;
}

uint32_t
SueFraming::PduOverheadBytes(HeaderFormat format, bool lite, uint32_t shimBytes)
{
    return NetworkHeaderBytes(format, shimBytes) + (lite ? 0 : RH_BYTES + RCRC_BYTES) + FCS_BYTES;
}

uint32_t
SueFraming::FrameBytes(uint32_t packedBytes, uint32_t overhead)
{
    return std::max(packedBytes + overhead, MIN_FRAME_BYTES);
}

bool
SueFraming::FromName(const std::string& name, HeaderFormat& format)
{
    for (HeaderFormat f :
         {ETHERNET_IPV4, ETHERNET_IPV6, AFH_GEN1, AFH_GEN1_SHIM, AFH_GEN2_12, AFH_GEN2_6})
    {
        if (Name(f) == name)
        {
            format = f;
            return true;
        }
    }
    return false;
}

std::string
SueFraming::Name(HeaderFormat format)
{
    switch (format)
    {
    case ETHERNET_IPV4:
        return "ethernet-ipv4";
    case ETHERNET_IPV6:
        return "ethernet-ipv6";
    case AFH_GEN1:
        return "afh-gen1";
    case AFH_GEN1_SHIM:
        return "afh-gen1-shim";
    case AFH_GEN2_12:
        return "afh-gen2-12";
    case AFH_GEN2_6:
        return "afh-gen2-6";
    }
    return "?";
}

} // namespace ns3
