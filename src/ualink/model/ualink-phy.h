/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UALINK_PHY_H
#define UALINK_PHY_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ualink
 * \brief The framing arithmetic of a UALink 200 port's physical layer (UALink_200 chapter 7):
 * RS(544,514) codewords, one 640 B DL flit per 680 B codeword, the codeword slots spent on
 * alignment markers and idle flits, and the FEC interleave's receive latency.
 *
 * - A port is 1, 2 or 4 lanes of one station (section 2.5); each lane signals at 212.5 GT/s
 *   (section 7.1; the 100G option at 106.25).
 * - One 640 B DL flit fills one RS(544,514) codeword: 5440 bits on the wire (sections 1.3.4,
 *   7.2.7), so a codeword slot lasts 5440 / (lanes x lane rate): 25.6, 12.8 and 6.4 ns at x1, x2
 *   and x4 (51.2, 25.6, 12.8 ns for the 100G option). Flits go back to back (section 7.3.6).
 * - Slot s carries no DL flit when s is a multiple of IdlePeriod (1024): an idle flit for rate
 *   matching, or the alignment-marker flit that replaces it every AmPeriod codewords (4096 for
 *   100 and 200G ports, 8192 for 400G, 16384 for 800G; sections 7.2.7, 7.3.5). Exactly 1 slot in
 *   1024 carries no DL flit; slot 0 is an AM slot.
 * - The CRC covers the whole flit, so a TL flit is usable only once its codeword has arrived and
 *   been decoded. With FEC interleaved w ways (Tables 7-2, 7-4) a codeword has arrived (w - 1)
 *   codeword times after its own slot ends; FecDecodeLatency adds the decoder's time (the spec
 *   gives no figure).
 */
class UalinkPhy : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    UalinkPhy();
    ~UalinkPhy() override;

    /// Bits in one RS(544,514) codeword on the wire (544 10-bit symbols).
    static constexpr uint32_t CODEWORD_BITS = 5440;
    /// Bytes on the wire per codeword (section 7.2.7).
    static constexpr uint32_t CODEWORD_BYTES = 680;

    /// \return lanes of the port
    uint32_t GetLanes() const
    {
        return m_lanes;
    }

    /// \return the lane signalling rate
    DataRate GetLaneRate() const
    {
        return m_laneRate;
    }

    /// \return whether the lanes are the 100G option (106.25 GT/s)
    bool Is100G() const;

    /// \return the duration of one codeword slot
    Time GetSlotTime() const;

    /// \return codewords between alignment-marker flits
    uint32_t GetAmPeriod() const;

    /// \return codewords between idle flits
    uint32_t GetIdlePeriod() const
    {
        return m_idlePeriod;
    }

    /// \return the FEC interleave in use (ways)
    uint32_t GetFecInterleave() const;

    /**
     * \param slot a codeword slot, counted from an AM slot
     * \return whether it carries a DL flit
     */
    bool IsDlFlitSlot(uint64_t slot) const
    {
        return slot % m_idlePeriod != 0;
    }

    /**
     * \param n a DL flit, counted from 0 at the start of the link
     * \return the codeword slot it goes in
     */
    uint64_t GetSlotOfDlFlit(uint64_t n) const
    {
        return n + n / (m_idlePeriod - 1) + 1;
    }

    /**
     * \param slot a codeword slot
     * \return the first DL flit whose slot is at or after it
     */
    uint64_t GetFirstDlFlitAtOrAfter(uint64_t slot) const;

    /**
     * \param n a DL flit
     * \return when its slot starts (from the link's time origin)
     */
    Time GetDlFlitStart(uint64_t n) const
    {
        return GetSlotTime() * static_cast<int64_t>(GetSlotOfDlFlit(n));
    }

    /**
     * \return time from the end of a DL flit's slot at the receiver's pins to its TL flits being
     * usable: (interleave - 1) codeword slots plus FecDecodeLatency
     */
    Time GetFecReceiveLatency() const;

    /// \return the mean DL flit rate (flits per second, AM and idle slots removed)
    double GetDlFlitRate() const;

    /// \return the mean time per TL flit with the DL always full (157 / 16 per DL flit)
    double GetTlFlitSeconds() const;

    /// \return the TL ceiling in bit/s: 628/640 of the post-FEC rate, AM and idle slots removed
    double GetTlCeilingBps() const;

  protected:
    void DoInitialize() override;

  private:
    /// Abort on a width, rate or interleave the spec does not allow.
    void CheckConfig() const;

    uint32_t m_lanes{4};         //!< Lanes
    DataRate m_laneRate;         //!< LaneRate
    uint32_t m_interleave{0};    //!< FecInterleave (0: the PHY's standard)
    Time m_decode;               //!< FecDecodeLatency
    uint32_t m_amPeriod{0};      //!< AmPeriod (0: the PHY's)
    uint32_t m_idlePeriod{1024}; //!< IdlePeriod
};

} // namespace ns3

#endif /* UALINK_PHY_H */
