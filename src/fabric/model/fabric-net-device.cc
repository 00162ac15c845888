/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-net-device.h"

#include "fabric-channel.h"
#include "fabric-clock.h"
#include "fabric-drop-reason.h"
#include "fabric-flow-control.h"
#include "fabric-retry-engine.h"
#include "picosecond-resolution.h"

#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricNetDevice");
NS_OBJECT_ENSURE_REGISTERED(FabricNetDevice);

TypeId
FabricNetDevice::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FabricNetDevice")
            .SetParent<NetDevice>()
            .SetGroupName("Fabric")
            .AddConstructor<FabricNetDevice>()
            .AddAttribute("Mtu",
                          "MAC-level MTU (bytes) reported through the NetDevice API.",
                          UintegerValue(9000),
                          MakeUintegerAccessor(&FabricNetDevice::SetMtu, &FabricNetDevice::GetMtu),
                          MakeUintegerChecker<uint16_t>())
            .AddAttribute("InterframeBytes",
                          "Wire bytes per frame outside the frame itself (bytes): IEEE 802.3 "
                          "preamble and start delimiter (8) plus the minimum inter-packet gap "
                          "(12). Protocols with other framing set their own.",
                          UintegerValue(20),
                          MakeUintegerAccessor(&FabricNetDevice::m_interframeBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddTraceSource("PhyTxBegin",
                            "A unit starts serializing on the link.",
                            MakeTraceSourceAccessor(&FabricNetDevice::m_phyTxBeginTrace),
                            "ns3::FabricNetDevice::UnitTracedCallback")
            .AddTraceSource("PhyTxEnd",
                            "A unit finished serializing on the link.",
                            MakeTraceSourceAccessor(&FabricNetDevice::m_phyTxEndTrace),
                            "ns3::FabricNetDevice::UnitTracedCallback")
            .AddTraceSource("PhyRxEnd",
                            "A unit was received intact and handed to the owner.",
                            MakeTraceSourceAccessor(&FabricNetDevice::m_phyRxEndTrace),
                            "ns3::FabricNetDevice::UnitTracedCallback")
            .AddTraceSource("Drop",
                            "A unit was dropped at this device or by its owner, with the reason.",
                            MakeTraceSourceAccessor(&FabricNetDevice::m_dropTrace),
                            "ns3::FabricNetDevice::DropTracedCallback");
    return tid;
}

FabricNetDevice::FabricNetDevice()
{
    NS_LOG_FUNCTION(this);
    CheckPicosecondResolution("ns3::FabricNetDevice");
    // At most one TransmitComplete is pending per device: one event object serves them all,
    // instead of an allocation per unit.
    m_txCompleteEvent = Ptr<EventImpl>(MakeEvent(&FabricNetDevice::TransmitComplete, this), false);
}

FabricNetDevice::~FabricNetDevice()
{
    NS_LOG_FUNCTION(this);
}

void
FabricNetDevice::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_node = nullptr;
    m_channel = nullptr;
    m_txQueue = nullptr;
    m_txPacket = nullptr;
    m_txCompleteEvent = nullptr;
    m_ctrlQueue.clear();
    if (m_fc)
    {
        m_fc->SetDevice(nullptr);
        m_fc->Dispose();
        m_fc = nullptr;
    }
    if (m_llr)
    {
        m_llr->SetDevice(nullptr);
        m_llr->Dispose();
        m_llr = nullptr;
    }
    m_txDoneCallback = TransmitDoneCallback();
    m_rxCallback = FabricReceiveCallback();
    m_netRxCallback =
        MakeNullCallback<bool, Ptr<NetDevice>, Ptr<const Packet>, uint16_t, const Address&>();
    NetDevice::DoDispose();
}

void
FabricNetDevice::Attach(Ptr<FabricChannel> channel)
{
    NS_LOG_FUNCTION(this << channel);
    m_channel = channel;
    m_channel->Attach(this);
}

Ptr<FabricChannel>
FabricNetDevice::GetFabricChannel() const
{
    return m_channel;
}

void
FabricNetDevice::SetTxQueue(Ptr<FabricTxQueue> queue)
{
    NS_LOG_FUNCTION(this << queue);
    m_txQueue = queue;
}

Ptr<FabricTxQueue>
FabricNetDevice::GetTxQueue() const
{
    return m_txQueue;
}

void
FabricNetDevice::SetFabricReceiveCallback(FabricReceiveCallback cb)
{
    m_rxCallback = cb;
}

void
FabricNetDevice::SetTransmitDoneCallback(TransmitDoneCallback cb)
{
    m_txDoneCallback = cb;
}

void
FabricNetDevice::SetReceivePipeline(bool cutThrough, Time latency)
{
    NS_LOG_FUNCTION(this << cutThrough << latency);
    m_cutThrough = cutThrough;
    m_rxLatency = latency;
}

Time
FabricNetDevice::GetReceiveOffset(Time txTime) const
{
    return m_cutThrough ? m_rxLatency : txTime + m_rxLatency;
}

FabricNetDevice::TxMachineState
FabricNetDevice::GetTxState() const
{
    if (m_txState == BUSY && !m_completeScheduled && FabricClock::Now() >= m_busyUntil)
    {
        return READY; // completed lazily (see the class documentation)
    }
    return m_txState;
}

void
FabricNetDevice::Wake()
{
    if (m_txState == BUSY && !m_completeScheduled)
    {
        const Time now = FabricClock::Now();
        if (now >= m_busyUntil)
        {
            // The transmission ended while nothing was waiting: complete it now.
            m_txState = READY;
            m_txPacket = nullptr;
        }
        else
        {
            // Something is waiting now: the end of the transmission becomes an event.
            m_completeScheduled = true;
            Simulator::Schedule(m_busyUntil - now, m_txCompleteEvent);
            return;
        }
    }
    if (!m_linkUp)
    {
        // A dead link: drain the queue by dropping what it hands out.
        while (m_txQueue && !m_txQueue->IsEmpty())
        {
            Ptr<FabricPacket> d = m_txQueue->Dequeue(nullptr);
            if (!d)
            {
                break;
            }
            RecordDrop(d, FabricDropReason::LINK_DOWN);
        }
        return;
    }
    if (m_txState != READY || !m_channel)
    {
        return;
    }
    // Service order at a unit boundary: link control frames, then link-level replays, then new
    // data that the retry window, flow control and the queue's own gate admit.
    Ptr<FabricPacket> p;
    if (!m_ctrlQueue.empty())
    {
        p = m_ctrlQueue.front();
        m_ctrlQueue.pop_front();
        ++m_stats.txControlUnits;
        TransmitStart(p);
        return;
    }
    if (m_llr)
    {
        p = m_llr->NextReplay();
        if (p)
        {
            TransmitStart(p);
            m_txIsReplay = true;
            return;
        }
    }
    if (!m_txQueue || m_txQueue->IsEmpty())
    {
        return;
    }
    if (!m_llr || m_llr->CanSendNew())
    {
        p = m_txQueue->Dequeue(PeekPointer(m_fc));
    }
    if (!p)
    {
        // Data is waiting but held back (paused, no credit, retry window full).
        if (!m_stalled)
        {
            m_stalled = true;
            m_stallSince = FabricClock::Now();
        }
        return;
    }
    if (m_stalled)
    {
        m_stalled = false;
        m_stats.stallTime += FabricClock::Now() - m_stallSince;
    }
    if (m_fc)
    {
        m_fc->NotifySent(p);
    }
    if (m_llr)
    {
        m_llr->NotifySentNew(p);
    }
    TransmitStart(p);
}

void
FabricNetDevice::SetFlowControl(Ptr<FabricFlowControl> fc)
{
    NS_LOG_FUNCTION(this << fc);
    if (m_fc)
    {
        m_fc->SetDevice(nullptr);
    }
    m_fc = fc;
    if (m_fc)
    {
        m_fc->SetDevice(this);
    }
}

Ptr<FabricFlowControl>
FabricNetDevice::GetFlowControl() const
{
    return m_fc;
}

void
FabricNetDevice::SetRetryEngine(Ptr<FabricRetryEngine> llr)
{
    NS_LOG_FUNCTION(this << llr);
    if (m_llr)
    {
        m_llr->SetDevice(nullptr);
    }
    m_llr = llr;
    if (m_llr)
    {
        m_llr->SetDevice(this);
    }
}

Ptr<FabricRetryEngine>
FabricNetDevice::GetRetryEngine() const
{
    return m_llr;
}

void
FabricNetDevice::SendControl(const Ptr<FabricPacket>& p)
{
    NS_LOG_FUNCTION(this << p);
    m_ctrlQueue.push_back(p);
    Wake();
}

void
FabricNetDevice::SetHoldsReceivedUnits(bool holds)
{
    m_holdsReceived = holds;
}

void
FabricNetDevice::NotifyReleased(const Ptr<FabricPacket>& p)
{
    if (m_fc)
    {
        m_fc->NotifyReleased(p);
    }
}

void
FabricNetDevice::TransmitStart(const Ptr<FabricPacket>& p)
{
    NS_LOG_FUNCTION(this << p);
    NS_ASSERT_MSG(m_txState == READY, "Must be READY to transmit");
    m_txState = BUSY;
    const uint64_t wire = p->GetSize() + m_interframeBytes;
    Time txTime = m_channel->GetSerializationTime(wire);
    // Cut-through: the unit cannot finish leaving before its tail has arrived here.
    const Time now = FabricClock::Now();
    if (p->tailArrival > now + txTime)
    {
        txTime = p->tailArrival - now;
    }
    m_busyUntil = now + txTime;
    m_stats.busyTime += txTime;
    m_stats.txUnits++;
    m_stats.txBytes += p->GetSize();
    m_stats.txWireBytes += wire;
    m_stats.txPayloadBytes += p->payloadBytes;
    m_txIsReplay = false;
    // A trace call with no listener still copies the handle: skipped (here and below).
    if (!m_phyTxBeginTrace.IsEmpty())
    {
        m_phyTxBeginTrace(p);
    }
    m_channel->TransmitStart(p, this, txTime);
    m_txPacket = p;
    m_completeScheduled = !m_ctrlQueue.empty() || (m_txQueue && !m_txQueue->IsEmpty()) ||
                          (m_llr && m_llr->HasReplay()) || !m_txDoneCallback.IsNull() ||
                          !m_phyTxEndTrace.IsEmpty();
    if (m_completeScheduled)
    {
        Simulator::Schedule(txTime, m_txCompleteEvent);
    }
}

void
FabricNetDevice::TransmitComplete()
{
    NS_LOG_FUNCTION(this);
    NS_ASSERT_MSG(m_txState == BUSY && m_completeScheduled,
                  "Must be BUSY when a transmission completes");
    m_txState = READY;
    m_completeScheduled = false;
    Ptr<FabricPacket> p = m_txPacket;
    m_txPacket = nullptr;
    if (!m_phyTxEndTrace.IsEmpty())
    {
        m_phyTxEndTrace(p);
    }
    // The owner hears of each data unit once: not of control frames, nor of link replays.
    if (!m_txDoneCallback.IsNull() && !p->IsLinkControl() && !m_txIsReplay)
    {
        m_txDoneCallback(p);
    }
    Wake();
}

void
FabricNetDevice::Receive(const Ptr<FabricPacket>& p, bool corrupted)
{
    NS_LOG_FUNCTION(this << p << corrupted);
    if (corrupted)
    {
        if (m_llr)
        {
            // Discarded here and replayed by the peer: not a loss.
            ++m_stats.rxDiscarded;
            m_llr->NotifyCorrupted(p);
            return;
        }
        RecordDrop(p, FabricDropReason::CORRUPTED);
        if (m_fc && !p->IsLinkControl())
        {
            m_fc->NotifyLost(p); // credit recovery (FabricCreditFlowControl::NotifyLost)
        }
        return;
    }
    if (p->IsLinkControl())
    {
        ++m_stats.rxControlUnits;
        if ((p->kind == FabricPacket::LLR_ACK || p->kind == FabricPacket::LLR_NAK ||
             p->kind == FabricPacket::LLR_SYNC) &&
            m_llr)
        {
            m_llr->ReceiveControl(p);
        }
        else if ((p->kind == FabricPacket::PFC_PAUSE || p->kind == FabricPacket::CREDIT) && m_fc)
        {
            m_fc->ReceiveControl(p);
        }
        else
        {
            NS_FATAL_ERROR("FabricNetDevice: a control frame of kind "
                           << unsigned(p->kind)
                           << " arrived at a port without the mechanism that uses it; configure "
                              "flow control and link-level retry on both ends of a link");
        }
        return;
    }
    if (m_llr && !m_llr->AcceptData(p))
    {
        ++m_stats.rxDiscarded;
        return;
    }
    m_stats.rxUnits++;
    m_stats.rxBytes += p->GetSize();
    if (!m_phyRxEndTrace.IsEmpty())
    {
        m_phyRxEndTrace(p);
    }
    if (m_fc)
    {
        m_fc->NotifyReceived(p);
    }
    if (!m_rxCallback.IsNull())
    {
        m_rxCallback(this, p);
    }
    if (m_fc && !m_holdsReceived)
    {
        m_fc->NotifyReleased(p);
    }
}

void
FabricNetDevice::RecordDrop(Ptr<const FabricPacket> p, const char* reason)
{
    NS_LOG_FUNCTION(this << p << reason);
    m_stats.dropUnits[reason]++;
    m_stats.dropBytes[reason] += p->payloadBytes;
    m_dropTrace(p, reason);
}

// NetDevice API. Fabrics use the endpoint API; Send() is accepted only for completeness.

void
FabricNetDevice::SetIfIndex(const uint32_t index)
{
    m_ifIndex = index;
}

uint32_t
FabricNetDevice::GetIfIndex() const
{
    return m_ifIndex;
}

Ptr<Channel>
FabricNetDevice::GetChannel() const
{
    return m_channel;
}

void
FabricNetDevice::SetAddress(Address address)
{
    m_address = Mac48Address::ConvertFrom(address);
}

Address
FabricNetDevice::GetAddress() const
{
    return m_address;
}

bool
FabricNetDevice::SetMtu(const uint16_t mtu)
{
    m_mtu = mtu;
    return true;
}

uint16_t
FabricNetDevice::GetMtu() const
{
    return m_mtu;
}

bool
FabricNetDevice::IsLinkUp() const
{
    return m_channel != nullptr && m_linkUp;
}

void
FabricNetDevice::SetLinkUp(bool up)
{
    NS_LOG_FUNCTION(this << up);
    const bool changed = up != m_linkUp;
    m_linkUp = up;
    if (!up)
    {
        m_ctrlQueue.clear();
        Wake();
    }
    if (changed)
    {
        m_linkChangeCallbacks();
    }
    if (up && changed)
    {
        if (m_llr)
        {
            m_llr->NotifyLinkUp(); // replays what the link swallowed
        }
        Wake();
    }
}

void
FabricNetDevice::AddLinkChangeCallback(Callback<void> callback)
{
    m_linkChangeCallbacks.ConnectWithoutContext(callback);
}

bool
FabricNetDevice::IsBroadcast() const
{
    return false;
}

Address
FabricNetDevice::GetBroadcast() const
{
    return Mac48Address::GetBroadcast();
}

bool
FabricNetDevice::IsMulticast() const
{
    return false;
}

Address
FabricNetDevice::GetMulticast(Ipv4Address multicastGroup) const
{
    return Mac48Address::GetMulticast(multicastGroup);
}

Address
FabricNetDevice::GetMulticast(Ipv6Address addr) const
{
    return Mac48Address::GetMulticast(addr);
}

bool
FabricNetDevice::IsPointToPoint() const
{
    return true;
}

bool
FabricNetDevice::IsBridge() const
{
    return false;
}

bool
FabricNetDevice::Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    // podsim fabrics are driven through FabricEndpoint::Send (accelerator ids, not MAC
    // addresses); an IP stack on top of a fabric port is out of scope.
    NS_LOG_WARN("FabricNetDevice::Send is not supported; use the FabricEndpoint API");
    (void)packet;
    (void)dest;
    (void)protocolNumber;
    return false;
}

bool
FabricNetDevice::SendFrom(Ptr<Packet> packet,
                          const Address& source,
                          const Address& dest,
                          uint16_t protocolNumber)
{
    (void)source;
    return Send(packet, dest, protocolNumber);
}

Ptr<Node>
FabricNetDevice::GetNode() const
{
    return m_node;
}

void
FabricNetDevice::SetNode(Ptr<Node> node)
{
    m_node = node;
    m_nodeId = node ? node->GetId() : 0;
}

bool
FabricNetDevice::NeedsArp() const
{
    return false;
}

void
FabricNetDevice::SetReceiveCallback(NetDevice::ReceiveCallback cb)
{
    m_netRxCallback = cb;
}

void
FabricNetDevice::SetPromiscReceiveCallback(PromiscReceiveCallback cb)
{
    (void)cb;
}

bool
FabricNetDevice::SupportsSendFrom() const
{
    return false;
}

} // namespace ns3
