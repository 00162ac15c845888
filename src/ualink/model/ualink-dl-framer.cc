/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ualink-dl-framer.h"

#include <algorithm>

namespace ns3
{

constexpr std::array<uint32_t, UalinkDlFramer::SEGMENTS> UalinkDlFramer::SEGMENT_SECTORS;

UalinkDlFramer::UalinkDlFramer()
{
}

UalinkDlFramer::Flit
UalinkDlFramer::Pack(uint64_t ready, uint8_t altSectors)
{
    Flit f;
    for (uint32_t s = 0; s < SEGMENTS; ++s)
    {
        uint32_t free = SEGMENT_SECTORS[s];
        uint8_t sh = 0;
        uint32_t starts = 0;
        // Figure 6-5 step 2: a DL alternative sector goes first (SH bit 0).
        if (altSectors & (1u << s))
        {
            --free;
            ++f.altSectors;
            sh |= 0x01;
        }
        // Step 3: the carry-over of the previous segment.
        if (m_carry > 0)
        {
            const uint32_t take = std::min(m_carry, free);
            m_carry -= take;
            free -= take;
            f.tlSectors += take;
            if (m_carry == 0)
            {
                ++f.completed;
            }
        }
        // Steps 4-8: up to two TL flits start, each only with at least one free sector.
        while (starts < MAX_STARTS_PER_SEGMENT && free >= 1 && ready > f.started)
        {
            ++starts;
            ++f.started;
            sh |= starts == 1 ? 0x10 : 0x80; // TL Flit[0] / TL Flit[1] starts here (Table 6-2)
            const uint32_t take = std::min(TL_FLIT_SECTORS, free);
            free -= take;
            f.tlSectors += take;
            if (take == TL_FLIT_SECTORS)
            {
                ++f.completed;
            }
            else
            {
                m_carry = TL_FLIT_SECTORS - take;
            }
        }
        // No TL flit ready: the rest is zero-filled.
        f.zeroSectors += free;
        f.maxStartsInSegment = std::max(f.maxStartsInSegment, starts);
        f.segmentHeaders[s] = sh;
    }
    m_started += f.started;
    m_completed += f.completed;
    return f;
}

} // namespace ns3
