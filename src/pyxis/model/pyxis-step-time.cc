/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pyxis-step-time.h"

#include "ns3/assert.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PyxisStepTime");

namespace
{

/**
 * \param a numerator
 * \param b denominator (> 0)
 * \return ceil(a / b)
 */
uint64_t
CeilDiv(uint64_t a, uint64_t b)
{
    return (a + b - 1) / b;
}

} // namespace

uint64_t
PyxisStepTime::ReduceCycles(const Params& p, uint64_t chunkBytes)
{
    if (p.reduction == PyxisModelSpec::INMEM_ADD)
    {
        return CeilDiv(chunkBytes, 128);
    }
    const uint64_t b = PyxisModelSpec::DtypeBytes(p.dtype);
    return CeilDiv(CeilDiv(chunkBytes, b), p.vpuLanes) * std::max<uint64_t>(1, b);
}

PyxisStepTime::Terms
PyxisStepTime::Step(const Params& p, uint64_t chunkBytes, bool reduce, uint32_t step)
{
    NS_LOG_FUNCTION(chunkBytes << reduce << step);
    NS_ASSERT_MSG(p.clockHz > 0 && p.laneBytesPerSecond > 0 && p.rxBytesPerSecond > 0,
                  "rates must be positive");
    Terms t;
    t.barrierNs = p.barrierNs;
    const bool grant =
        p.grantWait == GRANT_EVERY_STEP || (p.grantWait == GRANT_FIRST_STEP && step == 0);
    t.grantNs = grant ? p.rttNs : 0;
    t.ctsNs = p.rxPrePosted ? 0 : p.rttNs;
    t.latencyNs = p.rttNs / 2;
    const double rate = std::min(p.laneBytesPerSecond, p.rxBytesPerSecond);
    t.transferNs = static_cast<double>(chunkBytes) / rate * 1e9;
    t.commitNs = p.commitCycles / p.clockHz * 1e9;
    t.reduceCycles = reduce ? ReduceCycles(p, chunkBytes) : 0;
    t.reduceNs = static_cast<double>(t.reduceCycles) / p.clockHz * 1e9;
    t.totalNs =
        t.barrierNs + t.grantNs + t.ctsNs + t.latencyNs + t.transferNs + t.commitNs + t.reduceNs;
    return t;
}

double
PyxisStepTime::AllReduceNs(const Params& p, uint64_t bytes, uint32_t chips, uint32_t clusters)
{
    NS_ASSERT_MSG(chips >= 1 && clusters >= 1, "at least one chip and one ring");
    if (chips == 1)
    {
        return 0;
    }
    const uint64_t chunk = CeilDiv(bytes, static_cast<uint64_t>(clusters) * chips);
    double total = 0;
    for (uint32_t s = 0; s < 2 * (chips - 1); ++s)
    {
        total += Step(p, chunk, s < chips - 1, s).totalNs;
    }
    return total;
}

double
PyxisStepTime::UniformAllReduceNs(const Params& p,
                                  uint64_t bytes,
                                  uint32_t chips,
                                  uint32_t clusters)
{
    NS_ASSERT_MSG(chips >= 1 && clusters >= 1, "at least one chip and one ring");
    const uint64_t chunk = CeilDiv(bytes, static_cast<uint64_t>(clusters) * chips);
    return 2.0 * (chips - 1) * Step(p, chunk, true).totalNs;
}

double
PyxisStepTime::AllGatherNs(const Params& p, uint64_t bytes, uint32_t chips, uint32_t clusters)
{
    NS_ASSERT_MSG(chips >= 1 && clusters >= 1, "at least one chip and one ring");
    const uint64_t chunk = CeilDiv(bytes, static_cast<uint64_t>(clusters) * chips);
    double total = 0;
    for (uint32_t s = 0; s + 1 < chips; ++s)
    {
        total += Step(p, chunk, false, s).totalNs;
    }
    return total;
}

} // namespace ns3
