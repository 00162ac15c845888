/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Tests of the ualink module. Expected values come from UALink_200 Rev 1.0 (the packing tables of
// sections 5.2, 5.4 and 5.7), from numbers derived from its sections (the bandwidth chain of
// sections 6.3, 7.2 and 7.3 and the others written out in ualink.rst, section Validation,
// Derivations), from closed forms written next to each test, and from conservation laws. Each
// test names its source.

#include "ns3/basic-endpoint-helper.h"
#include "ns3/basic-endpoint.h"
#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/enum.h"
#include "ns3/fabric-channel.h"
#include "ns3/fabric-drop-reason.h"
#include "ns3/fabric-net-device.h"
#include "ns3/fabric-retry-engine.h"
#include "ns3/node-container.h"
#include "ns3/node.h"
#include "ns3/picosecond-test-suite.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/ualink-address-cache.h"
#include "ns3/ualink-control-half-flit.h"
#include "ns3/ualink-dl-framer.h"
#include "ns3/ualink-endpoint.h"
#include "ns3/ualink-helper.h"
#include "ns3/ualink-link-helper.h"
#include "ns3/ualink-phy.h"
#include "ns3/ualink-switch.h"
#include "ns3/ualink-tl-packer.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <iomanip>
#include <map>
#include <sstream>
#include <vector>

using namespace ns3;

namespace
{

/// A request.
UalinkTlOp
Req(ualink::Command cmd, uint32_t bytes, uint64_t addr, uint64_t id = 0, uint16_t dst = 1)
{
    UalinkTlOp op;
    op.kind = UalinkTlOp::REQUEST;
    op.cmd = cmd;
    op.bytes = bytes;
    op.addr = addr;
    op.dst = dst;
    op.id = id;
    return op;
}

/// A write response.
UalinkTlOp
WrRsp(uint64_t id = 0)
{
    UalinkTlOp op;
    op.kind = UalinkTlOp::WRITE_RESPONSE;
    op.cmd = ualink::WRITE_FULL;
    op.id = id;
    return op;
}

/// A read response of `bytes` at `addr`.
UalinkTlOp
RdRsp(uint32_t bytes, uint64_t addr = 0, uint64_t id = 0)
{
    UalinkTlOp op;
    op.kind = UalinkTlOp::READ_RESPONSE;
    op.cmd = ualink::READ;
    op.bytes = bytes;
    op.addr = addr;
    op.id = id;
    return op;
}

/// An FC field returning one credit of each class on VC 0.
std::array<std::pair<uint8_t, uint8_t>, ualink::N_CREDIT_CLASSES>
Fc()
{
    return {{{0, 1}, {0, 1}, {0, 1}, {0, 1}}};
}

/// A packer with the given options.
Ptr<UalinkTlPacker>
Packer(bool cache = true, bool auth = false)
{
    Ptr<UalinkTlPacker> p = CreateObject<UalinkTlPacker>();
    p->SetAttribute("UseAddressCache", BooleanValue(cache));
    p->SetAttribute("Authentication", BooleanValue(auth));
    return p;
}

/// One lone operation and the TL cost its table or derivation gives.
struct LoneOpCase
{
    UalinkTlOp op;          //!< the operation, alone in the TL queue
    uint64_t flits;         //!< expected TL flits
    uint64_t dataHalfFlits; //!< expected data half-flits
    const char* what;       //!< the case and where its numbers come from
};

/**
 * Packs one operation alone and closes the flit stream.
 * \param op the operation
 * \param cache whether the packer may compress
 * \param pl where the placement goes (may be null)
 * \param packed set to whether PackNext placed it
 * \return the packer, for its counters
 */
Ptr<UalinkTlPacker>
PackLone(const UalinkTlOp& op, bool cache, std::vector<UalinkTlPacker::Placement>* pl, bool* packed)
{
    Ptr<UalinkTlPacker> p = Packer(cache);
    p->Enqueue(op);
    *packed = p->PackNext(pl);
    p->Close();
    return p;
}

/// Format a percentage.
std::string
Pct(double x)
{
    std::ostringstream os;
    os << std::fixed << std::setprecision(2) << 100.0 * x << "%";
    return os.str();
}

/// Two accelerators joined by one UALink link in the DL's fine mode (one unit per DL flit).
struct DlPair
{
    Ptr<BasicEndpoint> ea;       //!< sender
    Ptr<BasicEndpoint> eb;       //!< receiver
    Ptr<FabricNetDevice> da;     //!< sender port
    Ptr<FabricNetDevice> db;     //!< receiver port
    Ptr<FabricChannel> ch;       //!< the link
    Ptr<UalinkPhy> phy;          //!< the PHY settings
    uint32_t deliveries{0};      //!< messages delivered at b
    Time deliveredAt{-1};        //!< last delivery at b
    std::vector<Time> linkDowns; //!< ack timeouts at a

    /// Record a delivery.
    void OnDelivered(const FabricMessage& m)
    {
        ++deliveries;
        deliveredAt = Simulator::Now();
    }

    /// Record a link down.
    void OnLinkDown()
    {
        linkDowns.push_back(Simulator::Now());
    }
};

/// Build a DL pair: x`lanes` ports, `delay` of cable each way.
DlPair
BuildDlPair(uint32_t lanes, Time delay)
{
    DlPair p;
    Ptr<Node> a = CreateObject<Node>();
    Ptr<Node> b = CreateObject<Node>();
    UalinkLinkHelper lh;
    lh.SetPhyAttribute("Lanes", UintegerValue(lanes));
    lh.SetChannelAttribute("Delay", TimeValue(delay));
    NetDeviceContainer d = lh.Install(a, b);
    p.phy = lh.CreatePhy();
    p.da = DynamicCast<FabricNetDevice>(d.Get(0));
    p.db = DynamicCast<FabricNetDevice>(d.Get(1));
    p.ch = p.da->GetFabricChannel();
    BasicEndpointHelper eh;
    eh.SetEndpointAttribute("Mtu", UintegerValue(UalinkDlFramer::PAYLOAD_BYTES));
    eh.SetEndpointAttribute("HeaderBytes",
                            UintegerValue(UalinkLinkHelper::GetDlFlitUnitHeaderBytes()));
    p.ea = eh.Install(a, 0);
    p.eb = eh.Install(b, 1);
    p.ea->AddDevice(p.da);
    p.eb->AddDevice(p.db);
    return p;
}

/// Hook the callbacks of a pair (after it has its final address) and send `flits` DL flits.
void
StartDl(DlPair& p, uint64_t flits)
{
    p.eb->SetDeliveredCallback(MakeCallback(&DlPair::OnDelivered, &p));
    p.da->GetRetryEngine()->TraceConnectWithoutContext("LinkDown",
                                                       MakeCallback(&DlPair::OnLinkDown, &p));
    p.ea->Send(1, flits * UalinkDlFramer::PAYLOAD_BYTES, 0);
}

/// Records deliveries and completions of a pod's endpoints.
struct PodLog
{
    std::map<std::pair<uint32_t, uint64_t>, Time> delivered; //!< (src, id) -> time, at the dst
    std::map<std::pair<uint32_t, uint64_t>, Time> completed; //!< (src, id) -> time, at the src
    std::map<uint32_t, uint64_t> bytesFrom;                  //!< delivered bytes per source

    /// A delivery.
    void OnDelivered(const FabricMessage& m)
    {
        delivered[{m.src, m.id}] = Simulator::Now();
        bytesFrom[m.src] += m.bytes;
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
            e->SetDeliveredCallback(MakeCallback(&PodLog::OnDelivered, this));
            e->SetCompletedCallback(MakeCallback(&PodLog::OnCompleted, this));
        }
    }
};

Time g_lastDelivery; //!< last delivery seen by RecordDelivery

/// Record the time of a delivery.
void
RecordDelivery(const FabricMessage& m)
{
    g_lastDelivery = Simulator::Now();
}

/// A credit gate that admits reads only (writes held for want of ReqData credits).
bool
OnlyReads(const UalinkTlOp& op)
{
    return op.cmd == ualink::READ;
}

/// Payload bytes dropped anywhere in a pod (ports and switches' operations are counted apart).
uint64_t
PodDroppedBytes(const UalinkHelper::Pod& pod)
{
    uint64_t b = 0;
    for (const auto& ch : pod.links)
    {
        for (std::size_t i = 0; i < ch->GetNDevices(); ++i)
        {
            Ptr<FabricNetDevice> d = DynamicCast<FabricNetDevice>(ch->GetDevice(i));
            for (const auto& [r, n] : d->GetStats().dropBytes)
            {
                b += n;
            }
        }
    }
    return b;
}

/// Operations dropped at the switches of a pod.
uint64_t
PodSwitchDrops(const UalinkHelper::Pod& pod)
{
    uint64_t n = 0;
    for (const auto& sw : pod.sw)
    {
        for (const auto& [r, k] : sw->GetDrops())
        {
            n += k;
        }
    }
    return n;
}

} // namespace

/**
 * \ingroup ualink-tests
 * Lone operations, each packed alone from an empty stream: Table 5-5 (a read request is one TL
 * flit: control half-flit and a MANDATORY NOP), Table 5-6 (a 256 B uncompressed WriteFull is 5 TL
 * flits: 1 control + 8 data half-flits, the last swapped up beside the next control half-flit),
 * Table 5-7 (a 192 B Write is 4 TL flits: 1 control + 6 data + 1 byte-enable half-flit).
 */
class UalinkLoneOpsTestCase : public TestCase
{
  public:
    UalinkLoneOpsTestCase()
        : TestCase("TL lone operations: Tables 5-5, 5-6, 5-7 (1, 5 and 4 TL flits)")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<LoneOpCase> cases = {
            {Req(ualink::READ, 256, 0), 1, 0, "read request (Table 5-5)"},
            {Req(ualink::WRITE_FULL, 256, 0), 5, 8, "256 B WriteFull (Table 5-6)"},
            {Req(ualink::WRITE, 192, 0), 4, 7, "192 B Write (Table 5-7)"},
            // Derived from 5.1.1: an atomic is 2 operand + 1 byte-enable half-flit -> 2 TL flits.
            {Req(ualink::ATOMIC_NR, 8, 0), 2, 3, "AtomicNR (5.1.1)"},
        };
        for (const LoneOpCase& k : cases)
        {
            std::vector<UalinkTlPacker::Placement> pl;
            bool packed = false;
            Ptr<UalinkTlPacker> p = PackLone(k.op, false, &pl, &packed);
            NS_TEST_ASSERT_MSG_EQ(packed, true, k.what);
            std::cout << "lone " << k.what << ": " << p->GetTlFlits() << " TL flits" << std::endl;
            NS_TEST_ASSERT_MSG_EQ(p->GetTlFlits(), k.flits, k.what);
            NS_TEST_ASSERT_MSG_EQ(p->GetStats().dataHalfFlits, k.dataHalfFlits, k.what);
            NS_TEST_ASSERT_MSG_EQ(pl.size(), 1, k.what);
            NS_TEST_ASSERT_MSG_EQ(pl[0].field, ualink::FTYPE_UNCOMPRESSED_REQUEST, k.what);
            NS_TEST_ASSERT_MSG_EQ(pl[0].lastFlit, k.flits - 1, k.what);
        }
        // Table 5-6 in detail: the swap leaves the next control half-flit in flit 4's lower half.
        Ptr<UalinkTlPacker> p = Packer(false);
        UalinkControlHalfFlit c;
        c.AddField(ualink::FTYPE_UNCOMPRESSED_REQUEST, Req(ualink::WRITE_FULL, 256, 0));
        p->AddControl(c);
        NS_TEST_ASSERT_MSG_EQ(p->IsSwapPending(), true, "Table 5-6: Req0.Data.7 swapped up");
        NS_TEST_ASSERT_MSG_EQ(p->GetNextControlFlit(), 4, "Table 5-6: next control in flit 4");
        NS_TEST_ASSERT_MSG_EQ(p->GetStats().swaps, 1, "one swap");
        NS_TEST_ASSERT_MSG_EQ(p->GetStats().mandatoryNops, 0, "no MANDATORY NOP after data");
    }
};

/**
 * \ingroup ualink-tests
 * The efficiency streams of section 5.4, built control half-flit by control half-flit exactly as
 * the spec's tables lay them out: 5.4.1 (Table 5-15: 9 flits, 88.89%), 5.4.2 (Table 5-16: 13
 * flits, 92.31%), 5.4.3 (Table 5-17: 17 flits, 94.12%), 5.4.4 (Table 5-18: 21 flits, 95.24%; the
 * text says 20, the table and the byte count 21 x 64 = 1344 B: 21), 5.4.5 (Table 5-19,
 * authentication: 9 flits, 88.89%), 5.4.6 (Table 5-20, reads: 21 flits, 95.24%) and 5.4.8 (Table
 * 5-22, mixed: 21 flits, 95.24%).
 */
class UalinkEfficiencyStreamsTestCase : public TestCase
{
  public:
    UalinkEfficiencyStreamsTestCase()
        : TestCase("TL section 5.4 streams: 88.89, 92.31, 94.12, 95.24 percent")
    {
    }

  private:
    /// Check one stream.
    void Check(const char* name,
               Ptr<UalinkTlPacker> p,
               const std::vector<UalinkControlHalfFlit>& hfs,
               uint64_t flits,
               uint64_t dataBytes,
               double efficiency)
    {
        for (const UalinkControlHalfFlit& c : hfs)
        {
            p->AddControl(c);
        }
        std::cout << name << ": " << p->GetTlFlits() << " TL flits, " << p->GetStats().dataBytes
                  << " B of data, efficiency " << Pct(p->GetEfficiency()) << std::endl;
        NS_TEST_ASSERT_MSG_EQ(p->IsSwapPending(), false, name << ": ends on a flit boundary");
        NS_TEST_ASSERT_MSG_EQ(p->GetTlFlits(), flits, name);
        NS_TEST_ASSERT_MSG_EQ(p->GetStats().dataBytes, dataBytes, name);
        NS_TEST_ASSERT_MSG_EQ_TOL(p->GetEfficiency(), efficiency, 5e-5, name);
    }

    void DoRun() override
    {
        const auto wf = [](uint64_t id) { return Req(ualink::WRITE_FULL, 256, 0, id); };
        const auto rd = [](uint64_t id) { return Req(ualink::READ, 256, 0, id); };
        const auto U = ualink::FTYPE_UNCOMPRESSED_REQUEST;
        const auto C = ualink::FTYPE_COMPRESSED_REQUEST;
        const auto UR = ualink::FTYPE_UNCOMPRESSED_RESPONSE;
        const auto CR = ualink::FTYPE_COMPRESSED_RESPONSE;
        {
            // 5.4.1: Req0 (4 sectors) + WrRspA (2 sectors) + NOP + FC, twice.
            std::vector<UalinkControlHalfFlit> hfs(2);
            for (auto& c : hfs)
            {
                c.AddField(U, wf(0));
                c.AddField(UR, WrRsp());
                c.AddFlowControl(Fc());
            }
            Check("5.4.1", Packer(), hfs, 9, 512, 512.0 / 576);
        }
        {
            // 5.4.2: Req0 + Req1 (4 sectors each); then Req2 + CWR A, B, C + FC.
            std::vector<UalinkControlHalfFlit> hfs(2);
            hfs[0].AddField(U, wf(0));
            hfs[0].AddField(U, wf(1));
            hfs[1].AddField(U, wf(2));
            for (int i = 0; i < 3; ++i)
            {
                hfs[1].AddField(CR, WrRsp());
            }
            hfs[1].AddFlowControl(Fc());
            Check("5.4.2", Packer(), hfs, 13, 768, 768.0 / 832);
        }
        {
            // 5.4.3: two CWReq + two CWR + NOP + FC, twice.
            std::vector<UalinkControlHalfFlit> hfs(2);
            for (auto& c : hfs)
            {
                c.AddField(C, wf(0));
                c.AddField(C, wf(1));
                c.AddField(CR, WrRsp());
                c.AddField(CR, WrRsp());
                c.AddFlowControl(Fc());
            }
            Check("5.4.3", Packer(), hfs, 17, 1024, 1024.0 / 1088);
        }
        {
            // 5.4.4: three CWReq + two CWR; then two CWReq + three CWR + FC.
            std::vector<UalinkControlHalfFlit> hfs(2);
            for (int i = 0; i < 3; ++i)
            {
                hfs[0].AddField(C, wf(i));
            }
            hfs[0].AddField(CR, WrRsp());
            hfs[0].AddField(CR, WrRsp());
            hfs[1].AddField(C, wf(3));
            hfs[1].AddField(C, wf(4));
            for (int i = 0; i < 3; ++i)
            {
                hfs[1].AddField(CR, WrRsp());
            }
            hfs[1].AddFlowControl(Fc());
            NS_TEST_ASSERT_MSG_EQ(hfs[0].GetFreeSectors(), 0, "5.4.4: no NOP sector");
            NS_TEST_ASSERT_MSG_EQ(hfs[1].GetFreeSectors(), 0, "5.4.4: no NOP sector");
            Check("5.4.4", Packer(), hfs, 21, 1280, 1280.0 / 1344);
        }
        {
            // 5.4.5: authentication: CWReq0, CWReq1, CWR A, CWR B, NOP, FC + AuthTags half-flit.
            std::vector<UalinkControlHalfFlit> hfs(1);
            hfs[0].AddField(C, wf(0));
            hfs[0].AddField(C, wf(1));
            hfs[0].AddField(CR, WrRsp());
            hfs[0].AddField(CR, WrRsp());
            hfs[0].AddFlowControl(Fc());
            Ptr<UalinkTlPacker> p = Packer(true, true);
            Check("5.4.5 (authentication)", p, hfs, 9, 512, 512.0 / 576);
            NS_TEST_ASSERT_MSG_EQ(p->GetStats().authTagHalfFlits, 1, "one AuthTags half-flit");
        }
        {
            // 5.4.6: CRR 0-2 (256 B read responses) + CRReq A, B + FC; then CRReq C + CRR 3, 4
            // + CRReq D, E.
            std::vector<UalinkControlHalfFlit> hfs(2);
            for (int i = 0; i < 3; ++i)
            {
                hfs[0].AddField(CR, RdRsp(256));
            }
            hfs[0].AddField(C, rd(0));
            hfs[0].AddField(C, rd(1));
            hfs[0].AddFlowControl(Fc());
            hfs[1].AddField(C, rd(2));
            hfs[1].AddField(CR, RdRsp(256));
            hfs[1].AddField(CR, RdRsp(256));
            hfs[1].AddField(C, rd(3));
            hfs[1].AddField(C, rd(4));
            Check("5.4.6 (reads)", Packer(), hfs, 21, 1280, 1280.0 / 1344);
        }
        {
            // 5.4.8: CRdReq0 + CRdRspA + CWrRspB + CWrReq1, 2; then CRdRspC + CWRspD, E +
            // CRdReq3 + CWReq4 + FC.
            std::vector<UalinkControlHalfFlit> hfs(2);
            hfs[0].AddField(C, rd(0));
            hfs[0].AddField(CR, RdRsp(256));
            hfs[0].AddField(CR, WrRsp());
            hfs[0].AddField(C, wf(1));
            hfs[0].AddField(C, wf(2));
            hfs[1].AddFlowControl(Fc());
            hfs[1].AddField(CR, RdRsp(256));
            hfs[1].AddField(CR, WrRsp());
            hfs[1].AddField(CR, WrRsp());
            hfs[1].AddField(C, rd(3));
            hfs[1].AddField(C, wf(4));
            Check("5.4.8 (mixed)", Packer(), hfs, 21, 1280, 1280.0 / 1344);
        }
    }
};

/**
 * \ingroup ualink-tests
 * Control half-flit footprints (Table 5-2): a 4-sector request at 7654 or 3210, 2-sector fields
 * on even pairs, 1-sector fields anywhere; fields added in an awkward order are placed again
 * largest first, and a ninth sector never fits.
 */
class UalinkFootprintTestCase : public TestCase
{
  public:
    UalinkFootprintTestCase()
        : TestCase("TL control half-flit footprints of Table 5-2")
    {
    }

  private:
    void DoRun() override
    {
        UalinkControlHalfFlit c;
        // FC at sector 0, a compressed response at 1, then a 4-sector request needs 7654 and a
        // 2-sector response the pair 32.
        NS_TEST_ASSERT_MSG_EQ(c.AddFlowControl(Fc()), true, "FC");
        NS_TEST_ASSERT_MSG_EQ(c.AddField(ualink::FTYPE_COMPRESSED_RESPONSE, WrRsp()), true, "CWR");
        NS_TEST_ASSERT_MSG_EQ(
            c.AddField(ualink::FTYPE_UNCOMPRESSED_REQUEST, Req(ualink::WRITE_FULL, 256, 0)),
            true,
            "request");
        NS_TEST_ASSERT_MSG_EQ(c.AddField(ualink::FTYPE_UNCOMPRESSED_RESPONSE, WrRsp()),
                              true,
                              "response");
        NS_TEST_ASSERT_MSG_EQ(c.GetFreeSectors(), 0, "full");
        NS_TEST_ASSERT_MSG_EQ(c.AddFlowControl(Fc()), false, "a ninth sector does not fit");
        for (const auto& f : c.GetFields())
        {
            const uint32_t size = ualink::FieldSectors(f.type);
            NS_TEST_ASSERT_MSG_EQ(f.sector % size, 0, "footprint aligned to its size");
        }
        std::cout << "footprint: " << c.ToString() << std::endl;
        // Two fields that need 4-sector footprints after a 1-sector one: only one fits.
        UalinkControlHalfFlit d;
        d.AddFlowControl(Fc());
        NS_TEST_ASSERT_MSG_EQ(
            d.AddField(ualink::FTYPE_UNCOMPRESSED_REQUEST, Req(ualink::READ, 64, 0)),
            true,
            "first request");
        NS_TEST_ASSERT_MSG_EQ(
            d.AddField(ualink::FTYPE_UNCOMPRESSED_REQUEST, Req(ualink::READ, 64, 0)),
            false,
            "second 4-sector request does not fit beside an FC field");
    }
};

/**
 * \ingroup ualink-tests
 * The address cache (sections 5.5, 5.6): the first request to a 1 MB region goes uncompressed
 * and loads the cache (CLOAD = 1), later ones to the region go compressed, also within the same
 * control half-flit (Table 5-23); a fifth region in a 4-way row evicts the least recently used
 * one; rows are per destination on an accelerator; Atomics and unaligned requests never compress
 * (Table 5-32).
 */
class UalinkAddressCacheTestCase : public TestCase
{
  public:
    UalinkAddressCacheTestCase()
        : TestCase("TL address cache: CLOAD, compressed hits, LRU eviction (5.5, 5.6)")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<UalinkTlPacker> p = Packer(true);
        // Table 5-23: Req0 (Read A) loads; Req1, Req2 compressed in the same half-flit.
        for (uint64_t i = 0; i < 4; ++i)
        {
            p->Enqueue(Req(ualink::READ, 64, 0x1000 + 64 * i, i));
        }
        std::vector<UalinkTlPacker::Placement> pl;
        while (p->PackNext(&pl))
        {
        }
        NS_TEST_ASSERT_MSG_EQ(pl.size(), 4, "four reads");
        NS_TEST_ASSERT_MSG_EQ(pl[0].field, ualink::FTYPE_UNCOMPRESSED_REQUEST, "Req0 loads");
        NS_TEST_ASSERT_MSG_EQ(pl[1].field, ualink::FTYPE_COMPRESSED_REQUEST, "Req1 hits");
        NS_TEST_ASSERT_MSG_EQ(pl[1].controlFlit, 0, "Req1 in the loading half-flit");
        NS_TEST_ASSERT_MSG_EQ(pl[2].controlFlit, 0, "Req2 in the loading half-flit");
        NS_TEST_ASSERT_MSG_EQ(pl[3].controlFlit, 1, "Req3 in the next (Table 5-23)");
        Ptr<UalinkAddressCache> cache = p->GetAddressCache();
        // Four more regions to the same destination, then the first again: LRU evicted it.
        for (uint64_t r = 1; r <= 4; ++r)
        {
            NS_TEST_ASSERT_MSG_EQ(cache->Access(1, r << 20).hit, false, "new region misses");
        }
        NS_TEST_ASSERT_MSG_EQ(cache->Contains(1, 0x1000), false, "LRU region evicted");
        NS_TEST_ASSERT_MSG_EQ(cache->Contains(1, 4 << 20), true, "recent region kept");
        NS_TEST_ASSERT_MSG_EQ(cache->Contains(2, 4 << 20), false, "rows are per destination");
        // Table 5-32: atomics and unaligned requests go uncompressed even on a hit.
        NS_TEST_ASSERT_MSG_EQ(p->ClassifyRequest(Req(ualink::ATOMIC_R, 8, 4 << 20)),
                              ualink::FTYPE_UNCOMPRESSED_REQUEST,
                              "atomic never compressed");
        NS_TEST_ASSERT_MSG_EQ(p->ClassifyRequest(Req(ualink::READ, 8, (4 << 20) + 8)),
                              ualink::FTYPE_UNCOMPRESSED_REQUEST,
                              "8 B read not compressed");
        NS_TEST_ASSERT_MSG_EQ(p->ClassifyRequest(Req(ualink::WRITE_FULL, 128, (4 << 20) + 128)),
                              ualink::FTYPE_COMPRESSED_REQUEST,
                              "aligned 128 B WriteFull compressed");
    }
};

/**
 * \ingroup ualink-tests
 * Receiver catch limits (section 5.7, Table 5-24): a transmitter issuing 4, 1, 1, 0, 2, 1
 * requests in six control-only TL flits is allowed 4, 1, 1, 1, 2, 1; the picking packer fed a long
 * queue of compressed 64 B reads issues 4 in the first TL flit and then one per TL flit, never
 * more than 4 unretired (closed form: n reads take n - 3 TL flits).
 */
class UalinkCatchLimitTestCase : public TestCase
{
  public:
    UalinkCatchLimitTestCase()
        : TestCase("TL catch limits: Table 5-24 allowances 4 1 1 1 2 1")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<UalinkTlPacker> p = Packer(true);
        const std::vector<uint32_t> issued = {4, 1, 1, 0, 2, 1};
        const std::vector<uint32_t> allowed = {4, 1, 1, 1, 2, 1};
        std::ostringstream os;
        for (std::size_t f = 0; f < issued.size(); ++f)
        {
            const uint32_t a = p->GetRequestAllowance();
            os << a << " ";
            NS_TEST_ASSERT_MSG_EQ(a, allowed[f], "Table 5-24 allowance at flit " << f);
            UalinkControlHalfFlit c;
            for (uint32_t i = 0; i < issued[f]; ++i)
            {
                c.AddField(ualink::FTYPE_COMPRESSED_REQUEST, Req(ualink::READ, 64, 0));
            }
            p->AddControl(c);
        }
        std::cout << "Table 5-24 allowances: " << os.str() << std::endl;

        Ptr<UalinkTlPacker> q = Packer(true);
        q->GetAddressCache()->Access(1, 0); // warm: every read compresses
        const uint32_t n = 20;
        for (uint32_t i = 0; i < n; ++i)
        {
            q->Enqueue(Req(ualink::READ, 64, 64 * (i % 4), i));
        }
        std::vector<UalinkTlPacker::Placement> pl;
        while (q->PackNext(&pl))
        {
        }
        std::vector<uint32_t> perFlit(q->GetTlFlits(), 0);
        for (const auto& x : pl)
        {
            ++perFlit[x.controlFlit];
        }
        NS_TEST_ASSERT_MSG_EQ(q->GetTlFlits(), n - 3, "4 in flit 0, then 1 per TL flit");
        NS_TEST_ASSERT_MSG_EQ(perFlit[0], 4, "full first half-flit");
        for (std::size_t f = 1; f < perFlit.size(); ++f)
        {
            NS_TEST_ASSERT_MSG_EQ(perFlit[f], 1, "one request per TL flit after that");
        }
        NS_TEST_ASSERT_MSG_GT(q->GetStats().catchLimitedRequests, 0, "the limit did bite");
    }
};

/**
 * \ingroup ualink-tests
 * Pack a saturated symmetric stream: n compressed 256 B WriteFull requests, each matched by the
 * write response for the partner's write, with one ReqCmd, four ReqData and one RspCmd credit
 * returned per write (the partner's view), then close the stream.
 * \param p the packer
 * \param n writes
 */
void
PackSymmetricWrites(Ptr<UalinkTlPacker> p, uint32_t n)
{
    p->GetAddressCache()->Access(1, 0);
    for (uint32_t i = 0; i < n; ++i)
    {
        p->Enqueue(Req(ualink::WRITE_FULL, 256, 256 * (i % 4096), i));
        p->Enqueue(WrRsp(i));
        p->ReturnCredits(ualink::REQ_CMD, 0, 1);
        p->ReturnCredits(ualink::REQ_DATA, 0, 4);
        p->ReturnCredits(ualink::RSP_CMD, 0, 1);
    }
    while (p->PackNext(nullptr))
    {
    }
    p->Close();
}

/**
 * \ingroup ualink-tests
 * Saturated streams through the picking packer: symmetric 256 B compressed WriteFull traffic
 * (every write sent is matched by a write response for the partner's write, and one ReqCmd, four
 * ReqData and one RspCmd credit to return) reaches the section 5.4.4 maximum of 95.24% within
 * 0.5%; with no address cache it reaches the closed form 6b/(6b+2) = 92.31% for b = 4 beats
 * within 0.5% (ualink.rst, Validation, Derivations: without the address cache); with authentication
 * the 88.89% of section 5.4.5 within 0.5%.
 */
class UalinkSaturatedStreamTestCase : public TestCase
{
  public:
    UalinkSaturatedStreamTestCase()
        : TestCase("TL saturated symmetric WriteFull streams: 95.24, 92.31, 88.89 percent")
    {
    }

  private:
    /// Run a symmetric stream of n writes and return the efficiency.
    double Run(Ptr<UalinkTlPacker> p, uint32_t n)
    {
        PackSymmetricWrites(p, n);
        NS_TEST_EXPECT_MSG_EQ(p->GetStats().dataBytes, 256ull * n, "every byte packed");
        NS_TEST_EXPECT_MSG_EQ(p->GetPendingCredits(), 0, "every credit returned");
        return p->GetEfficiency();
    }

    void DoRun() override
    {
        const uint32_t n = 10000;
        const double compressed = Run(Packer(true), n);
        const double uncompressed = Run(Packer(false), n);
        const double auth = Run(Packer(true, true), n);
        std::cout << "symmetric WriteFull efficiency: compressed " << Pct(compressed)
                  << ", no cache " << Pct(uncompressed) << ", authentication " << Pct(auth)
                  << std::endl;
        NS_TEST_ASSERT_MSG_EQ_TOL(compressed, 1280.0 / 1344, 0.005 * 1280.0 / 1344, "5.4.4");
        NS_TEST_ASSERT_MSG_EQ_TOL(uncompressed, 24.0 / 26, 0.005 * 24.0 / 26, "6b/(6b+2)");
        NS_TEST_ASSERT_MSG_EQ_TOL(auth, 512.0 / 576, 0.005 * 512.0 / 576, "5.4.5");
    }
};

/**
 * \ingroup ualink-tests
 * DL flit packing (section 6.3.4): with TL flits always ready, every one of the 157 payload sectors
 * carries TL flit sectors, so 16 DL flits carry exactly 157 TL flits (9.8125 per DL flit;
 * ualink.rst, Validation, Derivations: DL packing), never more than 2 TL flits start in a segment,
 * and the rule-driven packer agrees with the closed form ContinuousDlFlitOf(k) = floor((16 (k + 1)
 * - 1) / 157); with a DL alternative sector in every segment a DL flit carries 152 TL sectors; a
 * lone TL flit leaves 141 sectors zero-filled and sets only SH0's "TL Flit[0] starts" bit.
 */
class UalinkDlPackingTestCase : public TestCase
{
  public:
    UalinkDlPackingTestCase()
        : TestCase("DL packing: 9.8125 TL flits per 640 B DL flit (6.3.4)")
    {
    }

  private:
    void DoRun() override
    {
        UalinkDlFramer fr;
        uint64_t tl = 0;
        uint32_t maxStarts = 0;
        for (uint32_t n = 0; n < 1600; ++n)
        {
            const UalinkDlFramer::Flit f = fr.Pack(1000);
            NS_TEST_ASSERT_MSG_EQ(f.tlSectors, UalinkDlFramer::PAYLOAD_SECTORS, "no zero sector");
            maxStarts = std::max(maxStarts, f.maxStartsInSegment);
            // Every TL flit completed in DL flit n is the closed form's.
            for (uint32_t i = 0; i < f.completed; ++i, ++tl)
            {
                NS_TEST_ASSERT_MSG_EQ(UalinkDlFramer::ContinuousDlFlitOf(tl), n, "closed form");
            }
        }
        const double perFlit =
            static_cast<double>(fr.GetTlFlitsStarted() - 1 + (fr.GetCarry() == 0 ? 1 : 0)) / 1600.0;
        std::cout << "DL packing: " << fr.GetTlFlitsCompleted() << " TL flits completed in 1600 "
                  << "DL flits (" << static_cast<double>(fr.GetTlFlitsCompleted()) / 1600
                  << " per DL flit)" << std::endl;
        NS_TEST_ASSERT_MSG_EQ(fr.GetTlFlitsCompleted(), 15700, "157 TL flits per 16 DL flits");
        NS_TEST_ASSERT_MSG_EQ(fr.GetCarry(), 0, "1600 DL flits end on a TL flit boundary");
        NS_TEST_ASSERT_MSG_EQ_TOL(perFlit, 9.8125, 1e-9, "9.8125 TL flits per DL flit");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(maxStarts, 2, "at most 2 TL flits start per segment");
        NS_TEST_ASSERT_MSG_EQ(UalinkDlFramer::ContinuousDlFlits(157), 16, "closed form");

        UalinkDlFramer alt;
        const UalinkDlFramer::Flit a = alt.Pack(1000, 0x1f);
        NS_TEST_ASSERT_MSG_EQ(a.altSectors, 5, "one alternative sector per segment");
        NS_TEST_ASSERT_MSG_EQ(a.tlSectors, 152, "157 - 5 sectors of TL flits");
        NS_TEST_ASSERT_MSG_EQ((a.segmentHeaders[0] & 0x01), 1, "SH bit 0: alternative sector");

        UalinkDlFramer lone;
        const UalinkDlFramer::Flit l = lone.Pack(1);
        NS_TEST_ASSERT_MSG_EQ(l.started, 1, "one TL flit");
        NS_TEST_ASSERT_MSG_EQ(l.completed, 1, "completed in its DL flit");
        NS_TEST_ASSERT_MSG_EQ(l.zeroSectors, 141, "the rest zero-filled");
        NS_TEST_ASSERT_MSG_EQ(unsigned(l.segmentHeaders[0]), 0x10u, "SH0: TL Flit[0] starts");
        NS_TEST_ASSERT_MSG_EQ(unsigned(l.segmentHeaders[1]), 0u, "SH1 = 0x00: nothing starts");
    }
};

/**
 * \ingroup ualink-tests
 * PHY slots (sections 7.1, 7.2.7, 7.3.5): one 640 B DL flit per 5440-bit RS(544,514) codeword
 * gives DL flits 6.4 ns apart at x4, 12.8 at x2, 25.6 at x1 and 51.2 ns at x1 with the 100G
 * option (5440 / (lanes x 212.5 or 106.25 Gb/s)); of the 4096 slots of an AM period at x1 exactly
 * 4 (slots 0, 1024, 2048, 3072) carry no DL flit; at x4 the AM period is 16384 codewords and 16
 * slots of it are empty (1 in 1024). FEC receive latency is (interleave - 1) slots: 76.8 ns for
 * 4 ways at x1, 0 for 1 way (ualink.rst, Validation, Derivations: PHY slots).
 */
class UalinkPhySlotsTestCase : public TestCase
{
  public:
    UalinkPhySlotsTestCase()
        : TestCase("PHY: 6.4 ns DL flits at x4, 4 empty slots of 4096 at x1")
    {
    }

  private:
    /// A PHY.
    Ptr<UalinkPhy> Phy(uint32_t lanes, const char* rate = "212.5Gbps", uint32_t ways = 0)
    {
        Ptr<UalinkPhy> p = CreateObject<UalinkPhy>();
        p->SetAttribute("Lanes", UintegerValue(lanes));
        p->SetAttribute("LaneRate", DataRateValue(DataRate(rate)));
        p->SetAttribute("FecInterleave", UintegerValue(ways));
        p->Initialize();
        return p;
    }

    void DoRun() override
    {
        Ptr<UalinkPhy> x4 = Phy(4);
        Ptr<UalinkPhy> x2 = Phy(2);
        Ptr<UalinkPhy> x1 = Phy(1, "212.5Gbps", 1);
        Ptr<UalinkPhy> x1h = Phy(1, "106.25Gbps");
        std::cout << "DL flit spacing: x4 " << x4->GetSlotTime().As(Time::NS) << ", x2 "
                  << x2->GetSlotTime().As(Time::NS) << ", x1 " << x1->GetSlotTime().As(Time::NS)
                  << ", x1 100G " << x1h->GetSlotTime().As(Time::NS) << std::endl;
        NS_TEST_ASSERT_MSG_EQ(x4->GetSlotTime(), PicoSeconds(6400), "x4: 6.4 ns");
        NS_TEST_ASSERT_MSG_EQ(x2->GetSlotTime(), PicoSeconds(12800), "x2: 12.8 ns");
        NS_TEST_ASSERT_MSG_EQ(x1->GetSlotTime(), PicoSeconds(25600), "x1: 25.6 ns");
        NS_TEST_ASSERT_MSG_EQ(x1h->GetSlotTime(), PicoSeconds(51200), "x1 100G: 51.2 ns");
        // Consecutive DL flits at x4 start 6.4 ns apart (away from an empty slot).
        NS_TEST_ASSERT_MSG_EQ(x4->GetDlFlitStart(11) - x4->GetDlFlitStart(10),
                              PicoSeconds(6400),
                              "DL flits 6.4 ns apart");

        NS_TEST_ASSERT_MSG_EQ(x1->GetAmPeriod(), 4096, "200G x1: AM every 4096 codewords");
        NS_TEST_ASSERT_MSG_EQ(x2->GetAmPeriod(), 8192, "400G: 8192");
        NS_TEST_ASSERT_MSG_EQ(x4->GetAmPeriod(), 16384, "800G: 16384");
        std::vector<uint64_t> empty;
        for (uint64_t s = 0; s < 4096; ++s)
        {
            if (!x1->IsDlFlitSlot(s))
            {
                empty.push_back(s);
            }
        }
        std::cout << "x1 slots without a DL flit in 4096:";
        for (uint64_t s : empty)
        {
            std::cout << " " << s;
        }
        std::cout << std::endl;
        NS_TEST_ASSERT_MSG_EQ(empty.size(), 4, "4 of 4096");
        NS_TEST_ASSERT_MSG_EQ(empty[0] + empty[1] + empty[2] + empty[3], 6144, "0+1024+2048+3072");
        uint64_t emptyX4 = 0;
        for (uint64_t s = 0; s < x4->GetAmPeriod(); ++s)
        {
            emptyX4 += x4->IsDlFlitSlot(s) ? 0 : 1;
        }
        NS_TEST_ASSERT_MSG_EQ(emptyX4, 16, "x4: 16 of 16384");
        // DL flit numbering skips the empty slots, and its inverse agrees.
        for (uint64_t n = 0; n < 5000; ++n)
        {
            const uint64_t s = x1->GetSlotOfDlFlit(n);
            NS_TEST_ASSERT_MSG_EQ(x1->IsDlFlitSlot(s), true, "DL flit in a DL slot");
            NS_TEST_ASSERT_MSG_EQ(x1->GetFirstDlFlitAtOrAfter(s), n, "inverse");
        }
        NS_TEST_ASSERT_MSG_EQ(x1->GetSlotOfDlFlit(1023), 1025, "slot 1024 skipped");

        // The bandwidth chain (ualink.rst, Validation, Derivations): TL ceiling 196.06 Gb/s per
        // lane, TL flit 0.653 ns at x4.
        NS_TEST_ASSERT_MSG_EQ_TOL(x1->GetTlCeilingBps() / 1e9, 196.06, 0.01, "x1 TL ceiling");
        NS_TEST_ASSERT_MSG_EQ_TOL(x4->GetTlCeilingBps() / 1e9, 784.23, 0.01, "x4 TL ceiling");
        NS_TEST_ASSERT_MSG_EQ_TOL(x4->GetTlFlitSeconds() * 1e9, 0.653, 0.0005, "x4 TL flit");

        // FEC interleave latency.
        NS_TEST_ASSERT_MSG_EQ(x1->GetFecReceiveLatency(), Time(0), "x1 1-way");
        NS_TEST_ASSERT_MSG_EQ(Phy(1, "212.5Gbps", 4)->GetFecReceiveLatency(),
                              PicoSeconds(76800),
                              "x1 4-way: 3 more slots");
        NS_TEST_ASSERT_MSG_EQ(x4->GetFecReceiveLatency(), PicoSeconds(19200), "x4 4-way");
    }
};

/**
 * \ingroup ualink-tests
 * Saturated symmetric 256 B compressed WriteFull goodput per direction: the picking packer's TL
 * flits, framed 157 sectors per DL flit and placed in the PHY's codeword slots (AM and idle slots
 * skipped), deliver about 746.9 Gb/s of data at x4 and 186.7 at x1 (within 0.5%): lanes x 200 x
 * 1023/1024 x 628/640 x 0.9524 (ualink.rst, Validation, Derivations: bandwidth chain).
 */
class UalinkGoodputTestCase : public TestCase
{
  public:
    UalinkGoodputTestCase()
        : TestCase("Goodput: saturated 256 B compressed WriteFull, 746.9 Gbps x4, 186.7 x1")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 20000;
        Ptr<UalinkTlPacker> p = Packer(true);
        PackSymmetricWrites(p, n);
        const uint64_t dl = UalinkDlFramer::ContinuousDlFlits(p->GetTlFlits());
        for (uint32_t lanes : {4u, 1u})
        {
            Ptr<UalinkPhy> phy = CreateObject<UalinkPhy>();
            phy->SetAttribute("Lanes", UintegerValue(lanes));
            phy->Initialize();
            const Time end = phy->GetDlFlitStart(dl - 1) + phy->GetSlotTime();
            const double gbps = 256.0 * n * 8 / end.GetSeconds() / 1e9;
            const double expected = lanes == 4 ? 746.9 : 186.7;
            std::cout << "goodput x" << lanes << ": " << gbps << " Gb/s (" << p->GetTlFlits()
                      << " TL flits in " << dl << " DL flits, " << end.As(Time::US) << ")"
                      << std::endl;
            NS_TEST_ASSERT_MSG_EQ_TOL(gbps, expected, 0.005 * expected, "bandwidth chain");
        }
    }
};

/**
 * \ingroup ualink-tests
 * One CRC error on DL flit 100 of a 400-flit stream (section 6.6): the receiver
 * sends exactly 3 replay requests (one per codeword group), the transmitter replays once and
 * ignores the other two (12-flit window), the stream arrives in order with no duplicates and no
 * byte lost, and the extra delay is about one round trip: detection at the next flit, the request
 * crossing the link, the replay crossing back, i.e. 2 x one-way + 2 flit times (within 1 flit;
 * ualink.rst, Validation, Derivations: replay after one CRC error).
 * The cable is 50 ns: the round trip (about 18 flits at x4) stays under the default replay limit
 * of 50 flits, as section 6.6.4.6 asks (the limit should be 2 x RTT).
 */
class UalinkLlrCrcErrorTestCase : public TestCase
{
  public:
    UalinkLlrCrcErrorTestCase()
        : TestCase("LLR: one CRC error, 3 replay requests, in-order replay, one RTT")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t n = 400;
        const Time delay = NanoSeconds(50);
        DlPair base = BuildDlPair(4, delay);
        StartDl(base, n);
        Simulator::Run();
        const Time t0 = base.deliveredAt;
        Simulator::Destroy();

        DlPair p = BuildDlPair(4, delay);
        StartDl(p, n);
        p.ch->InjectError(p.da, 100);
        Simulator::Run();
        const auto& tx = p.da->GetRetryEngine()->GetStats();
        const auto& rx = p.db->GetRetryEngine()->GetStats();
        const Time flit = p.phy->GetSlotTime();
        const Time oneWay = p.ch->GetOneWayDelay();
        const Time extra = p.deliveredAt - t0;
        std::cout << "LLR one CRC error: replay requests sent " << rx.naksSent << ", replays "
                  << tx.replays << ", ignored " << tx.naksIgnored << ", flits replayed "
                  << tx.replayedUnits << ", duplicates " << rx.duplicates << ", extra delay "
                  << extra.As(Time::NS)
                  << " (2 x one-way + 2 flits = " << (2 * oneWay + 2 * flit).As(Time::NS) << ")"
                  << std::endl;
        NS_TEST_ASSERT_MSG_EQ(p.deliveries, 1, "delivered once");
        NS_TEST_ASSERT_MSG_EQ(rx.corrupted, 1, "one CRC error");
        NS_TEST_ASSERT_MSG_EQ(rx.naksSent, 3, "three replay requests");
        NS_TEST_ASSERT_MSG_EQ(tx.naksReceived, 3, "all three arrive");
        NS_TEST_ASSERT_MSG_EQ(tx.replays, 1, "one replay");
        NS_TEST_ASSERT_MSG_EQ(tx.naksIgnored, 2, "two ignored in the 12-flit window");
        NS_TEST_ASSERT_MSG_EQ(rx.duplicates, 0, "no duplicates");
        NS_TEST_ASSERT_MSG_EQ(p.db->GetStats().dropUnits.size(), 0, "nothing dropped");
        NS_TEST_ASSERT_MSG_EQ(p.da->GetStats().dropUnits.size(), 0, "nothing dropped");
        const Time expected = 2 * oneWay + 2 * flit;
        NS_TEST_ASSERT_MSG_EQ_TOL(extra.GetPicoSeconds(),
                                  expected.GetPicoSeconds(),
                                  flit.GetPicoSeconds(),
                                  "about one round trip");
        Simulator::Destroy();
    }
};

/**
 * \ingroup ualink-tests
 * Replay window (sections 6.6.1, 6.6.6.5): with the receiver holding its acks back for
 * 100 us, the transmitter sends exactly 255 DL flits and stalls (only NOPs would flow); when the
 * ack comes back traffic resumes and all 600 flits arrive, nothing lost.
 */
class UalinkLlrWindowTestCase : public TestCase
{
  public:
    UalinkLlrWindowTestCase()
        : TestCase("LLR: 255-flit stall with acks blocked, resumes on ack")
    {
    }

  private:
    void DoRun() override
    {
        DlPair p = BuildDlPair(4, NanoSeconds(200));
        Ptr<FabricRetryEngine> rx = p.db->GetRetryEngine();
        rx->SetAttribute("AckInterval", UintegerValue(1000000));
        rx->SetAttribute("AckDelay", TimeValue(MicroSeconds(100)));
        StartDl(p, 600);
        uint64_t buffered = 0;
        uint64_t received = 0;
        Simulator::Schedule(MicroSeconds(50), [&]() {
            buffered = p.da->GetRetryEngine()->GetBufferedUnits();
            received = p.db->GetStats().rxUnits;
        });
        Simulator::Run();
        std::cout << "LLR window: " << buffered << " flits unacknowledged and " << received
                  << " received while acks are held; stalled "
                  << p.da->GetRetryEngine()->GetStats().windowStallTime.As(Time::US) << std::endl;
        NS_TEST_ASSERT_MSG_EQ(buffered, 255, "255 unacknowledged flits");
        NS_TEST_ASSERT_MSG_EQ(received, 255, "no flit beyond the window");
        NS_TEST_ASSERT_MSG_EQ(p.deliveries, 1, "traffic resumed and completed");
        NS_TEST_ASSERT_MSG_GT(p.da->GetRetryEngine()->GetStats().windowStallTime,
                              MicroSeconds(90),
                              "it stalled until the ack");
        NS_TEST_ASSERT_MSG_EQ(p.da->GetRetryEngine()->GetStats().linkDowns, 0, "link stays up");
        Simulator::Destroy();
    }
};

/**
 * \ingroup ualink-tests
 * Ack timeout (sections 6.6.5.8, 6.6.6.8): with no ack ever returning, the link goes
 * down exactly 40,000 flit times (256 us at x4, 6.4 ns each) after the first unacknowledged flit
 * was sent, and what was still queued is dropped with the named reason LinkDown.
 */
class UalinkLlrAckTimeoutTestCase : public TestCase
{
  public:
    UalinkLlrAckTimeoutTestCase()
        : TestCase("LLR: ack timeout takes the link down after 40000 flit times")
    {
    }

  private:
    void DoRun() override
    {
        DlPair p = BuildDlPair(4, NanoSeconds(200));
        Ptr<FabricRetryEngine> rx = p.db->GetRetryEngine();
        rx->SetAttribute("AckInterval", UintegerValue(1000000));
        rx->SetAttribute("AckDelay", TimeValue(Seconds(1)));
        StartDl(p, 600);
        Simulator::Stop(MilliSeconds(2));
        Simulator::Run();
        const Time expected = p.phy->GetSlotTime() * 40000;
        std::cout << "LLR ack timeout: link down at "
                  << (p.linkDowns.empty() ? Time(-1) : p.linkDowns[0]).As(Time::US)
                  << " (40000 flits = " << expected.As(Time::US) << ")" << std::endl;
        NS_TEST_ASSERT_MSG_EQ(p.linkDowns.size(), 1, "one link down");
        NS_TEST_ASSERT_MSG_EQ(p.linkDowns[0], expected, "after 40000 flit times");
        NS_TEST_ASSERT_MSG_EQ(p.da->IsLinkUp(), false, "the link is down");
        const auto& drops = p.da->GetStats().dropUnits;
        NS_TEST_ASSERT_MSG_EQ(drops.count(FabricDropReason::LINK_DOWN), 1, "named drop reason");
        Simulator::Destroy();
    }
};

/**
 * \ingroup ualink-tests
 * Accelerator ports and a switch (conservation and the endpoint API): on a 3-accelerator pod with
 * one x4 port each, a 64 KiB write A to B is delivered once at B and completes at A when its 256
 * write responses are back, a 4 KiB read B from A completes at B with its 4096 bytes, every tag
 * is free again and every TL credit returned (sent = delivered, nothing dropped). A lone 64 B
 * write takes at least the switch's pin-to-pin latency (10.9.2: 200 ns for a 12-lane switch)
 * plus two cable delays.
 */
class UalinkEndpointTestCase : public TestCase
{
  public:
    UalinkEndpointTestCase()
        : TestCase("Endpoint: writes and reads through a switch, bytes conserved")
    {
    }

  private:
    void DoRun() override
    {
        UalinkHelper h;
        h.SetChannelAttribute("Delay", TimeValue(NanoSeconds(10)));
        UalinkHelper::Pod pod = h.Install(3, 1);
        PodLog log;
        log.Hook(pod);
        pod.acc[0]->Send(1, 65536, 0);
        const uint64_t rd = pod.acc[1]->Read(0, 4096, 1);
        Simulator::Schedule(MicroSeconds(5), [&pod]() { pod.acc[2]->Send(1, 64, 0); });
        Simulator::Run();
        const Time lone = log.delivered[{2, 0}] - MicroSeconds(5);
        std::cout << "endpoint: 64 KiB write delivered at " << log.delivered[{0, 0}].As(Time::NS)
                  << ", completed at " << log.completed[{0, 0}].As(Time::NS)
                  << "; 4 KiB read completed at " << log.completed[{1, rd}].As(Time::NS)
                  << "; lone 64 B write one-way " << lone.As(Time::NS) << " (switch pin-to-pin "
                  << pod.sw[0]->GetPinToPinLatency().As(Time::NS) << ")" << std::endl;
        NS_TEST_ASSERT_MSG_EQ(log.delivered.count({0, 0}), 1, "write delivered");
        NS_TEST_ASSERT_MSG_EQ(log.completed.count({0, 0}), 1, "write completed");
        NS_TEST_ASSERT_MSG_EQ(pod.acc[1]->GetBytesDelivered(), 65536 + 64, "bytes delivered");
        NS_TEST_ASSERT_MSG_EQ(pod.acc[1]->GetStats().readBytes, 4096, "read data returned");
        NS_TEST_ASSERT_MSG_EQ(pod.acc[1]->GetMessagesCompleted(), 1, "read completed at B");
        NS_TEST_ASSERT_MSG_EQ(pod.acc[0]->GetStats().writes, 256, "256 writes of 256 B");
        NS_TEST_ASSERT_MSG_EQ(pod.acc[0]->GetStats().requestsServed, 16, "16 reads served");
        for (const auto& e : pod.acc)
        {
            NS_TEST_ASSERT_MSG_EQ(e->GetOutstanding(0), 0, "every tag free");
            Ptr<UalinkTxQueue> q = e->GetTxQueue(0);
            for (uint32_t c = 0; c < ualink::N_CREDIT_CLASSES; ++c)
            {
                const auto cls = static_cast<ualink::CreditClass>(c);
                if (q->GetSpentCredits(cls) > 0)
                {
                    NS_TEST_ASSERT_MSG_EQ(q->GetAvailableCredits(cls),
                                          uint64_t(c < 2 ? 512 : 2048),
                                          "every credit back");
                }
            }
        }
        NS_TEST_ASSERT_MSG_EQ(PodDroppedBytes(pod), 0, "nothing dropped at the ports");
        NS_TEST_ASSERT_MSG_EQ(PodSwitchDrops(pod), 0, "nothing dropped at the switch");
        NS_TEST_ASSERT_MSG_GT(lone,
                              pod.sw[0]->GetPinToPinLatency() + NanoSeconds(20),
                              "pin-to-pin plus two cables");
        Simulator::Destroy();
    }
};

/**
 * \ingroup ualink-tests
 * Only some rails (SetActiveRails; ualink.rst, Rails in parallel). Post deals request i of a
 * message to port (port0 + i) mod n (2.4: the rail hash of its 256 B region), so the share of the
 * active ports is a closed form: over the n single-rail masks the shares of any message add up
 * to its bytes. With 4 ports and port0 = 0 (a message's range starts at its id times 256 MB, a
 * multiple of 4 x 256 B), a 4113 B write (17 requests, the 17 B tail on port 0) puts
 * requests 2, 6, 10 and 14 on rail 2: 1024 B, 4 writes; a 512 B write (ports 0 and 1) none.
 * With rail 2 active at both ends, the 4113 B write is delivered and completed as its 1024 B,
 * and the 512 B one is not posted at all.
 */
class UalinkRailShareTestCase : public TestCase
{
  public:
    UalinkRailShareTestCase()
        : TestCase("Endpoint: one rail of four carries its share of each message")
    {
    }

  private:
    void DoRun() override
    {
        UalinkHelper h;
        UalinkHelper::Pod pod = h.Install(3, 4);
        for (uint64_t bytes : {1ULL, 255ULL, 256ULL, 257ULL, 512ULL, 1000ULL, 4113ULL, 65553ULL})
        {
            for (uint64_t id : {0ULL, 1ULL, 7ULL, (1ULL << 19) + 3})
            {
                uint64_t sum = 0;
                for (uint32_t r = 0; r < 4; ++r)
                {
                    pod.acc[2]->SetActiveRails(uint64_t(1) << r);
                    sum += pod.acc[2]->GetRailShareBytes(id, bytes);
                }
                NS_TEST_ASSERT_MSG_EQ(sum, bytes, "the rails' shares add up to the message");
            }
        }
        pod.acc[2]->SetActiveRails(~uint64_t(0));
        NS_TEST_ASSERT_MSG_EQ(pod.acc[2]->GetRailShareBytes(5, 4113), 4113, "all rails: all");
        for (uint32_t a = 0; a < 2; ++a)
        {
            pod.acc[a]->SetActiveRails(uint64_t(1) << 2);
        }
        NS_TEST_ASSERT_MSG_EQ(pod.acc[0]->GetRailShareBytes(0, 4113), 1024, "rail 2 of 4113 B");
        pod.acc[0]->Send(1, 4113, 0);
        pod.acc[0]->Send(1, 512, 0);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(pod.acc[0]->GetStats().writes, 4, "4 writes on rail 2");
        NS_TEST_ASSERT_MSG_EQ(pod.acc[0]->GetPostedShareBytes(), 1024, "1024 B posted");
        NS_TEST_ASSERT_MSG_EQ(pod.acc[1]->GetBytesDelivered(), 1024, "its share delivered");
        NS_TEST_ASSERT_MSG_EQ(pod.acc[1]->GetMessagesDelivered(), 1, "the 512 B one is not");
        NS_TEST_ASSERT_MSG_EQ(pod.acc[0]->GetMessagesCompleted(), 1, "completed on its share");
        for (uint32_t r = 0; r < 4; ++r)
        {
            NS_TEST_ASSERT_MSG_EQ(pod.acc[0]->GetTxQueue(r)->GetStats().ops,
                                  uint64_t(r == 2 ? 4 : 0),
                                  "requests only on the active port");
        }
        Simulator::Destroy();
    }
};

/**
 * \ingroup ualink-tests
 * Atomics and Write Messages (Table 2-6; TL flit costs derived from section 5.1.1 and the field
 * sizes of Table 5-2). Lone, from an empty stream: an atomic request is an uncompressed request
 * (4 sectors; atomics never compress, Table 5-32) followed by 2 operand and 1 byte-enable
 * half-flit: 4 half-flits = 2 TL flits. The AtomicR answer is a single-beat read response (1
 * sector, FTYPE 0x4) with 2 data half-flits, the last swapped into the upper half of the next
 * TL flit: 2 TL flits. The AtomicNR answer is a write response (1 sector, FTYPE 0x5) and a
 * MANDATORY NOP: 1 TL flit. A Write Message of n beats is 1 control + 2n data + 1 byte-enable
 * half-flit (5.1.1, Table 9-9; ualink.rst, Choices): 64 B -> 4 half-flits = 2 TL flits, 256 B -> 10
 * = 5 TL flits. Through a switch, the endpoint's Atomic() and WriteMessage() issue these commands:
 * the originator's TL carries 3 requests with 3 + 3 + 9 = 15 data half-flits (3 of them byte
 * enables), the completer's TL 3 responses with 2 data half-flits (the AtomicR's old value only);
 * the AtomicR completes on a read response, the AtomicNR and the Write Message on write responses.
 */
class UalinkAtomicsTestCase : public TestCase
{
  public:
    UalinkAtomicsTestCase()
        : TestCase("Atomics and Write Messages: TL flits and response kinds (5.1.1, Table 2-6)")
    {
    }

  private:
    void DoRun() override
    {
        UalinkTlOp atomicRsp = RdRsp(8);
        atomicRsp.cmd = ualink::ATOMIC_R;
        UalinkTlOp atomicNrRsp = WrRsp();
        atomicNrRsp.cmd = ualink::ATOMIC_NR;

        const std::vector<LoneOpCase> cases = {
            {Req(ualink::ATOMIC_R, 8, 0), 2, 3, "AtomicR request"},
            {Req(ualink::ATOMIC_NR, 16, 0), 2, 3, "AtomicNR request (2 operands)"},
            {atomicRsp, 2, 2, "AtomicR read response"},
            {atomicNrRsp, 1, 0, "AtomicNR write response"},
            {Req(ualink::WRITE_MESSAGE, 64, 0), 2, 3, "64 B Write Message"},
            {Req(ualink::WRITE_MESSAGE, 256, 0), 5, 9, "256 B Write Message"},
        };
        for (const LoneOpCase& k : cases)
        {
            bool packed = false;
            Ptr<UalinkTlPacker> p = PackLone(k.op, true, nullptr, &packed);
            NS_TEST_ASSERT_MSG_EQ(packed, true, k.what);
            std::cout << "lone " << k.what << ": " << p->GetTlFlits() << " TL flits, "
                      << p->GetStats().dataHalfFlits << " data half-flits" << std::endl;
            NS_TEST_ASSERT_MSG_EQ(p->GetTlFlits(), k.flits, k.what);
            NS_TEST_ASSERT_MSG_EQ(p->GetStats().dataHalfFlits, k.dataHalfFlits, k.what);
            NS_TEST_ASSERT_MSG_EQ(p->GetStats().compressedRequests, 0, k.what);
        }

        UalinkHelper h;
        h.SetChannelAttribute("Delay", TimeValue(NanoSeconds(10)));
        UalinkHelper::Pod pod = h.Install(3, 1);
        PodLog log;
        log.Hook(pod);
        const uint64_t ar = pod.acc[0]->Atomic(1, 8, true, 0);
        const uint64_t anr = pod.acc[0]->Atomic(1, 8, false, 0);
        const uint64_t wm = pod.acc[0]->WriteMessage(1, 256, 0);
        Simulator::Run();
        const UalinkTlPacker::Stats& o = pod.acc[0]->GetTxQueue(0)->GetPacker()->GetStats();
        const UalinkTlPacker::Stats& c = pod.acc[1]->GetTxQueue(0)->GetPacker()->GetStats();
        std::cout << "endpoint: originator " << o.requests << " requests, " << o.dataHalfFlits
                  << " data half-flits (" << o.byteEnableHalfFlits << " byte enables); completer "
                  << c.responses << " responses, " << c.dataHalfFlits
                  << " data half-flits; AtomicR answers " << pod.acc[0]->GetStats().atomicResponses
                  << "; completed AtomicR " << log.completed[{0, ar}].As(Time::NS) << ", AtomicNR "
                  << log.completed[{0, anr}].As(Time::NS) << ", Write Message "
                  << log.completed[{0, wm}].As(Time::NS) << std::endl;
        NS_TEST_ASSERT_MSG_EQ(log.completed.size(), 3, "all three complete");
        NS_TEST_ASSERT_MSG_EQ(log.delivered.size(), 3, "all three delivered");
        NS_TEST_ASSERT_MSG_EQ(pod.acc[1]->GetBytesDelivered(), 8 + 8 + 256, "bytes delivered");
        NS_TEST_ASSERT_MSG_EQ(o.requests, 3, "3 requests");
        NS_TEST_ASSERT_MSG_EQ(o.dataHalfFlits, 15, "3 + 3 + 9 data half-flits");
        NS_TEST_ASSERT_MSG_EQ(o.byteEnableHalfFlits, 3, "a byte-enable half-flit each");
        NS_TEST_ASSERT_MSG_EQ(c.responses, 3, "3 responses");
        NS_TEST_ASSERT_MSG_EQ(c.dataHalfFlits, 2, "only the AtomicR answer carries data");
        NS_TEST_ASSERT_MSG_EQ(pod.acc[0]->GetStats().atomicResponses, 1, "one read response");
        NS_TEST_ASSERT_MSG_EQ(pod.acc[0]->GetStats().atomics, 2, "two atomics");
        NS_TEST_ASSERT_MSG_EQ(pod.acc[0]->GetStats().writeMessages, 1, "one Write Message");
        NS_TEST_ASSERT_MSG_EQ(pod.acc[0]->GetStats().failedMessages, 0, "none failed");
        NS_TEST_ASSERT_MSG_EQ(pod.acc[0]->GetOutstanding(0), 0, "every tag free");
        NS_TEST_ASSERT_MSG_EQ(PodSwitchDrops(pod), 0, "nothing dropped at the switch");
        Simulator::Destroy();
    }
};

/**
 * \ingroup ualink-tests
 * Poisoned data (sections 3.1.4.1 and 5.3): a data error is poisoned and forwarded; on the link
 * two poisoned-data messages replace the two data half-flits of each bad beat, so poison costs
 * no bandwidth. The same 4 KiB write (16 WriteFulls) A to B through a switch, once clean and once
 * poisoned: delivered at exactly the same time, with the same TL flits at A; the switch egress
 * forwards the flag (16 poisoned operations there too) and B counts 16 poisoned requests and
 * 4096 poisoned bytes.
 */
class UalinkPoisonTestCase : public TestCase
{
  public:
    UalinkPoisonTestCase()
        : TestCase("Poisoned data: forwarded and counted at no bandwidth cost (3.1.4.1, 5.3)")
    {
    }

  private:
    void DoRun() override
    {
        Time at[2];
        uint64_t flits[2] = {0, 0};
        for (int poisoned = 0; poisoned < 2; ++poisoned)
        {
            UalinkHelper h;
            h.SetChannelAttribute("Delay", TimeValue(NanoSeconds(10)));
            UalinkHelper::Pod pod = h.Install(3, 1);
            PodLog log;
            log.Hook(pod);
            const uint64_t id =
                poisoned ? pod.acc[0]->SendPoisoned(1, 4096, 0) : pod.acc[0]->Send(1, 4096, 0);
            Simulator::Run();
            at[poisoned] = log.delivered[{0, id}];
            Ptr<UalinkTlPacker> src = pod.acc[0]->GetTxQueue(0)->GetPacker();
            flits[poisoned] = src->GetTlFlits();
            const uint64_t swPoison =
                pod.sw[0]->GetTxQueue(1)->GetPacker()->GetStats().poisonMessages;
            std::cout << (poisoned ? "poisoned" : "clean") << " 4 KiB write: delivered at "
                      << at[poisoned].As(Time::NS) << ", " << flits[poisoned]
                      << " TL flits at A, poisoned operations at A "
                      << src->GetStats().poisonMessages << ", at the switch egress " << swPoison
                      << ", counted at B " << pod.acc[1]->GetStats().poisonedReceived << " ("
                      << pod.acc[1]->GetStats().poisonedBytes << " B)" << std::endl;
            NS_TEST_ASSERT_MSG_EQ(log.delivered.count({0, id}), 1, "delivered");
            NS_TEST_ASSERT_MSG_EQ(log.completed.count({0, id}), 1, "completed");
            NS_TEST_ASSERT_MSG_EQ(pod.acc[1]->GetBytesDelivered(), 4096, "bytes delivered");
            NS_TEST_ASSERT_MSG_EQ(src->GetStats().poisonMessages, poisoned ? 16 : 0, "at A");
            NS_TEST_ASSERT_MSG_EQ(swPoison, poisoned ? 16 : 0, "forwarded by the switch");
            NS_TEST_ASSERT_MSG_EQ(pod.acc[1]->GetStats().poisonedReceived,
                                  poisoned ? 16 : 0,
                                  "counted at B");
            NS_TEST_ASSERT_MSG_EQ(pod.acc[1]->GetStats().poisonedBytes,
                                  poisoned ? 4096 : 0,
                                  "poisoned bytes at B");
            NS_TEST_ASSERT_MSG_EQ(PodSwitchDrops(pod), 0, "nothing dropped at the switch");
            Simulator::Destroy();
        }
        NS_TEST_ASSERT_MSG_EQ(at[1], at[0], "same delivery time");
        NS_TEST_ASSERT_MSG_EQ(flits[1], flits[0], "same TL flits");
    }
};

/**
 * \ingroup ualink-tests
 * TL credits (section 5.8, Table 5-26): a 256 B write takes 1 ReqCmd and 4 ReqData
 * credits at the accelerator port and again at the switch egress, and its write response 1 RspCmd
 * credit on each hop back; with no ReqData credit at A's port, A's writes stall while its reads
 * still complete; and at a switch whose egress toward A has no request credits, B's writes to A
 * wait there while the read responses A asked B for pass (requests never block responses,
 * section 10.4), nothing dropped.
 */
class UalinkCreditsTestCase : public TestCase
{
  public:
    UalinkCreditsTestCase()
        : TestCase("Credits: 1 ReqCmd + 4 ReqData per 256 B write, reads pass stalled writes")
    {
    }

  private:
    void DoRun() override
    {
        {
            UalinkHelper h;
            UalinkHelper::Pod pod = h.Install(2, 1);
            pod.acc[0]->Send(1, 256, 0);
            Simulator::Run();
            Ptr<UalinkTxQueue> up = pod.acc[0]->GetTxQueue(0);
            Ptr<UalinkTxQueue> egress = pod.sw[0]->GetTxQueue(1);
            Ptr<UalinkTxQueue> back = pod.acc[1]->GetTxQueue(0);
            std::cout << "credits of one 256 B write: ReqCmd "
                      << up->GetSpentCredits(ualink::REQ_CMD) << ", ReqData "
                      << up->GetSpentCredits(ualink::REQ_DATA) << "; response: RspCmd "
                      << back->GetSpentCredits(ualink::RSP_CMD) << std::endl;
            NS_TEST_ASSERT_MSG_EQ(up->GetSpentCredits(ualink::REQ_CMD), 1, "1 ReqCmd");
            NS_TEST_ASSERT_MSG_EQ(up->GetSpentCredits(ualink::REQ_DATA), 4, "4 ReqData");
            NS_TEST_ASSERT_MSG_EQ(up->GetSpentCredits(ualink::RSP_CMD), 0, "no response credit");
            NS_TEST_ASSERT_MSG_EQ(egress->GetSpentCredits(ualink::REQ_CMD), 1, "switch: 1 ReqCmd");
            NS_TEST_ASSERT_MSG_EQ(egress->GetSpentCredits(ualink::REQ_DATA),
                                  4,
                                  "switch: 4 ReqData");
            NS_TEST_ASSERT_MSG_EQ(back->GetSpentCredits(ualink::RSP_CMD), 1, "WrRsp: 1 RspCmd");
            NS_TEST_ASSERT_MSG_EQ(back->GetSpentCredits(ualink::RSP_DATA), 0, "WrRsp: no data");
            Simulator::Destroy();
        }
        {
            // A has no ReqData credit: writes stall, reads flow.
            UalinkHelper h;
            UalinkHelper::Pod pod = h.Install(2, 1);
            pod.acc[0]->GetTxQueue(0)->SetAttribute("ReqDataCredits", UintegerValue(0));
            PodLog log;
            log.Hook(pod);
            pod.acc[0]->Send(1, 1024, 0);
            const uint64_t rd = pod.acc[0]->Read(1, 1024, 0);
            Simulator::Stop(MicroSeconds(50));
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(log.completed.count({0, rd}), 1, "the read completes");
            NS_TEST_ASSERT_MSG_EQ(log.delivered.count({0, 0}), 0, "the write is held");
            NS_TEST_ASSERT_MSG_EQ(pod.acc[0]->GetTxQueue(0)->GetQueuedOps(), 4, "4 writes wait");
            NS_TEST_ASSERT_MSG_GT(pod.acc[0]->GetTxQueue(0)->GetStats().creditStalls, 0, "stalls");
            NS_TEST_ASSERT_MSG_EQ(PodDroppedBytes(pod) + PodSwitchDrops(pod), 0, "no drop");
            Simulator::Destroy();
        }
        {
            // The switch egress toward A has no request credit: B's writes to A wait at the
            // switch, A's reads from B complete through the same egress.
            UalinkHelper h;
            UalinkHelper::Pod pod = h.Install(2, 1);
            pod.sw[0]->GetTxQueue(0)->SetAttribute("ReqCmdCredits", UintegerValue(0));
            PodLog log;
            log.Hook(pod);
            pod.acc[1]->Send(0, 4096, 0);
            const uint64_t rd = pod.acc[0]->Read(1, 4096, 0);
            Simulator::Stop(MicroSeconds(50));
            Simulator::Run();
            std::cout << "switch: " << pod.sw[0]->GetTxQueue(0)->GetQueuedOps()
                      << " requests held at the egress toward A while A's read completed"
                      << std::endl;
            NS_TEST_ASSERT_MSG_EQ(log.completed.count({0, rd}), 1, "the read completes");
            NS_TEST_ASSERT_MSG_EQ(log.delivered.count({1, 0}), 0, "the writes are held");
            NS_TEST_ASSERT_MSG_GT(pod.sw[0]->GetTxQueue(0)->GetQueuedOps(), 0, "held at switch");
            NS_TEST_ASSERT_MSG_EQ(PodDroppedBytes(pod) + PodSwitchDrops(pod), 0, "no drop");
            Simulator::Destroy();
        }
    }
};

/**
 * \ingroup ualink-tests
 * Incast 4:1 on one rail (sections 10.3, 10.5): four accelerators each write 512 KiB to a fifth
 * through one switch. The egress toward it runs at the one-way write goodput (96.6% TL efficiency
 * for one-way 256 B compressed writes: 784.23 x 0.966 = 757.5 Gb/s at x4, ualink.rst, Validation,
 * Derivations: one-way writes; checked within 1.5%); the sources are held back by TL credits only
 * (credit stalls, no drop anywhere, every byte delivered: 2 MiB); and each source's share tends to
 * 1/4 (each source's last write arrives within the last 10% of the run).
 */
class UalinkIncastTestCase : public TestCase
{
  public:
    UalinkIncastTestCase()
        : TestCase("Incast 4 to 1: egress at one-way goodput, credits only, lossless")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t bytes = 512 * 1024;
        UalinkHelper h;
        h.SetChannelAttribute("Delay", TimeValue(NanoSeconds(10)));
        UalinkHelper::Pod pod = h.Install(5, 1);
        PodLog log;
        log.Hook(pod);
        for (uint32_t s = 0; s < 4; ++s)
        {
            pod.acc[s]->Send(4, bytes, 0);
        }
        Simulator::Run();
        Time first = Seconds(1);
        Time last = Time(0);
        uint64_t stalls = 0;
        for (uint32_t s = 0; s < 4; ++s)
        {
            const Time t = log.delivered[{s, 0}];
            first = std::min(first, t);
            last = std::max(last, t);
            stalls += pod.acc[s]->GetTxQueue(0)->GetStats().creditStalls;
        }
        Ptr<UalinkTxQueue> egress = pod.sw[0]->GetTxQueue(4);
        const double gbps = 4.0 * bytes * 8 / last.GetSeconds() / 1e9;
        std::cout << "incast 4:1: " << gbps << " Gb/s at the egress, sources done between "
                  << first.As(Time::US) << " and " << last.As(Time::US) << ", credit stalls "
                  << stalls << ", egress efficiency "
                  << Pct(static_cast<double>(egress->GetStats().dataBytes) /
                         (egress->GetStats().halfFlits * 32.0))
                  << std::endl;
        NS_TEST_ASSERT_MSG_EQ(pod.acc[4]->GetBytesDelivered(), 4 * bytes, "every byte");
        NS_TEST_ASSERT_MSG_EQ(PodDroppedBytes(pod) + PodSwitchDrops(pod), 0, "nothing dropped");
        NS_TEST_ASSERT_MSG_GT(stalls, 0, "sources held by credits");
        NS_TEST_ASSERT_MSG_EQ_TOL(gbps, 757.5, 0.015 * 757.5, "one-way goodput");
        NS_TEST_ASSERT_MSG_GT(first.GetSeconds(), 0.9 * last.GetSeconds(), "fair shares");
        // The switch's buffer: each 256 B WriteFull holds a 16 B request field and 8 data
        // half-flits (272 B); every one left again (conservation); at most what the four
        // ingress links' credits allow (section 5.8: 2048 data credits of 64 B = 512 writes and
        // 512 request credits each, so 4 x 512 x 272 B = 557,056 B). The sources stall on
        // credits, so the rest of the credits are in operations still in the switch's receive
        // pipeline (up to the pin-to-pin latency) or in credit returns on their way back (one
        // pin-to-pin latency plus two link delays): together less than what the egress sends
        // in 2 x (pin-to-pin + 2 x 10 ns) at its goodput.
        Ptr<UalinkSwitch> sw = pod.sw[0];
        FabricPacket::Segment w;
        w.op = ualink::OP_WRITE;
        w.bytes = 256;
        NS_TEST_ASSERT_MSG_EQ(UalinkSwitch::GetBufferBytes(w), 272, "16 B field + 8 x 32 B");
        const double loop = 2 * (sw->GetPinToPinLatency() + NanoSeconds(20)).GetSeconds();
        const double lower = 557056 - gbps * 1e9 / 8 * loop;
        std::cout << "incast 4:1: switch buffer peak " << sw->GetPeakOccupancy()
                  << " B, credit bound 557056 B, lower bound " << lower << " B" << std::endl;
        NS_TEST_ASSERT_MSG_EQ(sw->GetOccupancy(), 0, "every operation left the switch");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(sw->GetPeakOccupancy(), 557056u, "within the credits");
        NS_TEST_ASSERT_MSG_GT(sw->GetPeakOccupancy(), lower, "the credits fill it");
        Simulator::Destroy();
    }
};

/**
 * \ingroup ualink-tests
 * Routing (section 10.7): with the switch denying destination B to A's
 * ingress port, A's writes to B are dropped silently at the switch and counted as RouteDenied
 * (never delivered, their tags stay outstanding for the watchdog), while C's writes to B in
 * the same pod pass.
 */
class UalinkDeniedRouteTestCase : public TestCase
{
  public:
    UalinkDeniedRouteTestCase()
        : TestCase("Switch: a denied route is dropped silently and counted")
    {
    }

  private:
    void DoRun() override
    {
        UalinkHelper h;
        UalinkHelper::Pod pod = h.Install(3, 1);
        pod.sw[0]->SetDenied(0, 1, true);
        PodLog log;
        log.Hook(pod);
        pod.acc[0]->Send(1, 1024, 0);
        pod.acc[2]->Send(1, 1024, 0);
        Simulator::Run();
        const auto& drops = pod.sw[0]->GetDrops();
        const uint64_t denied =
            drops.count(UalinkSwitch::ROUTE_DENIED) ? drops.at(UalinkSwitch::ROUTE_DENIED) : 0;
        std::cout << "denied route: " << denied << " writes dropped as RouteDenied, "
                  << pod.acc[0]->GetOutstanding(0) << " tags outstanding at A" << std::endl;
        NS_TEST_ASSERT_MSG_EQ(denied, 4, "4 writes denied");
        NS_TEST_ASSERT_MSG_EQ(log.delivered.count({0, 0}), 0, "A's write never arrives");
        NS_TEST_ASSERT_MSG_EQ(log.delivered.count({2, 0}), 1, "C's write arrives");
        NS_TEST_ASSERT_MSG_EQ(pod.acc[0]->GetOutstanding(0), 4, "A's tags still outstanding");
        Simulator::Destroy();
    }
};

/**
 * \ingroup ualink-tests
 * RAS after a denied route (sections 3.1.3, 10.7): with a 2 us watchdog, A's
 * 4 writes to a destination its switch port denies are dropped silently; the watchdog expires
 * 2 us after the first was issued, A's station enters isolation mode and all 4 outstanding tags
 * are answered CMPTO (the message completes, counted as failed); a later request from A is
 * answered CMPTO at once without being sent; C's writes to the same destination are untouched.
 */
class UalinkWatchdogTestCase : public TestCase
{
  public:
    UalinkWatchdogTestCase()
        : TestCase("RAS: a denied route ends in CMPTO for every outstanding tag")
    {
    }

  private:
    void DoRun() override
    {
        UalinkHelper h;
        h.SetEndpointAttribute("WatchdogTimeout", TimeValue(MicroSeconds(2)));
        UalinkHelper::Pod pod = h.Install(3, 1);
        pod.sw[0]->SetDenied(0, 1, true);
        PodLog log;
        log.Hook(pod);
        pod.acc[0]->Send(1, 1024, 0);
        pod.acc[2]->Send(1, 1024, 0);
        uint64_t sentBefore = 0;
        Simulator::Schedule(MicroSeconds(5), [&pod, &sentBefore]() {
            sentBefore = pod.acc[0]->GetTxQueue(0)->GetStats().ops;
            pod.acc[0]->Send(2, 512, 0);
        });
        Simulator::Run();
        const auto& st = pod.acc[0]->GetStats();
        std::cout << "watchdog: A isolated " << st.isolations << " time(s), " << st.cmpto
                  << " requests answered CMPTO, failed messages " << st.failedMessages
                  << ", first message completed at " << log.completed[{0, 0}].As(Time::NS)
                  << std::endl;
        NS_TEST_ASSERT_MSG_EQ(st.isolations, 1, "A's station isolated once");
        NS_TEST_ASSERT_MSG_EQ(st.cmpto, 6, "4 outstanding + 2 new requests answered CMPTO");
        NS_TEST_ASSERT_MSG_EQ(st.failedMessages, 2, "both of A's messages failed");
        NS_TEST_ASSERT_MSG_EQ(log.completed.count({0, 0}), 1, "the message completes");
        const Time done = log.completed[{0, 0}];
        NS_TEST_ASSERT_MSG_GT_OR_EQ(done, MicroSeconds(2), "after the watchdog");
        NS_TEST_ASSERT_MSG_LT(done, MicroSeconds(3), "soon after it");
        NS_TEST_ASSERT_MSG_EQ(pod.acc[0]->GetTxQueue(0)->GetStats().ops,
                              sentBefore,
                              "nothing new sent in isolation");
        NS_TEST_ASSERT_MSG_EQ(pod.acc[0]->GetOutstanding(0), 0, "every tag answered");
        NS_TEST_ASSERT_MSG_EQ(log.delivered.count({2, 0}), 1, "C's write arrives");
        NS_TEST_ASSERT_MSG_EQ(pod.acc[2]->GetStats().isolations, 0, "C untouched");
        Simulator::Destroy();
    }
};

/**
 * \ingroup ualink-tests
 * Link down at an accelerator (section 3.1.4, Figures 3-8, 3-9): accelerators with one station
 * of 2 x2 ports. A's port 0 link goes down while B reads 64 KiB from A: A's TL drops both ports
 * of its station and sends ISOLATE (A isolated, its port 1 too although its link is up); B, with
 * reads outstanding to A on the dead rail, times out (2 us watchdog) and isolates in turn; C and
 * D, writing to each other, are untouched: delivered, not isolated, nothing answered CMPTO.
 */
class UalinkLinkDownTestCase : public TestCase
{
  public:
    UalinkLinkDownTestCase()
        : TestCase("RAS: link down at an accelerator isolates its station and its peers")
    {
    }

  private:
    void DoRun() override
    {
        UalinkHelper h;
        h.SetPhyAttribute("Lanes", UintegerValue(2));
        h.SetEndpointAttribute("WatchdogTimeout", TimeValue(MicroSeconds(2)));
        UalinkHelper::Pod pod = h.Install(4, 2);
        PodLog log;
        log.Hook(pod);
        pod.acc[1]->Read(0, 65536, 0);
        pod.acc[2]->Send(3, 65536, 0);
        pod.acc[3]->Send(2, 65536, 0);
        Simulator::Schedule(NanoSeconds(300), [&pod]() {
            pod.acc[0]->GetPort(0)->GetFabricChannel()->SetLinkUp(false);
        });
        Simulator::Run();
        const auto& a = pod.acc[0]->GetStats();
        const auto& b = pod.acc[1]->GetStats();
        std::cout << "link down at A: A ISOLATE " << a.isolates << ", A ports isolated "
                  << pod.acc[0]->IsIsolated(0) << pod.acc[0]->IsIsolated(1) << "; B isolations "
                  << b.isolations << ", CMPTO " << b.cmpto << "; C and D "
                  << pod.acc[2]->GetStats().isolations + pod.acc[3]->GetStats().isolations
                  << " isolations" << std::endl;
        NS_TEST_ASSERT_MSG_EQ(a.isolates, 1, "ISOLATE at A");
        NS_TEST_ASSERT_MSG_EQ(pod.acc[0]->IsIsolated(1), true, "A's whole station");
        NS_TEST_ASSERT_MSG_EQ(b.isolations, 1, "B timed out and isolated");
        NS_TEST_ASSERT_MSG_GT(b.cmpto, 0, "B's reads to A answered CMPTO");
        NS_TEST_ASSERT_MSG_EQ(log.delivered.count({2, 0}), 1, "C to D delivered");
        NS_TEST_ASSERT_MSG_EQ(log.delivered.count({3, 0}), 1, "D to C delivered");
        NS_TEST_ASSERT_MSG_EQ(pod.acc[2]->GetStats().isolations, 0, "C untouched");
        NS_TEST_ASSERT_MSG_EQ(pod.acc[3]->GetStats().cmpto, 0, "D untouched");
        Simulator::Destroy();
    }
};

/**
 * \ingroup ualink-tests
 * Ordering (section 2.7.9). In the TL packer with writes held by credits: in
 * non-strict mode a read to another 256 B region passes them, a read to the same region does not;
 * in strict mode nothing passes. Through the endpoint, with room for one 256 B write of data
 * credit at A's port: in non-strict mode A's read to B arrives before A's earlier writes 1-3
 * (different regions), in strict mode after all of them, every request in posting order.
 */
class UalinkOrderingTestCase : public TestCase
{
  public:
    UalinkOrderingTestCase()
        : TestCase("Ordering: strict and non-strict modes of 2.7.9")
    {
    }

  private:
    /// Arrival order at the completer: (message, offset).
    std::vector<std::pair<uint64_t, uint64_t>> m_order;

    /// Record an arrival.
    void OnRequest(uint32_t src, uint64_t msgId, uint64_t offset, uint8_t op)
    {
        m_order.emplace_back(msgId, offset);
    }

    /// Packer level: does a read at `readAddr` pass a write at 0 held by credits?
    bool Passes(bool strict, uint64_t readAddr)
    {
        Ptr<UalinkTlPacker> p = Packer(false);
        p->SetAttribute("StrictOrdering", BooleanValue(strict));
        p->SetGate(MakeCallback(&OnlyReads));
        p->Enqueue(Req(ualink::WRITE_FULL, 256, 0, 0));
        p->Enqueue(Req(ualink::READ, 64, readAddr, 1));
        std::vector<UalinkTlPacker::Placement> pl;
        p->PackNext(&pl, false);
        return pl.size() == 1 && pl[0].id == 1;
    }

    /// Endpoint level: position of the read among the arrivals.
    std::size_t ReadPosition(bool strict)
    {
        m_order.clear();
        UalinkHelper h;
        h.SetPackerAttribute("StrictOrdering", BooleanValue(strict));
        UalinkHelper::Pod pod = h.Install(2, 1);
        pod.acc[0]->GetTxQueue(0)->SetAttribute("ReqDataCredits", UintegerValue(4));
        pod.acc[1]->TraceConnectWithoutContext(
            "Request",
            MakeCallback(&UalinkOrderingTestCase::OnRequest, this));
        pod.acc[0]->Send(1, 1024, 0);
        const uint64_t rd = pod.acc[0]->Read(1, 256, 0);
        Simulator::Run();
        Simulator::Destroy();
        std::size_t pos = m_order.size();
        uint64_t lastWrite = 0;
        bool writesInOrder = true;
        for (std::size_t i = 0; i < m_order.size(); ++i)
        {
            if (m_order[i].first == rd)
            {
                pos = i;
            }
            else
            {
                writesInOrder &= m_order[i].second >= lastWrite;
                lastWrite = m_order[i].second;
            }
        }
        NS_TEST_EXPECT_MSG_EQ(writesInOrder, true, "A's writes keep their order");
        NS_TEST_EXPECT_MSG_EQ(m_order.size(), 5, "4 writes and a read arrive");
        return pos;
    }

    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(Passes(false, 4096), true, "non-strict: other region passes");
        NS_TEST_ASSERT_MSG_EQ(Passes(false, 64), false, "non-strict: same region waits");
        NS_TEST_ASSERT_MSG_EQ(Passes(true, 4096), false, "strict: nothing passes");
        const std::size_t loose = ReadPosition(false);
        const std::size_t strict = ReadPosition(true);
        std::cout << "ordering: the read arrives " << loose << "th (non-strict) and " << strict
                  << "th (strict) of 5 requests" << std::endl;
        NS_TEST_ASSERT_MSG_LT(loose, 4, "non-strict: the read passes held writes");
        NS_TEST_ASSERT_MSG_EQ(strict, 4, "strict: the read after all writes");
    }
};

/**
 * \ingroup ualink-tests
 * Coarse and fine modes agree (DESIGN.md rule 3): the same traffic (3 accelerators writing 16,
 * 64 and 200 KiB to a fourth through a switch, plus that fourth reading 32 KiB from the first)
 * run once with one event per burst per hop and once with one event per DL flit per hop gives
 * every message the same delivery and completion time within one DL flit time per link crossed
 * (2 links each way: 4 x 6.4 ns at x4), and the same bytes.
 */
class UalinkFineCoarseTestCase : public TestCase
{
  public:
    UalinkFineCoarseTestCase()
        : TestCase("Granularity: burst and DL-flit modes give the same delivery times")
    {
    }

  private:
    /// Run the traffic in one mode; returns (src, id) -> delivery or completion time.
    std::map<std::pair<uint32_t, uint64_t>, Time> RunMode(UalinkTxQueue::Granularity g,
                                                          uint64_t& bytes,
                                                          uint64_t& units)
    {
        UalinkHelper h;
        h.SetChannelAttribute("Delay", TimeValue(NanoSeconds(20)));
        h.SetTxQueueAttribute("Granularity", EnumValue(g));
        UalinkHelper::Pod pod = h.Install(4, 1);
        PodLog log;
        log.Hook(pod);
        pod.acc[0]->Send(3, 16384, 0);
        pod.acc[1]->Send(3, 65536, 0);
        pod.acc[2]->Send(3, 204800, 0);
        pod.acc[3]->Read(0, 32768, 0);
        Simulator::Run();
        bytes = pod.acc[3]->GetBytesDelivered() + pod.acc[3]->GetStats().readBytes;
        units = 0;
        for (const auto& ch : pod.links)
        {
            for (std::size_t i = 0; i < 2; ++i)
            {
                units += DynamicCast<FabricNetDevice>(ch->GetDevice(i))->GetStats().txUnits;
            }
        }
        Simulator::Destroy();
        std::map<std::pair<uint32_t, uint64_t>, Time> t = log.delivered;
        for (const auto& [k, v] : log.completed)
        {
            t[{k.first + 100, k.second}] = v;
        }
        return t;
    }

    void DoRun() override
    {
        uint64_t coarseBytes = 0;
        uint64_t fineBytes = 0;
        uint64_t coarseUnits = 0;
        uint64_t fineUnits = 0;
        const auto coarse = RunMode(UalinkTxQueue::BURST, coarseBytes, coarseUnits);
        const auto fine = RunMode(UalinkTxQueue::DL_FLIT, fineBytes, fineUnits);
        NS_TEST_ASSERT_MSG_EQ(coarse.size(), fine.size(), "same messages");
        NS_TEST_ASSERT_MSG_EQ(coarseBytes, fineBytes, "same bytes");
        const Time tol = PicoSeconds(4 * 6400);
        Time worst(0);
        for (const auto& [k, t] : coarse)
        {
            NS_TEST_ASSERT_MSG_EQ(fine.count(k), 1, "message in both runs");
            const Time d = t > fine.at(k) ? t - fine.at(k) : fine.at(k) - t;
            worst = std::max(worst, d);
            NS_TEST_EXPECT_MSG_LT_OR_EQ(d, tol, "within one DL flit per link crossed");
        }
        std::cout << "granularity: " << coarse.size() << " deliveries and completions, largest "
                  << "difference " << worst.As(Time::NS) << "; " << coarseUnits
                  << " units (bursts) against " << fineUnits << " (DL flits)" << std::endl;
    }
};

/**
 * \ingroup ualink-tests
 * Saturated symmetric goodput through the event-driven stack (ualink.rst, Validation,
 * Derivations: bandwidth chain): two
 * accelerators on a direct x4 link (and on a direct x1 link) write 2 MiB to each other in 256 B
 * WriteFulls; each direction carries the writes one way and the write responses and credit
 * returns for the other, so the TL streams are the symmetric streams of section 5.4.4. Data
 * goodput per direction: about 746.9 Gb/s at x4 and 186.7 at x1 (within 1%: the run includes the
 * first request's latency).
 */
class UalinkSymmetricGoodputTestCase : public TestCase
{
  public:
    UalinkSymmetricGoodputTestCase()
        : TestCase("Goodput through the stack: symmetric writes on a direct link, x4 and x1")
    {
    }

  private:
    void DoRun() override
    {
        for (uint32_t lanes : {4u, 1u})
        {
            const uint64_t bytes = 2 * 1024 * 1024;
            UalinkHelper h;
            h.SetPhyAttribute("Lanes", UintegerValue(lanes));
            h.SetPhyAttribute("FecInterleave", UintegerValue(lanes == 1 ? 1 : 4));
            h.SetChannelAttribute("Delay", TimeValue(NanoSeconds(5)));
            NodeContainer n;
            n.Create(2);
            Ptr<UalinkEndpoint> a = h.CreateEndpoint(n.Get(0), 0);
            Ptr<UalinkEndpoint> b = h.CreateEndpoint(n.Get(1), 1);
            h.ConnectDirect(a, b);
            g_lastDelivery = Time(0);
            a->SetDeliveredCallback(MakeCallback(&RecordDelivery));
            b->SetDeliveredCallback(MakeCallback(&RecordDelivery));
            a->Send(1, bytes, 0);
            b->Send(0, bytes, 0);
            Simulator::Run();
            const uint64_t delivered = a->GetBytesDelivered() + b->GetBytesDelivered();
            Ptr<UalinkTxQueue> q = a->GetTxQueue(0);
            // Goodput per direction: each direction's 2 MiB over the time until both arrived.
            const double gbps = bytes * 8.0 / g_lastDelivery.GetSeconds() / 1e9;
            const double expected = lanes == 4 ? 746.9 : 186.7;
            std::cout << "symmetric goodput x" << lanes << ": " << gbps << " Gb/s per direction, "
                      << "TL efficiency "
                      << Pct(q->GetStats().dataBytes / (q->GetStats().halfFlits * 32.0))
                      << std::endl;
            NS_TEST_ASSERT_MSG_EQ(delivered, 2 * bytes, "every byte");
            NS_TEST_ASSERT_MSG_EQ_TOL(gbps, expected, 0.01 * expected, "bandwidth chain");
            Simulator::Destroy();
        }
    }
};

/**
 * \ingroup ualink-tests
 * Flow-control fields (sections 5.7, 5.8: 3-bit command and 5-bit data counts, Table 5-26): one FC
 * field returns at most 7 command and 31 data credits per class, and a control half-flit holds only
 * one non-zero field per class and VC or pool; so 20 ReqCmd and 100 ReqData pool credits take
 * max(ceil(20 / 7), ceil(100 / 31)) = 4 control half-flits of one FC field each (4 TL flits with
 * their MANDATORY NOPs), while credits on 4 VCs and the pool share one half-flit (5 fields).
 */
class UalinkFlowControlFieldTestCase : public TestCase
{
  public:
    UalinkFlowControlFieldTestCase()
        : TestCase("TL FC fields: at most 7 command and 31 data credits per class each")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<UalinkTlPacker> p = Packer();
        p->ReturnCredits(ualink::REQ_CMD, ualink::POOL, 20);
        p->ReturnCredits(ualink::REQ_DATA, ualink::POOL, 100);
        while (p->PackNext(nullptr))
        {
        }
        std::cout << "FC: 20 ReqCmd + 100 ReqData credits in " << p->GetStats().flowControlFields
                  << " FC fields, " << p->GetTlFlits() << " TL flits" << std::endl;
        NS_TEST_ASSERT_MSG_EQ(p->GetStats().flowControlFields, 4, "ceil(100 / 31) fields");
        NS_TEST_ASSERT_MSG_EQ(p->GetTlFlits(), 4, "one half-flit each");
        NS_TEST_ASSERT_MSG_EQ(p->GetPendingCredits(), 0, "all returned");
        Ptr<UalinkTlPacker> q = Packer();
        for (uint8_t k = 0; k < ualink::N_CREDIT_KINDS; ++k)
        {
            q->ReturnCredits(ualink::RSP_DATA, k, 10);
        }
        q->PackNext(nullptr);
        NS_TEST_ASSERT_MSG_EQ(q->GetStats().flowControlFields, 5, "5 kinds in one half-flit");
        NS_TEST_ASSERT_MSG_EQ(q->GetTlFlits(), 1, "one TL flit");
    }
};

/**
 * \ingroup ualink-tests
 * The ualink test suite.
 */
class UalinkTestSuite : public PicosecondTestSuite
{
  public:
    UalinkTestSuite()
        : PicosecondTestSuite("ualink", UNIT)
    {
        AddTestCase(new UalinkLoneOpsTestCase, TestCase::QUICK);
        AddTestCase(new UalinkEfficiencyStreamsTestCase, TestCase::QUICK);
        AddTestCase(new UalinkFootprintTestCase, TestCase::QUICK);
        AddTestCase(new UalinkAddressCacheTestCase, TestCase::QUICK);
        AddTestCase(new UalinkCatchLimitTestCase, TestCase::QUICK);
        AddTestCase(new UalinkSaturatedStreamTestCase, TestCase::QUICK);
        AddTestCase(new UalinkFlowControlFieldTestCase, TestCase::QUICK);
        AddTestCase(new UalinkDlPackingTestCase, TestCase::QUICK);
        AddTestCase(new UalinkPhySlotsTestCase, TestCase::QUICK);
        AddTestCase(new UalinkGoodputTestCase, TestCase::QUICK);
        AddTestCase(new UalinkLlrCrcErrorTestCase, TestCase::QUICK);
        AddTestCase(new UalinkLlrWindowTestCase, TestCase::QUICK);
        AddTestCase(new UalinkLlrAckTimeoutTestCase, TestCase::QUICK);
        AddTestCase(new UalinkEndpointTestCase, TestCase::QUICK);
        AddTestCase(new UalinkCreditsTestCase, TestCase::QUICK);
        AddTestCase(new UalinkIncastTestCase, TestCase::QUICK);
        AddTestCase(new UalinkDeniedRouteTestCase, TestCase::QUICK);
        AddTestCase(new UalinkWatchdogTestCase, TestCase::QUICK);
        AddTestCase(new UalinkLinkDownTestCase, TestCase::QUICK);
        AddTestCase(new UalinkOrderingTestCase, TestCase::QUICK);
        AddTestCase(new UalinkFineCoarseTestCase, TestCase::QUICK);
        AddTestCase(new UalinkSymmetricGoodputTestCase, TestCase::QUICK);
        AddTestCase(new UalinkRailShareTestCase, TestCase::QUICK);
        AddTestCase(new UalinkAtomicsTestCase, TestCase::QUICK);
        AddTestCase(new UalinkPoisonTestCase, TestCase::QUICK);
    }
};

static UalinkTestSuite g_ualinkTestSuite; //!< the suite
