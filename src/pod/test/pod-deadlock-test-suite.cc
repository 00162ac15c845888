/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PFC deadlock: the static channel dependency check (ChannelDependencyGraph) and the run-time
// monitor (FabricDeadlockMonitor). A ring of four switches whose routes send every accelerator's
// traffic two hops clockwise has the cyclic dependency sw0 -> sw1 -> sw2 -> sw3 -> sw0 and
// deadlocks under PFC; the same ring with one destination routed the other way has none and
// delivers everything; a leaf-spine pod (up-down routes) has none. Every expected value is
// derived next to it from the construction of the ring or of the pod.

#include "ns3/basic-endpoint-helper.h"
#include "ns3/basic-endpoint.h"
#include "ns3/channel-dependency-graph.h"
#include "ns3/experiment.h"
#include "ns3/fabric-deadlock-monitor.h"
#include "ns3/fabric-link-helper.h"
#include "ns3/fabric-pfc.h"
#include "ns3/fabric-switch-helper.h"
#include "ns3/fabric-switch.h"
#include "ns3/names.h"
#include "ns3/picosecond-test-suite.h"
#include "ns3/pod-topology.h"
#include "ns3/results-writer.h"
#include "ns3/scenario-error.h"
#include "ns3/scenario-loader.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// Accelerators and switches on the ring.
constexpr uint32_t RING = 4;
/// Payload each accelerator sends to the one two switches clockwise (bytes).
constexpr uint64_t MESSAGE_BYTES = 1 << 20;
/// Run-time check parameters (well above the longest pause: 65535 quanta at 800 Gb/s is
/// 65535 x 64 B / 100 B/ns = 41.94 us).
const Time TIMEOUT = MicroSeconds(200);
/// Time between two checks.
const Time INTERVAL = MicroSeconds(20);
/// The run is stopped here if nothing else stops it.
const Time SAFETY_STOP = MilliSeconds(20);
/// Period of the watchdog that enforces SAFETY_STOP.
const Time WATCHDOG_PERIOD = MicroSeconds(1);

/**
 * Stops the run at SAFETY_STOP without keeping a finished run alive: it reschedules itself
 * only while other events are pending, so a run that ends by itself ends at most
 * WATCHDOG_PERIOD after its last other event (a plain Simulator::Stop(SAFETY_STOP) would be an
 * event at SAFETY_STOP, and every run would last until then).
 */
struct Watchdog
{
    bool fired{false}; //!< the run reached SAFETY_STOP

    /// Start watching (before Simulator::Run).
    void Start()
    {
        Simulator::Schedule(WATCHDOG_PERIOD, &Watchdog::Tick, this);
    }

    /// One look.
    void Tick()
    {
        if (Simulator::IsFinished())
        {
            return; // nothing else left: let the run end
        }
        if (Simulator::Now() >= SAFETY_STOP)
        {
            fired = true;
            Simulator::Stop();
            return;
        }
        Simulator::Schedule(WATCHDOG_PERIOD, &Watchdog::Tick, this);
    }
};

/**
 * Four switches in a ring, sw<i> with accelerator i on port 0, port 1 toward sw<i+1>
 * (clockwise) and port 2 toward sw<i-1>, flow control on every link (one class, 800 Gb/s,
 * 10 ns), 50 ns cut-through switches with small buffers: 64 KiB per switch.
 *
 * PFC: a share of 65536 / 3 = 21845 B per port. The automatic headroom is 100 B/ns x
 * (2 x 10 + 50) ns + 2 x (4114 + 20) + 64 + 20 = 15352 B, so XOFF = 21845 - 15352 = 6493 B,
 * less than two frames: XON is 0, and a paused port resumes only once its peer's ingress holds
 * nothing. CBFC: 8 KiB of credit per port, two frames (3 x 8 KiB fit the buffer).
 *
 * Routes toward accelerator d from sw<i>, by the clockwise distance k = (d - i) mod 4: k = 0 the
 * local port, k = 1 clockwise, k = 3 counter-clockwise, and k = 2 clockwise (the cyclic routes)
 * except, if \p breakCycle, for d = 1 (sw3 sends it counter-clockwise through sw2). With the
 * cyclic routes, the traffic for d from sw<d-2> makes channel (d-2 -> d-1) wait on
 * (d-1 -> d): the four clockwise channels wait on each other in a ring. Routing d = 1
 * counter-clockwise removes the dependency (sw3 -> sw0) -> (sw0 -> sw1), which closed it.
 */
struct Ring
{
    std::vector<Ptr<FabricSwitch>> switches;   //!< sw0..sw3
    std::vector<Ptr<BasicEndpoint>> endpoints; //!< acc0..acc3
    uint64_t delivered{0};                     //!< messages delivered
    Time lastDelivery;                         //!< time of the last delivery

    /// Count a delivery.
    void OnDelivered(const FabricMessage& m)
    {
        (void)m;
        ++delivered;
        lastDelivery = Simulator::Now();
    }

    /**
     * \param breakCycle route destination 1 counter-clockwise from sw3
     * \param fc ns3::FabricPfc or ns3::FabricCreditFlowControl
     */
    Ring(bool breakCycle, const std::string& fc)
    {
        FabricSwitchHelper swh;
        swh.SetSwitchAttribute("Classes", UintegerValue(1));
        swh.SetSwitchAttribute("PipelineLatency", TimeValue(NanoSeconds(50)));
        swh.SetBufferAttribute("Size", UintegerValue(64 * 1024));
        FabricLinkHelper lh;
        lh.SetChannelAttribute("DataRate", DataRateValue(DataRate("800Gbps")));
        lh.SetChannelAttribute("Delay", TimeValue(NanoSeconds(10)));
        lh.SetDeviceAttribute("Mtu", UintegerValue(4114));
        if (fc == "ns3::FabricPfc")
        {
            lh.SetFlowControl(fc, "Classes", UintegerValue(1));
        }
        else
        {
            lh.SetFlowControl(fc, "Vcs", UintegerValue(1), "BufferBytes", UintegerValue(8192));
        }
        BasicEndpointHelper eh;
        Names::Clear(); // ns-3 Names are global: start from none
        std::vector<Ptr<Node>> swNodes;
        std::vector<Ptr<FabricNetDevice>> local(RING);
        std::vector<Ptr<FabricNetDevice>> cw(RING);
        std::vector<Ptr<FabricNetDevice>> ccw(RING);
        for (uint32_t i = 0; i < RING; ++i)
        {
            Ptr<Node> node = CreateObject<Node>();
            Names::Add("sw" + std::to_string(i), node);
            swNodes.push_back(node);
            switches.push_back(swh.Install(node));
            Ptr<Node> acc = CreateObject<Node>();
            endpoints.push_back(eh.Install(acc, i));
            NetDeviceContainer d = lh.Install(acc, node);
            endpoints[i]->AddDevice(DynamicCast<FabricNetDevice>(d.Get(0)));
            local[i] = DynamicCast<FabricNetDevice>(d.Get(1));
        }
        for (uint32_t i = 0; i < RING; ++i)
        {
            NetDeviceContainer d = lh.Install(swNodes[i], swNodes[(i + 1) % RING]);
            cw[i] = DynamicCast<FabricNetDevice>(d.Get(0));
            ccw[(i + 1) % RING] = DynamicCast<FabricNetDevice>(d.Get(1));
        }
        for (uint32_t i = 0; i < RING; ++i)
        {
            switches[i]->AddPort(local[i]); // port 0
            switches[i]->AddPort(cw[i]);    // port 1
            switches[i]->AddPort(ccw[i]);   // port 2
            if (fc == "ns3::FabricPfc")
            {
                switches[i]->ShareBufferForPfc(1);
            }
            for (uint32_t d = 0; d < RING; ++d)
            {
                const uint32_t k = (d + RING - i) % RING;
                uint32_t port = k == 0 ? 0 : k == 3 ? 2 : 1;
                if (breakCycle && d == 1 && k == 2)
                {
                    port = 2;
                }
                switches[i]->GetRoutingTable()->SetRoute(d, {port});
            }
        }
        for (const auto& e : endpoints)
        {
            e->SetDeliveredCallback(MakeCallback(&Ring::OnDelivered, this));
        }
    }

    /// \return the static check of the ring's routes, built
    std::unique_ptr<ChannelDependencyGraph> Check() const
    {
        auto cdg = std::make_unique<ChannelDependencyGraph>();
        for (const auto& sw : switches)
        {
            cdg->AddSwitch(sw); // named through ns-3 Names: sw0..sw3
        }
        cdg->Build();
        return cdg;
    }

    /// \return a monitor watching the ring (Timeout and CheckInterval of the test)
    Ptr<FabricDeadlockMonitor> Monitor() const
    {
        Ptr<FabricDeadlockMonitor> m = CreateObject<FabricDeadlockMonitor>();
        m->SetAttribute("Timeout", TimeValue(TIMEOUT));
        m->SetAttribute("CheckInterval", TimeValue(INTERVAL));
        for (const auto& sw : switches)
        {
            m->AddSwitch(sw);
        }
        return m;
    }

    /// Post acc i -> acc i+2 for every i.
    void Post()
    {
        for (uint32_t i = 0; i < RING; ++i)
        {
            endpoints[i]->Send((i + 2) % RING, MESSAGE_BYTES, 0);
        }
    }

    /// \return payload bytes dropped at any switch port
    uint64_t Dropped() const
    {
        uint64_t b = 0;
        for (const auto& sw : switches)
        {
            for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
            {
                for (const auto& [reason, bytes] : sw->GetPort(p)->GetStats().dropBytes)
                {
                    b += bytes;
                }
            }
        }
        return b;
    }
};

/// The clockwise channels, named after their transmitting ports (port 1 of each switch), in
/// the order the cyclic routes make them depend on each other, starting at the first switch.
const std::vector<std::string> CLOCKWISE{"sw0:port1", "sw1:port1", "sw2:port1", "sw3:port1"};

/// Records the Deadlock trace.
struct DeadlockSink
{
    uint32_t calls{0};  //!< reports received
    std::string report; //!< the last one

    /// \param r the report
    void OnDeadlock(const std::string& r)
    {
        ++calls;
        report = r;
    }
};

} // namespace

/**
 * The ring with cyclic routes: the static check finds the four clockwise channels, and the
 * traffic deadlocks; the monitor stops the run and names the same four ports.
 */
class PodDeadlockRingTestCase : public TestCase
{
  public:
    /// \param fc flow control TypeId
    PodDeadlockRingTestCase(const std::string& fc)
        : TestCase("Ring with two-hop clockwise routes, " + fc +
                   ": static cycle, run-time deadlock detected and reported"),
          m_fc(fc)
    {
    }

  private:
    void DoRun() override
    {
        Ring ring(false, m_fc);
        auto cdg = ring.Check();
        // Channels: 4 switch-to-switch links, both directions (the endpoint links are not
        // channels of the graph).
        NS_TEST_EXPECT_MSG_EQ(cdg->GetNChannels(), 8, "four ring links, two directions each");
        // Dependencies: only two-hop routes make one (destination d from sw<d-2>); a one-hop
        // route ends at the destination's switch, whose next hop is the endpoint.
        NS_TEST_EXPECT_MSG_EQ(cdg->GetNDependencies(), 4, "one per destination");
        NS_TEST_EXPECT_MSG_EQ(cdg->GetNCyclicComponents(), 1, "the clockwise ring");
        NS_TEST_EXPECT_MSG_EQ(cdg->GetNCyclicChannels(), 4, "the four clockwise channels");
        NS_TEST_ASSERT_MSG_EQ(cdg->GetCycle().size(), 4, "a four-channel cycle");
        for (uint32_t i = 0; i < 4; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(cdg->GetCycle()[i], CLOCKWISE[i], "static cycle channel " << i);
        }

        Ptr<FabricDeadlockMonitor> monitor = ring.Monitor();
        DeadlockSink sink;
        monitor->TraceConnectWithoutContext("Deadlock",
                                            MakeCallback(&DeadlockSink::OnDeadlock, &sink));
        NS_TEST_EXPECT_MSG_EQ(monitor->IsArmed(), false, "idle before any traffic");
        ring.Post();
        Watchdog watchdog;
        watchdog.Start();
        Simulator::Run();
        const Time end = Simulator::Now();

        NS_TEST_EXPECT_MSG_EQ(monitor->IsDeadlocked(), true, "the monitor saw the deadlock");
        // The monitor stopped the run: long before the safety stop (PFC refreshes would keep a
        // deadlocked run going until then), and no earlier than Timeout after the traffic began.
        NS_TEST_EXPECT_MSG_EQ(watchdog.fired, false, "not stopped by the watchdog");
        NS_TEST_EXPECT_MSG_LT(end, SAFETY_STOP, "stopped by the monitor, not the safety stop");
        NS_TEST_EXPECT_MSG_EQ(monitor->GetDetectionTime(), end, "Simulator::Stop at detection");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(end, TIMEOUT, "no port is stuck before Timeout");
        // The cycle's edge sw<i>:port1 -> sw<i+1>:port1 means sw<i+1>'s clockwise queue holds
        // units that came in from sw<i>, i.e. of the message acc<i> -> acc<i+2>, for every i:
        // no message was delivered whole.
        NS_TEST_EXPECT_MSG_EQ(ring.delivered, 0, "nothing delivered");
        NS_TEST_EXPECT_MSG_EQ(ring.Dropped(), 0, "PFC: nothing dropped, even in a deadlock");
        const auto& cycle = monitor->GetCycle();
        NS_TEST_ASSERT_MSG_EQ(cycle.size(), 4, "the monitor's cycle has the four ports");
        for (uint32_t i = 0; i < 4; ++i)
        {
            // Each clockwise port is paused by the next switch, whose clockwise queue holds
            // the units that came in from it: the same channels, in the same order.
            NS_TEST_EXPECT_MSG_EQ(cycle[i], CLOCKWISE[i], "run-time cycle port " << i);
            NS_TEST_EXPECT_MSG_NE(monitor->GetReport().find(CLOCKWISE[i]),
                                  std::string::npos,
                                  "the report names " << CLOCKWISE[i]);
        }
        NS_TEST_EXPECT_MSG_EQ(sink.calls, 1, "the Deadlock trace fired once");
        NS_TEST_EXPECT_MSG_EQ(sink.report, monitor->GetReport(), "the trace carries the report");
        NS_TEST_EXPECT_MSG_EQ(monitor->GetReport().rfind("deadlock at", 0),
                              std::size_t(0),
                              "a deadlock report: " << monitor->GetReport());
        for (uint32_t i = 0; i < RING; ++i)
        {
            // Each clockwise port's flow control refuses its next frame: paused (PFC) or out of
            // credit (CBFC).
            Ptr<FabricFlowControl> fc = ring.switches[i]->GetPort(1)->GetFlowControl();
            NS_TEST_EXPECT_MSG_EQ(fc->CanSend(0, 4114, (i + 2) % RING),
                                  false,
                                  "sw" << i << ":port1 may not send");
            Ptr<FabricPfc> pfc = DynamicCast<FabricPfc>(fc);
            NS_TEST_EXPECT_MSG_EQ(!pfc || pfc->IsPaused(0), true, "sw" << i << " paused");
        }
        monitor->Dispose();
        Simulator::Destroy();
        Names::Clear();
    }

    std::string m_fc; //!< flow control TypeId
};

/**
 * The ring with destination 1 routed counter-clockwise from sw3: no cycle; the same traffic
 * is delivered whole with no drop, and the monitor lets the run end by itself.
 */
class PodDeadlockFreeRingTestCase : public TestCase
{
  public:
    /// \param fc flow control TypeId
    PodDeadlockFreeRingTestCase(const std::string& fc)
        : TestCase("Ring with the cycle broken, " + fc +
                   ": no static cycle, everything delivered, the monitor goes idle"),
          m_fc(fc)
    {
    }

  private:
    void DoRun() override
    {
        Ring ring(true, m_fc);
        auto cdg = ring.Check();
        NS_TEST_EXPECT_MSG_EQ(cdg->GetNChannels(), 8, "four ring links, two directions each");
        // Still one dependency per two-hop route: (sw0->sw1)->(sw1->sw2) for d = 2,
        // (sw1->sw2)->(sw2->sw3) for d = 3, (sw2->sw3)->(sw3->sw0) for d = 0 and now
        // (sw3->sw2)->(sw2->sw1) for d = 1: a chain and a lone edge, no cycle.
        NS_TEST_EXPECT_MSG_EQ(cdg->GetNDependencies(), 4, "one per destination");
        NS_TEST_EXPECT_MSG_EQ(cdg->GetNCyclicComponents(), 0, "no cycle");
        NS_TEST_EXPECT_MSG_EQ(cdg->GetCycle().empty(), true, "no cycle reported");

        Ptr<FabricDeadlockMonitor> monitor = ring.Monitor();
        ring.Post();
        Watchdog watchdog;
        watchdog.Start();
        Simulator::Run();
        const Time end = Simulator::Now();

        NS_TEST_EXPECT_MSG_EQ(monitor->IsDeadlocked(), false, "no deadlock");
        NS_TEST_EXPECT_MSG_EQ(monitor->GetReport(), "", "no report");
        NS_TEST_EXPECT_MSG_EQ(ring.delivered, RING, "every message delivered");
        uint64_t received = 0;
        for (const auto& e : ring.endpoints)
        {
            received += e->GetReceivedPayloadBytes();
        }
        NS_TEST_EXPECT_MSG_EQ(received, RING * MESSAGE_BYTES, "bytes conserved");
        NS_TEST_EXPECT_MSG_EQ(ring.Dropped(), 0, "lossless: nothing dropped");
        // Termination: the run ended by itself (no event left), not at the safety stop.
        NS_TEST_EXPECT_MSG_EQ(watchdog.fired, false, "the run ended by itself");
        NS_TEST_EXPECT_MSG_EQ(monitor->IsArmed(), false, "the monitor went idle");
        // The monitor checks every INTERVAL from its arming (the first unit at a switch, after
        // 0) until the first check that finds the switches empty, which they are by the last
        // delivery: at most lastDelivery / INTERVAL + 1 checks, and none after that one.
        NS_TEST_EXPECT_MSG_GT(monitor->GetChecks(), 0, "it checked while traffic flowed");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(
            monitor->GetChecks(),
            uint64_t(ring.lastDelivery.GetPicoSeconds() / INTERVAL.GetPicoSeconds()) + 1,
            "no check once the switches are empty");
        // What still runs after the last delivery is the flow control's. PFC: the expiry timer
        // of the last pause (cancelled by its resume frame, but ns-3 keeps a cancelled event in
        // the queue until its time) ends at most one full pause, 65535 x 64 B / 100 B/ns =
        // 41.94 us, after that pause arrived, i.e. before the last delivery plus a pause, a
        // link delay and a pause frame. CBFC: credit returns, CreditDelay (100 ns) and a link
        // delay after the last release, well within the same bound. The watchdog follows by
        // at most its period.
        NS_TEST_EXPECT_MSG_LT_OR_EQ(end,
                                    ring.lastDelivery + PicoSeconds(41942400) + NanoSeconds(11) +
                                        WATCHDOG_PERIOD,
                                    "the run ends when the fabric's own timers do");
        monitor->Dispose();
        Simulator::Destroy();
        Names::Clear();
    }

    std::string m_fc; //!< flow control TypeId
};

/**
 * A two-tier leaf-spine pod: routes go up to a spine and down to the destination's leaf, so
 * every dependency is leaf-up -> spine-down and there is no cycle.
 */
class PodDeadlockLeafSpineTestCase : public TestCase
{
  public:
    PodDeadlockLeafSpineTestCase()
        : TestCase("Leaf-spine pod: the channel dependency graph is acyclic")
    {
    }

  private:
    void DoRun() override
    {
        // 64 accelerators, radix 16: floor(16/2) = 8 spines, leaves of 8 accelerators, so
        // 64 / 8 = 8 leaves per plane, each with one uplink to every spine; 2 planes.
        Scenario::Pod pod;
        pod.accelerators = 64;
        pod.planes = 2;
        pod.sw.radix = 16;
        pod.sw.latency = NanoSeconds(250);
        pod.sw.bufferBytes = 64ull << 20;
        pod.fc.kind = "pfc";
        PodTopology topo;
        topo.Build(pod);
        NS_TEST_ASSERT_MSG_EQ(topo.IsTwoTier(), true, "radix 16 < 64 accelerators");
        ChannelDependencyGraph cdg;
        cdg.AddSwitches(topo);
        cdg.Build();
        // Channels: 8 leaves x 8 spines links per plane, both directions: 128 per plane.
        NS_TEST_EXPECT_MSG_EQ(cdg.GetNChannels(), 2 * 8 * 8 * 2, "leaf-spine links x 2");
        // Dependencies: at each spine, from every leaf's uplink to every other leaf's downlink
        // (8 x 7), for 8 spines per plane; a leaf forwards what comes down only to its own
        // accelerators, so there is no spine-down -> leaf-up dependency.
        NS_TEST_EXPECT_MSG_EQ(cdg.GetNDependencies(), 2 * 8 * 8 * 7, "up -> down only");
        NS_TEST_EXPECT_MSG_EQ(cdg.GetNCyclicComponents(), 0, "up-down routes have no cycle");
        NS_TEST_EXPECT_MSG_EQ(cdg.GetCycle().empty(), true, "no cycle reported");
        Simulator::Destroy();
    }
};

/**
 * Through a scenario: a PFC leaf-spine run installs the checks, finds no deadlock and records
 * an empty report; a deadlock timeout below the longest pause is refused before the run.
 */
class PodDeadlockScenarioTestCase : public TestCase
{
  public:
    PodDeadlockScenarioTestCase()
        : TestCase("Scenario: PFC leaf-spine run records no deadlock; deadlock-timeout checked")
    {
    }

  private:
    void DoRun() override
    {
        const std::string text = "name: dl\n"
                                 "pod: {accelerators: 32, planes: 2, switch: {radix: 8, "
                                 "buffer: 16MiB}, flow-control: {kind: pfc}}\n"
                                 "workloads:\n"
                                 "  - {kind: incast, senders: 8, receiver: 0, size: 64KiB}\n"
                                 "  - {kind: all-to-all, size: 4KiB}\n"
                                 "output: {progress: false}\n";
        Scenario s = ScenarioLoader::LoadString(text, "dl.yaml", {});
        // Defaults of the schema: 10 ms and 1 ms.
        NS_TEST_EXPECT_MSG_EQ(s.pod.fc.deadlockTimeout, MilliSeconds(10), "default timeout");
        NS_TEST_EXPECT_MSG_EQ(s.pod.fc.deadlockCheckInterval,
                              MilliSeconds(1),
                              "default check interval");
        Experiment::Options o;
        o.writeResults = false;
        o.printSummary = false;
        o.progress = false;
        RunResults r = Experiment::Run(s, o);
        NS_TEST_EXPECT_MSG_EQ(r.deadlock, "", "no deadlock on up-down routes");
        NS_TEST_EXPECT_MSG_EQ(r.bytesDelivered, r.bytesSent, "every byte delivered");
        NS_TEST_EXPECT_MSG_EQ(r.bytesDropped, 0, "lossless");
        // The report is a summary attribute of the results file, read back as written.
        r.deadlock = "deadlock at +1us: p0.leaf0:port4 -> p0.spine0:port0 -> p0.leaf0:port4";
        const std::string file = CreateTempDirFilename("deadlock.h5");
        ResultsWriter::Write(file, r);
        NS_TEST_EXPECT_MSG_EQ(ResultsWriter::Read(file).deadlock, r.deadlock, "round trip");

        // 65535 quanta at 800 Gb/s last 41.94 us: a 10 us timeout could fire on a pause.
        bool refused = false;
        try
        {
            ScenarioLoader::LoadString(text, "dl.yaml", {"pod.flow-control.deadlock-timeout=10us"});
        }
        catch (const ScenarioError& e)
        {
            refused = std::string(e.what()).find("pod.flow-control.deadlock-timeout") !=
                      std::string::npos;
        }
        NS_TEST_EXPECT_MSG_EQ(refused, true, "a timeout below the longest pause is refused");
        refused = false;
        try
        {
            ScenarioLoader::LoadString(text,
                                       "dl.yaml",
                                       {"pod.flow-control.deadlock-check-interval=20ms"});
        }
        catch (const ScenarioError& e)
        {
            refused = std::string(e.what()).find("pod.flow-control.deadlock-check-interval") !=
                      std::string::npos;
        }
        NS_TEST_EXPECT_MSG_EQ(refused, true, "a check interval above the timeout is refused");
    }
};

/**
 * The deadlock suite.
 */
class PodDeadlockTestSuite : public PicosecondTestSuite
{
  public:
    PodDeadlockTestSuite()
        : PicosecondTestSuite("pod-deadlock", UNIT)
    {
        for (const char* fc : {"ns3::FabricPfc", "ns3::FabricCreditFlowControl"})
        {
            AddTestCase(new PodDeadlockRingTestCase(fc), TestCase::QUICK);
            AddTestCase(new PodDeadlockFreeRingTestCase(fc), TestCase::QUICK);
        }
        AddTestCase(new PodDeadlockLeafSpineTestCase, TestCase::QUICK);
        AddTestCase(new PodDeadlockScenarioTestCase, TestCase::QUICK);
    }
};

static PodDeadlockTestSuite g_podDeadlockTestSuite; //!< registers the suite
