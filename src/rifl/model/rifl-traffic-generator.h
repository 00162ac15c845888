/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RIFL_TRAFFIC_GENERATOR_H
#define RIFL_TRAFFIC_GENERATOR_H

#include "rifl-cell.h"

#include "ns3/object.h"
#include "ns3/random-variable-stream.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup rifl
 * \brief The traffic of the RIFL switch evaluation (RIFL paper section V.A), cell by cell, for
 * every input of an N-port switch: each input sends BytesPerPair to every output.
 *
 * The input link is a sequence of packets (each cut into 256 B cells sent back to back, one per
 * cell time) separated by idle periods; Load is the fraction of cell times that carry a cell,
 * as in the iSLIP paper (McKeown 1999), whose method the RIFL paper follows:
 *
 * - **Bernoulli**: after each packet, the idle gap is geometric (P(g) = q (1 - q)^g, g >= 0)
 *   with q set so that the link is busy a fraction Load of the time; each packet picks its
 *   destination uniformly (Destinations). With one-cell packets this is the i.i.d. Bernoulli
 *   process: a cell in each cell time with probability Load.
 * - **Bursty**: a burst is a geometric number of packets (at least one) to one destination,
 *   with an expected BurstBytes (1024 B, section V.A) per burst; the idle period between bursts
 *   is geometric with the mean that gives Load.
 * - Packet sizes: Fixed (FixedBytes, a multiple of 256 B) or Variable (uniform integers from
 *   MinBytes to MaxBytes, 64 to 2048 B).
 *
 * With Sources = PerFlow, each input-output flow runs its own process of one-cell packets with
 * Load / N (bursts of different flows may overlap, so an input may get several cells in a cell
 * time; they queue at its NIC).
 *
 * Next() is called by the switch each cell time and input until it returns false (at most once
 * per cell time with PerInput); it allocates nothing.
 */
class RiflTrafficGenerator : public Object
{
  public:
    /// Arrival processes.
    enum Arrival
    {
        BERNOULLI, //!< i.i.d. packets, uniform destinations
        BURSTY,    //!< geometric bursts to one destination, geometric idle periods
    };

    /// How destinations are drawn.
    enum Destinations
    {
        UNIFORM, //!< i.i.d. uniform over all outputs; each input sends N x BytesPerPair
        EXACT,   //!< uniform over the outputs still owed data; each pair gets BytesPerPair
    };

    /// Where the arrival process runs.
    enum Sources
    {
        PER_INPUT, //!< one process per input link (at most one cell per cell time)
        PER_FLOW,  //!< one process per input-output flow (bursts of flows may overlap)
    };

    /// Packet sizes.
    enum SizeMode
    {
        FIXED,    //!< FixedBytes
        VARIABLE, //!< uniform from MinBytes to MaxBytes
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    RiflTrafficGenerator();
    ~RiflTrafficGenerator() override;

    /**
     * \brief Set up the per-input state.
     * \param ports N (every input sends to every output, itself included: the devices on the
     * input and the output side of a port are distinct in the paper's setup, 80 MB = 32 x 2.5 MB
     * per port)
     */
    void Setup(uint32_t ports);

    /**
     * \brief The cell input \p in puts on its link in cell time \p slot, if any.
     * \param in input port
     * \param slot the cell time (called with increasing slots)
     * \param[out] cell the cell
     * \return true if a cell arrives
     */
    bool Next(uint32_t in, uint64_t slot, RiflCell& cell);

    /// \return true once every input has generated all its data
    bool IsDone() const
    {
        return m_activeInputs == 0;
    }

    /// \return payload bytes generated so far
    uint64_t GetGeneratedBytes() const
    {
        return m_generatedBytes;
    }

    /// \return cells generated so far
    uint64_t GetGeneratedCells() const
    {
        return m_generatedCells;
    }

    /// \return total payload bytes the run will generate
    uint64_t GetTotalBytes() const;

    /// \return mean cells per packet of the size distribution
    double GetMeanCellsPerPacket() const;

    /// \return mean payload bytes per packet of the size distribution
    double GetMeanBytesPerPacket() const;

    /**
     * \brief Assign a fixed random variable stream number.
     * \param stream first stream
     * \return streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

  private:
    /// Per-input state.
    struct Input
    {
        std::vector<uint16_t> active;    //!< destinations still owed data
        std::vector<uint64_t> remaining; //!< bytes still owed, per destination (Exact)
        uint64_t total{0};               //!< bytes still to send (Uniform)
        uint64_t nextStart{0};           //!< cell time the next packet starts
        uint64_t pktBytes{0};            //!< bytes of the current packet not yet in cells
        uint16_t dst{0};                 //!< destination of the current packet / burst
        uint32_t burstLeft{0};           //!< packets left in the current burst after this one
        bool busy{false};                //!< a packet is being sent
        bool done{false};                //!< all data generated
        uint64_t lastSlot{0};            //!< 1 + the cell time of the last cell (0: none)
    };

    /// \return a geometric count g >= 0 with P(g) = q (1 - q)^g
    /// \param q success probability
    uint64_t Geometric(double q);
    /// \return a packet size
    uint64_t DrawSize();
    /// \brief Start a packet at \p in.
    /// \param in the input
    /// \param s its state
    void StartPacket(uint32_t in, Input& s);
    /// \brief Remove exhausted destination at index \p k of \p s.active.
    /// \param s the input
    /// \param k index
    void Retire(Input& s, std::size_t k);

    Arrival m_arrival{BERNOULLI};         //!< arrival process
    Destinations m_destinations{UNIFORM}; //!< destination draw
    Sources m_sources{PER_INPUT};         //!< where the process runs

    /// One flow's process (PerFlow).
    struct Flow
    {
        uint64_t nextStart{0}; //!< cell time its next burst starts
        uint32_t cellsLeft{0}; //!< cells left in the current burst
        uint64_t remaining{0}; //!< bytes still to send
    };

    std::vector<Flow> m_flows;          //!< per input x output (PerFlow)
    std::vector<uint32_t> m_flowCursor; //!< per input: next flow to look at in this cell time
    std::vector<uint64_t> m_flowSlot;   //!< per input: the cell time of the cursor
    std::vector<uint32_t> m_flowsLeft;  //!< per input: flows with data left
    /// \brief PerFlow: the next cell of \p in in cell time \p slot.
    /// \param in input
    /// \param slot cell time
    /// \param cell the cell
    /// \return true if one
    bool NextFlow(uint32_t in, uint64_t slot, RiflCell& cell);
    SizeMode m_sizeMode{FIXED};       //!< size distribution
    double m_load{0.9};               //!< offered load (busy fraction of the input link)
    uint32_t m_fixedBytes{256};       //!< fixed packet size
    uint32_t m_minBytes{64};          //!< variable: minimum
    uint32_t m_maxBytes{2048};        //!< variable: maximum
    uint32_t m_burstBytes{1024};      //!< bursty: expected bytes per burst
    uint64_t m_bytesPerPair{2621440}; //!< data from each input to each output
    uint32_t m_segment{256};          //!< Layer 2 segment
    uint32_t m_ports{0};              //!< N
    double m_gapQ{1};                 //!< geometric parameter of idle gaps
    double m_burstQ{1};               //!< geometric parameter of burst lengths (packets)
    std::vector<Input> m_inputs;      //!< per input
    uint32_t m_activeInputs{0};       //!< inputs with data left
    uint64_t m_generatedBytes{0};     //!< payload bytes generated
    uint64_t m_generatedCells{0};     //!< cells generated
    Ptr<UniformRandomVariable> m_rng; //!< randomness
};

} // namespace ns3

#endif /* RIFL_TRAFFIC_GENERATOR_H */
