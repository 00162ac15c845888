/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-invariant-check.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <cstdio>
#include <sstream>
#include <unordered_map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricInvariantCheck");

bool FabricInvariantCheck::s_enabled = false;
uint64_t FabricInvariantCheck::s_checks = 0;

namespace
{
/// \return the component names, by address
std::unordered_map<const void*, std::string>&
Names()
{
    static std::unordered_map<const void*, std::string> names;
    return names;
}
} // namespace

void
FabricInvariantCheck::Enable()
{
    NS_LOG_FUNCTION_NOARGS();
    s_enabled = true;
    s_checks = 0;
    Names().clear();
}

void
FabricInvariantCheck::Disable()
{
    NS_LOG_FUNCTION_NOARGS();
    s_enabled = false;
    Names().clear();
}

void
FabricInvariantCheck::SetName(const void* object, const std::string& name)
{
    if (s_enabled)
    {
        Names()[object] = name;
    }
}

std::string
FabricInvariantCheck::GetName(const void* object, const char* kind)
{
    auto it = Names().find(object);
    if (it != Names().end())
    {
        return it->second;
    }
    std::ostringstream os;
    os << kind << "@" << object;
    return os.str();
}

void
FabricInvariantCheck::Fail(const char* invariant,
                           const void* object,
                           const char* kind,
                           const std::string& detail)
{
    Fail(invariant, GetName(object, kind), detail);
}

void
FabricInvariantCheck::Fail(const char* invariant,
                           const std::string& component,
                           const std::string& detail)
{
    // Picoseconds as microseconds with all six decimals: the time is exact.
    const int64_t ps = Simulator::Now().GetPicoSeconds();
    char at[64];
    std::snprintf(at,
                  sizeof(at),
                  "%s%lld.%06lld us",
                  ps < 0 ? "-" : "",
                  static_cast<long long>((ps < 0 ? -ps : ps) / 1000000),
                  static_cast<long long>((ps < 0 ? -ps : ps) % 1000000));
    const std::string message = std::string("invariant violated: ") + invariant + ": " + component +
                                " " + detail + " at " + at;
    NS_LOG_ERROR(message);
    throw Violation(invariant, component, message);
}

} // namespace ns3
