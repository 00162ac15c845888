/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_SWITCH_HELPER_H
#define FABRIC_SWITCH_HELPER_H

#include "ns3/node.h"
#include "ns3/object-factory.h"

#include <string>

namespace ns3
{

class FabricSwitch;

/**
 * \ingroup fabric
 * \brief Installs a FabricSwitch on a node and makes the node's fabric devices its ports.
 */
class FabricSwitchHelper
{
  public:
    FabricSwitchHelper();

    /**
     * \param name attribute name of ns3::FabricSwitch
     * \param value its value
     */
    void SetSwitchAttribute(std::string name, const AttributeValue& value);

    /**
     * \param name attribute name of ns3::FabricSharedBuffer
     * \param value its value
     */
    void SetBufferAttribute(std::string name, const AttributeValue& value);

    /**
     * Create a switch and aggregate it to the node. Ports are added with
     * FabricSwitch::AddPort as links are built.
     * \param node the node
     * \return the switch
     */
    Ptr<FabricSwitch> Install(Ptr<Node> node) const;

  private:
    ObjectFactory m_switchFactory; //!< switches
    ObjectFactory m_bufferFactory; //!< shared buffers
};

} // namespace ns3

#endif /* FABRIC_SWITCH_HELPER_H */
