/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UALINK_DL_FRAMER_H
#define UALINK_DL_FRAMER_H

#include <array>
#include <cstdint>

namespace ns3
{

/**
 * \ingroup ualink
 * \brief The DL flit packer of UALink_200 section 6.3: 64 B TL flits packed, sector by sector,
 * into the 628 B payload of 640 B DL flits.
 *
 * A DL flit (section 6.3.1, Table 6-1) is a 3 B flit header, five 1 B segment headers, 628 B of
 * payload in five segments of 32, 32, 32, 31 and 30 sectors (157 sectors of 4 B) and a 4 B CRC.
 * Each segment is filled (section 6.3.4, Figure 6-5) with, in order: a DL alternative sector (a
 * DL message) if one is pending; the carry-over of the TL flit that did not fit in the previous
 * segment; then up to two TL flits that start in it, each only if at least one sector is free. A
 * TL flit takes 16 sectors and spills into the next segment, or the next DL flit, in order. When
 * no TL flit is ready the rest is zero-filled; this model packs per DL flit and treats the TL
 * flits ready when the DL flit starts as the only ones it can take (a TL flit that becomes ready
 * later waits for the next DL flit: at most one DL flit time later than the 10-tick packer of
 * section 6.3.4 would take it).
 *
 * With TL flits always ready every sector is used: 157 / 16 = 9.8125 TL flits per DL flit.
 */
class UalinkDlFramer
{
  public:
    /// Bytes in a DL flit (section 6.3.1).
    static constexpr uint32_t DL_FLIT_BYTES = 640;
    /// Payload bytes in a DL flit (Table 6-1).
    static constexpr uint32_t PAYLOAD_BYTES = 628;
    /// Payload sectors in a DL flit.
    static constexpr uint32_t PAYLOAD_SECTORS = 157;
    /// Segments in a DL flit.
    static constexpr uint32_t SEGMENTS = 5;
    /// Sectors per segment (Table 6-1).
    static constexpr std::array<uint32_t, SEGMENTS> SEGMENT_SECTORS = {32, 32, 32, 31, 30};
    /// Sectors per TL flit.
    static constexpr uint32_t TL_FLIT_SECTORS = 16;
    /// Most TL flits that start in one segment (section 6.3.4).
    static constexpr uint32_t MAX_STARTS_PER_SEGMENT = 2;

    /// What one DL flit carried.
    struct Flit
    {
        uint32_t started{0};            //!< TL flits that started in it
        uint32_t completed{0};          //!< TL flits whose last sector is in it
        uint32_t tlSectors{0};          //!< payload sectors holding TL flit sectors
        uint32_t altSectors{0};         //!< payload sectors holding DL alternative sectors
        uint32_t zeroSectors{0};        //!< zero-filled payload sectors
        uint32_t maxStartsInSegment{0}; //!< most TL flits started in one of its segments
        std::array<uint8_t, SEGMENTS> segmentHeaders{}; //!< SH0-SH4 (Table 6-2; message bits 0)
    };

    UalinkDlFramer();

    /**
     * \brief Pack one DL flit.
     * \param ready TL flits ready now (beyond a carry-over); the framer takes what fits
     * \param altSectors segments (bit i: segment i) that carry a DL alternative sector first
     * \return what the flit carried; TL flits it started are taken from `ready`
     */
    Flit Pack(uint64_t ready, uint8_t altSectors = 0);

    /// \return sectors of a started TL flit still to be packed (the carry-over)
    uint32_t GetCarry() const
    {
        return m_carry;
    }

    /// \return TL flits started so far
    uint64_t GetTlFlitsStarted() const
    {
        return m_started;
    }

    /// \return TL flits completed so far
    uint64_t GetTlFlitsCompleted() const
    {
        return m_completed;
    }

    /**
     * \brief Closed form for a TL queue that never runs dry and no DL messages: the DL flit (from
     * the first one of the run, 0) that holds the last sector of TL flit k (0-based).
     * \param k TL flit
     * \return its DL flit
     */
    static uint64_t ContinuousDlFlitOf(uint64_t k)
    {
        return (TL_FLIT_SECTORS * (k + 1) - 1) / PAYLOAD_SECTORS;
    }

    /**
     * \brief Closed form: DL flits needed by n TL flits in one continuous run (no DL messages).
     * \param n TL flits
     * \return DL flits
     */
    static uint64_t ContinuousDlFlits(uint64_t n)
    {
        return n == 0 ? 0 : ContinuousDlFlitOf(n - 1) + 1;
    }

  private:
    uint32_t m_carry{0};     //!< sectors left of the TL flit being packed
    uint64_t m_started{0};   //!< TL flits started
    uint64_t m_completed{0}; //!< TL flits completed
};

} // namespace ns3

#endif /* UALINK_DL_FRAMER_H */
