/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "chakra-error.h"

namespace ns3
{

namespace
{

/// \return "FILE: rank R, node N: MESSAGE" (the parts given)
std::string
Compose(const std::string& file, int64_t rank, int64_t node, const std::string& message)
{
    std::string s = file;
    if (rank != ChakraError::NONE)
    {
        s += ": rank " + std::to_string(rank);
    }
    if (node != ChakraError::NONE)
    {
        s += std::string(rank != ChakraError::NONE ? "," : ":") + " node " + std::to_string(node);
    }
    return s + ": " + message;
}

} // namespace

ChakraError::ChakraError(const std::string& file,
                         int64_t rank,
                         int64_t node,
                         const std::string& message)
    : std::runtime_error(Compose(file, rank, node, message)),
      m_file(file),
      m_rank(rank),
      m_node(node),
      m_message(message)
{
}

const std::string&
ChakraError::GetFile() const
{
    return m_file;
}

int64_t
ChakraError::GetRank() const
{
    return m_rank;
}

int64_t
ChakraError::GetNode() const
{
    return m_node;
}

const std::string&
ChakraError::GetMessage() const
{
    return m_message;
}

} // namespace ns3
