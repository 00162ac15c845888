/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_CONFIG_VALUE_H
#define FABRIC_CONFIG_VALUE_H

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup fabric
 * \brief A parsed scalar value of a scenario key (FabricConfigKey::Parse): the member matching
 * the key's type is set.
 */
struct FabricConfigValue
{
    std::string text; //!< the text as written
    std::string str;  //!< STRING, ENUM
    uint64_t u{0};    //!< UINT; SIZE in bytes; RATE in bit/s
    int64_t ps{0};    //!< TIME in picoseconds
    double d{0};      //!< DOUBLE; LENGTH in metres
    bool b{false};    //!< BOOL
};

} // namespace ns3

#endif /* FABRIC_CONFIG_VALUE_H */
