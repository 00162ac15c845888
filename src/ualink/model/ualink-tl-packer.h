/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UALINK_TL_PACKER_H
#define UALINK_TL_PACKER_H

#include "ualink-address-cache.h"
#include "ualink-control-half-flit.h"
#include "ualink-tl-op.h"

#include "ns3/callback.h"
#include "ns3/object.h"
#include "ns3/ptr.h"

#include <array>
#include <deque>
#include <vector>

namespace ns3
{

/**
 * \ingroup ualink
 * \brief The transmit side of a UALink transaction layer as exact half-flit arithmetic: it lays
 * control and data half-flits into 64 B TL flits by the sequencing rules of UALink_200 sections
 * 5.1 and 5.2, and can pick the fields of each control half-flit itself from request and response
 * queues (section 5.5's picking logic) under the catch limits of section 5.7.
 *
 * The half-flit stream rules (section 5.1.1):
 * - a control half-flit always sits in the lower half of a TL flit, and a TL flit holds at most
 *   one non-NOP control half-flit;
 * - the data half-flits it calls for follow in the order of its data fields;
 * - if the last of them would fall in a lower half, it is swapped into the upper half and the
 *   lower half becomes the next control half-flit;
 * - a control half-flit that calls for no data is followed by a MANDATORY NOP half-flit (or, with
 *   authentication, by its AuthTags half-flit);
 * - with authentication, the half-flit after a control half-flit holding requests or responses is
 *   its AuthTags half-flit, so at most 4 requests and responses fit, and a control half-flit whose
 *   upper half holds a swapped data half-flit may carry only flow control and NOPs;
 * - a TL message half-flit in a control position takes that position; the upper half is the
 *   swapped data half-flit or a MANDATORY NOP (section 5.1.2). Poisoned-data messages replace
 *   data half-flits and cost nothing (section 5.3).
 *
 * Nothing here schedules events: callers turn the flit counts into time (DESIGN.md rule 3).
 * Positions are counted from the start of the stream: half-flit h lies in TL flit h / 2, in its
 * lower half when h is even.
 */
class UalinkTlPacker : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    UalinkTlPacker();
    ~UalinkTlPacker() override;

    /// Where an operation ended up in the stream.
    struct Placement
    {
        uint64_t id{0};                                //!< the operation's id
        UalinkTlOp::Kind kind{UalinkTlOp::REQUEST};    //!< request or response
        ualink::FieldType field{ualink::FTYPE_FC_NOP}; //!< its control field type
        uint64_t controlFlit{0};                       //!< TL flit of its control half-flit
        uint64_t lastFlit{0}; //!< TL flit of its last half-flit (control or data)
    };

    /// Counters.
    struct Stats
    {
        uint64_t controlHalfFlits{0};     //!< control half-flits (NOP ones included)
        uint64_t nopControlHalfFlits{0};  //!< control half-flits with no field at all
        uint64_t mandatoryNops{0};        //!< MANDATORY NOP half-flits
        uint64_t dataHalfFlits{0};        //!< data half-flits, byte enables included
        uint64_t byteEnableHalfFlits{0};  //!< byte-enable half-flits
        uint64_t authTagHalfFlits{0};     //!< AuthTags half-flits
        uint64_t messageHalfFlits{0};     //!< TL message half-flits (poison excluded)
        uint64_t poisonMessages{0};       //!< poisoned-data messages (replacing data)
        uint64_t swaps{0};                //!< last data half-flits swapped to an upper half
        uint64_t requests{0};             //!< request fields
        uint64_t compressedRequests{0};   //!< compressed request fields
        uint64_t responses{0};            //!< response fields
        uint64_t compressedResponses{0};  //!< compressed response fields
        uint64_t flowControlFields{0};    //!< FC fields
        uint64_t catchLimitedRequests{0}; //!< control half-flits where the request catch limit bit
        uint64_t bypasses{0};             //!< requests that passed a credit-blocked one
        uint64_t dataBytes{0};            //!< payload bytes (write data, read data, operands)
    };

    // ---- the half-flit stream ----------------------------------------------------------------

    /**
     * \brief Append a control half-flit and the data half-flits it calls for.
     * \param c the control half-flit
     * \return where each of its requests and responses lies
     */
    std::vector<Placement> AddControl(const UalinkControlHalfFlit& c);

    /**
     * \brief AddControl appending the placements to the caller's vector (no allocation).
     * \param c the control half-flit
     * \param out where each of its requests and responses lies is appended here
     */
    void AddControl(const UalinkControlHalfFlit& c, std::vector<Placement>* out);

    /**
     * \brief Append a TL message half-flit (section 5.1.2) at the next control position.
     * \param type the message type (Table 5-28; not 0x20, which replaces data: see AddPoison)
     */
    void AddMessage(uint8_t type);

    /**
     * \brief Count a poisoned-data message pair replacing a beat's two data half-flits (section
     * 5.3): no half-flit is added.
     */
    void AddPoison();

    /**
     * \brief Complete the TL flit whose upper half holds a swapped data half-flit by a NOP
     * control half-flit in its lower half (the stream is idle).
     */
    void Close();

    /// \return TL flits holding something so far (an open swapped flit counts)
    uint64_t GetTlFlits() const
    {
        return m_next / 2 + (m_swapPending ? 1 : 0);
    }

    /// \return the TL flit where the next control half-flit goes
    uint64_t GetNextControlFlit() const
    {
        return m_next / 2;
    }

    /// \return whether the next control half-flit shares its TL flit with a swapped data half-flit
    bool IsSwapPending() const
    {
        return m_swapPending;
    }

    /// \return payload bytes over TL bytes so far (the efficiency of section 5.4)
    double GetEfficiency() const;

    /// \return requests the next control half-flit may carry under the catch limit (section 5.7)
    uint32_t GetRequestAllowance();

    /// \return the counters
    const Stats& GetStats() const
    {
        return m_stats;
    }

    // ---- picking fields from queues ----------------------------------------------------------

    /**
     * \brief Queue a request or response for packing.
     * \param op the operation
     */
    void Enqueue(const UalinkTlOp& op);

    /**
     * \brief TL drop mode (section 3.1.3): take every queued request and response out of the
     * queues without packing them.
     * \param ids the operations' ids are appended here
     */
    void TakeAll(std::vector<uint64_t>* ids);

    /**
     * \brief Queue credits to return to the partner in FC fields (section 5.8).
     * \param cls the credit class
     * \param kind VC 0-3 or ualink::POOL
     * \param n credits
     */
    void ReturnCredits(ualink::CreditClass cls, uint8_t kind, uint32_t n);

    /// \return credits queued for return and not yet sent, summed over classes and kinds
    uint64_t GetPendingCredits() const;

    /**
     * \brief Build the next control half-flit from the queues and append it with its data.
     * \param out placements are appended here (may be null)
     * \param allowFcOnly whether a control half-flit carrying only FC fields may be sent
     * \return false if there was nothing to send (nothing appended)
     */
    bool PackNext(std::vector<Placement>* out, bool allowFcOnly = true);

    /**
     * \brief The link sent no TL flit of this stream for a while: the receiver kept retiring
     * requests and responses from its catch buffers (section 5.7).
     * \param tlFlits TL flit times that passed
     */
    void NotifyIdle(uint64_t tlFlits);

    /**
     * \brief The link is re-initialised after a link-down error: the Tx address cache is cleared
     * (section 5.6: no compressed request until an uncompressed one with CLOAD = 1 has reloaded
     * the entry, and with it the partner's Rx cache), the partner's catch buffers are empty
     * (5.7) and the credits waiting for an FC field are void (both sides advertise afresh,
     * 5.8). Queued operations and the stream position stay.
     */
    void ResetLink();

    /// \return the half-flit position of the next control half-flit (TL bytes so far / 32)
    uint64_t GetHalfFlitPosition() const
    {
        return m_next;
    }

    /// \return requests queued
    std::size_t GetQueuedRequests() const
    {
        return m_reqQueue.size();
    }

    /// \return responses queued
    std::size_t GetQueuedResponses() const
    {
        return m_rspQueue.size();
    }

    /**
     * \brief Decide how a request goes on the link: compressed if the compression rules of
     * Table 5-32 hold and its region hits in the Tx address cache, uncompressed otherwise (a
     * miss loads the cache, CLOAD = 1).
     * \param op the request
     * \return its field type
     */
    ualink::FieldType ClassifyRequest(const UalinkTlOp& op);

    /**
     * \param op a response
     * \return its field type: compressed when responses are compressed and the status is OKAY
     * (sections 5.9.4, 5.9.5), else uncompressed
     */
    ualink::FieldType ClassifyResponse(const UalinkTlOp& op) const;

    /**
     * \brief Set the test that decides whether a request or response may go now (TL credits).
     * \param gate returns true if the operation may be sent; it takes the credits when it does
     */
    void SetGate(Callback<bool, const UalinkTlOp&> gate)
    {
        m_gate = gate;
    }

    /// \return the Tx address cache
    Ptr<UalinkAddressCache> GetAddressCache() const
    {
        return m_cache;
    }

    /// \return whether every request is kept in order (StrictOrdering, 2.7.9)
    bool IsStrictOrdering() const
    {
        return m_strict;
    }

    /// \return whether authentication is on
    bool IsAuthenticated() const
    {
        return m_auth;
    }

  protected:
    void DoDispose() override;

  private:
    /// A queued operation with its field type once classified.
    struct Queued
    {
        UalinkTlOp op;                                 //!< the operation
        ualink::FieldType field{ualink::FTYPE_FC_NOP}; //!< its field type (FC_NOP: not decided)
    };

    /**
     * \brief Bring the catch-buffer occupancy up to the given TL flit (one request and one response
     * retired per TL flit, section 5.7).
     * \param flit the TL flit about to carry a control half-flit
     */
    void Retire(uint64_t flit);

    /**
     * \brief Add one FC field with as many queued credits as it can carry.
     * \param c the control half-flit
     * \param used (class, kind) pairs already non-zero in this half-flit
     * \return false if nothing was added
     */
    bool AddFcField(
        UalinkControlHalfFlit& c,
        std::array<std::array<bool, ualink::N_CREDIT_KINDS>, ualink::N_CREDIT_CLASSES>& used);

    /// \return whether some credit count reached its forcing threshold
    bool FcDue() const;

    /**
     * \brief Non-strict ordering: add a queued request that may pass the credit-blocked head.
     * \param c the control half-flit being built
     * \param reserve sectors kept free for an FC field
     * \return true if one was added
     */
    bool TakeBypass(UalinkControlHalfFlit& c, uint32_t reserve);

    // Attributes.
    Ptr<UalinkAddressCache> m_cache; //!< AddressCache
    bool m_useCache{true};           //!< UseAddressCache
    bool m_indexBySource{false};     //!< CacheIndexBySource (switch side)
    bool m_compressResponses{true};  //!< CompressResponses
    bool m_auth{false};              //!< Authentication
    bool m_catchLimits{true};        //!< CatchLimits
    bool m_wmBe{true};               //!< WriteMessageByteEnables
    bool m_strict{false};            //!< StrictOrdering
    uint32_t m_bypassDepth{16};      //!< BypassDepth
    uint32_t m_fcCmdThreshold{7};    //!< FlowControlCmdThreshold
    uint32_t m_fcDataThreshold{31};  //!< FlowControlDataThreshold

    // Stream state.
    uint64_t m_next{0};        //!< half-flit position of the next control half-flit (even)
    bool m_swapPending{false}; //!< the upper half at m_next + 1 holds a swapped data half-flit
    Stats m_stats;             //!< counters

    // Picking state.
    std::deque<Queued> m_reqQueue; //!< requests, in order
    std::deque<Queued> m_rspQueue; //!< responses, in order
    std::array<std::array<uint32_t, ualink::N_CREDIT_KINDS>, ualink::N_CREDIT_CLASSES>
        m_credits{};                          //!< credits waiting to be returned
    uint32_t m_reqCatch{0};                   //!< requests not yet retired by the receiver
    uint32_t m_rspCatch{0};                   //!< responses not yet retired by the receiver
    uint64_t m_catchFlit{0};                  //!< TL flit the catch counts refer to
    Callback<bool, const UalinkTlOp&> m_gate; //!< credit gate (null: always open)
};

} // namespace ns3

#endif /* UALINK_TL_PACKER_H */
