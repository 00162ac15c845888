/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef POD_BUFFER_SAMPLER_H
#define POD_BUFFER_SAMPLER_H

#include "run-results.h"

#include "ns3/fabric-shared-buffer.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup pod
 * \brief Samples the shared-buffer occupancy of switches into a bounded time series
 * (bounded output: src/pod/doc/robustness.rst).
 *
 * Time is cut into intervals of a fixed length (output.sample-interval). For each switch the
 * sampler keeps, per interval in which the occupancy changed, one row: the largest occupancy
 * reached in the interval (the level it entered the interval with included) and the level at
 * the end of the interval. An interval without a change has no row: the occupancy stayed at
 * the end level of the switch's previous row. The sampler listens to each buffer's
 * `Occupancy` trace source and schedules no event, so it changes neither the event count nor
 * the results of the run; its cost is one comparison per change of occupancy.
 *
 * The largest max_bytes of a switch over its rows is exactly its peak occupancy
 * (FabricSharedBuffer::GetPeakOccupancy()), and a switch's last end_bytes is its occupancy when
 * the run ended (0 when everything drained): both are checked by the pod-output test suite.
 */
class BufferSampler
{
  public:
    /**
     * \param interval length of a sample interval (strictly positive)
     */
    explicit BufferSampler(Time interval);
    ~BufferSampler();

    BufferSampler(const BufferSampler&) = delete;
    BufferSampler& operator=(const BufferSampler&) = delete;

    /**
     * \brief Watch a switch's shared buffer.
     * \param index the switch's row index in the series (PodTopology::GetSwitches() order)
     * \param buffer its shared buffer
     */
    void Add(uint32_t index, Ptr<FabricSharedBuffer> buffer);

    /**
     * \brief Watch any switch whose buffer occupancy is a TracedValue<uint64_t> trace source
     * named "Occupancy", in bytes (a UALink switch's, UalinkSwitch::GetOccupancy()).
     * \param index the switch's row index in the series
     * \param source the object with the trace source
     * \param occupancy its occupancy now, in bytes
     */
    void Add(uint32_t index, Ptr<Object> source, uint64_t occupancy);

    /**
     * \brief Close the open intervals and append every row, ordered by switch then time.
     * Disconnects from the buffers.
     * \param series the table to fill
     */
    void Collect(RunResults::BufferSeries& series);

    /**
     * \brief Merge the rows of a series into intervals \p factor times longer (the largest
     * max_bytes, the last end_bytes of each merged group), as the output budget does.
     * \param series the table (ordered by switch then time, as Collect() makes it)
     * \param factor merge factor (>= 1)
     */
    static void Coarsen(RunResults::BufferSeries& series, uint32_t factor);

  private:
    /// One watched switch.
    struct Track
    {
        uint32_t index{0};              //!< row index of the switch
        Ptr<Object> source;             //!< its buffer, or the switch with the trace source
        int64_t interval{-1};           //!< open interval (-1: none yet)
        uint64_t max{0};                //!< largest occupancy in the open interval
        uint64_t last{0};               //!< current occupancy
        std::vector<int64_t> start;     //!< closed rows: interval index
        std::vector<uint64_t> maxBytes; //!< closed rows: max occupancy
        std::vector<uint64_t> endBytes; //!< closed rows: occupancy at the end
        BufferSampler* owner{nullptr};  //!< the sampler
        bool connected{false};          //!< connected to the trace source
        /**
         * The Occupancy trace sink.
         * \param oldValue previous occupancy
         * \param newValue new occupancy
         */
        void Changed(uint64_t oldValue, uint64_t newValue);
    };

    int64_t m_intervalPs;                         //!< interval length (ps)
    std::vector<std::unique_ptr<Track>> m_tracks; //!< watched switches
};

} // namespace ns3

#endif /* POD_BUFFER_SAMPLER_H */
