/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UALINK_UPLI_H
#define UALINK_UPLI_H

#include "ualink-tl-op.h"

#include "ns3/nstime.h"
#include "ns3/object.h"

#include <array>
#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup ualink
 * \brief The UALink Protocol Level Interface (UPLI, UALink_200 chapter 2) between an
 * accelerator's originator and completer and its TL: the UPLI side of every port of one
 * accelerator, as arithmetic (no events of its own).
 *
 * Four channels (section 2.1, 2.7): Request (Req), Originator Data (OrigData), Read
 * Response/Data (RdRsp) and Write Response (WrRsp). A beat is 64 B on natural byte lanes (2.8):
 * a Read is 1 Req beat; a Write, WriteFull or Write Message of b beats 1 Req beat and b OrigData
 * beats issued in the same cycle as the request and back to back (2.7.8); an AtomicR or AtomicNR
 * 1 Req and 1 OrigData beat; a read response b RdRsp beats, an AtomicR's answer 1; a write
 * response 1 WrRsp beat.
 *
 * Credits (section 2.6): per port, per channel, counted in beats, each a credit of one of the 4
 * VCs or a Pool credit usable by any VC. A beat goes out on its VC's credit when one is left,
 * else on a Pool credit (the sender's allocation is its own, 2.6); the beats of one request on
 * one channel take one kind. The receiver (the TL) records the VC and Pool bit of each beat and
 * returns the credit to that count when it takes the beat out of its buffer: here when the TL
 * packs the operation into its outbound stream (Return). The initial release (*CreditInitDone) is
 * taken as done before time 0; returns are not TDM'd (2.6: up to 4 per port per cycle, never
 * fewer than the TL drains, so they are taken as immediate).
 *
 * TDM (section 2.5): each channel is time-sliced over the N ports of a station (N = 1, 2 or 4 for
 * x4, 2x2, 4x1), port p valid once every N cycles of the UPLI clock (default 1562.5 MHz, 512 bit
 * per channel: 800 Gb/s per station, sections 6.5 and 6.7.5.1). Mode Ideal (default) takes the
 * UPLI as faster than the link and issues at once: at 1562.5 MHz it is (a port gets 64 B per N
 * cycles per channel: 800 / N Gb/s of data against the link's TL ceiling of 785 / N Gb/s, and one
 * request per N cycles against at most one per TL flit, N x 0.640 ns against N x 0.653 ns at
 * 212.5 GT/s, Table 5-24). Mode Tdm computes each beat's cycle arithmetically (one time per
 * operation, no per-beat events): the port's phase is p (cycle c carries port c mod N: the first
 * valid beat was port 0 at cycle 0), a Write's request and data start in the same cycle and its
 * data beats follow back to back on the port's phase, so a later Write waits for them while a
 * Read may issue in between (2.7.8).
 */
class UalinkUpli : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    UalinkUpli();
    ~UalinkUpli() override;

    /// The four UPLI channels (section 2.7).
    enum Channel : uint8_t
    {
        REQ = 0,       //!< Request
        ORIG_DATA = 1, //!< Originator Data
        RD_RSP = 2,    //!< Read Response/Data
        WR_RSP = 3,    //!< Write Response
    };

    /// Number of channels.
    static constexpr uint32_t N_CHANNELS = 4;

    /// Timing mode.
    enum Mode
    {
        IDEAL, //!< the UPLI is faster than the link: beats issue at once (default)
        TDM,   //!< beats on the TDM cycles of the UPLI clock
    };

    /// Beats per channel.
    typedef std::array<uint32_t, N_CHANNELS> Beats;

    /// What an issue took: the credit kind per channel (VC 0-3 or ualink::POOL) and its beats.
    struct Grant
    {
        Beats beats{};                          //!< beats per channel
        std::array<uint8_t, N_CHANNELS> kind{}; //!< credit kind per channel
        Time ready;                             //!< when the last beat has reached the TL
    };

    /// Counters.
    struct Stats
    {
        std::array<uint64_t, N_CHANNELS> beats{};  //!< beats issued per channel
        std::array<uint64_t, N_CHANNELS> stalls{}; //!< issues refused for want of a credit
    };

    /**
     * \param op a ualink::SegmentOp
     * \param bytes bytes moved (request length; read data)
     * \param addr byte address (beats are on natural byte lanes, 2.8)
     * \return the beats the operation takes on each channel
     */
    static Beats BeatsOf(uint8_t op, uint32_t bytes, uint64_t addr);

    /**
     * \brief Size the interface (call once, before traffic).
     * \param ports ports of the accelerator
     * \param portsPerStation ports per station (4 / lanes per port: 1, 2 or 4)
     */
    void SetPorts(uint32_t ports, uint32_t portsPerStation);

    /**
     * \brief Issue an operation on a port if the channels' credits admit it (they are taken).
     * \param port the port
     * \param op a ualink::SegmentOp
     * \param bytes bytes moved
     * \param addr byte address
     * \param vc virtual channel 0-3
     * \param grant filled with the credits taken and the time its last beat reaches the TL
     * \return false when a channel lacks credits (nothing taken)
     */
    bool TryIssue(uint32_t port,
                  uint8_t op,
                  uint32_t bytes,
                  uint64_t addr,
                  uint8_t vc,
                  Grant* grant);

    /**
     * \brief The TL took an operation's beats out of its buffer: their credits come back.
     * \param port the port
     * \param beats beats per channel
     * \param kind credit kind per channel
     */
    void Return(uint32_t port, const Beats& beats, const std::array<uint8_t, N_CHANNELS>& kind);

    /**
     * \param port a port
     * \param ch a channel
     * \param kind VC 0-3 or ualink::POOL
     * \return credits left
     */
    uint32_t GetCredits(uint32_t port, Channel ch, uint8_t kind) const;

    /**
     * \param ch a channel
     * \param kind VC 0-3 or ualink::POOL
     * \return credits a port starts with
     */
    uint32_t GetInitialCredits(Channel ch, uint8_t kind) const;

    /// \return the UPLI cycle time
    Time GetCycle() const;

    /// \return the mode
    Mode GetMode() const
    {
        return m_mode;
    }

    /// \return ports per station
    uint32_t GetPortsPerStation() const
    {
        return m_perStation;
    }

    /// \return the counters
    const Stats& GetStats() const
    {
        return m_stats;
    }

  private:
    /// Credits of one port and channel, per kind.
    typedef std::array<uint32_t, ualink::N_CREDIT_KINDS> Kinds;

    /// One port's state.
    struct Port
    {
        std::array<Kinds, N_CHANNELS> credits{}; //!< credits left per channel and kind
        std::array<uint64_t, N_CHANNELS> next{}; //!< Tdm: first cycle free per channel
    };

    Mode m_mode{IDEAL};                        //!< Mode
    double m_clockHz{1562.5e6};                //!< Clock
    uint32_t m_poolReq{32};                    //!< ReqPoolCredits
    uint32_t m_poolOrigData{128};              //!< OrigDataPoolCredits
    uint32_t m_poolRdRsp{128};                 //!< RdRspPoolCredits
    uint32_t m_poolWrRsp{32};                  //!< WrRspPoolCredits
    uint32_t m_vcReq{0};                       //!< ReqVcCredits
    uint32_t m_vcOrigData{0};                  //!< OrigDataVcCredits
    uint32_t m_vcRdRsp{0};                     //!< RdRspVcCredits
    uint32_t m_vcWrRsp{0};                     //!< WrRspVcCredits
    std::array<uint32_t, N_CHANNELS> m_pool{}; //!< pool credits per channel (SetPorts)
    std::array<uint32_t, N_CHANNELS> m_vc{};   //!< VC credits per channel and VC (SetPorts)
    uint32_t m_perStation{1};                  //!< ports per station
    std::vector<Port> m_ports;                 //!< ports
    Stats m_stats;                             //!< counters
};

} // namespace ns3

#endif /* UALINK_UPLI_H */
