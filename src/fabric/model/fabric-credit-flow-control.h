/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_CREDIT_FLOW_CONTROL_H
#define FABRIC_CREDIT_FLOW_CONTROL_H

#include "fabric-credit-ledger.h"
#include "fabric-flow-control.h"

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup fabric
 * \brief Credit-based flow control (CBFC) on one port, per virtual channel, with an optional
 * shared pool: the scheme of UEC's CBFC and the basis of UALink's and the cell fabric's credits.
 *
 * The receiver has BufferBytes of buffer per VC (and PoolBytes shared by all VCs); one credit is
 * BytesPerCredit bytes. The sender starts with the peer's buffer in credits and spends
 * ceil(frame bytes / BytesPerCredit) per unit, its VC's credits first and then pool credits; it
 * never transmits without them. The receiver returns credits as units leave its buffer: they
 * accumulate until CreditBatch credits are due or CreditDelay has passed since the first, then
 * one credit frame per VC leaves after CreditLatency. Credit frames carry cumulative counts (of
 * the VC and of the pool), so a lost or reordered frame is repaired by the next.
 *
 * With C bytes of credit and a credit round trip R (unit serialization, the link's delay both
 * ways, the receiver's pipeline, batching and the credit frame), one flow gets min(line rate,
 * C / R). A fabric whose buffers hold fixed slots counts a unit's credits itself
 * (SetUnitCredits: the cell fabric's one credit per cell), and may carry the credit returns in the
 * headers of the units going the other way (InBandCredits: no wire time, the link's one-way
 * delay). The sender's credits are a FabricCreditLedger with a counter per VC and one for the
 * pool. Both ends must run this class with the same BytesPerCredit and Vcs. Inconsistencies
 * (occupancy above the advertised buffer, a release of bytes not held, credits for an unknown VC,
 * more credits returned than spent) stop the simulation with an error.
 */
class FabricCreditFlowControl : public FabricFlowControl
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    FabricCreditFlowControl();
    ~FabricCreditFlowControl() override;

    /// Counts the credits of a unit (SetUnitCredits).
    typedef Callback<uint64_t, const FabricPacket&> UnitCreditsCallback;

    bool CanSend(uint8_t tclass, uint32_t bytes, uint32_t dst) const override;
    bool CanSendUnit(uint8_t tclass, const FabricPacket& p) const override;
    void NotifySent(const Ptr<FabricPacket>& p) override;
    void NotifyReceived(const Ptr<FabricPacket>& p) override;
    void NotifyReleased(const Ptr<FabricPacket>& p) override;
    /**
     * Credit recovery: the credits of a unit lost on the wire are returned as if it had been
     * received and released at once. This is what the periodic resynchronization of credit
     * schemes does (the sender's total of blocks sent against the receiver's total received,
     * e.g. InfiniBand's FCTBS and FCCL), without its period: otherwise every corrupted unit
     * would leak its credits for good. Counted by GetRecoveredCredits().
     * \param p the unit
     */
    void NotifyLost(const Ptr<FabricPacket>& p) override;

    /// \return credits recovered from units lost on the wire (NotifyLost)
    uint64_t GetRecoveredCredits() const
    {
        return m_recovered;
    }

    void ReceiveControl(const Ptr<FabricPacket>& p) override;

    /**
     * \param bytes frame bytes
     * \return credits a frame of that size takes
     */
    uint64_t CreditsFor(uint32_t bytes) const
    {
        return (bytes + m_bytesPerCredit - 1) / m_bytesPerCredit;
    }

    /**
     * Count each unit's credits with \p cb instead of ceil(frame bytes / BytesPerCredit): for
     * fabrics whose buffers hold fixed slots (the cell fabric: one credit per cell, whatever its
     * bytes). Set the same counter on both ends of the link, before the first unit.
     * \param cb the counter (a null callback restores the byte count)
     */
    void SetUnitCredits(UnitCreditsCallback cb);

    /**
     * \param p a unit
     * \return the credits it takes (SetUnitCredits, or ceil(frame bytes / BytesPerCredit))
     */
    uint64_t CreditsOf(const FabricPacket& p) const
    {
        return m_unitCredits.IsNull() ? CreditsFor(p.GetSize()) : m_unitCredits(p);
    }

    /**
     * \param vc a virtual channel
     * \return credits the sender may spend now on \p vc, pool excluded
     */
    uint64_t GetAvailableCredits(uint8_t vc) const;

    /// \return shared pool credits the sender may spend now
    uint64_t GetAvailablePoolCredits() const;

    /**
     * \param vc a virtual channel
     * \return the receiver's occupancy of \p vc now (credits)
     */
    uint64_t GetOccupancy(uint8_t vc) const;

    /// \return the highest receiver occupancy of any VC plus the pool seen (credits)
    uint64_t GetPeakOccupancy() const
    {
        return m_peak;
    }

    /// \return credit frames sent
    uint64_t GetCreditFramesSent() const
    {
        return GetControlFramesSent();
    }

    /// \return bytes per credit
    uint32_t GetBytesPerCredit() const
    {
        return m_bytesPerCredit;
    }

    /// \return the per-VC receive buffer (bytes)
    uint64_t GetBufferBytes() const
    {
        return m_bufferBytes;
    }

    /// \return the shared pool (bytes)
    uint64_t GetPoolBytes() const
    {
        return m_poolBytes;
    }

  protected:
    void DoDispose() override;

  private:
    /// \brief Sender: learn the peer's buffer (first use).
    void Start() const;
    /// \brief Receiver: send the credits due.
    void ReturnCredits();
    /// \brief Receiver: credits became due.
    /// \param n credits
    void CreditsDue(uint64_t n);
    /// \return the port's name for invariant messages
    std::string Name() const;
    /**
     * \brief Check mode: the sender's credits stay >= 0 after a spend.
     * \param vc the unit's VC
     * \param own VC credits it takes
     * \param pool pool credits it takes
     */
    void CheckSpend(uint8_t vc, uint64_t own, uint64_t pool) const;
    /**
     * \brief Check mode: the sender's credits stay <= what the peer advertised after a return.
     * \param vc the VC of the credit frame
     */
    void CheckReturned(uint8_t vc) const;
    /**
     * \brief Check mode: the receiver holds no more than it advertised.
     * \param vc the VC
     * \param n credits of the unit that arrived
     * \param arrived a unit just arrived
     */
    void CheckHeld(uint8_t vc, uint64_t n, bool arrived) const;
    /**
     * \brief Check mode: a release leaves the receiver's count >= 0.
     * \param vc the unit's VC
     * \param n its credits
     * \param pool of which pool credits
     */
    void CheckRelease(uint8_t vc, uint64_t n, uint64_t pool) const;
    /// \brief Receiver: transmit a credit frame.
    /// \param f the frame
    void SendFrame(Ptr<FabricPacket> f);

    /**
     * \brief Receiver, in-band returns: the credits reach the peer after the link's delay.
     * \param f the credit frame (not transmitted)
     */
    void DeliverInBand(Ptr<FabricPacket> f);

    uint32_t m_vcs{8};                 //!< virtual channels
    uint32_t m_bytesPerCredit{64};     //!< bytes per credit
    uint64_t m_bufferBytes{65536};     //!< receive buffer per VC (bytes)
    uint64_t m_poolBytes{0};           //!< shared receive pool (bytes)
    uint64_t m_batch{16};              //!< credits per return
    Time m_delay;                      //!< longest wait of a partial batch
    Time m_latency;                    //!< credit return processing latency
    bool m_inBand{false};              //!< credit returns ride in reverse units' headers
    UnitCreditsCallback m_unitCredits; //!< a unit's credits (null: by its bytes)

    // Sender (mutable: learnt lazily from the peer on first use).
    mutable bool m_started{false};        //!< the peer's buffer is known
    mutable FabricCreditLedger m_credits; //!< counters 0 to Vcs - 1: the VCs; Vcs: the pool
    uint64_t m_recovered{0};              //!< credits recovered from lost units

    // Receiver.
    std::vector<uint64_t> m_occ;      //!< VC credits held
    uint64_t m_poolOcc{0};            //!< pool credits held
    uint64_t m_peak{0};               //!< peak credits held
    std::vector<uint64_t> m_freed;    //!< VC credits freed (cumulative)
    std::vector<uint64_t> m_reported; //!< VC credits reported to the sender (cumulative)
    uint64_t m_poolFreed{0};          //!< pool credits freed (cumulative)
    uint64_t m_poolReported{0};       //!< pool credits reported (cumulative)
    uint64_t m_due{0};                //!< credits freed and not yet reported
    EventId m_timer;                  //!< partial batch timer
};

} // namespace ns3

#endif /* FABRIC_CREDIT_FLOW_CONTROL_H */
