/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RIFL_LINK_HELPER_H
#define RIFL_LINK_HELPER_H

#include "ns3/data-rate.h"
#include "ns3/fabric-link-helper.h"
#include "ns3/net-device-container.h"

#include <string>

namespace ns3
{

/**
 * \ingroup rifl
 * \brief Builds RIFL Layer 1 links (RIFL paper section II.A) from the fabric module's parts: a
 * FabricChannel whose error model draws one codeword per RIFL frame (each frame carries its own
 * 12-bit CRC), devices without per-frame gaps, and the FabricRetryEngine in its NakOnly mode
 * (DESIGN.md rule 2: RIFL's NAK scheme is a variant of the one retry engine): on a corrupted
 * frame the receiver NAKs and both ends stop new data for NakPause = 2.5 round trips while the
 * sender replays.
 *
 * Frames are fixed, FrameBytes (8 to 256 B, a power of two) with a 2-byte header each. The
 * device moves coarse units of UnitFrames frames (DESIGN.md rule 3); a unit is lost when any of
 * its frames is. A NAK (retransmission request) is one frame.
 */
class RiflLinkHelper
{
  public:
    static constexpr uint32_t FRAME_HEADER_BYTES = 2; //!< section II.A

    RiflLinkHelper();

    /// \param rate line rate (100 Gb/s by default)
    void SetDataRate(DataRate rate);

    /// \param metres single-mode fibre length (the delay follows from it)
    void SetFibreLength(double metres);

    /// \param bytes frame size: a power of two from 8 to 256
    void SetFrameBytes(uint32_t bytes);

    /// \param frames frames per device unit (coarse events)
    void SetUnitFrames(uint32_t frames);

    /**
     * \brief Set an attribute of the retry engine (ns3::FabricRetryEngine).
     * \param name attribute name
     * \param value its value
     */
    void SetRetryAttribute(const std::string& name, const AttributeValue& value);

    /// \return payload bytes per unit (frames x (frame - 2))
    uint32_t GetUnitPayloadBytes() const
    {
        return m_unitFrames * (m_frameBytes - FRAME_HEADER_BYTES);
    }

    /// \return header bytes per unit (2 per frame)
    uint32_t GetUnitHeaderBytes() const
    {
        return m_unitFrames * FRAME_HEADER_BYTES;
    }

    /**
     * \brief Connect two nodes.
     * \param a one end
     * \param b the other end
     * \return the two FabricNetDevices
     */
    NetDeviceContainer Install(Ptr<Node> a, Ptr<Node> b) const;

  private:
    DataRate m_rate{"100Gbps"};           //!< line rate
    double m_fibreM{500};                 //!< fibre length
    uint32_t m_frameBytes{256};           //!< frame
    uint32_t m_unitFrames{16};            //!< frames per unit
    std::string m_retryNames[8];          //!< retry attribute names
    Ptr<AttributeValue> m_retryValues[8]; //!< their values
    uint32_t m_retryN{0};                 //!< how many
};

} // namespace ns3

#endif /* RIFL_LINK_HELPER_H */
