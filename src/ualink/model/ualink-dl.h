/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UALINK_DL_H
#define UALINK_DL_H

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <string>

namespace ns3
{

class FabricNetDevice;
class FabricRetryEngine;
class UalinkPhy;
class UalinkTxQueue;

/**
 * \ingroup ualink
 * \brief The UALink 200 data link layer's link-level replay (LLR) parameters (UALink_200
 * section 6.6), applied to the fabric module's retry engine (DESIGN.md rule 2: UALink's DL replay
 * is a configuration of FabricRetryEngine, not a copy of it).
 *
 * The DL replays whole DL flits, go-back-N (section 6.6.1): only payload flits take sequence
 * numbers (9 bits, 1..511) and sit in the Tx replay buffer, at most 255 unacknowledged. Every
 * command flit header carries a cumulative Ack (an explicit header with the full sequence number
 * goes out every 7th flit), so acks cost no wire time and leave with the next flit. A receiver that
 * sees a CRC error or a gap sends a replay request 3 times, at most one per FEC codeword group;
 * the transmitter acts on the first and ignores the others for 12 flits; the receiver asks again
 * after Rx_replay_limit (50) unexpected flits. No ack progress for Tx_ack_time_out (40,000 flits)
 * takes the link down (section 6.6.5.8).
 *
 * Configure() turns these flit counts into the engine's times with the port's DL flit time (the
 * codeword slot, UalinkPhy). Section 6.6.5.8 calls 40,000 flits "1 ms at 25 ns per flit"; a flit
 * (a 680 B codeword, 7.2.7) is 25.6 ns at x1, and this model counts flits (1.024 ms at x1, 256 us
 * at x4).
 *
 * Attached to a port (Attach: one UalinkDl per port, aggregated to its device), the DL also runs
 * the link state machine of section 6.7.1 and the Tx pacing of section 6.5:
 *
 * - **Fault** (the reset state; link down): the RS reports a local or remote fault. Entered from
 *   any state on a fault (SetRsFault; a cut link, FabricChannel::SetLinkUp(false), is a local
 *   fault at both ends). A local fault at one end reaches the partner as remote fault ordered
 *   sets: it enters Fault when ControlFlitsToIdle of them have arrived. Leaves for Idle when the
 *   RS reports no fault.
 * - **Idle** (sends Idle; link down): leaves for NOP when a higher layer enables the link
 *   (Enable; AutoEnable does it at once after a reset, never after a link-down error, which
 *   management software recovers, section 3.1.4.3).
 * - **NOP** (sends NOP flits only; link down): leaves for Up once NopFlitsToUp (10) NOP flits
 *   have been sent and RxFlitsToUp (2) consecutive DL flits received from the partner. Flits go
 *   in the codeword slots that carry a DL flit (UalinkPhy::IsDlFlitSlot), from the first slot
 *   boundary after entering NOP; a flit counts as received when its codeword has crossed the
 *   link and been decoded (FabricChannel::GetOneWayDelay: propagation plus the FEC latency).
 * - **Up** (NOP or payload flits; link up): the only state in which the TL sends (the port's
 *   UalinkTxQueue is held otherwise). Leaves for Idle when the Tx ack timeout expires (section
 *   6.6.6.8, the retry engine's LinkDown), on an error-containment event (ContainError, 6.7.4)
 *   or when ControlFlitsToIdle (4) consecutive control flits have been received (the partner
 *   left Up and sends Idle).
 *
 * Entering NOP again after having left Up (a fault cleared, Enable after a link-down error), the
 * DL re-initialises the link (Reinitialise): the replay state returns to its reset values and the
 * port's TL re-initialises its credits and address cache (UalinkTxQueue::ReinitLink).
 *
 * The port's FabricNetDevice is link up exactly in Up. The LinkState trace reports each
 * transition; the accelerator's and the switch's TL react to a port leaving Up (section 3.1.4).
 *
 * Tx pacing (sections 6.4.2.2, 6.5): each side has a TL rate, its UPLI clock in units of 50 kHz
 * (31,250: 1562.5 MHz, the full rate; 3,125: the 156.25 MHz reference clock, the minimum).
 * SetTlRate announces a new rate in a TL Rate Notification (an alternative sector of the next DL
 * flit); the partner registers it when that flit has arrived and paces the TL flits it admits to
 * its DL to the lower of the two rates times the DL width (512 bits at x4, 256 at x2, 128 at x1):
 * at 156.25 MHz and x4, 10 GB/s of TL flits. At the full rate the DL's own framing (628 of 640 B,
 * 784.23 Gb/s at x4) is below the 800 Gb/s the clock allows, so pacing does not bind and is off.
 */
class UalinkDl : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    UalinkDl();
    ~UalinkDl() override;

    /// DL flit header (3 B), five segment headers and the CRC (4 B) around the payload (6.3.1).
    static constexpr uint32_t FLIT_OVERHEAD_BYTES = 12;
    /// Codeword bytes beyond the 640 B DL flit: RS parity and 256B/257B transcoding (7.2.7).
    static constexpr uint32_t FEC_OVERHEAD_BYTES = 40;
    /// Sequence number width (section 6.6.2).
    static constexpr uint32_t SEQUENCE_BITS = 9;
    /// Most unacknowledged payload flits (section 6.6).
    static constexpr uint32_t MAX_UNACKED_FLITS = 255;

    /**
     * \brief Configure a retry engine as this DL's replay.
     * \param engine the engine of one port
     * \param phy the port's PHY (its codeword slot is the flit time)
     * \param dlFlitsPerUnit DL flits per retry unit (1: one unit per DL flit, the fine mode)
     */
    void Configure(Ptr<FabricRetryEngine> engine,
                   Ptr<const UalinkPhy> phy,
                   uint32_t dlFlitsPerUnit = 1) const;

    /// DL link states (section 6.7.1).
    enum LinkState
    {
        FAULT, //!< the RS reports a fault (reset state); link down
        IDLE,  //!< sends Idle; link down
        NOP,   //!< sends NOP flits only; link down
        UP,    //!< link up: NOP or payload flits
    };

    /**
     * \param s a state
     * \return its name (Fault, Idle, NOP, Up)
     */
    static std::string GetStateName(LinkState s);

    /// TL rate code of the full UPLI clock, 1562.5 MHz in 50 kHz units (section 6.4.2.2).
    static constexpr uint32_t FULL_TL_RATE = 31250;
    /// TL rate code of the 156.25 MHz reference clock, the least a port supports (6.4.2.2).
    static constexpr uint32_t MIN_TL_RATE = 3125;
    /// Hz per unit of a TL rate code (section 6.4.2.2).
    static constexpr double TL_RATE_UNIT_HZ = 50e3;

    /// Counters of the link state machine.
    struct Stats
    {
        uint64_t ups{0};               //!< entries into Up
        uint64_t ackTimeouts{0};       //!< Up to Idle on the Tx ack timeout (6.6.6.8)
        uint64_t peerIdles{0};         //!< Up to Idle on 4 consecutive control flits received
        uint64_t containments{0};      //!< Up to Idle on an error-containment event (6.7.4)
        uint64_t faults{0};            //!< entries into Fault
        uint64_t rateNotifications{0}; //!< TL Rate Notifications received
        uint64_t reinits{0};           //!< re-initialisations on entering NOP after a link down
        uint64_t replayDiscarded{0};   //!< replay buffer units discarded by them
    };

    /**
     * \brief Make this DL the one of a port: it owns the port's link state from now on. With
     * StartUp the port starts Up (trained before time 0); otherwise in Fault, and the bring-up
     * starts at once (the RS reports no fault).
     * \param dev the port (the DL is aggregated to it)
     * \param phy the port's PHY
     */
    void Attach(Ptr<FabricNetDevice> dev, Ptr<const UalinkPhy> phy);

    /// \return the link state
    LinkState GetLinkState() const
    {
        return m_state;
    }

    /// \return whether the link is up (state Up)
    bool IsUp() const
    {
        return m_state == UP;
    }

    /**
     * \brief The RS's link fault signalling at this port (section 6.7.1.1, 7.2.6).
     * \param fault true: a local fault (this side enters Fault, the partner receives remote
     * faults); false: the fault cleared (Fault to Idle, then NOP with AutoEnable)
     */
    void SetRsFault(bool fault);

    /// \brief A higher layer enables the link: Idle to NOP (section 6.7.1.2).
    void Enable();

    /// \brief An error-containment event (section 6.7.4): Up to Idle.
    void ContainError();

    /// \brief The Tx ack timeout expired (section 6.6.6.8): Up to Idle (the retry engine's hook).
    void AckTimeout();

    /**
     * \brief This side's UPLI clock changes: announce it in a TL Rate Notification (sections
     * 6.4.2.2, 6.5.4) and pace this side's own TL to it at once (6.5.4 step 4a).
     * \param code the rate in 50 kHz units (3125 to 31250)
     */
    void SetTlRate(uint32_t code);

    /// \return the partner's TL rate code as last notified
    uint32_t GetPeerTlRate() const
    {
        return m_peerTlRate;
    }

    /**
     * \return the Tx pacing rate in TL bytes per second: the lower of the two TL rates times the
     * DL width (lanes x 16 B per clock); 0 when it does not bind (both at the full rate)
     */
    double GetTxPacingBytesPerSecond() const;

    /// \return when the link last entered Up (-1 s if never)
    Time GetUpSince() const
    {
        return m_upSince;
    }

    /// \return the counters
    const Stats& GetStats() const
    {
        return m_stats;
    }

    /**
     * TracedCallback signature for link state changes.
     * \param from the old state
     * \param to the new state
     */
    typedef void (*LinkStateTracedCallback)(LinkState from, LinkState to);

  protected:
    void DoDispose() override;

  private:
    /**
     * \brief Change state, drive the port's device and queue, report the change.
     * \param to the new state
     */
    void SetState(LinkState to);

    /// \brief Enter NOP: start sending NOP flits and look for the partner's.
    void EnterNop();

    /**
     * \brief The link left Up and is being brought up again: reset the replay state machine
     * (section 6.6.4, 6.6.5: every flag and counter to its default; the replay buffer's flits
     * belong to the link that went down) and have the TL re-initialise the link's credits and
     * address cache (UalinkTxQueue::ReinitLink).
     */
    void Reinitialise();

    /// \brief Up once both NOP conditions hold.
    void TryUp();

    /**
     * \param from a time
     * \param k a count of DL flits
     * \return when the k-th DL flit sent from the first slot boundary at or after `from` has
     * left (its codeword slot ended), skipping the slots that carry no DL flit
     */
    Time FlitsSentBy(Time from, uint32_t k) const;

    /// \return when a control flit sent from now has been received `n` times by the partner
    Time ControlFlitsArrive(uint32_t n) const;

    /// \return the partner's DL, or null
    UalinkDl* GetPeer() const;

    /// \return the port's TL queue, or null
    UalinkTxQueue* GetQueue() const;

    /**
     * \brief The partner entered NOP: its RxFlitsToUp-th flit arrives here at `at`.
     * \param at when
     */
    void PeerNop(Time at);

    /// \brief ControlFlitsToIdle control flits from the partner have arrived (it left Up/NOP).
    void PeerControlFlits();

    /**
     * \brief Remote fault ordered sets from the partner have arrived (or stopped).
     * \param fault whether the partner reports a fault
     */
    void RemoteFault(bool fault);

    /**
     * \brief A TL Rate Notification from the partner arrived.
     * \param code its rate
     */
    void ReceiveTlRate(uint32_t code);

    /// \brief Apply the Tx pacing rate to the port's TL queue.
    void ApplyPacing();

    /// \brief The device's link changed under the DL (a cut or restored channel).
    void DeviceLinkChanged();

    uint32_t m_bufferFlits{MAX_UNACKED_FLITS}; //!< ReplayBufferFlits
    uint32_t m_ackTimeoutFlits{40000};         //!< AckTimeoutFlits
    uint32_t m_replayCopies{3};                //!< ReplayRequestCopies
    uint32_t m_ignoreFlits{12};                //!< ReplayIgnoreFlits
    uint32_t m_replayLimit{50};                //!< ReplayLimitFlits
    bool m_startUp{true};                      //!< StartUp
    bool m_autoEnable{true};                   //!< AutoEnable
    uint32_t m_nopFlitsToUp{10};               //!< NopFlitsToUp
    uint32_t m_rxFlitsToUp{2};                 //!< RxFlitsToUp
    uint32_t m_controlFlitsToIdle{4};          //!< ControlFlitsToIdle
    uint32_t m_tlRate{FULL_TL_RATE};           //!< TlRate: this side's
    uint32_t m_peerTlRate{FULL_TL_RATE};       //!< the partner's, as notified

    // Port state (Attach).
    FabricNetDevice* m_dev{nullptr}; //!< the port (the DL is aggregated to it: no reference)
    Ptr<const UalinkPhy> m_phy;      //!< its PHY
    LinkState m_state{UP};           //!< link state
    bool m_localFault{false};        //!< the RS reports a local fault here
    bool m_remoteFault{false};       //!< the partner reports a fault
    bool m_errorDown{false};         //!< left Up on an error: no AutoEnable
    bool m_driving{false};           //!< this DL is changing the device's link state
    bool m_leftUp{false};            //!< left Up since the last (re-)initialisation
    bool m_reinitUp{false};          //!< re-initialised: tell the TL when Up is entered
    Time m_upSince{Seconds(-1)};     //!< last entry into Up
    Time m_nopSince;                 //!< NOP: when it was entered
    Time m_nopSentBy;                //!< NOP: when NopFlitsToUp flits have been sent
    Time m_rxBy{Time::Max()};        //!< NOP: when RxFlitsToUp partner flits have arrived
    EventId m_upEvent;               //!< NOP: the TryUp check
    EventId m_peerEvent;             //!< an arrival from the partner under way
    Stats m_stats;                   //!< counters
    TracedCallback<LinkState, LinkState> m_stateTrace; //!< LinkState
};

} // namespace ns3

#endif /* UALINK_DL_H */
