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
     * \brief Use another channel type for links whose two nodes have different system ids
     * (ranks of a distributed run), as PointToPointHelper does with PointToPointRemoteChannel.
     *
     * The type must derive from ns3::FabricChannel (contrib/mpi: ns3::FabricRemoteChannel); it
     * gets the same attributes as the other channels. Its Delay attribute is also set to the
     * propagation delay of its cable, since ns-3's distributed simulator takes the lookahead
     * from every remote channel's Delay attribute (Delay is not used otherwise when a cable
     * type is set, so the link's timing is unchanged).
     * \param type the TypeId name, or "" (the default) for ns3::FabricChannel everywhere
     */
    void SetRemoteChannelType(std::string type);

    /**
     * \brief Put flow control on both ends of every link installed from now on.
     * \tparam Ts attribute name and value pairs
     * \param type a FabricFlowControl subclass (ns3::FabricPfc, ns3::FabricCreditFlowControl),
     * or "" for none
     * \param args attributes of the objects
     */
    template <typename... Ts>
    void SetFlowControl(std::string type, Ts&&... args)
    {
        m_fcFactory = ObjectFactory();
        m_fc = !type.empty();
        if (m_fc)
        {
            m_fcFactory.SetTypeId(type);
            m_fcFactory.Set(std::forward<Ts>(args)...);
        }
    }

    /**
     * \brief Put link-level retry on both ends of every link installed from now on.
     * \tparam Ts attribute name and value pairs
     * \param enable whether to install a FabricRetryEngine
     * \param args attributes of the engines
     */
    template <typename... Ts>
    void SetRetryEngine(bool enable, Ts&&... args)
    {
        m_llrFactory = ObjectFactory("ns3::FabricRetryEngine");
        m_llr = enable;
        m_llrFactory.Set(std::forward<Ts>(args)...);
    }

    /**
     * Connect two nodes with a new link.
     * \param a first node
     * \param b second node
     * \return the device on a (index 0) and the device on b (index 1)
     */
    NetDeviceContainer Install(Ptr<Node> a, Ptr<Node> b) const;

  private:
    ObjectFactory m_deviceFactory;   //!< devices
    ObjectFactory m_channelFactory;  //!< channels
    std::string m_remoteChannelType; //!< channels between ranks ("": m_channelFactory's type)
    ObjectFactory m_fcFactory;       //!< flow control
    ObjectFactory m_llrFactory;      //!< link-level retry
    bool m_fc{false};                //!< install flow control
    bool m_llr{false};               //!< install link-level retry
};

} // namespace ns3

#endif /* FABRIC_LINK_HELPER_H */
