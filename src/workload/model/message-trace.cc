/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "message-trace.h"

#include "ns3/fabric-input-error.h"
#include "ns3/fabric-units.h"
#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <hdf5.h>
#include <limits>
#include <sstream>
#include <unordered_map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MessageTrace");

namespace
{

/// Column indices, in GetColumns() order.
enum Column
{
    COL_ID,
    COL_TIME,
    COL_AFTER,
    COL_DELAY,
    COL_SRC,
    COL_DST,
    COL_BYTES,
    COL_TAG,
    COL_OPERATION,
    N_COLUMNS
};

/// \param s text \return it without leading and trailing blanks
std::string
Trim(const std::string& s)
{
    const auto b = s.find_first_not_of(" \t\r");
    if (b == std::string::npos)
    {
        return "";
    }
    const auto e = s.find_last_not_of(" \t\r");
    return s.substr(b, e - b + 1);
}

/// \param s text \return true if it is a non-empty run of decimal digits
bool
IsDigits(const std::string& s)
{
    return !s.empty() &&
           std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

} // namespace

/// Turns the cells of each row (text, as a CSV gives them) into rows, checking each.
class MessageTrace::Builder
{
  public:
    /**
     * \param file the file, for errors
     * \param hdf5 errors name rows (HDF5) rather than lines (CSV)
     * \param limits what rows are checked against
     */
    Builder(const std::string& file, bool hdf5, const Limits& limits)
        : m_file(file),
          m_hdf5(hdf5),
          m_limits(limits)
    {
        m_trace.m_hdf5 = hdf5;
    }

    /**
     * Stop at a column of the header (CSV: line 1) or a dataset (HDF5).
     * \param column the column
     * \param message why
     */
    [[noreturn]] void FailColumn(const std::string& column, const std::string& message) const
    {
        throw FabricInputError(m_file, m_hdf5 ? 0 : 1, column, message);
    }

    /**
     * Stop at a cell.
     * \param where CSV line or HDF5 row
     * \param column the column
     * \param message why
     */
    [[noreturn]] void Fail(uint32_t where, int column, const std::string& message) const
    {
        const std::string& name = GetColumns()[column];
        if (m_hdf5)
        {
            throw FabricInputError(m_file, 0, name + "[" + std::to_string(where) + "]", message);
        }
        throw FabricInputError(m_file, where, name, message);
    }

    /**
     * The columns the file has, in its order: checks them and maps them to Column.
     * \param names the header's names
     */
    void SetColumns(const std::vector<std::string>& names)
    {
        const auto& known = GetColumns();
        std::vector<bool> seen(N_COLUMNS, false);
        m_map.clear();
        for (const auto& n : names)
        {
            const auto it = std::find(known.begin(), known.end(), n);
            if (it == known.end())
            {
                std::string list;
                for (const auto& k : known)
                {
                    list += (list.empty() ? "" : ", ") + k;
                }
                FailColumn(n.empty() ? "(empty)" : n, "unknown column (the columns: " + list + ")");
            }
            const int c = static_cast<int>(it - known.begin());
            if (seen[c])
            {
                FailColumn(n, "column given twice");
            }
            seen[c] = true;
            m_map.push_back(c);
        }
        for (int c : {COL_SRC, COL_DST, COL_BYTES})
        {
            if (!seen[c])
            {
                FailColumn(known[c], "missing required column");
            }
        }
        if (!seen[COL_TIME] && !seen[COL_AFTER])
        {
            FailColumn("time", "missing required column: a trace has a time or an after column");
        }
    }

    /// \return the file's columns, in its order (Column values)
    const std::vector<int>& GetMap() const
    {
        return m_map;
    }

    /**
     * Add a row.
     * \param cell its cells, by Column ("" where absent or empty)
     * \param where CSV line or HDF5 row
     */
    void AddRow(const std::vector<std::string>& cell, uint32_t where)
    {
        Row r;
        r.line = where;
        r.src = Rank(cell[COL_SRC], where, COL_SRC);
        r.dst = Rank(cell[COL_DST], where, COL_DST);
        if (r.src == r.dst)
        {
            Fail(where,
                 COL_DST,
                 "equals src (" + std::to_string(r.src) + "): a message goes to another rank");
        }
        if (cell[COL_BYTES].empty())
        {
            Fail(where, COL_BYTES, "missing value");
        }
        try
        {
            r.bytes = FabricUnits::ParseSize(cell[COL_BYTES]);
        }
        catch (const std::invalid_argument& e)
        {
            Fail(where, COL_BYTES, "not a size: '" + cell[COL_BYTES] + "' (" + e.what() + ")");
        }
        if (r.bytes == 0)
        {
            Fail(where, COL_BYTES, "a message carries at least 1 byte");
        }
        if (!cell[COL_TAG].empty())
        {
            uint64_t tag = 0;
            try
            {
                tag = FabricUnits::ParseUint(cell[COL_TAG]);
            }
            catch (const std::invalid_argument&)
            {
                Fail(where,
                     COL_TAG,
                     "not a tag (an integer 0 to 4294967295): '" + cell[COL_TAG] + "'");
            }
            if (tag > std::numeric_limits<uint32_t>::max())
            {
                Fail(where, COL_TAG, "tag " + cell[COL_TAG] + " is above 4294967295");
            }
            r.tag = static_cast<uint32_t>(tag);
        }
        r.op = Operation(cell[COL_OPERATION], where, r.bytes);
        const bool timed = !cell[COL_TIME].empty();
        const bool after = !cell[COL_AFTER].empty();
        if (timed && after)
        {
            Fail(where, COL_AFTER, "give either time or after, not both");
        }
        if (!timed && !after)
        {
            Fail(where, COL_TIME, "missing value: a row has a time or an after");
        }
        if (timed)
        {
            r.timePs = Time(cell[COL_TIME], where, COL_TIME);
        }
        if (!cell[COL_DELAY].empty())
        {
            if (!after)
            {
                Fail(where,
                     COL_DELAY,
                     "a delay is for a row issued after others (give after, or add the delay to "
                     "the time)");
            }
            r.delayPs = Time(cell[COL_DELAY], where, COL_DELAY);
        }
        const uint32_t index = static_cast<uint32_t>(m_trace.m_rows.size());
        if (!cell[COL_ID].empty())
        {
            const auto [it, fresh] = m_ids.emplace(cell[COL_ID], index);
            if (!fresh)
            {
                Fail(where,
                     COL_ID,
                     "duplicate id '" + cell[COL_ID] + "' (also " +
                         Place(m_trace.m_rows[it->second].line) + ")");
            }
        }
        if (after)
        {
            m_afterText.emplace_back(index, cell[COL_AFTER]);
        }
        m_trace.m_rows.push_back(r);
    }

    /// \return the trace, its `after` references resolved and checked for cycles
    MessageTrace Finish()
    {
        auto& rows = m_trace.m_rows;
        // Resolve the references (rows with an after, in order).
        std::vector<std::vector<uint32_t>> refs(m_afterText.size());
        std::vector<uint32_t> slot(rows.size(), std::numeric_limits<uint32_t>::max());
        for (std::size_t k = 0; k < m_afterText.size(); ++k)
        {
            const auto& [i, text] = m_afterText[k];
            slot[i] = static_cast<uint32_t>(k);
            std::size_t pos = 0;
            while (pos <= text.size())
            {
                const auto semi = std::min(text.find(';', pos), text.size());
                const std::string id = Trim(text.substr(pos, semi - pos));
                pos = semi + 1;
                if (id.empty())
                {
                    Fail(rows[i].line,
                         COL_AFTER,
                         "an empty id in '" + text + "' (ids are separated by ';')");
                }
                const auto it = m_ids.find(id);
                if (it == m_ids.end())
                {
                    Fail(rows[i].line, COL_AFTER, "unknown id '" + id + "'");
                }
                if (std::find(refs[k].begin(), refs[k].end(), it->second) != refs[k].end())
                {
                    Fail(rows[i].line, COL_AFTER, "id '" + id + "' given twice");
                }
                refs[k].push_back(it->second);
            }
        }
        for (uint32_t i = 0; i < rows.size(); ++i)
        {
            if (slot[i] != std::numeric_limits<uint32_t>::max())
            {
                for (uint32_t j : refs[slot[i]])
                {
                    m_trace.m_after.push_back(j);
                }
            }
            rows[i].afterEnd = static_cast<uint32_t>(m_trace.m_after.size());
        }
        CheckCycles();
        return std::move(m_trace);
    }

  private:
    /// \param where a line or row \return "line N" or "row N"
    std::string Place(uint32_t where) const
    {
        return (m_hdf5 ? "row " : "line ") + std::to_string(where);
    }

    /// Kahn's algorithm over the after references; a row left over lies on or after a cycle.
    void CheckCycles() const
    {
        const auto& rows = m_trace.m_rows;
        const auto& after = m_trace.m_after;
        const uint32_t n = static_cast<uint32_t>(rows.size());
        std::vector<uint32_t> waiting(n);
        std::vector<uint32_t> count(n + 1, 0); // dependents, CSR
        for (uint32_t i = 0; i < n; ++i)
        {
            waiting[i] = rows[i].afterEnd - m_trace.AfterBegin(i);
            for (uint32_t k = m_trace.AfterBegin(i); k < rows[i].afterEnd; ++k)
            {
                ++count[after[k] + 1];
            }
        }
        for (uint32_t i = 0; i < n; ++i)
        {
            count[i + 1] += count[i];
        }
        std::vector<uint32_t> dependents(after.size());
        std::vector<uint32_t> fill(count.begin(), count.end() - 1);
        for (uint32_t i = 0; i < n; ++i)
        {
            for (uint32_t k = m_trace.AfterBegin(i); k < rows[i].afterEnd; ++k)
            {
                dependents[fill[after[k]]++] = i;
            }
        }
        std::vector<uint32_t> ready;
        for (uint32_t i = 0; i < n; ++i)
        {
            if (waiting[i] == 0)
            {
                ready.push_back(i);
            }
        }
        uint32_t done = 0;
        while (!ready.empty())
        {
            const uint32_t i = ready.back();
            ready.pop_back();
            ++done;
            for (uint32_t k = count[i]; k < count[i + 1]; ++k)
            {
                if (--waiting[dependents[k]] == 0)
                {
                    ready.push_back(dependents[k]);
                }
            }
        }
        if (done == n)
        {
            return;
        }
        // Walk back from the first row left over along references to rows left over: each such
        // row waits on one, so the walk closes a cycle.
        std::vector<std::string> names(n);
        for (const auto& [id, i] : m_ids)
        {
            names[i] = id;
        }
        uint32_t at = 0;
        while (waiting[at] == 0)
        {
            ++at;
        }
        std::vector<uint32_t> path;
        std::vector<uint32_t> seenAt(n, std::numeric_limits<uint32_t>::max());
        while (seenAt[at] == std::numeric_limits<uint32_t>::max())
        {
            seenAt[at] = static_cast<uint32_t>(path.size());
            path.push_back(at);
            for (uint32_t k = m_trace.AfterBegin(at); k < rows[at].afterEnd; ++k)
            {
                if (waiting[after[k]] > 0)
                {
                    at = after[k];
                    break;
                }
            }
        }
        std::string cycle;
        for (std::size_t k = seenAt[at]; k < path.size(); ++k)
        {
            cycle += "'" + names[path[k]] + "' after ";
        }
        cycle += "'" + names[at] + "'";
        Fail(rows[at].line, COL_AFTER, "a cycle of after references: " + cycle);
    }

    /**
     * \param text a cell \param where its line or row \param column its column
     * \return the rank it names
     */
    uint32_t Rank(const std::string& text, uint32_t where, int column) const
    {
        if (text.empty())
        {
            Fail(where, column, "missing value");
        }
        uint64_t v = 0;
        try
        {
            v = FabricUnits::ParseUint(text);
        }
        catch (const std::invalid_argument&)
        {
            Fail(where, column, "not a rank (an integer from 0): '" + text + "'");
        }
        if (v >= m_limits.ranks)
        {
            Fail(where,
                 column,
                 "rank " + text + " is outside the pod (ranks 0 to " +
                     std::to_string(m_limits.ranks - 1) + ")");
        }
        return static_cast<uint32_t>(v);
    }

    /**
     * \param text a time or delay cell \param where its line or row \param column its column
     * \return its picoseconds
     */
    int64_t Time(const std::string& text, uint32_t where, int column) const
    {
        int64_t ps = 0;
        try
        {
            if (IsDigits(text))
            {
                const uint64_t v = FabricUnits::ParseUint(text); // plain: picoseconds
                if (v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
                {
                    throw std::invalid_argument("too large");
                }
                ps = static_cast<int64_t>(v);
            }
            else
            {
                ps = FabricUnits::ParseTimePs(text);
            }
        }
        catch (const std::invalid_argument& e)
        {
            Fail(where,
                 column,
                 "not a time: '" + text + "' (a number with a unit, e.g. 1.5us, or plain " +
                     "picoseconds; " + e.what() + ")");
        }
        if (ps < 0)
        {
            Fail(where, column, "must be at least 0 (got " + text + ")");
        }
        return ps;
    }

    /**
     * \param text an operation cell \param where its line or row \param bytes the row's bytes
     * \return its FabricKind::Operation
     */
    uint8_t Operation(const std::string& text, uint32_t where, uint64_t bytes) const
    {
        uint8_t op = 1;
        if (text.empty() || text == "write")
        {
            op = 1;
        }
        else if (text == "read")
        {
            op = 2;
        }
        else if (text == "atomic")
        {
            op = 4;
        }
        else
        {
            Fail(where, COL_OPERATION, "unknown operation '" + text + "' (write, read or atomic)");
        }
        if (!(m_limits.operations & op))
        {
            Fail(where,
                 COL_OPERATION,
                 op == 2
                     ? "reads need a fabric with a read operation (" + m_limits.readFabrics +
                           "); the " + m_limits.fabric + " fabric only writes"
                     : "atomics need a fabric with atomic operations (" + m_limits.atomicFabrics +
                           "); the " + m_limits.fabric + " fabric has none");
        }
        if (op != 1 && m_limits.checkOperation)
        {
            const std::string why = m_limits.checkOperation(op, bytes);
            if (!why.empty())
            {
                Fail(where, COL_BYTES, why);
            }
        }
        return op;
    }

    std::string m_file;                                        //!< the file
    bool m_hdf5;                                               //!< rows, not lines
    Limits m_limits;                                           //!< the checks
    std::vector<int> m_map;                                    //!< file column -> Column
    MessageTrace m_trace;                                      //!< the rows so far
    std::unordered_map<std::string, uint32_t> m_ids;           //!< id -> row
    std::vector<std::pair<uint32_t, std::string>> m_afterText; //!< row -> its after cell
};

const std::vector<std::string>&
MessageTrace::GetColumns()
{
    static const std::vector<std::string> columns =
        {"id", "time", "after", "delay", "src", "dst", "bytes", "tag", "operation"};
    return columns;
}

uint64_t
MessageTrace::GetTotalBytes() const
{
    uint64_t total = 0;
    for (const auto& r : m_rows)
    {
        total += r.bytes;
    }
    return total;
}

void
MessageTrace::Scale(double factor)
{
    for (auto& r : m_rows)
    {
        if (r.timePs >= 0)
        {
            r.timePs = std::llround(static_cast<double>(r.timePs) * factor);
        }
        r.delayPs = std::llround(static_cast<double>(r.delayPs) * factor);
    }
}

MessageTrace
MessageTrace::ParseCsv(const std::string& file, const std::string& text, const Limits& limits)
{
    std::istringstream in(text);
    return ParseCsv(file, in, limits);
}

MessageTrace
MessageTrace::ParseCsv(const std::string& file, std::istream& in, const Limits& limits)
{
    NS_LOG_FUNCTION(file);
    Builder b(file, false, limits);
    std::string line;
    uint32_t lineNo = 0;
    bool header = false;
    std::vector<std::string> fields;
    std::vector<std::string> cells(N_COLUMNS);
    auto split = [&fields](const std::string& l) {
        fields.clear();
        std::size_t pos = 0;
        while (true)
        {
            const auto comma = l.find(',', pos);
            fields.push_back(Trim(l.substr(pos, comma == std::string::npos ? comma : comma - pos)));
            if (comma == std::string::npos)
            {
                break;
            }
            pos = comma + 1;
        }
    };
    while (std::getline(in, line))
    {
        ++lineNo;
        if (lineNo == 1 && line.compare(0, 3, "\xEF\xBB\xBF") == 0)
        {
            line.erase(0, 3); // a UTF-8 byte order mark (spreadsheets write one)
        }
        const std::string t = Trim(line);
        if (t.empty() || t[0] == '#')
        {
            if (!header && lineNo == 1 && t.empty())
            {
                throw FabricInputError(file,
                                       1,
                                       "",
                                       "the first line is the header, naming the columns");
            }
            continue;
        }
        split(t);
        if (!header)
        {
            if (lineNo != 1)
            {
                throw FabricInputError(file,
                                       1,
                                       "",
                                       "the first line is the header, naming the columns");
            }
            b.SetColumns(fields);
            header = true;
            continue;
        }
        const auto& map = b.GetMap();
        if (fields.size() != map.size())
        {
            throw FabricInputError(file,
                                   lineNo,
                                   "",
                                   "has " + std::to_string(fields.size()) + " fields, the header " +
                                       std::to_string(map.size()));
        }
        std::fill(cells.begin(), cells.end(), std::string());
        for (std::size_t k = 0; k < map.size(); ++k)
        {
            cells[map[k]] = fields[k];
        }
        b.AddRow(cells, lineNo);
    }
    if (!header)
    {
        throw FabricInputError(file, 0, "", "empty trace (the first line is the header)");
    }
    return b.Finish();
}

namespace
{

/// One dataset of an HDF5 trace, read whole.
struct Hdf5Column
{
    bool text{false};              //!< a string dataset
    bool isUnsigned{false};        //!< an unsigned integer dataset
    std::vector<int64_t> ints;     //!< signed integers
    std::vector<uint64_t> uints;   //!< unsigned integers
    std::vector<std::string> strs; //!< strings
};

/// Collects the names of a group's links.
herr_t
CollectName(hid_t /* group */, const char* name, const H5L_info_t* /* info */, void* data)
{
    static_cast<std::vector<std::string>*>(data)->push_back(name);
    return 0;
}

} // namespace

MessageTrace
MessageTrace::Load(const std::string& file, const std::string& format, const Limits& limits)
{
    NS_LOG_FUNCTION(file << format);
    std::string f = format;
    if (f.empty())
    {
        const auto dot = file.rfind('.');
        const std::string ext = dot == std::string::npos ? "" : file.substr(dot);
        f = ext == ".h5" || ext == ".hdf5" ? "hdf5" : "csv";
    }
    if (f == "csv")
    {
        std::ifstream in(file, std::ios::binary);
        if (!in)
        {
            throw FabricInputError(file, 0, "", "cannot read the trace file (no such file)");
        }
        return ParseCsv(file, in, limits); // line by line: the text is not held whole
    }
    Builder b(file, true, limits);
    H5E_auto2_t handler = nullptr;
    void* handlerData = nullptr;
    H5Eget_auto2(H5E_DEFAULT, &handler, &handlerData);
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); // errors are reported here, not printed

    struct Restore
    {
        H5E_auto2_t h;
        void* d;

        ~Restore()
        {
            H5Eset_auto2(H5E_DEFAULT, h, d);
        }
    } restore{handler, handlerData};

    const hid_t h5 = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    if (h5 < 0)
    {
        throw FabricInputError(file, 0, "", "cannot read the trace file as HDF5");
    }
    std::vector<std::string> names;
    H5Literate(h5, H5_INDEX_NAME, H5_ITER_NATIVE, nullptr, CollectName, &names);
    std::vector<Hdf5Column> columns(names.size());
    hsize_t rows = 0;
    std::string firstName;
    try
    {
        b.SetColumns(names);
        for (std::size_t c = 0; c < names.size(); ++c)
        {
            const std::string& name = names[c];
            const hid_t ds = H5Dopen2(h5, name.c_str(), H5P_DEFAULT);
            if (ds < 0)
            {
                b.FailColumn(name, "not a dataset");
            }
            const hid_t space = H5Dget_space(ds);
            const hid_t type = H5Dget_type(ds);
            hsize_t n = 0;
            const int rank = H5Sget_simple_extent_ndims(space);
            if (rank == 1)
            {
                H5Sget_simple_extent_dims(space, &n, nullptr);
            }
            std::string problem;
            if (rank != 1)
            {
                problem = "a column is a 1-D dataset (this one has " + std::to_string(rank) +
                          " dimensions)";
            }
            else if (c > 0 && n != rows)
            {
                problem =
                    "has " + std::to_string(n) + " rows, " + firstName + " " + std::to_string(rows);
            }
            const H5T_class_t cls = H5Tget_class(type);
            Hdf5Column& col = columns[c];
            if (problem.empty() && cls == H5T_INTEGER)
            {
                col.isUnsigned = H5Tget_sign(type) == H5T_SGN_NONE;
                if (col.isUnsigned)
                {
                    col.uints.resize(n);
                    H5Dread(ds, H5T_NATIVE_UINT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, col.uints.data());
                }
                else
                {
                    col.ints.resize(n);
                    H5Dread(ds, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, col.ints.data());
                }
            }
            else if (problem.empty() && cls == H5T_STRING)
            {
                col.text = true;
                col.strs.resize(n);
                if (H5Tis_variable_str(type) > 0)
                {
                    const hid_t mem = H5Tcopy(H5T_C_S1);
                    H5Tset_size(mem, H5T_VARIABLE);
                    H5Tset_cset(mem, H5Tget_cset(type));
                    std::vector<char*> p(n, nullptr);
                    if (n > 0 && H5Dread(ds, mem, H5S_ALL, H5S_ALL, H5P_DEFAULT, p.data()) >= 0)
                    {
                        for (hsize_t i = 0; i < n; ++i)
                        {
                            col.strs[i] = p[i] ? p[i] : "";
                        }
                        H5Dvlen_reclaim(mem, space, H5P_DEFAULT, p.data());
                    }
                    H5Tclose(mem);
                }
                else
                {
                    const std::size_t size = H5Tget_size(type);
                    const hid_t mem = H5Tcopy(H5T_C_S1);
                    H5Tset_size(mem, size);
                    H5Tset_strpad(mem, H5T_STR_NULLPAD); // all `size` characters, no terminator
                    H5Tset_cset(mem, H5Tget_cset(type));
                    std::vector<char> buf(n * size + 1, '\0');
                    if (n > 0)
                    {
                        H5Dread(ds, mem, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf.data());
                    }
                    for (hsize_t i = 0; i < n; ++i)
                    {
                        const char* s = buf.data() + i * size;
                        col.strs[i] = std::string(s, strnlen(s, size));
                    }
                    H5Tclose(mem);
                }
            }
            else if (problem.empty())
            {
                problem = "a column is integers or strings (see the documented dtypes)";
            }
            H5Tclose(type);
            H5Sclose(space);
            H5Dclose(ds);
            if (!problem.empty())
            {
                b.FailColumn(name, problem);
            }
            if (c == 0)
            {
                rows = n;
                firstName = name;
            }
        }
    }
    catch (...)
    {
        H5Fclose(h5);
        throw;
    }
    H5Fclose(h5);
    const auto& map = b.GetMap();
    std::vector<std::string> cells(N_COLUMNS);
    for (hsize_t i = 0; i < rows; ++i)
    {
        std::fill(cells.begin(), cells.end(), std::string());
        for (std::size_t c = 0; c < map.size(); ++c)
        {
            const Hdf5Column& col = columns[c];
            if (col.text)
            {
                cells[map[c]] = Trim(col.strs[i]);
            }
            else if (col.isUnsigned)
            {
                cells[map[c]] = std::to_string(col.uints[i]);
            }
            else if ((map[c] == COL_TIME || map[c] == COL_DELAY || map[c] == COL_AFTER ||
                      map[c] == COL_ID || map[c] == COL_TAG) &&
                     col.ints[i] < 0)
            {
                cells[map[c]] = ""; // negative: not given
            }
            else
            {
                cells[map[c]] = std::to_string(col.ints[i]);
            }
        }
        b.AddRow(cells, static_cast<uint32_t>(i));
    }
    return b.Finish();
}

} // namespace ns3
