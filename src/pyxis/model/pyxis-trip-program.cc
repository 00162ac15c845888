/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pyxis-trip-program.h"

#include "pyxis-barrier-table.h"
#include "pyxis-chip.h"
#include "pyxis-queue-map.h"
#include "pyxis-trip-manager.h"

#include "ns3/collective-algorithm.h"
#include "ns3/collective-helper.h"
#include "ns3/log.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PyxisTripProgram");

namespace
{

/// Largest barrier count (the 5-bit descriptor fields, 11.4.11).
constexpr uint32_t MAX_COUNT = 31;
/// Words of 128 B in one RDMA job (NumWords is 1 to 2^16, 11.4.6: 8 MiB).
constexpr uint64_t MAX_JOB_WORDS = 65536;
/// Job ids per cluster and side (8 bits, 10.4).
constexpr uint32_t JOB_IDS = 256;

/// One use of a barrier id, with its counts as the program builds them.
struct Use
{
    uint32_t id{0};       //!< the barrier id
    uint32_t layer{0};    //!< position of the layer that allocated it
    uint32_t notify{0};   //!< producers
    uint32_t wait{0};     //!< consumers
    bool recycled{false}; //!< the id had an earlier use: set by a barrier-config trip
};

/// Layers between an id's use and its next (see PyxisTripProgram).
constexpr uint32_t REUSE_DISTANCE = 3;

/// \return ceil(a / b)
uint64_t
CeilDiv(uint64_t a, uint64_t b)
{
    return (a + b - 1) / b;
}

} // namespace

std::string
PyxisTripProgram::KindName(Kind kind)
{
    switch (kind)
    {
    case COMPUTE:
        return "compute";
    case COMM:
        return "comm";
    case DMA:
        return "dma";
    case REDUCE:
        return "reduce";
    case NOOP:
        return "noop";
    }
    return "?";
}

uint64_t
PyxisTripProgram::ShareCycles(const PyxisUieModel& model,
                              const PyxisLayerProgram::ComputeOp& op,
                              const PyxisLayerProgram::UieShare& share)
{
    const uint32_t b = PyxisModelSpec::DtypeBytes(op.dtype);
    const uint64_t commit = model.GetParams().drainCommitCycles;
    PyxisKernelBreakdown k;
    switch (op.kind)
    {
    case PyxisLayerProgram::ComputeOp::GEMM: {
        PyxisGemmShape g;
        g.m = 128 * share.units;
        g.n = 128;
        g.k = op.kSplit > 1 ? op.kSlice : op.k;
        g.aBytes = b;
        g.bBytes = b;
        g.outBytes = b;
        g.aTransposed = true;
        g.splitK = PyxisSplitK::NEVER;
        k = model.Gemm(g, 1);
        break;
    }
    case PyxisLayerProgram::ComputeOp::CONV3X3: {
        PyxisConvShape c;
        c.h = op.height;
        c.w = op.width;
        c.cin = op.cin;
        c.cout = op.cout;
        c.stride = op.stride;
        c.inBytes = b;
        c.outBytes = b;
        const PyxisKernelBreakdown one = model.Conv3x3(c, 1);
        return share.units * one.tileCycles + one.fillCycles + one.drainCycles - commit;
    }
    case PyxisLayerProgram::ComputeOp::VPU: {
        const uint64_t lanes = model.GetParams().vpuLanes;
        const uint64_t first = share.firstUnit * lanes;
        const uint64_t elements =
            std::min<uint64_t>(share.units * lanes, op.elements > first ? op.elements - first : 1);
        k = model.Vpu(elements, std::max<uint32_t>(op.opsPerElement, 1), b, b, 1);
        break;
    }
    }
    return k.totalCycles - commit;
}

/**
 * \ingroup pyxis
 * \brief The state of one PyxisTripProgram::Build: barrier uses, trips by queue, job ids, and
 * the steps that build them (see PyxisTripProgram for the program's design).
 *
 * Errors go to one stream: the first step that finds one writes it, the later steps see it
 * (Failed()) and add nothing, and Build() reports it with nothing submitted.
 */
class PyxisTripProgram::Builder
{
  public:
    /**
     * \param owner the program (its trips and joins so far)
     * \param program the chip's operations
     * \param chip the chip (built)
     * \param voq the VOQ map
     * \param options the options
     */
    Builder(const PyxisTripProgram& owner,
            const PyxisLayerProgram::ChipProgram& program,
            Ptr<PyxisChip> chip,
            VoqMap voq,
            const Options& options);

    /**
     * Build every trip and barrier and check them; submit them unless refused.
     * \param[out] error why, if refused
     * \return false if refused (nothing submitted)
     */
    bool Run(std::string& error);

    /// \return every trip built, indexed by trip id
    const std::vector<TripInfo>& GetTrips() const
    {
        return m_trips;
    }

    /// \return the join trips of each layer
    const std::vector<std::vector<uint32_t>>& GetJoins() const
    {
        return m_joins;
    }

  private:
    /// The state of one cluster's ring of a CommOp while its steps are built.
    struct RingState
    {
        std::vector<uint32_t> txBar; //!< Tx-ACK barriers (at most 31 jobs each)
        uint64_t txIndex{0};         //!< Tx jobs built so far
        bool firstRx{true};          //!< the next Rx job is the collective's first
        uint32_t prevDone{0};        //!< what the next step's Tx jobs wait on
        uint32_t txVoq{0};           //!< VOQ to the send peer
        uint32_t rxVoq{0};           //!< message VOQ to the receive peer
    };

    /// One cluster's data-parallel schedule and the state of its steps while they are built.
    struct DpState
    {
        std::vector<std::vector<std::vector<CollectiveOp>>> sched; //!< [rank][step] ops
        uint32_t steps{0};                                         //!< schedule steps
        uint64_t jobsPerMsg{1};      //!< jobs of the largest message (8 MiB each)
        uint64_t perStep{0};         //!< job ids per step: slots x jobsPerMsg
        uint32_t base{0};            //!< the first job id of the collective
        std::vector<uint32_t> txBar; //!< Tx-ACK barriers (at most 31 jobs each)
        uint64_t txIndex{0};         //!< Tx jobs built so far
        bool firstRx{true};          //!< the next Rx job is the collective's first
        uint32_t prevDone{0};        //!< what the next step's sends wait on
        bool prevConsumed{false};    //!< a trip waits on prevDone already
    };

    /// A send or receive of a data-parallel step, resolved at both ends.
    struct DpMessage
    {
        uint64_t tSlot{0}; //!< the send's slot among the sender's sends of the step
        uint64_t rSlot{0}; //!< the receive's slot among the receiver's receives
        uint32_t voq{0};   //!< the VOQ to the peer
        uint64_t words{0}; //!< 128 B words
    };

    /// \return true once an error was found
    bool Failed() const
    {
        return !m_err.str().empty();
    }

    /// Start each cluster's ring of barrier ids with the ids free in its table.
    void InitPool();

    /**
     * Take the next barrier id of a cluster's ring for a new use.
     * \param c cluster
     * \param notify its producers
     * \return the id (0 on an error)
     */
    uint32_t Alloc(uint32_t c, uint32_t notify);

    /**
     * \param c cluster
     * \param id a barrier id
     * \return its latest use
     */
    Use& Counts(uint32_t c, uint32_t id);

    /**
     * Count a consumer of a barrier (none for id 0).
     * \param c cluster
     * \param id the barrier id
     * \return id
     */
    uint32_t Wait(uint32_t c, uint32_t id);

    /**
     * Append a trip to a queue with the next trip id.
     * \param c cluster
     * \param queue queue
     * \param t the trip
     * \param info what it is (tripId, cluster, queue and bytes are set here)
     * \return its trip id
     */
    uint32_t Add(uint32_t c, uint32_t queue, PyxisTrip t, TripInfo info);

    /**
     * \param layer layer index
     * \param op operation index
     * \param kind kind
     * \param step step
     * \return the TripInfo
     */
    static TripInfo Info(uint32_t layer, uint32_t op, Kind kind, uint32_t step = 0);

    /**
     * The chip-wide join: per cluster a no-op MPE trip waits on `done` and notifies the next
     * operation's input barrier of every cluster.
     * \param done the operation's last barrier per cluster
     * \param layer layer index
     * \param op operation index
     * \return the join trips
     */
    std::vector<uint32_t> Join(const std::vector<uint32_t>& done, uint32_t layer, uint32_t op);

    /// Build the layers in order.
    void BuildLayers();

    /**
     * Build one layer's operations, each ending in a join (but a DataParallelOp).
     * \param layer the layer
     */
    void BuildLayer(const PyxisLayerProgram::LayerOps& layer);

    /**
     * A ComputeOp: one UIE trip per share.
     * \param layer the layer
     * \param o the operation's index
     * \param[in,out] done the operation's last barrier per cluster
     */
    void BuildCompute(const PyxisLayerProgram::LayerOps& layer,
                      uint32_t o,
                      std::vector<uint32_t>& done);

    /**
     * A CommOp: the ring of each cluster.
     * \param layer the layer
     * \param o the operation's index
     * \param[in,out] done the operation's last barrier per cluster
     */
    void BuildTpComm(const PyxisLayerProgram::LayerOps& layer,
                     uint32_t o,
                     std::vector<uint32_t>& done);

    /**
     * One cluster's ring of a CommOp.
     * \param layer the layer
     * \param o the operation's index
     * \param c the cluster
     * \param[in,out] done the operation's last barrier per cluster
     */
    void BuildRing(const PyxisLayerProgram::LayerOps& layer,
                   uint32_t o,
                   uint32_t c,
                   std::vector<uint32_t>& done);

    /**
     * The Tx-ACK barriers of a ring, and the previous collective's Tx-ACK no-op trips chained
     * into the ring's input barrier.
     * \param ring the ring
     * \param c the cluster
     * \return the barriers
     */
    std::vector<uint32_t> RingTxBarriers(const PyxisLayerProgram::Ring& ring, uint32_t c);

    /**
     * One step of a ring: its Rx job(s), its add (a reducing step) and its Tx job(s).
     * \param layer the layer
     * \param o the operation's index
     * \param c the cluster
     * \param st the step
     * \param base the step's first job id
     * \param[in,out] rs the ring's state
     */
    void BuildRingStep(const PyxisLayerProgram::LayerOps& layer,
                       uint32_t o,
                       uint32_t c,
                       const PyxisLayerProgram::RingStep& st,
                       uint32_t base,
                       RingState& rs);

    /**
     * The no-op trips on the ring's Tx-ACK barriers, whose notify the next collective of the
     * cluster adds.
     * \param layer the layer
     * \param o the operation's index
     * \param c the cluster
     * \param txBar the barriers
     */
    void RingDrains(const PyxisLayerProgram::LayerOps& layer,
                    uint32_t o,
                    uint32_t c,
                    const std::vector<uint32_t>& txBar);

    /**
     * A DataParallelOp: the collective module's schedule on every cluster.
     * \param layer the layer
     * \param o the operation's index
     */
    void BuildDataParallel(const PyxisLayerProgram::LayerOps& layer, uint32_t o);

    /**
     * One cluster's share of a DataParallelOp.
     * \param layer the layer
     * \param o the operation's index
     * \param c the cluster
     */
    void BuildDpCluster(const PyxisLayerProgram::LayerOps& layer, uint32_t o, uint32_t c);

    /**
     * Prepare the cluster's algorithm instance, read every rank's schedule and take the job
     * ids of the collective.
     * \param layer the layer
     * \param dp the operation
     * \param c the cluster
     * \param[out] s the schedule
     * \return false on an error
     */
    bool PlanDp(const PyxisLayerProgram::LayerOps& layer,
                const PyxisLayerProgram::DataParallelOp& dp,
                uint32_t c,
                DpState& s);

    /**
     * \param sched the schedule
     * \param r a rank
     * \param k a step
     * \param x one of its ops
     * \return the slot of x among rank r's sends or receives of step k (UINT64_MAX: none)
     */
    static uint64_t SlotOf(const std::vector<std::vector<std::vector<CollectiveOp>>>& sched,
                           uint32_t r,
                           uint32_t k,
                           const CollectiveOp& x);

    /**
     * Resolve a send or receive of step k at both ends: the slots of the send and of the
     * receive (TJID and RJID offsets), the VOQ to the peer (Tx: its cluster; Rx: the message
     * VOQ back to it) and the words; an error if the peer has no matching op or no VOQ.
     * \param layer the layer
     * \param o the operation's index
     * \param c the cluster
     * \param k the step
     * \param s the schedule
     * \param x the op (a send or a receive of this rank)
     * \param[out] m the message
     * \return false on an error
     */
    bool ResolveDp(const PyxisLayerProgram::LayerOps& layer,
                   uint32_t o,
                   uint32_t c,
                   uint32_t k,
                   const DpState& s,
                   const CollectiveOp& x,
                   DpMessage& m);

    /**
     * Job j of a message: its bytes, TJID, RJID and VOQ.
     * \param s the schedule
     * \param k the step
     * \param m the message
     * \param j the job (of at most 8 MiB)
     * \return the trip (no barriers yet)
     */
    static PyxisTrip DpJob(const DpState& s, uint32_t k, const DpMessage& m, uint64_t j);

    /**
     * Step k of a cluster's data-parallel schedule: its sends, then its receives and add.
     * \param layer the layer
     * \param o the operation's index
     * \param c the cluster
     * \param k the step
     * \param[in,out] s the schedule's state
     */
    void BuildDpStep(const PyxisLayerProgram::LayerOps& layer,
                     uint32_t o,
                     uint32_t c,
                     uint32_t k,
                     DpState& s);

    /**
     * The sends of step k: Tx jobs waiting on the end of the previous receiving step.
     * \param layer the layer
     * \param o the operation's index
     * \param c the cluster
     * \param k the step
     * \param[in,out] s the schedule's state
     */
    void BuildDpSends(const PyxisLayerProgram::LayerOps& layer,
                      uint32_t o,
                      uint32_t c,
                      uint32_t k,
                      DpState& s);

    /**
     * The receives of step k (pre-posted Rx jobs notifying the step's barrier), its add if it
     * reduces, and the chaining of an unconsumed previous barrier.
     * \param layer the layer
     * \param o the operation's index
     * \param c the cluster
     * \param k the step
     * \param rxJobs its Rx jobs
     * \param reduceBytes the bytes it reduces
     * \param[in,out] s the schedule's state
     */
    void BuildDpReceives(const PyxisLayerProgram::LayerOps& layer,
                         uint32_t o,
                         uint32_t c,
                         uint32_t k,
                         uint64_t rxJobs,
                         uint64_t reduceBytes,
                         DpState& s);

    /// A data-parallel all-reduce holds its ids to the end: check them, queue the adds last.
    void FinishDataParallel();

    /// Gather the recycled barrier uses by layer; their config trips wait on a layer's input.
    void PlanBarrierConfigs();

    /// Every count at most 31 (the 5-bit descriptor fields).
    void CheckCounts();

    /// The barrier-config trips that set the recycled uses, in layer order.
    void AddBarrierConfigTrips();

    /// Check every trip as its Trip Manager will.
    void CheckTrips();

    /// Set the first uses' counts and submit every queue.
    void Submit();

    const PyxisLayerProgram::ChipProgram& m_program; //!< the chip's operations
    Ptr<PyxisChip> m_chip;                           //!< the chip
    VoqMap m_voq;                                    //!< the VOQ map
    const Options& m_options;                        //!< the options
    const uint32_t m_clusters;                       //!< clusters of the chip
    const uint32_t m_uies;                           //!< UIEs per cluster
    const PyxisUieModel m_model;                     //!< the kernel model
    std::string m_where;                             //!< "chip N", for errors
    const std::size_t m_firstTrip;                   //!< trips built before this Build
    std::ostringstream m_err;                        //!< the first error

    // barrier ids: a ring of the ids free in each cluster's table, least recently used first
    std::vector<std::vector<Use>> m_uses;                  //!< per cluster: every use
    std::vector<std::map<uint32_t, std::size_t>> m_latest; //!< id -> its latest use
    std::vector<std::vector<uint32_t>> m_pool;             //!< the ring of ids
    std::vector<std::size_t> m_nextInPool;                 //!< next id of the ring
    uint32_t m_position{0};                                //!< index in program.layers
    std::vector<std::vector<std::size_t>> m_layerStart;    //!< input barrier's use by layer
    std::vector<std::map<uint32_t, std::vector<std::size_t>>> m_configs; //!< recycled by layer

    std::vector<std::map<uint32_t, std::vector<PyxisTrip>>> m_queues; //!< trips by queue
    std::vector<TripInfo> m_trips;                                    //!< by trip id
    std::vector<std::vector<uint32_t>> m_joins;                       //!< join trips by layer
    std::vector<uint32_t> m_jid;                                      //!< next job id
    std::vector<uint64_t> m_idsTaken;                                 //!< job ids taken per cluster
    bool m_hasDp{false}; //!< a data-parallel all-reduce was built
    /// per cluster and UIE queue: the data-parallel adds, queued after everything else
    std::vector<std::map<uint32_t, std::vector<PyxisTrip>>> m_deferred;
    std::vector<uint32_t> m_in;     //!< the next operation's input barrier (0: none)
    std::vector<uint32_t> m_prevIn; //!< the previous operation's
    /// per cluster: the Tx-ACK no-op trips (indexes in the Mpe(1) list) of the last collective
    std::vector<std::vector<std::size_t>> m_drains;
};

PyxisTripProgram::Builder::Builder(const PyxisTripProgram& owner,
                                   const PyxisLayerProgram::ChipProgram& program,
                                   Ptr<PyxisChip> chip,
                                   VoqMap voq,
                                   const Options& options)
    : m_program(program),
      m_chip(chip),
      m_voq(voq),
      m_options(options),
      m_clusters(chip->GetClusters()),
      m_uies(chip->GetUiesPerCluster()),
      m_model(options.uie),
      m_where("chip " + std::to_string(program.chip)),
      m_firstTrip(owner.m_trips.size()),
      m_uses(m_clusters),
      m_latest(m_clusters),
      m_pool(m_clusters),
      m_nextInPool(m_clusters, 0),
      m_layerStart(m_clusters),
      m_configs(m_clusters),
      m_queues(m_clusters),
      m_trips(owner.m_trips),
      m_joins(owner.m_layerJoins),
      m_jid(m_clusters, 0),
      m_idsTaken(m_clusters, 0),
      m_deferred(m_clusters),
      m_in(m_clusters, 0),
      m_prevIn(m_clusters, 0),
      m_drains(m_clusters)
{
}

bool
PyxisTripProgram::Builder::Run(std::string& error)
{
    InitPool();
    BuildLayers();
    FinishDataParallel();
    PlanBarrierConfigs();
    CheckCounts();
    AddBarrierConfigTrips();
    CheckTrips();
    if (Failed())
    {
        error = m_err.str();
        return false;
    }
    Submit();
    NS_LOG_INFO(m_where << ": " << m_trips.size() - m_firstTrip << " trips");
    return true;
}

void
PyxisTripProgram::Builder::InitPool()
{
    for (uint32_t c = 0; c < m_clusters; ++c)
    {
        Ptr<PyxisBarrierTable> t = m_chip->GetBarrierTable(c);
        for (uint32_t id = 1; id < t->GetBarriers(); ++id)
        {
            if (t->IsFree(id))
            {
                m_pool[c].push_back(id);
            }
        }
    }
}

uint32_t
PyxisTripProgram::Builder::Alloc(uint32_t c, uint32_t notify)
{
    if (m_pool[c].empty() || Failed())
    {
        if (!Failed())
        {
            m_err << m_where << " cluster " << c << ": no free barrier";
        }
        return 0;
    }
    const uint32_t id = m_pool[c][m_nextInPool[c]];
    m_nextInPool[c] = (m_nextInPool[c] + 1) % m_pool[c].size();
    Use u;
    u.id = id;
    u.layer = m_position;
    u.notify = notify;
    const auto it = m_latest[c].find(id);
    if (it != m_latest[c].end())
    {
        if (m_uses[c][it->second].layer + REUSE_DISTANCE > m_position)
        {
            m_err << m_where << " layer " << m_program.layers[m_position].layer << " cluster " << c
                  << ": the " << m_pool[c].size()
                  << " free barriers of the cluster (Pyxis spec 11.6) do not hold 3 layers of "
                     "this program";
            return 0;
        }
        u.recycled = true;
    }
    m_latest[c][id] = m_uses[c].size();
    m_uses[c].push_back(u);
    return id;
}

Use&
PyxisTripProgram::Builder::Counts(uint32_t c, uint32_t id)
{
    return m_uses[c][m_latest[c].at(id)];
}

uint32_t
PyxisTripProgram::Builder::Wait(uint32_t c, uint32_t id)
{
    if (id != 0)
    {
        Counts(c, id).wait++;
    }
    return id;
}

uint32_t
PyxisTripProgram::Builder::Add(uint32_t c, uint32_t queue, PyxisTrip t, TripInfo info)
{
    info.tripId = m_trips.size();
    info.cluster = c;
    info.queue = queue;
    info.bytes = t.bytes;
    t.tripId = info.tripId;
    m_trips.push_back(info);
    m_queues[c][queue].push_back(t);
    return info.tripId;
}

PyxisTripProgram::TripInfo
PyxisTripProgram::Builder::Info(uint32_t layer, uint32_t op, Kind kind, uint32_t step)
{
    TripInfo i;
    i.layer = layer;
    i.op = op;
    i.kind = kind;
    i.step = step;
    return i;
}

std::vector<uint32_t>
PyxisTripProgram::Builder::Join(const std::vector<uint32_t>& done, uint32_t layer, uint32_t op)
{
    std::vector<uint32_t> next(m_clusters);
    for (uint32_t c = 0; c < m_clusters; ++c)
    {
        next[c] = Alloc(c, m_clusters);
    }
    std::vector<uint32_t> ids;
    for (uint32_t c = 0; c < m_clusters; ++c)
    {
        PyxisTrip t;
        t.waitBarrier = Wait(c, done[c]);
        for (uint32_t d = 0; d < m_clusters; ++d)
        {
            t.notify.push_back(PyxisBarrierRef{d, next[d]});
        }
        ids.push_back(Add(c, PyxisQueueMap::Mpe(0), t, Info(layer, op, NOOP)));
    }
    m_prevIn = m_in;
    m_in = next;
    return ids;
}

void
PyxisTripProgram::Builder::BuildLayers()
{
    for (; m_position < m_program.layers.size() && !Failed(); ++m_position)
    {
        BuildLayer(m_program.layers[m_position]);
    }
}

void
PyxisTripProgram::Builder::BuildLayer(const PyxisLayerProgram::LayerOps& layer)
{
    for (uint32_t c = 0; c < m_clusters; ++c)
    {
        m_layerStart[c].push_back(m_in[c] == 0 ? SIZE_MAX : m_latest[c].at(m_in[c]));
    }
    std::vector<uint32_t> lastJoin;
    for (uint32_t o = 0; o < layer.ops.size() && !Failed(); ++o)
    {
        const PyxisLayerProgram::Op& op = layer.ops[o];
        std::vector<uint32_t> done(m_in);
        if (op.kind == PyxisLayerProgram::Op::COMPUTE)
        {
            BuildCompute(layer, o, done);
        }
        else if (op.kind == PyxisLayerProgram::Op::TP_COMM)
        {
            BuildTpComm(layer, o, done);
        }
        else
        {
            // nothing later reads the weights' sum: no join, the next operation starts on the
            // same input barrier
            BuildDataParallel(layer, o);
            continue;
        }
        if (Failed())
        {
            return;
        }
        lastJoin = Join(done, layer.layer, o);
    }
    if (Failed())
    {
        return;
    }
    if (m_joins.size() <= layer.layer)
    {
        m_joins.resize(layer.layer + 1);
    }
    m_joins[layer.layer] = lastJoin;
}

void
PyxisTripProgram::Builder::BuildCompute(const PyxisLayerProgram::LayerOps& layer,
                                        uint32_t o,
                                        std::vector<uint32_t>& done)
{
    const PyxisLayerProgram::ComputeOp& cop = layer.ops[o].compute;
    std::vector<uint32_t> per(m_clusters, 0);
    for (const auto& s : cop.shares)
    {
        if (s.cluster >= m_clusters || s.uie >= m_uies)
        {
            m_err << m_where << " layer " << layer.layer << " op " << cop.name << ": UIE " << s.uie
                  << " of cluster " << s.cluster << " is not on the chip (" << m_clusters << " x "
                  << m_uies << ")";
            return;
        }
        per[s.cluster]++;
    }
    for (uint32_t c = 0; c < m_clusters; ++c)
    {
        if (per[c] > 0)
        {
            done[c] = Alloc(c, per[c]);
        }
    }
    for (const auto& s : cop.shares)
    {
        PyxisTrip t;
        t.waitBarrier = Wait(s.cluster, m_in[s.cluster]);
        t.notify.push_back(PyxisBarrierRef{s.cluster, done[s.cluster]});
        t.cycles = ShareCycles(m_model, cop, s);
        Add(s.cluster, PyxisQueueMap::Uie(s.uie), t, Info(layer.layer, o, COMPUTE));
    }
}

void
PyxisTripProgram::Builder::BuildTpComm(const PyxisLayerProgram::LayerOps& layer,
                                       uint32_t o,
                                       std::vector<uint32_t>& done)
{
    const PyxisLayerProgram::CommOp& cm = layer.ops[o].comm;
    if (cm.rings.size() != m_clusters)
    {
        m_err << m_where << " layer " << layer.layer << " op " << cm.name << ": " << cm.rings.size()
              << " rings for " << m_clusters << " clusters";
        return;
    }
    for (uint32_t c = 0; c < m_clusters && !Failed(); ++c)
    {
        BuildRing(layer, o, c, done);
    }
}

void
PyxisTripProgram::Builder::BuildRing(const PyxisLayerProgram::LayerOps& layer,
                                     uint32_t o,
                                     uint32_t c,
                                     std::vector<uint32_t>& done)
{
    const PyxisLayerProgram::CommOp& cm = layer.ops[o].comm;
    const PyxisLayerProgram::Ring& ring = cm.rings[c];
    const uint32_t p = cm.group.size();
    // jobs per step: the largest block's words in jobs of at most 2^16 words (the same on every
    // chip of the ring, so that the ids agree)
    const uint64_t perStep = CeilDiv(CeilDiv(CeilDiv(ring.bytes, p), 128), MAX_JOB_WORDS);
    const uint64_t ids = perStep * ring.steps.size();
    m_idsTaken[c] += ids;
    if (ids > JOB_IDS / 2)
    {
        m_err << m_where << " layer " << layer.layer << " op " << cm.name << " cluster " << c
              << ": " << ids
              << " RDMA jobs, more than 128 (half the 256 TJIDs/RJIDs of a cluster, Pyxis spec "
                 "10.4, so that the next collective's pre-posted jobs never take an active id)";
        return;
    }
    RingState rs;
    rs.txBar = RingTxBarriers(ring, c);
    rs.prevDone = m_in[c];
    rs.txVoq = m_voq(cm.sendPeer, c, m_options.txOq);
    rs.rxVoq = m_voq(cm.recvPeer, c, m_options.msgOq);
    if (rs.txVoq == UINT32_MAX || rs.rxVoq == UINT32_MAX)
    {
        m_err << m_where << " layer " << layer.layer << " op " << cm.name << ": no VOQ to chip "
              << cm.sendPeer << " or " << cm.recvPeer << " cluster " << c << " in the VOQ table";
        return;
    }
    for (const auto& st : ring.steps)
    {
        const uint32_t base = m_jid[c];
        m_jid[c] = (m_jid[c] + perStep) % JOB_IDS;
        BuildRingStep(layer, o, c, st, base, rs);
    }
    RingDrains(layer, o, c, rs.txBar);
    done[c] = rs.prevDone;
}

std::vector<uint32_t>
PyxisTripProgram::Builder::RingTxBarriers(const PyxisLayerProgram::Ring& ring, uint32_t c)
{
    uint64_t txJobs = 0;
    for (const auto& st : ring.steps)
    {
        txJobs += CeilDiv(CeilDiv(st.sendBytes, 128), MAX_JOB_WORDS);
    }
    const uint32_t groups = CeilDiv(txJobs, MAX_COUNT);
    std::vector<uint32_t> txBar;
    for (uint32_t g = 0; g < groups; ++g)
    {
        txBar.push_back(Alloc(c, std::min<uint64_t>(MAX_COUNT, txJobs - g * MAX_COUNT)));
    }
    // the previous collective's Tx ACKs also release this one's first Tx
    if (m_in[c] != 0)
    {
        for (std::size_t i : m_drains[c])
        {
            m_queues[c][PyxisQueueMap::Mpe(1)][i].notify.push_back(PyxisBarrierRef{c, m_in[c]});
            Counts(c, m_in[c]).notify++;
        }
        m_drains[c].clear();
    }
    return txBar;
}

void
PyxisTripProgram::Builder::BuildRingStep(const PyxisLayerProgram::LayerOps& layer,
                                         uint32_t o,
                                         uint32_t c,
                                         const PyxisLayerProgram::RingStep& st,
                                         uint32_t base,
                                         RingState& rs)
{
    // Rx jobs: pre-posted (the collective's first waits on the input of the operation before
    // it, the others follow at once) or late (the step's first waits on what its Tx waits on)
    const uint64_t rxWords = CeilDiv(st.recvBytes, 128);
    const uint64_t rxJobs = CeilDiv(rxWords, MAX_JOB_WORDS);
    const uint32_t bRx = Alloc(c, rxJobs);
    for (uint64_t j = 0; j < rxJobs; ++j)
    {
        PyxisTrip t;
        if (m_options.rxPosting == RX_PRE_POSTED)
        {
            t.waitBarrier = rs.firstRx ? Wait(c, m_prevIn[c]) : 0;
        }
        else
        {
            t.waitBarrier = j == 0 ? Wait(c, rs.prevDone) : 0;
        }
        rs.firstRx = false;
        t.notify.push_back(PyxisBarrierRef{c, bRx});
        t.bytes = 128 * std::min(MAX_JOB_WORDS, rxWords - j * MAX_JOB_WORDS);
        t.tjid = (base + j) % JOB_IDS;
        t.rjid = t.tjid;
        t.voq = rs.rxVoq;
        Add(c, PyxisQueueMap::RdmaRx(0), t, Info(layer.layer, o, COMM, st.step));
    }
    uint32_t stepDone = bRx;
    if (st.reduce)
    {
        stepDone = Alloc(c, 1);
        PyxisTrip t;
        t.waitBarrier = Wait(c, bRx);
        t.notify.push_back(PyxisBarrierRef{c, stepDone});
        t.cycles = st.reduceCycles;
        Add(c, PyxisQueueMap::Uie(st.step % m_uies), t, Info(layer.layer, o, REDUCE, st.step));
    }
    const uint64_t txWords = CeilDiv(st.sendBytes, 128);
    const uint64_t jobs = CeilDiv(txWords, MAX_JOB_WORDS);
    for (uint64_t j = 0; j < jobs; ++j, ++rs.txIndex)
    {
        PyxisTrip t;
        t.waitBarrier = j == 0 ? Wait(c, rs.prevDone) : 0;
        t.notify.push_back(PyxisBarrierRef{c, rs.txBar[rs.txIndex / MAX_COUNT]});
        t.bytes = 128 * std::min(MAX_JOB_WORDS, txWords - j * MAX_JOB_WORDS);
        t.tjid = (base + j) % JOB_IDS;
        t.rjid = t.tjid;
        t.voq = rs.txVoq;
        t.pageSizeWords = m_options.pageSizeWords;
        Add(c, PyxisQueueMap::RdmaTx(0), t, Info(layer.layer, o, COMM, st.step));
    }
    rs.prevDone = stepDone;
}

void
PyxisTripProgram::Builder::RingDrains(const PyxisLayerProgram::LayerOps& layer,
                                      uint32_t o,
                                      uint32_t c,
                                      const std::vector<uint32_t>& txBar)
{
    // the Tx ACKs (source buffers and TJIDs free again) gate the next collective of this
    // cluster, not the next operation: a no-op trip per Tx barrier, whose notify is given when
    // that collective is built
    for (uint32_t b : txBar)
    {
        PyxisTrip t;
        t.waitBarrier = Wait(c, b);
        Add(c, PyxisQueueMap::Mpe(1), t, Info(layer.layer, o, NOOP));
        m_drains[c].push_back(m_queues[c][PyxisQueueMap::Mpe(1)].size() - 1);
    }
}

void
PyxisTripProgram::Builder::BuildDataParallel(const PyxisLayerProgram::LayerOps& layer, uint32_t o)
{
    // the collective module's schedule, one algorithm instance per cluster on that cluster's
    // share of S (as the TP rings)
    for (uint32_t c = 0; c < m_clusters && !Failed(); ++c)
    {
        BuildDpCluster(layer, o, c);
    }
    if (!Failed())
    {
        m_hasDp = true;
    }
}

void
PyxisTripProgram::Builder::BuildDpCluster(const PyxisLayerProgram::LayerOps& layer,
                                          uint32_t o,
                                          uint32_t c)
{
    DpState s;
    if (!PlanDp(layer, layer.ops[o].dp, c, s))
    {
        return;
    }
    for (uint32_t k = 0; k < s.steps && !Failed(); ++k)
    {
        BuildDpStep(layer, o, c, k, s);
    }
    if (Failed())
    {
        return;
    }
    // the end: no-op trips consume the last step's barrier and the Tx ACKs
    if (s.prevDone != 0 && !s.prevConsumed && s.prevDone != m_in[c])
    {
        PyxisTrip t;
        t.waitBarrier = Wait(c, s.prevDone);
        Add(c, PyxisQueueMap::Mpe(2), t, Info(layer.layer, o, NOOP, s.steps));
    }
    for (uint32_t b : s.txBar)
    {
        PyxisTrip t;
        t.waitBarrier = Wait(c, b);
        Add(c, PyxisQueueMap::Mpe(2), t, Info(layer.layer, o, NOOP, s.steps));
    }
}

bool
PyxisTripProgram::Builder::PlanDp(const PyxisLayerProgram::LayerOps& layer,
                                  const PyxisLayerProgram::DataParallelOp& dp,
                                  uint32_t c,
                                  DpState& s)
{
    const uint32_t p = dp.group.size();
    CollectiveSpec spec = dp.spec;
    spec.ranks = p;
    spec.bytes = dp.spec.bytes / m_clusters + (c < dp.spec.bytes % m_clusters ? 1 : 0);
    Ptr<CollectiveAlgorithm> algo;
    try
    {
        algo = CollectiveHelper().CreateAlgorithm(dp.algorithm, spec);
    }
    catch (const std::invalid_argument& e)
    {
        m_err << m_where << " layer " << layer.layer << " op " << dp.name << ": data-algorithm "
              << dp.algorithm << ": " << e.what();
        return false;
    }
    // job ids: step k of the schedule owns `perStep` ids from the cluster's counter (the same
    // on every chip); a message takes the slot of its send among the sender's sends of the step
    // as TJID and the slot of its receive among the receiver's receives as RJID, both read from
    // the schedule
    s.steps = algo->GetNSteps();
    s.sched.assign(p, std::vector<std::vector<CollectiveOp>>(s.steps));
    uint64_t slots = 1;
    for (uint32_t r = 0; r < p; ++r)
    {
        for (uint32_t k = 0; k < s.steps; ++k)
        {
            algo->GetStep(r, k, s.sched[r][k]);
            uint64_t sends = 0;
            uint64_t recvs = 0;
            for (const CollectiveOp& x : s.sched[r][k])
            {
                (x.IsRecv() ? recvs : sends)++;
                s.jobsPerMsg = std::max<uint64_t>(
                    s.jobsPerMsg,
                    CeilDiv(CeilDiv(std::max<uint64_t>(x.bytes, 1), 128), MAX_JOB_WORDS));
            }
            slots = std::max({slots, sends, recvs});
        }
    }
    s.perStep = slots * s.jobsPerMsg;
    if (s.perStep * s.steps > JOB_IDS / 2)
    {
        m_err << m_where << " layer " << layer.layer << " op " << dp.name << " cluster " << c
              << ": " << s.perStep * s.steps
              << " RDMA job ids, more than 128 (half the 256 TJIDs/RJIDs of a cluster, Pyxis "
                 "spec 10.4)";
        return false;
    }
    s.base = m_jid[c];
    m_jid[c] = (m_jid[c] + s.perStep * s.steps) % JOB_IDS;
    m_idsTaken[c] += s.perStep * s.steps;
    // Tx jobs notify ACK barriers of at most 31 jobs
    uint64_t txJobs = 0;
    for (uint32_t k = 0; k < s.steps; ++k)
    {
        for (const CollectiveOp& x : s.sched[dp.rank][k])
        {
            if (!x.IsRecv())
            {
                txJobs += CeilDiv(CeilDiv(std::max<uint64_t>(x.bytes, 1), 128), MAX_JOB_WORDS);
            }
        }
    }
    for (uint32_t g = 0; g < CeilDiv(txJobs, MAX_COUNT); ++g)
    {
        s.txBar.push_back(Alloc(c, std::min<uint64_t>(MAX_COUNT, txJobs - g * MAX_COUNT)));
    }
    s.prevDone = m_in[c];
    return true;
}

uint64_t
PyxisTripProgram::Builder::SlotOf(const std::vector<std::vector<std::vector<CollectiveOp>>>& sched,
                                  uint32_t r,
                                  uint32_t k,
                                  const CollectiveOp& x)
{
    uint64_t n = 0;
    for (const CollectiveOp& y : sched[r][k])
    {
        if (y.IsRecv() == x.IsRecv())
        {
            if (y.peer == x.peer && y.tag == x.tag && y.blockBegin == x.blockBegin)
            {
                return n;
            }
            ++n;
        }
    }
    return UINT64_MAX;
}

void
PyxisTripProgram::Builder::BuildDpStep(const PyxisLayerProgram::LayerOps& layer,
                                       uint32_t o,
                                       uint32_t c,
                                       uint32_t k,
                                       DpState& s)
{
    const std::vector<CollectiveOp>& ops = s.sched[layer.ops[o].dp.rank][k];
    uint64_t rxJobs = 0;
    uint64_t reduceBytes = 0;
    bool sends = false;
    for (const CollectiveOp& x : ops)
    {
        if (x.IsRecv())
        {
            rxJobs += CeilDiv(CeilDiv(std::max<uint64_t>(x.bytes, 1), 128), MAX_JOB_WORDS);
            if (x.kind == CollectiveOp::RECV_REDUCE)
            {
                reduceBytes += x.bytes;
            }
        }
        else
        {
            sends = true;
        }
    }
    // sends: at the start of the step (after the previous step's receives and adds)
    BuildDpSends(layer, o, c, k, s);
    if (rxJobs == 0)
    {
        if (sends && s.prevConsumed)
        {
            s.prevDone = 0; // the next sends follow in queue order
            s.prevConsumed = false;
        }
        return;
    }
    BuildDpReceives(layer, o, c, k, rxJobs, reduceBytes, s);
}

bool
PyxisTripProgram::Builder::ResolveDp(const PyxisLayerProgram::LayerOps& layer,
                                     uint32_t o,
                                     uint32_t c,
                                     uint32_t k,
                                     const DpState& s,
                                     const CollectiveOp& x,
                                     DpMessage& m)
{
    const PyxisLayerProgram::DataParallelOp& dp = layer.ops[o].dp;
    const uint32_t me = dp.rank;
    const bool send = !x.IsRecv();
    const uint32_t peer = dp.group.at(x.peer);
    CollectiveOp match = x; // the peer's side of the message
    match.kind = send ? CollectiveOp::RECV_COPY : CollectiveOp::SEND;
    match.peer = me;
    const uint64_t mine = SlotOf(s.sched, me, k, x);
    const uint64_t theirs = SlotOf(s.sched, x.peer, k, match);
    m.tSlot = send ? mine : theirs;
    m.rSlot = send ? theirs : mine;
    m.voq = m_voq(peer, c, send ? m_options.txOq : m_options.msgOq);
    m.words = CeilDiv(std::max<uint64_t>(x.bytes, 1), 128);
    if (theirs == UINT64_MAX || m.voq == UINT32_MAX)
    {
        m_err << m_where << " layer " << layer.layer << " op " << dp.name << " step " << k << ": "
              << (m.voq == UINT32_MAX ? "no VOQ to chip "
                  : send              ? "no matching receive at chip "
                                      : "no matching send at chip ")
              << peer << " cluster " << c;
        return false;
    }
    return true;
}

PyxisTrip
PyxisTripProgram::Builder::DpJob(const DpState& s, uint32_t k, const DpMessage& m, uint64_t j)
{
    PyxisTrip t;
    t.bytes = 128 * std::min(MAX_JOB_WORDS, m.words - j * MAX_JOB_WORDS);
    t.tjid = (s.base + k * s.perStep + m.tSlot * s.jobsPerMsg + j) % JOB_IDS;
    t.rjid = (s.base + k * s.perStep + m.rSlot * s.jobsPerMsg + j) % JOB_IDS;
    t.voq = m.voq;
    return t;
}

void
PyxisTripProgram::Builder::BuildDpSends(const PyxisLayerProgram::LayerOps& layer,
                                        uint32_t o,
                                        uint32_t c,
                                        uint32_t k,
                                        DpState& s)
{
    const PyxisLayerProgram::DataParallelOp& dp = layer.ops[o].dp;
    const uint32_t me = dp.rank;
    bool firstTx = true;
    for (const CollectiveOp& x : s.sched[me][k])
    {
        if (x.IsRecv())
        {
            continue;
        }
        DpMessage m;
        if (!ResolveDp(layer, o, c, k, s, x, m))
        {
            return;
        }
        for (uint64_t j = 0; j * MAX_JOB_WORDS < m.words; ++j, ++s.txIndex)
        {
            PyxisTrip t = DpJob(s, k, m, j);
            t.waitBarrier = firstTx ? Wait(c, s.prevDone) : 0;
            s.prevConsumed = s.prevConsumed || (firstTx && s.prevDone != 0);
            firstTx = false;
            t.notify.push_back(PyxisBarrierRef{c, s.txBar[s.txIndex / MAX_COUNT]});
            t.pageSizeWords = m_options.pageSizeWords;
            Add(c, PyxisQueueMap::RdmaTx(1), t, Info(layer.layer, o, COMM, k));
        }
    }
}

void
PyxisTripProgram::Builder::BuildDpReceives(const PyxisLayerProgram::LayerOps& layer,
                                           uint32_t o,
                                           uint32_t c,
                                           uint32_t k,
                                           uint64_t rxJobs,
                                           uint64_t reduceBytes,
                                           DpState& s)
{
    // receives: pre-posted (the first waits on the operation's input barrier, the others
    // follow at once), notifying the step's barrier; an unconsumed previous barrier is chained
    // into it by a no-op
    const PyxisLayerProgram::DataParallelOp& dp = layer.ops[o].dp;
    const uint32_t me = dp.rank;
    const bool chain = s.prevDone != 0 && !s.prevConsumed;
    const uint32_t bRx = Alloc(c, rxJobs);
    for (const CollectiveOp& x : s.sched[me][k])
    {
        if (!x.IsRecv())
        {
            continue;
        }
        DpMessage m;
        if (!ResolveDp(layer, o, c, k, s, x, m))
        {
            break;
        }
        for (uint64_t j = 0; j * MAX_JOB_WORDS < m.words; ++j)
        {
            PyxisTrip t = DpJob(s, k, m, j);
            t.waitBarrier = s.firstRx ? Wait(c, m_in[c]) : 0;
            s.firstRx = false;
            t.notify.push_back(PyxisBarrierRef{c, bRx});
            Add(c, PyxisQueueMap::RdmaRx(1), t, Info(layer.layer, o, COMM, k));
        }
    }
    uint32_t stepDone = bRx;
    if (reduceBytes > 0)
    {
        // the add: a VPU trip on UIE k mod 12, queued after the whole program's compute so
        // that it never holds up a later layer
        stepDone = Alloc(c, chain ? 2 : 1);
        PyxisTrip t;
        t.waitBarrier = Wait(c, bRx);
        t.notify.push_back(PyxisBarrierRef{c, stepDone});
        t.cycles = PyxisLayerProgram::ReduceCycles(dp.reduction, reduceBytes, dp.dtype);
        TripInfo i = Info(layer.layer, o, REDUCE, k);
        i.tripId = m_trips.size();
        i.cluster = c;
        i.queue = PyxisQueueMap::Uie(k % m_uies);
        t.tripId = i.tripId;
        m_trips.push_back(i);
        m_deferred[c][i.queue].push_back(t);
    }
    else if (chain)
    {
        Counts(c, bRx).notify++;
    }
    if (chain)
    {
        PyxisTrip t;
        t.waitBarrier = Wait(c, s.prevDone);
        t.notify.push_back(PyxisBarrierRef{c, stepDone});
        Add(c, PyxisQueueMap::Mpe(2), t, Info(layer.layer, o, NOOP, k));
    }
    s.prevDone = stepDone;
    s.prevConsumed = false;
}

void
PyxisTripProgram::Builder::FinishDataParallel()
{
    // A data-parallel all-reduce runs until the end of the program (its adds queue after all
    // compute): its barrier and job ids must not be taken again
    for (uint32_t c = 0; c < m_clusters && !Failed() && m_hasDp; ++c)
    {
        if (m_idsTaken[c] > JOB_IDS)
        {
            m_err << m_where << " cluster " << c << ": " << m_idsTaken[c]
                  << " RDMA job ids in the program, more than the 256 of a cluster (Pyxis spec "
                     "10.4): a data-parallel all-reduce (data-sync: weights) holds its ids until "
                     "the end of the program";
        }
        for (const Use& u : m_uses[c])
        {
            if (u.recycled && !Failed())
            {
                m_err << m_where << " cluster " << c << ": the " << m_pool[c].size()
                      << " free barriers of the cluster do not hold the whole program; a "
                         "data-parallel all-reduce (data-sync: weights) holds its barriers "
                         "until the end of the program";
            }
        }
        for (auto& [q, list] : m_deferred[c])
        {
            m_queues[c][q].insert(m_queues[c][q].end(), list.begin(), list.end());
        }
    }
}

void
PyxisTripProgram::Builder::PlanBarrierConfigs()
{
    // A recycled id is set by a barrier-config trip (11.4.11) of its layer L, in layer order on
    // the cluster's config queue; the first of layer L waits on the input barrier of layer
    // L-1, released when layer L-2 has ended: every use of layer L-3 or before is freed then
    // (its Tx-ACK barriers are consumed by a collective of layer L-2).
    for (uint32_t c = 0; c < m_clusters && !Failed(); ++c)
    {
        for (std::size_t i = 0; i < m_uses[c].size(); ++i)
        {
            if (m_uses[c][i].recycled)
            {
                m_configs[c][m_uses[c][i].layer].push_back(i);
            }
        }
        for (const auto& [l, list] : m_configs[c])
        {
            const std::size_t gate = m_layerStart[c].at(l - 1);
            if (gate != SIZE_MAX)
            {
                m_uses[c][gate].wait++;
            }
        }
    }
}

void
PyxisTripProgram::Builder::CheckCounts()
{
    // the counts: at most 31 each (5-bit descriptor fields); the final input barriers have no
    // consumer
    for (uint32_t c = 0; c < m_clusters && !Failed(); ++c)
    {
        for (const Use& n : m_uses[c])
        {
            if (n.notify > MAX_COUNT || n.wait > MAX_COUNT)
            {
                m_err << m_where << " cluster " << c << " barrier " << n.id << ": counts "
                      << n.notify << " / " << n.wait << " exceed 31 (Pyxis spec 11.4.11)";
                break;
            }
        }
    }
}

void
PyxisTripProgram::Builder::AddBarrierConfigTrips()
{
    for (uint32_t c = 0; c < m_clusters && !Failed(); ++c)
    {
        for (const auto& [l, list] : m_configs[c])
        {
            const std::size_t gate = m_layerStart[c].at(l - 1);
            bool first = true;
            for (std::size_t i : list)
            {
                PyxisTrip t;
                t.waitBarrier = first && gate != SIZE_MAX ? m_uses[c][gate].id : 0;
                first = false;
                t.configBarrier = m_uses[c][i].id;
                t.notifyCount = m_uses[c][i].notify;
                t.waitCount = m_uses[c][i].wait;
                Add(c, PyxisQueueMap::BARRIER_CONFIG, t, Info(m_program.layers[l].layer, 0, NOOP));
            }
        }
    }
}

void
PyxisTripProgram::Builder::CheckTrips()
{
    for (uint32_t c = 0; c < m_clusters && !Failed(); ++c)
    {
        for (const auto& [q, list] : m_queues[c])
        {
            for (const PyxisTrip& t : list)
            {
                std::string e;
                if (t.tripId > PyxisTrip::MAX_TRIP_ID ||
                    !m_chip->GetTripManager(c)->CheckTrip(q, t, e))
                {
                    m_err << m_where << ": trip " << t.tripId
                          << " refused: " << (e.empty() ? "trip id above 20 bits" : e);
                    break;
                }
            }
        }
    }
}

void
PyxisTripProgram::Builder::Submit()
{
    for (uint32_t c = 0; c < m_clusters; ++c)
    {
        for (const Use& n : m_uses[c])
        {
            std::string e;
            NS_ABORT_MSG_UNLESS(
                n.recycled || m_chip->GetBarrierTable(c)->SetRefCounts(n.id, n.notify, n.wait, e),
                m_where << ": " << e);
        }
    }
    for (uint32_t c = 0; c < m_clusters; ++c)
    {
        for (const auto& [q, list] : m_queues[c])
        {
            m_chip->Submit(c, q, list);
        }
    }
}

bool
PyxisTripProgram::Build(const PyxisLayerProgram::ChipProgram& program,
                        Ptr<PyxisChip> chip,
                        VoqMap voq,
                        const Options& options,
                        std::string& error)
{
    NS_LOG_FUNCTION(this << program.chip);
    chip->Build();
    Builder b(*this, program, chip, voq, options);
    if (!b.Run(error))
    {
        return false;
    }
    m_trips = b.GetTrips();
    m_layerJoins = b.GetJoins();
    return true;
}

} // namespace ns3
