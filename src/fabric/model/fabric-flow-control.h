/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_FLOW_CONTROL_H
#define FABRIC_FLOW_CONTROL_H

#include "fabric-packet.h"
#include "fabric-tx-gate.h"

#include "ns3/object.h"

namespace ns3
{

class FabricNetDevice;

/**
 * \ingroup fabric
 * \brief Link-level flow control of one port: the base of PFC (FabricPfc) and credit-based flow
 * control (FabricCreditFlowControl).
 *
 * One object sits on each end of a link and plays both roles:
 * - as a **sender** it is the port's FabricTxGate: the transmit queue asks it before each unit
 *   and it is told of each unit sent (NotifySent);
 * - as a **receiver** it accounts the units that arrive and stay in the owner's buffer
 *   (NotifyReceived, NotifyReleased) and sends control frames (pause, credits) to the peer.
 *
 * Control frames are FabricPackets of a control Kind that the device transmits ahead of data
 * (they cost wire time and take the link's delay) and hands to the peer's object
 * (ReceiveControl). The owner of the device (switch, endpoint) releases each received data unit
 * when it leaves its buffer: a switch when the unit leaves its egress queue, an endpoint at once.
 * Link-level retry (FabricRetryEngine) sits below: only units accepted in sequence are counted.
 */
class FabricFlowControl : public Object, public FabricTxGate
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    FabricFlowControl();
    ~FabricFlowControl() override;

    /**
     * \brief Bind to the port it controls (called by FabricNetDevice::SetFlowControl).
     * \param device the port (not owned: the device owns this object)
     */
    void SetDevice(FabricNetDevice* device);

    /// \return the port, or null
    FabricNetDevice* GetDevice() const
    {
        return m_device;
    }

    /**
     * \brief Sender role: a data unit admitted by CanSend starts transmission.
     * \param p the unit
     */
    virtual void NotifySent(const Ptr<FabricPacket>& p) = 0;

    /**
     * \brief Receiver role: a data unit arrived intact and in sequence; it occupies the buffer.
     * \param p the unit
     */
    virtual void NotifyReceived(const Ptr<FabricPacket>& p) = 0;

    /**
     * \brief Receiver role: a unit counted by NotifyReceived left the owner's buffer.
     * \param p the unit
     */
    virtual void NotifyReleased(const Ptr<FabricPacket>& p) = 0;

    /**
     * \brief A control frame of this mechanism arrived from the peer.
     * \param p the frame
     */
    virtual void ReceiveControl(const Ptr<FabricPacket>& p) = 0;

    /**
     * \brief Receiver role: a data unit arrived corrupted and was dropped (no link-level
     * retry). The default does nothing (PFC counts only what stays in the buffer).
     * \param p the unit
     */
    virtual void NotifyLost(const Ptr<FabricPacket>& p)
    {
    }

    /// \return control frames sent
    uint64_t GetControlFramesSent() const
    {
        return m_ctrlSent;
    }

    /// \return control frames received
    uint64_t GetControlFramesReceived() const
    {
        return m_ctrlReceived;
    }

    /// \return the frame bytes of one control frame
    uint32_t GetControlFrameBytes() const
    {
        return m_ctrlBytes;
    }

  protected:
    void DoDispose() override;

    /**
     * \brief Make a control frame of the configured size.
     * \param kind the frame kind
     * \return the frame
     */
    Ptr<FabricPacket> MakeControlFrame(FabricPacket::Kind kind) const;

    /**
     * \brief Hand a control frame to the port, ahead of its data.
     * \param p the frame
     */
    void SendControl(const Ptr<FabricPacket>& p);

    /// \brief Count a control frame sent without the port (carried in band by data headers).
    void CountControlSent()
    {
        ++m_ctrlSent;
    }

    /// \brief Count a received control frame.
    void CountControlReceived()
    {
        ++m_ctrlReceived;
    }

    /// \brief The gate may have opened: let the port try to transmit.
    void WakeDevice();

    /// \return the peer port's flow control object of the same link, or null
    Ptr<FabricFlowControl> GetPeer() const;

  private:
    FabricNetDevice* m_device{nullptr}; //!< the port
    uint32_t m_ctrlBytes{64};           //!< control frame bytes
    uint64_t m_ctrlSent{0};             //!< control frames sent
    uint64_t m_ctrlReceived{0};         //!< control frames received
};

} // namespace ns3

#endif /* FABRIC_FLOW_CONTROL_H */
