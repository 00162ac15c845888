/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rifl-link-helper.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/fabric-channel.h"
#include "ns3/fabric-net-device.h"
#include "ns3/fabric-retry-engine.h"
#include "ns3/uinteger.h"

namespace ns3
{

RiflLinkHelper::RiflLinkHelper()
{
}

void
RiflLinkHelper::SetDataRate(DataRate rate)
{
    m_rate = rate;
}

void
RiflLinkHelper::SetFibreLength(double metres)
{
    m_fibreM = metres;
}

void
RiflLinkHelper::SetFrameBytes(uint32_t bytes)
{
    NS_ABORT_MSG_IF(bytes < 8 || bytes > 256 || (bytes & (bytes - 1)) != 0,
                    "RIFL frames are 8 to 256 bytes, a power of two (RIFL paper section II.A)");
    m_frameBytes = bytes;
}

void
RiflLinkHelper::SetUnitFrames(uint32_t frames)
{
    NS_ABORT_MSG_IF(frames == 0, "RiflLinkHelper: at least one frame per unit");
    m_unitFrames = frames;
}

void
RiflLinkHelper::SetRetryAttribute(const std::string& name, const AttributeValue& value)
{
    NS_ABORT_MSG_IF(m_retryN >= 8, "RiflLinkHelper: at most 8 retry attributes");
    m_retryNames[m_retryN] = name;
    m_retryValues[m_retryN] = value.Copy();
    ++m_retryN;
}

NetDeviceContainer
RiflLinkHelper::Install(Ptr<Node> a, Ptr<Node> b) const
{
    FabricLinkHelper lh;
    lh.SetChannelAttribute("DataRate", DataRateValue(m_rate));
    lh.SetChannelAttribute("CableType", EnumValue(FabricChannel::SINGLE_MODE));
    lh.SetChannelAttribute("CableLength", DoubleValue(m_fibreM));
    // One CRC-12 per frame: the error model draws one codeword per frame.
    lh.SetChannelAttribute("CodewordBits", UintegerValue(m_frameBytes * 8));
    lh.SetDeviceAttribute("InterframeBytes", UintegerValue(0));
    lh.SetDeviceAttribute("Mtu", UintegerValue(m_unitFrames * m_frameBytes));
    lh.SetRetryEngine(true,
                      "Mode",
                      EnumValue(FabricRetryEngine::NAK_ONLY),
                      "NakPause",
                      DoubleValue(2.5),
                      "ControlFrameBytes",
                      UintegerValue(m_frameBytes));
    NetDeviceContainer d = lh.Install(a, b);
    for (uint32_t k = 0; k < d.GetN(); ++k)
    {
        Ptr<FabricRetryEngine> e = DynamicCast<FabricNetDevice>(d.Get(k))->GetRetryEngine();
        for (uint32_t j = 0; j < m_retryN; ++j)
        {
            e->SetAttribute(m_retryNames[j], *m_retryValues[j]);
        }
    }
    return d;
}

} // namespace ns3
