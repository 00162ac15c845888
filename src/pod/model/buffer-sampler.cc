/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "buffer-sampler.h"

#include "ns3/abort.h"
#include "ns3/callback.h"
#include "ns3/fabric-clock.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("BufferSampler");

BufferSampler::BufferSampler(Time interval)
    : m_intervalPs(interval.GetPicoSeconds())
{
    NS_ABORT_MSG_IF(m_intervalPs <= 0, "BufferSampler: the interval must be positive");
}

BufferSampler::~BufferSampler()
{
    for (auto& t : m_tracks)
    {
        if (t->connected)
        {
            t->source->TraceDisconnectWithoutContext("Occupancy",
                                                     MakeCallback(&Track::Changed, t.get()));
        }
    }
}

void
BufferSampler::Add(uint32_t index, Ptr<FabricSharedBuffer> buffer)
{
    Add(index, buffer, buffer->GetOccupancy());
}

void
BufferSampler::Add(uint32_t index, Ptr<Object> source, uint64_t occupancy)
{
    NS_LOG_FUNCTION(this << index << source << occupancy);
    auto t = std::make_unique<Track>();
    t->index = index;
    t->source = source;
    t->owner = this;
    t->last = occupancy;
    t->connected =
        source->TraceConnectWithoutContext("Occupancy", MakeCallback(&Track::Changed, t.get()));
    NS_ABORT_MSG_UNLESS(t->connected, "BufferSampler: no Occupancy trace source");
    m_tracks.push_back(std::move(t));
}

void
BufferSampler::Track::Changed(uint64_t /* oldValue */, uint64_t newValue)
{
    const int64_t k = FabricClock::Now().GetPicoSeconds() / owner->m_intervalPs;
    if (k != interval)
    {
        if (interval >= 0)
        {
            start.push_back(interval);
            maxBytes.push_back(max);
            endBytes.push_back(last);
        }
        interval = k;
        max = last; // the level the interval was entered with
    }
    last = newValue;
    max = std::max(max, newValue);
}

void
BufferSampler::Collect(RunResults::BufferSeries& series)
{
    series.intervalPs = m_intervalPs;
    for (auto& t : m_tracks)
    {
        if (t->interval >= 0)
        {
            t->start.push_back(t->interval);
            t->maxBytes.push_back(t->max);
            t->endBytes.push_back(t->last);
            t->interval = -1;
        }
        for (size_t i = 0; i < t->start.size(); ++i)
        {
            series.sw.push_back(t->index);
            series.timePs.push_back(t->start[i] * m_intervalPs);
            series.maxBytes.push_back(t->maxBytes[i]);
            series.endBytes.push_back(t->endBytes[i]);
        }
        t->start.clear();
        t->maxBytes.clear();
        t->endBytes.clear();
        if (t->connected)
        {
            t->source->TraceDisconnectWithoutContext("Occupancy",
                                                     MakeCallback(&Track::Changed, t.get()));
            t->connected = false;
        }
    }
}

void
BufferSampler::Coarsen(RunResults::BufferSeries& series, uint32_t factor)
{
    if (factor <= 1 || series.intervalPs <= 0)
    {
        return;
    }
    const int64_t wide = series.intervalPs * factor;
    RunResults::BufferSeries out;
    out.intervalPs = wide;
    for (size_t i = 0; i < series.sw.size(); ++i)
    {
        const int64_t t = series.timePs[i] / wide * wide;
        const size_t n = out.sw.size();
        if (n > 0 && out.sw[n - 1] == series.sw[i] && out.timePs[n - 1] == t)
        {
            out.maxBytes[n - 1] = std::max(out.maxBytes[n - 1], series.maxBytes[i]);
            out.endBytes[n - 1] = series.endBytes[i];
            continue;
        }
        out.sw.push_back(series.sw[i]);
        out.timePs.push_back(t);
        out.maxBytes.push_back(series.maxBytes[i]);
        out.endBytes.push_back(series.endBytes[i]);
    }
    series = std::move(out);
}

} // namespace ns3
