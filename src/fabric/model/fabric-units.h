/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_UNITS_H
#define FABRIC_UNITS_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup fabric
 * \brief Parsing of the quantities written in scenario files: plain numbers, sizes, times, data
 * rates and lengths.
 *
 * Every function accepts surrounding white space and white space between the number and its unit
 * ("1 MiB"), and throws std::invalid_argument with a message that quotes the input and lists the
 * accepted units when the text is not a valid quantity. Numbers are decimal, with an optional
 * fraction and exponent ("1.5", "2e3"); sizes, times and rates are computed in exact integer
 * arithmetic, so "13.8ns" is exactly 13800 ps and a value that is not a whole number of the base
 * unit (bytes, picoseconds, bit/s) is an error rather than silently rounded.
 */
class FabricUnits
{
  public:
    /**
     * Parse a non-negative decimal integer ("0", "4096"; no sign, fraction or unit).
     * \param text the text
     * \return the value
     * \throws std::invalid_argument if text is not such an integer or does not fit in 64 bits
     */
    static uint64_t ParseUint(const std::string& text);

    /**
     * Parse a finite decimal real number ("0.5", "-1", "1e-12"; no unit, no "inf" or "nan").
     * \param text the text
     * \return the value
     * \throws std::invalid_argument if text is not such a number
     */
    static double ParseDouble(const std::string& text);

    /**
     * Parse a size in bytes: a plain integer (bytes) or a number with one of the units B,
     * kB (or KB), MB, GB, TB (powers of 1000) or KiB, MiB, GiB, TiB (powers of 1024).
     * Examples: "4096", "16KiB" (16384), "1 MiB", "1.5kB" (1500).
     * \param text the text
     * \return the size in bytes
     * \throws std::invalid_argument on bad syntax, a negative size, a fraction of a byte or
     * overflow
     */
    static uint64_t ParseSize(const std::string& text);

    /**
     * Parse a time: a number with one of the units s, ms, us (or µs), ns, ps, or a plain "0".
     * Examples: "250ns", "1.5us", "2ms", "0", "10ps", "13.8ns" (13800 ps). The value is computed
     * in integer picoseconds (the simulator's resolution); a negative time is returned as such
     * (range checks belong to the caller).
     * \param text the text
     * \return the time
     * \throws std::invalid_argument on bad syntax, a missing unit on a non-zero number, a fraction
     * of a picosecond or overflow
     */
    static Time ParseTime(const std::string& text);

    /**
     * Parse a time as in ParseTime(), returning integer picoseconds.
     * \param text the text
     * \return the time in picoseconds
     * \throws std::invalid_argument as ParseTime()
     */
    static int64_t ParseTimePs(const std::string& text);

    /**
     * Parse a data rate: a number with a unit bps, kbps (or Kbps), Mbps, Gbps, Tbps, the same
     * written with "b/s" ("400Gb/s"), or in bytes per second ("Bps", "B/s": times 8).
     * Examples: "800Gbps" (8e11 bit/s), "400Gb/s", "100Mbps", "1.25GBps" (1e10 bit/s).
     * \param text the text
     * \return the data rate
     * \throws std::invalid_argument on bad syntax, a negative rate, a fraction of a bit per second
     * or overflow
     */
    static DataRate ParseDataRate(const std::string& text);

    /**
     * Parse a data rate as in ParseDataRate(), returning bit/s.
     * \param text the text
     * \return the rate in bit/s
     * \throws std::invalid_argument as ParseDataRate()
     */
    static uint64_t ParseDataRateBps(const std::string& text);

    /**
     * Parse a length in metres: a plain number (metres) or a number with one of the units m, cm,
     * mm, km. Examples: "3m", "0.5m", "300cm" (3.0), "2". A negative length is returned as such.
     * \param text the text
     * \return the length in metres
     * \throws std::invalid_argument on bad syntax
     */
    static double ParseLengthM(const std::string& text);
};

} // namespace ns3

#endif /* FABRIC_UNITS_H */
