/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The watchdogs of a run (src/pod/doc/robustness.rst, section Watchdogs): the no-progress watchdog
// (ProgressWatchdog with the probes of PodWatchdogProbes) on synthetic probes and on UALink,
// cell-fabric and generic pods that cannot progress, and on pods that do; the wall-time limit
// (WallClockLimit) on an endless run. Each expected time is derived next to it from the rule
// "stopped at the first check at which every probe holding work has been stuck, and nothing
// moved, for at least the timeout", on checks every interval from the arming post.

#include "ns3/cell-fabric-adapter.h"
#include "ns3/experiment.h"
#include "ns3/fabric-flow-control.h"
#include "ns3/picosecond-test-suite.h"
#include "ns3/pod-topology.h"
#include "ns3/progress-watchdog.h"
#include "ns3/scenario-loader.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/ualink-endpoint.h"
#include "ns3/uinteger.h"
#include "ns3/wall-clock-limit.h"

#include <algorithm>
#include <initializer_list>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/**
 * \param r results
 * \return the last delivery or completion of any message (ps; -1 if none)
 */
int64_t
LastActivity(const RunResults& r)
{
    int64_t last = -1;
    for (std::size_t i = 0; i < r.messages.src.size(); ++i)
    {
        last = std::max({last, r.messages.deliverPs[i], r.messages.completePs[i]});
    }
    return last;
}

/**
 * \param r results
 * \return messages not both delivered and completed
 */
uint64_t
Outstanding(const RunResults& r)
{
    uint64_t n = 0;
    for (std::size_t i = 0; i < r.messages.src.size(); ++i)
    {
        n += r.messages.deliverPs[i] < 0 || r.messages.completePs[i] < 0;
    }
    return n;
}

/**
 * The stop time of the rule for a pod armed at 0 whose last progress was at \p last: the first
 * check at or after it (checks at k x interval) is the last that sees progress, c1 =
 * ceil(last / interval) x interval (at least the first check, which is also the first at which
 * the stuck queues are seen holding work); the run stops at the first check at least \p timeout
 * later, c1 + timeout when the timeout is a whole number of intervals.
 * \param last last progress (ps)
 * \param interval check interval
 * \param timeout timeout
 * \return the stop time
 */
Time
ExpectedStop(int64_t last, Time interval, Time timeout)
{
    const int64_t i = interval.GetPicoSeconds();
    const int64_t c1 = std::max<int64_t>(i, (last + i - 1) / i * i);
    return PicoSeconds(c1) + timeout;
}

/**
 * \param text scenario YAML
 * \param overrides overrides
 * \param hook fault injection after the build
 * \return the results (nothing written or printed)
 */
RunResults
RunScenario(const std::string& text,
            const std::vector<std::string>& overrides,
            std::function<void(const PodTopology&)> hook = nullptr,
            std::function<void(Scenario&)> change = nullptr)
{
    Scenario s = ScenarioLoader::LoadString(text, "watchdog.yaml", overrides);
    if (change)
    {
        change(s); // a pod the loader would refuse, made after loading
    }
    Experiment::Options o;
    o.writeResults = false;
    o.printSummary = false;
    o.progress = false;
    o.afterBuild = hook;
    return Experiment::Run(s, o);
}

/// 4 UALink accelerators, one port each, a 4 KiB all-to-all (16 writes of 256 B per pair).
const std::string UALINK = "name: wd-ualink\n"
                           "pod: {fabric: ualink, accelerators: 4, planes: 1}\n"
                           "workloads:\n"
                           "  - {kind: all-to-all, size: 4KiB}\n"
                           "limits: {no-progress: 20us, check-interval: 2us}\n"
                           "output: {progress: false}\n";

/// 4 chips on 2 single-stage cell planes, a 4 KiB all-to-all (one page per pair).
const std::string CELL = "name: wd-cell\n"
                         "pod: {fabric: cell, accelerators: 4, cell: {links: 2}}\n"
                         "workloads:\n"
                         "  - {kind: all-to-all, size: 4KiB}\n"
                         "limits: {no-progress: 50us, check-interval: 5us}\n"
                         "output: {progress: false}\n";

/// 4 accelerators on one switch with CBFC, a 16 KiB all-to-all.
const std::string GENERIC = "name: wd-generic\n"
                            "pod: {accelerators: 4, switch: {radix: 4}, "
                            "flow-control: {kind: cbfc}}\n"
                            "workloads:\n"
                            "  - {kind: all-to-all, size: 16KiB}\n"
                            "limits: {no-progress: 50us, check-interval: 5us}\n"
                            "output: {progress: false}\n";

/// Counts NoProgress reports.
struct ReportSink
{
    uint32_t calls{0};  //!< reports
    std::string report; //!< the last one

    /// \param r the report
    void OnReport(const std::string& r)
    {
        ++calls;
        report = r;
    }
};

} // namespace

/**
 * Synthetic probes: a probe that holds one unit and never moves, while bytes are delivered at
 * 1.5 us and 7.3 us; checks every 1 us, timeout 10 us, armed at 0. The deliveries are seen at
 * the checks at 2 us and 8 us; the probe is seen holding from the check at 1 us. The run stops
 * at max(1, 8) + 10 = 18 us, naming the probe. A second watchdog whose probe holds nothing, with
 * no other event, goes idle at its first check (1 us) and schedules nothing more.
 */
class ProgressWatchdogRuleTestCase : public TestCase
{
  public:
    ProgressWatchdogRuleTestCase()
        : TestCase("Synthetic probes: stopped 10 us after the last progress check; idle when "
                   "nothing is held")
    {
    }

  private:
    void DoRun() override
    {
        {
            uint64_t delivered = 0;
            Ptr<ProgressWatchdog> w = CreateObject<ProgressWatchdog>();
            w->SetAttribute("CheckInterval", TimeValue(MicroSeconds(1)));
            w->SetAttribute("Timeout", TimeValue(MicroSeconds(10)));
            w->AddProbe({"A",
                         []() { return uint64_t(1); },
                         []() { return uint64_t(0); },
                         []() { return std::string("1 unit, never sent"); }});
            w->AddProbe({"B",
                         []() { return uint64_t(0); },
                         []() { return uint64_t(0); },
                         []() { return std::string("empty"); }});
            w->SetCounters([]() { return uint64_t(1); },
                           []() { return uint64_t(0); },
                           [&delivered]() { return delivered; });
            ReportSink sink;
            w->TraceConnectWithoutContext("NoProgress", MakeCallback(&ReportSink::OnReport, &sink));
            Simulator::Schedule(Seconds(0), &ProgressWatchdog::Arm, w);
            Simulator::Schedule(NanoSeconds(1500), [&delivered]() { delivered += 100; });
            Simulator::Schedule(NanoSeconds(7300), [&delivered]() { delivered += 100; });
            Simulator::Stop(MilliSeconds(1)); // safety: far beyond the expected stop
            Simulator::Run();
            NS_TEST_EXPECT_MSG_EQ(w->IsStopped(), true, "stopped");
            NS_TEST_EXPECT_MSG_EQ(Simulator::Now(), MicroSeconds(18), "max(1, 8) + 10 us");
            NS_TEST_EXPECT_MSG_EQ(w->GetDetectionTime(), MicroSeconds(18), "detection time");
            NS_TEST_EXPECT_MSG_EQ(w->GetLastProgress(), MicroSeconds(8), "last progress check");
            NS_TEST_EXPECT_MSG_EQ(w->GetChecks(), 18, "one check per microsecond");
            NS_TEST_ASSERT_MSG_EQ(w->GetStuck().size(), 1, "one stuck probe");
            NS_TEST_EXPECT_MSG_EQ(w->GetStuck()[0], "A", "the probe that holds work");
            NS_TEST_EXPECT_MSG_EQ(sink.calls, 1, "one report");
            NS_TEST_EXPECT_MSG_EQ(sink.report, w->GetReport(), "the trace carries the report");
            NS_TEST_EXPECT_MSG_NE(w->GetReport().find("A: 1 unit, never sent"),
                                  std::string::npos,
                                  "the report describes the probe: " << w->GetReport());
            NS_TEST_EXPECT_MSG_NE(w->GetReport().find("1 of 1 messages outstanding"),
                                  std::string::npos,
                                  "the report counts the messages");
            w->Dispose();
            Simulator::Destroy();
        }
        {
            Ptr<ProgressWatchdog> w = CreateObject<ProgressWatchdog>();
            w->SetAttribute("CheckInterval", TimeValue(MicroSeconds(1)));
            w->SetAttribute("Timeout", TimeValue(MicroSeconds(10)));
            w->AddProbe({"B",
                         []() { return uint64_t(0); },
                         []() { return uint64_t(0); },
                         []() { return std::string("empty"); }});
            w->SetCounters([]() { return uint64_t(1); },
                           []() { return uint64_t(0); },
                           []() { return uint64_t(0); });
            Simulator::Schedule(Seconds(0), &ProgressWatchdog::Arm, w);
            Simulator::Run();
            NS_TEST_EXPECT_MSG_EQ(w->IsStopped(), false, "nothing held: not stuck");
            NS_TEST_EXPECT_MSG_EQ(w->IsArmed(), false, "idle");
            NS_TEST_EXPECT_MSG_EQ(w->GetChecks(), 1, "one check, then nothing scheduled");
            NS_TEST_EXPECT_MSG_EQ(Simulator::Now(), MicroSeconds(1), "the run ended there");
            w->Dispose();
            Simulator::Destroy();
        }
    }
};

/**
 * A pod case whose run the watchdog stops: checks that its report names what it should.
 */
class PodWatchdogStuckTestCase : public TestCase
{
  public:
    /// \param name the case's name
    explicit PodWatchdogStuckTestCase(const std::string& name)
        : TestCase(name)
    {
    }

  protected:
    /**
     * Expect every one of \p parts in the watchdog's report.
     * \param report the report
     * \param parts substrings it must contain
     */
    void ExpectReportHas(const std::string& report, std::initializer_list<const char*> parts)
    {
        for (const char* what : parts)
        {
            NS_TEST_EXPECT_MSG_NE(report.find(what),
                                  std::string::npos,
                                  "report has '" << what << "': " << report);
        }
    }
};

/**
 * UALink: accelerator 3's port gets no ReqData credit (its partner advertises none), so its
 * writes never leave; the other 9 messages complete. The watchdog stops the run at
 * ExpectedStop(last completion) and names acc3's TL queue (0 ReqData credits) and the requests
 * waiting at its UPLI: 3 x 16 = 48 writes, at most the UPLI's 32 Req credits (UalinkUpli
 * ReqPoolCredits) in the TL queue, so 16 wait for room.
 */
class PodWatchdogUalinkTestCase : public PodWatchdogStuckTestCase
{
  public:
    PodWatchdogUalinkTestCase()
        : PodWatchdogStuckTestCase(
              "UALink pod with a port without ReqData credits: stopped at the last "
              "completion + timeout, naming the port")
    {
    }

  private:
    void DoRun() override
    {
        const RunResults r = RunScenario(UALINK, {}, [](const PodTopology& topo) {
            Ptr<UalinkEndpoint> e = DynamicCast<UalinkEndpoint>(topo.GetEndpoint(3));
            e->GetTxQueue(0)->SetAttribute("ReqDataCredits", UintegerValue(0));
        });
        NS_TEST_EXPECT_MSG_EQ(r.messages.src.size(), 12, "4 x 3 messages");
        NS_TEST_EXPECT_MSG_EQ(Outstanding(r), 3, "acc3's three messages");
        const Time expected = ExpectedStop(LastActivity(r), MicroSeconds(2), MicroSeconds(20));
        NS_TEST_EXPECT_MSG_EQ(PicoSeconds(r.simTimePs), expected, "stop time: " << r.watchdog);
        NS_TEST_EXPECT_MSG_EQ(r.watchdog.rfind("no progress at", 0), 0, "a no-progress report");
        ExpectReportHas(r.watchdog,
                        {"2 queue(s) hold work",
                         "3 of 12 messages outstanding",
                         "acc3:port0 (acc3->p0.sw0) tx queue: 32 ops waiting",
                         "ReqData 0",
                         "acc3:port0 UPLI requests: 16 requests waiting"});
        NS_TEST_EXPECT_MSG_EQ(r.bytesDropped, 0, "credits hold back, never drop");
    }
};

/**
 * Cell fabric: chip 1's grant scheduler may have no grant out (MaxOutstandingGrants 0), so the
 * pages to it are never granted; the 9 other messages complete. The watchdog stops the run at
 * ExpectedStop(last completion) and names the VOQs of chips 0, 2 and 3 (each one page of 4 KiB
 * waiting on a grant from acc1) and chip 1's grant scheduler: a source's first message to a
 * destination goes to cluster (source id) mod 4, so one request waits in each of clusters 0, 2
 * and 3, none granted, and all 24576 Rx buffer cells stay free.
 */
class PodWatchdogCellTestCase : public PodWatchdogStuckTestCase
{
  public:
    PodWatchdogCellTestCase()
        : PodWatchdogStuckTestCase(
              "Cell pod whose receiver never grants: stopped at the last completion + "
              "timeout, naming the VOQs and the grant scheduler")
    {
    }

  private:
    void DoRun() override
    {
        const RunResults r = RunScenario(CELL, {}, [](const PodTopology& topo) {
            topo.GetEndpoint(1)->SetAttribute("MaxOutstandingGrants", UintegerValue(0));
        });
        NS_TEST_EXPECT_MSG_EQ(r.messages.src.size(), 12, "4 x 3 messages");
        NS_TEST_EXPECT_MSG_EQ(Outstanding(r), 3, "the three messages to acc1");
        const Time expected = ExpectedStop(LastActivity(r), MicroSeconds(5), MicroSeconds(50));
        NS_TEST_EXPECT_MSG_EQ(PicoSeconds(r.simTimePs), expected, "stop time: " << r.watchdog);
        ExpectReportHas(
            r.watchdog,
            {"4 queue(s) hold work",
             "3 of 12 messages outstanding",
             "acc0 VOQs: 1 Tx jobs pending: VOQ to acc1 cluster 0 (0 jobs, 1 pages waiting on a "
             "grant)",
             "acc2 VOQs: 1 Tx jobs pending: VOQ to acc1 cluster 2",
             "acc3 VOQs: 1 Tx jobs pending: VOQ to acc1 cluster 3",
             "acc1 grant scheduler: 24576 free Rx buffer cells, cluster 0: 1 requests waiting, 0 "
             "grants out of at most 0, cluster 2: 1 requests waiting, 0 grants out of at most 0, "
             "cluster 3: 1 requests waiting"});
        NS_TEST_EXPECT_MSG_EQ(r.bytesDropped, 0, "grants hold back, never drop");
    }
};

/**
 * Generic (ethernet) or SUE fabric with CBFC whose ports advertise 1 KiB of buffer per class: a
 * 4096 B unit plus its 18 B header (ethernet; SUE packs at least as much of a 16 KiB message
 * into a frame) needs more than the 16 credits of 64 B a port has, so no unit ever leaves an
 * accelerator. The loader refuses such a buffer (it must hold one frame), so the test sets it
 * on the loaded scenario: the watchdog must still stop a pod stuck this way. Nothing progresses
 * after the arming post at 0: every accelerator's queue is seen holding at the first check (5 us)
 * and the run stops at 5 + 50 = 55 us, all 12 messages outstanding, naming the four accelerator
 * queues.
 */
class PodWatchdogGenericTestCase : public PodWatchdogStuckTestCase
{
  public:
    /// \param fabric pod.fabric
    PodWatchdogGenericTestCase(const std::string& fabric)
        : PodWatchdogStuckTestCase(
              fabric + " CBFC pod whose credits cannot cover a unit: stopped at the first "
                       "check + timeout, naming every accelerator queue"),
          m_fabric(fabric)
    {
    }

  private:
    void DoRun() override
    {
        const RunResults r =
            RunScenario(GENERIC, {"pod.fabric=" + m_fabric}, nullptr, [](Scenario& s) {
                s.pod.fc.creditBuffer = 1024;
            });
        NS_TEST_EXPECT_MSG_EQ(Outstanding(r), 12, "nothing delivered");
        NS_TEST_EXPECT_MSG_EQ(PicoSeconds(r.simTimePs), MicroSeconds(55), "5 + 50 us");
        NS_TEST_EXPECT_MSG_EQ(r.deadlock, "", "no switch holds units: not the deadlock monitor");
        ExpectReportHas(r.watchdog,
                        {"no progress at +55us",
                         "4 queue(s) hold work",
                         "12 of 12 messages outstanding",
                         "acc0:port0 (acc0->p0.sw0) tx queue",
                         "acc3:port0 (acc3->p0.sw0) tx queue"});
    }

    std::string m_fabric; //!< pod.fabric
};

/**
 * Pods that make progress: with the watchdog checking every 2 us (timeout 20 us) and without
 * it, the message tables, bytes and drops are identical and nothing is reported; the watchdog
 * adds only its checks, at most one per interval from the first post (at 0) to the last
 * delivery, plus the one that finds nothing outstanding: 1 <= extra events <= floor(last / 2 us)
 * + 1.
 */
class PodWatchdogProgressTestCase : public TestCase
{
  public:
    /// \param name the pod
    /// \param text its scenario
    PodWatchdogProgressTestCase(const std::string& name, const std::string& text)
        : TestCase(name + " pod that makes progress: not stopped, results identical with the "
                          "watchdog on and off"),
          m_text(text)
    {
    }

  private:
    void DoRun() override
    {
        const RunResults on =
            RunScenario(m_text, {"limits.no-progress=20us", "limits.check-interval=2us"});
        const RunResults off = RunScenario(m_text, {"limits.no-progress=0"});
        NS_TEST_EXPECT_MSG_EQ(on.watchdog, "", "not stopped");
        NS_TEST_EXPECT_MSG_EQ(Outstanding(on), 0, "every message done");
        NS_TEST_EXPECT_MSG_EQ((on.messages.postPs == off.messages.postPs), true, "posts");
        NS_TEST_EXPECT_MSG_EQ((on.messages.deliverPs == off.messages.deliverPs),
                              true,
                              "deliveries");
        NS_TEST_EXPECT_MSG_EQ((on.messages.completePs == off.messages.completePs),
                              true,
                              "completions");
        NS_TEST_EXPECT_MSG_EQ(on.simTimePs, off.simTimePs, "simulated time");
        NS_TEST_EXPECT_MSG_EQ(on.bytesSent, off.bytesSent, "bytes sent");
        NS_TEST_EXPECT_MSG_EQ(on.bytesReceived, off.bytesReceived, "bytes received");
        NS_TEST_EXPECT_MSG_EQ(on.bytesDropped, off.bytesDropped, "bytes dropped");
        NS_TEST_EXPECT_MSG_EQ(on.packetHops, off.packetHops, "packet hops");
        const uint64_t extra = on.events - off.events;
        NS_TEST_EXPECT_MSG_GT_OR_EQ(extra, 1, "the watchdog checked");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(extra,
                                    uint64_t(LastActivity(on) / 2000000) + 1,
                                    "no check once nothing is outstanding");
    }

    std::string m_text; //!< the scenario
};

/**
 * The wall-time limit: an endless chain of events (one every nanosecond, a livelock) is
 * stopped by a 10 ms wall limit long before its 1 s simulated safety stop, which would take
 * about 10^9 events; and through a scenario, limits.wall: 1ns stops a run before its first
 * message is done, with a report of where it stands.
 */
class PodWatchdogWallTestCase : public TestCase
{
  public:
    PodWatchdogWallTestCase()
        : TestCase("Wall-time limit: an endless run is stopped, with a report")
    {
    }

  private:
    /// One link of the endless chain.
    static void Tick()
    {
        Simulator::Schedule(NanoSeconds(1), &PodWatchdogWallTestCase::Tick);
    }

    void DoRun() override
    {
        {
            WallClockLimit limit;
            bool called = false;
            Simulator::Schedule(Seconds(0), &PodWatchdogWallTestCase::Tick);
            Simulator::Stop(Seconds(1));
            limit.Start(0.01, [&called]() { called = true; });
            Simulator::Run();
            limit.Cancel();
            NS_TEST_EXPECT_MSG_EQ(limit.HasExpired(), true, "the limit stopped the run");
            NS_TEST_EXPECT_MSG_EQ(called, true, "the report was written");
            NS_TEST_EXPECT_MSG_LT(Simulator::Now(), Seconds(1), "before the safety stop");
            Simulator::Destroy();
        }
        {
            // 16 accelerators, a 1 MiB all-to-all: 240 messages; the limit expires at once.
            const RunResults r = RunScenario("name: wall\n"
                                             "pod: {accelerators: 16}\n"
                                             "workloads:\n"
                                             "  - {kind: all-to-all, size: 1MiB}\n"
                                             "limits: {wall: 1ns}\n"
                                             "output: {progress: false}\n",
                                             {});
            NS_TEST_EXPECT_MSG_EQ(r.watchdog.rfind("wall limit of 1e-09 s reached at simulated", 0),
                                  0,
                                  "a wall-limit report: " << r.watchdog);
            NS_TEST_EXPECT_MSG_GT(Outstanding(r), 0, "stopped before the end");
            NS_TEST_EXPECT_MSG_NE(r.watchdog.find(" outstanding"),
                                  std::string::npos,
                                  "the report counts the messages outstanding");
        }
    }
};

/**
 * The limits keys: defaults from the schema (no-progress 100 ms, its check interval a tenth of
 * it, no wall limit), a given check interval kept, one above no-progress refused naming the
 * field, and the wall limit read in seconds.
 */
class PodWatchdogScenarioTestCase : public TestCase
{
  public:
    PodWatchdogScenarioTestCase()
        : TestCase("Scenario keys limits.*: defaults, interval, refusal")
    {
    }

  private:
    void DoRun() override
    {
        std::string noLimits = GENERIC;
        noLimits.erase(noLimits.find("limits:"),
                       noLimits.find("output:") - noLimits.find("limits:"));
        const Scenario d = ScenarioLoader::LoadString(noLimits, "w.yaml", {});
        NS_TEST_EXPECT_MSG_EQ(d.limits.noProgress, MilliSeconds(100), "default no-progress");
        NS_TEST_EXPECT_MSG_EQ(d.limits.checkInterval, MilliSeconds(10), "a tenth of it");
        NS_TEST_EXPECT_MSG_EQ(d.limits.wallSeconds, 0.0, "no wall limit by default");
        const Scenario g = ScenarioLoader::LoadString(GENERIC, "w.yaml", {"limits.wall=600s"});
        NS_TEST_EXPECT_MSG_EQ(g.limits.checkInterval, MicroSeconds(5), "as given");
        NS_TEST_EXPECT_MSG_EQ(g.limits.wallSeconds, 600.0, "600 s");
        const Scenario off =
            ScenarioLoader::LoadString(GENERIC, "w.yaml", {"limits.no-progress=0"});
        NS_TEST_EXPECT_MSG_EQ(off.limits.noProgress, Seconds(0), "0: off");
        std::string what;
        try
        {
            ScenarioLoader::LoadString(GENERIC, "w.yaml", {"limits.check-interval=1ms"});
        }
        catch (const std::exception& e)
        {
            what = e.what();
        }
        NS_TEST_EXPECT_MSG_NE(what.find("limits.check-interval"),
                              std::string::npos,
                              "an interval above no-progress is refused: " << what);
        NS_TEST_EXPECT_MSG_NE(what.find("must not exceed limits.no-progress"),
                              std::string::npos,
                              "with the reason: " << what);
    }
};

/**
 * The watchdog suite.
 */
class PodWatchdogTestSuite : public PicosecondTestSuite
{
  public:
    PodWatchdogTestSuite()
        : PicosecondTestSuite("pod-watchdog", UNIT)
    {
        AddTestCase(new ProgressWatchdogRuleTestCase, TestCase::QUICK);
        AddTestCase(new PodWatchdogScenarioTestCase, TestCase::QUICK);
        AddTestCase(new PodWatchdogUalinkTestCase, TestCase::QUICK);
        AddTestCase(new PodWatchdogCellTestCase, TestCase::QUICK);
        AddTestCase(new PodWatchdogGenericTestCase("ethernet"), TestCase::QUICK);
        AddTestCase(new PodWatchdogGenericTestCase("sue"), TestCase::QUICK);
        AddTestCase(new PodWatchdogProgressTestCase("UALink", UALINK), TestCase::QUICK);
        AddTestCase(new PodWatchdogProgressTestCase("Cell", CELL), TestCase::QUICK);
        AddTestCase(new PodWatchdogProgressTestCase("Generic", GENERIC), TestCase::QUICK);
        AddTestCase(new PodWatchdogWallTestCase, TestCase::QUICK);
    }
};

static PodWatchdogTestSuite g_podWatchdogTestSuite; //!< registers the suite
