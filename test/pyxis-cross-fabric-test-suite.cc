/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Suite pyxis-cross-fabric: one tensor-parallel transformer layer of Pyxis chips (the layer of
// examples/pyxis/tp8-layer.yaml) run by PyxisRunner on three fabrics: the cell fabric (explicit
// RDMA job API, PyxisFabricBinding), a switched SUE pod and a UALink pod (the endpoint API,
// PyxisEndpointBinding), plus the cell fabric driven through its endpoint API. The compute is
// the chips' own: every compute and reduce trip takes the same time on every fabric, to the
// picosecond, and every compute trip takes exactly the UIE model's cycles (Pyxis spec
// section 6 closed form: src/pyxis/doc/pyxis.rst, Validation, "Cross-fabric runs"); only the
// network trips differ. Every RDMA byte sent is delivered (conservation).

#include "ns3/cell-fabric-adapter.h"
#include "ns3/cell-fabric-helper.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/fabric-channel.h"
#include "ns3/fabric-endpoint.h"
#include "ns3/fabric-link-helper.h"
#include "ns3/fabric-net-device.h"
#include "ns3/fabric-switch-helper.h"
#include "ns3/fabric-switch.h"
#include "ns3/node-container.h"
#include "ns3/picosecond-test-suite.h"
#include "ns3/pyxis-chip-helper.h"
#include "ns3/pyxis-chip.h"
#include "ns3/pyxis-layer-program.h"
#include "ns3/pyxis-model-loader.h"
#include "ns3/pyxis-queue-map.h"
#include "ns3/pyxis-runner.h"
#include "ns3/pyxis-trip-program.h"
#include "ns3/pyxis-uie-model.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/sue-endpoint.h"
#include "ns3/sue-helper.h"
#include "ns3/sue-instance.h"
#include "ns3/test.h"
#include "ns3/ualink-endpoint.h"
#include "ns3/ualink-helper.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <tuple>
#include <vector>

using namespace ns3;

namespace
{

/// The fabrics of the suite.
enum Fabric
{
    CELL_EXPLICIT,   //!< cell fabric, explicit RDMA job API, given as endpoints
    CELL_ADAPTERS,   //!< the same, through PyxisRunner::Setup's adapter overload
    CELL_ENDPOINT,   //!< cell fabric through its endpoint API (RdmaJobPosting Automatic)
    SUE_SWITCHED,    //!< SUE: 4 planes of one Ethernet switch each
    UALINK_SWITCHED, //!< UALink: 4 rails of one switch each
};

/// (chip, cluster, engine, trip id) of a trip row.
typedef std::tuple<uint32_t, uint32_t, uint32_t, uint32_t> TripKey;

/// A trip row in picoseconds.
struct TripPs
{
    uint32_t kind{0}; //!< PyxisTripProgram::Kind
    int64_t start{0}; //!< start (ps)
    int64_t end{0};   //!< end (ps)
};

/// What one run measured.
struct RunResult
{
    PyxisRunner::Summary sum;        //!< the runner's counts
    bool endpointApi{false};         //!< bound through PyxisEndpointBinding
    std::map<TripKey, TripPs> trips; //!< every timed trip
    uint64_t bytesSent{0};           //!< endpoints' payload bytes posted
    uint64_t bytesDelivered{0};      //!< endpoints' payload bytes delivered
    uint64_t messagesSent{0};        //!< endpoints' messages posted
    uint64_t messagesDelivered{0};   //!< endpoints' messages delivered
    uint64_t messagesCompleted{0};   //!< endpoints' messages completed
};

/// \param ns a time of the timeline recorder \return it in ps (exact: the recorder's ns are ps)
int64_t
Ps(double ns)
{
    return std::llround(ns * 1e3);
}

/**
 * Build a SUE pod as src/pod's PodTopology does for `fabric: sue` (single-switch planes): one
 * SueEndpoint per XPU with one 800 Gb/s port per plane (instances of one port), one
 * FabricSwitch per plane, 3 m twinax links, PFC on 4 classes (lossless).
 * \param xpus XPUs
 * \param planes planes
 * \return the endpoints
 */
std::vector<Ptr<FabricEndpoint>>
BuildSuePod(uint32_t xpus, uint32_t planes)
{
    NodeContainer nodes;
    nodes.Create(xpus);
    SueHelper sh;
    sh.SetPortsPerInstance(1);
    std::vector<Ptr<SueEndpoint>> sue;
    std::vector<Ptr<FabricEndpoint>> endpoints;
    for (uint32_t i = 0; i < xpus; ++i)
    {
        sue.push_back(sh.Install(nodes.Get(i), i));
        endpoints.push_back(sue.back());
    }
    FabricSwitchHelper swh;
    swh.SetSwitchAttribute("Classes", UintegerValue(4));
    FabricLinkHelper lh;
    lh.SetChannelAttribute("DataRate", DataRateValue(DataRate("800Gbps")));
    lh.SetChannelAttribute("CableType", EnumValue(FabricChannel::TWINAX));
    lh.SetChannelAttribute("CableLength", DoubleValue(3));
    lh.SetDeviceAttribute("Mtu", UintegerValue(4200));
    lh.SetFlowControl("ns3::FabricPfc", "Classes", UintegerValue(4));
    for (uint32_t p = 0; p < planes; ++p)
    {
        Ptr<Node> n = CreateObject<Node>();
        Ptr<FabricSwitch> sw = swh.Install(n);
        for (uint32_t i = 0; i < xpus; ++i)
        {
            NetDeviceContainer d = lh.Install(nodes.Get(i), n);
            sue[i]->AddDevice(DynamicCast<FabricNetDevice>(d.Get(0)));
            sw->GetRoutingTable()->SetRoute(i,
                                            {sw->AddPort(DynamicCast<FabricNetDevice>(d.Get(1)))});
        }
        sw->ShareBufferForPfc(3);
    }
    return endpoints;
}

/**
 * Run a model on one fabric.
 * \param spec the model
 * \param fabric the fabric
 * \param posting the Rx posting mode
 * \return what was measured
 */
RunResult
RunOn(const PyxisModelSpec& spec, Fabric fabric, PyxisTripProgram::RxPosting posting)
{
    const uint32_t chips = spec.GetChips();
    RunResult r;
    PyxisRunner runner;
    std::string error;
    std::vector<Ptr<FabricEndpoint>> endpoints;
    bool ok = false;
    if (fabric == CELL_EXPLICIT || fabric == CELL_ADAPTERS || fabric == CELL_ENDPOINT)
    {
        // pyxis-run's fabric: 36 single-stage cell planes (Pyxis spec section 1: 36 SerDes)
        CellFabricHelper cell;
        cell.SetAdapterAttribute("RdmaJobPosting",
                                 StringValue(fabric == CELL_ENDPOINT ? "Automatic" : "Explicit"));
        NodeContainer nodes;
        nodes.Create(chips);
        const std::vector<Ptr<CellFabricAdapter>> adapters = cell.Install(nodes, 36);
        endpoints.assign(adapters.begin(), adapters.end());
        ok = fabric == CELL_ADAPTERS ? runner.Setup(spec, adapters, posting, error)
                                     : runner.Setup(spec, endpoints, posting, error);
    }
    else
    {
        if (fabric == SUE_SWITCHED)
        {
            endpoints = BuildSuePod(chips, 4);
        }
        else
        {
            const UalinkHelper::Pod pod = UalinkHelper().Install(chips, 4);
            endpoints.assign(pod.acc.begin(), pod.acc.end());
        }
        ok = runner.Setup(spec, endpoints, posting, error);
    }
    NS_ABORT_MSG_UNLESS(ok, error);
    r.endpointApi = runner.UsesEndpointApi();
    Simulator::Run();
    r.sum = runner.Collect();
    for (const PyxisTimelineRecorder::Trip& t : runner.GetRecorder().GetTrips())
    {
        r.trips[TripKey{t.chip, t.cluster, t.engine, t.tripId}] =
            TripPs{t.kind, Ps(t.startNs), Ps(t.endNs)};
    }
    for (const Ptr<FabricEndpoint>& e : endpoints)
    {
        r.bytesSent += e->GetBytesSent();
        r.bytesDelivered += e->GetBytesDelivered();
        r.messagesSent += e->GetMessagesSent();
        r.messagesDelivered += e->GetMessagesDelivered();
        r.messagesCompleted += e->GetMessagesCompleted();
    }
    Simulator::Destroy();
    return r;
}

/// Durations (ps) by (chip, cluster, queue).
typedef std::map<std::tuple<uint32_t, uint32_t, uint32_t>, std::vector<int64_t>> UieDurations;

/**
 * The UIE model's duration of every compute trip: per (chip, cluster, UIE queue), the shares of
 * the chip's compute operations on that UIE in program order (PyxisTripProgram numbers its trips
 * in that order), each PyxisTripProgram::ShareCycles cycles as the engines round them.
 * \param spec the model
 * \return durations (ps) by (chip, cluster, queue)
 */
UieDurations
ModelComputePs(const PyxisModelSpec& spec)
{
    const PyxisUieModel model{PyxisUieParams()};
    Ptr<PyxisChip> clock = PyxisChipHelper().Create(0); // Cycles(): the engines' rounding
    UieDurations out;
    for (const PyxisLayerProgram::ChipProgram& p : PyxisLayerProgram::Lower(spec))
    {
        for (const PyxisLayerProgram::LayerOps& layer : p.layers)
        {
            for (const PyxisLayerProgram::Op& op : layer.ops)
            {
                if (op.kind != PyxisLayerProgram::Op::COMPUTE)
                {
                    continue;
                }
                for (const PyxisLayerProgram::UieShare& s : op.compute.shares)
                {
                    const uint64_t cycles = PyxisTripProgram::ShareCycles(model, op.compute, s);
                    out[{p.chip, s.cluster, PyxisQueueMap::Uie(s.uie)}].push_back(
                        clock->Cycles(cycles).GetPicoSeconds());
                }
            }
        }
    }
    return out;
}

/// The TP 2 x DP 4 model of suite pyxis-tp: two layers, the weights all-reduced by the ring.
const char* const TP2_DP4_YAML = "name: tp-dp\n"
                                 "parallelism:\n"
                                 "  tensor: 2\n"
                                 "  data: 4\n"
                                 "  tp-collective: all-reduce\n"
                                 "  reduction: vpu\n"
                                 "  data-sync: weights\n"
                                 "  data-algorithm: ring\n"
                                 "layers:\n"
                                 "  - kind: transformer\n"
                                 "    name: decoder0\n"
                                 "    dtype: fp8\n"
                                 "    d-model: 512\n"
                                 "    heads: 4\n"
                                 "    head-dim: 128\n"
                                 "    ffn: 2048\n"
                                 "    tokens: 128\n"
                                 "  - kind: transformer\n"
                                 "    name: decoder1\n"
                                 "    dtype: fp8\n"
                                 "    d-model: 512\n"
                                 "    heads: 4\n"
                                 "    head-dim: 128\n"
                                 "    ffn: 2048\n"
                                 "    tokens: 128\n";

/// The fabrics on which a model is compared with the cell fabric.
struct Other
{
    Fabric fabric;    //!< the fabric
    const char* name; //!< its name
};

} // namespace

/**
 * Checks shared by the cases: completion, conservation, the compute against the UIE model and
 * against the cell fabric's run.
 */
class PyxisCrossFabricCheck : public TestCase
{
  public:
    /// \param name the case's name
    explicit PyxisCrossFabricCheck(const std::string& name)
        : TestCase(name)
    {
    }

  protected:
    /**
     * examples/pyxis/tp8-layer.yaml: one decoder layer tensor-parallel over 8 chips, found from
     * the repository root or through the suite's data directory (test/) from anywhere.
     * \return the model
     */
    PyxisModelSpec Tp8Layer()
    {
        const std::string root = "examples/pyxis/tp8-layer.yaml";
        return PyxisModelLoader::LoadFile(
            std::filesystem::exists(root)
                ? root
                : CreateDataDirFilename("../examples/pyxis/tp8-layer.yaml"));
    }

    /**
     * Check one run's completion and conservation.
     * \param name the fabric's name
     * \param r the run
     * \param chips chips of the model
     * \param jobs RDMA Tx jobs (= Rx jobs) of the model
     * \param bytes their bytes
     */
    void CheckConservation(const std::string& name,
                           const RunResult& r,
                           uint32_t chips,
                           uint64_t jobs,
                           uint64_t bytes)
    {
        NS_TEST_ASSERT_MSG_EQ(r.sum.chips, chips, name << ": chips");
        NS_TEST_ASSERT_MSG_EQ(r.sum.complete, true, name << ": every trip ended");
        NS_TEST_ASSERT_MSG_EQ(r.sum.open, 0, name << ": no RDMA job open");
        NS_TEST_ASSERT_MSG_EQ(r.sum.jobs, jobs, name << ": Tx jobs completed");
        NS_TEST_ASSERT_MSG_EQ(r.sum.txBytes, bytes, name << ": bytes of the Tx jobs");
        NS_TEST_ASSERT_MSG_EQ(r.sum.rxBytes, bytes, name << ": bytes of the Rx jobs");
        if (r.endpointApi)
        {
            // through the endpoint API the endpoints' own counters close the law
            NS_TEST_ASSERT_MSG_EQ(r.messagesSent, jobs, name << ": messages sent");
            NS_TEST_ASSERT_MSG_EQ(r.messagesDelivered, jobs, name << ": messages delivered");
            NS_TEST_ASSERT_MSG_EQ(r.messagesCompleted, jobs, name << ": messages completed");
            NS_TEST_ASSERT_MSG_EQ(r.bytesSent, bytes, name << ": bytes sent");
            NS_TEST_ASSERT_MSG_EQ(r.bytesDelivered, bytes, name << ": bytes delivered");
        }
    }

    /**
     * Compare a run's trips with the cell fabric's: the same trips, every UIE trip (compute and
     * reduce) of the same duration.
     * \param name the fabric's name
     * \param r the run
     * \param cell the cell fabric's run
     * \return comm trips whose times differ from the cell fabric's
     */
    uint64_t CompareWithCell(const std::string& name, const RunResult& r, const RunResult& cell)
    {
        NS_TEST_EXPECT_MSG_EQ(r.trips.size(), cell.trips.size(), name << ": the same trips");
        uint64_t uie = 0;
        uint64_t commDiffer = 0;
        for (const auto& [key, c] : cell.trips)
        {
            const auto it = r.trips.find(key);
            NS_TEST_EXPECT_MSG_EQ((it != r.trips.end()), true, name << ": every trip recorded");
            if (it == r.trips.end())
            {
                continue;
            }
            const TripPs& t = it->second;
            NS_TEST_EXPECT_MSG_EQ(t.kind, c.kind, name << ": the same kind");
            if (c.kind == PyxisTripProgram::COMPUTE || c.kind == PyxisTripProgram::REDUCE)
            {
                NS_TEST_EXPECT_MSG_EQ(t.end - t.start,
                                      c.end - c.start,
                                      name << ": UIE trip " << std::get<3>(key) << " of chip "
                                           << std::get<0>(key) << " takes the cell run's time");
                ++uie;
            }
            else if (t.start != c.start || t.end != c.end)
            {
                ++commDiffer;
            }
        }
        NS_TEST_EXPECT_MSG_GT(uie, 0, name << ": UIE trips compared");
        return commDiffer;
    }

    /**
     * Every compute trip of a run takes the UIE model's cycles.
     * \param name the fabric's name
     * \param r the run
     * \param model the model's durations
     */
    void CheckModel(const std::string& name, const RunResult& r, const UieDurations& model)
    {
        UieDurations seen;
        for (const auto& [key, t] : r.trips) // by trip id within (chip, cluster, engine)
        {
            if (t.kind == PyxisTripProgram::COMPUTE)
            {
                seen[{std::get<0>(key), std::get<1>(key), std::get<2>(key)}].push_back(t.end -
                                                                                       t.start);
            }
        }
        NS_TEST_ASSERT_MSG_EQ(seen.size(), model.size(), name << ": UIEs with compute trips");
        for (const auto& [uie, list] : model)
        {
            const auto it = seen.find(uie);
            NS_TEST_ASSERT_MSG_EQ((it != seen.end() && it->second == list),
                                  true,
                                  name << ": chip " << std::get<0>(uie) << " cluster "
                                       << std::get<1>(uie) << " UIE " << std::get<2>(uie)
                                       << ": the UIE model's durations");
        }
    }

    /**
     * Run a model on the cell fabric and on the other fabrics and check each.
     * \param spec the model
     * \param others the other fabrics
     * \param chips chips of the model
     * \param jobs RDMA Tx jobs of the model
     * \param bytes their bytes
     * \return the cell fabric's run
     */
    RunResult CompareFabrics(const PyxisModelSpec& spec,
                             const std::vector<Other>& others,
                             uint32_t chips,
                             uint64_t jobs,
                             uint64_t bytes)
    {
        const UieDurations model = ModelComputePs(spec);
        RunResult cell = RunOn(spec, CELL_EXPLICIT, PyxisTripProgram::RX_PRE_POSTED);
        NS_TEST_EXPECT_MSG_EQ(cell.endpointApi, false, "cell: explicit RDMA job API");
        CheckConservation("cell", cell, chips, jobs, bytes);
        CheckModel("cell", cell, model);
        for (const Other& o : others)
        {
            const RunResult r = RunOn(spec, o.fabric, PyxisTripProgram::RX_PRE_POSTED);
            NS_TEST_EXPECT_MSG_EQ(r.endpointApi, true, o.name << ": endpoint API");
            CheckConservation(o.name, r, chips, jobs, bytes);
            CheckModel(o.name, r, model);
            // the network trips are the fabric's: they do not all keep the cell fabric's times
            NS_TEST_EXPECT_MSG_GT(CompareWithCell(o.name, r, cell),
                                  0,
                                  o.name << ": comm trips take the fabric's time");
            NS_TEST_EXPECT_MSG_NE(Ps(r.sum.endNs), Ps(cell.sum.endNs), o.name << ": the end");
        }
        return cell;
    }
};

/**
 * The tp8 layer on the cell fabric, on SUE and on UALink (and on the cell fabric through its
 * endpoint API): compute equal to the picosecond and to the UIE model, RDMA bytes conserved.
 */
class PyxisCrossFabricTpTestCase : public PyxisCrossFabricCheck
{
  public:
    PyxisCrossFabricTpTestCase()
        : PyxisCrossFabricCheck(
              "tp8 layer on cell, SUE and UALink: same compute, every RDMA byte delivered")
    {
    }

  private:
    void DoRun() override
    {
        // 8 chips x 2 all-reduces x 4 rings x 14 steps = 896 jobs of S / (4P) = 16,384 B: each
        // chip sends 2(P-1)/P S per all-reduce, S = 128 tokens x 4096 x 1 B = 524,288 B, so the
        // layer moves 8 x 2 x 2 x 7/8 x 524,288 = 14,680,064 B (pyxis.rst, Validation)
        const RunResult cell = CompareFabrics(Tp8Layer(),
                                              {Other{SUE_SWITCHED, "sue"},
                                               Other{UALINK_SWITCHED, "ualink"},
                                               Other{CELL_ENDPOINT, "cell endpoint API"}},
                                              8,
                                              896,
                                              14680064);
        // the cell fabric given as endpoints keeps the explicit RDMA job API: the same run, trip
        // for trip, as the adapter overload (pyxis-run and the pod), whose layer ends at the
        // last Tx ACK, 107,248.22 ns (pyxis.rst, Validation, suite pyxis-tp)
        const RunResult adapters =
            RunOn(Tp8Layer(), CELL_ADAPTERS, PyxisTripProgram::RX_PRE_POSTED);
        NS_TEST_ASSERT_MSG_EQ(adapters.endpointApi, false, "adapters: explicit RDMA job API");
        NS_TEST_ASSERT_MSG_EQ(cell.trips.size(), adapters.trips.size(), "the same trips");
        bool same = true;
        for (auto a = cell.trips.begin(), b = adapters.trips.begin(); a != cell.trips.end();
             ++a, ++b)
        {
            same = same && a->first == b->first && a->second.start == b->second.start &&
                   a->second.end == b->second.end;
        }
        NS_TEST_ASSERT_MSG_EQ(same, true, "endpoint overload = adapter overload, trip for trip");
        NS_TEST_ASSERT_MSG_EQ_TOL(cell.sum.endNs, 107248.22, 0.01, "the layer's end (ns)");
    }
};

/**
 * Rx jobs posted late on SUE: with no clear-to-send, the Rx posting mode changes no trip's end.
 */
class PyxisCrossFabricLateRxTestCase : public PyxisCrossFabricCheck
{
  public:
    PyxisCrossFabricLateRxTestCase()
        : PyxisCrossFabricCheck("tp8 layer on SUE: late Rx posting ends every trip as pre-posted")
    {
    }

  private:
    void DoRun() override
    {
        const PyxisModelSpec spec = Tp8Layer();
        const RunResult pre = RunOn(spec, SUE_SWITCHED, PyxisTripProgram::RX_PRE_POSTED);
        const RunResult late = RunOn(spec, SUE_SWITCHED, PyxisTripProgram::RX_LATE);
        CheckConservation("late", late, 8, 896, 14680064);
        // A late Rx trip is posted with its step's Tx trip (the same barrier); the message it
        // waits for leaves the ring neighbour at the same step at the earliest and crosses the
        // fabric, so it is never early here, and the trip ends at its delivery as a pre-posted
        // one does: only the Rx trips' starts move (pyxis.rst, "Running on any fabric")
        NS_TEST_ASSERT_MSG_EQ(late.sum.early, 0, "no message before its Rx trip");
        NS_TEST_ASSERT_MSG_EQ(late.trips.size(), pre.trips.size(), "the same trips");
        uint64_t rxMoved = 0;
        for (const auto& [key, t] : pre.trips)
        {
            const auto it = late.trips.find(key);
            NS_TEST_ASSERT_MSG_EQ((it != late.trips.end()), true, "every trip recorded");
            NS_TEST_ASSERT_MSG_EQ(it->second.end, t.end, "trip " << std::get<3>(key) << " ends");
            const bool rx =
                PyxisQueueMap::GetKind(std::get<2>(key)) == PyxisQueueMap::RDMA_RX_ENGINE;
            NS_TEST_ASSERT_MSG_EQ((it->second.start == t.start || rx),
                                  true,
                                  "trip " << std::get<3>(key) << " starts");
            rxMoved += it->second.start != t.start ? 1 : 0;
        }
        NS_TEST_ASSERT_MSG_GT(rxMoved, 0, "late Rx trips start later");
    }
};

/**
 * The TP 2 x DP 4 model (the weights all-reduced by the collective module's ring schedule on
 * RDMA queues 1) on the cell fabric, SUE and UALink.
 */
class PyxisCrossFabricDpTestCase : public PyxisCrossFabricCheck
{
  public:
    PyxisCrossFabricDpTestCase()
        : PyxisCrossFabricCheck("TP 2 x DP 4, two layers, on cell, SUE and UALink")
    {
    }

  private:
    void DoRun() override
    {
        // Jobs: TP 8 chips x 2 layers x 2 all-reduces x 4 rings x 2(P-1) = 2 steps = 256; DP 8
        // chips x 2 layers x 4 clusters x 2(4-1) = 6 ring steps = 384; 640 in all (pyxis.rst,
        // Validation: test_data_parallel_run). Bytes: a TP all-reduce moves 2(P-1)/P S = S =
        // 128 x 512 x 1 B = 65,536 B per chip (P = 2): 8 x 2 x 2 x 65,536 = 2,097,152 B; the DP
        // all-reduce 2(P-1)/P S = 3/2 x 1,572,864 B per chip (P = 4, S the chip's weights:
        // (4 x 512^2 + 2 x 512 x 2048) / 2): 8 x 2 x 2,359,296 = 37,748,736 B.
        CompareFabrics(PyxisModelLoader::LoadString(TP2_DP4_YAML, "tp-dp.yaml"),
                       {Other{SUE_SWITCHED, "sue"}, Other{UALINK_SWITCHED, "ualink"}},
                       8,
                       640,
                       2097152 + 37748736);
    }
};

/// The suite.
class PyxisCrossFabricTestSuite : public PicosecondTestSuite
{
  public:
    PyxisCrossFabricTestSuite()
        : PicosecondTestSuite("pyxis-cross-fabric", SYSTEM)
    {
        SetDataDir(NS_TEST_SOURCEDIR);
        AddTestCase(new PyxisCrossFabricTpTestCase, TestCase::QUICK);
        AddTestCase(new PyxisCrossFabricLateRxTestCase, TestCase::QUICK);
        AddTestCase(new PyxisCrossFabricDpTestCase, TestCase::QUICK);
    }
};

/// Registers the suite.
static PyxisCrossFabricTestSuite g_pyxisCrossFabricTestSuite;
