/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UALINK_DL_H
#define UALINK_DL_H

#include "ns3/object.h"
#include "ns3/ptr.h"

#include <cstdint>

namespace ns3
{

class FabricRetryEngine;
class UalinkPhy;

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
 * codeword slot, UalinkPhy). Digest appendix A.2: the spec calls 40,000 flits "1 ms at 25 ns per
 * flit"; a flit is 25.6 ns at x1, and this model counts flits (1.024 ms at x1, 256 us at x4).
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

    /// \return ReplayBufferFlits
    uint32_t GetReplayBufferFlits() const
    {
        return m_bufferFlits;
    }

    /// \return AckTimeoutFlits
    uint32_t GetAckTimeoutFlits() const
    {
        return m_ackTimeoutFlits;
    }

  private:
    uint32_t m_bufferFlits{MAX_UNACKED_FLITS}; //!< ReplayBufferFlits
    uint32_t m_ackTimeoutFlits{40000};         //!< AckTimeoutFlits
    uint32_t m_explicitInterval{7};            //!< ExplicitInterval
    uint32_t m_replayCopies{3};                //!< ReplayRequestCopies
    uint32_t m_ignoreFlits{12};                //!< ReplayIgnoreFlits
    uint32_t m_replayLimit{50};                //!< ReplayLimitFlits
};

} // namespace ns3

#endif /* UALINK_DL_H */
