/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_PFC_H
#define FABRIC_PFC_H

#include "fabric-flow-control.h"

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup fabric
 * \brief Priority-based flow control (IEEE 802.1Qbb) on one port.
 *
 * **Receiver (ingress) side.** The bytes received on this port and still held by the owner are
 * counted per priority. When a priority's count reaches XoffBytes, a PAUSE frame for that
 * priority is sent with PauseQuanta quanta (one quantum is 512 bit times at the link rate); it
 * is refreshed every half pause time while the count stays above XonBytes, and a PAUSE with zero
 * quanta (resume) is sent when the count falls to XonBytes. The headroom above XOFF absorbs what
 * is already on its way when the pause takes effect; by default it is
 *
 *   headroom = rate * (2 * one-way delay + receive pipeline + PauseResponseTime)
 *              + 2 * (MTU frame + overhead) + (pause frame + overhead),
 *
 * i.e. the round trip of the link in flight, the pipeline of this receiver, the unit the peer is
 * serializing when the pause arrives and the unit this port may be sending ahead of the pause
 * frame. XOFF defaults to the port's share of the switch buffer (BufferShare) minus the
 * headroom; a switch that installs PFC must make the shares fit its buffer.
 *
 * **Sender (egress) side.** A PAUSE for priority p stops p (only p) at the next unit boundary
 * after PauseResponseTime, for the frame's quanta; a later frame refreshes or (with zero quanta)
 * ends the pause. Other priorities keep flowing. Pause frames cost wire time and take the
 * link's propagation and FEC delay.
 *
 * Each frame carries one priority (the class-enable vector of 802.1Qbb with one bit set).
 */
class FabricPfc : public FabricFlowControl
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    FabricPfc();
    ~FabricPfc() override;

    bool CanSend(uint8_t tclass, uint32_t bytes, uint32_t dst) const override;
    void NotifySent(const Ptr<FabricPacket>& p) override;
    void NotifyReceived(const Ptr<FabricPacket>& p) override;
    void NotifyReleased(const Ptr<FabricPacket>& p) override;
    void ReceiveControl(const Ptr<FabricPacket>& p) override;

    /// \return the headroom per priority (bytes): the attribute, or the computed default
    uint64_t GetHeadroom() const;

    /**
     * \brief The automatic headroom (see the class documentation), for checks made before a
     * pod is built.
     * \param rate link rate
     * \param oneWay one-way delay of the link (propagation plus FEC)
     * \param rxPipeline receive offset of the port for a largest frame
     * \param response pause response time of the peer
     * \param maxFrameBytes largest frame (header plus payload)
     * \param ifg per-frame wire overhead
     * \param ctrlBytes pause frame bytes
     * \return bytes
     */
    static uint64_t ComputeHeadroom(DataRate rate,
                                    Time oneWay,
                                    Time rxPipeline,
                                    Time response,
                                    uint64_t maxFrameBytes,
                                    uint64_t ifg,
                                    uint64_t ctrlBytes);
    /// \return the XOFF threshold per priority (bytes)
    uint64_t GetXoff() const;
    /// \return the XON threshold per priority (bytes)
    uint64_t GetXon() const;

    /**
     * \param tclass a priority
     * \return total time this port's transmitter was paused for it (up to now)
     */
    Time GetPausedTime(uint8_t tclass) const;

    /// \return paused time summed over priorities
    Time GetTotalPausedTime() const;

    /**
     * \param tclass a priority
     * \return the highest ingress occupancy of that priority seen (bytes)
     */
    uint64_t GetPeakOccupancy(uint8_t tclass) const;

    /**
     * \param tclass a priority
     * \return the ingress occupancy of that priority now (bytes)
     */
    uint64_t GetOccupancy(uint8_t tclass) const;

    /// \return pause frames (XOFF, refresh and XON) sent
    uint64_t GetPauseFramesSent() const
    {
        return GetControlFramesSent();
    }

    /// \return pause frames received
    uint64_t GetPauseFramesReceived() const
    {
        return GetControlFramesReceived();
    }

    /// \return true if this port's transmitter is paused for \p tclass now
    /// \param tclass a priority
    bool IsPaused(uint8_t tclass) const;

    /**
     * TracedCallback signature for pause frames.
     * \param tclass the priority
     * \param quanta the pause quanta (0: resume)
     */
    typedef void (*PauseTracedCallback)(uint8_t tclass, uint16_t quanta);

  protected:
    void DoDispose() override;

  private:
    /**
     * \brief Check mode: a switch port's ingress counter stays within XOFF + headroom.
     * \param c the priority
     */
    void CheckHeld(uint8_t c) const;
    /// \brief Send a PAUSE for \p tclass with \p quanta (0: resume).
    /// \param tclass priority \param quanta quanta
    void SendPause(uint8_t tclass, uint16_t quanta);
    /// \brief Refresh the pause of \p tclass while above XON.
    /// \param tclass priority
    void Refresh(uint8_t tclass);
    /// \brief Apply a received pause.
    /// \param tclass priority \param quanta quanta
    void ApplyPause(uint8_t tclass, uint16_t quanta);
    /// \brief A pause ran out without refresh.
    /// \param tclass priority
    void PauseExpired(uint8_t tclass);
    /// \brief End the pause of \p tclass now (accounting).
    /// \param tclass priority
    void EndPause(uint8_t tclass);
    /// \return the time of \p quanta pause quanta at the link rate
    /// \param quanta quanta
    Time QuantaToTime(uint16_t quanta) const;
    /// \brief Size the per-priority vectors.
    void Resize();

    uint32_t m_classes{8};     //!< priorities
    uint64_t m_xoff{0};        //!< XOFF (0: automatic)
    uint64_t m_xon{0};         //!< XON (0: automatic)
    uint64_t m_headroom{0};    //!< headroom (0: automatic)
    uint64_t m_bufferShare{0}; //!< buffer per port and priority for the automatic XOFF
    uint16_t m_quanta{0xffff}; //!< quanta per PAUSE
    Time m_responseTime;       //!< pause response time of a sender
    /// The automatic headroom, computed at its first use (it is read at every unit a switch
    /// port receives) from the link, which does not change once it carries traffic; computed
    /// again if PauseResponseTime or the port changes. 0: not computed yet.
    mutable uint64_t m_autoHeadroom{0};
    mutable Time m_autoHeadroomResponse; //!< the PauseResponseTime m_autoHeadroom is for
    mutable const FabricNetDevice* m_autoHeadroomDevice{nullptr}; //!< the port it is for

    // Receiver.
    /// Receiver state of one priority: what a received unit updates, in one place (one
    /// cache line, where three vectors were three).
    struct RxClass
    {
        uint64_t occ{0};      //!< held bytes
        uint64_t peak{0};     //!< peak held bytes
        bool xoffSent{false}; //!< a pause is in force upstream
    };

    std::vector<RxClass> m_rxClass; //!< receiver state per priority
    std::vector<EventId> m_refresh; //!< refresh timers

    // Sender.
    std::vector<Time> m_pausedUntil; //!< pause end per priority
    std::vector<bool> m_paused;      //!< paused now
    std::vector<Time> m_pauseStart;  //!< start of the current pause
    std::vector<Time> m_pausedTime;  //!< accumulated pause
    std::vector<EventId> m_expiry;   //!< pause expiry timers

    TracedCallback<uint8_t, uint16_t> m_pauseTxTrace; //!< pause frame sent
    TracedCallback<uint8_t, uint16_t> m_pauseRxTrace; //!< pause frame received
};

} // namespace ns3

#endif /* FABRIC_PFC_H */
