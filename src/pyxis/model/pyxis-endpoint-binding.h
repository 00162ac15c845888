/*
 * Copyright (c) 2026 podsim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PYXIS_ENDPOINT_BINDING_H
#define PYXIS_ENDPOINT_BINDING_H

#include "pyxis-rdma-engine.h"
#include "pyxis-trip.h"

#include "ns3/cell-fabric-voq-table.h"
#include "ns3/fabric-message.h"
#include "ns3/object.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <deque>
#include <map>
#include <tuple>
#include <vector>

namespace ns3
{

class FabricEndpoint;
class PyxisChip;

/**
 * \ingroup pyxis
 * \brief Binds a PyxisChip's RDMA Tx and Rx queues to any fabric through the endpoint API
 * (FabricEndpoint: Send, and the endpoint's Delivered and Completed trace sources), so that
 * Pyxis chips run on every fabric of the pod.
 *
 * An RDMA Tx trip that passed its barrier (Pyxis spec 11.4.6) becomes one message of its bytes
 * to the chip of its VOQ (the chip's VOQ table with the default map of Pyxis spec 10.2: VOQ id
 * (chip * clusters + cluster) * 4 + OQ), carrying in its cookie the source and destination
 * clusters, the TJID and the RJID (COOKIE_FLAG marks it as a Pyxis RDMA message); the trip
 * completes when the endpoint reports the message completed (what completion means is the
 * fabric's: an ACK for a reliable transport). An RDMA Rx trip (Pyxis spec 11.4.7) completes when
 * the matching message has been delivered to this chip: the RDMA communication channel of
 * Pyxis spec 10.3-10.4 (source chip and cluster, the chip and cluster of its message VOQ; this
 * cluster; TJID and RJID) and the same bytes. The endpoint API has no clear-to-send, so a
 * message may arrive before its Rx trip is posted: it is kept until the trip comes (the trip then
 * completes at once), else the trip waits for it. Two messages of the same identity are matched
 * in arrival order.
 *
 * The endpoint's delivery and completion callbacks are not taken (the pod's dispatcher owns
 * them): the binding watches the trace sources and ignores messages without COOKIE_FLAG. The
 * endpoint API reports no job failure: a message the fabric never completes leaves its job
 * open (GetOpenJobs).
 */
class PyxisEndpointBinding : public Object
{
  public:
    /// Marks a Pyxis RDMA message's cookie (bit 62; bit 63 is the collective module's).
    static constexpr uint64_t COOKIE_FLAG = uint64_t(1) << 62;

    /// Counters.
    struct Stats
    {
        uint64_t txPosted{0};    //!< Tx trips sent as messages
        uint64_t rxPosted{0};    //!< Rx trips posted
        uint64_t txCompleted{0}; //!< Tx jobs completed (message completed)
        uint64_t rxCompleted{0}; //!< Rx jobs completed (message delivered)
        uint64_t early{0};       //!< Rx trips whose message had arrived before they were posted
        uint64_t txBytes{0};     //!< bytes of the completed Tx jobs
        uint64_t rxBytes{0};     //!< bytes of the completed Rx jobs
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    PyxisEndpointBinding();
    ~PyxisEndpointBinding() override;

    /**
     * Attach the chip's RDMA queues to the endpoint and watch its Delivered and Completed
     * traces.
     * \param chip the chip
     * \param endpoint its endpoint
     * \param accelerators the accelerator id of every chip's endpoint, by chip id (this chip's
     * is endpoint's)
     */
    void Bind(Ptr<PyxisChip> chip,
              Ptr<FabricEndpoint> endpoint,
              const std::vector<uint32_t>& accelerators);

    /**
     * The VOQ id of the chip's VOQ table with the default map (Pyxis spec 10.2).
     * \param chip destination chip
     * \param cluster destination cluster
     * \param oq OQ
     * \return the VOQ id, or UINT32_MAX if the map has none
     */
    uint32_t GetVoq(uint32_t chip, uint32_t cluster, uint32_t oq) const;

    /// \return the counters
    const Stats& GetStats() const
    {
        return m_stats;
    }

    /// \return jobs posted and not completed (Tx waiting for completion, Rx for their message)
    uint32_t GetOpenJobs() const;

    /// \return messages delivered to this chip that no Rx trip has taken yet
    uint32_t GetUnclaimedMessages() const;

    /**
     * \param srcCluster the sending cluster
     * \param dstCluster the receiving cluster
     * \param tjid the Tx job id
     * \param rjid the Rx job id
     * \return the cookie of a Pyxis RDMA message: COOKIE_FLAG, source cluster in bits 24-31,
     * destination cluster in bits 16-23, TJID in bits 8-15, RJID in bits 0-7
     */
    static uint64_t MakeCookie(uint32_t srcCluster,
                               uint32_t dstCluster,
                               uint32_t tjid,
                               uint32_t rjid);

    /**
     * \param cookie a message cookie
     * \return true if it is a Pyxis RDMA message's
     */
    static bool IsPyxisCookie(uint64_t cookie);

  protected:
    void DoDispose() override;

  private:
    /// An open job.
    typedef PyxisOpenRdmaJob Open;

    /// A message's identity at the receiver: (source chip, source cluster, cluster, TJID, RJID).
    typedef std::tuple<uint32_t, uint32_t, uint32_t, uint32_t, uint32_t> Key;

    /**
     * A trip passed its barrier: send its message (Tx) or wait for it (Rx).
     * \param engine the queue
     * \param trip the trip
     */
    void Handle(Ptr<PyxisRdmaEngine> engine, const PyxisTrip& trip);

    /**
     * Send a Tx trip's message.
     * \param engine the queue
     * \param trip the trip
     */
    void PostTx(Ptr<PyxisRdmaEngine> engine, const PyxisTrip& trip);

    /**
     * Match an Rx trip with its message, or wait for it.
     * \param engine the queue
     * \param trip the trip
     */
    void PostRx(Ptr<PyxisRdmaEngine> engine, const PyxisTrip& trip);

    /**
     * Resolve a trip's VOQ, aborting the run naming the trip if it has no target.
     * \param engine the trip's queue
     * \param trip the trip
     * \return its target (chip and cluster)
     */
    CellFabricVoqTable::Target Resolve(Ptr<PyxisRdmaEngine> engine, const PyxisTrip& trip) const;

    /**
     * Complete an Rx job with a message's bytes.
     * \param o the Rx job
     * \param bytes the message's bytes
     */
    void CompleteRx(const Open& o, uint64_t bytes);

    /**
     * The endpoint's Delivered trace.
     * \param m the message
     */
    void Delivered(const FabricMessage& m);

    /**
     * The endpoint's Completed trace.
     * \param m the message
     */
    void Completed(const FabricMessage& m);

    Ptr<PyxisChip> m_chip;                           //!< the chip
    Ptr<FabricEndpoint> m_endpoint;                  //!< its endpoint
    std::vector<uint32_t> m_accelerators;            //!< accelerator id by chip id
    std::map<uint32_t, uint32_t> m_chipOf;           //!< chip id by accelerator id
    CellFabricVoqTable m_voqs;                       //!< the chip's VOQ table (default map)
    uint8_t m_tclass{0};                             //!< TrafficClass
    std::map<uint64_t, Open> m_tx;                   //!< open Tx jobs by message id
    std::map<Key, std::deque<Open>> m_rxWaiting;     //!< Rx jobs waiting for their message
    std::map<Key, std::deque<uint64_t>> m_unclaimed; //!< bytes of messages without an Rx job yet
    Stats m_stats;                                   //!< counters
};

} // namespace ns3

#endif /* PYXIS_ENDPOINT_BINDING_H */
