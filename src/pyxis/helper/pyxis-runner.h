/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PYXIS_RUNNER_H
#define PYXIS_RUNNER_H

#include "ns3/pyxis-endpoint-binding.h"
#include "ns3/pyxis-fabric-binding.h"
#include "ns3/pyxis-layer-program.h"
#include "ns3/pyxis-model-spec.h"
#include "ns3/pyxis-timeline-recorder.h"
#include "ns3/pyxis-trip-program.h"

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace ns3
{

class CellFabricAdapter;
class FabricEndpoint;

/**
 * \ingroup pyxis
 * \brief Runs a Pyxis model on the endpoints of any fabric: the setup shared by pyxis-run and
 * the pod experiment's `kind: pyxis` workload.
 *
 * Setup() creates a PyxisChip per chip of the model (chip i on endpoint i) and binds its RDMA
 * queues to the fabric: through a PyxisFabricBinding (the cell fabric's explicit RDMA job API)
 * when every chip's endpoint is a CellFabricAdapter with RdmaJobPosting Explicit, else through a
 * PyxisEndpointBinding (the endpoint API: Send and the Delivered/Completed traces). It builds
 * each chip's trips with a PyxisTripProgram (which submits them: they start when the simulation
 * runs) and has a PyxisTimelineRecorder watch it. After Simulator::Run(), and before
 * Simulator::Destroy(), Collect() reads the counts; WriteTables() writes /pyxis/trips and
 * /pyxis/layers (the schema of analysis/pyxis_timeline.py) into an HDF5 file.
 */
class PyxisRunner
{
  public:
    /// What a run did.
    struct Summary
    {
        uint32_t chips{0};    //!< chips that ran a program
        uint32_t layers{0};   //!< layers of the model (repeats expanded)
        uint64_t trips{0};    //!< trips recorded
        uint64_t jobs{0};     //!< RDMA Tx jobs completed
        uint64_t open{0};     //!< RDMA jobs still open (0: the run completed)
        uint64_t txBytes{0};  //!< bytes of the completed RDMA Tx jobs
        uint64_t rxBytes{0};  //!< bytes of the completed RDMA Rx jobs
        uint64_t early{0};    //!< endpoint API: Rx jobs whose message came before their post
        double endNs{0};      //!< the last trip's end (ns)
        bool complete{false}; //!< no job open and every trip that takes time ended
    };

    /**
     * Build and submit every chip's program on the endpoints of any fabric. Chip i runs on
     * endpoints[i]: with a PyxisFabricBinding if every chip's endpoint is a CellFabricAdapter
     * with RdmaJobPosting Explicit, else with a PyxisEndpointBinding (a mix of the two is
     * refused).
     * \param spec the model
     * \param endpoints the fabric's endpoints, at least spec.GetChips() of them
     * \param rxPosting how the Rx jobs are posted
     * \param error set when it fails
     * \return false if a program cannot be built (error says why)
     */
    bool Setup(const PyxisModelSpec& spec,
               const std::vector<Ptr<FabricEndpoint>>& endpoints,
               PyxisTripProgram::RxPosting rxPosting,
               std::string& error);

    /**
     * Set every adapter's RdmaJobPosting to Explicit, then Setup() on them as endpoints: the
     * chips use the cell fabric's explicit RDMA job API (PyxisFabricBinding).
     * \param spec the model
     * \param adapters the fabric adapters, at least spec.GetChips() of them
     * \param rxPosting how the Rx jobs are posted
     * \param error set when it fails
     * \return false if a program cannot be built (error says why)
     */
    bool Setup(const PyxisModelSpec& spec,
               const std::vector<Ptr<CellFabricAdapter>>& adapters,
               PyxisTripProgram::RxPosting rxPosting,
               std::string& error);

    /// \return true if the chips are bound through the endpoint API (PyxisEndpointBinding)
    bool UsesEndpointApi() const
    {
        return !m_endpointBindings.empty();
    }

    /// \return the counts of the run (call after Simulator::Run, before Simulator::Destroy)
    Summary Collect() const;

    /// \return the recorder
    const PyxisTimelineRecorder& GetRecorder() const;

    /**
     * \return the fraction of the trips that take time (every trip but the no-op joins) that
     * have ended, 0 to 1 (1 when there are none): the run's progress
     */
    double GetProgress() const;

    /**
     * Write the /pyxis group (trips and layers column datasets) into an HDF5 file.
     * \param path the file
     * \param truncate true: create or truncate it; false: open an existing file and add the group
     * \return false on an HDF5 error
     */
    bool WriteTables(const std::string& path, bool truncate) const;

    /**
     * \param s "pre-posted" or "late"
     * \param posting set to the posting mode
     * \return false if s is neither
     */
    static bool ParseRxPosting(const std::string& s, PyxisTripProgram::RxPosting& posting);

  private:
    uint32_t m_layers{0};                    //!< layers of the model
    uint64_t m_timedTrips{0};                //!< trips built that take time (not the no-op joins)
    std::deque<PyxisTripProgram> m_programs; //!< by chip (stable addresses)
    /**
     * Create chip i, bind it and build its program.
     * \param program the chip's operations
     * \param endpoints the endpoints (chip i on endpoints[i])
     * \param explicitApi bind with a PyxisFabricBinding (else a PyxisEndpointBinding)
     * \param accelerators the accelerator id of each chip's endpoint
     * \param options the trip program's options
     * \param error set when it fails
     * \return false if the program cannot be built
     */
    bool SetupChip(const PyxisLayerProgram::ChipProgram& program,
                   const std::vector<Ptr<FabricEndpoint>>& endpoints,
                   bool explicitApi,
                   const std::vector<uint32_t>& accelerators,
                   const PyxisTripProgram::Options& options,
                   std::string& error);

    std::vector<Ptr<PyxisFabricBinding>> m_bindings;           //!< by chip (cell explicit API)
    std::vector<Ptr<PyxisEndpointBinding>> m_endpointBindings; //!< by chip (endpoint API)
    PyxisTimelineRecorder m_recorder;                          //!< the timeline
};

} // namespace ns3

#endif // PYXIS_RUNNER_H
