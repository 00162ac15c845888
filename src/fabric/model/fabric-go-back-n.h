/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_GO_BACK_N_H
#define FABRIC_GO_BACK_N_H

#include "fabric-conn-map.h"
#include "fabric-packet.h"
#include "fabric-tx-gate.h"
#include "fabric-tx-queue.h"

#include "ns3/abort.h"
#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

#include <deque>
#include <utility>
#include <vector>

namespace ns3
{

class FabricNetDevice;

/**
 * \ingroup fabric
 * \brief End-to-end go-back-N transport of one endpoint port (DESIGN.md rule 2: written once here,
 * configured by the fabrics that use it, SUE first).
 *
 * A connection is {this port, peer accelerator}: each port numbers the units it sends to each
 * peer with its own packet sequence numbers (PSN), as SUE does per {output port, destination
 * XPU}. All units of a connection take one path (the flow hash is the connection's), so they
 * arrive in order unless one is lost.
 *
 * The transport is the port's transmit queue. It wraps the endpoint's message queue and serves,
 * at each unit boundary: standalone ACK/NACK frames, then retransmissions, then new data from the
 * message queue, which it admits only while the connection's window has room (at most Window
 * unacknowledged units) and while the connection is not retransmitting.
 *
 * Receiver: a unit with the expected PSN is accepted and handed to the endpoint; any other is
 * discarded (a duplicate, or a unit after a gap). The first unit after a gap triggers one NACK
 * naming the expected PSN; if the sender's retransmission of that unit is lost too, the receiver
 * sees the retransmitted stream rewind (a PSN no larger than the last one it discarded) and NACKs
 * again. Accepted units are acknowledged cumulatively, piggybacked on any data unit the port
 * sends to the peer, or in a standalone ACK frame after AckInterval units or AckDelay, whichever
 * comes first. A duplicate is answered with an ACK (its ACK was lost or late).
 *
 * Sender: an ACK frees every unit below its PSN; a NACK also goes back: every unit from the
 * NACKed PSN on is sent again, in order. A connection with unacknowledged units that sees no
 * progress for RetransmitTimeout goes back to its oldest unit (the timeout doubles at each
 * consecutive expiry, up to MaxBackoff doublings); after MaxRetries consecutive expiries the
 * connection is declared failed (counted in Stats::failed): no new data goes to that peer on
 * this port, and its units go to the failed callback (or are released, Stats::failedBytes).
 *
 * A message completes when every unit of it has been acknowledged (the endpoint counts acked
 * bytes through the acked callback).
 */
class FabricGoBackN : public FabricTxQueue
{
  public:
    /// Endpoint congestion control (SUE RM102 section 2.1 asks for one at the endpoints).
    enum CongestionControl
    {
        NONE,  //!< the window is fixed at Window
        DELAY, //!< delay-based window: additive increase below TargetDelay, multiplicative
               //!< decrease above it, at most once per round trip
    };

    /// Counters.
    struct Stats
    {
        uint64_t sentUnits{0};          //!< new data units sent (first transmissions)
        uint64_t retransmittedUnits{0}; //!< data units sent again
        uint64_t retransmittedBytes{0}; //!< payload bytes sent again
        uint64_t goBacks{0};            //!< go-back episodes (NACK or timeout)
        uint64_t timeouts{0};           //!< go-backs started by the retransmission timer
        uint64_t acksSent{0};           //!< standalone ACK frames sent
        uint64_t nacksSent{0};          //!< NACKs sent (standalone or piggybacked)
        uint64_t piggybackedAcks{0};    //!< ACKs or NACKs carried by data units
        uint64_t acksReceived{0};       //!< ACKs received (standalone or piggybacked)
        uint64_t nacksReceived{0};      //!< NACKs received
        uint64_t acceptedUnits{0};      //!< units accepted in sequence
        uint64_t outOfSequence{0};      //!< units after a gap, discarded
        uint64_t duplicates{0};         //!< units already accepted, discarded
        uint64_t discardedBytes{0};     //!< payload bytes of discarded units
        uint64_t failed{0};             //!< connections given up after MaxRetries timeouts
        uint64_t failedBytes{0};        //!< payload bytes released unacknowledged by failures
        uint64_t rttSamples{0};         //!< round-trip samples taken (DELAY)
        uint64_t decreases{0};          //!< window decreases (DELAY)
        Time rttSum;                    //!< sum of the samples (their mean is rttSum/rttSamples)
    };

    /// Callback: a unit sent by this port has been acknowledged.
    typedef Callback<void, const Ptr<FabricPacket>&> AckedCallback;

    /// Callback: the connection to a peer failed; its unacknowledged units, oldest first.
    typedef Callback<void, uint32_t, const std::vector<Ptr<FabricPacket>>&> FailedCallback;

    /**
     * TracedCallback signature for go-backs.
     * \param peer the peer accelerator
     * \param psn the first PSN sent again
     * \param timeout true if the retransmission timer started it
     */
    typedef void (*GoBackTracedCallback)(uint32_t peer, uint64_t psn, bool timeout);

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    FabricGoBackN();
    ~FabricGoBackN() override;

    /**
     * \brief Set the queue new data comes from (the endpoint's message queue).
     * \param q the queue
     */
    void SetInnerQueue(Ptr<FabricTxQueue> q);

    /**
     * \brief Bind to the port this transport sends on (woken when the window opens).
     * \param device the port (not owned)
     */
    void SetDevice(FabricNetDevice* device);

    /// \param id the accelerator id of this endpoint (source of ACK frames)
    void SetLocalId(uint32_t id)
    {
        m_localId = id;
    }

    /**
     * \brief The flow hash of a connection: every unit a transport of accelerator \p local
     * sends to \p peer (data, ACK, NACK) carries it, so a connection takes one path. Public for
     * the flow engine's plans (FabricEndpoint::PlanFlow), which must name the same hash.
     * \param local the sending accelerator
     * \param peer the peer accelerator
     * \return the hash
     */
    static uint32_t ConnectionHash(uint32_t local, uint32_t peer);

    /// \param cb called once for each data unit when it is acknowledged
    void SetAckedCallback(AckedCallback cb);

    /**
     * \param cb called when a connection fails (MaxRetries timeouts): the owner may send the
     *        units it is given another way (SUE moves them to another port in unordered mode).
     *        Without it they are released and counted in Stats::failedBytes.
     */
    void SetFailedCallback(FailedCallback cb);

    /**
     * \brief The port's link is gone: give up every connection at once.
     * \return every unacknowledged unit, connection by connection, oldest first
     */
    std::vector<Ptr<FabricPacket>> TakeAll();

    /**
     * \param peer a peer accelerator
     * \return true if the connection to it failed (no new data is sent to it on this port)
     */
    bool IsFailed(uint32_t peer) const;

    /**
     * \brief A unit arrived at this port for this endpoint.
     * \param p the unit (data or TRANSPORT_ACK)
     * \return true if it is a data unit accepted in sequence (deliver it); false if the
     *         transport consumed or discarded it
     */
    bool Receive(const Ptr<FabricPacket>& p);

    /**
     * \brief Test hook: overwrite the next PSN the receiver expects from a peer (the invariant
     * tests regress it on purpose to see the check catch the duplicate it lets through).
     * \param peer the peer's accelerator id
     * \param tclass the connection's class
     * \param psn the PSN
     */
    void ForceExpectedPsn(uint32_t peer, uint8_t tclass, uint64_t psn);

    /// \return the counters
    const Stats& GetStats() const
    {
        return m_stats;
    }

    /// \return data units sent and not yet acknowledged, over all connections
    uint64_t GetUnackedUnits() const
    {
        return m_unacked;
    }

  protected:
    void DoDispose() override;

  private:
    /// Sender state of one connection: one cache line (the window check, a send and an ACK
    /// touch only this line; the DELAY state is apart, in m_delay).
    struct alignas(64) TxConn
    {
        uint32_t units{0};      //!< unacknowledged units
        uint16_t timeouts{0};   //!< consecutive timer expiries
        bool active{false};     //!< listed in m_active (has unacknowledged units)
        bool listed{false};     //!< listed in m_retxList
        bool dead{false};       //!< failed: no new data to this peer
        uint64_t nextPsn{0};    //!< PSN of the next new unit
        Ptr<FabricPacket> retx; //!< next unit to send again, or null
        Ptr<FabricPacket> tail; //!< newest unacknowledged unit
        Ptr<FabricPacket> head; //!< oldest unacknowledged unit (list through unackedNext)
        Time lastProgress;      //!< last ACK progress, go-back or first send
    };

    /// DELAY congestion-control state of one connection (kept only with DELAY).
    struct DelayState
    {
        double cwnd{0};    //!< congestion window (units; 0 until first used)
        Time lastDecrease; //!< time of the last decrease
    };

    /// Receiver state of one connection: half a cache line (the invariant check's next PSN
    /// is apart, in m_checkNext).
    struct alignas(32) RxConn
    {
        uint64_t expected{0};   //!< next PSN to accept
        uint32_t ackPending{0}; //!< units accepted since the last ACK
        uint8_t tclass{0};      //!< class of the peer's data (ACK frames use it)
        bool nackSent{false};   //!< a NACK for expected was sent
        bool nackQueued{false}; //!< the next ACK is a NACK
        bool ackQueued{false};  //!< listed in m_ackQueue
        bool timerArmed{false}; //!< listed in m_ackDue
        uint64_t nackMark{0};   //!< largest PSN discarded since the last NACK
    };

    /// Admits new data while its connection's window is open, then asks the port's gate.
    class WindowGate : public FabricTxGate
    {
      public:
        /// \param owner the transport
        explicit WindowGate(const FabricGoBackN* owner)
            : m_owner(owner)
        {
        }

        bool CanSend(uint8_t tclass, uint32_t bytes, uint32_t dst) const override;

        const FabricGoBackN* m_owner;         //!< the transport
        const FabricTxGate* m_outer{nullptr}; //!< the port's flow control, or null
    };

    bool DoIsEmpty() const override;
    Ptr<FabricPacket> DoDequeue(const FabricTxGate* gate) override;

    /**
     * \param peer a peer accelerator
     * \return the flow hash of the connection to it (one path per connection)
     */
    uint32_t ConnectionHash(uint32_t peer) const
    {
        return ConnectionHash(m_localId, peer);
    }

    /**
     * \param peer the peer
     * \param tclass the traffic class
     * \return the connection's key: the peer, with the class in the top 8 bits when
     *         PerClassConnections is set
     */
    uint32_t ConnKey(uint32_t peer, uint8_t tclass) const
    {
        if (peer > PEER_MASK)
        {
            PeerOutOfRange(peer); // out of line: ConnKey stays small enough to inline
        }
        return m_perClass ? (static_cast<uint32_t>(tclass) << 24) | peer : peer;
    }

    /**
     * \brief Abort: a peer id does not fit a connection key.
     * \param peer the peer id
     */
    [[noreturn]] static void PeerOutOfRange(uint32_t peer);

    /// \return true: the window (and the inner queue's own gate) hold units back
    bool HasOwnGate() const override
    {
        return true;
    }

    static constexpr uint32_t PEER_MASK = 0xFFFFFF; //!< peer bits of a connection key
    /**
     * \brief Put the receiver's cumulative ACK (or NACK) for \p peer on a unit going to it.
     * \param p the unit
     * \param r the receiver state
     */
    void FillAck(const Ptr<FabricPacket>& p, RxConn& r);
    /**
     * \brief Ask for a standalone ACK frame to \p peer.
     * \param peer the peer
     * \param r its receiver state
     */
    void QueueAck(uint32_t peer, RxConn& r);
    /**
     * \brief Process a cumulative ACK or a NACK from \p peer.
     * \param peer the peer
     * \param psn the next PSN it expects
     * \param nack true for a NACK (go back to psn)
     */
    void ProcessAck(uint32_t peer, uint64_t psn, bool nack);
    /**
     * \brief Go back: send again every unacknowledged unit of a connection, oldest first.
     * \param peer the peer
     * \param c its sender state
     * \param timeout true if started by the timer
     */
    void GoBack(uint32_t peer, TxConn& c, bool timeout);
    /**
     * \brief Set a connection's retransmission cursor, keeping the count of retransmitting
     * connections and the service list.
     * \param peer the peer
     * \param c its sender state
     * \param u the next unit to send again, or null
     */
    void SetRetx(uint32_t peer, TxConn& c, Ptr<FabricPacket> u);
    /// \brief The ACK coalescing timer expired.
    void AckTimer();
    /// \brief The retransmission timer expired.
    void RetransmitTimer();
    /// \brief Let the port transmit.
    void Wake();
    /**
     * \brief Unlink every unacknowledged unit of a connection and mark it failed.
     * \param peer the peer
     * \param c its sender state
     * \param out the units are appended here, oldest first
     */
    void Release(uint32_t peer, TxConn& c, std::vector<Ptr<FabricPacket>>& out);
    /**
     * \brief DELAY: adjust a connection's window to a round-trip sample.
     * \param c the connection
     * \param rtt the sample
     * \param acked units the ACK freed
     */
    void OnRttSample(DelayState& c, Time rtt, uint32_t acked);
    /**
     * \param key a connection key
     * \return its window now (units)
     */
    double WindowOf(uint32_t key) const;

    // Attributes.
    uint32_t m_window{128};       //!< most unacknowledged units per connection
    uint32_t m_ackInterval{8};    //!< units per standalone ACK
    Time m_ackDelay;              //!< longest ACK coalescing delay
    Time m_rto;                   //!< retransmission timeout
    uint32_t m_maxBackoff{6};     //!< most doublings of the timeout
    uint32_t m_maxRetries{16};    //!< consecutive timeouts before a connection fails
    uint32_t m_ackBytes{64};      //!< standalone ACK frame bytes
    int32_t m_ackClass{-1};       //!< class of standalone ACKs (-1: the data's)
    bool m_perClass{false};       //!< PerClassConnections
    CongestionControl m_cc{NONE}; //!< CongestionControl
    Time m_targetDelay;           //!< DELAY: target round trip
    double m_ai{1.0};             //!< DELAY: additive increase (units per round trip)
    double m_beta{0.8};           //!< DELAY: decrease gain
    double m_maxMdf{0.5};         //!< DELAY: largest decrease per round trip (fraction)
    double m_minWindow{1.0};      //!< DELAY: smallest window (units)

    Ptr<FabricTxQueue> m_inner;         //!< new data
    FabricNetDevice* m_device{nullptr}; //!< the port
    uint32_t m_localId{0};              //!< this endpoint's accelerator id
    AckedCallback m_ackedCb;            //!< unit acknowledged
    FailedCallback m_failedCb;          //!< connection failed
    WindowGate m_gate;                  //!< window gate handed to the inner queue

    FabricConnMap<TxConn> m_tx;          //!< sender state per connection key
    FabricConnMap<RxConn> m_rx;          //!< receiver state per connection key
    FabricConnMap<DelayState> m_delay;   //!< DELAY state per connection key
    FabricConnMap<uint64_t> m_checkNext; //!< check mode: next PSN to go upward
    std::deque<uint32_t> m_ackQueue;     //!< peers owed a standalone ACK (may be stale)
    uint32_t m_acksDue{0};               //!< peers with ackQueued set
    std::deque<uint32_t> m_retxList;     //!< peers with units to send again
    uint32_t m_retxDue{0};               //!< connections with a retransmission cursor

    /// A coalescing deadline: when, the connection key, and its receiver record (records do
    /// not move, so the timer need not look it up).
    struct AckDue
    {
        Time at;      //!< deadline
        uint32_t key; //!< connection key
        RxConn* r;    //!< its receiver record
    };

    std::deque<AckDue> m_ackDue;    //!< coalescing deadlines, in time order
    EventId m_ackEvent;             //!< ACK coalescing timer
    std::vector<uint32_t> m_active; //!< peers with unacknowledged units
    EventId m_rtoEvent;             //!< retransmission timer
    uint64_t m_unacked{0};          //!< unacknowledged units, all connections

    Stats m_stats;                                          //!< counters
    TracedCallback<uint32_t, uint64_t, bool> m_goBackTrace; //!< go-back started
};

} // namespace ns3

#endif /* FABRIC_GO_BACK_N_H */
