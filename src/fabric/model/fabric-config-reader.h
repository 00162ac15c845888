/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_CONFIG_READER_H
#define FABRIC_CONFIG_READER_H

#include "fabric-config-value.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup fabric
 * \brief How a fabric kind reads its keys from a scenario: the values of the keys it declared,
 * checked against their declarations, and errors that name the file, line and key.
 *
 * The scenario loader implements it over the scenario's tree (with the --set overrides applied);
 * a FabricKind sees only this interface, so a fabric module needs neither the YAML library nor
 * the pod module. Paths are concrete: `pod.ualink.virtual-pods[1].from`; the element of a list of
 * scalars is read as `...accelerators[3]`.
 */
class FabricConfigReader
{
  public:
    virtual ~FabricConfigReader();

    /**
     * Read a scalar, or its default.
     * \param path the key's concrete path (a declared key, or an element of a declared list of
     *        scalars)
     * \param required the key must be present (an error naming it otherwise)
     * \param [out] present whether the key was given (may be null)
     * \param requiredMessage the message when a required key is absent
     * \return the value (the declared default's when absent and not required)
     */
    virtual FabricConfigValue Get(
        const std::string& path,
        bool required = false,
        bool* present = nullptr,
        const std::string& requiredMessage = "required key is missing") const = 0;

    /**
     * \param path a concrete path
     * \return whether something is written at the path (a scalar, a section or a list)
     */
    virtual bool Has(const std::string& path) const = 0;

    /**
     * \param path the concrete path of a list
     * \return its number of elements (0 when absent)
     */
    virtual std::size_t GetListSize(const std::string& path) const = 0;

    /**
     * Stop loading with an error at a key: the file and line where it is written (or of its
     * nearest ancestor that is, or `--set`), the key and the message.
     * \param path the key's concrete path
     * \param message why
     */
    [[noreturn]] virtual void Fail(const std::string& path, const std::string& message) const = 0;

    /**
     * Stop loading with an error at the place of one key, naming another (a check across keys
     * whose culprit is written elsewhere).
     * \param where the concrete path whose place the error gives
     * \param field the key the error names
     * \param message why
     */
    [[noreturn]] virtual void FailAt(const std::string& where,
                                     const std::string& field,
                                     const std::string& message) const = 0;

    /**
     * Stop loading with an error in another file that a key names (a model file: its own line
     * and field).
     * \param file the file
     * \param line its line (0: unknown)
     * \param field the field in that file
     * \param message why
     */
    [[noreturn]] virtual void FailIn(const std::string& file,
                                     uint32_t line,
                                     const std::string& field,
                                     const std::string& message) const = 0;

    /**
     * The file a string key names: relative to the directory of the scenario file that wrote
     * it, as given when it came from a --set override.
     * \param path the key's concrete path (a required key: an error when absent)
     * \return the file's path
     */
    virtual std::string ResolvePath(const std::string& path) const = 0;
};

} // namespace ns3

#endif /* FABRIC_CONFIG_READER_H */
