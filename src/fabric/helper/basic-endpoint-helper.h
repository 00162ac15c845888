/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef BASIC_ENDPOINT_HELPER_H
#define BASIC_ENDPOINT_HELPER_H

#include "ns3/node.h"
#include "ns3/object-factory.h"

#include <string>
#include <utility>

namespace ns3
{

class BasicEndpoint;

/**
 * \ingroup fabric
 * \brief Installs the plain Ethernet-like endpoint (BasicEndpoint) on an accelerator node.
 */
class BasicEndpointHelper
{
  public:
    BasicEndpointHelper();

    /**
     * \param name attribute name of ns3::BasicEndpoint
     * \param value its value
     */
    void SetEndpointAttribute(std::string name, const AttributeValue& value);

    /**
     * \brief Give the endpoints installed from now on an end-to-end transport on each device.
     * \tparam Ts attribute name and value pairs
     * \param type the transport's TypeId name ("ns3::FabricGoBackN"), or "" for none
     * \param args attributes of the transports
     */
    template <typename... Ts>
    void SetTransport(std::string type, Ts&&... args)
    {
        m_transportFactory = ObjectFactory();
        m_transport = !type.empty();
        if (m_transport)
        {
            m_transportFactory.SetTypeId(type);
            m_transportFactory.Set(std::forward<Ts>(args)...);
        }
    }

    /**
     * Create an endpoint with an accelerator id and aggregate it to the node. Its devices are
     * added with BasicEndpoint::AddDevice as links are built.
     * \param node the accelerator's node
     * \param acceleratorId the id
     * \return the endpoint
     */
    Ptr<BasicEndpoint> Install(Ptr<Node> node, uint32_t acceleratorId) const;

  private:
    ObjectFactory m_factory;          //!< endpoints
    ObjectFactory m_transportFactory; //!< transports
    bool m_transport{false};          //!< install a transport
};

} // namespace ns3

#endif /* BASIC_ENDPOINT_HELPER_H */
