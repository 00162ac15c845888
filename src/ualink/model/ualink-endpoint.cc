/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ualink-endpoint.h"

#include "ualink-control-half-flit.h"
#include "ualink-dl-framer.h"
#include "ualink-phy.h"
#include "ualink-tl-op.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/fabric-clock.h"
#include "ns3/fabric-flow-plan.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("UalinkEndpoint");
NS_OBJECT_ENSURE_REGISTERED(UalinkEndpoint);

namespace
{
/// Message ids of reads live apart from those of Send(); their addresses (UalinkTxQueue::ToTlOp:
/// 20 bits of message id above a 256 MB range) then differ from the writes' too.
constexpr uint64_t READ_ID_BASE = uint64_t(1) << 19;

/// \return the key of a message at its destination
uint64_t
RxKey(uint32_t src, uint64_t msgId)
{
    return (static_cast<uint64_t>(src) << 44) | (msgId & ((uint64_t(1) << 44) - 1));
}
} // namespace

TypeId
UalinkEndpoint::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::UalinkEndpoint")
            .SetParent<FabricEndpoint>()
            .SetGroupName("Ualink")
            .AddConstructor<UalinkEndpoint>()
            .AddAttribute("MaxRequestBytes",
                          "Most bytes per UPLI request (section 2.7.4: 256, four 64 B beats).",
                          UintegerValue(256),
                          MakeUintegerAccessor(&UalinkEndpoint::m_maxRequest),
                          MakeUintegerChecker<uint32_t>(1, 256))
            .AddAttribute("TagsPerPort",
                          "Requests outstanding per port (Table 2-2: 11-bit tags, 2048).",
                          UintegerValue(2048),
                          MakeUintegerAccessor(&UalinkEndpoint::m_tags),
                          MakeUintegerChecker<uint32_t>(1, 2048))
            .AddAttribute("MaxSkippedRuns",
                          "Non-strict ordering: how many messages held at the UPLI for want of "
                          "a channel's credits a port looks past for one that may issue "
                          "(section 2.7.9 leaves the originator's issue order open).",
                          UintegerValue(16),
                          MakeUintegerAccessor(&UalinkEndpoint::m_maxSkipped),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("WatchdogTimeout",
                          "Per-request watchdog of the originator (section 3.1.3: programmable, "
                          "no default); on expiry the station enters isolation mode. 0: off.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&UalinkEndpoint::m_watchdog),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("CompleterLatency",
                          "Time from a request's arrival to its response (the spec gives no "
                          "completer service time: a parameter).",
                          TimeValue(NanoSeconds(0)),
                          MakeTimeAccessor(&UalinkEndpoint::m_completerLatency),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("StationResetDelay",
                          "Management reset of an isolated station (section 3.1.4.3; the spec "
                          "defers the procedure to the Manageability Specification): this long "
                          "after it isolated and after the last of its ports is Up again "
                          "(whichever is later), the station leaves isolation and TL drop mode "
                          "(ResetStation). 0: never by itself (call ResetStation).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&UalinkEndpoint::m_resetDelay),
                          MakeTimeChecker(Time(0)))
            .AddTraceSource("Request",
                            "A request arrived at this completer: source, message, offset, "
                            "operation.",
                            MakeTraceSourceAccessor(&UalinkEndpoint::m_requestTrace),
                            "ns3::UalinkEndpoint::RequestTracedCallback")
            .AddTraceSource("OperationDrop",
                            "The TL (drop mode after a link down) or the completer (completer "
                            "drop mode) dropped an operation: source, destination, reason.",
                            MakeTraceSourceAccessor(&UalinkEndpoint::m_dropTrace),
                            "ns3::UalinkEndpoint::DropTracedCallback")
            .AddTraceSource("AtomicResult",
                            "An AtomicR's answer arrived at this originator: its message id and "
                            "the word's value before the update.",
                            MakeTraceSourceAccessor(&UalinkEndpoint::m_atomicTrace),
                            "ns3::UalinkEndpoint::AtomicResultTracedCallback");
    return tid;
}

UalinkEndpoint::UalinkEndpoint()
{
    NS_LOG_FUNCTION(this);
    m_upli = CreateObject<UalinkUpli>();
    m_memory = CreateObject<UalinkAtomicMemory>();
}

void
UalinkEndpoint::SetUpli(Ptr<UalinkUpli> upli)
{
    NS_ABORT_MSG_IF(!m_ports.empty(), "UalinkEndpoint: SetUpli after AddPort");
    m_upli = upli;
}

UalinkEndpoint::~UalinkEndpoint()
{
    NS_LOG_FUNCTION(this);
}

void
UalinkEndpoint::DoDispose()
{
    for (Port& p : m_ports)
    {
        p.watchdog.Cancel();
        p.dev = nullptr;
        p.q = nullptr;
    }
    m_ports.clear();
    m_portOf.clear();
    m_upli = nullptr;
    m_memory = nullptr;
    m_tx.clear();
    m_rx.clear();
    FabricEndpoint::DoDispose();
}

uint32_t
UalinkEndpoint::AddPort(Ptr<FabricNetDevice> device, Ptr<const UalinkPhy> phy)
{
    NS_LOG_FUNCTION(this << device);
    const uint32_t index = static_cast<uint32_t>(m_ports.size());
    Port p;
    p.dev = device;
    p.q = CreateObject<UalinkTxQueue>();
    p.q->SetPhy(phy);
    p.q->SetDevice(device);
    p.slot = phy->GetSlotTime();
    // A TL half-flit on the wire, as UalinkTxQueue::SetPhy charges it: 32 B, x 680 / 628 for
    // the DL flit in its codeword, x P / (P - 1) for the slots that carry no DL flit.
    const double idle = phy->GetIdlePeriod();
    p.wirePerHf = static_cast<double>(ualink::HALF_FLIT_BYTES) * UalinkPhy::CODEWORD_BYTES /
                  UalinkDlFramer::PAYLOAD_BYTES * idle / (idle - 1.0);
    p.station = index * phy->GetLanes() / 4; // ports of a station are bifurcated alike (2.4)
    p.freeTags.reserve(m_tags);
    for (uint32_t t = m_tags; t > 0; --t)
    {
        p.freeTags.push_back(static_cast<uint16_t>(t - 1));
    }
    // Requests and responses move from the UPLI into the TL as the TL drains its buffers (UPLI
    // beat credits, section 2.6); a station's ports share the UPLI's TDM (2.5).
    m_upli->SetPorts(index + 1, 4 / phy->GetLanes());
    p.q->SetSentCallback(MakeCallback(&UalinkEndpoint::Refill, this, index));
    device->SetTxQueue(p.q);
    device->SetPortIndex(index);
    device->SetFabricReceiveCallback(MakeCallback(&UalinkEndpoint::Receive, this));
    if (Ptr<UalinkDl> dl = device->GetObject<UalinkDl>())
    {
        // The port's DL owns its link state (section 6.7.1): the TL sends only in Up.
        p.q->SetHeld(!dl->IsUp());
        dl->TraceConnectWithoutContext("LinkState",
                                       MakeCallback(&UalinkEndpoint::DlStateChanged, this, index));
    }
    else
    {
        device->AddLinkChangeCallback(MakeCallback(&UalinkEndpoint::LinkChanged, this, index));
    }
    m_portOf[PeekPointer(device)] = index;
    m_ports.push_back(p);
    return index;
}

uint32_t
UalinkEndpoint::SelectPort(uint64_t addr) const
{
    // Section 2.4: the rail is a hash of the address bits above the 256 B region; this model
    // takes them modulo the ports, so consecutive 256 B blocks go round the rails.
    return static_cast<uint32_t>((addr >> 8) % m_ports.size());
}

void
UalinkEndpoint::SetActiveRails(uint64_t mask)
{
    NS_LOG_FUNCTION(this << mask);
    NS_ABORT_MSG_IF(!m_tx.empty(), "UalinkEndpoint: SetActiveRails after a post");
    m_railMask = mask;
    m_allRails = true;
    for (uint32_t p = 0; p < m_ports.size(); ++p)
    {
        m_allRails = m_allRails && p < 64 && ((mask >> p) & 1) != 0;
    }
}

uint64_t
UalinkEndpoint::GetRailShareBytes(uint64_t msgId, uint64_t bytes) const
{
    if (m_allRails || m_ports.empty() || bytes == 0)
    {
        return bytes;
    }
    // Post's dealing: request i (bytes [i R, i R + R), R = MaxRequestBytes, the last one the
    // tail) on port (port0 + i) mod n.
    FabricPacket::Segment first;
    first.msgId = msgId;
    const uint64_t n = m_ports.size();
    const uint64_t port0 = SelectPort(UalinkTxQueue::AddressOf(first));
    const uint64_t requests = (bytes + m_maxRequest - 1) / m_maxRequest;
    const uint64_t last = requests - 1;
    const uint64_t tail = bytes - last * m_maxRequest;
    uint64_t share = 0;
    for (uint64_t p = 0; p < n && p < 64; ++p)
    {
        const uint64_t i0 = (p + n - port0) % n;
        if (((m_railMask >> p) & 1) == 0 || i0 > last)
        {
            continue;
        }
        const uint64_t count = (last - i0) / n + 1;
        share += count * m_maxRequest;
        if ((last - i0) % n == 0)
        {
            share -= m_maxRequest - tail; // the tail request is this port's last
        }
    }
    return share;
}

uint32_t
UalinkEndpoint::GetOutstanding(uint32_t i) const
{
    return m_tags - static_cast<uint32_t>(m_ports.at(i).freeTags.size());
}

uint64_t
UalinkEndpoint::GetWaitingRequests(uint32_t i) const
{
    uint64_t n = 0;
    for (const Run& r : m_ports.at(i).waiting)
    {
        n += r.next < r.m.bytes ? (r.m.bytes - r.next + r.stride - 1) / r.stride : 0;
    }
    return n;
}

double
UalinkEndpoint::GetCongestionState(uint32_t dst) const
{
    (void)dst;
    if (m_ports.empty())
    {
        return 0;
    }
    double busiest = 0;
    for (uint32_t i = 0; i < m_ports.size(); ++i)
    {
        busiest = std::max(busiest, static_cast<double>(GetOutstanding(i)) / m_tags);
    }
    return busiest;
}

bool
UalinkEndpoint::PlanFlow(const FabricMessage& m, FabricFlowPlan& plan)
{
    if (m_ports.empty() || m.bytes == 0)
    {
        return false;
    }
    plan = FabricFlowPlan();
    const uint64_t n = m_ports.size();
    const uint64_t requests = (m.bytes + m_maxRequest - 1) / m_maxRequest;
    // Post's dealing: request i (bytes [i R, i R + R), R = MaxRequestBytes) on port
    // (port0 + i) mod n, port0 from the rail hash of the message's first address.
    FabricPacket::Segment first;
    first.msgId = m.id;
    const uint64_t port0 = SelectPort(UalinkTxQueue::AddressOf(first));
    // The TL view of request i, as Issue makes its segment and the TL queue converts it.
    const auto opOf = [this, &m](uint64_t i) {
        FabricPacket::Segment s;
        s.msgId = m.id;
        s.msgBytes = m.bytes;
        s.offset = i * m_maxRequest;
        s.bytes = static_cast<uint32_t>(std::min<uint64_t>(m_maxRequest, m.bytes - s.offset));
        s.op = ualink::OP_WRITE;
        s.src = GetAcceleratorId();
        s.dst = m.dst;
        s.tclass = m.tclass & ualink::TCLASS_VC_MASK;
        return UalinkTxQueue::ToTlOp(s);
    };
    constexpr uint32_t REGION_SHIFT = 20; // the address cache's 1 MB regions (5.5)
    const uint64_t tailIndex = requests - 1;
    const UalinkTlOp tailOp = opOf(tailIndex);
    const UalinkTlOp fullOp = requests > 1 ? opOf(0) : tailOp;
    // Requests of 64 B multiples: every request but the tail is a WriteFull of the same beats.
    const bool uniform = m_maxRequest % ualink::BEAT_BYTES == 0;
    std::vector<double> wire(n, 0.0);
    double total = 0;
    double unit = 0;
    for (uint64_t p = 0; p < n; ++p)
    {
        const uint64_t i0 = (p + n - port0) % n;
        if (i0 >= requests)
        {
            continue;
        }
        Port& port = m_ports[p];
        if (!port.packerRead)
        {
            // The packer's attributes, read once (by name: a lookup per message costs more
            // than the rest of the plan).
            Ptr<UalinkTlPacker> packer = port.q->GetPacker();
            BooleanValue useCache;
            BooleanValue auth;
            UintegerValue fcThreshold;
            packer->GetAttribute("UseAddressCache", useCache);
            packer->GetAttribute("Authentication", auth);
            packer->GetAttribute("FlowControlCmdThreshold", fcThreshold);
            port.useCache = useCache.Get();
            port.authentication = auth.Get();
            port.fcThreshold = static_cast<uint32_t>(fcThreshold.Get());
            port.packerRead = true;
        }
        const uint64_t count = (tailIndex - i0) / n + 1;
        const bool tailHere = (tailIndex - i0) % n == 0;
        uint64_t dataHf = 0;
        uint64_t uncompressed = 0; // 4-sector request fields: the rest take 2 (Table 5-2)
        if (uniform)
        {
            const uint64_t full = count - (tailHere ? 1 : 0);
            dataHf = full * UalinkControlHalfFlit::DataHalfFlits(fullOp) +
                     (tailHere ? UalinkControlHalfFlit::DataHalfFlits(tailOp) : 0);
            // Only WriteFulls compress (Table 5-32), and the first one of each 1 MB region on a
            // port misses the Tx cache (5.6: uncompressed with CLOAD = 1, then hits).
            const bool tailCompressible = tailOp.cmd == ualink::WRITE_FULL;
            if (!port.useCache)
            {
                uncompressed = count;
            }
            else
            {
                const uint64_t perRegion = (uint64_t(1) << REGION_SHIFT) / m_maxRequest;
                const uint64_t regions = (requests + perRegion - 1) / perRegion;
                const uint64_t end = tailCompressible ? requests : tailIndex;
                for (uint64_t g = 0; g < regions; ++g)
                {
                    const uint64_t a = g * perRegion;
                    const uint64_t b = std::min(end, a + perRegion);
                    // this port's first request at or after a: a + ((i0 - a) mod n)
                    if (b > a && (i0 + n - a % n) % n < b - a)
                    {
                        ++uncompressed;
                    }
                }
                uncompressed += tailHere && !tailCompressible ? 1 : 0;
            }
        }
        else
        {
            uint64_t region = ~uint64_t(0);
            for (uint64_t i = i0; i < requests; i += n)
            {
                const UalinkTlOp op = opOf(i);
                dataHf += UalinkControlHalfFlit::DataHalfFlits(op);
                if (!port.useCache || op.cmd != ualink::WRITE_FULL)
                {
                    ++uncompressed;
                }
                else if ((op.addr >> REGION_SHIFT) != region)
                {
                    region = op.addr >> REGION_SHIFT;
                    ++uncompressed;
                }
            }
        }
        // Control half-flits (8 sectors, at most 4 requests, 5.7): 4 compressed or 2
        // uncompressed requests each, except that one in every k (k = 7, the most RspCmd
        // credits an FC field returns, 5.8) reserves a sector for the FC field returning the
        // write responses' credits and holds one request fewer: 7 compressed 256 B writes take
        // 2 control and 56 data half-flits (ualink.rst, "One-way writes").
        const double k = std::min<double>(port.fcThreshold, ualink::FC_MAX_CMD_CREDITS);
        double control = ((count - uncompressed) / 4.0 + uncompressed / 2.0) * (1.0 + 1.0 / k);
        if (port.authentication)
        {
            control *= 2; // the AuthTags half-flit after each (5.1.1)
        }
        wire[p] = (static_cast<double>(dataHf) + control) * port.wirePerHf;
        total += wire[p];
        // A burst (the packet engine's unit): one control half-flit and the data of its
        // requests, at most 4.
        const uint64_t inBurst = std::min<uint64_t>(count, ualink::CATCH_LIMIT_REQUESTS);
        const uint64_t burstHf =
            1 + inBurst * UalinkControlHalfFlit::DataHalfFlits(count > 1 ? fullOp : tailOp);
        unit = std::max(unit, static_cast<double>(burstHf) * port.wirePerHf);
    }
    for (uint64_t p = 0; p < n; ++p)
    {
        if (wire[p] > 0)
        {
            FabricFlowPlan::Share share;
            share.port = PeekPointer(m_ports[p].dev);
            share.flowHash = 0; // no UALink unit sets one: the switches route by destination
            share.fraction = wire[p] / total;
            plan.shares.push_back(share);
        }
    }
    // Each port carries its own requests (not a spray of units): the shares are separate flows.
    plan.sprayPorts = false;
    // A switch re-packs the operations into its own TL stream (its own address cache and
    // responses): every hop is charged the source port's wire bytes, an approximation.
    plan.wireBytes = static_cast<uint64_t>(std::llround(total));
    EnumValue granularity;
    m_ports.front().q->GetAttribute("Granularity", granularity);
    plan.unitWireBytes = granularity.Get() == UalinkTxQueue::DL_FLIT
                             ? UalinkPhy::CODEWORD_BYTES
                             : static_cast<uint32_t>(std::llround(unit));
    // Each port's requests wait for tags and go into its TL request queue in order, whatever
    // their VC or destination: one FIFO.
    plan.queue = 0;
    // The UPLI in Ideal mode hands a write to the TL at once (Tdm: a few UPLI cycles, left out).
    plan.setup = Time(0);
    plan.completesOnAck = true; // a write completes when its write response is back (2.7)
    return true;
}

void
UalinkEndpoint::DoSend(const FabricMessage& m)
{
    NS_LOG_FUNCTION(this << m.id << m.dst << m.bytes);
    Post(m, ualink::OP_WRITE);
}

uint64_t
UalinkEndpoint::Read(uint32_t dst, uint64_t bytes, uint8_t vc, uint64_t cookie)
{
    return PostOther(dst, bytes, vc, cookie, ualink::OP_READ, false);
}

uint64_t
UalinkEndpoint::Atomic(uint32_t dst,
                       uint32_t operandBytes,
                       bool returnsData,
                       uint8_t vc,
                       uint64_t cookie)
{
    // Section 2.7.4.5: at most 2 operands of at most 8 B, always within one 64 B beat.
    NS_ABORT_MSG_IF(operandBytes == 0 || operandBytes > 16,
                    "UalinkEndpoint: atomic operands of " << operandBytes << " B (1 to 16 B)");
    ++m_stats.atomics;
    CountSentPayload(operandBytes); // the operands go to the destination (the endpoint API)
    return PostOther(dst,
                     operandBytes,
                     vc,
                     cookie,
                     returnsData ? ualink::OP_ATOMIC_R : ualink::OP_ATOMIC_NR,
                     false);
}

uint64_t
UalinkEndpoint::WriteMessage(uint32_t dst, uint32_t bytes, uint8_t vc, uint64_t cookie)
{
    // Table 2-6: a Write Message is 1 to 4 beats.
    NS_ABORT_MSG_IF(bytes == 0 || bytes > ualink::MAX_REQUEST_BYTES,
                    "UalinkEndpoint: Write Message of " << bytes << " B (1 to 256 B)");
    ++m_stats.writeMessages;
    return PostOther(dst, bytes, vc, cookie, ualink::OP_WRITE_MESSAGE, false);
}

uint64_t
UalinkEndpoint::AtomicAdd(uint32_t dst,
                          uint64_t addr,
                          uint64_t operand,
                          uint32_t bytes,
                          bool returnsData,
                          uint8_t vc,
                          uint64_t cookie)
{
    // Table 2-5: 8, 16, 32 or 64-bit operands; a single-operand atomic may not cross 64 B
    // (2.7.4.5), which natural alignment guarantees.
    NS_ABORT_MSG_IF(!UalinkAtomicMemory::IsValidSize(bytes),
                    "UalinkEndpoint: atomic add of " << bytes << " B (1, 2, 4 or 8)");
    NS_ABORT_MSG_IF(addr % bytes != 0,
                    "UalinkEndpoint: atomic address " << addr << " not aligned to " << bytes
                                                      << " B");
    NS_ABORT_MSG_IF(m_ports.empty(), "UalinkEndpoint: no port");
    // Its port comes from the word's address, not from Post's dealing: not split by rails.
    NS_ABORT_MSG_IF(!m_allRails, "UalinkEndpoint: AtomicAdd with only some rails active");
    ++m_stats.atomics;
    FabricMessage m;
    m.id = READ_ID_BASE + m_nextReadId++;
    m.src = GetAcceleratorId();
    m.dst = dst;
    m.bytes = bytes;
    m.tclass = vc;
    m.cookie = cookie;
    m.posted = FabricClock::Now();
    NS_LOG_FUNCTION(this << m.id << dst << addr << operand << bytes << returnsData);
    const uint8_t op = returnsData ? ualink::OP_ATOMIC_R : ualink::OP_ATOMIC_NR;
    m_tx.emplace(m.id, TxMsg{m, 0, 0, false, m.bytes});
    m_postedShareBytes += m.bytes;
    // The rail of the word's 256 B region (2.4): same region, same port, same order (2.7.9).
    const uint32_t port = SelectPort(addr);
    Run r;
    r.m = m;
    r.op = op;
    r.next = 0;
    r.stride = m_maxRequest;
    r.atomic = true;
    r.addr = addr;
    r.operand = operand;
    m_ports[port].waiting.push_back(r);
    Issue(port);
    return m.id;
}

uint64_t
UalinkEndpoint::SendPoisoned(uint32_t dst, uint64_t bytes, uint8_t vc, uint64_t cookie)
{
    return PostOther(dst, bytes, vc, cookie, ualink::OP_WRITE, true);
}

uint64_t
UalinkEndpoint::PostOther(uint32_t dst,
                          uint64_t bytes,
                          uint8_t vc,
                          uint64_t cookie,
                          uint8_t op,
                          bool poisoned)
{
    FabricMessage m;
    m.id = READ_ID_BASE + m_nextReadId++;
    m.src = GetAcceleratorId();
    m.dst = dst;
    m.bytes = bytes;
    m.tclass = vc;
    m.cookie = cookie;
    m.posted = FabricClock::Now();
    NS_LOG_FUNCTION(this << m.id << dst << bytes << unsigned(op));
    Post(m, op, poisoned);
    return m.id;
}

void
UalinkEndpoint::Post(const FabricMessage& m, uint8_t op, bool poisoned)
{
    NS_ABORT_MSG_IF(m_ports.empty(), "UalinkEndpoint: no port");
    NS_ABORT_MSG_IF(m.bytes == 0, "UalinkEndpoint: empty message");
    // Only some rails active (SetActiveRails): the requests of the other ports are not posted,
    // and a message with none on the active ports is not this run's (nothing to wait for).
    const uint64_t share = GetRailShareBytes(m.id, m.bytes);
    if (share == 0)
    {
        return;
    }
    m_postedShareBytes += share;
    m_tx.emplace(m.id, TxMsg{m, 0, 0, op == ualink::OP_READ, share});
    const uint64_t requests = (m.bytes + m_maxRequest - 1) / m_maxRequest;
    if (op == ualink::OP_READ || op == ualink::OP_WRITE)
    {
        (op == ualink::OP_READ ? m_stats.reads : m_stats.writes) +=
            m_allRails ? requests : (share + m_maxRequest - 1) / m_maxRequest;
    }
    // Request i (bytes [256 i, 256 i + 256)) leaves on the port the rail hash picks for its
    // address; consecutive 256 B blocks go round the ports, so port p takes every n-th request
    // from its first one. The requests are cut lazily, as tags free (memory stays bounded by the
    // tags, not by what is posted).
    FabricPacket::Segment first;
    first.msgId = m.id;
    const uint32_t n = static_cast<uint32_t>(m_ports.size());
    const uint32_t port0 = SelectPort(UalinkTxQueue::ToTlOp(first).addr);
    for (uint32_t p = 0; p < n; ++p)
    {
        const uint64_t i0 = (p + n - port0) % n;
        if (i0 >= requests || (!m_allRails && (p >= 64 || ((m_railMask >> p) & 1) == 0)))
        {
            continue;
        }
        Run r;
        r.m = m;
        r.op = op;
        r.next = i0 * m_maxRequest;
        r.stride = static_cast<uint64_t>(n) * m_maxRequest;
        r.poisoned = poisoned;
        // Atomic() through the endpoint API: an add of the caller's cookie at address 0, so that
        // the operand beat carries the cookie and the delivered record has it.
        r.atomic = op == ualink::OP_ATOMIC_R || op == ualink::OP_ATOMIC_NR;
        r.operand = m.cookie;
        m_ports[p].waiting.push_back(r);
        Issue(p);
    }
}

void
UalinkEndpoint::Issue(uint32_t port, bool wake)
{
    Port& p = m_ports[port];
    if (p.isolated)
    {
        // Isolation mode: every new request is answered CMPTO at once (section 3.1.3).
        while (!p.waiting.empty())
        {
            Run r = p.waiting.front();
            p.waiting.pop_front();
            for (uint64_t off = r.next; off < r.m.bytes; off += r.stride)
            {
                ++m_stats.cmpto;
                Answer(r.m.id, std::min<uint64_t>(m_maxRequest, r.m.bytes - off), true);
            }
        }
        return;
    }
    bool queued = false;
    // In non-strict mode a run held by the UPLI credits of one channel or VC lets the runs
    // behind it go (other messages: other 256 B regions, 2.7.9; the originator's issue order is
    // its own); in strict mode every request stays in order.
    const bool strict = p.q->GetPacker()->IsStrictOrdering() || p.q->GetPacker()->IsAuthenticated();
    auto it = p.waiting.begin();
    uint32_t skipped = 0;
    while (it != p.waiting.end() && !p.freeTags.empty())
    {
        Run& r = *it;
        FabricPacket::Segment s;
        s.msgId = r.m.id;
        s.msgBytes = r.m.bytes;
        s.offset = r.next;
        s.cookie = r.m.cookie;
        s.posted = r.m.posted;
        s.bytes = static_cast<uint32_t>(std::min<uint64_t>(m_maxRequest, r.m.bytes - r.next));
        s.tclass = r.m.tclass & ualink::TCLASS_VC_MASK;
        s.op = r.op;
        s.src = GetAcceleratorId();
        s.dst = r.m.dst;
        if (r.atomic)
        {
            s.offset = r.addr;    // ReqAddr of the word
            s.cookie = r.operand; // the operand beat
        }
        const uint16_t tag = p.freeTags.back();
        s.aux = ualink::PackAux(tag, ualink::OKAY, 0, r.poisoned);
        bool now = false;
        if (!ToUpli(port, s, &now))
        {
            // Nothing passes in strict mode, nothing can issue without a Req credit, and at
            // most MaxSkippedRuns held runs are looked past (the cost stays bounded).
            if (strict || ++skipped > m_maxSkipped || !HasReqCredit(port))
            {
                break;
            }
            ++it;
            continue;
        }
        queued = queued || now;
        r.next += r.stride;
        if (r.next >= r.m.bytes)
        {
            it = p.waiting.erase(it);
        }
        p.freeTags.pop_back();
        if (tag >= p.tags.size())
        {
            p.tags.resize(tag + 1);
        }
        TagInfo& ti = p.tags[tag];
        ti.msgId = s.msgId;
        ti.bytes = s.bytes;
        ti.busy = true;
        ++ti.gen;
        if (m_watchdog.IsStrictlyPositive())
        {
            p.watch.push_back(Watch{tag, ti.gen, FabricClock::Now()});
            if (!p.watchdog.IsRunning())
            {
                p.watchdog =
                    Simulator::Schedule(m_watchdog, &UalinkEndpoint::CheckWatchdog, this, port);
            }
        }
    }
    if (!p.waiting.empty())
    {
        ++m_stats.tagWaits;
    }
    if (queued && wake)
    {
        p.dev->Wake();
    }
}

bool
UalinkEndpoint::HasReqCredit(uint32_t port) const
{
    for (uint8_t k = 0; k < ualink::N_CREDIT_KINDS; ++k)
    {
        if (m_upli->GetCredits(port, UalinkUpli::REQ, k) > 0)
        {
            return true;
        }
    }
    return false;
}

bool
UalinkEndpoint::ToUpli(uint32_t port, FabricPacket::Segment& s, bool* queued)
{
    Port& p = m_ports[port];
    UalinkUpli::Grant g;
    if (!m_upli->TryIssue(port,
                          s.op,
                          s.bytes,
                          UalinkTxQueue::AddressOf(s),
                          s.tclass & ualink::TCLASS_VC_MASK,
                          &g))
    {
        return false;
    }
    // The kinds ride in the operation until the TL takes it (Refill returns them, 2.6).
    const uint8_t main =
        ualink::IsDataRequest(s.op) || s.op == ualink::OP_READ
            ? g.kind[UalinkUpli::REQ]
            : g.kind[s.op == ualink::OP_READ_RSP ? UalinkUpli::RD_RSP : UalinkUpli::WR_RSP];
    s.tclass = (s.tclass & ualink::TCLASS_VC_MASK) |
               (main == ualink::POOL ? ualink::TCLASS_UPLI_POOL : 0) |
               (g.beats[UalinkUpli::ORIG_DATA] > 0 && g.kind[UalinkUpli::ORIG_DATA] == ualink::POOL
                    ? ualink::TCLASS_UPLI_DATA_POOL
                    : 0);
    Time ready = g.ready;
    const bool request = ualink::IsDataRequest(s.op) || s.op == ualink::OP_READ;
    if (request && m_upli->GetMode() == UalinkUpli::TDM &&
        (p.q->GetPacker()->IsStrictOrdering() || p.q->GetPacker()->IsAuthenticated()))
    {
        // Strict ordering: a request reaches the TL no earlier than the one issued before it.
        ready = std::max(ready, p.lastReady);
        p.lastReady = ready;
    }
    if (ready > FabricClock::Now())
    {
        Simulator::Schedule(ready - FabricClock::Now(), &UalinkEndpoint::ToTl, this, port, s);
        *queued = false;
        return true;
    }
    p.q->Enqueue(s);
    *queued = true;
    return true;
}

void
UalinkEndpoint::ToTl(uint32_t port, FabricPacket::Segment s)
{
    Port& p = m_ports[port];
    if (p.dropMode)
    {
        // The TL entered drop mode while the beats were on their way (3.1.3).
        Dropped(port, s, TL_DROP_MODE);
        ReturnUpliCredits(port, {s});
        return;
    }
    p.q->Enqueue(s);
    p.dev->Wake();
}

void
UalinkEndpoint::Refill(uint32_t port, const std::vector<FabricPacket::Segment>& segs)
{
    // The TL took these operations out of its UPLI buffers: their beat credits come back with
    // the kinds they were issued on (2.6).
    for (const FabricPacket::Segment& s : segs)
    {
        const UalinkUpli::Beats beats =
            UalinkUpli::BeatsOf(s.op, s.bytes, UalinkTxQueue::AddressOf(s));
        const uint8_t vc = s.tclass & ualink::TCLASS_VC_MASK;
        const uint8_t main = (s.tclass & ualink::TCLASS_UPLI_POOL) ? ualink::POOL : vc;
        const uint8_t data = (s.tclass & ualink::TCLASS_UPLI_DATA_POOL) ? ualink::POOL : vc;
        m_upli->Return(port, beats, {main, data, main, main});
    }
    Port& p = m_ports[port];
    if (!p.rspWaiting[0].empty() || !p.rspWaiting[1].empty())
    {
        IssueResponses(port, false);
    }
    if (!p.waiting.empty())
    {
        Issue(port, false); // called from the port's dequeue: it looks at its queue again next
    }
}

void
UalinkEndpoint::Receive(const Ptr<FabricNetDevice>& dev, const Ptr<FabricPacket>& p)
{
    NS_LOG_FUNCTION(this << p);
    // AddPort set the device's port index (the map is the fallback if someone changed it).
    uint32_t port = dev->GetPortIndex();
    if (port >= m_ports.size() || m_ports[port].dev != dev)
    {
        port = m_portOf.at(PeekPointer(dev));
    }
    NS_ASSERT(p->segments);
    const std::vector<FabricPacket::Segment>& segs = *p->segments;
    // The originator and completer always sink (2.7.8): the buffers free at once.
    m_ports[port].q->Release(segs, m_ports[port].slot);
    if (m_ports[port].dropMode)
    {
        // TL drop mode: inbound traffic on all channels is dropped (section 3.1.3); the
        // credits still go back (above).
        for (const FabricPacket::Segment& s : segs)
        {
            Dropped(port, s, TL_DROP_MODE);
        }
        return;
    }
    bool freed = false;
    for (const FabricPacket::Segment& s : segs)
    {
        if (m_completerDrop && s.op != ualink::OP_READ_RSP && s.op != ualink::OP_WRITE_RSP)
        {
            Dropped(port, s, COMPLETER_DROP_MODE); // a request: the completer drops it (3.1.3)
            continue;
        }
        switch (s.op)
        {
        case ualink::OP_WRITE:
        case ualink::OP_WRITE_MESSAGE:
        case ualink::OP_ATOMIC_R:
        case ualink::OP_ATOMIC_NR: {
            m_requestTrace(s.src, s.msgId, s.offset, s.op);
            CountReceivedPayload(s.bytes);
            if (ualink::AuxPoisoned(s.aux))
            {
                // Poisoned data is accepted and counted, not dropped (section 3.1.4.1).
                ++m_stats.poisonedReceived;
                m_stats.poisonedBytes += s.bytes;
            }
            const uint64_t key = RxKey(s.src, s.msgId);
            uint64_t& got = m_rx[key];
            got += s.bytes;
            // With only some rails active, the message's bytes on them (Post's dealing).
            const uint64_t need = m_allRails ? s.msgBytes : GetRailShareBytes(s.msgId, s.msgBytes);
            if (got >= need)
            {
                FabricMessage m;
                m.id = s.msgId;
                m.src = s.src;
                m.dst = s.dst;
                m.bytes = need;
                m.tclass = s.tclass & ualink::TCLASS_VC_MASK;
                m.cookie = s.cookie;
                m.posted = s.posted;
                m.delivered = FabricClock::Now();
                m_rx.erase(key);
                NotifyDelivered(m);
            }
            if (s.op == ualink::OP_ATOMIC_R || s.op == ualink::OP_ATOMIC_NR)
            {
                // The read-modify-write at the completer, on arrival (2.7.4.5); the AtomicR's
                // answer carries the value read (in the response's cookie).
                FabricPacket::Segment req = s;
                req.cookie = m_memory->FetchAdd(s.offset,
                                                s.cookie,
                                                std::min<uint32_t>(s.bytes, 8),
                                                s.op == ualink::OP_ATOMIC_R);
                Respond(port, req);
                break;
            }
            Respond(port, s);
            break;
        }
        case ualink::OP_READ:
            m_requestTrace(s.src, s.msgId, s.offset, s.op);
            Respond(port, s);
            break;
        case ualink::OP_READ_RSP:
        case ualink::OP_WRITE_RSP: {
            Port& pt = m_ports[port];
            const uint16_t tag = ualink::AuxTag(s.aux);
            if (pt.isolated || tag >= pt.tags.size() || !pt.tags[tag].busy)
            {
                ++m_stats.discarded; // isolation mode: responses are discarded (3.1.3)
                break;
            }
            if (pt.tags[tag].msgId != s.msgId)
            {
                // A response to a request answered CMPTO before a station reset, its tag
                // reissued since: not this request's.
                ++m_stats.staleResponses;
                ++m_stats.discarded;
                break;
            }
            ++m_stats.responses;
            pt.tags[tag].busy = false;
            pt.freeTags.push_back(tag);
            freed = true;
            if (s.op == ualink::OP_READ_RSP && s.msgId >= READ_ID_BASE &&
                m_tx.count(s.msgId) != 0 && !m_tx.at(s.msgId).read)
            {
                ++m_stats.atomicResponses; // an AtomicR's old value (Table 2-6)
                m_atomicTrace(s.msgId, s.cookie);
            }
            else if (s.op == ualink::OP_READ_RSP)
            {
                CountReceivedPayload(s.bytes);
                m_stats.readBytes += s.bytes;
            }
            Answer(s.msgId, s.bytes, ualink::AuxStatus(s.aux) != ualink::OKAY);
            break;
        }
        default:
            NS_FATAL_ERROR("UalinkEndpoint: unknown operation " << unsigned(s.op));
        }
    }
    if (freed)
    {
        Issue(port);
    }
}

void
UalinkEndpoint::Answer(uint64_t msgId, uint64_t bytes, bool cmpto)
{
    auto it = m_tx.find(msgId);
    if (it == m_tx.end())
    {
        return;
    }
    TxMsg& t = it->second;
    t.done += bytes;
    t.failed += cmpto ? bytes : 0;
    if (t.done < t.share)
    {
        return;
    }
    FabricMessage m = t.m;
    m.bytes = t.share; // this run's bytes of it (all of them unless some rails are inactive)
    m.completed = FabricClock::Now();
    if (t.read && t.failed == 0)
    {
        m.delivered = m.completed;
    }
    m_stats.failedMessages += t.failed > 0 ? 1 : 0;
    m_tx.erase(it);
    NotifyCompleted(m);
}

void
UalinkEndpoint::CheckWatchdog(uint32_t port)
{
    Port& p = m_ports[port];
    while (!p.watch.empty())
    {
        const Watch& w = p.watch.front();
        const TagInfo& ti = p.tags[w.tag];
        if (!ti.busy || ti.gen != w.gen)
        {
            p.watch.pop_front(); // answered in time
            continue;
        }
        const Time due = w.issued + m_watchdog;
        if (FabricClock::Now() >= due)
        {
            NS_LOG_LOGIC("watchdog: tag " << w.tag << " of port " << port << " timed out");
            Isolate(port);
            return;
        }
        p.watchdog = Simulator::Schedule(due - FabricClock::Now(),
                                         &UalinkEndpoint::CheckWatchdog,
                                         this,
                                         port);
        return;
    }
}

void
UalinkEndpoint::Isolate(uint32_t port)
{
    NS_LOG_FUNCTION(this << port);
    const uint32_t station = m_ports.at(port).station;
    if (m_ports[port].isolated)
    {
        return;
    }
    ++m_stats.isolations;
    for (uint32_t i = 0; i < m_ports.size(); ++i)
    {
        Port& p = m_ports[i];
        if (p.station != station)
        {
            continue;
        }
        p.isolated = true;
        p.watchdog.Cancel();
        p.watch.clear();
        // Every outstanding request is answered with a dummy CMPTO (section 3.1.3).
        for (uint16_t tag = 0; tag < p.tags.size(); ++tag)
        {
            TagInfo& ti = p.tags[tag];
            if (ti.busy)
            {
                ti.busy = false;
                p.freeTags.push_back(tag);
                ++m_stats.cmpto;
                Answer(ti.msgId, ti.bytes, true);
            }
        }
        Issue(i, false);
    }
    if (m_resetDelay.IsStrictlyPositive())
    {
        // Management resets the station once the delay has passed since it isolated and since
        // the last of its ports was Up again (AutoResetStation looks at both).
        Simulator::Schedule(m_resetDelay, &UalinkEndpoint::AutoResetStation, this, port);
    }
}

void
UalinkEndpoint::LinkChanged(uint32_t port)
{
    if (!m_ports.at(port).dev->IsLinkUp())
    {
        LinkDown(port);
    }
}

void
UalinkEndpoint::DlStateChanged(uint32_t port, UalinkDl::LinkState from, UalinkDl::LinkState to)
{
    NS_LOG_FUNCTION(this << port << UalinkDl::GetStateName(from) << UalinkDl::GetStateName(to));
    if (from == UalinkDl::UP && to != UalinkDl::UP)
    {
        LinkDown(port); // a bring-up (Fault, Idle, NOP) is not a link-down error
    }
    else if (to == UalinkDl::UP && m_ports.at(port).isolated && m_resetDelay.IsStrictlyPositive())
    {
        Simulator::Schedule(m_resetDelay, &UalinkEndpoint::AutoResetStation, this, port);
    }
}

void
UalinkEndpoint::AutoResetStation(uint32_t port)
{
    const uint32_t station = m_ports.at(port).station;
    if (!m_ports[port].isolated)
    {
        return; // reset already
    }
    for (const Port& p : m_ports)
    {
        Ptr<UalinkDl> dl = p.dev->GetObject<UalinkDl>();
        if (p.station == station &&
            (dl ? !dl->IsUp() || dl->GetUpSince() + m_resetDelay > FabricClock::Now()
                : !p.dev->IsLinkUp()))
        {
            return; // a port is down or just Up: its DL's entry into Up schedules it again
        }
    }
    ResetStation(port);
}

void
UalinkEndpoint::ResetStation(uint32_t port)
{
    NS_LOG_FUNCTION(this << port);
    const uint32_t station = m_ports.at(port).station;
    if (!m_ports[port].isolated && !m_ports[port].dropMode)
    {
        return;
    }
    ++m_stats.stationResets;
    for (uint32_t i = 0; i < m_ports.size(); ++i)
    {
        Port& p = m_ports[i];
        if (p.station != station)
        {
            continue;
        }
        p.isolated = false;
        p.dropMode = false;
        p.watchdog.Cancel();
        p.watch.clear();
        Ptr<UalinkDl> dl = p.dev->GetObject<UalinkDl>();
        p.q->SetHeld(dl ? !dl->IsUp() : !p.dev->IsLinkUp());
    }
    for (uint32_t i = 0; i < m_ports.size(); ++i)
    {
        if (m_ports[i].station == station)
        {
            Issue(i);
        }
    }
}

void
UalinkEndpoint::ReturnUpliCredits(uint32_t port, const std::vector<FabricPacket::Segment>& segs)
{
    for (const FabricPacket::Segment& s : segs)
    {
        const UalinkUpli::Beats beats =
            UalinkUpli::BeatsOf(s.op, s.bytes, UalinkTxQueue::ToTlOp(s).addr);
        const uint8_t vc = s.tclass & ualink::TCLASS_VC_MASK;
        const uint8_t main = (s.tclass & ualink::TCLASS_UPLI_POOL) ? ualink::POOL : vc;
        const uint8_t data = (s.tclass & ualink::TCLASS_UPLI_DATA_POOL) ? ualink::POOL : vc;
        m_upli->Return(port, beats, {main, data, main, main});
    }
}

void
UalinkEndpoint::LinkDown(uint32_t port)
{
    NS_LOG_FUNCTION(this << port);
    // Link down at an accelerator (section 3.1.4, Figure 3-8): the TL enters drop mode for all
    // ports of the station, on all channels in both directions: what its queues hold is dropped
    // (requests, and the completer's responses), inbound traffic is dropped, credits keep
    // flowing; it sends a credited ISOLATE to the originator (Figure 3-9).
    const uint32_t station = m_ports.at(port).station;
    for (uint32_t i = 0; i < m_ports.size(); ++i)
    {
        Port& p = m_ports[i];
        if (p.station != station || p.dropMode)
        {
            continue;
        }
        p.dropMode = true;
        p.q->SetHeld(true);
        const std::vector<FabricPacket::Segment> dropped = p.q->DropAll();
        for (const FabricPacket::Segment& s : dropped)
        {
            Dropped(i, s, TL_DROP_MODE);
        }
        // The UPLI channels keep their credits through the link down (3.1.4 table): the beats
        // the TL took and dropped give theirs back.
        ReturnUpliCredits(i, dropped);
        // The responses the completer holds for UPLI credits are dropped too (3.1.3).
        for (std::deque<FabricPacket::Segment>& q : p.rspWaiting)
        {
            for (const FabricPacket::Segment& s : q)
            {
                Dropped(i, s, TL_DROP_MODE);
            }
            q.clear();
        }
    }
    ++m_stats.isolates;
    Isolate(port);
}

void
UalinkEndpoint::Dropped(uint32_t port, const FabricPacket::Segment& s, const char* reason)
{
    NS_LOG_LOGIC("port " << port << " drops op " << unsigned(s.op) << " " << s.src << "->" << s.dst
                         << ": " << reason);
    ++(reason == TL_DROP_MODE ? m_stats.tlDropped : m_stats.completerDropped);
    m_dropTrace(s.src, s.dst, reason);
}

void
UalinkEndpoint::SetCompleterDropMode(bool on)
{
    NS_LOG_FUNCTION(this << on);
    m_completerDrop = on;
}

void
UalinkEndpoint::Respond(uint32_t port, FabricPacket::Segment req)
{
    if (m_completerLatency.IsStrictlyPositive())
    {
        Simulator::Schedule(m_completerLatency, &UalinkEndpoint::DoRespond, this, port, req);
        return;
    }
    DoRespond(port, req);
}

void
UalinkEndpoint::DoRespond(uint32_t port, FabricPacket::Segment req)
{
    if (m_completerDrop || m_ports[port].dropMode)
    {
        // Drop mode: the response the completer owes is dropped (section 3.1.3).
        Dropped(port, req, m_completerDrop ? COMPLETER_DROP_MODE : TL_DROP_MODE);
        return;
    }
    ++m_stats.requestsServed;
    if (req.op == ualink::OP_READ)
    {
        // The read's data leaves here: its bytes count as sent by the accelerator read from
        // (the endpoint API's conservation, sent = received + dropped).
        CountSentPayload(req.bytes);
    }
    FabricPacket::Segment rsp = req;
    // Table 2-6: a Read and an AtomicR are answered on RdRsp (the AtomicR's old value: one beat),
    // the others on WrRsp.
    rsp.op = (req.op == ualink::OP_READ || req.op == ualink::OP_ATOMIC_R) ? ualink::OP_READ_RSP
                                                                          : ualink::OP_WRITE_RSP;
    rsp.aux &= ~ualink::AUX_POISON; // the response carries no poisoned data
    rsp.src = req.dst;
    rsp.dst = req.src;
    rsp.tclass = req.tclass & ualink::TCLASS_VC_MASK;
    // Read and write responses wait apart for their channel's credits (2.7.8: responses are
    // never blocked by requests).
    m_ports[port].rspWaiting[rsp.op == ualink::OP_READ_RSP ? 0 : 1].push_back(rsp);
    IssueResponses(port, true);
}

void
UalinkEndpoint::IssueResponses(uint32_t port, bool wake)
{
    Port& p = m_ports[port];
    bool queued = false;
    for (std::deque<FabricPacket::Segment>& q : p.rspWaiting)
    {
        while (!q.empty())
        {
            bool now = false;
            if (!ToUpli(port, q.front(), &now))
            {
                break;
            }
            queued = queued || now;
            q.pop_front();
        }
    }
    if (queued && wake)
    {
        p.dev->Wake();
    }
}

} // namespace ns3
