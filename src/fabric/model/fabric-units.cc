/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-units.h"

#include <cctype>
#include <cmath>
#include <limits>
#include <locale>
#include <sstream>
#include <stdexcept>

namespace ns3
{

namespace
{

/// Unsigned 128-bit integer for exact intermediate arithmetic.
using U128 = unsigned __int128;

/// Most significant digits kept in a mantissa (10^36 < 2^128 / 2^8, room for a unit multiplier).
constexpr int MAX_DIGITS = 36;

/// Largest exponent magnitude accepted in "1e..." notation.
constexpr int MAX_EXPONENT = 1000;

/// A decimal number: (-1)^negative * mantissa * 10^exp10, exactly as written.
struct Decimal
{
    bool negative{false}; //!< sign
    U128 mantissa{0};     //!< significant digits
    int exp10{0};         //!< power of ten
};

/// Result of scaling a decimal to an integer.
enum class Scaled
{
    OK,       //!< exact integer
    FRACTION, //!< not a whole number of the base unit
    OVERFLOW  //!< too large
};

/**
 * Strip leading and trailing white space.
 * \param s text
 * \return s without surrounding white space
 */
std::string
Trim(const std::string& s)
{
    const char* ws = " \t\r\n\f\v";
    const auto b = s.find_first_not_of(ws);
    if (b == std::string::npos)
    {
        return "";
    }
    const auto e = s.find_last_not_of(ws);
    return s.substr(b, e - b + 1);
}

/**
 * Split text into its leading number and the unit after it (white space between is allowed).
 * \param text trimmed text
 * \param [out] number the number part (may be empty)
 * \param [out] unit the rest, trimmed
 */
void
SplitNumber(const std::string& text, std::string& number, std::string& unit)
{
    std::size_t i = 0;
    const std::size_t n = text.size();
    if (i < n && (text[i] == '+' || text[i] == '-'))
    {
        ++i;
    }
    while (i < n && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.'))
    {
        ++i;
    }
    // An exponent only if 'e' is followed by a digit, or a sign and a digit.
    if (i < n && (text[i] == 'e' || text[i] == 'E'))
    {
        std::size_t j = i + 1;
        if (j < n && (text[j] == '+' || text[j] == '-'))
        {
            ++j;
        }
        if (j < n && std::isdigit(static_cast<unsigned char>(text[j])))
        {
            i = j;
            while (i < n && std::isdigit(static_cast<unsigned char>(text[i])))
            {
                ++i;
            }
        }
    }
    number = text.substr(0, i);
    unit = Trim(text.substr(i));
}

/**
 * Parse a decimal number: optional sign, digits with at most one '.', at least one digit, then an
 * optional exponent e[+-]digits.
 * \param s the number text
 * \param [out] d the number
 * \return false if the syntax is wrong or the number has too many significant digits
 */
bool
ParseDecimal(const std::string& s, Decimal& d)
{
    d = Decimal();
    std::size_t i = 0;
    const std::size_t n = s.size();
    if (i < n && (s[i] == '+' || s[i] == '-'))
    {
        d.negative = (s[i] == '-');
        ++i;
    }
    bool anyDigit = false;
    bool inFraction = false;
    int significant = 0;
    for (; i < n; ++i)
    {
        const char c = s[i];
        if (c == '.')
        {
            if (inFraction)
            {
                return false;
            }
            inFraction = true;
            continue;
        }
        if (!std::isdigit(static_cast<unsigned char>(c)))
        {
            break;
        }
        anyDigit = true;
        const int digit = c - '0';
        if (d.mantissa == 0 && digit == 0)
        {
            if (inFraction)
            {
                --d.exp10; // a leading zero of the fraction: 0.05 = 5e-2
            }
            continue;
        }
        if (significant >= MAX_DIGITS)
        {
            if (digit != 0)
            {
                return false; // more precision than we can hold exactly
            }
            if (!inFraction)
            {
                ++d.exp10; // a trailing zero of a long integer part
            }
            continue;
        }
        d.mantissa = d.mantissa * 10 + static_cast<U128>(digit);
        ++significant;
        if (inFraction)
        {
            --d.exp10;
        }
    }
    if (!anyDigit)
    {
        return false;
    }
    if (i < n)
    {
        if (s[i] != 'e' && s[i] != 'E')
        {
            return false;
        }
        ++i;
        bool expNegative = false;
        if (i < n && (s[i] == '+' || s[i] == '-'))
        {
            expNegative = (s[i] == '-');
            ++i;
        }
        if (i >= n)
        {
            return false;
        }
        int e = 0;
        for (; i < n; ++i)
        {
            if (!std::isdigit(static_cast<unsigned char>(s[i])))
            {
                return false;
            }
            e = e * 10 + (s[i] - '0');
            if (e > MAX_EXPONENT)
            {
                return false;
            }
        }
        d.exp10 += expNegative ? -e : e;
    }
    // Normalise: no trailing zeros in the mantissa.
    while (d.mantissa != 0 && d.mantissa % 10 == 0)
    {
        d.mantissa /= 10;
        ++d.exp10;
    }
    return true;
}

/**
 * Compute |d| * multiplier * 10^extraExp10 exactly.
 * \param d the decimal
 * \param multiplier an integer unit multiplier (e.g. 1024 for KiB)
 * \param extraExp10 a power-of-ten unit multiplier (e.g. 3 for ns in ps)
 * \param [out] out the result
 * \return OK, FRACTION if the result is not an integer, OVERFLOW if it does not fit in 128 bits
 */
Scaled
ScaleToInteger(const Decimal& d, uint64_t multiplier, int extraExp10, U128& out)
{
    out = 0;
    if (d.mantissa == 0)
    {
        return Scaled::OK;
    }
    U128 m = 0;
    if (__builtin_mul_overflow(d.mantissa, static_cast<U128>(multiplier), &m))
    {
        return Scaled::OVERFLOW;
    }
    const int e = d.exp10 + extraExp10;
    if (e >= 0)
    {
        for (int k = 0; k < e; ++k)
        {
            if (__builtin_mul_overflow(m, static_cast<U128>(10), &m))
            {
                return Scaled::OVERFLOW;
            }
        }
        out = m;
        return Scaled::OK;
    }
    // 10^38 is the largest power of ten in 128 bits; m < 2^128 < 10^39.
    if (-e > 38)
    {
        return Scaled::FRACTION;
    }
    U128 p = 1;
    for (int k = 0; k < -e; ++k)
    {
        p *= 10;
    }
    if (m % p != 0)
    {
        return Scaled::FRACTION;
    }
    out = m / p;
    return Scaled::OK;
}

/**
 * Quote a text for an error message.
 * \param text text
 * \return 'text'
 */
std::string
Quote(const std::string& text)
{
    return "'" + text + "'";
}

/// Accepted size units, for messages.
const char* const SIZE_UNITS = "B, kB (or KB), MB, GB, TB, KiB, MiB, GiB, TiB";
/// Accepted time units, for messages.
const char* const TIME_UNITS = "s, ms, us, ns, ps";
/// Accepted rate units, for messages.
const char* const RATE_UNITS =
    "bps, kbps, Mbps, Gbps, Tbps, also written Gb/s, or GBps for bytes/s";
/// Accepted length units, for messages.
const char* const LENGTH_UNITS = "m, cm, mm, km";

} // namespace

uint64_t
FabricUnits::ParseUint(const std::string& text)
{
    const std::string t = Trim(text);
    if (t.empty())
    {
        throw std::invalid_argument("expected a non-negative integer, got an empty value");
    }
    uint64_t v = 0;
    for (char c : t)
    {
        if (!std::isdigit(static_cast<unsigned char>(c)))
        {
            throw std::invalid_argument("expected a non-negative integer, got " + Quote(t));
        }
        if (__builtin_mul_overflow(v, static_cast<uint64_t>(10), &v) ||
            __builtin_add_overflow(v, static_cast<uint64_t>(c - '0'), &v))
        {
            throw std::invalid_argument(Quote(t) + " is too large for a 64-bit integer");
        }
    }
    return v;
}

double
FabricUnits::ParseDouble(const std::string& text)
{
    const std::string t = Trim(text);
    Decimal d;
    if (t.empty() || !ParseDecimal(t, d))
    {
        throw std::invalid_argument("expected a number, got " +
                                    (t.empty() ? "an empty value" : Quote(t)));
    }
    std::istringstream is(t);
    is.imbue(std::locale::classic());
    double v = 0;
    is >> v;
    if (is.fail() || !std::isfinite(v))
    {
        throw std::invalid_argument(Quote(t) + " is out of range for a double");
    }
    return v;
}

uint64_t
FabricUnits::ParseSize(const std::string& text)
{
    struct Unit
    {
        const char* name;
        uint64_t multiplier;
    };

    static const Unit units[] = {
        {"", 1},
        {"B", 1},
        {"kB", 1000ULL},
        {"KB", 1000ULL},
        {"MB", 1000ULL * 1000},
        {"GB", 1000ULL * 1000 * 1000},
        {"TB", 1000ULL * 1000 * 1000 * 1000},
        {"KiB", 1ULL << 10},
        {"MiB", 1ULL << 20},
        {"GiB", 1ULL << 30},
        {"TiB", 1ULL << 40},
    };
    const std::string t = Trim(text);
    const std::string what = "expected a size in bytes (an integer, or a number with a unit: " +
                             std::string(SIZE_UNITS) + "), got ";
    std::string number;
    std::string unit;
    SplitNumber(t, number, unit);
    Decimal d;
    if (t.empty() || !ParseDecimal(number, d))
    {
        throw std::invalid_argument(what + (t.empty() ? "an empty value" : Quote(t)));
    }
    const Unit* u = nullptr;
    for (const auto& candidate : units)
    {
        if (unit == candidate.name)
        {
            u = &candidate;
        }
    }
    if (u == nullptr)
    {
        throw std::invalid_argument("unknown size unit " + Quote(unit) + " in " + Quote(t) +
                                    " (use " + SIZE_UNITS + ")");
    }
    if (d.negative && d.mantissa != 0)
    {
        throw std::invalid_argument("a size cannot be negative, got " + Quote(t));
    }
    U128 v = 0;
    const Scaled s = ScaleToInteger(d, u->multiplier, 0, v);
    if (s == Scaled::FRACTION)
    {
        throw std::invalid_argument(Quote(t) + " is not a whole number of bytes");
    }
    if (s == Scaled::OVERFLOW || v > std::numeric_limits<uint64_t>::max())
    {
        throw std::invalid_argument(Quote(t) + " is too large");
    }
    return static_cast<uint64_t>(v);
}

int64_t
FabricUnits::ParseTimePs(const std::string& text)
{
    struct Unit
    {
        const char* name;
        int exp10; //!< the unit in picoseconds is 10^exp10
    };

    static const Unit units[] = {
        {"s", 12},
        {"ms", 9},
        {"us", 6},
        {"\xC2\xB5s", 6}, // µs (MICRO SIGN)
        {"\xCE\xBCs", 6}, // μs (GREEK SMALL LETTER MU)
        {"ns", 3},
        {"ps", 0},
    };
    const std::string t = Trim(text);
    const std::string what =
        "expected a time (a number with a unit: " + std::string(TIME_UNITS) + "; or 0), got ";
    std::string number;
    std::string unit;
    SplitNumber(t, number, unit);
    Decimal d;
    if (t.empty() || !ParseDecimal(number, d))
    {
        throw std::invalid_argument(what + (t.empty() ? "an empty value" : Quote(t)));
    }
    int exp10 = 0;
    if (unit.empty())
    {
        if (d.mantissa != 0)
        {
            throw std::invalid_argument("a time needs a unit (" + std::string(TIME_UNITS) +
                                        "), got " + Quote(t));
        }
    }
    else
    {
        const Unit* u = nullptr;
        for (const auto& candidate : units)
        {
            if (unit == candidate.name)
            {
                u = &candidate;
            }
        }
        if (u == nullptr)
        {
            throw std::invalid_argument("unknown time unit " + Quote(unit) + " in " + Quote(t) +
                                        " (use " + TIME_UNITS + ")");
        }
        exp10 = u->exp10;
    }
    U128 v = 0;
    const Scaled s = ScaleToInteger(d, 1, exp10, v);
    if (s == Scaled::FRACTION)
    {
        throw std::invalid_argument(Quote(t) +
                                    " is not a whole number of picoseconds (the simulator's "
                                    "time resolution)");
    }
    if (s == Scaled::OVERFLOW || v > static_cast<U128>(std::numeric_limits<int64_t>::max()))
    {
        throw std::invalid_argument(Quote(t) + " is too large (at most about 106 days)");
    }
    const auto ps = static_cast<int64_t>(v);
    return d.negative ? -ps : ps;
}

Time
FabricUnits::ParseTime(const std::string& text)
{
    const int64_t ps = ParseTimePs(text);
    if (ps < 0)
    {
        return Time() - PicoSeconds(static_cast<uint64_t>(-ps));
    }
    return PicoSeconds(static_cast<uint64_t>(ps));
}

uint64_t
FabricUnits::ParseDataRateBps(const std::string& text)
{
    struct Prefix
    {
        const char* name;
        int exp10;
    };

    struct Base
    {
        const char* name;
        uint64_t bitsPerUnit;
    };

    static const Prefix prefixes[] = {{"", 0}, {"k", 3}, {"K", 3}, {"M", 6}, {"G", 9}, {"T", 12}};
    static const Base bases[] = {{"bps", 1}, {"b/s", 1}, {"bit/s", 1}, {"Bps", 8}, {"B/s", 8}};
    const std::string t = Trim(text);
    const std::string what =
        "expected a data rate (a number with a unit: " + std::string(RATE_UNITS) + "), got ";
    std::string number;
    std::string unit;
    SplitNumber(t, number, unit);
    Decimal d;
    if (t.empty() || !ParseDecimal(number, d))
    {
        throw std::invalid_argument(what + (t.empty() ? "an empty value" : Quote(t)));
    }
    if (unit.empty())
    {
        throw std::invalid_argument("a data rate needs a unit (" + std::string(RATE_UNITS) +
                                    "), got " + Quote(t));
    }
    const Prefix* prefix = nullptr;
    const Base* base = nullptr;
    for (const auto& p : prefixes)
    {
        for (const auto& b : bases)
        {
            if (unit == std::string(p.name) + b.name)
            {
                prefix = &p;
                base = &b;
            }
        }
    }
    if (prefix == nullptr)
    {
        throw std::invalid_argument("unknown data rate unit " + Quote(unit) + " in " + Quote(t) +
                                    " (use " + RATE_UNITS + ")");
    }
    if (d.negative && d.mantissa != 0)
    {
        throw std::invalid_argument("a data rate cannot be negative, got " + Quote(t));
    }
    U128 v = 0;
    const Scaled s = ScaleToInteger(d, base->bitsPerUnit, prefix->exp10, v);
    if (s == Scaled::FRACTION)
    {
        throw std::invalid_argument(Quote(t) + " is not a whole number of bit/s");
    }
    if (s == Scaled::OVERFLOW || v > std::numeric_limits<uint64_t>::max())
    {
        throw std::invalid_argument(Quote(t) + " is too large");
    }
    return static_cast<uint64_t>(v);
}

DataRate
FabricUnits::ParseDataRate(const std::string& text)
{
    return DataRate(ParseDataRateBps(text));
}

double
FabricUnits::ParseLengthM(const std::string& text)
{
    const std::string t = Trim(text);
    const std::string what = "expected a length in metres (a number, or a number with a unit: " +
                             std::string(LENGTH_UNITS) + "), got ";
    std::string number;
    std::string unit;
    SplitNumber(t, number, unit);
    Decimal d;
    if (t.empty() || !ParseDecimal(number, d))
    {
        throw std::invalid_argument(what + (t.empty() ? "an empty value" : Quote(t)));
    }
    const double v = ParseDouble(number);
    // One correctly rounded operation per unit: 300cm is exactly 3.0.
    if (unit.empty() || unit == "m")
    {
        return v;
    }
    if (unit == "cm")
    {
        return v / 100.0;
    }
    if (unit == "mm")
    {
        return v / 1000.0;
    }
    if (unit == "km")
    {
        return v * 1000.0;
    }
    throw std::invalid_argument("unknown length unit " + Quote(unit) + " in " + Quote(t) +
                                " (use " + LENGTH_UNITS + ")");
}

} // namespace ns3
