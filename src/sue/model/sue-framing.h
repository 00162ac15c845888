/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SUE_FRAMING_H
#define SUE_FRAMING_H

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup sue
 * \brief The bytes SUE puts on the wire around packed transactions (SUE RM102, sections 3.3 and
 * 3.4.1-3.4.3): network header, reliability header (RH), R-CRC and Ethernet FCS, with the
 * Ethernet minimum frame; the link adds the preamble and inter-packet gap.
 *
 * Per PDU (frame bytes, before the link's 8 B preamble/SFD and 12 B IPG):
 *
 *   network header + RH (8, Table 3) + packed transactions + R-CRC (4) + FCS (4),
 *   padded to the 64 B Ethernet minimum.
 *
 * SUE Lite (SUE Lite spec section 3.4) has no RH and no R-CRC and uses the 6 B AFH Gen 2 header.
 *
 * Network headers (the figures of 3.4.1-3.4.3 are not in the text; the sizes follow the
 * standards the sections name, and are podsim's reading):
 * - ETHERNET_IPV4: Ethernet II 14 + IPv4 20 + UDP 8 = 42 B (Figure 9; PFC maps DSCP, 3.4.6);
 * - ETHERNET_IPV6: 14 + IPv6 40 + UDP 8 = 62 B;
 * - AFH_GEN1: MAC DA 6 + SA 6 + 802.1Q tag 4 (for priority, 3.4.3) + Ethertype 2 = 18 B;
 * - AFH_GEN1_SHIM: AFH Gen 1 plus a shim of ShimBytes (an IP-like header, Figure 15; 20 B by
 *   default, the size of the IPv4 header it resembles) = 38 B;
 * - AFH_GEN2_12: 12 B of forwarding information (32-bit XPU addresses, hop count, entropy;
 *   3.4.2) + Ethertype 2 = 14 B;
 * - AFH_GEN2_6: 6 B (16-bit compressed addresses) + Ethertype 2 = 8 B.
 */
class SueFraming
{
  public:
    /// Network header formats (3.4.1).
    enum HeaderFormat
    {
        ETHERNET_IPV4, //!< Ethernet, IPv4, UDP
        ETHERNET_IPV6, //!< Ethernet, IPv6, UDP
        AFH_GEN1,      //!< AFH Gen 1 without shim, with an 802.1Q tag
        AFH_GEN1_SHIM, //!< AFH Gen 1 with the shim header
        AFH_GEN2_12,   //!< AFH Gen 2, 12 B
        AFH_GEN2_6,    //!< AFH Gen 2, 6 B (compressed)
    };

    static constexpr uint32_t RH_BYTES = 8;          //!< reliability header (Table 3: 64 bits)
    static constexpr uint32_t RCRC_BYTES = 4;        //!< R-CRC (3.3: 32 bits)
    static constexpr uint32_t FCS_BYTES = 4;         //!< Ethernet FCS (IEEE 802.3)
    static constexpr uint32_t MIN_FRAME_BYTES = 64;  //!< Ethernet minimum frame, FCS included
    static constexpr uint32_t INTERFRAME_BYTES = 20; //!< preamble + SFD (8) and IPG (12)
    static constexpr uint32_t MAX_PDU_BYTES = 4096;  //!< packed PDU limit (3.3)
    static constexpr uint32_t MAX_DATA_BYTES = 256;  //!< data per transaction (3.2.1)

    /**
     * \param format the network header format
     * \param shimBytes AFH Gen 1 shim size (used by AFH_GEN1_SHIM only)
     * \return the network header bytes
     */
    static uint32_t NetworkHeaderBytes(HeaderFormat format, uint32_t shimBytes = 20);

    /**
     * \param format the network header format
     * \param lite SUE Lite (no RH, no R-CRC)
     * \param shimBytes AFH Gen 1 shim size
     * \return frame bytes added to the packed transactions: network header, RH, R-CRC, FCS
     */
    static uint32_t PduOverheadBytes(HeaderFormat format, bool lite, uint32_t shimBytes = 20);

    /**
     * \param packedBytes bytes of packed transactions (control and data)
     * \param overhead PduOverheadBytes()
     * \return the frame bytes, padded to the Ethernet minimum
     */
    static uint32_t FrameBytes(uint32_t packedBytes, uint32_t overhead);

    /**
     * \param name a scenario name: ethernet-ipv4, ethernet-ipv6, afh-gen1, afh-gen1-shim,
     *        afh-gen2-12, afh-gen2-6
     * \param format the format, if the name is known
     * \return true if the name is known
     */
    static bool FromName(const std::string& name, HeaderFormat& format);

    /**
     * \param format a format
     * \return its scenario name
     */
    static std::string Name(HeaderFormat format);
};

} // namespace ns3

#endif /* SUE_FRAMING_H */
