/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "results-writer.h"

#include "wall-clock-limit.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <hdf5.h>
#include <map>
#include <stdexcept>
#include <system_error>
#include <unistd.h>
#include <utility>

namespace ns3
{

namespace
{

/**
 * \brief Owns one HDF5 identifier and closes it with the matching H5?close function.
 */
class H5Handle
{
  public:
    /// The function that closes the identifier (H5Fclose, H5Gclose, ...).
    using Closer = herr_t (*)(hid_t);

    H5Handle() = default;

    /**
     * Take ownership of an identifier.
     * \param id the identifier (negative: none)
     * \param closer its close function
     */
    H5Handle(hid_t id, Closer closer)
        : m_id(id),
          m_closer(closer)
    {
    }

    ~H5Handle()
    {
        Close();
    }

    H5Handle(const H5Handle&) = delete;
    H5Handle& operator=(const H5Handle&) = delete;

    /**
     * Move constructor.
     * \param other the handle to take over
     */
    H5Handle(H5Handle&& other) noexcept
        : m_id(std::exchange(other.m_id, H5I_INVALID_HID)),
          m_closer(other.m_closer)
    {
    }

    /**
     * Move assignment.
     * \param other the handle to take over
     * \return this handle
     */
    H5Handle& operator=(H5Handle&& other) noexcept
    {
        if (this != &other)
        {
            Close();
            m_id = std::exchange(other.m_id, H5I_INVALID_HID);
            m_closer = other.m_closer;
        }
        return *this;
    }

    /**
     * Close the identifier now (no-op if already closed).
     * \return the close function's status (0 when nothing was open)
     */
    herr_t Close()
    {
        herr_t status = 0;
        if (m_id >= 0 && m_closer != nullptr)
        {
            status = m_closer(m_id);
        }
        m_id = H5I_INVALID_HID;
        return status;
    }

    /// \return the identifier
    operator hid_t() const
    {
        return m_id;
    }

  private:
    hid_t m_id{H5I_INVALID_HID}; //!< the identifier
    Closer m_closer{nullptr};    //!< its close function
};

/**
 * \brief Turns off HDF5's automatic error printing while alive and restores it afterwards;
 * failures are reported through exceptions instead.
 */
class H5ErrorSilencer
{
  public:
    H5ErrorSilencer()
    {
        H5Eget_auto2(H5E_DEFAULT, &m_func, &m_data);
        H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    }

    ~H5ErrorSilencer()
    {
        H5Eset_auto2(H5E_DEFAULT, m_func, m_data);
    }

    H5ErrorSilencer(const H5ErrorSilencer&) = delete;
    H5ErrorSilencer& operator=(const H5ErrorSilencer&) = delete;

  private:
    H5E_auto2_t m_func{nullptr}; //!< the previous error handler
    void* m_data{nullptr};       //!< its client data
};

/**
 * H5Ewalk2 callback: keeps the description of the innermost error of the stack.
 * \param n position in the stack
 * \param err the error
 * \param data a std::string to fill
 * \return 0 (continue)
 */
herr_t
InnermostError(unsigned /* n */, const H5E_error2_t* err, void* data)
{
    auto* out = static_cast<std::string*>(data);
    if (err != nullptr && err->desc != nullptr)
    {
        *out = err->desc;
    }
    return 0;
}

/// HDF5 memory (native) and file (little-endian) types of a C++ column type.
template <typename T>
struct H5Types;

/// \copydoc H5Types
template <>
struct H5Types<uint8_t>
{
    /// \return the memory type
    static hid_t Mem()
    {
        return H5T_NATIVE_UINT8;
    }

    /// \return the file type
    static hid_t File()
    {
        return H5T_STD_U8LE;
    }
};

/// \copydoc H5Types
template <>
struct H5Types<uint32_t>
{
    /// \return the memory type
    static hid_t Mem()
    {
        return H5T_NATIVE_UINT32;
    }

    /// \return the file type
    static hid_t File()
    {
        return H5T_STD_U32LE;
    }
};

/// \copydoc H5Types
template <>
struct H5Types<uint64_t>
{
    /// \return the memory type
    static hid_t Mem()
    {
        return H5T_NATIVE_UINT64;
    }

    /// \return the file type
    static hid_t File()
    {
        return H5T_STD_U64LE;
    }
};

/// \copydoc H5Types
template <>
struct H5Types<int64_t>
{
    /// \return the memory type
    static hid_t Mem()
    {
        return H5T_NATIVE_INT64;
    }

    /// \return the file type
    static hid_t File()
    {
        return H5T_STD_I64LE;
    }
};

/// \copydoc H5Types
template <>
struct H5Types<double>
{
    /// \return the memory type
    static hid_t Mem()
    {
        return H5T_NATIVE_DOUBLE;
    }

    /// \return the file type
    static hid_t File()
    {
        return H5T_IEEE_F64LE;
    }
};

/**
 * \brief One HDF5 file being written or read: wraps the C API calls so that every failure
 * throws a std::runtime_error naming the file, the operation and HDF5's innermost error.
 */
class H5Io
{
  public:
    /**
     * \param path the file named in error messages
     */
    explicit H5Io(std::string path)
        : m_path(std::move(path))
    {
    }

    /**
     * Throw an error about this file.
     * \param what the operation that failed
     */
    [[noreturn]] void Fail(const std::string& what) const
    {
        std::string detail;
        H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, &InnermostError, &detail);
        H5Eclear2(H5E_DEFAULT);
        std::string msg = m_path + ": " + what;
        if (!detail.empty())
        {
            msg += " (HDF5: " + detail + ")";
        }
        throw std::runtime_error(msg);
    }

    /**
     * Check the status of an HDF5 call.
     * \param status the status (negative: failure)
     * \param what the operation, for the error message
     */
    void Check(herr_t status, const std::string& what) const
    {
        if (status < 0)
        {
            Fail(what);
        }
    }

    /**
     * Wrap a new identifier, throwing if the call that made it failed.
     * \param id the identifier
     * \param closer its close function
     * \param what the operation, for the error message
     * \return the owning handle
     */
    H5Handle Own(hid_t id, H5Handle::Closer closer, const std::string& what) const
    {
        if (id < 0)
        {
            Fail(what);
        }
        return H5Handle(id, closer);
    }

    // ---- types and property lists ------------------------------------------------------

    /// \return a variable-length UTF-8 string type
    H5Handle VarString() const
    {
        H5Handle t = Own(H5Tcopy(H5T_C_S1), &H5Tclose, "H5Tcopy");
        Check(H5Tset_size(t, H5T_VARIABLE), "H5Tset_size");
        Check(H5Tset_cset(t, H5T_CSET_UTF8), "H5Tset_cset");
        return t;
    }

    /**
     * Creation properties of a 1-D table column.
     * \param rows the number of rows
     * \param compress add the shuffle and deflate filters
     * \return the dataset creation property list
     */
    H5Handle ColumnCreation(size_t rows, bool compress) const
    {
        H5Handle dcpl = Own(H5Pcreate(H5P_DATASET_CREATE), &H5Pclose, "H5Pcreate");
        // Chunk dimensions must be at least 1, even for an empty table.
        hsize_t chunk = std::max<hsize_t>(1, std::min<hsize_t>(rows, ResultsWriter::CHUNK_ROWS));
        Check(H5Pset_chunk(dcpl, 1, &chunk), "H5Pset_chunk");
        if (compress && H5Zfilter_avail(H5Z_FILTER_DEFLATE) > 0)
        {
            Check(H5Pset_shuffle(dcpl), "H5Pset_shuffle");
            Check(H5Pset_deflate(dcpl, ResultsWriter::DEFLATE_LEVEL), "H5Pset_deflate");
        }
        // No modification times in the file: the same results give the same bytes.
        Check(H5Pset_obj_track_times(dcpl, false), "H5Pset_obj_track_times");
        return dcpl;
    }

    /// \return group creation properties (no modification times)
    H5Handle GroupCreation() const
    {
        H5Handle gcpl = Own(H5Pcreate(H5P_GROUP_CREATE), &H5Pclose, "H5Pcreate");
        Check(H5Pset_obj_track_times(gcpl, false), "H5Pset_obj_track_times");
        return gcpl;
    }

    /**
     * \param rows the number of rows
     * \return a 1-D dataspace of that many rows with unlimited maximum size
     */
    H5Handle Rows(size_t rows) const
    {
        hsize_t dims = rows;
        hsize_t maxdims = H5S_UNLIMITED;
        return Own(H5Screate_simple(1, &dims, &maxdims), &H5Sclose, "H5Screate_simple");
    }

    // ---- writing ----------------------------------------------------------------------

    /**
     * Create a group.
     * \param parent the parent location
     * \param name the name
     * \return the group
     */
    H5Handle CreateGroup(hid_t parent, const std::string& name) const
    {
        H5Handle gcpl = GroupCreation();
        return Own(H5Gcreate2(parent, name.c_str(), H5P_DEFAULT, gcpl, H5P_DEFAULT),
                   &H5Gclose,
                   "cannot create group " + name);
    }

    /**
     * Write a scalar numeric attribute.
     * \param obj the object
     * \param name the attribute name
     * \param value the value
     */
    template <typename T>
    void WriteAttr(hid_t obj, const std::string& name, T value) const
    {
        H5Handle space = Own(H5Screate(H5S_SCALAR), &H5Sclose, "H5Screate");
        H5Handle attr =
            Own(H5Acreate2(obj, name.c_str(), H5Types<T>::File(), space, H5P_DEFAULT, H5P_DEFAULT),
                &H5Aclose,
                "cannot create attribute " + name);
        Check(H5Awrite(attr, H5Types<T>::Mem(), &value), "cannot write attribute " + name);
    }

    /**
     * Write a scalar string attribute.
     * \param obj the object
     * \param name the attribute name
     * \param value the value
     */
    void WriteAttr(hid_t obj, const std::string& name, const std::string& value) const
    {
        H5Handle type = VarString();
        H5Handle space = Own(H5Screate(H5S_SCALAR), &H5Sclose, "H5Screate");
        H5Handle attr = Own(H5Acreate2(obj, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT),
                            &H5Aclose,
                            "cannot create attribute " + name);
        const char* p = value.c_str();
        Check(H5Awrite(attr, type, &p), "cannot write attribute " + name);
    }

    /**
     * Write a 1-D string array attribute.
     * \param obj the object
     * \param name the attribute name
     * \param values the values
     */
    void WriteAttr(hid_t obj, const std::string& name, const std::vector<std::string>& values) const
    {
        H5Handle type = VarString();
        hsize_t dims = values.size();
        H5Handle space = Own(H5Screate_simple(1, &dims, nullptr), &H5Sclose, "H5Screate_simple");
        H5Handle attr = Own(H5Acreate2(obj, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT),
                            &H5Aclose,
                            "cannot create attribute " + name);
        if (!values.empty())
        {
            std::vector<const char*> ptrs;
            ptrs.reserve(values.size());
            for (const auto& v : values)
            {
                ptrs.push_back(v.c_str());
            }
            Check(H5Awrite(attr, type, ptrs.data()), "cannot write attribute " + name);
        }
    }

    /**
     * Write a scalar string dataset.
     * \param parent the parent location
     * \param name the dataset name
     * \param value the text
     */
    void WriteText(hid_t parent, const std::string& name, const std::string& value) const
    {
        H5Handle type = VarString();
        H5Handle space = Own(H5Screate(H5S_SCALAR), &H5Sclose, "H5Screate");
        H5Handle dcpl = Own(H5Pcreate(H5P_DATASET_CREATE), &H5Pclose, "H5Pcreate");
        Check(H5Pset_obj_track_times(dcpl, false), "H5Pset_obj_track_times");
        H5Handle ds =
            Own(H5Dcreate2(parent, name.c_str(), type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT),
                &H5Dclose,
                "cannot create dataset " + name);
        const char* p = value.c_str();
        Check(H5Dwrite(ds, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, &p),
              "cannot write dataset " + name);
    }

    /**
     * Write a numeric column: chunked, shuffled and deflated.
     * \param group the group
     * \param name the dataset name
     * \param values the column
     */
    template <typename T>
    void WriteColumn(hid_t group, const std::string& name, const std::vector<T>& values) const
    {
        H5Handle space = Rows(values.size());
        H5Handle dcpl = ColumnCreation(values.size(), true);
        H5Handle ds = Own(H5Dcreate2(group,
                                     name.c_str(),
                                     H5Types<T>::File(),
                                     space,
                                     H5P_DEFAULT,
                                     dcpl,
                                     H5P_DEFAULT),
                          &H5Dclose,
                          "cannot create dataset " + name);
        if (!values.empty())
        {
            Check(H5Dwrite(ds, H5Types<T>::Mem(), H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()),
                  "cannot write dataset " + name);
        }
    }

    /**
     * Write a string column (variable-length strings, chunked, not compressed).
     * \param group the group
     * \param name the dataset name
     * \param values the column
     */
    void WriteColumn(hid_t group,
                     const std::string& name,
                     const std::vector<std::string>& values) const
    {
        H5Handle type = VarString();
        H5Handle space = Rows(values.size());
        H5Handle dcpl = ColumnCreation(values.size(), false);
        H5Handle ds =
            Own(H5Dcreate2(group, name.c_str(), type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT),
                &H5Dclose,
                "cannot create dataset " + name);
        if (!values.empty())
        {
            std::vector<const char*> ptrs;
            ptrs.reserve(values.size());
            for (const auto& v : values)
            {
                ptrs.push_back(v.c_str());
            }
            Check(H5Dwrite(ds, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, ptrs.data()),
                  "cannot write dataset " + name);
        }
    }

    // ---- reading ----------------------------------------------------------------------

    /**
     * Open a group.
     * \param parent the parent location
     * \param name the name
     * \return the group
     */
    H5Handle OpenGroup(hid_t parent, const std::string& name) const
    {
        return Own(H5Gopen2(parent, name.c_str(), H5P_DEFAULT), &H5Gclose, "no group " + name);
    }

    /**
     * Names of the members of a group, in name order.
     * \param group the group
     * \return the names
     */
    std::vector<std::string> Members(hid_t group) const
    {
        H5G_info_t info;
        Check(H5Gget_info(group, &info), "H5Gget_info");
        std::vector<std::string> names;
        for (hsize_t i = 0; i < info.nlinks; ++i)
        {
            ssize_t len = H5Lget_name_by_idx(group,
                                             ".",
                                             H5_INDEX_NAME,
                                             H5_ITER_INC,
                                             i,
                                             nullptr,
                                             0,
                                             H5P_DEFAULT);
            if (len < 0)
            {
                Fail("H5Lget_name_by_idx");
            }
            std::string name(static_cast<size_t>(len) + 1, '\0');
            if (H5Lget_name_by_idx(group,
                                   ".",
                                   H5_INDEX_NAME,
                                   H5_ITER_INC,
                                   i,
                                   name.data(),
                                   name.size(),
                                   H5P_DEFAULT) < 0)
            {
                Fail("H5Lget_name_by_idx");
            }
            name.resize(static_cast<size_t>(len));
            names.push_back(std::move(name));
        }
        return names;
    }

    /**
     * Names of the attributes of an object, in name order.
     * \param obj the object
     * \return the names
     */
    std::vector<std::string> AttributeNames(hid_t obj) const
    {
        std::vector<std::string> names;
        auto collect = [](hid_t, const char* name, const H5A_info_t*, void* data) -> herr_t {
            static_cast<std::vector<std::string>*>(data)->emplace_back(name);
            return 0;
        };
        Check(H5Aiterate2(obj, H5_INDEX_NAME, H5_ITER_INC, nullptr, collect, &names),
              "H5Aiterate2");
        return names;
    }

    /**
     * Read a scalar numeric attribute (converted to T).
     * \param obj the object
     * \param name the attribute name
     * \return the value
     */
    template <typename T>
    T ReadAttr(hid_t obj, const std::string& name) const
    {
        H5Handle attr =
            Own(H5Aopen(obj, name.c_str(), H5P_DEFAULT), &H5Aclose, "no attribute " + name);
        H5Handle space = Own(H5Aget_space(attr), &H5Sclose, "H5Aget_space");
        if (H5Sget_simple_extent_npoints(space) != 1)
        {
            Fail("attribute " + name + " is not a scalar");
        }
        T value{};
        Check(H5Aread(attr, H5Types<T>::Mem(), &value), "cannot read attribute " + name);
        return value;
    }

    /**
     * Read a string attribute (scalar or 1-D; variable or fixed length).
     * \param obj the object
     * \param name the attribute name
     * \return the strings
     */
    std::vector<std::string> ReadStringsAttr(hid_t obj, const std::string& name) const
    {
        H5Handle attr =
            Own(H5Aopen(obj, name.c_str(), H5P_DEFAULT), &H5Aclose, "no attribute " + name);
        H5Handle ftype = Own(H5Aget_type(attr), &H5Tclose, "H5Aget_type");
        H5Handle space = Own(H5Aget_space(attr), &H5Sclose, "H5Aget_space");
        return ReadStrings(ftype, space, "attribute " + name, [&attr](hid_t mtype, void* buf) {
            return H5Aread(attr, mtype, buf);
        });
    }

    /**
     * Read a scalar string attribute.
     * \param obj the object
     * \param name the attribute name
     * \return the string
     */
    std::string ReadStringAttr(hid_t obj, const std::string& name) const
    {
        auto v = ReadStringsAttr(obj, name);
        if (v.size() != 1)
        {
            Fail("attribute " + name + " is not a single string");
        }
        return v.front();
    }

    /**
     * Read a string dataset (scalar or 1-D; variable or fixed length).
     * \param parent the parent location
     * \param name the dataset name
     * \return the strings
     */
    std::vector<std::string> ReadStringsDataset(hid_t parent, const std::string& name) const
    {
        H5Handle ds =
            Own(H5Dopen2(parent, name.c_str(), H5P_DEFAULT), &H5Dclose, "no dataset " + name);
        H5Handle ftype = Own(H5Dget_type(ds), &H5Tclose, "H5Dget_type");
        H5Handle space = Own(H5Dget_space(ds), &H5Sclose, "H5Dget_space");
        return ReadStrings(ftype, space, "dataset " + name, [&ds](hid_t mtype, void* buf) {
            return H5Dread(ds, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf);
        });
    }

    /**
     * Read a 1-D numeric dataset (converted to T).
     * \param group the group
     * \param name the dataset name
     * \return the column
     */
    template <typename T>
    std::vector<T> ReadColumn(hid_t group, const std::string& name) const
    {
        H5Handle ds =
            Own(H5Dopen2(group, name.c_str(), H5P_DEFAULT), &H5Dclose, "no dataset " + name);
        H5Handle space = Own(H5Dget_space(ds), &H5Sclose, "H5Dget_space");
        if (H5Sget_simple_extent_ndims(space) != 1)
        {
            Fail("dataset " + name + " is not 1-D");
        }
        hsize_t rows = 0;
        H5Sget_simple_extent_dims(space, &rows, nullptr);
        std::vector<T> values(rows);
        if (rows > 0)
        {
            Check(H5Dread(ds, H5Types<T>::Mem(), H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()),
                  "cannot read dataset " + name);
        }
        return values;
    }

  private:
    /**
     * Read strings from an attribute or dataset.
     * \param ftype the stored type
     * \param space the dataspace
     * \param what the object, for error messages
     * \param read reads the whole object with a given memory type into a buffer
     * \return the strings
     */
    template <typename ReadFn>
    std::vector<std::string> ReadStrings(hid_t ftype,
                                         hid_t space,
                                         const std::string& what,
                                         ReadFn read) const
    {
        if (H5Tget_class(ftype) != H5T_STRING)
        {
            Fail(what + " is not a string");
        }
        hssize_t n = H5Sget_simple_extent_npoints(space);
        if (n < 0)
        {
            Fail("H5Sget_simple_extent_npoints");
        }
        std::vector<std::string> out;
        if (n == 0)
        {
            return out;
        }
        out.reserve(static_cast<size_t>(n));
        htri_t isVar = H5Tis_variable_str(ftype);
        if (isVar < 0)
        {
            Fail("H5Tis_variable_str");
        }
        if (isVar > 0)
        {
            H5Handle mtype = VarString();
            std::vector<char*> ptrs(static_cast<size_t>(n), nullptr);
            Check(read(mtype, ptrs.data()), "cannot read " + what);
            for (char* p : ptrs)
            {
                out.emplace_back(p != nullptr ? p : "");
            }
#if H5_VERSION_GE(1, 12, 0)
            H5Treclaim(mtype, space, H5P_DEFAULT, ptrs.data());
#else
            H5Dvlen_reclaim(mtype, space, H5P_DEFAULT, ptrs.data());
#endif
        }
        else
        {
            size_t width = H5Tget_size(ftype);
            H5Handle mtype = Own(H5Tcopy(H5T_C_S1), &H5Tclose, "H5Tcopy");
            Check(H5Tset_size(mtype, width), "H5Tset_size");
            std::vector<char> buf(width * static_cast<size_t>(n));
            Check(read(mtype, buf.data()), "cannot read " + what);
            for (hssize_t i = 0; i < n; ++i)
            {
                const char* p = buf.data() + static_cast<size_t>(i) * width;
                out.emplace_back(p, strnlen(p, width));
            }
        }
        return out;
    }

    std::string m_path; //!< the file, for error messages
};

/**
 * HDF5 file-access properties: file locking is ignored where the file system lacks it.
 * \param io the file
 * \return the file access property list
 */
H5Handle
FileAccess(const H5Io& io)
{
    H5Handle fapl = io.Own(H5Pcreate(H5P_FILE_ACCESS), &H5Pclose, "H5Pcreate");
#if H5_VERSION_GE(1, 12, 1) || (H5_VERS_MAJOR == 1 && H5_VERS_MINOR == 10 && H5_VERS_RELEASE >= 7)
    io.Check(H5Pset_file_locking(fapl, true, true), "H5Pset_file_locking");
#endif
    return fapl;
}

/**
 * Throw if a table's columns do not all have the expected number of rows.
 * \param path the file, for the message
 * \param table the table name
 * \param column the column name
 * \param rows the column's rows
 * \param expected the table's rows
 */
void
CheckRows(const std::string& path,
          const std::string& table,
          const std::string& column,
          size_t rows,
          size_t expected)
{
    if (rows != expected)
    {
        throw std::runtime_error(path + ": " + table + "/" + column + " has " +
                                 std::to_string(rows) + " rows, expected " +
                                 std::to_string(expected));
    }
}

/**
 * Check that every column of both tables has the same length as the table's first column.
 * \param path the file, for the message
 * \param r the results
 */
void
CheckTables(const std::string& path, const RunResults& r)
{
    const auto& m = r.messages;
    size_t n = m.src.size();
    CheckRows(path, "messages", "dst", m.dst.size(), n);
    CheckRows(path, "messages", "bytes", m.bytes.size(), n);
    CheckRows(path, "messages", "class", m.tclass.size(), n);
    CheckRows(path, "messages", "workload", m.workload.size(), n);
    CheckRows(path, "messages", "post_ps", m.postPs.size(), n);
    CheckRows(path, "messages", "deliver_ps", m.deliverPs.size(), n);
    CheckRows(path, "messages", "complete_ps", m.completePs.size(), n);

    const auto& l = r.links;
    size_t k = l.name.size();
    CheckRows(path, "links", "kind", l.kind.size(), k);
    CheckRows(path, "links", "plane", l.plane.size(), k);
    CheckRows(path, "links", "tx_bytes", l.txBytes.size(), k);
    CheckRows(path, "links", "tx_wire_bytes", l.txWireBytes.size(), k);
    CheckRows(path, "links", "tx_packets", l.txPackets.size(), k);
    CheckRows(path, "links", "busy_ps", l.busyPs.size(), k);
    CheckRows(path, "links", "rate_bps", l.rateBps.size(), k);
    CheckRows(path, "links", "pause_ps", l.pausePs.size(), k);
    CheckRows(path, "links", "stall_ps", l.stallPs.size(), k);
    CheckRows(path, "links", "control_packets", l.controlPackets.size(), k);
    CheckRows(path, "links", "replays", l.replays.size(), k);
    CheckRows(path, "links", "replayed_packets", l.replayedPackets.size(), k);
    CheckRows(path, "links", "rx_discarded", l.rxDiscarded.size(), k);
    for (const auto& [reason, col] : l.dropPackets)
    {
        CheckRows(path, "links", "drop_packets/" + reason, col.size(), k);
    }
    for (const auto& [reason, col] : l.dropBytes)
    {
        CheckRows(path, "links", "drop_bytes/" + reason, col.size(), k);
    }

    const auto& ts = r.bufferSeries;
    const size_t j = ts.sw.size();
    CheckRows(path, "timeseries/switch_buffer", "time_ps", ts.timePs.size(), j);
    CheckRows(path, "timeseries/switch_buffer", "max_bytes", ts.maxBytes.size(), j);
    CheckRows(path, "timeseries/switch_buffer", "end_bytes", ts.endBytes.size(), j);
}

/**
 * Lower edge of bin k of the message latency histograms: 10^(k / B) ps, with B
 * ResultsWriter::LATENCY_BINS_PER_DECADE. utils/rails.py computes the same edges (the same
 * libm pow of the same correctly rounded quotient), so a merged split run's histograms equal
 * a monolithic run's.
 * \param k the bin
 * \return the edge in picoseconds
 */
double
LatencyBinEdge(int64_t k)
{
    return std::pow(10.0, static_cast<double>(k) / ResultsWriter::LATENCY_BINS_PER_DECADE);
}

/**
 * The bin of a latency: the largest k with LatencyBinEdge(k) <= ps. The logarithm gives a
 * first guess; the comparisons with the edges themselves decide, so a latency equal to an
 * edge is counted in the bin that starts there whatever the rounding of log10.
 * \param ps the latency in picoseconds (at least 1)
 * \return the bin
 */
int64_t
LatencyBin(int64_t ps)
{
    const auto x = static_cast<double>(ps);
    auto k =
        static_cast<int64_t>(std::floor(std::log10(x) * ResultsWriter::LATENCY_BINS_PER_DECADE));
    while (LatencyBinEdge(k + 1) <= x)
    {
        ++k;
    }
    while (LatencyBinEdge(k) > x)
    {
        --k;
    }
    return k;
}

/**
 * Write /histograms/message_latency: per workload, the latency (deliver_ps - post_ps) of the
 * delivered rows of the message table (deliver_ps >= 0; never delivered and not-in-rails rows
 * are left out) counted in log-spaced bins, bin k holding [10^(k/B), 10^((k+1)/B)) ps. Each
 * workload with a delivered row has one row per bin from the bin of its smallest latency to
 * that of its largest, empty bins included, so its counts sum to its delivered rows; a latency
 * of 0 ps (a message delivered at its post time) counts in the first bin, whose lower_ps is
 * then 0. The histograms are computed from the table as written: when the output budget keeps
 * one message row in k (/summary messages_sampled_every), they count the rows kept.
 * \param io the file
 * \param file the file's root group
 * \param r the results
 */
void
WriteLatencyHistograms(const H5Io& io, hid_t file, const RunResults& r)
{
    const auto& m = r.messages;
    // Per workload, the latencies' bins (bin -> count, ordered) and the count of 0 ps.
    size_t workloads = r.workloadNames.size();
    for (uint32_t w : m.workload)
    {
        workloads = std::max<size_t>(workloads, size_t{w} + 1);
    }
    std::vector<std::map<int64_t, uint64_t>> bins(workloads);
    std::vector<uint64_t> zeros(workloads, 0);
    for (size_t i = 0; i < m.deliverPs.size(); ++i)
    {
        if (m.deliverPs[i] < 0)
        {
            continue;
        }
        const int64_t latency = m.deliverPs[i] - m.postPs[i];
        if (latency < 1)
        {
            ++zeros[m.workload[i]];
            continue;
        }
        ++bins[m.workload[i]][LatencyBin(latency)];
    }

    std::vector<uint32_t> workload;
    std::vector<int64_t> bin;
    std::vector<double> lowerPs;
    std::vector<double> upperPs;
    std::vector<uint64_t> count;
    for (size_t w = 0; w < workloads; ++w)
    {
        auto& b = bins[w];
        if (zeros[w] > 0)
        {
            // The zero latencies join the lowest bin (bin 0, [1, 1.26) ps, if nothing else).
            b[b.empty() ? 0 : b.begin()->first] += zeros[w];
        }
        if (b.empty())
        {
            continue;
        }
        const int64_t lo = b.begin()->first;
        const int64_t hi = b.rbegin()->first;
        for (int64_t k = lo; k <= hi; ++k)
        {
            auto it = b.find(k);
            workload.push_back(static_cast<uint32_t>(w));
            bin.push_back(k);
            lowerPs.push_back(k == lo && zeros[w] > 0 ? 0.0 : LatencyBinEdge(k));
            upperPs.push_back(LatencyBinEdge(k + 1));
            count.push_back(it == b.end() ? 0 : it->second);
        }
    }

    H5Handle g = io.CreateGroup(file, "histograms");
    H5Handle h = io.CreateGroup(g, "message_latency");
    io.WriteAttr<uint32_t>(h, "bins_per_decade", ResultsWriter::LATENCY_BINS_PER_DECADE);
    io.WriteColumn(h, "workload", workload);
    io.WriteColumn(h, "bin", bin);
    io.WriteColumn(h, "lower_ps", lowerPs);
    io.WriteColumn(h, "upper_ps", upperPs);
    io.WriteColumn(h, "count", count);
}

/**
 * Write the whole file (everything but the final rename).
 * \param io the file (named by its temporary path)
 * \param tmp the temporary path
 * \param r the results
 */
void
WriteFile(const H5Io& io, const std::string& tmp, const RunResults& r)
{
    H5Handle fapl = FileAccess(io);
    H5Handle file = io.Own(H5Fcreate(tmp.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl),
                           &H5Fclose,
                           "cannot create file");

    io.WriteAttr(file, "podsim_version", std::string(ResultsWriter::PODSIM_VERSION));
    io.WriteAttr<uint32_t>(file, "format_version", ResultsWriter::FORMAT_VERSION);
    io.WriteAttr(file, "scenario_name", r.scenarioName);
    io.WriteAttr(file, "engine", r.engine);
    if (r.watchdog.rfind(WallClockLimit::INTERRUPTED, 0) == 0)
    {
        // An interrupt (SIGINT) stopped the run: what it holds is what was done by then.
        io.WriteAttr<uint32_t>(file, "incomplete", 1);
    }
    if (!r.rails.empty())
    {
        io.WriteAttr(file, "rails", r.rails); // a --rails run: the rails it covers
    }
    io.WriteText(file, "scenario", r.scenarioText);

    {
        const auto& m = r.messages;
        H5Handle g = io.CreateGroup(file, "messages");
        io.WriteAttr(g, "workload_names", r.workloadNames);
        io.WriteColumn(g, "src", m.src);
        io.WriteColumn(g, "dst", m.dst);
        io.WriteColumn(g, "bytes", m.bytes);
        io.WriteColumn(g, "class", m.tclass);
        io.WriteColumn(g, "workload", m.workload);
        io.WriteColumn(g, "post_ps", m.postPs);
        io.WriteColumn(g, "deliver_ps", m.deliverPs);
        io.WriteColumn(g, "complete_ps", m.completePs);
    }
    WriteLatencyHistograms(io, file, r);

    {
        const auto& l = r.links;
        H5Handle g = io.CreateGroup(file, "links");
        io.WriteColumn(g, "name", l.name);
        io.WriteColumn(g, "kind", l.kind);
        io.WriteColumn(g, "plane", l.plane);
        io.WriteColumn(g, "tx_bytes", l.txBytes);
        io.WriteColumn(g, "tx_wire_bytes", l.txWireBytes);
        io.WriteColumn(g, "tx_packets", l.txPackets);
        io.WriteColumn(g, "busy_ps", l.busyPs);
        io.WriteColumn(g, "rate_bps", l.rateBps);
        io.WriteColumn(g, "pause_ps", l.pausePs);
        io.WriteColumn(g, "stall_ps", l.stallPs);
        io.WriteColumn(g, "control_packets", l.controlPackets);
        io.WriteColumn(g, "replays", l.replays);
        io.WriteColumn(g, "replayed_packets", l.replayedPackets);
        io.WriteColumn(g, "rx_discarded", l.rxDiscarded);
        H5Handle dp = io.CreateGroup(g, "drop_packets");
        for (const auto& [reason, col] : l.dropPackets)
        {
            io.WriteColumn(dp, reason, col);
        }
        H5Handle db = io.CreateGroup(g, "drop_bytes");
        for (const auto& [reason, col] : l.dropBytes)
        {
            io.WriteColumn(db, reason, col);
        }
    }

    {
        const auto& c = r.collectives;
        H5Handle g = io.CreateGroup(file, "collectives");
        io.WriteColumn(g, "workload", c.workload);
        io.WriteColumn(g, "name", c.name);
        io.WriteColumn(g, "collective", c.collective);
        io.WriteColumn(g, "algorithm", c.algorithm);
        io.WriteColumn(g, "group", c.group);
        io.WriteColumn(g, "ranks", c.ranks);
        io.WriteColumn(g, "bytes", c.bytes);
        io.WriteColumn(g, "iteration", c.iteration);
        io.WriteColumn(g, "start_ps", c.startPs);
        io.WriteColumn(g, "end_ps", c.endPs);
        io.WriteColumn(g, "algbw_bytes_per_s", c.algbwBytesPerS);
        io.WriteColumn(g, "busbw_bytes_per_s", c.busbwBytesPerS);
        io.WriteColumn(g, "messages", c.messages);
        const auto& st = r.collectiveSteps;
        H5Handle gs = io.CreateGroup(g, "steps");
        io.WriteColumn(gs, "collective", st.collective);
        io.WriteColumn(gs, "step", st.step);
        io.WriteColumn(gs, "start_ps", st.startPs);
        io.WriteColumn(gs, "end_ps", st.endPs);
        io.WriteColumn(gs, "bytes", st.bytes);
    }

    {
        const auto& d = r.dagNodes;
        H5Handle g = io.CreateGroup(file, "dag_nodes");
        io.WriteColumn(g, "workload", d.workload);
        io.WriteColumn(g, "node", d.node);
        io.WriteColumn(g, "kind", d.kind);
        io.WriteColumn(g, "category", d.category);
        io.WriteColumn(g, "iteration", d.iteration);
        io.WriteColumn(g, "accelerator", d.accelerator);
        io.WriteColumn(g, "start_ps", d.startPs);
        io.WriteColumn(g, "end_ps", d.endPs);
    }

    {
        // Switch buffer occupancy over time (format version 3; BufferSampler).
        const auto& ts = r.bufferSeries;
        H5Handle g = io.CreateGroup(file, "timeseries");
        H5Handle b = io.CreateGroup(g, "switch_buffer");
        io.WriteAttr(b, "interval_ps", ts.intervalPs);
        // A dataset, not an attribute: attributes live in the object header (64 KiB at most),
        // which the names of a few thousand switches overflow.
        io.WriteColumn(b, "switch_names", ts.switchNames);
        io.WriteColumn(b, "switch", ts.sw);
        io.WriteColumn(b, "time_ps", ts.timePs);
        io.WriteColumn(b, "max_bytes", ts.maxBytes);
        io.WriteColumn(b, "end_bytes", ts.endBytes);
    }

    {
        H5Handle s = io.CreateGroup(file, "summary");
        io.WriteAttr(s, "scenario_name", r.scenarioName);
        io.WriteAttr(s, "accelerators", r.accelerators);
        io.WriteAttr(s, "planes", r.planes);
        io.WriteAttr(s, "switches", r.switches);
        io.WriteAttr(s, "bytes_sent", r.bytesSent);
        io.WriteAttr(s, "bytes_delivered", r.bytesDelivered);
        io.WriteAttr(s, "bytes_received", r.bytesReceived);
        io.WriteAttr(s, "bytes_dropped", r.bytesDropped);
        io.WriteAttr(s, "peak_switch_buffer_bytes", r.peakSwitchBufferBytes);
        io.WriteAttr(s, "pause_ps", r.pausePs);
        io.WriteAttr(s, "stall_ps", r.stallPs);
        io.WriteAttr(s, "replays", r.replays);
        io.WriteAttr(s, "replayed_packets", r.replayedPackets);
        io.WriteAttr(s, "retransmitted_packets", r.retransmittedPackets);
        io.WriteAttr(s, "bytes_retransmitted", r.bytesRetransmitted);
        io.WriteAttr(s, "bytes_discarded", r.bytesDiscarded);
        io.WriteAttr(s, "go_backs", r.goBacks);
        io.WriteAttr(s, "transport_timeouts", r.transportTimeouts);
        io.WriteAttr(s, "failed_connections", r.failedConnections);
        io.WriteAttr(s, "sim_time_ps", r.simTimePs);
        io.WriteAttr(s, "wall_seconds", r.wallSeconds);
        io.WriteAttr(s, "build_seconds", r.buildSeconds);
        io.WriteAttr(s, "events", r.events);
        io.WriteAttr(s, "packet_hops", r.packetHops);
        if (r.engine == "flow")
        {
            io.WriteAttr<uint64_t>(s, "flows", r.flows);
            io.WriteAttr<uint64_t>(s, "flow_resolves", r.flowResolves);
            io.WriteAttr<uint64_t>(s, "flow_resolved", r.flowResolved);
            io.WriteAttr<uint64_t>(s, "peak_flows", r.peakFlows);
        }
        io.WriteAttr(s, "peak_rss_bytes", r.peakRssBytes);
        io.WriteAttr(s, "deadlock", r.deadlock);
        io.WriteAttr(s, "output_budget_bytes", r.output.budgetBytes);
        io.WriteAttr(s, "output_estimated_bytes", r.output.estimatedBytes);
        io.WriteAttr(s, "messages_total", r.output.messagesTotal);
        io.WriteAttr(s, "messages_sampled_every", r.output.messagesSampledEvery);
        io.WriteAttr(s, "series_coarsened_by", r.output.seriesCoarsenedBy);
        io.WriteAttr(s, "watchdog", r.watchdog);
        io.WriteAttr(s, "checked", static_cast<uint64_t>(r.checked));
        io.WriteAttr(s, "checks", r.checks);
        io.WriteAttr(s, "checked_flows", r.checkedFlows);
        io.WriteAttr(s, "check_lost_bytes", r.checkLostBytes);
        io.WriteAttr(s, "check_in_flight_bytes", r.checkInFlightBytes);
        // Fault campaigns: what the faults did and the named failure, if any.
        io.WriteAttr(s, "faults_injected", r.faultsInjected);
        io.WriteAttr(s, "link_down_events", r.linkDownEvents);
        io.WriteAttr(s, "link_up_events", r.linkUpEvents);
        io.WriteAttr(s, "routes_denied", r.routesDenied);
        io.WriteAttr(s, "bytes_failed_over", r.bytesFailedOver);
        io.WriteAttr(s, "isolations", r.isolations);
        io.WriteAttr(s, "cmpto", r.cmpto);
        io.WriteAttr(s, "messages_failed", r.messagesFailed);
        io.WriteAttr(s, "bytes_failed", r.bytesFailed);
        io.WriteAttr(s, "messages_unposted", r.messagesUnposted);
        io.WriteAttr(s, "failure", r.failure);
        H5Handle d = io.CreateGroup(s, "drops_by_reason");
        for (const auto& [reason, count] : r.dropsByReason)
        {
            io.WriteAttr(d, reason, count);
        }
    }

    io.Check(H5Fflush(file, H5F_SCOPE_GLOBAL), "cannot flush file");
    io.Check(file.Close(), "cannot close file");
}

/**
 * Create the parent directory of a file if it is missing.
 * \param path the file
 */
void
MakeParent(const std::string& path)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::path parent = fs::path(path).parent_path();
    if (!parent.empty())
    {
        fs::create_directories(parent, ec);
        if (ec)
        {
            throw std::runtime_error(path + ": cannot create directory " + parent.string() + ": " +
                                     ec.message());
        }
    }
}

/**
 * \param st a file status
 * \return what kind of file it is, in words ("a directory", "a FIFO"...)
 */
std::string
KindOf(const std::filesystem::file_status& st)
{
    namespace fs = std::filesystem;
    switch (st.type())
    {
    case fs::file_type::directory:
        return "a directory";
    case fs::file_type::character:
        return "a character device";
    case fs::file_type::block:
        return "a block device";
    case fs::file_type::fifo:
        return "a FIFO";
    case fs::file_type::socket:
        return "a socket";
    default:
        return "not a regular file";
    }
}

} // namespace

void
ResultsWriter::CheckOutputPath(const std::string& path)
{
    namespace fs = std::filesystem;
    const std::string why = ": results are written to a new file beside it and renamed over it, "
                            "so the path must be a regular file or not exist";
    if (path.empty())
    {
        throw std::runtime_error("results file: empty path");
    }
    std::error_code ec;
    // The file itself (a link is followed: the rename would replace a link to a device by a
    // file, but the user named the device).
    const fs::file_status st = fs::status(path, ec);
    if (fs::exists(st) && !fs::is_regular_file(st))
    {
        throw std::runtime_error(path + ": is " + KindOf(st) + why);
    }
    const fs::file_status tmp = fs::status(path + ".tmp", ec);
    if (fs::exists(tmp) && !fs::is_regular_file(tmp))
    {
        throw std::runtime_error(path + ".tmp (the temporary results file): is " + KindOf(tmp) +
                                 "; remove it or write elsewhere");
    }
    // The directory: the nearest ancestor that exists must be a directory this process may
    // create files in (MakeParent creates what is missing below it).
    fs::path dir = fs::path(path).parent_path();
    if (dir.empty())
    {
        dir = ".";
    }
    while (!fs::exists(dir, ec) && dir.has_parent_path() && dir.parent_path() != dir)
    {
        dir = dir.parent_path();
    }
    if (!fs::is_directory(dir, ec))
    {
        throw std::runtime_error(path + ": " + dir.string() + " is not a directory");
    }
    if (::access(dir.c_str(), W_OK | X_OK) != 0)
    {
        throw std::runtime_error(path + ": cannot create files in " + dir.string() + ": " +
                                 std::strerror(errno));
    }
}

void
ResultsWriter::CheckWritable(const std::string& path)
{
    CheckOutputPath(path); // before anything is created
    MakeParent(path);
    const std::string tmp = path + ".tmp";
    std::FILE* f = std::fopen(tmp.c_str(), "wb");
    if (f == nullptr)
    {
        throw std::runtime_error(path + ": cannot write: " + std::strerror(errno));
    }
    std::fclose(f);
    std::remove(tmp.c_str());
}

void
ResultsWriter::Write(const std::string& path, const RunResults& r)
{
    CheckTables(path, r);
    CheckOutputPath(path); // again: the path may have changed during the run

    namespace fs = std::filesystem;
    std::error_code ec;
    MakeParent(path);

    const std::string tmp = path + ".tmp";
    H5ErrorSilencer silencer;
    try
    {
        WriteFile(H5Io(tmp), tmp, r);
    }
    catch (...)
    {
        fs::remove(tmp, ec);
        throw;
    }
    try
    {
        CheckOutputPath(path); // never rename over a device, FIFO, socket or directory
    }
    catch (...)
    {
        fs::remove(tmp, ec);
        throw;
    }
    fs::rename(tmp, path, ec);
    if (ec)
    {
        std::error_code ignored;
        fs::remove(tmp, ignored);
        throw std::runtime_error(path + ": cannot rename " + tmp + ": " + ec.message());
    }
}

RunResults
ResultsWriter::Read(const std::string& path)
{
    return Read(path, "/");
}

RunResults
ResultsWriter::Read(const std::string& path, const std::string& group)
{
    H5ErrorSilencer silencer;
    // Errors name the group too when the run is not the whole file: "study.h5:/runs/sue/a2a".
    const std::string where = group == "/" ? path : path + ":" + group;
    H5Io io(where);
    RunResults r;

    H5Handle fapl = FileAccess(io);
    H5Handle h5file =
        io.Own(H5Fopen(path.c_str(), H5F_ACC_RDONLY, fapl), &H5Fclose, "cannot open results file");
    // Everything below is read relative to the run's group, named file: the root group ("/")
    // for a results file.
    H5Handle file = io.OpenGroup(h5file, group);

    io.ReadStringAttr(file, "podsim_version"); // present in every podsim results file
    r.scenarioName = io.ReadStringAttr(file, "scenario_name");
    if (H5Aexists(file, "engine") > 0)
    {
        r.engine = io.ReadStringAttr(file, "engine"); // files before the flow engine: packet
    }
    {
        auto text = io.ReadStringsDataset(file, "scenario");
        if (text.size() != 1)
        {
            io.Fail("dataset scenario is not a single string");
        }
        r.scenarioText = text.front();
    }

    {
        auto& m = r.messages;
        H5Handle g = io.OpenGroup(file, "messages");
        r.workloadNames = io.ReadStringsAttr(g, "workload_names");
        m.src = io.ReadColumn<uint32_t>(g, "src");
        m.dst = io.ReadColumn<uint32_t>(g, "dst");
        m.bytes = io.ReadColumn<uint64_t>(g, "bytes");
        m.tclass = io.ReadColumn<uint8_t>(g, "class");
        m.workload = io.ReadColumn<uint32_t>(g, "workload");
        m.postPs = io.ReadColumn<int64_t>(g, "post_ps");
        m.deliverPs = io.ReadColumn<int64_t>(g, "deliver_ps");
        m.completePs = io.ReadColumn<int64_t>(g, "complete_ps");
    }

    {
        auto& l = r.links;
        H5Handle g = io.OpenGroup(file, "links");
        l.name = io.ReadStringsDataset(g, "name");
        l.kind = io.ReadStringsDataset(g, "kind");
        l.plane = io.ReadColumn<uint32_t>(g, "plane");
        l.txBytes = io.ReadColumn<uint64_t>(g, "tx_bytes");
        l.txWireBytes = io.ReadColumn<uint64_t>(g, "tx_wire_bytes");
        l.txPackets = io.ReadColumn<uint64_t>(g, "tx_packets");
        l.busyPs = io.ReadColumn<int64_t>(g, "busy_ps");
        l.rateBps = io.ReadColumn<double>(g, "rate_bps");
        l.pausePs = io.ReadColumn<int64_t>(g, "pause_ps");
        l.stallPs = io.ReadColumn<int64_t>(g, "stall_ps");
        l.controlPackets = io.ReadColumn<uint64_t>(g, "control_packets");
        l.replays = io.ReadColumn<uint64_t>(g, "replays");
        l.replayedPackets = io.ReadColumn<uint64_t>(g, "replayed_packets");
        l.rxDiscarded = io.ReadColumn<uint64_t>(g, "rx_discarded");
        H5Handle dp = io.OpenGroup(g, "drop_packets");
        for (const auto& reason : io.Members(dp))
        {
            l.dropPackets[reason] = io.ReadColumn<uint64_t>(dp, reason);
        }
        H5Handle db = io.OpenGroup(g, "drop_bytes");
        for (const auto& reason : io.Members(db))
        {
            l.dropBytes[reason] = io.ReadColumn<uint64_t>(db, reason);
        }
    }

    // Collective and DAG tables (absent from files written before format version 2).
    if (H5Lexists(file, "collectives", H5P_DEFAULT) > 0)
    {
        auto& c = r.collectives;
        H5Handle g = io.OpenGroup(file, "collectives");
        c.workload = io.ReadColumn<uint32_t>(g, "workload");
        c.name = io.ReadStringsDataset(g, "name");
        c.collective = io.ReadStringsDataset(g, "collective");
        c.algorithm = io.ReadStringsDataset(g, "algorithm");
        c.group = io.ReadStringsDataset(g, "group");
        c.ranks = io.ReadColumn<uint32_t>(g, "ranks");
        c.bytes = io.ReadColumn<uint64_t>(g, "bytes");
        c.iteration = io.ReadColumn<uint32_t>(g, "iteration");
        c.startPs = io.ReadColumn<int64_t>(g, "start_ps");
        c.endPs = io.ReadColumn<int64_t>(g, "end_ps");
        c.algbwBytesPerS = io.ReadColumn<double>(g, "algbw_bytes_per_s");
        c.busbwBytesPerS = io.ReadColumn<double>(g, "busbw_bytes_per_s");
        c.messages = io.ReadColumn<uint64_t>(g, "messages");
        auto& st = r.collectiveSteps;
        H5Handle gs = io.OpenGroup(g, "steps");
        st.collective = io.ReadColumn<uint32_t>(gs, "collective");
        st.step = io.ReadColumn<uint32_t>(gs, "step");
        st.startPs = io.ReadColumn<int64_t>(gs, "start_ps");
        st.endPs = io.ReadColumn<int64_t>(gs, "end_ps");
        st.bytes = io.ReadColumn<uint64_t>(gs, "bytes");
    }
    if (H5Lexists(file, "dag_nodes", H5P_DEFAULT) > 0)
    {
        auto& d = r.dagNodes;
        H5Handle g = io.OpenGroup(file, "dag_nodes");
        d.workload = io.ReadColumn<uint32_t>(g, "workload");
        d.node = io.ReadStringsDataset(g, "node");
        d.kind = io.ReadStringsDataset(g, "kind");
        if (H5Lexists(g, "category", H5P_DEFAULT) > 0)
        {
            d.category = io.ReadStringsDataset(g, "category");
        }
        else
        {
            d.category.assign(d.kind.size(), ""); // files written before the column
        }
        d.iteration = io.ReadColumn<uint32_t>(g, "iteration");
        d.accelerator = io.ReadColumn<uint32_t>(g, "accelerator");
        d.startPs = io.ReadColumn<int64_t>(g, "start_ps");
        d.endPs = io.ReadColumn<int64_t>(g, "end_ps");
    }

    // The time series (absent from files written before format version 3).
    if (H5Lexists(file, "timeseries", H5P_DEFAULT) > 0)
    {
        auto& ts = r.bufferSeries;
        H5Handle g = io.OpenGroup(file, "timeseries");
        H5Handle b = io.OpenGroup(g, "switch_buffer");
        ts.intervalPs = io.ReadAttr<int64_t>(b, "interval_ps");
        ts.switchNames = io.ReadStringsDataset(b, "switch_names");
        ts.sw = io.ReadColumn<uint32_t>(b, "switch");
        ts.timePs = io.ReadColumn<int64_t>(b, "time_ps");
        ts.maxBytes = io.ReadColumn<uint64_t>(b, "max_bytes");
        ts.endBytes = io.ReadColumn<uint64_t>(b, "end_bytes");
    }

    {
        H5Handle s = io.OpenGroup(file, "summary");
        r.accelerators = io.ReadAttr<uint32_t>(s, "accelerators");
        r.planes = io.ReadAttr<uint32_t>(s, "planes");
        r.switches = io.ReadAttr<uint32_t>(s, "switches");
        r.bytesSent = io.ReadAttr<uint64_t>(s, "bytes_sent");
        r.bytesDelivered = io.ReadAttr<uint64_t>(s, "bytes_delivered");
        r.bytesReceived = io.ReadAttr<uint64_t>(s, "bytes_received");
        r.bytesDropped = io.ReadAttr<uint64_t>(s, "bytes_dropped");
        r.peakSwitchBufferBytes = io.ReadAttr<uint64_t>(s, "peak_switch_buffer_bytes");
        r.pausePs = io.ReadAttr<int64_t>(s, "pause_ps");
        r.stallPs = io.ReadAttr<int64_t>(s, "stall_ps");
        r.replays = io.ReadAttr<uint64_t>(s, "replays");
        r.replayedPackets = io.ReadAttr<uint64_t>(s, "replayed_packets");
        r.retransmittedPackets = io.ReadAttr<uint64_t>(s, "retransmitted_packets");
        r.bytesRetransmitted = io.ReadAttr<uint64_t>(s, "bytes_retransmitted");
        r.bytesDiscarded = io.ReadAttr<uint64_t>(s, "bytes_discarded");
        r.goBacks = io.ReadAttr<uint64_t>(s, "go_backs");
        r.transportTimeouts = io.ReadAttr<uint64_t>(s, "transport_timeouts");
        r.failedConnections = io.ReadAttr<uint64_t>(s, "failed_connections");
        r.simTimePs = io.ReadAttr<int64_t>(s, "sim_time_ps");
        r.wallSeconds = io.ReadAttr<double>(s, "wall_seconds");
        r.buildSeconds = io.ReadAttr<double>(s, "build_seconds");
        r.events = io.ReadAttr<uint64_t>(s, "events");
        r.packetHops = io.ReadAttr<uint64_t>(s, "packet_hops");
        if (H5Aexists(s, "flows") > 0)
        {
            r.flows = io.ReadAttr<uint64_t>(s, "flows");
            r.flowResolves = io.ReadAttr<uint64_t>(s, "flow_resolves");
            r.flowResolved = io.ReadAttr<uint64_t>(s, "flow_resolved");
            r.peakFlows = io.ReadAttr<uint64_t>(s, "peak_flows");
        }
        r.peakRssBytes = io.ReadAttr<uint64_t>(s, "peak_rss_bytes");
        // Files written before the deadlock monitor existed have no such attribute.
        if (H5Aexists(s, "deadlock") > 0)
        {
            r.deadlock = io.ReadStringAttr(s, "deadlock");
        }
        if (H5Aexists(s, "output_budget_bytes") > 0)
        {
            r.output.budgetBytes = io.ReadAttr<uint64_t>(s, "output_budget_bytes");
            r.output.estimatedBytes = io.ReadAttr<uint64_t>(s, "output_estimated_bytes");
            r.output.messagesTotal = io.ReadAttr<uint64_t>(s, "messages_total");
            r.output.messagesSampledEvery = io.ReadAttr<uint32_t>(s, "messages_sampled_every");
            r.output.seriesCoarsenedBy = io.ReadAttr<uint32_t>(s, "series_coarsened_by");
        }
        // Nor a watchdog's report before the watchdogs existed.
        if (H5Aexists(s, "watchdog") > 0)
        {
            r.watchdog = io.ReadStringAttr(s, "watchdog");
        }
        // Files written before the invariant checks existed have no such attributes.
        if (H5Aexists(s, "checked") > 0)
        {
            r.checked = io.ReadAttr<uint64_t>(s, "checked") != 0;
            r.checks = io.ReadAttr<uint64_t>(s, "checks");
            r.checkedFlows = io.ReadAttr<uint64_t>(s, "checked_flows");
            r.checkLostBytes = io.ReadAttr<uint64_t>(s, "check_lost_bytes");
            r.checkInFlightBytes = io.ReadAttr<uint64_t>(s, "check_in_flight_bytes");
        }
        // Files written before fault campaigns have none of these.
        if (H5Aexists(s, "faults_injected") > 0)
        {
            r.faultsInjected = io.ReadAttr<uint64_t>(s, "faults_injected");
            r.linkDownEvents = io.ReadAttr<uint64_t>(s, "link_down_events");
            r.linkUpEvents = io.ReadAttr<uint64_t>(s, "link_up_events");
            r.routesDenied = io.ReadAttr<uint64_t>(s, "routes_denied");
            r.bytesFailedOver = io.ReadAttr<uint64_t>(s, "bytes_failed_over");
            r.isolations = io.ReadAttr<uint64_t>(s, "isolations");
            r.cmpto = io.ReadAttr<uint64_t>(s, "cmpto");
            r.messagesFailed = io.ReadAttr<uint64_t>(s, "messages_failed");
            r.bytesFailed = io.ReadAttr<uint64_t>(s, "bytes_failed");
            if (H5Aexists(s, "messages_unposted") > 0)
            {
                r.messagesUnposted = io.ReadAttr<uint64_t>(s, "messages_unposted");
            }
            r.failure = io.ReadStringAttr(s, "failure");
        }
        H5Handle d = io.OpenGroup(s, "drops_by_reason");
        for (const auto& reason : io.AttributeNames(d))
        {
            r.dropsByReason[reason] = io.ReadAttr<uint64_t>(d, reason);
        }
    }

    CheckTables(where, r);
    return r;
}

} // namespace ns3
