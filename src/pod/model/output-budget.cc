/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "output-budget.h"

#include "buffer-sampler.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

namespace ns3
{

namespace
{

/**
 * \param v strings
 * \return their estimated stored bytes
 */
uint64_t
StringBytes(const std::vector<std::string>& v)
{
    uint64_t b = 0;
    for (const auto& s : v)
    {
        b += s.size() + OutputBudget::STRING_OVERHEAD;
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

} // namespace

uint64_t
OutputBudget::Estimate(const RunResults& r)
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
    b += d.workload.size() * (4 + 4 + 4 + 8 + 8) + StringBytes(d.node) + StringBytes(d.kind);
    b += r.scenarioText.size();
    return b;
}

std::string
OutputBudget::Apply(RunResults& r, uint64_t budgetBytes)
{
    RunResults::OutputBudgetReport& rep = r.output;
    rep.budgetBytes = budgetBytes;
    rep.messagesTotal = r.messages.src.size();
    rep.messagesSampledEvery = 1;
    rep.seriesCoarsenedBy = 1;
    rep.estimatedBytes = Estimate(r);
    if (budgetBytes == 0 || rep.estimatedBytes <= budgetBytes)
    {
        return "";
    }
    std::ostringstream note;
    note << "the results tables would take about " << Mb(rep.estimatedBytes)
         << ", above output.budget (" << Mb(budgetBytes) << "):";

    // 1. The time series, to at most a quarter of the budget.
    auto& ts = r.bufferSeries;
    if (ts.intervalPs > 0 && !ts.sw.empty())
    {
        int64_t span = 0;
        for (int64_t t : ts.timePs)
        {
            span = std::max(span, t);
        }
        while (ts.sw.size() * SERIES_ROW_BYTES > budgetBytes / 4 && ts.intervalPs <= span)
        {
            BufferSampler::Coarsen(ts, 2);
            rep.seriesCoarsenedBy *= 2;
        }
        if (rep.seriesCoarsenedBy > 1)
        {
            note << " switch buffer series sampled every " << ts.intervalPs / 1e6 << " us ("
                 << rep.seriesCoarsenedBy << "x coarser);";
        }
    }

    // 2. The message table: one row in k, plus the last delivery and completion per workload.
    const uint64_t fixed = Estimate(r) - r.messages.src.size() * MESSAGE_ROW_BYTES;
    const uint64_t n = r.messages.src.size();
    if (fixed + n * MESSAGE_ROW_BYTES > budgetBytes && n > 0)
    {
        const uint64_t room = budgetBytes > fixed ? budgetBytes - fixed : 0;
        const uint64_t fit = std::max<uint64_t>(1, room / MESSAGE_ROW_BYTES);
        // Room for the kept extremes (two per workload) as well.
        const uint64_t extremes = 2 * (r.workloadNames.size() + 1);
        const uint64_t target = fit > extremes ? fit - extremes : 1;
        uint64_t k = (n + target - 1) / target;
        k = std::max<uint64_t>(k, 2);
        rep.messagesSampledEvery = static_cast<uint32_t>(std::min<uint64_t>(k, UINT32_MAX));
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
        RunResults::Messages out;
        for (size_t i = 0; i < n; ++i)
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
        note << " message table keeps one row in " << k << " (" << out.src.size() << " of " << n
             << ")";
        r.messages = std::move(out);
    }
    note << "; raise output.budget to keep everything";
    return note.str();
}

} // namespace ns3
