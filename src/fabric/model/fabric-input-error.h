/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_INPUT_ERROR_H
#define FABRIC_INPUT_ERROR_H

#include <cstdint>
#include <stdexcept>
#include <string>

namespace ns3
{

/**
 * \ingroup fabric
 * \brief An error in an input file (a scenario, a model file): the file, line and field it is
 * about, and what is wrong. The pod module's ScenarioError and the pyxis module's
 * PyxisModelError are this error; the format is the same for every input of podsim.
 *
 * what() is `FILE:LINE: FIELD: MESSAGE`, e.g.
 * `bad.yaml:7: pod.accelerators: must be at least 1 (got 0)`. A value that came from a `--set`
 * override has FILE `--set` and LINE 0, printed as `--set: pod.accelerators: ...`. In general a
 * LINE of 0 (unknown) is left out (`missing.yaml: cannot open file`) and so is an empty FIELD
 * (`bad.yaml:3: YAML syntax error: ...`). Control characters in the file, field or message (a
 * NUL quoted from a binary file, a tab in a key) are written as `\xHH`.
 */
class FabricInputError : public std::runtime_error
{
  public:
    /**
     * Constructor.
     * \param file the input file as given by the user ("--set" for a scenario override)
     * \param line 1-based line number, 0 if unknown (always 0 for --set)
     * \param field dotted path of the field, e.g. "pod.link.rate" or "workloads[1].size"; empty
     * when the error is about the whole file
     * \param message what is wrong, e.g. "must be at least 1 (got 0)"
     */
    FabricInputError(const std::string& file,
                     uint32_t line,
                     const std::string& field,
                     const std::string& message);

    /// \return the file ("--set" for an override)
    const std::string& GetFile() const;

    /// \return the 1-based line, 0 if unknown
    uint32_t GetLine() const;

    /// \return the dotted field path (may be empty)
    const std::string& GetField() const;

    /// \return the message alone, without file, line and field
    const std::string& GetMessage() const;

    /**
     * Format an error the way what() does.
     * \param file the file
     * \param line the line, 0 if unknown
     * \param field the field, may be empty
     * \param message the message
     * \return `FILE:LINE: FIELD: MESSAGE`, leaving out a zero LINE and an empty FIELD
     */
    static std::string Format(const std::string& file,
                              uint32_t line,
                              const std::string& field,
                              const std::string& message);

  private:
    std::string m_file;    //!< file, or "--set"
    uint32_t m_line;       //!< 1-based line, 0 if unknown
    std::string m_field;   //!< dotted field path
    std::string m_message; //!< the message alone
};

} // namespace ns3

#endif /* FABRIC_INPUT_ERROR_H */
