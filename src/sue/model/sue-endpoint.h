/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SUE_ENDPOINT_H
#define SUE_ENDPOINT_H

#include "sue-instance.h"

#include "ns3/fabric-endpoint.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"

#include <map>
#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace ns3
{

/**
 * \ingroup sue
 * \brief An XPU with its SUE instances: the endpoint API of DESIGN.md rule 1 on SUE.
 *
 * A posted message is a run of write transactions (requests on VC = its class; the AXI mapping
 * of SUE RM102 section 3.2.2 puts requests on VC0) to one destination XPU. After the SUE transmit
 * latency (TxLatency, 100 ns in the budget of Appendix A.1) the XPU's load balancer (4.3, Figure
 * 17) hands it to one instance: round robin over the instances, the least loaded one (fewest
 * bytes outstanding, the congestion state each instance exposes), or a hash of the
 * source-destination pair.
 * The receiving XPU reassembles the message from the PDUs of every instance and reports it
 * delivered RxLatency (100 ns, A.1) after its last byte arrived. The message completes at the
 * sender when every PDU carrying it is acknowledged (SUE) or serialized (SUE Lite: no
 * transport).
 *
 * Bytes that arrive twice (possible only after an unordered instance moved unacknowledged work
 * off a failed port) are recognised per message and not counted again.
 */
class SueEndpoint : public FabricEndpoint
{
  public:
    /// How the XPU spreads messages over its instances (4.3).
    enum LoadBalance
    {
        ROUND_ROBIN,  //!< successive messages on successive instances
        LEAST_LOADED, //!< the instance with the fewest bytes outstanding
        HASH,         //!< (source + destination) mod instances: a pair stays on one instance
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    SueEndpoint();
    ~SueEndpoint() override;

    /**
     * \brief How AddDevice builds instances (SueHelper calls it).
     * \param instance creates the instances (SueInstance attributes)
     * \param packer creates their packers
     * \param transport creates their transports
     * \param lite SUE Lite (no transport)
     * \param portsPerInstance 1, 2 or 4
     */
    void Configure(const ObjectFactory& instance,
                   const ObjectFactory& packer,
                   const ObjectFactory& transport,
                   bool lite,
                   uint32_t portsPerInstance);

    /**
     * \brief Add the XPU's next Ethernet port: ports 0 .. P-1 form instance 0, the next P
     * instance 1, and so on (P ports per instance).
     * \param device the port (attached to its channel)
     */
    void AddDevice(Ptr<FabricNetDevice> device);

    /**
     * \brief Mesh deployment (SUE RM102 Figure 2): the XPU's port \p device (in AddDevice
     * order) links straight to XPU \p peer. Once any port has a peer, a message goes to an
     * instance with a port to its destination (chosen among those by LoadBalance), on that port.
     * \param device the port's index (AddDevice order)
     * \param peer the XPU at the other end of its link
     */
    void SetDirectPeer(uint32_t device, uint32_t peer);

    /**
     * \brief Add an instance built elsewhere (its ports already added).
     * \param instance the instance
     */
    void AddInstance(Ptr<SueInstance> instance);

    /// \return ports per instance (Configure)
    uint32_t GetPortsPerInstance() const
    {
        return m_portsPerInstance;
    }

    /// \return number of instances
    uint32_t GetNInstances() const
    {
        return m_instances.size();
    }

    /**
     * \param i index
     * \return the instance
     */
    Ptr<SueInstance> GetInstance(uint32_t i) const;

    double GetCongestionState(uint32_t dst) const override;

    /**
     * \brief The flow engine's plan of a write (sue.rst, "Flow engine plan"): the instance the
     * load balancer picks (advanced as a post advances it), the port or ports its PDUs leave on
     * with their flow hash (the transport's connection hash, or the packer's in SUE Lite), the
     * wire bytes of its PDUs packed alone (SuePacker::GetLoneWire), one FIFO per {instance,
     * destination, VC} (the packer's queues), TxLatency before the first byte, and completion
     * on acknowledgement (not in SUE Lite).
     * \param m the message
     * \param [out] plan the plan
     * \return false if the endpoint has no instance
     */
    bool PlanFlow(const FabricMessage& m, FabricFlowPlan& plan) override;

    /**
     * \brief Read \p bytes from XPU \p dst (3.2.2): a read request (one transaction of control
     * only) on VC0, answered by the remote SUE with a read response carrying the data on VC1.
     * The read completes here (the completed callback, with this cookie and bytes) when the
     * whole response has arrived, RxLatency after its last byte; the remote XPU's application
     * is not told (one-sided, 4.1). The data is delivered here (the delivered callback, from
     * \p dst, on VC1) when the read completes; its bytes count as sent by \p dst and received
     * here.
     * \param dst the XPU to read from
     * \param bytes bytes to read
     * \param cookie the caller's tag
     * \return the read's id
     */
    uint64_t Read(uint32_t dst, uint64_t bytes, uint64_t cookie = 0);

    /**
     * \brief The endpoint API's read: as Read(dst, bytes, cookie); SUE reads travel on their own
     * classes (requests on VC0, responses on VC1, 3.2.2), so \p tclass is not used.
     * \param target the XPU to read from
     * \param bytes bytes to read
     * \param tclass not used
     * \param cookie the caller's tag
     * \return the read's id
     */
    uint64_t Read(uint32_t target, uint64_t bytes, uint8_t tclass, uint64_t cookie) override;

    /// \return reads completed here
    uint64_t GetReadsCompleted() const
    {
        return m_readsCompleted;
    }

    /// \return payload bytes that arrived twice and were not counted again
    uint64_t GetDuplicateBytes() const
    {
        return m_duplicateBytes;
    }

    /// \return pieces of messages that arrived out of offset order
    uint64_t GetOutOfOrderPieces() const
    {
        return m_outOfOrder;
    }

    /// \return PDUs that arrived here but were addressed elsewhere
    uint64_t GetMisdeliveredUnits() const
    {
        return m_misdelivered;
    }

    /// Told of a message that SetActiveInstances keeps from being sent.
    typedef Callback<void, const FabricMessage&> SkippedCallback;

    /**
     * \brief Simulate only some instances (sue.rst, "Planes in parallel"). Each message's
     * instance is then chosen as the message is posted, not TxLatency later: RoundRobin and
     * Hash depend on the order of the posts alone, and every message waits the same
     * TxLatency, so the choice is the same. A message whose instance is not in \p mask is not
     * sent, and \p skipped is told of it. Exact only while the instances do not interact
     * (RailSplit::Refusal names what couples them): not with LeastLoaded, a mesh or reads.
     * \param mask bit k: instance k is simulated
     * \param skipped told of each message not sent (may be null)
     */
    void SetActiveInstances(uint64_t mask, SkippedCallback skipped);

    /// \return payload bytes of the messages posted here that the active instances carry
    uint64_t GetActiveBytesSent() const
    {
        return m_activeBytes;
    }

  protected:
    void DoDispose() override;

  private:
    void DoSend(const FabricMessage& m) override;

    /**
     * \brief Pick the instance for a destination (the load balancer).
     * \param dst the destination
     * \return the instance index
     */
    uint32_t PickInstance(uint32_t dst);
    /**
     * \brief A read completed here (after RxLatency).
     * \param m the read
     */
    void CompleteRead(FabricMessage m);

    /// Dispatch's instance when the load balancer is to choose.
    static constexpr uint32_t ANY_INSTANCE = 0xffffffff;

    /**
     * \brief Hand a message to an instance (after TxLatency).
     * \param k the instance chosen as the message was posted (only some instances active), or
     * ANY_INSTANCE: the load balancer chooses now
     * \param m the message
     */
    void Dispatch(uint32_t k, const FabricMessage& m);
    /**
     * \brief A PDU was accepted by one of the instances.
     * \param p the PDU
     */
    void Receive(const Ptr<FabricPacket>& p);
    /**
     * \brief A piece of a message arrived.
     * \param p the PDU carrying it (source and message fields)
     * \param s the piece
     */
    void ReceivePiece(const Ptr<FabricPacket>& p, const FabricPacket::Segment& s);
    /**
     * \brief A PDU sent from here is done (acknowledged, or serialized in Lite).
     * \param p the PDU
     */
    void Done(const Ptr<FabricPacket>& p);
    /**
     * \brief A piece of a message sent from here is done.
     * \param p the PDU
     * \param s the piece
     */
    void DonePiece(const Ptr<FabricPacket>& p, const FabricPacket::Segment& s);
    /**
     * \brief Report a message delivered (RxLatency after its last byte), or complete the read
     * whose response it is.
     * \param m the message
     * \param op its operation (2: a read response)
     */
    void Deliver(FabricMessage m, uint8_t op);

    /// Reassembly of one message: a contiguous prefix and the pieces beyond it.
    struct Reassembly
    {
        uint64_t received{0};                              //!< distinct bytes received
        uint64_t next{0};                                  //!< end of the contiguous prefix
        std::unique_ptr<std::map<uint64_t, uint64_t>> ooo; //!< [start, end) beyond the prefix
    };

    /**
     * \brief Add [a, b) to a message's reassembly.
     * \param r the reassembly
     * \param a first byte
     * \param b one past the last byte
     * \return the bytes not received before
     */
    static uint64_t Insert(Reassembly& r, uint64_t a, uint64_t b);

    LoadBalance m_loadBalance{ROUND_ROBIN};    //!< LoadBalance attribute
    ObjectFactory m_instanceFactory;           //!< instances (AddDevice)
    ObjectFactory m_packerFactory;             //!< packers (AddDevice)
    ObjectFactory m_transportFactory;          //!< transports (AddDevice)
    bool m_lite{false};                        //!< SUE Lite (AddDevice)
    uint32_t m_portsPerInstance{1};            //!< ports per instance (AddDevice)
    uint32_t m_nDevices{0};                    //!< ports added by AddDevice
    Time m_txLatency;                          //!< TxLatency
    Time m_rxLatency;                          //!< RxLatency
    std::vector<Ptr<SueInstance>> m_instances; //!< instances
    std::unordered_map<uint32_t, std::vector<uint32_t>> m_direct; //!< mesh: peer -> instances
    uint32_t m_next{0};                                           //!< round-robin pointer
    bool m_trackDuplicates{false};                                //!< some instance can move work
    std::unordered_map<uint64_t, Reassembly> m_rx;                //!< messages being received
    std::unordered_set<uint64_t> m_delivered;                     //!< delivered (if tracking)
    std::unordered_map<uint64_t, uint64_t> m_done;                //!< sent messages: bytes done
    uint64_t m_duplicateBytes{0};                                 //!< bytes received twice
    uint64_t m_outOfOrder{0};                                     //!< pieces out of order
    uint64_t m_misdelivered{0};                                   //!< misdelivered PDUs
    uint64_t m_nextReadId{0};                                     //!< reads posted
    uint64_t m_readsCompleted{0};                                 //!< reads completed
    bool m_allActive{true};              //!< every instance is simulated (SetActiveInstances)
    uint64_t m_activeMask{~uint64_t(0)}; //!< simulated instances (SetActiveInstances)
    SkippedCallback m_skipped;           //!< told of messages not sent (SetActiveInstances)
    uint64_t m_activeBytes{0};           //!< bytes posted on the simulated instances
};

} // namespace ns3

#endif /* SUE_ENDPOINT_H */
