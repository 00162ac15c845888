/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef COLLECTIVE_EXECUTOR_H
#define COLLECTIVE_EXECUTOR_H

#include "collective-algorithm.h"

#include "ns3/fabric-endpoint.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <map>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup collective
 * \brief Runs the schedule of one collective on the accelerators of its communicator, using
 * only the endpoint API (FabricEndpoint::Send and the delivered/completed notifications).
 *
 * Rank r of the communicator is the accelerator of endpoints[r]. Each rank runs the algorithm's
 * steps in order; a step posts its sends, and ends when its receives have arrived, its sends
 * have completed (as the fabric defines completion) and the reduction of the received bytes is
 * done (ReduceTimePerByte times the bytes reduced in the step, on one reduction engine per rank).
 *
 * Chunking: the data is split into Chunks equal parts (every operation of the schedule carries
 * bytes/Chunks, at least one byte), and each chunk runs the whole schedule on its own; a rank runs
 * at most ChunksInFlight chunks at once (0: all of them). With several chunks in flight, chunk c
 * of step k+1 is forwarded as soon as chunk c of step k has arrived while later chunks are still
 * on the wire: a pipeline.
 *
 * Multi-plane striping: Stripes > 1 posts each send as that many sub-messages (bytes split
 * evenly), so that a NIC that picks a plane per message (round-robin) spreads one step over its
 * planes. The plain NIC's default plane selection, spray, already spreads every message's
 * packets over all planes, so Stripes = 1 is right there.
 *
 * Messages are tagged with CollectiveDispatcher::MakeCookie(instance, step, chunk, tag); a
 * message that arrives before its receiver has reached the step is counted and consumed when the
 * receiver gets there. Data-carrying mode (CarryData) gives every rank a value per block
 * (InitialValue) and applies the schedule's copy and reduce semantics to them as messages are
 * received, so that CheckData can verify the result: meant for tiny tests.
 */
class CollectiveExecutor : public Object
{
  public:
    /// Timing of one step, over every rank and chunk.
    struct StepTiming
    {
        int64_t startPs{-1}; //!< first start of the step by any rank (ps)
        int64_t endPs{-1};   //!< last end of the step (ps)
        uint64_t bytes{0};   //!< bytes sent in the step by all ranks
    };

    /// A block's value in data-carrying mode.
    struct Block
    {
        bool valid{false};                   //!< the rank holds the block
        double value{0};                     //!< sum of the contributions' initial values
        std::vector<uint16_t> contributions; //!< per rank: times its value was added
    };

    /// Called when every rank has finished.
    typedef Callback<void, Ptr<CollectiveExecutor>> DoneCallback;
    /// Called when one rank has finished.
    typedef Callback<void, Ptr<CollectiveExecutor>, uint32_t> RankDoneCallback;

    /**
     * TracedCallback signature for a finished step.
     * \param rank the rank
     * \param step the step
     * \param chunk the chunk
     * \param start when the rank began the step
     * \param end when it finished it
     */
    typedef void (
        *StepTracedCallback)(uint32_t rank, uint32_t step, uint32_t chunk, Time start, Time end);

    static TypeId GetTypeId();
    CollectiveExecutor();
    ~CollectiveExecutor() override;

    /**
     * \param algorithm a prepared algorithm
     * \param endpoints the endpoint of each rank
     * \param instance the id the cookies carry (from CollectiveDispatcher::Register)
     */
    void Setup(Ptr<CollectiveAlgorithm> algorithm,
               const std::vector<Ptr<FabricEndpoint>>& endpoints,
               uint32_t instance);

    /// Start every rank now.
    void Start();

    /**
     * Start one rank now (a rank that has not started still buffers early arrivals).
     * \param rank the rank
     */
    void StartRank(uint32_t rank);

    /// \param cb called once every rank has finished
    void SetDoneCallback(DoneCallback cb);
    /// \param cb called as each rank finishes
    void SetRankDoneCallback(RankDoneCallback cb);

    /**
     * A message of this collective was delivered (called by the dispatcher).
     * \param m the message
     */
    void HandleDelivered(const FabricMessage& m);
    /**
     * A message of this collective completed at its sender (called by the dispatcher).
     * \param m the message
     */
    void HandleCompleted(const FabricMessage& m);

    /// \return the algorithm
    Ptr<CollectiveAlgorithm> GetAlgorithm() const;
    /// \return the accelerator id of each rank
    std::vector<uint32_t> GetGroup() const;
    /// \return the instance id
    uint32_t GetInstance() const;
    /// \return true once every rank has finished
    bool IsDone() const;
    /// \return when the first rank started
    Time GetStartTime() const;
    /// \return when the last rank finished
    Time GetEndTime() const;
    /// \param rank a rank \return when it started
    Time GetRankStartTime(uint32_t rank) const;
    /// \param rank a rank \return when it finished
    Time GetRankEndTime(uint32_t rank) const;
    /// \param rank a rank \return payload bytes it posted
    uint64_t GetBytesSent(uint32_t rank) const;
    /// \param rank a rank \return payload bytes delivered to it
    uint64_t GetBytesReceived(uint32_t rank) const;
    /// \return messages posted by all ranks
    uint64_t GetMessagesSent() const;

    /**
     * \return the messages the whole schedule posts (every rank, step, chunk and stripe): a
     * collective that did not finish posted fewer (GetMessagesSent)
     */
    uint64_t GetMessagesPlanned() const;

    /**
     * The messages a collective's whole schedule posts, as an executor with these attributes
     * posts them.
     * \param algorithm the algorithm (its spec: ranks, bytes)
     * \param chunks the Chunks attribute
     * \param stripes the Stripes attribute
     * \return the messages
     */
    static uint64_t CountPlannedMessages(Ptr<const CollectiveAlgorithm> algorithm,
                                         uint32_t chunks,
                                         uint32_t stripes);
    /// \return per-step timings
    const std::vector<StepTiming>& GetStepTimings() const;
    /// \return algorithm bandwidth, CollectiveSpec::AlgorithmBandwidthBytes / time (bytes/s)
    double GetAlgorithmBandwidth() const;
    /// \return bus bandwidth, algbw * CollectiveSpec::BusBandwidthFactor (bytes/s)
    double GetBusBandwidth() const;

    /**
     * The initial value of a block at a rank in data-carrying mode.
     * \param rank the rank
     * \param block the block
     * \return 1000 * (rank + 1) + block + 1
     */
    static double InitialValue(uint32_t rank, uint32_t block);

    /**
     * \param rank a rank
     * \param chunk a chunk
     * \param block a block
     * \return its state in data-carrying mode
     */
    const Block& GetBlock(uint32_t rank, uint32_t chunk, uint32_t block) const;

    /**
     * Check, in data-carrying mode, that every rank holds exactly what the collective promises:
     * the sum of every rank's initial value (each added once) for reduced blocks, the owner's
     * initial value for gathered, broadcast or all-to-all blocks.
     * \param [out] why the first discrepancy
     * \return true if the result is right
     */
    bool CheckData(std::string& why) const;

  protected:
    void DoDispose() override;

  private:
    /// State of one chunk at one rank.
    struct ChunkState
    {
        uint32_t step{0};        //!< current step
        uint64_t recvPending{0}; //!< bytes still to arrive in this step
        uint64_t sendPending{0}; //!< bytes still to complete in this step
        uint64_t reduceBytes{0}; //!< bytes to reduce at the end of this step
        int64_t stepStartPs{0};  //!< when the step began
        bool active{false};      //!< started and not finished
        bool posting{false};     //!< inside Begin (no completion handling yet)
        bool reducing{false};    //!< waiting for the reduction engine
    };

    /// State of one rank.
    struct RankState
    {
        std::vector<ChunkState> chunks;               //!< per chunk (empty until started)
        std::unordered_map<uint64_t, uint64_t> early; //!< (chunk, step) -> bytes arrived early
        std::vector<std::vector<Block>> data;         //!< data mode: [chunk][block]
        uint32_t nextChunk{0};                        //!< next chunk to start
        uint32_t chunksDone{0};                       //!< chunks finished
        bool started{false};                          //!< StartRank called
        bool finished{false};                         //!< every chunk finished
        Time start;                                   //!< start time
        Time end;                                     //!< end time
        Time reduceFree;                              //!< reduction engine free from
        uint64_t sent{0};                             //!< bytes posted
        uint64_t received{0};                         //!< bytes delivered here
    };

    /// \param c chunk \param bytes an op's bytes \return the chunk's share (at least 1)
    uint64_t ChunkBytes(uint32_t c, uint64_t bytes) const;
    /// \param r rank \param c chunk
    void StartChunk(uint32_t r, uint32_t c);
    /// \param r rank \param c chunk \param k step to begin
    void Begin(uint32_t r, uint32_t c, uint32_t k);
    /// \param r rank \param c chunk: its step may be complete
    void TryFinish(uint32_t r, uint32_t c);
    /// \param r rank \param c chunk: the reduction of its step is done
    void ReduceDone(uint32_t r, uint32_t c);
    /// \param r rank \param c chunk: its current step is complete, go on
    void Advance(uint32_t r, uint32_t c);
    /// \param r rank \param c chunk: the bookkeeping of a completed step
    void FinishStep(uint32_t r, uint32_t c);
    /// \param r rank \param c chunk: finished every step
    void ChunkDone(uint32_t r, uint32_t c);
    /// \param st chunk state \return nothing left to wait for but a reduction
    static bool Ready(const ChunkState& st);
    /// \param r rank: initialise its data
    void InitData(uint32_t r);

    Ptr<CollectiveAlgorithm> m_algorithm;         //!< the schedule
    std::vector<Ptr<FabricEndpoint>> m_endpoints; //!< per rank
    std::vector<int32_t> m_rankOf;                //!< accelerator id -> rank (-1: not in group)
    std::vector<RankState> m_ranks;               //!< per rank
    std::vector<StepTiming> m_steps;              //!< per step
    /// data mode: (src, dst, chunk, step, tag) -> the blocks sent
    std::map<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t, uint8_t>, std::vector<Block>>
        m_inFlight;
    std::vector<CollectiveOp> m_ops; //!< scratch
    uint32_t m_instance{0};          //!< cookie instance id
    uint32_t m_chunks{1};            //!< Chunks attribute
    uint32_t m_inFlightChunks{0};    //!< ChunksInFlight attribute
    uint32_t m_stripes{1};           //!< Stripes attribute
    Time m_reducePerByte;            //!< ReduceTimePerByte attribute
    uint8_t m_tclass{0};             //!< TrafficClass attribute
    bool m_carryData{false};         //!< CarryData attribute
    uint32_t m_ranksDone{0};         //!< ranks finished
    uint64_t m_messages{0};          //!< messages posted
    Time m_start{Time::Max()};       //!< first rank start
    Time m_end;                      //!< last rank end
    DoneCallback m_doneCb;           //!< all done
    RankDoneCallback m_rankDoneCb;   //!< one rank done
    TracedCallback<uint32_t, uint32_t, uint32_t, Time, Time> m_stepTrace; //!< step finished
};

} // namespace ns3

#endif /* COLLECTIVE_EXECUTOR_H */
