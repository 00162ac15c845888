/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pyxis-chip-helper.h"

#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pyxis-chip.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PyxisChipHelper");

PyxisChipHelper::PyxisChipHelper()
{
    m_chipFactory.SetTypeId("ns3::PyxisChip");
}

void
PyxisChipHelper::SetChipAttribute(std::string name, const AttributeValue& value)
{
    m_chipFactory.Set(name, value);
}

Ptr<PyxisChip>
PyxisChipHelper::Create(uint32_t chipId) const
{
    NS_LOG_FUNCTION(this << chipId);
    Ptr<PyxisChip> chip = m_chipFactory.Create<PyxisChip>();
    chip->SetAttribute("ChipId", UintegerValue(chipId));
    chip->Build();
    return chip;
}

std::vector<Ptr<PyxisChip>>
PyxisChipHelper::Install(const NodeContainer& nodes) const
{
    std::vector<Ptr<PyxisChip>> chips;
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        Ptr<PyxisChip> chip = Create(i);
        nodes.Get(i)->AggregateObject(chip);
        chips.push_back(chip);
    }
    return chips;
}

} // namespace ns3
