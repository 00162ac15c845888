/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scenario-error.h"

namespace ns3
{

ScenarioError::ScenarioError(const std::string& file,
                             uint32_t line,
                             const std::string& field,
                             const std::string& message)
    : std::runtime_error(Format(file, line, field, message)),
      m_file(file),
      m_line(line),
      m_field(field),
      m_message(message)
{
}

const std::string&
ScenarioError::GetFile() const
{
    return m_file;
}

uint32_t
ScenarioError::GetLine() const
{
    return m_line;
}

const std::string&
ScenarioError::GetField() const
{
    return m_field;
}

const std::string&
ScenarioError::GetMessage() const
{
    return m_message;
}

std::string
ScenarioError::Format(const std::string& file,
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
