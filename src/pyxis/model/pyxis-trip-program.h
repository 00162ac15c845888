/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PYXIS_TRIP_PROGRAM_H
#define PYXIS_TRIP_PROGRAM_H

#include "pyxis-layer-program.h"
#include "pyxis-trip.h"
#include "pyxis-uie-model.h"

#include "ns3/ptr.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ns3
{

class PyxisChip;

/**
 * \ingroup pyxis
 * \brief Turns one chip's PyxisLayerProgram::ChipProgram into trips and barriers on a PyxisChip
 * (Pyxis spec 10.3-10.4, 11.2-11.6; the design is in pyxis.rst, "Running a model").
 *
 * Every operation ends in a chip-wide join: per cluster, its trips notify a local barrier
 * B_out (notify count = its trips, at most 12 for UIE trips), a no-op MPE trip (0 cycles,
 * 11.4.2's way to extend a notify list) waits on it and notifies the next operation's input
 * barrier of every cluster (notify count = clusters). A ComputeOp is one UIE trip per UieShare
 * (cycles from PyxisUieModel, less the model's commit, which the UIE engine adds itself). A
 * CommOp runs its ring of each cluster on that cluster's RDMA queues: for step k the Rx job(s)
 * notify B_rx[k]; a reducing step's add (UIE trip of the step's reduce cycles, on UIE k mod 12)
 * waits on B_rx[k] and notifies B_red[k]; the Tx job(s) of step k wait on the input barrier
 * (k = 0) or the previous step's B_red / B_rx; the last step's barrier is the collective's
 * B_out. The Tx ACKs (buffers and TJIDs free again) notify Tx barriers (at most 31 jobs each)
 * whose no-op trips release the next collective's first Tx of that cluster. Rx jobs are
 * pre-posted (the first Rx trip waits on the input barrier of the operation before the
 * collective, the others follow at once) or posted late (each waits on what its step's Tx waits
 * on). Jobs above 65,536 words (8 MiB) are split; TJIDs and RJIDs are taken in the same order on
 * every chip (a per-cluster counter modulo 256), so the sender and the receiver of a step agree.
 * Barrier ids are the ids free in the chip's tables, used in a ring: an id's first use is set
 * (set_ref_counts) before the trips are submitted, a later use by a barrier-config trip of its
 * layer L (11.4.11), the first of layer L waiting on layer L-1's input barrier; an id is reused
 * 3 layers later at the earliest.
 *
 * A DataParallelOp runs the collective module's schedule (CollectiveAlgorithm::GetStep of the
 * named algorithm, one instance per cluster on S/clusters) on RDMA queues 1: its sends are Tx
 * jobs, its receives pre-posted Rx jobs, a reducing step adds a VPU trip (queued after the whole
 * program's compute), a step's sends wait on the end of the previous receiving step. It has no
 * join: nothing later reads it, it only has to end before the run does.
 */
class PyxisTripProgram
{
  public:
    /// When the Rx jobs of a collective are posted.
    enum RxPosting
    {
        RX_PRE_POSTED, //!< with the compute before the collective (the CTS of 10.3 goes early)
        RX_LATE,       //!< each step's Rx job with its Tx job (waits on the same barrier)
    };

    /// Trip kinds of the timeline (analysis/pyxis_timeline.py).
    enum Kind
    {
        COMPUTE, //!< UIE trip of a compute operation
        COMM,    //!< RDMA Tx or Rx trip
        DMA,     //!< HBM or inter-cluster DMA (none built yet)
        REDUCE,  //!< the add of a reducing ring step
        NOOP,    //!< no-op (join) trip
    };

    /// Builder options.
    struct Options
    {
        RxPosting rxPosting{RX_PRE_POSTED}; //!< Rx job posting
        uint32_t pageSizeWords{125};        //!< Tx jobs' PageSizeWords
        uint32_t txOq{1};                   //!< OQ of the Tx VOQs (10.2; RDMA data [assumption])
        uint32_t msgOq{0};                  //!< OQ of the Rx jobs' message VOQ back to the sender
        PyxisUieParams uie;                 //!< the kernel model's parameters
    };

    /// What one trip is (by trip id).
    struct TripInfo
    {
        uint32_t tripId{0};  //!< its id (unique on the chip)
        uint32_t cluster{0}; //!< cluster
        uint32_t queue{0};   //!< queue id
        uint32_t layer{0};   //!< layer index
        uint32_t op{0};      //!< operation index in the layer
        Kind kind{COMPUTE};  //!< kind
        uint32_t step{0};    //!< ring or schedule step (COMM, REDUCE)
        uint64_t bytes{0};   //!< the RDMA job's bytes (COMM)
    };

    /**
     * The VOQ id of (chip, cluster, OQ) (the adapter's VOQ table; UINT32_MAX if unmapped).
     */
    typedef std::function<uint32_t(uint32_t chip, uint32_t cluster, uint32_t oq)> VoqMap;

    /**
     * Build and submit a chip's program.
     * \param program the chip's operations
     * \param chip the chip (built; its id is program.chip)
     * \param voq the VOQ map
     * \param options the options
     * \param[out] error why, if refused (naming chip, layer, operation and the limit)
     * \return false if refused (nothing submitted)
     */
    bool Build(const PyxisLayerProgram::ChipProgram& program,
               Ptr<PyxisChip> chip,
               VoqMap voq,
               const Options& options,
               std::string& error);

    /// \return every trip built, indexed by trip id (entry 0 unused)
    const std::vector<TripInfo>& GetTrips() const
    {
        return m_trips;
    }

    /**
     * \param layer a layer index
     * \return the join trips (one per cluster) that end it: the next layer waits on their
     * barriers
     */
    const std::vector<uint32_t>& GetLayerJoins(uint32_t layer) const
    {
        return m_layerJoins.at(layer);
    }

    /// \return layers built
    uint32_t GetLayers() const
    {
        return m_layerJoins.size();
    }

    /**
     * Cycles of one UIE's share of a compute operation: PyxisUieModel's totalCycles (GEMM: m =
     * 128 units, k = kSlice, n = 128, weights read at any K; 3x3: units row groups; VPU: the
     * share's elements) less its commit (drainCommitCycles), which the UIE engine charges.
     * \param model the kernel model
     * \param op the operation
     * \param share the UIE's share
     * \return cycles
     */
    static uint64_t ShareCycles(const PyxisUieModel& model,
                                const PyxisLayerProgram::ComputeOp& op,
                                const PyxisLayerProgram::UieShare& share);

    /**
     * \param kind a kind
     * \return "compute", "comm", "dma", "reduce" or "noop"
     */
    static std::string KindName(Kind kind);

  private:
    class Builder; // the steps of one Build (pyxis-trip-program.cc)

    std::vector<TripInfo> m_trips{TripInfo()};       //!< by trip id
    std::vector<std::vector<uint32_t>> m_layerJoins; //!< join trips per layer
};

} // namespace ns3

#endif /* PYXIS_TRIP_PROGRAM_H */
