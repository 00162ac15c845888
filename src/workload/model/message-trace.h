/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MESSAGE_TRACE_H
#define MESSAGE_TRACE_H

#include <cstdint>
#include <functional>
#include <istream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup workload
 * \brief A message trace: messages between ranks, each issued at a fixed time or once other
 * messages of the trace have completed, read from a CSV or an HDF5 file and checked row by row
 * (src/workload/doc/workload.rst, section Message traces).
 *
 * Columns (CSV: a header line naming them; HDF5: one 1-D dataset per column at the file's root):
 * `id` (optional, unique), `time` or `after` (one of them per row), `delay` (with `after` only),
 * `src`, `dst`, `bytes`, `tag` (optional), `operation` (optional: write, read or atomic).
 *
 * Every error is a FabricInputError naming the file, the line (CSV; 1 is the header) or the row
 * (HDF5: the field is `column[row]`, rows from 0) and the column.
 *
 * Memory: 48 bytes per row (Row) and 4 bytes per `after` reference; the ids and the `after`
 * texts are kept only while loading.
 */
class MessageTrace
{
  public:
    /// One message of the trace.
    struct Row
    {
        uint32_t src{0};      //!< source rank (a read: the rank read from)
        uint32_t dst{0};      //!< destination rank (a read: the reader, which issues it)
        uint64_t bytes{0};    //!< payload bytes
        int64_t timePs{-1};   //!< issue time after the workload's start (-1: after others)
        int64_t delayPs{0};   //!< after others: the wait after the last of them completed
        uint32_t line{0};     //!< CSV line (from 1, the header) or HDF5 row (from 0)
        uint32_t tag{0};      //!< the trace's tag (a label, kept in the workload's own table)
        uint32_t afterEnd{0}; //!< one past its last entry in GetAfter() (its first: the previous
                              //!< row's afterEnd, 0 for row 0)
        uint8_t op{1};        //!< FabricKind::Operation: WRITE 1, READ 2, ATOMIC 4
    };

    /// What the rows are checked against.
    struct Limits
    {
        uint32_t ranks{0};         //!< ranks are below this (the placement's size)
        uint32_t operations{1};    //!< the fabric's operations (FabricKind::GetOperations)
        std::string fabric;        //!< the fabric's name (for messages)
        std::string readFabrics;   //!< fabrics that offer reads (for messages)
        std::string atomicFabrics; //!< fabrics that offer atomics (for messages)
        /// why messages of an operation and size are refused ("" if not;
        /// FabricKind::CheckOperation); may be empty
        std::function<std::string(uint32_t op, uint64_t bytes)> checkOperation;
    };

    /// The columns a trace may have, in the order the documentation lists them.
    static const std::vector<std::string>& GetColumns();

    /**
     * Load a trace, its format from its extension (.h5 or .hdf5: HDF5; anything else: CSV)
     * unless \p format says "csv" or "hdf5".
     * \param file the file
     * \param format "csv", "hdf5" or "" (by extension)
     * \param limits what the rows are checked against
     * \return the trace
     * \throws FabricInputError at the first bad row, column or reference
     */
    static MessageTrace Load(const std::string& file,
                             const std::string& format,
                             const Limits& limits);

    /**
     * Load a CSV trace from text.
     * \param file the file's name, for errors
     * \param text its contents
     * \param limits what the rows are checked against
     * \return the trace
     */
    static MessageTrace ParseCsv(const std::string& file,
                                 const std::string& text,
                                 const Limits& limits);

    /**
     * Load a CSV trace from a stream, line by line (Load() reads the file with it).
     * \param file the file's name, for errors
     * \param in the stream
     * \param limits what the rows are checked against
     * \return the trace
     */
    static MessageTrace ParseCsv(const std::string& file, std::istream& in, const Limits& limits);

    /// \return the rows, in file order
    const std::vector<Row>& GetRows() const
    {
        return m_rows;
    }

    /// \return the `after` references of every row, concatenated (row indices)
    const std::vector<uint32_t>& GetAfter() const
    {
        return m_after;
    }

    /// \param i a row \return the index of its first `after` reference in GetAfter()
    uint32_t AfterBegin(uint32_t i) const
    {
        return i == 0 ? 0 : m_rows[i - 1].afterEnd;
    }

    /// \return true if the file is HDF5 (errors name rows), false if CSV (lines)
    bool IsHdf5() const
    {
        return m_hdf5;
    }

    /// \return the total bytes of its rows
    uint64_t GetTotalBytes() const;

    /**
     * Multiply every time and delay by a factor, rounded to the picosecond.
     * \param factor at least 0
     */
    void Scale(double factor);

  private:
    class Builder;

    std::vector<Row> m_rows;       //!< the rows
    std::vector<uint32_t> m_after; //!< the `after` references
    bool m_hdf5{false};            //!< read from HDF5
};

} // namespace ns3

#endif /* MESSAGE_TRACE_H */
