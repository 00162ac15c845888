/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-config-key.h"

#include "fabric-units.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <locale>
#include <sstream>
#include <stdexcept>

namespace ns3
{

namespace
{

/**
 * Format a range bound in the key's base unit.
 * \param key the key
 * \param v the bound
 * \return e.g. "65536 bytes"; a zero bound has no unit
 */
std::string
FormatBound(const FabricConfigKey& key, double v)
{
    std::string s = FabricConfigKey::FormatNumber(v);
    if (v == 0)
    {
        return s;
    }
    switch (key.type)
    {
    case FabricConfigKey::SIZE:
        return s + " bytes";
    case FabricConfigKey::RATE:
        return s + " bit/s";
    case FabricConfigKey::TIME:
        return s + " ps";
    case FabricConfigKey::LENGTH:
        return s + " m";
    default:
        return s;
    }
}

/**
 * Check a value against the key's range.
 * \param key the key
 * \param v the value in the key's base unit
 * \param text the value as written, for the message
 * \throws std::invalid_argument if out of range
 */
void
CheckRange(const FabricConfigKey& key, double v, const std::string& text)
{
    if (key.hasMin && key.minExclusive && !(v > key.min))
    {
        throw std::invalid_argument("must be greater than " + FormatBound(key, key.min) + " (got " +
                                    text + ")");
    }
    if (key.hasMin && !key.minExclusive && v < key.min)
    {
        throw std::invalid_argument("must be at least " + FormatBound(key, key.min) + " (got " +
                                    text + ")");
    }
    if (key.hasMax && v > key.max)
    {
        throw std::invalid_argument("must be at most " + FormatBound(key, key.max) + " (got " +
                                    text + ")");
    }
}

} // namespace

std::string
FabricConfigKey::Join(const std::vector<std::string>& items,
                      const std::string& sep,
                      const std::string& quote)
{
    std::string s;
    for (std::size_t i = 0; i < items.size(); ++i)
    {
        s += (i ? sep : "") + quote + items[i] + quote;
    }
    return s;
}

std::string
FabricConfigKey::FormatRange(const std::string& quote) const
{
    if (type == ENUM)
    {
        return Join(allowed, ", ", quote);
    }
    if (hasMin && hasMax)
    {
        return FormatNumber(min) + " to " + FormatNumber(max);
    }
    if (hasMin)
    {
        return (minExclusive ? "> " : ">= ") + FormatNumber(min);
    }
    if (hasMax)
    {
        return "<= " + FormatNumber(max);
    }
    return "";
}

FabricConfigKey::FabricConfigKey(const std::string& keyPath, Type keyType)
    : path(keyPath),
      type(keyType)
{
}

FabricConfigKey&
FabricConfigKey::Default(const std::string& v)
{
    defaultValue = v;
    return *this;
}

FabricConfigKey&
FabricConfigKey::Note(const std::string& note)
{
    defaultNote = note;
    return *this;
}

FabricConfigKey&
FabricConfigKey::Unit(const std::string& u)
{
    unit = u;
    return *this;
}

FabricConfigKey&
FabricConfigKey::Required()
{
    required = true;
    return *this;
}

FabricConfigKey&
FabricConfigKey::Min(double v)
{
    hasMin = true;
    min = v;
    return *this;
}

FabricConfigKey&
FabricConfigKey::Above(double v)
{
    Min(v);
    minExclusive = true;
    return *this;
}

FabricConfigKey&
FabricConfigKey::Max(double v)
{
    hasMax = true;
    max = v;
    return *this;
}

FabricConfigKey&
FabricConfigKey::Range(double lo, double hi)
{
    return Min(lo).Max(hi);
}

FabricConfigKey&
FabricConfigKey::Allowed(const std::vector<std::string>& values)
{
    allowed = values;
    return *this;
}

FabricConfigKey&
FabricConfigKey::Element(Type t)
{
    element = t;
    return *this;
}

FabricConfigKey&
FabricConfigKey::Kinds(const std::vector<std::string>& workloadKinds)
{
    kinds = workloadKinds;
    return *this;
}

FabricConfigKey&
FabricConfigKey::Help(const std::string& text)
{
    help = text;
    return *this;
}

std::string
FabricConfigKey::FormatNumber(double v)
{
    if (std::floor(v) == v && std::fabs(v) < 1e18)
    {
        return std::to_string(static_cast<int64_t>(v));
    }
    std::ostringstream os;
    os.imbue(std::locale::classic());
    os.precision(17);
    os << v;
    return os.str();
}

std::size_t
FabricConfigKey::EditDistance(const std::string& a, const std::string& b)
{
    std::vector<std::size_t> prev(b.size() + 1);
    std::vector<std::size_t> cur(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
    {
        prev[j] = j;
    }
    for (std::size_t i = 1; i <= a.size(); ++i)
    {
        cur[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j)
        {
            const std::size_t subst = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, subst});
        }
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

FabricConfigValue
FabricConfigKey::Parse(const std::string& text) const
{
    FabricConfigValue v;
    v.text = text;
    switch (type)
    {
    case STRING:
        if (text.find_first_not_of(" \t\r\n") == std::string::npos)
        {
            throw std::invalid_argument("must not be empty");
        }
        v.str = text;
        break;
    case ENUM:
        if (std::find(allowed.begin(), allowed.end(), text) == allowed.end())
        {
            std::string message =
                "must be one of " + Join(allowed, ", ", "'") + " (got '" + text + "')";
            for (const auto& a : allowed)
            {
                if (EditDistance(a, text) <= 2)
                {
                    message += "; did you mean '" + a + "'?";
                    break;
                }
            }
            throw std::invalid_argument(message);
        }
        v.str = text;
        break;
    case UINT:
        v.u = FabricUnits::ParseUint(text);
        if (v.u > std::numeric_limits<uint32_t>::max())
        {
            throw std::invalid_argument("must be at most 4294967295 (got " + text + ")");
        }
        CheckRange(*this, static_cast<double>(v.u), text);
        break;
    case DOUBLE:
        v.d = FabricUnits::ParseDouble(text);
        CheckRange(*this, v.d, text);
        break;
    case BOOL: {
        static const std::vector<std::string> yes =
            {"true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON"};
        static const std::vector<std::string> no =
            {"false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF"};
        if (std::find(yes.begin(), yes.end(), text) != yes.end())
        {
            v.b = true;
        }
        else if (std::find(no.begin(), no.end(), text) != no.end())
        {
            v.b = false;
        }
        else
        {
            throw std::invalid_argument("expected true or false, got '" + text + "'");
        }
        break;
    }
    case SIZE:
        v.u = FabricUnits::ParseSize(text);
        CheckRange(*this, static_cast<double>(v.u), text);
        break;
    case TIME:
        v.ps = FabricUnits::ParseTimePs(text);
        CheckRange(*this, static_cast<double>(v.ps), text);
        break;
    case RATE:
        v.u = FabricUnits::ParseDataRateBps(text);
        CheckRange(*this, static_cast<double>(v.u), text);
        break;
    case LENGTH:
        v.d = FabricUnits::ParseLengthM(text);
        CheckRange(*this, v.d, text);
        break;
    case MAP:
    case LIST:
        throw std::logic_error("FabricConfigKey::Parse: " + path + " is not a scalar");
    }
    return v;
}

std::string
FabricConfigKey::TypeName(Type t)
{
    switch (t)
    {
    case STRING:
        return "string";
    case ENUM:
        return "enum";
    case UINT:
        return "uint";
    case DOUBLE:
        return "double";
    case BOOL:
        return "bool";
    case SIZE:
        return "size";
    case TIME:
        return "time";
    case RATE:
        return "rate";
    case LENGTH:
        return "length";
    case MAP:
        return "map";
    case LIST:
        return "list";
    }
    return "?";
}

} // namespace ns3
