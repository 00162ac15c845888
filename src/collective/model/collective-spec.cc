/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "collective-spec.h"

namespace ns3
{

namespace
{

/// Names of CollectiveSpec::Type, in enum order.
const char* const TYPE_NAMES[] = {
    "all-reduce",
    "reduce-scatter",
    "all-gather",
    "broadcast",
    "reduce",
    "all-to-all",
    "all-to-all-v",
    "barrier",
};

} // namespace

std::string
CollectiveSpec::TypeName(Type t)
{
    return TYPE_NAMES[t];
}

bool
CollectiveSpec::ParseType(const std::string& name, Type& t)
{
    for (uint32_t i = 0; i <= BARRIER; ++i)
    {
        if (name == TYPE_NAMES[i])
        {
            t = static_cast<Type>(i);
            return true;
        }
    }
    return false;
}

std::vector<std::string>
CollectiveSpec::TypeNames()
{
    return std::vector<std::string>(std::begin(TYPE_NAMES), std::end(TYPE_NAMES));
}

double
CollectiveSpec::BusBandwidthFactor() const
{
    const double n = ranks;
    switch (type)
    {
    case ALL_REDUCE:
        return 2.0 * (n - 1) / n;
    case REDUCE_SCATTER:
    case ALL_GATHER:
    case ALL_TO_ALL:
    case ALL_TO_ALL_V:
        return (n - 1) / n;
    case BROADCAST:
    case REDUCE:
        return 1.0;
    case BARRIER:
        return 0.0;
    }
    return 0.0;
}

double
CollectiveSpec::AlgorithmBandwidthBytes() const
{
    switch (type)
    {
    case ALL_TO_ALL:
        return static_cast<double>(ranks) * bytes;
    case ALL_TO_ALL_V: {
        double total = 0;
        for (uint64_t s : sizes)
        {
            total += s;
        }
        return ranks ? total / ranks : 0.0;
    }
    case BARRIER:
        return 0.0;
    default:
        return static_cast<double>(bytes);
    }
}

} // namespace ns3
