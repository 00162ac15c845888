/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_RETRY_ENGINE_H
#define FABRIC_RETRY_ENGINE_H

#include "fabric-packet.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <deque>
#include <vector>

namespace ns3
{

class FabricNetDevice;

/**
 * \ingroup fabric
 * \brief Link-level retry (LLR): one engine per port, on both ends of a link, that recovers units
 * the channel corrupts without loss, duplication or reordering.
 *
 * The sender numbers each new data unit and keeps it in a replay buffer; the receiver accepts
 * units strictly in sequence and discards the rest (go-back-N on the link). Two signalling
 * variants share the engine (DESIGN.md rule 2):
 *
 * - **AckNak** (Ethernet LLR, UALink DL replay): the receiver returns cumulative ACKs (every
 *   AckInterval units or after AckDelay) that free the buffer, and a NAK (replay request) naming
 *   the first missing unit when it sees a corrupted unit or a gap. The sender replays from that
 *   unit. A replay timer replays the whole buffer when ACKs stop (lost ACK or NAK). The window
 *   bounds the buffer; new data waits while it is full.
 * - **NakOnly** (the RIFL paper, section II.A and Figure 1): no ACKs. A unit stays in the buffer
 *   until it has been in it for the Retention time outside error recovery: its clock stops
 *   while new data is paused and, after a corrupted frame (which may have been the peer's
 *   NAK), until the peer's repeat of that NAK can have arrived (RIFL's buffer is overwritten
 *   only by new frames, and both ends stop new frames while an error is recovered). On a
 *   corrupted frame the receiver stops its own new data for NakPause round trips (2.5 in the
 *   paper) and sends a NAK, on every corrupted frame (RIFL sends its requests continuously),
 *   and repeats it every NakRepeat until the replay arrives. The sender answers a NAK with a
 *   retransmission cycle (Figure 1, t3 to t5): it replays from the unit asked for and stops
 *   new data for NakPause round trips; if a NAK that arrives during the cycle asks for a unit
 *   the cycle's replay has not delivered, another cycle starts when this one ends. A NAK for a
 *   unit no longer buffered cannot be answered: the second one for the same unit stops the
 *   run with that cause (Retention or Window too small for the link).
 *
 * Sequence numbers are counted in 64 bits; SequenceBits is the width on the wire and bounds the
 * window to half the sequence space so that numbers never become ambiguous.
 *
 * A corrupted frame cannot be told apart from corrupted data, so the receiver NAKs it; when the
 * sender has sent nothing from the unit asked for (the frame was an ACK, a NAK, a pause or a
 * credit frame), it answers with a SYNC naming its next sequence number, which ends the NAK.
 *
 * Control frames (ACK, NAK, SYNC) are transmitted by the device ahead of data; they cost wire time
 * (ControlFrameBytes, 0 when they ride in a data unit's header, as UALink's DL flit headers carry
 * them) and take the link delay.
 *
 * UALink's DL replay (UALink_200 section 6.6) is the AckNak variant with three more settings:
 * each replay request is sent NakCopies times, NakCopyInterval apart (3 copies, one per FEC
 * codeword group); the sender acts on the first and ignores requests for the same unit for
 * NakIgnoreWindow (12 flit times); and when no ACK has made progress for ReplayTimeout (the
 * 40,000-flit ack timeout) the link goes down instead of replaying (TimeoutAction LinkDown).
 * Replayed units bypass flow control: their credits were taken when they were first sent, and the
 * receiver counts only units it accepts.
 */
class FabricRetryEngine : public Object
{
  public:
    /// Signalling variants.
    enum Mode
    {
        ACK_NAK,  //!< cumulative ACK plus NAK / replay request
        NAK_ONLY, //!< NAK only, both directions pause while replaying (RIFL)
    };

    /// What the sender does when ACKs stop making progress for ReplayTimeout (AckNak).
    enum TimeoutAction
    {
        REPLAY,    //!< replay the whole buffer and restart the timer
        LINK_DOWN, //!< take the link down (UALink's Tx ack timeout, section 6.6.5.8)
    };

    /// Counters.
    struct Stats
    {
        uint64_t replays{0};       //!< replay episodes started (NAK or timeout)
        uint64_t replayedUnits{0}; //!< units retransmitted
        uint64_t timeouts{0};      //!< replays started by the replay timer
        uint64_t naksSent{0};      //!< NAK frames sent (repeats included)
        uint64_t naksReceived{0};  //!< NAK frames received
        uint64_t acksSent{0};      //!< ACK frames sent
        uint64_t acksReceived{0};  //!< ACK frames received
        uint64_t syncsSent{0};     //!< SYNC frames sent (NAKs for units never sent)
        uint64_t syncsReceived{0}; //!< SYNC frames received
        uint64_t corrupted{0};     //!< corrupted units discarded
        uint64_t outOfSequence{0}; //!< intact units after a gap, discarded
        uint64_t duplicates{0};    //!< intact units already accepted, discarded
        uint64_t naksIgnored{0};   //!< NAKs for a replay already started, ignored
        uint64_t linkDowns{0};     //!< links taken down by the ack timeout (LinkDown action)
        Time windowStallTime;      //!< time new data waited for the window or a NAK pause
        uint64_t nakPauses{0};     //!< NakOnly pause episodes (a pause extended counts once)
        Time nakPauseTime;         //!< NakOnly: total time new data was stopped by pauses
        uint64_t cycles{0};        //!< NakOnly retransmission cycles (each one replays)
        uint64_t expired{0};       //!< NakOnly units that left the buffer by Retention
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    FabricRetryEngine();
    ~FabricRetryEngine() override;

    /**
     * \brief Bind to a port (called by FabricNetDevice::SetRetryEngine).
     * \param device the port (not owned)
     */
    void SetDevice(FabricNetDevice* device);

    /// \return the next unit to replay (a copy), or nullptr
    Ptr<FabricPacket> NextReplay();

    /// \return true if a replay is in progress with units left to send
    bool HasReplay() const;

    /// \return true if a new data unit may be sent (window open, no NAK pause)
    bool CanSendNew();

    /**
     * \brief A new data unit starts transmission: number it and keep it for replay.
     * \param p the unit
     */
    void NotifySentNew(const Ptr<FabricPacket>& p);

    /**
     * \brief A unit arrived intact: accept it if it is the next in sequence.
     * \param p the unit
     * \return true if it is delivered to the owner
     */
    bool AcceptData(const Ptr<FabricPacket>& p);

    /**
     * \brief A unit arrived corrupted (discarded by the device).
     * \param p the unit
     */
    void NotifyCorrupted(const Ptr<FabricPacket>& p);

    /**
     * \brief Test hook: overwrite the receiver's next expected sequence number (the invariant
     * tests regress it on purpose to see the check catch the duplicate it lets through).
     * \param seq the sequence number
     */
    void ForceExpectedSequence(uint64_t seq);

    /**
     * \brief The port's link came back up (FabricNetDevice::SetLinkUp): replay what is still
     * unacknowledged (its timer stopped with the link) and repeat an outstanding NAK.
     */
    void NotifyLinkUp();

    /**
     * \brief Return the engine to its reset state (a link re-initialised after a link-down
     * error, UALink section 6.6.4 and 6.6.5: every flag and counter back to its default): the
     * replay buffer's units are discarded, both sequence numbers restart, pending acks, replay
     * requests and timers are cancelled. The counters (GetStats) are kept.
     * \return the units discarded from the replay buffer
     */
    uint64_t Reset();

    /**
     * \brief Who takes the link down when the ack timeout expires (TimeoutAction LinkDown). By
     * default the engine takes the channel down at both ends; UALink's DL takes only its own
     * side from Up to Idle (section 6.6.6.8), the partner follows through its link state machine.
     * \param cb called instead of taking the channel down (null: the default)
     */
    void SetLinkDownHandler(Callback<void> cb)
    {
        m_linkDownHandler = cb;
    }

    /**
     * \brief An ACK, NAK or SYNC arrived from the peer.
     * \param p the frame
     */
    void ReceiveControl(const Ptr<FabricPacket>& p);

    /// \return the counters
    const Stats& GetStats() const
    {
        return m_stats;
    }

    /// \return the sequence number the next new unit takes (sender)
    uint64_t GetNextSequence() const
    {
        return m_nextSeq;
    }

    /// \return the sequence number the receiver accepts next
    uint64_t GetExpectedSequence() const
    {
        return m_expected;
    }

    /// \return units in the replay buffer
    uint64_t GetBufferedUnits() const
    {
        return m_buf.size();
    }

    /// \return the signalling mode
    Mode GetMode() const
    {
        return m_mode;
    }

    /**
     * \return the replay buffer capacity in units: the Window attribute, or when it is 0 the
     * automatic one: NakOnly: the units a saturated link puts on the wire during the
     * Retention time, plus one (the bandwidth-delay product over the retention, so the window
     * never holds back a saturated link), counted in the smallest unit sent so far (the MTU
     * before the first); AckNak: 512, or the MTU-sized units sent during one ReplayTimeout
     * when more.
     * Never more than half the sequence space.
     */
    uint32_t GetWindow() const;

    /// \return the effective NakOnly retention time (the Retention attribute, or its default)
    Time GetRetention() const;

    /// \return the effective NAK repeat interval (the NakRepeat attribute, or its default)
    Time GetNakRepeat() const;

    /**
     * \return the link round trip the automatic timers are derived from: twice the one-way
     * delay, plus one control frame on the wire, plus the time the peer takes to act on an
     * MTU-sized unit after its head arrives: the unit's wire time, or the peer's receive offset
     * when longer (FabricNetDevice::GetReceiveOffset: a switch port acts on a unit after its
     * forwarding pipeline, and its ACK or NAK leaves from there)
     */
    Time GetRoundTripEstimate() const;

    /**
     * TracedCallback signature for replays.
     * \param firstSeq the first sequence number replayed
     * \param units units in the replay buffer from it
     */
    typedef void (*ReplayTracedCallback)(uint64_t firstSeq, uint64_t units);

    /**
     * TracedCallback signature for NakOnly pauses.
     * \param from when new data stops (now, or the end of the pause being extended)
     * \param until when it may resume
     */
    typedef void (*NakPauseTracedCallback)(Time from, Time until);

    /**
     * TracedCallback signature for a replay request (NAK) sent, copies included.
     * \param seq the first unit asked for
     * \param copy the copy index (0 for the first)
     */
    typedef void (*NakTracedCallback)(uint64_t seq, uint32_t copy);

  protected:
    void DoDispose() override;

  private:
    /// One unit in the replay buffer.
    struct Entry
    {
        uint64_t seq;         //!< its sequence number on this link
        uint32_t poolCredits; //!< flow-control pool credits it took when first sent
        Time sent;            //!< when it was (last) sent
        Ptr<FabricPacket> p;  //!< the unit (read-only here: the next hop owns it)
        Time heldAtSent;      //!< NakOnly: HeldSoFar() when it was (last) sent
    };

    static constexpr std::size_t NONE = ~std::size_t(0); //!< no replay in progress

    /// \brief Free the buffer up to (not including) sequence number \p next.
    /// \param next the first unit still needed
    void Acknowledge(uint64_t next);
    /// \brief Replay from the first buffered unit.
    void StartReplay();
    /// \brief Receiver: ask for a replay of the first missing unit (NAK), unless asked recently.
    void RequestReplay();
    /// \brief Receiver: send a NAK for the first missing unit.
    void SendNak();
    /// \brief Receiver: send one more copy of the last NAK.
    /// \param seq the unit it asks for
    /// \param copy the copy index
    void SendNakCopy(uint64_t seq, uint32_t copy);
    /// \return the window in which repeated NAKs for a replayed unit are ignored
    Time GetNakIgnoreWindow() const;
    /// \brief Receiver: send a cumulative ACK.
    void SendAck();
    /// \brief The replay timer expired (AckNak mode).
    void ReplayTimeout();
    /// \brief The NAK repeat timer expired.
    void NakRepeat();
    /// \brief Stop new data until \p until (NakOnly pause).
    /// \param until end of the pause
    void PauseNewData(Time until);
    /// \brief Drop NakOnly units that have spent the retention time in the buffer unpaused.
    void Expire();
    /// \brief NakOnly: stop the retention clock until \p until (a pause, or a corrupted frame
    /// that may have been the peer's NAK).
    /// \param until end of the hold
    void HoldClock(Time until);
    /// \return the time the retention clock has been held from the start up to now
    Time HeldSoFar() const;
    /// \param e a buffered unit
    /// \return the time it has spent in the buffer since it was (last) sent, holds left out
    Time UnheldAge(const Entry& e) const;
    /// \return how long a corrupted frame holds the retention clock: until the peer's repeat
    /// of a NAK it may have been has arrived
    Time GetCorruptionHold() const;
    /// \return the wire time of an MTU-sized unit of this port or its peer, the longer
    Time GetUnitTimeBothEnds() const;
    /// \return the wire time of a control frame
    Time GetControlFrameTime() const;
    /// \brief Answer the peer's NAK for unit \p k (after Acknowledge): a SYNC when nothing was
    /// sent from k on, else a replay (AckNak) or a retransmission cycle (NakOnly).
    /// \param k the unit asked for
    void AnswerNak(uint64_t k);
    /// \brief NakOnly: a NAK asks for unit \p k, the oldest buffered: replay it now in a new
    /// retransmission cycle, or after the cycle in progress.
    /// \param k the unit asked for
    void NakOnlyRequest(uint64_t k);
    /// \brief NakOnly: replay from the oldest buffered unit and stop new data for NakPause
    /// round trips (one retransmission cycle, RIFL paper Figure 1, t3 to t5).
    void StartCycle();
    /// \brief NakOnly: the retransmission cycle ends: start another if a NAK asked for it.
    void CycleEnd();
    /// \brief NakOnly: the peer's NAK asks for unit \p k, which left the buffer.
    /// \param k the unit asked for
    void NakForLostUnit(uint64_t k);
    /// \brief Let the device transmit.
    void Wake();
    /// \return the effective replay timeout
    Time GetReplayTimeout() const;
    /// \return the wire time of an MTU-sized unit on the port's link (1 us without a link)
    Time GetUnitTime() const;

    FabricNetDevice* m_device{nullptr};    //!< the port
    Mode m_mode{ACK_NAK};                  //!< signalling
    uint32_t m_window{512};                //!< replay buffer capacity (units; 0: automatic)
    mutable uint32_t m_autoWindow{0};      //!< the automatic window, once computed (0: not yet)
    uint32_t m_minUnitBytes{0};            //!< automatic window: smallest unit sent (0: none)
    uint32_t m_seqBits{16};                //!< sequence number width
    uint32_t m_ackInterval{16};            //!< units per ACK
    Time m_ackDelay;                       //!< longest ACK coalescing delay
    Time m_replayTimeout;                  //!< replay timer (0: automatic)
    Time m_nakRepeat;                      //!< NAK repeat interval (0: automatic)
    double m_nakPauseRtts{2.5};            //!< NakOnly pause in round trips
    Time m_retention;                      //!< NakOnly retention (0: automatic)
    uint32_t m_ctrlBytes{64};              //!< ACK/NAK frame bytes
    uint32_t m_nakCopies{1};               //!< copies of each replay request
    Time m_nakCopyInterval;                //!< time between the copies
    Time m_nakIgnore;                      //!< ignore window for repeated NAKs (0: automatic)
    TimeoutAction m_timeoutAction{REPLAY}; //!< what the ack timeout does

    // Sender.
    std::deque<Entry> m_buf;       //!< replay buffer, oldest first
    uint64_t m_nextSeq{0};         //!< next sequence number to assign
    std::size_t m_replayPos{NONE}; //!< next buffer index to replay
    EventId m_replayTimer;         //!< AckNak replay timer
    Time m_pausedUntil;            //!< no new data before this time
    EventId m_wakeEvent;           //!< wakes the device when a pause or retention ends
    bool m_replayStarted{false};   //!< a replay was ever started
    uint64_t m_lastReplaySeq{0};   //!< first unit of the last replay
    Time m_lastReplayTime;         //!< when the last replay started
    Time m_replayAnsweredUntil;    //!< NakOnly: NAKs for the last replay's unit until then are
                                   //!< answered by it (sent before it reached the peer)
    bool m_windowStalled{false};   //!< new data is waiting for the window
    Time m_windowStallSince;       //!< since when
    Time m_cycleEnd;               //!< NakOnly: end of the retransmission cycle in progress
    bool m_cyclePending{false};    //!< NakOnly: a NAK asks for another cycle after this one
    EventId m_cycleEvent;          //!< NakOnly: the cycle's end
    Time m_heldUntil;              //!< NakOnly: the retention clock is held until then
    Time m_heldTotal;              //!< NakOnly: held time so far, the part to come included
    bool m_lostAsked{false};       //!< NakOnly: a NAK asked for a unit no longer buffered
    uint64_t m_lostSeq{0};         //!< NakOnly: that unit

    // Receiver.
    uint64_t m_expected{0};               //!< next sequence number to accept
    uint64_t m_checkNext{0};              //!< check mode: next sequence to go upward
    bool m_nakOutstanding{false};         //!< a NAK for m_expected was sent and not yet answered
    Time m_nakTime;                       //!< when the last NAK was sent
    uint32_t m_ackPending{0};             //!< units accepted since the last ACK
    EventId m_ackEvent;                   //!< delayed ACK
    EventId m_nakRepeatEvent;             //!< NAK repetition
    std::vector<EventId> m_nakCopyEvents; //!< pending NAK copies

    Stats m_stats;                                    //!< counters
    TracedCallback<uint64_t, uint64_t> m_replayTrace; //!< replay started
    TracedCallback<Time, Time> m_nakPauseTrace;       //!< NakOnly pause set or extended
    TracedCallback<uint64_t, uint32_t> m_nakTrace;    //!< replay request sent
    TracedCallback<> m_linkDownTrace;                 //!< the ack timeout took the link down
    Callback<void> m_linkDownHandler;                 //!< SetLinkDownHandler
};

} // namespace ns3

#endif /* FABRIC_RETRY_ENGINE_H */
