/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-remote-channel.h"

#include "ns3/abort.h"
#include "ns3/fabric-arrival-order.h"
#include "ns3/fabric-net-device.h"
#include "ns3/log.h"
#include "ns3/mpi-interface.h"
#include "ns3/mpi-receiver.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricRemoteChannel");
NS_OBJECT_ENSURE_REGISTERED(FabricRemoteChannel);

namespace
{

/// Appends fixed-size fields (the ranks of one run share one machine type: host byte order).
class Writer
{
  public:
    /// \param out where to append
    explicit Writer(std::vector<uint8_t>& out)
        : m_out(out)
    {
    }

    /// \tparam T an integral type \param v the value
    template <typename T>
    void Put(T v)
    {
        static_assert(std::is_integral_v<T>, "integral fields only");
        const std::size_t at = m_out.size();
        m_out.resize(at + sizeof(T));
        std::memcpy(m_out.data() + at, &v, sizeof(T));
    }

    /// \param t a time, as its integer time step
    void Put(const Time& t)
    {
        Put<int64_t>(t.GetTimeStep());
    }

  private:
    std::vector<uint8_t>& m_out; //!< the bytes
};

/// Reads what Writer wrote, refusing to read past the end.
class Reader
{
  public:
    /// \param data the bytes \param size their number
    Reader(const uint8_t* data, uint32_t size)
        : m_data(data),
          m_size(size)
    {
    }

    /// \tparam T an integral type \param[out] v the value
    template <typename T>
    void Get(T& v)
    {
        static_assert(std::is_integral_v<T>, "integral fields only");
        NS_ABORT_MSG_IF(m_at + sizeof(T) > m_size,
                        "FabricRemoteChannel: truncated unit from another rank (" << m_size
                                                                                  << " bytes)");
        std::memcpy(&v, m_data + m_at, sizeof(T));
        m_at += sizeof(T);
    }

    /// \param[out] t a time
    void Get(Time& t)
    {
        int64_t ts = 0;
        Get(ts);
        t = TimeStep(ts);
    }

    /// \return true if every byte was read
    bool AtEnd() const
    {
        return m_at == m_size;
    }

  private:
    const uint8_t* m_data; //!< the bytes
    uint32_t m_size;       //!< their number
    uint32_t m_at{0};      //!< read position
};

/// Serialization format version, first byte of every unit.
constexpr uint8_t kFormat = 1;

} // namespace

TypeId
FabricRemoteChannel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FabricRemoteChannel")
                            .SetParent<FabricChannel>()
                            .SetGroupName("Fabric")
                            .AddConstructor<FabricRemoteChannel>();
    return tid;
}

FabricRemoteChannel::FabricRemoteChannel()
{
    NS_LOG_FUNCTION(this);
}

FabricRemoteChannel::~FabricRemoteChannel()
{
    NS_LOG_FUNCTION(this);
}

void
FabricRemoteChannel::Attach(Ptr<FabricNetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    FabricChannel::Attach(device);
    // As PointToPointHelper does for a remote link: the device's MpiReceiver is what ns-3's MPI
    // interface delivers to (GrantedTimeWindowMpiInterface::ReceiveMessages).
    Ptr<MpiReceiver> receiver = CreateObject<MpiReceiver>();
    receiver->SetReceiveCallback(MakeBoundCallback(&FabricRemoteChannel::ReceiveFromRank, device));
    device->AggregateObject(receiver);
}

uint64_t
FabricRemoteChannel::GetRemoteUnits() const
{
    return m_remoteUnits;
}

void
FabricRemoteChannel::Deliver(const Ptr<FabricNetDevice>& dst,
                             const Ptr<FabricPacket>& p,
                             bool corrupted,
                             Time delay,
                             uint64_t seq)
{
    const uint32_t rank = dst->GetNode()->GetSystemId();
    if (!MpiInterface::IsEnabled() || rank == MpiInterface::GetSystemId())
    {
        FabricChannel::Deliver(dst, p, corrupted, delay, seq);
        return;
    }
    NS_LOG_FUNCTION(this << p << dst << rank << delay << seq);
    // The receiving rank stages the unit in FabricArrivalOrder, which is what makes the order of
    // simultaneous arrivals the sequential run's: that run must stage its units too.
    NS_ABORT_MSG_IF(GetArrivalOrder() != CANONICAL,
                    "FabricRemoteChannel: a link between ranks needs the ArrivalOrder attribute "
                    "Canonical (pod.arrival-order: canonical)");
    ++m_remoteUnits;
    // The unit, then its receive time (time steps) and the sender's unit count on this link.
    std::vector<uint8_t> bytes = Serialize(*p, corrupted);
    const Time now = Simulator::Now();
    const int64_t trailer[2] = {(now + delay).GetTimeStep(), static_cast<int64_t>(seq)};
    const auto* t = reinterpret_cast<const uint8_t*>(trailer);
    bytes.insert(bytes.end(), t, t + sizeof(trailer));
    // ns-3's MPI interface schedules MpiReceiver::Receive at the time given here, which must not
    // be earlier than now + the lookahead (the Delay attribute: the propagation delay), and is
    // before the receive time.
    const Time handover = now + std::min(GetPropagationDelay(), delay);
    MpiInterface::SendPacket(Create<Packet>(bytes.data(), bytes.size()),
                             handover,
                             dst->GetNode()->GetId(),
                             dst->GetIfIndex());
}

void
FabricRemoteChannel::ReceiveFromRank(Ptr<FabricNetDevice> dst, Ptr<Packet> packet)
{
    NS_LOG_FUNCTION(dst << packet);
    std::vector<uint8_t> bytes(packet->GetSize());
    packet->CopyData(bytes.data(), bytes.size());
    int64_t trailer[2];
    NS_ABORT_MSG_IF(bytes.size() < sizeof(trailer),
                    "FabricRemoteChannel: truncated unit from another rank");
    const std::size_t unitBytes = bytes.size() - sizeof(trailer);
    std::memcpy(trailer, bytes.data() + unitBytes, sizeof(trailer));
    bool corrupted = false;
    Ptr<FabricPacket> p = Deserialize(bytes.data(), unitBytes, corrupted);
    const Time rx = TimeStep(trailer[0]);
    NS_ABORT_MSG_IF(rx < Simulator::Now(),
                    "FabricRemoteChannel: a unit from another rank arrived "
                        << (Simulator::Now() - rx).As(Time::PS) << " late");
    // As the sending rank's FabricChannel::Deliver would have on one rank: staged under its
    // receive time, handed over in the canonical order whatever the order of MPI's deliveries.
    FabricArrivalOrder::Get()->Stage(dst, p, corrupted, rx, static_cast<uint64_t>(trailer[1]));
}

std::vector<uint8_t>
FabricRemoteChannel::Serialize(const FabricPacket& p, bool corrupted)
{
    std::vector<uint8_t> out;
    out.reserve(160);
    Writer w(out);
    w.Put<uint8_t>(kFormat);
    w.Put<uint8_t>(corrupted ? 1 : 0);
    w.Put(p.src);
    w.Put(p.dst);
    w.Put(p.tclass);
    w.Put(p.msgId);
    w.Put(p.msgBytes);
    w.Put(p.offset);
    w.Put(p.payloadBytes);
    w.Put(p.headerBytes);
    w.Put(p.flowHash);
    w.Put(p.cookie);
    w.Put(p.posted);
    w.Put(p.sentAt);
    w.Put(p.inPort);
    w.Put(p.outPort);
    w.Put(p.tailArrival);
    w.Put(p.sourceRoute);
    w.Put<uint8_t>(p.kind);
    w.Put(p.ctrlClass);
    w.Put(p.ctrlValue);
    w.Put(p.ctrlValue2);
    w.Put(p.linkSeq);
    w.Put(p.poolCredits);
    w.Put(p.psn);
    w.Put(p.ackPsn);
    w.Put<uint8_t>(p.hasAck ? 1 : 0);
    w.Put<uint8_t>(p.isNack ? 1 : 0);
    w.Put(p.ackVc);
    w.Put<uint8_t>(p.segments ? 1 : 0);
    if (p.segments)
    {
        w.Put<uint32_t>(p.segments->size());
        for (const FabricPacket::Segment& s : *p.segments)
        {
            w.Put(s.msgId);
            w.Put(s.msgBytes);
            w.Put(s.offset);
            w.Put(s.cookie);
            w.Put(s.posted);
            w.Put(s.bytes);
            w.Put(s.tclass);
            w.Put(s.op);
            w.Put(s.src);
            w.Put(s.dst);
            w.Put(s.aux);
        }
    }
    return out;
}

Ptr<FabricPacket>
FabricRemoteChannel::Deserialize(const uint8_t* data, uint32_t size, bool& corrupted)
{
    Reader r(data, size);
    uint8_t format = 0;
    r.Get(format);
    NS_ABORT_MSG_IF(format != kFormat,
                    "FabricRemoteChannel: unit of format " << +format << ", expected " << +kFormat);
    Ptr<FabricPacket> p = Create<FabricPacket>();
    uint8_t flag = 0;
    r.Get(flag);
    corrupted = flag != 0;
    r.Get(p->src);
    r.Get(p->dst);
    r.Get(p->tclass);
    r.Get(p->msgId);
    r.Get(p->msgBytes);
    r.Get(p->offset);
    r.Get(p->payloadBytes);
    r.Get(p->headerBytes);
    r.Get(p->flowHash);
    r.Get(p->cookie);
    r.Get(p->posted);
    r.Get(p->sentAt);
    r.Get(p->inPort);
    r.Get(p->outPort);
    r.Get(p->tailArrival);
    r.Get(p->sourceRoute);
    uint8_t kind = 0;
    r.Get(kind);
    NS_ABORT_MSG_IF(kind > FabricPacket::TRANSPORT_ACK,
                    "FabricRemoteChannel: unknown unit kind " << +kind);
    p->kind = static_cast<FabricPacket::Kind>(kind);
    r.Get(p->ctrlClass);
    r.Get(p->ctrlValue);
    r.Get(p->ctrlValue2);
    r.Get(p->linkSeq);
    r.Get(p->poolCredits);
    r.Get(p->psn);
    r.Get(p->ackPsn);
    r.Get(flag);
    p->hasAck = flag != 0;
    r.Get(flag);
    p->isNack = flag != 0;
    r.Get(p->ackVc);
    r.Get(flag);
    if (flag)
    {
        uint32_t n = 0;
        r.Get(n);
        auto segments = std::make_shared<std::vector<FabricPacket::Segment>>(n);
        for (FabricPacket::Segment& s : *segments)
        {
            r.Get(s.msgId);
            r.Get(s.msgBytes);
            r.Get(s.offset);
            r.Get(s.cookie);
            r.Get(s.posted);
            r.Get(s.bytes);
            r.Get(s.tclass);
            r.Get(s.op);
            r.Get(s.src);
            r.Get(s.dst);
            r.Get(s.aux);
        }
        p->segments = std::move(segments);
    }
    NS_ABORT_MSG_IF(!r.AtEnd(), "FabricRemoteChannel: " << size << "-byte unit has trailing bytes");
    return p;
}

} // namespace ns3
