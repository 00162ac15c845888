/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_CHANNEL_H
#define FABRIC_CHANNEL_H

#include "fabric-packet.h"

#include "ns3/channel.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <array>
#include <set>

namespace ns3
{

class FabricNetDevice;

/**
 * \ingroup fabric
 * \brief A full-duplex point-to-point fabric link between two FabricNetDevices.
 *
 * The channel owns the link's physical parameters: data rate, propagation delay (given directly or
 * as a cable medium and length), FEC decode latency, and a per-direction error model at codeword
 * granularity. Serialization time is computed exactly in picoseconds from the wire bytes (never
 * rounded to ns: DESIGN.md rule 4).
 *
 * Delivery follows ns-3's point-to-point channel: TransmitStart() schedules the receive event on
 * the peer with the peer node's id as context. The receive event fires when the peer can act on
 * the unit: at tail arrival for a store-and-forward receiver, after its pipeline latency from head
 * arrival for a cut-through receiver (FabricNetDevice::GetReceiveOffset()).
 *
 * With the ArrivalOrder attribute set to Canonical, the unit is staged in FabricArrivalOrder
 * instead, which hands the units of one picosecond to their receivers after the receivers' other
 * events of that picosecond, sorted by receiving node, device and sending order: an order that
 * does not depend on which sender's event ran first, so that a distributed run (contrib/mpi)
 * can reproduce it.
 */
class FabricChannel : public Channel
{
  public:
    /// Cable media with the propagation delays implied by the SUE spec, Appendix A.1.
    enum CableType
    {
        DIRECT,      //!< the Delay attribute is used as given
        TWINAX,      //!< twinax copper, 4.6 ns/m (3 m -> 13.8 ns, SUE A.1)
        SINGLE_MODE, //!< single-mode fiber, 4.96 ns/m (10 m -> 49.6 ns, SUE A.1)
        HOLLOW_CORE, //!< hollow-core fiber, 3.5 ns/m (10 m -> 35.0 ns, SUE A.1)
    };

    /// The order of units that reach their receivers in the same picosecond (ArrivalOrder).
    enum ArrivalOrder
    {
        INSERTION, //!< ns-3's: a receive event per unit, in the order of insertion
        CANONICAL, //!< after the receiver's other events, sorted (FabricArrivalOrder)
    };

    /**
     * \param name a cable's name as scenarios write it: direct, twinax, single-mode or
     *        hollow-core (anything else: direct)
     * \return its type
     */
    static CableType CableTypeFromName(const std::string& name);

    /// \return propagation delay per metre of a cable medium, in picoseconds
    static int64_t PicoSecondsPerMetre(CableType type);

    static TypeId GetTypeId();
    FabricChannel();
    ~FabricChannel() override;

    /**
     * Attach a device; at most two.
     * \param device the device
     */
    virtual void Attach(Ptr<FabricNetDevice> device);

    /**
     * Start transmitting a unit from a device to its peer.
     * \param p the unit
     * \param src the sending device
     * \param txTime the time the unit occupies the wire (serialization)
     * \return false if the unit was corrupted by the error model (it is still delivered, marked)
     */
    bool TransmitStart(const Ptr<FabricPacket>& p, const Ptr<FabricNetDevice>& src, Time txTime);

    /**
     * \param bytes bytes on the wire (frame plus per-frame link overhead)
     * \return the exact serialization time of that many bytes at the channel's rate
     */
    Time GetSerializationTime(uint64_t bytes) const;

    /// \return the one-way latency of the link: propagation plus FEC latency
    Time GetOneWayDelay() const;
    /// \return the propagation delay alone (cable or Delay attribute)
    Time GetPropagationDelay() const;
    /// \return the link data rate
    DataRate GetDataRate() const;
    /// \param rate the link data rate
    void SetDataRate(DataRate rate);
    /// \return the ArrivalOrder attribute
    ArrivalOrder GetArrivalOrder() const;

    /**
     * \param device one of the two attached devices
     * \return the other one
     */
    Ptr<FabricNetDevice> GetPeer(Ptr<const FabricNetDevice> device) const;

    /**
     * Force the k-th unit (0-based, counted per direction from the start of the run) sent by
     * a device to be corrupted, independently of the random error model. Used by tests.
     * \param sender the sending device
     * \param k the unit index
     */
    void InjectError(Ptr<const FabricNetDevice> sender, uint64_t k);

    /**
     * \brief Take the link down or bring it back up, at both ends (FabricNetDevice::SetLinkUp).
     * Units already on the wire still arrive.
     * \param up the new state
     */
    void SetLinkUp(bool up);

    /**
     * Give one direction its own error rates (the CodewordErrorRate and BitErrorRate attributes
     * apply to both directions until this is called).
     * \param sender the device sending in that direction
     * \param codewordErrorRate post-FEC probability that a codeword is uncorrectable
     * \param ber residual bit error rate after FEC
     */
    void SetErrorRates(Ptr<const FabricNetDevice> sender, double codewordErrorRate, double ber);

    /**
     * \param sender a sending device
     * \return probability that one unit of the given wire size is corrupted in that direction
     * \param wireBytes the unit's bytes on the wire
     */
    double GetUnitErrorProbability(Ptr<const FabricNetDevice> sender, uint64_t wireBytes) const;

    /**
     * Assign a fixed random variable stream number to the error models.
     * \param stream first stream index
     * \return the number of streams used (2, one per direction)
     */
    int64_t AssignStreams(int64_t stream);

    // Channel
    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

    /**
     * TracedCallback signature for corrupted units.
     * \param p the unit
     * \param sender index (0 or 1) of the sending device
     */
    typedef void (*CorruptTracedCallback)(Ptr<const FabricPacket> p, uint32_t sender);

  protected:
    void DoDispose() override;

    /**
     * Hand a unit to the receiving device: schedule its receive event after \p delay, with the
     * receiving node's id as context (ns-3's point-to-point channel). A channel between two ranks
     * of a distributed run (contrib/mpi, FabricRemoteChannel) sends it to the receiver's rank
     * instead.
     * \param dst the receiving device
     * \param p the unit
     * \param corrupted whether the error model corrupted it
     * \param delay from now to the receive event
     * \param seq the sending device's unit count on this link (0 for its first unit)
     */
    virtual void Deliver(const Ptr<FabricNetDevice>& dst,
                         const Ptr<FabricPacket>& p,
                         bool corrupted,
                         Time delay,
                         uint64_t seq);

  private:
    /// \return index (0 or 1) of a device on this channel
    uint32_t IndexOf(Ptr<const FabricNetDevice> device) const;
    /**
     * \param d direction (index of the sending device)
     * \return per-codeword error probability in that direction
     */
    double CodewordErrorProbability(uint32_t d) const;

    std::array<Ptr<FabricNetDevice>, 2> m_devices; //!< the two ends
    uint32_t m_nDevices{0};                        //!< attached devices
    DataRate m_rate;                               //!< link data rate
    uint64_t m_bps{0};                             //!< cached bit rate
    int64_t m_psPerByte{0};                        //!< exact ps per byte, or 0 if not integral
    Time m_delay;                                  //!< propagation delay when DIRECT
    CableType m_cable{DIRECT};                     //!< cable medium
    double m_cableLength{0};                       //!< cable length (m)
    Time m_fecLatency;                             //!< FEC decode latency
    uint32_t m_codewordBits{5140};                 //!< payload bits per FEC codeword
    double m_codewordErrorRate{0};                 //!< post-FEC codeword error probability
    double m_ber{0};                               //!< post-FEC bit error rate
    std::array<double, 2> m_dirCodewordErrorRate{-1, -1}; //!< per direction (-1: attribute)
    std::array<double, 2> m_dirBer{-1, -1};               //!< per direction (-1: attribute)
    std::array<Ptr<UniformRandomVariable>, 2> m_uniform;  //!< per-direction draws
    std::array<uint64_t, 2> m_sent{0, 0};                 //!< units sent per direction
    std::array<std::set<uint64_t>, 2> m_injected;         //!< forced errors per direction
    ArrivalOrder m_arrivalOrder{INSERTION};               //!< ArrivalOrder attribute
    TracedCallback<Ptr<const FabricPacket>, uint32_t> m_corruptTrace; //!< corrupted units

    /// The cable's delay, rounded once (GetPropagationDelay runs at every unit) and computed
    /// again when the cable's type or length differs from the pair it was computed for.
    mutable Time m_cableDelay;
    /// The cable type m_cableDelay is for.
    mutable CableType m_cableDelayType{DIRECT};
    /// The cable length m_cableDelay is for.
    mutable double m_cableDelayLength{-1};
};

} // namespace ns3

#endif /* FABRIC_CHANNEL_H */
