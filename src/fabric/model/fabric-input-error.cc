/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-input-error.h"

#include <cstdio>

namespace ns3
{

namespace
{

/**
 * Control characters as \xHH: a NUL would end what() early (found by utils/fuzz_scenarios.py:
 * yaml-cpp quotes the bad escape of a binary file in its message), and none belongs on a
 * terminal.
 * \param s text
 * \return s with every byte below 0x20 and 0x7f written as \xHH
 */
std::string
Printable(const std::string& s)
{
    std::string out;
    out.reserve(s.size());
    for (const char c : s)
    {
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x20 || u == 0x7f)
        {
            char buf[5];
            std::snprintf(buf, sizeof(buf), "\\x%02x", u);
            out += buf;
        }
        else
        {
            out += c;
        }
    }
    return out;
}

} // namespace

FabricInputError::FabricInputError(const std::string& file,
                                   uint32_t line,
                                   const std::string& field,
                                   const std::string& message)
    : std::runtime_error(Format(Printable(file), line, Printable(field), Printable(message))),
      m_file(Printable(file)),
      m_line(line),
      m_field(Printable(field)),
      m_message(Printable(message))
{
}

const std::string&
FabricInputError::GetFile() const
{
    return m_file;
}

uint32_t
FabricInputError::GetLine() const
{
    return m_line;
}

const std::string&
FabricInputError::GetField() const
{
    return m_field;
}

const std::string&
FabricInputError::GetMessage() const
{
    return m_message;
}

std::string
FabricInputError::Format(const std::string& file,
                         uint32_t line,
                         const std::string& field,
                         const std::string& message)
{
    std::string s = file;
    if (line > 0)
    {
        s += ":" + std::to_string(line);
    }
    s += ": ";
    if (!field.empty())
    {
        s += field + ": ";
    }
    return s + message;
}

} // namespace ns3
