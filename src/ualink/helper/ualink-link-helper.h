/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UALINK_LINK_HELPER_H
#define UALINK_LINK_HELPER_H

#include "ns3/fabric-link-helper.h"
#include "ns3/net-device-container.h"
#include "ns3/node.h"
#include "ns3/object-factory.h"
#include "ns3/ualink-dl.h"
#include "ns3/ualink-phy.h"

#include <string>

namespace ns3
{

/**
 * \ingroup ualink
 * \brief Builds UALink links (UALink_200 chapters 6 and 7) out of the fabric module's parts: two
 * FabricNetDevices on a FabricChannel whose rate is the port's signalling rate (lanes x 212.5 or
 * 106.25 Gb/s), whose FEC latency is the PHY's interleave latency, and whose retry engines run
 * the DL's link-level replay (UalinkDl::Configure).
 *
 * On links built here one transfer unit is one DL flit on the wire: a 628 B payload, 12 B of DL
 * flit header, segment headers and CRC, and the codeword's 40 B of parity and transcoding
 * (GetDlFlitUnitHeaderBytes), 680 B in one codeword slot with no inter-frame gap (section
 * 7.3.6). This is the DL's fine mode, one event per DL flit.
 */
class UalinkLinkHelper
{
  public:
    UalinkLinkHelper();

    /**
     * \param name attribute name of ns3::UalinkPhy (Lanes, LaneRate, FecInterleave, ...)
     * \param value its value
     */
    void SetPhyAttribute(std::string name, const AttributeValue& value);

    /**
     * \param name attribute name of ns3::UalinkDl (ReplayBufferFlits, AckTimeoutFlits, ...)
     * \param value its value
     */
    void SetDlAttribute(std::string name, const AttributeValue& value);

    /**
     * \param name attribute name of ns3::FabricChannel (Delay, CableType, CableLength,
     * CodewordErrorRate, ...)
     * \param value its value
     */
    void SetChannelAttribute(std::string name, const AttributeValue& value);

    /**
     * \brief Connect two nodes with a UALink link.
     * \param a first node
     * \param b second node
     * \return the device on a (index 0) and on b (index 1)
     */
    NetDeviceContainer Install(Ptr<Node> a, Ptr<Node> b) const;

    /// \return a PHY with the configured attributes (initialized: its settings are checked)
    Ptr<UalinkPhy> CreatePhy() const;

    /// \return header bytes of a DL-flit unit: 12 B of DL framing plus 40 B of FEC
    static uint32_t GetDlFlitUnitHeaderBytes()
    {
        return UalinkDl::FLIT_OVERHEAD_BYTES + UalinkDl::FEC_OVERHEAD_BYTES;
    }

  private:
    ObjectFactory m_phyFactory; //!< PHY settings
    ObjectFactory m_dlFactory;  //!< DL settings
    FabricLinkHelper m_link;    //!< the fabric link builder
};

} // namespace ns3

#endif /* UALINK_LINK_HELPER_H */
