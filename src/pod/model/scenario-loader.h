/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef POD_SCENARIO_LOADER_H
#define POD_SCENARIO_LOADER_H

#include "scenario.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup pod
 * \brief Reads a scenario YAML file, applies `--set` overrides and validates everything against
 * ScenarioSchema.
 *
 * The steps are: parse the YAML (a syntax error names yaml-cpp's line); apply each override
 * `KEY=VALUE` to the tree (`pod.accelerators=64`, `workloads[0].size=1MiB`; an index one past the
 * end of `workloads` adds a workload); check every key against the schema (unknown keys with a
 * suggestion, the shape of sections and lists, keys that belong to another workload kind); parse
 * and range-check every value, filling defaults; and run the checks across fields (switch radix,
 * incast senders and receiver, traffic class). The first problem found is thrown as a
 * ScenarioError naming the file, line and field, or `--set` for a value from an override. Nothing
 * is written and nothing runs before the scenario is valid.
 *
 * Time::SetResolution(Time::PS) must have been called: times are exact in picoseconds.
 */
class ScenarioLoader
{
  public:
    /**
     * Load a scenario file.
     * \param path the YAML file; errors name it as given
     * \param overrides `KEY=VALUE` strings, applied in order before validation
     * \return the validated scenario, with sourceFile = path, text = the file's contents and
     * overrides as given
     * \throws ScenarioError if the file cannot be read or anything in it or in the overrides is
     * invalid
     */
    static Scenario Load(const std::string& path, const std::vector<std::string>& overrides);

    /**
     * Load a scenario from text.
     * \param text the YAML text
     * \param displayName the name errors give for the text (and whose stem is the default name)
     * \param overrides `KEY=VALUE` strings, applied in order before validation
     * \return the validated scenario, with sourceFile = displayName
     * \throws ScenarioError if anything in the text or the overrides is invalid
     */
    static Scenario LoadString(const std::string& text,
                               const std::string& displayName,
                               const std::vector<std::string>& overrides);

    /// One case of a study: a fabric and a workload, by their names.
    struct StudyCase
    {
        std::string fabric;   //!< study.fabrics[].name
        std::string workload; //!< study.workloads[].name
    };

    /**
     * The cases of a study (src/pod/doc/pod.rst, Studies), every one loaded and validated.
     * \param path the YAML file
     * \param overrides `KEY=VALUE` strings (--set), applied after study.quick
     * \param quick apply the file's study.quick overrides first
     * \return the cases, fabric by fabric in file order, each with the workloads in file
     * order; empty when the file has no study section
     * \throws ScenarioError if anything in the study or in any case is invalid
     */
    static std::vector<StudyCase> ListCases(const std::string& path,
                                            const std::vector<std::string>& overrides,
                                            bool quick);

    /**
     * Load one case of a study: the file without its study section, with the fabric's pod
     * merged over the top-level pod (key by key, the fabric's values win) and the workload as
     * the only workload. Errors name the file's lines and end with the case's name.
     * \param path the YAML file
     * \param overrides `KEY=VALUE` strings (--set), applied after study.quick
     * \param quick apply the file's study.quick overrides first
     * \param caseName `FABRIC/WORKLOAD`
     * \return the case's scenario (studyCase = caseName)
     * \throws ScenarioError if the file is not a study, the case unknown or anything invalid
     */
    static Scenario LoadCase(const std::string& path,
                             const std::vector<std::string>& overrides,
                             bool quick,
                             const std::string& caseName);
};

} // namespace ns3

#endif /* POD_SCENARIO_LOADER_H */
