/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_NET_DEVICE_H
#define FABRIC_NET_DEVICE_H

#include "fabric-packet.h"
#include "fabric-tx-queue.h"

#include "ns3/callback.h"
#include "ns3/event-impl.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

#include <deque>
#include <map>
#include <string>

namespace ns3
{

class FabricChannel;
class FabricFlowControl;
class FabricRetryEngine;

/**
 * \ingroup fabric
 * \brief One port of a fabric node (an accelerator's NIC port or a switch port).
 *
 * The device is an explicit transmit state machine, as ns-3's PointToPointNetDevice: READY or
 * BUSY. When READY and its FabricTxQueue has a unit, TransmitStart() computes the exact
 * serialization time of the unit's wire bytes (frame plus the per-frame InterframeBytes),
 * hands the unit to the channel and schedules TransmitComplete(); TransmitComplete() returns to
 * READY and starts the next unit. Producers call Wake() after they enqueue.
 *
 * This costs at most two scheduler events per unit per hop (TransmitComplete here, the receive
 * event scheduled by the channel), within DESIGN.md's budget of three. TransmitComplete is
 * scheduled only when something happens at that instant: the queue has another unit, or the
 * owner or a trace listens to the end of transmission. Otherwise the device records when the
 * wire frees up and completes the transmission lazily, when the next unit arrives or the state
 * is read; the timing is identical, and an idle port forwards a lone unit with one event.
 *
 * Received units go to the receive handler installed by the owner (a FabricSwitch or an
 * endpoint). Corrupted units are dropped here and counted under FabricDropReason::CORRUPTED.
 */
class FabricNetDevice : public NetDevice
{
  public:
    /// Transmit state machine states
    enum TxMachineState
    {
        READY, //!< idle
        BUSY,  //!< serializing a unit
    };

    /// Per-device counters (the per-link table of the results file).
    struct Stats
    {
        uint64_t txUnits{0};        //!< units transmitted
        uint64_t txBytes{0};        //!< frame bytes transmitted (header + payload)
        uint64_t txWireBytes{0};    //!< bytes on the wire including per-frame overhead
        uint64_t txPayloadBytes{0}; //!< payload bytes transmitted
        uint64_t rxUnits{0};        //!< units received intact
        uint64_t rxBytes{0};        //!< frame bytes received intact
        Time busyTime;              //!< total time the transmitter was BUSY
        uint64_t txControlUnits{0}; //!< link-level control frames transmitted (in txUnits too)
        uint64_t rxControlUnits{0}; //!< link-level control frames received intact
        uint64_t rxDiscarded{0};    //!< corrupted or out-of-sequence units discarded for replay
        Time stallTime; //!< time data was queued but flow control, retry or transport held it
        std::map<std::string, uint64_t> dropUnits; //!< drops at this device, by reason
        std::map<std::string, uint64_t> dropBytes; //!< dropped payload bytes, by reason
    };

    /**
     * Receive handler installed by the owner.
     * \param device the receiving device
     * \param p the unit
     */
    typedef Callback<void, const Ptr<FabricNetDevice>&, const Ptr<FabricPacket>&>
        FabricReceiveCallback;

    /**
     * Transmit-complete handler installed by the owner (e.g. an endpoint reporting local
     * completion): a plain callback, cheaper than a trace source on the hot path.
     * \param p the unit whose serialization ended
     */
    typedef Callback<void, const Ptr<FabricPacket>&> TransmitDoneCallback;

    static TypeId GetTypeId();
    FabricNetDevice();
    ~FabricNetDevice() override;

    /**
     * Attach to a channel.
     * \param channel the channel
     */
    void Attach(Ptr<FabricChannel> channel);
    /// \return the attached fabric channel
    Ptr<FabricChannel> GetFabricChannel() const;

    /// \param queue the transmit queue this device serves
    void SetTxQueue(Ptr<FabricTxQueue> queue);
    /// \return the transmit queue
    Ptr<FabricTxQueue> GetTxQueue() const;

    /// \param cb the handler for units received intact
    void SetFabricReceiveCallback(FabricReceiveCallback cb);

    /// \param cb called when each unit finishes serializing
    void SetTransmitDoneCallback(TransmitDoneCallback cb);

    /**
     * Tell the device its queue may have something to send; starts a transmission if READY.
     */
    void Wake();

    /**
     * Called by the channel when a unit arrives.
     * \param p the unit
     * \param corrupted whether the error model corrupted it
     */
    void Receive(const Ptr<FabricPacket>& p, bool corrupted);

    /**
     * How long after the head of a unit arrives the device acts on it (the channel schedules the
     * receive event this much after head arrival).
     * \param txTime serialization time of the unit on the incoming link
     * \return txTime (store-and-forward) or 0 (cut-through), plus the pipeline latency
     */
    Time GetReceiveOffset(Time txTime) const;

    /**
     * Configure the receive pipeline (set by a switch on its ports).
     * \param cutThrough act on head arrival instead of tail arrival
     * \param latency pipeline latency added to the receive event
     */
    void SetReceivePipeline(bool cutThrough, Time latency);

    /// \return the transmit state
    TxMachineState GetTxState() const;

    /**
     * \brief Put flow control (PFC, credits) on this port. The object gates the transmit queue
     * and accounts received units; null removes it.
     * \param fc the flow control object (owned by the device from now on)
     */
    void SetFlowControl(Ptr<FabricFlowControl> fc);

    /// \return the port's flow control, or null
    Ptr<FabricFlowControl> GetFlowControl() const;

    /**
     * \brief Put link-level retry on this port (it must be on both ends of the link).
     * \param llr the retry engine (owned by the device from now on); null removes it
     */
    void SetRetryEngine(Ptr<FabricRetryEngine> llr);

    /// \return the port's retry engine, or null
    Ptr<FabricRetryEngine> GetRetryEngine() const;

    /**
     * \brief Transmit a link-level control frame ahead of queued data (at the next unit
     * boundary); used by flow control and the retry engine.
     * \param p the frame
     */
    void SendControl(const Ptr<FabricPacket>& p);

    /**
     * \brief Whether the owner keeps received units in a buffer and will call NotifyReleased
     * for each (a switch); otherwise (an endpoint) units are released as they are handed over.
     * \param holds true if the owner buffers received units
     */
    void SetHoldsReceivedUnits(bool holds);

    /**
     * \brief Take the link down or bring it up (FabricChannel::SetLinkUp does it for both
     * ends). While down the port transmits nothing: its pending control frames are discarded,
     * and every unit its transmit queue hands out is dropped (LinkDown) at once, so that a
     * switch's queue toward a dead link drains instead of holding its buffer.
     * \param up the new link state
     */
    void SetLinkUp(bool up);

    /// \return true if the owner buffers received units (see SetHoldsReceivedUnits)
    bool GetHoldsReceivedUnits() const
    {
        return m_holdsReceived;
    }

    /**
     * \brief The owner's buffer no longer holds a unit received on this port (flow control
     * returns its credits or counts it towards resuming).
     * \param p the unit
     */
    void NotifyReleased(const Ptr<FabricPacket>& p);

    /// \return the counters
    const Stats& GetStats() const
    {
        return m_stats;
    }

    /**
     * Count a drop decided by the owner of this device (e.g. a switch with a full buffer).
     * \param p the unit
     * \param reason a FabricDropReason
     */
    void RecordDrop(Ptr<const FabricPacket> p, const char* reason);

    /// \return per-frame wire overhead in bytes (preamble, start delimiter, inter-frame gap)
    uint32_t GetInterframeBytes() const
    {
        return m_interframeBytes;
    }

    /// \return index of this port on its node (set by the installer)
    uint32_t GetPortIndex() const
    {
        return m_portIndex;
    }

    /// \param index index of this port on its node
    void SetPortIndex(uint32_t index)
    {
        m_portIndex = index;
    }

    /**
     * TracedCallback signature for unit events.
     * \param p the unit
     */
    typedef void (*UnitTracedCallback)(Ptr<const FabricPacket> p);

    /**
     * TracedCallback signature for drops.
     * \param p the unit
     * \param reason the drop reason
     */
    typedef void (*DropTracedCallback)(Ptr<const FabricPacket> p, const std::string& reason);

    // NetDevice
    void SetIfIndex(const uint32_t index) override;
    uint32_t GetIfIndex() const override;
    Ptr<Channel> GetChannel() const override;
    void SetAddress(Address address) override;
    Address GetAddress() const override;
    bool SetMtu(const uint16_t mtu) override;
    uint16_t GetMtu() const override;
    bool IsLinkUp() const override;
    void AddLinkChangeCallback(Callback<void> callback) override;
    bool IsBroadcast() const override;
    Address GetBroadcast() const override;
    bool IsMulticast() const override;
    Address GetMulticast(Ipv4Address multicastGroup) const override;
    Address GetMulticast(Ipv6Address addr) const override;
    bool IsPointToPoint() const override;
    bool IsBridge() const override;
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    bool SendFrom(Ptr<Packet> packet,
                  const Address& source,
                  const Address& dest,
                  uint16_t protocolNumber) override;
    Ptr<Node> GetNode() const override;
    void SetNode(Ptr<Node> node) override;

    /// \return the id of the owning node (the context of events at this port), without the
    /// reference counting of GetNode()
    uint32_t GetNodeId() const
    {
        return m_nodeId;
    }

    bool NeedsArp() const override;
    void SetReceiveCallback(NetDevice::ReceiveCallback cb) override;
    void SetPromiscReceiveCallback(PromiscReceiveCallback cb) override;
    bool SupportsSendFrom() const override;

  protected:
    void DoDispose() override;

  private:
    /**
     * Start serializing a unit (state READY -> BUSY).
     * \param p the unit
     */
    void TransmitStart(const Ptr<FabricPacket>& p);
    /// End of serialization (BUSY -> READY), then the next unit.
    void TransmitComplete();

    // What a unit's receive, transmission and transmission end read, together at the front
    // of the object (after ns-3's Object fields and its reference count), so that the first
    // touch of a port brings most of them in one or two cache lines.
    Ptr<FabricFlowControl> m_fc;               //!< flow control, or null
    Ptr<FabricRetryEngine> m_llr;              //!< link-level retry, or null
    FabricReceiveCallback m_rxCallback;        //!< owner's receive handler
    Ptr<FabricTxQueue> m_txQueue;              //!< what this port transmits from
    Ptr<FabricPacket> m_txPacket;              //!< the unit being serialized
    Ptr<FabricChannel> m_channel;              //!< attached channel
    TxMachineState m_txState{READY};           //!< transmit state
    bool m_holdsReceived{false};               //!< the owner releases received units itself
    bool m_linkUp{true};                       //!< link state (SetLinkUp)
    bool m_stalled{false};                     //!< data is queued but held back
    bool m_txIsReplay{false};                  //!< the unit on the wire is a link replay
    bool m_completeScheduled{false};           //!< TransmitComplete is scheduled
    uint32_t m_interframeBytes{20};            //!< per-frame wire overhead
    uint32_t m_nodeId{0};                      //!< the owning node's id
    Time m_busyUntil;                          //!< end of the current transmission
    Ptr<EventImpl> m_txCompleteEvent;          //!< the device's one TransmitComplete event, reused
    Stats m_stats;                             //!< counters (the unit counters first)
    TransmitDoneCallback m_txDoneCallback;     //!< owner's transmit-complete handler
    std::deque<Ptr<FabricPacket>> m_ctrlQueue; //!< control frames waiting to be sent

    Ptr<Node> m_node;                           //!< owning node
    NetDevice::ReceiveCallback m_netRxCallback; //!< ns-3 protocol handler (unused by fabrics)
    Mac48Address m_address;                     //!< MAC address
    uint32_t m_ifIndex{0};                      //!< interface index
    uint32_t m_portIndex{0};                    //!< port index on the node
    uint16_t m_mtu{9000};                       //!< MTU (NetDevice API)
    bool m_cutThrough{false};                   //!< receive pipeline mode
    Time m_rxLatency;                           //!< receive pipeline latency
    Time m_stallSince;                          //!< when the current hold began

    TracedCallback<Ptr<const FabricPacket>> m_phyRxEndTrace;   //!< unit received intact
    TracedCallback<Ptr<const FabricPacket>> m_phyTxBeginTrace; //!< serialization starts
    TracedCallback<Ptr<const FabricPacket>> m_phyTxEndTrace;   //!< serialization ends
    TracedCallback<> m_linkChangeCallbacks;                    //!< AddLinkChangeCallback
    TracedCallback<Ptr<const FabricPacket>, const std::string&> m_dropTrace; //!< drops
};

} // namespace ns3

#endif /* FABRIC_NET_DEVICE_H */
