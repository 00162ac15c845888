/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef POD_SCENARIO_SCHEMA_H
#define POD_SCENARIO_SCHEMA_H

#include "ns3/fabric-config-key.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup pod
 * \brief The table of every scenario key: path, type, default, unit, range and help.
 *
 * The single source of truth about scenario files: ScenarioLoader validates with it (unknown
 * keys, types, ranges, enum values, defaults, keys that belong to one workload kind) and
 * MarkdownReference() prints it as the reference of the scenario format.
 *
 * Paths are dotted (`pod.link.rate`); the keys of the maps in a list are written with `[]`
 * (`workloads[].size`), and SchemaPath() turns a concrete path such as `workloads[1].size` into
 * that form.
 */
class ScenarioSchema
{
  public:
    /// Type of a key's value (FabricConfigKey::Type).
    typedef FabricConfigKey::Type Type;
    /// One key of the scenario format.
    typedef FabricConfigKey Key;
    /// A parsed scalar value (the member matching the key's type is set).
    typedef FabricConfigValue Value;

    static constexpr Type STRING = FabricConfigKey::STRING; //!< any non-empty text
    static constexpr Type ENUM = FabricConfigKey::ENUM;     //!< one of Key::allowed
    static constexpr Type UINT = FabricConfigKey::UINT;     //!< integer that fits in 32 bits
    static constexpr Type DOUBLE = FabricConfigKey::DOUBLE; //!< finite real number
    static constexpr Type BOOL = FabricConfigKey::BOOL;     //!< true/false
    static constexpr Type SIZE = FabricConfigKey::SIZE;     //!< bytes
    static constexpr Type TIME = FabricConfigKey::TIME;     //!< time with a unit
    static constexpr Type RATE = FabricConfigKey::RATE;     //!< data rate with a unit
    static constexpr Type LENGTH = FabricConfigKey::LENGTH; //!< metres
    static constexpr Type MAP = FabricConfigKey::MAP;       //!< a section
    static constexpr Type LIST = FabricConfigKey::LIST;     //!< a list of Key::element

    /// \return every key, sections before their keys, in the order of the reference
    static const std::vector<Key>& GetKeys();

    /**
     * Find a key.
     * \param schemaPath the key's path in schema form (`workloads[].size`)
     * \return the key, or nullptr if there is no such key
     */
    static const Key* Find(const std::string& schemaPath);

    /**
     * Turn a concrete path into schema form: every `[N]` becomes `[]`.
     * \param path e.g. `workloads[1].size`
     * \return e.g. `workloads[].size`
     */
    static std::string SchemaPath(const std::string& path);

    /**
     * The keys directly inside a section or list element.
     * \param parent schema path of a MAP key, of a LIST key followed by `[]`, or "" for the top
     * \return the keys, in table order
     */
    static std::vector<const Key*> GetChildren(const std::string& parent);

    /**
     * The closest known key to an unknown one: a key elsewhere with the same last component
     * (`rate` -> `pod.link.rate`), or else the key whose path is nearest within edit distance 2.
     * \param schemaPath the unknown key (schema form)
     * \return the suggested key's schema path, or "" if none is close
     */
    static std::string Suggest(const std::string& schemaPath);

    /**
     * Parse and range-check the text of a scalar value.
     * \param key a key of a scalar type (not MAP or LIST)
     * \param text the value as written
     * \return the value
     * \throws std::invalid_argument with a message such as "must be at least 1 (got 0)"
     */
    static Value Parse(const Key& key, const std::string& text);

    /**
     * \param type a type
     * \return its name in the reference ("uint", "size", ...)
     */
    static std::string TypeName(Type type);

    /**
     * Levenshtein distance.
     * \param a a string
     * \param b a string
     * \return the edit distance between a and b
     */
    static std::size_t EditDistance(const std::string& a, const std::string& b);

    /**
     * Make a text safe as one cell of a GitHub Markdown table.
     *
     * `|` is escaped everywhere, code spans included (GFM splits a row at every unescaped
     * pipe before parsing its cells). Outside code spans, `\\`, `*`, `~` and `$` are escaped,
     * `_` unless inside a word, `<` before a letter, `/`, `!` or `?` (raw HTML) and `&` before
     * a letter or `#` (entities); a newline becomes a space. Code spans are kept otherwise.
     * \param text the text, with `code spans` in backticks
     * \return the cell text, e.g. `p\<plane>` for `p<plane>`, `k\*s` for `k*s`
     */
    static std::string MarkdownCell(const std::string& text);

    /// \return the reference of the scenario format in Markdown: one table row per key, units,
    ///         overrides and the checks across fields
    static std::string MarkdownReference();

    /**
     * The module documents that carry a generated table of the keys their module declares:
     * src/fabric/doc/fabric.rst for the generic pod sections (FabricPodConfig::DeclareKeys),
     * and each fabric kind's document for its own section (FabricKind::DeclareKeys).
     * \return (document, its sections), in registration order
     */
    static std::vector<std::pair<std::string, std::vector<std::string>>> GetDocSections();

    /**
     * The keys of some sections as a reStructuredText table (a list-table: key, type, default,
     * range, description), for a module's documentation.
     * \param sections section paths (e.g. "pod.sue")
     * \return the table
     */
    static std::string RstReference(const std::vector<std::string>& sections);
};

} // namespace ns3

#endif /* POD_SCENARIO_SCHEMA_H */
