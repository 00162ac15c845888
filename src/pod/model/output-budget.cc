/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "output-budget.h"

#include "buffer-sampler.h"
#include "results-writer.h"

#include <algorithm>
#include <atomic>
#include <hdf5.h>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

namespace ns3
{

namespace
{

/// The HDF5 memory type of a column element.
template <typename T>
hid_t MemType();

/// \return the memory type of uint8_t
template <>
hid_t
MemType<uint8_t>()
{
    return H5T_NATIVE_UINT8;
}

/// \return the memory type of uint32_t
template <>
hid_t
MemType<uint32_t>()
{
    return H5T_NATIVE_UINT32;
}

/// \return the memory type of uint64_t
template <>
hid_t
MemType<uint64_t>()
{
    return H5T_NATIVE_UINT64;
}

/// \return the memory type of int64_t
template <>
hid_t
MemType<int64_t>()
{
    return H5T_NATIVE_INT64;
}

/// \return the memory type of double
template <>
hid_t
MemType<double>()
{
    return H5T_NATIVE_DOUBLE;
}

/**
 * Measures what numeric columns take in the results file: it writes them, or a sample of their
 * rows, into an HDF5 file held in memory with the results file's chunking and filters (shuffle
 * and deflate, ResultsWriter), and reads back the stored size.
 */
class CompressedSizer
{
  public:
    CompressedSizer()
    {
        // Errors are reported by the return values; keep HDF5's own printing off.
        H5Eget_auto2(H5E_DEFAULT, &m_errFunc, &m_errData);
        H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
        hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
        H5Pset_fapl_core(fapl, 1 << 20, 0); // in memory, never written to disk
        static std::atomic<unsigned> serial{0};
        const std::string name = "podsim-output-budget-" + std::to_string(serial++);
        m_file = H5Fcreate(name.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
        H5Pclose(fapl);
    }

    ~CompressedSizer()
    {
        if (m_file >= 0)
        {
            H5Fclose(m_file);
        }
        H5Eset_auto2(H5E_DEFAULT, m_errFunc, m_errData);
    }

    CompressedSizer(const CompressedSizer&) = delete;
    CompressedSizer& operator=(const CompressedSizer&) = delete;

    /**
     * \param v a column
     * \return its estimated stored bytes: exact up to SAMPLE_ROWS rows; above, the stored size
     * of a sample of SAMPLE_ROWS rows (four runs of consecutive rows spread over the column)
     * scaled to the column's rows
     */
    template <typename T>
    uint64_t Column(const std::vector<T>& v)
    {
        const uint64_t n = v.size();
        if (n == 0)
        {
            return 0;
        }
        if (n <= OutputBudget::SAMPLE_ROWS)
        {
            return Stored(v.data(), n, MemType<T>(), sizeof(T));
        }
        const uint64_t run = OutputBudget::SAMPLE_ROWS / 4;
        std::vector<T> sample;
        sample.reserve(4 * run);
        for (uint64_t i = 0; i < 4; ++i)
        {
            const uint64_t start = i * (n - run) / 3;
            sample.insert(sample.end(), v.begin() + start, v.begin() + start + run);
        }
        const uint64_t b = Stored(sample.data(), sample.size(), MemType<T>(), sizeof(T));
        return static_cast<uint64_t>(static_cast<double>(b) * n / sample.size() + 0.5);
    }

  private:
    /**
     * \param data the rows
     * \param rows how many
     * \param type their memory type
     * \param size bytes per row
     * \return the bytes HDF5 stores for them (uncompressed size when it cannot tell)
     */
    uint64_t Stored(const void* data, uint64_t rows, hid_t type, size_t size)
    {
        const uint64_t raw = rows * size;
        if (m_file < 0 || H5Zfilter_avail(H5Z_FILTER_DEFLATE) <= 0)
        {
            return raw;
        }
        hsize_t dims = rows;
        hsize_t chunk = std::min<hsize_t>(rows, ResultsWriter::CHUNK_ROWS);
        hid_t space = H5Screate_simple(1, &dims, nullptr);
        hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
        H5Pset_chunk(dcpl, 1, &chunk);
        H5Pset_shuffle(dcpl);
        H5Pset_deflate(dcpl, ResultsWriter::DEFLATE_LEVEL);
        const std::string name = "c" + std::to_string(m_datasets++);
        hid_t ds = H5Dcreate2(m_file, name.c_str(), type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
        uint64_t stored = raw;
        if (ds >= 0)
        {
            if (H5Dwrite(ds, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) >= 0)
            {
                stored = H5Dget_storage_size(ds);
            }
            H5Dclose(ds);
            H5Ldelete(m_file, name.c_str(), H5P_DEFAULT);
        }
        H5Pclose(dcpl);
        H5Sclose(space);
        return stored;
    }

    hid_t m_file{-1};               //!< the in-memory file
    unsigned m_datasets{0};         //!< datasets written so far
    H5E_auto2_t m_errFunc{nullptr}; //!< HDF5's error printer, restored at the end
    void* m_errData{nullptr};       //!< its data
};

/**
 * \param v strings
 * \return their estimated stored bytes: a variable-length string takes its 16-byte reference
 * in the dataset, and in HDF5's global heap a 16-byte object header and its characters padded
 * to 8 bytes
 */
uint64_t
StringBytes(const std::vector<std::string>& v)
{
    uint64_t b = 0;
    for (const auto& s : v)
    {
        b += (s.size() + 7) / 8 * 8 + OutputBudget::STRING_OVERHEAD;
    }
    return b;
}

/**
 * \param n bytes
 * \return n as text: B below 10 kB, else kB or MB (powers of 1000) with one decimal
 */
std::string
Mb(uint64_t n)
{
    std::ostringstream os;
    os.setf(std::ios::fixed);
    os.precision(1);
    if (n < 10000)
    {
        os << n << " B";
    }
    else if (n < 10000000)
    {
        os << n / 1e3 << " kB";
    }
    else
    {
        os << n / 1e6 << " MB";
    }
    return os.str();
}

/**
 * \param z the sizer
 * \param v a numeric column
 * \return its estimated bytes in the file: its stored data, its dataset's object header and,
 * once it holds rows, its chunk index
 */
template <typename T>
uint64_t
Col(CompressedSizer& z, const std::vector<T>& v)
{
    return z.Column(v) + OutputBudget::DATASET_OVERHEAD +
           (v.empty() ? 0 : OutputBudget::CHUNK_INDEX_OVERHEAD);
}

/**
 * \param v a string column
 * \return its estimated bytes in the file: its strings (at least one global heap collection
 * once it holds any), its dataset's object header and chunk index
 */
uint64_t
Str(const std::vector<std::string>& v)
{
    if (v.empty())
    {
        return OutputBudget::DATASET_OVERHEAD;
    }
    return std::max<uint64_t>(StringBytes(v), OutputBudget::HEAP_COLLECTION_BYTES) +
           OutputBudget::DATASET_OVERHEAD + OutputBudget::CHUNK_INDEX_OVERHEAD;
}

/**
 * \param z the sizer
 * \param m a message table
 * \return its estimated stored bytes
 */
uint64_t
MessageBytes(CompressedSizer& z, const RunResults::Messages& m)
{
    return Col(z, m.src) + Col(z, m.dst) + Col(z, m.bytes) + Col(z, m.tclass) + Col(z, m.workload) +
           Col(z, m.postPs) + Col(z, m.deliverPs) + Col(z, m.completePs);
}

/**
 * \param z the sizer
 * \param ts a switch buffer series
 * \return its estimated stored bytes
 */
uint64_t
SeriesBytes(CompressedSizer& z, const RunResults::BufferSeries& ts)
{
    return Col(z, ts.sw) + Col(z, ts.timePs) + Col(z, ts.maxBytes) + Col(z, ts.endBytes) +
           Str(ts.switchNames);
}

/**
 * \param z the sizer
 * \param r the results
 * \return the estimated stored bytes of everything but the message table and the series
 */
uint64_t
OtherBytes(CompressedSizer& z, const RunResults& r)
{
    uint64_t b = OutputBudget::FILE_OVERHEAD +
                 std::max<uint64_t>(r.scenarioText.size(), OutputBudget::HEAP_COLLECTION_BYTES);
    const auto& l = r.links;
    b += Col(z, l.plane) + Col(z, l.txBytes) + Col(z, l.txWireBytes) + Col(z, l.txPackets) +
         Col(z, l.busyPs) + Col(z, l.rateBps) + Col(z, l.pausePs) + Col(z, l.stallPs) +
         Col(z, l.controlPackets) + Col(z, l.replays) + Col(z, l.replayedPackets) +
         Col(z, l.rxDiscarded) + Str(l.name) + Str(l.kind);
    for (const auto& [reason, v] : l.dropPackets)
    {
        b += Col(z, v);
    }
    for (const auto& [reason, v] : l.dropBytes)
    {
        b += Col(z, v);
    }
    const auto& c = r.collectives;
    b += Col(z, c.workload) + Col(z, c.ranks) + Col(z, c.bytes) + Col(z, c.iteration) +
         Col(z, c.startPs) + Col(z, c.endPs) + Col(z, c.algbwBytesPerS) + Col(z, c.busbwBytesPerS) +
         Col(z, c.messages) + Str(c.name) + Str(c.collective) + Str(c.algorithm) + Str(c.group);
    const auto& st = r.collectiveSteps;
    b += Col(z, st.collective) + Col(z, st.step) + Col(z, st.startPs) + Col(z, st.endPs) +
         Col(z, st.bytes);
    const auto& d = r.dagNodes;
    b += Col(z, d.workload) + Col(z, d.iteration) + Col(z, d.accelerator) + Col(z, d.startPs) +
         Col(z, d.endPs) + Str(d.node) + Str(d.kind) + Str(d.category);
    return b;
}

} // namespace

uint64_t
OutputBudget::EstimateUncompressed(const RunResults& r)
{
    uint64_t b = r.messages.src.size() * MESSAGE_ROW_BYTES;
    b += r.bufferSeries.sw.size() * SERIES_ROW_BYTES + StringBytes(r.bufferSeries.switchNames);
    const auto& l = r.links;
    // 3 x u32/f64-sized and 11 x 8-byte numeric columns, the drop columns, two strings.
    b += l.name.size() * (4 + 8 * 12 + 16 * l.dropPackets.size());
    b += StringBytes(l.name) + StringBytes(l.kind);
    const auto& c = r.collectives;
    b += c.workload.size() * (4 + 4 + 8 + 4 + 8 + 8 + 8 + 8 + 8);
    b += StringBytes(c.name) + StringBytes(c.collective) + StringBytes(c.algorithm) +
         StringBytes(c.group);
    b += r.collectiveSteps.collective.size() * (4 + 4 + 8 + 8 + 8);
    const auto& d = r.dagNodes;
    b += d.workload.size() * (4 + 4 + 4 + 8 + 8) + StringBytes(d.node) + StringBytes(d.kind) +
         StringBytes(d.category);
    b += r.scenarioText.size();
    return b;
}

uint64_t
OutputBudget::Estimate(const RunResults& r)
{
    CompressedSizer z;
    return MessageBytes(z, r.messages) + SeriesBytes(z, r.bufferSeries) + OtherBytes(z, r);
}

/**
 * \param m a message table
 * \param k keep one row in k
 * \param keepExtra rows kept besides
 * \return the rows 0, k, 2k, ... and those of keepExtra, in order
 */
static RunResults::Messages
Thin(const RunResults::Messages& m, uint64_t k, const std::set<size_t>& keepExtra)
{
    RunResults::Messages out;
    for (size_t i = 0; i < m.src.size(); ++i)
    {
        if (i % k != 0 && keepExtra.count(i) == 0)
        {
            continue;
        }
        out.src.push_back(m.src[i]);
        out.dst.push_back(m.dst[i]);
        out.bytes.push_back(m.bytes[i]);
        out.tclass.push_back(m.tclass[i]);
        out.workload.push_back(m.workload[i]);
        out.postPs.push_back(m.postPs[i]);
        out.deliverPs.push_back(m.deliverPs[i]);
        out.completePs.push_back(m.completePs[i]);
    }
    return out;
}

std::string
OutputBudget::Apply(RunResults& r, uint64_t budgetBytes)
{
    RunResults::OutputBudgetReport& rep = r.output;
    rep.budgetBytes = budgetBytes;
    rep.messagesTotal = r.messages.src.size();
    rep.messagesSampledEvery = 1;
    rep.seriesCoarsenedBy = 1;
    CompressedSizer z;
    const uint64_t others = OtherBytes(z, r);
    uint64_t series = SeriesBytes(z, r.bufferSeries);
    const uint64_t messages = MessageBytes(z, r.messages);
    rep.estimatedBytes = others + series + messages;
    if (budgetBytes == 0 || rep.estimatedBytes <= budgetBytes)
    {
        return "";
    }
    std::ostringstream note;
    note << "the results file would take about " << Mb(rep.estimatedBytes)
         << " (compressed), above output.budget (" << Mb(budgetBytes) << "):";

    // 1. The time series, to at most a quarter of the budget.
    auto& ts = r.bufferSeries;
    if (ts.intervalPs > 0 && !ts.sw.empty())
    {
        int64_t span = 0;
        for (int64_t t : ts.timePs)
        {
            span = std::max(span, t);
        }
        while (series > budgetBytes / 4 && ts.intervalPs <= span)
        {
            BufferSampler::Coarsen(ts, 2);
            rep.seriesCoarsenedBy *= 2;
            series = SeriesBytes(z, ts);
        }
        if (rep.seriesCoarsenedBy > 1)
        {
            note << " switch buffer series sampled every " << ts.intervalPs / 1e6 << " us ("
                 << rep.seriesCoarsenedBy << "x coarser);";
        }
    }

    // 2. The message table: one row in k, plus the last delivery and completion per workload.
    const uint64_t fixed = others + series;
    const uint64_t n = r.messages.src.size();
    if (fixed + messages > budgetBytes && n > 0)
    {
        const uint64_t room = budgetBytes > fixed ? budgetBytes - fixed : 0;
        std::map<uint32_t, std::pair<size_t, size_t>> last; // workload -> (deliver, complete)
        const auto& m = r.messages;
        for (size_t i = 0; i < n; ++i)
        {
            auto it = last.find(m.workload[i]);
            if (it == last.end())
            {
                last[m.workload[i]] = {i, i};
                continue;
            }
            if (m.deliverPs[i] > m.deliverPs[it->second.first])
            {
                it->second.first = i;
            }
            if (m.completePs[i] > m.completePs[it->second.second])
            {
                it->second.second = i;
            }
        }
        std::set<size_t> keepExtra;
        for (const auto& [w, rows] : last)
        {
            keepExtra.insert(rows.first);
            keepExtra.insert(rows.second);
        }
        // k from the compressed bytes per row; thinning changes how well the rows compress
        // (neighbours differ more), so measure the thinned table and raise k until it fits.
        uint64_t k = std::max<uint64_t>(
            2,
            room > 0 ? static_cast<uint64_t>(static_cast<double>(messages) / room) + 1 : n);
        RunResults::Messages out = Thin(m, k, keepExtra);
        for (int round = 0; round < 32 && k < n && MessageBytes(z, out) > room; ++round)
        {
            const double over =
                static_cast<double>(MessageBytes(z, out)) / std::max<uint64_t>(room, 1);
            k = std::min<uint64_t>(n,
                                   std::max<uint64_t>(k + 1, static_cast<uint64_t>(k * over) + 1));
            out = Thin(m, k, keepExtra);
        }
        rep.messagesSampledEvery = static_cast<uint32_t>(std::min<uint64_t>(k, UINT32_MAX));
        note << " message table keeps one row in " << k << " (" << out.src.size() << " of " << n
             << ")";
        r.messages = std::move(out);
    }
    note << "; raise output.budget to keep everything";
    return note.str();
}

} // namespace ns3
