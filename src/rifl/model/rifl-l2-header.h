/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RIFL_L2_HEADER_H
#define RIFL_L2_HEADER_H

#include "ns3/header.h"

#include <array>
#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \defgroup rifl RIFL
 * RIFL (RIFL paper, Shen and Chow): a NAK-based reliable link layer (Layer 1), 256 B
 * source-routed cells with relative addressing (Layer 2), and the VOQ + iSLIP RIFL switch.
 */

/**
 * \ingroup rifl
 * \brief The combined RIFL Layer 1 + Layer 2 header of a cell (RIFL paper section IV.A, Figure 2):
 * 8 bytes.
 *
 * Wire layout (bytes):
 *
 * - 0-1: Layer 1: 2-bit sync word (01), 2-bit meta code (non-zero for data), and the 12-bit
 *   verification code (CRC-12) of the frame. The paper spreads the L1 information over the 2-byte
 *   header and the VCode trailer (section II.A); the model keeps the two bytes in front and
 *   carries the valid-byte count and end-of-packet flag of the frame in the meta code's space
 *   only through ValidBytes/Eop (not serialized bit-exactly: the paper does not give the
 *   encoding).
 * - 2: Total Hops (high 4 bits), Remain Hops (low 4 bits).
 * - 3-7: Dst Port 1 to Dst Port 5, one byte each.
 *
 * Routing (Equation 1): an N-port switch that receives, on input i, a cell whose Dst Port 1 is
 * j forwards it to j if j < i, to j + 1 if i <= j < N, and to every port but i if j = 255. Each
 * hop then decrements Remain Hops and rotates the Dst Port fields one byte left; the byte that
 * leaves Dst Port 1 is replaced by the return port (the relative address of the input seen from
 * the output), so the destination recovers the source's relative address by reading the last
 * Total Hops fields in reverse order (ReverseRoute()).
 */
class RiflL2Header : public Header
{
  public:
    static constexpr uint8_t BROADCAST = 255;         //!< Dst Port value for broadcast (Eq. 1)
    static constexpr uint32_t MAX_HOPS = 5;           //!< Dst Port fields (section IV.A)
    static constexpr uint32_t SIZE = 8;               //!< L1 + L2 header bytes (section IV.A)
    static constexpr uint32_t NO_PORT = ~uint32_t(0); //!< Forward(): not forwarded
    static constexpr uint32_t ALL_PORTS = ~uint32_t(0) - 1; //!< Forward(): broadcast

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    RiflL2Header();

    /**
     * \brief Build a header for a source route.
     * \param route Dst Port values, one per hop (1 to 5)
     * \return the header with Total Hops = Remain Hops = route size
     */
    static RiflL2Header FromRoute(const std::vector<uint8_t>& route);

    /// \return Total Hops
    uint8_t GetTotalHops() const
    {
        return m_totalHops;
    }

    /// \return Remain Hops
    uint8_t GetRemainHops() const
    {
        return m_remainHops;
    }

    /**
     * \param k field index, 0 to 4 (Dst Port 1 is index 0)
     * \return the field's value
     */
    uint8_t GetDstPort(uint32_t k) const
    {
        return m_dst[k];
    }

    /// \param v valid payload bytes in this cell (Layer 1 valid count)
    void SetValidBytes(uint16_t v)
    {
        m_valid = v;
    }

    /// \return valid payload bytes in this cell
    uint16_t GetValidBytes() const
    {
        return m_valid;
    }

    /// \param eop whether this cell ends its upper-layer packet (Layer 1 EOP)
    void SetEop(bool eop)
    {
        m_eop = eop;
    }

    /// \return whether this cell ends its upper-layer packet
    bool IsEop() const
    {
        return m_eop;
    }

    /**
     * \brief Equation 1 of the RIFL paper (section IV.A).
     * \param i the input port
     * \param j the Dst Port 1 value
     * \param ports N, the switch's port count (at most 256)
     * \return the output port, ALL_PORTS for j = 255 (broadcast), or NO_PORT if j names no port (j
     * >= N - 1 and not 255: the only out-of-range values, since the input itself is skipped)
     */
    static uint32_t Forward(uint32_t i, uint32_t j, uint32_t ports);

    /**
     * \brief The inverse of Equation 1: the Dst Port value that, entering at \p in, leads to
     * \p out.
     * \param in the input port
     * \param out the output port (not \p in)
     * \return j such that Forward(in, j) = out
     */
    static uint8_t RelativeAddress(uint32_t in, uint32_t out);

    /**
     * \brief The per-hop rewrite as the cell leaves the input port (section IV.A): Remain Hops
     * minus one, Dst Port 2..5 move to 1..4, and Dst Port 5 takes the return port.
     * \param in the input port the cell came in on
     * \param out the output port it goes to
     */
    void Rotate(uint32_t in, uint32_t out);

    /**
     * \brief At the destination endpoint: the relative address (a route) back to the source,
     * from the last Total Hops fields read in reverse (section IV.A).
     * \return one Dst Port value per hop
     */
    std::vector<uint8_t> ReverseRoute() const;

    /**
     * \brief Pack the Layer 2 fields into 64 bits (FabricPacket::sourceRoute): Dst Port k in
     * byte k, Remain Hops in bits 40-43, Total Hops in bits 44-47, bit 63 set.
     * \return the packed header (never 0)
     */
    uint64_t Pack() const;

    /**
     * \param packed a value from Pack()
     * \return the header
     */
    static RiflL2Header Unpack(uint64_t packed);

    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

  private:
    uint8_t m_totalHops{0};                //!< Total Hops (4 bits)
    uint8_t m_remainHops{0};               //!< Remain Hops (4 bits)
    std::array<uint8_t, MAX_HOPS> m_dst{}; //!< Dst Port 1..5
    uint16_t m_valid{0};                   //!< valid bytes (Layer 1)
    bool m_eop{false};                     //!< end of packet (Layer 1)
};

} // namespace ns3

#endif /* RIFL_L2_HEADER_H */
