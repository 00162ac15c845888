/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PYXIS_CHIP_HELPER_H
#define PYXIS_CHIP_HELPER_H

#include "ns3/attribute.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/ptr.h"

#include <string>
#include <vector>

namespace ns3
{

class PyxisChip;

/**
 * \ingroup pyxis
 * \brief Creates PyxisChips (their trip machinery) and aggregates them to nodes.
 */
class PyxisChipHelper
{
  public:
    PyxisChipHelper();

    /**
     * \param name an attribute of ns3::PyxisChip
     * \param value its value
     */
    void SetChipAttribute(std::string name, const AttributeValue& value);

    /**
     * Create one built chip.
     * \param chipId its ChipId
     * \return the chip
     */
    Ptr<PyxisChip> Create(uint32_t chipId) const;

    /**
     * Create a chip per node, aggregated to it; chip i of the container gets ChipId i.
     * \param nodes the nodes
     * \return the chips, in node order
     */
    std::vector<Ptr<PyxisChip>> Install(const NodeContainer& nodes) const;

  private:
    ObjectFactory m_chipFactory; //!< makes the chips
};

} // namespace ns3

#endif /* PYXIS_CHIP_HELPER_H */
