/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RIFL_SEGMENTATION_H
#define RIFL_SEGMENTATION_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rifl
 * \brief RIFL Layer 2 segmentation at the endpoint (RIFL paper section IV.A): an upper-layer
 * packet is cut into 256-byte segments, each one a Layer 2 packet (a cell), and the last is
 * padded to 256 bytes. Segmentation and reassembly happen only at the endpoints.
 *
 * The 8-byte L1 + L2 header travels with each segment; the model counts it on the wire in
 * addition to the 256-byte segment (the paper calls the cell 256 B and its time 20 ns at
 * 100 Gb/s, 256 B / 100 Gb/s = 20.48 ns; it does not say whether the header is inside the 256 B,
 * see doc/rifl.rst).
 */
class RiflSegmentation
{
  public:
    static constexpr uint32_t SEGMENT_BYTES = 256; //!< section IV.A

    /**
     * \param bytes upper-layer packet size
     * \param segment segment size
     * \return cells it takes (at least 1)
     */
    static uint64_t Cells(uint64_t bytes, uint32_t segment = SEGMENT_BYTES)
    {
        return bytes == 0 ? 1 : (bytes + segment - 1) / segment;
    }

    /**
     * \param bytes upper-layer packet size
     * \param segment segment size
     * \return padding bytes added to the last segment
     */
    static uint64_t Padding(uint64_t bytes, uint32_t segment = SEGMENT_BYTES)
    {
        return Cells(bytes, segment) * segment - bytes;
    }

    /**
     * \param bytes upper-layer packet size
     * \param k cell index
     * \param segment segment size
     * \return valid bytes in cell \p k (the Layer 1 valid count)
     */
    static uint32_t ValidBytes(uint64_t bytes, uint64_t k, uint32_t segment = SEGMENT_BYTES)
    {
        const uint64_t start = k * segment;
        return start >= bytes
                   ? 0
                   : static_cast<uint32_t>(bytes - start < segment ? bytes - start : segment);
    }

    /**
     * \brief Bandwidth utilization of one packet: payload over segment bytes carried.
     * \param bytes upper-layer packet size
     * \param segment segment size
     * \return bytes / (cells * segment)
     */
    static double Efficiency(uint64_t bytes, uint32_t segment = SEGMENT_BYTES)
    {
        return static_cast<double>(bytes) / static_cast<double>(Cells(bytes, segment) * segment);
    }
};

} // namespace ns3

#endif /* RIFL_SEGMENTATION_H */
