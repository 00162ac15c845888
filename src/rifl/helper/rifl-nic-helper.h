/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RIFL_NIC_HELPER_H
#define RIFL_NIC_HELPER_H

#include "ns3/basic-endpoint-helper.h"
#include "ns3/basic-endpoint.h"
#include "ns3/node.h"

namespace ns3
{

/**
 * \ingroup rifl
 * \brief Installs RIFL NICs: endpoints of the endpoint API (DESIGN.md rule 1) that cut every
 * packet into 256 B Layer 2 segments, the last padded, each carrying the 8-byte L1 + L2 header
 * (RIFL paper section IV.A), with segmentation and reassembly only at the endpoints.
 *
 * The NIC is the fabric module's BasicEndpoint configured with SegmentBytes = 256 and
 * SegmentHeaderBytes = 8 (DESIGN.md rule 2: fabrics are configurations). A packet of
 * SegmentsPerPacket segments is the coarse unit the ports move (DESIGN.md rule 3); its wire size
 * is exact: payload + padding + 8 B per segment.
 */
class RiflNicHelper
{
  public:
    RiflNicHelper();

    /// \param segments segments per NIC packet (16 by default: 4096 B)
    void SetSegmentsPerPacket(uint32_t segments);

    /**
     * \brief Set another BasicEndpoint attribute (PlaneSelection, ...).
     * \param name attribute name
     * \param value its value
     */
    void SetEndpointAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \brief Install a RIFL NIC.
     * \param node the accelerator's node
     * \param id its accelerator id
     * \return the endpoint
     */
    Ptr<BasicEndpoint> Install(Ptr<Node> node, uint32_t id) const;

  private:
    BasicEndpointHelper m_helper; //!< the configured endpoint helper
};

} // namespace ns3

#endif /* RIFL_NIC_HELPER_H */
