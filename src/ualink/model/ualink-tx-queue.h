/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UALINK_TX_QUEUE_H
#define UALINK_TX_QUEUE_H

#include "ualink-tl-op.h"
#include "ualink-tl-packer.h"

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/fabric-clock.h"
#include "ns3/fabric-credit-ledger.h"
#include "ns3/fabric-net-device.h"
#include "ns3/fabric-packet.h"
#include "ns3/fabric-tx-queue.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"

#include <array>
#include <deque>
#include <unordered_map>
#include <vector>

namespace ns3
{

class UalinkPhy;

/**
 * \ingroup ualink
 * \brief The transmit side of one UALink port's transaction layer in the default (coarse) mode:
 * it hands the port one burst per control half-flit (DESIGN.md rule 3), with the wire time that
 * burst takes exactly.
 *
 * Requests and responses wait in the TL packer's separate queues (UalinkTlPacker: picking,
 * address cache, catch limits). Each Dequeue builds one control half-flit and its data half-flits
 * and returns them as one FabricPacket whose segments are the operations it carries. Its size on
 * the wire is the half-flits it took, 32 B each, times the DL and PHY framing: 640 / 628 for the
 * DL flit's header, segment headers and CRC, 680 / 640 for the RS(544,514) codeword, and
 * IdlePeriod / (IdlePeriod - 1) for the codeword slots that carry no DL flit (AM and idle); the
 * fractions are carried from burst to burst so the total is exact. The port's channel runs at the
 * signalling rate (lanes x 212.5 Gb/s) with no inter-frame gap.
 *
 * TL credits (section 5.8): an operation leaves only with the partner's credits: a request takes
 * one ReqCmd credit and one ReqData credit per 64 B of data (an atomic one), a response one
 * RspCmd credit and one RspData credit per 64 B of read data; byte enables take none. Credits come
 * back through AddCredits when the partner's buffer frees them. Each class has credits per VC
 * (4) and Pool credits usable by any VC (section 5.8): an operation takes its VC's credits when
 * every class it needs has enough, else Pool credits, its data credits of the same kind as its
 * command credit (5.8: data inherits VC and Pool); the kind rides in the segment (bit 2 of
 * tclass, ualink::TCLASS_TL_POOL) and the receiver returns the credits to it in FC fields. In
 * Shared Data Buffer mode (5.8, optional) the Pool credits of ReqData and RspData are one count.
 *
 * Credit returns need no event of their own: the partner's ReleaseCredits puts each return in
 * this queue's FIFO of returns on their way, with the time it arrives (non-decreasing per link),
 * and the queue applies every return that has arrived before it reads or spends its credits
 * (DoDequeue, the accessors). Only a queue whose last dequeue found work it could not send wakes
 * its port, with one event at the arrival of the first return on its way; the credits become
 * usable at the same picosecond as with an event per return.
 */
class UalinkTxQueue : public FabricTxQueue
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    UalinkTxQueue();
    ~UalinkTxQueue() override;

    /// Event granularity (DESIGN.md rule 3).
    enum Granularity
    {
        BURST,   //!< one unit per control half-flit and its data (default, coarse)
        DL_FLIT, //!< one unit per 640 B DL flit in its 680 B codeword (fine)
    };

    /// Counters.
    struct Stats
    {
        uint64_t bursts{0};                //!< bursts handed to the port
        uint64_t ops{0};                   //!< operations sent
        uint64_t halfFlits{0};             //!< TL half-flits sent (control, data, NOP)
        uint64_t wireBytes{0};             //!< bytes on the wire
        uint64_t dataBytes{0};             //!< payload bytes (write and read data)
        uint64_t creditStalls{0};          //!< operations refused for want of a credit
        uint64_t dropped{0};               //!< operations dropped by DropAll (TL drop mode, 3.1.3)
        uint64_t paceHolds{0};             //!< dequeues held back by Tx pacing (section 6.5)
        uint64_t initialReleaseTlFlits{0}; //!< TL flits of the partner's initial release
        uint64_t linkReinits{0};           //!< re-initialisations after a link down (ReinitLink)
        uint64_t staleCredits{0};          //!< credits returned for a link since re-initialised
    };

    // ---- link state, drop mode and Tx pacing (the DL side of the TL, UalinkDl) --------------

    /**
     * \brief Hold or release the queue: while the DL is not Up (section 6.7.1) the TL sends
     * nothing and keeps what it holds.
     * \param held whether the queue is held
     */
    void SetHeld(bool held);

    /**
     * \brief TL drop mode (section 3.1.3): take every queued operation out of the queue
     * without sending it (counted in Stats::dropped); the owner counts them by reason and
     * returns the buffers they held.
     * \return the operations dropped
     */
    std::vector<FabricPacket::Segment> DropAll();

    /**
     * \brief Tx pacing (section 6.5): admit TL bytes to the DL no faster than this rate; the
     * queue then holds back and wakes the port itself when the next burst may go.
     * \param bytesPerSecond TL bytes per second (0: no pacing, the DL's own rate limits)
     * \param wake called when a held-back burst may go (the port's Wake)
     */
    void SetTlRateLimit(double bytesPerSecond, Callback<void> wake);

    /// \return the Tx pacing rate in TL bytes per second (0: none)
    double GetTlRateLimit() const
    {
        return m_paceBps;
    }

    /**
     * \brief Take the PHY's framing (call once, before traffic).
     * \param phy the port's PHY
     */
    void SetPhy(Ptr<const UalinkPhy> phy);

    /**
     * \brief The port this queue transmits on (for the initial credit release: its link delay
     * and its wake-up).
     * \param dev the port
     */
    void SetDevice(Ptr<FabricNetDevice> dev);

    /**
     * \return the TL flits the partner's initial credit release takes (section 5.8): the FC
     * fields, one control half-flit (and its MANDATORY NOP) per 7 command or 31 data credits of
     * the class and kind that needs most, one kind per class in each, plus the Initial Credit
     * Release Complete message half-flit
     */
    uint64_t GetInitialReleaseTlFlits() const;

    /**
     * \return when the partner's initial credits are usable (InitialCreditRelease; 0 when off):
     * its release TL flits, one DL flit and the link's one-way delay after time 0
     */
    Time GetInitialReleaseTime() const;

    /**
     * \brief The link is re-initialised after a link-down error (called by the port's UalinkDl
     * when it enters NOP again): the partner's credits return to what it advertises (section
     * 5.8: both TLs release their credits afresh; with InitialCreditRelease they are usable only
     * once the release has arrived after the link is Up again, see LinkUp), credit returns still
     * on their way for the old link are void (counted in Stats::staleCredits), and the packer
     * forgets the link (UalinkTlPacker::ResetLink: address cache, catch buffers, FC fields due).
     */
    void ReinitLink();

    /**
     * \brief The port's DL entered Up after ReinitLink: the partner's initial credit release
     * (InitialCreditRelease) starts now.
     */
    void LinkUp();

    /**
     * \brief Credits that arrived for a link since re-initialised: not counted as available.
     * \param n the credits
     */
    void DiscardStaleCredits(uint64_t n)
    {
        m_stats.staleCredits += n;
    }

    /**
     * \brief Queue an operation.
     * \param s the operation (op, bytes, src, dst, tag, VC in tclass, message fields)
     */
    void Enqueue(const FabricPacket::Segment& s);

    /**
     * \brief Credits the partner returned.
     * \param cls credit class
     * \param n credits
     */
    void AddCredits(ualink::CreditClass cls, uint32_t n);

    /**
     * \brief Credits the partner returned.
     * \param cls credit class
     * \param kind VC 0-3 or ualink::POOL
     * \param n credits
     */
    void AddCredits(ualink::CreditClass cls, uint8_t kind, uint32_t n);

    /**
     * \param cls a credit class
     * \return credits this port may spend now (all VCs and the pool)
     */
    uint64_t GetAvailableCredits(ualink::CreditClass cls) const;

    /**
     * \param cls a credit class
     * \param kind VC 0-3 or ualink::POOL
     * \return credits of that kind this port may spend now (Shared Data Buffer mode: the shared
     * data pool is counted under ReqData)
     */
    uint64_t GetAvailableCredits(ualink::CreditClass cls, uint8_t kind) const;

    /**
     * \param cls a credit class
     * \return credits of that class the partner advertised (0 before the first use)
     */
    uint64_t GetAdvertisedCredits(ualink::CreditClass cls) const;

    /**
     * \param cls a credit class
     * \return credits spent so far (cumulative)
     */
    uint64_t GetSpentCredits(ualink::CreditClass cls) const
    {
        return m_spent[cls];
    }

    /**
     * \param s an operation
     * \param cls a credit class
     * \return credits of that class the operation takes
     */
    static uint32_t CreditsFor(const FabricPacket::Segment& s, ualink::CreditClass cls);

    /// Called with the operations of each burst as it leaves (a switch frees its ingress buffers).
    typedef Callback<void, const std::vector<FabricPacket::Segment>&> SentCallback;

    /// \param cb called with the operations of each burst handed to the port
    void SetSentCallback(SentCallback cb)
    {
        m_sentCb = cb;
    }

    /// \return the TL packer
    Ptr<UalinkTlPacker> GetPacker() const
    {
        return m_packer;
    }

    /// \return operations queued
    std::size_t GetQueuedOps() const
    {
        return m_queued;
    }

    /// \return the counters (credit returns that have arrived applied first)
    const Stats& GetStats() const;

    /**
     * \brief The run is over: apply every credit return still on its way, as if its time had
     * come (the end-of-run checks and the tests call it after Simulator::Run; while the
     * simulation runs, returns are applied when their time has come).
     */
    void SettleCredits();

    /// \return credit returns on their way to this queue (not yet arrived or not yet applied)
    std::size_t GetCreditReturnsInFlight() const
    {
        return m_returns.size();
    }

    /**
     * \param s an operation
     * \return the TL view of the operation
     */
    static UalinkTlOp ToTlOp(const FabricPacket::Segment& s);

    /**
     * \param s an operation
     * \return its byte address, as ToTlOp gives it (a 256 MB range per message id), without
     * building the rest of the TL view
     */
    static uint64_t AddressOf(const FabricPacket::Segment& s)
    {
        return ((s.msgId & 0xFFFFF) << 28) + s.offset;
    }

    /**
     * \brief Free the buffers the operations of a received burst held at the receiving port and
     * return their credits to the partner: they reach its transmit queue one link delay plus one
     * DL flit later (an FC field in the next control half-flit back, section 5.8; put in its
     * FIFO of returns on their way, PushCredits, no event), and take their FC sectors in this
     * port's own transmit stream.
     * \param rx the receiving port
     * \param segs the operations
     * \param slot the DL flit time of the link
     */
    static void ReleaseCredits(const Ptr<FabricNetDevice>& rx,
                               const std::vector<FabricPacket::Segment>& segs,
                               Time slot);

    /// Credits per class.
    typedef std::array<uint32_t, ualink::N_CREDIT_CLASSES> Credits;

    /// Credits per kind (VC 0-3, Pool) and class.
    typedef std::array<Credits, ualink::N_CREDIT_KINDS> KindCredits;

    /**
     * \brief Add the credits an operation took (by the kind it records) to a tally.
     * \param tally the tally
     * \param s the operation as received
     */
    static void TallyCredits(KindCredits* tally, const FabricPacket::Segment& s);

    /**
     * \brief Return credits of every kind to the partner of a receiving port (see the first
     * overload).
     * \param rx the receiving port
     * \param n credits per kind and class
     * \param slot the DL flit time of the link
     */
    static void ReleaseCredits(const Ptr<FabricNetDevice>& rx, const KindCredits& n, Time slot);

    /**
     * \brief Return pool credits to the partner of a receiving port (see the first overload).
     * \param rx the receiving port
     * \param n credits per class
     * \param slot the DL flit time of the link
     */
    static void ReleaseCredits(const Ptr<FabricNetDevice>& rx, const Credits& n, Time slot);

    /**
     * \brief ReleaseCredits for the port that owns this queue (SetDevice): the same credits and
     * the same return, without looking the port's and its partner's queues up on every burst (the
     * partner is found once, when the first credits go back).
     * \param segs the operations received
     * \param slot the DL flit time of the link
     */
    void Release(const std::vector<FabricPacket::Segment>& segs, Time slot);

    /**
     * \brief ReleaseCredits of every kind for the port that owns this queue (see above).
     * \param n credits per kind and class
     * \param slot the DL flit time of the link
     */
    void Release(const KindCredits& n, Time slot);

    /**
     * \param s an operation
     * \return the credits it takes per class
     */
    static Credits CreditsOf(const FabricPacket::Segment& s);

  protected:
    void DoDispose() override;

    /// \return true: TL credits hold operations back
    bool HasOwnGate() const override
    {
        return true;
    }

  private:
    bool DoIsEmpty() const override;
    Ptr<FabricPacket> DoDequeue(const FabricTxGate* gate) override;

    /// \return the next DL flit unit (fine mode), or nullptr
    Ptr<FabricPacket> DequeueDlFlit();

    /// An operation packed in the TL stream, waiting for the DL flit that completes it.
    struct Pending
    {
        uint64_t endSector;        //!< TL stream sector after its last half-flit
        FabricPacket::Segment seg; //!< the operation
        uint8_t kind;              //!< the credit kind it took
    };

    /**
     * \brief Record in each operation the credit kind it took on this hop (after the sent
     * callback, which still sees the kinds of the previous hop).
     * \param segs the operations
     * \param kinds their kinds
     */
    static void MarkKinds(std::vector<FabricPacket::Segment>* segs,
                          const std::vector<uint8_t>& kinds);

    std::vector<uint8_t> m_kinds; //!< scratch: kinds of a unit's operations

    /**
     * \param op an operation about to be packed
     * \return true if the partner's credits admit it (they are taken)
     */
    bool Gate(const UalinkTlOp& op);

    Ptr<UalinkTlPacker> m_packer; //!< Packer
    /**
     * \brief Check mode: credits of a class stay within 0 and what the partner advertised.
     * \param cls the class
     * \param returned credits just came back (else: just spent)
     */
    void CheckCredits(ualink::CreditClass cls, bool returned) const;

    /// A credit return on its way from the partner (ReleaseCredits).
    struct CreditReturn
    {
        Time at;        //!< when it reaches this queue
        KindCredits n;  //!< credits per kind and class
        uint64_t epoch; //!< this queue's link epoch when they were released
    };

    /**
     * \brief The partner returns credits: they reach this queue at a given time (no event; see
     * the class description).
     * \param n credits per kind and class
     * \param at when they arrive
     * \param epoch this queue's link epoch when they were released (stale if it has been
     *        re-initialised since: counted, not loaded)
     * \param dev the port that owns this queue (woken when they unblock it)
     */
    void PushCredits(const KindCredits& n, Time at, uint64_t epoch, FabricNetDevice* dev);

    /// Apply every credit return whose time has come.
    void DrainCredits()
    {
        if (!m_returns.empty() && m_returns.front().at <= FabricClock::Now())
        {
            DoDrainCredits(FabricClock::Now());
        }
    }

    /**
     * \brief DrainCredits for the const accessors: applying the returns that have arrived
     * changes no credit count a reader may see (they are the counts as of now).
     */
    void DrainCredits() const
    {
        const_cast<UalinkTxQueue*>(this)->DrainCredits();
    }

    /**
     * \brief Apply the credit returns that arrive up to a time, in order.
     * \param until the time
     */
    void DoDrainCredits(Time until);

    /**
     * \brief Apply one credit return (what the event per return did: stale ones are counted).
     * \param r the return
     */
    void ApplyReturn(const CreditReturn& r);

    /**
     * \brief Load credits the partner returned (AddCredits without applying the returns on
     * their way first).
     * \param cls credit class
     * \param kind VC 0-3 or ualink::POOL
     * \param n credits
     */
    void DoAddCredits(ualink::CreditClass cls, uint8_t kind, uint32_t n);

    /// The last dequeue found work it could not send: wake the port when the next return arrives.
    void ScheduleCreditWake();

    /// The wake ScheduleCreditWake scheduled: the port tries again.
    void CreditWake();

    /**
     * \brief DoDequeue without the credit returns' bookkeeping.
     * \return the next unit, or nullptr
     */
    Ptr<FabricPacket> DequeueUnit();

    /**
     * \brief A credit return arrives at a time: keep the simulation running until then (the
     * run's last event is the arrival of its last return, as with an event per return, so that
     * credits read at its end are all home). One event for all queues, due at the latest arrival
     * known when it was scheduled: at most one per return loop of the simulation.
     * \param at the arrival time
     */
    static void NoteArrival(Time at);

    /// The event NoteArrival schedules: scheduled again if a later return is on its way.
    static void ArrivalSentinel();

    /// Forget the sentinel (Simulator::Destroy).
    static void ResetArrivalSentinel();

    static Time s_lastArrival;     //!< the latest arrival of a credit return
    static bool s_sentinelPending; //!< ArrivalSentinel is scheduled
    static bool s_resetHooked;     //!< ResetArrivalSentinel is set to run at Simulator::Destroy

    std::deque<CreditReturn> m_returns;  //!< credit returns on their way, by arrival time
    bool m_blocked{false};               //!< the last dequeue found work it could not send
    bool m_wakePending{false};           //!< a CreditWake is scheduled
    Time m_wakeAt;                       //!< when the pending CreditWake runs
    FabricNetDevice* m_wakeDev{nullptr}; //!< the port CreditWake wakes
    uint32_t m_wakeContext{0};           //!< its node id (event context)

    /// Take back the credits of an own received burst in this queue's packer (FC fields).
    void ReturnOwn(const KindCredits& n);

    FabricNetDevice* m_peerDev{nullptr}; //!< the partner port (found on the first Release)
    UalinkTxQueue* m_peerQ{nullptr};     //!< the partner's queue, if a UALink one
    FabricChannel* m_peerCh{nullptr};    //!< the link (found on the first Release)

    /// Load the partner's advertised credits (first use).
    void Start();

    /// The initial credit release has arrived.
    void InitialReleaseDone();

    /**
     * \param cls a class
     * \param kind a kind
     * \return the class whose count holds that kind (Shared Data Buffer mode: RspData Pool
     * credits are counted under ReqData)
     */
    ualink::CreditClass Counted(ualink::CreditClass cls, uint8_t kind) const
    {
        return (m_sharedData && kind == ualink::POOL && cls == ualink::RSP_DATA) ? ualink::REQ_DATA
                                                                                 : cls;
    }

    /**
     * \param cls a class
     * \param kind a kind (VC 0-3 or ualink::POOL)
     * \return the ledger's counter of that class and kind
     */
    static uint32_t CreditIndex(ualink::CreditClass cls, uint8_t kind)
    {
        return static_cast<uint32_t>(cls) * ualink::N_CREDIT_KINDS + kind;
    }

    uint32_t m_initReqCmd{512};      //!< ReqCmdCredits
    uint32_t m_initRspCmd{512};      //!< RspCmdCredits
    uint32_t m_initReqData{2048};    //!< ReqDataCredits
    uint32_t m_initRspData{2048};    //!< RspDataCredits
    uint32_t m_vcReqCmd{0};          //!< ReqCmdVcCredits
    uint32_t m_vcRspCmd{0};          //!< RspCmdVcCredits
    uint32_t m_vcReqData{0};         //!< ReqDataVcCredits
    uint32_t m_vcRspData{0};         //!< RspDataVcCredits
    bool m_sharedData{false};        //!< SharedDataBuffer
    bool m_initialRelease{false};    //!< InitialCreditRelease
    bool m_releasePending{false};    //!< release under way
    FabricNetDevice* m_dev{nullptr}; //!< the port (owns this queue)
    Time m_slot;                     //!< DL flit time
    /// The partner's credits, a counter per class and kind (CreditIndex).
    FabricCreditLedger m_credits{ualink::N_CREDIT_CLASSES * ualink::N_CREDIT_KINDS};
    std::vector<uint8_t> m_slotKind; //!< credit kind each queued operation took, by slot
    std::array<uint64_t, ualink::N_CREDIT_CLASSES> m_spent{}; //!< credits spent
    bool m_started{false};                                    //!< initial credits loaded
    uint64_t m_epoch{0};  //!< link re-initialisations (ReinitLink)
    Time m_releaseOrigin; //!< when the partner's initial credit release starts
    std::vector<FabricPacket::Segment> m_slots; //!< queued operations, by id (slot index)
    std::vector<uint32_t> m_freeSlots;          //!< slots free
    std::size_t m_queued{0};                    //!< operations queued
    Granularity m_granularity{BURST};           //!< Granularity
    std::deque<Pending> m_pending;              //!< fine mode: packed, not yet in a DL flit
    uint64_t m_consumed{0};                     //!< fine mode: TL sectors put in DL flits
    uint64_t m_dlFlits{0};                      //!< fine mode: DL flits sent
    uint32_t m_idlePeriod{1024};                //!< codeword slots per empty slot
    uint64_t m_nextId{0};                       //!< next operation id
    double m_wirePerHf{0};                      //!< wire bytes per half-flit
    double m_tlFlitSeconds{0};                  //!< mean TL flit time
    double m_carry{0};                          //!< fractional wire bytes owed
    Time m_busyUntil;                           //!< end of the last burst
    uint64_t m_idleTold{0};    //!< TL flit times idle since then, told to the packer
    double m_bps{0};           //!< signalling rate
    SentCallback m_sentCb;     //!< operation sent
    bool m_held{false};        //!< SetHeld
    double m_paceBps{0};       //!< Tx pacing: TL bytes per second
    double m_paceNext{0};      //!< Tx pacing: next admission (seconds)
    Callback<void> m_paceWake; //!< Tx pacing: wakes the port
    EventId m_paceEvent;       //!< Tx pacing: the pending wake
    /**
     * \brief Tx pacing: account TL bytes admitted now.
     * \param tlBytes the TL bytes of the unit
     */
    void Pace(uint64_t tlBytes);
    Stats m_stats;                                   //!< counters
    std::vector<UalinkTlPacker::Placement> m_placed; //!< scratch
};

} // namespace ns3

#endif /* UALINK_TX_QUEUE_H */
