/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_LINK_HELPER_H
#define FABRIC_LINK_HELPER_H

#include "ns3/net-device-container.h"
#include "ns3/node.h"
#include "ns3/object-factory.h"

#include <string>

namespace ns3
{

class FabricChannel;

/**
 * \ingroup fabric
 * \brief Builds fabric links: two FabricNetDevices joined by a FabricChannel.
 *
 * As PointToPointHelper: one ObjectFactory for the devices and one for the channel, with
 * SetDeviceAttribute() and SetChannelAttribute(); Install() creates, attaches and returns the
 * two devices. The owners (FabricSwitch::AddPort, BasicEndpoint::AddDevice) give them their
 * queues and receive handlers.
 */
class FabricLinkHelper
{
  public:
    FabricLinkHelper();

    /**
     * \param name attribute name of ns3::FabricNetDevice
     * \param value its value
     */
    void SetDeviceAttribute(std::string name, const AttributeValue& value);

    /**
     * \param name attribute name of ns3::FabricChannel
     * \param value its value
     */
    void SetChannelAttribute(std::string name, const AttributeValue& value);

    /**
     * Connect two nodes with a new link.
     * \param a first node
     * \param b second node
     * \return the device on a (index 0) and the device on b (index 1)
     */
    NetDeviceContainer Install(Ptr<Node> a, Ptr<Node> b) const;

  private:
    ObjectFactory m_deviceFactory;  //!< devices
    ObjectFactory m_channelFactory; //!< channels
};

} // namespace ns3

#endif /* FABRIC_LINK_HELPER_H */
