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

bool
PyxisTripProgram::Build(const PyxisLayerProgram::ChipProgram& program,
                        Ptr<PyxisChip> chip,
                        VoqMap voq,
                        const Options& options,
                        std::string& error)
{
    NS_LOG_FUNCTION(this << program.chip);
    chip->Build();
    const uint32_t clusters = chip->GetClusters();
    const uint32_t uies = chip->GetUiesPerCluster();
    const PyxisUieModel model(options.uie);
    std::ostringstream where;
    where << "chip " << program.chip;

    // barrier ids: a ring of the ids free in each cluster's table, least recently used first
    std::vector<std::vector<Use>> uses(clusters);
    std::vector<std::map<uint32_t, std::size_t>> latest(clusters); // id -> its latest use
    std::vector<std::vector<uint32_t>> pool(clusters);
    std::vector<std::size_t> nextInPool(clusters, 0);
    for (uint32_t c = 0; c < clusters; ++c)
    {
        Ptr<PyxisBarrierTable> t = chip->GetBarrierTable(c);
        for (uint32_t id = 1; id < t->GetBarriers(); ++id)
        {
            if (t->IsFree(id))
            {
                pool[c].push_back(id);
            }
        }
    }
    uint32_t position = 0; // the layer being built (index in program.layers)
    // per cluster and layer position: the use of the layer's input barrier (SIZE_MAX: none)
    std::vector<std::vector<std::size_t>> layerStart(clusters);
    std::vector<std::map<uint32_t, std::vector<PyxisTrip>>> queues(clusters);
    std::vector<TripInfo> trips = m_trips;
    std::vector<std::vector<uint32_t>> joins = m_layerJoins;
    std::vector<uint32_t> jid(clusters, 0);
    std::vector<uint64_t> idsTaken(clusters, 0); // job ids taken per cluster
    bool hasDp = false;                          // a data-parallel all-reduce was built
    // per cluster and UIE queue: the data-parallel adds, queued after everything else
    std::vector<std::map<uint32_t, std::vector<PyxisTrip>>> deferred(clusters);
    std::ostringstream err;

    auto alloc = [&](uint32_t c, uint32_t notify) -> uint32_t {
        if (pool[c].empty() || !err.str().empty())
        {
            if (err.str().empty())
            {
                err << where.str() << " cluster " << c << ": no free barrier";
            }
            return 0;
        }
        const uint32_t id = pool[c][nextInPool[c]];
        nextInPool[c] = (nextInPool[c] + 1) % pool[c].size();
        Use u;
        u.id = id;
        u.layer = position;
        u.notify = notify;
        const auto it = latest[c].find(id);
        if (it != latest[c].end())
        {
            if (uses[c][it->second].layer + REUSE_DISTANCE > position)
            {
                err << where.str() << " layer " << program.layers[position].layer << " cluster "
                    << c << ": the " << pool[c].size()
                    << " free barriers of the cluster (seed 004 11.6) do not hold 3 layers "
                       "of this program";
                return 0;
            }
            u.recycled = true;
        }
        latest[c][id] = uses[c].size();
        uses[c].push_back(u);
        return id;
    };
    auto counts = [&](uint32_t c, uint32_t id) -> Use& { return uses[c][latest[c].at(id)]; };
    auto wait = [&](uint32_t c, uint32_t id) {
        if (id != 0)
        {
            counts(c, id).wait++;
        }
        return id;
    };
    auto add = [&](uint32_t c, uint32_t queue, PyxisTrip t, TripInfo info) -> uint32_t {
        info.tripId = trips.size();
        info.cluster = c;
        info.queue = queue;
        info.bytes = t.bytes;
        t.tripId = info.tripId;
        trips.push_back(info);
        queues[c][queue].push_back(t);
        return info.tripId;
    };

    // the input barrier of the next operation per cluster (0: none), and of the previous one
    std::vector<uint32_t> in(clusters, 0);
    std::vector<uint32_t> prevIn(clusters, 0);
    // per cluster: the Tx-ACK no-op trips (indexes in the Mpe(1) list) of the last collective
    std::vector<std::vector<std::size_t>> drains(clusters);

    // chip-wide join: per cluster a no-op MPE trip waits on `done` and notifies the next
    // operation's input barrier of every cluster
    auto join = [&](const std::vector<uint32_t>& done, uint32_t layer, uint32_t op) {
        std::vector<uint32_t> next(clusters);
        for (uint32_t c = 0; c < clusters; ++c)
        {
            next[c] = alloc(c, clusters);
        }
        std::vector<uint32_t> ids;
        for (uint32_t c = 0; c < clusters; ++c)
        {
            PyxisTrip t;
            t.waitBarrier = wait(c, done[c]);
            for (uint32_t d = 0; d < clusters; ++d)
            {
                t.notify.push_back(PyxisBarrierRef{d, next[d]});
            }
            TripInfo info;
            info.layer = layer;
            info.op = op;
            info.kind = NOOP;
            ids.push_back(add(c, PyxisQueueMap::Mpe(0), t, info));
        }
        prevIn = in;
        in = next;
        return ids;
    };

    for (; position < program.layers.size() && err.str().empty(); ++position)
    {
        const PyxisLayerProgram::LayerOps& layer = program.layers[position];
        for (uint32_t c = 0; c < clusters; ++c)
        {
            layerStart[c].push_back(in[c] == 0 ? SIZE_MAX : latest[c].at(in[c]));
        }
        std::vector<uint32_t> lastJoin;
        for (uint32_t o = 0; o < layer.ops.size() && err.str().empty(); ++o)
        {
            const PyxisLayerProgram::Op& op = layer.ops[o];
            std::vector<uint32_t> done(in);
            if (op.kind == PyxisLayerProgram::Op::COMPUTE)
            {
                const PyxisLayerProgram::ComputeOp& cop = op.compute;
                std::vector<uint32_t> per(clusters, 0);
                for (const auto& s : cop.shares)
                {
                    if (s.cluster >= clusters || s.uie >= uies)
                    {
                        err << where.str() << " layer " << layer.layer << " op " << cop.name
                            << ": UIE " << s.uie << " of cluster " << s.cluster
                            << " is not on the chip (" << clusters << " x " << uies << ")";
                        break;
                    }
                    per[s.cluster]++;
                }
                if (!err.str().empty())
                {
                    break;
                }
                for (uint32_t c = 0; c < clusters; ++c)
                {
                    if (per[c] > 0)
                    {
                        done[c] = alloc(c, per[c]);
                    }
                }
                for (const auto& s : cop.shares)
                {
                    PyxisTrip t;
                    t.waitBarrier = wait(s.cluster, in[s.cluster]);
                    t.notify.push_back(PyxisBarrierRef{s.cluster, done[s.cluster]});
                    t.cycles = ShareCycles(model, cop, s);
                    TripInfo info;
                    info.layer = layer.layer;
                    info.op = o;
                    info.kind = COMPUTE;
                    add(s.cluster, PyxisQueueMap::Uie(s.uie), t, info);
                }
            }
            else if (op.kind == PyxisLayerProgram::Op::TP_COMM)
            {
                const PyxisLayerProgram::CommOp& cm = op.comm;
                if (cm.rings.size() != clusters)
                {
                    err << where.str() << " layer " << layer.layer << " op " << cm.name << ": "
                        << cm.rings.size() << " rings for " << clusters << " clusters";
                    break;
                }
                const uint32_t p = cm.group.size();
                for (uint32_t c = 0; c < clusters && err.str().empty(); ++c)
                {
                    const PyxisLayerProgram::Ring& ring = cm.rings[c];
                    // jobs per step: the largest block's words in jobs of at most 2^16 words
                    // (the same on every chip of the ring, so that the ids agree)
                    const uint64_t perStep =
                        CeilDiv(CeilDiv(CeilDiv(ring.bytes, p), 128), MAX_JOB_WORDS);
                    const uint64_t ids = perStep * ring.steps.size();
                    idsTaken[c] += ids;
                    if (ids > JOB_IDS / 2)
                    {
                        err << where.str() << " layer " << layer.layer << " op " << cm.name
                            << " cluster " << c << ": " << ids
                            << " RDMA jobs, more than 128 (half the 256 TJIDs/RJIDs of a "
                               "cluster, seed 004 10.4, so that the next collective's "
                               "pre-posted jobs never take an active id)";
                        break;
                    }
                    uint64_t txJobs = 0;
                    for (const auto& st : ring.steps)
                    {
                        txJobs += CeilDiv(CeilDiv(st.sendBytes, 128), MAX_JOB_WORDS);
                    }
                    const uint32_t groups = CeilDiv(txJobs, MAX_COUNT);
                    std::vector<uint32_t> txBar;
                    for (uint32_t g = 0; g < groups; ++g)
                    {
                        txBar.push_back(
                            alloc(c, std::min<uint64_t>(MAX_COUNT, txJobs - g * MAX_COUNT)));
                    }
                    // the previous collective's Tx ACKs also release this one's first Tx
                    if (in[c] != 0)
                    {
                        for (std::size_t i : drains[c])
                        {
                            queues[c][PyxisQueueMap::Mpe(1)][i].notify.push_back(
                                PyxisBarrierRef{c, in[c]});
                            counts(c, in[c]).notify++;
                        }
                        drains[c].clear();
                    }
                    uint32_t prevDone = in[c];
                    uint64_t txIndex = 0;
                    bool firstRx = true;
                    const uint32_t txVoq = voq(cm.sendPeer, c, options.txOq);
                    const uint32_t rxVoq = voq(cm.recvPeer, c, options.msgOq);
                    if (txVoq == UINT32_MAX || rxVoq == UINT32_MAX)
                    {
                        err << where.str() << " layer " << layer.layer << " op " << cm.name
                            << ": no VOQ to chip " << cm.sendPeer << " or " << cm.recvPeer
                            << " cluster " << c << " in the VOQ table";
                        break;
                    }
                    for (const auto& st : ring.steps)
                    {
                        const uint32_t base = jid[c];
                        jid[c] = (jid[c] + perStep) % JOB_IDS;
                        const uint64_t rxWords = CeilDiv(st.recvBytes, 128);
                        const uint64_t rxJobs = CeilDiv(rxWords, MAX_JOB_WORDS);
                        const uint32_t bRx = alloc(c, rxJobs);
                        for (uint64_t j = 0; j < rxJobs; ++j)
                        {
                            PyxisTrip t;
                            if (options.rxPosting == RX_PRE_POSTED)
                            {
                                t.waitBarrier = firstRx ? wait(c, prevIn[c]) : 0;
                            }
                            else
                            {
                                t.waitBarrier = j == 0 ? wait(c, prevDone) : 0;
                            }
                            firstRx = false;
                            t.notify.push_back(PyxisBarrierRef{c, bRx});
                            t.bytes = 128 * std::min(MAX_JOB_WORDS, rxWords - j * MAX_JOB_WORDS);
                            t.tjid = (base + j) % JOB_IDS;
                            t.rjid = t.tjid;
                            t.voq = rxVoq;
                            TripInfo info;
                            info.layer = layer.layer;
                            info.op = o;
                            info.kind = COMM;
                            info.step = st.step;
                            add(c, PyxisQueueMap::RdmaRx(0), t, info);
                        }
                        uint32_t stepDone = bRx;
                        if (st.reduce)
                        {
                            stepDone = alloc(c, 1);
                            PyxisTrip t;
                            t.waitBarrier = wait(c, bRx);
                            t.notify.push_back(PyxisBarrierRef{c, stepDone});
                            t.cycles = st.reduceCycles;
                            TripInfo info;
                            info.layer = layer.layer;
                            info.op = o;
                            info.kind = REDUCE;
                            info.step = st.step;
                            add(c, PyxisQueueMap::Uie(st.step % uies), t, info);
                        }
                        const uint64_t txWords = CeilDiv(st.sendBytes, 128);
                        const uint64_t jobs = CeilDiv(txWords, MAX_JOB_WORDS);
                        for (uint64_t j = 0; j < jobs; ++j, ++txIndex)
                        {
                            PyxisTrip t;
                            t.waitBarrier = j == 0 ? wait(c, prevDone) : 0;
                            t.notify.push_back(PyxisBarrierRef{c, txBar[txIndex / MAX_COUNT]});
                            t.bytes = 128 * std::min(MAX_JOB_WORDS, txWords - j * MAX_JOB_WORDS);
                            t.tjid = (base + j) % JOB_IDS;
                            t.rjid = t.tjid;
                            t.voq = txVoq;
                            t.pageSizeWords = options.pageSizeWords;
                            TripInfo info;
                            info.layer = layer.layer;
                            info.op = o;
                            info.kind = COMM;
                            info.step = st.step;
                            add(c, PyxisQueueMap::RdmaTx(0), t, info);
                        }
                        prevDone = stepDone;
                    }
                    // the Tx ACKs (source buffers and TJIDs free again) gate the next
                    // collective of this cluster, not the next operation: a no-op trip per Tx
                    // barrier, whose notify is given when that collective is built
                    for (uint32_t b : txBar)
                    {
                        PyxisTrip t;
                        t.waitBarrier = wait(c, b);
                        TripInfo info;
                        info.layer = layer.layer;
                        info.op = o;
                        info.kind = NOOP;
                        add(c, PyxisQueueMap::Mpe(1), t, info);
                        drains[c].push_back(queues[c][PyxisQueueMap::Mpe(1)].size() - 1);
                    }
                    done[c] = prevDone;
                }
            }
            else
            {
                // the data-parallel all-reduce: the collective module's schedule, one algorithm
                // instance per cluster on that cluster's share of S (as the TP rings)
                const PyxisLayerProgram::DataParallelOp& dp = op.dp;
                const uint32_t p = dp.group.size();
                for (uint32_t c = 0; c < clusters && err.str().empty(); ++c)
                {
                    CollectiveSpec spec = dp.spec;
                    spec.ranks = p;
                    spec.bytes = dp.spec.bytes / clusters + (c < dp.spec.bytes % clusters ? 1 : 0);
                    Ptr<CollectiveAlgorithm> algo;
                    try
                    {
                        algo = CollectiveHelper().CreateAlgorithm(dp.algorithm, spec);
                    }
                    catch (const std::invalid_argument& e)
                    {
                        err << where.str() << " layer " << layer.layer << " op " << dp.name
                            << ": data-algorithm " << dp.algorithm << ": " << e.what();
                        break;
                    }
                    // job ids: step k of the schedule owns `perStep` ids from the cluster's
                    // counter (the same on every chip); a message takes the slot of its send
                    // among the sender's sends of the step as TJID and the slot of its receive
                    // among the receiver's receives as RJID, both read from the schedule
                    const uint32_t steps = algo->GetNSteps();
                    std::vector<std::vector<std::vector<CollectiveOp>>> sched(
                        p,
                        std::vector<std::vector<CollectiveOp>>(steps));
                    uint64_t slots = 1;
                    uint64_t jobsPerMsg = 1;
                    for (uint32_t r = 0; r < p; ++r)
                    {
                        for (uint32_t k = 0; k < steps; ++k)
                        {
                            algo->GetStep(r, k, sched[r][k]);
                            uint64_t sends = 0;
                            uint64_t recvs = 0;
                            for (const CollectiveOp& x : sched[r][k])
                            {
                                (x.IsRecv() ? recvs : sends)++;
                                jobsPerMsg = std::max<uint64_t>(
                                    jobsPerMsg,
                                    CeilDiv(CeilDiv(std::max<uint64_t>(x.bytes, 1), 128),
                                            MAX_JOB_WORDS));
                            }
                            slots = std::max({slots, sends, recvs});
                        }
                    }
                    const uint64_t perStep = slots * jobsPerMsg;
                    if (perStep * steps > JOB_IDS / 2)
                    {
                        err << where.str() << " layer " << layer.layer << " op " << dp.name
                            << " cluster " << c << ": " << perStep * steps
                            << " RDMA job ids, more than 128 (half the 256 TJIDs/RJIDs of a "
                               "cluster, seed 004 10.4)";
                        break;
                    }
                    // the slot of op `x` of rank r's step k among its sends or receives
                    auto slotOf = [&](uint32_t r, uint32_t k, const CollectiveOp& x) -> uint64_t {
                        uint64_t n = 0;
                        for (const CollectiveOp& y : sched[r][k])
                        {
                            if (y.IsRecv() == x.IsRecv())
                            {
                                if (y.peer == x.peer && y.tag == x.tag &&
                                    y.blockBegin == x.blockBegin)
                                {
                                    return n;
                                }
                                ++n;
                            }
                        }
                        return UINT64_MAX;
                    };
                    const uint32_t base = jid[c];
                    jid[c] = (jid[c] + perStep * steps) % JOB_IDS;
                    idsTaken[c] += perStep * steps;
                    const uint32_t me = dp.rank;
                    // Tx jobs notify ACK barriers of at most 31 jobs
                    uint64_t txJobs = 0;
                    for (uint32_t k = 0; k < steps; ++k)
                    {
                        for (const CollectiveOp& x : sched[me][k])
                        {
                            if (!x.IsRecv())
                            {
                                txJobs += CeilDiv(CeilDiv(std::max<uint64_t>(x.bytes, 1), 128),
                                                  MAX_JOB_WORDS);
                            }
                        }
                    }
                    std::vector<uint32_t> txBar;
                    for (uint32_t g = 0; g < CeilDiv(txJobs, MAX_COUNT); ++g)
                    {
                        txBar.push_back(
                            alloc(c, std::min<uint64_t>(MAX_COUNT, txJobs - g * MAX_COUNT)));
                    }
                    uint64_t txIndex = 0;
                    bool firstRx = true;
                    uint32_t prevDone = in[c]; // what the next step's sends wait on
                    bool prevConsumed = false; // a trip waits on prevDone already
                    auto info = [&](Kind kind, uint32_t k) {
                        TripInfo i;
                        i.layer = layer.layer;
                        i.op = o;
                        i.kind = kind;
                        i.step = k;
                        return i;
                    };
                    for (uint32_t k = 0; k < steps && err.str().empty(); ++k)
                    {
                        const std::vector<CollectiveOp>& ops = sched[me][k];
                        uint64_t rxJobs = 0;
                        uint64_t reduceBytes = 0;
                        bool sends = false;
                        for (const CollectiveOp& x : ops)
                        {
                            if (x.IsRecv())
                            {
                                rxJobs += CeilDiv(CeilDiv(std::max<uint64_t>(x.bytes, 1), 128),
                                                  MAX_JOB_WORDS);
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
                        // sends: at the start of the step (after the previous step's receives
                        // and adds)
                        bool firstTx = true;
                        for (const CollectiveOp& x : ops)
                        {
                            if (x.IsRecv())
                            {
                                continue;
                            }
                            const uint32_t peer = dp.group.at(x.peer);
                            CollectiveOp match = x;
                            match.kind = CollectiveOp::RECV_COPY;
                            match.peer = me;
                            const uint64_t tSlot = slotOf(me, k, x);
                            const uint64_t rSlot = slotOf(x.peer, k, match);
                            const uint32_t v = voq(peer, c, options.txOq);
                            if (rSlot == UINT64_MAX || v == UINT32_MAX)
                            {
                                err << where.str() << " layer " << layer.layer << " op " << dp.name
                                    << " step " << k << ": "
                                    << (v == UINT32_MAX ? "no VOQ to chip "
                                                        : "no matching receive at chip ")
                                    << peer << " cluster " << c;
                                break;
                            }
                            const uint64_t words = CeilDiv(std::max<uint64_t>(x.bytes, 1), 128);
                            for (uint64_t j = 0; j * MAX_JOB_WORDS < words; ++j, ++txIndex)
                            {
                                PyxisTrip t;
                                t.waitBarrier = firstTx ? wait(c, prevDone) : 0;
                                prevConsumed = prevConsumed || (firstTx && prevDone != 0);
                                firstTx = false;
                                t.notify.push_back(PyxisBarrierRef{c, txBar[txIndex / MAX_COUNT]});
                                t.bytes = 128 * std::min(MAX_JOB_WORDS, words - j * MAX_JOB_WORDS);
                                t.tjid = (base + k * perStep + tSlot * jobsPerMsg + j) % JOB_IDS;
                                t.rjid = (base + k * perStep + rSlot * jobsPerMsg + j) % JOB_IDS;
                                t.voq = v;
                                t.pageSizeWords = options.pageSizeWords;
                                add(c, PyxisQueueMap::RdmaTx(1), t, info(COMM, k));
                            }
                        }
                        if (rxJobs == 0)
                        {
                            if (sends && prevConsumed)
                            {
                                prevDone = 0; // the next sends follow in queue order
                                prevConsumed = false;
                            }
                            continue;
                        }
                        // receives: pre-posted (the first waits on the operation's input
                        // barrier, the others follow at once), notifying the step's barrier;
                        // an unconsumed previous barrier is chained into it by a no-op
                        const bool chain = prevDone != 0 && !prevConsumed;
                        const uint32_t bRx = alloc(c, rxJobs);
                        for (const CollectiveOp& x : ops)
                        {
                            if (!x.IsRecv())
                            {
                                continue;
                            }
                            const uint32_t peer = dp.group.at(x.peer);
                            CollectiveOp match = x;
                            match.kind = CollectiveOp::SEND;
                            match.peer = me;
                            const uint64_t rSlot = slotOf(me, k, x);
                            const uint64_t tSlot = slotOf(x.peer, k, match);
                            const uint32_t v = voq(peer, c, options.msgOq);
                            if (tSlot == UINT64_MAX || v == UINT32_MAX)
                            {
                                err << where.str() << " layer " << layer.layer << " op " << dp.name
                                    << " step " << k << ": "
                                    << (v == UINT32_MAX ? "no VOQ to chip "
                                                        : "no matching send at chip ")
                                    << peer << " cluster " << c;
                                break;
                            }
                            const uint64_t words = CeilDiv(std::max<uint64_t>(x.bytes, 1), 128);
                            for (uint64_t j = 0; j * MAX_JOB_WORDS < words; ++j)
                            {
                                PyxisTrip t;
                                t.waitBarrier = firstRx ? wait(c, in[c]) : 0;
                                firstRx = false;
                                t.notify.push_back(PyxisBarrierRef{c, bRx});
                                t.bytes = 128 * std::min(MAX_JOB_WORDS, words - j * MAX_JOB_WORDS);
                                t.tjid = (base + k * perStep + tSlot * jobsPerMsg + j) % JOB_IDS;
                                t.rjid = (base + k * perStep + rSlot * jobsPerMsg + j) % JOB_IDS;
                                t.voq = v;
                                add(c, PyxisQueueMap::RdmaRx(1), t, info(COMM, k));
                            }
                        }
                        uint32_t stepDone = bRx;
                        if (reduceBytes > 0)
                        {
                            // the add: a VPU trip on UIE k mod 12, queued after the whole
                            // program's compute so that it never holds up a later layer
                            stepDone = alloc(c, chain ? 2 : 1);
                            PyxisTrip t;
                            t.waitBarrier = wait(c, bRx);
                            t.notify.push_back(PyxisBarrierRef{c, stepDone});
                            t.cycles = PyxisLayerProgram::ReduceCycles(dp.reduction,
                                                                       reduceBytes,
                                                                       dp.dtype);
                            TripInfo i = info(REDUCE, k);
                            i.tripId = trips.size();
                            i.cluster = c;
                            i.queue = PyxisQueueMap::Uie(k % uies);
                            t.tripId = i.tripId;
                            trips.push_back(i);
                            deferred[c][i.queue].push_back(t);
                        }
                        else if (chain)
                        {
                            counts(c, bRx).notify++;
                        }
                        if (chain)
                        {
                            PyxisTrip t;
                            t.waitBarrier = wait(c, prevDone);
                            t.notify.push_back(PyxisBarrierRef{c, stepDone});
                            add(c, PyxisQueueMap::Mpe(2), t, info(NOOP, k));
                        }
                        prevDone = stepDone;
                        prevConsumed = false;
                    }
                    if (!err.str().empty())
                    {
                        break;
                    }
                    // the end: no-op trips consume the last step's barrier and the Tx ACKs
                    if (prevDone != 0 && !prevConsumed && prevDone != in[c])
                    {
                        PyxisTrip t;
                        t.waitBarrier = wait(c, prevDone);
                        add(c, PyxisQueueMap::Mpe(2), t, info(NOOP, steps));
                    }
                    for (uint32_t b : txBar)
                    {
                        PyxisTrip t;
                        t.waitBarrier = wait(c, b);
                        add(c, PyxisQueueMap::Mpe(2), t, info(NOOP, steps));
                    }
                }
                if (err.str().empty())
                {
                    hasDp = true;
                }
                // nothing later reads the weights' sum: no join, the next operation starts on
                // the same input barrier
                continue;
            }
            if (!err.str().empty())
            {
                break;
            }
            lastJoin = join(done, layer.layer, o);
        }
        if (!err.str().empty())
        {
            break;
        }
        if (joins.size() <= layer.layer)
        {
            joins.resize(layer.layer + 1);
        }
        joins[layer.layer] = lastJoin;
    }
    // A data-parallel all-reduce runs until the end of the program (its adds queue after all
    // compute): its barrier and job ids must not be taken again
    for (uint32_t c = 0; c < clusters && err.str().empty() && hasDp; ++c)
    {
        if (idsTaken[c] > JOB_IDS)
        {
            err << where.str() << " cluster " << c << ": " << idsTaken[c]
                << " RDMA job ids in the program, more than the 256 of a cluster (seed 004 "
                   "10.4): a data-parallel all-reduce (data-sync: weights) holds its ids until "
                   "the end of the program";
        }
        for (const Use& u : uses[c])
        {
            if (u.recycled && err.str().empty())
            {
                err << where.str() << " cluster " << c << ": the " << pool[c].size()
                    << " free barriers of the cluster do not hold the whole program; a "
                       "data-parallel all-reduce (data-sync: weights) holds its barriers until "
                       "the end of the program";
            }
        }
        for (auto& [q, list] : deferred[c])
        {
            queues[c][q].insert(queues[c][q].end(), list.begin(), list.end());
        }
    }
    // A recycled id is set by a barrier-config trip (11.4.11) of its layer L, in layer order on
    // the cluster's config queue; the first of layer L waits on the input barrier of layer
    // L-1, released when layer L-2 has ended: every use of layer L-3 or before is freed then
    // (its Tx-ACK barriers are consumed by a collective of layer L-2).
    std::vector<std::map<uint32_t, std::vector<std::size_t>>> configs(clusters);
    for (uint32_t c = 0; c < clusters && err.str().empty(); ++c)
    {
        for (std::size_t i = 0; i < uses[c].size(); ++i)
        {
            if (uses[c][i].recycled)
            {
                configs[c][uses[c][i].layer].push_back(i);
            }
        }
        for (const auto& [l, list] : configs[c])
        {
            const std::size_t gate = layerStart[c].at(l - 1);
            if (gate != SIZE_MAX)
            {
                uses[c][gate].wait++;
            }
        }
    }
    // the counts: at most 31 each (5-bit descriptor fields); the final input barriers have no
    // consumer
    for (uint32_t c = 0; c < clusters && err.str().empty(); ++c)
    {
        for (const Use& n : uses[c])
        {
            if (n.notify > MAX_COUNT || n.wait > MAX_COUNT)
            {
                err << where.str() << " cluster " << c << " barrier " << n.id << ": counts "
                    << n.notify << " / " << n.wait << " exceed 31 (seed 004 11.4.11)";
                break;
            }
        }
    }
    for (uint32_t c = 0; c < clusters && err.str().empty(); ++c)
    {
        for (const auto& [l, list] : configs[c])
        {
            const std::size_t gate = layerStart[c].at(l - 1);
            bool first = true;
            for (std::size_t i : list)
            {
                PyxisTrip t;
                t.waitBarrier = first && gate != SIZE_MAX ? uses[c][gate].id : 0;
                first = false;
                t.configBarrier = uses[c][i].id;
                t.notifyCount = uses[c][i].notify;
                t.waitCount = uses[c][i].wait;
                TripInfo info;
                info.layer = program.layers[l].layer;
                info.kind = NOOP;
                add(c, PyxisQueueMap::BARRIER_CONFIG, t, info);
            }
        }
    }
    for (uint32_t c = 0; c < clusters && err.str().empty(); ++c)
    {
        for (const auto& [q, list] : queues[c])
        {
            for (const PyxisTrip& t : list)
            {
                std::string e;
                if (t.tripId > PyxisTrip::MAX_TRIP_ID ||
                    !chip->GetTripManager(c)->CheckTrip(q, t, e))
                {
                    err << where.str() << ": trip " << t.tripId
                        << " refused: " << (e.empty() ? "trip id above 20 bits" : e);
                    break;
                }
            }
        }
    }
    if (!err.str().empty())
    {
        error = err.str();
        return false;
    }
    for (uint32_t c = 0; c < clusters; ++c)
    {
        for (const Use& n : uses[c])
        {
            std::string e;
            NS_ABORT_MSG_UNLESS(
                n.recycled || chip->GetBarrierTable(c)->SetRefCounts(n.id, n.notify, n.wait, e),
                where.str() << ": " << e);
        }
    }
    for (uint32_t c = 0; c < clusters; ++c)
    {
        for (const auto& [q, list] : queues[c])
        {
            chip->Submit(c, q, list);
        }
    }
    NS_LOG_INFO(where.str() << ": " << trips.size() - m_trips.size() << " trips");
    m_trips = trips;
    m_layerJoins = joins;
    return true;
}

} // namespace ns3
