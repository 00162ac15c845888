/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Per-station route tables, denied routes and virtual pods of the UALink switch (UALink_200
// sections 1.1, 2.4, 3.1.3, 8.4, 10.7, 10.7.1).

#include "ns3/fabric-channel.h"
#include "ns3/fabric-net-device.h"
#include "ns3/fabric-routing-table.h"
#include "ns3/fabric-switch-base.h"
#include "ns3/picosecond-test-suite.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/ualink-endpoint.h"
#include "ns3/ualink-helper.h"
#include "ns3/ualink-route-table.h"
#include "ns3/ualink-switch.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <map>
#include <vector>

using namespace ns3;

namespace
{

/// Records deliveries and completions of a pod's endpoints.
struct RouteLog
{
    std::map<std::pair<uint32_t, uint64_t>, Time> delivered; //!< (src, id) -> time, at the dst
    std::map<std::pair<uint32_t, uint64_t>, Time> completed; //!< (src, id) -> time, at the src

    /// A delivery.
    void OnDelivered(const FabricMessage& m)
    {
        delivered[{m.src, m.id}] = Simulator::Now();
    }

    /// A completion.
    void OnCompleted(const FabricMessage& m)
    {
        completed[{m.src, m.id}] = Simulator::Now();
    }

    /// Hook every endpoint of a pod.
    void Hook(const UalinkHelper::Pod& pod)
    {
        for (const auto& e : pod.acc)
        {
            e->SetDeliveredCallback(MakeCallback(&RouteLog::OnDelivered, this));
            e->SetCompletedCallback(MakeCallback(&RouteLog::OnCompleted, this));
        }
    }
};

/// Drops of one reason at one switch.
uint64_t
Drops(const Ptr<UalinkSwitch>& sw, const char* reason)
{
    const auto& d = sw->GetDrops();
    const auto it = d.find(reason);
    return it == d.end() ? 0 : it->second;
}

/// The virtual pod of each accelerator in a list of virtual pods (-1: none).
std::vector<int32_t>
Members(uint32_t n, const std::vector<std::vector<uint32_t>>& vpods)
{
    std::vector<int32_t> m(n, -1);
    for (std::size_t v = 0; v < vpods.size(); ++v)
    {
        for (uint32_t a : vpods[v])
        {
            m[a] = static_cast<int32_t>(v);
        }
    }
    return m;
}

} // namespace

/**
 * \ingroup ualink-tests
 * Route tables (sections 10.7, 10.7.1, 8.4, 2.4). A switch of 8 x1 ports has 2 stations of 4
 * ports, each with its own table shared by its 4 ports. Reset: every entry denied to every port
 * with no egress. After Install every destination 0-7 routes to its port from every ingress port
 * of both stations on both rails (U-turn included, 10.7.2); destinations 8-15 have no egress and
 * 16 and above lie beyond a 16-entry table: NoRoute; SetRoute(9, 2) then routes 9 to port 2
 * from all 8 ingress ports (both stations' tables). With virtual pods {0,1,4,5} and {2,3,6,7}
 * (each station shared by both) a lookup is routed exactly when source and destination share a
 * virtual pod: 8 sources x 4 foreign destinations = 32 denied per rail. Station 1's table is
 * programmable alone: a deny bit set there leaves station 0 and the other rail unchanged.
 * Traffic: every accelerator writes 1 KiB (4 writes of 256 B, 2 per rail by the rail hash) to
 * each of the 7 others: the 8 x 3 = 24 messages within a virtual pod are delivered; the 32 x 4 =
 * 128 writes across are dropped RouteDenied, 64 at each switch (32 pairs x 2 writes per rail),
 * none NoRoute, and with no watchdog their tags stay outstanding: 4 foreign destinations x 2
 * writes = 8 per port.
 */
class UalinkRouteTableTestCase : public TestCase
{
  public:
    UalinkRouteTableTestCase()
        : TestCase("Routes: per-station tables, lookup and deny for every source station")
    {
    }

  private:
    void DoRun() override
    {
        UalinkRouteTable fresh(16, 4);
        bool allReset = true;
        for (uint32_t d = 0; d < 16; ++d)
        {
            for (uint32_t k = 0; k < 4; ++k)
            {
                uint32_t e = 0;
                allReset &= fresh.Lookup(d, k, e) == UalinkRouteTable::NO_ROUTE &&
                            fresh.IsDenied(d, k) &&
                            fresh.GetEgress(d) == UalinkRouteTable::NO_EGRESS;
            }
        }
        NS_TEST_ASSERT_MSG_EQ(allReset, true, "reset: all deny, no egress (10.7)");
        fresh.SetEgress(3, 9);
        uint32_t e = 0;
        NS_TEST_ASSERT_MSG_EQ(fresh.Lookup(3, 1, e), UalinkRouteTable::DENIED, "egress, denied");
        fresh.SetDenied(3, 1, false);
        NS_TEST_ASSERT_MSG_EQ(fresh.Lookup(3, 1, e), UalinkRouteTable::ROUTED, "opened port 1");
        NS_TEST_ASSERT_MSG_EQ(e, 9, "to its egress");
        NS_TEST_ASSERT_MSG_EQ(fresh.Lookup(3, 0, e), UalinkRouteTable::DENIED, "port 0 still");

        UalinkHelper h;
        h.SetPhyAttribute("Lanes", UintegerValue(1));
        h.SetSwitchAttribute("RouteTableEntries", UintegerValue(16));
        const uint32_t n = 8;
        UalinkHelper::Pod pod = h.Install(n, 2);
        RouteLog log;
        log.Hook(pod);
        for (const auto& sw : pod.sw)
        {
            NS_TEST_ASSERT_MSG_EQ(sw->GetNStations(), 2, "8 x1 ports: 2 stations");
            NS_TEST_ASSERT_MSG_EQ(sw->GetPortsPerStation(), 4, "4 ports per station");
        }
        uint32_t routed = 0;
        uint32_t noRoute = 0;
        for (const auto& sw : pod.sw)
        {
            for (uint32_t i = 0; i < n; ++i)
            {
                for (uint32_t d = 0; d < 1024; ++d)
                {
                    uint32_t out = 0;
                    const auto v = sw->Lookup(i, d, out);
                    routed += v == UalinkRouteTable::ROUTED && out == d && d < n;
                    noRoute += v == UalinkRouteTable::NO_ROUTE && d >= n;
                }
            }
        }
        NS_TEST_ASSERT_MSG_EQ(routed, 2 * n * n, "every source reaches every destination");
        NS_TEST_ASSERT_MSG_EQ(noRoute, 2 * n * (1024 - n), "the others have no route");

        // SetRoute programs every station's table and opens the entry to all its ports.
        pod.sw[0]->SetRoute(9, 2);
        uint32_t routed9 = 0;
        for (uint32_t i = 0; i < n; ++i)
        {
            uint32_t out = 0;
            routed9 += pod.sw[0]->Lookup(i, 9, out) == UalinkRouteTable::ROUTED && out == 2;
        }
        NS_TEST_ASSERT_MSG_EQ(routed9, n, "destination 9 routed to port 2 from both stations");

        const std::vector<std::vector<uint32_t>> vpods = {{0, 1, 4, 5}, {2, 3, 6, 7}};
        UalinkHelper::SetVirtualPods(pod, vpods);
        const std::vector<int32_t> member = Members(n, vpods);
        for (uint32_t r = 0; r < pod.sw.size(); ++r)
        {
            uint32_t ok = 0;
            uint32_t denied = 0;
            for (uint32_t i = 0; i < n; ++i)
            {
                for (uint32_t d = 0; d < n; ++d)
                {
                    uint32_t out = 0;
                    const auto v = pod.sw[r]->Lookup(i, d, out);
                    const bool same = member[i] == member[d];
                    ok += same ? (v == UalinkRouteTable::ROUTED && out == d)
                               : (v == UalinkRouteTable::DENIED);
                    denied += v == UalinkRouteTable::DENIED;
                }
            }
            NS_TEST_ASSERT_MSG_EQ(ok, n * n, "rail " << r << ": routed iff same virtual pod");
            NS_TEST_ASSERT_MSG_EQ(denied, 32, "8 sources x 4 foreign destinations");
        }
        // Station 1 (ports 4-7) on its own: deny port 0 of station 1 (accelerator 4) to 5.
        pod.sw[0]->GetRouteTable(1).SetDenied(5, 0, true);
        uint32_t out = 0;
        NS_TEST_ASSERT_MSG_EQ(pod.sw[0]->Lookup(4, 5, out), UalinkRouteTable::DENIED, "set");
        NS_TEST_ASSERT_MSG_EQ(pod.sw[0]->Lookup(0, 5, out),
                              UalinkRouteTable::ROUTED,
                              "station 0's table unchanged");
        NS_TEST_ASSERT_MSG_EQ(pod.sw[1]->Lookup(4, 5, out),
                              UalinkRouteTable::ROUTED,
                              "the other rail unchanged");
        pod.sw[0]->GetRouteTable(1).SetDenied(5, 0, false);

        for (uint32_t s = 0; s < n; ++s)
        {
            for (uint32_t d = 0; d < n; ++d)
            {
                if (d != s)
                {
                    pod.acc[s]->Send(d, 1024, 0);
                }
            }
        }
        Simulator::Run();
        std::cout << "route tables: delivered " << log.delivered.size() << ", RouteDenied "
                  << Drops(pod.sw[0], UalinkSwitch::ROUTE_DENIED) << " + "
                  << Drops(pod.sw[1], UalinkSwitch::ROUTE_DENIED)
                  << ", outstanding at 0: " << pod.acc[0]->GetOutstanding(0) << " + "
                  << pod.acc[0]->GetOutstanding(1) << std::endl;
        NS_TEST_ASSERT_MSG_EQ(log.delivered.size(), 24, "8 x 3 messages within virtual pods");
        uint32_t crossDelivered = 0;
        for (const auto& [k, t] : log.delivered)
        {
            crossDelivered += log.completed.count(k) == 0;
        }
        NS_TEST_ASSERT_MSG_EQ(crossDelivered, 0, "every delivered message completed");
        for (const auto& sw : pod.sw)
        {
            NS_TEST_ASSERT_MSG_EQ(Drops(sw, UalinkSwitch::ROUTE_DENIED),
                                  64,
                                  "32 foreign pairs x 2 writes per rail");
            NS_TEST_ASSERT_MSG_EQ(Drops(sw, UalinkSwitch::NO_ROUTE), 0, "no NoRoute");
        }
        for (uint32_t a = 0; a < n; ++a)
        {
            for (uint32_t p = 0; p < 2; ++p)
            {
                NS_TEST_ASSERT_MSG_EQ(pod.acc[a]->GetOutstanding(p),
                                      8,
                                      "4 foreign destinations x 2 writes on each rail");
            }
        }
        Simulator::Destroy();
    }
};

/**
 * \ingroup ualink-tests
 * A denied route ends in CMPTO (sections 10.7, 3.1.3). Accelerators of one
 * station of 4 x1 ports (4 rails); A is denied B on every rail (UalinkHelper::DenyRoute) and
 * WatchdogTimeout is T = 2 us. At t0 = 1 us A writes 4 KiB to B: 16 writes of 256 B, 4 per rail
 * by the rail hash, all issued at t0 (16 of 2048 tags, 4 of 32 UPLI slots per port). Each switch
 * drops its 4 silently (RouteDenied 4, total 16 = the requests sent to B); just before t0 + T
 * all 16 tags are outstanding and nothing is isolated; at exactly t0 + T = 3 us the first
 * watchdog expires, A's station (all 4 ports) isolates once and all 16 tags are answered CMPTO:
 * the message completes at 3 us, counted failed, no tag left. C's 4 KiB to B, posted at t0 too,
 * is delivered and completes; B and C never isolate.
 */
class UalinkDeniedCmptoTestCase : public TestCase
{
  public:
    UalinkDeniedCmptoTestCase()
        : TestCase("Routes: a denied route ends in CMPTO for every outstanding tag at the source")
    {
    }

  private:
    void DoRun() override
    {
        const Time t0 = MicroSeconds(1);
        const Time wd = MicroSeconds(2);
        UalinkHelper h;
        h.SetPhyAttribute("Lanes", UintegerValue(1));
        h.SetEndpointAttribute("WatchdogTimeout", TimeValue(wd));
        UalinkHelper::Pod pod = h.Install(4, 4);
        UalinkHelper::DenyRoute(pod, 0, 1);
        RouteLog log;
        log.Hook(pod);
        Simulator::Schedule(t0, [&pod]() {
            pod.acc[0]->Send(1, 4096, 0);
            pod.acc[2]->Send(1, 4096, 0);
        });
        uint32_t outstandingBefore = 0;
        uint64_t isolationsBefore = 1;
        uint64_t deniedBefore = 0;
        Simulator::Schedule(t0 + wd - PicoSeconds(1), [&]() {
            for (uint32_t p = 0; p < 4; ++p)
            {
                outstandingBefore += pod.acc[0]->GetOutstanding(p);
            }
            isolationsBefore = pod.acc[0]->GetStats().isolations;
            for (const auto& sw : pod.sw)
            {
                deniedBefore += Drops(sw, UalinkSwitch::ROUTE_DENIED);
            }
        });
        Simulator::Run();
        const auto& st = pod.acc[0]->GetStats();
        const std::pair<uint32_t, uint64_t> a0{0, 0};
        std::cout << "denied route: " << deniedBefore << " writes dropped RouteDenied, "
                  << outstandingBefore << " tags outstanding before the watchdog; " << st.isolations
                  << " isolation, " << st.cmpto << " CMPTO, completed at "
                  << log.completed[a0].As(Time::NS) << std::endl;
        for (const auto& sw : pod.sw)
        {
            NS_TEST_ASSERT_MSG_EQ(Drops(sw, UalinkSwitch::ROUTE_DENIED), 4, "4 per rail");
        }
        NS_TEST_ASSERT_MSG_EQ(deniedBefore, 16, "every request sent to B dropped");
        NS_TEST_ASSERT_MSG_EQ(outstandingBefore, 16, "all 16 tags outstanding before t0 + T");
        NS_TEST_ASSERT_MSG_EQ(isolationsBefore, 0, "not isolated before t0 + T");
        NS_TEST_ASSERT_MSG_EQ(st.isolations, 1, "one station, isolated once");
        NS_TEST_ASSERT_MSG_EQ(st.cmpto, 16, "CMPTO for every outstanding tag");
        NS_TEST_ASSERT_MSG_EQ(st.failedMessages, 1, "the message failed");
        NS_TEST_ASSERT_MSG_EQ(log.completed.count(a0), 1, "and completed");
        NS_TEST_ASSERT_MSG_EQ(log.completed[a0], t0 + wd, "at exactly t0 + WatchdogTimeout");
        NS_TEST_ASSERT_MSG_EQ(log.delivered.count(a0), 0, "never delivered");
        for (uint32_t p = 0; p < 4; ++p)
        {
            NS_TEST_ASSERT_MSG_EQ(pod.acc[0]->GetOutstanding(p), 0, "no tag left");
        }
        const std::pair<uint32_t, uint64_t> c0{2, 0};
        NS_TEST_ASSERT_MSG_EQ(log.delivered.count(c0), 1, "C's write delivered");
        NS_TEST_ASSERT_MSG_EQ(log.completed.count(c0), 1, "and completed");
        NS_TEST_ASSERT_MSG_EQ(pod.acc[2]->GetStats().isolations, 0, "C untouched");
        NS_TEST_ASSERT_MSG_EQ(pod.acc[1]->GetStats().isolations, 0, "B untouched");
        Simulator::Destroy();
    }
};

/**
 * \ingroup ualink-tests
 * Virtual pods isolate faults (sections 1.1, 3.1, 3.1.4, 8.4, 10.7.1). 8 accelerators with one
 * station of 2 x2 ports (2 rails); the switches' stations of 2 ports are each shared by both
 * virtual pods A = {0, 2, 4, 6} and B = {1, 3, 5, 7}. In each virtual pod every member writes
 * 16 KiB to every other (12 messages per virtual pod), with 2 us watchdogs. The same traffic
 * runs fault-free, with B's accelerator 3's port 0 link down at 100 ns, and with accelerator 5
 * down (both its links) at 100 ns: every message of A is delivered and completed at exactly the
 * fault-free times (nothing of A shares a queue, a credit or a table verdict with B), A never
 * isolates, while the faults do reach B (isolations, CMPTO). A write from 0 to 1 is denied.
 */
class UalinkVirtualPodTestCase : public TestCase
{
  public:
    UalinkVirtualPodTestCase()
        : TestCase("Routes: a fault in one virtual pod leaves the other's completion times")
    {
    }

  private:
    /// The outcome of one run.
    struct Outcome
    {
        std::map<std::pair<uint32_t, uint64_t>, Time> deliveredA; //!< A's deliveries
        std::map<std::pair<uint32_t, uint64_t>, Time> completedA; //!< A's completions
        uint64_t isolationsA{0};                                  //!< A's isolations
        uint64_t isolationsB{0};                                  //!< B's isolations
        uint64_t cmptoB{0};                                       //!< B's CMPTO
        uint64_t denied{0};                                       //!< RouteDenied
    };

    /**
     * \param fault 0: none, 1: link down at 3 port 0, 2: accelerator 5 down
     * \return the outcome
     */
    Outcome RunOnce(int fault)
    {
        UalinkHelper h;
        h.SetPhyAttribute("Lanes", UintegerValue(2));
        h.SetEndpointAttribute("WatchdogTimeout", TimeValue(MicroSeconds(2)));
        UalinkHelper::Pod pod = h.Install(8, 2);
        const std::vector<std::vector<uint32_t>> vpods = {{0, 2, 4, 6}, {1, 3, 5, 7}};
        UalinkHelper::SetVirtualPods(pod, vpods);
        RouteLog log;
        log.Hook(pod);
        for (const auto& vp : vpods)
        {
            for (uint32_t s : vp)
            {
                for (uint32_t d : vp)
                {
                    if (s != d)
                    {
                        pod.acc[s]->Send(d, 16384, 0);
                    }
                }
            }
        }
        Simulator::Schedule(NanoSeconds(100), [&pod, fault]() {
            if (fault == 1)
            {
                pod.acc[3]->GetPort(0)->GetFabricChannel()->SetLinkUp(false);
            }
            else if (fault == 2)
            {
                for (uint32_t p = 0; p < 2; ++p)
                {
                    pod.acc[5]->GetPort(p)->GetFabricChannel()->SetLinkUp(false);
                }
            }
        });
        // A write across virtual pods, after A's traffic has started.
        Simulator::Schedule(NanoSeconds(50), [&pod]() { pod.acc[0]->Send(1, 256, 0); });
        Simulator::Run();
        Outcome o;
        for (const auto& [k, t] : log.delivered)
        {
            if (k.first % 2 == 0)
            {
                o.deliveredA[k] = t;
            }
        }
        for (const auto& [k, t] : log.completed)
        {
            if (k.first % 2 == 0)
            {
                o.completedA[k] = t;
            }
        }
        for (uint32_t a = 0; a < 8; ++a)
        {
            const auto& st = pod.acc[a]->GetStats();
            (a % 2 == 0 ? o.isolationsA : o.isolationsB) += st.isolations;
            o.cmptoB += a % 2 == 1 ? st.cmpto : 0;
        }
        for (const auto& sw : pod.sw)
        {
            o.denied += Drops(sw, UalinkSwitch::ROUTE_DENIED);
        }
        Simulator::Destroy();
        return o;
    }

    void DoRun() override
    {
        const Outcome clean = RunOnce(0);
        NS_TEST_ASSERT_MSG_EQ(clean.deliveredA.size(), 12, "A: 4 x 3 messages delivered");
        // The write across is dropped; 0's watchdog isolates its station 2 us after it, when
        // A's traffic (48 KiB per member over 2 x2 ports, about 0.5 us) is done: in every run.
        NS_TEST_ASSERT_MSG_EQ(clean.denied, 1, "the write across virtual pods denied");
        NS_TEST_ASSERT_MSG_EQ(clean.isolationsB, 0, "fault-free: B not isolated");
        for (int fault = 1; fault <= 2; ++fault)
        {
            const Outcome f = RunOnce(fault);
            std::cout << "virtual pods, fault " << fault << ": A delivered " << f.deliveredA.size()
                      << " (identical times: "
                      << (f.deliveredA == clean.deliveredA && f.completedA == clean.completedA)
                      << "), B isolations " << f.isolationsB << ", B CMPTO " << f.cmptoB
                      << std::endl;
            NS_TEST_ASSERT_MSG_EQ((f.deliveredA == clean.deliveredA),
                                  true,
                                  "A's deliveries at the fault-free times");
            NS_TEST_ASSERT_MSG_EQ((f.completedA == clean.completedA),
                                  true,
                                  "A's completions at the fault-free times");
            NS_TEST_ASSERT_MSG_EQ(f.isolationsA, clean.isolationsA, "A's isolations unchanged");
            NS_TEST_ASSERT_MSG_GT(f.isolationsB, 0, "the fault reached B");
            NS_TEST_ASSERT_MSG_GT(f.cmptoB, 0, "B's requests to the fault answered CMPTO");
        }
    }
};

/**
 * \ingroup ualink-tests
 * The switch's generic face (FabricSwitchBase; sections 10.7, 5.1.1, Table 5-2, 10.3). A pod of 4
 * accelerators with one x4 port each, seen through a FabricSwitchBase pointer: 4 ports; the
 * switch-wide routing table holds one port per destination, destination d to port d (the pod's
 * wiring), nothing beyond 3; SetDenied through the base sets the deny bit of the ingress port's
 * station table (Lookup says DENIED, IsDenied true for that port only) and clears it. Traffic: A
 * (port 1) writes 4 KiB to port 0, 16 WriteFulls of 256 B, each answered by a write response.
 * The buffer (the Occupancy trace source connected on the switch) takes each write's 16 B request
 * field and 8 data half-flits of 32 B, 272 B, and each response's 8 B field (Table 5-2, 5.1.1):
 * 16 x 272 + 16 x 8 = 4480 B admitted and as many released (conservation), 0 held at the end, the
 * traced maximum equal to GetPeakOccupancy and between one write (272 B) and all 16 (4352 B); 32
 * operations forwarded, nothing dropped.
 */
class UalinkSwitchFaceTestCase : public TestCase
{
  public:
    UalinkSwitchFaceTestCase()
        : TestCase("Switch face: ports, routes, denial and buffer through FabricSwitchBase")
    {
    }

  private:
    /// The Occupancy trace: bytes admitted and released, the largest level.
    struct Trace
    {
        uint64_t admitted{0}; //!< sum of the increases
        uint64_t released{0}; //!< sum of the decreases
        uint64_t max{0};      //!< largest level
        uint64_t last{0};     //!< last level

        /**
         * The sink.
         * \param from the old level
         * \param to the new level
         */
        void Changed(uint64_t from, uint64_t to)
        {
            (to > from ? admitted : released) += to > from ? to - from : from - to;
            max = std::max(max, to);
            last = to;
        }
    };

    void DoRun() override
    {
        UalinkHelper h;
        UalinkHelper::Pod pod = h.Install(4, 1);
        Ptr<FabricSwitchBase> sw = pod.sw[0];
        NS_TEST_ASSERT_MSG_EQ(sw->GetNPorts(), 4, "a port per accelerator");
        Ptr<FabricRoutingTable> routes = sw->GetRoutingTable();
        bool own = routes->GetNDestinations() == 4;
        for (uint32_t d = 0; d < 4; ++d)
        {
            own &= routes->GetPortGroup(d) == std::vector<uint32_t>{d} &&
                   routes->Lookup(d, 12345) == d;
        }
        NS_TEST_ASSERT_MSG_EQ(own, true, "destination d to port d, one port each");
        NS_TEST_ASSERT_MSG_EQ(routes->Lookup(4, 0), FabricRoutingTable::NO_PORT, "no route");
        sw->SetDenied(1, 2, true);
        uint32_t out = 0;
        NS_TEST_ASSERT_MSG_EQ(pod.sw[0]->Lookup(1, 2, out), UalinkRouteTable::DENIED, "denied");
        NS_TEST_ASSERT_MSG_EQ(sw->IsDenied(1, 2), true, "the deny bit of port 1");
        NS_TEST_ASSERT_MSG_EQ(sw->IsDenied(3, 2), false, "not port 3's");
        sw->SetDenied(1, 2, false);
        NS_TEST_ASSERT_MSG_EQ(pod.sw[0]->Lookup(1, 2, out), UalinkRouteTable::ROUTED, "open");

        Trace t;
        NS_TEST_ASSERT_MSG_EQ(
            sw->TraceConnectWithoutContext("Occupancy", MakeCallback(&Trace::Changed, &t)),
            true,
            "the switch's Occupancy trace source");
        pod.acc[1]->Send(0, 4096, 0);
        Simulator::Run();
        std::cout << "switch face: admitted " << t.admitted << " B, released " << t.released
                  << " B, peak " << sw->GetPeakOccupancy() << " B, forwarded " << sw->GetForwarded()
                  << std::endl;
        NS_TEST_ASSERT_MSG_EQ(t.admitted, 16 * 272 + 16 * 8, "writes and responses admitted");
        NS_TEST_ASSERT_MSG_EQ(t.released, t.admitted, "all released");
        NS_TEST_ASSERT_MSG_EQ(sw->GetOccupancy(), 0, "nothing held");
        NS_TEST_ASSERT_MSG_EQ(t.last, 0, "the trace ends at 0");
        NS_TEST_ASSERT_MSG_EQ(t.max, sw->GetPeakOccupancy(), "the trace's peak");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(t.max, 272u, "at least one write held");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(t.max, 16u * 272 + 16 * 8, "at most everything");
        NS_TEST_ASSERT_MSG_EQ(sw->GetForwarded(), 32, "16 writes and 16 responses");
        NS_TEST_ASSERT_MSG_EQ(sw->GetDrops().empty(), true, "nothing dropped");
        Simulator::Destroy();
    }
};

/**
 * \ingroup ualink-tests
 * The route-table tests of the UALink switch.
 */
class UalinkRoutesTestSuite : public PicosecondTestSuite
{
  public:
    UalinkRoutesTestSuite()
        : PicosecondTestSuite("ualink-routes", UNIT)
    {
        AddTestCase(new UalinkRouteTableTestCase, TestCase::QUICK);
        AddTestCase(new UalinkDeniedCmptoTestCase, TestCase::QUICK);
        AddTestCase(new UalinkVirtualPodTestCase, TestCase::QUICK);
        AddTestCase(new UalinkSwitchFaceTestCase, TestCase::QUICK);
    }
};

/// The suite's instance.
static UalinkRoutesTestSuite g_ualinkRoutesTestSuite;
