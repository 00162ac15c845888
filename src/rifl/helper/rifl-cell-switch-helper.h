/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RIFL_CELL_SWITCH_HELPER_H
#define RIFL_CELL_SWITCH_HELPER_H

#include "ns3/attribute.h"
#include "ns3/object-factory.h"
#include "ns3/rifl-cell-switch.h"
#include "ns3/rifl-traffic-generator.h"

#include <string>

namespace ns3
{

/**
 * \ingroup rifl
 * \brief Builds a cell-time RIFL switch with its traffic (the setup of the RIFL paper section V.A)
 * and runs it to completion.
 */
class RiflCellSwitchHelper
{
  public:
    RiflCellSwitchHelper();

    /**
     * \brief Set an attribute of the switch (ns3::RiflCellSwitch).
     * \param name attribute name
     * \param value its value
     */
    void SetSwitchAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \brief Set an attribute of the traffic (ns3::RiflTrafficGenerator).
     * \param name attribute name
     * \param value its value
     */
    void SetTrafficAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \brief Set an attribute of the arbiters (ns3::FabricIslipScheduler), e.g. Iterations.
     * \param name attribute name
     * \param value its value
     */
    void SetArbiterAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \brief Create the switch and its traffic and start it at the current time.
     * \param stream random stream for the traffic
     * \return the switch
     */
    Ptr<RiflCellSwitch> Install(int64_t stream = 0) const;

    /**
     * \brief Create, run to the end of the traffic (Simulator::Run) and return the switch; the
     * caller calls Simulator::Destroy().
     * \param stream random stream for the traffic
     * \return the switch with its statistics
     */
    Ptr<RiflCellSwitch> Run(int64_t stream = 0) const;

  private:
    ObjectFactory m_switch;  //!< switch factory
    ObjectFactory m_traffic; //!< traffic factory
    ObjectFactory m_arbiter; //!< arbiter factory
};

} // namespace ns3

#endif /* RIFL_CELL_SWITCH_HELPER_H */
