/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PYXIS_TIMELINE_RECORDER_H
#define PYXIS_TIMELINE_RECORDER_H

#include "pyxis-trip-program.h"

#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class PyxisChip;

/**
 * \ingroup pyxis
 * \brief Records the trips of chips built by PyxisTripProgram (their TripEnd trace: start and
 * end of each trip's work) and derives the per-layer table, in the schema of
 * analysis/pyxis_timeline.py (/pyxis/trips and /pyxis/layers).
 *
 * A trip row is (chip, cluster, engine = queue id, trip_id, layer, kind code: 0 compute, 1
 * comm, 2 dma, 3 reduce, start_ns, end_ns); no-op (join) trips, which take no time, are left
 * out. A layer row is (chip, layer, start_ns, end_ns, compute_ns, exposed_comm_ns) as
 * layer_summary defines it: the first start and last end of the layer's trips, the time covered
 * by a compute trip, and the time covered by a comm or reduce trip and no compute trip.
 */
class PyxisTimelineRecorder
{
  public:
    /// One trip row.
    struct Trip
    {
        uint32_t chip{0};    //!< chip
        uint32_t cluster{0}; //!< cluster
        uint32_t engine{0};  //!< queue id (Pyxis spec Table 11-1)
        uint32_t tripId{0};  //!< trip id
        uint32_t layer{0};   //!< layer
        uint32_t kind{0};    //!< 0 compute, 1 comm, 2 dma, 3 reduce
        double startNs{0};   //!< start of its work
        double endNs{0};     //!< end of its work
    };

    /// One layer row.
    struct Layer
    {
        uint32_t chip{0};        //!< chip
        uint32_t layer{0};       //!< layer
        double startNs{0};       //!< first trip start
        double endNs{0};         //!< last trip end
        double computeNs{0};     //!< covered by compute trips
        double exposedCommNs{0}; //!< covered by comm or reduce trips and no compute trip
    };

    /**
     * Record a chip's trips.
     * \param chip the chip (its TripEnd trace is connected)
     * \param program the trips built on it (kept by reference: it must outlive the run)
     */
    void Watch(Ptr<PyxisChip> chip, const PyxisTripProgram* program);

    /// \return the trip rows, in the order the trips ended
    const std::vector<Trip>& GetTrips() const
    {
        return m_trips;
    }

    /// \return the layer rows, sorted by chip then layer
    std::vector<Layer> GetLayers() const;

  private:
    /**
     * TripEnd sink.
     * \param chip chip id
     * \param cluster cluster
     * \param queue queue
     * \param id trip id
     * \param start start
     * \param end end
     */
    void TripEnd(uint32_t chip,
                 uint32_t cluster,
                 uint32_t queue,
                 uint32_t id,
                 Time start,
                 Time end);

    std::vector<const PyxisTripProgram*> m_programs; //!< by chip id
    std::vector<Trip> m_trips;                       //!< rows
};

} // namespace ns3

#endif /* PYXIS_TIMELINE_RECORDER_H */
