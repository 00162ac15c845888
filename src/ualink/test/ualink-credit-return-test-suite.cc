/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Tests of the event-free TL credit return (UalinkTxQueue::PushCredits): a credit reaches the
// partner one link delay plus one DL flit after its buffer is freed (UALink_200 Rev 1.0 section
// 5.8: an FC field in the next control half-flit back), with no event of its own; a sender that
// waits for it resumes at exactly that picosecond, and a pod with many ports that waits on credits
// all the time conserves bytes, drops nothing and ends with every credit home.

#include "ns3/fabric-channel.h"
#include "ns3/picosecond-test-suite.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/ualink-endpoint.h"
#include "ns3/ualink-helper.h"
#include "ns3/ualink-switch.h"
#include "ns3/ualink-tx-queue.h"
#include "ns3/uinteger.h"

#include <iostream>
#include <map>
#include <vector>

using namespace ns3;

namespace
{

/// Start times of the units that carry operations on one port.
struct TxTimes
{
    std::vector<Time> at; //!< PhyTxBegin of each unit with operations

    /// A unit starts.
    void OnTx(Ptr<const FabricPacket> p)
    {
        if (p->segments && !p->segments->empty())
        {
            at.push_back(Simulator::Now());
        }
    }
};

/// Deliveries by (source, message id).
struct Delivered
{
    std::map<std::pair<uint32_t, uint64_t>, uint64_t> bytes; //!< message bytes delivered

    /// A delivery.
    void OnDelivered(const FabricMessage& m)
    {
        bytes[{m.src, m.id}] += m.bytes;
    }
};

} // namespace

/**
 * \ingroup ualink-tests
 * A credit-stalled sender resumes at exactly the arrival of its credit. Pod of 2 accelerators on
 * one x4 rail; A's port has 1 ReqCmd credit of the switch (ReqCmdCredits = 1), and A writes two
 * 256 B messages to B. The first write leaves at once and takes the credit; the second waits.
 * The switch frees the first write's ingress buffer when the write leaves its egress port to B
 * (UalinkSwitch::Sent, at that unit's PhyTxBegin, t1) and returns the credit: it reaches A one
 * way of the A-switch link (channel delay + PHY latency, FabricChannel::GetOneWayDelay) plus one
 * DL flit later (680 B codeword at 4 x 212.5 Gb/s = 6.4 ns; section 5.8: the FC field rides in
 * the next control half-flit back). Expected: A's second unit starts at exactly t1 + one way +
 * 6.4 ns (not a picosecond later: the credit's arrival wakes the stalled port), A counted credit
 * stalls, and after the run every ReqCmd credit is home (1 of 1) with no return left on its way.
 */
class UalinkCreditResumeTestCase : public TestCase
{
  public:
    UalinkCreditResumeTestCase()
        : TestCase("Credit return without an event: a stalled sender resumes at the arrival")
    {
    }

  private:
    void DoRun() override
    {
        UalinkHelper h;
        UalinkHelper::Pod pod = h.Install(2, 1);
        Ptr<UalinkTxQueue> q = pod.acc[0]->GetTxQueue(0);
        q->SetAttribute("ReqCmdCredits", UintegerValue(1));
        TxTimes a;
        TxTimes egress;
        pod.acc[0]->GetPort(0)->TraceConnectWithoutContext("PhyTxBegin",
                                                           MakeCallback(&TxTimes::OnTx, &a));
        pod.sw[0]->GetPort(1)->TraceConnectWithoutContext("PhyTxBegin",
                                                          MakeCallback(&TxTimes::OnTx, &egress));
        Delivered d;
        pod.acc[1]->SetDeliveredCallback(MakeCallback(&Delivered::OnDelivered, &d));
        pod.acc[0]->Send(1, 256, 0);
        pod.acc[0]->Send(1, 256, 0);
        Simulator::Run();
        const Time oneWay = pod.acc[0]->GetPort(0)->GetFabricChannel()->GetOneWayDelay();
        const Time slot = PicoSeconds(6400);
        std::cout << "credit resume: A's units at";
        for (const Time& t : a.at)
        {
            std::cout << " " << t.As(Time::NS);
        }
        std::cout << "; switch to B first at "
                  << (egress.at.empty() ? Time(-1) : egress.at[0]).As(Time::NS) << ", one way "
                  << oneWay.As(Time::NS) << "; stalls " << q->GetStats().creditStalls << ", ReqCmd "
                  << q->GetAvailableCredits(ualink::REQ_CMD) << " of "
                  << q->GetAdvertisedCredits(ualink::REQ_CMD) << std::endl;
        NS_TEST_ASSERT_MSG_EQ(a.at.size(), 2, "one unit per write (one credit each)");
        NS_TEST_ASSERT_MSG_EQ(egress.at.size(), 2, "both writes leave the switch");
        NS_TEST_ASSERT_MSG_EQ(a.at[0], Time(0), "the first write leaves at once");
        NS_TEST_ASSERT_MSG_EQ(a.at[1],
                              egress.at[0] + oneWay + slot,
                              "the second leaves at the credit's arrival, to the picosecond");
        NS_TEST_ASSERT_MSG_GT(q->GetStats().creditStalls, 0, "A waited for the credit");
        NS_TEST_ASSERT_MSG_EQ(q->GetAvailableCredits(ualink::REQ_CMD), 1, "the credit is home");
        NS_TEST_ASSERT_MSG_EQ(q->GetCreditReturnsInFlight(), 0, "no return left on its way");
        NS_TEST_ASSERT_MSG_EQ(d.bytes.size(), 2, "both writes delivered");
        Simulator::Destroy();
    }
};

/**
 * \ingroup ualink-tests
 * Many ports, credits always short: a pod of 16 accelerators with 4 ports each (4 switches of 16
 * ports, 128 links), every accelerator writes 4 KiB to every other (240 messages, 983040 B), with
 * the switches' and accelerators' advertised credits cut to 4 ReqCmd, 4 RspCmd and 16 ReqData
 * (one 256 B write takes 1 + 4: four writes in flight per link direction) so that every port
 * waits on credit returns most of the time. Conservation laws: every message is delivered whole
 * (983040 B received = sent), no unit or operation is dropped anywhere (devices and switches),
 * credit stalls happened (else the test proves nothing), and at the end every port has all the
 * credits its partner advertised, with no return left on its way.
 */
class UalinkCreditManyPortsTestCase : public TestCase
{
  public:
    UalinkCreditManyPortsTestCase()
        : TestCase("Credit return without an event: 64 ports short of credits, bytes conserved")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 16;
        const uint32_t ports = 4;
        const uint64_t bytes = 4096;
        UalinkHelper h;
        h.SetTxQueueAttribute("ReqCmdCredits", UintegerValue(4));
        h.SetTxQueueAttribute("RspCmdCredits", UintegerValue(4));
        h.SetTxQueueAttribute("ReqDataCredits", UintegerValue(16));
        UalinkHelper::Pod pod = h.Install(n, ports);
        Delivered d;
        for (uint32_t i = 0; i < n; ++i)
        {
            pod.acc[i]->SetDeliveredCallback(MakeCallback(&Delivered::OnDelivered, &d));
        }
        for (uint32_t i = 0; i < n; ++i)
        {
            for (uint32_t j = 1; j < n; ++j)
            {
                pod.acc[i]->Send((i + j) % n, bytes, 0);
            }
        }
        Simulator::Run();
        uint64_t received = 0;
        uint64_t sent = 0;
        for (uint32_t i = 0; i < n; ++i)
        {
            received += pod.acc[i]->GetReceivedPayloadBytes();
            sent += pod.acc[i]->GetBytesSent();
        }
        uint64_t drops = 0;
        for (const auto& ch : pod.links)
        {
            for (std::size_t k = 0; k < 2; ++k)
            {
                for (const auto& [reason, units] :
                     DynamicCast<FabricNetDevice>(ch->GetDevice(k))->GetStats().dropUnits)
                {
                    drops += units;
                }
            }
        }
        for (const auto& sw : pod.sw)
        {
            for (const auto& [reason, ops] : sw->GetDrops())
            {
                drops += ops;
            }
        }
        std::vector<Ptr<UalinkTxQueue>> queues;
        for (uint32_t i = 0; i < n; ++i)
        {
            for (uint32_t p = 0; p < ports; ++p)
            {
                queues.push_back(pod.acc[i]->GetTxQueue(p));
                queues.push_back(pod.sw[p]->GetTxQueue(i));
            }
        }
        uint64_t stalls = 0;
        uint64_t away = 0;
        uint64_t inFlight = 0;
        for (const auto& q : queues)
        {
            stalls += q->GetStats().creditStalls;
            inFlight += q->GetCreditReturnsInFlight();
            for (uint32_t c = 0; c < ualink::N_CREDIT_CLASSES; ++c)
            {
                const auto cls = static_cast<ualink::CreditClass>(c);
                away += q->GetAdvertisedCredits(cls) - q->GetAvailableCredits(cls);
            }
        }
        std::cout << "credits, many ports: " << queues.size() << " queues, " << d.bytes.size()
                  << " messages, " << received << " B of " << sent << " B, drops " << drops
                  << ", credit stalls " << stalls << ", credits away at the end " << away
                  << ", returns on their way " << inFlight << std::endl;
        NS_TEST_ASSERT_MSG_EQ(d.bytes.size(), n * (n - 1), "every message delivered");
        for (const auto& [key, b] : d.bytes)
        {
            NS_TEST_ASSERT_MSG_EQ(b, bytes, "each message whole");
        }
        NS_TEST_ASSERT_MSG_EQ(sent, n * (n - 1) * bytes, "983040 B sent");
        NS_TEST_ASSERT_MSG_EQ(received, sent, "bytes conserved");
        NS_TEST_ASSERT_MSG_EQ(drops, 0, "nothing dropped");
        NS_TEST_ASSERT_MSG_GT(stalls, 0, "the ports waited on credits");
        NS_TEST_ASSERT_MSG_EQ(away, 0, "every credit home");
        NS_TEST_ASSERT_MSG_EQ(inFlight, 0, "no return left on its way");
        Simulator::Destroy();
    }
};

/**
 * \ingroup ualink-tests
 * The event-free credit return (UalinkTxQueue::PushCredits).
 */
class UalinkCreditReturnTestSuite : public PicosecondTestSuite
{
  public:
    UalinkCreditReturnTestSuite()
        : PicosecondTestSuite("ualink-credits", UNIT)
    {
        AddTestCase(new UalinkCreditResumeTestCase, TestCase::QUICK);
        AddTestCase(new UalinkCreditManyPortsTestCase, TestCase::QUICK);
    }
};

/// The suite's instance.
static UalinkCreditReturnTestSuite g_ualinkCreditReturnTestSuite;
