/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "dag-iteration-summary.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace ns3
{

namespace
{

/// \param iv intervals (sorted here) \return the length of their union
int64_t
UnionPs(std::vector<std::pair<int64_t, int64_t>>& iv)
{
    std::sort(iv.begin(), iv.end());
    int64_t total = 0;
    int64_t reach = INT64_MIN;
    for (const auto& [s, e] : iv)
    {
        const int64_t from = std::max(s, reach);
        if (e > from)
        {
            total += e - from;
        }
        reach = std::max(reach, e);
    }
    return total;
}

/// \param ps picoseconds \return microseconds with 3 decimals
std::string
Us(double ps)
{
    char buf[64];
    std::snprintf(buf, sizeof(buf), "%.3f", ps * 1e-6);
    return buf;
}

} // namespace

DagIterationSummary
DagIterationSummary::Compute(const std::vector<Row>& rows)
{
    DagIterationSummary s;
    int64_t first = INT64_MAX;
    int64_t last = INT64_MIN;
    // Per accelerator: compute intervals; per (accelerator, category): intervals.
    std::map<uint32_t, std::vector<std::pair<int64_t, int64_t>>> compute;
    std::map<std::pair<std::string, uint32_t>, std::vector<std::pair<int64_t, int64_t>>> cats;
    for (const Row& r : rows)
    {
        if (r.startPs < 0 || r.endPs < 0)
        {
            ++s.unfinished;
            continue;
        }
        first = std::min(first, r.startPs);
        last = std::max(last, r.endPs);
        auto& c = compute[r.accelerator];
        if (r.compute)
        {
            c.emplace_back(r.startPs, r.endPs);
        }
        cats[{r.category, r.accelerator}].emplace_back(r.startPs, r.endPs);
    }
    if (compute.empty())
    {
        return s;
    }
    s.iterationPs = last - first;
    s.accelerators = static_cast<uint32_t>(compute.size());
    double computeSum = 0;
    for (auto& [acc, iv] : compute)
    {
        const int64_t busy = UnionPs(iv);
        computeSum += busy;
        s.exposedMaxPs = std::max(s.exposedMaxPs, s.iterationPs - busy);
    }
    s.computePs = computeSum / s.accelerators;
    s.exposedPs = s.iterationPs - s.computePs;
    for (auto& [key, iv] : cats)
    {
        s.categoryPs[key.first.empty() ? "(none)" : key.first] +=
            static_cast<double>(UnionPs(iv)) / s.accelerators;
    }
    return s;
}

std::string
DagIterationSummary::ToString() const
{
    std::ostringstream os;
    os << "iteration " << Us(iterationPs) << " us, compute " << Us(computePs)
       << " us, exposed communication " << Us(exposedPs) << " us (max " << Us(exposedMaxPs)
       << " us) per accelerator; per category (us):";
    bool firstCat = true;
    for (const auto& [c, ps] : categoryPs)
    {
        os << (firstCat ? " " : ", ") << c << " " << Us(ps);
        firstCat = false;
    }
    if (unfinished > 0)
    {
        os << "; " << unfinished << " node instances did not finish";
    }
    return os.str();
}

} // namespace ns3
