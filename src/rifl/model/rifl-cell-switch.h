/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RIFL_CELL_SWITCH_H
#define RIFL_CELL_SWITCH_H

#include "rifl-cell.h"

#include "ns3/event-id.h"
#include "ns3/fabric-islip-scheduler.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

class RiflTrafficGenerator;

/**
 * \ingroup rifl
 * \brief The RIFL switch in cell time (RIFL paper sections IV.C-D and V.A), with its N source
 * NICs, as the paper simulates it: a cell-time (slot) model, one scheduler event per cell time.
 *
 * Per input port: the source NIC keeps one queue per destination (the per-VOQ flow control of
 * section IV.D pauses one destination at a time) and puts at most one cell per cell time on its
 * link, round robin over the destinations that are not paused; the link takes LinkDelay cell
 * times. The switch keeps a virtual output queue per input and output (statically allocated,
 * VoqCells each, section IV.C). When a VOQ's occupancy just exceeds FcOnCells the switch sends
 * an FC frame with FC ON for that VOQ; when it just drops to FcOffCells, one with FC OFF (one of
 * each per frame and cell time); frames take LinkDelay to reach the NIC.
 *
 * Every cell time the scheduler picks a conflict-free matching, which the Batcher-Banyan network
 * delivers in one cell time (section IV.C):
 *
 * - Islip: iSLIP with Iterations iterations (3 for the 32-port switch);
 * - Safc: the ideal statically allocated fully connected switch (section V.A, Tamir and Frazier
 *   1988): N^2 queues and paths, each output takes one cell per cell time from its inputs round
 *   robin, and an input may feed several outputs at once;
 * - Fifo: a plain input-queued switch without VOQs (one FIFO per input, whole-link ON/OFF flow
 *   control as in the original RIFL Layer 1), for comparison (head-of-line blocking).
 *
 * Latency of a cell (in cell times) = the time from its generation to its crossing of the
 * switch fabric, minus the link delay, plus FixedLatency (17 cell times, section V.A: the delay
 * of everything but the VOQ and the scheduler: Layer 1, cable, transceivers), plus the one cell
 * time of the crossing; an unloaded switch gives FixedLatency + 1 = 18, the minimum of Table I.
 */
class RiflCellSwitch : public Object
{
  public:
    /// Switch architectures.
    enum Scheduler
    {
        ISLIP, //!< VOQ + iSLIP + Batcher-Banyan (the RIFL switch)
        SAFC,  //!< ideal statically allocated fully connected switch
        FIFO,  //!< input-queued FIFO switch, no VOQ
    };

    /// Source NIC queueing.
    enum NicQueue
    {
        PER_DESTINATION, //!< one queue per destination: a paused VOQ blocks only its own cells
        NIC_FIFO,        //!< one FIFO: a paused head-of-line cell blocks the link
    };

    /// How a SAFC output picks among its inputs.
    enum SafcOrder
    {
        SAFC_ROUND_ROBIN, //!< round robin over inputs with a cell for it
        SAFC_OLDEST,      //!< the cell that reached the switch first (output-queued FCFS)
    };

    /// Where a cell's latency starts.
    enum LatencyFrom
    {
        GENERATION,   //!< when the source generates it (source queueing included)
        SWITCH_INPUT, //!< when it is fully received at the switch input
    };

    /// Drop reasons (none expected: per-VOQ flow control keeps the VOQs from overflowing).
    static constexpr const char* VOQ_OVERFLOW = "VoqOverflow"; //!< VOQ full on arrival

    /// Results of a run.
    struct Stats
    {
        uint64_t cells{0};                      //!< cells switched
        uint64_t payloadBytes{0};               //!< valid payload bytes switched
        uint64_t slots{0};                      //!< cell times simulated
        uint64_t firstSlot{0};                  //!< first cell time with traffic
        uint64_t lastSlot{0};                   //!< last crossing
        uint64_t fcFrames{0};                   //!< per-VOQ flow control frames sent
        uint64_t fcOn{0};                       //!< FC ON channels sent
        uint64_t fcOff{0};                      //!< FC OFF channels sent
        uint32_t peakVoq{0};                    //!< largest VOQ occupancy seen (cells)
        std::map<std::string, uint64_t> drops;  //!< drops by reason
        std::vector<uint64_t> latencyHistogram; //!< cells per latency (cell times)
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    RiflCellSwitch();
    ~RiflCellSwitch() override;

    /**
     * \brief Attach the traffic (one generator serves all inputs).
     * \param gen the generator
     */
    void SetTrafficGenerator(Ptr<RiflTrafficGenerator> gen);

    /// \brief Size the queues and schedule the first cell time (at the current time).
    void Start();

    /// \return the counters
    const Stats& GetStats() const
    {
        return m_stats;
    }

    /**
     * \brief A latency percentile (nearest rank).
     * \param p fraction, 0 to 1 (1 gives the maximum)
     * \return latency in cell times
     */
    uint32_t GetLatencyPercentile(double p) const;

    /// \return mean latency in cell times
    double GetMeanLatency() const;

    /**
     * \return aggregate bandwidth utilization: payload bytes switched over the line capacity of
     * all N outputs (SegmentBytes per cell time) from the first generated cell to the last
     * crossing (RIFL paper section V.A.1)
     */
    double GetUtilization() const;

    /// \return cell times that ran the scheduler (= events scheduled)
    uint64_t GetEvents() const
    {
        return m_events;
    }

    /// \return the scheduler (iSLIP / SAFC arbiters)
    Ptr<FabricIslipScheduler> GetScheduler() const
    {
        return m_sched;
    }

    /// \return the number of ports
    uint32_t GetPorts() const
    {
        return m_ports;
    }

    /// \return the cell time
    Time GetCellTime() const
    {
        return m_cellTime;
    }

    /// \return the effective VOQ size in cells
    uint32_t GetVoqCells() const
    {
        return m_voqCap;
    }

    /**
     * TracedCallback signature for switched cells.
     * \param in input port
     * \param out output port
     * \param latency latency in cell times
     */
    typedef void (*CellTracedCallback)(uint32_t in, uint32_t out, uint32_t latency);

    /**
     * TracedCallback signature for drops.
     * \param reason the drop reason
     * \param in input port
     */
    typedef void (*DropTracedCallback)(std::string reason, uint32_t in);

  protected:
    void DoDispose() override;

  private:
    /// \brief One cell time.
    void Slot();
    /// \brief A cell arrives at the switch input \p in.
    /// \param in input
    /// \param c the cell
    void Arrive(uint32_t in, const RiflCell& c);
    /// \brief The cell at the head of VOQ (in, out) (or FIFO in) crosses the fabric.
    /// \param in input
    /// \param out output
    void Cross(uint32_t in, uint32_t out);

    /// \return queue index of (in, out)
    /// \param in input
    /// \param out output
    uint32_t Q(uint32_t in, uint32_t out) const
    {
        return m_scheduler == FIFO ? in : in * m_ports + out;
    }

    /// \brief Queue an FC event for input \p in's NIC.
    /// \param in input
    /// \param channel VOQ id (destination), 0 for Fifo
    /// \param on FC ON (pause) or FC OFF (resume)
    void SendFc(uint32_t in, uint32_t channel, bool on);

    /// Flow control bits on their way to a NIC.
    struct FcFrame
    {
        uint64_t on{0};  //!< FC ON channels
        uint64_t off{0}; //!< FC OFF channels
    };

    // Attributes.
    uint32_t m_ports{32};                    //!< N
    Scheduler m_scheduler{ISLIP};            //!< architecture
    Time m_cellTime;                         //!< cell time
    uint32_t m_fixedLatency{17};             //!< cell times of everything but VOQ and scheduler
    uint32_t m_linkDelay{8};                 //!< NIC to switch, cell times
    uint32_t m_voqCells{0};                  //!< VOQ size (0: 1.5 round trips)
    uint32_t m_fcOn{0};                      //!< FC ON threshold (0: VOQ minus one round trip)
    uint32_t m_fcOff{0};                     //!< FC OFF threshold (0: half of FC ON)
    uint32_t m_segment{256};                 //!< cell payload
    SafcOrder m_safcOrder{SAFC_ROUND_ROBIN}; //!< SAFC arbitration
    NicQueue m_nicQueue{PER_DESTINATION};    //!< source queueing
    LatencyFrom m_latencyFrom{SWITCH_INPUT}; //!< latency origin

    // State.
    Ptr<FabricIslipScheduler> m_sched; //!< arbiters
    Ptr<RiflTrafficGenerator> m_gen;   //!< traffic
    uint32_t m_voqCap{0};              //!< effective VOQ size
    uint32_t m_on{0};                  //!< effective FC ON
    uint32_t m_off{0};                 //!< effective FC OFF
    std::vector<RiflCellRing> m_nicQ;  //!< per input x destination (Fifo: per input)
    std::vector<uint64_t> m_nicBusy;   //!< per input: destinations with cells at the NIC
    std::vector<uint64_t> m_paused;    //!< per input: paused destinations
    std::vector<uint32_t> m_nicPtr;    //!< per input: round-robin pointer
    std::vector<uint64_t> m_fcSent;    //!< per input: VOQs with FC ON outstanding
    std::vector<RiflCell> m_wire;      //!< per input x LinkDelay: cells on the link
    std::vector<uint8_t> m_wireValid;  //!< per input x LinkDelay: slot used
    std::vector<FcFrame> m_fcWire;     //!< per input x LinkDelay: FC on the link
    std::vector<RiflCellRing> m_voq;   //!< per input x output (Fifo: per input)
    uint64_t m_slot{0};                //!< current cell time
    uint64_t m_inSystem{0};            //!< cells at NICs, on links and in VOQs
    uint64_t m_events{0};              //!< cell-time events
    EventId m_event;                   //!< next cell time
    Stats m_stats;                     //!< results
    TracedCallback<uint32_t, uint32_t, uint32_t> m_cellTrace; //!< cell crossed
    TracedCallback<std::string, uint32_t> m_dropTrace;        //!< cell dropped
};

} // namespace ns3

#endif /* RIFL_CELL_SWITCH_H */
