/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_CONFIG_KEY_H
#define FABRIC_CONFIG_KEY_H

#include "fabric-config-value.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup fabric
 * \brief One key of the scenario format: its dotted path, value type, default, unit, range and
 * help text.
 *
 * The pod module's schema is a table of these keys; a fabric kind (FabricKind) declares the keys
 * of its own section (`pod.sue`, `pod.ualink`, ...) with them, so that the scenario loader
 * validates them and the scenario reference documents them without knowing the fabric. A key is
 * built readably with its fluent setters:
 *
 * \code
 *   FabricConfigKey("pod.sue.ports", FabricConfigKey::UINT).Default("1").Range(1, 4).Help("...")
 * \endcode
 *
 * Paths are dotted (`pod.link.rate`); the keys of the maps in a list are written with `[]`
 * (`workloads[].size`).
 */
struct FabricConfigKey
{
    /// Type of a key's value.
    enum Type
    {
        STRING, //!< any non-empty text
        ENUM,   //!< one of allowed
        UINT,   //!< non-negative integer that fits in 32 bits
        DOUBLE, //!< finite real number
        BOOL,   //!< true/false (also yes/no, on/off)
        SIZE,   //!< bytes, with an optional unit (FabricUnits::ParseSize)
        TIME,   //!< time with a unit (FabricUnits::ParseTime)
        RATE,   //!< data rate with a unit (FabricUnits::ParseDataRate)
        LENGTH, //!< metres, with an optional unit (FabricUnits::ParseLengthM)
        MAP,    //!< a section: a map of keys
        LIST    //!< a list of element
    };

    FabricConfigKey() = default;

    /**
     * Start a key.
     * \param keyPath dotted path
     * \param keyType value type
     */
    FabricConfigKey(const std::string& keyPath, Type keyType);

    std::string path;                 //!< dotted path, `[]` for list elements
    Type type{STRING};                //!< value type
    std::string defaultValue;         //!< default as text (parsed like a value); empty: none
    std::string defaultNote;          //!< shown instead of defaultValue for a computed default
    std::string unit;                 //!< unit of the value, for the reference (e.g. "bits")
    bool required{false};             //!< must be given (for kinds only, if set)
    bool hasMin{false};               //!< min is set
    bool minExclusive{false};         //!< the value must be strictly greater than min
    double min{0};                    //!< smallest value (base unit: bytes, ps, bit/s, m)
    bool hasMax{false};               //!< max is set
    double max{0};                    //!< largest value (base unit)
    std::vector<std::string> allowed; //!< ENUM: allowed values
    Type element{MAP};                //!< LIST: type of the elements (MAP or a scalar type)
    std::vector<std::string> kinds;   //!< keys of workloads[]: only for these kinds (empty: all)
    std::string help;                 //!< one-line description

    /// \param v default as text \return this key
    FabricConfigKey& Default(const std::string& v);
    /// \param note description of a computed default \return this key
    FabricConfigKey& Note(const std::string& note);
    /// \param u unit for the reference \return this key
    FabricConfigKey& Unit(const std::string& u);
    /// \return this key, made required
    FabricConfigKey& Required();
    /// \param v inclusive minimum \return this key
    FabricConfigKey& Min(double v);
    /// \param v exclusive minimum \return this key
    FabricConfigKey& Above(double v);
    /// \param v inclusive maximum \return this key
    FabricConfigKey& Max(double v);
    /// \param lo inclusive minimum \param hi inclusive maximum \return this key
    FabricConfigKey& Range(double lo, double hi);
    /// \param values allowed values of an enum \return this key
    FabricConfigKey& Allowed(const std::vector<std::string>& values);
    /// \param t element type of a list \return this key
    FabricConfigKey& Element(Type t);
    /// \param workloadKinds workload kinds the key belongs to \return this key
    FabricConfigKey& Kinds(const std::vector<std::string>& workloadKinds);
    /// \param text one-line description \return this key
    FabricConfigKey& Help(const std::string& text);

    /**
     * Parse and range-check the text of a scalar value of this key.
     * \param text the value as written
     * \return the value
     * \throws std::invalid_argument with a message such as "must be at least 1 (got 0)"
     */
    FabricConfigValue Parse(const std::string& text) const;

    /**
     * \param t a type
     * \return its name in the reference ("uint", "size", ...)
     */
    static std::string TypeName(Type t);

    /**
     * Levenshtein distance.
     * \param a a string
     * \param b a string
     * \return the edit distance between a and b
     */
    static std::size_t EditDistance(const std::string& a, const std::string& b);

    /**
     * Format a number without a needless fraction or exponent.
     * \param v the number
     * \return "65536", "0.5", "1e-12"
     */
    static std::string FormatNumber(double v);

    /**
     * Join strings.
     * \param items the strings
     * \param sep separator
     * \param quote text put around each item
     * \return the joined string
     */
    static std::string Join(const std::vector<std::string>& items,
                            const std::string& sep,
                            const std::string& quote);

    /**
     * The key's values for a reference table: its allowed values (each between \p quote), or
     * its range ("1 to 64", ">= 0", "> 0", "<= 8"), or "" when any value of its type goes.
     * \param quote text put around each allowed value
     * \return the text
     */
    std::string FormatRange(const std::string& quote) const;
};

} // namespace ns3

#endif /* FABRIC_CONFIG_KEY_H */
