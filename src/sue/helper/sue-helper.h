/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SUE_HELPER_H
#define SUE_HELPER_H

#include "ns3/node.h"
#include "ns3/object-factory.h"

#include <string>

namespace ns3
{

class SueEndpoint;

/**
 * \ingroup sue
 * \brief Installs SUE on XPU nodes: a SueEndpoint whose ports (added with
 * SueEndpoint::AddDevice as links are built) form instances of PortsPerInstance ports each.
 *
 * It sets the transport's standalone ACK size from the framing (a PDU with no transaction:
 * network header, RH, R-CRC and FCS, padded to the 64 B minimum frame) and its ACK class
 * (AckClass, a lossless class apart from requests, SUE RM102 section 3.4.6). SetLite(true)
 * selects SUE Lite (SUE Lite spec section 2.2): no transport, the 6 B AFH Gen 2 header and a 1 KB
 * packing limit, unless those packer attributes were set explicitly.
 */
class SueHelper
{
  public:
    SueHelper();

    /**
     * \param name an attribute of ns3::SueEndpoint (LoadBalance, TxLatency, RxLatency)
     * \param value its value
     */
    void SetEndpointAttribute(std::string name, const AttributeValue& value);
    /**
     * \param name an attribute of ns3::SueInstance (Ordering)
     * \param value its value
     */
    void SetInstanceAttribute(std::string name, const AttributeValue& value);
    /**
     * \param name an attribute of ns3::SuePacker (PackingLimit, ControlBytes, HeaderFormat, ...)
     * \param value its value
     */
    void SetPackerAttribute(std::string name, const AttributeValue& value);
    /**
     * \param name an attribute of ns3::FabricGoBackN (Window, RetransmitTimeout, ...)
     * \param value its value
     */
    void SetTransportAttribute(std::string name, const AttributeValue& value);
    /// \param ports ports per instance: 1, 2 or 4 (SUE RM102 section 1.1)
    void SetPortsPerInstance(uint32_t ports);
    /// \param lite SUE Lite (SUE Lite spec section 2.2): no transport, 6 B AFH Gen 2, 1 KB packing
    void SetLite(bool lite);
    /// \param vc traffic class of standalone ACKs (default 2: requests on VC0, responses on VC1)
    void SetAckClass(uint32_t vc);

    /**
     * \brief Create the XPU's SUE endpoint and aggregate it to the node.
     * \param node the XPU's node
     * \param xpuId the XPU id (10 bits in the RH: below 1024)
     * \return the endpoint; add its ports with AddDevice
     */
    Ptr<SueEndpoint> Install(Ptr<Node> node, uint32_t xpuId) const;

  private:
    ObjectFactory m_endpoint;  //!< endpoints
    ObjectFactory m_instance;  //!< instances
    ObjectFactory m_packer;    //!< packers
    ObjectFactory m_transport; //!< transports
    uint32_t m_ports{1};       //!< ports per instance
    bool m_lite{false};        //!< SUE Lite
    bool m_limitSet{false};    //!< PackingLimit set explicitly
    bool m_formatSet{false};   //!< HeaderFormat set explicitly
    uint32_t m_ackClass{2};    //!< class of standalone ACKs
};

} // namespace ns3

#endif /* SUE_HELPER_H */
