/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pyxis-timeline-recorder.h"

#include "pyxis-chip.h"

#include "ns3/callback.h"
#include "ns3/log.h"

#include <algorithm>
#include <map>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PyxisTimelineRecorder");

namespace
{

/// \return the merged, sorted union of intervals
std::vector<std::pair<double, double>>
Union(std::vector<std::pair<double, double>> v)
{
    std::sort(v.begin(), v.end());
    std::vector<std::pair<double, double>> out;
    for (const auto& [s, e] : v)
    {
        if (!out.empty() && s <= out.back().second)
        {
            out.back().second = std::max(out.back().second, e);
        }
        else
        {
            out.emplace_back(s, e);
        }
    }
    return out;
}

} // namespace

void
PyxisTimelineRecorder::Watch(Ptr<PyxisChip> chip, const PyxisTripProgram* program)
{
    NS_LOG_FUNCTION(this << chip);
    const uint32_t id = chip->GetChipId();
    if (m_programs.size() <= id)
    {
        m_programs.resize(id + 1, nullptr);
    }
    m_programs[id] = program;
    chip->TraceConnectWithoutContext("TripEnd",
                                     MakeCallback(&PyxisTimelineRecorder::TripEnd, this));
}

void
PyxisTimelineRecorder::TripEnd(uint32_t chip,
                               uint32_t cluster,
                               uint32_t queue,
                               uint32_t id,
                               Time start,
                               Time end)
{
    const PyxisTripProgram* p = chip < m_programs.size() ? m_programs[chip] : nullptr;
    if (!p || id >= p->GetTrips().size())
    {
        return;
    }
    const PyxisTripProgram::TripInfo& info = p->GetTrips()[id];
    if (info.kind == PyxisTripProgram::NOOP)
    {
        return;
    }
    Trip t;
    t.chip = chip;
    t.cluster = cluster;
    t.engine = queue;
    t.tripId = id;
    t.layer = info.layer;
    t.kind = static_cast<uint32_t>(info.kind);
    t.startNs = start.GetSeconds() * 1e9;
    t.endNs = end.GetSeconds() * 1e9;
    m_trips.push_back(t);
}

std::vector<PyxisTimelineRecorder::Layer>
PyxisTimelineRecorder::GetLayers() const
{
    std::map<std::pair<uint32_t, uint32_t>, std::vector<const Trip*>> groups;
    for (const Trip& t : m_trips)
    {
        groups[{t.chip, t.layer}].push_back(&t);
    }
    std::vector<Layer> out;
    for (const auto& [key, trips] : groups)
    {
        Layer l;
        l.chip = key.first;
        l.layer = key.second;
        l.startNs = trips.front()->startNs;
        l.endNs = trips.front()->endNs;
        std::vector<std::pair<double, double>> compute;
        std::vector<std::pair<double, double>> comm;
        for (const Trip* t : trips)
        {
            l.startNs = std::min(l.startNs, t->startNs);
            l.endNs = std::max(l.endNs, t->endNs);
            if (t->kind == PyxisTripProgram::COMPUTE)
            {
                compute.emplace_back(t->startNs, t->endNs);
            }
            else if (t->kind == PyxisTripProgram::COMM || t->kind == PyxisTripProgram::REDUCE)
            {
                comm.emplace_back(t->startNs, t->endNs);
            }
        }
        const auto cu = Union(compute);
        for (const auto& [s, e] : cu)
        {
            l.computeNs += e - s;
        }
        for (const auto& [s, e] : Union(comm))
        {
            double covered = 0;
            for (const auto& [cs, ce] : cu)
            {
                const double lo = std::max(s, cs);
                const double hi = std::min(e, ce);
                covered += hi > lo ? hi - lo : 0;
            }
            l.exposedCommNs += (e - s) - covered;
        }
        out.push_back(l);
    }
    return out;
}

} // namespace ns3
