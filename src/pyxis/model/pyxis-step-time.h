/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PYXIS_STEP_TIME_H
#define PYXIS_STEP_TIME_H

#include "pyxis-model-spec.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup pyxis
 * \brief The closed form of one ring step of a tensor-parallel collective and of the whole
 * all-reduce or all-gather (pyxis.rst, "Step-time formula", from Pyxis spec 5.3, 10.1, 10.3,
 * 10.8.8 and 11.7.2), with every term a parameter, for comparison with the simulated time.
 *
 * \code
 * T_step = T_barrier + [RTT if the VOQ is idle (grantWait)] + [RTT if the Rx job is not
 *          pre-posted (CTS)]
 *          + RTT/2 + chunk / min(lane rate, Rx rate) + commit cycles / f + T_reduce
 * T_reduce = VPU: ceil(chunk/b / 128) * max(1, b) cycles (FP16: 2 per 128 elements)
 *          | InMemAdd: ceil(chunk / 128) cycles               (only in reducing steps)
 * T_AR = sum over steps 0 .. 2P-3 of T_step (reduce in steps 0 .. P-2: reduce-scatter, then
 *        all-gather)
 * T_AG = sum over steps 0 .. P-2 of T_step (no reduce)
 * \endcode
 * UniformAllReduceNs() is T_AR = 2(P-1) T_step with T_reduce in every step (every step
 * alike). The all-gather half of a ring all-reduce adds nothing (the received chunk
 * is written in place), so AllReduceNs() counts T_reduce in the first P-1 steps only; the two
 * differ by (P-1) T_reduce.
 */
class PyxisStepTime
{
  public:
    /// Which steps find their VOQ idle and wait a request/grant round trip.
    enum GrantWait
    {
        GRANT_EVERY_STEP, //!< every step (the VOQ drains while the previous chunk is added)
        GRANT_FIRST_STEP, //!< only step 0 (grants keep flowing between steps)
        GRANT_NEVER,      //!< none (grants already held)
    };

    /// The terms' parameters (defaults: pyxis.rst, "Step-time formula").
    struct Params
    {
        double clockHz{1.33e9};                //!< chip clock f (section 1)
        double barrierNs{0};                   //!< T_barrier: notify to release of the next trip
        double rttNs{2000};                    //!< fabric round trip (spec: ~2 us)
        GrantWait grantWait{GRANT_EVERY_STEP}; //!< which steps wait a request/grant RTT
        bool rxPrePosted{true};                //!< Rx jobs pre-posted: the CTS round trip is hidden
        double laneBytesPerSecond{100e9};      //!< one cluster's fabric lane (~100 GB/s)
        double rxBytesPerSecond{170.24e9};     //!< Rx DMA into AMEM: 128 B/cycle at f
        uint32_t commitCycles{100};            //!< AMEM write commit before the notify
        uint32_t vpuLanes{128};                //!< VPU elements per row
        PyxisModelSpec::Reduction reduction{PyxisModelSpec::VPU}; //!< how the chunk is added
        PyxisModelSpec::Dtype dtype{PyxisModelSpec::FP16};        //!< element type
    };

    /// One step's terms, in ns.
    struct Terms
    {
        double barrierNs{0};      //!< T_barrier
        double grantNs{0};        //!< request/grant round trip (VOQ idle)
        double ctsNs{0};          //!< CTS round trip (Rx not pre-posted)
        double latencyNs{0};      //!< RTT/2 one-way
        double transferNs{0};     //!< chunk / min(lane, Rx)
        double commitNs{0};       //!< commit cycles / f
        double reduceNs{0};       //!< T_reduce
        uint64_t reduceCycles{0}; //!< T_reduce in cycles
        double totalNs{0};        //!< the sum: T_step
    };

    /**
     * One ring step.
     * \param p the parameters
     * \param chunkBytes the chunk (S / (4P))
     * \param reduce whether the step adds the chunk
     * \param step the step's index (0 is the first; see GrantWait)
     * \return its terms
     */
    static Terms Step(const Params& p, uint64_t chunkBytes, bool reduce, uint32_t step = 0);

    /**
     * \param p the parameters
     * \param chunkBytes the chunk
     * \return the reduce cycles of a chunk (see the class description)
     */
    static uint64_t ReduceCycles(const Params& p, uint64_t chunkBytes);

    /**
     * A ring all-reduce of S bytes per chip over P chips as `clusters` rings of S/clusters.
     * \param p the parameters
     * \param bytes S
     * \param chips P (at least 1; 0 ns for 1)
     * \param clusters rings per chip (4)
     * \return T_AR in ns: (P-1) reducing steps then (P-1) plain ones, chunk ceil(S/(clusters P))
     */
    static double AllReduceNs(const Params& p,
                              uint64_t bytes,
                              uint32_t chips,
                              uint32_t clusters = 4);

    /**
     * Every step alike: T_AR = 2(P-1) T_step, T_reduce in every step (and the grant wait of
     * step 0 in every step: use it with GRANT_EVERY_STEP or GRANT_NEVER).
     * \param p the parameters
     * \param bytes S
     * \param chips P
     * \param clusters rings per chip
     * \return ns
     */
    static double UniformAllReduceNs(const Params& p,
                                     uint64_t bytes,
                                     uint32_t chips,
                                     uint32_t clusters = 4);

    /**
     * A ring all-gather whose gathered whole is S bytes.
     * \param p the parameters
     * \param bytes S
     * \param chips P
     * \param clusters rings per chip
     * \return T_AG in ns: P-1 plain steps of ceil(S/(clusters P))
     */
    static double AllGatherNs(const Params& p,
                              uint64_t bytes,
                              uint32_t chips,
                              uint32_t clusters = 4);
};

} // namespace ns3

#endif /* PYXIS_STEP_TIME_H */
