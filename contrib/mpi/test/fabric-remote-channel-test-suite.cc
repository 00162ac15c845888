/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/fabric-channel.h"
#include "ns3/fabric-link-helper.h"
#include "ns3/fabric-net-device.h"
#include "ns3/fabric-remote-channel.h"
#include "ns3/mpi-receiver.h"
#include "ns3/node.h"
#include "ns3/picosecond-test-suite.h"
#include "ns3/test.h"

using namespace ns3;

/**
 * \ingroup fabric-tests
 * \brief A unit survives FabricRemoteChannel::Serialize / Deserialize field for field.
 *
 * Expected values: the ones written (serialization is the identity on every carried field),
 * including a packed unit's segment list, the corrupted flag and picosecond times that do not
 * fit in 32 bits; the sender's queue links are not carried (null after the trip).
 */
class FabricRemoteSerializeTestCase : public TestCase
{
  public:
    FabricRemoteSerializeTestCase()
        : TestCase("a unit round-trips through the remote channel's serialization")
    {
    }

  private:
    void DoRun() override
    {
        FabricPacket p;
        p.src = 1000;
        p.dst = 1023;
        p.tclass = 7;
        p.msgId = 0x123456789ULL;
        p.msgBytes = 5ULL << 33;
        p.offset = 4096;
        p.payloadBytes = 4096;
        p.headerBytes = 46;
        p.flowHash = 0xdeadbeef;
        p.cookie = 0xfedcba9876543210ULL;
        p.posted = PicoSeconds(123456789012345LL);
        p.sentAt = PicoSeconds(987654321);
        p.inPort = 17;
        p.outPort = 255;
        p.tailArrival = PicoSeconds(5000000013800LL);
        p.sourceRoute = 0x0504030201ULL;
        p.kind = FabricPacket::TRANSPORT_ACK;
        p.ctrlClass = 3;
        p.ctrlValue = 1ULL << 40;
        p.ctrlValue2 = 77;
        p.linkSeq = 99999;
        p.poolCredits = 12;
        p.psn = 31337;
        p.ackPsn = 31000;
        p.hasAck = true;
        p.isNack = true;
        p.ackVc = 2;
        p.next = Create<FabricPacket>();
        p.unackedNext = Create<FabricPacket>();
        auto segs = std::make_shared<std::vector<FabricPacket::Segment>>(2);
        (*segs)[0].msgId = 5;
        (*segs)[0].msgBytes = 8192;
        (*segs)[0].offset = 0;
        (*segs)[0].cookie = 42;
        (*segs)[0].posted = NanoSeconds(10);
        (*segs)[0].bytes = 256;
        (*segs)[0].tclass = 1;
        (*segs)[0].op = 2;
        (*segs)[0].src = 3;
        (*segs)[0].dst = 4;
        (*segs)[0].aux = 0xabcdef;
        (*segs)[1] = (*segs)[0];
        (*segs)[1].msgId = 6;
        (*segs)[1].offset = 256;
        p.segments = segs;

        const std::vector<uint8_t> bytes = FabricRemoteChannel::Serialize(p, true);
        bool corrupted = false;
        Ptr<FabricPacket> q =
            FabricRemoteChannel::Deserialize(bytes.data(), bytes.size(), corrupted);
        NS_TEST_ASSERT_MSG_EQ(corrupted, true, "corrupted flag");
        NS_TEST_ASSERT_MSG_EQ(q->src, p.src, "src");
        NS_TEST_ASSERT_MSG_EQ(q->dst, p.dst, "dst");
        NS_TEST_ASSERT_MSG_EQ(+q->tclass, +p.tclass, "tclass");
        NS_TEST_ASSERT_MSG_EQ(q->msgId, p.msgId, "msgId");
        NS_TEST_ASSERT_MSG_EQ(q->msgBytes, p.msgBytes, "msgBytes");
        NS_TEST_ASSERT_MSG_EQ(q->offset, p.offset, "offset");
        NS_TEST_ASSERT_MSG_EQ(q->payloadBytes, p.payloadBytes, "payloadBytes");
        NS_TEST_ASSERT_MSG_EQ(q->headerBytes, p.headerBytes, "headerBytes");
        NS_TEST_ASSERT_MSG_EQ(q->flowHash, p.flowHash, "flowHash");
        NS_TEST_ASSERT_MSG_EQ(q->cookie, p.cookie, "cookie");
        NS_TEST_ASSERT_MSG_EQ(q->posted, p.posted, "posted");
        NS_TEST_ASSERT_MSG_EQ(q->sentAt, p.sentAt, "sentAt");
        NS_TEST_ASSERT_MSG_EQ(q->inPort, p.inPort, "inPort");
        NS_TEST_ASSERT_MSG_EQ(q->outPort, p.outPort, "outPort");
        NS_TEST_ASSERT_MSG_EQ(q->tailArrival, p.tailArrival, "tailArrival");
        NS_TEST_ASSERT_MSG_EQ(q->sourceRoute, p.sourceRoute, "sourceRoute");
        NS_TEST_ASSERT_MSG_EQ(q->kind, p.kind, "kind");
        NS_TEST_ASSERT_MSG_EQ(+q->ctrlClass, +p.ctrlClass, "ctrlClass");
        NS_TEST_ASSERT_MSG_EQ(q->ctrlValue, p.ctrlValue, "ctrlValue");
        NS_TEST_ASSERT_MSG_EQ(q->ctrlValue2, p.ctrlValue2, "ctrlValue2");
        NS_TEST_ASSERT_MSG_EQ(q->linkSeq, p.linkSeq, "linkSeq");
        NS_TEST_ASSERT_MSG_EQ(q->poolCredits, p.poolCredits, "poolCredits");
        NS_TEST_ASSERT_MSG_EQ(q->psn, p.psn, "psn");
        NS_TEST_ASSERT_MSG_EQ(q->ackPsn, p.ackPsn, "ackPsn");
        NS_TEST_ASSERT_MSG_EQ(q->hasAck, p.hasAck, "hasAck");
        NS_TEST_ASSERT_MSG_EQ(q->isNack, p.isNack, "isNack");
        NS_TEST_ASSERT_MSG_EQ(+q->ackVc, +p.ackVc, "ackVc");
        NS_TEST_ASSERT_MSG_EQ(bool(q->next), false, "the queue link stays with the sender");
        NS_TEST_ASSERT_MSG_EQ(bool(q->unackedNext), false, "so does the retransmission link");
        NS_TEST_ASSERT_MSG_EQ(bool(q->segments), true, "segments");
        NS_TEST_ASSERT_MSG_EQ(q->segments->size(), 2u, "segment count");
        for (uint32_t i = 0; i < 2; ++i)
        {
            const FabricPacket::Segment& a = (*segs)[i];
            const FabricPacket::Segment& b = (*q->segments)[i];
            NS_TEST_ASSERT_MSG_EQ(b.msgId, a.msgId, "segment msgId");
            NS_TEST_ASSERT_MSG_EQ(b.msgBytes, a.msgBytes, "segment msgBytes");
            NS_TEST_ASSERT_MSG_EQ(b.offset, a.offset, "segment offset");
            NS_TEST_ASSERT_MSG_EQ(b.cookie, a.cookie, "segment cookie");
            NS_TEST_ASSERT_MSG_EQ(b.posted, a.posted, "segment posted");
            NS_TEST_ASSERT_MSG_EQ(b.bytes, a.bytes, "segment bytes");
            NS_TEST_ASSERT_MSG_EQ(+b.tclass, +a.tclass, "segment tclass");
            NS_TEST_ASSERT_MSG_EQ(+b.op, +a.op, "segment op");
            NS_TEST_ASSERT_MSG_EQ(b.src, a.src, "segment src");
            NS_TEST_ASSERT_MSG_EQ(b.dst, a.dst, "segment dst");
            NS_TEST_ASSERT_MSG_EQ(b.aux, a.aux, "segment aux");
        }

        // A unit with one piece: no segment list, not corrupted.
        FabricPacket single;
        single.kind = FabricPacket::PFC_PAUSE;
        const std::vector<uint8_t> b2 = FabricRemoteChannel::Serialize(single, false);
        Ptr<FabricPacket> r = FabricRemoteChannel::Deserialize(b2.data(), b2.size(), corrupted);
        NS_TEST_ASSERT_MSG_EQ(corrupted, false, "corrupted flag");
        NS_TEST_ASSERT_MSG_EQ(bool(r->segments), false, "no segment list");
        NS_TEST_ASSERT_MSG_EQ(r->kind, FabricPacket::PFC_PAUSE, "kind");
    }
};

/**
 * \ingroup fabric-tests
 * \brief FabricLinkHelper puts a FabricRemoteChannel between nodes of different ranks only.
 *
 * Expected values: PointToPointHelper's rule (remote channel iff the system ids differ); the
 * remote channel's Delay is its cable's propagation delay, 3 m of twinax = 13.8 ns (SUE spec,
 * SUE RM102, Appendix A.1), the lookahead ns-3's distributed simulator reads; each of its devices
 * carries an MpiReceiver.
 */
class FabricRemoteHelperTestCase : public TestCase
{
  public:
    FabricRemoteHelperTestCase()
        : TestCase("the link helper uses the remote channel between ranks, Delay = propagation")
    {
    }

  private:
    void DoRun() override
    {
        FabricLinkHelper lh;
        lh.SetChannelAttribute("CableType", EnumValue(FabricChannel::TWINAX));
        lh.SetChannelAttribute("CableLength", DoubleValue(3.0));
        lh.SetRemoteChannelType("ns3::FabricRemoteChannel");
        Ptr<Node> a = CreateObject<Node>(0);
        Ptr<Node> b = CreateObject<Node>(0);
        Ptr<Node> c = CreateObject<Node>(1);
        NetDeviceContainer same = lh.Install(a, b);
        NetDeviceContainer cross = lh.Install(a, c);
        Ptr<Channel> sameCh = same.Get(0)->GetChannel();
        Ptr<Channel> crossCh = cross.Get(0)->GetChannel();
        NS_TEST_ASSERT_MSG_EQ(bool(DynamicCast<FabricRemoteChannel>(sameCh)),
                              false,
                              "same rank: a plain FabricChannel");
        NS_TEST_ASSERT_MSG_EQ(bool(DynamicCast<FabricRemoteChannel>(crossCh)),
                              true,
                              "different ranks: a FabricRemoteChannel");
        TimeValue delay;
        crossCh->GetAttribute("Delay", delay);
        NS_TEST_ASSERT_MSG_EQ(delay.Get(), PicoSeconds(13800), "lookahead = 3 m of twinax");
        Ptr<FabricChannel> fc = DynamicCast<FabricChannel>(crossCh);
        NS_TEST_ASSERT_MSG_EQ(fc->GetPropagationDelay(),
                              PicoSeconds(13800),
                              "propagation unchanged");
        NS_TEST_ASSERT_MSG_EQ(bool(cross.Get(0)->GetObject<MpiReceiver>()), true, "receiver");
        NS_TEST_ASSERT_MSG_EQ(bool(cross.Get(1)->GetObject<MpiReceiver>()), true, "receiver");
        NS_TEST_ASSERT_MSG_EQ(bool(same.Get(0)->GetObject<MpiReceiver>()), false, "none");
    }
};

/**
 * \ingroup fabric-tests
 * \brief The remote channel's own test suite (contrib/mpi; runs without mpirun).
 */
class FabricRemoteChannelTestSuite : public PicosecondTestSuite
{
  public:
    FabricRemoteChannelTestSuite()
        : PicosecondTestSuite("fabric-remote-channel", UNIT)
    {
        AddTestCase(new FabricRemoteSerializeTestCase, TestCase::QUICK);
        AddTestCase(new FabricRemoteHelperTestCase, TestCase::QUICK);
    }
};

/// The suite's instance.
static FabricRemoteChannelTestSuite g_fabricRemoteChannelTestSuite;
