/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SUE_PHY_H
#define SUE_PHY_H

#include "ns3/nstime.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup sue
 * \brief The Ethernet port beneath a SUE instance: serdes lanes (RM102 Table 4) and the FEC
 * choice of section 3.4.4 with its receive latency.
 *
 * Table 4: an 800G instance runs on 200G serdes (1x800G on 4 lanes, 2x400G on 2, 4x200G on 1),
 * a 400G instance on 100G serdes (1x400G on 4 lanes, 2x200G on 2, 4x100G on 1).
 *
 * FEC (3.4.4): the IEEE RS(544,514) code or the lower-latency RS(272,257), interleaved across the
 * port's lanes. The spec gives no latency figures; podsim uses the usual first-order model: a
 * receiver can decode once every interleaved codeword has arrived, so FEC adds
 *
 *   ways x codeword bits / (lanes x lane signalling rate)
 *
 * (5440 bits for RS-544, 2720 for RS-272; 212.5 Gb/s per 200G lane and 106.25 Gb/s per 100G lane,
 * the 802.3 signalling rates). The IEEE interleave (the default, ways = 0) is 4 on 200G serdes,
 * and on 100G serdes 1 for one lane and 2 for two or four. Appendix A.1's 100 ns of SUE RX is
 * taken to include the IEEE RS-544 FEC, so a choice changes the receive latency by the difference
 * of the two accumulation times: RxAdjustment().
 */
class SuePhy
{
  public:
    /// FEC codes (3.4.4).
    enum Fec
    {
        RS544, //!< IEEE RS(544,514), 5440-bit codewords
        RS272, //!< RS(272,257), 2720-bit codewords: lower latency, corrects fewer errors
    };

    /**
     * \param instanceGbps the instance rate in Gb/s (ports x port rate): 800 or 400
     * \return the serdes lane rate in Gb/s (200 or 100), 0 if Table 4 has no such instance
     */
    static uint32_t SerdesGbps(uint32_t instanceGbps);

    /**
     * \param portGbps the Ethernet port rate in Gb/s
     * \param serdesGbps the serdes lane rate in Gb/s
     * \return lanes per port (Table 4)
     */
    static uint32_t Lanes(uint32_t portGbps, uint32_t serdesGbps);

    /**
     * \param serdesGbps 200 or 100
     * \param lanes lanes per port
     * \return the IEEE interleave (codewords per group)
     */
    static uint32_t IeeeInterleave(uint32_t serdesGbps, uint32_t lanes);

    /**
     * \param fec the code
     * \return codeword bits on the wire (5440 or 2720)
     */
    static uint32_t CodewordBits(Fec fec);

    /**
     * \param fec the code
     * \return message bits per codeword (5140 or 2570: 514 or 257 ten-bit symbols), for the
     *         link's codeword error model
     */
    static uint32_t MessageBits(Fec fec);

    /**
     * \param fec the code
     * \param ways the interleave (1, 2 or 4; 0: IeeeInterleave())
     * \param serdesGbps 200 or 100
     * \param lanes lanes per port
     * \return the time to receive one interleaved group of codewords
     */
    static Time Accumulation(Fec fec, uint32_t ways, uint32_t serdesGbps, uint32_t lanes);

    /**
     * \param fec the code
     * \param ways the interleave (0: IEEE)
     * \param serdesGbps 200 or 100
     * \param lanes lanes per port
     * \return Accumulation() minus that of the IEEE RS-544 (negative: faster than A.1 assumes)
     */
    static Time RxAdjustment(Fec fec, uint32_t ways, uint32_t serdesGbps, uint32_t lanes);

    /**
     * \param name rs544 or rs272
     * \param fec the code, if the name is known
     * \return true if the name is known
     */
    static bool FromName(const std::string& name, Fec& fec);
};

} // namespace ns3

#endif /* SUE_PHY_H */
