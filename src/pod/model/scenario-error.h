/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef POD_SCENARIO_ERROR_H
#define POD_SCENARIO_ERROR_H

#include "ns3/fabric-input-error.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup pod
 * \brief An error in a scenario: the file, line and field it is about, and what is wrong.
 *
 * what() is `FILE:LINE: FIELD: MESSAGE`, e.g.
 * `bad.yaml:7: pod.accelerators: must be at least 1 (got 0)`. A value that came from a `--set`
 * override has FILE `--set` and LINE 0, printed as `--set: pod.accelerators: ...`. In general a
 * LINE of 0 (unknown) is left out (`missing.yaml: cannot open file`) and so is an empty FIELD
 * (`bad.yaml:3: YAML syntax error: ...`). Control characters in the file, field or message (a
 * NUL quoted from a binary file, a tab in a key) are written as `\xHH` (FabricInputError).
 */
class ScenarioError : public FabricInputError
{
  public:
    /// The FILE of errors in --set overrides.
    static constexpr const char* OVERRIDE_FILE = "--set";

    /**
     * Constructor.
     * \param file the scenario file as given by the user, or "--set"
     * \param line 1-based line number, 0 if unknown (always 0 for --set)
     * \param field dotted path of the field, e.g. "pod.link.rate" or "workloads[1].size"; empty
     * when the error is about the whole file
     * \param message what is wrong, e.g. "must be at least 1 (got 0)"
     */
    ScenarioError(const std::string& file,
                  uint32_t line,
                  const std::string& field,
                  const std::string& message);
};

} // namespace ns3

#endif /* POD_SCENARIO_ERROR_H */
